//! Eval files: found among the walked entries, validated with file, line and column, and
//! tied to the skill or agent they evaluate.
//!
//! Formats:
//! - **agent-evals** `evals.json` (`{"cases": [{id, set, prompt, expect, match}]}`);
//! - **skill-creator** `evals/evals.json` (`{"skill_name", "evals": [{id, prompt,
//!   expected_output, files, assertions}]}`);
//! - **Waza** `eval.yaml` (`name`, `description`, `skill`, `version`, `config`, `graders`,
//!   `tasks` globs) and its task files;
//! - **trigger tests** `trigger_tests.yaml` (`skill`, `should_trigger_prompts`,
//!   `should_not_trigger_prompts`, each `{prompt, reason, confidence}`);
//! - `notes-evals.md`, whose presence is recorded.
//!
//! Every file is parsed with the project's YAML reader (JSON is YAML), so each problem has a
//! position; JSON files are first checked as strict JSON.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::discover::{Entry, EntryKind};
use crate::evals::cases;
use crate::evals::pattern::Dialect;
use crate::finding::{Finding, Location};
use crate::inventory::{Artifact, ArtifactKind, EvalFileInfo};
use crate::parse::yaml::{self, Node, NodeKind};
use crate::target_names::{Resolution, TargetNames};
use crate::text::sanitize_line;

pub const EVAL_FILE_INVALID: &str = "eval-file-invalid";
pub const EVAL_TARGET_MISSING: &str = "eval-target-missing";
pub const EVAL_TARGET_AMBIGUOUS: &str = "eval-target-ambiguous";
pub const SKILL_WITHOUT_EVALS: &str = "skill-without-evals";
pub const EVAL_TOOL_UNKNOWN: &str = "eval-tool-unknown";
pub const EVAL_SET_SMALL: &str = "eval-set-small";
pub const EVAL_K_OUTSIDE_RANGE: &str = "eval-k-outside-range";

pub const RULES: &[&str] = &[
    EVAL_FILE_INVALID,
    EVAL_TARGET_MISSING,
    EVAL_TARGET_AMBIGUOUS,
    SKILL_WITHOUT_EVALS,
    EVAL_TOOL_UNKNOWN,
    EVAL_SET_SMALL,
    EVAL_K_OUTSIDE_RANGE,
];

/// Largest eval file read (bytes); a larger one is reported, not read.
pub const MAX_EVAL_FILE: u64 = 4 * 1024 * 1024;
/// Waza `tasks` entries read per eval file (each is matched against the files of its folder).
const MAX_TASK_PATTERNS: usize = 256;
/// Waza task files read and validated per eval file (in path order); the rest are counted.
const MAX_TASK_FILES: usize = 256;
/// Bytes of Waza task files read per eval file, in total (each file also obeys
/// [`MAX_EVAL_FILE`]).
const MAX_TASK_BYTES: u64 = 16 * 1024 * 1024;
/// Fields of a Waza task that hold what is sent to the agent. Only `triggers` is documented
/// (as Waza documents it; docs/evals.md); the others are accepted so that an undocumented spelling is not reported as
/// a task without a prompt.
const PROMPT_FIELDS: &[&str] = &["triggers", "prompt", "prompts", "input", "inputs"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    AgentEvals,
    SkillCreator,
    Waza,
    TriggerTests,
    /// skill-creator's description-optimisation set: `[{"query", "should_trigger"}]`.
    TriggerEvals,
    Notes,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::AgentEvals => "agent-evals",
            Format::SkillCreator => "skill-creator",
            Format::Waza => "waza",
            Format::TriggerTests => "trigger-tests",
            Format::TriggerEvals => "trigger-evals",
            Format::Notes => "notes",
        }
    }
}

fn file_name(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(d, _)| d)
}

/// The format a file name says (`evals.json` is told apart by its content).
fn format_of(rel: &str) -> Option<Format> {
    match file_name(rel) {
        "evals.json" => Some(Format::AgentEvals),
        "eval.yaml" | "eval.yml" => Some(Format::Waza),
        "trigger_tests.yaml" | "trigger_tests.yml" => Some(Format::TriggerTests),
        "notes-evals.md" => Some(Format::Notes),
        _ => None,
    }
}

/// Waza's `evals/<name>.yaml` (the layout `waza coverage` lists): a YAML file directly in a
/// folder named `evals` whose top level is a mapping with `tasks` or `graders`. Other YAML
/// files there (task files, data) are not eval files.
fn loose_waza(e: &Entry, bytes: &[u8]) -> bool {
    matches!(
        cases::tree(&e.rel, &String::from_utf8_lossy(bytes), false),
        Ok(Some(root)) if root.get("tasks").is_some() || root.get("graders").is_some()
    )
}

/// What the checks know of the scan's skills and agents.
pub struct Targets<'a> {
    pub skills: &'a [Artifact],
    pub agents: &'a [Artifact],
}

struct Cx {
    rel: String,
    /// While a Waza task file is validated: its path, where its findings are placed.
    here: Option<String>,
    /// (rule, message, location, anchor): made findings once the target is known.
    findings: Vec<(&'static str, String, Location, String)>,
}

impl Cx {
    fn emit(&mut self, rule: &'static str, msg: String, line: usize, col: usize, anchor: &str) {
        let path = self.here.as_ref().unwrap_or(&self.rel).clone();
        let loc = if line == 0 {
            Location::file(path)
        } else {
            Location::at(path, line as u32, col as u32)
        };
        let anchor = match &self.here {
            Some(h) => format!("task:{}:{anchor}", file_name(h)),
            None => anchor.to_owned(),
        };
        self.findings.push((rule, msg, loc, anchor));
    }

    fn problems(&mut self, rule: &'static str, ps: Vec<cases::Problem>) {
        for p in ps {
            self.emit(rule, p.msg, p.line, p.col, &p.anchor);
        }
    }

