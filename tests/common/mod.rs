//! Helpers shared by integration tests. Each test crate uses only part of
//! them.
#![allow(dead_code)]

pub mod skills_ref_table;
