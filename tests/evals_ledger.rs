//! `skillguard evals grade --record`: graded results appended to the baseline ledger as eval
//! snapshots (`"kind": "evals"`), keyed by the evals file; `baseline list`, `history`, `diff`
//! and `verify` over them, next to scan snapshots and in a ledger that had none.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::snapshots_in as snapshots;
use serde_json::Value;

const F: &str = "fixtures/evals/grade";
const KEY: &str = "skills/pdf/evals/evals.json";

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn json(cwd: &Path, args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let o = common::run_in(cwd, &all);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", text(&o)))
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// A git repository (a `.git` folder is enough) with the skill `pdf` whose evals file is the
/// grade fixture's, and a copy of the fixture's sample outputs at `out`.
fn repo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let r = t.path().join("repo");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join(F);
    fs::create_dir_all(r.join(".git")).unwrap();
    fs::create_dir_all(r.join("skills/pdf/evals")).unwrap();
    fs::write(
        r.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms.\n---\nUse it.\n",
    )
    .unwrap();
    fs::copy(fixtures.join("evals.json"), r.join(KEY)).unwrap();
    let out = t.path().join("out");
    copy_dir(&fixtures.join("outputs"), &out);
    (t, r, out)
}

/// `evals grade KEY --outputs OUT -k 3 --record EXTRA…` from the repository root.
fn record(r: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "evals",
        "grade",
        "--strict",
        KEY,
        "--outputs",
        out.to_str().unwrap(),
        "-k",
        "3",
        "--record",
    ];
    args.extend(extra);
    common::run_in(r, &args)
}

fn ledger(r: &Path) -> PathBuf {
    r.join(".skillguard/ledger")
}

/// Makes reg-flaky drop (pass^k 0.4 → 0.1 with sample 1 missing) and leaves the rest.
fn regress(out: &Path) {
    fs::remove_file(out.join("reg-flaky/sample-1.txt")).unwrap();
}

fn close(v: &Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9)
}

#[test]
fn two_results_are_recorded_and_history_shows_both_with_the_dropped_case() {
    let (_t, r, out) = repo();
    let o = record(&r, &out, &["--baseline-note", "main"]);
    // The regression gate fails (reg-flaky is flaky) and the result is recorded all the same.
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("eval snapshot #1") && err.contains(KEY),
        "{err}"
    );
    regress(&out);
    assert_eq!(record(&r, &out, &[]).status.code(), Some(1));

    let files = snapshots(&ledger(&r));
    assert_eq!(files.len(), 2);
    let s: Value = serde_json::from_slice(&fs::read(&files[0]).unwrap()).unwrap();
    assert_eq!(s["kind"], "evals");
    assert_eq!(s["evals"]["key"], KEY);
    assert_eq!(s["evals"]["target"], "skills/pdf");
    assert_eq!(s["evals"]["k"], 3);
    assert_eq!(s["note"], "main");

    // By the skill's name, its folder and the evals file's path.
    for arg in ["pdf", "skills/pdf", KEY] {
        let h = json(&r, &["baseline", "history", arg]);
        let evals = h["history"]["evals"].as_array().unwrap();
        assert_eq!(evals.len(), 1, "{arg}: {h:#}");
        let results = evals[0]["results"].as_array().unwrap();
        assert_eq!(results.len(), 2, "{arg}: {h:#}");
        assert_eq!(results[0]["snapshot"]["seq"], 1);
        assert_eq!(results[1]["snapshot"]["seq"], 2);
        assert_eq!(results[0]["k"], 3);
        assert_eq!(results[0]["cases"], 6);
        assert_eq!(results[0]["sets"]["capability"]["cases"], 4);
        assert!(close(&results[0]["sets"]["regression"]["pass_hat_k"], 0.7));
        assert!(close(&results[1]["sets"]["regression"]["pass_hat_k"], 0.55));
        assert_eq!(results[0]["regressions"], serde_json::json!([]));
        let g = results[1]["regressions"].as_array().unwrap();
        assert_eq!(g.len(), 1, "{h:#}");
        assert_eq!(g[0]["id"], "reg-flaky");
        assert_eq!(g[0]["reason"], "dropped");
        assert!(close(&g[0]["previous_pass_hat_k"], 0.4));
        assert!(close(&g[0]["pass_hat_k"], 0.1));
    }
    let t = text(&common::run_in(&r, &["baseline", "history", "pdf"]));
    assert!(
        t.contains(&format!("Eval results of {KEY} (skill skills/pdf)")),
        "{t}"
    );
    assert!(
        t.contains("REGRESSED reg-flaky (regression, dropped): pass^k 0.400 -> 0.100"),
        "{t}"
    );
    assert!(t.contains("k=3"), "{t}");
    // A name that matches nothing still says so.
    let t = text(&common::run_in(
        &r,
        &["baseline", "history", "nothing-here"],
    ));
    assert!(
        t.contains("does not appear in any of the 2 snapshot(s)"),
        "{t}"
    );

    // `baseline list` shows both as eval snapshots with their scores.
    let l = json(&r, &["baseline", "list"]);
    let rows = l["snapshots"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["kind"], "evals");
    assert_eq!(rows[1]["evals"]["key"], KEY);
    assert_eq!(rows[1]["evals"]["cases"], 6);
    assert_eq!(rows[1]["evals"]["passed"], false);
    let t = text(&common::run_in(&r, &["baseline", "list"]));
    assert!(
        t.contains("evals k=3: capability 4 case(s) pass@k 0.662"),
        "{t}"
    );

    // The output is deterministic: the same ledger reads the same twice.
    assert_eq!(
        common::run_in(&r, &["baseline", "history", "pdf"]).stdout,
        common::run_in(&r, &["baseline", "history", "pdf"]).stdout
    );
}

