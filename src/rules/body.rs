//! Body rules: length budget and file references.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::{Cx, SkillDoc, ids};
use crate::text::{sanitize_line, truncate};

pub const MAX_BODY_LINES: usize = 500;
pub const MAX_BODY_TOKENS: usize = 5_000;

pub fn check_length(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let body = doc.body_text();
    // The entry file's one line index counts the body's lines (no second index).
    let lines = doc.lines.line_count_from(&doc.text, doc.body_start);
    let tokens = body.len().div_ceil(4);
    if lines > MAX_BODY_LINES {
        let line = (doc.body_first_line + MAX_BODY_LINES) as u32;
        cx.emit(
            ids::BODY_TOO_LONG,
            format!(
                "body is {lines} lines long; the specification recommends under {MAX_BODY_LINES} because the whole body enters the context on activation. Move detail into `references/` files."
            ),
            cx.at(line, 1),
            "body-lines",
        );
    } else if tokens > MAX_BODY_TOKENS {
        cx.emit(
            ids::BODY_TOO_LONG,
            format!(
                "body is about {tokens} tokens ({} bytes); the specification recommends under {MAX_BODY_TOKENS} tokens. Move detail into `references/` files.",
                body.len()
            ),
            cx.at(doc.body_first_line as u32, 1),
            "body-tokens",
        );
    }
}

static INLINE_PATH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\./)?(?:scripts|references|assets)/[A-Za-z0-9._/-]+$").expect("valid regex")
});

static SCHEME: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[A-Za-z][A-Za-z0-9+.-]*:").expect("valid regex"));

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            let hexval = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
            out.push(hexval(b[i + 1]) * 16 + hexval(b[i + 2]));
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Outcome of resolving a reference against the skill directory.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Not a local file reference (URL, anchor, empty).
    External,
    /// Leaves the skill directory or is absolute.
    Escapes,
    /// Normalised path inside the skill.
    Inside(String),
}

/// Resolves `url` relative to the skill root.
pub fn resolve(url: &str) -> Resolved {
    let u = url.trim();
    // Windows drive paths (`C:/x`, `C:\\x`) look like a URL scheme but are absolute paths;
    // `file:` URLs are local paths too.
    let b = u.as_bytes();
    if (b.len() >= 3
        && b[0].is_ascii_alphabetic()
        && b[1] == b':'
        && (b[2] == b'/' || b[2] == b'\\'))
        || u.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:"))
    {
        return Resolved::Escapes;
    }
    if u.is_empty() || u.starts_with('#') || u.starts_with("//") || SCHEME.is_match(u) {
        return Resolved::External;
    }
    let u = u.split(['#', '?']).next().unwrap_or("");
    if u.is_empty() {
        return Resolved::External;
    }
    let u = percent_decode(u);
    if u.starts_with('/') || u.starts_with('\\') || u.starts_with('~') {
        return Resolved::Escapes;
    }
    let mut parts: Vec<&str> = Vec::new();
    for seg in u.split(['/', '\\']) {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Resolved::Escapes;
                }
            }
            s => parts.push(s),
        }
    }
    Resolved::Inside(parts.join("/"))
}

pub fn check_references(doc: &SkillDoc, cx: &mut Cx<'_>) {
    let mut known: BTreeSet<String> = BTreeSet::new();
    for f in cx.files {
        let mut p = f.path.as_str();
        known.insert(p.to_owned());
        while let Some(i) = p.rfind('/') {
            p = &p[..i];
            known.insert(p.to_owned());
        }
    }
    known.insert(String::new());
    let mut refs: Vec<(String, u32, u32, &'static str)> = Vec::new();
    for l in &doc.body.links {
        refs.push((
            l.url.clone(),
            l.at.line,
            l.at.column,
            if l.image { "image" } else { "link" },
        ));
    }
    for c in &doc.body.inline_code {
        let lit = c.literal.trim();
        if INLINE_PATH.is_match(lit) {
            refs.push((lit.to_owned(), c.at.line, c.at.column, "path"));
        }
    }
    let mut seen = BTreeSet::new();
    for (url, line, col, what) in refs {
        if !seen.insert((url.clone(), line, col)) {
            continue;
        }
        let shown = sanitize_line(&truncate(&url, 120)).into_owned();
        match resolve(&url) {
            Resolved::External => {}
            Resolved::Escapes => cx.emit(
                ids::FILE_REFERENCE_ESCAPES_SKILL,
                format!(
                    "{what} `{shown}` points outside the skill directory: it breaks when the skill is installed elsewhere and pulls in unreviewed content. Copy the file into the skill and reference it relatively."
                ),
                cx.at(line, col),
                &format!("ref:{url}"),
            ),
            Resolved::Inside(p) => {
                if !known.contains(&p) {
                    cx.emit(
                        ids::FILE_REFERENCE_BROKEN,
                        format!(
                            "{what} `{shown}` refers to `{}`, which is not in the skill: the agent will fail when it follows it. Fix the path (relative to the skill directory) or add the file.",
                            sanitize_line(&p)
                        ),
                        cx.at(line, col),
                        &format!("ref:{url}"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolution() {
        assert_eq!(resolve("https://x.y/z"), Resolved::External);
        assert_eq!(resolve("#top"), Resolved::External);
        assert_eq!(resolve("mailto:a@b"), Resolved::External);
        assert_eq!(
            resolve("references/a.md#x"),
            Resolved::Inside("references/a.md".into())
        );
        assert_eq!(resolve("./a/../b.md"), Resolved::Inside("b.md".into()));
        assert_eq!(resolve("../other/x.md"), Resolved::Escapes);
        assert_eq!(resolve("/etc/passwd"), Resolved::Escapes);
        assert_eq!(resolve("C:/Users/me/notes.md"), Resolved::Escapes);
        assert_eq!(resolve("c:\\x.md"), Resolved::Escapes);
        assert_eq!(resolve("file:///etc/passwd"), Resolved::Escapes);
        assert_eq!(
            resolve("my%20file.md"),
            Resolved::Inside("my file.md".into())
        );
    }
}
