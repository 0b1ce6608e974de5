//! Skill Security Index (SSI): a 0–100 score with a letter grade per skill and
//! per scan, from up to four axes — compliance, security, (with a disclosure
//! trace) efficiency and (with graded eval results, [`evals`]) evals. Axes that
//! were not measured are excluded from the mean and named in the explanation;
//! they are never assumed perfect.
//!
//! The formula, penalties, bands and worked examples are in
//! `docs/security-index.md`; the tests at the bottom port AgentEval's S01–S11.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Serialize;

use crate::finding::{Finding, Severity};
use crate::result::ScanResult;
use crate::rules::ids;

pub mod evals;
pub use evals::{EvalInput, EvalMetric, EvalResult};

/// Penalty per finding, by severity. A critical finding zeroes its axis.
pub fn penalty(s: Severity) -> f64 {
    match s {
        Severity::Critical => 100.0,
        Severity::High => 40.0,
        Severity::Medium => 15.0,
        Severity::Low => 5.0,
        Severity::Info => 0.0,
    }
}

/// Drift findings: they count toward the security axis (a skill that changed
/// after it was vetted is unreviewed content), whatever their category.
/// `cross-location-content-drift` (copies that differ, with no baseline to say which one
/// was reviewed) is compliance: on real repositories most copies per harness differ.
pub const SECURITY_DRIFT_RULES: &[&str] = &[
    ids::MANIFEST_CHANGED_SINCE_BASELINE,
    ids::CHANGED_SINCE_LAST_VETTED,
    ids::PROVENANCE_HASH_MISMATCH,
];

/// Grade bands: A ≥ 90, B ≥ 80, C ≥ 70, D ≥ 60, F below.
pub fn grade(score: f64) -> &'static str {
    if score >= 90.0 {
        "A"
    } else if score >= 80.0 {
        "B"
    } else if score >= 70.0 {
        "C"
    } else if score >= 60.0 {
        "D"
    } else {
        "F"
    }
}

/// Which axis a finding penalises, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    Compliance,
    Security,
}

/// The axis a finding counts toward: `None` for informational findings and for
/// `internal-error` (which makes the skill's axes unmeasured instead).
pub fn axis_of(f: &Finding) -> Option<Axis> {
    if f.severity == Severity::Info || f.rule_id == ids::INTERNAL_ERROR {
        return None;
    }
    if SECURITY_DRIFT_RULES.contains(&f.rule_id) || f.category.starts_with("security/") {
        Some(Axis::Security)
    } else {
        // compliance, loader, and integrity findings that are not drift.
        Some(Axis::Compliance)
    }
}

/// Rounds to one decimal (what every format shows).
fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// `62`, `86.7`: an integer when the one-decimal value is whole.
pub fn fmt_score(x: f64) -> String {
    let r = round1(x);
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// Axis values (0–100, one decimal), `null` when not measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Axes {
    pub compliance: Option<f64>,
    pub security: Option<f64>,
    pub efficiency: Option<f64>,
    pub evals: Option<f64>,
}

/// One index: per skill or for the whole scan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Index {
    /// 0–100 with one decimal; `null` when no axis was measured.
    pub score: Option<f64>,
    /// `A`–`F`; `null` with the score.
    pub grade: Option<&'static str>,
    pub axes: Axes,
    /// How many of the four axes went into the score.
    pub axes_measured: u8,
    pub explanation: String,
    /// The eval axis's parts, when it was measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eval_metric: Option<EvalMetric>,
}

/// An axis value, or why it was not measured.
#[derive(Debug, Clone, PartialEq)]
pub enum AxisValue {
    Measured(f64),
    NotMeasured(String),
}

impl AxisValue {
    fn value(&self) -> Option<f64> {
        match self {
            AxisValue::Measured(v) => Some(*v),
            AxisValue::NotMeasured(_) => None,
        }
    }
}

/// The number of axes an index can have.
pub const AXES: u8 = 4;

/// Builds an index from the four axis values (compliance, security, efficiency, evals);
/// `detail` adds a note to each measured axis (for example "lowest of 8 skills").
pub fn combine(values: [&AxisValue; 4], detail: [&str; 4]) -> Index {
    let [compliance, security, efficiency, evals] = values;
    let named = [
        ("compliance", compliance),
        ("security", security),
        ("efficiency", efficiency),
        ("evals", evals),
    ];
    let mut measured = Vec::new();
    let mut missing = Vec::new();
    for ((name, v), d) in named.iter().zip(detail) {
        match v {
            AxisValue::Measured(x) => {
                let d = if d.is_empty() {
                    String::new()
                } else {
                    format!(" [{d}]")
                };
                measured.push((format!("{name} {}{d}", fmt_score(*x)), *x));
            }
            AxisValue::NotMeasured(why) => missing.push(format!("{name} ({why})")),
        }
    }
    let clamp = |v: &AxisValue| v.value().map(|x| round1(x.clamp(0.0, 100.0)));
    let axes = Axes {
        compliance: clamp(compliance),
        security: clamp(security),
        efficiency: clamp(efficiency),
        evals: clamp(evals),
    };
    let n = measured.len() as u8;
    // The mean of the measured axes, never above the security axis: tidy frontmatter does
    // not average a credential stealer into a pass.
    let ceiling = security.value().map_or(100.0, |x| x.clamp(0.0, 100.0));
    let score = (n > 0).then(|| {
        round1(
            (measured
                .iter()
                .map(|(_, x)| x.clamp(0.0, 100.0))
                .sum::<f64>()
                / f64::from(n))
            .min(ceiling),
        )
    });
    let grade = score.map(grade);
    let not = if missing.is_empty() {
        String::new()
    } else {
        format!(
            "; NOT measured: {} — excluded from the mean, never assumed perfect",
            missing.join(", ")
        )
    };
    let explanation = match score {
        Some(s) => format!(
            "Composite {}/100 ({}) from {n}/{AXES} axes ({}){not}",
            fmt_score(s),
            grade.unwrap_or("F"),
            measured
                .iter()
                .map(|(t, _)| t.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        ),
        None => format!("No axis was measured — nothing to score{not}"),
    };
    Index {
        score,
        grade,
        axes,
        axes_measured: n,
        explanation,
        eval_metric: None,
    }
}

impl Index {
    /// `92.5/100 (A)`, or for a scan graded by its worst skill `F (worst skill) · median
    /// 92.5/100 (A)`, or `not scored`.
    pub fn headline(&self) -> String {
        match (self.score, self.grade) {
            (Some(s), Some(g)) if grade(s) != g => {
                format!(
                    "{g} (worst skill) · median {}/100 ({})",
                    fmt_score(s),
                    grade(s)
                )
            }
            (Some(s), Some(g)) => format!("{}/100 ({g})", fmt_score(s)),
            _ => "not scored".to_owned(),
        }
    }
}

/// A rule costs at most this many times its worst finding's penalty (per skill and axis).
pub const RULE_CAP: f64 = 2.0;
/// A category costs at most this many times its worst finding's penalty.
pub const CATEGORY_CAP: f64 = 3.0;
/// Low findings together cost an axis at most this much: lows alone leave it at 70 (a C).
pub const LOW_CAP: f64 = 30.0;
/// Compliance findings together cost the compliance axis at most this much: with a clean
/// security axis, compliance alone leaves a skill at 80 (a B).
pub const COMPLIANCE_CAP: f64 = 40.0;
/// A skill whose worst counted finding is a medium scores at least this (a C).
pub const MEDIUM_FLOOR: f64 = 70.0;
/// A high or critical security finding leaves the security axis at most this (an F, and the
/// composite never exceeds the security axis).
pub const SECURITY_HIGH_CEILING: f64 = 50.0;

/// `clamp(100 − Σ penalty, 0, 100)` over the findings given, with no saturation (the sum
/// AgentEval takes). The index uses [`saturated_axis`].
pub fn axis_score<'a>(findings: impl IntoIterator<Item = &'a Finding>) -> f64 {
    let p: f64 = findings.into_iter().map(|f| penalty(f.severity)).sum();
    (100.0 - p).clamp(0.0, 100.0)
}

