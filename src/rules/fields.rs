//! Frontmatter field rules of the Agent Skills specification.
//!
//! Lengths are counted in Unicode code points (the specification's and
//! `skills-ref`'s unit); messages add the UTF-16 length (.NET loaders) when it differs.

use unicode_normalization::UnicodeNormalization;

use super::{Cx, SkillDoc, ids};
use crate::parse::yaml::{Node, NodeKind, ScalarType};
use crate::text::{code_points, sanitize_line, truncate, utf16_units};

/// The six keys of the specification.
pub const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Documented harness extension keys (Claude Code `SKILL.md` frontmatter).
pub const EXTENSION_KEYS: &[&str] = &[
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "background",
    "hooks",
    "paths",
    "shell",
];

fn len_note(s: &str) -> String {
    let cp = code_points(s);
    let u16 = utf16_units(s);
    if cp == u16 {
        format!("{cp} characters")
    } else {
        format!("{cp} characters ({u16} UTF-16 units, as .NET loaders count)")
    }
}

fn show(s: &str) -> String {
    sanitize_line(&truncate(s, 80)).into_owned()
}

/// Where to point when a key is absent: the opening delimiter.
pub(super) fn top(doc: &SkillDoc) -> (u32, u32) {
    (doc.split.open_line.max(1) as u32, 1)
}

/// Returns a string value, or a description of why there is none.
pub(super) fn string_value(node: &Node) -> Result<&str, String> {
    match &node.kind {
        NodeKind::Scalar {
            ty: ScalarType::Null,
            ..
        } => Err("empty".into()),
        NodeKind::Scalar { text, .. } => Ok(text),
        _ => Err(format!("{}, not a string", node.a_type())),
    }
}

pub fn check_name(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(root) = doc.root() else { return };
    if !matches!(root.kind, NodeKind::Map { .. }) {
        return;
    }
    let Some(node) = root.get("name") else {
        let (l, c) = top(doc);
        cx.emit(
            ids::NAME_MISSING,
            format!(
                "frontmatter has no `name`: strict loaders drop the skill. Add `name: {}`.",
                show(cx.dir_name)
            ),
            cx.at(l, c),
            "name",
        );
        return;
    };
    let (l, c) = doc.file_pos(node.pos);
    let name = match string_value(node) {
        Ok(n) if !n.trim().is_empty() => n,
        Ok(_) | Err(_) => {
            let why = string_value(node).err().unwrap_or_else(|| "blank".into());
            cx.emit(
                ids::NAME_MISSING,
                format!(
                    "`name` is {why}: strict loaders drop the skill. Set `name: {}`.",
                    show(cx.dir_name)
                ),
                cx.at(l, c),
                "name",
            );
            return;
        }
    };
    let shown = show(name);
    if code_points(name) > 64 {
        cx.emit(
            ids::NAME_TOO_LONG,
            format!(
                "`name` is {} long; the limit is 64. Shorten it and rename the directory to match.",
                len_note(name)
            ),
            cx.at(l, c),
            "name",
        );
    }
    let bad: Vec<char> = name
        .chars()
        .filter(|ch| !(ch.is_ascii_lowercase() || ch.is_ascii_digit() || *ch == '-'))
        .collect();
    if !bad.is_empty() {
        let mut listed: Vec<String> = Vec::new();
        for ch in &bad {
            let d = if ch.is_ascii_graphic() {
                format!("`{ch}`")
            } else {
                format!("U+{:04X}", *ch as u32)
            };
            if !listed.contains(&d) {
                listed.push(d);
            }
            if listed.len() >= 6 {
                break;
            }
        }
        let mut note = String::new();
        let nfkc: String = name.nfkc().collect();
        let unicode_ok =
            nfkc == nfkc.to_lowercase() && nfkc.chars().all(|c| c.is_alphanumeric() || c == '-');
        if nfkc != name
            && nfkc
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            note.push_str(&format!(
                " It normalises (NFKC) to the ASCII name `{}`: a look-alike that skills-ref accepts but most loaders do not.",
                show(&nfkc)
            ));
        } else if unicode_ok {
            note.push_str(" skills-ref accepts Unicode lowercase letters and digits; MAF, VS Code and OpenCode (and the strict reading of the specification) do not.");
        }
        cx.emit(
            ids::NAME_INVALID_CHARS,
            format!(
                "`name` `{shown}` contains {} outside lowercase `a-z`, `0-9` and `-`.{note} Use only lowercase ASCII letters, digits and hyphens.",
                listed.join(", ")
            ),
            cx.at(l, c),
            "name",
        );
    }
    if name.starts_with('-') || name.ends_with('-') {
        cx.emit(
            ids::NAME_LEADING_TRAILING_HYPHEN,
            format!("`name` `{shown}` starts or ends with a hyphen: MAF and the specification reject it. Remove the hyphen from the name and the directory."),
            cx.at(l, c),
            "name",
        );
    }
    if name.contains("--") {
        cx.emit(
            ids::NAME_CONSECUTIVE_HYPHENS,
            format!("`name` `{shown}` contains `--`: the specification and MAF reject it. Use single hyphens in the name and the directory."),
            cx.at(l, c),
            "name",
        );
    }
    if name != cx.dir_name && !cx.dir_name.is_empty() {
        let nfkc_eq = name.nfkc().collect::<String>() == cx.dir_name.nfkc().collect::<String>();
        let note = if nfkc_eq {
            " They are equal only after Unicode NFKC normalisation, which skills-ref applies and other loaders do not."
        } else if name.eq_ignore_ascii_case(cx.dir_name) {
            " They differ only in case; the comparison is case-sensitive."
        } else {
            ""
        };
        cx.emit(
            ids::NAME_DIRECTORY_MISMATCH,
            format!(
                "`name` `{shown}` does not match the directory `{}`: MAF and VS Code drop the skill, Claude Code names its command after the directory.{note} Rename one so they are byte-identical.",
                show(cx.dir_name)
            ),
            cx.at(l, c),
            "name",
        );
    }
}

