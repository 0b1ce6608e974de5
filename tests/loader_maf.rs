//! Parity tests for the `maf` / `maf-1.18` loader profiles: the AgentEval and
//! Microsoft Agent Framework conformance cases about discovery and parsing
//! (agenteval-scanner.md §4.3, §8.3 D rows, §8.4 M rows, §8.9 F rows, derived
//! edge cases), checked through a real scan.

mod common;

use std::fs;
use std::path::Path;

use common::write;
use skillguard::discover::Mode;
use skillguard::inventory::LoadStatus;
use skillguard::result::ScanResult;
use skillguard::scan::{ScanOptions, scan};

fn ok_skill(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things.\n---\nBody.\n")
}

fn scan_root(root: &Path) -> ScanResult {
    scan(Mode::Path, root, &ScanOptions::default()).unwrap()
}

/// The `maf` verdict of the skill at `path`: (loaded?, cause).
fn maf(r: &ScanResult, path: &str, profile: &str) -> (LoadStatus, String) {
    let a = r
        .artifacts
        .iter()
        .find(|a| a.path == path)
        .unwrap_or_else(|| {
            panic!(
                "no skill at {path}: {:?}",
                r.artifacts.iter().map(|a| &a.path).collect::<Vec<_>>()
            )
        });
    let v = a
        .loaders
        .iter()
        .find(|v| v.profile == profile)
        .unwrap_or_else(|| panic!("no {profile} verdict for {path}"));
    (v.status, v.cause.clone().unwrap_or_default())
}

fn loaded(r: &ScanResult, path: &str) -> bool {
    maf(r, path, "maf").0 == LoadStatus::Loaded
}

#[test]
fn m06_to_m12_single_skill_exclusions_name_their_cause() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(&root.join("bad--hyphen/SKILL.md"), &ok_skill("bad--hyphen"));
    write(
        &root.join("no-description/SKILL.md"),
        "---\nname: no-description\n---\n",
    );
    write(
        &root.join("mismatched-dir/SKILL.md"),
        &ok_skill("totally-different"),
    );
    write(
        &root.join("long-desc/SKILL.md"),
        &format!(
            "---\nname: long-desc\ndescription: {}\n---\n",
            "d".repeat(1100)
        ),
    );
    write(
        &root.join("valid-sibling/SKILL.md"),
        &ok_skill("valid-sibling"),
    );
    write(
        &root.join("Invalid_Chars/SKILL.md"),
        &ok_skill("Invalid_Chars"),
    );
    write(&root.join("-lead/SKILL.md"), &ok_skill("-lead"));
    let r = scan_root(root);
    assert!(loaded(&r, "valid-sibling"));
    let (s, c) = maf(&r, "bad--hyphen", "maf");
    assert_eq!(s, LoadStatus::Excluded);
    assert!(c.contains("bad--hyphen"), "{c}");
    assert!(maf(&r, "no-description", "maf").1.contains("description"));
    let c = maf(&r, "mismatched-dir", "maf").1;
    assert!(
        c.contains("totally-different") && c.contains("directory"),
        "{c}"
    );
    let c = maf(&r, "long-desc", "maf").1;
    assert!(c.contains("1100") && !c.contains("malformed"), "{c}");
    assert_eq!(maf(&r, "Invalid_Chars", "maf").0, LoadStatus::Excluded);
    // Leading hyphen: the true cause, not AgentEval's "malformed YAML" fallback.
    assert!(maf(&r, "-lead", "maf").1.contains("name rule"));
    // Every exclusion is also a finding aliased to AgentEval's rule.
    let n = r
        .findings
        .iter()
        .flat_map(|f| {
            std::iter::once((f.rule_id, f.message.as_str())).chain(
                f.consequences
                    .iter()
                    .map(|c| (c.rule_id, c.message.as_str())),
            )
        })
        .filter(|(rule, message)| {
            *rule == "skill-excluded-by-harness" && message.starts_with("maf does not load")
        })
        .count();
    assert_eq!(n, 6);
}

#[test]
fn m13_compatibility_over_500_takes_the_whole_root_down() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        &root.join("too-compatible/SKILL.md"),
        &format!(
            "---\nname: too-compatible\ndescription: d\ncompatibility: {}\n---\n",
            "c".repeat(600)
        ),
    );
    write(&root.join("innocent/SKILL.md"), &ok_skill("innocent"));
    let r = scan_root(root);
    for p in ["too-compatible", "innocent"] {
        let (s, c) = maf(&r, p, "maf");
        assert_eq!(s, LoadStatus::Excluded, "{p}");
        assert!(c.contains("too-compatible/SKILL.md"), "{p}: {c}");
    }
}

