//! The options the TD(lambda) examples (`train`, `train_nf`) share: the method's settings.

use std::path::PathBuf;
use tabula_coach::td::TdConfig;

/// The weights file and the settings of the method.
#[derive(clap::Args)]
pub struct TdArgs {
    /// The weights file: read to resume when it exists, written at every checkpoint.
    #[arg(long)]
    pub out: PathBuf,
    /// Games per gradient step.
    #[arg(long, default_value_t = 8)]
    pub batch: usize,
    /// Trace decay.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Step size per example.
    #[arg(long, default_value_t = 0.02)]
    pub alpha: f32,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl TdArgs {
    /// The method's settings.
    pub fn config(&self) -> TdConfig {
        TdConfig {
            batch: self.batch,
            lambda: self.lambda,
            alpha: self.alpha,
            seed: self.seed,
        }
    }
}
