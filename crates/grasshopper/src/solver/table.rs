//! The transposition table: open addressing with linear probing over `u64` slots, each a key
//! (61 bits, never zero) and the value's bounds (3 bits); zero marks an empty slot.
//!
//! Eight bytes a position. The table doubles at 3/4 full until it reaches its limit; after
//! that it stops adding positions (the search stays exact, only slower) and says so.

use super::key::KEY_BITS;

/// What is known of a position's value (mover's side, -1 loss, 0 draw, 1 win): `lo..=hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// The value is at least this.
    pub lo: i8,
    /// The value is at most this.
    pub hi: i8,
}

/// The five storable bounds (a slot never holds the useless `-1..=1`).
const CODES: [Bounds; 6] = [
    Bounds { lo: -1, hi: -1 },
    Bounds { lo: -1, hi: 0 },
    Bounds { lo: -1, hi: 1 },
    Bounds { lo: 0, hi: 0 },
    Bounds { lo: 0, hi: 1 },
    Bounds { lo: 1, hi: 1 },
];

fn code(b: Bounds) -> u64 {
    CODES
        .iter()
        .position(|&c| c == b)
        .expect("bounds are within -1..=1") as u64
}

const KEY_MASK: u64 = (1 << KEY_BITS) - 1;

/// A hash table from keys to bounds.
pub struct Table {
    slots: Vec<u64>,
    len: usize,
    max_slots: usize,
    full: bool,
}

impl Table {
    /// A table starting with `2^initial_bits` slots, growing to at most `max_slots` (rounded
    /// down to a power of two).
    pub fn new(initial_bits: u32, max_slots: usize) -> Table {
        let max_slots = max_slots.max(1 << 10);
        let max_slots = 1usize << (usize::BITS - 1 - max_slots.leading_zeros());
        let initial = (1usize << initial_bits).min(max_slots);
        Table {
            slots: vec![0; initial],
            len: 0,
            max_slots,
            full: false,
        }
    }

    /// Positions stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the table reached its limit and stopped adding positions.
    pub fn is_full(&self) -> bool {
        self.full
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        let bits = self.slots.len().trailing_zeros();
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    /// The bounds stored for `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Bounds> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let s = self.slots[i];
            if s == 0 {
                return None;
            }
            if s & KEY_MASK == key {
                return Some(CODES[(s >> KEY_BITS) as usize]);
            }
            i = (i + 1) & mask;
        }
    }

    /// Stores (or replaces) the bounds of `key`.
    pub fn put(&mut self, key: u64, b: Bounds) {
        let mask = self.slots.len() - 1;
        let entry = key | code(b) << KEY_BITS;
        let mut i = self.home(key);
        loop {
            let s = self.slots[i];
            if s & KEY_MASK == key {
                self.slots[i] = entry;
                return;
            }
            if s == 0 {
                break;
            }
            i = (i + 1) & mask;
        }
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            if self.slots.len() >= self.max_slots {
                self.full = true;
                return;
            }
            self.grow();
            return self.put(key, b);
        }
        self.slots[i] = entry;
        self.len += 1;
    }

    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|&s| s != 0) {
            let mut i = self.home(s & KEY_MASK);
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_bounds_come_back_through_growth() {
        let mut t = Table::new(4, 1 << 20);
        for k in 1..5000u64 {
            t.put(k * 7919, CODES[(k % 6) as usize]);
        }
        assert_eq!(t.len(), 4999);
        for k in 1..5000u64 {
            assert_eq!(t.get(k * 7919), Some(CODES[(k % 6) as usize]));
        }
        assert_eq!(t.get(3), None);
        t.put(7919, CODES[5]);
        assert_eq!(t.get(7919), Some(CODES[5]));
        assert_eq!(t.len(), 4999);
    }

    #[test]
    fn a_full_table_stops_adding_and_says_so() {
        let mut t = Table::new(4, 1 << 10);
        for k in 1..2000u64 {
            t.put(k, CODES[0]);
        }
        assert!(t.is_full());
        assert!(t.len() <= 768);
    }
}
