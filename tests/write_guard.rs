//! A scanned repository never chooses where skillguard writes: a symbolic link it planted
//! anywhere on the way to a ledger or a snapshot inside it is refused (exit 2, naming it) and
//! never followed, whether the place is the default one or chosen with `--baseline-root`
//! (scans, `baseline import-agenteval`, `evals grade --record`). A folder of the operator's
//! outside the repository may be a link. (Pin files: `tests/baseline.rs`; `--compat
//! agenteval`'s own ledger and pins: `tests/compat_agenteval.rs`.)
#![cfg(unix)]

mod common;

use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use common::{run, run_in, s, stderr as err};

/// A repository (with a `.git` folder) holding one skill, a folder outside it, and the
/// temporary folder holding both.
fn repo() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let t = tempfile::tempdir().unwrap();
    let repo = t.path().join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    common::write_skill(&repo, ".claude/skills/pdf", "pdf", "Fills PDF forms.");
    let outside = t.path().join("outside");
    fs::create_dir_all(&outside).unwrap();
    (t, repo, outside)
}

/// Creates `dir` and returns the path of an AgentEval snapshot file in it.
fn ae_snapshot(dir: &Path) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    dir.join("skills-baseline-20260717120000000-9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70.json")
}

fn empty(dir: &Path) -> bool {
    fs::read_dir(dir).unwrap().next().is_none()
}

/// `scan --repo REPO -q --write-baseline --baseline-root ROOT`, from `cwd`.
fn record_to(cwd: &Path, repo: &str, root: &str) -> std::process::Output {
    run_in(
        cwd,
        &[
            "scan",
            "--repo",
            repo,
            "-q",
            "--write-baseline",
            "--baseline-root",
            root,
        ],
    )
}

#[test]
fn a_baseline_root_through_a_repository_link_is_refused() {
    let (t, repo, outside) = repo();
    symlink(&outside, repo.join("ledgers")).unwrap();
    fs::create_dir_all(repo.join("state")).unwrap();
    symlink(&outside, repo.join("state/ledger")).unwrap();
    symlink(&repo, t.path().join("checkout")).unwrap();
    for (root, link) in [
        // Absolute, and relative to the repository as the current directory.
        (s(&repo.join("ledgers/main")).to_owned(), "ledgers"),
        ("ledgers/main".to_owned(), "ledgers"),
        // A link deeper down, inside a real folder of the repository.
        (s(&repo.join("state/ledger")).to_owned(), "state/ledger"),
        // Reached through the operator's own link to the repository: still the
        // repository's link.
        (
            s(&t.path().join("checkout/ledgers/main")).to_owned(),
            "ledgers",
        ),
    ] {
        let o = record_to(&repo, ".", &root);
        assert_eq!(o.status.code(), Some(2), "{root}: {}", err(&o));
        assert!(
            err(&o).contains(&format!("{link} is a symbolic link")),
            "{root}: {}",
            err(&o)
        );
        assert!(empty(&outside), "{root}");
    }
    // The operator's link outside the repository is theirs to choose.
    symlink(&outside, t.path().join("my-ledgers")).unwrap();
    let o = record_to(&repo, ".", s(&t.path().join("my-ledgers/main")));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(outside.join("main/snapshots").is_dir());
}

#[test]
fn a_baseline_import_through_a_repository_link_is_refused() {
    let (_t, repo, outside) = repo();
    symlink(&outside, repo.join("pins")).unwrap();
    // An AgentEval snapshot that imports into a real folder of the repository is refused
    // into a ledger reached through the repository's link.
    let ae = repo.join("ae");
    fs::write(
        ae_snapshot(&ae),
        concat!(
            r#"{"Id": "9f0c6a3e2b9d4d0e8a1f2c3b4d5e6f70", "CapturedAt": "2026-07-17T12:00:00+00:00","#,
            r#" "ScannedRoot": "/x", "Skills": [{"Name": "pdf", "SourceKind": 0,"#,
            r#" "RelativePath": ".claude/skills/pdf", "StructuralFingerprint": ""#,
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            r#"", "ContentHash": null, "Source": null, "SourceUrl": null, "Ref": null,"#,
            r#" "ComplianceFindings": []}]}"#
        ),
    )
    .unwrap();
    let import = |root: &Path| {
        run(&[
            "baseline",
            "import-agenteval",
            s(&ae),
            "--repo",
            s(&repo),
            "--baseline-root",
            s(root),
        ])
    };
    let o = import(&repo.join("real-ledger"));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = import(&repo.join("pins/ledger"));
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("pins is a symbolic link"), "{}", err(&o));
    assert!(empty(&outside));
}

#[test]
fn evals_grade_record_through_a_repository_link_is_refused() {
    let (_t, repo, outside) = repo();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/evals/grade");
    fs::create_dir_all(repo.join(".claude/skills/pdf/evals")).unwrap();
    fs::copy(
        fixtures.join("evals.json"),
        repo.join(".claude/skills/pdf/evals/evals.json"),
    )
    .unwrap();
    symlink(&outside, repo.join("eval-ledger")).unwrap();
    let o = run_in(
        &repo,
        &[
            "evals",
            "grade",
            "--strict",
            ".claude/skills/pdf/evals/evals.json",
            "--outputs",
            s(&fixtures.join("outputs")),
            "--record",
            "--baseline-root",
            "eval-ledger/main",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("eval-ledger is a symbolic link"),
        "{}",
        err(&o)
    );
    assert!(empty(&outside));
}

#[test]
fn a_report_path_linked_to_a_device_or_proc_is_refused() {
    let (_t, repo, _outside) = repo();
    for (name, target) in [
        ("skillguard.sarif", "/dev/null"),
        ("log.json", "/proc/self/fd/2"),
        ("in.json", "/proc/self/fd/0"),
    ] {
        symlink(target, repo.join(name)).unwrap();
        let out = repo.join(name);
        let o = run(&["scan", "--repo", s(&repo), "-q", "-o", s(&out)]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", err(&o));
        assert!(err(&o).contains("symbolic link"), "{name}: {}", err(&o));
        assert!(!err(&o).contains("report written"), "{name}: {}", err(&o));
        assert_eq!(fs::read_link(&out).unwrap(), Path::new(target));
    }
}
