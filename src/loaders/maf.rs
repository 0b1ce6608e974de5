//! Microsoft Agent Framework (.NET, `AgentFileSkillsSource`, 1.13–1.17 and the
//! 1.18 hardening): its regex frontmatter reader, its validation, and its
//! depth-2 discovery, emulated from the behaviour documented for those versions.

use crate::text::utf16_units;

/// Frontmatter fields as MAF's reader sees them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields {
    pub name: Option<String>,
    pub description: Option<String>,
    pub license: Option<String>,
    pub compatibility: Option<String>,
    pub allowed_tools: Option<String>,
}

/// Why MAF's frontmatter regex does not match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoMatch {
    /// The text (after the reader strips one BOM) does not start with a `---` line.
    NoOpeningLine,
    /// A leading blank line before `---`.
    LeadingBlank,
    /// A second byte-order mark left in the text.
    ExtraBom,
    /// No closing line made of `---` and optional whitespace.
    NoClosingLine,
}

impl NoMatch {
    pub fn explain(self) -> &'static str {
        match self {
            NoMatch::NoOpeningLine => {
                "the file does not start with a `---` line (MAF's frontmatter regex needs `---` at the very first byte)"
            }
            NoMatch::LeadingBlank => {
                "a blank line precedes the opening `---` (MAF's frontmatter regex needs `---` at the very first byte)"
            }
            NoMatch::ExtraBom => {
                "a second byte-order mark is left after the reader strips the first, so `---` is not at the start"
            }
            NoMatch::NoClosingLine => {
                "there is no closing `---` line (`----` and a YAML `...` do not count)"
            }
        }
    }
}

/// Reads the file as `File.ReadAllText(path, UTF8)` does: strips one UTF-8 BOM
/// and replaces invalid bytes by U+FFFD.
pub fn read_text(bytes: &[u8]) -> String {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(b) {
        Ok(t) => t.to_owned(),
        Err(_) => String::from_utf8_lossy(b).into_owned(),
    }
}

fn is_dashes_line(line: &str) -> bool {
    line.strip_prefix("---")
        .is_some_and(|r| r.chars().all(char::is_whitespace))
}

/// Applies MAF's frontmatter regex (`\A\uFEFF?^---\s*$(.*?)^---\s*$`, multiline
/// and singleline) and returns the captured block, trimmed.
pub fn frontmatter_block(text: &str) -> Result<&str, NoMatch> {
    if text.starts_with('\u{FEFF}') {
        return Err(NoMatch::ExtraBom);
    }
    let mut lines = text.split_inclusive('\n');
    let first = lines.next().unwrap_or("");
    if !is_dashes_line(first.trim_end_matches(['\n', '\r'])) {
        let t = text.trim_start();
        return Err(if t.len() < text.len() && t.starts_with("---") {
            NoMatch::LeadingBlank
        } else {
            NoMatch::NoOpeningLine
        });
    }
    let start = first.len();
    let mut pos = start;
    for line in lines {
        if is_dashes_line(line.trim_end_matches(['\n', '\r'])) {
            return Ok(text[start..pos].trim());
        }
        pos += line.len();
    }
    Err(NoMatch::NoClosingLine)
}

fn is_key_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// Parses a `key: value` line start: returns (key, rest after the colon).
fn key_line(line: &str) -> Option<(&str, &str)> {
    let key_end = line.find(|c: char| !is_key_char(c))?;
    if key_end == 0 {
        return None;
    }
    let key = &line[..key_end];
    let rest = line[key_end..].trim_start();
    let rest = rest.strip_prefix(':')?;
    Some((key, rest))
}

/// The value of a quoted scalar: an opening `'` or `"`, at least one character,
/// a closing `'` or `"` (types need not match) and only whitespace after it.
fn quoted(v: &str) -> Option<&str> {
    let first = v.chars().next()?;
    if first != '"' && first != '\'' {
        return None;
    }
    let body = &v[1..];
    // Lazy: the first closing quote (after at least one char) followed by whitespace only.
    for (i, c) in body.char_indices() {
        if i > 0 && (c == '"' || c == '\'') && body[i + 1..].trim().is_empty() {
            return Some(&body[..i]);
        }
    }
    None
}

