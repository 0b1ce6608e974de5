//! Eval files: every format found and validated at its place, tied
//! to the skill or agent it evaluates, and `skillguard coverage` over them.

mod common;

use std::path::Path;

use serde_json::Value;

fn json(args: &[&str]) -> (Option<i32>, Value) {
    let o = common::bin().args(args).output().unwrap();
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    (o.status.code(), v)
}

const FILES: &str = "fixtures/evals/files";

/// (rule, path, line, column) of every planted problem in `fixtures/evals/files`.
const PLANTED: &[(&str, &str, u64, u64)] = &[
    ("eval-file-invalid", ".github/agents/evals.json", 2, 14),
    ("eval-target-missing", "evals/ghost/eval.yaml", 2, 8),
    ("eval-file-invalid", "evals/ghost/eval.yaml", 4, 5),
    ("eval-file-invalid", "evals/planner/eval.yaml", 5, 20),
    ("eval-file-invalid", "evals/planner/eval.yaml", 11, 5),
    ("eval-file-invalid", "evals/planner/eval.yaml", 15, 15),
    ("eval-file-invalid", "evals/planner/eval.yaml", 16, 15),
    (
        "eval-file-invalid",
        "evals/planner/tasks/02-duplicate.yaml",
        1,
        7,
    ),
    (
        "eval-file-invalid",
        "evals/planner/tasks/02-duplicate.yaml",
        4,
        5,
    ),
    (
        "eval-file-invalid",
        "evals/planner/tasks/02-duplicate.yaml",
        7,
        5,
    ),
    (
        "eval-file-invalid",
        "evals/planner/tasks/02-duplicate.yaml",
        8,
        5,
    ),
    (
        "eval-file-invalid",
        "evals/planner/tasks/02-duplicate.yaml",
        10,
        3,
    ),
    (
        "eval-file-invalid",
        "evals/planner/tasks/03-list.yaml",
        1,
        1,
    ),
    (
        "eval-file-invalid",
        "evals/planner/tasks/04-broken.yaml",
        2,
        11,
    ),
    ("eval-file-invalid", "skills/csv-tools/evals.json", 4, 13),
    ("eval-file-invalid", "skills/csv-tools/evals.json", 4, 29),
    ("eval-file-invalid", "skills/csv-tools/evals.json", 4, 76),
    ("eval-file-invalid", "skills/csv-tools/evals.json", 5, 13),
    ("eval-file-invalid", "skills/csv-tools/evals.json", 5, 86),
    (
        "eval-target-missing",
        "skills/csv-tools/trigger_tests.yaml",
        1,
        8,
    ),
    (
        "eval-file-invalid",
        "skills/csv-tools/trigger_tests.yaml",
        4,
        17,
    ),
    (
        "eval-file-invalid",
        "skills/csv-tools/trigger_tests.yaml",
        5,
        5,
    ),
    (
        "eval-file-invalid",
        "skills/notes-only/evals/evals.json",
        1,
        135,
    ),
    ("eval-file-invalid", "skills/pdf-tools/evals.json", 5, 58),
    // Advice: sets of fewer than 20 cases.
    ("eval-set-small", "skills/csv-tools/evals.json", 2, 12),
    ("eval-set-small", "skills/pdf-tools/evals/evals.json", 2, 12),
];

