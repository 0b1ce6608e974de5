//! The three hashes a baseline keeps per skill.
//!
//! - **Structural fingerprint**: AgentEval's `SkillManifestPoisoningGate.Fingerprint`, byte for
//!   byte, so values are comparable with AgentEval's: SHA-256 of six fields joined with U+241E —
//!   the name and description as Microsoft Agent Framework reads them, the `resources/` and
//!   `scripts/` file names AgentEval derives (sorted by UTF-16 code unit), the comma-split
//!   `allowed-tools` (sorted), and the length of `compatibility` in UTF-16 units. It ignores the
//!   body and every file's bytes.
//! - **Content hash**: AgentEval's `SkillContentHasher.HashSkillFolder`: SHA-256 over
//!   `"{relpath}\n{filehex}\n"` for every file, sorted by UTF-16 code unit. Byte-exact by default;
//!   [`HashOptions`] can normalise CRLF to LF in text files and leave out editor and OS droppings.
//! - **Per-file hashes**: the inventory's SHA-256 of each file (kept raw, plus the LF-normalised
//!   hash of text files that contain CRLF, so any option set can be re-applied later).
//!
//! Entries AgentEval cannot hash (it hangs on a FIFO and fails on a dangling link) get a
//! stand-in digest so a hostile skill cannot switch drift detection off by adding one: see
//! [`file_digest`].

use std::cmp::Ordering;

use globset::{Glob, GlobSet, GlobSetBuilder};
use serde::{Deserialize, Serialize};

use crate::hash::sha256_hex;
use crate::inventory::{Artifact, FileEntry, FileKind, LinkState};
use crate::loaders::maf;

/// Editor and operating-system droppings left out by `--hash-ignore-droppings`.
pub const DROPPINGS: &[&str] = &[
    ".DS_Store",
    "._*",
    "Thumbs.db",
    "ehthumbs.db",
    "desktop.ini",
    "*.swp",
    "*.swo",
    "*.swn",
    "*~",
    ".#*",
    "#*#",
];

/// How content hashes are computed. The default is byte-exact over every file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashOptions {
    /// Hash text files as if every CRLF were LF.
    #[serde(default)]
    pub normalize_eol: bool,
    /// Glob patterns of files left out (a pattern without `/` matches the file name at any depth).
    #[serde(default)]
    pub ignore: Vec<String>,
}

/// A compiled [`HashOptions`].
#[derive(Debug, Clone)]
pub struct Hasher {
    pub options: HashOptions,
    set: GlobSet,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new(HashOptions::default()).expect("empty glob set")
    }
}

impl Hasher {
    /// Compiles the ignore patterns; an invalid pattern is an error naming it.
    pub fn new(mut options: HashOptions) -> Result<Hasher, String> {
        options.ignore.sort();
        options.ignore.dedup();
        let mut b = GlobSetBuilder::new();
        for p in &options.ignore {
            let pat = if p.contains('/') {
                p.trim_start_matches('/').to_owned()
            } else {
                format!("**/{p}")
            };
            let g = globset::GlobBuilder::new(&pat)
                .literal_separator(true)
                .build()
                .or_else(|_| Glob::new(&pat))
                .map_err(|e| format!("invalid --hash-ignore pattern `{p}`: {e}"))?;
            b.add(g);
        }
        let set = b
            .build()
            .map_err(|e| format!("invalid --hash-ignore patterns: {e}"))?;
        Ok(Hasher { options, set })
    }

    /// Is this skill-relative path left out of content hashes?
    pub fn ignored(&self, path: &str) -> bool {
        !self.options.ignore.is_empty() && self.set.is_match(path)
    }

    /// The digest of one file under these options.
    pub fn digest<'a>(&self, raw: &'a str, lf: Option<&'a str>) -> &'a str {
        match lf {
            Some(lf) if self.options.normalize_eol => lf,
            _ => raw,
        }
    }

    /// AgentEval's folder hash over `(path, raw digest, LF digest)` triples.
    pub fn content_hash<'a>(
        &self,
        files: impl IntoIterator<Item = (&'a str, &'a str, Option<&'a str>)>,
    ) -> String {
        let mut v: Vec<(&str, &str)> = files
            .into_iter()
            .filter(|(p, _, _)| !self.ignored(p))
            .map(|(p, raw, lf)| (p, self.digest(raw, lf)))
            .collect();
        v.sort_by(|a, b| utf16_cmp(a.0, b.0));
        let mut s = String::with_capacity(v.len() * 100);
        for (p, h) in v {
            s.push_str(p);
            s.push('\n');
            s.push_str(h);
            s.push('\n');
        }
        sha256_hex(s.as_bytes())
    }

