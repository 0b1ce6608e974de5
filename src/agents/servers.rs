//! The MCP servers and hooks an agent declares in its frontmatter, read as the commands they
//! are. A server's `command`/`args`, a hook's `command` (and its per-shell variants) and every
//! `url` are laid out at their own line and column of the agent file, every other byte blank,
//! and that overlay goes through the security engine as a shell script: the same reading a
//! `.mcp.json` or `hooks/hooks.json` gets ([`super::commands::overlay`]). Each server, in the
//! map form (`{name: {command, …}}`) and the list form (`[{name, url, …}]`), also gets the
//! transport and pinning checks of a JSON configuration ([`super::server_checks`]).
//!
//! A plugin agent's `mcpServers` and `hooks` are ignored by Claude Code (no server starts, no
//! hook runs), so they are not read.

use std::borrow::Cow;

use crate::conventions::Format;
use crate::finding::{Finding, Location, Severity};
use crate::inventory::{FileEntry, FileKind};
use crate::parse::yaml::{Node, NodeKind, Style};
use crate::rules::{Cx, SkillDoc};
use crate::security::families::execution::FRONTMATTER_HOOKS;
use crate::security::{Lang, SecCx, Source};

/// Keys of a hook whose values are command lines besides [`super::commands::COMMAND_KEYS`]:
/// VS Code's per-platform variants.
const HOOK_COMMAND_KEYS: &[&str] = &["windows", "linux", "osx"];

/// One string of the frontmatter to lay out: where its text starts in the file (1-based line,
/// 1-based column in characters) and the text.
struct Placed {
    line: usize,
    col: usize,
    text: String,
    /// The string is a script of its own (the argument after `-c`): it starts a new shell
    /// statement instead of continuing the previous string's command line.
    stmt: bool,
}

/// Options after which a shell or interpreter takes a whole command line as one argument.
const SCRIPT_FLAGS: &[&str] = &["-c", "/c", "/C", "-Command", "-command", "-e"];

/// Checks the servers and hooks of an agent's frontmatter (see the module documentation).
pub fn check(cx: &mut Cx<'_>, doc: &SkillDoc, files: &[FileEntry], format: Format) {
    if !format.is_agent() {
        return;
    }
    let Some(root) = doc.root() else { return };
    let plugin = format == Format::PluginAgent;
    let mut placed: Vec<Placed> = Vec::new();
    for key in ["mcp-servers", "mcpServers"] {
        if plugin && key == "mcpServers" {
            continue;
        }
        let Some(servers) = root.get(key) else {
            continue;
        };
        for (name, cfg, at) in servers_of(servers) {
            let (l, c) = doc.file_pos(at.pos);
            let loc = Location::at(cx.entry_path.clone(), l, c);
            super::server_checks(cx, &name, &cfg.to_json(), loc);
            collect(doc, cfg, &[], &mut placed);
        }
    }
    let hooks = (!plugin).then(|| root.get("hooks")).flatten();
    let hooks_from = placed.len();
    if let Some(h) = hooks {
        collect(doc, h, HOOK_COMMAND_KEYS, &mut placed);
    }
    if placed.is_empty() {
        return;
    }
    for p in &placed {
        let loc = Location::at(cx.entry_path.clone(), p.line as u32, p.col as u32);
        super::commands::report_overlong(cx, p.text.chars().count(), loc);
    }
    let hook_lines: Vec<usize> = placed[hooks_from..].iter().map(|p| p.line).collect();
    let Some(fe) = files.first() else { return };
    let overlay = lay_out(&doc.text, placed);
    // A run of its own: the engine's last steps merge and reorder the findings of the run,
    // and the agent's earlier findings are not the overlay's to merge.
    let mut own = Cx {
        skill: cx.skill,
        skill_path: cx.skill_path,
        dir_name: cx.dir_name,
        entry_path: cx.entry_path.clone(),
        files: cx.files,
        findings: Vec::new(),
    };
    {
        let rel = own.entry_path.clone();
        let mut scx = SecCx::new(&mut own, None, Vec::new());
        scx.sources.push(Source::new(
            fe.path.as_str(),
            rel,
            FileKind::Script,
            Lang::Shell,
            false,
            Cow::Owned(overlay),
            false,
        ));
        crate::security::analyze(&mut scx);
    }
    settle(&mut cx.findings, own.findings, &hook_lines);
}

