//! Byte-exact frontmatter splitting.
//!
//! The canonical form is a `---` line at byte 0, YAML, and a closing `---` line.
//! Everything else that real files do — a UTF-8 BOM, blank lines before the
//! opening delimiter, CRLF line endings, `----`, a YAML `...` end marker, no
//! closing delimiter — is recognised, recorded as an [`Anomaly`] and, where a
//! sensible reading exists, recovered from so that later rules still run.

use std::ops::Range;

/// Something non-canonical about the frontmatter block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Anomaly {
    /// A UTF-8 byte-order mark precedes the opening delimiter.
    Bom,
    /// `count` whitespace-only lines precede the opening delimiter.
    LeadingBlankLines { count: usize },
    /// CRLF line endings inside the frontmatter; `line` is the first such line.
    Crlf { line: usize },
    /// A YAML `...` document-end line inside the block at `line`.
    DocumentEndMarker { line: usize },
    /// A `----`-like line that was not accepted as the closing delimiter.
    NearMissCloser { line: usize, text: String },
}

/// Why no frontmatter could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The first non-blank line is not a delimiter at all.
    Missing,
    /// The first line looks like a delimiter but is not exactly `---` (`----`, `--- x`).
    MalformedOpener { line: usize, text: String },
    /// An opening delimiter with no closing `---` line.
    Unclosed {
        open_line: usize,
        doc_end_line: Option<usize>,
        near_miss: Option<(usize, String)>,
    },
}

/// Result of [`split`]. Byte ranges index the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The YAML between the delimiters (excluding both delimiter lines).
    pub yaml: Option<Range<usize>>,
    /// 1-based line number of the first YAML line.
    pub yaml_first_line: usize,
    /// 1-based line of the opening delimiter.
    pub open_line: usize,
    /// 1-based line of the closing delimiter.
    pub close_line: Option<usize>,
    /// Byte offset where the body starts (after the closing delimiter's newline).
    pub body_start: Option<usize>,
    /// 1-based line on which the body starts.
    pub body_first_line: usize,
    pub anomalies: Vec<Anomaly>,
    pub failure: Option<Failure>,
}

/// Iterates lines as (1-based number, start byte, content without EOL, end byte after EOL).
fn lines(text: &str) -> impl Iterator<Item = (usize, usize, &str, usize)> {
    let mut pos = 0usize;
    let mut n = 0usize;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        n += 1;
        let start = pos;
        let rest = &text[start..];
        let (content_end, next) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => (start + i, start + i + 1),
            None => (text.len(), text.len()),
        };
        pos = next;
        Some((n, start, &text[start..content_end], next))
    })
}

fn strip_cr(s: &str) -> &str {
    s.strip_suffix('\r').unwrap_or(s)
}

/// `---` followed only by spaces/tabs (and an optional CR).
fn is_delimiter(line: &str) -> bool {
    let l = strip_cr(line);
    l.strip_prefix("---")
        .is_some_and(|rest| rest.chars().all(|c| c == ' ' || c == '\t'))
}

/// A line that a human would read as a delimiter but that is not one.
fn is_near_miss(line: &str) -> bool {
    let l = strip_cr(line).trim_end();
    !is_delimiter(line)
        && (l.starts_with("----")
            || l.starts_with("--- ")
            || l == "- --"
            || l == "-- -"
            || l == "—")
}

