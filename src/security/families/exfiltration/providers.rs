//! Who owns a credential: the providers table (`providers.toml`, documented in
//! `docs/providers.md`) and the matching of a variable's name against a host.
//!
//! A secret sent to its own provider is its normal use, not exfiltration. The owner of a
//! secret-named variable is found in two ways:
//! - **the table**: the variable's leading words name a provider (`XAI_API_KEY` → xAI,
//!   `NEW_RELIC_LICENSE_KEY` → New Relic, `CO_API_KEY` → Cohere), whose API hosts, OAuth
//!   endpoints, related companies' hosts and self-hosted instance labels are listed. A
//!   provider the table knows owns exactly those hosts: `GITHUB_TOKEN` to `github.xyz`,
//!   `evilgithub.com` or `github.com.evil.io` is sent to someone else;
//! - **the host's labels**, for vendors the table does not know: a word of the variable, or
//!   adjacent words joined, equals a label of the host or two adjacent labels joined
//!   (`ACME_TOKEN` → `api.acme.dev`, `X_AI`-like joins → `x.ai`), optionally with a
//!   vendor's usual ending (`OPENWEATHER` ↔ `openweathermap.org`). Whole labels only, never
//!   substrings; never the public suffix; never a generic word (`API`, `KEY`, `APP`…) on its
//!   own; never a host under a platform anyone can claim a name on (`*.vercel.app`, tunnels),
//!   nor a look-alike that carries a known provider's domain in its subdomains.
//!
//! Paste sites, tunnels, raw IPs and plain HTTP are judged by the caller whatever the name.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use serde::Deserialize;

/// The table, as shipped.
const PROVIDERS_TOML: &str = include_str!("providers.toml");

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTable {
    words: RawWords,
    hosts: RawHosts,
    #[serde(rename = "provider")]
    providers: Vec<Provider>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWords {
    framework: Vec<String>,
    generic: Vec<String>,
    plain: Vec<String>,
    decorations: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHosts {
    public_suffixes: Vec<String>,
    platforms: Vec<String>,
}

/// One provider of the table (field meanings: `providers.toml`'s header).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Provider {
    /// Read by the table's validation (a unit test) and by people.
    #[cfg_attr(not(test), allow(dead_code))]
    pub id: String,
    #[cfg_attr(not(test), allow(dead_code))]
    pub name: String,
    #[serde(default)]
    pub prefixes: Vec<String>,
    #[serde(default)]
    pub names: Vec<String>,
    #[serde(default)]
    pub hosts: Vec<String>,
    #[serde(default)]
    pub oauth: Vec<String>,
    #[serde(default)]
    pub related: Vec<String>,
    #[serde(default)]
    pub instances: Vec<String>,
    #[serde(default)]
    pub exclude: Vec<String>,
    #[serde(default)]
    pub deployments: Vec<String>,
    #[serde(default)]
    pub compatible: bool,
}

/// How a provider claims a host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Claim {
    /// One of its own API hosts or OAuth endpoints.
    Own,
    /// A related company's host that serves its API.
    Related,
    /// A self-hosted instance named by a label (`gitlab.example.com`).
    Instance,
    /// A customer's app on the provider's hosting (`*.vercel.app`): the user's or anyone's.
    Deployment,
}

/// The owner of a secret-named variable, seen from one host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// The host belongs to the secret's owner; `table` when it is one of the provider's own
    /// hosts in the table (not a related company, an instance or a label match).
    Own { table: bool },
    /// The name names another service; `compatible` when other services take this
    /// provider's key as theirs (OpenAI-compatible APIs).
    Foreign { compatible: bool },
    /// A name that says nothing about where it belongs (`API_KEY`, `TOKEN`).
    Generic,
    /// A vendor the table does not know (`CALLS_APP_SECRET`), on a host its words do not
    /// name: an unknown pairing, neither the vendor's own API nor evidence of a foreign one.
    Unknown,
}

/// The parsed table with its lookups.
pub(crate) struct Table {
    pub providers: Vec<Provider>,
    framework: Vec<Vec<String>>,
    generic: HashSet<String>,
    plain: HashSet<String>,
    decorations: Vec<String>,
    public_suffixes: HashSet<String>,
    platforms: Vec<String>,
    /// First word of a prefix → (the prefix's words, provider index), longest first.
    by_word: HashMap<String, Vec<(Vec<String>, usize)>>,
    /// Whole variable names → provider index.
    by_name: HashMap<String, usize>,
    /// Every provider's own hosts (for look-alikes: `github.com.evil.io`).
    own_hosts: Vec<String>,
    /// One-word prefixes (`GITHUB`): such a word names its provider, never a label.
    provider_words: HashSet<String>,
}

/// The shipped table, parsed once. Its validity is a unit test ([`Table::problems`]).
pub(crate) static TABLE: LazyLock<Table> =
    LazyLock::new(|| Table::parse(PROVIDERS_TOML).expect("src/security/providers.toml parses"));

/// Is `host` the domain `domain` or one of its subdomains?
fn under(host: &str, domain: &str) -> bool {
    host.strip_suffix(domain)
        .is_some_and(|rest| rest.is_empty() || rest.ends_with('.'))
}

/// `host/path-prefix` (or a bare host) against a host and a path.
fn endpoint_matches(entry: &str, host: &str, path: &str) -> bool {
    match entry.split_once('/') {
        Some((h, p)) => {
            under(host, h)
                && path
                    .strip_prefix('/')
                    .is_some_and(|rest| rest.starts_with(p))
        }
        None => under(host, entry),
    }
}

