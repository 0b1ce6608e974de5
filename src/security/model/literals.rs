//! Required literals of a regex: a set of strings such that every match of the regex
//! contains at least one of them. One Aho-Corasick pass over a file's ASCII-lower-cased
//! text finds which data-rule regexes can match at all; only those run. This replaces a
//! regex set over every rule (whose lazy DFA was rebuilt again and again on real text:
//! half of all CPU time in a profile of real skills).
//!
//! Literals are lower-cased ASCII (bytes), so the gate searches the lower-cased text and
//! is a superset of the regex for any case. A case-insensitive class that also holds a
//! non-ASCII letter folding to an ASCII one (KELVIN SIGN for `k`, LONG S for `s`) is
//! reduced to the ASCII letter; [`has_folding_outliers`] tells the caller to run every
//! regex on the rare text that holds one.

use regex_syntax::hir::{Class, Hir, HirKind};

/// At most this many strings in a set (cross products stop growing beyond it).
const MAX_SET: usize = 64;
/// Strings are cut to this many bytes: the gate needs a factor, not the whole literal.
const MAX_LEN: usize = 8;
/// A class of at most this many (lower-cased) members is treated as a set of literals.
const MAX_CLASS: usize = 8;

type Set = Vec<Vec<u8>>;

/// Stands for an ASCII word boundary inside a literal while literals are combined; at the
/// ends of a finished literal it becomes [`Literal::left`] / [`Literal::right`].
const MARK: u8 = 0x01;

/// One required literal: lower-cased bytes, and whether an ASCII word boundary (`\b`)
/// must hold just before or just after it (checked by the gate: `rm` in `form` is not
/// the command `\brm\b`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Literal {
    pub bytes: Vec<u8>,
    pub left: bool,
    pub right: bool,
}

impl Literal {
    fn of(raw: &[u8]) -> Literal {
        let left = raw.first() == Some(&MARK);
        let right = raw.len() > 1 && raw.last() == Some(&MARK);
        let mut bytes: Vec<u8> = raw.iter().copied().filter(|b| *b != MARK).collect();
        // A prefix of a required factor is required too (without the boundary after it).
        let right = right && bytes.len() <= MAX_LEN;
        bytes.truncate(MAX_LEN);
        Literal { bytes, left, right }
    }

    /// Do the boundaries this literal needs hold for a match at `start..end` of `text`?
    /// `cut` says whether a position is the edge of a region (a regex runs on a region's
    /// text alone, where the edge counts as a boundary).
    pub fn boundaries_hold(
        &self,
        text: &[u8],
        start: usize,
        end: usize,
        cut: impl Fn(usize) -> bool,
    ) -> bool {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let edge = |i: usize| -> bool {
            let before = i.checked_sub(1).map(|j| text[j]).is_some_and(word);
            let after = text.get(i).copied().is_some_and(word);
            before != after || cut(i)
        };
        (!self.left || edge(start)) && (!self.right || edge(end))
    }
}

