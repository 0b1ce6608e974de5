//! Hosts and origins: where a URL points (a vendor's installer, a code host's owner and
//! repository, a request catcher or a raw IP), and whether it belongs to the skill itself.

use std::sync::LazyLock;

use regex::Regex;

use crate::security::model::SecCx;

static URL: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(r#"(?i)\b(https?)://([^\s/"'`|)<>;?#]+)([^\s"'`|)<>;]*)"#)
});

/// Hosts whose install scripts are published for `curl | sh` by the vendor.
const KNOWN_INSTALLERS: &[&str] = &[
    "sh.rustup.rs",
    "static.rust-lang.org",
    "get.docker.com",
    "test.docker.com",
    "brew.sh",
    "astral.sh",
    "install.python-poetry.org",
    "bun.sh",
    "deno.land",
    "deno.com",
    "get.pnpm.io",
    "get.helm.sh",
    "get.sdkman.io",
    "ollama.com",
    "claude.ai",
    "fnm.vercel.app",
    "starship.rs",
    "get.k3s.io",
    "tailscale.com",
    "deb.nodesource.com",
    "rpm.nodesource.com",
    "install.determinate.systems",
    "nixos.org",
    "opencode.ai",
    "cursor.com",
    "mise.run",
    "get.volta.sh",
    "pixi.sh",
    "micro.mamba.pm",
    "cli.doppler.com",
    "fly.io",
    "railway.app",
    "supabase.com",
    "vercel.com",
    "cli.github.com",
    "sentry.io",
    "foundry.paradigm.xyz",
    "get.jenkins.io",
    "install.meteor.com",
    "getcomposer.org",
    "yarnpkg.com",
    "get.rvm.io",
    "dot.net",
    "dotnet.microsoft.com",
    "aka.ms",
    "packages.microsoft.com",
    "cloud.google.com",
    "sdk.cloud.google.com",
    "awscli.amazonaws.com",
    "raw.githubusercontent.com/homebrew/",
    "raw.githubusercontent.com/nvm-sh/",
    "raw.githubusercontent.com/helm/",
    "raw.githubusercontent.com/pypa/",
    "raw.githubusercontent.com/python-poetry/",
    "raw.githubusercontent.com/rbenv/",
    "raw.githubusercontent.com/pyenv/",
    "pyenv.run",
    "github.com/astral-sh/",
    "github.com/anthropics/",
    "github.com/openai/",
    "modular.com",
    "get.modular.com",
    "install.lunarvim.org",
    "get.haskell.org",
    "get-ghcup.haskell.org",
    "sh.vector.dev",
    "get.trunk.io",
    "dprint.dev",
    "rye.astral.sh",
    "apt.llvm.org",
    // Windows and other vendors' documented one-line installers.
    "community.chocolatey.org",
    "chocolatey.org",
    "get.scoop.sh",
    "bootstrap.pypa.io",
    "install.julialang.org",
    "raw.githubusercontent.com/ohmyzsh/",
    "install.ohmyz.sh",
    // Metasploit's documented installer (docs.metasploit.com, "Installing Metasploit").
    "raw.githubusercontent.com/rapid7/metasploit-omnibus/",
];

/// Hosts that serve anonymous, mutable content: paste sites, shorteners, tunnels.
const HOSTILE_HOSTS: &[&str] = &[
    "pastebin.com",
    "paste.ee",
    "hastebin.com",
    "glot.io",
    "rentry.co",
    "rentry.org",
    "paste.rs",
    "dpaste.org",
    "dpaste.com",
    "ghostbin.co",
    "controlc.com",
    "justpaste.it",
    "transfer.sh",
    "file.io",
    "0x0.st",
    "temp.sh",
    "bit.ly",
    "tinyurl.com",
    "is.gd",
    "t.co",
    "goo.gl",
    "rebrand.ly",
    "cutt.ly",
    "ngrok.io",
    "ngrok-free.app",
    "ngrok-free.dev",
    "ngrok.dev",
    "ngrok.app",
    "trycloudflare.com",
    "loca.lt",
    "serveo.net",
    "webhook.site",
    "discord.com",
    "cdn.discordapp.com",
    "anonfiles.com",
    "catbox.moe",
];

