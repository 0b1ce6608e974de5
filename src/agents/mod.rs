//! Custom agents and their neighbours: agent, prompt and instruction files, MCP and hook
//! configurations. Found among the walked entries by the data table
//! [`conventions::ARTEFACTS`], read and hashed by [`crate::read`], parsed with the same
//! byte-exact frontmatter split and YAML tree as skills ([`rules::parsing`]), validated per
//! harness, and run through the whole security engine ([`crate::security`]).
//!
//! A file inside a skill folder belongs to the skill (its security findings come from the
//! skill's scan); only an `.agent.md` is also read as an agent there, for its frontmatter.

pub mod commands;
pub mod schema;
mod servers;
pub mod tools;

use std::collections::{BTreeMap, BTreeSet};

use crate::conventions::{self, ArtefactConvention, Format};
use crate::discover::{Entry, EntryKind, Group, SkillDir};
use crate::finding::{Finding, Location, Severity};
use crate::inventory::{Artifact, ArtifactKind, FileKind};
use crate::parse::json::Dialect;
use crate::parse::yaml::{Node, NodeKind};
use crate::read::{self, Shared};
use crate::rules::{Cx, SkillDoc, ids};
use crate::text::sanitize_line;
use tools::Cap;

pub const AGENT_IGNORED_BESIDE_SKILL: &str = "agent-ignored-beside-skill";
pub const AGENT_EXCLUDED_BY_HARNESS: &str = "agent-excluded-by-harness";
pub const AGENT_FIELD_INVALID: &str = "agent-field-invalid";
pub const AGENT_UNKNOWN_KEY: &str = "agent-unknown-key";
pub const AGENT_FIELD_IGNORED: &str = "agent-field-ignored";
pub const AGENT_DESCRIPTION_MISSING: &str = "agent-description-missing";
pub const AGENT_BODY_TOO_LONG: &str = "agent-body-too-long";
pub const AGENT_TOOL_UNKNOWN: &str = "agent-tool-unknown";
pub const AGENT_REFERENCE_BROKEN: &str = "agent-reference-broken";
pub const AGENT_PERMISSION_BYPASS: &str = "agent-permission-bypass";
pub const AGENT_EXECUTE_AND_WEB: &str = "agent-execute-and-web";
pub const MCP_SERVER_UNPINNED: &str = "mcp-server-unpinned";
pub const MCP_SERVER_INSECURE_TRANSPORT: &str = "mcp-server-insecure-transport";
pub const AGENT_HANDOFF_ESCALATION: &str = "agent-handoff-escalation";
pub const AGENT_IDENTITY_CONFLICT: &str = "agent-identity-conflict";
pub const AGENT_REFERENCE_OUTSIDE_REPO: &str = "agent-reference-outside-repo";
pub const AGENT_NAME_MISSING: &str = "agent-name-missing";
pub const AGENT_NAME_MISMATCH: &str = "agent-name-mismatch";
pub const AGENT_TOKEN_BUDGET: &str = "agent-token-budget";

/// Every rule this module emits.
pub const RULES: &[&str] = &[
    AGENT_IGNORED_BESIDE_SKILL,
    AGENT_EXCLUDED_BY_HARNESS,
    AGENT_FIELD_INVALID,
    AGENT_UNKNOWN_KEY,
    AGENT_FIELD_IGNORED,
    AGENT_DESCRIPTION_MISSING,
    AGENT_BODY_TOO_LONG,
    AGENT_TOOL_UNKNOWN,
    AGENT_REFERENCE_BROKEN,
    AGENT_PERMISSION_BYPASS,
    AGENT_EXECUTE_AND_WEB,
    MCP_SERVER_UNPINNED,
    MCP_SERVER_INSECURE_TRANSPORT,
    AGENT_HANDOFF_ESCALATION,
    AGENT_IDENTITY_CONFLICT,
    AGENT_REFERENCE_OUTSIDE_REPO,
    AGENT_NAME_MISSING,
    AGENT_NAME_MISMATCH,
    AGENT_TOKEN_BUDGET,
];

pub use crate::conventions::COPILOT_BODY_LIMIT;

/// One customisation file found by the walk.
#[derive(Debug, Clone)]
pub struct AgentFile {
    /// Path relative to the scan base.
    pub rel: String,
    pub group: usize,
    /// Index into the walk's entries.
    pub entry: usize,
    pub convention: &'static ArtefactConvention,
    /// The skill folder holding the file, if any.
    pub in_skill: Option<String>,
}

fn parent(rel: &str) -> &str {
    rel.rfind('/').map_or("", |i| &rel[..i])
}

fn file_name(rel: &str) -> &str {
    rel.rfind('/').map_or(rel, |i| &rel[i + 1..])
}

/// Matches a table pattern against a repository-relative path (`*` one name or part of
/// one, `**` any number of folders). Linear in the path for the table's patterns.
fn glob(pattern: &str, path: &str) -> bool {
    let p: Vec<&str> = pattern.split('/').collect();
    let s: Vec<&str> = path.split('/').collect();
    seg_match(&p, &s)
}

fn seg_match(p: &[&str], s: &[&str]) -> bool {
    match p.first() {
        None => s.is_empty(),
        Some(&"**") => (0..=s.len()).any(|i| seg_match(&p[1..], &s[i..])),
        Some(pat) => !s.is_empty() && name_match(pat, s[0]) && seg_match(&p[1..], &s[1..]),
    }
}

/// One `*` at most per segment in the table (`*.agent.md`).
fn name_match(pat: &str, name: &str) -> bool {
    match pat.split_once('*') {
        None => pat == name,
        Some((a, b)) => name.len() >= a.len() + b.len() && name.starts_with(a) && name.ends_with(b),
    }
}

/// Finds every customisation file among the entries.
pub fn discover(entries: &[Entry], groups: &[Group], skills: &[SkillDir]) -> Vec<AgentFile> {
    let skill_dirs: BTreeSet<&str> = skills.iter().map(|s| s.rel.as_str()).collect();
    // Plugin roots: folders with `.claude-plugin/plugin.json`, and the manifest-derived
    // plugin convention roots (`<root>/skills`).
    let mut plugins: BTreeSet<String> = BTreeSet::new();
    for e in entries {
        if let Some(root) = e.rel.strip_suffix(".claude-plugin/plugin.json")
            && (root.is_empty() || root.ends_with('/'))
        {
            plugins.insert(root.trim_end_matches('/').to_owned());
        }
    }
    for g in groups {
        for (root, conv) in &g.convention_roots {
            if conv.path == conventions::PLUGIN || conv.path == "plugins/*/skills" {
                plugins.insert(parent(root).to_owned());
            }
        }
    }
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if !matches!(e.kind, EntryKind::File) {
            continue;
        }
        let Some(g) = groups.get(e.group) else {
            continue;
        };
        let in_repo = if g.boundary_rel.is_empty() {
            e.rel.as_str()
        } else {
            match e
                .rel
                .strip_prefix(g.boundary_rel.as_str())
                .and_then(|r| r.strip_prefix('/'))
            {
                Some(r) => r,
                None => continue,
            }
        };
        if in_repo
            .split('/')
            .any(|s| s == "node_modules" || s == ".git")
        {
            continue;
        }
        // A skill at the repository's root (a single-skill repository) does not make the
        // harness's own files (`.claude/agents`, `.mcp.json`, `AGENTS.md`, …) its resources.
        let root = groups.get(e.group).map(|g| g.boundary_rel.as_str());
        let in_skill = innermost(&skill_dirs, parent(&e.rel))
            .filter(|s| Some(*s) != root)
            .map(str::to_owned);
        let plugin_agent = in_plugin_agents(&plugins, &e.rel);
        let conv = conventions::ARTEFACTS.iter().find(|c| {
            if c.pattern.starts_with("<plugin>") {
                plugin_agent
            } else {
                glob(c.pattern, in_repo)
            }
        });
        let Some(conv) = conv else {
            continue;
        };
        // Inside a skill only an `.agent.md` (Waza) and a plugin's agents are agents.
        if in_skill.is_some()
            && !(file_name(&e.rel).ends_with(".agent.md") || conv.format == Format::PluginAgent)
        {
            continue;
        }
        out.push(AgentFile {
            rel: e.rel.clone(),
            group: e.group,
            entry: i,
            convention: conv,
            in_skill,
        });
    }
    out
}

/// The innermost skill folder holding `dir` (itself included).
fn innermost<'a>(skills: &BTreeSet<&'a str>, dir: &str) -> Option<&'a str> {
    let mut d = dir;
    loop {
        if let Some(s) = skills.get(d) {
            return Some(s);
        }
        if d.is_empty() {
            return None;
        }
        d = parent(d);
    }
}

/// Is `rel` a Markdown file under `<plugin>/agents/`?
fn in_plugin_agents(plugins: &BTreeSet<String>, rel: &str) -> bool {
    if !rel.ends_with(".md") {
        return false;
    }
    let mut d = parent(rel);
    // The closest `agents` folder on the way up whose parent is a plugin root.
    loop {
        if file_name(d) == "agents" && plugins.contains(parent(d)) {
            return true;
        }
        if d.is_empty() {
            return false;
        }
        d = parent(d);
    }
}

/// One analysed customisation file.
pub struct Analysed {
    pub artifact: Artifact,
    pub findings: Vec<Finding>,
    /// What cross-file checks need.
    pub info: Info,
}