fn block_scalar(indicator: &str, following: &[&str]) -> String {
    let keep = indicator[1..].contains('+');
    let folded = indicator.starts_with('>');
    let taken: Vec<&str> = following
        .iter()
        .take_while(|l| l.trim().is_empty() || l.starts_with([' ', '\t']))
        .copied()
        .collect();
    let indent = taken
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    let stripped: Vec<&str> = taken
        .iter()
        .map(|l| {
            if l.len() >= indent {
                &l[indent..]
            } else {
                l.trim_start()
            }
        })
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    let mut v = if folded {
        stripped
            .iter()
            .filter(|l| !l.trim().is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ")
    } else {
        stripped.join("\n").trim_end_matches('\n').to_owned()
    };
    if keep {
        v.push('\n');
    }
    v
}

/// MAF's key/value reader over the trimmed frontmatter block.
pub fn read_fields(block: &str) -> Fields {
    let lines: Vec<&str> = block
        .split('\n')
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    let mut f = Fields::default();
    let mut i = 0;
    while i < lines.len() {
        let Some((key, rest)) = key_line(lines[i]) else {
            i += 1;
            continue;
        };
        let mut value_line = rest.trim();
        let mut next = i + 1;
        if value_line.is_empty() {
            // `\s*` after the colon crosses the line break: the next non-blank line
            // becomes the value and is consumed.
            while next < lines.len() && lines[next].trim().is_empty() {
                next += 1;
            }
            if next < lines.len() {
                value_line = lines[next].trim();
                next += 1;
            }
        }
        let value = if let Some(q) = quoted(value_line) {
            q.to_owned()
        } else if value_line.starts_with(['|', '>'])
            && value_line[1..]
                .chars()
                .all(|c| c == '+' || c == '-' || c.is_ascii_digit())
        {
            let v = block_scalar(value_line, &lines[next..]);
            while next < lines.len()
                && (lines[next].trim().is_empty() || lines[next].starts_with([' ', '\t']))
            {
                next += 1;
            }
            v
        } else {
            value_line.to_owned()
        };
        match key.to_lowercase().as_str() {
            "name" => f.name = Some(value),
            "description" => f.description = Some(value),
            "license" => f.license = Some(value),
            "compatibility" => f.compatibility = Some(value),
            "allowed-tools" => f.allowed_tools = Some(value),
            _ => {}
        }
        i = next;
    }
    f
}

/// Result of MAF's per-skill load.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Load {
    Loaded(Fields),
    /// Silently excluded, with the cause.
    Excluded(String),
    /// `compatibility` over 500: the constructor throws and discovery fails for the whole root.
    RootFailure(String),
}

fn valid_name(n: &str) -> bool {
    // ^[a-z0-9]([a-z0-9]*-[a-z0-9])*[a-z0-9]*$
    let b = n.as_bytes();
    let ok = |c: &u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    !b.is_empty()
        && ok(&b[0])
        && ok(&b[b.len() - 1])
        && b.iter().all(|c| ok(c) || *c == b'-')
        && !n.contains("--")
}

/// Loads one skill file as MAF does, given its bytes and its directory name.
pub fn load(bytes: &[u8], dir_name: &str) -> Load {
    load_read(&read(bytes), dir_name)
}

/// MAF's read of an entry file: the text as its reader decodes it, the frontmatter its
/// regex finds, and the fields its line reader takes from it. Made once per skill (by the
/// analysis, into [`super::Parsed`]) and shared by both MAF profiles, the field
/// differentials and AgentEval's structural fingerprint.
pub fn read(bytes: &[u8]) -> Result<Fields, NoMatch> {
    let text = read_text(bytes);
    frontmatter_block(&text).map(read_fields)
}

