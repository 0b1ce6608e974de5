//! The `skills-ref` loader profile ([`skillguard::loaders::skills_ref::validate`])
//! against the reference validator itself, message for message:
//!
//! * every row of the conformance table (reference §2.6: V01-V44, I01-I39,
//!   P01-P18, D01; shared with `tests/conformance_skills_ref.rs` through
//!   `tests/common/skills_ref_table.rs`): exact strings for V/I/D rows; for the
//!   P rows, which the table abbreviates, the `Invalid YAML in frontmatter: `
//!   prefix and the key phrase (P18, a crash of skills-ref, as a parse error
//!   naming the `UnicodeDecodeError`);
//! * the full strictyaml texts of the P rows, as skills-ref 0.1.1 with
//!   strictyaml 1.7.3 on Python 3.11.7 prints them;
//! * the filename rows X01-X03 and the path rows X04/X05 (a path is the
//!   caller's business: [`skills_ref_validate_path`] composes them);
//! * `tests/common/skills_ref_recorded.jsonl`: frontmatter variations (valid
//!   skills, every validator message, strictyaml's refusals and syntax
//!   errors, crashes) each with the list skills-ref's `validate()` returned
//!   for it (one case per kind of result, picked from 28,000 generated
//!   cases run through skills-ref 0.1.1 / strictyaml 1.7.3 / Python 3.11.7
//!   among those this emulation reproduces; the kinds it does not are listed
//!   in the module documentation of `skills_ref.rs`).

mod common;

use std::path::{Path, PathBuf};

use common::skills_ref_table::{ROWS, Row, X_ROWS, X_SKILL, decode, decode_str};
use skillguard::loaders::skills_ref::validate;

const INVALID_YAML: &str = "Invalid YAML in frontmatter: ";

/// The bytes of `SKILL.md` and of `skill.md` in a row (exact names).
fn entry_files(row: &Row) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let file = |name: &str| {
        row.files
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, content)| decode(content))
    };
    (file("SKILL.md"), file("skill.md"))
}

fn verdicts_of(row: &Row) -> Vec<String> {
    let (upper, lower) = entry_files(row);
    validate(&decode_str(row.dir), upper.as_deref(), lower.as_deref())
}

/// Whether `actual` is the message the table gives as `expected`.
fn check_message(expected: &str, actual: &str) -> Result<(), String> {
    if let Some(phrase) = expected
        .strip_prefix("Invalid YAML in frontmatter: … «")
        .and_then(|p| p.strip_suffix('»'))
    {
        let rest = actual
            .strip_prefix(INVALID_YAML)
            .ok_or_else(|| format!("no `{INVALID_YAML}` prefix"))?;
        // The phrase's lines (` / `) appear in order.
        let mut from = 0;
        for part in decode_str(phrase).split(" / ") {
            let at = rest[from..]
                .find(part)
                .ok_or_else(|| format!("key phrase part {part:?} missing"))?;
            from += at + part.len();
        }
        return Ok(());
    }
    if expected == "UNCAUGHT UnicodeDecodeError" {
        return if actual.starts_with("UnicodeDecodeError") {
            Ok(())
        } else {
            Err("not reported as a UnicodeDecodeError".to_owned())
        };
    }
    let expected = decode_str(expected);
    if actual == expected {
        Ok(())
    } else {
        Err(format!("expected exactly {expected:?}"))
    }
}

/// Compares one row; `Err` describes the difference.
fn check_row(row: &Row, actual: &[String]) -> Result<(), String> {
    if actual.len() != row.skills_ref.len() {
        return Err(format!(
            "{} message(s), skills-ref returns {}",
            actual.len(),
            row.skills_ref.len()
        ));
    }
    for (i, (want, got)) in row.skills_ref.iter().zip(actual).enumerate() {
        check_message(want, got).map_err(|e| format!("message {}: {e}", i + 1))?;
    }
    Ok(())
}

