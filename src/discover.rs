//! Discovery: plan the roots to walk (one skills root, a repository's conventions,
//! or every repository of a workspace), walk them in one parallel pass with the
//! `ignore` crate, and group the entries into skills.
//!
//! Symbolic links are never followed out of their boundary (the scanned path, or
//! the repository in repository and workspace scans). A directory link that stays
//! inside is walked once, under the link's own path, so harnesses that follow
//! links are emulated; links found inside such a walk are recorded, not followed.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ignore::{WalkBuilder, WalkState};

use crate::conventions::{self, Convention};
use crate::inventory::{LinkState, SymlinkInfo};
use crate::rules::ids;

/// Bounds and switches for the walk.
#[derive(Debug, Clone)]
pub struct WalkOptions {
    /// Directories this many or more levels below a walk root are not entered.
    pub max_depth: usize,
    /// Directories per repository (or per scanned path) before the walk stops descending.
    pub max_dirs: usize,
    pub threads: usize,
    pub respect_gitignore: bool,
    /// Repository scans: walk only the convention roots instead of the whole repository.
    pub conventions_only: bool,
    /// Paths left out (`.skillguard.toml` `[scan] exclude`): entries whose path relative to
    /// the scan base matches, or lies below a match, are dropped with their walk issues.
    pub exclude: Option<PathGlobs>,
    /// Extra skills roots (`.skillguard.toml` `[scan] roots`), relative to each repository
    /// root: attributed like a convention and walked with `conventions_only`.
    pub extra_roots: &'static [Convention],
    /// Workspace scans: a workspace entry that is a symbolic link to a folder is scanned as
    /// a repository, rooted at the link's target (`--follow-repo-links`). Links inside the
    /// repositories still never leave their repository.
    pub follow_repo_links: bool,
    /// Workspace scans: `(k, n)` scans only the repositories of shard k of n
    /// (`--shard K/N`, 1-based), a partition by the SHA-256 of each repository's name, so a
    /// repository stays in its shard when others are added or removed.
    pub shard: Option<(u64, u64)>,
    /// Workspace scans with a shard plan (`scan-workspace --plan FILE --shard K`): the
    /// repositories of shard K, the only ones scanned, and the plan's workspace listing
    /// digest, which stands for the workspace (a job that cloned only its share lists fewer
    /// repositories, yet is a shard of the same run).
    pub only: Option<PlanShard>,
}

/// One shard of a shard plan, as the walk and the run identity use it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanShard {
    /// The repositories scanned (the shard's units).
    pub repos: std::collections::BTreeSet<String>,
    /// The plan's workspace listing digest ([`Plan::listing`] of the workspace it was made for).
    pub listing: String,
    /// The plan's digest, part of the run identity ([`crate::result::RunIdentity::plan`]).
    pub digest: String,
    /// The repositories the plan splits by skill (a monorepo larger than a mean shard), by
    /// name: which of their skills this shard analyses.
    pub split: BTreeMap<String, SplitRepo>,
}

/// A repository a shard plan splits by skill, as one shard sees it. Every shard holding a
/// part walks and reads the whole repository (its repository-level checks need every
/// skill), but runs the costly content rules (security and quality) only on its own
/// skills, and keeps only the findings and records it owns ([`PlanShard::owns`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SplitRepo {
    /// Every skill folder the plan lists for the repository (relative to the workspace).
    pub planned: std::collections::BTreeSet<String>,
    /// Those of this shard.
    pub owned: std::collections::BTreeSet<String>,
    /// Whether this shard holds the repository's remainder: its files outside the listed
    /// skills (agents, configurations, evals, skills added since the plan) and its
    /// repository-level findings.
    pub rest: bool,
}

impl PlanShard {
    /// Does this shard own the skill folder `skill` (relative to the workspace) of
    /// repository `repo`: a skill of a repository it is not split, one of its own skill
    /// units, or a skill the plan does not list when it holds the remainder.
    pub fn owns_skill(&self, repo: &str, skill: &str) -> bool {
        match self.split.get(repo) {
            None => true,
            Some(s) if s.planned.contains(skill) => s.owned.contains(skill),
            Some(s) => s.rest,
        }
    }

    /// Does this shard own what lies at `path` (relative to the workspace), given the skill
    /// folders of the scan: the deepest skill folder holding it decides, and a path in no
    /// skill folder belongs to the remainder's shard.
    pub fn owns(&self, path: &str, skill_dirs: &std::collections::HashSet<&str>) -> bool {
        let repo = path.split('/').next().unwrap_or("");
        let Some(s) = self.split.get(repo) else {
            return true;
        };
        let mut p = path;
        loop {
            if p != repo && skill_dirs.contains(p) {
                return self.owns_skill(repo, p);
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return s.rest,
            }
        }
    }
}

/// The most shards a workspace is split into (`--shard K/N` with N at most this): what
/// `scan-workspace` accepts and `skillguard merge` reads.
pub const MAX_SHARDS: u64 = 100_000;

/// The shard (0-based, of `n`) a workspace repository belongs to.
pub fn shard_of(name: &str, n: u64) -> u64 {
    let h = crate::hash::sha256_hex(name.as_bytes());
    u64::from_str_radix(&h[..16], 16).unwrap_or(0) % n.max(1)
}

/// `/`-separated globs over relative paths: a pattern without `/` matches a name at any
/// depth, and a path below a matching folder matches too.
#[derive(Debug, Clone)]
pub struct PathGlobs(globset::GlobSet);

impl PathGlobs {
    pub fn new(patterns: &[&str]) -> Result<PathGlobs, String> {
        let mut b = globset::GlobSetBuilder::new();
        for p in patterns {
            let pat = if p.contains('/') {
                (*p).to_owned()
            } else {
                format!("**/{p}")
            };
            let g = globset::GlobBuilder::new(&pat)
                .literal_separator(true)
                .build()
                .map_err(|e| format!("bad glob `{p}`: {e}"))?;
            b.add(g);
        }
        b.build().map(PathGlobs).map_err(|e| e.to_string())
    }

    /// Does `rel` or one of its parent folders match?
    pub fn matches(&self, rel: &str) -> bool {
        let mut cur = Some(rel);
        while let Some(p) = cur {
            if self.0.is_match(p) {
                return true;
            }
            cur = p.rsplit_once('/').map(|(d, _)| d);
        }
        false
    }
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            follow_repo_links: false,
            shard: None,
            only: None,
            max_depth: 12,
            max_dirs: 50_000,
            threads: 0,
            respect_gitignore: false,
            conventions_only: false,
            exclude: None,
            extra_roots: &[],
        }
    }
}

