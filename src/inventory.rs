//! The inventory model: artifacts (skills today; custom agents, prompt and
//! instruction files and plugin manifests later) and the files that make them up.

use serde::{Deserialize, Serialize};

/// Kind of customization artifact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArtifactKind {
    /// A folder holding `SKILL.md`.
    Skill,
    /// A custom agent: `.github/agents/*.agent.md`, `.claude/agents/**/*.md`, plugin
    /// `agents/`, `.gemini/agents/*.md`, `*.chatmode.md`.
    Agent,
    /// `.github/prompts/*.prompt.md`, `.claude/commands/**/*.md`.
    Prompt,
    /// `AGENTS.md`, `CLAUDE.md`, `GEMINI.md`, Copilot instruction files.
    Instructions,
    /// `.mcp.json`, `.vscode/mcp.json`, MCP servers in harness settings.
    McpConfig,
    /// `hooks/hooks.json`, `hooks.json`, hooks in harness settings.
    Hooks,
}

impl ArtifactKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ArtifactKind::Skill => "skill",
            ArtifactKind::Agent => "agent",
            ArtifactKind::Prompt => "prompt",
            ArtifactKind::Instructions => "instructions",
            ArtifactKind::McpConfig => "mcp-config",
            ArtifactKind::Hooks => "hooks",
        }
    }

    /// The kind of an [`ArtifactKind::as_str`] name.
    pub fn parse(s: &str) -> Option<ArtifactKind> {
        ArtifactKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// How messages name an artefact of this kind.
    pub fn noun(self) -> &'static str {
        match self {
            ArtifactKind::Skill => "skill",
            ArtifactKind::Agent => "agent",
            ArtifactKind::Prompt => "prompt",
            ArtifactKind::Instructions => "instructions file",
            ArtifactKind::McpConfig => "MCP configuration",
            ArtifactKind::Hooks => "hook configuration",
        }
    }

    /// Is an artefact of this kind known by its name wherever it is (skills, agents,
    /// prompts), rather than only by its location (instruction, MCP and hook files share
    /// their file names: every `AGENTS.md`, every `hooks.json`)?
    pub fn named(self) -> bool {
        matches!(
            self,
            ArtifactKind::Skill | ArtifactKind::Agent | ArtifactKind::Prompt
        )
    }

    /// Every kind, in report order.
    pub const ALL: [ArtifactKind; 6] = [
        ArtifactKind::Skill,
        ArtifactKind::Agent,
        ArtifactKind::Prompt,
        ArtifactKind::Instructions,
        ArtifactKind::McpConfig,
        ArtifactKind::Hooks,
    ];
}

/// What a file is, from its name and its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// The artifact's entry file (`SKILL.md`).
    Entry,
    Markdown,
    Script,
    /// Structured text: JSON, YAML, TOML, CSV, XML.
    Data,
    Text,
    /// ELF, PE or Mach-O executable, or other binary content.
    Binary,
    Archive,
    Symlink,
    /// FIFO, socket or device (never opened).
    Special,
    /// Not read (too large, unreadable).
    Unknown,
}

impl FileKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Entry => "entry",
            FileKind::Markdown => "markdown",
            FileKind::Script => "script",
            FileKind::Data => "data",
            FileKind::Text => "text",
            FileKind::Binary => "binary",
            FileKind::Archive => "archive",
            FileKind::Symlink => "symlink",
            FileKind::Special => "special",
            FileKind::Unknown => "unknown",
        }
    }
}

/// Where a symbolic link points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymlinkInfo {
    /// The link text as stored (lossy UTF-8).
    pub target: String,
    pub state: LinkState,
    /// Resolved target relative to the scanned root, when it stays inside it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
    pub target_is_dir: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LinkState {
    /// Resolves inside the scanned root.
    Inside,
    /// Resolves outside the scanned root (never followed).
    EscapesRoot,
    /// Target does not exist.
    Dangling,
    /// Target is an ancestor of the link, or resolution loops.
    Loop,
}

