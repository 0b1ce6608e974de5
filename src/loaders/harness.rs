//! Data-driven profiles of the agent harnesses: where each looks, how deep, which
//! file name, how strictly it reads the frontmatter, which name rules it applies,
//! whether it follows symlinks, and which copy wins when names collide.
//!
//! Sources are the harnesses' own documentation as summarised in the project's
//! reference notes. Where a behaviour is undocumented, the field says so
//! (`assumed`) and the profile takes the conservative reading: it claims an
//! exclusion only for what is documented or required by the specification.

use std::collections::BTreeMap;

use super::{Parsed, Profile, View, below_root};
use crate::conventions;
use crate::inventory::{LoadStatus, LoaderVerdict};
use crate::text::{code_points, sanitize_line, truncate};

/// How deep below a convention folder a skill may sit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// `<skills>/<name>/SKILL.md` only.
    Immediate,
    /// Up to this many folders below the convention root.
    Recursive(usize),
}

/// What happens to a skill whose frontmatter cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Malformed {
    /// Loaded with empty metadata (the body still works).
    Lenient,
    /// Not loaded.
    Strict,
}

/// Name rule applied to the frontmatter `name`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NameRule {
    /// Not validated (the folder name is used).
    None,
    /// At most 64 characters.
    Length,
    /// `^[a-z0-9]+(-[a-z0-9]+)*$`, at most 64.
    Ascii,
}

/// Which copy wins when two loaded skills share a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Precedence {
    /// The first found in the order of `conventions`, then by path.
    First,
    /// The last found (later folders override earlier ones).
    Last,
    /// Names come from folders and cannot collide within one folder.
    NotApplicable,
}

/// One harness.
#[derive(Debug, Clone, Copy)]
pub struct Harness {
    pub id: &'static str,
    pub title: &'static str,
    pub conventions: &'static [&'static str],
    pub depth: Depth,
    /// Skips folders whose name starts with `.` while searching (Codex).
    pub skips_hidden: bool,
    pub malformed: Malformed,
    /// Rejects a BOM or blank lines before the opening `---`.
    pub strict_opener: bool,
    pub name_rule: NameRule,
    pub name_must_match_dir: bool,
    pub name_required: bool,
    pub description_required: bool,
    pub description_max: Option<usize>,
    pub follows_symlinks: bool,
    pub precedence: Precedence,
    /// Sources and which behaviours are assumptions.
    pub notes: &'static str,
}

