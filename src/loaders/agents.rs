//! Loader profiles for custom agents: for every agent file and every harness that reads
//! its folder, whether that harness loads it, skips it or lets another file of the same
//! identity win, and why.
//!
//! The sources (Claude Code subagents, where each harness looks, VS Code, the Copilot cloud
//! agent and CLI) are summarised in docs/agents.md. What a source leaves open is
//! marked `assumed` in the verdict's cause and in the profile's notes.

use std::collections::BTreeMap;

use super::{Profile, Selection};
use crate::conventions::Format;
use crate::inventory::{LoadStatus, LoaderVerdict};
use crate::text::sanitize_line;

pub const VSCODE: &str = "vscode-agents";
pub const COPILOT: &str = "copilot-agents";
pub const CLAUDE: &str = "claude-code-agents";
pub const GEMINI: &str = "gemini-cli-agents";

/// The agent profiles, in display order.
pub const PROFILES: &[Profile] = &[
    Profile {
        id: VSCODE,
        title: "VS Code custom agents (GitHub Copilot Chat)",
        emulates: "Reads `.github/agents/*.md` (any `.md`), Claude-format `.claude/agents/*.md` (a `name` is required there) and legacy `.github/chatmodes/*.chatmode.md` at the workspace root; frontmatter optional, `name` defaults to the file name. Assumed (undocumented): a `target: github-copilot` agent is not offered in VS Code; of two agents of one name the first in the order `.github/agents`, `.claude/agents`, `.github/chatmodes` (then by path) wins; `chat.agentFilesLocations` is at its default.",
        conventions: &[".github/agents", ".claude/agents", ".github/chatmodes"],
    },
    Profile {
        id: COPILOT,
        title: "GitHub Copilot cloud agent and Copilot CLI",
        emulates: "Reads the repository's `.github/agents/*.md` (`<name>.agent.md` or `<name>.md`): `description` is required, `target: vscode` keeps the agent out, the body is read up to 30,000 characters, and agents are de-duplicated by file name without `.agent.md`/`.md`. Assumed (undocumented): which of `x.agent.md` and `x.md` wins (the first by path, `x.agent.md`); a frontmatter that is not YAML leaves the required `description` unread, so the agent is not loaded.",
        conventions: &[".github/agents"],
    },
    Profile {
        id: CLAUDE,
        title: "Claude Code subagents",
        emulates: "Reads `.claude/agents/**/*.md` recursively in every folder from where it starts up to the repository root (the closest folder wins a name), and plugin `agents/**/*.md` once the plugin is installed (namespaced `plugin:agent`; loaded under the file name without a `name` or with bad YAML). Skips project agents silently without `name`, with a name starting with `-` or holding `:`, with a `name` but no `description`, or with YAML it cannot parse. Assumed (undocumented): of two files of one name in the same `.claude/agents` tree, the first by path wins.",
        conventions: &["**/.claude/agents", "<plugin>/agents"],
    },
    Profile {
        id: GEMINI,
        title: "Gemini CLI subagents",
        emulates: "Reads `.gemini/agents/*.md` at the project root (documented). Assumed (Gemini CLI's subagent schema; the reference documents the slug only for remote agents): the frontmatter must parse and hold a `name` (a slug of `a-z`, `0-9`, `-`, `_`) and a `description`, else the file fails to load; of two agents of one name the first by path wins.",
        conventions: &[".gemini/agents"],
    },
];

/// What the agent profiles read of one analysed agent file.
#[derive(Debug, Clone)]
pub struct AgentView<'a> {
    /// Path relative to the scan base.
    pub path: &'a str,
    /// The repository (or scanned folder) root, relative to the scan base (`""`: the base).
    pub root: &'a str,
    pub repo: Option<&'a str>,
    pub format: Format,
    /// The identity: `name`, else the file name without its suffix.
    pub name: &'a str,
    pub has_name: bool,
    pub yaml_broken: bool,
    pub description: bool,
    pub target: Option<&'a str>,
    pub body_chars: usize,
    /// Why Claude Code skips the file silently (project agents), if it does.
    pub claude_skip: Option<&'a str>,
}