/// A directory to walk.
#[derive(Debug, Clone)]
pub struct StartRoot {
    /// What to walk on disk.
    pub abs: PathBuf,
    /// Its path relative to the scan base (`""` for the base itself).
    pub rel: String,
    /// Index of the repository (or 0) for per-repository bounds.
    pub group: usize,
}

/// A repository (or the single scanned tree) and where its symlinks must stay.
#[derive(Debug, Clone)]
pub struct Group {
    /// Repository folder name in a workspace scan.
    pub repo: Option<String>,
    /// Canonical path every symlink must resolve under.
    pub boundary: PathBuf,
    /// The boundary relative to the scan base.
    pub boundary_rel: String,
    /// Convention roots found in this group: (root rel to base, convention).
    pub convention_roots: Vec<(String, &'static Convention)>,
    /// Conventions that were looked for and not present (repository scans).
    pub absent_conventions: Vec<&'static str>,
    /// Error that prevented scanning the group at all.
    pub error: Option<String>,
    /// Repository scans: skills are expected under conventions.
    pub conventions_apply: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    File,
    Dir,
    Symlink(SymlinkInfo),
    Special(&'static str),
}

/// One walked path.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Relative to the scan base, `/`-separated.
    pub rel: String,
    /// Where to read it (for links walked under their own path, the real location).
    pub abs: PathBuf,
    pub kind: EntryKind,
    pub size: u64,
    pub executable: bool,
    pub group: usize,
}

/// A problem the walk itself hit; turned into a finding later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkIssue {
    pub rule: &'static str,
    pub rel: String,
    pub message: String,
    pub group: usize,
}

/// The result of discovery.
#[derive(Debug, Default)]
pub struct Walked {
    pub groups: Vec<Group>,
    pub entries: Vec<Entry>,
    pub issues: Vec<WalkIssue>,
}

/// How the scan base maps to groups and roots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `scan PATH`: a skill or a skills root.
    Path,
    /// `scan --repo ROOT`.
    Repo,
    /// `scan-workspace DIR`.
    Workspace,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Path => "path",
            Mode::Repo => "repo",
            Mode::Workspace => "workspace",
        }
    }
}

/// Error that prevents a scan from starting (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum DiscoverError {
    #[error("{path}: no such file or directory")]
    NotFound { path: String },
    #[error("{path}: not a directory")]
    NotADirectory { path: String },
    #[error("{path}: cannot read: {source}")]
    Unreadable { path: String, source: io::Error },
}

fn join_rel(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_owned(),
        (_, true) => a.to_owned(),
        _ => format!("{a}/{b}"),
    }
}

/// `path` below `base`, `/`-separated, each name in its escaped form ([`crate::names`]);
/// a path outside `base` is shown whole.
fn rel_of(path: &Path, base: &Path) -> String {
    crate::names::rel_of(path, base)
        .unwrap_or_else(|| crate::names::escape(path.as_os_str()).into_owned())
}

/// Resolves a symlink at `abs` (relative path `rel`) against `group`'s boundary.
pub fn resolve_link(abs: &Path, group: &Group) -> SymlinkInfo {
    let target = fs::read_link(abs)
        .map(|t| crate::names::escape(t.as_os_str()).into_owned())
        .unwrap_or_default();
    match fs::canonicalize(abs) {
        Ok(real) => {
            if real.starts_with(&group.boundary) {
                let inner_rel = crate::names::rel_of(&real, &group.boundary);
                let is_dir = real.is_dir();
                // A link to one of its own ancestors would make a harness loop.
                let parent_real = abs
                    .parent()
                    .and_then(|p| fs::canonicalize(p).ok())
                    .unwrap_or_default();
                let state = if is_dir && parent_real.starts_with(&real) {
                    LinkState::Loop
                } else {
                    LinkState::Inside
                };
                SymlinkInfo {
                    target,
                    state,
                    resolved: inner_rel.map(|r| join_rel(&group.boundary_rel, &r)),
                    target_is_dir: is_dir,
                }
            } else {
                SymlinkInfo {
                    target,
                    state: LinkState::EscapesRoot,
                    resolved: None,
                    target_is_dir: real.is_dir(),
                }
            }
        }
        Err(e) => SymlinkInfo {
            target,
            state: if is_eloop(&e) {
                LinkState::Loop
            } else {
                LinkState::Dangling
            },
            resolved: None,
            target_is_dir: false,
        },
    }
}

fn is_eloop(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

fn canonical_dir(path: &Path) -> Result<PathBuf, DiscoverError> {
    let shown = path.display().to_string();
    let meta = fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => DiscoverError::NotFound {
            path: shown.clone(),
        },
        _ => DiscoverError::Unreadable {
            path: shown.clone(),
            source: e,
        },
    })?;
    if !meta.is_dir() {
        return Err(DiscoverError::NotADirectory { path: shown });
    }
    fs::read_dir(path).map_err(|e| DiscoverError::Unreadable {
        path: shown.clone(),
        source: e,
    })?;
    fs::canonicalize(path).map_err(|e| DiscoverError::Unreadable {
        path: shown,
        source: e,
    })
}

/// Is `name` a skill entry file name (`SKILL.md` in any capitalisation)?
pub fn is_skill_file_name(name: &str) -> bool {
    name.eq_ignore_ascii_case("skill.md")
}

/// What to walk: the groups (repositories), the disjoint walk roots, problems
/// found while planning, and how many hidden workspace entries were skipped.
#[derive(Debug, Default)]
pub struct Plan {
    pub groups: Vec<Group>,
    pub starts: Vec<StartRoot>,
    /// Symlinked roots walked by the link pass under their own path.
    pub link_starts: Vec<StartRoot>,
    pub issues: Vec<WalkIssue>,
    pub hidden: usize,
    /// Workspace scans: the SHA-256 of the workspace listing, every repository name of the
    /// workspace (its folders and links, not its files) before `--shard` keeps some, each
    /// ended by a NUL byte, in name order. Every shard of one workspace has the same
    /// ([`crate::result::RunIdentity`]).
    pub listing: Option<String>,
}

