//! Hand-crafted inputs, the ones players count at the table, offered to the nets beside the
//! per-point code ([`super::encode::Encoding::Features`]): for each side its checkers back,
//! its longest prime, its home-board points, the shots it leaves and the escapes of its
//! rearmost checker. Whether they pay is measured in docs/training.md ("Hand-crafted
//! inputs").
//!
//! Each side is seen from its own end: `mine[i]` are its checkers on its point `i + 1`,
//! `theirs[i]` the other side's checkers on *their own* point `i + 1`. The features are
//! estimates, not rules: the shots ignore that a checker on the bar must enter before any
//! other moves, as players count them.

/// Features per side.
pub const PER_SIDE: usize = 5;
/// The further features per side of the extended encoding ([`both_extended`]).
pub const EXTRA_PER_SIDE: usize = 3;

/// The 36 ordered rolls as a bit set: bit `(d1 - 1) * 6 + (d2 - 1)`.
type Rolls = u64;

fn bit(d1: usize, d2: usize) -> Rolls {
    1 << ((d1 - 1) * 6 + (d2 - 1))
}

/// Every roll that shows die `d`.
fn with_die(d: usize) -> Rolls {
    (1..=6).fold(0, |m, o| m | bit(d, o) | bit(o, d))
}

/// One way of travelling a distance: the rolls it serves and the offsets (bits, counted
/// from the start) that must all be open on the way.
#[derive(Clone, Copy)]
struct Way {
    rolls: Rolls,
    needs: u32,
}

/// The farthest a roll travels (6-6).
const FARTHEST: usize = 24;

/// For each distance up to [`NEAR`] (the table's; farther only doubles travel), the ways of travelling it: single dice, both dice
/// through either intermediate point, and doubles through every intermediate point.
fn ways() -> &'static [Vec<Way>; NEAR + 1] {
    static WAYS: std::sync::OnceLock<[Vec<Way>; NEAR + 1]> = std::sync::OnceLock::new();
    WAYS.get_or_init(|| {
        std::array::from_fn(|dist| {
            let mut ways = Vec::new();
            if dist == 0 {
                return ways;
            }
            if dist <= 6 {
                ways.push(Way {
                    rolls: with_die(dist),
                    needs: 0,
                });
            }
            for d1 in 1..=6usize {
                if dist > d1 && dist - d1 <= 6 && dist - d1 != d1 {
                    for via in [d1, dist - d1] {
                        ways.push(Way {
                            rolls: bit(d1, dist - d1),
                            needs: 1 << via,
                        });
                    }
                }
                if dist.is_multiple_of(d1) && (2..=4).contains(&(dist / d1)) {
                    ways.push(Way {
                        rolls: bit(d1, d1),
                        needs: (1..dist / d1).fold(0, |m, j| m | 1 << (j * d1)),
                    });
                }
            }
            ways
        })
    })
}

/// The distances up to which [`covering`] reads a table of every pattern of closed
/// points on the way (`2^(dist - 1)` entries a distance, 4,095 in all); beyond it only
/// doubles travel, three or four times their die, and [`covering`] checks them directly.
const NEAR: usize = 12;

/// The rolls covering each distance up to [`NEAR`] for each pattern of closed intermediate
/// points: distance `d`'s entries start at `2^(d - 1) - 1`, indexed by bits `1..d` of the
/// closed points shifted down by one.
fn near() -> &'static [Rolls] {
    static NEAR_TABLE: std::sync::OnceLock<Vec<Rolls>> = std::sync::OnceLock::new();
    NEAR_TABLE.get_or_init(|| {
        let mut table = Vec::with_capacity((1 << NEAR) - 1);
        for dist in 1..=NEAR {
            for pattern in 0..1u32 << (dist - 1) {
                table.push(walk_ways(dist, pattern << 1));
            }
        }
        table
    })
}

/// The rolls of `dist`'s ways whose needed points are all open.
fn walk_ways(dist: usize, blocked: u32) -> Rolls {
    ways()[dist]
        .iter()
        .filter(|w| w.needs & blocked == 0)
        .fold(0, |m, w| m | w.rolls)
}

