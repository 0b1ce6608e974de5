//! File and folder names as text, whatever their bytes. A name that is valid UTF-8 is kept
//! as it is, except that a backslash is written `\\`; a byte that is not part of valid
//! UTF-8 is written `\xNN` (two upper-case hex digits). The form is unambiguous (no two
//! names share it) and reversible ([`to_bytes`], [`path_of`]), so a name that is not UTF-8
//! is walked, read, hashed, pinned and printed like any other (docs/security.md, "Threat
//! model": content the scanner could not read). A helper: it imports nothing from the crate.

use std::borrow::Cow;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The escaped form of a name's bytes.
pub fn escape_bytes(b: &[u8]) -> Cow<'_, str> {
    if let Ok(s) = std::str::from_utf8(b)
        && !s.contains('\\')
    {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(b.len() + 8);
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c == '\\' {
                out.push_str("\\\\");
            } else {
                out.push(c);
            }
        }
        for byte in chunk.invalid() {
            out.push_str(&format!("\\x{byte:02X}"));
        }
    }
    Cow::Owned(out)
}

/// The escaped form of one path component (or any OS string).
pub fn escape(name: &OsStr) -> Cow<'_, str> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        escape_bytes(name.as_bytes())
    }
    #[cfg(not(unix))]
    {
        match name.to_str() {
            Some(s) => escape_bytes(s.as_bytes()),
            None => Cow::Owned(escape_bytes(name.as_encoded_bytes()).into_owned()),
        }
    }
}

/// Whether the name needed escaping: it is not UTF-8 (a backslash alone does not count).
pub fn is_utf8(name: &OsStr) -> bool {
    name.to_str().is_some()
}

/// Does an escaped name or path hold a byte that is not UTF-8 (a `\xNN`)?
pub fn has_raw_bytes(escaped: &str) -> bool {
    let b = escaped.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'x') {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

/// The bytes an escaped name stands for. Text that is not in the escaped form (a lone
/// backslash, `\x` without two hex digits) is taken literally.
pub fn to_bytes(escaped: &str) -> Cow<'_, [u8]> {
    if !escaped.contains('\\') {
        return Cow::Borrowed(escaped.as_bytes());
    }
    let b = escaped.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            match b.get(i + 1) {
                Some(b'\\') => {
                    out.push(b'\\');
                    i += 2;
                    continue;
                }
                Some(b'x') => {
                    let hex = b
                        .get(i + 2..i + 4)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u8::from_str_radix(h, 16).ok());
                    if let Some(v) = hex {
                        out.push(v);
                        i += 4;
                        continue;
                    }
                }
                _ => {}
            }
        }
        out.push(b[i]);
        i += 1;
    }
    Cow::Owned(out)
}

/// The escaped name as text for a reader that knows no escapes (AgentEval's hash, the
/// skills CLI's hash): the name itself when it is UTF-8, `None` when it is not.
pub fn as_utf8(escaped: &str) -> Option<Cow<'_, str>> {
    match to_bytes(escaped) {
        Cow::Borrowed(b) => std::str::from_utf8(b).ok().map(Cow::Borrowed),
        Cow::Owned(v) => String::from_utf8(v).ok().map(Cow::Owned),
    }
}

/// One component as an OS string.
fn os_of(escaped: &str) -> std::ffi::OsString {
    let bytes = to_bytes(escaped);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        OsStr::from_bytes(&bytes).to_os_string()
    }
    #[cfg(not(unix))]
    {
        String::from_utf8_lossy(&bytes).into_owned().into()
    }
}

/// `base` joined with an escaped, `/`-separated relative path, each component unescaped:
/// where the file named by a report path is on disk.
pub fn path_of(base: &Path, rel: &str) -> PathBuf {
    let mut p = base.to_path_buf();
    for c in rel.split('/').filter(|c| !c.is_empty()) {
        p.push(os_of(c));
    }
    p
}

/// The escaped, `/`-separated form of `path` below `base` (`None` when it is not below it).
pub fn rel_of(path: &Path, base: &Path) -> Option<String> {
    let p = path.strip_prefix(base).ok()?;
    let parts: Vec<Cow<'_, str>> = p.components().map(|c| escape(c.as_os_str())).collect();
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_unambiguous() {
        for b in [
            &b"plain.md"[..],
            b"r\xe9sum\xe9-\xff.md",
            b"a\\b",
            b"a\\xff",
            b"\xff",
            b"caf\xc3\xa9",
            b"\\",
            b"x\\\xfe",
        ] {
            let e = escape_bytes(b);
            assert_eq!(&*to_bytes(&e), b, "{e}");
        }
        assert_eq!(
            escape_bytes(b"r\xe9sum\xe9-\xff.md"),
            "r\\xE9sum\\xE9-\\xFF.md"
        );
        // A literal `\xff` in a UTF-8 name and the byte 0xFF never share a form.
        assert_ne!(escape_bytes(b"a\\xff"), escape_bytes(b"a\xff"));
        assert!(has_raw_bytes(&escape_bytes(b"a\xff")));
        assert!(!has_raw_bytes(&escape_bytes(b"a\\xff")));
        assert_eq!(as_utf8("a\\\\b").as_deref(), Some("a\\b"));
        assert_eq!(as_utf8("a\\xFF"), None);
    }

    #[cfg(unix)]
    #[test]
    fn paths() {
        use std::os::unix::ffi::OsStrExt;
        let base = Path::new("/r");
        let p = base.join(OsStr::from_bytes(b"d\xff")).join("f\\g");
        let rel = rel_of(&p, base).unwrap();
        assert_eq!(rel, "d\\xFF/f\\\\g");
        assert_eq!(path_of(base, &rel), p);
    }
}