impl Plan {
    /// With `--respect-gitignore`, drops walk roots that a repository's root
    /// `.gitignore` excludes (the walker itself applies `.gitignore` files below
    /// each root, but never filters the root it starts from).
    pub fn drop_gitignored_roots(&mut self) {
        let groups = &self.groups;
        self.starts.retain(|s| {
            let Some(g) = groups.get(s.group) else {
                return true;
            };
            let gi_path = g.boundary.join(".gitignore");
            if !gi_path.is_file() {
                return true;
            }
            let (gi, _) = ignore::gitignore::Gitignore::new(&gi_path);
            let inner = s
                .rel
                .strip_prefix(g.boundary_rel.as_str())
                .unwrap_or(&s.rel)
                .trim_start_matches('/');
            if inner.is_empty() {
                return true;
            }
            !gi.matched_path_or_any_parents(inner, true).is_ignore()
        });
    }
}

/// Plans the roots for a `scan PATH`.
pub fn plan_path(path: &Path) -> Result<Plan, DiscoverError> {
    // A path to a SKILL.md file means its directory.
    let path = if path.is_file()
        && path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(is_skill_file_name)
    {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        path.to_path_buf()
    };
    let path = if path.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        path
    };
    let canon = canonical_dir(&path)?;
    let is_skill = fs::read_dir(&canon)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .any(|e| e.file_name().to_str().is_some_and(is_skill_file_name))
        })
        .unwrap_or(false);
    // For a single skill, paths start with the skill's own folder name.
    let rel = if is_skill {
        canon
            .file_name()
            .map(|n| crate::names::escape(n).into_owned())
            .unwrap_or_else(|| "skill".into())
    } else {
        String::new()
    };
    let group = Group {
        repo: None,
        boundary: canon.clone(),
        boundary_rel: rel.clone(),
        convention_roots: Vec::new(),
        absent_conventions: Vec::new(),
        error: None,
        conventions_apply: false,
    };
    let start = StartRoot {
        abs: canon,
        rel,
        group: 0,
    };
    Ok(Plan {
        groups: vec![group],
        starts: vec![start],
        ..Plan::default()
    })
}

