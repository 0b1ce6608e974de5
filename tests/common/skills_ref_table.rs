//! skills-ref's conformance table (reference §2.6, 102 rows) and the filename
//! rows X01-X03, as data in the table's own notation, with the decoder for
//! that notation. Shared by `tests/conformance_skills_ref.rs` (skillguard's
//! rules against skills-ref) and `tests/loader_skills_ref.rs` (the
//! `skills-ref` loader profile, message for message).

// ---------------------------------------------------------------------------
// The rows.
// ---------------------------------------------------------------------------

/// One conformance case. `files` and `dir` use the table's notation (see
/// [`decode`]); an empty `skills_ref` means `validate()` returned `[]`.
pub struct Row {
    pub id: &'static str,
    /// Short description of the case (ours, for the docs table).
    pub what: &'static str,
    pub dir: &'static str,
    /// (file name, content) pairs; no file at all for D01.
    pub files: &'static [(&'static str, &'static str)],
    /// What `validate()` returns: exact strings, except parse errors, which
    /// the table abbreviates as `Invalid YAML in frontmatter: … «key phrase»`
    /// (lines of the phrase separated by ` / `) and the crash of P18 (`UNCAUGHT
    /// UnicodeDecodeError`).
    pub skills_ref: &'static [&'static str],
}

pub const VALID: &[&str] = &[];

macro_rules! row {
    ($id:literal, $what:literal, $dir:literal, NO_FILE, $res:expr) => {
        Row {
            id: $id,
            what: $what,
            dir: $dir,
            files: &[],
            skills_ref: $res,
        }
    };
    ($id:literal, $what:literal, $dir:literal, $content:literal, $res:expr) => {
        Row {
            id: $id,
            what: $what,
            dir: $dir,
            files: &[("SKILL.md", $content)],
            skills_ref: $res,
        }
    };
}

