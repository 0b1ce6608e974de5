//! The evidence model of a file: what a byte offset *is*, decided once, for every rule.
//!
//! [`crate::security::model::regions`] cuts a file into frontmatter, prose, code blocks, comments and
//! scripts. This module adds what those regions sit in and what links two offsets:
//! - **sections**: the Markdown heading path above an offset (ATX headings, and a bold or
//!   colon-ended label line in front of a list), classified as forbidding ("Prohibited
//!   actions", "Do not", "Never"), cataloguing ("Payloads", "What to look for", "Red
//!   flags") or testing ("Test cases"); a table cell's column heading counts the same way;
//! - **link units**: the stretch of text that one act occupies (the code block or script,
//!   or the prose paragraph), the only span along which two signals are correlated;
//! - **placeholders**: example values (`your-…`, `<…>`, `example.com`, `abc123`, `xxx`,
//!   documentation IP ranges, `AAAA...`) that are never evidence of a real destination,
//!   key or secret.
//!
//! Everything here is linear in the file (headings are found once per file and looked up
//! by binary search) and bounded per query.

use crate::finding::Severity;
use crate::security::model::{RegionKind, Source};

/// What the section or table column an offset sits in says about its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionRole {
    /// "Prohibited actions", "Do NOT", "Never", "Anti-patterns", "Avoid": acts the reader
    /// must not do.
    Forbids,
    /// "Payloads", "What to look for", "Red flags", "Indicators", "Vulnerable code":
    /// acts listed so that a reviewer recognises them.
    Catalogues,
    /// "Test cases", "Detection tests": inputs for a detector.
    Tests,
}

impl SectionRole {
    /// Why a finding there is less certain, in words fit for `confidence_reason`.
    pub fn reason(self) -> &'static str {
        match self {
            SectionRole::Forbids => "under a heading that forbids it (a list of what not to do)",
            SectionRole::Catalogues => {
                "under a heading that catalogues it (payloads or signs a reviewer must recognise)"
            }
            SectionRole::Tests => "under a heading of test cases (a detector's input)",
        }
    }
}

/// A heading (or label line) of a Markdown file: where it starts and the role its own words
/// or an enclosing heading's give.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heading {
    pub offset: usize,
    pub role: Option<SectionRole>,
}

/// The role a heading's words give it, if any.
pub fn role_of_heading(words: &str) -> Option<SectionRole> {
    let w = words.to_ascii_lowercase();
    let w = w.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '\'');
    let has = |k: &[&str]| k.iter().any(|k| contains_word(w, k));
    const FORBIDS: &[&str] = &[
        "do not",
        "don't",
        "dont",
        "never",
        "prohibited",
        "forbidden",
        "not allowed",
        "disallowed",
        "must not",
        "anti-pattern",
        "anti-patterns",
        "antipattern",
        "antipatterns",
        "avoid",
        "what not to do",
        "bad example",
        "bad examples",
        "bad practice",
        "bad practices",
        "dangerous commands",
        "blocked commands",
        "deny list",
        "denylist",
        "blocklist",
        "red lines",
        "restrictions",
        "guardrails",
        "safety rules",
    ];
    const CATALOGUES: &[&str] = &[
        "payload",
        "payloads",
        "what to look for",
        "red flags",
        "warning signs",
        "indicators",
        "indicators of compromise",
        "iocs",
        "signatures",
        "attack patterns",
        "attack vectors",
        "common attacks",
        "malicious patterns",
        "suspicious patterns",
        "detection patterns",
        "detection rules",
        "vulnerability patterns",
        "common vulnerabilities",
        "known attacks",
        "threat examples",
        "examples of malicious",
        "reject",
        "cheat sheet",
        "cheatsheet",
    ];
    const TESTS: &[&str] = &[
        "test inputs",
        "detection tests",
        "test payloads",
        "test vectors",
    ];
    if has(FORBIDS) {
        Some(SectionRole::Forbids)
    } else if has(CATALOGUES) {
        Some(SectionRole::Catalogues)
    } else if has(TESTS) {
        Some(SectionRole::Tests)
    } else {
        None
    }
}