pub fn check_description(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(root) = doc.root() else { return };
    if !matches!(root.kind, NodeKind::Map { .. }) {
        return;
    }
    let Some(node) = root.get("description") else {
        let (l, c) = top(doc);
        cx.emit(
            ids::DESCRIPTION_MISSING,
            "frontmatter has no `description`: the model cannot tell when to use the skill and strict loaders drop it. Add a description of what it does and when to use it.".into(),
            cx.at(l, c),
            "description",
        );
        return;
    };
    let (l, c) = doc.file_pos(node.pos);
    match string_value(node) {
        Ok(d) if !d.trim().is_empty() => {
            if code_points(d) > 1024 {
                cx.emit(
                    ids::DESCRIPTION_TOO_LONG,
                    format!(
                        "`description` is {} long; the limit is 1024 (MAF and VS Code drop the skill). Shorten it and move detail into the body.",
                        len_note(d)
                    ),
                    cx.at(l, c),
                    "description",
                );
            }
        }
        other => {
            let why = other.err().unwrap_or_else(|| "blank".into());
            cx.emit(
                ids::DESCRIPTION_MISSING,
                format!("`description` is {why}: strict loaders drop the skill. Write a description of what it does and when to use it."),
                cx.at(l, c),
                "description",
            );
        }
    }
}

pub fn check_compatibility(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(node) = doc.root().and_then(|r| r.get("compatibility")) else {
        return;
    };
    let (l, c) = doc.file_pos(node.pos);
    match string_value(node) {
        Ok(v) if !v.trim().is_empty() => {
            if code_points(v) > 500 {
                cx.emit(
                    ids::COMPATIBILITY_TOO_LONG,
                    format!(
                        "`compatibility` is {} long; the limit is 500. MAF 1.13-1.17 throws on this and drops every skill under the same root. Shorten it.",
                        len_note(v)
                    ),
                    cx.at(l, c),
                    "compatibility",
                );
            }
        }
        other => {
            let why = other.err().unwrap_or_else(|| "blank".into());
            cx.emit(
                ids::COMPATIBILITY_INVALID,
                format!("`compatibility` is {why}; the specification requires a 1-500 character string when the key is present. Write a short string or remove the key."),
                cx.at(l, c),
                "compatibility",
            );
        }
    }
}

