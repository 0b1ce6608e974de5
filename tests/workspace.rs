//! Workspace scans: repositories that are symbolic links are scanned on
//! request, each rooted at its target; findings that involve several repositories are
//! reported once, in a section of their own, and counted in no repository's totals.

mod common;

use std::path::Path;

use serde_json::Value;

use common::write_skill as skill;

fn scan(ws: &Path, extra: &[&str]) -> Value {
    let out = common::bin()
        .arg("scan-workspace")
        .arg(ws)
        .args(["--format", "json", "--quiet"])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn repo<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["repositories"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["repo"] == name)
        .unwrap()
}

#[cfg(unix)]
#[test]
fn linked_repositories_are_scanned_on_request_and_stay_in_their_root() {
    let t = tempfile::tempdir().unwrap();
    let ws = t.path().join("ws");
    let ext = t.path().join("elsewhere/tools");
    skill(&ws.join("a"), ".claude/skills/alpha", "alpha", "Use alpha.");
    skill(&ext, ".claude/skills/Bad_Tool", "Bad_Tool", "Use it.");
    // A link inside the linked repository that leaves it.
    std::os::unix::fs::symlink(
        t.path().join("ws/a"),
        ext.join(".claude/skills/Bad_Tool/up"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&ext, ws.join("tools")).unwrap();
    // A second link to the same repository, and one to a folder holding the workspace.
    std::os::unix::fs::symlink(&ext, ws.join("tools-again")).unwrap();
    std::os::unix::fs::symlink(t.path(), ws.join("parent")).unwrap();
    // And one into a sub-folder of another repository of the workspace.
    std::os::unix::fs::symlink(ws.join("a/.claude"), ws.join("inner")).unwrap();

    let plain = scan(&ws, &[]);
    let rules = |v: &Value| -> Vec<(String, String)> {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["rule_id"].as_str().unwrap().to_owned(),
                    f["location"]["path"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    assert!(
        rules(&plain)
            .iter()
            .any(|(r, p)| r == "symlink-escapes-root" && p == "tools"),
        "{:?}",
        rules(&plain)
    );
    assert!(!rules(&plain).iter().any(|(_, p)| p.starts_with("tools/")));

    let followed = scan(&ws, &["--follow-repo-links"]);
    let r = rules(&followed);
    assert!(
        r.iter().any(|(rule, p)| rule == "name-invalid-chars"
            && p == "tools/.claude/skills/Bad_Tool/SKILL.md"),
        "{r:?}"
    );
    assert!(
        r.iter()
            .any(|(rule, p)| rule == "symlink-escapes-root"
                && p == "tools/.claude/skills/Bad_Tool/up"),
        "a link inside the linked repository still may not leave it: {r:?}"
    );
    assert!(
        !r.iter().any(|(_, p)| p.starts_with("tools-again/.claude")),
        "{r:?}"
    );
    assert!(r.iter().any(|(_, p)| p == "tools-again"), "{r:?}");
    assert!(
        r.iter()
            .any(|(rule, p)| rule == "symlink-escapes-root" && p == "parent"),
        "{r:?}"
    );
    assert!(repo(&followed, "tools")["findings"].as_u64().unwrap() >= 2);
    // The repository a link points into keeps its skills and findings.
    assert_eq!(repo(&followed, "a")["skills"], repo(&plain, "a")["skills"]);
    assert_eq!(
        repo(&followed, "a")["findings"],
        repo(&plain, "a")["findings"]
    );
    assert!(
        r.iter()
            .any(|(rule, p)| rule == "symlinked-skill" && p == "inner"),
        "{r:?}"
    );
}

#[test]
fn a_repositorys_counts_do_not_change_with_its_neighbours() {
    let t = tempfile::tempdir().unwrap();
    let ws = t.path();
    skill(
        &ws.join("a"),
        ".claude/skills/shared",
        "shared",
        "Version A.",
    );
    skill(
        &ws.join("a"),
        ".claude/skills/Bad_One",
        "Bad_One",
        "Use it.",
    );
    let alone = scan(ws, &[]);
    let a_alone = repo(&alone, "a").clone();
    assert_eq!(alone["across_repositories"]["findings"], 0);

    skill(
        &ws.join("b"),
        ".claude/skills/shared",
        "shared",
        "Version B, different.",
    );
    let both = scan(ws, &[]);
    assert_eq!(repo(&both, "a")["findings"], a_alone["findings"]);
    assert_eq!(repo(&both, "a")["counts"], a_alone["counts"]);
    assert_eq!(repo(&both, "b")["findings"], 0);
    // The drift between the two copies (one structure, different bodies) is reported once,
    // in the workspace's section.
    let cross = both["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "cross-location-content-drift")
        .count();
    assert_eq!(cross, 1);
    assert_eq!(both["across_repositories"]["findings"], 1);
    let console = |extra: &[&str]| {
        let o = common::bin()
            .arg("scan-workspace")
            .arg(ws)
            .args(extra)
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let out = console(&["--group-by", "skill"]);
    assert!(
        out.contains("across repositories (counted in no repository's totals)"),
        "{out}"
    );
    assert!(out.contains("  across repositories: 1 finding(s)"), "{out}");
    let out = console(&[]);
    assert!(
        out.contains("    across repositories: 1 finding(s) (counted in no repository's totals)"),
        "{out}"
    );
}