/// One file of an artifact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Path relative to the artifact's directory, `/`-separated.
    pub path: String,
    pub size: u64,
    pub kind: FileKind,
    pub executable: bool,
    /// Lowercase hex SHA-256 of the bytes; absent when the file could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// SHA-256 with every CRLF read as LF, for text files that contain CRLF (baselines
    /// with `--normalize-eol`).
    #[serde(skip)]
    pub sha256_lf: Option<String>,
    /// One hash per line (text files, only when a baseline is written).
    #[serde(skip)]
    pub line_hashes: Option<std::sync::Arc<[u32]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symlink: Option<SymlinkInfo>,
    /// Reached through a symlinked folder inside the skill.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub via_link: bool,
}

/// A discovered artifact and its inventory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Artifact {
    pub kind: ArtifactKind,
    /// Directory relative to the scan base, `/`-separated.
    pub path: String,
    /// Repository folder (workspace scans).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo: Option<String>,
    /// Convention path (`.claude/skills`, ...), if discovered through one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub convention: Option<String>,
    /// The concrete folder of that convention (`plugins/web/skills`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub convention_root: Option<String>,
    /// Entry file name inside the directory (`SKILL.md`, or a variant such as `skill.md`).
    pub entry: String,
    /// Frontmatter `name` when readable, else the directory name.
    pub name: String,
    pub dir_name: String,
    /// Parsed frontmatter as JSON (null when it could not be read).
    pub frontmatter: serde_json::Value,
    /// True when a strict loader would not load this skill.
    pub excluded: bool,
    /// The skill directory itself is a symbolic link.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symlink: Option<SymlinkInfo>,
    /// Directory of the enclosing skill, for nested skills.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nested_in: Option<String>,
    pub files: Vec<FileEntry>,
    /// AgentEval's structural fingerprint (name, description, resource and script names,
    /// allowed tools, compatibility length); see `skill_hashes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structural_fingerprint: Option<String>,
    /// AgentEval's folder content hash, under the scan's hash options.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_hash: Option<String>,
    /// Why the content hash is absent: some of the skill's files could not be walked or read
    /// (a walk bound, an unreadable file or folder, a file over the hash limit), so no hash
    /// can vouch for the whole skill.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash_incomplete: Option<String>,
    /// Skills: the content hash exactly as AgentEval computes it (`SkillContentHasher`): every
    /// file under the folder, the files of nested skills included, byte-exact whatever the
    /// scan's hash options. Compared with hashes AgentEval recorded (imported snapshots and
    /// pins); `content_hash` (nested skills left out) serves skillguard's own drift checks.
    /// See `skill_hashes::agenteval_hashes` and docs/baselines.md, "Two content hashes".
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agenteval_content_hash: Option<String>,
    /// Why `agenteval_content_hash` is absent from a skill: a file AgentEval would read cannot
    /// be read as AgentEval reads it without leaving the scan root or blocking (a link out of
    /// the root, a dangling or looping link, a FIFO), or `hash_incomplete` holds for the skill
    /// or one of its nested skills.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agenteval_hash_incomplete: Option<String>,
    /// Where the skill came from, per `skills-lock.json`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
    /// How each harness profile loads this skill (the loader matrix). Not serialised with
    /// the artifact: the JSON report's entry (`report::model::Entry`) writes it after the
    /// fields above and reads it back, its profile ids looked up among the loaders.
    #[serde(skip)]
    pub loaders: Vec<LoaderVerdict>,
    /// Agents, prompts, instructions, MCP and hook files: the format of the file
    /// (`copilot-agent`, `claude-agent`, ...; `conventions::Format`). Serialised by the
    /// report's entry too, after `loaders`.
    #[serde(skip)]
    pub format: Option<String>,
}

