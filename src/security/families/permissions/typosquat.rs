//! Package-name typosquat detection against embedded lists of popular packages.
//!
//! `popular_pypi.txt` and `popular_npm.txt` list package names by popularity
//! (most downloaded first; generated once from a local snapshot of the registries'
//! download ranks, no network at run time). The first [`TARGETS`] names of each are
//! the packages a typosquat would imitate; every listed name is known-legitimate and
//! never reported itself.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

const PYPI_TXT: &str = include_str!("popular_pypi.txt");
const NPM_TXT: &str = include_str!("popular_npm.txt");

/// How many of the most popular names are compared against.
pub const TARGETS: usize = 1200;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ecosystem {
    PyPI,
    Npm,
    /// gem, cargo: no list (pinning only).
    Other,
}

impl Ecosystem {
    pub fn label(self) -> &'static str {
        match self {
            Ecosystem::PyPI => "PyPI",
            Ecosystem::Npm => "npm",
            Ecosystem::Other => "registry",
        }
    }
}

struct List {
    targets: Vec<(&'static str, String)>,
    /// The most popular target of each skeleton.
    by_skeleton: HashMap<String, usize>,
    /// Every string made by deleting up to [`MAX_EDITS`] characters from a target that
    /// can be imitated by edits (not scoped, at least 4 bytes): the targets it comes from,
    /// most popular first. Two names within that many edits share one (symmetric deletion),
    /// so a name is compared with the few targets it shares one with instead of all of
    /// them (~6 s per MB of requirements when each name met all 1,200).
    /// Kept compact: (hash of the deletion, target), sorted; a hash collision only adds a
    /// candidate, which the edit distance then rejects.
    deletions: Vec<(u64, u32)>,
    /// The longest target that can be imitated by edits, in characters.
    longest: usize,
    known: HashSet<&'static str>,
    known_skeletons: HashSet<String>,
}

/// The most edits a look-alike may have (`k` in [`lookalike`]).
const MAX_EDITS: usize = 2;

/// The index key of a deletion string.
fn key(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// Calls `f` with `s` and `s` minus one or (with `max` 2) two of its characters, every
/// way, in one reused buffer (a name is looked up this way for every package named in a
/// file, so it allocates nothing per variant). Variants may repeat.
fn each_deletion(s: &str, max: usize, mut f: impl FnMut(&str)) {
    let chars: Vec<(usize, char)> = s.char_indices().collect();
    let mut buf = String::with_capacity(s.len());
    f(s);
    for i in 0..chars.len() {
        if max >= 1 {
            buf.clear();
            buf.push_str(&s[..chars[i].0]);
            buf.push_str(&s[chars[i].0 + chars[i].1.len_utf8()..]);
            f(&buf);
        }
        if max >= 2 {
            for j in i + 1..chars.len() {
                buf.clear();
                buf.push_str(&s[..chars[i].0]);
                buf.push_str(&s[chars[i].0 + chars[i].1.len_utf8()..chars[j].0]);
                buf.push_str(&s[chars[j].0 + chars[j].1.len_utf8()..]);
                f(&buf);
            }
        }
    }
}

fn build(text: &'static str) -> List {
    let names: Vec<&'static str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let targets: Vec<(&'static str, String)> = names
        .iter()
        .take(TARGETS)
        .map(|n| (*n, skeleton(n)))
        .collect();
    let mut by_skeleton = HashMap::new();
    let mut index: Vec<(u64, u32)> = Vec::new();
    let mut longest = 0;
    for (i, (p, sk)) in targets.iter().enumerate() {
        by_skeleton.entry(sk.clone()).or_insert(i);
        if p.starts_with('@') || p.len() < 4 {
            continue;
        }
        longest = longest.max(p.chars().count());
        // Two edits are allowed only between names of 9 bytes or more.
        let edits = if p.len() >= 9 { MAX_EDITS } else { 1 };
        each_deletion(p, edits, |d| index.push((key(d), i as u32)));
    }
    index.sort_unstable();
    index.dedup();
    List {
        targets,
        by_skeleton,
        deletions: index,
        longest,
        known: names.iter().copied().collect(),
        known_skeletons: names.iter().map(|n| skeleton(n)).collect(),
    }
}

static PYPI: LazyLock<List> = LazyLock::new(|| build(PYPI_TXT));
static NPM: LazyLock<List> = LazyLock::new(|| build(NPM_TXT));

/// PyPI's name normalisation (PEP 503): lower case, runs of `-`, `_`, `.` become `-`.
pub fn normalize_pypi(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
        } else {
            if sep && !out.is_empty() {
                out.push('-');
            }
            sep = false;
            out.extend(c.to_lowercase());
        }
    }
    out
}