/// What the cross-file checks read of an agent.
#[derive(Debug, Clone, Default)]
pub struct Info {
    pub format: Option<Format>,
    pub name: String,
    /// `agents:` and handoff targets, with their file positions.
    pub refs: Vec<(String, u32, u32, &'static str)>,
    /// `skills:` of a Claude Code subagent (preloaded) or a Copilot agent (loaded into its
    /// context).
    pub skills: Vec<(String, u32, u32)>,
    /// What the declared `tools` grant (`None`: no `tools`, so the harness's defaults, all).
    pub caps: Option<BTreeSet<Cap>>,
    /// Handoffs with `send: true` (submitted without the user): target and position.
    pub sends: Vec<(String, u32, u32)>,
    /// What the loader profiles read ([`crate::loaders::agents`]).
    pub has_name: bool,
    pub yaml_broken: bool,
    pub description: bool,
    pub target: Option<String>,
    pub body_chars: usize,
    /// Why Claude Code skips the file silently, if it does.
    pub claude_skip: Option<String>,
    /// The repository (or scanned folder) root, relative to the scan base.
    pub root: String,
}

pub use crate::target_names::stem;

/// Analyses one customisation file; `None` for a settings file holding neither hooks nor
/// MCP servers (not an artefact).
///
/// `light`: only what the cross-file checks read (name, format, tools, handoffs, kind and
/// the front matter), for a file a changed-files scan does not report on: the body's
/// references, the security checks and the server and hook checks are skipped, since their
/// findings would be dropped (a pre-commit run costs what changed, not the repository).
pub fn analyze(
    af: &AgentFile,
    shared: &Shared<'_>,
    paths: &std::collections::HashSet<&str>,
    light: bool,
) -> Option<Analysed> {
    let dir = parent(&af.rel).to_owned();
    let name_in_dir = file_name(&af.rel).to_owned();
    let format = af.convention.format;
    let sd = SkillDir {
        rel: dir.clone(),
        group: af.group,
        // A Markdown file is read as an entry file (one over the size limit is parsed from
        // its first part, as a `SKILL.md` is); a JSON configuration as any other file: one
        // over the limit is hashed, reported and never parsed (a cut JSON text is no
        // configuration, and parsing it would cost what the limit is there to avoid).
        entry: if format.is_markdown() {
            name_in_dir.clone()
        } else {
            String::new()
        },
        variants: Vec::new(),
        nested_in: None,
        nested_in_entry: None,
        convention: None,
        convention_root: None,
        members: vec![af.entry],
    };
    let read::SkillFiles {
        mut files,
        entry,
        others,
        pending,
        ..
    } = read::read_skill(&sd, shared);
    let bytes = if format.is_markdown() {
        entry
    } else {
        others.into_iter().next().map(|(_, b)| b)
    };
    let fallback = stem(&af.rel).to_owned();
    let mut cx = Cx {
        skill: &fallback,
        skill_path: &dir,
        dir_name: &fallback,
        entry_path: af.rel.clone(),
        files: &[],
        findings: Vec::new(),
    };
    for (rule, message, loc, anchor) in pending {
        cx.emit(rule, message, loc, &anchor);
    }
    let mut info = Info {
        format: Some(format),
        name: fallback.clone(),
        root: shared
            .groups
            .get(af.group)
            .map_or_else(String::new, |g| g.boundary_rel.clone()),
        ..Info::default()
    };
    let mut kind = kind_of(format);
    let mut frontmatter = serde_json::Value::Null;
    let mut excluded = false;
    if let Some(bytes) = bytes.as_deref() {
        if format.is_markdown() {
            // Light: the Markdown body is not parsed (nothing that runs reads it).
            let doc = crate::rules::parsing::parse_entry_with(bytes, &mut cx, !light);
            // Frontmatter is optional in agent, prompt and instruction files.
            // strictyaml's limits concern skills-ref, which reads skills only.
            cx.findings.retain(|f| {
                f.rule_id != ids::FRONTMATTER_MISSING
                    && f.rule_id != ids::YAML_STRICTYAML_INCOMPATIBLE
            });
            if let Some(n) = doc
                .root()
                .and_then(|r| r.get("name"))
                .and_then(Node::as_str)
                && !n.trim().is_empty()
            {
                info.name = n.trim().to_owned();
            }
            if let Some(r) = doc.root() {
                frontmatter = r.to_json();
                info.has_name = r
                    .get("name")
                    .and_then(Node::as_str)
                    .is_some_and(|n| !n.trim().is_empty());
                info.description = r
                    .get("description")
                    .and_then(Node::as_str)
                    .is_some_and(|d| !d.trim().is_empty());
                info.target = r.get("target").and_then(Node::as_str).map(str::to_owned);
            }
            info.yaml_broken = doc.split.yaml.is_some() && doc.yaml.is_none();
            info.body_chars = doc.body_text().chars().count();
            excluded = validate(af, &doc, &mut cx, &mut info);
            if !light && format.is_agent() && shared.rules.runs(ids::DESCRIPTION_QUALITY) {
                crate::rules::quality::description_quality(&doc, &mut cx, "agent");
            }
            attach_yaml_consequence(&mut cx.findings, format);
            if info.yaml_broken && format.is_agent() {
                frontmatter_not_inspected(&mut cx, &af.rel);
            }
            if light {
                // Nothing more the cross-file checks read.
            } else if format.is_agent() || matches!(format, Format::Prompt | Format::ChatMode) {
                let root = shared
                    .groups
                    .get(af.group)
                    .map_or("", |g| g.boundary_rel.as_str());
                body_references(&doc, &mut cx, &dir, root, paths, info.target.as_deref());
                body_links(&doc, &mut cx, &dir, root, paths);
            }
            if light {
            } else if af.in_skill.is_none() || format == Format::PluginAgent {
                let before = cx.findings.len();
                security(&mut cx, Some(&doc), &files, bytes);
                // Claude Code ignores a plugin agent's `hooks` (`agent-field-ignored` says
                // so): they never run, so they are not reported as hooks that run.
                if format == Format::PluginAgent {
                    keep_new(&mut cx.findings, before, |f| {
                        f.rule_id != crate::security::families::execution::FRONTMATTER_HOOKS
                    });
                }
            } else {
                // The skill's scan reads the body; the frontmatter's hooks are ours.
                hooks_only(&mut cx, &doc, &files, bytes);
            }
            // The commands and URLs of the servers and hooks the frontmatter declares.
            if !light {
                servers::check(&mut cx, &doc, &files, format);
            }
        } else if light && af.rel.ends_with(".toml") {
            // A Codex configuration: nothing the cross-file checks read.
        } else if af.rel.ends_with(".toml") {
            let text = String::from_utf8_lossy(bytes);
            let overlay = codex_config(&mut cx, &af.rel, &text);
            let mut data = files.clone();
            for f in &mut data {
                f.kind = FileKind::Data;
            }
            let before = cx.findings.len();
            config_security(&mut cx, &data, bytes, overlay);
            keep_new(&mut cx.findings, before, |f| {
                f.rule_id != crate::security::families::permissions::MCP_SERVER_REFERENCE
            });
        } else {
            let text = String::from_utf8_lossy(bytes);
            if let Some(v) = json_config(&mut cx, &af.rel, &text) {
                if format == conventions::Format::Settings {
                    let bypass = settings_bypass(&mut cx, &af.rel, &text, &v);
                    kind = if v.get("hooks").is_some() {
                        ArtifactKind::Hooks
                    } else if v.get("mcpServers").is_some() {
                        ArtifactKind::McpConfig
                    } else if bypass {
                        ArtifactKind::Hooks
                    } else {
                        return None;
                    };
                }
                if !light {
                    mcp_checks(&mut cx, &text, &v);
                }
                frontmatter = v;
            }
            if !light {
                let mut data = files.clone();
                for f in &mut data {
                    f.kind = FileKind::Data;
                }
                let before = cx.findings.len();
                json_security(&mut cx, &data, bytes, &text);
                // The file is an MCP or hook configuration: "configures an MCP server" is
                // its kind, not a finding.
                keep_new(&mut cx.findings, before, |f| {
                    f.rule_id != crate::security::families::permissions::MCP_SERVER_REFERENCE
                });
            }
        }
    }
    if let Some(skill) = &af.in_skill
        && format == Format::CopilotAgent
        && *skill == dir
    {
        cx.emit(
            AGENT_IGNORED_BESIDE_SKILL,
            format!(
                "`{}` sits beside a `SKILL.md`: Waza evaluates the `SKILL.md` of a folder and ignores the agent file. Move the agent to its own folder (or `agents/`) if it should be evaluated.",
                sanitize_line(&af.rel)
            ),
            Location::file(af.rel.clone()),
            "beside-skill",
        );
    }
    reword(&mut cx.findings, kind);
    let name = info.name.clone();
    let findings = crate::analyze::numbered(cx.findings, &name, &af.rel);
    for f in &mut files {
        f.kind = if format.is_markdown() {
            FileKind::Entry
        } else {
            FileKind::Data
        };
    }
    // The content hash depends on the hash options: the scan sets it
    // ([`crate::skill_hashes::Hasher::file_content_hash`]).
    let artifact = Artifact {
        kind,
        name,
        frontmatter,
        excluded,
        files,
        ..placeholder(af, shared.groups)
    };
    Some(Analysed {
        artifact,
        findings,
        info,
    })
}

/// An artifact record for a file whose analysis failed.
pub fn placeholder(af: &AgentFile, groups: &[Group]) -> Artifact {
    let name = stem(&af.rel).to_owned();
    Artifact {
        kind: kind_of(af.convention.format),
        path: af.rel.clone(),
        repo: groups.get(af.group).and_then(|g| g.repo.clone()),
        convention: Some(af.convention.pattern.to_owned()),
        convention_root: None,
        entry: file_name(&af.rel).to_owned(),
        name: name.clone(),
        dir_name: name,
        frontmatter: serde_json::Value::Null,
        excluded: false,
        symlink: None,
        nested_in: af.in_skill.clone(),
        files: Vec::new(),
        structural_fingerprint: None,
        content_hash: None,
        hash_incomplete: None,
        agenteval_content_hash: None,
        agenteval_hash_incomplete: None,
        provenance: None,
        loaders: Vec::new(),
        format: Some(af.convention.format.as_str().to_owned()),
    }
}

/// `#tool:name` and `#file:path` in the body (outside code blocks) that resolve to nothing:
/// a tool no harness knows, a file that is not in the repository.
fn body_references(
    doc: &SkillDoc,
    cx: &mut Cx<'_>,
    dir: &str,
    root: &str,
    paths: &std::collections::HashSet<&str>,
    target: Option<&str>,
) {
    let on_github = target == Some("github-copilot");
    let body = doc.body_text();
    let mut fence: Option<&str> = None;
    let mut off = doc.body_start.min(doc.text.len());
    for line in body.split_inclusive('\n') {
        let start = off;
        off += line.len();
        let t = line.trim_start();
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
            continue;
        }
        for (kind, needle) in [("tool", "#tool:"), ("file", "#file:")] {
            let mut from = 0;
            while let Some(i) = line[from..].find(needle) {
                let s = from + i + needle.len();
                let end = line[s..]
                    .find(|c: char| {
                        c.is_whitespace()
                            || matches!(
                                c,
                                '`' | '"' | '\'' | '<' | '>' | '(' | ')' | '[' | ']' | ','
                            )
                    })
                    .map_or(line.len(), |e| s + e);
                from = end.max(s);
                let target = line[s..end].trim_end_matches(['.', ':', ';', '!', '?']);
                if target.is_empty() {
                    continue;
                }
                let (l, c) = doc.lines.position(&doc.text, start + s - needle.len());
                let loc = Location::at(cx.entry_path.clone(), l, c);
                // Copilot does not read `#tool:` and `#file:` at all.
                if on_github {
                    cx.emit(
                        AGENT_FIELD_IGNORED,
                        format!(
                            "`{needle}{}` is a VS Code (local) reference, unsupported by Copilot, and this agent has `target: github-copilot`. Use an ordinary Markdown link for a file, and the `tools` field for a tool.",
                            sanitize_line(target)
                        ),
                        loc,
                        &format!("{kind}:{target}"),
                    );
                    continue;
                }
                if kind == "file" && is_home(target) {
                    outside_repo(
                        cx,
                        &format!("`#file:{}`", sanitize_line(target)),
                        loc,
                        target,
                    );
                    continue;
                }
                let missing = match kind {
                    "tool" => tools::capability(target).is_none(),
                    _ => !file_exists(target, dir, root, paths),
                };
                if !missing {
                    continue;
                }
                let why = if kind == "tool" {
                    let hint = tools::closest(target)
                        .map(|k| format!(" Did you mean `{k}`?"))
                        .unwrap_or_default();
                    format!(
                        "`#tool:{}` names a tool no harness knows, so the reference resolves to nothing.{hint}",
                        sanitize_line(target)
                    )
                } else {
                    format!(
                        "`#file:{}` names a file that is not in the repository (relative to the agent's folder or the repository root), so the agent gets no context from it. Fix the path or remove the reference.",
                        sanitize_line(target)
                    )
                };
                cx.emit(
                    AGENT_REFERENCE_BROKEN,
                    why,
                    loc,
                    &format!("{kind}:{target}"),
                );
            }
        }
    }
}

