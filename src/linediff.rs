//! Line hashes and line-level change counts for the baseline ledger.
//!
//! The ledger stores, per text file, one 32-bit hash per line (never the text),
//! so that `baseline diff` can report "scripts/run.py modified, +3 −1 lines"
//! between two snapshots. The hash function is therefore an on-disk format:
//! it is versioned by [`LINE_HASH_VERSION`] and locked by a known-answer test.
//! Any change to [`line_hashes`] must come with a new version tag.

use std::cmp::Ordering;

/// Version tag of the line-hash function, stored in the ledger ("lines-v1").
pub const LINE_HASH_VERSION: &str = "lines-v1";

/// Multiplier of the word step (the FxHash constant).
const K: u64 = 0x517c_c1b7_2722_0a95;
/// Initial state: the ASCII bytes "lines-v1" read as a little-endian u64.
const SEED: u64 = u64::from_le_bytes(*b"lines-v1");

/// One u32 per line, in order.
///
/// Line splitting: lines are split on `b'\n'`; one trailing `b'\r'` is removed
/// from each line (including a final line without newline) before hashing, so a
/// CRLF↔LF conversion changes no line hash; a final line without newline counts;
/// a trailing newline does not create an extra empty line; empty input gives an
/// empty vec. A lone `b'\r'` is not a line break. Bytes need not be UTF-8.
///
/// Hash of one line `L` (after the `\r` removal), all arithmetic wrapping on u64
/// (format `lines-v1`, see [`LINE_HASH_VERSION`]):
///
/// 1. `h = 0x3176_2d73_656e_696c` (the bytes `"lines-v1"` as a little-endian u64);
///    `step(h, w) = (h.rotate_left(5) ^ w) * 0x517c_c1b7_2722_0a95`.
/// 2. For each complete 8-byte chunk of `L`, in order: `h = step(h, u64::from_le_bytes(chunk))`.
/// 3. If 1..=7 bytes remain: `h = step(h, w)` where `w` is those bytes zero-padded
///    to 8 and read little-endian.
/// 4. `h = step(h, L.len() as u64)`.
/// 5. murmur3 fmix64: `h ^= h >> 33; h *= 0xff51_afd7_ed55_8ccd; h ^= h >> 33;
///    h *= 0xc4ce_b9fe_1a85_ec53; h ^= h >> 33`.
/// 6. The line hash is `(h ^ (h >> 32)) as u32`.
///
/// Known answers: the empty line hashes to `0xf7df_c3af`, the line `a` to
/// `0xcc17_9c93`, the line `12345678` to `0xa3b0_8525`.
pub fn line_hashes(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::with_capacity(bytes.len() / 32 + 1);
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', bytes) {
        out.push(hash_line(bytes, start, nl));
        start = nl + 1;
    }
    if start < bytes.len() {
        out.push(hash_line(bytes, start, bytes.len()));
    }
    out
}

/// True when the bytes contain at least one "\r\n".
pub fn has_crlf(bytes: &[u8]) -> bool {
    memchr::memmem::find(bytes, b"\r\n").is_some()
}

#[inline]
fn step(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(K)
}

/// Little-endian u64 from the first 8 bytes of `b`.
#[inline]
fn load(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

/// Hash of the line `buf[start..end]` (trailing `\r`, if any, still attached).
/// Taking the whole buffer lets the tail be read as one 8-byte load.
#[inline]
fn hash_line(buf: &[u8], start: usize, mut end: usize) -> u32 {
    if end > start && buf[end - 1] == b'\r' {
        end -= 1;
    }
    let line = &buf[start..end];
    let mut h = SEED;
    let mut chunks = line.chunks_exact(8);
    for chunk in &mut chunks {
        h = step(h, load(chunk));
    }
    let t = chunks.remainder().len();
    if t != 0 {
        // The tail bytes zero-padded, read little-endian.
        let w = if end - t + 8 <= buf.len() {
            load(&buf[end - t..]) & (u64::MAX >> (64 - 8 * t))
        } else if line.len() >= 8 {
            load(&buf[end - 8..]) >> (64 - 8 * t)
        } else {
            let mut w = [0u8; 8];
            w[..t].copy_from_slice(line);
            u64::from_le_bytes(w)
        };
        h = step(h, w);
    }
    h = step(h, line.len() as u64);
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    (h ^ (h >> 32)) as u32
}

/// Line counts of a change between two versions of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineDelta {
    pub added: usize,
    pub removed: usize,
    /// false when the budget was exceeded and the counts are an approximation
    /// (then they are lower bounds of the exact counts; `added - removed` is still exact).
    pub exact: bool,
}

