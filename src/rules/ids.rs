//! Rule ids as constants, so a typo is a compile error. `ALL` lists every id;
//! `tests/catalog.rs` checks it against the catalog in `rules/`.
//!
//! The model layer: it imports nothing. The security engine's code rules keep their
//! ids in their own modules (`security::rule_ids`); `scan::rule_ids` joins both.

pub const ALLOWED_TOOLS_EXPERIMENTAL: &str = "allowed-tools-experimental";
pub const ALLOWED_TOOLS_NONSTANDARD_FORM: &str = "allowed-tools-nonstandard-form";
pub const BODY_TOO_LONG: &str = "body-too-long";
pub const CHANGED_SINCE_LAST_VETTED: &str = "changed-since-last-vetted";
pub const COMPATIBILITY_INVALID: &str = "compatibility-invalid";
pub const COMPATIBILITY_TOO_LONG: &str = "compatibility-too-long";
pub const CONTENT_NOT_INSPECTED: &str = "content-not-inspected";
pub const CROSS_LOCATION_CONTENT_DRIFT: &str = "cross-location-content-drift";
pub const DESCRIPTION_MISSING: &str = "description-missing";
pub const DESCRIPTION_QUALITY: &str = "description-quality";
pub const DESCRIPTION_TOO_LONG: &str = "description-too-long";
pub const FILE_INVALID_UTF8: &str = "file-invalid-utf8";
pub const FILE_REFERENCE_BROKEN: &str = "file-reference-broken";
pub const FILE_REFERENCE_DIRECTORY: &str = "file-reference-directory";
pub const FILE_REFERENCE_ESCAPES_SKILL: &str = "file-reference-escapes-skill";
pub const FILE_TOO_LARGE: &str = "file-too-large";
pub const FRONTMATTER_BOM: &str = "frontmatter-bom";
pub const FRONTMATTER_CRLF: &str = "frontmatter-crlf";
pub const FRONTMATTER_DELIMITER_MALFORMED: &str = "frontmatter-delimiter-malformed";
pub const FRONTMATTER_DOCUMENT_END_MARKER: &str = "frontmatter-document-end-marker";
pub const FRONTMATTER_EXTENSION_KEY: &str = "frontmatter-extension-key";
pub const FRONTMATTER_LEADING_BLANK_LINES: &str = "frontmatter-leading-blank-lines";
pub const FRONTMATTER_MISSING: &str = "frontmatter-missing";
pub const FRONTMATTER_MULTIPLE_DOCUMENTS: &str = "frontmatter-multiple-documents";
pub const FRONTMATTER_UNCLOSED: &str = "frontmatter-unclosed";
pub const FRONTMATTER_UNKNOWN_KEY: &str = "frontmatter-unknown-key";
pub const INTERNAL_ERROR: &str = "internal-error";
pub const LICENSE_MISSING: &str = "license-missing";
pub const LOADER_DIFFERENTIAL: &str = "loader-differential";
pub const MANIFEST_CHANGED_SINCE_BASELINE: &str = "manifest-changed-since-baseline";
pub const MATCHES_PREVIOUSLY_VETTED_COPY: &str = "matches-previously-vetted-copy";
pub const METADATA_NOT_STRING_MAP: &str = "metadata-not-string-map";
pub const METADATA_VERSION_MISSING: &str = "metadata-version-missing";
pub const PINNED_SKILL_MISSING: &str = "pinned-skill-missing";
pub const UNPINNED_SKILL: &str = "unpinned-skill";
pub const NAME_CONSECUTIVE_HYPHENS: &str = "name-consecutive-hyphens";
pub const NAME_DIRECTORY_MISMATCH: &str = "name-directory-mismatch";
pub const NAME_INVALID_CHARS: &str = "name-invalid-chars";
pub const NAME_LEADING_TRAILING_HYPHEN: &str = "name-leading-trailing-hyphen";
pub const NAME_MISSING: &str = "name-missing";
pub const NAME_TOO_LONG: &str = "name-too-long";
pub const PATH_NOT_UTF8: &str = "path-not-utf8";
pub const PATH_OVER_SPECIFIC: &str = "path-over-specific";
pub const PATH_UNREADABLE: &str = "path-unreadable";
pub const PROVENANCE_HASH_MISMATCH: &str = "provenance-hash-mismatch";
pub const REFERENCE_ORPHANED: &str = "reference-orphaned";
/// AgentEval's `ResourceFromUntrustedSource`: documented, never emitted (`never-fires` in its
/// catalog file: no file-based skill has an MCP or custom source).
pub const RESOURCE_FROM_UNTRUSTED_SOURCE: &str = "resource-from-untrusted-source";
pub const SCRIPT_REQUIRES_GOVERNANCE_REVIEW: &str = "script-requires-governance-review";
pub const SKILL_EXCLUDED_BY_HARNESS: &str = "skill-excluded-by-harness";
pub const SKILL_FILENAME_NONCANONICAL: &str = "skill-filename-noncanonical";
pub const SKILL_NAME_COLLISION: &str = "skill-name-collision";
pub const SKILL_NESTED: &str = "skill-nested";
pub const SKILL_OUTSIDE_CONVENTIONS: &str = "skill-outside-conventions";
pub const SKILL_SHADOWED: &str = "skill-shadowed";
pub const SKILLS_LOCK_INVALID: &str = "skills-lock-invalid";
pub const SPECIAL_FILE: &str = "special-file";
pub const SUPPRESSION_EXPIRED: &str = "suppression-expired";
pub const SUPPRESSION_INVALID: &str = "suppression-invalid";
pub const SUPPRESSION_UNUSED: &str = "suppression-unused";
pub const SYMLINK_DANGLING: &str = "symlink-dangling";
pub const SYMLINK_ESCAPES_ROOT: &str = "symlink-escapes-root";
pub const SYMLINKED_SKILL: &str = "symlinked-skill";
pub const TOKEN_BUDGET_EXCEEDED: &str = "token-budget-exceeded";
pub const WALK_LIMIT_REACHED: &str = "walk-limit-reached";
pub const YAML_BUDGET_EXCEEDED: &str = "yaml-budget-exceeded";
pub const YAML_DUPLICATE_KEY: &str = "yaml-duplicate-key";
pub const YAML_NOT_MAPPING: &str = "yaml-not-mapping";
pub const YAML_STRICTYAML_INCOMPATIBLE: &str = "yaml-strictyaml-incompatible";
pub const YAML_SYNTAX_ERROR: &str = "yaml-syntax-error";