/// An axis from one skill's findings on it, with saturating deductions:
/// - per rule: `min(Σ penalties, RULE_CAP × worst)`;
/// - per category: `min(Σ of its rules, CATEGORY_CAP × worst)`;
/// - categories whose worst finding is low cost at most [`LOW_CAP`] together;
/// - compliance costs at most [`COMPLIANCE_CAP`] in all;
/// - on the security axis, a high or critical finding caps the axis at
///   [`SECURITY_HIGH_CEILING`].
pub fn saturated_axis<'a>(axis: Axis, findings: impl IntoIterator<Item = &'a Finding>) -> f64 {
    // (category, rule) → (sum, worst)
    let mut rules: BTreeMap<(&str, &str), (f64, f64)> = BTreeMap::new();
    let mut worst_sev = Severity::Info;
    for f in findings {
        let p = penalty(f.severity);
        worst_sev = worst_sev.max(f.severity);
        let e = rules.entry((f.category, f.rule_id)).or_insert((0.0, 0.0));
        e.0 += p;
        e.1 = e.1.max(p);
    }
    let mut cats: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    for ((cat, _), (sum, worst)) in rules {
        let e = cats.entry(cat).or_insert((0.0, 0.0));
        e.0 += sum.min(RULE_CAP * worst);
        e.1 = e.1.max(worst);
    }
    let (mut lows, mut rest) = (0.0, 0.0);
    for (sum, worst) in cats.into_values() {
        let d = sum.min(CATEGORY_CAP * worst);
        if worst <= penalty(Severity::Low) {
            lows += d;
        } else {
            rest += d;
        }
    }
    let mut total = rest + lows.min(LOW_CAP);
    if axis == Axis::Compliance {
        total = total.min(COMPLIANCE_CAP);
    }
    let mut v = (100.0 - total).clamp(0.0, 100.0);
    if axis == Axis::Security && worst_sev >= Severity::High {
        v = v.min(SECURITY_HIGH_CEILING);
    }
    v
}

// ---------------------------------------------------------------------------
// Disclosure trace and AgentEval's `code_skill_disclosure_efficiency`.

/// A skill tool the efficiency metric observes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkillTool {
    Load,
    Read,
    Run,
}

/// One observed skill tool call; `skill` is lower-cased, `None` when no name could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillCall {
    pub tool: SkillTool,
    pub skill: Option<String>,
}

/// A parsed disclosure trace.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    /// Skill tool calls, in order.
    pub calls: Vec<SkillCall>,
    /// Other tool calls (ignored by the metric).
    pub other_calls: usize,
    /// Ground truth for the selection F1 (lower-cased), when supplied.
    pub expected: Option<BTreeSet<String>>,
}

/// Largest trace file read.
pub const MAX_TRACE_BYTES: u64 = crate::parse::tool_calls::MAX_BYTES;

/// Reads and parses a trace file. Errors name the file.
pub fn read_trace(path: &Path) -> Result<Trace, String> {
    let shown = path.display();
    let bytes = crate::fsutil::read_named_bounded(path, MAX_TRACE_BYTES)
        .map_err(|e| format!("cannot read disclosure trace {shown}: {e}"))?;
    parse_trace(&bytes).map_err(|e| format!("invalid disclosure trace {shown}: {e}"))
}

fn tool_kind(name: &str) -> Option<SkillTool> {
    match name.trim().to_ascii_lowercase().as_str() {
        "load_skill" => Some(SkillTool::Load),
        "read_skill_resource" => Some(SkillTool::Read),
        "run_skill_script" => Some(SkillTool::Run),
        _ => None,
    }
}

/// The skill name in a call's arguments: the `skillName` key (MAF 1.13) or a
/// known variant, else — value-based, as AgentEval degrades — the only string
/// argument of a `load_skill` call.
fn skill_arg(tool: SkillTool, args: &serde_json::Value) -> Option<String> {
    let obj = args.as_object()?;
    for want in ["skillname", "skill_name", "skill", "name"] {
        if let Some(v) = obj
            .iter()
            .find(|(k, _)| k.to_ascii_lowercase() == want)
            .and_then(|(_, v)| v.as_str())
        {
            return Some(v.trim().to_lowercase());
        }
    }
    if tool == SkillTool::Load {
        let strings: Vec<&str> = obj.values().filter_map(|v| v.as_str()).collect();
        if let [only] = strings[..] {
            return Some(only.trim().to_lowercase());
        }
    }
    None
}

