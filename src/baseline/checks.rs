//! Findings that compare a scan with what was vetted: the pin check
//! (`manifest-changed-since-baseline`), trust on first use against the ledger
//! (`matches-previously-vetted-copy`, `changed-since-last-vetted`), and drift between copies
//! of one skill (`cross-location-content-drift`, `skill-name-collision`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::json;

use super::ledger::{Ledger, LedgerError, Loaded, Presence, Snapshot};
use super::pin::{self, Pin, PinDelta, PinFile};
use super::record::{local_path, location, recompute_content};
use crate::discover::Mode;
use crate::finding::{Finding, Location};
use crate::inventory::{Artifact, ArtifactKind};
use crate::result::ScanResult;
use crate::rules::ids;
use crate::skill_hashes::Hasher;
use crate::text::sanitize_line;

/// The entry file of a skill (an agent file itself), relative to the scan base.
pub fn entry_path(a: &Artifact) -> String {
    if a.kind != ArtifactKind::Skill {
        a.path.clone()
    } else if a.path.is_empty() {
        a.entry.clone()
    } else {
        format!("{}/{}", a.path, a.entry)
    }
}

/// The first 12 characters of a hash, safe for any input (hashes read from files may be
/// anything) and sanitised for printing.
pub fn short(h: &str) -> String {
    sanitize_line(&h.chars().take(12).collect::<String>()).into_owned()
}

/// `2026-11-29T22:40:00.123Z` → `2026-11-29 22:40 UTC`.
pub fn show_date(rfc3339: &str) -> String {
    match chrono::DateTime::parse_from_rfc3339(rfc3339) {
        Ok(t) => t
            .with_timezone(&chrono::Utc)
            .format("%Y-%m-%d %H:%M UTC")
            .to_string(),
        Err(_) => format!(
            "(invalid date `{}`)",
            sanitize_line(&crate::text::truncate(rfc3339, 40))
        ),
    }
}

fn list(label: &str, items: &[String], out: &mut Vec<String>) {
    if items.is_empty() {
        return;
    }
    const MAX: usize = 8;
    let mut s: Vec<String> = items
        .iter()
        .take(MAX)
        .map(|p| sanitize_line(p).into_owned())
        .collect();
    if items.len() > MAX {
        s.push(format!("and {} more", items.len() - MAX));
    }
    out.push(format!("{label}: {}", s.join(", ")));
}

/// `modified: a, b; added: c; removed: d`.
pub fn describe_files(d: &PinDelta) -> String {
    let mut parts = Vec::new();
    list("modified", &d.modified, &mut parts);
    list("added", &d.added, &mut parts);
    list("removed", &d.removed, &mut parts);
    parts.join("; ")
}

fn files_json(d: &PinDelta) -> serde_json::Value {
    json!({ "modified": d.modified, "added": d.added, "removed": d.removed })
}

/// How messages name an artefact: ``skill `x` ``, or with its kind and file,
/// ``agent `x` (.github/agents/x.agent.md)``.
pub fn subject(a: &Artifact) -> String {
    match a.kind {
        ArtifactKind::Skill => format!("skill `{}`", sanitize_line(&a.name)),
        k => format!(
            "{} `{}` ({})",
            k.noun(),
            sanitize_line(&a.name),
            sanitize_line(&a.path)
        ),
    }
}

/// `unpinned-skill`: a skill or agent file the pin file does not hold.
fn unpinned(a: &Artifact, loc: &str, shown_path: &str) -> Finding {
    let what = if a.kind == ArtifactKind::Skill {
        "skill"
    } else {
        "agent file"
    };
    Finding::new(
        ids::UNPINNED_SKILL,
        format!(
            "{} at {} is not in the pin file {}: it was added after the skills were vetted, so nothing vouches for it. Review it, then pin it with `--save-manifest-baseline` or `skillguard baseline approve`, or remove it (`--allow-new` lets new {what}s through).",
            subject(a),
            sanitize_line(loc),
            sanitize_line(shown_path)
        ),
        Location::file(entry_path(a)),
    )
    .with_properties(json!({ "pin": shown_path, "location": loc, "kind": what }))
    .for_skill(Some(&a.name), Some(&a.path), "unpinned")
}

