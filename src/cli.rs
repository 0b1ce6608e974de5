//! Command-line interface: clap definitions ("low args") and the dispatcher that
//! validates them into scan options ("high args"), runs the command and returns
//! the exit status. `main.rs` only maps the result to a process exit code.

use std::fs;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::analyze::ReadOptions;
use crate::catalog;
use crate::discover::{Mode, WalkOptions};
use crate::finding::Severity;
use crate::report::{self, Format, RenderOptions};
use crate::scan::{self, ScanOptions, ScanResult};
use crate::text::sanitize_line;

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
}

#[derive(Debug, Args)]
pub struct ScanCmd {
    /// A skill directory (holding SKILL.md) or a folder whose subfolders hold skills.
    #[arg(
        value_name = "PATH",
        conflicts_with = "repo",
        required_unless_present = "repo"
    )]
    pub path: Option<PathBuf>,
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
    #[command(flatten)]
    pub common: CommonArgs,
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
    /// Report format.
    #[arg(long, value_enum, default_value = "console", help_heading = "Output")]
    pub format: Format,
    /// Write the report to FILE instead of stdout (diagnostics still go to stderr).
    #[arg(short = 'o', long, value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Colour in console output.
    #[arg(long, value_enum, default_value = "auto", help_heading = "Output")]
    pub color: ColorChoice,
    /// Console: show only findings at or above the --fail-on threshold; no stderr notes.
    #[arg(short, long, help_heading = "Output")]
    pub quiet: bool,
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
    /// Repository scans: walk only the known skills conventions, not the whole repository.
    #[arg(long, help_heading = "Scan")]
    pub conventions_only: bool,
    /// Do not enter directories N or more levels below a walk root.
    #[arg(long, default_value_t = 12, value_name = "N", help_heading = "Scan")]
    pub max_depth: usize,
    /// Stop descending after N directories per repository.
    #[arg(
        long,
        default_value_t = 50_000,
        value_name = "N",
        help_heading = "Scan"
    )]
    pub max_dirs: usize,
    /// Files larger than BYTES are hashed but not parsed (and reported).
    #[arg(long, default_value_t = 10 * 1024 * 1024, value_name = "BYTES", help_heading = "Scan")]
    pub max_file_size: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RulesFormat {
    Table,
    Markdown,
    Json,
}

#[derive(Debug, Args)]
pub struct RulesCmd {
    /// `table` (default), `markdown` (the text of docs/rules.md) or `json`.
    #[arg(long, value_enum, default_value = "table")]
    pub format: RulesFormat,
}

#[derive(Debug, Args)]
pub struct ExplainCmd {
    /// Rule id (or its AgentEval alias).
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

/// Errors that end a command with exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Discover(#[from] crate::discover::DiscoverError),
    #[error("unknown rule `{0}`; run `skillguard rules` for the list")]
    UnknownRule(String),
    #[error("cannot write report to {path}: {source}")]
    Output { path: String, source: io::Error },
    #[error(transparent)]
    Io(#[from] io::Error),
    #[error("invalid option: {0}")]
    Usage(String),
}

impl CommonArgs {
    fn threshold(&self) -> Option<Severity> {
        let a = self.fail_on.map(Severity::from);
        let b = self.fail_on_noncompliant.then_some(Severity::High);
        match (a, b) {
            (Some(x), Some(y)) => Some(x.min(y)),
            (x, y) => x.or(y),
        }
    }

