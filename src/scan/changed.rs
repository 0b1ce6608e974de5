//! Changed-files mode (`skillguard scan --repo . -- FILE…`, what pre-commit runs with the
//! staged files): the files are mapped to the skills holding them, and only those skills
//! are scanned, with the few others their cross-skill checks need:
//!
//! - the skills they are nested in, and the skills nested in them (`skill-nested`, the
//!   loaders' "a SKILL.md above hides this one");
//! - the skills of their convention root on which MAF's discovery fails for the whole root
//!   (which drops every sibling);
//! - the skills reached through a symlinked folder (a changed file under a link's target
//!   changes the skill at the link, and the other way round);
//! - every skill whose name is the same as a changed skill's, or confusable with it (one
//!   edit apart, or the same skeleton): name collisions, shadowing, drift between copies
//!   and look-alike names. Their names are read from their entry files alone, which costs
//!   a small part of a scan.
//!
//! The report then keeps the findings that concern a changed skill
//! ([`crate::result::Changed::concerns`]). A changed `.skillguard.toml`, accepted-findings
//! file or `skills-lock.json` changes what every finding becomes (or the hash every skill is
//! checked against), so it makes the scan a full one.

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::discover::SkillDir;
use crate::read::Shared;
use crate::result::Changed;

/// Files whose change makes the scan a full one.
fn changes_policy(file: &str) -> bool {
    // A lock file records the expected hash of every skill it names.
    file == "skills-lock.json"
        || file.ends_with("/skills-lock.json")
        || file == crate::config::FILE_NAME
        || file.ends_with(&format!("/{}", crate::config::FILE_NAME))
        || file.starts_with(".skillguard/")
        || file.contains("/.skillguard/")
}

