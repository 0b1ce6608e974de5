//! Pins record every location of a name. A check right after a save is clean; an
//! edited copy is named with its location and the files that changed; a copy added since the
//! pin is reported as new, not as changed.

mod common;

use std::fs;
use std::path::Path;
use std::process::Output;

use serde_json::Value;

fn write(p: &Path, s: &str) {
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, s).unwrap();
}

fn skill(body: &str) -> String {
    format!(
        "---\nname: code-review\ndescription: Reviews code. Use when asked for a review.\n---\n# Review\n{body}\n"
    )
}

fn drift(o: &Output) -> Vec<Value> {
    let v: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&o.stderr)));
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule_id"] == "manifest-changed-since-baseline")
        .cloned()
        .collect()
}

#[test]
fn every_copy_is_pinned_and_checked_on_its_own() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    fs::create_dir_all(r.join(".git")).unwrap();
    write(
        &r.join(".claude/skills/code-review/SKILL.md"),
        &skill("Read the diff."),
    );
    write(
        &r.join(".agents/skills/code-review/SKILL.md"),
        &skill("Read the diff and the tests."),
    );
    let save = common::run_in(
        r,
        &[
            "scan",
            "--repo",
            ".",
            "--save-manifest-baseline",
            "pins.json",
            "-q",
        ],
    );
    assert!(
        save.status.code().is_some_and(|c| c <= 1),
        "{}",
        String::from_utf8_lossy(&save.stderr)
    );
    let pins: Value = serde_json::from_slice(&fs::read(r.join("pins.json")).unwrap()).unwrap();
    let copies = pins["copies"].as_object().expect("copies recorded");
    assert_eq!(copies.len(), 2, "{pins:#}");
    // A check right after the save is clean.
    let check = |extra: &[&str]| {
        let mut a = vec![
            "scan",
            "--repo",
            ".",
            "--format",
            "json",
            "--manifest-baseline",
            "pins.json",
            "--fail-on-drift",
            "--targets",
            "claude-code",
        ];
        a.extend_from_slice(extra);
        common::run_in(r, &a)
    };
    let o = check(&[]);
    assert!(drift(&o).is_empty(), "{:#?}", drift(&o));
    // Cross-location drift still exists between the two copies; only the pins are clean.
    // Edit one copy: that copy alone is named, with its location and the file.
    write(
        &r.join(".agents/skills/code-review/SKILL.md"),
        &skill("Read the diff and the tests, then approve."),
    );
    let d = drift(&check(&[]));
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(
        d[0]["location"]["path"],
        ".agents/skills/code-review/SKILL.md"
    );
    assert!(
        d[0]["message"]
            .as_str()
            .unwrap()
            .contains("modified: SKILL.md"),
        "{}",
        d[0]["message"]
    );
    // A third copy added since the pin: new, not changed.
    write(
        &r.join(".github/skills/code-review/SKILL.md"),
        &skill("Read the diff."),
    );
    let d = drift(&check(&[]));
    let new: Vec<&Value> = d
        .iter()
        .filter(|f| f["properties"]["new_copy"] == true)
        .collect();
    assert_eq!(new.len(), 1, "{d:#?}");
    assert_eq!(
        new[0]["location"]["path"],
        ".github/skills/code-review/SKILL.md"
    );
    assert!(
        new[0]["message"]
            .as_str()
            .unwrap()
            .contains("is a new copy")
    );
}

/// One copy, moved: compared with its pin, not reported as new.
#[test]
fn a_moved_skill_is_compared_with_its_pin() {
    let t = tempfile::tempdir().unwrap();
    let r = t.path();
    fs::create_dir_all(r.join(".git")).unwrap();
    write(
        &r.join(".claude/skills/code-review/SKILL.md"),
        &skill("Read the diff."),
    );
    common::run_in(
        r,
        &[
            "scan",
            "--repo",
            ".",
            "--save-manifest-baseline",
            "pins.json",
            "-q",
        ],
    );
    fs::rename(
        r.join(".claude/skills/code-review"),
        r.join(".claude/skills/review"),
    )
    .unwrap();
    let o = common::run_in(
        r,
        &[
            "scan",
            "--repo",
            ".",
            "--format",
            "json",
            "--manifest-baseline",
            "pins.json",
        ],
    );
    assert!(drift(&o).is_empty(), "{:#?}", drift(&o));
}
