//! `.skillguard.toml`: the repository's own settings (docs/configuration.md).
//!
//! One file at the repository root, or another one named by `--config`. Every table denies
//! unknown keys, and every value is validated while it is read (rule ids and categories
//! against the catalog, globs, dates, fingerprints, non-empty reasons), so a bad file is
//! refused with its path, line, column and a caret under the offending text, and exit 2.
//!
//! The file is read, never written, by a scan; `skillguard init` writes the commented
//! starter ([`STARTER`]). [`schema`] is the file's JSON Schema, generated from these
//! types (`docs/skillguard.schema.json`, kept fresh by a test).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::finding::Severity;

/// The file name looked for at the repository (or scanned folder) root.
pub const FILE_NAME: &str = ".skillguard.toml";
/// Configuration files larger than this are refused.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "skillguard configuration (.skillguard.toml)")]
pub struct Config {
    /// Exit 1 when a finding at or above this severity remains (the command line's
    /// `--fail-on` wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_on: Option<SeverityName>,
    /// Behave as another tool's CLI: `"agenteval"` gives AgentEval's JSON, console and
    /// Markdown reports, its 15 rules, exit codes and ledger location (the command line's
    /// `--compat` wins). See docs/migrating-from-agenteval.md.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compat: Option<Compat>,
    /// Honour `skillguard-ignore` comments in the scanned files (off by default; never
    /// honoured in the repositories of a workspace scan without `--trust-repo-config`).
    #[serde(default)]
    pub inline_ignores: bool,
    /// Only these rules or categories (`security`, `security/secrets`, `compliance`, a rule
    /// id); empty: every rule. The command line's `--select` wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub select: Vec<RuleSelector>,
    /// Per rule or category: `disable = true`, `enable = true` (a rule that is off by
    /// default), or another `severity`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rules: BTreeMap<RuleSelector, RuleSettings>,
    /// The harnesses (loader profile ids) this repository ships to; a harness it does not
    /// target weighs its verdicts as portability (low). Default: inferred from where the
    /// skills and agents live. The command line's `--targets` wins.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// Weigh every harness as a target (the behaviour before targets were weighed), as `--targets all`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub strict_portability: bool,
    /// What to walk.
    #[serde(default)]
    pub scan: ScanSettings,
    /// Bounds of the walk and the reads.
    #[serde(default)]
    pub limits: Limits,
    /// Suppressions: each needs a rule, a reason, and may be limited to a path glob, one
    /// fingerprint and a date.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore: Vec<Suppression>,
    /// Intentional forks: copies of these skills may differ (`cross-location-content-drift`
    /// is suppressed for them, with the reason recorded).
    #[serde(default, skip_serializing_if = "Drift::is_empty")]
    pub drift: Drift,
}

/// `[drift]`: what the team decided about copies that differ.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Drift {
    /// `allow = [{ name = "code-review", reason = "the payments team keeps its own" }]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<DriftAllow>,
}

impl Drift {
    fn is_empty(&self) -> bool {
        self.allow.is_empty()
    }
}

/// One intentional fork: a skill name whose copies may differ, and why.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct DriftAllow {
    /// The skill's `name` (case-insensitive).
    pub name: String,
    /// Why the copies differ on purpose (required, recorded with the suppression).
    pub reason: Reason,
}

/// `[rules.<id or category>]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RuleSettings {
    /// Do not report this rule (or any rule of this category).
    #[serde(default)]
    pub disable: bool,
    /// Run and report this rule (or every rule of this category) although it is off by
    /// default (`skillguard rules` marks those); `disable` wins.
    #[serde(default)]
    pub enable: bool,
    /// Report at this severity instead of the rule's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<SeverityName>,
}

/// A tool skillguard can stand in for (`compat = "agenteval"`, `--compat agenteval`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Compat {
    /// AgentEval's `skills scan` / `scan-workspace` / `baseline` (AgentEvalHQ/AgentEval).
    Agenteval,
}

