//! The frontmatter schema of every agent, prompt and instruction format, written as data:
//! each field with its type, the values it takes and the targets that read it. The checks of
//! [`check`] walk a file's frontmatter against [`FIELDS`] down to the leaves of the nested
//! fields (handoffs, subagents, MCP servers, hooks, `github`), and `docs/agents.md`'s field
//! table is generated from the same data ([`markdown_table`]).
//!
//! What the checks report:
//! - a key no field of the format names: `agent-unknown-key` (also inside nested objects);
//! - a value of the wrong type or outside the allowed values: `agent-field-invalid`, at the
//!   value's line and column;
//! - a field the file's `target` does not read (`target: vscode` or `target: github-copilot`):
//!   `agent-field-ignored`.
//!
//! Only the shape is checked here; what an MCP server or hook command does is the security
//! engine's.

use crate::conventions::Format;
use crate::finding::Location;
use crate::parse::yaml::{Node, NodeKind, ScalarType};
use crate::rules::Cx;
use crate::text::sanitize_line;

use super::{AGENT_FIELD_IGNORED, AGENT_FIELD_INVALID, AGENT_UNKNOWN_KEY};

/// The type of a field's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    /// A string.
    Str,
    /// `true` or `false`.
    Bool,
    /// A whole number above zero.
    PositiveInt,
    /// A number.
    Number,
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// A list of strings.
    StrList,
    /// A list of strings or one comma-separated string.
    StrOrList,
    /// A string or a prioritised list of strings.
    StrOrStrList,
    /// A mapping of strings to strings.
    StrMap,
    /// Tool names: a list (and, where the format allows it, a comma-separated string).
    Tools,
    /// Subagents: a list of names (or Waza's `{name, scope}`), `*`, or `[]`.
    Agents,
    /// A list of `{label, agent, prompt, send, model}` (or Waza's `{name, when}`).
    Handoffs,
    /// MCP servers: a mapping of names to configurations, or a list of configurations with
    /// a `name`.
    McpServers,
    /// Hooks: a mapping of events to lists of actions or matcher groups.
    Hooks,
    /// `{toolsets: [..], permissions: {..}}`.
    Github,
    /// Any mapping (not checked further).
    Map,
}

impl Ty {
    /// The type as the field table shows it.
    pub fn describe(self) -> String {
        match self {
            Ty::Str => "string".into(),
            Ty::Bool => "boolean".into(),
            Ty::PositiveInt => "integer > 0".into(),
            Ty::Number => "number".into(),
            Ty::Enum(v) => v
                .iter()
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(" \\| "),
            Ty::StrList => "list of strings".into(),
            Ty::StrOrList => "list of strings or comma-separated string".into(),
            Ty::StrOrStrList => "string or list of strings".into(),
            Ty::StrMap => "mapping of strings".into(),
            Ty::Tools => "list of tool names".into(),
            Ty::Agents => "list of agent names, `*` or `[]`".into(),
            Ty::Handoffs => "list of handoffs".into(),
            Ty::McpServers => "MCP servers (mapping or list)".into(),
            Ty::Hooks => "mapping of hook events".into(),
            Ty::Github => "`{toolsets, permissions}`".into(),
            Ty::Map => "mapping".into(),
        }
    }
}

/// Which `target` of a VS Code / Copilot agent reads a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Targets {
    /// Every harness of the format.
    Both,
    /// VS Code's local harness only (`target: github-copilot` does not accept it).
    Local,
    /// The Copilot harness only (`target: vscode` does not accept it).
    Copilot,
}

/// A group of formats sharing one schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schema {
    /// `.agent.md`, `.github/agents/*.md`, `*.chatmode.md`.
    Copilot,
    /// Claude Code subagents (`.claude/agents`, plugin `agents/`).
    Claude,
    /// Gemini CLI subagents.
    Gemini,
    /// VS Code prompt files.
    Prompt,
    /// Claude Code slash commands.
    ClaudeCommand,
    /// Copilot and VS Code instruction files.
    Instructions,
}

impl Schema {
    pub fn of(format: Format) -> Option<Schema> {
        Some(match format {
            Format::CopilotAgent | Format::ChatMode => Schema::Copilot,
            Format::ClaudeAgent | Format::PluginAgent => Schema::Claude,
            Format::GeminiAgent => Schema::Gemini,
            Format::Prompt => Schema::Prompt,
            Format::ClaudeCommand => Schema::ClaudeCommand,
            Format::Instructions => Schema::Instructions,
            _ => return None,
        })
    }

