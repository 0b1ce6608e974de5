//! `evals grade` in its default `agent-evals` profile agrees with the agent-evals runner
//! (`run-evals.ps1`) row by row: one test per behaviour of the runner, with the verdict the
//! runner gives. `--strict` keeps skillguard's stricter reading (tests/evals_grade.rs).

use std::path::Path;
use std::process::Output;

mod common;
use common::{bin, stderr, write};

/// Writes `evals.json` with `cases` and the samples (`case id`, file name, text) under
/// `out/`, then grades them with `extra` arguments; returns the run and its JSON.
fn grade(
    dir: &Path,
    cases: &str,
    samples: &[(&str, &str, &str)],
    extra: &[&str],
) -> (Output, serde_json::Value) {
    write(&dir.join("evals.json"), &format!("{{\"cases\": {cases}}}"));
    std::fs::create_dir_all(dir.join("out")).unwrap();
    for (id, name, text) in samples {
        write(&dir.join("out").join(id).join(name), text);
    }
    let o = bin()
        .args(["evals", "grade"])
        .arg(dir.join("evals.json"))
        .arg("--outputs")
        .arg(dir.join("out"))
        .args(["--format", "json"])
        .args(extra)
        .output()
        .unwrap();
    let v = serde_json::from_slice(&o.stdout).unwrap_or(serde_json::Value::Null);
    (o, v)
}

fn case<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}: {v:#}"))
}

fn five(id: &'static str, text: &'static str) -> Vec<(&'static str, &'static str, &'static str)> {
    [
        "sample-1.txt",
        "sample-2.txt",
        "sample-3.txt",
        "sample-4.txt",
        "sample-5.txt",
    ]
    .into_iter()
    .map(|n| (id, n, text))
    .collect()
}

/// The seed's own example cases pass where the runner passes them.
#[test]
fn the_seeds_sample_passes() {
    let t = tempfile::tempdir().unwrap();
    let cases = r###"[
      { "id": "pdf-basic", "set": "capability", "prompt": "convert report.pdf to markdown", "expect": "## ", "match": "contains" },
      { "id": "pdf-german", "set": "regression", "prompt": "extract text from Bescheid.pdf", "expect": "Grüße|Straße", "match": "regex" }
    ]"###;
    let mut s = five("pdf-basic", "# Report\n\n## Summary\n");
    s.extend(five("pdf-german", "MIT FREUNDLICHEN GRÜSSE, Hauptstraße 1"));
    let (o, v) = grade(t.path(), cases, &s, &[]);
    assert_eq!(o.status.code(), Some(0), "{v:#} {}", stderr(&o));
    assert_eq!(v["profile"], "agent-evals");
    assert_eq!(
        case(&v, "pdf-german")["pass_hat_k"],
        1.0,
        "-match ignores case"
    );
}

/// `-K` is 5 when not given: four passing samples do not make pass^k.
#[test]
fn k_defaults_to_five() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"r","set":"regression","prompt":"p","expect":"ok"}]"#;
    let s: Vec<_> = five("r", "ok").into_iter().take(4).collect();
    let (o, v) = grade(t.path(), cases, &s, &[]);
    assert_eq!(case(&v, "r")["k"], 5);
    assert_eq!(case(&v, "r")["pass_hat_k"], 0.0);
    assert_eq!(o.status.code(), Some(1));
    let (o, _) = grade(t.path(), cases, &s, &["-k", "4"]);
    assert_eq!(o.status.code(), Some(0));
}

/// Every non-hidden `sample-*.txt` (any case) counts, however it is numbered; other names
/// and hidden files do not.
#[test]
fn samples_are_every_file_named_like_sample_star_txt() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"c","set":"capability","prompt":"p","expect":"yes"}]"#;
    let s = [
        ("c", "sample-01.txt", "no"),
        ("c", "sample-a.txt", "no"),
        ("c", "sample-0.txt", "no"),
        ("c", "SAMPLE-9.TXT", "no"),
        ("c", "out-1.txt", "yes"),
        ("c", ".sample-7.txt", "yes"),
    ];
    let (o, v) = grade(t.path(), cases, &s, &[]);
    assert_eq!(case(&v, "c")["n"], 4, "{v:#}");
    assert_eq!(case(&v, "c")["pass_at_k"], 0.0);
    assert_eq!(o.status.code(), Some(1));
}

