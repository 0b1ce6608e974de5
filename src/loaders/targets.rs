//! What a loader verdict weighs for the harnesses a repository targets
//! ([`crate::targets`] says which those are; docs/loaders.md, "Targets").
//!
//! A skill that a harness the repository ships to silently drops is a defect: high. A skill
//! that a harness it does not ship to would reject is portability: low, and info when the
//! cause is a frontmatter key only that loader rejects.

use std::collections::BTreeMap;

use crate::finding::{Finding, Severity};
use crate::inventory::Artifact;
use crate::rules::ids;
use crate::targets::RepoTargets;

/// The loaders that drop a skill for a rule's cause, where it is not every loader (the
/// divergence matrix of docs/loaders.md; Claude
/// Code does not validate the name's characters or its match with the folder, and lists
/// descriptions up to 1,536 characters). A finding of such a rule in a repository that
/// targets none of them is portability: low.
const DROPPED_BY: &[(&str, &[&str])] = &[
    (
        ids::NAME_INVALID_CHARS,
        &[
            "skills-ref",
            "vscode-copilot",
            "maf",
            "maf-1.18",
            "opencode",
        ],
    ),
    (
        ids::NAME_DIRECTORY_MISMATCH,
        &[
            "skills-ref",
            "vscode-copilot",
            "maf",
            "maf-1.18",
            "opencode",
        ],
    ),
    (
        ids::NAME_CONSECUTIVE_HYPHENS,
        &["skills-ref", "maf", "maf-1.18", "opencode"],
    ),
    (
        ids::NAME_LEADING_TRAILING_HYPHEN,
        &["skills-ref", "maf", "maf-1.18", "opencode"],
    ),
    (
        ids::DESCRIPTION_TOO_LONG,
        &[
            "skills-ref",
            "vscode-copilot",
            "codex",
            "maf",
            "maf-1.18",
            "opencode",
        ],
    ),
    (ids::YAML_STRICTYAML_INCOMPATIBLE, &["skills-ref"]),
];

/// The loaders a finding's cause matters to, when not every one.
fn dropped_by(f: &Finding) -> Option<&'static [&'static str]> {
    if f.rule_id == ids::LOADER_DIFFERENTIAL {
        return match f.anchor.as_str() {
            a if a.starts_with("field:maf:") => Some(&["maf", "maf-1.18"]),
            "field:skills-ref-cut" => Some(&["skills-ref"]),
            _ => None,
        };
    }
    DROPPED_BY
        .iter()
        .find(|(r, _)| *r == f.rule_id)
        .map(|(_, p)| *p)
}

/// A key only the validator rejects (`version:`, `argument-hint:`): the cause is portability
/// of metadata, not a skill that fails to work.
fn key_only(message: &str) -> bool {
    let m = message.to_ascii_lowercase();
    m.contains("unexpected fields in frontmatter") || m.contains("unknown key")
}

/// Weighs every `skill-excluded-by-harness` finding (and every `loader-differential` whose
/// dropping side it makes) by the targets of its repository: a
/// harness the repository does not target makes it portability (low; info for a key only
/// that loader rejects), and the message says which it is. Run before the consequences are
/// attached, so that a cause takes the severity of what it causes for the targets.
pub fn apply(findings: &mut [Finding], skills: &[Artifact], targets: &[RepoTargets]) {
    // Sample skills among a parent's resources: the drops are what their author wants.
    let samples: std::collections::BTreeSet<String> = findings
        .iter()
        .filter(|f| {
            f.rule_id == ids::SKILL_NESTED
                && f.anchor == crate::rules::inventory::NESTED_IN_RESOURCES
        })
        .filter_map(|f| f.skill_path.clone())
        .collect();
    for f in findings.iter_mut() {
        // Its form (frontmatter, name, loaders) is the sample's business, often a deliberately
        // broken one in a skill that tests skills; what it says and runs is still security's.
        let sample = f.skill_path.as_ref().is_some_and(|p| samples.contains(p));
        if !sample || f.category.starts_with("security") || f.severity == Severity::Info {
            continue;
        }
        f.severity = Severity::Info;
        if f.rule_id != ids::SKILL_NESTED {
            f.message.push_str(
                " It is a sample among its parent skill's resources (`skill-nested`): its form is informational.",
            );
        }
    }
    let repo_of = repos(skills);
    for f in findings.iter_mut() {
        let Some(t) = targets_of(f, &repo_of, targets) else {
            continue;
        };
        // "loaded by A, not loaded by B": a disagreement only harnesses the repository does
        // not target take part in on the dropping side is portability too.
        if f.rule_id == ids::LOADER_DIFFERENTIAL && f.anchor == "differential" {
            let dropping: Vec<String> = f
                .message
                .split_once("not loaded by ")
                .and_then(|(_, rest)| rest.split(';').next())
                .map(|l| l.split(", ").map(|p| p.trim().to_owned()).collect())
                .unwrap_or_default();
            if !dropping.is_empty() && dropping.iter().all(|p| !t.targets(p)) {
                f.severity = f.severity.min(Severity::Low);
                f.message.push_str(&format!(
                    " Portability only: no harness that drops it is a target of this repository (targets: {}).",
                    t.describe()
                ));
            }
            continue;
        }
        if let Some(loaders) = dropped_by(f) {
            if t.profiles.is_some()
                && !loaders.iter().any(|p| t.targets(p))
                && f.severity > Severity::Low
            {
                f.severity = Severity::Low;
                f.message.push_str(&format!(
                    " Portability only: it matters to {}, none of which this repository targets (targets: {}).",
                    loaders.join(", "),
                    t.describe()
                ));
            }
            continue;
        }
        if f.rule_id != ids::SKILL_EXCLUDED_BY_HARNESS {
            continue;
        }
        let Some(profile) = f.anchor.strip_prefix("excluded:") else {
            continue;
        };
        if t.targets(profile) {
            if t.profiles.is_some() {
                f.message
                    .push_str(&format!(" `{profile}` is a target of this repository."));
            }
            continue;
        }
        let sev = if key_only(&f.message) {
            Severity::Info
        } else {
            Severity::Low
        };
        if sev < f.severity {
            f.severity = sev;
        }
        f.message.push_str(&format!(
            " Portability only: this repository does not target `{profile}` (targets: {}; `--targets all` weighs every harness).",
            t.describe()
        ));
    }
}

