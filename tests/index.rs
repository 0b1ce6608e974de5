//! Skill Security Index on the command line: every format shows it, the
//! `--fail-under-index` gate, `--trace` parsing, drift counted after the baseline
//! checks, `--evals` results on the evals axis. The formula itself is unit-tested in
//! `src/index/`.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::{json, run, stderr, stdout, write};

fn skill(root: &Path, rel: &str, name: &str) {
    write(
        &root.join(rel).join("SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: Summarise {name} documents. Use when the user asks for a {name} summary.\n---\n# {name}\n\nRead the document and summarise it.\n"
        ),
    );
}

const DEMO: &[&str] = &["scan", "--repo", "fixtures/demo"];
const DEMO_ROOT: &str = "fixtures/demo";
const TRACE: &str = "fixtures/index/demo-trace.json";

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = base.to_vec();
    v.extend_from_slice(extra);
    v
}

/// A copy of the demo without its deliberately malicious `invoice-sync` sample (whose
/// critical findings would dominate every gate below).
fn compliance_demo() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for e in walkdir::WalkDir::new("fixtures/demo").follow_links(false) {
        let e = e.unwrap();
        let rel = e.path().strip_prefix("fixtures/demo").unwrap();
        // Skills only: no malicious sample, no agent files (those have security findings).
        let in_skills = rel.components().any(|c| c.as_os_str() == "skills");
        if rel.starts_with(".claude/skills/invoice-sync") || (!in_skills && e.file_type().is_file())
        {
            continue;
        }
        let dst = t.path().join(rel);
        if e.file_type().is_dir() {
            fs::create_dir_all(&dst).unwrap();
        } else if e.file_type().is_file() {
            fs::copy(e.path(), &dst).unwrap();
        }
    }
    t
}

fn skill_index<'a>(doc: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    let s = doc["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == path)
        .unwrap_or_else(|| panic!("no skill {path}"));
    &s["index"]
}

#[test]
fn json_has_a_scan_index_and_one_per_skill() {
    let v = json(&with(DEMO, &["--format", "json"]));
    let i = &v["index"];
    assert_eq!(i["axes_measured"], 2);
    assert!(i["axes"]["efficiency"].is_null());
    assert!(i["axes"]["compliance"].is_number());
    // The scan's axes are medians: one malicious sample does not sink them; it is
    // reported beside the score as the worst skill.
    assert_eq!(i["axes"]["security"], 100.0);
    assert_eq!(i["worst"]["path"], ".claude/skills/invoice-sync");
    assert_eq!(i["worst"]["grade"], "F");
    assert!(i["score"].is_number());
    assert!(["A", "B", "C", "D", "F"].contains(&i["grade"].as_str().unwrap()));
    let e = i["explanation"].as_str().unwrap();
    assert!(
        e.contains("NOT measured: efficiency (no disclosure trace supplied)"),
        "{e}"
    );
    assert!(e.contains("never assumed perfect"), "{e}");
    assert_eq!(i["skills_scored"], v["summary"]["skills"]);
    // A clean skill scores 100 (A); a skill a strict loader drops scores low.
    let clean = skill_index(&v, ".github/skills/pdf-tools");
    assert_eq!(clean["score"], 100.0);
    assert_eq!(clean["grade"], "A");
    assert_eq!(clean["axes_measured"], 2);
    // A name only other harnesses reject costs compliance points (portability in a
    // repository that targets Claude Code), within the lows' cap.
    let broken = skill_index(&v, ".claude/skills/bad--name");
    assert!(broken["score"].as_f64().unwrap() < 100.0, "{broken}");
    // Every skill has an index.
    for s in v["skills"].as_array().unwrap() {
        assert!(s["index"]["explanation"].is_string(), "{s}");
    }
}

