//! The base64 alphabet gnubg uses for Position and Match IDs (standard, no padding).

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes bytes as unpadded base64, most significant bits of each byte first.
pub(crate) fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 2);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
        }
    }
    out
}

/// Decodes unpadded base64 into exactly `N` bytes; `None` when a character is outside the
/// alphabet, the length is wrong, or unused trailing bits are set.
pub(crate) fn decode<const N: usize>(text: &str) -> Option<[u8; N]> {
    let chars = text.as_bytes();
    if chars.len() != (N * 8).div_ceil(6) {
        return None;
    }
    let mut bits: u128 = 0;
    for &c in chars {
        let v = ALPHABET.iter().position(|&a| a == c)? as u128;
        bits = (bits << 6) | v;
    }
    let extra = chars.len() * 6 - N * 8;
    if bits & ((1u128 << extra) - 1) != 0 {
        return None;
    }
    bits >>= extra;
    let mut out = [0u8; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = (bits >> (8 * (N - 1 - i))) as u8;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_round_trips() {
        let bytes = [0xE0u8, 0x73, 0xF0, 0x01, 0x30, 0xE0, 0x73, 0xF0, 0x01, 0x30];
        let text = super::encode(&bytes);
        assert_eq!(text.len(), 14);
        assert_eq!(super::decode::<10>(&text), Some(bytes));
        assert_eq!(super::decode::<10>("!!!!!!!!!!!!!!"), None);
        assert_eq!(super::decode::<10>("AAAA"), None);
    }
}
