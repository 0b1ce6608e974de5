//! Security family: secrets.
//!
//! Provider token formats are data rules (`rules/secret-*.md`, run by
//! [`crate::security::families::patterns`]); this module supplies their value filters (Shannon entropy,
//! the placeholder allow-list, `.env.example`-style files, redaction) and the two
//! rules that need logic: JWTs (the header must decode to JSON naming an `alg`) and
//! generic `api_key = "…"` assignments (high-entropy values only, never a value a
//! provider rule already reported).

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::Regex;

use crate::security::model::datarules::GENERIC_WORDS;
use crate::security::model::values::{entropy, is_example_file, is_placeholder, redacted};
use crate::security::model::{RegionKind, SecCx};

pub const SECRET_JWT: &str = "secret-jwt";
pub const SECRET_GENERIC: &str = "secret-generic";

/// Rule ids this module emits.
pub const RULES: &[&str] = &[SECRET_GENERIC, SECRET_JWT];

static JWT: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}",
    )
});

/// Decodes unpadded base64url (bounded by the caller's regex).
fn b64url_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// Is `header` (a JWT's first segment) a JSON object with an `alg`?
fn jwt_header_ok(header: &str) -> bool {
    if header.len() > 2048 {
        return false;
    }
    let Some(bytes) = b64url_decode(header) else {
        return false;
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(m)) => m
            .get("alg")
            .is_some_and(|a| a.as_str().is_some_and(|s| !s.eq_ignore_ascii_case("none"))),
        _ => false,
    }
}

/// Assignment keys of the generic rule.
static GENERIC: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?i)\b([a-z0-9_.-]{0,24}(?:api[_-]?key|apikey|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|bearer[_-]?token|private[_-]?key|password|passwd|secret|token))\b["']?[ \t]*(?::|=|:=|=>)[ \t]*(?:(["'])(?P<q>[^"'\s]{16,200})["']|(?P<u>[A-Za-z0-9_+/=.~-]{16,200})(?:[\s,;]|$))"#,
    )
});

/// [`GENERIC_WORDS`] for texts the literal pass did not cover. Case-sensitive over a
/// lower-cased copy of the text: a case-insensitive automaton cannot use the fast literal
/// prefilter.
static GENERIC_GATE: LazyLock<AhoCorasick> = LazyLock::new(|| {
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::Standard)
        .build(GENERIC_WORDS)
        .unwrap()
});

/// Character classes a real credential mixes: lower, upper, digit, symbol.
fn classes(v: &str) -> usize {
    let mut c = [false; 4];
    for b in v.bytes() {
        let i = if b.is_ascii_lowercase() {
            0
        } else if b.is_ascii_uppercase() {
            1
        } else if b.is_ascii_digit() {
            2
        } else {
            3
        };
        c[i] = true;
    }
    c.iter().filter(|x| **x).count()
}

/// Is the value made of words (`my_secret_password_123`, `generate-with-openssl-rand`)?
/// Generated credentials are not; hand-written placeholders are.
fn wordy(v: &str) -> bool {
    let parts: Vec<&str> = v.split(['_', '-', '.', '/', ' ']).collect();
    let words: usize = parts
        .iter()
        .map(|p| p.trim_end_matches(|c: char| c.is_ascii_digit()))
        .filter(|p| p.len() >= 3 && p.bytes().all(|b| b.is_ascii_alphabetic()))
        .filter(|p| {
            // Lower-case, Capitalised or UPPER words; random mixed case is not a word.
            let rest = &p[1..];
            rest.bytes().all(|b| b.is_ascii_lowercase())
                || p.bytes().all(|b| b.is_ascii_uppercase())
        })
        .map(|p| p.len())
        .sum();
    let alnum = v.bytes().filter(u8::is_ascii_alphanumeric).count();
    parts.len() >= 2 && words * 2 >= alnum
}

/// Is the unquoted value an expression or a name rather than a literal?
fn looks_like_code(v: &str) -> bool {
    // Identifiers and dotted paths (`get_token_from_env`, `settings.api_key`), file names.
    let ident = v
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-');
    let has_digit = v.bytes().any(|b| b.is_ascii_digit());
    ident && (!has_digit || v.contains('.') || v.contains('_') && v.split('_').count() > 2)
}

/// Every match of [`GENERIC`] in `text`, with the offset of the line it was found in.
/// A match never spans lines and always holds a [`GENERIC_GATE`] word, so the regex runs
/// only on the lines that hold one (found in the lower-cased copy), not on the whole file:
/// the same matches, in the same order, for a fraction of the cost on real text.
/// `starts`: the sorted offsets of the words when known (from the file's literal pass).
fn generic_matches<'t>(
    text: &'t str,
    lower: &[u8],
    starts: Option<Vec<usize>>,
) -> Vec<(usize, regex::Captures<'t>)> {
    let mut out = Vec::new();
    let mut next_line = 0;
    // A word holds no newline: its start finds the same line as the whole match.
    let starts =
        starts.unwrap_or_else(|| GENERIC_GATE.find_iter(lower).map(|m| m.start()).collect());
    for at in starts {
        if at < next_line {
            continue;
        }
        let start = memchr::memrchr(b'\n', &lower[..at]).map_or(0, |i| i + 1);
        let end = memchr::memchr(b'\n', &lower[at..]).map_or(text.len(), |i| at + i);
        next_line = end + 1;
        for c in GENERIC.captures_iter(&text[start..end]) {
            out.push((start, c));
        }
    }
    out
}

