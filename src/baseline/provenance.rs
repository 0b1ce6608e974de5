//! Provenance from `skills-lock.json`, the project lock file written by the
//! `skills` npm CLI (vercel-labs, `npx skills add`).
//!
//! # Lock file
//!
//! The CLI (version 1.5.18, `readLocalLock` / `writeLocalLock`) writes
//! `skills-lock.json` in the directory it runs in:
//!
//! ```json
//! {"version": 1, "skills": {"<name>": {"source": "org/repo", "sourceType": "github",
//!   "sourceUrl": "...", "ref": "v1.2.0", "skillPath": "skills/x/SKILL.md",
//!   "computedHash": "<64 hex>"}}}
//! ```
//!
//! ## Lookup ([`find_lock`])
//!
//! Starting at the scanned directory, each directory up to and including the
//! nearest one that contains a `.git` entry (directory, or file as in
//! worktrees and submodules) is checked for `skills-lock.json`; the first hit
//! wins. A lock above the repository root belongs to another project and is
//! ignored. When no `.git` exists at or above the start directory there is no
//! project boundary to trust, so only the start directory itself is checked.
//! The start directory is canonicalised first (parents are physical parents,
//! as for git), so the returned path is absolute.
//!
//! A `skills-lock.json` that is a symlink, a directory or another non-regular
//! file still ends the lookup (it is what sits where the CLI would look), but
//! it is never followed: [`read_lock`] refuses it with
//! [`LockError::NotRegular`]. A symlinked lock could point anywhere on the
//! machine, and reading a FIFO could block the scan.
//!
//! ## Validation ([`read_lock`])
//!
//! * The read is bounded: over [`MAX_LOCK_SIZE`] (4 MiB) is [`LockError::TooLarge`].
//! * Invalid JSON is [`LockError::Json`] with line and column; a top level that
//!   is not an object, a missing or non-numeric `version`, or a `skills` that is
//!   not an object is [`LockError::Shape`].
//! * `version` above 1 is read as version 1 with a warning; below 1 also warns
//!   (the CLI treats such a lock as empty).
//! * Per entry, only non-empty string values of the known fields are kept (a
//!   known field of another JSON type is dropped with a warning; unknown fields
//!   such as `pluginName` are ignored).
//! * An entry whose name, or any string (value or key, at any depth) contains a
//!   control character (Unicode `Cc`), a format character (`Cf`: bidi controls
//!   such as U+202E, zero-width characters such as U+200B), a line/paragraph
//!   separator, or another invisible character that [`crate::text::sanitize`]
//!   escapes (variation selectors, Hangul fillers) is dropped with a warning:
//!   such a value can disguise a source or a name when printed.
//! * An entry with neither `source` nor `sourceUrl` says nothing about
//!   provenance and is dropped with a warning, as is an entry that is not an
//!   object.
//! * A `computedHash` that is not 64 hexadecimal digits is kept as `None` with
//!   a warning (uppercase digits are accepted and lowercased).
//! * A skill name listed twice in `skills` gets a warning; the last occurrence
//!   is used, as by the CLI's `JSON.parse`.
//!
//! Warning messages (and [`LockWarning::entry`]) never contain the raw
//! offending characters: they are escaped as `\u{202e}`.
//!
//! # Folder hash ([`skills_cli_folder_hash`])
//!
//! `computedHash` is the CLI's `computeSkillFolderHash` (skills 1.5.18,
//! `dist/cli.mjs`, with `collectFiles`):
//!
//! 1. Collect the regular files below the skill folder. Node's `Dirent` reports
//!    a symlink as neither file nor directory, so symlinks are skipped (not
//!    followed); directories named `.git` or `node_modules` are skipped at any
//!    depth (a *file* with such a name is hashed).
//! 2. The relative path uses `/`; the CLI also rewrites every `\` to `/`
//!    (`split("\\").join("/")`), which on Unix affects file names containing a
//!    backslash.
//! 3. Sort with JavaScript `a.localeCompare(b)` ([`locale_compare`]).
//! 4. SHA-256 over, for each file in order, the UTF-8 relative path followed by
//!    the raw content, without separators; lowercase hex.
//!
//! Which folder is hashed depends on the install path: for git/GitHub/local
//! sources the CLI hashes the folder it installs *from* (the clone), for
//! `node_modules` sync the package folder, and only for `well-known` sources
//! the installed copy. The installed copy drops `metadata.json` files and
//! `__pycache__`/`__pypackages__` directories and dereferences symlinks, so a
//! faithful install can still hash differently when the source had those.
//! (The global lock's `skillFolderHash` is a GitHub tree SHA, unrelated.)
//! For GitHub installs served by the skills.sh blob API (`tryBlobInstall`),
//! the project lock records the download's `snapshotHash` instead: the server's
//! `hash` when all downloaded files are kept, otherwise `computeSnapshotHash`
//! over the kept files (same path-then-content SHA-256 and `localeCompare`
//! order, but over the server's file list, without the `.git`/`node_modules`
//! filter, and over file contents as JSON strings, i.e. UTF-8 text). When the
//! server hashes the same files the result matches this algorithm; nothing in
//! the CLI checks that it does, so a mismatch on such an entry is weaker
//! evidence than on a locally computed one.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use regex::Regex;
use serde::Deserialize;
use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::Value;
use sha2::{Digest, Sha256};
use unicode_normalization::UnicodeNormalization;

use crate::fsutil::open_regular;
use crate::hash::hex;

/// File name written by the `skills` CLI.
pub const LOCK_FILE_NAME: &str = "skills-lock.json";
/// Largest lock file [`read_lock`] accepts.
pub const MAX_LOCK_SIZE: u64 = 4 * 1024 * 1024;
/// Lock format version this module understands.
pub const SUPPORTED_LOCK_VERSION: u64 = 1;