#[test]
fn every_format_is_validated_at_its_place() {
    let (_, v) = json(&["scan", "--repo", FILES, "--no-config", "--format", "json"]);
    let mut got: Vec<(String, String, u64, u64)> = v["findings"]
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
            )
        })
        .collect();
    got.sort();
    let mut want: Vec<(String, String, u64, u64)> = PLANTED
        .iter()
        .map(|(r, p, l, c)| ((*r).to_owned(), (*p).to_owned(), *l, *c))
        .collect();
    want.sort();
    assert_eq!(got, want);
    // The valid files of each format raise nothing, and each file's format is told.
    let formats: Vec<(&str, &str)> = v["evals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["path"].as_str().unwrap(), e["format"].as_str().unwrap()))
        .collect();
    for (path, format) in [
        ("skills/pdf-tools/evals/evals.json", "agent-evals"),
        ("skills/notes-only/evals/evals.json", "skill-creator"),
        ("evals/planner/eval.yaml", "waza"),
        ("skills/csv-tools/trigger_tests.yaml", "trigger-tests"),
        ("skills/notes-only/notes-evals.md", "notes"),
        ("skills/pdf-tools/evals.json", "trigger-evals"),
    ] {
        assert!(formats.contains(&(path, format)), "{path}: {formats:?}");
    }
    // skill-creator's run outputs (`<skill>-workspace/iteration-N/`) are results, not evals.
    assert!(
        !formats.iter().any(|(p, _)| p.contains("-workspace/")),
        "{formats:?}"
    );
}

