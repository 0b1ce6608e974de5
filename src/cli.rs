//! Command-line interface: clap definitions ("low args") and the dispatcher that
//! validates them into scan options ("high args"), runs the command and returns
//! the exit status. `main.rs` only maps the result to a process exit code.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::catalog;
use crate::discover::{Mode, WalkOptions};
use crate::finding::Severity;
use crate::fsutil::write_atomic;
use crate::read::ReadOptions;
use crate::report::{self, Format, RenderOptions};
use crate::result::ScanResult;
use crate::scan::{self, ScanOptions};
use crate::text::sanitize_line;

mod coverage;
mod evals;
mod evals_tools;
mod generate;
mod progress;
pub use evals::EvalsCmd;
pub use generate::{CompletionsCmd, ManCmd};

/// skillguard: security and compliance scanner for AI-agent skill repositories.
#[derive(Debug, Parser)]
#[command(name = "skillguard", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Scan a skill, a skills root (PATH) or a whole repository (--repo ROOT).
    Scan(ScanCmd),
    /// Scan every immediate non-hidden subdirectory of DIR as a repository.
    ScanWorkspace(WorkspaceCmd),
    /// List the rule catalog.
    Rules(RulesCmd),
    /// Print a rule's documentation.
    Explain(ExplainCmd),
    /// List the loader profiles and what each emulates.
    Loaders,
    /// Review and manage baselines: the snapshot ledger and pin files.
    #[command(subcommand)]
    Baseline(BaselineCmd),
    /// Write a commented starter `.skillguard.toml`.
    Init(InitCmd),
    /// Accept today's findings: write their fingerprints to `.skillguard/accepted.json`, so
    /// the gates count only new ones (default: the git repository holding the current
    /// directory; outside one, give the root with --repo ROOT).
    Accept(AcceptCmd),
    /// Merge the JSON reports of `scan-workspace --shard K/N` into one report, the checks
    /// that span repositories (drift, name collisions, look-alike names) recomputed over all.
    Merge(MergeCmd),
    /// Which skills and agents have evals: eval files, cases per set, trigger tests and
    /// graders of each, the ones without any, and percentages (`--fail-under-coverage N`).
    Coverage(coverage::CoverageCmd),
    /// Evaluations: grade sample outputs against an `evals.json` (pass@k, pass^k, gates), and
    /// check transcripts against an agent's `tools:` (`evals tools`).
    #[command(subcommand)]
    Evals(EvalsCmd),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) to stdout.
    Completions(CompletionsCmd),
    /// Print the man page (roff) of skillguard or of one subcommand to stdout.
    Man(ManCmd),
}

/// Where the ledger is, for `baseline` subcommands.
#[derive(Debug, Args)]
pub struct LedgerArgs {
    /// Ledger directory (default: `.skillguard/ledger` under --repo).
    #[arg(long, value_name = "DIR")]
    pub baseline_root: Option<PathBuf>,
    /// Repository or workspace root whose ledger to use (default: the git repository
    /// containing the current directory, else the current directory).
    #[arg(long, value_name = "ROOT")]
    pub repo: Option<PathBuf>,
}

impl LedgerArgs {
    fn ledger(&self) -> crate::baseline::ledger::Ledger {
        use crate::baseline::{ledger::Ledger, record};
        if let Some(r) = &self.baseline_root {
            return Ledger::new(r.clone());
        }
        let home = match &self.repo {
            Some(r) => record::home(Mode::Repo, r),
            None => record::home(Mode::Path, Path::new(".")),
        };
        Ledger::guarded(record::default_ledger_root(&home), home)
    }
}

/// `--compat` of `baseline list|diff|history`.
#[derive(Debug, Args, Clone, Default)]
pub struct LedgerCompatArgs {
    /// Behave as AgentEval's `skills baseline list|diff|history`: read its ledger
    /// (`.agenteval/skills-baselines` under the current directory, or --baseline-root) and
    /// print its texts and exit codes (3 for a runtime error). Also `compat = "agenteval"` in
    /// the repository's `.skillguard.toml`. See docs/baselines.md.
    #[arg(long, value_enum, value_name = "TOOL")]
    pub compat: Option<crate::config::Compat>,
    /// Ignore the repository's `.skillguard.toml` (its `compat` key).
    #[arg(long)]
    pub no_config: bool,
}

impl LedgerCompatArgs {
    /// `--compat`, else (without `--no-config`) the `compat` key of `.skillguard.toml` at the
    /// ledger's home: the `--repo` root, else the git repository holding the current
    /// directory, else the current directory (where a scan by path looks for it too).
    fn resolve(&self, ledger: &LedgerArgs) -> Result<Option<crate::config::Compat>, Error> {
        if self.compat.is_some() || self.no_config {
            return Ok(self.compat);
        }
        let home = match &ledger.repo {
            Some(r) => crate::baseline::record::home(Mode::Repo, r),
            None => crate::baseline::record::home(Mode::Path, Path::new(".")),
        };
        Ok(crate::config::read(&home.join(crate::config::FILE_NAME))?.and_then(|(c, _)| c.compat))
    }
}

/// `baseline diff --hash`: any string (checked after parsing, so that AgentEval's unknown
/// `--hash` can be its runtime error under `--compat agenteval`), with the possible values
/// shown in help and completions.
#[derive(Debug, Clone, Copy)]
struct HashValueParser;

impl clap::builder::TypedValueParser for HashValueParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        value
            .to_str()
            .map(str::to_owned)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            HashArg::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

/// `--format` of the scan commands: parsed leniently by [`parse_format`] (an unknown name is
/// refused later, at the right moment), with the format names shown in help and offered by
/// shell completions (`scan --format <TAB>`).
#[derive(Debug, Clone, Copy)]
struct FormatValueParser;

impl clap::builder::TypedValueParser for FormatValueParser {
    type Value = FormatArg;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<FormatArg, clap::Error> {
        let s = value
            .to_str()
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd))?;
        let Ok(f) = parse_format(s);
        Ok(f)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        use clap::builder::PossibleValue;
        Some(Box::new(
            [
                PossibleValue::new("console"),
                PossibleValue::new("markdown").alias("md"),
                PossibleValue::new("json"),
                PossibleValue::new("sarif"),
                PossibleValue::new("github"),
            ]
            .into_iter(),
        ))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReviewFormat {
    Table,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HashArg {
    Structural,
    Content,
    Files,
}

/// Review-time hash options.
#[derive(Debug, Args, Clone, Default)]
pub struct HashArgs {
    /// Hash text files as if every CRLF were LF (a CRLF checkout is then not drift).
    #[arg(long, help_heading = "Hashing")]
    pub normalize_eol: bool,
    /// Leave files matching GLOB out of content hashes (repeatable; a pattern without `/`
    /// matches the file name at any depth).
    #[arg(long = "hash-ignore", value_name = "GLOB", help_heading = "Hashing")]
    pub hash_ignore: Vec<String>,
    /// Leave editor and OS droppings out of content hashes (.DS_Store, Thumbs.db, *.swp, *~, …).
    #[arg(long, help_heading = "Hashing")]
    pub hash_ignore_droppings: bool,
}

impl HashArgs {
    pub fn options(&self) -> crate::skill_hashes::HashOptions {
        let mut ignore = self.hash_ignore.clone();
        if self.hash_ignore_droppings {
            ignore.extend(
                crate::skill_hashes::DROPPINGS
                    .iter()
                    .map(|s| (*s).to_owned()),
            );
        }
        crate::skill_hashes::HashOptions {
            normalize_eol: self.normalize_eol,
            ignore,
        }
    }

    fn is_default(&self) -> bool {
        !self.normalize_eol && self.hash_ignore.is_empty() && !self.hash_ignore_droppings
    }

    fn hasher(&self) -> Result<crate::skill_hashes::Hasher, Error> {
        crate::skill_hashes::Hasher::new(self.options()).map_err(Error::Usage)
    }
}

#[derive(Debug, Subcommand)]
pub enum BaselineCmd {
    /// List the snapshots in the ledger, oldest first.
    List {
        #[command(flatten)]
        ledger: LedgerArgs,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
        #[command(flatten)]
        compat: LedgerCompatArgs,
    },
    /// What changed between two snapshots, by skill location; between two eval snapshots,
    /// which cases regressed.
    Diff {
        #[command(flatten)]
        ledger: LedgerArgs,
        /// Earlier snapshot: id, unique id prefix or number (default: the one of the same kind
        /// before --until; for an eval snapshot, the previous result of its evals file).
        #[arg(long, value_name = "ID")]
        since: Option<String>,
        /// Later snapshot (default: the newest scan snapshot; after an eval snapshot given to
        /// --since, the newest result of its evals file).
        #[arg(long, value_name = "ID")]
        until: Option<String>,
        /// Only this skill (name, location, or the end of a location).
        #[arg(long, value_name = "NAME|PATH")]
        skill: Option<String>,
        /// Which hash decides that a skill changed.
        #[arg(long, value_name = "HASH", default_value = "content", value_parser = HashValueParser)]
        hash: String,
        #[command(flatten)]
        hashing: HashArgs,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
        #[command(flatten)]
        compat: LedgerCompatArgs,
    },
    /// Every change of one skill at each of its locations, and its recorded eval results.
    History {
        /// Skill name, location, or the end of a location (or an evals file's path).
        #[arg(value_name = "NAME|PATH")]
        skill: String,
        #[command(flatten)]
        ledger: LedgerArgs,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
        #[command(flatten)]
        compat: LedgerCompatArgs,
    },
    /// Check the ledger's hash chain: exit 1 names every edited, deleted, inserted or
    /// reordered snapshot; exit 2 for an unreadable or corrupt file.
    Verify {
        #[command(flatten)]
        ledger: LedgerArgs,
        /// Also require the newest snapshot to have this SHA-256 (pinned elsewhere).
        #[arg(long, value_name = "SHA256")]
        expect_head: Option<String>,
        #[arg(long, value_enum, ignore_case = true, default_value = "table")]
        format: ReviewFormat,
    },
    /// Re-pin one reviewed skill in a pin file, leaving the other entries untouched.
    Approve {
        /// The skill's name.
        #[arg(value_name = "NAME")]
        name: String,
        /// The skill's folder, or a folder that contains it.
        #[arg(long, value_name = "DIR")]
        skill_path: PathBuf,
        /// The pin file (created if missing).
        #[arg(long, value_name = "FILE")]
        baseline: PathBuf,
        /// Note stored with this skill's pin.
        #[arg(long, value_name = "TEXT")]
        note: Option<String>,
        #[command(flatten)]
        hashing: HashArgs,
    },
    /// Import AgentEval ledger snapshots (a folder or one file) or an AgentEval pin file.
    ImportAgenteval {
        /// AgentEval ledger folder, snapshot file or pin file.
        #[arg(value_name = "DIR|FILE")]
        input: PathBuf,
        #[command(flatten)]
        ledger: LedgerArgs,
        /// Where to write an imported pin file (merged when it exists).
        #[arg(long, value_name = "FILE")]
        pin_out: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct ScanCmd {
    /// A skill directory (holding SKILL.md) or a folder whose subfolders hold skills. With
    /// --repo: changed files (`scan --repo . -- FILE…`, what pre-commit passes); only the
    /// skills holding them are scanned and reported, with the cross-skill checks that
    /// involve them.
    #[arg(value_name = "PATH | FILE")]
    pub paths: Vec<PathBuf>,
    /// Scan every known skills convention under this repository root.
    #[arg(long, value_name = "ROOT")]
    pub repo: Option<PathBuf>,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Args)]
pub struct WorkspaceCmd {
    /// Folder of cloned repositories.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// Honour the scanned repositories' own `.skillguard.toml` (rules and suppressions) and
    /// `skillguard-ignore` comments. Off by default: the author of a skill may be the attacker.
    #[arg(long, help_heading = "Policy")]
    pub trust_repo_config: bool,
    /// Scan only shard K of N (1-based): a partition of the repositories by the SHA-256 of
    /// their names. Write each shard's report as JSON and join them with `skillguard merge`.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, help_heading = "Walk")]
    pub shard: Option<(u64, u64)>,
    /// Scan workspace entries that are symbolic links to folders as repositories, each
    /// rooted at its link's target (links inside a repository still never leave it).
    #[arg(long, help_heading = "Walk")]
    pub follow_repo_links: bool,
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Args)]
pub struct MergeCmd {
    /// JSON reports of `scan-workspace --shard K/N --format json`, one per shard.
    #[arg(value_name = "REPORT.json", required = true)]
    pub reports: Vec<PathBuf>,
    /// Report options and gates (`--format`, `-o`, `--fail-on`, `--fail-under-index`, …);
    /// the walk, policy and baseline options do not apply to a merge.
    #[command(flatten)]
    pub common: CommonArgs,
}

/// `--max-bytes`: 0 (no limit) or at least 4096, room for the report's summary.
fn parse_max_bytes(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of bytes"))?;
    if n != 0 && n < 4096 {
        return Err(format!(
            "{n} bytes is too small for a report's summary: give 0 (no limit) or at least 4096"
        ));
    }
    Ok(n)
}

/// `K/N` with 1 ≤ K ≤ N ≤ 100000.
fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let (k, n) = s
        .split_once('/')
        .ok_or_else(|| format!("`{s}`: expected K/N, e.g. 2/8"))?;
    let k: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: K is not a number"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: N is not a number"))?;
    if n == 0 || n > 100_000 || k == 0 || k > n {
        return Err(format!("`{s}`: need 1 <= K <= N <= 100000"));
    }
    Ok((k, n))
}