/// Finds the convention roots of one repository.
fn plan_repo_group(
    repo_abs: &Path,
    rel_prefix: &str,
    repo: Option<String>,
    group_idx: usize,
    conventions_only: bool,
    extra_roots: &'static [Convention],
    plan: &mut Plan,
) -> Group {
    let Plan {
        starts,
        link_starts,
        issues,
        ..
    } = plan;
    let mut group = Group {
        repo,
        boundary: repo_abs.to_path_buf(),
        boundary_rel: rel_prefix.to_owned(),
        convention_roots: Vec::new(),
        absent_conventions: Vec::new(),
        error: None,
        conventions_apply: true,
    };
    // rel -> (convention, what to walk, whether the root is a symlink)
    let mut found: BTreeMap<String, (&'static Convention, PathBuf, bool)> = BTreeMap::new();
    for conv in conventions::CONVENTIONS.iter().chain(extra_roots) {
        if conv.path == conventions::PLUGIN {
            continue;
        }
        let mut candidates: Vec<String> = vec![String::new()];
        for seg in conv.path.split('/') {
            let mut next = Vec::new();
            for c in &candidates {
                if seg == "*" {
                    let dir = crate::names::path_of(repo_abs, c);
                    if let Ok(rd) = fs::read_dir(&dir) {
                        let mut names: Vec<String> = rd
                            .filter_map(Result::ok)
                            .filter(|e| e.file_type().map(|t| t.is_dir()).unwrap_or(false))
                            .map(|e| crate::names::escape(&e.file_name()).into_owned())
                            .collect();
                        names.sort();
                        names.truncate(10_000);
                        for n in names {
                            next.push(join_rel(c, &n));
                        }
                    }
                } else {
                    next.push(join_rel(c, seg));
                }
            }
            candidates = next;
        }
        let mut any = false;
        for cand in candidates {
            let abs = crate::names::path_of(repo_abs, &cand);
            let Ok(meta) = fs::symlink_metadata(&abs) else {
                continue;
            };
            if !(meta.is_dir() || meta.file_type().is_symlink()) {
                continue;
            }
            any = true;
            let rel = join_rel(rel_prefix, &cand);
            // Any component of the path may be a link (`.claude -> /elsewhere`), so resolve
            // the whole path and require it to stay inside the repository.
            match fs::canonicalize(&abs) {
                Ok(real) if real.starts_with(&group.boundary) && real.is_dir() => {
                    // The repository root is canonical: equality means no link on the way.
                    let linked = real != abs;
                    found.insert(rel, (conv, real, linked));
                }
                Ok(real) if real.starts_with(&group.boundary) => {}
                // In a whole-repository walk the link itself is walked over and reported
                // from there; with --conventions-only it is reported here.
                Ok(_) if conventions_only => issues.push(WalkIssue {
                    rule: ids::SYMLINK_ESCAPES_ROOT,
                    rel,
                    message: format!(
                        "skills folder `{}` resolves outside the repository through a symbolic link; it was not followed. Replace the link with the skills it should contain.",
                        crate::text::sanitize_line(&cand)
                    ),
                    group: group_idx,
                }),
                Err(_) if conventions_only => issues.push(WalkIssue {
                    rule: ids::SYMLINK_DANGLING,
                    rel,
                    message: format!(
                        "skills folder `{}` is a symbolic link that does not resolve. Fix or remove the link.",
                        crate::text::sanitize_line(&cand)
                    ),
                    group: group_idx,
                }),
                _ => {}
            }
        }
        if !any {
            group.absent_conventions.push(conv.path);
        }
    }
    for (rel, (conv, _, _)) in &found {
        group.convention_roots.push((rel.clone(), conv));
    }
    if !conventions_only {
        // One walk of the whole repository: skills outside every convention are found too,
        // and symlinked convention roots are walked by the link pass under their own path.
        starts.push(StartRoot {
            abs: repo_abs.to_path_buf(),
            rel: rel_prefix.to_owned(),
            group: group_idx,
        });
        return group;
    }
    // Walk only roots not already inside another root; attribution keeps all.
    let mut walked: Vec<&String> = Vec::new();
    for (rel, (_, abs, linked)) in &found {
        if *linked {
            // Walked by the link pass under the link's own path.
            link_starts.push(StartRoot {
                abs: abs.clone(),
                rel: rel.clone(),
                group: group_idx,
            });
            continue;
        }
        let covered = walked
            .iter()
            .any(|w| rel.starts_with(w.as_str()) && rel.as_bytes().get(w.len()) == Some(&b'/'));
        if !covered {
            starts.push(StartRoot {
                abs: abs.clone(),
                rel: rel.clone(),
                group: group_idx,
            });
            walked.push(rel);
        }
    }
    group
}

/// Plans a `scan --repo ROOT`.
pub fn plan_repo(root: &Path, opts: &WalkOptions) -> Result<Plan, DiscoverError> {
    let canon = canonical_dir(root)?;
    let mut plan = Plan::default();
    let g = plan_repo_group(
        &canon,
        "",
        None,
        0,
        opts.conventions_only,
        opts.extra_roots,
        &mut plan,
    );
    plan.groups.push(g);
    Ok(plan)
}

/// The digest of a workspace listing ([`Plan::listing`]): the names of the entries that are
/// repositories (folders, and links that may be followed as one), sorted.
fn listing(names: &[(String, fs::FileType)]) -> String {
    let mut bytes = Vec::new();
    for (name, ft) in names {
        if ft.is_dir() || ft.is_symlink() {
            bytes.extend_from_slice(name.as_bytes());
            bytes.push(0);
        }
    }
    crate::hash::sha256_hex(&bytes)
}

/// The entries of a workspace folder, hidden ones counted and left out, in name order (names
/// escaped as [`crate::names::escape`] does); a name that is not UTF-8 is an issue.
fn workspace_entries(
    rd: fs::ReadDir,
    issues: &mut Vec<WalkIssue>,
) -> (Vec<(String, fs::FileType)>, usize) {
    let mut names: Vec<(String, fs::FileType)> = Vec::new();
    let mut hidden = 0usize;
    for e in rd.filter_map(Result::ok) {
        let name = crate::names::escape(&e.file_name()).into_owned();
        if !crate::names::is_utf8(&e.file_name()) {
            issues.push(WalkIssue {
                rule: ids::PATH_NOT_UTF8,
                rel: name.clone(),
                message: not_utf8_message(&name),
                group: usize::MAX,
            });
        }
        if name.starts_with('.') {
            hidden += 1;
            continue;
        }
        if let Ok(t) = e.file_type() {
            names.push((name, t));
        }
    }
    names.sort_by(|a, b| a.0.cmp(&b.0));
    (names, hidden)
}

/// The repositories of a workspace (its non-hidden folders and links, in name order) and the
/// digest of that listing ([`Plan::listing`]): what a shard plan is made for and checked
/// against.
pub fn workspace_listing(dir: &Path) -> Result<(Vec<String>, String), DiscoverError> {
    let canon = canonical_dir(dir)?;
    let rd = fs::read_dir(&canon).map_err(|e| DiscoverError::Unreadable {
        path: dir.display().to_string(),
        source: e,
    })?;
    let (names, _) = workspace_entries(rd, &mut Vec::new());
    let digest = listing(&names);
    let repos = names
        .into_iter()
        .filter(|(_, ft)| ft.is_dir() || ft.is_symlink())
        .map(|(n, _)| n)
        .collect();
    Ok((repos, digest))
}

/// Plans a `scan-workspace DIR`: each immediate non-hidden subdirectory is a repository.
pub fn plan_workspace(dir: &Path, opts: &WalkOptions) -> Result<Plan, DiscoverError> {
    let canon = canonical_dir(dir)?;
    let rd = fs::read_dir(&canon).map_err(|e| DiscoverError::Unreadable {
        path: dir.display().to_string(),
        source: e,
    })?;
    let mut plan = Plan::default();
    let (mut names, hidden) = workspace_entries(rd, &mut plan.issues);
    plan.listing = Some(listing(&names));
    // A shard plan's shard K, or the repositories whose name hashes to shard K of N.
    match (&opts.only, opts.shard) {
        (Some(only), _) => {
            names.retain(|(name, _)| only.repos.contains(name));
            plan.listing = Some(only.listing.clone());
        }
        (None, Some((k, n))) => names.retain(|(name, _)| shard_of(name, n) == k - 1),
        (None, None) => {}
    }
    // Repository folders by their real location: a link to one already scanned is not
    // scanned twice.
    let mut seen: BTreeMap<PathBuf, String> = names
        .iter()
        .filter(|(_, ft)| ft.is_dir())
        .map(|(n, _)| (crate::names::path_of(&canon, n), n.clone()))
        .collect();
    for (name, ft) in names {
        let abs = crate::names::path_of(&canon, &name);
        let idx = plan.groups.len();
        let target = (ft.is_symlink() && opts.follow_repo_links)
            .then(|| fs::canonicalize(&abs).ok())
            .flatten()
            .filter(|t| t.is_dir());
        if let Some(t) = target {
            // A link that is not followed: (rule, message, the group's error, its boundary).
            let refused = if t.starts_with(&canon) && !seen.contains_key(&t) {
                // Into the workspace itself: that folder is scanned (or left out) as part of
                // the repository that holds it, never a second time under another name.
                Some((
                    ids::SYMLINKED_SKILL,
                    format!(
                        "workspace entry `{name}` is a symlink to a folder inside the workspace; it was not followed (that folder is scanned with the repository holding it)."
                    ),
                    "symbolic link into the workspace; not followed",
                    (t.clone(), name.clone()),
                ))
            } else if canon.starts_with(&t) {
                Some((
                    ids::SYMLINK_ESCAPES_ROOT,
                    format!(
                        "workspace entry `{name}` is a symlink to a folder that holds the workspace itself; it was not followed. Link to a repository instead."
                    ),
                    "symbolic link to a folder holding the workspace",
                    (canon.clone(), String::new()),
                ))
            } else {
                seen.get(&t).map(|first| {
                    (
                        ids::SYMLINKED_SKILL,
                        format!(
                            "workspace entry `{name}` is a symlink to the repository already scanned as `{first}`; it was not scanned twice."
                        ),
                        "symbolic link to a repository already scanned",
                        (t.clone(), name.clone()),
                    )
                })
            };
            if let Some((rule, message, error, (boundary, boundary_rel))) = refused {
                plan.issues.push(WalkIssue {
                    rule,
                    rel: name.clone(),
                    message,
                    group: idx,
                });
                plan.groups.push(Group {
                    repo: Some(name),
                    boundary,
                    boundary_rel,
                    convention_roots: Vec::new(),
                    absent_conventions: Vec::new(),
                    error: Some(error.into()),
                    conventions_apply: false,
                });
                continue;
            }
            seen.insert(t.clone(), name.clone());
            // The repository is rooted at the link's target: its own links are judged
            // against that folder, never the workspace.
            let g = plan_repo_group(
                &t,
                &name,
                Some(name.clone()),
                idx,
                opts.conventions_only,
                opts.extra_roots,
                &mut plan,
            );
            plan.groups.push(g);
            continue;
        }
        if ft.is_dir() {
            match fs::read_dir(&abs) {
                Ok(_) => {
                    let g = plan_repo_group(
                        &abs,
                        &name,
                        Some(name.clone()),
                        idx,
                        opts.conventions_only,
                        opts.extra_roots,
                        &mut plan,
                    );
                    plan.groups.push(g);
                }
                Err(e) => {
                    plan.issues.push(WalkIssue {
                        rule: ids::PATH_UNREADABLE,
                        rel: name.clone(),
                        message: format!("repository `{name}` could not be read ({e}); it was skipped and the other repositories were scanned. Fix its permissions."),
                        group: idx,
                    });
                    plan.groups.push(Group {
                        repo: Some(name.clone()),
                        boundary: abs,
                        boundary_rel: name,
                        convention_roots: Vec::new(),
                        absent_conventions: Vec::new(),
                        error: Some(e.to_string()),
                        conventions_apply: true,
                    });
                }
            }
        } else if ft.is_symlink() {
            let pseudo = Group {
                repo: Some(name.clone()),
                boundary: canon.clone(),
                boundary_rel: String::new(),
                convention_roots: Vec::new(),
                absent_conventions: Vec::new(),
                error: Some("symbolic link; not scanned as a repository".into()),
                conventions_apply: false,
            };
            let info = resolve_link(&abs, &pseudo);
            plan.issues.push(WalkIssue {
                rule: match info.state {
                    LinkState::EscapesRoot => ids::SYMLINK_ESCAPES_ROOT,
                    LinkState::Inside => ids::SYMLINKED_SKILL,
                    _ => ids::SYMLINK_DANGLING,
                },
                rel: name.clone(),
                message: format!(
                    "workspace entry `{name}` is a symlink to `{}`; symlinked repositories are not followed. Pass --follow-repo-links to scan it as a repository, or clone the repository into the workspace.",
                    info.target
                ),
                group: idx,
            });
            plan.groups.push(pseudo);
        }
    }
    plan.hidden = hidden;
    Ok(plan)
}

fn is_executable(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

fn special_kind(ft: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "FIFO";
        }
        if ft.is_socket() {
            return "socket";
        }
        if ft.is_block_device() {
            return "block device";
        }
        if ft.is_char_device() {
            return "character device";
        }
    }
    let _ = ft;
    "special file"
}

