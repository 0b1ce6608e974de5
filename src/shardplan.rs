//! Shard plans (`skillguard plan WORKSPACE --shards N`): the repositories of a workspace,
//! each with a cost, assigned to N shards greedily, the costliest first (longest processing
//! time first), so the slowest shard is at most 4/3 of the optimum and usually close to the
//! mean. `scan-workspace --plan FILE --shard K` then scans exactly shard K's repositories, and
//! `plan --plan FILE --list K` names them so a CI job clones only those (docs/ci.md).
//!
//! A unit is a repository: the checks of a repository need all of it (its agents' references
//! to its skills, its eval coverage, the harnesses it targets, shadowing and collisions
//! between its skills), so a repository is never split across shards.
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

/// One unit: a repository and its cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    pub repository: String,
    pub cost: u64,
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

/// Assigns `units` (repository, cost) to `n` shards: the costliest first (ties by name), each
/// to the shard of least cost so far (ties by the lowest K). Deterministic.
pub fn assign(mut units: Vec<Unit>, n: u64) -> Vec<Shard> {
    units.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.repository.cmp(&b.repository)));
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
        s.units.sort_by(|a, b| a.repository.cmp(&b.repository));
    }
    shards
}

impl ShardPlan {
    /// A plan of `n` shards for a workspace whose repositories are `repositories` (in name
    /// order) with these costs.
    pub fn new(
        repositories: Vec<String>,
        costs: &BTreeMap<String, u64>,
        kind: CostKind,
        n: u64,
    ) -> ShardPlan {
        let units = repositories
            .iter()
            .map(|r| Unit {
                repository: r.clone(),
                cost: costs.get(r).copied().unwrap_or(0),
            })
            .collect();
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

    /// The large repositories: those whose cost exceeds the mean shard cost (the total over
    /// N), costliest first. A repository is one unit, so each bounds the slowest shard from
    /// below whatever N is.
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
        large.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.repository.cmp(&b.repository)));
        large
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
        let mut placed: BTreeMap<&str, u64> = BTreeMap::new();
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
                if let Some(other) = placed.insert(&u.repository, k) {
                    return Err(format!(
                        "`{}` is in shard {other} and shard {k}",
                        shown(&u.repository)
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
            .find(|r| !placed.contains_key(r.as_str()))
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
        let missing: Vec<&Unit> = shard
            .iter()
            .filter(|u| !here.contains(u.repository.as_str()))
            .collect();
        if let Some(first) = missing.first() {
            return Err(format!(
                "repository `{}`{} of shard {k} is not in the workspace: clone what `skillguard plan --plan FILE --list {k}` lists",
                shown(&first.repository),
                more(missing.len())
            ));
        }
        Ok(())
    }
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
        costs
            .iter()
            .map(|(r, c)| Unit {
                repository: (*r).into(),
                cost: *c,
            })
            .collect()
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
        let mut p = ShardPlan::new(vec!["a".into(), "b".into()], &costs, CostKind::Bytes, 2);
        assert!(p.check().is_ok());
        p.plan[0].cost += 1;
        assert!(p.check().unwrap_err().contains("add up to"));
    }
}