#[derive(Debug, Args)]
pub struct InitCmd {
    /// Repository root to write `.skillguard.toml` into (default: the current directory).
    #[arg(long, value_name = "ROOT")]
    pub repo: Option<PathBuf>,
    /// Replace an existing file.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct AcceptCmd {
    /// Why the findings of today are accepted (stored with each new entry).
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    #[command(flatten)]
    pub scan: ScanCmd,
}

/// `--format` as given: parsed leniently, and an unknown name kept so that it is refused at
/// the right moment (before the scan normally; after it, with exit 3, under
/// `--compat agenteval`, as AgentEval validates it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatArg {
    pub format: Option<Format>,
    pub raw: String,
}

impl FormatArg {
    /// The format, console for an unknown name (which [`FormatArg::check`] refuses).
    pub fn get(&self) -> Format {
        self.format.unwrap_or(Format::Console)
    }

    /// The usage error of an unknown name.
    pub fn check(&self) -> Result<Format, Error> {
        self.format.ok_or_else(|| {
            Error::Usage(format!(
                "unknown --format '{}': use console, markdown (md), json, sarif or github",
                sanitize_line(&self.raw)
            ))
        })
    }
}

impl PartialEq<Format> for FormatArg {
    fn eq(&self, other: &Format) -> bool {
        self.format == Some(*other)
    }
}

/// `--format`: trimmed, case-insensitive, empty = console, `md` = markdown (AgentEval's
/// rules). Never fails: an unknown name is refused later ([`FormatArg::check`]).
fn parse_format(s: &str) -> Result<FormatArg, std::convert::Infallible> {
    let format = match s.trim().to_ascii_lowercase().as_str() {
        "" | "console" => Some(Format::Console),
        "markdown" | "md" => Some(Format::Markdown),
        "json" => Some(Format::Json),
        "sarif" => Some(Format::Sarif),
        "github" => Some(Format::Github),
        _ => None,
    };
    Ok(FormatArg {
        format,
        raw: s.to_owned(),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl From<SeverityArg> for Severity {
    fn from(s: SeverityArg) -> Severity {
        match s {
            SeverityArg::Info => Severity::Info,
            SeverityArg::Low => Severity::Low,
            SeverityArg::Medium => Severity::Medium,
            SeverityArg::High => Severity::High,
            SeverityArg::Critical => Severity::Critical,
        }
    }
}

#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Report format: console, markdown (or md), json, sarif, github; matched without regard
    /// to case or surrounding blanks, as AgentEval does.
    #[arg(long, default_value = "console", value_parser = FormatValueParser, value_name = "FORMAT", help_heading = "Output")]
    pub format: FormatArg,
    /// Write the report to FILE instead of stdout (diagnostics still go to stderr).
    #[arg(short = 'o', long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Colour in console output.
    #[arg(long, value_enum, default_value = "auto", help_heading = "Output")]
    pub color: ColorChoice,
    /// Console: show only findings at or above the --fail-on threshold; no stderr notes.
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,
    /// Console and Markdown: group findings by rule (the console's default: one line per
    /// finding, at most 5 per rule), by skill (with its loaders and index; Markdown's
    /// default) or by file.
    #[arg(long, value_enum, help_heading = "Output")]
    pub group_by: Option<report::summary::GroupBy>,
    /// Console, Markdown and GitHub annotations: list at most N findings of each rule, and
    /// count the rest ("… and 12 more"); 0 lists all. The console's default view lists 5;
    /// the other views list all. JSON and SARIF always list every finding.
    #[arg(long, value_name = "N", help_heading = "Output")]
    pub max_findings_per_rule: Option<usize>,
    /// Markdown: keep the report under N bytes, cutting details first and saying what was
    /// cut (default 1048576, GitHub's job-summary limit; 0: no limit; otherwise at least 4096).
    #[arg(long, value_name = "N", value_parser = parse_max_bytes, help_heading = "Output")]
    pub max_bytes: Option<usize>,
    /// Never draw the progress bar (it is drawn only on a terminal, for console output
    /// without --quiet, outside CI).
    #[arg(long, help_heading = "Output")]
    pub no_progress: bool,
    /// Exit 1 when any high or critical finding is reported (same as --fail-on high).
    #[arg(long, help_heading = "Gate")]
    pub fail_on_noncompliant: bool,
    /// Exit 1 when any finding at or above SEVERITY is reported.
    #[arg(long, value_enum, value_name = "SEVERITY", help_heading = "Gate")]
    pub fail_on: Option<SeverityArg>,
    /// Worker threads (0 = one per core; at most 4 per core).
    #[arg(
        short = 'j',
        long,
        default_value_t = 0,
        value_name = "N",
        help_heading = "Scan"
    )]
    pub threads: usize,
    /// Honour .gitignore files (off by default: skills live in hidden and ignored folders).
    #[arg(long, help_heading = "Scan")]
    pub respect_gitignore: bool,
    /// Loader profiles to emulate, comma-separated, or `none` (default: every profile,
    /// each judging the skills in the folders it reads). See `skillguard loaders`.
    #[arg(
        long = "profile",
        value_name = "NAME[,NAME…]",
        value_delimiter = ',',
        help_heading = "Scan"
    )]
    pub profiles: Vec<String>,
    /// The harnesses the repository ships to, comma-separated profile ids, or `all`
    /// (default: inferred from where its skills and agents live, stated on the first line).
    /// A harness it does not target weighs its verdicts as portability: low, not high.
    #[arg(
        long = "targets",
        value_name = "all|NAME[,NAME…]",
        value_delimiter = ',',
        help_heading = "Scan"
    )]
    pub targets: Vec<String>,
    /// Repository scans: walk only the known skills conventions, not the whole repository.
    #[arg(long, help_heading = "Scan")]
    pub conventions_only: bool,
    /// Do not enter directories N or more levels below a walk root [default: 12].
    #[arg(long, value_name = "N", help_heading = "Scan")]
    pub max_depth: Option<usize>,
    /// Stop descending after N directories per repository [default: 50000].
    #[arg(long, value_name = "N", help_heading = "Scan")]
    pub max_dirs: Option<usize>,
    /// Files larger than BYTES are hashed but not parsed (and reported) [default: 10485760].
    #[arg(long, value_name = "BYTES", help_heading = "Scan")]
    pub max_file_size: Option<u64>,
    /// Configuration file (default: `.skillguard.toml` at the repository root; in a
    /// workspace scan, at the workspace root).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "no_config",
        help_heading = "Policy"
    )]
    pub config: Option<PathBuf>,
    /// Ignore every configuration file.
    #[arg(long, help_heading = "Policy")]
    pub no_config: bool,
    /// Report only these rules or categories (`security`, `security/secrets`, a rule id).
    #[arg(
        long,
        value_name = "RULE|CATEGORY,…",
        value_delimiter = ',',
        help_heading = "Policy"
    )]
    pub select: Vec<String>,
    /// Do not report these rules or categories.
    #[arg(
        long,
        value_name = "RULE|CATEGORY,…",
        value_delimiter = ',',
        help_heading = "Policy"
    )]
    pub ignore: Vec<String>,
    /// Suppressions and accepted findings hide nothing (unused ones are still reported).
    #[arg(long, help_heading = "Policy")]
    pub no_ignores: bool,
    /// Also list the suppressed and accepted findings, with their reasons, in the console
    /// (JSON and SARIF always carry them; Markdown counts them).
    #[arg(long, help_heading = "Policy")]
    pub show_suppressed: bool,
    /// Accepted findings (default: `.skillguard/accepted.json` under the repository or
    /// workspace root; see `skillguard accept`).
    #[arg(long, value_name = "FILE", help_heading = "Policy")]
    pub accepted: Option<PathBuf>,
    /// Append a snapshot of every skill location to the ledger (written alongside the report).
    #[arg(long, help_heading = "Baseline")]
    pub write_baseline: bool,
    /// Ledger directory (default: `.skillguard/ledger` under the scanned repository or workspace).
    #[arg(long, value_name = "DIR", help_heading = "Baseline")]
    pub baseline_root: Option<PathBuf>,
    /// Note stored with the snapshot and the pin file.
    #[arg(long, value_name = "TEXT", help_heading = "Baseline")]
    pub baseline_note: Option<String>,
    /// Trust on first use: report skills identical to, or changed from, copies in the ledger.
    #[arg(long, help_heading = "Baseline")]
    pub check_baseline: bool,
    /// Write a pin file (structural fingerprint, content hash and file hashes per skill).
    #[arg(long, value_name = "FILE", help_heading = "Baseline")]
    pub save_manifest_baseline: Option<PathBuf>,
    /// Check every pinned skill against FILE (a missing file is a note, not an error, except
    /// with --fail-on-drift: see --allow-missing-baseline).
    #[arg(long, value_name = "FILE", help_heading = "Baseline")]
    pub manifest_baseline: Option<PathBuf>,
    /// With --fail-on-drift: let a missing --manifest-baseline file pass (a first run, before
    /// any pin was saved). Without it the gate refuses to run (exit 2), so that a mistyped
    /// path cannot switch the gate off for good.
    #[arg(long, help_heading = "Gate")]
    pub allow_missing_baseline: bool,
    /// Exit 1 when a pin, the ledger or skills-lock.json shows drift, whatever else is found.
    #[arg(long, help_heading = "Gate")]
    pub fail_on_drift: bool,
    /// Exit 1 when the scan's Skill Security Index or any skill's is below N (0-100);
    /// a skill that could not be scored also fails. See docs/security-index.md.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=100), help_heading = "Gate")]
    pub fail_under_index: Option<u8>,
    /// Disclosure trace (JSON list of load_skill / read_skill_resource / run_skill_script
    /// calls) for the index's efficiency axis; without it that axis is not measured.
    #[arg(long, value_name = "FILE", help_heading = "Index")]
    pub trace: Option<PathBuf>,
    /// Graded eval results (the JSON of `skillguard evals grade`; repeatable) for the index's
    /// evals axis: regression pass^k and capability pass@k, counted for the skill or agent
    /// each result evaluates. Without it that axis is not measured. See docs/security-index.md.
    #[arg(long = "evals", value_name = "RESULTS.json", help_heading = "Index")]
    pub eval_results: Vec<PathBuf>,
    /// Behave as AgentEval's `skills scan`: its JSON, console and Markdown reports, its 15
    /// rules only, its exit codes (3 for runtime errors) and its ledger location. Also
    /// `compat = "agenteval"` in the configuration. See docs/migrating-from-agenteval.md.
    #[arg(long, value_enum, value_name = "TOOL", help_heading = "Output")]
    pub compat: Option<crate::config::Compat>,
    #[command(flatten)]
    pub hashing: HashArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Table,
    #[value(alias = "md")]
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct RulesCmd {
    /// `table` (default), `markdown` (the text of docs/rules.md) or `json`.
    #[arg(long, value_enum, ignore_case = true, default_value = "table")]
    pub format: RulesFormat,
}

