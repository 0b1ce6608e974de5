//! The team's policy over a finished scan (docs/suppressions.md): rule selection and
//! severities from `.skillguard.toml` and `--select`/`--ignore`, suppressions with reasons
//! (`[[ignore]]` entries and, when enabled, `skillguard-ignore` comments), and accepted
//! findings (`.skillguard/accepted.json`).
//!
//! A deselected or disabled rule is not reported at all. A suppressed or accepted finding
//! leaves the findings (so the gates and the index do not count it) for
//! [`ScanResult::suppressed`], with its kind and reason; renderers count it and list it on
//! request. Suppressions that have expired or matched nothing, and inline comments that
//! cannot be honoured, are findings of their own.
//!
//! Runs after the scan and the baseline comparisons and before the index and the report.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::config::{self, Config};
use crate::discover::PathGlobs;
use crate::finding::{Finding, Location, Severity};
use crate::result::{ScanResult, Suppressed, SuppressionKind};
use crate::rules::ids;

/// `format` of the accepted-findings file.
pub const ACCEPTED_FORMAT: &str = "skillguard-accepted";
pub const ACCEPTED_VERSION: u32 = 1;
/// Where `skillguard accept` writes, under the repository (or workspace) root.
pub const ACCEPTED_FILE: &str = ".skillguard/accepted.json";
const MAX_ACCEPTED_BYTES: u64 = 64 * 1024 * 1024;
/// Bytes of a file read to find `skillguard-ignore` comments.
const MAX_INLINE_READ: u64 = 10 * 1024 * 1024;
/// The marker of an inline suppression.
pub const INLINE_MARKER: &str = "skillguard-ignore";

/// The accepted-findings file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptedFile {
    pub format: String,
    pub version: u32,
    /// Sorted by fingerprint, one entry per fingerprint.
    pub findings: Vec<AcceptedEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AcceptedEntry {
    pub fingerprint: String,
    pub rule: String,
    /// Where the finding was when it was accepted (information only: matching is by
    /// fingerprint, which survives line moves and unrelated edits).
    pub path: String,
    pub reason: String,
}

impl AcceptedFile {
    /// The current findings of `result`, accepted with `reason` (deterministic bytes).
    pub fn from_findings(findings: &[Finding], reason: &str) -> AcceptedFile {
        let mut by_fp: BTreeMap<&str, &Finding> = BTreeMap::new();
        for f in findings {
            by_fp.entry(f.fingerprint.as_str()).or_insert(f);
        }
        AcceptedFile {
            format: ACCEPTED_FORMAT.into(),
            version: ACCEPTED_VERSION,
            findings: by_fp
                .into_values()
                .map(|f| AcceptedEntry {
                    fingerprint: f.fingerprint.clone(),
                    rule: f.rule_id.to_owned(),
                    path: f.location.path.clone(),
                    reason: reason.to_owned(),
                })
                .collect(),
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = serde_json::to_vec_pretty(self).expect("serialisable");
        v.push(b'\n');
        v
    }
}

/// An unusable accepted-findings file (exit 2).
#[derive(Debug, thiserror::Error)]
#[error("{path}: {msg}")]
pub struct AcceptedError {
    pub path: String,
    pub msg: String,
}

/// Reads an accepted-findings file at its default place in a repository (never through a
/// link): `Ok(None)` when it does not exist.
pub fn read_accepted(path: &Path) -> Result<Option<AcceptedFile>, AcceptedError> {
    accepted_from(path, crate::fsutil::open_regular_explained(path))
}

/// Reads an accepted-findings file the operator named (`--accepted`; a link is followed).
pub fn read_accepted_named(path: &Path) -> Result<Option<AcceptedFile>, AcceptedError> {
    accepted_from(path, crate::fsutil::open_named(path))
}

fn accepted_from(
    path: &Path,
    opened: std::io::Result<std::fs::File>,
) -> Result<Option<AcceptedFile>, AcceptedError> {
    let shown = path.display().to_string();
    let err = |msg: String| AcceptedError {
        path: shown.clone(),
        msg,
    };
    let f = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(err(e.to_string())),
    };
    let mut bytes = Vec::new();
    f.take(MAX_ACCEPTED_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(e.to_string()))?;
    if bytes.len() as u64 > MAX_ACCEPTED_BYTES {
        return Err(err(format!("larger than {MAX_ACCEPTED_BYTES} bytes")));
    }
    let mut a: AcceptedFile = serde_json::from_slice(&bytes)
        .map_err(|e| err(format!("not a valid accepted-findings file: {e}")))?;
    // Entries are looked up by binary search: a file edited by hand out of order is sorted
    // here (it once silently matched nothing), and a fingerprint given twice keeps its first
    // entry.
    a.findings.sort_by(|x, y| x.fingerprint.cmp(&y.fingerprint));
    a.findings.dedup_by(|x, y| x.fingerprint == y.fingerprint);
    if a.format != ACCEPTED_FORMAT {
        return Err(err(format!("`format` is not `{ACCEPTED_FORMAT}`")));
    }
    if a.version > ACCEPTED_VERSION {
        return Err(err(format!(
            "written by a newer skillguard (version {}); upgrade skillguard",
            a.version
        )));
    }
    if let Some(e) = a
        .findings
        .iter()
        .find(|e| !crate::text::has_visible(&e.reason))
    {
        return Err(err(format!(
            "the entry of fingerprint {} gives no reason (blanks and invisible characters are not one)",
            crate::text::sanitize_line(&e.fingerprint)
        )));
    }
    Ok(Some(a))
}

