//! The `skillguard` binary: parse arguments, run, map the outcome to an exit code.
#![forbid(unsafe_code)]

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;
use skillguard::cli::{self, Cli, Error, ExitStatus};

fn is_broken_pipe(e: &Error) -> bool {
    match e {
        Error::Io(io) => io.kind() == io::ErrorKind::BrokenPipe,
        _ => false,
    }
}

fn main() -> ExitCode {
    // Starts the wall clock of `SKILLGUARD_TIMINGS=1` at process start.
    skillguard::timing::enabled();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut err = io::stderr();
    let res = cli::run(cli, &mut out, &mut err);
    let flushed = out.flush();
    match res {
        Ok(status) => {
            // The report is flushed last: a write error there (a full disk) means the
            // report was lost, which is an I/O error (2); a closed pipe is not.
            if let Err(e) = flushed
                && e.kind() != io::ErrorKind::BrokenPipe
            {
                let _ = writeln!(err, "skillguard: error: cannot write the report: {e}");
                return ExitCode::from(2);
            }
            match status {
                ExitStatus::Clean => ExitCode::SUCCESS,
                ExitStatus::Findings => ExitCode::from(1),
            }
        }
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        // AgentEval's runtime errors (`--compat agenteval`): its text, its exit code 3.
        Err(Error::Compat(m)) => {
            let _ = writeln!(err, "  Error: {}", skillguard::text::sanitize_line(&m));
            ExitCode::from(3)
        }
        // A configuration error keeps its caret snippet on the lines below the message
        // (each line sanitised on its own).
        Err(e @ Error::Config(_)) => {
            let text = e.to_string();
            let lines: Vec<_> = text.lines().map(skillguard::text::sanitize_line).collect();
            let _ = writeln!(err, "skillguard: error: {}", lines.join("\n"));
            ExitCode::from(e.exit_code())
        }
        Err(e) => {
            let _ = writeln!(
                err,
                "skillguard: error: {}",
                skillguard::text::sanitize_line(&e.to_string())
            );
            ExitCode::from(e.exit_code())
        }
    }
}