#[derive(Debug, Args)]
pub struct ExplainCmd {
    /// Rule id, its AgentEval alias, or the number of that AgentEval rule (0–14).
    pub rule: String,
}

/// Outcome of a command, mapped to the exit code by `main`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: nothing reached the threshold.
    Clean,
    /// 1: at least one finding at or above the threshold.
    Findings,
}

/// Under `--compat agenteval`, an error of the command is AgentEval's exit 3 with its
/// `  Error: {message}` line ([`Error::Compat`]); otherwise it stays an error (exit 2).
fn compat_outcome(compat: bool, outcome: Result<ExitStatus, Error>) -> Result<ExitStatus, Error> {
    match outcome {
        Err(e)
            if compat
                && !matches!(&e, Error::Compat(_))
                && !matches!(&e, Error::Io(io) if io.kind() == io::ErrorKind::BrokenPipe) =>
        {
            // AgentEval's text is the message alone, without skillguard's "invalid option: ".
            let msg = match e {
                Error::Usage(m) => m,
                e => e.to_string(),
            };
            Err(Error::Compat(msg))
        }
        other => other,
    }
}

/// Whether a scan runs under `--compat agenteval`: the flag, else the operator's
/// configuration (read here only to decide how errors are reported).
fn compat_of(mode: Mode, target: &Path, common: &CommonArgs) -> Option<crate::config::Compat> {
    common.compat.or_else(|| {
        operator_config(mode, target, common)
            .ok()
            .flatten()
            .and_then(|o| o.0.compat)
    })
}

/// Errors that end a command with exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Discover(#[from] crate::discover::DiscoverError),
    #[error("unknown rule `{}`{}; run `skillguard rules` for the list", sanitize_line(.0), catalog::did_you_mean(.0))]
    UnknownRule(String),
    #[error("cannot write report to {path}: {source}")]
    Output { path: String, source: io::Error },
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error("invalid option: {0}")]
    Usage(String),
    #[error(transparent)]
    Baseline(#[from] crate::baseline::BaselineError),
    #[error(transparent)]
    Ledger(#[from] crate::baseline::ledger::LedgerError),
    #[error(transparent)]
    Pin(#[from] crate::baseline::pin::PinError),
    #[error(transparent)]
    Import(#[from] crate::baseline::import::ImportError),
    /// An unreadable or malformed `--trace` file (the message names it).
    #[error("{0}")]
    Trace(String),
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(transparent)]
    Accepted(#[from] crate::policy::AcceptedError),
    #[error(transparent)]
    Merge(#[from] crate::merge::MergeError),
    #[error(transparent)]
    Evals(#[from] crate::evals::grade::GradeError),
    #[error(transparent)]
    EvalsTools(#[from] evals_tools::EvalsError),
    /// A runtime error under `--compat agenteval`: exit 3, printed as AgentEval prints it
    /// (`  Error: {message}` on stderr).
    #[error("{0}")]
    Compat(String),
}

impl Error {
    /// The process exit code: 3 for an AgentEval-compatible runtime error, else 2.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Compat(_) => 3,
            _ => 2,
        }
    }
}

impl CommonArgs {
    /// The gate: `--fail-on` / `--fail-on-noncompliant`, else the configuration's `fail-on`.
    fn threshold_with(&self, config: Option<Severity>) -> Option<Severity> {
        let a = self
            .fail_on
            .map(Severity::from)
            .or(if self.fail_on_noncompliant {
                None
            } else {
                config
            });
        let b = self.fail_on_noncompliant.then_some(Severity::High);
        match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        }
    }

    /// The `--evals` results, read and checked (a bad file is exit 2, naming it); `None`
    /// without `--evals`.
    fn read_eval_results(&self) -> Result<Option<Vec<crate::index::EvalResult>>, Error> {
        if self.eval_results.is_empty() {
            return Ok(None);
        }
        let rs = self
            .eval_results
            .iter()
            .map(|p| crate::index::evals::read_eval_result(p))
            .collect::<Result<Vec<_>, _>>()?;
        // Two results of one evals file (the same file twice, or an old and a new result)
        // would be pooled and counted twice: refused, naming both.
        let mut seen: std::collections::BTreeMap<String, &str> = Default::default();
        for r in &rs {
            let key = crate::index::evals::normalise(&r.report.evals);
            if let Some(first) = seen.insert(key, &r.file) {
                return Err(Error::Usage(format!(
                    "--evals {} and {} both grade {}; give one result per evals file",
                    crate::text::sanitize_line(first),
                    crate::text::sanitize_line(&r.file),
                    crate::text::sanitize_line(&r.report.evals)
                )));
            }
        }
        Ok(Some(rs))
    }

    /// `-o FILE` checked before any work: its folder must exist and take a new file (a
    /// probe file is created and removed there), and it must not be a folder.
    fn check_output(&self) -> Result<(), Error> {
        match &self.output {
            Some(path) => crate::fsutil::check_writable(path).map_err(|source| Error::Output {
                path: path.display().to_string(),
                source,
            }),
            None => Ok(()),
        }
    }

    /// `--fail-on-drift` with a `--manifest-baseline` file that does not exist: the gate
    /// could never trip (a mistyped CI path would disable it for good), so it is refused
    /// unless `--allow-missing-baseline` says this is a first run.
    fn check_drift_gate(&self) -> Result<(), Error> {
        let Some(p) = &self.manifest_baseline else {
            return Ok(());
        };
        if !self.fail_on_drift || self.allow_missing_baseline {
            return Ok(());
        }
        match std::fs::symlink_metadata(p) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Err(Error::Usage(format!(
                "--fail-on-drift: the pin file {} does not exist, so no drift could ever be found; check the path, or pass --allow-missing-baseline for a first run",
                sanitize_line(&p.display().to_string())
            ))),
            _ => Ok(()),
        }
    }

    fn baseline(&self) -> crate::baseline::ScanBaseline {
        crate::baseline::ScanBaseline {
            write: self.write_baseline,
            root: self.baseline_root.clone(),
            note: self.baseline_note.clone(),
            check: self.check_baseline,
            save_pin: self.save_manifest_baseline.clone(),
            check_pin: self.manifest_baseline.clone(),
        }
    }

    fn options(&self, cfg: &crate::config::Config) -> Result<ScanOptions, Error> {
        self.hashing.hasher()?;
        let max_depth = self.max_depth.or(cfg.limits.max_depth).unwrap_or(12);
        let max_dirs = self.max_dirs.or(cfg.limits.max_dirs).unwrap_or(50_000);
        let max_file_size = self
            .max_file_size
            .or(cfg.limits.max_file_size)
            .unwrap_or(10 * 1024 * 1024);
        if max_depth == 0 {
            return Err(Error::Usage("--max-depth must be at least 1".into()));
        }
        let exclude = if cfg.scan.exclude.is_empty() {
            None
        } else {
            let pats: Vec<&str> = cfg.scan.exclude.iter().map(|g| g.as_str()).collect();
            Some(crate::discover::PathGlobs::new(&pats).map_err(Error::Usage)?)
        };
        let cli_profiles = self.profiles.clone();
        let profile_names: Vec<String> = if cli_profiles.is_empty() {
            cfg.scan.profiles.clone().unwrap_or_default()
        } else {
            cli_profiles
        };
        // More threads than a few per core only cost start-up time (and thousands can
        // take minutes): clamp to 4 × the available parallelism.
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let threads = self.threads.min(4 * cores);
        let profiles = if profile_names.is_empty() {
            crate::loaders::Selection::Default
        } else {
            let mut set = std::collections::BTreeSet::new();
            for p in &profile_names {
                let p = p.trim();
                if p == "none" {
                    continue;
                }
                if crate::loaders::profile(p).is_none() {
                    let known: Vec<&str> =
                        crate::loaders::profiles().iter().map(|x| x.id).collect();
                    return Err(Error::Usage(format!(
                        "unknown profile `{p}`; known profiles: {}",
                        known.join(", ")
                    )));
                }
                set.insert(p.to_owned());
            }
            crate::loaders::Selection::Only(set)
        };
        let target_names: Vec<String> = if !self.targets.is_empty() {
            self.targets.clone()
        } else if cfg.strict_portability {
            vec!["all".to_owned()]
        } else {
            cfg.targets.clone()
        };
        for t in &target_names {
            let t = t.trim();
            if t != "all" && crate::loaders::profile(t).is_none() {
                let known: Vec<&str> = crate::loaders::profiles().iter().map(|x| x.id).collect();
                return Err(Error::Usage(format!(
                    "unknown target `{t}`; give `all` or profile ids: {}",
                    known.join(", ")
                )));
            }
        }
        Ok(ScanOptions {
            profiles,
            targets: crate::targets::Choice::parse(&target_names),
            walk: WalkOptions {
                follow_repo_links: false,
                shard: None,
                max_depth,
                max_dirs: max_dirs.max(1),
                threads,
                respect_gitignore: self.respect_gitignore
                    || cfg.scan.respect_gitignore.unwrap_or(false),
                conventions_only: self.conventions_only
                    || cfg.scan.conventions_only.unwrap_or(false),
                exclude,
                extra_roots: if cfg.scan.roots.is_empty() {
                    &[]
                } else {
                    let roots: Vec<&str> = cfg.scan.roots.iter().map(|r| r.as_str()).collect();
                    crate::conventions::configured(&roots)
                },
            },
            read: ReadOptions {
                max_file_size,
                line_hashes: self.write_baseline,
                ..ReadOptions::default()
            },
            hash: self.hashing.options(),
            threads,
            changed: None,
            progress: None,
            rules: crate::config::enabled_rules(&self.select, &self.ignore, cfg),
            panic_on_skill: None,
        })
    }

    /// The options given that only a walk of a tree uses (how it is walked, read, judged by
    /// the loaders or hashed): commands that read reports refuse them.
    fn walk_options_given(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        let mut given = |on: bool, name: &'static str| {
            if on {
                v.push(name);
            }
        };
        given(self.threads != 0, "--threads");
        given(self.respect_gitignore, "--respect-gitignore");
        given(!self.profiles.is_empty(), "--profile");
        given(!self.targets.is_empty(), "--targets");
        given(self.conventions_only, "--conventions-only");
        given(self.max_depth.is_some(), "--max-depth");
        given(self.max_dirs.is_some(), "--max-dirs");
        given(self.max_file_size.is_some(), "--max-file-size");
        given(self.no_config, "--no-config");
        given(self.no_ignores, "--no-ignores");
        given(self.hashing.normalize_eol, "--normalize-eol");
        given(!self.hashing.hash_ignore.is_empty(), "--hash-ignore");
        given(
            self.hashing.hash_ignore_droppings,
            "--hash-ignore-droppings",
        );
        v
    }

    fn color(&self) -> bool {
        if self.output.is_some() {
            return self.color == ColorChoice::Always;
        }
        match self.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                    && io::stdout().is_terminal()
            }
        }
    }
}

