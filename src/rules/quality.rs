//! Skill-authoring advisories after Waza (`waza check`, microsoft/waza; docs/rules.md), the rules of category `quality`: the
//! description's routing phrases and length, the token budget of each Markdown file, links
//! to directories, `references/` files nothing reaches, `license` and `metadata.version`,
//! and absolute paths of one machine.
//!
//! Rules that fire on most real skills are off by default ([`Enabled`]; the counts are in
//! `docs/design.md`). Where a rule departs from Waza to avoid false positives on real
//! skills, its catalog entry (`rules/<id>.md`) says so. Of these, agent files get the
//! description's score ([`description_quality`]); prompt and instruction files get none.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::sync::LazyLock;

use regex::Regex;

use super::body::{Resolved, resolve};
use super::fields::{string_value, top};
use super::{Cx, SkillDoc, ids};
use crate::catalog::Enabled;
use crate::inventory::{FileEntry, FileKind, LinkState};
use crate::parse::yaml::NodeKind;
use crate::text::{code_points, sanitize_line};

/// Runs the quality rules this scan runs over one skill. `contents` holds the bytes of the
/// skill's other files that were read (path inside the skill, bytes).
pub fn check(doc: &SkillDoc, cx: &mut Cx<'_>, contents: &[(String, Vec<u8>)], on: &Enabled) {
    let texts = Texts::new(contents);
    if on.runs(ids::DESCRIPTION_QUALITY) {
        description_quality(doc, cx, "skill");
    }
    if on.runs(ids::LICENSE_MISSING) {
        license(doc, cx);
    }
    if on.runs(ids::METADATA_VERSION_MISSING) {
        version(doc, cx);
    }
    if on.runs(ids::TOKEN_BUDGET_EXCEEDED) {
        token_budget(doc, cx, &texts);
    }
    if on.runs(ids::FILE_REFERENCE_DIRECTORY) {
        directory_links(doc, cx);
    }
    if on.runs(ids::REFERENCE_ORPHANED) {
        orphans(doc, cx, &texts);
    }
    if on.runs(ids::PATH_OVER_SPECIFIC) {
        over_specific(doc, cx);
    }
}

/// A user's home folder on Linux (`/home/NAME`) or macOS (`/Users/NAME`), not after a word,
/// path or variable character (`$HOME/x`, `~/x`, `a/home/b` are not absolute).
static HOME_PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[^\w.~$/\\-])(/(?:home|Users)/([^/\s`'"()<>\[\]{}|*?;:,]+)[^\s`'"()<>\[\]{}|*?;,]*)"#,
    )
    .expect("valid regex")
});

