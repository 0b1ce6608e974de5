//! `--compat agenteval`: the scan as AgentEval's `skills scan` reports it
//! (docs/migrating-from-agenteval.md), so scripts written against AgentEval keep working.
//!
//! The report is rebuilt from the scan, not translated finding by finding: AgentEval sees only
//! the skills MAF's discovery reaches in its nine conventions (the `maf` loader profile), runs
//! its own 15-rule validator on the skills MAF loads, explains each silently excluded folder
//! with the messages its raw frontmatter reader gives (`parse::agenteval_raw`), and adds
//! cross-location drift and manifest drift. Every other finding of the scan is left out and
//! counted (the caller prints one note). Where the reference leaves a text open, the choice is
//! written in `docs/migrating-from-agenteval.md` ("Where compatibility stops").

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::Path;

use serde::Serialize;

use crate::inventory::{Artifact, ArtifactKind, LoadStatus};
use crate::loaders::maf;
use crate::parse::agenteval_raw::RawFields;
use crate::result::ScanResult;
use crate::rules::ids;
use crate::text::{sanitize_line, utf16_units};

/// AgentEval's `SkillComplianceRule`, by its integer value.
pub const RULES: [&str; 15] = crate::catalog::AGENTEVAL_RULES;

/// AgentEval's `Severity`: `Low = 0`, `Medium = 1`, `High = 2`.
pub const SEVERITIES: [&str; 3] = ["Low", "Medium", "High"];

const LOW: u8 = 0;
const MEDIUM: u8 = 1;
const HIGH: u8 = 2;

/// A skill's provenance as AgentEval prints it (`Source`, `SourceUrl`, `Ref`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct AeProvenance {
    pub source: Option<String>,
    pub source_url: Option<String>,
    #[serde(rename = "Ref")]
    pub reference: Option<String>,
}

impl AeProvenance {
    /// `source@ref` (the console's `→ from …` and Markdown's Source column).
    fn label(&self) -> String {
        let base = self
            .source
            .clone()
            .or_else(|| self.source_url.clone())
            .unwrap_or_default();
        match &self.reference {
            Some(r) => format!("{base}@{r}"),
            None => base,
        }
    }
}

/// One `SkillComplianceFinding`, fields in AgentEval's order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct AeFinding {
    pub skill_name: String,
    pub rule: u8,
    pub severity: u8,
    pub message: String,
    pub field: Option<&'static str>,
    /// Present (object or `null`) only when a `skills-lock.json` gave provenance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Option<AeProvenance>>,
}

/// `Coverage` of the report.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct AeCoverage {
    pub skill_count: usize,
    pub with_resources: usize,
    pub with_scripts: usize,
    /// `load`, `read`, `run` (sorted, which is AgentEval's order too); empty when no root
    /// was scanned.
    pub stage_histogram: BTreeMap<&'static str, usize>,
    pub silently_excluded_count: usize,
}

/// The whole report as AgentEval serialises it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
pub struct AeReport {
    pub findings: Vec<AeFinding>,
    pub coverage: AeCoverage,
    pub is_compliant: bool,
}

/// The report and what it leaves out.
#[derive(Debug, Clone)]
pub struct Converted {
    pub report: AeReport,
    /// The entry files as MAF and AgentEval's raw reader read them.
    pub views: EntryViews,
    /// Findings of the scan that are not in the report (skillguard's own rules).
    pub omitted: usize,
    /// The skills MAF loads (indices into `ScanResult::artifacts`), in the report's order: the
    /// entries of a ledger snapshot and of a pin file.
    pub loaded: Vec<usize>,
    /// Per (repository, convention): skills loaded and findings (drift left out), for
    /// AgentEval's stderr summary of a repository or workspace scan.
    pub per_root: BTreeMap<(Option<String>, String), (usize, usize)>,
}

/// AgentEval's inventory of a skill: resources under `resources/`, scripts under
/// `scripts/`, recursively, by extension.
pub fn inventory(a: &Artifact) -> (usize, usize) {
    let ext = |p: &str| {
        p.rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default()
    };
    let mut res = 0;
    let mut scripts = 0;
    for f in &a.files {
        if let Some(rest) = f.path.strip_prefix("resources/")
            && !rest.is_empty()
            && matches!(
                ext(&f.path).as_str(),
                "md" | "txt" | "json" | "csv" | "yaml" | "yml"
            )
        {
            res += 1;
        }
        if let Some(rest) = f.path.strip_prefix("scripts/")
            && !rest.is_empty()
            && matches!(
                ext(&f.path).as_str(),
                "csx" | "cs" | "py" | "js" | "ts" | "sh" | "ps1"
            )
        {
            scripts += 1;
        }
    }
    (res, scripts)
}