/// The report under `--compat agenteval` (`report::agenteval`): AgentEval's formats and rules,
/// a note counting what it leaves out, and its gate (`--fail-on-noncompliant`: a High finding
/// of its rules), with skillguard's own gates (`--fail-on`, `--fail-on-drift`,
/// `--fail-under-index`) still honoured when given.
fn emit_agenteval(
    result: &ScanResult,
    common: &CommonArgs,
    // skillguard's own gates (`--fail-on`, `--fail-on-drift`, `--fail-under-index`) tripped.
    own_gates: bool,
    target: &Path,
    vetted: Option<crate::report::agenteval::Vetted<'_>>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<(ExitStatus, crate::report::agenteval::Converted), Error> {
    use crate::report::agenteval::{self as ae, AeFormat};
    let format = match common.format.format {
        Some(Format::Console) => AeFormat::Console,
        Some(Format::Markdown) => AeFormat::Markdown,
        Some(Format::Json) => AeFormat::Json,
        _ => {
            return Err(Error::Usage(format!(
                "Unknown --format '{}'. Use console, markdown (md) or json.",
                sanitize_line(&common.format.raw)
            )));
        }
    };
    let base = ae::full_path(target)?;
    let conv = ae::convert(result, &base, vetted);
    agenteval_summary(result, &conv, target, stderr)?;
    match &common.output {
        Some(path) => {
            write_atomic(path, |w| ae::render(&conv.report, format, false, w)).map_err(|e| {
                Error::Output {
                    path: path.display().to_string(),
                    source: e,
                }
            })?;
            let full = ae::full_path(path).unwrap_or_else(|_| path.clone());
            writeln!(stderr, "  Report written to: {}", full.display())?;
        }
        None => match ae::render(&conv.report, format, true, stdout) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            other => other?,
        },
    }
    if conv.omitted > 0 && !common.quiet {
        writeln!(
            stderr,
            "skillguard: --compat agenteval: {} finding(s) of skillguard's own checks are not in this report (AgentEval has no rule for them); run without --compat to see them",
            conv.omitted
        )?;
    }
    let failing = (common.fail_on_noncompliant && !conv.report.is_compliant) || own_gates;
    let status = if failing {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    };
    Ok((status, conv))
}

/// AgentEval's stderr summary of a repository scan (§3.1: every convention in its order,
/// with its skills and findings, or "not present") or of a workspace (§3.2: per repository).
fn agenteval_summary(
    result: &ScanResult,
    conv: &crate::report::agenteval::Converted,
    target: &Path,
    stderr: &mut dyn Write,
) -> io::Result<()> {
    let count = |repo: Option<&str>, c: &str| {
        conv.per_root
            .get(&(repo.map(str::to_owned), c.to_owned()))
            .copied()
            .unwrap_or_default()
    };
    match result.mode {
        Mode::Repo => {
            writeln!(stderr, "  Repo-wide skill directory conventions:")?;
            for c in crate::loaders::maf::ROOTS {
                if target.join(c).is_dir() {
                    let (n, m) = count(None, c);
                    writeln!(stderr, "    {c}: {n} skill(s), {m} finding(s)")?;
                } else {
                    writeln!(stderr, "    {c}: not present")?;
                }
            }
        }
        Mode::Workspace => {
            writeln!(stderr, "  Workspace repos scanned:")?;
            if result.repos.is_empty() {
                writeln!(stderr, "    (no subdirectories found)")?;
            }
            for g in &result.repos {
                let name = sanitize_line(g.repo.as_deref().unwrap_or("."));
                match &g.error {
                    Some(e) => writeln!(
                        stderr,
                        "    {name}: SKIPPED — could not scan ({})",
                        sanitize_line(e)
                    )?,
                    None => {
                        let (n, m) = crate::loaders::maf::ROOTS
                            .iter()
                            .map(|c| count(g.repo.as_deref(), c))
                            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
                        writeln!(stderr, "    {name}: {n} skill(s), {m} finding(s)")?;
                    }
                }
            }
        }
        Mode::Path => {}
    }
    Ok(())
}

/// AgentEval's `--write-baseline` snapshot of a compat scan (§5.3): one entry per skill MAF
/// loaded, with the validator findings of its name.
fn agenteval_snapshot(
    result: &ScanResult,
    conv: &crate::report::agenteval::Converted,
    target: &Path,
) -> Result<crate::baseline::agenteval::AeSnapshot, Error> {
    use crate::baseline::agenteval as ael;
    use crate::report::agenteval as ae;
    let skills = conv
        .loaded
        .iter()
        .map(|&i| {
            let a = &result.artifacts[i];
            let name = ae::maf_name(a).unwrap_or_default().to_owned();
            let compliance_findings = conv
                .report
                .findings
                .iter()
                .filter(|f| f.rule <= 11 && f.skill_name == name)
                .map(|f| ael::AeFinding {
                    skill_name: f.skill_name.clone(),
                    rule: f.rule,
                    severity: f.severity,
                    message: f.message.clone(),
                    field: f.field.map(str::to_owned),
                })
                .collect();
            let p = a.provenance.as_ref();
            ael::AeEntry {
                name,
                source_kind: ael::SOURCE_KIND_FILE,
                relative_path: ae::relative_path(a),
                structural_fingerprint: a.structural_fingerprint.clone().unwrap_or_default(),
                content_hash: a.agenteval_content_hash.clone(),
                source: p.and_then(|p| p.source.clone()),
                source_url: p.and_then(|p| p.source_url.clone()),
                reference: p.and_then(|p| p.git_ref.clone()),
                compliance_findings,
            }
        })
        .collect();
    Ok(ael::AeSnapshot {
        id: ael::new_snapshot_id(),
        captured_at: chrono::Utc::now(),
        scanned_root: ae::full_path(target)?.display().to_string(),
        skills,
    })
}

