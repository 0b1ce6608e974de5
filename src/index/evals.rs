//! The Index's eval axis: `skillguard evals grade` results supplied with `--evals FILE`
//! (repeatable), attributed to the skills and agents they evaluate, scored from the
//! regression set's pass^k and the capability set's pass@k.
//!
//! - **Value.** `100 × mean(regression pass^k, capability pass@k)` over the sets that have
//!   cases; each set's value is the mean over its cases, pooled across every result that
//!   applies (so two results of 3 and 1 regression cases weigh 3 : 1). A result with no case
//!   measures nothing. The regression set asks "does what worked still work every time", the
//!   capability set "can it do the task at all"; both are probabilities, so the mean keeps the
//!   0–100 scale of the other axes without weighting one question over the other.
//! - **Attribution.** A result names its `evals` file as it was given to `evals grade`. It is
//!   matched against the eval files the scan found (`ScanResult::evals`): the same path, or one
//!   ending in the other at a `/` boundary (grade run from a parent or a sub-folder), when all
//!   matches agree on one target. Otherwise the name in the path is tried against the skills'
//!   and agents' names: the file stem (`evals/pdf-tools.json`), else the folder that holds an
//!   `evals/` folder (`pdf-tools/evals/evals.json`), else the folder of the file. A result
//!   that matches nothing, or more than one target, counts for the scan only, with a note.
//!
//! Documented in `docs/security-index.md` ("Evals: graded results").

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::evals::grade::{GradeError, GradeReport, Set, read_report};
use crate::inventory::EvalFileInfo;
use crate::text::sanitize_line;

/// One `evals grade` result supplied with `--evals`.
#[derive(Debug, Clone)]
pub struct EvalResult {
    /// The results file as given on the command line (for notes and the report).
    pub file: String,
    pub report: GradeReport,
}

/// Reads a results file (`skillguard evals grade --format json`). Errors name the file.
pub fn read_eval_result(path: &Path) -> Result<EvalResult, GradeError> {
    Ok(EvalResult {
        file: path.display().to_string(),
        report: read_report(path, "eval results")?,
    })
}

/// A result and the skill or agent (by path) it was attributed to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attribution {
    /// The results file as given.
    pub results: String,
    /// The evals file the result graded, as recorded in it, with `\\` as `/` and without a
    /// leading `./`.
    pub evals: String,
    /// The skill folder or agent file it counts for; `null` when none could be told.
    pub target: Option<String>,
    /// How the target was told, or why not.
    pub how: String,
}

/// The eval axis's parts: what [`EvalMetric::score`] was computed from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalMetric {
    /// `100 × mean` of the two set values below that are not `null`, one decimal.
    pub score: f64,
    /// Mean pass^k over the regression cases; `null` without regression cases.
    pub regression_pass_hat_k: Option<f64>,
    pub regression_cases: usize,
    /// Mean pass@k over the capability cases; `null` without capability cases.
    pub capability_pass_at_k: Option<f64>,
    pub capability_cases: usize,
    /// The k of the cases (distinct, ascending): pass^k falls and pass@k rises as k grows,
    /// so results graded at different k are pooled but named.
    pub k: Vec<u32>,
    /// The results files that went in, as given.
    pub results: Vec<String>,
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The metric over `results` (pooled by case); `Err` says why nothing was measured.
pub fn metric(results: &[&EvalResult]) -> Result<EvalMetric, String> {
    let (mut reg, mut reg_n, mut cap, mut cap_n) = (0.0, 0usize, 0.0, 0usize);
    let mut ks = std::collections::BTreeSet::new();
    for r in results {
        for c in &r.report.cases {
            ks.insert(c.k);
            match c.set {
                Set::Regression => {
                    reg += c.pass_hat_k;
                    reg_n += 1;
                }
                Set::Capability => {
                    cap += c.pass_at_k;
                    cap_n += 1;
                }
                Set::Ungated => {}
            }
        }
    }
    let reg_v = (reg_n > 0).then(|| reg / reg_n as f64);
    let cap_v = (cap_n > 0).then(|| cap / cap_n as f64);
    let parts: Vec<f64> = reg_v.into_iter().chain(cap_v).collect();
    if parts.is_empty() {
        return Err("the eval results have no graded case".into());
    }
    let score = 100.0 * parts.iter().sum::<f64>() / parts.len() as f64;
    Ok(EvalMetric {
        score: (score * 10.0).round() / 10.0,
        regression_pass_hat_k: reg_v.map(round3),
        regression_cases: reg_n,
        capability_pass_at_k: cap_v.map(round3),
        capability_cases: cap_n,
        k: ks.into_iter().collect(),
        results: results.iter().map(|r| r.file.clone()).collect(),
    })
}