/// A Windows drive path (`C:\x`, `D:/x`), not after a word or path character (`http://`).
static DRIVE_PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|[^\w/\\.-])([A-Za-z]:[\\/][^\s`'"()<>\[\]{}|*?;,]*)"#).expect("valid regex")
});

/// User names that stand for "your user name" in examples.
const PLACEHOLDER_USERS: &[&str] = &[
    "user",
    "username",
    "user-name",
    "user_name",
    "you",
    "yourname",
    "your-name",
    "your_name",
    "yourusername",
    "your-username",
    "your_username",
    "youruser",
    "your-user",
    "me",
    "name",
    "example",
    "someone",
    "somebody",
    "foo",
    "xxx",
    "runner",
];

/// Does an example path stand for any user's (`/home/user`, `C:\Users\<you>`,
/// `C:\path\to\file`)?
fn placeholder_path(path: &str, user: Option<&str>) -> bool {
    let lower = path.to_ascii_lowercase();
    if [
        "<", "%", "$", "{", "...", "…", "path\\to", "path/to", "your",
    ]
    .iter()
    .any(|m| lower.contains(m))
    {
        return true;
    }
    user.is_some_and(|u| {
        let u = u.to_ascii_lowercase();
        PLACEHOLDER_USERS.contains(&u.as_str()) || u.chars().all(|c| c == 'x' || c == '*')
    })
}

/// `path-over-specific`: absolute paths of one machine or user in `SKILL.md` (Waza's
/// `over-specificity`, paths only), one finding per file at the first one. System paths
/// (`/usr/bin/env`, `/etc/hosts`), placeholders and paths in links already reported by
/// `file-reference-escapes-skill` are left out.
fn over_specific(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let escaped: Vec<String> = doc
        .body
        .links
        .iter()
        .filter(|l| resolve(&l.url) == Resolved::Escapes)
        .map(|l| l.url.trim().to_owned())
        .collect();
    let text = doc.text.as_str();
    let mut hits: Vec<(usize, &str)> = Vec::new();
    for c in HOME_PATH.captures_iter(text) {
        let (Some(p), Some(u)) = (c.get(1), c.get(2)) else {
            continue;
        };
        if !placeholder_path(p.as_str(), Some(u.as_str())) {
            hits.push((p.start(), p.as_str()));
        }
    }
    for c in DRIVE_PATH.captures_iter(text) {
        let Some(p) = c.get(1) else { continue };
        let path = p.as_str();
        // `C:\` alone names a drive, not a path.
        if path.len() <= 3 {
            continue;
        }
        let user = path.get(3..).and_then(|rest| {
            let mut segs = rest.split(['\\', '/']);
            (segs.next()?.eq_ignore_ascii_case("users")).then(|| segs.next())?
        });
        if !placeholder_path(path, user) {
            hits.push((p.start(), path));
        }
    }
    // A path inside a link that climbs out of the skill is another rule's. Exact matches by
    // hash; the substring test only while hits × links stays small (linear in the file).
    let exact: std::collections::HashSet<&str> = escaped.iter().map(String::as_str).collect();
    let small = hits.len().saturating_mul(escaped.len()) <= 1_000_000;
    hits.retain(|(_, p)| {
        let inside_link = exact.contains(p)
            || (small
                && escaped
                    .iter()
                    .any(|u| u.contains(p) || p.contains(u.as_str())));
        !inside_link
    });
    if hits.is_empty() {
        return;
    }
    hits.sort_by_key(|(at, _)| *at);
    let mut distinct: Vec<&str> = Vec::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (_, p) in &hits {
        let p = p.trim_end_matches(['.', ':']);
        if seen.insert(p) {
            distinct.push(p);
        }
    }
    let mut shown: Vec<String> = distinct
        .iter()
        .take(5)
        .map(|p| format!("`{}`", sanitize_line(&crate::text::truncate(p, 80))))
        .collect();
    if distinct.len() > 5 {
        shown.push(format!("and {} more", distinct.len() - 5));
    }
    let (line, col) = doc.lines.position(text, hits[0].0);
    cx.emit(
        ids::PATH_OVER_SPECIFIC,
        format!(
            "`{}` names absolute paths of one machine or user ({}): they exist only on the author's computer, so the skill fails where it is installed, and they show the author's user name (Waza: `over-specificity`). Use paths relative to the skill folder, `~` or `$HOME`, or describe where the file is.",
            sanitize_line(cx.entry_path.rsplit('/').next().unwrap_or("SKILL.md")),
            shown.join(", ")
        ),
        cx.at(line, col),
        "over-specific",
    );
}

/// A file under `references/` that can be orphaned: not a special file, not a link that
/// leads out of the root or to a folder (those have their own rules).
fn orphan_candidate(f: &FileEntry) -> bool {
    f.path.starts_with("references/")
        && f.kind != FileKind::Special
        && f.symlink
            .as_ref()
            .is_none_or(|s| s.state == LinkState::Inside && !s.target_is_dir)
}

/// A file whose text is searched for further links and names.
fn is_markdown(f: &FileEntry) -> bool {
    matches!(f.kind, FileKind::Entry | FileKind::Markdown)
}

/// Bytes that end a file name written in text: white space, path separators, quotes,
/// brackets and punctuation that does not occur in file names.
const NAME_DELIMITERS: &[u8] = b" \t\r\n/\\`'\"()[]<>{},;:*|=!?#&";

static IS_DELIMITER: LazyLock<[bool; 256]> = LazyLock::new(|| {
    let mut t = [false; 256];
    for b in NAME_DELIMITERS {
        t[*b as usize] = true;
    }
    t
});

/// The words of `text` that may be file names: runs of bytes between delimiters, without a
/// sentence's final full stops (`api.md.` is `api.md`; `the-api.md` stays whole).
fn name_words(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    text.split(|b| IS_DELIMITER[*b as usize])
        .map(|w| {
            let end = w.iter().rposition(|b| *b != b'.').map_or(0, |i| i + 1);
            &w[..end]
        })
        .filter(|w| !w.is_empty())
}

/// The breadth-first walk of `reference-orphaned` over one skill's files (sorted by path).
struct Reach<'f, 'm> {
    files: &'f [FileEntry],
    /// Name ids (of files and folders), by name.
    ids: &'m HashMap<&'f [u8], usize>,
    /// Per folder name id: the candidates not reached yet below a folder of that name.
    below: Vec<usize>,
    reached: Vec<bool>,
    /// Candidates not reached yet.
    left: usize,
    queue: VecDeque<usize>,
    /// Folders whose files were all reached through a link to the folder.
    opened: BTreeSet<String>,
}

impl<'f> Reach<'f, '_> {
    /// The name ids of the folders above the file at `path`.
    fn folder_ids(&self, path: &'f str) -> impl Iterator<Item = usize> + '_ {
        let dir = path.rfind('/').map_or("", |k| &path[..k]);
        dir.split('/')
            .filter_map(|seg| self.ids.get(seg.as_bytes()).copied())
    }

    fn reach(&mut self, i: usize) {
        if std::mem::replace(&mut self.reached[i], true) {
            return;
        }
        let files = self.files;
        let f = &files[i];
        if orphan_candidate(f) {
            self.left -= 1;
            let ids: Vec<usize> = self.folder_ids(&f.path).collect();
            for id in ids {
                self.below[id] -= 1;
            }
        }
        if is_markdown(f) {
            self.queue.push_back(i);
        }
        // A link inside the skill leads to its target: reading one reads the other.
        if let Some(l) = f.symlink.as_ref().filter(|l| l.state == LinkState::Inside) {
            let dir = f.path.rfind('/').map_or("", |k| &f.path[..k]);
            let joined = if dir.is_empty() {
                l.target.clone()
            } else {
                format!("{dir}/{}", l.target)
            };
            if !l.target.starts_with(['/', '\\'])
                && let Resolved::Inside(p) = resolve(&joined)
            {
                self.target(&p);
            }
        }
    }

    /// A link target inside the skill: the file, or every file below the folder (once).
    fn target(&mut self, p: &str) {
        if let Ok(i) = self.files.binary_search_by(|f| f.path.as_str().cmp(p)) {
            self.reach(i);
            return;
        }
        if !self.opened.insert(p.to_owned()) {
            return;
        }
        let prefix = if p.is_empty() {
            String::new()
        } else {
            format!("{p}/")
        };
        let start = self
            .files
            .partition_point(|f| f.path.as_str() < prefix.as_str());
        let end = start
            + self.files[start..]
                .iter()
                .take_while(|f| f.path.starts_with(&prefix))
                .count();
        for i in start..end {
            self.reach(i);
        }
    }
}

/// `reference-orphaned`: files under `references/` that nothing reachable from `SKILL.md`
/// leads to (Waza's `link-orphan`). Waza walks Markdown links breadth-first from `SKILL.md`;
/// so does this, and a file also counts as reached when a reached Markdown file names it in
/// text (`references/api.md`, `api.md`), because real skills point at their references in
/// backticks and lists far more often than with links. Linear: each file is reached and
/// searched once (one pass over its words for the names, then a Markdown parse only when
/// the text may hold a link the names miss), each folder opened once, and the walk stops
/// when every candidate is reached; only bytes already read are
/// looked at, and no path leaves the skill.
fn orphans(doc: &SkillDoc, cx: &mut Cx<'_>, texts: &Texts<'_>) {
    let files = cx.files;
    let candidates = files.iter().filter(|f| orphan_candidate(f)).count();
    if candidates == 0 {
        return;
    }
    let entry_name = cx.entry_path.rsplit('/').next().unwrap_or("SKILL.md");
    let Ok(entry) = files.binary_search_by(|f| f.path.as_str().cmp(entry_name)) else {
        return;
    };
    // The names a text may mention: of every candidate and every Markdown file (which the
    // mention reaches), and of every folder (which a link may point at).
    let mut by_name: BTreeMap<&str, (Vec<usize>, bool)> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        if orphan_candidate(f) || is_markdown(f) {
            let name = f.path.rsplit('/').next().unwrap_or(&f.path);
            by_name.entry(name).or_default().0.push(i);
        }
    }
    for d in folders(files) {
        if let Some(name) = d.rsplit('/').next().filter(|n| !n.is_empty()) {
            by_name.entry(name).or_default().1 = true;
        }
    }
    // A name with a delimiter in it cannot be found as a word: then every text is parsed.
    let odd_names = by_name
        .keys()
        .any(|n| n.bytes().any(|b| IS_DELIMITER[b as usize]));
    let ids: HashMap<&[u8], usize> = by_name
        .keys()
        .enumerate()
        .map(|(id, n)| (n.as_bytes(), id))
        .collect();
    let (groups, folder): (Vec<Vec<usize>>, Vec<bool>) = by_name.into_values().unzip();
    // Most words of a text are no file name: only words of a length and a last byte some
    // name has are looked up.
    let mut lens = [false; 256];
    let mut lasts = [false; 256];
    for n in ids.keys() {
        lens[n.len().min(255)] = true;
        lasts[n[n.len() - 1] as usize] = true;
    }
    let mut named = vec![false; groups.len()];
    let mut walk = Reach {
        files,
        ids: &ids,
        below: vec![0; groups.len()],
        reached: vec![false; files.len()],
        left: candidates,
        queue: VecDeque::new(),
        opened: BTreeSet::new(),
    };
    for f in files.iter().filter(|f| orphan_candidate(f)) {
        let below: Vec<usize> = walk.folder_ids(&f.path).collect();
        for id in below {
            walk.below[id] += 1;
        }
    }
    walk.reach(entry);
    while let Some(i) = walk.queue.pop_front() {
        if walk.left == 0 {
            break;
        }
        let path = files[i].path.as_str();
        let text: Cow<'_, str> = if i == entry {
            Cow::Borrowed(doc.text.as_str())
        } else {
            match texts.get(path) {
                Some(b) => String::from_utf8_lossy(b),
                None => continue,
            }
        };
        // A link to a file names the file: the name pass reaches it. The Markdown parse is
        // needed only for what names miss: links to folders (which name the folder) with
        // files still unreached below, to the skill folder (`./`, `../`), and targets
        // written with `%XX` or `&#` escapes.
        let bytes = text.as_bytes();
        let mut parse = i == entry
            || odd_names
            || memchr::memchr_iter(b'%', bytes).any(|k| {
                bytes
                    .get(k + 1..k + 3)
                    .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit))
            })
            || memchr::memmem::find(bytes, b"&#").is_some()
            || memchr::memmem::find(bytes, b"](.").is_some()
            || memchr::memmem::find(bytes, b"]: .").is_some();
        for w in name_words(bytes) {
            if !lens[w.len().min(255)] || !lasts[w[w.len() - 1] as usize] {
                continue;
            }
            let Some(&id) = ids.get(w) else { continue };
            parse |= folder[id] && walk.below[id] > 0;
            if !std::mem::replace(&mut named[id], true) {
                for &j in &groups[id] {
                    walk.reach(j);
                }
            }
        }
        if walk.left == 0 || !parse {
            continue;
        }
        let parsed;
        let links = if i == entry {
            &doc.body.links
        } else {
            parsed = crate::parse::markdown::parse(&text, 1);
            &parsed.links
        };
        let dir = path.rfind('/').map_or("", |k| &path[..k]);
        for l in links {
            let url = l.url.trim();
            let from_root = resolve(url);
            if from_root == Resolved::External {
                continue;
            }
            if let Resolved::Inside(p) = &from_root {
                walk.target(p);
            }
            // Relative to the linking file too (Markdown's reading of a link in a reference).
            if !dir.is_empty()
                && !url.starts_with(['/', '\\', '~'])
                && let Resolved::Inside(p) = resolve(&format!("{dir}/{url}"))
            {
                walk.target(&p);
            }
        }
    }
    if walk.left == 0 {
        return;
    }
    let orphaned: Vec<String> = files
        .iter()
        .zip(&walk.reached)
        .filter(|(f, r)| !**r && orphan_candidate(f))
        .map(|(f, _)| f.path.clone())
        .collect();
    let entry_shown = sanitize_line(entry_name).into_owned();
    for p in orphaned {
        let shown = sanitize_line(&p).into_owned();
        let name = shown.rsplit('/').next().unwrap_or(&shown).to_owned();
        cx.emit(
            ids::REFERENCE_ORPHANED,
            format!(
                "`{shown}` is not reachable from `{entry_shown}`: neither it nor a Markdown file it leads to links or names this file, so an agent never reads it (Waza: `link-orphan`). Link it where it helps (`[{name}]({shown})`), or delete it."
            ),
            crate::finding::Location::file(cx.path_of(&p)),
            &format!("orphan:{p}"),
        );
    }
}