type Cell = (LoadStatus, Option<String>);

fn within<'a>(path: &'a str, root: &str) -> &'a str {
    if root.is_empty() {
        return path;
    }
    path.strip_prefix(root)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or(path)
}

/// `rel` is a file directly inside `dir`.
fn direct_child(rel: &str, dir: &str) -> bool {
    rel.strip_prefix(dir)
        .and_then(|r| r.strip_prefix('/'))
        .is_some_and(|r| !r.is_empty() && !r.contains('/'))
}

fn file_name(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
}

/// The file name without `.agent.md` or `.md`: Copilot's identity of an agent file.
fn copilot_stem(rel: &str) -> &str {
    let n = file_name(rel);
    n.strip_suffix(".agent.md")
        .or_else(|| n.strip_suffix(".md"))
        .unwrap_or(n)
}

fn vscode(v: &AgentView<'_>, rel: &str) -> Option<(u8, Cell)> {
    let md = rel.ends_with(".md");
    let order = if direct_child(rel, ".github/agents") && md {
        0
    } else if direct_child(rel, ".claude/agents") && md {
        1
    } else if direct_child(rel, ".github/chatmodes") && rel.ends_with(".chatmode.md") {
        2
    } else {
        return None;
    };
    let excluded = |c: &str| Some((order, (LoadStatus::Excluded, Some(c.to_owned()))));
    if order == 1 {
        if v.yaml_broken {
            return excluded(
                "its frontmatter is not valid YAML, so the `name` a Claude-format agent needs cannot be read",
            );
        }
        if !v.has_name {
            return excluded("a Claude-format agent in `.claude/agents` needs a `name`");
        }
    }
    if v.target == Some("github-copilot") {
        return excluded("`target: github-copilot` makes it an agent of the cloud agent (assumed)");
    }
    let note = (order == 2).then(|| "a legacy chat mode: rename it `.agent.md`".to_owned());
    Some((order, (LoadStatus::Loaded, note)))
}

fn copilot(v: &AgentView<'_>, rel: &str) -> Option<Cell> {
    if !(direct_child(rel, ".github/agents") && rel.ends_with(".md")) {
        return None;
    }
    let cause = if v.yaml_broken {
        Some(
            "its frontmatter is not valid YAML, so the required `description` cannot be read (assumed)",
        )
    } else if !v.description {
        Some("it has no `description`, which an agent profile requires")
    } else if v.target == Some("vscode") {
        Some("`target: vscode` keeps it out of the cloud agent and the CLI")
    } else {
        None
    };
    Some(match cause {
        Some(c) => (LoadStatus::Excluded, Some(c.to_owned())),
        None if v.body_chars > crate::conventions::COPILOT_BODY_LIMIT => (
            LoadStatus::Loaded,
            Some(format!(
                "only the first {} characters of its body are read",
                crate::conventions::COPILOT_BODY_LIMIT
            )),
        ),
        None => (LoadStatus::Loaded, None),
    })
}

/// The folder a project agent's `.claude/agents` sits in (`""`: the root), if it is one.
fn claude_scope(rel: &str) -> Option<&str> {
    if let Some(r) = rel.strip_prefix(".claude/agents/") {
        return (!r.is_empty()).then_some("");
    }
    let i = rel.find("/.claude/agents/")?;
    Some(&rel[..i])
}