/// One source of settings and suppressions: the operator's configuration, or (with
/// `--trust-repo-config`) a repository's own in a workspace.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    /// Findings whose path starts with this prefix (`""`: all; `repo/`: one repository).
    pub prefix: String,
    pub config: Config,
    /// The file's path as shown in findings (relative to the scan root when inside it).
    pub config_shown: Option<String>,
    /// The file's text (to locate `[[ignore]]` entries).
    pub config_text: String,
    /// Where the scanned paths of this scope are on disk (for inline comments).
    pub root: PathBuf,
}

/// Everything [`apply`] needs.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// `--select` (wins over the configuration's `select`).
    pub select: Vec<String>,
    /// `--ignore`.
    pub ignore: Vec<String>,
    /// `--min-confidence`: findings below it are left out like deselected rules.
    pub min_confidence: Option<crate::finding::Confidence>,
    /// Scopes, most specific last (a repository's own after the operator's).
    pub scopes: Vec<Scope>,
    /// Accepted findings (`.skillguard/accepted.json` or `--accepted`), with the path shown.
    pub accepted: Option<(AcceptedFile, String)>,
    /// `--no-ignores`: suppressions and acceptances are evaluated (and unused ones
    /// reported) but hide nothing.
    pub no_ignores: bool,
    /// Today's date (UTC) for `expires`.
    pub today: Option<chrono::NaiveDate>,
    /// Only some skills were scanned (changed-files mode): unused suppressions and stale
    /// accepted findings are not reported.
    pub partial: bool,
}

/// What a suppression matched, for the unused report.
#[derive(Default)]
struct Usage {
    config: BTreeSet<(usize, usize)>,
    accepted: BTreeSet<String>,
}