#[test]
fn d_rows_depth_single_skill_mode_nesting_and_case() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        &root.join("direct-skill/SKILL.md"),
        &ok_skill("direct-skill"),
    );
    write(
        &root.join("group/nested-skill-l2/SKILL.md"),
        &ok_skill("nested-skill-l2"),
    );
    write(
        &root.join("group/subgroup/nested-skill-l3/SKILL.md"),
        &ok_skill("nested-skill-l3"),
    );
    write(
        &root.join("upper-case-skill/SKILL.MD"),
        &ok_skill("upper-case-skill"),
    );
    write(&root.join("skill-x/SKILL.md"), &ok_skill("skill-x"));
    write(&root.join("skill-x/skill-y/SKILL.md"), &ok_skill("skill-y"));
    let r = scan_root(root);
    // D04 / F11: depth 1 and 2 only.
    assert!(loaded(&r, "direct-skill"));
    assert!(loaded(&r, "group/nested-skill-l2"));
    assert!(
        maf(&r, "group/subgroup/nested-skill-l3", "maf")
            .1
            .contains("levels below")
    );
    // D05: MAF needs exactly SKILL.md (the AgentEval mirror accepts any case).
    assert!(
        maf(&r, "upper-case-skill", "maf")
            .1
            .contains("exactly `SKILL.md`")
    );
    // D07 / F12: nested skills are hidden by the parent, and named.
    assert!(loaded(&r, "skill-x"));
    assert!(
        maf(&r, "skill-x/skill-y", "maf")
            .1
            .contains("skill-x/SKILL.md")
    );

    // D02 / D03: a root-level SKILL.md is single-skill mode and hides everything.
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    write(&repo.join("skills/SKILL.md"), &ok_skill("skills"));
    write(
        &repo.join("skills/direct-skill/SKILL.md"),
        &ok_skill("direct-skill"),
    );
    let r = scan(Mode::Repo, &repo, &ScanOptions::default()).unwrap();
    let (s, c) = maf(&r, "skills/direct-skill", "maf");
    assert_eq!(s, LoadStatus::Excluded);
    assert!(
        c.contains("single-skill mode") && c.contains("skills/SKILL.md"),
        "{c}"
    );
}

#[test]
fn f10_duplicate_names_keep_the_first() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(&root.join("dupe/SKILL.md"), &ok_skill("dupe"));
    write(
        &root.join("subdir/dupe/SKILL.md"),
        "---\nname: dupe\ndescription: another\n---\n",
    );
    let r = scan_root(root);
    assert!(loaded(&r, "dupe"));
    let (s, c) = maf(&r, "subdir/dupe", "maf");
    assert_eq!(s, LoadStatus::Shadowed);
    assert!(c.contains("`dupe`"), "{c}");
    // The copies differ, so the shadowing finding is medium.
    let f = r
        .findings
        .iter()
        .find(|f| f.rule_id == "skill-shadowed")
        .unwrap();
    assert_eq!(f.severity, skillguard::finding::Severity::Medium);
}

#[test]
fn edge_case_matrix_maf_column() {
    // (content, loads?) from the edge-case matrix and the derived cases.
    let cases: &[(&str, &str, bool)] = &[
        ("bom", "\u{FEFF}---\nname: s\ndescription: d\n---\n", true),
        ("crlf", "---\r\nname: s\r\ndescription: d\r\n---\r\n", true),
        (
            "blank-before",
            "\n---\nname: s\ndescription: d\n---\n",
            false,
        ),
        ("no-closing", "---\nname: s\ndescription: d\n", false),
        ("quoted", "---\nname: 's'\ndescription: \"d\"\n---\n", true),
        (
            "mismatched-quotes",
            "---\nname: 's\"\ndescription: d\n---\n",
            true,
        ),
        (
            "empty-quotes",
            "---\nname: s\ndescription: \"\"\n---\n",
            true,
        ),
        (
            "block",
            "---\nname: s\ndescription: |\n  line one\n  line two\n---\n",
            true,
        ),
        (
            "capitalised-key",
            "---\nName: s\nDESCRIPTION: d\n---\n",
            true,
        ),
        (
            "duplicate-last-wins",
            "---\nname: x\nname: s\ndescription: d\n---\n",
            true,
        ),
        (
            "empty-name-swallows",
            "---\nname:\ndescription: d\n---\n",
            false,
        ),
        (
            "empty-description-swallows",
            "---\nname: s\ndescription:\nlicense: MIT\n---\n",
            true,
        ),
        (
            "comment-kept",
            "---\nname: s # the skill\ndescription: d\n---\n",
            false,
        ),
        (
            "four-dashes",
            "----\nname: s\ndescription: d\n----\n",
            false,
        ),
        (
            "yaml-document-end",
            "---\nname: s\ndescription: d\n...\n",
            false,
        ),
        (
            "invalid-yaml-is-fine",
            "---\nname: s\ndescription: Use when: asked\n---\n",
            true,
        ),
    ];
    let t = tempfile::tempdir().unwrap();
    for (label, content, _) in cases {
        // Each case in its own root so names do not collide.
        write(&t.path().join(label).join("s/SKILL.md"), content);
    }
    for (label, _, loads) in cases {
        let r = scan_root(&t.path().join(label));
        let (s, c) = maf(&r, "s", "maf");
        assert_eq!(s == LoadStatus::Loaded, *loads, "{label}: {s:?} {c}");
    }
}

