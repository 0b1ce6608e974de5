//! One cause, one finding for content the scanner could not read (`content-not-inspected`,
//! docs/threat-model.md): the finding an older rule raises for the same cause at the same
//! path (`archive-unreadable`, `file-too-large`, `path-unreadable`, …) is attached to the
//! `content-not-inspected` finding as a consequence instead of being reported on its own.
//! Which rules report which cause is read from the last part of the finding's fingerprint
//! anchor ([`ids::UNINSPECTED_ANCHOR`] and the cause).

use std::collections::BTreeMap;

use crate::agents::AGENT_FIELD_INVALID;
use crate::finding::{Consequence, Finding};
use crate::rules::ids;
use crate::security::families::packaging;

/// The findings of older rules that report each cause.
fn reported_by(cause: &str) -> &'static [&'static str] {
    match cause {
        "archive" => &[packaging::ARCHIVE_UNREADABLE],
        "format" => &[packaging::ARCHIVE_BUNDLED],
        "size" => &[ids::FILE_TOO_LARGE, packaging::ARCHIVE_BUNDLED],
        "unreadable" => &[ids::PATH_UNREADABLE],
        "parse" => &[AGENT_FIELD_INVALID, ids::YAML_SYNTAX_ERROR],
        _ => &[],
    }
}

/// The cause of a `content-not-inspected` finding, from its anchor.
fn cause(f: &Finding) -> Option<&str> {
    f.anchor
        .rsplit(':')
        .next()
        .and_then(|last| last.strip_prefix(ids::UNINSPECTED_ANCHOR))
}

/// Attaches each older finding of the same cause and path to its `content-not-inspected`
/// finding (with the consequences it carried, such as the harness that drops an agent).
pub fn attach(findings: &mut Vec<Finding>) {
    // (path, rule) → the content-not-inspected finding that absorbs it.
    let mut owner: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        if f.rule_id != ids::CONTENT_NOT_INSPECTED {
            continue;
        }
        for rule in cause(f).map(reported_by).unwrap_or(&[]) {
            owner.entry((f.location.path.clone(), rule)).or_insert(i);
        }
    }
    if owner.is_empty() {
        return;
    }
    let mut moved: Vec<(usize, Vec<Consequence>)> = Vec::new();
    let mut keep = Vec::with_capacity(findings.len());
    for (i, f) in std::mem::take(findings).into_iter().enumerate() {
        let to = (f.rule_id != ids::CONTENT_NOT_INSPECTED)
            .then(|| owner.get(&(f.location.path.clone(), f.rule_id)))
            .flatten();
        match to {
            Some(&j) => {
                let mut cs = vec![Consequence::of(&f, None)];
                cs.extend(f.consequences);
                moved.push((j, cs));
            }
            None => keep.push((i, f)),
        }
    }
    let mut by_old: BTreeMap<usize, usize> = BTreeMap::new();
    for (new, (old, _)) in keep.iter().enumerate() {
        by_old.insert(*old, new);
    }
    let mut out: Vec<Finding> = keep.into_iter().map(|(_, f)| f).collect();
    for (j, cs) in moved {
        if let Some(&k) = by_old.get(&j) {
            out[k].consequences.extend(cs);
        }
    }
    for f in &mut out {
        if f.rule_id == ids::CONTENT_NOT_INSPECTED && !f.consequences.is_empty() {
            f.consequences.sort();
            f.consequences.dedup();
        }
    }
    *findings = out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Location, Severity};

    fn finding(rule: &'static str, path: &str, anchor: &str) -> Finding {
        Finding::new(rule, "m", Location::file(path)).for_skill(Some("s"), Some(""), anchor)
    }

    #[test]
    fn the_older_finding_becomes_a_consequence() {
        let mut v = vec![
            finding(ids::FILE_TOO_LARGE, "a.bin", "large:a.bin"),
            finding(
                ids::CONTENT_NOT_INSPECTED,
                "a.bin",
                "a.bin:uninspected-size",
            ),
            // Another path, and another cause at the same path, stay on their own.
            finding(ids::FILE_TOO_LARGE, "b.bin", "large:b.bin"),
            finding(ids::PATH_UNREADABLE, "a.bin", "unreadable:a.bin"),
        ];
        attach(&mut v);
        let rules: Vec<&str> = v.iter().map(|f| f.rule_id).collect();
        assert_eq!(
            rules,
            [
                ids::CONTENT_NOT_INSPECTED,
                ids::FILE_TOO_LARGE,
                ids::PATH_UNREADABLE
            ]
        );
        assert_eq!(v[0].consequences.len(), 1);
        assert_eq!(v[0].consequences[0].rule_id, ids::FILE_TOO_LARGE);
        assert_eq!(v[0].consequences[0].severity, Severity::Medium);
        assert!(v[0].reports(ids::FILE_TOO_LARGE));
    }
}
