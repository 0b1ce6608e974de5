//! Regular expressions of eval files (`match: regex` cases, Waza's `regex_match`).
//!
//! The agent-evals harness and Waza match with .NET regular expressions, so that is the
//! default dialect here: look-around, back-references and atomic groups work (through
//! `fancy-regex`), and `$` (outside a character class) also matches before a final `\n`, as
//! .NET's `$` does without `RegexOptions.Multiline`; `\Z` is read the same way. Rust's dialect
//! (`regex`, linear time, no look-around) is the alternative. The backtracking engine is
//! bounded in work, not only in steps: every backtracking step of a pattern may re-read the
//! sample (a look-around or atomic group whose body repeats without bound, a back-reference,
//! an unbounded repetition handed to `regex`), so each step is charged what it may re-read,
//! and the steps a sample may take are [`FUEL`] divided by that charge ([`Pattern::is_match`]).
//! A match past its bound is an error naming the bound, never a hang. The differences are
//! listed in `docs/evals.md`.

/// Compiled-size bound of a pattern (and of its lazy DFA), in bytes.
pub const SIZE_LIMIT: usize = 1024 * 1024;
/// Characters one match of a .NET pattern may read, counted as its backtracking steps times
/// what one step may re-read (see [`Cost`]): about a second of work on any machine.
pub const FUEL: u64 = 500_000_000;
/// What one backtracking step costs at least, in characters read (the VM's own work).
const STEP: u64 = 8;
/// The step bound a pattern is compiled with; a sample that allows fewer steps rebuilds it.
const STEPS_BUILT: usize = 1_000_000;
/// What a `$` (and `\Z`) of the .NET dialect becomes: the end of the text, or before a final
/// line feed. With `(?m)` Rust's `$` already matches before every `\n`, so the union is right
/// under both settings.
const DOTNET_END: &str = "(?:$|(?=\\n\\z))";

/// The regular-expression dialect of eval files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Dialect {
    /// .NET semantics (the harness's): look-around, back-references, `$` before a final `\n`.
    #[default]
    Dotnet,
    /// Rust's `regex` crate: linear time, no look-around or back-references.
    Rust,
    /// Go's `regexp` (RE2), which Waza compiles `regex_match` and `regex_not_match` with:
    /// Rust's `regex` crate (the same syntax family) plus RE2's `\Q…\E`, and without what
    /// RE2 refuses (the `x`, `u` and `R` flags, repetition counts over 1000).
    Re2,
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Dotnet => "dotnet",
            Dialect::Rust => "rust",
            Dialect::Re2 => "RE2",
        }
    }
}

/// A compiled eval pattern.
#[derive(Debug, Clone)]
pub enum Pattern {
    Dotnet {
        re: Box<fancy_regex::Regex>,
        /// The pattern as handed to `fancy-regex`, to rebuild it with a lower step bound.
        src: String,
        cost: Cost,
    },
    Rust(regex::Regex),
}

/// What one backtracking step of a .NET pattern may re-read: `fixed` characters, plus the
/// whole sample once for each of `sites` constructs that re-read it (a look-around or atomic
/// group whose body repeats without bound, a back-reference, a conditional or subroutine
/// call), or only the longest line for each of `line_sites` (such a body whose repeated part
/// cannot match a line feed, like `.*` without `(?s)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cost {
    pub sites: u64,
    pub line_sites: u64,
    pub fixed: u64,
    /// The pattern starts with `^` or `\A` (not multi-line): it is tried at the start of the
    /// sample only, not at every position.
    pub anchored: bool,
}

/// Whether any leaf of `e` can match a line feed (conservative: unknown leaves can).
fn may_match_newline(e: &fancy_regex::Expr) -> bool {
    use fancy_regex::Expr;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        let leaf = match e {
            Expr::Any { newline, .. } => *newline,
            Expr::Literal { val, .. } => val.contains('\n'),
            Expr::Delegate { inner, casei } => regex::RegexBuilder::new(inner)
                .case_insensitive(*casei)
                .size_limit(SIZE_LIMIT)
                .build()
                .map_or(true, |r| r.is_match("\n")),
            Expr::Assertion(_) | Expr::Empty => false,
            Expr::Concat(_)
            | Expr::Alt(_)
            | Expr::Group(_)
            | Expr::Repeat { .. }
            | Expr::LookAround(..)
            | Expr::AtomicGroup(_) => false,
            _ => true,
        };
        if leaf {
            return true;
        }
        stack.extend(e.children_iter());
    }
    false
}

