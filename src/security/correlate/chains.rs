//! Chains: several steps that together are one attack, reported as **one finding** with
//! the steps as related locations, at the severity of the chain.
//!
//! - `download-then-execute`: a file downloaded (`curl -o`, `wget`, `urlretrieve`,
//!   `Invoke-WebRequest -OutFile`, `open(…, "wb")` of a response…) and then made
//!   executable or run, on a later line or in another file of the skill;
//! - an instruction in `SKILL.md` that names a bundled script (`prompt-injection-*`),
//!   raised to what that script does;
//! - an upload or exfiltration request with an instruction to hide it, raised to high;
//! - several credential stores read by one file: `credential-harvesting`.
//!
//! Last, [`absorb`] folds the findings a chain already covers (the same lines) into
//! it, and merges findings of one command line into the most severe one, so one cause
//! yields one finding whose consequences are attached.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Consequence, Finding, Location, Related, Severity};
use crate::security::model::context::is_live;
use crate::security::model::{SecCx, SignalKind};

use crate::security::families::execution::download_exec::DOWNLOAD_THEN_EXECUTE;
pub const CREDENTIAL_HARVESTING: &str = "credential-harvesting";
pub const ENCODED_ENDPOINT: &str = "encoded-endpoint";

/// Rule ids this module emits (`credential-harvesting` is also a data rule).
pub const RULES: &[&str] = &[
    DOWNLOAD_THEN_EXECUTE,
    CREDENTIAL_HARVESTING,
    ENCODED_ENDPOINT,
];

/// A decoder call on a string literal: group `b` is the literal, `e` the encoding word.
static DECODE_LITERAL: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?i)\b(?:(?P<e>b64decode|urlsafe_b64decode|decodebytes|atob|FromBase64String|fromhex|unhexlify|a2b_base64)\(\s*b?["'](?P<b>[A-Za-z0-9+/=_-]{8,})["']|Buffer\.from\(\s*["'](?P<b2>[A-Za-z0-9+/=_-]{8,})["']\s*,\s*["'](?P<e2>base64|hex)["']|codecs\.decode\(\s*["'](?P<b3>[^"'\n]{8,})["']\s*,\s*["']rot_?13["']|\b(?:echo|printf)\s+(?:-[neE]+\s+)?["']?(?P<b4>[A-Za-z0-9+/=_-]{8,})["']?\s*\|\s*(?:base64\s+(?:-d|--decode|-D)|openssl\s+(?:enc\s+)?-?base64\s+-d)|\bbase64\s+(?:-d|--decode|-D)\s*<<<\s*["']?(?P<b5>[A-Za-z0-9+/=_-]{8,})|\b(?:echo|printf)\s+(?:-[neE]+\s+)?["']?(?P<h6>[0-9a-fA-F]{8,})["']?\s*\|\s*xxd\s+-r\s+-p)"#,
    )
});

static DECODED_URL: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)\b(https?|wss?|ftp)://[a-z0-9.-]+|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|sh|ru|cn|xyz|top|site|app|dev|info|biz)(/|:\d|$)",
    )
});

static NETWORK_USE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)\b(requests\.\w+\(|urlopen\(|urllib\.request|fetch\(|curl\b|wget\b|http\.client|socket\.|axios|httpx\.|Invoke-WebRequest|Invoke-RestMethod|WebClient|XMLHttpRequest|sendBeacon)",
    )
});

fn rot13(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
            'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
            _ => c,
        })
        .collect()
}