/// The skill's folders (`""` is the skill folder itself), from its file paths.
fn folders(files: &[FileEntry]) -> BTreeSet<&str> {
    let mut dirs = BTreeSet::from([""]);
    for f in files {
        let mut p = f.path.as_str();
        while let Some(i) = p.rfind('/') {
            p = &p[..i];
            if !dirs.insert(p) {
                break;
            }
        }
    }
    dirs
}

/// The files directly inside folder `dir` of the sorted `files` (`""`: the skill folder),
/// among the first 1,000 paths below it (a message needs a few names, not all of them).
fn files_in<'f>(files: &'f [FileEntry], dir: &str) -> Vec<&'f str> {
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let start = files.partition_point(|f| f.path.as_str() < prefix.as_str());
    files[start..]
        .iter()
        .map(|f| f.path.as_str())
        .take_while(|p| p.starts_with(&prefix))
        .take(1000)
        .filter(|p| !p[prefix.len()..].contains('/'))
        .collect()
}

/// `file-reference-directory`: a link or image in `SKILL.md` whose target is a folder of the
/// skill (Waza's `link-directory`). Links in `SKILL.md` only, like `file-reference-broken`.
fn directory_links(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let dirs = folders(cx.files);
    let mut found = Vec::new();
    let mut seen = BTreeSet::new();
    // The advice per folder, made once however many links point at it.
    let mut advice: std::collections::BTreeMap<String, String> = Default::default();
    for l in &doc.body.links {
        let Resolved::Inside(p) = resolve(&l.url) else {
            continue;
        };
        if !dirs.contains(p.as_str()) || !seen.insert((l.at.line, l.at.column)) {
            continue;
        }
        let shown_dir = if p.is_empty() {
            ".".to_owned()
        } else {
            sanitize_line(&p).into_owned()
        };
        let fix = advice
            .entry(p.clone())
            .or_insert_with(|| folder_advice(cx.files, &p))
            .clone();
        found.push((
            l.at.line,
            l.at.column,
            l.url.clone(),
            format!(
                "{} `{}` points at the folder `{shown_dir}`, not a file: an agent that follows it gets a folder to list instead of the text it was sent to read (Waza: `link-directory`). {fix}",
                if l.image { "image" } else { "link" },
                sanitize_line(&crate::text::truncate(&l.url, 120)),
            ),
        ));
    }
    for (line, col, url, msg) in found {
        cx.emit(
            ids::FILE_REFERENCE_DIRECTORY,
            msg,
            cx.at(line, col),
            &format!("dir-ref:{url}"),
        );
    }
}

