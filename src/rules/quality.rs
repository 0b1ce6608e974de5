//! Skill-authoring advisories after Waza (`waza check`, microsoft/waza; reference
//! `skill-format-and-harnesses.md` §6.2), the rules of category `quality`: the
//! description's routing phrases and length, the token budget of each Markdown file, links
//! to directories, `references/` files nothing reaches, `license` and `metadata.version`,
//! and absolute paths of one machine.
//!
//! Rules that fire on most real skills are off by default ([`Enabled`]; the counts are in
//! `docs/design.md`). Where a rule departs from Waza to avoid false positives on real
//! skills, its catalog entry (`rules/<id>.md`) says so. Skills only: agent, prompt and
//! instruction files do not get these advisories.

use std::sync::LazyLock;

use regex::Regex;

use super::fields::{string_value, top};
use super::{Cx, SkillDoc, ids};
use crate::catalog::Enabled;
use crate::parse::yaml::NodeKind;
use crate::text::{code_points, sanitize_line};

/// Runs the quality rules this scan runs over one skill. `contents` holds the bytes of the
/// skill's other files that were read (path inside the skill, bytes).
pub fn check(doc: &SkillDoc, cx: &mut Cx<'_>, _contents: &[(String, Vec<u8>)], on: &Enabled) {
    if on.runs(ids::DESCRIPTION_QUALITY) {
        description(doc, cx);
    }
    if on.runs(ids::LICENSE_MISSING) {
        license(doc, cx);
    }
    if on.runs(ids::METADATA_VERSION_MISSING) {
        version(doc, cx);
    }
}

/// Waza's compliance score rates a description under this many characters "Low".
pub const DESCRIPTION_MIN_CHARS: usize = 150;

/// Trigger phrases: Waza's four (`use for:`, `use this skill`, `triggers:`, `trigger phrases
/// include`), and the "Use when …" forms that the specification's and Anthropic's guidance
/// recommend and real skills use (Waza misses those). Matched on the lower-cased description
/// with its whitespace collapsed.
static TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"use for:|use this skill|triggers:|trigger phrases include",
        r"|\buse (?:it |this |this skill |the skill )?(?:when|whenever|for|after|before|if|proactively)\b",
        r"|\bshould be used (?:when|whenever|for|if|to)\b",
        r"|\binvoke (?:it |this |this skill )?(?:when|whenever|for)\b",
        r"|\btrigger",
    ))
    .expect("valid regex")
});

/// Anti-trigger phrases: Waza's four (`do not use for:`, `not for:`, `don't use this skill`,
/// `instead use`) and their common variants (`do not use when`, `not intended for`, `use X
/// instead`).
static ANTI_TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"do not use for:|not for:|don't use this skill|instead use",
        r"|\b(?:do not|don't|never) use\b",
        r"|\bnot (?:for|intended for|meant for|suitable for|designed for)\b",
        r"|\buse [^.;:]{1,80} instead\b",
    ))
    .expect("valid regex")
});

/// `description-quality`: Waza's compliance score of a description. Low when it is shorter
/// than [`DESCRIPTION_MIN_CHARS`] or names no trigger phrase, Medium when it names no
/// anti-trigger phrase; every fact that applies goes into one finding. A missing, blank or
/// over-long description has its own rules (`description-missing`, `description-too-long`).
fn description(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(node) = doc.root().and_then(|r| r.get("description")) else {
        return;
    };
    let Ok(d) = string_value(node) else { return };
    let d = d.trim();
    if d.is_empty() {
        return;
    }
    let norm = d
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}'], "'");
    let len = code_points(d);
    let mut facts = Vec::new();
    if len < DESCRIPTION_MIN_CHARS {
        facts.push(format!(
            "is {len} characters long (Waza wants at least {DESCRIPTION_MIN_CHARS})"
        ));
    }
    let trigger = TRIGGER.is_match(&norm);
    if !trigger {
        facts.push("names no trigger phrase (`Use when …`, `USE FOR: …`)".to_owned());
    }
    if !ANTI_TRIGGER.is_match(&norm) {
        facts.push("names no anti-trigger phrase (`DO NOT USE FOR: …`, `… instead`)".to_owned());
    }
    if facts.is_empty() {
        return;
    }
    let level = if len < DESCRIPTION_MIN_CHARS || !trigger {
        "Low"
    } else {
        "Medium"
    };
    let facts = match facts.len() {
        1 => facts.remove(0),
        _ => {
            let last = facts.pop().unwrap_or_default();
            format!("{} and {last}", facts.join(", "))
        }
    };
    let (l, c) = doc.file_pos(node.pos);
    cx.emit(
        ids::DESCRIPTION_QUALITY,
        format!(
            "`description` {facts}: agents pick a skill by its description alone, and Waza rates this one {level}. Say what the skill does, when to use it (`USE FOR: …` or `Use when …`) and when not to (`DO NOT USE FOR: …`), in at least {DESCRIPTION_MIN_CHARS} characters."
        ),
        cx.at(l, c),
        "description-quality",
    );
}

