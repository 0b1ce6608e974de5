//! AgentEval's content hash of a skill that holds nested
//! skills, computed by hand here, equals the `agenteval_content_hash` skillguard reports;
//! skillguard's own `content_hash` still leaves the nested skills out; and history or pins
//! recorded by AgentEval for such a skill match it after `baseline import-agenteval`.

mod common;

use std::fs;
use std::path::Path;

use common::{parse_json as json, run, s};
use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every file under `dir`, recursively, as (`/`-separated path relative to `dir`, bytes);
/// `skip` leaves out the folders (relative paths) given.
fn files(dir: &Path, rel: &str, skip: &[&str], out: &mut Vec<(String, Vec<u8>)>) {
    for e in fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().into_string().unwrap();
        let r = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if e.file_type().unwrap().is_dir() {
            if !skip.contains(&r.as_str()) {
                files(&e.path(), &r, skip, out);
            }
        } else {
            out.push((r, fs::read(e.path()).unwrap()));
        }
    }
}

/// §5.2 by hand: relative paths with `/`, sorted ordinal (UTF-16 code units, as .NET's
/// `StringComparer.Ordinal`), `"{relpath}\n{filehex}\n"` concatenated, SHA-256, lower-case hex.
fn agenteval_hash(dir: &Path, skip: &[&str]) -> (String, Vec<String>) {
    let mut v = Vec::new();
    files(dir, "", skip, &mut v);
    v.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    let mut canonical = String::new();
    for (p, bytes) in &v {
        canonical.push_str(p);
        canonical.push('\n');
        canonical.push_str(&hex(bytes));
        canonical.push('\n');
    }
    (
        hex(canonical.as_bytes()),
        v.into_iter().map(|f| f.0).collect(),
    )
}

const PARENT: &str = ".claude/skills/parent";

/// A repository whose skill `parent` holds a nested skill `child`, which holds `grand`.
fn repo() -> (tempfile::TempDir, std::path::PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    let p = repo.join(PARENT);
    let write = |rel: &str, body: &[u8]| {
        let f = p.join(rel);
        fs::create_dir_all(f.parent().unwrap()).unwrap();
        fs::write(f, body).unwrap();
    };
    write(
        "SKILL.md",
        b"---\nname: parent\ndescription: Parent skill for hashing tests.\n---\nUse the tools.\n",
    );
    // CRLF stays as it is (no normalisation in §5.2); upper case sorts before lower case.
    write("README.txt", b"line one\r\nline two\r\n");
    write("notes.md", b"notes\n");
    write(
        "tools/child/SKILL.md",
        b"---\nname: child\ndescription: Nested skill.\n---\nChild body.\n",
    );
    write("tools/child/scripts/run.sh", b"#!/bin/sh\necho hi\n");
    write(
        "tools/child/deeper/grand/SKILL.md",
        b"---\nname: grand\ndescription: Doubly nested skill.\n---\nGrand body.\n",
    );
    write("tools/child/deeper/grand/data.json", b"{\"a\": 1}\n");
    fs::create_dir_all(repo.join(".git")).unwrap();
    (t, repo)
}

fn skill<'a>(v: &'a serde_json::Value, path: &str) -> &'a serde_json::Value {
    v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"] == path)
        .unwrap_or_else(|| panic!("no skill at {path}: {v}"))
}

#[test]
fn agenteval_hash_includes_nested_skills_and_ours_does_not() {
    let (_t, repo) = repo();
    let v = json(&run(&[
        "scan",
        "--repo",
        s(&repo),
        "--format",
        "json",
        "-q",
    ]));
    let dir = repo.join(PARENT);

    let (expected, listed) = agenteval_hash(&dir, &[]);
    assert!(listed.contains(&"tools/child/scripts/run.sh".to_owned()));
    assert!(listed.contains(&"tools/child/deeper/grand/data.json".to_owned()));
    let parent = skill(&v, PARENT);
    assert_eq!(
        parent["agenteval_content_hash"],
        expected.as_str(),
        "{parent}"
    );
    // Our own hash: the parent's own files only (each nested skill is a skill of its own).
    let (own, _) = agenteval_hash(&dir, &["tools/child"]);
    assert_eq!(parent["content_hash"], own.as_str(), "{parent}");
    assert_ne!(own, expected);

    // The nested skill holds `grand`: its AgentEval hash includes it, its own does not.
    let child = skill(&v, &format!("{PARENT}/tools/child"));
    let cdir = dir.join("tools/child");
    assert_eq!(
        child["agenteval_content_hash"],
        agenteval_hash(&cdir, &[]).0.as_str()
    );
    assert_eq!(
        child["content_hash"],
        agenteval_hash(&cdir, &["deeper/grand"]).0.as_str()
    );
    // A skill without nested skills: both hashes are the same.
    let grand = skill(&v, &format!("{PARENT}/tools/child/deeper/grand"));
    assert_eq!(grand["agenteval_content_hash"], grand["content_hash"]);
    assert_eq!(
        grand["content_hash"],
        agenteval_hash(&cdir.join("deeper/grand"), &[]).0.as_str()
    );

    // Hash options change our hash, never AgentEval's (it has none).
    let n = json(&run(&[
        "scan",
        "--repo",
        s(&repo),
        "--format",
        "json",
        "-q",
        "--normalize-eol",
    ]));
    let parent_n = skill(&n, PARENT);
    assert_ne!(parent_n["content_hash"], parent["content_hash"]);
    assert_eq!(parent_n["agenteval_content_hash"], expected.as_str());
}