#[cfg(unix)]
#[test]
fn maf_1_18_skips_symlinks_that_older_versions_follow() {
    use std::os::unix::fs::symlink;
    let t = tempfile::tempdir().unwrap();
    let repo = t.path();
    write(
        &repo.join(".agents/skills/shared/SKILL.md"),
        &ok_skill("shared"),
    );
    fs::create_dir_all(repo.join(".claude/skills")).unwrap();
    symlink(
        "../../.agents/skills/shared",
        repo.join(".claude/skills/shared"),
    )
    .unwrap();
    let r = scan(Mode::Repo, repo, &ScanOptions::default()).unwrap();
    // .claude/skills comes first in AgentEval's order: the link copy wins in 1.13-1.17 ...
    assert_eq!(
        maf(&r, ".claude/skills/shared", "maf").0,
        LoadStatus::Loaded
    );
    assert_eq!(
        maf(&r, ".agents/skills/shared", "maf").0,
        LoadStatus::Shadowed
    );
    // ... and is skipped by 1.18, so the real folder loads.
    let (s, c) = maf(&r, ".claude/skills/shared", "maf-1.18");
    assert_eq!(s, LoadStatus::Excluded);
    assert!(c.contains("symlink"), "{c}");
    assert_eq!(
        maf(&r, ".agents/skills/shared", "maf-1.18").0,
        LoadStatus::Loaded
    );
}

#[test]
fn profile_selection_and_demo_matrix() {
    let opts = ScanOptions {
        profiles: skillguard::loaders::Selection::Only(["codex".to_owned()].into_iter().collect()),
        ..ScanOptions::default()
    };
    let r = scan(Mode::Repo, Path::new("fixtures/demo"), &opts).unwrap();
    for a in &r.artifacts {
        assert!(a.loaders.iter().all(|v| v.profile == "codex"), "{}", a.path);
    }
    // The demo shows a skill excluded by one harness and loaded by another.
    let r = scan(
        Mode::Repo,
        Path::new("fixtures/demo"),
        &ScanOptions::default(),
    )
    .unwrap();
    let split = r.artifacts.iter().any(|a| {
        a.loaders.iter().any(|v| v.status == LoadStatus::Loaded)
            && a.loaders.iter().any(|v| v.status == LoadStatus::Excluded)
    });
    assert!(split);
}

#[test]
fn maf_inventory_reports_what_is_exposed_and_what_is_not() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(&root.join("tool/SKILL.md"), &ok_skill("tool"));
    for (p, c) in [
        ("tool/references/guide.md", "# guide"),
        ("tool/references/deep/more.md", "# too deep"),
        ("tool/scripts/run.py", "print(1)"),
        ("tool/scripts/helper.ts", "export {}"),
        ("tool/assets/logo.png", "PNG"),
        ("tool/run.sh", "echo hi"),
        ("tool/data.csv", "a,b"),
    ] {
        write(&root.join(p), c);
    }
    let r = scan_root(root);
    let a = r.artifacts.iter().find(|a| a.path == "tool").unwrap();
    let e = a
        .loaders
        .iter()
        .find(|v| v.profile == "maf")
        .and_then(|v| v.exposes.clone())
        .unwrap();
    assert_eq!(e.resources, ["data.csv", "references/guide.md"]);
    assert_eq!(e.scripts, ["run.sh", "scripts/run.py"]);
    assert_eq!(
        e.not_exposed,
        [
            "assets/logo.png",
            "references/deep/more.md",
            "scripts/helper.ts"
        ]
    );
}

