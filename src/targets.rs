//! Which harnesses a repository targets: the configuration's `targets = [...]`
//! (or `--targets`), else inferred from where its skills and agents live (`.claude/…` →
//! Claude Code, `.github/…` → VS Code / Copilot, `.agents/skills` → every client of the
//! cross-client convention, `skills/` → Claude Code plugins and Agent Skills installs).
//! `--targets all` (`strict-portability = true`) makes every profile a target. The reference
//! validators (`skills-ref`, `maf`, `maf-1.18`) are targets only when named: a repository
//! does not ship to a validator. `crate::loaders::targets` weighs verdicts by these.

use std::collections::{BTreeMap, BTreeSet};

use crate::inventory::Artifact;

/// The target that names Waza (an evaluator, not a loader profile).
pub const WAZA: &str = "waza";

/// What the user asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Choice {
    /// Infer the targets of each repository from its layout.
    #[default]
    Infer,
    /// Every profile is a target (`--targets all`, `strict-portability = true`).
    All,
    /// Exactly these profile ids.
    Only(BTreeSet<String>),
}

impl Choice {
    /// Parses `all` or a comma-separated list of profile ids (checked by the caller).
    pub fn parse(list: &[String]) -> Choice {
        if list.iter().any(|s| s.trim() == "all") {
            return Choice::All;
        }
        let set: BTreeSet<String> = list
            .iter()
            .flat_map(|s| s.split(','))
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
            .collect();
        if set.is_empty() {
            Choice::Infer
        } else {
            Choice::Only(set)
        }
    }
}

/// The targets of one repository (or of the whole scan, `repo` `None`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoTargets {
    pub repo: Option<String>,
    /// `None`: every profile.
    pub profiles: Option<BTreeSet<String>>,
    /// How they were chosen: `configured`, `inferred`, `--targets all` or `every harness:
    /// nothing to infer from`.
    pub source: &'static str,
    /// The locations the inference read (`.claude/skills`, `.github/agents`…), sorted.
    pub evidence: Vec<String>,
}

impl RepoTargets {
    pub fn targets(&self, profile: &str) -> bool {
        self.profiles.as_ref().is_none_or(|p| p.contains(profile))
    }

    /// `claude-code, vscode-copilot (inferred from .claude/skills, .github/agents)`.
    pub fn describe(&self) -> String {
        let list = match &self.profiles {
            None => "all harnesses".to_owned(),
            Some(p) if p.is_empty() => "none".to_owned(),
            Some(p) => p.iter().cloned().collect::<Vec<_>>().join(", "),
        };
        if self.evidence.is_empty() {
            format!("{list} ({})", self.source)
        } else {
            format!("{list} ({} from {})", self.source, self.evidence.join(", "))
        }
    }
}

/// The targets of `repo`'s findings: its own, or the scan's when there is one set of them (a
/// finding of no known repository never takes another repository's targets).
pub fn of_repo<'a>(targets: &'a [RepoTargets], repo: Option<&str>) -> Option<&'a RepoTargets> {
    targets
        .iter()
        .find(|t| t.repo.as_deref() == repo)
        .or_else(|| targets.first().filter(|_| targets.len() == 1))
}

/// Every harness profile (skills and agent files), validators left out: the targets of a
/// repository whose layout names none. `tests/calibration.rs` checks it against the loaders'
/// profile list.
pub const HARNESSES: &[&str] = &[
    "claude-code",
    "vscode-copilot",
    "codex",
    "opencode",
    "cursor",
    "gemini-cli",
    "windsurf",
    "goose",
    "vscode-agents",
    "copilot-agents",
    "claude-code-agents",
    "gemini-cli-agents",
];

/// The harness profiles a skills convention (its path) or an agent file location ships to.
pub fn profiles_of(location: &str) -> &'static [&'static str] {
    let l = location.trim_start_matches("./");
    let has = |p: &str| l == p || l.starts_with(&format!("{p}/")) || l.contains(&format!("/{p}/"));
    if has(".claude") || l.ends_with("CLAUDE.md") {
        &["claude-code"]
    } else if has(".github") || l.ends_with(".agent.md") || l.ends_with(".prompt.md") {
        &["vscode-copilot"]
    } else if has(".agents") {
        &[
            "codex",
            "cursor",
            "gemini-cli",
            "opencode",
            "goose",
            "vscode-copilot",
        ]
    } else if has(".codex") {
        &["codex"]
    } else if has(".cursor") {
        &["cursor"]
    } else if has(".gemini") || l.ends_with("GEMINI.md") {
        &["gemini-cli"]
    } else if has(".opencode") {
        &["opencode"]
    } else if has(".windsurf") {
        &["windsurf"]
    } else if has(".goose") {
        &["goose"]
    } else if l == "skills" || l.ends_with("/skills") || has("skills") {
        // Plugin and Agent Skills repositories: Claude Code plugins, and the installers that
        // copy `skills/` into a harness folder.
        &["claude-code"]
    } else {
        &[]
    }
}

