//! Conformance of skillguard's Agent Skills rules with the reference validator
//! `skills-ref` (agentskills/agentskills `skills-ref/`).
//!
//! Every row of skills-ref's conformance table (V01-V44, I01-I39, P01-P18, D01,
//! and the filename rows X01-X03) is encoded as data in
//! `tests/common/skills_ref_table.rs` (shared with `tests/loader_skills_ref.rs`):
//! the directory name, the exact `SKILL.md` bytes in the table's notation, and
//! the result skills-ref's `validate()` returns. Each row is materialised in a
//! temporary directory and scanned through the library API.
//!
//! The two tools overlap at the level of *verdicts*, not messages:
//!
//! * skills-ref says "valid" ⇔ skillguard reports no finding from a
//!   specification-compliance rule ([`SPEC_RULES`]);
//! * skills-ref reports messages ⇒ skillguard's findings include, for every
//!   message, a rule that corresponds to it ([`requirements`]), and the skill is
//!   marked `excluded` (skills-ref rejects it, so a strict loader drops it).
//!
//! Rows where skillguard deliberately behaves differently are listed in
//! [`EXPECTED_DIFFERENCES`] with the kind of difference and a reason. The test
//! fails when an unlisted row disagrees *and* when a listed row stops
//! disagreeing, so the list cannot go stale. `docs/conformance.md` embeds the
//! generated results table; `conformance_doc_in_sync` keeps it current
//! (regenerate with `SKILLGUARD_BLESS=1 cargo test --test conformance_skills_ref`).

mod common;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::OnceLock;

use common::skills_ref_table::{ROWS, Row, X_ROWS, X_SKILL, decode, decode_str};
use skillguard::discover::{DiscoverError, Mode};
use skillguard::finding::Finding;
use skillguard::scan::{ScanOptions, scan};

// ---------------------------------------------------------------------------
// The compared rule set.
// ---------------------------------------------------------------------------

/// Rules that check the Agent Skills specification (or the file being a
/// readable specification file at all). A skill for which none of these fire is
/// "valid" in skillguard's eyes, at the level skills-ref's `validate()` works.
///
/// Deliberately *not* in the set: notices and loader-portability hints that do
/// not say the skill breaks the specification (`allowed-tools-experimental`,
/// `frontmatter-crlf`, `frontmatter-document-end-marker`), body and reference
/// rules skills-ref does not check (`body-too-long`, `file-reference-*`), and
/// inventory/security rules (scripts, symlinks, special files, walk limits).
const SPEC_RULES: &[&str] = &[
    // name
    "name-missing",
    "name-too-long",
    "name-invalid-chars",
    "name-leading-trailing-hyphen",
    "name-consecutive-hyphens",
    "name-directory-mismatch",
    // description
    "description-missing",
    "description-too-long",
    // compatibility
    "compatibility-invalid",
    "compatibility-too-long",
    // metadata, allowed-tools
    "metadata-not-string-map",
    "allowed-tools-nonstandard-form",
    // frontmatter block
    "frontmatter-missing",
    "frontmatter-unclosed",
    "frontmatter-delimiter-malformed",
    "frontmatter-leading-blank-lines",
    "frontmatter-bom",
    // YAML
    "yaml-syntax-error",
    "yaml-duplicate-key",
    "yaml-not-mapping",
    "yaml-budget-exceeded",
    "yaml-strictyaml-incompatible",
    // keys
    "frontmatter-unknown-key",
    "frontmatter-extension-key",
    // the file itself
    "file-invalid-utf8",
    "skill-filename-noncanonical",
];

/// Pseudo rule id for "scanning the directory discovered no skill at all".
const NO_SKILL: &str = "(no skill discovered)";

// ---------------------------------------------------------------------------
// skills-ref messages -> skillguard rules.
// ---------------------------------------------------------------------------

/// One skills-ref message must be matched by a finding of one of `rules`
/// (whose message contains `needle`, when given).
#[derive(Debug, Clone)]
struct Req {
    rules: &'static [&'static str],
    needle: Option<String>,
}