#[test]
fn console_shows_a_line_per_skill_and_a_scan_line() {
    let out = stdout(&run(&with(DEMO, &["--group-by", "skill"])));
    assert!(
        out.contains(
            "  index: 100/100 (A) · compliance 100 · security 100 · efficiency not measured"
        ),
        "{out}"
    );
    let scan: Vec<&str> = out.lines().filter(|l| l.starts_with("index: ")).collect();
    assert_eq!(scan.len(), 1, "{out}");
    assert!(scan[0].contains("from 2/4 axes"), "{}", scan[0]);
    // The scan line comes just before the summary.
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("index: ")).unwrap();
    assert!(lines[at + 1].starts_with("summary: "), "{out}");
    // The default view: one index line in the summary block, with the median and the worst.
    let out = stdout(&run(DEMO));
    let scan: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  index:      "))
        .collect();
    assert_eq!(scan.len(), 1, "{out}");
    assert!(
        scan[0].contains("(median of ") && scan[0].contains("; worst "),
        "{}",
        scan[0]
    );
}

#[test]
fn markdown_has_an_index_table() {
    let out = stdout(&run(&with(DEMO, &["--format", "markdown"])));
    assert!(out.contains("### Skill Security Index"), "{out}");
    assert!(out.contains("**Scan: "), "{out}");
    assert!(
        out.contains(
            "| Skill | Path | Index | Grade | Compliance | Security | Efficiency | Evals |"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "| pdf-tools | .github/skills/pdf-tools | 100 | A | 100 | 100 | not measured | not measured |"
        ),
        "{out}"
    );
}

#[test]
fn sarif_carries_the_indices_in_run_properties() {
    let v = json(&with(DEMO, &["--format", "sarif", "--trace", TRACE]));
    let p = &v["runs"][0]["properties"];
    assert_eq!(p["securityIndex"]["axes_measured"], 3);
    assert!(p["securityIndex"]["score"].is_number());
    let per = p["skillIndices"].as_array().unwrap();
    assert_eq!(per.len(), p["skills"].as_u64().unwrap() as usize);
    let pdf = per
        .iter()
        .find(|s| s["path"] == ".github/skills/pdf-tools")
        .unwrap();
    assert_eq!(pdf["name"], "pdf-tools");
    assert_eq!(pdf["axes"]["efficiency"], 50.0);
}

#[test]
fn a_trace_measures_efficiency() {
    let v = json(&with(DEMO, &["--format", "json", "--trace", TRACE]));
    let i = &v["index"];
    assert_eq!(i["axes_measured"], 3);
    // 3 loads of 2 distinct skills, every read/run after its load: 100 × 1 × 2/3.
    assert_eq!(i["axes"]["efficiency"], 66.7);
    let m = &i["efficiency_metric"];
    assert_eq!(m["order_validity"], 1.0);
    assert_eq!(m["load_precision"], 0.667);
    assert_eq!(m["load_storm"], false);
    assert!(m["selection_f1"].is_null());
    assert_eq!(
        (
            &m["load_calls"],
            &m["read_calls"],
            &m["run_calls"],
            &m["other_calls"]
        ),
        (&3.into(), &1.into(), &1.into(), &1.into())
    );
    assert!(
        i["explanation"]
            .as_str()
            .unwrap()
            .contains("NOT measured: evals (no eval results supplied with --evals) —"),
        "{}",
        i["explanation"]
    );
    // Per skill: loaded once and used → 100; loaded twice → 50; not in the trace → not measured.
    assert_eq!(
        skill_index(&v, ".claude/skills/expense-report")["axes"]["efficiency"],
        100.0
    );
    let pdf = skill_index(&v, ".github/skills/pdf-tools");
    assert_eq!(pdf["axes"]["efficiency"], 50.0);
    assert_eq!(pdf["score"], 83.3);
    let other = skill_index(&v, ".codex/skills/legacy-tool");
    assert!(other["axes"]["efficiency"].is_null());
    assert!(
        other["explanation"]
            .as_str()
            .unwrap()
            .contains("efficiency (not exercised by the disclosure trace)")
    );
}