/// `[scan]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ScanSettings {
    /// Extra folders (relative to the repository root) whose subfolders hold skills, walked
    /// also with `--conventions-only` and attributed like a convention.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roots: Vec<RelativeDir>,
    /// Paths (relative, `/`-separated globs) left out of the scan: `vendor/**`,
    /// `**/testdata/**`. A pattern without `/` matches a file or folder name at any depth.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<GlobPattern>,
    /// Loader profiles to emulate (see `skillguard loaders`); default: every profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profiles: Option<Vec<String>>,
    /// Walk only the known skills conventions (and `roots`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conventions_only: Option<bool>,
    /// Honour `.gitignore` files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub respect_gitignore: Option<bool>,
}

/// `[limits]`: the command line's flags win.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Limits {
    /// Files larger than this many bytes are hashed but not parsed (and reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_file_size: Option<u64>,
    /// Directories this many or more levels below a walk root are not entered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_depth: Option<usize>,
    /// Directories per repository before the walk stops descending.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1))]
    pub max_dirs: Option<usize>,
}

/// `[[ignore]]`: one suppression.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Suppression {
    /// The rule id (or category) suppressed.
    pub rule: RuleSelector,
    /// Where: a glob over the finding's path relative to the repository root (default: everywhere).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<GlobPattern>,
    /// Only the finding with this fingerprint (64 hex digits, as in the JSON report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<Fingerprint>,
    /// Why the finding is acceptable (or, with `severity`, why it may be reported lower).
    /// Required.
    pub reason: Reason,
    /// Report the matching findings at this severity instead of suppressing them: a
    /// lowering, with its reason stated in the finding's message. The only way to lower
    /// `content-not-inspected`, which also needs a `path` or a `fingerprint`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<SeverityName>,
    /// The last day (`YYYY-MM-DD`, UTC) the suppression holds; after it the finding is
    /// reported again, with a `suppression-expired` finding naming the entry.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<Date>,
}

macro_rules! validated_string {
    ($(#[$m:meta])* $name:ident, $check:expr) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(try_from = "String", into = "String")]
        pub struct $name(String);

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }
            fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
                <String as schemars::JsonSchema>::json_schema(g)
            }
        }

        impl TryFrom<String> for $name {
            type Error = String;
            fn try_from(s: String) -> Result<Self, String> {
                let check: fn(&str) -> Result<(), String> = $check;
                check(&s).map(|()| $name(s))
            }
        }

        impl From<$name> for String {
            fn from(v: $name) -> String {
                v.0
            }
        }

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }
    };
}

validated_string!(
    /// A rule id, an AgentEval alias, or a category (`security`, `security/secrets`).
    RuleSelector,
    |s| {
        if selector_known(s) {
            Ok(())
        } else {
            Err(format!(
                "unknown rule or category `{}`{}; run `skillguard rules` for the list",
                crate::text::sanitize_line(s),
                crate::catalog::did_you_mean(s)
            ))
        }
    }
);

validated_string!(
    /// A `/`-separated glob relative to the repository root.
    GlobPattern,
    |s| {
        if s.starts_with('/') || s.split('/').any(|p| p == "..") {
            return Err(format!("`{s}`: globs are relative to the repository root, without `..`"));
        }
        globset::Glob::new(s).map(|_| ()).map_err(|e| format!("bad glob `{s}`: {e}"))
    }
);

validated_string!(
    /// A folder relative to the repository root, inside it.
    RelativeDir,
    |s| {
        if s.is_empty()
            || s.starts_with('/')
            || s.contains('\\')
            || s.split('/').any(|p| p == "..")
        {
            Err(format!("`{s}`: a relative folder inside the repository, `/`-separated, without `..`"))
        } else {
            Ok(())
        }
    }
);

validated_string!(
    /// 64 hexadecimal digits.
    Fingerprint,
    |s| {
        if s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(())
        } else {
            Err("a fingerprint is 64 hexadecimal digits (the `fingerprint` of a finding in the JSON report)".into())
        }
    }
);

validated_string!(
    /// An explanation a reader can see (not empty, not only blanks or invisible characters).
    Reason,
    |s| {
        if !crate::text::has_visible(s) {
            Err("a suppression needs a reason: say why the finding is acceptable".into())
        } else {
            Ok(())
        }
    }
);

