//! The `SKILL.md` body through comrak: headings, links, images, inline code and
//! code blocks, each with its position in the file.

use comrak::nodes::NodeValue;
use comrak::{Arena, Options, parse_document};

use crate::text::{LineIndex, ceil_boundary, floor_boundary};

/// A position in the file: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    pub line: u32,
    pub column: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub level: u8,
    pub text: String,
    pub at: At,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub url: String,
    pub image: bool,
    pub at: At,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    pub info: String,
    pub literal: String,
    pub fenced: bool,
    pub at: At,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineCode {
    pub literal: String,
    pub at: At,
}

/// What the rules need from a Markdown body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Body {
    pub headings: Vec<Heading>,
    pub links: Vec<Link>,
    pub code_blocks: Vec<CodeBlock>,
    pub inline_code: Vec<InlineCode>,
}

/// Bodies longer than this are parsed in pieces of at most this many bytes (see
/// [`pieces`]): comrak keeps every node of a document until the parse ends, at up to a few
/// hundred bytes per node, and a file of short lines or of brackets has a node every byte
/// or two. A piece bounds that memory per parse (docs/performance.md, "Memory").
pub const PIECE: usize = 128 * 1024;

/// At most this many link reference definitions are carried from one piece to the others.
const MAX_DEFINITIONS: usize = 10_000;

fn options<'c>() -> Options<'c> {
    let mut options = Options::default();
    options.extension.autolink = true;
    options.extension.table = true;
    options.extension.strikethrough = true;
    options
}

/// Parses `body`, whose first line is line `first_line` of the file: whole, or in pieces
/// when it is longer than [`PIECE`].
pub fn parse(body: &str, first_line: u32) -> Body {
    if body.len() <= PIECE {
        parse_whole(body, first_line)
    } else {
        parse_in_pieces(body, first_line)
    }
}

fn parse_whole(body: &str, first_line: u32) -> Body {
    let mut out = Body::default();
    let lines = LineIndex::new(body);
    let arena = Arena::new();
    let root = parse_document(&arena, body, &options());
    let offset = first_line.saturating_sub(1);
    collect(root, &mut out, |line, col| {
        // comrak columns count bytes; reports count code points.
        let column = match lines.line_start(line) {
            Some(start) => lines.position(body, start + col - 1).1,
            None => col as u32,
        };
        At {
            line: line as u32 + offset,
            column,
        }
    });
    out
}

fn parse_in_pieces(body: &str, first_line: u32) -> Body {
    let mut out = Body::default();
    // A reference defined in one piece and used in another still resolves.
    let definitions = std::sync::Arc::new(reference_definitions(body));
    let mut opts = options();
    opts.parse.broken_link_callback = Some(std::sync::Arc::new(
        move |r: comrak::options::BrokenLinkReference<'_>| {
            definitions
                .get(&normalize_label(r.normalized))
                .map(|url| comrak::ResolvedReference {
                    url: url.clone(),
                    title: String::new(),
                })
        },
    ));
    // Where the current piece starts in the body: its 1-based line and the code points
    // before it on that line, counted on from piece to piece (no index of the whole body:
    // a body of newlines would make one of 8 bytes per byte).
    let (mut at, mut line, mut col0) = (0usize, 1u32, 0usize);
    for piece in pieces(body) {
        let between = &body[at..piece.start];
        match memchr::memrchr(b'\n', between.as_bytes()) {
            Some(nl) => {
                line += memchr::memchr_iter(b'\n', between.as_bytes()).count() as u32;
                col0 = between[nl + 1..].chars().count();
            }
            None => col0 += between.chars().count(),
        }
        at = piece.start;
        let prefix = piece.reopen.unwrap_or("");
        // The re-opened fence's opener is one line of its own, before the piece's text.
        let prefix_lines = u32::from(!prefix.is_empty());
        let text: std::borrow::Cow<'_, str> = if prefix.is_empty() {
            body[piece.start..piece.end].into()
        } else {
            format!("{prefix}{}", &body[piece.start..piece.end]).into()
        };
        let piece_lines = LineIndex::new(&text);
        let arena = Arena::new();
        let root = parse_document(&arena, &text, &opts);
        collect(root, &mut out, |l, c| {
            let off = piece_lines.line_start(l).unwrap_or(0) + c - 1;
            let (pl, pc) = piece_lines.position(&text, off);
            let (l, c) = if off < prefix.len() {
                // A node of the re-opened fence: where the piece starts.
                (line, col0 as u32 + 1)
            } else if pl == 1 + prefix_lines {
                (line, col0 as u32 + pc)
            } else {
                (line + pl - 1 - prefix_lines, pc)
            };
            At {
                line: l + first_line.saturating_sub(1),
                column: c,
            }
        });
    }
    out
}

