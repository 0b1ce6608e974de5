//! `secret-in-network-call`: a secret-named variable interpolated into a request to a
//! host that is not the secret's own service.
//!
//! On each live line with a network call (`curl`, `wget`, `fetch`, `requests.*`,
//! `httpx`, `urlopen`, `axios`, `Invoke-WebRequest`, an `<img src>` pixel…), the
//! references to variables named like secrets (`$OPENAI_API_KEY`, `${TOKEN}`,
//! `$(SECRET)`, `%API_KEY%`, `$env:X`, `os.environ["X"]`, `os.getenv("X")`,
//! `process.env.X`, `{{X}}`, f-string and template-literal placeholders) are checked
//! against the line's URL host:
//! - the secret's owner (see `security::providers`: a provider of the table in
//!   `providers.toml` and its API hosts, OAuth endpoints and related companies,
//!   `XAI_API_KEY` → `api.x.ai`, `HUBSPOT_*` → `api.hubapi.com`, `OPIK_API_KEY` →
//!   `www.comet.com`; or, for a vendor the table does not know, a word of the name that
//!   is a label of the host, `ACME_API_KEY` → `api.acme.io`) or `localhost`: the normal
//!   use;
//! - another provider's host, a look-alike (`github.com.evil.io`), or a paste site, tunnel,
//!   raw IP or plain HTTP whatever the name: **high** (medium when the secret only sits in
//!   an auth header of a provider whose key other APIs take, `OPENAI_API_KEY`);
//! - a generic name (`API_KEY`, `TOKEN`) in the URL's query or path, or in a body: medium;
//!   in an auth header: the normal use.

use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Location, Severity};
use crate::security::families::exfiltration::providers::{Owner, owner};
use crate::security::model::SecCx;
use crate::security::model::context::is_live;
use crate::security::model::hosts::{Origin, origin_of};

pub const SECRET_IN_NETWORK_CALL: &str = "secret-in-network-call";

/// Rule ids this module emits.
pub const RULES: &[&str] = &[SECRET_IN_NETWORK_CALL];