/// Does a reference start at the home folder (`~` or `~/…`), as VS Code resolves it?
fn is_home(target: &str) -> bool {
    target == "~" || target.starts_with("~/") || target.starts_with("~\\")
}

/// A reference the harness resolves outside the repository (the home folder, an absolute
/// path): the scan cannot check it, and the agent depends on a file each user must have.
fn outside_repo(cx: &mut Cx<'_>, what: &str, loc: Location, target: &str) {
    cx.emit(
        AGENT_REFERENCE_OUTSIDE_REPO,
        format!(
            "{what} points outside the repository (the harness resolves `~` to the user's home folder), so the scan cannot check it and the agent depends on a file each user must have. Keep it if intended, or copy the file into the repository and reference it relatively."
        ),
        loc,
        &format!("outside:{target}"),
    );
}

/// Markdown links of an agent body, read as `SKILL.md` links are ([`body::resolve`]) but
/// relative to the agent's folder within the repository: a link to a file that is not
/// there is `agent-reference-broken`, one to the home folder or out of the repository is
/// `agent-reference-outside-repo`.
fn body_links(
    doc: &SkillDoc,
    cx: &mut Cx<'_>,
    dir: &str,
    root: &str,
    paths: &std::collections::HashSet<&str>,
) {
    use crate::rules::body::{Resolved, resolve};
    let mut seen = BTreeSet::new();
    for link in &doc.body.links {
        let url = link.url.trim();
        if url.is_empty() || !seen.insert((url.to_owned(), link.at.line, link.at.column)) {
            continue;
        }
        // A bare word (`![preview](thumbnail_url)`) is a placeholder of an output template the
        // agent is told to write, not a file: a path has a `/` or an extension.
        if !url.contains(['/', '.', '\\', '~']) {
            continue;
        }
        let what = if link.image { "image" } else { "link" };
        let loc = Location::at(cx.entry_path.clone(), link.at.line, link.at.column);
        let shown = sanitize_line(&crate::text::truncate(url, 120)).into_owned();
        match resolve(url) {
            Resolved::External => continue,
            // `~`, an absolute path, a drive letter, `file:`: not relative to the agent.
            Resolved::Escapes if !url.starts_with('.') => {
                outside_repo(cx, &format!("{what} `{shown}`"), loc, url);
                continue;
            }
            _ => {}
        }
        let joined = if dir.is_empty() {
            url.to_owned()
        } else {
            format!("{dir}/{url}")
        };
        let in_repo = |p: &str| root.is_empty() || p == root || p.starts_with(&format!("{root}/"));
        match resolve(&joined) {
            Resolved::Inside(p) if in_repo(&p) => {
                if !paths.contains(p.as_str()) {
                    cx.emit(
                        AGENT_REFERENCE_BROKEN,
                        format!(
                            "{what} `{shown}` refers to `{}`, which is not in the repository (links resolve from the agent's folder), so the agent gets nothing from it. Fix the path or add the file.",
                            sanitize_line(&p)
                        ),
                        loc,
                        &format!("link:{url}"),
                    );
                }
            }
            _ => outside_repo(cx, &format!("{what} `{shown}`"), loc, url),
        }
    }
}

/// Does `target` name a walked file or folder, relative to `dir` or to the repository root
/// `root` (both relative to the scan base)? A path that climbs out of the scan base does not.
fn file_exists(
    target: &str,
    dir: &str,
    root: &str,
    paths: &std::collections::HashSet<&str>,
) -> bool {
    let t = target.trim_start_matches("./");
    [dir, root].iter().any(|base| {
        let joined = if t.starts_with('/') {
            format!("{root}{t}")
        } else if base.is_empty() {
            t.to_owned()
        } else {
            format!("{base}/{t}")
        };
        let mut parts: Vec<&str> = Vec::new();
        for seg in joined.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return false;
                    }
                }
                s => parts.push(s),
            }
        }
        let p = parts.join("/");
        paths.contains(p.as_str())
    })
}

/// Messages written for skills, said of the file they are really about.
fn reword(findings: &mut [Finding], kind: ArtifactKind) {
    let what = kind.as_str();
    let noun = match kind {
        ArtifactKind::Skill | ArtifactKind::Agent => "agent",
        ArtifactKind::Prompt => "prompt",
        ArtifactKind::Instructions => "instruction file",
        ArtifactKind::McpConfig => "MCP configuration",
        ArtifactKind::Hooks => "hook configuration",
    };
    for f in findings {
        if f.rule_id == ids::YAML_SYNTAX_ERROR {
            f.message = f.message.replace(
                "Strict loaders drop this skill and Claude Code loads it with empty metadata.",
                &format!("Harnesses read this {what} file without its metadata (Claude Code skips a subagent)."),
            );
        } else if !RULES.contains(&f.rule_id) {
            // The shared engine speaks of "the skill": say what the file is, outside the
            // quoted evidence (between backticks), which stays as found.
            f.message = outside_backticks(&f.message, |t| as_artifact(t, noun));
        }
    }
}

/// "the skill", "a skill" and "a published skill" of `text` said of `noun`, with the article
/// its sound takes ("an agent", "an MCP configuration", "a prompt"): a whole word "skill" only
/// (not "skills", "skill-name" or "skillguard").
fn as_artifact(text: &str, noun: &str) -> String {
    static SKILL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b(?:(?P<the>[Tt]he|[Tt]his)|(?P<a>[Aa]n?)|(?P<pub>[Aa] published)) skill(?P<tail>[\s,.;:!?)]|'s\b|’s\b|$)")
            .expect("built-in regex")
    });
    SKILL
        .replace_all(text, |c: &regex::Captures<'_>| {
            let tail = &c["tail"];
            if let Some(the) = c.name("the") {
                format!("{} {noun}{tail}", the.as_str())
            } else if let Some(p) = c.name("pub") {
                format!("{} {noun}{tail}", p.as_str())
            } else {
                let art = crate::text::article(noun);
                let upper = c["a"].starts_with('A');
                let art = if upper {
                    let mut a = art.to_owned();
                    a[..1].make_ascii_uppercase();
                    a
                } else {
                    art.to_owned()
                };
                format!("{art} {noun}{tail}")
            }
        })
        .into_owned()
}

