//! Per-skill analysis, one skill per task (in parallel): read and hash every file once
//! ([`crate::read`]), parse the entry file ([`rules::parsing`]), run the compliance checks
//! ([`rules`]) and the security rules ([`crate::security`]) over the same bytes, make
//! the loader profiles' input from the same parse ([`Parsed`]), then assemble the
//! skill's artifact record and its numbered findings.

use std::collections::BTreeMap;

use crate::discover::{Group, SkillDir};
use crate::finding::{Finding, Location, Severity};
use crate::inventory::{Artifact, ArtifactKind, FileEntry, LinkState, SymlinkInfo};
use crate::loaders::Parsed;
use crate::read::{self, Pending, Shared, SkillFiles};
use crate::rules::{self, Cx, SkillDoc, ids};
use crate::text::sanitize_line;
use crate::timing::{self, Stage};

/// One analysed skill.
pub struct Analysed {
    pub artifact: Artifact,
    pub findings: Vec<Finding>,
    /// The loader profiles' view of the entry file, from the same parse (None when the
    /// entry file could not be read).
    pub loader_input: Option<Parsed>,
    /// The entry file's bytes, for the profiles that read them their own way (skills-ref);
    /// dropped by the scan as soon as those verdicts are made, so that a large scan does
    /// not hold every entry file.
    pub entry_bytes: Option<Vec<u8>>,
}

/// Analyses one skill: its artifact record, findings and loader input.
pub fn analyze_skill(sd: &SkillDir, shared: &Shared<'_>) -> Analysed {
    let group = shared.groups.get(sd.group);
    let dir_name = dir_name(sd, group);
    if shared.panic_on == Some(dir_name.as_str()) {
        panic!("test hook: forced panic while analysing `{dir_name}`");
    }
    let SkillFiles {
        files,
        entry: entry_bytes,
        others: contents,
        entry_unreadable,
        pending,
    } = read::read_skill(sd, shared);

    // First pass with the directory name; the frontmatter name replaces it once read.
    let skill_path = sd.rel.clone();
    let mut cx = Cx {
        skill: &dir_name,
        skill_path: &skill_path,
        dir_name: &dir_name,
        entry_path: if sd.rel.is_empty() {
            sd.entry.clone()
        } else {
            format!("{}/{}", sd.rel, sd.entry)
        },
        files: &files,
        findings: Vec::new(),
    };
    // Another shard's skill of a split repository: its content rules run there.
    let deep = shared.shallow.is_none_or(|s| !s.contains(&sd.rel));
    // The checks below read the skill's files and the options alone: a cached result of the
    // same inputs stands for them ([`crate::cache`]), and the body is then not even parsed.
    let key = shared.cache.map(|_| {
        cache_key(
            sd,
            group,
            shared,
            deep,
            &files,
            &pending,
            entry_bytes.as_deref(),
            &contents,
        )
    });
    let cached = shared.cache.zip(key.as_ref()).and_then(|(c, k)| c.get(k));
    let doc = entry_bytes.as_deref().map(|b| {
        timing::time(Stage::Parse, || {
            rules::parsing::parse_entry_with(b, &mut cx, cached.is_none())
        })
    });
    let name = frontmatter_name(doc.as_ref()).unwrap_or_else(|| dir_name.clone());
    let parse_findings = std::mem::take(&mut cx.findings);
    let mut cx = Cx {
        skill: &name,
        skill_path: &skill_path,
        dir_name: &dir_name,
        entry_path: cx.entry_path,
        files: &files,
        findings: parse_findings,
    };
    if let Some(found) = cached {
        cx.findings = found;
    } else {
        timing::time(Stage::Compliance, || {
            compliance(doc.as_ref(), &mut cx, pending, sd, group)
        });
        if let Some(doc) = doc.as_ref().filter(|_| deep) {
            timing::time(Stage::Quality, || {
                rules::quality::check(doc, &mut cx, &contents, shared.rules)
            });
        }
        if deep {
            security(doc.as_ref(), &mut cx, entry_bytes.as_deref(), &contents, sd);
        }
        if let Some((c, k)) = shared.cache.zip(key.as_ref()) {
            c.put(k, &cx.findings);
        }
    }
    // Eval files inside the skill: the eval check takes their bytes instead of reading them.
    for (path, bytes) in contents {
        if crate::conventions::may_be_eval_file(&path) {
            let rel = if sd.rel.is_empty() {
                path
            } else {
                format!("{}/{path}", sd.rel)
            };
            shared.preread.put(rel, bytes);
        }
    }
    let loader_input = doc
        .as_ref()
        .zip(entry_bytes.as_deref())
        .map(|(d, b)| timing::time(Stage::Loaders, || Parsed::from_doc(d, b)));

    let link = linked_folder(sd, shared, group);
    let entry_link = files
        .iter()
        .find(|f| f.path == sd.entry)
        .and_then(|f| f.symlink.clone());
    symlink_findings(&mut cx, sd, link.as_ref(), entry_link.as_ref());
    if doc.is_none() {
        entry_unreadable_findings(&mut cx, sd, entry_link.as_ref(), entry_unreadable);
    }
    let findings = numbered(cx.findings, &name, &skill_path);
    let excluded = findings
        .iter()
        .any(|f| crate::catalog::get(f.rule_id).is_some_and(|m| m.excludes_skill))
        || doc.is_none();
    let frontmatter = doc
        .as_ref()
        .and_then(|d| d.root())
        .map(|r| r.to_json())
        .unwrap_or(serde_json::Value::Null);
    let artifact = Artifact {
        kind: ArtifactKind::Skill,
        path: sd.rel.clone(),
        repo: group.and_then(|g| g.repo.clone()),
        convention: sd.convention.map(|c| c.path.to_owned()),
        convention_root: sd.convention_root.clone(),
        entry: sd.entry.clone(),
        name,
        dir_name,
        frontmatter,
        excluded,
        symlink: link.map(|(_, i)| i),
        nested_in: sd.nested_in.clone(),
        files,
        structural_fingerprint: None,
        content_hash: None,
        hash_incomplete: None,
        agenteval_content_hash: None,
        agenteval_hash_incomplete: None,
        provenance: None,
        loaders: Vec::new(),
        format: None,
    };
    Analysed {
        artifact,
        findings,
        loader_input,
        entry_bytes,
    }
}