/// Is `k` in `hay` at word boundaries (ASCII)?
fn contains_word(hay: &str, k: &str) -> bool {
    let b = hay.as_bytes();
    let mut from = 0;
    while let Some(i) = hay[from..].find(k) {
        let s = from + i;
        let e = s + k.len();
        let before = s == 0 || !b[s - 1].is_ascii_alphanumeric();
        let after = e >= b.len() || !b[e].is_ascii_alphanumeric();
        if before && after {
            return true;
        }
        from = s + 1;
        while !hay.is_char_boundary(from) {
            from += 1;
        }
    }
    false
}

/// The headings of a Markdown text, in order, each with the role it or the nearest enclosing
/// heading with a role gives. Fenced code is skipped (a `#` comment in a block is not a
/// heading). One pass over the lines.
pub fn headings(text: &str, code: impl Fn(usize) -> bool) -> Vec<Heading> {
    let mut out = Vec::new();
    // The enclosing headings: (level, role).
    let mut stack: Vec<(u8, Option<SectionRole>)> = Vec::new();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        if code(start) {
            continue;
        }
        let t = line.trim_end();
        let trimmed = t.trim_start();
        if t.len() - trimmed.len() > 3 {
            continue;
        }
        let hashes = trimmed.bytes().take_while(|b| *b == b'#').count();
        let (level, words) =
            if (1..=6).contains(&hashes) && trimmed[hashes..].starts_with([' ', '\t']) {
                (hashes as u8, &trimmed[hashes..])
            } else if let Some(label) = label_line(trimmed) {
                (7, label)
            } else {
                continue;
            };
        while stack.last().is_some_and(|(l, _)| *l >= level) {
            stack.pop();
        }
        // A level-1 heading is the document's title (`# Test Case Writer`): it names the
        // skill, it does not label a section of it.
        let own = if level == 1 {
            None
        } else {
            role_of_heading(words)
        };
        let role = own.or_else(|| stack.iter().rev().find_map(|(_, r)| *r));
        stack.push((level, role));
        out.push(Heading {
            offset: start,
            role,
        });
    }
    out
}

/// A label line: the whole line in bold (`**Do not:**`), or a short line ending with a colon
/// (`Prohibited actions (DO NOT):`), as written in front of a list.
fn label_line(t: &str) -> Option<&str> {
    if t.len() < 3 || t.len() > 120 {
        return None;
    }
    let inner = t
        .strip_prefix("**")
        .and_then(|r| r.strip_suffix("**").or_else(|| r.strip_suffix("**:")))
        .or_else(|| {
            t.strip_prefix("__")
                .and_then(|r| r.strip_suffix("__").or_else(|| r.strip_suffix("__:")))
        });
    if let Some(i) = inner {
        return (!i.contains("**")).then_some(i);
    }
    let starts_list = t.starts_with(['-', '*', '+', '|', '>']) || t.as_bytes()[0].is_ascii_digit();
    (t.ends_with(':') && !starts_list && t.split_whitespace().count() <= 8).then_some(t)
}

/// The role of the section holding `offset`: the last heading at or before it, found by
/// binary search. A label line's scope ends at the next heading of any level.
pub fn section_role(headings: &[Heading], offset: usize) -> Option<SectionRole> {
    let i = headings.partition_point(|h| h.offset <= offset);
    headings.get(i.checked_sub(1)?)?.role
}

