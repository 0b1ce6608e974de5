//! The one-pass prefilter of the data rules: every required literal (see
//! [`crate::security::model::literals`]) and every rule regex Vectorscan can take, in one Vectorscan
//! block-mode database, scanned once over a file's lower-cased text.
//!
//! - A literal is a pattern of its exact bytes (`\xHH` each, no flags): its matches are the
//!   overlapping Aho-Corasick matches of the pure-Rust engine, so the literal pass gives the
//!   same literals seen and the same candidate starts (start = end − length).
//! - A rule regex (only with `SKILLGUARD_VECTORSCAN_REGEXES=1`: its compilation costs about
//!   2.8 s per process) is translated from its parsed form ([`superset`]) into a byte-mode
//!   pattern that matches at least wherever the regex does, in any region of the file:
//!   look-around assertions (`^`, `$`, `\b`) are dropped (a regex runs on a region's text
//!   alone, where a region's edge counts as a boundary), captures become plain groups, a
//!   class keeps its ASCII part and any non-ASCII character, long repetitions are loosened,
//!   and the pattern is compiled caseless (the text is lower-cased), in prefilter mode and
//!   single-match. A regex whose pattern Vectorscan does not take (listed by
//!   [`Prefilter::fallbacks`]; none today) keeps the literal gate alone.
//!
//! The prefilter only ever removes regexes that cannot match: every hit is still found and
//! confirmed by the same `regex` searches as before, so reports are byte-identical with and
//! without it (`tests/engine_differential.rs`). `SKILLGUARD_ENGINE=regex` selects the pure
//! Rust engine at run time in a build that has both; `--no-default-features` builds without
//! Vectorscan.

use regex_syntax::hir::{Class, Hir, HirKind};

/// The engine in use: `vectorscan` when the build has it and `SKILLGUARD_ENGINE` is not
/// `regex`, else `regex`.
pub fn engine() -> &'static str {
    if cfg!(feature = "vectorscan") && !forced_regex() {
        "vectorscan"
    } else {
        "regex"
    }
}

/// `SKILLGUARD_ENGINE`, read once: `regex` or `vectorscan`, or unset.
fn chosen() -> Option<&'static str> {
    static CHOSEN: std::sync::LazyLock<Option<String>> = std::sync::LazyLock::new(|| {
        std::env::var("SKILLGUARD_ENGINE")
            .ok()
            .map(|v| v.to_ascii_lowercase())
    });
    CHOSEN.as_deref()
}

/// `SKILLGUARD_ENGINE=regex`: the pure-Rust engine even when Vectorscan is built in (the
/// differential test's switch).
fn forced_regex() -> bool {
    chosen() == Some("regex")
}

/// `SKILLGUARD_ENGINE=vectorscan`: every file takes the Vectorscan pass (the scan waits for
/// the database) instead of those read once it is compiled.
pub fn required() -> bool {
    chosen() == Some("vectorscan") && engine() == "vectorscan"
}

/// A Vectorscan pattern (PCRE syntax, byte mode) matching a superset of what `hir` matches
/// in any text and at any offset, cheap to compile: look-around assertions are dropped, a
/// class keeps its ASCII part and stands for any non-ASCII character by `[\x80-\xff]+` (a
/// character's UTF-8 bytes), and a repetition of more than [`MAX_EXACT`] keeps only whether
/// it needs one (`+`) or none (`*`). Literals keep their exact bytes.
pub fn superset(hir: &Hir) -> String {
    let mut out = String::new();
    write(hir, &mut out);
    out
}

/// Repetitions up to this many are kept exactly (`{m,n}`); larger ones are loosened.
pub const MAX_EXACT: u32 = 4;

fn write(hir: &Hir, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(lit) => out.push_str(&literal_pattern(&lit.0)),
        HirKind::Class(Class::Unicode(cls)) => {
            let ascii: Vec<(u8, u8)> = cls
                .ranges()
                .iter()
                .filter(|r| r.start() <= '\x7f')
                .map(|r| (r.start() as u8, r.end().min('\x7f') as u8))
                .collect();
            let wide = cls.ranges().iter().any(|r| r.end() > '\x7f');
            class(&ascii, wide, out);
        }
        HirKind::Class(Class::Bytes(cls)) => {
            let ranges: Vec<(u8, u8)> = cls.ranges().iter().map(|r| (r.start(), r.end())).collect();
            class(&ranges, false, out);
        }
        HirKind::Repetition(rep) => {
            out.push_str("(?:");
            write(&rep.sub, out);
            out.push(')');
            match (rep.min, rep.max) {
                (0, Some(1)) => out.push('?'),
                (m, Some(n)) if n <= MAX_EXACT && m == n => out.push_str(&format!("{{{m}}}")),
                (m, Some(n)) if n <= MAX_EXACT => out.push_str(&format!("{{{m},{n}}}")),
                (0, _) => out.push('*'),
                _ => out.push('+'),
            }
        }
        HirKind::Capture(cap) => {
            out.push_str("(?:");
            write(&cap.sub, out);
            out.push(')');
        }
        HirKind::Concat(subs) => subs.iter().for_each(|s| write(s, out)),
        HirKind::Alternation(subs) => {
            out.push_str("(?:");
            for (i, s) in subs.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write(s, out);
            }
            out.push(')');
        }
    }
}

