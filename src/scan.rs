//! The scan pipeline: plan → one parallel walk → group into skills → analyse
//! each skill in a rayon pool (panics caught per skill) → sort → summarise.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use crate::analyze::{self, ReadOptions, Shared};
use crate::discover::{self, DiscoverError, EntryKind, Mode, WalkIssue, WalkOptions};
use crate::finding::{Finding, Location, SeverityCounts, sort_findings};
use crate::inventory::{Artifact, ArtifactKind, LinkState, SymlinkInfo};
use crate::rules::ids;

/// Everything that shapes a scan.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    pub walk: WalkOptions,
    pub read: ReadOptions,
    /// Worker threads for analysis and the walk (0 = one per core).
    pub threads: usize,
    /// Which loader profiles to emulate.
    pub profiles: crate::loaders::Selection,
    /// How content hashes are computed (baselines).
    pub hash: crate::baseline::hashes::HashOptions,
    /// Test hook: panic while analysing the skill in the directory with this name.
    #[doc(hidden)]
    pub panic_on_skill: Option<String>,
}

/// AgentEval-compatible coverage counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Skills a strict loader would load.
    pub skill_count: usize,
    pub with_resources: usize,
    pub with_scripts: usize,
    /// `load` / `read` / `run` stage counts, as AgentEval reports them.
    pub stage_histogram: BTreeMap<String, usize>,
    /// Skills discovered but excluded by a strict loader.
    pub silently_excluded_count: usize,
    /// Every skill directory discovered.
    pub discovered: usize,
}

/// One convention root in a repository summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConventionSummary {
    pub convention: String,
    pub path: String,
    pub skills: usize,
}

/// Per-repository (or per scanned tree) summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoSummary {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    pub path: String,
    pub skills: usize,
    pub excluded: usize,
    pub findings: usize,
    pub counts: SeverityCounts,
    pub conventions: Vec<ConventionSummary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub absent_conventions: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The result of a scan: the model every renderer consumes.
#[derive(Debug, Clone)]
pub struct ScanResult {
    pub mode: Mode,
    /// The scanned path as given on the command line (information only).
    pub target: String,
    pub artifacts: Vec<Artifact>,
    pub findings: Vec<Finding>,
    pub coverage: Coverage,
    pub repos: Vec<RepoSummary>,
    /// Hidden workspace entries skipped (`.git`, ...).
    pub hidden_skipped: usize,
    pub files_scanned: usize,
    pub bytes_scanned: u64,
}

impl ScanResult {
    pub fn counts(&self) -> SeverityCounts {
        SeverityCounts::from_findings(&self.findings)
    }
}

/// Is `rel` somewhere skills are expected: a scanned skills root, or inside a
/// convention root of a repository?
fn where_skills_live(g: &discover::Group, rel: &str) -> bool {
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
fn stray_issues(
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
                message: format!("`{shown}` is a {kind}; skillguard never opens it, and a skills tree has no reason to contain one. Remove it."),
                group: e.group,
            }),
            _ => {}
        }
    }
    out
}

