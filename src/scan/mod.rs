//! The scan pipeline, top to bottom: plan and walk the tree ([`discover`]), analyse every
//! skill in one rayon pool with panics contained ([`analyze`]: read → parse → compliance
//! → security), evaluate the loader profiles ([`crate::loaders`]), compute the baseline
//! hashes ([`crate::skill_hashes`]), attach walk issues to their skills, summarise, and run
//! the scan-wide security rules. Each step is one function below.

mod changed;
mod contain;
pub mod summary;
mod uninspected;
mod walk_issues;
mod waza_scope;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rayon::prelude::*;

use crate::analyze;
use crate::discover::{
    self, DiscoverError, Entry, EntryKind, Group, Mode, SkillDir, WalkIssue, WalkOptions,
};
use crate::finding::{Finding, sort_findings};
use crate::inventory::{Artifact, FileKind, LinkState, SymlinkInfo};
use crate::read::{ReadOptions, Shared};
use crate::result::ScanResult;
use crate::rules::ids;
use crate::skill_hashes::{HashOptions, Hasher, Manifest};
use crate::timing::{self, Stage};

/// Everything that shapes a scan.
#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    pub walk: WalkOptions,
    pub read: ReadOptions,
    /// Worker threads for analysis and the walk (0 = one per core).
    pub threads: usize,
    /// Which loader profiles to emulate.
    pub profiles: crate::loaders::Selection,
    /// Which harnesses the scanned repositories target (default: inferred per repository).
    pub targets: crate::targets::Choice,
    /// How content hashes are computed (baselines).
    pub hash: HashOptions,
    /// Changed-files mode: files relative to the scan base, `/`-separated. Only the skills
    /// holding them are scanned, with the skills their cross-skill checks need
    /// ([`changed`]); [`restrict_to_changed`] then keeps what concerns them.
    pub changed: Option<Vec<String>>,
    /// Changed-files mode: more files (relative to the scan base) whose change makes the scan
    /// a full one, besides `.skillguard.toml`, `.skillguard/` and `skills-lock.json`: the
    /// configuration and accepted-findings files in use wherever the operator keeps them.
    pub policy_files: Vec<String>,
    /// Progress counters the caller may watch (skills analysed of skills found).
    pub progress: Option<std::sync::Arc<Progress>>,
    /// The off-by-default rules to run (`config::enabled_rules`; default: none).
    pub rules: crate::catalog::Enabled,
    /// Test hook: panic while analysing the skill in the directory with this name.
    #[doc(hidden)]
    pub panic_on_skill: Option<String>,
    /// The result cache (`--cache-dir`; off with `--no-cache`).
    pub cache: Option<std::sync::Arc<crate::cache::Cache>>,
}

/// How far a scan is: skills found by the walk, and skills analysed. Written by the scan,
/// read by whoever draws a progress bar (the CLI, on a terminal).
#[derive(Debug, Default)]
pub struct Progress {
    pub total: std::sync::atomic::AtomicUsize,
    pub done: std::sync::atomic::AtomicUsize,
}

/// Every rule id a scan can emit: the constants of [`ids::ALL`] plus the security
/// engine's (code and data rules), sorted.
pub fn rule_ids() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = ids::ALL.to_vec();
    v.extend(crate::security::rule_ids());
    v.extend(crate::agents::RULES);
    v.extend(crate::evalfiles::RULES);
    v.sort_unstable();
    v.dedup();
    v
}

/// The walked tree: groups, entries, the skills found in it and the walk's issues.
struct Walked {
    groups: Vec<Group>,
    entries: Vec<Entry>,
    skills: Vec<SkillDir>,
    /// Symlinked directories by relative path.
    dir_links: BTreeMap<String, SymlinkInfo>,
    issues: Vec<WalkIssue>,
    hidden: usize,
    /// [`discover::Plan::listing`].
    listing: Option<String>,
}

/// From this many skills on, a scan compiles every rule regex up front
/// ([`crate::security::model::datarules::compile_eagerly`]).
const EAGER_COMPILE_SKILLS: usize = 32;

