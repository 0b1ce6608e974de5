//! Loader profiles: for every skill and every harness whose conventions cover
//! its location, say whether that harness loads it or silently drops it, and why.
//!
//! Each profile emulates one loader's discovery (paths, depth, file name,
//! symlinks, precedence), its frontmatter reading and its validation. All
//! profiles share the one read of each entry file made by the analysis, and the
//! harness profiles its one parse ([`Parsed`]).

pub mod agents;
pub mod harness;
pub mod maf;
pub mod skills_ref;
pub mod targets;

use std::collections::{BTreeMap, BTreeSet};

use crate::discover::Group;
use crate::finding::{Consequence, Finding, Location};
use crate::inventory::{Artifact, LoadStatus, LoaderVerdict};
use crate::rules::{SkillDoc, ids};
use crate::text::sanitize_line;

/// A loader profile's description (`skillguard loaders`).
#[derive(Debug, Clone, Copy)]
pub struct Profile {
    pub id: &'static str,
    pub title: &'static str,
    /// What the profile emulates and from which sources.
    pub emulates: &'static str,
    /// Convention paths it reads (`*` for "any skill folder it is pointed at").
    pub conventions: &'static [&'static str],
}

/// Every profile, in display order.
pub fn profiles() -> Vec<Profile> {
    let mut v = vec![
        Profile {
            id: "maf",
            title: "Microsoft Agent Framework (.NET) 1.13-1.17",
            emulates: "AgentFileSkillsSource: regex frontmatter reader (BOM stripped, `---` at the first byte, case-insensitive keys, last duplicate wins, empty value swallows the next line, lengths in UTF-16 units), name/description rules, name equal to directory, compatibility over 500 fails the whole root, depth-2 search stopping at the first SKILL.md (a root SKILL.md means single-skill mode), exact `SKILL.md`, symlinks followed, keep-first de-duplication by name. Roots: AgentEval's nine conventions, or the scanned path.",
            conventions: maf::ROOTS,
        },
        Profile {
            id: "maf-1.18",
            title: "Microsoft Agent Framework (.NET) after the 2026-08 discovery hardening",
            emulates: "As `maf`, but symlinked skill folders and SKILL.md files are skipped with a warning instead of followed, and an unreadable folder is skipped instead of failing the root.",
            conventions: maf::ROOTS,
        },
        Profile {
            id: "skills-ref",
            title: "skills-ref, the Agent Skills reference validator",
            emulates: "validate(): SKILL.md then skill.md, frontmatter cut at the first `---` substring, strictyaml (no flow collections, anchors, tags or duplicate keys; every scalar a string), NFKC name rules, its exact messages in its order. Applies to every skill folder.",
            conventions: &["*"],
        },
    ];
    v.extend(harness::HARNESSES.iter().map(|h| h.profile()));
    v.extend(agents::PROFILES.iter().copied());
    v
}

/// Looks a profile id up.
pub fn profile(id: &str) -> Option<Profile> {
    profiles().into_iter().find(|p| p.id == id)
}

/// Which profiles to evaluate.
#[derive(Debug, Clone, Default)]
pub enum Selection {
    /// Every harness whose conventions cover a skill's location; `maf` and
    /// `skills-ref` for skills outside any convention in a path scan.
    #[default]
    Default,
    /// Exactly these profiles (still only where their conventions apply).
    Only(BTreeSet<String>),
}

impl Selection {
    pub fn wants(&self, id: &str) -> bool {
        match self {
            Selection::Default => true,
            Selection::Only(s) => s.contains(id),
        }
    }
}

/// The entry file as the scanner's own parser reads it, shared by every harness profile.
/// It is built from the analysis's parse ([`SkillDoc`]: its frontmatter split and YAML
/// tree), once per skill, so the entry file is not split or parsed again here. MAF and
/// skills-ref keep their own readers (`maf.rs`, `skills_ref.rs`): their real parsers
/// differ from ours by design, and that difference is what they emulate.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// MAF's own read of the entry file ([`maf::read`]), made once here.
    pub maf: Result<maf::Fields, maf::NoMatch>,
    pub bom: bool,
    pub leading_blank: bool,
    /// Why the frontmatter cannot be read as a YAML mapping, if it cannot.
    pub failure: Option<&'static str>,
    pub name: Option<String>,
    pub description: Option<String>,
    /// Fields other parsers read differently: (message, fingerprint anchor).
    pub differentials: Vec<(String, String, Option<usize>)>,
}

