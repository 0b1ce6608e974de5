//! Parsers for the entry file: the byte-exact frontmatter split, the YAML
//! frontmatter tree with spans, and the Markdown body; and for the other texts the scan
//! reads as structures (JSON and JSONC configurations, Codex's TOML configuration, shell,
//! code, tool-call transcripts).

pub mod agenteval_raw;
pub mod code_tree;
pub mod codex_toml;
pub mod frontmatter;
pub mod json;
pub mod json_scan;
pub mod markdown;
pub mod shell;
pub mod tool_calls;
pub mod yaml;