#[test]
fn trace_with_expected_skills_scores_selection() {
    let t = tempfile::tempdir().unwrap();
    let trace = t.path().join("trace.json");
    write(
        &trace,
        r#"{"calls": [{"tool": "load_skill", "arguments": {"skillName": "pdf-tools"}},
                      {"tool": "read_skill_resource", "arguments": {"skillName": "pdf-tools", "resourceName": "references/extraction.md"}}],
            "expected_skills": ["pdf-tools", "expense-report"]}"#,
    );
    let v = json(&with(
        DEMO,
        &["--format", "json", "--trace", trace.to_str().unwrap()],
    ));
    // Loaded {pdf-tools}, expected {pdf-tools, expense-report}: P 1, R 1/2, F1 2/3.
    assert_eq!(v["index"]["efficiency_metric"]["selection_f1"], 0.667);
    assert_eq!(v["index"]["axes"]["efficiency"], 66.7);
}

#[test]
fn trace_without_skill_calls_is_not_measured() {
    let t = tempfile::tempdir().unwrap();
    let trace = t.path().join("trace.json");
    write(
        &trace,
        r#"[{"tool": "web_search", "arguments": {"q": "x"}}]"#,
    );
    let v = json(&with(
        DEMO,
        &["--format", "json", "--trace", trace.to_str().unwrap()],
    ));
    assert!(v["index"]["axes"]["efficiency"].is_null());
    assert_eq!(v["index"]["axes_measured"], 2);
    assert!(
        v["index"]["explanation"]
            .as_str()
            .unwrap()
            .contains("efficiency (the disclosure trace has no load_skill")
    );
}

#[test]
fn malformed_or_missing_trace_is_exit_2_naming_the_file() {
    let t = tempfile::tempdir().unwrap();
    let cases = [
        ("truncated.json", "[{\"tool\": \"load_skill\""),
        ("shape.json", "{\"tool\": \"load_skill\"}"),
        ("no-tool.json", "[{\"arguments\": {}}]"),
    ];
    for (name, body) in cases {
        let p = t.path().join(name);
        write(&p, body);
        let o = run(&with(DEMO, &["--trace", p.to_str().unwrap()]));
        assert_eq!(o.status.code(), Some(2), "{name}");
        let e = stderr(&o);
        assert!(
            e.contains("invalid disclosure trace") && e.contains(name),
            "{name}: {e}"
        );
        assert_eq!(e.lines().count(), 1, "{name}: {e}");
        assert!(
            o.stdout.is_empty(),
            "{name}: report printed before the error"
        );
    }
    let missing = t.path().join("missing.json");
    let o = run(&with(DEMO, &["--trace", missing.to_str().unwrap()]));
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("cannot read disclosure trace") && e.contains("missing.json"),
        "{e}"
    );
}