/// Parses a trace: the tool calls of `crate::parse::tool_calls` (a JSON list of calls,
/// an object `{"calls": [...]}`, chat messages with `tool_calls` or `tool_use` blocks),
/// plus the object's optional `"expected_skills": [...]`. Arguments of skill tool calls
/// may be encoded as a JSON string.
pub fn parse_trace(bytes: &[u8]) -> Result<Trace, String> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let all = crate::parse::tool_calls::calls(&v)?;
    let expected = match v.as_object().and_then(|o| o.get("expected_skills")) {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Array(e)) => Some(
            e.iter()
                .map(|s| {
                    s.as_str()
                        .map(|s| s.trim().to_lowercase())
                        .ok_or("`expected_skills` must be a list of skill names")
                })
                .collect::<Result<BTreeSet<String>, _>>()?,
        ),
        Some(_) => return Err("`expected_skills` must be a list of skill names".into()),
    };
    let mut t = Trace {
        expected,
        ..Trace::default()
    };
    for c in &all {
        let Some(tool) = tool_kind(&c.name) else {
            t.other_calls += 1;
            continue;
        };
        let args = c.arguments()?;
        t.calls.push(SkillCall {
            tool,
            skill: skill_arg(tool, &args),
        });
    }
    Ok(t)
}

/// The efficiency metric's parts, for the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Efficiency {
    /// `100 × order_validity × load_precision × selection_f1`, one decimal.
    pub score: f64,
    pub order_validity: f64,
    pub load_precision: f64,
    /// Three or more distinct skills loaded and nothing read or run (× 0.7).
    pub load_storm: bool,
    /// `null` without `expected_skills` (neutral 1.0 in the product).
    pub selection_f1: Option<f64>,
    pub load_calls: usize,
    pub read_calls: usize,
    pub run_calls: usize,
    pub other_calls: usize,
}

fn r3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// AgentEval's `code_skill_disclosure_efficiency` over a whole trace. Unlike
/// AgentEval (100, "nothing to measure"), a trace without skill tool calls is not
/// measured — unless expected skills were given, which then all were missed (0).
pub fn trace_efficiency(t: &Trace) -> Result<Efficiency, String> {
    let count = |k: SkillTool| t.calls.iter().filter(|c| c.tool == k).count();
    let (loads, reads, runs) = (
        count(SkillTool::Load),
        count(SkillTool::Read),
        count(SkillTool::Run),
    );
    let expected_nonempty = t.expected.as_ref().is_some_and(|e| !e.is_empty());
    if t.calls.is_empty() && !expected_nonempty {
        return Err(
            "the disclosure trace has no load_skill, read_skill_resource or run_skill_script call"
                .into(),
        );
    }
    // Order validity: a read/run needs an earlier load of the same skill (an
    // unknown name is satisfied by any earlier load).
    let mut loaded: BTreeSet<Option<&str>> = BTreeSet::new();
    let mut any_load = false;
    let mut orphaned = 0usize;
    for c in &t.calls {
        match c.tool {
            SkillTool::Load => {
                any_load = true;
                loaded.insert(c.skill.as_deref());
            }
            SkillTool::Read | SkillTool::Run => {
                let ok = match c.skill.as_deref() {
                    Some(s) => loaded.contains(&Some(s)),
                    None => any_load,
                };
                if !ok {
                    orphaned += 1;
                }
            }
        }
    }
    let rr = reads + runs;
    let order_validity = if rr == 0 {
        1.0
    } else {
        1.0 - orphaned as f64 / rr as f64
    };
    let distinct = loaded.len();
    let load_storm = distinct >= 3 && rr == 0;
    let load_precision = if loads == 0 {
        1.0
    } else {
        ((distinct as f64 / loads as f64) * if load_storm { 0.7 } else { 1.0 }).clamp(0.0, 1.0)
    };
    let selection_f1 = t.expected.as_ref().map(|exp| {
        let got: BTreeSet<&str> = loaded.iter().filter_map(|s| *s).collect();
        if exp.is_empty() && got.is_empty() {
            return 1.0;
        }
        let hit = got.iter().filter(|s| exp.contains(**s)).count() as f64;
        if hit == 0.0 {
            return 0.0;
        }
        let p = hit / got.len() as f64;
        let r = hit / exp.len() as f64;
        2.0 * p * r / (p + r)
    });
    let score = 100.0 * order_validity * load_precision * selection_f1.unwrap_or(1.0);
    Ok(Efficiency {
        score: round1(score.clamp(0.0, 100.0)),
        order_validity: r3(order_validity),
        load_precision: r3(load_precision),
        load_storm,
        selection_f1: selection_f1.map(r3),
        load_calls: loads,
        read_calls: reads,
        run_calls: runs,
        other_calls: t.other_calls,
    })
}

/// One skill's part of the funnel: order validity of its reads/runs × its load
/// precision (1 / number of loads). Selection and load storms are properties of
/// the whole trace and are scored at scan level only.
pub fn skill_efficiency(t: &Trace, name: &str) -> AxisValue {
    let name = name.trim().to_lowercase();
    let mut loads = 0usize;
    let mut rr = 0usize;
    let mut orphaned = 0usize;
    for c in &t.calls {
        if c.skill.as_deref() != Some(name.as_str()) {
            continue;
        }
        match c.tool {
            SkillTool::Load => loads += 1,
            SkillTool::Read | SkillTool::Run => {
                rr += 1;
                if loads == 0 {
                    orphaned += 1;
                }
            }
        }
    }
    if loads + rr == 0 {
        return AxisValue::NotMeasured("not exercised by the disclosure trace".into());
    }
    let ov = if rr == 0 {
        1.0
    } else {
        1.0 - orphaned as f64 / rr as f64
    };
    let lp = if loads == 0 { 1.0 } else { 1.0 / loads as f64 };
    AxisValue::Measured(100.0 * ov * lp)
}

// ---------------------------------------------------------------------------
// The index of a scan.

/// A skill as the index sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkillRef<'a> {
    pub path: &'a str,
    pub name: &'a str,
    /// An agent, prompt, instruction, MCP or hook file rather than a skill: indexed the same
    /// way, listed apart ([`Report::agents`]); a disclosure trace names skills only.
    pub agent: bool,
}

/// The index of every skill and of the scan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub scan: Index,
    /// The lowest-scoring skill or agent file, reported beside the scan's median.
    pub worst: Option<Worst>,
    /// By skill path.
    pub skills: BTreeMap<String, Index>,
    /// By path: agents, prompts, instructions, MCP and hook files.
    pub agents: BTreeMap<String, Index>,
    /// Findings outside any skill (not info) that no index counts.
    pub unscored_findings: usize,
    /// The trace-level efficiency metric, when a trace was supplied and measured.
    pub efficiency: Option<Efficiency>,
    /// Where each `--evals` result was counted (empty without `--evals`).
    pub eval_results: Vec<evals::Attribution>,
    /// Set by the gate: `--fail-under-index`.
    pub fail_under: Option<f64>,
}

/// The lowest-scoring skill or agent file of a scan.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Worst {
    pub path: String,
    pub score: f64,
    pub grade: &'static str,
}

