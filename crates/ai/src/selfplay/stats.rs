//! The arithmetic of a self-play run: win counts and their percentages in the game server's
//! format, average game length, and mean points per game with a 95 % confidence interval.
//!
//! Kept apart from the harness so that every number printed is checked on hand-computed
//! examples.

use crate::Level;

/// Wins of two sides and draws, as the game server's statistics print them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first side (White, or the `--white` player) won.
    pub first: u64,
    /// Games the second side won.
    pub second: u64,
    /// Drawn games.
    pub draws: u64,
}

impl Tally {
    /// All games counted.
    pub fn games(&self) -> u64 {
        self.first + self.second + self.draws
    }

    /// The line `white won 3948 (49.28 %), black won 3852 (48.08 %), draws 211 (2.63 %)`,
    /// the sides named `first` and `second`.
    pub fn line(&self, first: &str, second: &str) -> String {
        let n = self.games();
        format!(
            "{first} won {} ({:.2} %), {second} won {} ({:.2} %), draws {} ({:.2} %)",
            self.first,
            percent(self.first, n),
            self.second,
            percent(self.second, n),
            self.draws,
            percent(self.draws, n)
        )
    }
}

/// `part` as a percentage of `whole`; 0 when there is nothing to divide.
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// A sample mean with the half width of its 95 % confidence interval,
/// `1.96 * sd / sqrt(n)` with the sample standard deviation (divisor `n - 1`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The mean of the samples.
    pub mean: f64,
    /// The half width of the interval; `None` for fewer than two samples.
    pub half_width: Option<f64>,
    /// How many samples.
    pub samples: u64,
}

impl Estimate {
    /// The mean and interval of `samples` (mean 0 and no interval when empty).
    pub fn of(samples: &[f64]) -> Estimate {
        let n = samples.len();
        if n == 0 {
            return Estimate {
                mean: 0.0,
                half_width: None,
                samples: 0,
            };
        }
        let mean = samples.iter().sum::<f64>() / n as f64;
        let half_width = (n >= 2).then(|| {
            let ss: f64 = samples.iter().map(|x| (x - mean) * (x - mean)).sum();
            let sd = (ss / (n - 1) as f64).sqrt();
            1.96 * sd / (n as f64).sqrt()
        });
        Estimate {
            mean,
            half_width,
            samples: n as u64,
        }
    }

    /// `+0.412 ± 0.087`, or `+0.500 (no interval from one sample)`.
    pub fn text(&self) -> String {
        match self.half_width {
            Some(h) => format!("{:+.3} ± {h:.3}", self.mean),
            None => format!(
                "{:+.3} (no interval from fewer than two samples)",
                self.mean
            ),
        }
    }
}

/// One finished game as the statistics need it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameResult {
    /// Whether the `--white` player played Black (the second game of a duplicate pair).
    pub swapped: bool,
    /// White's points: positive when White won, negative when Black won, 0 for a draw.
    pub white_points: f64,
    /// Decisions of kind [`tabula_core::Decision::Move`] taken (plies).
    pub moves: u64,
    /// Every action taken, cube actions and resignation answers included.
    pub actions: u64,
    /// The code of the rule that ended the game ([`tabula_core::EndReason::code`]; for a
    /// match or money session, the rule that ended its last game).
    pub end: &'static str,
}

/// Everything printed about a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// The `--white` player's level.
    pub first: Level,
    /// The `--black` player's level.
    pub second: Level,
    /// Whether the games are duplicate pairs (game `2p + 1` replays game `2p`'s dice with
    /// the colours swapped).
    pub duplicate: bool,
    /// Wins by colour.
    pub by_colour: Tally,
    /// Wins by player (the `--white` player first), whatever colour they played.
    pub by_player: Tally,
    /// Average plies ([`GameResult::moves`]) per game.
    pub moves_per_game: f64,
    /// Average actions per game.
    pub actions_per_game: f64,
    /// Points per game for the `--white` player: over games, or over pair means in
    /// duplicate mode (the two games of a pair share their dice and are not independent).
    pub points: Estimate,
    /// How the games ended: each end reason's code with its count, most frequent first (ties
    /// by code).
    pub ends: Vec<(&'static str, u64)>,
}