/// Runs a scan.
pub fn scan(mode: Mode, target: &Path, opts: &ScanOptions) -> Result<ScanResult, DiscoverError> {
    // Compile the security rule set (a fixed 0.09-0.14 s) on its own thread while the tree is
    // walked, instead of on the first analysis worker while the others wait for it (without
    // the thread, the first worker does it).
    let _ = std::thread::Builder::new().spawn(|| {
        let _ = crate::security::model::datarules::compiled();
    });
    let Walked {
        groups,
        entries,
        mut skills,
        dir_links,
        issues,
        hidden,
        listing,
    } = walk(mode, target, opts)?;
    // One pool sized by -j for every parallel stage (analysis, loader profiles, hashes).
    let pool = (opts.threads > 0)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(opts.threads)
                .build()
                .ok()
        })
        .flatten();
    // A shard of a split repository: the skills whose content rules another shard runs.
    let split = opts.walk.only.as_ref().filter(|o| !o.split.is_empty());
    let shallow: Option<BTreeSet<String>> = split.map(|only| {
        skills
            .iter()
            .filter(|s| {
                let repo = s.rel.split('/').next().unwrap_or("");
                !only.owns_skill(repo, &s.rel)
            })
            .map(|s| s.rel.clone())
            .collect()
    });
    let preread = crate::read::Preread::default();
    let shared = Shared {
        preread: &preread,
        entries: &entries,
        groups: &groups,
        dir_links: &dir_links,
        read: &opts.read,
        rules: &opts.rules,
        panic_on: opts.panic_on_skill.as_deref(),
        shallow: shallow.as_ref(),
        // Not with the test hook that makes an analysis panic (its result is not one).
        cache: opts
            .cache
            .as_deref()
            .filter(|_| opts.panic_on_skill.is_none()),
    };
    // Where every skill lives (before a changed-files scan keeps some): the targets.
    let skill_locations: Vec<(Option<String>, Option<&str>)> = skills
        .iter()
        .map(|s| {
            (
                groups.get(s.group).and_then(|g| g.repo.clone()),
                s.convention.map(|c| c.path),
            )
        })
        .collect();
    // Skills a changed-files scan leaves out: their enclosing skills have no AgentEval hash.
    let mut unscanned: Vec<String> = Vec::new();
    let changed = match &opts.changed {
        Some(files) if !files.is_empty() => {
            let (keep, changed) = in_pool(&pool, || {
                changed::select(&skills, files, &opts.policy_files, &shared)
            });
            let mut all: Vec<Option<SkillDir>> = skills.into_iter().map(Some).collect();
            skills = keep.into_iter().filter_map(|i| all[i].take()).collect();
            unscanned = all.into_iter().flatten().map(|s| s.rel).collect();
            Some(changed)
        }
        _ => None,
    };
    // Many skills to analyse (after a changed-files scan kept its own) and a core the workers leave idle (`-j` below the core count): real text
    // reaches most rule regexes, so the idle core compiles them all now, while the workers
    // read and parse, rather than the workers one at a time on first use. A small scan (a
    // pre-commit run) compiles only the few its text asks for; with every core busy, compiling
    // regexes no file needs would only add work (measured, docs/performance.md).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if skills.len() >= EAGER_COMPILE_SKILLS {
        crate::security::model::datarules::prefer_full_engines();
    }
    if skills.len() >= EAGER_COMPILE_SKILLS && opts.threads > 0 && opts.threads < cores {
        let idle = cores - opts.threads;
        // Only a speed-up: without the thread, the workers compile what they need.
        let _ = std::thread::Builder::new()
            .spawn(move || crate::security::model::datarules::compile_eagerly(idle));
    }

    let skills_ref = opts.profiles.wants("skills-ref");
    if let Some(p) = &opts.progress {
        p.total
            .store(skills.len(), std::sync::atomic::Ordering::Relaxed);
    }
    let results = in_pool(&pool, || {
        analyse_all(&skills, &shared, skills_ref, opts.progress.as_deref())
    });
    // A changed-files scan reports only on the changed agent files: the others are read for
    // what the cross-file checks need, no more.
    let changed_files = changed.as_ref().filter(|c| !c.full).map(|c| &c.files[..]);
    let mut agent_results = in_pool(&pool, || {
        analyse_agents(&entries, &groups, &skills, &shared, changed_files)
    });
    crate::agents::loader_verdicts(&mut agent_results, &opts.profiles);
    // Before the cross-agent checks, which compare contents as baselines do.
    let hasher = Hasher::new(opts.hash.clone()).unwrap_or_default();
    for a in &mut agent_results {
        a.artifact.content_hash = hasher.file_content_hash(&a.artifact);
        if a.artifact.content_hash.is_none() {
            a.artifact.hash_incomplete =
                Some("the file could not be read or is over the hash limit".into());
        }
    }
    let mut artifacts = Vec::with_capacity(results.len());
    let mut loader_inputs = Vec::with_capacity(results.len());
    let mut skills_ref_verdicts = Vec::with_capacity(results.len());
    let mut findings = Vec::new();
    for (r, v) in results {
        artifacts.push(r.artifact);
        loader_inputs.push(r.loader_input);
        skills_ref_verdicts.push(v);
        findings.extend(r.findings);
    }
    let skill_names: BTreeSet<String> = artifacts.iter().map(|a| a.name.clone()).collect();
    crate::agents::check_references(&agent_results, &skill_names, &mut findings);
    crate::agents::check_agents(&agent_results, &mut findings);
    let mut agents = Vec::with_capacity(agent_results.len());
    for a in agent_results {
        findings.extend(a.findings);
        agents.push(a.artifact);
    }
    crate::agents::dedup(&mut findings);
    // Eval files: validated, tied to the skill or agent they evaluate.
    let mut evals = timing::time(Stage::Evals, || {
        let repos: Vec<(String, Option<String>)> = groups
            .iter()
            .map(|g| (g.boundary_rel.clone(), g.repo.clone()))
            .collect();
        let targets = crate::evalfiles::Targets {
            skills: &artifacts,
            agents: &agents,
        };
        let (evals, fs) = crate::evalfiles::check(&entries, &targets, &repos, &preread);
        findings.extend(fs);
        if opts.rules.runs(crate::evalfiles::SKILL_WITHOUT_EVALS) {
            findings.extend(crate::evalfiles::uncovered(&targets, &evals));
        }
        evals
    });
    let targets_waza = match &opts.targets {
        crate::targets::Choice::All => true,
        crate::targets::Choice::Only(set) => set.contains(crate::targets::WAZA),
        crate::targets::Choice::Infer => false,
    };
    waza_scope::apply(&mut findings, &groups, &entries, &evals, targets_waza);
    drop(entries);

    let loader_findings = timing::time(Stage::Loaders, || {
        in_pool(&pool, || {
            let inputs = (&loader_inputs[..], &skills_ref_verdicts[..]);
            evaluate_loaders(&mut artifacts, inputs, &groups, &issues, mode, opts)
        })
    });
    findings.extend(loader_findings);
    timing::time(Stage::Hashes, || {
        in_pool(&pool, || {
            hash_artifacts(&mut artifacts, &loader_inputs, &opts.hash)
        })
    });

    let truncated = walk_issues::attach(&issues, &artifacts, &groups, &mut findings);
    // A harness the repository does not target weighs its verdicts as portability; then one
    // cause, one finding: harness exclusions attach to the finding that causes them.
    let targets = crate::targets::resolve(&opts.targets, &skill_locations, &agents);
    crate::loaders::targets::apply(&mut findings, &artifacts, &targets);
    crate::loaders::attach_consequences(&mut findings);
    crate::loaders::targets::explain_causes(&mut findings, &artifacts, &targets);
    uninspected::attach(&mut findings);
    sort_findings(&mut findings);
    mark_truncated(&mut artifacts, &truncated);
    timing::time(Stage::Hashes, || {
        crate::skill_hashes::agenteval_hashes(&mut artifacts, &unscanned)
    });

    if let Some(only) = split {
        keep_owned(only, &mut artifacts, &mut agents, &mut evals, &mut findings);
    }
    let coverage = summary::coverage(&artifacts, mode);
    let mut repos = summary::repos(&groups, &artifacts, &findings, mode);
    if let Some(only) = split {
        for r in &mut repos {
            if let Some(part) = r.repo.as_deref().and_then(|n| only.split.get(n)) {
                r.split = Some(crate::result::SplitPart { rest: part.rest });
            }
        }
    }
    let (files_scanned, bytes_scanned) = crate::inventory::totals(&artifacts);
    let mut result = ScanResult {
        lock_entries: 0,
        mode,
        target: target.display().to_string(),
        artifacts,
        agents,
        evals,
        findings,
        coverage,
        repos,
        hidden_skipped: hidden,
        files_scanned,
        bytes_scanned,
        suppressed: Vec::new(),
        changed,
        shard: opts.walk.shard,
        // Repository and path scans: no workspace, an empty listing.
        listing: Some(listing.unwrap_or_else(|| crate::hash::sha256_hex(b""))),
        run: None,
        targets,
    };
    timing::time(Stage::SecurityScanWide, || {
        crate::security::families::permissions::check_scan(&mut result)
    });
    Ok(result)
}

