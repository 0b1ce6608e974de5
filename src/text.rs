//! Text utilities: line index, code-point and UTF-16 lengths, and the
//! sanitisers applied before scanned text reaches a terminal or a Markdown page.

use std::borrow::Cow;

/// Whether `s` holds a character a reader can see: not only blanks, controls, zero-width,
/// format, bidi, tag or variation-selector characters, Hangul fillers or lone combining
/// marks. A reason made of U+200B alone says nothing.
pub fn has_visible(s: &str) -> bool {
    s.chars().any(|c| {
        !(c.is_whitespace()
            || c.is_control()
            || unicode_normalization::char::is_combining_mark(c)
            || matches!(
                c,
                '\u{00AD}'
                    | '\u{034F}'
                    | '\u{061C}'
                    | '\u{115F}'
                    | '\u{1160}'
                    | '\u{17B4}'
                    | '\u{17B5}'
                    | '\u{180B}'..='\u{180F}'
                    | '\u{200B}'..='\u{200F}'
                    | '\u{2028}'..='\u{202E}'
                    | '\u{2060}'..='\u{206F}'
                    | '\u{2800}'
                    | '\u{3164}'
                    | '\u{FE00}'..='\u{FE0F}'
                    | '\u{FEFF}'
                    | '\u{FFA0}'
                    | '\u{FFF9}'..='\u{FFFB}'
                    | '\u{1D173}'..='\u{1D17A}'
                    | '\u{E0000}'..='\u{E007F}'
                    | '\u{E0100}'..='\u{E01EF}'
            ))
    })
}

/// Byte offsets of line starts, for offset → (line, column) conversion.
#[derive(Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    /// What positions computed so far leave to count on from (see [`Counted`]).
    memo: std::sync::Mutex<Counted>,
}

/// A column is counted in code points from a known point of its line: the line's start,
/// the last position computed on the same line (positions asked in order along one long
/// line count on from each other), or, on a line longer than [`COLUMN_BLOCK`], the nearest
/// of its checkpoints (the code points before every [`COLUMN_BLOCK`]-th byte, counted once
/// per long line). A column therefore costs at most [`COLUMN_BLOCK`] bytes of counting in
/// whatever order positions are asked: thousands of hits on a line of megabytes, asked out
/// of order, were quadratic.
#[derive(Debug)]
struct Counted {
    /// The last position computed: (byte offset, 0-based line, 1-based column).
    last: (usize, usize, u32),
    /// Per long line: (byte offset, code points from the line's start) every block.
    blocks: std::collections::HashMap<usize, Vec<(usize, usize)>>,
    /// Bytes counted so far (tests check it stays linear).
    counted: usize,
}

impl Default for Counted {
    fn default() -> Self {
        Counted {
            last: (0, 0, 1),
            blocks: std::collections::HashMap::new(),
            counted: 0,
        }
    }
}

/// Bytes between two checkpoints of a long line's columns.
pub const COLUMN_BLOCK: usize = 4096;

