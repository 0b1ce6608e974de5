//! `secret-in-network-call`: a secret-named variable interpolated into a request to a
//! host that is not the secret's own service.
//!
//! On each live line with a network call (`curl`, `wget`, `fetch`, `requests.*`,
//! `httpx`, `urlopen`, `axios`, `Invoke-WebRequest`, an `<img src>` pixel…), the
//! references to variables named like secrets (`$OPENAI_API_KEY`, `${TOKEN}`,
//! `$(SECRET)`, `%API_KEY%`, `$env:X`, `os.environ["X"]`, `os.getenv("X")`,
//! `process.env.X`, `{{X}}`, f-string and template-literal placeholders) are checked
//! against the line's URL host:
//! - the secret's provider (`GITHUB_TOKEN` → `github.com`, or the variable's first word
//!   in the host, `ACME_API_KEY` → `api.acme.io`) or `localhost`: the normal use;
//! - another provider's host, or a paste site, tunnel, raw IP or plain HTTP: **high**
//!   (medium when the secret only sits in an auth header: OpenAI-compatible APIs take
//!   `OPENAI_API_KEY` on other hosts);
//! - a generic name (`API_KEY`, `TOKEN`) in the URL's query or path, or in a body: medium;
//!   in an auth header: the normal use.

use std::sync::LazyLock;

use regex::Regex;

use super::SecCx;
use super::execution::{Origin, origin_of};
use super::patterns::is_live;
use crate::finding::{Location, Severity};

pub const SECRET_IN_NETWORK_CALL: &str = "secret-in-network-call";

/// Rule ids this module emits.
pub const RULES: &[&str] = &[SECRET_IN_NETWORK_CALL];

static CALL: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r#"(?i)\b(curl|wget|fetch\(|requests\.\w+\(|httpx\.\w+\(|urlopen\(|urllib\.request|axios(\.\w+)?\(|https?\.(get|request)\(|got\(|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|sendBeacon|XMLHttpRequest|\.open\(\s*["'](GET|POST))|<img\s[^>]*src\s*=|new\s+Image\(\)"#,
    )
});

/// A secret-named reference; group `n` is the name.
static REF: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r#"(?:\$\{?|\$\(|["']\s*%\s*\(?\s*|%|\$env:|os\.environ\[\s*\\?["']|os\.environ\.get\(\s*\\?["']|os\.getenv\(\s*\\?["']|process\.env\.|process\.env\[\s*["']|\{\{\s*(?:secrets\.|env\.)?|\{|\+\s*|[:,(]\s*)(?P<n>[A-Za-z_][A-Za-z0-9_]*)"#,
    )
});

/// `key = process.env.ANTHROPIC_API_KEY` and the like: group `v` is the variable, `n` the
/// environment name it holds.
static ALIAS: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r#"(?m)\b(?P<v>[A-Za-z_][A-Za-z0-9_]*)\s*[:=]\s*(?:process\.env\.|process\.env\[\s*["']|os\.environ\[\s*["']|os\.environ\.get\(\s*["']|os\.getenv\(\s*["']|\$env:|\$\{?)(?P<n>[A-Za-z_][A-Za-z0-9_]*)"#,
    )
});

static SECRETISH: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r"(?i)(api_?key|apikey|secret|token|passw(or)?d|passwd|private_?key|access_?key|credential|bearer|session_?key|auth_?key)",
    )
});

/// Names that hold where a secret is, not the secret.
/// Names that hold no secret although they say token, key or secret: where a secret is
/// (`_URL`, `_PATH`), facts about it (`_ID`, `_COUNT`, `_EXPIRY`), token counts and page
/// tokens, and tokens that are assets (`SELL_TOKEN`, `TOKEN_ADDRESS`: a contract address).
/// Shared by the secret-to-network rule and the data flows.
static NOT_SECRET: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r"(?i)(_URL|_URI|_HOST|_ENDPOINT|_PATH|_FILE|_DIR|_NAME|_ID|_LEN|_LENGTH|_COUNT|_TYPE|_HEADER|_FIELD|_PARAM|_EXPIRY|_EXPIRES|_TTL|_LIMIT|_MAX|_MIN|_ADDRESS|_ADDR|_MINT|_CONTRACT|_SYMBOL|_DECIMALS)$|^(token_?count|max_?tokens?|tokens?|num_?tokens?|tokenizer|next_?token|page_?token|csrf_?token|(sell|buy|input|output|base|quote|from|to|native|gas)_?token)$",
    )
});

/// Is `name` one of the names that hold no secret ([`NOT_SECRET`])?
pub(crate) fn not_a_secret_name(name: &str) -> bool {
    NOT_SECRET.is_match(name)
}