#[test]
fn every_table_row_reproduces_skills_ref() {
    assert_eq!(ROWS.len(), 102, "§2.6 has 102 rows");
    let mut problems = Vec::new();
    for row in ROWS {
        let actual = verdicts_of(row);
        if let Err(e) = check_row(row, &actual) {
            problems.push(format!(
                "{} ({}): {e}\n    skills-ref: {:?}\n    ours:       {actual:?}",
                row.id, row.what, row.skills_ref
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} rows differ:\n{}",
        problems.len(),
        ROWS.len(),
        problems.join("\n")
    );
}

/// The P rows in full, as strictyaml words them (the table abbreviates).
#[rustfmt::skip]
const PARSE_ERRORS: &[(&str, &str)] = &[
    ("P05", "Invalid YAML in frontmatter: While scanning\n  in \"<unicode string>\", line 2, column 7:\n    name: [invalid\n          ^ (line: 2)\nFound ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)\n  in \"<unicode string>\", line 2, column 8:\n    name: [invalid\n           ^ (line: 2)"),
    ("P08", "Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"<unicode string>\", line 3, column 22:\n    description: Use when: the user asks\n                         ^ (line: 3)"),
    ("P09", "Invalid YAML in frontmatter: While parsing\n  in \"<unicode string>\", line 4, column 1:\n    name: my-skill\n    ^ (line: 4)\nDuplicate key 'name' found\n  in \"<unicode string>\", line 4, column 5:\n    name: my-skill\n        ^ (line: 4)"),
    ("P10", "Invalid YAML in frontmatter: While scanning\n  in \"<unicode string>\", line 4, column 11:\n    metadata: {author: x}\n              ^ (line: 4)\nFound ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)\n  in \"<unicode string>\", line 4, column 12:\n    metadata: {author: x}\n               ^ (line: 4)"),
    ("P11", "Invalid YAML in frontmatter: While scanning\n  in \"<unicode string>\", line 4, column 16:\n    allowed-tools: [Read, Grep]\n                   ^ (line: 4)\nFound ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)\n  in \"<unicode string>\", line 4, column 17:\n    allowed-tools: [Read, Grep]\n                    ^ (line: 4)"),
    ("P12", "Invalid YAML in frontmatter: While scanning\n  in \"<unicode string>\", line 2, column 7:\n    name: &a my-skill\n          ^ (line: 2)\nFound confusing disallowed anchor token (surround with ' and ' to make text appear literally)\n  in \"<unicode string>\", line 2, column 9:\n    name: &a my-skill\n            ^ (line: 2)"),
    ("P13", "Invalid YAML in frontmatter: While scanning\n  in \"<unicode string>\", line 2, column 12:\n    name: !!str my-skill\n               ^ (line: 2)\nFound disallowed tag tokens (do not specify types in markup)\n  in \"<unicode string>\", line 2, column 7:\n    name: !!str my-skill\n          ^ (line: 2)"),
    ("P14", "Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"<unicode string>\", line 3, column 14:\n      description: d\n                 ^ (line: 3)"),
    ("P15", "Invalid YAML in frontmatter: mapping values are not allowed here\n  in \"<unicode string>\", line 3, column 12:\n    description: d\n               ^ (line: 3)"),
    ("P16", "Invalid YAML in frontmatter: while scanning for the next token\nfound character '\\t' that cannot start any token\n  in \"<unicode string>\", line 4, column 1:\n    \tlicense: MIT\n    ^ (line: 4)"),
    ("P17", "Invalid YAML in frontmatter: while parsing a block node\nexpected the node content, but found '?'\n  in \"<unicode string>\", line 2, column 1:\n    name: my-skill\n    ^ (line: 2)"),
];

#[test]
fn parse_errors_are_strictyamls_exact_texts() {
    for (id, want) in PARSE_ERRORS {
        let row = ROWS.iter().find(|r| r.id == *id).unwrap();
        assert_eq!(verdicts_of(row), [*want], "{id} ({})", row.what);
    }
    // The crash: the exception Python prints, with the byte and its position.
    let p18 = ROWS.iter().find(|r| r.id == "P18").unwrap();
    assert_eq!(
        verdicts_of(p18),
        [
            "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 32: invalid start byte"
        ]
    );
}

/// X01-X03 through the function: which of the two exact names is read.
#[test]
fn filename_rows_x01_to_x03() {
    assert_eq!(X_ROWS.len(), 3);
    for row in X_ROWS {
        let actual = verdicts_of(row);
        assert_eq!(actual, row.skills_ref, "{} ({})", row.id, row.what);
    }
    // X01 the other way round: an invalid SKILL.md is read even beside a
    // valid skill.md.
    let valid = decode(X_SKILL);
    assert_eq!(
        validate("my-skill", Some(b"# no frontmatter\n"), Some(&valid)),
        ["SKILL.md must start with YAML frontmatter (---)"]
    );
}

/// skills-ref's `validate(path)` on a real directory: steps 1 and 2 (the path
/// exists, is a directory) and `find_skill_md` (exact names, as on a
/// case-sensitive file system) belong to the caller; the rest is
/// [`validate`].
fn skills_ref_validate_path(path: &Path) -> Vec<String> {
    if !path.exists() {
        return vec![format!("Path does not exist: {}", path.display())];
    }
    if !path.is_dir() {
        return vec![format!("Not a directory: {}", path.display())];
    }
    let names: Vec<String> = std::fs::read_dir(path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let read = |name: &str| {
        names
            .iter()
            .any(|n| n == name)
            .then(|| std::fs::read(path.join(name)).unwrap())
    };
    let dir_name = path.file_name().unwrap().to_string_lossy();
    validate(
        &dir_name,
        read("SKILL.md").as_deref(),
        read("skill.md").as_deref(),
    )
}

/// The CLI's mapping (X05): a path to a file named `skill.md` in any case
/// stands for its directory.
fn cli_path(path: &Path) -> PathBuf {
    let is_entry = path.is_file()
        && path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().to_lowercase() == "skill.md");
    if is_entry {
        path.parent().unwrap().to_path_buf()
    } else {
        path.to_path_buf()
    }
}

fn case_sensitive_fs(tmp: &Path) -> bool {
    let probe = tmp.join("case-probe");
    std::fs::create_dir_all(&probe).unwrap();
    std::fs::write(probe.join("a.md"), b"").unwrap();
    !probe.join("A.md").exists()
}

/// X01-X05 on real directories.
#[test]
fn path_rows_x01_to_x05() {
    let tmp = tempfile::tempdir().unwrap();
    let case_sensitive = case_sensitive_fs(tmp.path());
    for row in X_ROWS {
        if !case_sensitive && matches!(row.id, "X01" | "X03") {
            continue; // these need SKILL.md and skill.md / Skill.md apart
        }
        let dir = tmp.path().join(row.id).join(decode_str(row.dir));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, content) in row.files {
            std::fs::write(dir.join(name), decode(content)).unwrap();
        }
        assert_eq!(
            skills_ref_validate_path(&dir),
            row.skills_ref,
            "{} ({})",
            row.id,
            row.what
        );
    }
    // X04: a missing path.
    let missing = tmp.path().join("does-not-exist");
    assert_eq!(
        skills_ref_validate_path(&missing),
        [format!("Path does not exist: {}", missing.display())]
    );
    // X05: a regular file is not a skill directory ...
    let file = tmp.path().join("notes.txt");
    std::fs::write(&file, b"x").unwrap();
    assert_eq!(
        skills_ref_validate_path(&file),
        [format!("Not a directory: {}", file.display())]
    );
    // ... but the CLI maps a path to the entry file (any case) to its
    // directory, so the file's own name never reaches the validation.
    let dir = tmp.path().join("X05").join("my-skill");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), decode(X_SKILL)).unwrap();
    for name in ["SKILL.md", "skill.md", "Skill.MD"] {
        let path = dir.join(name);
        if path.exists() {
            assert!(
                skills_ref_validate_path(&cli_path(&path)).is_empty(),
                "{name}"
            );
        }
    }
    assert_eq!(
        skills_ref_validate_path(&dir.join("SKILL.md")),
        [format!(
            "Not a directory: {}",
            dir.join("SKILL.md").display()
        )]
    );
}

