//! `skillguard evals …`: evaluations. `evals tools` checks the tool calls of transcripts
//! against an agent's declared `tools:` (Waza's `tool_constraint`; `docs/evals-tools.md`).
//! The policy is `crate::evals::tools`; this module resolves the agent (a path, or a name
//! found by a scan of the repository), reads the transcripts and prints the result.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::{Error, ExitStatus};
use crate::discover::Mode;
use crate::evals::tools::{Constraint, Policy, PolicyError, constraint_of_eval, policy_of};
use crate::inventory::ArtifactKind;
use crate::parse::tool_calls;
use crate::scan::{self, ScanOptions};
use crate::text::sanitize_line;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EvalsFormat {
    Console,
    Json,
}

#[derive(Debug, Args)]
pub struct ToolsCmd {
    /// The agent: a path to its file, or its name (frontmatter `name` or file name without
    /// its suffix) among the agent files of --repo.
    #[arg(long, value_name = "NAME|PATH")]
    pub agent: String,
    /// Transcripts: JSON lists of tool calls (shapes in docs/evals-tools.md).
    #[arg(value_name = "TRANSCRIPT", required = true)]
    pub transcripts: Vec<PathBuf>,
    /// A Waza eval file (`eval.yaml`, `evals/<name>.yaml`): its `tool_constraint` grader
    /// (`allow_only`, `reject_tools`) replaces the implicit one of the agent's `tools:`.
    #[arg(long, value_name = "EVAL.yaml")]
    pub eval: Option<PathBuf>,
    /// Repository whose agent files a NAME is looked up among.
    #[arg(long, value_name = "ROOT", default_value = ".")]
    pub repo: PathBuf,
    #[arg(long, value_enum, ignore_case = true, default_value = "console")]
    pub format: EvalsFormat,
}

/// Why `evals` could not run (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum EvalsError {
    #[error("no skill or agent named `{name}` in {repo}{hint}")]
    NoAgent {
        name: String,
        repo: String,
        hint: String,
    },
    #[error(
        "`{name}` names only {paths}, which Waza ignores (an agent file beside a `SKILL.md`: Waza evaluates the skill); move the agent to its own folder or pass the skill"
    )]
    IgnoredByWaza { name: String, paths: String },
    #[error("`{name}` is ambiguous: it is the name of {paths}. Pass the file's path instead")]
    Ambiguous { name: String, paths: String },
    #[error("invalid eval file {path}: {reason}")]
    EvalInvalid { path: String, reason: String },
    #[error("cannot read agent file {path}: {reason}")]
    AgentUnreadable { path: String, reason: String },
    #[error("malformed agent {path}: {source}")]
    AgentMalformed { path: String, source: PolicyError },
    #[error("cannot read transcript {path}: {reason}")]
    TranscriptUnreadable { path: String, reason: String },
    #[error("invalid transcript {path}: {reason}")]
    TranscriptInvalid { path: String, reason: String },
}

/// Largest agent file read.
const MAX_AGENT_BYTES: u64 = 4 * 1024 * 1024;

fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    crate::fsutil::read_named_bounded(path, max).map_err(|e| e.to_string())
}

/// Whether `--agent` is meant as a path rather than a name.
fn looks_like_path(arg: &str) -> bool {
    arg.contains('/') || arg.contains('\\') || arg.ends_with(".md") || Path::new(arg).is_file()
}

/// What `--agent` resolves to.
enum Target {
    /// An agent file.
    Agent(PathBuf),
    /// A skill's `SKILL.md`: Waza evaluates a skill that matches the name and ignores an agent
    /// of the same name, and injects no tool policy for a skill.
    Skill(PathBuf),
}