/// More samples than k: pass^k needs every one of them to pass.
#[test]
fn with_more_samples_than_k_all_must_pass() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"r","set":"regression","prompt":"p","expect":"ok"}]"#;
    let mut s = five("r", "ok");
    s.push(("r", "sample-6.txt", "wrong"));
    let (o, v) = grade(t.path(), cases, &s, &[]);
    assert_eq!(case(&v, "r")["n"], 6);
    assert_eq!(case(&v, "r")["pass_hat_k"], 0.0);
    assert_eq!(case(&v, "r")["pass_at_k"], 1.0);
    assert_eq!(o.status.code(), Some(1));
}

/// Fewer samples than k: pass@k still holds with one passing sample; pass^k does not.
#[test]
fn with_fewer_samples_than_k_pass_at_k_can_hold() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"c","set":"capability","prompt":"p","expect":"ok"},
                    {"id":"r","set":"regression","prompt":"p","expect":"ok"}]"#;
    let s = [("c", "sample-1.txt", "ok"), ("r", "sample-1.txt", "ok")];
    let (o, v) = grade(t.path(), cases, &s, &[]);
    assert_eq!(case(&v, "c")["pass_at_k"], 1.0);
    assert_eq!(case(&v, "r")["pass_hat_k"], 0.0);
    assert_eq!(o.status.code(), Some(1), "the regression case gates");
}

/// A missing case folder is a warning and no samples, not an error.
#[test]
fn a_missing_case_folder_is_a_warning() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"gone","set":"capability","prompt":"p","expect":"x"},
                    {"id":"here","set":"capability","prompt":"p","expect":"x"}]"#;
    let (o, v) = grade(t.path(), cases, &five("here", "x"), &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: no outputs folder"),
        "{}",
        stderr(&o)
    );
    assert_eq!(case(&v, "gone")["n"], 0);
    assert_eq!(case(&v, "here")["pass_at_k"], 1.0);
}

/// `exact` trims both ends of both texts and ignores case; `match` itself ignores case.
#[test]
fn exact_is_trimmed_and_ignores_case() {
    let t = tempfile::tempdir().unwrap();
    let cases =
        r#"[{"id":"e","set":"regression","prompt":"p","expect":"  Done ","match":"Exact"}]"#;
    let (o, v) = grade(t.path(), cases, &five("e", "\n  DONE\r\n"), &[]);
    assert_eq!(case(&v, "e")["match"], "exact");
    assert_eq!(o.status.code(), Some(0), "{v:#}");
    let (o, _) = grade(t.path(), cases, &five("e", "Done."), &[]);
    assert_eq!(o.status.code(), Some(1));
}

/// A missing `match` is `contains`; `contains` is a wildcard match ignoring case, and the
/// wildcards of `expect` are wildcards.
#[test]
fn contains_is_the_default_and_a_wildcard_match() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"a","set":"regression","prompt":"p","expect":"HELLO"},
                    {"id":"b","set":"regression","prompt":"p","expect":"v?.[0-9]","match":"contains"},
                    {"id":"c","set":"regression","prompt":"p","expect":"a*z","match":"contains"}]"#;
    let mut s = five("a", "well, hello there");
    s.extend(five("b", "release v1.2"));
    s.extend(five("c", "a then much later z"));
    let (o, v) = grade(t.path(), cases, &s, &[]);
    assert_eq!(o.status.code(), Some(0), "{v:#}");
    assert_eq!(case(&v, "a")["match"], "contains");
}

/// `regex` is a .NET search that ignores case.
#[test]
fn regex_ignores_case_in_the_dotnet_dialect() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"r","set":"regression","prompt":"p","expect":"^total: (?=\\d)\\d+$","match":"regex"}]"#;
    let (o, v) = grade(t.path(), cases, &five("r", "TOTAL: 42\n"), &[]);
    assert_eq!(o.status.code(), Some(0), "{v:#} {}", stderr(&o));
}

