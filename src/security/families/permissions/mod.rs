//! Security family: permissions and supply chain.
//!
//! - `allowed-tools` breadth: unrestricted shell, network-capable shell grants, web
//!   fetch together with file writes, MCP wildcards (one finding per problem, at the
//!   `allowed-tools` value in the frontmatter).
//! - Tools the skill uses but does not declare (only when `allowed-tools` is declared).
//! - MCP servers the skill configures or starts.
//! - Install commands with unpinned packages, and package names that look like
//!   typosquats of popular PyPI and npm packages (see [`crate::security::families::permissions::typosquat`]).
//! - Skill names that typosquat another skill of the same scan ([`check_scan`]).

pub mod typosquat;

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Finding, Location, Severity};
use crate::security::model::{Lang, RegionKind, SecCx};
use crate::text::{sanitize_line, truncate};
use typosquat::Ecosystem;

pub const PERMISSIONS_UNRESTRICTED_SHELL: &str = "permissions-unrestricted-shell";
pub const PERMISSIONS_NETWORK_SHELL: &str = "permissions-network-shell";
pub const PERMISSIONS_FETCH_AND_WRITE: &str = "permissions-fetch-and-write";
pub const PERMISSIONS_MCP_WILDCARD: &str = "permissions-mcp-wildcard";
pub const PERMISSIONS_UNDECLARED_TOOL: &str = "permissions-undeclared-tool";
pub const MCP_SERVER_REFERENCE: &str = "mcp-server-reference";
pub const INSTALL_UNPINNED_PACKAGE: &str = "install-unpinned-package";
pub const PACKAGE_TYPOSQUAT: &str = "package-typosquat";
pub const SKILL_NAME_TYPOSQUAT: &str = "skill-name-typosquat";

/// Rule ids this module emits.
pub const RULES: &[&str] = &[
    INSTALL_UNPINNED_PACKAGE,
    MCP_SERVER_REFERENCE,
    PACKAGE_TYPOSQUAT,
    PERMISSIONS_FETCH_AND_WRITE,
    PERMISSIONS_MCP_WILDCARD,
    PERMISSIONS_NETWORK_SHELL,
    PERMISSIONS_UNDECLARED_TOOL,
    PERMISSIONS_UNRESTRICTED_SHELL,
    SKILL_NAME_TYPOSQUAT,
];

pub(crate) fn show(s: &str) -> String {
    sanitize_line(&truncate(s.trim(), 100))
        .into_owned()
        .replace('`', "'")
}

/// Shell commands that open network connections.
const NET_COMMANDS: &[&str] = &[
    "curl", "wget", "nc", "ncat", "netcat", "ssh", "scp", "sftp", "rsync", "ftp", "telnet",
    "socat", "http", "https", "aria2c", "xh", "lftp", "tftp",
];

/// A parsed `allowed-tools` entry.
pub(crate) struct Tool {
    pub(crate) raw: String,
    pub(crate) name: String,
    /// The text inside the parentheses, if any.
    arg: Option<String>,
}

pub(crate) fn parse_tool(t: &str) -> Tool {
    let t = t.trim();
    match t.split_once('(') {
        Some((n, rest)) => Tool {
            raw: t.to_owned(),
            name: n.trim().to_owned(),
            arg: Some(rest.trim_end_matches(')').trim().to_owned()),
        },
        None => Tool {
            raw: t.to_owned(),
            name: t.to_owned(),
            arg: None,
        },
    }
}

fn is_shell(name: &str) -> bool {
    matches!(name, "Bash" | "Shell" | "PowerShell")
}

pub(crate) fn unrestricted_shell(t: &Tool) -> bool {
    is_shell(&t.name)
        && t.arg
            .as_deref()
            .is_none_or(|a| matches!(a.trim(), "" | "*" | "**" | ":*" | "*:*" | "* *" | "*:**"))
}

/// The network command a shell grant allows (`Bash(curl:*)` → `curl`).
pub(crate) fn network_grant(t: &Tool) -> Option<&'static str> {
    if !is_shell(&t.name) {
        return None;
    }
    let arg = t.arg.as_deref()?;
    let first = arg
        .split(|c: char| c == ':' || c.is_whitespace())
        .next()
        .unwrap_or("")
        .trim_start_matches("sudo ")
        .to_ascii_lowercase();
    NET_COMMANDS.iter().copied().find(|c| *c == first)
}

pub(crate) fn is_write_tool(name: &str) -> bool {
    matches!(name, "Write" | "Edit" | "MultiEdit" | "NotebookEdit")
}

pub(crate) fn is_fetch_tool(name: &str) -> bool {
    matches!(name, "WebFetch" | "WebSearch")
}

/// Where each `allowed-tools` entry is in the entry file (line, column).
/// The declared tools and, for each, its (line, column) in the entry file.
pub(crate) type ToolsAt = (Vec<String>, Vec<(u32, u32)>);

pub(crate) fn tool_positions(scx: &SecCx<'_, '_>) -> Option<ToolsAt> {
    let doc = scx.doc?;
    let node = doc.root()?.get("allowed-tools")?;
    let tools = scx.allowed_tools()?;
    let at = doc.file_pos(node.pos);
    let pos = match &node.kind {
        crate::parse::yaml::NodeKind::Seq { items, .. } => items
            .iter()
            .filter(|n| n.as_str().is_some())
            .map(|n| doc.file_pos(n.pos))
            .collect(),
        _ => vec![at; tools.len()],
    };
    Some((tools, pos))
}

