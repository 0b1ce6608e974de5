//! Tool names of agent files, normalised across harnesses (the Copilot alias table of docs/agents.md,
//! Claude Code's tool names, VS Code's legacy flat names and `group/tool` names, MCP
//! forms), and the capabilities they grant.

/// What a tool lets an agent do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cap {
    Execute,
    Read,
    Edit,
    Search,
    Agent,
    Web,
    Todo,
    /// Known, but none of the above (VS Code `problems`, Claude `AskUserQuestion`, ...).
    Other,
    /// An MCP or extension tool (`server/tool`, `server/*`, `mcp__server__tool`).
    Mcp,
    /// Every tool (`*`).
    All,
}

/// (lower-cased name, capability): the primary aliases, their compatible aliases, Claude
/// Code's names, Waza's aliases and VS Code's flat names.
const KNOWN: &[(&str, Cap)] = &[
    ("execute", Cap::Execute),
    ("shell", Cap::Execute),
    ("bash", Cap::Execute),
    ("powershell", Cap::Execute),
    ("runcommand", Cap::Execute),
    ("runcommands", Cap::Execute),
    ("runinterminal", Cap::Execute),
    ("runtasks", Cap::Execute),
    ("runtests", Cap::Execute),
    ("runnotebooks", Cap::Execute),
    ("terminal", Cap::Execute),
    ("bashoutput", Cap::Execute),
    ("killshell", Cap::Execute),
    ("killbash", Cap::Execute),
    ("getterminaloutput", Cap::Execute),
    ("terminallastcommand", Cap::Read),
    ("terminalselection", Cap::Read),
    ("read", Cap::Read),
    ("notebookread", Cap::Read),
    ("view", Cap::Read),
    ("readfile", Cap::Read),
    ("fileread", Cap::Read),
    ("ls", Cap::Read),
    ("problems", Cap::Read),
    ("changes", Cap::Read),
    ("testfailure", Cap::Read),
    ("edit", Cap::Edit),
    ("multiedit", Cap::Edit),
    ("write", Cap::Edit),
    ("notebookedit", Cap::Edit),
    ("editfiles", Cap::Edit),
    ("writefile", Cap::Edit),
    ("filewrite", Cap::Edit),
    ("createfile", Cap::Edit),
    ("create", Cap::Edit),
    ("str_replace", Cap::Edit),
    ("str_replace_editor", Cap::Edit),
    ("new", Cap::Edit),
    ("search", Cap::Search),
    ("grep", Cap::Search),
    ("glob", Cap::Search),
    ("codebase", Cap::Search),
    ("codesearch", Cap::Search),
    ("usages", Cap::Search),
    ("searchresults", Cap::Search),
    ("findtestfiles", Cap::Search),
    ("filesearch", Cap::Search),
    ("textsearch", Cap::Search),
    ("agent", Cap::Agent),
    ("custom-agent", Cap::Agent),
    ("task", Cap::Agent),
    ("runsubagent", Cap::Agent),
    ("sendmessage", Cap::Agent),
    ("teamcreate", Cap::Agent),
    ("teamdelete", Cap::Agent),
    ("taskcreate", Cap::Todo),
    ("taskupdate", Cap::Todo),
    ("tasklist", Cap::Todo),
    ("taskget", Cap::Todo),
    ("taskoutput", Cap::Todo),
    ("taskstop", Cap::Todo),
    ("web", Cap::Web),
    ("websearch", Cap::Web),
    ("webfetch", Cap::Web),
    ("fetch", Cap::Web),
    ("web_fetch", Cap::Web),
    ("githubrepo", Cap::Web),
    ("opensimplebrowser", Cap::Web),
    ("todo", Cap::Todo),
    ("todowrite", Cap::Todo),
    ("todoread", Cap::Todo),
    ("todos", Cap::Todo),
    ("extensions", Cap::Other),
    ("vscodeapi", Cap::Other),
    ("think", Cap::Other),
    ("memory", Cap::Other),
    ("skill", Cap::Other),
    ("slashcommand", Cap::Other),
    ("askuserquestion", Cap::Other),
    ("exitplanmode", Cap::Other),
    ("enterplanmode", Cap::Other),
    ("toolsearch", Cap::Other),
    ("lsp", Cap::Other),
    ("listmcpresourcestool", Cap::Mcp),
    ("readmcpresourcetool", Cap::Mcp),
];

/// Tool groups of VS Code's `group/tool` names.
const GROUPS: &[(&str, Cap)] = &[
    ("execute", Cap::Execute),
    ("read", Cap::Read),
    ("edit", Cap::Edit),
    ("search", Cap::Search),
    ("agent", Cap::Agent),
    ("web", Cap::Web),
    ("todo", Cap::Todo),
    ("vscode", Cap::Other),
];

/// VS Code's qualified tool names (`group/tool`) in its built-in groups, lower-cased. A
/// qualified name in one of [`GROUPS`] must be one of these (or `group/*`, or a group with
/// a flat name of [`KNOWN`]): `web/fecth` is a typo, not an MCP tool.
const QUALIFIED: &[&str] = &[
    "execute/runinterminal",
    "execute/getterminaloutput",
    "execute/awaitterminal",
    "execute/killterminal",
    "execute/createandruntask",
    "execute/runtask",
    "execute/gettaskoutput",
    "execute/runnotebookcell",
    "read/readfile",
    "read/readnotebookcelloutput",
    "read/getnotebooksummary",
    "read/gettaskoutput",
    "edit/editfiles",
    "edit/createfile",
    "edit/createdirectory",
    "edit/editnotebook",
    "edit/createjupyternotebook",
    "edit/rename",
    "search/filesearch",
    "search/textsearch",
    "search/listdirectory",
    "search/searchsubagent",
    "web/fetch",
    "web/githubrepo",
    "web/githubtextsearch",
    "agent/runsubagent",
    "vscode/getprojectsetupinfo",
    "vscode/installextension",
    "vscode/newworkspace",
    "vscode/runcommand",
    "vscode/toolsearch",
    "vscode/askquestions",
    "vscode/switchagent",
];