/// An unknown `match` stops the runner: exit 2 naming the file.
#[test]
fn an_unknown_match_is_bad_input() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"r","set":"regression","prompt":"p","expect":"x","match":"fuzzy"}]"#;
    let (o, _) = grade(t.path(), cases, &five("r", "x"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("evals.json"), "{}", stderr(&o));
    assert!(stderr(&o).contains("fuzzy"), "{}", stderr(&o));
}

/// `set` ignores case (`Capability` gates); any other set (`smoke`) is graded, never gated.
#[test]
fn only_capability_and_regression_gate_in_any_case() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"s","set":"smoke","prompt":"p","expect":"x"},
                    {"id":"c","set":"Capability","prompt":"p","expect":"x"}]"#;
    let mut s = five("s", "nothing");
    s.extend(five("c", "x"));
    let (o, v) = grade(t.path(), cases, &s, &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "smoke fails but does not gate: {v:#}"
    );
    assert_eq!(case(&v, "s")["set"], "ungated");
    assert_eq!(case(&v, "s")["set_name"], "smoke");
    assert_eq!(case(&v, "c")["set"], "capability");
    let t = tempfile::tempdir().unwrap();
    let (o, _) = grade(t.path(), cases, &five("s", "nothing"), &[]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "`Capability` without samples fails"
    );
}

/// Numeric `id` and `expect` are read as their text.
#[test]
fn numeric_id_and_expect_are_text() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":5,"set":"regression","prompt":"p","expect":7,"match":"exact"}]"#;
    let (o, v) = grade(t.path(), cases, &five("5", "7\n"), &[]);
    assert_eq!(o.status.code(), Some(0), "{v:#} {}", stderr(&o));
    assert_eq!(case(&v, "5")["pass_hat_k"], 1.0);
}

/// A file without cases, or with an empty list, stops the runner: exit 2.
#[test]
fn no_cases_is_bad_input() {
    let t = tempfile::tempdir().unwrap();
    for cases in ["[]", "{}"] {
        let (o, _) = grade(t.path(), cases, &[], &[]);
        assert_eq!(o.status.code(), Some(2), "{cases}");
        assert!(stderr(&o).contains("cases"), "{}", stderr(&o));
    }
}

/// An empty sample reads as the empty string (an empty `expect` matches it).
#[test]
fn an_empty_sample_is_the_empty_string() {
    let t = tempfile::tempdir().unwrap();
    let cases = r#"[{"id":"e","set":"regression","prompt":"p","expect":"","match":"exact"}]"#;
    let (o, v) = grade(t.path(), cases, &five("e", ""), &[]);
    assert_eq!(o.status.code(), Some(0), "{v:#}");
}

/// `--strict` keeps the stricter reading: case-sensitive `contains`, `sample-<n>.txt`
/// numbering, and a set other than capability/regression refused.
#[test]
fn strict_keeps_the_stricter_reading() {
    let t = tempfile::tempdir().unwrap();
    let cases =
        r#"[{"id":"a","set":"regression","prompt":"p","expect":"HELLO","match":"contains"}]"#;
    let (o, v) = grade(t.path(), cases, &five("a", "hello"), &[]);
    assert_eq!(o.status.code(), Some(0), "{v:#}");
    let (o, v) = grade(t.path(), cases, &five("a", "hello"), &["--strict"]);
    assert_eq!(o.status.code(), Some(1), "{v:#}");
    assert_eq!(v["profile"], "strict");
    let (o, _) = grade(
        t.path(),
        cases,
        &five("a", "hello"),
        &["--profile", "strict"],
    );
    assert_eq!(o.status.code(), Some(1));
    let cases = r#"[{"id":"a","set":"smoke","prompt":"p","expect":"x","match":"contains"}]"#;
    let (o, _) = grade(t.path(), cases, &five("a", "x"), &["--strict"]);
    assert_eq!(o.status.code(), Some(2));
}