/// File names that hold license terms (`LICENSE`, `LICENSE.txt`, `COPYING`, ...).
fn is_license_file(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or("").to_ascii_uppercase();
    matches!(stem.as_str(), "LICENSE" | "LICENCE" | "COPYING")
}

/// `license-missing`: no `license`, or an empty one.
fn license(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(root) = doc.root() else { return };
    if !matches!(root.kind, NodeKind::Map { .. }) {
        return;
    }
    let file = cx
        .files
        .iter()
        .map(|f| f.path.as_str())
        .find(|p| !p.contains('/') && is_license_file(p));
    let hint = match file {
        Some(f) => format!(
            " The folder holds `{}`: name it, e.g. `license: Complete terms in {}`.",
            sanitize_line(f),
            sanitize_line(f)
        ),
        None => String::new(),
    };
    let (what, (l, c)) = match root.get("license") {
        None => ("frontmatter has no `license`".to_owned(), top(doc)),
        Some(node) => match string_value(node) {
            Ok(s) if !s.trim().is_empty() => return,
            Ok(_) => ("`license` is blank".to_owned(), doc.file_pos(node.pos)),
            Err(why) => (format!("`license` is {why}"), doc.file_pos(node.pos)),
        },
    };
    cx.emit(
        ids::LICENSE_MISSING,
        format!(
            "{what}: whoever installs or redistributes the skill cannot tell on what terms (Waza's `spec-license` advice).{hint} Add `license:` with an SPDX identifier (`license: Apache-2.0`), `Proprietary`, or the file that holds the terms."
        ),
        cx.at(l, c),
        "license",
    );
}

/// File line and column of the top-level key `key` (the last one, as [`Node::get`] reads).
///
/// [`Node::get`]: crate::parse::yaml::Node::get
fn key_pos(doc: &SkillDoc, key: &str) -> (u32, u32) {
    match doc.root().map(|r| &r.kind) {
        Some(NodeKind::Map { entries, .. }) => entries
            .iter()
            .rev()
            .find(|(k, _)| k.as_str() == Some(key))
            .map_or_else(|| top(doc), |(k, _)| doc.file_pos(k.pos)),
        _ => top(doc),
    }
}