/// What the validator reads of a skill (`SkillManifest`).
struct Manifest<'a> {
    name: Option<&'a str>,
    description: Option<&'a str>,
    compatibility_len: usize,
    dir: &'a str,
    scripts: usize,
    allowed_tools: usize,
}

/// One validator finding: rule number, severity, message, field.
type Check = (u8, u8, String, Option<&'static str>);

/// `SkillComplianceValidator.ValidateSingle`, in its order. Returns the skill's label
/// and its findings.
fn validate(m: &Manifest<'_>) -> (String, Vec<Check>) {
    let mut out = Vec::new();
    let name = m.name.map(str::trim).filter(|n| !n.is_empty());
    let label = match name {
        None => {
            out.push((
                0,
                HIGH,
                "Skill 'name' is missing or empty — GA requires a non-empty name.".to_owned(),
                Some("name"),
            ));
            "(unnamed skill)".to_owned()
        }
        Some(_) => {
            let n = m.name.unwrap_or_default();
            let len = utf16_units(n);
            if len > 64 {
                out.push((
                    1,
                    HIGH,
                    format!("Skill name '{n}' is {len} characters — GA limits 'name' to 64."),
                    Some("name"),
                ));
            }
            if !n
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            {
                out.push((
                    2,
                    HIGH,
                    format!("Skill name '{n}' contains characters outside [a-z0-9-] — GA requires lowercase letters, digits, and hyphens only."),
                    Some("name"),
                ));
            }
            if n.contains("--") {
                out.push((
                    3,
                    HIGH,
                    format!("Skill name '{n}' contains consecutive hyphens — GA disallows '--'."),
                    Some("name"),
                ));
            }
            if !m.dir.is_empty() && n != m.dir {
                out.push((
                    4,
                    HIGH,
                    format!(
                        "Skill name '{n}' does not match its parent directory '{}' — GA requires an exact match for file-sourced skills.",
                        m.dir
                    ),
                    Some("name"),
                ));
            }
            n.to_owned()
        }
    };
    match m.description.filter(|d| !d.trim().is_empty()) {
        None => out.push((
            5,
            HIGH,
            "Skill 'description' is missing or empty — GA requires a non-empty description (it is what the model sees to decide when to load the skill).".to_owned(),
            Some("description"),
        )),
        Some(d) if utf16_units(d) > 1024 => out.push((
            6,
            MEDIUM,
            format!(
                "Skill description is {} characters — GA limits 'description' to 1024.",
                utf16_units(d)
            ),
            Some("description"),
        )),
        Some(_) => {}
    }
    if m.compatibility_len > 500 {
        out.push((
            7,
            LOW,
            format!(
                "Skill 'compatibility' is {} characters — GA limits it to 500.",
                m.compatibility_len
            ),
            Some("compatibility"),
        ));
    }
    if m.scripts > 0 {
        out.push((
            8,
            MEDIUM,
            format!(
                "Skill '{label}' exposes {} script(s) reachable via run_skill_script — recommend registering SkillScriptExecutionGate/SkillScriptApprovalGate (Phase 3) before allowing this skill in production.",
                m.scripts
            ),
            None,
        ));
    }
    // 9 ResourceFromUntrustedSource: file skills are never an MCP or custom source.
    if m.allowed_tools > 0 {
        out.push((
            10,
            LOW,
            format!(
                "Skill '{label}' uses the experimental 'allowed-tools' frontmatter field ({} tool(s) listed) — subject to change before GA stabilization.",
                m.allowed_tools
            ),
            Some("allowed-tools"),
        ));
    }
    (label, out)
}

/// `allowed-tools` as AgentEval counts it: the value MAF read, split at commas, trimmed,
/// empties dropped.
fn allowed_tools(m: &maf::Fields) -> usize {
    m.allowed_tools
        .as_deref()
        .map_or(0, |s| s.split(',').filter(|t| !t.trim().is_empty()).count())
}

/// MAF's read of a skill's entry file.
/// AgentEval explains an exclusion with its own line reader, which MAF's reader does not
/// match (docs/migrating-from-agenteval.md: a block-scalar `description` MAF reads in full is "missing" to
/// AgentEval). When the reasons from the fields MAF really read differ from AgentEval's,
/// the message keeps AgentEval's words (byte-compatible where they agree) and adds MAF's
/// own cause, which native mode reports: ` (MAF's own reader, which skillguard runs, gives
/// the cause: …)`. Empty when they agree or MAF's fields are unknown.
fn maf_correction(views: &EntryViews, a: &Artifact, raw_reasons: &[String]) -> String {
    let Some(f) = views.maf(a) else {
        return String::new();
    };
    let (_, fs) = validate(&Manifest {
        name: f.name.as_deref(),
        description: f.description.as_deref(),
        compatibility_len: f.compatibility.as_deref().map_or(0, utf16_units),
        dir: &a.dir_name,
        scripts: 0,
        allowed_tools: 0,
    });
    let maf: Vec<String> = fs
        .into_iter()
        .filter(|(rule, ..)| !matches!(rule, 8..=10))
        .map(|(_, _, msg, _)| msg)
        .collect();
    if maf.is_empty() || maf == raw_reasons {
        return String::new();
    }
    format!(
        " (AgentEval's line reader differs from MAF's here; MAF's own reader, which skillguard runs, gives the cause: {})",
        maf.join(" ")
    )
}

/// What this report needs of each skill's entry file and the core model does not keep: MAF's
/// read of it (the fields of a loaded skill's `SkillManifest`) and AgentEval's raw line
/// reader's (the explanation of an exclusion), by skill location.
#[derive(Debug, Clone, Default)]
pub struct EntryViews {
    views: BTreeMap<String, (Option<maf::Fields>, RawFields)>,
}

/// The largest entry file read again here (the scan's default bound).
const MAX_ENTRY: u64 = 10 * 1024 * 1024;

impl EntryViews {
    /// Reads the entry file of every skill of `r` again, below `scan_base` (the folder skill
    /// paths are relative to): only a regular file the scan read itself (not a link, not
    /// reached through one, within the size bound), opened without following a link.
    pub fn read(r: &ScanResult, scan_base: &Path) -> EntryViews {
        use std::io::Read;
        let mut views = BTreeMap::new();
        for a in &r.artifacts {
            let readable = a.symlink.is_none()
                && a.files.iter().any(|f| {
                    f.path == a.entry
                        && f.symlink.is_none()
                        && !f.via_link
                        && f.sha256.is_some()
                        && f.size <= MAX_ENTRY
                });
            if !readable || a.path.split('/').any(|c| c == "..") {
                continue;
            }
            let path = crate::names::path_of(&crate::names::path_of(scan_base, &a.path), &a.entry);
            let Ok(f) = crate::fsutil::open_regular(&path) else {
                continue;
            };
            let mut bytes = Vec::new();
            if f.take(MAX_ENTRY).read_to_end(&mut bytes).is_err() {
                continue;
            }
            crate::read::trim_partial_utf8(&mut bytes);
            views.insert(
                a.path.clone(),
                (
                    maf::read(&bytes).ok(),
                    crate::parse::agenteval_raw::read(&bytes),
                ),
            );
        }
        EntryViews { views }
    }

    /// MAF's read of a skill's entry file.
    fn maf(&self, a: &Artifact) -> Option<&maf::Fields> {
        self.views.get(&a.path).and_then(|v| v.0.as_ref())
    }

    /// The raw reader's fields of a skill's entry file.
    fn raw(&self, a: &Artifact) -> RawFields {
        self.views
            .get(&a.path)
            .map(|v| v.1.clone())
            .unwrap_or_default()
    }

    /// The name MAF read (the entry's `Name` in AgentEval's report).
    pub fn maf_name(&self, a: &Artifact) -> Option<&str> {
        self.maf(a).and_then(|f| f.name.as_deref())
    }
}

/// A path made absolute as .NET's `Path.GetFullPath` does: against the current directory,
/// with `.` and `..` folded lexically (no link is resolved, nothing is read).
pub fn full_path(p: &Path) -> std::io::Result<std::path::PathBuf> {
    use std::path::Component;
    let abs = std::path::absolute(p)?;
    let mut out = std::path::PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    Ok(out)
}

/// The absolute folder of a path relative to the scan target, as .NET's `GetFullPath`
/// prints it (no link resolution).
fn full(base: &Path, rel: &str) -> String {
    // A scan of one skill's own folder names the skill by that folder: it is `base` itself.
    let own = !rel.contains('/')
        && base.file_name().is_some_and(|n| n == rel)
        && !crate::names::path_of(base, rel).exists();
    let p = if rel.is_empty() || own {
        base.to_path_buf()
    } else {
        crate::names::path_of(base, rel)
    };
    p.display().to_string()
}

fn provenance(a: &Artifact) -> Option<AeProvenance> {
    a.provenance.as_ref().map(|p| AeProvenance {
        source: p.source.clone(),
        source_url: p.source_url.clone(),
        reference: p.git_ref.clone(),
    })
}

/// AgentEval's `--check-baseline` history: the `yyyy-MM-dd` of the newest snapshot holding an
/// exact (name, content hash) pair.
pub type Vetted<'a> = &'a dyn Fn(&str, &str) -> Option<String>;

/// Builds AgentEval's report of a scan. `base` is the scan target as an absolute path (the
/// messages name absolute folders, as AgentEval's do); `vetted` is the ledger history with
/// `--check-baseline`.
pub fn convert(
    r: &ScanResult,
    base: &Path,
    scan_base: &Path,
    vetted: Option<Vetted<'_>>,
) -> Converted {
    let views = EntryViews::read(r, scan_base);
    let lock = r.lock_entries > 0 || r.artifacts.iter().any(|a| a.provenance.is_some());
    let prov = |a: Option<&Artifact>| lock.then(|| a.and_then(provenance));
    let mut loaded: Vec<(usize, usize)> = Vec::new();
    let mut excluded: Vec<usize> = Vec::new();
    // Roots whose discovery failed: the root folder and the cause.
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    let mut per_root: BTreeMap<(Option<String>, String), (usize, usize)> = BTreeMap::new();
    let root_of = |a: &Artifact| (a.repo.clone(), a.convention.clone().unwrap_or_default());
    let mut roots_seen = false;
    let order = |a: &Artifact| {
        a.convention
            .as_deref()
            .and_then(|c| maf::ROOTS.iter().position(|r| *r == c))
            .unwrap_or(0)
    };
    for (i, a) in r.artifacts.iter().enumerate() {
        if a.kind != ArtifactKind::Skill {
            continue;
        }
        let Some(v) = a.loaders.iter().find(|v| v.profile == "maf") else {
            continue;
        };
        roots_seen = true;
        match v.status {
            LoadStatus::Loaded | LoadStatus::Shadowed => loaded.push((order(a), i)),
            LoadStatus::Excluded => {
                let cause = v.cause.as_deref().unwrap_or_default();
                if let Some(why) = cause.strip_prefix(maf::ROOT_FAILURE) {
                    // MAF's root: the scanned folder in a plain scan, else the convention
                    // root (with its repository in a workspace).
                    let root = match r.mode {
                        crate::discover::Mode::Path => String::new(),
                        _ => a.convention_root.clone().unwrap_or_default(),
                    };
                    if !failed.contains_key(&root) {
                        per_root.entry(root_of(a)).or_default().1 += 1;
                    }
                    failed.entry(root).or_insert_with(|| why.to_owned());
                } else if !maf::beyond_discovery(cause) {
                    excluded.push(i);
                }
            }
        }
    }
    loaded.sort_by(|x, y| {
        (x.0, &r.artifacts[x.1].repo, &r.artifacts[x.1].path).cmp(&(
            y.0,
            &r.artifacts[y.1].repo,
            &r.artifacts[y.1].path,
        ))
    });
    let loaded: Vec<usize> = loaded.into_iter().map(|(_, i)| i).collect();
    let mut findings = Vec::new();
    let mut coverage = AeCoverage::default();
    for &i in &loaded {
        let a = &r.artifacts[i];
        let (res, scripts) = inventory(a);
        coverage.skill_count += 1;
        coverage.with_resources += usize::from(res > 0);
        coverage.with_scripts += usize::from(scripts > 0);
        let none = maf::Fields::default();
        let f = views.maf(a).unwrap_or(&none);
        let m = Manifest {
            name: f.name.as_deref(),
            description: f.description.as_deref(),
            compatibility_len: f.compatibility.as_deref().map_or(0, utf16_units),
            dir: &a.dir_name,
            scripts,
            allowed_tools: allowed_tools(f),
        };
        let (label, fs) = validate(&m);
        let e = per_root.entry(root_of(a)).or_default();
        e.0 += 1;
        e.1 += fs.len();
        for (rule, severity, message, field) in fs {
            findings.push(AeFinding {
                skill_name: label.clone(),
                rule,
                severity,
                message,
                field,
                provenance: prov(Some(a)),
            });
        }
    }
    for &i in &excluded {
        let a = &r.artifacts[i];
        let raw = views.raw(a);
        let (_, scripts) = inventory(a);
        let m = Manifest {
            name: raw.name.as_deref(),
            description: raw.description.as_deref(),
            compatibility_len: raw.compatibility.as_deref().map_or(0, utf16_units),
            dir: &a.dir_name,
            scripts,
            allowed_tools: 0,
        };
        let (label, fs) = validate(&m);
        let reasons: Vec<String> = fs
            .into_iter()
            .filter(|(rule, ..)| !matches!(rule, 8..=10))
            .map(|(_, _, msg, _)| msg)
            .collect();
        let correction = maf_correction(&views, a, &reasons);
        let why = if reasons.is_empty() {
            format!(
                "AgentEval's own rule-checker found no GA violation after reparsing this SKILL.md (name='{}', description-present={}) — this may indicate a MAF-side parsing difference (e.g. malformed YAML); inspect the file directly.",
                raw.name.as_deref().unwrap_or_default(),
                if raw.description.is_some() {
                    "True"
                } else {
                    "False"
                }
            )
        } else {
            reasons.join(" ")
        };
        coverage.silently_excluded_count += 1;
        per_root.entry(root_of(a)).or_default().1 += 1;
        findings.push(AeFinding {
            skill_name: label,
            rule: 11,
            severity: HIGH,
            message: format!(
                "Skill folder '{}' will NEVER be loaded — MAF excludes it silently because: {why} This is not a warning; the skill is non-functional as authored.{correction}",
                full(base, &a.path)
            ),
            field: None,
            provenance: prov(Some(a)),
        });
    }
    for (root, why) in &failed {
        // What MAF throws (docs/loaders.md, "maf"): the `compatibility` limit in the constructor, else
        // a folder that cannot be enumerated (the exception and its text are not recorded
        // there; the cause skillguard found stands in for them).
        let thrown = if why.contains("`compatibility`") {
            "ArgumentException: 'Skill compatibility must be 500 characters or fewer.'".to_owned()
        } else {
            format!("IOException: '{why}'")
        };
        findings.push(AeFinding {
            skill_name: "(discovery failure)".to_owned(),
            rule: 11,
            severity: HIGH,
            message: format!(
                "Skill discovery under '{}' failed entirely — MAF threw {thrown}. This usually means one SKILL.md under this path violates a MAF-enforced hard limit (e.g. 'compatibility' over 500 characters) that MAF treats as fatal rather than silently excluding. No skills could be validated until the offending file is fixed. This is not a warning; nothing under this path is functional until discovery succeeds.",
                full(base, root)
            ),
            field: None,
            provenance: prov(None),
        });
    }
    // Cross-location drift: repository and workspace scans only, over the loaded
    // skills, by name case-insensitively; the first spelling names the group.
    if r.mode != crate::discover::Mode::Path {
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        let mut at: BTreeMap<String, usize> = BTreeMap::new();
        for &i in &loaded {
            let a = &r.artifacts[i];
            let Some(name) = views.maf_name(a).filter(|n| !n.is_empty()) else {
                continue;
            };
            if a.agenteval_content_hash.is_none() {
                continue;
            }
            let key = name.to_lowercase();
            match at.get(&key) {
                Some(&g) => groups[g].1.push(i),
                None => {
                    at.insert(key, groups.len());
                    groups.push((name.to_owned(), vec![i]));
                }
            }
        }
        for (name, members) in groups {
            let mut hashes: Vec<&str> = members
                .iter()
                .filter_map(|&i| r.artifacts[i].agenteval_content_hash.as_deref())
                .collect();
            hashes.sort_unstable();
            hashes.dedup();
            if hashes.len() < 2 {
                continue;
            }
            let list: Vec<String> = members
                .iter()
                .map(|&i| {
                    let a = &r.artifacts[i];
                    let h = a.agenteval_content_hash.as_deref().unwrap_or_default();
                    format!("{} ({}…)", relative_path(a), &h[..h.len().min(8)])
                })
                .collect();
            findings.push(AeFinding {
                skill_name: name.clone(),
                rule: 12,
                severity: MEDIUM,
                message: format!(
                    "Skill '{name}' has DIFFERENT content across {} location(s): {} — the same skill name resolves to different content depending on which agent tool reads it. Verify this is intentional per-tool customization, not drift or poisoning.",
                    members.len(),
                    list.join(", ")
                ),
                field: None,
                provenance: prov(Some(&r.artifacts[members[0]])),
            });
        }
    }
    // Trust on first use: a loaded skill whose exact (name, content hash) pair is in
    // the ledger.
    if let Some(vetted) = vetted {
        for &i in &loaded {
            let a = &r.artifacts[i];
            let (Some(name), Some(hash)) = (views.maf_name(a), a.agenteval_content_hash.as_deref())
            else {
                continue;
            };
            if let Some(date) = vetted(name, hash) {
                findings.push(AeFinding {
                    skill_name: name.to_owned(),
                    rule: 13,
                    severity: LOW,
                    message: format!(
                        "✓ Skill '{name}' is byte-identical to a previously-captured baseline snapshot (most recent match: {date}) — no content drift since it was last vetted."
                    ),
                    field: None,
                    provenance: prov(Some(a)),
                });
            }
        }
    }
    // Manifest drift against a pin: a changed structural fingerprint, or a pinned value
    // that is missing or malformed, of the first loaded entry of each lower-cased name (an
    // excluded skill is "removed" for AgentEval, and later copies of a name are not compared).
    let mut first_of: BTreeMap<String, &str> = BTreeMap::new();
    for &i in &loaded {
        let a = &r.artifacts[i];
        if let Some(n) = views.maf_name(a) {
            first_of.entry(n.to_lowercase()).or_insert(a.path.as_str());
        }
    }
    for f in &r.findings {
        if f.rule_id != ids::MANIFEST_CHANGED_SINCE_BASELINE {
            continue;
        }
        let Some(p) = f.properties.as_ref() else {
            continue;
        };
        let Some(owner) = r
            .artifacts
            .iter()
            .find(|a| Some(a.path.as_str()) == f.skill_path.as_deref())
        else {
            continue;
        };
        let name = views.maf_name(owner).unwrap_or(&owner.name).to_owned();
        if first_of.get(&name.to_lowercase()) != Some(&owner.path.as_str()) {
            continue;
        }
        let fp = |k: &str| {
            p.get(k)
                .and_then(|v| v.get("structural"))
                .and_then(|v| v.as_str())
                .filter(|s| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()))
                .map(|s| s[..8].to_owned())
        };
        let malformed = p.get("pinned").is_some_and(fp_missing);
        let changed = p.get("structural_changed").and_then(|v| v.as_bool()) == Some(true);
        let message = match (fp("pinned"), fp("current")) {
            (Some(a), Some(b)) if changed && !malformed => format!(
                "Skill '{name}' manifest content changed since the trust-time baseline was captured (fingerprint {a}… -> {b}…) — verify this change was reviewed and re-approved before trusting it again."
            ),
            _ if malformed => format!(
                "Skill '{name}' manifest content changed since the trust-time baseline was captured (the baseline file has a missing or malformed hash for this skill — re-capture it with --save-manifest-baseline) — verify this change was reviewed and re-approved before trusting it again."
            ),
            _ => continue,
        };
        findings.push(AeFinding {
            skill_name: name,
            rule: 14,
            severity: HIGH,
            message,
            field: None,
            provenance: prov(Some(owner)),
        });
    }
    if roots_seen || r.mode == crate::discover::Mode::Path {
        coverage.stage_histogram = [
            ("load", coverage.skill_count),
            ("read", coverage.with_resources),
            ("run", coverage.with_scripts),
        ]
        .into();
    }
    let is_compliant = !findings.iter().any(|f| f.severity == HIGH);
    Converted {
        report: AeReport {
            findings,
            coverage,
            is_compliant,
        },
        // Findings of rules AgentEval has (by their `agenteval` alias) are in the report, in
        // AgentEval's form; the others are what it leaves out.
        omitted: r
            .findings
            .iter()
            .filter(|f| crate::catalog::get(f.rule_id).is_none_or(|m| m.agenteval.is_none()))
            .count(),
        views,
        loaded,
        per_root,
    }
}

