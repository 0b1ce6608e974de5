//! JSON renderer: fills the report's document model ([`super::model`], a versioned
//! document, `"version": 1`, never the internal structs) from the [`ScanResult`] — borrowing
//! every text — and writes it pretty-printed, with enums as strings and a deterministic
//! order.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};

use super::model::{self, Report};
use super::{RenderOptions, VERSION};
use crate::catalog;
use crate::finding::{Finding, SeverityCounts};
use crate::inventory::Artifact;
use crate::result::ScanResult;

/// Skills or agent files with their loader verdicts and index.
fn entries<'a>(
    items: &'a [Artifact],
    index: &'a BTreeMap<String, crate::index::Index>,
) -> Vec<model::Entry<'a>> {
    items
        .iter()
        .map(|a| model::Entry {
            artifact: Cow::Borrowed(a),
            loaders: a
                .loaders
                .iter()
                .map(|v| model::Loader {
                    profile: v.profile,
                    status: v.status,
                    cause: v.cause.as_deref().map(Cow::Borrowed),
                    exposes: v.exposes.as_ref().map(Cow::Borrowed),
                })
                .collect(),
            format: a.format.as_deref().map(Cow::Borrowed),
            index: index.get(&a.path),
        })
        .collect()
}

/// The AgentEval name of a rule.
fn alias(rule: &str) -> Option<Cow<'static, str>> {
    catalog::get(rule)
        .and_then(|m| m.agenteval)
        .map(Cow::Borrowed)
}

fn finding(f: &Finding) -> model::Finding<'_> {
    model::Finding {
        rule_id: f.rule_id,
        agenteval_alias: alias(f.rule_id),
        category: Cow::Borrowed(f.category),
        severity: f.severity,
        confidence: f.confidence,
        confidence_reason: f.confidence_reason.as_deref().map(Cow::Borrowed),
        message: Cow::Borrowed(&f.message),
        location: Cow::Borrowed(&f.location),
        related: Cow::Borrowed(&f.related),
        consequences: f
            .consequences
            .iter()
            .map(|c| model::Consequence {
                rule_id: c.rule_id,
                agenteval_alias: alias(c.rule_id),
                severity: c.severity,
                profile: c.profile.as_deref().map(Cow::Borrowed),
                message: Cow::Borrowed(&c.message),
                location: Cow::Borrowed(&c.location),
                fingerprint: Cow::Borrowed(&c.fingerprint),
            })
            .collect(),
        skill: f.skill.as_deref().map(Cow::Borrowed),
        skill_path: f.skill_path.as_deref().map(Cow::Borrowed),
        fingerprint: Cow::Borrowed(&f.fingerprint),
        properties: f.properties.as_ref().map(Cow::Borrowed),
    }
}

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let index = opts.index_for(r);
    let by_rule = super::summary::by_rule(&r.findings);
    let doc = Report {
        version: model::JSON_VERSION,
        tool: model::Tool {
            name: Cow::Borrowed(model::TOOL_NAME),
            version: Cow::Borrowed(VERSION),
        },
        mode: Cow::Borrowed(r.mode.as_str()),
        target: Cow::Borrowed(&r.target),
        shard: r.shard.map(|(k, n)| model::Shard { k, n }),
        run: r.run.as_ref().map(Cow::Borrowed),
        fail_on: opts.fail_on,
        fail_under_index: index.fail_under,
        index: Some(index.scan_dto()),
        summary: model::Summary {
            findings: r.findings.len(),
            counts: r.counts(),
            skills: r.artifacts.len(),
            files: r.files_scanned,
            bytes: r.bytes_scanned,
            hidden_entries_skipped: r.hidden_skipped,
            artefacts: r.agents.iter().fold(BTreeMap::new(), |mut m, a| {
                *m.entry(Cow::Borrowed(a.kind.as_str())).or_insert(0) += 1;
                m
            }),
            artefacts_by_harness: r.agents.iter().flat_map(|a| &a.loaders).fold(
                BTreeMap::new(),
                |mut m, v| {
                    *m.entry(Cow::Borrowed(v.profile))
                        .or_insert_with(BTreeMap::new)
                        .entry(v.status)
                        .or_insert(0) += 1;
                    m
                },
            ),
            suppressed: r.suppressed.len(),
            by_category: super::summary::by_category(&by_rule),
            by_rule,
        },
        coverage: Cow::Borrowed(&r.coverage),
        repositories: Cow::Borrowed(&r.repos),
        across_repositories: (r.mode == crate::discover::Mode::Workspace).then(|| {
            let counts = SeverityCounts::from_findings(r.cross_repo());
            model::Across {
                findings: counts.total(),
                counts,
            }
        }),
        skills: entries(&r.artifacts, &index.skills),
        agents: entries(&r.agents, &index.agents),
        evals: Cow::Borrowed(&r.evals),
        findings: r.findings.iter().map(finding).collect(),
        suppressed: r
            .suppressed
            .iter()
            .map(|s| model::Suppressed {
                finding: finding(&s.finding),
                suppression: model::Suppression {
                    kind: s.kind,
                    reason: Cow::Borrowed(&s.reason),
                },
            })
            .collect(),
        signature: None,
    };
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
    writeln!(out)
}
