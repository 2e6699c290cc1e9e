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
}