impl Parsed {
    /// From the analysis's parse of the entry file; `bytes` are the entry file's bytes,
    /// which MAF's line reader reads its own way, once ([`maf::read`]).
    pub fn from_doc(doc: &SkillDoc, bytes: &[u8]) -> Parsed {
        use crate::parse::frontmatter::{Anomaly, Failure};
        use crate::parse::yaml::NodeKind;
        let split = &doc.split;
        let mut p = Parsed {
            maf: maf::read(bytes),
            bom: split.anomalies.contains(&Anomaly::Bom),
            leading_blank: split
                .anomalies
                .iter()
                .any(|x| matches!(x, Anomaly::LeadingBlankLines { .. })),
            failure: None,
            name: None,
            description: None,
            differentials: Vec::new(),
        };
        // A YAML tree counts only when the split itself succeeded.
        let root = match (&split.failure, &split.yaml) {
            (None, Some(_)) => doc.root(),
            _ => None,
        };
        match root.filter(|r| matches!(r.kind, NodeKind::Map { .. })) {
            Some(map) => {
                let get = |k: &str| {
                    map.get(k)
                        .and_then(|n| n.as_str())
                        .filter(|n| !n.trim().is_empty())
                        .map(str::to_owned)
                };
                p.name = get("name");
                p.description = get("description");
                let raw = |k: &str| map.get(k).and_then(|n| n.as_str()).map(str::to_owned);
                let block = split.yaml.clone().map(|r| &doc.text[r]).unwrap_or("");
                p.differentials = field_differentials(
                    &p.maf,
                    block,
                    split.yaml_first_line,
                    raw("name"),
                    raw("description"),
                );
            }
            None => {
                p.failure = Some(match &split.failure {
                    Some(Failure::Missing) => "there is no frontmatter",
                    Some(Failure::Unclosed { .. }) => "the frontmatter is never closed",
                    Some(Failure::MalformedOpener { .. }) => "the opening delimiter is not `---`",
                    None => "the frontmatter is not a valid YAML mapping",
                });
            }
        }
        p
    }
}

/// Everything a profile needs about the scanned tree.
pub struct View<'a> {
    /// [`Parsed`] per artifact (None when the entry file could not be read).
    pub parsed: &'a [Option<Parsed>],
    pub groups: &'a [Group],
    pub artifacts: &'a [Artifact],
    /// Directories the walk could not read.
    pub unreadable_dirs: &'a BTreeSet<String>,
    /// The scan is `scan PATH` (no conventions).
    pub path_mode: bool,
}

/// Sets `loaders` on every artifact and returns the loader findings. `parsed` holds each
/// artifact's [`Parsed`], made by the analysis (None when the entry file could not be read).
pub fn evaluate(
    artifacts: &mut [Artifact],
    parsed: &[Option<Parsed>],
    skills_ref: &[Option<LoaderVerdict>],
    groups: &[Group],
    unreadable_dirs: &BTreeSet<String>,
    path_mode: bool,
    selection: &Selection,
) -> Vec<Finding> {
    let cells = verdicts(
        &View {
            parsed,
            groups,
            artifacts,
            unreadable_dirs,
            path_mode,
        },
        skills_ref,
        selection,
    );
    let mut findings = Vec::new();
    let by_path: BTreeMap<String, usize> = artifacts
        .iter()
        .enumerate()
        .map(|(i, a)| (a.path.clone(), i))
        .collect();
    let order: Vec<&'static str> = profiles().iter().map(|p| p.id).collect();
    for (i, mut verdicts) in cells {
        verdicts.sort_by_key(|v| order.iter().position(|p| *p == v.profile));
        let a = &artifacts[i];
        let entry = if a.path.is_empty() {
            a.entry.clone()
        } else {
            format!("{}/{}", a.path, a.entry)
        };
        excluded_findings(a, &verdicts, &entry, &mut findings);
        shadow_findings(artifacts, &by_path, i, &mut verdicts, &entry, &mut findings);
        // Fields read differently by different parsers, even when every harness loads.
        if let Some(p) = &parsed[i] {
            for (what, anchor, line) in &p.differentials {
                let a = &artifacts[i];
                let at = match line {
                    Some(l) => {
                        Location::at(entry.clone(), u32::try_from(*l).unwrap_or(u32::MAX), 1)
                    }
                    None => Location::file(entry.clone()),
                };
                findings.push(
                    Finding::new(ids::LOADER_DIFFERENTIAL, what.clone(), at).for_skill(
                        Some(&a.name),
                        Some(&a.path),
                        anchor,
                    ),
                );
            }
        }
        disagreement_finding(&artifacts[i], &verdicts, &entry, &mut findings);
        artifacts[i].loaders = verdicts;
    }
    findings
}