    pub fn title(self) -> &'static str {
        match self {
            Schema::Copilot => {
                "VS Code / GitHub Copilot agent (`.agent.md`, `.github/agents/*.md`, `*.chatmode.md`)"
            }
            Schema::Claude => "Claude Code subagent (`.claude/agents`, plugin `agents/`)",
            Schema::Gemini => "Gemini CLI subagent (`.gemini/agents/*.md`)",
            Schema::Prompt => "Prompt file (`.prompt.md`)",
            Schema::ClaudeCommand => "Claude Code command (`.claude/commands`)",
            Schema::Instructions => "Instructions (`.instructions.md`, `AGENTS.md`, ...)",
        }
    }

    pub const ALL: [Schema; 6] = [
        Schema::Copilot,
        Schema::Claude,
        Schema::Gemini,
        Schema::Prompt,
        Schema::ClaudeCommand,
        Schema::Instructions,
    ];
}

/// One frontmatter field of one format.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub schema: Schema,
    pub key: &'static str,
    pub ty: Ty,
    pub targets: Targets,
    /// What the field does, for the table.
    pub note: &'static str,
}

const fn f(
    schema: Schema,
    key: &'static str,
    ty: Ty,
    targets: Targets,
    note: &'static str,
) -> Field {
    Field {
        schema,
        key,
        ty,
        targets,
        note,
    }
}

use Schema as S;
use Targets as T;

/// Claude Code's `permissionMode` values.
pub const PERMISSION_MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "auto",
    "dontAsk",
    "bypassPermissions",
    "plan",
    "manual",
];

/// Every field of every format, one a line.
#[rustfmt::skip]
pub const FIELDS: &[Field] = &[
    // VS Code / GitHub Copilot custom agents.
    f(S::Copilot, "name", Ty::Str, T::Both, "display name; defaults to the file name (Waza: required, must match the file name)"),
    f(S::Copilot, "description", Ty::Str, T::Both, "required by the Copilot cloud agent and Waza"),
    f(S::Copilot, "argument-hint", Ty::Str, T::Local, "input hint; not accepted by Copilot"),
    f(S::Copilot, "tools", Ty::Tools, T::Both, "built-in aliases, `group/tool`, `<server>/*`, extension tools"),
    f(S::Copilot, "agents", Ty::Agents, T::Local, "allowed subagents (with the `agent` tool); not accepted by Copilot"),
    f(S::Copilot, "model", Ty::StrOrStrList, T::Both, "a model or a prioritised list"),
    f(S::Copilot, "model-policy", Ty::Enum(&["preferred", "required"]), T::Both, "Copilot editor schema; not forwarded for converted plugin agents"),
    f(S::Copilot, "user-invocable", Ty::Bool, T::Both, "`false` hides the agent from the picker"),
    f(S::Copilot, "user-invokable", Ty::Bool, T::Both, "older spelling of `user-invocable`"),
    f(S::Copilot, "disable-model-invocation", Ty::Bool, T::Both, "cannot be invoked as a subagent"),
    f(S::Copilot, "infer", Ty::Bool, T::Both, "deprecated (VS Code), retired (Copilot): `agent-field-ignored`"),
    f(S::Copilot, "target", Ty::Enum(&["vscode", "github-copilot"]), T::Both, "schema the file is read with; unset = both"),
    f(S::Copilot, "mcp-servers", Ty::McpServers, T::Copilot, "MCP servers of the agent; not accepted by VS Code's local harness"),
    f(S::Copilot, "handoffs", Ty::Handoffs, T::Local, "guided next steps; not accepted by Copilot"),
    f(S::Copilot, "hooks", Ty::Hooks, T::Both, "agent-scoped hooks"),
    f(S::Copilot, "skills", Ty::StrList, T::Copilot, "skills loaded into the agent's context; not accepted by VS Code's local harness"),
    f(S::Copilot, "github", Ty::Github, T::Both, "GitHub MCP `toolsets` and `permissions`"),
    f(S::Copilot, "metadata", Ty::StrMap, T::Both, "string map (Copilot cloud agent)"),
    f(S::Copilot, "advancedOptions", Ty::Map, T::Local, "VS Code options; not accepted by Copilot"),
    // Claude Code subagents.
    f(S::Claude, "name", Ty::Str, T::Both, "required; lowercase letters and hyphens"),
    f(S::Claude, "description", Ty::Str, T::Both, "required; when to delegate"),
    f(S::Claude, "tools", Ty::Tools, T::Both, "list or comma-separated string; all tools if omitted"),
    f(S::Claude, "disallowedTools", Ty::StrOrList, T::Both, "denylist"),
    f(S::Claude, "model", Ty::Str, T::Both, "`sonnet`, `opus`, `haiku`, `fable`, `inherit` or a `claude-…` id"),
    f(S::Claude, "permissionMode", Ty::Enum(PERMISSION_MODES), T::Both, "ignored in plugin agents"),
    f(S::Claude, "maxTurns", Ty::PositiveInt, T::Both, "turn limit"),
    f(S::Claude, "skills", Ty::StrOrList, T::Both, "skills to preload"),
    f(S::Claude, "mcpServers", Ty::McpServers, T::Both, "server names or inline configurations; ignored in plugin agents"),
    f(S::Claude, "hooks", Ty::Hooks, T::Both, "scoped lifecycle hooks; ignored in plugin agents"),
    f(S::Claude, "memory", Ty::Enum(&["user", "project", "local"]), T::Both, "persistent memory scope"),
    f(S::Claude, "background", Ty::Bool, T::Both, "runs in the background"),
    f(S::Claude, "effort", Ty::Enum(&["low", "medium", "high", "xhigh", "max"]), T::Both, "reasoning effort"),
    f(S::Claude, "isolation", Ty::Enum(&["worktree"]), T::Both, "runs in a git worktree"),
    f(S::Claude, "color", Ty::Str, T::Both, "`red`, `blue`, `green`, `yellow`, `purple`, `orange`, `pink`, `cyan` (others fall back; not reported)"),
    f(S::Claude, "initialPrompt", Ty::Str, T::Both, "first turn when run as the main agent"),
    // Gemini CLI subagents.
    f(S::Gemini, "name", Ty::Str, T::Both, "required slug of `a-z0-9-_`"),
    f(S::Gemini, "description", Ty::Str, T::Both, "required"),
    f(S::Gemini, "kind", Ty::Enum(&["local", "remote"]), T::Both, "local or remote agent"),
    f(S::Gemini, "tools", Ty::Tools, T::Both, "list of tool names"),
    f(S::Gemini, "model", Ty::Str, T::Both, "model id"),
    f(S::Gemini, "temperature", Ty::Number, T::Both, "sampling temperature"),
    f(S::Gemini, "max_turns", Ty::PositiveInt, T::Both, "turn limit"),
    f(S::Gemini, "timeout_mins", Ty::PositiveInt, T::Both, "time limit"),
    f(S::Gemini, "mcpServers", Ty::McpServers, T::Both, "MCP servers of the agent"),
    // Prompt files.
    f(S::Prompt, "description", Ty::Str, T::Both, "shown in the picker"),
    f(S::Prompt, "name", Ty::Str, T::Both, "defaults to the file name"),
    f(S::Prompt, "argument-hint", Ty::Str, T::Both, "input hint"),
    f(S::Prompt, "agent", Ty::Str, T::Both, "`ask`, `agent`, `plan` or a custom agent"),
    f(S::Prompt, "mode", Ty::Str, T::Both, "older name of `agent`"),
    f(S::Prompt, "model", Ty::Str, T::Both, "model name"),
    f(S::Prompt, "tools", Ty::Tools, T::Both, "list; overrides the agent's tools"),
    // Claude Code commands.
    f(S::ClaudeCommand, "description", Ty::Str, T::Both, "shown in `/help`"),
    f(S::ClaudeCommand, "allowed-tools", Ty::StrOrList, T::Both, "tools the command may use"),
    f(S::ClaudeCommand, "argument-hint", Ty::StrOrList, T::Both, "input hint; Claude Code's own examples write `[arg]`, which YAML reads as a list and Claude Code shows as text"),
    f(S::ClaudeCommand, "model", Ty::Str, T::Both, "model id"),
    f(S::ClaudeCommand, "disable-model-invocation", Ty::Bool, T::Both, "only the user runs it"),
    // Instructions.
    f(S::Instructions, "name", Ty::Str, T::Both, "display name"),
    f(S::Instructions, "description", Ty::Str, T::Both, "shown on hover"),
    f(S::Instructions, "applyTo", Ty::StrOrList, T::Both, "glob(s), relative to the workspace root"),
    f(S::Instructions, "excludeAgent", Ty::StrOrList, T::Both, "agents that skip the file"),
];