/// Runs a scan.
pub fn scan(mode: Mode, target: &Path, opts: &ScanOptions) -> Result<ScanResult, DiscoverError> {
    // Compile the security rule set (a fixed ~0.15 s) on its own thread while the tree is
    // walked, instead of on the first analysis worker while the others wait for it.
    std::thread::spawn(|| {
        let _ = crate::security::patterns::compiled();
    });
    let plan = match mode {
        Mode::Path => discover::plan_path(target)?,
        Mode::Repo => discover::plan_repo(target, opts.walk.conventions_only)?,
        Mode::Workspace => discover::plan_workspace(target, opts.walk.conventions_only)?,
    };
    let mut plan = plan;
    if opts.walk.respect_gitignore {
        plan.drop_gitignored_roots();
    }
    let discover::Plan {
        groups,
        starts,
        link_starts,
        mut issues,
        hidden,
    } = plan;
    let mut walk_opts = opts.walk.clone();
    walk_opts.threads = opts.threads;
    let (entries, walk_issues) = crate::timing::time(crate::timing::Stage::Walk, || {
        discover::walk(&groups, &starts, &link_starts, &walk_opts)
    });
    issues.extend(walk_issues);

    let mut groups = groups;
    discover::add_plugin_roots(&mut groups, &entries);
    let skills = discover::group_skills(&entries, &groups);
    issues.extend(stray_issues(&entries, &skills, &groups));
    let dir_links: BTreeMap<String, SymlinkInfo> = entries
        .iter()
        .filter_map(|e| match &e.kind {
            EntryKind::Symlink(i) if i.target_is_dir && i.state == LinkState::Inside => {
                Some((e.rel.clone(), i.clone()))
            }
            _ => None,
        })
        .collect();
    // Convention roots that are themselves symlinks were walked at their target;
    // record them so their skills are reported as symlinked.
    let mut dir_links = dir_links;
    for g in &groups {
        for (root, _) in &g.convention_roots {
            let abs = g.boundary.join(
                root.strip_prefix(&g.boundary_rel)
                    .unwrap_or(root)
                    .trim_start_matches('/'),
            );
            if std::fs::symlink_metadata(&abs).is_ok_and(|m| m.file_type().is_symlink()) {
                dir_links.insert(root.clone(), discover::resolve_link(&abs, g));
            }
        }
    }

    let read = opts.read.clone();
    let shared = Shared {
        entries: &entries,
        groups: &groups,
        dir_links: &dir_links,
        read: &read,
        panic_on: opts.panic_on_skill.as_deref(),
    };
    let run = || -> Vec<(Artifact, Vec<Finding>)> {
        skills
            .par_iter()
            .map(|sd| {
                catch_unwind(AssertUnwindSafe(|| analyze::analyze_skill(sd, &shared))).unwrap_or_else(|payload| {
                    let msg = payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                        .unwrap_or_else(|| "unknown panic".into());
                    let dir_name = sd.rel.rsplit('/').next().unwrap_or(&sd.rel).to_owned();
                    let entry_path = if sd.rel.is_empty() { sd.entry.clone() } else { format!("{}/{}", sd.rel, sd.entry) };
                    let f = Finding::new(
                        ids::INTERNAL_ERROR,
                        format!(
                            "skillguard failed while analysing this skill ({}); the other skills were scanned. Please report this.",
                            crate::text::sanitize_line(&msg)
                        ),
                        Location::file(entry_path),
                    )
                    .for_skill(Some(&dir_name), Some(&sd.rel), "panic");
                    let artifact = Artifact {
                        kind: ArtifactKind::Skill,
                        path: sd.rel.clone(),
                        repo: groups.get(sd.group).and_then(|g| g.repo.clone()),
                        convention: sd.convention.map(|c| c.path.to_owned()),
                        convention_root: sd.convention_root.clone(),
                        entry: sd.entry.clone(),
                        name: dir_name.clone(),
                        dir_name,
                        frontmatter: serde_json::Value::Null,
                        excluded: true,
                        symlink: None,
                        nested_in: sd.nested_in.clone(),
                        files: Vec::new(),
                        structural_fingerprint: None,
                        content_hash: None,
                        hash_incomplete: None,
                        provenance: None,
                        loaders: Vec::new(),
                        entry_bytes: None,
                    };
                    (artifact, vec![f])
                })
            })
            .collect()
    };
    // One pool sized by -j for every parallel stage (analysis, loader profiles).
    let pool = (opts.threads > 0)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(opts.threads)
                .build()
                .ok()
        })
        .flatten();
    let results = match &pool {
        Some(p) => p.install(run),
        None => run(),
    };

    let mut artifacts = Vec::with_capacity(results.len());
    let mut findings = Vec::new();
    for (a, f) in results {
        artifacts.push(a);
        findings.extend(f);
    }

    // Loader profiles: which harness loads which skill, sharing the entry bytes read once.
    let unreadable_dirs: std::collections::BTreeSet<String> = issues
        .iter()
        .filter(|i| i.rule == ids::PATH_UNREADABLE)
        .map(|i| i.rel.clone())
        .collect();
    let mut evaluate_loaders = || {
        crate::loaders::evaluate(
            &mut artifacts,
            &groups,
            &unreadable_dirs,
            mode == Mode::Path,
            &opts.profiles,
        )
    };
    let loader_findings = crate::timing::time(crate::timing::Stage::Loaders, || match &pool {
        Some(p) => p.install(evaluate_loaders),
        None => evaluate_loaders(),
    });
    findings.extend(loader_findings);

    // Baseline hashes (AgentEval's structural fingerprint reads the entry file as MAF does).
    let hasher = crate::baseline::hashes::Hasher::new(opts.hash.clone()).unwrap_or_default();
    let mut hash_all = || {
        artifacts.par_iter_mut().for_each(|a| {
            let m = crate::baseline::hashes::Manifest::of(a, a.entry_bytes.as_deref());
            a.structural_fingerprint = Some(m.fingerprint());
            let unread = a.files.iter().find(|f| {
                f.sha256.is_none()
                    && f.symlink.is_none()
                    && f.kind != crate::inventory::FileKind::Special
            });
            match unread {
                Some(f) => {
                    a.hash_incomplete = Some(format!(
                        "`{}` could not be read or is over the hash limit",
                        crate::text::sanitize_line(&f.path)
                    ))
                }
                None => a.content_hash = Some(hasher.artifact_content_hash(a)),
            }
            a.entry_bytes = None;
        })
    };
    crate::timing::time(crate::timing::Stage::Hashes, || match &pool {
        Some(p) => p.install(hash_all),
        None => hash_all(),
    });

    // Walk issues: attach to the skill that contains the path, if any.
    let skill_index: BTreeMap<&str, &Artifact> =
        artifacts.iter().map(|a| (a.path.as_str(), a)).collect();
    let mut truncated: BTreeMap<String, String> = BTreeMap::new();
    for issue in &issues {
        let mut owner = None;
        let mut p = issue.rel.as_str();
        loop {
            if let Some(a) = skill_index.get(p) {
                owner = Some((a.name.as_str(), a.path.as_str()));
                break;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => {
                    if let Some(a) = skill_index.get("") {
                        owner = Some((a.name.as_str(), a.path.as_str()));
                    }
                    break;
                }
            }
        }
        // A walk bound or an unreadable folder inside a skill: its files are not all known,
        // so no content hash can vouch for it.
        if let Some((_, path)) = owner
            && matches!(issue.rule, ids::WALK_LIMIT_REACHED | ids::PATH_UNREADABLE)
        {
            truncated.insert(path.to_owned(), issue.rel.clone());
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
            f.severity = crate::finding::Severity::Medium;
        }
        findings.push(f);
    }
    sort_findings(&mut findings);
    drop(skill_index);
    for a in &mut artifacts {
        if let Some(rel) = truncated.get(&a.path) {
            a.content_hash = None;
            a.hash_incomplete = Some(format!(
                "`{}` was not walked completely (a walk bound or an unreadable folder)",
                crate::text::sanitize_line(rel)
            ));
        }
    }

    let mut coverage = Coverage {
        discovered: artifacts.len(),
        ..Coverage::default()
    };
    for a in &artifacts {
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

    // Workspace: partition once by the repository folder (the first path segment).
    let mut by_repo: BTreeMap<&str, (Vec<&Artifact>, Vec<&Finding>)> = BTreeMap::new();
    if groups.len() > 1 {
        for a in &artifacts {
            let k = a.path.split('/').next().unwrap_or("");
            by_repo.entry(k).or_default().0.push(a);
        }
        for f in &findings {
            let k = f.location.path.split('/').next().unwrap_or("");
            by_repo.entry(k).or_default().1.push(f);
        }
    }
    let repos = groups
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
            RepoSummary {
                repo: g.repo.clone(),
                path: g.boundary_rel.clone(),
                skills: arts.len(),
                excluded: arts.iter().filter(|a| a.excluded).count(),
                findings: fs.len(),
                counts: SeverityCounts::from_findings(fs.iter().copied()),
                conventions,
                absent_conventions: if mode == Mode::Path {
                    Vec::new()
                } else {
                    g.absent_conventions
                        .iter()
                        .map(|s| (*s).to_owned())
                        .collect()
                },
                error: g.error.clone(),
            }
        })
        .collect();

    let files_scanned = artifacts.iter().map(|a| a.files.len()).sum();
    let bytes_scanned = artifacts.iter().map(|a| a.total_bytes()).sum();
    let mut result = ScanResult {
        mode,
        target: target.display().to_string(),
        artifacts,
        findings,
        coverage,
        repos,
        hidden_skipped: hidden,
        files_scanned,
        bytes_scanned,
    };
    crate::timing::time(crate::timing::Stage::SecurityScanWide, || {
        crate::security::permissions::check_scan(&mut result)
    });
    Ok(result)
}
