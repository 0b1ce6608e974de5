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
//! limit (128 levels), which fails cleanly.

use serde_json::Value;

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

fn call_of(o: &serde_json::Map<String, Value>) -> Option<(String, Value)> {
    let f = o.get("function").and_then(|f| f.as_object());
    let name = o
        .get("tool")
        .or_else(|| o.get("name"))
        .or_else(|| f.and_then(|f| f.get("name")))
        .and_then(|x| x.as_str())?;
    let raw = o
        .get("arguments")
        .or_else(|| o.get("args"))
        .or_else(|| o.get("input"))
        .or_else(|| f.and_then(|f| f.get("arguments")))
        .cloned()
        .unwrap_or(Value::Null);
    Some((name.to_owned(), raw))
}

/// Reads the tool calls of a parsed JSON document, in order.
pub fn calls(v: &Value) -> Result<Vec<ToolCall>, String> {
    let (list, key) = list_of(v)?;
    let prefix = if key.is_empty() {
        String::new()
    } else {
        format!(".{key}")
    };
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
                    let (name, raw) = c
                        .as_object()
                        .and_then(call_of)
                        .ok_or_else(|| format!("message {n}: tool call {} has no name", j + 1))?;
                    out.push(ToolCall {
                        index: out.len() + 1,
                        at: format!("{here}.tool_calls[{j}]"),
                        name,
                        raw_args: raw,
                    });
                }
            }
            if let Some(Value::Array(blocks)) = o.get("content") {
                for (j, b) in blocks.iter().enumerate() {
                    let Some(b) = b.as_object() else { continue };
                    if b.get("type").and_then(|t| t.as_str()) != Some("tool_use") {
                        continue;
                    }
                    let (name, raw) = call_of(b).ok_or_else(|| {
                        format!("message {n}: tool_use block {} has no name", j + 1)
                    })?;
                    out.push(ToolCall {
                        index: out.len() + 1,
                        at: format!("{here}.content[{j}]"),
                        name,
                        raw_args: raw,
                    });
                }
            }
            continue;
        }
        let (name, raw) = call_of(o).ok_or_else(|| format!("call {n} has no `tool` name"))?;
        out.push(ToolCall {
            index: out.len() + 1,
            at: here,
            name,
            raw_args: raw,
        });
    }
    Ok(out)
}

/// Parses a JSON document and reads its tool calls.
pub fn parse(bytes: &[u8]) -> Result<Vec<ToolCall>, String> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    calls(&v)
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