/// The short form of a metric for an explanation: `regression pass^k 0.7 (2 cases),
/// capability pass@k 0.663 (4 cases)`.
pub fn detail(m: &EvalMetric) -> String {
    let mut out = Vec::new();
    if let Some(v) = m.regression_pass_hat_k {
        out.push(format!(
            "regression pass^k {v} ({})",
            cases(m.regression_cases)
        ));
    }
    if let Some(v) = m.capability_pass_at_k {
        out.push(format!(
            "capability pass@k {v} ({})",
            cases(m.capability_cases)
        ));
    }
    let k = match m.k.as_slice() {
        [k] => format!(" at k = {k}"),
        ks => format!(
            " at mixed k ({})",
            ks.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        ),
    };
    out.join(", ") + &k
}

fn cases(n: usize) -> String {
    if n == 1 {
        "1 case".to_owned()
    } else {
        format!("{n} cases")
    }
}

/// `./a\b` → `a/b`.
pub fn normalise(p: &str) -> String {
    let p = p.replace('\\', "/");
    let mut s = p.as_str();
    while let Some(rest) = s.strip_prefix("./") {
        s = rest;
    }
    s.trim_end_matches('/').to_owned()
}

/// `a` ends with `b` at a `/` boundary (or equals it).
fn ends_at(a: &str, b: &str) -> bool {
    !b.is_empty()
        && a.ends_with(b)
        && (a.len() == b.len() || a.as_bytes()[a.len() - b.len() - 1] == b'/')
}

/// Candidate names in an evals path: the file stem unless it is the generic `evals`/`eval`,
/// the folder holding an `evals/` folder, and the file's folder.
fn names_in(path: &str) -> Vec<String> {
    let parts: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut out = Vec::new();
    if let Some(file) = parts.last() {
        let stem = file.split('.').next().unwrap_or(file);
        if !matches!(stem, "evals" | "eval" | "") {
            out.push(stem.to_owned());
        }
    }
    if parts.len() >= 3 && parts[parts.len() - 2] == "evals" {
        out.push(parts[parts.len() - 3].to_owned());
    }
    if parts.len() >= 2 && parts[parts.len() - 2] != "evals" {
        out.push(parts[parts.len() - 2].to_owned());
    }
    out
}

/// A path match needs this many components of the shorter path (or the two paths equal):
/// `evals.json` or `evals/evals.json` alone could be any skill's.
const MIN_MATCHED_COMPONENTS: usize = 3;

/// A skill or agent file a result may count for.
#[derive(Debug, Clone, Copy)]
pub struct Subject<'a> {
    pub path: &'a str,
    pub name: &'a str,
    /// Matched by name too: skills and agents, not settings, instructions, prompts, MCP or
    /// hook files (whose names are file names like `settings` or `AGENTS`).
    pub by_name: bool,
}

