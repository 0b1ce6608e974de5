//! `skillguard evals grade`: the agent-evals fallback harness in Rust.
//!
//! An `evals.json` (`{"cases":[{"id","set","prompt","expect","match"}]}`) is read and
//! validated; each case's samples are read from `OUTPUTS/<case-id>/sample-<n>.txt`
//! (`n` = 1, 2, …), graded with the case's deterministic matcher, and scored as pass@k and
//! pass^k (the unbiased estimators when a case has more samples than k). Capability sets are
//! gated on pass@k, regression sets on pass^k; `--compare` names every case whose pass^k
//! dropped against a previous result. Every choice is documented in `docs/evals.md`.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{self, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::text::{escape_markdown, sanitize_line};

/// The largest `evals.json` (or previous result) read.
pub const MAX_EVALS_BYTES: u64 = 4 * 1024 * 1024;
/// The largest sample file read.
pub const MAX_SAMPLE_BYTES: u64 = 1024 * 1024;
pub use super::cases::{Case, MAX_CASES, MAX_ID_LEN, is_safe_id};
pub use super::pattern::Dialect;
/// The highest sample number read (`sample-1000.txt`).
pub const MAX_SAMPLES: u32 = 1000;
/// The compiled-size bound of a case's regex (bytes), and of its lazy DFA.
pub const REGEX_SIZE_LIMIT: usize = 1024 * 1024;
/// The schema tag of the JSON result.
pub const SCHEMA: &str = "skillguard-evals-grade/1";
/// Scores are compared with this slack (the estimators are products of floats).
const EPS: f64 = 1e-9;

/// Bad input: every variant ends the command with exit code 2 and names the file.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("invalid evals file {path}: {msg}")]
    Invalid { path: String, msg: String },
    #[error("cannot read {what} {path}: {source}")]
    ReadAs {
        what: &'static str,
        path: String,
        source: io::Error,
    },
    /// A case's pattern could not be matched against a sample within its bounds.
    #[error("{path}: the regex of case `{id}` cannot be matched: {msg}")]
    Pattern {
        path: String,
        id: String,
        msg: String,
    },
    #[error("no sample-<n>.txt in {path} (case `{id}`): a case needs at least one sample")]
    NoSamples { path: String, id: String },
    #[error("missing outputs folder {path} (case `{id}`)")]
    MissingFolder { path: String, id: String },
    #[error("{path}: case `{id}` has {n} sample(s) but k = {k} (k must not exceed n)")]
    KExceedsN {
        path: String,
        id: String,
        n: u32,
        k: u32,
    },
    /// A grade result (`--compare PREVIOUS.json`, a scan's `--evals RESULTS.json`) that is
    /// not valid JSON of [`SCHEMA`]; `what` says which.
    #[error("invalid {what} {path}: {msg}")]
    Result {
        what: &'static str,
        path: String,
        msg: String,
    },
}

/// The two eval sets of agent-evals, and (in the `agent-evals` profile) any other set, which
/// is graded and listed but never gated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Set {
    Capability,
    Regression,
    Ungated,
}

impl Set {
    pub fn as_str(self) -> &'static str {
        match self {
            Set::Capability => "capability",
            Set::Regression => "regression",
            Set::Ungated => "ungated",
        }
    }
}

/// How `evals grade` reads cases and samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// What the agent-evals skill's own runner does ([`super::harness`]).
    #[default]
    AgentEvals,
    /// skillguard's stricter reading: validated cases, `sample-<n>.txt` numbering, exact
    /// case-sensitive matching, the unbiased estimators.
    Strict,
}

impl Profile {
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::AgentEvals => "agent-evals",
            Profile::Strict => "strict",
        }
    }
}

/// The deterministic matchers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchKind {
    Exact,
    Contains,
    Regex,
}

impl Case {
    /// Whether `sample` passes. `exact` compares after removing one trailing line ending
    /// (`\n` or `\r\n`) from the sample; `contains` is a case-sensitive substring test;
    /// `regex` is a search anywhere in the sample (anchor it with `^…$` for a whole match). A
    /// pattern that exceeds the backtracking bound is an error.
    pub fn passes(&self, sample: &str) -> Result<bool, super::pattern::PatternError> {
        match self.kind {
            MatchKind::Exact => Ok(trim_one_eol(sample) == self.expect),
            MatchKind::Contains => Ok(sample.contains(&self.expect)),
            MatchKind::Regex => self
                .pattern
                .as_ref()
                .map_or(Ok(false), |r| r.is_match(sample)),
        }
    }
}