/// The field `key` of `format`, if the format has one.
pub fn field(format: Format, key: &str) -> Option<&'static Field> {
    let s = Schema::of(format)?;
    FIELDS.iter().find(|f| f.schema == s && f.key == key)
}

/// Does `format` have a schema (so unknown keys can be told)?
pub fn has_schema(format: Format) -> bool {
    Schema::of(format).is_some()
}

/// The field table of `docs/agents.md`.
pub fn markdown_table() -> String {
    let mut out = String::new();
    for s in Schema::ALL {
        out.push_str(&format!("**{}**\n\n", s.title()));
        out.push_str("| Field | Type / values | Targets | Note |\n|---|---|---|---|\n");
        for fl in FIELDS.iter().filter(|fl| fl.schema == s) {
            let targets = match (s, fl.targets) {
                (S::Copilot, T::Both) => "vscode, github-copilot",
                (S::Copilot, T::Local) => "vscode",
                (S::Copilot, T::Copilot) => "github-copilot",
                _ => "all",
            };
            out.push_str(&format!(
                "| `{}` | {} | {} | {} |\n",
                fl.key,
                fl.ty.describe(),
                targets,
                fl.note
            ));
        }
        out.push('\n');
    }
    out
}

/// Built-in agents the harnesses resolve by name: VS Code's and Copilot's `agent`, `ask`,
/// `edit` and `plan`, and Claude Code's `general-purpose`, `Explore` and `Plan`.
pub const BUILTIN_AGENTS: &[&str] = &[
    "agent",
    "ask",
    "edit",
    "plan",
    "Agent",
    "Ask",
    "Edit",
    "Plan",
    "general-purpose",
    "Explore",
];

