//! Shard plans (`skillguard plan WORKSPACE --shards N`): the repositories of a workspace,
//! each with a cost, assigned to N shards greedily, the costliest first (longest processing
//! time first), so the slowest shard is at most 4/3 of the optimum and usually close to the
//! mean. `scan-workspace --plan FILE --shard K` then scans exactly shard K's repositories, and
//! `plan --plan FILE --list K` names them so a CI job clones only those (docs/ci.md).
//!
//! A unit is a repository, or, for a repository costlier than a mean shard (a monorepo), one
//! of its skills or its remainder (its files outside those skills and its repository-level
//! findings). A repository's checks need all of it (its agents' references to its skills,
//! its eval coverage, the harnesses it targets, shadowing, nesting and collisions between its
//! skills), so every shard holding a part of a split repository walks and reads all of it,
//! but runs the costly content rules only on its own skills and reports only what it owns
//! ([`crate::discover::PlanShard::owns`]); `merge` joins the parts
//! ([`crate::merge`]), and the result is the unsharded scan's, byte for byte
//! (`tests/shard_plan.rs`).
//!
//! The cost of a repository is, by default, the bytes of its regular files on disk (`.git`
//! left out, links not followed, at most [`MAX_COST_ENTRIES`] entries counted); with
//! `--weights REPORT.json`, what an earlier run's JSON report says it scanned there: the
//! bytes of its skills' files plus [`FILE_COST`] per file (a report carries no timings:
//! output is deterministic). A repository the report does not hold keeps its bytes on disk.
//!
//! The plan file is JSON ([`ShardPlan`]): its version, the workspace listing digest and the
//! repository names it was made for (a plan for another workspace is refused, naming the
//! difference), N, and each shard's repositories and total cost. The file is an operator's,
//! but its contents are checked: read up to [`MAX_PLAN`] bytes, every field validated, the
//! listing digest recomputed from the names, each repository in exactly one shard.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::discover::MAX_SHARDS;

/// The version of the plan file format.
pub const VERSION: u32 = 1;

/// The largest plan file read.
pub const MAX_PLAN: u64 = 256 * 1024 * 1024;

/// Entries (files and folders) of one repository counted for its cost on disk; past it the
/// count stops (the cost is then a lower bound, still deterministic for one tree).
pub const MAX_COST_ENTRIES: usize = 10_000_000;

/// The cost of one file scanned, in bytes, added to its size for `--weights`: reading,
/// parsing and checking a file costs something whatever its size.
pub const FILE_COST: u64 = 4096;

/// How units were weighed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CostKind {
    /// Bytes of the regular files on disk.
    Bytes,
    /// Bytes and files scanned, from an earlier run's JSON report.
    Report,
}

/// A shard plan (the file `skillguard plan -o` writes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardPlan {
    pub version: u32,
    /// The SHA-256 of the workspace listing the plan was made for
    /// ([`crate::discover::workspace_listing`]).
    pub workspace: String,
    /// The repositories of that workspace, in name order.
    pub repositories: Vec<String>,
    pub cost: CostKind,
    /// N.
    pub shards: u64,
    /// Shard 1 to N, in order.
    pub plan: Vec<Shard>,
}

/// One shard of a plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shard {
    /// K, 1-based.
    pub shard: u64,
    /// The sum of its units' costs.
    pub cost: u64,
    /// Its repositories, in name order.
    pub units: Vec<Unit>,
}

/// One unit: a repository, or a skill folder of a split repository, and its cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub repository: String,
    /// A skill folder of a split repository, relative to the repository root. A split
    /// repository also has one unit without `skill`: its remainder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    pub cost: u64,
}

impl Unit {
    /// A whole repository (or a split repository's remainder).
    pub fn repository(repository: &str, cost: u64) -> Unit {
        Unit {
            repository: repository.to_owned(),
            skill: None,
            cost,
        }
    }

    /// The order of units in a shard: by repository, its remainder first, then by skill.
    fn key(&self) -> (&str, Option<&str>) {
        (&self.repository, self.skill.as_deref())
    }