/// A URL: group 1 the host (after any `user:secret@`), group 2 the rest.
static HOST: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r#"(?i)\b(?:https?|wss?|ftp)://(?:[^\s/@"'`|)<>;]*@)?([^\s/"'`|)<>;?#:@]+)([^\s"'`|)<>;]*)"#,
    )
});

/// A file that talks to the network somewhere (a URL built on one line is sent on another).
static NETWORK_USE: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r#"(?i)\b(curl|wget|fetch\(|requests\.\w+\(|httpx\.|urlopen\(|urllib\.request|axios|https?\.(get|request)\(|got\(|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|sendBeacon|XMLHttpRequest|git\s+(push|remote|clone)|<img\s)"#,
    )
});

/// Connection strings hold a password even though their names say URL.
static CONNECTION: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r"(?i)^(DATABASE_URL|DB_URL|[A-Z_]*_DSN|[A-Z_]*CONNECTION_STRING|REDIS_URL|MONGO(DB)?_UR[IL]|POSTGRES_URL)$",
    )
});

static AUTH_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    super::patterns::re(
        r#"(?i)(authorization|x-api-key|api-key|x-auth-token|private-token|bearer|x-[\w-]*(key|token))\s*["']?\s*[:=]|headers\s*[=:]|-H\s|--header\s|-u\s+["']?\$|--user\s"#,
    )
});

