//! `skillguard plan`: a shard plan for a workspace ([`crate::shardplan`]), written with `-o`
//! (atomically) or to stdout, and `--list K`: the repositories shard K scans, one per line,
//! so a CI job clones only those.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use super::{Error, ExitStatus};
use crate::shardplan::{CostKind, FILE_COST, ShardPlan};

#[derive(Debug, Args)]
pub struct PlanCmd {
    /// Folder of cloned repositories to plan for (not with --plan).
    #[arg(value_name = "WORKSPACE", required_unless_present = "plan")]
    pub dir: Option<PathBuf>,
    /// How many shards (1 to 100000).
    #[arg(
        long,
        value_name = "N",
        required_unless_present = "plan",
        conflicts_with = "plan",
        value_parser = clap::value_parser!(u64).range(1..=crate::discover::MAX_SHARDS)
    )]
    pub shards: Option<u64>,
    /// Weigh each repository by what an earlier run's JSON report (`scan-workspace --format
    /// json`, or a merge) scanned there: its bytes plus 4 KiB per file. Repositories the
    /// report does not hold keep their bytes on disk.
    #[arg(long, value_name = "REPORT.json", conflicts_with = "plan")]
    pub weights: Option<PathBuf>,
    /// Write the plan to this file (atomically) instead of stdout.
    #[arg(
        short = 'o',
        long = "output",
        value_name = "FILE",
        conflicts_with = "plan"
    )]
    pub output: Option<PathBuf>,
    /// Read this plan instead of making one (with --list).
    #[arg(
        long,
        value_name = "PLAN.json",
        conflicts_with = "dir",
        requires = "list"
    )]
    pub plan: Option<PathBuf>,
    /// Print the repositories of shard K (1-based), one per line in name order, control
    /// characters escaped: what a job running `scan-workspace --plan FILE --shard K` clones.
    #[arg(long, value_name = "K")]
    pub list: Option<u64>,
}

/// Costs by repository, and by skill folder of each repository.
type Weights = (BTreeMap<String, u64>, BTreeMap<String, Vec<(String, u64)>>);

/// Per-repository costs from a JSON report: the bytes of its skills' and agents' files plus
/// [`FILE_COST`] per file, by the repository folder each path starts with; and the same for
/// each skill folder below a repository root (for a repository the plan splits).
fn report_costs(path: &Path) -> Result<Weights, Error> {
    let max = crate::merge::MAX_REPORT;
    let bad = |m: String| Error::Usage(format!("--weights {}: {m}", path.display()));
    let f = crate::fsutil::open_named(path).map_err(|e| bad(e.to_string()))?;
    let mut limited = f.take(max + 1);
    let parsed: Result<crate::report::model::Report<'static>, _> =
        serde_json::from_reader(std::io::BufReader::with_capacity(1 << 16, &mut limited));
    if limited.limit() == 0 {
        return Err(bad(format!("larger than {max} bytes")));
    }
    let report = match parsed {
        Ok(r) if r.is_current() => r,
        Ok(_) => return Err(bad("not a skillguard JSON report of version 1".into())),
        Err(e) => {
            return Err(bad(format!(
                "not a skillguard JSON report of version 1: {}",
                crate::text::sanitize_line(&crate::text::truncate(&e.to_string(), 400))
            )));
        }
    };
    if report.mode != crate::discover::Mode::Workspace.as_str() {
        return Err(bad(format!(
            "a `{}` scan; give the report of a `scan-workspace`",
            crate::text::sanitize_line(&report.mode)
        )));
    }
    let mut costs: BTreeMap<String, u64> = BTreeMap::new();
    for r in report.repositories.iter() {
        if let Some(name) = &r.repo {
            costs.insert(name.clone(), 0);
        }
    }
    let mut skills: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
    let entries = report.skills.iter().map(|e| (e, true));
    for (e, is_skill) in entries.chain(report.agents.iter().map(|e| (e, false))) {
        let a = &e.artifact;
        let (repo, below) = a.path.split_once('/').unwrap_or((&a.path, ""));
        if let Some(c) = costs.get_mut(repo) {
            let files = u64::try_from(a.files.len()).unwrap_or(u64::MAX);
            let cost = a
                .total_bytes()
                .saturating_add(files.saturating_mul(FILE_COST));
            *c = c.saturating_add(cost);
            if is_skill && !below.is_empty() {
                skills
                    .entry(repo.to_owned())
                    .or_default()
                    .push((below.to_owned(), cost));
            }
        }
    }
    for v in skills.values_mut() {
        v.sort();
        v.dedup_by(|a, b| a.0 == b.0);
    }
    Ok((costs, skills))
}

