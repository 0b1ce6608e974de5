//! The option groups the commands share. Each command's clap `Args` flattens only the groups
//! that apply to it, so clap itself refuses any other option (exit 2); nothing is silently
//! ignored. The groups also turn into what the pipeline takes: scan options, gates, the
//! operator's configuration and the policy input.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::Error;
use crate::config::Config;
use crate::discover::{Mode, WalkOptions};
use crate::finding::Severity;
use crate::pipeline::{self, OperatorConfig};
use crate::read::ReadOptions;
use crate::report::{self, Format};
use crate::scan::ScanOptions;
use crate::text::sanitize_line;

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

    pub fn is_default(&self) -> bool {
        !self.normalize_eol && self.hash_ignore.is_empty() && !self.hash_ignore_droppings
    }

    pub fn hasher(&self) -> Result<crate::skill_hashes::Hasher, Error> {
        crate::skill_hashes::Hasher::new(self.options()).map_err(Error::Usage)
    }
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

/// What a command scans: a skill, a skills folder, or a repository (`--repo`).
#[derive(Debug, Args, Default)]
pub struct TargetArgs {
    /// A skill directory (holding SKILL.md) or a folder whose subfolders hold skills. With
    /// --repo: changed files (`scan --repo . -- FILE…`, what pre-commit passes); only the
    /// skills holding them are scanned and reported, with the cross-skill checks that
    /// involve them. `scan` with neither scans the repository in the current directory.
    #[arg(value_name = "PATH | FILE")]
    pub paths: Vec<PathBuf>,
    /// Scan every known skills convention under this repository root.
    #[arg(long, value_name = "ROOT")]
    pub repo: Option<PathBuf>,
}

impl TargetArgs {
    /// The mode and path given: `--repo ROOT` (changed files may follow), else one PATH.
    pub fn target(&self) -> Result<(Mode, PathBuf), Error> {
        match (&self.repo, &self.paths[..]) {
            (Some(r), _) => Ok((Mode::Repo, r.clone())),
            (None, [p]) => Ok((Mode::Path, p.clone())),
            (None, []) => Err(Error::Usage("give a PATH or --repo ROOT".into())),
            (None, _) => Err(Error::Usage(
                "give one PATH; changed files go after --repo ROOT (`scan --repo . -- FILE…`)"
                    .into(),
            )),
        }
    }

    /// The target of a command that defaults to the repository in the current directory
    /// (`coverage`): as given, else `--repo .`.
    pub fn target_or_cwd(&self) -> Result<(Mode, PathBuf), Error> {
        if self.repo.is_none() && self.paths.is_empty() {
            Ok((Mode::Repo, PathBuf::from(".")))
        } else {
            self.target()
        }
    }
}

/// Where a report goes: every command that prints one.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Report format: console, markdown (or md), json, sarif, github; matched without regard
    /// to case or surrounding blanks, as AgentEval does.
    #[arg(long, default_value = "console", value_parser = FormatValueParser, value_name = "FORMAT", help_heading = "Output")]
    pub format: FormatArg,
    /// Write the report to FILE instead of stdout (diagnostics still go to stderr).
    #[arg(short = 'o', long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Console: show only findings at or above the --fail-on threshold; no stderr notes.
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,
}

impl ReportArgs {
    /// `-o FILE` checked before any work: its folder must exist and take a new file (a
    /// probe file is created and removed there), and it must not be a folder.
    pub fn check_output(&self) -> Result<(), Error> {
        match &self.output {
            Some(path) => crate::fsutil::check_writable(path).map_err(|source| Error::Output {
                path: path.display().to_string(),
                source,
            }),
            None => Ok(()),
        }
    }
}

/// How a SARIF report is split and capped (`scan`, `scan-workspace`, `merge`).
#[derive(Debug, Args, Default)]
pub struct SarifArgs {
    /// SARIF of a workspace: write one file per repository into the folder given with `-o`,
    /// `DIR/REPO.sarif`, each with paths relative to its repository's root and its own
    /// category (`skillguard/REPO/`), to upload to that repository.
    #[arg(long, value_enum, value_name = "UNIT", help_heading = "Output")]
    pub split_by: Option<SplitBy>,
    /// SARIF: keep at most N results per run, the most severe first (default 25000, GitHub
    /// code scanning's limit; 0: no cap on results nor on the gzipped size). The run's
    /// `properties` and a line on stderr say what was left out.
    #[arg(long, value_name = "N", help_heading = "Output")]
    pub sarif_max_results: Option<usize>,
}

/// What `--split-by` splits a SARIF report by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SplitBy {
    /// One file per repository of the workspace.
    Repository,
}