    /// The unit as named in a summary: `repo` or `repo/skill`.
    pub fn name(&self) -> String {
        match &self.skill {
            Some(s) => format!("{}/{s}", self.repository),
            None => self.repository.clone(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Invalid { path: String, message: String },
}

/// A name as shown in an error: on one line, control characters escaped.
fn shown(s: &str) -> String {
    crate::text::sanitize_line(&crate::text::truncate(s, 200)).into_owned()
}

/// The digest of a listing of repository names, as [`crate::discover::workspace_listing`]
/// computes it.
pub fn listing_digest(names: &[String]) -> String {
    let mut bytes = Vec::new();
    for n in names {
        bytes.extend_from_slice(n.as_bytes());
        bytes.push(0);
    }
    crate::hash::sha256_hex(&bytes)
}

/// The bytes of the regular files under `root` (the folder a link at the top points to;
/// below it links are not followed), `.git` left out, at most [`MAX_COST_ENTRIES`] entries.
pub fn disk_cost(root: &Path) -> u64 {
    let mut total = 0u64;
    let mut seen = 0usize;
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            seen += 1;
            if seen > MAX_COST_ENTRIES {
                return total;
            }
            let Ok(ft) = e.file_type() else { continue };
            if ft.is_dir() {
                if e.file_name() != ".git" {
                    stack.push(e.path());
                }
            } else if ft.is_file() {
                total = total.saturating_add(e.metadata().map_or(0, |m| m.len()));
            }
        }
    }
    total
}

/// Assigns `units` to `n` shards: the costliest first (ties by name), each to the shard of
/// least cost so far (ties by the lowest K). Deterministic.
pub fn assign(mut units: Vec<Unit>, n: u64) -> Vec<Shard> {
    units.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.key().cmp(&b.key())));
    let mut shards: Vec<Shard> = (1..=n)
        .map(|k| Shard {
            shard: k,
            cost: 0,
            units: Vec::new(),
        })
        .collect();
    // A min-heap of (cost, index): the least loaded shard, the lowest K among equals.
    let mut heap: BinaryHeap<std::cmp::Reverse<(u64, usize)>> = (0..shards.len())
        .map(|i| std::cmp::Reverse((0, i)))
        .collect();
    for u in units {
        let Some(std::cmp::Reverse((cost, i))) = heap.pop() else {
            break;
        };
        let cost = cost.saturating_add(u.cost);
        shards[i].cost = cost;
        shards[i].units.push(u);
        heap.push(std::cmp::Reverse((cost, i)));
    }
    for s in &mut shards {
        s.units.sort_by(|a, b| a.key().cmp(&b.key()));
    }
    shards
}

/// The repositories to split by skill for `n` shards: those costlier than a mean shard (the
/// total over N), which would otherwise bound the slowest shard. None for one shard.
pub fn to_split(costs: &BTreeMap<String, u64>, n: u64) -> BTreeSet<String> {
    if n < 2 {
        return BTreeSet::new();
    }
    let total = costs.values().fold(0u64, |a, c| a.saturating_add(*c));
    let mean = total / n;
    costs
        .iter()
        .filter(|(_, c)| **c > mean)
        .map(|(r, _)| r.clone())
        .collect()
}