/// Every selected profile's verdicts, by artifact index.
fn verdicts(
    view: &View<'_>,
    skills_ref: &[Option<LoaderVerdict>],
    selection: &Selection,
) -> BTreeMap<usize, Vec<LoaderVerdict>> {
    let mut cells: BTreeMap<usize, Vec<LoaderVerdict>> = BTreeMap::new();
    let mut push = |i: usize, v: LoaderVerdict| cells.entry(i).or_default().push(v);
    if selection.wants("maf") {
        for (i, v) in maf::evaluate(view, false) {
            push(i, v);
        }
    }
    if selection.wants("maf-1.18") {
        for (i, v) in maf::evaluate(view, true) {
            push(i, v);
        }
    }
    if selection.wants("skills-ref") {
        for (i, v) in skills_ref.iter().enumerate() {
            if let Some(v) = v {
                push(i, v.clone());
            }
        }
    }
    for h in harness::HARNESSES {
        if selection.wants(h.id) {
            for (i, v) in h.evaluate(view) {
                push(i, v);
            }
        }
    }
    cells
}

/// `skill-excluded-by-harness`: one finding per harness that does not load the skill.
fn excluded_findings(
    a: &Artifact,
    verdicts: &[LoaderVerdict],
    entry: &str,
    findings: &mut Vec<Finding>,
) {
    for v in verdicts {
        if v.status == LoadStatus::Excluded {
            let f = Finding::new(
                ids::SKILL_EXCLUDED_BY_HARNESS,
                format!(
                    "{} does not load this skill: {}.",
                    v.profile,
                    v.cause.as_deref().unwrap_or("excluded")
                ),
                Location::file(entry.to_owned()),
            )
            .for_skill(
                Some(&a.name),
                Some(&a.path),
                &format!("excluded:{}", v.profile),
            );
            findings.push(f);
        }
    }
}

/// `skill-shadowed`: one finding per winning copy, naming every harness where it wins;
/// the shadowed verdicts' causes are rewritten to name the winner.
fn shadow_findings(
    artifacts: &[Artifact],
    by_path: &BTreeMap<String, usize>,
    i: usize,
    verdicts: &mut [LoaderVerdict],
    entry: &str,
    findings: &mut Vec<Finding>,
) {
    let content = |a: &Artifact| -> Vec<(String, Option<String>)> {
        a.files
            .iter()
            .map(|f| (f.path.clone(), f.sha256.clone()))
            .collect()
    };
    let mut shadow: BTreeMap<String, Vec<&'static str>> = BTreeMap::new();
    for v in verdicts
        .iter_mut()
        .filter(|v| v.status == LoadStatus::Shadowed)
    {
        let winner = v.cause.clone().unwrap_or_default();
        shadow.entry(winner.clone()).or_default().push(v.profile);
        v.cause = Some(format!(
            "shadowed by `{winner}`, which has the same name and wins"
        ));
    }
    for (winner, harnesses) in shadow {
        let same = by_path
            .get(&winner)
            .is_some_and(|&w| content(&artifacts[w]) == content(&artifacts[i]));
        let a = &artifacts[i];
        let mut f = Finding::new(
            ids::SKILL_SHADOWED,
            format!(
                "another skill named `{}` at `{winner}` wins over this copy in {}; {}",
                sanitize_line(&a.name),
                harnesses.join(", "),
                if same {
                    "the two copies are identical, so nothing is lost. Keep one copy (or a symlink) to avoid drift."
                } else {
                    "the copies DIFFER, so which content the agent sees depends on the harness. Make them identical or rename one."
                }
            ),
            Location::file(entry.to_owned()),
        )
        .with_related(Location::file(winner.clone()), "the copy that wins")
        .for_skill(Some(&a.name), Some(&a.path), "shadowed");
        if same {
            f.severity = crate::finding::Severity::Info;
        }
        findings.push(f);
    }
}

