//! Changed-files mode (`skillguard scan --repo . -- FILE…`, what pre-commit runs with the
//! staged files): the files are mapped to the skills holding them, and only those skills
//! are scanned, with the few others their cross-skill checks need:
//!
//! - the skills they are nested in, and the skills nested in them (`skill-nested`, the
//!   loaders' "a SKILL.md above hides this one");
//! - every skill whose name is the same as a changed skill's, or confusable with it (one
//!   edit apart, or the same skeleton): name collisions, shadowing, drift between copies
//!   and look-alike names. Their names are read from their entry files alone, which costs
//!   a small part of a scan.
//!
//! The report then keeps the findings that concern a changed skill
//! ([`crate::result::Changed::concerns`]). A changed `.skillguard.toml` or accepted-findings
//! file changes what every finding becomes, so it makes the scan a full one.

use std::collections::BTreeSet;

use rayon::prelude::*;

use crate::discover::SkillDir;
use crate::read::Shared;
use crate::result::Changed;

/// Files whose change makes the scan a full one.
fn changes_policy(file: &str) -> bool {
    file == crate::config::FILE_NAME
        || file.ends_with(&format!("/{}", crate::config::FILE_NAME))
        || file.starts_with(".skillguard/")
        || file.contains("/.skillguard/")
}

/// Which skills to scan for `files` (relative to the scan base, `/`-separated): the
/// indices into `skills` to keep, and the record of the choice.
pub(super) fn select(
    skills: &[SkillDir],
    files: &[String],
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
    if files.iter().any(|f| changes_policy(f)) {
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
    let direct: BTreeSet<usize> = files.iter().filter_map(|f| owner(f)).collect();
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
        let names: Vec<String> = skills
            .par_iter()
            .map(|s| crate::analyze::skill_name(s, shared).to_lowercase())
            .collect();
        let wanted: Vec<(&str, String)> = direct
            .iter()
            .map(|&d| {
                (
                    names[d].as_str(),
                    crate::security::typosquat::skeleton(&names[d]),
                )
            })
            .collect();
        for (i, n) in names.iter().enumerate() {
            if keep.contains(&i) {
                continue;
            }
            let sk = crate::security::typosquat::skeleton(n);
            if wanted.iter().any(|(w, wsk)| {
                *w == n.as_str()
                    || *wsk == sk
                    || crate::security::typosquat::distance_at_most(w, n, 1)
            }) {
                keep.insert(i);
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
