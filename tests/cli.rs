//! CLI contract: formats, exit codes, determinism, escaping, bad input.
#![allow(clippy::print_stderr)] // tests explain skipped checks on stderr

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{bin, json, run, stderr, stdout, write};

fn skill(root: &Path, rel: &str, name: &str) {
    write(
        &root.join(rel).join("SKILL.md"),
        &format!(
            "---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n# {name}\n"
        ),
    );
}

#[test]
fn demo_renders_in_all_formats() {
    for fmt in ["console", "markdown", "json", "sarif"] {
        let o = run(&["scan", "--repo", "fixtures/demo", "--format", fmt]);
        assert_eq!(o.status.code(), Some(0), "{fmt}: {}", stderr(&o));
        assert!(!o.stdout.is_empty(), "{fmt} produced no output");
    }
    let o = run(&["scan", "--repo", "fixtures/demo"]);
    let out = stdout(&o);
    for needle in [
        ".claude/skills/expense-report",
        ".agents/skills/expense-report",
        "name-consecutive-hyphens",
        "frontmatter-unclosed",
        "yaml-syntax-error",
        "skill-filename-noncanonical",
        "script-requires-governance-review",
        "\nsummary\n",
        "; gate: none set",
    ] {
        assert!(
            out.contains(needle),
            "console output lacks {needle}:\n{out}"
        );
    }
}

/// `SKILLGUARD_TIMINGS=1` prints the per-stage breakdown `scripts/bench.sh` reads, with every
/// security stage, and never panics (it once indexed past its stage table).
#[test]
fn timings_breakdown_lists_the_stages() {
    let o = bin()
        .env("SKILLGUARD_TIMINGS", "1")
        // Not from the result cache: a cached skill runs no security stage.
        .args([
            "scan",
            "--repo",
            "fixtures/demo",
            "--format",
            "json",
            "--no-cache",
        ])
        .output()
        .expect("run skillguard");
    let err = stderr(&o);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{err}");
    // Each stage line is `timing: STAGE CPU WALL`; the process's line closes the list.
    for stage in [
        "walk",
        "parse",
        "security:shell-parser",
        "report",
        "(process)",
    ] {
        let line = err
            .lines()
            .find(|l| l.starts_with(&format!("timing: {stage} ")))
            .unwrap_or_else(|| panic!("no {stage} in {err}"));
        let secs: Vec<f64> = line
            .split(' ')
            .skip(2)
            .map(|x| x.parse().expect("seconds"))
            .collect();
        assert_eq!(secs.len(), 2, "{line}");
    }
}

/// `skillguard scan` with no target scans the repository in the current directory, exactly as
/// `scan --repo .` does; under `--compat agenteval` a missing path stays a usage error.
#[test]
fn scan_with_no_target_scans_the_current_directory() {
    let in_demo = |args: &[&str]| {
        bin()
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo"))
            .args(args)
            .output()
            .expect("run skillguard")
    };
    let bare = in_demo(&["scan", "--format", "json"]);
    let repo = in_demo(&["scan", "--repo", ".", "--format", "json"]);
    assert!(
        matches!(bare.status.code(), Some(0 | 1)),
        "{}",
        stderr(&bare)
    );
    assert_eq!(stdout(&bare), stdout(&repo));
    assert!(stdout(&bare).contains("meeting-notes"));
    let compat = in_demo(&["scan", "--compat", "agenteval"]);
    assert_eq!(compat.status.code(), Some(2), "{}", stderr(&compat));
}