/// Work budgets of [`diff_counts`]; a parameter only so tests can force each path.
#[derive(Debug, Clone, Copy)]
struct Limits {
    /// Largest edit distance D the Myers search explores.
    max_d: usize,
    /// Myers work cap: diagonals visited plus snake steps.
    max_work: u64,
    /// Largest N·M (after trimming) for the quadratic LCS fallback.
    max_dp_cells: u64,
}

const LIMITS: Limits = Limits {
    max_d: 4096,
    max_work: 1 << 24,
    max_dp_cells: 1 << 24,
};

/// Lines added and removed going from `old` to `new`: the sizes of a shortest
/// edit script (insertions and deletions only, i.e. `new.len() - LCS` and
/// `old.len() - LCS`).
///
/// After trimming the common prefix and suffix, Myers' O((N+M)·D) search runs
/// with a budget (D ≤ 4096 and about 16M steps of work). If that is exceeded, an
/// exact quadratic LCS is used when N·M ≤ 16M. Otherwise the result is the
/// multiset difference (lines of `new` not matched by an equal line of `old`, and
/// vice versa) with `exact = false`, unless the two sides share no line at all,
/// in which case that difference is exact.
pub fn diff_counts(old: &[u32], new: &[u32]) -> LineDelta {
    diff_counts_with(old, new, LIMITS)
}

fn diff_counts_with(old: &[u32], new: &[u32], limits: Limits) -> LineDelta {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let (old, new) = (&old[prefix..], &new[prefix..]);
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old, new) = (&old[..old.len() - suffix], &new[..new.len() - suffix]);

    let from_lcs = |lcs: usize| LineDelta {
        added: new.len() - lcs,
        removed: old.len() - lcs,
        exact: true,
    };
    if old.is_empty() || new.is_empty() {
        return from_lcs(0);
    }
    if let Some(d) = myers_distance(old, new, limits) {
        return from_lcs((old.len() + new.len() - d) / 2);
    }
    if let Some(lcs) = lcs_quadratic(old, new, limits.max_dp_cells) {
        return from_lcs(lcs);
    }
    multiset_delta(old, new)
}

/// Length D of a shortest insert/delete edit script from `a` to `b` (greedy
/// forward Myers), or `None` when the budget is exceeded.
fn myers_distance(a: &[u32], b: &[u32], limits: Limits) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    let max_d = (n + m).min(limits.max_d);
    if n.abs_diff(m) > max_d {
        return None; // D ≥ |N − M|
    }
    // v[off + k] = furthest x reached on diagonal k = x − y. The search runs on
    // the grid extended beyond (n, m) (moves off the grid are never diagonal),
    // which is why the end test is `>=`: clamping such a path to the grid gives
    // a path to (n, m) with no more non-diagonal moves.
    let off = max_d + 1;
    let mut v = vec![0usize; 2 * max_d + 3];
    let mut work = 0u64;
    for d in 0..=max_d {
        // Diagonals k = −d, −d+2, …, d, as indices off+k.
        for idx in (off - d..=off + d).step_by(2) {
            // Furthest of: down from diagonal k+1, right from diagonal k−1.
            let mut x = if idx == off - d {
                v[idx + 1]
            } else if idx == off + d {
                v[idx - 1] + 1
            } else {
                v[idx + 1].max(v[idx - 1] + 1)
            };
            // y = x − k ≥ 0 on every reachable point.
            let mut y = x + off - idx;
            let start = x;
            while x < n && y < m && a[x] == b[y] {
                x += 1;
                y += 1;
            }
            v[idx] = x;
            if x >= n && y >= m {
                return Some(d);
            }
            work += 1 + (x - start) as u64;
            if work > limits.max_work {
                return None;
            }
        }
    }
    None
}

