//! Which skill or agent a name (or path) designates: one resolution, shared by the scan's
//! eval files (`skill:` of a Waza eval, `skill_name` of skill-creator evals, …), `coverage`
//! (which reads the scan's result) and `evals tools --agent`, so that the three agree and
//! report an ambiguous name the same way.
//!
//! The rule, in order (the first step that finds anything decides):
//! 1. a path (it holds `/` or ends in `.md`): the skill folder, its `SKILL.md`, or the agent
//!    file at that path, relative to the eval's folder, then to the repository root;
//! 2. skills whose `name` is the name; then skills whose folder is the name (Waza's
//!    "SKILL.md precedence": a skill wins over a same-named agent);
//! 3. `.agent.md` files whose `name` or file stem is the name (what Waza runs); then other
//!    agent files (Claude subagents, chat modes) by the same keys.
//!
//! Names match exactly (a name differing only in ASCII case is offered as "did you mean").
//! Candidates with the same front matter are copies of one skill or agent, and the first by
//! path stands for them; otherwise more than one candidate is [`Resolution::Ambiguous`].
//! An `.agent.md` beside a `SKILL.md` is never a candidate: Waza evaluates the folder's
//! skill and ignores the agent file ([`Resolution::IgnoredByWaza`] when only such files
//! match).

use std::collections::{HashMap, HashSet};

use crate::inventory::{Artifact, ArtifactKind};

/// The name an agent file gets without a `name` field: the file name without its suffix.
pub fn stem(rel: &str) -> &str {
    let n = rel.rsplit('/').next().unwrap_or(rel);
    for suffix in [
        ".agent.md",
        ".chatmode.md",
        ".prompt.md",
        ".instructions.md",
        ".md",
        ".json",
    ] {
        if let Some(s) = n.strip_suffix(suffix) {
            return s;
        }
    }
    n
}

fn parent(rel: &str) -> &str {
    rel.rsplit_once('/').map_or("", |(p, _)| p)
}

