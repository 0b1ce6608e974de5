//! Waza's `tool_constraint` (`allow_only`) policy: which tool calls an agent's declared
//! `tools:` permit. Pure logic; the CLI (`cli::evals`) resolves the agent and reads the
//! transcripts. Rules and choices: `docs/evals-tools.md`.
//!
//! - Matching is exact and case-insensitive, with Waza's fixed built-in aliases
//!   ([`ALIASES`]); patterns and wildcards grant nothing more than their literal name.
//! - `mcp:<server>-<tool>` and `custom:<tool>` are namespaces: a call that carries its
//!   source (`mcp:…`, `custom:…`, Claude's `mcp__server__tool`) is authorised only by a
//!   declaration in the same namespace; a bare call (no source) matches a built-in through
//!   the aliases, or a declared custom/MCP tool by its literal unqualified name.
//! - `tools: []` denies everything; an omitted `tools` is unrestricted; a malformed agent
//!   is an error, never "unrestricted".

use crate::parse::{frontmatter, yaml};

/// Waza's fixed alias groups of built-in tools (lower case), first the native filter name.
pub const ALIASES: &[&[&str]] = &[
    &["view", "read", "readfile", "fileread"],
    &["edit", "write", "writefile", "filewrite"],
    &["bash", "runcommand"],
    &["web_fetch", "fetch"],
];

/// Where a tool comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Namespace {
    /// A bare name: a built-in (aliases apply).
    Builtin,
    /// `mcp:<server>-<tool>`.
    Mcp,
    /// `custom:<tool>`.
    Custom,
}

impl Namespace {
    pub fn as_str(self) -> &'static str {
        match self {
            Namespace::Builtin => "built-in",
            Namespace::Mcp => "mcp",
            Namespace::Custom => "custom",
        }
    }
}

/// A tool name split into namespace and lower-cased identifier.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ToolId {
    pub ns: Namespace,
    /// Lower case; for MCP `<server>-<tool>`.
    pub id: String,
}

/// The alias group's canonical name of a built-in (itself when not aliased).
fn canonical(id: &str) -> &str {
    ALIASES
        .iter()
        .find(|g| g.contains(&id))
        .map_or(id, |g| g[0])
}

/// Splits a declared name (`fileRead`, `mcp:github-list_issues`, `custom:CodeSearch`).
pub fn declared(name: &str) -> ToolId {
    let t = name.trim();
    let lower = t.to_lowercase();
    if let Some(rest) = lower.strip_prefix("mcp:") {
        ToolId {
            ns: Namespace::Mcp,
            id: rest.to_owned(),
        }
    } else if let Some(rest) = lower.strip_prefix("custom:") {
        ToolId {
            ns: Namespace::Custom,
            id: rest.to_owned(),
        }
    } else {
        ToolId {
            ns: Namespace::Builtin,
            id: lower,
        }
    }
}

/// An observed call name: the declared forms, plus Claude Code's `mcp__<server>__<tool>`
/// read as `mcp:<server>-<tool>`. `None` namespace info is a bare name.
pub fn observed(name: &str) -> ToolId {
    let t = name.trim();
    if let Some(rest) = t.strip_prefix("mcp__")
        && let Some((server, tool)) = rest.split_once("__")
        && !server.is_empty()
        && !tool.is_empty()
    {
        return ToolId {
            ns: Namespace::Mcp,
            id: format!("{server}-{tool}").to_lowercase(),
        };
    }
    declared(t)
}

/// Why a call is outside the policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    /// `tools: []`.
    DenyAll,
    /// The same identifier is declared, but in another namespace.
    NamespaceMismatch { declared: Vec<String> },
    /// Nothing declared authorises it.
    NotDeclared,
    /// The grader's `reject_tools` names it.
    Rejected { by: String },
}

impl std::fmt::Display for Denial {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Denial::DenyAll => f.write_str("tools: [] denies all tool use"),
            Denial::NamespaceMismatch { declared } => write!(
                f,
                "namespace mismatch: only {} is declared, and namespaces never authorise each other",
                declared.join(", ")
            ),
            Denial::NotDeclared => f.write_str("not declared in tools:"),
            Denial::Rejected { by } => write!(f, "rejected by reject_tools ({by})"),
        }
    }
}