/// The confusable skeleton: lower case, separators dropped, `rn`→`m`, `vv`→`w`,
/// `0`→`o`, `1`→`l`, `|`→`l`.
pub fn skeleton(name: &str) -> String {
    let s: String = name
        .to_lowercase()
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '.' | '@' | '/'))
        .map(|c| match c {
            '0' => 'o',
            '1' | '|' => 'l',
            _ => c,
        })
        .collect();
    s.replace("rn", "m").replace("vv", "w")
}

/// The longest stretch, in characters, in which two names may differ for
/// [`distance_at_most`] to compare them.
const MAX_COMPARED_CHARS: usize = 256;

/// Damerau-Levenshtein (optimal string alignment) distance ≤ `k`, over characters
/// (`strsim::osa_distance`)?
///
/// `strsim` fills the whole table, so its cost is the product of the two lengths, and the
/// names compared here come from scanned files. The cost is bounded first, in linear time:
/// names whose lengths differ by more than `k` are never within `k` edits; their common
/// prefix and suffix are cut off (that changes no optimal-string-alignment distance); what
/// is left is compared only when neither side is longer than [`MAX_COMPARED_CHARS`], so a
/// call costs at most the names' length plus 256 × 256 steps. Names that still differ over
/// a longer stretch are taken as farther apart than `k`: no real name is that long (a
/// skill's is at most 64 characters, an npm package's 214), only a hostile file's.
pub fn distance_at_most(a: &str, b: &str, k: usize) -> bool {
    let (na, nb) = (a.chars().count(), b.chars().count());
    if na.abs_diff(nb) > k {
        return false;
    }
    let prefix: usize = a
        .chars()
        .zip(b.chars())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    let (a, b) = (&a[prefix..], &b[prefix..]);
    let suffix: usize = a
        .chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    let (a, b) = (&a[..a.len() - suffix], &b[..b.len() - suffix]);
    if a.chars().count().max(b.chars().count()) > MAX_COMPARED_CHARS {
        return false;
    }
    strsim::osa_distance(a, b) <= k
}

/// A popular package a name imitates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lookalike {
    pub popular: &'static str,
    /// Equal skeletons: differs only by confusable characters or separators.
    pub confusable: bool,
}

/// Does `name` (normalised) imitate a popular package of `eco`?
pub fn lookalike(eco: Ecosystem, name: &str) -> Option<Lookalike> {
    let list: &List = match eco {
        Ecosystem::PyPI => &PYPI,
        Ecosystem::Npm => &NPM,
        Ecosystem::Other => return None,
    };
    if list.known.contains(name) || name.len() < 4 {
        return None;
    }
    let sk = skeleton(name);
    // A name whose skeleton is a known package's (and the package is the popular one) is
    // a confusable copy; one whose skeleton matches only a less popular known name is not
    // evidence either way.
    if let Some(&i) = list.by_skeleton.get(&sk) {
        return Some(Lookalike {
            popular: list.targets[i].0,
            confusable: true,
        });
    }
    if list.known_skeletons.contains(&sk) {
        return None;
    }
    // npm scopes: compare the part after the scope with unscoped names only when the
    // scope is not the package's own (`@types/node` is not a squat of `node`).
    if name.starts_with('@') {
        return None;
    }
    // A target within k ≤ MAX_EDITS edits shares a deletion of at most k characters with
    // the name; a name longer than every target by more than k has none.
    if name.chars().count() > list.longest + MAX_EDITS {
        return None;
    }
    // Two edits are allowed only between names of 9 bytes or more.
    let edits = if name.len() >= 9 { MAX_EDITS } else { 1 };
    let mut candidates: Vec<u32> = Vec::new();
    each_deletion(name, edits, |d| {
        let k = key(d);
        let from = list.deletions.partition_point(|e| e.0 < k);
        candidates.extend(
            list.deletions[from..]
                .iter()
                .take_while(|e| e.0 == k)
                .map(|e| e.1),
        );
    });
    candidates.sort_unstable();
    candidates.dedup();
    for p in candidates.into_iter().map(|i| list.targets[i as usize].0) {
        let short = p.len().min(name.len());
        let k = if short >= 9 { 2 } else { 1 };
        if p.len().abs_diff(name.len()) > k {
            continue;
        }
        if distance_at_most(name, p, k)
            && !benign_variant(name, p)
            && (short > 5 || typo_edit(name, p))
        {
            return Some(Lookalike {
                popular: p,
                confusable: false,
            });
        }
    }
    None
}