    /// Content hash of a one-file artefact (an agent, prompt, instructions, MCP or hook
    /// file): the digest of its file under these options (its SHA-256, or with
    /// `normalize_eol` the SHA-256 with CRLF read as LF). It leaves the file's name and folder
    /// out, so copies compare equal wherever they are; `ignore` patterns do not apply (an
    /// artefact is its one file). `None` when the file could not be read.
    pub fn file_content_hash(&self, a: &Artifact) -> Option<String> {
        let f = a.files.first()?;
        let raw = f.sha256.as_deref()?;
        Some(self.digest(raw, f.sha256_lf.as_deref()).to_owned())
    }

    /// Content hash of an analysed skill.
    pub fn artifact_content_hash(&self, a: &Artifact) -> String {
        let digests: Vec<(String, Option<String>)> = a
            .files
            .iter()
            .map(|f| (file_digest(f), f.sha256_lf.clone()))
            .collect();
        self.content_hash(
            a.files
                .iter()
                .zip(&digests)
                .filter(|(f, _)| counts_as_file(f))
                .map(|(f, (d, lf))| (f.path.as_str(), d.as_str(), lf.as_deref())),
        )
    }
}

/// Entries AgentEval's `EnumerateFiles` lists: files and links to files (a link to a
/// directory contributes the files below it, which the inventory lists under the link).
pub fn counts_as_file(f: &FileEntry) -> bool {
    match &f.symlink {
        Some(l) => !(l.target_is_dir && l.state == LinkState::Inside),
        None => true,
    }
}

/// The digest that stands for a file in content hashes: its SHA-256, or for what cannot be
/// read, the SHA-256 of a description (`skillguard:special`, `skillguard:link:TARGET`,
/// `skillguard:unhashed:SIZE`), so adding, removing or retargeting such an entry still
/// changes the hash.
pub fn file_digest(f: &FileEntry) -> String {
    if let Some(h) = &f.sha256 {
        return h.clone();
    }
    if f.kind == FileKind::Special {
        return sha256_hex(b"skillguard:special");
    }
    if let Some(l) = &f.symlink {
        return sha256_hex(format!("skillguard:link:{}", l.target).as_bytes());
    }
    sha256_hex(format!("skillguard:unhashed:{}", f.size).as_bytes())
}

/// The digest AgentEval would read for one entry of a skill's inventory: `Ok(None)` for an
/// entry it does not hash itself (a link to a folder inside the root, whose files are listed
/// below it), `Err(reason)` for one whose bytes cannot be had as AgentEval has them (it
/// follows a link out of the root, which skillguard never does; it fails on a dangling or
/// looping link and blocks on a FIFO).
fn agenteval_digest(f: &FileEntry) -> Result<Option<&str>, String> {
    let shown = || crate::text::sanitize_line(&f.path).into_owned();
    if let Some(l) = &f.symlink {
        match l.state {
            LinkState::Inside if l.target_is_dir => return Ok(None),
            LinkState::Inside => {}
            LinkState::EscapesRoot => {
                return Err(format!(
                    "`{}` is a link out of the scanned root, which AgentEval follows and skillguard does not",
                    shown()
                ));
            }
            LinkState::Dangling | LinkState::Loop => {
                return Err(format!(
                    "`{}` is a dangling or looping link, on which AgentEval's hash fails",
                    shown()
                ));
            }
        }
    }
    if f.kind == FileKind::Special {
        return Err(format!(
            "`{}` is a FIFO, socket or device, which skillguard never opens",
            shown()
        ));
    }
    match &f.sha256 {
        Some(h) => Ok(Some(h)),
        None => Err(format!(
            "`{}` could not be read or is over the hash limit",
            shown()
        )),
    }
}

