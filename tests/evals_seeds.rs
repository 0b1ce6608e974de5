//! Eval files built from the reference examples: the agent-evals case file, Waza's `eval.yaml`
//! examples (plain, for an agent, with an explicit `tool_constraint`), Waza's coverage layout,
//! and each negative variant. `scan`, `coverage` and `evals grade` must agree on every file.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

fn json_of(o: &Output) -> Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    })
}

/// (rule, path, line, column, message) of the eval findings of a repository scan.
fn eval_findings(root: &Path) -> Vec<(String, String, u64, u64, String)> {
    let o = common::run_in(
        root,
        &["scan", "--repo", ".", "--no-config", "--format", "json"],
    );
    let v = json_of(&o);
    let mut out: Vec<_> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"].as_str().unwrap().starts_with("eval-"))
        .map(|f| {
            (
                f["rule_id"].as_str().unwrap().to_owned(),
                f["location"]["path"].as_str().unwrap().to_owned(),
                f["location"]["line"].as_u64().unwrap_or(0),
                f["location"]["column"].as_u64().unwrap_or(0),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

fn rules_at(fs: &[(String, String, u64, u64, String)]) -> Vec<(&str, &str, u64, u64)> {
    fs.iter()
        .map(|(r, p, l, c, _)| (r.as_str(), p.as_str(), *l, *c))
        .collect()
}

const SKILL: &str = "---\nname: pdf\ndescription: Converts PDF files to Markdown and extracts their text. Use when the user asks to read or convert a PDF.\n---\n# PDF\n\nRead the PDF and answer in Markdown.\n";

/// The agent-evals case file, as the reference gives it.
const SEED_CASES: &str = r###"{
"cases": [
{ "id": "pdf-basic", "set": "capability", "prompt": "convert report.pdf to markdown", "expect": "## ", "match": "contains" },
{ "id": "pdf-german", "set": "regression", "prompt": "extract text from Bescheid.pdf", "expect": "Grüße|Straße", "match": "regex" }
]
}
"###;

fn skill_repo(cases: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), "skills/pdf/SKILL.md", SKILL);
    write(t.path(), "skills/pdf/evals.json", cases);
    t
}

fn sample(root: &Path, id: &str, n: u32, text: &str) {
    write(root, &format!("out/{id}/sample-{n}.txt"), text);
}

fn grade(root: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "evals",
        "grade",
        "--strict",
        "skills/pdf/evals.json",
        "--outputs",
        "out",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    common::run_in(root, &args)
}

#[test]
fn the_reference_case_file_is_valid_in_scan_coverage_and_grade() {
    let t = skill_repo(SEED_CASES);
    let f = eval_findings(t.path());
    // Two cases: only the advice to grow the sets (20-50 real failures).
    assert_eq!(
        rules_at(&f),
        [("eval-set-small", "skills/pdf/evals.json", 2, 10)]
    );
    assert!(f[0].4.contains("1 capability, 1 regression"), "{}", f[0].4);
    let cov = json_of(&common::run_in(
        t.path(),
        &["coverage", "--repo", ".", "--no-config", "--format", "json"],
    ));
    assert_eq!(cov["percent"], 100.0);
    assert_eq!(cov["rows"][0]["capability"], 1);
    assert_eq!(cov["rows"][0]["regression"], 1);
    for n in 1..=3 {
        sample(t.path(), "pdf-basic", n, "# Report\n\n## Summary\n");
        sample(t.path(), "pdf-german", n, "Mit freundlichen Grüßen\n");
    }
    let o = grade(t.path(), &["-k", "3"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = json_of(&o);
    assert_eq!(v["sets"]["capability"]["pass_at_k"], 1.0);
    assert_eq!(v["sets"]["regression"]["pass_hat_k"], 1.0);
    // The same advice on standard error; k = 3 is within 3-10.
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("advisory: the capability set has 1 case(s)"),
        "{err}"
    );
    assert!(!err.contains("k = 3"), "{err}");
}

#[test]
fn a_numeric_id_or_expect_is_refused_alike_by_scan_coverage_and_grade() {
    let t = skill_repo(
        r#"{ "cases": [
  { "id": 12, "set": "capability", "prompt": "convert report.pdf", "expect": 3, "match": "contains" }
] }
"#,
    );
    let f = eval_findings(t.path());
    assert_eq!(
        rules_at(&f),
        [
            ("eval-file-invalid", "skills/pdf/evals.json", 2, 11),
            ("eval-file-invalid", "skills/pdf/evals.json", 2, 78),
            ("eval-set-small", "skills/pdf/evals.json", 1, 12),
        ]
    );
    assert!(
        f[0].4
            .contains("`id` of case 1 must be a non-empty string, not an integer")
    );
    // Coverage does not count the file.
    let cov = json_of(&common::run_in(
        t.path(),
        &["coverage", "--repo", ".", "--no-config", "--format", "json"],
    ));
    assert_eq!(cov["percent"], 0.0);
    assert_eq!(cov["invalid"][0], "skills/pdf/evals.json");
    // Grade refuses it with the same messages at the same places.
    sample(t.path(), "12", 1, "3");
    let o = grade(t.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    for (_, _, l, c, msg) in f.iter().filter(|x| x.0 == "eval-file-invalid") {
        assert!(
            err.contains(&format!("line {l}, column {c}: {msg}")),
            "{err}\nwants {msg}"
        );
    }
}

#[test]
fn regexes_follow_dotnet_by_default_and_rust_on_request() {
    let t = skill_repo(
        r#"{ "cases": [
  { "id": "digits", "set": "regression", "prompt": "p", "expect": "^\\d{3}$", "match": "regex" },
  { "id": "look", "set": "regression", "prompt": "p", "expect": "(?<=Dear )Sir(?! or)", "match": "regex" },
  { "id": "twice", "set": "regression", "prompt": "p", "expect": "\\b(\\w+) \\1\\b", "match": "regex" }
] }
"#,
    );
    sample(t.path(), "digits", 1, "123\n");
    sample(t.path(), "look", 1, "Dear Sir,\n");
    sample(t.path(), "twice", 1, "it is is late\n");
    // Scan accepts the look-around and the back-reference (the .NET dialect).
    let f = eval_findings(t.path());
    assert_eq!(
        rules_at(&f),
        [("eval-set-small", "skills/pdf/evals.json", 1, 12)]
    );
    let o = grade(t.path(), &[]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // `$` before a final newline is .NET's; Rust's `$` is the end of the text, and Rust refuses
    // look-around and back-references.
    let o = grade(t.path(), &["--regex-dialect", "rust"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("(rust dialect)"), "{err}");
    let only = skill_repo(
        r#"{ "cases": [ { "id": "digits", "set": "regression", "prompt": "p", "expect": "^\\d{3}$", "match": "regex" } ] }"#,
    );
    sample(only.path(), "digits", 1, "123\n");
    assert_eq!(grade(only.path(), &[]).status.code(), Some(0));
    let v = json_of(&grade(only.path(), &["--regex-dialect", "rust"]));
    assert_eq!(v["cases"][0]["samples"][0], "fail");
}

#[test]
fn a_pattern_past_the_backtrack_limit_is_an_error_not_a_hang() {
    let t = skill_repo(
        r#"{ "cases": [ { "id": "slow", "set": "capability", "prompt": "p", "expect": "(x+x+)+(?>y)", "match": "regex" } ] }"#,
    );
    sample(t.path(), "slow", 1, &"x".repeat(64));
    let start = std::time::Instant::now();
    let o = grade(t.path(), &[]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("backtracking steps") && err.contains("sample-1.txt"),
        "{err}"
    );
    assert!(start.elapsed().as_secs() < 60);
}

#[test]
fn the_capability_gate_defaults_to_every_case_solved_once() {
    let t = skill_repo(
        r#"{ "cases": [
  { "id": "solved", "set": "capability", "prompt": "p", "expect": "ok", "match": "contains" },
  { "id": "never", "set": "capability", "prompt": "p", "expect": "ok", "match": "contains" }
] }
"#,
    );
    for n in 1..=3 {
        sample(t.path(), "solved", n, if n == 2 { "ok" } else { "no" });
        sample(t.path(), "never", n, "no");
    }
    let o = grade(t.path(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    assert_eq!(v["sets"]["capability"]["min"], 1.0);
    assert_eq!(v["sets"]["capability"]["pass_at_k"], 0.5);
    assert_eq!(
        grade(t.path(), &["--min-capability", "0.5"]).status.code(),
        Some(0)
    );
    // k = 1 is outside the advised 3-10.
    let o = grade(t.path(), &["-k", "1", "--min-capability", "0"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("advisory: k = 1 sample(s) per case"), "{err}");
}

const AGENT: &str = "---\nname: security-reviewer\ndescription: Reviews code for security vulnerabilities and names the risk level of each.\ntools: [codeSearch, fileRead, runCommand]\n---\nReview the code you are given for vulnerabilities.\n";

/// Waza's eval for an agent, as the reference gives it.
const AGENT_EVAL: &str = r#"name: security-agent-eval
description: Evaluate the security-reviewer agent
skill: security-reviewer  # Resolves to security-reviewer.agent.md

version: "1.0"

config:
  model: claude-sonnet-4.6
  timeout_seconds: 300
  trials_per_task: 1

# Graders: define what success looks like
graders:
  - type: text
    name: identifies_vulnerability
    config:
      regex_match:
        - "(?i)(vulnerability|bug|issue)"
        - "(?i)(risk level|severity)"

  - type: code
    name: suggests_fix
    config:
      assertions:
        - "output_length > 200"

tasks:
  - "tasks/*.yaml"
"#;

/// The explicit `tool_constraint` of the reference (stricter than the agent, with rejections).
const OVERRIDE_EVAL: &str = r#"name: my-agent-eval
description: Evaluating my custom agent
skill: security-reviewer
version: "1.0"
graders:
  - type: tool_constraint
    name: my_tool_policy
    config:
      allow_only:                       # Stricter than agent declares
        - tool: codeSearch
        - tool: fileRead
      reject_tools:
        - tool: fileDelete
        - tool: runCommand

  - type: text
    name: code_quality
    config:
      regex_match: ["(?i)(refactored|improved)"]
tasks:
  - "tasks/*.yaml"
"#;

const TASK: &str = "name: injection-detection\ndescription: Finds the SQL injection\ntriggers:\n  - \"Review db.py for security issues\"\nexpected_outcome: Names the injection and its risk level\n";

/// Waza compiles `regex_match` and `regex_not_match` with Go's RE2: a look-ahead, which RE2
/// refuses, is `eval-file-invalid` in either; `\Q…\E`, which RE2 accepts, is not.
#[test]
fn waza_patterns_are_checked_in_re2() {
    let eval = |patterns: &str| {
        format!(
            "name: e\ndescription: d\ngraders:\n  - type: text\n    name: t\n    config:\n{patterns}tasks:\n  - \"tasks/*.yaml\"\n"
        )
    };
    let findings = |text: &str| {
        let t = agent_repo(text);
        eval_findings(t.path())
            .into_iter()
            .filter(|f| f.0 == "eval-file-invalid")
            .map(|f| f.4)
            .collect::<Vec<_>>()
    };
    let bad = findings(&eval(
        "      regex_match: [\"(?=risk)risk\"]\n      regex_not_match: [\"(?!x)y\"]\n",
    ));
    assert_eq!(bad.len(), 2, "{bad:?}");
    assert!(
        bad[0].contains("RE2 dialect") && bad[1].contains("RE2 dialect"),
        "{bad:?}"
    );
    assert!(
        bad.iter().any(|m| m.contains("`regex_not_match`")),
        "{bad:?}"
    );
    let good = findings(&eval(
        "      regex_match: [\"\\\\Q1.2.3\\\\E\"]\n      regex_not_match: [\"(?i)error\"]\n",
    ));
    assert!(good.is_empty(), "{good:?}");
}

fn agent_repo(eval: &str) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), ".github/agents/security-reviewer.agent.md", AGENT);
    write(t.path(), "evals/security-reviewer/eval.yaml", eval);
    write(
        t.path(),
        "evals/security-reviewer/tasks/01-injection-detection.yaml",
        TASK,
    );
    t
}