#[test]
fn coverage_lists_every_skill_and_agent_with_its_evals() {
    let (code, v) = json(&[
        "coverage",
        "--repo",
        FILES,
        "--no-config",
        "--format",
        "json",
    ]);
    assert_eq!(code, Some(0));
    assert_eq!(v["skills"], 3);
    assert_eq!(v["agents"], 2);
    assert_eq!(v["skills_covered"], 1);
    assert_eq!(v["agents_covered"], 0);
    assert_eq!(v["percent"], 20.0);
    let row = |p: &str| {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["path"] == p)
            .unwrap_or_else(|| panic!("no row {p}"))
            .clone()
    };
    let pdf = row("skills/pdf-tools");
    assert_eq!(pdf["covered"], true);
    assert_eq!(
        (pdf["capability"].as_u64(), pdf["regression"].as_u64()),
        (Some(2), Some(1))
    );
    // An invalid eval file does not cover its skill, and a notes file is only noted.
    let notes = row("skills/notes-only");
    assert_eq!(
        (notes["covered"].as_bool(), notes["notes"].as_bool()),
        (Some(false), Some(true))
    );
    // Waza's `{root}/evals/{name}/eval.yaml` names its agent by its folder; the implicit
    // tool_constraint grader of an agent with `tools` is listed.
    let planner = row(".github/agents/planner.agent.md");
    assert_eq!(planner["eval_files"][0], "evals/planner/eval.yaml");
    assert!(
        planner["graders"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g.as_str().unwrap().starts_with("tool_constraint")),
        "{planner}"
    );
    assert_eq!(
        row(".github/agents/fixer.agent.md")["eval_files"],
        serde_json::json!([])
    );
    assert_eq!(
        v["unattached"],
        serde_json::json!([
            ".github/agents/evals.json",
            "evals/ghost/eval.yaml",
            "skills/csv-tools/trigger_tests.yaml"
        ])
    );
    // The gate.
    for (n, want) in [("20", Some(0)), ("21", Some(1)), ("0", Some(0))] {
        let o = common::bin()
            .args([
                "coverage",
                "--repo",
                FILES,
                "--no-config",
                "--fail-under-coverage",
                n,
            ])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), want, "--fail-under-coverage {n}");
    }
    let o = common::bin()
        .args(["coverage", "--repo", FILES, "--fail-under-coverage", "101"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // Options about findings are refused, never silently ignored.
    for opt in [
        &["--group-by", "rule"][..],
        &["--max-findings-per-rule", "3"],
        &["--select", "compliance"],
        &["--show-suppressed"],
        &["--fail-on", "high"],
    ] {
        let o = common::bin()
            .args(["coverage", "--repo", FILES])
            .args(opt)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{opt:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr)
                .contains(&format!("unexpected argument '{}'", opt[0])),
            "{opt:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

#[test]
fn the_demo_lists_every_skill_and_agent_with_its_evals() {
    let (code, v) = json(&["coverage", "--repo", "fixtures/demo", "--format", "json"]);
    assert_eq!(code, Some(0));
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 16);
    let covered: Vec<&str> = rows
        .iter()
        .filter(|r| r["covered"] == true)
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        covered,
        [
            ".github/skills/pdf-tools",
            ".github/agents/reviewer.agent.md"
        ]
    );
    for fmt in ["console", "markdown"] {
        let o = common::bin()
            .args(["coverage", "--repo", "fixtures/demo", "--format", fmt])
            .output()
            .unwrap();
        let text = String::from_utf8(o.stdout).unwrap();
        for p in [
            "skills/meeting-notes",
            ".claude/agents/ops.md",
            "evals/reviewer/eval.yaml",
        ] {
            assert!(text.contains(p), "{fmt} lacks {p}:\n{text}");
        }
    }
    // SARIF: one `skill-without-evals` note per skill or agent without evals.
    let (code, v) = json(&["coverage", "--repo", "fixtures/demo", "--format", "sarif"]);
    assert_eq!(code, Some(0));
    let run = &v["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 14, "16 skills and agents, 2 with evals");
    assert!(
        results
            .iter()
            .all(|r| r["ruleId"] == "skill-without-evals" && r["level"] == "note")
    );
    let uris: Vec<&str> = results
        .iter()
        .map(|r| {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert!(uris.contains(&".claude/agents/ops.md"), "{uris:?}");
    assert!(!uris.iter().any(|u| u.contains("pdf-tools")), "{uris:?}");
    assert_eq!(run["properties"]["coverage"]["percent"], 12.5);
    assert_eq!(
        run["tool"]["driver"]["rules"][0]["id"],
        "skill-without-evals"
    );
    // GitHub annotations are not a coverage format; the scan's gates are refused, not ignored.
    for args in [
        &["--format", "github"][..],
        &["--fail-on", "high"],
        &["--fail-under-index", "99"],
        &["--evals", "fixtures/index/pdf-tools-results.json"],
        &["--trace", "fixtures/index/demo-trace.json"],
    ] {
        let o = common::bin()
            .args(["coverage", "--repo", "fixtures/demo"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn skill_without_evals_is_off_until_the_config_enables_it() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path();
    let copy = |rel: &str| {
        let src = Path::new(FILES).join(rel);
        let dst = repo.join(rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(src, dst).unwrap();
    };
    copy("skills/pdf-tools/SKILL.md");
    copy("skills/pdf-tools/evals/evals.json");
    copy("skills/csv-tools/SKILL.md");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let ids = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["scan", "--repo", repo.to_str().unwrap(), "--format", "json"];
        args.extend_from_slice(extra);
        let (_, v) = json(&args);
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule_id"] == "skill-without-evals")
            .map(|f| f["location"]["path"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(ids(&[]).is_empty());
    std::fs::write(
        repo.join(".skillguard.toml"),
        "[rules.skill-without-evals]\nenable = true\n",
    )
    .unwrap();
    assert_eq!(ids(&[]), ["skills/csv-tools/SKILL.md"]);
    assert_eq!(
        ids(&["--no-config", "--select", "skill-without-evals"]),
        ["skills/csv-tools/SKILL.md"]
    );
}

/// The findings of one eval rule in a scan, as (path, line, column, message).
fn eval_findings(repo: &str) -> Vec<(String, u64, u64, String)> {
    let (_, v) = json(&["scan", "--repo", repo, "--no-config", "--format", "json"]);
    let mut got: Vec<(String, u64, u64, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "eval-file-invalid")
        .map(|f| {
            (
                f["location"]["path"].as_str().unwrap().to_owned(),
                f["location"]["line"].as_u64().unwrap_or(0),
                f["location"]["column"].as_u64().unwrap_or(0),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    got.sort();
    got
}

#[test]
fn waza_task_files_and_inline_tasks_are_validated() {
    let got = eval_findings(FILES);
    let msg = |path: &str, line: u64| -> String {
        got.iter()
            .find(|(p, l, _, _)| p == path && *l == line)
            .unwrap_or_else(|| panic!("no finding at {path}:{line}: {got:#?}"))
            .3
            .clone()
    };
    let dup = "evals/planner/tasks/02-duplicate.yaml";
    for (path, line, want) in [
        (
            dup,
            1,
            "task name `plan-a-migration` is used again (first by task file `evals/planner/tasks/01-migration.yaml`, line 1)",
        ),
        (dup, 4, "trigger 1 of task file"),
        (dup, 7, "fixture `seed.sql` of task file"),
        (
            dup,
            7,
            "looked for `evals/planner/fixtures/seed.sql`, `evals/planner/tasks/seed.sql`, `evals/planner/seed.sql`",
        ),
        (dup, 8, "climbs out of the scanned folder"),
        (dup, 10, "`expected_outcome` of task file"),
        (
            "evals/planner/tasks/03-list.yaml",
            1,
            "holds a list where a task is a mapping",
        ),
        ("evals/planner/tasks/04-broken.yaml", 2, "is not valid YAML"),
        (
            "evals/planner/eval.yaml",
            15,
            "`triggers` of inline task 4 must be a list",
        ),
        (
            "evals/planner/eval.yaml",
            16,
            "`fixtures` of inline task 4 must be a list",
        ),
        (
            "evals/ghost/eval.yaml",
            4,
            "inline task 1 has no `triggers`",
        ),
    ] {
        let m = msg(path, line);
        assert!(m.contains(want), "{path}:{line}: `{m}` lacks `{want}`");
    }
    // The valid look-alikes raise nothing: a fixture beside eval.yaml (`fixtures/`), unknown
    // keys, an inline task with triggers, and the first use of a name.
    for clean in [
        "evals/planner/tasks/01-migration.yaml",
        "evals/planner/tasks/05-fixture.yaml",
    ] {
        assert!(!got.iter().any(|(p, ..)| p == clean), "{clean}: {got:#?}");
    }
    assert!(
        !got.iter()
            .any(|(p, l, _, _)| p == "evals/planner/eval.yaml" && *l == 13),
        "{got:#?}"
    );
    // `schema.sql` of 02 is found in `fixtures/`; only seed.sql is missing there.
    assert!(
        !got.iter().any(|(_, _, _, m)| m.contains("`schema.sql`")),
        "{got:#?}"
    );
}

#[test]
fn waza_task_files_are_read_only_inside_the_root_and_within_bounds() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    let eval = repo.join("evals/planner");
    std::fs::create_dir_all(eval.join("tasks")).unwrap();
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::write(
        eval.join("eval.yaml"),
        "name: e\ntasks:\n  - \"tasks/*.yaml\"\n",
    )
    .unwrap();
    // A broken task outside the root, reached by a link: never read.
    std::fs::write(t.path().join("outside.yaml"), "- not: a task\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(t.path().join("outside.yaml"), eval.join("tasks/link.yaml"))
        .unwrap();
    // More task files than are read: each broken, so only the first 256 (by path) report.
    for i in 0..300 {
        std::fs::write(
            eval.join(format!("tasks/{i:03}.yaml")),
            "name: [x]\ntriggers: [\"go\"]\n",
        )
        .unwrap();
    }
    let got = eval_findings(repo.to_str().unwrap());
    assert!(
        !got.iter().any(|(p, ..)| p.contains("link.yaml")),
        "{got:#?}"
    );
    let task_findings = got
        .iter()
        .filter(|(p, ..)| p.starts_with("evals/planner/tasks/"))
        .count();
    assert_eq!(task_findings, 256);
    assert!(
        got.iter().any(|(p, l, _, m)| p == "evals/planner/eval.yaml"
            && *l == 3
            && m.contains("match 300 files; skillguard validates the first 256")),
        "{got:#?}"
    );
}