/// An eval file and what it evaluates (`crate::evalfiles`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvalFileInfo {
    /// Relative to the scan base.
    pub path: String,
    /// `agent-evals`, `skill-creator`, `waza`, `trigger-tests` or `notes`.
    pub format: String,
    /// The skill folder or agent file it evaluates, when one could be told.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target: Option<String>,
    /// `skill` or `agent`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target_kind: Option<String>,
    /// The name the file gives (or the target's name).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub target_name: Option<String>,
    /// The skills or agents its target name designates when it designates more than one
    /// (`eval-target-ambiguous`); it then has no `target`.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub candidates: Vec<String>,
    /// Cases (agent-evals cases, skill-creator evals, Waza tasks, trigger prompts).
    pub cases: usize,
    pub capability: usize,
    pub regression: usize,
    pub should_trigger: usize,
    pub should_not_trigger: usize,
    /// Graders or matchers (`deterministic:regex`, `text:identifies_issues`, ...).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub graders: Vec<String>,
    /// Waza task files its `tasks` globs match.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub task_files: Vec<String>,
    /// No finding against the file itself.
    pub valid: bool,
}

impl EvalFileInfo {
    /// Counts toward coverage: a valid eval file with at least one case (`notes-evals.md`
    /// alone does not).
    pub fn counts(&self) -> bool {
        self.valid && self.cases > 0 && self.format != "notes"
    }
}

/// Provenance of a skill as recorded in a `skills-lock.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Provenance {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub source_url: Option<String>,
    #[serde(rename = "ref", skip_serializing_if = "Option::is_none", default)]
    pub git_ref: Option<String>,
    /// The lock file, relative to the scan base (`/`-separated, may start with `../`).
    pub lock: String,
}

impl Provenance {
    /// `source[@ref]` (or the URL when there is no source).
    pub fn label(&self) -> String {
        let base = self
            .source
            .as_deref()
            .or(self.source_url.as_deref())
            .unwrap_or("?");
        match &self.git_ref {
            Some(r) => format!("{base}@{r}"),
            None => base.to_owned(),
        }
    }
}

/// One cell of the loader matrix (in the JSON report: `report::model::Loader`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoaderVerdict {
    pub profile: &'static str,
    pub status: LoadStatus,
    /// Why it is excluded (or a note on how it loads).
    pub cause: Option<String>,
    /// What the harness exposes of the skill's files (MAF profiles).
    pub exposes: Option<Exposure>,
}

/// Files a harness exposes to the agent, and files present but not exposed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exposure {
    /// Readable through `read_skill_resource`.
    pub resources: Vec<String>,
    /// Runnable through `run_skill_script`.
    pub scripts: Vec<String>,
    /// Present in the skill but invisible to the agent (depth, extension, symlink).
    pub not_exposed: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LoadStatus {
    Loaded,
    Excluded,
    /// Loadable, but another skill of the same name wins in this harness.
    Shadowed,
}

impl Artifact {
    pub fn script_count(&self) -> usize {
        self.files
            .iter()
            .filter(|f| f.kind == FileKind::Script)
            .count()
    }

    /// Files other than the entry and scripts (what `read` stages can load).
    pub fn resource_count(&self) -> usize {
        self.files
            .iter()
            .filter(|f| {
                !matches!(
                    f.kind,
                    FileKind::Entry | FileKind::Script | FileKind::Special | FileKind::Symlink
                )
            })
            .count()
    }

    /// The sizes of its files, summed (saturating: sizes read back from a report are not
    /// ours).
    pub fn total_bytes(&self) -> u64 {
        self.files
            .iter()
            .fold(0u64, |n, f| n.saturating_add(f.size))
    }
}

/// The files and bytes of `artifacts`: the report's `summary.files` and `summary.bytes`,
/// always computed from the file lists.
pub fn totals(artifacts: &[Artifact]) -> (usize, u64) {
    artifacts.iter().fold((0usize, 0u64), |(files, bytes), a| {
        (
            files.saturating_add(a.files.len()),
            bytes.saturating_add(a.total_bytes()),
        )
    })
}