validated_string!(
    /// A calendar date, `YYYY-MM-DD`.
    Date,
    |s| {
        chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d")
            .map(|_| ())
            .map_err(|_| format!("`{s}` is not a date (YYYY-MM-DD)"))
    }
);

impl Date {
    pub fn date(&self) -> chrono::NaiveDate {
        chrono::NaiveDate::parse_from_str(&self.0, "%Y-%m-%d").unwrap_or_default()
    }
}

/// A severity written in lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum SeverityName {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl From<SeverityName> for Severity {
    fn from(s: SeverityName) -> Severity {
        match s {
            SeverityName::Info => Severity::Info,
            SeverityName::Low => Severity::Low,
            SeverityName::Medium => Severity::Medium,
            SeverityName::High => Severity::High,
            SeverityName::Critical => Severity::Critical,
        }
    }
}

/// Does `s` name a rule (or alias) or a category of the catalog?
pub fn selector_known(s: &str) -> bool {
    crate::catalog::get(s).is_some()
        || crate::catalog::all()
            .iter()
            .any(|m| in_category(m.category, s))
}

/// `category` is `sel` or below it (`security/secrets` is in `security`).
pub fn in_category(category: &str, sel: &str) -> bool {
    category == sel
        || category
            .strip_prefix(sel)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Does selector `sel` cover the rule `rule_id` of category `category`?
pub fn selects(sel: &str, rule_id: &str, category: &str) -> bool {
    rule_id == sel
        || crate::catalog::get(sel).is_some_and(|m| m.id == rule_id)
        || in_category(category, sel)
}

/// The off-by-default rules a scan runs. `select` (the command line's `--select` when given,
/// else the file's) is an allow-list: when it is not empty, the rules it covers run (naming a
/// rule or its category switches it on) and no others; when it is empty, the rules an
/// `enable = true` table covers run. Rules that `--ignore` or a `disable = true` table covers
/// never run (the policy would drop their findings).
pub fn enabled_rules(
    cli_select: &[String],
    cli_ignore: &[String],
    cfg: &Config,
) -> crate::catalog::Enabled {
    let select: Vec<&str> = if cli_select.is_empty() {
        cfg.select.iter().map(|s| s.as_str()).collect()
    } else {
        cli_select.iter().map(|s| s.trim()).collect()
    };
    let tables = |on: fn(&RuleSettings) -> bool| -> Vec<&str> {
        cfg.rules
            .iter()
            .filter(|(_, v)| on(v))
            .map(|(k, _)| k.as_str())
            .collect()
    };
    let enable = tables(|v| v.enable);
    let disable = tables(|v| v.disable);
    let ignore: Vec<&str> = cli_ignore.iter().map(|s| s.trim()).collect();
    let hit = |list: &[&str], m: &crate::catalog::RuleMeta| {
        list.iter().any(|s| selects(s, m.id, m.category))
    };
    crate::catalog::Enabled::only(
        crate::catalog::all()
            .iter()
            .filter(|m| !m.default_enabled)
            .filter(|m| {
                if select.is_empty() {
                    hit(&enable, m)
                } else {
                    hit(&select, m)
                }
            })
            .filter(|m| !hit(&ignore, m) && !hit(&disable, m))
            .map(|m| m.id),
    )
}

/// A configuration file that cannot be used (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    /// A syntax or value error, with the caret display.
    #[error("{path}:{line}:{column}: {message}\n{excerpt}")]
    Invalid {
        path: String,
        line: usize,
        column: usize,
        message: String,
        excerpt: String,
    },
}

/// A configuration and where it came from.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub config: Config,
    /// The file read (`None`: defaults, no file).
    pub path: Option<PathBuf>,
}

/// Reads `path` (bounded, never through a link: the configuration at a scanned repository's
/// root): the configuration and the file's text, or `Ok(None)` when it does not exist.
pub fn read(path: &Path) -> Result<Option<(Config, String)>, ConfigError> {
    read_from(path, crate::fsutil::open_regular_explained(path))
}