/// Applies `policy` to `result`; returns notes for stderr.
pub fn apply(result: &mut ScanResult, policy: &Policy) -> Vec<String> {
    let mut notes = Vec::new();
    let today = policy
        .today
        .unwrap_or_else(|| chrono::Utc::now().date_naive());
    let findings = std::mem::take(&mut result.findings);
    let mut kept = Vec::with_capacity(findings.len());
    let mut usage = Usage::default();
    let mut inline = InlineCache::default();
    let mut expired_hits: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    // Each entry's path glob, compiled once (`None`: no path, every path matches).
    let globs: Vec<Vec<Option<PathGlobs>>> = policy
        .scopes
        .iter()
        .map(|s| {
            s.config
                .ignore
                .iter()
                .map(|e| {
                    e.path.as_ref().map(|p| {
                        // Validated when the file was read; an empty set matches nothing.
                        PathGlobs::new(&[p.as_str()])
                            .unwrap_or_else(|_| PathGlobs::new(&[]).expect("empty glob set"))
                    })
                })
                .collect()
        })
        .collect();
    // Each scope's entries by the rules they name, and the line of each entry.
    let mut index: Vec<EntryIndex<'_>> = policy
        .scopes
        .iter()
        .map(|s| EntryIndex::new(&s.config.ignore))
        .collect();
    let lines: Vec<Vec<u32>> = policy
        .scopes
        .iter()
        .map(|s| ignore_lines(&s.config_text))
        .collect();
    for mut f in findings {
        let scopes: Vec<(usize, &Scope)> = policy
            .scopes
            .iter()
            .enumerate()
            .filter(|(_, s)| f.location.path.starts_with(&s.prefix))
            .collect();
        // A finding left out by --select/--ignore still uses the suppressions that match
        // it: an entry is unused only when nothing it names occurs.
        let selected = selected(&f, policy, &scopes);
        if selected {
            for (_, s) in &scopes {
                if let Some(sev) = severity_override(&f, &s.config) {
                    f.severity = sev;
                }
            }
        }
        let mut hit: Option<(SuppressionKind, String)> = None;
        // The first `[[ignore]]` entry with a `severity` that matches: a lowering.
        let mut lowered: Option<(Severity, String)> = None;
        // Config entries, the most specific scope first.
        for (si, s) in scopes.iter().rev() {
            let rel = &f.location.path[s.prefix.len()..];
            for ei in index[*si].candidates(&f) {
                let e = &s.config.ignore[ei];
                if !entry_matches(e, globs[*si][ei].as_ref(), &f, rel) {
                    continue;
                }
                if e.expires.as_ref().is_some_and(|d| d.date() < today) {
                    if selected {
                        *expired_hits.entry((*si, ei)).or_default() += 1;
                    }
                    usage.config.insert((*si, ei));
                    continue;
                }
                usage.config.insert((*si, ei));
                match e.severity {
                    Some(sev) if lowered.is_none() => {
                        let at = lines[*si]
                            .get(ei)
                            .map_or_else(String::new, |l| format!(":{l}"));
                        let shown = s.config_shown.as_deref().unwrap_or(config::FILE_NAME);
                        lowered = Some((
                            Severity::from(sev),
                            format!(
                                " (Reported at {} instead of {} by {}{at}: {}.)",
                                Severity::from(sev),
                                f.severity,
                                crate::text::sanitize_line(shown),
                                crate::text::sanitize_line(e.reason.as_str())
                            ),
                        ));
                    }
                    None if hit.is_none() => {
                        hit = Some((SuppressionKind::Config, e.reason.as_str().to_owned()));
                    }
                    _ => {}
                }
            }
        }
        if hit.is_none()
            && selected
            && let Some((sev, note)) = lowered
        {
            f.severity = sev;
            f.message.push_str(&note);
        }
        // `[drift] allow`: an intentional fork of a named skill.
        if hit.is_none() && f.rule_id == crate::rules::ids::CROSS_LOCATION_CONTENT_DRIFT {
            let name = f
                .properties
                .as_ref()
                .and_then(|p| p.get("name"))
                .and_then(|n| n.as_str())
                .unwrap_or("")
                .to_lowercase();
            hit = scopes.iter().rev().find_map(|(_, s)| {
                s.config
                    .drift
                    .allow
                    .iter()
                    .find(|a| a.name.to_lowercase() == name)
                    .map(|a| {
                        (
                            SuppressionKind::Config,
                            format!("[drift] allow `{}`: {}", a.name, a.reason.as_str()),
                        )
                    })
            });
        }
        // Comments in content that was not read cannot speak for it.
        if hit.is_none() && selected && f.rule_id != ids::CONTENT_NOT_INSPECTED {
            for (_, s) in scopes.iter().rev() {
                if !s.config.inline_ignores {
                    continue;
                }
                let rel = &f.location.path[s.prefix.len()..];
                if let Some(reason) = inline.reason_for(&s.root, rel, &f) {
                    hit = Some((SuppressionKind::Inline, reason));
                    break;
                }
            }
        }
        // An accepted finding that still occurs is used even when a suppression hides it
        // first: only findings that are really gone make an acceptance unused.
        if let Some((a, _)) = &policy.accepted
            && f.rule_id != ids::CONTENT_NOT_INSPECTED
            && let Ok(i) = a
                .findings
                .binary_search_by(|e| e.fingerprint.as_str().cmp(&f.fingerprint))
        {
            usage.accepted.insert(f.fingerprint.clone());
            if hit.is_none() {
                hit = Some((SuppressionKind::Accepted, a.findings[i].reason.clone()));
            }
        }
        if !selected {
            continue;
        }
        match hit {
            Some((kind, reason)) if !policy.no_ignores => result.suppressed.push(Suppressed {
                finding: f,
                kind,
                reason,
            }),
            _ => kept.push(f),
        }
    }
    let mut extra = Vec::new();
    for ((si, ei), n) in &expired_hits {
        let s = &policy.scopes[*si];
        let e = &s.config.ignore[*ei];
        extra.push(policy_finding(
            ids::SUPPRESSION_EXPIRED,
            s,
            &lines[*si],
            *ei,
            format!(
                "The suppression of `{}` ({}) expired on {}; {n} finding(s) it covered are reported again. Fix them, or renew the entry with a new `expires` date and a reason that still holds.",
                e.rule.as_str(),
                crate::text::sanitize_line(e.reason.as_str()),
                e.expires.as_ref().map_or("", |d| d.as_str())
            ),
        ));
    }
    // A changed-files scan saw only some skills: what it did not see cannot be judged unused.
    if !policy.partial {
        for (si, s) in policy.scopes.iter().enumerate() {
            for (ei, e) in s.config.ignore.iter().enumerate() {
                if usage.config.contains(&(si, ei)) {
                    continue;
                }
                extra.push(policy_finding(
                    ids::SUPPRESSION_UNUSED,
                    s,
                    &lines[si],
                    ei,
                    format!(
                        "The suppression of `{}`{} matched no finding. Remove the entry, or correct its rule, path or fingerprint.",
                        e.rule.as_str(),
                        e.path
                            .as_ref()
                            .map(|p| format!(" at `{}`", p.as_str()))
                            .unwrap_or_default()
                    ),
                ));
            }
        }
        if let Some((a, shown)) = &policy.accepted {
            let stale: Vec<&AcceptedEntry> = a
                .findings
                .iter()
                .filter(|e| !usage.accepted.contains(&e.fingerprint))
                .collect();
            if !stale.is_empty() {
                let names: Vec<String> = stale
                    .iter()
                    .take(5)
                    .map(|e| format!("`{}` at {}", e.rule, e.path))
                    .collect();
                let more = if stale.len() > 5 {
                    format!(" and {} more", stale.len() - 5)
                } else {
                    String::new()
                };
                let f = Finding::new(
                    ids::SUPPRESSION_UNUSED,
                    crate::text::sanitize_line(&format!(
                        "{} accepted finding(s) no longer occur: {}{more}. Run `skillguard accept` again to drop them, so a reintroduced finding is not silently accepted.",
                        stale.len(),
                        names.join(", ")
                    ))
                    .into_owned(),
                    Location::file(shown.clone()),
                );
                extra.push(f.for_skill(None, None, "accepted"));
            }
        }
    }
    extra.extend(inline.invalid);
    kept.extend(extra);
    crate::finding::sort_findings(&mut kept);
    result.findings = kept;
    result
        .suppressed
        .sort_by(|a, b| a.finding.sort_key().cmp(&b.finding.sort_key()));
    result.recount();
    if policy.no_ignores {
        notes.push("--no-ignores: suppressions and accepted findings hide nothing".into());
    }
    notes
}

