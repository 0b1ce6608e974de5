//! A position-keeping scan of JSON text: brackets, commas and strings (told apart as keys or
//! values) with their byte offsets, and byte offsets turned into line and column. Shared by
//! the command overlay of JSON hook and MCP files (`agents::commands`) and the tool-name
//! positions of transcripts ([`super::tool_calls`]).
//!
//! The scan is linear in the text and keeps no state of its own beyond an offset: it never
//! recurses, so deep nesting costs nothing but the callers' own stacks. It does not validate
//! (numbers, literals and colons are skipped; an unterminated string runs to the end), so it
//! reads hostile or broken text without failing. JSONC comments (`//` to the end of the
//! line, `/* … */`) outside strings are skipped, so a commented-out entry is not read and a
//! quote inside a comment does not turn the rest of the file inside out; a trailing comma is
//! one more comma, which no caller minds.

/// One token of the scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// `{` or `[` (the byte).
    Open(u8),
    /// `}` or `]`.
    Close,
    Comma,
    /// A string from its opening quote to `end` (exclusive: after the closing quote, or the
    /// end of the text); `key` when a `:` follows it.
    Str {
        end: usize,
        key: bool,
    },
}

/// The tokens of a JSON text with the byte offset where each starts.
pub struct Tokens<'a> {
    text: &'a str,
    i: usize,
}

/// Scans `text`.
pub fn tokens(text: &str) -> Tokens<'_> {
    Tokens { text, i: 0 }
}

impl Iterator for Tokens<'_> {
    type Item = (usize, Tok);

    fn next(&mut self) -> Option<(usize, Tok)> {
        let b = self.text.as_bytes();
        while self.i < b.len() {
            let at = self.i;
            self.i += 1;
            match b[at] {
                b'"' => {
                    let mut i = at + 1;
                    while i < b.len() && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                    let end = (i + 1).min(b.len());
                    self.i = end;
                    // Each blank after a string is looked at here and once more by the scan.
                    let mut j = end;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    let key = b.get(j) == Some(&b':');
                    return Some((at, Tok::Str { end, key }));
                }
                // A JSONC comment (VS Code's configuration files): skipped whole. Strict
                // JSON has no `/` outside strings, so this changes nothing there.
                b'/' if b.get(at + 1) == Some(&b'/') => {
                    self.i = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |n| at + n);
                }
                b'/' if b.get(at + 1) == Some(&b'*') => {
                    self.i =
                        memchr::memmem::find(&b[at + 2..], b"*/").map_or(b.len(), |n| at + n + 4);
                }
                c @ (b'{' | b'[') => return Some((at, Tok::Open(c))),
                b'}' | b']' => return Some((at, Tok::Close)),
                b',' => return Some((at, Tok::Comma)),
                _ => {}
            }
        }
        None
    }
}

/// The value of the string token at `start..end` (escapes decoded); empty when it is not a
/// valid JSON string.
pub fn unquote(text: &str, start: usize, end: usize) -> String {
    text.get(start..end)
        .and_then(|raw| serde_json::from_str(raw).ok())
        .unwrap_or_default()
}

/// 1-based (line, column) of each byte offset of `offsets` (sorted ascending), columns in
/// characters. One pass over the text up to the last offset.
pub fn line_cols(text: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
    let (mut pos, mut line, mut line_start) = (0usize, 1usize, 0usize);
    let mut col_from = (0usize, 0usize); // (byte offset, characters before it on its line)
    let mut out = Vec::with_capacity(offsets.len());
    for &off in offsets {
        let off = off.min(text.len());
        if off < pos {
            // Not sorted: start over (callers sort; this keeps the result right anyway).
            (pos, line, line_start) = (0, 1, 0);
            col_from = (0, 0);
        }
        let seg = text.get(pos..off).unwrap_or("");
        for (k, c) in seg.char_indices() {
            if c == '\n' {
                line += 1;
                line_start = pos + k + 1;
            }
        }
        pos = off;
        if col_from.0 < line_start {
            col_from = (line_start, 0);
        }
        let chars = col_from.1 + text.get(col_from.0..off).unwrap_or("").chars().count();
        col_from = (off, chars);
        out.push((line, chars + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_values_and_brackets() {
        let t = "{\"a\" : [\"x\\\"y\", 1], \"b\": {}}";
        let got: Vec<(usize, Tok)> = tokens(t).collect();
        assert_eq!(
            got,
            [
                (0, Tok::Open(b'{')),
                (1, Tok::Str { end: 4, key: true }),
                (7, Tok::Open(b'[')),
                (
                    8,
                    Tok::Str {
                        end: 14,
                        key: false
                    }
                ),
                (14, Tok::Comma),
                (17, Tok::Close),
                (18, Tok::Comma),
                (20, Tok::Str { end: 23, key: true }),
                (25, Tok::Open(b'{')),
                (26, Tok::Close),
                (27, Tok::Close),
            ]
        );
        assert_eq!(unquote(t, 8, 14), "x\"y");
        assert_eq!(unquote("\"open", 0, 5), "");
    }

    #[test]
    fn hostile_text_is_scanned_linearly() {
        assert_eq!(tokens(&"[".repeat(100_000)).count(), 100_000);
        assert_eq!(tokens("\"\\").count(), 1);
        assert_eq!(tokens("]]}}\"").count(), 5);
    }

    #[test]
    fn columns_count_characters() {
        let t = "{\n  \"ä\": \"b\",\r\n\"c\"}";
        let offs: Vec<usize> = tokens(t)
            .filter(|(_, k)| matches!(k, Tok::Str { .. }))
            .map(|(o, _)| o)
            .collect();
        assert_eq!(line_cols(t, &offs), [(2, 3), (2, 8), (3, 1)]);
        assert_eq!(line_cols(t, &[0, 0]), [(1, 1), (1, 1)]);
    }
}