fn req(rules: &'static [&'static str]) -> Req {
    Req {
        rules,
        needle: None,
    }
}

const ANY_KEY_RULE: &[&str] = &["frontmatter-unknown-key", "frontmatter-extension-key"];
const NOT_AT_START: &[&str] = &[
    "frontmatter-missing",
    "frontmatter-bom",
    "frontmatter-leading-blank-lines",
];
const YAML_ANY: &[&str] = &["yaml-syntax-error"];
const YAML_STRICT: &[&str] = &["yaml-syntax-error", "yaml-strictyaml-incompatible"];
const YAML_DUP: &[&str] = &["yaml-syntax-error", "yaml-duplicate-key"];

/// Maps one skills-ref message (exact, or abbreviated `Invalid YAML …«phrase»`)
/// to what skillguard must report for it. Panics on an unmapped message so a new
/// row cannot slip through unexamined.
fn requirements(msg: &str) -> Vec<Req> {
    if let Some(rest) = msg.strip_prefix("Unexpected fields in frontmatter: ") {
        let keys = rest
            .split_once(". Only [")
            .map(|(k, _)| k)
            .expect("unexpected-fields message lists the allowed keys");
        return keys
            .split(", ")
            .map(|k| Req {
                rules: ANY_KEY_RULE,
                needle: Some(format!("`{k}`")),
            })
            .collect();
    }
    let one = |r: &'static [&'static str]| vec![req(r)];
    match msg {
        "Missing required field in frontmatter: name"
        | "Field 'name' must be a non-empty string" => {
            return one(&["name-missing"]);
        }
        "Missing required field in frontmatter: description"
        | "Field 'description' must be a non-empty string" => return one(&["description-missing"]),
        "Skill name cannot start or end with a hyphen" => {
            return one(&["name-leading-trailing-hyphen"]);
        }
        "Skill name cannot contain consecutive hyphens" => {
            return one(&["name-consecutive-hyphens"]);
        }
        "Field 'compatibility' must be a string" => return one(&["compatibility-invalid"]),
        "SKILL.md must start with YAML frontmatter (---)" => return one(NOT_AT_START),
        "SKILL.md frontmatter not properly closed with ---" => {
            return one(&["frontmatter-unclosed"]);
        }
        "SKILL.md frontmatter must be a YAML mapping" => return one(&["yaml-not-mapping"]),
        "UNCAUGHT UnicodeDecodeError" => return one(&["file-invalid-utf8"]),
        "Missing required file: SKILL.md" => {
            return one(&[NO_SKILL, "skill-filename-noncanonical"]);
        }
        _ => {}
    }
    if msg.starts_with("Skill name '") {
        if msg.contains("' exceeds 64 character limit (") {
            return one(&["name-too-long"]);
        }
        if msg.ends_with("' must be lowercase") {
            return one(&["name-invalid-chars"]);
        }
        if msg.contains("' contains invalid characters.") {
            return one(&["name-invalid-chars"]);
        }
    }
    if msg.starts_with("Directory name '") && msg.contains("' must match skill name '") {
        return one(&["name-directory-mismatch"]);
    }
    if msg.starts_with("Description exceeds 1024 character limit (") {
        return one(&["description-too-long"]);
    }
    if msg.starts_with("Compatibility exceeds 500 character limit (") {
        return one(&["compatibility-too-long"]);
    }
    if let Some(rest) = msg.strip_prefix("Invalid YAML in frontmatter: ") {
        // strictyaml's key phrase says which YAML feature it refused.
        if rest.contains("disallowed JSONesque flow")
            || rest.contains("disallowed anchor token")
            || rest.contains("disallowed tag tokens")
        {
            return one(YAML_STRICT);
        }
        if rest.contains("Duplicate key") {
            return one(YAML_DUP);
        }
        return one(YAML_ANY);
    }
    panic!("skills-ref message not mapped to skillguard rules: {msg:?}");
}

