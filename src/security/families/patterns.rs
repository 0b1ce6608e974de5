//! The data rules run: every rule of `rules/` with a `match:` block (compiled once in
//! [`crate::security::model::datarules`]) over every source of the skill, each hit
//! weighed by its context and emitted.

use crate::security::model::context::{excerpt, is_live};
use crate::security::model::datarules::compiled;
use crate::security::model::{RegionKind, SecCx};

/// Runs every data rule over every source of the skill.
pub fn check(scx: &mut SecCx<'_, '_>) {
    let first = scx.cx.findings.len();
    emit_hits(scx);
    one_finding_per_cause(&mut scx.cx.findings, first);
}

/// At most this many other occurrences of one cause are listed as related locations.
const MAX_RELATED: usize = 9;

/// One cause repeated in one file is one finding: the hits of one rule with the same matched
/// text in one file that ended at the same severity (an example note and a live instruction
/// stay apart) become the first one, which counts them and lists the others as related
/// locations. Runs over this family's own new findings, before any leaves the family.
fn one_finding_per_cause(findings: &mut Vec<crate::finding::Finding>, first: usize) {
    use std::collections::HashMap;
    let mut by_cause: HashMap<(String, &'static str, String, crate::finding::Severity), usize> =
        HashMap::new();
    let mut counts: HashMap<usize, usize> = HashMap::new();
    let mut keep = vec![true; findings.len()];
    for i in first..findings.len() {
        let f = &findings[i];
        let key = (
            f.location.path.clone(),
            f.rule_id,
            f.anchor.clone(),
            f.severity,
        );
        match by_cause.get(&key) {
            Some(&k) => {
                keep[i] = false;
                *counts.entry(k).or_insert(1) += 1;
                if findings[k].related.len() < MAX_RELATED {
                    let location = findings[i].location.clone();
                    findings[k].related.push(crate::finding::Related {
                        location,
                        message: "the same, on another line".to_owned(),
                    });
                }
            }
            None => {
                by_cause.insert(key, i);
            }
        }
    }
    for (k, n) in counts {
        let listed = if n - 1 <= MAX_RELATED {
            "the others are listed as related locations".to_owned()
        } else {
            format!("the first {MAX_RELATED} others are listed as related locations")
        };
        findings[k]
            .message
            .push_str(&format!(" ({n} occurrences in this file; {listed}.)"));
    }
    let mut i = 0;
    findings.retain(|_| {
        let k = keep[i];
        i += 1;
        k
    });
}

/// Emits every data-rule hit of every source, with its context decided at emission.
fn emit_hits(scx: &mut SecCx<'_, '_>) {
    let c = compiled();
    let mut emits = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        for h in c.hits(src) {
            let ex = if c.rules[h.rule].redact {
                crate::security::model::values::redacted(&src.text[h.start..h.end])
            } else {
                excerpt(&src.text, h.start, h.end)
            };
            emits.push((si, h, ex));
        }
    }
    for (si, h, ex) in emits {
        let rule = &c.rules[h.rule];
        if let Some(sig) = rule.signal
            && is_live(&scx.sources[si], h.start)
        {
            scx.signal(sig, si, h.start, ex.clone());
        }
        if rule.silent
            || !crate::security::families::injection::instructions::prose_rule_holds(
                &scx.sources[si],
                h.start,
                rule.id,
            )
        {
            continue;
        }
        let region = scx.sources[si].region_at(h.start).map(|r| r.kind);
        let where_ = match region {
            Some(RegionKind::Comment) => " (inside an HTML comment, hidden when rendered)",
            Some(RegionKind::Code {
                load_time: true, ..
            }) => " (in a block Claude Code runs when the skill loads)",
            Some(RegionKind::Code { script: false, .. }) => " (in a code block the agent may run)",
            _ => "",
        };
        scx.emit_at(
            rule.id,
            si,
            h.start,
            format!("{}{where_}: `{ex}`. {}", rule.message, rule.fix),
            &format!("{}:{ex}", rule.id),
        );
        // An example or a prohibition keeps its rule, as a note that says why it is
        // less certain. Its signal above still feeds correlation: attackers imitate
        // these contexts, so they never silence a chain.
        if let Some(why) = h.example
            && let Some(f) = scx.cx.findings.last_mut()
        {
            crate::security::severity::as_note(f, why);
            continue;
        }

        // A placeholder endpoint (`https://webhook.site/your-uuid`, `abc123.ngrok.io`) is an
        // example of where the user's own hook goes, not a destination.
        if rule.id == "exfiltration-endpoint"
            && crate::security::model::evidence::is_placeholder(
                crate::security::model::evidence::token_at(&scx.sources[si].text, h.start),
            )
            && let Some(f) = scx.cx.findings.last_mut()
        {
            crate::security::severity::cap(
                f,
                crate::finding::Severity::Low,
                "the endpoint is a placeholder to fill in (`your-…`, `abc123`, `<…>`): an example, not a destination",
            );
        }
        // A custom agent's body is its system prompt: a working mode it gives itself
        // ("You are in debug mode") is its persona. Jailbreak modes (DAN, god, unrestricted)
        // and dropped policies stay.
        if scx.persona
            && rule.id == "prompt-injection-role-hijack"
            && let Some(f) = scx.cx.findings.last_mut()
        {
            let hit = scx.sources[si].text[h.start..h.end].to_ascii_lowercase();
            let persona_mode = ["developer", "debug", "admin", "maintenance"]
                .iter()
                .any(|m| hit.contains(m));
            if persona_mode && scx.sources[si].is_entry {
                crate::security::severity::as_note(
                    f,
                    "a custom agent's body is its system prompt: a working mode it sets for itself is its persona",
                );
            }
        }
        // An index that names what is installed from it (`pip install flashinfer -i
        // https://flashinfer.ai/whl/…`), or the project the skill is about: the vendor's own
        // package index, a fact to note, not a redirection of public packages.
        if rule.id == "package-registry-override"
            && let Some(f) = scx.cx.findings.last_mut()
        {
            let line = scx.sources[si].line_at(h.start);
            if crate::security::model::evidence::vendor_index(line, &scx.subject) {
                crate::security::severity::cap(
                    f,
                    crate::finding::Severity::Medium,
                    "the index's host names the package installed from it or the project the skill is about: the vendor's own index",
                );
            }
        }
        // A skill whose description says keeping this file is its job writes it by design: a
        // note. A memory file also holds the user's own notes: a person must look (medium).
        if rule.id == "agent-memory-poisoning"
            && let Some(f) = scx.cx.findings.last_mut()
        {
            let hit = ex.to_ascii_lowercase();
            if crate::security::model::evidence::its_own_job(&scx.subject, &hit) {
                f.message.push_str(
                    " The skill's description says editing this file is its job, so this is a note: check it asks the user before writing.",
                );
                crate::security::severity::cap(
                    f,
                    crate::finding::Severity::Low,
                    "the skill's documented job is editing this file",
                );
            } else if hit.contains("memory.md") && !hit.contains("soul.md") {
                crate::security::severity::cap(
                    f,
                    crate::finding::Severity::Medium,
                    "a memory file also holds the user's own notes",
                );
            }
        }
        // A skill about a tool reads that tool's credential store as its job: a note. Its
        // signal above still feeds correlation (a send of it is exfiltration all the same).
        if rule.id == "credential-store-access"
            && let Some(why) =
                crate::security::model::evidence::reads_its_own_tool_store(&scx.subject, &ex)
            && let Some(f) = scx.cx.findings.last_mut()
        {
            crate::security::severity::cap(f, crate::finding::Severity::Low, why);
        }
        if rule.id == "persistence-mechanism"
            && let Some(why) = crate::security::model::evidence::schedules_as_its_job(&scx.subject)
            && let Some(f) = scx.cx.findings.last_mut()
        {
            crate::security::severity::cap(f, crate::finding::Severity::Low, why);
        }
        // A credential stored in the agent's memory is replayed into every later session.
        if rule.id == "secret-leak-by-design"
            && let Some(f) = scx.cx.findings.last_mut()
            && f.severity < crate::finding::Severity::High
        {
            let hit = ex.to_ascii_lowercase();
            let memory = ["memory", "soul.md", "claude.md", "agents.md"]
                .iter()
                .any(|w| hit.contains(w));
            let cred = [
                "password",
                "api key",
                "api_key",
                "apikey",
                "private key",
                "seed phrase",
                "card",
            ]
            .iter()
            .any(|w| hit.contains(w));
            if memory && cred {
                crate::security::severity::emitted(f, crate::finding::Severity::High);
                f.message.push_str(
                    " A secret stored in the agent's memory is replayed into every later session and every transcript: high.",
                );
            }
        }
        // The reference documents of a skill about security (and changelogs) quote
        // attacks: a pattern there is at most a warning. In any other skill, a command in
        // a runnable block of a reference is an instruction like the entry file's.
        let reference_doc = scx.sources[si].capped_at(h.start);
        if reference_doc
            && region != Some(RegionKind::Comment)
            && let Some(f) = scx.cx.findings.last_mut()
            && f.severity > crate::finding::Severity::Medium
        {
            f.message
                .push_str(" (In a reference document, quoted rather than given to run: reported as a warning.)");
            crate::security::severity::cap(
                f,
                crate::finding::Severity::Medium,
                "in a reference document of a skill about security, where attacks are quoted",
            );
        }
        // An injection phrase hidden from rendered views is two pieces of evidence.
        if region == Some(RegionKind::Comment)
            && let Some(f) = scx.cx.findings.last_mut()
            && f.category == "security/prompt-injection"
            && f.severity < crate::finding::Severity::High
        {
            // Decided at emission from the hit's own region, not a correlation.
            crate::security::severity::emitted(f, crate::finding::Severity::High);
        }
    }
}
