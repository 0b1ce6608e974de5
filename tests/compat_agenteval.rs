//! `--compat agenteval`: the reference's samples (§7.4–7.6) reproduced byte for byte from real
//! scans, and its CLI conformance rows (§8.8: formats, exit codes, `--repo`, drift, workspaces).

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use common::{stderr as err, stdout as out, write};

fn skill(dir: &Path, name: &str, body: &str) {
    write(
        &dir.join("SKILL.md"),
        &format!("---\nname: {name}\ndescription: Summarise {name} documents.\n---\n{body}\n"),
    );
}

/// `scan --repo . --compat agenteval --format json` in `dir`, with `extra` arguments.
fn repo_json(dir: &Path, extra: &[&str]) -> Output {
    let mut a = vec![
        "scan",
        "--repo",
        ".",
        "--compat",
        "agenteval",
        "--format",
        "json",
    ];
    a.extend_from_slice(extra);
    common::run_in(dir, &a)
}

const GOV: &str = "Skill \\u0027expense-report\\u0027 exposes 1 script(s) reachable via run_skill_script \\u2014 recommend registering SkillScriptExecutionGate/SkillScriptApprovalGate (Phase 3) before allowing this skill in production.";

/// The §7.6 sample: one skill with a resource and a script.
#[test]
fn json_sample_byte_for_byte() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("skills");
    let s = root.join("expense-report");
    skill(&s, "expense-report", "# Expense report");
    write(&s.join("resources/policy.md"), "# Policy\n");
    write(&s.join("scripts/summarize.py"), "print('ok')\n");
    let o = common::run_in(
        t.path(),
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let want = format!(
        r#"{{
  "Findings": [
    {{
      "SkillName": "expense-report",
      "Rule": 8,
      "Severity": 1,
      "Message": "{GOV}",
      "Field": null
    }}
  ],
  "Coverage": {{
    "SkillCount": 1,
    "WithResources": 1,
    "WithScripts": 1,
    "StageHistogram": {{
      "load": 1,
      "read": 1,
      "run": 1
    }},
    "SilentlyExcludedCount": 0
  }},
  "IsCompliant": true
}}
"#
    );
    assert_eq!(out(&o), want);
    // Our further findings are left out and counted in one note (the demo holds security
    // findings AgentEval has no rule for).
    let demo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = common::run_in(
        demo,
        &["scan", "--repo", "fixtures/demo", "--compat", "agenteval"],
    );
    assert!(
        err(&d).contains("--compat agenteval: ") && err(&d).contains("not in this report"),
        "{}",
        err(&d)
    );
    // The same from the configuration file, and `-o` holds the document without the extra
    // line end of Console.WriteLine.
    write(
        &t.path().join(".skillguard.toml"),
        "compat = \"agenteval\"\n",
    );
    let o = common::run_in(
        t.path(),
        &[
            "scan",
            "skills",
            "--config",
            ".skillguard.toml",
            "--format",
            " JSON ",
        ],
    );
    assert_eq!(out(&o), want);
    let o = common::run_in(
        t.path(),
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--format",
            "json",
            "-o",
            "r.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        fs::read_to_string(t.path().join("r.json")).unwrap(),
        want.trim_end()
    );
    assert!(err(&o).contains("  Report written to: "), "{}", err(&o));
}

