//! The context of a hit: live text or an example, a sentence that forbids or cites the act,
//! the paragraph around it, and the short excerpt a finding shows.

use crate::security::model::{RegionKind, Source};
use crate::text::{sanitize_line, truncate};

/// Words that, before a hit in the same sentence, make it a prohibition, a warning
/// or a quotation rather than an instruction: negations ([`NEGATING`]), which count only when
/// they govern the hit ([`crate::security::model::defensive::governs`]: "don't worry, …" and "without asking
/// the user, …" forbid something else), and words that warn or cite ([`CITING`]).
const NEGATING: &[&str] = &[
    "never ",
    "don't ",
    "do not ",
    "must not ",
    "mustn't ",
    "should not ",
    "shouldn't ",
    "cannot ",
    "can't ",
    "won't ",
    "will not ",
    "may not ",
    "not to ",
    "no need to ",
    "without ",
    "instead of ",
    "rather than ",
    "under no circumstances",
    "not allowed",
    "not permitted",
    "forbid",
    "prohibit",
    "refuse",
    "decline",
    "reject",
    "avoid",
    "prevent",
];

/// Words that warn about or cite what follows them in the sentence.
const CITING: &[&str] = &[
    "block",
    "detect",
    "flag ",
    "flags ",
    "warn",
    "beware",
    "watch out",
    "be wary",
    "suspicious",
    "attacker",
    "malicious",
    "injection",
    "phishing",
    "such as",
    "e.g.",
    "for example",
    "for instance",
    "example:",
    "examples:",
    "like \"",
    "like '",
    "the sentence",
    "the phrase",
    "the string",
    "contained",
    "containing",
    " said",
    "saying",
    "reads:",
];

/// Does a word of [`NEGATING`] or [`CITING`] stand in `sentence` (lower case, up to the hit)
/// and, for a negation, govern the hit? A word counts at a word start ("block" is not in
/// "unblock"); a citing word ending in `:` also counts anywhere on the hit's `line`.
fn forbids(sentence: &str, line: &str) -> bool {
    let at_word = |w: &str, i: usize| {
        w.starts_with(' ')
            || !sentence[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric())
    };
    NEGATING.iter().any(|w| {
        sentence.match_indices(w).any(|(i, _)| {
            at_word(w, i) && crate::security::model::defensive::governs(sentence, i + w.len())
        })
    }) || crate::security::model::defensive::denies_content(sentence)
        || CITING.iter().any(|w| {
            sentence.match_indices(w).any(|(i, _)| at_word(w, i))
                || (w.ends_with(':') && line.contains(w))
        })
}

/// Start of the paragraph holding `at` (after the last blank line), at most `max` bytes back.
pub(super) fn paragraph_start(text: &str, at: usize, max: usize) -> usize {
    let floor = at.saturating_sub(max);
    let mut floor = floor;
    while !text.is_char_boundary(floor) {
        floor += 1;
    }
    text[floor..at]
        .rfind("\n\n")
        .map_or(floor, |i| floor + i + 2)
}

/// End of the paragraph holding `at`, at most `max` bytes forward.
pub(super) fn paragraph_end(text: &str, at: usize, max: usize) -> usize {
    let mut ceil = (at + max).min(text.len());
    while !text.is_char_boundary(ceil) {
        ceil -= 1;
    }
    text[at..ceil].find("\n\n").map_or(ceil, |i| at + i)
}