/// One `skills` entry of the lock; every field is a non-empty string or `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LockEntry {
    /// `source`: `org/repo`, a package name or a URL, as recorded by the CLI.
    pub source: Option<String>,
    /// `sourceUrl`.
    pub source_url: Option<String>,
    /// `ref`: branch, tag or commit the skill was installed from.
    pub r#ref: Option<String>,
    /// `sourceType`: `github`, `gitlab`, `git`, `local`, `well-known`, `node_modules`, ...
    pub source_type: Option<String>,
    /// `skillPath`: the `SKILL.md` path inside the source repository.
    pub skill_path: Option<String>,
    /// `computedHash`, validated as 64 lowercase hex digits (see [`skills_cli_folder_hash`]).
    pub computed_hash: Option<String>,
}

/// A parsed and validated `skills-lock.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockFile {
    /// The path it was read from.
    pub path: PathBuf,
    /// Kept entries by skill name.
    pub entries: BTreeMap<String, LockEntry>,
    /// Problems that did not prevent reading the file.
    pub warnings: Vec<LockWarning>,
}

/// A non-fatal problem in a lock file. Both fields are safe to print: control,
/// format and invisible characters are escaped as `\u{..}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockWarning {
    /// The (escaped) skill name the warning is about, `None` for the whole file.
    pub entry: Option<String>,
    /// What is wrong and what was done about it.
    pub message: String,
}

impl fmt::Display for LockWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entry {
            Some(e) => write!(f, "skill \"{e}\": {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Why a lock file could not be read. Paths are sanitised in the messages.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// The file could not be opened or read.
    #[error("cannot read {}: {source}", show_path(path))]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The lock is a symlink, a directory or another non-regular file; it is not followed.
    #[error("{} is a symlink or not a regular file; not followed", show_path(path))]
    NotRegular { path: PathBuf },
    /// Larger than [`MAX_LOCK_SIZE`]; `size` is the size seen (at least the limit + 1).
    #[error(
        "{} is {size} bytes, over the {MAX_LOCK_SIZE}-byte limit",
        show_path(path)
    )]
    TooLarge { path: PathBuf, size: u64 },
    /// Not valid JSON (1-based line and column as reported by serde_json).
    #[error("{}:{line}:{column}: invalid JSON: {msg}", show_path(path))]
    Json {
        path: PathBuf,
        line: usize,
        column: usize,
        msg: String,
    },
    /// Valid JSON but not a skills lock file.
    #[error("{}: not a skills lock file: {msg}", show_path(path))]
    Shape { path: PathBuf, msg: String },
}

fn show_path(p: &Path) -> String {
    escape(&p.display().to_string())
}

/// Finds the `skills-lock.json` that applies to `start` (a directory): see the
/// module docs for the rule. Returns the first `skills-lock.json` entry of any
/// type found (canonical absolute path); a symlink or non-regular one is
/// returned too, and [`read_lock`] then refuses it with
/// [`LockError::NotRegular`]. `None` if there is none or `start` cannot be
/// canonicalised.
pub fn find_lock(start: &Path) -> Option<PathBuf> {
    let start = fs::canonicalize(start).ok()?;
    let exists = |p: &Path| fs::symlink_metadata(p).is_ok();
    let limit = start
        .ancestors()
        .find(|d| exists(&d.join(".git")))
        .unwrap_or(&start);
    for dir in start.ancestors() {
        let candidate = dir.join(LOCK_FILE_NAME);
        if exists(&candidate) {
            return Some(candidate);
        }
        if dir == limit {
            break;
        }
    }
    None
}

/// Reads and validates a lock file (see the module docs for the rules).
pub fn read_lock(path: &Path) -> Result<LockFile, LockError> {
    let bytes = read_bounded(path)?;
    parse_lock(path, &bytes)
}

/// Parses and validates the bytes of a lock file read from `path` (used in messages only).
pub fn parse_lock(path: &Path, bytes: &[u8]) -> Result<LockFile, LockError> {
    let doc: Value = serde_json::from_slice(bytes).map_err(|e| LockError::Json {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        msg: json_message(&e),
    })?;
    let shape = |msg: String| LockError::Shape {
        path: path.to_path_buf(),
        msg,
    };
    let Value::Object(top) = &doc else {
        return Err(shape(format!(
            "the top level is {}, not an object",
            kind(&doc)
        )));
    };
    let mut warnings = Vec::new();
    match top.get("version") {
        Some(Value::Number(n)) => {
            let v = n.as_f64().unwrap_or_default();
            if v > SUPPORTED_LOCK_VERSION as f64 {
                warnings.push(file_warning(format!(
                    "lock version {n} is newer than the supported version \
                     {SUPPORTED_LOCK_VERSION}; read as version {SUPPORTED_LOCK_VERSION}"
                )));
            } else if v < 1.0 {
                warnings.push(file_warning(format!(
                    "lock version {n} is below 1; the skills CLI ignores such a lock"
                )));
            }
        }
        Some(other) => {
            return Err(shape(format!("`version` is {}, not a number", kind(other))));
        }
        None => return Err(shape("missing `version`".into())),
    }
    let skills = match top.get("skills") {
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(shape(format!("`skills` is {}, not an object", kind(other))));
        }
        None => return Err(shape("missing `skills`".into())),
    };

    // serde_json keeps the last of duplicate keys, like JSON.parse; say so.
    if let Ok(keys) = serde_json::from_slice::<SkillKeys>(bytes) {
        if keys.skills_fields > 1 {
            warnings.push(file_warning(format!(
                "`skills` appears {} times; the last one is used",
                keys.skills_fields
            )));
        }
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for k in &keys.names {
            *counts.entry(k).or_default() += 1;
        }
        for (name, n) in counts.into_iter().filter(|(_, n)| *n > 1) {
            warnings.push(LockWarning {
                entry: Some(escape(name)),
                message: format!("listed {n} times; the last entry is used"),
            });
        }
    }

    let mut entries = BTreeMap::new();
    for (name, value) in skills {
        if let Some(entry) = parse_entry(name, value, &mut warnings) {
            entries.insert(name.clone(), entry);
        }
    }
    Ok(LockFile {
        path: path.to_path_buf(),
        entries,
        warnings,
    })
}