/// Changed-files mode: keeps the findings that concern a changed skill and the changed
/// skills' records, and recounts. Call it after every cross-skill check (the baseline's
/// drift checks read the other skills' records). Does nothing for a full scan.
pub fn restrict_to_changed(result: &mut ScanResult) {
    let Some(changed) = result.changed.take() else {
        return;
    };
    if !changed.full {
        result.findings.retain(|f| changed.concerns(f));
        result.suppressed.retain(|s| changed.concerns(&s.finding));
        // The changed skills, and the others a kept finding is about (the losing copy of
        // a collision with a changed skill).
        let owners: BTreeSet<&str> = result
            .findings
            .iter()
            .filter_map(|f| changed.owner(&f.location.path))
            .collect();
        let keep: BTreeSet<String> = changed
            .skills
            .iter()
            .map(String::as_str)
            .chain(owners)
            .map(str::to_owned)
            .collect();
        result.artifacts.retain(|a| keep.contains(&a.path));
        result
            .agents
            .retain(|a| changed.files.binary_search(&a.path).is_ok());
        result.coverage = summary::coverage(&result.artifacts, result.mode);
        (result.files_scanned, result.bytes_scanned) = crate::inventory::totals(&result.artifacts);
        if let [r] = &mut result.repos[..] {
            r.skills = result.artifacts.iter().filter(|a| !a.excluded).count();
            r.excluded = result.artifacts.len() - r.skills;
        }
        result.recount();
    }
    result.changed = Some(changed);
}