/// Is the hit `start..end` an example or a prohibition: inside quotes, or after a word
/// that forbids, warns or quotes in its sentence? Do backticks quote? For phrases (prompt
/// injection) inline code is a quotation; for commands it is how a skill tells the agent
/// what to run (`` Run `curl … | sh` ``), so only quote marks and forbidding words count.
/// Quotes and sentences may wrap: the paragraph (up to 400 bytes each way) is searched.
/// Returns why, in words fit for a message, or `None` for an instruction.
pub fn example_context(
    text: &str,
    start: usize,
    end: usize,
    backticks_quote: bool,
) -> Option<&'static str> {
    let para_start = paragraph_start(text, start, 400);
    let para_end = paragraph_end(text, end, 400);
    let before = &text[para_start..start];
    let after = &text[end..para_end];
    let quotes: &[(char, char)] = if backticks_quote {
        &[('"', '"'), ('`', '`'), ('“', '”'), ('«', '»')]
    } else {
        &[('"', '"'), ('“', '”'), ('«', '»')]
    };
    // Quoted: an odd number of quote marks before, and one after, in the paragraph.
    for &(open, close) in quotes {
        let n = before.chars().filter(|c| *c == open).count();
        let odd = if open == close {
            n % 2 == 1
        } else {
            n > before.chars().filter(|c| *c == close).count()
        };
        if odd && after.contains(close) {
            return Some("quoted, as an example would be");
        }
    }
    // The sentence so far (back to . ! ? ; or the paragraph start).
    let sentence_start = before.rfind(['.', '!', '?', ';']).map_or(0, |i| i + 1);
    let sentence = before[sentence_start..].to_lowercase().replace('\n', " ");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_lower = before[line_start..].to_lowercase();
    if forbids(&sentence, &line_lower) {
        return Some("under a sentence that forbids, warns about or cites it");
    }
    // Content the agent reads, in a hypothetical ("if a file tells you to …"), or a phrase
    // described as an attack ("… is a classic injection").
    if let Some(why) = crate::security::model::defensive::hypothetical(
        &sentence,
        &text[start..end].to_lowercase(),
        &after.to_lowercase(),
    ) {
        return Some(why);
    }
    (line_lower.trim_start().starts_with("> ") && !in_callout(text, start))
        .then_some("in a block quote")
}

/// Is `at` inside a callout (`> **Note:** …`, `> [!IMPORTANT]`, `> **Warning:** …`): a block
/// quote whose first line names it an admonition. A callout is the document's own voice (where
/// install steps and warnings usually sit), not a quotation of someone else. Looks back over at
/// most 40 quote lines or 4 KiB.
pub fn in_callout(text: &str, at: usize) -> bool {
    const MARKS: &[&str] = &[
        "**note",
        "**important",
        "**warning",
        "**tip",
        "**caution",
        "**info",
        "**requirement",
        "**prerequisite",
        "**before you",
        "[!",
        "note:",
        "important:",
        "warning:",
    ];
    let at = crate::text::floor_boundary(text, at.min(text.len()));
    let mut line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let floor = at.saturating_sub(4096);
    for _ in 0..40 {
        let line = text[line_start..].split('\n').next().unwrap_or("");
        let Some(body) = line.trim_start().strip_prefix('>') else {
            return false;
        };
        let body = body.trim_start().to_ascii_lowercase();
        if MARKS.iter().any(|m| body.starts_with(m)) {
            return true;
        }
        if line_start == 0 || line_start < floor {
            return false;
        }
        let prev_end = line_start - 1;
        let prev_start = text[..prev_end].rfind('\n').map_or(0, |i| i + 1);
        if !text[prev_start..prev_end].trim_start().starts_with('>') {
            return false;
        }
        line_start = prev_start;
    }
    false
}

/// Does text at `offset` act, rather than document? Scripts, data files, runnable
/// code blocks and the entry file's instructions do; reference documents of a skill
/// about security (and changelogs), unlabelled or non-code blocks, and the data and prose of
/// test files (a detector's input) are documentation. Only live text feeds correlation
/// signals.
pub fn is_live(src: &Source<'_>, offset: usize) -> bool {
    if src.quotes_attacks {
        return false;
    }
    match src.region_at(offset).map(|r| r.kind) {
        Some(RegionKind::Code { runnable, .. }) => runnable,
        Some(_) | None => !src.is_test,
    }
}

/// A short, printable excerpt of a hit.
pub fn excerpt(text: &str, start: usize, end: usize) -> String {
    let s = &text[start..end];
    let s = s.split('\n').next().unwrap_or(s);
    sanitize_line(&truncate(s.trim(), 80)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_callout_is_not_a_quotation() {
        let t = "Intro.\n\n> **Note:** before first use,\n> extract `a.zip` and run `a.exe`.\n\n> Someone said: run `b.exe`.\n";
        assert!(in_callout(t, t.find("a.exe").unwrap()));
        assert!(in_callout(t, t.find("before").unwrap()));
        assert!(!in_callout(t, t.find("b.exe").unwrap()));
        assert!(!in_callout(t, t.find("Intro").unwrap()));
        let gh = "> [!IMPORTANT]\n> Download the helper and run it.\n";
        assert!(in_callout(gh, gh.find("run").unwrap()));
        // A long quote is looked back over a bounded number of lines.
        let long = format!("> **Note:**\n{}> x\n", "> line\n".repeat(100));
        assert!(!in_callout(&long, long.len() - 2));
    }
}
