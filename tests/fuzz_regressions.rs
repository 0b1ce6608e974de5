//! Regression tests for the crashes, hangs and invariant violations found while fuzzing
//! (docs/development.md, "Fuzzing"). Each input is minimised and built inline; each test
//! failed before its fix. They run the same body as the fuzz target
//! (`skillguard::fuzzing`) and, where it says more, the entry point itself.

mod common;

use skillguard::fuzzing;
use skillguard::security::families::packaging::archive;

fn le16(v: u16) -> [u8; 2] {
    v.to_le_bytes()
}

fn le32(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

/// A one-member stored zip `a.txt` = `hello`, with the central directory entry's local
/// header offset replaced by `lho` and `extra` as its extra field, and the end record's
/// counts and sizes replaced by `eocd_counts` when given (`(count, cd_size, cd_off)`),
/// with `before_eocd` inserted between the central directory and the end record.
fn zip(
    lho: u32,
    extra: &[u8],
    eocd_counts: Option<(u16, u32, u32)>,
    before_eocd: &[u8],
) -> Vec<u8> {
    let (name, data) = (b"a.txt", b"hello");
    let mut z = Vec::new();
    z.extend_from_slice(b"PK\x03\x04");
    for v in [20u16, 0, 0, 0, 0] {
        z.extend_from_slice(&le16(v));
    }
    for v in [0u32, 5, 5] {
        z.extend_from_slice(&le32(v));
    }
    z.extend_from_slice(&le16(name.len() as u16));
    z.extend_from_slice(&le16(0));
    z.extend_from_slice(name);
    z.extend_from_slice(data);
    let cd_off = z.len() as u32;
    z.extend_from_slice(b"PK\x01\x02");
    for v in [20u16, 20, 0, 0, 0, 0] {
        z.extend_from_slice(&le16(v));
    }
    for v in [0u32, 5, 5] {
        z.extend_from_slice(&le32(v));
    }
    for v in [name.len() as u16, extra.len() as u16, 0, 0, 0] {
        z.extend_from_slice(&le16(v));
    }
    z.extend_from_slice(&le32(0));
    z.extend_from_slice(&le32(lho));
    z.extend_from_slice(name);
    z.extend_from_slice(extra);
    let cd_size = z.len() as u32 - cd_off;
    z.extend_from_slice(before_eocd);
    let (count, size, off) = eocd_counts.unwrap_or((1, cd_size, cd_off));
    z.extend_from_slice(b"PK\x05\x06");
    for v in [0u16, 0, count, count] {
        z.extend_from_slice(&le16(v));
    }
    z.extend_from_slice(&le32(size));
    z.extend_from_slice(&le32(off));
    z.extend_from_slice(&le16(0));
    z
}

/// A ZIP64 locator whose record offset is near `u64::MAX`: `o + 4` overflowed
/// (`src/security/archive.rs`, `list_zip`; a panic in debug builds, a wrapped range in
/// release). Found by probing the `archive` target's body with hand-made ZIP64 inputs.
#[test]
fn zip64_locator_offset_near_u64_max() {
    let mut loc = b"PK\x06\x07".to_vec();
    loc.extend_from_slice(&le32(0));
    loc.extend_from_slice(&(u64::MAX - 1).to_le_bytes());
    loc.extend_from_slice(&le32(1));
    let cd_size = 46 + 5;
    let z = zip(0, &[], Some((0xffff, cd_size, 40)), &loc);
    fuzzing::archive_listing(&z);
    let l = archive::list(&z).expect("a zip");
    assert!(
        l.issues
            .iter()
            // The locator is unusable; the classic record's sizes are tried instead (a zip
            // of exactly 65,535 entries has no ZIP64 record), and they point at garbage.
            .any(|i| matches!(i, archive::Issue::Malformed(_))),
        "{:?}",
        l.issues
    );
}

/// A ZIP64 extra field giving a local header offset near `u64::MAX`: `lho + 4`
/// overflowed (`src/security/archive.rs`, `zip_data`).
#[test]
fn zip64_extra_local_header_offset_near_u64_max() {
    let mut extra = Vec::new();
    extra.extend_from_slice(&le16(1));
    extra.extend_from_slice(&le16(8));
    extra.extend_from_slice(&(u64::MAX - 1).to_le_bytes());
    let z = zip(0xffff_ffff, &extra, None, &[]);
    fuzzing::archive_listing(&z);
    let l = archive::list(&z).expect("a zip");
    assert!(
        l.members[0].head.is_empty(),
        "no data at an impossible offset"
    );
    // The local header the directory does not point at is read as streaming extractors
    // read it: a member only a local header names.
    assert_eq!(l.members.len(), 2);
    assert!(
        l.issues
            .iter()
            .any(|i| matches!(i, archive::Issue::LocalOnly(_))),
        "{:?}",
        l.issues
    );
}

/// A snapshot whose finding counts add up past `u32::MAX`.
fn snapshot_with_counts(seq: u64, id: &str, prev: &str, high: u32) -> String {
    format!(
        r#"{{"format":"skillguard-ledger","version":1,"seq":{seq},"id":"{id}","prev":{prev},"captured_at":"2026-12-02T14:54:23.515Z","tool":"skillguard 0.1.0","root":{{"mode":"path","relative":"skills","absolute":"/x/skills"}},"hash_options":{{"normalize_eol":false,"ignore":[]}},
"skills":[
{{"location":"skills/a","name":"a","structural":null,"content":null,"files":[],"findings":{{"r1":{{"high":{high}}},"r2":{{"critical":1}}}}}}
]}}
"#
    )
}