#[test]
fn diff_of_two_eval_snapshots_names_the_dropped_cases_like_compare() {
    let (_t, r, out) = repo();
    // The same two runs as `--compare` sees them.
    let first = r.join("first.json");
    let o = common::run_in(
        &r,
        &[
            "evals",
            "grade",
            "--strict",
            KEY,
            "--outputs",
            out.to_str().unwrap(),
            "-k",
            "3",
            "--record",
            "--format",
            "json",
            "-o",
            first.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(first.is_file());
    regress(&out);
    fs::write(out.join("cap-some/sample-2.txt"), "## Summary\n").unwrap();
    let o = common::run_in(
        &r,
        &[
            "evals",
            "grade",
            "--strict",
            KEY,
            "--outputs",
            out.to_str().unwrap(),
            "-k",
            "3",
            "--record",
            "--compare",
            first.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    let graded: Value = serde_json::from_slice(&o.stdout).unwrap();
    let d = json(&r, &["baseline", "diff", "--since", "1", "--until", "2"]);
    let e = &d["evals_diff"];
    assert_eq!(d["diff"], Value::Null);
    assert_eq!(e["key"], KEY);
    assert_eq!(e["from"]["seq"], 1);
    assert_eq!(e["to"]["seq"], 2);
    // The ledger's diff and `--compare` agree case for case.
    assert_eq!(e["regressions"], graded["compare"]["regressions"], "{d:#}");
    assert_eq!(e["regressions"][0]["id"], "reg-flaky");
    assert_eq!(e["evals_changed"], false);
    // With no --since/--until and only eval snapshots there is no scan pair to diff; an
    // eval snapshot given to --until is compared with the previous result of its file.
    let t = text(&common::run_in(&r, &["baseline", "diff"]));
    assert!(t.contains("Need at least 2 scan snapshots"), "{t}");
    let t = text(&common::run_in(&r, &["baseline", "diff", "--until", "2"]));
    assert!(
        t.contains(&format!("Diffing eval results of {KEY}: #1")),
        "{t}"
    );
    assert!(
        t.contains("REGRESSED reg-flaky (regression, dropped): pass^k 0.400 -> 0.100"),
        "{t}"
    );
    let t = text(&common::run_in(&r, &["baseline", "diff", "--until", "1"]));
    assert!(t.contains("the first recorded eval result"), "{t}");
}

#[test]
fn scan_and_eval_snapshots_share_one_chain_and_each_review_keeps_to_its_kind() {
    let (_t, r, out) = repo();
    // An older ledger: scan snapshots only (no `kind`, no `evals`).
    let scan = |r: &Path| common::run_in(r, &["scan", "--repo", ".", "--write-baseline"]);
    assert_eq!(scan(&r).status.code(), Some(0));
    fs::write(
        r.join("skills/pdf/SKILL.md"),
        "---\nname: pdf\ndescription: Fills PDF forms.\n---\nUse it well.\n",
    )
    .unwrap();
    assert_eq!(scan(&r).status.code(), Some(0));
    let before: Vec<Vec<u8>> = snapshots(&ledger(&r))
        .iter()
        .map(|p| fs::read(p).unwrap())
        .collect();
    for b in &before {
        let t = String::from_utf8_lossy(b);
        assert!(
            !t.contains("\"kind\":\"evals\"") && !t.contains("\"evals\":"),
            "{t}"
        );
    }
    // It still reads, and eval snapshots join its chain.
    assert_eq!(record(&r, &out, &[]).status.code(), Some(1));
    let v = common::run_in(&r, &["baseline", "verify"]);
    assert_eq!(v.status.code(), Some(0), "{}", text(&v));
    assert!(
        text(&v).contains("3 snapshot(s), chain intact"),
        "{}",
        text(&v)
    );
    let files = snapshots(&ledger(&r));
    // The older snapshots are untouched; the new one chains to the newest of them.
    for (p, b) in files.iter().zip(&before) {
        assert_eq!(&fs::read(p).unwrap(), b);
    }
    let s3: Value = serde_json::from_slice(&fs::read(&files[2]).unwrap()).unwrap();
    assert_eq!(s3["prev"]["seq"], 2);

    // The default diff compares the two scans, not a scan with an eval result.
    let d = json(&r, &["baseline", "diff"]);
    assert_eq!(d["diff"]["from"]["seq"], 1);
    assert_eq!(d["diff"]["to"]["seq"], 2);
    assert_eq!(d["diff"]["changes"][0]["location"], "skills/pdf");
    // Mixing kinds is refused (exit 2, naming both).
    let o = common::run_in(&r, &["baseline", "diff", "--since", "2", "--until", "3"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("#2 is a scan snapshot and #3 is an eval snapshot"),
        "{err}"
    );

    // History: the skill's content history counts scans only (no `removed` at #3), and its
    // eval results follow.
    let h = json(&r, &["baseline", "history", "pdf"]);
    let loc = &h["history"]["locations"][0];
    assert_eq!(loc["location"], "skills/pdf");
    let events: Vec<&str> = loc["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["recorded", "changed"]);
    assert_eq!(h["history"]["evals"][0]["results"][0]["snapshot"]["seq"], 3);

    // A scan after the eval snapshot reuses the line hashes the ledger already holds.
    assert_eq!(scan(&r).status.code(), Some(0));
    let files = snapshots(&ledger(&r));
    let s4: Value = serde_json::from_slice(&fs::read(&files[3]).unwrap()).unwrap();
    assert_eq!(s4["lines"], Value::Null, "{s4:#}");
    let d = json(&r, &["baseline", "diff"]);
    assert_eq!(d["diff"]["from"]["seq"], 2);
    assert_eq!(d["diff"]["to"]["seq"], 4);
    assert_eq!(d["diff"]["unchanged"], 1);
    assert_eq!(
        common::run_in(&r, &["baseline", "verify"]).status.code(),
        Some(0)
    );

    // Every snapshot, eval ones included, matches the published schema.
    let schema: Value = serde_json::from_slice(
        &fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("baselines/ledger-snapshot.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for f in &files {
        let doc: Value = serde_json::from_slice(&fs::read(f).unwrap()).unwrap();
        let errors: Vec<String> = v.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", f.display());
    }
}

#[test]
fn an_eval_snapshot_reads_as_an_empty_scan_to_an_older_reader() {
    let (_t, r, out) = repo();
    record(&r, &out, &[]);
    let f = &snapshots(&ledger(&r))[0];
    let s: Value = serde_json::from_slice(&fs::read(f).unwrap()).unwrap();
    // What an older skillguard relies on: format version 1, an empty `skills`, no `agents`
    // (not recorded), and a scope that holds no skill location.
    assert_eq!(s["format"], "skillguard-ledger");
    assert_eq!(s["version"], 1);
    assert_eq!(s["skills"], serde_json::json!([]));
    assert!(s.get("agents").is_none());
    assert_eq!(s["root"]["relative"], KEY);
    // One case per line, like skill entries.
    let t = fs::read_to_string(f).unwrap();
    assert_eq!(
        t.lines().filter(|l| l.starts_with("{\"id\":")).count(),
        6,
        "{t}"
    );
}

#[test]
fn verify_covers_eval_snapshots_and_names_an_edited_one() {
    let (_t, r, out) = repo();
    record(&r, &out, &[]);
    regress(&out);
    record(&r, &out, &[]);
    record(&r, &out, &[]);
    let v = json(&r, &["baseline", "verify"]);
    assert_eq!(v["ok"], true, "{v:#}");
    let files = snapshots(&ledger(&r));
    // Rewrite history: make the first result look better than it was.
    let t = fs::read_to_string(&files[0]).unwrap();
    let edited = t.replacen(
        "\"id\":\"reg-flaky\",\"set\":\"regression\"",
        "\"id\":\"reg-flaky\",\"set\":\"capability\"",
        1,
    );
    assert_ne!(t, edited);
    fs::write(&files[0], edited).unwrap();
    let o = common::run_in(&r, &["baseline", "verify", "--format", "json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let p = &v["verification"]["problems"][0];
    assert_eq!(p["kind"], "edited", "{v:#}");
    assert_eq!(p["seq"], 1);
    fs::write(&files[0], t).unwrap();
    assert_eq!(
        common::run_in(&r, &["baseline", "verify"]).status.code(),
        Some(0)
    );
    // The newest one, checked against HEAD.json; an append onto it is refused.
    let t = fs::read_to_string(&files[2]).unwrap();
    fs::write(
        &files[2],
        t.replacen("\"passed\":false", "\"passed\":true", 1),
    )
    .unwrap();
    let o = common::run_in(&r, &["baseline", "verify"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).contains("#3"), "{}", text(&o));
    let o = record(&r, &out, &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("run `skillguard baseline verify`"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(snapshots(&ledger(&r)).len(), 3);
}

#[test]
fn nothing_is_recorded_for_bad_input_or_a_failed_output() {
    let (t, r, out) = repo();
    // An evals file that does not parse: exit 2, no ledger.
    fs::write(r.join("skills/pdf/evals/bad.json"), "{").unwrap();
    let o = common::run_in(
        &r,
        &[
            "evals",
            "grade",
            "--strict",
            "skills/pdf/evals/bad.json",
            "--outputs",
            out.to_str().unwrap(),
            "--record",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(!ledger(&r).exists());
    // -o into a folder that does not exist: the result is not written, nothing recorded.
    let bad_out = t.path().join("no/such/dir/r.json");
    let o = record(&r, &out, &["-o", bad_out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!ledger(&r).join("snapshots").exists() || snapshots(&ledger(&r)).is_empty());
    // The ledger options need --record.
    let o = common::run_in(
        &r,
        &[
            "evals",
            "grade",
            "--strict",
            KEY,
            "--outputs",
            out.to_str().unwrap(),
            "--repo",
            ".",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_key_is_relative_to_the_repository_and_the_ledger_can_be_chosen() {
    let (t, r, out) = repo();
    // From a subfolder, the key is still relative to the git repository.
    let sub = r.join("skills/pdf");
    let o = common::run_in(
        &sub,
        &[
            "evals",
            "grade",
            "--strict",
            "evals/evals.json",
            "--outputs",
            out.to_str().unwrap(),
            "--record",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let s: Value = serde_json::from_slice(&fs::read(&snapshots(&ledger(&r))[0]).unwrap()).unwrap();
    assert_eq!(s["evals"]["key"], KEY);
    // --baseline-root puts it elsewhere; --repo chooses what the key is relative to.
    let elsewhere = t.path().join("ledger");
    let o = record(
        &r,
        &out,
        &[
            "--baseline-root",
            elsewhere.to_str().unwrap(),
            "--repo",
            "skills",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let s: Value = serde_json::from_slice(&fs::read(&snapshots(&elsewhere)[0]).unwrap()).unwrap();
    assert_eq!(s["evals"]["key"], "pdf/evals/evals.json");
    assert_eq!(s["evals"]["target"], "pdf");
    // An evals file outside --repo has no key: exit 2, naming it.
    let o = common::run_in(
        &r,
        &[
            "evals",
            "grade",
            "--strict",
            KEY,
            "--outputs",
            out.to_str().unwrap(),
            "--record",
            "--repo",
            t.path().join("out").to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("is outside"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
