//! The `agent-evals` grading profile: what the agent-evals skill's own runner
//! (`run-evals.ps1`) does, row by row, so that `evals grade` agrees with it on every input.
//! PowerShell's `-eq`, `-like` and `-match` ignore case; `exact` trims both ends; `contains`
//! is a wildcard match (`*`, `?` and `[...]` in `expect` are wildcards); the samples are every
//! `sample-*.txt` of the case's folder, however many; pass@k needs one passing sample, pass^k
//! at least k samples that all pass; only `capability` and `regression` cases gate (in any
//! case), and a missing case folder is a warning. The stricter reading is the `strict` profile
//! ([`super::grade`]). `docs/evals.md` has the table.

use std::io;
use std::path::Path;

use super::grade::{
    CaseResult, GradeError, GradeOptions, MAX_EVALS_BYTES, MAX_SAMPLE_BYTES, MatchKind,
    SampleStatus, Set,
};
use super::pattern::{self, Pattern};

/// The harness's `-K` when none is given.
pub const DEFAULT_K: u32 = 5;

/// At most this many sample files of one case are read.
const MAX_SAMPLE_FILES: usize = 1000;

/// One case as the harness reads it: every field coerced to text.
pub struct HarnessCase {
    pub id: String,
    /// The set as written.
    pub set_name: String,
    pub set: Set,
    pub kind: MatchKind,
    pub expect: String,
    matcher: Matcher,
}

enum Matcher {
    Exact(String),
    /// `*<expect>*` as a case-insensitive wildcard pattern, translated to a regex.
    Like(regex::Regex),
    Regex(Pattern),
}

/// A JSON scalar as PowerShell turns it into a string (`5` → `5`, `true` → `True`); `None`
/// for a missing value, `null`, a list or an object.
fn text_of(v: Option<&serde_json::Value>) -> Option<String> {
    match v? {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(true) => Some("True".into()),
        serde_json::Value::Bool(false) => Some("False".into()),
        _ => None,
    }
}

/// Translates a PowerShell wildcard pattern (`*`, `?`, `[abc]`, `[a-z]`, `` ` `` escaping the
/// next character) into an anchored, case-insensitive regex. An unclosed `[` is an error, as
/// it is for PowerShell.
pub fn wildcard(pattern: &str) -> Result<regex::Regex, String> {
    let mut re = String::from("(?is)\\A");
    let mut chars = pattern.chars();
    let literal = |c: char, re: &mut String| re.push_str(&regex::escape(&c.to_string()));
    while let Some(c) = chars.next() {
        match c {
            '*' => re.push_str(".*"),
            '?' => re.push('.'),
            '`' => match chars.next() {
                Some(n) => literal(n, &mut re),
                None => literal('`', &mut re),
            },
            '[' => {
                let mut class = String::new();
                let mut closed = false;
                for n in chars.by_ref() {
                    if n == ']' {
                        closed = true;
                        break;
                    }
                    class.push(n);
                }
                if !closed {
                    return Err(format!(
                        "the wildcard pattern `{pattern}` has a `[` without its `]`"
                    ));
                }
                re.push('[');
                // Linear in the class (an `expect` is up to 4 MiB of hostile text).
                let members: Vec<char> = class.chars().collect();
                for (i, &n) in members.iter().enumerate() {
                    if n == '-' && i > 0 && i + 1 < members.len() {
                        re.push('-');
                    } else {
                        re.push_str(&regex::escape(&n.to_string()));
                    }
                }
                if class.is_empty() {
                    // `[]` matches nothing.
                    re.push_str("&&[^\\s\\S]");
                }
                re.push(']');
            }
            c => literal(c, &mut re),
        }
    }
    re.push_str("\\z");
    regex::RegexBuilder::new(&re)
        .size_limit(super::grade::REGEX_SIZE_LIMIT)
        .build()
        .map_err(|e| e.to_string())
}