    fn at(&mut self, n: &Node, msg: String, anchor: &str) {
        self.emit(EVAL_FILE_INVALID, msg, n.pos.line, n.pos.col, anchor);
    }
}

fn read_bounded(e: &Entry) -> Result<Vec<u8>, String> {
    read_once(e, None)
}

/// [`read_bounded`], taking the bytes the skill reader kept when it has them.
fn read_once(e: &Entry, preread: Option<&crate::read::Preread>) -> Result<Vec<u8>, String> {
    let too_large = |size: u64| {
        format!(
            "it is {size} bytes, over the {MAX_EVAL_FILE}-byte limit for eval files, so it is not read"
        )
    };
    if e.size > MAX_EVAL_FILE {
        return Err(too_large(e.size));
    }
    if let Some(bytes) = preread.and_then(|p| p.take(&e.rel)) {
        return match bytes.len() as u64 {
            n if n > MAX_EVAL_FILE => Err(too_large(n)),
            _ => Ok(bytes),
        };
    }
    crate::fsutil::read_regular_bounded(&e.abs, MAX_EVAL_FILE)
        .map_err(|x| format!("it cannot be read ({x})"))
}

/// Lookups built once per scan, so that every eval file costs its own depth, not the number
/// of skills, agents, repositories or files.
struct Index<'a> {
    /// Names and paths → the skill or agent they designate (the resolution `coverage` and
    /// `evals tools` share).
    names: TargetNames<'a>,
    /// (repo, folder) → the agents directly in it.
    agents_by_dir: HashMap<(Option<&'a str>, &'a str), Vec<&'a Artifact>>,
    /// Repository roots (relative to the scan base) → repository name.
    repos: HashMap<&'a str, Option<&'a str>>,
    entries: &'a [Entry],
    /// Every walked file, sorted (Waza task globs look in one folder's range); made when a
    /// Waza eval first needs it.
    files: std::sync::OnceLock<Vec<&'a str>>,
    /// Every walked path (files, folders, links) → its entry; made when a Waza task first
    /// needs it (task files are read, fixtures looked up, only among these).
    by_rel: std::sync::OnceLock<HashMap<&'a str, &'a Entry>>,
}

/// `rel`'s folders, innermost first, ending with `""` (the base).
fn ancestors(rel: &str) -> impl Iterator<Item = &str> {
    let mut cur = Some(rel);
    std::iter::from_fn(move || {
        let c = cur.filter(|c| !c.is_empty())?;
        let up = parent(c);
        cur = Some(up);
        Some(up)
    })
}

impl<'a> Index<'a> {
    fn new(entries: &'a [Entry], t: &Targets<'a>, repos: &'a [(String, Option<String>)]) -> Self {
        let mut ix = Index {
            names: TargetNames::new(t.skills, t.agents),
            agents_by_dir: HashMap::new(),
            repos: repos
                .iter()
                .map(|(root, r)| (root.as_str(), r.as_deref()))
                .collect(),
            entries,
            files: std::sync::OnceLock::new(),
            by_rel: std::sync::OnceLock::new(),
        };
        for a in t.agents.iter().filter(|a| a.kind == ArtifactKind::Agent) {
            let repo = a.repo.as_deref();
            ix.agents_by_dir
                .entry((repo, parent(&a.path)))
                .or_default()
                .push(a);
        }
        ix
    }

    /// The repository holding `rel`: its root folder (relative to the scan base) and name.
    fn repo_of(&self, rel: &str) -> (&'a str, Option<String>) {
        ancestors(rel)
            .find_map(|d| self.repos.get_key_value(d))
            .map_or(("", None), |(root, r)| (*root, r.map(str::to_owned)))
    }

    /// Innermost skill folder holding `rel`.
    fn containing(&self, rel: &str) -> Option<&'a Artifact> {
        ancestors(rel).find_map(|d| self.names.skill_at(d))
    }

    /// What a name designates among the skills and agents of one repository.
    fn resolve(&self, repo: Option<&str>, name: &str, from: &str, root: &str) -> Resolution<'a> {
        self.names.resolve(repo, name, Some(from), root)
    }

    /// The agent an eval file beside agent files evaluates: the only agent in its folder,
    /// or the one named like the folder.
    fn agent_beside(&self, repo: Option<&str>, dir: &str) -> Option<&'a Artifact> {
        match self.agents_by_dir.get(&(repo, dir)).map(Vec::as_slice) {
            Some([one]) => Some(one),
            Some(many) => {
                let folder = file_name(dir);
                many.iter()
                    .copied()
                    .find(|a| a.name == folder || crate::agents::stem(&a.path) == folder)
            }
            None => None,
        }
    }

    /// The walked entry at `rel`.
    fn entry(&self, rel: &str) -> Option<&'a Entry> {
        self.by_rel
            .get_or_init(|| self.entries.iter().map(|e| (e.rel.as_str(), e)).collect())
            .get(rel)
            .copied()
    }

    /// Files under `dir` (all files for `""`).
    fn files_under(&self, dir: &str) -> &[&'a str] {
        let files = self.files.get_or_init(|| {
            let mut v: Vec<&str> = self
                .entries
                .iter()
                .filter(|e| e.kind == EntryKind::File)
                .map(|e| e.rel.as_str())
                .collect();
            v.sort_unstable();
            v
        });
        if dir.is_empty() {
            return files;
        }
        let lo = files.partition_point(|f| *f < dir);
        let hi = lo + files[lo..].partition_point(|f| f.starts_with(dir));
        &files[lo..hi]
    }
}

fn str_field<'n>(
    cx: &mut Cx,
    m: &'n Node,
    key: &str,
    required: bool,
    what: &str,
) -> Option<&'n str> {
    match m.get(key) {
        Some(v) => match v.as_str() {
            Some(s) if !s.trim().is_empty() => Some(s),
            _ => {
                // "not a string" only for what is not one; a blank string is "empty".
                let found = if v.as_str().is_some_and(|s| s.trim().is_empty())
                    && matches!(
                        &v.kind,
                        NodeKind::Scalar {
                            ty: yaml::ScalarType::Str,
                            ..
                        }
                    ) {
                    "an empty string".to_owned()
                } else {
                    Node::a_type(v)
                };
                cx.at(
                    v,
                    format!(
                        "`{key}` of {what} must be a non-empty string, not {found}. Write it as text.",
                    ),
                    &format!("field:{key}"),
                );
                None
            }
        },
        None => {
            if required {
                cx.at(
                    m,
                    format!("{what} has no `{key}`, which the format requires. Add it."),
                    &format!("missing:{key}"),
                );
            }
            None
        }
    }
}

fn seq<'n>(cx: &mut Cx, m: &'n Node, key: &str, required: bool) -> Option<&'n [Node]> {
    match m.get(key).map(|n| (n, &n.kind)) {
        Some((_, NodeKind::Seq { items, .. })) => Some(items),
        Some((n, _)) => {
            cx.at(
                n,
                format!("`{key}` must be a list, not {}.", Node::a_type(n)),
                &format!("type:{key}"),
            );
            None
        }
        None => {
            if required {
                cx.at(
                    m,
                    format!("the file has no `{key}` list, which the format requires. Add it."),
                    &format!("missing:{key}"),
                );
            }
            None
        }
    }
}

fn is_map(n: &Node) -> bool {
    matches!(n.kind, NodeKind::Map { .. })
}

