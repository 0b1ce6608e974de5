//! YAML frontmatter → a small span-carrying tree.
//!
//! Built on the event parser of `serde-saphyr` (`granit-parser`, re-exported), so
//! every node keeps its line and column, its style (plain, quoted, block, flow),
//! anchors and tags are visible (strictyaml rejects them), duplicate keys are
//! recorded instead of silently resolved, and alias expansion is bounded.

use std::collections::HashMap;

use serde_saphyr::granit_parser::{Event, Options, Parser, ScalarStyle, Span, StructureStyle};

/// Bounds on what one frontmatter may cost.
pub const MAX_NODES: usize = 10_000;
pub const MAX_DEPTH: usize = 64;
/// Scalar bytes that alias expansion may copy in total.
pub const MAX_ALIAS_BYTES: usize = 1024 * 1024;

/// Position inside the YAML text: 1-based line, 1-based column (code points).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl Pos {
    fn from_span(s: &Span) -> Pos {
        Pos {
            line: s.start.line().max(1),
            col: s.start.col() + 1,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// How a plain scalar resolves under YAML (1.2 core schema, plus YAML 1.1 booleans).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarType {
    Null,
    Bool,
    /// `yes`/`no`/`on`/`off`: a string in YAML 1.2, a boolean for YAML 1.1 parsers (PyYAML).
    Bool11,
    Int,
    Float,
    Str,
}

#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    Scalar {
        text: String,
        style: Style,
        ty: ScalarType,
    },
    Seq {
        items: Vec<Node>,
        flow: bool,
    },
    Map {
        entries: Vec<(Node, Node)>,
        flow: bool,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub pos: Pos,
}

