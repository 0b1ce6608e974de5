//! The scan's result: the model the pipeline fills (artifacts, findings, coverage,
//! per-repository summaries) and every later stage reads (index, report, baseline, the
//! scan-wide security rules). Below the stages that fill it; above the walk (its mode).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::discover::Mode;
use crate::finding::{Finding, SeverityCounts};
use crate::inventory::Artifact;

/// AgentEval-compatible coverage counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Skills a strict loader would load.
    pub skill_count: usize,
    pub with_resources: usize,
    pub with_scripts: usize,
    /// `load` / `read` / `run` stage counts, as AgentEval reports them.
    pub stage_histogram: BTreeMap<String, usize>,
    /// Skills discovered but excluded by a strict loader.
    pub silently_excluded_count: usize,
    /// Every skill directory discovered.
    pub discovered: usize,
}

/// One convention root in a repository summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConventionSummary {
    pub convention: String,
    pub path: String,
    pub skills: usize,
}

/// Per-repository (or per scanned tree) summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoSummary {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    pub path: String,
    pub skills: usize,
    pub excluded: usize,
    pub findings: usize,
    pub counts: SeverityCounts,
    pub conventions: Vec<ConventionSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub absent_conventions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The result of a scan: the model every renderer consumes.
#[derive(Debug, Clone)]
pub struct ScanResult {
    pub mode: Mode,
    /// The scanned path as given on the command line (information only).
    pub target: String,
    pub artifacts: Vec<Artifact>,
    pub findings: Vec<Finding>,
    pub coverage: Coverage,
    pub repos: Vec<RepoSummary>,
    /// Hidden workspace entries skipped (`.git`, ...).
    pub hidden_skipped: usize,
    pub files_scanned: usize,
    pub bytes_scanned: u64,
    /// Findings a suppression or an acceptance took out of `findings` (sorted); counted and
    /// listed on request, never gated on.
    pub suppressed: Vec<Suppressed>,
}

/// What took a finding out of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SuppressionKind {
    /// An `[[ignore]]` entry of `.skillguard.toml`.
    Config,
    /// A `skillguard-ignore` comment in the file.
    Inline,
    /// `.skillguard/accepted.json` (`skillguard accept`).
    Accepted,
}

impl SuppressionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SuppressionKind::Config => "config",
            SuppressionKind::Inline => "inline",
            SuppressionKind::Accepted => "accepted",
        }
    }
}

/// A suppressed finding with its justification.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Suppressed {
    pub finding: Finding,
    pub kind: SuppressionKind,
    pub reason: String,
}

impl ScanResult {
    pub fn counts(&self) -> SeverityCounts {
        SeverityCounts::from_findings(&self.findings)
    }

    /// Recomputes each repository's finding counts from `findings` (a finding belongs to
    /// the repository its path starts with, or to the only one).
    pub fn recount(&mut self) {
        let single = self.repos.len() == 1;
        for r in &mut self.repos {
            r.findings = 0;
            r.counts = SeverityCounts::default();
        }
        for f in &self.findings {
            let first = f.location.path.split('/').next().unwrap_or("");
            if let Some(r) = self.repos.iter_mut().find(|r| single || r.path == first) {
                r.findings += 1;
                r.counts.add(f.severity);
            }
        }
    }
}