/// The target: the path given, or the one skill or agent of that name found by a repository
/// scan, resolved as the scan resolves an eval's target (`crate::target_names`: skills before
/// agents, `.agent.md` before other agent files, exact names, copies counted once); an
/// ambiguous name is an error that lists the candidates, as the scan's
/// `eval-target-ambiguous` does.
fn resolve(agent: &str, repo: &Path) -> Result<Target, Error> {
    use crate::target_names::{Resolution, TargetNames};
    if looks_like_path(agent) {
        return Ok(Target::Agent(PathBuf::from(agent)));
    }
    let result = scan::scan(Mode::Repo, repo, &ScanOptions::default())?;
    let names = TargetNames::new(&result.artifacts, &result.agents);
    let home = result
        .artifacts
        .iter()
        .chain(&result.agents)
        .find_map(|a| a.repo.as_deref());
    match names.resolve(home, agent, None, "") {
        Resolution::Found(a) if a.kind == ArtifactKind::Skill => {
            let entry = if a.path.is_empty() {
                a.entry.clone()
            } else {
                format!("{}/{}", a.path, a.entry)
            };
            Ok(Target::Skill(repo.join(entry)))
        }
        Resolution::Found(a) => Ok(Target::Agent(repo.join(&a.path))),
        Resolution::Ambiguous(v) => Err(EvalsError::Ambiguous {
            name: sanitize_line(agent).into_owned(),
            paths: sanitize_line(&Resolution::listing(&v)).into_owned(),
        }
        .into()),
        Resolution::IgnoredByWaza(v) => Err(EvalsError::IgnoredByWaza {
            name: sanitize_line(agent).into_owned(),
            paths: sanitize_line(&Resolution::listing(&v)).into_owned(),
        }
        .into()),
        Resolution::Missing { near } => Err(EvalsError::NoAgent {
            name: sanitize_line(agent).into_owned(),
            repo: repo.display().to_string(),
            hint: near.map_or(String::new(), |a| {
                format!(
                    "; names match exactly: did you mean `{}` ({})?",
                    sanitize_line(&a.name).into_owned(),
                    sanitize_line(&a.path)
                )
            }),
        }
        .into()),
    }
}

fn load_constraint(path: &Path) -> Result<Option<Constraint>, EvalsError> {
    let shown = path.display().to_string();
    let bytes = read_bounded(path, MAX_AGENT_BYTES).map_err(|reason| EvalsError::EvalInvalid {
        path: shown.clone(),
        reason,
    })?;
    constraint_of_eval(&shown, &String::from_utf8_lossy(&bytes)).map_err(|reason| {
        EvalsError::EvalInvalid {
            path: shown,
            reason,
        }
    })
}

fn load_policy(path: &Path) -> Result<Policy, EvalsError> {
    let shown = path.display().to_string();
    let bytes =
        read_bounded(path, MAX_AGENT_BYTES).map_err(|reason| EvalsError::AgentUnreadable {
            path: shown.clone(),
            reason,
        })?;
    let text = String::from_utf8(bytes).map_err(|_| EvalsError::AgentUnreadable {
        path: shown.clone(),
        reason: "not UTF-8".into(),
    })?;
    policy_of(&text).map_err(|source| EvalsError::AgentMalformed {
        path: shown,
        source,
    })
}

#[derive(Debug, Serialize)]
struct Violation {
    file: String,
    /// 1-based call number in the transcript.
    call: usize,
    /// Where the call is in the JSON document.
    at: String,
    /// 1-based line and column (characters) of the tool-name string's opening quote.
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<usize>,
    tool: String,
    reason: &'static str,
    message: String,
}

#[derive(Debug, Serialize)]
struct TranscriptSummary {
    file: String,
    calls: usize,
    violations: usize,
}

#[derive(Debug, Serialize)]
struct Report {
    agent: String,
    /// `implicit` (the agent's `tools:`) or `explicit` (the eval's `tool_constraint`).
    grader: &'static str,
    /// `unrestricted`, `deny-all` or `allow-only`.
    policy: &'static str,
    /// The declared tools (`null` when `tools` is omitted).
    tools: Option<Vec<String>>,
    /// The eval's `reject_tools`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    reject_tools: Vec<String>,
    transcripts: Vec<TranscriptSummary>,
    violations: Vec<Violation>,
}

