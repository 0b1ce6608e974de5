//! Turning a scan into ledger entries and pins: where the ledger lives, how locations are
//! keyed, what each entry holds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;

use super::ledger::{Draft, FileRecord, ScannedRoot, SkillEntry};
use crate::discover::Mode;
use crate::finding::Finding;
use crate::result::ScanResult;
use crate::skill_hashes::{Hasher, counts_as_file, file_digest};

/// Rules whose findings compare skills with each other, the ledger or a pin file; they are
/// never stored in a snapshot (a snapshot records what the scan found about each skill, not
/// how it compared; AgentEval leaves them out too).
pub const COMPARISON_RULES: &[&str] = &[
    crate::rules::ids::CROSS_LOCATION_CONTENT_DRIFT,
    crate::agents::AGENT_IDENTITY_CONFLICT,
    crate::rules::ids::SKILL_NAME_COLLISION,
    crate::rules::ids::MATCHES_PREVIOUSLY_VETTED_COPY,
    crate::rules::ids::CHANGED_SINCE_LAST_VETTED,
    crate::rules::ids::MANIFEST_CHANGED_SINCE_BASELINE,
];

/// The directory a ledger is kept under by default, and that snapshot locations are relative
/// to: the repository (`--repo`) or workspace root; for a plain scan, the git repository that
/// contains the scanned path, else the scanned folder itself (its parent for a single skill).
pub fn home(mode: Mode, target: &Path) -> PathBuf {
    let base = scan_base(mode, target);
    match mode {
        Mode::Repo | Mode::Workspace => base,
        Mode::Path => {
            // From the scanned folder itself: a skill that is its own git repository keeps
            // its ledger inside (the ledger's files are never part of the skill).
            let start = target_dir(target);
            let mut cur = Some(start.as_path());
            while let Some(d) = cur {
                if d.join(".git").exists() {
                    return d.to_path_buf();
                }
                cur = d.parent();
            }
            base
        }
    }
}

pub(super) fn is_single_skill(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|rd| {
        rd.filter_map(Result::ok).any(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.eq_ignore_ascii_case("skill.md"))
        })
    })
}

/// The directory the scan's paths are relative to: the scanned folder, or for a single
/// skill (or its `SKILL.md`), the folder that contains it.
pub fn scan_base(mode: Mode, target: &Path) -> PathBuf {
    let dir = target_dir(target);
    if mode != Mode::Path {
        return dir;
    }
    match (is_single_skill(&dir), dir.parent()) {
        (true, Some(p)) => p.to_path_buf(),
        _ => dir,
    }
}

/// The scanned folder, canonical (a `SKILL.md` given as the target means its folder).
pub fn target_dir(target: &Path) -> PathBuf {
    let t = std::fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf());
    if t.is_file() {
        t.parent().map(Path::to_path_buf).unwrap_or(t)
    } else {
        t
    }
}

/// `home/.skillguard/ledger`.
pub fn default_ledger_root(home: &Path) -> PathBuf {
    home.join(crate::discover::STATE_DIR).join("ledger")
}

/// The scan base relative to `home`, `/`-separated (`.` for the home itself). When the home
/// is a folder *inside* the base — a single skill that is its own repository, scanned by
/// path — the result is `../NAME` (NAME = the home's folder name), and [`location`] strips
/// that folder from the scan's paths.
pub fn relative_root(home: &Path, base: &Path) -> String {
    under(home, base).unwrap_or_else(|| match (home.parent(), home.file_name()) {
        (Some(p), Some(n)) if p == base => format!("../{}", n.to_string_lossy()),
        _ => ".".into(),
    })
}

/// `path` relative to `home`, `/`-separated (`.` for the home itself); `None` outside it.
pub fn under(home: &Path, path: &Path) -> Option<String> {
    let r = path.strip_prefix(home).ok()?;
    Some(if r.as_os_str().is_empty() {
        ".".into()
    } else {
        r.components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    })
}

