//! Evaluations of skills and agents.

pub mod tools;