/// One recorded case of `tests/common/skills_ref_recorded.jsonl`.
struct Recorded {
    dir: String,
    skill_md: Vec<u8>,
    skills_ref: Vec<String>,
}

fn recorded() -> Vec<Recorded> {
    include_str!("common/skills_ref_recorded.jsonl")
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let skill_md = match (v["skill_md"].as_str(), v["skill_md_hex"].as_str()) {
                (Some(text), _) => text.as_bytes().to_vec(),
                (None, Some(hex)) => (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                    .collect(),
                _ => panic!("recorded case without content: {line}"),
            };
            Recorded {
                dir: v["dir"].as_str().unwrap().to_owned(),
                skill_md,
                skills_ref: v["skills_ref"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_owned())
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn recorded_skills_ref_results() {
    let cases = recorded();
    assert!(cases.len() > 300, "{} recorded cases", cases.len());
    let mut differ = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let actual = validate(&case.dir, Some(&case.skill_md), None);
        if actual != case.skills_ref {
            differ.push(format!(
                "case {} (line {}), dir {:?}, SKILL.md {:?}\n    skills-ref: {:?}\n    ours:       {actual:?}",
                i,
                i + 1,
                case.dir,
                String::from_utf8_lossy(&case.skill_md),
                case.skills_ref
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} recorded cases differ:\n{}",
        differ.len(),
        cases.len(),
        differ.join("\n")
    );
}
