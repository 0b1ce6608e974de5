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

/// Every `examples` entry of `m` must produce the rule and no `negative_examples` entry may:
/// end to end, or through the data-rule engine for a signal-only rule (it has no finding).
fn check_examples(m: &catalog::RuleMeta, failures: &mut Vec<String>) {
    let silent = m.matcher.as_ref().is_some_and(|s| s.silent);
    for (examples, want) in [(&m.examples, true), (&m.negative_examples, false)] {
        for ex in examples {
            let (file, text) = ex.parts();
            let (got, found) = if silent {
                let hit = skillguard::security::model::datarules::matches_example(m.id, file, text);
                (hit, String::new())
            } else {
                let found = rules_found(file, text);
                (
                    Some(found.iter().any(|r| r == m.id)),
                    format!("\n(found: {found:?})"),
                )
            };
            if got != Some(want) {
                let what = if want {
                    "example did not trigger it"
                } else {
                    "negative example triggered it"
                };
                failures.push(format!("{}: {what} in {file}:\n{text}{found}", m.id));
            }
        }
    }
}

fn assert_none(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failure(s):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn data_rules_match_their_examples_and_not_their_negative_examples() {
    let mut failures = Vec::new();
    let mut n = 0;
    for m in catalog::all().iter().filter(|m| m.matcher.is_some()) {
        n += 1;
        if m.examples.is_empty() || m.negative_examples.is_empty() {
            failures.push(format!(
                "{}: a data rule needs `examples` and `negative_examples`",
                m.id
            ));
        }
        check_examples(m, &mut failures);
    }
    assert!(n > 0, "no data rule in the catalog");
    assert_none(&failures);
}

/// Rules checked by code (no `match:` block) may list `examples` and `negative_examples` in
/// their documentation too: each example must trigger the rule end to end (as the rule itself
/// or as a consequence attached to another cause) and no negative example may. The instruction
/// grammar and the shell and dataflow forms are held to what their documentation promises.
#[test]
fn code_rules_match_their_documented_examples() {
    let mut failures = Vec::new();
    let mut n = 0;
    for m in catalog::all().iter().filter(|m| {
        m.matcher.is_none() && !(m.examples.is_empty() && m.negative_examples.is_empty())
    }) {
        n += 1;
        if m.examples.is_empty() || m.negative_examples.is_empty() {
            failures.push(format!(
                "{}: documented examples need both `examples` and `negative_examples`",
                m.id
            ));
        }
        check_examples(m, &mut failures);
    }
    assert!(n >= 2, "no code rule documents examples");
    assert_none(&failures);
}
