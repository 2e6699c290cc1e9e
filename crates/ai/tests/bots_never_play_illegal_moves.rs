//! No bot of any level ever answers a decision with an action the game refuses, and none
//! stays silent when a decision is due (issue 6, "no bot ever makes an illegal move").
//!
//! For each of the four games, seeded random walks from the start reach many positions; at
//! every decision each level's bot, built by the same factory the CLI, the harness and the
//! server use (`tabula_ai::bots`), is asked for its action on a copy of the game, and that
//! action must be accepted by `apply`. At chance nodes and after the end every bot must
//! answer `None`. The walks are biased towards the decisions bots meet rarely in self-play
//! (doubles, takes, resignation offers in backgammon) but keep them rare enough that games
//! last into the middle and end game.
//!
//! Cost: the strong Grasshopper and Halma bots spend 0.2-0.4 s a decision at their default
//! budget, so the factory's strong bot is asked only on every `STRONG_EVERY`-th decision,
//! and the same search with a small node budget (`with_budget`) is asked everywhere else.
//! The whole file runs in well under a minute in the test profile.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tabula_ai::{bots, Bot, Budget, Level};
use tabula_core::{ChaChaDice, Decision, DiceSource, Game, Status};

/// Every level, weakest first.
const LEVELS: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Strong];

/// The expensive default-budget bots are asked on one move decision in this many.
const STRONG_EVERY: usize = 12;

/// A bot under test, and on which decisions it is asked.
struct Player<G: Game> {
    name: String,
    bot: Box<dyn Bot<G> + Send>,
    every: usize,
    /// Asked on one cube or resignation decision in this many (1: every one).
    every_other: usize,
}

impl<G: Game> Player<G> {
    fn new(name: impl Into<String>, bot: Box<dyn Bot<G> + Send>, every: usize) -> Player<G> {
        Player {
            name: name.into(),
            bot,
            every,
            every_other: 1,
        }
    }

    /// Asked on one cube or resignation decision in `every_other` only.
    fn other_decisions_every(mut self, every_other: usize) -> Player<G> {
        self.every_other = every_other;
        self
    }
}

/// What one walk checked.
#[derive(Default)]
struct Tally {
    decisions: usize,
    /// Decisions by kind (`DoubleOrRoll`, `Move`, ...).
    kinds: std::collections::BTreeMap<String, usize>,
    answers: usize,
    quiet: usize,
}

/// Walks `games` games from `new_game`, choosing the walk's own actions with `walk`, for at
/// most `max_actions` actions each, and checks every player at every decision it is due.
fn walk<G: Game>(
    label: &str,
    games: u64,
    max_actions: usize,
    new_game: impl Fn() -> G,
    players: impl Fn(u64) -> Vec<Player<G>>,
    pick: impl Fn(&[G::Action], &mut ChaCha8Rng) -> usize,
) -> Tally {
    let mut tally = Tally::default();
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_0000 + g);
        let mut dice = ChaChaDice::new(0xd1ce_0000 + g);
        let mut players = players(g);
        let mut game = new_game();
        let mut actions = 0;
        loop {
            match game.status() {
                Status::Over(_) | Status::Chance(_) => {
                    for p in &mut players {
                        let answer = p.bot.choose(&game);
                        assert!(
                            answer.is_none(),
                            "{label} game {g}: {} answered {answer:?} with no decision due ({:?})",
                            p.name,
                            game.status()
                        );
                        tally.quiet += 1;
                    }
                    if matches!(game.status(), Status::Over(_)) {
                        break;
                    }
                    game.roll(dice.roll()).expect("the game asked for dice");
                }
                Status::Decide { decision, .. } => {
                    if actions >= max_actions {
                        break;
                    }
                    tally.decisions += 1;
                    *tally.kinds.entry(format!("{decision:?}")).or_default() += 1;
                    for p in &mut players {
                        // Cube and resignation decisions are rarer: every bot but the
                        // costliest answers all.
                        let every = if matches!(decision, Decision::Move) {
                            p.every
                        } else {
                            p.every_other
                        };
                        if tally.decisions % every != 0 {
                            continue;
                        }
                        let Some(action) = p.bot.choose(&game) else {
                            panic!(
                                "{label} game {g}, action {actions}: {} found no action for \
                                 {decision:?}",
                                p.name
                            );
                        };
                        let mut copy = game.clone();
                        if let Err(e) = copy.apply(&action) {
                            panic!(
                                "{label} game {g}, action {actions}: {} chose {action:?} for \
                                 {decision:?}, refused: {e}",
                                p.name
                            );
                        }
                        tally.answers += 1;
                    }
                    let legal = game.legal_actions();
                    assert!(
                        !legal.is_empty(),
                        "{label}: a decision with no legal action"
                    );
                    let i = pick(&legal, &mut rng);
                    game.apply(&legal[i]).expect("a legal action is accepted");
                    actions += 1;
                }
            }
        }
    }
    eprintln!(
        "{label}: {} decisions {:?}, {} bot answers checked, {} quiet answers",
        tally.decisions, tally.kinds, tally.answers, tally.quiet
    );
    assert!(tally.answers > 0, "{label}: nothing was checked");
    tally
}