/// What a name designates.
#[derive(Debug, PartialEq)]
pub enum Resolution<'a> {
    /// One skill or agent (or identical copies of one, represented by the first by path).
    Found(&'a Artifact),
    /// Several different skills, or several different agents (sorted by path).
    Ambiguous(Vec<&'a Artifact>),
    /// Only agent files Waza ignores (each beside a `SKILL.md`) have the name.
    IgnoredByWaza(Vec<&'a Artifact>),
    /// Nothing has the name; `near` is a skill or agent whose name differs only in case.
    Missing { near: Option<&'a Artifact> },
}

impl Resolution<'_> {
    /// The candidates' paths, for a message: `2 skills: a, b`.
    pub fn listing(candidates: &[&Artifact]) -> String {
        let kind = match candidates.first().map(|a| a.kind) {
            Some(ArtifactKind::Skill) => "skill",
            _ => "agent",
        };
        let paths: Vec<&str> = candidates.iter().map(|a| a.path.as_str()).collect();
        format!(
            "{} {kind}{}: {}",
            candidates.len(),
            if candidates.len() == 1 { "" } else { "s" },
            paths.join(", ")
        )
    }
}

type Key<'a> = (Option<&'a str>, &'a str);

/// The lookups of one scan's skills and agents, built once.
pub struct TargetNames<'a> {
    skill_by_name: HashMap<Key<'a>, Vec<&'a Artifact>>,
    skill_by_dir: HashMap<Key<'a>, Vec<&'a Artifact>>,
    /// `.agent.md` files by name and by stem (each file once per key).
    waza_agents: HashMap<Key<'a>, Vec<&'a Artifact>>,
    other_agents: HashMap<Key<'a>, Vec<&'a Artifact>>,
    ignored: HashMap<Key<'a>, Vec<&'a Artifact>>,
    /// Skill folders and `SKILL.md` paths, agent paths → the artifact.
    by_path: HashMap<&'a str, &'a Artifact>,
    /// (repo, ASCII-lowercased name) → a skill or agent of that name, for "did you mean".
    folded: HashMap<(Option<&'a str>, String), &'a Artifact>,
}

fn push<'a>(map: &mut HashMap<Key<'a>, Vec<&'a Artifact>>, key: Key<'a>, a: &'a Artifact) {
    let v = map.entry(key).or_default();
    if !v.iter().any(|b| std::ptr::eq(*b, a)) {
        v.push(a);
    }
}

impl<'a> TargetNames<'a> {
    /// `skills`: the scan's skills; `agents`: its customisation files (only agent files are
    /// candidates).
    pub fn new(skills: &'a [Artifact], agents: &'a [Artifact]) -> Self {
        let mut t = TargetNames {
            skill_by_name: HashMap::new(),
            skill_by_dir: HashMap::new(),
            waza_agents: HashMap::new(),
            other_agents: HashMap::new(),
            ignored: HashMap::new(),
            by_path: HashMap::new(),
            folded: HashMap::new(),
        };
        let skill_dirs: HashSet<&str> = skills.iter().map(|s| s.path.as_str()).collect();
        for s in skills {
            let repo = s.repo.as_deref();
            push(&mut t.skill_by_name, (repo, s.name.as_str()), s);
            push(&mut t.skill_by_dir, (repo, s.dir_name.as_str()), s);
            t.by_path.insert(s.path.as_str(), s);
            for key in [&s.name, &s.dir_name] {
                t.folded
                    .entry((repo, key.to_ascii_lowercase()))
                    .or_insert(s);
            }
        }
        for a in agents.iter().filter(|a| a.kind == ArtifactKind::Agent) {
            let repo = a.repo.as_deref();
            let waza = a.path.ends_with(".agent.md");
            let map = if waza && skill_dirs.contains(parent(&a.path)) {
                &mut t.ignored
            } else if waza {
                &mut t.waza_agents
            } else {
                &mut t.other_agents
            };
            for key in [a.name.as_str(), stem(&a.path)] {
                push(map, (repo, key), a);
                t.folded
                    .entry((repo, key.to_ascii_lowercase()))
                    .or_insert(a);
            }
            t.by_path.insert(a.path.as_str(), a);
        }
        for map in [
            &mut t.skill_by_name,
            &mut t.skill_by_dir,
            &mut t.waza_agents,
            &mut t.other_agents,
            &mut t.ignored,
        ] {
            for v in map.values_mut() {
                v.sort_by(|x, y| x.path.cmp(&y.path));
            }
        }
        t
    }

    /// The skill whose folder is `dir` (relative to the scan base).
    pub fn skill_at(&self, dir: &str) -> Option<&'a Artifact> {
        self.by_path
            .get(dir)
            .copied()
            .filter(|a| a.kind == ArtifactKind::Skill)
    }

    /// What `name` designates among the skills and agents of `repo`. `from`: the folder
    /// (relative to the scan base) a relative path is read from first, if any; `root`: the
    /// repository's root folder (relative to the scan base, `""` for the base).
    pub fn resolve(
        &self,
        repo: Option<&str>,
        name: &str,
        from: Option<&str>,
        root: &str,
    ) -> Resolution<'a> {
        if name.contains('/') || name.ends_with(".md") {
            if let Some(a) = self.by_relative_path(name, from, root) {
                return Resolution::Found(a);
            }
            return Resolution::Missing { near: None };
        }
        let key = (repo, name);
        for map in [
            &self.skill_by_name,
            &self.skill_by_dir,
            &self.waza_agents,
            &self.other_agents,
        ] {
            if let Some(v) = map.get(&key).filter(|v| !v.is_empty()) {
                return decide(v, from);
            }
        }
        if let Some(v) = self.ignored.get(&key) {
            return Resolution::IgnoredByWaza(v.clone());
        }
        Resolution::Missing {
            near: self.folded.get(&(repo, name.to_ascii_lowercase())).copied(),
        }
    }

    fn by_relative_path(&self, name: &str, from: Option<&str>, root: &str) -> Option<&'a Artifact> {
        let name = name.trim_start_matches("./").trim_end_matches('/');
        for base in from.into_iter().chain(Some(root)) {
            let Some(p) = join_within(base, name) else {
                continue;
            };
            let dir = p.strip_suffix("/SKILL.md").unwrap_or(&p);
            if let Some(a) = self
                .by_path
                .get(dir)
                .or_else(|| self.by_path.get(p.as_str()))
            {
                return Some(a);
            }
        }
        None
    }
}

