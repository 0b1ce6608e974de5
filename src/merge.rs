//! `skillguard merge REPORT.json…`: one report from the JSON reports of a sharded
//! `scan-workspace --shard K/N`. Each shard saw only its repositories, so the checks that
//! span repositories are recomputed over all of them: drift between copies and name
//! collisions (`cross-location-content-drift`, `skill-name-collision`, as the baseline
//! checks make them without a ledger) and look-alike skill names (`skill-name-typosquat`).
//! Everything else is taken from the shards as it is; a repository a shard plan split by skill
//! comes as parts (`repositories[].split`), joined here: exactly one part holds its remainder,
//! every part agrees on the walk's view of it, no skill is in two reports, and its counts are
//! added up ([`join_parts`]). The result renders in every format,
//! and merging the shards of a workspace gives the findings of one unsharded scan
//! (`tests/shard_merge.rs`).
//!
//! Reports are input we did not write: each is read up to [`MAX_REPORT`] bytes, its
//! signature verified when `SKILLGUARD_SHARD_KEY` is set ([`crate::report::signature`]), read
//! into the report model ([`crate::report::model`], the types the JSON renderer writes) and
//! checked: `version` 1, `tool.name` skillguard, every required property, rule ids and loader
//! profiles this binary knows, one mode, a shard plan of at most
//! [`crate::discover::MAX_SHARDS`], a summary that agrees with the report's own findings,
//! skills and repositories, no repository in two reports, and one run
//! ([`crate::result::RunIdentity`]) for all of them unless `--allow-mixed-runs`. Any problem
//! is an error naming the file (and the first disagreement); what a report says is quoted
//! cut to [`MAX_ERROR_LINE`] code points. File and byte totals are computed from the skills'
//! file lists, never taken from a summary.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::discover::{MAX_SHARDS, Mode};
use crate::finding::{Consequence, Finding, Severity, SeverityCounts};
use crate::inventory::{Artifact, LoaderVerdict};
use crate::report::model::{self, Report};
use crate::report::signature;
use crate::result::{RepoSummary, RunIdentity, ScanResult, Suppressed};
use crate::rules::ids;

/// The largest report read (4 GiB would be a workspace of millions of skills).
pub const MAX_REPORT: u64 = 2 * 1024 * 1024 * 1024;

/// What a report says is cut to this many code points before it is kept (a repository's
/// `error`) or printed (in an error or a note).
pub const MAX_ERROR_LINE: usize = 400;

/// How the reports are checked.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--allow-mixed-runs`: merge reports of different runs (noted), instead of refusing them.
    pub allow_mixed_runs: bool,
    /// `SKILLGUARD_SHARD_KEY`: every report must carry a signature made with it.
    pub key: Option<Vec<u8>>,
}

/// The rules recomputed over all shards (a shard's own are dropped).
pub const RECOMPUTED: &[&str] = &[
    ids::CROSS_LOCATION_CONTENT_DRIFT,
    ids::SKILL_NAME_COLLISION,
    crate::security::families::permissions::SKILL_NAME_TYPOSQUAT,
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
    #[error(
        "{other} and {first} are reports of different runs ({what}); merge the shards of one `scan-workspace --shard K/N` run, or pass --allow-mixed-runs to merge them anyway"
    )]
    MixedRuns {
        first: String,
        other: String,
        what: String,
    },
}

/// Text of a report as shown in an error or a note: cut to [`MAX_ERROR_LINE`] code points,
/// on one line, control characters escaped.
fn quoted(s: &str) -> String {
    crate::text::sanitize_line(&crate::text::truncate(s, MAX_ERROR_LINE)).into_owned()
}

fn invalid(path: &Path, message: impl AsRef<str>) -> MergeError {
    MergeError::Invalid {
        path: path.display().to_string(),
        message: quoted(message.as_ref()),
    }
}