    fn options(&self) -> Result<ScanOptions, Error> {
        if self.max_depth == 0 {
            return Err(Error::Usage("--max-depth must be at least 1".into()));
        }
        // More threads than a few per core only cost start-up time (and thousands can
        // take minutes): clamp to 4 × the available parallelism.
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let threads = self.threads.min(4 * cores);
        let profiles = if self.profiles.is_empty() {
            crate::loaders::Selection::Default
        } else {
            let mut set = std::collections::BTreeSet::new();
            for p in &self.profiles {
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
        Ok(ScanOptions {
            profiles,
            walk: WalkOptions {
                max_depth: self.max_depth,
                max_dirs: self.max_dirs.max(1),
                threads,
                respect_gitignore: self.respect_gitignore,
                conventions_only: self.conventions_only,
            },
            read: ReadOptions {
                max_file_size: self.max_file_size,
                ..ReadOptions::default()
            },
            threads,
            panic_on_skill: None,
        })
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

/// Writes what `fill` produces to `path`. A character device (`/dev/null`,
/// `/dev/stdout`) or a FIFO is written through in place and never replaced.
/// Anything else — a new file, a regular file, a symbolic link — is replaced
/// atomically (a temporary file in the same directory, fsync, rename): a reader
/// never sees a half-written report, and a symlink planted where the report goes
/// (for instance inside a scanned repository) is replaced, never followed.
fn is_device_or_fifo(ft: &fs::FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        ft.is_char_device() || ft.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = ft;
        false
    }
}

pub fn write_atomic(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    match fs::symlink_metadata(path) {
        Ok(m) if is_device_or_fifo(&m.file_type()) => {
            let f = fs::OpenOptions::new()
                .write(true)
                .truncate(true)
                .open(path)?;
            let mut w = io::BufWriter::new(f);
            fill(&mut w)?;
            return w.flush();
        }
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("report");
    let tmp = dir.join(format!(".{name}.skillguard-{}.tmp", std::process::id()));
    let res = (|| {
        let f = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        let mut w = io::BufWriter::new(f);
        fill(&mut w)?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if res.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    res
}

fn emit_report(
    result: &ScanResult,
    common: &CommonArgs,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let threshold = common.threshold();
    let mut filtered;
    let view = if common.quiet && common.format == Format::Console {
        filtered = result.clone();
        let t = threshold.unwrap_or(Severity::Info);
        filtered.findings.retain(|f| f.severity >= t);
        let keep: std::collections::BTreeSet<String> = filtered
            .findings
            .iter()
            .filter_map(|f| f.skill_path.clone())
            .collect();
        filtered.artifacts.retain(|a| keep.contains(&a.path));
        &filtered
    } else {
        result
    };
    let opts = RenderOptions {
        color: common.color(),
        fail_on: threshold,
    };
    match &common.output {
        Some(path) => {
            write_atomic(path, |w| report::render(common.format, view, &opts, w)).map_err(|e| {
                Error::Output {
                    path: path.display().to_string(),
                    source: e,
                }
            })?;
            if !common.quiet {
                writeln!(stderr, "skillguard: report written to {}", path.display())?;
            }
        }
        // A reader that stops early (`| head`) does not change the verdict: the gate
        // result below still decides the exit code.
        None => match report::render(common.format, view, &opts, stdout) {
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
    let failing = threshold.is_some_and(|t| result.findings.iter().any(|f| f.severity >= t));
    Ok(if failing {
        ExitStatus::Findings
    } else {
        ExitStatus::Clean
    })
}

fn rules_table(out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{:<36} {:<9} {:<11} {:<10} TITLE",
        "ID", "SEVERITY", "CONFIDENCE", "CATEGORY"
    )?;
    for m in catalog::all() {
        writeln!(
            out,
            "{:<36} {:<9} {:<11} {:<10} {}",
            m.id,
            m.severity.as_str(),
            m.confidence.as_str(),
            m.category,
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
                "since": m.since,
                "status": m.status,
                "excludes_skill": m.excludes_skill,
                "fix": m.fix,
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &serde_json::json!({ "version": 1, "rules": v }))
        .map_err(io::Error::from)?;
    writeln!(out)
}

/// Runs a parsed command line.
pub fn run(cli: Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> Result<ExitStatus, Error> {
    match cli.command {
        Command::Scan(cmd) => {
            let opts = cmd.common.options()?;
            let (mode, target) = match (&cmd.repo, &cmd.path) {
                (Some(r), _) => (Mode::Repo, r.clone()),
                (None, Some(p)) => (Mode::Path, p.clone()),
                (None, None) => return Err(Error::Usage("give a PATH or --repo ROOT".into())),
            };
            let result = scan::scan(mode, &target, &opts)?;
            emit_report(&result, &cmd.common, stdout, stderr)
        }
        Command::ScanWorkspace(cmd) => {
            let opts = cmd.common.options()?;
            let result = scan::scan(Mode::Workspace, &cmd.dir, &opts)?;
            emit_report(&result, &cmd.common, stdout, stderr)
        }
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
                "category: {} · severity: {} · confidence: {} · since {} · {}{}",
                m.category,
                m.severity,
                m.confidence,
                m.since,
                m.status,
                m.agenteval
                    .map(|a| format!(" · AgentEval: {a}"))
                    .unwrap_or_default()
            )?;
            writeln!(stdout)?;
            writeln!(stdout, "Fix: {}", m.fix)?;
            writeln!(stdout)?;
            writeln!(stdout, "{}", m.docs)?;
            Ok(ExitStatus::Clean)
        }
    }
}
