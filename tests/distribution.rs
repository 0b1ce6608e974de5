//! Install and integration artefacts: shell completions and man pages generated from the
//! CLI definition, the GitHub Action (`action.yml`) and `--format github` end to end.

use std::path::Path;
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skillguard"));
    c.current_dir(root());
    for v in ["NO_COLOR", "CI", "CLICOLOR_FORCE", "GITHUB_ACTIONS"] {
        c.env_remove(v);
    }
    c
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("run skillguard")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn completions_for_every_shell() {
    // Each script names the binary and offers the subcommands and a scan option.
    for (shell, marker) in [
        ("bash", "complete -F _skillguard"),
        ("zsh", "#compdef skillguard"),
        ("fish", "complete -c skillguard"),
        ("powershell", "Register-ArgumentCompleter"),
        ("elvish", "set edit:completion:arg-completer[skillguard]"),
    ] {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let s = stdout(&o);
        assert!(s.contains(marker), "{shell}: no `{marker}` in the script");
        for word in ["scan-workspace", "baseline", "--fail-on", "completions"] {
            assert!(s.contains(word), "{shell}: `{word}` not offered");
        }
    }
}

#[test]
fn completions_reject_an_unknown_shell() {
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
}

#[test]
fn man_page_is_roff_from_the_cli_definition() {
    let o = run(&["man"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(
        s.starts_with(".TH"),
        "not a roff page: {}",
        &s[..s.len().min(80)]
    );
    let th = s.lines().next().unwrap();
    assert!(th.contains("skillguard"), "{th}");
    assert!(
        th.contains(env!("CARGO_PKG_VERSION")),
        "the title names the version: {th}"
    );
    for word in ["scan\\-workspace", "completions", "SUBCOMMANDS"] {
        assert!(s.contains(word), "`{word}` missing from the man page");
    }
    // Deterministic: no date, same bytes every run.
    assert_eq!(run(&["man"]).stdout, o.stdout);
}

#[test]
fn man_page_of_a_subcommand() {
    let o = run(&["man", "scan"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    assert!(s.starts_with(".TH"));
    assert!(
        s.contains("skillguard\\-scan"),
        "{}",
        &s[..s.len().min(200)]
    );
    assert!(s.contains("\\-\\-fail\\-on"), "scan options listed");

    let o = run(&["man", "baseline", "diff"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("skillguard\\-baseline\\-diff"));

    let o = run(&["man", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no subcommand `nosuch`"),
        "{}",
        stderr(&o)
    );
}