/// The servers of an `mcp-servers`/`mcpServers` value: `(name, configuration, node to report
/// at)`. The map form is reported at the server's key, the list form at its `name` (or at the
/// entry when it has none).
fn servers_of(n: &Node) -> Vec<(String, &Node, &Node)> {
    match &n.kind {
        NodeKind::Map { entries, .. } => entries
            .iter()
            .filter_map(|(k, v)| k.as_str().map(|name| (name.to_owned(), v, k)))
            .collect(),
        NodeKind::Seq { items, .. } => items
            .iter()
            .enumerate()
            .filter(|(_, item)| matches!(item.kind, NodeKind::Map { .. }))
            .map(|(i, item)| match item.get("name") {
                Some(nm) if nm.as_str().is_some() => {
                    (nm.as_str().unwrap_or_default().to_owned(), item, nm)
                }
                _ => (format!("#{}", i + 1), item, item),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Every command line and URL under `n`: the string values (or list elements) of the command
/// keys, `extra` keys and `url`. Recursion is bounded by the YAML parser's depth budget.
fn collect(doc: &SkillDoc, n: &Node, extra: &[&str], out: &mut Vec<Placed>) {
    match &n.kind {
        NodeKind::Map { entries, .. } => {
            for (k, v) in entries {
                let is_cmd = k.as_str().is_some_and(|k| {
                    super::commands::COMMAND_KEYS.contains(&k) || extra.contains(&k) || k == "url"
                });
                if !is_cmd {
                    collect(doc, v, extra, out);
                    continue;
                }
                match &v.kind {
                    NodeKind::Seq { items, .. } => {
                        let mut script = false;
                        for item in items {
                            place(doc, item, script, out);
                            script = item.as_str().is_some_and(|a| SCRIPT_FLAGS.contains(&a));
                        }
                    }
                    _ => place(doc, v, false, out),
                }
            }
        }
        NodeKind::Seq { items, .. } => items.iter().for_each(|i| collect(doc, i, extra, out)),
        NodeKind::Scalar { .. } => {}
    }
}

/// Lays out one string scalar at the place of its text: after the quote of a quoted scalar;
/// a literal block (`|`) line by line, each line at the first character of its source line;
/// a folded block (`>`) on the line after its indicator.
fn place(doc: &SkillDoc, n: &Node, stmt: bool, out: &mut Vec<Placed>) {
    let NodeKind::Scalar { style, .. } = &n.kind else {
        return;
    };
    let Some(text) = n.as_str() else { return };
    if text.trim().is_empty() {
        return;
    }
    let (line, col) = doc.file_pos(n.pos);
    let (line, col) = (line as usize, col as usize);
    match style {
        Style::Plain => out.push(Placed {
            line,
            col,
            text: text.to_owned(),
            stmt,
        }),
        Style::SingleQuoted | Style::DoubleQuoted => out.push(Placed {
            line,
            col: col + 1,
            text: text.to_owned(),
            stmt,
        }),
        Style::Literal | Style::Folded => {
            let parts: Vec<&str> = if *style == Style::Literal {
                text.lines().collect()
            } else {
                vec![text]
            };
            // The parser places a block scalar at its indicator or at its first line of
            // content: start where the first line of content is.
            let first = parts.iter().map(|p| p.trim()).find(|p| !p.is_empty());
            let on_line = source_line(doc, line)
                .is_some_and(|l| first.is_some_and(|f| l.trim_start().starts_with(f)));
            let start = if on_line { line } else { line + 1 };
            for (i, part) in parts.into_iter().enumerate() {
                let at = start + i;
                let Some(src) = source_line(doc, at) else {
                    break;
                };
                let indent = src.chars().take_while(|c| *c == ' ' || *c == '\t').count();
                let part = part.trim_start();
                if !part.is_empty() {
                    out.push(Placed {
                        line: at,
                        col: indent + 1,
                        text: part.to_owned(),
                        stmt,
                    });
                }
            }
        }
    }
}

/// The text of the file's 1-based line `line`, without its line break.
fn source_line(doc: &SkillDoc, line: usize) -> Option<&str> {
    let start = doc.lines.line_start(line)?;
    let rest = doc.text.get(start..)?;
    Some(rest.split('\n').next().unwrap_or("").trim_end_matches('\r'))
}

/// The overlay: as many lines as `text`, each holding the strings placed on it at their
/// columns (a later string on the same line joins with one space at least, or `;` when it is
/// a script of its own), every other
/// character blank. Linear in the text and the strings; one overlay line is bounded.
fn lay_out(text: &str, mut placed: Vec<Placed>) -> String {
    placed.sort_by_key(|p| (p.line, p.col));
    let lines = text.split_inclusive('\n').count().max(1);
    let mut out = String::with_capacity(text.len());
    let mut k = 0;
    for line in 1..=lines {
        let mut width = 0usize;
        while k < placed.len() && placed[k].line <= line {
            let p = &placed[k];
            k += 1;
            if p.line < line {
                continue;
            }
            let want = p.col.saturating_sub(1);
            let pad = if width == 0 {
                want
            } else {
                want.saturating_sub(width).max(1)
            };
            if width + pad >= super::commands::MAX_LINE {
                continue;
            }
            // A script of its own starts a statement: `;` in the blank before it, at the
            // same width, so every column stays.
            if p.stmt && width > 0 {
                out.push(';');
                out.extend(std::iter::repeat_n(' ', pad - 1));
            } else {
                out.extend(std::iter::repeat_n(' ', pad));
            }
            width += pad;
            for c in p.text.chars() {
                if width >= super::commands::MAX_LINE {
                    break;
                }
                out.push(if c == '\n' || c == '\r' { ';' } else { c });
                width += 1;
            }
        }
        out.push('\n');
    }
    out
}

/// One cause, one finding: of the overlay's findings (`tail`), those the agent's own
/// scan already reported (same rule and place) go. When a hook's command has a finding of its
/// own (high or critical), the `frontmatter-hooks` finding no longer repeats why the command
/// is dangerous: it keeps the cause that is its own, hooks that run without asking (medium).
fn settle(findings: &mut Vec<Finding>, mut tail: Vec<Finding>, hook_lines: &[usize]) {
    tail.retain(|f| {
        // The servers are the agent's configuration, reported by the checks above; "starts an
        // MCP server" is what they are, as for a `.mcp.json`.
        f.rule_id != crate::security::families::permissions::MCP_SERVER_REFERENCE
            && !findings.iter().any(|g| {
                g.rule_id == f.rule_id
                    && g.location.line == f.location.line
                    && g.location.column == f.location.column
            })
    });
    let hook_cmd_flagged = tail.iter().any(|f| {
        f.severity >= Severity::High
            && f.location
                .line
                .is_some_and(|l| hook_lines.contains(&(l as usize)))
    });
    if hook_cmd_flagged
        && let Some(h) = findings.iter_mut().find(|f| f.rule_id == FRONTMATTER_HOOKS)
        && h.severity > Severity::Medium
    {
        h.severity = Severity::Medium;
        h.message = h.message.replace(
            crate::security::families::execution::HOOK_DANGEROUS_WHY,
            " The command's own finding says what it does.",
        );
    }
    findings.append(&mut tail);
}