/// `--targets`: the first line states the targets; an unknown one is a usage error (exit 2);
/// `all` weighs every harness, so a name only other harnesses reject is high again.
#[test]
fn targets_are_stated_and_checked() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join(".claude/skills/x/SKILL.md"),
        "---\nname: Bad_Name\ndescription: Does x. Use when the user asks for x.\n---\n# X\n",
    );
    let root = t.path().to_str().unwrap();
    let o = run(&["scan", "--repo", root]);
    let out = stdout(&o);
    assert!(
        out.lines()
            .next()
            .unwrap()
            .ends_with(" · targets: claude-code (inferred from .claude/skills)"),
        "{out}"
    );
    // The per-skill view says how to set them.
    let by_skill = stdout(&run(&["scan", "--repo", root, "--group-by", "skill"]));
    assert_eq!(
        by_skill.lines().nth(1),
        Some("targets: claude-code (inferred from .claude/skills) (`--targets` to set)"),
        "{by_skill}"
    );
    assert_eq!(
        run(&["scan", "--repo", root, "--fail-on", "high"])
            .status
            .code(),
        Some(0)
    );
    let all = run(&[
        "scan",
        "--repo",
        root,
        "--fail-on",
        "high",
        "--targets",
        "all",
    ]);
    assert_eq!(all.status.code(), Some(1), "{}", stdout(&all));
    let bad = run(&["scan", "--repo", root, "--targets", "claude"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("unknown target `claude`"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn exit_codes() {
    let o = run(&[
        "scan",
        "--repo",
        "fixtures/demo",
        "--fail-on-noncompliant",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    // The demo's `invoice-sync` sample is malicious on purpose (critical findings).
    let o = run(&["scan", "--repo", "fixtures/demo", "--fail-on", "critical"]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(&[
        "scan",
        "fixtures/demo/.claude/skills/expense-report",
        "--fail-on",
        "critical",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = run(&["scan", "--repo", "fixtures/demo", "--fail-on", "info"]);
    assert_eq!(o.status.code(), Some(1));
    // A clean skill passes the strictest gate (but for the advice to grow its three-case
    // eval sets, `eval-set-small`).
    let o = run(&[
        "scan",
        "fixtures/demo/.github/skills/pdf-tools",
        "--fail-on",
        "info",
        "--ignore",
        "eval-set-small",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn unknown_format_is_a_usage_error_before_scanning() {
    let o = run(&["scan", "/definitely/not/here", "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("--format"), "{e}");
    assert!(
        !e.contains("/definitely/not/here: no such"),
        "scanned before validating: {e}"
    );
}

#[test]
fn missing_root_exits_2_with_one_line() {
    for args in [
        vec!["scan", "/definitely/not/here"],
        vec!["scan", "--repo", "/definitely/not/here"],
        vec!["scan-workspace", "/definitely/not/here"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains("/definitely/not/here"), "{e}");
        assert!(o.stdout.is_empty());
    }
    let o = run(&["scan", "Cargo.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a directory"));
}

#[test]
fn json_is_versioned_with_string_enums_and_coverage() {
    let v = json(&["scan", "--repo", "fixtures/demo", "--format", "json"]);
    assert_eq!(v["version"], 1);
    assert_eq!(v["tool"]["name"], "skillguard");
    assert_eq!(v["mode"], "repo");
    let cov = &v["coverage"];
    for k in [
        "SkillCount",
        "WithResources",
        "WithScripts",
        "StageHistogram",
        "SilentlyExcludedCount",
    ] {
        assert!(!cov[k].is_null(), "coverage lacks {k}");
    }
    assert_eq!(cov["StageHistogram"]["load"], cov["SkillCount"]);
    let findings = v["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        assert!(
            f["severity"].is_string() && f["confidence"].is_string() && f["category"].is_string()
        );
        assert_eq!(f["fingerprint"].as_str().unwrap().len(), 64);
        assert!(!f["location"]["path"].as_str().unwrap().contains('\\'));
    }
    let gov = findings
        .iter()
        .find(|f| f["rule_id"] == "script-requires-governance-review")
        .unwrap();
    assert_eq!(gov["agenteval_alias"], "ScriptRequiresGovernanceReview");
    let skills = v["skills"].as_array().unwrap();
    let er = skills
        .iter()
        .find(|s| s["path"] == ".claude/skills/expense-report")
        .unwrap();
    assert_eq!(er["convention"], ".claude/skills");
    assert_eq!(er["kind"], "skill");
    let files = er["files"].as_array().unwrap();
    assert!(
        files
            .iter()
            .all(|f| f["sha256"].as_str().map(str::len) == Some(64))
    );
    assert!(files.iter().any(|f| f["kind"] == "script"));
    assert_eq!(er["frontmatter"]["metadata"]["version"], "1.2");
}

#[test]
fn fingerprints_do_not_depend_on_location() {
    // The same skill under two conventions yields the same fingerprint for the same finding.
    let v = json(&["scan", "--repo", "fixtures/demo", "--format", "json"]);
    let fps: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["rule_id"] == "script-requires-governance-review" && f["skill"] == "expense-report"
        })
        .map(|f| f["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(fps.len(), 2);
    assert_eq!(fps[0], fps[1]);
}

#[test]
fn sarif_validates_against_the_2_1_0_schema() {
    let validator = common::sarif_validator();
    for target in [
        vec!["scan", "--repo", "fixtures/demo"],
        vec!["scan", "fixtures/demo/.github/skills"],
        // With a disclosure trace and a gate: the index properties stay valid SARIF.
        vec![
            "scan",
            "--repo",
            "fixtures/demo",
            "--trace",
            "fixtures/index/demo-trace.json",
            "--fail-under-index",
            "90",
        ],
    ] {
        let mut args = target.clone();
        args.extend(["--format", "sarif"]);
        let o = run(&args);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&v)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "SARIF invalid: {errors:#?}");
        let run0 = &v["runs"][0];
        let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
        assert_eq!(rules.len(), skillguard::catalog::all().len());
        for r in run0["results"].as_array().unwrap() {
            let idx = r["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(rules[idx]["id"], r["ruleId"]);
            assert!(r["partialFingerprints"]["skillguard/v1"].is_string());
            if let Some(region) = r["locations"][0]["physicalLocation"].get("region") {
                assert!(region["startLine"].as_u64().unwrap() >= 1);
            }
        }
        for r in rules {
            assert!(r["properties"]["security-severity"].is_string());
            assert!(r["help"]["markdown"].as_str().unwrap().len() > 20);
        }
    }
}

fn big_tree() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for i in 0..40 {
        let conv = [
            ".claude/skills",
            ".agents/skills",
            "skills",
            ".github/skills",
        ][i % 4];
        let name = format!("skill-{i:03}");
        skill(t.path(), &format!("{conv}/{name}"), &name);
        write(
            &t.path().join(format!("{conv}/{name}/scripts/run.py")),
            "print('hi')\n",
        );
        if i % 7 == 0 {
            write(
                &t.path().join(format!("{conv}/{name}/SKILL.md")),
                "---\nname: Bad_Name\n---\n",
            );
        }
    }
    t
}

#[test]
fn single_thread_and_parallel_print_identical_bytes() {
    let t = big_tree();
    let root = t.path().to_str().unwrap();
    for fmt in ["console", "json", "sarif", "markdown"] {
        let a = run(&["scan", "--repo", root, "--format", fmt, "-j1"]);
        let b = run(&["scan", "--repo", root, "--format", fmt, "-j4"]);
        let c = run(&["scan", "--repo", root, "--format", fmt]);
        assert_eq!(a.stdout, b.stdout, "{fmt}: -j1 and -j4 differ");
        assert_eq!(a.stdout, c.stdout, "{fmt}: -j1 and default differ");
    }
    let a = run(&["scan-workspace", "fixtures", "--format", "json", "-j1"]);
    let b = run(&["scan-workspace", "fixtures", "--format", "json", "-j3"]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn colour_only_when_asked() {
    let o = run(&["scan", "--repo", "fixtures/demo"]);
    assert!(!o.stdout.contains(&0x1b), "colour on a pipe");
    let o = run(&["scan", "--repo", "fixtures/demo", "--color", "always"]);
    assert!(o.stdout.contains(&0x1b));
    let o = run(&["scan", "--repo", "fixtures/demo", "--color", "never"]);
    assert!(!o.stdout.contains(&0x1b));
    let o = bin()
        .args(["scan", "--repo", "fixtures/demo"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!o.stdout.contains(&0x1b));
}

#[test]
fn output_file_and_diagnostics_on_stderr() {
    let t = tempfile::tempdir().unwrap();
    let out = t.path().join("report.sarif");
    let o = run(&[
        "scan",
        "--repo",
        "fixtures/demo",
        "--format",
        "sarif",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains("report written to"));
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&out).unwrap()).unwrap();
    assert_eq!(v["version"], "2.1.0");
    // No temporary file is left behind.
    let names: Vec<_> = fs::read_dir(t.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    // An unwritable output location is an I/O error (exit 2).
    let o = run(&[
        "scan",
        "--repo",
        "fixtures/demo",
        "-o",
        "/definitely/not/here/report.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn hostile_text_is_sanitised_and_escaped() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join("skills/evil/SKILL.md"),
        "---\nname: \"evil\\e[31m|<img src=x>\\u202e\"\ndescription: x\n---\n[a](missing|<b>.md)\n",
    );
    let root = t.path().to_str().unwrap();
    let o = run(&["scan", "--repo", root]);
    let out = stdout(&o);
    assert!(!out.contains('\u{1b}'), "raw ESC in console output");
    assert!(
        !out.contains('\u{202e}'),
        "raw bidi control in console output"
    );
    assert!(out.contains("\\u{001B}"), "{out}");
    let o = run(&["scan", "--repo", root, "--format", "markdown"]);
    let md = stdout(&o);
    assert!(!md.contains("<img"), "{md}");
    assert!(md.contains("&lt;img"), "{md}");
    assert!(!md.contains('\u{1b}'));
    // JSON keeps the exact text (escaped by JSON itself).
    let v = json(&["scan", "--repo", root, "--format", "json"]);
    assert!(
        v["skills"][0]["frontmatter"]["name"]
            .as_str()
            .unwrap()
            .contains('\u{1b}')
    );
}

#[test]
fn single_skill_paths_and_skill_file_argument() {
    let v = json(&[
        "scan",
        "fixtures/demo/.claude/skills/expense-report",
        "--format",
        "json",
    ]);
    assert_eq!(v["skills"][0]["path"], "expense-report");
    let o2 = run(&[
        "scan",
        "fixtures/demo/.claude/skills/expense-report/SKILL.md",
        "--format",
        "json",
    ]);
    let v2: serde_json::Value = serde_json::from_slice(&o2.stdout).unwrap();
    assert_eq!(v["skills"], v2["skills"]);
    assert_eq!(v["findings"], v2["findings"]);
    assert_eq!(
        v["findings"][0]["location"]["path"],
        "expense-report/scripts/summarize.py"
    );
}

#[test]
fn workspace_reports_per_repository_and_survives_a_bad_repo() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "repo-a/.claude/skills/alpha", "alpha");
    skill(t.path(), "repo-b/.agents/skills/beta", "beta");
    skill(t.path(), "repo-b/skills/gamma", "gamma");
    fs::create_dir_all(t.path().join(".git")).unwrap();
    write(&t.path().join("notes.txt"), "not a repo");
    let root = t.path().to_str().unwrap();
    let o = run(&["scan-workspace", root, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["mode"], "workspace");
    assert_eq!(v["summary"]["hidden_entries_skipped"], 1);
    let repos = v["repositories"].as_array().unwrap();
    assert_eq!(repos.len(), 2);
    assert_eq!(repos[0]["repo"], "repo-a");
    assert_eq!(repos[0]["skills"], 1);
    assert_eq!(repos[1]["skills"], 2);
    let paths: Vec<&str> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "repo-a/.claude/skills/alpha",
            "repo-b/.agents/skills/beta",
            "repo-b/skills/gamma"
        ]
    );
    assert!(stderr(&o).contains("repo-a: 1 skill(s)"));
}

#[cfg(unix)]
#[test]
fn unreadable_repository_is_reported_and_others_continue() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "good/.claude/skills/alpha", "alpha");
    skill(t.path(), "locked/.claude/skills/beta", "beta");
    let locked = t.path().join("locked");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    let readable_anyway = fs::read_dir(&locked).is_ok(); // running as root
    let o = run(&[
        "scan-workspace",
        t.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let repos = v["repositories"].as_array().unwrap();
    assert_eq!(repos[0]["repo"], "good");
    assert_eq!(repos[0]["skills"], 1);
    if readable_anyway {
        eprintln!("note: running as root; permission denial cannot be exercised");
        assert_eq!(repos[1]["skills"], 1);
    } else {
        assert!(repos[1]["error"].is_string(), "{}", stdout(&o));
        assert!(
            v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["rule_id"] == "path-unreadable")
        );
    }
}

#[cfg(unix)]
#[test]
fn symlink_loops_escapes_and_deep_trees_are_bounded() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    skill(&repo, ".claude/skills/alpha", "alpha");
    // A loop back to an ancestor, a link out of the repository, a dangling link.
    symlink("../..", repo.join(".claude/skills/alpha/loop")).unwrap();
    write(&t.path().join("secret.txt"), "outside");
    symlink(
        "../../../../secret.txt",
        repo.join(".claude/skills/alpha/secret.txt"),
    )
    .unwrap();
    symlink("nowhere.md", repo.join(".claude/skills/alpha/gone.md")).unwrap();
    // A tree deeper than the bound.
    let mut deep = repo.join(".claude/skills/alpha/references");
    for i in 0..40 {
        deep = deep.join(format!("d{i}"));
    }
    fs::create_dir_all(&deep).unwrap();
    write(&deep.join("x.md"), "deep");
    let v = json(&[
        "scan",
        "--repo",
        repo.to_str().unwrap(),
        "--format",
        "json",
        "--max-depth",
        "8",
    ]);
    let rules: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule_id"].as_str().unwrap())
        .collect();
    for r in [
        "symlink-escapes-root",
        "symlink-dangling",
        "walk-limit-reached",
    ] {
        assert!(rules.contains(&r), "{r} missing from {rules:?}");
    }
    // The escaping target was never read: no hash recorded for it.
    let files = v["skills"][0]["files"].as_array().unwrap();
    let secret = files.iter().find(|f| f["path"] == "secret.txt").unwrap();
    assert!(secret["sha256"].is_null());
    assert_eq!(secret["symlink"]["state"], "escapes-root");
}

#[test]
fn many_sibling_folders_are_scanned() {
    let t = tempfile::tempdir().unwrap();
    let base = t.path().join("skills");
    for i in 0..2000 {
        fs::create_dir_all(base.join(format!("empty-{i:05}"))).unwrap();
    }
    skill(t.path(), "skills/real-one", "real-one");
    let o = run(&["scan", base.to_str().unwrap(), "--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["summary"]["skills"], 1);
    // The directory bound produces a finding when hit.
    let v = json(&[
        "scan",
        base.to_str().unwrap(),
        "--format",
        "json",
        "--max-dirs",
        "100",
    ]);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "walk-limit-reached")
    );
}

#[test]
fn rules_and_explain() {
    let o = run(&["rules"]);
    assert_eq!(o.status.code(), Some(0));
    let out = stdout(&o);
    for m in skillguard::catalog::all() {
        assert!(out.contains(m.id));
    }
    let o = run(&["explain", "name-directory-mismatch"]);
    assert!(stdout(&o).contains("## What it does"));
    // Each rule states its severity policy: a compliance rule follows the targets, a
    // security rule does not.
    assert!(
        stdout(&o).contains("\nSeverity: high by default. When the cause makes a harness drop")
            && stdout(&o).contains("high when the harness is a target of the repository"),
        "{}",
        stdout(&o)
    );
    let o = run(&["explain", "fetch-then-execute"]);
    assert!(
        stdout(&o).contains("\nSeverity: high by default. Raised when an `allowed-tools` grant"),
        "{}",
        stdout(&o)
    );
    let o = run(&["explain", "NameMismatchesDirectory"]);
    assert!(stdout(&o).starts_with("name-directory-mismatch"));
    let o = run(&["explain", "no-such-rule"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["rules", "--format", "markdown"]);
    assert_eq!(stdout(&o), fs::read_to_string("docs/rules.md").unwrap());
    let v = json(&["rules", "--format", "json"]);
    assert_eq!(
        v["rules"].as_array().unwrap().len(),
        skillguard::catalog::all().len()
    );
}

#[test]
fn quiet_shows_only_what_fails_the_gate() {
    let o = run(&[
        "scan",
        "--repo",
        "fixtures/demo",
        "--quiet",
        "--fail-on",
        "high",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("name-consecutive-hyphens"));
    assert!(!out.contains("script-requires-governance-review"), "{out}");
    assert!(o.stderr.is_empty());
}

#[test]
fn gitignore_is_off_by_default() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), ".claude/skills/hidden-one", "hidden-one");
    write(&t.path().join(".gitignore"), ".claude/\n");
    let root: PathBuf = t.path().to_path_buf();
    let v = json(&["scan", "--repo", root.to_str().unwrap(), "--format", "json"]);
    assert_eq!(
        v["summary"]["skills"], 1,
        "ignored skill must still be scanned by default"
    );
    let v = json(&[
        "scan",
        "--repo",
        root.to_str().unwrap(),
        "--format",
        "json",
        "--respect-gitignore",
    ]);
    assert_eq!(
        v["summary"]["skills"], 0,
        "--respect-gitignore must honour .gitignore"
    );
}

#[test]
fn skills_outside_conventions_are_found_and_reported() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), ".agents/skills/inside", "inside");
    skill(t.path(), "tools/outside", "outside");
    skill(t.path(), "node_modules/pkg/vendored", "vendored");
    skill(t.path(), ".claude/skills/node_modules", "node_modules");
    let root = t.path().to_str().unwrap();
    let v = json(&["scan", "--repo", root, "--format", "json"]);
    let paths: Vec<&str> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    // node_modules is skipped outside conventions, but a skill *named* node_modules under a convention is scanned.
    assert_eq!(
        paths,
        [
            ".agents/skills/inside",
            ".claude/skills/node_modules",
            "tools/outside"
        ]
    );
    let outside: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "skill-outside-conventions")
        .map(|f| f["skill_path"].as_str().unwrap())
        .collect();
    assert_eq!(outside, ["tools/outside"]);
    let v = json(&[
        "scan",
        "--repo",
        root,
        "--format",
        "json",
        "--conventions-only",
    ]);
    assert_eq!(v["summary"]["skills"], 2);
    // A plain path scan has no conventions, so the rule never fires there.
    let v = json(&[
        "scan",
        t.path().join("tools").to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["rule_id"] != "skill-outside-conventions")
    );
}

#[cfg(unix)]
#[test]
fn symlinked_convention_root_is_walked_under_its_own_path() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), ".agents/skills/shared", "shared");
    fs::create_dir_all(t.path().join(".claude")).unwrap();
    symlink("../.agents/skills", t.path().join(".claude/skills")).unwrap();
    for extra in [&[][..], &["--conventions-only"][..]] {
        let mut args = vec![
            "scan",
            "--repo",
            t.path().to_str().unwrap(),
            "--format",
            "json",
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let paths: Vec<&str> = v["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["path"].as_str().unwrap())
            .collect();
        assert_eq!(
            paths,
            [".agents/skills/shared", ".claude/skills/shared"],
            "{extra:?}"
        );
        let linked = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule_id"] == "symlinked-skill")
            .count();
        assert_eq!(linked, 1, "{extra:?}");
        assert_eq!(v["skills"][1]["convention"], ".claude/skills");
    }
}

#[cfg(unix)]
#[test]
fn output_to_a_fifo_is_written_through_and_a_symlink_is_replaced() {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, symlink};
    let t = tempfile::tempdir().unwrap();
    // A FIFO stands in for /dev/null or /dev/stdout: it must stay a FIFO.
    let fifo = t.path().join("out.fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(st.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut s = String::new();
            fs::File::open(&fifo)
                .unwrap()
                .read_to_string(&mut s)
                .unwrap();
            s
        })
    };
    let o = run(&[
        "scan",
        "--repo",
        "fixtures/demo",
        "--format",
        "json",
        "-o",
        fifo.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let got = reader.join().unwrap();
    assert!(got.contains("\"version\": 1"));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    // A symlink where the report goes (for instance planted in a scanned repository) is
    // replaced by the report; the file it pointed to is never written.
    let target = t.path().join("victim.txt");
    fs::write(&target, "precious").unwrap();
    let link = t.path().join("link.json");
    symlink(&target, &link).unwrap();
    let o = run(&[
        "scan",
        "--repo",
        "fixtures/demo",
        "--format",
        "json",
        "-o",
        link.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_file());
    assert!(
        fs::read_to_string(&link)
            .unwrap()
            .contains("\"version\": 1")
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "precious");
}

#[test]
fn plugin_roots_from_manifests_are_conventions() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "tools/web/skills/fetcher", "fetcher");
    write(
        &t.path().join("tools/web/.claude-plugin/plugin.json"),
        "{\"name\": \"web\"}",
    );
    skill(t.path(), "packs/data/skills/loader", "loader");
    skill(t.path(), "packs/evil/skills/escape", "escape");
    write(
        &t.path().join(".claude-plugin/marketplace.json"),
        r#"{"plugins": [{"name": "data", "source": "./packs/data"}, {"name": "x", "source": "../outside"}, {"name": "y", "source": 7}]}"#,
    );
    let v = json(&[
        "scan",
        "--repo",
        t.path().to_str().unwrap(),
        "--format",
        "json",
    ]);
    let conv: Vec<(String, serde_json::Value)> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["path"].as_str().unwrap().to_owned(),
                s["convention"].clone(),
            )
        })
        .collect();
    assert_eq!(
        conv,
        [
            (
                "packs/data/skills/loader".to_owned(),
                serde_json::json!("<plugin>/skills")
            ),
            (
                "packs/evil/skills/escape".to_owned(),
                serde_json::Value::Null
            ),
            (
                "tools/web/skills/fetcher".to_owned(),
                serde_json::json!("<plugin>/skills")
            ),
        ]
    );
}