pub fn check_metadata(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(node) = doc.root().and_then(|r| r.get("metadata")) else {
        return;
    };
    let (l, c) = doc.file_pos(node.pos);
    match &node.kind {
        NodeKind::Scalar { ty: ScalarType::Null, .. } => {}
        NodeKind::Map { entries, .. } => {
            for (k, v) in entries {
                let key = k.as_str().unwrap_or("?");
                let problem = match &v.kind {
                    NodeKind::Scalar { ty: ScalarType::Str, .. } => None,
                    NodeKind::Scalar { ty: ScalarType::Bool11, text, .. } => Some(format!(
                        "`{}` is read as a boolean by YAML 1.1 parsers (PyYAML); quote it: `\"{}\"`",
                        show(text),
                        show(text)
                    )),
                    NodeKind::Scalar { ty: ScalarType::Null, .. } => Some(
                        "value is empty (YAML null), not a string; give it a quoted value or remove the key"
                            .to_owned(),
                    ),
                    NodeKind::Scalar { text, .. } => Some(format!(
                        "value `{}` is a YAML {}, not a string; quote it: `\"{}\"`",
                        show(text),
                        v.type_name(),
                        show(text)
                    )),
                    _ => Some(format!(
                        "value is a nested {}; loaders stringify or drop it. Flatten it into string values",
                        v.type_name()
                    )),
                };
                let key_problem = match &k.kind {
                    NodeKind::Scalar { ty: ScalarType::Str, .. } => None,
                    _ => Some(format!("key `{}` is a YAML {}, not a string", show(key), k.type_name())),
                };
                for p in key_problem.into_iter().chain(problem) {
                    let (vl, vc) = doc.file_pos(v.pos);
                    cx.emit(
                        ids::METADATA_NOT_STRING_MAP,
                        format!("`metadata.{}`: {p}. The specification defines metadata as a string-to-string map.", show(key)),
                        cx.at(vl, vc),
                        &format!("metadata:{key}"),
                    );
                }
            }
        }
        _ => cx.emit(
            ids::METADATA_NOT_STRING_MAP,
            format!(
                "`metadata` is {}, not a mapping: Claude Code drops it and skills-ref stringifies it. Make it a flat `key: \"value\"` mapping.",
                node.a_type()
            ),
            cx.at(l, c),
            "metadata",
        ),
    }
}

/// Is there a comma outside parentheses (a comma-separated list)?
pub fn comma_separated(s: &str) -> bool {
    let mut depth = 0i32;
    for ch in s.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth <= 0 => return true,
            _ => {}
        }
    }
    false
}