fn host_matches(host_path: &str, entry: &str) -> bool {
    if entry.contains('/') {
        return host_path.starts_with(entry);
    }
    let host = host_path.split('/').next().unwrap_or("");
    host == entry || host.ends_with(&format!(".{entry}"))
}

/// This machine: a host name or address (no scheme, no port) the traffic never leaves.
pub(crate) fn is_loopback(host: &str) -> bool {
    matches!(
        host,
        "localhost" | "127.0.0.1" | "0.0.0.0" | "[::1]" | "::1"
    )
}

pub(crate) fn is_public_ipv4(host: &str) -> bool {
    let parts: Vec<&str> = host.split('.').collect();
    if parts.len() != 4 || !parts.iter().all(|p| p.parse::<u8>().is_ok()) {
        return false;
    }
    let o: Vec<u8> = parts.iter().map(|p| p.parse().unwrap_or(0)).collect();
    !(o[0] == 127
        || o[0] == 10
        || o[0] == 0
        || (o[0] == 192 && o[1] == 168)
        || (o[0] == 172 && (16..32).contains(&o[1]))
        || (o[0] == 169 && o[1] == 254))
}

/// How risky is the source of a fetched script?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// The vendor's published installer.
    KnownInstaller,
    /// Some HTTPS host.
    Unknown,
    /// A gist or a raw file of an arbitrary GitHub repository.
    UserContent,
    /// Plain HTTP, a bare public IP, a paste site, a shortener or a tunnel.
    Hostile,
    /// No URL on the line (variable or redirect).
    Unseen,
}

/// Where the worst URL on `line` points, and its `scheme://host` (for the chains).
pub(crate) fn origin_of(line: &str) -> (Origin, String) {
    origin(line)
}

pub(crate) fn origin(line: &str) -> (Origin, String) {
    let mut worst = (Origin::Unseen, String::new());
    for c in URL.captures_iter(line) {
        let scheme = c[1].to_ascii_lowercase();
        // The authority without user info (`user@`, `sh.rustup.rs:443@evil.example`), port
        // and a trailing root dot: the host the request really goes to.
        let authority = c[2].rsplit('@').next().unwrap_or("");
        let host = authority
            .split(':')
            .next()
            .unwrap_or("")
            .trim_end_matches('.')
            .to_ascii_lowercase();
        let path = c.get(3).map_or("", |m| m.as_str()).to_ascii_lowercase();
        let host_path = format!("{host}{path}");
        let plain_http = scheme == "http" && !matches!(host.as_str(), "localhost" | "127.0.0.1");
        let o = if plain_http
            || is_public_ipv4(&host)
            || HOSTILE_HOSTS.iter().any(|h| host_matches(&host, h))
        {
            Origin::Hostile
        } else if KNOWN_INSTALLERS.iter().any(|h| host_matches(&host_path, h)) {
            Origin::KnownInstaller
        } else if host == "gist.githubusercontent.com"
            || host == "gist.github.com"
            || host == "raw.githubusercontent.com"
        {
            Origin::UserContent
        } else {
            Origin::Unknown
        };
        let rank = |o: Origin| match o {
            Origin::KnownInstaller => 0,
            Origin::Unseen => 1,
            Origin::Unknown => 2,
            Origin::UserContent => 3,
            Origin::Hostile => 4,
        };
        if worst.1.is_empty() || rank(o) > rank(worst.0) {
            worst = (
                o,
                crate::text::sanitize_line(&crate::text::truncate(
                    &format!("{scheme}://{host}"),
                    80,
                ))
                .into_owned(),
            );
        }
    }
    worst
}