#[derive(Debug, Clone, Default)]
struct Info {
    /// Every string the expression can match, when that is a small finite set.
    exact: Option<Set>,
    /// Clauses that every match satisfies: for each set, the match contains a member.
    cnf: Vec<Set>,
    /// Every match is non-empty and starts (ends) with a byte that is not an ASCII word
    /// character (`\s+`, `[<>]`, `\(`): a word character just before (after) it is then
    /// followed (preceded) by a word boundary, which the gate can check.
    starts_nonword: bool,
    ends_nonword: bool,
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Does the class hold no ASCII word character?
fn class_nonword(c: &Class) -> bool {
    let word = |a: u32, b: u32| {
        [
            (u32::from(b'0'), u32::from(b'9')),
            (u32::from(b'A'), u32::from(b'Z')),
            (u32::from(b'a'), u32::from(b'z')),
            (u32::from(b'_'), u32::from(b'_')),
        ]
        .iter()
        .any(|&(x, y)| a <= y && x <= b)
    };
    match c {
        Class::Unicode(u) => !u
            .ranges()
            .iter()
            .any(|r| word(r.start() as u32, r.end() as u32)),
        Class::Bytes(b) => !b
            .ranges()
            .iter()
            .any(|r| word(u32::from(r.start()), u32::from(r.end()))),
    }
}

/// Adds a boundary mark after each member ending with a word character (what follows
/// starts with a non-word one).
fn mark_right(run: &mut Set) {
    for m in run.iter_mut() {
        if m.last().is_some_and(|b| is_word(*b)) {
            m.push(MARK);
        }
    }
}

/// Adds a boundary mark before each member starting with a word character (what precedes
/// ends with a non-word one).
fn mark_left(set: &mut Set) {
    for m in set.iter_mut() {
        if m.first().is_some_and(|b| is_word(*b)) {
            m.insert(0, MARK);
        }
    }
}

/// Very common English words: a clause made of them selects nearly every prose file, so
/// it only costs gate time (it is dropped when a better clause exists).
const COMMON: &[&str] = &[
    "the", "and", "you", "are", "from", "with", "this", "that", "for", "not", "all", "any", "has",
    "have", "your", "can", "will", "use", "was", "were", "been", "but", "its", "our", "their",
    "they", "what", "when", "which", "who", "how", "into", "out", "one", "also", "to", "as", "by",
    "no", "in", "on", "of", "is", "it", "or", "be", "do", "if", "at", "an", "we", "me", "my", "so",
    "up", "us", "go",
];

/// Length without boundary marks.
fn len(m: &[u8]) -> usize {
    m.iter().filter(|b| **b != MARK).count()
}

fn useful(clause: &Set) -> bool {
    clause.iter().all(|m| {
        let bare: Vec<u8> = m.iter().copied().filter(|b| *b != MARK).collect();
        // A word with a boundary on both sides is rarer than its letters suggest.
        let bounded = m.first() == Some(&MARK) && m.last() == Some(&MARK);
        (bare.len() >= 3 || bounded && bare.len() >= 2)
            && !COMMON.iter().any(|c| c.as_bytes() == bare.as_slice())
    })
}

/// The required literals of `pattern` (already rewritten for ASCII word boundaries) as
/// clauses that every match satisfies (for each clause, the match contains one of its
/// strings), best first; empty when the regex has no useful literal (it must then always
/// run). A file can hold a match only if every clause has a member in it.
pub fn required(pattern: &str) -> Vec<Vec<Literal>> {
    match regex_syntax::ParserBuilder::new().build().parse(pattern) {
        Ok(hir) => required_of(&hir),
        Err(_) => Vec::new(),
    }
}

/// [`required`] of a parsed pattern.
pub fn required_of(hir: &Hir) -> Vec<Vec<Literal>> {
    let info = walk(hir);
    let mut clauses: Vec<Set> = info
        .cnf
        .into_iter()
        .chain(info.exact)
        .filter(|c| !c.is_empty() && min_len(c) > 0)
        .collect();
    clauses.sort_by_key(|c| std::cmp::Reverse(score(c)));
    clauses.dedup();
    let best = clauses.first().cloned();
    // A clause implied by a better one (each of whose members contains one of its
    // members: `eval(` implies `eval`) only costs gate time.
    // Marks count: `claude` does not imply the stronger `claude` + boundary.
    let implies = |a: &Set, b: &Set| {
        a.iter()
            .all(|x| b.iter().any(|y| memchr::memmem::find(x, y).is_some()))
    };
    let mut kept: Vec<Set> = Vec::new();
    for c in clauses.into_iter().filter(useful) {
        if kept.len() < MAX_CLAUSES && !kept.iter().any(|k| implies(k, &c)) {
            kept.push(c);
        }
    }
    if kept.is_empty() {
        // No clause of real words: the best one still helps unless it is a single byte
        // ("/", "("), which is in every file.
        if let Some(b) = best
            && min_len(&b) >= 2
        {
            kept.push(b);
        }
    }
    kept.into_iter()
        .map(|c| {
            let mut v: Vec<Literal> = c.iter().map(|m| Literal::of(m)).collect();
            v.sort();
            v.dedup();
            v
        })
        .collect()
}

/// At most this many clauses per regex.
const MAX_CLAUSES: usize = 6;

/// Longer literals first, then fewer, then more boundaries to check.
fn score(s: &Set) -> (usize, std::cmp::Reverse<usize>, usize) {
    let marks = s
        .iter()
        .map(|m| m.iter().filter(|b| **b == MARK).count())
        .min()
        .unwrap_or(0);
    (min_len(s).min(8), std::cmp::Reverse(s.len()), marks)
}

/// Does `text` hold a non-ASCII character that a case-insensitive regex matches as an
/// ASCII letter (U+212A KELVIN SIGN as `k`, U+017F LONG S as `s`)? Then the gate cannot
/// see through it and every regex must run.
pub fn has_folding_outliers(text: &[u8]) -> bool {
    memchr::memmem::find(text, "\u{212A}".as_bytes()).is_some()
        || memchr::memmem::find(text, "\u{17F}".as_bytes()).is_some()
}

fn min_len(s: &Set) -> usize {
    s.iter().map(|m| len(m)).min().unwrap_or(0)
}

/// The better of several candidate sets: the longest shortest member, then the fewest.
fn best_of(cands: impl IntoIterator<Item = Set>) -> Option<Set> {
    cands
        .into_iter()
        .filter(|s| !s.is_empty() && min_len(s) > 0)
        .max_by_key(|s| (useful(s), score(s)))
}

fn norm(mut s: Set) -> Set {
    for x in &mut s {
        x.make_ascii_lowercase();
    }
    s.sort();
    s.dedup();
    s
}

/// The members of a small class, lower-cased; non-ASCII letters that fold to ASCII
/// (KELVIN SIGN, LONG S) are dropped (see [`has_folding_outliers`]).
/// Encodes one class member as the text holds it (`None`: left out).
type Encode = fn(u32) -> Option<Vec<u8>>;

fn class_members(c: &Class) -> Option<Set> {
    // Ranges as code points (Unicode) or bytes.
    let (ranges, encode): (Vec<(u32, u32)>, Encode) = match c {
        Class::Unicode(u) => (
            u.ranges()
                .iter()
                .map(|r| (r.start() as u32, r.end() as u32))
                .collect(),
            |cp| {
                let ch = char::from_u32(cp)?;
                let mut b = [0u8; 4];
                (ch != '\u{212A}' && ch != '\u{17F}').then(|| {
                    ch.to_ascii_lowercase()
                        .encode_utf8(&mut b)
                        .as_bytes()
                        .to_vec()
                })
            },
        ),
        Class::Bytes(b) => (
            b.ranges()
                .iter()
                .map(|r| (u32::from(r.start()), u32::from(r.end())))
                .collect(),
            |v| Some(vec![(v as u8).to_ascii_lowercase()]),
        ),
    };
    let size: u32 = ranges.iter().map(|(a, b)| b - a + 1).sum();
    if size as usize > MAX_CLASS * 4 {
        return None;
    }
    let out: Set = ranges
        .iter()
        .flat_map(|&(a, b)| a..=b)
        .filter_map(encode)
        .collect();
    let out = norm(out);
    (!out.is_empty() && out.len() <= MAX_CLASS && !out.iter().any(|m| m.contains(&MARK)))
        .then_some(out)
}

fn cross(a: &Set, b: &Set) -> Option<Set> {
    cross_within(a, b, MAX_SET)
}

/// Every member of `a` followed by every member of `b`, when there are at most `limit`.
fn cross_within(a: &Set, b: &Set, limit: usize) -> Option<Set> {
    if a.len() * b.len() > limit {
        return None;
    }
    let mut out = Vec::with_capacity(a.len() * b.len());
    for x in a {
        for y in b {
            let mut s = x.clone();
            s.extend_from_slice(y);
            out.push(s);
        }
    }
    Some(norm(out))
}

fn union(sets: impl IntoIterator<Item = Option<Set>>) -> Option<Set> {
    let mut out = Vec::new();
    for s in sets {
        out.extend(s?);
        if out.len() > MAX_SET {
            return None;
        }
    }
    Some(norm(out))
}

fn walk(h: &Hir) -> Info {
    let leaf = |exact: Option<Set>| Info {
        exact,
        cnf: Vec::new(),
        starts_nonword: false,
        ends_nonword: false,
    };
    match h.kind() {
        HirKind::Look(regex_syntax::hir::Look::WordAscii) => leaf(Some(vec![vec![MARK]])),
        HirKind::Empty | HirKind::Look(_) => leaf(Some(vec![Vec::new()])),
        // A literal holding the mark byte itself is not used (it would read as a boundary).
        HirKind::Literal(l) if l.0.contains(&MARK) => leaf(None),
        HirKind::Literal(l) => Info {
            starts_nonword: l.0.first().is_some_and(|b| !is_word(*b)),
            ends_nonword: l.0.last().is_some_and(|b| !is_word(*b)),
            ..leaf(Some(norm(vec![l.0.to_vec()])))
        },
        HirKind::Class(c) => Info {
            starts_nonword: class_nonword(c),
            ends_nonword: class_nonword(c),
            ..leaf(class_members(c))
        },
        HirKind::Capture(c) => walk(&c.sub),
        HirKind::Repetition(r) => {
            let sub = walk(&r.sub);
            let exact = match (r.min, r.max) {
                (1, Some(1)) => sub.exact.clone(),
                (0, Some(1)) => sub.exact.clone().and_then(|mut e| {
                    e.push(Vec::new());
                    (e.len() <= MAX_SET).then(|| norm(e))
                }),
                _ => None,
            };
            let some = r.min >= 1;
            let cnf = if some {
                sub.cnf.into_iter().chain(sub.exact).collect()
            } else {
                Vec::new()
            };
            Info {
                exact,
                cnf,
                starts_nonword: some && sub.starts_nonword,
                ends_nonword: some && sub.ends_nonword,
            }
        }
        HirKind::Alternation(alts) => {
            let infos: Vec<Info> = alts.iter().map(walk).collect();
            let exact = union(infos.iter().map(|i| i.exact.clone()));
            let starts_nonword = infos.iter().all(|i| i.starts_nonword);
            let ends_nonword = infos.iter().all(|i| i.ends_nonword);
            // Each branch contributes its best clause; the union is required.
            let clause = union(
                infos
                    .into_iter()
                    .map(|i| best_of(i.cnf.into_iter().chain(i.exact))),
            );
            Info {
                exact,
                cnf: clause.into_iter().collect(),
                starts_nonword,
                ends_nonword,
            }
        }
        HirKind::Concat(items) => {
            let mut cnf: Vec<Set> = Vec::new();
            // The cross product of the current run of exact children.
            let mut run: Set = vec![Vec::new()];
            let mut all_exact = true;
            // Did the item before end with a non-word byte?
            let mut after_nonword = false;
            let infos: Vec<Info> = items.iter().map(walk).collect();
            let starts_nonword = infos.first().is_some_and(|i| i.starts_nonword);
            let ends_nonword = infos.last().is_some_and(|i| i.ends_nonword);
            for info in infos {
                if info.starts_nonword {
                    mark_right(&mut run);
                }
                let fresh = run.len() == 1 && run[0].is_empty();
                let next_after = info.ends_nonword;
                // An exact child's strings already say everything its clauses say.
                if info.exact.is_none() {
                    cnf.extend(info.cnf);
                }
                let exact = info.exact.map(|mut e| {
                    if fresh && after_nonword {
                        mark_left(&mut e);
                    }
                    e
                });
                after_nonword = next_after;
                match exact {
                    Some(e) => match cross(&run, &e) {
                        Some(p) => run = p,
                        None => {
                            all_exact = false;
                            cnf.push(std::mem::replace(&mut run, e));
                        }
                    },
                    None => {
                        all_exact = false;
                        cnf.push(std::mem::replace(&mut run, vec![Vec::new()]));
                    }
                }
            }
            let exact = all_exact.then(|| run.clone());
            cnf.push(run);
            Info {
                exact,
                cnf,
                starts_nonword,
                ends_nonword,
            }
        }
    }
}

/// At most this many strings in a prefix set.
const MAX_PREFIXES: usize = 256;

/// The lower-cased strings one of which every match of `hir` starts with, cut to
/// [`MAX_LEN`] bytes, or `None` when some match may start with anything (a class too
/// large, an optional first part, a set too large). Every member is non-empty and none
/// is a prefix of another. A regex with such a set needs to be tried only where one of
/// them starts: an anchored search at each such position, in order, finds exactly the
/// matches an unanchored scan finds (each match starts at one of them, and the leftmost
/// start after the last match is the first candidate there that matches).
pub fn prefixes_of(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let (set, _) = prefix(hir)?;
    let mut set: Vec<Vec<u8>> = set
        .into_iter()
        .map(|mut m| {
            m.truncate(MAX_LEN);
            m
        })
        .collect();
    // A one-byte member (`>`, `|`, `~`) starts somewhere on most lines: scanning the
    // whole region is cheaper than trying there.
    if set.is_empty() || set.iter().any(|m| m.len() < 2) {
        return None;
    }
    set.sort();
    set.dedup();
    // Sorted: a member that starts with another comes right after it (or after others
    // that also start with it).
    let mut out: Vec<Vec<u8>> = Vec::with_capacity(set.len());
    for m in set {
        if !out.last().is_some_and(|p| m.starts_with(p)) {
            out.push(m);
        }
    }
    Some(out)
}

/// (prefix strings, exact): with `exact`, the strings are the whole of what `hir` matches,
/// so what follows extends them.
fn prefix(h: &Hir) -> Option<(Set, bool)> {
    let grow = |a: &Set, b: &Set| cross_within(a, b, MAX_PREFIXES);
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Some((vec![Vec::new()], true)),
        HirKind::Literal(l) => Some((norm(vec![l.0.to_vec()]), true)),
        HirKind::Class(c) => Some((class_members(c)?, true)),
        HirKind::Capture(c) => prefix(&c.sub),
        HirKind::Repetition(r) => {
            // `x?` of an exact `x`: either `x` or nothing, both exact (`e-?mail`).
            if r.min == 0 && r.max == Some(1) {
                let (mut set, exact) = prefix(&r.sub)?;
                if !exact {
                    return None;
                }
                set.push(Vec::new());
                return Some((norm(set), true));
            }
            if r.min == 0 {
                return None;
            }
            let (set, exact) = prefix(&r.sub)?;
            Some((set, exact && r.max == Some(1) && r.min == 1))
        }
        HirKind::Alternation(alts) => {
            let mut out = Vec::new();
            let mut exact = true;
            for a in alts {
                let (s, e) = prefix(a)?;
                exact &= e;
                out.extend(s);
                if out.len() > MAX_PREFIXES {
                    return None;
                }
            }
            Some((norm(out), exact))
        }
        HirKind::Concat(items) => {
            let mut run: Set = vec![Vec::new()];
            for it in items {
                // Long enough already: the rest only narrows what the regex checks.
                if run.iter().all(|m| m.len() >= MAX_LEN) {
                    return Some((run, false));
                }
                match prefix(it) {
                    Some((s, exact)) => match grow(&run, &s) {
                        Some(g) if exact => run = g,
                        Some(g) => return Some((g, false)),
                        None => return Some((run, false)),
                    },
                    None => return Some((run, false)),
                }
            }
            Some((run, true))
        }
    }
}