/// Splits an `allowed-tools` string into tools: on whitespace (the specification)
/// or on commas, never inside parentheses (`Bash(git add:*)`).
pub fn split_tools(s: &str) -> Vec<String> {
    let comma = comma_separated(s);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    for ch in s.chars() {
        match ch {
            '(' => {
                depth += 1;
                cur.push(ch);
            }
            ')' => {
                depth -= 1;
                cur.push(ch);
            }
            c if depth <= 0 && ((comma && c == ',') || (!comma && c.is_whitespace())) => {
                if !cur.trim().is_empty() {
                    out.push(cur.trim().to_owned());
                }
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_owned());
    }
    out
}

pub fn check_allowed_tools(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(node) = doc.root().and_then(|r| r.get("allowed-tools")) else {
        return;
    };
    let (l, c) = doc.file_pos(node.pos);
    let tools: Vec<String> = match &node.kind {
        NodeKind::Seq { items, .. } => {
            cx.emit(
                ids::ALLOWED_TOOLS_NONSTANDARD_FORM,
                "`allowed-tools` is a YAML list; the specification defines a space-separated string, and harnesses other than Claude Code may not read a list. Write `allowed-tools: Read Grep …`.".into(),
                cx.at(l, c),
                "allowed-tools",
            );
            items
                .iter()
                .filter_map(|i| i.as_str().map(str::to_owned))
                .collect()
        }
        NodeKind::Map { .. } => {
            cx.emit(
                ids::ALLOWED_TOOLS_NONSTANDARD_FORM,
                "`allowed-tools` is a mapping; the specification defines a space-separated string. Write `allowed-tools: Read Grep …`.".into(),
                cx.at(l, c),
                "allowed-tools",
            );
            Vec::new()
        }
        NodeKind::Scalar {
            ty: ScalarType::Null,
            ..
        } => Vec::new(),
        NodeKind::Scalar { text, .. } => {
            let t = split_tools(text);
            if comma_separated(text) {
                cx.emit(
                    ids::ALLOWED_TOOLS_NONSTANDARD_FORM,
                    format!(
                        "`allowed-tools` is comma-separated (`{}`); the specification says space-separated, and harnesses split differently (AgentEval on commas, the specification on spaces), so the tool list depends on the reader. Write `allowed-tools: {}`.",
                        show(text),
                        show(&t.join(" "))
                    ),
                    cx.at(l, c),
                    "allowed-tools",
                );
            }
            t
        }
    };
    if !tools.is_empty() {
        cx.emit(
            ids::ALLOWED_TOOLS_EXPERIMENTAL,
            format!(
                "uses the experimental `allowed-tools` field ({} tool(s): {}); in Claude Code these run without a permission prompt. Review the list.",
                tools.len(),
                show(&tools.join(" "))
            ),
            cx.at(l, c),
            "allowed-tools-experimental",
        );
    }
}

pub fn check_keys(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(NodeKind::Map { entries, .. }) = doc.root().map(|r| &r.kind) else {
        return;
    };
    for (k, _) in entries {
        let key = match &k.kind {
            NodeKind::Scalar { text, .. } => text.as_str(),
            _ => "(complex key)",
        };
        if SPEC_KEYS.contains(&key) {
            continue;
        }
        let (l, c) = doc.file_pos(k.pos);
        if EXTENSION_KEYS.contains(&key) {
            // Who documents the key (docs/loaders.md).
            let documented = match key {
                "argument-hint" => {
                    "an input hint that Claude Code documents for skills (autocomplete, e.g. `[issue-number]`) and VS Code for prompt files and custom agents: it takes effect in Claude Code"
                }
                _ => "a Claude Code extension key: it takes effect there",
            };
            cx.emit(
                ids::FRONTMATTER_EXTENSION_KEY,
                format!(
                    "`{key}` is {documented}, is ignored by other harnesses and rejected by skills-ref and Anthropic's upload validator."
                ),
                cx.at(l, c),
                &format!("key:{key}"),
            );
            continue;
        }
        let norm = key.to_ascii_lowercase().replace('_', "-");
        let hint = SPEC_KEYS
            .iter()
            .chain(EXTENSION_KEYS)
            .find(|k| k.replace('_', "-") == norm)
            .map(|k| format!(" Did you mean `{k}`?"))
            .unwrap_or_else(|| " Remove it or move it under `metadata:` as a string.".into());
        cx.emit(
            ids::FRONTMATTER_UNKNOWN_KEY,
            format!(
                "unknown frontmatter key `{}`: skills-ref and Anthropic's upload validator reject it and other harnesses ignore it silently.{hint}",
                show(key)
            ),
            cx.at(l, c),
            &format!("key:{key}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_splitting() {
        assert_eq!(
            split_tools("Read Grep Bash(git add:*)"),
            ["Read", "Grep", "Bash(git add:*)"]
        );
        assert_eq!(
            split_tools("Read, Write,Bash(a, b)"),
            ["Read", "Write", "Bash(a, b)"]
        );
        assert!(split_tools("  ").is_empty());
    }
}
