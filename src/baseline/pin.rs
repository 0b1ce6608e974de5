//! Pin files: one reviewed state per skill (`--save-manifest-baseline`, `--manifest-baseline`,
//! `skillguard baseline approve`).
//!
//! Unlike AgentEval's pin, which holds only the structural fingerprint (so an edited body or
//! script passes), a pin holds the structural fingerprint, the content hash and every file's
//! hash, and the check names the files that changed. The file is deterministic: sorted keys,
//! no timestamps (commit it; version control says when it changed). Keys are skill names in
//! lower case, the same for saving, checking and approving. AgentEval pin files
//! (`HashesBySkillName`, `ContentHashesBySkillName`) are read as well.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::inventory::{Artifact, ArtifactKind};
use crate::skill_hashes::{HashOptions, Hasher, counts_as_file, file_digest};

pub const FORMAT: &str = "skillguard-pin";
pub const VERSION: u32 = 1;
/// Pin files larger than this are refused.
pub const MAX_PIN_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PinFile {
    pub format: String,
    pub version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    #[serde(default)]
    pub hash_options: HashOptions,
    /// Lower-case skill name → pinned state (the first copy by path).
    pub skills: BTreeMap<String, Pin>,
    /// Every copy of a skill name found at more than one location, by location (relative to
    /// the ledger's home): a check compares each copy with its own pin and reports a copy at
    /// a location not listed as new, not as changed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub copies: BTreeMap<String, Pin>,
    /// Agent, prompt, instructions, MCP and hook files: location (the file, relative to the
    /// ledger's home, as in snapshots) → pinned state. Keyed by location, not name: many
    /// such files share a name (every `AGENTS.md`, every `hooks.json`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub agents: BTreeMap<String, Pin>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    /// The name as written in the skill (or agent file).
    pub name: String,
    /// Agent pins: `agent`, `prompt`, `instructions`, `mcp-config` or `hooks`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Where the pinned copy was (information only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Structural fingerprint; `None` when the pin file holds a missing or malformed value.
    #[serde(default)]
    pub structural: Option<String>,
    /// Content hash under the file's `hash_options`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// AgentEval's content hash (nested skills' files included, byte-exact whatever the
    /// file's `hash_options`): what an AgentEval pin's `ContentHashesBySkillName` holds,
    /// compared with the skill's `agenteval_content_hash`. Set only in pins read from
    /// AgentEval (directly or through `baseline import-agenteval`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agenteval_content: Option<String>,
    /// Per-file digests (under the file's `hash_options`), by skill-relative path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl PinFile {
    pub fn new(hash_options: HashOptions, note: Option<String>) -> PinFile {
        PinFile {
            format: FORMAT.into(),
            version: VERSION,
            note,
            hash_options,
            skills: BTreeMap::new(),
            copies: BTreeMap::new(),
            agents: BTreeMap::new(),
        }
    }

    /// Serialised form: pretty JSON with sorted keys and a final newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(self).expect("serialisable pin");
        v.push(b'\n');
        v
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PinError {
    #[error("{path}: {source}")]
    Io { path: String, source: io::Error },
    #[error("{path}: not a valid pin file: {msg}")]
    Corrupt { path: String, msg: String },
    #[error(
        "{path}: written by a newer skillguard (pin format version {found}; this version reads up to {VERSION}); upgrade skillguard"
    )]
    Newer { path: String, found: u32 },
}

/// AgentEval's `SkillManifestBaseline` (PascalCase).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub struct AgentEvalPin {
    #[serde(default)]
    pub captured_at: Option<String>,
    pub hashes_by_skill_name: BTreeMap<String, Option<String>>,
    #[serde(default)]
    pub notes: Option<String>,
    #[serde(default)]
    pub content_hashes_by_skill_name: Option<BTreeMap<String, Option<String>>>,
}

impl AgentEvalPin {
    /// The same pins in our format (keys lower-cased; AgentEval's content hash kept as
    /// [`Pin::agenteval_content`], since it covers nested skills' files and ours does not).
    pub fn convert(self) -> PinFile {
        let mut out = PinFile::new(HashOptions::default(), self.notes);
        let content = self.content_hashes_by_skill_name.unwrap_or_default();
        for (name, fp) in self.hashes_by_skill_name {
            let c = content.get(&name).cloned().flatten();
            out.skills.insert(
                name.to_lowercase(),
                Pin {
                    name: name.clone(),
                    kind: None,
                    location: None,
                    structural: fp.filter(|h| is_hex64(h)).map(|h| h.to_ascii_lowercase()),
                    content: None,
                    agenteval_content: c.filter(|h| is_hex64(h)).map(|h| h.to_ascii_lowercase()),
                    files: None,
                    note: None,
                },
            );
        }
        out
    }
}