/// Reads a configuration the operator named (`--config`): a link is followed
/// ([`crate::fsutil::open_named`]).
pub fn read_named(path: &Path) -> Result<Option<(Config, String)>, ConfigError> {
    read_from(path, crate::fsutil::open_named(path))
}

fn read_from(
    path: &Path,
    opened: std::io::Result<std::fs::File>,
) -> Result<Option<(Config, String)>, ConfigError> {
    let shown = path.display().to_string();
    let f = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(ConfigError::Io {
                path: shown,
                source,
            });
        }
    };
    let mut bytes = Vec::new();
    f.take(MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| ConfigError::Io {
            path: shown.clone(),
            source,
        })?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(invalid(
            &shown,
            "",
            0,
            format!("larger than {MAX_CONFIG_BYTES} bytes"),
        ));
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
            return Err(invalid(&shown, &lossy, at, "not valid UTF-8".into()));
        }
    };
    parse(&shown, &text).map(|c| Some((c, text)))
}

/// Parses the text of a configuration file; `path` is only used in messages.
pub fn parse(path: &str, text: &str) -> Result<Config, ConfigError> {
    let c = toml::from_str::<Config>(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        invalid(path, text, at, e.message().trim().to_owned())
    })?;
    check_fail_closed(&c).map_err(|(needle, nth, message)| {
        invalid(path, text, locate(text, needle, nth), message)
    })?;
    Ok(c)
}

/// Rules that fail closed (`content-not-inspected`): lowered only per path, with a reason,
/// by an `[[ignore]]` entry; never by a `[rules.X]` table, a category, or an entry that
/// covers every path. The error names the text to point at (and which occurrence).
fn check_fail_closed(c: &Config) -> Result<(), (&'static str, usize, String)> {
    use crate::rules::ids::CONTENT_NOT_INSPECTED as ID;
    if let Some((_, v)) = c.rules.iter().find(|(k, _)| k.as_str() == ID) {
        let lowered = v
            .severity
            .is_some_and(|s| Severity::from(s) < Severity::High);
        if v.disable || lowered {
            return Err((
                "[rules.content-not-inspected]",
                0,
                format!(
                    "`{ID}` cannot be {} for every path: what was not read is lowered only per path, with a reason. Use an `[[ignore]]` entry with `rule = \"{ID}\"`, a `path`, `severity` and `reason` (docs/suppressions.md)",
                    if v.disable { "disabled" } else { "lowered" }
                ),
            ));
        }
    }
    for (i, e) in c.ignore.iter().enumerate() {
        // A path that starts with a wildcard (`**`, `*.zip`, `**/x`) matches files anywhere:
        // that lowers the rule by class, not where the team knows what the file is.
        let open_glob = e.path.as_ref().is_some_and(|p| {
            let p = p.as_str().trim_start_matches("./");
            let first = p.split('/').next().unwrap_or("");
            first.is_empty() || first == "." || first.contains(['*', '?', '[', '{'])
        });
        if e.rule.as_str() == ID && open_glob && e.fingerprint.is_none() {
            return Err((
                "[[ignore]]",
                i,
                format!(
                    "an `[[ignore]]` entry for `{ID}` needs a concrete path, not a pattern that starts with a wildcard or covers the whole tree: what was not read is lowered only where the team knows what it is (name the file, or its folder: `vendor/fonts/**`)"
                ),
            ));
        }
        if e.rule.as_str() == ID && e.path.is_none() && e.fingerprint.is_none() {
            return Err((
                "[[ignore]]",
                i,
                format!(
                    "an `[[ignore]]` entry for `{ID}` needs a `path` (or a `fingerprint`): what was not read is lowered only where the team knows what it is"
                ),
            ));
        }
    }
    Ok(())
}

/// The byte offset of the `nth` occurrence of `needle` at the start of a line (0 if none).
fn locate(text: &str, needle: &str, nth: usize) -> usize {
    let mut at = 0;
    let mut seen = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with(needle) {
            if seen == nth {
                return at + (line.len() - line.trim_start().len());
            }
            seen += 1;
        }
        at += line.len();
    }
    0
}