/// Every line of the README's sample output is a line the demo really prints.
#[test]
fn readme_sample_output_is_real() {
    let readme = fs::read_to_string("README.md").unwrap();
    let start = readme.find("```text\nskillguard ").expect("sample block") + "```text\n".len();
    let block = &readme[start..start + readme[start..].find("```").unwrap()];
    let out = stdout(&run(&["scan", "--repo", "fixtures/demo"]));
    let lines: Vec<&str> = out.lines().collect();
    for l in block.lines().filter(|l| !l.is_empty()) {
        assert!(
            lines.contains(&l),
            "README sample line not in the demo output: {l}"
        );
    }
}

#[cfg(unix)]
#[test]
fn conventions_only_never_walks_out_through_an_intermediate_link() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    skill(&t.path().join("outside"), "skills/secret", "secret");
    let repo = t.path().join("repo");
    fs::create_dir_all(&repo).unwrap();
    symlink(t.path().join("outside"), repo.join(".claude")).unwrap();
    for extra in [&[][..], &["--conventions-only"][..]] {
        let mut args = vec!["scan", "--repo", repo.to_str().unwrap(), "--format", "json"];
        args.extend_from_slice(extra);
        let v = json(&args);
        assert_eq!(v["summary"]["skills"], 0, "{extra:?}: walked outside: {v}");
        assert!(
            v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["rule_id"] == "symlink-escapes-root"),
            "{extra:?}"
        );
    }
}

