//! SARIF 2.1.0 renderer: `rules[]` with help from the catalog, levels from
//! severity, GitHub's `security-severity`, 1-based regions in code points,
//! related locations and versioned `partialFingerprints`.
//!
//! Every log stays within GitHub code scanning's limits (docs/output-formats.md, "SARIF
//! limits"): at most [`MAX_RESULTS`] results per run by default, the most severe kept
//! (the cut is counted in the run's `properties`), at most [`MAX_GZIP_BYTES`] gzipped
//! ([`fit`]), and at most [`MAX_LOCATIONS_PER_RESULT`] related locations per result. A log
//! can also cover one repository of a workspace ([`Scope::repo`]): its results only, with
//! paths relative to that repository's root and a category of its own.

use std::io::{self, Write};

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Value, json};

use super::{RenderOptions, VERSION};
use crate::catalog::{self, RuleMeta};
use crate::finding::{FINGERPRINT_VERSION, Finding, Location, Severity, SeverityCounts};
use crate::result::ScanResult;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// GitHub code scanning: results per run it accepts.
pub const MAX_RESULTS: usize = 25_000;
/// GitHub code scanning: the largest gzipped SARIF file it accepts (10 MB).
pub const MAX_GZIP_BYTES: u64 = 10_000_000;
/// What a log is fitted to: [`MAX_GZIP_BYTES`] less a 5 % margin, since GitHub's deflate
/// and ours need not compress to the same byte.
pub const FIT_GZIP_BYTES: u64 = MAX_GZIP_BYTES / 20 * 19;
/// GitHub code scanning: locations (and related locations) per result.
pub const MAX_LOCATIONS_PER_RESULT: usize = 1_000;
/// GitHub code scanning: rules per run.
pub const MAX_RULES_PER_RUN: usize = 25_000;
/// GitHub code scanning: tags per rule.
pub const MAX_TAGS_PER_RULE: usize = 20;

/// What a SARIF log covers and how many results it keeps.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// One repository of a workspace: only its results, paths relative to its root.
    pub repo: Option<RepoScope>,
    /// Keep at most this many results, the most severe first; `None`: all.
    pub max_results: Option<usize>,
    /// Keep at most this many skills in `properties.skillIndices`, the lowest scores first
    /// (set when the log is fitted to [`MAX_GZIP_BYTES`]); `None`: all.
    pub max_skill_indices: Option<usize>,
}

/// A repository of a workspace, as its SARIF log names it.
#[derive(Debug, Clone)]
pub struct RepoScope {
    /// The repository's name (its folder's name, escaped), for the category.
    pub name: String,
    /// Its path in the workspace, as findings' paths start (`name`).
    pub path: String,
}

impl RepoScope {
    /// `path` relative to this repository, `None` when it lies outside.
    fn strip<'p>(&self, path: &'p str) -> Option<&'p str> {
        if path == self.path {
            return Some("");
        }
        path.strip_prefix(self.path.as_str())?.strip_prefix('/')
    }

    /// The category of the repository's log (`runs[].automationDetails.id`).
    pub fn category(&self) -> String {
        format!("skillguard/{}/", self.name)
    }
}

/// The results a log keeps: indices into the scan's findings and suppressed findings, in
/// their order, and the severities of those left out.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    findings: Vec<usize>,
    suppressed: Vec<usize>,
    /// Results in scope left out by the cap, per severity.
    pub omitted: SeverityCounts,
}

impl Selection {
    /// Results kept.
    pub fn kept(&self) -> usize {
        self.findings.len() + self.suppressed.len()
    }
}

/// The results of `r` in `scope`: all of them, or past the cap the most severe first
/// (findings before suppressed ones, then by severity, then in the report's order, so the
/// choice is deterministic), written in the report's order.
pub fn select(r: &ScanResult, scope: &Scope) -> Selection {
    let inside = |f: &Finding| match &scope.repo {
        Some(repo) => repo.strip(&f.location.path).is_some(),
        None => true,
    };
    // (suppressed?, index)
    let mut all: Vec<(bool, usize, Severity)> = r
        .findings
        .iter()
        .enumerate()
        .filter(|(_, f)| inside(f))
        .map(|(i, f)| (false, i, f.severity))
        .chain(
            r.suppressed
                .iter()
                .enumerate()
                .filter(|(_, s)| inside(&s.finding))
                .map(|(i, s)| (true, i, s.finding.severity)),
        )
        .collect();
    let mut omitted = SeverityCounts::default();
    if let Some(cap) = scope.max_results
        && all.len() > cap
    {
        all.sort_by_key(|&(sup, i, sev)| (sup, std::cmp::Reverse(sev), i));
        for &(_, _, sev) in &all[cap..] {
            omitted.add(sev);
        }
        all.truncate(cap);
    }
    let mut sel = Selection {
        omitted,
        ..Selection::default()
    };
    for (sup, i, _) in all {
        if sup {
            sel.suppressed.push(i);
        } else {
            sel.findings.push(i);
        }
    }
    sel.findings.sort_unstable();
    sel.suppressed.sort_unstable();
    sel
}