/// The median of `v` (mean of the two middle values for an even count); `None` when empty.
pub fn median(v: &[f64]) -> Option<f64> {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// Below this a skill is an F: the per-skill part of `--fail-under-index`.
pub const F_BELOW: f64 = 60.0;

/// The scan-level index as serialised (see [`Report::scan_dto`]).
#[derive(Debug, Serialize)]
pub struct ScanIndex<'a> {
    #[serde(flatten)]
    pub index: &'a Index,
    pub skills_scored: usize,
    /// Agent, prompt, instruction, MCP and hook files with an index.
    #[serde(skip_serializing_if = "is_zero")]
    pub agents_scored: usize,
    pub unscored_findings: usize,
    /// The lowest-scoring skill or agent file (the scan's score is the median).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst: Option<&'a Worst>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub efficiency_metric: Option<&'a Efficiency>,
    /// Where each `--evals` result was counted.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub eval_results: &'a [evals::Attribution],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fail_under: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub below: Option<Vec<&'a str>>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

const NO_TRACE: &str = "no disclosure trace supplied";
const NO_EVALS: &str = "no eval results supplied with --evals";
const NO_EVALS_HERE: &str = "no eval results for it among those supplied";
const AGENT_TRACE: &str = "a disclosure trace measures skills only";

/// Skills a finding belongs to: its own, and for `cross-location-content-drift`
/// every location the finding lists (each copy is equally suspect).
fn owners(f: &Finding) -> Vec<&str> {
    let mut out: Vec<&str> = f.skill_path.as_deref().into_iter().collect();
    if f.rule_id == ids::CROSS_LOCATION_CONTENT_DRIFT
        && let Some(locs) = f
            .properties
            .as_ref()
            .and_then(|p| p.get("locations"))
            .and_then(|l| l.as_array())
    {
        for l in locs {
            if let Some(p) = l.get("path").and_then(|p| p.as_str())
                && !out.contains(&p)
            {
                out.push(p);
            }
        }
    }
    out
}

/// The eval axis of a set of results: measured, or why not.
fn eval_axis(results: Option<&[&EvalResult]>, none: &str) -> (AxisValue, Option<EvalMetric>) {
    match results {
        None | Some([]) => (AxisValue::NotMeasured(none.to_owned()), None),
        Some(rs) => match evals::metric(rs) {
            Ok(m) => (AxisValue::Measured(m.score), Some(m)),
            Err(why) => (AxisValue::NotMeasured(why), None),
        },
    }
}

/// Computes the index of every skill and of the scan; `evals` are the graded eval results
/// supplied (`--evals`), attributed to skills and agents.
pub fn compute(
    skills: &[SkillRef<'_>],
    findings: &[Finding],
    trace: Option<&Trace>,
    evals: Option<&EvalInput<'_>>,
) -> Report {
    let mut by_skill: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
    let mut unscored = 0usize;
    for f in findings {
        let o = owners(f);
        if o.is_empty() && f.severity > Severity::Info {
            unscored += 1;
        }
        for p in o {
            by_skill.entry(p).or_default().push(f);
        }
    }
    let mut out = BTreeMap::new();
    let mut agents_out = BTreeMap::new();
    let mut compliance_vals = Vec::new();
    let mut security_vals = Vec::new();
    let mut failed = 0usize;
    for s in skills {
        let fs = by_skill.get(s.path).map(Vec::as_slice).unwrap_or(&[]);
        let crashed = fs.iter().any(|f| f.rule_id == ids::INTERNAL_ERROR);
        let (c, sec) = if crashed {
            failed += 1;
            let why = "analysis failed (internal-error)".to_owned();
            (
                AxisValue::NotMeasured(why.clone()),
                AxisValue::NotMeasured(why),
            )
        } else {
            let c = saturated_axis(
                Axis::Compliance,
                fs.iter()
                    .copied()
                    .filter(|f| axis_of(f) == Some(Axis::Compliance)),
            );
            let sec = saturated_axis(
                Axis::Security,
                fs.iter()
                    .copied()
                    .filter(|f| axis_of(f) == Some(Axis::Security)),
            );
            compliance_vals.push(c);
            security_vals.push(sec);
            (AxisValue::Measured(c), AxisValue::Measured(sec))
        };
        let e = match trace {
            _ if s.agent => AxisValue::NotMeasured(AGENT_TRACE.into()),
            Some(t) => skill_efficiency(t, s.name),
            None => AxisValue::NotMeasured(NO_TRACE.into()),
        };
        let (ev, metric) = match evals {
            None => eval_axis(None, NO_EVALS),
            Some(ei) => eval_axis(
                Some(ei.by_subject.get(s.path).map(Vec::as_slice).unwrap_or(&[])),
                NO_EVALS_HERE,
            ),
        };
        let ev_detail = metric.as_ref().map(evals::detail).unwrap_or_default();
        let mut index = combine([&c, &sec, &e, &ev], ["", "", "", &ev_detail]);
        index.eval_metric = metric;
        // A skill whose worst finding is a medium is at worst a C: warnings are debt to plan,
        // not a failed skill (an F is what a high or critical finding, or a failed analysis,
        // earns).
        let worst_counted = fs
            .iter()
            .filter(|f| axis_of(f).is_some())
            .map(|f| f.severity)
            .max();
        if !crashed
            && worst_counted.is_some_and(|w| w <= Severity::Medium)
            && let Some(score) = index.score.filter(|x| *x < MEDIUM_FLOOR)
        {
            index.score = Some(MEDIUM_FLOOR);
            index.grade = Some(grade(MEDIUM_FLOOR));
            index.explanation = format!(
                "{} — raised to {}/100 (C): no finding above medium (was {})",
                index.explanation,
                fmt_score(MEDIUM_FLOOR),
                fmt_score(score)
            );
        }
        let into = if s.agent { &mut agents_out } else { &mut out };
        into.insert(s.path.to_owned(), index);
    }
    let n = compliance_vals.len();
    let n_agents = skills.iter().filter(|s| s.agent).count();
    let none_why = if skills.is_empty() {
        "no skill was scanned".to_owned()
    } else {
        "no skill could be analysed".to_owned()
    };
    let c = match median(&compliance_vals) {
        Some(v) => AxisValue::Measured(v),
        None => AxisValue::NotMeasured(none_why.clone()),
    };
    let sec = match median(&security_vals) {
        Some(v) => AxisValue::Measured(v),
        None => AxisValue::NotMeasured(none_why),
    };
    let (e, eff) = match trace {
        None => (AxisValue::NotMeasured(NO_TRACE.into()), None),
        Some(t) => match trace_efficiency(t) {
            Ok(m) => (AxisValue::Measured(m.score), Some(m)),
            Err(why) => (AxisValue::NotMeasured(why), None),
        },
    };
    let what = if n_agents == 0 {
        if n == 1 {
            "1 skill".to_owned()
        } else {
            format!("{n} skills")
        }
    } else {
        match skills.len() - n_agents {
            0 => format!("{n_agents} agent file(s)"),
            k => format!("{k} skill(s) and {n_agents} agent file(s)"),
        }
    };
    let (c_detail, s_detail) = if n == 1 {
        (what.clone(), what)
    } else {
        (format!("median of {what}"), format!("median of {what}"))
    };
    let (ev, metric) = eval_axis(evals.map(|e| e.all.as_slice()), NO_EVALS);
    let ev_detail = metric.as_ref().map(evals::detail).unwrap_or_default();
    let mut scan = combine(
        [&c, &sec, &e, &ev],
        [&c_detail, &s_detail, "whole trace", &ev_detail],
    );
    scan.eval_metric = metric;
    if failed > 0 {
        scan.explanation.push_str(&format!(
            "; {failed} skill(s) could not be analysed and have no index"
        ));
    }
    // The worst scored skill or agent file, beside the median (lowest score; ties by path).
    let worst = out
        .iter()
        .chain(&agents_out)
        .filter_map(|(p, i)| Some((p, i.score?, i.grade?)))
        .min_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(b.0)))
        .map(|(p, score, grade)| Worst {
            path: p.clone(),
            score,
            grade,
        });
    if let Some(w) = worst.as_ref().filter(|_| skills.len() > 1) {
        scan.explanation.push_str(&format!(
            "; worst: {} {}/100 ({})",
            crate::text::sanitize_line(&w.path),
            fmt_score(w.score),
            w.grade
        ));
        // The headline grade is the worst skill's when one fails: a median of A beside a
        // skill with critical findings would hide it.
        if w.grade == "F" && scan.grade.is_some_and(|g| g != "F") {
            scan.explanation = format!(
                "Grade F: a skill or agent file is graded F (the median is {}/100, {}). {}",
                scan.score.map(fmt_score).unwrap_or_default(),
                scan.grade.unwrap_or("F"),
                scan.explanation
            );
            scan.grade = Some("F");
        }
    }
    if unscored > 0 {
        scan.explanation.push_str(&format!(
            "; {unscored} finding(s) outside any skill are not scored (see the findings)"
        ));
    }
    Report {
        scan,
        worst,
        skills: out,
        agents: agents_out,
        unscored_findings: unscored,
        efficiency: eff,
        eval_results: evals.map(|e| e.attributions.clone()).unwrap_or_default(),
        fail_under: None,
    }
}