/// What to link instead of folder `dir`: its `README.md` or `index.md`, else its files.
fn folder_advice(files: &[FileEntry], dir: &str) -> String {
    let inside = files_in(files, dir);
    let index = inside.iter().find(|f| {
        let name = f.rsplit('/').next().unwrap_or("");
        name.eq_ignore_ascii_case("README.md") || name.eq_ignore_ascii_case("index.md")
    });
    match (index, inside.first()) {
        (Some(i), _) => format!("Link `{}` instead.", sanitize_line(i)),
        (None, Some(_)) => {
            let shown: Vec<String> = inside
                .iter()
                .take(3)
                .map(|f| format!("`{}`", sanitize_line(f)))
                .collect();
            let more = if inside.len() > 3 { ", …" } else { "" };
            format!(
                "Link the file the agent needs ({}{more}), or list the files.",
                shown.join(", ")
            )
        }
        (None, None) => "Link the files the agent needs inside it.".to_owned(),
    }
}

/// The bytes of the skill's other files, by path inside the skill.
struct Texts<'a>(Vec<(&'a str, &'a [u8])>);

impl<'a> Texts<'a> {
    fn new(contents: &'a [(String, Vec<u8>)]) -> Self {
        let mut v: Vec<(&str, &[u8])> = contents
            .iter()
            .map(|(p, b)| (p.as_str(), b.as_slice()))
            .collect();
        v.sort_unstable_by(|a, b| a.0.cmp(b.0));
        Texts(v)
    }

    fn get(&self, path: &str) -> Option<&'a [u8]> {
        self.0
            .binary_search_by(|(p, _)| (*p).cmp(path))
            .ok()
            .map(|i| self.0[i].1)
    }
}

/// Waza's token estimate: one token per four bytes, rounded up.
pub fn tokens(bytes: u64) -> u64 {
    bytes.div_ceil(4)
}

/// Folders `waza tokens check` skips.
const TOKEN_SKIP_DIRS: &[&str] = &["node_modules", ".git", "dist", "coverage"];

/// Waza's default token limit of a Markdown file (`waza tokens check`: `SKILL.md` 500,
/// `references/**/*.md` 1000, `docs/**/*.md` 1500, `README.md` 3000, `CONTRIBUTING.md` 2500,
/// any other 2000) and the pattern it comes from.
pub fn token_limit(path: &str, entry: &str) -> (u64, &'static str) {
    let md = path.ends_with(".md");
    if path == entry {
        (500, "`SKILL.md`")
    } else if path == "README.md" {
        (3000, "`README.md`")
    } else if path == "CONTRIBUTING.md" {
        (2500, "`CONTRIBUTING.md`")
    } else if md && path.starts_with("references/") {
        (1000, "`references/**/*.md`")
    } else if md && path.starts_with("docs/") {
        (1500, "`docs/**/*.md`")
    } else {
        (2000, "other Markdown files")
    }
}