fn check_allowed_tools(scx: &mut SecCx<'_, '_>) -> Option<Vec<Tool>> {
    let (raw, pos) = tool_positions(scx)?;
    let tools: Vec<Tool> = raw.iter().map(|t| parse_tool(t)).collect();
    let at = |i: usize| pos.get(i).copied().unwrap_or((1, 1));
    let mut emits: Vec<(&'static str, (u32, u32), String, String)> = Vec::new();
    if let Some(i) = tools.iter().position(unrestricted_shell) {
        emits.push((
            PERMISSIONS_UNRESTRICTED_SHELL,
            at(i),
            format!(
                "`allowed-tools` grants unrestricted shell access (`{}`): every command the skill's text or a prompt injection asks for runs without a permission prompt. A capability note on its own; findings it enables name it and are raised. Grant only the commands the skill needs, e.g. `Bash(python3 scripts/report.py:*)`.",
                show(&tools[i].raw)
            ),
            "unrestricted".into(),
        ));
    }
    let mut seen = BTreeSet::new();
    for (i, t) in tools.iter().enumerate() {
        if let Some(cmd) = network_grant(t)
            && seen.insert(cmd)
        {
            emits.push((
                PERMISSIONS_NETWORK_SHELL,
                at(i),
                format!(
                    "`allowed-tools` grants a network-capable shell command without a prompt (`{}`): it can send local files or secrets anywhere and fetch code to run. Remove it, or restrict it to the exact command and host the skill needs.",
                    show(&t.raw)
                ),
                format!("net:{cmd}"),
            ));
        }
    }
    let fetch = tools.iter().position(|t| is_fetch_tool(&t.name));
    let write = tools.iter().position(|t| is_write_tool(&t.name));
    if let (Some(f), Some(w)) = (fetch, write) {
        emits.push((
            PERMISSIONS_FETCH_AND_WRITE,
            at(f),
            format!(
                "`allowed-tools` combines web access (`{}`) with file writes (`{}`) without prompts: content fetched from the web (a prompt injection) can be written to disk, including into other skills or configuration. Drop one of them or let the harness prompt for it.",
                show(&tools[f].raw),
                show(&tools[w].raw)
            ),
            "fetch-write".into(),
        ));
    }
    for (i, t) in tools.iter().enumerate() {
        if t.name.starts_with("mcp__") && t.raw.contains('*') {
            emits.push((
                PERMISSIONS_MCP_WILDCARD,
                at(i),
                format!(
                    "`allowed-tools` grants a wildcard of MCP tools (`{}`): every tool the server exposes, including ones added later, runs without a prompt. List the MCP tools the skill uses by name.",
                    show(&t.raw)
                ),
                format!("mcp:{}", t.raw),
            ));
        }
    }
    for (rule, (l, c), msg, anchor) in emits {
        let loc = scx.cx.at(l, c);
        scx.cx.emit(rule, msg, loc, &anchor);
    }
    Some(tools)
}

static NET_USE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?m)(?:^|[\s;|&(`$])(?:curl|wget)\s|\brequests\.(?:get|post|put|patch|delete|head|request|Session)\b|\bfetch\(\s*[`'\x22]https?:|\burllib\.request\b|\burlopen\(|\bhttpx\.|\baiohttp\.|\bhttp\.client\b|\bInvoke-(?:WebRequest|RestMethod)\b|\baxios\.(?:get|post|put|request)\b",
    )
});

static WRITE_USE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"\bopen\([^)\n]{1,200},\s*(?:mode\s*=\s*)?['"][wax]b?\+?['"]|\.write_(?:text|bytes)\(|\bwriteFile(?:Sync)?\(|\bcreateWriteStream\(|\.to_(?:csv|excel|parquet|json)\(|\.savefig\(|\bSet-Content\b|\bOut-File\b"#,
    )
});

static SHELL_REDIRECT: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(r"(?m)(?:^|[^0-9&>2])>>?\s*[A-Za-z0-9_./~-]+")
});