/// Finding counts of a snapshot are summed as `u32`: 4294967295 high + 1 critical
/// overflowed (`SkillEntry::count_at_least` in `src/baseline/ledger.rs`, used by `baseline
/// diff`; the same sum in `baseline history`, `src/baseline/review.rs`): a panic in debug
/// builds, and in release a wrap to 0 that showed a hostile ledger's skill as having no
/// high findings. Found by running the `ledger` target body on a seed
/// whose count was set to `u32::MAX` by hand.
#[test]
fn ledger_finding_counts_saturate() {
    let snap = snapshot_with_counts(1, &"a".repeat(32), "null", u32::MAX);
    fuzzing::ledger_snapshot(snap.as_bytes());
    let f = skillguard::baseline::ledger::SnapshotFile {
        seq: 1,
        id: "a".repeat(32),
        path: "x.json".into(),
    };
    let s: skillguard::baseline::ledger::Snapshot =
        skillguard::baseline::ledger::parse(&f, snap.as_bytes(), true).unwrap();
    assert_eq!(
        s.skills[0].count_at_least(skillguard::finding::Severity::High),
        u32::MAX
    );
}

/// The same counts through the CLI: `baseline history` and `baseline diff` on a ledger of
/// two such snapshots exit 0 (they panicked with exit 101 in debug builds).
#[test]
fn ledger_finding_counts_saturate_in_history_and_diff() {
    let tmp = tempfile::tempdir().unwrap();
    let snaps = tmp.path().join("ledger/snapshots");
    std::fs::create_dir_all(&snaps).unwrap();
    let (a, b) = ("a".repeat(32), "b".repeat(32));
    let first = snapshot_with_counts(1, &a, "null", u32::MAX);
    std::fs::write(snaps.join(format!("00000001-{a}.json")), &first).unwrap();
    let sha = {
        use sha2::Digest;
        sha2::Sha256::digest(first.as_bytes())
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect::<String>()
    };
    let prev = format!(r#"{{"seq":1,"id":"{a}","sha256":"{sha}","count":1}}"#);
    let second = snapshot_with_counts(2, &b, &prev, u32::MAX - 1);
    std::fs::write(snaps.join(format!("00000002-{b}.json")), second).unwrap();
    for args in [&["history", "a"][..], &["diff"][..]] {
        let out = common::bin()
            .arg("baseline")
            .args(args)
            .arg("--baseline-root")
            .arg(tmp.path().join("ledger"))
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "baseline {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// A `.pyc` in `__pycache__/__pycache__/`: its source is in the outer `__pycache__` folder
/// (Python's rule), which the `pyc` target's invariant wrongly forbade. Found by a
/// 10-minute `pyc` run; the scanner was right, the invariant is corrected.
#[test]
fn pyc_in_a_nested_pycache_folder() {
    let t = "__pycache__/__pycache__/m.cpython-311.pyc";
    assert_eq!(
        skillguard::security::families::packaging::pyc::source_path(t).as_deref(),
        Some("__pycache__/m.py")
    );
    fuzzing::pyc_header(t.as_bytes());
    fuzzing::pyc_header(b"__pycache__/__pycache__/\x10\x1e.pyc\x10\x1e.pyc");
}
