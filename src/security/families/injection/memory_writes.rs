//! Agent files written through a variable: `soul = home / "SOUL.md"` and, a few lines below,
//! `soul.write_text(…)`; `const f = path.join(dir, 'CLAUDE.md')` and `fs.writeFileSync(f, …)`.
//! The data rule `agent-memory-poisoning` sees a write that names the file on its own line;
//! this follows the name from its assignment to a write of the same variable in the same
//! script or code block. `MEMORY.md` is left to the data rule, which also needs a standing
//! instruction in what is written (memory skills keep the user's notes there).

use std::sync::LazyLock;

use regex::Regex;

use crate::finding::Severity;
use crate::security::model::datarules::re;
use crate::security::model::{SecCx, evidence};

const RULE: &str = "agent-memory-poisoning";

/// `name = …"SOUL.md"…` (Python, JavaScript/TypeScript, shell): the variable and the file.
static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?m)^[ \t]*(?:(?:const|let|var|export)\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?::\s*[A-Za-z_.\[\]]+\s*)?=[^=\n][^\n]{0,160}?["'`/\\]((?i:soul|identity|claude|agents|gemini|heartbeat)\.md)["'`]"#,
    )
});

/// At most this many assignments per code region are followed (a bound on hostile input).
const MAX_ASSIGNMENTS: usize = 64;
/// A write this far (bytes) after the assignment is still the same step.
const MAX_DISTANCE: usize = 4096;

/// The writes of variable `v`, as the texts that start them.
fn writes_of(v: &str) -> [String; 10] {
    [
        format!("{v}.write_text("),
        format!("{v}.write_bytes("),
        format!("{v}.open(\"a"),
        format!("{v}.open('a"),
        format!("{v}.open(\"w"),
        format!("{v}.open('w"),
        format!("writeFileSync({v}"),
        format!("appendFileSync({v}"),
        format!("writeFile({v}"),
        format!("appendFile({v}"),
    ]
}

/// `open(v, "a")`, `open(v, 'w+')`, `open(v, mode="a")`: Python's open for writing.
fn opens_for_writing(text: &str, v: &str) -> Option<usize> {
    let needle = format!("open({v}");
    let mut from = 0;
    while let Some(i) = text[from..].find(&needle) {
        let at = from + i;
        let rest = &text[at + needle.len()..];
        let rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix(',') {
            let r = r.trim_start();
            let r = r.strip_prefix("mode=").unwrap_or(r);
            if r.starts_with("\"a")
                || r.starts_with("'a")
                || r.starts_with("\"w")
                || r.starts_with("'w")
            {
                return Some(at);
            }
        }
        from = at + needle.len();
    }
    None
}

pub fn check(scx: &mut SecCx<'_, '_>) {
    let mut emits: Vec<(usize, usize, String)> = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        let text = &src.text;
        if memchr::memmem::find(src.lower(), b".md").is_none() {
            continue;
        }
        for r in src.regions.iter().filter(|r| r.kind.is_code()) {
            let code = &text[r.start..r.end];
            for c in ASSIGN.captures_iter(code).take(MAX_ASSIGNMENTS) {
                let (v, file) = (c.get(1).unwrap().as_str(), c.get(2).unwrap().as_str());
                let from = c.get(0).unwrap().end();
                let to = crate::text::floor_boundary(code, (from + MAX_DISTANCE).min(code.len()));
                let after = &code[from..to];
                let write = writes_of(v)
                    .iter()
                    .filter_map(|w| after.find(w.as_str()))
                    .chain(opens_for_writing(after, v))
                    .min();
                if let Some(w) = write {
                    let at = r.start + from + w;
                    // A test's fixture is a detector's input, not a write.
                    if !src.is_test {
                        emits.push((si, at, format!("{v}>{file}")));
                    }
                }
            }
        }
    }
    for (si, at, anchor) in emits {
        let src = &scx.sources[si];
        let (file, line) = (
            anchor.split('>').nth(1).unwrap_or("").to_owned(),
            src.pos(at).0,
        );
        if scx.cx.findings.iter().any(|f| {
            f.rule_id == RULE && f.location.path == src.rel && f.location.line == Some(line)
        }) {
            continue;
        }
        let excerpt = crate::security::model::context::excerpt(&src.text, at, src.text.len());
        let capped = src.capped_at(at);
        let own = evidence::its_own_job(&scx.subject, &file.to_ascii_lowercase());
        scx.emit_at(
            RULE,
            si,
            at,
            format!(
                "Agent memory or identity poisoning: the script writes `{file}` through a variable (`{excerpt}`): the agent reads that file at the start of every session, so what is written there outlives the skill and the user's review. Remove the write; a skill that maintains such a file says so in its description and asks the user first."
            ),
            &anchor,
        );
        if let Some(f) = scx.cx.findings.last_mut() {
            if own {
                crate::security::severity::cap(
                    f,
                    Severity::Low,
                    "the skill's documented job is editing this file",
                );
            } else if capped {
                crate::security::severity::cap(
                    f,
                    Severity::Medium,
                    "in a reference document of a skill about security, where attacks are quoted",
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assignment_pattern_sees_path_variables() {
        let t = "WS = pathlib.Path.home()\nsoul = WS / \"SOUL.md\"\nsoul.write_text(text)\n";
        let c = ASSIGN.captures(t).expect("a match");
        assert_eq!(&c[1], "soul");
        assert_eq!(&c[2], "SOUL.md");
    }
}