/// The words of a variable name, upper-case: split on `_`, `-` and `.`, and on camelCase
/// humps when the name has lower-case letters (`githubToken` → `GITHUB`, `TOKEN`;
/// `N8N_API_KEY` stays `N8N`).
pub(crate) fn words_of(name: &str) -> Vec<String> {
    let camel = name.bytes().any(|b| b.is_ascii_lowercase());
    let mut out = Vec::new();
    for part in name.split(['_', '-', '.']) {
        if part.is_empty() {
            continue;
        }
        if !camel {
            out.push(part.to_ascii_uppercase());
            continue;
        }
        let chars: Vec<char> = part.chars().collect();
        let mut cur = String::new();
        for (i, &c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1).copied();
            let hump = c.is_ascii_uppercase()
                && prev.is_some_and(|p| {
                    p.is_ascii_lowercase()
                        || p.is_ascii_digit()
                        || p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase())
                });
            if hump && !cur.is_empty() {
                out.push(std::mem::take(&mut cur).to_ascii_uppercase());
            }
            cur.push(c);
        }
        if !cur.is_empty() {
            out.push(cur.to_ascii_uppercase());
        }
    }
    out
}

fn split_words(s: &str) -> Vec<String> {
    s.split('_')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}

impl Table {
    /// Parses the table and builds its lookups. Validation is separate ([`Table::problems`]).
    pub(crate) fn parse(text: &str) -> Result<Table, String> {
        let raw: RawTable = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut by_word: HashMap<String, Vec<(Vec<String>, usize)>> = HashMap::new();
        let mut by_name = HashMap::new();
        let mut own_hosts = Vec::new();
        let mut provider_words = HashSet::new();
        for (i, p) in raw.providers.iter().enumerate() {
            for pre in &p.prefixes {
                let w = split_words(pre);
                if let [one] = w.as_slice() {
                    provider_words.insert(one.clone());
                }
                if let Some(first) = w.first() {
                    by_word.entry(first.clone()).or_default().push((w, i));
                }
            }
            for n in &p.names {
                by_name.insert(n.clone(), i);
            }
            own_hosts.extend(p.hosts.iter().cloned());
        }
        for v in by_word.values_mut() {
            v.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
        }
        let mut framework: Vec<Vec<String>> =
            raw.words.framework.iter().map(|f| split_words(f)).collect();
        framework.sort_by_key(|w| std::cmp::Reverse(w.len()));
        Ok(Table {
            providers: raw.providers,
            framework,
            generic: raw.words.generic.into_iter().collect(),
            plain: raw.words.plain.into_iter().collect(),
            decorations: raw.words.decorations,
            public_suffixes: raw.hosts.public_suffixes.into_iter().collect(),
            platforms: raw.hosts.platforms,
            by_word,
            by_name,
            own_hosts,
            provider_words,
        })
    }

