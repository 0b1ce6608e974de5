//! The one reader of agent-evals case files (`{"cases": [{id, set, prompt, expect, match}]}`)
//! and of Waza graders: `scan`, `coverage` and `evals grade` all call it, so a file that one
//! of them accepts the others accept, and a problem reads the same in all three (a finding at
//! its line and column in a scan, an exit-2 error naming the same line and column in `grade`).

use crate::parse::yaml::{self, Node, NodeKind, ScalarType};
use crate::text::sanitize_line;

use super::grade::{MatchKind, Set};
use super::pattern::{self, Dialect, Pattern};

/// The most cases an evals file may hold.
pub const MAX_CASES: usize = 10_000;
/// The YAML nodes an evals file may hold: [`MAX_CASES`] cases of a dozen nodes each (a map,
/// five keys and their values, an `id`), with room for the wrapper.
pub const CASE_FILE_NODES: usize = MAX_CASES * 16 + 64;
/// The longest case id (a path component).
pub const MAX_ID_LEN: usize = 128;
/// The case counts and samples per case the agent-evals guidance asks for: a set starts from
/// 20–50 real failures, and each case is sampled k = 3–10 times.
pub const MIN_CASES_ADVISED: usize = 20;
pub const K_ADVISED: std::ops::RangeInclusive<u64> = 3..=10;

/// One problem of an eval file: 1-based line and column (0 when it has no place), the message
/// (which says how to fix it) and a stable anchor for its fingerprint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub col: usize,
    pub msg: String,
    pub anchor: String,
}

impl Problem {
    fn at(n: &Node, msg: String, anchor: impl Into<String>) -> Problem {
        Problem {
            line: n.pos.line,
            col: n.pos.col,
            msg,
            anchor: anchor.into(),
        }
    }

    /// `line L, column C: message`, as `evals grade` prints it.
    pub fn render(&self) -> String {
        if self.line == 0 {
            self.msg.clone()
        } else {
            format!("line {}, column {}: {}", self.line, self.col, self.msg)
        }
    }
}

/// Whether `id` may name a folder under the outputs directory: 1 to [`MAX_ID_LEN`] ASCII
/// letters, digits, `.`, `_` and `-`, not starting with `.` (so never `.` or `..`).
pub fn is_safe_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The tree of an eval file's text: a UTF-8 byte-order mark is dropped, a `.json` file must
/// first be strict JSON, then the text is read with the project's YAML reader (JSON is YAML)
/// for positions. `Ok(None)` for an empty document.
pub fn tree(shown: &str, text: &str, json: bool) -> Result<Option<Node>, Problem> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if json && let Err(err) = serde_json::from_str::<serde_json::Value>(text) {
        return Err(Problem {
            line: err.line(),
            col: err.column(),
            msg: format!(
                "`{}` is not valid JSON ({}); no eval runner can read it. Fix the JSON.",
                sanitize_line(shown),
                sanitize_line(&err.to_string())
            ),
            anchor: "json".into(),
        });
    }
    match yaml::parse_within(text, CASE_FILE_NODES) {
        Ok(doc) => Ok(doc.root),
        Err(
            yaml::YamlError::Syntax { message, pos } | yaml::YamlError::Budget { message, pos },
        ) => Err(Problem {
            line: pos.line,
            col: pos.col,
            msg: format!(
                "`{}` is not valid YAML ({}); Waza cannot read it. Fix the syntax.",
                sanitize_line(shown),
                sanitize_line(&message)
            ),
            anchor: "yaml".into(),
        }),
    }
}

/// A validated case, its matcher ready.
#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub set: Set,
    pub expect: String,
    pub kind: MatchKind,
    pub pattern: Option<Pattern>,
}

/// What [`agent_evals`] read: the valid cases, every problem, and the counts of the file.
#[derive(Debug, Default)]
pub struct Parsed {
    pub cases: Vec<Case>,
    pub problems: Vec<Problem>,
    /// Items of `cases` (valid or not).
    pub total: usize,
    pub capability: usize,
    pub regression: usize,
    /// Matchers used (`exact`, `contains`, `regex`), sorted.
    pub matchers: Vec<&'static str>,
}

