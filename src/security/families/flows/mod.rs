//! Data followed through scripts: an intra-file taint analysis of Python and
//! JavaScript/TypeScript over their syntax trees ([`crate::parse::code_tree`]).
//!
//! Values are followed through assignments (and augmented ones), f-strings, template
//! literals, `%`/`.format`, concatenation, encoders (`b64encode`, `hexlify`, `json.dumps`,
//! `JSON.stringify`, `Buffer.from(…).toString('base64')`, `encodeURIComponent`…), containers
//! (literals, `.append`/`.update`/`[k] = v`), one level of attributes (`obj.x`), and function
//! arguments and returns (summaries of the file's own functions). Three flows are reported,
//! each once, at the sink, with the source as a related location:
//!
//! - `credential-flow-to-network`: a credential source (a credential file, a keychain, a
//!   browser profile, the whole environment, or a credential-named variable) reaches a
//!   network sink (HTTP, sockets, DNS, SMTP, a `curl`/`nc` subprocess). A provider's own key
//!   sent to the provider's own host is its normal use and not reported;
//! - `download-flow-to-exec`: downloaded or `/tmp` bytes reach `exec`, `eval`, `compile`,
//!   a subprocess, `pickle` or `marshal`;
//! - `ransom-flow`: files under the user's home are packed and uploaded, or encrypted, and
//!   the originals deleted.
//!
//! Cost: one pass per function body in statement order, repeated [`PASSES`] times so the
//! summaries of functions called before their definition settle; at most [`MAX_NODES`]
//! nodes visited per pass, [`MAX_NAMES`] names tracked per scope and [`MAX_TAINTS`] taints
//! per value. Files over [`crate::parse::code_tree::MAX_PARSE_BYTES`] are not parsed, and
//! only files holding both a source word and a sink word are parsed at all.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::Regex;
use tree_sitter::Node;

use crate::finding::{Location, Severity};
use crate::parse::code_tree::{self, Grammar};
use crate::security::families::exfiltration::secret_send::is_secret_name;
use crate::security::model::{Lang, RegionKind, SecCx, Source};

pub const CREDENTIAL_FLOW: &str = "credential-flow-to-network";
pub const DOWNLOAD_FLOW: &str = "download-flow-to-exec";
pub const RANSOM_FLOW: &str = "ransom-flow";

/// Rule ids this module emits.
pub const RULES: &[&str] = &[CREDENTIAL_FLOW, DOWNLOAD_FLOW, RANSOM_FLOW];

/// Passes over a file (the first ones settle the function summaries).
const PASSES: usize = 3;
/// Nodes visited per pass, at most.
const MAX_NODES: usize = 400_000;
/// Names tracked per scope, at most.
const MAX_NAMES: usize = 2_000;
/// Taints one value carries, at most.
const MAX_TAINTS: usize = 6;
/// Steps of a value's path kept for the message, at most.
const MAX_STEPS: usize = 4;
/// Bytes of literal text a value carries, at most.
const MAX_LIT: usize = 400;
/// Nesting depth followed, at most (deeper expressions are not followed).
const MAX_DEPTH: usize = 100;
/// Functions summarised per file, at most.
const MAX_FUNCS: usize = 1_000;
/// Flows reported per file, at most.
const MAX_FLOWS: usize = 16;
/// Sources tracked per file, at most.
const MAX_ORIGINS: usize = 4_096;
/// Archives and deletes remembered per file, at most.
const MAX_EVENTS: usize = 256;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
    /// A credential file (`~/.aws/credentials`, `~/.ssh/id_*`, `.env` found by glob…).
    CredFile,
    /// A keychain or keyring read (`what`: the call).
    Keychain,
    /// A keychain item read by its service name (`what`: the service, which says whose
    /// secret it is, as an environment variable's name does).
    KeychainItem,
    /// A browser profile's saved logins or cookies.
    Browser,
    /// The whole environment.
    EnvDump,
    /// One credential-named environment variable.
    EnvVar,
    /// Bytes downloaded from the network.
    Download,
    /// Bytes read from `/tmp`.
    TmpFile,
    /// Files under the user's home.
    UserFiles,
    /// A parameter of the function being summarised.
    Param(u8),
}

impl Kind {
    fn is_credential(self) -> bool {
        matches!(
            self,
            Kind::CredFile
                | Kind::Keychain
                | Kind::KeychainItem
                | Kind::Browser
                | Kind::EnvDump
                | Kind::EnvVar
        )
    }
}

#[derive(Debug, Clone)]
struct Origin {
    kind: Kind,
    offset: usize,
    /// What was read (`~/.aws/credentials`, `AWS_SECRET_ACCESS_KEY`…), sanitised.
    what: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Taint {
    origin: u32,
    steps: Vec<String>,
    /// A transformation not yet named by an assignment (`base64-encoded`).
    pending: Option<&'static str>,
}

impl Taint {
    fn step(&mut self, s: String) {
        if self.steps.last() == Some(&s) {
            return;
        }
        if self.steps.len() >= MAX_STEPS {
            self.steps.pop();
        }
        self.steps.push(s);
    }
    fn verb(mut self, v: &'static str) -> Taint {
        // A specific step (`base64-encoded`) names the value better than a generic one.
        if matches!(
            self.pending,
            None | Some("converted" | "copied" | "transformed" | "read" | "combined")
        ) {
            self.pending = Some(v);
        }
        self
    }
}

#[derive(Debug, Clone, Default)]
struct Val {
    taints: Vec<Taint>,
    lit: String,
}

impl Val {
    fn lit(s: &str) -> Val {
        Val {
            taints: Vec::new(),
            lit: bounded(s),
        }
    }
    fn add(&mut self, other: &Val) {
        for t in &other.taints {
            self.add_taint(t.clone());
        }
        if !other.lit.is_empty() && self.lit.len() < MAX_LIT {
            if !self.lit.is_empty() {
                self.lit.push(' ');
            }
            push_bounded(&mut self.lit, &other.lit);
        }
    }
    fn add_taint(&mut self, t: Taint) {
        if self.taints.len() < MAX_TAINTS && !self.taints.iter().any(|x| x.origin == t.origin) {
            self.taints.push(t);
        }
    }
    fn verb(mut self, v: &'static str) -> Val {
        self.taints = self.taints.into_iter().map(|t| t.verb(v)).collect();
        self
    }
}

fn bounded(s: &str) -> String {
    let mut out = String::new();
    push_bounded(&mut out, s);
    out
}

fn push_bounded(out: &mut String, s: &str) {
    for c in s.chars() {
        if out.len() + c.len_utf8() > MAX_LIT {
            break;
        }
        out.push(c);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SinkKind {
    Network,
    Exec,
    Encrypt,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Sink {
    kind: SinkKind,
    offset: usize,
    /// `requests.post`, `exec`, `subprocess.run (curl)`…
    call: String,
    /// The host the call talks to, if a literal says.
    host: Option<String>,
    /// DNS, sockets, SMTP (no URL whose host could be the key's own).
    raw_channel: bool,
    /// The value only sits in an auth header.
    header_only: bool,
    /// `pickle`/`marshal` (loads data, high) rather than code (critical).
    deserialise: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Summary {
    /// Parameters whose value the function returns.
    ret_params: BTreeSet<u8>,
    /// Taints of real sources the function returns.
    ret: Vec<Taint>,
    /// Parameters that reach a sink inside the function.
    param_sinks: Vec<(u8, Sink)>,
}

/// One reported flow.
#[derive(Debug, Clone)]
struct Flow {
    origin: Origin,
    steps: Vec<String>,
    sink: Sink,
}

/// A command string passed to a shell-running call, for the shell analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellCommand {
    /// Byte offset of the argument in the file.
    pub offset: usize,
    /// The command as written; the non-literal parts (variables, interpolations) are
    /// replaced by a space.
    pub text: String,
    /// True when part of the command is not a literal.
    pub partial: bool,
}

static CRED_PATH: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)\.aws/(credentials|config)|\.ssh/(id_|identity|authorized_keys)|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.kube/config|\.docker/config\.json|\.netrc|\.git-credentials|\.npmrc|\.pypirc|\.config/gh/hosts|\.config/gcloud|application_default_credentials|\.azure/|\.gnupg|\.password-store|/etc/shadow",
    )
});

/// What a read `.env` file is called in a flow's message (and how its keys are found).
const DOTENV: &str = ".env";

/// A project's secrets file: `.env`, `.env.local`, `.env.production` (not the committed
/// `.env.example`, `.env.sample`, `.env.template`).
fn is_dotenv_path(p: &str) -> bool {
    let last = p.trim().rsplit(['/', '\\']).next().unwrap_or("");
    let last = last.trim_matches(|c: char| c == '\'' || c == '"');
    match last.strip_prefix(".env") {
        Some("") => true,
        Some(rest) => {
            rest.starts_with('.')
                && !matches!(
                    rest,
                    ".example" | ".sample" | ".template" | ".dist" | ".defaults" | ".schema"
                )
        }
        None => false,
    }
}

/// A quoted upper-case name (`"OPENAI_API_KEY"`), for the names a file reads by a computed key.
static QUOTED_NAME: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(r#"["'`]([A-Z][A-Z0-9_]{2,63})=?["'`]"#)
});

static BROWSER_PATH: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)login data|\bcookies(\.sqlite)?\b|logins\.json|key4\.db|local state|web data|\.mozilla/firefox|google/chrome|chromium|brave-browser|bravesoftware",
    )
});

/// A keychain read's service name (`security find-generic-password -s NAME`).
static KEYCHAIN_SERVICE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?:(?:^|[\s\x22',\[])(?:-s|--service)|\blookup[\x22',\s]+service)[\x22',\s]+([A-Za-z0-9][\w.-]{1,63})",
    )
});

/// Does a URL of `text` name a host the keychain service `service` belongs to (the
/// skill's own API, whose address a variable holds at the send)? At most 64 URLs are read.
fn names_own_host(service: &str, text: &str) -> bool {
    static URL_HOST: LazyLock<Regex> =
        LazyLock::new(|| crate::security::model::datarules::re(r"https?://([A-Za-z0-9.-]+)"));
    URL_HOST
        .captures_iter(text)
        .take(64)
        .any(|c| !drop_host(&c[1]) && own_host(service, &c[1]) == Some(true))
}

static KEYCHAIN_CMD: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)find-(generic|internet)-password|dump-keychain|secret-tool\s+(lookup|search)|\bkwallet|cmdkey\s+/list|vaultcmd",
    )
});

static NET_TOOL: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(^|[\s/'\x22])(curl|wget|nc|ncat|netcat|socat|nslookup|dig|scp|rsync|ftp|telnet|sendmail)(\s|$|\.exe)",
    )
});

static DELETE_CMD: LazyLock<Regex> =
    LazyLock::new(|| crate::security::model::datarules::re(r"(?i)(^|\s)(rm|shred|del|rmdir)\s"));

static ENCRYPT_CMD: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)openssl\s+(enc|aes|des)|gpg\s+(-c|--symmetric|--encrypt|-e)\b|\bage\s+-",
    )
});

static URL_HOST: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"(?i)\b(?:https?|wss?|ftp)://(?:[^\s/@"'`]*@)?([a-z0-9.\-\[\]:]+)"#,
    )
});

/// Home-directory markers in a value's literal text.
static HOME_LIT: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)(^|[\s'\x22])~(/|\s|$)|(^|/)(documents|desktop|pictures|downloads|photos)(/|\s|$)|^/(users|home)/",
    )
});

/// The words of a flow's ends, by the flow they can start or end (bits of a mask): a file is
/// parsed only when it holds both ends of one flow. One pass finds them all.
const CRED: u16 = 1; // a credential source
const NET: u16 = 2; // a network sink (or a shell that can reach one)
const FETCHED: u16 = 4; // downloaded or temporary bytes
const EXEC: u16 = 8; // code execution or deserialisation
const USER_FILES: u16 = 16; // the user's files
const DELETE: u16 = 32; // deleting files
const SHELL_CALL: u16 = 64; // a command string handed to a shell
const SHELL_RISK: u16 = 128; // a command the shell analysis reads
const ENCRYPT: u16 = 256; // encrypting
const ARCHIVE: u16 = 512; // packing files