fn selected(f: &Finding, policy: &Policy, scopes: &[(usize, &Scope)]) -> bool {
    let hit = |list: &[String]| {
        list.iter()
            .any(|s| config::selects(s, f.rule_id, f.category))
    };
    // Policy findings are never filtered away: they police the filters themselves.
    if matches!(
        f.rule_id,
        ids::SUPPRESSION_EXPIRED | ids::SUPPRESSION_UNUSED | ids::SUPPRESSION_INVALID
    ) {
        return true;
    }
    // Unread content is never a pass: no selection, confidence floor or category drops it;
    // only its own id does (`--ignore content-not-inspected`, `[rules.content-not-inspected]`
    // is refused by the configuration check).
    if f.rule_id == ids::CONTENT_NOT_INSPECTED {
        return !policy.ignore.iter().any(|s| covers(s, f))
            && !scopes.iter().any(|(_, s)| {
                s.config
                    .rules
                    .iter()
                    .any(|(k, v)| v.disable && covers(k.as_str(), f))
            });
    }
    if !policy.select.is_empty() {
        if !hit(&policy.select) {
            return false;
        }
    } else if let Some((_, s)) = scopes.first()
        && !s.config.select.is_empty()
        && !s
            .config
            .select
            .iter()
            .any(|x| config::selects(x.as_str(), f.rule_id, f.category))
    {
        return false;
    }
    if hit(&policy.ignore) {
        return false;
    }
    if policy.min_confidence.is_some_and(|m| f.confidence < m) {
        return false;
    }
    !scopes.iter().any(|(_, s)| {
        s.config
            .rules
            .iter()
            .any(|(k, v)| v.disable && covers(k.as_str(), f))
    })
}