/// A pinned structural value that AgentEval reads as missing or malformed (null, empty, not
/// 64 hexadecimal digits).
fn fp_missing(pinned: &serde_json::Value) -> bool {
    !pinned
        .get("structural")
        .and_then(|v| v.as_str())
        .is_some_and(|s| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// AgentEval's `RelativePath` of an entry: `{convention}/{dir}` (with the repository first in
/// a workspace), `{dir}` for a plain scan.
pub fn relative_path(a: &Artifact) -> String {
    let leaf = if a.dir_name.is_empty() {
        a.name.as_str()
    } else {
        a.dir_name.as_str()
    };
    let mut parts: Vec<&str> = Vec::new();
    if let Some(r) = a.repo.as_deref() {
        parts.push(r);
    }
    if let Some(c) = a.convention.as_deref() {
        parts.push(c);
    }
    parts.push(leaf);
    parts.join("/")
}

/// Findings in the console's and Markdown's order: severity descending, then skill name
/// (ordinal), stable.
fn sorted(r: &AeReport) -> Vec<&AeFinding> {
    let mut v: Vec<&AeFinding> = r.findings.iter().collect();
    v.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.skill_name.as_bytes().cmp(b.skill_name.as_bytes()))
    });
    v
}

fn rule_name(n: u8) -> &'static str {
    RULES.get(usize::from(n)).copied().unwrap_or("Unknown")
}