/// Reads one report (bounded) into the report model as it streams from the file (the report
/// is never held as bytes beside its model), its signature checked under `key` on the same
/// bytes; also says whether it carries a signature.
fn read_report(path: &Path, key: Option<&[u8]>) -> Result<(Report<'static>, bool), MergeError> {
    let read_err = |source| MergeError::Read {
        path: path.display().to_string(),
        source,
    };
    // A shard report is named by the operator: a link to it is followed.
    let f = crate::fsutil::open_named(path).map_err(read_err)?;
    let mut checked = signature::Checked::new(f.take(MAX_REPORT + 1), key);
    let parsed = serde_json::from_reader::<_, Report<'static>>(std::io::BufReader::with_capacity(
        1 << 16,
        &mut checked,
    ));
    if checked.total > MAX_REPORT {
        return Err(invalid(path, format!("larger than {MAX_REPORT} bytes")));
    }
    let foreign = || {
        invalid(
            path,
            "not a skillguard JSON report of version 1 (`skillguard scan-workspace … --format json`)",
        )
    };
    let report = match parsed {
        Ok(r) if r.is_current() => r,
        Ok(_) => return Err(foreign()),
        Err(e) if e.is_io() => {
            return Err(read_err(std::io::Error::other(e.to_string())));
        }
        Err(e) if e.is_syntax() || e.is_eof() => {
            return Err(invalid(path, format!("not JSON: {e}")));
        }
        // A document of another tool or version is said to be one, whatever else is wrong;
        // in a report, what is wrong is said with its position.
        Err(e) => {
            let head = crate::fsutil::open_named(path).ok().and_then(|f| {
                let r = std::io::BufReader::new(f.take(MAX_REPORT));
                serde_json::from_reader::<_, model::Head<'static>>(r).ok()
            });
            return Err(match head {
                Some(h) if h.is_current() => invalid(path, e.to_string()),
                _ => foreign(),
            });
        }
    };
    let (signed, verified) = checked.verdict();
    if let Some(Err(e)) = verified {
        return Err(invalid(path, e.to_string()));
    }
    Ok((report, signed))
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
    // N is at most MAX_SHARDS (checked as each report was read); at most ten are named.
    let mut missing = (1..=n).filter(|k| !seen.contains_key(k));
    let named: Vec<String> = missing
        .by_ref()
        .take(10)
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !named.is_empty() {
        let more = missing.count();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        return Err(MergeError::Incomplete(format!(
            "{}{more}",
            named.join(", ")
        )));
    }
    Ok(())
}

/// The first place where a shard's summary disagrees with its own findings, suppressed
/// findings, skills and repositories, if any: each count is computed again as the scan
/// computed it.
fn disagreement(
    v: &Report<'_>,
    findings: &[Finding],
    suppressed: usize,
    skills: &[Artifact],
) -> Option<String> {
    let s = &v.summary;
    let differs = |what: &str, says: &dyn std::fmt::Display, holds: &dyn std::fmt::Display| {
        Some(format!("`{what}` says {says}, the report holds {holds}"))
    };
    if s.findings != findings.len() {
        return differs("summary.findings", &s.findings, &findings.len());
    }
    let counts = SeverityCounts::from_findings(findings);
    if let Some(d) = counts_differ("summary.counts", &s.counts, &counts) {
        return Some(d);
    }
    if s.suppressed != suppressed {
        return differs("summary.suppressed", &s.suppressed, &suppressed);
    }
    if s.skills != skills.len() {
        return differs("summary.skills", &s.skills, &skills.len());
    }
    let (files, bytes) = crate::inventory::totals(skills);
    if s.files != files {
        return differs("summary.files", &s.files, &files);
    }
    if s.bytes != bytes {
        return differs("summary.bytes", &s.bytes, &bytes);
    }
    let by_rule = crate::report::summary::by_rule(findings);
    if s.by_rule != by_rule {
        return Some("`summary.by_rule` does not count the report's findings".into());
    }
    if s.by_category != crate::report::summary::by_category(&by_rule) {
        return Some("`summary.by_category` does not count the report's findings".into());
    }
    let per_repo = crate::result::repo_counts(Mode::Workspace, &v.repositories, findings);
    for (r, c) in v.repositories.iter().zip(&per_repo) {
        let name = r.repo.as_deref().unwrap_or(&r.path);
        if let Some(d) = counts_differ(&format!("repositories[{name}].counts"), &r.counts, c) {
            return Some(d);
        }
        if r.findings != c.total() {
            return differs(
                &format!("repositories[{name}].findings"),
                &r.findings,
                &c.total(),
            );
        }
    }
    let across = findings
        .iter()
        .filter(|f| crate::result::involves_several_repos(f));
    let across = SeverityCounts::from_findings(across);
    if let Some(a) = &v.across_repositories {
        if let Some(d) = counts_differ("across_repositories.counts", &a.counts, &across) {
            return Some(d);
        }
        if a.findings != across.total() {
            return differs("across_repositories.findings", &a.findings, &across.total());
        }
    }
    let coverage = crate::scan::summary::coverage(skills, Mode::Workspace);
    if *v.coverage != coverage {
        return Some("`coverage` does not count the report's skills".into());
    }
    None
}