pub fn check(scx: &mut SecCx<'_, '_>) {
    let mut emits: Vec<(&'static str, usize, usize, String)> = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        let text: &str = &src.text;
        let example_file = is_example_file(src.path);
        if text.contains("eyJ") {
            for m in JWT.find_iter(text) {
                let tok = m.as_str();
                let mut parts = tok.split('.');
                let header = parts.next().unwrap_or("");
                if !jwt_header_ok(header) || example_file || is_placeholder(tok) {
                    continue;
                }
                let payload = parts.next().unwrap_or("");
                if entropy(payload) < 3.0 {
                    continue;
                }
                // The specification's and jwt.io's sample token ("John Doe", sub 1234567890).
                let sample = b64url_decode(&payload[..payload.len().min(4096)]).is_some_and(|p| {
                    let p = String::from_utf8_lossy(&p);
                    p.contains("John Doe") || p.contains("1234567890")
                });
                if sample {
                    continue;
                }
                emits.push((SECRET_JWT, si, m.start(), redacted(tok)));
            }
        }
        if example_file {
            continue;
        }
        let starts = src
            .gate()
            .word_starts(crate::security::model::datarules::Words::SecretKeys);
        for (line_start, c) in generic_matches(text, src.lower(), starts) {
            let (Some(all), Some(key)) = (c.get(0), c.get(1)) else {
                continue;
            };
            let all_start = line_start + all.start();
            let (value, quoted) = match (c.name("q"), c.name("u")) {
                (Some(q), _) => (q.as_str(), true),
                (None, Some(u)) => (u.as_str(), false),
                _ => continue,
            };
            let key_l = key.as_str().to_ascii_lowercase();
            // `token_count = …`, `max_tokens`, `password_hash`, `secret_name`: not secrets.
            if [
                "count", "limit", "max", "min", "len", "size", "type", "name", "hash", "file",
                "path", "url", "env", "var", "field", "header", "prefix", "id_",
            ]
            .iter()
            .any(|w| key_l.contains(w))
            {
                continue;
            }
            if src
                .region_at(all_start)
                .is_some_and(|r| matches!(r.kind, RegionKind::Prose) && !quoted)
            {
                continue;
            }
            if value.len() < 16
                || entropy(value) < 3.5
                || classes(value) < 2
                || is_placeholder(value)
                || (!quoted && looks_like_code(value))
                || value.contains("://")
                || value.starts_with('/')
                || value.starts_with("eyJ")
                || wordy(value)
            {
                continue;
            }
            emits.push((SECRET_GENERIC, si, all_start, redacted(value)));
        }
    }
    for (rule, si, off, shown) in emits {
        let (line, _) = scx.sources[si].pos(off);
        let rel = scx.sources[si].rel.clone();
        // A provider rule already reported this line: the generic rule adds nothing.
        if rule == SECRET_GENERIC
            && scx.cx.findings.iter().any(|f| {
                f.category == "security/secrets"
                    && f.location.path == rel
                    && f.location.line == Some(line)
            })
        {
            continue;
        }
        let msg = if rule == SECRET_JWT {
            format!(
                "a JSON Web Token is embedded: `{shown}`. A signed token is a bearer credential until it expires; remove it, revoke the session or key that issued it, and read tokens from the environment at run time."
            )
        } else {
            format!(
                "a credential-like value is assigned in the skill: `{shown}` (high entropy, not a placeholder). Remove it, rotate it if it is real, and read it from an environment variable or a secret store at run time."
            )
        };
        scx.emit_at(rule, si, off, msg, &format!("{rule}:{shown}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders() {
        for p in [
            "sk-xxxxxxxxxxxxxxxx",
            "${OPENAI_API_KEY}",
            "$TOKEN",
            "{{ api_key }}",
            "<your-key>",
            "YOUR_API_KEY",
            "AKIAIOSFODNN7EXAMPLE",
            "abcdefghijklmnop",
            "1234567890123456",
            "dummy-token-value",
            "password",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for r in ["q8Zt3LmW9vXr2KpN4sYb", "wq7RbN2xk9T0cLmZ4vF8hJ3sD6gP1aYe"] {
            assert!(!is_placeholder(r), "{r}");
            assert!(!wordy(r), "{r}");
        }
        for w in [
            "my_secret_password_123",
            "generate-with-openssl-rand-base64-32",
            "path/to/credentials.json",
            "sk-or-v1-project1-key",
        ] {
            assert!(wordy(w), "{w}");
        }
    }

    #[test]
    fn entropy_of_random_and_repeated() {
        assert!(entropy("aaaaaaaaaaaaaaaa") < 0.1);
        assert!(entropy("q8Zt3LmW9vXr2KpN4sYb") > 4.0);
    }

    #[test]
    fn jwt_header() {
        // {"alg":"HS256","typ":"JWT"}
        assert!(jwt_header_ok("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"));
        // {"typ":"JWT"}
        assert!(!jwt_header_ok("eyJ0eXAiOiJKV1QifQ"));
    }

    #[test]
    fn example_files() {
        assert!(is_example_file(".env.example"));
        assert!(is_example_file("config/settings.sample.json"));
        assert!(!is_example_file(".env"));
        assert!(!is_example_file("scripts/run.py"));
    }
}