/// Index of a uniformly random element of `legal` satisfying `want`, or of any element when
/// none does.
fn uniform_among<A>(legal: &[A], rng: &mut ChaCha8Rng, want: impl Fn(&A) -> bool) -> usize {
    let wanted: Vec<usize> = (0..legal.len()).filter(|&i| want(&legal[i])).collect();
    if wanted.is_empty() {
        rng.gen_range(0..legal.len())
    } else {
        wanted[rng.gen_range(0..wanted.len())]
    }
}

mod backgammon {
    use super::*;
    use tabula_tables::backgammon::{Action, Backgammon, Mode, Options};

    fn money() -> Options {
        let mut options = Options::money();
        if let Mode::Money { games, .. } = &mut options.mode {
            *games = Some(1);
        }
        options
    }

    fn players(g: u64) -> Vec<Player<Backgammon>> {
        LEVELS
            .iter()
            .map(|&level| {
                let bot = bots::backgammon(level, g).expect("every level exists");
                // Strong costs most: every third move, and every third cube or
                // resignation decision (a close cube decision is rolled out, and the walk's
                // random positions are often close).
                let every = if level == Level::Strong { 3 } else { 1 };
                Player::new(format!("backgammon {level}"), bot, every).other_decisions_every(every)
            })
            .collect()
    }

    /// Resignations now and then (so that resignation answers are asked), doubles and takes
    /// often, drops and accepted resignations seldom (they end the game).
    fn pick(legal: &[Action], rng: &mut ChaCha8Rng) -> usize {
        let r: f64 = rng.gen();
        if r < 0.04 {
            return uniform_among(legal, rng, |a| matches!(a, Action::Resign(_)));
        }
        if r < 0.30 {
            return uniform_among(legal, rng, |a| {
                matches!(a, Action::Double | Action::Beaver | Action::Take)
            });
        }
        if r < 0.33 {
            return uniform_among(legal, rng, |a| {
                matches!(a, Action::Drop | Action::AcceptResignation)
            });
        }
        uniform_among(legal, rng, |a| {
            matches!(
                a,
                Action::Move(_) | Action::Roll | Action::Take | Action::RejectResignation
            )
        })
    }

    #[test]
    fn every_level_answers_every_money_decision_legally() {
        let t = walk(
            "backgammon money",
            40,
            400,
            || Backgammon::new(money()).expect("money options are valid"),
            players,
            pick,
        );
        assert!(t.decisions >= 1_500, "only {} decisions", t.decisions);
        for kind in ["DoubleOrRoll", "TakeOrDrop", "Move", "ResignationAnswer"] {
            assert!(t.kinds.contains_key(kind), "no {kind} decision was reached");
        }
    }

    #[test]
    fn every_level_answers_every_match_decision_legally() {
        let options = Options::match_to(5).expect("a 5-point match is valid");
        walk(
            "backgammon match to 5",
            12,
            600,
            || Backgammon::new(options).expect("match options are valid"),
            players,
            pick,
        );
    }
}

