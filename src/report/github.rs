//! GitHub Actions renderer (`--format github`): one workflow command per finding,
//! `::error file=…,line=…,col=…,title=…::message`, which the runner turns into an annotation
//! on the file and line of the pull request.
//!
//! Severity to command: critical and high → `error`, medium → `warning`, low and info →
//! `notice`. The most severe findings come first, because GitHub shows only the first few
//! annotations of each kind per step.
//!
//! Scanned text is hostile. Every value is first [`sanitize`]d (control characters, bidi
//! controls and invisible characters become visible `\u{…}` escapes, so nothing can drive the
//! log viewer), then escaped the way the runner unescapes it: `%` → `%25`, CR → `%0D`, LF →
//! `%0A` everywhere, and in properties also `:` → `%3A` and `,` → `%2C`. A message that
//! contains a line break followed by `::error::` therefore stays on its own command's line
//! and can never start a second command.

use std::io::{self, Write};

use super::{RenderOptions, VERSION};
use crate::finding::{Finding, Severity};
use crate::result::ScanResult;
use crate::text::sanitize;

/// The workflow command for a severity.
pub fn command(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "notice",
    }
}

/// Escapes a command's message (the part after `::`).
pub fn escape_data(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    // CR is split off first: `sanitize` would show it as `\u{000D}`, the runner wants `%0D`.
    for (i, part) in s.split('\r').enumerate() {
        if i > 0 {
            out.push_str("%0D");
        }
        for c in sanitize(part).chars() {
            match c {
                '%' => out.push_str("%25"),
                '\n' => out.push_str("%0A"),
                _ => out.push(c),
            }
        }
    }
    out
}

/// Escapes a property value (`file=`, `title=`): as [`escape_data`], plus `:` and `,`.
pub fn escape_property(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in escape_data(s).chars() {
        match c {
            ':' => out.push_str("%3A"),
            ',' => out.push_str("%2C"),
            _ => out.push(c),
        }
    }
    out
}

/// A writer that keeps text from starting a workflow command: a line whose first
/// non-blank characters are `::` (the runner trims leading blanks before it looks) gets its
/// first `:` written `%3A`, as [`escape_property`] writes it. Console output and notes pass
/// through it, so a scanned folder named `::warning file=x::…` is shown, never run, in a CI
/// log. One pass over the bytes, one byte of state carried between writes.
pub struct CommandGuard<W: Write> {
    inner: W,
    state: Guard,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Guard {
    /// At a line's start, or after blanks only.
    LineStart,
    /// After blanks and one `:` (held back).
    Colon,
    /// Inside a line.
    Rest,
}

impl<W: Write> CommandGuard<W> {
    pub fn new(inner: W) -> Self {
        CommandGuard {
            inner,
            state: Guard::LineStart,
        }
    }
}

impl<W: Write> Write for CommandGuard<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut out = Vec::with_capacity(buf.len() + 4);
        for &b in buf {
            self.state = match (self.state, b) {
                (_, b'\n') => {
                    if self.state == Guard::Colon {
                        out.push(b':');
                    }
                    out.push(b);
                    Guard::LineStart
                }
                (Guard::LineStart, b' ' | b'\t' | b'\r') => {
                    out.push(b);
                    Guard::LineStart
                }
                (Guard::LineStart, b':') => Guard::Colon,
                (Guard::Colon, b':') => {
                    out.extend_from_slice(b"%3A:");
                    Guard::Rest
                }
                (Guard::Colon, _) => {
                    out.push(b':');
                    out.push(b);
                    Guard::Rest
                }
                (_, _) => {
                    out.push(b);
                    Guard::Rest
                }
            };
        }
        self.inner.write_all(&out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.state == Guard::Colon {
            self.inner.write_all(b":")?;
            self.state = Guard::Rest;
        }
        self.inner.flush()
    }
}

/// A finding's path as GitHub wants it: relative, with `/`, no leading `./`; `None` for the
/// scanned root itself (an annotation without a file).
fn annotation_path(path: &str) -> Option<String> {
    let p = path.replace('\\', "/");
    let mut p = p.as_str();
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    let p = p.trim_start_matches('/');
    (!p.is_empty() && p != ".").then(|| p.to_owned())
}

/// The workflow command (one line, without its line end) for one finding.
pub fn annotation(f: &Finding) -> String {
    let mut props = Vec::with_capacity(4);
    if let Some(p) = annotation_path(&f.location.path) {
        props.push(format!("file={}", escape_property(&p)));
        if let Some(l) = f.location.line {
            props.push(format!("line={l}"));
            if let Some(c) = f.location.column {
                props.push(format!("col={c}"));
            }
        }
    }
    props.push(format!(
        "title={}",
        escape_property(&format!(
            "skillguard {} ({})",
            f.rule_id,
            f.severity.as_str()
        ))
    ));
    let mut message = f.message.clone();
    for r in &f.related {
        message.push_str(&format!("\nrelated: {} ({})", r.location, r.message));
    }
    for c in &f.consequences {
        let who = c
            .profile
            .as_deref()
            .map(|p| format!(" ({p})"))
            .unwrap_or_default();
        message.push_str(&format!(
            "\nconsequence: {} {}{who}: {}",
            c.severity.as_str(),
            c.rule_id,
            c.message
        ));
    }
    format!(
        "::{} {}::{}",
        command(f.severity),
        props.join(","),
        escape_data(&message)
    )
}