/// The §7.4 and §7.5 samples: an excluded `bad--hyphen` with provenance from a lock file, and
/// `expense-report` with a script and a resource.
#[test]
fn console_and_markdown_samples_byte_for_byte() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("skills");
    let s = root.join("expense-report");
    skill(&s, "expense-report", "# Expense report");
    write(&s.join("resources/policy.md"), "# Policy\n");
    write(&s.join("scripts/summarize.py"), "print('ok')\n");
    skill(&root.join("bad--hyphen"), "bad--hyphen", "# Bad");
    write(
        &root.join("skills-lock.json"),
        r#"{"version": 1, "skills": {"bad--hyphen": {"source": "chillicream/agent-skills", "ref": "a1b2c3d"}}}"#,
    );
    let full = fs::canonicalize(&root).unwrap().join("bad--hyphen");
    let excl = format!(
        "Skill folder '{}' will NEVER be loaded — MAF excludes it silently because: Skill name 'bad--hyphen' contains consecutive hyphens — GA disallows '--'. This is not a warning; the skill is non-functional as authored.",
        full.display()
    );
    let gov = GOV.replace("\\u0027", "'").replace("\\u2014", "—");
    let dir = fs::canonicalize(t.path()).unwrap();
    let o = common::run_in(&dir, &["scan", "skills", "--compat", "agenteval"]);
    let want = format!(
        "Skill Compliance Report
========================
Skills scanned: 1 | with resources: 1 | with scripts: 1
Compliant: NO (2 finding(s))
!! SILENTLY EXCLUDED BY MAF: 1 skill folder(s) on disk will NEVER load — see SkillExcludedFromDiscovery findings below.

[High] bad--hyphen — SkillExcludedFromDiscovery: {excl} → from chillicream/agent-skills@a1b2c3d
[Medium] expense-report — ScriptRequiresGovernanceReview: {gov}

Stage reachability (static — 'advertise' is not a tool call, never counted):
  load: 1
  read: 1
  run: 1

"
    );
    assert_eq!(out(&o), want, "{}", err(&o));
    assert_eq!(o.status.code(), Some(0));
    // Markdown cells are escaped as skillguard's own Markdown escapes scanned text
    // (`text::escape_markdown`), the one deliberate difference from AgentEval's bytes
    // (docs/migrating-from-agenteval.md): parentheses, underscores, `@` and the like.
    let md = |s: &str| skillguard::text::escape_markdown(s);
    let (excl_md, gov_md) = (md(&excl), md(&gov));
    let source_md = md("chillicream/agent-skills@a1b2c3d");
    assert!(gov_md.contains("script\\(s\\)"), "{gov_md}");
    for fmt in ["markdown", "md", "MD"] {
        let o = common::run_in(
            &dir,
            &["scan", "skills", "--compat", "agenteval", "--format", fmt],
        );
        let want = format!(
            "# Skill Compliance Report

**Skills scanned:** 1 · **with resources:** 1 · **with scripts:** 1

**Compliant:** ❌ NO (2 finding(s))

> ⚠️ **SILENTLY EXCLUDED BY MAF:** 1 skill folder(s) on disk will NEVER load — see `SkillExcludedFromDiscovery` findings below.

## Coverage

| Stage | Reachable skills |
|---|---:|
| load | 1 |
| read | 1 |
| run | 1 |

## Findings

| Severity | Skill | Rule | Message | Source |
|---|---|---|---|---|
| High | bad--hyphen | SkillExcludedFromDiscovery | {excl_md} | {source_md} |
| Medium | expense-report | ScriptRequiresGovernanceReview | {gov_md} | |

"
        );
        assert_eq!(out(&o), want, "{fmt}");
    }
    // With a lock file, every JSON finding carries `Provenance`, null when it has none.
    let o = common::run_in(
        &dir,
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let f = v["Findings"].as_array().unwrap();
    assert!(
        f.iter()
            .any(|x| x["Provenance"].is_null() && x["Rule"] == 8)
    );
    assert!(
        f.iter()
            .any(|x| x["Provenance"]["Source"] == "chillicream/agent-skills"
                && x["Provenance"]["Ref"] == "a1b2c3d"
                && x["Provenance"]["SourceUrl"].is_null())
    );
    // C06: High + --fail-on-noncompliant → 1.
    let o = common::run_in(
        &dir,
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--fail-on-noncompliant",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
}

/// §8.8 C02–C06: exit codes and formats.
#[test]
fn exit_codes_and_formats() {
    let t = tempfile::tempdir().unwrap();
    let s = t.path().join("skills/expense-report");
    skill(&s, "expense-report", "# E");
    write(&s.join("scripts/run.sh"), "echo hi\n");
    // C02: a missing path is AgentEval's runtime error, exit 3, `  Error: …`.
    let o = common::run_in(t.path(), &["scan", "nope", "--compat", "agenteval"]);
    assert_eq!(o.status.code(), Some(3), "{}", err(&o));
    assert!(err(&o).starts_with("  Error: "), "{}", err(&o));
    // C03: an unknown format is exit 3 naming --format (after the scan, as AgentEval);
    // without compat it is refused before the scan with exit 2.
    let o = common::run_in(
        t.path(),
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--format",
            "yaml",
        ],
    );
    assert_eq!(o.status.code(), Some(3));
    assert!(
        err(&o).starts_with("  Error: Unknown --format 'yaml'"),
        "{}",
        err(&o)
    );
    let o = common::run_in(t.path(), &["scan", "skills", "--format", "yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    // C04: every format to -o, names without regard to case.
    for fmt in ["console", "markdown", "md", "json", "Json"] {
        let o = common::run_in(
            t.path(),
            &[
                "scan",
                "skills",
                "--compat",
                "agenteval",
                "--format",
                fmt,
                "-o",
                "out.txt",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{fmt}: {}", err(&o));
        assert!(fs::metadata(t.path().join("out.txt")).unwrap().len() > 0);
    }
    // C05/C06: Medium only + --fail-on-noncompliant → 0; without the flag → 0.
    let o = common::run_in(
        t.path(),
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--fail-on-noncompliant",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    // `--format MD` is an alias outside compat too.
    let o = common::run_in(t.path(), &["scan", "skills", "--format", "MD"]);
    assert!(out(&o).contains("## "), "{}", out(&o));
    // No merge under compat (AgentEval has none): a usage error.
    let o = common::run_in(t.path(), &["merge", "x.json", "--compat", "agenteval"]);
    assert_eq!(o.status.code(), Some(2));
}

/// §8.8 C12–C15: `--repo` over AgentEval's conventions, and cross-location drift.
#[test]
fn repo_conventions_and_drift() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    skill(&r.join(".claude/skills/skill-a"), "skill-a", "A");
    skill(&r.join(".agents/skills/skill-b"), "skill-b", "B");
    // Not an AgentEval convention: not in its report.
    skill(&r.join(".github/skills/skill-c"), "skill-c", "C");
    let json = |args: &[&str]| -> serde_json::Value {
        let o = common::run_in(r, args);
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", err(&o)))
    };
    let v = json(&[
        "scan",
        "--repo",
        ".",
        "--compat",
        "agenteval",
        "--format",
        "json",
    ]);
    assert_eq!(v["Coverage"]["SkillCount"], 2);
    // §3.1: the per-convention summary on stderr, in AgentEval's order.
    let e = err(&common::run_in(
        r,
        &["scan", "--repo", ".", "--compat", "agenteval"],
    ));
    assert!(
        e.contains("  Repo-wide skill directory conventions:\n    .claude/skills: 1 skill(s), 0 finding(s)\n    .agents/skills: 1 skill(s), 0 finding(s)\n    .windsurf/skills: not present\n"),
        "{e}"
    );
    // C14/C15: the same name with different bodies is drift; identical bodies are not.
    skill(&r.join(".cursor/skills/skill-a"), "skill-a", "A, changed");
    let o = common::run_in(
        r,
        &[
            "scan",
            "--repo",
            ".",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert!(
        text.contains("DIFFERENT content across 2 location(s): .claude/skills/skill-a ("),
        "{text}"
    );
    assert!(
        text.contains("\"Rule\": 12") && text.contains("\"SkillName\": \"skill-a\""),
        "{text}"
    );
    skill(&r.join(".cursor/skills/skill-a"), "skill-a", "A");
    let text = out(&common::run_in(
        r,
        &[
            "scan",
            "--repo",
            ".",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    ));
    assert!(!text.contains("DIFFERENT content"), "{text}");
    // C13: no convention → exit 0, nothing scanned, an empty histogram.
    let empty = tempfile::tempdir().unwrap();
    let o = common::run_in(
        empty.path(),
        &[
            "scan",
            "--repo",
            ".",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["Coverage"]["SkillCount"], 0);
    assert_eq!(v["Coverage"]["StageHistogram"], serde_json::json!({}));
}

/// §8.8 C33–C36: workspaces.
#[test]
fn workspaces() {
    let t = tempfile::tempdir().unwrap();
    let w = t.path().join("ws");
    skill(&w.join("repo-a/.claude/skills/skill-a"), "skill-a", "A");
    skill(&w.join("repo-b/.claude/skills/skill-b"), "skill-b", "B");
    fs::create_dir_all(w.join(".git")).unwrap();
    let o = common::run_in(
        t.path(),
        &[
            "scan-workspace",
            "ws",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["Coverage"]["SkillCount"], 2);
    // C35: the same name in two repositories with different content.
    skill(
        &w.join("repo-b/.claude/skills/skill-a"),
        "skill-a",
        "A, elsewhere",
    );
    let text = out(&common::run_in(
        t.path(),
        &[
            "scan-workspace",
            "ws",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    ));
    assert!(
        text.contains("repo-a/.claude/skills/skill-a (") && text.contains("DIFFERENT content"),
        "{text}"
    );
    // C33: a missing workspace is exit 3; an empty one has no skill.
    let o = common::run_in(
        t.path(),
        &["scan-workspace", "missing", "--compat", "agenteval"],
    );
    assert_eq!(o.status.code(), Some(3));
    fs::create_dir_all(t.path().join("empty")).unwrap();
    let o = common::run_in(
        t.path(),
        &[
            "scan-workspace",
            "empty",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    assert!(out(&o).contains("\"SkillCount\": 0"), "{}", out(&o));
}

/// §2.3 (a): a `compatibility` over 500 characters makes MAF throw for the whole root: one
/// `(discovery failure)` finding, nothing counted as silently excluded.
#[test]
fn a_discovery_failure_is_one_finding_for_the_root() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("skills");
    skill(&root.join("fine"), "fine", "F");
    write(
        &root.join("long/SKILL.md"),
        &format!(
            "---\nname: long\ndescription: d\ncompatibility: {}\n---\nx\n",
            "c".repeat(501)
        ),
    );
    let o = common::run_in(
        t.path(),
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let f = v["Findings"].as_array().unwrap();
    assert_eq!(f.len(), 1, "{v}");
    assert_eq!(f[0]["SkillName"], "(discovery failure)");
    assert_eq!(
        (f[0]["Rule"].as_u64(), f[0]["Severity"].as_u64()),
        (Some(11), Some(2))
    );
    assert!(
        f[0]["Message"]
            .as_str()
            .unwrap()
            .contains("failed entirely")
    );
    assert_eq!(v["Coverage"]["SkillCount"], 0);
    assert_eq!(v["Coverage"]["SilentlyExcludedCount"], 0);
    assert_eq!(v["IsCompliant"], false);
}

/// §8.8 C07–C09, C17, C18, C37: `--write-baseline` writes AgentEval's snapshot in its ledger
/// (relative to the working directory), `--check-baseline` reads it back as trust on first
/// use, and `baseline list --compat agenteval` shows it.
#[test]
fn ledger_write_and_check_baseline() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    skill(&r.join(".claude/skills/skill-a"), "skill-a", "A");
    let scan = |extra: &[&str]| repo_json(r, extra);
    // C08: no --write-baseline, no ledger.
    scan(&[]);
    assert!(!r.join(".agenteval").exists());
    // C07: one snapshot, the entry with both hashes and SourceKind 0.
    let o = scan(&["--write-baseline"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("  Baseline snapshot saved: "),
        "{}",
        err(&o)
    );
    let dir = r.join(".agenteval/skills-baselines");
    let files: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    let snap: serde_json::Value = serde_json::from_slice(&fs::read(&files[0]).unwrap()).unwrap();
    let e = &snap["Skills"][0];
    assert_eq!(e["Name"], "skill-a");
    assert_eq!(e["SourceKind"], 0);
    assert_eq!(e["RelativePath"], ".claude/skills/skill-a");
    assert_eq!(e["StructuralFingerprint"].as_str().unwrap().len(), 64);
    assert_eq!(e["ContentHash"].as_str().unwrap().len(), 64);
    assert!(std::path::Path::new(snap["ScannedRoot"].as_str().unwrap()).is_absolute());
    // C17: unchanged → "byte-identical to a previously-captured baseline snapshot".
    let text = out(&scan(&["--check-baseline"]));
    assert!(
        text.contains("byte-identical to a previously-captured baseline snapshot")
            && text.contains("\"Rule\": 13"),
        "{text}"
    );
    // C09: list shows it.
    let o = common::run_in(r, &["baseline", "list", "--compat", "agenteval"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).lines().count() >= 2, "{}", out(&o));
    // C18: after a change, no such text.
    skill(&r.join(".claude/skills/skill-a"), "skill-a", "A, changed");
    let text = out(&scan(&["--check-baseline"]));
    assert!(!text.contains("byte-identical"), "{text}");
    // C37: scan-workspace has a ledger of its own.
    let w = tempfile::tempdir().unwrap();
    skill(&w.path().join("ws/repo-a/.claude/skills/x"), "x", "X");
    let o = common::run_in(
        w.path(),
        &[
            "scan-workspace",
            "ws",
            "--compat",
            "agenteval",
            "--write-baseline",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        w.path()
            .join(".agenteval/skills-baselines-workspace")
            .is_dir()
    );
    assert!(!w.path().join(".agenteval/skills-baselines").exists());
}

/// `--format md` and names in any case are accepted by every command with a Markdown format.
#[test]
fn md_and_any_case_everywhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for args in [
        &["rules", "--format", "MD"][..],
        &["rules", "--format", "Json"],
        &[
            "evals",
            "grade",
            "--strict",
            "fixtures/evals/grade/evals.json",
            "--outputs",
            "fixtures/evals/grade/outputs",
            "-k",
            "3",
            "--format",
            "md",
        ],
        &["coverage", "--repo", "fixtures/demo", "--format", "Md"],
        &["scan", "--repo", "fixtures/demo", "--format", " MarkDown "],
    ] {
        let o = common::run_in(root, args);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "{args:?}: {}",
            err(&o)
        );
        assert!(!o.stdout.is_empty(), "{args:?}");
    }
}

/// §5.4 and §8.8 C29–C32: the pin file is AgentEval's `SkillManifestBaseline`, and a changed
/// manifest is `ManifestChangedSinceBaseline` (High): exit 1 with `--fail-on-noncompliant`.
#[test]
fn pin_file_in_agenteval_format() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    skill(&r.join(".claude/skills/skill-a"), "skill-a", "A");
    skill(&r.join(".claude/skills/skill-b"), "skill-b", "B");
    let scan = |extra: &[&str]| repo_json(r, extra);
    let o = scan(&[
        "--save-manifest-baseline",
        "pins/skills-baseline.json",
        "--baseline-note",
        "reviewed",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("  Manifest baseline saved: "),
        "{}",
        err(&o)
    );
    let pin = fs::read_to_string(r.join("pins/skills-baseline.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&pin).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), 4, "{pin}");
    assert!(
        pin.starts_with("{\n  \"CapturedAt\": \"")
            && pin.contains("+00:00\",\n  \"HashesBySkillName\": {\n"),
        "{pin}"
    );
    assert!(
        pin.ends_with("\"Notes\": \"reviewed\",\n  \"ContentHashesBySkillName\": null\n}"),
        "{pin}"
    );
    assert_eq!(
        v["HashesBySkillName"].as_object().unwrap().len(),
        2,
        "{pin}"
    );
    assert_eq!(
        v["HashesBySkillName"]["skill-a"].as_str().unwrap().len(),
        64,
        "{pin}"
    );
    // C31: unchanged → 0; C30: a changed description → High finding, exit 1.
    let o = scan(&[
        "--manifest-baseline",
        "pins/skills-baseline.json",
        "--fail-on-noncompliant",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    write(
        &r.join(".claude/skills/skill-b/SKILL.md"),
        "---\nname: skill-b\ndescription: Now does something else.\n---\nB\n",
    );
    let o = scan(&[
        "--manifest-baseline",
        "pins/skills-baseline.json",
        "--fail-on-noncompliant",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    let text = out(&o);
    assert!(
        text.contains("\"Rule\": 14")
            && text.contains("manifest content changed since the trust-time baseline"),
        "{text}"
    );
}

/// §8.8 C25–C27: manifest drift compares the first loaded entry of each lower-cased name; an
/// excluded skill is "removed" (no finding); a null or malformed pinned value is a finding.
#[test]
fn manifest_drift_first_entry_and_malformed_pins() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    skill(&r.join(".claude/skills/shared"), "shared", "first");
    skill(&r.join(".cursor/skills/shared"), "shared", "second");
    skill(&r.join(".claude/skills/excl"), "excl", "E");
    let scan = |extra: &[&str]| repo_json(r, extra);
    let o = scan(&["--save-manifest-baseline", "pin.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // The second copy changes (AgentEval compares the first only) and `excl` is now
    // excluded by MAF (a name that does not match its folder) with a new description.
    write(
        &r.join(".cursor/skills/shared/SKILL.md"),
        "---\nname: shared\ndescription: Something else entirely.\n---\nx\n",
    );
    write(
        &r.join(".claude/skills/excl/SKILL.md"),
        "---\nname: Excl\ndescription: Changed.\n---\nx\n",
    );
    let text = out(&scan(&["--manifest-baseline", "pin.json"]));
    assert!(!text.contains("\"Rule\": 14"), "{text}");
    // C27: a null pinned value.
    let pin = fs::read_to_string(r.join("pin.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&pin).unwrap();
    let hash = v["HashesBySkillName"]["shared"]
        .as_str()
        .unwrap()
        .to_owned();
    fs::write(
        r.join("pin.json"),
        pin.replace(&format!("\"{hash}\""), "null"),
    )
    .unwrap();
    let o = scan(&["--manifest-baseline", "pin.json", "--fail-on-noncompliant"]);
    let text = out(&o);
    assert!(
        text.contains("\"Rule\": 14") && text.contains("malformed"),
        "{text}{}",
        err(&o)
    );
    assert_eq!(o.status.code(), Some(1));
}

/// A scan of one excluded skill's own folder names that folder once; the stderr note counts
/// only what the report leaves out; a missing <path> is a parse error (2), a missing folder
/// AgentEval's "Skills directory not found" (3).
#[test]
fn single_skill_scans_notes_and_missing_paths() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path().join("bad--hyphen");
    skill(&d, "bad--hyphen", "B");
    let dir = fs::canonicalize(t.path()).unwrap();
    let o = common::run_in(
        &dir,
        &[
            "scan",
            "bad--hyphen",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    let text = out(&o);
    let want = format!(
        "Skill folder \\u0027{}\\u0027",
        dir.join("bad--hyphen").display()
    );
    assert!(text.contains(&want), "{text}");
    // Every native finding here has an AgentEval counterpart: no note.
    assert!(!err(&o).contains("not in this report"), "{}", err(&o));
    let o = common::run_in(&dir, &["scan", "--compat", "agenteval"]);
    assert_eq!(o.status.code(), Some(2));
    let o = common::run_in(&dir, &["scan", "missing", "--compat", "agenteval"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        err(&o).starts_with("  Error: Skills directory not found: "),
        "{}",
        err(&o)
    );
}

/// §7.6: with a non-empty `skills-lock.json`, every finding has `Provenance`, `null` when the
/// lock names none of the scanned skills.
#[test]
fn provenance_is_null_padded_for_a_non_empty_lock() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("skills");
    let s = root.join("expense-report");
    skill(&s, "expense-report", "# E");
    write(&s.join("scripts/run.py"), "print(1)\n");
    write(
        &root.join("skills-lock.json"),
        r#"{"version": 1, "skills": {"unrelated": {"source": "org/x", "ref": "v1"}}}"#,
    );
    let o = common::run_in(
        t.path(),
        &[
            "scan",
            "skills",
            "--compat",
            "agenteval",
            "--format",
            "json",
        ],
    );
    let text = out(&o);
    assert!(
        text.contains("\"Field\": null,\n      \"Provenance\": null\n"),
        "{text}{}",
        err(&o)
    );
}

/// A skill name is the author's text: in compat Markdown (job summaries, PR comments) it is
/// escaped as the native Markdown renderer escapes it, never raw HTML, a live link, an
/// image or a new table column.
#[test]
fn hostile_skill_names_are_escaped_in_compat_markdown() {
    let t = tempfile::tempdir().unwrap();
    let hostile = [
        "<img src=x onerror=alert(1)>",
        "[click](https://evil.example/x)",
        "![i](https://evil.example/i.png)",
        "a | b | c",
    ];
    for (i, name) in hostile.iter().enumerate() {
        write(
            &t.path().join(format!("skills/s{i}/SKILL.md")),
            &format!("---\nname: \"{name}\"\ndescription: Use it.\n---\nBody.\n"),
        );
    }
    let o = common::run_in(
        t.path(),
        &["scan", "skills", "--compat", "agenteval", "--format", "md"],
    );
    let md = out(&o);
    assert!(md.contains("## Findings"), "{md}\n{}", err(&o));
    for raw in ["<img", "onerror=alert(1)>", "](https://", "![i]", "a | b"] {
        assert!(!md.contains(raw), "{raw} raw in:\n{md}");
    }
    assert!(
        md.contains("&lt;img src=x onerror=alert\\(1\\)&gt;"),
        "{md}"
    );
    assert!(md.contains("a \\| b \\| c"), "{md}");
    // Every findings row still has its five cells.
    for row in md
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("Skill"))
    {
        let unescaped = row.replace("\\|", "");
        assert_eq!(unescaped.matches('|').count(), 6, "{row}");
    }
}

/// `--compat agenteval --write-baseline` writes to `.agenteval/…` under the current
/// directory; a `.agenteval` link the scanned repository planted there is refused (exit 3,
/// AgentEval's runtime error, naming it), never followed, and so is a link on the way to a
/// compat pin file; nothing is written outside.
#[cfg(unix)]
#[test]
fn a_planted_agenteval_link_is_never_written_through() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    skill(&repo.join(".claude/skills/skill-a"), "skill-a", "A");
    let outside = t.path().join("outside");
    fs::create_dir_all(&outside).unwrap();
    let compat_scan = |extra: &[&str]| {
        let mut a = vec!["scan", "--repo", ".", "--compat", "agenteval"];
        a.extend_from_slice(extra);
        common::run_in(&repo, &a)
    };
    let refused = |o: &Output, link: &str| {
        assert_eq!(o.status.code(), Some(3), "{}", err(o));
        assert!(
            err(o).contains(&format!("{link} is a symbolic link")),
            "{}",
            err(o)
        );
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
    };
    std::os::unix::fs::symlink(&outside, repo.join(".agenteval")).unwrap();
    refused(&compat_scan(&["--write-baseline"]), ".agenteval");
    // The same through a link deeper down, and on the way to a pin file.
    fs::remove_file(repo.join(".agenteval")).unwrap();
    fs::create_dir_all(repo.join(".agenteval")).unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(".agenteval/skills-baselines")).unwrap();
    refused(&compat_scan(&["--write-baseline"]), "skills-baselines");
    std::os::unix::fs::symlink(&outside, repo.join("pins")).unwrap();
    let pin = ["--save-manifest-baseline", "pins/manifest.json"];
    refused(&compat_scan(&pin), "pins");
    // A folder of the operator's outside the repository may be a link.
    let real = t.path().join("real-ledger");
    fs::create_dir_all(&real).unwrap();
    std::os::unix::fs::symlink(&real, t.path().join("ledger-link")).unwrap();
    let root = t.path().join("ledger-link/skills-baselines");
    let o = compat_scan(&[
        "--write-baseline",
        "--baseline-root",
        root.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        fs::read_dir(real.join("skills-baselines")).unwrap().count(),
        1
    );
}