/// Hook events of Claude Code, VS Code's agent hooks and GitHub Copilot (compared
/// case-insensitively: Copilot writes them in camelCase).
pub const HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "Notification",
    "UserPromptSubmit",
    "UserPromptSubmitted",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "Setup",
    "TeammateIdle",
    "TaskCompleted",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "Elicitation",
    "ElicitationResult",
    "ErrorOccurred",
    "AgentStop",
];

const HANDOFF_KEYS: &[&str] = &["label", "agent", "prompt", "send", "model", "name", "when"];
const SUBAGENT_KEYS: &[&str] = &["name", "scope"];
const SERVER_KEYS: &[&str] = &[
    "name",
    "type",
    "command",
    "args",
    "env",
    "envFile",
    "cwd",
    "url",
    "httpUrl",
    "headers",
    "tools",
    "includeTools",
    "excludeTools",
    "timeout",
    "trust",
    "description",
    "disabled",
    "oauth",
    "authProviderType",
];
const SERVER_TYPES: &[&str] = &["local", "stdio", "http", "sse", "streamable-http", "ws"];
const HOOK_ACTION_KEYS: &[&str] = &[
    "type",
    "command",
    "bash",
    "powershell",
    "windows",
    "linux",
    "osx",
    "url",
    "headers",
    "timeout",
    "timeoutSec",
    "cwd",
    "env",
    "prompt",
    "model",
    "statusMessage",
    "once",
    "async",
    "comment",
];
const HOOK_TYPES: &[&str] = &["command", "http", "prompt", "agent"];
const GITHUB_KEYS: &[&str] = &["toolsets", "permissions"];

/// Is this scalar a string for the harness (YAML 1.1's `yes`/`no` are strings in YAML 1.2)?
pub fn is_string(n: &Node) -> bool {
    matches!(
        &n.kind,
        NodeKind::Scalar {
            ty: ScalarType::Str | ScalarType::Bool11,
            ..
        }
    )
}

fn is_bool(n: &Node) -> bool {
    matches!(
        &n.kind,
        NodeKind::Scalar {
            ty: ScalarType::Bool,
            ..
        }
    )
}

fn is_scalar(n: &Node) -> bool {
    matches!(&n.kind, NodeKind::Scalar { .. }) && !n.is_null()
}

fn positive(n: &Node) -> bool {
    match &n.kind {
        NodeKind::Scalar {
            ty: ScalarType::Int | ScalarType::Float,
            text,
            ..
        } => text.trim().parse::<f64>().is_ok_and(|v| v > 0.0),
        _ => false,
    }
}

/// Has `s` the shape of a URL (`scheme://host…`), or is it a variable the harness fills in?
/// Only the shape is asked for, so a scheme and an authority are enough.
pub fn url_shaped(s: &str) -> bool {
    let s = s.trim();
    if s.starts_with("${") {
        return true;
    }
    let Some((scheme, rest)) = s.split_once("://") else {
        return false;
    };
    let scheme_ok = scheme
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    scheme_ok && !host.is_empty() && !s.chars().any(char::is_whitespace)
}

/// Walks the frontmatter of one file against its schema.
pub struct Checker<'c, 'a> {
    pub cx: &'c mut Cx<'a>,
    pub at: &'c dyn Fn(&Node) -> Location,
    pub format: Format,
}

impl Checker<'_, '_> {
    fn invalid(&mut self, n: &Node, path: &str, why: String) {
        let loc = (self.at)(n);
        self.cx
            .emit(AGENT_FIELD_INVALID, why, loc, &format!("field:{path}"));
    }

