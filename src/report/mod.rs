//! Renderers: one module per format, each writing the same [`ScanResult`] to a
//! `&mut dyn Write`. Scanned text is sanitised (console) or escaped (Markdown)
//! at render time; JSON and SARIF carry it verbatim inside JSON strings.

pub mod agenteval;
pub mod console;
pub mod github;
pub mod json;
pub mod markdown;
pub mod model;
pub mod overview;
pub mod sarif;
pub mod signature;
pub mod summary;

use std::io::{self, Write};

use crate::finding::Severity;
use crate::result::ScanResult;

/// Output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Console,
    Markdown,
    Json,
    Sarif,
    // GitHub Actions workflow-command annotations (`::error file=…,line=…::message`).
    Github,
}

/// Settings every renderer may use.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    pub color: bool,
    /// The `--fail-on` threshold, shown in summaries.
    pub fail_on: Option<Severity>,
    /// The Skill Security Index computed by the caller (after drift findings were
    /// added, with the disclosure trace); computed without a trace when absent.
    pub index: Option<std::sync::Arc<crate::index::Report>>,
    /// `--quiet` (console): list only the findings at or above this severity and only the
    /// skills that have one; the header and the summary still count everything.
    pub quiet: Option<Severity>,
    /// List the suppressed and accepted findings too (console, Markdown).
    pub show_suppressed: bool,
    /// How findings are grouped (console, Markdown).
    pub group_by: summary::GroupBy,
    /// List at most this many findings of each rule (console, Markdown, GitHub
    /// annotations); the others are counted. JSON and SARIF stay complete.
    pub max_per_rule: Option<usize>,
    /// Markdown: keep the report under this many bytes (details are cut first, and a note
    /// says what was cut). `None`: no limit.
    pub max_bytes: Option<usize>,
    /// SARIF: the scanned base's path inside its repository (`skills/pdf` when `scan
    /// skills/pdf` ran in a checkout), put before every URI so that code scanning maps
    /// results to the repository's files. `None`: the base is the repository root, or
    /// no repository holds it.
    pub repo_prefix: Option<String>,
    /// SARIF: the repository the log covers (`--split-by repository`) and the results cap.
    pub sarif: sarif::Scope,
    /// Console: the scan's wall time, shown in the header (set only on a terminal, so that
    /// redirected output stays byte-identical from run to run).
    pub elapsed: Option<std::time::Duration>,
    /// Console: wrap each finding's line at this many characters (set only on a terminal, to
    /// its width; redirected output is never wrapped, so it stays the same bytes everywhere).
    pub width: Option<usize>,
    /// Console: the gates given and their verdict, for the closing line; `None`: no gate.
    pub gate: Option<Gate>,
}

/// The verdict of the gates given (`--fail-on`, `--fail-on-drift`, `--fail-under-index`).
#[derive(Debug, Clone, Default)]
pub struct Gate {
    pub failing: bool,
    /// One per gate: `--fail-on high: 3 at or above`.
    pub reasons: Vec<String>,
}

/// GitHub's limit for a job summary (`$GITHUB_STEP_SUMMARY`): the Markdown default.
pub const STEP_SUMMARY_LIMIT: usize = 1024 * 1024;

impl RenderOptions {
    /// The index to show: the caller's, or one computed from `result` without a trace.
    pub fn index_for(&self, result: &ScanResult) -> std::sync::Arc<crate::index::Report> {
        self.index
            .clone()
            .unwrap_or_else(|| std::sync::Arc::new(crate::index::for_result(result, None, None)))
    }
}

/// Renders `result` in `format`.
pub fn render(
    format: Format,
    result: &ScanResult,
    opts: &RenderOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Console => console::render(result, opts, out),
        Format::Markdown => markdown::render(result, opts, out),
        Format::Json => json::render(result, opts, out),
        Format::Sarif => sarif::render(result, opts, out),
        Format::Github => github::render(result, opts, out),
    }
}

/// The tool version reported everywhere.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