impl Node {
    /// The scalar text, if this is a non-null scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            NodeKind::Scalar { text, ty, .. } if *ty != ScalarType::Null => Some(text),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(
            &self.kind,
            NodeKind::Scalar {
                ty: ScalarType::Null,
                ..
            }
        )
    }

    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Scalar { ty, .. } => match ty {
                ScalarType::Null => "null",
                ScalarType::Bool | ScalarType::Bool11 => "boolean",
                ScalarType::Int => "integer",
                ScalarType::Float => "number",
                ScalarType::Str => "string",
            },
            NodeKind::Seq { .. } => "list",
            NodeKind::Map { .. } => "mapping",
        }
    }

    /// The type with its article, for messages: `a string`, `an integer`.
    pub fn a_type(&self) -> String {
        let t = self.type_name();
        if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
            format!("an {t}")
        } else {
            format!("a {t}")
        }
    }

    /// Looks up a key in a mapping node (last occurrence wins, as most parsers do).
    pub fn get(&self, key: &str) -> Option<&Node> {
        match &self.kind {
            NodeKind::Map { entries, .. } => entries
                .iter()
                .rev()
                .find(|(k, _)| k.as_str() == Some(key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// Converts to JSON for reports. Mapping keys are stringified; order is sorted by serde_json.
    pub fn to_json(&self) -> serde_json::Value {
        match &self.kind {
            NodeKind::Scalar { text, ty, .. } => match ty {
                ScalarType::Null => serde_json::Value::Null,
                ScalarType::Bool => serde_json::Value::Bool(text.eq_ignore_ascii_case("true")),
                ScalarType::Int => text
                    .parse::<i64>()
                    .map(serde_json::Value::from)
                    .unwrap_or_else(|_| serde_json::Value::String(text.clone())),
                ScalarType::Float => text
                    .parse::<f64>()
                    .ok()
                    .and_then(serde_json::Number::from_f64)
                    .map(serde_json::Value::Number)
                    .unwrap_or_else(|| serde_json::Value::String(text.clone())),
                ScalarType::Bool11 | ScalarType::Str => serde_json::Value::String(text.clone()),
            },
            NodeKind::Seq { items, .. } => {
                serde_json::Value::Array(items.iter().map(Node::to_json).collect())
            }
            NodeKind::Map { entries, .. } => {
                let mut m = serde_json::Map::new();
                for (k, v) in entries {
                    let key = match &k.kind {
                        NodeKind::Scalar { text, .. } => text.clone(),
                        _ => k.to_json().to_string(),
                    };
                    m.insert(key, v.to_json());
                }
                serde_json::Value::Object(m)
            }
        }
    }
}

/// A YAML feature that strictyaml (used by `skills-ref`) rejects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictIssue {
    pub what: &'static str,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    pub key: String,
    pub first: Pos,
    pub again: Pos,
}

/// A parsed frontmatter document.
#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    /// `None` for an empty document.
    pub root: Option<Node>,
    pub duplicates: Vec<Duplicate>,
    pub strict_issues: Vec<StrictIssue>,
    /// Start of a second YAML document inside the frontmatter (a `--- …` or
    /// content after `...`): YAML parsers ignore it, line-based loaders do not.
    pub extra_document: Option<Pos>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum YamlError {
    Syntax { message: String, pos: Pos },
    Budget { message: String, pos: Pos },
}

enum Frame {
    Seq {
        items: Vec<Node>,
        flow: bool,
        pos: Pos,
        anchor: usize,
    },
    Map {
        entries: Vec<(Node, Node)>,
        key: Option<Node>,
        seen: HashMap<String, Pos>,
        flow: bool,
        pos: Pos,
        anchor: usize,
    },
}

fn resolve_plain(t: &str) -> ScalarType {
    match t {
        "" | "~" | "null" | "Null" | "NULL" => return ScalarType::Null,
        "true" | "True" | "TRUE" | "false" | "False" | "FALSE" => return ScalarType::Bool,
        "yes" | "Yes" | "YES" | "no" | "No" | "NO" | "on" | "On" | "ON" | "off" | "Off" | "OFF"
        | "y" | "Y" | "n" | "N" => return ScalarType::Bool11,
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" | "-.inf" | "-.Inf" | "-.INF"
        | ".nan" | ".NaN" | ".NAN" => return ScalarType::Float,
        _ => {}
    }
    let b = t.as_bytes();
    let digits = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    let unsigned = match b.first() {
        Some(b'-' | b'+') => &b[1..],
        _ => b,
    };
    if digits(unsigned) {
        return ScalarType::Int;
    }
    if let Some(h) = t.strip_prefix("0x")
        && !h.is_empty()
        && h.bytes().all(|c| c.is_ascii_hexdigit())
    {
        return ScalarType::Int;
    }
    if let Some(o) = t.strip_prefix("0o")
        && !o.is_empty()
        && o.bytes().all(|c| (b'0'..=b'7').contains(&c))
    {
        return ScalarType::Int;
    }
    // [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
    let (mantissa, exp) = match unsigned.iter().position(|c| *c == b'e' || *c == b'E') {
        Some(i) => (&unsigned[..i], Some(&unsigned[i + 1..])),
        None => (unsigned, None),
    };
    let mantissa_ok = match mantissa.iter().position(|c| *c == b'.') {
        Some(i) => {
            let (a, c) = (&mantissa[..i], &mantissa[i + 1..]);
            (digits(a) || a.is_empty())
                && (c.is_empty() || digits(c))
                && !(a.is_empty() && c.is_empty())
        }
        None => digits(mantissa) && exp.is_some(),
    };
    let exp_ok = match exp {
        None => true,
        Some(e) => {
            let e = match e.first() {
                Some(b'-' | b'+') => &e[1..],
                _ => e,
            };
            digits(e)
        }
    };
    if mantissa_ok && exp_ok {
        return ScalarType::Float;
    }
    ScalarType::Str
}

/// (nodes, scalar bytes, depth) of a subtree.
fn node_cost(n: &Node) -> (usize, usize, usize) {
    match &n.kind {
        NodeKind::Scalar { text, .. } => (1, text.len(), 1),
        NodeKind::Seq { items, .. } => items
            .iter()
            .map(node_cost)
            .fold((1, 0, 1), |a, c| (a.0 + c.0, a.1 + c.1, a.2.max(c.2 + 1))),
        NodeKind::Map { entries, .. } => entries
            .iter()
            .flat_map(|(k, v)| [node_cost(k), node_cost(v)])
            .fold((1, 0, 1), |a, c| (a.0 + c.0, a.1 + c.1, a.2.max(c.2 + 1))),
    }
}

/// What makes two scalar keys the same key: the resolved type and value
/// (`1` and `"1"` differ; `~` and `null` are the same).
fn key_identity(n: &Node) -> Option<String> {
    let NodeKind::Scalar { text, ty, .. } = &n.kind else {
        return None;
    };
    Some(match ty {
        ScalarType::Null => "null".to_owned(),
        ScalarType::Bool => format!("bool:{}", text.to_ascii_lowercase()),
        ScalarType::Int => format!(
            "int:{}",
            text.parse::<i64>()
                .map(|i| i.to_string())
                .unwrap_or_else(|_| text.clone())
        ),
        ScalarType::Float => format!("float:{text}"),
        ScalarType::Str | ScalarType::Bool11 => format!("str:{text}"),
    })
}

/// Parses one YAML document. Only the first document is read.
pub fn parse(text: &str) -> Result<Doc, YamlError> {
    parse_within(text, MAX_NODES)
}

/// [`parse`] with a node budget of `max_nodes` (an eval file of 10,000 cases holds about
/// twelve nodes per case; a frontmatter never comes close to [`MAX_NODES`]).
pub fn parse_within(text: &str, max_nodes: usize) -> Result<Doc, YamlError> {
    let mut opts = Options::default();
    opts.set_emit_comments(false);
    let mut parser = Parser::new_from_str_with_options(text, opts);
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: HashMap<usize, Node> = HashMap::new();
    let mut doc = Doc {
        root: None,
        duplicates: Vec::new(),
        strict_issues: Vec::new(),
        extra_document: None,
    };
    let mut nodes = 0usize;
    let mut alias_bytes = 0usize;
    let mut in_doc = false;
    let mut done = false;

    while let Some(ev) = parser.next_event() {
        let (event, span) = ev.map_err(|e| YamlError::Syntax {
            message: e.info(),
            pos: Pos {
                line: e.marker().line().max(1),
                col: e.marker().col() + 1,
            },
        })?;
        let pos = Pos::from_span(&span);
        let completed: Option<(Node, usize)> = match event {
            Event::StreamStart => None,
            Event::StreamEnd => break,
            Event::DocumentStart(..) => {
                if done {
                    doc.extra_document = Some(pos);
                    break;
                }
                in_doc = true;
                None
            }
            Event::DocumentEnd => {
                done = true;
                in_doc = false;
                None
            }
            Event::Alias(id) => {
                doc.strict_issues.push(StrictIssue { what: "alias", pos });
                let target = anchors.get(&id).cloned().ok_or_else(|| YamlError::Syntax {
                    message: "alias refers to an unknown anchor".into(),
                    pos,
                })?;
                let (n, bytes, depth) = node_cost(&target);
                nodes += n;
                alias_bytes += bytes;
                if nodes > max_nodes {
                    return Err(YamlError::Budget {
                        message: format!(
                            "alias expansion exceeds {max_nodes} nodes (a \"billion laughs\" pattern)"
                        ),
                        pos,
                    });
                }
                if alias_bytes > MAX_ALIAS_BYTES {
                    return Err(YamlError::Budget {
                        message: format!(
                            "alias expansion copies more than {MAX_ALIAS_BYTES} bytes of text"
                        ),
                        pos,
                    });
                }
                if stack.len() + depth > MAX_DEPTH {
                    return Err(YamlError::Budget {
                        message: format!("alias expansion nests deeper than {MAX_DEPTH} levels"),
                        pos,
                    });
                }
                Some((target, 0))
            }
            Event::Scalar(value, style, anchor, tag) => {
                if anchor != 0 {
                    doc.strict_issues.push(StrictIssue {
                        what: "anchor",
                        pos,
                    });
                }
                if tag.is_some() {
                    doc.strict_issues.push(StrictIssue { what: "tag", pos });
                }
                nodes += 1;
                let style = match style {
                    ScalarStyle::Plain => Style::Plain,
                    ScalarStyle::SingleQuoted => Style::SingleQuoted,
                    ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                    ScalarStyle::Literal => Style::Literal,
                    ScalarStyle::Folded => Style::Folded,
                    #[allow(unreachable_patterns)]
                    _ => Style::Plain,
                };
                let ty = if style == Style::Plain {
                    resolve_plain(&value)
                } else {
                    ScalarType::Str
                };
                Some((
                    Node {
                        kind: NodeKind::Scalar {
                            text: value.into_owned(),
                            style,
                            ty,
                        },
                        pos,
                    },
                    anchor,
                ))
            }
            Event::SequenceStart(st, anchor, tag) | Event::MappingStart(st, anchor, tag)
                if stack.len() >= MAX_DEPTH =>
            {
                let _ = (st, anchor, tag);
                return Err(YamlError::Budget {
                    message: format!("nesting deeper than {MAX_DEPTH} levels"),
                    pos,
                });
            }
            Event::SequenceStart(st, anchor, tag) => {
                let flow = st == StructureStyle::Flow;
                if flow {
                    doc.strict_issues.push(StrictIssue {
                        what: "flow sequence",
                        pos,
                    });
                }
                if anchor != 0 {
                    doc.strict_issues.push(StrictIssue {
                        what: "anchor",
                        pos,
                    });
                }
                if tag.is_some() {
                    doc.strict_issues.push(StrictIssue { what: "tag", pos });
                }
                nodes += 1;
                stack.push(Frame::Seq {
                    items: Vec::new(),
                    flow,
                    pos,
                    anchor,
                });
                None
            }
            Event::MappingStart(st, anchor, tag) => {
                let flow = st == StructureStyle::Flow;
                if flow {
                    doc.strict_issues.push(StrictIssue {
                        what: "flow mapping",
                        pos,
                    });
                }
                if anchor != 0 {
                    doc.strict_issues.push(StrictIssue {
                        what: "anchor",
                        pos,
                    });
                }
                if tag.is_some() {
                    doc.strict_issues.push(StrictIssue { what: "tag", pos });
                }
                nodes += 1;
                stack.push(Frame::Map {
                    entries: Vec::new(),
                    key: None,
                    seen: HashMap::new(),
                    flow,
                    pos,
                    anchor,
                });
                None
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq {
                    items,
                    flow,
                    pos,
                    anchor,
                }) => Some((
                    Node {
                        kind: NodeKind::Seq { items, flow },
                        pos,
                    },
                    anchor,
                )),
                _ => None,
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map {
                    entries,
                    flow,
                    pos,
                    anchor,
                    ..
                }) => Some((
                    Node {
                        kind: NodeKind::Map { entries, flow },
                        pos,
                    },
                    anchor,
                )),
                _ => None,
            },
            _ => None,
        };
        if nodes > max_nodes {
            return Err(YamlError::Budget {
                message: format!("more than {max_nodes} YAML nodes"),
                pos,
            });
        }
        let Some((node, anchor)) = completed else {
            continue;
        };
        if anchor != 0 {
            // Parsed nodes were already counted; only alias *expansions* add to the budget.
            anchors.insert(anchor, node.clone());
        }
        match stack.last_mut() {
            None => {
                if in_doc || doc.root.is_none() {
                    doc.root = Some(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries, key, seen, ..
            }) => match key.take() {
                None => {
                    if let Some(id) = key_identity(&node) {
                        if let Some(first) = seen.get(&id) {
                            doc.duplicates.push(Duplicate {
                                key: node.as_str().unwrap_or("null").to_owned(),
                                first: *first,
                                again: node.pos,
                            });
                        } else {
                            seen.insert(id, node.pos);
                        }
                    }
                    *key = Some(node);
                }
                Some(k) => entries.push((k, node)),
            },
        }
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_mapping_with_positions() {
        let d = parse("name: my-skill\ndescription: \"d\"\n").unwrap();
        let root = d.root.unwrap();
        let name = root.get("name").unwrap();
        assert_eq!(name.as_str(), Some("my-skill"));
        assert_eq!(name.pos, Pos { line: 1, col: 7 });
        assert_eq!(root.get("description").unwrap().pos.line, 2);
        assert!(d.duplicates.is_empty() && d.strict_issues.is_empty());
    }

    #[test]
    fn duplicates_and_strict_issues() {
        let d = parse("name: a\nname: b\nmeta: {x: 1}\nl: [1]\nt: !!str x\nan: &a v\nal: *a\n")
            .unwrap();
        assert_eq!(d.duplicates.len(), 1);
        assert_eq!(d.duplicates[0].key, "name");
        let whats: Vec<_> = d.strict_issues.iter().map(|s| s.what).collect();
        for w in ["flow mapping", "flow sequence", "tag", "anchor", "alias"] {
            assert!(whats.contains(&w), "{w} missing from {whats:?}");
        }
        assert_eq!(d.root.unwrap().get("name").unwrap().as_str(), Some("b"));
    }

    #[test]
    fn duplicate_keys_compare_resolved_values() {
        assert!(parse("1: a\n\"1\": b\n").unwrap().duplicates.is_empty());
        assert_eq!(parse("~: a\nnull: b\n").unwrap().duplicates.len(), 1);
        assert_eq!(parse("a: 1\n'a': 2\n").unwrap().duplicates.len(), 1);
    }

    #[test]
    fn second_document_is_recorded() {
        let d = parse("name: b\n--- #\nallowed-tools: Bash\n").unwrap();
        assert_eq!(d.extra_document.map(|p| p.line), Some(2));
        assert!(d.root.unwrap().get("allowed-tools").is_none());
        assert!(parse("name: b\n").unwrap().extra_document.is_none());
    }

    #[test]
    fn syntax_error_has_position() {
        let e = parse("name: x\ndescription: Use when: the user asks\n").unwrap_err();
        match e {
            YamlError::Syntax { pos, .. } => assert_eq!(pos.line, 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn billion_laughs_is_bounded() {
        let mut y = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
        let mut prev = 'a';
        for c in ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] {
            y.push_str(&format!(
                "{c}: &{c} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
            ));
            prev = c;
        }
        assert!(matches!(parse(&y), Err(YamlError::Budget { .. })));
    }

    #[test]
    fn alias_byte_and_depth_budgets() {
        let big = "A".repeat(100_000);
        let y = format!("k: &a \"{big}\"\nz: [{}]\n", vec!["*a"; 20].join(", "));
        assert!(matches!(parse(&y), Err(YamlError::Budget { .. })));
        let y = format!("k: &a \"{big}\"\nz: [*a, *a]\n");
        assert!(parse(&y).is_ok());
        // Each anchor nests the previous one: the expanded depth grows past the bound.
        let mut y = String::from("a0: &a0 [[[[[[[[[[x]]]]]]]]]]\n");
        for i in 1..10 {
            y.push_str(&format!("a{i}: &a{i} [[[[[[[[[[*a{}]]]]]]]]]]\n", i - 1));
        }
        assert!(matches!(parse(&y), Err(YamlError::Budget { .. })));
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let y = format!("a: {}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(&y).is_err());
    }

    #[test]
    fn scalar_types() {
        for (t, ty) in [
            ("1.0", ScalarType::Float),
            ("3", ScalarType::Int),
            ("yes", ScalarType::Bool11),
            ("true", ScalarType::Bool),
            ("", ScalarType::Null),
            ("1.2.3", ScalarType::Str),
            ("v1", ScalarType::Str),
            ("1e5", ScalarType::Float),
            (".5", ScalarType::Float),
        ] {
            assert_eq!(resolve_plain(t), ty, "{t}");
        }
    }

    #[test]
    fn empty_document() {
        assert!(parse("").unwrap().root.is_none());
        assert!(parse("# only a comment\n").unwrap().root.is_none());
    }
}
