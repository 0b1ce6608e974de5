//! Emulation of the reference validator `skills-ref` (agentskills/agentskills
//! `skills-ref/`, strictyaml 1.7.3 on Python 3.11): its parser and validator.
//!
//! [`validate`] returns what `skills_ref.validate(dir)` returns for a skill
//! directory, message for message, in the same order:
//!
//! 1. `find_skill_md`: `SKILL.md`, else `skill.md` (exact names).
//! 2. `read_text()`: strict UTF-8 (invalid bytes crash skills-ref with an
//!    uncaught `UnicodeDecodeError`), universal newlines (`\r\n` and `\r`
//!    become `\n`), a BOM is kept.
//! 3. `parse_frontmatter`: `startswith("---")`, `split("---", 2)` on the first
//!    `---` *substring* (wherever it is), `strictyaml.load(parts[1])`, mapping
//!    check.
//! 4. `validate_metadata`: unexpected keys, `name`, `description`,
//!    `compatibility`, with Python string semantics (`strip`, NFKC, `lower`,
//!    `isalnum`, lengths in code points).
//!
//! strictyaml is emulated on top of the project's YAML parser
//! ([`crate::parse::yaml`], which gives the document tree) and its token
//! scanner (granit, the event parser under `serde-saphyr`, which gives the exact
//! source range of every token): every scalar is a string; flow collections,
//! anchors and tags are refused at their token, aliases cannot resolve, tabs
//! outside quoted and block scalars and comments cannot start a token, duplicate
//! keys (compared as strings) and sibling mappings at different indentations are
//! refused, `<<` merges and `=` values behave as in ruamel.yaml. Error texts
//! follow ruamel's format (`context`, mark, `problem`, mark, each mark with
//! `in "<unicode string>", line L, column C:` and a source snippet).
//!
//! Where skills-ref crashes instead of returning a list (undecodable bytes, a
//! control character in the frontmatter, a list used as a key), the single
//! message is the uncaught exception as Python prints its last line:
//! `UnicodeDecodeError: …`, `AttributeError: …`, `AssertionError: …`.
//!
//! Checked against skills-ref 0.1.1 (PyPI) with strictyaml 1.7.3 on Python
//! 3.11.7 over 28,000 generated SKILL.md files: the valid/invalid verdict
//! agreed on every one; the message list was identical byte for byte for
//! 99.97% of well-formed-looking frontmatters (all fields, quoting styles,
//! Unicode names), 99.4% of realistic error-prone descriptions (colons,
//! apostrophes, `*`, `&`, `!`, `@`, backticks, brackets, tabs, comments) and
//! 98.7% of randomly mutated ones. Known limits:
//!
//! * Unicode data is Rust's, newer than Python 3.11's Unicode 14.0:
//!   characters assigned later differ in NFKC, `lower` and `isalnum`.
//! * When a line holds several problems, ruamel's scanner reads ahead while a
//!   token might still be a simple key and can report a later problem first
//!   (or the same one at another position); the common cases (a quoted value
//!   with trailing text, an alias, a plain line without `:`, tabs) follow
//!   ruamel, rarer ones report our parser's first problem in ruamel's words.
//! * NEL, LS and PS (U+0085, U+2028, U+2029) are line breaks for ruamel's
//!   scanner but not for our parser, and a BOM inside the frontmatter is
//!   content for ruamel but an error for our parser.
//! * A syntax error strictyaml words in a way we do not recognise carries our
//!   parser's message (after the same prefix); the project parser's bounds
//!   (10,000 nodes, 64 levels) reject documents strictyaml would read.
//! * More than a few hundred `"…"#comment` glued comments (which ruamel takes
//!   as comments, our parser as errors) are not all smoothed over.

use std::collections::HashSet;

use serde_saphyr::granit_parser::{ErrorKind, ScalarStyle, Scanner, StrInput, TokenType};
use unicode_normalization::UnicodeNormalization;

use crate::parse::yaml::{self, Node, NodeKind, Style, YamlError};

/// `sorted(ALLOWED_FIELDS)` of `validator.py`.
const ALLOWED_FIELDS: [&str; 6] = [
    "allowed-tools",
    "compatibility",
    "description",
    "license",
    "metadata",
    "name",
];
const MAX_SKILL_NAME_LENGTH: usize = 64;
const MAX_DESCRIPTION_LENGTH: usize = 1024;
const MAX_COMPATIBILITY_LENGTH: usize = 500;

/// The name strictyaml gives the loaded string in its marks.
const LABEL: &str = "<unicode string>";

/// What `skills_ref.validate(dir)` returns for a skill directory named
/// `dir_name` holding `SKILL.md` with `upper` bytes and/or `skill.md` with
/// `lower` bytes (exact names; `None` when absent). `[]` means valid.
pub fn validate(dir_name: &str, upper: Option<&[u8]>, lower: Option<&[u8]>) -> Vec<String> {
    let Some(bytes) = upper.or(lower) else {
        return vec!["Missing required file: SKILL.md".to_owned()];
    };
    let content = match read_text(bytes) {
        Ok(c) => c,
        Err(crash) => return vec![crash],
    };
    match parse_frontmatter(&content) {
        Ok(metadata) => validate_metadata(&metadata, dir_name),
        Err(message) => vec![message],
    }
}

// ---------------------------------------------------------------------------
// Reading the file.
// ---------------------------------------------------------------------------

/// `Path.read_text(encoding="utf-8")`: strict decoding, universal newlines.
fn read_text(bytes: &[u8]) -> Result<String, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| unicode_decode_error(bytes, &e))?;
    if !text.contains('\r') {
        return Ok(text.to_owned());
    }
    Ok(text.replace("\r\n", "\n").replace('\r', "\n"))
}

/// The last line Python prints for the `UnicodeDecodeError` skills-ref lets
/// escape, e.g. `UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in
/// position 32: invalid start byte`.
fn unicode_decode_error(bytes: &[u8], e: &std::str::Utf8Error) -> String {
    let start = e.valid_up_to();
    let (len, reason) = match e.error_len() {
        None => (bytes.len() - start, "unexpected end of data"),
        Some(n) => {
            let b = bytes[start];
            let invalid_start = matches!(b, 0x80..=0xC1 | 0xF5..=0xFF);
            (
                n,
                if invalid_start {
                    "invalid start byte"
                } else {
                    "invalid continuation byte"
                },
            )
        }
    };
    let what = if len == 1 {
        format!("byte 0x{:02x} in position {start}", bytes[start])
    } else {
        format!("bytes in position {start}-{}", start + len - 1)
    };
    format!("UnicodeDecodeError: 'utf-8' codec can't decode {what}: {reason}")
}

// ---------------------------------------------------------------------------
// parse_frontmatter.
// ---------------------------------------------------------------------------

/// What strictyaml gives for a YAML value (`.data`), as far as skills-ref
/// can tell the difference.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Str(String),
    /// A ruamel `TaggedScalar`: the plain scalars `=` and `<<` resolve to tags
    /// without a constructor and stay objects that are not `str`.
    Tagged,
    List(Vec<Value>),
    /// Keys are unique (duplicates are an error) and in document order.
    Map(Vec<(String, Value)>),
}

type Metadata = Vec<(String, Value)>;

fn get<'a>(map: &'a Metadata, key: &str) -> Option<&'a Value> {
    map.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// `parse_frontmatter(content)`: the metadata mapping, or the one message
/// skills-ref's `validate()` returns (the `ParseError` text or a crash).
fn parse_frontmatter(content: &str) -> Result<Metadata, String> {
    if !content.starts_with("---") {
        return Err("SKILL.md must start with YAML frontmatter (---)".to_owned());
    }
    // `content.split("---", 2)`: the first two `---` substrings.
    let mut parts = content.splitn(3, "---");
    let (_, Some(frontmatter), Some(_body)) = (parts.next(), parts.next(), parts.next()) else {
        return Err("SKILL.md frontmatter not properly closed with ---".to_owned());
    };
    match strict_load(frontmatter) {
        Ok(Value::Map(map)) => Ok(map),
        Ok(_) => Err("SKILL.md frontmatter must be a YAML mapping".to_owned()),
        Err(LoadError::Yaml(e)) => Err(format!("Invalid YAML in frontmatter: {e}")),
        Err(LoadError::Crash(e)) => Err(e),
    }
}

// ---------------------------------------------------------------------------
// validate_metadata.
// ---------------------------------------------------------------------------