impl Cost {
    /// The cost of the parsed pattern: one walk over its syntax tree, iterative.
    fn of(tree: &fancy_regex::Expr, len: usize) -> Cost {
        use fancy_regex::{Assertion, Expr};
        let (mut sites, mut line_sites) = (0u64, 0u64);
        let mut stack = vec![(tree, false)];
        while let Some((e, inside)) = stack.pop() {
            let inside = match e {
                Expr::Repeat { hi, child, .. } if inside && (*hi == usize::MAX || *hi > 1_000) => {
                    if may_match_newline(child) {
                        sites += 1;
                    } else {
                        line_sites += 1;
                    }
                    inside
                }
                Expr::Backref { .. }
                | Expr::BackrefWithRelativeRecursionLevel { .. }
                | Expr::BackrefExistsCondition { .. }
                | Expr::Conditional { .. }
                | Expr::SubroutineCall(_) => {
                    sites += 1;
                    true
                }
                Expr::LookAround(..) | Expr::AtomicGroup(_) | Expr::Absent(_) => true,
                _ => inside,
            };
            stack.extend(e.children_iter().map(|c| (c, inside)));
        }
        let mut first = tree;
        while let Expr::Concat(v) = first
            && let Some(head) = v.first()
        {
            first = head;
        }
        Cost {
            sites,
            line_sites,
            fixed: STEP + len as u64,
            anchored: matches!(first, Expr::Assertion(Assertion::StartText)),
        }
    }

    /// What one step may read on `text`.
    pub fn per_step(self, text: &str) -> u64 {
        let line = if self.line_sites == 0 {
            0
        } else {
            text.split('\n').map(str::len).max().unwrap_or(0) as u64
        };
        self.fixed
            .saturating_add(self.sites.saturating_mul(text.len() as u64))
            .saturating_add(self.line_sites.saturating_mul(line))
    }

    /// Backtracking steps a match on `text` may take within [`FUEL`].
    pub fn steps(self, text: &str) -> usize {
        usize::try_from(FUEL / self.per_step(text).max(1)).unwrap_or(usize::MAX)
    }
}

/// Why a pattern could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// It does not compile in the dialect; the message is the engine's last line.
    #[error("{0}")]
    Syntax(String),
    /// A match needed more backtracking steps than the sample's work bound allows.
    #[error(
        "the pattern needed more than {steps} backtracking steps on a sample of {len} bytes (the bound is {FUEL} characters read, and each step of this pattern may read {per_step} on this sample); nested quantifiers such as `(a+)+` backtrack exponentially, and a look-around, atomic group or back-reference over `.*` re-reads the sample at every position: anchor the pattern (`^…`) or bound its repetitions"
    )]
    Backtrack {
        steps: usize,
        len: usize,
        per_step: u64,
    },
}

/// The pattern rewritten for `fancy-regex` with .NET's meaning of `$` and `\Z`. Escapes and
/// character classes are copied as they are. One pass over the pattern.
fn dotnet_to_fancy(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 16);
    let mut chars = src.chars().peekable();
    // Depth of character classes (`[a-z[:alpha:]]` nests in Rust's syntax).
    let mut class = 0usize;
    // Just after a class's `[` or `[^`, where a `]` is literal.
    let mut class_start = false;
    while let Some(c) = chars.next() {
        let at_start = std::mem::take(&mut class_start);
        match c {
            '\\' => match chars.next() {
                Some('Z') if class == 0 => out.push_str(DOTNET_END),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            },
            '[' => {
                class += 1;
                out.push('[');
                if chars.peek() == Some(&'^') {
                    chars.next();
                    out.push('^');
                }
                class_start = true;
            }
            ']' if class > 0 && !at_start => {
                class -= 1;
                out.push(']');
            }
            '$' if class == 0 => out.push_str(DOTNET_END),
            c => out.push(c),
        }
    }
    out
}