/// A URL or host hidden in an encoded literal that the code decodes at run time.
fn check_encoded_endpoints(scx: &mut SecCx<'_, '_>) {
    use crate::security::model::decode::{Encoding, decode};
    let mut emits = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        if !src.has_words(crate::security::model::datarules::Words::Decoders) {
            continue;
        }
        for c in DECODE_LITERAL.captures_iter(&src.text) {
            let at = c.get(0).map_or(0, |m| m.start());
            if !is_live(src, at) {
                continue;
            }
            let enc = c
                .name("e")
                .or_else(|| c.name("e2"))
                .map(|m| m.as_str().to_ascii_lowercase())
                .unwrap_or_default();
            let decoded = if let Some(b) = c.name("b3") {
                Some(rot13(b.as_str()))
            } else {
                let lit = c
                    .name("b")
                    .or_else(|| c.name("b2"))
                    .or_else(|| c.name("b4"))
                    .or_else(|| c.name("b5"))
                    .or_else(|| c.name("h6"))
                    .map_or("", |m| m.as_str());
                let e = if enc.contains("hex") || c.name("h6").is_some() {
                    Encoding::Hex
                } else {
                    Encoding::Base64
                };
                decode(lit.trim_end_matches('='), e, 4096)
                    .or_else(|| decode(lit, e, 4096))
                    .and_then(|(b, _)| String::from_utf8(b).ok())
            };
            let Some(text) = decoded else { continue };
            let Some(m) = DECODED_URL.find(&text) else {
                continue;
            };
            if text.chars().any(|ch| ch.is_control() && ch != '\n') {
                continue;
            }
            let shown = crate::text::sanitize_line(&crate::text::truncate(&text[m.start()..], 80))
                .into_owned();
            emits.push((si, at, shown));
        }
    }
    // Whether a file talks to the network, decided once per file (not once per literal: a
    // whole-file search for each of many literals was quadratic).
    let signalled: BTreeSet<usize> = scx
        .signals
        .iter()
        .filter(|s| {
            matches!(
                s.kind,
                SignalKind::NetworkSend | SignalKind::Exec | SignalKind::Fetch
            )
        })
        .map(|s| s.source)
        .collect();
    let mut network: std::collections::HashMap<usize, bool> = Default::default();
    for (si, at, shown) in emits {
        let sends = signalled.contains(&si)
            || *network
                .entry(si)
                .or_insert_with(|| NETWORK_USE.is_match(&scx.sources[si].text));
        let src = &scx.sources[si];
        let (sev, why) = if sends {
            (
                Severity::High,
                " The same file talks to the network or runs commands, so the hidden address is where it sends or fetches.",
            )
        } else {
            (Severity::Medium, "")
        };
        let msg = format!(
            "an encoded string is decoded at run time into `{shown}`: the address is hidden from a reader and from URL checks.{why} Write the address in plain text, or remove the call."
        );
        let anchor = format!("{}:endpoint:{shown}", src.path);
        scx.emit_at_severity(ENCODED_ENDPOINT, sev, si, at, msg, &anchor);
        scx.signal(SignalKind::ExfilEndpoint, si, at, shown);
    }
}

/// Several different credential stores read in one file.
fn check_harvesting(scx: &mut SecCx<'_, '_>) {
    let mut by_src: std::collections::BTreeMap<usize, Vec<(usize, String)>> = Default::default();
    for s in scx
        .signals
        .iter()
        .filter(|s| s.kind == SignalKind::CredentialRead)
    {
        by_src
            .entry(s.source)
            .or_default()
            .push((s.offset, s.what.clone()));
    }
    for (si, mut reads) in by_src {
        reads.sort();
        let distinct: BTreeSet<&str> = reads.iter().filter_map(|(_, w)| store_of(w)).collect();
        if distinct.len() < 2 {
            continue;
        }
        let already =
            scx.cx.findings.iter().any(|f| {
                f.rule_id == CREDENTIAL_HARVESTING && f.location.path == scx.sources[si].rel
            });
        if already {
            continue;
        }
        let src = &scx.sources[si];
        let (l, c) = src.pos(reads[0].0);
        let names: Vec<&str> = distinct.iter().take(4).copied().collect();
        let related = reads
            .iter()
            .skip(1)
            .take(6)
            .map(|(o, w)| {
                let (rl, rc) = src.pos(*o);
                (
                    Location::at(src.rel.clone(), rl, rc),
                    format!("reads `{w}`"),
                )
            })
            .collect();
        let msg = format!(
            "{} reads {} different credential stores ({}): collecting credentials in one place is harvesting. A skill reads the one credential its documentation names.",
            src.path,
            distinct.len(),
            names.join(", ")
        );
        let anchor = format!("{}:harvest:{}", src.path, names.join(","));
        let loc = Location::at(src.rel.clone(), l, c);
        scx.cx
            .emit_related(CREDENTIAL_HARVESTING, msg, loc, &anchor, related);
    }
}

