//! The result cache: what the content checks found in one skill or agent file (agents, prompts,
//! instructions, MCP and hook configurations), kept between runs so that a unit whose files have
//! not changed is not analysed again (as ruff's cache does for a file). Safe for a scanner:
//!
//! - **Keyed on content, never on times**: a SHA-256 over the build (version and a digest of
//!   the sources and rule files it was built from, [`BUILD_DIGEST`]), the effective options
//!   that reach the analysis (read limits, the off-by-default rules switched on, the skill's
//!   place and convention) and every file of the skill: its relative path, kind, executable
//!   bit, size and SHA-256 (the bytes). A skill is the unit, not a file: the checks correlate
//!   the files of one skill. An agent file's key also holds a digest of every walked path (its
//!   `#file:` references resolve against them).
//! - **Outside the scanned tree**: `--cache-dir`, `SKILLGUARD_CACHE_DIR`, else
//!   `$XDG_CACHE_HOME/skillguard` (`~/.cache/skillguard`); a folder inside the scan root is
//!   refused, and no repository configuration can set it.
//! - **Authenticated**: each entry carries an HMAC-SHA-256 of its key and contents under a
//!   machine-local key kept outside the cache folder (`$XDG_CONFIG_HOME/skillguard/cache-key`,
//!   made on first use, mode 0600; or `SKILLGUARD_CACHE_KEY`, a CI secret). An entry someone
//!   else wrote or changed (a cache restored
//!   from a pull request's CI run) fails the check and is analysed again, as is one that does
//!   not parse: a bad entry is a miss, never an error and never a pass.
//! - **Atomic**: entries are written to a temporary file and renamed; two runs writing the
//!   same entry write the same bytes.
//!
//! `--no-cache` turns it off (release gates). Reports are byte-identical with and without it
//! (`tests/cache.rs`).

use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use hmac::{KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::finding::{Confidence, Consequence, Finding, Location, Related, Severity};

/// A digest of what the binary was built from (its sources, rule files, lock file and build
/// script), made by `build.rs`: a build from changed code never reads a cache entry an older
/// build wrote, even under the same version number.
pub const BUILD_DIGEST: &str = env!("SKILLGUARD_BUILD_DIGEST");

/// Entries are read up to this size; a larger file is a miss.
const MAX_ENTRY: u64 = 64 << 20;

/// The layout version of the cache folder (`DIR/v1/ab/cdef…`).
const LAYOUT: &str = "v1";

/// Why the cache cannot be used as asked.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error(
        "cache folder `{dir}` is inside the scanned tree `{root}`: a scanned repository must not be able to plant entries; use a folder outside it (--cache-dir) or --no-cache"
    )]
    InsideRoot { dir: String, root: String },
    #[error("cache folder `{0}`: {1}")]
    Folder(String, io::Error),
    #[error("cache key file `{0}`: {1}")]
    KeyFile(String, String),
}

/// Where the HMAC key comes from.
pub enum KeySource<'a> {
    /// The machine-local key file (made on first use).
    File(&'a Path),
    /// A key given in hex (`SKILLGUARD_CACHE_KEY`: a CI secret, so that a cache restored in
    /// a later job can be checked there, while a pull request from a fork, which gets no
    /// secret, can read no entry as authentic).
    Given(&'a str),
}

/// An open cache: its folder and the machine-local HMAC key.
pub struct Cache {
    dir: PathBuf,
    key: [u8; 32],
}

impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Cache").field("dir", &self.dir).finish()
    }
}

/// The default cache folder: `SKILLGUARD_CACHE_DIR`, else `$XDG_CACHE_HOME/skillguard`,
/// else `~/.cache/skillguard`. `None` when none can be named (no home).
pub fn default_dir() -> Option<PathBuf> {
    env_dir("SKILLGUARD_CACHE_DIR")
        .or_else(|| env_dir("XDG_CACHE_HOME").map(|d| d.join("skillguard")))
        .or_else(|| env_dir("HOME").map(|h| h.join(".cache").join("skillguard")))
}

/// The machine-local key file: `$XDG_CONFIG_HOME/skillguard/cache-key`, else
/// `~/.config/skillguard/cache-key`.
pub fn default_key_file() -> Option<PathBuf> {
    env_dir("XDG_CONFIG_HOME")
        .map(|d| d.join("skillguard"))
        .or_else(|| env_dir("HOME").map(|h| h.join(".config").join("skillguard")))
        .map(|d| d.join("cache-key"))
}

/// An absolute path from an environment variable (a relative one is ignored, as the XDG
/// specification says).
fn env_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