/// How a log's paths relate to the findings' paths.
#[derive(Clone, Copy)]
enum Paths<'a> {
    /// As they are.
    Same,
    /// Under this folder of the repository (`scan skills/pdf` in a checkout).
    Prepend(&'a str),
    /// Relative to this repository of the workspace; other repositories' paths are left out.
    Strip(&'a RepoScope),
}

impl Paths<'_> {
    /// The log's path for a finding's `path`; `None` when it lies outside the log's repository.
    fn map(&self, path: &str) -> Option<String> {
        match self {
            Paths::Same => Some(path.to_owned()),
            Paths::Prepend(pre) if path.is_empty() => Some((*pre).to_owned()),
            Paths::Prepend(pre) => Some(format!("{pre}/{path}")),
            Paths::Strip(repo) => repo.strip(path).map(str::to_owned),
        }
    }
}

/// SARIF `level` for a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Info => "note",
        Severity::Low => "note",
        Severity::Medium => "warning",
        Severity::High | Severity::Critical => "error",
    }
}

/// GitHub code scanning's numeric `security-severity` (≥9 critical, 7-8.9 high, 4-6.9 medium, <4 low).
pub fn security_severity(s: Severity) -> &'static str {
    match s {
        Severity::Info => "0.0",
        Severity::Low => "2.0",
        Severity::Medium => "5.0",
        Severity::High => "7.5",
        Severity::Critical => "9.5",
    }
}

fn precision(m: &RuleMeta) -> &'static str {
    match m.confidence {
        crate::finding::Confidence::High => "high",
        crate::finding::Confidence::Medium => "medium",
        crate::finding::Confidence::Low => "low",
    }
}

fn rule_json(m: &RuleMeta) -> Value {
    let mut tags = vec![json!(m.category)];
    if m.category.starts_with("security/") {
        tags.push(json!("security"));
    }
    let mut props = json!({
        "category": m.category,
        "precision": precision(m),
        "problem.severity": level(m.severity),
        "security-severity": security_severity(m.severity),
        "severity": m.severity.as_str(),
        "tags": tags,
    });
    if let Some(a) = m.agenteval {
        props["agentevalAlias"] = json!(a);
    }
    json!({
        "id": m.id,
        "name": m.id,
        "shortDescription": { "text": m.title },
        "fullDescription": { "text": m.fix },
        "help": {
            "text": format!("{}\n\nFix: {}", m.title, m.fix),
            "markdown": format!("**{}**\n\n**Fix:** {}\n\n{}", m.title, m.fix, m.docs),
        },
        "defaultConfiguration": { "level": level(m.severity) },
        "properties": props,
    })
}

/// A physical location; `None` when it lies outside the log's repository.
fn physical(l: &Location, paths: Paths<'_>) -> Option<Value> {
    let path = paths.map(&l.path)?;
    let mut p = json!({
        "artifactLocation": { "uri": uri(&path), "uriBaseId": "SRCROOT" },
    });
    if let Some(line) = l.line {
        let mut region = json!({ "startLine": line });
        if let Some(col) = l.column {
            region["startColumn"] = json!(col);
        }
        p["region"] = region;
    }
    Some(p)
}

/// Percent-encodes characters that are not allowed in a relative URI reference.
fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'.'
            | b'_'
            | b'~'
            | b'/'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
            | b'@' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    if out.is_empty() { ".".into() } else { out }
}