/// What a scan covered, relative to the home: the scanned folder (a single skill for a scan
/// of one skill), `.` for the whole home. Diffs and histories only compare what both
/// snapshots covered.
pub fn scope(home: &Path, target: &Path) -> String {
    under(home, &target_dir(target)).unwrap_or_else(|| ".".into())
}

/// Does a snapshot whose scope is `scope` cover the location `loc`?
pub fn covers(scope: &str, loc: &str) -> bool {
    scope == "." || loc == scope || loc.strip_prefix(scope).is_some_and(|r| r.starts_with('/'))
}

/// A skill location relative to the home, from a path relative to the scan base.
pub fn location(relative: &str, path: &str) -> String {
    if let Some(name) = relative.strip_prefix("../") {
        return match path.strip_prefix(name) {
            Some("") => ".".into(),
            Some(rest) if rest.starts_with('/') => rest[1..].to_owned(),
            _ => format!("../{path}"),
        };
    }
    match (relative, path) {
        (".", "") => ".".into(),
        (".", p) => p.into(),
        (r, "") => r.into(),
        (r, p) => format!("{r}/{p}"),
    }
}

/// The inverse of [`location`]: a ledger location as a path relative to the scan base
/// (`None` when it is outside the scan base).
pub fn local_path(relative: &str, loc: &str) -> Option<String> {
    if let Some(name) = relative.strip_prefix("../") {
        return Some(if loc == "." {
            name.to_owned()
        } else {
            format!("{name}/{loc}")
        });
    }
    if relative == "." {
        Some(loc.to_owned())
    } else if loc == relative {
        Some(String::new())
    } else {
        loc.strip_prefix(relative)
            .and_then(|r| r.strip_prefix('/'))
            .map(str::to_owned)
    }
}

/// Finding summary by rule for one skill: rule → severity → count. A finding's attached
/// consequences (the harnesses that drop the skill because of it) are counted under their
/// own rule and severity too: the summary records what each harness reports, so a move
/// that makes more harnesses drop a skill still shows as a new high finding in `diff`.
fn summaries(findings: &[Finding]) -> BTreeMap<&str, BTreeMap<String, BTreeMap<String, u32>>> {
    let mut out: BTreeMap<&str, BTreeMap<String, BTreeMap<String, u32>>> = BTreeMap::new();
    for f in findings {
        if COMPARISON_RULES.contains(&f.rule_id) {
            continue;
        }
        let Some(sp) = f.skill_path.as_deref() else {
            continue;
        };
        let per_rule = out.entry(sp).or_default();
        let reported = std::iter::once((f.rule_id, f.severity))
            .chain(f.consequences.iter().map(|c| (c.rule_id, c.severity)));
        for (rule, severity) in reported {
            *per_rule
                .entry(rule.to_owned())
                .or_default()
                .entry(severity.as_str().to_owned())
                .or_default() += 1;
        }
    }
    out
}

/// Line hashes of a skill's text files, by SHA-256.
type LineData = Vec<(String, Arc<[u32]>)>;