struct Collector<'a> {
    groups: &'a [Group],
    opts: &'a WalkOptions,
    dirs: Vec<AtomicUsize>,
    dir_limit_hit: Vec<AtomicBool>,
    entries: Mutex<Vec<Entry>>,
    issues: Mutex<Vec<WalkIssue>>,
}

/// Directory names not walked outside convention roots: version-control
/// internals and installed dependencies, which no harness loads skills from.
pub const SKIPPED_DIRS: &[&str] = &[".git", "node_modules"];

/// skillguard's state folder at the top of a repository (see `baseline`).
pub const STATE_DIR: &str = ".skillguard";

/// Is this skill-relative path a file of a skillguard ledger kept inside the skill (a skill at
/// the root of a repository, or a skill that is its own repository)? Only the exact file
/// names the ledger writes match, so a skill cannot hide other content there; such files are
/// left out of the skill's inventory, so writing a baseline never changes a skill's hashes.
pub fn is_ledger_state(path: &str) -> bool {
    let Some(rest) = path.strip_prefix(".skillguard/ledger/") else {
        return false;
    };
    let name = rest.strip_prefix("snapshots/").unwrap_or(rest);
    if name.contains('/') {
        return false;
    }
    if name.starts_with(crate::fsutil::TMP_PREFIX) {
        return true;
    }
    if rest == name {
        return matches!(name, "lock" | "batch.lock" | "HEAD.json" | ".gitignore");
    }
    let stem = name
        .strip_suffix(".json")
        .or_else(|| name.strip_suffix(".lines"));
    stem.and_then(|s| s.split_once('-'))
        .is_some_and(|(seq, id)| {
            seq.len() == 8
                && seq.bytes().all(|b| b.is_ascii_digit())
                && id.len() == 32
                && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        })
}