pub(super) fn run_tools(cmd: &ToolsCmd, stdout: &mut dyn Write) -> Result<ExitStatus, Error> {
    let (path, implicit) = match resolve(&cmd.agent, &cmd.repo)? {
        Target::Agent(p) => {
            let policy = load_policy(&p)?;
            (p, policy)
        }
        Target::Skill(p) => (p, Policy::Unrestricted),
    };
    let explicit = match &cmd.eval {
        Some(e) => load_constraint(e)?,
        None => None,
    };
    let grader = if explicit.is_some() {
        "explicit"
    } else {
        "implicit"
    };
    let policy = explicit.unwrap_or_else(|| Constraint::implicit(implicit));
    let mut report = Report {
        agent: path.display().to_string(),
        grader,
        policy: match &policy.allow {
            Policy::Unrestricted => "unrestricted",
            Policy::AllowOnly(l) if l.is_empty() => "deny-all",
            Policy::AllowOnly(_) => "allow-only",
        },
        tools: match &policy.allow {
            Policy::Unrestricted => None,
            Policy::AllowOnly(l) => Some(l.clone()),
        },
        reject_tools: policy.reject.clone(),
        transcripts: Vec::new(),
        violations: Vec::new(),
    };
    for t in &cmd.transcripts {
        let shown = t.display().to_string();
        let bytes = read_bounded(t, tool_calls::MAX_BYTES).map_err(|reason| {
            EvalsError::TranscriptUnreadable {
                path: shown.clone(),
                reason,
            }
        })?;
        let calls = tool_calls::parse(&bytes).map_err(|reason| EvalsError::TranscriptInvalid {
            path: shown.clone(),
            reason,
        })?;
        let before = report.violations.len();
        for c in &calls {
            if let Err(d) = policy.check(&c.name) {
                report.violations.push(Violation {
                    file: shown.clone(),
                    call: c.index,
                    at: c.at.clone(),
                    line: c.pos.map(|p| p.0),
                    column: c.pos.map(|p| p.1),
                    tool: c.name.clone(),
                    reason: d.code(),
                    message: d.to_string(),
                });
            }
        }
        report.transcripts.push(TranscriptSummary {
            file: shown,
            calls: calls.len(),
            violations: report.violations.len() - before,
        });
    }
    match cmd.format {
        EvalsFormat::Json => {
            serde_json::to_writer_pretty(&mut *stdout, &report).map_err(std::io::Error::other)?;
            writeln!(stdout)?;
        }
        EvalsFormat::Console => print_console(&report, stdout)?,
    }
    Ok(if report.violations.is_empty() {
        ExitStatus::Clean
    } else {
        ExitStatus::Findings
    })
}

fn print_console(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let tools = match &r.tools {
        None => "unrestricted (tools omitted)".to_owned(),
        Some(l) if l.is_empty() => "tools: [] (denies all)".to_owned(),
        Some(l) => format!("tools: [{}]", l.join(", ")),
    };
    let tools = if r.reject_tools.is_empty() {
        tools
    } else {
        format!("{tools}; reject_tools: [{}]", r.reject_tools.join(", "))
    };
    writeln!(
        out,
        "agent {}: {}",
        sanitize_line(&r.agent),
        sanitize_line(&tools)
    )?;
    for v in &r.violations {
        let place = match (v.line, v.column) {
            (Some(l), Some(c)) => format!(":{l}:{c}"),
            _ => String::new(),
        };
        writeln!(
            out,
            "{}{place}: call {} ({}) `{}`: {}",
            sanitize_line(&v.file),
            v.call,
            sanitize_line(&v.at),
            sanitize_line(&v.tool),
            sanitize_line(&v.message)
        )?;
    }
    let calls: usize = r.transcripts.iter().map(|t| t.calls).sum();
    writeln!(
        out,
        "{} call(s) outside the policy, of {} call(s) in {} transcript(s)",
        r.violations.len(),
        calls,
        r.transcripts.len()
    )
}