fn is_hex64(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Reads a pin file (ours or AgentEval's). `Ok(None)` when it does not exist. A pin file is
/// always one the operator named (`--manifest-baseline`, `--baseline`), so a link to it is
/// followed ([`crate::fsutil::open_named`]); it is never written through one.
pub fn read(path: &Path) -> Result<Option<PinFile>, PinError> {
    let p = path.display().to_string();
    let f = match crate::fsutil::open_named(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(PinError::Io { path: p, source }),
    };
    let mut bytes = Vec::new();
    use std::io::Read;
    f.take(MAX_PIN_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| PinError::Io {
            path: p.clone(),
            source,
        })?;
    if bytes.len() as u64 > MAX_PIN_BYTES {
        return Err(PinError::Corrupt {
            path: p,
            msg: format!("larger than {MAX_PIN_BYTES} bytes"),
        });
    }
    parse(&p, &bytes).map(Some)
}

/// Parses pin bytes; `path` is only used in messages.
pub fn parse(path: &str, bytes: &[u8]) -> Result<PinFile, PinError> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| PinError::Corrupt {
        path: path.into(),
        msg: e.to_string(),
    })?;
    if v.get("HashesBySkillName").is_some() {
        let a: AgentEvalPin = serde_json::from_value(v).map_err(|e| PinError::Corrupt {
            path: path.into(),
            msg: format!("AgentEval pin: {e}"),
        })?;
        return Ok(a.convert());
    }
    if v.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(PinError::Corrupt {
            path: path.into(),
            msg: format!("`format` is not `{FORMAT}` and it is not an AgentEval pin either"),
        });
    }
    if let Some(n) = v.get("version").and_then(|x| x.as_u64())
        && n > u64::from(VERSION)
    {
        return Err(PinError::Newer {
            path: path.into(),
            found: n as u32,
        });
    }
    let mut pins: PinFile = serde_json::from_value(v).map_err(|e| PinError::Corrupt {
        path: path.into(),
        msg: e.to_string(),
    })?;
    // Keys are lower-case skill names; a hand-edited `"S1"` would otherwise match nothing
    // and its skill would go unchecked without a word.
    let mut skills = BTreeMap::new();
    for (key, p) in std::mem::take(&mut pins.skills) {
        let lower = key.to_lowercase();
        if skills.contains_key(&lower) {
            return Err(PinError::Corrupt {
                path: path.into(),
                msg: format!(
                    "two entries for skill `{lower}` (keys differ only in case: {key:?}); keep one"
                ),
            });
        }
        skills.insert(lower, p);
    }
    pins.skills = skills;
    Hasher::new(pins.hash_options.clone()).map_err(|msg| PinError::Corrupt {
        path: path.into(),
        msg: format!("hash_options: {msg}"),
    })?;
    Ok(pins)
}

/// The pinned state of an analysed skill (or agent file) under `hasher`'s options. An
/// agent's pin holds its content hash ([`Hasher::file_content_hash`]) and its one file, and
/// no structural fingerprint.
pub fn pin_of(a: &Artifact, hasher: &Hasher, location: Option<String>) -> Pin {
    let agent = a.kind != ArtifactKind::Skill;
    let files: BTreeMap<String, String> = a
        .files
        .iter()
        // `--hash-ignore` leaves files out of skills; an agent is its one file.
        .filter(|f| counts_as_file(f) && (agent || !hasher.ignored(&f.path)))
        .map(|f| {
            let raw = file_digest(f);
            let d = hasher.digest(&raw, f.sha256_lf.as_deref()).to_owned();
            (f.path.clone(), d)
        })
        .collect();
    Pin {
        name: a.name.clone(),
        kind: agent.then(|| a.kind.as_str().to_owned()),
        location,
        structural: a.structural_fingerprint.clone(),
        // A skill whose files are not all known has no content hash to pin or compare.
        content: if agent {
            hasher.file_content_hash(a)
        } else {
            a.hash_incomplete
                .is_none()
                .then(|| hasher.artifact_content_hash(a))
        },
        // Filled in by the check when the pin it is compared with holds one.
        agenteval_content: None,
        files: Some(files),
        note: None,
    }
}

/// What differs between a pinned state and the current one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PinDelta {
    pub structural: Option<(Option<String>, String)>,
    pub content: Option<(String, String)>,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub modified: Vec<String>,
    /// The pin holds a missing or malformed structural fingerprint.
    pub malformed: bool,
    /// The pin holds a content hash (or per-file hashes) but the skill's files are not all
    /// known now.
    pub unverifiable: bool,
}

