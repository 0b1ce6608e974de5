//! Walk issues into findings: links and special files that belong to no skill, and
//! every walk issue attached to the skill that contains its path.

use std::collections::BTreeMap;

use crate::discover::{self, EntryKind, Group, WalkIssue};
use crate::finding::{Finding, Location, Severity};
use crate::inventory::{Artifact, LinkState};
use crate::rules::ids;

/// Is `rel` somewhere skills are expected: a scanned skills root, or inside a
/// convention root of a repository?
pub(super) fn where_skills_live(g: &Group, rel: &str) -> bool {
    !g.conventions_apply
        || g.convention_roots.iter().any(|(root, _)| {
            rel.starts_with(root.as_str()) && rel.as_bytes().get(root.len()) == Some(&b'/')
        })
}

fn issue_to_finding(issue: &WalkIssue, owner: Option<(&str, &str)>) -> Finding {
    let f = Finding::new(
        issue.rule,
        issue.message.clone(),
        Location::file(issue.rel.clone()),
    );
    let anchor = format!("walk:{}", issue.rel);
    match owner {
        Some((name, path)) => f.for_skill(Some(name), Some(path), &anchor),
        None => f.for_skill(None, None, &anchor),
    }
}

/// Links and special files that belong to no skill: a link out of the boundary
/// anywhere in the walked tree, a dangling link where skills are expected (a
/// scanned skills root, a convention root), and FIFOs, sockets and devices.
pub(super) fn stray_issues(
    entries: &[discover::Entry],
    skills: &[discover::SkillDir],
    groups: &[discover::Group],
) -> Vec<WalkIssue> {
    let mut member = vec![false; entries.len()];
    for sd in skills {
        for &i in &sd.members {
            member[i] = true;
        }
    }
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if member[i] {
            continue;
        }
        let g = groups.get(e.group);
        let where_skills_live = g.is_some_and(|g| where_skills_live(g, &e.rel));
        let shown = crate::text::sanitize_line(&e.rel).into_owned();
        match &e.kind {
            EntryKind::Symlink(info) if info.state == LinkState::EscapesRoot => out.push(WalkIssue {
                rule: ids::SYMLINK_ESCAPES_ROOT,
                rel: e.rel.clone(),
                message: format!(
                    "`{shown}` is a symlink to `{}`, outside the scanned root; it was not followed, and a harness that follows it loads content that was never reviewed. Replace the link with the content itself.",
                    crate::text::sanitize_line(&info.target)
                ),
                group: e.group,
            }),
            EntryKind::Symlink(info)
                if matches!(info.state, LinkState::Dangling | LinkState::Loop) && where_skills_live =>
            {
                out.push(WalkIssue {
                    rule: ids::SYMLINK_DANGLING,
                    rel: e.rel.clone(),
                    message: format!(
                        "`{shown}` is a symlink to `{}`, which {}; if it was meant to be a skill, no harness sees it. Fix or remove the link.",
                        crate::text::sanitize_line(&info.target),
                        if info.state == LinkState::Loop { "loops back on itself" } else { "does not exist" }
                    ),
                    group: e.group,
                })
            }
            EntryKind::Special(kind) => out.push(WalkIssue {
                rule: ids::SPECIAL_FILE,
                rel: e.rel.clone(),
                message: format!("`{shown}` is {}; skillguard never opens it, and a skills tree has no reason to contain one. Remove it.", crate::text::with_article(kind)),
                group: e.group,
            }),
            _ => {}
        }
    }
    out
}

/// Turns every walk issue into a finding, owned by the skill that contains its path;
/// returns the skills whose folders were not walked completely (path → the issue's path).
pub(super) fn attach(
    issues: &[WalkIssue],
    artifacts: &[Artifact],
    groups: &[Group],
    findings: &mut Vec<Finding>,
) -> BTreeMap<String, String> {
    let skill_index: BTreeMap<&str, &Artifact> =
        artifacts.iter().map(|a| (a.path.as_str(), a)).collect();
    let mut truncated: BTreeMap<String, String> = BTreeMap::new();
    for issue in issues {
        let owner = owner_of(&skill_index, &issue.rel);
        // A walk bound or an unreadable folder inside a skill: its files are not all
        // known, so no content hash can vouch for it. (A name that is not UTF-8 is walked,
        // read and hashed under its escaped form.)
        if let Some((_, path)) = owner
            && matches!(issue.rule, ids::WALK_LIMIT_REACHED | ids::PATH_UNREADABLE)
        {
            truncated.insert(path.to_owned(), issue.rel.clone());
        }
        // What could not be read is never a pass: the unreadable path is reported at high,
        // the `path-unreadable` finding attached to it (`scan::uninspected`).
        if issue.rule == ids::PATH_UNREADABLE {
            let f = Finding::new(
                ids::CONTENT_NOT_INSPECTED,
                format!(
                    "`{}` was not inspected: it could not be read during the walk, so no rule saw what it holds. Fix its permissions, or lower this finding for this path in the operator's `.skillguard.toml` with a reason.",
                    crate::text::sanitize_line(&issue.rel)
                ),
                Location::file(issue.rel.clone()),
            );
            let anchor = format!("walk:{}:{}unreadable", issue.rel, ids::UNINSPECTED_ANCHOR);
            findings.push(match owner {
                Some((name, path)) => f.for_skill(Some(name), Some(path), &anchor),
                None => f.for_skill(None, None, &anchor),
            });
        }
        let mut f = issue_to_finding(issue, owner);
        // A bound hit where no skill is expected (a deep source tree elsewhere in the
        // repository) cannot hide a conventional skill: it is reported, but not as high.
        if issue.rule == ids::WALK_LIMIT_REACHED
            && owner.is_none()
            && !issue.message.contains("--max-dirs")
            && groups
                .get(issue.group)
                .is_some_and(|g| !where_skills_live(g, &issue.rel))
        {
            f.severity = Severity::Medium;
        }
        findings.push(f);
    }
    truncated
}

/// The (name, path) of the skill whose folder contains `rel`, if any.
fn owner_of<'a>(
    skill_index: &BTreeMap<&str, &'a Artifact>,
    rel: &str,
) -> Option<(&'a str, &'a str)> {
    let mut p = rel;
    loop {
        if let Some(a) = skill_index.get(p) {
            return Some((a.name.as_str(), a.path.as_str()));
        }
        match p.rfind('/') {
            Some(i) => p = &p[..i],
            None => {
                return skill_index
                    .get("")
                    .map(|a| (a.name.as_str(), a.path.as_str()));
            }
        }
    }
}