/// Uses of tools the frontmatter does not grant (only when `allowed-tools` is declared).
fn check_undeclared(scx: &mut SecCx<'_, '_>, tools: &[Tool]) {
    if tools.is_empty() {
        return;
    }
    let has_shell = tools.iter().any(|t| is_shell(&t.name));
    let any_unrestricted = tools.iter().any(unrestricted_shell);
    let has_net = any_unrestricted
        || tools.iter().any(|t| {
            is_fetch_tool(&t.name) || network_grant(t).is_some() || t.name.starts_with("mcp__")
        });
    let has_write = any_unrestricted || tools.iter().any(|t| is_write_tool(&t.name));
    let mut shell_at = None;
    let mut net_at = None;
    let mut write_at = None;
    for (si, src) in scx.sources.iter().enumerate() {
        for reg in &src.regions {
            let RegionKind::Code {
                lang,
                runnable: true,
                script,
                ..
            } = reg.kind
            else {
                continue;
            };
            let text = &src.text[reg.start..reg.end];
            if shell_at.is_none() && (script || lang == Lang::Shell) {
                // A block with content beyond its fences.
                let body = if script {
                    text
                } else {
                    text.split_once('\n').map_or("", |x| x.1)
                };
                let lines = body
                    .lines()
                    .filter(|l| {
                        let l = l.trim();
                        !l.is_empty() && !l.starts_with('#') && !l.starts_with("```")
                    })
                    .count();
                if lines > 0 {
                    let what = if script {
                        format!("the script `{}`", show(src.path))
                    } else {
                        "a runnable shell block".to_owned()
                    };
                    shell_at = Some((si, reg.start, what));
                }
            }
            if net_at.is_none()
                && let Some(m) = NET_USE.find(text)
            {
                net_at = Some((si, reg.start + m.start(), show(m.as_str())));
            }
            if write_at.is_none() {
                let m = WRITE_USE.find(text).or_else(|| {
                    (lang == Lang::Shell)
                        .then(|| SHELL_REDIRECT.find(text))
                        .flatten()
                        .filter(|m| !m.as_str().contains("/dev/null"))
                });
                if let Some(m) = m {
                    write_at = Some((si, reg.start + m.start(), show(m.as_str())));
                }
            }
        }
    }
    let declared = show(
        &tools
            .iter()
            .map(|t| t.raw.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    );
    if !has_shell && let Some((si, off, what)) = shell_at {
        scx.emit_at(
            PERMISSIONS_UNDECLARED_TOOL,
            si,
            off,
            format!(
                "the skill runs shell commands ({what}) but `allowed-tools` (`{declared}`) grants no `Bash`: the harness will prompt, or the step fails. Declare the narrowest `Bash(command:*)` the skill needs, or drop the step."
            ),
            "undeclared:shell",
        );
    }
    if !has_net && let Some((si, off, what)) = net_at {
        scx.emit_at_severity(
            PERMISSIONS_UNDECLARED_TOOL,
            Severity::Medium,
            si,
            off,
            format!(
                "the skill's code uses the network (`{what}`) but `allowed-tools` (`{declared}`) grants no network tool: the declared permissions understate what the skill does. Declare the access (`WebFetch`, a narrow `Bash(curl …)`) or remove the network call."
            ),
            "undeclared:network",
        );
    }
    if !has_write && let Some((si, off, what)) = write_at {
        scx.emit_at(
            PERMISSIONS_UNDECLARED_TOOL,
            si,
            off,
            format!(
                "the skill's code writes files (`{what}`) but `allowed-tools` (`{declared}`) grants no `Write`/`Edit`: the declared permissions understate what the skill does. Declare the write, or document where output goes."
            ),
            "undeclared:write",
        );
    }
}

static MCP_CMD: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)\bnpx\s+(?:(?:-y|--yes|-p|--package)\s+)*(?P<a>@?[a-z0-9_./-]*mcp[a-z0-9_./@-]*)|\buvx\s+(?:--from\s+\S+\s+)?(?P<b>[a-z0-9_.@/-]*mcp[a-z0-9_.@/-]*)|\bclaude\s+mcp\s+add(?:-json)?\s+(?P<c>[^\n`]{1,120})",
    )
});

static MCP_CONFIG: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(r#"(?m)["']?(?:mcpServers|mcp_servers)["']?\s*[:=]"#)
});

static MCP_TARGET: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r#"["'](?:command|url)["']\s*:\s*["']([^"'\n]{1,200})["']"#,
    )
});

fn check_mcp(scx: &mut SecCx<'_, '_>) {
    let mut seen = BTreeSet::new();
    let mut emits = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        let text: &str = &src.text;
        let lower_has = |w: &str| memchr::memmem::find(text.as_bytes(), w.as_bytes()).is_some();
        if !(lower_has("mcp") || lower_has("MCP")) {
            continue;
        }
        for c in MCP_CMD.captures_iter(text) {
            let Some(m) = c.name("a").or(c.name("b")).or(c.name("c")) else {
                continue;
            };
            let name = show(m.as_str());
            if seen.insert(name.clone()) {
                let all = c.get(0).map_or(m.start(), |a| a.start());
                emits.push((si, all, format!("`{}`", show(&c[0]))));
            }
        }
        if let Some(m) = MCP_CONFIG.find(text) {
            let mut e = text.len().min(m.end() + 4000);
            while !text.is_char_boundary(e) {
                e -= 1;
            }
            let tail = &text[m.end()..e];
            let targets: Vec<String> = MCP_TARGET
                .captures_iter(tail)
                .take(4)
                .map(|c| format!("`{}`", show(&c[1])))
                .collect();
            let key = format!("config:{}", src.path);
            if seen.insert(key) {
                let what = if targets.is_empty() {
                    format!("an `mcpServers` configuration in `{}`", show(src.path))
                } else {
                    format!(
                        "an `mcpServers` configuration in `{}` ({})",
                        show(src.path),
                        targets.join(", ")
                    )
                };
                emits.push((si, m.start(), what));
            }
        }
    }
    for (si, off, what) in emits {
        scx.emit_at(
            MCP_SERVER_REFERENCE,
            si,
            off,
            format!(
                "the skill configures or starts an MCP server: {what}. The server runs with the user's rights and its tools join the agent's; pin its version, check its source and declare it in the skill's documentation."
            ),
            &format!("mcp:{what}"),
        );
    }
}

/// One package an install command or requirements file names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Package {
    pub eco: Ecosystem,
    /// Normalised name.
    pub name: String,
    pub pinned: bool,
}

/// Pip options that take a value.
const PIP_VALUE_OPTS: &[&str] = &[
    "-r",
    "--requirement",
    "-e",
    "--editable",
    "-c",
    "--constraint",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-t",
    "--target",
    "-f",
    "--find-links",
    "--prefix",
    "--root",
    "--python",
    "-p",
    "--src",
    "--trusted-host",
    "--platform",
    "--python-version",
    "--only-binary",
    "--no-binary",
    "--registry",
    "-w",
    "--workspace",
    "--with",
    "--from",
    "--cache",
    "--group",
    "--optional",
    // Options of uv and pip that take a number or a name (`uv pip install --jobs 1
    // package` read `1` as a package).
    "--jobs",
    "-j",
    "--timeout",
    "--retries",
    "--index",
    "--default-index",
    "--index-strategy",
    "--keyring-provider",
    "--resolution",
    "--prerelease",
    "--exclude-newer",
    "--upgrade-package",
    "--reinstall-package",
    "--no-build-isolation-package",
    "--config-settings",
    "-C",
    "--link-mode",
    "--compile-bytecode-level",
    "--progress-bar",
    "--log",
    "--cert",
    "--client-cert",
    "--proxy",
    "--implementation",
    "--abi",
    "--report",
    "--progress",
];

/// Packages whose upgrade is routine tooling, not a dependency choice.
const TOOLING: &[&str] = &["pip", "setuptools", "wheel", "uv", "npm", "pnpm", "yarn"];

/// Parses one package argument of an install command.
fn package_arg(eco: Ecosystem, arg: &str) -> Option<Package> {
    let a = arg.trim_matches(|c| c == '"' || c == '\'');
    if a.is_empty()
        || a.starts_with(['.', '/', '~', '$', '-', '<', '{', '%'])
        || a.contains("${")
        || a.ends_with(".whl")
        || a.ends_with(".tar.gz")
        || a.ends_with(".zip")
        || a.ends_with(".tgz")
        || a.contains("://") && !a.starts_with("git+")
        || a.contains('\\')
    {
        return None;
    }
    match eco {
        Ecosystem::PyPI => {
            if a.starts_with("git+") {
                return None;
            }
            if a.contains('/') {
                return None;
            }
            let end = a
                .find(|c: char| "[<>=!~;@ (,".contains(c))
                .unwrap_or(a.len());
            let name = typosquat::normalize_pypi(&a[..end]);
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
                return None;
            }
            let pinned = a.contains("==") || a.contains(" @ ") || a[end..].starts_with('@');
            Some(Package { eco, name, pinned })
        }
        Ecosystem::Npm => {
            let (name, ver) = if let Some(rest) = a.strip_prefix('@') {
                let (scope_name, ver) = rest
                    .split_once('@')
                    .map_or((rest, None), |(n, v)| (n, Some(v)));
                if !scope_name.contains('/') {
                    return None;
                }
                (format!("@{scope_name}"), ver)
            } else {
                if a.contains('/') || a.contains(':') {
                    return None;
                }
                let (n, v) = a.split_once('@').map_or((a, None), |(n, v)| (n, Some(v)));
                (n.to_owned(), v)
            };
            let name = name.to_ascii_lowercase();
            if !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_./@".contains(&b))
            {
                return None;
            }
            let pinned = ver.is_some_and(|v| {
                v.trim_start_matches('=')
                    .starts_with(|c: char| c.is_ascii_digit())
            });
            Some(Package { eco, name, pinned })
        }
        Ecosystem::Other => {
            let name = a.to_ascii_lowercase();
            name.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                .then_some(Package {
                    eco,
                    name,
                    pinned: false,
                })
        }
    }
}