/// [`load`] over a [`read`] already made.
pub fn load_read(read: &Result<Fields, NoMatch>, dir_name: &str) -> Load {
    let f = match read {
        Ok(f) => f,
        Err(e) => {
            return Load::Excluded(format!("MAF finds no valid frontmatter: {}", e.explain()));
        }
    };
    let name = f.name.clone().unwrap_or_default();
    if name.trim().is_empty() {
        return Load::Excluded(match &f.name {
            None => "MAF reads no `name` key".to_owned(),
            Some(_) => "MAF reads an empty `name`".to_owned(),
        });
    }
    if utf16_units(&name) > 64 {
        return Load::Excluded(format!(
            "MAF reads a `name` of {} UTF-16 units (limit 64)",
            utf16_units(&name)
        ));
    }
    if !valid_name(&name) {
        return Load::Excluded(format!(
            "MAF reads `name` as `{}`, which fails its name rule `^[a-z0-9]([a-z0-9]*-[a-z0-9])*[a-z0-9]*$`",
            crate::text::sanitize_line(&crate::text::truncate(&name, 80))
        ));
    }
    let desc = f.description.clone().unwrap_or_default();
    if desc.trim().is_empty() {
        return Load::Excluded(match &f.description {
            None => "MAF reads no `description` key".to_owned(),
            Some(_) => "MAF reads an empty `description`".to_owned(),
        });
    }
    if utf16_units(&desc) > 1024 {
        return Load::Excluded(format!(
            "MAF reads a `description` of {} UTF-16 units (limit 1024)",
            utf16_units(&desc)
        ));
    }
    if let Some(c) = &f.compatibility
        && utf16_units(c) > 500
    {
        return Load::RootFailure(format!(
            "`compatibility` is {} UTF-16 units (limit 500): MAF's constructor throws and discovery fails for the whole root",
            utf16_units(c)
        ));
    }
    if name != dir_name {
        return Load::Excluded(format!(
            "MAF reads `name` as `{}`, which does not match the directory `{}` (ordinal comparison)",
            crate::text::sanitize_line(&name),
            crate::text::sanitize_line(dir_name)
        ));
    }
    Load::Loaded(f.clone())
}

/// The roots AgentEval hands to MAF in repository scans (its nine conventions).
pub const ROOTS: &[&str] = &[
    ".claude/skills",
    ".agents/skills",
    ".windsurf/skills",
    ".roo/skills",
    ".continue/skills",
    ".augment/skills",
    ".cursor/skills",
    ".codeium/skills",
    "skills",
];

fn depth_below(root: &str, path: &str) -> Option<usize> {
    if root.is_empty() {
        return Some(if path.is_empty() {
            0
        } else {
            path.split('/').count()
        });
    }
    if path == root {
        return Some(0);
    }
    let rest = path.strip_prefix(root)?.strip_prefix('/')?;
    Some(rest.split('/').count())
}

/// MAF's default resource and script extensions (case-insensitive).
pub const RESOURCE_EXT: &[&str] = &["md", "json", "yaml", "yml", "csv", "xml", "txt"];
pub const SCRIPT_EXT: &[&str] = &["py", "js", "sh", "ps1", "cs", "csx"];

/// What MAF's file-skill source exposes: files within the skill folder and one
/// level of sub-folders (search depth 2), by extension allow-list, symlinks
/// skipped; `SKILL.md` is never a resource.
pub fn exposure(a: &crate::inventory::Artifact) -> crate::inventory::Exposure {
    let mut e = crate::inventory::Exposure {
        resources: Vec::new(),
        scripts: Vec::new(),
        not_exposed: Vec::new(),
    };
    for f in &a.files {
        if f.path.eq_ignore_ascii_case("skill.md") {
            continue;
        }
        let depth_ok = f.path.split('/').count() <= 2;
        let linked = f.symlink.is_some();
        let ext = f
            .path
            .rsplit('/')
            .next()
            .and_then(|n| n.rsplit_once('.'))
            .map(|(_, x)| x.to_ascii_lowercase())
            .unwrap_or_default();
        if depth_ok && !linked && RESOURCE_EXT.contains(&ext.as_str()) {
            e.resources.push(f.path.clone());
        } else if depth_ok && !linked && SCRIPT_EXT.contains(&ext.as_str()) {
            e.scripts.push(f.path.clone());
        } else {
            e.not_exposed.push(f.path.clone());
        }
    }
    e
}

fn verdict(profile: &'static str, cause: Option<String>) -> crate::inventory::LoaderVerdict {
    crate::inventory::LoaderVerdict {
        exposes: None,
        profile,
        status: if cause.is_some() {
            crate::inventory::LoadStatus::Excluded
        } else {
            crate::inventory::LoadStatus::Loaded
        },
        cause,
    }
}