/// A coarse name for the store a credential read touches (`aws`, `ssh`, `kube`…); reads
/// of one store in several forms (a path and its URL) count once, unknown forms not at all.
fn store_of(what: &str) -> Option<&'static str> {
    let w = what.to_ascii_lowercase();
    const STORES: &[(&str, &str)] = &[
        (".aws", "aws"),
        (".ssh", "ssh"),
        ("id_rsa", "ssh"),
        ("id_ed25519", "ssh"),
        (".kube", "kube"),
        (".docker", "docker"),
        (".netrc", "netrc"),
        (".npmrc", "npmrc"),
        (".pypirc", "pypirc"),
        ("gcloud", "gcloud"),
        (".azure", "azure"),
        (".gnupg", "gnupg"),
        ("git-credentials", "git-credentials"),
        ("find-generic-password", "keychain"),
        ("find-internet-password", "keychain"),
        ("dump-keychain", "keychain"),
        ("secret-tool", "keyring"),
        ("keyring", "keyring"),
        ("login data", "browser"),
        ("cookies", "browser"),
        ("logins.json", "browser"),
        ("key4.db", "browser"),
        ("wallet", "wallet"),
        ("keystore", "wallet"),
        ("solana", "wallet"),
        ("shadow", "shadow"),
        ("169.254", "metadata"),
        ("meta-data", "metadata"),
        ("metadata", "metadata"),
        ("security-credentials", "metadata"),
        ("100.100.100.200", "metadata"),
        (".env", "dotenv"),
    ];
    STORES.iter().find(|(k, _)| w.contains(k)).map(|(_, s)| *s)
}

/// Bundled files an instruction names (`scripts/x.py`, `./tools/run.sh`).
static NAMED_FILE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?:\./)?((?:[\w.-]+/)*[\w.-]+\.(?:py|sh|bash|js|mjs|cjs|ts|ps1|rb|pl))\b",
    )
});

/// At most this many related locations are attached to one instruction for the findings
/// of the scripts it names (its severity and message still count every one of them).
const MAX_RAISED_RELATED: usize = 32;

/// What the medium-or-worse security findings of one bundled file raise an instruction to.
#[derive(Default)]
struct ScriptFindings {
    /// The first [`MAX_RAISED_RELATED`]: location, "rule: first sentence", severity.
    first: Vec<(Location, String, Severity)>,
    /// Every rule id by severity.
    rules: std::collections::BTreeMap<Severity, BTreeSet<&'static str>>,
}

/// One instruction to raise: its index, the related locations to attach, and the severity
/// it takes with the rules that give it.
type Raise<'a> = (
    usize,
    Vec<(Location, String)>,
    Option<(Severity, Vec<&'a str>)>,
);

