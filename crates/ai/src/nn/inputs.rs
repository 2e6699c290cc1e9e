//! The sparse inputs every net reads: the indices and values of a position's non-zero
//! inputs, which the first layer adds up as rows. Each game's encoding fills them
//! (`crate::backgammon::nn::encode`, `crate::never_finishing::encode`).

/// The most inputs an [`Inputs`] holds: the widest encoding's count (backgammon's per-point
/// inputs, hand-crafted features and further features, 2 * 99 + 2 * 5 + 2 * 3), which every
/// other encoding stays under.
pub const CAPACITY: usize = 214;

/// The non-zero inputs of one position.
#[derive(Debug, Clone)]
pub struct Inputs {
    len: usize,
    index: [u16; CAPACITY],
    value: [f32; CAPACITY],
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::new()
    }
}

impl Inputs {
    /// No inputs.
    pub fn new() -> Inputs {
        Inputs {
            len: 0,
            index: [0; CAPACITY],
            value: [0.0; CAPACITY],
        }
    }

    /// Adds input `index` with `value` (zeros are skipped); at most [`CAPACITY`] inputs may be
    /// non-zero.
    pub fn push(&mut self, index: usize, value: f32) {
        if value != 0.0 {
            self.index[self.len] = index as u16;
            self.value[self.len] = value;
            self.len += 1;
        }
    }

    /// Forgets every input.
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The non-zero inputs as (index, value).
    pub fn iter(&self) -> impl Iterator<Item = (usize, f32)> + '_ {
        self.index[..self.len]
            .iter()
            .zip(&self.value[..self.len])
            .map(|(&i, &v)| (usize::from(i), v))
    }

    /// All inputs, zeros included (tests and tools).
    pub fn dense(&self) -> Vec<f32> {
        let mut d = vec![0.0; CAPACITY];
        for (i, v) in self.iter() {
            d[i] = v;
        }
        d
    }
}