// ---------------------------------------------------------------------------
// Expected differences.
// ---------------------------------------------------------------------------

/// How a row's results relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// Same verdict; for invalid rows every message is matched and the skill is excluded.
    Agree,
    /// skills-ref: valid. skillguard: reports a specification-compliance finding.
    Stricter,
    /// skills-ref: invalid. skillguard: no specification-compliance finding.
    Laxer,
    /// Both reject, but skillguard attributes it to a rule that does not
    /// correspond to (one of) skills-ref's messages.
    OtherCause,
    /// Both report the same problem, but skillguard does not mark the skill as
    /// excluded while skills-ref rejects it.
    NotExcluded,
}

impl Outcome {
    fn label(self) -> &'static str {
        match self {
            Outcome::Agree => "agree",
            Outcome::Stricter => "differs: stricter",
            Outcome::Laxer => "differs: more lenient",
            Outcome::OtherCause => "differs: other rule",
            Outcome::NotExcluded => "differs: reported, not excluded",
        }
    }
}

/// Every row on which skillguard deliberately differs from skills-ref: id, the
/// kind of difference, the topic (a section `### <topic>.` of
/// `docs/conformance.md`) and a one-line reason.
#[rustfmt::skip]
const EXPECTED_DIFFERENCES: &[(&str, Outcome, &str, &str)] = &[
    // 1. Names are lowercase ASCII.
    ("V22", Outcome::Stricter, "1", "CJK name: skillguard reads the spec as a-z/0-9; skills-ref accepts any Unicode lowercase letter"),
    ("V23", Outcome::Stricter, "1", "Cyrillic name: outside a-z/0-9 (accepted by skills-ref's Unicode reading)"),
    ("V24", Outcome::Stricter, "1", "Cyrillic name: outside a-z/0-9 (accepted by skills-ref's Unicode reading)"),
    ("V27", Outcome::Stricter, "1", "`ß` is a lowercase letter for skills-ref, not an ASCII letter for skillguard"),
    ("V28", Outcome::Stricter, "1", "Arabic-Indic digit passes Python's isalnum, not the ASCII 0-9 rule"),
    ("V29", Outcome::Stricter, "1", "`ﬁ` ligature: a look-alike of `fi` that only NFKC makes ASCII"),
    // 2. No Unicode normalisation of names.
    ("V25", Outcome::Stricter, "2", "name and directory are equal only after NFKC; skillguard compares bytes"),
    ("V26", Outcome::Stricter, "2", "fullwidth look-alike of the directory name, equal only after NFKC"),
    ("I06", Outcome::OtherCause, "2", "length counted as written (40), not after NFKC (80): reported by name-invalid-chars, not name-too-long"),
    // 3. compatibility.
    ("V33", Outcome::Stricter, "3", "empty compatibility is outside the spec's 1-500 range; skills-ref checks only the upper bound"),
    ("I39", Outcome::NotExcluded, "3", "compatibility-invalid (low) does not exclude the skill; skills-ref rejects a non-string value"),
    // 4. metadata values are strings.
    ("V05", Outcome::Stricter, "4", "unquoted `version: 1.0` is a YAML number; strictyaml reads every scalar as a string"),
    ("V36", Outcome::Stricter, "4", "nested mapping under metadata; skills-ref does not check the type and stringifies it"),
    ("V37", Outcome::Stricter, "4", "metadata is a list, not a mapping; skills-ref does not check the type"),
    ("V38", Outcome::Stricter, "4", "metadata is a scalar, not a mapping; skills-ref does not check the type"),
    ("V40", Outcome::Stricter, "4", "unquoted number, integer and `yes` values; strictyaml reads them as strings"),
    // 5. allowed-tools form.
    ("V35", Outcome::Stricter, "5", "block list instead of a space-separated string; skills-ref does not check the type"),
    // 6. YAML null.
    ("V41", Outcome::Stricter, "6", "`description: null` has no description for YAML 1.1/1.2 loaders; strictyaml reads the text \"null\""),
    // 7. Entry file name.
    ("X01", Outcome::Stricter, "7", "a second capitalisation beside SKILL.md: a case-insensitive checkout keeps only one of them"),
    ("X02", Outcome::Stricter, "7", "the spec names the file SKILL.md; the lowercase fallback is skills-ref's alone"),
    // 8. strictyaml-only restrictions.
    ("P10", Outcome::NotExcluded, "8", "flow mapping is valid YAML: reported as a portability finding (low), not a parse error"),
    ("P11", Outcome::NotExcluded, "8", "flow sequence is valid YAML: reported as a portability finding (low), not a parse error"),
    ("P12", Outcome::NotExcluded, "8", "anchor and alias are valid YAML: reported as a portability finding (low), not a parse error"),
    ("P13", Outcome::NotExcluded, "8", "`!!str` tag is valid YAML: reported as a portability finding (low), not a parse error"),
    // 9. Keys outside the specification.
    ("I21", Outcome::NotExcluded, "9", "unknown key reported (low); harnesses other than skills-ref ignore it"),
    ("I22", Outcome::NotExcluded, "9", "extension key `model` (info) and unknown key `version` (low); not fatal outside skills-ref"),
    ("I23", Outcome::NotExcluded, "9", "documented Claude Code extension keys, reported as info"),
    ("I24", Outcome::NotExcluded, "9", "`allowed_tools` reported (low) with a did-you-mean hint"),
    ("I26", Outcome::NotExcluded, "9", "unknown key written as an explicit `? key` entry, reported (low)"),
    // 10. Malformed opening delimiter.
    ("P17", Outcome::OtherCause, "10", "`----` is reported as a malformed delimiter; skills-ref's substring split passes the fourth dash to YAML"),
];