/// End offset of the statement that starts on line `i`: up to 12 lines while brackets
/// stay open or a line ends with a `\` continuation. Linear: each call reads at most
/// 12 lines of at most 2000 bytes.
fn statement_end(lines: &[(usize, &str)], i: usize) -> usize {
    let mut depth: i32 = 0;
    let mut end = lines[i].0 + lines[i].1.len();
    for &(off, l) in lines.iter().skip(i).take(12) {
        if l.len() > 2000 {
            break;
        }
        end = off + l.len();
        for b in l.bytes() {
            match b {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
        if depth <= 0 && !l.trim_end().ends_with('\\') {
            break;
        }
    }
    end
}

/// Known providers: variable prefix → hosts that own its secrets.
const PROVIDERS: &[(&str, &[&str])] = &[
    (
        "GITHUB",
        &["github.com", "githubusercontent.com", "ghcr.io"],
    ),
    ("GH", &["github.com", "githubusercontent.com"]),
    ("GITLAB", &["gitlab.com", "gitlab"]),
    ("OPENAI", &["openai.com", "openai.azure.com"]),
    ("ANTHROPIC", &["anthropic.com", "claude.ai"]),
    ("CLAUDE", &["anthropic.com", "claude.ai"]),
    ("AWS", &["amazonaws.com", "aws.amazon.com"]),
    ("GOOGLE", &["googleapis.com", "google.com"]),
    ("GEMINI", &["googleapis.com", "google.com"]),
    ("GCP", &["googleapis.com", "google.com"]),
    (
        "AZURE",
        &["azure.com", "microsoft.com", "windows.net", "azure.net"],
    ),
    ("HF", &["huggingface.co", "hf.co"]),
    ("HUGGINGFACE", &["huggingface.co", "hf.co"]),
    ("SLACK", &["slack.com"]),
    ("DISCORD", &["discord.com", "discordapp.com"]),
    ("NPM", &["npmjs.org", "npmjs.com"]),
    ("PYPI", &["pypi.org"]),
    ("DOCKER", &["docker.io", "docker.com"]),
    ("JIRA", &["atlassian.net", "atlassian.com"]),
    ("ATLASSIAN", &["atlassian.net", "atlassian.com"]),
    ("CONFLUENCE", &["atlassian.net", "atlassian.com"]),
    ("DD", &["datadoghq.com", "datadoghq.eu", "datadog.com"]),
    ("DATADOG", &["datadoghq.com", "datadoghq.eu", "datadog.com"]),
    ("CF", &["cloudflare.com"]),
    ("CLOUDFLARE", &["cloudflare.com"]),
    ("MS", &["microsoft.com", "office.com"]),
    ("GRAPH", &["microsoft.com"]),
    ("TELEGRAM", &["telegram.org"]),
    ("TG", &["telegram.org"]),
    ("DOCKERHUB", &["docker.io", "docker.com"]),
    ("STRIPE", &["stripe.com"]),
    ("TWILIO", &["twilio.com"]),
    ("SENDGRID", &["sendgrid.com", "sendgrid.net"]),
    // Providers whose API host does not name them (issue 29: false highs on real skills).
    ("HUBSPOT", &["hubapi.com", "hubspot.com"]),
    ("ATLAS", &["mongodb.com", "mongodb.net"]),
    ("MONGODB", &["mongodb.com", "mongodb.net"]),
    ("MDB", &["mongodb.com", "mongodb.net"]),
    ("FLY", &["fly.io", "fly.dev", "machines.dev"]),
    ("XAI", &["x.ai"]),
];

/// Names without a provider: their first word says nothing about where they belong.
const GENERIC: &[&str] = &[
    "API",
    "APIKEY",
    "ACCESS",
    "AUTH",
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "PASSWD",
    "PASS",
    "PRIVATE",
    "CLIENT",
    "APP",
    "USER",
    "SESSION",
    "BEARER",
    "MY",
    "SERVICE",
    "X",
    "KEY",
    "CREDENTIALS",
    "CREDENTIAL",
    "REFRESH",
    "ID",
    "PERSONAL",
    "BOT",
    "WEBHOOK",
    "ADMIN",
    // Placeholders of documentation (`YOUR_API_KEY`, `NEW_TOKEN` in a rotation guide).
    "YOUR",
    "NEW",
    "OLD",
    "CURRENT",
    "PREVIOUS",
    "TEMP",
    "TEST",
    "DEFAULT",
];

fn host_is(host: &str, domain: &str) -> bool {
    if !domain.contains('.') {
        return host.split('.').any(|l| l == domain);
    }
    host == domain || host.ends_with(&format!(".{domain}"))
}

enum Owner {
    /// The host belongs to the secret's provider.
    Own,
    /// Another provider's secret.
    Foreign,
    /// A name that says nothing about where it belongs.
    Generic,
}

fn owner(name: &str, host: &str) -> Owner {
    let upper = name.to_ascii_uppercase();
    let first = upper.split('_').find(|w| !w.is_empty()).unwrap_or("");
    if let Some((_, hosts)) = PROVIDERS.iter().find(|(p, _)| *p == first) {
        return if hosts.iter().any(|d| host_is(host, d)) {
            Owner::Own
        } else {
            Owner::Foreign
        };
    }
    if GENERIC.contains(&first) || first.len() < 3 || !upper.contains('_') {
        return Owner::Generic;
    }
    // `ACME_API_KEY` belongs to a host that names acme; `DOCKERHUB_TOKEN` to docker.com
    // (the host's main label inside the word).
    let word = first.to_ascii_lowercase();
    let labels: Vec<&str> = host.split('.').collect();
    let main = labels.len().checked_sub(2).map_or("", |i| labels[i]);
    // `XAI_API_KEY` → api.x.ai: the word in the host without its dots.
    let squashed: String = host.chars().filter(|c| *c != '.' && *c != '-').collect();
    if host.contains(&word) || squashed.contains(&word) || (main.len() >= 4 && word.contains(main))
    {
        Owner::Own
    } else {
        Owner::Foreign
    }
}

pub fn check(scx: &mut SecCx<'_, '_>) {
    let mut emits = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        if src.quotes_attacks
            || !src.has_words(super::patterns::Words::Fetch)
                && !src.text.contains("<img")
                && !src.text.contains("requests.")
                && !src.text.contains("http")
        {
            continue;
        }
        // Alias → the secret it holds (the first assignment wins); a map, not a list
        // searched for every reference (quadratic in a file of many assignments, issue 12).
        let mut aliases: std::collections::HashMap<String, String> = Default::default();
        for c in ALIAS.captures_iter(&src.text).filter(|c| {
            CONNECTION.is_match(&c["n"])
                || (SECRETISH.is_match(&c["n"]) && !NOT_SECRET.is_match(&c["n"]))
        }) {
            aliases
                .entry(c["v"].to_owned())
                .or_insert_with(|| c["n"].to_owned());
        }
        let net_file = NETWORK_USE.is_match(&src.text);
        let lines: Vec<(usize, &str)> = src
            .text
            .split_inclusive('\n')
            .scan(0, |off, l| {
                let here = *off;
                *off += l.len();
                Some((here, l))
            })
            .collect();
        // A call continues over the lines its brackets or `\` continuations span (a
        // header three lines below the URL is part of the same request).
        let mut covered = 0;
        for (i, &(here, first)) in lines.iter().enumerate() {
            if here < covered || first.len() > 2000 || !is_live(src, here) {
                continue;
            }
            if !(CALL.is_match(first) || net_file && HOST.is_match(first)) {
                continue;
            }
            let end = statement_end(&lines, i);
            let line = &src.text[here..end];
            covered = end;
            let Some(h) = HOST.captures(line) else {
                continue;
            };
            let host = h[1].to_ascii_lowercase();
            // A host built at run time (`{host}`, `$HOST`) cannot be judged here.
            if !host.contains('.')
                || !host
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
            {
                continue;
            }
            let url = h.get(0).unwrap();
            if matches!(
                host.as_str(),
                "localhost" | "127.0.0.1" | "0.0.0.0" | "[::1]"
            ) || host.ends_with(".local")
                || host.ends_with(".internal")
            {
                continue;
            }
            let (origin, _) = origin_of(line);
            let hostile = origin == Origin::Hostile;
            // Overlapping: `{os.environ["X"]}` holds both `{os` and `os.environ["X`.
            let mut pos = 0;
            while let Some(r) = REF.captures_at(line, pos) {
                pos = r.get(0).map_or(line.len(), |m| m.start() + 1);
                let n = r.name("n").unwrap();
                let name = aliases.get(n.as_str()).map_or(n.as_str(), |e| e.as_str());
                if !CONNECTION.is_match(name)
                    && (!SECRETISH.is_match(name) || NOT_SECRET.is_match(name))
                {
                    continue;
                }
                // A bare word followed by `=` or `:` is a key (`api_key="…"`), not a value.
                let bare = !matches!(
                    line.as_bytes()[r.get(0).unwrap().start()],
                    b'$' | b'%' | b'{'
                ) && !r.get(0).unwrap().as_str().contains("env");
                let rest = line[n.end()..].trim_start();
                if bare
                    && (rest.starts_with('=') && !rest.starts_with("==") || rest.starts_with(':'))
                {
                    continue;
                }
                let at = r.get(0).unwrap().start();
                let in_url = at >= url.start() && at < url.end();
                let before = &line[..at];
                let mut from = before.len().saturating_sub(60);
                while !before.is_char_boundary(from) {
                    from += 1;
                }
                let in_header = !in_url && AUTH_HEADER.is_match(&before[from..]);
                let sev = match (owner(name, &host), hostile, in_header, in_url) {
                    (_, true, _, _) => Some(Severity::High),
                    (Owner::Own, ..) => None,
                    // OpenAI-compatible APIs take `OPENAI_API_KEY` on other hosts.
                    (Owner::Foreign, _, true, _)
                        if name.to_ascii_uppercase().starts_with("OPENAI") =>
                    {
                        Some(Severity::Medium)
                    }
                    (Owner::Foreign, ..) => Some(Severity::High),
                    (Owner::Generic, _, true, _) => None,
                    (Owner::Generic, ..) => Some(Severity::Medium),
                };
                let Some(sev) = sev else { continue };
                let place = if in_url {
                    "in the URL"
                } else if in_header {
                    "in a header"
                } else {
                    "in the request"
                };
                let shown =
                    crate::text::sanitize_line(&crate::text::truncate(name, 60)).into_owned();
                let host_shown =
                    crate::text::sanitize_line(&crate::text::truncate(&host, 80)).into_owned();
                emits.push((si, here + at, sev, shown, host_shown, place));
                break;
            }
        }
    }
    for (si, off, sev, name, host, place) in emits {
        let src = &scx.sources[si];
        let (l, c) = src.pos(off);
        let loc = Location::at(src.rel.clone(), l, c);
        let msg = format!(
            "the secret `{name}` is sent {place} to `{host}`, which is not the service it belongs to: whoever runs that host receives the credential (and URLs end up in logs and proxies). Send a credential only to its own provider's API, in an auth header."
        );
        let anchor = format!("{}:{name}>{host}", src.path);
        scx.cx.emit(SECRET_IN_NETWORK_CALL, msg, loc, &anchor);
        if let Some(f) = scx.cx.findings.last_mut() {
            f.severity = sev;
        }
        scx.signal(
            super::SignalKind::NetworkSend,
            si,
            off,
            format!("{name} to {host}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owners_of_named_secrets() {
        // A provider's own host, under another of its domains.
        assert!(matches!(
            owner("DATADOG_API_KEY", "api.datadog.com"),
            Owner::Own
        ));
        assert!(matches!(
            owner("DD_API_KEY", "http-intake.logs.datadoghq.com"),
            Owner::Own
        ));
        // Another provider's secret.
        assert!(matches!(
            owner("GITHUB_TOKEN", "metrics.example.dev"),
            Owner::Foreign
        ));
        // Placeholders of documentation say nothing about where they belong.
        for n in [
            "SELL_TOKEN",
            "BUY_TOKEN",
            "TOKEN_ADDRESS",
            "GITHUB_TOKEN_ID",
            "max_tokens",
        ] {
            assert!(not_a_secret_name(n), "{n}");
        }
        assert!(!not_a_secret_name("GITHUB_TOKEN"));
        for n in ["YOUR_API_KEY", "NEW_TOKEN", "OLD_TOKEN", "MY_SECRET"] {
            assert!(matches!(owner(n, "api.example.io"), Owner::Generic), "{n}");
        }
    }
}