/// The rolls with which a checker may travel `dist` pips, where bit `k` of `blocked` says
/// that the point `k` pips along is closed to it (the landing point included); `near` is
/// [`near`]'s table, fetched once by a caller counting many distances.
fn covering(near: &[Rolls], dist: usize, blocked: u32) -> Rolls {
    if dist == 0 || dist > FARTHEST || blocked & (1 << dist) != 0 {
        return 0;
    }
    if dist <= NEAR {
        let pattern = (blocked >> 1) & ((1 << (dist - 1)) - 1);
        return near[(1 << (dist - 1)) - 1 + pattern as usize];
    }
    // Beyond 12 pips only a double travels, three or four times its die.
    let (die, steps) = match dist {
        15 => (5, 3),
        16 => (4, 4),
        18 => (6, 3),
        20 => (5, 4),
        24 => (6, 4),
        _ => return 0,
    };
    let needs = (1..steps).fold(0u32, |m, j| m | 1 << (j * die));
    if blocked & needs == 0 {
        bit(die, die)
    } else {
        0
    }
}

/// Both sides' features, the first side's then the other's: `mine` and `bar` are the first
/// side's checkers (on its own points 1..=24, and on the bar), `theirs` and `their_bar` the
/// other's.
pub fn both(mine: &[u8; 24], bar: u8, theirs: &[u8; 24], their_bar: u8) -> [f32; 2 * PER_SIDE] {
    // Each side's points as masks once, read by both sides' features.
    let a = Masks::of(mine, bar);
    let b = Masks::of(theirs, their_bar);
    let mut f = [0.0; 2 * PER_SIDE];
    f[..PER_SIDE].copy_from_slice(&from_masks(&a, &b));
    f[PER_SIDE..].copy_from_slice(&from_masks(&b, &a));
    f
}

/// Both sides' features and their further ones ([`EXTRA_PER_SIDE`]), in the order of the
/// extended encoding: [`both`]'s ten, then the first side's further three, then the other's.
/// The further three of a side: its most advanced anchor in the other side's home board
/// (`(25 - p) / 6` for its point `p` in 19..=24, 0 without one); the pips its checkers must
/// still travel to pass the other side's rearmost checker, / 100 (0 once contact is broken);
/// and the pips it expects to lose to the other side's hits, / 12: over the 36 rolls, the
/// pips back (`25 - p`) of the most costly blot each roll hits.
pub fn both_extended(
    mine: &[u8; 24],
    bar: u8,
    theirs: &[u8; 24],
    their_bar: u8,
) -> [f32; 2 * (PER_SIDE + EXTRA_PER_SIDE)] {
    let a = Masks::of(mine, bar);
    let b = Masks::of(theirs, their_bar);
    let (fa, xa) = from_masks_extended(&a, &b, mine);
    let (fb, xb) = from_masks_extended(&b, &a, theirs);
    let mut f = [0.0; 2 * (PER_SIDE + EXTRA_PER_SIDE)];
    f[..PER_SIDE].copy_from_slice(&fa);
    f[PER_SIDE..2 * PER_SIDE].copy_from_slice(&fb);
    f[2 * PER_SIDE..2 * PER_SIDE + EXTRA_PER_SIDE].copy_from_slice(&xa);
    f[2 * PER_SIDE + EXTRA_PER_SIDE..].copy_from_slice(&xb);
    f
}

/// [`from_masks`] and the further three features of the side whose checkers on its points
/// are `points`.
fn from_masks_extended(
    mine: &Masks,
    theirs: &Masks,
    points: &[u8; 24],
) -> ([f32; PER_SIDE], [f32; EXTRA_PER_SIDE]) {
    let (features, loss) = counted(mine, theirs);
    // The anchor: the lowest of our points 19..=24 we hold with two or more.
    let anchors = (mine.made << 1) & (0b11_1111 << 19);
    let anchor = if anchors == 0 {
        0.0
    } else {
        (25 - anchors.trailing_zeros()) as f32 / 6.0
    };
    // Their rearmost checker on our numbering: their point q is our 25 - q, their bar our 0.
    let their_rearmost = if theirs.bar > 0 {
        0
    } else if theirs.on == 0 {
        25
    } else {
        25 - (32 - theirs.on.leading_zeros())
    };
    let mut behind = u32::from(mine.bar) * (25 - their_rearmost);
    for p in (their_rearmost + 1)..=24 {
        behind += u32::from(points[p as usize - 1]) * (p - their_rearmost);
    }
    (
        features,
        [anchor, behind as f32 / 100.0, loss as f32 / (36.0 * 12.0)],
    )
}

