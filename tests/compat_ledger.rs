//! `--compat agenteval` for the ledger: `baseline list|diff|history` read AgentEval's own
//! ledger (`.agenteval/skills-baselines`) and print AgentEval's texts byte for byte
//! (../shared/reference/agenteval-scanner.md §5.3, §7.2), and AgentEval snapshots are written
//! as AgentEval writes them.
#![allow(clippy::print_stderr)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use chrono::{TimeZone, Utc};
use common::{run_in, stderr as err, stdout as out};
use skillguard::baseline::agenteval::{
    self, AeEntry, AeFinding, AeLedgerError, AeSnapshot, write_agenteval_snapshot,
};

/// `skillguard baseline ARGS --compat agenteval --baseline-root ROOT`.
fn compat(root: &Path, args: &[&str]) -> Output {
    let mut a = vec!["baseline"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["--compat", "agenteval", "--baseline-root"]);
    a.push(root.to_str().unwrap());
    run_in(root.ancestors().nth(2).unwrap(), &a)
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

fn hex(c: char) -> String {
    std::iter::repeat_n(c, 64).collect()
}

/// One skill entry of a hand-written snapshot.
struct E<'a> {
    name: &'a str,
    structural: char,
    content: Option<char>,
    /// Severities of the stored findings (2 = High).
    findings: &'a [u8],
}

fn e<'a>(name: &'a str, structural: char, content: Option<char>, findings: &'a [u8]) -> E<'a> {
    E {
        name,
        structural,
        content,
        findings,
    }
}

/// An AgentEval snapshot file as AgentEval writes it (§5.3), named after `stamp`
/// (yyyyMMddHHmmssfff) and `id`; `at` is its `CapturedAt`.
fn write_snap(root: &Path, stamp: &str, id: &str, at: &str, scanned: &str, skills: &[E]) {
    let mut entries = Vec::new();
    for s in skills {
        let findings: Vec<String> = s
            .findings
            .iter()
            .map(|sev| {
                format!(
                    "        {{\n          \"SkillName\": \"{}\",\n          \"Rule\": 8,\n          \"Severity\": {sev},\n          \"Message\": \"m\",\n          \"Field\": null\n        }}",
                    s.name
                )
            })
            .collect();
        let findings = if findings.is_empty() {
            "[]".to_owned()
        } else {
            format!("[\n{}\n      ]", findings.join(",\n"))
        };
        entries.push(format!(
            "    {{\n      \"Name\": \"{}\",\n      \"SourceKind\": 0,\n      \"RelativePath\": \".claude/skills/{}\",\n      \"StructuralFingerprint\": \"{}\",\n      \"ContentHash\": {},\n      \"Source\": null,\n      \"SourceUrl\": null,\n      \"Ref\": null,\n      \"ComplianceFindings\": {findings}\n    }}",
            s.name,
            s.name,
            hex(s.structural),
            s.content
                .map(|c| format!("\"{}\"", hex(c)))
                .unwrap_or_else(|| "null".into()),
        ));
    }
    let skills = if entries.is_empty() {
        "[]".to_owned()
    } else {
        format!("[\n{}\n  ]", entries.join(",\n"))
    };
    let json = format!(
        "{{\n  \"Id\": \"{id}\",\n  \"CapturedAt\": \"{at}\",\n  \"ScannedRoot\": \"{scanned}\",\n  \"Skills\": {skills}\n}}"
    );
    fs::create_dir_all(root).unwrap();
    fs::write(
        root.join(format!("skills-baseline-{stamp}-{id}.json")),
        json,
    )
    .unwrap();
}

const ID1: &str = "9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70";
const ID2: &str = "1b2c3d4e5f60718293a4b5c6d7e8f901";
const ID3: &str = "00112233445566778899aabbccddeeff";

fn tmp() -> (tempfile::TempDir, PathBuf) {
    let t = tempfile::Builder::new()
        .prefix("compat-ledger")
        .tempdir_in(std::env::temp_dir())
        .unwrap();
    let root = t.path().join(".agenteval/skills-baselines");
    (t, root)
}