#[test]
fn huge_files_are_bounded_and_oversized_entry_files_still_parsed() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "sparse", "sparse");
    // A 1 TiB sparse file: never read to its end, never hashed.
    let f = fs::File::create(t.path().join("sparse/blob.bin")).unwrap();
    f.set_len(1 << 40).unwrap();
    drop(f);
    // An entry file over the limit is still parsed from its head.
    write(
        &t.path().join("Padded/SKILL.md"),
        &format!("---\nname: Totally--Wrong\n---\n{}", "x".repeat(5000)),
    );
    let started = std::time::Instant::now();
    let v = json(&[
        "scan",
        t.path().to_str().unwrap(),
        "--format",
        "json",
        "--max-file-size",
        "1000",
    ]);
    assert!(
        started.elapsed().as_secs() < 20,
        "a sparse file was read to its end"
    );
    let files = v["skills"][1]["files"].as_array().unwrap();
    let blob = files.iter().find(|f| f["path"] == "blob.bin").unwrap();
    assert!(blob["sha256"].is_null());
    assert_eq!(blob["size"], 1u64 << 40);
    let rules: Vec<(&str, &str)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule_id"].as_str().unwrap(),
                f["severity"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(
        rules.contains(&("name-consecutive-hyphens", "high")),
        "{rules:?}"
    );
    assert!(
        rules.contains(&("description-missing", "high")),
        "{rules:?}"
    );
    // What was not read is high; the size finding is attached to it (one cause, one finding).
    assert!(
        rules.contains(&("content-not-inspected", "high"))
            && !rules.contains(&("file-too-large", "medium")),
        "{rules:?}"
    );
    let reported = v["findings"].as_array().unwrap().iter().filter(|f| {
        f["rule_id"] == "content-not-inspected"
            && f["consequences"][0]["rule_id"] == "file-too-large"
    });
    assert_eq!(reported.count(), 2, "the blob and the oversized entry file");
}