/// Evaluates MAF discovery and loading over every MAF root of every group.
pub fn evaluate(
    view: &super::View<'_>,
    v118: bool,
) -> Vec<(usize, crate::inventory::LoaderVerdict)> {
    use std::collections::BTreeMap;
    let profile: &'static str = if v118 { "maf-1.18" } else { "maf" };
    let by_root = roots(view);
    let mut out = Vec::new();
    // Names already loaded, per group: the provider keeps the first of a name.
    let mut seen_names: BTreeMap<(usize, String), String> = BTreeMap::new();
    let mut shadowed: BTreeMap<usize, String> = BTreeMap::new();
    for ((gi, _, root), members) in by_root {
        let arts = view.artifacts;
        let exact = |i: usize| arts[i].entry == "SKILL.md";
        let root_skill = members
            .iter()
            .copied()
            .find(|&i| arts[i].path == root && exact(i));
        let mut causes: BTreeMap<usize, Option<String>> = BTreeMap::new();
        let mut candidates: Vec<usize> = Vec::new();
        // Folders below the root holding exactly `SKILL.md`: the first member of each.
        let mut skill_dirs: std::collections::HashMap<&str, usize> = Default::default();
        for &o in &members {
            if exact(o) && arts[o].path != root {
                skill_dirs.entry(arts[o].path.as_str()).or_insert(o);
            }
        }
        for &i in &members {
            let cause = discovery_cause(arts, &skill_dirs, &root, root_skill, i, v118);
            if cause.is_none() {
                candidates.push(i);
            }
            causes.insert(i, cause);
        }
        // A folder MAF cannot enumerate fails the whole root before 1.18.
        let unreadable = view
            .unreadable_dirs
            .iter()
            .find(|d| depth_below(&root, d).is_some_and(|n| n > 0 && n <= 2));
        let mut root_failure: Option<String> = match (unreadable, v118) {
            (Some(d), false) => Some(format!(
                "the folder `{d}` cannot be enumerated, so MAF's discovery throws for the whole root"
            )),
            _ => None,
        };
        let mut loads: Vec<(usize, Load)> = Vec::new();
        for &i in &candidates {
            let a = &arts[i];
            let l = match &view.parsed[i] {
                Some(p) => load_read(&p.maf, &a.dir_name),
                None => Load::Excluded("MAF cannot read the file".to_owned()),
            };
            if let Load::RootFailure(why) = &l
                && root_failure.is_none()
            {
                root_failure = Some(format!(
                    "`{}/SKILL.md`: {why}",
                    if a.path.is_empty() {
                        "."
                    } else {
                        a.path.as_str()
                    }
                ));
            }
            loads.push((i, l));
        }
        for (i, l) in loads {
            let cause = match l {
                Load::Excluded(why) => Some(why),
                Load::RootFailure(why) => Some(why),
                Load::Loaded(f) => {
                    let key = (gi, f.name.clone().unwrap_or_default().to_lowercase());
                    match seen_names.get(&key) {
                        Some(first) if root_failure.is_none() => {
                            shadowed.insert(i, first.clone());
                            None
                        }
                        _ => {
                            if root_failure.is_none() {
                                seen_names.insert(key, arts[i].path.clone());
                            }
                            None
                        }
                    }
                }
            };
            causes.insert(i, cause);
        }
        for (i, cause) in causes {
            // A root-wide failure takes every skill of the root down, whatever else
            // would have happened to it; the cause names the file responsible.
            let cause = match &root_failure {
                Some(rf) => Some(format!("{ROOT_FAILURE}{rf}")),
                None => cause,
            };
            let mut v = verdict(profile, cause);
            // The inventory is the same for both MAF versions: report it once, on `maf`.
            if !v118 && v.status != crate::inventory::LoadStatus::Excluded {
                v.exposes = Some(exposure(&arts[i]));
            }
            if v.status == crate::inventory::LoadStatus::Loaded
                && let Some(winner) = shadowed.remove(&i)
            {
                v.status = crate::inventory::LoadStatus::Shadowed;
                v.cause = Some(winner);
            }
            out.push((i, v));
        }
    }
    out
}

/// The artifacts under each MAF root, by (group, convention order, root path): the scanned
/// path, or the outermost AgentEval convention root of the artifact.
fn roots(view: &super::View<'_>) -> std::collections::BTreeMap<(usize, usize, String), Vec<usize>> {
    use std::collections::BTreeMap;
    let mut by_root: BTreeMap<(usize, usize, String), Vec<usize>> = BTreeMap::new();
    // Group of each artifact: by repository name in a workspace, else the only group.
    let by_repo: BTreeMap<Option<&str>, usize> = view
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| (g.repo.as_deref(), i))
        .collect();
    for (i, a) in view.artifacts.iter().enumerate() {
        let Some(&gi) = by_repo.get(&a.repo.as_deref()) else {
            continue;
        };
        let g = &view.groups[gi];
        let root = if view.path_mode {
            Some((0, g.boundary_rel.clone()))
        } else {
            ROOTS.iter().enumerate().find_map(|(ri, conv)| {
                g.convention_roots
                    .iter()
                    .filter(|(root, c)| c.path == *conv && depth_below(root, &a.path).is_some())
                    .map(|(root, _)| (ri, root.clone()))
                    .min_by_key(|(_, r)| r.len())
            })
        };
        if let Some((order, root)) = root {
            by_root.entry((gi, order, root)).or_default().push(i);
        }
    }
    by_root
}

