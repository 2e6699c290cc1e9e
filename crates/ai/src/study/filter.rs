//! The move filter: which plays, ranked at 0-ply, an n-ply search examines deeper. Shared by
//! the analysis (`nply`) and the strong bot's search (`crate::search`).

/// Which plays are searched deeper than 0-ply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Filter {
    /// At most this many plays.
    pub keep: usize,
    /// Only plays whose 0-ply equity is within this of the best play's...
    pub within: f32,
    /// ...except the best `at_least`, searched however far behind they are at 0-ply (the
    /// net misjudges some structures by more than any fixed margin: issue 27's example,
    /// the right play ranked fifth and 0.31 behind at 0-ply).
    pub at_least: usize,
}

impl Default for Filter {
    /// gnubg's usual filter for 2-ply analysis keeps up to 8 plays within 0.16. Tabula's
    /// net is less sure of itself at 0-ply, so it keeps up to 8 within 0.32, and the best
    /// 5 always.
    fn default() -> Filter {
        Filter {
            keep: 8,
            within: 0.32,
            at_least: 5,
        }
    }
}

impl Filter {
    /// How many of the plays, whose 0-ply equities are `sorted` best first, this filter
    /// searches deeper.
    pub fn count(&self, sorted: impl IntoIterator<Item = f32>) -> usize {
        let mut sorted = sorted.into_iter().peekable();
        let Some(&best) = sorted.peek() else {
            return 0;
        };
        sorted
            .take(self.keep.max(self.at_least))
            .enumerate()
            .take_while(|&(k, e)| k < self.at_least || (k < self.keep && best - e <= self.within))
            .count()
    }

    /// Where more of the plays (0-ply equities `sorted` best first) than this filter keeps
    /// are within its margin: how many of them, up to `wide`, to rank one roll ahead before
    /// keeping `keep` by that ranking (`crate::search::STRONG_WIDE`). `None`: the filter
    /// alone.
    pub fn wide_count(&self, wide: usize, sorted: impl IntoIterator<Item = f32>) -> Option<usize> {
        let within = Filter {
            keep: wide,
            ..*self
        }
        .count(sorted);
        (within > self.keep).then_some(within)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wide_stage_runs_only_where_more_plays_than_the_filter_keeps_are_within_its_margin() {
        let filter = Filter::default();
        // 12 plays within 0.32, then far ones: 12 of them go one roll ahead.
        let close: Vec<f32> = (0..12)
            .map(|k| -0.01 * k as f32)
            .chain([-1.0, -2.0])
            .collect();
        assert_eq!(filter.wide_count(40, close.iter().copied()), Some(12));
        assert_eq!(filter.wide_count(10, close.iter().copied()), Some(10));
        // 6 within the margin: the filter alone; and no stage when `wide` is 0.
        let few: Vec<f32> = (0..6).map(|k| -0.01 * k as f32).chain([-1.0; 6]).collect();
        assert_eq!(filter.wide_count(40, few.iter().copied()), None);
        assert_eq!(filter.wide_count(0, close.iter().copied()), None);
    }
}