const FLOW_WORDS: &[(&str, u16)] = &[
    ("environ", CRED),
    ("getenv", CRED),
    ("process.env", CRED),
    (".ssh", CRED),
    (".aws", CRED),
    (".kube", CRED),
    (".docker", CRED),
    (".netrc", CRED),
    ("credentials", CRED),
    (".env", CRED),
    ("password", CRED),
    ("keyring", CRED),
    ("keychain", CRED),
    ("cookies", CRED),
    ("login data", CRED),
    ("logins.json", CRED),
    ("wallet", CRED),
    ("id_rsa", CRED),
    (".npmrc", CRED),
    (".pypirc", CRED),
    (".gnupg", CRED),
    (".config", CRED),
    ("appdata", CRED),
    ("userprofile", CRED),
    ("library/", CRED),
    ("requests.", NET | FETCHED),
    ("httpx", NET | FETCHED),
    ("urllib", NET | FETCHED),
    ("urlopen", NET | FETCHED),
    ("aiohttp", NET | FETCHED),
    ("http.client", NET),
    ("socket", NET | FETCHED),
    ("smtplib", NET),
    ("sendmail", NET),
    ("resolver", NET),
    ("gethostbyname", NET),
    ("getaddrinfo", NET),
    ("fetch(", NET | FETCHED),
    ("axios", NET | FETCHED),
    ("http.request", NET),
    ("https.request", NET),
    ("http.get", FETCHED),
    ("https.get", FETCHED),
    ("net.", NET),
    ("dgram", NET),
    ("xmlhttprequest", NET),
    ("sendbeacon", NET),
    ("websocket", NET),
    (".post(", NET),
    (".put(", NET),
    ("got(", NET | FETCHED),
    ("dns", NET),
    ("/tmp", FETCHED),
    ("tmpdir", FETCHED),
    ("tempfile", FETCHED),
    ("subprocess", NET | EXEC | SHELL_CALL),
    ("child_process", NET | EXEC | SHELL_CALL),
    ("os.system", NET | EXEC | SHELL_CALL),
    ("os.popen", NET | EXEC | SHELL_CALL),
    ("execsync", EXEC | SHELL_CALL),
    ("spawn", EXEC | SHELL_CALL),
    ("shell=true", SHELL_CALL),
    ("exec", EXEC),
    ("eval(", EXEC),
    ("compile(", EXEC),
    ("pickle", EXEC),
    ("marshal", EXEC),
    ("function(", EXEC),
    ("vm.", EXEC),
    ("__import__", EXEC),
    ("runpy", EXEC),
    ("importlib", EXEC),
    ("home", USER_FILES),
    ("expanduser", USER_FILES),
    ("glob", USER_FILES),
    ("listdir", USER_FILES),
    ("readdir", USER_FILES),
    ("walk", USER_FILES),
    ("documents", USER_FILES),
    ("desktop", USER_FILES),
    ("remove", DELETE),
    ("unlink", DELETE),
    ("rmtree", DELETE),
    ("rmsync", DELETE),
    ("rm(", DELETE),
    ("shred", DELETE),
    ("encrypt", ENCRYPT),
    ("fernet", ENCRYPT),
    ("cipher", ENCRYPT),
    ("createcipheriv", ENCRYPT),
    ("zip", ARCHIVE),
    ("tar", ARCHIVE),
    ("archive", ARCHIVE),
    ("curl", SHELL_RISK),
    ("wget", SHELL_RISK),
    ("nc ", SHELL_RISK),
    ("ncat", SHELL_RISK),
    ("socat", SHELL_RISK),
    ("bash", SHELL_RISK),
    ("sh -c", SHELL_RISK),
    ("/dev/tcp", SHELL_RISK),
    ("/dev/udp", SHELL_RISK),
    ("base64", SHELL_RISK),
    ("rm -", SHELL_RISK),
    ("powershell", SHELL_RISK),
    ("pwsh", SHELL_RISK),
    ("iex", SHELL_RISK),
    ("crontab", SHELL_RISK),
    ("history", SHELL_RISK),
    ("mkfifo", SHELL_RISK),
    ("chmod", SHELL_RISK),
    ("xmrig", SHELL_RISK),
    ("stratum", SHELL_RISK),
    ("7z ", SHELL_RISK),
    ("unzip", SHELL_RISK),
    ("scp ", SHELL_RISK),
    ("rsync", SHELL_RISK),
    ("ftp", SHELL_RISK),
    ("sudo", SHELL_RISK),
    ("eval ", SHELL_RISK),
    ("python -c", SHELL_RISK),
    ("python3 -c", SHELL_RISK),
    ("perl", SHELL_RISK),
    ("nohup", SHELL_RISK),
    ("dig ", SHELL_RISK),
    ("nslookup", SHELL_RISK),
];

static FLOW_AC: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::new(FLOW_WORDS.iter().map(|(w, _)| w)).expect("static patterns"));

/// Is the file worth parsing: does it hold both ends of one flow (a credential and a network
/// sink, fetched bytes and execution, the user's files deleted after they are encrypted or
/// packed and sent, or a shell command string with a command the shell analysis reads)?
fn worth_parsing(lower: &[u8]) -> bool {
    let mut m = 0u16;
    for hit in FLOW_AC.find_overlapping_iter(lower) {
        m |= FLOW_WORDS[hit.pattern().as_usize()].1;
        let has = |a: u16| m & a != 0;
        if has(CRED) && has(NET)
            || has(FETCHED) && has(EXEC)
            || has(SHELL_CALL) && has(SHELL_RISK)
            // Ransom: the user's files deleted after they are encrypted, or packed and sent.
            || has(USER_FILES) && has(DELETE) && (has(ENCRYPT) || has(ARCHIVE) && has(NET))
        {
            return true;
        }
    }
    false
}

/// Network words whose sink is not an HTTP request to a literal URL (a socket, DNS, mail):
/// a file holding one is never taken by [`own_vendor_client`].
const RAW_NET: &[&str] = &[
    "socket",
    "smtplib",
    "sendmail",
    "resolver",
    "gethostbyname",
    "getaddrinfo",
    "dgram",
    "net.",
    "websocket",
    "dns",
    "xmlhttprequest",
    "sendbeacon",
];

/// Every environment read whose name is quoted (`os.environ["X"]`, `os.environ.get("X")`,
/// `os.getenv("X")`, `process.env.X`, `process.env["X"]`), by name.
static ENV_READ: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:environ(?:\.get)?\s*[\[(]\s*['"]([A-Za-z0-9_]+)['"]|getenv\(\s*['"]([A-Za-z0-9_]+)['"]|process\.env\.([A-Za-z0-9_]+)|process\.env\[\s*['"]([A-Za-z0-9_]+)['"])"#,
    )
    .expect("static regex")
});