impl Clone for LineIndex {
    fn clone(&self) -> Self {
        LineIndex {
            starts: self.starts.clone(),
            memo: std::sync::Mutex::new(Counted::default()),
        }
    }
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 1);
        starts.push(0);
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        LineIndex {
            starts,
            memo: std::sync::Mutex::new(Counted::default()),
        }
    }

    /// Number of lines (a trailing newline does not open a new line).
    pub fn line_count(&self, text: &str) -> usize {
        if text.is_empty() {
            0
        } else if text.ends_with('\n') {
            self.starts.len() - 1
        } else {
            self.starts.len()
        }
    }

    /// Number of lines of `text[start..]` (as [`line_count`](Self::line_count) would count
    /// them over that suffix), from this index of the whole `text`: no second index.
    pub fn line_count_from(&self, text: &str, start: usize) -> usize {
        let start = start.min(text.len());
        let rest = &text[start..];
        // Line starts after `start` are the newlines at or after it.
        let newlines = self.starts.len() - self.starts.partition_point(|&s| s <= start);
        if rest.is_empty() || rest.ends_with('\n') {
            newlines
        } else {
            newlines + 1
        }
    }

    /// 1-based line and 1-based column (in code points) of a byte offset.
    pub fn position(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        let mut end = offset;
        while end > start && !text.is_char_boundary(end) {
            end -= 1;
        }
        let mut guard = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        let memo = &mut *guard;
        // The nearest known point at or before `end` on this line: (byte offset, code points).
        let mut from = (start, 0usize);
        let (lo, ll, lc) = memo.last;
        if ll == line && start <= lo && lo <= end && text.is_char_boundary(lo) {
            from = (lo, lc as usize - 1);
        }
        if end - from.0 > COLUMN_BLOCK {
            let line_end = self.starts.get(line + 1).map_or(text.len(), |&e| e - 1);
            let counted = &mut memo.counted;
            let blocks = memo.blocks.entry(line).or_insert_with(|| {
                let mut v = Vec::new();
                let (mut at, mut chars) = (start, 0usize);
                while at + COLUMN_BLOCK < line_end {
                    let mut next = at + COLUMN_BLOCK;
                    while !text.is_char_boundary(next) {
                        next -= 1;
                    }
                    chars += text[at..next].chars().count();
                    *counted += next - at;
                    at = next;
                    v.push((at, chars));
                }
                v
            });
            let k = blocks.partition_point(|b| b.0 <= end);
            if let Some(&b) = k.checked_sub(1).and_then(|k| blocks.get(k))
                && b.0 > from.0
            {
                from = b;
            }
        }
        let col = from.1 + text[from.0..end].chars().count();
        memo.counted += end - from.0;
        memo.last = (end, line, col as u32 + 1);
        (line as u32 + 1, col as u32 + 1)
    }

    /// Bytes counted for columns so far (for tests of the cost).
    pub fn bytes_counted(&self) -> usize {
        self.memo.lock().unwrap_or_else(|e| e.into_inner()).counted
    }

    /// Byte offset of the start of 1-based `line`.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.starts.get(line.checked_sub(1)?).copied()
    }

    /// The line holding byte `offset` of `text` (this index's text), as a byte range
    /// without its newline: a binary search, not a scan back to the line's start.
    pub fn line_range(&self, text: &str, offset: usize) -> std::ops::Range<usize> {
        let offset = offset.min(text.len());
        let i = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[i];
        let end = self.starts.get(i + 1).map_or(text.len(), |&e| e - 1);
        start..end.max(start)
    }
}

/// Length in Unicode code points (the unit the Agent Skills spec and `skills-ref` use).
pub fn code_points(s: &str) -> usize {
    s.chars().count()
}

/// Length in UTF-16 code units (.NET `string.Length`, used by MAF and AgentEval).
pub fn utf16_units(s: &str) -> usize {
    s.encode_utf16().count()
}

/// Replaces control characters (C0 except tab/newline, DEL, C1), bidi controls,
/// zero-width and other invisible format characters, tag characters, variation
/// selectors and Hangul fillers by a visible `\u{..}` escape, so scanned text can
/// neither drive the terminal nor hide content in a report.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if needs_escape(c) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Like [`sanitize`] but also flattens newlines and tabs into spaces (single-line contexts).
pub fn sanitize_line(s: &str) -> Cow<'_, str> {
    let s = sanitize(s);
    if s.contains(['\n', '\t', '\r']) {
        Cow::Owned(s.replace(['\n', '\t', '\r'], " "))
    } else {
        s
    }
}

fn needs_escape(c: char) -> bool {
    let u = c as u32;
    (u < 0x20 && c != '\n' && c != '\t')
        || (0x7f..=0x9f).contains(&u)
        || matches!(u,
            0x00AD | 0x034F | 0x061C | 0x115F | 0x1160 | 0x17B4 | 0x17B5 | 0x180E
            | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x2069 | 0x3164 | 0xFE00..=0xFE0F
            | 0xFEFF | 0xFFA0 | 0xFFF9..=0xFFFB | 0xE0000..=0xE007F | 0xE0100..=0xE01EF)
}

/// Escapes text for inclusion in GitHub-flavoured Markdown (tables and prose):
/// sanitises control characters, then escapes Markdown and HTML metacharacters.
pub fn escape_markdown(s: &str) -> String {
    let s = defang(&sanitize_line(s));
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '!' | '~' | '{' | '}' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            _ => out.push(c),
        }
    }
    out
}