/// A shard of a split repository keeps what it owns ([`discover::PlanShard::owns`]): its
/// skills' records, and the findings, agent and eval files whose path lies in one of its
/// skills (or, for the remainder's shard, in none). Every shard computed the same
/// repository-level results; each is now reported by exactly one shard.
fn keep_owned(
    only: &discover::PlanShard,
    artifacts: &mut Vec<Artifact>,
    agents: &mut Vec<Artifact>,
    evals: &mut Vec<crate::inventory::EvalFileInfo>,
    findings: &mut Vec<Finding>,
) {
    let dirs: std::collections::HashSet<&str> = artifacts.iter().map(|a| a.path.as_str()).collect();
    let owned = |p: &str| only.owns(p, &dirs);
    findings.retain(|f| owned(&f.location.path));
    agents.retain(|a| owned(&a.path));
    evals.retain(|e| owned(&e.path));
    drop(dirs);
    artifacts.retain(|a| {
        let repo = a.path.split('/').next().unwrap_or("");
        only.owns_skill(repo, &a.path)
    });
}

/// Runs `f` in the scan's pool (or rayon's global one).
fn in_pool<T: Send>(pool: &Option<rayon::ThreadPool>, f: impl FnOnce() -> T + Send) -> T {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

/// Plans the scan, walks the tree in parallel and groups the entries into skills.
fn walk(mode: Mode, target: &Path, opts: &ScanOptions) -> Result<Walked, DiscoverError> {
    let mut plan = match mode {
        Mode::Path => discover::plan_path(target)?,
        Mode::Repo => discover::plan_repo(target, &opts.walk)?,
        Mode::Workspace => discover::plan_workspace(target, &opts.walk)?,
    };
    if opts.walk.respect_gitignore {
        plan.drop_gitignored_roots();
    }
    let discover::Plan {
        mut groups,
        starts,
        link_starts,
        mut issues,
        hidden,
        listing,
    } = plan;
    let mut walk_opts = opts.walk.clone();
    walk_opts.threads = opts.threads;
    let (entries, walk_issues) = timing::time(Stage::Walk, || {
        discover::walk(&groups, &starts, &link_starts, &walk_opts)
    });
    issues.extend(walk_issues);

    discover::add_plugin_roots(&mut groups, &entries);
    let skills = discover::group_skills(&entries, &groups);
    issues.extend(walk_issues::stray_issues(&entries, &skills, &groups));
    let dir_links = dir_links(&entries, &groups);
    Ok(Walked {
        groups,
        entries,
        skills,
        dir_links,
        issues,
        hidden,
        listing,
    })
}

/// Symlinked directories inside the root, by relative path; convention roots that are
/// themselves symlinks were walked at their target, and are recorded here so their skills
/// are reported as symlinked.
fn dir_links(entries: &[Entry], groups: &[Group]) -> BTreeMap<String, SymlinkInfo> {
    let mut dir_links: BTreeMap<String, SymlinkInfo> = entries
        .iter()
        .filter_map(|e| match &e.kind {
            EntryKind::Symlink(i) if i.target_is_dir && i.state == LinkState::Inside => {
                Some((e.rel.clone(), i.clone()))
            }
            _ => None,
        })
        .collect();
    for g in groups {
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
    dir_links
}

/// Analyses every skill in parallel; a skill whose analysis panics gets an
/// `internal-error` finding and the others go on.
/// Every skill analysed (panics contained), with its skills-ref verdict when that profile
/// is on: made here from the entry bytes, which are then dropped (peak memory does not grow
/// with the entry files of every skill).
fn analyse_all(
    skills: &[SkillDir],
    shared: &Shared<'_>,
    skills_ref: bool,
    progress: Option<&Progress>,
) -> Vec<(analyze::Analysed, Option<crate::inventory::LoaderVerdict>)> {
    skills
        .par_iter()
        .map(|sd| {
            let mut a = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                analyze::analyze_skill(sd, shared)
            }))
            .unwrap_or_else(|payload| contain::internal_error(sd, shared.groups, payload));
            let bytes = a.entry_bytes.take();
            let verdict = skills_ref.then(|| {
                timing::time(Stage::Loaders, || {
                    crate::loaders::skills_ref_verdict(&a.artifact, bytes.as_deref())
                })
            });
            if let Some(p) = progress {
                p.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            (a, verdict)
        })
        .collect()
}