/// The gate applies to the repository's score (a median, which one noisy skill
/// cannot sink) and to every skill graded F; a skill at B below N does not fail it.
#[test]
fn fail_under_index_gates_on_the_scan_and_on_every_skill() {
    let t = compliance_demo();
    let root = t.path().to_str().unwrap().to_owned();
    let demo: &[&str] = &["scan", "--repo", &root];
    let v = json(&with(demo, &["--format", "json"]));
    let scan = v["index"]["score"].as_f64().unwrap();
    let grades: Vec<&str> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["index"]["grade"].as_str().unwrap())
        .collect();
    assert!(!grades.contains(&"F"), "{grades:?}");
    let lowest = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["index"]["score"].as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert!(lowest <= scan);
    let code = |n: u32| {
        let n = n.to_string();
        run(&with(demo, &["--fail-under-index", &n])).status.code()
    };
    // At or below the scan's score, with no F skill: passes, whatever the lowest skill.
    assert_eq!(code(scan.floor() as u32), Some(0));
    assert_eq!(code(scan.floor() as u32 + 1), Some(1));
    assert_eq!(code(100), Some(1));
    assert_eq!(code(0), Some(0));
    // The console says why.
    let out = stdout(&run(&with(demo, &["--fail-under-index", "100"])));
    assert!(
        out.contains("--fail-under-index 100: the scan is below"),
        "{out}"
    );
    // A skill graded F fails the gate although the repository scores above it: the
    // malicious sample of the full demo.
    let full: &[&str] = &["scan", "--repo", DEMO_ROOT];
    let v = json(&with(
        full,
        &["--format", "json", "--fail-under-index", "60"],
    ));
    assert!(
        v["index"]["score"].as_f64().unwrap() >= 60.0,
        "{}",
        v["index"]
    );
    assert_eq!(v["fail_under_index"], 60.0);
    assert_eq!(v["index"]["fail_under"], 60.0);
    assert!(
        v["index"]["below"]
            .as_array()
            .unwrap()
            .contains(&".claude/skills/invoice-sync".into()),
        "{}",
        v["index"]
    );
    assert_eq!(
        run(&with(full, &["--fail-under-index", "60"]))
            .status
            .code(),
        Some(1)
    );
    // A clean skill passes the strictest index gate.
    let o = run(&[
        "scan",
        "fixtures/demo/.github/skills/pdf-tools",
        "--fail-under-index",
        "100",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Out of range is a usage error.
    assert_eq!(
        run(&with(demo, &["--fail-under-index", "101"]))
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn fail_under_index_combines_with_the_other_gates() {
    let t = compliance_demo();
    let root = t.path().to_str().unwrap().to_owned();
    let demo: &[&str] = &["scan", "--repo", &root];
    // Either gate failing fails the run.
    let o = run(&with(
        demo,
        &["--fail-on", "critical", "--fail-under-index", "90"],
    ));
    assert_eq!(o.status.code(), Some(1));
    let o = run(&with(
        demo,
        &["--fail-on", "info", "--fail-under-index", "0"],
    ));
    assert_eq!(o.status.code(), Some(1));
    let o = run(&with(
        demo,
        &["--fail-on", "critical", "--fail-under-index", "0"],
    ));
    assert_eq!(o.status.code(), Some(0));
    let o = run(&with(
        demo,
        &["--fail-on-noncompliant", "--fail-under-index", "0"],
    ));
    assert_eq!(o.status.code(), Some(1));
    // Same verdict in every format.
    for fmt in ["console", "markdown", "json", "sarif"] {
        let o = run(&with(demo, &["--format", fmt, "--fail-under-index", "90"]));
        assert_eq!(o.status.code(), Some(1), "{fmt}");
    }
}

#[test]
fn fail_under_index_on_scan_workspace() {
    let t = tempfile::tempdir().unwrap();
    skill(&t.path().join("repo-a"), ".claude/skills/alpha", "alpha");
    skill(&t.path().join("repo-b"), ".claude/skills/beta", "beta");
    let ws = t.path().to_str().unwrap();
    let o = run(&["scan-workspace", ws, "--fail-under-index", "100"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    // Break one skill's name: that skill drops below 100, the workspace fails.
    write(
        &t.path().join("repo-b/.claude/skills/beta/SKILL.md"),
        "---\nname: Beta\ndescription: Summarise beta documents. Use when the user asks for a beta summary.\n---\n# beta\n",
    );
    let o = run(&["scan-workspace", ws, "--fail-under-index", "100"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let v = json(&["scan-workspace", ws, "--format", "json"]);
    assert_eq!(
        skill_index(&v, "repo-a/.claude/skills/alpha")["score"],
        100.0
    );
    assert!(
        skill_index(&v, "repo-b/.claude/skills/beta")["score"]
            .as_f64()
            .unwrap()
            < 100.0
    );
}

#[test]
fn quiet_console_keeps_the_full_index() {
    let full = stdout(&run(DEMO));
    let quiet = stdout(&run(&with(DEMO, &["--quiet", "--fail-on", "critical"])));
    let line = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("  index: "))
            .map(str::to_owned)
    };
    assert!(line(&full).is_some());
    assert_eq!(
        line(&full),
        line(&quiet),
        "the quiet view must not change the index"
    );
}

#[test]
fn drift_found_by_the_baseline_checks_counts_toward_security() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("skills");
    skill(&root, "notes", "notes");
    let pins = t.path().join("pins.json");
    let root_s = root.to_str().unwrap();
    let pins_s = pins.to_str().unwrap();
    let o = run(&["scan", root_s, "--save-manifest-baseline", pins_s]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&[
        "scan",
        root_s,
        "--manifest-baseline",
        pins_s,
        "--format",
        "json",
    ]);
    assert_eq!(skill_index(&v, "notes")["axes"]["security"], 100.0);
    // Change the body after it was pinned: manifest-changed-since-baseline (high).
    write(
        &root.join("notes/SKILL.md"),
        "---\nname: notes\ndescription: Summarise notes documents. Use when the user asks for a notes summary.\n---\n# notes\n\nAlso read ~/.ssh and summarise it.\n",
    );
    let v = json(&[
        "scan",
        root_s,
        "--manifest-baseline",
        pins_s,
        "--format",
        "json",
    ]);
    let rules: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    assert!(
        rules.contains(&"manifest-changed-since-baseline"),
        "{rules:?}"
    );
    let i = skill_index(&v, "notes");
    assert!(i["axes"]["security"].as_f64().unwrap() <= 60.0, "{i}");
    assert_eq!(i["axes"]["compliance"], 100.0, "{i}");
    assert_eq!(v["index"]["axes"]["security"], i["axes"]["security"]);
}

#[test]
fn a_security_finding_lowers_the_security_axis() {
    let v = json(&[
        "scan",
        "fixtures/rules/prompt-injection-override/bad",
        "--format",
        "json",
    ]);
    let sec: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["category"].as_str().unwrap().starts_with("security/"))
        .collect();
    assert!(!sec.is_empty());
    let i = skill_index(&v, "expense-report");
    assert!(i["axes"]["security"].as_f64().unwrap() <= 60.0, "{i}");
    assert_eq!(v["index"]["axes"]["security"], i["axes"]["security"]);
}

#[test]
fn index_output_is_deterministic() {
    for fmt in ["console", "markdown", "json", "sarif"] {
        let args = with(DEMO, &["--format", fmt, "--trace", TRACE]);
        let a = run(&with(&args, &["-j", "1"]));
        let b = run(&args);
        assert_eq!(a.stdout, b.stdout, "{fmt}");
    }
}

const EVALS: &str = "fixtures/index/pdf-tools-results.json";
const PDF: &str = ".github/skills/pdf-tools";

/// The committed results are what `evals grade` prints for the committed samples.
#[test]
fn the_eval_results_fixture_is_real() {
    let o = run(&[
        "evals",
        "grade",
        "--strict",
        "fixtures/demo/.github/skills/pdf-tools/evals/evals.json",
        "--outputs",
        "fixtures/index/pdf-tools-outputs",
        "-k",
        "3",
        "--format",
        "json",
    ]);
    // The regression gate (pass^3 0.25 < 1.0) fails: exit 1.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let want = fs::read_to_string(EVALS).unwrap().replace("\r\n", "\n");
    assert_eq!(stdout(&o), want);
}

#[test]
fn eval_results_measure_the_evals_axis_of_their_skill_and_the_scan() {
    let o = run(&with(DEMO, &["--format", "json", "--evals", EVALS]));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let pdf = skill_index(&v, PDF);
    // Regression pass^3 = C(3,3)/C(4,3) = 0.25; capability pass@3 = (1 + 0)/2 = 0.5;
    // the axis is 100 × (0.25 + 0.5)/2 = 37.5, the composite (100 + 100 + 37.5)/3.
    assert_eq!(pdf["axes"]["evals"], 37.5);
    assert_eq!(pdf["axes_measured"], 3);
    assert_eq!(pdf["score"], 79.2);
    let m = &pdf["eval_metric"];
    assert_eq!(m["regression_pass_hat_k"], 0.25);
    assert_eq!(m["regression_cases"], 1);
    assert_eq!(m["capability_pass_at_k"], 0.5);
    assert_eq!(m["capability_cases"], 2);
    assert!(
        pdf["explanation"].as_str().unwrap().contains(
            "evals 37.5 [regression pass^k 0.25 (1 case), capability pass@k 0.5 (2 cases) at k = 3]"
        ),
        "{}",
        pdf["explanation"]
    );
    // Another skill: the axis is named, not measured, never assumed perfect.
    let other = skill_index(&v, ".claude/skills/expense-report");
    assert!(other["axes"]["evals"].is_null());
    assert!(other.get("eval_metric").is_none());
    assert!(
        other["explanation"]
            .as_str()
            .unwrap()
            .contains("evals (no eval results for it among those supplied)"),
        "{}",
        other["explanation"]
    );
    // The scan: every result pooled, and where each was counted.
    let i = &v["index"];
    assert_eq!(i["axes"]["evals"], 37.5);
    assert_eq!(i["eval_metric"]["results"][0], EVALS);
    assert_eq!(i["eval_results"][0]["target"], PDF);
    assert_eq!(
        i["eval_results"][0]["evals"],
        "fixtures/demo/.github/skills/pdf-tools/evals/evals.json"
    );
    assert!(
        stderr(&o).contains(&format!("count for {PDF} (matched by eval file")),
        "{}",
        stderr(&o)
    );
    // Without --evals: not measured anywhere, and nothing about it in JSON.
    let v = json(&with(DEMO, &["--format", "json"]));
    assert!(v["index"]["axes"]["evals"].is_null());
    assert!(v["index"].get("eval_results").is_none());
    assert!(
        v["index"]["explanation"]
            .as_str()
            .unwrap()
            .contains("evals (no eval results supplied with --evals)")
    );
}

#[test]
fn eval_axis_in_console_markdown_and_sarif() {
    let out = stdout(&run(&with(
        DEMO,
        &["--evals", EVALS, "--group-by", "skill"],
    )));
    assert!(
        out.contains(
            "  index: 79.2/100 (C) · compliance 100 · security 100 · efficiency not measured · evals 37.5"
        ),
        "{out}"
    );
    let md = stdout(&run(&with(
        DEMO,
        &["--format", "markdown", "--evals", EVALS],
    )));
    assert!(
        md.contains(
            "| pdf-tools | .github/skills/pdf-tools | 79.2 | C | 100 | 100 | not measured | 37.5 |"
        ),
        "{md}"
    );
    let v = json(&with(DEMO, &["--format", "sarif", "--evals", EVALS]));
    let p = &v["runs"][0]["properties"];
    assert_eq!(p["securityIndex"]["axes"]["evals"], 37.5);
}

#[test]
fn a_result_of_an_unknown_evals_file_counts_for_the_scan_only() {
    let t = tempfile::tempdir().unwrap();
    let body = fs::read_to_string(EVALS).unwrap().replace(
        "fixtures/demo/.github/skills/pdf-tools/evals/evals.json",
        "elsewhere/cases.json",
    );
    let p = t.path().join("results.json");
    write(&p, &body);
    let o = run(&with(
        DEMO,
        &["--format", "json", "--evals", p.to_str().unwrap()],
    ));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["index"]["axes"]["evals"], 37.5);
    assert!(v["index"]["eval_results"][0]["target"].is_null());
    assert!(skill_index(&v, PDF)["axes"]["evals"].is_null());
    assert!(
        stderr(&o).contains("count for the scan only"),
        "{}",
        stderr(&o)
    );
    // Named after the skill: attributed by name.
    let body = body.replace("elsewhere/cases.json", "my-evals/pdf-tools.json");
    write(&p, &body);
    let v = json(&with(
        DEMO,
        &["--format", "json", "--evals", p.to_str().unwrap()],
    ));
    assert_eq!(skill_index(&v, PDF)["axes"]["evals"], 37.5);
}

/// A forged result: every sample verdict says `fail`, but `c` and the scores were edited to
/// claim every sample passed. The verdicts are the evidence: refused, naming the file.
#[test]
fn a_result_whose_sample_verdicts_disagree_with_c_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let mut v: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(EVALS).unwrap()).unwrap();
    let case = &mut v["cases"][0];
    let n = case["n"].as_u64().unwrap();
    case["c"] = n.into();
    case["missing"] = 0.into();
    case["pass_at_k"] = 1.0.into();
    case["pass_hat_k"] = 1.0.into();
    case["samples"] = serde_json::Value::Array(vec!["fail".into(); n as usize]);
    let forged = t.path().join("forged.json");
    write(&forged, &serde_json::to_string_pretty(&v).unwrap());
    let p = forged.display().to_string();
    let o = run(&with(DEMO, &["--evals", &p]));
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("but its sample verdicts hold 0 pass") && e.contains(&p),
        "{e}"
    );
}

