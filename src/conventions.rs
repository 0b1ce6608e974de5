//! Where harnesses look for skills inside a repository: one data table.
//!
//! `docs/discovery.md` documents the same table; a test keeps them in sync.

/// One skills directory convention, relative to a repository root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Convention {
    /// Path relative to the repository root; a `*` segment matches one directory level.
    pub path: &'static str,
    /// Harnesses documented to read skills from this path.
    pub harnesses: &'static [&'static str],
    /// Short provenance note.
    pub note: &'static str,
}

/// Conventions for the extra skills roots of `.skillguard.toml` (`[scan] roots`). Made once
/// per run from the configuration (bounded by its size), so they live as long as the table.
pub fn configured(paths: &[&str]) -> &'static [Convention] {
    let v: Vec<Convention> = paths
        .iter()
        .map(|p| Convention {
            path: Box::leak(p.trim_end_matches('/').to_owned().into_boxed_str()),
            harnesses: &[],
            note: "configured in .skillguard.toml ([scan] roots)",
        })
        .collect();
    Box::leak(v.into_boxed_slice())
}

/// Every convention `--repo` scans, in a fixed order (longest specific paths last
/// is irrelevant: attribution always picks the most specific matching root).
pub const CONVENTIONS: &[Convention] = &[
    Convention {
        path: ".agents/skills",
        harnesses: &[
            "Codex",
            "Cursor",
            "Gemini CLI",
            "OpenCode",
            "Goose",
            "VS Code / GitHub Copilot",
            "Copilot CLI",
            "Amp",
        ],
        note: "cross-client convention of the Agent Skills client guide",
    },
    Convention {
        path: ".claude/skills",
        harnesses: &[
            "Claude Code",
            "VS Code / GitHub Copilot",
            "Copilot CLI",
            "Cursor",
            "OpenCode",
            "Goose",
            "Amp",
        ],
        note: "Claude Code project skills; read by many others for compatibility",
    },
    Convention {
        path: ".github/skills",
        harnesses: &[
            "VS Code / GitHub Copilot",
            "Copilot CLI",
            "Copilot cloud agent",
        ],
        note: "GitHub Copilot project skills",
    },
    Convention {
        path: ".codex/skills",
        harnesses: &["Codex (legacy)", "Cursor"],
        note: "Codex documentation before 2026; Cursor reads it for compatibility",
    },
    Convention {
        path: ".cursor/skills",
        harnesses: &["Cursor"],
        note: "Cursor project skills (category sub-folders allowed)",
    },
    Convention {
        path: ".gemini/skills",
        harnesses: &["Gemini CLI"],
        note: "Gemini CLI workspace skills",
    },
    Convention {
        path: ".opencode/skills",
        harnesses: &["OpenCode"],
        note: "OpenCode project skills",
    },
    Convention {
        path: ".opencode/skill",
        harnesses: &["OpenCode (older releases)"],
        note: "singular form used by early OpenCode releases",
    },
    Convention {
        path: ".windsurf/skills",
        harnesses: &["Windsurf / Cascade"],
        note: "Windsurf project skills",
    },
    Convention {
        path: ".roo/skills",
        harnesses: &["Roo Code"],
        note: "listed by AgentEval and the vercel-labs/skills installer",
    },
    Convention {
        path: ".continue/skills",
        harnesses: &["Continue"],
        note: "listed by AgentEval and the vercel-labs/skills installer",
    },
    Convention {
        path: ".augment/skills",
        harnesses: &["Augment"],
        note: "listed by AgentEval and the vercel-labs/skills installer",
    },
    Convention {
        path: ".codeium/skills",
        harnesses: &["Codeium"],
        note: "listed by AgentEval",
    },
    Convention {
        path: ".goose/skills",
        harnesses: &["Goose (back-compat)"],
        note: "Goose reads it besides .agents/skills",
    },
    Convention {
        path: ".kiro/skills",
        harnesses: &["Kiro"],
        note: "vercel-labs/skills installer target for kiro-cli",
    },
    Convention {
        path: ".agent/skills",
        harnesses: &["Antigravity"],
        note: "singular `.agent`, vercel-labs/skills installer target for antigravity",
    },
    Convention {
        path: "skills",
        harnesses: &[
            "Claude Code plugins (root with .claude-plugin/)",
            "vercel-labs/skills installer",
            "OpenClaw",
        ],
        note: "bare fallback; a Claude Code plugin or marketplace root keeps its skills here",
    },
    Convention {
        path: "skills/.system",
        harnesses: &[
            "Codex (bundled system skills)",
            "vercel-labs/skills installer",
        ],
        note: "hidden tier used by openai/skills",
    },
    Convention {
        path: "skills/.curated",
        harnesses: &["Codex", "vercel-labs/skills installer"],
        note: "hidden tier used by openai/skills",
    },
    Convention {
        path: "skills/.experimental",
        harnesses: &["Codex", "vercel-labs/skills installer"],
        note: "hidden tier used by openai/skills",
    },
    Convention {
        path: "plugins/*/skills",
        harnesses: &["Claude Code plugins in a marketplace repository"],
        note: "each `plugins/<plugin>/` is a Claude Code plugin",
    },
    Convention {
        path: "<plugin>/skills",
        harnesses: &["Claude Code plugins"],
        note: "any folder holding `.claude-plugin/plugin.json`, or listed as a plugin `source` in the root `.claude-plugin/marketplace.json`, is a plugin root; found after the walk",
    },
    Convention {
        path: "plugins/*/.claude-plugin/skills",
        harnesses: &["Claude Code (misplaced)"],
        note: "only plugin.json belongs in .claude-plugin/; skills here are NOT loaded — scanned so they are reported",
    },
];

