//! `download-then-execute`: a file downloaded (`curl -o`, `wget`, `urlretrieve`,
//! `Invoke-WebRequest -OutFile`, `open(…, "wb")` of a response…) and then made executable
//! or run, on a later line or in another file of the skill. One finding per download,
//! with the execution as its related location.
//!
//! **Cost.** Every regex here is compiled once. An earlier version compiled a dozen
//! execution regexes per downloaded file name and ran each over every file, so 100 KB of
//! `curl -o NAME` lines took 9 s and 1 MB did not finish. Now the execution
//! forms are split into a *prefix* (the command, up to where its path starts) searched
//! once per file, and the path after each prefix is matched against all downloaded names
//! at once: a trie of the names reversed is walked back from each place a path can end.
//! A name is a file name, at most [`MAX_NAME`] bytes, so each walk is bounded and the
//! whole check is linear in the text.

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;

use crate::finding::{Location, Severity};
/// Rule id of a download that is later run (also raised by the shell family).
pub const DOWNLOAD_THEN_EXECUTE: &str = "download-then-execute";
use crate::security::model::context::{excerpt, is_live};
use crate::security::model::{SecCx, SignalKind, Source};

/// Downloads to a named file. Group `p` is the path (or the URL, for `curl -O` and
/// `wget` without `-O`, whose file is the URL's last segment).
static DOWNLOADS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // curl … -o PATH / --output PATH (either side of the URL)
        r#"(?i)\bcurl\b[^\n|;]*\s(-o|--output)\s*["']?(?P<p>[^\s"';|&)]+)"#,
        // curl -O URL / curl -LO URL
        r#"(?i)\bcurl\b[^\n|;]*\s-[a-z]*O[a-z]*\s+[^\n|;]*?["']?(?P<p>https?://[^\s"';|&)]+)"#,
        // wget -O PATH
        r#"(?i)\bwget\b[^\n|;]*\s(-O|--output-document[=\s])\s*["']?(?P<p>[^\s"';|&)-][^\s"';|&)]*)"#,
        // wget URL (saved under its last segment)
        r#"(?i)\bwget\s+(-[a-z]+\s+)*["']?(?P<p>https?://[^\s"';|&)]+)["']?\s*($|[;&|\n])"#,
        // urlretrieve(URL, PATH)
        r#"(?i)\burlretrieve\(\s*[^,\n]+,\s*(f?["'](?P<p>[^"'\n]+)["']|(?P<v>[A-Za-z_]\w*))"#,
        // Invoke-WebRequest … -OutFile PATH, Start-BitsTransfer -Destination PATH
        r#"(?i)\b(Invoke-WebRequest|iwr|Invoke-RestMethod|irm|Start-BitsTransfer)\b[^\n|;]*\s-(OutFile|Destination)\s+["']?(?P<p>[^\s"';|]+)"#,
        // WebClient.DownloadFile(URL, PATH)
        r#"(?i)\.DownloadFile\(\s*[^,\n]+,\s*["'](?P<p>[^"'\n]+)["']"#,
        // open(PATH, "wb") … in a file that fetches (checked below)
        r#"(?i)\bopen\(\s*(f?["'](?P<p>[^"'\n]+)["']|(?P<v>[A-Za-z_]\w*))\s*,\s*["']wb["']"#,
        // fs.createWriteStream(PATH) / fs.writeFileSync(PATH, …) in a file that fetches
        r#"(?i)\b(createWriteStream|writeFileSync|writeFile)\(\s*(["'`](?P<p>[^"'`\n]+)["'`]|(?P<v>[A-Za-z_]\w*))"#,
    ]
    .iter()
    .map(|r| crate::security::model::datarules::re(r))
    .collect()
});

/// The downloads that need a fetch elsewhere in the same file (writes of response bytes).
const WRITE_FORMS: std::ops::Range<usize> = 7..9;

static FETCHES: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)\b(requests\.get|httpx\.get|urlopen|urllib\.request|fetch\(|axios\.get|https?\.get\(|got\(|\.iter_content\()",
    )
});

/// Checksum or signature verification between a download and its execution.
static VERIFIED: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(
        r"(?i)\b(sha(256|512|1)?sum\s+(-c|--check)|shasum\s+(-a\s+\d+\s+)?(-c|--check)|Get-FileHash|hashlib\.sha(256|512)|gpg\s+--verify|cosign\s+verify|minisign\s+-V|openssl\s+dgst)",
    )
});