mod never_finishing {
    use super::*;
    use tabula_tables::never_finishing::{NeverFinishing, NfOptions, Scoring};
    use tabula_tables::Trapping;

    #[test]
    fn every_level_answers_every_decision_legally() {
        for (games, scoring) in [
            (10, Scoring::Money { games: Some(1) }),
            (4, Scoring::Match { length: 3 }),
        ] {
            let options = NfOptions {
                scoring,
                trapping: Trapping::On,
            };
            walk(
                &format!("never-finishing {scoring:?}"),
                games,
                400,
                || NeverFinishing::new(options).expect("valid options"),
                |g| {
                    LEVELS
                        .iter()
                        .map(|&level| {
                            let bot = bots::never_finishing(level, g).expect("every level exists");
                            let every = if level == Level::Strong { 3 } else { 1 };
                            Player::new(format!("never-finishing {level}"), bot, every)
                        })
                        .collect()
                },
                |legal, rng| rng.gen_range(0..legal.len()),
            );
        }
    }
}

mod grasshopper {
    use super::*;
    use tabula_ai::grasshopper::GrasshopperBot;
    use tabula_grasshopper::{Checkers, Grasshopper};

    #[test]
    fn every_level_answers_every_decision_legally() {
        for (n, games) in [(4, 12), (14, 6)] {
            let checkers = Checkers::new(n).expect("an even count from 2 to 14");
            walk(
                &format!("grasshopper N={n}"),
                games,
                150,
                || Grasshopper::new(checkers),
                |g| {
                    let mut players: Vec<Player<Grasshopper>> = LEVELS
                        .iter()
                        .map(|&level| {
                            let bot = bots::grasshopper(level, g).expect("every level exists");
                            let every = if level == Level::Strong {
                                STRONG_EVERY
                            } else {
                                1
                            };
                            Player::new(format!("grasshopper {level}"), bot, every)
                        })
                        .collect();
                    let small = GrasshopperBot::with_budget(Level::Strong, g, Budget::Nodes(5_000));
                    players.push(Player::new(
                        "grasshopper strong at 5,000 nodes",
                        Box::new(small),
                        1,
                    ));
                    players
                },
                |legal, rng| rng.gen_range(0..legal.len()),
            );
        }
    }
}

mod halma {
    use super::*;
    use tabula_ai::halma::HalmaBot;
    use tabula_halma::{Action, BoardSize, HalmaGrasshopper};

    /// Moves and passes; a draw offer or acceptance now and then, so that the bots also meet
    /// a standing offer.
    fn pick(legal: &[Action], rng: &mut ChaCha8Rng) -> usize {
        if rng.gen_bool(0.03) {
            return uniform_among(legal, rng, |a| {
                matches!(a, Action::OfferDraw | Action::AcceptDraw)
            });
        }
        uniform_among(legal, rng, |a| matches!(a, Action::Move(_) | Action::Pass))
    }

    #[test]
    fn every_level_answers_every_decision_legally() {
        for (size, games) in [(BoardSize::Eight, 5), (BoardSize::Ten, 3)] {
            walk(
                &format!("halma {size}x{size}"),
                games,
                120,
                || HalmaGrasshopper::new(size),
                |g| {
                    let mut players: Vec<Player<HalmaGrasshopper>> = LEVELS
                        .iter()
                        .map(|&level| {
                            let bot = bots::halma(level, g).expect("every level exists");
                            let every = if level == Level::Strong {
                                4 * STRONG_EVERY
                            } else {
                                1
                            };
                            Player::new(format!("halma {level}"), bot, every)
                        })
                        .collect();
                    let small = HalmaBot::with_budget(Level::Strong, g, Budget::Nodes(3_000));
                    players.push(Player::new(
                        "halma strong at 3,000 nodes",
                        Box::new(small),
                        1,
                    ));
                    players
                },
                pick,
            );
        }
    }
}