fn file_warning(message: String) -> LockWarning {
    LockWarning {
        entry: None,
        message,
    }
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, LockError> {
    let io_err = |source| LockError::Io {
        path: path.to_path_buf(),
        source,
    };
    let not_regular = || LockError::NotRegular {
        path: path.to_path_buf(),
    };
    let meta = fs::symlink_metadata(path).map_err(io_err)?;
    if !meta.file_type().is_file() {
        return Err(not_regular());
    }
    // open_regular re-checks on the opened descriptor (O_NOFOLLOW), so a
    // symlink or FIFO swapped in since the check above is refused too.
    let file = open_regular(path).map_err(|e| match fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => not_regular(),
        _ => io_err(e),
    })?;
    let len = file.metadata().map_err(io_err)?.len();
    if len > MAX_LOCK_SIZE {
        return Err(LockError::TooLarge {
            path: path.to_path_buf(),
            size: len,
        });
    }
    let mut buf = Vec::with_capacity(len as usize);
    file.take(MAX_LOCK_SIZE + 1)
        .read_to_end(&mut buf)
        .map_err(io_err)?;
    if buf.len() as u64 > MAX_LOCK_SIZE {
        return Err(LockError::TooLarge {
            path: path.to_path_buf(),
            size: buf.len() as u64,
        });
    }
    Ok(buf)
}

/// serde_json's message without its " at line L column C" suffix (reported separately).
fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    escape(full.strip_suffix(&suffix).unwrap_or(&full))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn parse_entry(name: &str, value: &Value, warnings: &mut Vec<LockWarning>) -> Option<LockEntry> {
    let mut warn = |message: String| {
        warnings.push(LockWarning {
            entry: Some(escape(name)),
            message,
        });
    };
    if has_forbidden(name) {
        warn(
            "the skill name contains a control or invisible format character; entry ignored".into(),
        );
        return None;
    }
    let Value::Object(obj) = value else {
        warn(format!("entry is {}, not an object; ignored", kind(value)));
        return None;
    };
    if let Some((field, bad)) = find_forbidden(value, None) {
        let field = field.map_or_else(String::new, |f| format!("`{}` ", escape(f)));
        warn(format!(
            "field {field}contains a control or invisible format character (\"{}\"); entry ignored",
            crate::text::truncate(&escape(bad), 120)
        ));
        return None;
    }
    let mut field = |key: &str| match obj.get(key) {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        None | Some(Value::Null) | Some(Value::String(_)) => None,
        Some(other) => {
            warn(format!("`{key}` is {}, not a string; ignored", kind(other)));
            None
        }
    };
    let mut entry = LockEntry {
        source: field("source"),
        source_url: field("sourceUrl"),
        r#ref: field("ref"),
        source_type: field("sourceType"),
        skill_path: field("skillPath"),
        computed_hash: field("computedHash"),
    };
    if entry.source.is_none() && entry.source_url.is_none() {
        warn("entry has neither `source` nor `sourceUrl`; ignored".into());
        return None;
    }
    if let Some(h) = entry.computed_hash.take() {
        if h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()) {
            entry.computed_hash = Some(h.to_ascii_lowercase());
        } else {
            warn(format!(
                "`computedHash` \"{}\" is not 64 hexadecimal digits; treated as absent",
                crate::text::truncate(&h, 80)
            ));
        }
    }
    Some(entry)
}

/// The first string (object key or string value, at any depth) containing a
/// forbidden character, with the top-level field it sits under.
fn find_forbidden<'a>(v: &'a Value, field: Option<&'a str>) -> Option<(Option<&'a str>, &'a str)> {
    match v {
        Value::String(s) if has_forbidden(s) => Some((field, s)),
        Value::Array(items) => items.iter().find_map(|i| find_forbidden(i, field)),
        Value::Object(m) => m.iter().find_map(|(k, v)| {
            if has_forbidden(k) {
                Some((field, k.as_str()))
            } else {
                find_forbidden(v, Some(field.unwrap_or(k)))
            }
        }),
        _ => None,
    }
}

static FORMAT_CHAR: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\p{Cf}$").expect("static regex"));

/// Unicode `Cf` (format: bidi controls, zero-width characters, ...).
fn is_format(c: char) -> bool {
    !c.is_ascii() && FORMAT_CHAR.is_match(c.encode_utf8(&mut [0; 4]))
}

/// `Cc`, `Cf`, U+2028/U+2029, and whatever [`crate::text::sanitize`] escapes.
fn is_forbidden(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}')
        || is_format(c)
        || matches!(
            crate::text::sanitize(c.encode_utf8(&mut [0; 4])),
            std::borrow::Cow::Owned(_)
        )
}

fn has_forbidden(s: &str) -> bool {
    s.chars().any(is_forbidden)
}

/// Escapes forbidden characters as `\u{202e}` (lowercase hex).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_forbidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// Names under the top-level `skills` object in document order, duplicates
/// included (a `serde_json::Value` silently keeps only the last).
struct SkillKeys {
    skills_fields: usize,
    names: Vec<String>,
}

impl<'de> Deserialize<'de> for SkillKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Top;
        impl<'de> Visitor<'de> for Top {
            type Value = SkillKeys;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SkillKeys, A::Error> {
                let mut out = SkillKeys {
                    skills_fields: 0,
                    names: Vec::new(),
                };
                while let Some(k) = map.next_key::<String>()? {
                    if k == "skills" {
                        out.skills_fields += 1;
                        out.names = map.next_value::<KeysOnly>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(out)
            }
        }
        d.deserialize_map(Top)
    }
}

/// The keys of an object (values skipped); empty for any other JSON value.
struct KeysOnly(Vec<String>);