fn claude(v: &AgentView<'_>, rel: &str) -> Option<Cell> {
    if v.format == Format::PluginAgent {
        // `<plugin>/agents/<sub>/<file>.md` → `plugin:sub:name`.
        let (plugin_dir, inner) = match rel.rfind("/agents/") {
            Some(i) => (&rel[..i], &rel[i + "/agents/".len()..]),
            None => ("", rel.strip_prefix("agents/").unwrap_or(rel)),
        };
        let plugin = plugin_dir.rsplit('/').next().filter(|p| !p.is_empty());
        let mut id: Vec<&str> = plugin.into_iter().collect();
        if let Some((subs, _)) = inner.rsplit_once('/') {
            id.extend(subs.split('/'));
        }
        let own = if v.has_name && !v.yaml_broken {
            v.name
        } else {
            copilot_stem(rel)
        };
        id.push(own);
        return Some((
            LoadStatus::Loaded,
            Some(format!(
                "as `{}` once the plugin is installed; `hooks`, `mcpServers` and `permissionMode` are ignored",
                sanitize_line(&id.join(":"))
            )),
        ));
    }
    let scope = claude_scope(rel)?;
    if !rel.ends_with(".md") {
        return None;
    }
    if let Some(c) = v.claude_skip {
        return Some((LoadStatus::Excluded, Some(c.to_owned())));
    }
    let note = (!scope.is_empty()).then(|| {
        format!(
            "only when Claude Code starts in `{}/` or below",
            sanitize_line(scope)
        )
    });
    Some((LoadStatus::Loaded, note))
}

fn gemini(v: &AgentView<'_>, rel: &str) -> Option<Cell> {
    if !(direct_child(rel, ".gemini/agents") && rel.ends_with(".md")) {
        return None;
    }
    let slug = |n: &str| {
        !n.is_empty()
            && n.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
    };
    let cause = if v.yaml_broken {
        Some("its frontmatter is not valid YAML".to_owned())
    } else if !v.has_name {
        Some("it has no `name`".to_owned())
    } else if !slug(v.name) {
        Some(format!(
            "its `name` `{}` is not a slug of `a-z`, `0-9`, `-` and `_`",
            sanitize_line(v.name)
        ))
    } else if !v.description {
        Some("it has no `description`".to_owned())
    } else {
        None
    };
    Some(match cause {
        Some(c) => (LoadStatus::Excluded, Some(c)),
        None => (LoadStatus::Loaded, None),
    })
}