/// Applies `f` to the parts of `text` outside backtick-quoted spans.
fn outside_backticks(text: &str, f: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 0 {
            out.push_str(&f(part));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// An agent file whose frontmatter does not parse: what it declares (tools, MCP servers,
/// hooks, permissions) was not inspected. Reported at the syntax error, which is attached to
/// it as a consequence (`scan::uninspected`).
fn frontmatter_not_inspected(cx: &mut Cx<'_>, rel: &str) {
    let Some(y) = cx
        .findings
        .iter()
        .find(|f| f.rule_id == ids::YAML_SYNTAX_ERROR)
    else {
        return;
    };
    let at = y.location.clone();
    let (line, col) = (at.line.unwrap_or(1), at.column.unwrap_or(1));
    cx.emit(
        ids::CONTENT_NOT_INSPECTED,
        format!(
            "`{}` was not inspected in full: its frontmatter is not valid YAML (line {line}, column {col}; bound: the frontmatter must parse), so the tools, MCP servers, hooks and permissions it declares were not checked, and a harness with a more lenient parser may still apply them. Fix the YAML, or lower this finding for this path in the operator's `.skillguard.toml` with a reason.",
            sanitize_line(rel)
        ),
        at,
        &format!("frontmatter:{}parse", ids::UNINSPECTED_ANCHOR),
    );
}

/// One cause, one finding: a Claude subagent that Claude Code skips because its YAML is
/// invalid carries the exclusion as a consequence of the syntax error. Elsewhere an invalid
/// frontmatter costs the file its metadata, not its loading: medium.
fn attach_yaml_consequence(findings: &mut Vec<Finding>, format: Format) {
    let Some(y) = findings
        .iter()
        .position(|f| f.rule_id == ids::YAML_SYNTAX_ERROR)
    else {
        return;
    };
    if format != Format::ClaudeAgent {
        findings[y].severity = Severity::Medium;
        return;
    }
    if let Some(x) = findings
        .iter()
        .position(|f| f.rule_id == AGENT_EXCLUDED_BY_HARNESS)
    {
        let ex = findings.remove(x);
        let y = if x < y { y - 1 } else { y };
        let c = crate::finding::Consequence::of(&ex, Some("claude-code".to_owned()));
        findings[y].consequences.push(c);
    }
}

fn kind_of(format: Format) -> ArtifactKind {
    match format {
        Format::CopilotAgent
        | Format::ClaudeAgent
        | Format::PluginAgent
        | Format::GeminiAgent
        | Format::ChatMode => ArtifactKind::Agent,
        Format::Prompt | Format::ClaudeCommand => ArtifactKind::Prompt,
        Format::Instructions => ArtifactKind::Instructions,
        Format::McpConfig => ArtifactKind::McpConfig,
        Format::Hooks | Format::Settings => ArtifactKind::Hooks,
    }
}

/// The whole security engine over the one file.
fn security(
    cx: &mut Cx<'_>,
    doc: Option<&SkillDoc>,
    files: &[crate::inventory::FileEntry],
    bytes: &[u8],
) {
    let Some(fe) = files.first() else {
        return;
    };
    let raw = vec![(fe, bytes)];
    let mut scx = crate::security::SecCx::new(cx, doc, raw);
    scx.persona = true;
    crate::security::analyze(&mut scx);
}

/// The security engine over a JSON configuration, plus its command strings read as a shell
/// script at their own places ([`commands::overlay`]): a hook or MCP server that fetches and
/// runs code is found like a script that does.
fn json_security(cx: &mut Cx<'_>, files: &[crate::inventory::FileEntry], bytes: &[u8], text: &str) {
    config_security(cx, files, bytes, commands::overlay(text));
}

/// The security checks of a configuration file, with its command strings (`overlay`) also
/// read as a shell script at their place in the file.
fn config_security(
    cx: &mut Cx<'_>,
    files: &[crate::inventory::FileEntry],
    bytes: &[u8],
    overlay: Option<commands::Overlay>,
) {
    use crate::security::{Lang, Source};
    let Some(fe) = files.first() else {
        return;
    };
    let mut scx = crate::security::SecCx::new(cx, None, vec![(fe, bytes)]);
    if let Some(o) = overlay
        && let Some(rel) = scx.sources.first().map(|s| s.rel.clone())
    {
        scx.sources.push(
            Source::new(
                fe.path.as_str(),
                rel,
                FileKind::Script,
                Lang::Shell,
                false,
                std::borrow::Cow::Owned(o.text),
                false,
            )
            .with_col_shifts(o.shifts),
        );
    }
    crate::security::analyze(&mut scx);
}

/// An `.agent.md` inside a skill: the skill's scan covers the text; the frontmatter hooks
/// are checked as a skill's are.
fn hooks_only(
    cx: &mut Cx<'_>,
    doc: &SkillDoc,
    files: &[crate::inventory::FileEntry],
    bytes: &[u8],
) {
    if doc.root().and_then(|r| r.get("hooks")).is_none() {
        return;
    }
    let before = cx.findings.len();
    security(cx, Some(doc), files, bytes);
    // Keep what the skill's scan of the same text cannot see: the hooks.
    keep_new(&mut cx.findings, before, |f| {
        f.rule_id == crate::security::families::execution::FRONTMATTER_HOOKS
    });
}

/// Keeps, of the findings from `from` on, those `keep` accepts (the earlier ones all stay).
fn keep_new(findings: &mut Vec<Finding>, from: usize, keep: impl Fn(&Finding) -> bool) {
    let mut tail = findings.split_off(from.min(findings.len()));
    tail.retain(keep);
    findings.append(&mut tail);
}

/// Per-harness validation of a Markdown artefact; returns whether a harness drops it.
fn validate(af: &AgentFile, doc: &SkillDoc, cx: &mut Cx<'_>, info: &mut Info) -> bool {
    let format = af.convention.format;
    let rel = af.rel.clone();
    let at = |n: &Node| {
        let (l, c) = doc.file_pos(n.pos);
        Location::at(rel.clone(), l, c)
    };
    let top = Location::at(rel.clone(), 1, 1);
    let root = doc.root();
    let yaml_broken = doc.split.yaml.is_some() && doc.yaml.is_none();
    let mut excluded = false;
    // Claude Code skips these files silently (debug log only).
    if matches!(format, Format::ClaudeAgent) {
        let name = root.and_then(|r| r.get("name"));
        let desc = root
            .and_then(|r| r.get("description"))
            .and_then(Node::as_str)
            .is_some_and(|d| !d.trim().is_empty());
        let cause = if yaml_broken {
            Some("its frontmatter is not valid YAML".to_owned())
        } else {
            match name.and_then(Node::as_str) {
                None => {
                    Some("it has no `name` (Claude Code treats it as documentation)".to_owned())
                }
                Some(n) if n.starts_with('-') => {
                    Some(format!("its `name` `{}` starts with `-`", sanitize_line(n)))
                }
                Some(n) if n.contains(':') => Some(format!(
                    "its `name` `{}` contains `:` (reserved for plugin scope; refused since v2.1.218)",
                    sanitize_line(n)
                )),
                Some(_) if !desc => Some("it has a `name` but no `description`".to_owned()),
                Some(_) => None,
            }
        };
        if let Some(cause) = cause {
            excluded = true;
            info.claude_skip = Some(cause.clone());
            let loc = name.map(&at).unwrap_or_else(|| top.clone());
            cx.emit(
                AGENT_EXCLUDED_BY_HARNESS,
                format!(
                    "Claude Code skips `{}` without a word: {cause}. Give it a `name` of lowercase letters and hyphens and a `description`.",
                    sanitize_line(&rel)
                ),
                loc,
                "claude-skip",
            );
        } else if let Some(n) = name.and_then(Node::as_str)
            && !n
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            cx.emit(
                AGENT_FIELD_INVALID,
                format!(
                    "`name: {}` is not lowercase letters and hyphens, which Claude Code documents for subagent names. Rename it, for example `{}`.",
                    sanitize_line(n),
                    suggest_name(n)
                ),
                at(name.expect("name present")),
                "name",
            );
        }
    }
    // Gemini CLI refuses an agent without a slug `name` (its description has a rule of its
    // own, and invalid YAML is `yaml-syntax-error`).
    if format == Format::GeminiAgent && !yaml_broken {
        let name = root.and_then(|r| r.get("name"));
        let cause = match name.and_then(Node::as_str).map(str::trim) {
            None | Some("") => Some("it has no `name`".to_owned()),
            Some(n)
                if !n.bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_'
                }) =>
            {
                Some(format!(
                    "its `name` `{}` is not a slug of `a-z`, `0-9`, `-` and `_`",
                    sanitize_line(n)
                ))
            }
            Some(_) => None,
        };
        if let Some(cause) = cause {
            excluded = true;
            cx.emit(
                AGENT_EXCLUDED_BY_HARNESS,
                format!(
                    "Gemini CLI does not load `{}`: {cause}. Give it a `name` of lowercase letters, digits, `-` and `_`.",
                    sanitize_line(&rel)
                ),
                name.map(&at).unwrap_or_else(|| top.clone()),
                "gemini-skip",
            );
        }
    }
    let Some(root) = root else {
        if format == Format::CopilotAgent && doc.split.yaml.is_none() {
            cx.emit(
                AGENT_DESCRIPTION_MISSING,
                format!(
                    "`{}` has no frontmatter, so no `description`: the header is optional in VS Code (which shows an empty placeholder), but the GitHub Copilot cloud agent requires a description. Add `---\\ndescription: …\\n---` if the agent runs there.",
                    sanitize_line(&rel)
                ),
                top,
                "description",
            );
            // The header is optional (VS Code): only the cloud agent needs it.
            if let Some(f) = cx.findings.last_mut() {
                f.severity = crate::finding::Severity::Low;
            }
        }
        return excluded;
    };
    if !matches!(root.kind, NodeKind::Map { .. }) {
        return excluded;
    }
    // Unknown keys, types down to the leaves, fields the target does not read.
    schema::check(format, root, cx, &at);
    if format.is_agent() || format == Format::Prompt {
        check_agent_fields(af, root, cx, &at, info);
    }
    if format.is_agent()
        && format != Format::ClaudeAgent
        && root
            .get("description")
            .and_then(Node::as_str)
            .is_none_or(|d| d.trim().is_empty())
    {
        cx.emit(
            AGENT_DESCRIPTION_MISSING,
            "the agent has no `description`: the GitHub Copilot cloud agent and Waza require one, and harnesses choose subagents by it. Say what the agent does and when to use it.".to_owned(),
            root.get("description").map(&at).unwrap_or(top.clone()),
            "description",
        );
    }
    waza_rules(af, doc, root, cx);
    // Body limit of the Copilot cloud agent.
    if format == Format::CopilotAgent {
        let body = doc.body_text();
        let n = body.chars().count();
        if n > COPILOT_BODY_LIMIT {
            let cut = body
                .char_indices()
                .nth(COPILOT_BODY_LIMIT)
                .map_or(0, |(i, _)| i);
            let (l, c) = doc.lines.position(&doc.text, doc.body_start + cut);
            cx.emit(
                AGENT_BODY_TOO_LONG,
                format!(
                    "the body is {n} characters; the GitHub Copilot cloud agent reads at most {COPILOT_BODY_LIMIT}, so everything from here on is lost there. Move detail into files the agent reads on demand."
                ),
                Location::at(rel.clone(), l, c),
                "body",
            );
        }
    }
    excluded
}

/// Waza's token threshold for an agent file: its `tokens profile` warning threshold and the
/// size `waza dev` rates "comprehensive" (tokens estimated as bytes ÷ 4, rounded up).
pub const AGENT_TOKEN_LIMIT: usize = 2_500;

