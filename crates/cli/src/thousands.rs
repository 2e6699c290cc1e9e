//! Large counts for people: digits grouped by thousands (`4,853,384`), as `solve` and
//! `selfplay` print node and position counts.

/// `n` with a comma between groups of three digits.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    // The first group has one to three digits, every other group three.
    let head = match digits.len() % 3 {
        0 => 3.min(digits.len()),
        short => short,
    };
    let mut groups = vec![&digits[..head]];
    let mut rest = &digits[head..];
    while !rest.is_empty() {
        groups.push(&rest[..3]);
        rest = &rest[3..];
    }
    groups.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(4_853_384), "4,853,384");
    }
}