fn result_json(f: &Finding, paths: Paths<'_>) -> Value {
    let mut props = json!({
        "category": f.category,
        "severity": f.severity.as_str(),
        "confidence": f.confidence.as_str(),
    });
    if let Some(r) = &f.confidence_reason {
        props["confidenceReason"] = json!(r);
    }
    if let Some(s) = &f.skill {
        props["skill"] = json!(s);
    }
    if let Some(s) = &f.skill_path {
        props["skillPath"] = json!(s);
    }
    if let Some(a) = catalog::get(f.rule_id).and_then(|m| m.agenteval) {
        props["agentevalAlias"] = json!(a);
    }
    if !f.consequences.is_empty() {
        props["consequences"] = Value::Array(
            f.consequences
                .iter()
                .map(|c| {
                    let mut v = json!({
                        "ruleId": c.rule_id,
                        "severity": c.severity.as_str(),
                        "message": c.message,
                        "fingerprint": c.fingerprint,
                    });
                    if let Some(p) = &c.profile {
                        v["profile"] = json!(p);
                    }
                    v
                })
                .collect(),
        );
    }
    if let Some(Value::Object(extra)) = &f.properties {
        for (k, v) in extra {
            props[k.as_str()] = v.clone();
        }
    }
    let mut r = json!({
        "ruleId": f.rule_id,
        "level": level(f.severity),
        "message": { "text": f.message },
        "locations": [ { "physicalLocation": physical(&f.location, paths).unwrap_or_else(|| json!({})) } ],
        "partialFingerprints": { FINGERPRINT_VERSION: f.fingerprint },
        "properties": props,
    });
    if let Some(i) = catalog::index_of(f.rule_id) {
        r["ruleIndex"] = json!(i);
    }
    // Related locations: the finding's own, then one per consequence (its rule and
    // harness named in the message).
    let related: Vec<(&Location, String)> = f
        .related
        .iter()
        .map(|rel| (&rel.location, rel.message.clone()))
        .chain(f.consequences.iter().map(|c| {
            let who = c
                .profile
                .as_deref()
                .map(|p| format!(" ({p})"))
                .unwrap_or_default();
            (
                &c.location,
                format!("consequence: {}{who}: {}", c.rule_id, c.message),
            )
        }))
        .collect();
    // In a repository's log, the locations in other repositories are left out (their paths
    // mean nothing there) and counted; past GitHub's limit per result, the rest too.
    let total = related.len();
    let mut outside = 0usize;
    let kept: Vec<Value> = related
        .into_iter()
        .filter_map(|(loc, msg)| {
            let p = physical(loc, paths);
            if p.is_none() {
                outside += 1;
            }
            Some((p?, msg))
        })
        .take(MAX_LOCATIONS_PER_RESULT)
        .enumerate()
        .map(|(i, (p, msg))| {
            json!({
                "id": i + 1,
                "physicalLocation": p,
                "message": { "text": msg },
            })
        })
        .collect();
    if outside > 0 {
        r["properties"]["relatedInOtherRepositories"] = json!(outside);
    }
    let cut = total - outside - kept.len();
    if cut > 0 {
        r["properties"]["relatedLocationsOmitted"] = json!(cut);
    }
    if !kept.is_empty() {
        r["relatedLocations"] = Value::Array(kept);
    }
    r
}

/// The results of a scan's log, each made as it is written: a `Value` tree of every result
/// at once weighs about ten times the report (docs/performance.md, "Merging and rendering").
struct Results<'a> {
    r: &'a ScanResult,
    paths: Paths<'a>,
    sel: &'a Selection,
    /// Provenance (skills-lock.json) of the skill each result belongs to.
    provenance: std::collections::BTreeMap<&'a str, String>,
}

impl Results<'_> {
    fn finding(&self, f: &Finding) -> Value {
        let mut v = result_json(f, self.paths);
        if let Some(p) = f
            .skill_path
            .as_deref()
            .and_then(|sp| self.provenance.get(sp))
        {
            v["properties"]["provenance"] = json!(p);
        }
        v
    }

    /// SARIF keeps suppressed results, marked: code scanning shows them as dismissed.
    fn suppressed(&self, s: &crate::result::Suppressed) -> Value {
        let mut v = result_json(&s.finding, self.paths);
        let kind = match s.kind {
            crate::result::SuppressionKind::Inline => "inSource",
            _ => "external",
        };
        v["suppressions"] = json!([{
            "kind": kind,
            "status": "accepted",
            "justification": s.reason,
            "properties": { "skillguardKind": s.kind.as_str() },
        }]);
        v
    }
}