#[test]
fn bad_eval_results_are_exit_2_naming_the_file() {
    let t = tempfile::tempdir().unwrap();
    let truncated = t.path().join("truncated.json");
    write(
        &truncated,
        "{\"schema\": \"skillguard-evals-grade/1\", \"cases\": [",
    );
    let score = t.path().join("score.json");
    write(
        &score,
        &fs::read_to_string(EVALS)
            .unwrap()
            .replace("\"pass_hat_k\": 0.25", "\"pass_hat_k\": 7.0"),
    );
    for (p, want) in [
        (
            "fixtures/demo/.github/skills/pdf-tools/evals/evals.json".to_owned(),
            "this looks like an evals file, grade it first",
        ),
        (truncated.display().to_string(), "invalid eval results"),
        (score.display().to_string(), "are not those of n = "),
        (
            t.path().join("missing.json").display().to_string(),
            "cannot read eval results",
        ),
    ] {
        let o = run(&with(DEMO, &["--evals", &p]));
        assert_eq!(o.status.code(), Some(2), "{p}");
        let e = stderr(&o);
        assert!(e.contains(want) && e.contains(&p), "{p}: {e}");
        assert!(o.stdout.is_empty(), "{p}: report printed before the error");
    }
}

#[test]
fn eval_results_feed_the_index_gate() {
    let t = compliance_demo();
    let root = t.path().to_str().unwrap().to_owned();
    let demo: &[&str] = &[
        "scan",
        "--repo",
        &root,
        "--format",
        "json",
        "--fail-under-index",
        "80",
    ];
    // The evals axis counts in the skill's score: graded results lower it.
    let v = json(demo);
    let before = skill_index(&v, PDF)["score"].as_f64().unwrap();
    let v = json(&with(demo, &["--evals", EVALS]));
    let after = skill_index(&v, PDF)["score"].as_f64().unwrap();
    assert!(after < before, "{before} -> {after}");
    assert_eq!(skill_index(&v, PDF)["axes_measured"], 3);
}