/// Rows on which skillguard disagrees without a defensible reason. Each has a
/// dedicated `#[ignore = "bug: ..."]` test that asserts the correct behaviour.
const KNOWN_BUGS: &[(&str, &str)] = &[];

// ---------------------------------------------------------------------------
// Running a row.
// ---------------------------------------------------------------------------

/// What skillguard reported for one row.
#[derive(Debug, Clone)]
struct Observed {
    /// Spec-compliance rule ids (plus [`NO_SKILL`]), sorted.
    spec: BTreeSet<&'static str>,
    /// Other rule ids, sorted.
    other: BTreeSet<&'static str>,
    /// The skill is excluded (or not discovered at all).
    excluded: bool,
    findings: Vec<Finding>,
}

/// Whether this file system distinguishes `SKILL.md` from `Skill.md`.
fn case_sensitive_fs(tmp: &Path) -> bool {
    let probe = tmp.join("case-probe");
    std::fs::create_dir_all(&probe).unwrap();
    std::fs::write(probe.join("a.md"), b"").unwrap();
    !probe.join("A.md").exists()
}

fn materialise(base: &Path, row: &Row) -> std::path::PathBuf {
    let dir = base.join(row.id).join(decode_str(row.dir));
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("{}: cannot create {}: {e}", row.id, dir.display()));
    for (name, content) in row.files {
        std::fs::write(dir.join(name), decode(content)).unwrap();
    }
    dir
}

fn observe(row: &Row, dir: &Path) -> Observed {
    let r = scan(Mode::Path, dir, &ScanOptions::default())
        .unwrap_or_else(|e| panic!("{}: scan failed: {e}", row.id));
    assert!(
        r.artifacts.len() <= 1,
        "{}: expected at most one skill, got {}",
        row.id,
        r.artifacts.len()
    );
    let mut spec = BTreeSet::new();
    let mut other = BTreeSet::new();
    // Every rule reported, on its own or as a consequence attached to its cause.
    let reported = r
        .findings
        .iter()
        .flat_map(|f| std::iter::once(f.rule_id).chain(f.consequences.iter().map(|c| c.rule_id)));
    for rule in reported {
        if SPEC_RULES.contains(&rule) {
            spec.insert(rule);
        } else {
            other.insert(rule);
        }
    }
    let excluded = match r.artifacts.first() {
        Some(a) => a.excluded,
        None => {
            spec.insert(NO_SKILL);
            true
        }
    };
    Observed {
        spec,
        other,
        excluded,
        findings: r.findings,
    }
}