impl Cache {
    /// Opens (making them when missing) the cache folder `dir` and the key in `key_file`,
    /// refusing a folder inside any of `roots` (the scanned trees) and a key file inside the
    /// cache folder.
    pub fn open(dir: &Path, key_file: &Path, roots: &[&Path]) -> Result<Cache, CacheError> {
        Cache::open_keyed(dir, KeySource::File(key_file), roots)
    }

    /// As [`Cache::open`], with the key from `source`.
    pub fn open_keyed(
        dir: &Path,
        source: KeySource<'_>,
        roots: &[&Path],
    ) -> Result<Cache, CacheError> {
        let shown = |p: &Path| crate::text::sanitize_line(&p.display().to_string()).into_owned();
        // Checked before anything is made: a refused folder is never created in the tree.
        let inside = |real: &Path| {
            roots
                .iter()
                .find(|root| std::fs::canonicalize(root).is_ok_and(|r| real.starts_with(&r)))
        };
        if let Some(root) = inside(&resolved(dir)) {
            return Err(CacheError::InsideRoot {
                dir: shown(dir),
                root: shown(root),
            });
        }
        std::fs::create_dir_all(dir).map_err(|e| CacheError::Folder(shown(dir), e))?;
        let real = std::fs::canonicalize(dir).map_err(|e| CacheError::Folder(shown(dir), e))?;
        if let Some(root) = inside(&real) {
            return Err(CacheError::InsideRoot {
                dir: shown(dir),
                root: shown(root),
            });
        }
        let key = match source {
            KeySource::Given(hex) => key_of(hex).ok_or_else(|| {
                CacheError::KeyFile(
                    "SKILLGUARD_CACHE_KEY".into(),
                    "not 64 hex digits (32 bytes)".into(),
                )
            })?,
            KeySource::File(key_file) => {
                let key_dir = key_file.parent().unwrap_or(Path::new(""));
                if key_file.starts_with(dir)
                    || std::fs::canonicalize(key_dir).is_ok_and(|p| p.starts_with(&real))
                {
                    return Err(CacheError::KeyFile(
                        shown(key_file),
                        "the key must be kept outside the cache folder".into(),
                    ));
                }
                machine_key(key_file)
                    .map_err(|e| CacheError::KeyFile(shown(key_file), e.to_string()))?
            }
        };
        Ok(Cache { dir: real, key })
    }

    fn path_of(&self, key: &[u8; 32]) -> PathBuf {
        let hex = crate::hash::hex(key);
        self.dir.join(LAYOUT).join(&hex[..2]).join(&hex[2..])
    }

    fn tag(&self, key: &[u8; 32], body: &[u8]) -> hmac::Hmac<Sha256> {
        let mut mac = <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(&self.key)
            .expect("HMAC takes a key of any length");
        mac.update(b"skillguard-cache-entry\0");
        mac.update(key);
        mac.update(body);
        mac
    }

    /// The findings stored under `key`, when an entry is there, authentic and readable.
    pub fn get(&self, key: &[u8; 32]) -> Option<Vec<Finding>> {
        let f = std::fs::File::open(self.path_of(key)).ok()?;
        if !f.metadata().ok()?.is_file() {
            return None;
        }
        let mut bytes = Vec::new();
        f.take(MAX_ENTRY + 1).read_to_end(&mut bytes).ok()?;
        if bytes.len() as u64 > MAX_ENTRY || bytes.len() < 65 || bytes[64] != b'\n' {
            return None;
        }
        let (tag_hex, body) = (&bytes[..64], &bytes[65..]);
        let tag = unhex(tag_hex)?;
        // Constant-time comparison (`verify_slice`).
        self.tag(key, body).verify_slice(&tag).ok()?;
        let stored: Vec<Stored> = serde_json::from_slice(body).ok()?;
        stored.into_iter().map(Stored::into_finding).collect()
    }

    /// Stores `findings` under `key` (atomically; a failure only means a miss next time).
    pub fn put(&self, key: &[u8; 32], findings: &[Finding]) {
        let stored: Vec<Stored> = findings.iter().map(Stored::of).collect();
        let Ok(body) = serde_json::to_vec(&stored) else {
            return;
        };
        let tag = crate::hash::hex(&self.tag(key, &body).finalize().into_bytes());
        let path = self.path_of(key);
        if let Some(parent) = path.parent()
            && std::fs::create_dir_all(parent).is_err()
        {
            return;
        }
        let mut bytes = Vec::with_capacity(65 + body.len());
        bytes.extend_from_slice(tag.as_bytes());
        bytes.push(b'\n');
        bytes.extend_from_slice(&body);
        let _ = write_entry(&path, &bytes);
    }
}