impl Denial {
    /// A stable short code for JSON.
    pub fn code(&self) -> &'static str {
        match self {
            Denial::DenyAll => "deny-all",
            Denial::NamespaceMismatch { .. } => "namespace-mismatch",
            Denial::NotDeclared => "not-declared",
            Denial::Rejected { .. } => "rejected",
        }
    }
}

/// An agent's tool policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Policy {
    /// `tools` omitted: every tool may be used.
    Unrestricted,
    /// `tools: [...]`, as written (an empty list denies everything).
    AllowOnly(Vec<String>),
}

impl Policy {
    /// Checks one call name against the policy.
    pub fn check(&self, call: &str) -> Result<(), Denial> {
        let list = match self {
            Policy::Unrestricted => return Ok(()),
            Policy::AllowOnly(l) if l.is_empty() => return Err(Denial::DenyAll),
            Policy::AllowOnly(l) => l,
        };
        let obs = observed(call);
        let decl: Vec<(ToolId, &String)> = list.iter().map(|d| (declared(d), d)).collect();
        // No source on the call: a declared custom/MCP tool matches its literal name.
        let allowed = decl.iter().any(|(d, _)| same_tool(&obs, d));
        if allowed {
            return Ok(());
        }
        let mut other: Vec<String> = decl
            .iter()
            .filter(|(d, _)| {
                d.ns != obs.ns
                    && (d.id == obs.id
                        || (d.ns == Namespace::Builtin && canonical(&d.id) == canonical(&obs.id)))
            })
            .map(|(_, s)| s.trim().to_owned())
            .collect();
        other.sort();
        other.dedup();
        if other.is_empty() {
            Err(Denial::NotDeclared)
        } else {
            Err(Denial::NamespaceMismatch { declared: other })
        }
    }
}

/// Whether the observed call `obs` is the declared tool `d`: aliases for built-ins, the literal
/// name for a bare call against a custom/MCP declaration, and the same namespace otherwise.
fn same_tool(obs: &ToolId, d: &ToolId) -> bool {
    match (obs.ns, d.ns) {
        (Namespace::Builtin, Namespace::Builtin) => canonical(&obs.id) == canonical(&d.id),
        (Namespace::Builtin, _) => obs.id == d.id,
        (a, b) => a == b && obs.id == d.id,
    }
}

/// A `tool_constraint` grader: its `allow_only` (an upper bound; absent: unrestricted) and its
/// `reject_tools` (calls that fail the grader whatever `allow_only` says). An eval that
/// declares one replaces the implicit grader of the agent's `tools:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    pub allow: Policy,
    pub reject: Vec<String>,
}

impl Constraint {
    /// The implicit grader of an agent's `tools:` (nothing rejected).
    pub fn implicit(allow: Policy) -> Constraint {
        Constraint {
            allow,
            reject: Vec::new(),
        }
    }

    /// Checks one call: a rejected tool fails first, then the `allow_only` bound.
    pub fn check(&self, call: &str) -> Result<(), Denial> {
        let obs = observed(call);
        if let Some(r) = self.reject.iter().find(|r| same_tool(&obs, &declared(r))) {
            return Err(Denial::Rejected {
                by: r.trim().to_owned(),
            });
        }
        self.allow.check(call)
    }
}

/// The first `tool_constraint` grader of a Waza eval file's text (read with the reader the scan
/// uses, so a grader the scan reports is refused here too). `Ok(None)`: the eval declares none.
pub fn constraint_of_eval(shown: &str, text: &str) -> Result<Option<Constraint>, String> {
    use super::cases;
    let root = cases::tree(shown, text, false)
        .map_err(|p| p.render())?
        .ok_or_else(|| "the eval file is empty".to_owned())?;
    let (graders, problems) = cases::waza_graders(&root, super::pattern::Dialect::Re2);
    if !problems.is_empty() {
        return Err(problems
            .iter()
            .map(cases::Problem::render)
            .collect::<Vec<_>>()
            .join("; "));
    }
    Ok(graders
        .into_iter()
        .find(|g| g.ty.as_deref() == Some("tool_constraint"))
        .map(|g| Constraint {
            allow: g.allow_only.map_or(Policy::Unrestricted, |l| {
                Policy::AllowOnly(l.into_iter().map(|t| t.name).collect())
            }),
            reject: g.reject_tools.into_iter().map(|t| t.name).collect(),
        }))
}