/// Instructions raised by the script they name, and requests raised by concealment.
fn raise_instructions(scx: &mut SecCx<'_, '_>) {
    let Some(entry) = scx.sources.iter().find(|s| s.is_entry) else {
        return;
    };
    let entry_rel = entry.rel.clone();
    let concealed = scx
        .cx
        .findings
        .iter()
        // A concealment kept as a note (quoted, forbidden, a hypothetical) hides nothing.
        .find(|f| f.rule_id == "prompt-injection-concealment" && !f.is_example_note())
        .map(|f| f.location.clone());
    // A named file resolves to the first bundled file whose path is it or ends with
    // `/NAME`: every such suffix of every path, first file first (a map, not a scan of
    // every file for every name).
    let mut by_suffix: std::collections::HashMap<&str, &str> = Default::default();
    for src in scx.sources.iter().filter(|s| !s.is_entry) {
        let p = src.path;
        by_suffix.entry(p).or_insert(src.rel.as_str());
        for (k, _) in p.match_indices('/') {
            by_suffix.entry(&p[k + 1..]).or_insert(src.rel.as_str());
        }
    }
    // The findings of each bundled file, gathered once (the instructions below only change
    // findings of the entry file).
    let mut of_file: std::collections::HashMap<&str, ScriptFindings> = Default::default();
    for g in scx.cx.findings.iter().filter(|g| {
        g.location.path != entry_rel
            && g.category.starts_with("security/")
            && g.severity >= Severity::Medium
    }) {
        let e = of_file.entry(g.location.path.as_str()).or_default();
        if e.first.len() < MAX_RAISED_RELATED {
            e.first.push((
                g.location.clone(),
                format!("{}: {}", g.rule_id, first_sentence(&g.message)),
                g.severity,
            ));
        }
        e.rules.entry(g.severity).or_default().insert(g.rule_id);
    }
    let mut by_line: std::collections::HashMap<u32, Vec<&ScriptFindings>> = Default::default();
    let n = scx.cx.findings.len();
    let mut raises: Vec<Raise<'_>> = Vec::new();
    for i in 0..n {
        let f = &scx.cx.findings[i];
        if !f.category.starts_with("security/prompt-injection") || f.location.path != entry_rel {
            continue;
        }
        let line = f.location.line.unwrap_or(0);
        // The files a line names, read once per line (many instructions on one long line
        // would each search it again).
        let named = by_line.entry(line.max(1)).or_insert_with(|| {
            let text = entry_line(scx, line);
            let mut named: Vec<&ScriptFindings> = Vec::new();
            let mut seen: BTreeSet<&str> = BTreeSet::new();
            for c in NAMED_FILE.captures_iter(&text) {
                let name = c[1].trim_start_matches("./");
                let Some(&rel) = by_suffix.get(name) else {
                    continue;
                };
                if let Some(sf) = of_file.get(rel)
                    && seen.insert(rel)
                {
                    named.push(sf);
                }
            }
            named
        });
        let top = named
            .iter()
            .filter_map(|sf| sf.rules.keys().next_back())
            .max()
            .copied();
        let raise = top.filter(|t| *t > f.severity).map(|t| {
            let rules: BTreeSet<&str> = named
                .iter()
                .filter_map(|sf| sf.rules.get(&t))
                .flatten()
                .copied()
                .collect();
            (t, rules.into_iter().collect())
        });
        let related = named
            .iter()
            .flat_map(|sf| sf.first.iter())
            .take(MAX_RAISED_RELATED)
            .map(|(l, m, _)| (l.clone(), m.clone()))
            .collect();
        raises.push((i, related, raise));
    }
    for (i, related, raise) in raises {
        let f = &mut scx.cx.findings[i];
        if let Some((top, named)) = raise {
            crate::security::severity::raise(
                f,
                top,
                &format!("the script it names does {}", named.join(", ")),
            );
            f.message.push_str(&format!(
                " The script it names does what a reviewer would block ({}, see the related locations), so the instruction takes that severity: one chain, from the instruction to what the script does.",
                named.join(", ")
            ));
        }
        for (l, m) in related {
            push_related(f, l, m);
        }
        let upload = matches!(
            f.rule_id,
            "prompt-injection-file-upload" | "prompt-injection-recurring-action"
        );
        if upload
            && let Some(cl) = &concealed
            && f.severity < Severity::High
        {
            crate::security::severity::raise(
                f,
                Severity::High,
                "the skill also tells the agent to hide it from the user",
            );
            f.message.push_str(
                " The skill also tells the agent to hide it from the user, which makes it exfiltration.",
            );
            push_related(f, cl.clone(), "the instruction to hide it".to_owned());
        }
    }
}

fn entry_line(scx: &SecCx<'_, '_>, line: u32) -> String {
    let Some(src) = scx.sources.iter().find(|s| s.is_entry) else {
        return String::new();
    };
    src.line_text(line).unwrap_or("").to_owned()
}

fn first_sentence(m: &str) -> String {
    let s = m.split(". ").next().unwrap_or(m);
    crate::text::truncate(s, 160).into_owned()
}

fn push_related(f: &mut Finding, location: Location, message: String) {
    if f.location == location || f.related.iter().any(|r| r.location == location) {
        return;
    }
    f.related.push(Related { location, message });
}

/// Security categories whose findings on one line are one cause (hidden Unicode and
/// secrets are facts about bytes, capability grants facts about the frontmatter; each is
/// reported on its own).
fn mergeable(f: &Finding) -> bool {
    f.category.starts_with("security/")
        && !matches!(
            f.category,
            "security/hidden-unicode" | "security/secrets" | "security/permissions"
        )
}