/// Three snapshots; the file names sort in another order than `CapturedAt` (AgentEval
/// orders by `CapturedAt`).
fn three(root: &Path) {
    write_snap(
        root,
        "20260717120000123",
        ID1,
        "2026-07-17T12:00:00.1234567+00:00",
        "/repo/.claude/skills",
        &[
            e("alpha", 'a', Some('1'), &[]),
            e("beta", 'b', Some('2'), &[2]),
            e("gamma", 'c', Some('3'), &[]),
            e("old", 'd', Some('4'), &[]),
        ],
    );
    // Named as if older than ID1, captured later.
    write_snap(
        root,
        "20200101000000000",
        ID2,
        "2026-07-18T08:30:05.0000000+00:00",
        "/home/ci/work/a-rather-long-checkout-path/.claude/skills",
        &[
            // Content changed, one more High finding.
            e("alpha", 'a', Some('5'), &[2, 1]),
            // Content changed, same number of High findings.
            e("beta", 'b', Some('6'), &[2]),
            // Only the structural fingerprint changed.
            e("gamma", 'e', Some('3'), &[]),
            e("new", 'f', Some('7'), &[]),
            // No content hash: left out of a content diff.
            e("nohash", 'g', None, &[]),
        ],
    );
    write_snap(
        root,
        "20260719000000000",
        ID3,
        "2026-07-19T00:00:00.0000000+00:00",
        "/repo",
        &[
            e("alpha", 'a', Some('5'), &[2, 2]),
            // The first entry of a name wins.
            e("beta", 'b', Some('6'), &[2]),
            e("beta", 'b', Some('9'), &[2, 2, 2]),
        ],
    );
}

