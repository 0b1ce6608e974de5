//! Baselines: what a team vetted, and what changed since.
//!
//! - [`hashes`]: the structural fingerprint, content hash and per-file hashes of a skill.
//! - [`ledger`]: the append-only, hash-chained ledger of scan snapshots.
//! - [`pin`]: pin files (one reviewed state per skill) and their comparison.
//! - [`linediff`]: per-line hashes and `+N −M` counts between two versions of a file.

pub mod hashes;
pub mod ledger;
pub mod linediff;
pub mod pin;