/// `--manifest-baseline FILE`: one high finding per skill or agent file that differs from
/// its pin, and a note naming the pins that nothing scanned matched. Skills are pinned by
/// name (every copy is checked), agent files by location (`relative`: the scan base
/// relative to the ledger's home).
pub fn check_pins(
    result: &ScanResult,
    pins: &PinFile,
    shown_path: &str,
    relative: &str,
    allow_new: bool,
    notes: &mut Vec<String>,
) -> Vec<Finding> {
    let hasher = Hasher::new(pins.hash_options.clone()).unwrap_or_default();
    let scanned: BTreeSet<String> = result
        .artifacts
        .iter()
        .map(|a| a.name.to_lowercase())
        .collect();
    let scanned_agents: BTreeSet<String> = result
        .agents
        .iter()
        .map(|a| location(relative, &a.path))
        .collect();
    let unmatched = |pinned: &BTreeMap<String, Pin>, scanned: &BTreeSet<String>| -> Vec<String> {
        pinned
            .keys()
            .filter(|k| !scanned.contains(*k))
            .cloned()
            .collect()
    };
    let mut out = Vec::new();
    for (what, kind, keys) in [
        ("skill(s)", "skill", unmatched(&pins.skills, &scanned)),
        (
            "agent file(s)",
            "agent file",
            unmatched(&pins.agents, &scanned_agents),
        ),
    ] {
        // A changed-files scan leaves most skills out on purpose.
        if keys.is_empty() || result.changed.is_some() {
            continue;
        }
        if !allow_new {
            for k in &keys {
                let pinned = if kind == "skill" {
                    pins.skills.get(k)
                } else {
                    pins.agents.get(k)
                };
                let place = pinned
                    .and_then(|p| p.location.clone())
                    .unwrap_or_else(|| k.clone());
                let shown_name = pinned.map_or(k.as_str(), |p| p.name.as_str());
                out.push(
                    Finding::new(
                        ids::PINNED_SKILL_MISSING,
                        format!(
                            "the {kind} `{}` pinned in {} (at {}) is not in this scan: it was removed, renamed or moved out of the scanned tree since it was vetted. Restore it, or re-pin with `--save-manifest-baseline` if the removal was reviewed (`--allow-new` makes this a note).",
                            sanitize_line(shown_name),
                            sanitize_line(shown_path),
                            sanitize_line(&place)
                        ),
                        Location::file(shown_path.to_owned()),
                    )
                    .with_properties(json!({ "pin": shown_path, "pinned": k, "location": place, "kind": kind }))
                    .for_skill(Some(shown_name), None, &format!("pin-missing:{k}")),
                );
            }
            continue;
        }
        let mut shown = Vec::new();
        list("not in this scan", &keys, &mut shown);
        notes.push(format!(
            "--manifest-baseline {}: {} pinned {what} {}",
            sanitize_line(shown_path),
            keys.len(),
            shown.concat()
        ));
    }
    // What the pin file does not hold: only vetted skills and agent files ship.
    if !allow_new {
        for a in &result.artifacts {
            let loc = location(relative, &a.path);
            if pins.copies.contains_key(&loc) || pins.skills.contains_key(&a.name.to_lowercase()) {
                continue;
            }
            out.push(unpinned(a, &loc, shown_path));
        }
        for a in &result.agents {
            let loc = location(relative, &a.path);
            if !pins.agents.contains_key(&loc) {
                out.push(unpinned(a, &loc, shown_path));
            }
        }
    }
    // Each copy against its own pin: the pin of its location, else the name's pin when the
    // pinned copy's location is not in this scan (it moved). A copy beside a pinned copy that
    // is still there was added since the pin: reported as new, not as changed.
    let here: BTreeSet<String> = result
        .artifacts
        .iter()
        .map(|a| location(relative, &a.path))
        .collect();
    let mut skill_pairs: Vec<(&Artifact, &Pin)> = Vec::new();
    for a in &result.artifacts {
        let loc = location(relative, &a.path);
        if let Some(p) = pins.copies.get(&loc) {
            skill_pairs.push((a, p));
            continue;
        }
        let Some(p) = pins.skills.get(&a.name.to_lowercase()) else {
            continue;
        };
        let key = a.name.to_lowercase();
        let pinned_here: Vec<&str> = pins
            .copies
            .iter()
            .filter(|(l, c)| c.name.to_lowercase() == key && here.contains(*l))
            .map(|(l, _)| l.as_str())
            .chain(
                p.location
                    .as_deref()
                    .filter(|l| *l != loc && here.contains(*l)),
            )
            .collect();
        if pinned_here.is_empty() {
            skill_pairs.push((a, p));
            continue;
        }
        let mut shown: Vec<String> = pinned_here
            .iter()
            .take(5)
            .map(|l| sanitize_line(l).into_owned())
            .collect();
        shown.dedup();
        out.push(
            Finding::new(
                ids::MANIFEST_CHANGED_SINCE_BASELINE,
                format!(
                    "{} at {} is a new copy: it was not there when the skill was pinned in {} (pinned copies: {}). Review it, then pin it with `--save-manifest-baseline` or `skillguard baseline approve`, or remove it.",
                    subject(a),
                    sanitize_line(&loc),
                    sanitize_line(shown_path),
                    shown.join(", ")
                ),
                Location::file(entry_path(a)),
            )
            .with_properties(json!({ "pin": shown_path, "new_copy": true, "location": loc }))
            .for_skill(Some(&a.name), Some(&a.path), "pin-new-copy"),
        );
    }
    let skills = skill_pairs.into_iter();
    let agents = result.agents.iter().filter_map(|a| {
        pins.agents
            .get(&location(relative, &a.path))
            .map(|p| (a, p))
    });
    for (a, p) in skills.chain(agents) {
        let skill = a.kind == ArtifactKind::Skill;
        let mut current = pin::pin_of(a, &hasher, None);
        if p.agenteval_content.is_some() {
            current.agenteval_content = a.agenteval_content_hash.clone();
        }
        let d = pin::compare(p, &current);
        if !d.changed() {
            continue;
        }
        let mut what = Vec::new();
        if d.malformed {
            what.push(
                "the pin file has a missing or malformed structural fingerprint for this skill (re-pin it)"
                    .to_owned(),
            );
        }
        if let Some((old, new)) = &d.structural {
            what.push(format!(
                "structural fingerprint changed ({}… → {}…: name, description, resource or script names, allowed tools or compatibility)",
                short(old.as_deref().unwrap_or("")),
                short(new)
            ));
        } else if !d.malformed && skill {
            what.push("structural fingerprint unchanged".into());
        }
        if d.unverifiable {
            what.push(format!(
                "its content cannot be verified ({}); a pinned {} must be readable in full",
                a.hash_incomplete
                    .as_deref()
                    .or(a.agenteval_hash_incomplete.as_deref())
                    .unwrap_or("some files were not read"),
                a.kind.noun()
            ));
        }
        if d.content.is_some() {
            let files = describe_files(&d);
            what.push(if p.files.is_none() {
                "content changed (the pin records no per-file hashes)".to_owned()
            } else if files.is_empty() || !skill {
                "content changed".to_owned()
            } else {
                format!("content changed ({files})")
            });
        }
        let msg = format!(
            "{} changed since it was pinned in {}: {}. Review the change, then re-pin it with `skillguard baseline approve` or restore the pinned version.",
            subject(a),
            sanitize_line(shown_path),
            what.join("; ")
        );
        out.push(
            Finding::new(
                ids::MANIFEST_CHANGED_SINCE_BASELINE,
                msg,
                Location::file(entry_path(a)),
            )
            .with_properties(json!({
                "pin": shown_path,
                "structural_changed": d.structural.is_some(),
                "content_changed": d.content.is_some(),
                "pinned": { "structural": p.structural, "content": p.content.as_ref().or(p.agenteval_content.as_ref()) },
                "current": { "structural": current.structural, "content": if p.content.is_none() && p.agenteval_content.is_some() { current.agenteval_content.as_ref() } else { current.content.as_ref() } },
                "files": files_json(&d),
            }))
            .for_skill(Some(&a.name), Some(&a.path), "pin"),
        );
    }
    out
}