/// Adds what the rules need from the tree at `root`; `at(line, column)` places a node from
/// comrak's 1-based line and byte column.
fn collect<'a>(
    root: &'a comrak::nodes::AstNode<'a>,
    out: &mut Body,
    at: impl Fn(usize, usize) -> At,
) {
    for node in root.descendants() {
        let data = node.data.borrow();
        let sp = data.sourcepos;
        let at = at(sp.start.line.max(1), sp.start.column.max(1));
        match &data.value {
            NodeValue::Heading(h) => {
                let mut text = String::new();
                for d in node.descendants() {
                    match &d.data.borrow().value {
                        NodeValue::Text(t) => text.push_str(t),
                        NodeValue::Code(c) => text.push_str(&c.literal),
                        _ => {}
                    }
                }
                out.headings.push(Heading {
                    level: h.level,
                    text,
                    at,
                });
            }
            NodeValue::Link(l) => out.links.push(Link {
                url: l.url.clone(),
                image: false,
                at,
            }),
            NodeValue::Image(l) => out.links.push(Link {
                url: l.url.clone(),
                image: true,
                at,
            }),
            NodeValue::CodeBlock(c) => out.code_blocks.push(CodeBlock {
                info: c.info.clone(),
                literal: c.literal.clone(),
                fenced: c.fenced,
                at,
            }),
            NodeValue::Code(c) => out.inline_code.push(InlineCode {
                literal: c.literal.clone(),
                at,
            }),
            _ => {}
        }
    }
}

/// A part of a long body parsed on its own: `body[start..end]`, after `reopen` (the opener
/// line of a fenced code block the part starts inside of, so its lines stay code).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Piece<'a> {
    start: usize,
    end: usize,
    reopen: Option<&'a str>,
}

/// What a line leaves open for the lines after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open<'a> {
    None,
    /// A fenced code block: its fence byte, length and opener line (with its newline).
    Fence(u8, usize, &'a str),
    /// An HTML block that ends only at this marker (comments, `<script>`, `<pre>`, …).
    Html(&'static str),
}

/// Cuts `body` into pieces of at most [`PIECE`] bytes, in one pass over its lines. A piece
/// ends, by preference, at a blank line followed by a line that starts in the first column,
/// outside a fenced code block and a comment-like HTML block: no CommonMark block continues
/// across such a place (lists, quotes and indented code end there), so the pieces parse as
/// the whole would, except that a list split there becomes two lists. When a piece reaches
/// its size without one, it ends at the last line end (a fenced block then continues in the
/// next piece, re-opened), and a line longer than a piece is cut before a word (a space
/// followed by a letter) or, failing that, anywhere: what spans such a cut is read as two.
fn pieces(body: &str) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let b = body.as_bytes();
    let mut start = 0;
    let mut reopen: Option<&str> = None;
    let mut open = Open::None;
    // The last place a piece may end after `start`: (offset, what is open there).
    let mut safe: Option<usize> = None;
    let mut line_end: Option<(usize, Open<'_>)> = None;
    let mut prev_blank = false;
    let mut ls = 0;
    while ls < b.len() {
        let le = memchr::memchr(b'\n', &b[ls..]).map_or(b.len(), |i| ls + i + 1);
        let line = &body[ls..le];
        let blank = line.trim().is_empty();
        if ls > start {
            if prev_blank && !blank && !line.starts_with([' ', '\t']) && open == Open::None {
                safe = Some(ls);
            }
            line_end = Some((ls, open));
        }
        while le - start > PIECE {
            let (cut, open_at) = if let Some(c) = safe {
                (c, Open::None)
            } else if let Some((c, o)) = line_end {
                (c, o)
            } else {
                // One line longer than a piece: cut it before a word.
                let limit = floor_boundary(body, start + PIECE);
                let lo = floor_boundary(body, start + PIECE / 2).max(start + 1);
                let word = (lo..limit)
                    .rev()
                    .find(|&i| b[i - 1] == b' ' && b[i].is_ascii_alphabetic());
                let c = word.unwrap_or(limit).max(start + 1);
                (ceil_boundary(body, c), open)
            };
            out.push(Piece {
                start,
                end: cut,
                reopen,
            });
            start = cut;
            reopen = match open_at {
                Open::Fence(_, _, opener) => Some(opener),
                _ => None,
            };
            safe = None;
            line_end = None;
        }
        open = next_open(line, open);
        prev_blank = blank;
        ls = le;
    }
    if start < b.len() || out.is_empty() {
        out.push(Piece {
            start,
            end: b.len(),
            reopen,
        });
    }
    out
}

/// What is open after `line`, given what was open before it.
fn next_open<'a>(line: &'a str, open: Open<'a>) -> Open<'a> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    match open {
        Open::Fence(c, n, _) => {
            let t = rest.trim_end();
            let closes = indent <= 3 && t.len() >= n && t.bytes().all(|x| x == c);
            if closes { Open::None } else { open }
        }
        Open::Html(end) => {
            if contains_ci(line, end) {
                Open::None
            } else {
                open
            }
        }
        Open::None if indent <= 3 => {
            let fence = rest
                .as_bytes()
                .first()
                .copied()
                .filter(|c| matches!(c, b'`' | b'~'));
            if let Some(c) = fence {
                let n = rest.bytes().take_while(|&x| x == c).count();
                if n >= 3 && !(c == b'`' && rest[n..].contains('`')) {
                    return Open::Fence(c, n, line);
                }
            }
            html_open(rest)
        }
        Open::None => Open::None,
    }
}