fn emit_report(
    result: &ScanResult,
    index: std::sync::Arc<crate::index::Report>,
    common: &CommonArgs,
    threshold: Option<Severity>,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let view = result;
    let gate = gate_verdict(result, &index, common, threshold);
    let opts = RenderOptions {
        color: common.color(),
        fail_on: threshold,
        index: Some(index),
        // `--quiet` lists what fails the gate (everything without one); counts stay whole.
        quiet: (common.quiet && common.format == Format::Console)
            .then(|| threshold.unwrap_or(Severity::Info)),
        show_suppressed: common.show_suppressed,
        group_by: common.group_by.unwrap_or(match common.format.get() {
            Format::Console => report::summary::GroupBy::Rule,
            _ => report::summary::GroupBy::Skill,
        }),
        max_per_rule: common.max_findings_per_rule,
        // The time only on a terminal: redirected output stays the same bytes run to run.
        elapsed: (common.output.is_none() && io::stdout().is_terminal())
            .then(|| started().elapsed()),
        gate: gate.clone(),
        repo_prefix: (common.format == Format::Sarif)
            .then(|| repo_prefix(view.mode, Path::new(&view.target)))
            .flatten(),
        max_bytes: match common.max_bytes {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(report::STEP_SUMMARY_LIMIT),
        },
    };
    match &common.output {
        Some(path) => {
            write_atomic(path, |w| {
                report::render(common.format.get(), view, &opts, w)
            })
            .map_err(|e| Error::Output {
                path: path.display().to_string(),
                source: e,
            })?;
            if !common.quiet {
                writeln!(stderr, "skillguard: report written to {}", path.display())?;
            }
        }
        // A reader that stops early (`| head`) does not change the verdict: the gate
        // result below still decides the exit code.
        None => match report::render(common.format.get(), view, &opts, stdout) {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
            other => other?,
        },
    }
    if !common.quiet
        && result.repos.iter().any(|g| g.repo.is_some())
        && common.format != Format::Console
    {
        writeln!(stderr, "skillguard: repositories scanned:")?;
        for g in &result.repos {
            // Repository names are directory names from the scanned tree: sanitise them.
            let name = sanitize_line(g.repo.as_deref().unwrap_or("."));
            match &g.error {
                Some(e) => writeln!(stderr, "  {name}: SKIPPED ({})", sanitize_line(e))?,
                None => writeln!(
                    stderr,
                    "  {name}: {} skill(s), {} finding(s)",
                    g.skills, g.findings
                )?,
            }
        }
    }
    if !common.quiet && result.hidden_skipped > 0 {
        writeln!(
            stderr,
            "skillguard: {} hidden workspace entr(y/ies) skipped (e.g. .git)",
            result.hidden_skipped
        )?;
    }
    Ok(if gate.is_some_and(|g| g.failing) {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}

/// The gates given (`--fail-on`, `--fail-on-drift`, `--fail-under-index`) and whether the
/// scan fails them; `None` when no gate was given. The exit code follows `failing`.
fn gate_verdict(
    result: &ScanResult,
    index: &crate::index::Report,
    common: &CommonArgs,
    threshold: Option<Severity>,
) -> Option<report::Gate> {
    let mut g = report::Gate::default();
    if let Some(t) = threshold {
        let n = result.findings.iter().filter(|f| f.severity >= t).count();
        g.failing |= n > 0;
        g.reasons
            .push(format!("--fail-on {}: {n} at or above", t.as_str()));
    }
    if common.fail_on_drift {
        let n = result
            .findings
            .iter()
            .filter(|f| crate::baseline::DRIFT_RULES.contains(&f.rule_id))
            .count();
        g.failing |= n > 0;
        g.reasons
            .push(format!("--fail-on-drift: {n} drift finding(s)"));
    }
    if let Some(n) = common.fail_under_index {
        let fails = index.fails_under(f64::from(n));
        g.failing |= fails;
        g.reasons.push(format!(
            "--fail-under-index {n}: {}",
            if fails { "below" } else { "met" }
        ));
    }
    (!g.reasons.is_empty()).then_some(g)
}

/// When this process started (the first call), for the console header's time.
pub fn started() -> std::time::Instant {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    *START.get_or_init(std::time::Instant::now)
}

fn rules_table(out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{:<36} {:<9} {:<11} {:<10} {:<8} {:<3} TITLE",
        "ID", "SEVERITY", "CONFIDENCE", "CATEGORY", "DEFAULT", "AE"
    )?;
    for m in catalog::all() {
        writeln!(
            out,
            "{:<36} {:<9} {:<11} {:<10} {:<8} {:<3} {}",
            m.id,
            m.severity.as_str(),
            m.confidence.as_str(),
            m.category,
            if m.never_fires.is_some() {
                "never"
            } else if m.default_enabled {
                "on"
            } else {
                "off"
            },
            m.agenteval_number()
                .map(|n| n.to_string())
                .unwrap_or_else(|| "-".into()),
            m.title
        )?;
    }
    Ok(())
}

fn rules_json(out: &mut dyn Write) -> io::Result<()> {
    let v: Vec<serde_json::Value> = catalog::all()
        .iter()
        .map(|m| {
            serde_json::json!({
                "id": m.id,
                "title": m.title,
                "severity": m.severity.as_str(),
                "confidence": m.confidence.as_str(),
                "category": m.category,
                "agenteval_alias": m.agenteval,
                "agenteval_number": m.agenteval_number(),
                "never_fires": m.never_fires,
                "since": m.since,
                "status": m.status,
                "excludes_skill": m.excludes_skill,
                "default_enabled": m.default_enabled,
                "fix": m.fix,
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &serde_json::json!({ "version": 1, "rules": v }))
        .map_err(io::Error::from)?;
    writeln!(out)
}

/// Prints notes to stderr; with `--quiet` only the warnings (a gate that compared against
/// nothing must never pass without a word).
fn note(stderr: &mut dyn Write, quiet: bool, notes: &[String]) -> io::Result<()> {
    for n in notes {
        if !quiet || n.starts_with(crate::baseline::WARNING) {
            writeln!(stderr, "skillguard: {}", sanitize_line(n))?;
        }
    }
    Ok(())
}

/// The operator's configuration: `--config FILE`, else `.skillguard.toml` at the scan's home
/// (the repository root, the workspace folder, or the git root above a scanned path).
fn operator_config(
    mode: Mode,
    target: &Path,
    common: &CommonArgs,
) -> Result<Option<(crate::config::Config, PathBuf, String)>, Error> {
    if common.no_config {
        return Ok(None);
    }
    let path = match &common.config {
        Some(p) => p.clone(),
        None => crate::baseline::record::home(mode, target).join(crate::config::FILE_NAME),
    };
    match crate::config::read(&path)? {
        Some((c, text)) => Ok(Some((c, path, text))),
        None if common.config.is_some() => Err(Error::Usage(format!(
            "--config {}: no such file",
            path.display()
        ))),
        None => Ok(None),
    }
}

/// `path` as shown in findings: relative to `base` when inside it, `/`-separated.
fn shown_path(path: &Path, base: &Path) -> String {
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    match abs.strip_prefix(base) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => path.display().to_string(),
    }
}

/// Everything the policy step needs, from the command line, the configuration files and
/// the accepted findings.
struct PolicyInput<'a> {
    mode: Mode,
    target: &'a Path,
    common: &'a CommonArgs,
    operator: Option<&'a (crate::config::Config, PathBuf, String)>,
    trust_repo_config: bool,
    /// `accept`: build the policy without the accepted findings.
    skip_accepted: bool,
}

fn build_policy(
    input: &PolicyInput<'_>,
    result: &ScanResult,
    notes: &mut Vec<String>,
) -> Result<crate::policy::Policy, Error> {
    use crate::policy::{Policy, Scope};
    for s in input.common.select.iter().chain(&input.common.ignore) {
        if !crate::config::selector_known(s.trim()) {
            return Err(Error::Usage(format!(
                "unknown rule or category `{}` in --select/--ignore{}; run `skillguard rules` for the list",
                sanitize_line(s),
                catalog::did_you_mean(s)
            )));
        }
    }
    let base = crate::baseline::record::scan_base(input.mode, input.target);
    let home = crate::baseline::record::home(input.mode, input.target);
    let mut scopes = Vec::new();
    if let Some((c, p, text)) = input.operator {
        let mut config = c.clone();
        if input.mode == Mode::Workspace && !input.trust_repo_config && config.inline_ignores {
            config.inline_ignores = false;
            notes.push(
                "inline-ignores: comments inside the scanned repositories are not honoured in a workspace scan without --trust-repo-config".into(),
            );
        }
        scopes.push(Scope {
            prefix: String::new(),
            config,
            config_shown: Some(shown_path(p, &base)),
            config_text: text.clone(),
            root: base.clone(),
        });
    }
    if input.mode == Mode::Workspace && !input.common.no_config {
        for r in result.repos.iter().filter(|r| r.repo.is_some()) {
            let p = base.join(&r.path).join(crate::config::FILE_NAME);
            if !input.trust_repo_config {
                if std::fs::symlink_metadata(&p).is_ok() {
                    notes.push(format!(
                        "{}/{}: not honoured (a scanned repository's own configuration; --trust-repo-config honours it)",
                        r.path,
                        crate::config::FILE_NAME
                    ));
                }
                continue;
            }
            if let Some((config, text)) = crate::config::read(&p)? {
                scopes.push(Scope {
                    prefix: format!("{}/", r.path),
                    config,
                    config_shown: Some(format!("{}/{}", r.path, crate::config::FILE_NAME)),
                    config_text: text,
                    root: base.join(&r.path),
                });
            }
        }
    }
    let accepted = if input.skip_accepted {
        None
    } else {
        let path = input
            .common
            .accepted
            .clone()
            .unwrap_or_else(|| home.join(crate::policy::ACCEPTED_FILE));
        match crate::policy::read_accepted(&path)? {
            Some(a) => Some((a, shown_path(&path, &base))),
            None if input.common.accepted.is_some() => {
                return Err(Error::Usage(format!(
                    "--accepted {}: no such file",
                    path.display()
                )));
            }
            None => None,
        }
    };
    Ok(Policy {
        select: input
            .common
            .select
            .iter()
            .map(|s| s.trim().to_owned())
            .collect(),
        ignore: input
            .common
            .ignore
            .iter()
            .map(|s| s.trim().to_owned())
            .collect(),
        scopes,
        accepted,
        no_ignores: input.common.no_ignores,
        today: None,
        partial: result.changed.as_ref().is_some_and(|c| !c.full),
    })
}

/// What only some scan commands set.
#[derive(Default)]
struct ScanExtras {
    /// `scan-workspace --trust-repo-config`.
    trust_repo_config: bool,
    /// `scan --repo ROOT -- FILE…`: the files, relative to ROOT.
    changed: Option<Vec<String>>,
    /// `scan-workspace --follow-repo-links`.
    follow_repo_links: bool,
    /// `scan-workspace --shard K/N`.
    shard: Option<(u64, u64)>,
}

/// A scan with its baseline steps: comparisons before the report, ledger and pin writes after.
fn scan_with_baselines(
    mode: Mode,
    target: &Path,
    common: &CommonArgs,
    extra: ScanExtras,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let ScanExtras {
        trust_repo_config,
        changed,
        follow_repo_links,
        shard,
    } = extra;
    let operator = operator_config(mode, target, common)?;
    let compat = common
        .compat
        .or_else(|| operator.as_ref().and_then(|o| o.0.compat));
    // An unknown --format and an `-o` that cannot be written are refused before the scan,
    // except as AgentEval does it (after the scan); so is a drift gate on a pin file that
    // does not exist (AgentEval passes it: its case C28).
    if compat.is_none() {
        common.format.check()?;
        common.check_output()?;
        common.check_drift_gate()?;
    }
    let mut opts = operator_options(common, operator.as_ref())?;
    // AgentEval's report is MAF's view: the `maf` profile runs whatever `--profile` says.
    if compat.is_some()
        && let crate::loaders::Selection::Only(set) = &mut opts.profiles
    {
        set.insert("maf".to_owned());
    }
    let opts = &opts;
    let fail_on_config = operator
        .as_ref()
        .and_then(|o| o.0.fail_on)
        .map(Severity::from);
    let threshold = common.threshold_with(fail_on_config);
    if common.baseline_note.is_some()
        && !common.write_baseline
        && common.save_manifest_baseline.is_none()
    {
        note(
            stderr,
            common.quiet,
            &["--baseline-note has no effect without --write-baseline or --save-manifest-baseline; ignored".into()],
        )?;
    }
    // A bad trace or eval result is a usage error before anything is scanned.
    let trace = match &common.trace {
        Some(p) => Some(crate::index::read_trace(p).map_err(Error::Trace)?),
        None => None,
    };
    let eval_results = common.read_eval_results()?;
    let mut args = common.baseline();
    // Under --compat agenteval the ledger is AgentEval's (its location and format): the
    // ledger steps of skillguard's own are replaced by AgentEval's.
    let ae_ledger = compat.map(|_| {
        let root = args
            .root
            .clone()
            .unwrap_or_else(|| crate::baseline::agenteval::default_root(mode == Mode::Workspace));
        let (write, check) = (args.write, args.check);
        args.write = false;
        args.check = false;
        (root, write, check)
    });
    // … and its pin file is AgentEval's `SkillManifestBaseline` (read either way; written
    // in AgentEval's format after the report).
    let ae_pin = compat.and_then(|_| args.save_pin.take());
    let vetted = match &ae_ledger {
        Some((root, _, true)) => {
            let v = crate::baseline::agenteval::previously_vetted(root)
                .map_err(|e| Error::Compat(e.to_string()))?;
            for s in &v.skipped {
                writeln!(stderr, "{}", s.warning())?;
            }
            Some(v)
        }
        _ => None,
    };
    if changed.is_some() && (args.write || args.save_pin.is_some()) {
        return Err(Error::Usage(
            "--write-baseline and --save-manifest-baseline record every skill; they cannot be used with changed files".into(),
        ));
    }
    let mut cx =
        crate::baseline::Context::new(mode, target, args.root.as_deref(), common.hashing.hasher()?);
    let mut opts = opts.clone();
    opts.changed = changed;
    opts.walk.follow_repo_links = follow_repo_links;
    opts.walk.shard = shard;
    if shard.is_some() && (args.write || args.save_pin.is_some()) {
        return Err(Error::Usage(
            "--write-baseline and --save-manifest-baseline record every skill; they cannot be used with --shard".into(),
        ));
    }
    if args.write && cx.ledger.exists() {
        // A hint only: a ledger that cannot be read here is reported by the append.
        cx.newest = cx.ledger.newest().ok().flatten();
        opts.read.known_lines = cx
            .newest
            .as_ref()
            .map(|n| std::sync::Arc::new(n.known.keys().cloned().collect()));
    }
    let bar = progress::Bar::start(common, &mut opts);
    let scanned = scan::scan(mode, target, &opts);
    drop(bar);
    let mut result = scanned?;
    let mut notes = crate::baseline::before_report(&mut result, &args, &cx)?;
    scan::restrict_to_changed(&mut result);
    if let Some(c) = &result.changed {
        notes.push(if c.full {
            format!(
                "changed files: {} file(s) include the policy (configuration or accepted findings), so every skill was scanned",
                c.files.len()
            )
        } else {
            format!(
                "changed files: {} file(s) in {} skill(s); {} skill(s) scanned with their cross-skill checks, {} not scanned",
                c.files.len(),
                c.skills.len(),
                c.scanned.len(),
                c.skipped
            )
        });
    }
    let mut policy = build_policy(
        &PolicyInput {
            mode,
            target,
            common,
            operator: operator.as_ref(),
            trust_repo_config,
            skip_accepted: false,
        },
        &result,
        &mut notes,
    )?;
    // A shard sees some repositories: what it does not see cannot be judged unused.
    policy.partial |= shard.is_some();
    notes.extend(crate::policy::apply(&mut result, &policy));
    note(stderr, common.quiet, &notes)?;
    // The index is computed after the drift findings were added, on the full result
    // (never the --quiet view), accepted findings included (`index::for_result`).
    let mut index = crate::timing::time(crate::timing::Stage::Index, || {
        crate::index::for_result(&result, trace.as_ref(), eval_results.as_deref())
    });
    note(
        stderr,
        common.quiet,
        &crate::index::evals::notes(&index.eval_results),
    )?;
    index.fail_under = common.fail_under_index.map(f64::from);
    let index = std::sync::Arc::new(index);
    // The snapshot and pin are prepared while the report renders (both only read the
    // result) and written only once the report is out: a failed `-o` (exit 2) leaves the
    // ledger and the pin untouched, so a retry does not record the same scan twice. Their
    // notes follow the report, and a failed write still ends the run with exit 2.
    let writes = args.write || args.save_pin.is_some();
    let mut ae_report = None;
    let (status, prepared) = std::thread::scope(|sc| {
        let worker = writes
            .then(|| sc.spawn(|| crate::baseline::prepare_writes(&result, target, &args, &cx)));
        let status = crate::timing::time(crate::timing::Stage::Report, || match compat {
            Some(crate::config::Compat::Agenteval) => {
                let fail_on = common.fail_on.map(Severity::from).or(fail_on_config);
                let own_gates = fail_on
                    .is_some_and(|t| result.findings.iter().any(|f| f.severity >= t))
                    || (common.fail_on_drift
                        && result
                            .findings
                            .iter()
                            .any(|f| crate::baseline::DRIFT_RULES.contains(&f.rule_id)))
                    || common
                        .fail_under_index
                        .is_some_and(|n| index.fails_under(f64::from(n)));
                let lookup = |n: &str, h: &str| vetted.as_ref().and_then(|v| v.date(n, h));
                let lookup: Option<crate::report::agenteval::Vetted<'_>> =
                    vetted.as_ref().map(|_| &lookup as _);
                emit_agenteval(&result, common, own_gates, target, lookup, stdout, stderr).map(
                    |(status, conv)| {
                        ae_report = Some(conv);
                        status
                    },
                )
            }
            None => emit_report(&result, index, common, threshold, stdout, stderr),
        });
        if crate::timing::enabled() {
            let _ = stderr.write_all(crate::timing::summary().as_bytes());
        }
        let prepared = worker.map(|h| {
            h.join().map_err(|_| {
                crate::baseline::BaselineError::Other(
                    "internal error while preparing the baseline".into(),
                )
            })
        });
        (status, prepared)
    });
    let status = status?;
    if let Some(prepared) = prepared {
        let notes = crate::baseline::commit_writes(prepared?, &cx)?;
        note(stderr, common.quiet, &notes)?;
    }
    // AgentEval writes its pin (§5.4) and its snapshot (§5.3) after the report.
    if let (Some(path), Some(conv)) = (&ae_pin, &ae_report) {
        let hashes: Vec<(String, String)> = conv
            .loaded
            .iter()
            .filter_map(|&i| {
                let a = &result.artifacts[i];
                Some((
                    crate::report::agenteval::maf_name(a)?.to_owned(),
                    a.structural_fingerprint.clone()?,
                ))
            })
            .collect();
        let text = crate::baseline::agenteval::pin_json(
            &chrono::Utc::now(),
            &hashes,
            common.baseline_note.as_deref(),
        );
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        write_atomic(path, |w| w.write_all(text.as_bytes())).map_err(|e| Error::Output {
            path: path.display().to_string(),
            source: e,
        })?;
        writeln!(
            stderr,
            "  Manifest baseline saved: {} ({} skill(s))",
            crate::report::agenteval::full_path(path)
                .unwrap_or_else(|_| path.clone())
                .display(),
            hashes
                .iter()
                .map(|(k, _)| k.to_lowercase())
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        )?;
    }
    if let (Some((root, true, _)), Some(conv)) = (&ae_ledger, &ae_report) {
        let snap = agenteval_snapshot(&result, conv, target)?;
        crate::baseline::agenteval::write_agenteval_snapshot(root, &snap)
            .map_err(|e| Error::Compat(e.to_string()))?;
        writeln!(
            stderr,
            "{}",
            crate::baseline::agenteval::saved_line(&snap, root)
        )?;
    }
    Ok(status)
}

fn print_json(out: &mut dyn Write, v: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, v).map_err(io::Error::from)?;
    writeln!(out)
}

/// The AgentEval ledger under `--compat agenteval`: `--baseline-root`, else
/// `.agenteval/skills-baselines` under `--repo` or (as AgentEval) the current directory.
fn agenteval_root(ledger: &LedgerArgs) -> PathBuf {
    use crate::baseline::agenteval::default_root;
    match (&ledger.baseline_root, &ledger.repo) {
        (Some(r), _) => r.clone(),
        (None, Some(repo)) => repo.join(default_root(false)),
        (None, None) => default_root(false),
    }
}

/// Reads the AgentEval ledger, one stderr warning per file AgentEval would skip silently.
fn agenteval_ledger(
    ledger: &LedgerArgs,
    stderr: &mut dyn Write,
) -> Result<crate::baseline::agenteval::AeLedger, Error> {
    let l = crate::baseline::agenteval::load(&agenteval_root(ledger)).map_err(compat_err)?;
    for s in &l.skipped {
        writeln!(stderr, "{}", s.warning())?;
    }
    Ok(l)
}

fn compat_err(e: crate::baseline::agenteval::AeLedgerError) -> Error {
    match e {
        crate::baseline::agenteval::AeLedgerError::Io { source, .. }
            if source.kind() == io::ErrorKind::BrokenPipe =>
        {
            Error::Io(source)
        }
        e => Error::Compat(e.to_string()),
    }
}

/// AgentEval's `baseline` commands print text only.
fn refuse_format(format: ReviewFormat) -> Result<(), Error> {
    match format {
        ReviewFormat::Table => Ok(()),
        ReviewFormat::Json => Err(Error::Usage(
            "--format json has no AgentEval equivalent; drop it or --compat".into(),
        )),
    }
}

fn run_baseline(
    cmd: BaselineCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    use crate::baseline::review;
    match cmd {
        BaselineCmd::List {
            ledger,
            format,
            compat,
        } => {
            if compat.resolve(&ledger)?.is_some() {
                refuse_format(format)?;
                let l = agenteval_ledger(&ledger, stderr)?;
                crate::baseline::agenteval::render_list(&l, stdout)?;
                return Ok(ExitStatus::Clean);
            }
            let l = ledger.ledger();
            let rows = review::list(&l)?;
            match format {
                ReviewFormat::Table => review::render_list(&rows, &l, stdout)?,
                ReviewFormat::Json => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "ledger": l.root.display().to_string(), "snapshots": rows }),
                )?,
            }
            Ok(ExitStatus::Clean)
        }
        BaselineCmd::Diff {
            ledger,
            since,
            until,
            skill,
            hash,
            hashing,
            format,
            compat,
        } => {
            if compat.resolve(&ledger)?.is_some() {
                use crate::baseline::agenteval as ae;
                refuse_format(format)?;
                if until.is_some() {
                    return Err(Error::Usage(
                        "--until has no AgentEval equivalent (`baseline diff` compares with the newest snapshot); drop it or --compat".into(),
                    ));
                }
                if !hashing.is_default() {
                    return Err(Error::Usage(
                        "--normalize-eol and --hash-ignore* need per-file hashes, which an AgentEval ledger does not keep; drop them or --compat".into(),
                    ));
                }
                let kind = ae::HashKind::parse(&hash).map_err(compat_err)?;
                let l = agenteval_ledger(&ledger, stderr)?;
                ae::render_diff(
                    &l,
                    &agenteval_root(&ledger),
                    since.as_deref(),
                    skill.as_deref(),
                    kind,
                    stdout,
                )
                .map_err(compat_err)?;
                return Ok(ExitStatus::Clean);
            }
            let hash = HashArg::from_str(&hash, false).map_err(|_| {
                Error::Usage(format!(
                    "--hash {}: expected structural, content or files",
                    sanitize_line(&hash)
                ))
            })?;
            let l = ledger.ledger();
            let o = review::DiffOptions {
                since,
                until,
                skill,
                hash: match hash {
                    HashArg::Structural => review::HashKind::Structural,
                    HashArg::Content => review::HashKind::Content,
                    HashArg::Files => review::HashKind::Files,
                },
                hasher: if hashing.is_default() {
                    None
                } else {
                    Some(hashing.hasher()?)
                },
            };
            match (review::diff(&l, &o)?, format) {
                (review::DiffOutcome::Report(r), ReviewFormat::Table) => {
                    review::render_diff(&r, stdout)?
                }
                (review::DiffOutcome::Report(r), ReviewFormat::Json) => {
                    print_json(stdout, &serde_json::json!({ "version": 1, "diff": r }))?
                }
                (review::DiffOutcome::Evals(r), ReviewFormat::Table) => {
                    crate::baseline::evalsnap::render_diff(&r, stdout)?
                }
                (review::DiffOutcome::Evals(r), ReviewFormat::Json) => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "diff": null, "evals_diff": r }),
                )?,
                (review::DiffOutcome::Nothing(m), ReviewFormat::Table) => writeln!(stdout, "{m}")?,
                (review::DiffOutcome::Nothing(m), ReviewFormat::Json) => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "diff": null, "message": m }),
                )?,
            }
            Ok(ExitStatus::Clean)
        }
        BaselineCmd::History {
            skill,
            ledger,
            format,
            compat,
        } => {
            if compat.resolve(&ledger)?.is_some() {
                refuse_format(format)?;
                let l = agenteval_ledger(&ledger, stderr)?;
                crate::baseline::agenteval::render_history(&l, &skill, stdout)?;
                return Ok(ExitStatus::Clean);
            }
            let l = ledger.ledger();
            let r = review::history(&l, &skill)?;
            match format {
                ReviewFormat::Table => review::render_history(&r, stdout)?,
                ReviewFormat::Json => {
                    print_json(stdout, &serde_json::json!({ "version": 1, "history": r }))?
                }
            }
            Ok(ExitStatus::Clean)
        }
        BaselineCmd::Verify {
            ledger,
            expect_head,
            format,
        } => {
            let l = ledger.ledger();
            let mut v = crate::baseline::ledger::verify(&l)?;
            if let Some(want) = expect_head {
                let got = v.head.as_ref().map(|h| h.sha256.clone());
                if got.as_deref() != Some(want.trim().to_ascii_lowercase().as_str()) {
                    v.problems.push(crate::baseline::ledger::Problem {
                        kind: "head",
                        seq: v.head.as_ref().map(|h| h.seq),
                        file: None,
                        message: format!(
                            "the newest snapshot's SHA-256 is {}, not the expected {}: the ledger was rewritten or truncated",
                            got.as_deref().unwrap_or("(none)"),
                            sanitize_line(&want)
                        ),
                    });
                    v.head = None;
                }
            }
            match format {
                ReviewFormat::Table => review::render_verify(&v, &l, stdout)?,
                ReviewFormat::Json => print_json(
                    stdout,
                    &serde_json::json!({ "version": 1, "ledger": l.root.display().to_string(), "ok": v.ok(), "verification": v }),
                )?,
            }
            Ok(if v.ok() {
                ExitStatus::Clean
            } else {
                ExitStatus::Findings
            })
        }
        BaselineCmd::Approve {
            name,
            skill_path,
            baseline,
            note: pin_note,
            hashing,
        } => approve(
            &name,
            &skill_path,
            &baseline,
            pin_note,
            &hashing,
            stdout,
            stderr,
        ),
        BaselineCmd::ImportAgenteval {
            input,
            ledger,
            pin_out,
        } => {
            let l = ledger.ledger();
            let r = crate::baseline::import::import_agenteval(&input, &l, pin_out.as_deref())?;
            if r.snapshots_imported + r.snapshots_skipped > 0 {
                writeln!(
                    stdout,
                    "imported {} AgentEval snapshot(s) ({} skill entries){} into {}{}",
                    r.snapshots_imported,
                    r.skill_entries,
                    match (r.first_seq, r.last_seq) {
                        (Some(a), Some(b)) if a != b => format!(" as #{a}–#{b}"),
                        (Some(a), _) => format!(" as #{a}"),
                        _ => String::new(),
                    },
                    l.root.display(),
                    if r.snapshots_skipped > 0 {
                        format!("; {} already imported, skipped", r.snapshots_skipped)
                    } else {
                        String::new()
                    }
                )?;
            }
            if let Some(p) = &pin_out
                && (r.pin_entries > 0 || !r.pin_conflicts.is_empty())
            {
                writeln!(
                    stdout,
                    "imported {} AgentEval pin(s) into {}",
                    r.pin_entries,
                    p.display()
                )?;
            }
            for c in &r.pin_conflicts {
                writeln!(
                    stderr,
                    "skillguard: pin `{}` already exists with other hashes; kept the existing one",
                    sanitize_line(c)
                )?;
            }
            Ok(ExitStatus::Clean)
        }
    }
}