fn satisfied(req: &Req, obs: &Observed) -> bool {
    req.rules.iter().any(|rule| {
        if *rule == NO_SKILL {
            return obs.spec.contains(NO_SKILL);
        }
        obs.findings.iter().any(|f| {
            f.rule_id == *rule && req.needle.as_deref().is_none_or(|n| f.message.contains(n))
        })
    })
}

/// Compares one row; also returns the spec rules skillguard reports beyond
/// those that correspond to skills-ref's messages.
fn classify(row: &Row, obs: &Observed) -> (Outcome, Vec<&'static str>) {
    if row.skills_ref.is_empty() {
        let outcome = if obs.spec.is_empty() && !obs.excluded {
            Outcome::Agree
        } else {
            Outcome::Stricter
        };
        return (outcome, obs.spec.iter().copied().collect());
    }
    let reqs: Vec<Req> = row
        .skills_ref
        .iter()
        .flat_map(|m| requirements(m))
        .collect();
    let covered: BTreeSet<&str> = reqs.iter().flat_map(|r| r.rules.iter().copied()).collect();
    let extra = obs
        .spec
        .iter()
        .copied()
        .filter(|r| !covered.contains(r))
        .collect();
    let outcome = if obs.spec.is_empty() {
        Outcome::Laxer
    } else if !reqs.iter().all(|r| satisfied(r, obs)) {
        Outcome::OtherCause
    } else if !obs.excluded {
        Outcome::NotExcluded
    } else {
        Outcome::Agree
    };
    (outcome, extra)
}

struct RowResult {
    row: &'static Row,
    obs: Observed,
    outcome: Outcome,
    extra: Vec<&'static str>,
}

struct Results {
    rows: Vec<RowResult>,
    /// X01 and X03 need a case-sensitive file system.
    case_sensitive: bool,
}

fn all_rows() -> impl Iterator<Item = &'static Row> {
    ROWS.iter().chain(X_ROWS)
}

fn results() -> &'static Results {
    static CELL: OnceLock<Results> = OnceLock::new();
    CELL.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let case_sensitive = case_sensitive_fs(tmp.path());
        let rows = all_rows()
            .filter(|row| case_sensitive || !matches!(row.id, "X01" | "X03"))
            .map(|row| {
                let dir = materialise(tmp.path(), row);
                let obs = observe(row, &dir);
                let (outcome, extra) = classify(row, &obs);
                RowResult {
                    row,
                    obs,
                    outcome,
                    extra,
                }
            })
            .collect();
        Results {
            rows,
            case_sensitive,
        }
    })
}

fn expected(id: &str) -> Option<&'static (&'static str, Outcome, &'static str, &'static str)> {
    EXPECTED_DIFFERENCES.iter().find(|d| d.0 == id)
}

fn known_bug(id: &str) -> Option<&'static str> {
    KNOWN_BUGS.iter().find(|b| b.0 == id).map(|b| b.1)
}

fn describe(r: &RowResult) -> String {
    let mut s = format!(
        "{} ({}): {}\n    skills-ref: {}\n    skillguard (excluded: {}):",
        r.row.id,
        r.row.what,
        r.outcome.label(),
        if r.row.skills_ref.is_empty() {
            "valid".to_owned()
        } else {
            r.row.skills_ref.join(" | ")
        },
        r.obs.excluded
    );
    if r.obs.findings.is_empty() {
        s.push_str(" no findings");
    }
    for f in &r.obs.findings {
        let _ = write!(s, "\n      {} [{}]: {}", f.rule_id, f.severity, f.message);
    }
    if r.obs.spec.contains(NO_SKILL) {
        let _ = write!(s, "\n      {NO_SKILL}");
    }
    s
}