/// The result cache's key of a skill's checks: the skill's place and convention, the
/// options that reach the checks, the reads' pending findings and every file (path, kind,
/// executable bit, size, SHA-256; the bytes themselves where a file has no hash).
#[allow(clippy::too_many_arguments)]
fn cache_key(
    sd: &SkillDir,
    group: Option<&Group>,
    shared: &Shared<'_>,
    deep: bool,
    files: &[FileEntry],
    pending: &[Pending],
    entry: Option<&[u8]>,
    contents: &[(String, Vec<u8>)],
) -> [u8; 32] {
    let mut k = crate::cache::KeyBuilder::new("skill");
    k.field(sd.rel.as_bytes())
        .field(sd.entry.as_bytes())
        .debug(&sd.variants)
        .debug(&sd.nested_in)
        .debug(&sd.nested_in_entry)
        .debug(&sd.convention.map(|c| c.path))
        .debug(&sd.convention_root)
        .debug(&deep)
        .debug(&pending);
    key_place(&mut k, group, shared).files(files);
    // What the checks read, whatever the hashes say (a file without one, an entry read in
    // part).
    let hashed = |p: &str| {
        files
            .binary_search_by(|f| f.path.as_str().cmp(p))
            .is_ok_and(|i| files[i].sha256.is_some())
    };
    if !hashed(&sd.entry) {
        k.debug(&entry.map(crate::hash::sha256_hex));
    }
    for (p, b) in contents.iter().filter(|(p, _)| !hashed(p)) {
        k.field(p.as_bytes())
            .field(crate::hash::sha256_hex(b).as_bytes());
    }
    k.finish()
}

/// The part of a cache key every unit shares: its repository (name, boundary, whether the
/// conventions apply) and the options that reach the checks (read limits, enabled rules).
pub fn key_place<'k>(
    k: &'k mut crate::cache::KeyBuilder,
    group: Option<&Group>,
    shared: &Shared<'_>,
) -> &'k mut crate::cache::KeyBuilder {
    k.debug(&group.map(|g| (&g.repo, &g.boundary_rel, g.conventions_apply)))
        .debug(&group.and_then(|g| g.boundary.file_name()))
        .debug(shared.read)
        .debug(shared.rules)
}