/// A recorded entry, reduced to what trust-on-first-use compares.
struct Seen<'a> {
    /// Index into the snapshot table.
    snap: usize,
    /// `None` for skills, the kind of an agent file.
    kind: Option<ArtifactKind>,
    content: std::borrow::Cow<'a, str>,
    location: std::borrow::Cow<'a, str>,
    name: std::borrow::Cow<'a, str>,
    /// Recorded by AgentEval (an imported snapshot): `content` is AgentEval's content hash,
    /// compared with [`Artifact::agenteval_content_hash`].
    agenteval: bool,
}

impl Seen<'_> {
    /// The recorded content hash; `None` for an entry recorded without all of its content.
    fn content(&self) -> Option<&str> {
        (!self.content.is_empty()).then_some(&*self.content)
    }
}

/// The kind of a recorded entry: `Some(None)` for a skill, `Some(Some(kind))` for an agent
/// file, `None` for a kind this version does not know (left out of comparisons).
fn kind_of(recorded: Option<&str>) -> Option<Option<ArtifactKind>> {
    match recorded {
        None => Some(None),
        Some(k) => ArtifactKind::parse(k)
            .filter(|k| *k != ArtifactKind::Skill)
            .map(Some),
    }
}

/// Lower case, borrowed when it already is (ledger names usually are).
fn lower(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(char::is_uppercase) {
        std::borrow::Cow::Owned(s.to_lowercase())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// One recorded skill or agent file: what trust on first use and drift history compare.
#[derive(Debug, Clone)]
pub struct Record {
    /// `None` for skills, the agent kind for agent files.
    pub kind: Option<String>,
    pub name: String,
    /// Relative to the ledger's home.
    pub location: String,
    /// `None` for an entry recorded without all of its content (`SkillEntry::incomplete`).
    pub content: Option<String>,
}

/// One snapshot reduced to the entries a scan's comparisons need (one parse of the ledger
/// serves trust on first use and drift history).
pub struct Recorded {
    pub file: crate::baseline::ledger::SnapshotFile,
    pub seq: u64,
    pub id: String,
    pub captured_at: String,
    pub hash_options: crate::skill_hashes::HashOptions,
    /// Imported from AgentEval: the content hashes are AgentEval's (nested skills' files
    /// included, byte-exact), whatever `hash_options` says.
    pub agenteval: bool,
    pub records: Vec<Record>,
}

/// Loads the ledger once, keeping the entries (skills and agent files) whose (name,
/// location) `keep` accepts.
pub fn load_recorded(
    ledger: &Ledger,
    keep: &(dyn Fn(&str, &str) -> bool + Sync),
) -> Result<Vec<Recorded>, LedgerError> {
    ledger.load_map(|l: Loaded<Presence>| {
        let s = l.snapshot;
        Recorded {
            file: l.file,
            seq: s.seq,
            id: s.id,
            captured_at: s.captured_at,
            hash_options: s.hash_options,
            agenteval: s
                .imported
                .as_ref()
                .is_some_and(|i| i.tool == super::import::TOOL),
            records: s
                .skills
                .into_iter()
                .chain(s.agents.into_iter().flatten())
                .filter(|e| keep(&e.name, &e.location))
                // Imported entries without a content hash say nothing about content; an entry
                // recorded without all of its content is kept, as a copy nothing matches.
                .filter(|e| e.content.is_some() || e.content_unknown())
                .map(|e| Record {
                    kind: e.kind,
                    name: e.name,
                    location: e.location,
                    content: e.content,
                })
                .collect(),
        }
    })
}

/// A `changed-since-last-vetted` finding of `a` against the recorded copy `r` of snapshot
/// `snap` (seq, id, date): the snapshot and the recorded copy in its properties, then `extra`.
fn changed_since_vetted(
    a: &Artifact,
    message: String,
    snap: &(u64, String, String),
    r: &Seen<'_>,
    extra: serde_json::Value,
) -> Finding {
    let (seq, id, date) = snap;
    let mut props = json!({
        "snapshot": { "seq": seq, "id": id, "captured_at": date },
        "recorded_location": r.location,
        "recorded_content_hash": r.content(),
    });
    if let (Some(p), serde_json::Value::Object(x)) = (props.as_object_mut(), extra) {
        p.extend(x);
    }
    Finding::new(
        ids::CHANGED_SINCE_LAST_VETTED,
        message,
        Location::file(entry_path(a)),
    )
    .with_properties(props)
    .for_skill(Some(&a.name), Some(&a.path), "tofu")
}

/// The names (lower case) and ledger locations of a scan's skills and agent files.
pub fn scan_keys(result: &ScanResult, relative: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let all = || result.artifacts.iter().chain(&result.agents);
    (
        all().map(|a| a.name.to_lowercase()).collect(),
        all().map(|a| location(relative, &a.path)).collect(),
    )
}

/// `--check-baseline`: trust on first use against every earlier snapshot, for skills and
/// agent files. `recorded` holds at least the entries with this scan's names (any case) and
/// locations. A skill (or agent, or prompt) matches a recorded copy of its name and content
/// anywhere; an instructions, MCP or hook file, whose name is only its file name, one at its
/// location.
pub fn check_ledger(
    result: &ScanResult,
    ledger: &Ledger,
    hasher: &Hasher,
    relative: &str,
    recorded: &[Recorded],
) -> Result<Vec<Finding>, LedgerError> {
    let (names, locations) = scan_keys(result, relative);
    let relevant =
        |name: &str, loc: &str| names.contains(&name.to_lowercase()) || locations.contains(loc);
    let mut snaps: Vec<(u64, String, String)> = Vec::new();
    let mut seen: Vec<Seen> = Vec::new();
    for r in recorded {
        let k = snaps.len();
        snaps.push((r.seq, r.id.clone(), r.captured_at.clone()));
        if r.hash_options == hasher.options || r.agenteval {
            seen.extend(
                r.records
                    .iter()
                    .filter(|e| relevant(&e.name, &e.location))
                    .filter_map(|e| {
                        Some(Seen {
                            snap: k,
                            kind: kind_of(e.kind.as_deref())?,
                            content: e.content.as_deref().unwrap_or("").into(),
                            location: e.location.as_str().into(),
                            name: lower(&e.name),
                            agenteval: r.agenteval,
                        })
                    }),
            );
        } else {
            // Captured under other hash options: recompute from the per-file records.
            let full: Loaded<Snapshot> = ledger.load_one(r.file.clone())?;
            seen.extend(
                full.snapshot
                    .entries()
                    .filter(|e| relevant(&e.name, &e.location))
                    .filter_map(|e| {
                        Some(Seen {
                            snap: k,
                            kind: kind_of(e.kind.as_deref())?,
                            content: if e.content_unknown() {
                                "".into()
                            } else {
                                recompute_content(e, hasher)?.into()
                            },
                            name: e.name.to_lowercase().into(),
                            location: e.location.clone().into(),
                            agenteval: false,
                        })
                    }),
            );
        }
    }
    // Indexes to the newest matching record (`seen` is in snapshot order: later records win).
    type Key<'k> = (Option<ArtifactKind>, &'k str);
    // Keyed by the content hash and which hash it is (AgentEval's, or ours).
    let mut by_pair: HashMap<(Key, &str, bool), usize> = HashMap::new();
    let mut by_location: HashMap<Key, usize> = HashMap::new();
    let mut by_name: HashMap<Key, usize> = HashMap::new();
    for (i, r) in seen.iter().enumerate() {
        let named = r.kind.is_none_or(ArtifactKind::named);
        let name_key = (r.kind, &*r.name);
        let content = r.content();
        if named {
            if let Some(c) = content {
                by_pair.insert((name_key, c, r.agenteval), i);
            }
            by_name.insert(name_key, i);
        } else if let Some(c) = content {
            by_pair.insert(((r.kind, &*r.location), c, r.agenteval), i);
        }
        by_location.insert((r.kind, &*r.location), i);
    }
    let summaries: Vec<crate::baseline::ledger::SnapshotFile> =
        recorded.iter().map(|r| r.file.clone()).collect();

    let mut full_cache: BTreeMap<u64, Loaded<Snapshot>> = BTreeMap::new();
    let mut out = Vec::new();
    for a in result.artifacts.iter().chain(&result.agents) {
        let kind = (a.kind != ArtifactKind::Skill).then_some(a.kind);
        let loc = location(relative, &a.path);
        let lower = a.name.to_lowercase();
        // Known location first, else known name: the newest recorded copy.
        let reference = by_location
            .get(&(kind, loc.as_str()))
            .map(|&i| (&seen[i], "here"))
            .or_else(|| {
                a.kind
                    .named()
                    .then(|| by_name.get(&(kind, lower.as_str())))
                    .flatten()
                    .map(|&i| (&seen[i], "under this name"))
            })
            .map(|(r, how)| {
                let where_ = if how == "here" {
                    "here".to_owned()
                } else {
                    format!("at {}", sanitize_line(&r.location))
                };
                (r, where_)
            });
        let Some(content) = &a.content_hash else {
            // Not read in full: what was vetted cannot vouch for it, so it is never
            // "unchanged" (a skill the ledger never saw is only new).
            if let Some((r, where_)) = reference {
                let (r_seq, _, r_date) = &snaps[r.snap];
                let why = a.hash_incomplete.as_deref();
                out.push(changed_since_vetted(
                    a,
                    format!(
                        "{} cannot be compared with the copy recorded {where_} in snapshot #{r_seq} ({}): its content could not be read in full ({}), so it may have changed. Make it readable, then review it and record it with --write-baseline.",
                        subject(a),
                        show_date(r_date),
                        sanitize_line(why.unwrap_or("some files were not read"))
                    ),
                    &snaps[r.snap],
                    r,
                    json!({ "content_hash": null, "not_comparable": why }),
                ));
            }
            continue;
        };
        let pair_key = if a.kind.named() {
            (kind, lower.as_str())
        } else {
            (kind, loc.as_str())
        };
        // Our hash against our records, AgentEval's against imported ones: the newest match.
        let ours = by_pair.get(&(pair_key, content.as_str(), false));
        let theirs = a
            .agenteval_content_hash
            .as_deref()
            .and_then(|h| by_pair.get(&(pair_key, h, true)));
        let matched = ours.max(theirs).map(|&i| &seen[i]);
        if let Some(m) = matched {
            let content = if m.agenteval {
                a.agenteval_content_hash.as_ref().unwrap_or(content)
            } else {
                content
            };
            out.push(
                Finding::new(
                    ids::MATCHES_PREVIOUSLY_VETTED_COPY,
                    format!(
                        "{} is byte-identical to the copy recorded in snapshot #{} ({}); no content drift since it was last vetted.",
                        subject(a),
                        snaps[m.snap].0,
                        show_date(&snaps[m.snap].2)
                    ),
                    Location::file(entry_path(a)),
                )
                .with_properties(json!({
                    "snapshot": { "seq": snaps[m.snap].0, "id": snaps[m.snap].1, "captured_at": snaps[m.snap].2 },
                    "content_hash": content,
                }))
                .for_skill(Some(&a.name), Some(&a.path), "tofu"),
            );
            continue;
        }
        let Some((r, where_)) = reference else {
            continue;
        };
        let (r_seq, r_id, r_date) = &snaps[r.snap];
        let full = match full_cache.entry(*r_seq) {
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => {
                let f = summaries
                    .iter()
                    .find(|f| f.seq == *r_seq && &f.id == r_id)
                    .cloned()
                    .expect("seen snapshot is listed");
                v.insert(ledger.load_one(f)?)
            }
        };
        let delta = full
            .snapshot
            .entries()
            .find(|e| e.location == *r.location && kind_of(e.kind.as_deref()) == Some(kind))
            .map(|e| {
                let old = Pin {
                    name: e.name.clone(),
                    kind: e.kind.clone(),
                    location: None,
                    structural: e.structural.clone(),
                    content: r.content().map(str::to_owned),
                    agenteval_content: None,
                    files: (!e.files.is_empty()).then(|| {
                        e.files
                            .iter()
                            .filter(|f| e.hashes(&f.path, hasher))
                            .map(|f| {
                                (
                                    f.path.clone(),
                                    hasher.digest(&f.sha256, f.sha256_lf.as_deref()).to_owned(),
                                )
                            })
                            .collect()
                    }),
                    note: None,
                };
                pin::compare(&old, &pin::pin_of(a, hasher, None))
            })
            .unwrap_or_default();
        let mut files = describe_files(&delta);
        // An AgentEval record is compared with AgentEval's hash of the skill.
        let content: Option<&String> = if r.agenteval {
            if let Some(why) = &a.agenteval_hash_incomplete {
                files = format!("AgentEval's content hash of it cannot be computed here ({why})");
            }
            a.agenteval_content_hash.as_ref()
        } else {
            Some(content)
        };
        out.push(changed_since_vetted(
            a,
            format!(
                "{} has content never recorded in the ledger: last recorded {where_} in snapshot #{} ({}){}. Review the change, then record it with --write-baseline.",
                subject(a),
                r_seq,
                show_date(r_date),
                if files.is_empty() { String::new() } else { format!("; {files}") }
            ),
            &snaps[r.snap],
            r,
            json!({ "content_hash": content, "files": files_json(&delta) }),
        ));
    }
    Ok(out)
}

/// Drift between copies of one skill name (`--repo` and workspace scans). `history` maps a
/// location (relative to the scan base) to every content hash the ledger recorded there.
///
/// `tree`: the scanned folder, whose changed files are read again (bounded, regular files
/// only, relative paths without `..`) to count the changed lines of an outlier; `None` reads
/// nothing and names the files only.
pub fn cross_location(
    result: &ScanResult,
    history: &BTreeMap<String, BTreeSet<String>>,
    tree: Option<&std::path::Path>,
) -> Vec<Finding> {
    if result.mode == Mode::Path {
        return Vec::new();
    }
    let mut groups: BTreeMap<String, Vec<&Artifact>> = BTreeMap::new();
    for a in &result.artifacts {
        if a.name.trim().is_empty() || a.content_hash.is_none() {
            continue;
        }
        groups.entry(a.name.to_lowercase()).or_default().push(a);
    }
    let mut out = Vec::new();
    for (key, mut members) in groups {
        members.sort_by(|a, b| a.path.cmp(&b.path));
        let hashes: BTreeSet<&str> = members
            .iter()
            .filter_map(|a| a.content_hash.as_deref())
            .collect();
        if members.len() < 2 || hashes.len() < 2 {
            continue;
        }
        let n = members.len();
        let mut sets = crate::disjoint::Disjoint::new(n);
        let contents: Vec<BTreeSet<&str>> = members
            .iter()
            .map(|a| {
                let mut s: BTreeSet<&str> = history
                    .get(&a.path)
                    .map(|h| h.iter().map(String::as_str).collect())
                    .unwrap_or_default();
                s.extend(a.content_hash.as_deref());
                // Imported AgentEval history holds AgentEval's hash of the copy.
                s.extend(a.agenteval_content_hash.as_deref());
                s
            })
            .collect();
        let files: Vec<BTreeSet<(&str, &str)>> = members
            .iter()
            .map(|a| {
                a.files
                    .iter()
                    .filter_map(|f| f.sha256.as_deref().map(|h| (f.path.as_str(), h)))
                    .collect()
            })
            .collect();
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (members[i], members[j]);
                let same_repo = a.repo == b.repo;
                let same_source = match (&a.provenance, &b.provenance) {
                    (Some(x), Some(y)) => {
                        (x.source.is_some() && x.source == y.source)
                            || (x.source_url.is_some() && x.source_url == y.source_url)
                    }
                    _ => false,
                };
                let shared_history = !contents[i].is_disjoint(&contents[j]);
                // Shared ancestry: the same structure (name, description, resource
                // and script names), or a file in common. Only copies with none of it are
                // unrelated skills that happen to share a name.
                let same_structure = a.structural_fingerprint.is_some()
                    && a.structural_fingerprint == b.structural_fingerprint;
                let shared_file = !files[i].is_disjoint(&files[j]);
                if same_repo || same_source || shared_history || same_structure || shared_file {
                    sets.union(i, j);
                }
            }
        }
        // A majority of the copies identical: the others are that skill changed, whatever
        // changed (a rewritten description or body leaves a single-file skill nothing else in
        // common with its copies). "Unrelated" needs no majority (two and two).
        let mut by_hash: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, a) in members.iter().enumerate() {
            by_hash
                .entry(a.content_hash.as_deref().unwrap_or(""))
                .or_default()
                .push(i);
        }
        if let Some(held) = by_hash.values().find(|v| v.len() * 2 > n && n >= 3) {
            for i in 0..n {
                sets.union(held[0], i);
            }
        }
        let clusters = sets.groups();
        let describe = |idx: &[usize]| -> (String, serde_json::Value) {
            let shown: Vec<String> = idx
                .iter()
                .take(10)
                .map(|&i| {
                    let a = members[i];
                    format!(
                        "{} ({})",
                        sanitize_line(if a.path.is_empty() { "." } else { &a.path }),
                        short(a.content_hash.as_deref().unwrap_or(""))
                    )
                })
                .collect();
            let mut text = shown.join(", ");
            if idx.len() > 10 {
                text.push_str(&format!(", and {} more", idx.len() - 10));
            }
            let locs: Vec<serde_json::Value> = idx
                .iter()
                .map(|&i| {
                    let a = members[i];
                    json!({
                        "path": a.path,
                        "entry": entry_path(a),
                        "repo": a.repo,
                        "name": a.name,
                        "content_hash": a.content_hash,
                        "structural_fingerprint": a.structural_fingerprint,
                        "provenance": a.provenance.as_ref().map(|p| p.label()),
                    })
                })
                .collect();
            (text, serde_json::Value::Array(locs))
        };
        let make = |rule: &'static str,
                    idx: &[usize],
                    msg: String,
                    locs: serde_json::Value,
                    anchor: &str| {
            let first = members[idx[0]];
            let mut f = Finding::new(rule, msg, Location::file(entry_path(first)))
                .with_properties(json!({ "name": key, "locations": locs }));
            for &i in &idx[1..] {
                let a = members[i];
                f = f.with_related(
                    Location::file(entry_path(a)),
                    format!(
                        "copy with content hash {}",
                        a.content_hash.as_deref().unwrap_or("")
                    ),
                );
            }
            f.for_skill(Some(&first.name), Some(&first.path), anchor)
        };
        for idx in &clusters {
            let distinct: BTreeSet<&str> = idx
                .iter()
                .filter_map(|&i| members[i].content_hash.as_deref())
                .collect();
            if distinct.len() < 2 {
                continue;
            }
            let (_, locs) = describe(idx);
            let msg = drift_message(tree, &members, idx);
            out.push(make(
                ids::CROSS_LOCATION_CONTENT_DRIFT,
                idx,
                msg,
                locs,
                &format!("drift:{key}"),
            ));
        }
        if clusters.len() > 1 {
            let all: Vec<usize> = (0..n).collect();
            let (text, locs) = describe(&all);
            let msg = format!(
                "{} unrelated groups of skills are named `{}` (different repositories, different content, no shared source or history): {text}. Rename one if both can be installed side by side.",
                clusters.len(),
                sanitize_line(&members[0].name)
            );
            out.push(make(
                ids::SKILL_NAME_COLLISION,
                &all,
                msg,
                locs,
                &format!("collision:{key}"),
            ));
        }
    }
    out
}