impl<'de> Deserialize<'de> for KeysOnly {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KeysOnly;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<KeysOnly, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(KeysOnly(keys))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeysOnly, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(KeysOnly(Vec::new()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<KeysOnly, E> {
                Ok(KeysOnly(Vec::new()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<KeysOnly, E> {
                Ok(KeysOnly(Vec::new()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<KeysOnly, E> {
                Ok(KeysOnly(Vec::new()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<KeysOnly, E> {
                Ok(KeysOnly(Vec::new()))
            }
            fn visit_str<E>(self, _: &str) -> Result<KeysOnly, E> {
                Ok(KeysOnly(Vec::new()))
            }
            fn visit_unit<E>(self) -> Result<KeysOnly, E> {
                Ok(KeysOnly(Vec::new()))
            }
        }
        d.deserialize_any(V)
    }
}

/// The `skills` CLI's `computeSkillFolderHash` (skills 1.5.18), byte-exact for
/// the file list given (see the module docs).
///
/// `files` are the skill's regular files as relative `/` paths (the caller's
/// inventory, symlinks already excluded). Paths under a directory named `.git`
/// or `node_modules` (any depth) are dropped, `\` becomes `/` in the hashed
/// path as in the CLI, the list is sorted with [`locale_compare`] (ties, which
/// the CLI leaves to directory-read order, are broken by bytes), and each file
/// is opened with [`open_regular`] and streamed into the hash. Empty, absolute
/// or `.`/`..`-containing paths are `InvalidInput`; a file that is not (or no
/// longer) a regular file is an error, so the caller can report the hash as
/// unverifiable rather than silently different. Exact duplicates are hashed once.
/// File names that are not valid UTF-8 cannot be expressed (the CLI would hash
/// them with U+FFFD replacements).
pub fn skills_cli_folder_hash(dir: &Path, files: &[&str]) -> io::Result<String> {
    let mut list: Vec<(SortKey, String, &str)> = Vec::with_capacity(files.len());
    for &rel in files {
        let segments: Vec<&str> = rel.split('/').collect();
        if rel.is_empty()
            || segments
                .iter()
                .any(|s| s.is_empty() || *s == "." || *s == "..")
            || Path::new(rel).is_absolute()
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not a clean relative path: \"{}\"", escape(rel)),
            ));
        }
        let dirs = &segments[..segments.len() - 1];
        if dirs.iter().any(|s| *s == ".git" || *s == "node_modules") {
            continue;
        }
        // Paths come escaped ([`crate::names`]); the CLI hashes the name itself.
        let Some(name) = crate::names::as_utf8(rel) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "\"{}\" is not valid UTF-8: the skills CLI's hash of it cannot be reproduced",
                    escape(rel)
                ),
            ));
        };
        let hashed = name.replace('\\', "/");
        list.push((sort_key(&hashed), hashed, rel));
    }
    list.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| a.1.cmp(&b.1))
            .then_with(|| a.2.cmp(b.2))
    });
    list.dedup_by(|a, b| a.2 == b.2);

    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 64 * 1024];
    for (_, hashed, rel) in &list {
        let with_path = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", escape(rel)));
        hasher.update(hashed.as_bytes());
        let mut f = open_regular(&crate::names::path_of(dir, rel)).map_err(with_path)?;
        loop {
            match f.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => hasher.update(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(with_path(e)),
            }
        }
    }
    Ok(hex(&hasher.finalize()))
}

/// JavaScript `a.localeCompare(b)` as Node 20 (full ICU, default locale en-US,
/// i.e. the CLDR root collation: UCA/DUCET, alternate = non-ignorable, strength
/// tertiary, no identical level) orders file paths.
///
/// **Exact parity is only guaranteed for ASCII strings** (checked against Node
/// 20.20 / ICU 78.2). Model: primary level first over the whole string, then
/// secondary, then tertiary. Primary order: the ignorable controls (C0 other
/// than TAB..CR, DEL) weigh nothing; TAB, LF, VT, FF, CR; space; the ASCII
/// punctuation and symbols in DUCET order ``_-,;:!?.'"()[]{}@*/\&#%`^+<=>|~$``;
/// digits; letters case-insensitively. Tertiary: lowercase before uppercase.
///
/// Non-ASCII approximation (documented, not exact): strings are NFD-normalised
/// (so canonically equivalent strings compare equal, as in ICU); combining
/// diacritics U+0300..U+036F weigh at the secondary level in the order ICU
/// gives them (so `e < é < è < f`); `ß`, `æ`, `œ` weigh as `ss`, `ae`, `oe`
/// plus a secondary difference, `ø đ ð ł ħ` as their base letter plus a
/// secondary difference; `ı` follows `i`; other format characters (`Cf`), C1 controls
/// and variation selectors are ignorable; other whitespace weighs as a space
/// variant (NEL, U+2028, U+2029 between CR and space). Then, by code point:
/// other symbols and punctuation after `$` and before the digits; other numbers
/// after the ASCII digits; other letters (other scripts, Latin letters without
/// a decomposition) after `z`, case-folded. Strings that ICU considers equal
/// (only possible with ignorable or canonically equivalent characters) return
/// `Equal`.
pub fn locale_compare(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    sort_key(a).cmp(&sort_key(b))
}

/// Collation weights per level; the derived `Ord` compares level by level.
#[derive(Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct SortKey {
    primary: Vec<u32>,
    secondary: Vec<u32>,
    tertiary: Vec<u8>,
}

/// `' '` and the ASCII punctuation and symbols in DUCET primary order
/// (Node 20 `localeCompare` over all printable ASCII characters).
const ASCII_PUNCT_ORDER: &[u8; 33] = b" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

// Primary weights (0 = ignorable).
const P_SPACE: u32 = 16;
const P_SYMBOL_BAND: u32 = 0x100;
const P_DIGIT: u32 = 0x20_0000;
const P_NUMBER_BAND: u32 = 0x20_0100;
const P_LETTER: u32 = 0x40_0000;
const P_LETTER_BAND: u32 = 0x50_0000;

// Secondary weights: diacritics U+0300..U+036F weigh `S_MARK + 2 * MARK_RANK`;
// the stroke of `đ` sits just before U+0335 (rank 22), eth just after it.
const S_COMMON: u32 = 1;
const S_MARK: u32 = 2;
const S_STROKE: u32 = S_MARK + 2 * 22 - 1;
const S_ETH: u32 = S_MARK + 2 * 22 + 1;
const S_LIGATURE: u32 = 0x0F00;
const S_OTHER_MARK: u32 = 0x1000;