/// An HTML block of the kinds that run to an end marker (CommonMark types 1 to 5), opened
/// and not closed on `rest`.
fn html_open(rest: &str) -> Open<'static> {
    let end = if rest.starts_with("<!--") {
        "-->"
    } else if rest.starts_with("<?") {
        "?>"
    } else if rest.starts_with("<![CDATA[") {
        "]]>"
    } else if rest.starts_with("<!") && rest.as_bytes().get(2).is_some_and(u8::is_ascii_alphabetic)
    {
        ">"
    } else {
        let tag = ["script", "pre", "style", "textarea"]
            .into_iter()
            .find(|t| {
                rest.starts_with('<')
                    && rest
                        .get(1..1 + t.len())
                        .is_some_and(|x| x.eq_ignore_ascii_case(t))
                    && rest
                        .as_bytes()
                        .get(t.len() + 1)
                        .is_none_or(|c| c.is_ascii_whitespace() || *c == b'>')
            });
        match tag {
            Some("script") => "</script>",
            Some("pre") => "</pre>",
            Some("style") => "</style>",
            Some(_) => "</textarea>",
            None => return Open::None,
        }
    };
    // Closed on its own line (after the opener) or not.
    if contains_ci(&rest[2.min(rest.len())..], end) {
        Open::None
    } else {
        Open::Html(end)
    }
}