/// The packages one shell command segment installs (empty if it is no install).
pub fn parse_install(segment: &str) -> Vec<Package> {
    let mut words: Vec<&str> = segment.split_whitespace().collect();
    while let Some(w) = words.first() {
        if matches!(*w, "sudo" | "!" | "%pip" | "$" | ">" | "RUN" | "run:" | "-") {
            if *w == "%pip" {
                words[0] = "pip";
                break;
            }
            words.remove(0);
        } else if let Some(rest) = w.strip_prefix('!') {
            words[0] = rest;
            break;
        } else {
            break;
        }
    }
    let w = |i: usize| words.get(i).copied().unwrap_or("");
    // (ecosystem, index of the first argument, single package only, pinned by a flag)
    let (eco, from, single) = match (w(0), w(1), w(2)) {
        ("pip" | "pip3" | "pipx", "install", _) => (Ecosystem::PyPI, 2, false),
        (p, "-m", "pip") if p.starts_with("python") && w(3) == "install" => {
            (Ecosystem::PyPI, 4, false)
        }
        ("uv", "pip", "install") => (Ecosystem::PyPI, 3, false),
        ("uv" | "poetry", "add", _) => (Ecosystem::PyPI, 2, false),
        ("uv", "tool", "install") => (Ecosystem::PyPI, 3, false),
        ("npm" | "pnpm" | "bun", "install" | "i" | "add", _) => (Ecosystem::Npm, 2, false),
        ("yarn", "add", _) | ("yarn", "global", "add") => {
            (Ecosystem::Npm, if w(1) == "global" { 3 } else { 2 }, false)
        }
        ("npx" | "bunx" | "pnpx", _, _) => (Ecosystem::Npm, 1, true),
        ("gem" | "cargo", "install", _) => (Ecosystem::Other, 2, false),
        _ => return Vec::new(),
    };
    let args = &words[from.min(words.len())..];
    let version_flag = args
        .iter()
        .any(|a| matches!(*a, "-v" | "--version" | "--vers") || a.starts_with("--version="));
    let mut out = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
            continue;
        }
        if a.starts_with('#') || a.starts_with('>') || a.starts_with("2>") || a.starts_with('<') {
            break;
        }
        if a.starts_with('-') {
            if PIP_VALUE_OPTS.contains(a) {
                skip = true;
            }
            continue;
        }
        if let Some(mut p) = package_arg(eco, a) {
            if eco == Ecosystem::Other {
                p.pinned = version_flag;
            }
            out.push(p);
        }
        if single {
            break;
        }
    }
    out
}

