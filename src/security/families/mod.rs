//! The families: each reads the evidence model ([`super::model`]) of a skill and emits its
//! findings, with the severity decided at emission ([`super::severity`]) from the rule's
//! catalogue severity and the context of the hit. A family may import the model, the
//! severity helpers and a family listed before it (no circle: `tests/layering.rs`).

pub mod execution;
pub mod exfiltration;
pub mod flows;
pub mod injection;
pub mod obfuscation;
pub mod packaging;
pub mod patterns;
pub mod permissions;
pub mod secrets;
pub mod unicode;