/// The per-skill index objects of a scan's log, each made as it is written.
struct SkillIndices<'a> {
    r: &'a ScanResult,
    index: &'a crate::index::Report,
    paths: Paths<'a>,
    /// The artefacts listed (indices into `r.artifacts`), in the report's order: all, or
    /// past [`Scope::max_skill_indices`] the lowest scores.
    keep: Vec<usize>,
}

impl<'a> SkillIndices<'a> {
    fn new(
        r: &'a ScanResult,
        index: &'a crate::index::Report,
        paths: Paths<'a>,
        limit: Option<usize>,
    ) -> SkillIndices<'a> {
        let mut keep: Vec<usize> = (0..r.artifacts.len())
            .filter(|&i| index.skills.contains_key(&r.artifacts[i].path))
            .collect();
        if let Some(n) = limit.filter(|&n| n < keep.len()) {
            let score = |i: usize| {
                index.skills[&r.artifacts[i].path]
                    .score
                    .unwrap_or(f64::INFINITY)
            };
            keep.sort_by(|&a, &b| score(a).total_cmp(&score(b)).then(a.cmp(&b)));
            keep.truncate(n);
            keep.sort_unstable();
        }
        SkillIndices {
            r,
            index,
            paths,
            keep,
        }
    }

    /// Skills with an index left out by the cap.
    fn omitted(&self) -> usize {
        self.r
            .artifacts
            .iter()
            .filter(|a| self.index.skills.contains_key(&a.path))
            .count()
            - self.keep.len()
    }

    fn skills(&self) -> impl Iterator<Item = Value> + '_ {
        self.keep
            .iter()
            .map(|&i| &self.r.artifacts[i])
            .filter_map(|a| {
                let i = self.index.skills.get(&a.path)?;
                // The index's own paths (relative to the scanned root), only cut to the
                // repository in a repository's log.
                let path = match self.paths {
                    Paths::Strip(repo) => repo.strip(&a.path)?.to_owned(),
                    _ => a.path.clone(),
                };
                let mut v = json!({ "path": path, "name": a.name });
                if let (Value::Object(m), Ok(Value::Object(iv))) = (&mut v, serde_json::to_value(i))
                {
                    m.extend(iv);
                }
                Some(v)
            })
    }
}

/// What a log's placeholder stands for, written in its place ([`Spliced`]).
enum Lazy<'a> {
    Results(&'a Results<'a>),
    SkillIndices(&'a SkillIndices<'a>),
}

impl Serialize for Lazy<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Lazy::Results(x) => {
                let mut seq = s.serialize_seq(Some(x.sel.kept()))?;
                for &i in &x.sel.findings {
                    seq.serialize_element(&x.finding(&x.r.findings[i]))?;
                }
                for &i in &x.sel.suppressed {
                    seq.serialize_element(&x.suppressed(&x.r.suppressed[i]))?;
                }
                seq.end()
            }
            Lazy::SkillIndices(x) => {
                // The length as the tree gave it: the scored skills.
                let n =
                    x.r.artifacts
                        .iter()
                        .filter(|a| {
                            x.index.skills.contains_key(&a.path) && x.paths.map(&a.path).is_some()
                        })
                        .count();
                let mut seq = s.serialize_seq(Some(n))?;
                for v in x.skills() {
                    seq.serialize_element(&v)?;
                }
                seq.end()
            }
        }
    }
}

/// One step of a path into a `Value`: an object's key or an array's index.
#[derive(Clone, Copy)]
enum Step {
    Key(&'static str),
    Index(usize),
}

/// `value` written as `serde_json` writes a `Value` (the same serializer calls, so the same
/// bytes), except the placeholders at the paths of `holes`, written from their [`Lazy`].
struct Spliced<'a> {
    value: &'a Value,
    holes: Vec<(&'a [Step], &'a Lazy<'a>)>,
}

impl<'a> Spliced<'a> {
    /// `v`, one step (`step`) below this value, with the holes that go through that step.
    fn child(&self, v: &'a Value, step: impl Fn(Step) -> bool) -> Spliced<'a> {
        Spliced {
            value: v,
            holes: self
                .holes
                .iter()
                .filter_map(|(path, lazy)| match path.split_first() {
                    Some((first, rest)) if step(*first) => Some((rest, *lazy)),
                    _ => None,
                })
                .collect(),
        }
    }
}

impl Serialize for Spliced<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some((_, lazy)) = self.holes.iter().find(|(path, _)| path.is_empty()) {
            return lazy.serialize(s);
        }
        match self.value {
            Value::Object(m) if !self.holes.is_empty() => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    let c = self.child(v, |st| matches!(st, Step::Key(x) if x == k));
                    map.serialize_entry(k, &c)?;
                }
                map.end()
            }
            Value::Array(a) if !self.holes.is_empty() => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for (i, v) in a.iter().enumerate() {
                    let c = self.child(v, |st| matches!(st, Step::Index(x) if x == i));
                    seq.serialize_element(&c)?;
                }
                seq.end()
            }
            other => other.serialize(s),
        }
    }
}

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let sel = select(r, &opts.sarif);
    render_selected(r, opts, &sel, out)
}

