//! Renderers: one module per format, each writing the same [`ScanResult`] to a
//! `&mut dyn Write`. Scanned text is sanitised (console) or escaped (Markdown)
//! at render time; JSON and SARIF carry it verbatim inside JSON strings.

pub mod console;
pub mod json;
pub mod markdown;
pub mod sarif;

use std::io::{self, Write};

use crate::finding::Severity;
use crate::scan::ScanResult;

/// Output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Console,
    Markdown,
    Json,
    Sarif,
}

/// Settings every renderer may use.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    pub color: bool,
    /// The `--fail-on` threshold, shown in summaries.
    pub fail_on: Option<Severity>,
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
    }
}

/// The tool version reported everywhere.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
