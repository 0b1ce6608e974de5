//! skillguard: a security and compliance scanner for repositories of AI-agent
//! skills (`SKILL.md` folders) and, progressively, custom agents.
//!
//! Pipeline: [`discover`] plans and walks the tree in parallel, [`analyze`]
//! reads, hashes and parses each skill (in parallel, panics contained), the
//! [`rules`] produce [`finding::Finding`]s whose metadata comes from the
//! compiled-in [`catalog`], [`index`] scores each skill and the scan, and
//! [`report`] renders the [`scan::ScanResult`].
#![forbid(unsafe_code)]

pub mod analyze;
pub mod baseline;
pub mod catalog;
pub mod cli;
pub mod conventions;
pub mod discover;
pub mod finding;
pub mod hash;
pub mod index;
pub mod inventory;
pub mod loaders;
pub mod parse;
pub mod report;
pub mod rules;
pub mod scan;
pub mod security;
pub mod text;
pub mod timing;