/// Packages of a `requirements*.txt` line.
fn requirement_line(line: &str) -> Option<Package> {
    let l = line.split(" #").next().unwrap_or("").trim();
    if l.is_empty() || l.starts_with('#') || l.starts_with('-') {
        return None;
    }
    let mut p = package_arg(Ecosystem::PyPI, l)?;
    p.pinned = l.contains("==") || l.contains(" @ ");
    Some(p)
}

fn is_requirements_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    name.starts_with("requirements") && name.ends_with(".txt")
}

/// Splits a line into command segments (`&&`, `||`, `;`, `|`).
fn segments(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if matches!(b[i], b';' | b'|' | b'&' | b'`' | b'(' | b')') {
            out.push((start, &line[start..i]));
            start = i + 1;
        }
        i += 1;
    }
    out.push((start, &line[start..]));
    out.into_iter()
}

fn check_packages(scx: &mut SecCx<'_, '_>) {
    // (source, offset, packages of one command, the command)
    let mut found: Vec<(usize, usize, Vec<Package>, String)> = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        let text: &str = &src.text;
        if is_requirements_file(src.path) {
            let mut off = 0;
            let mut pk = Vec::new();
            let mut first = None;
            for line in text.split_inclusive('\n') {
                if let Some(p) = requirement_line(line) {
                    if !p.pinned && first.is_none() {
                        first = Some(off);
                    }
                    pk.push(p);
                }
                off += line.len();
            }
            if !pk.is_empty() {
                found.push((si, first.unwrap_or(0), pk, format!("`{}`", show(src.path))));
            }
            continue;
        }
        for reg in &src.regions {
            let RegionKind::Code {
                lang,
                runnable: true,
                ..
            } = reg.kind
            else {
                continue;
            };
            if !matches!(lang, Lang::Shell | Lang::PowerShell) {
                continue;
            }
            let body = &text[reg.start..reg.end];
            let mut off = reg.start;
            for line in body.split_inclusive('\n') {
                if line.contains("install")
                    || line.contains("add")
                    || line.contains("npx")
                    || line.contains("bunx")
                    || line.contains("pnpx")
                {
                    for (s, seg) in segments(line.trim_end()) {
                        let pk = parse_install(seg);
                        if !pk.is_empty() {
                            found.push((si, off + s, pk, format!("`{}`", show(seg))));
                        }
                    }
                }
                off += line.len();
            }
        }
    }
    let mut seen = BTreeSet::new();
    for (si, off, pk, cmd) in found {
        let unpinned: Vec<&str> = pk
            .iter()
            .filter(|p| !p.pinned && !TOOLING.contains(&p.name.as_str()))
            .map(|p| p.name.as_str())
            .collect();
        if !unpinned.is_empty() {
            let mut list: Vec<String> = unpinned.iter().take(6).map(|n| format!("`{n}`")).collect();
            if unpinned.len() > 6 {
                list.push(format!("and {} more", unpinned.len() - 6));
            }
            scx.emit_at(
                INSTALL_UNPINNED_PACKAGE,
                si,
                off,
                format!(
                    "{cmd} installs package(s) without an exact version: {}. Whatever the registry serves on the day runs on the user's machine, including a compromised release. Pin versions (`name==1.2.3`, `name@1.2.3`) or use a lock file.",
                    list.join(", ")
                ),
                &format!("unpinned:{}", unpinned.join(",")),
            );
        }
        for p in &pk {
            if !seen.insert((p.eco, p.name.clone())) {
                continue;
            }
            if let Some(hit) = typosquat::lookalike(p.eco, &p.name) {
                let (sev, how) = if hit.confusable {
                    (
                        Severity::High,
                        "differs from it only by look-alike characters or separators",
                    )
                } else {
                    (Severity::High, "is a small edit away from it")
                };
                scx.emit_at_severity(
                    PACKAGE_TYPOSQUAT,
                    sev,
                    si,
                    off,
                    format!(
                        "{cmd} installs `{}`, which resembles the popular {} package `{}` and {how}: a typosquat runs its install scripts with the user's rights. Check the name; install `{}` if that was meant.",
                        show(&p.name),
                        p.eco.label(),
                        hit.popular,
                        hit.popular
                    ),
                    &format!("typosquat:{}", p.name),
                );
            }
        }
    }
}

pub fn check(scx: &mut SecCx<'_, '_>) {
    if let Some(tools) = check_allowed_tools(scx) {
        check_undeclared(scx, &tools);
    }
    check_mcp(scx);
    check_packages(scx);
}

