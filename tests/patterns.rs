//! Data rules: every `examples` entry of a rule with a `match:` block must match,
//! and no `negative_examples` entry may. Each example is placed in a one-file skill
//! (as the body of `SKILL.md`, or as the file it names) and scanned end to end, so
//! regions (code blocks, comments, prose), keyword gates and context all apply.

use std::fs;

use skillguard::catalog;
use skillguard::discover::Mode;
use skillguard::scan::{ScanOptions, scan};

const DESC: &str = "Summarise expense reports. Use when the user asks for an expense summary.";

/// Scans a skill made of `file` holding `text`; returns the rule ids found.
fn rules_found(file: &str, text: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("example-skill");
    fs::create_dir_all(&skill).unwrap();
    let entry = if file == "SKILL.md" {
        format!("---\nname: example-skill\ndescription: {DESC}\n---\n{text}\n")
    } else {
        let p = skill.join(file);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, text).unwrap();
        format!("---\nname: example-skill\ndescription: {DESC}\n---\n# Example\n\nRun `{file}`.\n")
    };
    fs::write(skill.join("SKILL.md"), entry).unwrap();
    let r = scan(Mode::Path, dir.path(), &ScanOptions::default()).unwrap();
    // A rule attached to a finding as a consequence (one cause, one finding) still matched;
    // an example or a prohibition kept as a lower-confidence note did not.
    r.findings
        .iter()
        .filter(|f| !f.is_example_note())
        .flat_map(|f| {
            std::iter::once(f.rule_id.to_owned())
                .chain(f.consequences.iter().map(|c| c.rule_id.to_owned()))
        })
        .collect()
}

#[test]
fn data_rules_match_their_examples_and_not_their_negative_examples() {
    let mut failures = Vec::new();
    let mut n = 0;
    for m in catalog::all() {
        if m.matcher.is_none() {
            continue;
        }
        n += 1;
        if m.examples.is_empty() || m.negative_examples.is_empty() {
            failures.push(format!(
                "{}: a data rule needs `examples` and `negative_examples`",
                m.id
            ));
        }
        let silent = m.matcher.as_ref().is_some_and(|s| s.silent);
        for ex in &m.examples {
            let (file, text) = ex.parts();
            if silent {
                // A signal-only rule has no finding: check the engine directly.
                if skillguard::security::model::datarules::matches_example(m.id, file, text)
                    != Some(true)
                {
                    failures.push(format!(
                        "{}: example in {file} did not match:\n{text}",
                        m.id
                    ));
                }
                continue;
            }
            let found = rules_found(file, text);
            if !found.iter().any(|r| r == m.id) {
                failures.push(format!(
                    "{}: example in {file} did not match:\n{text}\n(found: {found:?})",
                    m.id
                ));
            }
        }
        for ex in &m.negative_examples {
            let (file, text) = ex.parts();
            if silent {
                if skillguard::security::model::datarules::matches_example(m.id, file, text)
                    != Some(false)
                {
                    failures.push(format!(
                        "{}: negative example in {file} matched:\n{text}",
                        m.id
                    ));
                }
                continue;
            }
            let found = rules_found(file, text);
            if found.iter().any(|r| r == m.id) {
                failures.push(format!(
                    "{}: negative example in {file} matched:\n{text}",
                    m.id
                ));
            }
        }
    }
    assert!(n > 0, "no data rule in the catalog");
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Rules checked by code (no `match:` block) may list `examples` and `negative_examples` in
/// their documentation too: each example must trigger the rule end to end (as the rule itself
/// or as a consequence attached to another cause) and no negative example may. The instruction
/// grammar and the shell and dataflow forms are held to what their documentation promises.
#[test]
fn code_rules_match_their_documented_examples() {
    let mut failures = Vec::new();
    let mut n = 0;
    for m in catalog::all() {
        if m.matcher.is_some() || (m.examples.is_empty() && m.negative_examples.is_empty()) {
            continue;
        }
        n += 1;
        if m.examples.is_empty() || m.negative_examples.is_empty() {
            failures.push(format!(
                "{}: documented examples need both `examples` and `negative_examples`",
                m.id
            ));
        }
        for ex in &m.examples {
            let (file, text) = ex.parts();
            let found = rules_found(file, text);
            if !found.iter().any(|r| r == m.id) {
                failures.push(format!(
                    "{}: example in {file} did not trigger it:\n{text}\n(found: {found:?})",
                    m.id
                ));
            }
        }
        for ex in &m.negative_examples {
            let (file, text) = ex.parts();
            let found = rules_found(file, text);
            if found.iter().any(|r| r == m.id) {
                failures.push(format!(
                    "{}: negative example in {file} triggered it:\n{text}",
                    m.id
                ));
            }
        }
    }
    assert!(n >= 2, "no code rule documents examples");
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