/// The repository of every skill, by its path.
fn repos(skills: &[Artifact]) -> BTreeMap<&str, Option<&str>> {
    skills
        .iter()
        .map(|a| (a.path.as_str(), a.repo.as_deref()))
        .collect()
}

/// The targets of the repository a finding belongs to. A finding of no known skill takes the
/// scan's targets only when there is one set.
fn targets_of<'t>(
    f: &Finding,
    repo_of: &BTreeMap<&str, Option<&str>>,
    targets: &'t [RepoTargets],
) -> Option<&'t RepoTargets> {
    let repo = f
        .skill_path
        .as_deref()
        .and_then(|p| repo_of.get(p).copied())
        .flatten();
    crate::targets::of_repo(targets, repo)
}

/// A cause and its consequences carry one severity, and say so. After the consequences are
/// attached ([`super::attach_consequences`]), a cause that is more severe than every one of its
/// consequences (all harnesses dropping the skill, each weighed by the targets: portability)
/// keeps its severity only because its rule makes a harness this repository targets drop such
/// a skill wherever that harness loads it ([`DROPPED_BY`]); that harness does not read this
/// folder, so it is not among the consequences, and the message names it instead of leaving
/// "high" beside consequences that all say "portability only". (When no targeted harness
/// cares, [`apply`] has already made the cause portability.)
pub fn explain_causes(findings: &mut [Finding], skills: &[Artifact], targets: &[RepoTargets]) {
    let repo_of = repos(skills);
    for f in findings.iter_mut() {
        if f.consequences.is_empty() || f.category.starts_with("security") {
            continue;
        }
        let only_drops = f.consequences.iter().all(|c| {
            c.rule_id == ids::SKILL_EXCLUDED_BY_HARNESS || c.rule_id == ids::LOADER_DIFFERENTIAL
        });
        let worst = f.consequences.iter().map(|c| c.severity).max();
        if !only_drops || worst.is_none_or(|w| w >= f.severity) {
            continue;
        }
        let Some(loaders) = dropped_by(f) else {
            continue;
        };
        let Some(t) = targets_of(f, &repo_of, targets) else {
            continue;
        };
        let seen: Vec<&str> = f
            .consequences
            .iter()
            .filter_map(|c| c.profile.as_deref())
            .collect();
        let claimed: Vec<&str> = loaders
            .iter()
            .copied()
            .filter(|p| t.targets(p) && !seen.contains(p))
            .collect();
        if claimed.is_empty() {
            continue;
        }
        f.message.push_str(&format!(
            " It stays {}: {}, which this repository targets, {} such a skill from the folders {} (the consequences listed are the loaders that read this one).",
            f.severity.as_str(),
            claimed.join(", "),
            if claimed.len() == 1 { "drops" } else { "drop" },
            if claimed.len() == 1 { "it loads" } else { "they load" },
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_that_only_some_loaders_care_about() {
        let f = Finding::new(
            ids::NAME_DIRECTORY_MISMATCH,
            String::new(),
            crate::finding::Location::file("a/SKILL.md".to_owned()),
        );
        assert!(dropped_by(&f).is_some_and(|p| p.contains(&"skills-ref")));
        assert!(dropped_by(&f).is_some_and(|p| !p.contains(&"claude-code")));
        let f = Finding::new(
            ids::FRONTMATTER_MISSING,
            String::new(),
            crate::finding::Location::file("a/SKILL.md".to_owned()),
        );
        assert!(dropped_by(&f).is_none());
    }
}