/// The harness profiles.
pub const HARNESSES: &[Harness] = &[
    Harness {
        id: "claude-code",
        title: "Claude Code",
        conventions: &[".claude/skills", "plugins/*/skills", conventions::PLUGIN],
        depth: Depth::Immediate,
        skips_hidden: false,
        malformed: Malformed::Lenient,
        strict_opener: false,
        name_rule: NameRule::None,
        name_must_match_dir: false,
        name_required: false,
        description_required: false,
        description_max: None,
        follows_symlinks: true,
        precedence: Precedence::NotApplicable,
        notes: "Documented: `<skills>/<name>/SKILL.md` one level deep; the command name comes from the folder (`name` is a display label; plugin skills may rename); all fields optional, a missing description falls back to the body's first paragraph; malformed YAML loads the body with empty metadata; directory symlinks are followed. Plugin roots: `plugins/*/skills` and any folder with `.claude-plugin/plugin.json`.",
    },
    Harness {
        id: "vscode-copilot",
        title: "GitHub Copilot in VS Code (and Copilot CLI / cloud agent)",
        conventions: &[".github/skills", ".claude/skills", ".agents/skills"],
        depth: Depth::Immediate,
        skips_hidden: false,
        malformed: Malformed::Strict,
        strict_opener: false,
        name_rule: NameRule::Ascii,
        name_must_match_dir: true,
        name_required: true,
        description_required: true,
        description_max: Some(1024),
        follows_symlinks: true,
        precedence: Precedence::First,
        notes: "Documented: `<skills>/<name>/SKILL.md`; the name must equal the folder and invalid characters make the skill silently fail to load; description up to 1024. Assumed (undocumented): malformed YAML is not loaded, symlinks are followed, the first of two same-named skills wins in the order `.github`, `.claude`, `.agents`.",
    },
    Harness {
        id: "codex",
        title: "OpenAI Codex",
        conventions: &[".agents/skills", ".codex/skills"],
        depth: Depth::Recursive(6),
        skips_hidden: true,
        malformed: Malformed::Strict,
        strict_opener: true,
        name_rule: NameRule::Length,
        name_must_match_dir: false,
        name_required: true,
        description_required: true,
        description_max: Some(1024),
        follows_symlinks: true,
        precedence: Precedence::First,
        notes: "Documented (codex-rs loader): breadth-first search up to depth 6 and 2,000 folders per root, entries starting with `.` skipped, symlinked folders followed; first line must be `---` after trim (a BOM fails), closing `---` line; serde_yaml, malformed YAML not loaded; name only checked for length (64), description up to 1024; name need not match the folder. `.codex/skills` is the pre-2026 location. Assumed: the first of two same-named skills wins.",
    },
    Harness {
        id: "opencode",
        title: "OpenCode",
        conventions: &[
            ".opencode/skills",
            ".opencode/skill",
            ".claude/skills",
            ".agents/skills",
        ],
        depth: Depth::Immediate,
        skips_hidden: false,
        malformed: Malformed::Strict,
        strict_opener: false,
        name_rule: NameRule::Ascii,
        name_must_match_dir: true,
        name_required: true,
        description_required: true,
        description_max: Some(1024),
        follows_symlinks: true,
        precedence: Precedence::First,
        notes: "Documented (v1): exactly `skills/*/SKILL.md`; name `^[a-z0-9]+(-[a-z0-9]+)*$`, 1-64, equal to the folder; description 1-1024; unknown keys ignored; older releases used `.opencode/skill`. Assumed: malformed YAML is not loaded, symlinks followed, first wins.",
    },
    Harness {
        id: "cursor",
        title: "Cursor",
        conventions: &[
            ".agents/skills",
            ".cursor/skills",
            ".claude/skills",
            ".codex/skills",
        ],
        depth: Depth::Recursive(6),
        skips_hidden: false,
        malformed: Malformed::Lenient,
        strict_opener: false,
        name_rule: NameRule::None,
        name_must_match_dir: false,
        name_required: false,
        description_required: false,
        description_max: None,
        follows_symlinks: true,
        precedence: Precedence::First,
        notes: "Documented: recursive, category folders allowed, the name comes from the folder holding SKILL.md. Undocumented: frontmatter validation and malformed YAML — conservatively no exclusion is claimed for them; depth bounded at 6 like Codex; first wins.",
    },
    Harness {
        id: "gemini-cli",
        title: "Gemini CLI",
        conventions: &[".gemini/skills", ".agents/skills"],
        depth: Depth::Immediate,
        skips_hidden: false,
        malformed: Malformed::Strict,
        strict_opener: false,
        name_rule: NameRule::None,
        name_must_match_dir: false,
        name_required: true,
        description_required: true,
        description_max: None,
        follows_symlinks: true,
        precedence: Precedence::First,
        notes: "Documented: `.gemini/skills/` or its alias `.agents/skills/`; activation by name and description with user consent. Assumed: one level deep, name and description required, malformed YAML not loaded, symlinks followed, the first of two same-named skills wins (workspace beats user).",
    },
    Harness {
        id: "windsurf",
        title: "Windsurf / Cascade",
        conventions: &[".windsurf/skills"],
        depth: Depth::Immediate,
        skips_hidden: false,
        malformed: Malformed::Strict,
        strict_opener: false,
        name_rule: NameRule::Ascii,
        name_must_match_dir: false,
        name_required: true,
        description_required: true,
        description_max: None,
        follows_symlinks: true,
        precedence: Precedence::NotApplicable,
        notes: "Documented: `.windsurf/skills/<name>/` one level; the UI enforces a lowercase/number/hyphen name. Assumed: name and description required, malformed YAML not loaded, symlinks followed.",
    },
    Harness {
        id: "goose",
        title: "Goose",
        conventions: &[".goose/skills", ".claude/skills", ".agents/skills"],
        depth: Depth::Immediate,
        skips_hidden: false,
        malformed: Malformed::Strict,
        strict_opener: false,
        name_rule: NameRule::None,
        name_must_match_dir: false,
        name_required: true,
        description_required: true,
        description_max: None,
        follows_symlinks: true,
        precedence: Precedence::Last,
        notes: "Documented: `<skills>/<name>/SKILL.md` in `.agents/skills` with back-compat `.goose/skills` and `.claude/skills`; later folders override earlier ones on a name clash (order here: `.goose`, `.claude`, `.agents`). Assumed: name and description required, malformed YAML not loaded, symlinks followed.",
    },
];