fn invalid(path: &str, text: &str, at: usize, message: String) -> ConfigError {
    let at = at.min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let line_no = text[..line_start].matches('\n').count() + 1;
    let column = text[line_start..at].chars().count() + 1;
    let shown = crate::text::sanitize_line(&text[line_start..line_end]).into_owned();
    let excerpt = format!(
        "{line_no:>5} | {shown}\n      | {}^",
        " ".repeat(column.saturating_sub(1))
    );
    ConfigError::Invalid {
        path: path.to_owned(),
        line: line_no,
        column,
        message: crate::text::sanitize_line(&message).into_owned(),
        excerpt,
    }
}

/// The JSON Schema of the file (pretty JSON with a final newline).
pub fn schema() -> String {
    let s = schemars::schema_for!(Config);
    let mut out = serde_json::to_string_pretty(&s).expect("serialisable schema");
    out.push('\n');
    out
}

/// [`STARTER`] with every commented-out key switched on (for tests of the starter).
#[doc(hidden)]
pub fn starter_with_every_key() -> String {
    STARTER
        .lines()
        .map(|l| {
            let t = l.trim_start_matches("# ");
            if t.contains(" = ") || t.starts_with('[') {
                t.to_owned()
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What `skillguard init` writes: every key, commented, with its default.
pub const STARTER: &str = r#"# skillguard configuration (docs/configuration.md). Every key is optional.
# Schema: docs/skillguard.schema.json. Command-line flags win over this file.

# Exit 1 when a finding at or above this severity remains: info, low, medium, high, critical.
# fail-on = "high"

# Behave as AgentEval's CLI (its JSON, console and Markdown, its 15 rules, exit codes and
# ledger location), so its CI scripts keep working: docs/migrating-from-agenteval.md.
# compat = "agenteval"

# Honour `<!-- skillguard-ignore RULE: reason -->` (Markdown) and
# `# skillguard-ignore RULE: reason` (scripts, YAML) comments, on their line and the next.
inline-ignores = false

# Only these rules or categories (compliance, quality, loader, integrity, security,
# security/secrets, ...). Naming a rule that is off by default here also switches it on.
# select = ["security", "compliance"]

# The harnesses this repository ships to (loader profile ids; `skillguard loaders`). A skill a
# target drops is high; what only other harnesses reject is portability (low). Default:
# inferred from where the skills and agents live, stated on the scan's first line.
# targets = ["claude-code", "vscode-copilot"]
# Weigh every harness as a target (publishing to all of them):
# strict-portability = true

# Per rule or category: switch it off, switch on a rule that is off by default (`skillguard
# rules` marks them), or change its severity.
# [rules.script-requires-governance-review]
# disable = true
# [rules.quality]
# enable = true
# [rules."security/supply-chain"]
# severity = "medium"

[scan]
# Extra folders whose subfolders hold skills (relative to the repository root).
# roots = ["tools/skills"]
# Paths left out of the scan (globs relative to the repository root).
# exclude = ["vendor/**", "**/testdata/**"]
# Loader profiles to emulate (see `skillguard loaders`); default: all of them.
# profiles = ["claude-code", "skills-ref"]
# conventions-only = false
# respect-gitignore = false

[limits]
# max-file-size = 10485760
# max-depth = 12
# max-dirs = 50000

# A suppression: a rule, a reason, and optionally a path glob, one fingerprint and an end date.
# With `severity`, the findings are reported at that severity instead of hidden (a lowering;
# the only way to lower `content-not-inspected`, and only with a `path` or `fingerprint`).
# [[ignore]]
# rule = "secret-generic"
# path = "skills/demo/references/*.md"
# reason = "documented example keys, not live secrets"
# expires = "2027-06-30"
# severity = "low"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starter_parses_to_the_defaults() {
        let c = parse("s.toml", STARTER).unwrap();
        assert_eq!(c, Config::default());
        // With every commented key switched on, it still parses.
        let on = starter_with_every_key();
        let c = parse("s.toml", &on).unwrap_or_else(|e| panic!("{e}\n{on}"));
        assert_eq!(c.fail_on, Some(SeverityName::High));
        assert_eq!(c.ignore.len(), 1);
        assert_eq!(c.rules.len(), 3);
    }

    #[test]
    fn errors_name_line_column_and_show_a_caret() {
        let e = parse("x.toml", "inline-ignores = true\nfail-on = \"urgent\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.toml:2:11:"), "{e}");
        assert!(
            e.contains("    2 | fail-on = \"urgent\"\n      |           ^"),
            "{e}"
        );
        let e = parse("x.toml", "[scan]\nexclde = []\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("x.toml:2:1:") && e.contains("exclde"), "{e}");
        let e = parse("x.toml", "[rules.no-such-rule]\ndisable = true\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown rule or category"), "{e}");
        let e = parse(
            "x.toml",
            "[[ignore]]\nrule = \"secret-generic\"\nreason = \" \"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("needs a reason") && e.starts_with("x.toml:3:"),
            "{e}"
        );
        let e = parse(
            "x.toml",
            "[[ignore]]\nrule = \"secret-generic\"\nreason = \"r\"\nexpires = \"2027-13-01\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("not a date"), "{e}");
        let e = parse("x.toml", "[[ignore]]\nrule = \"secret-generic\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("reason"), "{e}");
        let e = parse("x.toml", "[scan]\nexclude = [\"../x\"]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("without `..`"), "{e}");
        let e = parse("x.toml", "fail-on = \n").unwrap_err().to_string();
        assert!(e.starts_with("x.toml:1:"), "{e}");
    }

    /// The error a configuration text is refused with.
    fn refused(text: &str) -> String {
        parse("x.toml", text).unwrap_err().to_string()
    }

    #[test]
    fn content_not_inspected_is_lowered_only_per_path_with_a_reason() {
        let ok = "[[ignore]]\nrule = \"content-not-inspected\"\npath = \"a/b.tar.gz\"\nseverity = \"low\"\nreason = \"checked upstream\"\n";
        let c = parse("x.toml", ok).unwrap();
        assert_eq!(c.ignore[0].severity, Some(SeverityName::Low));
        // Without a reason: refused.
        let e = refused(
            "[[ignore]]\nrule = \"content-not-inspected\"\npath = \"a\"\nseverity = \"low\"\n",
        );
        assert!(e.contains("reason"), "{e}");
        // Everywhere: refused, pointing at the entry.
        let e = refused(
            "fail-on = \"high\"\n[[ignore]]\nrule = \"secret-generic\"\nreason = \"r\"\n[[ignore]]\nrule = \"content-not-inspected\"\nreason = \"r\"\n",
        );
        assert!(
            e.starts_with("x.toml:5:1:") && e.contains("needs a `path`"),
            "{e}"
        );
        for table in ["severity = \"medium\"", "disable = true"] {
            let e = refused(&format!("[rules.content-not-inspected]\n{table}\n"));
            assert!(
                e.starts_with("x.toml:1:1:") && e.contains("per path"),
                "{e}"
            );
        }
        // A pattern that matches everywhere is not a path; a folder is.
        for path in ["**", "*", "**/*.7z", "./**", ".", "*.zip"] {
            let e = refused(&format!(
                "[[ignore]]\nrule = \"content-not-inspected\"\npath = \"{path}\"\nseverity = \"low\"\nreason = \"r\"\n"
            ));
            assert!(e.contains("concrete path"), "{path}: {e}");
        }
        parse(
            "x.toml",
            "[[ignore]]\nrule = \"content-not-inspected\"\npath = \"vendor/fonts/**\"\nseverity = \"low\"\nreason = \"r\"\n",
        )
        .unwrap();
        // Raising it is fine.
        parse(
            "x.toml",
            "[rules.content-not-inspected]\nseverity = \"critical\"\n",
        )
        .unwrap();
    }

    #[test]
    fn selectors_cover_rules_and_categories() {
        let any = crate::catalog::all()
            .iter()
            .find(|m| m.category.starts_with("security/"))
            .unwrap();
        assert!(selects("security", any.id, any.category));
        assert!(selects(any.category, any.id, any.category));
        assert!(selects(any.id, any.id, any.category));
        assert!(!selects("compliance", any.id, any.category));
        assert!(!selects("sec", any.id, any.category));
        assert!(selector_known("security") && !selector_known("sec"));
    }
}