/// The role a table's column heading gives the cell at `offset`, when the line is a table
/// row: the header row is found by walking up the table (at most 200 lines, 64 KiB).
pub fn table_column_role(src: &Source<'_>, offset: usize) -> Option<SectionRole> {
    let text: &str = &src.text;
    let line = src.line_at(offset).trim_start();
    if !line.starts_with('|') {
        return None;
    }
    let mut start = src.lines.line_range(text, offset).start;
    let floor = start.saturating_sub(64 * 1024);
    let mut header = None;
    for _ in 0..200 {
        if start == 0 || start <= floor {
            break;
        }
        let prev = src.lines.line_range(text, start - 1);
        let l = text[prev.clone()].trim();
        if !l.starts_with('|') {
            break;
        }
        // The separator row (`|---|:--:|`) sits right under the header.
        if l.bytes()
            .all(|b| matches!(b, b'|' | b'-' | b':' | b' ' | b'\t'))
            && prev.start > 0
        {
            let h = src.lines.line_range(text, prev.start - 1);
            header = Some(text[h].to_owned());
            break;
        }
        start = prev.start;
    }
    let header = header?;
    // The column of the cell: count the pipes before the offset on its line.
    let row = src.lines.line_range(text, offset);
    let col = text[row.start..offset.max(row.start)]
        .trim_start()
        .matches('|')
        .count();
    let cell = header.trim().split('|').nth(col).unwrap_or("");
    role_of_heading(cell).or_else(|| role_of_heading(header.trim()))
}

/// The context role of `offset` in `src`: its table column, else its section. Prose, lists
/// and code blocks of a Markdown file alike; never for scripts or data files.
pub fn role_at(src: &Source<'_>, offset: usize) -> Option<SectionRole> {
    if src.lang != crate::security::model::Lang::Markdown {
        return None;
    }
    if let Some(r) = src.region_at(offset)
        && matches!(r.kind, RegionKind::Frontmatter)
    {
        return None;
    }
    table_column_role(src, offset).or_else(|| section_role(src.headings(), offset))
}

/// The ceiling the context of `offset` puts on a finding there, and why: a section or table
/// column that forbids, catalogues or tests what it lists (low), or a call into a remote
/// sandbox (low: what runs there does not run on the user's machine). `None`: the text is
/// what it says, and the rule's own severity stands.
pub fn ceiling(src: &Source<'_>, offset: usize) -> Option<(Severity, &'static str)> {
    if in_sandbox_call(&src.text, offset, 0) {
        return Some((
            Severity::Low,
            "an argument of a call into a remote sandbox or container API: it runs there, not on the user's machine",
        ));
    }
    role_at(src, offset).map(|r| (Severity::Low, r.reason()))
}

/// Applies [`ceiling`] to the finding just made (the one place context lowers a finding at
/// emission), through [`crate::security::severity::cap`].
pub fn apply_ceiling(src: &Source<'_>, offset: usize, f: &mut crate::finding::Finding) {
    if let Some((cap, why)) = ceiling(src, offset) {
        crate::security::severity::cap(f, cap, why);
    }
}

/// The span one act occupies around `offset`: the code block or script holding it, or its
/// prose paragraph (at most 2 KiB each way). Two signals are linked only when they share it.
pub fn link_unit(src: &Source<'_>, offset: usize) -> (usize, usize) {
    if let Some(r) = src.region_at(offset)
        && r.kind.is_code()
    {
        return (r.start, r.end);
    }
    let at = crate::text::floor_boundary(&src.text, offset);
    (
        crate::security::model::context::paragraph_start(&src.text, at, 2048),
        crate::security::model::context::paragraph_end(&src.text, at, 2048),
    )
}