#[test]
fn the_reference_waza_evals_scan_clean_but_for_one_trial_per_task() {
    let t = agent_repo(AGENT_EVAL);
    let f = eval_findings(t.path());
    // `trials_per_task: 1` samples once: below the advised k = 3-10.
    assert_eq!(
        rules_at(&f),
        [(
            "eval-k-outside-range",
            "evals/security-reviewer/eval.yaml",
            10,
            20
        )]
    );
    let t = agent_repo(OVERRIDE_EVAL);
    assert_eq!(eval_findings(t.path()), []);
    let cov = json_of(&common::run_in(
        t.path(),
        &["coverage", "--repo", ".", "--no-config", "--format", "json"],
    ));
    assert_eq!(cov["percent"], 100.0);
    // An explicit tool_constraint: no implicit grader is added.
    let graders = cov["rows"][0]["graders"].as_array().unwrap();
    assert!(
        !graders
            .iter()
            .any(|g| g.as_str().unwrap().contains("implicit")),
        "{graders:?}"
    );
}

#[test]
fn grader_types_regexes_and_tools_are_validated() {
    let bad = OVERRIDE_EVAL
        .replace("type: text", "type: txt")
        .replace("\"(?i)(refactored|improved)\"", "\"(unclosed\"")
        .replace("tool: fileRead", "tool: nosuchtool")
        .replace("tool: codeSearch", "tool: codeSerch");
    let t = agent_repo(&bad);
    let f = eval_findings(t.path());
    let p = "evals/security-reviewer/eval.yaml";
    assert_eq!(
        rules_at(&f),
        [
            ("eval-file-invalid", p, 16, 11),
            ("eval-file-invalid", p, 19, 21),
            ("eval-tool-unknown", p, 10, 17),
            ("eval-tool-unknown", p, 11, 17),
        ]
    );
    assert!(f[0].4.contains("grader type `txt`") && f[0].4.contains("Did you mean `text`?"));
    assert!(f[1].4.contains("`(unclosed`"), "{}", f[1].4);
    // The closest known name: the agent's own `codeSearch`.
    assert!(f[2].4.contains("Did you mean `codeSearch`?"), "{}", f[2].4);
    assert!(f[3].4.contains("`nosuchtool`"), "{}", f[3].4);
    // An invalid eval covers nothing.
    let cov = json_of(&common::run_in(
        t.path(),
        &["coverage", "--repo", ".", "--no-config", "--format", "json"],
    ));
    assert_eq!(cov["percent"], 0.0);
}

