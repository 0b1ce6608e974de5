//! JSON renderer: a versioned document (`"version": 1`) of frozen DTOs — never
//! the internal structs — with enums as strings and a deterministic order.

use std::io::{self, Write};

use serde::Serialize;

use super::{RenderOptions, VERSION};
use crate::catalog;
use crate::finding::{Finding, Location, SeverityCounts};
use crate::inventory::{Artifact, LoadStatus};
use crate::result::{Coverage, RepoSummary, ScanResult};

/// Current JSON format version.
pub const JSON_VERSION: u32 = 1;

#[derive(Serialize)]
struct Doc<'a> {
    version: u32,
    tool: Tool,
    mode: &'static str,
    target: &'a str,
    /// `scan-workspace --shard K/N`: which shard this report is.
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<ShardDto>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fail_on: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fail_under_index: Option<f64>,
    summary: Summary,
    /// The scan's Skill Security Index.
    index: crate::index::ScanIndex<'a>,
    coverage: CoverageDto<'a>,
    repositories: &'a [RepoSummary],
    /// Workspace scans: the findings that involve several repositories (collisions, drift
    /// between copies), counted here and in no repository's totals.
    #[serde(skip_serializing_if = "Option::is_none")]
    across_repositories: Option<Across>,
    skills: Vec<SkillDto<'a>>,
    /// Custom agents, prompt and instruction files, MCP and hook configurations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    agents: Vec<SkillDto<'a>>,
    /// Eval files and what each evaluates.
    #[serde(skip_serializing_if = "<[crate::inventory::EvalFileInfo]>::is_empty")]
    evals: &'a [crate::inventory::EvalFileInfo],
    findings: Vec<FindingDto<'a>>,
    /// Findings a suppression or an acceptance took out of `findings`, with why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressed: Vec<SuppressedDto<'a>>,
}

#[derive(Serialize)]
struct SuppressedDto<'a> {
    #[serde(flatten)]
    finding: FindingDto<'a>,
    suppression: SuppressionDto<'a>,
}

#[derive(Serialize)]
struct SuppressionDto<'a> {
    kind: &'static str,
    reason: &'a str,
}

/// A skill or agent file of the inventory with its index.
#[derive(Serialize)]
struct SkillDto<'a> {
    #[serde(flatten)]
    artifact: &'a Artifact,
    #[serde(skip_serializing_if = "Option::is_none")]
    index: Option<&'a crate::index::Index>,
}

fn with_index<'a>(
    items: &'a [Artifact],
    index: &'a std::collections::BTreeMap<String, crate::index::Index>,
) -> Vec<SkillDto<'a>> {
    items
        .iter()
        .map(|a| SkillDto {
            artifact: a,
            index: index.get(&a.path),
        })
        .collect()
}

#[derive(Serialize)]
struct ShardDto {
    k: u64,
    n: u64,
}

#[derive(Serialize)]
struct Across {
    findings: usize,
    counts: SeverityCounts,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
struct Summary {
    findings: usize,
    counts: SeverityCounts,
    skills: usize,
    files: usize,
    bytes: u64,
    hidden_entries_skipped: usize,
    /// Agents, prompts, instructions, MCP and hook configurations found, by kind.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    artefacts: std::collections::BTreeMap<&'static str, usize>,
    /// Agent files per agent harness profile and verdict (`loaded`, `excluded`, `shadowed`).
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    artefacts_by_harness:
        std::collections::BTreeMap<&'static str, std::collections::BTreeMap<LoadStatus, usize>>,
    #[serde(skip_serializing_if = "is_zero")]
    suppressed: usize,
    /// Findings per rule: the most severe rule first, then the most frequent.
    by_rule: Vec<super::summary::RuleCount>,
    /// Findings per category, by name.
    by_category: Vec<super::summary::CategoryCount>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// AgentEval's coverage names, in PascalCase for drop-in comparison.
#[derive(Serialize)]
#[serde(rename_all = "PascalCase")]
struct CoverageDto<'a> {
    skill_count: usize,
    with_resources: usize,
    with_scripts: usize,
    stage_histogram: &'a std::collections::BTreeMap<String, usize>,
    silently_excluded_count: usize,
    discovered: usize,
}

impl<'a> From<&'a Coverage> for CoverageDto<'a> {
    fn from(c: &'a Coverage) -> Self {
        CoverageDto {
            skill_count: c.skill_count,
            with_resources: c.with_resources,
            with_scripts: c.with_scripts,
            stage_histogram: &c.stage_histogram,
            silently_excluded_count: c.silently_excluded_count,
            discovered: c.discovered,
        }
    }
}