fn severity_name(n: u8) -> &'static str {
    SEVERITIES.get(usize::from(n)).copied().unwrap_or("Unknown")
}

/// The three formats AgentEval renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AeFormat {
    Console,
    Markdown,
    Json,
}

/// Renders the report. On standard output (`stdout`) AgentEval's `Console.WriteLine` adds one
/// line end after the document; a file (`-o`) holds the document alone.
pub fn render(r: &AeReport, format: AeFormat, stdout: bool, out: &mut dyn Write) -> io::Result<()> {
    match format {
        AeFormat::Console => render_console(r, out)?,
        AeFormat::Markdown => render_markdown(r, out)?,
        AeFormat::Json => render_json(r, out)?,
    }
    if stdout {
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// `--format json`: the record as System.Text.Json writes it (no final line end).
pub fn render_json(r: &AeReport, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(crate::dotnet_json::to_string_pretty(r).as_bytes())
}

/// `--format console`.
pub fn render_console(r: &AeReport, out: &mut dyn Write) -> io::Result<()> {
    let c = &r.coverage;
    let mut s = String::new();
    s.push_str("Skill Compliance Report\n========================\n");
    s.push_str(&format!(
        "Skills scanned: {} | with resources: {} | with scripts: {}\n",
        c.skill_count, c.with_resources, c.with_scripts
    ));
    s.push_str(&format!(
        "Compliant: {} ({} finding(s))\n",
        if r.is_compliant { "YES" } else { "NO" },
        r.findings.len()
    ));
    if c.silently_excluded_count > 0 {
        s.push_str(&format!(
            "!! SILENTLY EXCLUDED BY MAF: {} skill folder(s) on disk will NEVER load — see SkillExcludedFromDiscovery findings below.\n",
            c.silently_excluded_count
        ));
    }
    s.push('\n');
    if r.findings.is_empty() {
        s.push_str("No findings — every scanned skill is clean.\n");
    }
    for f in sorted(r) {
        let from = match &f.provenance {
            Some(Some(p)) => format!(" → from {}", sanitize_line(&p.label())),
            _ => String::new(),
        };
        s.push_str(&format!(
            "[{}] {} — {}: {}{from}\n",
            severity_name(f.severity),
            sanitize_line(&f.skill_name),
            rule_name(f.rule),
            sanitize_line(&f.message)
        ));
    }
    s.push_str("\nStage reachability (static — 'advertise' is not a tool call, never counted):\n");
    for (k, v) in &c.stage_histogram {
        s.push_str(&format!("  {k}: {v}\n"));
    }
    out.write_all(s.as_bytes())
}

/// A table cell: escaped as skillguard's own Markdown escapes scanned text
/// ([`crate::text::escape_markdown`]: control characters shown as escapes, Markdown and HTML
/// metacharacters escaped, links and mentions defanged). AgentEval escapes only `|` in
/// messages; this is the one deliberate difference from its bytes
/// (docs/migrating-from-agenteval.md).
fn cell(s: &str) -> String {
    crate::text::escape_markdown(s)
}

/// `--format markdown` (the newest version with its `Source` column).
pub fn render_markdown(r: &AeReport, out: &mut dyn Write) -> io::Result<()> {
    let c = &r.coverage;
    let mut s = String::new();
    s.push_str("# Skill Compliance Report\n\n");
    s.push_str(&format!(
        "**Skills scanned:** {} · **with resources:** {} · **with scripts:** {}\n\n",
        c.skill_count, c.with_resources, c.with_scripts
    ));
    s.push_str(&format!(
        "**Compliant:** {} ({} finding(s))\n\n",
        if r.is_compliant { "✅ YES" } else { "❌ NO" },
        r.findings.len()
    ));
    if c.silently_excluded_count > 0 {
        s.push_str(&format!(
            "> ⚠️ **SILENTLY EXCLUDED BY MAF:** {} skill folder(s) on disk will NEVER load — see `SkillExcludedFromDiscovery` findings below.\n\n",
            c.silently_excluded_count
        ));
    }
    s.push_str("## Coverage\n\n| Stage | Reachable skills |\n|---|---:|\n");
    for (k, v) in &c.stage_histogram {
        s.push_str(&format!("| {k} | {v} |\n"));
    }
    s.push_str("\n## Findings\n\n");
    if r.findings.is_empty() {
        s.push_str("No findings — every scanned skill is clean.\n");
    } else {
        s.push_str("| Severity | Skill | Rule | Message | Source |\n|---|---|---|---|---|\n");
        for f in sorted(r) {
            // An empty Source cell is `| |`, as in the reference's sample.
            let src = match &f.provenance {
                Some(Some(p)) => format!(" {} ", cell(&p.label())),
                _ => " ".to_owned(),
            };
            s.push_str(&format!(
                "| {} | {} | {} | {} |{}|\n",
                severity_name(f.severity),
                cell(&f.skill_name),
                rule_name(f.rule),
                cell(&f.message),
                src
            ));
        }
    }
    out.write_all(s.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(skill: &str, rule: u8, severity: u8, message: &str) -> AeFinding {
        AeFinding {
            skill_name: skill.into(),
            rule,
            severity,
            message: message.into(),
            field: None,
            provenance: None,
        }
    }

    fn report(findings: Vec<AeFinding>, excluded: usize) -> AeReport {
        AeReport {
            is_compliant: !findings.iter().any(|f| f.severity == HIGH),
            findings,
            coverage: AeCoverage {
                skill_count: 1,
                with_resources: 1,
                with_scripts: 1,
                stage_histogram: [("load", 1), ("read", 1), ("run", 1)].into(),
                silently_excluded_count: excluded,
            },
        }
    }

    // The reference's samples are reproduced byte for byte from real scans in
    // tests/compat_agenteval.rs.

    // P02, P04, P06, P08 of the reference's renderer conformance rows.
    #[test]
    fn renderer_conformance_rows() {
        let empty = AeReport {
            findings: vec![],
            coverage: AeCoverage::default(),
            is_compliant: true,
        };
        let mut out = Vec::new();
        render_console(&empty, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("No findings"), "{text}");
        assert!(!text.contains("SILENTLY EXCLUDED"), "{text}");
        let r = report(vec![f("a|b", 0, LOW, "x | y")], 2);
        let mut out = Vec::new();
        render_markdown(&r, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("x \\| y"), "{text}");
        assert!(text.contains("2 skill folder(s)"), "{text}");
        let mut out = Vec::new();
        render_json(&report(vec![], 3), &mut out).unwrap();
        assert!(
            String::from_utf8(out)
                .unwrap()
                .contains("\"SilentlyExcludedCount\": 3")
        );
        let r = report(
            vec![
                f("(unnamed skill)", 10, LOW, "l"),
                f("(unnamed skill)", 0, HIGH, "h"),
            ],
            0,
        );
        let mut out = Vec::new();
        render_console(&r, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.find("[High]").unwrap() < text.find("[Low]").unwrap(),
            "{text}"
        );
    }

    #[test]
    fn full_paths_fold_dots_as_get_full_path() {
        assert_eq!(
            full_path(Path::new("/a/b/../c/./d")).unwrap(),
            Path::new("/a/c/d")
        );
        assert!(full_path(Path::new("x/../y")).unwrap().is_absolute());
    }

    // The validator rows that the messages depend on.
    #[test]
    fn validator_messages() {
        let m = |name: Option<&'static str>, dir: &'static str| Manifest {
            name,
            description: Some("d"),
            compatibility_len: 0,
            dir,
            scripts: 0,
            allowed_tools: 0,
        };
        let (label, fs) = validate(&m(None, "x"));
        assert_eq!(label, "(unnamed skill)");
        assert_eq!(fs.len(), 1);
        let (_, fs) = validate(&m(Some("Bad--Name"), "bad--name"));
        let rules: Vec<u8> = fs.iter().map(|f| f.0).collect();
        assert_eq!(rules, [2, 3, 4]);
        assert_eq!(
            fs[1].2,
            "Skill name 'Bad--Name' contains consecutive hyphens — GA disallows '--'."
        );
        let long = "a".repeat(65);
        let (_, fs) = validate(&Manifest {
            name: Some(&long),
            description: None,
            compatibility_len: 501,
            dir: "",
            scripts: 2,
            allowed_tools: 3,
        });
        let rules: Vec<(u8, u8)> = fs.iter().map(|f| (f.0, f.1)).collect();
        assert_eq!(
            rules,
            [(1, HIGH), (5, HIGH), (7, LOW), (8, MEDIUM), (10, LOW)]
        );
    }
}