/// Splits `text` (already decoded; a leading U+FEFF is treated as a BOM).
pub fn split(text: &str) -> Split {
    let mut s = Split {
        yaml: None,
        yaml_first_line: 0,
        open_line: 0,
        close_line: None,
        body_start: None,
        body_first_line: 1,
        anomalies: Vec::new(),
        failure: None,
    };
    let bom_len = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    if bom_len > 0 {
        s.anomalies.push(Anomaly::Bom);
    }
    let mut it = lines(text).map(|(n, a, l, b)| {
        // The BOM belongs to line 1; strip it from the content only.
        if n == 1 && bom_len > 0 {
            (n, a, &l[bom_len.min(l.len())..], b)
        } else {
            (n, a, l, b)
        }
    });

    // Opening delimiter, allowing (and recording) leading blank lines.
    let mut blank = 0usize;
    let open = loop {
        match it.next() {
            None => {
                s.failure = Some(Failure::Missing);
                s.body_start = Some(bom_len);
                return s;
            }
            Some((n, _, l, end)) => {
                if strip_cr(l).trim().is_empty() {
                    blank += 1;
                    continue;
                }
                if is_delimiter(l) {
                    break (n, end);
                }
                if is_near_miss(l) {
                    s.failure = Some(Failure::MalformedOpener {
                        line: n,
                        text: strip_cr(l).to_owned(),
                    });
                } else {
                    s.failure = Some(Failure::Missing);
                }
                s.body_start = Some(bom_len);
                return s;
            }
        }
    };
    if blank > 0 {
        s.anomalies
            .push(Anomaly::LeadingBlankLines { count: blank });
    }
    let (open_line, yaml_start) = open;
    s.open_line = open_line;
    s.yaml_first_line = open_line + 1;

    let mut crlf_seen = false;
    let mut doc_end: Option<usize> = None;
    let mut near: Option<(usize, String)> = None;
    if text[..yaml_start].ends_with("\r\n") {
        crlf_seen = true;
        s.anomalies.push(Anomaly::Crlf { line: open_line });
    }
    for (n, start, l, end) in it {
        if is_delimiter(l) {
            if !crlf_seen && l.ends_with('\r') {
                s.anomalies.push(Anomaly::Crlf { line: n });
            }
            s.yaml = Some(yaml_start..start);
            s.close_line = Some(n);
            s.body_start = Some(end);
            s.body_first_line = n + 1;
            if let Some(line) = doc_end {
                s.anomalies.push(Anomaly::DocumentEndMarker { line });
            }
            if let Some((line, text)) = near {
                s.anomalies.push(Anomaly::NearMissCloser { line, text });
            }
            return s;
        }
        if !crlf_seen && l.ends_with('\r') {
            crlf_seen = true;
            s.anomalies.push(Anomaly::Crlf { line: n });
        }
        let t = strip_cr(l).trim_end();
        if t == "..." && doc_end.is_none() {
            doc_end = Some(n);
        } else if near.is_none() && is_near_miss(l) {
            near = Some((n, t.to_owned()));
        }
    }
    s.failure = Some(Failure::Unclosed {
        open_line,
        doc_end_line: doc_end,
        near_miss: near,
    });
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml<'a>(t: &'a str, s: &Split) -> &'a str {
        &t[s.yaml.clone().unwrap()]
    }

    #[test]
    fn canonical() {
        let t = "---\nname: a\n---\nbody\n";
        let s = split(t);
        assert_eq!(yaml(t, &s), "name: a\n");
        assert_eq!(s.yaml_first_line, 2);
        assert_eq!(s.close_line, Some(3));
        assert_eq!(&t[s.body_start.unwrap()..], "body\n");
        assert_eq!(s.body_first_line, 4);
        assert!(s.anomalies.is_empty() && s.failure.is_none());
    }

    #[test]
    fn bom_crlf_blank() {
        let t = "\u{FEFF}\r\n---\r\nname: a\r\n---\r\nb";
        let s = split(t);
        assert_eq!(yaml(t, &s), "name: a\r\n");
        assert!(s.anomalies.contains(&Anomaly::Bom));
        assert!(
            s.anomalies
                .contains(&Anomaly::LeadingBlankLines { count: 1 })
        );
        assert!(s.anomalies.contains(&Anomaly::Crlf { line: 2 }));
        assert_eq!(s.open_line, 2);
    }

    #[test]
    fn malformed_and_unclosed() {
        assert!(matches!(
            split("----\nname: a\n---\n").failure,
            Some(Failure::MalformedOpener { line: 1, .. })
        ));
        assert_eq!(split("# hi\n").failure, Some(Failure::Missing));
        assert_eq!(split("").failure, Some(Failure::Missing));
        let s = split("---\nname: a\n...\n----\n");
        assert_eq!(
            s.failure,
            Some(Failure::Unclosed {
                open_line: 1,
                doc_end_line: Some(3),
                near_miss: Some((4, "----".into()))
            })
        );
    }

    #[test]
    fn trailing_space_delimiters_and_doc_end() {
        let t = "--- \nname: a\n...\n---  \nbody";
        let s = split(t);
        assert_eq!(yaml(t, &s), "name: a\n...\n");
        assert!(
            s.anomalies
                .contains(&Anomaly::DocumentEndMarker { line: 3 })
        );
    }

    #[test]
    fn dashes_inside_values_do_not_close() {
        let t = "---\ndescription: a---b\n---\n";
        let s = split(t);
        assert_eq!(yaml(t, &s), "description: a---b\n");
    }

    #[test]
    fn empty_frontmatter() {
        let t = "---\n---\nbody";
        let s = split(t);
        assert_eq!(yaml(t, &s), "");
    }
}