impl PinDelta {
    pub fn changed(&self) -> bool {
        self.structural.is_some() || self.content.is_some() || self.malformed || self.unverifiable
    }
}

/// Compares a current skill with its pin (under the pin file's options).
pub fn compare(pin: &Pin, current: &Pin) -> PinDelta {
    let mut d = PinDelta::default();
    match (&pin.structural, &current.structural) {
        // Agents have no structural fingerprint.
        _ if pin.kind.is_some() => {}
        (None, _) => d.malformed = true,
        (Some(p), Some(c)) if p != c => d.structural = Some((Some(p.clone()), c.clone())),
        _ => {}
    }
    match (&pin.content, &current.content) {
        (Some(p), Some(c)) if p != c => d.content = Some((p.clone(), c.clone())),
        (Some(_), None) => d.unverifiable = true,
        // Pinned and checked without all of its content (the pin records its files): never
        // "unchanged", since neither side was read in full.
        (None, None) if pin.files.is_some() => d.unverifiable = true,
        _ => {}
    }
    match (&pin.agenteval_content, &current.agenteval_content) {
        (Some(p), Some(c)) if p != c => d.content = Some((p.clone(), c.clone())),
        (Some(_), None) => d.unverifiable = true,
        _ => {}
    }
    if let (Some(pf), Some(cf)) = (&pin.files, &current.files) {
        for (path, h) in cf {
            match pf.get(path) {
                None => d.added.push(path.clone()),
                Some(ph) if ph != h => d.modified.push(path.clone()),
                _ => {}
            }
        }
        d.removed = pf
            .keys()
            .filter(|p| !cf.contains_key(*p))
            .cloned()
            .collect();
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agenteval_pin_is_read_and_lower_cased() {
        let j = br#"{"CapturedAt":"2026-07-17T10:00:00.0000000+00:00","HashesBySkillName":{"My-Skill":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","bad":null},"Notes":"n","ContentHashesBySkillName":null}"#;
        let p = parse("x", j).unwrap();
        assert_eq!(p.note.as_deref(), Some("n"));
        assert_eq!(p.skills["my-skill"].name, "My-Skill");
        assert!(p.skills["bad"].structural.is_none());
    }

    #[test]
    fn newer_and_corrupt_pins_are_refused() {
        let e = parse(
            "p.json",
            br#"{"format":"skillguard-pin","version":7,"skills":{}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("newer skillguard"), "{e}");
        let e = parse("p.json", b"{not json").unwrap_err().to_string();
        assert!(e.contains("p.json") && e.contains("not a valid pin"), "{e}");
    }

    #[test]
    fn keys_in_another_case_are_checked_not_ignored() {
        let pin = |k: &str| format!(r#""{k}":{{"name":"S1","structural":"{}"}}"#, "a".repeat(64));
        let j = format!(
            r#"{{"format":"skillguard-pin","version":1,"skills":{{{}}}}}"#,
            pin("S1")
        );
        let p = parse("p.json", j.as_bytes()).unwrap();
        assert_eq!(p.skills.keys().collect::<Vec<_>>(), ["s1"]);
        let j = format!(
            r#"{{"format":"skillguard-pin","version":1,"skills":{{{},{}}}}}"#,
            pin("S1"),
            pin("s1")
        );
        let e = parse("p.json", j.as_bytes()).unwrap_err().to_string();
        assert!(
            e.contains("p.json") && e.contains("differ only in case"),
            "{e}"
        );
    }

    #[test]
    fn compare_lists_files() {
        let mk = |files: &[(&str, &str)], s: &str, c: &str| Pin {
            name: "x".into(),
            kind: None,
            location: None,
            structural: Some(s.into()),
            content: Some(c.into()),
            agenteval_content: None,
            files: Some(
                files
                    .iter()
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .collect(),
            ),
            note: None,
        };
        let old = mk(
            &[("SKILL.md", "1"), ("scripts/a.sh", "2"), ("gone", "3")],
            "s",
            "c1",
        );
        let new = mk(
            &[("SKILL.md", "1"), ("scripts/a.sh", "9"), ("new", "4")],
            "s",
            "c2",
        );
        let d = compare(&old, &new);
        assert!(d.changed() && d.structural.is_none());
        assert_eq!(d.modified, vec!["scripts/a.sh"]);
        assert_eq!(d.added, vec!["new"]);
        assert_eq!(d.removed, vec!["gone"]);
    }
}
