//! skillguard: a security and compliance scanner for repositories of AI-agent
//! skills (`SKILL.md` folders) and, progressively, custom agents.
//!
//! The pipeline flows one way, each stage calling only what is below it (the layer
//! list is in `docs/design.md`, "Architecture", and `tests/layering.rs` enforces it; a test
//! checks that this list names every module):
//!
//! - helpers: [`text`], [`hash`], [`linediff`], [`timing`], [`fsutil`], [`disjoint`],
//!   [`dotnet_json`], [`names`]; parsers: [`parse`]; eval files and grading: [`evals`];
//! - model: [`finding`], [`catalog`], [`cache`], [`rules::ids`], [`conventions`],
//!   [`targets`], [`inventory`], [`target_names`] (which skill or agent a name designates),
//!   [`config`];
//! - stages: [`discover`] walks the tree ([`shardplan`] splits it across CI jobs) → [`read`]
//!   reads and hashes each file once → [`rules::parsing`] parses the entry file once into a
//!   [`rules::SkillDoc`] → the checks: compliance ([`rules`]), [`loaders`], [`security`] →
//!   [`skill_hashes`]; [`analyze`] runs one skill through read, parse and checks, [`agents`]
//!   does the same for agent, prompt, instruction and MCP files, [`evalfiles`] checks eval
//!   files, and [`scan`] runs the whole pipeline into a [`result`] ([`result::ScanResult`]);
//! - after the scan: [`policy`] applies the operator's configuration, [`index`] scores it,
//!   [`report`] renders it, [`baseline`] records and checks it, [`merge`] joins the reports
//!   of shards, and [`pipeline`] runs a scan and all of that in order; [`cli`] on top, and
//!   `fuzzing` holds the entry points of the fuzz targets.
#![forbid(unsafe_code)]

pub mod agents;
pub mod analyze;
pub mod baseline;
pub mod cache;
pub mod catalog;
pub mod cli;
pub mod config;
pub mod conventions;
pub mod discover;
pub mod disjoint;
pub mod dotnet_json;
pub mod evalfiles;
pub mod evals;
pub mod finding;
pub mod fsutil;
#[doc(hidden)]
pub mod fuzzing;
pub mod hash;
pub mod index;
pub mod inventory;
pub mod linediff;
pub mod loaders;
pub mod merge;
pub mod names;
pub mod parse;
pub mod pipeline;
pub mod policy;
pub mod read;
pub mod report;
pub mod result;
pub mod rules;
pub mod scan;
pub mod security;
pub mod shardplan;
pub mod skill_hashes;
pub mod target_names;
pub mod targets;
pub mod text;
pub mod timing;