/// `token-budget-exceeded`: a Markdown file of the skill over Waza's token limit for it. The
/// entry file is left to `body-too-long` when that rule reports it (one cause, one finding),
/// and a file too large to read to `file-too-large`.
fn token_budget(doc: &SkillDoc, cx: &mut Cx<'_>, texts: &Texts<'_>) {
    let entry = cx
        .entry_path
        .rsplit('/')
        .next()
        .unwrap_or("SKILL.md")
        .to_owned();
    let entry_long = cx
        .findings
        .iter()
        .any(|f| f.rule_id == ids::BODY_TOO_LONG && f.location.path == cx.entry_path);
    let mut found = Vec::new();
    for f in cx.files {
        let p = f.path.as_str();
        let lower = p.to_ascii_lowercase();
        if !(lower.ends_with(".md") || lower.ends_with(".mdx") || p == entry)
            || p.split('/').any(|s| TOKEN_SKIP_DIRS.contains(&s))
        {
            continue;
        }
        let (limit, what) = token_limit(p, &entry);
        let n = tokens(f.size);
        if n <= limit {
            continue;
        }
        // Where the budget runs out: the line holding byte 4 × limit.
        let at = (limit * 4) as usize;
        let (line, col) = if p == entry {
            if entry_long {
                continue;
            }
            doc.lines.position(&doc.text, at)
        } else {
            let Some(b) = texts.get(p) else { continue };
            let at = at.min(b.len());
            let line_start = memchr::memrchr(b'\n', &b[..at]).map_or(0, |i| i + 1);
            let line = memchr::memchr_iter(b'\n', &b[..at]).count() + 1;
            let col = String::from_utf8_lossy(&b[line_start..at]).chars().count() + 1;
            (line as u32, col as u32)
        };
        let why = if p == entry {
            "the whole file enters the context each time the skill activates. Move detail into `references/` files that the agent reads when it needs them"
        } else {
            "an agent that opens it reads all of it. Split it into smaller files by topic, or trim it"
        };
        found.push((
            p.to_owned(),
            line,
            col,
            format!(
                "`{}` is about {n} tokens ({} bytes ÷ 4), over Waza's {limit}-token budget for {what}; the budget runs out at line {line}: {why}.",
                sanitize_line(p),
                f.size
            ),
        ));
    }
    for (p, line, col, msg) in found {
        let loc = crate::finding::Location::at(cx.path_of(&p), line, col);
        cx.emit(ids::TOKEN_BUDGET_EXCEEDED, msg, loc, &format!("tokens:{p}"));
    }
}

/// Waza's compliance score rates a description under this many characters "Low".
pub const DESCRIPTION_MIN_CHARS: usize = 150;

/// Trigger phrases: Waza's four (`use for:`, `use this skill`, `triggers:`, `trigger phrases
/// include`), and the "Use when …" forms that the specification's and Anthropic's guidance
/// recommend and real skills use (Waza misses those). Matched on the lower-cased description
/// with its whitespace collapsed.
static TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"use for:|use this skill|triggers:|trigger phrases include",
        r"|\buse (?:it |this |this skill |the skill )?(?:when|whenever|for|after|before|if|proactively)\b",
        r"|\bshould be used (?:when|whenever|for|if|to)\b",
        r"|\binvoke (?:it |this |this skill )?(?:when|whenever|for)\b",
        r"|\btrigger",
    ))
    .expect("valid regex")
});

/// Anti-trigger phrases: Waza's four (`do not use for:`, `not for:`, `don't use this skill`,
/// `instead use`) and their common variants (`do not use when`, `not intended for`, `use X
/// instead`).
static ANTI_TRIGGER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"do not use for:|not for:|don't use this skill|instead use",
        r"|\b(?:do not|don't|never) use\b",
        r"|\bnot (?:for|intended for|meant for|suitable for|designed for)\b",
        r"|\buse [^.;:]{1,80} instead\b",
    ))
    .expect("valid regex")
});

/// `description-quality`: Waza's compliance score of a description. Low when it is shorter
/// than [`DESCRIPTION_MIN_CHARS`] or names no trigger phrase, Medium when it names no
/// anti-trigger phrase; every fact that applies goes into one finding. A missing, blank or
/// over-long description has its own rules (`description-missing`, `description-too-long`).
/// `noun` is what the file is (`skill`, `agent`): Waza selects agents by their description
/// too.
pub fn description_quality(doc: &SkillDoc, cx: &mut Cx<'_>, noun: &str) {
    let Some(node) = doc.root().and_then(|r| r.get("description")) else {
        return;
    };
    let Ok(d) = string_value(node) else { return };
    let d = d.trim();
    if d.is_empty() {
        return;
    }
    let norm = d
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}'], "'");
    let len = code_points(d);
    let mut facts = Vec::new();
    if len < DESCRIPTION_MIN_CHARS {
        facts.push(format!(
            "is {len} characters long (Waza wants at least {DESCRIPTION_MIN_CHARS})"
        ));
    }
    let trigger = TRIGGER.is_match(&norm);
    if !trigger {
        facts.push("names no trigger phrase (`Use when …`, `USE FOR: …`)".to_owned());
    }
    if !ANTI_TRIGGER.is_match(&norm) {
        facts.push("names no anti-trigger phrase (`DO NOT USE FOR: …`, `… instead`)".to_owned());
    }
    if facts.is_empty() {
        return;
    }
    let level = if len < DESCRIPTION_MIN_CHARS || !trigger {
        "Low"
    } else {
        "Medium"
    };
    let facts = match facts.len() {
        1 => facts.remove(0),
        _ => {
            let last = facts.pop().unwrap_or_default();
            format!("{} and {last}", facts.join(", "))
        }
    };
    let (l, c) = doc.file_pos(node.pos);
    cx.emit(
        ids::DESCRIPTION_QUALITY,
        format!(
            "`description` {facts}: agents pick {} by its description alone, and Waza rates this one {level}. Say what the {noun} does, when to use it (`USE FOR: …` or `Use when …`) and when not to (`DO NOT USE FOR: …`), in at least {DESCRIPTION_MIN_CHARS} characters.",
            crate::text::with_article(noun)
        ),
        cx.at(l, c),
        "description-quality",
    );
}

/// File names that hold license terms (`LICENSE`, `LICENSE.txt`, `COPYING`, ...).
fn is_license_file(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or("").to_ascii_uppercase();
    matches!(stem.as_str(), "LICENSE" | "LICENCE" | "COPYING")
}