/// [`compute`] over a scan result; `evals` (`--evals`) are attributed to its skills and
/// agents by the eval files it found ([`evals::attribute`]).
pub fn for_result(r: &ScanResult, trace: Option<&Trace>, evals: Option<&[EvalResult]>) -> Report {
    let skills: Vec<SkillRef<'_>> = r
        .artifacts
        .iter()
        .map(|a| SkillRef {
            path: &a.path,
            name: &a.name,
            agent: false,
        })
        .chain(r.agents.iter().map(|a| SkillRef {
            path: &a.path,
            name: &a.name,
            agent: true,
        }))
        .collect();
    let input = evals.map(|e| eval_input(r, e));
    // The index matches the gate: accepted and suppressed findings do not lower it (an
    // `init` → `accept` repository passes `--fail-under-index`); they are counted beside it.
    let mut report = compute(&skills, &r.findings, trace, input.as_ref());
    let accepted = r
        .suppressed
        .iter()
        .filter(|s| s.kind == crate::result::SuppressionKind::Accepted)
        .count();
    let suppressed = r.suppressed.len() - accepted;
    let mut beside = Vec::new();
    if accepted > 0 {
        beside.push(format!("{accepted} accepted"));
    }
    if suppressed > 0 {
        beside.push(format!("{suppressed} suppressed"));
    }
    if !beside.is_empty() {
        report.scan.explanation.push_str(&format!(
            "; not counted: {} finding(s) (listed with the findings)",
            beside.join(", ")
        ));
    }
    report
}

/// The attribution of `evals` to the skills and agents of `r`.
fn eval_input<'a, 'r>(r: &'r ScanResult, evals: &'a [EvalResult]) -> EvalInput<'a> {
    let subject = |a: &'r crate::inventory::Artifact| evals::Subject {
        path: &a.path,
        name: &a.name,
        by_name: matches!(
            a.kind,
            crate::inventory::ArtifactKind::Skill | crate::inventory::ArtifactKind::Agent
        ),
    };
    let subjects: Vec<evals::Subject<'_>> =
        r.artifacts.iter().chain(&r.agents).map(subject).collect();
    EvalInput::new(evals, &r.evals, &subjects)
}

impl Report {
    /// Skills and agent files (by path) that fail `--fail-under-index n` on their own:
    /// below `n` and an F (below [`F_BELOW`]), or without an index.
    pub fn below(&self, n: f64) -> Vec<&str> {
        let bar = n.min(F_BELOW);
        self.skills
            .iter()
            .chain(&self.agents)
            .filter(|(_, i)| i.score.is_none_or(|s| s < bar))
            .map(|(p, _)| p.as_str())
            .collect()
    }

    /// The `--fail-under-index` gate: the scan's index (the median) below `n`, or any
    /// skill or agent file below `n` that is also an F, or one that could not be scored.
    /// A noisy skill at C or D does not fail a gate at 70; a skill with a high security
    /// finding (an F) does. A scan without skills has nothing to fail.
    pub fn fails_under(&self, n: f64) -> bool {
        self.scan.score.is_some_and(|s| s < n) || !self.below(n).is_empty()
    }

