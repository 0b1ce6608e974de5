//! The JSON report, version 1, as types: what `report::json` fills and serialises to write a
//! report, and what `skillguard merge` deserialises to read one back, so the format is
//! defined once (`docs/report.schema.json` publishes it). Text is a `Cow`: the writer
//! borrows it from the [`ScanResult`](crate::result::ScanResult), the reader owns it. Ids
//! of a closed vocabulary (rule ids, rule categories, loader profiles) are this binary's own
//! `&'static str`s, looked up as they are read, and a report that names one this binary
//! does not know is refused (a report of another version).
//!
//! Reading follows the schema: properties it does not know are ignored (later reports of
//! version 1 may add some), required ones are required, and a value of the wrong kind is an
//! error that names it. The index objects alone are written and not read
//! ([`Report::index`]). Tests read every report they check back through these types and
//! compare (`tests/common/round_trip.rs`).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::finding::{Confidence, Location, Related, Severity, SeverityCounts};
use crate::inventory::{Artifact, EvalFileInfo, Exposure, LoadStatus};
use crate::result::{Coverage, RepoSummary, RunIdentity, SuppressionKind};

/// Current JSON format version.
pub const JSON_VERSION: u32 = 1;

/// A name of this binary's own vocabulary (a rule id, a rule category, a loader profile id),
/// read back by looking it up ([`rule_id`], [`category`], [`profile`]). An alias, so that
/// serde's derive does not take the `&'static str` for text borrowed from the input (which
/// would tie what is read to a `'static` input).
pub type Id = &'static str;

/// The `tool.name` of every report.
pub const TOOL_NAME: &str = "skillguard";

/// A whole report.
#[derive(Serialize, Deserialize)]
pub struct Report<'a> {
    pub version: u32,
    pub tool: Tool<'a>,
    /// `path`, `repo` or `workspace` ([`crate::discover::Mode::as_str`]).
    pub mode: Cow<'a, str>,
    pub target: Cow<'a, str>,
    /// `scan-workspace --shard K/N`: which shard this report is.
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "shard"
    )]
    pub shard: Option<Shard>,
    /// Which run this report is of ([`RunIdentity`]): the shards of one run share it, and
    /// `skillguard merge` refuses shards of different runs. Absent from a merge of several
    /// runs (`--allow-mixed-runs`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub run: Option<Cow<'a, RunIdentity>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fail_on: Option<Severity>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fail_under_index: Option<f64>,
    pub summary: Summary<'a>,
    /// The scan's Skill Security Index. Written, not read (`None` once read): `crate::index`
    /// computes it from the findings and the inventory, so a reader that needs it computes
    /// it again (merge does). The same holds for each skill's and agent's [`Entry::index`].
    #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub index: Option<crate::index::ScanIndex<'a>>,
    pub coverage: Cow<'a, Coverage>,
    pub repositories: Cow<'a, [RepoSummary]>,
    /// Workspace scans: the findings that involve several repositories (collisions, drift
    /// between copies), counted here and in no repository's totals.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub across_repositories: Option<Across>,
    pub skills: Vec<Entry<'a>>,
    /// Custom agents, prompt and instruction files, MCP and hook configurations.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub agents: Vec<Entry<'a>>,
    /// Eval files and what each evaluates.
    #[serde(skip_serializing_if = "<[EvalFileInfo]>::is_empty", default)]
    pub evals: Cow<'a, [EvalFileInfo]>,
    pub findings: Vec<Finding<'a>>,
    /// Findings a suppression or an acceptance took out of `findings`, with why.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub suppressed: Vec<Suppressed<'a>>,
    /// `hmac-sha256:` and the HMAC of the report's bytes without this property, the last one
    /// of a shard report written with `SKILLGUARD_SHARD_KEY` set
    /// ([`super::signature`]). Never written by serialising: the signer appends it.
    #[serde(skip_serializing, default)]
    pub signature: Option<Cow<'a, str>>,
}

impl Report<'_> {
    /// Is this a skillguard report of the version this binary reads?
    pub fn is_current(&self) -> bool {
        is_current(self.version, &self.tool)
    }
}

/// The two properties that tell what a document is, read alone when a whole report cannot
/// be read: a document of another tool or version is told apart from a broken report.
#[derive(Deserialize)]
pub struct Head<'a> {
    pub version: u32,
    pub tool: Tool<'a>,
}

