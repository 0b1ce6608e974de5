//! Syntax trees of scanned Python and JavaScript/TypeScript (tree-sitter grammars).
//!
//! One parser per language per thread (`thread_local`), so rayon workers never share one.
//! Parsing is bounded: files over [`MAX_PARSE_BYTES`] are not parsed (the caller says so),
//! and a parse that runs longer than [`PARSE_BUDGET`] is cancelled and yields no tree.
//! The grammars are error-tolerant: a broken file still parses around its errors.

use std::cell::RefCell;
use std::time::{Duration, Instant};

use tree_sitter::{Language, ParseOptions, ParseState, Parser, Tree};

/// Files larger than this are not parsed (their flows are not followed).
pub const MAX_PARSE_BYTES: usize = 1024 * 1024;

/// Wall-clock budget of one parse; a parse that takes longer is cancelled.
pub const PARSE_BUDGET: Duration = Duration::from_millis(500);

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
/// grammar cannot load, or the parse ran out of its time budget.
pub fn parse(text: &str, grammar: Grammar) -> Option<Tree> {
    if text.len() > MAX_PARSE_BYTES {
        return None;
    }
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
        let start = Instant::now();
        let mut cancel = |_: &ParseState| start.elapsed() > PARSE_BUDGET;
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
    fn broken_and_oversized_input_do_not_panic() {
        assert!(parse("def (:\n  ))) 'unterminated", Grammar::Python).is_some());
        assert!(parse("function ( { `${", Grammar::JavaScript).is_some());
        let big = "x = 1\n".repeat(MAX_PARSE_BYTES / 6 + 1);
        assert!(parse(&big, Grammar::Python).is_none());
    }
}