impl Collector<'_> {
    fn is_skipped_dir(&self, group: usize, rel: &str) -> bool {
        if !SKIPPED_DIRS.contains(&file_name(rel)) {
            return false;
        }
        let Some(g) = self.groups.get(group) else {
            return true;
        };
        !g.convention_roots.iter().any(|(root, _)| {
            rel.starts_with(root.as_str()) && rel.as_bytes().get(root.len()) == Some(&b'/')
        })
    }

    fn issue(&self, rule: &'static str, rel: String, message: String, group: usize) {
        self.issues
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(WalkIssue {
                rule,
                rel,
                message,
                group,
            });
    }

    /// Handles one entry; returns whether to descend.
    fn visit(
        &self,
        start: &StartRoot,
        res: Result<ignore::DirEntry, ignore::Error>,
        local: &mut Vec<Entry>,
    ) -> WalkState {
        let group = start.group;
        let entry = match res {
            Ok(e) => e,
            Err(err) => {
                let (path, msg) = error_path(&err);
                let rel = path
                    .as_deref()
                    .map(|p| join_rel(&start.rel, &rel_of(p, &start.abs)))
                    .unwrap_or_else(|| start.rel.clone());
                self.issue(
                    ids::PATH_UNREADABLE,
                    rel,
                    format!("could not be read during the walk ({msg}); its contents were not scanned. Fix the permissions."),
                    group,
                );
                return WalkState::Continue;
            }
        };
        let path = entry.path();
        let rel = join_rel(&start.rel, &rel_of(path, &start.abs));
        // A name that is not UTF-8 is walked, read and hashed under its escaped form; the
        // name itself is reported once, where it occurs.
        if entry.depth() > 0 && !crate::names::is_utf8(entry.file_name()) {
            self.issue(
                ids::PATH_NOT_UTF8,
                rel.clone(),
                not_utf8_message(&rel),
                group,
            );
        }
        let Some(ft) = entry.file_type() else {
            return WalkState::Continue;
        };
        if ft.is_dir() {
            if entry.depth() > 0 && self.is_skipped_dir(group, &rel) {
                return WalkState::Skip;
            }
            if entry.depth() > 0 {
                let n = self.dirs[group].fetch_add(1, Ordering::Relaxed) + 1;
                if n > self.opts.max_dirs {
                    if !self.dir_limit_hit[group].swap(true, Ordering::Relaxed) {
                        self.issue(
                            ids::WALK_LIMIT_REACHED,
                            rel,
                            format!(
                                "the walk reached {} directories (--max-dirs) and stopped descending here; later directories were not scanned. Raise --max-dirs if this tree is legitimate.",
                                self.opts.max_dirs
                            ),
                            group,
                        );
                    }
                    return WalkState::Skip;
                }
            }
            if entry.depth() >= self.opts.max_depth {
                let nonempty = fs::read_dir(path)
                    .map(|mut r| r.next().is_some())
                    .unwrap_or(false);
                local.push(Entry {
                    rel: rel.clone(),
                    abs: path.to_path_buf(),
                    kind: EntryKind::Dir,
                    size: 0,
                    executable: false,
                    group,
                });
                if nonempty {
                    self.issue(
                        ids::WALK_LIMIT_REACHED,
                        rel,
                        format!(
                            "directory is {} levels below its walk root (--max-depth {}); its contents were not scanned. Raise --max-depth if this nesting is legitimate.",
                            entry.depth(),
                            self.opts.max_depth
                        ),
                        group,
                    );
                }
                return WalkState::Skip;
            }
            local.push(Entry {
                rel,
                abs: path.to_path_buf(),
                kind: EntryKind::Dir,
                size: 0,
                executable: false,
                group,
            });
            return WalkState::Continue;
        }
        if ft.is_symlink() {
            let info = resolve_link(path, &self.groups[group]);
            local.push(Entry {
                rel,
                abs: path.to_path_buf(),
                kind: EntryKind::Symlink(info),
                size: 0,
                executable: false,
                group,
            });
            return WalkState::Continue;
        }
        let meta = entry.metadata().ok();
        if ft.is_file() {
            local.push(Entry {
                rel,
                abs: path.to_path_buf(),
                kind: EntryKind::File,
                size: meta.as_ref().map(|m| m.len()).unwrap_or(0),
                executable: meta.as_ref().map(is_executable).unwrap_or(false),
                group,
            });
        } else {
            local.push(Entry {
                rel,
                abs: path.to_path_buf(),
                kind: EntryKind::Special(special_kind(&ft)),
                size: 0,
                executable: false,
                group,
            });
        }
        WalkState::Continue
    }
}

/// The `path-not-utf8` message for the escaped path `rel`.
fn not_utf8_message(rel: &str) -> String {
    format!(
        "the name `{}` is not valid UTF-8 (shown with its other bytes as `\\xNN`); it was read, scanned and hashed under that form, but harnesses, editors and other tools may show or load it differently. Rename it using UTF-8.",
        crate::text::sanitize_line(rel)
    )
}

fn error_path(err: &ignore::Error) -> (Option<PathBuf>, String) {
    match err {
        ignore::Error::WithPath { path, err } => (Some(path.clone()), err.to_string()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            error_path(err)
        }
        ignore::Error::Partial(v) => v.first().map(error_path).unwrap_or((None, err.to_string())),
        other => (None, other.to_string()),
    }
}

fn builder(path: &Path, opts: &WalkOptions) -> WalkBuilder {
    let mut b = WalkBuilder::new(path);
    b.standard_filters(false)
        .hidden(false)
        .follow_links(false)
        .skip_stdout(true)
        .same_file_system(false);
    if opts.respect_gitignore {
        b.git_ignore(true)
            .git_exclude(true)
            .parents(true)
            .require_git(false)
            .ignore(true);
    }
    b
}

/// Entries that directory-link walks may add per repository before the link
/// pass stops (links to the same folder multiply a tree).
pub const MAX_LINK_ENTRIES: usize = 100_000;

/// Walks `starts` (disjoint roots) in one parallel pass, then walks directory
/// symlinks that stay inside their boundary once, under the link's path.
///
/// When a repository hits the directory-count bound, which directories were
/// counted first depends on thread scheduling; that repository is then walked
/// again sequentially in sorted order, so the result (and the point where the
/// bound cut the walk) is the same on every run.
pub fn walk(
    groups: &[Group],
    starts: &[StartRoot],
    extra_link_starts: &[StartRoot],
    opts: &WalkOptions,
) -> (Vec<Entry>, Vec<WalkIssue>) {
    let (mut entries, mut issues, hit) = walk_pass(groups, starts, extra_link_starts, opts, false);
    if !hit.is_empty() {
        entries.retain(|e| !hit.contains(&e.group));
        issues.retain(|i| !hit.contains(&i.group));
        let starts: Vec<StartRoot> = starts
            .iter()
            .filter(|s| hit.contains(&s.group))
            .cloned()
            .collect();
        let links: Vec<StartRoot> = extra_link_starts
            .iter()
            .filter(|s| hit.contains(&s.group))
            .cloned()
            .collect();
        let (e2, i2, _) = walk_pass(groups, &starts, &links, opts, true);
        entries.extend(e2);
        issues.extend(i2);
    }
    entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    entries.dedup_by(|a, b| a.rel == b.rel);
    if let Some(x) = &opts.exclude {
        entries.retain(|e| !x.matches(&e.rel));
        issues.retain(|i| !x.matches(&i.rel));
    }
    issues.sort_by(|a, b| (&a.rel, a.rule, &a.message).cmp(&(&b.rel, b.rule, &b.message)));
    issues.dedup();
    (entries, issues)
}

