//! `skillguard baseline approve`: re-pin one reviewed skill (or agent file) in a pin file,
//! leaving the other entries untouched. The skill is found by the pipeline's inventory.

use std::io::Write;
use std::path::Path;

use super::args::HashArgs;
use super::{Error, ExitStatus};
use crate::discover::Mode;
use crate::fsutil::write_atomic;
use crate::pipeline::{self, Request, Source};
use crate::result::ScanResult;
use crate::scan::ScanOptions;
use crate::text::sanitize_line;

/// The inventory of `target` ([`pipeline::Depth::Inventory`]).
fn inventory(mode: Mode, target: &Path, options: &ScanOptions) -> Result<ScanResult, Error> {
    let mut request = Request::new(Source::Tree {
        mode,
        target,
        options: options.clone(),
    });
    request.depth = pipeline::Depth::Inventory;
    Ok(pipeline::run(request)?.result)
}

/// One pin `baseline approve` writes.
struct Approval {
    /// An agent file's pin (keyed by location), else a skill's (keyed by name).
    agent: bool,
    key: String,
    pin: crate::baseline::pin::Pin,
    /// The line printed once it is written (` -> FILE` follows).
    line: String,
}

pub(super) fn approve(
    name: &str,
    skill_path: &Path,
    baseline: &Path,
    pin_note: Option<String>,
    hashing: &HashArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    use crate::baseline::{pin, record};
    use crate::skill_hashes::Hasher;
    let existing = pin::read(baseline)?;
    let mut pins = match existing {
        Some(p) => {
            let asked = crate::skill_hashes::Hasher::new(hashing.options())
                .map_err(Error::Usage)?
                .options;
            if !hashing.is_default() && p.hash_options != asked {
                let o = &p.hash_options;
                return Err(Error::Usage(format!(
                    "{} was written with other hash options (normalize-eol: {}, ignore: [{}]); approve with the same options or none",
                    baseline.display(),
                    o.normalize_eol,
                    o.ignore.join(", ")
                )));
            }
            p
        }
        None => pin::PinFile::new(hashing.options(), None),
    };
    let hasher = Hasher::new(pins.hash_options.clone()).map_err(Error::Usage)?;
    let opts = ScanOptions {
        profiles: crate::loaders::Selection::Only(Default::default()),
        hash: pins.hash_options.clone(),
        ..ScanOptions::default()
    };
    // A skill of that name under PATH; else the agent files of that name (PATH may then be
    // an agent file, which a skill scan refuses).
    let result = match inventory(Mode::Path, skill_path, &opts) {
        Ok(r) => Some(r),
        Err(_) if skill_path.is_file() => None,
        Err(e) => return Err(e),
    };
    let key = name.to_lowercase();
    let hits: Vec<&crate::inventory::Artifact> = result
        .iter()
        .flat_map(|r| &r.artifacts)
        .filter(|a| a.name.to_lowercase() == key)
        .collect();
    let contents: std::collections::BTreeSet<_> =
        hits.iter().map(|a| a.content_hash.clone()).collect();
    let home = record::home(Mode::Path, skill_path);
    let approvals = match (hits.first(), contents.len()) {
        (None, _) => approve_agents(name, skill_path, &home, &opts, &hasher, &pins, &pin_note)?,
        (Some(a), 1) => {
            let loc = record::location(
                &record::relative_root(&home, &record::scan_base(Mode::Path, skill_path)),
                &a.path,
            );
            let mut p = pin::pin_of(a, &hasher, Some(loc));
            p.note = pin_note.or_else(|| pins.skills.get(&key).and_then(|old| old.note.clone()));
            let structural = p.structural.clone().unwrap_or_default();
            let content = p.content.clone().unwrap_or_default();
            vec![Approval {
                agent: false,
                key,
                line: format!(
                    "approved `{}`: structural={}… content={}…",
                    sanitize_line(&a.name),
                    &structural[..12.min(structural.len())],
                    &content[..12.min(content.len())],
                ),
                pin: p,
            }]
        }
        (Some(_), _) => {
            let locs: Vec<String> = hits
                .iter()
                .map(|a| sanitize_line(&a.path).into_owned())
                .collect();
            return Err(Error::Usage(format!(
                "{} different skills named `{}` under {} ({}); point --skill-path at the one to approve",
                hits.len(),
                sanitize_line(name),
                skill_path.display(),
                locs.join(", ")
            )));
        }
    };
    if let Some(a) = hits.first()
        && a.excluded
    {
        writeln!(
            stderr,
            "skillguard: note: `{}` is excluded by a strict loader; it is pinned anyway",
            sanitize_line(&a.name)
        )?;
    }
    crate::baseline::prepare_pin_dir(baseline, &home)?;
    // Read-modify-write under a lock: the scan above ran unlocked, so re-read the pin file
    // now; another approval may have landed meanwhile, and it must be kept.
    let _lock = crate::fsutil::lock_beside(baseline).map_err(|e| Error::Output {
        path: baseline.display().to_string(),
        source: e,
    })?;
    if let Some(now) = pin::read(baseline)? {
        if now.hash_options != pins.hash_options {
            return Err(Error::Usage(format!(
                "{} was rewritten with other hash options while approving; run the approval again",
                baseline.display()
            )));
        }
        pins = now;
    }
    for a in &approvals {
        if a.agent {
            pins.agents.insert(a.key.clone(), a.pin.clone());
            continue;
        }
        // A name pinned at several locations: the approved copy's own pin is updated, and the
        // name's pin only when it is that copy (or the name has none yet).
        let loc = a.pin.location.clone();
        let copy = loc.as_ref().filter(|l| pins.copies.contains_key(*l));
        if let Some(l) = copy {
            pins.copies.insert(l.clone(), a.pin.clone());
        }
        let first = pins.skills.get(&a.key).map(|p| p.location.clone());
        if copy.is_none() || first.is_none() || first == Some(loc) {
            pins.skills.insert(a.key.clone(), a.pin.clone());
        }
    }
    let bytes = pins.to_bytes();
    write_atomic(baseline, |w| w.write_all(&bytes)).map_err(|e| Error::Output {
        path: baseline.display().to_string(),
        source: e,
    })?;
    for a in &approvals {
        writeln!(stdout, "{} -> {}", a.line, baseline.display())?;
    }
    Ok(ExitStatus::Clean)
}