/// `metadata-version-missing`: no `metadata.version`. A top-level `version` key is left to
/// `frontmatter-unknown-key` (whose fix is to move it under `metadata`), and a non-string or
/// non-mapping `metadata` to `metadata-not-string-map`: one cause, one finding.
fn version(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(root) = doc.root() else { return };
    if !matches!(root.kind, NodeKind::Map { .. }) || root.get("version").is_some() {
        return;
    }
    let (what, (l, c)) = match root.get("metadata") {
        None => ("frontmatter has no `metadata.version`", top(doc)),
        Some(m) if m.is_null() => ("`metadata` is empty", doc.file_pos(m.pos)),
        Some(m) => match (&m.kind, m.get("version")) {
            (NodeKind::Map { .. }, None) => {
                ("`metadata` has no `version`", key_pos(doc, "metadata"))
            }
            (NodeKind::Map { .. }, Some(v)) => match string_value(v) {
                Ok(s) if s.trim().is_empty() => {
                    ("`metadata.version` is blank", doc.file_pos(v.pos))
                }
                _ => return,
            },
            _ => return,
        },
    };
    cx.emit(
        ids::METADATA_VERSION_MISSING,
        format!(
            "{what}: without a version, users and baselines cannot tell which release of the skill they run (Waza's `spec-version` advice). Add `metadata:` with `version: \"1.0.0\"` (a quoted string) and raise it with each change."
        ),
        cx.at(l, c),
        "metadata-version",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{FileEntry, FileKind};

    fn entry(path: &str, size: u64, kind: FileKind) -> FileEntry {
        FileEntry {
            path: path.to_owned(),
            size,
            kind,
            executable: false,
            sha256: None,
            sha256_lf: None,
            line_hashes: None,
            symlink: None,
            via_link: false,
        }
    }

    /// Runs every quality rule on a skill `demo` whose `SKILL.md` is `skill` and whose other
    /// files are `others`: the findings as `rule path:line message`.
    fn run(skill: &str, others: &[(&str, &str)]) -> Vec<String> {
        let mut files = vec![entry("SKILL.md", skill.len() as u64, FileKind::Entry)];
        for (p, t) in others {
            let kind = crate::inventory::classify(p, Some(t.as_bytes()));
            files.push(entry(p, t.len() as u64, kind));
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let contents: Vec<(String, Vec<u8>)> = others
            .iter()
            .map(|(p, t)| ((*p).to_owned(), t.as_bytes().to_vec()))
            .collect();
        let mut cx = Cx {
            skill: "demo",
            skill_path: "skills/demo",
            dir_name: "demo",
            entry_path: "skills/demo/SKILL.md".into(),
            files: &files,
            findings: Vec::new(),
        };
        let doc = super::super::parsing::parse_entry(skill.as_bytes(), &mut cx);
        cx.findings.clear();
        check(&doc, &mut cx, &contents, &Enabled::every());
        cx.findings
            .iter()
            .map(|f| {
                format!(
                    "{} {}:{} {}",
                    f.rule_id,
                    f.location.path,
                    f.location.line.unwrap_or(0),
                    f.message
                )
            })
            .collect()
    }

    fn rules(found: &[String]) -> Vec<&str> {
        found
            .iter()
            .map(|f| f.split(' ').next().unwrap_or(""))
            .collect()
    }

    const DESC: &str = "Summarise expense reports. Use when the user asks for an expense summary.";

    #[test]
    fn description_facts_make_one_finding() {
        let desc = |d: &str| {
            let f = run(
                &format!(
                    "---\nname: demo\ndescription: {d}\nlicense: MIT\nmetadata:\n  version: \"1\"\n---\nB.\n"
                ),
                &[],
            );
            f.into_iter()
                .filter(|x| x.starts_with("description-quality"))
                .collect::<Vec<_>>()
        };
        let f = desc("Summarise expense reports.");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].contains("SKILL.md:3 `description` is 26 characters long (Waza wants at least 150), names no trigger phrase (`Use when …`, `USE FOR: …`) and names no anti-trigger phrase")
                && f[0].contains("rates this one Low"),
            "{f:?}"
        );
        let long = "Summarise expense reports from receipts, card statements and travel bookings into one table per trip, with totals per category, currency conversions and flagged outliers.";
        let f = desc(&format!(
            "{long} Use when the user asks for an expense summary."
        ));
        assert!(
            f.len() == 1
                && f[0].contains("rates this one Medium")
                && !f[0].contains("characters long")
                && !f[0].contains("no trigger"),
            "{f:?}"
        );
        for ok in [
            format!(
                "{long} USE FOR: expense summaries. DO NOT USE FOR: invoices (use invoice-tools)."
            ),
            format!(
                "{long} Use this skill when asked for a summary; don't use it for tax returns."
            ),
            format!(
                "{long} This skill should be used when the user asks for totals. Not intended for payroll."
            ),
            format!(
                "{long} Triggers on expense questions; use payroll-report instead for salaries."
            ),
            format!("{long} Use when asked for totals. Don\u{2019}t use for invoices."),
        ] {
            assert!(desc(&ok).is_empty(), "{ok}: {:?}", desc(&ok));
        }
        // "because if" is not "use if"; "misuse for" is not "use for".
        let f = desc(&format!(
            "{long} Fails because if totals differ, misuse for audits. Not for payroll."
        ));
        assert!(f.len() == 1 && f[0].contains("no trigger"), "{f:?}");
        // Missing or blank: description-missing's.
        assert!(desc("\"\"").is_empty());
    }

    #[test]
    fn license_and_version() {
        let f = run(
            &format!("---\nname: demo\ndescription: {DESC}\n---\nBody.\n"),
            &[],
        );
        let lic: Vec<&String> = f.iter().filter(|x| x.starts_with("license-")).collect();
        assert_eq!(lic.len(), 1, "{f:?}");
        assert!(
            lic[0].contains("SKILL.md:1 frontmatter has no `license`"),
            "{f:?}"
        );
        assert!(rules(&f).contains(&ids::METADATA_VERSION_MISSING));
        // A LICENSE file is named in the advice.
        let f = run(
            &format!("---\nname: demo\ndescription: {DESC}\nlicense: \" \"\n---\nBody.\n"),
            &[("LICENSE.txt", "terms")],
        );
        assert!(
            f.iter()
                .any(|x| x.contains("SKILL.md:4 `license` is blank") && x.contains("LICENSE.txt")),
            "{f:?}"
        );
        // Present: nothing. A top-level `version` is frontmatter-unknown-key's, a numeric
        // `metadata.version` metadata-not-string-map's.
        for fm in [
            "license: MIT\nmetadata:\n  version: \"1.0\"\n",
            "license: MIT\nversion: 1.0.0\n",
            "license: MIT\nmetadata:\n  version: 1.0\n",
            "license: MIT\nmetadata: [a]\n",
        ] {
            let f = run(
                &format!("---\nname: demo\ndescription: {DESC}\n{fm}---\nBody.\n"),
                &[],
            );
            assert!(
                !rules(&f).contains(&ids::LICENSE_MISSING)
                    && !rules(&f).contains(&ids::METADATA_VERSION_MISSING),
                "{fm}: {f:?}"
            );
        }
        let f = run(
            &format!("---\nname: demo\ndescription: {DESC}\nmetadata:\n  author: x\n---\nB.\n"),
            &[],
        );
        assert!(
            f.iter().any(|x| x.starts_with(
                "metadata-version-missing skills/demo/SKILL.md:4 `metadata` has no `version`"
            )),
            "{f:?}"
        );
        // No frontmatter: frontmatter-missing says it all.
        assert!(run("# Just a body\n", &[]).is_empty());
    }
}