#[test]
fn reject_tools_is_graded_and_replaces_the_implicit_grader() {
    let t = agent_repo(OVERRIDE_EVAL);
    write(
        t.path(),
        "run.json",
        r#"[{"tool": "codeSearch"}, {"tool": "fileRead"}, {"tool": "runCommand"}, {"tool": "fileWrite"}]"#,
    );
    // The agent's own `tools:` allow runCommand and deny fileWrite.
    let o = common::run_in(
        t.path(),
        &[
            "evals",
            "tools",
            "--agent",
            "security-reviewer",
            "run.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    assert_eq!(v["grader"], "implicit");
    let reasons: Vec<(&str, &str)> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["tool"].as_str().unwrap(), x["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(reasons, [("fileWrite", "not-declared")]);
    // The eval's tool_constraint: runCommand is rejected, fileWrite is outside allow_only.
    let o = common::run_in(
        t.path(),
        &[
            "evals",
            "tools",
            "--agent",
            "security-reviewer",
            "--eval",
            "evals/security-reviewer/eval.yaml",
            "run.json",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    assert_eq!(v["grader"], "explicit");
    assert_eq!(
        v["reject_tools"],
        serde_json::json!(["fileDelete", "runCommand"])
    );
    let reasons: Vec<(&str, &str)> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["tool"].as_str().unwrap(), x["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        reasons,
        [("runCommand", "rejected"), ("fileWrite", "not-declared")]
    );
}

#[test]
fn a_skill_wins_over_a_same_named_agent_and_ambiguity_lists_the_candidates() {
    let t = tempfile::tempdir().unwrap();
    write(
        t.path(),
        ".github/skills/reviewer/SKILL.md",
        "---\nname: reviewer\ndescription: Reviews pull requests for correctness and style. Use when asked to review a change.\n---\n# Reviewer\n",
    );
    write(
        t.path(),
        ".github/agents/reviewer.agent.md",
        "---\nname: reviewer\ndescription: Reviews code.\ntools: [read]\n---\nReview.\n",
    );
    write(t.path(), "run.json", r#"[{"tool": "bash"}]"#);
    let o = common::run_in(
        t.path(),
        &[
            "evals", "tools", "--agent", "reviewer", "run.json", "--format", "json",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v = json_of(&o);
    assert!(
        v["agent"]
            .as_str()
            .unwrap()
            .ends_with(".github/skills/reviewer/SKILL.md")
    );
    assert_eq!(v["policy"], "unrestricted");
    // Two agents of one name: an error that lists both.
    write(
        t.path(),
        ".github/agents/helper.agent.md",
        "---\nname: helper\ndescription: Helps.\n---\nHelp.\n",
    );
    write(
        t.path(),
        ".github/agents/assistant.agent.md",
        "---\nname: helper\ndescription: Helps too.\n---\nHelp.\n",
    );
    let o = common::run_in(
        t.path(),
        &["evals", "tools", "--agent", "helper", "run.json"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("2 agents: .github/agents/assistant.agent.md, .github/agents/helper.agent.md"),
        "{err}"
    );
}

/// Waza's coverage sample: two skills and an agent, each with `evals/<name>.yaml`.
fn waza_layout(with_all: bool) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for name in ["code-explainer", "documentation-writer"] {
        write(
            t.path(),
            &format!("skills/{name}/SKILL.md"),
            &format!(
                "---\nname: {name}\ndescription: Explains and documents code for the user. Use when asked to explain or document code.\n---\n# {name}\n"
            ),
        );
    }
    write(t.path(), ".github/agents/security-reviewer.agent.md", AGENT);
    let names: &[&str] = if with_all {
        &[
            "code-explainer",
            "documentation-writer",
            "security-reviewer",
        ]
    } else {
        &["code-explainer", "documentation-writer"]
    };
    for name in names {
        write(
            t.path(),
            &format!("evals/{name}.yaml"),
            &format!(
                "name: {name}-eval\ndescription: Evaluating {name}\nversion: \"1.0\"\nconfig:\n  model: claude-sonnet-4.6\n  timeout_seconds: 300\n  trials_per_task: 3\ngraders:\n  - type: text\n    name: identifies_issues\n    config:\n      regex_match:\n        - \"(?i)(bug|issue|security|error)\"\ntasks:\n  - \"tasks/{name}-*.yaml\"\n"
            ),
        );
        write(t.path(), &format!("evals/tasks/{name}-01.yaml"), TASK);
    }
    t
}

#[test]
fn waza_evals_layout_is_counted_by_coverage() {
    let t = waza_layout(true);
    assert_eq!(eval_findings(t.path()), []);
    let o = common::run_in(
        t.path(),
        &[
            "coverage",
            "--repo",
            ".",
            "--no-config",
            "--format",
            "json",
            "--fail-under-coverage",
            "100",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let v = json_of(&o);
    assert_eq!(v["percent"], 100.0);
    assert_eq!(v["skills"], 2);
    assert_eq!(v["agents"], 1);
}

#[test]
fn waza_layout_without_one_eval_fails_the_coverage_gate() {
    let t = waza_layout(false);
    let o = common::run_in(
        t.path(),
        &[
            "coverage",
            "--repo",
            ".",
            "--no-config",
            "--format",
            "json",
            "--fail-under-coverage",
            "100",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let v = json_of(&o);
    assert_eq!(v["percent"], 66.7);
    assert_eq!(v["agents_covered"], 0);
    // A YAML file under `evals/` that is not an eval (no `tasks`, no `graders`) is not one.
    write(t.path(), "evals/notes.yaml", "owner: docs team\n");
    assert_eq!(eval_findings(t.path()), []);
}