/// Is `value` (a host, URL, key or path) a placeholder to fill in rather than a real one:
/// `your-…`, `<…>`, `{{…}}`, `xxxx`, `abc123`, `...`, an all-caps name (`PASSWORD`,
/// `ATTACKER_IP`)? Documentation hosts (`example.com`, `*.example`, 192.0.2.0/24) are not
/// placeholders: they stand for real hosts in examples and attacks alike.
pub fn is_placeholder(value: &str) -> bool {
    let v = value.trim().trim_matches(|c| matches!(c, '"' | '\'' | '`'));
    let lower = v.to_ascii_lowercase();
    if v.is_empty() {
        return false;
    }
    // `<your-host>`, `{{TOKEN}}`, `${PLACEHOLDER}` left as typed, `[id]`.
    if (v.contains('<') && v.contains('>')) || v.contains("{{") {
        return true;
    }
    // Words that say "fill this in".
    const FILL: &[&str] = &[
        "your-",
        "your_",
        "yourdomain",
        "your-domain",
        "yourcompany",
        "my-app",
        "placeholder",
        "replace-me",
        "replace_me",
        "changeme",
        "change-me",
        "xxxx",
        "abc123",
        "123abc",
        "aaaa...",
        "...",
        "…",
        "redacted",
        "dummy",
        "sample-",
        "fake-",
        "todo",
    ];
    if FILL.iter().any(|w| lower.contains(w)) {
        return true;
    }
    // An all-caps word standing for a value (`PASSWORD`, `ATTACKER_IP`, `API_KEY`).
    let bare = v.trim_start_matches('$');
    bare.len() >= 3
        && bare
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
        && bare.bytes().any(|b| b.is_ascii_uppercase())
}

/// Is the hit at `at` a call into a remote sandbox or container API, or an argument of one
/// (`sandbox.exec(`, `await sbx.files.write(`, `container.run(`)? Its line is read from the
/// start (at most 300 bytes back) to `lookahead` bytes past the hit, so a hit that *is* the
/// method (`writeFile(`) is seen too. What it writes or runs lands in that sandbox, not on
/// the user's machine.
pub fn in_sandbox_call(text: &str, at: usize, lookahead: usize) -> bool {
    use crate::text::{ceil_boundary, floor_boundary};
    static SANDBOX: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        crate::security::model::datarules::re(
            r"(?i)\b\w*(sandbox|sbx|container|e2b|daytona|devbox|codeinterpreter|code_interpreter)\w*\s*\.\s*(\w+\s*\.\s*){0,2}(exec|execute|run|run_code|runCode|spawn|writeFile|write|write_file|start|commands|process|files)\b[^\n]*$",
        )
    });
    let at = floor_boundary(text, at);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let from = ceil_boundary(text, line_start.max(at.saturating_sub(300)));
    let end = floor_boundary(text, (at + lookahead).min(line_end));
    SANDBOX.is_match(&text[from..end])
}

/// Does a command line install from its vendor's own index: a URL on it whose owner label
/// ([`crate::security::model::hosts::owner_labels`]) is a package named on the same line, or names the
/// skill's subject?
pub fn vendor_index(line: &str, subject: &str) -> bool {
    let words: Vec<String> = line
        .split(|c: char| {
            c.is_whitespace() || matches!(c, '[' | ']' | '=' | '<' | '>' | '"' | '\'' | ',')
        })
        .filter(|w| w.len() >= 4 && !w.contains("://") && !w.starts_with('-'))
        .map(|w| w.to_ascii_lowercase().replace('_', "-"))
        .collect();
    let mut rest = line;
    let mut seen = 0;
    while let Some(i) = rest.find("://") {
        seen += 1;
        if seen > 8 {
            break;
        }
        let start = rest[..i]
            .rfind(|c: char| !c.is_ascii_alphabetic())
            .map_or(0, |k| k + 1);
        let url: &str = rest[start..]
            .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')'))
            .next()
            .unwrap_or("");
        let labels = crate::security::model::hosts::owner_labels(url);
        if labels.iter().any(|l| words.iter().any(|w| w == l))
            || crate::security::model::hosts::url_matches_subject(subject, url)
        {
            return true;
        }
        rest = &rest[i + 3..];
    }
    false
}

/// Data files: a download with one of these extensions is read, not run.
pub fn is_data_file(name: &str) -> bool {
    const DATA: &[&str] = &[
        "png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "svg", "ico", "heic", "avif",
        "wav", "mp3", "flac", "ogg", "m4a", "aac", "mp4", "mov", "webm", "mkv", "avi", "json",
        "jsonl", "ndjson", "csv", "tsv", "parquet", "arrow", "feather", "pkl", "pickle", "npy",
        "npz", "h5", "hdf5", "xml", "yaml", "yml", "txt", "md", "pdf", "docx", "xlsx", "pptx",
        "html", "htm", "gz", "fasta", "fastq", "vcf", "bam", "sam", "pdb", "cif", "sdf", "mol",
        "mol2", "nc", "geojson", "shp", "sqlite", "db",
    ];
    name.rsplit_once('.')
        .is_some_and(|(_, e)| DATA.contains(&e.to_ascii_lowercase().as_str()))
}