/// Does a `[rules.X]` table or an `[[ignore]]` rule cover `f`? A rule that fails closed
/// (`content-not-inspected`) is covered only by its own id, never by a category.
fn covers(selector: &str, f: &Finding) -> bool {
    if f.rule_id == ids::CONTENT_NOT_INSPECTED {
        return selector == f.rule_id;
    }
    config::selects(selector, f.rule_id, f.category)
}

/// The most specific `[rules.X] severity` for `f` (a rule id beats a category, a deeper
/// category a shallower one).
fn severity_override(f: &Finding, c: &Config) -> Option<Severity> {
    c.rules
        .iter()
        .filter(|(k, v)| v.severity.is_some() && covers(k.as_str(), f))
        .max_by_key(|(k, _)| {
            if crate::catalog::get(k.as_str()).is_some() {
                usize::MAX
            } else {
                k.as_str().len()
            }
        })
        .and_then(|(_, v)| v.severity.map(Severity::from))
}

fn entry_matches(
    e: &config::Suppression,
    path: Option<&PathGlobs>,
    f: &Finding,
    rel: &str,
) -> bool {
    if !covers(e.rule.as_str(), f) {
        return false;
    }
    if let Some(fp) = &e.fingerprint
        && !fp.as_str().eq_ignore_ascii_case(&f.fingerprint)
    {
        return false;
    }
    path.is_none_or(|g| g.matches(rel))
}

/// The `[[ignore]]` entries of a scope by the rules they name, built as findings ask: an
/// entry is tried only on findings of a rule it selects (and, when it names a fingerprint,
/// only on that finding), not on every finding.
struct EntryIndex<'a> {
    entries: &'a [config::Suppression],
    by_rule: HashMap<(&'static str, &'static str), Bucket>,
}

/// The entries that select one rule: without a fingerprint, and by fingerprint (lower case).
#[derive(Default)]
struct Bucket {
    any: Vec<usize>,
    by_fingerprint: HashMap<String, Vec<usize>>,
}

impl<'a> EntryIndex<'a> {
    fn new(entries: &'a [config::Suppression]) -> Self {
        EntryIndex {
            entries,
            by_rule: HashMap::new(),
        }
    }

