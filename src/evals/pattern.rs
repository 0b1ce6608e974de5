//! Regular expressions of eval files (`match: regex` cases, Waza's `regex_match`).
//!
//! The agent-evals harness and Waza match with .NET regular expressions, so that is the
//! default dialect here: look-around, back-references and atomic groups work (through
//! `fancy-regex`), and `$` (outside a character class) also matches before a final `\n`, as
//! .NET's `$` does without `RegexOptions.Multiline`; `\Z` is read the same way. Rust's dialect
//! (`regex`, linear time, no look-around) is the alternative. The backtracking engine is
//! bounded: a match that needs more than [`BACKTRACK_LIMIT`] steps is an error, never a hang.
//! The differences are listed in `docs/evals.md`.

/// Compiled-size bound of a pattern (and of its lazy DFA), in bytes.
pub const SIZE_LIMIT: usize = 1024 * 1024;
/// Backtracking steps one match may take in the .NET dialect.
pub const BACKTRACK_LIMIT: usize = 1_000_000;
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
}

impl Dialect {
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Dotnet => "dotnet",
            Dialect::Rust => "rust",
        }
    }
}

/// A compiled eval pattern.
#[derive(Debug, Clone)]
pub enum Pattern {
    Dotnet(Box<fancy_regex::Regex>),
    Rust(regex::Regex),
}

/// Why a pattern could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// It does not compile in the dialect; the message is the engine's last line.
    #[error("{0}")]
    Syntax(String),
    /// A match needed more than [`BACKTRACK_LIMIT`] backtracking steps.
    #[error(
        "the pattern needed more than {BACKTRACK_LIMIT} backtracking steps on one sample (nested quantifiers such as `(a+)+` backtrack exponentially); rewrite it"
    )]
    Backtrack,
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
        Dialect::Dotnet => fancy_regex::RegexBuilder::new(&dotnet_to_fancy(src))
            .backtrack_limit(BACKTRACK_LIMIT)
            .delegate_size_limit(SIZE_LIMIT)
            .delegate_dfa_size_limit(SIZE_LIMIT)
            .build()
            .map(|r| Pattern::Dotnet(Box::new(r)))
            .map_err(|e| PatternError::Syntax(last_line(&e.to_string()))),
        Dialect::Rust => regex::RegexBuilder::new(src)
            .size_limit(SIZE_LIMIT)
            .dfa_size_limit(SIZE_LIMIT)
            .build()
            .map(Pattern::Rust)
            .map_err(|e| PatternError::Syntax(last_line(&e.to_string()))),
    }
}

impl Pattern {
    /// Whether the pattern matches anywhere in `text`. The .NET dialect may fail with
    /// [`PatternError::Backtrack`]; the Rust dialect never fails.
    pub fn is_match(&self, text: &str) -> Result<bool, PatternError> {
        match self {
            Pattern::Dotnet(r) => r.is_match(text).map_err(|e| match e {
                fancy_regex::Error::RuntimeError(_) => PatternError::Backtrack,
                other => PatternError::Syntax(last_line(&other.to_string())),
            }),
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
        assert_eq!(p.is_match(&text), Err(PatternError::Backtrack));
    }
}