/// The capability a tool name grants, or `None` when no harness knows it.
pub fn capability(name: &str) -> Option<Cap> {
    let n = name.trim();
    if n == "*" {
        return Some(Cap::All);
    }
    // Claude permission syntax: `Bash(git:*)` is a restricted Bash.
    let base = n.split('(').next().unwrap_or(n).trim();
    let lower = base.to_ascii_lowercase();
    if let Some((_, c)) = KNOWN.iter().find(|(k, _)| *k == lower) {
        return Some(*c);
    }
    if lower.starts_with("mcp__") && lower.len() > 5 {
        return Some(Cap::Mcp);
    }
    if let Some((group, tool)) = lower.split_once('/') {
        if group.is_empty() || tool.is_empty() {
            return None;
        }
        if let Some((_, c)) = GROUPS.iter().find(|(g, _)| *g == group) {
            let known = tool == "*"
                || QUALIFIED.contains(&lower.as_str())
                || KNOWN.iter().any(|(k, _)| *k == tool);
            return known.then_some(*c);
        }
        // `server/tool`, `server/*`, `extension.id/tool`.
        return Some(Cap::Mcp);
    }
    // An extension or MCP server id (`microsoft.docs.mcp`).
    if lower.contains('.') && !lower.starts_with('.') && !lower.ends_with('.') {
        return Some(Cap::Mcp);
    }
    None
}

/// Is this execute tool limited to some commands (`Bash(git:*)`)?
pub fn is_restricted(name: &str) -> bool {
    let n = name.trim();
    n.contains('(') && n.ends_with(')') && !n.contains("(*)")
}

/// The known name closest to `name` (Levenshtein distance over bytes, through `strsim`,
/// case-insensitive), if close enough to be a likely typo.
/// Claude Code's tool names, as a subagent's `tools` writes them.
pub const CLAUDE_TOOLS: &[&str] = &[
    "Bash",
    "BashOutput",
    "Edit",
    "ExitPlanMode",
    "Glob",
    "Grep",
    "KillShell",
    "LS",
    "MultiEdit",
    "NotebookEdit",
    "NotebookRead",
    "Read",
    "SlashCommand",
    "Task",
    "TodoWrite",
    "WebFetch",
    "WebSearch",
    "Write",
];

/// The Claude Code tool name closest to `name` (for a Claude subagent's misspelt tool).
pub fn closest_claude(name: &str) -> Option<&'static str> {
    let lower = name.trim().to_ascii_lowercase();
    if lower.len() > 64 || lower.contains('/') {
        return None;
    }
    CLAUDE_TOOLS
        .iter()
        .map(|k| (strsim::levenshtein(&lower, &k.to_ascii_lowercase()), *k))
        .min_by_key(|(d, _)| *d)
        .filter(|(d, k)| *d <= (k.len() / 3).max(2))
        .map(|(_, k)| k)
}

pub fn closest(name: &str) -> Option<&'static str> {
    let lower = name.trim().to_ascii_lowercase();
    if lower.len() > 64 {
        return None;
    }
    // Over bytes, as `strsim` takes them (a sized collection): at most 64 × 20 steps a name.
    let lower = lower.into_bytes();
    let mut best: Option<(usize, &'static str)> = None;
    // A qualified name is compared with the qualified names, a flat one with the flat names.
    let qualified = lower.contains(&b'/');
    let names: Vec<&'static str> = if qualified {
        QUALIFIED.to_vec()
    } else {
        KNOWN.iter().chain(GROUPS).map(|(k, _)| *k).collect()
    };
    for k in names {
        let d = strsim::generic_levenshtein(&lower, &k.as_bytes().to_vec());
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, k));
        }
    }
    best.filter(|(d, k)| *d <= (k.len() / 3).max(2))
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_groups_and_mcp_forms() {
        assert_eq!(capability("Bash"), Some(Cap::Execute));
        assert_eq!(capability("powershell"), Some(Cap::Execute));
        assert_eq!(capability("Bash(git:*)"), Some(Cap::Execute));
        assert!(is_restricted("Bash(git:*)"));
        assert!(!is_restricted("Bash"));
        assert_eq!(capability("WebFetch"), Some(Cap::Web));
        assert_eq!(capability("web/fetch"), Some(Cap::Web));
        assert_eq!(capability("execute/runInTerminal"), Some(Cap::Execute));
        assert_eq!(capability("github/*"), Some(Cap::Mcp));
        assert_eq!(capability("mcp__meigen__generate_image"), Some(Cap::Mcp));
        assert_eq!(capability("microsoft.docs.mcp"), Some(Cap::Mcp));
        assert_eq!(capability("*"), Some(Cap::All));
        assert_eq!(capability("Task"), Some(Cap::Agent));
        assert_eq!(capability("fileRead"), Some(Cap::Read));
        assert_eq!(capability("Reed"), None);
        assert_eq!(closest("Reed"), Some("read"));
        assert_eq!(closest("WebFetsh"), Some("webfetch"));
        assert_eq!(closest("completely-unrelated-tool"), None);
        assert_eq!(capability("web/fecth"), None);
        assert_eq!(closest("web/fecth"), Some("web/fetch"));
        assert_eq!(capability("read/problems"), Some(Cap::Read));
        assert_eq!(capability("edit/*"), Some(Cap::Edit));
    }
}