/// Every rule id, sorted.
pub const ALL: &[&str] = &[
    ALLOWED_TOOLS_EXPERIMENTAL,
    ALLOWED_TOOLS_NONSTANDARD_FORM,
    BODY_TOO_LONG,
    CHANGED_SINCE_LAST_VETTED,
    COMPATIBILITY_INVALID,
    COMPATIBILITY_TOO_LONG,
    CONTENT_NOT_INSPECTED,
    CROSS_LOCATION_CONTENT_DRIFT,
    DESCRIPTION_MISSING,
    DESCRIPTION_QUALITY,
    DESCRIPTION_TOO_LONG,
    FILE_INVALID_UTF8,
    FILE_REFERENCE_BROKEN,
    FILE_REFERENCE_DIRECTORY,
    FILE_REFERENCE_ESCAPES_SKILL,
    FILE_TOO_LARGE,
    FRONTMATTER_BOM,
    FRONTMATTER_CRLF,
    FRONTMATTER_DELIMITER_MALFORMED,
    FRONTMATTER_DOCUMENT_END_MARKER,
    FRONTMATTER_EXTENSION_KEY,
    FRONTMATTER_LEADING_BLANK_LINES,
    FRONTMATTER_MISSING,
    FRONTMATTER_MULTIPLE_DOCUMENTS,
    FRONTMATTER_UNCLOSED,
    FRONTMATTER_UNKNOWN_KEY,
    INTERNAL_ERROR,
    LICENSE_MISSING,
    LOADER_DIFFERENTIAL,
    MANIFEST_CHANGED_SINCE_BASELINE,
    MATCHES_PREVIOUSLY_VETTED_COPY,
    METADATA_NOT_STRING_MAP,
    METADATA_VERSION_MISSING,
    PINNED_SKILL_MISSING,
    UNPINNED_SKILL,
    NAME_CONSECUTIVE_HYPHENS,
    NAME_DIRECTORY_MISMATCH,
    NAME_INVALID_CHARS,
    NAME_LEADING_TRAILING_HYPHEN,
    NAME_MISSING,
    NAME_TOO_LONG,
    PATH_NOT_UTF8,
    PATH_OVER_SPECIFIC,
    PATH_UNREADABLE,
    PROVENANCE_HASH_MISMATCH,
    REFERENCE_ORPHANED,
    RESOURCE_FROM_UNTRUSTED_SOURCE,
    SCRIPT_REQUIRES_GOVERNANCE_REVIEW,
    SKILL_EXCLUDED_BY_HARNESS,
    SKILL_FILENAME_NONCANONICAL,
    SKILL_NAME_COLLISION,
    SKILL_NESTED,
    SKILL_OUTSIDE_CONVENTIONS,
    SKILL_SHADOWED,
    SKILLS_LOCK_INVALID,
    SPECIAL_FILE,
    SUPPRESSION_EXPIRED,
    SUPPRESSION_INVALID,
    SUPPRESSION_UNUSED,
    SYMLINK_DANGLING,
    SYMLINK_ESCAPES_ROOT,
    SYMLINKED_SKILL,
    TOKEN_BUDGET_EXCEEDED,
    WALK_LIMIT_REACHED,
    YAML_BUDGET_EXCEEDED,
    YAML_DUPLICATE_KEY,
    YAML_NOT_MAPPING,
    YAML_STRICTYAML_INCOMPATIBLE,
    YAML_SYNTAX_ERROR,
];

/// The last part of a `content-not-inspected` finding's fingerprint anchor: this prefix and
/// the cause (`archive`, `format`, `size`, `unreadable`, `parse`), which says which finding
/// of an older rule reports the same cause and is attached to it as a consequence.
pub const UNINSPECTED_ANCHOR: &str = "uninspected-";