impl Head<'_> {
    pub fn is_current(&self) -> bool {
        is_current(self.version, &self.tool)
    }
}

fn is_current(version: u32, tool: &Tool<'_>) -> bool {
    version == JSON_VERSION && tool.name == TOOL_NAME
}

#[derive(Serialize, Deserialize)]
pub struct Tool<'a> {
    pub name: Cow<'a, str>,
    pub version: Cow<'a, str>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

#[derive(Serialize, Deserialize)]
pub struct Across {
    pub findings: usize,
    pub counts: SeverityCounts,
}

#[derive(Serialize, Deserialize)]
pub struct Summary<'a> {
    pub findings: usize,
    pub counts: SeverityCounts,
    pub skills: usize,
    pub files: usize,
    #[serde(default)]
    pub bytes: u64,
    #[serde(default)]
    pub hidden_entries_skipped: usize,
    /// Agents, prompts, instructions, MCP and hook configurations found, by kind.
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub artefacts: BTreeMap<Cow<'a, str>, usize>,
    /// Agent files per agent harness profile and verdict (`loaded`, `excluded`, `shadowed`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty", default)]
    pub artefacts_by_harness: BTreeMap<Cow<'a, str>, BTreeMap<LoadStatus, usize>>,
    #[serde(skip_serializing_if = "is_zero", default)]
    pub suppressed: usize,
    /// Findings per rule: the most severe rule first, then the most frequent.
    pub by_rule: Vec<super::summary::RuleCount>,
    /// Findings per category, by name.
    pub by_category: Vec<super::summary::CategoryCount>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A skill or agent file of the inventory: the artifact, its loader verdicts and its index.
#[derive(Serialize, Deserialize)]
pub struct Entry<'a> {
    /// Every property of the artifact but the two below, which it leaves to this entry.
    #[serde(flatten)]
    pub artifact: Cow<'a, Artifact>,
    /// How each harness profile loads it ([`Artifact::loaders`]).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub loaders: Vec<Loader<'a>>,
    /// [`Artifact::format`]: agents, prompts, instructions, MCP and hook files.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub format: Option<Cow<'a, str>>,
    /// Written, not read, as [`Report::index`].
    #[serde(skip_serializing_if = "Option::is_none", skip_deserializing)]
    pub index: Option<&'a crate::index::Index>,
}

/// One cell of the loader matrix ([`crate::inventory::LoaderVerdict`]).
#[derive(Serialize, Deserialize)]
pub struct Loader<'a> {
    #[serde(deserialize_with = "profile")]
    pub profile: Id,
    #[serde(deserialize_with = "load_status")]
    pub status: LoadStatus,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cause: Option<Cow<'a, str>>,
    #[serde(
        skip_serializing_if = "Option::is_none",
        default,
        deserialize_with = "exposure"
    )]
    pub exposes: Option<Cow<'a, Exposure>>,
}

/// A finding ([`crate::finding::Finding`]).
#[derive(Serialize, Deserialize)]
pub struct Finding<'a> {
    #[serde(deserialize_with = "rule_id")]
    pub rule_id: Id,
    /// The rule's AgentEval name, from the catalog.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agenteval_alias: Option<Cow<'a, str>>,
    /// The rule's category, from the catalog (a reader takes it from its own catalog).
    #[serde(default)]
    pub category: Cow<'a, str>,
    #[serde(deserialize_with = "severity")]
    pub severity: Severity,
    #[serde(deserialize_with = "confidence")]
    pub confidence: Confidence,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub confidence_reason: Option<Cow<'a, str>>,
    pub message: Cow<'a, str>,
    pub location: Cow<'a, Location>,
    #[serde(skip_serializing_if = "<[Related]>::is_empty", default)]
    pub related: Cow<'a, [Related]>,
    /// Findings this one causes, attached to it instead of reported on their own.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub consequences: Vec<Consequence<'a>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub skill: Option<Cow<'a, str>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub skill_path: Option<Cow<'a, str>>,
    pub fingerprint: Cow<'a, str>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub properties: Option<Cow<'a, Value>>,
}

