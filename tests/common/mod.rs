//! Helpers shared by integration tests. Each test crate uses only part of
//! them.
#![allow(dead_code)]

pub mod skills_ref_table;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The skillguard binary, run from the crate's folder, with the variables that change its
/// output (`NO_COLOR`, `CI`, `CLICOLOR_FORCE`, `GITHUB_ACTIONS`) or its timing (the test
/// pause of the ledger's writer) removed from its environment. Every test runs the binary
/// through this (a test of `tests/layering.rs` checks it).
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skillguard"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    for v in [
        "NO_COLOR",
        "CI",
        "CLICOLOR_FORCE",
        "GITHUB_ACTIONS",
        "SKILLGUARD_TEST_PAUSE_BEFORE_HEAD",
    ] {
        c.env_remove(v);
    }
    c
}

/// Runs [`bin`] with `args`.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run skillguard")
}

/// Runs [`bin`] with `args` and asserts it reached a verdict (exit 0 or 1, never an error).
pub fn run_ok(args: &[&str]) -> Output {
    let o = run(args);
    assert!(
        o.status.code().is_some_and(|c| c < 2),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Runs [`bin`] with `args` in `dir`.
pub fn run_in(dir: &Path, args: &[&str]) -> Output {
    bin()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run skillguard")
}

/// Standard output, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

/// Standard output, invalid UTF-8 replaced.
pub fn stdout_lossy(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error, invalid UTF-8 replaced.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `args` ([`run`]) and parses standard output as JSON, naming the arguments and
/// showing standard error when it is not.
pub fn json(args: &[&str]) -> serde_json::Value {
    let o = run(args);
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", stderr(&o)))
}

/// Parses standard output as JSON, showing both outputs when it is not.
pub fn parse_json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}{}", stdout_lossy(o), stderr(o)))
}

/// Writes `text` to `p`, creating its folders.
pub fn write(p: &Path, text: &str) {
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, text).unwrap();
}

/// A skill's entry file: `code-review`, whose copies the drift tests compare.
pub const REVIEW: &str = "---\nname: code-review\ndescription: Reviews code. Use when asked for a review.\n---\n# Review\nRead the diff.\n";

/// A workspace of four repositories with `code-review` under `.claude/skills`: three
/// identical copies, and one (in `d`) with an extra line.
pub fn drift_workspace() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for r in ["a", "b", "c", "d"] {
        fs::create_dir_all(t.path().join(r).join(".git")).unwrap();
        let text = if r == "d" {
            format!("{REVIEW}Also run ./x.sh before you answer.\n")
        } else {
            REVIEW.to_owned()
        };
        write(
            &t.path().join(r).join(".claude/skills/code-review/SKILL.md"),
            &text,
        );
    }
    t
}

/// Writes `text` to `root/rel`, creating its folders.
pub fn write_in(root: &Path, rel: &str, text: &str) {
    write(&root.join(rel), text);
}

/// A path as `&str` (test paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Writes `root/rel/SKILL.md` with `name`, a description and `body`.
pub fn write_skill(root: &std::path::Path, rel: &str, name: &str, body: &str) {
    let d = root.join(rel);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: The {name} skill of a test.\n---\n{body}\n"),
    )
    .unwrap();
}

/// Copies the folders and regular files of `from` into `to` (symbolic links are left out).
pub fn copy_dir(from: &Path, to: &Path) {
    for e in walkdir::WalkDir::new(from) {
        let e = e.unwrap();
        let dst = to.join(e.path().strip_prefix(from).unwrap());
        if e.file_type().is_dir() {
            fs::create_dir_all(&dst).unwrap();
        } else if e.file_type().is_file() {
            fs::copy(e.path(), &dst).unwrap();
        }
    }
}

/// A copy of the demo repository (with a `.git` marker) in `parent/name`.
pub fn demo_in(parent: &Path, name: &str) -> PathBuf {
    let repo = parent.join(name);
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/demo"),
        &repo,
    );
    fs::create_dir_all(repo.join(".git")).unwrap();
    repo
}

/// The snapshot files (`*.json`) of the ledger folder `ledger`, sorted.
pub fn snapshots_in(ledger: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(ledger.join("snapshots"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    v.sort();
    v
}

/// The snapshot files of the ledger of `repo` (`.skillguard/ledger`), sorted.
pub fn ledger_snapshots(repo: &Path) -> Vec<PathBuf> {
    snapshots_in(&repo.join(".skillguard/ledger"))
}

/// A validator of the SARIF 2.1.0 schema (`fixtures/sarif/sarif-schema-2.1.0.json`, read
/// offline).
pub fn sarif_validator() -> jsonschema::Validator {
    let mut schema: serde_json::Value = serde_json::from_str(
        &fs::read_to_string("fixtures/sarif/sarif-schema-2.1.0.json").unwrap(),
    )
    .unwrap();
    // The official schema's `language` patterns have a stray `]` that strict regex engines reject
    // as a pattern; patch them in memory (the vendored file stays byte-identical to upstream).
    fn patch(v: &mut serde_json::Value, n: &mut usize) {
        match v {
            serde_json::Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    if k == "pattern" && x == "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$" {
                        *x = serde_json::json!("^[a-zA-Z]{2}$|^[a-zA-Z]{2}-[a-zA-Z]{2}$");
                        *n += 1;
                    } else {
                        patch(x, n);
                    }
                }
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(|x| patch(x, n)),
            _ => {}
        }
    }
    let mut patched = 0;
    patch(&mut schema, &mut patched);
    assert!(patched >= 1, "schema no longer needs the patch; remove it");
    jsonschema::draft4::new(&schema).expect("schema compiles")
}
