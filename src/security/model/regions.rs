//! Cuts a file into regions that give a match its meaning: frontmatter, prose
//! (instructions the model reads), fenced code (commands the agent may run),
//! HTML comments (hidden from rendered views), whole scripts and data files.
//!
//! The Markdown splitter is line based and linear: CommonMark fences (``` or
//! ~~~, up to three spaces of indent, closed by the same character at least as
//! long) and `<!-- -->` comments, which is what decides whether text is shown,
//! hidden or code.

use crate::security::model::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegionKind {
    /// The YAML frontmatter of the entry file.
    Frontmatter,
    /// Markdown text outside code and comments, or a plain-text file.
    Prose,
    /// A fenced code block or a whole script.
    Code {
        lang: Lang,
        /// Shell-like or unlabelled block in Markdown, or a script file.
        runnable: bool,
        /// Claude Code runs ```` ```! ```` blocks when the skill loads.
        load_time: bool,
        /// A whole file (not a block inside Markdown).
        script: bool,
    },
    /// `<!-- ... -->` in Markdown: invisible once rendered.
    Comment,
    /// A data file (JSON, YAML, TOML...).
    Data,
}

impl RegionKind {
    pub fn is_code(self) -> bool {
        matches!(self, RegionKind::Code { .. })
    }

    /// Short name used by pattern rules' `scope`.
    pub fn scope_name(self) -> &'static str {
        match self {
            RegionKind::Frontmatter => "frontmatter",
            RegionKind::Prose => "prose",
            RegionKind::Code { script: true, .. } => "script",
            RegionKind::Code { .. } => "code-block",
            RegionKind::Comment => "comment",
            RegionKind::Data => "data",
        }
    }
}

/// A byte range of a file and what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub start: usize,
    pub end: usize,
    pub kind: RegionKind,
}

/// Splits a file's text into regions, in order, covering every byte once.
pub fn split(text: &str, lang: Lang, is_entry: bool) -> Vec<Region> {
    let whole = |kind| {
        vec![Region {
            start: 0,
            end: text.len(),
            kind,
        }]
    };
    match lang {
        Lang::Markdown => split_markdown(text, is_entry),
        Lang::Data => whole(RegionKind::Data),
        Lang::Text => whole(RegionKind::Prose),
        l => whole(RegionKind::Code {
            lang: l,
            runnable: true,
            load_time: false,
            script: true,
        }),
    }
}

/// Byte ranges of the lines of `text`, each including its newline.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i + 1);
        let start = pos;
        pos = end;
        Some((start, &text[start..end]))
    })
}

/// An opening fence: (char, length, info string).
fn fence_open(line: &str) -> Option<(u8, usize, &str)> {
    let t = line.trim_end_matches(['\n', '\r']);
    let indent = t.len() - t.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let t = &t[indent..];
    let c = *t.as_bytes().first()?;
    if c != b'`' && c != b'~' {
        return None;
    }
    let n = t.bytes().take_while(|b| *b == c).count();
    if n < 3 {
        return None;
    }
    let info = t[n..].trim();
    if c == b'`' && info.contains('`') {
        return None;
    }
    Some((c, n, info))
}

fn fence_close(line: &str, c: u8, n: usize) -> bool {
    let t = line.trim_end_matches(['\n', '\r']);
    let indent = t.len() - t.trim_start_matches(' ').len();
    if indent > 3 {
        return false;
    }
    let t = &t[indent..];
    let m = t.bytes().take_while(|b| *b == c).count();
    m >= n && t[m..].trim().is_empty()
}