/// One pin `baseline approve` writes.
struct Approval {
    /// An agent file's pin (keyed by location), else a skill's (keyed by name).
    agent: bool,
    key: String,
    pin: crate::baseline::pin::Pin,
    /// The line printed once it is written (` -> FILE` follows).
    line: String,
}

fn approve(
    name: &str,
    skill_path: &Path,
    baseline: &Path,
    pin_note: Option<String>,
    hashing: &HashArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    use crate::baseline::{pin, record};
    use crate::skill_hashes::Hasher;
    let existing = pin::read(baseline)?;
    let mut pins = match existing {
        Some(p) => {
            let asked = crate::skill_hashes::Hasher::new(hashing.options())
                .map_err(Error::Usage)?
                .options;
            if !hashing.is_default() && p.hash_options != asked {
                let o = &p.hash_options;
                return Err(Error::Usage(format!(
                    "{} was written with other hash options (normalize-eol: {}, ignore: [{}]); approve with the same options or none",
                    baseline.display(),
                    o.normalize_eol,
                    o.ignore.join(", ")
                )));
            }
            p
        }
        None => pin::PinFile::new(hashing.options(), None),
    };
    let hasher = Hasher::new(pins.hash_options.clone()).map_err(Error::Usage)?;
    let opts = ScanOptions {
        profiles: crate::loaders::Selection::Only(Default::default()),
        hash: pins.hash_options.clone(),
        ..ScanOptions::default()
    };
    // A skill of that name under PATH; else the agent files of that name (PATH may then be
    // an agent file, which a skill scan refuses).
    let result = match scan::scan(Mode::Path, skill_path, &opts) {
        Ok(r) => Some(r),
        Err(_) if skill_path.is_file() => None,
        Err(e) => return Err(e.into()),
    };
    let key = name.to_lowercase();
    let hits: Vec<&crate::inventory::Artifact> = result
        .iter()
        .flat_map(|r| &r.artifacts)
        .filter(|a| a.name.to_lowercase() == key)
        .collect();
    let contents: std::collections::BTreeSet<_> =
        hits.iter().map(|a| a.content_hash.clone()).collect();
    let home = record::home(Mode::Path, skill_path);
    let approvals = match (hits.first(), contents.len()) {
        (None, _) => approve_agents(name, skill_path, &home, &opts, &hasher, &pins, &pin_note)?,
        (Some(a), 1) => {
            let loc = record::location(
                &record::relative_root(&home, &record::scan_base(Mode::Path, skill_path)),
                &a.path,
            );
            let mut p = pin::pin_of(a, &hasher, Some(loc));
            p.note = pin_note.or_else(|| pins.skills.get(&key).and_then(|old| old.note.clone()));
            let structural = p.structural.clone().unwrap_or_default();
            let content = p.content.clone().unwrap_or_default();
            vec![Approval {
                agent: false,
                key,
                line: format!(
                    "approved `{}`: structural={}… content={}…",
                    sanitize_line(&a.name),
                    &structural[..12.min(structural.len())],
                    &content[..12.min(content.len())],
                ),
                pin: p,
            }]
        }
        (Some(_), _) => {
            let locs: Vec<String> = hits
                .iter()
                .map(|a| sanitize_line(&a.path).into_owned())
                .collect();
            return Err(Error::Usage(format!(
                "{} different skills named `{}` under {} ({}); point --skill-path at the one to approve",
                hits.len(),
                sanitize_line(name),
                skill_path.display(),
                locs.join(", ")
            )));
        }
    };
    if let Some(a) = hits.first()
        && a.excluded
    {
        writeln!(
            stderr,
            "skillguard: note: `{}` is excluded by a strict loader; it is pinned anyway",
            sanitize_line(&a.name)
        )?;
    }
    crate::baseline::prepare_pin_dir(baseline, &home)?;
    // Read-modify-write under a lock: the scan above ran unlocked, so re-read the pin file
    // now; another approval may have landed meanwhile, and it must be kept.
    let _lock = crate::fsutil::lock_beside(baseline).map_err(|e| Error::Output {
        path: baseline.display().to_string(),
        source: e,
    })?;
    if let Some(now) = pin::read(baseline)? {
        if now.hash_options != pins.hash_options {
            return Err(Error::Usage(format!(
                "{} was rewritten with other hash options while approving; run the approval again",
                baseline.display()
            )));
        }
        pins = now;
    }
    for a in &approvals {
        if a.agent {
            pins.agents.insert(a.key.clone(), a.pin.clone());
            continue;
        }
        // A name pinned at several locations: the approved copy's own pin is updated, and the
        // name's pin only when it is that copy (or the name has none yet).
        let loc = a.pin.location.clone();
        let copy = loc.as_ref().filter(|l| pins.copies.contains_key(*l));
        if let Some(l) = copy {
            pins.copies.insert(l.clone(), a.pin.clone());
        }
        let first = pins.skills.get(&a.key).map(|p| p.location.clone());
        if copy.is_none() || first.is_none() || first == Some(loc) {
            pins.skills.insert(a.key.clone(), a.pin.clone());
        }
    }
    let bytes = pins.to_bytes();
    write_atomic(baseline, |w| w.write_all(&bytes)).map_err(|e| Error::Output {
        path: baseline.display().to_string(),
        source: e,
    })?;
    for a in &approvals {
        writeln!(stdout, "{} -> {}", a.line, baseline.display())?;
    }
    Ok(ExitStatus::Clean)
}