/// The drift message of one group of copies: the majority content and each outlier with
/// what differs from it (files added, removed and changed, lines +N −M of the changed text
/// files, read again from the scanned tree with a bound; a merge of reports, whose tree is
/// not at hand, gives the files only). At most 10 outliers are described.
fn drift_message(tree: Option<&std::path::Path>, members: &[&Artifact], idx: &[usize]) -> String {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for &i in idx {
        *count
            .entry(members[i].content_hash.as_deref().unwrap_or(""))
            .or_default() += 1;
    }
    // The majority content; a tie goes to the content of the first copy by path.
    let first = members[idx[0]].content_hash.as_deref().unwrap_or("");
    let top = count.values().copied().max().unwrap_or(0);
    let major = if count.get(first) == Some(&top) {
        first
    } else {
        count
            .iter()
            .find(|(_, n)| **n == top)
            .map_or(first, |(h, _)| *h)
    };
    let base = idx
        .iter()
        .map(|&i| members[i])
        .find(|a| a.content_hash.as_deref() == Some(major))
        .unwrap_or(members[idx[0]]);
    let shown =
        |a: &Artifact| sanitize_line(if a.path.is_empty() { "." } else { &a.path }).into_owned();
    let outliers: Vec<&Artifact> = idx
        .iter()
        .map(|&i| members[i])
        .filter(|a| a.content_hash.as_deref() != Some(major))
        .collect();
    let mut parts: Vec<String> = outliers
        .iter()
        .take(10)
        .map(|o| {
            format!(
                "{} ({}: {})",
                shown(o),
                short(o.content_hash.as_deref().unwrap_or("")),
                diff_summary(tree, base, o)
            )
        })
        .collect();
    if outliers.len() > 10 {
        parts.push(format!("and {} more", outliers.len() - 10));
    }
    // "3 of them hold abc (as x)", or for a single copy "x holds abc".
    let majority = if top == 1 {
        format!("{} holds {}", shown(base), short(major))
    } else {
        format!("{top} of them hold {} (as {})", short(major), shown(base))
    };
    format!(
        "skill `{}` has different content in {} locations: {majority}, {} differ{}: {}. The same name resolves to different instructions depending on where it is loaded from; make the copies identical, rename the one that is meant to differ, or record an intentional fork in `[drift] allow`.",
        sanitize_line(&members[idx[0]].name),
        idx.len(),
        outliers.len(),
        if outliers.len() == 1 { "s" } else { "" },
        parts.join("; ")
    )
}