/// The cap that keeps `r`'s log in `opts.sarif` within [`MAX_GZIP_BYTES`] gzipped: the
/// scope's own when the log fits (or has no cap), otherwise a lower one found by
/// compressing the log (at most a few tries, each cutting in proportion to the excess).
pub fn fit(r: &ScanResult, opts: &RenderOptions) -> io::Result<Scope> {
    fit_within(r, opts, FIT_GZIP_BYTES)
}

/// [`fit`] to `limit` gzipped bytes.
pub fn fit_within(r: &ScanResult, opts: &RenderOptions, limit: u64) -> io::Result<Scope> {
    let mut opts = opts.clone();
    if opts.sarif.max_results.is_none() {
        return Ok(opts.sarif);
    }
    for _ in 0..16 {
        let sel = select(r, &opts.sarif);
        let size = gzipped_size(r, &opts, &sel)?;
        if !shrink(r, &mut opts, &sel, size, limit) {
            break;
        }
    }
    Ok(opts.sarif)
}

/// After a try of `size` gzipped bytes: `false` when it fits (or nothing is left to cut);
/// otherwise lowers the result cap and the skill-index cap in proportion to the excess and
/// returns `true`.
fn shrink(
    r: &ScanResult,
    opts: &mut RenderOptions,
    sel: &Selection,
    size: u64,
    limit: u64,
) -> bool {
    let skills = opts
        .sarif
        .max_skill_indices
        .unwrap_or(r.artifacts.len())
        .min(r.artifacts.len());
    if size <= limit || (sel.kept() == 0 && skills == 0) {
        return false;
    }
    let scale = |n: usize| (n as u128 * u128::from(limit) * 9 / 10 / u128::from(size)) as usize;
    opts.sarif.max_results = Some(scale(sel.kept()).min(sel.kept().saturating_sub(1)));
    opts.sarif.max_skill_indices = Some(scale(skills).min(skills.saturating_sub(1)));
    true
}