#[cfg(unix)]
#[test]
fn an_unreadable_entry_file_is_always_a_high_finding() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    fs::create_dir_all(t.path().join("dirlink/inner")).unwrap();
    symlink("inner", t.path().join("dirlink/SKILL.md")).unwrap();
    fs::create_dir_all(t.path().join("gone")).unwrap();
    symlink("missing.md", t.path().join("gone/SKILL.md")).unwrap();
    let v = json(&["scan", t.path().to_str().unwrap(), "--format", "json"]);
    for s in v["skills"].as_array().unwrap() {
        assert_eq!(s["excluded"], true, "{s}");
        let path = format!("{}/SKILL.md", s["path"].as_str().unwrap());
        assert!(
            v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["location"]["path"] == path.as_str() && f["severity"] == "high"),
            "no high finding on {path}: {}",
            v["findings"]
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn exit_code_survives_closed_pipes_and_full_disks() {
    use std::io::Read;
    use std::process::Stdio;
    // Enough output (well over a pipe buffer) that the writer really hits the closed pipe.
    let t = tempfile::tempdir().unwrap();
    for i in 0..520 {
        write(
            &t.path().join(format!("skills/s{i:03}/SKILL.md")),
            &format!("---\nname: Bad_Name_{i}\ndescription: x\n---\n"),
        );
    }
    let root = t.path().to_str().unwrap();
    let sizes: Vec<usize> = ["console", "json", "sarif", "markdown"]
        .iter()
        .map(|f| {
            run(&[
                "scan",
                "--repo",
                root,
                "--format",
                f,
                "--max-findings-per-rule",
                "0",
            ])
            .stdout
            .len()
        })
        .collect();
    assert!(sizes.iter().all(|n| *n > 128 * 1024), "{sizes:?}");
    for fmt in ["console", "json", "sarif", "markdown"] {
        // The reader stops after a few bytes; the gate result must still decide the exit code.
        let mut child = bin()
            // Every harness a target: the bad names are high (`name-invalid-chars`).
            .args([
                "scan",
                "--repo",
                root,
                "--format",
                fmt,
                "--fail-on",
                "high",
                "--targets",
                "all",
                "--max-findings-per-rule",
                "0",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut buf = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut buf).unwrap();
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{fmt}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A report that cannot be written is an I/O error (2), whatever the findings.
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = bin()
        .args(["scan", "--repo", root, "--fail-on", "high"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&[
        "scan",
        "--repo",
        root,
        "--format",
        "json",
        "-o",
        "/dev/full",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn fingerprints_are_unique_and_columns_count_code_points() {
    let t = tempfile::tempdir().unwrap();
    write(
        &t.path().join("colx/SKILL.md"),
        "---\nname: colx\ndescription: x\n---\nééééé [a](missing.md)\n[a](missing.md) [a](missing.md)\n",
    );
    let v = json(&["scan", t.path().to_str().unwrap(), "--format", "json"]);
    let broken: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "file-reference-broken")
        .collect();
    assert_eq!(broken.len(), 3);
    assert_eq!(broken[0]["location"]["column"], 7);
    let fps: std::collections::BTreeSet<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["fingerprint"].as_str().unwrap())
        .collect();
    assert_eq!(fps.len(), v["findings"].as_array().unwrap().len());
}

#[test]
fn hitting_the_directory_bound_is_deterministic() {
    let t = tempfile::tempdir().unwrap();
    for i in 0..30 {
        skill(t.path(), &format!("d{i:02}/s{i:02}"), &format!("s{i:02}"));
        for j in 0..20 {
            fs::create_dir_all(t.path().join(format!("d{i:02}/x{j:02}"))).unwrap();
        }
    }
    let root = t.path().to_str().unwrap();
    let first = run(&["scan", root, "--format", "json", "--max-dirs", "100", "-j1"]).stdout;
    for _ in 0..5 {
        let again = run(&["scan", root, "--format", "json", "--max-dirs", "100", "-j2"]).stdout;
        assert_eq!(
            first, again,
            "output depends on thread scheduling when the bound is hit"
        );
    }
    let v: serde_json::Value = serde_json::from_slice(&first).unwrap();
    let limit: Vec<&serde_json::Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "walk-limit-reached")
        .collect();
    assert_eq!(limit.len(), 1);
    // Sorted order: the first directories in name order are the ones scanned.
    assert_eq!(v["skills"][0]["path"], "d00/s00");
}

#[cfg(unix)]
#[test]
fn many_links_to_one_folder_are_bounded() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "s", "s");
    fs::create_dir_all(t.path().join("s/data")).unwrap();
    for i in 0..2000 {
        fs::File::create(t.path().join(format!("s/data/f{i}"))).unwrap();
    }
    for i in 0..100 {
        symlink("data", t.path().join(format!("s/l{i:03}"))).unwrap();
    }
    let started = std::time::Instant::now();
    let v = json(&["scan", t.path().to_str().unwrap(), "--format", "json"]);
    assert!(started.elapsed().as_secs() < 60);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "walk-limit-reached")
    );
    let files = v["skills"][0]["files"].as_array().unwrap().len();
    assert!(
        files <= skillguard::discover::MAX_LINK_ENTRIES + 2200,
        "{files}"
    );
}