#[test]
fn fields_read_differently_are_reported_even_when_everyone_loads() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    write(
        &root.join("cut/SKILL.md"),
        "---\nname: cut\ndescription: Summarise reports---then email them to the finance inbox.\n---\nBody.\n",
    );
    write(
        &root.join("commented/SKILL.md"),
        "---\nname: commented\ndescription: Summarise reports. # owner: finance\n---\nBody.\n",
    );
    write(&root.join("plain/SKILL.md"), &ok_skill("plain"));
    let r = scan_root(root);
    let diffs: Vec<(&str, &str)> = r
        .findings
        .iter()
        .filter(|f| f.rule_id == "loader-differential")
        .map(|f| (f.skill_path.as_deref().unwrap_or(""), f.message.as_str()))
        .collect();
    assert!(
        diffs
            .iter()
            .any(|(p, m)| *p == "cut" && m.contains("skills-ref ends the frontmatter")),
        "{diffs:?}"
    );
    assert!(
        diffs.iter().any(|(p, m)| *p == "commented"
            && m.contains("MAF's line reader")
            && m.contains("# owner")),
        "{diffs:?}"
    );
    assert!(diffs.iter().all(|(p, _)| *p != "plain"));
}

/// AgentEval's raw-reader rows (R01-R12) re-read the frontmatter only to explain
/// exclusions; skillguard replaces that reader with MAF's own, so each row is
/// checked against what MAF really reads (the expected values are the MAF column
/// of the edge-case matrix, not the raw reader's).
#[test]
fn r_rows_as_maf_reads_them() {
    use skillguard::loaders::maf::{NoMatch, frontmatter_block, read_fields};
    let fields = |t: &str| read_fields(frontmatter_block(t).unwrap());
    // R01: all three fields.
    let f = fields("---\nname: a\ndescription: b\ncompatibility: c\n---\nbody\n");
    assert_eq!(
        (
            f.name.as_deref(),
            f.description.as_deref(),
            f.compatibility.as_deref()
        ),
        (Some("a"), Some("b"), Some("c"))
    );
    // R02: no delimiter.
    assert_eq!(frontmatter_block("name: a\n"), Err(NoMatch::NoOpeningLine));
    // R03: only a description.
    assert_eq!(fields("---\ndescription: d\n---\n").name, None);
    // R04: an empty description swallows the next line in MAF; at the end it is empty.
    assert_eq!(
        fields("---\nname: a\ndescription: \n---\n")
            .description
            .as_deref(),
        Some("")
    );
    // R05: quotes stripped.
    let f = fields("---\nname: \"quoted-name\"\ndescription: 'single quoted desc'\n---\n");
    assert_eq!(
        (f.name.as_deref(), f.description.as_deref()),
        (Some("quoted-name"), Some("single quoted desc"))
    );
    // R06: no closing line: MAF excludes (the raw reader still extracted fields).
    assert_eq!(
        frontmatter_block("---\nname: a\n"),
        Err(NoMatch::NoClosingLine)
    );
    // R07 / R08: block scalars are read by MAF (the raw reader returned nothing).
    for ind in ["|", "|-", "|+", ">", ">-", "|2", ">2-"] {
        let f = fields(&format!("---\ndescription: {ind}\n  one\n  two\n---\n"));
        let d = f.description.unwrap();
        assert!(d.starts_with("one"), "{ind}: {d:?}");
    }
    // R09: plain continuation keeps the first line.
    assert_eq!(
        fields("---\ndescription: first\n  second\n---\n")
            .description
            .as_deref(),
        Some("first")
    );
    // R10: blank lines before the frontmatter: MAF excludes (the raw reader tolerated them).
    assert_eq!(
        frontmatter_block("\n\n---\nname: a\n---\n"),
        Err(NoMatch::LeadingBlank)
    );
}

/// Discovery-related CLI rows: C12 (two conventions), C13 (none), C36 (hidden folder in a workspace).
#[test]
fn c_rows_discovery() {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    write(
        &repo.join(".claude/skills/skill-a/SKILL.md"),
        &ok_skill("skill-a"),
    );
    write(
        &repo.join(".agents/skills/skill-b/SKILL.md"),
        &ok_skill("skill-b"),
    );
    let r = scan(Mode::Repo, &repo, &ScanOptions::default()).unwrap();
    assert_eq!(r.coverage.skill_count, 2);
    let paths: Vec<&str> = r.artifacts.iter().map(|a| a.path.as_str()).collect();
    assert_eq!(paths, [".agents/skills/skill-b", ".claude/skills/skill-a"]);
    let empty = t.path().join("empty");
    fs::create_dir_all(&empty).unwrap();
    let r = scan(Mode::Repo, &empty, &ScanOptions::default()).unwrap();
    assert_eq!(r.artifacts.len(), 0);
    fs::create_dir_all(t.path().join(".git")).unwrap();
    let r = scan(Mode::Workspace, t.path(), &ScanOptions::default()).unwrap();
    assert_eq!(r.hidden_skipped, 1);
    assert_eq!(r.coverage.skill_count, 2);
}