/// Waza's rules for the `.agent.md` files it evaluates (found by the `**/*.agent.md`
/// convention, not beside a `SKILL.md`, which Waza prefers): `name` is required and must be
/// the file name without `.agent.md`; and, for every `.agent.md`, the token budget.
fn waza_rules(af: &AgentFile, doc: &SkillDoc, root: &Node, cx: &mut Cx<'_>) {
    let rel = af.rel.as_str();
    if !file_name(rel).ends_with(".agent.md") {
        return;
    }
    let beside_skill = af.in_skill.as_deref() == Some(parent(rel));
    let top = Location::at(rel.to_owned(), 1, 1);
    if af.convention.pattern == "**/*.agent.md" && !beside_skill {
        let file = stem(rel);
        let name = root.get("name");
        match name.filter(|n| schema::is_string(n)).and_then(Node::as_str).map(str::trim) {
            None | Some("") => cx.emit(
                AGENT_NAME_MISSING,
                format!(
                    "the agent has no `name`: Waza requires one and selects agents by it (its eval's `skill:` names the agent). Add `name: {}`.",
                    sanitize_line(file)
                ),
                name.map(|n| {
                    let (l, c) = doc.file_pos(n.pos);
                    Location::at(rel.to_owned(), l, c)
                })
                .unwrap_or(top.clone()),
                "name",
            ),
            Some(n) if n != file => {
                let (l, c) = doc.file_pos(name.expect("present").pos);
                cx.emit(
                    AGENT_NAME_MISMATCH,
                    format!(
                        "`name: {}` differs from the file name `{}`: Waza requires them to match, and an eval that names one does not find the other. Rename the file or set `name: {}`.",
                        sanitize_line(n),
                        sanitize_line(file_name(rel)),
                        sanitize_line(file)
                    ),
                    Location::at(rel.to_owned(), l, c),
                    "name",
                );
            }
            Some(_) => {}
        }
    }
    let bytes = doc.text.len();
    let tokens = bytes.div_ceil(4);
    let body_long = doc.body_text().chars().count() > COPILOT_BODY_LIMIT;
    if tokens > AGENT_TOKEN_LIMIT && !body_long {
        let (l, c) = doc
            .lines
            .position(&doc.text, (AGENT_TOKEN_LIMIT * 4).min(bytes));
        cx.emit(
            AGENT_TOKEN_BUDGET,
            format!(
                "the agent file is about {tokens} tokens ({bytes} bytes ÷ 4), over Waza's {AGENT_TOKEN_LIMIT}-token threshold; the budget runs out here. The whole body enters the context each time the agent runs: move detail into files it reads on demand."
            ),
            Location::at(rel.to_owned(), l, c),
            "tokens",
        );
    }
}

fn suggest_name(n: &str) -> String {
    let mut s = String::new();
    for c in n.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    s.trim_end_matches('-').to_owned()
}

fn is_bool(n: &Node) -> bool {
    matches!(
        &n.kind,
        NodeKind::Scalar {
            ty: crate::parse::yaml::ScalarType::Bool,
            ..
        }
    )
}

/// The strings of a list, or of a comma-separated string.
fn string_list(n: &Node) -> Option<Vec<(String, &Node)>> {
    match &n.kind {
        NodeKind::Seq { items, .. } => items
            .iter()
            .map(|i| i.as_str().map(|s| (s.trim().to_owned(), i)))
            .collect(),
        _ => n.as_str().map(|s| {
            s.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| (t.to_owned(), n))
                .collect()
        }),
    }
}

fn check_agent_fields(
    af: &AgentFile,
    root: &Node,
    cx: &mut Cx<'_>,
    at: &dyn Fn(&Node) -> Location,
    info: &mut Info,
) {
    let format = af.convention.format;
    let claude = matches!(format, Format::ClaudeAgent | Format::PluginAgent);
    let invalid = |cx: &mut Cx<'_>, n: &Node, key: &str, why: String| {
        cx.emit(AGENT_FIELD_INVALID, why, at(n), &format!("field:{key}"));
    };
    if let Some(n) = root.get("infer") {
        cx.emit(
            AGENT_FIELD_IGNORED,
            "`infer` is deprecated (VS Code) and retired (GitHub Copilot). Use `user-invocable` and `disable-model-invocation` instead.".to_owned(),
            at(n),
            "field:infer",
        );
    }
    if format == Format::PluginAgent {
        for key in ["hooks", "mcpServers", "permissionMode"] {
            if let Some(n) = root.get(key) {
                cx.emit(
                    AGENT_FIELD_IGNORED,
                    format!("Claude Code ignores `{key}` in plugin agents for security reasons, so this setting never applies. Move it to the plugin's own `hooks/hooks.json`, `.mcp.json` or the user's settings."),
                    at(n),
                    &format!("field:{key}"),
                );
            }
        }
    }
    // model: Claude Code takes an alias or a full `claude-…` id (the type is the schema's).
    if claude
        && let Some(n) = root.get("model")
        && schema::is_string(n)
        && let Some(m) = n.as_str()
    {
        let ok = ["sonnet", "opus", "haiku", "fable", "inherit"].contains(&m)
            || m.starts_with("claude-");
        if !ok {
            invalid(
                cx,
                n,
                "model",
                format!(
                    "`model: {}` is not a Claude model: use `sonnet`, `opus`, `haiku`, `fable`, `inherit` or a full `claude-…` id.",
                    sanitize_line(m)
                ),
            );
        }
    }
    if format != Format::PluginAgent
        && let Some(n) = root.get("permissionMode")
        && n.as_str() == Some("bypassPermissions")
    {
        cx.emit(
            AGENT_PERMISSION_BYPASS,
            "`permissionMode: bypassPermissions` runs every tool call of this agent without asking, including shell commands and file writes. Use `default` or `acceptEdits`, and grant only the tools it needs.".to_owned(),
            at(n),
            "permission-mode",
        );
    }
    // tools
    let claude_or_copilot = claude || format == Format::CopilotAgent || format == Format::ChatMode;
    let mut caps: BTreeSet<Cap> = BTreeSet::new();
    let mut unrestricted_exec = false;
    if let Some(n) = root.get("tools") {
        // A value of the wrong shape is the schema's `agent-field-invalid`: its items are
        // not tool names.
        let shaped = match &n.kind {
            NodeKind::Seq { items, .. } => items.iter().all(schema::is_string),
            _ => claude_or_copilot && schema::is_string(n),
        };
        let list = if shaped { string_list(n) } else { None };
        let on_github = root.get("target").and_then(Node::as_str) == Some("github-copilot");
        match list {
            None => {}
            Some(list) => {
                let mut reported = BTreeSet::new();
                for (t, node) in list {
                    if on_github && t.eq_ignore_ascii_case("agent/runSubagent") {
                        cx.emit(
                            AGENT_FIELD_IGNORED,
                            "`agent/runSubagent` is VS Code's local delegation tool, not a portable one, and this agent has `target: github-copilot`: Copilot delegates with its native task tool. Use the `agent` alias instead.".to_owned(),
                            at(node),
                            &format!("tool:{t}"),
                        );
                        continue;
                    }
                    match tools::capability(&t) {
                        Some(c) => {
                            caps.insert(c);
                            if c == Cap::Execute && !tools::is_restricted(&t) {
                                unrestricted_exec = true;
                            }
                        }
                        None if reported.insert(t.clone()) => {
                            if claude {
                                let hint = tools::closest_claude(&t)
                                    .map(|k| format!(" Did you mean `{k}`?"))
                                    .unwrap_or_default();
                                cx.emit(
                                AGENT_TOOL_UNKNOWN,
                                format!(
                                    "Claude Code has no tool `{}` (nor does an MCP server name it as `mcp__server__tool`), so the subagent runs without it.{hint}",
                                    sanitize_line(&t)
                                ),
                                at(node),
                                &format!("tool:{t}"),
                            );
                            } else {
                                let hint = tools::closest(&t)
                                .map(|k| format!(" Did you mean `{k}`?"))
                                .unwrap_or_else(|| {
                                    // A plain name VS Code does not know is most often a
                                    // user-defined tool set.
                                    if !t.contains('/') && !t.contains('(') {
                                        format!(" If `{}` is a user-defined tool set: tool sets are deprecated and not supported in Copilot; list its tools instead.", sanitize_line(&t))
                                    } else {
                                        String::new()
                                    }
                                });
                                cx.emit(
                                AGENT_TOOL_UNKNOWN,
                                format!(
                                    "no harness knows the tool `{}`; GitHub Copilot ignores unknown tools and VS Code drops unavailable ones, so the agent runs without it.{hint}",
                                    sanitize_line(&t)
                                ),
                                at(node),
                                &format!("tool:{t}"),
                            );
                            }
                        }
                        None => {}
                    }
                }
            }
        }
    }
    if root.get("tools").is_some() {
        info.caps = Some(caps.clone());
    }
    let all = caps.contains(&Cap::All);
    if (all || (unrestricted_exec && caps.contains(&Cap::Web)))
        && let Some(n) = root.get("tools")
    {
        cx.emit(
            AGENT_EXECUTE_AND_WEB,
            format!(
                "the agent is granted {}: it can fetch instructions or code from the web and run them, and send local data out. Split the work between two agents, or restrict the shell to the commands it needs (`Bash(git:*)`).",
                if all { "every tool (`*`), shell and web access together" } else { "an unrestricted shell and web access together" }
            ),
            at(n),
            "execute-and-web",
        );
    }
    // `agents:` restricts a coordinator's subagents, but VS Code delegates only with the
    // `agent` tool: with a `tools` list that lacks it, the list does nothing (in the folders
    // VS Code reads; Waza's `.agent.md` elsewhere has its own `agents`).
    if !claude
        && in_copilot_folder(&af.rel)
        && let Some(n) = root.get("agents")
        && matches!(&n.kind, NodeKind::Seq { items, .. } if !items.is_empty())
        && info.caps.is_some()
        && let Some(tools) = root.get("tools").and_then(string_list)
        && !tools.iter().any(|(t, _)| {
            let t = t.to_ascii_lowercase();
            t == "agent" || t == "*" || t.starts_with("agent/")
        })
    {
        cx.emit(
            AGENT_FIELD_IGNORED,
            "`agents` names the subagents this agent may call, but its `tools` list has no `agent` tool, which VS Code delegates with: no subagent can be called. Add `agent` to `tools`, or remove `agents`.".to_owned(),
            at(n),
            "agents-without-agent-tool",
        );
    }
    // Waza's handoff shape `{name, when}` in a folder VS Code and Copilot read: VS Code reads
    // `{label, agent, prompt}`, so such a handoff names no agent there.
    if in_copilot_folder(&af.rel)
        && let Some(n) = root.get("handoffs")
        && let NodeKind::Seq { items, .. } = &n.kind
    {
        for h in items {
            if h.get("agent").is_none() && (h.get("name").is_some() || h.get("when").is_some()) {
                cx.emit(
                    AGENT_FIELD_INVALID,
                    "this handoff has Waza's shape `{name, when}`, but the file is in a folder VS Code reads, whose handoffs are `{label, agent, prompt, send}`: it names no agent there and shows no button. Write `label`, `agent` (the target agent's name) and `prompt`.".to_owned(),
                    at(h),
                    "handoff-waza-shape",
                );
            }
        }
    }
    // agents and handoffs name other agents (their shape is the schema's; a target that
    // does not read them gets `agent-field-ignored` there, and no reference check).
    let local_ignored =
        !claude && root.get("target").and_then(Node::as_str) == Some("github-copilot");
    if !local_ignored
        && let Some(n) = root.get("agents")
        && let NodeKind::Seq { items, .. } = &n.kind
    {
        for i in items {
            let name = if schema::is_string(i) {
                i.as_str()
            } else {
                i.get("name")
                    .filter(|n| schema::is_string(n))
                    .and_then(Node::as_str)
            };
            if let Some(name) = name
                && name != "*"
            {
                let (l, c) = pos_of(at(i));
                info.refs.push((name.to_owned(), l, c, "agents"));
            }
        }
    }
    if !local_ignored
        && let Some(n) = root.get("handoffs")
        && let NodeKind::Seq { items, .. } = &n.kind
    {
        for h in items {
            let target = h
                .get("agent")
                .or_else(|| h.get("name"))
                .filter(|t| schema::is_string(t));
            if let Some(target) = target
                && let Some(t) = target.as_str()
            {
                let (l, c) = pos_of(at(target));
                info.refs.push((t.to_owned(), l, c, "handoffs"));
                if h.get("send").is_some_and(is_bool)
                    && h.get("send").and_then(Node::as_str) == Some("true")
                {
                    info.sends.push((t.to_owned(), l, c));
                }
            }
        }
    }
    // Claude Code subagents preload `skills:`; a Copilot agent loads them into its context
    // (not with `target: vscode`, whose local harness does not read the field).
    let copilot_skills = format == Format::CopilotAgent
        && root.get("target").and_then(Node::as_str) != Some("vscode");
    if (claude || copilot_skills)
        && let Some(n) = root.get("skills")
        && (schema::is_string(n)
            || matches!(&n.kind, NodeKind::Seq { items, .. } if items.iter().all(schema::is_string)))
        && let Some(list) = string_list(n)
    {
        for (s, node) in list {
            let (l, c) = pos_of(at(node));
            info.skills.push((s, l, c));
        }
    }
}