/// Attributes each result to a skill or agent path. `subjects` are every skill and agent
/// file of the scan; `files` the eval files the scan found.
pub fn attribute(
    results: &[EvalResult],
    files: &[EvalFileInfo],
    subjects: &[Subject<'_>],
) -> Vec<Attribution> {
    // Names → paths (a name two subjects share attributes nothing).
    let mut by_name: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for s in subjects.iter().filter(|s| s.by_name) {
        by_name
            .entry(s.name.trim().to_lowercase())
            .or_default()
            .push(s.path);
    }
    let known: std::collections::BTreeSet<&str> = subjects.iter().map(|s| s.path).collect();
    let files: Vec<(String, &EvalFileInfo)> = files
        .iter()
        .filter(|f| f.target.as_deref().is_some_and(|t| known.contains(t)))
        .map(|f| (normalise(&f.path), f))
        .collect();
    results
        .iter()
        .map(|r| {
            let evals = normalise(&r.report.evals);
            let mut targets: Vec<(&str, &str)> = files
                .iter()
                .filter(|(p, _)| {
                    *p == evals
                        || ((ends_at(&evals, p) || ends_at(p, &evals))
                            && p.split('/').count().min(evals.split('/').count())
                                >= MIN_MATCHED_COMPONENTS)
                })
                .filter_map(|(p, f)| f.target.as_deref().map(|t| (t, p.as_str())))
                .collect();
            targets.sort_unstable();
            targets.dedup_by(|a, b| a.0 == b.0);
            let (target, how) = match targets.as_slice() {
                [(t, p)] => (Some((*t).to_owned()), format!("eval file {p}")),
                [] => match names_in(&evals)
                    .iter()
                    .find_map(|n| by_name.get(&n.to_lowercase()).map(|ps| (n, ps)))
                {
                    Some((n, ps)) if ps.len() == 1 => {
                        (Some(ps[0].to_owned()), format!("name `{n}` in its path"))
                    }
                    Some((n, ps)) => (
                        None,
                        format!("the name `{n}` in its path is shared by {} files", ps.len()),
                    ),
                    None => (
                        None,
                        "its evals file is not one the scan found, and no skill or agent is named in its path".to_owned(),
                    ),
                },
                many => (
                    None,
                    format!(
                        "its evals path matches eval files of {} targets ({})",
                        many.len(),
                        many.iter().map(|(t, _)| *t).collect::<Vec<_>>().join(", ")
                    ),
                ),
            };
            Attribution {
                results: r.file.clone(),
                evals: evals.clone(),
                target,
                how,
            }
        })
        .collect()
}

/// What the index needs of the eval results: every result, and the ones of each subject.
#[derive(Debug, Clone, Default)]
pub struct EvalInput<'a> {
    pub all: Vec<&'a EvalResult>,
    /// By skill folder or agent file.
    pub by_subject: BTreeMap<String, Vec<&'a EvalResult>>,
    pub attributions: Vec<Attribution>,
}