fn trim_one_eol(s: &str) -> &str {
    s.strip_suffix("\r\n")
        .or_else(|| s.strip_suffix('\n'))
        .unwrap_or(s)
}

/// Reads at most `limit` bytes of a regular file (no final symlink followed).
pub(super) fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, GradeError> {
    let mut buf =
        crate::fsutil::read_named_bounded(path, limit).map_err(|source| GradeError::Read {
            path: path.display().to_string(),
            source,
        })?;
    strip_bom(&mut buf);
    Ok(buf)
}

/// Drops a UTF-8 byte-order mark (editors on Windows write one): not part of the text.
pub(super) fn strip_bom(buf: &mut Vec<u8>) {
    if buf.starts_with(b"\xEF\xBB\xBF") {
        buf.drain(..3);
    }
}

/// SHA-256 of an evals file's bytes as they are (read bounded, like [`load_evals`]): which
/// case file a recorded result was graded against.
pub fn evals_sha256(path: &Path) -> Result<String, GradeError> {
    let bytes = crate::fsutil::read_named_bounded(path, MAX_EVALS_BYTES).map_err(|source| {
        GradeError::Read {
            path: path.display().to_string(),
            source,
        }
    })?;
    Ok(crate::hash::sha256_hex(&bytes))
}

/// Reads and validates an `evals.json` with the reader `scan` and `coverage` use
/// ([`super::cases`]): every problem is named with its line and column, the same message a
/// scan's `eval-file-invalid` finding gives.
pub fn load_evals(path: &Path, dialect: Dialect) -> Result<Vec<Case>, GradeError> {
    let bytes = read_bounded(path, MAX_EVALS_BYTES)?;
    let shown = path.display().to_string();
    let invalid = |msg: String| GradeError::Invalid {
        path: shown.clone(),
        msg,
    };
    let text = String::from_utf8_lossy(&bytes);
    let json = !path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    let root = super::cases::tree(&shown, &text, json).map_err(|p| invalid(p.render()))?;
    let Some(root) = root.filter(|r| matches!(r.kind, crate::parse::yaml::NodeKind::Map { .. }))
    else {
        return Err(invalid(
            "the file is not an agent-evals mapping `{\"cases\": [...]}` (a list is skill-creator's trigger evals, which `evals grade` does not read)".into(),
        ));
    };
    let parsed = super::cases::agent_evals(&root, dialect);
    if !parsed.problems.is_empty() {
        return Err(invalid(
            parsed
                .problems
                .iter()
                .map(super::cases::Problem::render)
                .collect::<Vec<_>>()
                .join("; "),
        ));
    }
    Ok(parsed.cases)
}

/// pass@k with n samples of which c pass: 1 − C(n−c, k)/C(n, k), in product form
/// (1 − Π_{i<k} (n−c−i)/(n−i)). Equals `c > 0` when n == k. `None` when k > n or k == 0.
pub fn pass_at_k(n: u32, c: u32, k: u32) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    if n - c < k {
        return Some(1.0);
    }
    let p: f64 = (0..k)
        .map(|i| f64::from(n - c - i) / f64::from(n - i))
        .product();
    Some(1.0 - p)
}

/// pass^k with n samples of which c pass: C(c, k)/C(n, k), in product form
/// (Π_{i<k} (c−i)/(n−i)). Equals `c == n` when n == k. `None` when k > n or k == 0.
pub fn pass_hat_k(n: u32, c: u32, k: u32) -> Option<f64> {
    if k == 0 || k > n || c > n {
        return None;
    }
    if c < k {
        return Some(0.0);
    }
    Some(
        (0..k)
            .map(|i| f64::from(c - i) / f64::from(n - i))
            .product(),
    )
}

/// Rounds a score for the reports (6 decimals; the gates use the unrounded value).
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// What `grade` is asked to do.
#[derive(Debug, Clone)]
pub struct GradeOptions {
    /// Samples per case that count; `None`: every case's own n.
    pub k: Option<u32>,
    pub min_capability: f64,
    pub min_regression: f64,
    /// The dialect of `match: regex` cases.
    pub dialect: Dialect,
    pub profile: Profile,
}