fn pos_of(l: Location) -> (u32, u32) {
    (l.line.unwrap_or(1), l.column.unwrap_or(1))
}

/// What a configuration that does not parse is, for [`not_parsed`].
struct Unparsed<'a> {
    rel: &'a str,
    /// The language it is not valid in (`JSON`, `JSONC`, `TOML`).
    format: &'a str,
    /// What to fix (`JSON`, `TOML`).
    fix: &'a str,
    /// Who ignores the file (`the harness`, `Codex`).
    reader: &'a str,
    /// What was therefore not checked.
    unchecked: &'a str,
    /// The findings' anchor prefix.
    anchor: &'a str,
}

/// A configuration that does not parse: `agent-field-invalid` (the harness drops it) and
/// `content-not-inspected` (nothing in it was checked), at the error's place.
fn not_parsed(cx: &mut Cx<'_>, u: &Unparsed<'_>, why: &str, loc: Location) {
    let rel = sanitize_line(u.rel);
    let why = sanitize_line(why);
    cx.emit(
        AGENT_FIELD_INVALID,
        format!(
            "`{rel}` is not valid {} ({why}); {} ignores the whole file. Fix the {}.",
            u.format, u.reader, u.fix
        ),
        loc.clone(),
        u.anchor,
    );
    cx.emit(
        ids::CONTENT_NOT_INSPECTED,
        format!(
            "`{rel}` was not inspected in full: it is not valid {} ({why}; bound: the configuration must parse), so {}. Fix the {}, or lower this finding for this path in the operator's `.skillguard.toml` with a reason.",
            u.format, u.unchecked, u.fix
        ),
        loc,
        &format!("{}:{}parse", u.anchor, ids::UNINSPECTED_ANCHOR),
    );
}

/// A JSON MCP, hook or settings configuration read in its dialect (JSONC for VS Code's own
/// files, [`conventions::is_jsonc`]); one that does not parse is an `agent-field-invalid`
/// finding at the error's line and column, and `None`.
pub fn json_config(cx: &mut Cx<'_>, rel: &str, text: &str) -> Option<serde_json::Value> {
    let dialect = if conventions::is_jsonc(rel) {
        Dialect::Jsonc
    } else {
        Dialect::Json
    };
    match crate::parse::json::parse(text, dialect) {
        Ok(v) => Some(v),
        Err(e) => {
            let format = if dialect == Dialect::Jsonc {
                "JSONC"
            } else {
                "JSON"
            };
            not_parsed(
                cx,
                &Unparsed {
                    rel,
                    format,
                    fix: "JSON",
                    reader: "the harness",
                    unchecked: "the MCP servers, hooks and permissions it declares were not checked, and a harness with a more lenient parser may still run them",
                    anchor: "json",
                },
                &e.message,
                Location::at(rel.to_owned(), e.line, e.column),
            );
            None
        }
    }
}

/// MCP server checks of a JSON configuration (`mcpServers`, `servers`, and the same keys
/// inside settings).
pub fn mcp_checks(cx: &mut Cx<'_>, text: &str, v: &serde_json::Value) {
    const KEYS: [&str; 3] = ["mcpServers", "servers", "mcp-servers"];
    let lines = crate::text::LineIndex::new(text);
    let rel = cx.entry_path.clone();
    // Where each server's key is: one scan of the text for every server.
    let parents: Vec<&[&str]> = KEYS.iter().map(std::slice::from_ref).collect();
    let keys = crate::parse::json::member_keys(text, &parents);
    for (k, at) in KEYS.iter().zip(&keys) {
        let Some(servers) = v.get(*k).and_then(|s| s.as_object()) else {
            continue;
        };
        for (name, cfg) in servers {
            let off = at.get(name).copied().unwrap_or(0);
            let (l, c) = lines.position(text, off);
            server_checks(cx, name, cfg, Location::at(rel.clone(), l, c));
        }
    }
}

/// Codex's `config.toml`: its MCP servers (checked as a JSON file's are) and approval
/// settings that run every command unasked and unsandboxed. Returns the overlay of its
/// command strings for the security checks. A file that does not parse is a finding.
fn codex_config(cx: &mut Cx<'_>, rel: &str, text: &str) -> Option<commands::Overlay> {
    let c = match crate::parse::codex_toml::parse(text) {
        Ok(c) => c,
        Err(e) => {
            let lines = crate::text::LineIndex::new(text);
            let (l, col) = lines.position(text, e.offset.min(text.len()));
            not_parsed(
                cx,
                &Unparsed {
                    rel,
                    format: "TOML",
                    fix: "TOML",
                    reader: "Codex",
                    unchecked: "the MCP servers and approval settings it declares were not checked",
                    anchor: "toml",
                },
                &e.message,
                Location::at(rel.to_owned(), l, col),
            );
            return None;
        }
    };
    let lines = crate::text::LineIndex::new(text);
    let at = |off: usize| {
        let (l, c) = lines.position(text, off.min(text.len()));
        Location::at(rel.to_owned(), l, c)
    };
    let mut found: Vec<(usize, String)> = Vec::new();
    for s in &c.servers {
        let mut cfg = serde_json::Map::new();
        if let Some((cmd, off)) = &s.command {
            cfg.insert("command".into(), cmd.clone().into());
            found.push((*off, cmd.clone()));
        }
        cfg.insert(
            "args".into(),
            s.args
                .iter()
                .map(|(a, _)| a.clone())
                .collect::<Vec<_>>()
                .into(),
        );
        found.extend(s.args.iter().map(|(a, off)| (*off, a.clone())));
        if let Some(u) = &s.url {
            cfg.insert("url".into(), u.clone().into());
        }
        server_checks(cx, &s.name, &serde_json::Value::Object(cfg), at(s.at));
    }
    // A profile inherits the top level's settings it does not set.
    let top = c.policies.iter().find(|p| p.profile.is_none());
    let mut reported = std::collections::BTreeSet::new();
    for p in &c.policies {
        let approval = p
            .approval
            .as_ref()
            .or(top.and_then(|t| t.approval.as_ref()));
        let sandbox = p.sandbox.as_ref().or(top.and_then(|t| t.sandbox.as_ref()));
        let (Some((a, a_at)), Some((sb, _))) = (approval, sandbox) else {
            continue;
        };
        if a != "never" || sb != "danger-full-access" {
            continue;
        }
        let off = p
            .approval
            .as_ref()
            .or(p.sandbox.as_ref())
            .map_or(*a_at, |(_, o)| *o);
        if !reported.insert(off) {
            continue;
        }
        let scope = match &p.profile {
            Some(name) => format!("profile `{}`", sanitize_line(name)),
            None => "top level".to_owned(),
        };
        cx.emit(
            AGENT_PERMISSION_BYPASS,
            format!(
                "`approval_policy = \"never\"` with `sandbox_mode = \"danger-full-access\"` ({scope}): Codex runs every command of every session in this repository without asking and outside its sandbox, so a prompt injection that reaches it acts with no human in the loop. Remove both settings from the repository's configuration; a user who wants them sets them in their own `~/.codex/config.toml`."
            ),
            at(off),
            "codex-approval",
        );
    }
    found.sort_by_key(|(o, _)| *o);
    for (off, value) in &found {
        commands::report_overlong(cx, value.chars().count(), at(*off));
    }
    commands::overlay_of(text, &found)
}