fn contains_ci(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// A reference label as CommonMark matches it: case-insensitive, inner whitespace collapsed.
fn normalize_label(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The link reference definitions of a body (`[label]: url`, one line each; the first of a
/// label wins), for the pieces that use a label another piece defines.
fn reference_definitions(body: &str) -> std::collections::HashMap<String, String> {
    let mut defs = std::collections::HashMap::new();
    let mut open = Open::None;
    for line in body.split_inclusive('\n') {
        let was = open;
        open = next_open(line, open);
        if was != Open::None || defs.len() >= MAX_DEFINITIONS {
            continue;
        }
        let t = line.trim_start_matches(' ');
        if line.len() - t.len() > 3 || !t.starts_with('[') {
            continue;
        }
        let Some((label, rest)) = t[1..].split_once("]:") else {
            continue;
        };
        if label.trim().is_empty() || label.contains(['[', ']']) || label.len() > 999 {
            continue;
        }
        let Some(url) = rest.split_whitespace().next() else {
            continue;
        };
        let url = url
            .strip_prefix('<')
            .and_then(|u| u.strip_suffix('>'))
            .unwrap_or(url);
        defs.entry(normalize_label(label))
            .or_insert_with(|| url.to_owned());
    }
    defs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extracts_with_file_positions() {
        let b = "# Title\n\nSee [guide](references/g.md) and `scripts/run.py`.\n\n```bash\necho hi\n```\n";
        let body = parse(b, 5);
        assert_eq!(body.headings[0].text, "Title");
        assert_eq!(body.headings[0].at.line, 5);
        assert_eq!(body.links[0].url, "references/g.md");
        assert_eq!(body.links[0].at, At { line: 7, column: 5 });
        assert_eq!(body.inline_code[0].literal, "scripts/run.py");
        assert_eq!(body.code_blocks[0].info, "bash");
        assert_eq!(body.code_blocks[0].at.line, 9);
    }

    /// A long body of every block kind whose pieces end only at the places [`pieces`]
    /// prefers: fences and HTML comments with blank lines inside, lists, quotes, indented
    /// code, reference links defined at the end.
    fn long_body() -> String {
        let mut b = String::new();
        let mut i = 0;
        while b.len() < 5 * PIECE {
            b.push_str(&match i % 8 {
                0 => format!("## Part {i}\n\nSee [doc {i}](references/d{i}.md) and `scripts/s{i}.sh`.\n\n"),
                1 => format!("```bash\necho {i}\n\n[not a link](x{i}.md) `not code`\n```\n\n"),
                2 => format!("- item [a{i}](a{i}.md)\n\n  continued `c{i}`\n- next\n\n"),
                3 => format!("> quote [q{i}](q{i}.md)\n> more\n\n"),
                4 => format!("<!-- comment\n\n[hidden](h{i}.md)\n-->\n\n"),
                5 => format!("    indented [x](y{i}.md)\n\n    more\n\ntext [ref{i}] and ![img](i{i}.png)\n\n"),
                6 => format!("ééé line {i} `ü{i}` [é](e{i}.md)\nsoft [two](t{i}.md)\n\n"),
                _ => format!("~~~~\n~~~\nstill code [n](n{i}.md)\n\n~~~~\n\n"),
            });
            i += 1;
        }
        for k in (5..i).step_by(8) {
            b.push_str(&format!("[ref{k}]: https://example.com/r{k}\n"));
        }
        b
    }

    #[test]
    fn a_long_body_in_pieces_reads_as_a_whole() {
        let b = long_body();
        let ps = pieces(&b);
        assert!(ps.len() >= 5, "{}", ps.len());
        let mut at = 0;
        for p in &ps {
            assert_eq!(p.start, at);
            assert!(p.end - p.start <= PIECE && p.end > p.start);
            assert_eq!(p.reopen, None, "pieces end at blank lines here");
            at = p.end;
        }
        assert_eq!(at, b.len());
        let whole = parse_whole(&b, 7);
        let cut = parse(&b, 7);
        assert!(whole.links.len() > 1000);
        assert_eq!(cut.links, whole.links);
        assert_eq!(cut.inline_code, whole.inline_code);
        assert_eq!(cut.headings, whole.headings);
        assert_eq!(cut.code_blocks.len(), whole.code_blocks.len());
        assert_eq!(
            cut.code_blocks.iter().map(|c| c.at).collect::<Vec<_>>(),
            whole.code_blocks.iter().map(|c| c.at).collect::<Vec<_>>()
        );
    }

    #[test]
    fn every_shape_is_cut_into_bounded_pieces() {
        let short_lines: String = (0..200_000).map(|i| format!("a{}\n", i % 10)).collect();
        let long_line = "word `code` *em* [a](b.md) ".repeat(30_000);
        let brackets = "[a *b _c `d ![e ".repeat(40_000);
        let fence = format!("```sh\n{}", "echo [x](y.md) `z`\n".repeat(40_000));
        let comment = format!("<!--\n{}", "[x](y.md)\n\n".repeat(40_000));
        let no_space = "é".repeat(300_000);
        for body in [
            &short_lines,
            &long_line,
            &brackets,
            &fence,
            &comment,
            &no_space,
        ] {
            let ps = pieces(body);
            let mut at = 0;
            for p in &ps {
                assert_eq!(p.start, at);
                assert!(p.end - p.start <= PIECE, "{} bytes", p.end - p.start);
                assert!(body.is_char_boundary(p.start) && body.is_char_boundary(p.end));
                at = p.end;
            }
            assert_eq!(at, body.len());
            assert!(
                ps.len() <= 2 * body.len() / PIECE + 2,
                "{} pieces",
                ps.len()
            );
        }
        // A fenced block cut in two stays code in both pieces, and what follows it is placed
        // as in the whole parse.
        let b = parse(&fence, 1);
        assert!(b.links.is_empty() && b.inline_code.is_empty());
        assert!(b.code_blocks.len() >= 2);
        let after = format!("{fence}```\n\nSee [a](b.md) and ééé `c`.\n");
        let (cut, whole) = (parse(&after, 4), parse_whole(&after, 4));
        assert_eq!(cut.links, whole.links);
        assert_eq!(cut.inline_code, whole.inline_code);
        assert_eq!(cut.code_blocks[0].at, whole.code_blocks[0].at);
        // Short lines: every inline code span where the whole parse puts it.
        let spans: String = (0..40_000).map(|i| format!("`{i}`\n")).collect();
        assert_eq!(
            parse(&spans, 2).inline_code,
            parse_whole(&spans, 2).inline_code
        );
        // Positions after a cut inside a line are exact.
        let b = parse(&long_line, 3);
        let n = b.links.len();
        assert_eq!(n, 30_000);
        let last = &b.links[n - 1];
        let col = long_line.rfind("[a]").unwrap() + 1;
        assert_eq!(
            last.at,
            At {
                line: 3,
                column: col as u32
            }
        );
    }

    #[test]
    fn columns_count_code_points() {
        let body = parse("ééééé [a](missing.md)\n", 5);
        assert_eq!(body.links[0].at, At { line: 5, column: 7 });
    }
}