#[test]
fn list_is_agenteval_table_oldest_first_with_off_by_one_header() {
    let (_t, root) = tmp();
    three(&root);
    let o = compat(&root, &["list"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(
        out(&o),
        "Id                                CapturedAt (UTC)     ScannedRoot                            Skills\n\
         9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70  2026-07-17 12:00:00 /repo/.claude/skills                        4\n\
         1b2c3d4e5f60718293a4b5c6d7e8f901  2026-07-18 08:30:05 /home/ci/work/a-rather-long-checkout-…      5\n\
         00112233445566778899aabbccddeeff  2026-07-19 00:00:00 /repo                                       3\n"
    );
    assert_eq!(err(&o), "");
}

#[test]
fn list_reproduces_the_reference_sample_row() {
    let (_t, root) = tmp();
    write_snap(
        &root,
        "20260717120000123",
        ID1,
        "2026-07-17T12:00:00.1234567+00:00",
        "/repo/.claude/skills",
        &[e("a", 'a', Some('1'), &[]), e("b", 'b', Some('2'), &[])],
    );
    let o = compat(&root, &["list"]);
    // §5.3, verbatim.
    assert_eq!(
        out(&o),
        "Id                                CapturedAt (UTC)     ScannedRoot                            Skills\n\
         9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70  2026-07-17 12:00:00 /repo/.claude/skills                        2\n"
    );
}

#[test]
fn empty_or_missing_ledger() {
    let (_t, root) = tmp();
    const NONE: &str = "No baseline snapshots captured yet. Run 'agenteval skills scan <path> --write-baseline' first.\n";
    let o = compat(&root, &["list"]);
    assert_eq!((code(&o), out(&o).as_str()), (0, NONE));
    fs::create_dir_all(&root).unwrap();
    let o = compat(&root, &["list"]);
    assert_eq!((code(&o), out(&o).as_str()), (0, NONE));
    let o = compat(&root, &["diff"]);
    assert_eq!(code(&o), 0);
    assert!(
        out(&o).starts_with("Need at least 2 baseline snapshots to diff (found 0)."),
        "{}",
        out(&o)
    );
    let o = compat(&root, &["history", "x"]);
    assert_eq!(
        (code(&o), out(&o).as_str()),
        (
            0,
            "Content-hash history for 'x':\n  'x' does not appear in any captured snapshot.\n"
        )
    );
}

#[test]
fn diff_latest_two_by_content_hash() {
    let (_t, root) = tmp();
    three(&root);
    let o = compat(&root, &["diff", "--since", ID1]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(
        out(&o),
        "Diffing 9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70 (2026-07-17 12:00:00 UTC) -> 00112233445566778899aabbccddeeff (2026-07-19 00:00:00 UTC), hash=content\n\
         \n\
         \x20 !! [CHANGED + NEW HIGH FINDING] alpha (0 -> 2 High finding(s))\n\
         \x20    [changed, no new High finding] beta\n\
         \x20    [removed]   gamma\n\
         \x20    [removed]   old\n"
    );
    // Default: the two newest by CapturedAt (not by file name).
    let o = compat(&root, &["diff"]);
    assert_eq!(
        out(&o),
        "Diffing 1b2c3d4e5f60718293a4b5c6d7e8f901 (2026-07-18 08:30:05 UTC) -> 00112233445566778899aabbccddeeff (2026-07-19 00:00:00 UTC), hash=content\n\
         \n\
         \x20    [unchanged] alpha\n\
         \x20    [unchanged] beta\n\
         \x20    [removed]   gamma\n\
         \x20    [removed]   new\n"
    );
}

#[test]
fn diff_by_structural_fingerprint_and_null_content_hashes() {
    let (_t, root) = tmp();
    three(&root);
    // `--since` names the earlier snapshot; the later one is always the newest: diff ID1 and
    // ID2 by removing ID3.
    fs::remove_file(root.join(format!("skills-baseline-20260719000000000-{ID3}.json"))).unwrap();
    let o = compat(&root, &["diff", "--hash", "structural"]);
    assert_eq!(
        out(&o),
        "Diffing 9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70 (2026-07-17 12:00:00 UTC) -> 1b2c3d4e5f60718293a4b5c6d7e8f901 (2026-07-18 08:30:05 UTC), hash=structural\n\
         \n\
         \x20    [unchanged] alpha\n\
         \x20    [unchanged] beta\n\
         \x20    [changed, no new High finding] gamma\n\
         \x20    [new]       new\n\
         \x20    [new]       nohash\n\
         \x20    [removed]   old\n"
    );
    // By content, the entry without a content hash is not there at all.
    let o = compat(&root, &["diff"]);
    assert_eq!(
        out(&o),
        "Diffing 9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70 (2026-07-17 12:00:00 UTC) -> 1b2c3d4e5f60718293a4b5c6d7e8f901 (2026-07-18 08:30:05 UTC), hash=content\n\
         \n\
         \x20 !! [CHANGED + NEW HIGH FINDING] alpha (0 -> 1 High finding(s))\n\
         \x20    [changed, no new High finding] beta\n\
         \x20    [unchanged] gamma\n\
         \x20    [new]       new\n\
         \x20    [removed]   old\n"
    );
    let o = compat(&root, &["diff", "--skill", "nohash"]);
    assert_eq!(
        out(&o),
        "Diffing 9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70 (2026-07-17 12:00:00 UTC) -> 1b2c3d4e5f60718293a4b5c6d7e8f901 (2026-07-18 08:30:05 UTC), hash=content\n\
         \n\
         'nohash' is not present (with a content hash) in either snapshot (9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70 / 1b2c3d4e5f60718293a4b5c6d7e8f901).\n"
    );
    // `--skill` compares exactly.
    let o = compat(&root, &["diff", "--skill", "Alpha"]);
    assert!(out(&o).contains("'Alpha' is not present"), "{}", out(&o));
    let o = compat(&root, &["diff", "--skill", "alpha", "--hash", "Content"]);
    assert!(
        out(&o).ends_with(
            "hash=content\n\n  !! [CHANGED + NEW HIGH FINDING] alpha (0 -> 1 High finding(s))\n"
        ),
        "{}",
        out(&o)
    );
}

#[test]
fn diff_nothing_to_diff_and_runtime_errors() {
    let (_t, root) = tmp();
    three(&root);
    let o = compat(&root, &["diff", "--since", ID3]);
    assert_eq!(
        (code(&o), out(&o).as_str()),
        (
            0,
            "The --since snapshot IS the most recent snapshot — nothing to diff.\n"
        )
    );
    let o = compat(&root, &["diff", "--since", "does-not-exist"]);
    assert_eq!(code(&o), 3);
    assert_eq!(out(&o), "");
    assert_eq!(
        err(&o),
        format!(
            "  Error: no snapshot with Id 'does-not-exist' found in {}.\n",
            root.display()
        )
    );
    let o = compat(&root, &["diff", "--hash", "bogus"]);
    assert_eq!(code(&o), 3);
    assert_eq!(out(&o), "");
    assert_eq!(
        err(&o),
        "  Error: Unknown --hash value 'bogus'. Expected 'structural' or 'content'.\n"
    );
    // Our `files` hash is not AgentEval's.
    assert_eq!(code(&compat(&root, &["diff", "--hash", "files"])), 3);
    // Usage errors stay 2: clap's, and our flags AgentEval has no equivalent of.
    assert_eq!(code(&compat(&root, &["diff", "--since"])), 2);
    assert_eq!(code(&compat(&root, &["list", "--format", "json"])), 2);
    assert_eq!(code(&compat(&root, &["diff", "--until", ID2])), 2);
    assert_eq!(code(&compat(&root, &["diff", "--normalize-eol"])), 2);
    // Without --compat an unknown --hash is a usage error.
    let o = run_in(
        root.ancestors().nth(2).unwrap(),
        &["baseline", "diff", "--hash", "bogus"],
    );
    assert_eq!(code(&o), 2, "{}", err(&o));

    // One snapshot: nothing to diff, exit 0.
    let (_u, one) = tmp();
    write_snap(
        &one,
        "20260717120000123",
        ID1,
        "2026-07-17T12:00:00.1234567+00:00",
        "/r",
        &[],
    );
    let o = compat(&one, &["diff"]);
    assert_eq!(code(&o), 0);
    assert!(
        out(&o).starts_with("Need at least 2 baseline snapshots to diff (found 1)."),
        "{}",
        out(&o)
    );
}

#[test]
fn history_lines_and_documented_count_bug() {
    let (_t, root) = tmp();
    three(&root);
    let o = compat(&root, &["history", "alpha"]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        out(&o),
        "Content-hash history for 'alpha':\n\
         \x20 2026-07-17 12:00:00 UTC — content changed (snapshot 9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70)\n\
         \x20 2026-07-18 08:30:05 UTC — content changed (snapshot 1b2c3d4e5f60718293a4b5c6d7e8f901) — 1 High finding(s) present at this point\n"
    );
    // beta: the first entry of each snapshot; unchanged from ID2 to ID3.
    let o = compat(&root, &["history", "beta"]);
    assert_eq!(
        out(&o),
        "Content-hash history for 'beta':\n\
         \x20 2026-07-17 12:00:00 UTC — content changed (snapshot 9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70) — 1 High finding(s) present at this point\n\
         \x20 2026-07-18 08:30:05 UTC — content changed (snapshot 1b2c3d4e5f60718293a4b5c6d7e8f901) — 1 High finding(s) present at this point\n"
    );
    // Only null hashes: no change; AgentEval counts every snapshot of the ledger (3), not the
    // one that includes the skill.
    let o = compat(&root, &["history", "nohash"]);
    assert_eq!(
        out(&o),
        "Content-hash history for 'nohash':\n  No content changes detected across 3 snapshot(s) that include it.\n"
    );
    let o = compat(&root, &["history", "ALPHA"]);
    assert_eq!(
        out(&o),
        "Content-hash history for 'ALPHA':\n  'ALPHA' does not appear in any captured snapshot.\n"
    );
}

#[test]
fn corrupt_files_are_skipped_with_one_warning_each() {
    let (_t, root) = tmp();
    three(&root);
    let bad = root.join("skills-baseline-20260720000000000-ffffffffffffffffffffffffffffffff.json");
    fs::write(&bad, "{ \"Id\": \"ffff").unwrap();
    let wrong =
        root.join("skills-baseline-20260721000000000-eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee.json");
    fs::write(
        &wrong,
        r#"{"Id": "eeee", "CapturedAt": "yesterday", "Skills": []}"#,
    )
    .unwrap();
    // Not a snapshot file name: not read at all.
    fs::write(root.join("notes.json"), "garbage").unwrap();
    let o = compat(&root, &["list"]);
    assert_eq!(code(&o), 0);
    assert_eq!(out(&o).lines().count(), 4, "{}", out(&o));
    let e = err(&o);
    assert_eq!(e.lines().count(), 2, "{e}");
    for f in [&bad, &wrong] {
        assert!(
            e.contains(&format!(
                "  Warning: {} could not be read as a baseline snapshot (",
                f.display()
            )),
            "{e}"
        );
    }
    assert!(e.lines().all(|l| l.ends_with("); skipped.")), "{e}");
    assert!(!e.contains("notes.json"));
}

#[test]
fn default_root_is_under_the_current_directory_and_config_turns_compat_on() {
    let (t, root) = tmp();
    three(&root);
    let cwd = t.path();
    let o = run_in(cwd, &["baseline", "list", "--compat", "agenteval"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 4, "{}", out(&o));
    // --repo ROOT: the AgentEval ledger under it.
    let elsewhere = tempfile::tempdir_in(std::env::temp_dir()).unwrap();
    let o = run_in(
        elsewhere.path(),
        &[
            "baseline",
            "history",
            "alpha",
            "--compat",
            "agenteval",
            "--repo",
            cwd.to_str().unwrap(),
        ],
    );
    assert_eq!(out(&o).lines().count(), 3, "{}", out(&o));

    // `compat = "agenteval"` in the repository's configuration.
    fs::create_dir(cwd.join(".git")).unwrap();
    fs::write(cwd.join(".skillguard.toml"), "compat = \"agenteval\"\n").unwrap();
    let o = run_in(cwd, &["baseline", "diff"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(out(&o).starts_with("Diffing 1b2c3d4e"), "{}", out(&o));
    // ... from a subdirectory too (the configuration at the git root; the ledger, as
    // AgentEval, under the current directory: none there).
    let sub = cwd.join("sub");
    fs::create_dir(&sub).unwrap();
    let o = run_in(&sub, &["baseline", "list"]);
    assert!(
        out(&o).starts_with("No baseline snapshots captured yet."),
        "{}",
        out(&o)
    );
    // --no-config: our own ledger (empty).
    let o = run_in(cwd, &["baseline", "list", "--no-config"]);
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert!(!out(&o).contains("CapturedAt (UTC)"), "{}", out(&o));
    // Unknown --hash from the configuration's compat: exit 3.
    let o = run_in(cwd, &["baseline", "diff", "--hash", "x"]);
    assert_eq!(code(&o), 3, "{}", err(&o));
}

fn sample() -> AeSnapshot {
    AeSnapshot {
        id: ID1.into(),
        captured_at: Utc.with_ymd_and_hms(2026, 7, 17, 12, 0, 0).unwrap()
            + chrono::Duration::nanoseconds(123_456_700),
        scanned_root: "/abs/path/that/was/scanned".into(),
        skills: vec![
            AeEntry {
                name: "expense-report".into(),
                source_kind: agenteval::SOURCE_KIND_FILE,
                relative_path: ".claude/skills/expense-report".into(),
                structural_fingerprint: hex('a'),
                content_hash: Some(hex('b')),
                source: Some("org/skills".into()),
                source_url: None,
                reference: Some("v1.2.0".into()),
                compliance_findings: vec![AeFinding {
                    skill_name: "expense-report".into(),
                    rule: 8,
                    severity: 1,
                    message: "Skill 'expense-report' ships 1 script(s) <review>".into(),
                    field: None,
                }],
            },
            AeEntry {
                name: "bad--name".into(),
                source_kind: agenteval::SOURCE_KIND_FILE,
                relative_path: ".claude/skills/bad--name".into(),
                structural_fingerprint: hex('c'),
                content_hash: None,
                source: None,
                source_url: None,
                reference: None,
                compliance_findings: vec![],
            },
        ],
    }
}

const SAMPLE_JSON: &str = r#"{
  "Id": "9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70",
  "CapturedAt": "2026-07-17T12:00:00.1234567+00:00",
  "ScannedRoot": "/abs/path/that/was/scanned",
  "Skills": [
    {
      "Name": "expense-report",
      "SourceKind": 0,
      "RelativePath": ".claude/skills/expense-report",
      "StructuralFingerprint": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "ContentHash": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
      "Source": "org/skills",
      "SourceUrl": null,
      "Ref": "v1.2.0",
      "ComplianceFindings": [
        {
          "SkillName": "expense-report",
          "Rule": 8,
          "Severity": 1,
          "Message": "Skill \u0027expense-report\u0027 ships 1 script(s) \u003Creview\u003E",
          "Field": null
        }
      ]
    },
    {
      "Name": "bad--name",
      "SourceKind": 0,
      "RelativePath": ".claude/skills/bad--name",
      "StructuralFingerprint": "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc",
      "ContentHash": null,
      "Source": null,
      "SourceUrl": null,
      "Ref": null,
      "ComplianceFindings": []
    }
  ]
}"#;

#[test]
fn written_snapshot_matches_agenteval_bytes_and_reads_back() {
    let (_t, root) = tmp();
    let snap = sample();
    let path = write_agenteval_snapshot(&root, &snap, None).unwrap();
    assert_eq!(
        path,
        root.join("skills-baseline-20260717120000123-9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70.json")
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), SAMPLE_JSON);
    // Never overwritten.
    assert!(matches!(
        write_agenteval_snapshot(&root, &snap, None),
        Err(AeLedgerError::Exists { .. })
    ));
    // No temporary file left behind.
    assert_eq!(fs::read_dir(&root).unwrap().count(), 1);
    assert_eq!(
        agenteval::saved_line(&snap, &root),
        format!(
            "  Baseline snapshot saved: {ID1} (2 skill(s) -> {})",
            root.display()
        )
    );

    // AgentEval's own commands read it.
    let o = compat(&root, &["list"]);
    assert!(
        out(&o).ends_with(
            "9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70  2026-07-17 12:00:00 /abs/path/that/was/scanned                  2\n"
        ),
        "{}",
        out(&o)
    );

    // The import parser reads it back.
    let ours = tempfile::tempdir_in(std::env::temp_dir()).unwrap();
    let ledger = skillguard::baseline::ledger::Ledger::new(ours.path().join("ledger"));
    let r = skillguard::baseline::import::import_agenteval(&root, &ledger, None).unwrap();
    assert_eq!((r.snapshots_imported, r.skill_entries), (1, 2));
    let loaded: Vec<skillguard::baseline::ledger::Loaded<skillguard::baseline::ledger::Snapshot>> =
        ledger.load().unwrap();
    let s = &loaded[0].snapshot;
    assert_eq!(s.captured_at, "2026-07-17T12:00:00.123Z");
    assert_eq!(s.root.absolute, "/abs/path/that/was/scanned");
    assert_eq!(s.imported.as_ref().unwrap().id, ID1);
    let er = s
        .skills
        .iter()
        .find(|k| k.name == "expense-report")
        .unwrap();
    assert_eq!(er.location, ".claude/skills/expense-report");
    assert_eq!(er.structural.as_deref(), Some(hex('a').as_str()));
    assert_eq!(er.content.as_deref(), Some(hex('b').as_str()));
    let p = er.provenance.as_ref().unwrap();
    assert_eq!(
        (p.source.as_deref(), p.git_ref.as_deref()),
        (Some("org/skills"), Some("v1.2.0"))
    );
    let counts: usize = er
        .findings
        .values()
        .flat_map(|m| m.values())
        .map(|n| *n as usize)
        .sum();
    assert_eq!(counts, 1);
    let bad = s.skills.iter().find(|k| k.name == "bad--name").unwrap();
    assert_eq!(bad.content, None);
}

#[test]
fn previously_vetted_keeps_the_newest_capture_of_each_exact_pair() {
    let (_t, root) = tmp();
    three(&root);
    fs::write(root.join("skills-baseline-1-x.json"), "not json").unwrap();
    let v = agenteval::previously_vetted(&root).unwrap();
    assert_eq!(v.skipped.len(), 1);
    // alpha/5 in ID2 and ID3: the newest.
    assert_eq!(v.date("alpha", &hex('5')).as_deref(), Some("2026-07-19"));
    assert_eq!(v.date("alpha", &hex('1')).as_deref(), Some("2026-07-17"));
    // Exact: another case or another hash is no match; null hashes are never pairs.
    assert_eq!(v.get("Alpha", &hex('5')), None);
    assert_eq!(v.get("alpha", &hex('9')), None);
    // Every entry counts, not only the first of a name.
    assert_eq!(v.date("beta", &hex('9')).as_deref(), Some("2026-07-19"));
    assert!(!v.pairs.keys().any(|(n, _)| n == "nohash"));
    // An empty or missing ledger vets nothing.
    let (_u, none) = tmp();
    assert!(
        agenteval::previously_vetted(&none)
            .unwrap()
            .pairs
            .is_empty()
    );
}

#[test]
fn default_roots() {
    assert_eq!(
        agenteval::default_root(false),
        PathBuf::from(".agenteval/skills-baselines")
    );
    assert_eq!(
        agenteval::default_root(true),
        PathBuf::from(".agenteval/skills-baselines-workspace")
    );
}