/// Claude Code project settings (`permissions.defaultMode: "bypassPermissions"`) and VS Code
/// workspace settings (`chat.tools.global.autoApprove`, `chat.tools.autoApprove`) that run
/// every tool call without asking. Returns whether one was reported.
fn settings_bypass(cx: &mut Cx<'_>, rel: &str, text: &str, v: &serde_json::Value) -> bool {
    let mut hits: Vec<(&str, String)> = Vec::new();
    if v.pointer("/permissions/defaultMode")
        .and_then(|m| m.as_str())
        == Some("bypassPermissions")
    {
        hits.push((
            "\"defaultMode\"",
            "`permissions.defaultMode: \"bypassPermissions\"` makes Claude Code run every tool call in this repository without asking, shell commands and file writes included".to_owned(),
        ));
    }
    for key in ["chat.tools.global.autoApprove", "chat.tools.autoApprove"] {
        if v.get(key).and_then(|b| b.as_bool()) == Some(true) {
            hits.push((
                key,
                format!("`\"{key}\": true` makes VS Code's agent run every tool, terminal commands included, without asking"),
            ));
        }
    }
    let lines = crate::text::LineIndex::new(text);
    for (needle, what) in &hits {
        let off = text.find(needle).unwrap_or(0);
        let (l, c) = lines.position(text, off);
        cx.emit(
            AGENT_PERMISSION_BYPASS,
            format!(
                "{what}, for everyone who opens it: a prompt injection that reaches the agent acts with no human in the loop. Remove the setting from the committed file; a user who wants it sets it in their own user settings."
            ),
            Location::at(rel.to_owned(), l, c),
            "settings-bypass",
        );
    }
    !hits.is_empty()
}

/// One MCP server's configuration: plain-HTTP URLs and unpinned packages.
fn server_checks(cx: &mut Cx<'_>, name: &str, cfg: &serde_json::Value, loc: Location) {
    {
        if let Some(url) = cfg.get("url").and_then(|u| u.as_str())
            && let Some(host) = url.strip_prefix("http://")
        {
            let host = host.split(['/', ':', '?']).next().unwrap_or("");
            let local = host == "localhost" || host.starts_with("127.") || host == "[::1]";
            if !local {
                cx.emit(
                    MCP_SERVER_INSECURE_TRANSPORT,
                    format!(
                        "MCP server `{}` is reached over plain HTTP (`{}`): its tool calls, results and any token in the headers travel unencrypted and can be altered on the way. Use `https://`.",
                        sanitize_line(name),
                        sanitize_line(&crate::text::truncate(url, 80))
                    ),
                    loc.clone(),
                    &format!("mcp-http:{name}"),
                );
            }
        }
        let cmd = cfg.get("command").and_then(|c| c.as_str()).unwrap_or("");
        let args: Vec<&str> = cfg
            .get("args")
            .and_then(|a| a.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_str()).collect())
            .unwrap_or_default();
        if let Some(pkg) = unpinned(cmd, &args) {
            cx.emit(
                MCP_SERVER_UNPINNED,
                format!(
                    "MCP server `{}` runs `{}` from the registry without a version, so every start may run different code, chosen by whoever publishes the package next. Pin it (`{}@1.2.3`, or `=={{version}}` for uvx).",
                    sanitize_line(name),
                    sanitize_line(&pkg),
                    sanitize_line(&pkg)
                ),
                loc,
                &format!("mcp-unpinned:{name}"),
            );
        }
    }
}

/// The package an `npx`/`uvx`/`pnpm dlx`/`bunx` server runs without a version, if any.
fn unpinned(cmd: &str, args: &[&str]) -> Option<String> {
    let base = cmd.rsplit(['/', '\\']).next().unwrap_or(cmd);
    let mut words: Vec<&str> = Vec::new();
    words.extend(cmd.split_whitespace().skip(1));
    words.extend(args.iter().copied());
    let runner = match base.split_whitespace().next().unwrap_or("") {
        "npx" | "npx.cmd" | "bunx" => "npm",
        "uvx" | "pipx" => "py",
        "pnpm" | "yarn" if words.first() == Some(&"dlx") => "npm",
        _ => return None,
    };
    let pkg = words
        .iter()
        .find(|w| !w.starts_with('-') && **w != "dlx" && **w != "run")?;
    let pinned = match runner {
        "npm" => {
            let at = if let Some(rest) = pkg.strip_prefix('@') {
                rest.find('@').map(|i| i + 1)
            } else {
                pkg.find('@')
            };
            at.is_some_and(|i| {
                let v = &pkg[i + 1..];
                !v.is_empty() && v != "latest" && v.starts_with(|c: char| c.is_ascii_digit())
            })
        }
        _ => pkg.contains("==") || pkg.contains('@'),
    };
    (!pinned).then(|| (*pkg).to_owned())
}

/// Which agent harness loads each agent file ([`crate::loaders::agents`]), under the
/// selected profiles; prompts, instructions, MCP and hook files get no verdicts.
pub fn loader_verdicts(analysed: &mut [Analysed], sel: &crate::loaders::Selection) {
    use crate::loaders::agents::{AgentView, evaluate};
    let idx: Vec<usize> = (0..analysed.len())
        .filter(|&i| analysed[i].artifact.kind == ArtifactKind::Agent)
        .collect();
    let cells = {
        let views: Vec<AgentView<'_>> = idx
            .iter()
            .map(|&i| {
                let a = &analysed[i];
                AgentView {
                    path: &a.artifact.path,
                    root: &a.info.root,
                    repo: a.artifact.repo.as_deref(),
                    format: a.info.format.unwrap_or(Format::CopilotAgent),
                    name: &a.info.name,
                    has_name: a.info.has_name,
                    yaml_broken: a.info.yaml_broken,
                    description: a.info.description,
                    target: a.info.target.as_deref(),
                    body_chars: a.info.body_chars,
                    claude_skip: a.info.claude_skip.as_deref(),
                }
            })
            .collect();
        evaluate(&views, sel)
    };
    for (i, c) in idx.into_iter().zip(cells) {
        analysed[i].artifact.loaders = c;
    }
}

/// Cross-file checks: `agents:` and handoff targets that name no agent, Claude `skills`
/// preloads that name no skill.
pub fn check_references(
    analysed: &[Analysed],
    skill_names: &BTreeSet<String>,
    findings: &mut Vec<Finding>,
) {
    // Agents are named within their repository (workspace scans hold many).
    let names: BTreeSet<(Option<&str>, &str)> = analysed
        .iter()
        .filter(|a| a.artifact.kind == ArtifactKind::Agent)
        .flat_map(|a| {
            let repo = a.artifact.repo.as_deref();
            [(repo, a.info.name.as_str()), (repo, stem(&a.artifact.path))]
        })
        .collect();
    for a in analysed {
        let rel = &a.artifact.path;
        for (target, l, c, field) in &a.info.refs {
            // The harnesses' built-in agents (`agent`, `ask`, `plan`, ...) always resolve.
            if schema::BUILTIN_AGENTS.contains(&target.as_str()) {
                continue;
            }
            if !names.contains(&(a.artifact.repo.as_deref(), target.as_str())) {
                let f = Finding::new(
                    AGENT_REFERENCE_BROKEN,
                    format!(
                        "`{field}` names the agent `{}`, and no agent of that name is in this repository, so the harness cannot hand off to it. Fix the name or add the agent.",
                        sanitize_line(target)
                    ),
                    Location::at(rel.clone(), *l, *c),
                )
                .for_skill(Some(&a.info.name), Some(rel), &format!("{field}:{target}"));
                findings.push(f);
            }
        }
        let (harness, user_level) = if a.info.format == Some(Format::CopilotAgent) {
            ("GitHub Copilot", "~/.copilot/skills")
        } else {
            ("Claude Code", "~/.claude/skills")
        };
        for (skill, l, c) in &a.info.skills {
            if !skill_names.contains(skill) {
                let f = Finding::new(
                    AGENT_REFERENCE_BROKEN,
                    format!(
                        "`skills` loads `{}`, and no skill of that name is in this repository, so {harness} starts the agent without it unless each user has installed it (`{user_level}`, a plugin). Fix the name, add the skill to the repository, or say in the agent's documentation what to install.",
                        sanitize_line(skill)
                    ),
                    Location::at(rel.clone(), *l, *c),
                )
                .for_skill(Some(&a.info.name), Some(rel), &format!("skills:{skill}"));
                findings.push(f);
            }
        }
    }
}

/// What `target` may do that `source` may not (tools that matter for escalation).
fn broader(source: &Option<BTreeSet<Cap>>, target: &Option<BTreeSet<Cap>>) -> Vec<&'static str> {
    let grants = |c: &Option<BTreeSet<Cap>>, cap: Cap| {
        c.as_ref()
            .is_none_or(|s| s.contains(&cap) || s.contains(&Cap::All))
    };
    [
        (Cap::Execute, "execute"),
        (Cap::Edit, "edit"),
        (Cap::Web, "web"),
        (Cap::Mcp, "MCP tools"),
    ]
    .into_iter()
    .filter(|(cap, _)| grants(target, *cap) && !grants(source, *cap))
    .map(|(_, n)| n)
    .collect()
}

/// Handoff escalation and agents of one identity that differ.
pub fn check_agents(analysed: &[Analysed], findings: &mut Vec<Finding>) {
    let agents: Vec<&Analysed> = analysed
        .iter()
        .filter(|a| a.artifact.kind == ArtifactKind::Agent && !a.artifact.excluded)
        .collect();
    // Agents are named within their repository (workspace scans hold many).
    let mut by_name: BTreeMap<(Option<&str>, &str), Vec<&Analysed>> = BTreeMap::new();
    for a in &agents {
        by_name
            .entry((a.artifact.repo.as_deref(), a.info.name.as_str()))
            .or_default()
            .push(a);
    }
    for a in &agents {
        let rel = &a.artifact.path;
        for (target, l, c) in &a.info.sends {
            let key = (a.artifact.repo.as_deref(), target.as_str());
            let Some(t) = by_name.get(&key).and_then(|v| v.first()) else {
                continue;
            };
            let more = broader(&a.info.caps, &t.info.caps);
            if more.is_empty() {
                continue;
            }
            let f = Finding::new(
                AGENT_HANDOFF_ESCALATION,
                format!(
                    "a `send: true` handoff passes control to `{}` without the user confirming, and `{}` may use {} that this agent may not: whatever steers this agent (a prompt injection in what it read) reaches those tools. Set `send: false` so the user reviews the handoff, or narrow the target's `tools`.",
                    sanitize_line(target),
                    sanitize_line(target),
                    more.join(", ")
                ),
                Location::at(rel.clone(), *l, *c),
            )
            .with_related(
                Location::file(t.artifact.path.clone()),
                "the target agent".to_owned(),
            )
            .for_skill(Some(&a.info.name), Some(rel), &format!("send:{target}"));
            findings.push(f);
        }
    }
    identity_conflicts(&agents, findings);
}

