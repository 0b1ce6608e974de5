//! JSON configuration text (MCP servers, hooks, harness settings) read into a
//! `serde_json::Value`, in one of two dialects: strict JSON (`serde_json`), or JSONC for VS
//! Code's configuration files (`//` and `/* */` comments, trailing commas, a byte-order mark;
//! dprint's `jsonc-parser`, docs/design.md). Errors carry the line and column they point at.
//!
//! Where an object's members are in the text comes from the position-keeping token scan
//! ([`super::json_scan`]), one linear pass for every key asked ([`member_keys`]): never a
//! search of the text per member.

use std::collections::HashMap;

use serde_json::Value;

use super::json_scan::{Tok, tokens, unquote};

/// Nesting deeper than this is refused before any parser recurses into it (`serde_json`'s
/// own limit, applied to JSONC too).
pub const MAX_DEPTH: usize = 128;

/// Which JSON a file is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// RFC 8259: what Claude Code, Copilot and Gemini read.
    Json,
    /// JSON with comments and trailing commas, and a byte-order mark allowed: VS Code's
    /// `.vscode/*.json`.
    Jsonc,
}

/// Why a text is not a JSON value of its dialect, and where. The message names the line
/// and column too (as `serde_json`'s do).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct JsonError {
    pub message: String,
    pub line: u32,
    pub column: u32,
}

/// Parses `text` as `dialect`.
pub fn parse(text: &str, dialect: Dialect) -> Result<Value, JsonError> {
    match dialect {
        Dialect::Json => serde_json::from_str(text).map_err(|e| JsonError {
            message: e.to_string(),
            line: e.line() as u32,
            column: e.column() as u32,
        }),
        Dialect::Jsonc => parse_jsonc(text),
    }
}

fn parse_jsonc(text: &str) -> Result<Value, JsonError> {
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let bom = text.len() - body.len();
    let at = |offset: usize, message: String| {
        let lines = crate::text::LineIndex::new(text);
        let (line, column) = lines.position(text, bom + offset);
        JsonError {
            message: format!("{message} at line {line} column {column}"),
            line,
            column,
        }
    };
    if let Some(deep) = too_deep(body) {
        return Err(at(
            deep,
            format!("nested more than {MAX_DEPTH} levels deep"),
        ));
    }
    if body.trim().is_empty() {
        return Err(at(body.len(), "EOF while parsing a value".to_owned()));
    }
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    jsonc_parser::parse_to_serde_value::<Value>(body, &options)
        .map_err(|e| at(e.range().start, e.kind().to_string()))
}

/// The offset of the first bracket that opens a level deeper than [`MAX_DEPTH`], if any.
fn too_deep(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, tok) in tokens(text) {
        match tok {
            Tok::Open(_) => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Some(at);
                }
            }
            Tok::Close => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// For each object path of `parents` (keys from the root: `&["mcpServers"]`,
/// `&["mcp", "servers"]`), the byte offset of each of its members' keys (the opening quote),
/// by member name; the first occurrence when a name repeats. One token scan, whatever the
/// number of members.
pub fn member_keys(text: &str, parents: &[&[&str]]) -> Vec<HashMap<String, usize>> {
    let mut out: Vec<HashMap<String, usize>> = vec![HashMap::new(); parents.len()];
    // Per open container: whether it is an object, and the key path to it while that path
    // is still a prefix of one of `parents` (`None` once it is not).
    let mut stack: Vec<(bool, Option<Vec<String>>)> = Vec::new();
    let mut pending: Option<String> = None;
    let wanted = |path: &[String]| {
        parents
            .iter()
            .position(|p| p.len() == path.len() && p.iter().zip(path).all(|(a, b)| a == b))
    };
    let prefix = |path: &[String]| {
        parents
            .iter()
            .any(|p| p.len() >= path.len() && p.iter().zip(path).all(|(a, b)| a == b))
    };
    for (at, tok) in tokens(text) {
        match tok {
            Tok::Str { end, key: true } => {
                let key = unquote(text, at, end);
                if let Some((true, Some(path))) = stack.last()
                    && let Some(i) = wanted(path)
                {
                    out[i].entry(key.clone()).or_insert(at);
                }
                pending = Some(key);
            }
            Tok::Str { key: false, .. } | Tok::Comma => pending = None,
            Tok::Open(c) => {
                let path = match (stack.last(), pending.take()) {
                    // The root.
                    (None, _) => Some(Vec::new()),
                    (Some((true, Some(p))), Some(k)) => {
                        let mut p = p.clone();
                        p.push(k);
                        prefix(&p).then_some(p)
                    }
                    _ => None,
                };
                stack.push((c == b'{', path));
            }
            Tok::Close => {
                stack.pop();
                pending = None;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_reads_comments_trailing_commas_and_a_bom() {
        let t = "\u{FEFF}{\n  // a comment \"with quotes\"\n  \"servers\": {\n    /* block */ \"a\": {\"url\": \"http://x\",},\n  },\n}\n";
        let v = parse(t, Dialect::Jsonc).unwrap();
        assert_eq!(v["servers"]["a"]["url"], "http://x");
        // Strict JSON refuses the same text.
        assert!(parse(t, Dialect::Json).is_err());
        // Positions: the key `"a"` on line 4, column 17 (counted in characters).
        let keys = member_keys(t, &[&["servers"]]);
        let off = keys[0]["a"];
        assert_eq!(
            crate::text::LineIndex::new(t).position(t, off),
            (4, 17),
            "{keys:?}"
        );
    }

    #[test]
    fn jsonc_errors_have_positions_and_extensions_stay_off() {
        for (t, line) in [
            ("{\n  \"a\": 'single'\n}", 2),
            ("{\n  \"a\": 0x10\n}", 2),
            ("{\n  a: 1\n}", 2),
            ("{\"a\": 1 \"b\": 2}", 1),
            ("{ /* open", 1),
            ("", 1),
        ] {
            let e = parse(t, Dialect::Jsonc).unwrap_err();
            assert_eq!(e.line, line, "{t:?}: {e}");
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert!(
            parse(&deep, Dialect::Jsonc)
                .unwrap_err()
                .message
                .contains("nested")
        );
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok, Dialect::Jsonc).is_ok());
    }

    #[test]
    fn member_keys_are_those_of_the_object_asked() {
        let t = r#"{"x": {"mcpServers": {"no": 1}}, "mcpServers": {"a": {"args": ["b"]}, "b": 2, "a": 3}, "mcp": {"servers": {"c": {}}}}"#;
        let k = member_keys(t, &[&["mcpServers"], &["mcp", "servers"], &["none"]]);
        assert_eq!(k[0].len(), 2);
        assert_eq!(k[0]["a"], t.find("\"a\"").unwrap());
        assert_eq!(k[0]["b"], t.find("\"b\":").unwrap());
        assert_eq!(k[1]["c"], t.find("\"c\"").unwrap());
        assert!(k[2].is_empty());
    }

    #[test]
    fn member_keys_cost_one_scan() {
        // 50,000 members on one line: one pass (a search per member was quadratic).
        let mut t = String::from("{\"mcpServers\": {");
        for i in 0..50_000 {
            t.push_str(&format!("\"s{i}\": {{\"url\": \"http://h{i}\"}},"));
        }
        t.push_str("\"last\": {}}}");
        let k = member_keys(&t, &[&["mcpServers"]]);
        assert_eq!(k[0].len(), 50_001);
        assert_eq!(k[0]["s49999"], t.find("\"s49999\"").unwrap());
    }
}