/// `license-missing`: no `license`, or an empty one.
fn license(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(root) = doc.root() else { return };
    if !matches!(root.kind, NodeKind::Map { .. }) {
        return;
    }
    let file = cx
        .files
        .iter()
        .map(|f| f.path.as_str())
        .find(|p| !p.contains('/') && is_license_file(p));
    let hint = match file {
        Some(f) => format!(
            " The folder holds `{}`: name it, e.g. `license: Complete terms in {}`.",
            sanitize_line(f),
            sanitize_line(f)
        ),
        None => String::new(),
    };
    let (what, (l, c)) = match root.get("license") {
        None => ("frontmatter has no `license`".to_owned(), top(doc)),
        Some(node) => match string_value(node) {
            Ok(s) if !s.trim().is_empty() => return,
            Ok(_) => ("`license` is blank".to_owned(), doc.file_pos(node.pos)),
            Err(why) => (format!("`license` is {why}"), doc.file_pos(node.pos)),
        },
    };
    cx.emit(
        ids::LICENSE_MISSING,
        format!(
            "{what}: whoever installs or redistributes the skill cannot tell on what terms (Waza's `spec-license` advice).{hint} Add `license:` with an SPDX identifier (`license: Apache-2.0`), `Proprietary`, or the file that holds the terms."
        ),
        cx.at(l, c),
        "license",
    );
}

/// File line and column of the top-level key `key` (the last one, as [`Node::get`] reads).
///
/// [`Node::get`]: crate::parse::yaml::Node::get
fn key_pos(doc: &SkillDoc, key: &str) -> (u32, u32) {
    match doc.root().map(|r| &r.kind) {
        Some(NodeKind::Map { entries, .. }) => entries
            .iter()
            .rev()
            .find(|(k, _)| k.as_str() == Some(key))
            .map_or_else(|| top(doc), |(k, _)| doc.file_pos(k.pos)),
        _ => top(doc),
    }
}