/// Rewrites `\b` as the ASCII word boundary `(?-u:\b)`. A Unicode word boundary
/// makes the lazy DFA give up on any non-ASCII text and fall back to a much slower
/// engine; every pattern here anchors on ASCII words, so nothing is lost.
pub fn ascii_word_boundaries(re: &str) -> String {
    let mut out = String::with_capacity(re.len() + 16);
    let mut chars = re.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('b') => out.push_str("(?-u:\\b)"),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Literals as strings, with `|` for a boundary the gate checks.
    fn req(p: &str) -> Vec<Vec<String>> {
        required(&ascii_word_boundaries(p))
            .into_iter()
            .map(|c| {
                c.into_iter()
                    .map(|l| {
                        format!(
                            "{}{}{}",
                            if l.left { "|" } else { "" },
                            String::from_utf8(l.bytes).unwrap(),
                            if l.right { "|" } else { "" }
                        )
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn literals_of_common_shapes() {
        // Literals are cut to eight bytes (a factor is enough), losing the boundary after.
        assert_eq!(req(r"(?i)/etc/shadow\b"), vec![vec!["/etc/sha"]]);
        // `\s` after `rm` is not a word byte, so the boundary after `rm` is checked too.
        assert_eq!(req(r"\brm\s+-rf"), vec![vec!["-rf"], vec!["|rm|"]]);
        assert_eq!(req(r"\b(nc|ncat)\b\s+-e"), vec![vec!["|nc|", "|ncat|"]]);
        assert_eq!(
            req(r"(?m)(^|[^.\w])(eval|exec)\(\s*x"),
            vec![vec!["eval(", "exec("]]
        );
        assert_eq!(req(r"\.\.\.process\.env\b"), vec![vec!["...proce"]]);
        // Case-insensitive letters (with KELVIN SIGN / LONG S in their class) are letters.
        assert_eq!(req(r"(?i)ask"), vec![vec!["ask"]]);
        // Every factor of a sequence is required; common words are not worth a clause.
        assert_eq!(
            req(r"(?i)\byou\s+are\s+no\s+longer\s+(Claude|Copilot)\b"),
            vec![vec!["|longer|"], vec!["|claude|", "|copilot|"]]
        );
        // An alternation needs a literal in every branch.
        assert!(req(r"(?i)foo[^\n]{0,9}bar|\w+").is_empty());
        assert_eq!(
            req(r"(?i)foo[^\n]{0,9}barbaz|quux"),
            vec![vec!["barbaz", "quux"]]
        );
        // Boundaries are not required where the regex does not ask for them (a non-word
        // byte after `rm` puts a boundary there, none is asked for before it).
        assert!(!required(r"rm\s").iter().flatten().any(|l| l.left));
        assert!(required(r"rm\s").iter().flatten().all(|l| l.right));
        assert!(!required(r"rm.").iter().flatten().any(|l| l.left || l.right));
        // Nothing required.
        assert!(req(r"[A-Za-z0-9+/]{20,}").is_empty());
        assert!(req(r"x?").is_empty());
    }

    #[test]
    fn prefix_sets() {
        let pre = |p: &str| {
            let hir = regex_syntax::ParserBuilder::new()
                .build()
                .parse(&ascii_word_boundaries(p))
                .unwrap();
            prefixes_of(&hir).map(|v| {
                v.into_iter()
                    .map(|m| String::from_utf8(m).unwrap())
                    .collect::<Vec<_>>()
            })
        };
        assert_eq!(
            pre(r"(?i)\b(send|upload|sen)\s+x"),
            Some(vec!["sen".into(), "upload".into()])
        );
        assert_eq!(pre(r"(?i)curl\s"), Some(vec!["curl".into()]));
        // Cut to eight bytes.
        assert_eq!(pre(r"/etc/shadow"), Some(vec!["/etc/sha".into()]));
        // A class of a few letters multiplies out.
        assert_eq!(pre(r"ab[cd]e"), Some(vec!["abce".into(), "abde".into()]));
        // An optional exact part: with and without it.
        assert_eq!(
            pre(r"(?i)\be-?mail\b"),
            Some(vec!["e-mail".into(), "email".into()])
        );
        assert_eq!(pre(r"(foo)?bar"), Some(vec!["bar".into(), "foobar".into()]));
        // No set: an optional start that leaves nothing, a large class, a one-byte member.
        assert_eq!(pre(r"(foo)?\w"), None);
        assert_eq!(pre(r"(f\w+)?bar"), None);
        assert_eq!(pre(r"\w+foo"), None);
        assert_eq!(pre(r">\s*/etc"), None);
        assert_eq!(pre(r"foo|x?"), None);
    }

    #[test]
    fn the_gate_is_a_superset_of_the_regex() {
        let cases = [
            (r"(?i)\brm\s+-rf\s+/", "RM -RF /"),
            (r"(?i)\.ssh/id_(rsa|dsa)", "~/.SSH/ID_RSA"),
            (r"(?i)ask", "AS\u{212A}"),
            (r"a(b|c)?d", "ad"),
            (r"(?i)curl\s+[^|]{0,80}\|\s*(ba)?sh", "curl x | sh"),
            (
                r"(?i)\byou\s+are\s+no\s+longer\s+(Claude|Copilot)\b",
                "You are no LONGER claude",
            ),
            (r"(?-u:\b)rm(?-u:\b)\s", "x;rm -rf"),
            (r"(?-u:\b)/etc", "a/etc"),
        ];
        for (p, t) in cases {
            let re = regex::Regex::new(p).unwrap();
            assert!(re.is_match(t), "{p} on {t}");
            let lower = t.as_bytes().to_ascii_lowercase();
            let fired = has_folding_outliers(&lower)
                || required(p).iter().all(|clause| {
                    clause.iter().any(|l| {
                        memchr::memmem::find_iter(&lower, &l.bytes)
                            .any(|s| l.boundaries_hold(&lower, s, s + l.bytes.len(), |_| false))
                    })
                });
            assert!(fired, "{p} on {t}");
        }
    }
}
