//! The match equity table: the chance of winning a match from a given score, before a game
//! starts with the cube centred at 1.
//!
//! The numbers are the **Kazaross XG2** table (Neil Kazaross, 2011) as distributed with GNU
//! Backgammon in `met/Kazaross-XG2.xml`: rolled out with eXtreme Gammon up to 9-point
//! matches, with GNU Backgammon Supremo rollouts up to 15 points (the Rockwell-Kazaross
//! table), and extended to 25 points by projecting take points. They are published facts
//! about the game, used here as data. The pre-Crawford table holds every score up to
//! 25-away/25-away (a player 1-away against one who is not is about to play the Crawford
//! game); the post-Crawford table holds the trailer's chance at n-away against 1-away after
//! the Crawford game.
//!
//! Beyond 25-away (matches are up to 64 points) the table is extended by shifting both
//! scores down by the same amount until the longer one is 25-away (the shorter one stopping
//! at 2-away): what matters most in long matches is the difference in score, and the error
//! is small next to the evaluator's.

/// Where a match stands with respect to the Crawford rule, for a game about to start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Crawford {
    /// The Crawford game has not been played: a player who is 1-away against one who is not
    /// is about to play the Crawford game (no cube).
    Pre,
    /// The Crawford game has been played, or the match has no Crawford rule: the cube is in
    /// play in every game, and the trailer doubles at once.
    Post,
}

/// The table's size: scores up to 25-away.
const SIZE: usize = 25;

