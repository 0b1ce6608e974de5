//! Tool calls read from a JSON transcript or disclosure trace. Shared by the Index's
//! `--trace` reader (`index::parse_trace`) and `evals tools` (`cli::evals`).
//!
//! Accepted shapes (see `docs/evals-tools.md`):
//! - a list of calls, or an object whose `calls`, `tool_calls` or `messages` key holds one;
//! - a call is `{"tool"|"name": NAME, "arguments"|"args"|"input": …}` or OpenAI's
//!   `{"function": {"name", "arguments"}}` (arguments may be a JSON-encoded string);
//! - a chat message (an object with a `role`) contributes its OpenAI `tool_calls` and its
//!   Claude `tool_use` content blocks, in order; a message with neither contributes nothing.
//!
//! Input size is bounded by the callers ([`MAX_BYTES`]); nesting by serde_json's recursion
//! limit (128 levels), which fails cleanly. [`parse`] also places each call's tool-name
//! string at its line and column, with one linear scan of the text ([`super::json_scan`]).

use std::collections::HashMap;

use serde_json::Value;

use super::json_scan::{self, Tok};

/// Largest transcript or trace file read.
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

/// One tool call, in transcript order.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// 1-based position among the calls of the transcript.
    pub index: usize,
    /// Where the call is in the JSON document (`[3].tool_calls[0]`).
    pub at: String,
    /// The tool name as written.
    pub name: String,
    /// The raw arguments (`null` when absent); see [`ToolCall::arguments`].
    pub raw_args: Value,
    /// 1-based line and column (in characters) of the opening quote of the tool-name string
    /// in the text; set by [`parse`], `None` from [`calls`].
    pub pos: Option<(usize, usize)>,
    /// The JSON path of the tool-name string.
    name_path: Vec<Seg>,
}

/// One step of a JSON path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Seg {
    Key(String),
    Idx(usize),
}

impl ToolCall {
    /// The arguments, a JSON-encoded string decoded.
    pub fn arguments(&self) -> Result<Value, String> {
        match &self.raw_args {
            Value::String(s) => serde_json::from_str(s).map_err(|e| {
                format!(
                    "call {}: `arguments` is a string but not JSON: {e}",
                    self.index
                )
            }),
            v => Ok(v.clone()),
        }
    }
}

/// The list of calls (or messages) in a parsed document.
fn list_of(v: &Value) -> Result<(&Vec<Value>, &'static str), String> {
    match v {
        Value::Array(a) => Ok((a, "")),
        Value::Object(o) => {
            for key in ["calls", "tool_calls", "messages"] {
                if let Some(Value::Array(a)) = o.get(key) {
                    return Ok((a, key));
                }
            }
            Err(
                "expected a JSON list of tool calls, or an object with a `calls` list (or `tool_calls`, `messages`)"
                    .into(),
            )
        }
        _ => Err("expected a JSON list of tool calls".into()),
    }
}

/// The call's name, its raw arguments, and the keys that lead from the call to its name.
fn call_of(o: &serde_json::Map<String, Value>) -> Option<(String, Value, Vec<Seg>)> {
    let f = o.get("function").and_then(|f| f.as_object());
    let key = |k: &str| Seg::Key(k.to_owned());
    // The first of these that is present is the name (and must be a string).
    let (name, keys) = if let Some(n) = o.get("tool") {
        (n, vec![key("tool")])
    } else if let Some(n) = o.get("name") {
        (n, vec![key("name")])
    } else {
        (f?.get("name")?, vec![key("function"), key("name")])
    };
    let name = name.as_str()?;
    let raw = o
        .get("arguments")
        .or_else(|| o.get("args"))
        .or_else(|| o.get("input"))
        .or_else(|| f.and_then(|f| f.get("arguments")))
        .cloned()
        .unwrap_or(Value::Null);
    Some((name.to_owned(), raw, keys))
}