/// The features of the side whose checkers are `mine` (on its points 1..=24) and `bar`,
/// against `theirs` and `their_bar`, in the order: checkers back (on the other side's home
/// board or the bar, / 4), longest prime / 6, made home-board points / 6, the rolls of 36 on
/// which the other side hits one of its blots / 36, and the rolls of 36 on which its
/// rearmost checker passes the other side's blocks within the 8 points in front of it / 36
/// (1 when none block there).
pub fn side(mine: &[u8; 24], bar: u8, theirs: &[u8; 24], their_bar: u8) -> [f32; PER_SIDE] {
    from_masks(&Masks::of(mine, bar), &Masks::of(theirs, their_bar))
}

/// What the features read of one side: its points holding one checker or more and two or
/// more (bit `p - 1`: its own point `p`), its checkers on the bar, and its checkers back
/// (on its own points 19..=24 or the bar).
struct Masks {
    on: u32,
    made: u32,
    bar: u8,
    back: u32,
}

impl Masks {
    fn of(points: &[u8; 24], bar: u8) -> Masks {
        Masks {
            on: at_least(points, 1),
            made: at_least(points, 2),
            bar,
            back: u32::from(bar) + points[18..].iter().map(|&n| u32::from(n)).sum::<u32>(),
        }
    }
}

/// [`side`]'s features from both sides' masks.
fn from_masks(mine: &Masks, theirs: &Masks) -> [f32; PER_SIDE] {
    counted(mine, theirs).0
}

/// [`side`]'s features from both sides' masks, and the pips the side expects to lose to
/// hits, times 36 ([`both_extended`]).
fn counted(mine: &Masks, theirs: &Masks) -> ([f32; PER_SIDE], u32) {
    // Points as bits, bit p our point p. The other side's checker on its point q stands on
    // our point 25 - q and moves upwards in our numbering; its bar is our point 0. Seen from
    // their checker on our point a, the point k pips along is bit k of `made >> a`.
    let on = mine.on << 1;
    let made = mine.made << 1;
    let blots = on & !made;
    let occupied = theirs.on.reverse_bits() >> 7 | u32::from(theirs.bar > 0);
    let blocks = theirs.made.reverse_bits() >> 7;
    let prime = longest_run(made);
    let home = (made & 0b111_1110).count_ones();
    let table = near();
    let (shots, loss) = shots(table, blots, occupied, made);
    // The highest point holding a checker (0: none).
    let rearmost = if mine.bar > 0 {
        25
    } else {
        (32 - on.leading_zeros() as usize).saturating_sub(1)
    };
    (
        [
            mine.back as f32 / 4.0,
            prime as f32 / 6.0,
            home as f32 / 6.0,
            shots.count_ones() as f32 / 36.0,
            escapes(table, rearmost, blocks) as f32 / 36.0,
        ],
        loss,
    )
}

/// Bit `i` set where `counts[i]` is at least `n` (1 or more; the counts below 128, as a
/// side's 15 checkers are), eight points at a time: adding `128 - n` to each byte sets its
/// top bit exactly when the byte is at least `n`, without a carry into the next byte, and one
/// multiplication gathers the eight top bits into a byte.
fn at_least(counts: &[u8; 24], n: u8) -> u32 {
    let add = u64::from(128 - n) * 0x0101_0101_0101_0101;
    let mut mask = 0;
    for (k, eight) in counts.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        let tops = ((w + add) & 0x8080_8080_8080_8080) >> 7;
        mask |= ((tops.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32) << (8 * k);
    }
    mask
}