/// `2 files changed (+3 −1 lines), 1 added (scripts/x.sh)`: what `other` changes in `base`.
fn diff_summary(tree: Option<&std::path::Path>, base: &Artifact, other: &Artifact) -> String {
    fn of(a: &Artifact) -> BTreeMap<&str, Option<&str>> {
        a.files
            .iter()
            .map(|f| (f.path.as_str(), f.sha256.as_deref()))
            .collect()
    }
    let (b, o) = (of(base), of(other));
    let added: Vec<&str> = o.keys().filter(|p| !b.contains_key(*p)).copied().collect();
    let removed: Vec<&str> = b.keys().filter(|p| !o.contains_key(*p)).copied().collect();
    let changed: Vec<&str> = o
        .iter()
        .filter(|(p, h)| b.get(*p).is_some_and(|bh| bh != *h))
        .map(|(p, _)| *p)
        .collect();
    let (mut plus, mut minus, mut counted) = (0usize, 0usize, tree.is_some());
    // Only files the walk read as regular files of the skill: never through a link.
    // A merge takes the paths from the reports: they must stay below the folder.
    let inside = |s: &str| {
        std::path::Path::new(s)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
    };
    let plain = |a: &Artifact, p: &str| {
        inside(&a.path)
            && inside(p)
            && a.files
                .iter()
                .any(|f| f.path == p && f.symlink.is_none() && !f.via_link)
    };
    for p in changed.iter().take(20).filter(|_| tree.is_some()) {
        let read = |a: &Artifact| {
            let root = tree?;
            plain(a, p)
                .then(|| {
                    crate::fsutil::read_regular_bounded(
                        &crate::names::path_of(&crate::names::path_of(root, &a.path), p),
                        1 << 20,
                    )
                    .ok()
                })
                .flatten()
        };
        match (read(base), read(other)) {
            (Some(x), Some(y))
                if std::str::from_utf8(&x).is_ok() && std::str::from_utf8(&y).is_ok() =>
            {
                let d = crate::linediff::diff_counts(
                    &crate::linediff::line_hashes(&x),
                    &crate::linediff::line_hashes(&y),
                );
                plus += d.added;
                minus += d.removed;
            }
            _ => counted = false,
        }
    }
    let list = |v: &[&str]| {
        let mut s: Vec<String> = v
            .iter()
            .take(3)
            .map(|p| sanitize_line(p).into_owned())
            .collect();
        if v.len() > 3 {
            s.push(format!("{} more", v.len() - 3));
        }
        s.join(", ")
    };
    let mut out = Vec::new();
    if !changed.is_empty() {
        let lines = if counted && changed.len() <= 20 {
            format!(", +{plus} −{minus} lines")
        } else {
            String::new()
        };
        out.push(format!(
            "{} file{} changed ({}{lines})",
            changed.len(),
            if changed.len() == 1 { "" } else { "s" },
            list(&changed)
        ));
    }
    // The first count names its unit: "1 file changed (…), 2 added (…)".
    let unit = |out: &Vec<String>, n: usize| match (out.is_empty(), n) {
        (false, _) => "",
        (true, 1) => "file ",
        (true, _) => "files ",
    };
    if !added.is_empty() {
        let u = unit(&out, added.len());
        out.push(format!("{} {u}added ({})", added.len(), list(&added)));
    }
    if !removed.is_empty() {
        let u = unit(&out, removed.len());
        out.push(format!("{} {u}removed ({})", removed.len(), list(&removed)));
    }
    // The front matter fields whose values differ (a changed `description` is what a
    // harness routes on).
    let fields = |a: &Artifact| a.frontmatter.as_object().cloned().unwrap_or_default();
    let (bf, of) = (fields(base), fields(other));
    let mut keys: Vec<&String> = bf
        .keys()
        .chain(of.keys())
        .filter(|k| bf.get(*k) != of.get(*k))
        .collect();
    keys.sort();
    keys.dedup();
    if !keys.is_empty() {
        let mut shown: Vec<String> = keys
            .iter()
            .take(5)
            .map(|k| format!("`{}`", sanitize_line(k)))
            .collect();
        if keys.len() > 5 {
            shown.push(format!("{} more", keys.len() - 5));
        }
        out.push(format!("front matter {} changed", shown.join(", ")));
    }
    if out.is_empty() {
        "same files, content differs".to_owned()
    } else {
        out.join(", ")
    }
}