/// For short names, where any one substitution makes another word (`latch`, `hatch`),
/// only the edits of a slipped finger count: two adjacent letters swapped, or a letter
/// doubled or undoubled.
fn typo_edit(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() == b.len() {
        let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
        return diff.len() == 2
            && diff[1] == diff[0] + 1
            && a[diff[0]] == b[diff[1]]
            && a[diff[1]] == b[diff[0]];
    }
    let (long, short) = if a.len() > b.len() { (a, b) } else { (b, a) };
    if long.len() != short.len() + 1 {
        return false;
    }
    let i = (0..short.len())
        .find(|&i| long[i] != short[i])
        .unwrap_or(short.len());
    long[..i] == short[..i]
        && long[i + 1..] == short[i..]
        && ((i > 0 && long[i] == long[i - 1]) || long.get(i + 1) == Some(&long[i]))
}

/// Edits that make a different, ordinary package rather than a typo: a trailing
/// digit or version (`pdf2`), or an added or removed ecosystem prefix/suffix.
fn benign_variant(name: &str, popular: &str) -> bool {
    let strip = |s: &str| {
        s.trim_end_matches(|c: char| c.is_ascii_digit())
            .trim_end_matches('-')
            .to_owned()
    };
    let (a, b) = (strip(name), strip(popular));
    if a == b {
        return true;
    }
    // A whole word segment swapped for another variant word (`faiss-cpu` / `faiss-gpu`,
    // `tensorflow-cpu`, `opencv-python-headless`): a sibling build of the same project,
    // published by it, not a slip of the finger.
    const VARIANTS: &[&str] = &[
        "cpu", "gpu", "cuda", "rocm", "tpu", "lite", "full", "dev", "core", "cli", "sdk", "api",
        "client", "server", "async", "sync", "types", "stubs", "legacy", "next", "ng", "plus",
        "pro", "extra", "extras", "tools", "utils", "headless", "contrib", "mini", "nightly",
        "beta", "alpha", "rc", "web", "node", "react", "vue", "rs", "go", "java", "py", "js", "ts",
    ];
    let segs = |s: &str| -> Vec<String> { s.split(['-', '_', '.']).map(str::to_owned).collect() };
    let (sa, sb) = (segs(name), segs(popular));
    if sa.len() == sb.len() && sa.len() > 1 {
        let diff: Vec<usize> = (0..sa.len()).filter(|&i| sa[i] != sb[i]).collect();
        if let [i] = diff[..]
            && VARIANTS.contains(&sa[i].as_str())
            && VARIANTS.contains(&sb[i].as_str())
        {
            return true;
        }
    }
    for affix in ["py", "js", "-cli", "-ts", "s"] {
        if a.strip_suffix(affix) == Some(b.as_str()) || b.strip_suffix(affix) == Some(a.as_str()) {
            // `requests` → `request` is a classic squat; only multi-letter affixes pass.
            return affix.len() > 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sibling_builds_are_not_typosquats() {
        assert!(benign_variant("faiss-gpu", "faiss-cpu"));
        assert!(benign_variant("tensorflow-gpu", "tensorflow-cpu"));
        assert!(!benign_variant("faiss-cpv", "faiss-cpu"));
        assert!(!benign_variant("reqeusts", "requests"));
    }

    #[test]
    fn distances() {
        assert!(distance_at_most("requests", "reqeusts", 1));
        assert!(distance_at_most("numpy", "nunpy", 1));
        assert!(!distance_at_most("numpy", "scipy", 2));
        assert!(typo_edit("nmupy", "numpy"));
        assert!(typo_edit("numppy", "numpy"));
        assert!(!typo_edit("latch", "hatch"));
    }

    /// Long names cost the names' length plus a bounded table: a shared prefix and suffix
    /// are cut off before `strsim` compares the rest, and a longer differing stretch is
    /// taken as farther apart.
    #[test]
    fn distances_of_long_names_stay_bounded() {
        let long = "x".repeat(100_000);
        assert!(distance_at_most(
            &format!("{long}ab{long}"),
            &format!("{long}ba{long}"),
            1
        ));
        assert!(distance_at_most(
            &format!("é{long}"),
            &format!("e{long}"),
            1
        ));
        assert!(!distance_at_most(&format!("a{long}"), &long, 0));
        assert!(!distance_at_most(&long, &"y".repeat(100_000), 2));
        let (a, b) = ("ab".repeat(200), "ba".repeat(200));
        assert!(!distance_at_most(&a, &b, 2), "differs over 400 characters");
        assert!(distance_at_most(&a[..100], &b[..100], 2));
    }

    #[test]
    fn typosquats() {
        assert_eq!(
            lookalike(Ecosystem::PyPI, "reqeusts").map(|l| l.popular),
            Some("requests")
        );
        assert!(lookalike(Ecosystem::PyPI, "python-dateutil").is_none());
        assert!(
            lookalike(Ecosystem::PyPI, "pythondateutil").is_some_and(|l| l.confusable),
            "separator folding"
        );
        assert!(lookalike(Ecosystem::PyPI, "requests").is_none());
        assert!(lookalike(Ecosystem::Npm, "expresss").is_some());
        assert!(lookalike(Ecosystem::Npm, "lodash").is_none());
        for benign in ["datamol", "openmm", "pathml", "pydeseq2", "latch", "pdal"] {
            assert!(lookalike(Ecosystem::PyPI, benign).is_none(), "{benign}");
        }
    }

    /// The deletion index finds what comparing with every target found.
    #[test]
    fn the_index_agrees_with_a_scan_of_every_target() {
        fn brute(eco: Ecosystem, name: &str) -> Option<&'static str> {
            let list: &List = if eco == Ecosystem::PyPI { &PYPI } else { &NPM };
            list.targets.iter().map(|t| t.0).find(|p| {
                let short = p.len().min(name.len());
                let k = if short >= 9 { 2 } else { 1 };
                !p.starts_with('@')
                    && p.len() >= 4
                    && p.len().abs_diff(name.len()) <= k
                    && distance_at_most(name, p, k)
                    && !benign_variant(name, p)
                    && (short > 5 || typo_edit(name, p))
            })
        }
        let mut checked = 0;
        for eco in [Ecosystem::PyPI, Ecosystem::Npm] {
            let list: &List = if eco == Ecosystem::PyPI { &PYPI } else { &NPM };
            for (p, _) in list.targets.iter().step_by(7) {
                let chars: Vec<char> = p.chars().collect();
                let mut variants = Vec::new();
                for i in 0..chars.len() {
                    let mut d = chars.clone();
                    d.remove(i);
                    variants.push(d.iter().collect::<String>());
                    let mut r = chars.clone();
                    r[i] = 'q';
                    variants.push(r.iter().collect());
                    let mut ins = chars.clone();
                    ins.insert(i, 'z');
                    ins.insert(0, 'x');
                    variants.push(ins.iter().collect());
                    if i + 1 < chars.len() {
                        let mut t = chars.clone();
                        t.swap(i, i + 1);
                        variants.push(t.iter().collect());
                    }
                }
                for v in variants {
                    if list.known.contains(v.as_str())
                        || v.len() < 4
                        || v.starts_with('@')
                        || list.known_skeletons.contains(&skeleton(&v))
                    {
                        continue;
                    }
                    let got = lookalike(eco, &v)
                        .filter(|l| !l.confusable)
                        .map(|l| l.popular);
                    assert_eq!(got, brute(eco, &v), "{v}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
