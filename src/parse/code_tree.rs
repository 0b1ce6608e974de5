//! Syntax trees of scanned Python and JavaScript/TypeScript (tree-sitter grammars).
//!
//! One parser per language per thread (`thread_local`), so rayon workers never share one.
//! Parsing is bounded: files over [`MAX_PARSE_BYTES`] are not parsed (the caller says so),
//! and a parse that needs more than [`parse_budget`] progress checks (tree-sitter checks
//! progress every 100 parse operations, a count that depends on the input alone) is
//! cancelled and yields no tree: the same file gets the same verdict on every machine.
//! The grammars are error-tolerant: a broken file still parses around its errors.

use std::cell::RefCell;

use tree_sitter::{Language, ParseOptions, ParseState, Parser, Tree};

/// Files larger than this are not parsed (their flows are not followed).
pub const MAX_PARSE_BYTES: usize = 1024 * 1024;

/// Progress checks allowed per parse whatever its size (100,000 parse operations).
pub const BASE_CHECKS: usize = 1_000;
/// One more progress check allowed per this many bytes of input. The 1,127 Python and
/// JavaScript/TypeScript files of the shared corpora take at most one check per 88 bytes
/// (`checks_per_byte_on_real_code`), so real code stays an order of magnitude inside it.
pub const BYTES_PER_CHECK: usize = 8;

/// The progress checks a parse of `len` bytes may take before it is cancelled.
pub fn parse_budget(len: usize) -> usize {
    BASE_CHECKS.saturating_add(len / BYTES_PER_CHECK)
}

/// The grammar to parse with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grammar {
    Python,
    JavaScript,
    TypeScript,
    Tsx,
}

impl Grammar {
    /// The grammar for a path (by extension), if it is Python or JavaScript/TypeScript;
    /// `fallback_js`/`fallback_py` pick one for files recognised by their shebang.
    pub fn of_path(path: &str, fallback: Option<Grammar>) -> Option<Grammar> {
        let ext = path
            .rsplit('/')
            .next()
            .and_then(|n| n.rsplit_once('.'))
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "ts" | "mts" | "cts" => Some(Grammar::TypeScript),
            "tsx" => Some(Grammar::Tsx),
            "js" | "mjs" | "cjs" | "jsx" => Some(Grammar::JavaScript),
            "py" | "pyw" | "pyi" => Some(Grammar::Python),
            _ => fallback,
        }
    }

    pub fn is_python(self) -> bool {
        self == Grammar::Python
    }

    fn language(self) -> Language {
        match self {
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Grammar::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        }
    }
}

thread_local! {
    static PARSERS: RefCell<Vec<(Grammar, Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Parses `text` with `grammar`: `None` when the text is over [`MAX_PARSE_BYTES`], the
/// grammar cannot load, or the parse needed more than [`parse_budget`] progress checks.
pub fn parse(text: &str, grammar: Grammar) -> Option<Tree> {
    parse_counted(text, grammar, parse_budget(text.len())).0
}

/// [`parse`] with an explicit budget of progress checks; also returns the checks taken.
pub fn parse_counted(text: &str, grammar: Grammar, budget: usize) -> (Option<Tree>, usize) {
    let mut checks = 0usize;
    if text.len() > MAX_PARSE_BYTES {
        return (None, checks);
    }
    let tree = parse_with(text, grammar, budget, &mut checks);
    (tree, checks)
}

fn parse_with(text: &str, grammar: Grammar, budget: usize, checks: &mut usize) -> Option<Tree> {
    PARSERS.with(|cell| {
        let mut parsers = cell.try_borrow_mut().ok()?;
        let i = match parsers.iter().position(|(g, _)| *g == grammar) {
            Some(i) => i,
            None => {
                let mut p = Parser::new();
                p.set_language(&grammar.language()).ok()?;
                parsers.push((grammar, p));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers[i].1;
        parser.reset();
        let mut cancel = |_: &ParseState| {
            *checks += 1;
            *checks > budget
        };
        let bytes = text.as_bytes();
        let mut read = |offset: usize, _| bytes.get(offset..).unwrap_or(&[]);
        parser.parse_with_options(
            &mut read,
            None,
            Some(ParseOptions::new().progress_callback(&mut cancel)),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_python_and_javascript() {
        let t = parse("x = open('a').read()\n", Grammar::Python).unwrap();
        assert_eq!(t.root_node().kind(), "module");
        let t = parse("const x = fetch(`u${a}`);\n", Grammar::JavaScript).unwrap();
        assert_eq!(t.root_node().kind(), "program");
        let t = parse("let x: string = f(a as any);\n", Grammar::TypeScript).unwrap();
        assert_eq!(t.root_node().kind(), "program");
        let t = parse("const a = <div>{x}</div>;\n", Grammar::Tsx).unwrap();
        assert_eq!(t.root_node().kind(), "program");
    }

    #[test]
    fn cancellation_counts_work_not_time() {
        let text = "def f(x):\n    return [y for y in x if y]\n".repeat(2_000);
        let (full, checks) = parse_counted(&text, Grammar::Python, usize::MAX);
        assert!(full.is_some() && checks > 10, "{checks} checks");
        // The same input takes the same number of checks, every time.
        assert_eq!(parse_counted(&text, Grammar::Python, usize::MAX).1, checks);
        let (cut, n) = parse_counted(&text, Grammar::Python, checks / 2);
        assert!(cut.is_none());
        assert_eq!(n, checks / 2 + 1);
        assert!(parse(&text, Grammar::Python).is_some());
    }

    /// The bound against real code: run with
    /// `SKILLGUARD_CORPORA=../shared/corpora cargo test --lib code_tree -- --ignored --nocapture`.
    #[test]
    #[ignore = "reads the shared corpora"]
    fn checks_per_byte_on_real_code() {
        let Some(root) = std::env::var_os("SKILLGUARD_CORPORA") else {
            return;
        };
        let mut worst = (0.0f64, String::new(), 0usize, 0usize);
        let mut files = 0;
        let mut stack = vec![std::path::PathBuf::from(root)];
        while let Some(d) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&d) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                    continue;
                }
                let name = p.to_string_lossy().into_owned();
                let Some(g) = Grammar::of_path(&name, None) else {
                    continue;
                };
                let Ok(text) = std::fs::read_to_string(&p) else {
                    continue;
                };
                let (_, checks) = parse_counted(&text, g, usize::MAX);
                files += 1;
                let ratio = checks as f64 / text.len().max(1) as f64;
                if checks > 0 && ratio > worst.0 {
                    worst = (ratio, name, checks, text.len());
                }
                assert!(
                    checks <= parse_budget(text.len()),
                    "{}: {checks}",
                    p.display()
                );
            }
        }
        #[allow(clippy::print_stdout)]
        {
            println!("{files} files; most checks per byte: {worst:?}");
        }
    }

    #[test]
    fn broken_and_oversized_input_do_not_panic() {
        assert!(parse("def (:\n  ))) 'unterminated", Grammar::Python).is_some());
        assert!(parse("function ( { `${", Grammar::JavaScript).is_some());
        let big = "x = 1\n".repeat(MAX_PARSE_BYTES / 6 + 1);
        assert!(parse(&big, Grammar::Python).is_none());
    }
}