/// The first severity (the highest first) whose count `says` differs from what the
/// findings `hold`.
fn counts_differ(what: &str, says: &SeverityCounts, holds: &SeverityCounts) -> Option<String> {
    Severity::ALL.iter().rev().find_map(|&sev| {
        let (a, b) = (says.get(sev), holds.get(sev));
        (a != b).then(|| {
            format!(
                "`{what}.{}` says {a}, the report holds {b} {} finding(s)",
                sev.as_str(),
                sev.as_str()
            )
        })
    })
}

/// Why two run identities differ, for the error that refuses them.
fn run_difference(a: Option<&RunIdentity>, b: Option<&RunIdentity>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if a.workspace != b.workspace => {
            "their workspace listings differ: not the same repositories".into()
        }
        (Some(a), Some(b)) if a.options != b.options => {
            "their options differ: rule selection, profiles, targets, limits, hash options, configuration, accepted findings or skillguard version".into()
        }
        (Some(a), Some(b)) if a.shards != b.shards => format!(
            "their shard plans differ: --shard K/{} and K/{}",
            b.shards, a.shards
        ),
        (Some(a), Some(b)) if a.plan != b.plan => match (&a.plan, &b.plan) {
            (Some(_), Some(_)) => {
                "their shard plans differ: shards of two different `--plan` files".into()
            }
            _ => "their shard plans differ: one is a shard of a `--plan` file, the other of --shard K/N".into(),
        },
        (Some(_), Some(_)) => "their run identities differ".into(),
        (None, _) | (_, None) => {
            "one carries no run identity (a report of an older skillguard?)".into()
        }
    }
}

/// One repository's summary from the parts of it that the shards of a split repository
/// report: skill counts added up, per convention too (finding counts are recounted from the
/// merged findings). Exactly one part holds the remainder, and every part agrees on what the
/// walk alone decides (path, absent conventions, error, convention roots).
fn join_parts(name: &str, list: Vec<(RepoSummary, PathBuf)>) -> Result<RepoSummary, MergeError> {
    let rest: Vec<&PathBuf> = list
        .iter()
        .filter(|(r, _)| r.split.is_some_and(|s| s.rest))
        .map(|(_, p)| p)
        .collect();
    let (first, first_path) = &list[0];
    match rest.len() {
        1 => {}
        0 => {
            return Err(invalid(
                first_path,
                format!(
                    "repository `{name}` is split, but no report holds its remainder: merge every shard of the plan"
                ),
            ));
        }
        _ => {
            return Err(invalid(
                rest[1],
                format!(
                    "repository `{name}`: its remainder is also in {}: the reports overlap",
                    rest[0].display()
                ),
            ));
        }
    }
    let mut out = first.clone();
    out.split = None;
    for (r, p) in &list[1..] {
        let same_roots = r.conventions.len() == out.conventions.len()
            && r.conventions
                .iter()
                .zip(&out.conventions)
                .all(|(a, b)| a.convention == b.convention && a.path == b.path);
        if r.path != out.path
            || r.absent_conventions != out.absent_conventions
            || r.error != out.error
            || !same_roots
        {
            return Err(invalid(
                p,
                format!(
                    "repository `{name}`: this part and {}'s disagree on the repository's folder, conventions or error: not one walk of it",
                    first_path.display()
                ),
            ));
        }
        out.skills += r.skills;
        out.excluded += r.excluded;
        for (c, d) in out.conventions.iter_mut().zip(&r.conventions) {
            c.skills += d.skills;
        }
    }
    out.error = out
        .error
        .map(|e| crate::text::truncate(&e, MAX_ERROR_LINE).into_owned());
    Ok(out)
}

