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
}
