//! The `SKILL.md` body through comrak: headings, links, images, inline code and
//! code blocks, each with its position in the file.

use comrak::nodes::NodeValue;
use comrak::{Arena, Options, parse_document};

use crate::text::LineIndex;

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

/// Parses `body`, whose first line is line `first_line` of the file.
pub fn parse(body: &str, first_line: u32) -> Body {
    let arena = Arena::new();
    let mut options = Options::default();
    options.extension.autolink = true;
    options.extension.table = true;
    options.extension.strikethrough = true;
    let root = parse_document(&arena, body, &options);
    let mut out = Body::default();
    let offset = first_line.saturating_sub(1);
    let lines = LineIndex::new(body);
    for node in root.descendants() {
        let data = node.data.borrow();
        let sp = data.sourcepos;
        // comrak columns count bytes; reports count code points.
        let line = sp.start.line.max(1);
        let column = match lines.line_start(line) {
            Some(start) => lines.position(body, start + sp.start.column.max(1) - 1).1,
            None => sp.start.column.max(1) as u32,
        };
        let at = At {
            line: line as u32 + offset,
            column,
        };
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
    out
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

    #[test]
    fn columns_count_code_points() {
        let body = parse("ééééé [a](missing.md)\n", 5);
        assert_eq!(body.links[0].at, At { line: 5, column: 7 });
    }
}
