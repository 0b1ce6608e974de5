//! Secret values and their look-alikes: entropy, placeholder and dummy values, example files,
//! and the redacted form a finding shows.

use crate::text::sanitize_line;

/// Shannon entropy of `s` in bits per character.
pub fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    let mut n = 0u32;
    for b in s.bytes() {
        counts[b as usize] += 1;
        n += 1;
    }
    if n == 0 {
        return 0.0;
    }
    let n = f64::from(n);
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = f64::from(*c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Words that mark a documented placeholder (compared case-insensitively).
const PLACEHOLDER_WORDS: &[&str] = &[
    "example",
    "xxxx",
    "your",
    "dummy",
    "fake",
    "test",
    "sample",
    "placeholder",
    "redacted",
    "changeme",
    "change_me",
    "change-me",
    "replace",
    "insert",
    "mock",
    "demo",
    "secret_here",
    "key_here",
    "token_here",
    "here",
    "todo",
    "fixme",
    "****",
    "....",
    "…",
];

/// Whole values that are well-known dummy passwords in documentation.
const DUMMY_PASSWORDS: &[&str] = &[
    "password",
    "passwd",
    "pass",
    "pwd",
    "secret",
    "admin",
    "root",
    "postgres",
    "mysql",
    "redis",
    "mongo",
    "guest",
    "user",
    "username",
    "mypassword",
    "pass123",
    "password123",
    "12345678",
    "qwerty",
    "letmein",
    "default",
    "pw",
];

/// Is `value` a documented placeholder rather than a credential?
pub fn is_placeholder(value: &str) -> bool {
    let v = value.trim_matches(|c: char| c == '"' || c == '\'' || c == '`');
    if v.is_empty() {
        return true;
    }
    let lower = v.to_ascii_lowercase();
    if DUMMY_PASSWORDS.contains(&lower.as_str()) {
        return true;
    }
    // Template and variable references: `${VAR}`, `$VAR`, `{{ var }}`, `<your-key>`, `%VAR%`.
    if v.starts_with('$')
        || v.contains("${")
        || v.contains("{{")
        || v.contains('<')
        || v.contains('>')
        || (v.starts_with('%') && v.ends_with('%'))
    {
        return true;
    }
    if PLACEHOLDER_WORDS.iter().any(|w| lower.contains(w)) {
        return true;
    }
    // An upper-case identifier such as `YOUR_API_KEY` or `OPENAI_API_KEY`.
    if v.len() >= 3
        && v.contains('_')
        && v.bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    {
        return true;
    }
    // Runs: five identical characters, or six consecutive ascending ones (`abcdef`, `123456`).
    let b = v.as_bytes();
    let mut same = 1;
    let mut asc = 1;
    for i in 1..b.len() {
        same = if b[i] == b[i - 1] { same + 1 } else { 1 };
        asc = if b[i].is_ascii_alphanumeric() && b[i] == b[i - 1].wrapping_add(1) {
            asc + 1
        } else {
            1
        };
        if same >= 5 || asc >= 6 {
            return true;
        }
    }
    false
}

/// Does a secret rule's value pass its entropy floor and placeholder filter?
pub fn value_ok(value: &str, min_entropy: Option<f64>, placeholders: bool) -> bool {
    if placeholders && is_placeholder(value) {
        return false;
    }
    min_entropy.is_none_or(|e| entropy(value) >= e)
}

/// `.env.example`, `config.sample.json`, `secrets.template.yaml`...: files that document
/// the shape of a configuration with placeholder values.
pub fn is_example_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.split(['.', '-', '_']).any(|part| {
        matches!(
            part,
            "example" | "examples" | "sample" | "template" | "dist" | "tmpl"
        )
    })
}

/// A secret shown in a message: its first characters and its length, never the whole value.
pub fn redacted(s: &str) -> String {
    let s = s.split('\n').next().unwrap_or(s).trim();
    let n = s.chars().count();
    let keep = (n / 3).clamp(4, 14);
    let head: String = s.chars().take(keep).collect();
    format!(
        "{}… ({n} characters)",
        sanitize_line(&head).into_owned().replace('`', "'")
    )
}