/// Why an agent's policy cannot be read (the agent then fails resolution).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    #[error("the frontmatter is malformed ({0})")]
    Frontmatter(String),
    #[error("invalid YAML in the frontmatter at line {line}, column {col}: {message}")]
    Yaml {
        line: usize,
        col: usize,
        message: String,
    },
    #[error("the frontmatter is not a mapping")]
    NotMapping,
    #[error(
        "`tools` at line {line} must be a list of tool names or a comma-separated string, not {found}"
    )]
    ToolsType { line: usize, found: &'static str },
    #[error("`tools` item at line {line} must be a tool name, not {found}")]
    ItemType { line: usize, found: &'static str },
}

/// Reads the `tools:` policy of an agent file's text. No frontmatter at all means `tools`
/// is omitted (unrestricted); an unclosed or malformed frontmatter, invalid YAML, a
/// non-mapping frontmatter, a `tools` that is null or neither a list nor a string, or a
/// list item that is not a string are errors.
pub fn policy_of(text: &str) -> Result<Policy, PolicyError> {
    let split = frontmatter::split(text);
    let range = match (&split.yaml, &split.failure) {
        (Some(r), _) => r.clone(),
        (None, None | Some(frontmatter::Failure::Missing)) => return Ok(Policy::Unrestricted),
        (None, Some(f)) => return Err(PolicyError::Frontmatter(format!("{f:?}"))),
    };
    let offset = split.yaml_first_line.saturating_sub(1);
    let doc = yaml::parse(&text[range]).map_err(|e| {
        let (message, pos) = match e {
            yaml::YamlError::Syntax { message, pos } | yaml::YamlError::Budget { message, pos } => {
                (message, pos)
            }
        };
        PolicyError::Yaml {
            line: pos.line + offset,
            col: pos.col,
            message,
        }
    })?;
    let Some(root) = doc.root else {
        return Ok(Policy::Unrestricted);
    };
    if !matches!(root.kind, yaml::NodeKind::Map { .. }) {
        return Err(PolicyError::NotMapping);
    }
    let Some(tools) = root.get("tools") else {
        return Ok(Policy::Unrestricted);
    };
    let line = tools.pos.line + offset;
    match &tools.kind {
        yaml::NodeKind::Seq { items, .. } => items
            .iter()
            .map(|i| match (&i.kind, i.as_str()) {
                (yaml::NodeKind::Scalar { .. }, Some(s)) => Ok(s.trim().to_owned()),
                _ => Err(PolicyError::ItemType {
                    line: i.pos.line + offset,
                    found: i.type_name(),
                }),
            })
            .collect::<Result<Vec<_>, _>>()
            .map(|v| Policy::AllowOnly(v.into_iter().filter(|s| !s.is_empty()).collect())),
        yaml::NodeKind::Scalar {
            ty: yaml::ScalarType::Str,
            text,
            ..
        } => Ok(Policy::AllowOnly(
            text.split(',')
                .map(|s| s.trim().to_owned())
                .filter(|s| !s.is_empty())
                .collect(),
        )),
        _ => Err(PolicyError::ToolsType {
            line,
            found: tools.type_name(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn allow(list: &[&str]) -> Policy {
        Policy::AllowOnly(list.iter().map(|s| (*s).to_owned()).collect())
    }

    #[test]
    fn aliases_are_exact_and_case_insensitive() {
        let p = allow(&["read", "runCommand", "fetch"]);
        for ok in ["readFile", "FILEREAD", "view", "Read", "bash", "web_fetch"] {
            assert_eq!(p.check(ok), Ok(()), "{ok}");
        }
        for bad in ["write", "edit", "bashful", "read*", "fetcher"] {
            assert_eq!(p.check(bad), Err(Denial::NotDeclared), "{bad}");
        }
        let w = allow(&["writeFile"]);
        assert_eq!(w.check("edit"), Ok(()));
        assert_eq!(w.check("fileWrite"), Ok(()));
        // Wildcards grant only their literal name.
        assert_eq!(allow(&["*"]).check("bash"), Err(Denial::NotDeclared));
        assert_eq!(
            allow(&["github/*"]).check("github/list"),
            Err(Denial::NotDeclared)
        );
    }

    #[test]
    fn namespaces_never_authorise_each_other() {
        let p = allow(&["custom:CodeSearch", "mcp:github-list_issues", "grep"]);
        assert_eq!(p.check("custom:codesearch"), Ok(()));
        assert_eq!(p.check("mcp:github-list_issues"), Ok(()));
        assert_eq!(p.check("mcp__github__list_issues"), Ok(()));
        // Bare observations (no source) match the literal unqualified name.
        assert_eq!(p.check("CodeSearch"), Ok(()));
        assert_eq!(p.check("github-list_issues"), Ok(()));
        // An explicit source is never discarded.
        assert!(matches!(
            p.check("mcp:CodeSearch"),
            Err(Denial::NamespaceMismatch { .. })
        ));
        assert!(matches!(
            p.check("custom:github-list_issues"),
            Err(Denial::NamespaceMismatch { .. })
        ));
        assert!(matches!(
            p.check("custom:grep"),
            Err(Denial::NamespaceMismatch { .. })
        ));
        // Another tool of the same server, or another server.
        assert_eq!(p.check("mcp:github-create_issue"), Err(Denial::NotDeclared));
        assert_eq!(p.check("mcp:gitlab-list_issues"), Err(Denial::NotDeclared));
        // A bare declaration does not authorise the qualified name.
        let b = allow(&["CodeSearch", "github-list_issues"]);
        assert!(matches!(
            b.check("custom:CodeSearch"),
            Err(Denial::NamespaceMismatch { .. })
        ));
        assert!(matches!(
            b.check("mcp:github-list_issues"),
            Err(Denial::NamespaceMismatch { .. })
        ));
        // Custom/MCP declarations take no built-in aliases.
        assert_eq!(
            allow(&["custom:read"]).check("readFile"),
            Err(Denial::NotDeclared)
        );
    }

    #[test]
    fn empty_and_omitted() {
        assert_eq!(allow(&[]).check("read"), Err(Denial::DenyAll));
        assert_eq!(Policy::Unrestricted.check("anything"), Ok(()));
    }

    #[test]
    fn policy_from_frontmatter() {
        let p = |s: &str| policy_of(s);
        assert_eq!(
            p("---\nname: a\ntools:\n  - read\n  - bash\n---\nbody\n"),
            Ok(allow(&["read", "bash"]))
        );
        assert_eq!(
            p("---\ntools: [read, bash]\n---\n"),
            Ok(allow(&["read", "bash"]))
        );
        assert_eq!(
            p("---\ntools: 'read, bash'\n---\n"),
            Ok(allow(&["read", "bash"]))
        );
        assert_eq!(p("---\ntools: []\n---\n"), Ok(allow(&[])));
        assert_eq!(p("---\nname: a\n---\n"), Ok(Policy::Unrestricted));
        assert_eq!(p("no frontmatter\n"), Ok(Policy::Unrestricted));
        assert!(matches!(
            p("---\ntools: [read\n---\n"),
            Err(PolicyError::Yaml { .. })
        ));
        assert!(matches!(
            p("---\ntools: 3\n---\n"),
            Err(PolicyError::ToolsType { line: 2, .. })
        ));
        assert!(matches!(
            p("---\ntools:\n---\n"),
            Err(PolicyError::ToolsType { found: "null", .. })
        ));
        assert!(matches!(
            p("---\ntools: {a: b}\n---\n"),
            Err(PolicyError::ToolsType { .. })
        ));
        assert!(matches!(
            p("---\ntools:\n  - [a]\n---\n"),
            Err(PolicyError::ItemType { line: 3, .. })
        ));
        assert!(matches!(
            p("---\nname: a\n"),
            Err(PolicyError::Frontmatter(_))
        ));
        assert!(matches!(p("---\n- a\n---\n"), Err(PolicyError::NotMapping)));
    }
}