/// Is `url`'s host the project the skill is about? Its registrable label (`fluxcd` of
/// `https://fluxcd.io`, `linkerd` of `https://run.linkerd.io`) is named by, or starts with a word
/// of, the skill's name or description. Then a `curl … | sh` from it is the vendor's documented
/// installer: worth a look (medium), not a block. Plain HTTP and bare IPs never get here.
pub(crate) fn subject_host(scx: &SecCx<'_, '_>, url: &str) -> bool {
    let Some(root) = scx.doc.and_then(|d| d.root()) else {
        return false;
    };
    let mut subject = String::new();
    for k in ["name", "description"] {
        if let Some(v) = root.get(k).and_then(|v| v.as_str()) {
            subject.push_str(&v.to_ascii_lowercase());
            subject.push(' ');
        }
    }
    url_matches_subject(&subject, url)
}

/// Labels of a URL that name its owner: the registrable domain's label, and on a code host
/// (`github.com`, `raw.githubusercontent.com`, `gitlab.com`…) the owner and repository of the
/// path (`unslothai/unsloth`, `render-oss/cli`), each also split at `-`/`_`.
pub(crate) fn owner_labels(url: &str) -> Vec<String> {
    const GENERIC: &[&str] = &[
        "github",
        "githubusercontent",
        "gitlab",
        "bitbucket",
        "codeberg",
        "example",
        "amazonaws",
        "cloudfront",
        "azureedge",
        "googleapis",
        "storage",
        "download",
        "downloads",
        "install",
        "installer",
        "scripts",
        "cdn",
        "raw",
        "files",
        "static",
        "releases",
        "release",
        "latest",
        "main",
        "master",
        "get",
        "run",
        "tools",
        "utils",
        "setup",
    ];
    let rest = url.split("://").nth(1).unwrap_or(url);
    let host = rest
        .split(['/', ':', '?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let labels: Vec<&str> = host.split('.').collect();
    let mut out: Vec<String> = Vec::new();
    if let Some(l) = labels.len().checked_sub(2).and_then(|i| labels.get(i)) {
        out.push((*l).to_owned());
    }
    const CODE_HOSTS: &[&str] = &[
        "github.com",
        "raw.githubusercontent.com",
        "objects.githubusercontent.com",
        "gitlab.com",
        "codeberg.org",
        "bitbucket.org",
    ];
    if CODE_HOSTS.contains(&host.as_str()) {
        let path = rest.split_once('/').map_or("", |(_, p)| p);
        for seg in path.split('/').take(2) {
            let seg = seg.to_ascii_lowercase();
            out.extend(seg.split(['-', '_', '.']).map(str::to_owned));
            out.push(seg);
        }
    }
    out.retain(|l| {
        l.len() >= 4 && !GENERIC.contains(&l.as_str()) && !l.bytes().all(|b| b.is_ascii_digit())
    });
    out
}

/// Does one of the URL's [`owner_labels`] name the subject (a word of the skill's name or
/// description, alone or with a short vendor suffix: `fluxcd`, `unslothai`)?
pub(crate) fn url_matches_subject(subject: &str, url: &str) -> bool {
    // The label is a word of the subject, or a word plus a short vendor suffix (`fluxcd`,
    // `linkerd`): a domain that merely starts with the subject (`pdf-tools-cdn`) is not.
    const SUFFIXES: &[&str] = &[
        "", "cd", "hq", "io", "sh", "dev", "app", "labs", "cli", "js", "db", "ai", "oss", "inc",
        "team", "org",
    ];
    let labels = owner_labels(url);
    if labels.is_empty() {
        return false;
    }
    subject
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 4)
        .any(|w| {
            labels.iter().any(|label| {
                label
                    .strip_prefix(w)
                    .is_some_and(|rest| SUFFIXES.contains(&rest))
            })
        })
}