/// Reads the case file as the harness does: a JSON object whose `cases` is a non-empty list.
pub fn load(path: &Path, opts: &GradeOptions) -> Result<Vec<HarnessCase>, GradeError> {
    let shown = path.display().to_string();
    let invalid = |msg: String| GradeError::Invalid {
        path: shown.clone(),
        msg,
    };
    let bytes = super::grade::read_bounded(path, MAX_EVALS_BYTES)?;
    let root: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| invalid(e.to_string()))?;
    let Some(items) = root
        .get("cases")
        .and_then(|c| c.as_array())
        .filter(|c| !c.is_empty())
    else {
        return Err(invalid(
            "the file has no `cases` list with at least one case, which the harness requires"
                .into(),
        ));
    };
    if items.len() > super::cases::MAX_CASES {
        return Err(invalid(format!(
            "the file holds {} cases, over the {} that are read",
            items.len(),
            super::cases::MAX_CASES
        )));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, c) in items.iter().enumerate() {
        let what = format!("case {}", i + 1);
        let id = text_of(c.get("id"))
            .ok_or_else(|| invalid(format!("{what} has no `id` (a string or a number)")))?;
        // The harness joins the id to the outputs folder as it is; a scanner never reads
        // outside the folder it was given.
        if !super::cases::is_safe_id(&id) {
            return Err(invalid(format!(
                "case id `{}` is not a safe folder name, and outputs are read from `<outputs>/<id>/`",
                crate::text::sanitize_line(&id)
            )));
        }
        let set_name = text_of(c.get("set")).unwrap_or_default();
        let set = match set_name.to_lowercase().as_str() {
            "capability" => Set::Capability,
            "regression" => Set::Regression,
            _ => Set::Ungated,
        };
        let expect = text_of(c.get("expect")).unwrap_or_default();
        let kind = match text_of(c.get("match"))
            .unwrap_or_default()
            .to_lowercase()
            .as_str()
        {
            "" | "contains" => MatchKind::Contains,
            "exact" => MatchKind::Exact,
            "regex" => MatchKind::Regex,
            other => {
                return Err(invalid(format!(
                    "`match: {}` of {what} is not `exact`, `contains` or `regex` (the harness stops on it)",
                    crate::text::sanitize_line(other)
                )));
            }
        };
        let matcher = match kind {
            MatchKind::Exact => Matcher::Exact(expect.trim().to_lowercase()),
            MatchKind::Contains => Matcher::Like(
                wildcard(&format!("*{expect}*")).map_err(|e| invalid(format!("{what}: {e}")))?,
            ),
            MatchKind::Regex => Matcher::Regex(
                pattern::compile(&format!("(?i){expect}"), opts.dialect).map_err(|e| {
                    invalid(format!(
                        "`expect` of {what} is not a regular expression that compiles ({} dialect): {e}",
                        opts.dialect.as_str()
                    ))
                })?,
            ),
        };
        out.push(HarnessCase {
            id,
            set_name,
            set,
            kind,
            expect,
            matcher,
        });
    }
    Ok(out)
}

impl HarnessCase {
    fn passes(&self, sample: &str) -> Result<bool, pattern::PatternError> {
        match &self.matcher {
            Matcher::Exact(want) => Ok(sample.trim().to_lowercase() == *want),
            Matcher::Like(re) => Ok(re.is_match(sample)),
            Matcher::Regex(p) => p.is_match(sample),
        }
    }
}