fn ascii_name(n: &str) -> bool {
    !n.is_empty()
        && n.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

impl Harness {
    pub fn profile(&self) -> Profile {
        Profile {
            id: self.id,
            title: self.title,
            emulates: self.notes,
            conventions: self.conventions,
        }
    }

    /// Does this harness read the convention `conv` (a table path)?
    fn reads(&self, conv: &str) -> bool {
        self.conventions.contains(&conv)
    }

    /// Why this harness does not load the skill, or `None` when it does.
    fn check(
        &self,
        a: &crate::inventory::Artifact,
        parsed: Option<&Parsed>,
        below: &str,
    ) -> Option<String> {
        let depth = if below.is_empty() {
            0
        } else {
            below.split('/').count()
        };
        match self.depth {
            Depth::Immediate if depth != 1 => {
                return Some(if depth == 0 {
                    "the SKILL.md sits directly in the skills folder; only `<skills>/<name>/SKILL.md` is read".to_owned()
                } else {
                    format!(
                        "the folder is {depth} levels below the skills folder; only `<skills>/<name>/SKILL.md` is read"
                    )
                });
            }
            Depth::Recursive(max) if depth > max => {
                return Some(format!(
                    "the folder is {depth} levels below the skills folder; the search stops at {max}"
                ));
            }
            _ => {}
        }
        if self.skips_hidden && below.split('/').any(|s| s.starts_with('.')) {
            return Some(
                "a folder on the way starts with `.`, and hidden entries are skipped".to_owned(),
            );
        }
        if a.entry != "SKILL.md" {
            return Some(format!(
                "the file is named `{}`; exactly `SKILL.md` is read (on case-sensitive file systems)",
                a.entry
            ));
        }
        if !self.follows_symlinks && super::through_symlink(a) {
            return Some("symbolic links are not followed".to_owned());
        }
        let Some(doc) = parsed else {
            return Some("the file cannot be read".to_owned());
        };
        if self.strict_opener {
            if doc.bom {
                return Some(
                    "the file starts with a byte-order mark, so the first line is not `---`"
                        .to_owned(),
                );
            }
            if doc.leading_blank {
                return Some(
                    "blank lines precede `---`, so the first line is not `---`".to_owned(),
                );
            }
        }
        if let Some(why) = doc.failure {
            return match self.malformed {
                Malformed::Strict => {
                    Some(format!("{why}, and malformed frontmatter is not loaded"))
                }
                Malformed::Lenient => None,
            };
        }
        let name = doc.name.as_deref();
        let description = doc.description.as_deref();
        match name {
            None if self.name_required => return Some("it has no `name`".to_owned()),
            Some(n) => {
                let shown = sanitize_line(&truncate(n, 80)).into_owned();
                match self.name_rule {
                    NameRule::Ascii if !(ascii_name(n) && code_points(n) <= 64) => {
                        return Some(format!(
                            "the name `{shown}` breaks its rule `^[a-z0-9]+(-[a-z0-9]+)*$` (1-64)"
                        ));
                    }
                    NameRule::Length if code_points(n) > 64 => {
                        return Some(format!(
                            "the name is {} characters (limit 64)",
                            code_points(n)
                        ));
                    }
                    _ => {}
                }
                if self.name_must_match_dir && n != a.dir_name {
                    return Some(format!(
                        "the name `{shown}` does not match the folder `{}`",
                        sanitize_line(&a.dir_name)
                    ));
                }
            }
            None => {}
        }
        match description {
            None if self.description_required => return Some("it has no `description`".to_owned()),
            Some(d) if self.description_max.is_some_and(|m| code_points(d) > m) => {
                return Some(format!(
                    "the description is {} characters (limit {})",
                    code_points(d),
                    self.description_max.unwrap_or(0)
                ));
            }
            _ => {}
        }
        None
    }

    /// Verdicts for every skill under a convention this harness reads.
    pub fn evaluate(&self, view: &View<'_>) -> Vec<(usize, LoaderVerdict)> {
        let mut out = Vec::new();
        // (group, name) -> loaded skills in precedence order.
        let mut by_name: BTreeMap<(String, String), Vec<(usize, usize)>> = BTreeMap::new();
        for (i, a) in view.artifacts.iter().enumerate() {
            let Some(conv) = a.convention.as_deref() else {
                continue;
            };
            // `skills/.system` and friends are inside `skills`; a harness reading `skills`
            // reads them too, and none of these harnesses reads the bare `skills` folder.
            if !self.reads(conv) {
                continue;
            }
            let Some((_, below)) = below_root(a) else {
                continue;
            };
            let cause = self.check(a, view.parsed[i].as_ref(), below);
            if cause.is_none() && self.precedence != Precedence::NotApplicable {
                let name = a.name.to_lowercase();
                let order = self
                    .conventions
                    .iter()
                    .position(|c| *c == conv)
                    .unwrap_or(usize::MAX);
                let group = a.repo.clone().unwrap_or_default();
                by_name.entry((group, name)).or_default().push((order, i));
            }
            out.push((i, cause));
        }
        // Shadowing between same-named loaded skills.
        let mut shadowed: BTreeMap<usize, String> = BTreeMap::new();
        for (_, mut list) in by_name {
            if list.len() < 2 {
                continue;
            }
            list.sort();
            let winner = match self.precedence {
                Precedence::Last => list[list.len() - 1].1,
                _ => list[0].1,
            };
            for &(_, i) in &list {
                if i != winner {
                    shadowed.insert(i, view.artifacts[winner].path.clone());
                }
            }
        }
        out.into_iter()
            .map(|(i, cause)| {
                let (status, cause) = match (cause, shadowed.remove(&i)) {
                    (Some(c), _) => (LoadStatus::Excluded, Some(c)),
                    (None, Some(s)) => (LoadStatus::Shadowed, Some(s)),
                    (None, None) => (LoadStatus::Loaded, None),
                };
                (
                    i,
                    LoaderVerdict {
                        exposes: None,
                        profile: self.id,
                        status,
                        cause,
                    },
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_unique_and_conventions_known() {
        let mut seen = std::collections::BTreeSet::new();
        for h in HARNESSES {
            assert!(seen.insert(h.id));
            for c in h.conventions {
                assert!(
                    conventions::by_path(c).is_some(),
                    "{}: unknown convention {c}",
                    h.id
                );
            }
        }
        assert!(ascii_name("a-b1"));
        assert!(!ascii_name("a--b") && !ascii_name("-a") && !ascii_name("A"));
    }
}