static CALL: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?i)\b(curl|wget|fetch\(|requests\.\w+\(|httpx\.\w+\(|urlopen\(|urllib\.request|axios(\.\w+)?\(|https?\.(get|request)\(|got\(|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|sendBeacon|XMLHttpRequest|\.open\(\s*["'](GET|POST))|<img\s[^>]*src\s*=|new\s+Image\(\)"#,
    )
});

/// A secret-named reference; group `n` is the name.
static REF: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?:\$\{?|\$\(|["']\s*%\s*\(?\s*|%|\$env:|os\.environ\[\s*\\?["']|os\.environ\.get\(\s*\\?["']|os\.getenv\(\s*\\?["']|process\.env\.|process\.env\[\s*["']|\{\{\s*(?:secrets\.|env\.)?|\{|\+\s*|[:,(]\s*)(?P<n>[A-Za-z_][A-Za-z0-9_]*)"#,
    )
});

/// `key = process.env.ANTHROPIC_API_KEY` and the like, also inside a string or a
/// concatenation (`$b = "token=" + $env:GITHUB_TOKEN`, `b = f"t={os.environ['X']}"`): group
/// `v` is the variable, `n` the environment name it holds.
static ALIAS: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?m)\b(?P<v>[A-Za-z_][A-Za-z0-9_]*)\s*[:=]\s*(?:"[^"\n]{0,60}"\s*\+\s*|'[^'\n]{0,60}'\s*\+\s*|"[^"\n$]{0,60}|`[^`\n$]{0,60}\$\{|f["'][^"'\n{]{0,60}\{)?(?:process\.env\.|process\.env\[\s*["']|os\.environ\[\s*["']|os\.environ\.get\(\s*["']|os\.getenv\(\s*["']|\$env:|\$\{?)(?P<n>[A-Za-z_][A-Za-z0-9_]*)"#,
    )
});

static SECRETISH: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(api_?key|apikey|secret|token|passw(or)?d|passwd|private_?key|access_?key|credential|bearer|session_?key|auth_?key)",
    )
});

/// Names that hold no secret although they say token, key or secret: where a secret is
/// (`_URL`, `_PATH`), facts about it (`_ID`, `_COUNT`, `_EXPIRY`, `_PREFIX`), token counts
/// and budgets of language models (`MAX_TOKENS`, `PROMPT_TOKENS`, `TOKEN_USAGE`), page
/// tokens, and tokens that are assets (`SELL_TOKEN`, `TOKEN_ADDRESS`, `TOKEN_MINT`,
/// `TOKEN_SYMBOL`, `TOKEN_PRICE`: a contract, not a credential). camelCase too
/// (`tokenAddress`, `totalTokens`).
/// Shared by the secret-to-network rule and the data flows.
static NOT_SECRET: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(_URL|_URI|_HOST|_ENDPOINT|_PATH|_FILE|_DIR|_NAME|_ID|_IDS|_LEN|_LENGTH|_COUNT|_TYPE|_HEADER|_FIELD|_PARAM|_PREFIX|_EXPIRY|_EXPIRES|_EXPIRES_AT|_EXPIRES_IN|_EXPIRATION|_TTL|_LIMIT|_MAX|_MIN|_TOKENS|_USED|_USAGE|_BUDGET|_ADDRESS|_ADDR|_MINT|_CONTRACT|_CA|_PAIR|_SYMBOL|_TICKER|_DECIMALS|_SUPPLY|_PRICE|_AMOUNT|_BALANCE)$|(?-i:[a-z0-9](Url|Uri|Host|Endpoint|Path|File|Dir|Name|Id|Ids|Count|Type|Prefix|Expiry|Limit|Tokens|Usage|Budget|Address|Mint|Symbol|Decimals|Supply|Price|Amount|Balance))$|^(token_?count|max_?tokens?|tokens?|num_?tokens?|tokenizer|next_?token|page_?token|csrf_?token|(sell|buy|input|output|base|quote|from|to|native|gas)_?token)$",
    )
});

/// Is `name` one of the names that hold no secret ([`NOT_SECRET`])?
pub(crate) fn not_a_secret_name(name: &str) -> bool {
    NOT_SECRET.is_match(name)
}

/// A variable or key named like a secret (`GITHUB_TOKEN`, `db_password`, `DATABASE_URL`) that
/// is not one of the names holding no secret ([`NOT_SECRET`]). Shared by the shell, the data
/// flows and this rule.
pub(crate) fn is_secret_name(name: &str) -> bool {
    CONNECTION_STRING.is_match(name) || (SECRET_NAME.is_match(name) && !not_a_secret_name(name))
}

static SECRET_NAME: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(api_?key|apikey|secret|token|passw(or)?d|passwd|private_?key|access_?key|credential|session_?key|auth_?key)",
    )
});

/// A database or broker connection string (`DATABASE_URL`, `PAYMENTS_DB_DSN`, `REDIS_URL`): it
/// holds the password, although its name ends like an address.
static CONNECTION_STRING: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(^|_)(database|db|redis|mongo(db)?|postgres(ql)?|pg|mysql|mariadb|amqp|rabbitmq|broker)_?(url|uri|dsn)$|(^|_)dsn$|connection_?string$",
    )
});

/// The user part of a command line's `user:password` option (`curl -u admin:`, `wpscan
/// --http-auth admin:`), up to the colon.
static CLI_USER: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?:^|\s)(?:-u|--user|--http-auth|--auth|--http-user|--proxy-user|--basic-auth)[\s=]+[\w.@-]+$",
    )
});

/// A URL: group 1 the host (after any `user:secret@`), group 2 the rest.
static HOST: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?i)\b(?:https?|wss?|ftp)://(?:[^\s/@"'`|)<>;]*@)?([^\s/"'`|)<>;?#:@]+)([^\s"'`|)<>;]*)"#,
    )
});