/// Every customisation file (agents, prompts, instructions, MCP and hook configurations)
/// found among the entries, analysed in parallel, sorted by path; a file whose analysis
/// panics is left out with an `internal-error` finding.
fn analyse_agents(
    entries: &[Entry],
    groups: &[Group],
    skills: &[SkillDir],
    shared: &Shared<'_>,
    changed: Option<&[String]>,
) -> Vec<crate::agents::Analysed> {
    let files = crate::agents::discover(entries, groups, skills);
    // Every walked path and the folders above them, for `#file:` references.
    let mut paths: std::collections::HashSet<&str> = std::collections::HashSet::new();
    if !files.is_empty() {
        for e in entries {
            let mut p = e.rel.as_str();
            while paths.insert(p) {
                match p.rfind('/') {
                    Some(i) => p = &p[..i],
                    None => break,
                }
            }
        }
    }
    // The walked paths reach an agent's findings (its `#file:` references): their digest is
    // part of every agent's cache key.
    let paths_digest = shared.cache.map(|_| {
        let mut sorted: Vec<&&str> = paths.iter().collect();
        sorted.sort();
        let mut k = crate::cache::KeyBuilder::new("paths");
        for p in sorted {
            k.field(p.as_bytes());
        }
        k.finish()
    });
    let mut out: Vec<crate::agents::Analysed> = files
        .par_iter()
        .filter_map(|af| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let light = changed.is_some_and(|c| c.binary_search(&af.rel).is_err());
                match (shared.cache, &paths_digest) {
                    (Some(cache), Some(digest)) if !light => {
                        analyse_agent_cached(af, shared, &paths, cache, digest)
                    }
                    _ => crate::agents::analyze(af, shared, &paths, light),
                }
            }))
            .unwrap_or_else(|_| Some(contain::agent_internal_error(af, shared.groups)))
        })
        .collect();
    out.sort_by(|a, b| a.artifact.path.cmp(&b.artifact.path));
    out
}