/// One sample's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SampleStatus {
    Pass,
    Fail,
    Missing,
}

/// A graded case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    pub id: String,
    pub set: Set,
    /// The set as written, when it is not the canonical name (`Capability`, `smoke`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set_name: Option<String>,
    #[serde(rename = "match")]
    pub kind: MatchKind,
    /// Samples of the case: the highest sample number found (missing ones count as failures).
    pub n: u32,
    /// Passing samples.
    pub c: u32,
    /// Sample numbers in 1..=n without a file.
    pub missing: u32,
    pub k: u32,
    pub pass_at_k: f64,
    pub pass_hat_k: f64,
    /// Verdict of sample 1, 2, … n.
    pub samples: Vec<SampleStatus>,
}

/// A set's score: the mean over its cases, gated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetResult {
    pub cases: usize,
    pub samples: u32,
    pub passing: u32,
    pub missing: u32,
    /// Mean pass@k over the cases (`null` for an empty set).
    pub pass_at_k: Option<f64>,
    /// Mean pass^k over the cases (`null` for an empty set).
    pub pass_hat_k: Option<f64>,
    /// The gated metric: `pass_at_k` (capability) or `pass_hat_k` (regression).
    pub gate: String,
    pub min: f64,
    /// Whether the gate holds (an empty set passes).
    pub passed: bool,
}

/// A case that regressed against the previous result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Regression {
    pub id: String,
    pub set: Set,
    /// `dropped` (pass^k fell) or `disappeared` (a regression case no longer in the set).
    pub reason: String,
    pub previous_pass_hat_k: f64,
    pub pass_hat_k: Option<f64>,
    /// The k both values were computed at, when the two results used different k (each
    /// is then recomputed from its n and c at the smaller k, so like is compared with like).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
}

/// The comparison with `--compare PREVIOUS.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Comparison {
    pub previous: String,
    pub regressions: Vec<Regression>,
}

/// The whole result; its JSON form is the stable schema [`SCHEMA`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GradeReport {
    pub schema: String,
    /// The grading profile (`agent-evals` or `strict`).
    #[serde(default = "strict_profile")]
    pub profile: String,
    pub evals: String,
    /// `-k` as given; `null` when every case used its own n.
    pub k: Option<u32>,
    pub sets: BTreeMap<Set, SetResult>,
    /// In the order of the evals file.
    pub cases: Vec<CaseResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<Comparison>,
    /// Every gate holds and nothing regressed.
    pub passed: bool,
    /// What the run warned about (a missing case folder in the `agent-evals` profile).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Results written before profiles existed were graded strictly.
fn strict_profile() -> String {
    Profile::Strict.as_str().to_owned()
}