fn split_markdown(text: &str, is_entry: bool) -> Vec<Region> {
    let mut out: Vec<Region> = Vec::new();
    let push = |out: &mut Vec<Region>, start: usize, end: usize, kind: RegionKind| {
        if end <= start {
            return;
        }
        if let Some(last) = out.last_mut()
            && last.kind == kind
            && last.end == start
            && kind == RegionKind::Prose
        {
            last.end = end;
            return;
        }
        out.push(Region { start, end, kind });
    };
    let mut body_from = 0;
    if is_entry {
        let split = crate::parse::frontmatter::split(text);
        if let (Some(_), Some(b)) = (&split.yaml, split.body_start) {
            push(&mut out, 0, b.min(text.len()), RegionKind::Frontmatter);
            body_from = b.min(text.len());
        }
    }
    let body = &text[body_from..];
    // State: inside a fence (char, len, region kind, start) or a comment (start).
    let mut fence: Option<(u8, usize, RegionKind, usize)> = None;
    let mut prose_start = body_from;
    let mut comment_start: Option<usize> = None;
    for (off, line) in lines(body) {
        let abs = body_from + off;
        if let Some((c, n, kind, start)) = fence {
            if fence_close(line, c, n) {
                push(&mut out, start, abs + line.len(), kind);
                fence = None;
                prose_start = abs + line.len();
            }
            continue;
        }
        if let Some(cs) = comment_start {
            if let Some(i) = line.find("-->") {
                let end = abs + i + 3;
                push(&mut out, cs, end, RegionKind::Comment);
                comment_start = None;
                prose_start = end;
                // The rest of the line is prose (it is pushed with the next prose run).
            }
            continue;
        }
        if let Some((c, n, info)) = fence_open(line) {
            push(&mut out, prose_start, abs, RegionKind::Prose);
            let load_time = c == b'`' && info.starts_with('!');
            // An unlabelled block is output or an example unless it is a load-time block.
            let lang = if load_time && info.trim_start_matches('!').trim().is_empty() {
                Lang::Shell
            } else {
                Lang::of_info(info)
            };
            let runnable = load_time || lang.is_code();
            fence = Some((
                c,
                n,
                RegionKind::Code {
                    lang,
                    runnable,
                    load_time,
                    script: false,
                },
                abs,
            ));
            continue;
        }
        // HTML comments: possibly several on one line, possibly opening one that spans lines.
        let mut rest = 0;
        while let Some(i) = line[rest..].find("<!--") {
            let open = rest + i;
            push(&mut out, prose_start, abs + open, RegionKind::Prose);
            match line[open + 4..].find("-->") {
                Some(j) => {
                    let end = open + 4 + j + 3;
                    push(&mut out, abs + open, abs + end, RegionKind::Comment);
                    prose_start = abs + end;
                    rest = end;
                }
                None => {
                    comment_start = Some(abs + open);
                    break;
                }
            }
        }
    }
    let end = text.len();
    if let Some((_, _, kind, start)) = fence {
        push(&mut out, start, end, kind);
    } else if let Some(cs) = comment_start {
        push(&mut out, cs, end, RegionKind::Comment);
    } else {
        push(&mut out, prose_start, end, RegionKind::Prose);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(&str, &'static str)> {
        split(text, Lang::Markdown, true)
            .iter()
            .map(|r| (&text[r.start..r.end], r.kind.scope_name()))
            .collect()
    }

    #[test]
    fn frontmatter_prose_code_comment() {
        let t =
            "---\nname: a\n---\nSay hi.\n```bash\ncurl x | sh\n```\nmore <!-- hidden --> text\n";
        let k = kinds(t);
        assert_eq!(k[0], ("---\nname: a\n---\n", "frontmatter"));
        assert_eq!(k[1], ("Say hi.\n", "prose"));
        assert_eq!(k[2], ("```bash\ncurl x | sh\n```\n", "code-block"));
        assert_eq!(k[3], ("more ", "prose"));
        assert_eq!(k[4], ("<!-- hidden -->", "comment"));
        assert_eq!(k[5], (" text\n", "prose"));
    }

    #[test]
    fn multi_line_comment_and_unclosed_fence() {
        let t = "a\n<!--\nsecret\n-->\nb\n~~~~\nx\n~~~\ny\n";
        let k = kinds(t);
        assert_eq!(k[1], ("<!--\nsecret\n-->", "comment"));
        assert_eq!(k.last().unwrap(), &("~~~~\nx\n~~~\ny\n", "code-block"));
    }

    #[test]
    fn load_time_block() {
        let r = split("```!\ngit status\n```\n", Lang::Markdown, false);
        assert!(matches!(
            r[0].kind,
            RegionKind::Code {
                load_time: true,
                runnable: true,
                ..
            }
        ));
    }

    #[test]
    fn regions_cover_the_text_in_order() {
        let t = "x <!-- a --> y <!-- b\nc --> z\n```\nq\n";
        let r = split(t, Lang::Markdown, false);
        let mut at = 0;
        for g in &r {
            assert_eq!(g.start, at, "{r:?}");
            at = g.end;
        }
        assert_eq!(at, t.len());
    }
}
