//! JSON as .NET's `System.Text.Json` writes it with its defaults (`WriteIndented = true`,
//! `JavaScriptEncoder.Default`), for byte-compatible AgentEval output (`--compat agenteval`)
//! and AgentEval ledger snapshots.
//!
//! Layout: two-space indentation, `": "` between key and value, `[]`/`{}` for empty
//! containers, `\n` line ends (as on Linux). Escaping: everything outside printable ASCII is
//! `\uXXXX` with upper-case hex (a character above U+FFFF as its UTF-16 surrogate pair), as are
//! the HTML-sensitive `"` `&` `'` `+` `<` `>` and `` ` ``; `\\`, `\b`, `\t`, `\n`, `\f` and `\r`
//! keep their short forms.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{CharEscape, Formatter, PrettyFormatter};

/// `value` as `System.Text.Json` writes it (indented, default encoder), without a final
/// line end.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, DotnetFormatter::default());
    // Serialising to memory fails only for maps with non-string keys, which no caller uses.
    value
        .serialize(&mut ser)
        .expect("JSON of plain data serialises");
    String::from_utf8(out).expect("the formatter writes ASCII")
}

/// Escapes one string's contents (no quotes) as the default encoder does.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str("\\\\"),
        '\u{8}' => out.push_str("\\b"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\u{c}' => out.push_str("\\f"),
        '\r' => out.push_str("\\r"),
        '"' | '&' | '\'' | '+' | '<' | '>' | '`' => unit(out, c as u16),
        ' '..='~' => out.push(c),
        _ => {
            let mut buf = [0u16; 2];
            for u in c.encode_utf16(&mut buf) {
                unit(out, *u);
            }
        }
    }
}

fn unit(out: &mut String, u: u16) {
    out.push_str(&format!("\\u{u:04X}"));
}

/// serde_json's pretty layout with `System.Text.Json`'s escaping.
#[derive(Default)]
struct DotnetFormatter {
    pretty: PrettyFormatter<'static>,
}

impl Formatter for DotnetFormatter {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_array(w)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_array(w)
    }
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.pretty.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_array_value(w)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_object(w)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_object(w)
    }
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.pretty.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_object_value(w)
    }
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        w.write_all(escape(fragment).as_bytes())
    }
    fn write_char_escape<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        escape: CharEscape,
    ) -> io::Result<()> {
        let s = match escape {
            CharEscape::Quote => "\\u0022".to_owned(),
            CharEscape::ReverseSolidus => "\\\\".to_owned(),
            CharEscape::Solidus => "/".to_owned(),
            CharEscape::Backspace => "\\b".to_owned(),
            CharEscape::FormFeed => "\\f".to_owned(),
            CharEscape::LineFeed => "\\n".to_owned(),
            CharEscape::CarriageReturn => "\\r".to_owned(),
            CharEscape::Tab => "\\t".to_owned(),
            CharEscape::AsciiControl(b) => format!("\\u{:04X}", b),
        };
        w.write_all(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_the_default_encoder() {
        assert_eq!(
            escape("Skill 'a' — ✓ <b> & c+d `e` \"q\" é 😀 \\ \n\t\u{1}"),
            "Skill \\u0027a\\u0027 \\u2014 \\u2713 \\u003Cb\\u003E \\u0026 c\\u002Bd \\u0060e\\u0060 \\u0022q\\u0022 \\u00E9 \\uD83D\\uDE00 \\\\ \\n\\t\\u0001"
        );
    }

    #[test]
    fn layout_is_two_space_indented() {
        // Fields in declaration order, as .NET writes a record's properties.
        #[derive(Serialize)]
        #[serde(rename_all = "PascalCase")]
        struct R {
            findings: Vec<u8>,
            coverage: std::collections::BTreeMap<&'static str, u8>,
            is_compliant: bool,
            field: Option<u8>,
            m: &'static str,
        }
        let r = R {
            findings: vec![],
            coverage: [("SkillCount", 1)].into(),
            is_compliant: true,
            field: None,
            m: "it's",
        };
        assert_eq!(
            to_string_pretty(&r),
            "{\n  \"Findings\": [],\n  \"Coverage\": {\n    \"SkillCount\": 1\n  },\n  \"IsCompliant\": true,\n  \"Field\": null,\n  \"M\": \"it\\u0027s\"\n}"
        );
    }
}