/// The publisher of a skill at `path`: the repository of the scan it is in (the longest
/// repository path it lies under, `""` for a single root) and, in the OpenClaw layout
/// `skills/<owner>/<name>`, the owner.
fn publisher<'p>(path: &'p str, repos: &'p [String]) -> (&'p str, &'p str) {
    let repo = repos
        .iter()
        .filter(|r| r.is_empty() || path == r.as_str() || path.starts_with(&format!("{r}/")))
        .max_by_key(|r| r.len())
        .map_or("", |r| r.as_str());
    let rest = path[repo.len().min(path.len())..].trim_start_matches('/');
    let comps: Vec<&str> = rest.split('/').filter(|c| !c.is_empty()).collect();
    let owner = match comps.len() {
        n if n >= 3 && comps[n - 3] == "skills" => comps[n - 2],
        _ => "",
    };
    (repo, owner)
}

/// Does some copy of `a` share a publisher with some copy of `b`?
fn same_publisher(
    pubs: &std::collections::HashMap<&str, Vec<(&str, &str)>>,
    a: &str,
    b: &str,
) -> bool {
    let (Some(pa), Some(pb)) = (pubs.get(a), pubs.get(b)) else {
        return false;
    };
    pb.iter().any(|p| pa.contains(p))
}

/// `a` and `b` differ in one place by letters that look alike in ASCII once lower-cased
/// (`pdf-tooIs` is `pdf-toois`: `i`/`l`/`1`, `o`/`0`).
fn ascii_lookalike(a: &str, b: &str) -> bool {
    let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if ca.len() != cb.len() {
        return false;
    }
    let diff: Vec<usize> = (0..ca.len()).filter(|&i| ca[i] != cb[i]).collect();
    let class = |c: char| match c.to_ascii_lowercase() {
        'i' | 'l' | '1' | '|' => 1,
        'o' | '0' => 2,
        _ => 0,
    };
    diff.len() == 1 && {
        let (x, y) = (class(ca[diff[0]]), class(cb[diff[0]]));
        x != 0 && x == y
    }
}

/// `a` and `b` differ only by a swap of two adjacent characters.
fn transposed(a: &str, b: &str) -> bool {
    let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if ca.len() != cb.len() {
        return false;
    }
    let diff: Vec<usize> = (0..ca.len()).filter(|&i| ca[i] != cb[i]).collect();
    diff.len() == 2
        && diff[1] == diff[0] + 1
        && ca[diff[0]] == cb[diff[1]]
        && ca[diff[1]] == cb[diff[0]]
}

/// Removes a trailing version or number (`pdf2`, `reports-v2`, `tool-1.0`).
fn family_stem(name: &str) -> &str {
    let t = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let t = t
        .strip_suffix("-v")
        .or_else(|| t.strip_suffix('v').filter(|_| t.len() < name.len()))
        .unwrap_or(t);
    t.trim_end_matches(['-', '_'])
}

/// Names that differ in one hyphen-separated word of at most 4 characters are a
/// family (`ceo-advisor`, `cfo-advisor`; `pdf-tools`, `pptx-tools`), not a typo.
fn differs_in_short_word(a: &str, b: &str) -> bool {
    let (wa, wb): (Vec<&str>, Vec<&str>) =
        (a.split(['-', '_']).collect(), b.split(['-', '_']).collect());
    if wa.len() != wb.len() {
        return false;
    }
    let diff: Vec<usize> = (0..wa.len()).filter(|&i| wa[i] != wb[i]).collect();
    diff.len() == 1 && wa[diff[0]].len().min(wb[diff[0]].len()) <= 4
}