/// `path` with its longest existing ancestor resolved (links followed) and the rest appended:
/// where a folder would be made.
fn resolved(path: &Path) -> PathBuf {
    let mut base = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(r) = std::fs::canonicalize(base) {
            return rest.iter().rev().fold(r, |acc, c| acc.join(c));
        }
        match (base.parent(), base.file_name()) {
            (Some(p), Some(n)) => {
                rest.push(n.to_owned());
                base = p;
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// Writes an entry atomically: a new temporary file beside it, then a rename. Not fsynced:
/// an entry cut by a power failure fails its HMAC check and is a miss, nothing worse, and a
/// scan of thousands of skills must not wait for thousands of syncs.
fn write_entry(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp-{}-{seq}", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

fn unhex(s: &[u8]) -> Option<Vec<u8>> {
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(*p.get(1)?)?))
        .collect()
}

/// The HMAC key in `path`, made (32 random bytes, hex, mode 0600, written atomically) when
/// the file does not exist yet.
fn machine_key(path: &Path) -> io::Result<[u8; 32]> {
    match std::fs::read(path) {
        Ok(b) => key_of(&String::from_utf8_lossy(&b))
            .ok_or_else(|| io::Error::other("not a key written by skillguard (64 hex digits)")),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let mut key = [0u8; 32];
            getrandom::fill(&mut key).map_err(|e| io::Error::other(e.to_string()))?;
            if let Some(parent) = path.parent()
                && !parent.exists()
            {
                std::fs::create_dir_all(parent)?;
                // The folder is the owner's alone, so the key is never readable by others,
                // not even between its write and the change of its mode below.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    std::fs::set_permissions(parent, std::fs::Permissions::from_mode(0o700))?;
                }
            }
            let hex = crate::hash::hex(&key);
            crate::fsutil::write_replacing(path, |w| w.write_all(hex.as_bytes()))?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
            }
            // Two runs making the key at once: the one that renamed last wins; read it back.
            key_of(&std::fs::read_to_string(path)?)
                .ok_or_else(|| io::Error::other("the key file changed while it was made"))
        }
        Err(e) => Err(e),
    }
}

/// A key written as 64 hex digits (blanks around it ignored).
fn key_of(text: &str) -> Option<[u8; 32]> {
    unhex(text.trim().as_bytes()).and_then(|k| k.try_into().ok())
}

/// A cache key under construction: fields are length-prefixed so that no two inputs give
/// the same byte stream.
pub struct KeyBuilder(Sha256);

impl KeyBuilder {
    /// A key for one unit of `kind` (`skill`, …), seeded with the build's identity.
    pub fn new(kind: &str) -> KeyBuilder {
        static SEED: LazyLock<[u8; 32]> = LazyLock::new(|| {
            let mut h = Sha256::new();
            h.update(b"skillguard-cache\0");
            h.update(env!("CARGO_PKG_VERSION").as_bytes());
            h.update(b"\0");
            h.update(BUILD_DIGEST.as_bytes());
            h.finalize().into()
        });
        let mut b = KeyBuilder(Sha256::new());
        b.0.update(*SEED);
        b.field(kind.as_bytes());
        b
    }

    /// Adds one field.
    pub fn field(&mut self, bytes: &[u8]) -> &mut Self {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// Adds a value's `Debug` text (option structs whose every field counts).
    pub fn debug(&mut self, v: &impl std::fmt::Debug) -> &mut Self {
        self.field(format!("{v:?}").as_bytes())
    }

    /// Adds every file of a unit: relative path, size, kind, executable bit, link, and the
    /// SHA-256 of its bytes (`None` for a file that was not read: the caller adds the bytes it
    /// has for such a file).
    pub fn files(&mut self, files: &[crate::inventory::FileEntry]) -> &mut Self {
        for f in files {
            self.field(f.path.as_bytes())
                .debug(&(f.size, f.kind, f.executable, &f.symlink, f.via_link))
                .debug(&f.sha256);
        }
        self
    }

    pub fn finish(self) -> [u8; 32] {
        self.0.finalize().into()
    }
}

/// A finding as stored: every field, the fingerprint anchor included; ids are looked up
/// in the catalog again when read (an id the catalog does not hold makes the entry a miss).
#[derive(Serialize, Deserialize)]
struct Stored {
    rule_id: String,
    severity: Severity,
    confidence: Confidence,
    confidence_reason: Option<String>,
    message: String,
    location: Location,
    related: Vec<Related>,
    consequences: Vec<StoredConsequence>,
    skill: Option<String>,
    skill_path: Option<String>,
    fingerprint: String,
    properties: Option<serde_json::Value>,
    anchor: String,
}

#[derive(Serialize, Deserialize)]
struct StoredConsequence {
    rule_id: String,
    severity: Severity,
    profile: Option<String>,
    message: String,
    location: Location,
    fingerprint: String,
}

impl Stored {
    fn of(f: &Finding) -> Stored {
        Stored {
            rule_id: f.rule_id.to_owned(),
            severity: f.severity,
            confidence: f.confidence,
            confidence_reason: f.confidence_reason.clone(),
            message: f.message.clone(),
            location: f.location.clone(),
            related: f.related.clone(),
            consequences: f
                .consequences
                .iter()
                .map(|c| StoredConsequence {
                    rule_id: c.rule_id.to_owned(),
                    severity: c.severity,
                    profile: c.profile.clone(),
                    message: c.message.clone(),
                    location: c.location.clone(),
                    fingerprint: c.fingerprint.clone(),
                })
                .collect(),
            skill: f.skill.clone(),
            skill_path: f.skill_path.clone(),
            fingerprint: f.fingerprint.clone(),
            properties: f.properties.clone(),
            anchor: f.anchor.clone(),
        }
    }