/// One agent file through the result cache: the light reading (what the cross-file checks
/// need, and the file's hash) gives the key; a hit takes the stored findings, a miss runs
/// the full analysis and stores its findings. A file without a hash (unreadable, over the
/// limit) is always analysed in full.
fn analyse_agent_cached(
    af: &crate::agents::AgentFile,
    shared: &Shared<'_>,
    paths: &std::collections::HashSet<&str>,
    cache: &crate::cache::Cache,
    paths_digest: &[u8; 32],
) -> Option<crate::agents::Analysed> {
    let quick = crate::agents::analyze(af, shared, paths, true)?;
    let files = &quick.artifact.files;
    if files.is_empty() || files.iter().any(|f| f.sha256.is_none()) {
        return crate::agents::analyze(af, shared, paths, false);
    }
    let mut k = crate::cache::KeyBuilder::new("agent");
    k.field(af.rel.as_bytes())
        .field(af.convention.pattern.as_bytes())
        .field(af.convention.format.as_str().as_bytes())
        .debug(&af.in_skill)
        .field(paths_digest);
    crate::analyze::key_place(&mut k, shared.groups.get(af.group), shared).files(files);
    let key = k.finish();
    if let Some(findings) = cache.get(&key) {
        return Some(crate::agents::Analysed { findings, ..quick });
    }
    let full = crate::agents::analyze(af, shared, paths, false)?;
    cache.put(&key, &full.findings);
    Some(full)
}

/// Loader profiles: which harness loads which skill, sharing the entry bytes read once
/// and the analysis's parse of them.
fn evaluate_loaders(
    artifacts: &mut [Artifact],
    (loader_inputs, skills_ref): (
        &[Option<crate::loaders::Parsed>],
        &[Option<crate::inventory::LoaderVerdict>],
    ),
    groups: &[Group],
    issues: &[WalkIssue],
    mode: Mode,
    opts: &ScanOptions,
) -> Vec<Finding> {
    let unreadable_dirs: BTreeSet<String> = issues
        .iter()
        .filter(|i| i.rule == ids::PATH_UNREADABLE)
        .map(|i| i.rel.clone())
        .collect();
    crate::loaders::evaluate(
        artifacts,
        loader_inputs,
        skills_ref,
        groups,
        &unreadable_dirs,
        mode == Mode::Path,
        &opts.profiles,
    )
}

/// Baseline hashes (AgentEval's structural fingerprint reads the entry file as MAF does:
/// from the analysis's one MAF read);
/// the entry bytes are dropped here, after their last use.
fn hash_artifacts(
    artifacts: &mut [Artifact],
    loader_inputs: &[Option<crate::loaders::Parsed>],
    hash: &HashOptions,
) {
    let hasher = Hasher::new(hash.clone()).unwrap_or_default();
    artifacts
        .par_iter_mut()
        .zip(loader_inputs)
        .for_each(|(a, input)| {
            let maf = input.as_ref().and_then(|p| p.maf.as_ref().ok());
            let m = Manifest::from_maf(a, maf);
            a.structural_fingerprint = Some(m.fingerprint());
            // A file, or a link to a file inside the root (read through), whose bytes were not
            // hashed: the content hash would vouch for what was never read.
            let unread = a.files.iter().find(|f| {
                f.sha256.is_none()
                    && f.kind != FileKind::Special
                    && f.symlink.as_ref().is_none_or(|l| {
                        l.state == crate::inventory::LinkState::Inside && !l.target_is_dir
                    })
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
        })
}

/// A skill whose folder was not walked completely has no content hash.
fn mark_truncated(artifacts: &mut [Artifact], truncated: &BTreeMap<String, String>) {
    for a in artifacts {
        if let Some(rel) = truncated.get(&a.path) {
            a.content_hash = None;
            a.hash_incomplete = Some(format!(
                "`{}` was not walked completely (a walk bound, an unreadable folder or a name that is not UTF-8)",
                crate::text::sanitize_line(rel)
            ));
        }
    }
}