/// `baseline approve` of agent files: every agent, prompt, instructions, MCP or hook file at
/// or under PATH whose name (or file name without its suffix) is NAME, found by a scan of
/// the repository that holds PATH (the ledger's home), and keyed by its location there. A
/// file already pinned under its location in a workspace (`repo-a/.github/agents/…`, where
/// the home's path ends in `/repo-a`) is updated under that key.
fn approve_agents(
    name: &str,
    path: &Path,
    home: &Path,
    opts: &ScanOptions,
    hasher: &crate::skill_hashes::Hasher,
    pins: &crate::baseline::pin::PinFile,
    note: &Option<String>,
) -> Result<Vec<Approval>, Error> {
    use crate::baseline::{checks, pin, record};
    let result = inventory(Mode::Repo, home, opts)?;
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let within = record::under(home, &abs).unwrap_or_else(|| ".".into());
    let hits: Vec<&crate::inventory::Artifact> = result
        .agents
        .iter()
        .filter(|a| {
            record::covers(&within, &a.path)
                && (a.name.eq_ignore_ascii_case(name)
                    || crate::agents::stem(&a.path).eq_ignore_ascii_case(name))
        })
        .collect();
    if hits.is_empty() {
        return Err(Error::Usage(format!(
            "no skill or agent file named `{}` under {}; nothing was written",
            sanitize_line(name),
            path.display()
        )));
    }
    let home_s = home.to_string_lossy().replace('\\', "/");
    let mut out = Vec::new();
    for a in hits {
        if let Some(why) = &a.hash_incomplete {
            return Err(Error::Usage(format!(
                "{} cannot be pinned ({why}); nothing was written",
                checks::subject(a)
            )));
        }
        // `repo-a/.github/agents/x.agent.md` for a home that ends in `/repo-a`.
        let suffix = format!("/{}", a.path);
        let longer: Vec<&String> = pins
            .agents
            .keys()
            .filter(|k| {
                k.strip_suffix(&suffix)
                    .is_some_and(|prefix| home_s.ends_with(&format!("/{prefix}")))
            })
            .collect();
        let key = match longer[..] {
            [k] if !pins.agents.contains_key(&a.path) => k.clone(),
            _ => a.path.clone(),
        };
        let mut p = pin::pin_of(a, hasher, None);
        p.note = note
            .clone()
            .or_else(|| pins.agents.get(&key).and_then(|old| old.note.clone()));
        let content = p.content.clone().unwrap_or_default();
        out.push(Approval {
            agent: true,
            line: format!(
                "approved {}: content={}…{}",
                checks::subject(a),
                &content[..12.min(content.len())],
                if key == a.path {
                    String::new()
                } else {
                    format!(" (pinned as {})", sanitize_line(&key))
                }
            ),
            key,
            pin: p,
        });
    }
    Ok(out)
}
