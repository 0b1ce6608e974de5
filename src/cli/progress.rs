//! The progress bar: drawn on stderr with `indicatif` while a scan runs, only when a person
//! watches — stderr is a terminal, the report is the console one, without `--quiet` or
//! `--no-progress`, and not in CI (`CI` set, as every CI service does) — and only once the
//! scan has run for a second, so a quick scan prints nothing extra. It is cleared before the
//! report is written, so it never mixes with it.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::args::{ReportArgs, WalkArgs};
use crate::report::Format;
use crate::scan::{Progress, ScanOptions};

/// How long a scan runs before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// A running bar; dropping it stops and clears it.
pub struct Bar {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Should a bar be drawn for these options, on this stderr, in this environment?
fn wanted(report: &ReportArgs, walk: &WalkArgs, terminal: bool, ci: bool) -> bool {
    terminal && !ci && !report.quiet && !walk.no_progress && report.format == Format::Console
}

impl Bar {
    /// Starts the bar's thread when [`wanted`], and gives the scan its counters.
    pub fn start(report: &ReportArgs, walk: &WalkArgs, opts: &mut ScanOptions) -> Option<Bar> {
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty());
        if !wanted(report, walk, std::io::stderr().is_terminal(), ci) {
            return None;
        }
        let progress = Arc::new(Progress::default());
        opts.progress = Some(progress.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || draw(&progress, &flag));
        Some(Bar {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Bar {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn draw(progress: &Progress, stop: &AtomicBool) {
    let started = std::time::Instant::now();
    let mut bar: Option<indicatif::ProgressBar> = None;
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        if started.elapsed() < DELAY {
            continue;
        }
        let total = progress.total.load(Ordering::Relaxed) as u64;
        let done = progress.done.load(Ordering::Relaxed) as u64;
        let b = bar.get_or_insert_with(|| {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{spinner} scanning {pos}/{len} skills [{bar:30}] {elapsed}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
            b
        });
        b.set_length(total);
        b.set_position(done);
        b.tick();
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn wanted_for(args: &[&str], terminal: bool, ci: bool) -> bool {
        let mut v = vec!["skillguard", "scan", "x"];
        v.extend_from_slice(args);
        match super::super::Cli::parse_from(v).command {
            super::super::Command::Scan(s) => wanted(&s.opts.report, &s.opts.walk, terminal, ci),
            _ => unreachable!(),
        }
    }

    #[test]
    fn only_a_person_at_a_terminal_gets_a_bar() {
        assert!(wanted_for(&[], true, false));
        assert!(!wanted_for(&[], false, false), "not a terminal");
        assert!(!wanted_for(&[], true, true), "CI");
        assert!(!wanted_for(&["--quiet"], true, false));
        assert!(!wanted_for(&["--no-progress"], true, false));
        for f in ["json", "sarif", "markdown", "github"] {
            assert!(!wanted_for(&["--format", f], true, false), "{f}");
        }
    }
}