/// The engine's message without its caret drawing: its last non-empty line.
fn last_line(e: &str) -> String {
    e.lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_owned()
}

/// Compiles `src` in `dialect`, bounded in size (and, for .NET, in backtracking).
pub fn compile(src: &str, dialect: Dialect) -> Result<Pattern, PatternError> {
    match dialect {
        Dialect::Dotnet => {
            let src = dotnet_to_fancy(src);
            let re = build_dotnet(&src, STEPS_BUILT)?;
            let tree = fancy_regex::Expr::parse_tree(&src)
                .map_err(|e| PatternError::Syntax(last_line(&e.to_string())))?;
            let cost = Cost::of(&tree.expr, src.len());
            Ok(Pattern::Dotnet {
                re: Box::new(re),
                src,
                cost,
            })
        }
        Dialect::Re2 => compile(&re2_to_rust(src)?, Dialect::Rust),
        Dialect::Rust => regex::RegexBuilder::new(src)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .build()
            .map(Pattern::Rust)
            .map_err(|e| PatternError::Syntax(last_line(&e.to_string()))),
    }
}

/// RE2's largest repetition count (`{1001}` is refused by Go's `regexp`).
const RE2_MAX_REPEAT: u32 = 1000;

/// An RE2 pattern as Rust's `regex` reads it: `\Q…\E` quoted, and what RE2 refuses but
/// `regex` accepts refused here (flags `x`, `u`, `R`; repetition counts over 1000).
fn re2_to_rust(src: &str) -> Result<String, PatternError> {
    // `\Q…\E` (to the end when `\E` is missing): its text is literal.
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    while let Some(i) = find_unescaped(rest, "\\Q") {
        out.push_str(&rest[..i]);
        let quoted = &rest[i + 2..];
        let (lit, after) = match quoted.find("\\E") {
            Some(j) => (&quoted[..j], &quoted[j + 2..]),
            None => (quoted, ""),
        };
        out.push_str(&regex::escape(lit));
        rest = after;
    }
    out.push_str(rest);
    use regex_syntax::ast::{self, Ast};
    let tree = ast::parse::Parser::new()
        .parse(&out)
        .map_err(|e| PatternError::Syntax(last_line(&e.to_string())))?;
    let mut stack: Vec<&Ast> = vec![&tree];
    while let Some(a) = stack.pop() {
        let flags = match a {
            Ast::Flags(f) => Some(&f.flags),
            Ast::Group(g) => match &g.kind {
                ast::GroupKind::NonCapturing(f) => Some(f),
                _ => None,
            },
            _ => None,
        };
        for item in flags.map(|f| &f.items[..]).unwrap_or_default() {
            if let ast::FlagsItemKind::Flag(f) = &item.kind
                && matches!(
                    f,
                    ast::Flag::IgnoreWhitespace | ast::Flag::Unicode | ast::Flag::CRLF
                )
            {
                return Err(PatternError::Syntax(
                    "invalid or unsupported Perl syntax: RE2 has only the flags i, m, s and U"
                        .into(),
                ));
            }
        }
        match a {
            Ast::Repetition(r) => {
                if let ast::RepetitionKind::Range(range) = &r.op.kind {
                    let n = match range {
                        ast::RepetitionRange::Exactly(n) | ast::RepetitionRange::AtLeast(n) => *n,
                        ast::RepetitionRange::Bounded(a, b) => (*a).max(*b),
                    };
                    if n > RE2_MAX_REPEAT {
                        return Err(PatternError::Syntax(format!(
                            "invalid repeat count: RE2 repeats at most {RE2_MAX_REPEAT} times"
                        )));
                    }
                }
                stack.push(&r.ast);
            }
            Ast::Group(g) => stack.push(&g.ast),
            Ast::Alternation(x) => stack.extend(&x.asts),
            Ast::Concat(x) => stack.extend(&x.asts),
            _ => {}
        }
    }
    Ok(out)
}