/// Skill paths whose relation to a same-named copy is undecided without history: members
/// of a name group with different contents that are in different repositories and share
/// no source. Only these need the ledger (most scans need none of it).
pub fn locations_needing_history(result: &ScanResult) -> BTreeSet<String> {
    let mut groups: BTreeMap<String, Vec<&Artifact>> = BTreeMap::new();
    for a in &result.artifacts {
        if !a.name.trim().is_empty() && a.content_hash.is_some() {
            groups.entry(a.name.to_lowercase()).or_default().push(a);
        }
    }
    let mut out = BTreeSet::new();
    for members in groups.values() {
        let repos: BTreeSet<&Option<String>> = members.iter().map(|a| &a.repo).collect();
        let hashes: BTreeSet<&Option<String>> = members.iter().map(|a| &a.content_hash).collect();
        if repos.len() > 1 && hashes.len() > 1 {
            out.extend(members.iter().map(|a| a.path.clone()));
        }
    }
    out
}

/// Every content hash the ledger recorded at the given locations (relative to the scan
/// base; `relative` is the scan base relative to the ledger's home).
pub fn history_by_location(
    recorded: &[Recorded],
    relative: &str,
    wanted: &BTreeSet<String>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for r in recorded {
        for e in r.records.iter().filter(|e| e.kind.is_none()) {
            if let Some(p) = local_path(relative, &e.location)
                && wanted.contains(&p)
            {
                out.entry(p).or_default().extend(e.content.clone());
            }
        }
    }
    out
}