/// The start of the cause every skill of a root gets when MAF's discovery throws for it.
pub const ROOT_FAILURE: &str = "discovery failed for the whole root: ";

/// Whether a `maf` verdict's cause means the folder is out of the reach of MAF's discovery
/// *and* of AgentEval's raw mirror of it (depth, single-skill mode, below another skill), so
/// AgentEval never mentions it. A `skill.md` of another case is in the raw mirror's reach
/// (it matches file names case-insensitively) and reported by AgentEval as excluded.
pub fn beyond_discovery(cause: &str) -> bool {
    cause.starts_with("hidden: ")
        || (cause.starts_with("the folder is ") && cause.contains(" levels below "))
}

/// Why MAF's discovery does not reach artifact `i` of a root (None: it reaches it, and
/// its SKILL.md is then read).
fn discovery_cause(
    arts: &[crate::inventory::Artifact],
    skill_dirs: &std::collections::HashMap<&str, usize>,
    root: &str,
    root_skill: Option<usize>,
    i: usize,
    v118: bool,
) -> Option<String> {
    let exact = |i: usize| arts[i].entry == "SKILL.md";
    let a = &arts[i];
    let d = depth_below(root, &a.path).unwrap_or(usize::MAX);
    let shown_root = if root.is_empty() { "." } else { root };
    if let Some(r) = root_skill.filter(|r| *r != i) {
        Some(format!(
            "hidden: `{}` at the root puts MAF in single-skill mode for `{shown_root}`, so nothing below it is searched",
            if arts[r].path.is_empty() {
                "SKILL.md".to_owned()
            } else {
                format!("{}/SKILL.md", arts[r].path)
            }
        ))
    } else if d > 2 {
        Some(format!(
            "the folder is {d} levels below `{shown_root}`; MAF searches only two levels"
        ))
    } else if let Some(anc) = a
        .path
        .match_indices('/')
        .filter_map(|(k, _)| skill_dirs.get(&a.path[..k]).copied())
        .filter(|&o| o != i)
        .min()
    {
        Some(format!(
            "hidden: MAF stops descending at `{}/SKILL.md`, so skills below it are never found",
            arts[anc].path
        ))
    } else if !exact(i) {
        Some(format!(
            "the file is named `{}`; MAF looks for exactly `SKILL.md` (case-sensitive on Linux)",
            a.entry
        ))
    } else if v118 && super::through_symlink(a) {
        Some(
            "MAF 1.18+ skips symlinked skill folders and SKILL.md files (with a warning)"
                .to_owned(),
        )
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Fields {
        read_fields(frontmatter_block(text).unwrap())
    }

    #[test]
    fn r_and_f_rows() {
        // F05 quotes, F13 verbatim values.
        let f = fields(
            "---\nname: 'quoted-skill'\ndescription: \"A quoted description\"\nlicense: MIT\ncompatibility: Requires Node.js 18+\nallowed-tools: grep glob bash\n---\n",
        );
        assert_eq!(f.name.as_deref(), Some("quoted-skill"));
        assert_eq!(f.description.as_deref(), Some("A quoted description"));
        assert_eq!(f.allowed_tools.as_deref(), Some("grep glob bash"));
        assert_eq!(f.compatibility.as_deref(), Some("Requires Node.js 18+"));
        // F06/F07 block scalars.
        let lit = fields(
            "---\ndescription: |\n  This is a multiline\n  description for the skill.\n---\n",
        );
        assert_eq!(
            lit.description.as_deref(),
            Some("This is a multiline\ndescription for the skill.")
        );
        let fold = fields(
            "---\ndescription: >\n  This is a multiline\n  description for the skill.\n---\n",
        );
        assert_eq!(
            fold.description.as_deref(),
            Some("This is a multiline description for the skill.")
        );
        let keep = fields("---\ndescription: |+\n  a\n  b\n---\n");
        assert_eq!(keep.description.as_deref(), Some("a\nb\n"));
        let fold_keep = fields("---\ndescription: >+\n  a\n  b\n---\n");
        assert_eq!(fold_keep.description.as_deref(), Some("a b\n"));
        // Plain continuation lines: first line only.
        let plain = fields("---\ndescription: first\n  second\n---\n");
        assert_eq!(plain.description.as_deref(), Some("first"));
    }

    #[test]
    fn derived_edge_cases() {
        // Empty value swallows the next line.
        let f = fields("---\nname:\ndescription: foo\n---\n");
        assert_eq!(f.name.as_deref(), Some("description: foo"));
        assert_eq!(f.description, None);
        let f = fields("---\nname: x\ndescription:\nlicense: MIT\n---\n");
        assert_eq!(f.description.as_deref(), Some("license: MIT"));
        // `""` is the two-character value.
        assert_eq!(
            fields("---\ndescription: \"\"\n---\n")
                .description
                .as_deref(),
            Some("\"\"")
        );
        // Mismatched quotes accepted; comments kept; capitalised keys; last duplicate wins.
        assert_eq!(fields("---\nname: 'x\"\n---\n").name.as_deref(), Some("x"));
        assert_eq!(
            fields("---\nname: a # c\n---\n").name.as_deref(),
            Some("a # c")
        );
        assert_eq!(
            fields("---\nName: a\nNAME: b\n---\n").name.as_deref(),
            Some("b")
        );
        // A list under allowed-tools yields `- Bash`.
        assert_eq!(
            fields("---\nallowed-tools:\n  - Bash\n---\n")
                .allowed_tools
                .as_deref(),
            Some("- Bash")
        );
        // Indented keys are not keys.
        assert_eq!(fields("---\nmetadata:\n  name: x\n---\n").name, None);
    }

    #[test]
    fn frontmatter_regex() {
        assert!(frontmatter_block("---\r\nname: a\r\n---\r\n").is_ok());
        assert_eq!(
            frontmatter_block("\n---\nname: a\n---\n"),
            Err(NoMatch::LeadingBlank)
        );
        assert_eq!(
            frontmatter_block("---\nname: a\n"),
            Err(NoMatch::NoClosingLine)
        );
        assert_eq!(
            frontmatter_block("----\nname: a\n---\n"),
            Err(NoMatch::NoOpeningLine)
        );
        assert_eq!(
            frontmatter_block("---\nname: a\n----\n"),
            Err(NoMatch::NoClosingLine)
        );
        assert_eq!(
            frontmatter_block("---\nname: a\n...\n"),
            Err(NoMatch::NoClosingLine)
        );
        assert_eq!(read_text(b"\xEF\xBB\xBF---\n"), "---\n");
        assert_eq!(
            frontmatter_block(&read_text(b"\xEF\xBB\xBF\xEF\xBB\xBF---\nname: a\n---\n")),
            Err(NoMatch::ExtraBom)
        );
    }

    #[test]
    fn validation_f_rows() {
        let ok = |name: &str| format!("---\nname: {name}\ndescription: d\n---\n");
        for n in ["my-skill", "a", "skill123", "a1b2c3"] {
            assert!(matches!(load(ok(n).as_bytes(), n), Load::Loaded(_)), "{n}");
        }
        for n in [
            "-leading-hyphen",
            "trailing-hyphen-",
            "has spaces",
            "UPPERCASE",
            "BadName",
            "consecutive--hyphens",
            "special!chars",
            &"a".repeat(65),
        ] {
            assert!(
                matches!(load(ok(n).as_bytes(), n), Load::Excluded(_)),
                "{n}"
            );
        }
        let desc = |d: &str| format!("---\nname: s\ndescription: {d}\n---\n");
        assert!(matches!(
            load(desc(&"d".repeat(1025)).as_bytes(), "s"),
            Load::Excluded(_)
        ));
        assert!(matches!(
            load(desc("   ").as_bytes(), "s"),
            Load::Excluded(_)
        ));
        let compat = |n: usize| {
            format!(
                "---\nname: s\ndescription: d\ncompatibility: {}\n---\n",
                "c".repeat(n)
            )
        };
        assert!(matches!(load(compat(500).as_bytes(), "s"), Load::Loaded(_)));
        assert!(matches!(
            load(compat(501).as_bytes(), "s"),
            Load::RootFailure(_)
        ));
        assert!(matches!(
            load(ok("actual-skill-name").as_bytes(), "wrong-dir-name"),
            Load::Excluded(_)
        ));
        // An emoji counts two UTF-16 units.
        let d = format!("---\nname: s\ndescription: {}\n---\n", "😀".repeat(513));
        assert!(matches!(load(d.as_bytes(), "s"), Load::Excluded(_)));
    }
}