/// AgentEval's content hash (`SkillContentHasher.HashSkillFolder`) of every skill in
/// `artifacts`, into [`Artifact::agenteval_content_hash`]: SHA-256 over
/// `"{relpath}\n{filehex}\n"` for every file under the folder (the skill's own files and
/// those of every skill nested in it, under their path from this folder), sorted by UTF-16
/// code unit, byte-exact. No file is read again: the per-file SHA-256s of the inventory are
/// reused, so the cost is one sort and one SHA-256 over the path list per skill, each file
/// counted once per enclosing skill.
///
/// The hash is absent, with the reason in [`Artifact::agenteval_hash_incomplete`], when any
/// of those files cannot be hashed as AgentEval would without leaving the root
/// ([`agenteval_digest`]), when the skill or a nested one has `hash_incomplete`, or when a
/// nested skill was not scanned (`unscanned`: the folders of skills a changed-files scan
/// left out, relative to the scan base).
pub fn agenteval_hashes(artifacts: &mut [Artifact], unscanned: &[String]) {
    use std::collections::HashMap;
    let index: HashMap<&str, usize> = artifacts
        .iter()
        .enumerate()
        .filter(|(_, a)| a.kind == crate::inventory::ArtifactKind::Skill)
        .map(|(i, a)| (a.path.as_str(), i))
        .collect();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); artifacts.len()];
    for (i, a) in artifacts.iter().enumerate() {
        if let Some(&p) = a.nested_in.as_deref().and_then(|p| index.get(p))
            && p != i
        {
            children[p].push(i);
        }
    }
    // Each skill's own entries, or why they cannot be hashed as AgentEval would.
    // Per skill: (path as AgentEval names it, digest) of each file, or why there is none.
    type Own<'a> = Result<Vec<(std::borrow::Cow<'a, str>, &'a str)>, String>;
    let own: Vec<Own<'_>> = artifacts
        .iter()
        .map(|a| {
            if a.kind != crate::inventory::ArtifactKind::Skill {
                return Err(String::new());
            }
            if let Some(why) = &a.hash_incomplete {
                return Err(why.clone());
            }
            let mut v = Vec::with_capacity(a.files.len());
            for f in &a.files {
                if let Some(d) = agenteval_digest(f)? {
                    // AgentEval hashes the name itself (paths here are escaped, see
                    // `crate::names`); a name that is not UTF-8 it reads differently.
                    let Some(name) = crate::names::as_utf8(&f.path) else {
                        return Err(format!(
                            "the name `{}` is not valid UTF-8, which AgentEval reads differently",
                            crate::text::sanitize_line(&f.path)
                        ));
                    };
                    v.push((name, d));
                }
            }
            Ok(v)
        })
        .collect();
    let mut results: Vec<(Option<String>, Option<String>)> = Vec::with_capacity(artifacts.len());
    for (i, a) in artifacts.iter().enumerate() {
        if a.kind != crate::inventory::ArtifactKind::Skill {
            results.push((None, None));
            continue;
        }
        let missing = unscanned.iter().find(|u| {
            a.path.is_empty()
                || u.strip_prefix(a.path.as_str())
                    .is_some_and(|r| r.starts_with('/'))
        });
        if let Some(u) = missing {
            results.push((
                None,
                Some(format!(
                    "the skill nested at `{}` was not scanned (changed-files scan)",
                    crate::text::sanitize_line(u)
                )),
            ));
            continue;
        }
        // The skill and its nested skills, each with its path from this folder.
        let mut entries: Vec<(std::borrow::Cow<'_, str>, &str)> = Vec::new();
        let mut stack: Vec<usize> = vec![i];
        let mut failed = None;
        while let Some(j) = stack.pop() {
            let b = &artifacts[j];
            match &own[j] {
                Err(why) => {
                    failed = Some(if j == i {
                        why.clone()
                    } else {
                        format!(
                            "nested skill `{}`: {why}",
                            crate::text::sanitize_line(&b.path)
                        )
                    });
                    break;
                }
                Ok(files) => {
                    let prefix = if j == i {
                        ""
                    } else if a.path.is_empty() {
                        b.path.as_str()
                    } else {
                        b.path
                            .strip_prefix(a.path.as_str())
                            .and_then(|r| r.strip_prefix('/'))
                            .unwrap_or(b.path.as_str())
                    };
                    if crate::names::has_raw_bytes(prefix) {
                        failed = Some(format!(
                            "nested skill `{}`: its folder name is not valid UTF-8, which AgentEval reads differently",
                            crate::text::sanitize_line(&b.path)
                        ));
                        break;
                    }
                    entries.extend(files.iter().map(|(p, d)| {
                        let path = if prefix.is_empty() {
                            std::borrow::Cow::Borrowed(p.as_ref())
                        } else {
                            std::borrow::Cow::Owned(format!("{prefix}/{p}"))
                        };
                        (path, *d)
                    }));
                }
            }
            stack.extend(&children[j]);
        }
        if let Some(why) = failed {
            results.push((None, Some(why)));
            continue;
        }
        entries.sort_by(|x, y| utf16_cmp(&x.0, &y.0));
        let mut s = String::with_capacity(entries.len() * 100);
        for (p, h) in &entries {
            s.push_str(p);
            s.push('\n');
            s.push_str(h);
            s.push('\n');
        }
        results.push((Some(sha256_hex(s.as_bytes())), None));
    }
    for (a, (h, why)) in artifacts.iter_mut().zip(results) {
        a.agenteval_content_hash = h;
        a.agenteval_hash_incomplete = why;
    }
}