    /// The entries that may match `f`, in the file's order. One pass over the entries per
    /// rule the findings name, then lookups.
    fn candidates(&mut self, f: &Finding) -> Vec<usize> {
        let entries = self.entries;
        let b = self
            .by_rule
            .entry((f.rule_id, f.category))
            .or_insert_with(|| {
                let mut b = Bucket::default();
                for (i, e) in entries.iter().enumerate() {
                    if !config::selects(e.rule.as_str(), f.rule_id, f.category) {
                        continue;
                    }
                    match &e.fingerprint {
                        Some(fp) => b
                            .by_fingerprint
                            .entry(fp.as_str().to_ascii_lowercase())
                            .or_default()
                            .push(i),
                        None => b.any.push(i),
                    }
                }
                b
            });
        let fp = b.by_fingerprint.get(&f.fingerprint.to_ascii_lowercase());
        let mut v: Vec<usize> = b
            .any
            .iter()
            .chain(fp.into_iter().flatten())
            .copied()
            .collect();
        if fp.is_some() {
            v.sort_unstable();
        }
        v
    }
}

/// The line of each `[[ignore]]` header of a configuration text, in order: one pass.
fn ignore_lines(text: &str) -> Vec<u32> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[ignore]]"))
        .map(|(i, _)| i as u32 + 1)
        .collect()
}

/// A finding about entry `ei` of scope `s`'s configuration file, at its `[[ignore]]` line
/// (`lines`: [`ignore_lines`] of the file).
fn policy_finding(rule: &'static str, s: &Scope, lines: &[u32], ei: usize, msg: String) -> Finding {
    let shown = s
        .config_shown
        .clone()
        .unwrap_or_else(|| config::FILE_NAME.into());
    let line = lines.get(ei).copied();
    let loc = match line {
        Some(l) => Location::at(shown, l, 1),
        None => Location::file(shown),
    };
    Finding::new(rule, msg, loc).for_skill(None, None, &format!("ignore#{ei}"))
}

/// The `skillguard-ignore` comments of the files findings point into, read once each.
#[derive(Default)]
struct InlineCache {
    files: BTreeMap<PathBuf, Vec<Inline>>,
    invalid: Vec<Finding>,
}

#[derive(Debug, Clone)]
struct Inline {
    /// The comment's line (a trailing comment covers its own line).
    line: u32,
    /// The line it covers below: the next one that is not blank, a code-fence opener or
    /// another comment.
    target: u32,
    rules: Vec<String>,
    reason: String,
}

impl InlineCache {
    fn reason_for(&mut self, root: &Path, rel: &str, f: &Finding) -> Option<String> {
        let line = f.location.line?;
        let path = crate::names::path_of(root, rel);
        if !self.files.contains_key(&path) {
            let found = read_inline(&path, &f.location.path, &mut self.invalid);
            self.files.insert(path.clone(), found);
        }
        self.files[&path]
            .iter()
            .find(|c| {
                (c.line == line || c.target == line)
                    && c.rules
                        .iter()
                        .any(|r| config::selects(r, f.rule_id, f.category))
            })
            .map(|c| c.reason.clone())
    }
}