/// The case's samples: every regular, non-hidden file of its folder named like
/// `sample-*.txt` (ignoring case), sorted by name. `None` when the folder is missing.
fn samples(dir: &Path) -> Result<Option<Vec<(String, String)>>, GradeError> {
    let shown = dir.display().to_string();
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_dir() => {}
        _ => return Ok(None),
    }
    let like = wildcard("sample-*.txt").expect("a valid pattern");
    let mut names = Vec::new();
    for e in std::fs::read_dir(dir).map_err(|source| GradeError::Read {
        path: shown.clone(),
        source,
    })? {
        let e = e.map_err(|source| GradeError::Read {
            path: shown.clone(),
            source,
        })?;
        let Some(name) = e.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if name.starts_with('.') || !like.is_match(&name) {
            continue;
        }
        // Folders are not samples; a link is refused below, never followed.
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        names.push(name);
        if names.len() > MAX_SAMPLE_FILES {
            return Err(GradeError::Invalid {
                path: shown,
                msg: format!("more than {MAX_SAMPLE_FILES} sample files"),
            });
        }
    }
    names.sort();
    let mut out = Vec::with_capacity(names.len());
    for name in names {
        let p = dir.join(&name);
        let mut bytes =
            crate::fsutil::read_regular_bounded(&p, MAX_SAMPLE_BYTES).map_err(|source| {
                GradeError::Read {
                    path: p.display().to_string(),
                    source,
                }
            })?;
        super::grade::strip_bom(&mut bytes);
        out.push((name, String::from_utf8_lossy(&bytes).into_owned()));
    }
    Ok(Some(out))
}

/// Grades every case as the harness does; `warn` gets the harness's warnings (a missing
/// case folder).
pub fn grade_cases(
    cases: &[HarnessCase],
    outputs: &Path,
    opts: &GradeOptions,
    warn: &mut dyn FnMut(String),
) -> Result<Vec<CaseResult>, GradeError> {
    if !outputs.is_dir() {
        return Err(GradeError::Read {
            path: outputs.display().to_string(),
            source: io::Error::new(io::ErrorKind::NotFound, "no such outputs folder"),
        });
    }
    let k = opts.k.unwrap_or(DEFAULT_K);
    let mut results = Vec::with_capacity(cases.len());
    for case in cases {
        let dir = outputs.join(&case.id);
        let found = samples(&dir)?;
        if found.is_none() {
            warn(format!(
                "no outputs folder {} for case `{}`: it has no samples (pass@k and pass^k fail)",
                dir.display(),
                crate::text::sanitize_line(&case.id)
            ));
        }
        let found = found.unwrap_or_default();
        let mut statuses = Vec::with_capacity(found.len());
        for (name, text) in &found {
            statuses.push(match case.passes(text) {
                Ok(true) => SampleStatus::Pass,
                Ok(false) => SampleStatus::Fail,
                Err(e) => {
                    return Err(GradeError::Pattern {
                        path: dir.join(name).display().to_string(),
                        id: case.id.clone(),
                        msg: e.to_string(),
                    });
                }
            });
        }
        let n = found.len() as u32;
        let c = statuses
            .iter()
            .filter(|s| **s == SampleStatus::Pass)
            .count() as u32;
        let at = n > 0 && c > 0;
        let hat = n >= k && c == n;
        let canonical = case.set != Set::Ungated && case.set.as_str() == case.set_name;
        results.push(CaseResult {
            id: case.id.clone(),
            set: case.set,
            set_name: (!canonical).then(|| case.set_name.clone()),
            kind: case.kind,
            n,
            c,
            missing: 0,
            k,
            pass_at_k: f64::from(u8::from(at)),
            pass_hat_k: f64::from(u8::from(hat)),
            samples: statuses,
        });
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_are_powershells() {
        let m = |p: &str, t: &str| wildcard(p).unwrap().is_match(t);
        assert!(m("*## *", "Intro\n## Heading\n"));
        assert!(m("*HELLO*", "well, hello there"));
        assert!(m("*a?c*", "xxabcxx"));
        assert!(m("*[gb]rüße*", "Viele GRÜSSE") || m("*[gb]rüße*", "viele grüße"));
        assert!(m("*[0-9]%*", "done: 5%"));
        assert!(!m("*[0-9]%*", "done: x%"));
        assert!(m("*`**", "a*b"));
        assert!(!m("*`**", "ab"));
        assert!(m("sample-*.txt", "SAMPLE-01.TXT"));
        assert!(!m("sample-*.txt", "sample-1.txt.bak"));
        assert!(m("*(x)+*", "f(x)+1"), "regex characters are literal");
        assert!(wildcard("*[ab*").is_err());
    }
}