/// Merges the reports at `paths` into one result, the cross-repository checks recomputed;
/// with notes for stderr. `no_ignores` (`--no-ignores`): the shards' suppressed findings are
/// reported again, as a scan with `--no-ignores` reports them.
pub fn merge(
    paths: &[PathBuf],
    options: &Options,
    no_ignores: bool,
) -> Result<(ScanResult, Vec<String>), MergeError> {
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
    // The parts of each repository a shard plan split by skill, with their reports.
    let mut parts: BTreeMap<String, Vec<(RepoSummary, PathBuf)>> = BTreeMap::new();
    let mut hidden = 0usize;
    let mut notes: Vec<String> = Vec::new();
    // (K, N) of each sharded report, by report.
    let mut shards: Vec<(Option<(u64, u64)>, &PathBuf)> = Vec::new();
    // The run of the first report, and whether another run was met.
    let mut run: Option<(Option<RunIdentity>, &PathBuf)> = None;
    let mut mixed = false;
    let (mut signed, mut reported_again) = (0usize, 0usize);
    for path in paths {
        let (v, is_signed) = read_report(path, options.key.as_deref())?;
        signed += usize::from(is_signed);
        let shard = match v.shard {
            None => None,
            Some(model::Shard { k, n }) if k >= 1 && k <= n && n <= MAX_SHARDS => Some((k, n)),
            Some(model::Shard { k, n }) => {
                return Err(invalid(
                    path,
                    format!("bad `shard` {k}/{n}: need 1 <= K <= N <= {MAX_SHARDS}"),
                ));
            }
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
        // Its run: whole, of its own shard plan, the same as the first report's.
        let this = v.run.as_deref().cloned();
        if let Some(r) = &this {
            if !r.is_consistent() {
                return Err(invalid(
                    path,
                    "`run.id` is not the digest of `run.workspace`, `run.options`, `run.shards` and `run.plan`: the report was edited",
                ));
            }
            let n = shard.map_or(1, |(_, n)| n);
            if r.shards != n {
                return Err(invalid(
                    path,
                    format!(
                        "`run.shards` is {}, but the report is a shard of {n}",
                        r.shards
                    ),
                ));
            }
        }
        match &run {
            None => run = Some((this.clone(), path)),
            Some((first_run, first_path)) if *first_run != this || this.is_none() => {
                if !options.allow_mixed_runs {
                    return Err(MergeError::MixedRuns {
                        first: first_path.display().to_string(),
                        other: path.display().to_string(),
                        what: run_difference(first_run.as_ref(), this.as_ref()),
                    });
                }
                mixed = true;
            }
            Some(_) => {}
        }
        match &target {
            None => target = Some(v.target.to_string()),
            Some(first) if **first != *v.target => notes.push(format!(
                "{} scanned `{}`, the first report `{}`: check that every shard scanned the same workspace",
                path.display(),
                quoted(&v.target),
                quoted(first)
            )),
            Some(_) => {}
        }
        // Everything the report lists, in this binary's types; then its summary checked
        // against it.
        let own: Vec<Finding> = v.findings.into_iter().map(finding).collect();
        let own_suppressed: Vec<(Finding, model::Suppression<'_>)> = v
            .suppressed
            .into_iter()
            .map(|s| (finding(s.finding), s.suppression))
            .collect();
        let skills: Vec<Artifact> = v.skills.into_iter().map(artifact).collect();
        let v = Report {
            findings: Vec::new(),
            suppressed: Vec::new(),
            skills: Vec::new(),
            ..v
        };
        if let Some(d) = disagreement(&v, &own, own_suppressed.len(), &skills) {
            return Err(invalid(
                path,
                format!(
                    "its summary disagrees with its contents: {d}. The report was edited or damaged after `scan-workspace` wrote it"
                ),
            ));
        }
        for mut r in v.repositories.into_owned() {
            let name = r.repo.clone().unwrap_or_default();
            // A part of a repository the shard plan split by skill: joined below.
            if r.split.is_some() {
                if let Some(other) = owner.get(&name) {
                    return Err(invalid(
                        path,
                        format!(
                            "repository `{name}` is a part of a split repository here, but whole in {}: the reports overlap",
                            other.display()
                        ),
                    ));
                }
                parts.entry(name).or_default().push((r, path.clone()));
                continue;
            }
            if let Some(other) = parts.get(&name).and_then(|p| p.first()) {
                return Err(invalid(
                    path,
                    format!(
                        "repository `{name}` is whole here, but split in {}: the reports overlap",
                        other.1.display()
                    ),
                ));
            }
            if let Some(other) = owner.insert(name.clone(), path.clone()) {
                return Err(invalid(
                    path,
                    format!(
                        "repository `{name}` is also in {}: the reports overlap (one shard twice, or shards of different --shard N)",
                        other.display()
                    ),
                ));
            }
            // A repository's error is a short text of the scan's own; a longer one is cut.
            r.error = r
                .error
                .map(|e| crate::text::truncate(&e, MAX_ERROR_LINE).into_owned());
            repos.push(r);
        }
        artifacts.extend(skills);
        agents.extend(v.agents.into_iter().map(artifact));
        evals.extend(v.evals.into_owned());
        findings.extend(own.into_iter().filter(|f| !RECOMPUTED.contains(&f.rule_id)));
        for (f, s) in own_suppressed {
            if RECOMPUTED.contains(&f.rule_id) {
                continue;
            }
            if no_ignores {
                reported_again += 1;
                findings.push(f);
            } else {
                suppressed.push(Suppressed {
                    finding: f,
                    kind: s.kind,
                    reason: s.reason.into_owned(),
                });
            }
        }
        // Every shard walked the same workspace folder: its hidden entries are the same.
        hidden = hidden.max(v.summary.hidden_entries_skipped);
    }
    let Some(target) = target else {
        return Err(invalid(first, "no report"));
    };
    check_shards(&shards)?;
    for (name, list) in parts {
        repos.push(join_parts(&name, list)?);
    }
    if mixed {
        notes.push(format!(
            "--allow-mixed-runs: the {} reports are not all of one run; the merged report carries no run identity, and a repository that one run's shard plan put in a shard taken from another run is in none of them, so it is missing from this report without a word: the merged report lists {} repositories, compare it with the workspace",
            paths.len(),
            repos.len()
        ));
    }
    if signed > 0 && options.key.is_none() {
        notes.push(format!(
            "{signed} report(s) carry a signature, but {} is not set: signatures not verified",
            signature::KEY_ENV
        ));
    }
    if no_ignores {
        notes.push(format!(
            "--no-ignores: {reported_again} finding(s) the shards suppressed or accepted are reported again"
        ));
    }
    artifacts.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some(w) = artifacts.windows(2).find(|w| w[0].path == w[1].path) {
        return Err(invalid(
            first,
            format!(
                "skill `{}` is in two reports: the reports overlap (one shard twice?)",
                quoted(&w[0].path)
            ),
        ));
    }
    agents.sort_by(|a, b| a.path.cmp(&b.path));
    evals.sort_by(|a, b| a.path.cmp(&b.path));
    repos.sort_by(|a, b| a.repo.cmp(&b.repo).then(a.path.cmp(&b.path)));
    let coverage = crate::scan::summary::coverage(&artifacts, Mode::Workspace);
    let (files, bytes) = crate::inventory::totals(&artifacts);
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
        listing: None,
        // One run: the identity of its unsharded scan, which this merge stands for.
        run: match run {
            Some((Some(r), _)) if !mixed => Some(r.unsharded()),
            _ => None,
        },
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