/// The skill folders of the repositories `repos` of the workspace `dir`, as a workspace scan
/// with default walk options finds them, each with the bytes of its files (a nested skill's
/// files count for it, not for the skill around it): repository → (folder relative to the
/// repository, bytes). A skill at a repository's root is not listed (it stays with the
/// remainder).
pub fn skill_costs(
    dir: &Path,
    repos: &BTreeSet<String>,
) -> Result<BTreeMap<String, Vec<(String, u64)>>, crate::discover::DiscoverError> {
    use crate::discover;
    let mut out: BTreeMap<String, Vec<(String, u64)>> = BTreeMap::new();
    if repos.is_empty() {
        return Ok(out);
    }
    let opts = discover::WalkOptions {
        only: Some(discover::PlanShard {
            repos: repos.clone(),
            listing: String::new(),
            digest: String::new(),
            split: BTreeMap::new(),
        }),
        ..discover::WalkOptions::default()
    };
    let plan = discover::plan_workspace(dir, &opts)?;
    let mut groups = plan.groups;
    let (entries, _) = discover::walk(&groups, &plan.starts, &plan.link_starts, &opts);
    discover::add_plugin_roots(&mut groups, &entries);
    for sd in discover::group_skills(&entries, &groups) {
        let Some((repo, skill)) = sd.rel.split_once('/') else {
            continue;
        };
        if !repos.contains(repo) {
            continue;
        }
        let bytes = sd
            .members
            .iter()
            .filter_map(|&i| entries.get(i))
            .fold(0u64, |a, e| a.saturating_add(e.size));
        out.entry(repo.to_owned())
            .or_default()
            .push((skill.to_owned(), bytes));
    }
    for v in out.values_mut() {
        v.sort();
        v.dedup_by(|a, b| a.0 == b.0);
    }
    Ok(out)
}

impl ShardPlan {
    /// A plan of `n` shards for a workspace whose repositories are `repositories` (in name
    /// order) with these costs; a repository in `skills` is split into those skills (folder
    /// relative to the repository, cost) and its remainder, which costs what its skills leave.
    pub fn new(
        repositories: Vec<String>,
        costs: &BTreeMap<String, u64>,
        skills: &BTreeMap<String, Vec<(String, u64)>>,
        kind: CostKind,
        n: u64,
    ) -> ShardPlan {
        let mut units = Vec::with_capacity(repositories.len());
        for r in &repositories {
            let cost = costs.get(r).copied().unwrap_or(0);
            match skills.get(r) {
                Some(list) if !list.is_empty() => {
                    let in_skills = list.iter().fold(0u64, |a, (_, c)| a.saturating_add(*c));
                    units.push(Unit::repository(r, cost.saturating_sub(in_skills)));
                    units.extend(list.iter().map(|(skill, c)| Unit {
                        repository: r.clone(),
                        skill: Some(skill.clone()),
                        cost: *c,
                    }));
                }
                _ => units.push(Unit::repository(r, cost)),
            }
        }
        ShardPlan {
            version: VERSION,
            workspace: listing_digest(&repositories),
            repositories,
            cost: kind,
            shards: n,
            plan: assign(units, n),
        }
    }

