//! Security family: execution (see `security` module docs).

use super::SecCx;

/// Rule ids this module emits.
pub const RULES: &[&str] = &[];

pub fn check(_scx: &mut SecCx<'_, '_>) {}