/// Breaks what GitHub would turn into a live link or a notification, the way
/// security reports "defang" indicators: `https://x` → `https[:]//x`,
/// `www.x` → `www[.]x`, `a@b` → `a[@]b` (mentions and e-mail autolinks).
pub fn defang(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while !rest.is_empty() {
        if rest.starts_with("://") {
            out.push_str("[:]//");
            rest = &rest[3..];
        } else if rest.len() >= 4 && rest.as_bytes()[..4].eq_ignore_ascii_case(b"www.") {
            out.push_str(&rest[..3]);
            out.push_str("[.]");
            rest = &rest[4..];
        } else if let Some(r) = rest.strip_prefix('@') {
            out.push_str("[@]");
            rest = r;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Truncates to at most `max` code points, appending `…` when cut.
pub fn truncate(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some((i, _)) => Cow::Owned(format!("{}…", &s[..i])),
    }
}

/// The indefinite article for `phrase`, by the sound of its first word: "an" before a vowel
/// sound ("an agent", "an instruction file", "an MCP configuration", "an ELF executable",
/// "an 8-byte entry", "an 11-character string", "an hour"), "a" otherwise ("a prompt", "a hook
/// configuration", "a user", "a PE executable", "a URL", "a FIFO", "a one-line fix").
pub fn article(phrase: &str) -> &'static str {
    let word: &str = phrase
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("");
    let Some(first) = word.chars().next() else {
        return "a";
    };
    // A number, as read: eight…, eleven, eighteen, eleven thousand… start with a vowel.
    if first.is_ascii_digit() {
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let eleven = (word.starts_with("11") || word.starts_with("18")) && digits % 3 == 2;
        return if first == '8' || eleven { "an" } else { "a" };
    }
    let lower = word.to_ascii_lowercase();
    // Initialisms are read letter by letter (an MCP, a URL); a few are read as words.
    let spelled = word.len() >= 2 && word.chars().all(|c| c.is_ascii_uppercase());
    let no_vowel = !lower.contains(['a', 'e', 'i', 'o', 'u', 'y']);
    if (spelled || no_vowel) && !matches!(lower.as_str(), "fifo" | "lifo") {
        return if "aefhilmnorsx".contains(lower.chars().next().unwrap_or('b')) {
            "an"
        } else {
            "a"
        };
    }
    const A_BEFORE: &[&str] = &[
        "one", "once", "uni", "use", "usu", "uti", "ura", "ure", "uri", "url", "ubi", "eu", "ewe",
    ];
    const AN_BEFORE: &[&str] = &["hour", "honest", "honor", "honour", "heir"];
    if A_BEFORE.iter().any(|p| lower.starts_with(p)) {
        return "a";
    }
    if AN_BEFORE.iter().any(|p| lower.starts_with(p)) {
        return "an";
    }
    if lower.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// `phrase` after its indefinite article ([`article`]): "an agent", "a prompt".
pub fn with_article(phrase: &str) -> String {
    format!("{} {phrase}", article(phrase))
}

/// The largest character boundary of `s` at or below `i` (`i` clamped to `s.len()`).
pub fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The smallest character boundary of `s` at or above `i` (`i` clamped to `s.len()`).
pub fn ceil_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    #[test]
    fn articles_follow_the_sound() {
        use super::article;
        for an in [
            "agent",
            "instruction file",
            "MCP configuration",
            "mcp-config",
            "ELF executable",
            "8-byte entry",
            "80-character string",
            "11-character string",
            "18000-byte file",
            "hour",
            "integer",
            "unpinned package",
            "HTML page",
            "instructions",
        ] {
            assert_eq!(article(an), "an", "{an}");
        }
        for a in [
            "prompt".to_owned(),
            "hook configuration".into(),
            "skill".into(),
            "user".into(),
            "PE (Windows) executable".into(),
            "Mach-O executable".into(),
            "URL".into(),
            "FIFO".into(),
            "one-line fix".into(),
            "110-byte file".into(),
            "1048577-byte metadata entry".into(),
            "string".into(),
            "claude-agent".into(),
            "copilot-agent".into(),
        ] {
            assert_eq!(article(&a), "a", "{a}");
        }
    }

    use super::*;

    #[test]
    fn positions_along_a_long_line_count_on() {
        // Every position counted code points from the start of its line, so many
        // hits on one line of megabytes were quadratic (200,000 positions on a 2 MB line:
        // minutes); counting on from the last position is linear.
        let t = "é".repeat(1_000_000) + "\nend";
        let ix = LineIndex::new(&t);
        for k in (0..1_000_000).step_by(5) {
            assert_eq!(ix.position(&t, 2 * k), (1, k as u32 + 1));
        }
        // Backwards, inside a character, on another line: as if counted from the line start.
        assert_eq!(ix.position(&t, 10), (1, 6));
        assert_eq!(ix.position(&t, 3), (1, 2));
        assert_eq!(ix.position(&t, t.len()), (2, 4));
        assert_eq!(ix.position(&t, 2_000_001), (2, 1));
        assert_eq!(ix.position(&t, 2_000_000), (1, 1_000_001));
        let r = ix.line_range(&t, 2_000_002);
        assert_eq!(&t[r], "end");
        assert_eq!(ix.line_range(&t, 2_000_000), 0..2_000_000);
    }

    #[test]
    fn positions_out_of_order_on_a_long_line_cost_a_block_each() {
        // 20,000 positions on a 2 MB line, backwards and alternating: each counts from the
        // nearest checkpoint, at most a block, not from the line's start.
        let t = "aé".repeat(700_000) + "\nend";
        let ix = LineIndex::new(&t);
        let n = 10_000;
        for k in (0..n).rev() {
            let off = 3 * (k * 69);
            assert_eq!(ix.position(&t, off), (1, 2 * (k * 69) as u32 + 1));
            let far = t.len() - 4 - 3 * k;
            assert_eq!(ix.position(&t, far).0, 1);
        }
        let line = t.len() - 4;
        assert!(
            ix.bytes_counted() <= line + 2 * n * COLUMN_BLOCK,
            "{} bytes counted for {} positions on a line of {line}",
            ix.bytes_counted(),
            2 * n
        );
        // The checkpoints agree with counting from the line's start.
        for off in [0, 4095, 4096, 4097, 8193, 1_000_000, line] {
            let mut o = off;
            while !t.is_char_boundary(o) {
                o -= 1;
            }
            let want = t[..o].chars().count() as u32 + 1;
            assert_eq!(ix.position(&t, off), (1, want), "{off}");
        }
    }

    #[test]
    fn positions() {
        let t = "ab\nçd\n\nx";
        let ix = LineIndex::new(t);
        assert_eq!(ix.position(t, 0), (1, 1));
        assert_eq!(ix.position(t, 3), (2, 1));
        assert_eq!(ix.position(t, 5), (2, 2)); // after 'ç' (2 bytes)
        assert_eq!(ix.position(t, 8), (4, 1));
        assert_eq!(ix.line_count(t), 4);
        assert_eq!(LineIndex::new("a\n").line_count("a\n"), 1);
    }

    #[test]
    fn line_count_from_matches_a_fresh_index() {
        for t in [
            "",
            "\n",
            "a",
            "a\n",
            "ab\nçd\n\nx",
            "---\nk: v\n---\nbody\n",
            "\n\nx\ny",
        ] {
            let ix = LineIndex::new(t);
            for start in 0..=t.len() + 1 {
                let s = start.min(t.len());
                if !t.is_char_boundary(s) {
                    continue;
                }
                let rest = &t[s..];
                assert_eq!(
                    ix.line_count_from(t, start),
                    LineIndex::new(rest).line_count(rest),
                    "{t:?} from {start}"
                );
            }
        }
    }

    #[test]
    fn lengths() {
        assert_eq!(code_points("😀a"), 2);
        assert_eq!(utf16_units("😀a"), 3);
    }

    #[test]
    fn sanitizes_controls_and_bidi() {
        assert_eq!(sanitize("a\x1b[31mb"), "a\\u{001B}[31mb");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202E}y");
        assert_eq!(
            sanitize("a\u{E0100}\u{FE0F}\u{3164}"),
            "a\\u{E0100}\\u{FE0F}\\u{3164}"
        );
        assert_eq!(sanitize("plain\n"), "plain\n");
        assert_eq!(sanitize_line("a\nb"), "a b");
    }

    #[test]
    fn escapes_markdown() {
        assert_eq!(escape_markdown("a|b <script>"), "a\\|b &lt;script&gt;");
        assert_eq!(
            escape_markdown("[x](javascript:1)"),
            "\\[x\\]\\(javascript:1\\)"
        );
        assert_eq!(
            escape_markdown("see https://evil.example and WWW.evil.example, @org/team a@b.c"),
            "see https\\[:\\]//evil.example and WWW\\[.\\]evil.example, \\[@\\]org/team a\\[@\\]b.c"
        );
    }
}