/// `skillguard plan`.
pub(super) fn run(
    cmd: &PlanCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let plan = match (&cmd.plan, &cmd.dir, cmd.shards) {
        (Some(path), _, _) => ShardPlan::read(path).map_err(|e| Error::Usage(e.to_string()))?,
        (None, Some(dir), Some(n)) => {
            let (repos, _) = crate::discover::workspace_listing(dir)?;
            let (from_report, report_skills) = match &cmd.weights {
                Some(p) => {
                    let (c, s) = report_costs(p)?;
                    (Some(c), s)
                }
                None => (None, BTreeMap::new()),
            };
            let mut costs: BTreeMap<String, u64> = BTreeMap::new();
            let mut on_disk = 0usize;
            for r in &repos {
                let cost = match from_report.as_ref().and_then(|c| c.get(r)) {
                    Some(c) => *c,
                    None => {
                        on_disk += 1;
                        crate::shardplan::disk_cost(&crate::names::path_of(dir, r))
                    }
                };
                costs.insert(r.clone(), cost);
            }
            if from_report.is_some() && on_disk > 0 {
                writeln!(
                    stderr,
                    "skillguard: {on_disk} repository(ies) not in the --weights report are weighed by their bytes on disk"
                )?;
            }
            let kind = if from_report.is_some() {
                CostKind::Report
            } else {
                CostKind::Bytes
            };
            // Repositories costlier than a mean shard are split by skill, weighed as the
            // repository is: by the report's skills, or by their bytes on disk.
            let split = crate::shardplan::to_split(&costs, n);
            let weighed: BTreeSet<String> = split
                .iter()
                .filter(|r| from_report.as_ref().is_some_and(|c| c.contains_key(*r)))
                .cloned()
                .collect();
            let on_disk: BTreeSet<String> = split.difference(&weighed).cloned().collect();
            let mut skills = crate::shardplan::skill_costs(dir, &on_disk)?;
            skills.extend(
                report_skills
                    .into_iter()
                    .filter(|(r, _)| weighed.contains(r)),
            );
            ShardPlan::new(repos, &costs, &skills, kind, n)
        }
        _ => {
            return Err(Error::Usage(
                "give WORKSPACE and --shards N, or --plan FILE".into(),
            ));
        }
    };
    if cmd.plan.is_none() {
        let bytes = plan.to_bytes();
        match &cmd.output {
            Some(out) => {
                crate::fsutil::write_atomic(out, |w| w.write_all(&bytes)).map_err(|source| {
                    Error::Output {
                        path: out.display().to_string(),
                        source,
                    }
                })?;
            }
            None if cmd.list.is_none() => stdout.write_all(&bytes)?,
            None => {}
        }
        summary(&plan, stderr)?;
    }
    if let Some(k) = cmd.list {
        if plan.shard(k).is_none() {
            return Err(Error::Usage(format!(
                "--list {k}: the plan has shards 1 to {}",
                plan.shards
            )));
        }
        for r in plan.repositories_of(k) {
            writeln!(stdout, "{}", crate::text::sanitize_line(r))?;
        }
    }
    Ok(ExitStatus::Clean)
}

/// What a new plan gives: shards, empty ones, the balance, the repositories split by skill,
/// and the units costlier than a mean shard.
fn summary(plan: &ShardPlan, stderr: &mut dyn Write) -> Result<(), Error> {
    let empty = plan.plan.iter().filter(|s| s.units.is_empty()).count();
    let units = plan.plan.iter().map(|s| s.units.len()).sum::<usize>();
    writeln!(
        stderr,
        "skillguard: {} repositories, {units} unit(s) in {} shard(s) ({empty} empty); slowest shard / mean = {:.2}",
        plan.repositories.len(),
        plan.shards,
        plan.balance()
    )?;
    let split: BTreeSet<&str> = plan
        .plan
        .iter()
        .flat_map(|s| &s.units)
        .filter(|u| u.skill.is_some())
        .map(|u| u.repository.as_str())
        .collect();
    if !split.is_empty() {
        let named: Vec<String> = split
            .iter()
            .take(5)
            .map(|r| crate::text::sanitize_line(r).into_owned())
            .collect();
        writeln!(
            stderr,
            "skillguard: {} repository(ies) split by skill ({}{}): each shard holding a part reads all of it and analyses its own skills",
            split.len(),
            named.join(", "),
            if split.len() > 5 { ", …" } else { "" }
        )?;
    }
    let large = plan.large();
    if !large.is_empty() {
        let named: Vec<String> = large
            .iter()
            .take(5)
            .map(|u| crate::text::sanitize_line(&u.name()).into_owned())
            .collect();
        writeln!(
            stderr,
            "skillguard: {} unit(s) cost more than the mean shard ({}{}): a unit is never divided, so it bounds the slowest shard; more shards will not make it faster",
            large.len(),
            named.join(", "),
            if large.len() > 5 { ", …" } else { "" }
        )?;
    }
    Ok(())
}