/// agent-evals `cases[]`, read by the reader `evals grade` uses: the same problems, at the
/// same places, with the same messages.
fn agent_evals(cx: &mut Cx, root: &Node, info: &mut EvalFileInfo) {
    let parsed = cases::agent_evals(root, Dialect::Dotnet);
    cx.problems(EVAL_FILE_INVALID, parsed.problems);
    info.cases = parsed.total;
    info.capability = parsed.capability;
    info.regression = parsed.regression;
    info.graders = parsed
        .matchers
        .iter()
        .map(|m| format!("deterministic:{m}"))
        .collect();
    // Advice: a set starts from 20-50 real failures.
    let small: Vec<String> = [
        ("capability", parsed.capability),
        ("regression", parsed.regression),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0 && *n < cases::MIN_CASES_ADVISED)
    .map(|(set, n)| format!("{n} {set}"))
    .collect();
    if !small.is_empty()
        && let Some(c) = root.get("cases")
    {
        cx.emit(
            EVAL_SET_SMALL,
            format!(
                "the eval sets are small ({} case(s)); one case more or less moves the pass rate by several points. Grow each set to {}-50 cases taken from real failures (twenty expose a pattern, fifty give a stable pass rate).",
                small.join(", "),
                cases::MIN_CASES_ADVISED
            ),
            c.pos.line,
            c.pos.col,
            "small-sets",
        );
    }
}

fn skill_creator(cx: &mut Cx, root: &Node, info: &mut EvalFileInfo) -> Option<String> {
    let name = str_field(cx, root, "skill_name", true, "the file").map(str::to_owned);
    if let Some(evals) = seq(cx, root, "evals", true) {
        creator_items(cx, evals, info);
    }
    info.graders = vec!["expected-output".to_owned()];
    name
}

/// The `evals[]` items of a skill-creator file.
fn creator_items(cx: &mut Cx, evals: &[Node], info: &mut EvalFileInfo) {
    {
        let mut ids: BTreeMap<String, usize> = BTreeMap::new();
        for (i, e) in evals.iter().enumerate() {
            let what = format!("eval {}", i + 1);
            if !is_map(e) {
                cx.at(
                    e,
                    format!(
                        "{what} must be a mapping of `id`, `prompt`, `expected_output`, `files`."
                    ),
                    &format!("eval:{i}"),
                );
                continue;
            }
            match e.get("id") {
                Some(id) if matches!(&id.kind, NodeKind::Scalar { .. }) && !id.is_null() => {
                    let key = id.as_str().unwrap_or_default().to_owned();
                    if let Some(first) = ids.insert(key.clone(), i + 1) {
                        cx.at(id, format!("eval id `{}` is used again (first by eval {first}). Give each eval its own id.", sanitize_line(&key)), &format!("dup:{key}"));
                    }
                }
                Some(id) => cx.at(
                    id,
                    format!(
                        "`id` of {what} must be a number or a string, not {}.",
                        Node::a_type(id)
                    ),
                    &format!("id:{i}"),
                ),
                None => cx.at(
                    e,
                    format!("{what} has no `id`, which the format requires. Add it."),
                    &format!("missing-id:{i}"),
                ),
            }
            str_field(cx, e, "prompt", true, &what);
            str_field(cx, e, "expected_output", false, &what);
            if let Some(f) = e.get("files")
                && !matches!(f.kind, NodeKind::Seq { .. })
            {
                cx.at(
                    f,
                    format!(
                        "`files` of {what} must be a list of paths, not {}.",
                        Node::a_type(f)
                    ),
                    &format!("files:{i}"),
                );
            }
            if let Some(a) = e.get("assertions")
                && !matches!(a.kind, NodeKind::Seq { .. })
            {
                cx.at(
                    a,
                    format!(
                        "`assertions` of {what} must be a list, not {}.",
                        Node::a_type(a)
                    ),
                    &format!("assertions:{i}"),
                );
            }
        }
        info.cases = evals.len();
    }
}

fn waza(
    cx: &mut Cx,
    root: &Node,
    info: &mut EvalFileInfo,
    rel: &str,
    ix: &Index<'_>,
    graders: &mut Vec<cases::Grader>,
) -> Option<String> {
    str_field(cx, root, "name", true, "the eval");
    str_field(cx, root, "description", false, "the eval");
    let target = str_field(cx, root, "skill", false, "the eval").map(str::to_owned);
    if let Some(v) = root.get("version")
        && v.as_str().is_none()
        && !matches!(&v.kind, NodeKind::Scalar { .. })
    {
        cx.at(
            v,
            format!(
                "`version` must be a string such as \"1.0\", not {}.",
                Node::a_type(v)
            ),
            "version",
        );
    }
    if let Some(c) = root.get("config") {
        if !is_map(c) {
            cx.at(c, format!("`config` must be a mapping (`model`, `timeout_seconds`, `trials_per_task`), not {}.", Node::a_type(c)), "config");
        } else {
            for key in ["timeout_seconds", "trials_per_task"] {
                if let Some(n) = c.get(key)
                    && !matches!(
                        &n.kind,
                        NodeKind::Scalar {
                            ty: yaml::ScalarType::Int,
                            ..
                        }
                    )
                {
                    cx.at(
                        n,
                        format!(
                            "`config.{key}` must be a whole number, not {}.",
                            Node::a_type(n)
                        ),
                        &format!("config:{key}"),
                    );
                }
            }
        }
    }
    let (read, problems) = cases::waza_graders(root, Dialect::Re2);
    cx.problems(EVAL_FILE_INVALID, problems);
    info.graders = read
        .iter()
        .filter_map(|g| {
            let ty = g.ty.as_deref()?;
            Some(match &g.name {
                Some(n) => format!("{ty}:{n}"),
                None => ty.to_owned(),
            })
        })
        .collect();
    *graders = read;
    if let Some(p) = cases::trials_advisory(root) {
        cx.problems(EVAL_K_OUTSIDE_RANGE, vec![p]);
    }
    // Task files: globs relative to the eval file's folder.
    let dir = parent(rel);
    if let Some(ts) = seq(cx, root, "tasks", true) {
        let tasks_node = root.get("tasks").expect("tasks present");
        let mut files: BTreeSet<&str> = BTreeSet::new();
        let mut inline: Vec<(usize, &Node)> = Vec::new();
        if ts.len() > MAX_TASK_PATTERNS {
            cx.at(
                &ts[MAX_TASK_PATTERNS],
                format!(
                    "`tasks` lists {} entries; skillguard reads the first {MAX_TASK_PATTERNS}. Use globs (`tasks/*.yaml`) instead of one entry per file.",
                    ts.len()
                ),
                "tasks-many",
            );
        }
        for (i, t) in ts.iter().take(MAX_TASK_PATTERNS).enumerate() {
            let Some(pat) = t.as_str() else {
                if is_map(t) {
                    // An inline task.
                    info.cases += 1;
                    inline.push((i, t));
                } else {
                    cx.at(
                        t,
                        format!(
                            "task {} must be a glob of task files or an inline task, not {}.",
                            i + 1,
                            Node::a_type(t)
                        ),
                        &format!("task:{i}"),
                    );
                }
                continue;
            };
            let full = if dir.is_empty() {
                pat.to_owned()
            } else {
                format!("{dir}/{pat}")
            };
            let matched: Vec<&str> = match globset::Glob::new(&full) {
                Ok(g) => {
                    let m = g.compile_matcher();
                    ix.files_under(dir)
                        .iter()
                        .copied()
                        .filter(|f| m.is_match(f))
                        .collect()
                }
                Err(_) => Vec::new(),
            };
            if matched.is_empty() {
                cx.at(
                    t,
                    format!("`tasks` pattern `{}` matches no file, so the eval runs no task from it. Fix the path.", sanitize_line(pat)),
                    &format!("tasks:{pat}"),
                );
            }
            files.extend(matched);
        }
        // Each task's content: inline tasks first (in the eval file), then the task files.
        let mut names: HashMap<String, String> = HashMap::new();
        for (i, t) in inline {
            let what = format!("inline task {}", i + 1);
            task(cx, t, &what, dir, dir, ix, &mut names);
        }
        if files.len() > MAX_TASK_FILES {
            cx.at(
                tasks_node,
                format!(
                    "the `tasks` globs match {} files; skillguard validates the first {MAX_TASK_FILES} by path. Split the eval.",
                    files.len()
                ),
                "task-files-many",
            );
        }
        let mut budget = MAX_TASK_BYTES;
        for f in files.iter().take(MAX_TASK_FILES) {
            let Some(entry) = ix.entry(f) else { continue };
            if entry.size > budget {
                cx.at(
                    tasks_node,
                    format!(
                        "the task files of this eval hold over {MAX_TASK_BYTES} bytes together; skillguard stopped reading them at `{}`. Split the eval.",
                        sanitize_line(f)
                    ),
                    "task-bytes",
                );
                break;
            }
            budget -= entry.size;
            cx.here = Some((*f).to_owned());
            task_file(cx, entry, dir, ix, &mut names);
            cx.here = None;
        }
        for f in files {
            info.cases += 1;
            info.task_files.push(f.to_owned());
        }
    }
    target
}

