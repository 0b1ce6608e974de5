//! The scan's summaries: AgentEval-compatible coverage counts and one summary per
//! repository (or scanned tree).

use std::collections::BTreeMap;

use crate::discover::{Group, Mode};
use crate::finding::{Finding, SeverityCounts};
use crate::inventory::Artifact;
use crate::result::{ConventionSummary, Coverage, RepoSummary};

/// Coverage counts over every artifact.
pub fn coverage(artifacts: &[Artifact], mode: Mode) -> Coverage {
    let mut coverage = Coverage {
        discovered: artifacts.len(),
        ..Coverage::default()
    };
    for a in artifacts {
        if a.excluded {
            coverage.silently_excluded_count += 1;
            continue;
        }
        coverage.skill_count += 1;
        if a.resource_count() > 0 {
            coverage.with_resources += 1;
        }
        if a.script_count() > 0 {
            coverage.with_scripts += 1;
        }
    }
    if coverage.discovered > 0 || mode == Mode::Path {
        coverage
            .stage_histogram
            .insert("load".into(), coverage.skill_count);
        coverage
            .stage_histogram
            .insert("read".into(), coverage.with_resources);
        coverage
            .stage_histogram
            .insert("run".into(), coverage.with_scripts);
    }
    coverage
}

/// One summary per group (repository, or the scanned tree).
pub(super) fn repos(
    groups: &[Group],
    artifacts: &[Artifact],
    findings: &[Finding],
    mode: Mode,
) -> Vec<RepoSummary> {
    // Workspace: partition once by the repository folder (the first path segment).
    let mut by_repo: BTreeMap<&str, (Vec<&Artifact>, Vec<&Finding>)> = BTreeMap::new();
    if groups.len() > 1 {
        for a in artifacts {
            let k = a.path.split('/').next().unwrap_or("");
            by_repo.entry(k).or_default().0.push(a);
        }
        for f in findings {
            let k = f.location.path.split('/').next().unwrap_or("");
            by_repo.entry(k).or_default().1.push(f);
        }
    }
    groups
        .iter()
        .map(|g| {
            let (arts, fs): (Vec<&Artifact>, Vec<&Finding>) = if groups.len() == 1 {
                (artifacts.iter().collect(), findings.iter().collect())
            } else {
                by_repo
                    .get(g.boundary_rel.as_str())
                    .cloned()
                    .unwrap_or_default()
            };
            RepoSummary {
                repo: g.repo.clone(),
                path: g.boundary_rel.clone(),
                skills: arts.len(),
                excluded: arts.iter().filter(|a| a.excluded).count(),
                findings: fs.len(),
                counts: SeverityCounts::from_findings(fs.iter().copied()),
                conventions: conventions(g, &arts),
                absent_conventions: if mode == Mode::Path {
                    Vec::new()
                } else {
                    g.absent_conventions
                        .iter()
                        .map(|s| (*s).to_owned())
                        .collect()
                },
                error: g.error.clone(),
                split: None,
            }
        })
        .collect()
}

/// The skills under each convention root of a group, sorted by root path.
fn conventions(g: &Group, arts: &[&Artifact]) -> Vec<ConventionSummary> {
    let mut conventions: Vec<ConventionSummary> = g
        .convention_roots
        .iter()
        .map(|(root, c)| ConventionSummary {
            convention: c.path.to_owned(),
            path: root.clone(),
            skills: arts
                .iter()
                .filter(|a| {
                    a.convention.as_deref() == Some(c.path)
                        && a.path.starts_with(root.as_str())
                        && matches!(a.path.as_bytes().get(root.len()), None | Some(b'/'))
                })
                .count(),
        })
        .collect();
    conventions.sort_by(|a, b| a.path.cmp(&b.path));
    conventions
}