// Tertiary weights.
const T_LOWER: u8 = 0;
const T_UPPER: u8 = 1;
const T_VARIANT: u8 = 2;

/// Secondary rank of U+0300..U+036F (index = code point - 0x300), from Node 20
/// sorting `"a" + mark`; 0 = ignorable (U+034F combining grapheme joiner).
/// U+0363..U+036F (combining Latin letters) have primary weights in ICU; here
/// they are approximated as the last secondaries.
const MARK_RANK: [u8; 0x70] = [
    5, 4, 7, 14, 19, 24, 6, 15, 11, 25, 9, 13, 8, 20, 20, 26, 27, 28, 20, 2, 3, 20, 21, 21, 21, 21,
    20, 29, 21, 21, 21, 21, 21, 30, 31, 32, 33, 34, 35, 17, 18, 21, 21, 21, 21, 36, 37, 21, 38, 39,
    1, 21, 40, 23, 22, 22, 16, 41, 21, 21, 21, 20, 20, 20, 5, 4, 10, 2, 12, 42, 20, 21, 21, 21, 20,
    20, 20, 21, 21, 0, 20, 20, 20, 21, 21, 21, 21, 20, 43, 21, 21, 20, 21, 20, 20, 21, 44, 45, 21,
    46, 49, 51, 53, 56, 47, 48, 50, 52, 54, 55, 57, 58,
];

fn sort_key(s: &str) -> SortKey {
    let mut k = SortKey::default();
    if s.is_ascii() {
        for b in s.bytes() {
            push_ascii(b, &mut k);
        }
    } else {
        for c in s.nfd() {
            push_char(c, &mut k);
        }
    }
    k
}

fn push(k: &mut SortKey, p: u32, s: u32, t: u8) {
    if p != 0 {
        k.primary.push(p);
    }
    k.secondary.push(s);
    k.tertiary.push(t);
}

fn push_ascii(b: u8, k: &mut SortKey) {
    match b {
        b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => push(k, u32::from(b) - 8, S_COMMON, T_LOWER),
        0..=0x1f | 0x7f => {}
        b'0'..=b'9' => push(k, P_DIGIT + u32::from(b - b'0'), S_COMMON, T_LOWER),
        b'a'..=b'z' => push(k, letter(b), S_COMMON, T_LOWER),
        b'A'..=b'Z' => push(k, letter(b), S_COMMON, T_UPPER),
        _ => {
            let i = ASCII_PUNCT_ORDER
                .iter()
                .position(|&c| c == b)
                .unwrap_or_default();
            push(k, P_SPACE + i as u32, S_COMMON, T_LOWER);
        }
    }
}

/// Primary weight of an ASCII letter (either case).
fn letter(b: u8) -> u32 {
    P_LETTER + 2 * u32::from(b.to_ascii_lowercase() - b'a')
}