/// LCS length by the classic O(N·M) recurrence with one row, or `None` when
/// N·M exceeds `max_cells`.
fn lcs_quadratic(a: &[u32], b: &[u32], max_cells: u64) -> Option<usize> {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if (short.len() as u64).saturating_mul(long.len() as u64) > max_cells
        || u32::try_from(short.len()).is_err()
    {
        return None;
    }
    // row[j] = LCS(long[..i], short[..=j]) ≤ short.len(), which fits u32.
    let mut row = vec![0u32; short.len()];
    for &x in long {
        let (mut diag, mut left) = (0u32, 0u32);
        for (cell, &y) in row.iter_mut().zip(short) {
            let up = *cell;
            let value = up.max(left).max(diag + u32::from(x == y));
            diag = up;
            left = value;
            *cell = value;
        }
    }
    Some(row.last().map_or(0, |&l| l as usize))
}

/// Multiset difference; exact only when no line is shared (LCS ≤ shared count).
fn multiset_delta(old: &[u32], new: &[u32]) -> LineDelta {
    let mut a = old.to_vec();
    let mut b = new.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    let (mut i, mut j, mut common) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    LineDelta {
        added: b.len() - common,
        removed: a.len() - common,
        exact: common == 0,
    }
}

/// Little-endian u32 encoding of a hash list.
pub fn encode(hashes: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hashes.len() * 4);
    encode_into(hashes, &mut out);
    out
}

/// [`encode`], appending to `out` (the ledger packs many lists into one buffer).
pub fn encode_into(hashes: &[u32], out: &mut Vec<u8>) {
    for h in hashes {
        out.extend_from_slice(&h.to_le_bytes());
    }
}