/// Is `rel` directly inside a `.github/agents` or `.claude/agents` folder, the folders VS Code
/// and Copilot read agents from (they dedup them by file name)?
fn in_copilot_folder(rel: &str) -> bool {
    let dir = parent(rel);
    file_name(dir) == "agents" && matches!(file_name(parent(dir)), ".github" | ".claude")
}

/// Agent files of one identity whose contents differ (`agent-identity-conflict`). An agent
/// is known by its `name` (Claude Code, Waza) and, directly in `.github/agents` and
/// `.claude/agents`, also by its file name without `.md`/`.agent.md` (VS Code and Copilot
/// dedup by it): files of one repository that share either are one identity. This rule owns
/// drift between copies of an agent (`cross-location-content-drift` is for skills): one
/// finding per identity, listing every copy with its content hash. Plugin agents are
/// namespaced by their plugin (`plugin:agent`) and never conflict.
fn identity_conflicts(agents: &[&Analysed], findings: &mut Vec<Finding>) {
    let agents: Vec<&Analysed> = agents
        .iter()
        .copied()
        .filter(|a| a.info.format != Some(Format::PluginAgent))
        .collect();
    let mut sets = crate::disjoint::Disjoint::new(agents.len());
    // (repository, identity) → the first agent holding it.
    let mut first: BTreeMap<(Option<&str>, &str), usize> = BTreeMap::new();
    for (i, a) in agents.iter().enumerate() {
        let repo = a.artifact.repo.as_deref();
        let path = a.artifact.path.as_str();
        let by_file = in_copilot_folder(path).then(|| stem(path));
        for id in std::iter::once(a.info.name.as_str()).chain(by_file) {
            match first.get(&(repo, id)) {
                Some(&j) => sets.union(i, j),
                None => {
                    first.insert((repo, id), i);
                }
            }
        }
    }
    for group in sets.groups() {
        let members: Vec<&Analysed> = group.iter().map(|&i| agents[i]).collect();
        let hashes: BTreeSet<Option<&str>> = members
            .iter()
            .map(|a| a.artifact.content_hash.as_deref())
            .collect();
        if members.len() < 2 || hashes.len() < 2 {
            continue;
        }
        // The identities the copies share (held by two or more), in order of first use.
        let mut ids: Vec<(&str, usize)> = Vec::new();
        for a in &members {
            let p = a.artifact.path.as_str();
            let by_file = in_copilot_folder(p).then(|| stem(p));
            let own: BTreeSet<&str> = std::iter::once(a.info.name.as_str())
                .chain(by_file)
                .collect();
            for id in own {
                match ids.iter_mut().find(|(i, _)| *i == id) {
                    Some((_, n)) => *n += 1,
                    None => ids.push((id, 1)),
                }
            }
        }
        let ids: Vec<&str> = ids
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(i, _)| i)
            .collect();
        let shown: Vec<String> = ids
            .iter()
            .map(|i| format!("`{}`", sanitize_line(i)))
            .collect();
        let copies: Vec<String> = members
            .iter()
            .map(|a| {
                format!(
                    "{} ({})",
                    sanitize_line(&a.artifact.path),
                    short_hash(a.artifact.content_hash.as_deref())
                )
            })
            .collect();
        let head = members[0];
        let mut f = Finding::new(
            AGENT_IDENTITY_CONFLICT,
            format!(
                "{} agent files share the identity {} and their contents differ: {}. Which one runs depends on the harness and the folder it starts in (Claude Code takes the closest `.claude/agents` and goes by `name`; VS Code and Copilot read `.github/agents` and `.claude/agents` and dedup by file name without `.md`/`.agent.md`). Keep one definition, or give each a name and a file name of its own.",
                members.len(),
                shown.join(" and "),
                copies.join(", ")
            ),
            Location::file(head.artifact.path.clone()),
        )
        .with_properties(serde_json::json!({
            "identities": ids,
            "locations": members
                .iter()
                .map(|a| serde_json::json!({
                    "path": a.artifact.path,
                    "name": a.info.name,
                    "format": a.artifact.format,
                    "repo": a.artifact.repo,
                    "content_hash": a.artifact.content_hash,
                }))
                .collect::<Vec<_>>(),
        }));
        for other in &members[1..] {
            f = f.with_related(
                Location::file(other.artifact.path.clone()),
                format!(
                    "another agent of the same identity, content hash {}",
                    other
                        .artifact
                        .content_hash
                        .as_deref()
                        .unwrap_or("(unreadable)")
                ),
            );
        }
        findings.push(f.for_skill(Some(&head.info.name), Some(&head.artifact.path), "identity"));
    }
}

/// The first 12 characters of a content hash, or `unreadable`.
fn short_hash(h: Option<&str>) -> String {
    h.map_or_else(|| "unreadable".to_owned(), |h| h.chars().take(12).collect())
}

/// Findings of the same rule at the same place from a skill's scan and an agent's (an
/// `.agent.md` or plugin agent inside a skill folder): one cause, one finding; the higher
/// severity stays.
pub fn dedup(findings: &mut Vec<Finding>) {
    type Place = (&'static str, String, Option<u32>, Option<u32>);
    let mut best: BTreeMap<Place, (Severity, usize)> = BTreeMap::new();
    for (i, f) in findings.iter().enumerate() {
        let k = (
            f.rule_id,
            f.location.path.clone(),
            f.location.line,
            f.location.column,
        );
        let e = best.entry(k).or_insert((f.severity, i));
        if f.severity > e.0 {
            *e = (f.severity, i);
        }
    }
    if best.len() == findings.len() {
        return;
    }
    let keep: BTreeSet<usize> = best.values().map(|(_, i)| *i).collect();
    let mut i = 0;
    findings.retain(|_| {
        let k = keep.contains(&i);
        i += 1;
        k
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_harness_mcp_file_is_read_as_mcp_configuration() {
        for p in [
            ".mcp.json",
            ".vscode/mcp.json",
            ".cursor/mcp.json",
            ".roo/mcp.json",
            ".kiro/settings/mcp.json",
            ".codex/config.toml",
        ] {
            let c = crate::conventions::ARTEFACTS
                .iter()
                .find(|c| glob(c.pattern, p))
                .unwrap_or_else(|| panic!("{p} is not read"));
            assert_eq!(c.format, conventions::Format::McpConfig, "{p}");
        }
    }

    #[test]
    fn engine_messages_name_the_file_kind_and_keep_the_evidence() {
        let mut f = vec![Finding::new(
            crate::security::families::execution::FRONTMATTER_HOOKS,
            "The skill runs `the skill does x` while the skill is active.",
            Location::file("a.md"),
        )];
        reword(&mut f, ArtifactKind::Hooks);
        assert_eq!(
            f[0].message,
            "The hook configuration runs `the skill does x` while the hook configuration is active."
        );
        let mut g = vec![Finding::new(
            AGENT_REFERENCE_BROKEN,
            "no skill of that name; the skill is",
            Location::file("a.md"),
        )];
        reword(&mut g, ArtifactKind::Agent);
        assert_eq!(g[0].message, "no skill of that name; the skill is");
    }

    #[test]
    fn engine_messages_take_the_article_of_the_noun() {
        let msg = "A skill never does this; the skill's text, this skill, a skill, a published skill, skills and the skill-name stay. Nothing a skill does.";
        for (kind, want) in [
            (
                ArtifactKind::Agent,
                "An agent never does this; the agent's text, this agent, an agent, a published agent, skills and the skill-name stay. Nothing an agent does.",
            ),
            (
                ArtifactKind::Prompt,
                "A prompt never does this; the prompt's text, this prompt, a prompt, a published prompt, skills and the skill-name stay. Nothing a prompt does.",
            ),
            (
                ArtifactKind::Instructions,
                "An instruction file never does this; the instruction file's text, this instruction file, an instruction file, a published instruction file, skills and the skill-name stay. Nothing an instruction file does.",
            ),
            (
                ArtifactKind::McpConfig,
                "An MCP configuration never does this; the MCP configuration's text, this MCP configuration, an MCP configuration, a published MCP configuration, skills and the skill-name stay. Nothing an MCP configuration does.",
            ),
            (
                ArtifactKind::Hooks,
                "A hook configuration never does this; the hook configuration's text, this hook configuration, a hook configuration, a published hook configuration, skills and the skill-name stay. Nothing a hook configuration does.",
            ),
        ] {
            let mut f = vec![Finding::new(
                crate::security::families::execution::FRONTMATTER_HOOKS,
                msg,
                Location::file("a.md"),
            )];
            reword(&mut f, kind);
            assert_eq!(f[0].message, want, "{kind:?}");
        }
    }

    #[test]
    fn globs() {
        assert!(glob(".github/agents/*.md", ".github/agents/x.agent.md"));
        assert!(!glob(".github/agents/*.md", ".github/agents/a/x.md"));
        assert!(glob("**/.claude/agents/**/*.md", ".claude/agents/y.md"));
        assert!(glob(
            "**/.claude/agents/**/*.md",
            "sub/.claude/agents/a/b/y.md"
        ));
        assert!(glob("**/AGENTS.md", "AGENTS.md"));
        assert!(glob("**/AGENTS.md", "a/b/AGENTS.md"));
        assert!(!glob("**/AGENTS.md", "a/b/NOTAGENTS.md"));
        assert!(glob("**/*.agent.md", "agents/z.agent.md"));
    }

    #[test]
    fn unpinned_servers() {
        assert_eq!(
            unpinned("npx", &["-y", "some-mcp"]),
            Some("some-mcp".into())
        );
        assert_eq!(unpinned("npx", &["-y", "some-mcp@1.2.3"]), None);
        assert_eq!(
            unpinned("npx", &["-y", "@scope/mcp"]),
            Some("@scope/mcp".into())
        );
        assert_eq!(unpinned("npx", &["-y", "@scope/mcp@2.0.0"]), None);
        assert_eq!(
            unpinned("npx", &["-y", "some-mcp@latest"]),
            Some("some-mcp@latest".into())
        );
        assert_eq!(
            unpinned("uvx", &["mcp-server-git"]),
            Some("mcp-server-git".into())
        );
        assert_eq!(unpinned("uvx", &["mcp-server-git==0.6.2"]), None);
        assert_eq!(unpinned("node", &["server.js"]), None);
    }
}