/// Ledger entries for skills or agents (built in parallel), and the line hashes of their
/// text files by SHA-256. An agent entry is one file: its location is the file, and it has
/// a kind and a format but no structural fingerprint.
fn entries(
    artifacts: &[crate::inventory::Artifact],
    relative: &str,
    sums: &BTreeMap<&str, BTreeMap<String, BTreeMap<String, u32>>>,
) -> (
    Vec<SkillEntry>,
    std::collections::HashMap<String, Arc<[u32]>>,
) {
    let built: Vec<(SkillEntry, LineData)> = artifacts
        .par_iter()
        .map(|a| {
            let mut lines = Vec::new();
            let files = a
                .files
                .iter()
                .filter(|f| counts_as_file(f))
                .map(|f| {
                    let sha256 = file_digest(f);
                    if let Some(l) = &f.line_hashes {
                        lines.push((sha256.clone(), l.clone()));
                    }
                    FileRecord {
                        path: f.path.clone(),
                        size: f.size,
                        sha256,
                        sha256_lf: f.sha256_lf.clone(),
                        lines: None,
                    }
                })
                .collect();
            let agent = a.kind != crate::inventory::ArtifactKind::Skill;
            let entry = SkillEntry {
                location: location(relative, &a.path),
                name: a.name.clone(),
                kind: agent.then(|| a.kind.as_str().to_owned()),
                format: a.format.clone(),
                repo: a.repo.clone(),
                convention: a.convention.clone().filter(|_| !agent),
                excluded: a.excluded,
                structural: a.structural_fingerprint.clone(),
                // Absent when the skill's files are not all known (`hash_incomplete`).
                content: a.content_hash.clone(),
                incomplete: a.content_hash.is_none().then(|| {
                    a.hash_incomplete
                        .clone()
                        .unwrap_or_else(|| "its content could not be read in full".into())
                }),
                files,
                findings: sums.get(a.path.as_str()).cloned().unwrap_or_default(),
                provenance: a.provenance.clone(),
            };
            (entry, lines)
        })
        .collect();
    let mut line_data: std::collections::HashMap<String, Arc<[u32]>> = Default::default();
    let mut out = Vec::with_capacity(built.len());
    for (e, lines) in built {
        out.push(e);
        for (k, v) in lines {
            line_data.entry(k).or_insert(v);
        }
    }
    (out, line_data)
}

/// Builds the snapshot draft for a scan.
pub fn draft(
    result: &ScanResult,
    hasher: &Hasher,
    home: &Path,
    target: &Path,
    note: Option<String>,
) -> Draft {
    let relative = relative_root(home, &scan_base(result.mode, target));
    let sums = summaries(&result.findings);
    let (skills, mut line_data) = entries(&result.artifacts, &relative, &sums);
    let (agents, agent_lines) = entries(&result.agents, &relative, &sums);
    for (k, v) in agent_lines {
        line_data.entry(k).or_insert(v);
    }
    Draft {
        root: ScannedRoot {
            mode: result.mode.as_str().to_owned(),
            relative: scope(home, target),
            absolute: std::fs::canonicalize(target)
                .unwrap_or_else(|_| target.to_path_buf())
                .display()
                .to_string(),
        },
        hash_options: hasher.options.clone(),
        note,
        imported: None,
        skills,
        agents: Some(agents),
        kind: None,
        evals: None,
        line_data,
        captured_at: None,
        newest: None,
    }
}

/// The content hash of a recorded entry under other hash options (recomputed from its
/// per-file records; `None` for imported entries without file records).
pub fn recompute_content(e: &SkillEntry, hasher: &Hasher) -> Option<String> {
    // Without every file, a hash of the files that were read vouches for nothing.
    if e.files.is_empty() || e.content_unknown() {
        return None;
    }
    // An agent's content hash is its one file's digest (`Hasher::file_content_hash`); an
    // agent file that could not be read has none.
    if e.kind.is_some() {
        e.content.as_ref()?;
        return e
            .files
            .first()
            .map(|f| hasher.digest(&f.sha256, f.sha256_lf.as_deref()).to_owned());
    }
    Some(
        hasher.content_hash(
            e.files
                .iter()
                .map(|f| (f.path.as_str(), f.sha256.as_str(), f.sha256_lf.as_deref())),
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_round_trip() {
        for (rel, path, loc) in [
            (".", ".claude/skills/x", ".claude/skills/x"),
            (".claude/skills", "x", ".claude/skills/x"),
            ("../pdf-tools", "pdf-tools", "."),
            ("../pdf-tools", "pdf-tools/nested", "nested"),
        ] {
            assert_eq!(location(rel, path), loc, "{rel} {path}");
            assert_eq!(local_path(rel, loc).as_deref(), Some(path), "{rel} {loc}");
        }
        let home = Path::new("/r/pdf-tools");
        assert_eq!(relative_root(home, Path::new("/r")), "../pdf-tools");
        assert_eq!(relative_root(Path::new("/r"), Path::new("/r/a/b")), "a/b");
    }
}