/// A file that talks to the network somewhere (a URL built on one line is sent on another).
static NETWORK_USE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?i)\b(curl|wget|fetch\(|requests\.\w+\(|httpx\.|urlopen\(|urllib\.request|axios|https?\.(get|request)\(|got\(|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|WebClient|sendBeacon|XMLHttpRequest|git\s+(push|remote|clone)|<img\s)"#,
    )
});

/// Connection strings hold a password even though their names say URL.
static CONNECTION: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)^(DATABASE_URL|DB_URL|[A-Z_]*_DSN|[A-Z_]*CONNECTION_STRING|REDIS_URL|MONGO(DB)?_UR[IL]|POSTGRES_URL)$",
    )
});

static AUTH_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?i)(authorization|x-api-key|api-key|x-auth-token|private-token|bearer|x-[\w-]*(key|token))\s*["']?\s*[:=]|headers\s*[=:]|-H\s|--header\s|-u\s+["']?\$|--user\s"#,
    )
});

/// The start of an object literal assigned to a name: `$p = @{`, `payload = {`, `const body = {`,
/// `$o = [pscustomobject]@{`, `data = dict(`. Group `v` is the name.
static OBJECT: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?m)^[ \t]*(?:(?:const|let|var)\s+)?\$?(?P<v>[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:\[[A-Za-z.]+\]\s*)?(?:@\{|\{|dict\()",
    )
});

/// The text of an object literal from just after its opening bracket to its closing one, at most
/// 40 lines or 4000 bytes (linear: each object reads a bounded window).
fn object_body(text: &str) -> &str {
    let mut depth = 1i32;
    let mut lines = 0;
    for (i, b) in text.bytes().enumerate().take(4000) {
        match b {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return &text[..i];
                }
            }
            b'\n' => {
                lines += 1;
                if lines > 40 {
                    return &text[..i];
                }
            }
            _ => {}
        }
    }
    let mut end = text.len().min(4000);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

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