/// One cause, one finding: a finding on a line that a more severe finding (or a chain
/// through that line) already reports is attached to it instead of standing alone.
pub fn absorb(findings: &mut Vec<Finding>) {
    let key = |l: &Location| (l.path.clone(), l.line);
    // Lines each finding covers: its own and its related locations (chains).
    let mut order: Vec<usize> = (0..findings.len())
        .filter(|&i| mergeable(&findings[i]))
        .collect();
    // Most severe first; chains (with related locations) before plain findings; stable.
    order.sort_by(|&a, &b| {
        let (fa, fb) = (&findings[a], &findings[b]);
        fb.severity
            .cmp(&fa.severity)
            .then(fb.related.len().cmp(&fa.related.len()))
            .then(a.cmp(&b))
    });
    let mut owner: std::collections::HashMap<(String, Option<u32>), usize> = Default::default();
    let mut into: Vec<Option<usize>> = vec![None; findings.len()];
    for &i in &order {
        let f = &findings[i];
        if f.location.line.is_none() {
            continue;
        }
        if let Some(&o) = owner.get(&key(&f.location))
            && findings[o].skill_path == f.skill_path
        {
            into[i] = Some(o);
            continue;
        }
        owner.insert(key(&f.location), i);
        for r in &f.related {
            if r.location.line.is_some() {
                owner.entry(key(&r.location)).or_insert(i);
            }
        }
    }
    if into.iter().all(Option::is_none) {
        return;
    }
    let mut attached: Vec<(usize, Consequence, Option<Location>)> = Vec::new();
    for (i, o) in into.iter().enumerate() {
        if let Some(o) = o {
            let f = &findings[i];
            let other_line = (findings[*o].location != f.location).then(|| f.location.clone());
            attached.push((*o, Consequence::of(f, None), other_line));
        }
    }
    // Per owner, the related locations and consequence fingerprints it already holds (sets,
    // not scans of its lists: thousands of findings on one line are absorbed into one owner),
    // and whether its consequences need sorting.
    struct Seen {
        related: std::collections::HashSet<Location>,
        fingerprints: std::collections::HashSet<String>,
        sort: bool,
    }
    let mut seen: std::collections::HashMap<usize, Seen> = Default::default();
    for (o, c, other_line) in attached {
        let f = &mut findings[o];
        let s = seen.entry(o).or_insert_with(|| Seen {
            related: f.related.iter().map(|r| r.location.clone()).collect(),
            fingerprints: f
                .consequences
                .iter()
                .map(|x| x.fingerprint.clone())
                .collect(),
            sort: false,
        });
        // Persistence of a download-and-run is worse than either alone.
        let persist =
            (c.rule_id == "persistence-mechanism") != (f.rule_id == "persistence-mechanism");
        let exec = matches!(c.rule_id, "fetch-then-execute" | "download-then-execute")
            || matches!(f.rule_id, "fetch-then-execute" | "download-then-execute");
        if persist && exec && f.severity < Severity::High {
            crate::security::severity::raise(
                f,
                Severity::High,
                "the download is written where it runs again on every start",
            );
            f.message.push_str(
                " It is also written where it runs again on every shell start or schedule, so the download runs forever.",
            );
        }
        crate::security::severity::raise(
            f,
            c.severity,
            &format!("its consequence `{}`", c.rule_id),
        );
        if let Some(l) = other_line
            && f.location != l
            && s.related.insert(l.clone())
        {
            f.related.push(Related {
                location: l,
                message: format!("also `{}`", c.rule_id),
            });
        }
        if s.fingerprints.insert(c.fingerprint.clone()) {
            f.consequences.push(c);
            s.sort = true;
        }
    }
    for (o, s) in seen {
        if s.sort {
            findings[o].consequences.sort();
        }
    }
    let mut i = 0;
    findings.retain(|_| {
        let keep = into[i].is_none();
        i += 1;
        keep
    });
}

static NETWORK_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)\b(curl|wget|nc|ncat|socat|Invoke-WebRequest|Invoke-RestMethod|iwr|irm|DownloadString|DownloadFile|requests\.\w+|urlopen|base64\s+-d)\b|/dev/tcp/",
    )
});

/// A persistence entry whose command talks to the network runs the attacker's code (or
/// ships data) on every start: high, not medium.
fn raise_networked_persistence(scx: &mut SecCx<'_, '_>) {
    // Sources by path and lines by the line index: one lookup per finding, not a scan of
    // the sources and of the file from its top (quadratic in persistence lines).
    let by_rel: std::collections::HashMap<&str, &crate::security::model::Source<'_>> = scx
        .sources
        .iter()
        .rev()
        .map(|s| (s.rel.as_str(), s))
        .collect();
    let raise: Vec<usize> = scx
        .cx
        .findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.rule_id == "persistence-mechanism" && f.severity < Severity::High)
        .filter_map(|(i, f)| {
            let src = by_rel.get(f.location.path.as_str())?;
            let line = src.line_text(f.location.line?)?;
            NETWORK_TOOL.is_match(line).then_some(i)
        })
        .collect();
    for i in raise {
        let f = &mut scx.cx.findings[i];
        crate::security::severity::raise(
            f,
            Severity::High,
            "the persisted entry itself talks to the network (same line)",
        );
        f.message.push_str(
            " The entry talks to the network, so it fetches and runs code or ships data on every start.",
        );
    }
}

pub fn check(scx: &mut SecCx<'_, '_>) {
    raise_networked_persistence(scx);
    check_encoded_endpoints(scx);
    check_harvesting(scx);
    raise_instructions(scx);
}
