//! Emulation of the reference validator `skills-ref` (in progress).

/// What `skills_ref.validate(dir)` returns for a skill directory.
pub fn validate(dir_name: &str, upper: Option<&[u8]>, lower: Option<&[u8]>) -> Vec<String> {
    let _ = (dir_name, upper, lower);
    Vec::new()
}