#[derive(Serialize)]
struct FindingDto<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    agenteval_alias: Option<&'static str>,
    category: &'a str,
    severity: &'static str,
    confidence: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    confidence_reason: Option<&'a str>,
    message: &'a str,
    location: &'a Location,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related: Vec<RelatedDto<'a>>,
    /// Findings this one causes, attached to it instead of reported on their own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    consequences: Vec<ConsequenceDto<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skill: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skill_path: Option<&'a str>,
    fingerprint: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<&'a serde_json::Value>,
}

#[derive(Serialize)]
struct ConsequenceDto<'a> {
    rule_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    agenteval_alias: Option<&'static str>,
    severity: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    profile: Option<&'a str>,
    message: &'a str,
    location: &'a Location,
    fingerprint: &'a str,
}

#[derive(Serialize)]
struct RelatedDto<'a> {
    location: &'a Location,
    message: &'a str,
}

fn finding_dto(f: &Finding) -> FindingDto<'_> {
    FindingDto {
        rule_id: f.rule_id,
        agenteval_alias: catalog::get(f.rule_id).and_then(|m| m.agenteval),
        category: f.category,
        severity: f.severity.as_str(),
        confidence: f.confidence.as_str(),
        confidence_reason: f.confidence_reason.as_deref(),
        message: &f.message,
        location: &f.location,
        related: f
            .related
            .iter()
            .map(|r| RelatedDto {
                location: &r.location,
                message: &r.message,
            })
            .collect(),
        consequences: f
            .consequences
            .iter()
            .map(|c| ConsequenceDto {
                rule_id: c.rule_id,
                agenteval_alias: catalog::get(c.rule_id).and_then(|m| m.agenteval),
                severity: c.severity.as_str(),
                profile: c.profile.as_deref(),
                message: &c.message,
                location: &c.location,
                fingerprint: &c.fingerprint,
            })
            .collect(),
        skill: f.skill.as_deref(),
        skill_path: f.skill_path.as_deref(),
        fingerprint: &f.fingerprint,
        properties: f.properties.as_ref(),
    }
}

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    let index = opts.index_for(r);
    let by_rule = super::summary::by_rule(&r.findings);
    let doc = Doc {
        version: JSON_VERSION,
        tool: Tool {
            name: "skillguard",
            version: VERSION,
        },
        mode: r.mode.as_str(),
        target: &r.target,
        shard: r.shard.map(|(k, n)| ShardDto { k, n }),
        fail_on: opts.fail_on.map(|s| s.as_str()),
        fail_under_index: index.fail_under,
        index: index.scan_dto(),
        summary: Summary {
            findings: r.findings.len(),
            counts: r.counts(),
            skills: r.artifacts.len(),
            files: r.files_scanned,
            bytes: r.bytes_scanned,
            hidden_entries_skipped: r.hidden_skipped,
            artefacts: r.agents.iter().fold(Default::default(), |mut m, a| {
                *m.entry(a.kind.as_str()).or_insert(0) += 1;
                m
            }),
            artefacts_by_harness: r.agents.iter().flat_map(|a| &a.loaders).fold(
                Default::default(),
                |mut m, v| {
                    *m.entry(v.profile).or_default().entry(v.status).or_insert(0) += 1;
                    m
                },
            ),
            suppressed: r.suppressed.len(),
            by_category: super::summary::by_category(&by_rule),
            by_rule,
        },
        coverage: (&r.coverage).into(),
        repositories: &r.repos,
        across_repositories: (r.mode == crate::discover::Mode::Workspace).then(|| {
            let counts = SeverityCounts::from_findings(r.cross_repo());
            Across {
                findings: counts.total(),
                counts,
            }
        }),
        skills: with_index(&r.artifacts, &index.skills),
        agents: with_index(&r.agents, &index.agents),
        evals: &r.evals,
        findings: r.findings.iter().map(finding_dto).collect(),
        suppressed: r
            .suppressed
            .iter()
            .map(|s| SuppressedDto {
                finding: finding_dto(&s.finding),
                suppression: SuppressionDto {
                    kind: s.kind.as_str(),
                    reason: &s.reason,
                },
            })
            .collect(),
    };
    serde_json::to_writer_pretty(&mut *out, &doc).map_err(io::Error::from)?;
    writeln!(out)
}