/// Ordinal comparison by UTF-16 code units (.NET `StringComparer.Ordinal`).
pub fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

const RESOURCE_EXT: &[&str] = &["md", "txt", "json", "csv", "yaml", "yml"];
const SCRIPT_EXT: &[&str] = &["csx", "cs", "py", "js", "ts", "sh", "ps1"];

fn has_ext(path: &str, exts: &[&str]) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(i) => exts.iter().any(|e| name[i + 1..].eq_ignore_ascii_case(e)),
        None => false,
    }
}

/// The fields AgentEval's structural fingerprint is made of.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    pub name: String,
    pub description: String,
    pub resources: Vec<String>,
    pub scripts: Vec<String>,
    pub allowed_tools: Vec<String>,
    pub compatibility_len: Option<usize>,
}

impl Manifest {
    /// Builds the manifest the way AgentEval does: fields as Microsoft Agent Framework reads
    /// the entry file, file lists from `resources/` and `scripts/` (any depth, AgentEval's
    /// extension lists).
    pub fn of(a: &Artifact, entry_bytes: Option<&[u8]>) -> Manifest {
        let read = entry_bytes.map(maf::read);
        Manifest::from_maf(a, read.as_ref().and_then(|r| r.as_ref().ok()))
    }

    /// [`Manifest::of`] from MAF's read of the entry file already made ([`maf::read`]).
    pub fn from_maf(a: &Artifact, fields: Option<&maf::Fields>) -> Manifest {
        let fields = fields.cloned().unwrap_or_default();
        let mut resources = Vec::new();
        let mut scripts = Vec::new();
        for f in &a.files {
            if f.kind == FileKind::Special || !counts_as_file(f) {
                continue;
            }
            let lower = f.path.to_ascii_lowercase();
            if lower.starts_with("resources/") && has_ext(&f.path, RESOURCE_EXT) {
                resources.push(f.path.clone());
            } else if lower.starts_with("scripts/") && has_ext(&f.path, SCRIPT_EXT) {
                scripts.push(f.path.clone());
            }
        }
        let mut allowed_tools: Vec<String> = fields
            .allowed_tools
            .as_deref()
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        for v in [&mut resources, &mut scripts, &mut allowed_tools] {
            v.sort_by(|a, b| utf16_cmp(a, b));
        }
        Manifest {
            name: fields.name.unwrap_or_default(),
            description: fields.description.unwrap_or_default(),
            resources,
            scripts,
            allowed_tools,
            compatibility_len: fields
                .compatibility
                .as_deref()
                .map(crate::text::utf16_units),
        }
    }

    /// The canonical string (six fields joined with U+241E).
    pub fn canonical(&self) -> String {
        [
            self.name.clone(),
            self.description.clone(),
            self.resources.join(","),
            self.scripts.join(","),
            self.allowed_tools.join(","),
            self.compatibility_len
                .map(|n| n.to_string())
                .unwrap_or_default(),
        ]
        .join("\u{241E}")
    }