/// Reads the tool calls of a parsed JSON document, in order.
pub fn calls(v: &Value) -> Result<Vec<ToolCall>, String> {
    let (list, key) = list_of(v)?;
    let (prefix, base) = if key.is_empty() {
        (String::new(), Vec::new())
    } else {
        (format!(".{key}"), vec![Seg::Key(key.to_owned())])
    };
    let path = |tail: &[Seg]| -> Vec<Seg> { base.iter().chain(tail).cloned().collect() };
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let n = i + 1;
        let o = item
            .as_object()
            .ok_or_else(|| format!("call {n} is not an object"))?;
        let here = format!("{prefix}[{i}]");
        if o.contains_key("role") {
            // A chat message: OpenAI `tool_calls`, then Claude `tool_use` blocks.
            if let Some(tc) = o.get("tool_calls") {
                let tc = tc
                    .as_array()
                    .ok_or_else(|| format!("message {n}: `tool_calls` is not a list"))?;
                for (j, c) in tc.iter().enumerate() {
                    let (name, raw, keys) = c
                        .as_object()
                        .and_then(call_of)
                        .ok_or_else(|| format!("message {n}: tool call {} has no name", j + 1))?;
                    let at = [Seg::Idx(i), Seg::Key("tool_calls".into()), Seg::Idx(j)];
                    out.push(ToolCall {
                        index: out.len() + 1,
                        at: format!("{here}.tool_calls[{j}]"),
                        name,
                        raw_args: raw,
                        pos: None,
                        name_path: path(&[&at[..], &keys].concat()),
                    });
                }
            }
            if let Some(Value::Array(blocks)) = o.get("content") {
                for (j, b) in blocks.iter().enumerate() {
                    let Some(b) = b.as_object() else { continue };
                    if b.get("type").and_then(|t| t.as_str()) != Some("tool_use") {
                        continue;
                    }
                    let (name, raw, keys) = call_of(b).ok_or_else(|| {
                        format!("message {n}: tool_use block {} has no name", j + 1)
                    })?;
                    let at = [Seg::Idx(i), Seg::Key("content".into()), Seg::Idx(j)];
                    out.push(ToolCall {
                        index: out.len() + 1,
                        at: format!("{here}.content[{j}]"),
                        name,
                        raw_args: raw,
                        pos: None,
                        name_path: path(&[&at[..], &keys].concat()),
                    });
                }
            }
            continue;
        }
        let (name, raw, keys) = call_of(o).ok_or_else(|| format!("call {n} has no `tool` name"))?;
        out.push(ToolCall {
            index: out.len() + 1,
            at: here,
            name,
            raw_args: raw,
            pos: None,
            name_path: path(&[&[Seg::Idx(i)][..], &keys].concat()),
        });
    }
    Ok(out)
}

/// A trie of the wanted JSON paths.
#[derive(Default)]
struct Trie {
    /// Per node: its children by step, and the call whose name ends here.
    nodes: Vec<(HashMap<Seg, usize>, Option<usize>)>,
}

impl Trie {
    fn insert(&mut self, path: &[Seg], call: usize) {
        if self.nodes.is_empty() {
            self.nodes.push(Default::default());
        }
        let mut n = 0;
        for s in path {
            n = match self.nodes[n].0.get(s) {
                Some(&c) => c,
                None => {
                    self.nodes.push(Default::default());
                    let c = self.nodes.len() - 1;
                    self.nodes[n].0.insert(s.clone(), c);
                    c
                }
            };
        }
        self.nodes[n].1 = Some(call);
    }

    fn child(&self, n: Option<usize>, s: &Seg) -> Option<usize> {
        self.nodes.get(n?)?.0.get(s).copied()
    }
}

/// Places each call's tool-name string in `text`: one scan, a stack of open containers (no
/// recursion), keys decoded only on the wanted paths; a repeated key's last value wins, as
/// in serde_json.
fn place(text: &str, calls: &mut [ToolCall]) {
    let mut trie = Trie::default();
    for (k, c) in calls.iter().enumerate() {
        trie.insert(&c.name_path, k);
    }
    if trie.nodes.is_empty() {
        return;
    }
    // Per open container: (is a list, its trie node, the current element's index).
    let mut stack: Vec<(bool, Option<usize>, usize)> = Vec::new();
    // An object's value: the trie node its key leads to.
    let mut pending: Option<usize> = None;
    let mut found: Vec<(usize, usize)> = Vec::new(); // (byte offset, call)
    let mut seen: Vec<Option<usize>> = vec![None; calls.len()];
    let value_node =
        |stack: &[(bool, Option<usize>, usize)], pending: Option<usize>| match stack.last() {
            None => Some(0),
            Some(&(true, n, i)) => trie.child(n, &Seg::Idx(i)),
            Some(&(false, _, _)) => pending,
        };
    for (at, tok) in json_scan::tokens(text) {
        match tok {
            Tok::Str { end, key: true } => {
                pending = match stack.last() {
                    Some(&(false, Some(n), _)) => {
                        trie.child(Some(n), &Seg::Key(json_scan::unquote(text, at, end)))
                    }
                    _ => None,
                };
            }
            Tok::Str { key: false, .. } => {
                if let Some(n) = value_node(&stack, pending)
                    && let Some(call) = trie.nodes[n].1
                {
                    seen[call] = Some(at);
                }
                pending = None;
            }
            Tok::Open(c) => {
                let n = value_node(&stack, pending);
                stack.push((c == b'[', n, 0));
                pending = None;
            }
            Tok::Close => {
                stack.pop();
                pending = None;
            }
            Tok::Comma => {
                if let Some((true, _, i)) = stack.last_mut() {
                    *i += 1;
                }
                pending = None;
            }
        }
    }
    for (call, at) in seen.into_iter().enumerate() {
        if let Some(at) = at {
            found.push((at, call));
        }
    }
    found.sort_unstable();
    let offsets: Vec<usize> = found.iter().map(|f| f.0).collect();
    for ((_, call), pos) in found.iter().zip(json_scan::line_cols(text, &offsets)) {
        calls[*call].pos = Some(pos);
    }
}