/// A finding attached to its cause ([`crate::finding::Consequence`]).
#[derive(Serialize, Deserialize)]
pub struct Consequence<'a> {
    #[serde(deserialize_with = "rule_id")]
    pub rule_id: Id,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agenteval_alias: Option<Cow<'a, str>>,
    #[serde(deserialize_with = "severity")]
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub profile: Option<Cow<'a, str>>,
    pub message: Cow<'a, str>,
    pub location: Cow<'a, Location>,
    pub fingerprint: Cow<'a, str>,
}

/// A finding a suppression or an acceptance took out of the report.
#[derive(Serialize, Deserialize)]
pub struct Suppressed<'a> {
    #[serde(flatten)]
    pub finding: Finding<'a>,
    pub suppression: Suppression<'a>,
}

#[derive(Serialize, Deserialize)]
pub struct Suppression<'a> {
    #[serde(deserialize_with = "suppression_kind")]
    pub kind: SuppressionKind,
    #[serde(default)]
    pub reason: Cow<'a, str>,
}

/// Reads a `T`, or fails with `bad {what} {the value read}`.
fn checked<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
    what: &str,
) -> Result<T, D::Error> {
    let v = Value::deserialize(d)?;
    T::deserialize(&v).map_err(|_| D::Error::custom(format!("bad {what} {}", shown(&v))))
}

/// A value read, as an error quotes it: its JSON, cut after [`SHOWN`] bytes (a report may
/// hold a value of any size where a word is expected).
fn shown(v: &Value) -> String {
    /// Takes the first [`SHOWN`] bytes, then refuses the rest (which stops the writer).
    struct Cut(Vec<u8>);
    impl std::io::Write for Cut {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            let room = SHOWN.saturating_sub(self.0.len());
            if room == 0 {
                return Err(std::io::Error::other("cut"));
            }
            let n = b.len().min(room);
            self.0.extend_from_slice(&b[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut cut = Cut(Vec::new());
    let whole = serde_json::to_writer(&mut cut, v).is_ok();
    let text = String::from_utf8_lossy(&cut.0).into_owned();
    if whole { text } else { format!("{text}…") }
}

/// Bytes of a value quoted in an error ([`shown`]).
const SHOWN: usize = 200;

fn shard<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Shard>, D::Error> {
    checked(d, "`shard`")
}

fn severity<'de, D: Deserializer<'de>>(d: D) -> Result<Severity, D::Error> {
    checked(d, "severity")
}

fn load_status<'de, D: Deserializer<'de>>(d: D) -> Result<LoadStatus, D::Error> {
    checked(d, "loader status")
}

fn exposure<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cow<'static, Exposure>>, D::Error> {
    checked(d, "loader exposure")
}

fn suppression_kind<'de, D: Deserializer<'de>>(d: D) -> Result<SuppressionKind, D::Error> {
    checked(d, "suppression kind")
}

/// A confidence, read as [`Confidence::parse`] reads it.
fn confidence<'de, D: Deserializer<'de>>(d: D) -> Result<Confidence, D::Error> {
    let v = Value::deserialize(d)?;
    v.as_str()
        .and_then(Confidence::parse)
        .ok_or_else(|| D::Error::custom(format!("bad confidence {v}")))
}

/// A rule id of the catalog (its `'static` name).
pub(crate) fn rule_id<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let id = String::deserialize(d)?;
    crate::catalog::get(&id).map(|m| m.id).ok_or_else(|| {
        D::Error::custom(format!(
            "unknown rule `{}` (a report of another version?)",
            crate::text::truncate(&id, SHOWN)
        ))
    })
}

/// A rule category of the catalog (its `'static` name).
pub(crate) fn category<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let name = String::deserialize(d)?;
    crate::catalog::all()
        .iter()
        .map(|m| m.category)
        .find(|c| *c == name)
        .ok_or_else(|| {
            D::Error::custom(format!(
                "unknown rule category `{}` (a report of another version?)",
                crate::text::truncate(&name, SHOWN)
            ))
        })
}

/// A loader profile id of this binary.
fn profile<'de, D: Deserializer<'de>>(d: D) -> Result<&'static str, D::Error> {
    let id = String::deserialize(d)?;
    crate::loaders::profile(&id).map(|p| p.id).ok_or_else(|| {
        D::Error::custom(format!(
            "unknown loader profile `{}`",
            crate::text::truncate(&id, SHOWN)
        ))
    })
}