/// skills-ref conformance table §2.6: 44 valid, 39 invalid-field, 18 parse and
/// 1 directory case, transcribed in the table's own notation.
#[rustfmt::skip]
pub static ROWS: &[Row] = &[
    row!("V01", "minimal valid skill", r#"my-skill"#, r#"---\nname: my-skill\ndescription: A test skill\n---\n# My Skill\n"#, VALID),
    row!("V02", "license and a metadata map", r#"my-skill"#, r#"---\nname: my-skill\ndescription: A test skill\nlicense: MIT\nmetadata:\n  author: Test\n---\nBody\n"#, VALID),
    row!("V03", "space-separated allowed-tools", r#"my-skill"#, r#"---\nname: my-skill\ndescription: A test skill\nallowed-tools: Bash(jq:*) Bash(git:*)\n---\nBody\n"#, VALID),
    row!("V04", "compatibility string", r#"my-skill"#, r#"---\nname: my-skill\ndescription: A test skill\ncompatibility: Requires Python 3.11+\n---\nBody\n"#, VALID),
    row!("V05", "all six keys; metadata version 1.0 unquoted", r#"my-skill"#, r#"---\nname: my-skill\ndescription: A test skill\nlicense: MIT\ncompatibility: Requires Python 3.11+\nallowed-tools: Bash(git:*) Read\nmetadata:\n  author: Test\n  version: 1.0\n---\nBody\n"#, VALID),
    row!("V06", "name of 64 characters", r#"⟨a×64⟩"#, r#"---\nname: ⟨a×64⟩\ndescription: d\n---\n"#, VALID),
    row!("V07", "one-character name", r#"x"#, r#"---\nname: x\ndescription: d\n---\n"#, VALID),
    row!("V08", "digits-only name", r#"123"#, r#"---\nname: 123\ndescription: d\n---\n"#, VALID),
    row!("V09", "name with a digit and a hyphen", r#"v2-skill"#, r#"---\nname: v2-skill\ndescription: d\n---\n"#, VALID),
    row!("V10", "quoted name and description", r#"my-skill"#, r#"---\nname: 'my-skill'\ndescription: "d"\n---\n"#, VALID),
    row!("V11", "spaces around the name", r#"my-skill"#, r#"---\nname:   my-skill   \ndescription: d\n---\n"#, VALID),
    row!("V12", "comment after the name", r#"my-skill"#, r#"---\nname: my-skill # comment\ndescription: d\n---\n"#, VALID),
    row!("V13", "comment line in the frontmatter", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\n# comment\n---\n"#, VALID),
    row!("V14", "folded block description", r#"my-skill"#, r#"---\nname: my-skill\ndescription: >\n  Folded multi\n  line description\n---\n"#, VALID),
    row!("V15", "literal block description", r#"my-skill"#, r#"---\nname: my-skill\ndescription: |\n  line1\n  line2\n---\n"#, VALID),
    row!("V16", "quoted colon in the description", r#"my-skill"#, r#"---\nname: my-skill\ndescription: "Use when: the user asks"\n---\n"#, VALID),
    row!("V17", "escaped single quote", r#"my-skill"#, r#"---\nname: my-skill\ndescription: 'It''s fine'\n---\n"#, VALID),
    row!("V18", "CRLF line endings", r#"my-skill"#, r#"---\r\nname: my-skill\r\ndescription: d\r\n---\r\nBody\r\n"#, VALID),
    row!("V19", "trailing space after the opening ---", r#"my-skill"#, r#"--- \nname: my-skill\ndescription: d\n---\n"#, VALID),
    row!("V20", "YAML ... end marker before the closing ---", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\n...\n---\n"#, VALID),
    row!("V21", "second --- in the body", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\n---\n---\nmore\n"#, VALID),
    row!("V22", "CJK name", r#"技能"#, r#"---\nname: 技能\ndescription: A skill with Chinese name\n---\nBody\n"#, VALID),
    row!("V23", "Cyrillic lowercase name with a hyphen", r#"мой-навык"#, r#"---\nname: мой-навык\ndescription: A skill with Russian name\n---\nBody\n"#, VALID),
    row!("V24", "Cyrillic lowercase name", r#"навык"#, r#"---\nname: навык\ndescription: d\n---\n"#, VALID),
    row!("V25", "decomposed name, precomposed directory", r#"caf\u00E9"#, r#"---\nname: cafe\u0301\ndescription: A test skill\n---\nBody\n"#, VALID),
    row!("V26", "fullwidth name, ASCII directory", r#"my-skill"#, r#"---\nname: ｍｙ-ｓｋｉｌｌ\ndescription: d\n---\n"#, VALID),
    row!("V27", "name with sharp s", r#"ß-skill"#, r#"---\nname: ß-skill\ndescription: d\n---\n"#, VALID),
    row!("V28", "name with an Arabic-Indic digit", r#"٣-skill"#, r#"---\nname: ٣-skill\ndescription: d\n---\n"#, VALID),
    row!("V29", "name with the fi ligature", r#"ﬁle"#, r#"---\nname: ﬁle\ndescription: d\n---\n"#, VALID),
    row!("V30", "description of 1024 characters", r#"my-skill"#, r#"---\nname: my-skill\ndescription: ⟨x×1024⟩\n---\n"#, VALID),
    row!("V31", "description of 1024 emoji", r#"my-skill"#, r#"---\nname: my-skill\ndescription: ⟨😀×1024⟩\n---\n"#, VALID),
    row!("V32", "compatibility of 500 characters", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\ncompatibility: ⟨x×500⟩\n---\n"#, VALID),
    row!("V33", "empty compatibility", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\ncompatibility:\n---\n"#, VALID),
    row!("V34", "numeric license", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nlicense: 123\n---\n"#, VALID),
    row!("V35", "allowed-tools as a block list", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nallowed-tools:\n  - Read\n  - Grep\n---\n"#, VALID),
    row!("V36", "nested metadata mapping", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nmetadata:\n  nested:\n    k: v\n---\n"#, VALID),
    row!("V37", "metadata as a list", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nmetadata:\n  - a\n  - b\n---\n"#, VALID),
    row!("V38", "metadata as a scalar", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nmetadata: x\n---\n"#, VALID),
    row!("V39", "empty metadata", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nmetadata:\n---\n"#, VALID),
    row!("V40", "unquoted number and yes in metadata", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nmetadata:\n  version: 1.0\n  count: 3\n  flag: yes\n---\n"#, VALID),
    row!("V41", "description null", r#"my-skill"#, r#"---\nname: my-skill\ndescription: null\n---\n"#, VALID),
    row!("V42", "description true", r#"my-skill"#, r#"---\nname: my-skill\ndescription: true\n---\n"#, VALID),
    row!("V43", "--- inside the description value", r#"my-skill"#, r#"---\nname: my-skill\ndescription: a---b\n---\n"#, VALID),
    row!("V44", "quoted description with padding spaces", r#"my-skill"#, r#"---\nname: my-skill\ndescription: " padded "\n---\n"#, VALID),
    row!("I01", "CamelCase name", r#"MySkill"#, r#"---\nname: MySkill\ndescription: A test skill\n---\nBody\n"#, &[r#"Skill name 'MySkill' must be lowercase"#]),
    row!("I02", "uppercase name", r#"MY-SKILL"#, r#"---\nname: MY-SKILL\ndescription: d\n---\n"#, &[r#"Skill name 'MY-SKILL' must be lowercase"#]),
    row!("I03", "Cyrillic uppercase name", r#"НАВЫК"#, r#"---\nname: НАВЫК\ndescription: d\n---\n"#, &[r#"Skill name 'НАВЫК' must be lowercase"#]),
    row!("I04", "titlecase digraph name", r#"ǅ"#, r#"---\nname: ǅ\ndescription: d\n---\n"#, &[r#"Skill name 'Dž' must be lowercase"#]),
    row!("I05", "name of 65 characters", r#"⟨a×65⟩"#, r#"---\nname: ⟨a×65⟩\ndescription: d\n---\n"#, &[r#"Skill name '⟨a×65⟩' exceeds 64 character limit (65 chars)"#]),
    row!("I06", "40 fi ligatures (80 characters after NFKC)", r#"⟨ﬁ×40⟩"#, r#"---\nname: ⟨ﬁ×40⟩\ndescription: d\n---\n"#, &[r#"Skill name 'fifififififififififififififififififififififififififififififififififififififififi' exceeds 64 character limit (80 chars)"#]),
    row!("I07", "leading hyphen", r#"-my-skill"#, r#"---\nname: -my-skill\ndescription: A test skill\n---\nBody\n"#, &[r#"Skill name cannot start or end with a hyphen"#]),
    row!("I08", "trailing hyphen", r#"my-skill-"#, r#"---\nname: my-skill-\ndescription: d\n---\n"#, &[r#"Skill name cannot start or end with a hyphen"#]),
    row!("I09", "name is a single hyphen", r#"-"#, r#"---\nname: "-"\ndescription: d\n---\n"#, &[r#"Skill name cannot start or end with a hyphen"#]),
    row!("I10", "consecutive hyphens", r#"my--skill"#, r#"---\nname: my--skill\ndescription: A test skill\n---\nBody\n"#, &[r#"Skill name cannot contain consecutive hyphens"#]),
    row!("I11", "underscore in the name", r#"my_skill"#, r#"---\nname: my_skill\ndescription: A test skill\n---\nBody\n"#, &[r#"Skill name 'my_skill' contains invalid characters. Only letters, digits, and hyphens are allowed."#]),
    row!("I12", "dot in the name", r#"my.skill"#, r#"---\nname: my.skill\ndescription: d\n---\n"#, &[r#"Skill name 'my.skill' contains invalid characters. Only letters, digits, and hyphens are allowed."#]),
    row!("I13", "space in the name", r#"my skill"#, r#"---\nname: my skill\ndescription: d\n---\n"#, &[r#"Skill name 'my skill' contains invalid characters. Only letters, digits, and hyphens are allowed."#]),
    row!("I14", "zero-width space in the name", r#"my-skill"#, r#"---\nname: my-skill\u200B\ndescription: d\n---\n"#, &[r#"Skill name 'my-skill\u200B' contains invalid characters. Only letters, digits, and hyphens are allowed."#, r#"Directory name 'my-skill' must match skill name 'my-skill\u200B'"#]),
    row!("I15", "NUL in the name via a YAML escape", r#"my-skill"#, r#"---\nname: "my-skill\\u0000"\ndescription: d\n---\n"#, &[r#"Skill name 'my-skill\u0000' contains invalid characters. Only letters, digits, and hyphens are allowed."#, r#"Directory name 'my-skill' must match skill name 'my-skill\u0000'"#]),
    row!("I16", "five name errors and an unknown key", r#"other"#, r#"---\nname: My_Skill--\ndescription: d\nfoo: bar\n---\n"#, &[r#"Unexpected fields in frontmatter: foo. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."#, r#"Skill name 'My_Skill--' must be lowercase"#, r#"Skill name cannot start or end with a hyphen"#, r#"Skill name cannot contain consecutive hyphens"#, r#"Skill name 'My_Skill--' contains invalid characters. Only letters, digits, and hyphens are allowed."#, r#"Directory name 'other' must match skill name 'My_Skill--'"#]),
    row!("I17", "name differs from the directory", r#"wrong-name"#, r#"---\nname: correct-name\ndescription: A test skill\n---\nBody\n"#, &[r#"Directory name 'wrong-name' must match skill name 'correct-name'"#]),
    row!("I18", "directory differs only in case", r#"mY-skill"#, r#"---\nname: my-skill\ndescription: d\n---\n"#, &[r#"Directory name 'mY-skill' must match skill name 'my-skill'"#]),
    row!("I19", "Arabic name, ASCII directory", r#"my-skill"#, r#"---\nname: مهارة\ndescription: d\n---\n"#, &[r#"Directory name 'my-skill' must match skill name 'مهارة'"#]),
    row!("I20", "roman numeral name vs directory", r#"Skill-Ⅸ"#, r#"---\nname: skill-ⅸ\ndescription: d\n---\n"#, &[r#"Directory name 'Skill-Ⅸ' must match skill name 'skill-ix'"#]),
    row!("I21", "unknown key", r#"my-skill"#, r#"---\nname: my-skill\ndescription: A test skill\nunknown_field: should not be here\n---\nBody\n"#, &[r#"Unexpected fields in frontmatter: unknown_field. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."#]),
    row!("I22", "extension key and unknown key", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nmodel: opus\nversion: 1.0\n---\n"#, &[r#"Unexpected fields in frontmatter: model, version. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."#]),
    row!("I23", "three Claude Code extension keys", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\ndisable-model-invocation: true\nuser-invocable: false\nargument-hint: "[file]"\n---\n"#, &[r#"Unexpected fields in frontmatter: argument-hint, disable-model-invocation, user-invocable. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."#]),
    row!("I24", "allowed_tools typo", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nallowed_tools: Read\n---\n"#, &[r#"Unexpected fields in frontmatter: allowed_tools. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."#]),
    row!("I25", "capitalised Name key", r#"my-skill"#, r#"---\nName: my-skill\ndescription: d\n---\n"#, &[r#"Unexpected fields in frontmatter: Name. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."#, r#"Missing required field in frontmatter: name"#]),
    row!("I26", "explicit ? key entry", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\n? complex\n: key\n---\n"#, &[r#"Unexpected fields in frontmatter: complex. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed."#]),
    row!("I27", "no name", r#"my-skill"#, r#"---\ndescription: A test skill\n---\nBody\n"#, &[r#"Missing required field in frontmatter: name"#]),
    row!("I28", "no description", r#"my-skill"#, r#"---\nname: my-skill\n---\nBody\n"#, &[r#"Missing required field in frontmatter: description"#]),
    row!("I29", "empty quoted name", r#"my-skill"#, r#"---\nname: ""\ndescription: d\n---\n"#, &[r#"Field 'name' must be a non-empty string"#]),
    row!("I30", "empty description", r#"my-skill"#, r#"---\nname: my-skill\ndescription:\n---\n"#, &[r#"Field 'description' must be a non-empty string"#]),
    row!("I31", "whitespace-only description", r#"my-skill"#, r#"---\nname: my-skill\ndescription: "   "\n---\n"#, &[r#"Field 'description' must be a non-empty string"#]),
    row!("I32", "name is a mapping", r#"my-skill"#, r#"---\nname:\n  a: b\ndescription: d\n---\n"#, &[r#"Field 'name' must be a non-empty string"#]),
    row!("I33", "description is a list", r#"my-skill"#, r#"---\nname: my-skill\ndescription:\n  - a\n  - b\n---\n"#, &[r#"Field 'description' must be a non-empty string"#]),
    row!("I34", "description of 1025 characters", r#"my-skill"#, r#"---\nname: my-skill\ndescription: ⟨x×1025⟩\n---\n"#, &[r#"Description exceeds 1024 character limit (1025 chars)"#]),
    row!("I35", "description of 1025 emoji", r#"my-skill"#, r#"---\nname: my-skill\ndescription: ⟨😀×1025⟩\n---\n"#, &[r#"Description exceeds 1024 character limit (1025 chars)"#]),
    row!("I36", "1024 characters plus a quoted space", r#"my-skill"#, r#"---\nname: my-skill\ndescription: "⟨x×1024⟩ "\n---\n"#, &[r#"Description exceeds 1024 character limit (1025 chars)"#]),
    row!("I37", "block scalar of 1025 characters", r#"my-skill"#, r#"---\nname: my-skill\ndescription: |-\n  ⟨x×1023⟩\n  y\n---\n"#, &[r#"Description exceeds 1024 character limit (1025 chars)"#]),
    row!("I38", "compatibility of 501 characters", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\ncompatibility: ⟨x×501⟩\n---\n"#, &[r#"Compatibility exceeds 500 character limit (501 chars)"#]),
    row!("I39", "compatibility is a list", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\ncompatibility:\n  - a\n---\n"#, &[r#"Field 'compatibility' must be a string"#]),
    row!("P01", "no frontmatter", r#"my-skill"#, r#"# No frontmatter\n"#, &[r#"SKILL.md must start with YAML frontmatter (---)"#]),
    row!("P02", "BOM before ---", r#"my-skill"#, r#"\uFEFF---\nname: my-skill\ndescription: d\n---\n"#, &[r#"SKILL.md must start with YAML frontmatter (---)"#]),
    row!("P03", "blank line before ---", r#"my-skill"#, r#"\n---\nname: my-skill\ndescription: d\n---\n"#, &[r#"SKILL.md must start with YAML frontmatter (---)"#]),
    row!("P04", "no closing ---", r#"my-skill"#, r#"---\nname: my-skill\ndescription: A test skill\n"#, &[r#"SKILL.md frontmatter not properly closed with ---"#]),
    row!("P05", "unclosed flow sequence", r#"my-skill"#, r#"---\nname: [invalid\ndescription: broken\n---\nBody here\n"#, &[r#"Invalid YAML in frontmatter: … «Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)»"#]),
    row!("P06", "frontmatter is a list", r#"my-skill"#, r#"---\n- just\n- a\n- list\n---\nBody\n"#, &[r#"SKILL.md frontmatter must be a YAML mapping"#]),
    row!("P07", "empty frontmatter", r#"my-skill"#, r#"---\n---\nBody\n"#, &[r#"SKILL.md frontmatter must be a YAML mapping"#]),
    row!("P08", "unquoted ': ' in the description", r#"my-skill"#, r#"---\nname: my-skill\ndescription: Use when: the user asks\n---\n"#, &[r#"Invalid YAML in frontmatter: … «mapping values are not allowed here»"#]),
    row!("P09", "duplicate key", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nname: my-skill\n---\n"#, &[r#"Invalid YAML in frontmatter: … «Duplicate key 'name' found»"#]),
    row!("P10", "flow mapping", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nmetadata: {author: x}\n---\n"#, &[r#"Invalid YAML in frontmatter: … «Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)»"#]),
    row!("P11", "flow sequence", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\nallowed-tools: [Read, Grep]\n---\n"#, &[r#"Invalid YAML in frontmatter: … «Found ugly disallowed JSONesque flow mapping (surround with ' and ' to make text appear literally)»"#]),
    row!("P12", "anchor and alias", r#"my-skill"#, r#"---\nname: &a my-skill\ndescription: *a\n---\n"#, &[r#"Invalid YAML in frontmatter: … «Found confusing disallowed anchor token (surround with ' and ' to make text appear literally)»"#]),
    row!("P13", "explicit tag", r#"my-skill"#, r#"---\nname: !!str my-skill\ndescription: d\n---\n"#, &[r#"Invalid YAML in frontmatter: … «Found disallowed tag tokens (do not specify types in markup)»"#]),
    row!("P14", "over-indented key", r#"my-skill"#, r#"---\nname: my-skill\n  description: d\n---\n"#, &[r#"Invalid YAML in frontmatter: … «mapping values are not allowed here»"#]),
    row!("P15", "no space after the colon", r#"my-skill"#, r#"---\nname:my-skill\ndescription: d\n---\n"#, &[r#"Invalid YAML in frontmatter: … «mapping values are not allowed here»"#]),
    row!("P16", "tab indentation", r#"my-skill"#, r#"---\nname: my-skill\ndescription: d\n\tlicense: MIT\n---\n"#, &[r#"Invalid YAML in frontmatter: … «while scanning for the next token / found character '\\t' that cannot start any token»"#]),
    row!("P17", "---- opener", r#"my-skill"#, r#"----\nname: my-skill\ndescription: d\n---\n"#, &[r#"Invalid YAML in frontmatter: … «while parsing a block node / expected the node content, but found '?'»"#]),
    row!("P18", "invalid UTF-8 bytes", r#"my-skill"#, r#"---\nname: my-skill\ndescription: \xFF\xFE bad\n---\n"#, &[r#"UNCAUGHT UnicodeDecodeError"#]),
    row!("D01", "no SKILL.md", r#"my-skill"#, NO_FILE, &[r#"Missing required file: SKILL.md"#]),
];

pub const X_SKILL: &str = r"---\nname: my-skill\ndescription: d\n---\n";

/// The additional rows about the entry file name that concern a scanner
/// (X01-X03). X04/X05 are covered by `x04_x05_scan_refuses_missing_and_non_directories`;
/// X06-X13 concern only skills-ref's `read_properties` / `to_prompt` API.
pub static X_ROWS: &[Row] = &[
    Row {
        id: "X01",
        what: "valid SKILL.md beside a garbage skill.md",
        dir: "my-skill",
        files: &[
            ("SKILL.md", X_SKILL),
            ("skill.md", r"garbage, not a skill\n"),
        ],
        skills_ref: VALID,
    },
    Row {
        id: "X02",
        what: "only a lowercase skill.md",
        dir: "my-skill",
        files: &[("skill.md", X_SKILL)],
        skills_ref: VALID,
    },
    Row {
        id: "X03",
        what: "only Skill.md (case-sensitive file system)",
        dir: "my-skill",
        files: &[("Skill.md", X_SKILL)],
        skills_ref: &["Missing required file: SKILL.md"],
    },
];

// ---------------------------------------------------------------------------
// Notation.
// ---------------------------------------------------------------------------

/// Decodes the table's notation into bytes: `\n` LF, `\r` CR, `\t` TAB, `\\` a
/// literal backslash, `\uXXXX` the character U+XXXX (UTF-8), `\xHH` the raw byte
/// HH, `⟨c×N⟩` the character `c` repeated N times. Everything else is literal.
pub fn decode(notation: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(notation.len());
    let push = |out: &mut Vec<u8>, c: char| {
        let mut buf = [0u8; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    };
    let mut it = notation.chars();
    while let Some(c) = it.next() {
        match c {
            '\\' => match it.next() {
                Some('n') => out.push(b'\n'),
                Some('r') => out.push(b'\r'),
                Some('t') => out.push(b'\t'),
                Some('\\') => out.push(b'\\'),
                Some('u') => {
                    let hex: String = it.by_ref().take(4).collect();
                    let cp = u32::from_str_radix(&hex, 16)
                        .unwrap_or_else(|_| panic!("bad \\u{hex} in {notation:?}"));
                    let ch = char::from_u32(cp).expect("\\u escape is a scalar value");
                    push(&mut out, ch);
                }
                Some('x') => {
                    let hex: String = it.by_ref().take(2).collect();
                    let b = u8::from_str_radix(&hex, 16)
                        .unwrap_or_else(|_| panic!("bad \\x{hex} in {notation:?}"));
                    out.push(b);
                }
                other => panic!("unknown escape \\{other:?} in {notation:?}"),
            },
            '⟨' => {
                let unit = it.next().expect("⟨c×N⟩ has a character");
                assert_eq!(it.next(), Some('×'), "⟨c×N⟩ in {notation:?}");
                let n: String = it.by_ref().take_while(|c| *c != '⟩').collect();
                let n: usize = n.parse().expect("⟨c×N⟩ count");
                for _ in 0..n {
                    push(&mut out, unit);
                }
            }
            c => push(&mut out, c),
        }
    }
    out
}

pub fn decode_str(notation: &str) -> String {
    String::from_utf8(decode(notation)).expect("notation decodes to UTF-8 here")
}