    /// Lowercase hex SHA-256 of [`Manifest::canonical`].
    pub fn fingerprint(&self) -> String {
        sha256_hex(self.canonical().as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::is_ledger_state;

    fn fe(path: &str, sha: &str) -> FileEntry {
        FileEntry {
            path: path.into(),
            size: 1,
            kind: FileKind::Text,
            executable: false,
            sha256: Some(sha.into()),
            sha256_lf: None,
            line_hashes: None,
            symlink: None,
            via_link: false,
        }
    }

    #[test]
    fn content_hash_matches_agenteval_definition() {
        let h = Hasher::default();
        let files = [("b.txt", "22", None), ("SKILL.md", "11", None)];
        // Ordinal order puts uppercase first.
        let expected = sha256_hex(b"SKILL.md\n11\nb.txt\n22\n");
        assert_eq!(h.content_hash(files), expected);
        // Same files, different order: same hash.
        let files = [("SKILL.md", "11", None), ("b.txt", "22", None)];
        assert_eq!(h.content_hash(files), expected);
    }

    #[test]
    fn options_normalise_and_ignore() {
        let exact = Hasher::default();
        let norm = Hasher::new(HashOptions {
            normalize_eol: true,
            ignore: DROPPINGS.iter().map(|s| s.to_string()).collect(),
        })
        .unwrap();
        let crlf = [
            ("SKILL.md", "crlf", Some("lf")),
            ("sub/.DS_Store", "junk", None),
        ];
        let lf = [("SKILL.md", "lf", None)];
        assert_ne!(exact.content_hash(crlf), exact.content_hash(lf));
        assert_eq!(norm.content_hash(crlf), norm.content_hash(lf));
        assert!(norm.ignored("a/b/x.swp"));
        assert!(norm.ignored(".DS_Store"));
        assert!(!norm.ignored("scripts/run.sh"));
        assert!(
            Hasher::new(HashOptions {
                normalize_eol: false,
                ignore: vec!["[".into()]
            })
            .is_err()
        );
    }

    #[test]
    fn ledger_state_is_recognised_exactly() {
        for p in [
            ".skillguard/ledger/lock",
            ".skillguard/ledger/HEAD.json",
            ".skillguard/ledger/snapshots/00000001-0123456789abcdef0123456789abcdef.json",
            ".skillguard/ledger/snapshots/00000001-0123456789abcdef0123456789abcdef.lines",
            ".skillguard/ledger/snapshots/.skillguard-tmp-1-2-HEAD.json",
        ] {
            assert!(is_ledger_state(p), "{p}");
        }
        for p in [
            ".skillguard/payload.sh",
            ".skillguard/ledger/run.sh",
            ".skillguard/ledger/snapshots/evil.py",
            ".skillguard/ledger/snapshots/x/00000001-0123456789abcdef0123456789abcdef.json",
            "skills/.skillguard/ledger/lock",
        ] {
            assert!(!is_ledger_state(p), "{p}");
        }
    }

    #[test]
    fn utf16_order_differs_from_byte_order_above_bmp() {
        // U+FF21 (one unit, 0xFF21) vs U+1F600 (surrogates 0xD83D...): UTF-16 puts the emoji first.
        assert_eq!(utf16_cmp("\u{1F600}", "\u{FF21}"), Ordering::Less);
        assert!("\u{1F600}" > "\u{FF21}");
    }

    #[test]
    fn fingerprint_follows_agenteval_fields() {
        let bytes = b"---\nname: x\ndescription: d\nallowed-tools: Read, Bash\ncompatibility: \xF0\x9F\x98\x80\n---\nbody\n";
        let a = Artifact {
            files: vec![
                fe("SKILL.md", "1"),
                fe("scripts/b.py", "2"),
                fe("scripts/a.ts", "3"),
                fe("scripts/x.rb", "4"),
                fe("resources/r.md", "5"),
                fe("resources/r.xml", "6"),
                fe("references/z.md", "7"),
            ],
            ..crate::inventory::tests::artifact()
        };
        let m = Manifest::of(&a, Some(bytes));
        assert_eq!(
            m.canonical(),
            "x\u{241E}d\u{241E}resources/r.md\u{241E}scripts/a.ts,scripts/b.py\u{241E}Bash,Read\u{241E}2"
        );
        // The body does not take part (AgentEval's definition).
        let other = b"---\nname: x\ndescription: d\nallowed-tools: Read, Bash\ncompatibility: \xF0\x9F\x98\x80\n---\nevil body\n";
        assert_eq!(m.fingerprint(), Manifest::of(&a, Some(other)).fingerprint());
    }
}