fn validate_metadata(metadata: &Metadata, dir_name: &str) -> Vec<String> {
    let mut errors = Vec::new();
    let mut extra: Vec<&str> = metadata
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !ALLOWED_FIELDS.contains(k))
        .collect();
    if !extra.is_empty() {
        // Python sorts str by code point, as Rust sorts UTF-8 by bytes.
        extra.sort_unstable();
        extra.dedup();
        errors.push(format!(
            "Unexpected fields in frontmatter: {}. Only [{}] are allowed.",
            extra.join(", "),
            ALLOWED_FIELDS
                .iter()
                .map(|f| format!("'{f}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    match get(metadata, "name") {
        None => errors.push("Missing required field in frontmatter: name".to_owned()),
        Some(name) => validate_name(name, dir_name, &mut errors),
    }
    match get(metadata, "description") {
        None => errors.push("Missing required field in frontmatter: description".to_owned()),
        Some(description) => validate_description(description, &mut errors),
    }
    if let Some(compatibility) = get(metadata, "compatibility") {
        match compatibility {
            Value::Str(c) => {
                let n = c.chars().count();
                if n > MAX_COMPATIBILITY_LENGTH {
                    errors.push(format!(
                        "Compatibility exceeds {MAX_COMPATIBILITY_LENGTH} character limit ({n} chars)"
                    ));
                }
            }
            _ => errors.push("Field 'compatibility' must be a string".to_owned()),
        }
    }
    errors
}

/// A `str` value that is neither empty nor blank (`not v or not
/// isinstance(v, str) or not v.strip()` is false).
fn non_empty_str(v: &Value) -> Option<&str> {
    match v {
        Value::Str(s) if !py_strip(s).is_empty() => Some(s),
        _ => None,
    }
}

/// `_validate_name`. A blank name is "not a non-empty string" (skills-ref
/// 0.1.1 tests `not name.strip()` as for the description).
fn validate_name(name: &Value, dir_name: &str, errors: &mut Vec<String>) {
    let Some(name) = non_empty_str(name) else {
        errors.push("Field 'name' must be a non-empty string".to_owned());
        return;
    };
    let name: String = py_strip(name).nfkc().collect();
    let n = name.chars().count();
    if n > MAX_SKILL_NAME_LENGTH {
        errors.push(format!(
            "Skill name '{name}' exceeds {MAX_SKILL_NAME_LENGTH} character limit ({n} chars)"
        ));
    }
    if name != name.to_lowercase() {
        errors.push(format!("Skill name '{name}' must be lowercase"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        errors.push("Skill name cannot start or end with a hyphen".to_owned());
    }
    if name.contains("--") {
        errors.push("Skill name cannot contain consecutive hyphens".to_owned());
    }
    if !name.chars().all(|c| py_isalnum(c) || c == '-') {
        errors.push(format!(
            "Skill name '{name}' contains invalid characters. Only letters, digits, and hyphens are allowed."
        ));
    }
    if dir_name.nfkc().collect::<String>() != name {
        errors.push(format!(
            "Directory name '{dir_name}' must match skill name '{name}'"
        ));
    }
}

fn validate_description(description: &Value, errors: &mut Vec<String>) {
    let Some(description) = non_empty_str(description) else {
        errors.push("Field 'description' must be a non-empty string".to_owned());
        return;
    };
    // Measured unstripped, in code points.
    let n = description.chars().count();
    if n > MAX_DESCRIPTION_LENGTH {
        errors.push(format!(
            "Description exceeds {MAX_DESCRIPTION_LENGTH} character limit ({n} chars)"
        ));
    }
}

// ---------------------------------------------------------------------------
// Python string semantics.
// ---------------------------------------------------------------------------

/// `str.isspace()` for one character: Unicode White_Space plus the
/// information separators U+001C..U+001F (bidi class B/S).
fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `str.strip()` with no argument.
fn py_strip(s: &str) -> &str {
    s.trim_matches(py_isspace)
}

/// `str.isalnum()` for one character: general category L* or a numeric
/// character. Rust's `is_alphanumeric` also counts Other_Alphabetic marks
/// and the circled/squared Latin letter symbols (category So), which Python
/// does not.
fn py_isalnum(c: char) -> bool {
    c.is_alphanumeric()
        && !unicode_normalization::char::is_combining_mark(c)
        && !matches!(
            c,
            '\u{24B6}'..='\u{24E9}'
                | '\u{1F130}'..='\u{1F149}'
                | '\u{1F150}'..='\u{1F169}'
                | '\u{1F170}'..='\u{1F189}'
        )
}

/// `repr(s)` of a Python `str` (quotes and escapes), for messages that
/// format a character or name with `%r`.
fn py_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !py_isprintable(c) => {
                let cp = u32::from(c);
                if cp <= 0xFF {
                    out.push_str(&format!("\\x{cp:02x}"));
                } else if cp <= 0xFFFF {
                    out.push_str(&format!("\\u{cp:04x}"));
                } else {
                    out.push_str(&format!("\\U{cp:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// An approximation of `str.isprintable()` for one character: not a
/// control, format, separator (other than space) or private-use character.
fn py_isprintable(c: char) -> bool {
    !(c.is_control()
        || matches!(
            c,
            '\u{A0}'
                | '\u{AD}'
                | '\u{600}'..='\u{605}'
                | '\u{61C}'
                | '\u{6DD}'
                | '\u{70F}'
                | '\u{1680}'
                | '\u{180E}'
                | '\u{2000}'..='\u{200F}'
                | '\u{2028}'..='\u{202F}'
                | '\u{205F}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{3000}'
                | '\u{E000}'..='\u{F8FF}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{FFFE}'..='\u{FFFF}'
                | '\u{E0001}'
                | '\u{E0020}'..='\u{E007F}'
                | '\u{F0000}'..='\u{10FFFF}'
        ))
}

// ---------------------------------------------------------------------------
// strictyaml.load(text).data
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
enum LoadError {
    /// A `strictyaml.YAMLError`; the text is `str(error)`.
    Yaml(String),
    /// An exception skills-ref does not catch: `Type: message`.
    Crash(String),
}

/// `strictyaml.load(text).data` (with no schema).
fn strict_load(text: &str) -> Result<Value, LoadError> {
    let mut src = Source::new(text);
    // ruamel's Reader refuses control characters before scanning anything;
    // strictyaml then trips over the ReaderError (it has no `context_mark`),
    // so the exception skills-ref sees is an AttributeError.
    if src.chars.iter().any(|&c| !ruamel_printable(c)) {
        return Err(LoadError::Crash(
            "AttributeError: 'ReaderError' object has no attribute 'context_mark'".to_owned(),
        ));
    }
    let (scan, parsed) = prepare(&mut src);
    // Where a second document starts: content after `...` (our parser), or
    // a second `...` (an empty document for ruamel).
    let second_end = scan
        .tokens
        .iter()
        .filter(|t| t.tok != Tok::Comment)
        .skip_while(|t| t.tok != Tok::DocumentEnd)
        .nth(1)
        .filter(|t| t.tok == Tok::DocumentEnd)
        .map(|t| t.start);
    let doc_end = match &parsed {
        Ok(doc) => doc
            .extra_document
            .map(|p| src.index_of(p))
            .into_iter()
            .chain(second_end)
            .min(),
        Err(_) => None,
    };
    let stream_error = first_stream_error(&src, &scan, &parsed, doc_end);
    let doc = match (parsed, stream_error) {
        (_, Some(e)) => return Err(LoadError::Yaml(e)),
        (Err(e), None) => return Err(LoadError::Yaml(format!("{e:?}"))),
        (Ok(doc), None) => doc,
    };
    let Some(root) = doc.root else {
        // An empty document: strictyaml validates the whole text as a string.
        return Ok(Value::Str(text.to_owned()));
    };
    if let Some(extra) = doc_end {
        return Err(LoadError::Yaml(src.error(
            Some("expected a single document in the stream"),
            Some(src.index_of(root.pos)),
            Some("but found another document"),
            Some(extra),
        )));
    }
    if !matches!(root.kind, NodeKind::Map { .. } | NodeKind::Seq { .. }) {
        // `Document is just a (string, int, etc.)`: the text itself.
        return Ok(Value::Str(text.to_owned()));
    }
    let mut cx = Construct {
        src: &src,
        scan: &scan,
        deferred: Vec::new(),
        list_key: false,
    };
    let value = cx.construct(&root)?;
    // Merged mappings are constructed after the document (ruamel's
    // state generators); their content is not part of `.data`.
    while !cx.deferred.is_empty() {
        let deferred = std::mem::take(&mut cx.deferred);
        for node in deferred {
            cx.construct(node)?;
        }
    }
    if cx.list_key {
        // strictyaml's Any validator asserts that keys are scalars.
        return Err(LoadError::Crash(
            "AssertionError: <class 'tuple'>".to_owned(),
        ));
    }
    Ok(value)
}

/// Scans and parses the text as ruamel reads it. Two differences are
/// smoothed over first, without moving any position (`src.work` gets the
/// adjusted text):
///
/// * ruamel ends a quoted scalar at its closing quote and takes a `#` right
///   after it as a comment; our parser requires a blank before a comment:
///   such comments are blanked out;
/// * after an empty line ruamel swallows all blanks, tabs included, up to
///   the next token; our parser refuses a tab there: such tabs become spaces.
fn prepare(src: &mut Source) -> (Scan, Result<yaml::Doc, YamlError>) {
    // Each round parses the whole text again: bounded by the text's size.
    let rounds = (16_000_000 / src.chars.len().max(1)).clamp(16, 4096);
    for _ in 0..rounds {
        let text: String = src.work.iter().collect();
        let parsed = yaml::parse(&text);
        let scan = scan_tokens(&text);
        let mut changed = false;
        if let Err(YamlError::Syntax { message, pos }) = &parsed {
            let i = src.index_of(*pos);
            if is_kind(message, ErrorKind::CommentNotSeparated)
                && src.work.get(i) == Some(&'#')
                && i > 0
                && matches!(src.work[i - 1], '"' | '\'')
            {
                for c in src.work.iter_mut().skip(i).take_while(|c| **c != '\n') {
                    *c = ' ';
                }
                changed = true;
            }
        }
        // Up to the first tab ruamel refuses: nothing after it matters.
        let scanned_to = scan.error.as_ref().map_or(src.work.len(), |(i, _)| *i);
        for i in 0..scanned_to {
            if src.work[i] != '\t' || scan.tab_safe(i) {
                continue;
            }
            if !scan.tab_swallowed(&src.work, i) {
                break;
            }
            src.work[i] = ' ';
            changed = true;
        }
        if !changed {
            return (scan, parsed);
        }
    }
    let text: String = src.work.iter().collect();
    (scan_tokens(&text), yaml::parse(&text))
}

/// ruamel's `Reader.NON_PRINTABLE` complement.
fn ruamel_printable(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}'
        | '\u{10000}'..='\u{10FFFF}')
}

// ---------------------------------------------------------------------------
// Source positions and ruamel's error format.
// ---------------------------------------------------------------------------

/// The loaded text as code points, with both parsers' idea of lines.
struct Source {
    chars: Vec<char>,
    /// The text as handed to our parser (see [`prepare`]).
    work: Vec<char>,
    /// Char index of the start of each line as our parser counts them (`\n`).
    line_starts: Vec<usize>,
}

impl Source {
    fn new(text: &str) -> Source {
        let chars: Vec<char> = text.chars().collect();
        let mut line_starts = vec![0];
        line_starts.extend(
            chars
                .iter()
                .enumerate()
                .filter(|(_, c)| **c == '\n')
                .map(|(i, _)| i + 1),
        );
        Source {
            work: chars.clone(),
            chars,
            line_starts,
        }
    }

    /// Char index of a position of our parser (1-based line and column).
    fn index_of(&self, pos: yaml::Pos) -> usize {
        let line = pos.line.clamp(1, self.line_starts.len());
        (self.line_starts[line - 1] + pos.col.saturating_sub(1)).min(self.chars.len())
    }

    /// ruamel's (0-based) line and column of a char index (its YAML 1.2
    /// reader): `\n` and a lone CR end lines; a BOM takes no column.
    fn line_col(&self, index: usize) -> (usize, usize) {
        let (mut line, mut col) = (0, 0);
        for (i, &c) in self.chars.iter().enumerate().take(index) {
            let next = self.chars.get(i + 1).copied();
            if c == '\n' || (c == '\r' && next != Some('\n')) {
                line += 1;
                col = 0;
            } else if c != '\u{FEFF}' {
                col += 1;
            }
        }
        (line, col)
    }

    /// Char index of the start of the line (ruamel's lines) holding `index`.
    fn line_start(&self, index: usize) -> usize {
        let mut i = index.min(self.chars.len());
        while i > 0 && !matches!(self.chars[i - 1], '\n' | '\r') {
            i -= 1;
        }
        i
    }

    /// Where ruamel's scanner stands at the first token after the line that
    /// holds `index`: past spaces, line breaks and comments.
    fn next_token_after_line(&self, index: usize) -> usize {
        let at = |i: usize| self.chars.get(i).copied().unwrap_or('\0');
        let mut i = index;
        while i < self.chars.len() && at(i) != '\n' {
            i += 1;
        }
        loop {
            match at(i) {
                ' ' | '\n' => i += 1,
                '#' => {
                    while i < self.chars.len() && at(i) != '\n' {
                        i += 1;
                    }
                }
                _ => return i.min(self.chars.len()),
            }
        }
    }

    /// ruamel's `token.id` for a token starting at `i` (judged by its first
    /// character).
    fn token_id_at_char(&self, i: usize) -> String {
        let at = |i: usize| self.chars.get(i).copied().unwrap_or('\0');
        let blank_after = matches!(at(i + 1), '\0' | ' ' | '\t' | '\n' | '\r');
        match at(i) {
            '\0' => "<stream end>",
            c @ ('[' | ']' | '{' | '}' | ',') => return c.to_string(),
            '&' => "<anchor>",
            '*' => "<alias>",
            '!' => "<tag>",
            '-' | '?' | ':' if blank_after => return at(i).to_string(),
            _ => "<scalar>",
        }
        .to_owned()
    }

    /// Where ruamel's scanner stands after a plain scalar that starts at
    /// `start` (a block mapping key at its indentation): the scalar goes on
    /// over lines indented deeper than it, and the scanner then skips blanks,
    /// line breaks and comments.
    fn after_plain_scalar(&self, start: usize) -> usize {
        let at = |i: usize| self.chars.get(i).copied().unwrap_or('\0');
        let column = start - self.line_start(start);
        let mut i = start;
        loop {
            // The rest of this line, up to a `: ` or ` #`.
            while !matches!(at(i), '\0' | '\n') {
                if (at(i) == ':' && matches!(at(i + 1), '\0' | ' ' | '\t' | '\n'))
                    || (at(i) == '#' && i > start && matches!(at(i - 1), ' ' | '\t'))
                {
                    return self.next_token_after_line(i).min(i);
                }
                i += 1;
            }
            // The next non-empty line continues the scalar if it is deeper.
            let mut j = i;
            while matches!(at(j), ' ' | '\n') {
                j += 1;
            }
            if at(j) == '\0' || at(j) == '#' || j - self.line_start(j) <= column {
                return self.next_token_after_line(i.saturating_sub(1));
            }
            i = j;
        }
    }

    /// Whether the line content at `i` is a simple key (`key: ...`): ruamel
    /// opens a block mapping there.
    fn opens_block_mapping(&self, i: usize) -> bool {
        let at = |i: usize| self.chars.get(i).copied().unwrap_or('\0');
        if matches!(
            at(i),
            '"' | '\'' | '[' | '{' | '&' | '*' | '!' | '|' | '>' | '#' | '\0'
        ) {
            return false;
        }
        let mut j = i;
        while !matches!(at(j), '\0' | '\n') {
            if at(j) == ':' && matches!(at(j + 1), '\0' | ' ' | '\t' | '\n') {
                return true;
            }
            if at(j) == '#' && j > i && at(j - 1) == ' ' {
                return false;
            }
            j += 1;
        }
        false
    }

    /// A `---` or `...` at the start of a line, followed by a blank or the end.
    fn is_document_indicator(&self, i: usize) -> bool {
        let at = |i: usize| self.chars.get(i).copied().unwrap_or('\0');
        (i == 0 || at(i - 1) == '\n')
            && ((at(i) == '-' && at(i + 1) == '-' && at(i + 2) == '-')
                || (at(i) == '.' && at(i + 1) == '.' && at(i + 2) == '.'))
            && matches!(at(i + 3), '\0' | ' ' | '\t' | '\n' | '\r')
    }

    /// `str(StringMark)`: position and snippet.
    fn mark(&self, index: usize) -> String {
        let (line, col) = self.line_col(index);
        let at = |i: usize| self.chars.get(i).copied().unwrap_or('\0');
        let stops = |c: char| matches!(c, '\0' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}');
        // get_snippet(indent=4, max_length=75)
        let half = 75.0 / 2.0 - 1.0;
        let (mut head, mut start) = ("", index);
        while start > 0 && !stops(at(start - 1)) {
            start -= 1;
            if (index - start) as f64 > half {
                head = " ... ";
                start += 5;
                break;
            }
        }
        let (mut tail, mut end) = ("", index);
        while end < self.chars.len() + 1 && !stops(at(end)) {
            end += 1;
            if (end - index) as f64 > half {
                tail = " ... ";
                end -= 5;
                break;
            }
        }
        let snippet: String = (start..end).map(at).collect();
        format!(
            "  in \"{LABEL}\", line {}, column {}:\n    {head}{snippet}{tail}\n{}^ (line: {})",
            line + 1,
            col + 1,
            " ".repeat(4 + index - start + head.len()),
            line + 1
        )
    }

    /// `str(MarkedYAMLError)`.
    fn error(
        &self,
        context: Option<&str>,
        context_mark: Option<usize>,
        problem: Option<&str>,
        problem_mark: Option<usize>,
    ) -> String {
        let mut lines: Vec<String> = Vec::new();
        if let Some(c) = context {
            lines.push(c.to_owned());
        }
        if let Some(cm) = context_mark {
            let same = problem.is_some()
                && problem_mark.is_some_and(|pm| self.line_col(pm) == self.line_col(cm));
            if !same {
                lines.push(self.mark(cm));
            }
        }
        if let Some(p) = problem {
            lines.push(p.to_owned());
        }
        if let Some(pm) = problem_mark {
            lines.push(self.mark(pm));
        }
        lines.join("\n")
    }
}

// ---------------------------------------------------------------------------
// Tokens.
// ---------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// A token strictyaml refuses when the parser reaches it.
    Flow,
    Anchor,
    Tag,
    Alias(String),
    /// Scalars inside which a tab is content.
    QuotedScalar,
    BlockScalar,
    PlainScalar,
    Comment,
    DocumentEnd,
    BlockMappingStart,
    BlockSequenceStart,
    BlockEnd,
    Other(&'static str),
}

#[derive(Debug, Clone)]
struct Token {
    start: usize,
    end: usize,
    tok: Tok,
}

/// The token stream of the text, up to the first scanner error.
struct Scan {
    /// Sorted by start.
    tokens: Vec<Token>,
    /// Ranges of quoted and block scalars and of comments, in order.
    safe: Vec<(usize, usize)>,
    error: Option<(usize, ErrorKind)>,
}

fn scan_tokens(text: &str) -> Scan {
    let mut tokens = Vec::new();
    let mut error = None;
    for t in Scanner::new(StrInput::new(text)) {
        let t = match t {
            Ok(t) => t,
            Err(e) => {
                error = Some((e.marker().index(), e.kind().clone()));
                break;
            }
        };
        let span = t.span();
        let tok = match t.token_type() {
            TokenType::FlowSequenceStart | TokenType::FlowMappingStart => Tok::Flow,
            TokenType::Anchor(_) => Tok::Anchor,
            TokenType::Tag(..) => Tok::Tag,
            TokenType::Alias(name) => Tok::Alias(name.to_string()),
            TokenType::Scalar(ScalarStyle::Plain, _) => Tok::PlainScalar,
            TokenType::Scalar(ScalarStyle::Literal | ScalarStyle::Folded, _) => Tok::BlockScalar,
            TokenType::Scalar(..) => Tok::QuotedScalar,
            TokenType::DocumentEnd => Tok::DocumentEnd,
            TokenType::BlockMappingStart => Tok::BlockMappingStart,
            TokenType::BlockSequenceStart => Tok::BlockSequenceStart,
            TokenType::BlockEnd => Tok::BlockEnd,
            TokenType::StreamStart | TokenType::StreamEnd => continue,
            TokenType::Key => Tok::Other("?"),
            TokenType::Value => Tok::Other(":"),
            TokenType::BlockEntry => Tok::Other("-"),
            TokenType::FlowEntry => Tok::Other(","),
            TokenType::FlowSequenceEnd => Tok::Other("]"),
            TokenType::FlowMappingEnd => Tok::Other("}"),
            TokenType::DocumentStart => Tok::Other("<document start>"),
            TokenType::VersionDirective(..)
            | TokenType::TagDirective(..)
            | TokenType::ReservedDirective(..) => Tok::Other("<directive>"),
            #[allow(unreachable_patterns)]
            _ => Tok::Comment,
        };
        tokens.push(Token {
            start: span.start.index(),
            end: span.end.index(),
            tok,
        });
    }
    // In source order (a comment between `-` and its entry comes after the
    // entry token, which our scanner places at the content).
    tokens.sort_by_key(|t| t.start);
    let mut safe: Vec<(usize, usize)> = tokens
        .iter()
        .filter(|t| matches!(t.tok, Tok::QuotedScalar | Tok::BlockScalar | Tok::Comment))
        .map(|t| (t.start, t.end))
        .collect();
    // A quoted scalar followed by more content on its line is no token: it
    // runs from its quote to the error.
    if let Some((
        end,
        ErrorKind::InvalidTrailingSingleQuotedScalar | ErrorKind::InvalidTrailingDoubleQuotedScalar,
    )) = &error
    {
        let chars: Vec<char> = text.chars().collect();
        let mut quote = tokens.last().map_or(0, |t| t.end);
        while quote < *end && !matches!(chars.get(quote), Some('"' | '\'')) {
            quote += 1;
        }
        if quote < *end && safe.last().is_none_or(|(_, e)| *e <= quote) {
            safe.push((quote, *end));
        }
    }
    Scan {
        tokens,
        safe,
        error,
    }
}

impl Scan {
    /// ruamel's `token.id`.
    fn token_id(&self, t: &Token) -> String {
        match &t.tok {
            Tok::Flow => "[",
            Tok::Anchor => "<anchor>",
            Tok::Tag => "<tag>",
            Tok::Alias(_) => "<alias>",
            Tok::QuotedScalar | Tok::BlockScalar | Tok::PlainScalar => "<scalar>",
            Tok::DocumentEnd => "<document end>",
            Tok::BlockMappingStart => "<block mapping start>",
            Tok::BlockSequenceStart => "<block sequence start>",
            Tok::BlockEnd => "<block end>",
            Tok::Other(id) => id,
            Tok::Comment => "<comment>",
        }
        .to_owned()
    }

    /// The first token (not a comment) at or after `index`.
    fn token_from(&self, index: usize) -> Option<&Token> {
        self.tokens_from(index)
            .iter()
            .find(|t| t.tok != Tok::Comment)
    }

    /// Where ruamel's token starts: our scanner places a `-` entry token
    /// at the entry's content.
    fn token_start(&self, src: &Source, t: &Token) -> usize {
        if t.tok == Tok::Other("-") {
            let mut i = t.start;
            while i > 0 && src.chars[i - 1] == ' ' {
                i -= 1;
            }
            if i > 0 && src.chars[i - 1] == '-' {
                return i - 1;
            }
        }
        t.start
    }

    /// Whether a tab at `index` is content of a quoted or block scalar or of
    /// a comment.
    fn tab_safe(&self, index: usize) -> bool {
        let after = self.safe.partition_point(|(start, _)| *start <= index);
        self.safe[..after]
            .iter()
            .rev()
            .take(2)
            .any(|(_, end)| index < *end)
    }

    /// Tokens from the first one that starts at or after `index`.
    fn tokens_from(&self, index: usize) -> &[Token] {
        &self.tokens[self.tokens.partition_point(|t| t.start < index)..]
    }

    /// Whether ruamel swallows the tab at `index` (between tokens): after a
    /// line break, an empty line makes its scanner consume every following
    /// blank, tab and line break. Not after a plain or block scalar (whose
    /// own scan eats the line breaks), nor in the line breaks right after a
    /// comment.
    fn tab_swallowed(&self, text: &[char], index: usize) -> bool {
        let mut run = index;
        while run > 0 && matches!(text[run - 1], ' ' | '\t' | '\n') {
            run -= 1;
        }
        let previous = self.tokens[..self.tokens.partition_point(|t| t.start < run)]
            .iter()
            .rev()
            .find(|t| t.end <= run && t.end > t.start);
        let mut p = run;
        match previous.map(|t| &t.tok) {
            Some(Tok::PlainScalar | Tok::BlockScalar) => return false,
            Some(Tok::Comment) => {
                while p < index && text[p] == '\n' {
                    p += 1;
                }
            }
            _ => {}
        }
        (p..index).any(|q| text[q] == '\n' && text.get(q + 1) == Some(&'\n'))
    }

    /// The innermost block collection open at `index` (after the block ends
    /// at `index`): its start token and position.
    fn open_block_at(&self, index: usize) -> Option<(Tok, usize)> {
        let mut stack: Vec<(Tok, usize)> = Vec::new();
        for t in self
            .tokens
            .iter()
            .take_while(|t| t.start < index || (t.start == index && t.tok == Tok::BlockEnd))
        {
            match t.tok {
                Tok::BlockMappingStart | Tok::BlockSequenceStart => {
                    stack.push((t.tok.clone(), t.start));
                }
                Tok::BlockEnd => {
                    stack.pop();
                }
                _ => {}
            }
        }
        stack.pop()
    }

    /// End of the scalar token that starts at `index` (a key's end mark).
    fn end_of_token_at(&self, index: usize) -> Option<usize> {
        self.tokens_from(index)
            .iter()
            .take_while(|t| t.start == index)
            .find(|t| {
                t.start == index
                    && t.end > t.start
                    && matches!(
                        t.tok,
                        Tok::PlainScalar | Tok::QuotedScalar | Tok::BlockScalar
                    )
            })
            .map(|t| t.end)
    }

    /// Position of the block end that closes the block collection starting
    /// at `index` (ruamel's `MappingNode.end_mark`).
    fn block_end_of(&self, index: usize) -> Option<usize> {
        let open = self.tokens.iter().position(|t| {
            t.start == index && matches!(t.tok, Tok::BlockMappingStart | Tok::BlockSequenceStart)
        })?;
        let mut depth = 0usize;
        for t in &self.tokens[open..] {
            match t.tok {
                Tok::BlockMappingStart | Tok::BlockSequenceStart => depth += 1,
                Tok::BlockEnd => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(t.start);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// The first error strictyaml meets while scanning, parsing and composing,
/// in source order: a refused token (flow collection, anchor, tag), an alias
/// (never defined, since anchors are refused), a tab where a token would
/// start, a document that starts with `...`, or the syntax error of our parser
/// translated to ruamel's wording. `doc_end` is where a second document
/// starts (its tokens are never reached).
fn first_stream_error(
    src: &Source,
    scan: &Scan,
    parsed: &Result<yaml::Doc, YamlError>,
    doc_end: Option<usize>,
) -> Option<String> {
    let limit = doc_end.unwrap_or(usize::MAX);
    // (position, rank, message): at the same position, a parser error met
    // while peeking at a token (rank 0) comes before the token's own check.
    let mut best: Option<(usize, u8, String)> = None;
    let mut offer_ranked = |index: usize, rank: u8, message: String| {
        if index < limit
            && best
                .as_ref()
                .is_none_or(|(i, r, _)| (index, rank) < (*i, *r))
        {
            best = Some((index, rank, message));
        }
    };
    let mut offer = |index: usize, message: String| offer_ranked(index, 1, message);

    // Tokens strictyaml refuses, and an alias that cannot resolve.
    for t in &scan.tokens {
        let message = match &t.tok {
            Tok::Flow => flow_error(src, t.start, t.end),
            Tok::Anchor => src.error(
                Some("While scanning"),
                Some(t.start),
                Some(
                    "Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)",
                ),
                Some(t.end),
            ),
            Tok::Tag => src.error(
                Some("While scanning"),
                Some(t.end),
                Some("Found disallowed tag tokens (do not specify types in markup)"),
                Some(t.start),
            ),
            Tok::Alias(name) => {
                // ruamel reads the next token before composing the alias.
                if let Some((i, e)) = next_token_error(src, scan, t.end) {
                    offer(i, e);
                    break;
                }
                src.error(
                    None,
                    None,
                    Some(&format!("found undefined alias {}", py_repr(name))),
                    Some(t.start),
                )
            }
            _ => continue,
        };
        offer(t.start, message);
        break;
    }

    // A document whose first token is `...` has no node.
    if let Some(t) = scan.tokens.iter().find(|t| t.tok != Tok::Comment)
        && t.tok == Tok::DocumentEnd
    {
        offer(
            t.start,
            src.error(
                Some("while parsing a block node"),
                Some(t.start),
                Some("expected the node content, but found '<document end>'"),
                Some(t.start),
            ),
        );
    }

    // ruamel skips only spaces between tokens and ends plain scalars at a
    // tab: a tab anywhere but inside a quoted or block scalar or a comment
    // cannot start a token. (Up to where our scanner got.)
    let scanned_to = scan.error.as_ref().map_or(src.chars.len(), |(i, _)| *i);
    if let Some(i) = (0..scanned_to).find(|&i| src.work[i] == '\t' && !scan.tab_safe(i)) {
        offer(i, tab_error(src, i));
    }

    // Our parser's syntax error, in ruamel's words where we know them.
    if let Err(e) = parsed {
        let (message, pos) = match e {
            YamlError::Syntax { message, pos } | YamlError::Budget { message, pos } => {
                (message.as_str(), *pos)
            }
        };
        if is_kind(message, ErrorKind::UnknownAnchor) {
            // The alias, reported above.
            return best.map(|(_, _, m)| m);
        }
        let index = src.index_of(pos);
        let peek = [
            ErrorKind::ExpectedBlockMappingKey,
            ErrorKind::ExpectedBlockSequenceEntry,
            ErrorKind::CommentInterceptedScalar,
        ]
        .into_iter()
        .any(|k| is_kind(message, k));
        let (index, message) = ruamel_syntax_error(src, scan, message, index);
        offer_ranked(index, if peek { 0 } else { 2 }, message);
    }
    best.map(|(_, _, m)| m)
}

fn tab_error(src: &Source, index: usize) -> String {
    src.error(
        Some("while scanning for the next token"),
        Some(index),
        Some("found character '\\t' that cannot start any token"),
        Some(index),
    )
}

/// Whether our parser's error `message` is `kind`'s.
fn is_kind(message: &str, kind: ErrorKind) -> bool {
    message == kind.to_string()
}

/// ruamel's text (and source position, for ordering) for a syntax error
/// our parser reports as `message` at `index`.
/// ruamel's "expected <block end>, but found …" in the block collection open at `open_at`,
/// reported at `at`.
fn expected_block_end(
    src: &Source,
    scan: &Scan,
    open_at: usize,
    at: usize,
    found: &str,
) -> (usize, String) {
    let (context, open) = match scan.open_block_at(open_at) {
        Some((Tok::BlockSequenceStart, start)) => ("while parsing a block collection", start),
        Some((_, start)) => ("while parsing a block mapping", start),
        None => ("while parsing a block mapping", 0),
    };
    (
        at,
        src.error(
            Some(context),
            Some(open),
            Some(&format!(
                "expected <block end>, but found {}",
                py_repr(found)
            )),
            Some(at),
        ),
    )
}

fn ruamel_syntax_error(src: &Source, scan: &Scan, message: &str, index: usize) -> (usize, String) {
    let is = |k: ErrorKind| is_kind(message, k);
    let at = |i: usize| src.chars.get(i).copied().unwrap_or('\0');
    let simple = |problem: &str| src.error(None, None, Some(problem), Some(index));

    if [
        ErrorKind::TabNotAllowed,
        ErrorKind::TabInBlockIndentation,
        ErrorKind::TabInIndentation,
        ErrorKind::TabInPlainScalar,
        ErrorKind::TabAtBlockScalarStart,
    ]
    .into_iter()
    .any(is)
    {
        // The tab our parser refuses, where ruamel refuses it.
        let line_start = src.line_start(index);
        if let Some(i) =
            (line_start..src.work.len()).find(|&i| src.work[i] == '\t' && !scan.tab_safe(i))
        {
            return (i, tab_error(src, i));
        }
    }
    if is(ErrorKind::MappingValueNotAllowed)
        || is(ErrorKind::InvalidColonPlacement)
        || is(ErrorKind::InvalidMappingValueWhitespace)
    {
        return (index, simple("mapping values are not allowed here"));
    }
    if is(ErrorKind::BlockSequenceEntryNotAllowed) {
        return (index, simple("sequence entries are not allowed here"));
    }
    if is(ErrorKind::MappingKeyNotAllowed) {
        return (index, simple("mapping keys are not allowed here"));
    }
    if let Some(ErrorKind::UnexpectedCharacter { character }) = scan.error.as_ref().map(|e| &e.1)
        && is(ErrorKind::UnexpectedCharacter {
            character: *character,
        })
    {
        return (
            index,
            src.error(
                Some("while scanning for the next token"),
                Some(index),
                Some(&format!(
                    "found character {} that cannot start any token",
                    py_repr(&character.to_string())
                )),
                Some(index),
            ),
        );
    }
    if is(ErrorKind::ExpectedBlockMappingKey)
        || is(ErrorKind::ExpectedBlockSequenceEntry)
        || is(ErrorKind::InvalidTrailingSingleQuotedScalar)
        || is(ErrorKind::InvalidTrailingDoubleQuotedScalar)
    {
        // The parser met a token that cannot continue the open collection
        // (the collections it closes first are not it).
        let trailing = is(ErrorKind::InvalidTrailingSingleQuotedScalar)
            || is(ErrorKind::InvalidTrailingDoubleQuotedScalar);
        let token = scan
            .tokens
            .iter()
            .find(|t| !matches!(t.tok, Tok::Comment | Tok::BlockEnd) && t.start >= index);
        let (id, at_token, context_at) = match token {
            _ if trailing => {
                // ruamel's scanner reads the rest of the line first.
                if let Some(e) = trailing_content_error(src, scan, index) {
                    return e;
                }
                (src.token_id_at_char(index), index, index)
            }
            Some(t) => (scan.token_id(t), scan.token_start(src, t), t.start),
            None => ("<stream end>".to_owned(), index, index),
        };
        if !trailing && let Some(i) = key_lookahead_tab(src, at_token) {
            return (i, tab_error(src, i));
        }
        return expected_block_end(src, scan, context_at, at_token, &id);
    }
    if is(ErrorKind::CommentInterceptedScalar) {
        // ruamel ends the plain scalar at the comment; the next line's
        // content is a token of its own that cannot continue the collection.
        let next = src.next_token_after_line(index);
        if let Some(i) = key_lookahead_tab(src, next) {
            return (i, tab_error(src, i));
        }
        let id = if src.opens_block_mapping(next) {
            "<block mapping start>".to_owned()
        } else if at(next) == '-' && matches!(at(next + 1), '\0' | ' ' | '\t' | '\n') {
            "<block sequence start>".to_owned()
        } else {
            src.token_id_at_char(next)
        };
        return expected_block_end(src, scan, index, next, &id);
    }
    if is(ErrorKind::ExpectedNodeContent) || is(ErrorKind::UnexpectedEofBlockSequence) {
        let token = scan.token_from(index);
        let (id, at_token) = token.map_or(("<stream end>".to_owned(), index), |t| {
            (scan.token_id(t), scan.token_start(src, t))
        });
        return (
            at_token,
            src.error(
                Some("while parsing a block node"),
                Some(at_token),
                Some(&format!(
                    "expected the node content, but found {}",
                    py_repr(&id)
                )),
                Some(at_token),
            ),
        );
    }
    if is(ErrorKind::MissingDocumentEndBeforeDirective) || is(ErrorKind::ExpectedDocumentStart) {
        // A `%` directive line inside the frontmatter (at or just before
        // the error).
        let mut line = src.line_start(index);
        if at(line) != '%' && line > 0 {
            let mut previous = src.line_start(line - 1);
            while previous > 0
                && src.chars[previous..line]
                    .iter()
                    .all(|c| matches!(c, ' ' | '\n'))
            {
                previous = src.line_start(previous - 1);
            }
            line = previous;
        }
        if at(line) == '%' {
            return (index, directive_error(src, line));
        }
    }
    if is(ErrorKind::ExpectedDocumentStart) || is(ErrorKind::MultipleDocumentsUnsupported) {
        let first = scan
            .tokens
            .iter()
            .find(|t| t.tok != Tok::Comment)
            .map_or(0, |t| t.start);
        return (
            index,
            src.error(
                Some("expected a single document in the stream"),
                Some(first),
                Some("but found another document"),
                Some(index),
            ),
        );
    }
    if is(ErrorKind::SimpleKeyExpected) || is(ErrorKind::InvalidSimpleKey) {
        // A tab after the key on its line stops ruamel first.
        if let Some(i) = (index..src.work.len())
            .take_while(|&i| src.work[i] != '\n')
            .find(|&i| src.work[i] == '\t' && !scan.tab_safe(i))
        {
            return (i, tab_error(src, i));
        }
        // ruamel notices when it reaches the next token on another line.
        let next = scan
            .tokens
            .iter()
            .find(|t| t.start == index && t.end > t.start)
            .and_then(|key| scan.token_from(key.end))
            .map_or_else(|| src.after_plain_scalar(index), |t| t.start);
        return (
            index,
            src.error(
                Some("while scanning a simple key"),
                Some(index),
                Some("could not find expected ':'"),
                Some(next),
            ),
        );
    }
    if is(ErrorKind::UnclosedQuotedScalar) {
        return (
            index,
            src.error(
                Some("while scanning a quoted scalar"),
                Some(index),
                Some("found unexpected end of stream"),
                Some(src.chars.len()),
            ),
        );
    }
    if is(ErrorKind::DocumentIndicatorInQuotedScalar) {
        let separator = (index..src.chars.len())
            .find(|&i| src.is_document_indicator(i))
            .unwrap_or(index);
        return (
            index,
            src.error(
                Some("while scanning a quoted scalar"),
                Some(index),
                Some("found unexpected document separator"),
                Some(separator),
            ),
        );
    }
    if (is(ErrorKind::UnknownQuotedScalarEscape)
        || is(ErrorKind::InvalidQuotedScalarHexEscape)
        || is(ErrorKind::InvalidUnicodeEscape))
        && let Some((problem, i)) = double_quoted_escape_error(src, index)
    {
        return (
            index,
            src.error(
                Some("while scanning a double-quoted scalar"),
                Some(index),
                Some(&problem),
                Some(i),
            ),
        );
    }
    if is(ErrorKind::ZeroBlockScalarIndent)
        || is(ErrorKind::InvalidBlockScalarHeader)
        || is(ErrorKind::CommentNotSeparated)
    {
        // The block scalar indicator is at `index`, or (a comment glued to
        // the header) earlier on the line.
        let line_start = src.line_start(index);
        let indicator = (line_start..=index.min(src.chars.len()))
            .rev()
            .find(|&i| matches!(at(i), '|' | '>'));
        if let Some((problem, i)) = indicator.and_then(|h| block_header_error(src, h)) {
            let h = indicator.unwrap_or(index);
            return (
                h,
                src.error(
                    Some("while scanning a block scalar"),
                    Some(h),
                    Some(&problem),
                    Some(i),
                ),
            );
        }
    }
    if is(ErrorKind::MissingAnchorOrAliasName) {
        let name = if at(index) == '&' { "anchor" } else { "alias" };
        return (
            index,
            src.error(
                Some(&format!("while scanning an {name}")),
                Some(index),
                Some(&format!(
                    "expected alphabetic or numeric character, but found {}",
                    py_repr(&at(index + 1).to_string())
                )),
                Some(index + 1),
            ),
        );
    }
    if is(ErrorKind::UnclosedFlowCollection { open: '[' })
        || is(ErrorKind::UnclosedFlowCollection { open: '{' })
    {
        return (index, flow_error(src, index, index + 1));
    }
    if is(ErrorKind::MisplacedFlowCollectionEnd) {
        // ruamel reads `]` / `}` as a token: where a node may start it is not
        // a node, elsewhere it does not continue the block collection.
        let previous = scan
            .tokens
            .iter()
            .rev()
            .find(|t| t.tok != Tok::Comment && t.start < index);
        let id = at(index).to_string();
        if previous.is_none_or(|t| matches!(t.tok, Tok::Other(":" | "-" | "?"))) {
            return (
                index,
                src.error(
                    Some("while parsing a block node"),
                    Some(index),
                    Some(&format!(
                        "expected the node content, but found {}",
                        py_repr(&id)
                    )),
                    Some(index),
                ),
            );
        }
        let (context, open) = match scan.open_block_at(index) {
            Some((Tok::BlockSequenceStart, start)) => ("while parsing a block collection", start),
            Some((_, start)) => ("while parsing a block mapping", start),
            None => ("while parsing a block mapping", 0),
        };
        return (
            index,
            src.error(
                Some(context),
                Some(open),
                Some(&format!("expected <block end>, but found {}", py_repr(&id))),
                Some(index),
            ),
        );
    }
    (index, simple(message))
}

/// After a directive (the `%` line at `directive`) ruamel wants `---`,
/// which the frontmatter cannot hold: what it reports instead.
fn directive_error(src: &Source, directive: usize) -> String {
    let at = |i: usize| src.chars.get(i).copied().unwrap_or('\0');
    let next = src.next_token_after_line(directive);
    let found = |id: &str| {
        src.error(
            None,
            None,
            Some(&format!(
                "expected '<document start>', but found {}",
                py_repr(id)
            )),
            Some(next),
        )
    };
    if next >= src.chars.len() {
        return found("<stream end>");
    }
    if src.is_document_indicator(next) && at(next) == '.' {
        return found("<document end>");
    }
    let id = src.token_id_at_char(next);
    // The directive leaves simple keys off.
    let problem = match id.as_str() {
        "?" => Some("mapping keys are not allowed here"),
        "-" => Some("sequence entries are not allowed here"),
        _ => None,
    };
    if let Some(problem) = problem {
        return src.error(None, None, Some(problem), Some(next));
    }
    if id == "<scalar>" && !matches!(at(next), '"' | '\'' | '|' | '>') {
        // A `key:` on the next line is a value indicator out of place.
        let colon = (next..src.chars.len())
            .take_while(|&i| at(i) != '\n' && !(at(i) == '#' && i > 0 && at(i - 1) == ' '))
            .find(|&i| at(i) == ':' && matches!(at(i + 1), '\0' | ' ' | '\t' | '\n'));
        if let Some(colon) = colon {
            return src.error(
                None,
                None,
                Some("mapping values are not allowed here"),
                Some(colon),
            );
        }
    }
    found(&id)
}

fn flow_error(src: &Source, start: usize, end: usize) -> String {
    src.error(
        Some("While scanning"),
        Some(start),
        Some(
            "Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)",
        ),
        Some(end),
    )
}

/// Content after a closing quote on the same line: ruamel scans it before
/// its parser complains, so a character that cannot start a token or a tab
/// in it is reported instead.
/// What ruamel's scanner meets when it reads the one token after an alias
/// (which might be a simple key): a tab, a character that cannot start a
/// token, a `?` or `-` indicator where no key can start, a broken block
/// scalar header; after a comment or line break, the first character of
/// the next line's token.
fn next_token_error(src: &Source, scan: &Scan, from: usize) -> Option<(usize, String)> {
    let at = |i: usize| src.chars.get(i).copied().unwrap_or('\0');
    let blank = |c: char| matches!(c, '\0' | ' ' | '\t' | '\n');
    let mut i = from;
    while at(i) == ' ' {
        i += 1;
    }
    if matches!(at(i), '\n' | '#') {
        i = src.next_token_after_line(i);
        return match at(i) {
            '\t' | '@' | '`' => trailing_content_error(src, scan, i),
            _ => None,
        };
    }
    let problem = match at(i) {
        '?' if blank(at(i + 1)) => "mapping keys are not allowed here",
        '-' if blank(at(i + 1)) => "sequence entries are not allowed here",
        '\t' | '@' | '`' | '%' | '|' | '>' => return trailing_content_error(src, scan, i),
        _ => return None,
    };
    Some((i, src.error(None, None, Some(problem), Some(i))))
}

/// The first tab in a plain scalar that starts a line at `start` (a
/// possible simple key, which ruamel resolves by reading on to its `:`).
fn key_lookahead_tab(src: &Source, start: usize) -> Option<usize> {
    let at = |i: usize| src.chars.get(i).copied().unwrap_or('\0');
    if src.chars[src.line_start(start)..start.min(src.chars.len())]
        .iter()
        .any(|c| *c != ' ')
    {
        return None;
    }
    if matches!(
        at(start),
        '"' | '\'' | '[' | '{' | '|' | '>' | '#' | '&' | '*' | '!'
    ) {
        return None;
    }
    let mut i = start;
    while !matches!(at(i), '\0' | '\n') {
        match at(i) {
            '\t' => return Some(i),
            ':' if matches!(at(i + 1), '\0' | ' ' | '\t' | '\n') => return None,
            '#' if i > start && at(i - 1) == ' ' => return None,
            _ => i += 1,
        }
    }
    None
}

fn trailing_content_error(src: &Source, scan: &Scan, index: usize) -> Option<(usize, String)> {
    let at = |i: usize| src.chars.get(i).copied().unwrap_or('\0');
    let c = at(index);
    if matches!(c, '@' | '`' | '%') {
        return Some((
            index,
            src.error(
                Some("while scanning for the next token"),
                Some(index),
                Some(&format!(
                    "found character {} that cannot start any token",
                    py_repr(&c.to_string())
                )),
                Some(index),
            ),
        ));
    }
    if matches!(c, '|' | '>') {
        return block_header_error(src, index).map(|(problem, i)| {
            (
                index,
                src.error(
                    Some("while scanning a block scalar"),
                    Some(index),
                    Some(&problem),
                    Some(i),
                ),
            )
        });
    }
    if matches!(c, '"' | '\'' | '[' | '{' | '&' | '!' | '*') {
        return None;
    }
    // A plain scalar, over the lines indented deeper than the open block
    // collection: it ends at a tab (which cannot start a token), and a `: `
    // in it is a value indicator where no key can start.
    let indent = scan
        .open_block_at(index)
        .map_or(0, |(_, start)| src.line_col(start).1 + 1);
    let mut i = index;
    loop {
        match at(i) {
            '\0' => return None,
            '\t' => return Some((i, tab_error(src, i))),
            ':' if matches!(at(i + 1), '\0' | ' ' | '\t' | '\n') => {
                return Some((
                    i,
                    src.error(
                        None,
                        None,
                        Some("mapping values are not allowed here"),
                        Some(i),
                    ),
                ));
            }
            '#' if i > index && at(i - 1) == ' ' => return None,
            '\n' => {
                let mut j = i + 1;
                while matches!(at(j), ' ' | '\n') {
                    j += 1;
                }
                if at(j) == '\t' {
                    return Some((j, tab_error(src, j)));
                }
                if matches!(at(j), '\0' | '#')
                    || src.is_document_indicator(j)
                    || j - src.line_start(j) < indent
                {
                    return None;
                }
                i = j;
            }
            _ => i += 1,
        }
    }
}

/// ruamel's scan of a double-quoted scalar opening at `quote`: the first
/// escape it refuses (problem, position).
fn double_quoted_escape_error(src: &Source, quote: usize) -> Option<(String, usize)> {
    let at = |i: usize| src.chars.get(i).copied().unwrap_or('\0');
    if at(quote) != '"' {
        return None;
    }
    let mut i = quote + 1;
    while i < src.chars.len() {
        match at(i) {
            '"' => return None,
            '\\' => {
                let c = at(i + 1);
                let hex = match c {
                    'x' => 2,
                    'u' => 4,
                    'U' => 8,
                    _ => 0,
                };
                if hex > 0 {
                    for k in 0..hex {
                        let d = at(i + 2 + k);
                        if !d.is_ascii_hexdigit() {
                            return Some((
                                format!(
                                    "expected escape sequence of {hex} hexdecimal numbers, but found {}",
                                    py_repr(&d.to_string())
                                ),
                                i + 2,
                            ));
                        }
                    }
                    i += 2 + hex;
                } else if "0abt\tnvfre \"/\\N_LP\n\r\u{85}\u{2028}\u{2029}".contains(c) {
                    i += 2;
                } else {
                    return Some((
                        format!("found unknown escape character {}", py_repr(&c.to_string())),
                        i + 1,
                    ));
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// ruamel's scan of a block scalar header whose indicator (`|` or `>`) is
/// at `indicator`: the problem it reports (and where), if any.
fn block_header_error(src: &Source, indicator: usize) -> Option<(String, usize)> {
    let at = |i: usize| src.chars.get(i).copied().unwrap_or('\0');
    let line_end = |c: char| matches!(c, '\0' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}');
    let zero = |i: usize| {
        Some((
            "expected indentation indicator in the range 1-9, but found 0".to_owned(),
            i,
        ))
    };
    let mut i = indicator + 1;
    if matches!(at(i), '+' | '-') {
        i += 1;
        if at(i).is_ascii_digit() {
            if at(i) == '0' {
                return zero(i);
            }
            i += 1;
        }
    } else if at(i).is_ascii_digit() {
        if at(i) == '0' {
            return zero(i);
        }
        i += 1;
        if matches!(at(i), '+' | '-') {
            i += 1;
        }
    }
    if !(at(i) == ' ' || line_end(at(i))) {
        return Some((
            format!(
                "expected chomping or indentation indicators, but found {}",
                py_repr(&at(i).to_string())
            ),
            i,
        ));
    }
    while at(i) == ' ' {
        i += 1;
    }
    if at(i) == '#' {
        while !line_end(at(i)) {
            i += 1;
        }
    }
    if !line_end(at(i)) {
        return Some((
            format!(
                "expected a comment or a line break, but found {}",
                py_repr(&at(i).to_string())
            ),
            i,
        ));
    }
    None
}

// ---------------------------------------------------------------------------
// Construction (ruamel's RoundTripConstructor as strictyaml configures it).
// ---------------------------------------------------------------------------

struct Construct<'a, 'n> {
    src: &'a Source,
    scan: &'a Scan,
    /// Merged (`<<`) mappings, constructed after the document.
    deferred: Vec<&'n Node>,
    /// A list was used as a mapping key (strictyaml asserts on it later).
    list_key: bool,
}

/// A constructed mapping key, compared as Python compares them.
#[derive(Debug, Clone, PartialEq)]
enum Key {
    Str(String),
    /// A `TaggedScalar` never equals another key.
    Unique,
    Tuple(Vec<Key>),
}

fn node_id(node: &Node) -> &'static str {
    match node.kind {
        NodeKind::Scalar { .. } => "scalar",
        NodeKind::Seq { .. } => "sequence",
        NodeKind::Map { .. } => "mapping",
    }
}

/// A plain scalar whose implicit tag has no constructor (`=` → value,
/// `<<` → merge).
fn plain_is(node: &Node, s: &str) -> bool {
    matches!(&node.kind, NodeKind::Scalar { text, style: Style::Plain, .. } if text == s)
}

impl<'a, 'n> Construct<'a, 'n> {
    /// ruamel's start mark of a node: an empty node is placed at the token
    /// that follows it.
    fn at(&self, node: &Node) -> usize {
        let index = self.src.index_of(node.pos);
        if self.is_empty_node(node) {
            return self
                .scan
                .token_from(index)
                .map_or(self.src.chars.len(), |t| t.start);
        }
        index
    }

    /// Our parser gives an empty node as a plain `~`: one with no scalar
    /// token at its position.
    fn is_empty_node(&self, node: &Node) -> bool {
        matches!(&node.kind, NodeKind::Scalar { text, style: Style::Plain, .. } if text == "~")
            && self
                .scan
                .end_of_token_at(self.src.index_of(node.pos))
                .is_none()
    }

    /// A scalar's string value (strictyaml reads an empty node as `""`).
    fn scalar_text(&self, node: &Node) -> String {
        match &node.kind {
            _ if self.is_empty_node(node) => String::new(),
            NodeKind::Scalar { text, .. } => text.clone(),
            _ => String::new(),
        }
    }

    fn construct(&mut self, node: &'n Node) -> Result<Value, LoadError> {
        match &node.kind {
            NodeKind::Scalar { .. } => {
                if plain_is(node, "=") || plain_is(node, "<<") {
                    Ok(Value::Tagged)
                } else {
                    Ok(Value::Str(self.scalar_text(node)))
                }
            }
            NodeKind::Seq { items, .. } => items
                .iter()
                .map(|item| self.construct(item))
                .collect::<Result<Vec<_>, _>>()
                .map(Value::List),
            NodeKind::Map { entries, .. } => self.construct_mapping(node, entries),
        }
    }

    fn key(&mut self, node: &'n Node) -> Result<Key, LoadError> {
        match &node.kind {
            // `=` as a key is retagged as a string by flatten_mapping.
            NodeKind::Scalar { .. } => Ok(Key::Str(self.scalar_text(node))),
            NodeKind::Seq { items, .. } => {
                self.list_key = true;
                let mut out = Vec::new();
                for item in items {
                    out.push(match self.construct(item)? {
                        Value::Str(s) => Key::Str(s),
                        _ => Key::Unique,
                    });
                }
                Ok(Key::Tuple(out))
            }
            // Refused by construct_mapping before it asks for the key.
            NodeKind::Map { .. } => Ok(Key::Unique),
        }
    }

    fn construct_mapping(
        &mut self,
        node: &'n Node,
        entries: &'n [(Node, Node)],
    ) -> Result<Value, LoadError> {
        let start = self.at(node);
        let constructing = Some("while constructing a mapping");
        // flatten_mapping: `<<` entries leave the mapping; their values must
        // be mappings or lists of mappings.
        let mut merged = false;
        for (k, v) in entries.iter().filter(|(k, _)| plain_is(k, "<<")) {
            if merged {
                // ruamel's DuplicateKeyError is no YAMLError: skills-ref
                // lets it escape.
                let message = self.src.error(
                    constructing,
                    Some(start),
                    Some("found duplicate key \"<<\""),
                    Some(self.at(k)),
                );
                return Err(LoadError::Crash(format!(
                    "DuplicateKeyError: {message}\n\nTo suppress this check see:\n   \
                     http://yaml.readthedocs.io/en/latest/api.html#duplicate-keys\n\n\
                     Duplicate keys will become an error in future releases, and are errors\n\
                     by default when using the new API.\n"
                )));
            }
            match &v.kind {
                NodeKind::Map { .. } => {
                    self.deferred.push(v);
                    merged = true;
                }
                NodeKind::Seq { items, .. } => {
                    for item in items {
                        if !matches!(item.kind, NodeKind::Map { .. }) {
                            return Err(LoadError::Yaml(self.src.error(
                                constructing,
                                Some(start),
                                Some(&format!(
                                    "expected a mapping for merging, but found {}",
                                    node_id(item)
                                )),
                                Some(self.at(item)),
                            )));
                        }
                        self.deferred.push(item);
                        merged = true;
                    }
                }
                NodeKind::Scalar { .. } => {
                    return Err(LoadError::Yaml(self.src.error(
                        constructing,
                        Some(start),
                        Some(&format!(
                            "expected a mapping or list of mappings for merging, but found {}",
                            node_id(v)
                        )),
                        Some(self.at(v)),
                    )));
                }
            }
        }
        let mut out: Vec<(Key, Value)> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        for (k, v) in entries.iter().filter(|(k, _)| !plain_is(k, "<<")) {
            let key = if let NodeKind::Map { entries: inner, .. } = &k.kind {
                self.construct_mapping(k, inner)?;
                return Err(LoadError::Yaml(self.src.error(
                    constructing,
                    Some(start),
                    Some("found unhashable key"),
                    Some(self.at(k)),
                )));
            } else {
                self.key(k)?
            };
            let value = self.construct(v)?;
            let again = match &key {
                Key::Str(k) => !seen.insert(k.clone()),
                Key::Unique => false,
                Key::Tuple(_) => out.iter().any(|(seen, _)| *seen == key),
            };
            if again {
                let key_start = self.at(k);
                let shown = match &key {
                    Key::Str(s) => s.clone(),
                    other => format!("{other:?}"),
                };
                return Err(LoadError::Yaml(self.src.error(
                    Some("While parsing"),
                    Some(key_start),
                    Some(&format!("Duplicate key '{shown}' found")),
                    Some(self.scan.end_of_token_at(key_start).unwrap_or(key_start)),
                )));
            }
            out.push((key, value));
        }
        // Sibling mappings must start at the same column.
        let mut previous = None;
        for (_, v) in entries.iter().filter(|(k, _)| !plain_is(k, "<<")) {
            if !matches!(v.kind, NodeKind::Map { .. }) {
                continue;
            }
            let at = self.at(v);
            let column = self.src.line_col(at).1;
            let first = *previous.get_or_insert(column);
            if column != first {
                return Err(LoadError::Yaml(self.src.error(
                    Some("While parsing"),
                    Some(at),
                    Some("Found mapping with indentation inconsistent with previous mapping"),
                    Some(self.scan.block_end_of(at).unwrap_or(self.src.chars.len())),
                )));
            }
        }
        Ok(Value::Map(
            out.into_iter()
                .filter_map(|(k, v)| match k {
                    Key::Str(s) => Some((s, v)),
                    _ => None,
                })
                .collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fm(yaml: &str) -> Vec<String> {
        validate(
            "my-skill",
            Some(format!("---\n{yaml}---\n").as_bytes()),
            None,
        )
    }

    #[test]
    fn frontmatter_ends_at_the_first_dashes_substring() {
        assert!(fm("name: my-skill\ndescription: a---b\n").is_empty());
        // The value is cut at the dashes: "a" only, the rest is body.
        let long = format!("name: my-skill\ndescription: a---{}\n", "x".repeat(2000));
        assert!(fm(&long).is_empty());
        // `----` leaves a `-` for YAML.
        let r = validate(
            "my-skill",
            Some(b"----\nname: my-skill\ndescription: d\n---\n"),
            None,
        );
        assert_eq!(r.len(), 1);
        assert!(r[0].starts_with("Invalid YAML in frontmatter: while parsing a block node\n"));
        // Unclosed: only one `---`.
        assert_eq!(
            validate("my-skill", Some(b"---\nname: my-skill\n"), None),
            ["SKILL.md frontmatter not properly closed with ---"]
        );
        // A `---` inside the opening line's rest still closes it.
        assert_eq!(
            validate("my-skill", Some(b"------\n"), None),
            ["SKILL.md frontmatter must be a YAML mapping"]
        );
    }

    #[test]
    fn crlf_and_cr_are_newlines() {
        let r = validate(
            "my-skill",
            Some(b"---\r\nname: my-skill\r\ndescription: d\r---\r\n"),
            None,
        );
        assert!(r.is_empty(), "{r:?}");
    }

    #[test]
    fn names_are_nfkc_normalised_after_strip() {
        // Fullwidth letters fold to ASCII.
        assert!(fm("name: ｍｙ-ｓｋｉｌｌ\ndescription: d\n").is_empty());
        // Length is counted after NFKC.
        let name = "\u{FB01}".repeat(40);
        let r = validate(
            &name,
            Some(format!("---\nname: {name}\ndescription: d\n---\n").as_bytes()),
            None,
        );
        assert_eq!(
            r,
            [format!(
                "Skill name '{}' exceeds 64 character limit (80 chars)",
                "fi".repeat(40)
            )]
        );
        // The message shows the NFKC form; the directory is shown raw.
        assert_eq!(
            validate(
                "Skill-\u{2168}",
                Some("---\nname: skill-\u{2178}\ndescription: d\n---\n".as_bytes()),
                None
            ),
            ["Directory name 'Skill-\u{2168}' must match skill name 'skill-ix'"]
        );
        assert_eq!(
            fm("name: \u{1C5}\ndescription: d\n")[0],
            "Skill name 'D\u{17E}' must be lowercase"
        );
    }

    #[test]
    fn isalnum_follows_python() {
        for c in ['a', 'ß', 'Ж', '技', '٣', 'Ⅸ', '½', '²', 'ǅ'] {
            assert!(py_isalnum(c), "{c:?}");
        }
        // Marks, circled letters, punctuation and format characters are not.
        for c in [
            '\u{301}', '\u{93E}', 'Ⓐ', '🄰', '_', '.', ' ', '\u{200B}', '\0', '-',
        ] {
            assert!(!py_isalnum(c), "{c:?}");
        }
    }

    #[test]
    fn strip_follows_python() {
        assert_eq!(py_strip("\u{1c} a \u{3000}"), "a");
        assert_eq!(py_strip("\u{200B}a"), "\u{200B}a");
    }

    #[test]
    fn scalars_are_strings() {
        for v in ["true", "null", "1.0", "123", "~", "yes", "0x1F"] {
            assert!(
                fm(&format!("name: my-skill\ndescription: {v}\n")).is_empty(),
                "{v}"
            );
        }
        // `=` resolves to a tag without a constructor: not a string.
        assert_eq!(
            fm("name: my-skill\ndescription: =\n"),
            ["Field 'description' must be a non-empty string"]
        );
        assert_eq!(
            fm("name: my-skill\ndescription: d\ncompatibility: =\n"),
            ["Field 'compatibility' must be a string"]
        );
        // An empty value is "".
        assert_eq!(
            fm("name: my-skill\ndescription:\n"),
            ["Field 'description' must be a non-empty string"]
        );
        // A blank name is not a non-empty string either.
        assert_eq!(
            fm("name: \"  \"\ndescription: d\n"),
            ["Field 'name' must be a non-empty string"]
        );
    }

    #[test]
    fn strict_yaml_messages_are_ruamels() {
        assert_eq!(
            fm("name: my-skill\ndescription: d\nname: x\n"),
            [
                "Invalid YAML in frontmatter: While parsing\n  in \"<unicode string>\", line 4, column 1:\n    name: x\n    ^ (line: 4)\nDuplicate key 'name' found\n  in \"<unicode string>\", line 4, column 5:\n    name: x\n        ^ (line: 4)"
            ]
        );
        assert_eq!(
            fm("name: my-skill\ndescription: d\n\tlicense: MIT\n"),
            [
                "Invalid YAML in frontmatter: while scanning for the next token\nfound character '\\t' that cannot start any token\n  in \"<unicode string>\", line 4, column 1:\n    \tlicense: MIT\n    ^ (line: 4)"
            ]
        );
        assert_eq!(
            fm("name: my-skill\ndescription: *a\n"),
            [
                "Invalid YAML in frontmatter: found undefined alias 'a'\n  in \"<unicode string>\", line 3, column 14:\n    description: *a\n                 ^ (line: 3)"
            ]
        );
    }

    #[test]
    fn first_strict_problem_wins() {
        let r = fm("name: !!str x\ndescription: &a d\n");
        assert!(r[0].contains("Found disallowed tag tokens"), "{r:?}");
        let r = fm("name: x\ndescription: [a\nlicense: {b: c}\n");
        assert!(r[0].contains("JSONesque flow mapping"), "{r:?}");
        // A flow token before a syntax error is reported, not the syntax error.
        let r = fm("name: [invalid\ndescription: broken\n");
        assert!(r[0].contains("line 2, column 7"), "{r:?}");
    }

    #[test]
    fn crashes_are_reported_as_the_uncaught_exception() {
        assert_eq!(
            validate("my-skill", Some(b"---\nname: \xFF\n---\n"), None),
            [
                "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 10: invalid start byte"
            ]
        );
        assert_eq!(
            validate("my-skill", Some(b"---\nname: \xE2\x82\n---\n"), None),
            [
                "UnicodeDecodeError: 'utf-8' codec can't decode bytes in position 10-11: invalid continuation byte"
            ]
        );
        assert_eq!(
            fm("name: my-skill\u{1}\ndescription: d\n"),
            ["AttributeError: 'ReaderError' object has no attribute 'context_mark'"]
        );
    }

    #[test]
    fn file_lookup() {
        assert_eq!(
            validate("my-skill", None, None),
            ["Missing required file: SKILL.md"]
        );
        let ok = b"---\nname: my-skill\ndescription: d\n---\n";
        assert!(validate("my-skill", Some(ok), Some(b"garbage")).is_empty());
        assert!(validate("my-skill", None, Some(ok)).is_empty());
    }
}
