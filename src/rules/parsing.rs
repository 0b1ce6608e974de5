//! Parsing the entry file: UTF-8 decoding, the frontmatter split, the YAML
//! parse, and the findings each step produces.

use super::{Cx, SkillDoc, ids};
use crate::parse::frontmatter::{self, Anomaly, Failure};
use crate::parse::markdown;
use crate::parse::yaml::{self, YamlError};
use crate::text::{self, LineIndex};

/// Decodes, splits and parses `bytes`, reporting every anomaly through `cx`.
pub fn parse_entry(bytes: &[u8], cx: &mut Cx<'_>) -> SkillDoc {
    parse_entry_with(bytes, cx, true)
}

/// [`parse_entry`]; without `body`, the Markdown body is not parsed (left empty): for a skill
/// whose checks the result cache answers, only the front matter is read.
pub fn parse_entry_with(bytes: &[u8], cx: &mut Cx<'_>, body: bool) -> SkillDoc {
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t.to_owned(),
        Err(e) => {
            let valid = e.valid_up_to();
            let lossy = String::from_utf8_lossy(bytes).into_owned();
            let prefix = String::from_utf8_lossy(&bytes[..valid]);
            let ix = LineIndex::new(&prefix);
            let (line, col) = ix.position(&prefix, prefix.len());
            let bad: Vec<String> = bytes[valid..]
                .iter()
                .take(e.error_len().unwrap_or(1).max(1))
                .map(|b| format!("{b:02X}"))
                .collect();
            cx.emit(
                ids::FILE_INVALID_UTF8,
                format!(
                    "`{}` is not valid UTF-8: byte(s) {} at offset {valid} cannot be decoded; tools read this file differently (skills-ref crashes, .NET loaders substitute U+FFFD). Re-encode the file as UTF-8.",
                    cx.entry_path,
                    bad.join(" ")
                ),
                cx.at(line, col),
                "utf8",
            );
            lossy
        }
    };
    let lines = LineIndex::new(&text);
    let split = frontmatter::split(&text);
    let mut doc = SkillDoc {
        lines,
        yaml: None,
        body: markdown::Body::default(),
        body_start: split.body_start.unwrap_or(0),
        body_first_line: if split.body_start.is_some() {
            split.body_first_line
        } else {
            1
        },
        split,
        text,
    };
    report_split(&doc, cx);
    if let Some(range) = doc.split.yaml.clone() {
        let yaml_text = &doc.text[range];
        match yaml::parse(yaml_text) {
            Ok(d) => {
                doc.yaml = Some(d);
                report_yaml(&doc, cx);
            }
            Err(YamlError::Syntax { message, pos }) => {
                let (l, c) = doc.file_pos(pos);
                cx.emit(
                    ids::YAML_SYNTAX_ERROR,
                    format!(
                        "frontmatter is not valid YAML: {}. Strict loaders drop this skill and Claude Code loads it with empty metadata. Fix the YAML here; quote values that contain `: `.",
                        text::sanitize_line(&message)
                    ),
                    cx.at(l, c),
                    "yaml",
                );
            }
            Err(YamlError::Budget { message, pos }) => {
                let (l, c) = doc.file_pos(pos);
                cx.emit(
                    ids::YAML_BUDGET_EXCEEDED,
                    format!(
                        "frontmatter YAML exceeds the parser budget: {message}. Remove anchors, aliases and deep nesting."
                    ),
                    cx.at(l, c),
                    "yaml-budget",
                );
            }
        }
    }
    if body {
        let body_first_line = doc.body_first_line as u32;
        doc.body = markdown::parse(doc.body_text(), body_first_line);
    }
    doc
}