/// The first `needle` in `s` not preceded by an odd number of backslashes.
fn find_unescaped(s: &str, needle: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s[from..].find(needle).map(|i| i + from) {
        let slashes = s[..i].bytes().rev().take_while(|b| *b == b'\\').count();
        if slashes % 2 == 0 {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

fn build_dotnet(src: &str, steps: usize) -> Result<fancy_regex::Regex, PatternError> {
    fancy_regex::RegexBuilder::new(src)
        .backtrack_limit(steps)
        .delegate_size_limit(SIZE_LIMIT)
        .delegate_dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| PatternError::Syntax(last_line(&e.to_string())))
}

impl Pattern {
    /// Whether the pattern matches anywhere in `text`. The .NET dialect may fail with
    /// [`PatternError::Backtrack`] when the match needs more steps than `text` allows (see
    /// [`Cost::steps`]); the Rust dialect never fails.
    pub fn is_match(&self, text: &str) -> Result<bool, PatternError> {
        match self {
            Pattern::Dotnet { re, src, cost } => {
                let steps = cost.steps(text);
                let rebuilt;
                let re = if steps == STEPS_BUILT {
                    re.as_ref()
                } else {
                    rebuilt = build_dotnet(src, steps)?;
                    &rebuilt
                };
                let input = fancy_regex::RegexInput::new(text).anchored(cost.anchored);
                re.is_match_input(input).map_err(|e| match e {
                    fancy_regex::Error::RuntimeError(_) => PatternError::Backtrack {
                        steps,
                        len: text.len(),
                        per_step: cost.per_step(text),
                    },
                    other => PatternError::Syntax(last_line(&other.to_string())),
                })
            }
            Pattern::Rust(r) => Ok(r.is_match(text)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(p: &str, d: Dialect, t: &str) -> bool {
        compile(p, d).unwrap().is_match(t).unwrap()
    }

    /// Waza's dialect is Go's RE2: `\Q…\E` quotes, look-around and back-references are
    /// refused, and so are the flags and repetition counts RE2 does not have.
    #[test]
    fn re2_is_gos_dialect() {
        let re2 = |p: &str| compile(p, Dialect::Re2);
        assert!(m(r"\Qa.b*\E+", Dialect::Re2, "a.b*a.b*"));
        assert!(!m(r"^\Qa.b\E$", Dialect::Re2, "axb"));
        assert!(m(r"^x\Q(y)", Dialect::Re2, "x(y)"), "\\Q runs to the end");
        assert!(
            m(r"^\\Qx$", Dialect::Re2, "\\Qx"),
            "an escaped backslash is not \\Q"
        );
        assert!(
            compile(r"\Qa.b\E", Dialect::Rust).is_err(),
            "Rust alone refuses \\Q"
        );
        for bad in [
            r"(?=x)y",
            r"(a)\1",
            r"(?x) a b",
            r"(?u:\w)",
            r"(?R)^a$",
            r"a{1001}",
            r"a{2,1001}",
        ] {
            assert!(re2(bad).is_err(), "{bad}");
        }
        for good in [
            r"(?i)(bug|issue)",
            r"(?s:.)",
            r"(?U)a+",
            r"a{1000}",
            r"(?P<n>x)",
            r"(?<n>x)",
            r"\pL+",
        ] {
            assert!(re2(good).is_ok(), "{good}");
        }
        // The .NET dialect takes what RE2 refuses, and refuses `\Q`.
        assert!(compile(r"(?=x)x", Dialect::Dotnet).is_ok());
    }

    #[test]
    fn dollar_matches_before_a_final_newline_in_dotnet() {
        assert!(m(r"^\d{3}$", Dialect::Dotnet, "123\n"));
        assert!(m(r"^\d{3}$", Dialect::Dotnet, "123"));
        assert!(!m(r"^\d{3}$", Dialect::Dotnet, "123\n\n"));
        assert!(!m(r"^\d{3}$", Dialect::Rust, "123\n"));
        assert!(m(r"^\d{3}\Z", Dialect::Dotnet, "123\n"));
        assert!(m(r"(?m)^b$", Dialect::Dotnet, "a\nb\nc"));
        // In a class, and escaped, `$` is a literal.
        assert!(m(r"^[$]\$$", Dialect::Dotnet, "$$\n"));
        assert!(m(r"^[]$]+$", Dialect::Dotnet, "]$\n"));
    }

    #[test]
    fn look_around_and_back_references() {
        assert!(m(r"foo(?=bar)", Dialect::Dotnet, "foobar"));
        assert!(m(r"(?<!x)y", Dialect::Dotnet, "ay"));
        assert!(m(r"(\w)\1", Dialect::Dotnet, "hello"));
        assert!(compile(r"foo(?=bar)", Dialect::Rust).is_err());
        // .NET's class subtraction is read as a union of classes (docs/evals.md).
        assert!(m(r"^[a-z-[aeiou]]$", Dialect::Dotnet, "a"));
        assert!(matches!(
            compile("(unclosed", Dialect::Dotnet),
            Err(PatternError::Syntax(_))
        ));
    }

    #[test]
    fn backtracking_is_bounded() {
        let p = compile(r"(x+x+)+(?>y)", Dialect::Dotnet).unwrap();
        let text = "x".repeat(40);
        assert!(matches!(
            p.is_match(&text),
            Err(PatternError::Backtrack { .. })
        ));
    }

    fn cost(p: &str) -> Cost {
        match compile(p, Dialect::Dotnet).unwrap() {
            Pattern::Dotnet { cost, .. } => cost,
            Pattern::Rust(_) => unreachable!(),
        }
    }

    #[test]
    fn each_step_is_charged_what_it_may_re_read() {
        // Linear patterns (handed to `regex` whole) and bounded look-around: no site.
        assert_eq!(cost(r"^\d+ items?$").sites, 0);
        assert!(cost(r"^\d+ items?$").anchored);
        assert!(!cost(r"(?m)^\d+ items?$").anchored);
        assert!(!cost(r"\d+ items?$").anchored);
        assert_eq!(cost(r"foo(?=bar)").sites, 0);
        // A look-around or atomic group over an unbounded repetition, a back-reference.
        assert_eq!(cost(r"(?>a+)b").line_sites, 1);
        assert_eq!(cost(r"(\w+)\1").sites, 1);
        assert_eq!(cost(r"^(?=.*foo)(?=.*bar)").line_sites, 2);
        // `.` does not cross a line feed: the look-ahead re-reads one line, not the sample.
        assert_eq!(
            (cost(r"(?=.*x).").sites, cost(r"(?=.*x).").line_sites),
            (0, 1)
        );
        assert_eq!(cost(r"(?s)(?=.*x).").sites, 1);
        assert_eq!(cost(r"(?=[^y]*x).").sites, 1);
        // The steps a sample may take shrink as the sample grows.
        let c = cost(r"(?s)(?=.*x).");
        let big = "a".repeat(1 << 20);
        assert!(c.steps(&big) <= (FUEL >> 20) as usize);
        assert!(c.steps("abc") > 10_000_000);
        let lines = "a\n".repeat(1 << 19);
        assert!(cost(r"(?=.*x).").steps(&lines) > 10_000_000);
    }

    /// A look-around or atomic group that re-reads the sample at every position once ran
    /// past a minute on a 1 MB sample: the work bound stops it, and the anchored idiom for
    /// "contains all of" still matches on the same sample.
    #[test]
    fn re_reading_patterns_stop_at_the_work_bound() {
        let text = "a".repeat(1 << 20);
        for p in [r"(?=.*x).", r"(?>a+)b", r"(?<=a)(?=[\s\S]*z)", r"(\w+)\1z"] {
            let t = std::time::Instant::now();
            let r = compile(p, Dialect::Dotnet).unwrap().is_match(&text);
            assert!(
                matches!(r, Err(PatternError::Backtrack { .. })),
                "{p}: {r:?}"
            );
            // Not a timing assertion of the product (the bound counts work): a guard that
            // the test itself cannot hang a CI job.
            assert!(t.elapsed().as_secs() < 60, "{p}");
        }
        // Line-bounded re-reading on a sample of short lines is cheap, and allowed.
        let lines = "a\n".repeat(1 << 19);
        assert_eq!(
            compile(r"(?=.*x).", Dialect::Dotnet)
                .unwrap()
                .is_match(&lines),
            Ok(false)
        );
        let mut both = text.clone();
        both.push_str(" foo bar");
        assert_eq!(
            compile(r"^(?=[\s\S]*foo)(?=[\s\S]*bar)", Dialect::Dotnet)
                .unwrap()
                .is_match(&both),
            Ok(true)
        );
    }
}