impl SarifArgs {
    /// The results cap: GitHub's by default, `None` for `--sarif-max-results 0`.
    pub fn max_results(&self) -> Option<usize> {
        match self.sarif_max_results {
            Some(0) => None,
            Some(n) => Some(n),
            None => Some(report::sarif::MAX_RESULTS),
        }
    }

    /// `-o`, checked before any work: with `--split-by`, a folder (created when missing) for
    /// a SARIF report; otherwise [`ReportArgs::check_output`].
    pub fn check_output(&self, report: &ReportArgs) -> Result<(), Error> {
        if self.split_by.is_none() {
            return report.check_output();
        }
        if report.format.get() != Format::Sarif {
            return Err(Error::Usage(
                "--split-by repository needs --format sarif".into(),
            ));
        }
        let Some(dir) = &report.output else {
            return Err(Error::Usage(
                "--split-by repository needs -o DIR, the folder the files are written to".into(),
            ));
        };
        let made = match std::fs::metadata(dir) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => Err(io::Error::other("it is not a directory")),
            Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::create_dir_all(dir),
            Err(e) => Err(e),
        };
        made.and_then(|()| crate::fsutil::check_writable(&dir.join(".skillguard-probe")))
            .map_err(|source| Error::Output {
                path: dir.display().to_string(),
                source,
            })
    }
}

/// How findings are listed: the commands that report findings.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// Colour in console output.
    #[arg(long, value_enum, default_value = "auto", help_heading = "Output")]
    pub color: ColorChoice,
    /// Console and Markdown: group findings by rule (one line per finding, at most 5 per
    /// rule), by skill (with its loaders and index) or by file. Default: `rule` in the
    /// console, `skill` in Markdown.
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
    /// Also list the suppressed and accepted findings, with their reasons, in the console
    /// (JSON and SARIF always carry them; Markdown counts them).
    #[arg(long, help_heading = "Policy")]
    pub show_suppressed: bool,
}