/// The whitespace- or quote-delimited token around `at` (a URL, a path), at most 512 bytes
/// each way.
pub fn token_at(text: &str, at: usize) -> &str {
    use crate::text::{ceil_boundary, floor_boundary};
    let stop = |c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '(' | ')');
    let at = floor_boundary(text, at);
    let lo = ceil_boundary(text, at.saturating_sub(512));
    let hi = floor_boundary(text, at + 512);
    let start = text[lo..at].rfind(stop).map_or(lo, |i| lo + i + 1);
    let end = text[at..hi].find(stop).map_or(hi, |i| at + i);
    &text[start..end]
}

/// The configuration files a tool reads itself, which a skill about that tool reads as part of
/// its job: (the file in the hit, words of the skill's subject that name the tool). Only
/// configuration: the files that hold the secrets themselves (`~/.aws/credentials`, SSH
/// private keys, token caches, `.git-credentials`, `.npmrc`) are never a skill's to read.
const TOOL_STORES: &[(&[&str], &[&str])] = &[
    (
        &[".aws/config"],
        &[
            "aws",
            "amazon web services",
            "boto3",
            "s3 ",
            "ec2",
            "cloudformation",
        ],
    ),
    (
        &[".kube/config"],
        &["kubernetes", "k8s", "kubectl", "kube", "helm"],
    ),
];

/// Is reading the configuration this hit names the skill's own job: a skill about AWS reading
/// `~/.aws/config`, a Kubernetes skill reading `~/.kube/config`? Then the read alone is a note
/// (low), with the reason; a send of it is still correlated as exfiltration, and a secret
/// store (`~/.aws/credentials`, SSH keys) or another tool's file keeps its severity.
pub fn reads_its_own_tool_store(subject: &str, hit: &str) -> Option<&'static str> {
    let hit = hit.to_ascii_lowercase();
    let subject = format!(" {subject} ");
    TOOL_STORES
        .iter()
        .any(|(stores, tools)| {
            stores.iter().any(|s| hit.contains(s)) && tools.iter().any(|w| subject.contains(w))
        })
        .then_some(
            "the skill is about the tool whose credential store this is: reading its configuration is the skill's job",
        )
}

/// Does the skill say that scheduling or installing something to run again is its job (a
/// timer, a cron job, a service, a login item)? Then a persistence entry it writes is a note
/// (low), with the reason; one that itself talks to the network is still raised.
pub fn schedules_as_its_job(subject: &str) -> Option<&'static str> {
    const W: &[&str] = &[
        "timer",
        "cron",
        "schedul",
        "systemd",
        "launchd",
        "launch agent",
        "autostart",
        "startup item",
        "login item",
        "service unit",
        "daemon",
        "periodic",
    ];
    W.iter().any(|w| subject.contains(w)).then_some(
        "the skill's documented job is scheduling or installing something that runs again",
    )
}