/// The cheap check in front of the data-flow parse: is this file an ordinary API client whose
/// only credential reads are its own provider's keys (named in the environment) and whose only
/// destinations are that provider's hosts? Such a file is the normal use of a key (the full
/// analysis reports nothing there: a provider's own key sent to its own host is not a flow to
/// report), and a real skill corpus holds thousands of them. Anything else takes the full
/// parse: another credential word (`.ssh`, `password`, `credentials`, a `.env` file), an
/// environment read whose name is not quoted or is a secret of no provider, a destination
/// that is not a literal URL or not the provider's host, a raw socket, DNS or mail, and
/// whatever else made the file worth parsing (fetched code and execution, shell commands,
/// user files deleted).
fn own_vendor_client(text: &str, lower: &[u8]) -> bool {
    let mut m = 0u16;
    let mut env_words = 0usize;
    for hit in FLOW_AC.find_overlapping_iter(lower) {
        let (w, bits) = FLOW_WORDS[hit.pattern().as_usize()];
        m |= bits;
        if bits & CRED != 0 {
            match w {
                "environ" | "getenv" => env_words += 1,
                "process.env" => env_words += 1,
                // `.env` inside `process.env` or `os.environ` is the same read.
                ".env" => {
                    let before = &lower[..hit.start()];
                    let after = &lower[hit.end()..];
                    if !(before.ends_with(b"process") || after.starts_with(b"iron")) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        if RAW_NET.contains(&w) {
            return false;
        }
    }
    let has = |a: u16| m & a != 0;
    if has(EXEC) || has(SHELL_CALL) || has(DELETE) || has(ENCRYPT) || has(USER_FILES) {
        return false;
    }
    // Every environment read names its variable.
    let names: Vec<&str> = ENV_READ
        .captures_iter(text)
        .filter_map(|c| (1..=4).find_map(|i| c.get(i)).map(|g| g.as_str()))
        .collect();
    if names.is_empty() || names.len() != env_words {
        return false;
    }
    // Each is a provider's key, or no secret at all (`LOG_LEVEL`).
    let secret = |n: &str| {
        let u = n.to_ascii_uppercase();
        [
            "KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CRED", "COOKIE", "SESSION",
        ]
        .iter()
        .any(|w| u.contains(w))
    };
    let hosts: Vec<String> = URL_HOST
        .captures_iter(text)
        .map(|c| {
            let h = c[1].split(':').next().unwrap_or("");
            h.trim_end_matches('.').to_ascii_lowercase()
        })
        .collect();
    if hosts.is_empty() || hosts.iter().any(|h| h.is_empty()) {
        return false;
    }
    let keys: Vec<&str> = names.into_iter().filter(|n| secret(n)).collect();
    if keys.is_empty() {
        return false;
    }
    // Every destination is owned by the provider of every key read: no key can reach a host
    // that is not its own.
    keys.iter()
        .all(|k| hosts.iter().all(|h| own_host(k, h) == Some(true)))
}

/// The analysis of one file.
struct Analyzer<'s> {
    text: &'s str,
    py: bool,
    origins: Vec<Origin>,
    origin_ids: HashMap<(Kind, usize, String), u32>,
    funcs: HashMap<String, (usize, Vec<String>)>,
    func_nodes: Vec<Node<'s>>,
    summaries: HashMap<String, Summary>,
    next_summaries: HashMap<String, Summary>,
    /// The function being summarised (its name), if any.
    current: Option<String>,
    globals: HashMap<String, Val>,
    locals: Option<HashMap<String, Val>>,
    flows: Vec<Flow>,
    seen_flows: BTreeSet<(usize, usize)>,
    /// Deletes of user files: offset, the taints of what is deleted.
    deletes: Vec<(usize, Vec<Taint>)>,
    /// Archives and files written: their path literal and the taints of what was packed or
    /// written (reading the path back carries them).
    archives: Vec<(String, Vec<Taint>)>,
    visited: usize,
    depth: usize,
    /// Shell command strings seen (for [`shell_command_strings`]).
    shell: Vec<ShellCommand>,
    /// The secret names quoted in the file ([`Analyzer::named_secrets`]), once computed.
    secret_names: Option<String>,
}

fn text_of<'s>(n: Node<'_>, text: &'s str) -> &'s str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

fn named_children<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let mut c = n.walk();
    n.named_children(&mut c).collect()
}

/// Where a function body sits and what its parameters are named.
fn params_of(n: Node<'_>, text: &str) -> Vec<String> {
    let Some(p) = n
        .child_by_field_name("parameters")
        .or_else(|| n.child_by_field_name("parameter"))
    else {
        return Vec::new();
    };
    if p.kind() == "identifier" {
        return vec![text_of(p, text).to_owned()];
    }
    named_children(p)
        .into_iter()
        // A method's receiver is not an argument of its calls (`self.send(x)`: x is the first).
        .filter(|c| !(c.kind() == "identifier" && matches!(text_of(*c, text), "self" | "cls")))
        .filter_map(|c| {
            let id = if c.kind() == "identifier" {
                Some(c)
            } else {
                c.child_by_field_name("name")
                    .or_else(|| c.child_by_field_name("pattern"))
                    .or_else(|| c.child_by_field_name("left"))
                    .or_else(|| {
                        named_children(c)
                            .into_iter()
                            .find(|x| x.kind() == "identifier")
                    })
            }?;
            (id.kind() == "identifier").then(|| text_of(id, text).to_owned())
        })
        .take(32)
        .collect()
}

const FUNC_KINDS: &[&str] = &[
    "function_definition",
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
];

impl<'s> Analyzer<'s> {
    fn new(text: &'s str, py: bool) -> Self {
        Analyzer {
            text,
            py,
            origins: Vec::new(),
            origin_ids: HashMap::new(),
            funcs: HashMap::new(),
            func_nodes: Vec::new(),
            summaries: HashMap::new(),
            next_summaries: HashMap::new(),
            current: None,
            globals: HashMap::new(),
            locals: None,
            flows: Vec::new(),
            seen_flows: BTreeSet::new(),
            deletes: Vec::new(),
            archives: Vec::new(),
            visited: 0,
            depth: 0,
            shell: Vec::new(),
            secret_names: None,
        }
    }

    fn t(&self, n: Node<'_>) -> &'s str {
        text_of(n, self.text)
    }

    /// Collects the file's named functions (iteratively, bounded).
    fn collect_funcs(&mut self, root: Node<'s>) {
        let mut stack = vec![root];
        let mut seen = 0usize;
        while let Some(n) = stack.pop() {
            seen += 1;
            if seen > MAX_NODES || self.func_nodes.len() >= MAX_FUNCS {
                break;
            }
            let named = if FUNC_KINDS.contains(&n.kind()) {
                n.child_by_field_name("name").map(|id| (id, n))
            } else if n.kind() == "variable_declarator" {
                match (
                    n.child_by_field_name("name"),
                    n.child_by_field_name("value"),
                ) {
                    (Some(id), Some(v))
                        if matches!(
                            v.kind(),
                            "arrow_function" | "function_expression" | "function"
                        ) && id.kind() == "identifier" =>
                    {
                        Some((id, v))
                    }
                    _ => None,
                }
            } else {
                None
            };
            if let Some((id, f)) = named {
                let name = self.t(id).to_owned();
                let params = params_of(f, self.text);
                self.funcs
                    .entry(name)
                    .or_insert((self.func_nodes.len(), params));
                self.func_nodes.push(f);
            }
            let mut c = n.walk();
            for ch in n.named_children(&mut c) {
                stack.push(ch);
            }
        }
    }

    fn run(&mut self, root: Node<'s>) {
        self.collect_funcs(root);
        let names: Vec<(String, usize, Vec<String>)> = {
            let mut v: Vec<_> = self
                .funcs
                .iter()
                .map(|(k, (i, p))| (k.clone(), *i, p.clone()))
                .collect();
            v.sort_by_key(|(_, i, _)| *i);
            v
        };
        for _ in 0..PASSES {
            self.visited = 0;
            self.next_summaries.clear();
            self.current = None;
            self.locals = None;
            self.eval(root);
            for (name, i, params) in &names {
                let Some(&f) = self.func_nodes.get(*i) else {
                    continue;
                };
                let mut locals = HashMap::new();
                for (pi, p) in params.iter().enumerate() {
                    let o = self.origin(Kind::Param(pi as u8), f.start_byte(), p);
                    locals.insert(
                        p.clone(),
                        Val {
                            taints: vec![Taint {
                                origin: o,
                                steps: Vec::new(),
                                pending: None,
                            }],
                            lit: String::new(),
                        },
                    );
                }
                self.locals = Some(locals);
                self.current = Some(name.clone());
                self.next_summaries.entry(name.clone()).or_default();
                if let Some(body) = f.child_by_field_name("body") {
                    self.eval(body);
                }
            }
            self.locals = None;
            self.current = None;
            // Settled: another pass would read the same summaries and find the same flows.
            let settled = self.next_summaries == self.summaries;
            self.summaries = std::mem::take(&mut self.next_summaries);
            if settled {
                break;
            }
        }
    }

    /// The index of an origin (one per kind, offset and name).
    fn origin(&mut self, kind: Kind, offset: usize, what: &str) -> u32 {
        let what = crate::text::sanitize_line(&crate::text::truncate(what, 80)).into_owned();
        let key = (kind, offset, what);
        if let Some(&i) = self.origin_ids.get(&key) {
            return i;
        }
        if self.origins.len() >= MAX_ORIGINS {
            // Past the bound a source is not tracked (an index no origin has).
            return u32::MAX;
        }
        let i = self.origins.len() as u32;
        self.origins.push(Origin {
            kind,
            offset,
            what: key.2.clone(),
        });
        self.origin_ids.insert(key, i);
        i
    }

    fn source(&mut self, kind: Kind, offset: usize, what: &str, lit: &str) -> Val {
        let o = self.origin(kind, offset, what);
        Val {
            taints: vec![Taint {
                origin: o,
                steps: Vec::new(),
                pending: None,
            }],
            lit: bounded(lit),
        }
    }

    fn lookup(&self, name: &str) -> Val {
        if let Some(l) = &self.locals
            && let Some(v) = l.get(name)
        {
            return v.clone();
        }
        self.globals.get(name).cloned().unwrap_or_default()
    }

    fn bind_name(&mut self, name: &str, val: Val, union: bool) {
        let mut val = val;
        for t in &mut val.taints {
            let step = match t.pending.take() {
                Some(v) => format!("{v} into `{name}`"),
                None => format!("stored in `{name}`"),
            };
            t.step(step);
        }
        let global =
            self.locals.is_none() || name.starts_with("self.") || name.starts_with("this.");
        let scope = if global {
            &mut self.globals
        } else {
            self.locals.get_or_insert_with(HashMap::new)
        };
        if scope.len() >= MAX_NAMES && !scope.contains_key(name) {
            return;
        }
        if union && let Some(old) = scope.get_mut(name) {
            old.add(&val);
            return;
        }
        scope.insert(name.to_owned(), val);
    }

    /// Binds an assignment target to a value.
    fn bind(&mut self, target: Node<'s>, val: Val) {
        match target.kind() {
            "identifier" | "shorthand_property_identifier_pattern" => {
                let name = self.t(target).to_owned();
                self.bind_name(&name, val, false);
            }
            "attribute" | "member_expression" => {
                let name = self.t(target).to_owned();
                if name.len() <= 80 {
                    self.bind_name(&name, val.clone(), false);
                }
                if let Some(obj) = target.child_by_field_name("object")
                    && matches!(obj.kind(), "identifier" | "this")
                {
                    let base = self.t(obj).to_owned();
                    self.bind_name(&base, val, true);
                }
            }
            "subscript" | "subscript_expression" => {
                if let Some(obj) = target
                    .child_by_field_name("value")
                    .or_else(|| target.child_by_field_name("object"))
                    && matches!(obj.kind(), "identifier" | "attribute" | "member_expression")
                {
                    let base = self.t(obj).to_owned();
                    self.bind_name(&base, val, true);
                }
            }
            _ => {
                // Destructuring: every name inside gets the value (bounded).
                let mut stack = vec![target];
                let mut n = 0;
                while let Some(x) = stack.pop() {
                    n += 1;
                    if n > 64 {
                        break;
                    }
                    match x.kind() {
                        "identifier" | "shorthand_property_identifier_pattern" => {
                            let name = self.t(x).to_owned();
                            self.bind_name(&name, val.clone(), false);
                        }
                        _ => {
                            let mut c = x.walk();
                            for ch in x.named_children(&mut c) {
                                // `{key: name}`: the key is not a binding.
                                if x.kind() == "pair_pattern"
                                    && x.child_by_field_name("key") == Some(ch)
                                {
                                    continue;
                                }
                                stack.push(ch);
                            }
                        }
                    }
                }
            }
        }
    }

    fn children_val(&mut self, n: Node<'s>) -> Val {
        let mut v = Val::default();
        let mut c = n.walk();
        let kids: Vec<Node<'s>> = n.named_children(&mut c).collect();
        for ch in kids {
            let cv = self.eval(ch);
            v.add(&cv);
        }
        v
    }

    fn eval(&mut self, n: Node<'s>) -> Val {
        self.visited += 1;
        if self.visited > MAX_NODES || self.depth > MAX_DEPTH {
            return Val::default();
        }
        self.depth += 1;
        let v = self.eval_inner(n);
        self.depth -= 1;
        v
    }

    fn eval_inner(&mut self, n: Node<'s>) -> Val {
        let kind = n.kind();
        match kind {
            "comment"
            | "import_statement"
            | "import_from_statement"
            | "decorator"
            | "type_annotation"
            | "type"
            | "import" => Val::default(),
            // Named functions are analysed on their own (with their parameters).
            "function_definition"
            | "function_declaration"
            | "generator_function_declaration"
            | "method_definition" => Val::default(),
            "variable_declarator" => {
                let value = n.child_by_field_name("value");
                if let Some(v) = value
                    && matches!(
                        v.kind(),
                        "arrow_function" | "function_expression" | "function"
                    )
                    && self
                        .funcs
                        .contains_key(n.child_by_field_name("name").map_or("", |id| self.t(id)))
                {
                    return Val::default();
                }
                let val = value.map(|v| self.eval(v)).unwrap_or_default();
                if let Some(name) = n.child_by_field_name("name") {
                    self.bind(name, val);
                }
                Val::default()
            }
            "assignment" | "assignment_expression" => {
                let right = n.child_by_field_name("right");
                let val = right.map(|r| self.eval(r)).unwrap_or_default();
                if let Some(left) = n.child_by_field_name("left")
                    && right.is_some()
                {
                    self.bind(left, val.clone());
                }
                val
            }
            "augmented_assignment" | "augmented_assignment_expression" => {
                let mut val = n
                    .child_by_field_name("right")
                    .map(|r| self.eval(r))
                    .unwrap_or_default()
                    .verb("appended");
                if let Some(left) = n.child_by_field_name("left") {
                    let old = self.eval(left);
                    val.add(&old);
                    self.bind(left, val.clone());
                }
                val
            }
            "for_statement" | "for_in_statement" => {
                let right = n.child_by_field_name("right");
                let val = right.map(|r| self.eval(r)).unwrap_or_default();
                if let Some(left) = n.child_by_field_name("left") {
                    self.bind(left, val);
                }
                if let Some(b) = n.child_by_field_name("body") {
                    self.eval(b);
                }
                Val::default()
            }
            "as_pattern" => {
                let kids = named_children(n);
                let val = kids.first().map(|k| self.eval(*k)).unwrap_or_default();
                if let Some(alias) = n.child_by_field_name("alias") {
                    let target = named_children(alias).into_iter().next().unwrap_or(alias);
                    self.bind(target, val.clone());
                }
                val
            }
            "return_statement" => {
                let val = self.children_val(n);
                if let Some(cur) = self.current.clone() {
                    let s = self.next_summaries.entry(cur).or_default();
                    for t in &val.taints {
                        match self.origins.get(t.origin as usize).map(|o| o.kind) {
                            Some(Kind::Param(i)) => {
                                s.ret_params.insert(i);
                            }
                            Some(_)
                                if s.ret.len() < MAX_TAINTS
                                    && !s.ret.iter().any(|x| x.origin == t.origin) =>
                            {
                                s.ret.push(t.clone());
                            }
                            _ => {}
                        }
                    }
                }
                val
            }
            // `{ body }` is `{ body: body }`.
            "identifier" | "shorthand_property_identifier" => {
                let name = self.t(n);
                self.lookup(name)
            }
            "string" | "template_string" | "concatenated_string" => self.string(n),
            "string_content" | "string_fragment" => Val::lit(self.t(n)),
            "integer" | "float" | "number" | "true" | "false" | "none" | "null" | "undefined" => {
                Val::default()
            }
            "comparison_operator" | "not_operator" | "unary_expression" => {
                // Booleans carry no data.
                self.children_val(n);
                Val::default()
            }
            "binary_expression" | "binary_operator" => {
                let op = n.child_by_field_name("operator").map_or("", |o| self.t(o));
                if matches!(
                    op,
                    "==" | "===" | "!=" | "!==" | "<" | ">" | "<=" | ">=" | "in" | "instanceof"
                ) {
                    if let Some(x) = n.child_by_field_name("left") {
                        self.eval(x);
                    }
                    if let Some(x) = n.child_by_field_name("right") {
                        self.eval(x);
                    }
                    return Val::default();
                }
                let l = n
                    .child_by_field_name("left")
                    .map(|x| self.eval(x))
                    .unwrap_or_default();
                let r = n
                    .child_by_field_name("right")
                    .map(|x| self.eval(x))
                    .unwrap_or_default();
                let (sep, verb) = match op {
                    "+" => ("", Some("concatenated")),
                    "/" => ("/", Some("joined")),
                    "%" => (" ", Some("formatted")),
                    _ => ("", None),
                };
                let mut v = Val {
                    taints: Vec::new(),
                    lit: String::new(),
                };
                if matches!(op, "+" | "/" | "%") {
                    v.lit = bounded(&format!("{}{sep}{}", l.lit, r.lit));
                }
                for t in l.taints.iter().chain(r.taints.iter()) {
                    let t = t.clone();
                    v.add_taint(match verb {
                        Some(w) => t.verb(w),
                        None => t,
                    });
                }
                if verb.is_none() {
                    v.lit = l.lit;
                    if v.lit.is_empty() {
                        v.lit = r.lit;
                    }
                }
                v
            }
            // A comprehension binds its loop variables before its body reads them
            // (`{k: p.read_text() for k, p in SOURCES.items()}`).
            "list_comprehension"
            | "dictionary_comprehension"
            | "set_comprehension"
            | "generator_expression" => {
                let kids = named_children(n);
                for c in kids.iter().filter(|c| c.kind() == "for_in_clause") {
                    let val = c
                        .child_by_field_name("right")
                        .map(|r| self.eval(r))
                        .unwrap_or_default();
                    if let Some(left) = c.child_by_field_name("left") {
                        self.bind(left, val);
                    }
                }
                let mut v = Val::default();
                for c in kids.iter().filter(|c| c.kind() != "for_in_clause") {
                    let cv = self.eval(*c);
                    if c.kind() != "if_clause" {
                        v.add(&cv);
                    }
                }
                v
            }
            "attribute" | "member_expression" => self.attribute(n),
            "subscript" | "subscript_expression" => self.subscript(n),
            "call" | "call_expression" | "new_expression" => self.call(n),
            "keyword_argument" => n
                .child_by_field_name("value")
                .map(|v| self.eval(v))
                .unwrap_or_default(),
            "lambda" | "arrow_function" | "function_expression" | "function" => {
                // An anonymous function: its body runs here (its parameters unbound).
                if let Some(b) = n.child_by_field_name("body") {
                    self.eval(b)
                } else {
                    Val::default()
                }
            }
            _ => self.children_val(n),
        }
    }

    fn string(&mut self, n: Node<'s>) -> Val {
        let mut v = Val::default();
        let mut lit = String::new();
        let mut interp = false;
        let mut stack = vec![n];
        let mut count = 0;
        // Walk the string's parts in order (nested strings concatenated).
        let mut parts: Vec<Node<'s>> = Vec::new();
        while let Some(x) = stack.pop() {
            count += 1;
            if count > 4096 {
                break;
            }
            match x.kind() {
                "string_content" | "string_fragment" | "escape_sequence" => parts.push(x),
                "interpolation" | "template_substitution" => parts.push(x),
                _ => {
                    let kids = named_children(x);
                    for k in kids.into_iter().rev() {
                        stack.push(k);
                    }
                }
            }
        }
        // A plain string with no content node (JS `''`, Python 2 forms): its text unquoted.
        if parts.is_empty() {
            let t = self.t(n);
            let t = t.trim_matches(|c| c == '"' || c == '\'' || c == '`');
            return Val::lit(t);
        }
        for p in parts {
            match p.kind() {
                "interpolation" | "template_substitution" => {
                    interp = true;
                    let inner = self.children_val(p);
                    for t in inner.taints {
                        v.add_taint(t.verb(if self.py {
                            "interpolated in an f-string"
                        } else {
                            "interpolated in a template literal"
                        }));
                    }
                    if lit.len() < MAX_LIT {
                        lit.push(' ');
                        if !inner.lit.is_empty() {
                            push_bounded(&mut lit, &inner.lit);
                        }
                    }
                }
                _ => push_bounded(&mut lit, self.t(p)),
            }
        }
        let _ = interp;
        v.lit = lit;
        v
    }

    fn attribute(&mut self, n: Node<'s>) -> Val {
        let full = self.t(n);
        if self.py && full == "os.environ" || !self.py && full == "process.env" {
            return self.source(Kind::EnvDump, n.start_byte(), full, "");
        }
        if !self.py && full.starts_with("process.env.") {
            let name = &full["process.env.".len()..];
            if name == "HOME" || name == "USERPROFILE" {
                return Val::lit("~");
            }
            if is_secret_name(name) {
                return self.source(Kind::EnvVar, n.start_byte(), name, "");
            }
            return Val::default();
        }
        if full.len() <= 80 {
            let bound = self.lookup(full);
            if !bound.taints.is_empty() || !bound.lit.is_empty() {
                return bound;
            }
        }
        match n.child_by_field_name("object") {
            Some(o) => {
                let mut v = self.eval(o);
                // The attribute of a value keeps its taint, not its text.
                v.lit.clear();
                v
            }
            None => Val::default(),
        }
    }

    fn subscript(&mut self, n: Node<'s>) -> Val {
        let obj = n
            .child_by_field_name("value")
            .or_else(|| n.child_by_field_name("object"));
        let idx = n
            .child_by_field_name("subscript")
            .or_else(|| n.child_by_field_name("index"));
        if let Some(o) = obj {
            let ot = self.t(o);
            if ot == "os.environ" || ot == "process.env" {
                let key = idx.map(|i| self.eval(i).lit).unwrap_or_default();
                return self.env_var(&key, n.start_byte());
            }
        }
        let mut v = obj.map(|o| self.eval(o)).unwrap_or_default();
        let key = idx.map(|i| self.eval(i).lit).unwrap_or_default();
        v.lit.clear();
        self.dotenv_key(v, &key, n.start_byte())
    }

    /// Does a path value already stand for a credential file (a `.env` found by glob)?
    fn names_a_credential_file(&self, recv: &Val, first: Option<&Val>) -> bool {
        recv.taints
            .iter()
            .chain(first.into_iter().flat_map(|v| v.taints.iter()))
            .any(|t| {
                self.origins
                    .get(t.origin as usize)
                    .is_some_and(|o| o.kind == Kind::CredFile)
            })
    }

    /// One key of a parsed `.env` file (`env["OPENAI_API_KEY"]`) is that one variable,
    /// judged as the variable is (sent to its own service, it is its login), not the
    /// whole file.
    fn dotenv_key(&mut self, v: Val, key: &str, offset: usize) -> Val {
        let is_name = !key.is_empty()
            && key.len() <= 64
            && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        let from_dotenv = |o: &Origin| o.kind == Kind::CredFile && o.what == DOTENV;
        if !is_name
            || !v
                .taints
                .iter()
                .any(|t| self.origins.get(t.origin as usize).is_some_and(from_dotenv))
        {
            return v;
        }
        let mut out = Val::default();
        for t in v.taints {
            if !self.origins.get(t.origin as usize).is_some_and(from_dotenv) {
                out.add_taint(t);
            }
        }
        out.add(&self.env_var(key, offset));
        out
    }

    fn env_var(&mut self, key: &str, offset: usize) -> Val {
        let key = key.trim();
        if key == "HOME" || key == "USERPROFILE" {
            return Val::lit("~");
        }
        let is_name =
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if is_name && is_secret_name(key) {
            return self.source(Kind::EnvVar, offset, key, "");
        }
        // A key computed at run time (`os.getenv(v)` over a table of names): the secret
        // names the file spells out are what it can read.
        if !is_name {
            let names = self.named_secrets();
            if !names.is_empty() {
                return self.source(Kind::EnvVar, offset, &names, "");
            }
        }
        Val::default()
    }

    /// The secret variable names quoted in the file (`"OPENAI_API_KEY"`), comma-separated,
    /// at most four; computed once.
    fn named_secrets(&mut self) -> String {
        if let Some(n) = &self.secret_names {
            return n.clone();
        }
        let mut names: Vec<&str> = Vec::new();
        for c in QUOTED_NAME.captures_iter(self.text) {
            let Some(m) = c.get(1) else { continue };
            if is_secret_name(m.as_str()) && !names.contains(&m.as_str()) {
                names.push(m.as_str());
                if names.len() == 4 {
                    break;
                }
            }
        }
        let joined = names.join(", ");
        self.secret_names = Some(joined.clone());
        joined
    }

    /// Evaluates a call: its arguments, then what it reads (a source), where it sends
    /// (a sink) and what it returns.
    fn call(&mut self, n: Node<'s>) -> Val {
        let callee = n
            .child_by_field_name("function")
            .or_else(|| n.child_by_field_name("constructor"));
        let Some(callee) = callee else {
            return self.children_val(n);
        };
        let callee_text: String = self
            .t(callee)
            .chars()
            .filter(|c| !c.is_whitespace())
            .take(200)
            .collect();
        // The receiver of a method call, and the method name.
        let (recv_node, name) = match callee.kind() {
            "attribute" | "member_expression" => (
                callee.child_by_field_name("object"),
                callee
                    .child_by_field_name("attribute")
                    .or_else(|| callee.child_by_field_name("property"))
                    .map_or("", |p| self.t(p)),
            ),
            _ => (None, self.t(callee)),
        };
        let name = name.to_owned();
        let recv_text = recv_node.map_or(String::new(), |r| self.t(r).to_ascii_lowercase());
        // A callee that is itself an expression (`new Function(x)()`, `(0, eval)(x)`).
        if !matches!(
            callee.kind(),
            "identifier" | "attribute" | "member_expression"
        ) {
            self.eval(callee);
        }
        // `os.environ.get("X")` reads one variable, not the environment.
        let env_one = matches!(recv_text.as_str(), "os.environ" | "environ" | "process.env")
            && matches!(name.as_str(), "get" | "pop" | "setdefault" | "__getitem__");
        let recv = match recv_node {
            _ if env_one => Val::default(),
            Some(r)
                if matches!(
                    r.kind(),
                    "call"
                        | "call_expression"
                        | "new_expression"
                        | "await_expression"
                        | "parenthesized_expression"
                ) =>
            {
                self.eval(r)
            }
            Some(r) => {
                let t = self.t(r);
                if t.len() <= 80
                    && matches!(
                        r.kind(),
                        "identifier" | "attribute" | "member_expression" | "this"
                    )
                {
                    let mut v = self.lookup(t);
                    if v.taints.is_empty() && v.lit.is_empty() && r.kind() != "identifier" {
                        v = self.eval(r);
                    }
                    v
                } else {
                    self.eval(r)
                }
            }
            None => Val::default(),
        };
        // Arguments: positional and keyword (JS: an object literal's pairs are keywords).
        let mut pos: Vec<(Node<'s>, Val)> = Vec::new();
        let mut kw: Vec<(String, Val)> = Vec::new();
        let mut callbacks: Vec<Node<'s>> = Vec::new();
        if let Some(args) = n.child_by_field_name("arguments") {
            let kids = named_children(args);
            for a in kids.into_iter().take(64) {
                match a.kind() {
                    "keyword_argument" => {
                        let k = a
                            .child_by_field_name("name")
                            .map_or("", |x| self.t(x))
                            .to_owned();
                        let v = a
                            .child_by_field_name("value")
                            .map(|x| self.eval(x))
                            .unwrap_or_default();
                        kw.push((k, v));
                    }
                    "comment" => {}
                    "arrow_function" | "function_expression" | "function" | "lambda" => {
                        callbacks.push(a)
                    }
                    "object" if !self.py => {
                        let mut all = Val::default();
                        for p in named_children(a) {
                            if p.kind() == "pair" {
                                let k = p.child_by_field_name("key").map_or("", |x| self.t(x));
                                let k = k.trim_matches(|c| c == '"' || c == '\'').to_owned();
                                let v = p
                                    .child_by_field_name("value")
                                    .map(|x| self.eval(x))
                                    .unwrap_or_default();
                                if !matches!(k.as_str(), "env" | "cwd" | "stdio") {
                                    all.add(&v);
                                }
                                kw.push((k, v));
                            } else {
                                let v = self.eval(p);
                                if p.kind() == "shorthand_property_identifier" {
                                    kw.push((self.t(p).to_owned(), v.clone()));
                                }
                                all.add(&v);
                            }
                        }
                        pos.push((a, all));
                    }
                    _ => {
                        let v = self.eval(a);
                        pos.push((a, v));
                    }
                }
            }
        }
        // A callback gets the receiver's value as its first parameter (`.then(r => …)`,
        // `res.on('data', d => …)`), and runs here.
        // What the callbacks return (a `map` makes its result of it).
        let mut cb_val = Val::default();
        for cb in callbacks {
            let params = params_of(cb, self.text);
            if let Some(p) = params.first() {
                let rv = if recv.taints.is_empty() {
                    pos.first().map(|(_, v)| v.clone()).unwrap_or_default()
                } else {
                    recv.clone()
                };
                self.bind_name(p, rv, false);
            }
            if let Some(b) = cb.child_by_field_name("body") {
                let v = self.eval(b);
                cb_val.add(&v);
            }
        }
        let lname = name.to_ascii_lowercase();
        let lcallee = callee_text.to_ascii_lowercase();
        let first_lit = pos.first().map(|(_, v)| v.lit.clone()).unwrap_or_default();
        let args_lit = {
            let mut s = String::new();
            for v in pos.iter().map(|(_, v)| v).chain(kw.iter().map(|(_, v)| v)) {
                if v.lit.is_empty() {
                    continue;
                }
                if !s.is_empty() {
                    s.push(' ');
                }
                push_bounded(&mut s, &v.lit);
            }
            s
        };
        let offset = n.start_byte();
        let is_exec_call = is_process_call(&lcallee, &lname, self.py);
        if is_exec_call {
            self.note_shell(n, &lcallee, &lname, &pos, &kw);
        }

        // 1. Sinks.
        let mut all = Val::default();
        for (_, v) in &pos {
            all.add(v);
        }
        for (k, v) in &kw {
            if !matches!(
                k.as_str(),
                "env" | "cwd" | "timeout" | "stdin" | "stdout" | "stderr"
            ) {
                all.add(v);
            }
        }
        let header_taints: Vec<u32> = kw
            .iter()
            .filter(|(k, _)| {
                let k = k.to_ascii_lowercase();
                k == "headers" || k == "auth" || k == "authorization"
            })
            .flat_map(|(_, v)| v.taints.iter().map(|t| t.origin))
            .collect();
        let body_taints: BTreeSet<u32> = pos
            .iter()
            .filter(|(a, _)| a.kind() != "object")
            .flat_map(|(_, v)| v.taints.iter().map(|t| t.origin))
            .chain(
                kw.iter()
                    .filter(|(k, _)| {
                        let k = k.to_ascii_lowercase();
                        !matches!(
                            k.as_str(),
                            "headers" | "auth" | "authorization" | "env" | "cwd"
                        )
                    })
                    .flat_map(|(_, v)| v.taints.iter().map(|t| t.origin)),
            )
            .collect();
        let url_lit = kw
            .iter()
            .find(|(k, _)| k == "url")
            .map(|(_, v)| v.lit.clone())
            .unwrap_or_else(|| first_lit.clone());
        if let Some(mut sink) =
            self.network_sink(&lcallee, &lname, &recv_text, &args_lit, is_exec_call)
        {
            sink.offset = offset;
            if sink.host.is_none() {
                sink.host = host_of(&url_lit)
                    .or_else(|| host_of(&args_lit))
                    .or_else(|| host_of(&recv.lit));
            }
            // The receiver's taint counts for socket-like sends of a tainted connection? No:
            // only the data sent (arguments).
            let mut data = all.clone();
            if sink.raw_channel
                && matches!(
                    lname.as_str(),
                    "gethostbyname"
                        | "gethostbyname_ex"
                        | "getaddrinfo"
                        | "resolve"
                        | "query"
                        | "lookup"
                        | "resolve4"
                        | "resolvetxt"
                )
            {
                data = all.clone();
            }
            for t in data.taints.clone() {
                let mut s = sink.clone();
                s.header_only =
                    header_taints.contains(&t.origin) && !body_taints.contains(&t.origin);
                self.hit(t, s);
            }
        }
        if let Some(deser) = exec_sink(&lcallee, &lname, self.py, is_exec_call) {
            let run = if is_exec_call {
                self.command_val(&lcallee, &lname, &pos, &kw, &args_lit)
            } else {
                all.clone()
            };
            let sink = Sink {
                kind: SinkKind::Exec,
                offset,
                call: callee_text.chars().take(60).collect(),
                host: None,
                raw_channel: false,
                header_only: false,
                deserialise: deser,
            };
            for t in run.taints {
                self.hit(t, sink.clone());
            }
        }
        let encrypts = lname == "encrypt"
            || lname == "encrypt_file"
            || (lname == "update" && recv_text.contains("cipher"))
            || (is_exec_call && ENCRYPT_CMD.is_match(&args_lit));
        if encrypts {
            let sink = Sink {
                kind: SinkKind::Encrypt,
                offset,
                call: callee_text.chars().take(60).collect(),
                host: None,
                raw_channel: false,
                header_only: false,
                deserialise: false,
            };
            for t in all.taints.clone() {
                self.hit(t, sink.clone());
            }
        }
        let deletes = matches!(
            lname.as_str(),
            "remove" | "unlink" | "rmtree" | "unlinksync" | "rmsync" | "rm" | "rmdirsync"
        ) && (!self.py
            || lcallee.starts_with("os.")
            || lcallee.starts_with("shutil.")
            || name == "unlink")
            || (is_exec_call && DELETE_CMD.is_match(&args_lit));
        if deletes {
            let mut ts = all.taints.clone();
            ts.extend(recv.taints.iter().cloned());
            if name == "unlink" || HOME_LIT.is_match(&args_lit) {
                // `Path.unlink()` on a user file, or `rm -rf ~/Documents`.
            }
            if HOME_LIT.is_match(&args_lit) {
                let v = self.source(Kind::UserFiles, offset, &args_lit, "");
                ts.extend(v.taints);
            }
            if self.deletes.len() < MAX_EVENTS {
                self.deletes.push((offset, ts));
            }
        }

        // 2. Sources.
        let mut out = Val::default();
        let path_lit = if matches!(lname.as_str(), "read_text" | "read_bytes" | "open")
            && recv_node.is_some()
            && lcallee != "os.open"
            && !lcallee.ends_with("io.open")
        {
            recv.lit.clone()
        } else {
            first_lit.clone()
        };
        let reads = matches!(
            lname.as_str(),
            "open"
                | "read_text"
                | "read_bytes"
                | "readfilesync"
                | "readfile"
                | "connect"
                | "copyfile"
                | "copy"
                | "copy2"
        );
        if reads || matches!(lname.as_str(), "dotenv_values" | "load_dotenv_values") {
            if let Some(m) = CRED_PATH.find(&path_lit) {
                let what = m.as_str().to_owned();
                out.add(&self.source(Kind::CredFile, offset, &what, ""));
            } else if (is_dotenv_path(&path_lit)
                || (lname == "dotenv_values" && path_lit.is_empty()))
                && !self.names_a_credential_file(&recv, pos.first().map(|(_, v)| v))
            {
                // A file that names the variables it wants from `.env` reads those (judged
                // as the variables are: sent to their own service, a login); one that names
                // none takes the whole file.
                let names = self.named_secrets();
                if names.is_empty() {
                    out.add(&self.source(Kind::CredFile, offset, DOTENV, ""));
                } else {
                    out.add(&self.source(Kind::EnvVar, offset, &names, ""));
                }
            } else if BROWSER_PATH.is_match(&path_lit) {
                let what = bounded(&path_lit);
                out.add(&self.source(Kind::Browser, offset, &what, ""));
            } else if lname != "connect"
                && (path_lit.starts_with("/tmp/")
                    || path_lit.contains("tmpdir")
                    || path_lit.contains("/tmp/"))
            {
                out.add(&self.source(Kind::TmpFile, offset, &path_lit.clone(), ""));
            }
            // The content of a path carries the path's taint (a user file, a `.env` found
            // by glob, an archive of user files).
            let path_taints: Vec<Taint> = if recv_node.is_some()
                && matches!(lname.as_str(), "read_text" | "read_bytes" | "open")
            {
                recv.taints.clone()
            } else {
                pos.first()
                    .map(|(_, v)| v.taints.clone())
                    .unwrap_or_default()
            };
            for t in path_taints {
                out.add_taint(t.verb("read"));
            }
            let packed: Vec<Taint> = self
                .archives
                .iter()
                .filter(|(a, _)| !a.is_empty() && path_lit.contains(a.as_str()))
                .flat_map(|(_, ts)| ts.iter().cloned())
                .collect();
            for t in packed {
                out.add_taint(t.verb("packed and read back"));
            }
        }
        if is_exec_call || lcallee == "keyring.get_password" || lname == "get_password" {
            if KEYCHAIN_CMD.is_match(&args_lit) || lname == "get_password" {
                // The item's service (`-s codealive-api-key`) says whose secret it is.
                let read = match KEYCHAIN_SERVICE.captures(&args_lit) {
                    Some(c) => self.source(Kind::KeychainItem, offset, &c[1], ""),
                    None => {
                        let call = callee_text.chars().take(60).collect::<String>();
                        self.source(Kind::Keychain, offset, &call, "")
                    }
                };
                out.add(&read);
            } else if let Some(m) = CRED_PATH.find(&args_lit) {
                let what = m.as_str().to_owned();
                out.add(&self.source(Kind::CredFile, offset, &what, ""));
            }
        }
        if self.py
            && (lcallee == "os.getenv"
                || lcallee == "os.environ.get"
                || lcallee == "environ.get"
                || lcallee == "getenv")
        {
            let v = self.env_var(&first_lit, offset);
            out.add(&v);
        }
        if (self.py
            && (lcallee == "dict" || lcallee == "os.environ.copy" || lcallee == "os.environ.items"))
            || lcallee == "object.assign"
            || lcallee == "object.entries"
        {
            // Containers of the environment stay the environment (handled by propagation).
        }
        if matches!(
            lcallee.as_str(),
            "path.home" | "pathlib.path.home" | "os.homedir" | "homedir"
        ) {
            out.lit = "~".to_owned();
        }
        if lname == "expanduser" || lname == "expandvars" {
            out.lit = first_lit.clone();
        }
        // A path object or an open file names its path (`Path("/tmp/x")`, `open("/tmp/x",
        // "w")`), so a later write or read through it is tied to that path.
        if matches!(
            lcallee.as_str(),
            "path" | "pathlib.path" | "open" | "io.open" | "purepath"
        ) && out.lit.is_empty()
        {
            out.lit = first_lit.clone();
        }
        if self.is_download(&lcallee, &lname, &recv_text) {
            let what = host_of(&url_lit).unwrap_or_else(|| callee_text.chars().take(60).collect());
            out.add(&self.source(Kind::Download, offset, &what, ""));
        }
        // Globs and walks: `.env` files found by glob are credential files; walks of the
        // home directory are the user's files.
        if matches!(
            lname.as_str(),
            "glob"
                | "iglob"
                | "rglob"
                | "walk"
                | "listdir"
                | "scandir"
                | "iterdir"
                | "readdirsync"
                | "readdir"
                | "globsync"
                | "sync"
        ) {
            let pat = format!("{} {}", recv.lit, args_lit);
            if pat
                .split(|c: char| c == '/' || c.is_whitespace() || c == '*')
                .any(|w| w == ".env")
            {
                out.add(&self.source(Kind::CredFile, offset, ".env found by glob", ""));
            } else if HOME_LIT.is_match(&pat) {
                out.add(&self.source(
                    Kind::UserFiles,
                    offset,
                    &format!("files under {}", pat.trim()),
                    "",
                ));
            }
            out.lit = pat.trim().to_owned();
        }
        // Archives: `make_archive` of a home directory; `ZipFile(p, 'w')`, `tarfile.open`.
        if lname == "make_archive" {
            let mut packed = all.taints.clone();
            if HOME_LIT.is_match(&args_lit) {
                packed.extend(
                    self.source(
                        Kind::UserFiles,
                        offset,
                        &format!("files under {}", args_lit.trim()),
                        "",
                    )
                    .taints,
                );
            }
            if !packed.is_empty() {
                for t in &packed {
                    out.add_taint(t.clone().verb("packed"));
                }
                if self.archives.len() < MAX_EVENTS {
                    self.archives.push((first_lit.trim().to_owned(), packed));
                }
            }
            out.lit = first_lit.clone();
        }
        if matches!(lname.as_str(), "zipfile" | "tarfile" | "open")
            && (lcallee.contains("zip") || lcallee.contains("tar"))
        {
            out.lit = first_lit.clone();
        }
        let archive_recv =
            recv_text.contains("zip") || recv_text.contains("tar") || recv_text.contains("archive");
        if matches!(
            lname.as_str(),
            "write" | "add" | "writestr" | "addfile" | "append" | "file" | "directory"
        ) && archive_recv
            && !all.taints.is_empty()
        {
            let packed: Vec<Taint> = all
                .taints
                .iter()
                .cloned()
                .map(|t| t.verb("packed"))
                .collect();
            if self.archives.len() < MAX_EVENTS {
                self.archives
                    .push((recv.lit.trim().to_owned(), packed.clone()));
            }
            if let Some(r) = recv_node.filter(|r| r.kind() == "identifier") {
                let name = self.t(r).to_owned();
                let v = Val {
                    taints: packed,
                    lit: String::new(),
                };
                self.bind_name(&name, v, true);
            }
        }

        // A file written with tainted content (`im.save("/tmp/share.jpg", exif=blob)`,
        // `fs.writeFileSync("/tmp/x", data)`, `Path("/tmp/x").write_bytes(b)`): reading the
        // same path back carries the taint (staging a secret in a file before sending it).
        if matches!(
            lname.as_str(),
            "save"
                | "write_text"
                | "write_bytes"
                | "writefilesync"
                | "writefile"
                | "dump"
                | "write"
        ) && !all.taints.is_empty()
            && !archive_recv
        {
            let path = if matches!(lname.as_str(), "write_text" | "write_bytes" | "write") {
                recv.lit.trim().to_owned()
            } else {
                first_lit.trim().to_owned()
            };
            if path.len() >= 3 && (path.contains('/') || path.contains('.')) {
                let staged: Vec<Taint> = all
                    .taints
                    .iter()
                    .cloned()
                    .map(|t| t.verb("written to a file"))
                    .collect();
                if self.archives.len() < MAX_EVENTS {
                    self.archives.push((path, staged));
                }
            }
        }

        // 3. What the call returns.
        // The file's own function (or a method called on `self`, `this`, `cls` or a class).
        let own_call = recv_node.is_none()
            || matches!(recv_text.as_str(), "self" | "this" | "cls")
            || recv_node.is_some_and(|r| {
                r.kind() == "identifier" && self.t(r).starts_with(|c: char| c.is_ascii_uppercase())
            });
        if own_call && self.funcs.contains_key(&name) {
            let summary = self.summaries.get(&name).cloned().unwrap_or_default();
            for (i, (_, v)) in pos.iter().enumerate() {
                let i = i as u8;
                if summary.ret_params.contains(&i) {
                    for t in &v.taints {
                        out.add_taint(t.clone().verb("returned by"));
                    }
                }
                for (pi, sink) in &summary.param_sinks {
                    if *pi == i {
                        for t in v.taints.clone() {
                            let mut t = t;
                            t.step(format!("passed to `{name}()`"));
                            self.hit(t, sink.clone());
                        }
                    }
                }
            }
            for t in summary.ret {
                let mut t = t;
                t.step(format!("returned by `{name}()`"));
                out.add_taint(t);
            }
            return out;
        }
        if let Some(verb) = propagator(&lcallee, &lname, self.py) {
            // `buf.toString('base64')`, `Buffer.from(s, 'hex')`: the encoding is the argument.
            let verb = match verb {
                "converted" if args_lit.contains("base64") => "base64-encoded",
                "converted" if args_lit.trim() == "hex" => "hex-encoded",
                v => v,
            };
            for t in all.taints.iter().chain(recv.taints.iter()) {
                out.add_taint(t.clone().verb(verb));
            }
            if out.lit.is_empty() {
                out.lit = bounded(format!("{} {}", recv.lit, args_lit).trim());
            }
            if matches!(lname.as_str(), "join") && !self.py
                || lcallee.ends_with("path.join")
                || lcallee.ends_with("path.resolve")
            {
                let parts: Vec<&str> = pos.iter().map(|(_, v)| v.lit.as_str()).collect();
                out.lit = bounded(&parts.join("/"));
            }
            if self.py && lname == "join" && !lcallee.ends_with("path.join") {
                out.lit = bounded(&args_lit);
            }
        } else if recv_node.is_some() {
            // A method of a value returns (a form of) the value: `.read()`, `.strip()`,
            // `.decode()`, `.json()`, `.text()`.
            for t in &recv.taints {
                out.add_taint(t.clone());
            }
            // A callback's results are the new array (`names.map((k) => process.env[k])`).
            if matches!(lname.as_str(), "map" | "flatmap" | "reduce") {
                for t in &cb_val.taints {
                    out.add_taint(t.clone().verb("mapped"));
                }
            }
            if matches!(lname.as_str(), "with_suffix" | "joinpath") {
                out.lit = bounded(&format!("{}/{}", recv.lit, args_lit));
            }
            // Mutating methods fold their arguments into the receiver.
            if matches!(
                lname.as_str(),
                "append"
                    | "extend"
                    | "update"
                    | "push"
                    | "add"
                    | "insert"
                    | "setdefault"
                    | "set"
                    | "unshift"
                    | "assign"
            ) && let Some(r) = recv_node
                .filter(|r| matches!(r.kind(), "identifier" | "attribute" | "member_expression"))
            {
                let rname = self.t(r).to_owned();
                let v = all.clone().verb("added");
                if !v.taints.is_empty() {
                    self.bind_name(&rname, v, true);
                }
            }
            if lname == "get" {
                out = self.dotenv_key(out, first_lit.trim(), offset);
            }
        }
        out
    }

    /// What a process call runs as code: the command string when a shell reads it, the
    /// program (argv[0]), an interpreter's `-c`/`-e` script, or the stdin an interpreter
    /// reads. A value that is only an argument (`pip install pkg==<version>`) is not run.
    fn command_val(
        &mut self,
        lcallee: &str,
        lname: &str,
        pos: &[(Node<'s>, Val)],
        kw: &[(String, Val)],
        args_lit: &str,
    ) -> Val {
        static INTERP: LazyLock<Regex> = LazyLock::new(|| {
            crate::security::model::datarules::re(
                r"(?i)(^|[\s/])(sh|bash|zsh|dash|python[0-9.]*|node|perl|ruby|php|pwsh|powershell|osascript)(\s|$)",
            )
        });
        let mut v = Val::default();
        let Some((arg, first)) = pos.first() else {
            return v;
        };
        let shell = matches!(
            lname,
            "system" | "popen" | "getoutput" | "getstatusoutput" | "create_subprocess_shell"
        ) || !self.py && matches!(lname, "exec" | "execsync")
            || kw.iter().any(|(k, _)| k == "shell");
        let interp = INTERP.is_match(args_lit);
        if matches!(arg.kind(), "list" | "array" | "tuple") {
            if let Some(p0) = named_children(*arg).into_iter().next() {
                // argv[0]: the program run.
                let p0v = self.eval(p0);
                v.add(&p0v);
            }
            if interp || shell {
                v.add(first);
            }
        } else if shell || interp || lcallee.starts_with("os.exec") {
            v.add(first);
        } else if !self.py {
            // `spawn(cmd, args)`: the program and, for an interpreter, its script.
            v.add(first);
        }
        if interp {
            for (k, x) in kw {
                if k == "input" {
                    v.add(x);
                }
            }
        }
        v
    }

    fn is_download(&self, lcallee: &str, lname: &str, recv_text: &str) -> bool {
        if self.py {
            (matches!(lname, "get" | "request" | "stream")
                && (lcallee.starts_with("requests.")
                    || lcallee.starts_with("httpx.")
                    || recv_text.contains("session")
                    || recv_text.contains("client")))
                || matches!(lname, "urlopen" | "urlretrieve")
                || lcallee.starts_with("urllib3.")
        } else {
            matches!(lname, "fetch" | "got")
                || lcallee.starts_with("axios")
                || lcallee == "https.get"
                || lcallee == "http.get"
        }
    }

    fn network_sink(
        &self,
        lcallee: &str,
        lname: &str,
        recv_text: &str,
        args_lit: &str,
        is_exec: bool,
    ) -> Option<Sink> {
        let mk = |raw: bool| {
            Some(Sink {
                kind: SinkKind::Network,
                offset: 0,
                call: lcallee.chars().take(60).collect(),
                host: None,
                raw_channel: raw,
                header_only: false,
                deserialise: false,
            })
        };
        if is_exec {
            if NET_TOOL.is_match(args_lit) {
                let mut s = mk(false)?;
                let tool = NET_TOOL
                    .captures(args_lit)
                    .and_then(|c| c.get(2))
                    .map_or("", |m| m.as_str());
                s.call = format!("{} ({tool})", s.call);
                s.raw_channel = !matches!(tool, "curl" | "wget");
                return Some(s);
            }
            return None;
        }
        let http_verbs = matches!(
            lname,
            "get" | "post" | "put" | "patch" | "delete" | "head" | "request" | "options" | "stream"
        );
        if self.py {
            if http_verbs
                && (lcallee.starts_with("requests.")
                    || lcallee.starts_with("httpx.")
                    || lcallee.starts_with("aiohttp.")
                    || lcallee.starts_with("urllib3."))
            {
                return mk(false);
            }
            if matches!(lname, "post" | "put" | "patch") {
                return mk(false);
            }
            if matches!(lname, "get" | "request")
                && ["session", "client", "http", "conn", "pool", "requests"]
                    .iter()
                    .any(|w| recv_text.contains(w))
            {
                return mk(false);
            }
            if matches!(lname, "urlopen" | "request") && lcallee.contains("url")
                || lname == "request" && lcallee.ends_with("urllib.request.request")
            {
                return mk(false);
            }
            if lname == "request"
                && (lcallee == "request" || lcallee.ends_with("urllib.request.request"))
            {
                return mk(false);
            }
            if matches!(
                lname,
                "sendall" | "sendto" | "sendmail" | "send_message" | "storbinary" | "storlines"
            ) {
                return mk(true);
            }
            if lname == "send"
                && ["sock", "conn", "socket", "ws", "client", "smtp", "server"]
                    .iter()
                    .any(|w| recv_text.contains(w))
            {
                return mk(true);
            }
            if matches!(lname, "gethostbyname" | "gethostbyname_ex" | "getaddrinfo")
                || (matches!(lname, "resolve" | "query")
                    && (recv_text.contains("resolver") || recv_text.contains("dns")))
            {
                return mk(true);
            }
            None
        } else {
            if matches!(lname, "fetch" | "got" | "sendbeacon" | "ky" | "needle")
                || lcallee.starts_with("axios")
                || lcallee.starts_with("superagent")
            {
                return mk(false);
            }
            if matches!(
                lcallee,
                "http.request" | "https.request" | "http.get" | "https.get"
            ) {
                return mk(false);
            }
            if matches!(lname, "post" | "put" | "patch") {
                return mk(false);
            }
            if matches!(lname, "send" | "write" | "end")
                && [
                    "xhr", "ws", "socket", "sock", "client", "req", "conn", "udp", "dgram",
                    "request",
                ]
                .iter()
                .any(|w| recv_text.contains(w))
                && !recv_text.contains("res")
            {
                return mk(lname != "send" || !recv_text.contains("xhr"));
            }
            if lcallee == "websocket"
                || lcallee == "net.connect"
                || lcallee == "net.createconnection"
            {
                return mk(true);
            }
            if (recv_text == "dns" || recv_text.ends_with(".dns") || recv_text.contains("resolver"))
                && lname.starts_with("resolve")
                || lcallee == "dns.lookup"
            {
                return mk(true);
            }
            None
        }
    }

    /// Records a taint reaching a sink: a flow when it is a real source, a summary entry
    /// when it is a parameter of the function being summarised.
    fn hit(&mut self, t: Taint, sink: Sink) {
        let Some(o) = self.origins.get(t.origin as usize).cloned() else {
            return;
        };
        if let Kind::Param(i) = o.kind {
            if let Some(cur) = self.current.clone() {
                let s = self.next_summaries.entry(cur).or_default();
                if s.param_sinks.len() < 16
                    && !s
                        .param_sinks
                        .iter()
                        .any(|(pi, x)| *pi == i && x.offset == sink.offset)
                {
                    s.param_sinks.push((i, sink));
                }
            }
            return;
        }
        let wanted = match sink.kind {
            SinkKind::Network => o.kind.is_credential() || o.kind == Kind::UserFiles,
            SinkKind::Exec => matches!(o.kind, Kind::Download | Kind::TmpFile),
            SinkKind::Encrypt => o.kind == Kind::UserFiles,
        };
        if !wanted || self.flows.len() >= MAX_FLOWS * 4 {
            return;
        }
        if !self.seen_flows.insert((o.offset, sink.offset)) {
            return;
        }
        let mut steps = t.steps.clone();
        if let Some(v) = t.pending {
            steps.push(v.to_owned());
        }
        self.flows.push(Flow {
            origin: o,
            steps,
            sink,
        });
    }

    /// A call that runs a command: its literal command string, for the shell analysis.
    fn note_shell(
        &mut self,
        n: Node<'s>,
        lcallee: &str,
        lname: &str,
        pos: &[(Node<'s>, Val)],
        kw: &[(String, Val)],
    ) {
        if self.shell.len() >= 256 {
            return;
        }
        let Some((arg, v)) = pos.first() else {
            return;
        };
        // `spawn(cmd, args, {shell: true})` and `subprocess.run(…, shell=True)` run a
        // string through a shell; `os.system`, `popen`, `exec`, `execSync` always do.
        let shell_kw = kw.iter().any(|(k, _)| k == "shell") && self.t(n).contains("shell=True")
            || kw.iter().any(|(k, _)| k == "shell") && !self.py;
        let always = matches!(
            lname,
            "system" | "popen" | "getoutput" | "getstatusoutput" | "create_subprocess_shell"
        ) || !self.py && matches!(lname, "exec" | "execsync");
        let list = matches!(arg.kind(), "list" | "array" | "tuple");
        if !(always
            || shell_kw
            || list
                && (lcallee.starts_with("subprocess")
                    || matches!(
                        lname,
                        "run"
                            | "popen"
                            | "call"
                            | "check_output"
                            | "check_call"
                            | "spawn"
                            | "spawnsync"
                            | "execfile"
                            | "execfilesync"
                    )))
        {
            return;
        }
        let partial = self.has_dynamic(*arg);
        let text = v.lit.clone();
        if text.trim().is_empty() {
            return;
        }
        self.shell.push(ShellCommand {
            offset: arg.start_byte(),
            text,
            partial,
        });
    }

    fn has_dynamic(&self, n: Node<'_>) -> bool {
        let mut stack = vec![n];
        let mut k = 0;
        while let Some(x) = stack.pop() {
            k += 1;
            if k > 512 {
                return true;
            }
            if matches!(
                x.kind(),
                "identifier"
                    | "interpolation"
                    | "template_substitution"
                    | "call"
                    | "call_expression"
                    | "attribute"
                    | "member_expression"
            ) {
                return true;
            }
            let mut c = x.walk();
            for ch in x.named_children(&mut c) {
                stack.push(ch);
            }
        }
        false
    }
}

/// A call that runs a process (subprocess, `os.system`, `child_process`).
fn is_process_call(lcallee: &str, lname: &str, py: bool) -> bool {
    if py {
        lcallee.starts_with("subprocess.")
            || matches!(
                lcallee,
                "os.system"
                    | "os.popen"
                    | "commands.getoutput"
                    | "asyncio.create_subprocess_exec"
                    | "asyncio.create_subprocess_shell"
            )
            || lcallee.starts_with("os.exec")
            || lcallee.starts_with("os.spawn")
            || matches!(
                lname,
                "check_output" | "check_call" | "popen" | "getoutput" | "getstatusoutput"
            )
    } else {
        let recv = lcallee.rsplit_once('.').map_or("", |(r, _)| r);
        let child = recv.is_empty()
            || recv.contains("child")
            || matches!(
                recv,
                "cp" | "proc" | "childprocess" | "shell" | "bun" | "deno"
            );
        match lname {
            "exec" => child,
            "execsync" | "spawn" | "spawnsync" | "execfile" | "execfilesync" => {
                child || !recv.contains("regex")
            }
            _ => false,
        }
    }
}

/// An exec sink: `Some(true)` for a deserialiser (`pickle`, `marshal`), `Some(false)` for code.
fn exec_sink(lcallee: &str, lname: &str, py: bool, is_exec: bool) -> Option<bool> {
    if is_exec {
        return Some(false);
    }
    if py {
        if matches!(
            lcallee,
            "exec" | "eval" | "compile" | "builtins.exec" | "builtins.eval"
        ) {
            return Some(false);
        }
        if matches!(lname, "loads" | "load" | "unsafe_load")
            && (lcallee.starts_with("pickle.")
                || lcallee.starts_with("cpickle.")
                || lcallee.starts_with("marshal.")
                || lcallee.starts_with("dill.")
                || lcallee.starts_with("cloudpickle.")
                || lcallee == "yaml.unsafe_load")
        {
            return Some(true);
        }
        None
    } else {
        if matches!(
            lcallee,
            "eval" | "function" | "window.eval" | "globalthis.eval"
        ) || lcallee.starts_with("vm.")
            && matches!(
                lname,
                "runinthiscontext"
                    | "runinnewcontext"
                    | "runincontext"
                    | "compilefunction"
                    | "script"
            )
            || lcallee == "vm.script"
        {
            return Some(false);
        }
        None
    }
}

/// Calls that pass their arguments' value on, transformed: the verb names the step.
fn propagator(lcallee: &str, lname: &str, py: bool) -> Option<&'static str> {
    let v = match lname {
        "b64encode" | "urlsafe_b64encode" | "standard_b64encode" | "encodebytes" | "b2a_base64"
        | "btoa" => "base64-encoded",
        "b32encode" | "b16encode" | "b85encode" | "a85encode" => "encoded",
        "hexlify" | "b2a_hex" | "hex" => "hex-encoded",
        "dumps" | "stringify" | "dump" => "serialised",
        "quote" | "quote_plus" | "urlencode" | "encodeuricomponent" | "encodeuri" | "escape" => {
            "URL-encoded"
        }
        "compress" | "deflate" | "gzip" | "deflatesync" | "gzipsync" | "brotlicompresssync" => {
            "compressed"
        }
        "format" | "format_map" => "formatted",
        "join" => "joined",
        "encode" | "decode" | "tostring" | "from" | "str" | "bytes" | "bytearray" | "repr"
        | "string" | "buffer" => "converted",
        "dict" | "list" | "tuple" | "set" | "sorted" | "copy" | "items" | "values" | "keys"
        | "entries" | "assign" | "fromentries" | "enumerate" | "reversed" | "iter" | "next"
        | "zip" | "islice" | "chain" => "copied",
        "replace" | "concat" => "transformed",
        "url" | "urlsearchparams" | "request" => "built into a request",
        _ => return None,
    };
    // `requests.request` and friends are sinks, not constructors; `Request` is.
    if lname == "request" && !(lcallee.ends_with("urllib.request.request") || lcallee == "request")
    {
        return None;
    }
    if lname == "dump" && py {
        return None;
    }
    let _ = lcallee;
    Some(v)
}

/// The host of the first URL in a value's literal text, when the literal gives the whole
/// host. A host cut by an interpolation (`https://intake.${SITE}/…` reads `intake.`), or
/// without a top-level domain, is unknown: a variable decides where the request goes.
fn host_of(s: &str) -> Option<String> {
    let m = URL_HOST.captures(s)?.get(1)?;
    let mut host = m.as_str().to_ascii_lowercase();
    if !host.starts_with('[')
        && let Some((h, _port)) = host.split_once(':')
    {
        host = h.to_owned();
    }
    let next = s[m.end()..].chars().next();
    let cut = host.ends_with('.') || host.ends_with('-') || next.is_some_and(char::is_whitespace);
    let tld = host.rsplit('.').next().unwrap_or("");
    let named =
        host.contains('.') && tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic());
    let ip = host.split('.').count() == 4 && host.split('.').all(|p| p.parse::<u8>().is_ok());
    let local = host == "localhost" || host.starts_with('[');
    (!cut && (named || ip || local)).then_some(host)
}

/// Words of a variable name that say nothing about where it belongs.
const GENERIC_WORDS: &[&str] = &[
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
    "PUBLIC",
    "CLIENT",
    "APP",
    "USER",
    "SESSION",
    "BEARER",
    "MY",
    "SERVICE",
    "X",
    "KEY",
    "KEYS",
    "CREDENTIALS",
    "CREDENTIAL",
    "REFRESH",
    "ID",
    "PERSONAL",
    "BOT",
    "WEBHOOK",
    "ADMIN",
    "DEV",
    "PROD",
    "PRODUCTION",
    "TEST",
    "DEFAULT",
    "SECRETS",
    "ORG",
    "ACCOUNT",
    "MASTER",
    "ROOT",
];

/// Does `host` belong to the provider the credential variable `name` names? `None` when
/// the name names no provider (`API_KEY`, `TOKEN`).
fn own_host(name: &str, host: &str) -> Option<bool> {
    let upper = name.to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(['_', '-'])
        .filter(|w| !w.is_empty() && !GENERIC_WORDS.contains(w))
        .collect();
    if words.is_empty() {
        return None;
    }
    if crate::security::model::hosts::is_loopback(host) || host.ends_with(".local") {
        return Some(true);
    }
    let squashed: String = host.chars().filter(|c| *c != '.' && *c != '-').collect();
    for w in &words {
        // A provider of the table (`providers.toml`) owns its hosts and no other: no
        // look-alike (`github.com.evil.io`) by the words below.
        match crate::security::families::exfiltration::providers::TABLE.word_claims(w, host) {
            Some(true) => return Some(true),
            Some(false) => continue,
            None => {}
        }
        let lw = w.to_ascii_lowercase();
        if lw.len() >= 2 && (host.contains(&lw) || squashed.contains(&lw)) {
            return Some(true);
        }
        // `DOCKERHUB_TOKEN` → docker.com: the host's main label inside the word.
        let labels: Vec<&str> = host.split('.').collect();
        let main = labels.len().checked_sub(2).map_or("", |i| labels[i]);
        if main.len() >= 4 && lw.contains(main) {
            return Some(true);
        }
    }
    Some(false)
}

/// [`own_host`] for one name or a comma-separated list of them (a key computed at run
/// time reads one of several): owned when any of them owns the host.
fn own_host_any(names: &str, host: &str) -> Option<bool> {
    let mut verdict = None;
    for name in names.split(", ") {
        match own_host(name, host) {
            Some(true) => return Some(true),
            Some(false) => verdict = Some(false),
            None => {}
        }
    }
    verdict
}

/// A host where data is dropped for an attacker (webhook catchers, paste sites, tunnels, raw IPs).
fn drop_host(host: &str) -> bool {
    const DROPS: &[&str] = &[
        "webhook.site",
        "requestbin",
        "pipedream.net",
        "ngrok",
        "pastebin.com",
        "paste.ee",
        "hastebin",
        "transfer.sh",
        "burpcollaborator",
        "interact.sh",
        "oast.",
        "trycloudflare.com",
        "discord.com/api/webhooks",
        "api.telegram.org",
        "beeceptor",
        "hookbin",
        "serveo.net",
        "localtunnel",
        "loca.lt",
        "file.io",
        "0x0.st",
    ];
    DROPS.iter().any(|d| host.contains(d))
        || host.split('.').all(|p| p.parse::<u8>().is_ok()) && host.contains('.')
}

fn line_of(text: &str, lines: &crate::text::LineIndex, offset: usize) -> u32 {
    lines.position(text, offset).0
}

/// Decides whether a flow is reported, at what severity, with what message.
fn judge(
    flow: &Flow,
    text: &str,
    lines: &crate::text::LineIndex,
) -> Option<(&'static str, Severity, String)> {
    let o = &flow.origin;
    let src_line = line_of(text, lines, o.offset);
    let sink_line = line_of(text, lines, flow.sink.offset);
    let path = if flow.steps.is_empty() {
        String::new()
    } else {
        format!(", {}", flow.steps.join(", "))
    };
    match flow.sink.kind {
        SinkKind::Network => {
            let host = flow.sink.host.as_deref();
            let to = match host {
                Some(h) => format!("sent to {h} (`{}`)", flow.sink.call),
                None => format!("sent out by `{}`", flow.sink.call),
            };
            let mut verdict = "credential theft";
            let (rule, sev, source) = match o.kind {
                Kind::CredFile => (
                    CREDENTIAL_FLOW,
                    Severity::Critical,
                    format!("the credential file `{}`", o.what),
                ),
                Kind::Keychain => (
                    CREDENTIAL_FLOW,
                    Severity::Critical,
                    format!("a keychain secret (`{}`)", o.what),
                ),
                Kind::KeychainItem => {
                    // Sent to its own service it is its use; to an address only a variable
                    // holds, in a file whose URLs are that service's, it is likely its use
                    // (medium, for a look); anything else is theft.
                    let sev = match host {
                        Some(h) if !drop_host(h) && own_host(&o.what, h) == Some(true) => {
                            return None;
                        }
                        None if !flow.sink.raw_channel && names_own_host(&o.what, text) => {
                            verdict = "likely the item's own service (a URL of this file is its), but the address is only known at run time: check that it is";
                            Severity::Medium
                        }
                        _ => Severity::Critical,
                    };
                    (
                        CREDENTIAL_FLOW,
                        sev,
                        format!("the keychain item `{}`", o.what),
                    )
                }
                Kind::Browser => (
                    CREDENTIAL_FLOW,
                    Severity::Critical,
                    format!("the browser profile `{}`", o.what),
                ),
                Kind::EnvDump => (
                    CREDENTIAL_FLOW,
                    Severity::Critical,
                    format!("the whole environment (`{}`)", o.what),
                ),
                Kind::EnvVar => {
                    let sev = match host {
                        // A drop host's own credential (`TELEGRAM_BOT_TOKEN` to
                        // api.telegram.org) is its use; any other credential there is theft.
                        Some(h) if drop_host(h) && own_host_any(&o.what, h) == Some(true) => {
                            return None;
                        }
                        Some(h) if drop_host(h) => Severity::High,
                        Some(h) => match own_host_any(&o.what, h) {
                            Some(true) | None => return None,
                            Some(false) if flow.sink.header_only => Severity::Medium,
                            Some(false) => Severity::High,
                        },
                        // No URL says where a socket, DNS or SMTP send goes.
                        None if flow.sink.raw_channel => Severity::High,
                        None => return None,
                    };
                    (
                        CREDENTIAL_FLOW,
                        sev,
                        format!("the credential variable `{}`", o.what),
                    )
                }
                Kind::UserFiles => (
                    RANSOM_FLOW,
                    Severity::High,
                    format!("the user's files ({})", o.what),
                ),
                _ => return None,
            };
            let msg = format!(
                "{source}, read at line {src_line}{path}, is {to} at line {sink_line}: {verdict}. Remove the read or the send; a skill sends a credential only to the service it belongs to, and only the one credential its documentation names."
            );
            Some((rule, sev, msg))
        }
        SinkKind::Exec => {
            let (source, sev) = match o.kind {
                Kind::Download => (
                    format!("bytes downloaded from {}", o.what),
                    if flow.sink.deserialise {
                        Severity::High
                    } else {
                        Severity::Critical
                    },
                ),
                Kind::TmpFile => (format!("bytes read from `{}`", o.what), Severity::High),
                _ => return None,
            };
            let how = if flow.sink.deserialise {
                "deserialised (which runs code)"
            } else {
                "run"
            };
            let msg = format!(
                "{source} at line {src_line}{path}, are {how} by `{}` at line {sink_line}: code the skill does not ship runs with the user's rights. Ship the code in the skill (pinned and reviewable), or parse the data as data (`json.loads`).",
                flow.sink.call
            );
            Some((DOWNLOAD_FLOW, sev, msg))
        }
        SinkKind::Encrypt => None,
    }
}

/// What the analysis of one file found (owned: the tree's nodes stay inside).
struct Output {
    origins: Vec<Origin>,
    flows: Vec<Flow>,
    deletes: Vec<(usize, Vec<Taint>)>,
    shell: Vec<ShellCommand>,
}

impl Output {
    /// Moves every offset by `by`: the analysis of a fenced code block, placed in its file.
    fn shift(&mut self, by: usize) {
        if by == 0 {
            return;
        }
        for o in &mut self.origins {
            o.offset += by;
        }
        for f in &mut self.flows {
            f.origin.offset += by;
            f.sink.offset += by;
        }
        for d in &mut self.deletes {
            d.0 += by;
        }
        for s in &mut self.shell {
            s.offset += by;
        }
    }
}

/// Parses and analyses one file.
fn analyze_text(text: &str, grammar: Grammar) -> Option<Output> {
    let tree = code_tree::parse(text, grammar)?;
    let mut a = Analyzer::new(text, grammar.is_python());
    a.run(tree.root_node());
    Some(Output {
        origins: a.origins,
        flows: a.flows,
        deletes: a.deletes,
        shell: a.shell,
    })
}

/// The literal (or partly literal) command strings a Python or JavaScript/TypeScript file
/// passes to a shell-running call (`subprocess.*`, `os.system`, `os.popen`,
/// `child_process.exec`/`execSync`, `spawn(…, {shell: true})`), with their byte offsets.
/// Argument lists are joined with spaces. Files over the parse bound give nothing.
pub fn shell_command_strings(text: &str, grammar: Grammar) -> Vec<ShellCommand> {
    analyze_text(text, grammar)
        .map(|a| a.shell)
        .unwrap_or_default()
}

/// The grammar a language reads with when the path does not say (a shebang).
fn grammar_of_lang(lang: Lang) -> Option<Grammar> {
    match lang {
        Lang::Python => Some(Grammar::Python),
        Lang::JavaScript => Some(Grammar::JavaScript),
        _ => None,
    }
}

/// The code a source holds for the dataflow: a Python or JavaScript/TypeScript file whole, or
/// each fenced Python or JavaScript/TypeScript block of a Markdown file (at most
/// [`MAX_BLOCKS`] per file), as (start, end, grammar).
fn code_units(src: &Source<'_>) -> Vec<(usize, usize, Grammar)> {
    match src.lang {
        Lang::Python | Lang::JavaScript => Grammar::of_path(src.path, grammar_of_lang(src.lang))
            .map(|g| vec![(0, src.text.len(), g)])
            .unwrap_or_default(),
        Lang::Markdown => src
            .regions
            .iter()
            .filter_map(|r| match r.kind {
                RegionKind::Code { lang, .. } => grammar_of_lang(lang).map(|g| {
                    let (a, z) = fenced_body(&src.text, r.start, r.end);
                    (a, z, g)
                }),
                _ => None,
            })
            .take(MAX_BLOCKS)
            .collect(),
        _ => Vec::new(),
    }
}

/// The code of a fenced block `start..end` (which holds its fence lines): after the opening
/// line, before a closing fence line if there is one.
fn fenced_body(text: &str, start: usize, end: usize) -> (usize, usize) {
    let block = &text[start..end];
    let a = block.find('\n').map_or(end, |i| start + i + 1);
    let inner = text[a..end].trim_end_matches(['\n', '\r']);
    let last = inner.rfind('\n').map_or(0, |i| i + 1);
    let closing = inner[last..].trim_start();
    let z = if closing.starts_with("```") || closing.starts_with("~~~") {
        a + last
    } else {
        end
    };
    (a, z.max(a))
}

/// At most this many fenced blocks of one Markdown file go through the dataflow.
const MAX_BLOCKS: usize = 256;

/// Follows data through every Python and JavaScript/TypeScript file of the skill, and through
/// the fenced Python and JavaScript/TypeScript blocks of its Markdown.
pub fn check(scx: &mut SecCx<'_, '_>) {
    let mut emits: Vec<(usize, usize, &'static str, Severity, String, usize, String)> = Vec::new();
    let mut shell_hits: Vec<(
        usize,
        usize,
        crate::security::families::execution::shell::Hit,
    )> = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        for (start, end, grammar) in code_units(src) {
            if end - start > code_tree::MAX_PARSE_BYTES || !worth_parsing(&src.lower()[start..end])
            {
                continue;
            }
            if own_vendor_client(&src.text[start..end], &src.lower()[start..end]) {
                continue;
            }
            let Some(mut a) = analyze_text(&src.text[start..end], grammar) else {
                continue;
            };
            a.shift(start);
            // Command strings handed to a shell are shell: read them with the shell parser.
            for sc in &a.shell {
                if let Some(script) = crate::parse::shell::parse(&sc.text) {
                    for mut h in
                        crate::security::families::execution::shell::analyze(&sc.text, &script)
                    {
                        // The joined argument list is not the file's text: report at the argument.
                        h.start = 0;
                        h.end = 0;
                        if let Some((o, _)) = h.related.as_mut() {
                            *o = 0;
                        }
                        shell_hits.push((si, sc.offset, h));
                    }
                }
            }
            let mut n = 0;
            let mut ransom_done = false;
            for f in &a.flows {
                if n >= MAX_FLOWS {
                    break;
                }
                // Ransom: user files packed and uploaded, or encrypted, with originals deleted.
                if f.origin.kind == Kind::UserFiles {
                    if ransom_done {
                        continue;
                    }
                    let deleted = a.deletes.iter().find(|(_, ts)| {
                        ts.iter().any(|t| {
                            a.origins
                                .get(t.origin as usize)
                                .is_some_and(|o| o.kind == Kind::UserFiles)
                        })
                    });
                    let Some((del_off, _)) = deleted else {
                        continue;
                    };
                    let src_line = line_of(&src.text, &src.lines, f.origin.offset);
                    let sink_line = line_of(&src.text, &src.lines, f.sink.offset);
                    let del_line = line_of(&src.text, &src.lines, *del_off);
                    let how = if f.sink.kind == SinkKind::Encrypt {
                        format!("encrypted by `{}`", f.sink.call)
                    } else {
                        format!("uploaded by `{}`", f.sink.call)
                    };
                    let path = if f.steps.is_empty() {
                        String::new()
                    } else {
                        format!(", {}", f.steps.join(", "))
                    };
                    let msg = format!(
                        "the user's files ({}, line {src_line}){path}, are {how} at line {sink_line}, and the originals are deleted at line {del_line}: the shape of ransomware (or of data theft that covers its tracks). Remove the deletion and the upload or encryption; a skill works on copies the user hands it.",
                        f.origin.what
                    );
                    emits.push((
                        si,
                        f.sink.offset,
                        RANSOM_FLOW,
                        Severity::High,
                        msg,
                        f.origin.offset,
                        f.origin.what.clone(),
                    ));
                    ransom_done = true;
                    n += 1;
                    continue;
                }
                if let Some((rule, sev, msg)) = judge(f, &src.text, &src.lines) {
                    emits.push((
                        si,
                        f.sink.offset,
                        rule,
                        sev,
                        msg,
                        f.origin.offset,
                        f.origin.what.clone(),
                    ));
                    n += 1;
                }
            }
        }
    }
    for (si, at, rule, sev, msg, src_off, what) in emits {
        let s = &scx.sources[si];
        let (l, c) = s.pos(at);
        let (rl, rc) = s.pos(src_off);
        let loc = Location::at(s.rel.clone(), l, c);
        let rel = Location::at(s.rel.clone(), rl, rc);
        let anchor = format!("{}:flow:{rule}:{what}", s.path);
        scx.cx.emit_related(
            rule,
            msg,
            loc,
            &anchor,
            vec![(rel, format!("the source: `{what}`"))],
        );
        let capped = s.capped_at(at);
        if let Some(f) = scx.cx.findings.last_mut() {
            crate::security::severity::emitted(f, sev);
            // A fenced block is read in its context: under a heading that forbids or
            // catalogues it, in a remote sandbox call, or quoted in a reference document.
            crate::security::model::evidence::apply_ceiling(s, at, f);
            if capped {
                crate::security::severity::cap(
                    f,
                    Severity::Medium,
                    "in a reference document of a skill about security, where attacks are quoted",
                );
            }
        }
    }
    crate::security::families::execution::shell::emit_hits(scx, shell_hits);
}

#[cfg(test)]
mod tests;
