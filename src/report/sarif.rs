//! SARIF 2.1.0 renderer: `rules[]` with help from the catalog, levels from
//! severity, GitHub's `security-severity`, 1-based regions in code points,
//! related locations and versioned `partialFingerprints`.

use std::io::{self, Write};

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::{Value, json};

use super::{RenderOptions, VERSION};
use crate::catalog::{self, RuleMeta};
use crate::finding::{FINGERPRINT_VERSION, Finding, Location, Severity};
use crate::result::ScanResult;

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

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

fn physical(l: &Location, prefix: Option<&str>) -> Value {
    let path = match prefix {
        Some(pre) if l.path.is_empty() => pre.to_owned(),
        Some(pre) => format!("{pre}/{}", l.path),
        None => l.path.clone(),
    };
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
    p
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

fn result_json(f: &Finding, prefix: Option<&str>) -> Value {
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
        "locations": [ { "physicalLocation": physical(&f.location, prefix) } ],
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
    if !related.is_empty() {
        r["relatedLocations"] = Value::Array(
            related
                .into_iter()
                .enumerate()
                .map(|(i, (loc, msg))| {
                    json!({
                        "id": i + 1,
                        "physicalLocation": physical(loc, prefix),
                        "message": { "text": msg },
                    })
                })
                .collect(),
        );
    }
    r
}

/// The results of a scan's log, each made as it is written: a `Value` tree of every result
/// at once weighs about ten times the report (docs/performance.md, "Merging and rendering").
struct Results<'a> {
    r: &'a ScanResult,
    prefix: Option<&'a str>,
    /// Provenance (skills-lock.json) of the skill each result belongs to.
    provenance: std::collections::BTreeMap<&'a str, String>,
}

impl Results<'_> {
    fn finding(&self, f: &Finding) -> Value {
        let mut v = result_json(f, self.prefix);
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
        let mut v = result_json(&s.finding, self.prefix);
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
}

impl SkillIndices<'_> {
    fn skills(&self) -> impl Iterator<Item = Value> + '_ {
        self.r.artifacts.iter().filter_map(|a| {
            let i = self.index.skills.get(&a.path)?;
            let mut v = json!({ "path": a.path, "name": a.name });
            if let (Value::Object(m), Ok(Value::Object(iv))) = (&mut v, serde_json::to_value(i)) {
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
                let n = x.r.findings.len() + x.r.suppressed.len();
                let mut seq = s.serialize_seq(Some(n))?;
                for f in &x.r.findings {
                    seq.serialize_element(&x.finding(f))?;
                }
                for f in &x.r.suppressed {
                    seq.serialize_element(&x.suppressed(f))?;
                }
                seq.end()
            }
            Lazy::SkillIndices(x) => {
                // The length as the tree gave it: the scored skills.
                let n =
                    x.r.artifacts
                        .iter()
                        .filter(|a| x.index.skills.contains_key(&a.path))
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
    let index = opts.index_for(r);
    let rules: Vec<Value> = catalog::all().iter().map(rule_json).collect();
    let results = Results {
        r,
        prefix: opts.repo_prefix.as_deref(),
        provenance: r
            .artifacts
            .iter()
            .filter_map(|a| a.provenance.as_ref().map(|p| (a.path.as_str(), p.label())))
            .collect(),
    };
    let skill_indices = SkillIndices { r, index: &index };
    let root = match &opts.repo_prefix {
        Some(p) => format!("The root of the repository holding the scanned folder `{p}`."),
        None => "The scanned root (the repository root when a repository holds it).".to_owned(),
    };
    // Placeholders (`null`) where the results and the skills' indices go.
    let doc = log(
        rules,
        Value::Null,
        &root,
        json!({
            "mode": r.mode.as_str(),
            "skills": r.artifacts.len(),
            "silentlyExcluded": r.coverage.silently_excluded_count,
            "securityIndex": index.scan_dto(),
            "skillIndices": Value::Null,
        }),
    );
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
    let results: Vec<Value> = findings.iter().map(|f| result_json(f, None)).collect();
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
