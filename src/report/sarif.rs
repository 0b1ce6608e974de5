//! SARIF 2.1.0 renderer: `rules[]` with help from the catalog, levels from
//! severity, GitHub's `security-severity`, 1-based regions in code points,
//! related locations and versioned `partialFingerprints`.

use std::io::{self, Write};

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

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let index = opts.index_for(r);
    let skill_indices: Vec<Value> = r
        .artifacts
        .iter()
        .filter_map(|a| {
            let i = index.skills.get(&a.path)?;
            let mut v = json!({ "path": a.path, "name": a.name });
            if let (Value::Object(m), Ok(Value::Object(iv))) = (&mut v, serde_json::to_value(i)) {
                m.extend(iv);
            }
            Some(v)
        })
        .collect();
    let rules: Vec<Value> = catalog::all().iter().map(rule_json).collect();
    // Provenance (skills-lock.json) of the skill each result belongs to.
    let provenance: std::collections::BTreeMap<&str, String> = r
        .artifacts
        .iter()
        .filter_map(|a| a.provenance.as_ref().map(|p| (a.path.as_str(), p.label())))
        .collect();
    let results: Vec<Value> = r
        .findings
        .iter()
        .map(|f| {
            let mut v = result_json(f, opts.repo_prefix.as_deref());
            if let Some(p) = f.skill_path.as_deref().and_then(|sp| provenance.get(sp)) {
                v["properties"]["provenance"] = json!(p);
            }
            v
        })
        .chain(r.suppressed.iter().map(|s| {
            // SARIF keeps suppressed results, marked: code scanning shows them as dismissed.
            let mut v = result_json(&s.finding, opts.repo_prefix.as_deref());
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
        }))
        .collect();
    let root = match &opts.repo_prefix {
        Some(p) => format!("The root of the repository holding the scanned folder `{p}`."),
        None => "The scanned root (the repository root when a repository holds it).".to_owned(),
    };
    let doc = log(
        rules,
        results,
        &root,
        json!({
            "mode": r.mode.as_str(),
            "skills": r.artifacts.len(),
            "silentlyExcluded": r.coverage.silently_excluded_count,
            "securityIndex": index.scan_dto(),
            "skillIndices": skill_indices,
        }),
    );
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
fn log(rules: Vec<Value>, results: Vec<Value>, root: &str, properties: Value) -> Value {
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