impl Summary {
    /// The statistics of `results`, in game order.
    pub fn new(first: Level, second: Level, duplicate: bool, results: &[GameResult]) -> Summary {
        let mut by_colour = Tally::default();
        let mut by_player = Tally::default();
        // The --white player's points in each game.
        let mut first_points = Vec::with_capacity(results.len());
        for r in results {
            let p = r.white_points;
            let mine = if r.swapped { -p } else { p };
            first_points.push(mine);
            if p > 0.0 {
                by_colour.first += 1;
            } else if p < 0.0 {
                by_colour.second += 1;
            } else {
                by_colour.draws += 1;
            }
            if mine > 0.0 {
                by_player.first += 1;
            } else if mine < 0.0 {
                by_player.second += 1;
            } else {
                by_player.draws += 1;
            }
        }
        let samples: Vec<f64> = if duplicate {
            first_points
                .chunks(2)
                .map(|pair| pair.iter().sum::<f64>() / pair.len() as f64)
                .collect()
        } else {
            first_points
        };
        let n = results.len().max(1) as f64;
        let mut ends: Vec<(&'static str, u64)> = Vec::new();
        for r in results {
            match ends.iter_mut().find(|(code, _)| *code == r.end) {
                Some((_, count)) => *count += 1,
                None => ends.push((r.end, 1)),
            }
        }
        ends.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        Summary {
            first,
            second,
            duplicate,
            by_colour,
            by_player,
            moves_per_game: results.iter().map(|r| r.moves as f64).sum::<f64>() / n,
            actions_per_game: results.iter().map(|r| r.actions as f64).sum::<f64>() / n,
            points: Estimate::of(&samples),
            ends,
        }
    }

    /// `ended by: all-in-camp 18 (90.00 %), not-evacuated 2 (10.00 %)`.
    pub fn ends_line(&self) -> String {
        let n = self.by_colour.games();
        let parts: Vec<String> = self
            .ends
            .iter()
            .map(|&(code, count)| format!("{code} {count} ({:.2} %)", percent(count, n)))
            .collect();
        format!("ended by: {}", parts.join(", "))
    }

    /// The `--white` and `--black` players as the lines name them: their levels, with the
    /// flag added when both play the same level.
    pub fn player_names(&self) -> (String, String) {
        if self.first == self.second {
            (
                format!("{} (--white)", self.first),
                format!("{} (--black)", self.second),
            )
        } else {
            (self.first.to_string(), self.second.to_string())
        }
    }

    /// The result lines: wins by colour, wins by player in duplicate mode, length, points.
    pub fn lines(&self) -> Vec<String> {
        let (a, b) = self.player_names();
        let mut lines = vec![self.by_colour.line("white", "black")];
        if self.duplicate {
            lines.push(self.by_player.line(&a, &b));
        }
        lines.push(self.ends_line());
        lines.push(format!(
            "average length {:.2} moves ({:.2} actions) per game",
            self.moves_per_game, self.actions_per_game
        ));
        let (who, over) = if self.duplicate {
            (a, format!("{} duplicate pairs", self.points.samples))
        } else {
            (
                format!("White ({})", self.first),
                format!("{} games", self.points.samples),
            )
        };
        lines.push(format!(
            "points per game for {who}: {} (95 % confidence, over {over})",
            self.points.text()
        ));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tally_line_matches_the_seeds_statistics() {
        let t = Tally {
            first: 3948,
            second: 3852,
            draws: 211,
        };
        assert_eq!(
            t.line("white", "black"),
            "white won 3948 (49.28 %), black won 3852 (48.08 %), draws 211 (2.63 %)"
        );
    }

    #[test]
    fn percentages_of_nothing_are_zero() {
        assert_eq!(percent(3, 0), 0.0);
        assert_eq!(percent(1, 4), 25.0);
    }

    #[test]
    fn the_interval_is_1_96_sample_sd_over_root_n() {
        // Samples 1, -1, 1, -1: mean 0, squares sum 4, sd = sqrt(4/3), n = 4,
        // half width 1.96 * 1.1547 / 2 = 1.13161.
        let e = Estimate::of(&[1.0, -1.0, 1.0, -1.0]);
        assert_eq!(e.mean, 0.0);
        assert!((e.half_width.unwrap() - 1.131_607).abs() < 1e-6, "{e:?}");
        // Samples 2, 4, 6: mean 4, squares 8, sd = 2, half width 1.96 * 2 / sqrt 3 = 2.26321.
        let e = Estimate::of(&[2.0, 4.0, 6.0]);
        assert_eq!(e.mean, 4.0);
        assert!((e.half_width.unwrap() - 2.263_213).abs() < 1e-6, "{e:?}");
        assert_eq!(e.text(), "+4.000 ± 2.263");
    }

    #[test]
    fn one_sample_has_no_interval() {
        let e = Estimate::of(&[-2.0]);
        assert_eq!(e.mean, -2.0);
        assert_eq!(e.half_width, None);
        assert!(e.text().starts_with("-2.000 (no interval"));
        assert_eq!(Estimate::of(&[]).samples, 0);
    }

    fn game(swapped: bool, white_points: f64, moves: u64) -> GameResult {
        GameResult {
            end: if white_points == 0.0 {
                "repetition"
            } else {
                "all-in-camp"
            },
            swapped,
            white_points,
            moves,
            actions: moves + 1,
        }
    }

    #[test]
    fn a_plain_run_counts_by_colour_and_averages_lengths() {
        let results = [
            game(false, 1.0, 10),
            game(false, -2.0, 20),
            game(false, 0.0, 30),
        ];
        let s = Summary::new(Level::Medium, Level::Random, false, &results);
        assert_eq!(
            s.by_colour,
            Tally {
                first: 1,
                second: 1,
                draws: 1
            }
        );
        assert_eq!(s.moves_per_game, 20.0);
        assert_eq!(s.actions_per_game, 21.0);
        // Points 1, -2, 0: mean -1/3, squares 16/9 + 25/9 + 1/9 = 42/9, sd = sqrt(7/3),
        // half width 1.96 * 1.527525 / sqrt 3 = 1.728541.
        assert!((s.points.mean + 1.0 / 3.0).abs() < 1e-12);
        assert!((s.points.half_width.unwrap() - 1.728_558).abs() < 1e-6);
        assert_eq!(
            s.lines(),
            [
                "white won 1 (33.33 %), black won 1 (33.33 %), draws 1 (33.33 %)",
                "ended by: all-in-camp 2 (66.67 %), repetition 1 (33.33 %)",
                "average length 20.00 moves (21.00 actions) per game",
                "points per game for White (medium): -0.333 ± 1.729 (95 % confidence, over 3 games)",
            ]
        );
    }

    #[test]
    fn duplicate_pairs_score_the_white_player_over_pair_means() {
        // Pair 1: medium wins 2 as White, then wins 1 as Black (White's points -1): mean 1.5.
        // Pair 2: medium loses 1 as White, then White (random) wins 1: mean -1.
        let results = [
            game(false, 2.0, 10),
            game(true, -1.0, 10),
            game(false, -1.0, 10),
            game(true, 1.0, 10),
        ];
        let s = Summary::new(Level::Medium, Level::Random, true, &results);
        assert_eq!(
            s.by_colour,
            Tally {
                first: 2,
                second: 2,
                draws: 0
            }
        );
        assert_eq!(
            s.by_player,
            Tally {
                first: 2,
                second: 2,
                draws: 0
            }
        );
        // Pair means 1.5 and -1: mean 0.25, sd = sqrt(2 * 1.25^2) = 1.767767, half width
        // 1.96 * 1.767767 / sqrt 2 = 2.45.
        assert_eq!(s.points.samples, 2);
        assert!((s.points.mean - 0.25).abs() < 1e-12);
        assert!((s.points.half_width.unwrap() - 2.45).abs() < 1e-9);
        let lines = s.lines();
        assert_eq!(
            lines[1],
            "medium won 2 (50.00 %), random won 2 (50.00 %), draws 0 (0.00 %)"
        );
        assert!(lines[2].starts_with("ended by: "), "{}", lines[2]);
        assert_eq!(
            lines[4],
            "points per game for medium: +0.250 ± 2.450 (95 % confidence, over 2 duplicate pairs)"
        );
    }

    #[test]
    fn equal_levels_are_told_apart_by_their_flag() {
        let s = Summary::new(Level::Random, Level::Random, true, &[game(false, 1.0, 1)]);
        assert_eq!(
            s.player_names(),
            (
                "random (--white)".to_string(),
                "random (--black)".to_string()
            )
        );
    }
}