/// Does the skill's description (or name) say that writing the file this hit names is its job?
/// The job must match the object: an identity file (`SOUL.md`, `IDENTITY.md`) is the job only
/// of a skill that says it shapes the agent's identity or persona (a notes skill that also
/// writes `SOUL.md` is poisoning it); instructions files (`CLAUDE.md`, `AGENTS.md`, which
/// Claude Code calls memory) of a skill that names them or memory; `MEMORY.md` of a skill
/// about memory, notes or learnings.
pub fn its_own_job(subject: &str, hit: &str) -> bool {
    let says = |words: &[&str]| words.iter().any(|w| subject.contains(w));
    const IDENTITY: &[&str] = &["soul.md", "identity.md", "heartbeat.md"];
    const INSTRUCTIONS: &[&str] = &[
        "claude.md",
        "agents.md",
        "gemini.md",
        "copilot-instructions",
        ".cursorrules",
        ".windsurfrules",
        ".clinerules",
        ".claude/settings",
    ];
    if IDENTITY.iter().any(|f| hit.contains(f)) {
        return says(&["soul", "identity", "persona", "personality", "heartbeat"]);
    }
    if INSTRUCTIONS.iter().any(|f| hit.contains(f)) {
        return says(&[
            "agents.md",
            "claude.md",
            "gemini.md",
            "instructions file",
            "copilot-instructions",
            "cursorrules",
            "rules file",
            // Claude Code calls its CLAUDE.md files memory (`/memory`, auto-memory).
            "memory",
        ]);
    }
    says(&[
        "memory",
        "remember",
        "learnings",
        "lessons learned",
        "journal",
        "progress file",
        "notes file",
        "session notes",
        "running notes",
        "persistent context",
        "knowledge base",
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(t: &str) -> Vec<Option<SectionRole>> {
        headings(t, |_| false).into_iter().map(|h| h.role).collect()
    }

    #[test]
    fn heading_roles_inherit_and_reset() {
        let t = "# Guide\n## Prohibited actions (DO NOT)\n- rm -rf /\n### Files\nx\n## Setup\ny\n";
        assert_eq!(
            roles(t),
            vec![
                None,
                Some(SectionRole::Forbids),
                Some(SectionRole::Forbids),
                None
            ]
        );
        let hs = headings(t, |_| false);
        assert_eq!(
            section_role(&hs, t.find("rm -rf").unwrap()),
            Some(SectionRole::Forbids)
        );
        assert_eq!(section_role(&hs, t.find("y\n").unwrap()), None);
    }

    #[test]
    fn label_lines_and_catalogues() {
        let t = "Intro.\n\n**Payloads to reject:**\n- `; rm -rf /`\n\n## What to look for\n`subprocess.call(x, shell=True)`\n## Usage\nRun it.\n";
        let hs = headings(t, |_| false);
        assert_eq!(
            section_role(&hs, t.find("; rm").unwrap()),
            Some(SectionRole::Catalogues)
        );
        assert_eq!(
            section_role(&hs, t.find("subprocess").unwrap()),
            Some(SectionRole::Catalogues)
        );
        assert_eq!(section_role(&hs, t.find("Run it").unwrap()), None);
    }

    #[test]
    fn an_ordinary_heading_has_no_role() {
        for h in [
            "Installation",
            "Examples",
            "Quick start",
            "Deploy to production",
            "Uploading files",
            "Notes",
        ] {
            assert_eq!(role_of_heading(h), None, "{h}");
        }
        assert_eq!(role_of_heading("Don't"), Some(SectionRole::Forbids));
        assert_eq!(
            role_of_heading("Common attack patterns"),
            Some(SectionRole::Catalogues)
        );
    }

    #[test]
    fn headings_in_code_blocks_are_not_headings() {
        let t = "```\n# Never do this\nrm -rf /\n```\n";
        let hs = headings(t, |o| o < t.len() - 4 && o > 0);
        assert!(hs.is_empty(), "{hs:?}");
    }

    #[test]
    fn placeholders() {
        for d in [
            "http://192.0.2.10/x",
            "https://api.example.com/v1",
            "x.example",
        ] {
            assert!(!is_placeholder(d), "{d}");
        }
        for p in [
            "https://webhook.site/your-uuid",
            "https://abc123.ngrok.io/hook",
            "<YOUR_HOST>",
            "ssh-rsa AAAA...",
            "PASSWORD",
            "ATTACKER_IP",
            "https://xxxx.ngrok-free.app",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for r in [
            "https://webhook.site/8f14e45f-ceea-467f-a0e6-0b3c1d2a9f10",
            "https://collector.evil-analytics.net/u",
            "http://45.33.12.8/x",
            "hunter2",
            "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7",
        ] {
            assert!(!is_placeholder(r), "{r}");
        }
    }
}