/// `baseline approve` of agent files: every agent, prompt, instructions, MCP or hook file at
/// or under PATH whose name (or file name without its suffix) is NAME, found by a scan of
/// the repository that holds PATH (the ledger's home), and keyed by its location there. A
/// file already pinned under its location in a workspace (`repo-a/.github/agents/…`, where
/// the home's path ends in `/repo-a`) is updated under that key.
fn approve_agents(
    name: &str,
    path: &Path,
    home: &Path,
    opts: &ScanOptions,
    hasher: &crate::skill_hashes::Hasher,
    pins: &crate::baseline::pin::PinFile,
    note: &Option<String>,
) -> Result<Vec<Approval>, Error> {
    use crate::baseline::{checks, pin, record};
    let result = scan::scan(Mode::Repo, home, opts)?;
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let within = record::under(home, &abs).unwrap_or_else(|| ".".into());
    let hits: Vec<&crate::inventory::Artifact> = result
        .agents
        .iter()
        .filter(|a| {
            record::covers(&within, &a.path)
                && (a.name.eq_ignore_ascii_case(name)
                    || crate::agents::stem(&a.path).eq_ignore_ascii_case(name))
        })
        .collect();
    if hits.is_empty() {
        return Err(Error::Usage(format!(
            "no skill or agent file named `{}` under {}; nothing was written",
            sanitize_line(name),
            path.display()
        )));
    }
    let home_s = home.to_string_lossy().replace('\\', "/");
    let mut out = Vec::new();
    for a in hits {
        if let Some(why) = &a.hash_incomplete {
            return Err(Error::Usage(format!(
                "{} cannot be pinned ({why}); nothing was written",
                checks::subject(a)
            )));
        }
        // `repo-a/.github/agents/x.agent.md` for a home that ends in `/repo-a`.
        let suffix = format!("/{}", a.path);
        let longer: Vec<&String> = pins
            .agents
            .keys()
            .filter(|k| {
                k.strip_suffix(&suffix)
                    .is_some_and(|prefix| home_s.ends_with(&format!("/{prefix}")))
            })
            .collect();
        let key = match longer[..] {
            [k] if !pins.agents.contains_key(&a.path) => k.clone(),
            _ => a.path.clone(),
        };
        let mut p = pin::pin_of(a, hasher, None);
        p.note = note
            .clone()
            .or_else(|| pins.agents.get(&key).and_then(|old| old.note.clone()));
        let content = p.content.clone().unwrap_or_default();
        out.push(Approval {
            agent: true,
            line: format!(
                "approved {}: content={}…{}",
                checks::subject(a),
                &content[..12.min(content.len())],
                if key == a.path {
                    String::new()
                } else {
                    format!(" (pinned as {})", sanitize_line(&key))
                }
            ),
            key,
            pin: p,
        });
    }
    Ok(out)
}

/// Runs a parsed command line.
fn scan_target(cmd: &ScanCmd) -> Result<(Mode, PathBuf), Error> {
    match (&cmd.repo, &cmd.paths[..]) {
        (Some(r), _) => Ok((Mode::Repo, r.clone())),
        (None, [p]) => Ok((Mode::Path, p.clone())),
        (None, []) => Err(Error::Usage("give a PATH or --repo ROOT".into())),
        (None, _) => Err(Error::Usage(
            "give one PATH; changed files go after --repo ROOT (`scan --repo . -- FILE…`)".into(),
        )),
    }
}

/// The scanned base's path inside the repository holding it (the nearest folder above it
/// with a `.git`), for SARIF URIs relative to the repository root. `None` when the base is
/// that root, for a workspace (each repository is a folder of it), or when no repository
/// holds it.
fn repo_prefix(mode: Mode, target: &Path) -> Option<String> {
    if mode == Mode::Workspace {
        return None;
    }
    let base = crate::baseline::record::scan_base(mode, target);
    let root = base
        .ancestors()
        .take(64)
        .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())?;
    let rel = base.strip_prefix(root).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Changed files given on the command line, relative to the repository root `root`,
/// `/`-separated. A path is taken relative to the current directory (as pre-commit and
/// `git diff --name-only` from the root give them), else to the root; one outside the
/// root is a usage error. Never read: only mapped to skills.
fn changed_files(root: &Path, files: &[PathBuf]) -> Result<Vec<String>, Error> {
    let canon_root = std::fs::canonicalize(root)
        .map_err(|e| Error::Usage(format!("{}: {e}", root.display())))?;
    let cwd = std::env::current_dir().unwrap_or_default();
    // `.` and `..` resolved lexically: the file may have been deleted.
    let lexical = |p: &Path| {
        let mut norm = PathBuf::new();
        for c in p.components() {
            match c {
                std::path::Component::ParentDir => {
                    norm.pop();
                }
                std::path::Component::CurDir => {}
                c => norm.push(c),
            }
        }
        norm
    };
    let lexical_root = lexical(&cwd.join(root));
    let mut out = Vec::with_capacity(files.len());
    for f in files {
        let abs = if f.is_absolute() {
            f.clone()
        } else {
            cwd.join(f)
        };
        let norm = lexical(&abs);
        // Inside the root as written: the path as the repository names it. Links inside
        // the repository are not followed here (the scan maps a changed file to the
        // skills that reach it through a link).
        if let Ok(rel) = norm.strip_prefix(&lexical_root) {
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(rel.join("/"));
            continue;
        }
        // Otherwise the longest existing ancestor, resolved, for links above the
        // repository such as /tmp -> /private/tmp.
        let mut base = norm.clone();
        let mut rest: Vec<std::ffi::OsString> = Vec::new();
        let resolved = loop {
            if let Ok(c) = std::fs::canonicalize(&base) {
                break rest.iter().rev().fold(c, |p, r| p.join(r));
            }
            match (base.file_name().map(|n| n.to_owned()), base.parent()) {
                (Some(n), Some(p)) => {
                    rest.push(n);
                    base = p.to_path_buf();
                }
                _ => break norm.clone(),
            }
        };
        let rel = resolved.strip_prefix(&canon_root).map_err(|_| {
            Error::Usage(format!(
                "{} is not inside the repository {}",
                sanitize_line(&f.display().to_string()),
                root.display()
            ))
        })?;
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        out.push(rel.join("/"));
    }
    Ok(out)
}