    /// What is wrong with the table (empty when it is sound): ids unique and lower-case,
    /// prefixes and names upper-case and claimed once, hosts lower-case and valid, no host
    /// owned by two providers (a shared host is listed as `related`), every provider with
    /// somewhere to send its secrets.
    #[cfg(test)]
    pub(crate) fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let valid_host = |h: &str| {
            h.contains('.')
                && h.split('.').all(|l| {
                    !l.is_empty()
                        && l.len() <= 63
                        && !l.starts_with('-')
                        && !l.ends_with('-')
                        && l.bytes()
                            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                })
        };
        let valid_words = |w: &str| {
            !w.is_empty()
                && !w.starts_with('_')
                && !w.ends_with('_')
                && !w.contains("__")
                && w.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        };
        let valid_path = |p: &str| {
            p.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._/~".contains(&b))
        };
        let mut ids = HashSet::new();
        let mut claimed_words: HashMap<&str, &str> = HashMap::new();
        for p in &self.providers {
            if p.id.is_empty()
                || !p
                    .id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            {
                out.push(format!(
                    "`{}`: an id is lower-case letters, digits, `-`",
                    p.id
                ));
            }
            if !ids.insert(p.id.as_str()) {
                out.push(format!("`{}`: duplicate id", p.id));
            }
            if p.name.trim().is_empty() {
                out.push(format!("`{}`: no display name", p.id));
            }
            if p.prefixes.is_empty() && p.names.is_empty() {
                out.push(format!("`{}`: no prefix and no name", p.id));
            }
            if p.hosts.is_empty()
                && p.oauth.is_empty()
                && p.related.is_empty()
                && p.instances.is_empty()
            {
                out.push(format!("`{}`: no host", p.id));
            }
            for w in p.prefixes.iter().chain(&p.names) {
                if !valid_words(w) {
                    out.push(format!(
                        "`{}`: `{w}` is not upper-case words joined by `_`",
                        p.id
                    ));
                }
                if let Some(other) = claimed_words.insert(w.as_str(), p.id.as_str())
                    && other != p.id
                {
                    out.push(format!("`{w}` names both `{other}` and `{}`", p.id));
                }
            }
            for w in &p.prefixes {
                if self.generic.contains(w) || self.plain.contains(w) {
                    out.push(format!("`{}`: the prefix `{w}` is a generic word", p.id));
                }
                for f in &self.framework {
                    if split_words(w).starts_with(f) {
                        out.push(format!(
                            "`{}`: the prefix `{w}` starts with a framework word",
                            p.id
                        ));
                    }
                }
            }
            for h in p.hosts.iter().chain(&p.related).chain(&p.deployments) {
                if !valid_host(h) {
                    out.push(format!("`{}`: `{h}` is not a lower-case host name", p.id));
                }
            }
            for e in p.oauth.iter().chain(&p.exclude) {
                let (h, path) = e.split_once('/').unwrap_or((e, ""));
                if !valid_host(h) || !valid_path(path) {
                    out.push(format!("`{}`: `{e}` is not `host` or `host/path`", p.id));
                }
            }
            for e in &p.exclude {
                let h = e.split_once('/').map_or(e.as_str(), |(h, _)| h);
                if !p.hosts.iter().any(|d| under(h, d)) {
                    out.push(format!(
                        "`{}`: the excluded `{e}` is not under its hosts",
                        p.id
                    ));
                }
            }
            for l in &p.instances {
                if l.is_empty()
                    || !l
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                {
                    out.push(format!(
                        "`{}`: the instance label `{l}` is not a label",
                        p.id
                    ));
                }
            }
        }
        // A host (or OAuth endpoint host) owned by one provider only, suffixes included:
        // `openai.azure.com` under Microsoft's `azure.com` is OpenAI's only as `related`.
        let owned: Vec<(&str, &str)> = self
            .providers
            .iter()
            .flat_map(|p| {
                p.hosts
                    .iter()
                    .map(String::as_str)
                    .chain(p.oauth.iter().map(|e| e.split('/').next().unwrap_or("")))
                    .map(move |h| (h, p.id.as_str()))
            })
            .collect();
        let mut by_host: HashMap<&str, &str> = HashMap::new();
        for &(h, id) in &owned {
            by_host.entry(h).or_insert(id);
        }
        for &(h, id) in &owned {
            // Walk the host's parent domains (a few labels): linear in the number of hosts.
            let mut rest = h;
            loop {
                if let Some(&other) = by_host.get(rest)
                    && other != id
                {
                    out.push(format!(
                        "`{h}` of `{id}` is also `{other}`'s (`{rest}`): list it as `related`"
                    ));
                }
                match rest.split_once('.') {
                    Some((_, r)) if r.contains('.') => rest = r,
                    _ => break,
                }
            }
        }
        for w in self.generic.iter().chain(&self.plain) {
            if !valid_words(w) || w.contains('_') {
                out.push(format!("generic word `{w}` is not one upper-case word"));
            }
        }
        for f in &self.framework {
            if f.is_empty() || f.iter().any(|w| !valid_words(w)) {
                out.push(format!(
                    "framework prefix `{}` is not upper-case words",
                    f.join("_")
                ));
            }
        }
        for d in &self.decorations {
            if d.is_empty()
                || !d
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            {
                out.push(format!("decoration `{d}` is not lower-case letters"));
            }
        }
        for h in self.public_suffixes.iter().chain(&self.platforms) {
            if !valid_host(h) {
                out.push(format!("`{h}` is not a lower-case host name"));
            }
        }
        out
    }

    /// The provider whose prefix starts at word `i` (the longest), or whose whole name is
    /// `joined` (at `i == 0`).
    fn provider_at(&self, words: &[String], joined: &str, i: usize) -> Option<usize> {
        if i == 0
            && let Some(&p) = self.by_name.get(joined)
        {
            return Some(p);
        }
        self.by_word
            .get(words.get(i)?)?
            .iter()
            .find(|(w, _)| words[i..].starts_with(w))
            .map(|&(_, p)| p)
    }

    /// The variable's words without the framework's leading words (`NEXT_PUBLIC_`).
    fn name_words(&self, name: &str) -> Vec<String> {
        let mut w = words_of(name);
        if let Some(f) = self
            .framework
            .iter()
            .find(|f| w.len() > f.len() && w.starts_with(f))
        {
            w.drain(..f.len());
        }
        w
    }

    /// How provider `p` claims `host` (with the URL's `path`), if it does.
    pub(crate) fn claim(&self, p: usize, host: &str, path: &str) -> Option<Claim> {
        let pr = &self.providers[p];
        if pr.exclude.iter().any(|e| endpoint_matches(e, host, path)) {
            return None;
        }
        if pr.hosts.iter().any(|d| under(host, d))
            || pr.oauth.iter().any(|e| endpoint_matches(e, host, path))
        {
            return Some(Claim::Own);
        }
        if pr.related.iter().any(|d| under(host, d)) {
            return Some(Claim::Related);
        }
        if pr.deployments.iter().any(|d| under(host, d)) {
            return Some(Claim::Deployment);
        }
        if !pr.instances.is_empty() && !self.lookalike(host) {
            let labels: Vec<&str> = host.split('.').collect();
            let keep = labels.len().saturating_sub(self.suffix_len(&labels));
            if labels[..keep]
                .iter()
                .any(|l| pr.instances.iter().any(|i| i == l))
            {
                return Some(Claim::Instance);
            }
        }
        None
    }

    /// Labels of `labels` that make up its public suffix (`ai`; `co.uk`).
    fn suffix_len(&self, labels: &[&str]) -> usize {
        let n = labels.len();
        if n >= 3
            && self
                .public_suffixes
                .contains(&format!("{}.{}", labels[n - 2], labels[n - 1]))
        {
            2
        } else {
            1
        }
    }

    /// A host that carries a known provider's domain in its subdomains
    /// (`github.com.evil.io`, `api.openai.com-proxy.net` is not, `login.x.ai.attacker.dev` is).
    fn lookalike(&self, host: &str) -> bool {
        self.own_hosts.iter().any(|h| {
            host.match_indices(h.as_str()).any(|(at, _)| {
                let end = at + h.len();
                (at == 0 || host.as_bytes()[at - 1] == b'.')
                    && end < host.len()
                    && host.as_bytes()[end] == b'.'
            })
        })
    }

    /// Does a word of the name (or adjacent words joined) equal a label of the host (or two
    /// adjacent labels joined), the vendor's usual endings aside?
    fn names_host(&self, words: &[String], host: &str) -> bool {
        if self.platforms.iter().any(|p| under(host, p)) || self.lookalike(host) {
            return false;
        }
        let labels: Vec<&str> = host.split('.').collect();
        let n = labels.len();
        let keep = n.saturating_sub(self.suffix_len(&labels));
        if keep == 0 {
            return false;
        }
        let mut cands: Vec<String> = Vec::new();
        for (k, l) in labels.iter().enumerate().take(keep) {
            cands.push(l.replace('-', ""));
            // `foundry-api-public` names foundry: a label of the word and generic words.
            let parts: Vec<&str> = l.split('-').collect();
            let kept: Vec<&str> = parts
                .iter()
                .copied()
                .filter(|part| {
                    let up = part.to_ascii_uppercase();
                    !self.generic.contains(&up) && !self.plain.contains(&up)
                })
                .collect();
            if !kept.is_empty() && kept.len() < parts.len() {
                cands.push(kept.concat());
            }
            if let Some(next) = labels.get(k + 1) {
                cands.push(format!("{l}{next}").replace('-', ""));
            }
        }
        let provider_word = |w: &String| self.provider_words.contains(w);
        for i in 0..words.len() {
            for j in i + 1..=(i + 3).min(words.len()) {
                let run = &words[i..j];
                if run
                    .iter()
                    .all(|w| self.generic.contains(w) || self.plain.contains(w))
                    || run.iter().any(provider_word)
                {
                    continue;
                }
                let s: String = run.concat().to_ascii_lowercase();
                if s.len() < 3 {
                    continue;
                }
                if cands.iter().any(|c| *c == s || self.decorated(c, &s)) {
                    return true;
                }
            }
        }
        false
    }

    /// `a` is `b` plus a vendor ending, or the other way round (`openweathermap` ↔
    /// `openweather`).
    fn decorated(&self, a: &str, b: &str) -> bool {
        // Words a vendor puts in front of its name in its domain (`getmaintainx.com`).
        const LEADS: &[&str] = &["get", "try", "use", "go", "my", "join", "hello", "with"];
        let one = |long: &str, short: &str| {
            short.len() >= 4
                && (long.starts_with(short)
                    && self.decorations.iter().any(|d| long[short.len()..] == **d)
                    || LEADS.iter().any(|l| {
                        long.strip_prefix(l).is_some_and(|rest| {
                            rest == short
                                || rest.starts_with(short)
                                    && self.decorations.iter().any(|d| rest[short.len()..] == **d)
                        })
                    }))
        };
        one(a, b) || one(b, a)
    }

    /// The owner of the secret `name`, seen from `host` (lower-case) and the URL's `path`.
    pub(crate) fn owner(&self, name: &str, host: &str, path: &str) -> Owner {
        let words = self.name_words(name);
        if words.is_empty() {
            return Owner::Generic;
        }
        let joined = words.join("_");
        // `snake_case` and `UPPER_CASE` names say who they belong to; a camelCase local
        // (`githubToken`) only clears itself when its words name the host.
        let snake = name.contains('_');
        if let Some(p) = self.provider_at(&words, &joined, 0) {
            match self.claim(p, host, path) {
                // The user's app or anyone's: the name no longer tells.
                Some(Claim::Deployment) => return Owner::Generic,
                Some(c) => {
                    return Owner::Own {
                        table: c == Claim::Own,
                    };
                }
                None if snake => {
                    return Owner::Foreign {
                        compatible: self.providers[p].compatible,
                    };
                }
                None => {}
            }
        }
        // A provider named further in (`MY_OPENAI_KEY`, `PROD_STRIPE_SECRET`) or the host's
        // labels (`ACME_TOKEN` → api.acme.dev) clear the send.
        if (1..words.len()).any(|i| {
            self.provider_at(&words, &joined, i).is_some_and(|p| {
                self.claim(p, host, path)
                    .is_some_and(|c| c != Claim::Deployment)
            })
        }) || self.names_host(&words, host)
        {
            return Owner::Own { table: false };
        }
        let first = &words[0];
        if self.initials_name_host(first, host) || self.on_platform(host) {
            // `CIO_API_KEY` → customer.io; a key sent to the user's own deployment
            // (`*.workers.dev`, `*.run.app`): whose app it is, the name cannot tell.
            return Owner::Generic;
        }
        if !snake || self.generic.contains(first) || first.len() < 3 {
            Owner::Generic
        } else {
            Owner::Unknown
        }
    }

    /// Is `host` under a hosting platform where users deploy their own apps (not a tunnel or
    /// a request catcher, which [`crate::security::model::hosts::origin_of`] calls hostile)?
    fn on_platform(&self, host: &str) -> bool {
        self.platforms.iter().any(|p| under(host, p))
            && crate::security::model::hosts::origin_of(&format!("https://{host}/")).0
                != crate::security::model::hosts::Origin::Hostile
    }

    /// A short first word (2–3 letters, `CIO`, `DO`) that is the initials of the host's
    /// registrable name: its letters in order in the label and the public suffix, starting
    /// with the label's first letter (`cio` in customer.io, `do` in digitalocean.com).
    fn initials_name_host(&self, first: &str, host: &str) -> bool {
        let w = first.to_ascii_lowercase();
        if !(2..=3).contains(&w.len())
            || !w.bytes().all(|b| b.is_ascii_lowercase())
            || self.generic.contains(first)
            || self.lookalike(host)
        {
            return false;
        }
        let labels: Vec<&str> = host.split('.').collect();
        let suffix = self.suffix_len(&labels).max(1);
        let Some(reg) = labels.len().checked_sub(suffix + 1) else {
            return false;
        };
        let name: String = labels[reg..].concat().replace('-', "");
        if !name.starts_with(&w[..1]) || name.len() <= w.len() {
            return false;
        }
        let mut it = name.bytes();
        w.bytes().all(|c| it.any(|b| b == c))
    }

    /// For the data flows: `Some(claimed)` when `word` is a provider's one-word prefix.
    pub(crate) fn word_claims(&self, word: &str, host: &str) -> Option<bool> {
        let &(_, p) = self.by_word.get(word)?.iter().find(|(w, _)| w.len() == 1)?;
        Some(self.claim(p, host, "").is_some())
    }
}

