//! The scan's result: the model the pipeline fills (artifacts, findings, coverage,
//! per-repository summaries) and every later stage reads (index, report, baseline, the
//! scan-wide security rules). Below the stages that fill it; above the walk (its mode).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::discover::Mode;
use crate::finding::{Finding, SeverityCounts};
use crate::inventory::Artifact;

/// AgentEval-compatible coverage counts, under AgentEval's names (PascalCase) in the JSON
/// report for drop-in comparison.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "PascalCase", default)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConventionSummary {
    pub convention: String,
    pub path: String,
    pub skills: usize,
}

/// Per-repository (or per scanned tree) summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RepoSummary {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    pub path: String,
    pub skills: usize,
    pub excluded: usize,
    pub findings: usize,
    pub counts: SeverityCounts,
    pub conventions: Vec<ConventionSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub absent_conventions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// A shard's part of a repository its shard plan splits by skill: the counts above are
    /// this part's; `merge` joins the parts into the repository's summary.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub split: Option<SplitPart>,
}

/// What part of a split repository a shard report holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SplitPart {
    /// Whether it holds the repository's remainder (its files outside the plan's skill
    /// units and its repository-level findings); exactly one part does.
    pub rest: bool,
}

/// The result of a scan: the model every renderer consumes.
#[derive(Debug, Clone)]
pub struct ScanResult {
    /// Usable entries of the `skills-lock.json` files read (for AgentEval's `Provenance`,
    /// present whenever a lock file is non-empty).
    pub lock_entries: usize,
    pub mode: Mode,
    /// The scanned path as given on the command line (information only).
    pub target: String,
    pub artifacts: Vec<Artifact>,
    /// Custom agents, prompt and instruction files, MCP and hook configurations
    /// (`crate::agents`), sorted by path.
    pub agents: Vec<Artifact>,
    /// Eval files (`crate::evalfiles`), sorted by path.
    pub evals: Vec<crate::inventory::EvalFileInfo>,
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
    /// Changed-files mode (`scan --repo . -- FILE…`): what was given and scanned.
    pub changed: Option<Changed>,
    /// `scan-workspace --shard K/N`: `(K, N)`, recorded in the JSON report so that
    /// `skillguard merge` can tell a complete set of shards.
    pub shard: Option<(u64, u64)>,
    /// The SHA-256 of the workspace listing (the names of every repository of the
    /// workspace, before `--shard` keeps some; [`crate::discover::Plan::listing`]), the first
    /// part of the [`RunIdentity`] the pipeline completes. `None` once the run is identified,
    /// and in a merge.
    pub listing: Option<String>,
    /// Which run this is ([`RunIdentity`]): set by the pipeline, written in the JSON report,
    /// compared by `skillguard merge`.
    pub run: Option<RunIdentity>,
    /// The harnesses each repository targets, and how that was decided
    /// (`crate::loaders::targets`): the console's first line states them.
    pub targets: Vec<crate::targets::RepoTargets>,
}

/// The identity of a run (docs/output-formats.md, "Run identity"): the shards of one
/// `scan-workspace --shard K/N` run share it, and a merge of them carries the identity of the
/// unsharded scan of the same workspace with the same options. Deterministic: the same
/// listing, options and shard plan give the same identity (no time, nothing random).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunIdentity {
    /// SHA-256 over the three parts below ([`RunIdentity::digest`]).
    pub id: String,
    /// SHA-256 of the workspace listing: every repository name of the workspace.
    pub workspace: String,
    /// SHA-256 of the options that change findings (rule selection, profiles, targets,
    /// limits, hash options, the configuration's and accepted findings' digests, the tool
    /// version).
    pub options: String,
    /// The shard plan: N of `--shard K/N` (1 for an unsharded scan and a merge).
    pub shards: u64,
    /// `scan-workspace --plan FILE --shard K`: the SHA-256 of the plan file's contents
    /// ([`crate::shardplan::ShardPlan::digest`]), so that the shards of one plan merge and
    /// shards of different plans (or of `--shard K/N`) are refused. `workspace` is then the
    /// plan's workspace listing digest. Absent otherwise, and in a merge.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub plan: Option<String>,
}

impl RunIdentity {
    /// The identity of a run of these parts.
    pub fn new(workspace: String, options: String, shards: u64) -> RunIdentity {
        RunIdentity {
            id: RunIdentity::digest(&workspace, &options, shards, None),
            workspace,
            options,
            shards,
            plan: None,
        }
    }

    /// The same run as a shard of the plan whose digest is `plan`.
    pub fn with_plan(self, plan: Option<String>) -> RunIdentity {
        RunIdentity {
            id: RunIdentity::digest(&self.workspace, &self.options, self.shards, plan.as_deref()),
            plan,
            ..self
        }
    }

    /// `id` of these parts: SHA-256 of `skillguard-run/1`, the workspace and options digests,
    /// N and, for a shard of a plan, the plan's digest, each ended by a NUL byte.
    pub fn digest(workspace: &str, options: &str, shards: u64, plan: Option<&str>) -> String {
        let mut bytes = Vec::with_capacity(240);
        let n = shards.to_string();
        let parts = ["skillguard-run/1", workspace, options, &n];
        for part in parts.into_iter().chain(plan) {
            bytes.extend_from_slice(part.as_bytes());
            bytes.push(0);
        }
        crate::hash::sha256_hex(&bytes)
    }

