//! Rules. Metadata and documentation live in the catalog (`rules/*.md`); the
//! checks that need code live here, one module per concern, registered in the
//! explicit [`CHECKS`] list.
//!
//! Findings produced during discovery and parsing (walk bounds, unreadable
//! paths, frontmatter anomalies) come from [`parsing`] and [`inventory`]; field
//! and body rules run on the parsed [`SkillDoc`]; the authoring advisories of
//! [`quality`] also see the skill's other files and the scan's [`crate::catalog::Enabled`].

pub mod body;
pub mod fields;
pub mod ids;
pub mod inventory;
pub mod parsing;
pub mod quality;

use crate::finding::{Finding, Location};
use crate::inventory::FileEntry;
use crate::parse::frontmatter::Split;
use crate::parse::markdown::Body;
use crate::parse::yaml::{Doc, Node, Pos};
use crate::text::LineIndex;

/// The parsed entry file of a skill: what field and body rules see.
#[derive(Debug)]
pub struct SkillDoc {
    /// Decoded text (invalid UTF-8 replaced by U+FFFD).
    pub text: String,
    pub lines: LineIndex,
    pub split: Split,
    /// The YAML document when the frontmatter was split and parsed.
    pub yaml: Option<Doc>,
    /// The body's Markdown structure.
    pub body: Body,
    /// Byte offset and 1-based line where the body starts.
    pub body_start: usize,
    pub body_first_line: usize,
}

impl SkillDoc {
    /// The frontmatter root mapping, if any.
    pub fn root(&self) -> Option<&Node> {
        self.yaml.as_ref().and_then(|d| d.root.as_ref())
    }

    /// Maps a YAML position onto file line and column.
    pub fn file_pos(&self, p: Pos) -> (u32, u32) {
        (
            (self.split.yaml_first_line + p.line).saturating_sub(1) as u32,
            p.col as u32,
        )
    }

    pub fn body_text(&self) -> &str {
        &self.text[self.body_start.min(self.text.len())..]
    }
}

/// What a check can see and where it reports.
pub struct Cx<'a> {
    /// Skill name for findings (frontmatter name, else directory name).
    pub skill: &'a str,
    /// Skill directory relative to the scan base.
    pub skill_path: &'a str,
    /// Directory name.
    pub dir_name: &'a str,
    /// Entry file path relative to the scan base.
    pub entry_path: String,
    /// The skill's files, paths relative to the skill directory.
    pub files: &'a [FileEntry],
    pub findings: Vec<Finding>,
}

impl Cx<'_> {
    /// Emits a finding of `rule` at `location`; `anchor` feeds the fingerprint.
    pub fn emit(&mut self, rule: &'static str, message: String, location: Location, anchor: &str) {
        let f = Finding::new(rule, message, location).for_skill(
            Some(self.skill),
            Some(self.skill_path),
            anchor,
        );
        self.findings.push(f);
    }

    /// Emits with extra related locations.
    pub fn emit_related(
        &mut self,
        rule: &'static str,
        message: String,
        location: Location,
        anchor: &str,
        related: Vec<(Location, String)>,
    ) {
        let mut f = Finding::new(rule, message, location);
        for (l, m) in related {
            f = f.with_related(l, m);
        }
        self.findings
            .push(f.for_skill(Some(self.skill), Some(self.skill_path), anchor));
    }

    /// A location in the entry file.
    pub fn at(&self, line: u32, col: u32) -> Location {
        Location::at(self.entry_path.clone(), line, col)
    }

    /// A path inside the skill, relative to the scan base.
    pub fn path_of(&self, in_skill: &str) -> String {
        if self.skill_path.is_empty() {
            in_skill.to_owned()
        } else {
            format!("{}/{}", self.skill_path, in_skill)
        }
    }
}

/// A check over a parsed skill document.
pub type Check = fn(&SkillDoc, &mut Cx<'_>);

/// Every document-level check, in the order they run. Discovery- and
/// parse-level rules are emitted by [`parsing`] and [`inventory`].
pub const CHECKS: &[(&str, Check)] = &[
    ("name", fields::check_name),
    ("description", fields::check_description),
    ("compatibility", fields::check_compatibility),
    ("metadata", fields::check_metadata),
    ("allowed-tools", fields::check_allowed_tools),
    ("keys", fields::check_keys),
    ("body-length", body::check_length),
    ("file-references", body::check_references),
];