/// A class of byte ranges, and (`wide`) any non-ASCII character.
fn class(ranges: &[(u8, u8)], wide: bool, out: &mut String) {
    use std::fmt::Write;
    let bytes = |out: &mut String| {
        out.push('[');
        for &(a, b) in ranges {
            let _ = write!(out, "\\x{a:02x}");
            if b != a {
                let _ = write!(out, "-\\x{b:02x}");
            }
        }
        out.push(']');
    };
    match (ranges.is_empty(), wide) {
        // Matches nothing (an empty class): a byte followed by its own absence.
        (true, false) => out.push_str("(?:\\x00[^\\x00-\\xff])"),
        (true, true) => out.push_str("[\\x80-\\xff]+"),
        (false, false) => bytes(out),
        (false, true) => {
            out.push_str("(?:");
            bytes(out);
            out.push_str("|[\\x80-\\xff]+)");
        }
    }
}

/// A literal's bytes as a pattern: `\xHH` each (byte mode, no flags).
pub fn literal_pattern(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 4);
    for b in bytes {
        let _ = write!(s, "\\x{b:02x}");
    }
    s
}

/// One match of the prefilter: a literal's id and where it starts, or a regex (flat index)
/// that matches somewhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Literal { id: usize, start: usize },
    Regex(usize),
}

/// The compiled prefilter (with the `vectorscan` feature; without it, never made).
#[cfg_attr(not(feature = "vectorscan"), allow(dead_code))]
pub struct Prefilter {
    #[cfg(feature = "vectorscan")]
    db: hyperscan::BlockDatabase,
    /// Literal ids are pattern ids `0..literals`; regex `f` is pattern `literals + f`.
    literals: usize,
    /// Literal lengths, by id.
    lengths: Vec<usize>,
    /// Per flat regex: is it in the database?
    gated: Vec<bool>,
}

impl std::fmt::Debug for Prefilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prefilter")
            .field("literals", &self.literals)
            .field("regexes", &self.gated.iter().filter(|g| **g).count())
            .finish()
    }
}

impl Prefilter {
    /// Compiles the literals (lower-cased bytes, by id) and the regexes (parsed, by flat
    /// index; pass none to leave them to the literal gate) into one database. `None`
    /// without the `vectorscan` feature, when `SKILLGUARD_ENGINE=regex`, or when even the
    /// literals do not compile.
    #[cfg_attr(not(feature = "vectorscan"), allow(unused_variables))]
    pub fn new(literals: &[&[u8]], regexes: &[&Hir]) -> Option<Prefilter> {
        if engine() != "vectorscan" || literals.is_empty() {
            return None;
        }
        #[cfg(feature = "vectorscan")]
        {
            vs::build(literals, regexes)
        }
        #[cfg(not(feature = "vectorscan"))]
        {
            None
        }
    }

    /// Does the database hold the regexes too (`SKILLGUARD_VECTORSCAN_REGEXES=1`)?
    pub fn with_regexes() -> bool {
        static ON: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
            std::env::var_os("SKILLGUARD_VECTORSCAN_REGEXES").is_some_and(|v| v == "1")
        });
        *ON
    }

    /// Does the database hold any regex (else the scan reports literals only)?
    pub fn holds_regexes(&self) -> bool {
        self.gated.iter().any(|g| *g)
    }

    /// Is regex `flat` in the database (else the literal gate alone decides)?
    pub fn gates(&self, flat: usize) -> bool {
        self.gated.get(flat).copied().unwrap_or(false)
    }

    /// The flat indexes of the regexes Vectorscan does not take.
    pub fn fallbacks(&self) -> Vec<usize> {
        (0..self.gated.len()).filter(|&f| !self.gated[f]).collect()
    }

    /// Scans `lower` once; `on` gets every literal match and each regex that matches.
    /// `false` when the scan failed (the caller then runs the pure-Rust pass).
    #[cfg_attr(not(feature = "vectorscan"), allow(unused_variables))]
    pub fn scan(&self, lower: &[u8], on: &mut dyn FnMut(Event)) -> bool {
        #[cfg(feature = "vectorscan")]
        {
            vs::scan(self, lower, on)
        }
        #[cfg(not(feature = "vectorscan"))]
        {
            false
        }
    }
}

#[cfg(feature = "vectorscan")]
mod vs {
    use std::cell::RefCell;