    /// The plan file's bytes: pretty JSON and a final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(self).unwrap_or_default();
        v.push(b'\n');
        v
    }

    /// The plan's digest: SHA-256 of its canonical (compact) JSON, so that a plan reformatted
    /// by hand is the same plan.
    pub fn digest(&self) -> String {
        crate::hash::sha256_hex(&serde_json::to_vec(self).unwrap_or_default())
    }

    /// Shard K (1-based), if the plan has it.
    pub fn shard(&self, k: u64) -> Option<&Shard> {
        k.checked_sub(1)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| self.plan.get(i))
    }

    /// The slowest shard's cost divided by the mean shard cost (1.0 is a perfect balance).
    pub fn balance(&self) -> f64 {
        let total: u64 = self
            .plan
            .iter()
            .map(|s| s.cost)
            .fold(0, u64::saturating_add);
        let max = self.plan.iter().map(|s| s.cost).max().unwrap_or(0);
        if total == 0 {
            return 1.0;
        }
        max as f64 * self.shards as f64 / total as f64
    }

    /// The large units: those whose cost exceeds the mean shard cost (the total over N),
    /// costliest first. A unit is never divided, so each bounds the slowest shard from below
    /// whatever N is.
    pub fn large(&self) -> Vec<&Unit> {
        let total: u64 = self
            .plan
            .iter()
            .map(|s| s.cost)
            .fold(0, u64::saturating_add);
        let mean = total / self.shards.max(1);
        let mut large: Vec<&Unit> = self
            .plan
            .iter()
            .flat_map(|s| &s.units)
            .filter(|u| u.cost > mean)
            .collect();
        large.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.key().cmp(&b.key())));
        large
    }

    /// The repositories shard K needs (every repository one of its units is in), in name
    /// order, each once.
    pub fn repositories_of(&self, k: u64) -> Vec<&str> {
        let units = self.shard(k).map(|s| &s.units[..]).unwrap_or_default();
        let set: BTreeSet<&str> = units.iter().map(|u| u.repository.as_str()).collect();
        set.into_iter().collect()
    }

    /// Shard K as the walk and the run identity use it: its repositories, and for each split
    /// repository it holds a part of, which skills it owns and whether it holds the remainder.
    pub fn walk_shard(&self, k: u64) -> crate::discover::PlanShard {
        use crate::discover::SplitRepo;
        let mut split: BTreeMap<String, SplitRepo> = BTreeMap::new();
        for s in &self.plan {
            for u in &s.units {
                if let Some(skill) = &u.skill {
                    let rel = format!("{}/{skill}", u.repository);
                    let e = split.entry(u.repository.clone()).or_default();
                    if s.shard == k {
                        e.owned.insert(rel.clone());
                    }
                    e.planned.insert(rel);
                }
            }
        }
        let mine = self.shard(k).map(|s| &s.units[..]).unwrap_or_default();
        for u in mine.iter().filter(|u| u.skill.is_none()) {
            if let Some(e) = split.get_mut(&u.repository) {
                e.rest = true;
            }
        }
        let repos: BTreeSet<String> = mine.iter().map(|u| u.repository.clone()).collect();
        split.retain(|r, _| repos.contains(r));
        crate::discover::PlanShard {
            repos,
            listing: self.workspace.clone(),
            digest: self.digest(),
            split,
        }
    }

    /// Reads and checks a plan file (a link to it is followed: it is the operator's).
    pub fn read(path: &Path) -> Result<ShardPlan, PlanError> {
        let name = path.display().to_string();
        let read_err = |source| PlanError::Read {
            path: name.clone(),
            source,
        };
        let invalid = |message: String| PlanError::Invalid {
            path: name.clone(),
            message,
        };
        let f = crate::fsutil::open_named(path).map_err(read_err)?;
        let mut bytes = Vec::new();
        f.take(MAX_PLAN + 1)
            .read_to_end(&mut bytes)
            .map_err(read_err)?;
        if bytes.len() as u64 > MAX_PLAN {
            return Err(invalid(format!("larger than {MAX_PLAN} bytes")));
        }
        let plan: ShardPlan = serde_json::from_slice(&bytes).map_err(|e| {
            invalid(format!(
                "not a shard plan of version {VERSION} (`skillguard plan WORKSPACE --shards N -o FILE`): {}",
                shown(&e.to_string())
            ))
        })?;
        plan.check().map_err(invalid)?;
        Ok(plan)
    }

    /// What is wrong with a plan, if anything.
    fn check(&self) -> Result<(), String> {
        if self.version != VERSION {
            return Err(format!(
                "a shard plan of version {}; this skillguard reads version {VERSION}",
                self.version
            ));
        }
        if self.shards == 0 || self.shards > MAX_SHARDS {
            return Err(format!(
                "`shards` is {}: need 1 <= N <= {MAX_SHARDS}",
                self.shards
            ));
        }
        if self.plan.len() as u64 != self.shards {
            return Err(format!(
                "`shards` is {}, but the plan lists {} shard(s)",
                self.shards,
                self.plan.len()
            ));
        }
        if !self.repositories.windows(2).all(|w| w[0] < w[1]) {
            return Err("`repositories` is not in name order, or names one twice".into());
        }
        if let Some(bad) = self
            .repositories
            .iter()
            .find(|r| r.is_empty() || r.starts_with('.') || r.contains(['/', '\0']))
        {
            return Err(format!("`{}` is not a repository name", shown(bad)));
        }
        if listing_digest(&self.repositories) != self.workspace {
            return Err(
                "`workspace` is not the digest of `repositories`: the plan was edited".into(),
            );
        }
        let known: BTreeSet<&str> = self.repositories.iter().map(String::as_str).collect();
        let mut placed: BTreeMap<(&str, Option<&str>), u64> = BTreeMap::new();
        for (i, s) in self.plan.iter().enumerate() {
            let k = i as u64 + 1;
            if s.shard != k {
                return Err(format!(
                    "shard {k} of the plan says it is shard {}",
                    s.shard
                ));
            }
            let mut cost = 0u64;
            for u in &s.units {
                if !known.contains(u.repository.as_str()) {
                    return Err(format!(
                        "shard {k} holds `{}`, which is not in `repositories`",
                        shown(&u.repository)
                    ));
                }
                if let Some(skill) = &u.skill
                    && !is_skill_folder(skill)
                {
                    return Err(format!(
                        "shard {k} holds skill `{}` of `{}`: not a folder path inside the repository",
                        shown(skill),
                        shown(&u.repository)
                    ));
                }
                if let Some(other) = placed.insert(u.key(), k) {
                    return Err(format!(
                        "`{}` is in shard {other} and shard {k}",
                        shown(&u.name())
                    ));
                }
                cost = cost.saturating_add(u.cost);
            }
            if cost != s.cost {
                return Err(format!(
                    "shard {k}'s `cost` is {}, its units add up to {cost}",
                    s.cost
                ));
            }
        }
        if let Some(r) = self
            .repositories
            .iter()
            .find(|r| !placed.contains_key(&(r.as_str(), None)))
        {
            return Err(format!("`{}` is in no shard", shown(r)));
        }
        Ok(())
    }

    /// Is `workspace` (its repositories, in name order) one shard K of this plan can scan?
    /// Every repository of shard K must be there, and none that the plan does not know (a
    /// repository added since the plan was made would be scanned by no shard); the
    /// repositories of other shards may be absent (a job clones only its share).
    pub fn check_workspace(&self, k: u64, workspace: &[String]) -> Result<(), String> {
        let known: BTreeSet<&str> = self.repositories.iter().map(String::as_str).collect();
        let unknown: Vec<&String> = workspace
            .iter()
            .filter(|r| !known.contains(r.as_str()))
            .collect();
        if let Some(first) = unknown.first() {
            return Err(format!(
                "the plan was made for another workspace: repository `{}`{} is in the workspace but not in the plan; make the plan again (`skillguard plan`)",
                shown(first),
                more(unknown.len())
            ));
        }
        let here: BTreeSet<&str> = workspace.iter().map(String::as_str).collect();
        let shard = self
            .shard(k)
            .map(|s| s.units.as_slice())
            .unwrap_or_default();
        let missing: BTreeSet<&str> = shard
            .iter()
            .map(|u| u.repository.as_str())
            .filter(|r| !here.contains(r))
            .collect();
        if let Some(first) = missing.first() {
            return Err(format!(
                "repository `{}`{} of shard {k} is not in the workspace: clone what `skillguard plan --plan FILE --list {k}` lists",
                shown(first),
                more(missing.len())
            ));
        }
        Ok(())
    }
}