/// `loader-differential`: some harnesses load the skill and others do not.
fn disagreement_finding(
    a: &Artifact,
    verdicts: &[LoaderVerdict],
    entry: &str,
    findings: &mut Vec<Finding>,
) {
    let loaded: Vec<&str> = verdicts
        .iter()
        .filter(|v| v.status == LoadStatus::Loaded)
        .map(|v| v.profile)
        .collect();
    let excluded: Vec<&str> = verdicts
        .iter()
        .filter(|v| v.status == LoadStatus::Excluded)
        .map(|v| v.profile)
        .collect();
    if !loaded.is_empty() && !excluded.is_empty() {
        findings.push(
            Finding::new(
                ids::LOADER_DIFFERENTIAL,
                format!(
                    "harnesses disagree about this skill: loaded by {}, not loaded by {}; a reviewer using one tool and a runtime using another see different skills. Fix the causes reported for each harness.",
                    loaded.join(", "),
                    excluded.join(", ")
                ),
                Location::file(entry.to_owned()),
            )
            .for_skill(Some(&a.name), Some(&a.path), "differential"),
        );
    }
}

/// Frontmatter fields that MAF's line reader, `skills-ref`'s substring split and
/// YAML parsers read differently: (message, fingerprint anchor). `block` is the
/// YAML between the delimiters, starting on line `first_line`; `name` and
/// `description` are the values a YAML parser reads.
fn field_differentials(
    maf_read: &Result<maf::Fields, maf::NoMatch>,
    block: &str,
    first_line: usize,
    name: Option<String>,
    description: Option<String>,
) -> Vec<(String, String, Option<usize>)> {
    let mut out = Vec::new();
    // The line of a top-level `key:` in the block (the YAML parsers' reading of it).
    let key_line = |key: &str| {
        block
            .lines()
            .position(|l| {
                l.strip_prefix(key)
                    .is_some_and(|rest| rest.trim_start_matches([' ', '\t']).starts_with(':'))
            })
            .map(|i| first_line + i)
    };
    // MAF reads the same block with its regex reader.
    if let Ok(m) = maf_read {
        for (key, mv, yv) in [
            ("name", &m.name, &name),
            ("description", &m.description, &description),
        ] {
            let norm = |s: &Option<String>| s.as_deref().map(str::trim).unwrap_or("").to_owned();
            if norm(mv) != norm(yv) {
                let (m, y) = (norm(mv), norm(yv));
                let (ms, ys, at) = differing_spans(&m, &y, 80);
                let show = |s: &str| {
                    if s.is_empty() {
                        "nothing".to_owned()
                    } else {
                        format!("`{}`", sanitize_line(s))
                    }
                };
                let first = if m.is_empty() || y.is_empty() {
                    String::new()
                } else {
                    format!(" (they first differ at character {})", at + 1)
                };
                out.push((
                    format!(
                        "`{key}` is read as {} by MAF's line reader but as {} by YAML parsers (skills-ref, Claude Code, VS Code, Codex){first}: a reviewer and a runtime see different values. Quote the value and keep each key on one line.",
                        show(&ms),
                        show(&ys)
                    ),
                    format!("field:maf:{key}"),
                    key_line(key),
                ));
            }
        }
    }
    // skills-ref ends the frontmatter at the first `---` anywhere, not at a `---` line.
    if let Some(pos) = block.find("---") {
        let line = first_line + block[..pos].matches('\n').count();
        out.push((
            format!(
                "line {line} contains `---` inside the frontmatter: skills-ref ends the frontmatter there (everything after it, including later keys, becomes body), while other loaders read to the closing `---` line. Avoid `---` inside frontmatter values."
            ),
            "field:skills-ref-cut".to_owned(),
            Some(line),
        ));
    }
    out
}