/// Inverse of [`encode`]; `None` when the length is not a multiple of 4.
pub fn decode(bytes: &[u8]) -> Option<Vec<u32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let hashes = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Some(hashes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic splitmix64 generator (no rand crate).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Independent oracle: full-table LCS.
    fn lcs_oracle(a: &[u32], b: &[u32]) -> usize {
        let mut t = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                t[i][j] = if a[i - 1] == b[j - 1] {
                    t[i - 1][j - 1] + 1
                } else {
                    t[i - 1][j].max(t[i][j - 1])
                };
            }
        }
        t[a.len()][b.len()]
    }

    fn delta(added: usize, removed: usize) -> LineDelta {
        LineDelta {
            added,
            removed,
            exact: true,
        }
    }

    fn h(line: &[u8]) -> u32 {
        hash_line(line, 0, line.len())
    }

    #[test]
    fn splitting() {
        assert!(line_hashes(b"").is_empty());
        assert_eq!(line_hashes(b"abc"), vec![h(b"abc")]);
        assert_eq!(line_hashes(b"abc\n"), vec![h(b"abc")]);
        assert_eq!(line_hashes(b"\n"), vec![h(b"")]);
        assert_eq!(line_hashes(b"\n\n"), vec![h(b""), h(b"")]);
        assert_eq!(line_hashes(b"a\nb"), vec![h(b"a"), h(b"b")]);
        assert_eq!(line_hashes(b"a\nb\n"), vec![h(b"a"), h(b"b")]);
        assert_eq!(line_hashes(b"a\n\nb\n"), vec![h(b"a"), h(b""), h(b"b")]);
        // A lone CR is not a line break; only one trailing CR is removed.
        assert_eq!(line_hashes(b"a\rb\n"), vec![h(b"a\rb")]);
        assert_ne!(h(b"a\rb"), h(b"ab"));
        assert_ne!(line_hashes(b"a\r\r\n"), line_hashes(b"a\n"));
    }

    #[test]
    fn crlf_equals_lf() {
        let lf = b"first\n\n  second line, longer than eight\nlast";
        let crlf = b"first\r\n\r\n  second line, longer than eight\r\nlast";
        assert_eq!(line_hashes(lf), line_hashes(crlf));
        assert_eq!(line_hashes(b"x\r\n"), line_hashes(b"x\n"));
        assert_eq!(line_hashes(b"x\r"), line_hashes(b"x"));
        assert_eq!(line_hashes(b"\r\n"), line_hashes(b"\n"));
        assert!(has_crlf(crlf));
        assert!(has_crlf(b"\r\n"));
        assert!(!has_crlf(lf));
        assert!(!has_crlf(b"a\rb\n\r"));
        assert!(!has_crlf(b""));
    }

    #[test]
    fn hashes_separate_small_inputs() {
        // Zero padding of the tail is disambiguated by the length.
        assert_ne!(h(b""), h(b"\0"));
        assert_ne!(h(b"ab"), h(b"ab\0"));
        assert_ne!(h(b"12345678"), h(b"12345678\0"));
        // Every single-byte line that survives splitting hashes differently.
        let mut seen: Vec<u32> = (0u8..=255)
            .filter(|&b| b != b'\n' && b != b'\r')
            .map(|b| h(&[b]))
            .collect();
        seen.push(h(b""));
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 255);
    }

    /// Known-answer test: locks the `lines-v1` on-disk format. If this fails,
    /// the hash changed and LINE_HASH_VERSION must change with it.
    #[test]
    fn format_lock_lines_v1() {
        assert_eq!(LINE_HASH_VERSION, "lines-v1");
        let input: &[u8] = b"\nfn main() {\r\n    let x = 1;\n}\na\n12345678\n123456789\n\
                             0123456789abcdef\n\xc3\xa9t\xc3\xa9\n\0\nno newline";
        let expected: Vec<u32> = vec![
            0xf7df_c3af, // ""
            0x3d0d_b560, // "fn main() {"
            0x4fcc_1053, // "    let x = 1;"
            0x53e9_cc5c, // "}"
            0xcc17_9c93, // "a"
            0xa3b0_8525, // "12345678"
            0xc5e8_9580, // "123456789"
            0x3e68_1a96, // "0123456789abcdef"
            0xa85e_b703, // "été"
            0x7555_3f67, // "\0"
            0x005a_927c, // "no newline"
        ];
        assert_eq!(line_hashes(input), expected);
    }

    #[test]
    fn identical_and_trivial() {
        let a = line_hashes(b"a\nb\nc\n");
        assert_eq!(diff_counts(&a, &a), delta(0, 0));
        assert_eq!(diff_counts(&[], &[]), delta(0, 0));
        assert_eq!(diff_counts(&[], &a), delta(3, 0));
        assert_eq!(diff_counts(&a, &[]), delta(0, 3));
    }

    #[test]
    fn one_line_changed() {
        let old = line_hashes(b"a\nb\nc\nd\n");
        let new = line_hashes(b"a\nB\nc\nd\n");
        assert_eq!(diff_counts(&old, &new), delta(1, 1));
        let new = line_hashes(b"A\nb\nc\nd\n");
        assert_eq!(diff_counts(&old, &new), delta(1, 1));
        let new = line_hashes(b"a\nb\nc\nD");
        assert_eq!(diff_counts(&old, &new), delta(1, 1));
    }

    #[test]
    fn insertions_and_deletions() {
        let old = [1, 2, 3, 4, 5];
        assert_eq!(diff_counts(&old, &[1, 9, 2, 3, 8, 8, 4, 5]), delta(3, 0));
        assert_eq!(diff_counts(&old, &[0, 1, 2, 3, 4, 5, 6]), delta(2, 0));
        assert_eq!(diff_counts(&old, &[2, 4]), delta(0, 3));
        assert_eq!(diff_counts(&old, &[1, 5]), delta(0, 3));
        assert_eq!(diff_counts(&old, &[1, 7, 3, 5, 6]), delta(2, 2));
        // Repeated lines (blank lines, braces) are the usual hard case.
        assert_eq!(diff_counts(&[0, 0, 0], &[0, 0, 0, 0, 0]), delta(2, 0));
        assert_eq!(diff_counts(&[0, 1, 0, 1], &[1, 0, 1, 0]), delta(1, 1));
    }

    #[test]
    fn reorder() {
        // Moving a block counts as removed there, added here.
        assert_eq!(diff_counts(&[1, 2, 3, 4], &[3, 4, 1, 2]), delta(2, 2));
        assert_eq!(diff_counts(&[1, 2, 3], &[3, 2, 1]), delta(2, 2));
        assert_eq!(diff_counts(&[1, 2, 3, 4, 5], &[1, 4, 2, 3, 5]), delta(1, 1));
    }

    fn random_pair(rng: &mut Rng) -> (Vec<u32>, Vec<u32>) {
        let alphabet = 1 + rng.below(8);
        let n = rng.below(30);
        let old: Vec<u32> = (0..n).map(|_| rng.below(alphabet) as u32).collect();
        let new = if rng.below(2) == 0 {
            let m = rng.below(30);
            (0..m).map(|_| rng.below(alphabet) as u32).collect()
        } else {
            // A few random edits of `old`, closer to real file changes.
            let mut new = old.clone();
            for _ in 0..rng.below(6) {
                match rng.below(3) {
                    0 => {
                        let at = rng.below(new.len() + 1);
                        new.insert(at, rng.below(alphabet + 2) as u32);
                    }
                    1 if !new.is_empty() => {
                        let at = rng.below(new.len());
                        new.remove(at);
                    }
                    _ if !new.is_empty() => {
                        let at = rng.below(new.len());
                        new[at] = rng.below(alphabet + 2) as u32;
                    }
                    _ => {}
                }
            }
            new
        };
        (old, new)
    }

    #[test]
    fn agrees_with_lcs_oracle() {
        let mut rng = Rng(0x5eed_0001);
        for _ in 0..5000 {
            let (old, new) = random_pair(&mut rng);
            let lcs = lcs_oracle(&old, &new);
            let want = delta(new.len() - lcs, old.len() - lcs);
            assert_eq!(diff_counts(&old, &new), want, "{old:?} -> {new:?}");
            // Each exact path on its own.
            let myers = myers_distance(&old, &new, LIMITS).expect("within budget");
            assert_eq!(myers, old.len() + new.len() - 2 * lcs, "{old:?} -> {new:?}");
            assert_eq!(lcs_quadratic(&old, &new, u64::MAX), Some(lcs));
        }
    }

    #[test]
    fn budget_paths_stay_sound() {
        let tight = Limits {
            max_d: 2,
            max_work: 8,
            max_dp_cells: 0,
        };
        let dp_only = Limits {
            max_d: 0,
            max_work: 0,
            max_dp_cells: u64::MAX,
        };
        let mut rng = Rng(0x5eed_0002);
        let mut inexact = 0;
        for _ in 0..3000 {
            let (old, new) = random_pair(&mut rng);
            let lcs = lcs_oracle(&old, &new);
            let want = delta(new.len() - lcs, old.len() - lcs);
            assert_eq!(diff_counts_with(&old, &new, dp_only), want);
            let got = diff_counts_with(&old, &new, tight);
            if got.exact {
                assert_eq!(got, want, "{old:?} -> {new:?}");
            } else {
                inexact += 1;
                assert!(got.added <= want.added && got.removed <= want.removed);
                assert_eq!(
                    got.added as isize - got.removed as isize,
                    new.len() as isize - old.len() as isize
                );
            }
        }
        assert!(inexact > 100, "the fallback was exercised {inexact} times");
    }

    #[test]
    fn large_files_few_changes_are_exact() {
        let old: Vec<u32> = (0..100_000).collect();
        let mut new = old.clone();
        new[0] = 1_000_000; // changed first line
        new[50_000] = 1_000_001; // changed middle line
        new.insert(70_000, 1_000_002); // inserted line
        new.remove(99_000); // removed line
        new.push(1_000_003); // appended line
        assert_eq!(diff_counts(&old, &new), delta(4, 3));
    }

    #[test]
    fn large_scrambled_inputs_fall_back() {
        // Same lines, opposite order: LCS is 1, far beyond every budget.
        let old: Vec<u32> = (0..100_000).collect();
        let new: Vec<u32> = old.iter().rev().copied().collect();
        let got = diff_counts(&old, &new);
        assert!(!got.exact);
        assert_eq!((got.added, got.removed), (0, 0));
        // Nothing in common: the fallback is exact.
        let new: Vec<u32> = (200_000..300_000).collect();
        assert_eq!(diff_counts(&old, &new), delta(100_000, 100_000));
        // Skewed sizes: D ≥ |N − M| exceeds the Myers budget, quadratic LCS is exact.
        let old = [7u32, 1, 8];
        let new: Vec<u32> = (0..10_000)
            .map(|i| if i == 5_000 { 1 } else { 9 })
            .collect();
        assert_eq!(diff_counts(&old, &new), delta(9_999, 2));
    }

    #[test]
    fn encode_decode_round_trip() {
        let hashes = line_hashes(b"alpha\nbeta\r\ngamma");
        let bytes = encode(&hashes);
        assert_eq!(bytes.len(), 12);
        assert_eq!(decode(&bytes), Some(hashes));
        assert_eq!(encode(&[0x0403_0201]), vec![1, 2, 3, 4]);
        assert_eq!(decode(&[1, 2, 3, 4]), Some(vec![0x0403_0201]));
        assert_eq!(decode(&[]), Some(vec![]));
        assert_eq!(decode(&[1, 2, 3]), None);
        assert_eq!(decode(&[1, 2, 3, 4, 5]), None);
    }
}