/// Marks every loaded member of a group but the first as shadowed by it.
fn shadow(
    cells: &mut [Vec<LoaderVerdict>],
    views: &[AgentView<'_>],
    members: &[usize],
    profile: &'static str,
    why: &str,
) {
    let loaded: Vec<usize> = members
        .iter()
        .copied()
        .filter(|&i| {
            cells[i]
                .iter()
                .any(|c| c.profile == profile && c.status == LoadStatus::Loaded)
        })
        .collect();
    let Some((&first, rest)) = loaded.split_first() else {
        return;
    };
    for &i in rest {
        if let Some(c) = cells[i].iter_mut().find(|c| c.profile == profile) {
            c.status = LoadStatus::Shadowed;
            c.cause = Some(format!(
                "{why}: `{}` is taken",
                sanitize_line(views[first].path)
            ));
        }
    }
}

/// The verdicts of every agent file (in the order of `views`), under the selected profiles.
/// Linear in the number of files, apart from sorting.
pub fn evaluate(views: &[AgentView<'_>], sel: &Selection) -> Vec<Vec<LoaderVerdict>> {
    let mut cells: Vec<Vec<LoaderVerdict>> = vec![Vec::new(); views.len()];
    // Identity groups per repository and profile, members in path order.
    type Key<'a> = (Option<&'a str>, &'a str);
    let mut vs_names: BTreeMap<Key<'_>, Vec<(u8, &str, usize)>> = BTreeMap::new();
    let mut cp_stems: BTreeMap<Key<'_>, Vec<usize>> = BTreeMap::new();
    let mut cl_names: BTreeMap<Key<'_>, Vec<usize>> = BTreeMap::new();
    let mut ge_names: BTreeMap<Key<'_>, Vec<usize>> = BTreeMap::new();
    for (i, v) in views.iter().enumerate() {
        let rel = within(v.path, v.root);
        let mut push = |profile: &'static str, (status, cause): Cell| {
            cells[i].push(LoaderVerdict {
                profile,
                status,
                cause,
                exposes: None,
            });
        };
        if sel.wants(VSCODE)
            && let Some((order, cell)) = vscode(v, rel)
        {
            push(VSCODE, cell);
            vs_names
                .entry((v.repo, v.name))
                .or_default()
                .push((order, v.path, i));
        }
        if sel.wants(COPILOT)
            && let Some(cell) = copilot(v, rel)
        {
            push(COPILOT, cell);
            cp_stems
                .entry((v.repo, copilot_stem(rel)))
                .or_default()
                .push(i);
        }
        if sel.wants(CLAUDE)
            && let Some(cell) = claude(v, rel)
        {
            push(CLAUDE, cell);
            if v.format != Format::PluginAgent {
                cl_names.entry((v.repo, v.name)).or_default().push(i);
            }
        }
        if sel.wants(GEMINI)
            && let Some(cell) = gemini(v, rel)
        {
            push(GEMINI, cell);
            ge_names.entry((v.repo, v.name)).or_default().push(i);
        }
    }
    for mut g in vs_names.into_values() {
        g.sort();
        let members: Vec<usize> = g.into_iter().map(|(_, _, i)| i).collect();
        shadow(
            &mut cells,
            views,
            &members,
            VSCODE,
            "another agent of this name comes first (assumed order `.github/agents`, `.claude/agents`, `.github/chatmodes`)",
        );
    }
    for g in cp_stems.into_values() {
        shadow(
            &mut cells,
            views,
            &g,
            COPILOT,
            "Copilot keeps one agent per file name without `.agent.md`/`.md`",
        );
    }
    for g in cl_names.into_values() {
        // One `.claude/agents` tree: the first by path (assumed). Across trees the closest
        // to where Claude Code starts wins, so each stays loaded with a note.
        let mut by_scope: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for &i in &g {
            let rel = within(views[i].path, views[i].root);
            by_scope
                .entry(claude_scope(rel).unwrap_or(""))
                .or_default()
                .push(i);
        }
        let scopes = by_scope.len();
        for members in by_scope.values() {
            shadow(
                &mut cells,
                views,
                members,
                CLAUDE,
                "another file of this name in the same `.claude/agents` tree comes first (assumed)",
            );
        }
        if scopes > 1 {
            for &i in &g {
                if let Some(c) = cells[i]
                    .iter_mut()
                    .find(|c| c.profile == CLAUDE && c.status == LoadStatus::Loaded)
                {
                    let more = format!(
                        "{scopes} `.claude/agents` folders define `{}`: the one closest to where Claude Code starts wins",
                        sanitize_line(views[i].name)
                    );
                    c.cause = Some(match c.cause.take() {
                        Some(n) => format!("{n}; {more}"),
                        None => more,
                    });
                }
            }
        }
    }
    for g in ge_names.into_values() {
        shadow(
            &mut cells,
            views,
            &g,
            GEMINI,
            "another agent of this name comes first (assumed)",
        );
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(path: &str, format: Format) -> AgentView<'_> {
        let name = copilot_stem(path);
        AgentView {
            path,
            root: "",
            repo: None,
            format,
            name,
            has_name: true,
            yaml_broken: false,
            description: true,
            target: None,
            body_chars: 10,
            claude_skip: None,
        }
    }

    fn cell<'a>(c: &'a [LoaderVerdict], p: &str) -> Option<&'a LoaderVerdict> {
        c.iter().find(|v| v.profile == p)
    }

    #[test]
    fn each_harness_reads_its_folders() {
        let views = [
            view(".github/agents/a.agent.md", Format::CopilotAgent),
            view(".claude/agents/b.md", Format::ClaudeAgent),
            view(".claude/agents/sub/c.md", Format::ClaudeAgent),
            view(".gemini/agents/d.md", Format::GeminiAgent),
            view("agents/e.agent.md", Format::CopilotAgent),
            view("tools/.claude/agents/f.md", Format::ClaudeAgent),
        ];
        let c = evaluate(&views, &Selection::Default);
        let ids = |i: usize| c[i].iter().map(|v| v.profile).collect::<Vec<_>>();
        assert_eq!(ids(0), [VSCODE, COPILOT]);
        assert_eq!(ids(1), [VSCODE, CLAUDE]);
        assert_eq!(ids(2), [CLAUDE]);
        assert_eq!(ids(3), [GEMINI]);
        assert!(ids(4).is_empty());
        let f = cell(&c[5], CLAUDE).unwrap();
        assert_eq!(f.status, LoadStatus::Loaded);
        assert!(f.cause.as_deref().unwrap().contains("starts in `tools/`"));
    }

    #[test]
    fn copilot_dedups_by_file_stem_and_requires_a_description() {
        let mut b = view(".github/agents/x.md", Format::CopilotAgent);
        b.name = "other";
        let mut d = view(".github/agents/y.agent.md", Format::CopilotAgent);
        d.description = false;
        let views = [
            view(".github/agents/x.agent.md", Format::CopilotAgent),
            b,
            d,
        ];
        let c = evaluate(&views, &Selection::Default);
        assert_eq!(cell(&c[0], COPILOT).unwrap().status, LoadStatus::Loaded);
        let s = cell(&c[1], COPILOT).unwrap();
        assert_eq!(s.status, LoadStatus::Shadowed);
        assert!(s.cause.as_deref().unwrap().contains("x.agent.md"));
        // Different names: VS Code loads both.
        assert_eq!(cell(&c[1], VSCODE).unwrap().status, LoadStatus::Loaded);
        let e = cell(&c[2], COPILOT).unwrap();
        assert_eq!(e.status, LoadStatus::Excluded);
        assert!(e.cause.as_deref().unwrap().contains("description"));
    }

    #[test]
    fn claude_skips_and_scopes() {
        let mut skipped = view(".claude/agents/s.md", Format::ClaudeAgent);
        skipped.claude_skip = Some("it has no `name`");
        skipped.has_name = false;
        let views = [
            skipped,
            view(".claude/agents/a/x.md", Format::ClaudeAgent),
            view(".claude/agents/b/x.md", Format::ClaudeAgent),
            view("pkg/.claude/agents/x.md", Format::ClaudeAgent),
            view("plugins/p/agents/review/x.md", Format::PluginAgent),
        ];
        let c = evaluate(&views, &Selection::Default);
        assert_eq!(cell(&c[0], CLAUDE).unwrap().status, LoadStatus::Excluded);
        // VS Code needs a name in `.claude/agents` too.
        assert_eq!(cell(&c[0], VSCODE).unwrap().status, LoadStatus::Excluded);
        assert_eq!(cell(&c[1], CLAUDE).unwrap().status, LoadStatus::Loaded);
        assert!(
            cell(&c[1], CLAUDE)
                .unwrap()
                .cause
                .as_deref()
                .unwrap()
                .contains("2 `.claude/agents` folders")
        );
        assert_eq!(cell(&c[2], CLAUDE).unwrap().status, LoadStatus::Shadowed);
        assert_eq!(cell(&c[3], CLAUDE).unwrap().status, LoadStatus::Loaded);
        let p = cell(&c[4], CLAUDE).unwrap();
        assert!(
            p.cause.as_deref().unwrap().contains("`p:review:x`"),
            "{p:?}"
        );
    }

    #[test]
    fn targets_and_gemini_names() {
        let mut vs_only = view(".github/agents/v.agent.md", Format::CopilotAgent);
        vs_only.target = Some("vscode");
        let mut cloud_only = view(".github/agents/c.agent.md", Format::CopilotAgent);
        cloud_only.target = Some("github-copilot");
        let mut g = view(".gemini/agents/G.md", Format::GeminiAgent);
        g.name = "Bad Name";
        let views = [vs_only, cloud_only, g];
        let c = evaluate(&views, &Selection::Default);
        assert_eq!(cell(&c[0], VSCODE).unwrap().status, LoadStatus::Loaded);
        assert_eq!(cell(&c[0], COPILOT).unwrap().status, LoadStatus::Excluded);
        assert_eq!(cell(&c[1], VSCODE).unwrap().status, LoadStatus::Excluded);
        assert_eq!(cell(&c[1], COPILOT).unwrap().status, LoadStatus::Loaded);
        assert_eq!(cell(&c[2], GEMINI).unwrap().status, LoadStatus::Excluded);
        let only = Selection::Only([GEMINI.to_owned()].into_iter().collect());
        let c = evaluate(&views, &only);
        assert!(c[0].is_empty() && c[2].len() == 1);
    }
}