    /// Does `id` hold the digest of the parts (a report whose identity was not edited by
    /// hand)?
    pub fn is_consistent(&self) -> bool {
        self.id
            == RunIdentity::digest(
                &self.workspace,
                &self.options,
                self.shards,
                self.plan.as_deref(),
            )
    }

    /// The same run unsharded: what a merge of its shards carries (a plan's shards too: the
    /// plan's listing stands for the workspace, so the merge is the unsharded scan's run).
    pub fn unsharded(&self) -> RunIdentity {
        RunIdentity::new(self.workspace.clone(), self.options.clone(), 1)
    }
}

/// Changed-files mode: the files given, the skills holding them (the ones reported) and
/// the skills scanned besides for their cross-skill checks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changed {
    /// The files given, relative to the scan base, sorted.
    pub files: Vec<String>,
    /// The skills (folders relative to the scan base) holding them, sorted.
    pub skills: Vec<String>,
    /// Every skill scanned, sorted: the above, the skills they are nested in or hold, and
    /// the skills whose name is the same or confusable (collisions, shadowing, drift).
    pub scanned: Vec<String>,
    /// Skills found and not scanned.
    pub skipped: usize,
    /// A changed file changes the policy (`.skillguard.toml`, the accepted findings), so
    /// everything was scanned.
    pub full: bool,
}

impl Changed {
    /// The innermost scanned skill holding `path` (a file or folder relative to the scan base).
    pub fn owner(&self, path: &str) -> Option<&str> {
        let mut p = path;
        loop {
            if let Ok(i) = self.scanned.binary_search_by(|s| s.as_str().cmp(p)) {
                return Some(&self.scanned[i]);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None if !p.is_empty() => p = "",
                None => return None,
            }
        }
    }

    /// Does this finding concern a changed skill: at a file of one, with a related location
    /// in one (a collision or drift with a changed copy), or at a changed file outside skills?
    pub fn concerns(&self, f: &Finding) -> bool {
        let changed = |path: &str| {
            self.owner(path)
                .is_some_and(|o| self.skills.binary_search_by(|s| s.as_str().cmp(o)).is_ok())
        };
        changed(&f.location.path)
            || f.related.iter().any(|r| changed(&r.location.path))
            || self.files.binary_search(&f.location.path).is_ok()
    }
}

/// What took a finding out of the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

    /// Workspace scans: does `f` involve several repositories (a name collision, or drift
    /// between copies, in different repositories)? Such a finding belongs to the workspace:
    /// it is reported once, in a section of its own, and counted in no repository's totals,
    /// so a repository's counts do not change with its neighbours.
    pub fn is_cross_repo(&self, f: &Finding) -> bool {
        self.mode == Mode::Workspace && involves_several_repos(f)
    }

    /// The workspace's own findings ([`Self::is_cross_repo`]).
    pub fn cross_repo(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| self.is_cross_repo(f))
    }

    /// Recomputes each repository's finding counts from `findings` (a finding belongs to
    /// the repository its path starts with, or to the only one; one that involves several
    /// repositories to none).
    pub fn recount(&mut self) {
        let counts = repo_counts(self.mode, &self.repos, &self.findings);
        for (r, c) in self.repos.iter_mut().zip(counts) {
            r.findings = c.total();
            r.counts = c;
        }
    }
}

/// The first segment of a `/`-separated path: a workspace repository's folder.
fn first_segment(p: &str) -> &str {
    p.split('/').next().unwrap_or("")
}

/// Is a related location of `f` in another repository folder than its own (a workspace
/// finding that involves several repositories)?
pub fn involves_several_repos(f: &Finding) -> bool {
    let own = first_segment(&f.location.path);
    f.related
        .iter()
        .any(|r| first_segment(&r.location.path) != own)
}

/// The finding counts of each of `repos` (in their order) from `findings`, as
/// [`ScanResult::recount`] makes them: a finding belongs to the repository its path starts
/// with, or to the only one; one that involves several repositories (in a workspace) to none.
/// One pass over the findings, each repository found by its path in a map.
pub fn repo_counts(mode: Mode, repos: &[RepoSummary], findings: &[Finding]) -> Vec<SeverityCounts> {
    let mut counts = vec![SeverityCounts::default(); repos.len()];
    let single = repos.len() == 1;
    // The first repository of each path, as a search from the front finds it.
    let mut by_path: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, r) in repos.iter().enumerate().rev() {
        by_path.insert(r.path.as_str(), i);
    }
    for f in findings {
        if mode == Mode::Workspace && involves_several_repos(f) {
            continue;
        }
        let own = first_segment(&f.location.path);
        let at = if single {
            Some(0)
        } else {
            by_path.get(own).copied()
        };
        if let Some(i) = at {
            counts[i].add(f.severity);
        }
    }
    counts
}
