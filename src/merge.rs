//! `skillguard merge REPORT.json…`: one report from the JSON reports of a sharded
//! `scan-workspace --shard K/N`. Each shard saw only its repositories, so the checks that
//! span repositories are recomputed over all of them: drift between copies and name
//! collisions (`cross-location-content-drift`, `skill-name-collision`, as the baseline
//! checks make them without a ledger) and look-alike skill names (`skill-name-typosquat`).
//! Everything else is taken from the shards as it is. The result renders in every format,
//! and merging the shards of a workspace gives the findings of one unsharded scan
//! (`tests/shard_merge.rs`).
//!
//! Reports are input we did not write: each is read up to [`MAX_REPORT`] bytes into the
//! report model ([`crate::report::model`], the types the JSON renderer writes), checked
//! (`version` 1, `tool.name` skillguard, every required property, rule ids and loader
//! profiles this binary knows, one mode, no repository in two reports) and any problem is an
//! error naming the file.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::discover::Mode;
use crate::finding::{Consequence, Finding};
use crate::inventory::{Artifact, LoaderVerdict};
use crate::report::model::{self, Report};
use crate::result::{RepoSummary, ScanResult, Suppressed};
use crate::rules::ids;

/// The largest report read (4 GiB would be a workspace of millions of skills).
pub const MAX_REPORT: u64 = 2 * 1024 * 1024 * 1024;

/// The rules recomputed over all shards (a shard's own are dropped).
pub const RECOMPUTED: &[&str] = &[
    ids::CROSS_LOCATION_CONTENT_DRIFT,
    ids::SKILL_NAME_COLLISION,
    crate::security::permissions::SKILL_NAME_TYPOSQUAT,
];

#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
    #[error("give at least one report")]
    Empty,
    #[error(
        "the shard reports are incomplete: shard {0} missing (merge every shard of one `--shard K/N` run)"
    )]
    Incomplete(String),
}

fn invalid(path: &Path, message: impl Into<String>) -> MergeError {
    MergeError::Invalid {
        path: path.display().to_string(),
        message: message.into(),
    }
}

/// Reads one report (bounded) into the report model.
fn read_report(path: &Path) -> Result<Report<'static>, MergeError> {
    let read_err = |source| MergeError::Read {
        path: path.display().to_string(),
        source,
    };
    // A shard report is named by the operator: a link to it is followed.
    let f = crate::fsutil::open_named(path).map_err(read_err)?;
    let mut buf = Vec::new();
    f.take(MAX_REPORT + 1)
        .read_to_end(&mut buf)
        .map_err(read_err)?;
    if buf.len() as u64 > MAX_REPORT {
        return Err(invalid(path, format!("larger than {MAX_REPORT} bytes")));
    }
    let foreign = || {
        invalid(
            path,
            "not a skillguard JSON report of version 1 (`skillguard scan-workspace … --format json`)",
        )
    };
    match serde_json::from_slice::<Report<'static>>(&buf) {
        Ok(r) if r.is_current() => Ok(r),
        Ok(_) => Err(foreign()),
        Err(e) if e.is_syntax() || e.is_eof() => Err(invalid(path, format!("not JSON: {e}"))),
        // A document of another tool or version is said to be one, whatever else is wrong;
        // in a report, what is wrong is said with its position.
        Err(e) => match serde_json::from_slice::<model::Head<'_>>(&buf) {
            Ok(h) if h.is_current() => Err(invalid(path, e.to_string())),
            _ => Err(foreign()),
        },
    }
}

/// A finding as the JSON report wrote it.
fn finding(f: model::Finding<'_>) -> Finding {
    let mut out = Finding::new(f.rule_id, f.message, f.location.into_owned());
    out.severity = f.severity;
    out.confidence = f.confidence;
    out.confidence_reason = f.confidence_reason.map(Into::into);
    out.fingerprint = f.fingerprint.into_owned();
    out.skill = f.skill.map(Into::into);
    out.skill_path = f.skill_path.map(Into::into);
    out.properties = f.properties.map(|p| p.into_owned());
    out.related = f.related.into_owned();
    out.consequences = f
        .consequences
        .into_iter()
        .map(|c| Consequence {
            rule_id: c.rule_id,
            severity: c.severity,
            profile: c.profile.map(Into::into),
            message: c.message.into_owned(),
            location: c.location.into_owned(),
            fingerprint: c.fingerprint.into_owned(),
        })
        .collect();
    out
}

/// A skill or agent file of the inventory, with its loader verdicts (profile ids of this
/// binary).
fn artifact(e: model::Entry<'_>) -> Artifact {
    let mut a = e.artifact.into_owned();
    a.format = e.format.map(Into::into);
    a.loaders = e
        .loaders
        .into_iter()
        .map(|l| LoaderVerdict {
            profile: l.profile,
            status: l.status,
            cause: l.cause.map(Into::into),
            exposes: l.exposes.map(|x| x.into_owned()),
        })
        .collect();
    a
}