    fn unknown(&mut self, k: &Node, path: &str, known: &[&str]) {
        let key = k.as_str().unwrap_or("");
        let loc = (self.at)(k);
        self.cx.emit(
            AGENT_UNKNOWN_KEY,
            format!(
                "`{}` is not a key of `{}` (known: {}); the harness ignores it or refuses the entry. Remove it or fix its spelling.",
                sanitize_line(key),
                sanitize_line(path),
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            loc,
            &format!("key:{path}.{key}"),
        );
    }

    fn want(&mut self, n: &Node, path: &str, what: &str) {
        self.invalid(
            n,
            path,
            format!(
                "`{}` must be {what}, not {}; the harness drops or misreads it. Write {what}.",
                sanitize_line(path),
                Node::a_type(n)
            ),
        );
    }

    fn string(&mut self, n: &Node, path: &str) -> bool {
        if is_string(n) || n.is_null() {
            return true;
        }
        self.want(n, path, "a string");
        false
    }

    fn string_list(&mut self, n: &Node, path: &str) {
        match &n.kind {
            NodeKind::Seq { items, .. } => {
                for (i, it) in items.iter().enumerate() {
                    if !is_string(it) {
                        self.want(it, &format!("{path}[{i}]"), "a string");
                    }
                }
            }
            _ => self.want(n, path, "a list of strings"),
        }
    }

    fn keys(&mut self, n: &Node, path: &str, known: &[&str]) {
        if let NodeKind::Map { entries, .. } = &n.kind {
            for (k, _) in entries {
                match k.as_str() {
                    Some(key) if known.contains(&key) => {}
                    _ => self.unknown(k, path, known),
                }
            }
        }
    }

    /// Checks one value against its type; returns whether the value has the type.
    pub fn value(&mut self, n: &Node, path: &str, ty: Ty) -> bool {
        match ty {
            Ty::Str => return self.string(n, path),
            Ty::Bool => {
                if !is_bool(n) {
                    self.invalid(
                        n,
                        path,
                        format!(
                            "`{}` must be `true` or `false`, not {}. Write a YAML boolean.",
                            sanitize_line(path),
                            Node::a_type(n)
                        ),
                    );
                    return false;
                }
            }
            Ty::PositiveInt | Ty::Number => {
                let ok = if ty == Ty::Number {
                    matches!(
                        &n.kind,
                        NodeKind::Scalar {
                            ty: ScalarType::Int | ScalarType::Float,
                            ..
                        }
                    )
                } else {
                    positive(n)
                };
                if !ok {
                    let what = if ty == Ty::Number {
                        "a number"
                    } else {
                        "a number above zero"
                    };
                    self.invalid(
                        n,
                        path,
                        format!(
                            "`{}: {}` must be {what}. Fix the value.",
                            sanitize_line(path),
                            sanitize_line(n.as_str().unwrap_or(n.type_name()))
                        ),
                    );
                    return false;
                }
            }
            Ty::Enum(values) => {
                if !n.as_str().is_some_and(|s| values.contains(&s)) || !is_scalar(n) {
                    self.invalid(
                        n,
                        path,
                        format!(
                            "`{}` must be one of {}, not `{}`; the harness refuses or ignores other values.",
                            sanitize_line(path),
                            values
                                .iter()
                                .map(|v| format!("`{v}`"))
                                .collect::<Vec<_>>()
                                .join(", "),
                            sanitize_line(n.as_str().unwrap_or(n.type_name()))
                        ),
                    );
                    return false;
                }
            }
            Ty::StrList => {
                if !matches!(n.kind, NodeKind::Seq { .. }) {
                    self.want(n, path, "a list of strings");
                    return false;
                }
                self.string_list(n, path);
            }
            Ty::StrOrList | Ty::StrOrStrList => {
                if !is_string(n) {
                    if !matches!(n.kind, NodeKind::Seq { .. }) {
                        self.want(n, path, "a string or a list of strings");
                        return false;
                    }
                    self.string_list(n, path);
                }
            }
            Ty::StrMap => match &n.kind {
                NodeKind::Map { entries, .. } => {
                    for (k, v) in entries {
                        if !is_scalar(v) {
                            let key = k.as_str().unwrap_or("");
                            self.want(v, &format!("{path}.{key}"), "a string");
                        }
                    }
                }
                _ => {
                    self.want(n, path, "a mapping of strings");
                    return false;
                }
            },
            Ty::Map => {
                if !matches!(n.kind, NodeKind::Map { .. }) {
                    self.want(n, path, "a mapping");
                    return false;
                }
            }
            Ty::Tools => return self.tools(n, path),
            Ty::Agents => self.agents(n, path),
            Ty::Handoffs => self.handoffs(n, path),
            Ty::McpServers => self.servers(n, path),
            Ty::Hooks => self.hooks(n, path),
            Ty::Github => self.github(n, path),
        }
        true
    }

    /// `tools`: a list of strings; Claude Code and Copilot also take a comma-separated
    /// string. Returns whether the value has that shape.
    fn tools(&mut self, n: &Node, path: &str) -> bool {
        let string_ok = matches!(
            Schema::of(self.format),
            Some(Schema::Claude | Schema::Copilot)
        );
        match &n.kind {
            NodeKind::Seq { items, .. } => {
                let mut ok = true;
                for (i, it) in items.iter().enumerate() {
                    if !is_string(it) {
                        self.want(it, &format!("{path}[{i}]"), "a tool name (a string)");
                        ok = false;
                    }
                }
                ok
            }
            _ if string_ok && is_string(n) => true,
            _ => {
                self.invalid(
                    n,
                    path,
                    format!(
                        "`tools` must be a list of tool names{}, not {}; the harness ignores it and the agent gets its defaults.",
                        if string_ok {
                            " or a comma-separated string"
                        } else {
                            ""
                        },
                        Node::a_type(n)
                    ),
                );
                false
            }
        }
    }

    fn agents(&mut self, n: &Node, path: &str) {
        match &n.kind {
            NodeKind::Seq { items, .. } => {
                for (i, it) in items.iter().enumerate() {
                    let p = format!("{path}[{i}]");
                    match &it.kind {
                        NodeKind::Map { .. } => {
                            self.keys(it, &p, SUBAGENT_KEYS);
                            match it.get("name") {
                                Some(nm) => {
                                    self.string(nm, &format!("{p}.name"));
                                }
                                None => self.invalid(
                                    it,
                                    &p,
                                    format!("`{p}` names no agent: give it a `name`."),
                                ),
                            }
                            if let Some(s) = it.get("scope") {
                                self.string(s, &format!("{p}.scope"));
                            }
                        }
                        _ if is_string(it) => {}
                        _ => self.want(it, &p, "an agent name"),
                    }
                }
            }
            _ if n.as_str() == Some("*") && is_string(n) => {}
            _ => self.want(n, path, "a list of agent names, `*` or `[]`"),
        }
    }

    fn handoffs(&mut self, n: &Node, path: &str) {
        let NodeKind::Seq { items, .. } = &n.kind else {
            self.invalid(
                n,
                path,
                format!(
                    "`handoffs` must be a list of `{{label, agent, prompt, send, model}}`, not {}.",
                    Node::a_type(n)
                ),
            );
            return;
        };
        for (i, h) in items.iter().enumerate() {
            let p = format!("{path}[{i}]");
            if !matches!(h.kind, NodeKind::Map { .. }) {
                self.want(h, &p, "a mapping `{label, agent, prompt, send, model}`");
                continue;
            }
            self.keys(h, &p, HANDOFF_KEYS);
            for key in ["label", "agent", "prompt", "model", "name", "when"] {
                if let Some(v) = h.get(key) {
                    self.string(v, &format!("{p}.{key}"));
                }
            }
            if let Some(s) = h.get("send")
                && !is_bool(s)
            {
                self.invalid(
                    s,
                    &format!("{p}.send"),
                    "`send` must be `true` or `false`.".to_owned(),
                );
            }
            if h.get("agent").or_else(|| h.get("name")).is_none() {
                self.invalid(
                    h,
                    path,
                    "each handoff needs `label`, `agent` (the target agent's name) and `prompt`; this one names no agent, so it cannot be followed.".to_owned(),
                );
            }
        }
    }

    fn servers(&mut self, n: &Node, path: &str) {
        match &n.kind {
            NodeKind::Map { entries, .. } => {
                for (k, v) in entries {
                    let name = k.as_str().unwrap_or("");
                    self.server(v, &format!("{path}.{name}"), false);
                }
            }
            NodeKind::Seq { items, .. } => {
                for (i, it) in items.iter().enumerate() {
                    let p = format!("{path}[{i}]");
                    // Claude Code also takes the name of a server configured elsewhere.
                    if is_string(it) && Schema::of(self.format) == Some(Schema::Claude) {
                        continue;
                    }
                    self.server(it, &p, true);
                }
            }
            _ => self.invalid(
                n,
                path,
                format!(
                    "`{path}` must be a mapping of server names to MCP configurations (or a list of configurations with a `name`), not {}.",
                    Node::a_type(n)
                ),
            ),
        }
    }

    fn server(&mut self, s: &Node, p: &str, listed: bool) {
        if !matches!(s.kind, NodeKind::Map { .. }) {
            self.want(s, p, "an MCP server configuration (a mapping)");
            return;
        }
        self.keys(s, p, SERVER_KEYS);
        for key in ["command", "cwd", "envFile", "description", "name"] {
            if let Some(v) = s.get(key) {
                self.string(v, &format!("{p}.{key}"));
            }
        }
        if let Some(v) = s.get("type") {
            self.value(v, &format!("{p}.type"), Ty::Enum(SERVER_TYPES));
        }
        if let Some(v) = s.get("args") {
            match &v.kind {
                NodeKind::Seq { items, .. } => {
                    for (i, it) in items.iter().enumerate() {
                        if !is_scalar(it) {
                            self.want(it, &format!("{p}.args[{i}]"), "a string");
                        }
                    }
                }
                _ => self.want(v, &format!("{p}.args"), "a list of strings"),
            }
        }
        for key in ["env", "headers"] {
            if let Some(v) = s.get(key) {
                self.value(v, &format!("{p}.{key}"), Ty::StrMap);
            }
        }
        for key in ["tools", "includeTools", "excludeTools"] {
            if let Some(v) = s.get(key) {
                self.value(v, &format!("{p}.{key}"), Ty::StrList);
            }
        }
        if let Some(v) = s.get("timeout") {
            self.value(v, &format!("{p}.timeout"), Ty::PositiveInt);
        }
        for key in ["trust", "disabled"] {
            if let Some(v) = s.get(key) {
                self.value(v, &format!("{p}.{key}"), Ty::Bool);
            }
        }
        for key in ["url", "httpUrl"] {
            if let Some(v) = s.get(key) {
                self.url(v, &format!("{p}.{key}"));
            }
        }
        if s.get("command").is_none() && s.get("url").is_none() && s.get("httpUrl").is_none() {
            self.invalid(
                s,
                p,
                format!(
                    "the MCP server `{}` has neither a `command` nor a `url`, so the harness cannot start or reach it. Add one.",
                    sanitize_line(p)
                ),
            );
        }
        if listed && s.get("name").is_none() {
            self.invalid(
                s,
                p,
                format!(
                    "`{}` is in the list form of MCP servers without a `name`; the harness cannot tell it apart. Add `name:`.",
                    sanitize_line(p)
                ),
            );
        }
    }

    fn url(&mut self, v: &Node, path: &str) {
        if !self.string(v, path) {
            return;
        }
        if let Some(u) = v.as_str()
            && !url_shaped(u)
        {
            self.invalid(
                v,
                path,
                format!(
                    "`{}: {}` is not a URL (`scheme://host/…`); the harness cannot reach it. Write the full URL.",
                    sanitize_line(path),
                    sanitize_line(u)
                ),
            );
        }
    }

    fn hooks(&mut self, n: &Node, path: &str) {
        let NodeKind::Map { entries, .. } = &n.kind else {
            self.want(n, path, "a mapping of hook events to actions");
            return;
        };
        for (k, v) in entries {
            let event = k.as_str().unwrap_or("");
            let p = format!("{path}.{event}");
            if !HOOK_EVENTS.iter().any(|e| e.eq_ignore_ascii_case(event)) {
                self.invalid(
                    k,
                    &p,
                    format!(
                        "`{}` is not a hook event; the harness never fires it. Use one of {}.",
                        sanitize_line(event),
                        HOOK_EVENTS
                            .iter()
                            .take(10)
                            .map(|e| format!("`{e}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                            + ", …"
                    ),
                );
                continue;
            }
            match &v.kind {
                NodeKind::Seq { items, .. } => {
                    for (i, it) in items.iter().enumerate() {
                        self.hook_entry(it, &format!("{p}[{i}]"));
                    }
                }
                NodeKind::Map { .. } => self.hook_entry(v, &p),
                _ => self.want(v, &p, "a list of hook actions"),
            }
        }
    }

    /// A matcher group (`{matcher, hooks: [...]}`) or one action.
    fn hook_entry(&mut self, it: &Node, p: &str) {
        if !matches!(it.kind, NodeKind::Map { .. }) {
            self.want(it, p, "a hook action (a mapping)");
            return;
        }
        if it.get("hooks").is_some() || it.get("matcher").is_some() {
            self.keys(it, p, &["matcher", "hooks"]);
            if let Some(m) = it.get("matcher") {
                self.matcher(m, &format!("{p}.matcher"));
            }
            match it.get("hooks").map(|h| &h.kind) {
                Some(NodeKind::Seq { items, .. }) => {
                    for (i, a) in items.iter().enumerate() {
                        self.hook_action(a, &format!("{p}.hooks[{i}]"));
                    }
                }
                Some(_) => {
                    let h = it.get("hooks").expect("present");
                    self.want(h, &format!("{p}.hooks"), "a list of hook actions");
                }
                None => self.invalid(
                    it,
                    p,
                    format!(
                        "`{}` has a `matcher` but no `hooks`, so nothing runs. Add `hooks: [{{type: command, command: …}}]`.",
                        sanitize_line(p)
                    ),
                ),
            }
        } else {
            self.hook_action(it, p);
        }
    }

    fn matcher(&mut self, m: &Node, p: &str) {
        if !self.string(m, p) {
            return;
        }
        let Some(s) = m.as_str() else { return };
        if s.is_empty() || s == "*" {
            return;
        }
        // Harnesses read a matcher as a regular expression (or `|`-separated tool names,
        // which are one).
        let ok = regex::RegexBuilder::new(s)
            .size_limit(1 << 20)
            .build()
            .is_ok();
        if !ok {
            self.invalid(
                m,
                p,
                format!(
                    "the matcher `{}` is not a valid pattern, so the hook matches nothing. Use tool names separated by `|`, or a valid regular expression.",
                    sanitize_line(s)
                ),
            );
        }
    }

    fn hook_action(&mut self, a: &Node, p: &str) {
        if !matches!(a.kind, NodeKind::Map { .. }) {
            self.want(a, p, "a hook action (a mapping)");
            return;
        }
        self.keys(a, p, HOOK_ACTION_KEYS);
        let ty = a.get("type");
        if let Some(t) = ty {
            self.value(t, &format!("{p}.type"), Ty::Enum(HOOK_TYPES));
        }
        for key in [
            "command",
            "bash",
            "powershell",
            "windows",
            "linux",
            "osx",
            "prompt",
            "cwd",
            "statusMessage",
            "model",
        ] {
            if let Some(v) = a.get(key) {
                self.string(v, &format!("{p}.{key}"));
            }
        }
        for key in ["timeout", "timeoutSec"] {
            if let Some(v) = a.get(key) {
                self.value(v, &format!("{p}.{key}"), Ty::PositiveInt);
            }
        }
        for key in ["env", "headers"] {
            if let Some(v) = a.get(key) {
                self.value(v, &format!("{p}.{key}"), Ty::StrMap);
            }
        }
        if let Some(u) = a.get("url") {
            self.url(u, &format!("{p}.url"));
        }
        let has = |k: &str| a.get(k).is_some();
        let runs = ["command", "bash", "powershell", "windows", "linux", "osx"]
            .iter()
            .any(|k| has(k));
        let need = match ty.and_then(Node::as_str) {
            Some("http") if !has("url") => Some("`type: http` needs a `url`"),
            Some("prompt" | "agent") if !has("prompt") => Some("this hook type needs a `prompt`"),
            Some("command") | None if !runs && !has("url") && !has("prompt") => {
                Some("a command hook needs a `command` (or `bash`/`powershell`)")
            }
            _ => None,
        };
        if let Some(need) = need {
            self.invalid(
                a,
                p,
                format!(
                    "`{}`: {need}, so it does nothing. Add it.",
                    sanitize_line(p)
                ),
            );
        }
    }

    fn github(&mut self, n: &Node, path: &str) {
        if !matches!(n.kind, NodeKind::Map { .. }) {
            self.want(n, path, "a mapping `{toolsets, permissions}`");
            return;
        }
        self.keys(n, path, GITHUB_KEYS);
        if let Some(t) = n.get("toolsets") {
            self.value(t, &format!("{path}.toolsets"), Ty::StrList);
        }
        if let Some(p) = n.get("permissions") {
            self.value(p, &format!("{path}.permissions"), Ty::StrMap);
        }
    }
}

/// Checks every top-level field of `root` (a mapping) against the format's schema: unknown
/// keys, types down to the leaves, and fields the file's `target` does not read.
pub fn check(format: Format, root: &Node, cx: &mut Cx<'_>, at: &dyn Fn(&Node) -> Location) {
    let Some(schema) = Schema::of(format) else {
        return;
    };
    let NodeKind::Map { entries, .. } = &root.kind else {
        return;
    };
    let target = root
        .get("target")
        .filter(|t| is_string(t))
        .and_then(Node::as_str);
    let mut ck = Checker { cx, at, format };
    for (k, v) in entries {
        let Some(key) = k.as_str() else { continue };
        let Some(fl) = FIELDS.iter().find(|f| f.schema == schema && f.key == key) else {
            let loc = at(k);
            ck.cx.emit(
                AGENT_UNKNOWN_KEY,
                format!(
                    "`{}` is not a field of {} file; the harness ignores it. Remove it or move it into the body.",
                    sanitize_line(key),
                    crate::text::with_article(format.as_str())
                ),
                loc,
                &format!("key:{key}"),
            );
            continue;
        };
        if v.is_null() {
            continue;
        }
        let refused = match (fl.targets, target) {
            (T::Local, Some("github-copilot")) => Some(("github-copilot", "Copilot")),
            (T::Copilot, Some("vscode")) => Some(("vscode", "VS Code's local harness")),
            _ => None,
        };
        if let Some((t, who)) = refused {
            let loc = at(k);
            ck.cx.emit(
                AGENT_FIELD_IGNORED,
                format!(
                    "`{key}` is not accepted by {who}, and this agent has `target: {t}`, so the setting never applies. Remove it, or change the target."
                ),
                loc,
                &format!("field:{key}"),
            );
            continue;
        }
        ck.value(v, key, fl.ty);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_lists_its_fields_once() {
        for s in Schema::ALL {
            let keys: Vec<_> = FIELDS
                .iter()
                .filter(|f| f.schema == s)
                .map(|f| f.key)
                .collect();
            let set: std::collections::BTreeSet<_> = keys.iter().collect();
            assert_eq!(keys.len(), set.len(), "{s:?} lists a field twice");
            assert!(keys.contains(&"description"), "{s:?}");
        }
    }

    #[test]
    fn copilot_target_split() {
        let t = |k: &str| field(Format::CopilotAgent, k).map(|f| f.targets);
        assert_eq!(t("handoffs"), Some(Targets::Local));
        assert_eq!(t("agents"), Some(Targets::Local));
        assert_eq!(t("argument-hint"), Some(Targets::Local));
        assert_eq!(t("advancedOptions"), Some(Targets::Local));
        assert_eq!(t("mcp-servers"), Some(Targets::Copilot));
        assert_eq!(t("skills"), Some(Targets::Copilot));
        assert_eq!(t("model-policy"), Some(Targets::Both));
        assert_eq!(t("github"), Some(Targets::Both));
        assert_eq!(t("nonsense"), None);
    }

    #[test]
    fn urls() {
        assert!(url_shaped("https://example.com/mcp"));
        assert!(url_shaped("sse://internal-tools.example.com"));
        assert!(url_shaped("${input:url}"));
        assert!(!url_shaped("not a url"));
        assert!(!url_shaped("example.com"));
        assert!(!url_shaped("http://"));
    }
}