/// Does `name` say it belongs to a provider of the table: a `snake_case` or `UPPER_CASE` name
/// that starts with one (`VERCEL_TOKEN`, `OPENAI_API_KEY`), as [`Table::owner`] reads it?
pub(crate) fn names_a_provider(name: &str) -> bool {
    let words = TABLE.name_words(name);
    name.contains('_')
        && !words.is_empty()
        && TABLE.provider_at(&words, &words.join("_"), 0).is_some()
}

/// Is `host` the user's own deployment on a hosting platform ([`Table::on_platform`])?
pub(crate) fn on_platform(host: &str) -> bool {
    TABLE.on_platform(host)
}

/// The owner of the secret `name` seen from `host` and `path` ([`Table::owner`]).
pub(crate) fn owner(name: &str, host: &str, path: &str) -> Owner {
    TABLE.owner(name, host, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_is_sound() {
        let t = Table::parse(PROVIDERS_TOML).unwrap();
        let problems = t.problems();
        assert!(problems.is_empty(), "{}", problems.join("\n"));
        assert!(t.providers.len() >= 100, "{}", t.providers.len());
    }

    #[test]
    fn the_validator_catches_broken_tables() {
        let head = "[words]\nframework = [\"VITE\"]\ngeneric = [\"API\", \"KEY\"]\nplain = [\"AI\"]\ndecorations = [\"hq\"]\n[hosts]\npublic_suffixes = [\"co.uk\"]\nplatforms = [\"vercel.app\"]\n";
        let bad = [
            // Duplicate id.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"AAA\"]\nhosts = [\"a.com\"]\n[[provider]]\nid = \"a\"\nname = \"B\"\nprefixes = [\"BBB\"]\nhosts = [\"b.com\"]\n",
            // Upper-case host.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"AAA\"]\nhosts = [\"A.com\"]\n",
            // Lower-case prefix.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"aaa\"]\nhosts = [\"a.com\"]\n",
            // A host under another provider's host.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"AAA\"]\nhosts = [\"a.com\"]\n[[provider]]\nid = \"b\"\nname = \"B\"\nprefixes = [\"BBB\"]\nhosts = [\"api.a.com\"]\n",
            // A prefix claimed twice.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"AAA\"]\nhosts = [\"a.com\"]\n[[provider]]\nid = \"b\"\nname = \"B\"\nprefixes = [\"AAA\"]\nhosts = [\"b.com\"]\n",
            // A generic word as a prefix.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"API\"]\nhosts = [\"a.com\"]\n",
            // Nowhere to send.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"AAA\"]\n",
            // An exclusion outside its hosts.
            "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"AAA\"]\nhosts = [\"a.com\"]\nexclude = [\"b.com\"]\n",
        ];
        for b in bad {
            let t = Table::parse(&format!("{head}{b}")).unwrap();
            assert!(!t.problems().is_empty(), "{b}");
        }
        // A related host may be another provider's.
        let ok = "[[provider]]\nid = \"a\"\nname = \"A\"\nprefixes = [\"AAA\"]\nhosts = [\"a.com\"]\n[[provider]]\nid = \"b\"\nname = \"B\"\nprefixes = [\"BBB\"]\nrelated = [\"a.com\"]\n";
        let t = Table::parse(&format!("{head}{ok}")).unwrap();
        assert!(t.problems().is_empty(), "{:?}", t.problems());
        // Unknown fields are refused.
        assert!(
            Table::parse(&format!(
                "{head}[[provider]]\nid = \"a\"\nname = \"A\"\nhost = [\"a.com\"]\n"
            ))
            .is_err()
        );
    }

    #[test]
    fn the_former_inline_table_is_kept() {
        // `secret_send::PROVIDERS` before the table was data: every prefix still owns its hosts.
        for (prefix, hosts) in [
            (
                "GITHUB",
                &["github.com", "githubusercontent.com", "ghcr.io"][..],
            ),
            ("GH", &["github.com", "githubusercontent.com"]),
            ("GITLAB", &["gitlab.com", "gitlab.example.com"]),
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
            ("DOCKERHUB", &["docker.io", "docker.com"]),
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
            ("STRIPE", &["stripe.com"]),
            ("TWILIO", &["twilio.com"]),
            ("SENDGRID", &["sendgrid.com", "sendgrid.net"]),
            ("HUBSPOT", &["hubapi.com", "hubspot.com"]),
            ("ATLAS", &["mongodb.com", "mongodb.net"]),
            ("MONGODB", &["mongodb.com", "mongodb.net"]),
            ("MDB", &["mongodb.com", "mongodb.net"]),
            ("FLY", &["fly.io", "fly.dev", "machines.dev"]),
            ("XAI", &["x.ai"]),
        ] {
            for h in hosts {
                let name = format!("{prefix}_API_KEY");
                for host in [h.to_string(), format!("api.{h}")] {
                    assert!(
                        matches!(owner(&name, &host, "/"), Owner::Own { .. }),
                        "{name} → {host}"
                    );
                }
            }
        }
    }

    #[test]
    fn words_of_names() {
        assert_eq!(words_of("XAI_API_KEY"), ["XAI", "API", "KEY"]);
        assert_eq!(
            words_of("MONGODB_ATLAS_PUBLIC_KEY"),
            ["MONGODB", "ATLAS", "PUBLIC", "KEY"]
        );
        assert_eq!(words_of("githubToken"), ["GITHUB", "TOKEN"]);
        assert_eq!(words_of("openAIKey"), ["OPEN", "AI", "KEY"]);
        assert_eq!(words_of("N8N_API_KEY"), ["N8N", "API", "KEY"]);
        assert_eq!(words_of("n8nApiKey"), ["N8N", "API", "KEY"]);
        assert_eq!(words_of("__x__"), ["X"]);
    }

    fn own(name: &str, url: &str) -> Owner {
        let rest = url.split_once("://").map_or(url, |(_, r)| r);
        let (host, path) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
        owner(name, &host.to_ascii_lowercase(), path)
    }

    #[test]
    fn provider_secrets_to_their_own_hosts() {
        for (name, url) in [
            ("XAI_API_KEY", "https://api.x.ai/v1/chat/completions"),
            ("GROK_API_KEY", "https://api.x.ai/v1/models"),
            (
                "HUBSPOT_ACCESS_TOKEN",
                "https://api.hubapi.com/crm/v3/objects",
            ),
            (
                "HUBSPOT_CLIENT_SECRET",
                "https://api.hubapi.com/oauth/v1/token",
            ),
            (
                "MONGODB_ATLAS_PUBLIC_KEY",
                "https://cloud.mongodb.com/api/atlas/v2",
            ),
            (
                "ATLAS_PRIVATE_KEY",
                "https://cloud.mongodb.com/api/atlas/v1.0/groups",
            ),
            ("FLY_API_TOKEN", "https://api.machines.dev/v1/apps"),
            ("FLY_ACCESS_TOKEN", "https://api.fly.io/graphql"),
            (
                "WHATSAPP_TOKEN",
                "https://graph.facebook.com/v19.0/123/messages",
            ),
            (
                "WHATSAPP_ACCESS_TOKEN",
                "https://graph.facebook.com/v19.0/me",
            ),
            (
                "GRAPH_API_TOKEN",
                "https://graph.facebook.com/v18.0/123/messages",
            ),
            ("GRAPH_API_TOKEN", "https://graph.microsoft.com/v1.0/me"),
            (
                "TEAMS_APP_PASSWORD",
                "https://login.microsoftonline.com/t/oauth2/v2.0/token",
            ),
            (
                "TEAMS_BOT_TOKEN",
                "https://smba.trafficmanager.net/amer/v3/conversations",
            ),
            (
                "TEAMS_ACCESS_TOKEN",
                "https://graph.microsoft.com/v1.0/teams",
            ),
            (
                "MICROSOFT_APP_PASSWORD",
                "https://login.botframework.com/v1/.well-known",
            ),
            (
                "AZURE_CLIENT_SECRET",
                "https://login.microsoftonline.com/common/oauth2/token",
            ),
            (
                "OPIK_API_KEY",
                "https://www.comet.com/opik/api/v1/private/traces",
            ),
            (
                "COMET_API_KEY",
                "https://www.comet.com/api/rest/v2/projects",
            ),
            (
                "GOOGLE_CLIENT_SECRET",
                "https://oauth2.googleapis.com/token",
            ),
            (
                "GOOGLE_CLIENT_SECRET",
                "https://accounts.google.com/o/oauth2/token",
            ),
            (
                "GEMINI_API_KEY",
                "https://generativelanguage.googleapis.com/v1beta/models",
            ),
            (
                "GITHUB_CLIENT_SECRET",
                "https://github.com/login/oauth/access_token",
            ),
            (
                "NOTION_CLIENT_SECRET",
                "https://api.notion.com/v1/oauth/token",
            ),
            (
                "SLACK_CLIENT_SECRET",
                "https://slack.com/api/oauth.v2.access",
            ),
            ("ZOOM_CLIENT_SECRET", "https://zoom.us/oauth/token"),
            (
                "JIRA_CLIENT_SECRET",
                "https://auth.atlassian.com/oauth/token",
            ),
            (
                "SALESFORCE_CLIENT_SECRET",
                "https://login.salesforce.com/services/oauth2/token",
            ),
            (
                "OPENAI_API_KEY",
                "https://myres.openai.azure.com/openai/deployments",
            ),
            (
                "AZURE_OPENAI_API_KEY",
                "https://myres.openai.azure.com/openai/deployments",
            ),
            (
                "NEXT_PUBLIC_SUPABASE_ANON_KEY",
                "https://abcd.supabase.co/rest/v1/items",
            ),
            (
                "SUPABASE_SERVICE_ROLE_KEY",
                "https://abcd.supabase.co/rest/v1/items",
            ),
            ("VERCEL_TOKEN", "https://api.vercel.com/v9/projects"),
            ("LINEAR_API_KEY", "https://api.linear.app/graphql"),
            ("AIRTABLE_API_KEY", "https://api.airtable.com/v0/app/table"),
            (
                "SHOPIFY_ACCESS_TOKEN",
                "https://shop.myshopify.com/admin/api/2024-01/products.json",
            ),
            ("SENTRY_AUTH_TOKEN", "https://sentry.io/api/0/projects/"),
            (
                "PINECONE_API_KEY",
                "https://idx-abc.svc.us-east-1.pinecone.io/query",
            ),
            ("CO_API_KEY", "https://api.cohere.com/v2/chat"),
            ("COHERE_API_KEY", "https://api.cohere.ai/v1/embed"),
            (
                "MISTRAL_API_KEY",
                "https://api.mistral.ai/v1/chat/completions",
            ),
            (
                "GROQ_API_KEY",
                "https://api.groq.com/openai/v1/chat/completions",
            ),
            (
                "TOGETHER_API_KEY",
                "https://api.together.xyz/v1/chat/completions",
            ),
            (
                "REPLICATE_API_TOKEN",
                "https://api.replicate.com/v1/predictions",
            ),
            (
                "PERPLEXITY_API_KEY",
                "https://api.perplexity.ai/chat/completions",
            ),
            ("PPLX_API_KEY", "https://api.perplexity.ai/chat/completions"),
            (
                "DEEPSEEK_API_KEY",
                "https://api.deepseek.com/chat/completions",
            ),
            ("ELEVENLABS_API_KEY", "https://api.elevenlabs.io/v1/voices"),
            ("ELEVEN_API_KEY", "https://api.elevenlabs.io/v1/voices"),
            ("FIRECRAWL_API_KEY", "https://api.firecrawl.dev/v1/scrape"),
            ("TAVILY_API_KEY", "https://api.tavily.com/search"),
            ("EXA_API_KEY", "https://api.exa.ai/search"),
            ("SERPAPI_API_KEY", "https://serpapi.com/search.json"),
            (
                "BRAVE_API_KEY",
                "https://api.search.brave.com/res/v1/web/search",
            ),
            (
                "BRAVE_SEARCH_API_KEY",
                "https://api.search.brave.com/res/v1/web/search",
            ),
            ("RESEND_API_KEY", "https://api.resend.com/emails"),
            (
                "MAILGUN_API_KEY",
                "https://api.mailgun.net/v3/domain/messages",
            ),
            ("POSTMARK_SERVER_TOKEN", "https://api.postmarkapp.com/email"),
            (
                "PAGERDUTY_ROUTING_KEY",
                "https://events.pagerduty.com/v2/enqueue",
            ),
            ("ASANA_ACCESS_TOKEN", "https://app.asana.com/api/1.0/tasks"),
            ("TRELLO_TOKEN", "https://api.trello.com/1/boards"),
            ("FIGMA_ACCESS_TOKEN", "https://api.figma.com/v1/files/key"),
            (
                "ZENDESK_API_TOKEN",
                "https://acme.zendesk.com/api/v2/tickets.json",
            ),
            ("INTERCOM_ACCESS_TOKEN", "https://api.intercom.io/contacts"),
            ("HEROKU_API_KEY", "https://api.heroku.com/apps"),
            (
                "DIGITALOCEAN_TOKEN",
                "https://api.digitalocean.com/v2/droplets",
            ),
            ("DO_API_TOKEN", "https://api.digitalocean.com/v2/droplets"),
            ("NETLIFY_AUTH_TOKEN", "https://api.netlify.com/api/v1/sites"),
            ("RENDER_API_KEY", "https://api.render.com/v1/services"),
            ("RAILWAY_TOKEN", "https://backboard.railway.app/graphql/v2"),
            ("NEON_API_KEY", "https://console.neon.tech/api/v2/projects"),
            (
                "PLANETSCALE_SERVICE_TOKEN",
                "https://api.planetscale.com/v1/organizations",
            ),
            (
                "UPSTASH_REDIS_REST_TOKEN",
                "https://us1-merry-cat.upstash.io/get/key",
            ),
            ("CLERK_SECRET_KEY", "https://api.clerk.com/v1/users"),
            (
                "AUTH0_CLIENT_SECRET",
                "https://acme.us.auth0.com/oauth/token",
            ),
            ("OKTA_API_TOKEN", "https://acme.okta.com/api/v1/users"),
            ("TWITCH_CLIENT_SECRET", "https://id.twitch.tv/oauth2/token"),
            (
                "REDDIT_CLIENT_SECRET",
                "https://www.reddit.com/api/v1/access_token",
            ),
            ("TWITTER_BEARER_TOKEN", "https://api.twitter.com/2/tweets"),
            ("TWITTER_BEARER_TOKEN", "https://api.x.com/2/tweets"),
            ("LINKEDIN_ACCESS_TOKEN", "https://api.linkedin.com/v2/me"),
            (
                "SPOTIFY_CLIENT_SECRET",
                "https://accounts.spotify.com/api/token",
            ),
            (
                "DROPBOX_ACCESS_TOKEN",
                "https://content.dropboxapi.com/2/files/upload",
            ),
            ("BOX_DEVELOPER_TOKEN", "https://api.box.com/2.0/folders/0"),
            ("MONDAY_API_TOKEN", "https://api.monday.com/v2"),
            ("CLICKUP_API_TOKEN", "https://api.clickup.com/api/v2/team"),
            ("TODOIST_API_TOKEN", "https://api.todoist.com/rest/v2/tasks"),
            (
                "ALGOLIA_ADMIN_API_KEY",
                "https://APPID-dsn.algolia.net/1/indexes",
            ),
            ("MAPBOX_ACCESS_TOKEN", "https://api.mapbox.com/geocoding/v5"),
            (
                "CLOUDINARY_API_SECRET",
                "https://api.cloudinary.com/v1_1/demo/image/upload",
            ),
            (
                "CONTENTFUL_ACCESS_TOKEN",
                "https://cdn.contentful.com/spaces/x/entries",
            ),
            (
                "SANITY_API_TOKEN",
                "https://abc123.api.sanity.io/v2021-06-07/data/query",
            ),
            (
                "STRAPI_API_TOKEN",
                "https://my-app.strapiapp.com/api/articles",
            ),
            (
                "NEW_RELIC_LICENSE_KEY",
                "https://log-api.newrelic.com/log/v1",
            ),
            (
                "DISCORD_BOT_TOKEN",
                "https://discord.com/api/v10/channels/1/messages",
            ),
            ("HF_TOKEN", "https://huggingface.co/api/whoami-v2"),
            (
                "HUGGING_FACE_HUB_TOKEN",
                "https://huggingface.co/api/models",
            ),
            ("GITLAB_TOKEN", "https://gitlab.example.com/api/v4/projects"),
            ("GL_TOKEN", "https://gitlab.com/api/v4/projects"),
            (
                "VAULT_TOKEN",
                "https://vault.example.com/v1/secret/data/app",
            ),
            (
                "JENKINS_API_TOKEN",
                "https://jenkins.corp.example.com/job/x/build",
            ),
            ("NODE_AUTH_TOKEN", "https://registry.npmjs.org/-/whoami"),
            ("DATADOG_API_KEY", "https://api.datadog.com/api/v1/validate"),
            (
                "DD_API_KEY",
                "https://http-intake.logs.datadoghq.com/api/v2/logs",
            ),
            (
                "OPENWEATHER_API_KEY",
                "https://api.openweathermap.org/data/2.5/weather",
            ),
            (
                "ELASTIC_API_KEY",
                "https://my-deploy.es.us-east-1.aws.elastic.cloud/_search",
            ),
            ("LANGSMITH_API_KEY", "https://api.smith.langchain.com/runs"),
            (
                "BINANCE_API_KEY",
                "https://testnet.binance.vision/api/v3/order",
            ),
        ] {
            assert!(
                matches!(own(name, url), Owner::Own { .. }),
                "{name} → {url}: {:?}",
                own(name, url)
            );
        }
    }

    #[test]
    fn unknown_vendors_by_the_host_labels() {
        for (name, url) in [
            ("ACME_TOKEN", "https://api.acme.dev/v1"),
            ("ACME_API_KEY", "https://acme.io/v1"),
            ("ACME_API_KEY", "https://acme-api.example.com/v1"),
            (
                "FOUNDRY_API_TOKEN",
                "https://foundry-api-public.adaptyvbio.com/api/v1",
            ),
            ("MY_ACME_SECRET", "https://api.acme.co.uk/v1"),
            (
                "WEATHER_API_KEY",
                "https://api.weatherapi.com/v1/current.json",
            ),
            ("OMDB_API_KEY", "https://www.omdbapi.com/"),
            ("NEWS_API_KEY", "https://newsapi.org/v2/everything"),
            ("FINNHUB_API_KEY", "https://finnhub.io/api/v1/quote"),
            ("acmeToken", "https://api.acme.dev/v1"),
            // The first word of a multi-word prefix (`LLAMA_CLOUD`) still names a host.
            ("LLAMA_API_KEY", "https://api.llama.com/v1/chat/completions"),
        ] {
            assert!(
                matches!(own(name, url), Owner::Own { .. }),
                "{name} → {url}: {:?}",
                own(name, url)
            );
        }
    }

    #[test]
    fn sends_to_someone_else() {
        for (name, url) in [
            // Another provider.
            ("OPENAI_API_KEY", "https://api.anthropic.com/v1/messages"),
            (
                "ANTHROPIC_API_KEY",
                "https://api.openai.com/v1/chat/completions",
            ),
            ("GITHUB_TOKEN", "https://api.x.ai/v1"),
            ("XAI_API_KEY", "https://x.com/api"),
            ("XAI_API_KEY", "https://api.openai.com/v1"),
            (
                "HUBSPOT_ACCESS_TOKEN",
                "https://api.salesforce.example.net/",
            ),
            ("WHATSAPP_TOKEN", "https://api.telegram.org/bot/send"),
            ("SLACK_BOT_TOKEN", "https://api.notion.com/v1/pages"),
            ("STRIPE_SECRET_KEY", "https://metrics.example.dev/collect"),
            ("GITHUB_TOKEN", "https://metrics.example.dev"),
            // Look-alikes of a known provider.
            ("GITHUB_TOKEN", "https://github.com.evil.io/x"),
            ("GITHUB_TOKEN", "https://evilgithub.com/x"),
            ("GITHUB_TOKEN", "https://github.xyz/x"),
            (
                "GITHUB_TOKEN",
                "https://github-token-collector.example.dev/x",
            ),
            ("GITHUB_TOKEN", "https://api.github.com-proxy.net/x"),
            ("XAI_API_KEY", "https://x.ai.attacker.dev/x"),
            (
                "GOOGLE_API_KEY",
                "https://script.google.com/macros/s/abc/exec",
            ),
            ("GITLAB_TOKEN", "https://gitlab.com.evil.io/api/v4"),
        ] {
            assert!(
                matches!(own(name, url), Owner::Foreign { .. }),
                "{name} → {url}: {:?}",
                own(name, url)
            );
        }
        // Unknown vendors on a host that merely contains the word: an unknown pairing (high
        // outside an auth header, medium in one), never the vendor's own.
        for (name, url) in [
            ("ACME_TOKEN", "https://notacme.com/x"),
            ("ACME_TOKEN", "https://acme-collector.example.dev/x"),
            ("ACME_TOKEN", "https://acme.github.com.evil.io/x"),
            ("ACME_TOKEN", "https://api.acm.dev/x"),
            ("CALLS_APP_SECRET", "https://rtc.live/v1/apps"),
        ] {
            assert_eq!(own(name, url), Owner::Unknown, "{name} → {url}");
        }
        // The user's own deployment on a hosting platform: whose app it is, the name cannot
        // tell (a tunnel or a request catcher is hostile, judged by the caller).
        assert_eq!(
            own("ACME_TOKEN", "https://acme.vercel.app/x"),
            Owner::Generic
        );
        assert_eq!(
            own("ACME_TOKEN", "https://my-api.acct.workers.dev/x"),
            Owner::Generic
        );
        // Keys named by the host's initials, and vendors that put a word before their name.
        assert_eq!(
            own("CIO_API_KEY", "https://track.customer.io/api/v1"),
            Owner::Generic
        );
        assert!(matches!(
            own(
                "MAINTAINX_API_KEY",
                "https://api.getmaintainx.com/v1/workorders"
            ),
            Owner::Own { .. }
        ));
        assert_eq!(
            own("OPENAI_API_KEY", "https://api.groq.com/openai/v1"),
            Owner::Foreign { compatible: true }
        );
    }

    #[test]
    fn generic_words_never_match_alone() {
        for (name, url) in [
            ("API_KEY", "https://api.key.dev/x"),
            ("APP_TOKEN", "https://app.io/x"),
            ("X_TOKEN", "https://x.com/x"),
            ("AUTH_SECRET", "https://auth.example.com/x"),
            ("MY_SECRET", "https://my.secret.dev/x"),
            ("CLIENT_SECRET", "https://client.example.com/x"),
            ("TOKEN", "https://token.io/x"),
            ("YOUR_API_KEY", "https://api.example.io"),
            ("NEW_TOKEN", "https://api.example.io"),
            ("githubToken", "https://github.com.evil.io"),
            // A customer's app on the provider's hosting: the user's or anyone's.
            (
                "VERCEL_AUTOMATION_BYPASS_SECRET",
                "https://app-git-main.vercel.app/",
            ),
            ("VERCEL_TOKEN", "https://collector.vercel.app/api"),
            ("HF_TOKEN", "https://org-private-space.hf.space/run/predict"),
        ] {
            assert_eq!(own(name, url), Owner::Generic, "{name} → {url}");
        }
        assert_eq!(
            own("DISCORD_BOT_TOKEN", "https://discord.com/api/v10/x"),
            Owner::Own { table: true }
        );
        assert_eq!(
            own("GRAPH_API_TOKEN", "https://graph.facebook.com/v18.0/x"),
            Owner::Own { table: false }
        );
    }
}