/// Writes `r`'s log in `opts.sarif` through `write` (which calls the filler it is given once,
/// into a file that replaces the previous try), checking its gzipped size on the way; past
/// [`MAX_GZIP_BYTES`], writes it again with a lower cap (a few tries at most, each cutting in
/// proportion to the excess). Without a cap, writes once, unchecked. Returns the selection
/// written and the cap it was made with.
pub fn write_fitting(
    r: &ScanResult,
    opts: &RenderOptions,
    mut write: impl FnMut(&mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> io::Result<()>,
) -> io::Result<(Selection, Option<usize>)> {
    let mut opts = opts.clone();
    let mut tries = 0;
    loop {
        let sel = select(r, &opts.sarif);
        let Some(cap) = opts.sarif.max_results else {
            write(&mut |w| render_selected(r, &opts, &sel, w))?;
            return Ok((sel, None));
        };
        let mut size = 0;
        write(&mut |w| {
            let mut tee = Tee {
                out: w,
                gz: flate2::write::GzEncoder::new(Counter(0), flate2::Compression::default()),
            };
            render_selected(r, &opts, &sel, &mut tee)?;
            size = tee.gz.finish()?.0;
            Ok(())
        })?;
        tries += 1;
        if tries >= 16 || !shrink(r, &mut opts, &sel, size, FIT_GZIP_BYTES) {
            return Ok((sel, Some(cap)));
        }
    }
}

/// Writes to `out` and to a gzip stream that measures it.
struct Tee<'a> {
    out: &'a mut dyn Write,
    gz: flate2::write::GzEncoder<Counter>,
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write_all(buf)?;
        self.gz.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The size of the log gzipped (default level, as `gzip` writes it).
pub fn gzipped_size(r: &ScanResult, opts: &RenderOptions, sel: &Selection) -> io::Result<u64> {
    let mut gz = flate2::write::GzEncoder::new(Counter(0), flate2::Compression::default());
    render_selected(r, opts, sel, &mut gz)?;
    Ok(gz.finish()?.0)
}

/// A sink that counts the bytes written to it.
struct Counter(u64);

impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The log of `r` with the results of `sel`.
pub fn render_selected(
    r: &ScanResult,
    opts: &RenderOptions,
    sel: &Selection,
    out: &mut dyn Write,
) -> io::Result<()> {
    let index = opts.index_for(r);
    let rules: Vec<Value> = catalog::all().iter().map(rule_json).collect();
    let paths = match (&opts.sarif.repo, &opts.repo_prefix) {
        (Some(repo), _) => Paths::Strip(repo),
        (None, Some(pre)) => Paths::Prepend(pre),
        (None, None) => Paths::Same,
    };
    let results = Results {
        r,
        paths,
        sel,
        provenance: r
            .artifacts
            .iter()
            .filter_map(|a| a.provenance.as_ref().map(|p| (a.path.as_str(), p.label())))
            .collect(),
    };
    let skill_indices = SkillIndices::new(r, &index, paths, opts.sarif.max_skill_indices);
    let root = match (&opts.sarif.repo, &opts.repo_prefix) {
        (Some(repo), _) => format!("The root of the repository `{}`.", repo.name),
        (None, Some(p)) => format!("The root of the repository holding the scanned folder `{p}`."),
        (None, None) => {
            "The scanned root (the repository root when a repository holds it).".to_owned()
        }
    };
    let mut properties = json!({
        "mode": r.mode.as_str(),
        "skills": r.artifacts.iter().filter(|a| paths.map(&a.path).is_some()).count(),
        "silentlyExcluded": r.coverage.silently_excluded_count,
        "securityIndex": index.scan_dto(),
        "skillIndices": Value::Null,
    });
    let skills_omitted = skill_indices.omitted();
    if skills_omitted > 0 {
        properties["skillguard/skillIndicesOmitted"] = json!(skills_omitted);
    }
    let omitted = sel.omitted.total();
    if omitted > 0 {
        properties["skillguard/omitted"] = json!({
            "total": omitted,
            "by_severity": sel.omitted,
        });
    }
    if let Some(repo) = &opts.sarif.repo {
        properties["repository"] = json!(repo.name);
    }
    // Placeholders (`null`) where the results and the skills' indices go.
    let mut doc = log(rules, Value::Null, &root, properties);
    if let Some(repo) = &opts.sarif.repo {
        doc["runs"][0]["automationDetails"] = json!({ "id": repo.category() });
    }
    let run = Step::Index(0);
    let holes = [
        (
            &[Step::Key("runs"), run, Step::Key("results")][..],
            Lazy::Results(&results),
        ),
        (
            &[
                Step::Key("runs"),
                run,
                Step::Key("properties"),
                Step::Key("skillIndices"),
            ][..],
            Lazy::SkillIndices(&skill_indices),
        ),
    ];
    let doc = Spliced {
        value: &doc,
        holes: holes.iter().map(|(path, lazy)| (*path, lazy)).collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
    writeln!(out)
}

/// A SARIF log of `findings` alone (for commands that report something other than a scan,
/// such as `skillguard coverage`): the rules they use, their results, and `properties` on
/// the run. Paths are relative to the scanned root.
pub fn render_findings(
    findings: &[Finding],
    properties: Value,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut ids: Vec<&str> = findings.iter().map(|f| f.rule_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let rules: Vec<Value> = ids
        .iter()
        .filter_map(|id| catalog::get(id))
        .map(rule_json)
        .collect();
    let results: Vec<Value> = findings
        .iter()
        .map(|f| result_json(f, Paths::Same))
        .collect();
    let doc = log(rules, results, "The scanned root.", properties);
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
    writeln!(out)
}

/// A SARIF 2.1.0 log of one skillguard run: its rules, results, the meaning of `SRCROOT` and
/// the run's properties.
fn log(rules: Vec<Value>, results: impl Into<Value>, root: &str, properties: Value) -> Value {
    let results: Value = results.into();
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [ {
            "tool": { "driver": {
                "name": "skillguard",
                "version": VERSION,
                "semanticVersion": VERSION,
                "rules": rules,
            } },
            "originalUriBaseIds": { "SRCROOT": { "description": { "text": root } } },
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": properties,
        } ],
    })
}