impl ViewArgs {
    /// Colour, for a report written to `output` (a file: only `--color always`).
    pub fn color(&self, output: Option<&Path>) -> bool {
        if output.is_some() {
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

/// The gates of the commands that report findings.
#[derive(Debug, Args)]
pub struct GateArgs {
    /// Exit 1 when any high or critical finding is reported (same as --fail-on high).
    #[arg(long, help_heading = "Gate")]
    pub fail_on_noncompliant: bool,
    /// Exit 1 when any finding at or above SEVERITY is reported.
    #[arg(long, value_enum, value_name = "SEVERITY", help_heading = "Gate")]
    pub fail_on: Option<SeverityArg>,
    /// Exit 1 when a pin, the ledger or skills-lock.json shows drift, whatever else is found.
    #[arg(long, help_heading = "Gate")]
    pub fail_on_drift: bool,
    /// Exit 1 when the scan's Skill Security Index or any skill's is below N (0-100);
    /// a skill that could not be scored also fails. See docs/security-index.md.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=100), help_heading = "Gate")]
    pub fail_under_index: Option<u8>,
}

impl GateArgs {
    /// The severity gate: `--fail-on` / `--fail-on-noncompliant`, else the configuration's
    /// `fail-on`.
    pub fn threshold_with(&self, config: Option<Severity>) -> Option<Severity> {
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

    /// The pipeline's gates, with `fail_on` as the severity gate.
    pub fn gates(&self, fail_on: Option<Severity>) -> pipeline::Gates {
        pipeline::Gates {
            fail_on,
            fail_on_drift: self.fail_on_drift,
            fail_under_index: self.fail_under_index,
        }
    }
}

/// How a tree is walked and read: the commands that walk one.
#[derive(Debug, Args)]
pub struct WalkArgs {
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
    /// Never draw the progress bar (it is drawn only on a terminal, for console output
    /// without --quiet, outside CI).
    #[arg(long, help_heading = "Output")]
    pub no_progress: bool,
}

/// Which loaders judge the skills, and which harnesses the repository ships to.
#[derive(Debug, Args, Default)]
pub struct LoaderArgs {
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
}

/// Which configuration file applies.
#[derive(Debug, Args)]
pub struct ConfigArgs {
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
}

impl ConfigArgs {
    /// The operator's configuration for a scan of `target` ([`pipeline::operator_config`]).
    pub fn operator(&self, mode: Mode, target: &Path) -> Result<Option<OperatorConfig>, Error> {
        Ok(pipeline::operator_config(
            mode,
            target,
            self.config.as_deref(),
            self.no_config,
        )?)
    }
}

/// Which rules are reported.
#[derive(Debug, Args, Default)]
pub struct SelectArgs {
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
    /// Report (and gate on) only findings at or above this confidence: `medium` leaves out
    /// what the scanner itself is unsure of (in a reference document, under a heading that
    /// forbids it, an unknown pairing); each finding's `confidence_reason` says why.
    #[arg(long, value_enum, value_name = "LEVEL", help_heading = "Policy")]
    pub min_confidence: Option<ConfidenceArg>,
}

/// A confidence level on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ConfidenceArg {
    Low,
    Medium,
    High,
}

impl From<ConfidenceArg> for crate::finding::Confidence {
    fn from(c: ConfidenceArg) -> Self {
        match c {
            ConfidenceArg::Low => crate::finding::Confidence::Low,
            ConfidenceArg::Medium => crate::finding::Confidence::Medium,
            ConfidenceArg::High => crate::finding::Confidence::High,
        }
    }
}

/// What suppressions and accepted findings hide.
#[derive(Debug, Args)]
pub struct SuppressArgs {
    /// Suppressions and accepted findings hide nothing (unused ones are still reported).
    #[arg(long, help_heading = "Policy")]
    pub no_ignores: bool,
    /// Accepted findings (default: `.skillguard/accepted.json` under the repository or
    /// workspace root; see `skillguard accept`).
    #[arg(long, value_name = "FILE", help_heading = "Policy")]
    pub accepted: Option<PathBuf>,
}

impl SuppressArgs {
    pub fn accepted(&self) -> pipeline::Accepted {
        match &self.accepted {
            Some(p) => pipeline::Accepted::File(p.clone()),
            None => pipeline::Accepted::Default,
        }
    }
}

/// The ledger and pin files of a scan.
#[derive(Debug, Args)]
pub struct BaselineArgs {
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
    /// With --manifest-baseline: a skill or agent file the pin file does not hold
    /// (`unpinned-skill`), and a pinned skill or agent file that is gone
    /// (`pinned-skill-missing`), are notes on stderr instead of findings that trip
    /// --fail-on-drift.
    #[arg(long, requires = "manifest_baseline", help_heading = "Gate")]
    pub allow_new: bool,
}

impl BaselineArgs {
    /// `--fail-on-drift` with a `--manifest-baseline` file that does not exist: the gate
    /// could never trip (a mistyped CI path would disable it for good), so it is refused
    /// unless `--allow-missing-baseline` says this is a first run.
    pub fn check_drift_gate(&self, fail_on_drift: bool) -> Result<(), Error> {
        let Some(p) = &self.manifest_baseline else {
            return Ok(());
        };
        if !fail_on_drift || self.allow_missing_baseline {
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

    pub fn baseline(&self) -> crate::baseline::ScanBaseline {
        crate::baseline::ScanBaseline {
            write: self.write_baseline,
            root: self.baseline_root.clone(),
            note: self.baseline_note.clone(),
            check: self.check_baseline,
            save_pin: self.save_manifest_baseline.clone(),
            check_pin: self.manifest_baseline.clone(),
            allow_new: self.allow_new,
        }
    }
}

/// What the index's optional axes measure.
#[derive(Debug, Args)]
pub struct IndexArgs {
    /// Disclosure trace (JSON list of load_skill / read_skill_resource / run_skill_script
    /// calls) for the index's efficiency axis; without it that axis is not measured.
    #[arg(long, value_name = "FILE", help_heading = "Index")]
    pub trace: Option<PathBuf>,
    /// Graded eval results (the JSON of `skillguard evals grade`; repeatable) for the index's
    /// evals axis: regression pass^k and capability pass@k, counted for the skill or agent
    /// each result evaluates. Without it that axis is not measured. See docs/security-index.md.
    #[arg(long = "evals", value_name = "RESULTS.json", help_heading = "Index")]
    pub eval_results: Vec<PathBuf>,
}

impl IndexArgs {
    /// The `--trace` file, read and checked (a bad file is exit 2, naming it).
    pub fn read_trace(&self) -> Result<Option<crate::index::Trace>, Error> {
        match &self.trace {
            Some(p) => Ok(Some(crate::index::read_trace(p).map_err(Error::Trace)?)),
            None => Ok(None),
        }
    }

    /// The `--evals` results, read and checked (a bad file is exit 2, naming it); `None`
    /// without `--evals`.
    pub fn read_eval_results(&self) -> Result<Option<Vec<crate::index::EvalResult>>, Error> {
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
}

/// `--compat`: behave as another tool.
#[derive(Debug, Args)]
pub struct CompatArgs {
    /// Behave as AgentEval's `skills scan`: its JSON, console and Markdown reports, its 15
    /// rules only, its exit codes (3 for runtime errors) and its ledger location. Also
    /// `compat = "agenteval"` in the configuration. See docs/migrating-from-agenteval.md.
    #[arg(long, value_enum, value_name = "TOOL", help_heading = "Output")]
    pub compat: Option<crate::config::Compat>,
}

/// Scan options from the walk, loader and hash options and the operator's configuration
/// (never the scanned repository's own), the rules `--select`/`--ignore` enable.
/// `line_hashes`: a ledger snapshot will be written.
pub fn scan_options(
    walk: &WalkArgs,
    loaders: &LoaderArgs,
    hashing: &HashArgs,
    select: &SelectArgs,
    line_hashes: bool,
    cfg: Option<&Config>,
) -> Result<ScanOptions, Error> {
    let default = Config::default();
    let cfg = cfg.unwrap_or(&default);
    hashing.hasher()?;
    let max_depth = walk.max_depth.or(cfg.limits.max_depth).unwrap_or(12);
    let max_dirs = walk.max_dirs.or(cfg.limits.max_dirs).unwrap_or(50_000);
    let max_file_size = walk
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
    let cli_profiles = loaders.profiles.clone();
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
    let threads = walk.threads.min(4 * cores);
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
                let known: Vec<&str> = crate::loaders::profiles().iter().map(|x| x.id).collect();
                return Err(Error::Usage(format!(
                    "unknown profile `{p}`; known profiles: {}",
                    known.join(", ")
                )));
            }
            set.insert(p.to_owned());
        }
        crate::loaders::Selection::Only(set)
    };
    let target_names: Vec<String> = if !loaders.targets.is_empty() {
        loaders.targets.clone()
    } else if cfg.strict_portability {
        vec!["all".to_owned()]
    } else {
        cfg.targets.clone()
    };
    for t in &target_names {
        let t = t.trim();
        // `waza`: Waza evaluates the repository's agents (its own rules then apply in full).
        if t != "all" && t != crate::targets::WAZA && crate::loaders::profile(t).is_none() {
            let known: Vec<&str> = crate::loaders::profiles().iter().map(|x| x.id).collect();
            return Err(Error::Usage(format!(
                "unknown target `{t}`; give `all`, `waza` or profile ids: {}",
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
            only: None,
            max_depth,
            max_dirs: max_dirs.max(1),
            threads,
            respect_gitignore: walk.respect_gitignore
                || cfg.scan.respect_gitignore.unwrap_or(false),
            conventions_only: walk.conventions_only || cfg.scan.conventions_only.unwrap_or(false),
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
            line_hashes,
            ..ReadOptions::default()
        },
        hash: hashing.options(),
        threads,
        changed: None,
        policy_files: Vec::new(),
        progress: None,
        rules: crate::config::enabled_rules(&select.select, &select.ignore, cfg),
        panic_on_skill: None,
        cache: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::Cli;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        let mut v = vec!["skillguard"];
        v.extend_from_slice(args);
        Cli::try_parse_from(v)
    }

    /// The options that only a walk of a tree uses.
    const WALK: &[&[&str]] = &[
        &["--threads", "2"],
        &["--respect-gitignore"],
        &["--profile", "maf"],
        &["--targets", "all"],
        &["--conventions-only"],
        &["--max-depth", "3"],
        &["--max-dirs", "9"],
        &["--max-file-size", "99"],
        &["--no-progress"],
        &["--normalize-eol"],
        &["--hash-ignore", "*.log"],
        &["--hash-ignore-droppings"],
    ];
    /// The configuration, suppression, baseline and compat options of a scan.
    const SCAN_ONLY: &[&[&str]] = &[
        &["--config", "x.toml"],
        &["--no-config"],
        &["--no-ignores"],
        &["--accepted", "a.json"],
        &["--write-baseline"],
        &["--check-baseline"],
        &["--baseline-root", "l"],
        &["--baseline-note", "n"],
        &["--save-manifest-baseline", "p.json"],
        &["--manifest-baseline", "p.json"],
        &["--allow-missing-baseline"],
        &["--compat", "agenteval"],
    ];
    /// How findings are listed and gated.
    const FINDINGS: &[&[&str]] = &[
        &["--group-by", "rule"],
        &["--max-findings-per-rule", "3"],
        &["--max-bytes", "0"],
        &["--show-suppressed"],
        &["--color", "never"],
        &["--fail-on", "high"],
        &["--fail-on-noncompliant"],
        &["--fail-on-drift"],
        &["--fail-under-index", "50"],
        &["--select", "security"],
        &["--ignore", "security"],
        &["--trace", "t.json"],
        &["--evals", "r.json"],
    ];

    fn refused(base: &[&str], opt: &[&str]) -> bool {
        let mut v = base.to_vec();
        v.extend_from_slice(opt);
        match parse(&v) {
            Ok(_) => false,
            Err(e) => e.kind() == clap::error::ErrorKind::UnknownArgument,
        }
    }

    #[test]
    fn scan_commands_take_every_scan_option() {
        for base in [&["scan", "--repo", "."][..], &["scan-workspace", "w"]] {
            for opt in WALK.iter().chain(SCAN_ONLY).chain(FINDINGS) {
                let mut v = base.to_vec();
                v.extend_from_slice(opt);
                assert!(parse(&v).is_ok(), "{v:?}");
            }
        }
    }

    #[test]
    fn merge_refuses_what_applies_to_the_shards_scans() {
        // `--no-ignores` applies to reports too: the shards' suppressed findings come back.
        for opt in WALK.iter().chain(SCAN_ONLY) {
            let applies = opt == &&["--no-ignores"][..];
            assert_eq!(
                refused(&["merge", "a.json"], opt),
                !applies,
                "merge {opt:?}"
            );
        }
        for opt in FINDINGS {
            assert!(!refused(&["merge", "a.json"], opt), "merge {opt:?}");
        }
        assert!(refused(&["merge", "a.json"], &["--trust-repo-config"]));
        assert!(refused(&["merge", "a.json"], &["--shard", "1/2"]));
    }

    #[test]
    fn coverage_refuses_what_concerns_findings() {
        for opt in FINDINGS.iter().chain(SCAN_ONLY.iter().skip(2)) {
            assert!(refused(&["coverage"], opt), "coverage {opt:?}");
        }
        for opt in [
            &["--profile", "maf"][..],
            &["--targets", "all"],
            &["--normalize-eol"],
        ] {
            assert!(refused(&["coverage"], opt), "coverage {opt:?}");
        }
        for opt in [
            &["--format", "json"][..],
            &["-o", "x"],
            &["--quiet"],
            &["--max-depth", "3"],
            &["--config", "x.toml"],
            &["--fail-under-coverage", "50"],
        ] {
            assert!(!refused(&["coverage"], opt), "coverage {opt:?}");
        }
    }

    #[test]
    fn accept_takes_what_decides_the_findings_it_records() {
        let own: &[&[&str]] = &[
            &["--config", "x.toml"],
            &["--select", "security"],
            &["--accepted", "a.json"],
            &["--baseline-root", "l"],
        ];
        for opt in WALK.iter().chain(own) {
            assert!(!refused(&["accept"], opt), "accept {opt:?}");
        }
        for opt in [
            &["--format", "json"][..],
            &["--fail-on", "high"],
            &["--write-baseline"],
            &["--no-ignores"],
            &["--compat", "agenteval"],
        ] {
            assert!(refused(&["accept"], opt), "accept {opt:?}");
        }
    }

    #[test]
    fn the_severity_gate_takes_the_lowest_threshold_given() {
        let gates = |args: &[&str]| {
            let mut v = vec!["scan", "x"];
            v.extend_from_slice(args);
            match parse(&v).unwrap().command {
                crate::cli::Command::Scan(s) => s.opts.gates,
                _ => unreachable!(),
            }
        };
        assert_eq!(gates(&[]).threshold_with(None), None);
        assert_eq!(
            gates(&[]).threshold_with(Some(Severity::Low)),
            Some(Severity::Low),
            "the configuration's fail-on"
        );
        assert_eq!(
            gates(&["--fail-on-noncompliant"]).threshold_with(Some(Severity::Low)),
            Some(Severity::High),
            "the flag wins over the configuration"
        );
        assert_eq!(
            gates(&["--fail-on", "medium", "--fail-on-noncompliant"]).threshold_with(None),
            Some(Severity::Medium)
        );
    }

    #[test]
    fn a_target_is_a_repository_or_one_path() {
        let t = |repo: Option<&str>, paths: &[&str]| TargetArgs {
            repo: repo.map(PathBuf::from),
            paths: paths.iter().map(PathBuf::from).collect(),
        };
        assert_eq!(t(Some("r"), &["f"]).target().unwrap().0, Mode::Repo);
        assert_eq!(t(None, &["p"]).target().unwrap().0, Mode::Path);
        assert!(t(None, &[]).target().is_err());
        assert!(t(None, &["a", "b"]).target().is_err());
        assert_eq!(
            t(None, &[]).target_or_cwd().unwrap(),
            (Mode::Repo, PathBuf::from("."))
        );
    }
}
