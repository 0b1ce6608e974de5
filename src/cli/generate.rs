//! `skillguard completions SHELL` and `skillguard man [COMMAND…]`: shell completion scripts
//! and roff man pages generated from the clap definition, so they never drift from the CLI.

use std::io::Write;

use clap::{Args, CommandFactory};

use super::{Cli, Error, ExitStatus};

#[derive(Debug, Args)]
pub struct CompletionsCmd {
    /// The shell to write a completion script for.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManCmd {
    /// The subcommand whose page to print (`scan`, `baseline diff`, …); the main page
    /// (`skillguard.1`) without one.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// The command-line definition as `skillguard` presents it, fully built (display names such
/// as `skillguard-scan` set on every subcommand).
fn definition() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

/// Writes the completion script for `cmd.shell`.
pub fn completions(cmd: &CompletionsCmd, stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    // clap_complete panics on a write error: generate into memory, then write (a closed
    // pipe is then an ordinary I/O error).
    let mut buf = Vec::new();
    let mut def = definition();
    clap_complete::generate(cmd.shell, &mut def, "skillguard", &mut buf);
    stdout.write_all(&buf)?;
    Ok(ExitStatus::Clean)
}

/// Writes the man page (roff) of the main command or of the named subcommand.
pub fn man(cmd: &ManCmd, stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    let mut page = definition();
    for (i, name) in cmd.command.iter().enumerate() {
        let Some(sub) = page.find_subcommand(name).cloned() else {
            let known: Vec<String> = page
                .get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(|s| s.get_name().to_owned())
                .collect();
            let at = if i == 0 {
                "skillguard".to_owned()
            } else {
                format!("skillguard {}", cmd.command[..i].join(" "))
            };
            return Err(Error::Usage(format!(
                "`{at}` has no subcommand `{}`; known: {}",
                crate::text::sanitize_line(name),
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            )));
        };
        page = sub;
    }
    let title = page
        .get_display_name()
        .unwrap_or_else(|| page.get_name())
        .to_owned();
    let mut buf = Vec::new();
    clap_mangen::Man::new(page).render(&mut buf)?;
    let roff = String::from_utf8_lossy(&buf);
    stdout.write_all(title_first(&roff, &title).as_bytes())?;
    Ok(ExitStatus::Clean)
}

/// The page with `.TH` as its first request (man-db and `whatis` look for it there), with an
/// empty date kept as `""` (clap_mangen leaves the field out, which shifts the source and the
/// manual into the wrong places). clap_mangen's preamble (the `Aq` string for apostrophes)
/// follows the title, where roff reads it just the same.
fn title_first(roff: &str, title: &str) -> String {
    let th = format!(
        ".TH {title} 1 \"\" \"skillguard {}\" \"skillguard manual\"\n",
        crate::report::VERSION
    );
    let mut preamble = String::new();
    let mut rest = String::new();
    let mut seen_th = false;
    for line in roff.split_inclusive('\n') {
        if !seen_th && line.starts_with(".TH ") {
            seen_th = true;
        } else if seen_th {
            rest.push_str(line);
        } else {
            preamble.push_str(line);
        }
    }
    th + &preamble + &rest
}