/// `metadata-version-missing`: no `metadata.version`. A top-level `version` key is left to
/// `frontmatter-unknown-key` (whose fix is to move it under `metadata`), and a non-string or
/// non-mapping `metadata` to `metadata-not-string-map`: one cause, one finding.
fn version(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let Some(root) = doc.root() else { return };
    if !matches!(root.kind, NodeKind::Map { .. }) || root.get("version").is_some() {
        return;
    }
    let (what, (l, c)) = match root.get("metadata") {
        None => ("frontmatter has no `metadata.version`", top(doc)),
        Some(m) if m.is_null() => ("`metadata` is empty", doc.file_pos(m.pos)),
        Some(m) => match (&m.kind, m.get("version")) {
            (NodeKind::Map { .. }, None) => {
                ("`metadata` has no `version`", key_pos(doc, "metadata"))
            }
            (NodeKind::Map { .. }, Some(v)) => match string_value(v) {
                Ok(s) if s.trim().is_empty() => {
                    ("`metadata.version` is blank", doc.file_pos(v.pos))
                }
                _ => return,
            },
            _ => return,
        },
    };
    cx.emit(
        ids::METADATA_VERSION_MISSING,
        format!(
            "{what}: without a version, users and baselines cannot tell which release of the skill they run (Waza's `spec-version` advice). Add `metadata:` with `version: \"1.0.0\"` (a quoted string) and raise it with each change."
        ),
        cx.at(l, c),
        "metadata-version",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{FileEntry, FileKind};

    fn entry(path: &str, size: u64, kind: FileKind) -> FileEntry {
        FileEntry {
            path: path.to_owned(),
            size,
            kind,
            executable: false,
            sha256: None,
            sha256_lf: None,
            line_hashes: None,
            symlink: None,
            via_link: false,
        }
    }

    /// Runs every quality rule on a skill `demo` whose `SKILL.md` is `skill` and whose other
    /// files are `others`: the findings as `rule path:line message`.
    fn run(skill: &str, others: &[(&str, &str)]) -> Vec<String> {
        let mut files = vec![entry("SKILL.md", skill.len() as u64, FileKind::Entry)];
        for (p, t) in others {
            let kind = crate::inventory::classify(p, Some(t.as_bytes()));
            files.push(entry(p, t.len() as u64, kind));
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let contents: Vec<(String, Vec<u8>)> = others
            .iter()
            .map(|(p, t)| ((*p).to_owned(), t.as_bytes().to_vec()))
            .collect();
        let mut cx = Cx {
            skill: "demo",
            skill_path: "skills/demo",
            dir_name: "demo",
            entry_path: "skills/demo/SKILL.md".into(),
            files: &files,
            findings: Vec::new(),
        };
        let doc = super::super::parsing::parse_entry(skill.as_bytes(), &mut cx);
        cx.findings.clear();
        check(&doc, &mut cx, &contents, &Enabled::every());
        cx.findings
            .iter()
            .map(|f| {
                format!(
                    "{} {}:{} {}",
                    f.rule_id,
                    f.location.path,
                    f.location.line.unwrap_or(0),
                    f.message
                )
            })
            .collect()
    }

    fn rules(found: &[String]) -> Vec<&str> {
        found
            .iter()
            .map(|f| f.split(' ').next().unwrap_or(""))
            .collect()
    }

    const DESC: &str = "Summarise expense reports. Use when the user asks for an expense summary.";

    #[test]
    fn description_facts_make_one_finding() {
        let desc = |d: &str| {
            let f = run(
                &format!(
                    "---\nname: demo\ndescription: {d}\nlicense: MIT\nmetadata:\n  version: \"1\"\n---\nB.\n"
                ),
                &[],
            );
            f.into_iter()
                .filter(|x| x.starts_with("description-quality"))
                .collect::<Vec<_>>()
        };
        let f = desc("Summarise expense reports.");
        assert_eq!(f.len(), 1, "{f:?}");
        assert!(
            f[0].contains("SKILL.md:3 `description` is 26 characters long (Waza wants at least 150), names no trigger phrase (`Use when …`, `USE FOR: …`) and names no anti-trigger phrase")
                && f[0].contains("rates this one Low"),
            "{f:?}"
        );
        let long = "Summarise expense reports from receipts, card statements and travel bookings into one table per trip, with totals per category, currency conversions and flagged outliers.";
        let f = desc(&format!(
            "{long} Use when the user asks for an expense summary."
        ));
        assert!(
            f.len() == 1
                && f[0].contains("rates this one Medium")
                && !f[0].contains("characters long")
                && !f[0].contains("no trigger"),
            "{f:?}"
        );
        for ok in [
            format!(
                "{long} USE FOR: expense summaries. DO NOT USE FOR: invoices (use invoice-tools)."
            ),
            format!(
                "{long} Use this skill when asked for a summary; don't use it for tax returns."
            ),
            format!(
                "{long} This skill should be used when the user asks for totals. Not intended for payroll."
            ),
            format!(
                "{long} Triggers on expense questions; use payroll-report instead for salaries."
            ),
            format!("{long} Use when asked for totals. Don\u{2019}t use for invoices."),
        ] {
            assert!(desc(&ok).is_empty(), "{ok}: {:?}", desc(&ok));
        }
        // "because if" is not "use if"; "misuse for" is not "use for".
        let f = desc(&format!(
            "{long} Fails because if totals differ, misuse for audits. Not for payroll."
        ));
        assert!(f.len() == 1 && f[0].contains("no trigger"), "{f:?}");
        // Missing or blank: description-missing's.
        assert!(desc("\"\"").is_empty());
    }

    #[test]
    fn token_budgets_per_file() {
        let fm = format!(
            "---\nname: demo\ndescription: {DESC}\nlicense: MIT\nmetadata:\n  version: \"1\"\n---\n"
        );
        let body = "word ".repeat(400); // 2,000 bytes on one line
        let skill = format!("{fm}{body}\n");
        let refs = "12345678\n".repeat(500); // 4,500 bytes, 1,125 tokens
        let docs = "x".repeat(6_000); // 1,500 tokens: at the limit
        let other = "é".repeat(4_001); // 8,002 bytes, 2,001 tokens
        let f = run(
            &skill,
            &[
                ("references/api.md", &refs),
                ("docs/guide.md", &docs),
                ("notes.md", &other),
                ("README.md", &"y".repeat(11_000)),
                ("node_modules/x/big.md", &"z".repeat(20_000)),
                ("data.json", &"z".repeat(20_000)),
            ],
        );
        let t: Vec<&String> = f
            .iter()
            .filter(|x| x.starts_with("token-budget-exceeded"))
            .collect();
        assert_eq!(t.len(), 3, "{t:#?}");
        assert!(
            t[0].contains("skills/demo/SKILL.md:8 `SKILL.md` is about 537 tokens (2145 bytes ÷ 4)"),
            "{}",
            t[0]
        );
        // Byte 4,000 of the reference is on line 445 (nine bytes a line).
        assert!(t[1].contains("skills/demo/notes.md:1 `notes.md` is about 2001 tokens (8002 bytes ÷ 4), over Waza's 2000-token budget for other Markdown files"), "{}", t[1]);
        assert!(
            t[2].contains(
                "skills/demo/references/api.md:445 `references/api.md` is about 1125 tokens"
            ),
            "{}",
            t[2]
        );
        // A SKILL.md body-too-long reports is not reported again.
        let long = format!("{fm}{}", "line\n".repeat(600));
        let mut files = vec![entry("SKILL.md", long.len() as u64, FileKind::Entry)];
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let mut cx = Cx {
            skill: "demo",
            skill_path: "",
            dir_name: "demo",
            entry_path: "SKILL.md".into(),
            files: &files,
            findings: Vec::new(),
        };
        let doc = super::super::parsing::parse_entry(long.as_bytes(), &mut cx);
        super::super::body::check_length(&doc, &mut cx);
        check(&doc, &mut cx, &[], &Enabled::every());
        let r: Vec<&str> = cx.findings.iter().map(|f| f.rule_id).collect();
        assert!(
            r.contains(&ids::BODY_TOO_LONG) && !r.contains(&ids::TOKEN_BUDGET_EXCEEDED),
            "{r:?}"
        );
    }

    #[test]
    fn links_to_folders() {
        let fm = format!(
            "---\nname: demo\ndescription: {DESC}\nlicense: MIT\nmetadata:\n  version: \"1\"\n---\n"
        );
        let f = run(
            &format!(
                "{fm}See [refs](references/), [api](references/api.md), [docs](./docs), [top](./), [x](https://e.x/docs/) and [gone](missing/).\n"
            ),
            &[
                ("references/api.md", "API"),
                ("references/deep/more.md", "More"),
                ("docs/README.md", "Docs"),
                ("docs/b.md", "B"),
            ],
        );
        let d: Vec<&String> = f
            .iter()
            .filter(|x| x.starts_with("file-reference-directory"))
            .collect();
        assert_eq!(d.len(), 3, "{d:#?}");
        assert!(
            d[0].contains("SKILL.md:8 link `references/` points at the folder `references`")
                && d[0].contains("(`references/api.md`)"),
            "{}",
            d[0]
        );
        assert!(
            d[1].contains("link `./docs` points at the folder `docs`")
                && d[1].contains("Link `docs/README.md` instead."),
            "{}",
            d[1]
        );
        assert!(
            d[2].contains("link `./` points at the folder `.`"),
            "{}",
            d[2]
        );
    }

    #[test]
    fn orphaned_references() {
        let fm = format!(
            "---\nname: demo\ndescription: {DESC}\nlicense: MIT\nmetadata:\n  version: \"1\"\n---\n"
        );
        let orphans = |skill: &str, others: &[(&str, &str)]| -> Vec<String> {
            run(&format!("{fm}{skill}"), others)
                .into_iter()
                .filter(|x| x.starts_with("reference-orphaned"))
                .map(|x| x.split(' ').nth(1).unwrap_or("").to_owned())
                .collect()
        };
        let refs = [
            (
                "references/a.md",
                "A links [b](b.md) and [c](references/c.md).",
            ),
            ("references/b.md", "B names `d.md`."),
            ("references/c.md", "C"),
            ("references/d.md", "D"),
            ("references/e.md", "E"),
            ("references/sub/f.md", "F"),
            ("references/data.json", "{}"),
            ("docs/guide.md", "The guide links [e](../references/e.md)."),
            ("README.md", "Names f.md, but nothing loads the README."),
        ];
        // Reached: a (link), b and c (links from a, file- and root-relative), d (named in b),
        // e (through the guide, named in SKILL.md in backticks). Not: f, data.json.
        assert_eq!(
            orphans("See [a](references/a.md) and `docs/guide.md`.\n", &refs),
            [
                "skills/demo/references/data.json:0",
                "skills/demo/references/sub/f.md:0"
            ]
        );
        // A link to the folder reaches everything in it; a look-alike name does not count.
        assert!(orphans("See [all](references/).\n", &refs).is_empty());
        assert_eq!(
            orphans("Read references/sub/f.md, the-a.md and data.json.\n", &refs).len(),
            5
        );
        // A reference that links a folder (its name in the text) opens it.
        assert!(
            orphans(
                "See [a](references/a.md).\n",
                &[
                    ("references/a.md", "More in [sub](sub/)."),
                    ("references/sub/x.json", "{}")
                ]
            )
            .is_empty()
        );
        // Percent-encoded link targets are read as links.
        assert!(
            orphans(
                "See [x](references/my%20notes.md).\n",
                &[("references/my notes.md", "x")]
            )
            .is_empty()
        );
        // No references folder: nothing to do.
        assert!(orphans("Body.\n", &[("docs/x.md", "x")]).is_empty());
    }

    #[test]
    fn over_specific_paths() {
        let fm = format!(
            "---\nname: demo\ndescription: {DESC}\nlicense: MIT\nmetadata:\n  version: \"1\"\n---\n"
        );
        let over = |body: &str| -> Vec<String> {
            run(&format!("{fm}{body}"), &[])
                .into_iter()
                .filter(|x| x.starts_with("path-over-specific"))
                .collect()
        };
        let f = over(
            "Run it:\n\n```bash\npython /Users/eamon/dev/tool.py C:\\Users\\eamon\\Data\\kg.csv\n```\n\nThen /home/jdoe/out.txt and again /home/jdoe/out.txt.\n",
        );
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].contains("skills/demo/SKILL.md:11 `SKILL.md` names absolute paths of one machine or user (`/Users/eamon/dev/tool.py`, `C:\\Users\\eamon\\Data\\kg.csv`, `/home/jdoe/out.txt`)"),
            "{}",
            f[0]
        );
        for ok in [
            "#!/usr/bin/env python3 reads /etc/hosts and /var/log/syslog and /opt/tool.\n",
            "Use ~/projects, $HOME/x, /home/user/project, /Users/<you>/x and /home/runner/work.\n",
            "Paths like C:\\path\\to\\file or C:\\ or https://example.com/home/x or a/home/b.\n",
            "Relative: ./home/x and docs/Users/y.\n",
            "An escaping link [x](/home/jdoe/notes.md) is file-reference-escapes-skill's.\n",
        ] {
            assert!(over(ok).is_empty(), "{ok}: {:?}", over(ok));
        }
        let f = over("Save to D:/exports/summary.xlsx.\n");
        assert!(
            f.len() == 1 && f[0].contains("`D:/exports/summary.xlsx`"),
            "{f:?}"
        );
    }

    #[test]
    fn license_and_version() {
        let f = run(
            &format!("---\nname: demo\ndescription: {DESC}\n---\nBody.\n"),
            &[],
        );
        let lic: Vec<&String> = f.iter().filter(|x| x.starts_with("license-")).collect();
        assert_eq!(lic.len(), 1, "{f:?}");
        assert!(
            lic[0].contains("SKILL.md:1 frontmatter has no `license`"),
            "{f:?}"
        );
        assert!(rules(&f).contains(&ids::METADATA_VERSION_MISSING));
        // A LICENSE file is named in the advice.
        let f = run(
            &format!("---\nname: demo\ndescription: {DESC}\nlicense: \" \"\n---\nBody.\n"),
            &[("LICENSE.txt", "terms")],
        );
        assert!(
            f.iter()
                .any(|x| x.contains("SKILL.md:4 `license` is blank") && x.contains("LICENSE.txt")),
            "{f:?}"
        );
        // Present: nothing. A top-level `version` is frontmatter-unknown-key's, a numeric
        // `metadata.version` metadata-not-string-map's.
        for fm in [
            "license: MIT\nmetadata:\n  version: \"1.0\"\n",
            "license: MIT\nversion: 1.0.0\n",
            "license: MIT\nmetadata:\n  version: 1.0\n",
            "license: MIT\nmetadata: [a]\n",
        ] {
            let f = run(
                &format!("---\nname: demo\ndescription: {DESC}\n{fm}---\nBody.\n"),
                &[],
            );
            assert!(
                !rules(&f).contains(&ids::LICENSE_MISSING)
                    && !rules(&f).contains(&ids::METADATA_VERSION_MISSING),
                "{fm}: {f:?}"
            );
        }
        let f = run(
            &format!("---\nname: demo\ndescription: {DESC}\nmetadata:\n  author: x\n---\nB.\n"),
            &[],
        );
        assert!(
            f.iter().any(|x| x.starts_with(
                "metadata-version-missing skills/demo/SKILL.md:4 `metadata` has no `version`"
            )),
            "{f:?}"
        );
        // No frontmatter: frontmatter-missing says it all.
        assert!(run("# Just a body\n", &[]).is_empty());
    }
}
