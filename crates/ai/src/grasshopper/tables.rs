//! Where the Grasshopper endgame tables are cached, and loading them once per process.
//!
//! `tabula solve grasshopper --tables K` builds the table for `k = K`
//! ([`tabula_grasshopper::endgame`]) and writes it to [`cache_path`]: the directory
//! `$TABULA_CACHE_DIR`, else `$XDG_CACHE_HOME/tabula`, else `$HOME/.cache/tabula`, file
//! `grasshopper-endgame-k{K}.bin`. [`shared`] loads the largest cached table (k from
//! [`LARGEST_K`] down to 1) the first time a bot asks, and keeps it for the process; a
//! missing table only means the bot searches those endgames itself. `TABULA_GRASSHOPPER_TABLES=off`
//! turns the tables off (for measuring the bot without them).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tabula_grasshopper::endgame::{EndgameTable, TableError};
use thiserror::Error;

/// The largest table the bots look for (k = 5 takes 4.2 GiB; see docs/grasshopper-solved.md).
pub const LARGEST_K: u8 = 5;

/// Why a cached table could not be read.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The bytes are not a table.
    #[error("{path}: {source}")]
    Table {
        /// The file.
        path: PathBuf,
        /// Why.
        source: TableError,
    },
}

/// The cache directory, if the environment names one.
pub fn cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("TABULA_CACHE_DIR") {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return Some(PathBuf::from(dir).join("tabula"));
    }
    var("HOME").map(|home| PathBuf::from(home).join(".cache").join("tabula"))
}

/// Where the table for `k` is cached.
pub fn cache_path(k: u8) -> Option<PathBuf> {
    cache_dir().map(|d| d.join(format!("grasshopper-endgame-k{k}.bin")))
}

/// Reads and checks a table file.
pub fn load(path: &Path) -> Result<EndgameTable, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    EndgameTable::from_bytes(&bytes).map_err(|source| LoadError::Table {
        path: path.to_path_buf(),
        source,
    })
}

/// The largest cached table, loaded on first use; `None` when none is cached, when a cached
/// file is damaged (the bot then plays without it), or when `TABULA_GRASSHOPPER_TABLES=off`.
pub fn shared() -> Option<Arc<EndgameTable>> {
    static TABLE: OnceLock<Option<Arc<EndgameTable>>> = OnceLock::new();
    TABLE
        .get_or_init(|| {
            if std::env::var("TABULA_GRASSHOPPER_TABLES").is_ok_and(|v| v == "off") {
                return None;
            }
            (1..=LARGEST_K)
                .rev()
                .filter_map(cache_path)
                .filter(|p| p.exists())
                .find_map(|p| load(&p).ok())
                .map(Arc::new)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_file_is_refused_with_its_path() {
        let dir = std::env::temp_dir().join(format!("tabula-tables-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("grasshopper-endgame-k2.bin");
        let table = EndgameTable::build(2, |_| {}).unwrap();
        let mut bytes = table.to_bytes();
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(load(&path).unwrap().states(), table.states());
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff;
        std::fs::write(&path, &bytes).unwrap();
        let err = load(&path).unwrap_err().to_string();
        assert!(err.contains("checksum") && err.contains("k2.bin"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(matches!(load(&path), Err(LoadError::Io { .. })));
    }
}