/// `PRE_CRAWFORD[i][j]`: the chance to win the match of the player `i + 1` away against one
/// `j + 1` away, before the Crawford game has been played.
#[rustfmt::skip]
const PRE_CRAWFORD: [[f32; SIZE]; SIZE] = [
    [0.50000, 0.67736, 0.75076, 0.81436, 0.84179, 0.88731, 0.90724, 0.93250, 0.94402, 0.959275, 0.966442, 0.975534, 0.979845, 0.985273, 0.987893, 0.99114, 0.99273, 0.99467, 0.99563, 0.99679, 0.99737, 0.99807, 0.99842, 0.99884, 0.99905],
    [0.32264, 0.50000, 0.59947, 0.66870, 0.74359, 0.79940, 0.84225, 0.87539, 0.90197, 0.923034, 0.939311, 0.952470, 0.962495, 0.970701, 0.976887, 0.98196, 0.98580, 0.98893, 0.99129, 0.99322, 0.99466, 0.99585, 0.99675, 0.99746, 0.99802],
    [0.24924, 0.40053, 0.50000, 0.57150, 0.64795, 0.71123, 0.76209, 0.80468, 0.84017, 0.870638, 0.894417, 0.914831, 0.930702, 0.944426, 0.954931, 0.96399, 0.97093, 0.97687, 0.98139, 0.98522, 0.98814, 0.99062, 0.99248, 0.99407, 0.99527],
    [0.18564, 0.33130, 0.42850, 0.50000, 0.57732, 0.64285, 0.69924, 0.74577, 0.78799, 0.824059, 0.853955, 0.879141, 0.900233, 0.918040, 0.932657, 0.94495, 0.95499, 0.96341, 0.97021, 0.97589, 0.98044, 0.98422, 0.98726, 0.98975, 0.99174],
    [0.15821, 0.25641, 0.35205, 0.42268, 0.50000, 0.56635, 0.62638, 0.67786, 0.72540, 0.767055, 0.802732, 0.833654, 0.859934, 0.882866, 0.902013, 0.91847, 0.93223, 0.94397, 0.95367, 0.96189, 0.96864, 0.97432, 0.97896, 0.98283, 0.98600],
    [0.11269, 0.20060, 0.28877, 0.35715, 0.43365, 0.50000, 0.56261, 0.61636, 0.66787, 0.713057, 0.753427, 0.788634, 0.819569, 0.846648, 0.869999, 0.89021, 0.90756, 0.92246, 0.93508, 0.94583, 0.95488, 0.96254, 0.96894, 0.97432, 0.97879],
    [0.09276, 0.15775, 0.23791, 0.30076, 0.37362, 0.43739, 0.50000, 0.55480, 0.60854, 0.656283, 0.700209, 0.739054, 0.774121, 0.805203, 0.832566, 0.85659, 0.87761, 0.89591, 0.91171, 0.92535, 0.93702, 0.94703, 0.95553, 0.96276, 0.96887],
    [0.06750, 0.12461, 0.19532, 0.25423, 0.32214, 0.38364, 0.44520, 0.50000, 0.55442, 0.603718, 0.649899, 0.691356, 0.729447, 0.763593, 0.794397, 0.82158, 0.84578, 0.86714, 0.88589, 0.90230, 0.91658, 0.92898, 0.93968, 0.94891, 0.95682],
    [0.05598, 0.09803, 0.15983, 0.21201, 0.27460, 0.33213, 0.39146, 0.44558, 0.50000, 0.550196, 0.597926, 0.641481, 0.682119, 0.718927, 0.752814, 0.78301, 0.81037, 0.83483, 0.85662, 0.87591, 0.89294, 0.90791, 0.92098, 0.93240, 0.94230],
    [0.040725, 0.076966, 0.129362, 0.175941, 0.232945, 0.286943, 0.343717, 0.396282, 0.449804, 0.500000, 0.548547, 0.593459, 0.635880, 0.674830, 0.711113, 0.74371, 0.77375, 0.80093, 0.82543, 0.84741, 0.86703, 0.88448, 0.89991, 0.91353, 0.92550],
    [0.033558, 0.060689, 0.105583, 0.146045, 0.197268, 0.246573, 0.299791, 0.350101, 0.402074, 0.451453, 0.500000, 0.545552, 0.589242, 0.629736, 0.667927, 0.70303, 0.73530, 0.76494, 0.79198, 0.81648, 0.83862, 0.85849, 0.87629, 0.89214, 0.90622],
    [0.024466, 0.047530, 0.085169, 0.120859, 0.166346, 0.211366, 0.260946, 0.308644, 0.358519, 0.406541, 0.454448, 0.500000, 0.544068, 0.585701, 0.625259, 0.66178, 0.69610, 0.72778, 0.75703, 0.78381, 0.80826, 0.83044, 0.85051, 0.86856, 0.88476],
    [0.020155, 0.037505, 0.069298, 0.099767, 0.140066, 0.180431, 0.225879, 0.270553, 0.317881, 0.364120, 0.410758, 0.455932, 0.500000, 0.541943, 0.582545, 0.62036, 0.65619, 0.68966, 0.72081, 0.74963, 0.77619, 0.80054, 0.82276, 0.84295, 0.86123],
    [0.014727, 0.029299, 0.055574, 0.081960, 0.117134, 0.153352, 0.194797, 0.236407, 0.281073, 0.325170, 0.370264, 0.414299, 0.458057, 0.500000, 0.540750, 0.57942, 0.61634, 0.65117, 0.68391, 0.71448, 0.74290, 0.76917, 0.79339, 0.81559, 0.83586],
    [0.012107, 0.023113, 0.045069, 0.067343, 0.097987, 0.130001, 0.167434, 0.205603, 0.247186, 0.288887, 0.332073, 0.374741, 0.417455, 0.459250, 0.500000, 0.53916, 0.57679, 0.61261, 0.64659, 0.67859, 0.70862, 0.73664, 0.76265, 0.78669, 0.80883],
    [0.00886, 0.01804, 0.03601, 0.05505, 0.08153, 0.10979, 0.14341, 0.17842, 0.21699, 0.25629, 0.29697, 0.33822, 0.37964, 0.42058, 0.46084, 0.50000, 0.53796, 0.57441, 0.60929, 0.64241, 0.67376, 0.70323, 0.73084, 0.75657, 0.78046],
    [0.00727, 0.01420, 0.02907, 0.04501, 0.06777, 0.09244, 0.12239, 0.15422, 0.18963, 0.22625, 0.26470, 0.30390, 0.34381, 0.38366, 0.42321, 0.46204, 0.50000, 0.53676, 0.57222, 0.60618, 0.63856, 0.66925, 0.69822, 0.72542, 0.75087],
    [0.00533, 0.01107, 0.02313, 0.03659, 0.05603, 0.07754, 0.10409, 0.13286, 0.16517, 0.19907, 0.23506, 0.27222, 0.31034, 0.34883, 0.38739, 0.42559, 0.46324, 0.50000, 0.53574, 0.57023, 0.60336, 0.63501, 0.66510, 0.69356, 0.72038],
    [0.00437, 0.00871, 0.01861, 0.02979, 0.04633, 0.06492, 0.08829, 0.11411, 0.14338, 0.17457, 0.20802, 0.24297, 0.27919, 0.31609, 0.35341, 0.39071, 0.42778, 0.46426, 0.50000, 0.53475, 0.56838, 0.60073, 0.63171, 0.66122, 0.68921],
    [0.00321, 0.00678, 0.01478, 0.02411, 0.03811, 0.05417, 0.07465, 0.09770, 0.12409, 0.15259, 0.18352, 0.21619, 0.25037, 0.28552, 0.32141, 0.35759, 0.39382, 0.42977, 0.46525, 0.50000, 0.53387, 0.56667, 0.59830, 0.62864, 0.65760],
    [0.00263, 0.00534, 0.01186, 0.01956, 0.03136, 0.04512, 0.06298, 0.08342, 0.10706, 0.13297, 0.16138, 0.19174, 0.22381, 0.25710, 0.29138, 0.32624, 0.36144, 0.39664, 0.43162, 0.46613, 0.50000, 0.53303, 0.56508, 0.59603, 0.62576],
    [0.00193, 0.00415, 0.00938, 0.01578, 0.02568, 0.03746, 0.05297, 0.07102, 0.09209, 0.11552, 0.14151, 0.16956, 0.19946, 0.23083, 0.26336, 0.29677, 0.33075, 0.36499, 0.39927, 0.43333, 0.46697, 0.50000, 0.53226, 0.56360, 0.59391],
    [0.00158, 0.00325, 0.00752, 0.01274, 0.02104, 0.03106, 0.04447, 0.06032, 0.07902, 0.10009, 0.12371, 0.14949, 0.17724, 0.20661, 0.23735, 0.26916, 0.30178, 0.33490, 0.36829, 0.40170, 0.43492, 0.46774, 0.50000, 0.53153, 0.56221],
    [0.00116, 0.00254, 0.00593, 0.01025, 0.01717, 0.02568, 0.03724, 0.05109, 0.06760, 0.08647, 0.10786, 0.13144, 0.15705, 0.18441, 0.21331, 0.24343, 0.27458, 0.30644, 0.33878, 0.37136, 0.40397, 0.43640, 0.46847, 0.50000, 0.53086],
    [0.00095, 0.00198, 0.00473, 0.00826, 0.01400, 0.02121, 0.03113, 0.04318, 0.05770, 0.07450, 0.09378, 0.11524, 0.13877, 0.16414, 0.19117, 0.21954, 0.24913, 0.27962, 0.31079, 0.34240, 0.37424, 0.40609, 0.43779, 0.46914, 0.50000],
];