/// A text field: present, a string (not a number or a boolean), not blank.
fn string<'n>(
    ps: &mut Vec<Problem>,
    m: &'n Node,
    key: &str,
    what: &str,
    anchor: &str,
) -> Option<&'n str> {
    match m.get(key) {
        Some(v) => match &v.kind {
            NodeKind::Scalar {
                ty: ScalarType::Str,
                text,
                ..
            } if !text.trim().is_empty() => Some(text),
            _ => {
                let hint = match &v.kind {
                    NodeKind::Scalar { text, ty, .. }
                        if !matches!(ty, ScalarType::Str | ScalarType::Null) =>
                    {
                        format!(" Quote it: \"{}\".", sanitize_line(text))
                    }
                    _ => " Write it as text.".to_owned(),
                };
                let found = if v.as_str().is_some_and(|s| s.trim().is_empty())
                    && matches!(
                        &v.kind,
                        NodeKind::Scalar {
                            ty: ScalarType::Str,
                            ..
                        }
                    ) {
                    "an empty string".to_owned()
                } else {
                    Node::a_type(v)
                };
                ps.push(Problem::at(
                    v,
                    format!("`{key}` of {what} must be a non-empty string, not {found}.{hint}"),
                    format!("field:{key}:{anchor}"),
                ));
                None
            }
        },
        None => {
            ps.push(Problem::at(
                m,
                format!("{what} has no `{key}`, which the format requires. Add it."),
                format!("missing:{key}:{anchor}"),
            ));
            None
        }
    }
}

/// Reads and validates the `cases` of an agent-evals file: each case a mapping; `id` a unique
/// string that is a safe folder name; `set` `capability` or `regression`; `prompt` and
/// `expect` strings; `match` `exact`, `contains` or `regex`, and a `regex` compiles in
/// `dialect`. Unknown keys are ignored.
pub fn agent_evals(root: &Node, dialect: Dialect) -> Parsed {
    let mut p = Parsed::default();
    let ps = &mut p.problems;
    let items = match root.get("cases").map(|n| (n, &n.kind)) {
        Some((_, NodeKind::Seq { items, .. })) => items,
        Some((n, _)) => {
            ps.push(Problem::at(
                n,
                format!("`cases` must be a list, not {}.", Node::a_type(n)),
                "type:cases",
            ));
            return p;
        }
        None => {
            ps.push(Problem::at(
                root,
                "the file has no `cases` list, which the format requires. Add it.".into(),
                "missing:cases",
            ));
            return p;
        }
    };
    if items.len() > MAX_CASES {
        ps.push(Problem::at(
            &items[MAX_CASES],
            format!(
                "the file holds {} cases, over the {MAX_CASES} that are read. Split it.",
                items.len()
            ),
            "too-many",
        ));
        return p;
    }
    p.total = items.len();
    let mut ids: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut matchers = std::collections::BTreeSet::new();
    for (i, c) in items.iter().enumerate() {
        let what = format!("case {}", i + 1);
        if !matches!(c.kind, NodeKind::Map { .. }) {
            ps.push(Problem::at(
                c,
                format!("{what} must be a mapping of `id`, `set`, `prompt`, `expect` and `match`."),
                format!("case:{i}"),
            ));
            continue;
        }
        let a = i.to_string();
        let id = string(ps, c, "id", &what, &a);
        let mut ok = id.is_some();
        if let Some(id) = id {
            let n = c.get("id").expect("id present");
            if let Some(first) = ids.insert(id, i + 1) {
                ok = false;
                ps.push(Problem::at(
                    n,
                    format!(
                        "case id `{}` is used again (first by case {first}); ids name the output folders, so each must be unique. Rename one.",
                        sanitize_line(id)
                    ),
                    format!("dup:{id}"),
                ));
            } else if !is_safe_id(id) {
                ok = false;
                ps.push(Problem::at(
                    n,
                    format!(
                        "case id `{}` is not a safe folder name, and outputs are read from `<outputs>/<id>/`. Use 1-{MAX_ID_LEN} of `A-Z a-z 0-9 . _ -`, not starting with `.`.",
                        sanitize_line(id)
                    ),
                    format!("unsafe:{i}"),
                ));
            }
        }
        ok &= string(ps, c, "prompt", &what, &a).is_some();
        let expect = string(ps, c, "expect", &what, &a);
        ok &= expect.is_some();
        let set = match string(ps, c, "set", &what, &a) {
            Some("capability") => {
                p.capability += 1;
                Some(Set::Capability)
            }
            Some("regression") => {
                p.regression += 1;
                Some(Set::Regression)
            }
            Some(other) => {
                ps.push(Problem::at(
                    c.get("set").expect("set present"),
                    format!(
                        "`set: {}` is neither `capability` nor `regression`. Use one of the two.",
                        sanitize_line(other)
                    ),
                    format!("set:{i}"),
                ));
                None
            }
            None => None,
        };
        let kind = match string(ps, c, "match", &what, &a) {
            Some("exact") => Some(MatchKind::Exact),
            Some("contains") => Some(MatchKind::Contains),
            Some("regex") => Some(MatchKind::Regex),
            Some(other) => {
                ps.push(Problem::at(
                    c.get("match").expect("match present"),
                    format!(
                        "`match: {}` is not `exact`, `contains` or `regex`. Use one of them.",
                        sanitize_line(other)
                    ),
                    format!("match:{i}"),
                ));
                None
            }
            None => None,
        };
        if let Some(k) = kind {
            matchers.insert(match k {
                MatchKind::Exact => "exact",
                MatchKind::Contains => "contains",
                MatchKind::Regex => "regex",
            });
        }
        let mut compiled = None;
        if let (Some(MatchKind::Regex), Some(e)) = (kind, expect) {
            match pattern::compile(e, dialect) {
                Ok(r) => compiled = Some(r),
                Err(err) => {
                    ok = false;
                    ps.push(Problem::at(
                        c.get("expect").expect("expect present"),
                        format!(
                            "`expect` of {what} is not a regular expression that compiles ({} dialect): {}. Fix the pattern or use `match: contains`.",
                            dialect.as_str(),
                            sanitize_line(&err.to_string())
                        ),
                        format!("regex:{i}"),
                    ));
                }
            }
        }
        if let (true, Some(id), Some(set), Some(kind), Some(expect)) = (ok, id, set, kind, expect) {
            p.cases.push(Case {
                id: id.to_owned(),
                set,
                expect: expect.to_owned(),
                kind,
                pattern: compiled,
            });
        }
    }
    p.matchers = matchers.into_iter().collect();
    p
}