/// One walk of `starts` and then of the directory links found; returns the
/// groups whose directory bound was hit.
fn walk_pass(
    groups: &[Group],
    starts: &[StartRoot],
    extra_link_starts: &[StartRoot],
    opts: &WalkOptions,
    sequential: bool,
) -> (Vec<Entry>, Vec<WalkIssue>, BTreeSet<usize>) {
    let collector = Collector {
        groups,
        opts,
        dirs: (0..groups.len().max(1))
            .map(|_| AtomicUsize::new(0))
            .collect(),
        dir_limit_hit: (0..groups.len().max(1))
            .map(|_| AtomicBool::new(false))
            .collect(),
        entries: Mutex::new(Vec::new()),
        issues: Mutex::new(Vec::new()),
    };
    if sequential {
        let mut sorted = starts.to_vec();
        sorted.sort_by(|a, b| a.rel.cmp(&b.rel));
        for s in &sorted {
            run_sequential(&collector, s, opts, false);
        }
    } else {
        run_parallel(&collector, starts, opts, opts.threads, false);
    }

    // Second pass: directory links that stay inside, each walked under its own path.
    let mut link_starts: Vec<StartRoot> = collector
        .entries
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .filter_map(|e| match &e.kind {
            EntryKind::Symlink(info) if info.state == LinkState::Inside && info.target_is_dir => {
                fs::canonicalize(&e.abs).ok().map(|abs| StartRoot {
                    abs,
                    rel: e.rel.clone(),
                    group: e.group,
                })
            }
            _ => None,
        })
        .collect();
    link_starts.extend(extra_link_starts.iter().cloned());
    link_starts.sort_by(|a, b| a.rel.cmp(&b.rel));
    link_starts.dedup_by(|a, b| a.rel == b.rel);
    let mut added: BTreeMap<usize, usize> = BTreeMap::new();
    let mut stopped: BTreeSet<usize> = BTreeSet::new();
    for ls in &link_starts {
        if stopped.contains(&ls.group) {
            continue;
        }
        if added.get(&ls.group).copied().unwrap_or(0) >= MAX_LINK_ENTRIES {
            stopped.insert(ls.group);
            collector.issue(
                ids::WALK_LIMIT_REACHED,
                ls.rel.clone(),
                format!(
                    "directory symlinks added more than {MAX_LINK_ENTRIES} entries to the walk (links to the same folder multiply a tree); this link and the later ones were not walked. Replace the links with real folders, or remove them."
                ),
                ls.group,
            );
            continue;
        }
        let before = collector
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len();
        if sequential {
            run_sequential(&collector, ls, opts, true);
        } else {
            run_parallel(&collector, std::slice::from_ref(ls), opts, 1, true);
        }
        let after = collector
            .entries
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len();
        *added.entry(ls.group).or_insert(0) += after.saturating_sub(before);
    }
    let hit: BTreeSet<usize> = collector
        .dir_limit_hit
        .iter()
        .enumerate()
        .filter(|(_, h)| h.load(Ordering::Relaxed))
        .map(|(i, _)| i)
        .collect();
    let entries = collector
        .entries
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    let issues = collector
        .issues
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    (entries, issues, hit)
}

/// Walks one root on the calling thread in sorted (depth-first, by file name)
/// order, so bounds cut it at the same place on every run.
fn run_sequential(
    collector: &Collector<'_>,
    start: &StartRoot,
    opts: &WalkOptions,
    link_walk: bool,
) {
    let mut b = builder(&start.abs, opts);
    b.sort_by_file_name(|a, b| a.cmp(b));
    let mut local = Vec::new();
    let mut skip_under: Option<PathBuf> = None;
    for res in b.build() {
        if let Ok(e) = &res {
            if skip_under
                .as_deref()
                .is_some_and(|p| e.path().starts_with(p))
            {
                continue;
            }
            skip_under = None;
            if link_walk && e.depth() == 0 {
                continue;
            }
        }
        let path = res.as_ref().ok().map(|e| e.path().to_path_buf());
        let is_dir = res
            .as_ref()
            .ok()
            .and_then(|e| e.file_type())
            .is_some_and(|t| t.is_dir());
        if collector.visit(start, res, &mut local) == WalkState::Skip && is_dir {
            skip_under = path;
        }
    }
    collector
        .entries
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .append(&mut local);
}

fn run_parallel(
    collector: &Collector<'_>,
    starts: &[StartRoot],
    opts: &WalkOptions,
    threads: usize,
    link_walk: bool,
) {
    if starts.is_empty() {
        return;
    }
    let mut b = builder(&starts[0].abs, opts);
    for s in &starts[1..] {
        b.add(&s.abs);
    }
    b.threads(threads);
    let index: HashMap<&Path, &StartRoot> = starts.iter().map(|s| (s.abs.as_path(), s)).collect();
    let index = &index;
    b.build_parallel().run(|| {
        let mut local: Vec<Entry> = Vec::new();
        let mut flush = LocalFlush {
            target: &collector.entries,
            local: Vec::new(),
        };
        Box::new(move |res| {
            let start = match &res {
                Ok(e) => {
                    // The root of a link walk is the link itself, already recorded.
                    if link_walk && e.depth() == 0 {
                        return WalkState::Continue;
                    }
                    find_start(index, e.path())
                }
                Err(err) => error_path(err)
                    .0
                    .as_deref()
                    .and_then(|p| find_start(index, p)),
            };
            let Some(start) = start else {
                return WalkState::Continue;
            };
            let st = collector.visit(start, res, &mut local);
            flush.local.append(&mut local);
            if flush.local.len() >= 4096 {
                flush.flush();
            }
            st
        })
    });
}

struct LocalFlush<'a> {
    target: &'a Mutex<Vec<Entry>>,
    local: Vec<Entry>,
}

impl LocalFlush<'_> {
    fn flush(&mut self) {
        if !self.local.is_empty() {
            self.target
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .append(&mut self.local);
        }
    }
}

impl Drop for LocalFlush<'_> {
    fn drop(&mut self) {
        self.flush();
    }
}

/// The walk root an entry came from: the nearest ancestor (or the path itself)
/// that is a start. O(depth) hash lookups, independent of the number of roots.
fn find_start<'a>(index: &HashMap<&Path, &'a StartRoot>, path: &Path) -> Option<&'a StartRoot> {
    path.ancestors().find_map(|p| index.get(p).copied())
}