pub fn check(scx: &mut SecCx<'_, '_>) {
    let mut emits = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        if src.quotes_attacks
            || !src.has_words(crate::security::model::datarules::Words::Fetch)
                && !src.text.contains("<img")
                && !src.text.contains("requests.")
                && !src.text.contains("http")
        {
            continue;
        }
        // Alias → the secret it holds (the first assignment wins); a map, not a list
        // searched for every reference (quadratic in a file of many assignments).
        let mut aliases: std::collections::HashMap<String, String> = Default::default();
        for c in ALIAS.captures_iter(&src.text).filter(|c| {
            CONNECTION.is_match(&c["n"])
                || (SECRETISH.is_match(&c["n"]) && !NOT_SECRET.is_match(&c["n"]))
        }) {
            aliases
                .entry(c["v"].to_owned())
                .or_insert_with(|| c["n"].to_owned());
        }
        // An object gathering secrets (`$p = @{ a = $env:AWS_SECRET_ACCESS_KEY; b = … }`,
        // `payload = {"k": os.environ["GITHUB_TOKEN"], …}`): its name stands for the first
        // secret, and one holding two or more is a gathering, high wherever it is sent.
        let mut gathered: std::collections::HashSet<String> = Default::default();
        for m in OBJECT.captures_iter(&src.text) {
            let open = m.get(0).map_or(0, |x| x.end());
            let body = object_body(&src.text[open..]);
            let mut names: Vec<&str> = Vec::new();
            // Overlapping, as below: `$env:X` holds both `$env` and `$env:X`.
            let mut pos = 0;
            while let Some(r) = REF.captures_at(body, pos) {
                pos = r.get(0).map_or(body.len(), |m| m.start() + 1);
                let n = r.name("n").map_or("", |x| x.as_str());
                let n = aliases.get(n).map_or(n, |e| e.as_str());
                // A value read from the environment, not a key or a literal word.
                let ns = r.name("n").map_or(0, |x| x.start());
                let mut from = ns.saturating_sub(16);
                while !body.is_char_boundary(from) {
                    from += 1;
                }
                let pre = &body[from..ns];
                let sigil = pre.ends_with('$')
                    || pre.ends_with("${")
                    || ["env:", "env.", "env[", "environ", "getenv"]
                        .iter()
                        .any(|k| pre.contains(k));
                if sigil && is_secret_name(n) && !names.contains(&n) {
                    names.push(n);
                }
            }
            let Some(first) = names.first() else { continue };
            let v = m["v"].to_owned();
            if names.len() >= 2 {
                gathered.insert(v.clone());
            }
            let first = (*first).to_owned();
            aliases.entry(v).or_insert(first);
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
            if crate::security::model::hosts::is_loopback(&host)
                || host.ends_with(".local")
                || host.ends_with(".internal")
            {
                continue;
            }
            let (origin, _) = origin_of(line);
            let hostile = origin == Origin::Hostile;
            // The URL's path (after any port), for OAuth endpoints (`zoom.us/oauth`).
            let rest = &h[2];
            let rest = rest
                .strip_prefix(':')
                .map_or(rest, |r| r.trim_start_matches(|c: char| c.is_ascii_digit()));
            let path = rest.split(['?', '#']).next().unwrap_or("");
            let scheme = url.as_str().split("://").next().unwrap_or("");
            let tls = scheme.eq_ignore_ascii_case("https") || scheme.eq_ignore_ascii_case("wss");
            let one_host = HOST
                .captures_iter(line)
                .all(|c| c[1].eq_ignore_ascii_case(&host));
            // Discord's webhooks are a drop box whoever's token rides along.
            let drop_path = path.contains("/webhooks");
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
                // `--http-auth admin:password`: a literal `user:word` pair on a command line
                // (a placeholder), not a reference; `admin:$PASSWORD` is one and is checked.
                let m0 = r.get(0).unwrap();
                if bare
                    && m0.as_str().starts_with(':')
                    && m0.start() == n.start() - 1
                    && CLI_USER.is_match(&line[..m0.start()])
                {
                    continue;
                }
                let at = r.get(0).unwrap().start();
                let in_url = at >= url.start() && at < url.end();
                // A bare word inside a URL (`user:PASSWORD@proxy`) is a literal written
                // there, a placeholder, not a variable interpolated into it.
                let before_name = &line[..n.start()];
                let sigiled = ["$env:", "$", "${", "%", "{", "env.", "$("]
                    .iter()
                    .any(|p| before_name.ends_with(p));
                if bare && in_url && !sigiled {
                    continue;
                }
                let before = &line[..at];
                let mut from = before.len().saturating_sub(60);
                while !before.is_char_boundary(from) {
                    from += 1;
                }
                let in_header = !in_url && AUTH_HEADER.is_match(&before[from..]);
                let mut who = owner(name, &host, path);
                // Another URL of the same statement that is the secret's own (the request goes
                // to its API; `https://www.google.com/…` in the JSON body is what it fetches).
                if !one_host
                    && !matches!(who, Owner::Own { .. })
                    && HOST.captures_iter(line).any(|c| {
                        let h = c[1].to_ascii_lowercase();
                        let p = c[2].split(['?', '#']).next().unwrap_or("");
                        matches!(owner(name, &h, p), Owner::Own { .. })
                    })
                {
                    who = Owner::Own { table: false };
                }
                // An unknown vendor's key sent to the project the skill is about.
                if who == Owner::Unknown
                    && crate::security::model::hosts::url_matches_subject(
                        &scx.subject,
                        url.as_str(),
                    )
                {
                    who = Owner::Own { table: false };
                }
                // A drop host that is the provider's own API (a Discord token to
                // discord.com over HTTPS, the statement's only host) is its normal use.
                let hostile = hostile
                    && !(who == Owner::Own { table: true } && tls && one_host && !drop_path);
                let sev = match (who, hostile, in_header, in_url) {
                    (_, true, _, _) => Some(Severity::High),
                    (Owner::Own { .. }, ..) => None,
                    // OpenAI-compatible APIs take `OPENAI_API_KEY` on other hosts.
                    (Owner::Foreign { compatible: true }, _, true, _) => Some(Severity::Medium),
                    (Owner::Foreign { .. }, ..) => Some(Severity::High),
                    (Owner::Generic, _, true, _) => None,
                    (Owner::Generic, ..) => Some(Severity::Medium),
                    // An unknown pairing: in an auth header it is how any API is called
                    // (medium); in a URL or a body to an unrelated host, a leak (high).
                    (Owner::Unknown, _, true, _) => Some(Severity::Medium),
                    (Owner::Unknown, ..) => Some(Severity::High),
                };
                let Some(mut sev) = sev else { continue };
                if gathered.contains(n.as_str()) {
                    sev = sev.max(Severity::High);
                }
                // The user's own deployment (`*.workers.dev`, `*.run.app`): the skill's
                // backend, most likely; a person should confirm whose it is, nothing more.
                // A known provider's own token (`VERCEL_TOKEN`) sent to an app there is
                // still a platform credential handed to an app: it keeps its severity.
                if !hostile
                    && !crate::security::families::exfiltration::providers::names_a_provider(name)
                    && crate::security::families::exfiltration::providers::on_platform(&host)
                {
                    sev = sev.min(Severity::Low);
                }
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
            crate::security::severity::emitted(f, sev);
        }
        scx.signal(
            crate::security::model::SignalKind::NetworkSend,
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
            owner("DATADOG_API_KEY", "api.datadog.com", "/"),
            Owner::Own { .. }
        ));
        assert!(matches!(
            owner(
                "DD_API_KEY",
                "http-intake.logs.datadoghq.com",
                "/api/v2/logs"
            ),
            Owner::Own { .. }
        ));
        // Another provider's secret.
        assert!(matches!(
            owner("GITHUB_TOKEN", "metrics.example.dev", "/"),
            Owner::Foreign { .. }
        ));
        for n in ["YOUR_API_KEY", "NEW_TOKEN", "OLD_TOKEN", "MY_SECRET"] {
            assert_eq!(owner(n, "api.example.io", "/"), Owner::Generic, "{n}");
        }
    }

    #[test]
    fn names_that_hold_no_secret() {
        for n in [
            // Where a secret is, and facts about it.
            "GITHUB_TOKEN_ID",
            "OPENAI_API_KEY_PATH",
            "SLACK_TOKEN_URL",
            "API_KEY_PREFIX",
            "ACCESS_TOKEN_EXPIRES_AT",
            "ACCESS_TOKEN_EXPIRES_IN",
            "TOKEN_EXPIRATION",
            // Token counts and budgets of language models.
            "PROMPT_TOKEN_COUNT",
            "max_tokens",
            "MAX_OUTPUT_TOKENS",
            "INPUT_TOKENS",
            "prompt_tokens",
            "completion_tokens",
            "TOTAL_TOKENS",
            "TOKENS_USED",
            "TOKEN_USAGE",
            "TOKEN_BUDGET",
            "TOKEN_LIMIT",
            "totalTokens",
            "maxTokens",
            "tokenCount",
            // Tokens that are assets: addresses, mints, symbols, amounts.
            "SELL_TOKEN",
            "BUY_TOKEN",
            "TOKEN_ADDRESS",
            "TOKEN_MINT",
            "TOKEN_MINT_ADDRESS",
            "TOKEN_SYMBOL",
            "TOKEN_DECIMALS",
            "TOKEN_SUPPLY",
            "TOKEN_PRICE",
            "TOKEN_AMOUNT",
            "TOKEN_BALANCE",
            "TOKEN_CA",
            "TOKEN_PAIR",
            "tokenAddress",
            "tokenMint",
            "tokenSymbol",
            "tokenId",
        ] {
            assert!(not_a_secret_name(n), "{n}");
        }
        for n in [
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "githubToken",
            "SLACK_BOT_TOKEN",
            "ACCESS_TOKEN",
            "API_KEYS",
            "REFRESH_TOKEN",
            "tokenSecret",
        ] {
            assert!(!not_a_secret_name(n), "{n}");
        }
    }
}