/// A variable's string value assigned in a file (`P = "/tmp/x.sh"`): group `n` is the
/// variable, `v` or `j` the value.
static ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?m)\b(?P<n>[A-Za-z_]\w*)\s*=\s*(f?["'](?P<v>[^"'\n]+)["']|os\.path\.join\([^\n]*["'](?P<j>[^"'\n]+)["']\s*\))"#,
    )
    .expect("assignment regex")
});

/// The longest file name followed (a file name's limit on every common file system).
const MAX_NAME: usize = 255;

/// How the downloaded file's name follows an execution form's prefix.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// The path starts where the prefix ends and runs to the next space or quote; the
    /// name ends it (`bash ./x/install.sh`) or a `;&|)`,]` inside it (`sh a.sh;`).
    Path,
    /// The name is anywhere on the rest of the line (`subprocess.run([…, "a.sh"])`).
    Line,
}

/// Execution forms of a named file: the regex matches up to where the path starts.
static EXEC_PREFIXES: LazyLock<Vec<(Regex, Tail)>> = LazyLock::new(|| {
    [
        (
            r#"(?i)\bchmod\s+(\+x|u\+x|a\+x|[0-7]*[1357][0-7]*)\s+["']?"#,
            Tail::Path,
        ),
        (
            r#"(?i)\b((ba|z|k|da)?sh|source|python[0-9.]*|node|perl|ruby|php|pwsh|powershell(\.exe)?|bun|deno\s+run|java\s+-jar|msiexec(\.exe)?\s+/i|Start-Process|rundll32|regsvr32|cscript|wscript)\s+(-\S+\s+)*["']?"#,
            Tail::Path,
        ),
        (
            r#"(?im)(^\s*|[;&|(`]\s*|\$\(\s*|\b(nohup|sudo|exec|time|timeout\s+\d+)\s+|["']\s*,\s*|\[\s*)["']?(\./|/tmp/|~/|\$HOME/|\$\{HOME\}/|/var/tmp/|/dev/shm/|\$env:TEMP\\|%TEMP%\\)"#,
            Tail::Path,
        ),
        (
            r#"(?i)\b(subprocess\.\w+|os\.system|os\.popen|os\.exec\w*|execFile(Sync)?|spawn(Sync)?|exec(Sync)?|Popen|check_output|check_call)\("#,
            Tail::Line,
        ),
        (r#"(?i)\bexec\(\s*open\("#, Tail::Line),
        (r#"(?i)(^|[\s;])&\s+["']?"#, Tail::Path),
        (
            r#"(?i)\b(import|__import__|importlib\.import_module|require)\s*\(?\s*["']?\.?/?"#,
            Tail::Path,
        ),
    ]
    .iter()
    .map(|(r, t)| (crate::security::model::datarules::re(r), *t))
    .collect()
});

/// What must follow a variable's reference for a [`VAR_PREFIXES`] form to match.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    Nothing,
    /// An optional quote, then white space (`nohup "$out" &`).
    Space,
    /// An executable mode later on the line (`os.chmod(path, 0o755)`).
    ExecMode,
}

/// Execution forms of a variable holding the downloaded file's path: the regex matches
/// up to where the reference (`$out`, `${out}`, `path`) starts.
static VAR_PREFIXES: LazyLock<Vec<(Regex, After)>> = LazyLock::new(|| {
    [
        (
            r#"(?i)\bchmod\s+(\+x|u\+x|a\+x|[0-7]*[1357][0-7]*)\s+["']?"#,
            After::Nothing,
        ),
        (r#"(?i)\bos\.chmod\(\s*"#, After::ExecMode),
        (
            r#"(?i)\b((ba|z|k|da)?sh|source|python[0-9.]*|node|pwsh|powershell(\.exe)?|Start-Process|rundll32|regsvr32|msiexec(\.exe)?\s+/i)\s+(-\S+\s+)*["']?"#,
            After::Nothing,
        ),
        (r#"(?m)^\s*["']?"#, After::Space),
        (r#"[;&|(]\s*["']?"#, After::Space),
        (r#"(?i)\b(nohup|sudo|exec)\s+["']?"#, After::Space),
        (
            r#"(?i)\b(subprocess\.\w+|os\.system|os\.popen|os\.exec\w*|execFile(Sync)?|spawn(Sync)?|Popen|check_output|check_call|run)\(\s*\[?\s*"#,
            After::Nothing,
        ),
        (r#"(?i)(^|[\s;])&\s+["']?"#, After::Nothing),
    ]
    .iter()
    .map(|(r, a)| (crate::security::model::datarules::re(r), *a))
    .collect()
});

static EXEC_MODE: LazyLock<Regex> = LazyLock::new(|| {
    crate::security::model::datarules::re(r"(?i)(S_IEXEC|S_IXUSR|0o?[0-7]*[1357][0-7]*\b)")
});

struct Download {
    src: usize,
    offset: usize,
    /// File name (last path segment) the download writes, or the variable that holds
    /// the path when the path is built at run time (`$out`, `path`).
    name: String,
    /// `name` is a variable: followed in the same file only.
    var: Option<VarKind>,
    what: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum VarKind {
    /// `$out`, `${out}`, `"$out"` (shell, PowerShell).
    Sigil,
    /// `path` (Python, JavaScript).
    Bare,
}

fn file_name(p: &str) -> &str {
    let p = p.split(['?', '#']).next().unwrap_or(p);
    p.rsplit(['/', '\\']).next().unwrap_or(p)
}

/// The first string value assigned to each variable of a text, found in one pass.
fn assignments(text: &str) -> HashMap<&str, &str> {
    let mut out = HashMap::new();
    for c in ASSIGNED.captures_iter(text) {
        if let (Some(n), Some(v)) = (c.name("n"), c.name("v").or_else(|| c.name("j"))) {
            out.entry(n.as_str()).or_insert(v.as_str());
        }
    }
    out
}

fn downloads(scx: &SecCx<'_, '_>) -> Vec<Download> {
    let mut out = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        let lower = src.lower();
        let fetches = FETCHES.is_match(&src.text);
        if !src.has_words(crate::security::model::datarules::Words::Fetch)
            && !fetches
            && ![
                "urlretrieve",
                "downloadfile",
                "invoke-webrequest",
                "iwr ",
                "invoke-restmethod",
                "bitstransfer",
            ]
            .iter()
            .any(|w| memchr::memmem::find(lower, w.as_bytes()).is_some())
        {
            continue;
        }
        let mut assigned: Option<HashMap<&str, &str>> = None;
        for (i, re) in DOWNLOADS.iter().enumerate() {
            if WRITE_FORMS.contains(&i) && !fetches {
                continue;
            }
            for c in re.captures_iter(&src.text) {
                let Some(m) = c.get(0) else { continue };
                let at = m.start();
                // A write into a remote sandbox (`sandbox.writeFile(…)`) is not a download
                // to the user's machine.
                if !is_live(src, at) || in_sandbox(&src.text, at) {
                    continue;
                }
                let (path, var) = match (c.name("p"), c.name("v")) {
                    (Some(p), _) => match sigil_var(p.as_str()) {
                        Some(v) => (v.to_owned(), Some(VarKind::Sigil)),
                        None => (p.as_str().to_owned(), None),
                    },
                    (None, Some(v)) => {
                        let values = assigned.get_or_insert_with(|| assignments(&src.text));
                        match values.get(v.as_str()) {
                            Some(p) => ((*p).to_owned(), None),
                            None => (v.as_str().to_owned(), Some(VarKind::Bare)),
                        }
                    }
                    _ => continue,
                };
                if var.is_some() {
                    if path.len() >= 2 {
                        out.push(Download {
                            src: si,
                            offset: at,
                            name: path,
                            var,
                            what: excerpt(&src.text, m.start(), m.end()),
                        });
                    }
                    continue;
                }
                let name = file_name(&path).trim_matches(|c| c == '"' || c == '\'');
                // Too short or too generic to follow: `-`, `x`, `out`, `/dev/null`; or
                // longer than any file system allows.
                if name.len() < 3
                    || name.len() > MAX_NAME
                    || name == "null"
                    || name.contains('{')
                    || name.contains('$')
                {
                    continue;
                }
                out.push(Download {
                    src: si,
                    offset: at,
                    name: name.to_owned(),
                    var: None,
                    what: excerpt(&src.text, m.start(), m.end()),
                });
            }
        }
    }
    out.sort_by_key(|d| (d.src, d.offset));
    out.dedup_by(|a, b| a.src == b.src && a.name == b.name);
    out
}

/// `$out`, `${out}` or `$env:out` as the whole path: the variable's name.
fn sigil_var(p: &str) -> Option<&str> {
    let v = p.strip_prefix('$')?;
    let v = v
        .strip_prefix('{')
        .and_then(|v| v.strip_suffix('}'))
        .unwrap_or(v);
    (!v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')).then_some(v)
}

/// The downloaded file names, each reversed and ASCII-lower-cased into a trie, so that
/// the names ending at a position are found by walking back from it.
struct NameTrie {
    /// Children of each node, sorted by byte.
    next: Vec<Vec<(u8, u32)>>,
    /// The name ending at each node (`u32::MAX`: none).
    name: Vec<u32>,
}

impl NameTrie {
    fn new<'a>(names: impl Iterator<Item = &'a str>) -> Self {
        let mut t = NameTrie {
            next: vec![Vec::new()],
            name: vec![u32::MAX],
        };
        for (id, n) in names.enumerate() {
            let mut node = 0usize;
            for b in n.bytes().rev().map(|b| b.to_ascii_lowercase()) {
                node = match t.next[node].binary_search_by_key(&b, |e| e.0) {
                    Ok(i) => t.next[node][i].1 as usize,
                    Err(i) => {
                        let child = t.next.len();
                        t.next.push(Vec::new());
                        t.name.push(u32::MAX);
                        t.next[node].insert(i, (b, child as u32));
                        child
                    }
                };
            }
            t.name[node] = id as u32;
        }
        t
    }

    /// The ids of the names that are `text[s..end]` for some `s >= floor`. At most
    /// [`MAX_NAME`] steps.
    fn ending_at(&self, text: &[u8], floor: usize, end: usize, out: &mut Vec<u32>) {
        let mut node = 0usize;
        let mut i = end;
        while i > floor {
            i -= 1;
            let b = text[i].to_ascii_lowercase();
            match self.next[node].binary_search_by_key(&b, |e| e.0) {
                Ok(k) => node = self.next[node][k].1 as usize,
                Err(_) => return,
            }
            if self.name[node] != u32::MAX {
                out.push(self.name[node]);
            }
        }
    }
}

/// Can a file name end before this character (`(["'\s;&|)`,\]]|$)` in the forms)?
fn ends_name(c: char) -> bool {
    c.is_whitespace() || matches!(c, '"' | '\'' | ';' | '&' | '|' | ')' | '`' | ',' | ']')
}

/// An execution: where it starts and ends in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Site {
    src: usize,
    start: usize,
    end: usize,
}

/// Every live execution of every downloaded name, per name id, sorted by file and offset.
fn named_executions(scx: &SecCx<'_, '_>, trie: &NameTrie, names: usize) -> Vec<Vec<Site>> {
    let mut sites: Vec<Vec<Site>> = vec![Vec::new(); names];
    let mut ids = Vec::new();
    for (si, src) in scx.sources.iter().enumerate() {
        let text: &str = &src.text;
        let bytes = text.as_bytes();
        for (re, tail) in EXEC_PREFIXES.iter() {
            // A site whose path (or line) an earlier site of the same form already covered
            // adds nothing that site did not find, earlier (and rescanning it would be
            // quadratic: `require(require(…`).
            let mut covered = 0usize;
            for m in re.find_iter(text) {
                let e = m.end();
                if e < covered || !is_live(src, m.start()) {
                    continue;
                }
                let rest = &text[e..];
                let stop = match tail {
                    Tail::Path => rest
                        .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
                        .map_or(text.len(), |i| e + i),
                    Tail::Line => rest.find('\n').map_or(text.len(), |i| e + i),
                };
                covered = stop.max(e + 1);
                let mut at_end = |q: usize, ids: &mut Vec<u32>| {
                    ids.clear();
                    trie.ending_at(bytes, e, q, ids);
                    let end = text[q..].chars().next().map_or(q, |c| q + c.len_utf8());
                    for &id in ids.iter() {
                        sites[id as usize].push(Site {
                            src: si,
                            start: m.start(),
                            end,
                        });
                    }
                };
                for (i, c) in text[e..stop].char_indices() {
                    if i > 0 && ends_name(c) {
                        at_end(e + i, &mut ids);
                    }
                }
                if stop > e {
                    at_end(stop, &mut ids);
                }
            }
        }
    }
    for s in &mut sites {
        s.sort_unstable();
    }
    sites
}

/// A variable's reference at `e`: `$name`/`${name}` or a bare identifier (with no word
/// character before it). The name (ASCII-lower-cased), its kind and where it ends.
fn reference_at(text: &str, e: usize) -> Option<(String, VarKind, usize)> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let (kind, mut i) = if b.get(e) == Some(&b'$') {
        let i = e + 1;
        (
            VarKind::Sigil,
            if b.get(i) == Some(&b'{') { i + 1 } else { i },
        )
    } else {
        if e > 0 && word(b[e - 1])
            || !b
                .get(e)
                .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        {
            return None;
        }
        (VarKind::Bare, e)
    };
    let from = i;
    while i < b.len() && word(b[i]) {
        i += 1;
    }
    (i > from).then(|| (text[from..i].to_ascii_lowercase(), kind, i))
}

/// Where each variable (ASCII-lower-cased name, kind) is executed in a file: (start, end)
/// of each execution, in order.
type VarSites = HashMap<(String, VarKind), Vec<(usize, usize)>>;

/// Every live execution of a variable in `src`.
fn variable_executions(src: &Source<'_>) -> VarSites {
    let text: &str = &src.text;
    let b = text.as_bytes();
    let mut modes: Option<Vec<(usize, usize)>> = None;
    let mut out: VarSites = HashMap::new();
    for (re, after) in VAR_PREFIXES.iter() {
        for m in re.find_iter(text) {
            let Some((name, kind, mut end)) = reference_at(text, m.end()) else {
                continue;
            };
            if kind == VarKind::Sigil && b.get(end) == Some(&b'}') {
                end += 1;
            }
            match after {
                After::Nothing => {}
                After::Space => {
                    if matches!(b.get(end), Some(b'"' | b'\'')) {
                        end += 1;
                    }
                    match text[end..].chars().next() {
                        Some(c) if c.is_whitespace() => end += c.len_utf8(),
                        _ => continue,
                    }
                }
                After::ExecMode => {
                    let modes = modes.get_or_insert_with(|| {
                        EXEC_MODE
                            .find_iter(text)
                            .map(|m| (m.start(), m.end()))
                            .collect()
                    });
                    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
                    let k = modes.partition_point(|&(s, _)| s < end);
                    match modes.get(k) {
                        Some(&(s, e)) if s < line_end => end = e,
                        _ => continue,
                    }
                }
            }
            // A bare identifier (Python, JavaScript) is run only by an explicit form: at the
            // start of a line it is an assignment or a call (`out_path = f(…)`), not a command.
            if kind == VarKind::Bare && *after == After::Space {
                continue;
            }
            if !is_live(src, m.start()) || in_sandbox(text, m.start()) {
                continue;
            }
            out.entry((name, kind)).or_default().push((m.start(), end));
        }
    }
    for v in out.values_mut() {
        v.sort_unstable();
    }
    out
}

/// Is the hit at `at` a call into a remote sandbox, or an argument of one (its line up to
/// 32 bytes past the hit names the sandbox's method)?
fn in_sandbox(text: &str, at: usize) -> bool {
    crate::security::model::evidence::in_sandbox_call(text, at, 32)
}

/// The first execution in `sites` at or after `from` in file `src`.
fn first_in(sites: &[Site], src: usize, from: usize) -> Option<Site> {
    let k = sites.partition_point(|s| (s.src, s.start) < (src, from));
    sites.get(k).filter(|s| s.src == src).copied()
}

/// The first execution in a file other than `src` (files in order).
fn first_elsewhere(sites: &[Site], src: usize) -> Option<Site> {
    match sites.first() {
        Some(s) if s.src != src => Some(*s),
        _ => sites.get(sites.partition_point(|s| s.src <= src)).copied(),
    }
}

pub(crate) fn check(scx: &mut SecCx<'_, '_>) {
    let downloads = downloads(scx);
    if downloads.is_empty() {
        return;
    }
    // Named files: one trie of every distinct name, one pass over every file.
    let mut ids: HashMap<String, u32> = HashMap::new();
    for d in downloads.iter().filter(|d| d.var.is_none()) {
        let n = ids.len() as u32;
        ids.entry(d.name.to_ascii_lowercase()).or_insert(n);
    }
    let mut names: Vec<(&str, u32)> = ids.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    names.sort_by_key(|n| n.1);
    let named = if names.is_empty() {
        Vec::new()
    } else {
        let trie = NameTrie::new(names.iter().map(|n| n.0));
        named_executions(scx, &trie, names.len())
    };
    // Variables: per file that downloads to one.
    let mut by_var: HashMap<usize, VarSites> = HashMap::new();
    let mut verified: HashMap<usize, Vec<(usize, usize)>> = HashMap::new();
    let mut found = Vec::new();
    for d in &downloads {
        let dsrc = &scx.sources[d.src];
        let download_line_end = dsrc.text[d.offset..]
            .find('\n')
            .map_or(dsrc.text.len(), |i| d.offset + i);
        let exec = match d.var {
            None => {
                let sites = &named[ids[&d.name.to_ascii_lowercase()] as usize];
                first_in(sites, d.src, download_line_end).or_else(|| first_elsewhere(sites, d.src))
            }
            Some(kind) => {
                let vars = by_var
                    .entry(d.src)
                    .or_insert_with(|| variable_executions(dsrc));
                vars.get(&(d.name.to_ascii_lowercase(), kind))
                    .and_then(|v| {
                        let k = v.partition_point(|&(s, _)| s < download_line_end);
                        v.get(k).map(|&(start, end)| Site {
                            src: d.src,
                            start,
                            end,
                        })
                    })
            }
        };
        let Some(exec) = exec else { continue };
        // A data file (an image, audio, JSON, a cache) that is read back is data, not code:
        // only a disguised script (made executable, or handed to a shell) counts.
        if d.var.is_none() && crate::security::model::evidence::is_data_file(&d.name) {
            let e = &scx.sources[exec.src].text[exec.start..exec.end];
            let e = e.trim_start().to_ascii_lowercase();
            let runs = [
                "chmod", "sh ", "bash ", "zsh ", "source ", ". ", "./", "exec ",
            ]
            .iter()
            .any(|p| e.starts_with(p));
            if !runs {
                continue;
            }
        }
        // A checksum or signature check between the download and its execution (the rest
        // of the download's file when it runs elsewhere): one search per file.
        let checks = verified.entry(d.src).or_insert_with(|| {
            VERIFIED
                .find_iter(&dsrc.text)
                .map(|m| (m.start(), m.end()))
                .collect()
        });
        let until = if exec.src == d.src {
            exec.start
        } else {
            dsrc.text.len()
        };
        let k = checks.partition_point(|&(s, _)| s < d.offset);
        let is_verified = checks.get(k).is_some_and(|&(_, e)| e <= until);
        found.push((d, exec, is_verified));
    }
    for (d, exec, verified) in found {
        emit(scx, d, exec, verified);
    }
}

fn emit(scx: &mut SecCx<'_, '_>, d: &Download, exec: Site, verified: bool) {
    let dsrc = &scx.sources[d.src];
    let esrc = &scx.sources[exec.src];
    let ewhat = excerpt(&esrc.text, exec.start, exec.end);
    let line = dsrc.line_at(d.offset);
    let (origin, host) = crate::security::model::hosts::origin_of(line);
    let (severity, why) = match (origin, verified) {
        (_, true) => (
            Severity::Low,
            " A checksum or signature is verified before it runs; keep the expected hash pinned in the skill.",
        ),
        (crate::security::model::hosts::Origin::KnownInstaller, false) => (
            Severity::Medium,
            " The host publishes installers, but nothing checks what was downloaded.",
        ),
        (crate::security::model::hosts::Origin::Hostile, false) => (
            Severity::Critical,
            " The file comes from a raw IP address, plain HTTP, a paste site or a tunnel.",
        ),
        _ => (Severity::High, ""),
    };
    let (el, ec) = esrc.pos(exec.start);
    let (dl, dc) = dsrc.pos(d.offset);
    let from = if host.is_empty() {
        String::new()
    } else {
        format!(" from {host}")
    };
    let where_exec = if exec.src == d.src {
        format!("line {el}")
    } else {
        format!("{}:{el}", esrc.path)
    };
    let target = match d.var {
        None => format!("`{}`", d.name),
        Some(VarKind::Sigil) => format!("to the path in `${}`", d.name),
        Some(VarKind::Bare) => format!("to the path in `{}`", d.name),
    };
    let msg = format!(
        "`{}` downloads {target}{from} and `{ewhat}` ({where_exec}) then makes it executable or runs it: code that was never part of the reviewed skill runs on the user's machine.{why} Vendor the file into the skill, or pin its SHA-256 and verify it before running.",
        d.what
    );
    let loc = Location::at(dsrc.rel.clone(), dl, dc);
    let related = vec![(
        Location::at(esrc.rel.clone(), el, ec),
        "the downloaded file is executed here".to_owned(),
    )];
    let anchor = format!("{}:{}>{}", dsrc.path, d.name, esrc.path);
    scx.cx
        .emit_related(DOWNLOAD_THEN_EXECUTE, msg, loc, &anchor, related);
    if let Some(f) = scx.cx.findings.last_mut() {
        crate::security::severity::emitted(f, severity);
        crate::security::model::evidence::apply_ceiling(&scx.sources[d.src], d.offset, f);
    }
    scx.signal(SignalKind::Exec, exec.src, exec.start, ewhat);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_trie_finds_every_name_ending_at_a_place() {
        let t = NameTrie::new(["a.sh", "xa.sh", "run.py"].into_iter());
        let text = b"bash ./XA.SH; python run.py";
        let mut ids = Vec::new();
        t.ending_at(text, 5, 12, &mut ids);
        ids.sort_unstable();
        assert_eq!(ids, vec![0, 1]);
        ids.clear();
        // The floor bounds the walk: `xa.sh` starts before it.
        t.ending_at(text, 8, 12, &mut ids);
        assert_eq!(ids, vec![0]);
        ids.clear();
        t.ending_at(text, 0, 11, &mut ids);
        assert!(ids.is_empty());
    }

    #[test]
    fn references_are_whole_identifiers() {
        assert_eq!(
            reference_at("x ${Out}", 2),
            Some(("out".into(), VarKind::Sigil, 7))
        );
        assert_eq!(
            reference_at("(path)", 1),
            Some(("path".into(), VarKind::Bare, 5))
        );
        assert_eq!(reference_at("mypath", 2), None);
        assert_eq!(reference_at("9x", 0), None);
    }

    #[test]
    fn first_sites_in_and_out_of_the_file() {
        let s = |src, start| Site {
            src,
            start,
            end: start + 1,
        };
        let sites = vec![s(0, 5), s(1, 3), s(1, 9), s(2, 1)];
        assert_eq!(first_in(&sites, 1, 4).map(|x| x.start), Some(9));
        assert_eq!(first_in(&sites, 1, 10), None);
        assert_eq!(
            first_elsewhere(&sites, 1).map(|x| (x.src, x.start)),
            Some((0, 5))
        );
        assert_eq!(
            first_elsewhere(&sites, 0).map(|x| (x.src, x.start)),
            Some((1, 3))
        );
        assert_eq!(first_elsewhere(&sites[..3], 1).map(|x| x.src), Some(0));
        assert_eq!(first_elsewhere(&sites[1..3], 1), None);
    }
}