fn report_split(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let s = &doc.split;
    for a in &s.anomalies {
        match a {
            Anomaly::Bom => cx.emit(
                ids::FRONTMATTER_BOM,
                "file starts with a UTF-8 byte-order mark: MAF strips it and loads the skill, but skills-ref and Codex reject the file. Save it as UTF-8 without a BOM.".into(),
                cx.at(1, 1),
                "bom",
            ),
            Anomaly::LeadingBlankLines { count } => cx.emit(
                ids::FRONTMATTER_LEADING_BLANK_LINES,
                format!(
                    "{count} blank line(s) precede the opening `---` (line {}): MAF and skills-ref require `---` on the first line and exclude this skill. Delete the blank lines.",
                    s.open_line
                ),
                cx.at(1, 1),
                "leading-blank",
            ),
            Anomaly::Crlf { line } => cx.emit(
                ids::FRONTMATTER_CRLF,
                "frontmatter uses CRLF line endings: accepted by most loaders, rejected by Anthropic's quick_validate.py, and content hashes differ from an LF checkout. Convert to LF (e.g. `.gitattributes`: `SKILL.md text eol=lf`).".into(),
                cx.at(*line as u32, 1),
                "crlf",
            ),
            Anomaly::DocumentEndMarker { line } => cx.emit(
                ids::FRONTMATTER_DOCUMENT_END_MARKER,
                format!(
                    "YAML `...` document-end marker on line {line} inside the frontmatter: YAML parsers ignore the keys after it, line-based readers (MAF) do not. Remove the `...` line."
                ),
                cx.at(*line as u32, 1),
                "doc-end",
            ),
            Anomaly::NearMissCloser { .. } => {}
        }
    }
    match &s.failure {
        None => {}
        Some(Failure::Missing) => {
            let t = doc.text.trim();
            let flattened_link = !t.is_empty()
                && t.len() < 512
                && !t.contains(char::is_whitespace)
                && t.contains('/')
                && (t.starts_with('.') || t.starts_with('/'));
            let hint = if flattened_link {
                format!(
                    " Its whole content is the path `{}`: this looks like a symbolic link checked out as a plain file (git `core.symlinks=false`, Windows, an archive), which no harness follows. Restore the link or replace it with the real file.",
                    text::sanitize_line(&text::truncate(t, 120))
                )
            } else {
                " Start the file with `---`, the fields, and a closing `---`.".to_owned()
            };
            cx.emit(
                ids::FRONTMATTER_MISSING,
                format!("file does not start with `---` frontmatter, so it has no `name` or `description`: strict loaders drop the skill.{hint}"),
                cx.at(1, 1),
                "missing",
            );
        }
        Some(Failure::MalformedOpener { line, text: t }) => cx.emit(
            ids::FRONTMATTER_DELIMITER_MALFORMED,
            format!(
                "opening delimiter is `{}`, not exactly `---`: MAF excludes the skill and skills-ref hands the extra characters to YAML. Make the first line exactly `---`.",
                text::sanitize_line(&text::truncate(t, 40))
            ),
            cx.at(*line as u32, 1),
            "opener",
        ),
        Some(Failure::Unclosed {
            open_line,
            doc_end_line,
            near_miss,
        }) => {
            let mut extra = String::new();
            if let Some(l) = doc_end_line {
                extra.push_str(&format!(" A YAML `...` on line {l} does not close frontmatter for skill loaders."));
            }
            if let Some((l, t)) = near_miss {
                extra.push_str(&format!(
                    " Line {l} (`{}`) is not a valid closing delimiter.",
                    text::sanitize_line(&text::truncate(t, 40))
                ));
            }
            cx.emit(
                ids::FRONTMATTER_UNCLOSED,
                format!(
                    "frontmatter opened on line {open_line} is never closed with a `---` line: MAF and skills-ref exclude this skill.{extra} Add a `---` line after the last field."
                ),
                cx.at(*open_line as u32, 1),
                "unclosed",
            );
        }
    }
}

fn report_yaml(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(y) = &doc.yaml else { return };
    for d in &y.duplicates {
        let (l, c) = doc.file_pos(d.again);
        let (fl, fc) = doc.file_pos(d.first);
        let key = text::sanitize_line(&d.key).into_owned();
        cx.emit_related(
            ids::YAML_DUPLICATE_KEY,
            format!(
                "key `{key}` appears again (first on line {fl}): some parsers reject the file, PyYAML and MAF keep the last value, others the first — a reviewer and a runtime can read different values. Keep exactly one `{key}`."
            ),
            cx.at(l, c),
            &format!("dup:{key}"),
            vec![(cx.at(fl, fc), format!("first `{key}`"))],
        );
    }
    if let Some(p) = y.extra_document {
        let (l, c) = doc.file_pos(p);
        cx.emit(
            ids::FRONTMATTER_MULTIPLE_DOCUMENTS,
            format!(
                "a second YAML document starts on line {l} inside the frontmatter: YAML parsers ignore every key after it while line-based loaders (MAF) read them, so harnesses see different fields. Remove that `---`/`...` line so the fields form one mapping."
            ),
            cx.at(l, c),
            "multiple-documents",
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for si in &y.strict_issues {
        if !seen.insert(si.what) {
            continue;
        }
        let (l, c) = doc.file_pos(si.pos);
        let n = y.strict_issues.iter().filter(|x| x.what == si.what).count();
        cx.emit(
            ids::YAML_STRICTYAML_INCOMPATIBLE,
            format!(
                "frontmatter uses a YAML {} ({n} occurrence(s)): skills-ref (strictyaml) rejects the file while PyYAML-based harnesses accept it. Use block style with plain or quoted strings.",
                si.what
            ),
            cx.at(l, c),
            &format!("strict:{}", si.what),
        );
    }
    match y.root.as_ref().map(|r| &r.kind) {
        Some(crate::parse::yaml::NodeKind::Map { .. }) => {}
        other => {
            let what = match (other, &y.root) {
                (None, _) => "empty".to_owned(),
                (Some(_), Some(r)) => r.a_type(),
                _ => "not a mapping".to_owned(),
            };
            let (l, c) = y
                .root
                .as_ref()
                .map(|r| doc.file_pos(r.pos))
                .unwrap_or((doc.split.open_line as u32, 1));
            cx.emit(
                ids::YAML_NOT_MAPPING,
                format!(
                    "frontmatter is {what}, not a YAML mapping, so the skill has no fields: every loader rejects it. Write the frontmatter as `key: value` lines."
                ),
                cx.at(l.max(1), c),
                "not-mapping",
            );
        }
    }
}