/// The convention of skills under a plugin root found from its manifest.
pub fn plugin() -> &'static Convention {
    by_path(PLUGIN).expect("plugin convention in the table")
}

/// Path of the manifest-derived plugin convention (not expanded by the planner).
pub const PLUGIN: &str = "<plugin>/skills";

/// Looks up a convention by its path.
pub fn by_path(path: &str) -> Option<&'static Convention> {
    CONVENTIONS.iter().find(|c| c.path == path)
}

/// Does `rel` (a concrete path) match the convention pattern `pattern`?
pub fn matches(pattern: &str, rel: &str) -> bool {
    let p: Vec<&str> = pattern.split('/').collect();
    let r: Vec<&str> = rel.split('/').collect();
    p.len() == r.len() && p.iter().zip(&r).all(|(a, b)| *a == "*" || a == b)
}

/// How much of an agent's body the GitHub Copilot cloud agent reads (characters).
pub const COPILOT_BODY_LIMIT: usize = 30_000;

/// What kind of customisation file an artefact convention finds, and whose format it follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// VS Code / GitHub Copilot custom agent (`.agent.md`, `.github/agents/*.md`).
    CopilotAgent,
    /// Claude Code project subagent (`.claude/agents/**/*.md`).
    ClaudeAgent,
    /// Claude Code plugin subagent (`<plugin>/agents/**/*.md`): `hooks`, `mcpServers` and
    /// `permissionMode` are ignored by the harness.
    PluginAgent,
    /// Gemini CLI subagent (`.gemini/agents/*.md`).
    GeminiAgent,
    /// Legacy VS Code chat mode (`*.chatmode.md`), to be renamed `.agent.md`.
    ChatMode,
    /// VS Code prompt file (`.github/prompts/*.prompt.md`).
    Prompt,
    /// Claude Code slash command (`.claude/commands/**/*.md`).
    ClaudeCommand,
    /// Instruction file (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, Copilot instructions).
    Instructions,
    /// MCP server configuration (`.mcp.json`, `.vscode/mcp.json`).
    McpConfig,
    /// Hook configuration (`hooks/hooks.json`, `.github/hooks/*.json`).
    Hooks,
    /// Harness settings read from the repository (`.claude/settings.json`, ...): hooks and
    /// MCP servers inside.
    Settings,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::CopilotAgent => "copilot-agent",
            Format::ClaudeAgent => "claude-agent",
            Format::PluginAgent => "plugin-agent",
            Format::GeminiAgent => "gemini-agent",
            Format::ChatMode => "chatmode",
            Format::Prompt => "prompt",
            Format::ClaudeCommand => "claude-command",
            Format::Instructions => "instructions",
            Format::McpConfig => "mcp-config",
            Format::Hooks => "hooks",
            Format::Settings => "settings",
        }
    }

    /// Markdown with optional YAML frontmatter (else JSON).
    pub fn is_markdown(self) -> bool {
        !matches!(self, Format::McpConfig | Format::Hooks | Format::Settings)
    }

    /// A custom agent of some harness.
    pub fn is_agent(self) -> bool {
        matches!(
            self,
            Format::CopilotAgent
                | Format::ClaudeAgent
                | Format::PluginAgent
                | Format::GeminiAgent
                | Format::ChatMode
        )
    }
}

/// One customisation-artefact convention: a path pattern relative to a repository root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArtefactConvention {
    /// Glob relative to the repository root (`*` one name, `**` any folders; `**/` first =
    /// at any depth). `<plugin>/` = under a Claude Code plugin root.
    pub pattern: &'static str,
    pub format: Format,
    /// Harnesses documented to read it.
    pub harnesses: &'static [&'static str],
    pub note: &'static str,
}