// ---------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------

#[test]
fn table_is_complete_and_well_formed() {
    let count = |p: char| ROWS.iter().filter(|r| r.id.starts_with(p)).count();
    assert_eq!(ROWS.len(), 102, "§2.6 has 102 rows");
    assert_eq!(
        (count('V'), count('I'), count('P'), count('D')),
        (44, 39, 18, 1)
    );
    let mut ids = BTreeSet::new();
    for r in all_rows() {
        assert!(ids.insert(r.id), "duplicate row id {}", r.id);
        for m in r.skills_ref {
            assert!(!requirements(m).is_empty(), "{}: {m}", r.id);
        }
    }
    let known: BTreeSet<&str> = skillguard::scan::rule_ids().into_iter().collect();
    for rule in SPEC_RULES {
        assert!(
            known.contains(rule),
            "SPEC_RULES has unknown rule id {rule}"
        );
    }
    let mut listed = BTreeSet::new();
    for (id, outcome, topic, reason) in EXPECTED_DIFFERENCES {
        assert!(
            ids.contains(id),
            "EXPECTED_DIFFERENCES names unknown row {id}"
        );
        assert!(
            listed.insert(*id),
            "{id} listed twice in EXPECTED_DIFFERENCES"
        );
        assert_ne!(
            *outcome,
            Outcome::Agree,
            "{id}: a difference cannot be `Agree`"
        );
        assert!(
            !topic.is_empty() && !reason.is_empty(),
            "{id}: topic and reason"
        );
    }
    for (id, what) in KNOWN_BUGS {
        assert!(ids.contains(id), "KNOWN_BUGS names unknown row {id}");
        assert!(!listed.contains(id), "{id} is both a difference and a bug");
        assert!(!what.is_empty());
    }
}