    /// The scan-level `index` object of JSON and SARIF: the scan's [`Index`] plus
    /// `skills_scored`, `unscored_findings`, the trace metric's parts
    /// (`efficiency_metric`) and, with a gate, `fail_under` and `below` (skill paths).
    pub fn scan_dto(&self) -> ScanIndex<'_> {
        ScanIndex {
            index: &self.scan,
            skills_scored: self.skills.values().filter(|i| i.score.is_some()).count(),
            agents_scored: self.agents.values().filter(|i| i.score.is_some()).count(),
            unscored_findings: self.unscored_findings,
            worst: self.worst.as_ref(),
            efficiency_metric: self.efficiency.as_ref(),
            eval_results: &self.eval_results,
            fail_under: self.fail_under,
            below: self.fail_under.map(|n| self.below(n)),
        }
    }

    /// One line per skill: `62/100 (D) · compliance 100 · security 25 · efficiency n/m`,
    /// then `· evals 70` when the eval axis was measured (it is named as not measured in the
    /// explanation, and left off the line, when no result was supplied for the skill).
    pub fn short(i: &Index) -> String {
        let ax = |name: &str, v: Option<f64>| match v {
            Some(x) => format!("{name} {}", fmt_score(x)),
            None => format!("{name} not measured"),
        };
        let head = i.headline();
        let evals = i
            .axes
            .evals
            .map(|x| format!(" · evals {}", fmt_score(x)))
            .unwrap_or_default();
        format!(
            "{head} · {} · {} · {}{evals}",
            ax("compliance", i.axes.compliance),
            ax("security", i.axes.security),
            ax("efficiency", i.axes.efficiency)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Location;

    fn f(rule: &'static str, skill: Option<&str>) -> Finding {
        Finding::new(rule, "m", Location::file("x/SKILL.md")).for_skill(skill, skill, "a")
    }

    fn sec(sev: Severity, skill: &str) -> Finding {
        let mut x = f(ids::NAME_MISSING, Some(skill));
        x.category = "security/test";
        x.severity = sev;
        x
    }

    fn sk(path: &str) -> SkillRef<'_> {
        SkillRef {
            path,
            name: path,
            agent: false,
        }
    }

    fn trace(json: &str) -> Trace {
        parse_trace(json.as_bytes()).unwrap()
    }

    // S01: nothing supplied → no score, 0 axes, "No axis".
    #[test]
    fn s01_nothing_to_score() {
        let r = compute(&[], &[], None, None);
        assert_eq!(r.scan.score, None);
        assert_eq!(r.scan.grade, None);
        assert_eq!(r.scan.axes_measured, 0);
        assert!(
            r.scan.explanation.contains("No axis"),
            "{}",
            r.scan.explanation
        );
        assert!(r.scan.explanation.contains("no skill was scanned"));
        assert!(!r.fails_under(100.0), "no skill: nothing to fail");
    }

    // S02: a clean skill → 100 on both static axes, efficiency not measured.
    #[test]
    fn s02_clean_skill() {
        let r = compute(&[sk("a")], &[], None, None);
        let i = &r.skills["a"];
        assert_eq!(i.score, Some(100.0));
        assert_eq!(i.grade, Some("A"));
        assert_eq!(i.axes_measured, 2);
        assert_eq!(i.axes.compliance, Some(100.0));
        assert_eq!(i.axes.security, Some(100.0));
        assert_eq!(i.axes.efficiency, None);
        assert_eq!(r.scan.score, Some(100.0));
    }

    // S03: name-missing (high) → compliance ≤ 60 (= 60).
    #[test]
    fn s03_name_missing() {
        let r = compute(&[sk("a")], &[f(ids::NAME_MISSING, Some("a"))], None, None);
        assert_eq!(r.skills["a"].axes.compliance, Some(60.0));
        assert_eq!(r.skills["a"].axes.security, Some(100.0));
        assert_eq!(r.skills["a"].score, Some(80.0));
    }

    // S04: an efficiency axis of 85 alone → component 85, score 85.
    #[test]
    fn s04_efficiency_component() {
        let i = combine(
            [
                &AxisValue::NotMeasured("x".into()),
                &AxisValue::NotMeasured("y".into()),
                &AxisValue::Measured(85.0),
                &AxisValue::NotMeasured(NO_EVALS.into()),
            ],
            ["", "", "", ""],
        );
        assert_eq!(i.axes.efficiency, Some(85.0));
        assert_eq!(i.score, Some(85.0));
        assert_eq!(i.grade, Some("B"));
    }

    // S05 (6 probes, 5 resisted → 83.3) has no counterpart: our security axis comes
    // from static findings, not red-team probes. Ported as penalties: low + medium → 80.
    #[test]
    fn s05_security_penalties() {
        let fs = [sec(Severity::Low, "a"), sec(Severity::Medium, "a")];
        let r = compute(&[sk("a")], &fs, None, None);
        assert_eq!(r.skills["a"].axes.security, Some(80.0));
        let fs = [sec(Severity::Critical, "a")];
        let r = compute(&[sk("a")], &fs, None, None);
        assert_eq!(r.skills["a"].axes.security, Some(0.0), "critical zeroes");
        assert_eq!(
            r.skills["a"].score,
            Some(0.0),
            "the score never exceeds security"
        );
        assert_eq!(r.skills["a"].grade, Some("F"));
    }

    // S06: no probes, one changed manifest (high) → security 50 (a high's ceiling).
    #[test]
    fn s06_drift_counts_as_security() {
        let r = compute(
            &[sk("a")],
            &[f(ids::MANIFEST_CHANGED_SINCE_BASELINE, Some("a"))],
            None,
            None,
        );
        assert_eq!(r.skills["a"].axes.security, Some(50.0));
        assert_eq!(r.skills["a"].axes.compliance, Some(100.0));
        assert_eq!(r.skills["a"].grade, Some("F"));
    }

    // S07: 60 / 100 / 100 → 86.7 from 3 axes.
    #[test]
    fn s07_three_axes() {
        let i = combine(
            [
                &AxisValue::Measured(60.0),
                &AxisValue::Measured(100.0),
                &AxisValue::Measured(100.0),
                &AxisValue::NotMeasured(NO_EVALS.into()),
            ],
            ["", "", "", ""],
        );
        assert_eq!(i.score, Some(86.7));
        assert_eq!(i.axes_measured, 3);
        assert_eq!(i.grade, Some("B"));
        assert!(i.explanation.contains("from 3/4 axes"), "{}", i.explanation);
        // All four measured: nothing is named as missing.
        let i = combine(
            [
                &AxisValue::Measured(60.0),
                &AxisValue::Measured(100.0),
                &AxisValue::Measured(100.0),
                &AxisValue::Measured(80.0),
            ],
            ["", "", "", ""],
        );
        assert_eq!(
            (i.score, i.axes_measured, i.axes.evals),
            (Some(85.0), 4, Some(80.0))
        );
        assert!(!i.explanation.contains("NOT measured"));
    }

    // S08: compliance only → explanation names the missing axes.
    #[test]
    fn s08_explanation_names_missing() {
        let i = combine(
            [
                &AxisValue::Measured(100.0),
                &AxisValue::NotMeasured("no probe".into()),
                &AxisValue::NotMeasured(NO_TRACE.into()),
                &AxisValue::NotMeasured(NO_EVALS.into()),
            ],
            ["", "", "", ""],
        );
        for want in [
            "NOT measured",
            "efficiency",
            "security",
            "never assumed perfect",
        ] {
            assert!(i.explanation.contains(want), "{}", i.explanation);
        }
    }

    // S09: efficiency supplied but not measured → excluded, score from the rest.
    #[test]
    fn s09_trace_without_skill_calls() {
        let t = trace(r#"[{"tool": "search", "arguments": {"q": "x"}}]"#);
        let r = compute(&[sk("a")], &[], Some(&t), None);
        assert_eq!(r.scan.axes.efficiency, None);
        assert_eq!(r.scan.score, Some(100.0));
        assert!(
            r.scan
                .explanation
                .contains("efficiency (the disclosure trace has no load_skill"),
            "{}",
            r.scan.explanation
        );
        assert!(
            r.skills["a"]
                .explanation
                .contains("efficiency (not exercised by the disclosure trace)")
        );
    }

    // S10: a non-finite axis value never becomes a score (ours cannot produce
    // NaN; an empty scan is the nearest case): no axis → null.
    #[test]
    fn s10_no_finite_axis() {
        let i = combine(
            [
                &AxisValue::NotMeasured("a".into()),
                &AxisValue::NotMeasured("b".into()),
                &AxisValue::NotMeasured("c".into()),
                &AxisValue::NotMeasured(NO_EVALS.into()),
            ],
            ["", "", "", ""],
        );
        assert_eq!(i.score, None);
        assert_eq!(i.axes_measured, 0);
    }

    // S11: security never measured → named. Ours: a crashed skill.
    #[test]
    fn s11_crashed_skill_is_not_scored() {
        let r = compute(
            &[sk("a"), sk("b")],
            &[f(ids::INTERNAL_ERROR, Some("a"))],
            None,
            None,
        );
        assert_eq!(r.skills["a"].score, None);
        assert!(
            r.skills["a"]
                .explanation
                .contains("security (analysis failed")
        );
        assert_eq!(r.skills["b"].score, Some(100.0));
        assert_eq!(r.scan.score, Some(100.0));
        assert!(
            r.scan
                .explanation
                .contains("1 skill(s) could not be analysed")
        );
        assert!(r.fails_under(50.0), "an unscored skill fails the gate");
        assert_eq!(r.below(50.0), ["a"]);
    }

    // AgentEval's defect: informational findings penalised. Ours: excluded.
    #[test]
    fn info_findings_do_not_count() {
        let r = compute(
            &[sk("a")],
            &[f(ids::MATCHES_PREVIOUSLY_VETTED_COPY, Some("a"))],
            None,
            None,
        );
        assert_eq!(r.skills["a"].score, Some(100.0));
    }

    // AgentEval's defect: not normalised per skill. Ours: each skill on its own
    // findings; the scan takes the median of each axis and names the worst skill.
    #[test]
    fn normalised_per_skill() {
        let fs = [
            f(ids::NAME_MISSING, Some("a")),
            f(ids::NAME_MISSING, Some("a")),
            f(ids::NAME_MISSING, Some("a")),
            sec(Severity::High, "b"),
        ];
        let r = compute(&[sk("a"), sk("b"), sk("c"), sk("d")], &fs, None, None);
        // 3 × 40 saturates at 2 × 40 for the rule, and compliance costs at most 40.
        assert_eq!(r.skills["a"].axes.compliance, Some(60.0));
        assert_eq!(r.skills["a"].score, Some(80.0));
        assert_eq!(r.skills["b"].axes.security, Some(50.0));
        assert_eq!(r.skills["b"].score, Some(50.0));
        assert_eq!(r.skills["c"].score, Some(100.0));
        assert_eq!(r.scan.axes.compliance, Some(100.0));
        assert_eq!(r.scan.axes.security, Some(100.0));
        assert_eq!(r.scan.score, Some(100.0));
        let w = r.worst.as_ref().unwrap();
        assert_eq!((w.path.as_str(), w.score, w.grade), ("b", 50.0, "F"));
        for want in [
            "compliance 100 [median of 4 skills]",
            "security 100 [median of 4 skills]",
            "worst: b 50/100 (F)",
        ] {
            assert!(r.scan.explanation.contains(want), "{}", r.scan.explanation);
        }
        // The gate: the median passes 70, but an F skill below 70 fails it.
        assert_eq!(r.below(70.0), ["b"]);
        assert!(r.fails_under(70.0));
        assert!(r.below(40.0).is_empty());
        assert!(!r.fails_under(40.0));
    }

    #[test]
    fn deductions_saturate_per_rule_and_category() {
        // 13 + 6 lows of two rules in one category: 2 × 5 each, 3 × 5 for the category.
        let mut fs = Vec::new();
        for _ in 0..13 {
            fs.push(sec(Severity::Low, "a"));
        }
        let r = compute(&[sk("a")], &fs, None, None);
        assert_eq!(r.skills["a"].axes.security, Some(90.0));
        // Lows of many categories together cost at most 30: never below a C.
        let mut fs = Vec::new();
        for cat in [
            "security/a",
            "security/b",
            "security/c",
            "security/d",
            "security/e",
        ] {
            for _ in 0..10 {
                let mut x = sec(Severity::Low, "a");
                x.category = cat;
                fs.push(x);
            }
        }
        for _ in 0..30 {
            let mut x = f(ids::BODY_TOO_LONG, Some("a"));
            x.severity = Severity::Low;
            fs.push(x);
        }
        let r = compute(&[sk("a")], &fs, None, None);
        assert_eq!(r.skills["a"].axes.security, Some(70.0));
        assert_eq!(r.skills["a"].axes.compliance, Some(90.0));
        assert_eq!(r.skills["a"].grade, Some("C"));
        // Mediums of one rule: at most 2 × 15.
        let fs: Vec<Finding> = (0..5).map(|_| sec(Severity::Medium, "a")).collect();
        let r = compute(&[sk("a")], &fs, None, None);
        assert_eq!(r.skills["a"].axes.security, Some(70.0));
    }

    #[test]
    fn brief_example_medium_compliance_and_high_security() {
        let fs = [
            f(ids::SCRIPT_REQUIRES_GOVERNANCE_REVIEW, Some("a")),
            sec(Severity::High, "a"),
        ];
        let r = compute(&[sk("a")], &fs, None, None);
        let i = &r.skills["a"];
        assert_eq!(i.axes.compliance, Some(85.0));
        assert_eq!(i.axes.security, Some(50.0));
        assert_eq!(i.score, Some(50.0), "never above the security axis");
        assert_eq!(i.grade, Some("F"));
        assert_eq!(
            i.explanation,
            "Composite 50/100 (F) from 2/4 axes (compliance 85, security 50); NOT measured: efficiency (no disclosure trace supplied), evals (no eval results supplied with --evals) — excluded from the mean, never assumed perfect"
        );
    }

    #[test]
    fn scan_level_findings_are_not_scored() {
        let r = compute(&[sk("a")], &[f(ids::WALK_LIMIT_REACHED, None)], None, None);
        assert_eq!(r.scan.score, Some(100.0));
        assert_eq!(r.unscored_findings, 1);
        assert!(
            r.scan
                .explanation
                .contains("1 finding(s) outside any skill")
        );
    }

    #[test]
    fn cross_location_drift_counts_for_every_copy() {
        let x = f(ids::CROSS_LOCATION_CONTENT_DRIFT, Some("a")).with_properties(
            serde_json::json!({"name": "x", "locations": [{"path": "a"}, {"path": "b"}]}),
        );
        let r = compute(&[sk("a"), sk("b"), sk("c")], &[x], None, None);
        // Copies that differ are compliance: nothing says which one was reviewed.
        assert_eq!(r.skills["a"].axes.compliance, Some(85.0));
        assert_eq!(r.skills["b"].axes.compliance, Some(85.0));
        assert_eq!(r.skills["a"].axes.security, Some(100.0));
        assert_eq!(r.skills["c"].axes.compliance, Some(100.0));
    }

    #[test]
    fn bands() {
        for (s, g) in [
            (100.0, "A"),
            (90.0, "A"),
            (89.9, "B"),
            (80.0, "B"),
            (70.0, "C"),
            (60.0, "D"),
            (59.9, "F"),
            (0.0, "F"),
        ] {
            assert_eq!(grade(s), g, "{s}");
        }
    }

    // Efficiency metric, as AgentEval defines it (docs/security-index.md).
    #[test]
    fn efficiency_progressive_disclosure_is_perfect() {
        let t = trace(
            r#"[{"tool":"load_skill","arguments":{"skillName":"expense-report"}},
                {"tool":"read_skill_resource","arguments":{"skillName":"expense-report","resourceName":"policy.md"}},
                {"tool":"run_skill_script","arguments":{"skillName":"expense-report","scriptName":"x.py"}}]"#,
        );
        let e = trace_efficiency(&t).unwrap();
        assert_eq!(e.score, 100.0);
        assert_eq!((e.load_calls, e.read_calls, e.run_calls), (1, 1, 1));
        assert_eq!(e.selection_f1, None);
    }

    #[test]
    fn efficiency_orphaned_read_and_redundant_load() {
        let t = trace(
            r#"[{"tool":"read_skill_resource","arguments":{"skillName":"a","resourceName":"r"}},
                {"tool":"load_skill","arguments":{"skillName":"a"}},
                {"tool":"LOAD_SKILL","arguments":{"skillName":"A"}},
                {"tool":"read_skill_resource","arguments":{"skillName":"a","resourceName":"r"}}]"#,
        );
        let e = trace_efficiency(&t).unwrap();
        assert_eq!(e.order_validity, 0.5);
        assert_eq!(e.load_precision, 0.5);
        assert_eq!(e.score, 25.0);
        // Per skill: one of two reads orphaned, two loads.
        assert_eq!(skill_efficiency(&t, "a"), AxisValue::Measured(25.0));
        assert!(matches!(
            skill_efficiency(&t, "b"),
            AxisValue::NotMeasured(_)
        ));
    }

    #[test]
    fn efficiency_load_storm_and_selection() {
        let t = trace(
            r#"{"calls":[{"tool":"load_skill","arguments":{"skillName":"a"}},
                         {"tool":"load_skill","arguments":{"skillName":"b"}},
                         {"tool":"load_skill","arguments":{"skillName":"c"}}],
                "expected_skills":["a","d"]}"#,
        );
        let e = trace_efficiency(&t).unwrap();
        assert!(e.load_storm);
        assert_eq!(e.load_precision, 0.7);
        // loaded {a,b,c}, expected {a,d}: p = 1/3, r = 1/2, F1 = 0.4.
        assert_eq!(e.selection_f1, Some(0.4));
        assert_eq!(e.score, 28.0);
    }

    #[test]
    fn efficiency_unknown_name_satisfied_by_any_load() {
        let t = trace(
            r#"[{"name":"load_skill","arguments":"{\"skillName\":\"a\"}"},
                {"function":{"name":"run_skill_script","arguments":"{\"script\":\"x\"}"}}]"#,
        );
        let e = trace_efficiency(&t).unwrap();
        assert_eq!(e.order_validity, 1.0);
        assert_eq!(e.score, 100.0);
    }

    #[test]
    fn efficiency_value_based_load_name() {
        let t = trace(r#"[{"tool":"load_skill","arguments":{"id":"Expense-Report"}}]"#);
        assert_eq!(t.calls[0].skill.as_deref(), Some("expense-report"));
    }

    #[test]
    fn expected_but_nothing_loaded_is_zero() {
        let t = trace(r#"{"calls":[],"expected_skills":["a"]}"#);
        assert_eq!(trace_efficiency(&t).unwrap().score, 0.0);
    }

    #[test]
    fn malformed_traces() {
        for (bad, want) in [
            ("{", "EOF"),
            ("42", "expected a JSON list"),
            (r#"{"x":1}"#, "`calls` list"),
            ("[1]", "call 1 is not an object"),
            (r#"[{"arguments":{}}]"#, "call 1 has no `tool` name"),
            (r#"[{"tool":"load_skill","arguments":"{"}]"#, "not JSON"),
            (r#"{"calls":[],"expected_skills":"a"}"#, "expected_skills"),
        ] {
            let e = parse_trace(bad.as_bytes()).unwrap_err();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }

    #[test]
    fn skill_and_scan_efficiency_in_the_index() {
        let t = trace(
            r#"[{"tool":"load_skill","arguments":{"skillName":"a"}},
                {"tool":"read_skill_resource","arguments":{"skillName":"a","resourceName":"r"}}]"#,
        );
        let r = compute(&[sk("a"), sk("b")], &[], Some(&t), None);
        assert_eq!(r.skills["a"].axes_measured, 3);
        assert_eq!(r.skills["b"].axes_measured, 2);
        assert_eq!(r.scan.axes.efficiency, Some(100.0));
        assert_eq!(r.scan.axes_measured, 3);
        assert!(r.efficiency.is_some());
    }
}