/// Comments of `path` (never through a link; bounded): `<!-- skillguard-ignore RULE[, RULE]:
/// reason -->`, `# skillguard-ignore …` and `// skillguard-ignore …`. A comment without a
/// reason or naming no known rule is reported and not honoured.
fn read_inline(path: &Path, shown: &str, invalid: &mut Vec<Finding>) -> Vec<Inline> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Vec::new();
    };
    if !meta.is_file() {
        return Vec::new();
    }
    let Ok(f) = crate::fsutil::open_regular(path) else {
        return Vec::new();
    };
    let mut bytes = Vec::new();
    if f.take(MAX_INLINE_READ).read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let l = *l;
        let Some(at) = l.find(INLINE_MARKER) else {
            continue;
        };
        let before = l[..at].trim_end();
        if !(before.ends_with("<!--") || before.ends_with('#') || before.ends_with("//")) {
            continue;
        }
        let rest = l[at + INLINE_MARKER.len()..].trim_end();
        let rest = rest.strip_suffix("-->").unwrap_or(rest);
        let (rules, reason) = match rest.split_once(':') {
            Some((r, why)) => (r, why.trim()),
            None => (rest, ""),
        };
        let rules: Vec<String> = rules
            .split([',', ' '])
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_owned)
            .collect();
        let line = i as u32 + 1;
        let unknown: Vec<&String> = rules
            .iter()
            .filter(|r| !config::selector_known(r))
            .collect();
        let problem = if rules.is_empty() {
            Some("names no rule".to_owned())
        } else if !unknown.is_empty() {
            Some(format!(
                "names unknown rule(s) {}",
                unknown
                    .iter()
                    .map(|r| format!(
                        "`{}`{}",
                        crate::text::sanitize_line(r),
                        crate::catalog::did_you_mean(r)
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        } else if !crate::text::has_visible(reason) {
            Some("gives no reason (blanks and invisible characters are not one)".to_owned())
        } else {
            None
        };
        if let Some(p) = problem {
            let col = l[..at].chars().count() as u32 + 1;
            let f = Finding::new(
                ids::SUPPRESSION_INVALID,
                format!(
                    "This `{INLINE_MARKER}` comment {p}, so it is not honoured. Write `{INLINE_MARKER} RULE-ID: why the finding is acceptable`."
                ),
                Location::at(shown.to_owned(), line, col),
            );
            invalid.push(f.for_skill(None, None, &format!("inline:{line}")));
            continue;
        }
        let target = lines[i + 1..]
            .iter()
            .position(|n| {
                let t = n.trim();
                !(t.is_empty()
                    || t.starts_with("```")
                    || t.starts_with("~~~")
                    || t.contains(INLINE_MARKER))
            })
            .map_or(line, |k| line + 1 + k as u32);
        out.push(Inline {
            line,
            target,
            rules,
            reason: crate::text::sanitize_line(reason).into_owned(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        let m = |p: &str, path: &str| PathGlobs::new(&[p]).unwrap().matches(path);
        assert!(m("vendor/**", "vendor/a/b.md"));
        assert!(m("*.md", "skills/x/README.md"));
        assert!(m("skills/x", "skills/x/scripts/a.sh"));
        assert!(!m("skills/x", "skills/xy/a.sh"));
        assert!(!m("skills/*.md", "skills/x/a.md"));
        assert!(!PathGlobs::new(&[]).unwrap().matches("a"));
    }

    fn finding(rule: &'static str, fingerprint: &str) -> Finding {
        let mut f = Finding::new(rule, "m", Location::file("a.md"));
        f.fingerprint = fingerprint.to_owned();
        f
    }

    #[test]
    fn a_finding_is_tried_only_on_the_entries_of_its_rule() {
        // 6,000 entries: 2,000 of another rule, 2,000 by fingerprint, 2,000 for the category
        // of the rule. A finding is tried on the category's entries and its own fingerprint's.
        let mut text = String::new();
        for i in 0..2000 {
            text.push_str(&format!(
                "[[ignore]]\nrule = \"secret-generic\"\npath = \"s{i}/**\"\nreason = \"r\"\n\n\
                 [[ignore]]\nrule = \"fetch-then-execute\"\nfingerprint = \"{i:064x}\"\nreason = \"r\"\n\n\
                 [[ignore]]\nrule = \"security\"\npath = \"t{i}/**\"\nreason = \"r\"\n\n"
            ));
        }
        let c = config::parse("x.toml", &text).unwrap();
        assert_eq!(c.ignore.len(), 6000);
        let mut ix = EntryIndex::new(&c.ignore);
        let f = finding("fetch-then-execute", &format!("{:064X}", 7));
        let v = ix.candidates(&f);
        assert_eq!(v.len(), 2001);
        assert!(v.windows(2).all(|w| w[0] < w[1]), "in file order");
        assert!(v.contains(&(3 * 7 + 1)));
        let g = finding("fetch-then-execute", "00");
        assert_eq!(ix.candidates(&g).len(), 2000);
        // The entry lines, found in one pass.
        let lines = ignore_lines(&text);
        assert_eq!(lines.len(), 6000);
        assert_eq!(lines[1], 6);
    }
}
