//! `skillguard merge REPORT.json…`: one report from the JSON reports of a sharded
//! `scan-workspace --shard K/N`. Each shard saw only its repositories, so the checks that
//! span repositories are recomputed over all of them: drift between copies and name
//! collisions (`cross-location-content-drift`, `skill-name-collision`, as the baseline
//! checks make them without a ledger) and look-alike skill names (`skill-name-typosquat`).
//! Everything else is taken from the shards as it is. The result renders in every format,
//! and merging the shards of a workspace gives the findings of one unsharded scan
//! (`tests/shard_merge.rs`).
//!
//! Reports are input we did not write: each is read up to [`MAX_REPORT`] bytes, checked
//! (`version` 1, `tool.name` skillguard, one mode, no repository in two reports) and any
//! problem is an error naming the file.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::discover::Mode;
use crate::finding::{Confidence, Consequence, Finding, Location, Related, Severity};
use crate::inventory::{Artifact, Exposure, LoadStatus, LoaderVerdict};
use crate::result::{RepoSummary, ScanResult, Suppressed, SuppressionKind};
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

/// Reads one report (bounded) as JSON.
fn read_report(path: &Path) -> Result<Value, MergeError> {
    let read_err = |source| MergeError::Read {
        path: path.display().to_string(),
        source,
    };
    let f = crate::fsutil::open_regular(path).map_err(read_err)?;
    let mut buf = Vec::new();
    f.take(MAX_REPORT + 1)
        .read_to_end(&mut buf)
        .map_err(read_err)?;
    if buf.len() as u64 > MAX_REPORT {
        return Err(invalid(path, format!("larger than {MAX_REPORT} bytes")));
    }
    let v: Value =
        serde_json::from_slice(&buf).map_err(|e| invalid(path, format!("not JSON: {e}")))?;
    if v["tool"]["name"] != "skillguard" || v["version"] != crate::report::json::JSON_VERSION {
        return Err(invalid(
            path,
            "not a skillguard JSON report of version 1 (`skillguard scan-workspace … --format json`)",
        ));
    }
    Ok(v)
}

fn str_field<'a>(path: &Path, v: &'a Value, key: &str) -> Result<&'a str, MergeError> {
    v[key]
        .as_str()
        .ok_or_else(|| invalid(path, format!("`{key}` missing or not a string")))
}

/// A rule id of the catalog (its `'static` name).
fn rule(path: &Path, id: &str) -> Result<&'static str, MergeError> {
    crate::catalog::get(id).map(|m| m.id).ok_or_else(|| {
        invalid(
            path,
            format!("unknown rule `{id}` (a report of another version?)"),
        )
    })
}

fn severity(path: &Path, v: &Value) -> Result<Severity, MergeError> {
    serde_json::from_value(v.clone()).map_err(|_| invalid(path, format!("bad severity {v}")))
}

fn location(path: &Path, v: &Value) -> Result<Location, MergeError> {
    serde_json::from_value(v.clone()).map_err(|e| invalid(path, format!("bad location: {e}")))
}

/// A finding as the JSON report wrote it.
fn finding(path: &Path, v: &Value) -> Result<Finding, MergeError> {
    let id = rule(path, str_field(path, v, "rule_id")?)?;
    let mut f = Finding::new(
        id,
        str_field(path, v, "message")?,
        location(path, &v["location"])?,
    );
    f.severity = severity(path, &v["severity"])?;
    f.confidence = Confidence::parse(str_field(path, v, "confidence")?)
        .ok_or_else(|| invalid(path, "bad confidence"))?;
    f.confidence_reason = v["confidence_reason"].as_str().map(str::to_owned);
    f.fingerprint = str_field(path, v, "fingerprint")?.to_owned();
    f.skill = v["skill"].as_str().map(str::to_owned);
    f.skill_path = v["skill_path"].as_str().map(str::to_owned);
    f.properties = v.get("properties").filter(|p| !p.is_null()).cloned();
    for r in v["related"].as_array().into_iter().flatten() {
        f.related.push(Related {
            location: location(path, &r["location"])?,
            message: str_field(path, r, "message")?.to_owned(),
        });
    }
    for c in v["consequences"].as_array().into_iter().flatten() {
        f.consequences.push(Consequence {
            rule_id: rule(path, str_field(path, c, "rule_id")?)?,
            severity: severity(path, &c["severity"])?,
            profile: c["profile"].as_str().map(str::to_owned),
            message: str_field(path, c, "message")?.to_owned(),
            location: location(path, &c["location"])?,
            fingerprint: str_field(path, c, "fingerprint")?.to_owned(),
        });
    }
    Ok(f)
}