#[test]
fn notation_decodes_exactly() {
    assert_eq!(decode(r"\uFEFF---\r\n"), b"\xEF\xBB\xBF---\r\n");
    assert_eq!(decode(r#""my-skill\\u0000""#), br#""my-skill\u0000""#);
    assert_eq!(decode(r"\t\xFF\xFE x"), b"\t\xFF\xFE x");
    assert_eq!(decode("⟨a×3⟩-⟨😀×2⟩"), "aaa-😀😀".as_bytes());
    assert_eq!(decode_str("⟨ﬁ×40⟩").chars().count(), 40);
    assert_eq!(decode_str(r"caf\u00E9"), "caf\u{E9}");
    assert_eq!(decode_str(r"cafe\u0301"), "cafe\u{301}");
    assert_eq!(decode_str(r"a\\b"), "a\\b");
}

/// The main conformance check.
#[test]
fn skills_ref_conformance_table() {
    let res = results();
    let mut problems = Vec::new();
    for r in &res.rows {
        let id = r.row.id;
        if let Some(bug) = known_bug(id) {
            if r.outcome == Outcome::Agree {
                problems.push(format!(
                    "{id} is listed in KNOWN_BUGS ({bug}) but now agrees: remove it from KNOWN_BUGS and un-ignore its test.\n  {}",
                    describe(r)
                ));
            }
            continue;
        }
        match expected(id) {
            None if r.outcome != Outcome::Agree => problems.push(format!(
                "UNLISTED DIFFERENCE {}\n  (list it in EXPECTED_DIFFERENCES with a reason, or fix skillguard)",
                describe(r)
            )),
            Some((_, want, _, _)) if r.outcome == Outcome::Agree => problems.push(format!(
                "STALE: {id} is listed in EXPECTED_DIFFERENCES as `{}` but now agrees; remove it.\n  {}",
                want.label(),
                describe(r)
            )),
            Some((_, want, _, _)) if *want != r.outcome => problems.push(format!(
                "CHANGED: {id} is listed as `{}` but is now `{}`.\n  {}",
                want.label(),
                r.outcome.label(),
                describe(r)
            )),
            _ => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{} conformance problem(s):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

/// X04/X05: skills-ref's `validate()` refuses a missing path and a regular file
/// (its CLI maps a path to `SKILL.md` to the directory). `scan` refuses both
/// before it starts, and also maps a path to `SKILL.md` to its directory.
#[test]
fn x04_x05_scan_refuses_missing_and_non_directories() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("does-not-exist");
    assert!(matches!(
        scan(Mode::Path, &missing, &ScanOptions::default()),
        Err(DiscoverError::NotFound { .. })
    ));
    let file = tmp.path().join("notes.txt");
    std::fs::write(&file, b"x").unwrap();
    assert!(matches!(
        scan(Mode::Path, &file, &ScanOptions::default()),
        Err(DiscoverError::NotADirectory { .. })
    ));
    let dir = tmp.path().join("my-skill");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), decode(X_SKILL)).unwrap();
    let via_file = scan(Mode::Path, &dir.join("SKILL.md"), &ScanOptions::default()).unwrap();
    assert_eq!(via_file.artifacts.len(), 1);
    assert_eq!(via_file.artifacts[0].dir_name, "my-skill");
    assert!(via_file.findings.is_empty(), "{:?}", via_file.findings);
}

/// V43 agrees at the verdict level, but the two tools read different values:
/// skills-ref ends the frontmatter at the first `---` *substring*, so its
/// `read_properties` returns the description `a` (X07); skillguard splits on
/// delimiter lines only and reads `a---b`.
#[test]
fn v43_dashes_inside_a_value_do_not_end_the_frontmatter() {
    let row = ROWS.iter().find(|r| r.id == "V43").unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = materialise(tmp.path(), row);
    let r = scan(Mode::Path, &dir, &ScanOptions::default()).unwrap();
    assert_eq!(r.artifacts[0].frontmatter["description"], "a---b");
}

// ---------------------------------------------------------------------------
// docs/conformance.md
// ---------------------------------------------------------------------------

const TABLE_BEGIN: &str =
    "<!-- BEGIN GENERATED: conformance-table (tests/conformance_skills_ref.rs) -->";
const TABLE_END: &str = "<!-- END GENERATED: conformance-table -->";
const DIFF_BEGIN: &str = "<!-- BEGIN GENERATED: differences (tests/conformance_skills_ref.rs) -->";
const DIFF_END: &str = "<!-- END GENERATED: differences -->";

fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn code(s: &str) -> String {
    format!("`{}`", cell(s))
}

fn rule_list(rules: impl IntoIterator<Item = &'static str>) -> String {
    let v: Vec<String> = rules
        .into_iter()
        .map(|r| if r == NO_SKILL { r.to_owned() } else { code(r) })
        .collect();
    v.join(", ")
}

fn render_table(res: &Results) -> String {
    let mut s = String::new();
    let n = |o: Outcome| res.rows.iter().filter(|r| r.outcome == o).count();
    let table_rows = res
        .rows
        .iter()
        .filter(|r| !r.row.id.starts_with('X'))
        .count();
    let table_agree = res
        .rows
        .iter()
        .filter(|r| !r.row.id.starts_with('X') && r.outcome == Outcome::Agree)
        .count();
    let _ = writeln!(
        s,
        "Rows compared: {} ({table_rows} from the conformance table, {} filename rows). \
         Agree: {} ({table_agree} of the {table_rows} table rows). \
         Differ: {} stricter, {} reported but not excluded, {} other rule, {} more lenient.\n",
        res.rows.len(),
        res.rows.len() - table_rows,
        n(Outcome::Agree),
        n(Outcome::Stricter),
        n(Outcome::NotExcluded),
        n(Outcome::OtherCause),
        n(Outcome::Laxer),
    );
    s.push_str("| ID | Case | skills-ref `validate()` | skillguard: specification findings | skillguard: other findings | Excluded | Result |\n");
    s.push_str("|---|---|---|---|---|---|---|\n");
    for r in &res.rows {
        let sr = if r.row.skills_ref.is_empty() {
            "valid".to_owned()
        } else {
            r.row
                .skills_ref
                .iter()
                .map(|m| code(m))
                .collect::<Vec<_>>()
                .join("<br>")
        };
        let spec = if r.obs.spec.is_empty() {
            "none".to_owned()
        } else {
            rule_list(r.obs.spec.iter().copied())
        };
        let other = if r.obs.other.is_empty() {
            String::new()
        } else {
            rule_list(r.obs.other.iter().copied())
        };
        let excluded = if r.obs.spec.contains(NO_SKILL) {
            "n/a"
        } else if r.obs.excluded {
            "yes"
        } else {
            "no"
        };
        let result = if let Some(bug) = known_bug(r.row.id) {
            format!("**bug**: {}", cell(bug))
        } else {
            match expected(r.row.id) {
                Some((_, o, topic, _)) => format!("{} (difference {topic})", o.label()),
                None if r.extra.is_empty() || r.row.skills_ref.is_empty() => {
                    r.outcome.label().to_owned()
                }
                None => format!("agree (also {})", rule_list(r.extra.iter().copied())),
            }
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            r.row.id,
            cell(r.row.what),
            sr,
            spec,
            other,
            excluded,
            result
        );
    }
    s
}

fn render_differences() -> String {
    let mut s = String::new();
    s.push_str("| Row | Kind | Topic | Reason |\n|---|---|---|---|\n");
    for (id, o, topic, reason) in EXPECTED_DIFFERENCES {
        let _ = writeln!(s, "| {id} | {} | {topic} | {} |", o.label(), cell(reason));
    }
    s
}

fn splice(doc: &str, begin: &str, end: &str, body: &str) -> String {
    let b = doc
        .find(begin)
        .unwrap_or_else(|| panic!("docs/conformance.md lacks the marker {begin}"));
    let e = doc
        .find(end)
        .unwrap_or_else(|| panic!("docs/conformance.md lacks the marker {end}"));
    assert!(b < e, "markers out of order");
    format!("{}{begin}\n{body}{}", &doc[..b], &doc[e..])
}

/// `docs/conformance.md` embeds the generated table and difference list; this
/// keeps them in sync (set `SKILLGUARD_BLESS=1` to rewrite them).
#[test]
fn conformance_doc_in_sync() {
    let res = results();
    if !res.case_sensitive {
        return; // the committed table was produced on a case-sensitive file system
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/conformance.md");
    let doc = std::fs::read_to_string(&path).expect("docs/conformance.md exists");
    let want = splice(&doc, TABLE_BEGIN, TABLE_END, &render_table(res));
    let want = splice(&want, DIFF_BEGIN, DIFF_END, &render_differences());
    if std::env::var_os("SKILLGUARD_BLESS").is_some() {
        if want != doc {
            std::fs::write(&path, &want).unwrap();
        }
        return;
    }
    assert!(
        want == doc,
        "docs/conformance.md is out of date; regenerate with SKILLGUARD_BLESS=1 cargo test --test conformance_skills_ref"
    );
    for r in all_rows() {
        assert!(
            doc.contains(&format!("\n| {} |", r.id)),
            "docs/conformance.md lacks row {}",
            r.id
        );
    }
    // The API-only rows are listed (as covered elsewhere or out of scope).
    for id in [
        "X04", "X05", "X06", "X07", "X08", "X09", "X10", "X11", "X12", "X13",
    ] {
        assert!(
            doc.contains(&format!("\n| {id} |")),
            "docs/conformance.md lacks row {id}"
        );
    }
    let topics: BTreeSet<&str> = EXPECTED_DIFFERENCES.iter().map(|d| d.2).collect();
    for t in topics {
        assert!(
            doc.contains(&format!("\n### {t}. ")),
            "docs/conformance.md lacks the section `### {t}. …`"
        );
    }
}