/// Waza's grader types. `text`, `code` and `tool_constraint` are the ones our sources show in
/// use; the rest are the other types Waza's grader reference names.
pub const WAZA_GRADER_TYPES: &[&str] = &[
    "action_sequence",
    "behavior",
    "code",
    "diff",
    "file",
    "human",
    "human_calibration",
    "json_schema",
    "keyword",
    "program",
    "prompt",
    "regex",
    "skill_invocation",
    "text",
    "tool_constraint",
    "trigger",
];

/// A tool name of a `tool_constraint` grader, where it is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolRef {
    pub name: String,
    pub line: usize,
    pub col: usize,
}

/// One Waza grader, as read.
#[derive(Debug, Clone, Default)]
pub struct Grader {
    pub ty: Option<String>,
    pub name: Option<String>,
    /// `config.allow_only` (absent: no upper bound).
    pub allow_only: Option<Vec<ToolRef>>,
    /// `config.reject_tools`.
    pub reject_tools: Vec<ToolRef>,
}

/// The tool list of a `tool_constraint` grader: items `{tool: NAME}` (or a bare `NAME`).
fn tool_list(ps: &mut Vec<Problem>, n: &Node, key: &str, what: &str) -> Vec<ToolRef> {
    let NodeKind::Seq { items, .. } = &n.kind else {
        ps.push(Problem::at(
            n,
            format!(
                "`{key}` of {what} must be a list of `- tool: NAME` items, not {}.",
                Node::a_type(n)
            ),
            format!("{key}-type"),
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, it) in items.iter().enumerate() {
        let v = match &it.kind {
            NodeKind::Map { .. } => it.get("tool"),
            _ => Some(it),
        };
        match v.map(|v| (v, &v.kind)) {
            Some((
                v,
                NodeKind::Scalar {
                    ty: ScalarType::Str,
                    text,
                    ..
                },
            )) if !text.trim().is_empty() => out.push(ToolRef {
                name: text.trim().to_owned(),
                line: v.pos.line,
                col: v.pos.col,
            }),
            _ => ps.push(Problem::at(
                v.unwrap_or(it),
                format!(
                    "item {} of `{key}` of {what} must be `tool: NAME` with a tool name. Write `- tool: fileRead`.",
                    i + 1
                ),
                format!("{key}:{i}"),
            )),
        }
    }
    out
}

/// Reads and validates Waza's `graders`: each a mapping with a known `type`; a `text` grader's
/// `config.regex_match` and `config.regex_not_match` items compile in `dialect` (Waza: RE2); a `tool_constraint` grader's `allow_only`
/// and `reject_tools` are lists of tool names. Whether a tool name exists depends on the
/// agent evaluated, so it is left to the caller.
pub fn waza_graders(root: &Node, dialect: Dialect) -> (Vec<Grader>, Vec<Problem>) {
    let mut ps = Vec::new();
    let mut out = Vec::new();
    let Some(gs) = root.get("graders") else {
        return (out, ps);
    };
    let NodeKind::Seq { items, .. } = &gs.kind else {
        ps.push(Problem::at(
            gs,
            format!("`graders` must be a list, not {}.", Node::a_type(gs)),
            "type:graders",
        ));
        return (out, ps);
    };
    for (i, g) in items.iter().enumerate() {
        let what = format!("grader {}", i + 1);
        if !matches!(g.kind, NodeKind::Map { .. }) {
            ps.push(Problem::at(
                g,
                format!("{what} must be a mapping of `type`, `name` and `config`."),
                format!("grader:{i}"),
            ));
            continue;
        }
        let a = format!("grader{i}");
        let mut gr = Grader {
            ty: string(&mut ps, g, "type", &what, &a).map(str::to_owned),
            name: None,
            ..Default::default()
        };
        if g.get("name").is_some() {
            gr.name = string(&mut ps, g, "name", &what, &a).map(str::to_owned);
        }
        if let Some(ty) = gr.ty.as_deref()
            && !WAZA_GRADER_TYPES.contains(&ty)
        {
            let near = closest(ty, WAZA_GRADER_TYPES.iter().copied());
            ps.push(Problem::at(
                g.get("type").expect("type present"),
                format!(
                    "grader type `{}` of {what} is not a Waza grader type, so Waza refuses the eval.{} Known types: {}.",
                    sanitize_line(ty),
                    near.map(|n| format!(" Did you mean `{n}`?")).unwrap_or_default(),
                    WAZA_GRADER_TYPES.join(", ")
                ),
                format!("grader-type:{i}"),
            ));
        }
        let config = g.get("config");
        if let Some(c) = config
            && !matches!(c.kind, NodeKind::Map { .. })
        {
            ps.push(Problem::at(
                c,
                format!(
                    "`config` of {what} must be a mapping, not {}.",
                    Node::a_type(c)
                ),
                format!("grader-config:{i}"),
            ));
        }
        let config = config.filter(|c| matches!(c.kind, NodeKind::Map { .. }));
        for (key, rm) in ["regex_match", "regex_not_match"]
            .into_iter()
            .filter_map(|k| Some((k, config?.get(k)?)))
        {
            let pats: Vec<&Node> = match &rm.kind {
                NodeKind::Seq { items, .. } => items.iter().collect(),
                _ => vec![rm],
            };
            for (j, pn) in pats.into_iter().enumerate() {
                match (&pn.kind, pn.as_str()) {
                    (NodeKind::Scalar { .. }, Some(src)) => {
                        if let Err(e) = pattern::compile(src, dialect) {
                            ps.push(Problem::at(
                                pn,
                                format!(
                                    "`{key}` pattern `{}` of {what} does not compile ({} dialect): {}. Fix the pattern.",
                                    sanitize_line(src),
                                    dialect.as_str(),
                                    sanitize_line(&e.to_string())
                                ),
                                format!("{key}:{i}:{j}"),
                            ));
                        }
                    }
                    _ => ps.push(Problem::at(
                        pn,
                        format!(
                            "`{key}` of {what} must hold pattern strings, not {}.",
                            Node::a_type(pn)
                        ),
                        format!("{key}-type:{i}:{j}"),
                    )),
                }
            }
        }
        if let Some(c) = config {
            if let Some(n) = c.get("allow_only") {
                gr.allow_only = Some(tool_list(&mut ps, n, "allow_only", &what));
            }
            if let Some(n) = c.get("reject_tools") {
                gr.reject_tools = tool_list(&mut ps, n, "reject_tools", &what);
            }
        }
        out.push(gr);
    }
    (out, ps)
}

/// Waza's `config.trials_per_task` when it is a whole number outside the advised k (a
/// `Problem` whose message is the advisory).
pub fn trials_advisory(root: &Node) -> Option<Problem> {
    let t = root.get("config")?.get("trials_per_task")?;
    let NodeKind::Scalar {
        ty: ScalarType::Int,
        text,
        ..
    } = &t.kind
    else {
        return None;
    };
    let k: u64 = text.trim().parse().ok()?;
    (!K_ADVISED.contains(&k)).then(|| {
        Problem::at(
            t,
            format!(
                "`trials_per_task: {k}` samples each task {k} time(s); agents are not deterministic, and pass@k and pass^k need k = {}-{} samples per case to say anything. Set `trials_per_task` between {} and {}.",
                K_ADVISED.start(),
                K_ADVISED.end(),
                K_ADVISED.start(),
                K_ADVISED.end()
            ),
            "trials",
        )
    })
}

/// The known name closest to `wanted` (case-insensitive edit distance at most a third of its
/// length, and at least 2), for "did you mean".
pub fn closest<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = wanted.to_lowercase();
    let bound = (w.chars().count() / 3).max(2);
    known
        .into_iter()
        .map(|k| (strsim::osa_distance(&w, &k.to_lowercase()), k))
        .filter(|(d, _)| *d <= bound)
        .min()
        .map(|(_, k)| k)
}