    use hyperscan::prelude::*;

    use super::{Event, Prefilter};

    /// The regex patterns' flags: caseless (the text is lower-cased), prefilter (a
    /// superset where the exact pattern is too large), one match per scan; byte mode.
    fn regex_flags() -> CompileFlags {
        CompileFlags::CASELESS | CompileFlags::PREFILTER | CompileFlags::SINGLEMATCH
    }

    fn pattern(expression: String, flags: CompileFlags, id: usize) -> Pattern {
        Pattern {
            expression,
            flags,
            id: Some(id),
            ext: Default::default(),
            som: None,
        }
    }

    pub(super) fn build(
        literals: &[&[u8]],
        regexes: &[&regex_syntax::hir::Hir],
    ) -> Option<Prefilter> {
        let n = literals.len();
        let mut pats: Vec<Pattern> = literals
            .iter()
            .enumerate()
            .map(|(i, l)| pattern(super::literal_pattern(l), CompileFlags::empty(), i))
            .collect();
        let mut gated = vec![false; regexes.len()];
        for (f, hir) in regexes.iter().enumerate() {
            let p = pattern(super::superset(hir), regex_flags(), n + f);
            // Parse-only check first (cheap): unsupported syntax, or a pattern that can
            // match the empty string (it would match every file: no use as a gate).
            match p.info() {
                Ok(info) if info.min_width > 0 => {
                    gated[f] = true;
                    pats.push(p);
                }
                _ => {}
            }
        }
        // A pattern the compiler still refuses (too large) is dropped and the rest compiled
        // again; a literal refused means no prefilter at all.
        loop {
            match Patterns::from(pats.clone()).build::<hyperscan::Block>() {
                Ok(db) => {
                    return Some(Prefilter {
                        db,
                        literals: n,
                        lengths: literals.iter().map(|l| l.len()).collect(),
                        gated,
                    });
                }
                Err(_) => {
                    let bad = compile_error_index(&pats)?;
                    let id = pats[bad].id?;
                    if id < n {
                        return None;
                    }
                    gated[id - n] = false;
                    pats.remove(bad);
                }
            }
        }
    }

    /// Which pattern the compiler refuses: compiled one by one (only after a failed whole
    /// compile, which the rule set's own tests keep from happening).
    fn compile_error_index(pats: &[Pattern]) -> Option<usize> {
        pats.iter().position(|p| {
            Patterns::from(vec![p.clone()])
                .build::<hyperscan::Block>()
                .is_err()
        })
    }

    thread_local! {
        /// One scratch per worker thread, made on its first scan.
        static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
    }

    pub(super) fn scan(pf: &Prefilter, lower: &[u8], on: &mut dyn FnMut(Event)) -> bool {
        if u32::try_from(lower.len()).is_err() {
            return false;
        }
        SCRATCH.with(|cell| {
            let mut slot = cell.borrow_mut();
            if slot.is_none() {
                *slot = pf.db.alloc_scratch().ok();
            }
            let Some(scratch) = slot.as_ref() else {
                return false;
            };
            let n = pf.literals;
            pf.db
                .scan(
                    lower,
                    scratch,
                    |id: u32, _from: u64, to: u64, _flags: u32| {
                        let (id, to) = (id as usize, to as usize);
                        if id < n {
                            on(Event::Literal {
                                id,
                                start: to - pf.lengths[id],
                            });
                        } else {
                            on(Event::Regex(id - n));
                        }
                        Matching::Continue
                    },
                )
                .is_ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(re: &str) -> Hir {
        regex_syntax::ParserBuilder::new()
            .build()
            .parse(re)
            .unwrap()
    }

    #[test]
    fn superset_drops_assertions_and_loosens_classes_and_repeats() {
        assert_eq!(superset(&parse(r"^\bab$")), r"\x61\x62");
        // KELVIN SIGN: any non-ASCII character.
        assert_eq!(superset(&parse(r"(?i)k")), r"(?:[\x4b\x6b]|[\x80-\xff]+)");
        assert_eq!(superset(&parse(r"(a|b){2,3}")), r"(?:(?:[\x61-\x62])){2,3}");
        assert_eq!(
            superset(&parse(r"a.{0,80}b")),
            r"\x61(?:(?:[\x00-\x09\x0b-\x7f]|[\x80-\xff]+))*\x62"
        );
        assert_eq!(superset(&parse(r"x{5,9}")), r"(?:\x78)+");
        assert_eq!(literal_pattern(b"a\x01"), r"\x61\x01");
    }

    #[test]
    fn the_engine_is_named() {
        let e = engine();
        assert!(e == "vectorscan" || e == "regex");
        assert_eq!(
            e == "vectorscan",
            cfg!(feature = "vectorscan") && !forced_regex()
        );
    }
}
