//! Labelled security evaluation: `fixtures/security-eval/{malicious,benign}/<skill>/` with the
//! labels (technique, expected minimum severity) in `fixtures/security-eval/labels.json`.
//!
//! Each skill folder is scanned on its own. A skill's score is the highest severity among its
//! findings whose category starts with `security/`. The product bar:
//! - no benign skill has a high or critical security finding (`--fail-on high` stays safe);
//! - at least 45% of the malicious skills reach high, and every one labelled `high` does;
//! - every malicious skill reaches at least medium.
//!
//! Run `cargo test --test security_eval -- --nocapture` to see the full table and the rates.
#![allow(clippy::print_stderr)] // the table of scores is the point of this test

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use skillguard::discover::Mode;
use skillguard::finding::Severity;
use skillguard::scan::{ScanOptions, scan};

/// Minimum share of malicious skills that must reach high or critical.
const MIN_HIGH_RECALL: f64 = 0.45;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/security-eval")
}

struct Score {
    key: String,
    max: Option<Severity>,
    /// `rule(severity)` for every security finding, deduplicated.
    rules: BTreeSet<String>,
    expect: Option<Severity>,
}

fn score(key: &str, dir: &Path, expect: Option<Severity>) -> Score {
    let r = scan(Mode::Path, dir, &ScanOptions::default()).unwrap();
    let mut max = None;
    let mut rules = BTreeSet::new();
    for f in r
        .findings
        .iter()
        .filter(|f| f.category.starts_with("security/"))
    {
        max = max.max(Some(f.severity));
        rules.insert(format!("{}({})", f.rule_id, f.severity.as_str()));
    }
    Score {
        key: key.to_owned(),
        max,
        rules,
        expect,
    }
}

fn sev(s: Option<Severity>) -> &'static str {
    s.map_or("-", Severity::as_str)
}

fn table(scores: &[Score]) -> String {
    let mut out = String::new();
    for s in scores {
        out.push_str(&format!(
            "{:<48} {:<9} expect={:<7} {}\n",
            s.key,
            sev(s.max),
            sev(s.expect),
            s.rules.iter().cloned().collect::<Vec<_>>().join(" ")
        ));
    }
    out
}

fn load_labels() -> BTreeMap<String, serde_json::Value> {
    let text = fs::read_to_string(root().join("labels.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn labels_cover_every_fixture_folder() {
    let labels = load_labels();
    let mut on_disk = BTreeSet::new();
    for kind in ["malicious", "benign"] {
        for e in fs::read_dir(root().join(kind)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                on_disk.insert(format!("{kind}/{}", e.file_name().to_string_lossy()));
            }
        }
    }
    let labelled: BTreeSet<String> = labels.keys().cloned().collect();
    assert_eq!(
        on_disk, labelled,
        "labels.json and the fixture folders differ"
    );
    for (k, v) in &labels {
        assert!(
            v.get("technique").and_then(|t| t.as_str()).is_some(),
            "{k}: missing technique"
        );
        if k.starts_with("malicious/") {
            let e = v.get("expect_min_severity").and_then(|t| t.as_str());
            assert!(
                matches!(e, Some("high" | "medium")),
                "{k}: expect_min_severity must be high or medium"
            );
        }
    }
}

/// Malicious skills that today stay below their labelled severity, with the reason. The
/// test fails when one of them starts passing (remove it here) or another one regresses.
const KNOWN_GAPS: &[(&str, &str)] = &[(
    "malicious/polymarket-odds-assistant",
    "a password-protected archive lure with no command at all",
)];

#[test]
fn security_rules_meet_the_bar_on_the_labelled_set() {
    let labels = load_labels();
    let mut malicious = Vec::new();
    let mut benign = Vec::new();
    for (key, v) in &labels {
        let dir = root().join(key);
        if key.starts_with("malicious/") {
            let expect = v
                .get("expect_min_severity")
                .and_then(|t| t.as_str())
                .and_then(Severity::parse);
            malicious.push(score(key, &dir, expect));
        } else {
            benign.push(score(key, &dir, None));
        }
    }

    let at_least = |s: &Score, min: Severity| s.max.is_some_and(|m| m >= min);
    let rate = |xs: &[Score], min: Severity| {
        xs.iter().filter(|s| at_least(s, min)).count() as f64 / xs.len().max(1) as f64
    };
    let high_recall = rate(&malicious, Severity::High);
    let summary = format!(
        "malicious: {} skills, recall high+ {:.0}%, medium+ {:.0}%\n\
         benign: {} skills, flagged high+ {:.0}%, medium+ {:.0}%\n",
        malicious.len(),
        100.0 * high_recall,
        100.0 * rate(&malicious, Severity::Medium),
        benign.len(),
        100.0 * rate(&benign, Severity::High),
        100.0 * rate(&benign, Severity::Medium),
    );
    let report = format!(
        "{summary}\n== malicious ==\n{}\n== benign ==\n{}",
        table(&malicious),
        table(&benign)
    );
    eprintln!("{report}");

    let mut failures = Vec::new();
    for s in &benign {
        if at_least(s, Severity::High) {
            failures.push(format!("false positive at high+: {}", s.key));
        }
    }
    for s in &malicious {
        let need = s.expect.unwrap_or(Severity::Medium).max(Severity::Medium);
        let known = KNOWN_GAPS.iter().any(|(k, _)| *k == s.key);
        match (at_least(s, need), known) {
            (false, false) => failures.push(format!(
                "missed: {} reached {}, expected at least {}",
                s.key,
                sev(s.max),
                need.as_str()
            )),
            (true, true) => failures.push(format!(
                "{} now reaches {}: remove it from KNOWN_GAPS",
                s.key,
                need.as_str()
            )),
            _ => {}
        }
    }
    if high_recall < MIN_HIGH_RECALL {
        failures.push(format!(
            "recall at high+ is {:.0}%, below {:.0}%",
            100.0 * high_recall,
            100.0 * MIN_HIGH_RECALL
        ));
    }
    assert!(failures.is_empty(), "{}\n\n{report}", failures.join("\n"));
}
