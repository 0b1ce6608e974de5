//! The one scan pipeline (`skillguard::pipeline`), called as a library: the stages every
//! command shares. A tree and the shard reports of the same tree give the same cross-skill
//! findings; the inventory depth stops before them; the gates judge the outcome.

use std::path::{Path, PathBuf};

use skillguard::discover::Mode;
use skillguard::finding::Severity;
use skillguard::pipeline::{self, Depth, Gates, Request, Source};
use skillguard::scan::ScanOptions;

mod common;
use common::drift_workspace as workspace;

fn tree(dir: &Path, depth: Depth, gates: Gates) -> pipeline::Outcome {
    let mut req = Request::new(Source::Tree {
        mode: Mode::Workspace,
        target: dir,
        options: ScanOptions::default(),
    });
    req.depth = depth;
    req.gates = gates;
    pipeline::run(req).unwrap()
}

fn rules(o: &pipeline::Outcome) -> Vec<(&'static str, Severity, String)> {
    o.result
        .findings
        .iter()
        .map(|f| (f.rule_id, f.severity, f.location.path.clone()))
        .collect()
}

#[test]
fn a_tree_runs_every_stage_and_the_gates_judge_it() {
    let t = workspace();
    let drift_gate = Gates {
        fail_on_drift: true,
        ..Gates::default()
    };
    let o = tree(t.path(), Depth::Full, drift_gate);
    let drift: Vec<_> = o
        .result
        .findings
        .iter()
        .filter(|f| f.rule_id == "cross-location-content-drift")
        .collect();
    assert_eq!(drift.len(), 1, "{:#?}", rules(&o));
    assert_eq!(drift[0].severity, Severity::Medium);
    assert!(drift[0].message.contains("d/"), "{}", drift[0].message);
    assert!(o.index.is_some());
    let gate = o.gate.as_ref().unwrap();
    assert!(gate.failing && o.failing(), "{gate:?}");
    assert_eq!(gate.reasons, ["--fail-on-drift: 1 drift finding(s)"]);

    // No gate given: nothing fails and nothing is judged.
    let o = tree(t.path(), Depth::Full, Gates::default());
    assert!(o.gate.is_none() && !o.failing());
    // A gate above every finding passes.
    let o = tree(
        t.path(),
        Depth::Full,
        Gates {
            fail_on: Some(Severity::Critical),
            ..Gates::default()
        },
    );
    assert!(!o.failing(), "{:?}", o.gate);
}

#[test]
fn the_inventory_depth_stops_before_the_cross_skill_checks() {
    let t = workspace();
    let o = tree(t.path(), Depth::Inventory, Gates::default());
    assert_eq!(o.result.artifacts.len(), 4);
    assert!(o.index.is_none() && o.gate.is_none());
    assert!(
        !o.result
            .findings
            .iter()
            .any(|f| f.rule_id == "cross-location-content-drift"),
        "{:#?}",
        rules(&o)
    );
}

#[test]
fn shard_reports_give_the_findings_of_the_tree() {
    let t = workspace();
    let out = tempfile::tempdir().unwrap();
    let mut reports: Vec<PathBuf> = Vec::new();
    for k in 1..=2 {
        let path = out.path().join(format!("s{k}.json"));
        let o = common::bin()
            .args(["scan-workspace", "--format", "json", "--shard"])
            .arg(format!("{k}/2"))
            .arg(t.path())
            .arg("-o")
            .arg(&path)
            .env_remove("CI")
            .output()
            .unwrap();
        assert!(o.status.code().is_some_and(|c| c < 2), "{o:?}");
        reports.push(path);
    }
    let merged = pipeline::run(Request::new(Source::Reports {
        paths: &reports,
        options: skillguard::merge::Options::default(),
    }))
    .unwrap();
    let whole = tree(t.path(), Depth::Full, Gates::default());
    assert_eq!(rules(&merged), rules(&whole));
    assert!(
        merged
            .notes
            .iter()
            .any(|n| n.starts_with("merged 2 report(s)")),
        "{:?}",
        merged.notes
    );
}

#[test]
fn an_unknown_selector_is_refused_before_any_work() {
    let mut req = Request::new(Source::Tree {
        mode: Mode::Path,
        target: Path::new("/nonexistent/skillguard-test"),
        options: ScanOptions::default(),
    });
    req.policy.select = vec!["no-such-rule".into()];
    match pipeline::run(req) {
        Err(pipeline::Error::Usage(m)) => assert!(m.contains("no-such-rule"), "{m}"),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted"),
    }
}
