//! AgentEval's `RawSkillFrontmatterReader` (docs/migrating-from-agenteval.md): the line scan AgentEval uses only
//! to explain why MAF excluded a skill folder. Deliberately not YAML, and deliberately
//! different from MAF's reader (`crate::loaders::maf`); the differences are listed in docs/migrating-from-agenteval.md.
//!
//! - Lines as `File.ReadAllLines` gives them: one BOM stripped, split at `\r\n`, `\n`, `\r`.
//! - Leading blank lines are tolerated; the first other line must trim to `---`, else every
//!   field is `None`. The block runs to a line trimming to `---`, or to the end (unclosed).
//! - Each line with a colon after its first character: the key is the text before the first
//!   colon, trimmed (so indented keys count); only `name`, `description` and `compatibility`,
//!   case-sensitively. The value is trimmed; a block-scalar header (`|`, `>`, with `+`, `-`,
//!   digits) is skipped; one layer of matching quotes is removed; an empty value is `None`;
//!   the last occurrence wins.

/// The three fields the raw reader keeps.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawFields {
    pub name: Option<String>,
    pub description: Option<String>,
    pub compatibility: Option<String>,
}

fn is_block_header(v: &str) -> bool {
    let mut chars = v.chars();
    matches!(chars.next(), Some('|' | '>'))
        && chars.all(|c| c == '+' || c == '-' || c.is_ascii_digit())
}

fn unquote(v: &str) -> &str {
    let b = v.as_bytes();
    if b.len() >= 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] {
        &v[1..v.len() - 1]
    } else {
        v
    }
}

/// Reads the fields from an entry file's bytes (decoded as UTF-8, invalid sequences replaced).
pub fn read(bytes: &[u8]) -> RawFields {
    let text = String::from_utf8_lossy(bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut lines = text
        .split('\n')
        .flat_map(|l| l.strip_suffix('\r').unwrap_or(l).split('\r'));
    // `split('\n')` leaves one empty last piece after a final line end, as ReadAllLines does not;
    // an empty line changes nothing below.
    let mut out = RawFields::default();
    let Some(first) = lines.by_ref().find(|l| !l.trim().is_empty()) else {
        return out;
    };
    if first.trim() != "---" {
        return out;
    }
    for line in lines {
        if line.trim() == "---" {
            break;
        }
        let Some(colon) = line.find(':') else {
            continue;
        };
        if colon == 0 {
            continue;
        }
        let key = line[..colon].trim();
        let slot = match key {
            "name" => &mut out.name,
            "description" => &mut out.description,
            "compatibility" => &mut out.compatibility,
            _ => continue,
        };
        let value = line[colon + 1..].trim();
        if is_block_header(value) {
            continue;
        }
        let value = unquote(value);
        *slot = (!value.is_empty()).then(|| value.to_owned());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> RawFields {
        read(s.as_bytes())
    }

    // The edge cases where the two readers differ, AgentEval's side.
    #[test]
    fn edge_case_matrix() {
        assert_eq!(r("\u{feff}---\nname: x\n---\n").name.as_deref(), Some("x"));
        assert_eq!(r("---\r\nname: x\r\n---\r\n").name.as_deref(), Some("x"));
        assert_eq!(r("\n---\nname: x\n---\n").name.as_deref(), Some("x"));
        assert_eq!(r("---\nname: x\n").name.as_deref(), Some("x"), "unclosed");
        assert_eq!(r("---\nname: 'x'\n---").name.as_deref(), Some("x"));
        assert_eq!(r("---\nname: \"x\"\n---").name.as_deref(), Some("x"));
        assert_eq!(r("---\nname: 'x\"\n---").name.as_deref(), Some("'x\""));
        assert_eq!(r("---\ndescription: \"\"\n---").description, None);
        assert_eq!(r("---\ndescription: |\n  a\n  b\n---").description, None);
        assert_eq!(r("---\ndescription: >-\n  a\n---").description, None);
        assert_eq!(r("---\nName: x\n---").name, None, "keys are case-sensitive");
        assert_eq!(r("---\nname: a\nname: b\n---").name.as_deref(), Some("b"));
        assert_eq!(
            r("---\nname: a\nmetadata:\n  name: b\n---").name.as_deref(),
            Some("b"),
            "indented keys count"
        );
        let f = r("---\nname:\ndescription: d\n---");
        assert_eq!((f.name, f.description.as_deref()), (None, Some("d")));
        assert_eq!(
            r("---\nname: x # c\n---").name.as_deref(),
            Some("x # c"),
            "comments are kept"
        );
        assert_eq!(r("# t\n---\nname: x\n---"), RawFields::default());
        assert_eq!(r("---\n:x\nname: y\n---").name.as_deref(), Some("y"));
    }
}