/// One candidate, or copies of one (same front matter), is found; else the one whose folder
/// holds `from` (innermost first: an eval inside a skill's folder names that skill); else
/// ambiguous.
fn decide<'a>(v: &[&'a Artifact], from: Option<&str>) -> Resolution<'a> {
    let first = v[0];
    if v.iter().all(|a| a.frontmatter == first.frontmatter) {
        return Resolution::Found(first);
    }
    if let Some(from) = from {
        let folder = |a: &&Artifact| match a.kind {
            ArtifactKind::Skill => a.path.len(),
            _ => parent(&a.path).len(),
        };
        let holding: Vec<&Artifact> = v
            .iter()
            .copied()
            .filter(|a| {
                let dir = &a.path[..folder(a)];
                dir.is_empty()
                    || from == dir
                    || from.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
            })
            .collect();
        let deepest = holding.iter().map(folder).max();
        let inner: Vec<&Artifact> = holding
            .into_iter()
            .filter(|a| Some(folder(a)) == deepest)
            .collect();
        if let [one] = inner[..] {
            return Resolution::Found(one);
        }
    }
    Resolution::Ambiguous(v.to_vec())
}

/// `base/rel` with `.` and `..` folded; `None` when it leaves the scan base.
fn join_within(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for c in rel.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            c => parts.push(c),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn art(kind: ArtifactKind, path: &str, name: &str, fm: serde_json::Value) -> Artifact {
        serde_json::from_value(serde_json::json!({
            "kind": kind.as_str(),
            "path": path,
            "entry": "SKILL.md",
            "name": name,
            "dir_name": path.rsplit('/').next().unwrap_or(path),
            "frontmatter": fm,
            "excluded": false,
            "files": [],
        }))
        .unwrap()
    }

    #[test]
    fn skills_win_then_waza_agents_then_others() {
        let skills = vec![art(
            ArtifactKind::Skill,
            "skills/review",
            "review",
            serde_json::json!({"name": "review"}),
        )];
        let agents = vec![
            art(
                ArtifactKind::Agent,
                "agents/review.agent.md",
                "review",
                serde_json::json!({}),
            ),
            art(
                ArtifactKind::Agent,
                ".claude/agents/lint.md",
                "lint",
                serde_json::json!({"a": 1}),
            ),
            art(
                ArtifactKind::Agent,
                "agents/lint.agent.md",
                "lint",
                serde_json::json!({"a": 2}),
            ),
        ];
        let t = TargetNames::new(&skills, &agents);
        let found = |n: &str| match t.resolve(None, n, None, "") {
            Resolution::Found(a) => a.path.clone(),
            other => panic!("{n}: {other:?}"),
        };
        assert_eq!(found("review"), "skills/review");
        assert_eq!(found("lint"), "agents/lint.agent.md");
        assert_eq!(found("skills/review/SKILL.md"), "skills/review");
        assert!(matches!(
            t.resolve(None, "../agents/lint.agent.md", Some("evals"), ""),
            Resolution::Found(a) if a.path == "agents/lint.agent.md"
        ));
        match t.resolve(None, "Review", None, "") {
            Resolution::Missing { near: Some(a) } => assert_eq!(a.path, "skills/review"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            t.resolve(None, "../../x.md", Some("a"), ""),
            Resolution::Missing { near: None }
        );
    }

    #[test]
    fn different_candidates_are_ambiguous_and_copies_are_not() {
        let fm = serde_json::json!({"name": "x", "description": "d"});
        let skills = vec![
            art(ArtifactKind::Skill, ".claude/skills/x", "x", fm.clone()),
            art(ArtifactKind::Skill, ".github/skills/x", "x", fm.clone()),
            art(ArtifactKind::Skill, "a/y", "y", fm.clone()),
            art(
                ArtifactKind::Skill,
                "b/y",
                "y",
                serde_json::json!({"name": "y"}),
            ),
        ];
        let agents = vec![art(
            ArtifactKind::Agent,
            "a/y/y.agent.md",
            "z",
            serde_json::json!({}),
        )];
        let t = TargetNames::new(&skills, &agents);
        assert!(
            matches!(t.resolve(None, "x", None, ""), Resolution::Found(a) if a.path == ".claude/skills/x")
        );
        match t.resolve(None, "y", None, "") {
            Resolution::Ambiguous(v) => {
                assert_eq!(Resolution::listing(&v), "2 skills: a/y, b/y")
            }
            other => panic!("{other:?}"),
        }
        assert!(
            matches!(t.resolve(None, "z", None, ""), Resolution::IgnoredByWaza(v) if v.len() == 1)
        );
        // An eval inside one of them names that one.
        assert!(
            matches!(t.resolve(None, "y", Some("b/y/evals"), ""), Resolution::Found(a) if a.path == "b/y")
        );
        assert!(matches!(
            t.resolve(None, "y", Some("c"), ""),
            Resolution::Ambiguous(_)
        ));
    }
}