/// Adds convention roots for Claude Code plugins found by their manifests: the
/// `skills/` folder of every directory holding `.claude-plugin/plugin.json`, and of
/// every relative plugin `source` listed in a repository's root
/// `.claude-plugin/marketplace.json` (read with a size cap; bad JSON is ignored).
pub fn add_plugin_roots(groups: &mut [Group], entries: &[Entry]) {
    const MAX_MANIFEST: u64 = 1024 * 1024;
    let conv = conventions::plugin();
    let mut roots: Vec<(usize, String)> = Vec::new();
    for e in entries {
        if !matches!(e.kind, EntryKind::File) {
            continue;
        }
        let Some(g) = groups.get(e.group) else {
            continue;
        };
        if !g.conventions_apply {
            continue;
        }
        if let Some(plugin_root) = e.rel.strip_suffix(".claude-plugin/plugin.json")
            && (plugin_root.is_empty() || plugin_root.ends_with('/'))
        {
            roots.push((e.group, format!("{}skills", plugin_root)));
        }
        let marketplace = join_rel(&g.boundary_rel, ".claude-plugin/marketplace.json");
        if e.rel == marketplace {
            // Hostile file: no FIFO blocking, no final symlink, bounded read.
            let mut bytes = Vec::new();
            let read = crate::fsutil::open_regular(&e.abs).and_then(|f| {
                io::Read::read_to_end(&mut io::Read::take(f, MAX_MANIFEST + 1), &mut bytes)
            });
            if read.is_err() || bytes.len() as u64 > MAX_MANIFEST {
                continue;
            }
            let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
                continue;
            };
            for p in v["plugins"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
            {
                let Some(src) = p["source"].as_str() else {
                    continue;
                };
                let src = src.trim_start_matches("./").trim_end_matches('/');
                let safe = !src.is_empty()
                    && !src.starts_with('/')
                    && !src.contains('\\')
                    && src
                        .split('/')
                        .all(|seg| !seg.is_empty() && seg != ".." && seg != ".");
                if safe || src == "." {
                    let inner = if src == "." || src.is_empty() {
                        "skills".to_owned()
                    } else {
                        format!("{src}/skills")
                    };
                    roots.push((e.group, join_rel(&g.boundary_rel, &inner)));
                }
            }
        }
    }
    roots.sort();
    roots.dedup();
    for (gi, root) in roots {
        let g = &mut groups[gi];
        if !g.convention_roots.iter().any(|(r, _)| *r == root) {
            g.convention_roots.push((root, conv));
        }
    }
    for g in groups.iter_mut() {
        g.convention_roots.sort_by(|a, b| a.0.cmp(&b.0));
    }
}

/// A skill directory found among the entries.
#[derive(Debug, Clone)]
pub struct SkillDir {
    pub rel: String,
    pub group: usize,
    /// Name of the entry file chosen (`SKILL.md` preferred), and other variants present.
    pub entry: String,
    pub variants: Vec<String>,
    /// Enclosing skill directory, if nested.
    pub nested_in: Option<String>,
    /// Entry file of the enclosing skill, relative to the scan base.
    pub nested_in_entry: Option<String>,
    /// Convention root this skill was discovered through.
    pub convention: Option<&'static Convention>,
    /// The concrete convention root (relative to the scan base) it was found under.
    pub convention_root: Option<String>,
    /// Indices into the entry list of the files (and links, specials) that belong to it.
    pub members: Vec<usize>,
}

fn parent_rel(rel: &str) -> &str {
    rel.rfind('/').map(|i| &rel[..i]).unwrap_or("")
}

fn file_name(rel: &str) -> &str {
    rel.rfind('/').map(|i| &rel[i + 1..]).unwrap_or(rel)
}

/// Groups entries into skills: every directory holding a `SKILL.md` (any case).
pub fn group_skills(entries: &[Entry], groups: &[Group]) -> Vec<SkillDir> {
    let mut by_dir: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut dir_group: BTreeMap<&str, usize> = BTreeMap::new();
    for e in entries {
        let name = file_name(&e.rel);
        if is_skill_file_name(name) && !matches!(e.kind, EntryKind::Dir) {
            let dir = parent_rel(&e.rel);
            by_dir.entry(dir).or_default().push(name);
            dir_group.insert(dir, e.group);
        }
    }
    let skill_dirs: BTreeSet<&str> = by_dir.keys().copied().collect();
    let mut skills: Vec<SkillDir> = by_dir
        .iter()
        .map(|(dir, names)| {
            let mut names: Vec<String> = names.iter().map(|s| (*s).to_owned()).collect();
            names.sort();
            let entry = if names.iter().any(|n| n == "SKILL.md") {
                "SKILL.md".to_owned()
            } else if names.iter().any(|n| n == "skill.md") {
                "skill.md".to_owned()
            } else {
                names[0].clone()
            };
            let variants = names.into_iter().filter(|n| *n != entry).collect();
            let mut nested_in = None;
            let mut p = *dir;
            while !p.is_empty() {
                p = parent_rel(p);
                if skill_dirs.contains(p) && p != *dir {
                    nested_in = Some(p.to_owned());
                    break;
                }
            }
            let group = dir_group[dir];
            let found = groups.get(group).and_then(|g| {
                g.convention_roots
                    .iter()
                    .filter(|(root, _)| {
                        dir.starts_with(root.as_str())
                            && (dir.len() == root.len()
                                || dir.as_bytes().get(root.len()) == Some(&b'/'))
                    })
                    .max_by_key(|(root, _)| root.len())
                    .map(|(root, c)| (root.clone(), *c))
            });
            SkillDir {
                rel: (*dir).to_owned(),
                group,
                entry,
                variants,
                nested_in,
                nested_in_entry: None,
                convention: found.as_ref().map(|(_, c)| *c),
                convention_root: found.map(|(r, _)| r),
                members: Vec::new(),
            }
        })
        .collect();
    let entry_of: BTreeMap<String, String> = skills
        .iter()
        .map(|s| (s.rel.clone(), join_rel(&s.rel, &s.entry)))
        .collect();
    for s in &mut skills {
        s.nested_in_entry = s.nested_in.as_ref().and_then(|p| entry_of.get(p).cloned());
    }
    let index: BTreeMap<String, usize> = skills
        .iter()
        .enumerate()
        .map(|(i, s)| (s.rel.clone(), i))
        .collect();
    for (ei, e) in entries.iter().enumerate() {
        if matches!(e.kind, EntryKind::Dir) {
            continue;
        }
        let mut p = parent_rel(&e.rel);
        loop {
            if let Some(&si) = index.get(p) {
                skills[si].members.push(ei);
                break;
            }
            if p.is_empty() {
                break;
            }
            p = parent_rel(p);
        }
    }
    skills
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skill_file_names() {
        assert!(is_skill_file_name("SKILL.md"));
        assert!(is_skill_file_name("skill.md"));
        assert!(is_skill_file_name("Skill.Md"));
        assert!(!is_skill_file_name("SKILLS.md"));
    }

    #[test]
    fn rel_helpers() {
        assert_eq!(join_rel("", "a"), "a");
        assert_eq!(join_rel("a", ""), "a");
        assert_eq!(join_rel("a", "b"), "a/b");
        assert_eq!(parent_rel("a/b/c"), "a/b");
        assert_eq!(parent_rel("a"), "");
        assert_eq!(file_name("a/b"), "b");
    }
}