#[cfg(unix)]
#[test]
fn a_link_out_of_the_root_leaves_the_agenteval_hash_absent_with_a_reason() {
    let (t, repo) = repo();
    let outside = t.path().join("outside.txt");
    fs::write(&outside, b"secret\n").unwrap();
    std::os::unix::fs::symlink(&outside, repo.join(PARENT).join("tools/child/link.txt")).unwrap();
    let v = json(&run(&[
        "scan",
        "--repo",
        s(&repo),
        "--format",
        "json",
        "-q",
    ]));
    for path in [PARENT.to_owned(), format!("{PARENT}/tools/child")] {
        let a = skill(&v, &path);
        assert!(a.get("agenteval_content_hash").is_none(), "{a}");
        let why = a["agenteval_hash_incomplete"].as_str().unwrap();
        assert!(
            why.contains("link.txt") && why.contains("out of the scanned root"),
            "{why}"
        );
    }
    // The grandchild is unaffected.
    let grand = skill(&v, &format!("{PARENT}/tools/child/deeper/grand"));
    assert!(grand["agenteval_content_hash"].is_string());
}

/// An AgentEval ledger of one snapshot that recorded `parent` with `content`.
fn agenteval_ledger(dir: &Path, content: &str) {
    fs::create_dir_all(dir).unwrap();
    let snap = serde_json::json!({
        "Id": "0123456789abcdef0123456789abcdef",
        "CapturedAt": "2026-07-17T12:00:00.1234567+00:00",
        "ScannedRoot": "/home/dev/repo",
        "Skills": [{
            "Name": "parent",
            "SourceKind": 0,
            "RelativePath": PARENT,
            "StructuralFingerprint": "a".repeat(64),
            "ContentHash": content,
            "Source": null,
            "SourceUrl": null,
            "Ref": null,
            "ComplianceFindings": []
        }]
    });
    fs::write(
        dir.join("skills-baseline-20260717120000123-0123456789abcdef0123456789abcdef.json"),
        serde_json::to_vec_pretty(&snap).unwrap(),
    )
    .unwrap();
}

fn tofu(repo: &Path, ledger: &Path) -> Vec<(String, String)> {
    let o = run(&[
        "scan",
        "--repo",
        s(repo),
        "--format",
        "json",
        "-q",
        "--check-baseline",
        "--baseline-root",
        s(ledger),
    ]);
    json(&o)["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["rule_id"] == "matches-previously-vetted-copy"
                || f["rule_id"] == "changed-since-last-vetted"
        })
        .map(|f| {
            (
                f["rule_id"].as_str().unwrap().to_owned(),
                f["skill_path"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

#[test]
fn imported_agenteval_history_of_a_skill_with_nested_skills_matches() {
    let (t, repo) = repo();
    let (content, _) = agenteval_hash(&repo.join(PARENT), &[]);
    let ae = t.path().join("agenteval");
    agenteval_ledger(&ae, &content);
    let ledger = t.path().join("ledger");
    let o = run(&[
        "baseline",
        "import-agenteval",
        s(&ae),
        "--baseline-root",
        s(&ledger),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        tofu(&repo, &ledger),
        [(
            "matches-previously-vetted-copy".to_owned(),
            PARENT.to_owned()
        )]
    );

    // A change inside the nested skill changes the parent under AgentEval's definition.
    fs::write(
        repo.join(PARENT).join("tools/child/scripts/run.sh"),
        b"#!/bin/sh\necho changed\n",
    )
    .unwrap();
    assert_eq!(
        tofu(&repo, &ledger),
        [("changed-since-last-vetted".to_owned(), PARENT.to_owned())]
    );
}

#[test]
fn agenteval_pin_with_content_hash_of_a_skill_with_nested_skills_matches() {
    let (t, repo) = repo();
    let v = json(&run(&[
        "scan",
        "--repo",
        s(&repo),
        "--format",
        "json",
        "-q",
    ]));
    let structural = skill(&v, PARENT)["structural_fingerprint"]
        .as_str()
        .unwrap()
        .to_owned();
    let (content, _) = agenteval_hash(&repo.join(PARENT), &[]);
    let pin = t.path().join("pin.json");
    fs::write(
        &pin,
        serde_json::to_vec_pretty(&serde_json::json!({
            "CapturedAt": "2026-07-17T10:00:00.0000000+00:00",
            "HashesBySkillName": { "parent": structural },
            "Notes": null,
            "ContentHashesBySkillName": { "parent": content }
        }))
        .unwrap(),
    )
    .unwrap();
    let changed = |pin: &Path| -> usize {
        let o = run(&[
            "scan",
            "--repo",
            s(&repo),
            "--format",
            "json",
            "-q",
            "--manifest-baseline",
            s(pin),
        ]);
        json(&o)["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["rule_id"] == "manifest-changed-since-baseline")
            .count()
    };
    assert_eq!(changed(&pin), 0);
    // Imported into one of our pin files: the same.
    let ours = t.path().join("pins.json");
    let o = run(&[
        "baseline",
        "import-agenteval",
        s(&pin),
        "--pin-out",
        s(&ours),
        "--baseline-root",
        s(&t.path().join("ledger")),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(changed(&ours), 0);
    // A nested skill's file changes: the pinned AgentEval hash no longer matches.
    fs::write(
        repo.join(PARENT).join("tools/child/deeper/grand/data.json"),
        b"{\"a\": 2}\n",
    )
    .unwrap();
    assert_eq!(changed(&pin), 1);
    assert_eq!(changed(&ours), 1);
}
