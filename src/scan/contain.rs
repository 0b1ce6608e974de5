//! A skill whose analysis panicked: an `internal-error` finding and an excluded artifact,
//! so the other skills' results stand.

use crate::analyze::Analysed;
use crate::discover::{Group, SkillDir};
use crate::finding::{Finding, Location};
use crate::inventory::{Artifact, ArtifactKind};
use crate::rules::ids;

/// The record of a skill whose analysis panicked with `payload`.
pub(super) fn internal_error(
    sd: &SkillDir,
    groups: &[Group],
    payload: Box<dyn std::any::Any + Send>,
) -> Analysed {
    let msg = payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "unknown panic".into());
    let dir_name = sd.rel.rsplit('/').next().unwrap_or(&sd.rel).to_owned();
    let entry_path = if sd.rel.is_empty() {
        sd.entry.clone()
    } else {
        format!("{}/{}", sd.rel, sd.entry)
    };
    let f = Finding::new(
        ids::INTERNAL_ERROR,
        format!(
            "skillguard failed while analysing this skill ({}); the other skills were scanned. Please report this.",
            crate::text::sanitize_line(&msg)
        ),
        Location::file(entry_path),
    )
    .for_skill(Some(&dir_name), Some(&sd.rel), "panic");
    let artifact = Artifact {
        kind: ArtifactKind::Skill,
        path: sd.rel.clone(),
        repo: groups.get(sd.group).and_then(|g| g.repo.clone()),
        convention: sd.convention.map(|c| c.path.to_owned()),
        convention_root: sd.convention_root.clone(),
        entry: sd.entry.clone(),
        name: dir_name.clone(),
        dir_name,
        frontmatter: serde_json::Value::Null,
        excluded: true,
        symlink: None,
        nested_in: sd.nested_in.clone(),
        files: Vec::new(),
        structural_fingerprint: None,
        content_hash: None,
        hash_incomplete: None,
        agenteval_content_hash: None,
        agenteval_hash_incomplete: None,
        provenance: None,
        loaders: Vec::new(),
        format: None,
    };
    Analysed {
        artifact,
        findings: vec![f],
        loader_input: None,
        entry_bytes: None,
    }
}

/// The record of a customisation file whose analysis panicked.
pub(super) fn agent_internal_error(
    af: &crate::agents::AgentFile,
    groups: &[Group],
) -> crate::agents::Analysed {
    let name = crate::agents::stem(&af.rel).to_owned();
    let f = Finding::new(
        ids::INTERNAL_ERROR,
        "skillguard failed while analysing this file; the rest was scanned. Please report this."
            .to_owned(),
        Location::file(af.rel.clone()),
    )
    .for_skill(Some(&name), Some(&af.rel), "panic");
    let mut artifact = crate::agents::placeholder(af, groups);
    artifact.excluded = true;
    crate::agents::Analysed {
        artifact,
        findings: vec![f],
        info: crate::agents::Info::default(),
    }
}