/// `POST_CRAWFORD[i]`: the chance to win the match of the player `i + 1` away against one
/// 1-away, after the Crawford game. At 2-away the trailer's 48.8 % (not 50 %) is the leader's
/// free drop at work.
#[rustfmt::skip]
const POST_CRAWFORD: [f32; SIZE] = [
    0.500000, 0.48803, 0.32264, 0.31002, 0.19012, 0.18072, 0.11559, 0.10906, 0.06953,
    0.065161, 0.042069, 0.039060, 0.025371, 0.023428, 0.015304, 0.014050, 0.009240,
    0.008420, 0.005560, 0.005050, 0.003360, 0.003030, 0.002030, 0.001820, 0.001230,
];

/// The chance to win the match of the player `away_me` points away (0: has won) against
/// one `away_opp` points away, at the start of a game in the given Crawford state.
pub fn met(away_me: u32, away_opp: u32, crawford: Crawford) -> f32 {
    match (away_me, away_opp) {
        (0, 0) => 0.5,
        (0, _) => 1.0,
        (_, 0) => 0.0,
        (1, 1) => 0.5,
        (1, n) | (n, 1) if crawford == Crawford::Post => {
            let trailer = POST_CRAWFORD[(n as usize).min(SIZE) - 1];
            if away_me == 1 {
                1.0 - trailer
            } else {
                trailer
            }
        }
        (a, b) => {
            // Shift both scores down alike when the longer is past the table; a shorter
            // score stops at 2-away (1-away only if it was), so that being 1-away keeps its
            // Crawford meaning and the table stays monotone.
            let shift = a.max(b).saturating_sub(SIZE as u32);
            let reduce = |x: u32| x.saturating_sub(shift).max(x.min(2));
            let (a, b) = (reduce(a), reduce(b));
            PRE_CRAWFORD[a as usize - 1][b as usize - 1]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_symmetric() {
        for crawford in [Crawford::Pre, Crawford::Post] {
            for a in 0..=30 {
                for b in 0..=30 {
                    let sum = met(a, b, crawford) + met(b, a, crawford);
                    assert!((sum - 1.0).abs() < 1e-5, "{a} {b} {crawford:?}: {sum}");
                }
            }
        }
    }

    #[test]
    fn being_closer_to_the_end_is_never_worse() {
        for crawford in [Crawford::Pre, Crawford::Post] {
            for a in 1..=30 {
                for b in 1..30 {
                    // The opponent farther away: at least as good for us.
                    assert!(met(a, b + 1, crawford) >= met(a, b, crawford), "{a} {b}");
                    assert!(met(b + 1, a, crawford) <= met(b, a, crawford), "{b} {a}");
                }
            }
        }
    }

    #[test]
    fn known_values() {
        // Double match point and equal scores are even.
        assert_eq!(met(1, 1, Crawford::Pre), 0.5);
        assert_eq!(met(1, 1, Crawford::Post), 0.5);
        assert_eq!(met(7, 7, Crawford::Pre), 0.5);
        // The Crawford game at 1-away/2-away: about 68 % for the leader.
        assert!((met(1, 2, Crawford::Pre) - 0.677).abs() < 0.001);
        // Post-Crawford 2-away/1-away: the leader's free drop makes it 48.8 %.
        assert!((met(2, 1, Crawford::Post) - 0.488).abs() < 0.001);
        // 2-away/4-away: the classic 2-to-4 favourite.
        assert!((met(2, 4, Crawford::Pre) - 0.6687).abs() < 0.001);
        // A won or lost match.
        assert_eq!(met(0, 3, Crawford::Pre), 1.0);
        assert_eq!(met(3, 0, Crawford::Post), 0.0);
    }

    #[test]
    fn long_matches_shift_onto_the_table() {
        assert_eq!(met(40, 40, Crawford::Pre), 0.5);
        assert_eq!(met(30, 35, Crawford::Pre), met(20, 25, Crawford::Pre));
    }
}