/// Which skills to scan for `files` (relative to the scan base, `/`-separated): the
/// indices into `skills` to keep, and the record of the choice.
pub(super) fn select(
    skills: &[SkillDir],
    files: &[String],
    policy_files: &[String],
    shared: &Shared<'_>,
) -> (Vec<usize>, Changed) {
    let mut files: Vec<String> = files.to_vec();
    files.sort();
    files.dedup();
    let by_rel: std::collections::HashMap<&str, usize> = skills
        .iter()
        .enumerate()
        .map(|(i, s)| (s.rel.as_str(), i))
        .collect();
    if files
        .iter()
        .any(|f| changes_policy(f) || policy_files.contains(f))
    {
        let all: Vec<usize> = (0..skills.len()).collect();
        let mut rels: Vec<String> = skills.iter().map(|s| s.rel.clone()).collect();
        rels.sort();
        return (
            all,
            Changed {
                files,
                skills: rels.clone(),
                scanned: rels,
                skipped: 0,
                full: true,
            },
        );
    }
    // The innermost skill holding each file.
    let owner = |path: &str| -> Option<usize> {
        let mut p = path.trim_end_matches('/');
        loop {
            if let Some(&i) = by_rel.get(p) {
                return Some(i);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None if !p.is_empty() => p = "",
                None => return None,
            }
        }
    };
    // A file reached through a symlinked folder of the scan (a linked skill, or a linked
    // convention root such as `.claude/skills -> ../agent-skills`) changes the skill at
    // the link too, and a path given through the link changes the real one.
    let mut paths: Vec<String> = files.clone();
    for f in &files {
        for (link, info) in shared.dir_links {
            let Some(target) = info.resolved.as_deref() else {
                continue;
            };
            let through = |from: &str, to: &str| {
                f.strip_prefix(from)
                    .filter(|rest| rest.is_empty() || rest.starts_with('/'))
                    .map(|rest| format!("{to}{rest}"))
            };
            paths.extend(through(target, link));
            paths.extend(through(link, target));
        }
    }
    let direct: BTreeSet<usize> = paths.iter().filter_map(|f| owner(f)).collect();
    let mut keep: BTreeSet<usize> = direct.clone();
    for &d in &direct {
        let rel = &skills[d].rel;
        // Enclosing skills.
        let mut p = rel.as_str();
        while !p.is_empty() {
            p = p.rfind('/').map_or("", |i| &p[..i]);
            if let Some(&i) = by_rel.get(p) {
                keep.insert(i);
            }
        }
        // Nested skills.
        for (i, s) in skills.iter().enumerate() {
            if rel.is_empty()
                || s.rel.starts_with(rel.as_str()) && s.rel[rel.len()..].starts_with('/')
            {
                keep.insert(i);
            }
        }
    }
    // Same or confusable names.
    if !direct.is_empty() && keep.len() < skills.len() {
        // Lower-cased both ways: the collision and shadowing checks fold Unicode case,
        // the look-alike check ASCII case only (`İ` folds to two characters).
        // And whether MAF's discovery fails for the whole root on this skill (a
        // `compatibility` over 500 characters…): its siblings are then dropped too.
        // Per skill: its name folded both ways, whether MAF fails its root on it, and its entry
        // file's bytes when they are the whole file.
        type Read = ((String, String), bool, Option<Vec<u8>>);
        let read: Vec<Read> = skills
            .par_iter()
            .map(|s| {
                let (bytes, whole) = crate::read::entry_bytes(s, shared)
                    .map_or((None, false), |(b, whole)| (Some(b), whole));
                let n = crate::analyze::skill_name(s, shared, bytes.as_deref());
                let fails_root = bytes.as_deref().is_some_and(|b| {
                    matches!(
                        crate::loaders::maf::load_read(&crate::loaders::maf::read(b), ""),
                        crate::loaders::maf::Load::RootFailure(_)
                    )
                });
                let kept = bytes.filter(|_| whole);
                ((n.to_lowercase(), n.to_ascii_lowercase()), fails_root, kept)
            })
            .collect();
        let roots: BTreeSet<&Option<String>> =
            direct.iter().map(|&d| &skills[d].convention_root).collect();
        for (i, (_, fails_root, _)) in read.iter().enumerate() {
            if *fails_root && roots.contains(&skills[i].convention_root) {
                keep.insert(i);
            }
        }
        let mut names: Vec<(String, String)> = Vec::with_capacity(read.len());
        let mut bytes: Vec<Option<Vec<u8>>> = Vec::with_capacity(read.len());
        for (name, _, b) in read {
            names.push(name);
            bytes.push(b);
        }
        let skeleton = crate::security::families::permissions::typosquat::skeleton;
        let wanted: Vec<(&(String, String), String, String)> = direct
            .iter()
            .map(|&d| (&names[d], skeleton(&names[d].0), skeleton(&names[d].1)))
            .collect();
        for (i, n) in names.iter().enumerate() {
            if keep.contains(&i) {
                continue;
            }
            let (sk_u, sk_a) = (skeleton(&n.0), skeleton(&n.1));
            if wanted.iter().any(|(w, wsk_u, wsk_a)| {
                w.0 == n.0
                    || w.1 == n.1
                    || *wsk_u == sk_u
                    || *wsk_a == sk_a
                    || crate::security::families::permissions::typosquat::distance_at_most(
                        &w.0, &n.0, 1,
                    )
                    || crate::security::families::permissions::typosquat::distance_at_most(
                        &w.1, &n.1, 1,
                    )
            }) {
                keep.insert(i);
            }
        }
        // The kept skills' entry files, read whole here, are not read again by their analysis.
        for &i in &keep {
            if let Some(b) = bytes[i].take() {
                let s = &skills[i];
                let rel = if s.rel.is_empty() {
                    s.entry.clone()
                } else {
                    format!("{}/{}", s.rel, s.entry)
                };
                shared.preread.put(rel, b);
            }
        }
    }
    let rels = |set: &BTreeSet<usize>| {
        let mut v: Vec<String> = set.iter().map(|&i| skills[i].rel.clone()).collect();
        v.sort();
        v
    };
    let changed = Changed {
        skills: rels(&direct),
        scanned: rels(&keep),
        skipped: skills.len() - keep.len(),
        files,
        full: false,
    };
    (keep.into_iter().collect(), changed)
}