/// Skill names published by vendors (`anthropics/skills`' `skill-creator`…): `(repository,
/// name, skeleton)`, from `vendor_skills.txt`; names under 6 characters are not compared.
static VENDOR_SKILLS: std::sync::LazyLock<Vec<(&'static str, &'static str, String)>> =
    std::sync::LazyLock::new(|| {
        include_str!("vendor_skills.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once(' '))
            .map(|(repo, name)| (repo, name, typosquat::skeleton(name)))
            .collect()
    });

/// The vendor skill a name imitates: one edit away (or the same letters with look-alike
/// characters or separators), not a vendor name itself, not a family variant
/// (`skill-creator-v2`, `pdf-tools`), and the vendor name at least 6 characters long.
pub fn vendor_lookalike(name: &str) -> Option<(&'static str, &'static str)> {
    if name.len() < 6 || name.len() > 120 || VENDOR_SKILLS.iter().any(|v| v.1 == name) {
        return None;
    }
    let sk = typosquat::skeleton(name);
    VENDOR_SKILLS
        .iter()
        .find(|(_, v, vsk)| {
            v.len() >= 6
                && name.len().abs_diff(v.len()) <= 2
                && family_stem(name) != family_stem(v)
                // `cfo-advisor` beside `ceo-advisor` is a family; `skil-creator` (a letter
                // dropped) or `skill-craetor` (two swapped) imitates `skill-creator`.
                && (!differs_in_short_word(name, v)
                    || name.len() != v.len()
                    || transposed(name, v))
                && (*vsk == sk
                    || ascii_lookalike(name, v)
                    || typosquat::distance_at_most(name, v, 1))
        })
        .map(|(repo, v, _)| (*repo, *v))
}

/// Skills named one edit away from a published vendor skill (`skil-creator`): medium, high
/// when the skill also delivers a payload or bypasses the installer warning (as
/// `brand-impersonation`).
fn vendor_lookalikes(
    skills: &[(String, String, String)],
    names: &[&str],
    findings: &[Finding],
) -> Vec<Finding> {
    let mut out = Vec::new();
    for &n in names {
        let Some((repo, v)) = vendor_lookalike(n) else {
            continue;
        };
        for s in skills.iter().filter(|s| s.0 == n) {
            let delivers = findings.iter().find(|f| {
                f.skill_path.as_deref() == Some(s.1.as_str())
                    && (crate::security::model::delivers_payload(f)
                        || f.rule_id == "installer-warning-bypass")
            });
            let msg = format!(
                "skill name `{}` is a small edit away from `{v}`, a skill published in `{repo}`: a look-alike of a well-known skill is installed and invoked in its place. Name the skill for what it does, or install the vendor's own `{v}`.",
                show(n)
            );
            let mut f = Finding::new(SKILL_NAME_TYPOSQUAT, msg, Location::file(s.2.clone()))
                .for_skill(Some(&s.0), Some(&s.1), &format!("vendor-typosquat:{v}"));
            if let Some(d) = delivers {
                crate::security::severity::raise(
                    &mut f,
                    Severity::High,
                    &format!(
                        "the look-alike skill also makes its user run something (`{}`)",
                        d.rule_id
                    ),
                );
                f = f.with_related(d.location.clone(), format!("`{}` here", d.rule_id));
            }
            out.push(f);
        }
    }
    out
}

/// Skill names that typosquat other skills of the same scan (needs every skill).
pub fn check_scan(result: &mut crate::result::ScanResult) {
    let mut skills: Vec<(String, String, String)> = result
        .artifacts
        .iter()
        .map(|a| {
            (
                a.name.to_ascii_lowercase(),
                a.path.clone(),
                if a.path.is_empty() {
                    a.entry.clone()
                } else {
                    format!("{}/{}", a.path, a.entry)
                },
            )
        })
        .collect();
    skills.sort();
    let names: BTreeSet<&str> = skills.iter().map(|s| s.0.as_str()).collect();
    let names: Vec<&str> = names.into_iter().collect();
    let repo_paths: Vec<String> = result.repos.iter().map(|r| r.path.clone()).collect();
    let mut pubs: std::collections::HashMap<&str, Vec<(&str, &str)>> = Default::default();
    for s in &skills {
        pubs.entry(s.0.as_str())
            .or_default()
            .push(publisher(&s.1, &repo_paths));
    }
    let mut added = vendor_lookalikes(&skills, &names, &result.findings);
    if names.len() < 2 || names.len() > 5000 {
        finish_scan_findings(result, added);
        return;
    }
    // Candidate pairs without comparing every pair: names one edit apart share a
    // one-character deletion (or one is the other's deletion), and confusable names
    // share a skeleton. Each candidate is then checked exactly as before.
    let mut buckets: std::collections::HashMap<String, Vec<usize>> =
        std::collections::HashMap::new();
    let skeletons: Vec<String> = names.iter().map(|n| typosquat::skeleton(n)).collect();
    for (i, n) in names.iter().enumerate() {
        if n.len() < 6 {
            continue;
        }
        buckets
            .entry(format!("s\0{}", skeletons[i]))
            .or_default()
            .push(i);
        buckets.entry(format!("d\0{n}")).or_default().push(i);
        for (k, c) in n.char_indices() {
            let mut d = String::with_capacity(n.len());
            d.push_str(&n[..k]);
            d.push_str(&n[k + c.len_utf8()..]);
            buckets.entry(format!("d\0{d}")).or_default().push(i);
        }
    }
    let mut candidates: BTreeSet<(usize, usize)> = BTreeSet::new();
    for v in buckets.values() {
        for (x, &i) in v.iter().enumerate() {
            for &j in &v[x + 1..] {
                if i != j {
                    candidates.insert((i.min(j), i.max(j)));
                }
            }
        }
    }
    let mut pairs = Vec::new();
    for (i, j) in candidates {
        let (a, b) = (names[i], names[j]);
        if a.len().abs_diff(b.len()) > 2 {
            continue;
        }
        if family_stem(a) == family_stem(b) || differs_in_short_word(a, b) {
            continue;
        }
        let confusable = skeletons[i] == skeletons[j] || ascii_lookalike(a, b);
        // Siblings of one repository or publisher are a family (`x-nunit`, `x-xunit`), not
        // typosquats of each other: among them only a look-alike or a swap of two adjacent
        // letters (`expense-reprot`) is a misspelling worth reporting.
        // Names are lower-cased here, so a capital `I` posing as `l` reads as `i`.
        let looks_alike = confusable
            || typosquat::skeleton(&a.replace('i', "l"))
                == typosquat::skeleton(&b.replace('i', "l"));
        if !looks_alike && !transposed(a, b) && same_publisher(&pubs, a, b) {
            continue;
        }
        // One edit (a transposition counts as one): two-edit pairs in real collections
        // are families (`senior-devops`, `senior-secops`), not typos.
        if confusable || typosquat::distance_at_most(a, b, 1) {
            pairs.push((a.to_string(), b.to_string(), confusable));
        }
    }
    let pairs: Vec<(String, String, bool)> = pairs
        .into_iter()
        .flat_map(|(a, b, c)| [(a.clone(), b.clone(), c), (b, a, c)])
        .collect();
    for (a, b, confusable) in pairs {
        // Report on every copy of `b`, pointing at (the first copy of) `a`.
        let Some(other) = skills.iter().find(|s| s.0 == a) else {
            continue;
        };
        for s in skills.iter().filter(|s| s.0 == b) {
            let how = if confusable {
                "differs only by look-alike characters or separators"
            } else {
                "is a small edit away"
            };
            let msg = format!(
                "skill name `{}` {how} from the skill `{}` at `{}` in the same scan: a look-alike skill can be invoked in place of the one the user meant. Rename one of them, or remove the impostor.",
                show(&b),
                show(&a),
                show(&other.2)
            );
            let f = Finding::new(SKILL_NAME_TYPOSQUAT, msg, Location::file(s.2.clone()))
                .with_related(
                    Location::file(other.2.clone()),
                    format!("the skill `{}`", show(&a)),
                )
                .for_skill(Some(&s.0), Some(&s.1), &format!("name-typosquat:{a}"));
            added.push(f);
        }
    }
    finish_scan_findings(result, added);
}

/// Adds the scan-wide findings to the result and to their repositories' counts.
fn finish_scan_findings(result: &mut crate::result::ScanResult, added: Vec<Finding>) {
    if added.is_empty() {
        return;
    }
    for f in &added {
        let repo = if result.repos.len() == 1 {
            result.repos.first_mut()
        } else {
            let k = f.location.path.split('/').next().unwrap_or("");
            result.repos.iter_mut().find(|r| r.path == k)
        };
        if let Some(r) = repo {
            r.findings += 1;
            r.counts.add(f.severity);
        }
    }
    result.findings.extend(added);
    crate::finding::sort_findings(&mut result.findings);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vendor_skill_lookalikes() {
        for (name, v) in [
            ("skil-creator", "skill-creator"),
            ("skill-craetor", "skill-creator"),
            ("skill-creater", "skill-creator"),
            ("mcp-bulder", "mcp-builder"),
            ("systematic-debuging", "systematic-debugging"),
        ] {
            assert_eq!(vendor_lookalike(name).map(|h| h.1), Some(v), "{name}");
        }
        for name in [
            "skill-creator",
            "skill-creator-v2",
            "pdf-creator",
            "docs",
            "pptx2",
            "brainstorming",
            "code-review",
        ] {
            assert_eq!(vendor_lookalike(name), None, "{name}");
        }
    }
    use crate::security::correlate::grants::*;

    fn names(s: &str) -> Vec<(String, bool)> {
        parse_install(s)
            .into_iter()
            .map(|p| (p.name, p.pinned))
            .collect()
    }

    #[test]
    fn install_commands() {
        assert_eq!(
            names("pip install -q requests==2.31.0 pandas>=2 -r requirements.txt -e ."),
            vec![("requests".into(), true), ("pandas".into(), false)]
        );
        assert_eq!(
            names("npm i -g @scope/tool@1.2.3 left-pad"),
            vec![("@scope/tool".into(), true), ("left-pad".into(), false)]
        );
        assert_eq!(
            names("npx -y @modelcontextprotocol/server-filesystem /tmp"),
            vec![("@modelcontextprotocol/server-filesystem".into(), false)]
        );
        assert_eq!(names("pip install ./dist/pkg.whl"), vec![]);
        assert_eq!(
            names("python3 -m pip install Pillow"),
            vec![("pillow".into(), false)]
        );
        assert_eq!(names("echo pip install x"), vec![]);
        // A value option's number is not a package.
        assert_eq!(
            names("uv pip install --jobs 1 package"),
            vec![("package".into(), false)]
        );
        assert_eq!(
            names("pip install --timeout 60 --retries 3 httpx==0.27.0"),
            vec![("httpx".into(), true)]
        );
        assert_eq!(
            names("cargo install ripgrep --version 14.1.0"),
            vec![("ripgrep".into(), true)]
        );
    }

    #[test]
    fn tools() {
        assert!(unrestricted_shell(&parse_tool("Bash")));
        assert!(unrestricted_shell(&parse_tool("Bash(*)")));
        assert!(!unrestricted_shell(&parse_tool("Bash(git status:*)")));
        assert_eq!(network_grant(&parse_tool("Bash(curl:*)")), Some("curl"));
        assert_eq!(network_grant(&parse_tool("Bash(git:*)")), None);
    }

    #[test]
    fn enabled_rules_are_catalog_rules() {
        for id in SHELL_ENABLES
            .iter()
            .chain(NETWORK_ENABLES)
            .chain(WRITE_ENABLES)
        {
            assert!(crate::catalog::get(id).is_some(), "{id}");
        }
    }

    #[test]
    fn families() {
        assert_eq!(family_stem("pdf-tools2"), "pdf-tools");
        assert_eq!(family_stem("report-v2"), "report");
        assert_eq!(family_stem("report"), "report");
        assert!(differs_in_short_word("ceo-advisor", "cfo-advisor"));
        assert!(!differs_in_short_word("expense-report", "expense-reprot"));
    }
}