/// Reads one case's samples: `dir/sample-<n>.txt`, n = 1 up to the highest number present.
fn read_samples(case: &Case, outputs: &Path) -> Result<Vec<Option<String>>, GradeError> {
    let dir = outputs.join(&case.id);
    let shown = dir.display().to_string();
    let meta = std::fs::symlink_metadata(&dir).map_err(|_| GradeError::MissingFolder {
        path: shown.clone(),
        id: case.id.clone(),
    })?;
    if !meta.is_dir() {
        return Err(GradeError::MissingFolder {
            path: shown,
            id: case.id.clone(),
        });
    }
    let entries = std::fs::read_dir(&dir).map_err(|source| GradeError::Read {
        path: shown.clone(),
        source,
    })?;
    let mut highest = 0u32;
    for e in entries {
        let e = e.map_err(|source| GradeError::Read {
            path: shown.clone(),
            source,
        })?;
        let name = e.file_name();
        let Some(num) = name
            .to_str()
            .and_then(|s| s.strip_prefix("sample-"))
            .and_then(|s| s.strip_suffix(".txt"))
        else {
            continue;
        };
        // `sample-1.txt`, not `sample-01.txt` or `sample-+1.txt`.
        if num.is_empty() || num.starts_with('0') || !num.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        match num.parse::<u32>() {
            Ok(i) if i <= MAX_SAMPLES => highest = highest.max(i),
            _ => {
                return Err(GradeError::Invalid {
                    path: e.path().display().to_string(),
                    msg: format!("sample numbers go up to {MAX_SAMPLES}"),
                });
            }
        }
    }
    let mut out = Vec::with_capacity(highest as usize);
    for i in 1..=highest {
        let p = dir.join(format!("sample-{i}.txt"));
        match std::fs::symlink_metadata(&p) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => out.push(None),
            _ => {
                // Samples come with the pull request that is graded: a link among them is
                // refused, never followed (`sample-1.txt -> /etc/passwd` once graded `pass`).
                let bytes = crate::fsutil::read_regular_bounded(&p, MAX_SAMPLE_BYTES).map_err(
                    |source| GradeError::Read {
                        path: p.display().to_string(),
                        source,
                    },
                )?;
                out.push(Some(String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
    Ok(out)
}

/// Grades every case of `evals` against the samples under `outputs`.
pub fn grade(
    evals_path: &Path,
    outputs: &Path,
    opts: &GradeOptions,
) -> Result<GradeReport, GradeError> {
    let mut warnings = Vec::new();
    if opts.profile == Profile::AgentEvals {
        let cases = super::harness::load(evals_path, opts)?;
        let results =
            super::harness::grade_cases(&cases, outputs, opts, &mut |w| warnings.push(w))?;
        let raw: Vec<(f64, f64)> = results
            .iter()
            .map(|r| (r.pass_at_k, r.pass_hat_k))
            .collect();
        let mut report = report_of(evals_path, opts, results, &raw);
        report.warnings = warnings;
        return Ok(report);
    }
    let cases = load_evals(evals_path, opts.dialect)?;
    if !outputs.is_dir() {
        return Err(GradeError::Read {
            path: outputs.display().to_string(),
            source: io::Error::new(io::ErrorKind::NotFound, "no such outputs folder"),
        });
    }
    let mut results = Vec::with_capacity(cases.len());
    let mut raw_scores = Vec::with_capacity(cases.len());
    for case in &cases {
        let samples = read_samples(case, outputs)?;
        let n = samples.len() as u32;
        if n == 0 {
            return Err(GradeError::NoSamples {
                path: outputs.join(&case.id).display().to_string(),
                id: case.id.clone(),
            });
        }
        let k = opts.k.unwrap_or(n);
        if k > n || k == 0 {
            return Err(GradeError::KExceedsN {
                path: outputs.join(&case.id).display().to_string(),
                id: case.id.clone(),
                n,
                k,
            });
        }
        let mut statuses: Vec<SampleStatus> = Vec::with_capacity(samples.len());
        for (i, s) in samples.iter().enumerate() {
            statuses.push(match s {
                None => SampleStatus::Missing,
                Some(t) => match case.passes(t) {
                    Ok(true) => SampleStatus::Pass,
                    Ok(false) => SampleStatus::Fail,
                    Err(e) => {
                        return Err(GradeError::Pattern {
                            path: outputs
                                .join(&case.id)
                                .join(format!("sample-{}.txt", i + 1))
                                .display()
                                .to_string(),
                            id: case.id.clone(),
                            msg: e.to_string(),
                        });
                    }
                },
            });
        }
        let c = statuses
            .iter()
            .filter(|s| **s == SampleStatus::Pass)
            .count() as u32;
        let missing = statuses
            .iter()
            .filter(|s| **s == SampleStatus::Missing)
            .count() as u32;
        // k ≤ n and c ≤ n hold here.
        let at = pass_at_k(n, c, k).unwrap_or(0.0);
        let hat = pass_hat_k(n, c, k).unwrap_or(0.0);
        raw_scores.push((at, hat));
        results.push(CaseResult {
            id: case.id.clone(),
            set: case.set,
            set_name: None,
            kind: case.kind,
            n,
            c,
            missing,
            k,
            pass_at_k: round6(at),
            pass_hat_k: round6(hat),
            samples: statuses,
        });
    }
    Ok(report_of(evals_path, opts, results, &raw_scores))
}

/// The report of graded cases: each gated set's means and gate (`raw_scores`: each case's
/// unrounded pass@k and pass^k).
fn report_of(
    evals_path: &Path,
    opts: &GradeOptions,
    results: Vec<CaseResult>,
    raw_scores: &[(f64, f64)],
) -> GradeReport {
    let mut sets = BTreeMap::new();
    for set in [Set::Capability, Set::Regression] {
        let idx: Vec<usize> = (0..results.len())
            .filter(|&i| results[i].set == set)
            .collect();
        let mean = |f: fn(&(f64, f64)) -> f64| {
            (!idx.is_empty())
                .then(|| idx.iter().map(|&i| f(&raw_scores[i])).sum::<f64>() / idx.len() as f64)
        };
        let at = mean(|s| s.0);
        let hat = mean(|s| s.1);
        let (gate, min, score) = match set {
            Set::Capability => ("pass_at_k", opts.min_capability, at),
            Set::Regression | Set::Ungated => ("pass_hat_k", opts.min_regression, hat),
        };
        sets.insert(
            set,
            SetResult {
                cases: idx.len(),
                samples: idx.iter().map(|&i| results[i].n).sum(),
                passing: idx.iter().map(|&i| results[i].c).sum(),
                missing: idx.iter().map(|&i| results[i].missing).sum(),
                pass_at_k: at.map(round6),
                pass_hat_k: hat.map(round6),
                gate: gate.to_owned(),
                min,
                passed: score.is_none_or(|s| s + EPS >= min),
            },
        );
    }
    let passed = sets.values().all(|s| s.passed);
    GradeReport {
        schema: SCHEMA.to_owned(),
        profile: opts.profile.as_str().to_owned(),
        evals: evals_path.display().to_string(),
        k: opts.k,
        sets,
        cases: results,
        compare: None,
        passed,
        warnings: Vec::new(),
    }
}

/// The agent-evals guidance a graded run falls short of, one sentence each: a set with fewer
/// than 20 cases (a set starts from 20–50 real failures), and a k outside 3–10 (the samples
/// per case that make pass@k and pass^k meaningful). Advice, never a gate.
pub fn advisories(r: &GradeReport) -> Vec<String> {
    use super::cases::{K_ADVISED, MIN_CASES_ADVISED};
    let mut out = Vec::new();
    for (set, res) in &r.sets {
        if res.cases > 0 && res.cases < MIN_CASES_ADVISED {
            out.push(format!(
                "the {} set has {} case(s); start a set from {MIN_CASES_ADVISED}-50 real failures (twenty expose a pattern, fifty give a stable pass rate)",
                set.as_str(),
                res.cases
            ));
        }
    }
    let ks: BTreeSet<u32> = r.cases.iter().map(|c| c.k).collect();
    let outside: Vec<String> = ks
        .iter()
        .filter(|k| !K_ADVISED.contains(&u64::from(**k)))
        .map(u32::to_string)
        .collect();
    if !outside.is_empty() {
        out.push(format!(
            "k = {} sample(s) per case; sample each case {}-{} times, since one run of a non-deterministic agent is noise",
            outside.join(", "),
            K_ADVISED.start(),
            K_ADVISED.end()
        ));
    }
    out
}

/// Reads a grade result written by `--format json` (bounded at [`MAX_EVALS_BYTES`], never
/// through a final symlink): valid JSON of [`SCHEMA`], every score within 0..=1 and every case
/// id safe. `what` names the file's role in the error (`previous result`, `eval results`).
pub fn read_report(path: &Path, what: &'static str) -> Result<GradeReport, GradeError> {
    let bytes = read_bounded(path, MAX_EVALS_BYTES).map_err(|e| match e {
        GradeError::Read { path, source } => GradeError::ReadAs { what, path, source },
        e => e,
    })?;
    let bad = |msg: String| GradeError::Result {
        what,
        path: path.display().to_string(),
        msg,
    };
    let v: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
    if v.get("schema").is_none() {
        return Err(bad(format!(
            "no `schema` key: not the JSON of `skillguard evals grade --format json` ({SCHEMA}){}",
            if v.get("cases").is_some() {
                "; this looks like an evals file, grade it first"
            } else {
                ""
            }
        )));
    }
    // Parsed again from the bytes, so an error carries its line and column.
    let r: GradeReport = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
    if r.schema != SCHEMA {
        return Err(bad(format!(
            "schema `{}`, expected `{SCHEMA}`",
            sanitize_line(&r.schema)
        )));
    }
    if r.cases.len() > MAX_CASES {
        return Err(bad(format!("more than {MAX_CASES} cases")));
    }
    let mut ids = BTreeSet::new();
    for c in &r.cases {
        if !is_safe_id(&c.id) {
            return Err(bad(format!(
                "case id `{}` is not a safe id",
                sanitize_line(&c.id)
            )));
        }
        if !ids.insert(c.id.as_str()) {
            return Err(bad(format!("case `{}` appears twice", c.id)));
        }
        // The scores must be the ones n, c and k give: a hand-edited or foreign result
        // is refused rather than scored.
        let same = |v: Option<f64>, x: f64| v.is_some_and(|v| (round6(v) - x).abs() <= 1e-6);
        // c and missing are counts of the sample verdicts: a result whose verdicts all say
        // `fail` cannot claim c = n.
        let count = |want: SampleStatus| c.samples.iter().filter(|s| **s == want).count();
        if c.samples.len() == c.n as usize
            && (count(SampleStatus::Pass) != c.c as usize
                || count(SampleStatus::Missing) != c.missing as usize)
        {
            return Err(bad(format!(
                "case `{}`: c = {} and missing = {}, but its sample verdicts hold {} pass and {} missing",
                c.id,
                c.c,
                c.missing,
                count(SampleStatus::Pass),
                count(SampleStatus::Missing)
            )));
        }
        let consistent = c.c <= c.n
            && c.missing <= c.n
            && c.samples.len() == c.n as usize
            && same(pass_at_k(c.n, c.c, c.k), c.pass_at_k)
            && same(pass_hat_k(c.n, c.c, c.k), c.pass_hat_k);
        if !consistent {
            return Err(bad(format!(
                "case `{}`: its scores (pass@k {}, pass^k {}) are not those of n = {}, c = {}, k = {} with {} sample verdicts",
                c.id,
                c.pass_at_k,
                c.pass_hat_k,
                c.n,
                c.c,
                c.k,
                c.samples.len()
            )));
        }
    }
    Ok(r)
}

/// Compares `report` with a previous result (`previous`, the JSON of an earlier run): every
/// case whose pass^k dropped, and every regression case of the previous run that is no longer
/// in the regression set, is a regression. Sets `report.compare` and clears `report.passed`
/// on a regression.
pub fn compare(report: &mut GradeReport, previous: &Path) -> Result<(), GradeError> {
    let shown = previous.display().to_string();
    let prev = read_report(previous, "previous result")?;
    let regressions = regressions(&prev.cases, &report.cases);
    if !regressions.is_empty() {
        report.passed = false;
    }
    report.compare = Some(Comparison {
        previous: shown,
        regressions,
    });
    Ok(())
}

/// The pass^k of a previous and a current result of one case, comparable: as recorded when
/// both used the same k, else both recomputed from their n and c at the smaller k (which
/// neither n is below), with that k. pass^k falls as k grows, so values at different k say
/// nothing about a change.
pub fn comparable_pass_hat_k(previous: &CaseResult, now: &CaseResult) -> (f64, f64, Option<u32>) {
    if previous.k == now.k {
        return (previous.pass_hat_k, now.pass_hat_k, None);
    }
    let k = previous.k.min(now.k);
    let at = |c: &CaseResult| pass_hat_k(c.n, c.c, k).map_or(c.pass_hat_k, round6);
    (at(previous), at(now), Some(k))
}

/// The cases of `now` that regressed against `previous` (both in evals-file order): every
/// case whose pass^k dropped (`dropped`), and every case of the previous regression set
/// that is no longer in the regression set (`disappeared`). In the previous result's order.
/// Shared by `--compare` and the ledger's eval snapshots (`skillguard baseline`).
pub fn regressions(previous: &[CaseResult], now: &[CaseResult]) -> Vec<Regression> {
    let now: BTreeMap<&str, &CaseResult> = now.iter().map(|c| (c.id.as_str(), c)).collect();
    let mut regressions = Vec::new();
    for p in previous {
        let cmp = now
            .get(p.id.as_str())
            .map(|c| (c, comparable_pass_hat_k(p, c)));
        match cmp {
            Some((c, (was, is, k))) if is + EPS < was => regressions.push(Regression {
                id: p.id.clone(),
                set: c.set,
                reason: "dropped".into(),
                previous_pass_hat_k: was,
                pass_hat_k: Some(is),
                k,
            }),
            Some((c, (was, is, k))) if p.set == Set::Regression && c.set != Set::Regression => {
                regressions.push(Regression {
                    id: p.id.clone(),
                    set: p.set,
                    reason: "disappeared".into(),
                    previous_pass_hat_k: was,
                    pass_hat_k: Some(is),
                    k,
                });
            }
            None if p.set == Set::Regression => regressions.push(Regression {
                id: p.id.clone(),
                set: p.set,
                reason: "disappeared".into(),
                previous_pass_hat_k: p.pass_hat_k,
                pass_hat_k: None,
                k: None,
            }),
            _ => {}
        }
    }
    regressions
}

fn score(x: Option<f64>) -> String {
    x.map_or_else(|| "—".to_owned(), |v| format!("{v:.3}"))
}

/// ` (both at k = 3)` when two results of different k were compared.
fn at_k(k: Option<u32>) -> String {
    k.map(|k| format!(" (both at k = {k})")).unwrap_or_default()
}

fn verdict(ok: bool) -> &'static str {
    if ok { "PASS" } else { "FAIL" }
}

fn gate_line(set: Set, s: &SetResult) -> String {
    let metric = match set {
        Set::Capability => "pass@k",
        Set::Regression | Set::Ungated => "pass^k",
    };
    format!("{metric} ≥ {} → {}", s.min, verdict(s.passed))
}

/// The JSON form (pretty, deterministic: no timestamps, cases in file order).
pub fn render_json(r: &GradeReport, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, r).map_err(io::Error::from)?;
    writeln!(out)
}

/// The console form.
pub fn render_console(r: &GradeReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "evals: {}", sanitize_line(&r.evals))?;
    for c in &r.cases {
        writeln!(
            out,
            "  {:<10} {}  n={} c={} missing={} k={}  pass@k={:.3} pass^k={:.3}",
            sanitize_line(c.set_name.as_deref().unwrap_or(c.set.as_str())),
            sanitize_line(&c.id),
            c.n,
            c.c,
            c.missing,
            c.k,
            c.pass_at_k,
            c.pass_hat_k
        )?;
    }
    for (set, s) in &r.sets {
        writeln!(
            out,
            "{}: {} case(s), pass@k {}, pass^k {}, gate {}",
            set.as_str(),
            s.cases,
            score(s.pass_at_k),
            score(s.pass_hat_k),
            gate_line(*set, s)
        )?;
    }
    if let Some(cmp) = &r.compare {
        writeln!(
            out,
            "compared with {}: {} regression(s)",
            sanitize_line(&cmp.previous),
            cmp.regressions.len()
        )?;
        for g in &cmp.regressions {
            writeln!(
                out,
                "  REGRESSED {} ({}): pass^k {:.3} → {}{}",
                sanitize_line(&g.id),
                g.reason,
                g.previous_pass_hat_k,
                score(g.pass_hat_k),
                at_k(g.k)
            )?;
        }
    }
    writeln!(out, "result: {}", verdict(r.passed))
}

/// The Markdown form.
pub fn render_markdown(r: &GradeReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# Eval results: {}\n", verdict(r.passed))?;
    writeln!(
        out,
        "Evals: `{}`\n",
        sanitize_line(&r.evals).replace('`', "'")
    )?;
    writeln!(
        out,
        "| Set | Cases | Samples | Passing | Missing | pass@k | pass^k | Gate |"
    )?;
    writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---|")?;
    for (set, s) in &r.sets {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            set.as_str(),
            s.cases,
            s.samples,
            s.passing,
            s.missing,
            score(s.pass_at_k),
            score(s.pass_hat_k),
            gate_line(*set, s)
        )?;
    }
    writeln!(
        out,
        "\n| Case | Set | Match | n | c | Missing | k | pass@k | pass^k |"
    )?;
    writeln!(out, "|---|---|---|---:|---:|---:|---:|---:|---:|")?;
    for c in &r.cases {
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {:.3} | {:.3} |",
            escape_markdown(&c.id),
            c.set.as_str(),
            match c.kind {
                MatchKind::Exact => "exact",
                MatchKind::Contains => "contains",
                MatchKind::Regex => "regex",
            },
            c.n,
            c.c,
            c.missing,
            c.k,
            c.pass_at_k,
            c.pass_hat_k
        )?;
    }
    if let Some(cmp) = &r.compare {
        writeln!(
            out,
            "\nCompared with `{}`: {} regression(s).",
            sanitize_line(&cmp.previous).replace('`', "'"),
            cmp.regressions.len()
        )?;
        for g in &cmp.regressions {
            writeln!(
                out,
                "- **{}** ({}): pass^k {:.3} → {}{}",
                escape_markdown(&g.id),
                g.reason,
                g.previous_pass_hat_k,
                score(g.pass_hat_k),
                at_k(g.k)
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() < 1e-12)
    }

    #[test]
    fn estimators_equal_the_definitions_when_n_equals_k() {
        for n in 1..=8 {
            for c in 0..=n {
                assert_eq!(pass_at_k(n, c, n), Some(if c > 0 { 1.0 } else { 0.0 }));
                assert_eq!(pass_hat_k(n, c, n), Some(if c == n { 1.0 } else { 0.0 }));
            }
        }
    }

    #[test]
    fn estimators_match_hand_computed_values() {
        // n=5, c=2, k=3: pass@3 = 1 − C(3,3)/C(5,3) = 1 − 1/10; pass^3 = C(2,3)/10 = 0.
        assert!(close(pass_at_k(5, 2, 3), 0.9));
        assert!(close(pass_hat_k(5, 2, 3), 0.0));
        // n=5, c=4, k=3: pass@3 = 1 − C(1,3)/10 = 1; pass^3 = C(4,3)/C(5,3) = 4/10.
        assert!(close(pass_at_k(5, 4, 3), 1.0));
        assert!(close(pass_hat_k(5, 4, 3), 0.4));
        // n=10, c=3, k=1: both c/n.
        assert!(close(pass_at_k(10, 3, 1), 0.3));
        assert!(close(pass_hat_k(10, 3, 1), 0.3));
        // n=6, c=3, k=2: pass@2 = 1 − C(3,2)/C(6,2) = 1 − 3/15 = 0.8; pass^2 = 3/15 = 0.2.
        assert!(close(pass_at_k(6, 3, 2), 0.8));
        assert!(close(pass_hat_k(6, 3, 2), 0.2));
        // c = 0 and c = n with n > k.
        assert!(close(pass_at_k(7, 0, 3), 0.0));
        assert!(close(pass_hat_k(7, 7, 3), 1.0));
    }

    #[test]
    fn estimators_are_stable_for_large_n() {
        // C(1000, 500) overflows any integer and f64 factorials; the product form does not.
        let at = pass_at_k(1000, 1, 500).unwrap();
        assert!((at - 0.5).abs() < 1e-9, "{at}");
        let hat = pass_hat_k(1000, 999, 500).unwrap();
        assert!((hat - 0.5).abs() < 1e-9, "{hat}");
    }

    #[test]
    fn k_greater_than_n_or_zero_has_no_value() {
        assert_eq!(pass_at_k(3, 1, 4), None);
        assert_eq!(pass_hat_k(3, 1, 4), None);
        assert_eq!(pass_at_k(3, 1, 0), None);
        assert_eq!(pass_hat_k(0, 0, 1), None);
    }

    #[test]
    fn ids_must_be_safe_folder_names() {
        for ok in ["pdf-basic", "a", "case_1.v2"] {
            assert!(is_safe_id(ok), "{ok}");
        }
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", ".hidden", "é", "a b"] {
            assert!(!is_safe_id(bad), "{bad}");
        }
        assert!(!is_safe_id(&"a".repeat(MAX_ID_LEN + 1)));
    }

    #[test]
    fn matchers() {
        let mk = |kind, expect: &str| Case {
            id: "x".into(),
            set: Set::Capability,
            expect: expect.into(),
            kind,
            pattern: (kind == MatchKind::Regex)
                .then(|| super::super::pattern::compile(expect, Dialect::Dotnet).unwrap()),
        };
        let exact = mk(MatchKind::Exact, "42");
        assert!(exact.passes("42").unwrap());
        assert!(exact.passes("42\n").unwrap());
        assert!(exact.passes("42\r\n").unwrap());
        assert!(!exact.passes("42\n\n").unwrap());
        assert!(!exact.passes(" 42").unwrap());
        let contains = mk(MatchKind::Contains, "## ");
        assert!(contains.passes("# T\n## A\n").unwrap());
        assert!(!contains.passes("#A").unwrap());
        let re = mk(MatchKind::Regex, "Grüße|Straße");
        assert!(re.passes("Mit freundlichen Grüßen").unwrap());
        assert!(!re.passes("Strasse").unwrap());
    }
}