/// Excerpts of `a` and `b` of at most `width` characters around their first difference, with
/// `…` where text is cut, and that difference's character index. Two values that share a
/// long start used to be cut before the point where they differ.
fn differing_spans(a: &str, b: &str, width: usize) -> (String, String, usize) {
    let at = a
        .chars()
        .zip(b.chars())
        .position(|(x, y)| x != y)
        .unwrap_or_else(|| a.chars().count().min(b.chars().count()));
    // Some context before the difference, the rest after it.
    let start = at.saturating_sub(width / 4);
    let cut = |s: &str| {
        let n = s.chars().count();
        let mut out = String::new();
        if start > 0 && start < n {
            out.push('…');
        }
        out.extend(s.chars().skip(start).take(width));
        if start + width < n {
            out.push('…');
        }
        if start >= n && n > 0 {
            // The shorter value ends before the difference: show its end.
            let tail: String = s.chars().skip(n.saturating_sub(width / 4)).collect();
            return format!("{}{tail}", if n > width / 4 { "…" } else { "" });
        }
        out
    };
    (cut(a), cut(b), at)
}

/// The skills-ref profile's verdict on one skill, from its entry file's bytes (the
/// emulation reads them its own way). Made per skill right after its analysis, so the
/// bytes need not be kept.
pub fn skills_ref_verdict(a: &Artifact, bytes: Option<&[u8]>) -> LoaderVerdict {
    let (upper, lower) = match a.entry.as_str() {
        "SKILL.md" => (bytes, None),
        "skill.md" => (None, bytes),
        _ => (None, None),
    };
    let dir = if a.dir_name.is_empty() {
        a.name.as_str()
    } else {
        a.dir_name.as_str()
    };
    let errors = skills_ref::validate(dir, upper, lower);
    if errors.is_empty() {
        LoaderVerdict {
            exposes: None,
            profile: "skills-ref",
            status: LoadStatus::Loaded,
            cause: None,
        }
    } else {
        let shown: Vec<String> = errors
            .iter()
            // skills-ref's messages in full (they quote the offending value); bounded only
            // against hostile input, far above any real message.
            .map(|e| sanitize_line(&crate::text::truncate(e, 4096)).into_owned())
            .collect();
        LoaderVerdict {
            exposes: None,
            profile: "skills-ref",
            status: LoadStatus::Excluded,
            cause: Some(format!("skills-ref reports: {}", shown.join(" | "))),
        }
    }
}

/// The convention root of an artifact and its path below it.
pub(crate) fn below_root(a: &Artifact) -> Option<(&str, &str)> {
    let root = a.convention_root.as_deref()?;
    let rest = a.path.strip_prefix(root)?.trim_start_matches('/');
    Some((root, rest))
}

/// Is any ancestor folder of the artifact (below the boundary), or the folder
/// itself, reached through a symlink?
pub(crate) fn through_symlink(a: &Artifact) -> bool {
    a.symlink.is_some()
        || a.files
            .iter()
            .any(|f| f.path == a.entry && f.symlink.is_some())
}