/// The skill's name as a full analysis would find it (the frontmatter `name`, else the
/// directory name), from its entry file's bytes alone ([`read::entry_bytes`]).
pub fn skill_name(sd: &SkillDir, shared: &Shared<'_>, bytes: Option<&[u8]>) -> String {
    let group = shared.groups.get(sd.group);
    let dir_name = dir_name(sd, group);
    let Some(bytes) = bytes else {
        return dir_name;
    };
    // The front matter alone: the body (Markdown) is never parsed for a name.
    let text = String::from_utf8_lossy(bytes);
    let split = crate::parse::frontmatter::split(&text);
    split
        .yaml
        .and_then(|r| crate::parse::yaml::parse(&text[r]).ok())
        .and_then(|d| d.root)
        .and_then(|root| name_of(&root))
        .unwrap_or(dir_name)
}

/// The skill's directory name; a skill at the root of a repository is named after the
/// repository folder.
fn dir_name(sd: &SkillDir, group: Option<&Group>) -> String {
    match group {
        Some(g) if sd.rel == g.boundary_rel => g
            .boundary
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_owned(),
        _ => sd.rel.rsplit('/').next().unwrap_or(&sd.rel).to_owned(),
    }
}

/// The frontmatter `name`, shown safely (one line, at most 128 characters).
fn frontmatter_name(doc: Option<&SkillDoc>) -> Option<String> {
    doc.and_then(|d| d.root()).and_then(name_of)
}

/// A front matter's `name`, when it is a non-blank string: cut and made printable.
fn name_of(root: &crate::parse::yaml::Node) -> Option<String> {
    root.get("name")
        .and_then(|n| n.as_str())
        .filter(|n| !n.trim().is_empty())
        .map(|n| sanitize_line(&crate::text::truncate(n, 128)).into_owned())
}

/// The compliance checks: document checks on the parsed entry file, the reads' pending
/// findings, and the inventory checks.
fn compliance(
    doc: Option<&SkillDoc>,
    cx: &mut Cx<'_>,
    pending: Vec<Pending>,
    sd: &SkillDir,
    group: Option<&Group>,
) {
    if let Some(doc) = doc {
        for (_, check) in rules::CHECKS {
            check(doc, cx);
        }
    }
    for (rule, msg, loc, anchor) in pending {
        cx.emit(rule, msg, loc, &anchor);
    }
    rules::inventory::check_scripts(cx);
    rules::inventory::check_filename(cx, &sd.entry, &sd.variants);
    rules::inventory::check_nested(
        cx,
        &sd.entry,
        sd.nested_in.as_deref(),
        sd.nested_in_entry.as_deref(),
    );
    if group.is_some_and(|g| g.conventions_apply) && sd.convention.is_none() {
        rules::inventory::check_outside_conventions(cx, &sd.entry);
    }
}

/// The security rules over every file read (the entry file's text comes from the parse).
fn security(
    doc: Option<&SkillDoc>,
    cx: &mut Cx<'_>,
    entry_bytes: Option<&[u8]>,
    contents: &[(String, Vec<u8>)],
    sd: &SkillDir,
) {
    let files = cx.files;
    let mut raw: Vec<(&FileEntry, &[u8])> = Vec::with_capacity(contents.len() + 1);
    if let (Some(b), Some(fe)) = (entry_bytes, files.iter().find(|f| f.path == sd.entry)) {
        raw.push((fe, b));
    }
    for (p, b) in contents {
        if let Ok(i) = files.binary_search_by(|f| f.path.as_str().cmp(p)) {
            raw.push((&files[i], b));
        }
    }
    let mut scx = timing::time(Stage::SecuritySources, || {
        crate::security::SecCx::new(cx, doc, raw)
    });
    crate::security::analyze(&mut scx);
}

