//! Helpers shared by integration tests. Each test crate uses only part of
//! them.
#![allow(dead_code)]

pub mod skills_ref_table;

/// Writes `root/rel/SKILL.md` with `name`, a description and `body`.
pub fn write_skill(root: &std::path::Path, rel: &str, name: &str, body: &str) {
    let d = root.join(rel);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: The {name} skill of a test.\n---\n{body}\n"),
    )
    .unwrap();
}