/// Agents, prompts, instructions, MCP and hook configurations, in precedence order: a file
/// is attributed to the first pattern it matches (`docs/agents.md` documents the table; a
/// test keeps them in sync).
pub const ARTEFACTS: &[ArtefactConvention] = &[
    ArtefactConvention {
        pattern: ".github/agents/*.md",
        format: Format::CopilotAgent,
        harnesses: &[
            "VS Code / GitHub Copilot",
            "Copilot cloud agent",
            "Copilot CLI",
        ],
        note: "`*.agent.md` and any `.md` in `.github/agents` are detected",
    },
    ArtefactConvention {
        pattern: "**/.claude/agents/**/*.md",
        format: Format::ClaudeAgent,
        harnesses: &["Claude Code", "VS Code / GitHub Copilot"],
        note: "recursive; every `.claude/agents` from the working directory up to the repository root, closest wins",
    },
    ArtefactConvention {
        pattern: "<plugin>/agents/**/*.md",
        format: Format::PluginAgent,
        harnesses: &["Claude Code plugins"],
        note: "a plugin root holds `.claude-plugin/plugin.json` or is listed in the marketplace; `hooks`, `mcpServers` and `permissionMode` are ignored",
    },
    ArtefactConvention {
        pattern: ".gemini/agents/*.md",
        format: Format::GeminiAgent,
        harnesses: &["Gemini CLI"],
        note: "Gemini CLI local subagents",
    },
    ArtefactConvention {
        pattern: "**/*.agent.md",
        format: Format::CopilotAgent,
        harnesses: &["Waza", "VS Code (`chat.agentFilesLocations`)"],
        note: "`agents/*.agent.md` and an `.agent.md` beside or instead of a `SKILL.md` (Waza: `SKILL.md` wins in the same folder)",
    },
    ArtefactConvention {
        pattern: "**/*.chatmode.md",
        format: Format::ChatMode,
        harnesses: &["VS Code (legacy)"],
        note: "legacy chat modes; rename to `.agent.md`",
    },
    ArtefactConvention {
        pattern: ".github/prompts/**/*.prompt.md",
        format: Format::Prompt,
        harnesses: &["VS Code / GitHub Copilot"],
        note: "prompt files",
    },
    ArtefactConvention {
        pattern: "**/.claude/commands/**/*.md",
        format: Format::ClaudeCommand,
        harnesses: &["Claude Code"],
        note: "project slash commands",
    },
    ArtefactConvention {
        pattern: ".github/copilot-instructions.md",
        format: Format::Instructions,
        harnesses: &[
            "VS Code / GitHub Copilot",
            "Copilot cloud agent",
            "Copilot CLI",
        ],
        note: "repository-wide Copilot instructions",
    },
    ArtefactConvention {
        pattern: ".github/instructions/**/*.instructions.md",
        format: Format::Instructions,
        harnesses: &["VS Code / GitHub Copilot", "Copilot cloud agent"],
        note: "path-specific instructions (`applyTo`)",
    },
    ArtefactConvention {
        pattern: "**/AGENTS.md",
        format: Format::Instructions,
        harnesses: &[
            "Codex",
            "VS Code / GitHub Copilot",
            "Copilot cloud agent",
            "Cursor",
            "OpenCode",
            "Amp",
        ],
        note: "nested files apply to their folder",
    },
    ArtefactConvention {
        pattern: "**/CLAUDE.md",
        format: Format::Instructions,
        harnesses: &["Claude Code", "VS Code / GitHub Copilot"],
        note: "nested files load when Claude works in their folder",
    },
    ArtefactConvention {
        pattern: "**/CLAUDE.local.md",
        format: Format::Instructions,
        harnesses: &["Claude Code"],
        note: "personal project instructions (usually git-ignored)",
    },
    ArtefactConvention {
        pattern: "**/GEMINI.md",
        format: Format::Instructions,
        harnesses: &["Gemini CLI"],
        note: "Gemini CLI context file",
    },
    ArtefactConvention {
        pattern: "**/.mcp.json",
        format: Format::McpConfig,
        harnesses: &[
            "Claude Code",
            "VS Code / GitHub Copilot",
            "Claude Code plugins",
        ],
        note: "`mcpServers`; plugin MCP servers are implicitly trusted",
    },
    ArtefactConvention {
        pattern: ".vscode/mcp.json",
        format: Format::McpConfig,
        harnesses: &["VS Code / GitHub Copilot"],
        note: "`servers`",
    },
    ArtefactConvention {
        pattern: ".cursor/mcp.json",
        format: Format::McpConfig,
        harnesses: &["Cursor"],
        note: "`mcpServers`",
    },
    ArtefactConvention {
        pattern: ".roo/mcp.json",
        format: Format::McpConfig,
        harnesses: &["Roo Code"],
        note: "`mcpServers`",
    },
    ArtefactConvention {
        pattern: ".kiro/settings/mcp.json",
        format: Format::McpConfig,
        harnesses: &["Kiro"],
        note: "`mcpServers`",
    },
    ArtefactConvention {
        pattern: ".codex/config.toml",
        format: Format::McpConfig,
        harnesses: &["Codex"],
        note: "`[mcp_servers.*]`, `approval_policy`, `sandbox_mode` (read for trusted projects)",
    },
    ArtefactConvention {
        pattern: "**/hooks/hooks.json",
        format: Format::Hooks,
        harnesses: &["Claude Code plugins"],
        note: "plugin hooks",
    },
    ArtefactConvention {
        pattern: ".github/hooks/*.json",
        format: Format::Hooks,
        harnesses: &["GitHub Copilot"],
        note: "Copilot hooks",
    },
    ArtefactConvention {
        pattern: "**/hooks.json",
        format: Format::Hooks,
        harnesses: &["GitHub Copilot", "Claude Code plugins"],
        note: "hook configuration",
    },
    ArtefactConvention {
        pattern: "**/.claude-plugin/plugin.json",
        format: Format::Settings,
        harnesses: &["Claude Code plugins"],
        note: "plugin manifest: inline `hooks` and `mcpServers` (a path value names a file read under its own convention)",
    },
    ArtefactConvention {
        pattern: "**/.claude/settings.json",
        format: Format::Settings,
        harnesses: &["Claude Code"],
        note: "project settings: `hooks`, `permissions`, MCP servers",
    },
    ArtefactConvention {
        pattern: "**/.claude/settings.local.json",
        format: Format::Settings,
        harnesses: &["Claude Code"],
        note: "local project settings",
    },
    ArtefactConvention {
        pattern: ".vscode/settings.json",
        format: Format::Settings,
        harnesses: &["VS Code / GitHub Copilot"],
        note: "workspace settings: `chat.tools.global.autoApprove`",
    },
    ArtefactConvention {
        pattern: ".gemini/settings.json",
        format: Format::Settings,
        harnesses: &["Gemini CLI"],
        note: "workspace settings: `mcpServers`, `hooks`",
    },
];