impl<'a> EvalInput<'a> {
    /// Attributes `results` (see [`attribute`]).
    pub fn new(
        results: &'a [EvalResult],
        files: &[EvalFileInfo],
        subjects: &[Subject<'_>],
    ) -> Self {
        let attributions = attribute(results, files, subjects);
        let mut by_subject: BTreeMap<String, Vec<&EvalResult>> = BTreeMap::new();
        for (r, a) in results.iter().zip(&attributions) {
            if let Some(t) = &a.target {
                by_subject.entry(t.clone()).or_default().push(r);
            }
        }
        EvalInput {
            all: results.iter().collect(),
            by_subject,
            attributions,
        }
    }
}

/// One note per result: where it was counted (`Report::eval_results`).
pub fn notes(attributions: &[Attribution]) -> Vec<String> {
    attributions
            .iter()
            .map(|a| {
                // The evals path and the matched names come from the results file: data.
                let (results, evals, how) = (
                    sanitize_line(&a.results),
                    sanitize_line(&a.evals),
                    sanitize_line(&a.how),
                );
                match &a.target {
                    Some(t) => format!(
                        "eval results {results} ({evals}) count for {} (matched by {how}) and for the scan",
                        sanitize_line(t)
                    ),
                    None => format!(
                        "eval results {results} ({evals}) count for the scan only: {how}; keep the evals file in the repository beside its skill or agent, or name it after one"
                    ),
                }
            })
            .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evals::grade::{CaseResult, MatchKind};

    fn case(id: &str, set: Set, at: f64, hat: f64) -> CaseResult {
        CaseResult {
            id: id.into(),
            set,
            set_name: None,
            kind: MatchKind::Exact,
            n: 1,
            c: 1,
            missing: 0,
            k: 1,
            pass_at_k: at,
            pass_hat_k: hat,
            samples: vec![],
        }
    }

    fn result(file: &str, evals: &str, cases: Vec<CaseResult>) -> EvalResult {
        EvalResult {
            file: file.into(),
            report: GradeReport {
                schema: crate::evals::grade::SCHEMA.into(),
                profile: "strict".into(),
                evals: evals.into(),
                k: None,
                sets: BTreeMap::new(),
                cases,
                compare: None,
                passed: true,
                warnings: Vec::new(),
            },
        }
    }

    fn info(path: &str, target: &str) -> EvalFileInfo {
        EvalFileInfo {
            path: path.into(),
            format: "agent-evals".into(),
            target: Some(target.into()),
            target_kind: Some("skill".into()),
            target_name: None,
            candidates: vec![],
            cases: 1,
            capability: 0,
            regression: 0,
            should_trigger: 0,
            should_not_trigger: 0,
            graders: vec![],
            task_files: vec![],
            valid: true,
        }
    }

    fn sub<'a>(path: &'a str, name: &'a str, by_name: bool) -> Subject<'a> {
        Subject {
            path,
            name,
            by_name,
        }
    }

    #[test]
    fn metric_pools_cases_and_means_the_two_sets() {
        let a = result(
            "a.json",
            "x",
            vec![
                case("r1", Set::Regression, 1.0, 1.0),
                case("r2", Set::Regression, 1.0, 0.4),
                case("c1", Set::Capability, 0.9, 0.0),
            ],
        );
        let b = result("b.json", "y", vec![case("c2", Set::Capability, 0.5, 0.0)]);
        let m = metric(&[&a, &b]).unwrap();
        assert_eq!(m.regression_pass_hat_k, Some(0.7));
        assert_eq!(m.regression_cases, 2);
        assert_eq!(m.capability_pass_at_k, Some(0.7));
        assert_eq!(m.capability_cases, 2);
        assert_eq!(m.score, 70.0);
        assert_eq!(m.k, [1]);
        assert!(detail(&m).ends_with(" at k = 1"), "{}", detail(&m));
        // One set only: its value alone.
        let m = metric(&[&b]).unwrap();
        assert_eq!((m.score, m.regression_pass_hat_k), (50.0, None));
        // Nothing graded: not measured.
        assert!(metric(&[&result("c.json", "z", vec![])]).is_err());
    }

    #[test]
    fn attribution_by_eval_file_then_by_name() {
        let files = [
            info(".github/skills/pdf/evals/evals.json", ".github/skills/pdf"),
            info(".github/skills/doc/evals/evals.json", ".github/skills/doc"),
        ];
        let subjects = [
            sub(".github/skills/pdf", "pdf", true),
            sub(".github/skills/doc", "doc", true),
            sub(".github/agents/rev.agent.md", "rev", true),
            // Settings, instructions and the like are never matched by name.
            sub(".claude/settings.json", "settings", false),
        ];
        let rs = [
            // Run from a parent folder.
            result("1", "repo/.github/skills/pdf/evals/evals.json", vec![]),
            // Run from inside the skill: `evals/evals.json` could be any skill's.
            result("2", "./evals/evals.json", vec![]),
            // Run from inside the pdf skill's evals folder of another checkout: by name.
            result("3", "/tmp/x/doc/evals/evals.json", vec![]),
            // A file named after an agent.
            result("4", "evals/rev.json", vec![]),
            result("5", "elsewhere/cases.json", vec![]),
            // `.github/skills/pdfx/...` must not match `pdf` by suffix.
            result("6", "skills/pdfx/evals/evals.json", vec![]),
            result("7", "ci/settings/evals/evals.json", vec![]),
            // Three components of the path: enough.
            result("8", "pdf/evals/evals.json", vec![]),
        ];
        let a = attribute(&rs, &files, &subjects);
        let t: Vec<Option<&str>> = a.iter().map(|a| a.target.as_deref()).collect();
        assert_eq!(
            t,
            [
                Some(".github/skills/pdf"),
                None,
                Some(".github/skills/doc"),
                Some(".github/agents/rev.agent.md"),
                None,
                None,
                None,
                Some(".github/skills/pdf"),
            ]
        );
        assert!(a[1].how.contains("not one the scan found"), "{}", a[1].how);
    }

    #[test]
    fn shared_names_attribute_nothing() {
        let subjects = [sub("a/pdf", "pdf", true), sub("b/pdf", "pdf", true)];
        let a = attribute(
            &[result("1", "pdf/evals/evals.json", vec![])],
            &[],
            &subjects,
        );
        assert_eq!(a[0].target, None);
        assert!(a[0].how.contains("shared by 2"), "{}", a[0].how);
        // The same skill in two repositories of a workspace: the path matches both.
        let files = [
            info("r1/skills/pdf/evals/evals.json", "a/pdf"),
            info("r2/skills/pdf/evals/evals.json", "b/pdf"),
        ];
        let a = attribute(
            &[result("1", "skills/pdf/evals/evals.json", vec![])],
            &files,
            &subjects,
        );
        assert_eq!(a[0].target, None);
        assert!(a[0].how.contains("2 targets"), "{}", a[0].how);
    }
}