/// A skill of the inventory, with its loader verdicts (profile ids of this binary).
fn artifact(path: &Path, v: &Value) -> Result<Artifact, MergeError> {
    let mut a: Artifact = serde_json::from_value(v.clone())
        .map_err(|e| invalid(path, format!("bad skill entry: {e}")))?;
    for l in v["loaders"].as_array().into_iter().flatten() {
        let id = str_field(path, l, "profile")?;
        let profile = crate::loaders::profiles()
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.id)
            .ok_or_else(|| invalid(path, format!("unknown loader profile `{id}`")))?;
        let status: LoadStatus = serde_json::from_value(l["status"].clone())
            .map_err(|_| invalid(path, "bad loader status"))?;
        let exposes: Option<Exposure> = match l.get("exposes") {
            Some(e) if !e.is_null() => Some(
                serde_json::from_value(e.clone())
                    .map_err(|_| invalid(path, "bad loader exposure"))?,
            ),
            _ => None,
        };
        a.loaders.push(LoaderVerdict {
            profile,
            status,
            cause: l["cause"].as_str().map(str::to_owned),
            exposes,
        });
    }
    Ok(a)
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
    let mut mode: Option<String> = None;
    let mut target = String::new();
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
        let shard = match &v["shard"] {
            Value::Null => None,
            s => match (s["k"].as_u64(), s["n"].as_u64()) {
                (Some(k), Some(n)) if k >= 1 && k <= n => Some((k, n)),
                _ => return Err(invalid(path, "bad `shard`")),
            },
        };
        shards.push((shard, path));
        if mode.is_some() && v["target"].as_str() != Some(target.as_str()) {
            notes.push(format!(
                "{} scanned `{}`, the first report `{}`: check that every shard scanned the same workspace",
                path.display(),
                crate::text::sanitize_line(v["target"].as_str().unwrap_or("?")),
                crate::text::sanitize_line(&target)
            ));
        }
        let m = str_field(path, &v, "mode")?.to_owned();
        if m != "workspace" {
            return Err(invalid(
                path,
                format!("a `{m}` scan; merge joins the shards of `scan-workspace --shard K/N`"),
            ));
        }
        if mode.is_none() {
            target = str_field(path, &v, "target")?.to_owned();
        }
        mode = Some(m);
        for r in v["repositories"].as_array().into_iter().flatten() {
            let r: RepoSummary = serde_json::from_value(r.clone())
                .map_err(|e| invalid(path, format!("bad repository entry: {e}")))?;
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
        for s in v["skills"].as_array().into_iter().flatten() {
            artifacts.push(artifact(path, s)?);
        }
        for s in v["agents"].as_array().into_iter().flatten() {
            agents.push(artifact(path, s)?);
        }
        for e in v["evals"].as_array().into_iter().flatten() {
            evals.push(
                serde_json::from_value(e.clone())
                    .map_err(|e| invalid(path, format!("bad eval entry: {e}")))?,
            );
        }
        for f in v["findings"].as_array().into_iter().flatten() {
            let f = finding(path, f)?;
            if !RECOMPUTED.contains(&f.rule_id) {
                findings.push(f);
            }
        }
        for s in v["suppressed"].as_array().into_iter().flatten() {
            let f = finding(path, s)?;
            let kind = match s["suppression"]["kind"].as_str() {
                Some("config") => SuppressionKind::Config,
                Some("inline") => SuppressionKind::Inline,
                Some("accepted") => SuppressionKind::Accepted,
                _ => return Err(invalid(path, "bad suppression kind")),
            };
            if !RECOMPUTED.contains(&f.rule_id) {
                suppressed.push(Suppressed {
                    finding: f,
                    kind,
                    reason: s["suppression"]["reason"].as_str().unwrap_or("").to_owned(),
                });
            }
        }
        let summary = &v["summary"];
        // Every shard walked the same workspace folder: its hidden entries are the same.
        hidden = hidden.max(summary["hidden_entries_skipped"].as_u64().unwrap_or(0) as usize);
        files = files.saturating_add(summary["files"].as_u64().unwrap_or(0) as usize);
        bytes = bytes.saturating_add(summary["bytes"].as_u64().unwrap_or(0));
    }
    if mode.is_none() {
        return Err(invalid(first, "no report"));
    }
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