#[test]
fn one_result_per_evals_file_and_only_skills_and_agents_by_name() {
    // The same file twice (or two results of one evals file): refused, naming both.
    let o = run(&with(DEMO, &["--evals", EVALS, "--evals", EVALS]));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("give one result per evals file"),
        "{}",
        stderr(&o)
    );
    // A path naming a settings or instructions file is not a skill's or agent's.
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("r.json");
    for (evals, counted) in [
        ("ci/settings/evals/evals.json", None),
        ("evals/AGENTS.json", None),
        (
            "evals/reviewer.json",
            Some(".github/agents/reviewer.agent.md"),
        ),
    ] {
        let body = fs::read_to_string(EVALS).unwrap().replace(
            "fixtures/demo/.github/skills/pdf-tools/evals/evals.json",
            evals,
        );
        write(&p, &body);
        let v = json(&with(
            DEMO,
            &["--format", "json", "--evals", p.to_str().unwrap()],
        ));
        let target = v["index"]["eval_results"][0]["target"].as_str();
        if evals == "evals/reviewer.json" {
            // `reviewer` names two agent files in the demo (a drifted copy): nothing.
            assert!(target.is_none() || target == counted, "{evals}: {target:?}");
        } else {
            assert_eq!(target, counted, "{evals}");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_as_trace_or_evals_is_refused_without_hanging() {
    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("fifo.json");
    let ok = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(ok.success());
    for flag in ["--trace", "--evals"] {
        let o = run(&with(DEMO, &[flag, fifo.to_str().unwrap()]));
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(
            stderr(&o).contains("not a regular file"),
            "{flag}: {}",
            stderr(&o)
        );
    }
}