/// The targets of every repository of a scan.
///
/// `skills`: every skill the walk found (repository, convention path), also those a
/// changed-files scan leaves out, so that scanning one skill weighs it as the full scan does.
pub fn resolve(
    choice: &Choice,
    skills: &[(Option<String>, Option<&str>)],
    agents: &[Artifact],
) -> Vec<RepoTargets> {
    let mut repos: BTreeMap<Option<String>, (BTreeSet<String>, BTreeSet<String>)> = BTreeMap::new();
    for (repo, convention) in skills {
        let e = repos.entry(repo.clone()).or_default();
        if let Some(c) = convention {
            let p = profiles_of(c);
            if !p.is_empty() {
                e.0.extend(p.iter().map(|s| (*s).to_owned()));
                e.1.insert((*c).to_owned());
            }
        }
    }
    for a in agents {
        let e = repos.entry(a.repo.clone()).or_default();
        let within = match &a.repo {
            Some(r) => a
                .path
                .strip_prefix(r.as_str())
                .map(|p| p.trim_start_matches('/')),
            None => Some(a.path.as_str()),
        }
        .unwrap_or(&a.path);
        let p = profiles_of(within);
        if !p.is_empty() {
            e.0.extend(p.iter().map(|s| (*s).to_owned()));
            // The folder that names the harness (`.claude`, `.github`), or the file's form
            // (`*.agent.md`, `CLAUDE.md`), is the evidence.
            let marker = within
                .split('/')
                .find(|seg| seg.starts_with('.'))
                .map(str::to_owned)
                .unwrap_or_else(|| {
                    let name = within.rsplit('/').next().unwrap_or(within);
                    if name.ends_with(".agent.md") {
                        "*.agent.md".to_owned()
                    } else if name.ends_with(".prompt.md") {
                        "*.prompt.md".to_owned()
                    } else if name.ends_with(".md") && name.chars().any(|c| c.is_ascii_uppercase())
                    {
                        name.to_owned()
                    } else {
                        "agents in skills/".to_owned()
                    }
                });
            e.1.insert(marker);
        }
    }
    if repos.is_empty() {
        repos.insert(None, Default::default());
    }
    // `waza` names no loader profile: it brings Waza's own rules in (`scan::waza_scope`) and
    // leaves the harness targets as they are without it (`--targets waza` alone infers them).
    let without_waza;
    let choice = match choice {
        Choice::Only(set) if set.contains(WAZA) => {
            let rest: BTreeSet<String> = set.iter().filter(|s| *s != WAZA).cloned().collect();
            without_waza = if rest.is_empty() {
                Choice::Infer
            } else {
                Choice::Only(rest)
            };
            &without_waza
        }
        other => other,
    };
    repos
        .into_iter()
        .map(|(repo, (profiles, evidence))| match choice {
            Choice::All => RepoTargets {
                repo,
                profiles: None,
                source: "--targets all",
                evidence: Vec::new(),
            },
            Choice::Only(set) => RepoTargets {
                repo,
                profiles: Some(set.clone()),
                source: "configured",
                evidence: Vec::new(),
            },
            // A collection outside every harness folder ships to whichever harness installs
            // it: every harness is a target, but not the validators (`skills-ref`, `maf`),
            // which load nothing a user runs.
            Choice::Infer if profiles.is_empty() => RepoTargets {
                repo,
                profiles: Some(HARNESSES.iter().map(|s| (*s).to_owned()).collect()),
                source: "every harness: nothing to infer from",
                evidence: Vec::new(),
            },
            Choice::Infer => RepoTargets {
                repo,
                profiles: Some(profiles),
                source: "inferred",
                evidence: evidence.into_iter().collect(),
            },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_name_their_harnesses() {
        assert_eq!(profiles_of(".claude/skills"), &["claude-code"]);
        assert_eq!(
            profiles_of(".github/agents/review.agent.md"),
            &["vscode-copilot"]
        );
        assert_eq!(profiles_of("plugins/web/skills"), &["claude-code"]);
        assert!(profiles_of(".agents/skills").contains(&"codex"));
        assert!(profiles_of("docs/notes").is_empty());
    }

    #[test]
    fn choices() {
        assert_eq!(Choice::parse(&["all".into()]), Choice::All);
        assert_eq!(Choice::parse(&[]), Choice::Infer);
        assert_eq!(
            Choice::parse(&["claude-code,skills-ref".into()]),
            Choice::Only(["claude-code".to_owned(), "skills-ref".to_owned()].into())
        );
    }

    /// `waza` adds Waza's rules and leaves the harness targets alone: alone, they are
    /// inferred; beside profile ids, those are the targets.
    #[test]
    fn waza_is_no_loader_target() {
        let skills = [(None, Some(".claude/skills"))];
        let only = |list: &[&str]| {
            let c = Choice::parse(&list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>());
            resolve(&c, &skills, &[]).remove(0)
        };
        let t = only(&["waza"]);
        assert_eq!(t.source, "inferred");
        assert!(t.targets("claude-code"));
        let t = only(&["waza,vscode-copilot"]);
        assert_eq!(t.profiles, Some(["vscode-copilot".to_owned()].into()));
        assert!(!t.targets("claude-code"));
    }

    #[test]
    fn validators_are_targets_only_when_named() {
        let t = RepoTargets {
            repo: None,
            profiles: Some(["claude-code".to_owned()].into()),
            source: "inferred",
            evidence: vec![".claude/skills".into()],
        };
        assert!(t.targets("claude-code"));
        assert!(!t.targets("skills-ref"));
        assert_eq!(t.describe(), "claude-code (inferred from .claude/skills)");
    }
}