/// A set of shards is complete: every report a shard of the same N, each K once. Reports
/// of unsharded scans (of different workspaces) merge only among themselves.
fn check_shards(shards: &[(Option<(u64, u64)>, &PathBuf)]) -> Result<(), MergeError> {
    let sharded: Vec<(u64, u64, &PathBuf)> = shards
        .iter()
        .filter_map(|(s, p)| s.map(|(k, n)| (k, n, *p)))
        .collect();
    if sharded.is_empty() {
        return Ok(());
    }
    if let Some((_, p)) = shards.iter().find(|(s, _)| s.is_none()) {
        return Err(invalid(
            p,
            "not a shard (no `--shard K/N`), merged with shard reports",
        ));
    }
    let n = sharded[0].1;
    let mut seen: BTreeMap<u64, &PathBuf> = BTreeMap::new();
    for (k, m, p) in &sharded {
        if *m != n {
            return Err(invalid(
                p,
                format!(
                    "shard {k}/{m}, but {} is a shard of {n}",
                    sharded[0].2.display()
                ),
            ));
        }
        if let Some(other) = seen.insert(*k, p) {
            return Err(invalid(
                p,
                format!("shard {k}/{n} is also {}", other.display()),
            ));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(MergeError::Incomplete(missing.join(", ")));
    }
    Ok(())
}

/// Merges the reports at `paths` into one result, the cross-repository checks recomputed;
/// with notes for stderr.
pub fn merge(paths: &[PathBuf]) -> Result<(ScanResult, Vec<String>), MergeError> {
    let first = paths.first().ok_or(MergeError::Empty)?;
    // The first report's target: the workspace every shard should have scanned.
    let mut target: Option<String> = None;
    let mut artifacts: Vec<Artifact> = Vec::new();
    let mut agents: Vec<Artifact> = Vec::new();
    let mut evals: Vec<crate::inventory::EvalFileInfo> = Vec::new();
    let mut findings: Vec<Finding> = Vec::new();
    let mut suppressed: Vec<Suppressed> = Vec::new();
    let mut repos: Vec<RepoSummary> = Vec::new();
    let mut owner: BTreeMap<String, PathBuf> = BTreeMap::new();
    let (mut hidden, mut files, mut bytes) = (0usize, 0usize, 0u64);
    let mut notes: Vec<String> = Vec::new();
    // (K, N) of each sharded report, by report.
    let mut shards: Vec<(Option<(u64, u64)>, &PathBuf)> = Vec::new();
    for path in paths {
        let v = read_report(path)?;
        let shard = match v.shard {
            None => None,
            Some(model::Shard { k, n }) if k >= 1 && k <= n => Some((k, n)),
            Some(_) => return Err(invalid(path, "bad `shard`")),
        };
        shards.push((shard, path));
        if v.mode != Mode::Workspace.as_str() {
            return Err(invalid(
                path,
                format!(
                    "a `{}` scan; merge joins the shards of `scan-workspace --shard K/N`",
                    v.mode
                ),
            ));
        }
        match &target {
            None => target = Some(v.target.into_owned()),
            Some(first) if *first != v.target => notes.push(format!(
                "{} scanned `{}`, the first report `{}`: check that every shard scanned the same workspace",
                path.display(),
                crate::text::sanitize_line(&v.target),
                crate::text::sanitize_line(first)
            )),
            Some(_) => {}
        }
        for r in v.repositories.into_owned() {
            let name = r.repo.clone().unwrap_or_default();
            if let Some(other) = owner.insert(name.clone(), path.clone()) {
                return Err(invalid(
                    path,
                    format!(
                        "repository `{name}` is also in {}: the reports overlap (one shard twice, or shards of different --shard N)",
                        other.display()
                    ),
                ));
            }
            repos.push(r);
        }
        artifacts.extend(v.skills.into_iter().map(artifact));
        agents.extend(v.agents.into_iter().map(artifact));
        evals.extend(v.evals.into_owned());
        findings.extend(
            v.findings
                .into_iter()
                .map(finding)
                .filter(|f| !RECOMPUTED.contains(&f.rule_id)),
        );
        for s in v.suppressed {
            let f = finding(s.finding);
            if !RECOMPUTED.contains(&f.rule_id) {
                suppressed.push(Suppressed {
                    finding: f,
                    kind: s.suppression.kind,
                    reason: s.suppression.reason.into_owned(),
                });
            }
        }
        // Every shard walked the same workspace folder: its hidden entries are the same.
        hidden = hidden.max(v.summary.hidden_entries_skipped);
        files = files.saturating_add(v.summary.files);
        bytes = bytes.saturating_add(v.summary.bytes);
    }
    let Some(target) = target else {
        return Err(invalid(first, "no report"));
    };
    check_shards(&shards)?;
    artifacts.sort_by(|a, b| a.path.cmp(&b.path));
    agents.sort_by(|a, b| a.path.cmp(&b.path));
    evals.sort_by(|a, b| a.path.cmp(&b.path));
    repos.sort_by(|a, b| a.repo.cmp(&b.repo).then(a.path.cmp(&b.path)));
    let coverage = crate::scan::summary::coverage(&artifacts, Mode::Workspace);
    let mut result = ScanResult {
        lock_entries: 0,
        agents,
        evals,
        mode: Mode::Workspace,
        target,
        artifacts,
        findings,
        coverage,
        repos,
        hidden_skipped: hidden,
        files_scanned: files,
        bytes_scanned: bytes,
        suppressed,
        changed: None,
        shard: None,
        // Shards' reports do not carry the inference; each shard's verdicts already did.
        targets: Vec::new(),
    };
    // The checks that span repositories are the pipeline's next stage
    // (`baseline::across_reports`), as after a scan.
    crate::finding::sort_findings(&mut result.findings);
    result
        .suppressed
        .sort_by(|a, b| a.finding.sort_key().cmp(&b.finding.sort_key()));
    result.recount();
    Ok((result, notes))
}