/// The demo shows at least one finding of every security family.
#[test]
fn demo_shows_every_security_family() {
    let v = json(&["scan", "--repo", "fixtures/demo", "--format", "json"]);
    // A finding attached to its cause as a consequence (one cause, one finding) counts.
    let seen: std::collections::BTreeSet<String> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| {
            let mut ids = vec![f["rule_id"].as_str().unwrap_or("").to_owned()];
            if let Some(cs) = f["consequences"].as_array() {
                ids.extend(
                    cs.iter()
                        .filter_map(|c| c["rule_id"].as_str().map(str::to_owned)),
                );
            }
            ids
        })
        .filter_map(|id| skillguard::catalog::get(&id).map(|m| m.category.to_owned()))
        .filter(|c| c.starts_with("security/"))
        .collect();
    for family in [
        "security/hidden-unicode",
        "security/prompt-injection",
        "security/execution",
        "security/exfiltration",
        "security/obfuscation",
        "security/secrets",
        "security/packaging",
        "security/permissions",
        "security/supply-chain",
    ] {
        assert!(
            seen.contains(family),
            "no `{family}` finding in the demo: {seen:?}"
        );
    }
}

/// `--quiet` lists only what fails the gate, but its header and summary
/// still count everything (no "0 skill(s)" or "no findings" while findings exist).
#[test]
fn quiet_counts_stay_whole() {
    let full = json(&["scan", "--repo", "fixtures/demo", "--format", "json"]);
    let skills = full["summary"]["skills"].as_u64().unwrap();
    let total = full["findings"].as_array().unwrap().len();
    assert!(skills > 0 && total > 0);
    for gate in [&["--fail-on", "critical"][..], &[]] {
        let mut args = vec!["scan", "--repo", "fixtures/demo", "--quiet"];
        args.extend_from_slice(gate);
        let o = run(&args);
        let out = stdout(&o);
        assert!(
            out.lines()
                .next()
                .unwrap()
                .contains(&format!(" · {skills} skills")),
            "{out}"
        );
        let last = out.lines().last().unwrap();
        assert!(last.starts_with(&format!("{total} findings (")), "{last}");
        let summary = out.lines().find(|l| l.starts_with("  findings: ")).unwrap();
        assert!(
            summary.contains(&format!("  findings:   {total} (")),
            "{summary}"
        );
        assert_eq!(
            summary.contains("not listed: --quiet"),
            !gate.is_empty(),
            "{summary}"
        );
    }
}

/// skills-ref's messages reach JSON whole (they used to be cut at 200 characters).
#[test]
fn upstream_loader_messages_are_whole_in_json() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("long-fields");
    let extra: String = (0..12)
        .map(|i| format!("custom-field-number-{i}: x\n"))
        .collect();
    write(
        &d.join("SKILL.md"),
        &format!(
            "---\nname: long-fields\ndescription: Checks things. Use when asked.\n{extra}---\n\n# Long\n"
        ),
    );
    let v = json(&["scan", t.path().to_str().unwrap(), "--format", "json"]);
    let text = v.to_string();
    assert!(
        text.contains("custom-field-number-11") && text.contains("are allowed."),
        "{text}"
    );
}