/// The rolls on which a checker of `occupied` (bit p: our point p, their bar at 0) hits a
/// blot of `blots`, past the points `made` closed to it; and the pips lost to those hits
/// summed over the rolls, each roll counting the most costly blot it hits (a blot on our
/// point `p` goes back `25 - p` pips: the lowest blots first).
fn shots(table: &[Rolls], mut blots: u32, occupied: u32, made: u32) -> (Rolls, u32) {
    let mut shots: Rolls = 0;
    let mut loss = 0;
    while blots != 0 {
        let b = blots.trailing_zeros() as usize;
        blots &= blots - 1;
        let mut attackers = occupied & ((1 << b) - 1);
        let before = shots;
        while attackers != 0 {
            let a = attackers.trailing_zeros() as usize;
            attackers &= attackers - 1;
            shots |= covering(table, b - a, made >> a);
        }
        loss += (shots & !before).count_ones() * (25 - b as u32);
    }
    (shots, loss)
}

/// The longest run of set bits.
fn longest_run(mut m: u32) -> u32 {
    let mut run = 0;
    while m != 0 {
        m &= m << 1;
        run += 1;
    }
    run
}

/// The rolls of 36 on which a checker on point `rearmost` (25: the bar, 0: none) passes the
/// blocks (bit p: point p closed) within the 8 points in front of it, landing beyond the
/// lowest of them; 36 when none block there.
fn escapes(table: &[Rolls], rearmost: usize, blocks: u32) -> u32 {
    if rearmost <= 1 {
        return 36;
    }
    let r = rearmost;
    let window = blocks & ((1 << r) - 1) & !((1 << r.saturating_sub(8).max(1)) - 1);
    if window == 0 {
        return 36;
    }
    let lowest = window.trailing_zeros() as usize;
    // Bit k: the point k pips in front of the rearmost checker is closed.
    let mut ahead = 0u32;
    let mut rest = blocks & ((1 << r) - 1);
    while rest != 0 {
        let p = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        ahead |= 1 << (r - p);
    }
    let mut m: Rolls = 0;
    for dest in 1..lowest {
        m |= covering(table, r - dest, ahead);
    }
    m.count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rolls_covering(dist: usize, blocked: u32) -> Rolls {
        covering(near(), dist, blocked)
    }

    /// The rolls covering `dist` as the rule reads, one roll at a time: a reference for the
    /// table of ways.
    fn rolls_covering_by_rule(dist: usize, open: impl Fn(usize) -> bool) -> Rolls {
        let mut m = 0;
        if dist == 0 || !open(dist) {
            return 0;
        }
        for d1 in 1..=6usize {
            for d2 in 1..=6usize {
                let ok = if d1 == d2 {
                    (1..=4).any(|n| n * d1 == dist && (1..n).all(|j| open(j * d1)))
                } else {
                    d1 == dist || d2 == dist || (d1 + d2 == dist && (open(d1) || open(d2)))
                };
                if ok {
                    m |= bit(d1, d2);
                }
            }
        }
        m
    }

    #[test]
    fn the_table_of_ways_covers_the_rolls_the_rule_allows() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..20_000 {
            let blocked: u32 = rng.gen::<u32>() & rng.gen::<u32>() & !1;
            let dist = rng.gen_range(0..=26);
            let want = rolls_covering_by_rule(dist, |k| blocked & (1 << k) == 0);
            assert_eq!(rolls_covering(dist, blocked), want, "{dist} {blocked:b}");
        }
    }

    /// The features as first written, point by point: a reference for the bit masks.
    fn side_point_by_point(
        mine: &[u8; 24],
        bar: u8,
        theirs: &[u8; 24],
        their_bar: u8,
    ) -> [f32; PER_SIDE] {
        let back = u32::from(bar) + mine[18..].iter().map(|&n| u32::from(n)).sum::<u32>();
        let mut prime = 0;
        let mut run = 0;
        for &n in mine {
            run = if n >= 2 { run + 1 } else { 0 };
            prime = prime.max(run);
        }
        let home = mine[..6].iter().filter(|&&n| n >= 2).count();
        // The other side's checker on its point q stands on our point 25 - q and moves upwards in
        // our numbering; its bar is our point 0.
        let theirs_at = |p: usize| -> u8 {
            match p {
                0 => their_bar,
                1..=24 => theirs[24 - p],
                _ => 0,
            }
        };
        // Points as bits (bit p: our point p, their bar at 0). Seen from their checker on our
        // point a, the point k pips along is bit k of `made >> a`.
        let bits = |on: &dyn Fn(usize) -> bool, from: usize| {
            (from..=24).filter(|&p| on(p)).fold(0u32, |m, p| m | 1 << p)
        };
        let made = bits(&|p| mine[p - 1] >= 2, 1);
        let occupied = bits(&|p| theirs_at(p) > 0, 0);
        let blots = bits(&|p| mine[p - 1] == 1, 1);
        let shots = shots(near(), blots, occupied, made).0;
        let rearmost = if bar > 0 {
            Some(25)
        } else {
            (1..=24).rev().find(|&p| mine[p - 1] > 0)
        };
        let escapes = match rearmost {
            None => 36,
            Some(r) => {
                let blocked = |p: usize| (1..=24).contains(&p) && theirs_at(p) >= 2;
                match (r.saturating_sub(8).max(1)..r).find(|&p| blocked(p)) {
                    None => 36,
                    Some(lowest) => {
                        // Bit k: the point k pips in front of the rearmost checker is theirs.
                        let ahead = (1..r)
                            .filter(|&k| blocked(r - k))
                            .fold(0u32, |m, k| m | 1 << k);
                        let mut m: Rolls = 0;
                        for dest in 1..lowest {
                            m |= rolls_covering(r - dest, ahead);
                        }
                        m.count_ones()
                    }
                }
            }
        };
        [
            back as f32 / 4.0,
            prime as f32 / 6.0,
            home as f32 / 6.0,
            shots.count_ones() as f32 / 36.0,
            escapes as f32 / 36.0,
        ]
    }

    #[test]
    fn the_bit_masks_count_as_the_points_do() {
        for (sides, bars) in random_boards(20_000, 2) {
            let [mine, theirs] = &sides;
            assert_eq!(
                side(mine, bars[0], theirs, bars[1]),
                side_point_by_point(mine, bars[0], theirs, bars[1]),
                "{mine:?} {theirs:?} {bars:?}"
            );
        }
    }

    fn board(points: &[(usize, u8)]) -> [u8; 24] {
        let mut b = [0; 24];
        for &(p, n) in points {
            b[p - 1] = n;
        }
        b
    }

    /// Random boards of up to 15 checkers a side, points and bars.
    fn random_boards(n: usize, seed: u64) -> Vec<([[u8; 24]; 2], [u8; 2])> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let mut sides = [[0u8; 24]; 2];
                let mut bars = [0u8; 2];
                for (s, side) in sides.iter_mut().enumerate() {
                    for _ in 0..rng.gen_range(0..=15) {
                        match rng.gen_range(0..26) {
                            25 => bars[s] += 1,
                            p if p > 0 => side[p - 1] += 1,
                            _ => {}
                        }
                    }
                }
                (sides, bars)
            })
            .collect()
    }

    #[test]
    fn the_extended_features_begin_with_the_ten_and_mirror_by_side() {
        for ([mine, theirs], [bar, their_bar]) in random_boards(5_000, 3) {
            let x = both_extended(&mine, bar, &theirs, their_bar);
            assert_eq!(x[..2 * PER_SIDE], both(&mine, bar, &theirs, their_bar));
            // Seen from the other side, each side's further features change places.
            let y = both_extended(&theirs, their_bar, &mine, bar);
            let e = EXTRA_PER_SIDE;
            let further = 2 * PER_SIDE;
            assert_eq!(x[further..further + e], y[further + e..]);
            assert_eq!(x[further + e..], y[further..further + e]);
        }
    }

    #[test]
    fn the_pip_loss_counts_each_roll_s_most_costly_blot() {
        // Reference: each blot's rolls found alone, and each roll charged the largest loss
        // among the blots it hits.
        for ([mine, theirs], [bar, their_bar]) in random_boards(20_000, 4) {
            let (a, b) = (Masks::of(&mine, bar), Masks::of(&theirs, their_bar));
            let made = a.made << 1;
            let blots = (a.on << 1) & !made;
            let occupied = b.on.reverse_bits() >> 7 | u32::from(their_bar > 0);
            let mut worst = [0u32; 36];
            for p in 1..=24 {
                if blots & (1 << p) != 0 {
                    let (rolls, _) = shots(near(), 1 << p, occupied, made);
                    for (r, w) in worst.iter_mut().enumerate() {
                        if rolls & (1 << r) != 0 {
                            *w = (*w).max(25 - p as u32);
                        }
                    }
                }
            }
            let want: u32 = worst.iter().sum();
            let x = both_extended(&mine, bar, &theirs, their_bar);
            let got = x[2 * PER_SIDE + 2];
            assert!(
                (got - want as f32 / 432.0).abs() < 1e-6,
                "{mine:?} {theirs:?}"
            );
        }
    }

    #[test]
    fn the_anchor_and_the_pips_to_break_contact_count_as_players_do() {
        // Our anchor on our 20-point (their 5-point) and two checkers on our 13-point; their
        // rearmost checkers on their 24-point (our 1-point).
        let mine = board(&[(20, 2), (13, 2), (6, 11)]);
        let theirs = board(&[(24, 2), (6, 13)]);
        let x = both_extended(&mine, 0, &theirs, 0);
        let further = 2 * PER_SIDE;
        assert_eq!(x[further], 5.0 / 6.0);
        // Every checker of ours above our 1-point must still pass theirs there:
        // 2 * 19 + 2 * 12 + 11 * 5 pips.
        assert_eq!(x[further + 1], (2 * 19 + 2 * 12 + 11 * 5) as f32 / 100.0);
        // Their side: no anchor in our home board (their 24-point is our 1-point, their
        // home-board anchor would be on their 19..=24: their 24-point is made, so 1/6).
        assert_eq!(x[further + 3], 1.0 / 6.0);
        // Their checkers still to pass our rearmost (our 20-point, their 5-point): those on
        // their 24-point, 19 pips each, and those on their 6-point, one pip each.
        assert_eq!(x[further + 4], (2 * 19 + 13) as f32 / 100.0);
        // A race: nothing to pass, no loss.
        let race_mine = board(&[(3, 15)]);
        let race_theirs = board(&[(2, 15)]);
        let r = both_extended(&race_mine, 0, &race_theirs, 0);
        assert_eq!(r[further + 1], 0.0);
        assert_eq!(r[further + 4], 0.0);
        assert_eq!(r[further], 0.0);
    }

    #[test]
    fn a_blot_six_pips_from_an_enemy_checker_is_hit_by_seventeen_rolls() {
        // Our blot on our 10-point; their checker on our 4-point (their 21-point).
        let mine = board(&[(10, 1), (2, 14)]);
        let theirs = board(&[(21, 1), (1, 14)]);
        let f = side(&mine, 0, &theirs, 0);
        // Any six (11), 5-1, 4-2 (4), 3-3 and 2-2 (2): 17 rolls.
        assert_eq!(f[3], 17.0 / 36.0);
    }

    #[test]
    fn a_checker_behind_a_full_prime_has_no_escape() {
        // Their prime on their points 2..=7 is our 18..=23; our checker sits on our 24.
        let mine = board(&[(24, 1), (6, 14)]);
        let theirs = board(&[(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (7, 2), (13, 3)]);
        let f = side(&mine, 0, &theirs, 0);
        assert_eq!(f[4], 0.0);
        assert_eq!(f[0], 0.25, "one checker back");
        // Their side has a six-point prime.
        assert_eq!(side(&theirs, 0, &mine, 0)[1], 1.0);
    }

    #[test]
    fn the_starting_position_counts_as_players_count_it() {
        let mine = board(&[(24, 2), (13, 5), (8, 3), (6, 5)]);
        let f = side(&mine, 0, &mine, 0);
        assert_eq!(f[0], 0.5, "two checkers back");
        assert_eq!(f[1], 1.0 / 6.0);
        assert_eq!(f[2], 1.0 / 6.0, "the six-point");
        assert_eq!(f[3], 0.0, "no blots");
        // From the 24-point past their 6- and 8-points: 6-2, 5-3, 6-3, 5-4, 6-4, 6-5 (12
        // rolls), 4-4, 3-3, 2-2; 6-6 and 5-5 are stopped, 6-1 lands on their 8-point.
        assert_eq!(f[4], 15.0 / 36.0);
    }
}