    fn into_finding(self) -> Option<Finding> {
        let meta = crate::catalog::get(&self.rule_id).filter(|m| m.id == self.rule_id)?;
        let consequences = self
            .consequences
            .into_iter()
            .map(|c| {
                let m = crate::catalog::get(&c.rule_id).filter(|m| m.id == c.rule_id)?;
                Some(Consequence {
                    rule_id: m.id,
                    severity: c.severity,
                    profile: c.profile,
                    message: c.message,
                    location: c.location,
                    fingerprint: c.fingerprint,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Finding {
            rule_id: meta.id,
            category: meta.category,
            severity: self.severity,
            confidence: self.confidence,
            confidence_reason: self.confidence_reason,
            message: self.message,
            location: self.location,
            related: self.related,
            consequences,
            skill: self.skill,
            skill_path: self.skill_path,
            fingerprint: self.fingerprint,
            properties: self.properties,
            anchor: self.anchor,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fields are length-prefixed: moving bytes from one field to the next changes the key,
    /// and so does the kind of unit.
    #[test]
    fn keys_separate_fields_and_kinds() {
        let key = |kind: &str, fields: &[&str]| {
            let mut k = KeyBuilder::new(kind);
            for f in fields {
                k.field(f.as_bytes());
            }
            k.finish()
        };
        assert_eq!(key("skill", &["ab", "c"]), key("skill", &["ab", "c"]));
        assert_ne!(key("skill", &["ab", "c"]), key("skill", &["a", "bc"]));
        assert_ne!(key("skill", &["ab"]), key("agent", &["ab"]));
    }

    /// An entry round-trips; its tag is checked, and a flipped byte is a miss.
    #[test]
    fn entries_round_trip_and_a_changed_byte_is_a_miss() {
        let tmp = tempfile::tempdir().unwrap();
        let c = Cache::open(&tmp.path().join("c"), &tmp.path().join("k/key"), &[]).unwrap();
        let f = Finding::new(
            crate::rules::ids::NAME_MISSING,
            "message",
            Location::at("a/SKILL.md", 1, 2),
        );
        let key = KeyBuilder::new("skill").finish();
        assert!(c.get(&key).is_none());
        c.put(&key, std::slice::from_ref(&f));
        let got = c.get(&key).unwrap();
        assert_eq!(got, vec![f]);
        let path = c.path_of(&key);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 3;
        bytes[last] ^= 1;
        std::fs::write(&path, bytes).unwrap();
        assert!(c.get(&key).is_none());
    }

    /// A key given in hex (a CI secret) reads what another machine wrote under it; another
    /// key reads nothing, and a malformed key is refused.
    #[test]
    fn a_given_key_is_shared_and_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("c");
        let k1 = "ab".repeat(32);
        let k2 = "cd".repeat(32);
        let a = Cache::open_keyed(&dir, KeySource::Given(&k1), &[]).unwrap();
        let f = Finding::new(
            crate::rules::ids::NAME_MISSING,
            "m",
            Location::file("a/SKILL.md"),
        );
        let mut kb = KeyBuilder::new("skill");
        kb.field(b"x");
        let key = kb.finish();
        a.put(&key, std::slice::from_ref(&f));
        let b = Cache::open_keyed(&dir, KeySource::Given(&k1), &[]).unwrap();
        assert_eq!(b.get(&key), Some(vec![f]));
        let c = Cache::open_keyed(&dir, KeySource::Given(&k2), &[]).unwrap();
        assert_eq!(c.get(&key), None);
        assert!(Cache::open_keyed(&dir, KeySource::Given("abc"), &[]).is_err());
        assert!(Cache::open_keyed(&dir, KeySource::Given(&k1), &[tmp.path()]).is_err());
    }
}