fn push_char(c: char, k: &mut SortKey) {
    if c.is_ascii() {
        push_ascii(c as u8, k);
        return;
    }
    let cp = c as u32;
    let case = |upper: bool| if upper { T_UPPER } else { T_LOWER };
    match c {
        '\u{85}' => push(k, 6, S_COMMON, T_LOWER),
        '\u{2028}' => push(k, 7, S_COMMON, T_LOWER),
        '\u{2029}' => push(k, 8, S_COMMON, T_LOWER),
        // Ligatures: both letters, with a secondary difference after all diacritics.
        'ß' | 'ẞ' | 'æ' | 'Æ' | 'œ' | 'Œ' => {
            let (a, b) = match c {
                'ß' | 'ẞ' => (b's', b's'),
                'æ' | 'Æ' => (b'a', b'e'),
                _ => (b'o', b'e'),
            };
            let t = case(!c.is_lowercase());
            push(k, letter(a), S_COMMON, t);
            push(k, 0, S_LIGATURE, T_LOWER);
            push(k, letter(b), S_COMMON, t);
        }
        // Stroke letters and eth: the base letter with a secondary difference.
        'ø' | 'đ' | 'ł' | 'ħ' | 'ð' | 'Ø' | 'Đ' | 'Ł' | 'Ħ' | 'Ð' => {
            let base = match c.to_lowercase().next() {
                Some('ø') => b'o',
                Some('ł') => b'l',
                Some('ħ') => b'h',
                _ => b'd',
            };
            let s = if matches!(c, 'ð' | 'Ð') {
                S_ETH
            } else {
                S_STROKE
            };
            push(k, letter(base), S_COMMON, case(c.is_uppercase()));
            push(k, 0, s, T_LOWER);
        }
        'ı' => push(k, letter(b'i') + 1, S_COMMON, T_LOWER),
        '\u{0300}'..='\u{036f}' => match MARK_RANK[(cp - 0x300) as usize] {
            0 => {}
            r => push(k, 0, S_MARK + 2 * u32::from(r), T_LOWER),
        },
        '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' => {}
        _ if c.is_control() || is_format(c) => {}
        _ if unicode_normalization::char::is_combining_mark(c) => {
            push(k, 0, S_OTHER_MARK + cp, T_LOWER);
        }
        // No-break spaces carry a higher tertiary than the other space variants.
        '\u{A0}' | '\u{2007}' | '\u{202F}' => push(k, P_SPACE, S_COMMON, T_VARIANT + 1),
        _ if c.is_whitespace() => push(k, P_SPACE, S_COMMON, T_VARIANT),
        _ if c.is_alphabetic() => {
            let mut lower = c.to_lowercase();
            let folded = match (lower.next(), lower.next()) {
                (Some(l), None) => l,
                _ => c,
            };
            let t = if folded != c { T_UPPER } else { T_LOWER };
            push(k, P_LETTER_BAND + folded as u32, S_COMMON, t);
        }
        _ if c.is_numeric() => push(k, P_NUMBER_BAND + cp, S_COMMON, T_LOWER),
        _ => push(k, P_SYMBOL_BAND + cp, S_COMMON, T_LOWER),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn write(path: &Path, content: &[u8]) {
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).unwrap();
        }
        fs::write(path, content).unwrap();
    }

    const HASH_A: &str = "9a673320882b01f2bf8032ba2a6237636b925e367e615c8f0666a19f2780e0b0";

    fn lock_json(entries: &str) -> String {
        format!(r#"{{"version": 1, "skills": {{{entries}}}}}"#)
    }

    fn read_str(content: &str) -> (tempfile::TempDir, Result<LockFile, LockError>) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(LOCK_FILE_NAME);
        write(&path, content.as_bytes());
        let r = read_lock(&path);
        (tmp, r)
    }

    fn assert_printable(w: &LockWarning) {
        let shown = w.to_string();
        assert!(
            !shown.chars().any(is_forbidden),
            "raw character in {shown:?}"
        );
    }

    #[test]
    fn find_lock_stops_at_git_root() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        // A lock above the repository belongs to another project.
        write(&root.join(LOCK_FILE_NAME), b"{}");
        let repo = root.join("repo");
        fs::create_dir_all(repo.join(".git")).unwrap();
        let start = repo.join("skills/a");
        fs::create_dir_all(&start).unwrap();
        assert_eq!(find_lock(&start), None);

        // At the root itself.
        write(&repo.join(LOCK_FILE_NAME), b"{}");
        let found = find_lock(&start).unwrap();
        assert_eq!(found, fs::canonicalize(&repo).unwrap().join(LOCK_FILE_NAME));

        // The nearest one wins.
        write(&repo.join("skills").join(LOCK_FILE_NAME), b"{}");
        let found = find_lock(&start).unwrap();
        assert_eq!(found.parent().unwrap().file_name().unwrap(), "skills");

        // `.git` as a file (worktree, submodule) is a root too.
        let sub = repo.join("vendor/sub");
        fs::create_dir_all(sub.join("x")).unwrap();
        write(&sub.join(".git"), b"gitdir: ../../.git/modules/sub\n");
        assert_eq!(find_lock(&sub.join("x")), None);
    }

    #[test]
    fn find_lock_without_git_checks_only_start() {
        let tmp = tempfile::tempdir().unwrap();
        let base = fs::canonicalize(tmp.path()).unwrap();
        if base.ancestors().any(|d| d.join(".git").exists()) {
            return; // the temp dir sits inside a repository: nothing to test here
        }
        write(&base.join(LOCK_FILE_NAME), b"{}");
        let start = base.join("a/b");
        fs::create_dir_all(&start).unwrap();
        assert_eq!(find_lock(&start), None);
        assert_eq!(find_lock(&base), Some(base.join(LOCK_FILE_NAME)));
        assert_eq!(find_lock(&base.join("missing")), None);
    }

    #[cfg(unix)]
    #[test]
    fn symlinked_lock_is_found_but_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path();
        fs::create_dir(repo.join(".git")).unwrap();
        write(&repo.join("elsewhere.json"), lock_json("").as_bytes());
        std::os::unix::fs::symlink("elsewhere.json", repo.join(LOCK_FILE_NAME)).unwrap();
        let found = find_lock(repo).unwrap();
        assert!(matches!(
            read_lock(&found),
            Err(LockError::NotRegular { .. })
        ));
        // A directory in its place is refused the same way.
        let other = repo.join("d");
        fs::create_dir_all(other.join(LOCK_FILE_NAME)).unwrap();
        let found = find_lock(&other).unwrap();
        assert!(matches!(
            read_lock(&found),
            Err(LockError::NotRegular { .. })
        ));
    }

    #[test]
    fn reads_entries() {
        let hash = "AB".repeat(32);
        let (_t, r) = read_str(&format!(
            r#"{{"version": 2, "skills": {{
                "pdf": {{"source": "org/repo", "sourceType": "github", "sourceUrl": "https://github.com/org/repo.git",
                         "ref": "v1.2.0", "skillPath": "skills/pdf/SKILL.md", "computedHash": "{hash}",
                         "pluginName": "x", "subagents": ["a"]}},
                "local": {{"source": "./x", "ref": "", "sourceType": 3}}
            }}}}"#
        ));
        let lock = r.unwrap();
        assert_eq!(lock.entries.len(), 2);
        assert_eq!(
            lock.entries["pdf"],
            LockEntry {
                source: Some("org/repo".into()),
                source_url: Some("https://github.com/org/repo.git".into()),
                r#ref: Some("v1.2.0".into()),
                source_type: Some("github".into()),
                skill_path: Some("skills/pdf/SKILL.md".into()),
                computed_hash: Some("ab".repeat(32)),
            }
        );
        let local = &lock.entries["local"];
        assert_eq!(
            (local.r#ref.as_deref(), local.source_type.as_deref()),
            (None, None)
        );
        assert_eq!(lock.warnings.len(), 2, "{:?}", lock.warnings);
        assert!(lock.warnings[0].entry.is_none() && lock.warnings[0].message.contains("newer"));
        assert_eq!(lock.warnings[1].entry.as_deref(), Some("local"));
        assert!(
            lock.warnings[1]
                .message
                .contains("`sourceType` is a number")
        );
    }

    #[test]
    fn control_character_entries_are_dropped() {
        let (_t, r) = read_str(&lock_json(
            r#""good": {"source": "org/good"},
               "ev\u202eil": {"source": "org/evil"},
               "bell": {"source": "org/be\u0007ll"},
               "zw": {"sourceUrl": "https://example.com/\u200bx"},
               "nested": {"source": "org/n", "subagents": ["a\u0000"]}"#,
        ));
        let lock = r.unwrap();
        assert_eq!(lock.entries.keys().collect::<Vec<_>>(), ["good"]);
        assert_eq!(lock.warnings.len(), 4, "{:?}", lock.warnings);
        for w in &lock.warnings {
            assert_printable(w);
            assert!(w.message.contains("entry ignored"));
        }
        let shown: Vec<String> = lock.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            shown.iter().any(|w| w.contains(r"ev\u{202e}il")),
            "{shown:?}"
        );
        assert!(
            shown.iter().any(|w| w.contains(r"org/be\u{7}ll")),
            "{shown:?}"
        );
        assert!(shown.iter().any(|w| w.contains(r"\u{200b}x")), "{shown:?}");
    }

    #[test]
    fn invalid_json_reports_line_and_column() {
        let (_t, r) = read_str("{\n  \"version\": 1,\n  \"skills\": {,}\n}\n");
        match r {
            Err(LockError::Json {
                line, column, msg, ..
            }) => {
                assert_eq!((line, column), (3, 14));
                assert!(!msg.contains("line"), "{msg}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn shape_errors() {
        for (doc, want) in [
            (r#"{"version": 1}"#, "missing `skills`"),
            (r#"{"version": 1, "skills": []}"#, "`skills` is an array"),
            (r#"{"skills": {}}"#, "missing `version`"),
            (r#"{"version": "1", "skills": {}}"#, "`version` is a string"),
            ("[]", "top level is an array"),
        ] {
            let (_t, r) = read_str(doc);
            match r {
                Err(LockError::Shape { msg, .. }) => assert!(msg.contains(want), "{msg}"),
                other => panic!("{doc}: {other:?}"),
            }
        }
    }

    #[test]
    fn too_large_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(LOCK_FILE_NAME);
        let f = fs::File::create(&path).unwrap();
        f.set_len(MAX_LOCK_SIZE + 1).unwrap(); // sparse
        match read_lock(&path) {
            Err(LockError::TooLarge { size, .. }) => assert_eq!(size, MAX_LOCK_SIZE + 1),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_hash_missing_source_and_non_objects() {
        let (_t, r) = read_str(&lock_json(
            r#""short": {"source": "o/r", "computedHash": "abc"},
               "nothex": {"source": "o/r", "computedHash": "zz11111111111111111111111111111111111111111111111111111111111111"},
               "nosource": {"ref": "main", "source": ""},
               "arr": ["o/r"]"#,
        ));
        let lock = r.unwrap();
        assert_eq!(lock.entries.keys().collect::<Vec<_>>(), ["nothex", "short"]);
        assert!(lock.entries.values().all(|e| e.computed_hash.is_none()));
        let msgs: Vec<String> = lock.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(msgs.len(), 4, "{msgs:?}");
        assert_eq!(
            msgs.iter()
                .filter(|m| m.contains("not 64 hexadecimal"))
                .count(),
            2
        );
        assert!(
            msgs.iter()
                .any(|m| m.contains("\"nosource\"") && m.contains("neither"))
        );
        assert!(
            msgs.iter()
                .any(|m| m.contains("\"arr\"") && m.contains("an array"))
        );
    }

    #[test]
    fn duplicate_names_warn_and_last_wins() {
        let (_t, r) = read_str(&lock_json(
            r#""x": {"source": "o/first"}, "x": {"source": "o/second"}"#,
        ));
        let lock = r.unwrap();
        assert_eq!(lock.entries["x"].source.as_deref(), Some("o/second"));
        assert_eq!(lock.warnings.len(), 1);
        assert!(lock.warnings[0].message.contains("listed 2 times"));
    }

    /// Builds the folder whose hash Node computed with the CLI's own code.
    fn make_vector_folder(dir: &Path) {
        write(
            &dir.join("SKILL.md"),
            b"---\nname: demo\ndescription: Demo skill.\n---\n# Demo\n",
        );
        write(&dir.join("scripts/run.sh"), b"#!/bin/sh\necho hi\n");
        write(&dir.join("Readme.md"), b"readme\n");
        write(&dir.join("a-b.txt"), b"dash\n");
        write(&dir.join("a_b.txt"), b"underscore\n");
        write(&dir.join(".hidden"), b"h");
        write(&dir.join("node_modules/x.js"), b"module.exports = 1;\n");
        write(&dir.join("scripts/.git/config"), b"[core]\n");
        write(&dir.join("sub/node_modules"), b"not a dir\n"); // a file: hashed
        write(&dir.join("sub/bin.dat"), b"\xff\x00\x80");
        write(&dir.join("empty"), b"");
    }

    const VECTOR_FILES: &[&str] = &[
        "SKILL.md",
        "scripts/run.sh",
        "Readme.md",
        "a-b.txt",
        "a_b.txt",
        ".hidden",
        "node_modules/x.js",
        "scripts/.git/config",
        "sub/node_modules",
        "sub/bin.dat",
        "empty",
    ];

    /// Expected hashes produced by Node 20 running `computeSkillFolderHash` and
    /// `collectFiles` copied verbatim from skills 1.5.18 `dist/cli.mjs` over the
    /// same folders (Node's order: `.hidden a_b.txt a-b.txt empty Readme.md
    /// scripts/run.sh SKILL.md sub/bin.dat sub/node_modules`).
    #[test]
    fn skills_cli_hash_vector() {
        let tmp = tempfile::tempdir().unwrap();
        make_vector_folder(tmp.path());
        assert_eq!(
            skills_cli_folder_hash(tmp.path(), VECTOR_FILES).unwrap(),
            HASH_A
        );
        // Input order does not matter; duplicates are hashed once.
        let mut rev: Vec<&str> = VECTOR_FILES.iter().rev().copied().collect();
        rev.push("SKILL.md");
        assert_eq!(skills_cli_folder_hash(tmp.path(), &rev).unwrap(), HASH_A);
    }

    /// `.git` as a top-level *file* is hashed, and `\` in a file name is hashed as `/`.
    #[cfg(unix)]
    #[test]
    fn skills_cli_hash_vector_git_file_and_backslash() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        write(&d.join(".git"), b"gitdir: ../.git/worktrees/x\n");
        write(&d.join("back\\slash.txt"), b"b1");
        write(&d.join("back-slash.txt"), b"b2");
        write(&d.join("Back.txt"), b"B");
        write(&d.join("ab"), b"ab");
        write(&d.join("a.md"), b"amd");
        write(&d.join("A.md"), b"Amd");
        write(&d.join("a/b.txt"), b"abt");
        write(&d.join("a-b"), b"a-b");
        let files = [
            ".git",
            "back\\slash.txt",
            "back-slash.txt",
            "Back.txt",
            "ab",
            "a.md",
            "A.md",
            "a/b.txt",
            "a-b",
        ];
        assert_eq!(
            skills_cli_folder_hash(d, &files).unwrap(),
            "52aab86b9c31d4b7347aa05debedb94b37ffbf74411930333e3526e84088e564"
        );
    }

    #[test]
    fn skills_cli_hash_refuses_bad_input() {
        let tmp = tempfile::tempdir().unwrap();
        make_vector_folder(tmp.path());
        for bad in ["", "/etc/passwd", "../x", "a//b", "./SKILL.md", "scripts/"] {
            let e = skills_cli_folder_hash(tmp.path(), &[bad]).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{bad}");
        }
        assert!(skills_cli_folder_hash(tmp.path(), &["missing.md"]).is_err());
        assert!(skills_cli_folder_hash(tmp.path(), &["scripts"]).is_err()); // a directory
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("SKILL.md", tmp.path().join("link.md")).unwrap();
            assert!(skills_cli_folder_hash(tmp.path(), &["link.md"]).is_err());
        }
        assert_eq!(
            skills_cli_folder_hash(tmp.path(), &[]).unwrap(),
            crate::hash::sha256_hex(b"")
        );
    }

    // The expectations below were produced by Node 20.20.2 (ICU 78.2, locale
    // en-US) `String.prototype.localeCompare`.

    /// Every printable ASCII character, sorted by Node.
    const NODE_ASCII_ORDER: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ";

    /// Paths sorted by Node (no ties).
    const NODE_SORTED_PATHS: &[&str] = &[
        "_x",
        "-x",
        ".git",
        ".github/x",
        ".hidden",
        "#x",
        "~x",
        "$x",
        "0",
        "1_txt",
        "1-txt",
        "1.txt",
        "10",
        "9",
        "a",
        "A",
        "a b",
        "a_b",
        "a_b/c",
        "a-b",
        "a-b/c",
        "a.b/c",
        "a.md",
        "a/b",
        "a/b.md",
        "a1",
        "a10",
        "a2",
        "ab",
        "aB",
        "Ab",
        "AB",
        "readme.md",
        "Readme.md",
        "README.md",
        "references/a.md",
        "scripts",
        "scripts_x",
        "scripts-x",
        "scripts.x",
        "scripts/run.sh",
        "skill.md",
        "Skill.md",
        "SKILL.md",
        "x-y",
        "x,1",
        "x;1",
        "x:1",
        "x!1",
        "x?1",
        "x.y/z",
        "x'1",
        "x\"1",
        "x(1)",
        "x[1]",
        "x{1}",
        "x@1",
        "x*1",
        "x/y.z",
        "x/y/z",
        "x\\1",
        "x&1",
        "x%1",
        "x`1",
        "x^1",
        "x+1",
        "x<1",
        "x=1",
        "x>1",
        "x|1",
        "x~y",
    ];

    /// `(a, b, sign of a.localeCompare(b))` from Node. The non-ASCII rows hold
    /// for this approximation too (parity is only guaranteed for ASCII).
    const NODE_PAIRS: &[(&str, &str, i8)] = &[
        ("ab", "Aa", 1), // all primaries before any tertiary
        ("aB", "Ab", -1),
        ("Ab", "aB", 1),
        ("a-b", "a_b", 1),
        ("a.md", "a/b", -1),
        ("a/b", "a-b", 1),
        ("a", "a\u{1}", 0), // C0 controls are ignorable
        ("a\tb", "a b", -1),
        ("a\nb", "a\tb", 1),
        ("a\u{7f}b", "ab", 0),
        ("file10", "file9", -1), // no numeric collation
        ("abc", "ABC", -1),
        ("ABC", "abd", -1),
        ("e", "\u{e9}", -1),
        ("\u{e9}", "E", 1),
        ("\u{e9}", "e\u{301}", 0), // canonical equivalence
        ("\u{e9}a", "eb", -1),
        ("\u{c9}a", "\u{e9}A", 1),
        ("ss", "\u{df}", -1),
        ("SS", "\u{df}", -1),
        ("\u{df}", "st", -1),
        ("\u{f8}", "oa", -1),
        ("z", "\u{fe}", -1),
        ("i", "\u{131}", -1),
        ("\u{131}a", "ib", 1),
        ("z", "\u{3b1}", -1),
        ("\u{3b1}", "\u{391}", -1),
        ("\u{391}", "\u{3b2}", -1),
        ("\u{3b2}", "\u{431}", -1),
        ("a\u{200b}b", "ab", 0),
        ("a\u{202e}b", "ab", 0),
        ("a b", "a\u{a0}b", -1),
    ];

    #[test]
    fn locale_compare_ascii_characters() {
        let chars: Vec<String> = NODE_ASCII_ORDER.chars().map(String::from).collect();
        for w in chars.windows(2) {
            assert_eq!(locale_compare(&w[0], &w[1]), Ordering::Less, "{w:?}");
            assert_eq!(locale_compare(&w[1], &w[0]), Ordering::Greater, "{w:?}");
        }
        let mut shuffled = chars.clone();
        shuffled.reverse();
        shuffled.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(shuffled, chars);
    }

    #[test]
    fn locale_compare_node_table() {
        for (i, a) in NODE_SORTED_PATHS.iter().enumerate() {
            for (j, b) in NODE_SORTED_PATHS.iter().enumerate() {
                assert_eq!(locale_compare(a, b), i.cmp(&j), "{a:?} vs {b:?}");
            }
        }
        for &(a, b, sign) in NODE_PAIRS {
            assert_eq!(locale_compare(a, b), sign.cmp(&0), "{a:?} vs {b:?}");
            assert_eq!(
                locale_compare(b, a),
                sign.cmp(&0).reverse(),
                "{b:?} vs {a:?}"
            );
        }
    }
}