/// Reads and validates one Waza task file; its findings are placed in it (`cx.here`).
fn task_file(
    cx: &mut Cx,
    e: &Entry,
    eval_dir: &str,
    ix: &Index<'_>,
    names: &mut HashMap<String, String>,
) {
    let shown = sanitize_line(&e.rel);
    let bytes = match read_bounded(e) {
        Ok(b) => b,
        Err(why) => {
            cx.emit(
                EVAL_FILE_INVALID,
                format!("`{shown}` is a task file of a Waza eval and {why}."),
                0,
                0,
                "read",
            );
            return;
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    match yaml::parse(&text) {
        Err(yaml::YamlError::Syntax { message, pos } | yaml::YamlError::Budget { message, pos }) => {
            cx.emit(
                EVAL_FILE_INVALID,
                format!(
                    "task file `{shown}` is not valid YAML ({}); Waza cannot read the task. Fix the syntax.",
                    sanitize_line(&message)
                ),
                pos.line,
                pos.col,
                "yaml",
            )
        }
        Ok(doc) => match doc.root {
            Some(root) => {
                let what = format!("task file `{shown}`");
                task(cx, &root, &what, eval_dir, parent(&e.rel), ix, names);
            }
            None => cx.emit(
                EVAL_FILE_INVALID,
                format!("task file `{shown}` is empty, so the eval runs no task from it. Write the task (`name`, `triggers`, `expected_outcome`) or remove the file."),
                1,
                1,
                "empty",
            ),
        },
    }
}

/// `rel` joined to `base` with `.` and `..` resolved; `None` when it is absolute or climbs
/// out of the scan root.
fn join_within(base: &str, rel: &str) -> Option<String> {
    let b = rel.as_bytes();
    if rel.starts_with(['/', '\\']) || (b.len() > 1 && b[1] == b':' && b[0].is_ascii_alphabetic()) {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split(['/', '\\']) {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// One Waza task (a task file's root, or an inline task of `eval.yaml`). Only the fields of
/// the documented sample task of Waza (docs/evals.md) are checked; other keys are left alone, since the
/// rest of Waza's task schema is not documented in our sources.
fn task(
    cx: &mut Cx,
    t: &Node,
    what: &str,
    eval_dir: &str,
    task_dir: &str,
    ix: &Index<'_>,
    names: &mut HashMap<String, String>,
) {
    if !is_map(t) {
        cx.at(
            t,
            format!(
                "{what} holds {} where a task is a mapping of `name`, `description`, `triggers`, `fixtures` and `expected_outcome`. Write the task's fields.",
                Node::a_type(t)
            ),
            "task-not-mapping",
        );
        return;
    }
    if let Some(name) = str_field(cx, t, "name", false, what) {
        let n = t.get("name").expect("name present");
        let here = format!("{what}, line {}", n.pos.line);
        match names.get(name) {
            Some(first) => cx.at(
                n,
                format!(
                    "task name `{}` is used again (first by {first}); results are reported by task name, so the two tasks cannot be told apart. Rename one.",
                    sanitize_line(name)
                ),
                &format!("dup-task:{name}"),
            ),
            None => {
                names.insert(name.to_owned(), here);
            }
        }
    }
    str_field(cx, t, "description", false, what);
    str_field(cx, t, "expected_outcome", false, what);
    // Something to send the agent: `triggers` (documented), or an undocumented spelling.
    let other_prompt = PROMPT_FIELDS[1..].iter().any(|k| t.get(k).is_some());
    match t.get("triggers").map(|n| (n, &n.kind)) {
        None if !other_prompt => cx.at(
            t,
            format!("{what} has no `triggers`, so it sends the agent no prompt. Add `triggers:` with at least one prompt."),
            "no-prompt",
        ),
        None => {}
        Some((tr, NodeKind::Seq { items, .. })) => {
            for (i, p) in items.iter().enumerate() {
                if !matches!((&p.kind, p.as_str()), (NodeKind::Scalar { .. }, Some(s)) if !s.trim().is_empty()) {
                    let found = if p.as_str().is_some() {
                        "an empty string".to_owned()
                    } else {
                        Node::a_type(p)
                    };
                    cx.at(
                        p,
                        format!("trigger {} of {what} must be a non-empty prompt string, not {found}. Write the prompt as text.", i + 1),
                        &format!("trigger:{i}"),
                    );
                }
            }
            if items.is_empty() && !other_prompt {
                cx.at(
                    tr,
                    format!("`triggers` of {what} is empty, so the task sends the agent no prompt. Add at least one prompt."),
                    "triggers-empty",
                );
            }
        }
        Some((tr, _)) => cx.at(
            tr,
            format!(
                "`triggers` of {what} must be a list of prompt strings, not {}. Write `triggers:` with one `- \"prompt\"` per line.",
                Node::a_type(tr)
            ),
            "triggers-type",
        ),
    }
    if let Some(fx) = t.get("fixtures") {
        let NodeKind::Seq { items, .. } = &fx.kind else {
            cx.at(
                fx,
                format!(
                    "`fixtures` of {what} must be a list of file names, not {}. Write one `- name` per line.",
                    Node::a_type(fx)
                ),
                "fixtures-type",
            );
            return;
        };
        for (i, f) in items.iter().enumerate() {
            let name = match (&f.kind, f.as_str()) {
                (NodeKind::Scalar { .. }, Some(s)) if !s.trim().is_empty() => s,
                _ => {
                    cx.at(
                        f,
                        format!(
                            "fixture {} of {what} must be a file name, not {}.",
                            i + 1,
                            Node::a_type(f)
                        ),
                        &format!("fixture:{i}"),
                    );
                    continue;
                }
            };
            // Relative to the eval folder's `fixtures/`, the task file's folder, or the eval
            // folder; a path out of the scan root is never looked up.
            let Some(in_eval) = join_within(eval_dir, name) else {
                cx.at(
                    f,
                    format!(
                        "fixture `{}` of {what} is an absolute path or climbs out of the scanned folder; skillguard does not look it up, and an eval that reads files outside its repository does not run elsewhere. Put the file in the eval's `fixtures/` folder.",
                        sanitize_line(name)
                    ),
                    &format!("fixture-out:{i}"),
                );
                continue;
            };
            let fixtures = if eval_dir.is_empty() {
                "fixtures".to_owned()
            } else {
                format!("{eval_dir}/fixtures")
            };
            let candidates = [
                join_within(&fixtures, name),
                join_within(task_dir, name),
                Some(in_eval),
            ];
            if !candidates.iter().flatten().any(|c| ix.entry(c).is_some()) {
                let mut looked: Vec<String> = candidates.into_iter().flatten().collect();
                looked.dedup();
                cx.at(
                    f,
                    format!(
                        "fixture `{}` of {what} is not found (looked for {}), so the task runs without it. Add the file to the eval's `fixtures/` folder or fix the name.",
                        sanitize_line(name),
                        looked
                            .iter()
                            .map(|l| format!("`{}`", sanitize_line(l)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    &format!("fixture-missing:{i}"),
                );
            }
        }
    }
}

fn trigger_tests(cx: &mut Cx, root: &Node, info: &mut EvalFileInfo) -> Option<String> {
    let target = str_field(cx, root, "skill", true, "the file").map(str::to_owned);
    for (key, count) in [
        ("should_trigger_prompts", &mut info.should_trigger),
        ("should_not_trigger_prompts", &mut info.should_not_trigger),
    ] {
        let Some(items) = seq(cx, root, key, false) else {
            continue;
        };
        for (i, p) in items.iter().enumerate() {
            let what = format!("{key} item {}", i + 1);
            if !is_map(p) {
                cx.at(
                    p,
                    format!("{what} must be a mapping with `prompt` (and `reason`, `confidence`)."),
                    &format!("{key}:{i}"),
                );
                continue;
            }
            if str_field(cx, p, "prompt", true, &what).is_some() {
                *count += 1;
            }
            str_field(cx, p, "reason", false, &what);
            if let Some(c) = p.get("confidence")
                && !matches!(c.as_str(), Some("" | "high" | "medium"))
                && !c.is_null()
            {
                cx.at(
                    c,
                    format!(
                        "`confidence` of {what} is `high`, `medium` or empty. Use one of them."
                    ),
                    &format!("confidence:{key}:{i}"),
                );
            }
        }
    }
    if info.should_trigger + info.should_not_trigger == 0 && cx.findings.is_empty() {
        cx.at(root, "the trigger tests hold no prompt: Waza requires at least one `should_trigger_prompts` or `should_not_trigger_prompts` entry. Add the prompts.".into(), "empty");
    }
    info.cases = info.should_trigger + info.should_not_trigger;
    info.graders = vec!["trigger".to_owned()];
    target
}

/// skill-creator keeps copies of its evals in run outputs (`<skill>-workspace/iteration-N/`):
/// results, not sources, so they are not eval files of the repository.
fn in_workspace_output(rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    parts.windows(2).any(|w| {
        w[0].ends_with("workspace")
            && w[1]
                .strip_prefix("iteration-")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// skill-creator's trigger evals: a list of `{query, should_trigger}`
/// (`prompt` accepted for `query`).
fn trigger_evals(cx: &mut Cx, root: &Node, info: &mut EvalFileInfo) {
    let NodeKind::Seq { items, .. } = &root.kind else {
        return;
    };
    for (i, q) in items.iter().enumerate() {
        let what = format!("query {}", i + 1);
        if !is_map(q) {
            cx.at(
                q,
                format!("{what} must be a mapping of `query` and `should_trigger`."),
                &format!("query:{i}"),
            );
            continue;
        }
        let key = if q.get("query").is_some() {
            "query"
        } else {
            "prompt"
        };
        str_field(cx, q, key, true, &what);
        match q.get("should_trigger") {
            Some(b)
                if matches!(
                    &b.kind,
                    NodeKind::Scalar {
                        ty: yaml::ScalarType::Bool,
                        ..
                    }
                ) =>
            {
                if b.as_str().is_some_and(|v| v.eq_ignore_ascii_case("true")) {
                    info.should_trigger += 1;
                } else {
                    info.should_not_trigger += 1;
                }
            }
            Some(b) => cx.at(
                b,
                format!(
                    "`should_trigger` of {what} must be `true` or `false`, not {}.",
                    Node::a_type(b)
                ),
                &format!("should:{i}"),
            ),
            None => cx.at(
                q,
                format!("{what} has no `should_trigger`, which the format requires. Add it."),
                &format!("should-missing:{i}"),
            ),
        }
    }
    info.cases = info.should_trigger + info.should_not_trigger;
    info.graders = vec!["trigger".to_owned()];
}

/// Whether a `tool_constraint` grader's tool name is one the evaluated agent can call: a
/// built-in tool some harness knows (Waza's aliases among them), an MCP or custom tool in
/// Waza's namespaced form (`mcp:<server>-<tool>`, `custom:<tool>`), or a tool the agent
/// declares in `tools:`.
fn tool_known(name: &str, declared: &[String]) -> bool {
    let lower = name.to_ascii_lowercase();
    crate::agents::tools::capability(name).is_some()
        || lower.strip_prefix("mcp:").is_some_and(|r| !r.is_empty())
        || lower.strip_prefix("custom:").is_some_and(|r| !r.is_empty())
        || declared.iter().any(|d| d.eq_ignore_ascii_case(name))
}

/// `eval-tool-unknown`: an `allow_only` tool name that no harness knows and the agent does
/// not declare. It grants nothing, so the grader fails every run that uses the tool meant.
/// `reject_tools` names are not checked: denying a tool that does not exist is harmless, and
/// the executor may add tools (MCP servers) at run time.
fn tool_names(cx: &mut Cx, graders: &[cases::Grader], target: Option<&Artifact>) {
    let declared: Vec<String> = target
        .and_then(|t| t.frontmatter.get("tools"))
        .map(|v| match v {
            serde_json::Value::Array(a) => a
                .iter()
                .filter_map(|x| x.as_str().map(|s| s.trim().to_owned()))
                .collect(),
            serde_json::Value::String(s) => s.split(',').map(|x| x.trim().to_owned()).collect(),
            _ => Vec::new(),
        })
        .unwrap_or_default();
    for (i, g) in graders.iter().enumerate() {
        for t in g.allow_only.iter().flatten() {
            if tool_known(&t.name, &declared) {
                continue;
            }
            let near = cases::closest(&t.name, declared.iter().map(String::as_str))
                .or_else(|| crate::agents::tools::closest(&t.name));
            cx.emit(
                EVAL_TOOL_UNKNOWN,
                format!(
                    "`allow_only` of grader {} names the tool `{}`, which no harness knows and the evaluated agent does not declare, so it allows nothing.{} Use a built-in name (`fileRead`, `runCommand`, `web_fetch`), `mcp:<server>-<tool>`, `custom:<tool>`, or a tool of the agent's `tools:`.",
                    i + 1,
                    sanitize_line(&t.name),
                    near.map(|n| format!(" Did you mean `{}`?", sanitize_line(n)))
                        .unwrap_or_default()
                ),
                t.line,
                t.col,
                &format!("tool:{i}:{}", t.name.to_ascii_lowercase()),
            );
        }
    }
}

/// The skill or agent a resolution found; otherwise the finding that says why not. `pos`:
/// where the eval writes the name; `None` when its file or folder name gives it, where only
/// an ambiguous name is reported (a name that matches nothing leaves the folder conventions
/// to decide).
fn target_of<'a>(
    cx: &mut Cx,
    info: &mut EvalFileInfo,
    r: Resolution<'a>,
    name: &str,
    pos: Option<(usize, usize)>,
) -> Option<&'a Artifact> {
    let shown = sanitize_line(name);
    let (line, col) = pos.unwrap_or((0, 0));
    match r {
        Resolution::Found(a) => Some(a),
        Resolution::Ambiguous(v) => {
            info.candidates = v.iter().map(|a| a.path.clone()).collect();
            let given = if pos.is_some() {
                format!("the eval names `{shown}`")
            } else {
                format!("the eval file's name gives its target, `{shown}`")
            };
            cx.emit(
                EVAL_TARGET_AMBIGUOUS,
                format!(
                    "{given}, which is the name of {}, so which one it evaluates depends on the harness's search order, and none is counted as covered. Name the target by its path (`skill: {}`) or rename one of them.",
                    sanitize_line(&Resolution::listing(&v)),
                    sanitize_line(&v[0].path)
                ),
                line,
                col,
                "ambiguous",
            );
            None
        }
        Resolution::IgnoredByWaza(v) if pos.is_some() => {
            cx.emit(
                EVAL_TARGET_MISSING,
                format!(
                    "the eval names `{shown}`, and only {} has that name, which Waza ignores (an agent file beside a `SKILL.md`: Waza evaluates the folder's skill), so it evaluates nothing here. Move the agent to its own folder or name the skill.",
                    sanitize_line(&Resolution::listing(&v))
                ),
                line,
                col,
                "target",
            );
            None
        }
        Resolution::Missing { near } if pos.is_some() => {
            let hint = near.map_or(String::new(), |a| {
                format!(
                    " Names match exactly: did you mean `{}` ({})?",
                    sanitize_line(&a.name),
                    sanitize_line(&a.path)
                )
            });
            cx.emit(
                EVAL_TARGET_MISSING,
                format!(
                    "the eval names `{shown}`, and no skill or agent of that name is in this repository, so it evaluates nothing here.{hint} Fix the name or add the skill or agent."
                ),
                line,
                col,
                "target",
            );
            None
        }
        Resolution::IgnoredByWaza(_) | Resolution::Missing { .. } => None,
    }
}

/// Finds, reads and validates every eval file; ties each to its target. Returns the files
/// (sorted by path) and the findings (target names are resolved against `targets`).
pub fn check(
    entries: &[Entry],
    targets: &Targets<'_>,
    repos: &[(String, Option<String>)],
    preread: &crate::read::Preread,
) -> (Vec<EvalFileInfo>, Vec<Finding>) {
    let ix = Index::new(entries, targets, repos);
    let mut out = Vec::new();
    let mut findings = Vec::new();
    for e in entries.iter().filter(|e| e.kind == EntryKind::File) {
        // Each candidate is read once: a loose Waza file is told by the bytes it is then
        // checked from.
        let by_name = format_of(&e.rel);
        let candidate = by_name.is_some() || crate::conventions::may_be_eval_file(&e.rel);
        if !candidate || in_workspace_output(&e.rel) {
            continue;
        }
        let read = (by_name != Some(Format::Notes)).then(|| read_once(e, Some(preread)));
        let Some(mut format) = by_name
            .or_else(|| matches!(&read, Some(Ok(b)) if loose_waza(e, b)).then_some(Format::Waza))
        else {
            continue;
        };
        let loose = by_name.is_none();
        let (root, repo) = ix.repo_of(&e.rel);
        let mut cx = Cx {
            rel: e.rel.clone(),
            here: None,
            findings: Vec::new(),
        };
        let mut info = EvalFileInfo {
            path: e.rel.clone(),
            format: format.as_str().to_owned(),
            ..Default::default()
        };
        let mut named: Option<String> = None;
        let mut name_pos = (0usize, 0usize);
        let mut graders: Vec<cases::Grader> = Vec::new();
        if let Some(read) = read {
            match read {
                Err(why) => cx.emit(
                    EVAL_FILE_INVALID,
                    format!("`{}` is an eval file and {why}.", sanitize_line(&e.rel)),
                    0,
                    0,
                    "read",
                ),
                Ok(bytes) => {
                    let text = String::from_utf8_lossy(&bytes);
                    let json = e.rel.ends_with(".json");
                    match cases::tree(&e.rel, &text, json) {
                            Err(p) => cx.problems(EVAL_FILE_INVALID, vec![p]),
                            Ok(root) => match root {
                                Some(root)
                                    if format == Format::AgentEvals
                                        && matches!(root.kind, NodeKind::Seq { .. }) =>
                                {
                                    let NodeKind::Seq { items, .. } = &root.kind else {
                                        unreachable!("matched a list")
                                    };
                                    if items.iter().any(|i| i.get("should_trigger").is_some())
                                        || items.is_empty()
                                    {
                                        format = Format::TriggerEvals;
                                        trigger_evals(&mut cx, &root, &mut info);
                                    } else {
                                        // skill-creator's `evals[]` without its wrapper.
                                        format = Format::SkillCreator;
                                        cx.emit(
                                            EVAL_FILE_INVALID,
                                            "the file is a bare list of evals; skill-creator reads `{\"skill_name\": …, \"evals\": [...]}`, so its tooling finds no evals here. Wrap the list and name the skill.".to_owned(),
                                            root.pos.line,
                                            root.pos.col,
                                            "bare-list",
                                        );
                                        creator_items(&mut cx, items, &mut info);
                                        info.graders = vec!["expected-output".to_owned()];
                                    }
                                    info.format = format.as_str().to_owned();
                                }
                                Some(root) if is_map(&root) => {
                                    if let Some(n) = root.get("skill").or_else(|| root.get("skill_name")) {
                                        name_pos = (n.pos.line, n.pos.col);
                                    }
                                    if format == Format::AgentEvals
                                        && root.get("cases").is_none()
                                        && (root.get("skill_name").is_some() || root.get("evals").is_some())
                                    {
                                        format = Format::SkillCreator;
                                        info.format = format.as_str().to_owned();
                                    }
                                    named = match format {
                                        Format::AgentEvals => {
                                            agent_evals(&mut cx, &root, &mut info);
                                            None
                                        }
                                        Format::SkillCreator => skill_creator(&mut cx, &root, &mut info),
                                        Format::Waza => waza(&mut cx, &root, &mut info, &e.rel, &ix, &mut graders),
                                        Format::TriggerTests => trigger_tests(&mut cx, &root, &mut info),
                                        Format::Notes | Format::TriggerEvals => None,
                                    };
                                }
                                other => cx.emit(
                                    EVAL_FILE_INVALID,
                                    format!(
                                        "`{}` holds {} where an eval file holds a mapping. Write the format's top-level fields.",
                                        sanitize_line(&e.rel),
                                        other.as_ref().map_or("nothing".to_owned(), Node::a_type)
                                    ),
                                    1,
                                    1,
                                    "not-mapping",
                                ),
                            },
                        }
                }
            }
        }
        info.valid = !cx.findings.iter().any(|f| f.0 == EVAL_FILE_INVALID);
        // The target: a named skill or agent, else the folder conventions.
        let dir = parent(&e.rel);
        let target = match &named {
            Some(n) => {
                info.target_name = Some(n.clone());
                let r = ix.resolve(repo.as_deref(), n, dir, root);
                target_of(&mut cx, &mut info, r, n, Some(name_pos))
            }
            None => {
                // `evals/{name}.yaml` names its target by its file name.
                let stem = loose
                    .then(|| file_name(&e.rel).rsplit_once('.').map(|(s, _)| s))
                    .flatten();
                // `{root}/evals/{name}/eval.yaml` names its target by its folder.
                let waza_root = (format == Format::Waza)
                    .then(|| dir.rsplit_once('/'))
                    .flatten()
                    .filter(|(up, _)| file_name(up) == "evals")
                    .map(|(_, name)| name);
                let by_convention = |n: Option<&str>, cx: &mut Cx, info: &mut EvalFileInfo| {
                    let n = n?;
                    let r = ix.resolve(repo.as_deref(), n, dir, root);
                    target_of(cx, info, r, n, None)
                };
                let by_stem = by_convention(stem, &mut cx, &mut info);
                if let Some(t) = by_stem {
                    info.target_name = Some(t.name.clone());
                }
                let mut t = by_stem.or_else(|| ix.containing(&e.rel).filter(|s| s.repo == repo));
                if t.is_none() && info.candidates.is_empty() {
                    t = by_convention(waza_root, &mut cx, &mut info);
                }
                t.or_else(|| ix.agent_beside(repo.as_deref(), dir))
                    .or_else(|| {
                        // `<agent folder>/evals/evals.json`.
                        (file_name(dir) == "evals")
                            .then(|| ix.agent_beside(repo.as_deref(), parent(dir)))
                            .flatten()
                    })
                    .filter(|_| info.candidates.is_empty())
            }
        };
        tool_names(&mut cx, &graders, target);
        if let Some(t) = target {
            info.target = Some(t.path.clone());
            info.target_kind = Some(t.kind.as_str().to_owned());
            if info.target_name.is_none() {
                info.target_name = Some(t.name.clone());
            }
        }
        // Findings belong to the target's index when there is one.
        for (rule, msg, loc, anchor) in cx.findings {
            let anchor = format!("{}:{anchor}", file_name(&e.rel));
            findings.push(Finding::new(rule, msg, loc).for_skill(
                target.map(|t| t.name.as_str()),
                target.map(|t| t.path.as_str()),
                &anchor,
            ));
        }
        out.push(info);
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    (out, findings)
}

/// `skill-without-evals` (off by default): a skill or agent no valid eval file covers.
pub fn uncovered(targets: &Targets<'_>, evals: &[EvalFileInfo]) -> Vec<Finding> {
    let covered: BTreeSet<&str> = evals
        .iter()
        .filter(|e| e.counts())
        .filter_map(|e| e.target.as_deref())
        .collect();
    targets
        .skills
        .iter()
        .chain(targets.agents.iter().filter(|a| a.kind == ArtifactKind::Agent))
        .filter(|a| !covered.contains(a.path.as_str()))
        .map(|a| {
            let what = if a.kind == ArtifactKind::Skill { "skill" } else { "agent" };
            let file = if a.kind == ArtifactKind::Skill {
                if a.path.is_empty() { a.entry.clone() } else { format!("{}/{}", a.path, a.entry) }
            } else {
                a.path.clone()
            };
            Finding::new(
                SKILL_WITHOUT_EVALS,
                format!(
                    "the {what} `{}` has no eval: no `evals.json`, `eval.yaml` or `trigger_tests.yaml` with cases evaluates it, so a change to it is judged by nobody. Add an eval set (see `skillguard coverage`).",
                    sanitize_line(&a.name)
                ),
                Location::file(file),
            )
            .for_skill(Some(&a.name), Some(&a.path), "no-evals")
        })
        .collect()
}

/// One skill or agent and its evals (`skillguard coverage`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct CoverageRow {
    /// `skill` or `agent`.
    pub kind: &'static str,
    pub name: String,
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    /// Eval files that evaluate it, by path.
    pub eval_files: Vec<String>,
    /// Formats of those files.
    pub formats: Vec<String>,
    pub cases: usize,
    pub capability: usize,
    pub regression: usize,
    pub should_trigger: usize,
    pub should_not_trigger: usize,
    pub graders: Vec<String>,
    /// A `notes-evals.md` sits beside it.
    pub notes: bool,
    /// At least one valid eval file with cases evaluates it.
    pub covered: bool,
}

/// Coverage of every skill and agent by eval files.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Coverage {
    pub skills: usize,
    pub skills_covered: usize,
    pub agents: usize,
    pub agents_covered: usize,
    /// Covered skills and agents over all, in percent (100 when there are none).
    pub percent: f64,
    pub skill_percent: f64,
    pub agent_percent: f64,
    pub rows: Vec<CoverageRow>,
    /// Eval files no skill or agent could be tied to (the ambiguous ones excepted).
    pub unattached: Vec<String>,
    /// Eval files whose target name designates several skills or agents; they count for
    /// none of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ambiguous: Vec<AmbiguousEval>,
    /// Eval files with findings of their own.
    pub invalid: Vec<String>,
}

/// An eval file whose target name designates several skills or agents.
#[derive(Debug, Clone, serde::Serialize)]
pub struct AmbiguousEval {
    pub path: String,
    /// The name it gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The skill folders or agent files of that name.
    pub candidates: Vec<String>,
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        100.0
    } else {
        ((a as f64) * 1000.0 / (b as f64)).round() / 10.0
    }
}

/// The coverage table of a scan's skills and agents (agents, not prompts or instructions).
pub fn coverage(skills: &[Artifact], agents: &[Artifact], evals: &[EvalFileInfo]) -> Coverage {
    let mut by_target: BTreeMap<&str, Vec<&EvalFileInfo>> = BTreeMap::new();
    let mut unattached = Vec::new();
    let mut ambiguous = Vec::new();
    for e in evals {
        match &e.target {
            Some(t) => by_target.entry(t.as_str()).or_default().push(e),
            None if !e.candidates.is_empty() => ambiguous.push(AmbiguousEval {
                path: e.path.clone(),
                name: e.target_name.clone(),
                candidates: e.candidates.clone(),
            }),
            None if e.format != Format::Notes.as_str() => unattached.push(e.path.clone()),
            None => {}
        }
    }
    let mut rows = Vec::new();
    for a in skills
        .iter()
        .chain(agents.iter().filter(|a| a.kind == ArtifactKind::Agent))
    {
        let fs = by_target
            .get(a.path.as_str())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let agent = a.kind == ArtifactKind::Agent;
        let mut row = CoverageRow {
            kind: if agent { "agent" } else { "skill" },
            name: a.name.clone(),
            path: a.path.clone(),
            repo: a.repo.clone(),
            eval_files: Vec::new(),
            formats: Vec::new(),
            cases: 0,
            capability: 0,
            regression: 0,
            should_trigger: 0,
            should_not_trigger: 0,
            graders: Vec::new(),
            notes: false,
            covered: false,
        };
        let mut graders: BTreeSet<String> = BTreeSet::new();
        let mut formats: BTreeSet<String> = BTreeSet::new();
        for e in fs {
            if e.format == Format::Notes.as_str() {
                row.notes = true;
                continue;
            }
            row.eval_files.push(e.path.clone());
            formats.insert(e.format.clone());
            row.cases += e.cases;
            row.capability += e.capability;
            row.regression += e.regression;
            row.should_trigger += e.should_trigger;
            row.should_not_trigger += e.should_not_trigger;
            graders.extend(e.graders.iter().cloned());
            row.covered |= e.counts();
        }
        // Waza injects a tool_constraint grader for an agent that declares `tools`, unless
        // the eval declares its own.
        let waza = fs.iter().any(|e| e.format == Format::Waza.as_str());
        if agent
            && waza
            && a.frontmatter.get("tools").is_some()
            && !graders.iter().any(|g| g.starts_with("tool_constraint"))
        {
            graders.insert("tool_constraint (implicit, from `tools`)".to_owned());
        }
        row.graders = graders.into_iter().collect();
        row.formats = formats.into_iter().collect();
        rows.push(row);
    }
    rows.sort_by(|a, b| (a.kind != "skill", &a.path).cmp(&(b.kind != "skill", &b.path)));
    let count = |k: &str, covered: bool| {
        rows.iter()
            .filter(|r| r.kind == k && (!covered || r.covered))
            .count()
    };
    let (s, sc, g, gc) = (
        count("skill", false),
        count("skill", true),
        count("agent", false),
        count("agent", true),
    );
    Coverage {
        skills: s,
        skills_covered: sc,
        agents: g,
        agents_covered: gc,
        percent: pct(sc + gc, s + g),
        skill_percent: pct(sc, s),
        agent_percent: pct(gc, g),
        rows,
        unattached,
        ambiguous,
        invalid: evals
            .iter()
            .filter(|e| !e.valid && e.format != Format::Notes.as_str())
            .map(|e| e.path.clone())
            .collect(),
    }
}

#[cfg(test)]
mod tests {

    /// Every eval file the check reads is one the skill reader keeps for it (so it is read
    /// once), and what it keeps is an eval file name or a YAML file in an `evals` folder.
    #[test]
    fn the_skill_reader_keeps_what_the_eval_check_reads() {
        for rel in [
            "evals.json",
            "skill/evals/evals.json",
            "a/eval.yaml",
            "a/eval.yml",
            "a/trigger_tests.yaml",
            "a/trigger_tests.yml",
            "skill/evals/smoke.yaml",
            "evals/x.yml",
        ] {
            assert!(crate::conventions::may_be_eval_file(rel), "{rel}");
            assert!(format_of(rel) != Some(Format::Notes));
        }
        for rel in [
            "notes-evals.md",
            "a/evals.yaml.bak",
            "evals/tasks/t.yaml",
            "a/evals.md",
            "a/data.json",
        ] {
            assert!(!crate::conventions::may_be_eval_file(rel), "{rel}");
        }
    }

    use super::*;

    #[test]
    fn ancestors_end_at_the_base() {
        assert_eq!(
            ancestors("a/b/c.json").collect::<Vec<_>>(),
            ["a/b", "a", ""]
        );
        assert_eq!(ancestors("c.json").collect::<Vec<_>>(), [""]);
        assert_eq!(ancestors("").count(), 0);
    }
}
