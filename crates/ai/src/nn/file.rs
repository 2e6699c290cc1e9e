//! The weights file (`.tnn`), a format of our own: little-endian, versioned, checksummed.
//!
//! ```text
//! magic    8 bytes  "TABULANN"
//! version  u32      1
//! inputs   u32      the encoding's input count (each game's reader says which counts it
//!                   admits); a mismatch is refused
//! info     u32 n, then n bytes of UTF-8 (what trained it: free text)
//! nets     u32 count, then per net:
//!            name    u8 n, then n bytes of UTF-8 ("contact", "race")
//!            hidden  u32
//!            w1      inputs * hidden f32 (input-major), b1 hidden f32,
//!            w2      5 * hidden f32 (output-major),     b2 5 f32
//! sha256   32 bytes of everything before it
//! ```

use super::net::{Net, OUTPUTS};
use sha2::{Digest, Sha256};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"TABULANN";
/// The version this code writes and reads.
pub const VERSION: u32 = 1;

/// A weights file's contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// Free text: how the nets were trained.
    pub info: String,
    /// The nets by name.
    pub nets: Vec<(String, Net)>,
}

/// Why a weights file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// Not a weights file.
    #[error("not a Tabula weights file")]
    NotWeights,
    /// Another version.
    #[error("weights file version {0}, this build reads version {VERSION}")]
    Version(u32),
    /// Made for another input encoding.
    #[error("the weights expect {found} inputs, this build encodes {expected}")]
    Inputs {
        /// The file's input count.
        found: u32,
        /// The encoding's.
        expected: u32,
    },
    /// The nets of one file read different numbers of inputs.
    #[error("the nets of one weights file must read the same number of inputs")]
    MixedInputs,
    /// The checksum does not match.
    #[error("the weights file is damaged (checksum mismatch)")]
    Checksum,
    /// Cut short or malformed.
    #[error("the weights file is truncated or malformed")]
    Malformed,
    /// A net the evaluator needs is absent.
    #[error("the weights file has no {0:?} net")]
    MissingNet(String),
}

/// The bytes of a weights file. The header's input count is the nets' (`if_empty` when
/// there are none); nets of different input counts are refused.
pub fn write_for(weights: &Weights, if_empty: usize) -> Result<Vec<u8>, WeightsError> {
    let inputs = weights.nets.first().map_or(if_empty, |(_, n)| n.inputs());
    if weights.nets.iter().any(|(_, n)| n.inputs() != inputs) {
        return Err(WeightsError::MixedInputs);
    }
    let mut b = Vec::new();
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    b.extend_from_slice(&(inputs as u32).to_le_bytes());
    b.extend_from_slice(&(weights.info.len() as u32).to_le_bytes());
    b.extend_from_slice(weights.info.as_bytes());
    b.extend_from_slice(&(weights.nets.len() as u32).to_le_bytes());
    for (name, net) in &weights.nets {
        b.push(name.len() as u8);
        b.extend_from_slice(name.as_bytes());
        b.extend_from_slice(&(net.hidden as u32).to_le_bytes());
        for w in net.w1.iter().chain(&net.b1).chain(&net.w2).chain(&net.b2) {
            b.extend_from_slice(&w.to_le_bytes());
        }
    }
    let sum = Sha256::digest(&b);
    b.extend_from_slice(&sum);
    Ok(b)
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], WeightsError> {
        if self.0.len() < n {
            return Err(WeightsError::Malformed);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, WeightsError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn floats(&mut self, n: usize) -> Result<Vec<f32>, WeightsError> {
        let bytes = self.take(n.checked_mul(4).ok_or(WeightsError::Malformed)?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn text(&mut self, n: usize) -> Result<String, WeightsError> {
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| WeightsError::Malformed)
    }
}

/// Reads a weights file whose nets read `expected` inputs (another game's encoding).
pub fn read_for(bytes: &[u8], expected: usize) -> Result<Weights, WeightsError> {
    read_one_of(bytes, &[expected])
}

/// Reads a weights file whose nets read one of the `admitted` input counts (the first is
/// the one an error names), checking magic, version, input count, checksum and shapes.
pub fn read_one_of(bytes: &[u8], admitted: &[usize]) -> Result<Weights, WeightsError> {
    if bytes.len() < MAGIC.len() + 32 || &bytes[..MAGIC.len()] != MAGIC {
        return Err(WeightsError::NotWeights);
    }
    let (body, sum) = bytes.split_at(bytes.len() - 32);
    let mut r = Reader(&body[MAGIC.len()..]);
    let version = r.u32()?;
    if version != VERSION {
        return Err(WeightsError::Version(version));
    }
    if Sha256::digest(body).as_slice() != sum {
        return Err(WeightsError::Checksum);
    }
    let inputs = r.u32()?;
    if !admitted.contains(&(inputs as usize)) {
        return Err(WeightsError::Inputs {
            found: inputs,
            expected: admitted[0] as u32,
        });
    }
    let expected = inputs as usize;
    let n = r.u32()? as usize;
    let info = r.text(n)?;
    let count = r.u32()?;
    let mut nets = Vec::new();
    for _ in 0..count {
        let n = usize::from(r.take(1)?[0]);
        let name = r.text(n)?;
        let hidden = r.u32()? as usize;
        if hidden == 0 || hidden > 4096 {
            return Err(WeightsError::Malformed);
        }
        let w1 = r.floats(expected * hidden)?;
        let b1 = r.floats(hidden)?;
        let w2 = r.floats(OUTPUTS * hidden)?;
        let b2v = r.floats(OUTPUTS)?;
        let b2 = [b2v[0], b2v[1], b2v[2], b2v[3], b2v[4]];
        let net = Net::with_inputs(expected, hidden, w1, b1, w2, b2)
            .map_err(|_| WeightsError::Malformed)?;
        nets.push((name, net));
    }
    if !r.0.is_empty() {
        return Err(WeightsError::Malformed);
    }
    Ok(Weights { info, nets })
}