/// Could `rel` be an eval file, by its path alone: one of the eval file names (agent-evals'
/// `evals.json`, Waza's `eval.yaml`, skill-creator's `trigger_tests.yaml`) or a YAML file
/// directly in a folder named `evals` (Waza's loose layout, told by its content). The skill
/// reader keeps such files' bytes for the eval check, so that they are read once.
pub fn may_be_eval_file(rel: &str) -> bool {
    let (dir, name) = rel.rsplit_once('/').unwrap_or(("", rel));
    let folder = dir.rsplit('/').next().unwrap_or(dir);
    matches!(
        name,
        "evals.json" | "eval.yaml" | "eval.yml" | "trigger_tests.yaml" | "trigger_tests.yml"
    ) || (folder == "evals" && (name.ends_with(".yaml") || name.ends_with(".yml")))
}

/// Is the JSON file at `rel` JSONC? VS Code reads its workspace configuration files
/// (`.vscode/*.json`: `mcp.json`, `settings.json`) and Gemini CLI its `.gemini/settings.json`
/// as JSON with comments and trailing commas (docs/agents.md); every other harness reads
/// strict JSON.
pub fn is_jsonc(rel: &str) -> bool {
    let mut parts = rel.rsplit('/');
    let name = parts.next().unwrap_or("");
    match parts.next() {
        Some(".vscode") => name.ends_with(".json"),
        Some(".gemini") => name == "settings.json",
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_and_matching() {
        let mut seen = std::collections::BTreeSet::new();
        for c in CONVENTIONS {
            assert!(seen.insert(c.path), "duplicate {}", c.path);
            assert!(!c.harnesses.is_empty());
        }
        assert!(matches("plugins/*/skills", "plugins/x/skills"));
        assert!(!matches("plugins/*/skills", "plugins/x/y/skills"));
        for required in [
            ".agents/skills",
            ".claude/skills",
            ".github/skills",
            ".codex/skills",
            ".cursor/skills",
            ".gemini/skills",
            ".opencode/skills",
            ".opencode/skill",
            ".windsurf/skills",
            ".roo/skills",
            ".continue/skills",
            ".augment/skills",
            ".codeium/skills",
            ".goose/skills",
            ".kiro/skills",
            ".agent/skills",
            "skills",
            "skills/.system",
            "skills/.curated",
            "skills/.experimental",
            "plugins/*/skills",
        ] {
            assert!(by_path(required).is_some(), "{required}");
        }
    }

    #[test]
    fn vscode_files_are_jsonc() {
        assert!(is_jsonc(".vscode/mcp.json"));
        assert!(is_jsonc("repo/.vscode/settings.json"));
        assert!(!is_jsonc(".mcp.json"));
        assert!(!is_jsonc(".vscode/x/mcp.json"));
        assert!(!is_jsonc(".claude/settings.json"));
    }
}