const SCRIPT_EXT: &[&str] = &[
    "py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "mts", "cts", "ps1", "psm1", "cs", "csx",
    "rb", "pl", "php", "lua", "bat", "cmd", "fish",
];
const DATA_EXT: &[&str] = &[
    "json", "jsonl", "yaml", "yml", "toml", "csv", "tsv", "xml", "ini", "cfg", "conf",
];
const TEXT_EXT: &[&str] = &[
    "txt", "rst", "html", "htm", "css", "svg", "tex", "log", "env", "",
];
const ARCHIVE_EXT: &[&str] = &[
    "zip", "tar", "gz", "tgz", "bz2", "xz", "7z", "rar", "jar", "whl", "skill",
];

fn ext(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(i) if i > 0 => name[i + 1..].to_ascii_lowercase(),
        _ => String::new(),
    }
}

/// Classifies a file from its name and (when read) its first bytes.
pub fn classify(path: &str, head: Option<&[u8]>) -> FileKind {
    if let Some(h) = head {
        if h.starts_with(b"\x7fELF")
            || h.starts_with(b"MZ")
            || h.starts_with(&[0xfe, 0xed, 0xfa, 0xce])
            || h.starts_with(&[0xfe, 0xed, 0xfa, 0xcf])
            || h.starts_with(&[0xcf, 0xfa, 0xed, 0xfe])
            || h.starts_with(&[0xce, 0xfa, 0xed, 0xfe])
            || h.starts_with(&[0xca, 0xfe, 0xba, 0xbe])
        {
            return FileKind::Binary;
        }
        if h.starts_with(b"PK\x03\x04")
            || h.starts_with(&[0x1f, 0x8b])
            || h.starts_with(b"7z\xbc\xaf")
        {
            return FileKind::Archive;
        }
    }
    let e = ext(path);
    if e == "md" || e == "markdown" || e == "mdx" {
        return FileKind::Markdown;
    }
    if SCRIPT_EXT.contains(&e.as_str()) {
        return FileKind::Script;
    }
    if let Some(h) = head
        && h.starts_with(b"#!")
    {
        return FileKind::Script;
    }
    if DATA_EXT.contains(&e.as_str()) {
        return FileKind::Data;
    }
    if ARCHIVE_EXT.contains(&e.as_str()) {
        return FileKind::Archive;
    }
    match head {
        Some(h) if h.contains(&0) => FileKind::Binary,
        Some(_) if TEXT_EXT.contains(&e.as_str()) => FileKind::Text,
        Some(h) if std::str::from_utf8(h).is_ok() => FileKind::Text,
        Some(_) => FileKind::Binary,
        None => FileKind::Unknown,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// An empty skill artifact for unit tests.
    pub(crate) fn artifact() -> Artifact {
        Artifact {
            kind: ArtifactKind::Skill,
            path: "x".into(),
            repo: None,
            convention: None,
            convention_root: None,
            entry: "SKILL.md".into(),
            name: "x".into(),
            dir_name: "x".into(),
            frontmatter: serde_json::Value::Null,
            excluded: false,
            symlink: None,
            nested_in: None,
            files: Vec::new(),
            structural_fingerprint: None,
            content_hash: None,
            hash_incomplete: None,
            agenteval_content_hash: None,
            agenteval_hash_incomplete: None,
            provenance: None,
            loaders: Vec::new(),
            format: None,
        }
    }

    #[test]
    fn classification() {
        assert_eq!(
            classify("scripts/run.py", Some(b"print(1)")),
            FileKind::Script
        );
        assert_eq!(classify("tool", Some(b"#!/bin/sh\n")), FileKind::Script);
        assert_eq!(classify("bin/x", Some(b"\x7fELF....")), FileKind::Binary);
        assert_eq!(classify("a.txt", Some(b"PK\x03\x04")), FileKind::Archive);
        assert_eq!(
            classify("references/a.md", Some(b"# x")),
            FileKind::Markdown
        );
        assert_eq!(classify("data.json", Some(b"{}")), FileKind::Data);
        assert_eq!(classify("LICENSE", Some(b"MIT")), FileKind::Text);
        assert_eq!(classify(".hidden", Some(b"x")), FileKind::Text);
    }
}