/// Is `s` a folder path below a repository root: `/`-separated, relative, no empty, `.` or
/// `..` component, no NUL?
fn is_skill_folder(s: &str) -> bool {
    !s.is_empty()
        && !s.contains('\0')
        && s.split('/').all(|c| !c.is_empty() && c != "." && c != "..")
}

/// `" and N more"` after the first of `count` names.
fn more(count: usize) -> String {
    if count > 1 {
        format!(" (and {} more)", count - 1)
    } else {
        String::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(costs: &[(&str, u64)]) -> Vec<Unit> {
        costs.iter().map(|(r, c)| Unit::repository(r, *c)).collect()
    }

    #[test]
    fn largest_first_to_the_least_loaded_shard() {
        let s = assign(
            units(&[("a", 5), ("b", 4), ("c", 3), ("d", 3), ("e", 3)]),
            2,
        );
        let names =
            |k: usize| -> Vec<&str> { s[k].units.iter().map(|u| u.repository.as_str()).collect() };
        // a→1, b→2, c→2 (4<5), d→1 (5<7), e→2 (7<8)... ties by name and lowest K.
        assert_eq!(names(0), ["a", "d"]);
        assert_eq!(names(1), ["b", "c", "e"]);
        assert_eq!((s[0].cost, s[1].cost), (8, 10));
    }

    #[test]
    fn more_shards_than_units_leaves_empty_shards() {
        let s = assign(units(&[("a", 1), ("b", 1)]), 4);
        assert_eq!(s.len(), 4);
        assert_eq!(s.iter().filter(|s| s.units.is_empty()).count(), 2);
    }

    #[test]
    fn an_edited_plan_is_refused() {
        let costs = BTreeMap::from([("a".to_string(), 3u64), ("b".to_string(), 1)]);
        let mut p = ShardPlan::new(
            vec!["a".into(), "b".into()],
            &costs,
            &BTreeMap::new(),
            CostKind::Bytes,
            2,
        );
        assert!(p.check().is_ok());
        p.plan[0].cost += 1;
        assert!(p.check().unwrap_err().contains("add up to"));
    }

    #[test]
    fn a_split_repository_has_its_remainder_and_folder_paths() {
        let costs = BTreeMap::from([("big".to_string(), 100u64), ("s".to_string(), 10)]);
        assert_eq!(to_split(&costs, 2), BTreeSet::from(["big".to_string()]));
        assert!(to_split(&costs, 1).is_empty());
        let skills = BTreeMap::from([(
            "big".to_string(),
            vec![
                ("skills/a".to_string(), 50u64),
                ("skills/b".to_string(), 40),
            ],
        )]);
        let p = ShardPlan::new(
            vec!["big".into(), "s".into()],
            &costs,
            &skills,
            CostKind::Bytes,
            2,
        );
        assert!(p.check().is_ok());
        // a (50) + s (10) | b (40) + the remainder (10: what the skills leave).
        assert_eq!((p.plan[0].cost, p.plan[1].cost), (60, 50));
        let w = p.walk_shard(2);
        assert_eq!(w.repos, BTreeSet::from(["big".to_string()]));
        let big = &w.split["big"];
        assert!(big.rest && big.owned.contains("big/skills/b") && big.planned.len() == 2);
        assert!(!w.owns_skill("big", "big/skills/a") && w.owns_skill("big", "big/skills/new"));
        let dirs: std::collections::HashSet<&str> =
            ["big/skills/a", "big/skills/b", "big/skills/a/inner"].into();
        assert!(!w.owns("big/skills/a/SKILL.md", &dirs));
        assert!(w.owns("big/skills/b/x/y.md", &dirs));
        assert!(w.owns("big/AGENTS.md", &dirs) && !p.walk_shard(1).owns("big/AGENTS.md", &dirs));
        // A nested skill the plan does not list belongs to the remainder's shard.
        assert!(w.owns("big/skills/a/inner/SKILL.md", &dirs));
        assert!(!p.walk_shard(1).owns("big/skills/a/inner/SKILL.md", &dirs));
        assert_eq!(p.repositories_of(1), ["big", "s"]);
        // Without its remainder, or with a skill outside the repository: refused.
        let mut q = p.clone();
        q.plan[1]
            .units
            .retain(|u| u.skill.is_some() || u.repository != "big");
        q.plan[1].cost = q.plan[1].units.iter().map(|u| u.cost).sum();
        assert!(q.check().unwrap_err().contains("`big` is in no shard"));
        let mut q = p.clone();
        q.plan[0].units[0].skill = Some("../elsewhere".into());
        assert!(q.check().unwrap_err().contains("not a folder path"));
        let mut q = p.clone();
        let twice = q.plan[0].units[0].clone();
        q.plan[1].units.push(twice);
        q.plan[1].cost += 50;
        assert!(q.check().unwrap_err().contains("shard 1 and shard 2"));
    }
}