/// The skill folder, or an ancestor below the boundary, reached through a symlink.
fn linked_folder(
    sd: &SkillDir,
    shared: &Shared<'_>,
    group: Option<&Group>,
) -> Option<(String, SymlinkInfo)> {
    let mut p = sd.rel.as_str();
    loop {
        if let Some(info) = shared.dir_links.get(p) {
            return Some((p.to_owned(), info.clone()));
        }
        if group.is_some_and(|g| p == g.boundary_rel) || p.is_empty() {
            return None;
        }
        p = p.rfind('/').map(|i| &p[..i]).unwrap_or("");
    }
}

/// `symlinked-skill`: the skill folder or its entry file is a link.
fn symlink_findings(
    cx: &mut Cx<'_>,
    sd: &SkillDir,
    link: Option<&(String, SymlinkInfo)>,
    entry_link: Option<&SymlinkInfo>,
) {
    if let Some((at, info)) = link {
        cx.emit(
            ids::SYMLINKED_SKILL,
            format!(
                "skill folder is reached through the symlink `{}` -> `{}`: Claude Code and Codex follow it, Microsoft Agent Framework 1.18+ skips it. Use a real copy if the skill must load everywhere.",
                sanitize_line(at),
                sanitize_line(&info.target)
            ),
            Location::file(at.clone()),
            "symlinked-dir",
        );
    }
    if let Some(info) = entry_link
        && info.state == LinkState::Inside
    {
        cx.emit(
            ids::SYMLINKED_SKILL,
            format!(
                "`{}` is a symlink to `{}`: harnesses that skip links (MAF 1.18+) do not load this skill. Use a real file if it must load everywhere.",
                sd.entry,
                sanitize_line(&info.target)
            ),
            Location::file(cx.entry_path.clone()),
            "symlinked-entry",
        );
    }
}

/// A skill whose entry file cannot be read is excluded everywhere: make sure that is
/// carried by a high finding on the entry file, never by a lower one alone.
fn entry_unreadable_findings(
    cx: &mut Cx<'_>,
    sd: &SkillDir,
    entry_link: Option<&SymlinkInfo>,
    entry_unreadable: Option<String>,
) {
    let entry_path = cx.entry_path.clone();
    let mut reported = false;
    for f in cx
        .findings
        .iter_mut()
        .filter(|f| f.location.path == entry_path)
    {
        if f.severity < Severity::High {
            f.severity = Severity::High;
            f.message
                .push_str(" This is the skill file itself, so no harness can load the skill.");
        }
        reported = true;
    }
    if reported {
        return;
    }
    let why = match (entry_link, entry_unreadable) {
        (Some(info), _) if info.target_is_dir => {
            format!(
                "is a symlink to the directory `{}`, not a file",
                sanitize_line(&info.target)
            )
        }
        (_, Some(err)) => format!("could not be read ({})", sanitize_line(&err)),
        _ => "could not be read".to_owned(),
    };
    let msg = format!(
        "`{}` {why}, so no harness can load this skill. Make it a readable regular file.",
        sd.entry
    );
    cx.emit(
        ids::PATH_UNREADABLE,
        msg,
        Location::file(entry_path),
        "entry-unreadable",
    );
    if let Some(f) = cx.findings.last_mut() {
        f.severity = Severity::High;
    }
}

/// The findings under the skill's final name, sorted; repeats of one rule, file and
/// anchor (one broken link per line) are numbered in file order so every finding keeps a
/// distinct fingerprint.
pub fn numbered(raw: Vec<Finding>, name: &str, skill_path: &str) -> Vec<Finding> {
    let mut findings: Vec<Finding> = raw
        .into_iter()
        .map(|f| {
            let anchor = f.anchor.clone();
            f.for_skill(Some(name), Some(skill_path), &anchor)
        })
        .collect();
    findings.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let mut seen: BTreeMap<(&'static str, String, String), usize> = BTreeMap::new();
    for f in &mut findings {
        let n = seen
            .entry((f.rule_id, f.location.path.clone(), f.anchor.clone()))
            .or_insert(0);
        if *n > 0 {
            let anchor = format!("{}#{}", f.anchor, n);
            *f = f.clone().for_skill(Some(name), Some(skill_path), &anchor);
        }
        *n += 1;
    }
    findings
}