/// The findings that can cause a harness to drop a skill, in order of preference, with
/// the (lower-cased) texts of the profiles' exclusion causes each one explains. The texts
/// are this module's own (the profiles', MAF's and the skills-ref emulation's messages).
const CAUSES: &[(&str, &[&str])] = &[
    (
        ids::FRONTMATTER_MISSING,
        &[
            "there is no frontmatter",
            "must start with yaml frontmatter",
            "does not start with a `---` line",
        ],
    ),
    (
        ids::FRONTMATTER_UNCLOSED,
        &["never closed", "not properly closed", "no closing `---`"],
    ),
    (
        ids::FRONTMATTER_DELIMITER_MALFORMED,
        &[
            "opening delimiter is not `---`",
            "must start with yaml frontmatter",
            "does not start with a `---` line",
            "not properly closed",
            "no closing `---`",
        ],
    ),
    (ids::FRONTMATTER_BOM, &["byte-order mark"]),
    (ids::FRONTMATTER_LEADING_BLANK_LINES, &["blank line"]),
    (ids::FILE_INVALID_UTF8, &["unicodedecodeerror"]),
    (ids::SKILL_FILENAME_NONCANONICAL, &["the file is named"]),
    (
        ids::SKILL_NESTED,
        &[
            "levels below",
            "stops descending",
            "nothing below it is searched",
        ],
    ),
    (
        ids::YAML_DUPLICATE_KEY,
        &[
            "duplicate key",
            "not a valid yaml mapping",
            "invalid yaml in frontmatter",
        ],
    ),
    (
        ids::YAML_SYNTAX_ERROR,
        &["not a valid yaml mapping", "invalid yaml in frontmatter"],
    ),
    (
        ids::YAML_NOT_MAPPING,
        &["not a valid yaml mapping", "invalid yaml in frontmatter"],
    ),
    (
        ids::YAML_BUDGET_EXCEEDED,
        &["not a valid yaml mapping", "invalid yaml in frontmatter"],
    ),
    (
        ids::YAML_STRICTYAML_INCOMPATIBLE,
        &["invalid yaml in frontmatter"],
    ),
    (
        ids::NAME_MISSING,
        &["no `name`", "empty `name`", "field 'name' must be"],
    ),
    (
        ids::NAME_TOO_LONG,
        &["a `name` of", "the name is ", "exceeds 64 character limit"],
    ),
    (
        ids::NAME_INVALID_CHARS,
        &[
            "name rule",
            "breaks its rule",
            "must be lowercase",
            "contains invalid characters",
        ],
    ),
    (
        ids::NAME_CONSECUTIVE_HYPHENS,
        &["name rule", "breaks its rule", "consecutive hyphens"],
    ),
    (
        ids::NAME_LEADING_TRAILING_HYPHEN,
        &["name rule", "breaks its rule", "start or end with a hyphen"],
    ),
    (
        ids::NAME_DIRECTORY_MISMATCH,
        &[
            "does not match the directory",
            "does not match the folder",
            "must match skill name",
        ],
    ),
    (
        ids::DESCRIPTION_MISSING,
        &[
            "no `description`",
            "empty `description`",
            "field 'description' must be",
        ],
    ),
    (
        ids::DESCRIPTION_TOO_LONG,
        &[
            "a `description` of",
            "the description is",
            "description exceeds",
        ],
    ),
    (
        ids::COMPATIBILITY_TOO_LONG,
        &["`compatibility` is", "compatibility exceeds"],
    ),
    (
        ids::FRONTMATTER_UNKNOWN_KEY,
        &["unexpected fields in frontmatter"],
    ),
    (
        ids::FRONTMATTER_EXTENSION_KEY,
        &["unexpected fields in frontmatter"],
    ),
    // A field that MAF's line reader or skills-ref's substring split reads differently
    // (a `loader-differential` of its own, anchored `field:…`).
    (
        ids::LOADER_DIFFERENTIAL,
        &["maf reads", "skills-ref reports:"],
    ),
];

/// The keys skills-ref names in "Unexpected fields in frontmatter: a, b. Only […]".
fn unexpected_fields(cause: &str) -> Vec<&str> {
    let Some((_, rest)) = cause.split_once("Unexpected fields in frontmatter: ") else {
        return Vec::new();
    };
    let list = rest.split(". Only").next().unwrap_or("");
    list.split(", ").map(str::trim).collect()
}

/// Does cause finding `f` (of the `CAUSES` entry `texts`) explain a harness that drops
/// the skill for `cause` (the profile's text)?
fn explains(f: &Finding, texts: &[&str], cause: &str) -> bool {
    let lower = cause.to_lowercase();
    if !texts.iter().any(|t| lower.contains(t)) {
        return false;
    }
    match f.rule_id {
        ids::FRONTMATTER_UNKNOWN_KEY | ids::FRONTMATTER_EXTENSION_KEY => f
            .anchor
            .strip_prefix("key:")
            .is_some_and(|k| unexpected_fields(cause).contains(&k)),
        ids::LOADER_DIFFERENTIAL => match f.anchor.as_str() {
            "field:maf:name" => lower.contains("maf reads") && lower.contains("`name`"),
            "field:maf:description" => {
                lower.contains("maf reads") && lower.contains("`description`")
            }
            "field:skills-ref-cut" => lower.contains("skills-ref reports:"),
            _ => false,
        },
        _ => true,
    }
}