/// `skillguard merge`: the shards' reports joined, the cross-repository checks recomputed,
/// rendered and gated like a scan.
fn run_merge(
    cmd: &MergeCmd,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let c = &cmd.common;
    c.format.check()?;
    c.check_output()?;
    // Options that change how a tree is walked, read or hashed apply to the shards' scans: a
    // merge reads reports, and silently ignoring them would let a user believe they took effect.
    let walk_only = c.walk_options_given();
    if !walk_only.is_empty() {
        return Err(Error::Usage(format!(
            "{} appl{} to the shards' scans, not to a merge (it reads their reports); give {} to each shard's scan-workspace",
            walk_only.join(", "),
            if walk_only.len() == 1 { "ies" } else { "y" },
            if walk_only.len() == 1 { "it" } else { "them" }
        )));
    }
    if c.compat.is_some() {
        return Err(Error::Usage(
            "--compat agenteval applies to scan and scan-workspace (AgentEval has no merge); merge without it".into(),
        ));
    }
    let args = c.baseline();
    if args.write || args.save_pin.is_some() || args.check || args.check_pin.is_some() {
        return Err(Error::Usage(
            "baseline options apply to scans, not to a merge: run them on an unsharded scan".into(),
        ));
    }
    if c.config.is_some() || c.accepted.is_some() {
        return Err(Error::Usage(
            "--config and --accepted apply to the shards' scans; merge takes only --select and --ignore".into(),
        ));
    }
    for s in c.select.iter().chain(&c.ignore) {
        if !crate::config::selector_known(s.trim()) {
            return Err(Error::Usage(format!(
                "unknown rule or category `{}` in --select/--ignore{}; run `skillguard rules` for the list",
                sanitize_line(s),
                catalog::did_you_mean(s)
            )));
        }
    }
    let (mut result, mut notes) = crate::merge::merge(&cmd.reports)?;
    // The shards' rule selection: give merge the --select/--ignore the shards had, and the
    // recomputed rules follow it too.
    let policy = crate::policy::Policy {
        select: c.select.iter().map(|s| s.trim().to_owned()).collect(),
        ignore: c.ignore.iter().map(|s| s.trim().to_owned()).collect(),
        partial: true,
        ..Default::default()
    };
    notes.extend(crate::policy::apply(&mut result, &policy));
    let threshold = c.threshold_with(None);
    let trace = match &c.trace {
        Some(p) => Some(crate::index::read_trace(p).map_err(Error::Trace)?),
        None => None,
    };
    let eval_results = c.read_eval_results()?;
    let mut index = crate::index::for_result(&result, trace.as_ref(), eval_results.as_deref());
    notes.extend(crate::index::evals::notes(&index.eval_results));
    index.fail_under = c.fail_under_index.map(f64::from);
    notes.push(format!(
        "merged {} report(s): {} repositories, {} skill(s); drift, name collisions and look-alike names recomputed across all of them",
        cmd.reports.len(),
        result.repos.len(),
        result.artifacts.len()
    ));
    note(stderr, c.quiet, &notes)?;
    emit_report(
        &result,
        std::sync::Arc::new(index),
        c,
        threshold,
        stdout,
        stderr,
    )
}

/// `skillguard init`: the commented starter configuration, never over an existing file
/// without `--force`.
fn run_init(cmd: &InitCmd, stderr: &mut dyn Write) -> Result<ExitStatus, Error> {
    let root = cmd.repo.clone().unwrap_or_else(|| PathBuf::from("."));
    if !root.is_dir() {
        return Err(Error::Usage(format!(
            "{} is not a directory",
            root.display()
        )));
    }
    let path = root.join(crate::config::FILE_NAME);
    if std::fs::symlink_metadata(&path).is_ok() && !cmd.force {
        return Err(Error::Usage(format!(
            "{} already exists; --force replaces it",
            path.display()
        )));
    }
    let _lock = crate::fsutil::lock_beside(&path).map_err(|source| Error::Output {
        path: path.display().to_string(),
        source,
    })?;
    write_atomic(&path, |w| w.write_all(crate::config::STARTER.as_bytes())).map_err(|source| {
        Error::Output {
            path: path.display().to_string(),
            source,
        }
    })?;
    writeln!(stderr, "skillguard: wrote {}", path.display())?;
    Ok(ExitStatus::Clean)
}

/// `skillguard accept`: today's findings (after the configuration's rules and
/// suppressions) become accepted, keeping the reasons of entries accepted before.
/// The scan target of a command that defaults to the repository in the current directory
/// (`accept`, `coverage`): `--repo`/paths as given, else `--repo .`.
fn target_or_cwd(scan: &ScanCmd) -> Result<(Mode, PathBuf), Error> {
    if scan.repo.is_none() && scan.paths.is_empty() {
        Ok((Mode::Repo, PathBuf::from(".")))
    } else {
        scan_target(scan)
    }
}

/// Scan options from the flags and the operator's configuration (never the scanned
/// repository's own).
fn operator_options(
    common: &CommonArgs,
    operator: Option<&(crate::config::Config, PathBuf, String)>,
) -> Result<ScanOptions, Error> {
    common.options(operator.map(|o| &o.0).unwrap_or(&Default::default()))
}

fn run_accept(cmd: &AcceptCmd, stderr: &mut dyn Write) -> Result<ExitStatus, Error> {
    let common = &cmd.scan.common;
    // `skillguard accept` alone accepts the git repository holding the current directory,
    // as the adoption path of the README runs it; outside any repository it refuses (run
    // from a home folder it once scanned the whole tree and accepted 67,000 findings)
    // unless the root is given.
    let (mode, target) = if cmd.scan.repo.is_none() && cmd.scan.paths.is_empty() {
        let cwd = std::env::current_dir()?;
        let root = cwd
            .ancestors()
            .find(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
            .ok_or_else(|| {
                Error::Usage(format!(
                    "accept: {} is not inside a git repository (no .git here or above); give the root to accept with --repo ROOT",
                    sanitize_line(&cwd.display().to_string())
                ))
            })?;
        let target = if root == cwd {
            PathBuf::from(".")
        } else {
            root.to_path_buf()
        };
        (Mode::Repo, target)
    } else {
        target_or_cwd(&cmd.scan)?
    };
    if mode == Mode::Repo && !cmd.scan.paths.is_empty() {
        return Err(Error::Usage(
            "accept records every finding of the repository; it takes no changed files".into(),
        ));
    }
    let operator = operator_config(mode, &target, common)?;
    let opts = operator_options(common, operator.as_ref())?;
    let mut result = scan::scan(mode, &target, &opts)?;
    // The same cross-skill checks as `scan` (provenance, drift between copies with the
    // ledger's history, name collisions): what `scan` reports, `accept` records.
    let cx = crate::baseline::Context::new(
        mode,
        &target,
        common.baseline_root.as_deref(),
        common.hashing.hasher()?,
    );
    let cross_notes = crate::baseline::before_report(
        &mut result,
        &crate::baseline::ScanBaseline::default(),
        &cx,
    )?;
    let home = crate::baseline::record::home(mode, &target);
    let path = common
        .accepted
        .clone()
        .unwrap_or_else(|| home.join(crate::policy::ACCEPTED_FILE));
    let previous = crate::policy::read_accepted(&path)?;
    let mut notes = Vec::new();
    let policy = build_policy(
        &PolicyInput {
            mode,
            target: &target,
            common,
            operator: operator.as_ref(),
            trust_repo_config: false,
            skip_accepted: true,
        },
        &result,
        &mut notes,
    )?;
    notes.extend(cross_notes);
    crate::policy::apply(&mut result, &policy);
    // Policy findings police the configuration itself: never accepted.
    result.findings.retain(|f| f.category != "policy");
    let reason = cmd
        .reason
        .clone()
        .unwrap_or_else(|| "accepted when skillguard was adopted".into());
    let mut file = crate::policy::AcceptedFile::from_findings(&result.findings, &reason);
    if let Some(old) = &previous {
        for e in &mut file.findings {
            if let Ok(i) = old
                .findings
                .binary_search_by(|o| o.fingerprint.cmp(&e.fingerprint))
                && cmd.reason.is_none()
            {
                e.reason = old.findings[i].reason.clone();
            }
        }
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        crate::baseline::ledger::ensure_dir(dir, Some(&home))?;
    }
    let _lock = crate::fsutil::lock_beside(&path).map_err(|source| Error::Output {
        path: path.display().to_string(),
        source,
    })?;
    let bytes = file.to_bytes();
    write_atomic(&path, |w| w.write_all(&bytes)).map_err(|source| Error::Output {
        path: path.display().to_string(),
        source,
    })?;
    let before = previous.map_or(0, |p| p.findings.len());
    writeln!(
        stderr,
        "skillguard: {} finding(s) accepted ({} before) -> {}",
        file.findings.len(),
        before,
        path.display()
    )?;
    Ok(ExitStatus::Clean)
}

pub fn run(cli: Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<ExitStatus, Error> {
    started();
    match cli.command {
        Command::Scan(cmd) => {
            let compat = cmd.common.compat.is_some()
                || scan_target(&cmd)
                    .ok()
                    .and_then(|(m, t)| compat_of(m, &t, &cmd.common))
                    .is_some();
            // A missing <path> is a parse error for AgentEval too (exit 2), not a runtime one.
            let (mode, target) = scan_target(&cmd)?;
            let outcome = (|| {
                if compat && !target.is_dir() {
                    let what = if mode == Mode::Repo {
                        "Repository"
                    } else {
                        "Skills"
                    };
                    return Err(Error::Compat(format!(
                        "{what} directory not found: {}",
                        crate::report::agenteval::full_path(&target)
                            .unwrap_or_else(|_| target.clone())
                            .display()
                    )));
                }
                let changed = match mode {
                    Mode::Repo if !cmd.paths.is_empty() => {
                        Some(changed_files(&target, &cmd.paths)?)
                    }
                    _ => None,
                };
                let extra = ScanExtras {
                    changed,
                    ..ScanExtras::default()
                };
                scan_with_baselines(mode, &target, &cmd.common, extra, stdout, stderr)
            })();
            compat_outcome(compat, outcome)
        }
        Command::ScanWorkspace(cmd) => {
            let compat = compat_of(Mode::Workspace, &cmd.dir, &cmd.common).is_some();
            if compat && !cmd.dir.is_dir() {
                return Err(Error::Compat(format!(
                    "Workspace directory not found: {}",
                    crate::report::agenteval::full_path(&cmd.dir)
                        .unwrap_or_else(|_| cmd.dir.clone())
                        .display()
                )));
            }
            let outcome = scan_with_baselines(
                Mode::Workspace,
                &cmd.dir,
                &cmd.common,
                ScanExtras {
                    trust_repo_config: cmd.trust_repo_config,
                    follow_repo_links: cmd.follow_repo_links,
                    shard: cmd.shard,
                    changed: None,
                },
                stdout,
                stderr,
            );
            compat_outcome(compat, outcome)
        }
        Command::Init(cmd) => run_init(&cmd, stderr),
        Command::Accept(cmd) => run_accept(&cmd, stderr),
        Command::Merge(cmd) => run_merge(&cmd, stdout, stderr),
        Command::Coverage(cmd) => coverage::run(&cmd, stdout, stderr),
        Command::Baseline(cmd) => run_baseline(cmd, stdout, stderr),
        Command::Evals(cmd) => evals::run(cmd, stdout, stderr),
        Command::Completions(cmd) => generate::completions(&cmd, stdout),
        Command::Man(cmd) => generate::man(&cmd, stdout),
        Command::Rules(cmd) => {
            match cmd.format {
                RulesFormat::Table => rules_table(stdout)?,
                RulesFormat::Markdown => {
                    stdout.write_all(catalog::render_rules_markdown().as_bytes())?
                }
                RulesFormat::Json => rules_json(stdout)?,
            }
            Ok(ExitStatus::Clean)
        }
        Command::Loaders => {
            for p in crate::loaders::profiles() {
                writeln!(stdout, "{} — {}", p.id, p.title)?;
                writeln!(stdout, "  reads: {}", p.conventions.join(", "))?;
                writeln!(stdout, "  {}", p.emulates)?;
                writeln!(stdout)?;
            }
            Ok(ExitStatus::Clean)
        }
        Command::Explain(cmd) => {
            let m = catalog::get(&cmd.rule).ok_or_else(|| Error::UnknownRule(cmd.rule.clone()))?;
            writeln!(stdout, "{} — {}", m.id, m.title)?;
            writeln!(
                stdout,
                "category: {} · severity: {} · confidence: {} · since {} · {}{}{}",
                m.category,
                m.severity,
                m.confidence,
                m.since,
                m.status,
                m.agenteval
                    .map(|a| format!(
                        " · AgentEval: {a} (#{})",
                        m.agenteval_number().unwrap_or_default()
                    ))
                    .unwrap_or_default(),
                if m.default_enabled {
                    ""
                } else {
                    " · off by default (enable it with `[rules.<id>] enable = true` or `--select`)"
                }
            )?;
            if let Some(why) = m.never_fires {
                writeln!(stdout, "Never fires: {why}")?;
            }
            writeln!(stdout)?;
            writeln!(stdout, "Fix: {}", m.fix)?;
            writeln!(stdout)?;
            writeln!(stdout, "Severity: {}", m.severity_policy())?;
            writeln!(stdout)?;
            writeln!(stdout, "{}", m.docs)?;
            Ok(ExitStatus::Clean)
        }
    }
}
