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
}

impl ScanResult {
    pub fn counts(&self) -> SeverityCounts {
        SeverityCounts::from_findings(&self.findings)
    }
}
