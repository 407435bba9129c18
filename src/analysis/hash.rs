//! A fast, non-cryptographic hasher for the maps on the keystroke path (names of agents, file
//! ids): the multiply-rotate scheme of rustc's FxHash. The keys come from the user's own files,
//! so resistance to collision attacks (what the standard SipHash buys) is not needed there.

use std::hash::{BuildHasherDefault, Hasher};

/// See the module documentation.
#[derive(Clone, Copy, Default)]
pub struct FxHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(buf));
        }
    }

    fn write_u8(&mut self, i: u8) {
        self.add(i as u64);
    }

    fn write_u32(&mut self, i: u32) {
        self.add(i as u64);
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;
/// A `HashSet` with [`FxHasher`].
pub type FxHashSet<K> = std::collections::HashSet<K, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::Hash;

    fn hash(v: impl Hash) -> u64 {
        let mut h = FxHasher::default();
        v.hash(&mut h);
        h.finish()
    }

    #[test]
    fn equal_keys_hash_equal_and_different_ones_differ() {
        assert_eq!(hash("review"), hash("review"));
        let names = ["a", "b", "ab", "ba", "review", "reviewer", "review-1", "review-2", ""];
        let hashes: FxHashSet<u64> = names.iter().map(hash).collect();
        assert_eq!(hashes.len(), names.len());
        let mut m: FxHashMap<&str, usize> = FxHashMap::default();
        for (i, n) in names.iter().enumerate() {
            m.insert(n, i);
        }
        assert!(names.iter().enumerate().all(|(i, n)| m[n] == i));
    }
}