/// One cause, one finding: every `skill-excluded-by-harness` finding whose cause is
/// another finding of the same skill (an unknown key, a name that does not match its
/// folder, missing frontmatter…) is attached to that finding as a consequence instead of
/// standing on its own, and so is the skill's `loader-differential` ("harnesses
/// disagree") when every exclusion it lists was attached. The cause's severity becomes
/// the highest of what it causes (a harness silently dropping the skill stays visible),
/// and its message says which harnesses drop it. Exclusions without a recognised cause
/// stand on their own. `findings` need not be sorted; the order is kept otherwise.
pub fn attach_consequences(findings: &mut Vec<Finding>) {
    // Findings by skill path, in a deterministic order (the canonical sort).
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| findings[a].sort_key().cmp(&findings[b].sort_key()));
    let mut by_skill: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in &order {
        if let Some(sp) = findings[i].skill_path.as_deref() {
            by_skill.entry(sp).or_default().push(i);
        }
    }
    // (consequence index, primary index)
    let mut links: Vec<(usize, usize)> = Vec::new();
    for idx in by_skill.values() {
        let excluded: Vec<usize> = idx
            .iter()
            .copied()
            .filter(|&i| findings[i].rule_id == ids::SKILL_EXCLUDED_BY_HARNESS)
            .collect();
        if excluded.is_empty() {
            continue;
        }
        let mut attached = 0usize;
        let mut primaries: Vec<usize> = Vec::new();
        for &e in &excluded {
            let cause = findings[e]
                .message
                .split_once(" does not load this skill: ")
                .map_or("", |(_, c)| c);
            let primary = CAUSES.iter().find_map(|(rule, texts)| {
                idx.iter().copied().find(|&i| {
                    i != e && findings[i].rule_id == *rule && explains(&findings[i], texts, cause)
                })
            });
            if let Some(p) = primary {
                links.push((e, p));
                attached += 1;
                if !primaries.contains(&p) {
                    primaries.push(p);
                }
            }
        }
        // The disagreement follows from the exclusions: attached when they all were.
        if attached == excluded.len() {
            let differential = idx.iter().copied().find(|&i| {
                findings[i].rule_id == ids::LOADER_DIFFERENTIAL
                    && findings[i].anchor == "differential"
            });
            let primary = primaries
                .iter()
                .copied()
                .max_by_key(|&p| (findings[p].severity, std::cmp::Reverse(p)));
            if let (Some(d), Some(p)) = (differential, primary) {
                links.push((d, p));
            }
        }
    }
    if links.is_empty() {
        return;
    }
    let mut by_primary: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &(c, p) in &links {
        by_primary.entry(p).or_default().push(c);
    }
    for (p, cs) in &by_primary {
        let mut consequences: Vec<Consequence> = cs
            .iter()
            .map(|&c| {
                let f = &findings[c];
                let profile = f
                    .anchor
                    .strip_prefix("excluded:")
                    .map(str::to_owned)
                    .filter(|_| f.rule_id == ids::SKILL_EXCLUDED_BY_HARNESS);
                Consequence::of(f, profile)
            })
            .collect();
        consequences.sort();
        let dropped: Vec<&str> = consequences
            .iter()
            .filter_map(|c| c.profile.as_deref())
            .collect();
        let differential = consequences
            .iter()
            .any(|c| c.rule_id == ids::LOADER_DIFFERENTIAL);
        let worst = consequences.iter().map(|c| c.severity).max();
        let primary = &mut findings[*p];
        if !dropped.is_empty() {
            primary.message.push_str(&format!(
                " As a result, {} {} not load the skill{}.",
                dropped.join(", "),
                if dropped.len() == 1 { "does" } else { "do" },
                if differential {
                    " while other harnesses do (a loader differential)"
                } else {
                    ""
                }
            ));
        }
        if let Some(w) = worst
            && w > primary.severity
        {
            primary.severity = w;
        }
        primary.consequences.extend(consequences);
        primary.consequences.sort();
    }
    let drop: BTreeSet<usize> = links.iter().map(|&(c, _)| c).collect();
    let mut i = 0usize;
    findings.retain(|_| {
        let keep = !drop.contains(&i);
        i += 1;
        keep
    });
}