/// Parses a JSON document and reads its tool calls, each placed at its line and column.
pub fn parse(bytes: &[u8]) -> Result<Vec<ToolCall>, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let mut out = calls(&v)?;
    if let Ok(text) = std::str::from_utf8(bytes) {
        place(text, &mut out);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(json: &str) -> Vec<(usize, String, String)> {
        parse(json.as_bytes())
            .unwrap()
            .into_iter()
            .map(|c| (c.index, c.at, c.name))
            .collect()
    }

    #[test]
    fn bare_list_and_wrappers() {
        assert_eq!(
            names(
                r#"[{"tool":"a"},{"name":"b","args":{}},{"function":{"name":"c","arguments":"{}"}}]"#
            ),
            vec![
                (1, "[0]".into(), "a".into()),
                (2, "[1]".into(), "b".into()),
                (3, "[2]".into(), "c".into())
            ]
        );
        assert_eq!(
            names(r#"{"calls":[{"tool":"a"}]}"#),
            vec![(1, ".calls[0]".into(), "a".into())]
        );
    }

    #[test]
    fn chat_messages() {
        let j = r#"{"messages":[
            {"role":"user","content":"hi"},
            {"role":"assistant","content":[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"Read","input":{}}]},
            {"role":"assistant","tool_calls":[{"id":"1","type":"function","function":{"name":"bash","arguments":"{}"}}]}
        ]}"#;
        assert_eq!(
            names(j),
            vec![
                (1, ".messages[1].content[1]".into(), "Read".into()),
                (2, ".messages[2].tool_calls[0]".into(), "bash".into())
            ]
        );
    }

    fn places(json: &str) -> Vec<Option<(usize, usize)>> {
        parse(json.as_bytes())
            .unwrap()
            .into_iter()
            .map(|c| c.pos)
            .collect()
    }

    #[test]
    fn names_are_placed_at_line_and_column() {
        // Every shape; a decoy `name` before the real one, a repeated key (the last wins),
        // and a non-ASCII line (columns count characters).
        let j = "{\"messages\": [\n {\"role\": \"user\", \"content\": \"ä name\"},\n {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"name\": \"x\"}, {\"type\": \"tool_use\", \"name\": \"Read\"}]},\n {\"role\": \"assistant\", \"tool_calls\": [{\"function\": {\"name\": \"bash\"}},\n   {\"name\": \"a\", \"name\": \"b\"}]}\n]}";
        let calls = parse(j.as_bytes()).unwrap();
        let got: Vec<(&str, Option<(usize, usize)>)> =
            calls.iter().map(|c| (c.name.as_str(), c.pos)).collect();
        let line3 = j.lines().nth(2).unwrap();
        let col = |line: &str, needle: &str| line[..line.find(needle).unwrap()].chars().count() + 1;
        let line4 = j.lines().nth(3).unwrap();
        let line5 = j.lines().nth(4).unwrap();
        assert_eq!(
            got,
            [
                ("Read", Some((3, col(line3, "\"Read\"")))),
                ("bash", Some((4, col(line4, "\"bash\"")))),
                ("b", Some((5, col(line5, "\"b\"")))),
            ]
        );
        assert_eq!(
            places("[{\"tool\":\"a\"},\n{\"name\":\"é\"}, {\"function\":{\"name\":\"c\"}}]"),
            [Some((1, 10)), Some((2, 9)), Some((2, 35))]
        );
        assert_eq!(places("{\"calls\": [{\"tool\": \"a\"}]}"), [Some((1, 21))]);
        // Deep nesting beside the calls is scanned without recursion (serde_json's limit
        // still applies to the document).
        let deep = format!(
            "[{{\"tool\":\"a\",\"x\":{}{}}}]",
            "[".repeat(100),
            "]".repeat(100)
        );
        assert_eq!(places(&deep), [Some((1, 10))]);
    }

    #[test]
    fn corrupt_input() {
        for (bad, want) in [
            ("{", "EOF"),
            ("42", "expected a JSON list"),
            ("[1]", "call 1 is not an object"),
            (r#"[{"args":{}}]"#, "call 1 has no `tool` name"),
            (r#"[{"role":"assistant","tool_calls":3}]"#, "not a list"),
            (r#"[{"role":"assistant","tool_calls":[{}]}]"#, "has no name"),
        ] {
            let e = parse(bad.as_bytes()).unwrap_err();
            assert!(e.contains(want), "{bad}: {e}");
        }
        let deep = "[".repeat(10_000);
        assert!(parse(deep.as_bytes()).unwrap_err().contains("recursion"));
    }
}