pub fn render(r: &ScanResult, opts: &RenderOptions, out: &mut dyn Write) -> io::Result<()> {
    // Most severe first (stable: the report's order within a severity).
    let mut findings: Vec<&Finding> = r.findings.iter().collect();
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let mut cap = super::summary::Cap::new(opts.max_per_rule);
    for f in findings {
        if cap.admit(f) {
            writeln!(out, "{}", annotation(f))?;
        }
    }
    // A plain log line (our own words, rule ids and numbers only).
    if let Some(n) = cap.note() {
        writeln!(out, "skillguard: {n}")?;
    }
    let c = r.counts();
    let total = c.info + c.low + c.medium + c.high + c.critical;
    let gate = opts
        .fail_on
        .map(|t| {
            let n = r.findings.iter().filter(|f| f.severity >= t).count();
            format!("; {n} at or above --fail-on {}", t.as_str())
        })
        .unwrap_or_default();
    // Suppressed and accepted findings get no annotation; the summary counts them.
    let suppressed = match r.suppressed.len() {
        0 => String::new(),
        n => format!("; {n} suppressed or accepted (not annotated)"),
    };
    // A plain log line (not a command): our own words and numbers only.
    writeln!(
        out,
        "skillguard {VERSION}: {} skill(s), {total} finding(s): {} critical, {} high, {} medium, {} low, {} info{gate}{suppressed}",
        r.artifacts.len(),
        c.critical,
        c.high,
        c.medium,
        c.low,
        c.info
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Location, Related};

    fn finding(path: &str, line: Option<u32>, col: Option<u32>, message: &str) -> Finding {
        let loc = Location {
            path: path.into(),
            line,
            column: col,
        };
        Finding::new("fetch-then-execute", message, loc).with_severity(Severity::High)
    }

    #[test]
    fn severities_map_to_commands() {
        assert_eq!(command(Severity::Critical), "error");
        assert_eq!(command(Severity::High), "error");
        assert_eq!(command(Severity::Medium), "warning");
        assert_eq!(command(Severity::Low), "notice");
        assert_eq!(command(Severity::Info), "notice");
    }

    #[test]
    fn escaping_follows_the_runner() {
        assert_eq!(escape_data("100% a\r\nb"), "100%25 a%0D%0Ab");
        assert_eq!(escape_data("a::b, c"), "a::b, c");
        assert_eq!(escape_property("a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
        // Already-escaped text is escaped again, not passed through.
        assert_eq!(escape_data("%0A::error::x"), "%250A::error::x");
        // Control characters other than line ends become visible escapes.
        assert_eq!(escape_data("a\u{1b}[31mb"), "a\\u{001B}[31mb");
        assert_eq!(escape_data("a\u{202E}b"), "a\\u{202E}b");
    }

    #[test]
    fn annotation_has_file_line_col_and_title() {
        let f = finding("skills/x/SKILL.md", Some(16), Some(3), "curl | sh");
        assert_eq!(
            annotation(&f),
            "::error file=skills/x/SKILL.md,line=16,col=3,title=skillguard fetch-then-execute (high)::curl | sh"
        );
        let f = finding("./skills/x/run.sh", Some(2), None, "m");
        assert!(annotation(&f).starts_with("::error file=skills/x/run.sh,line=2,title="));
        let f = finding(".", None, None, "m");
        assert!(annotation(&f).starts_with("::error title="));
    }

    #[test]
    fn hostile_text_cannot_start_a_second_command() {
        let mut f = finding(
            "skills/a,line=1::\n::error::x/SKILL.md",
            Some(1),
            Some(1),
            "innocent\n::error file=README.md::pwned\r\n::add-mask::x %0A::stop-commands::t",
        );
        f.related.push(Related {
            location: Location::file("skills/b\n::warning::y"),
            message: "r\n::notice::z".into(),
        });
        let a = annotation(&f);
        assert!(!a.contains('\n') && !a.contains('\r'), "{a}");
        // The only `::` command start is the first one; the file property cannot end early.
        assert!(a.starts_with("::error file=skills/a%2Cline=1%3A%3A%0A%3A%3Aerror%3A%3Ax/SKILL.md,line=1,col=1,title="), "{a}");
        assert!(a.contains("::innocent%0A::error file=README.md::pwned%0D%0A::add-mask::x %250A::stop-commands::t%0Arelated: skills/b%0A::warning::y (r%0A::notice::z)"), "{a}");
    }
}
