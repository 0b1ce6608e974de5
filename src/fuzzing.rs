//! Fuzz-target bodies, one function per target, each taking the raw input bytes.
//!
//! The cargo-fuzz crate in `fuzz/` (nightly, libFuzzer) and the stable smoke test
//! `tests/fuzz_smoke.rs` both call these, so a crash found by one reproduces in the
//! other. Every body runs the same entry point the scanner uses on hostile content and
//! asserts the cheap invariants of its output (spans inside the input and on character
//! boundaries, bounds respected, what we write reads back); a violated invariant panics,
//! which libFuzzer reports as a crash. Not part of the stable API.
//!
//! It sits in the `cli` layer (`tests/layering.rs`): it reaches every parser, from the
//! frontmatter split to the ledger and trace readers.

use std::path::{Path, PathBuf};

use crate::baseline::ledger::{
    self, Head, Header, Listing as LedgerListing, Presence, Snapshot, SnapshotFile, Summary,
};
use crate::baseline::{pin, provenance, record};
use crate::finding::Severity;
use crate::parse::{frontmatter, markdown, yaml};
use crate::security::Lang;
use crate::security::families::packaging::archive::{self, Listing};
use crate::security::families::{obfuscation, packaging::pyc};
use crate::security::model::decode::{self, Budget, Content, Encoding};
use crate::security::model::regions;
use crate::skill_hashes::Hasher;

/// A fuzz target: its name (the `fuzz/fuzz_targets/<name>.rs` file) and its body.
pub type Target = (&'static str, fn(&[u8]));

/// Every target, in the order they are documented (`docs/development.md`, "Fuzzing").
pub const TARGETS: &[Target] = &[
    ("frontmatter", frontmatter_split),
    ("yaml", yaml_tree),
    ("markdown", markdown_regions),
    ("decode", decoders),
    ("archive", archive_listing),
    ("pyc", pyc_header),
    ("pin", pin_file),
    ("ledger", ledger_snapshot),
    ("skills_lock", skills_lock),
    ("trace", trace),
    ("json_config", json_config),
    ("toml_config", toml_config),
    ("report", shard_report),
    ("evals", eval_results),
];

/// The input as the scanner sees a text file: UTF-8, invalid bytes replaced.
fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

fn assert_span(t: &str, start: usize, end: usize, what: &str) {
    assert!(
        start <= end && end <= t.len(),
        "{what}: span {start}..{end} outside the input ({} bytes)",
        t.len()
    );
    assert!(
        t.is_char_boundary(start) && t.is_char_boundary(end),
        "{what}: span {start}..{end} splits a character"
    );
}

/// Number of lines as [`crate::text::LineIndex`] counts them (a final line without a newline counts).
fn line_count(t: &str) -> usize {
    memchr::memchr_iter(b'\n', t.as_bytes()).count() + 1
}

/// Number of lines as YAML and CommonMark count them: a lone CR ends a line too.
fn line_count_cr(t: &str) -> usize {
    let b = t.as_bytes();
    let lone_cr = memchr::memchr_iter(b'\r', b)
        .filter(|&i| b.get(i + 1) != Some(&b'\n'))
        .count();
    line_count(t) + lone_cr
}

/// The frontmatter split (`parse::frontmatter::split`).
pub fn frontmatter_split(data: &[u8]) {
    let t = text(data);
    let s = frontmatter::split(&t);
    let lines = line_count(&t);
    match (&s.yaml, &s.failure) {
        (Some(r), None) => {
            assert_span(&t, r.start, r.end, "frontmatter yaml");
            let body = s.body_start.expect("a closed block has a body start");
            assert_span(&t, r.end, body, "frontmatter closing line");
            let close = s.close_line.expect("a closed block has a closing line");
            assert!(s.open_line >= 1 && s.open_line < close && close <= lines);
            assert_eq!(s.yaml_first_line, s.open_line + 1);
            assert_eq!(s.body_first_line, close + 1);
        }
        (None, Some(_)) => {
            assert!(s.close_line.is_none());
            if let Some(b) = s.body_start {
                assert_span(&t, b, t.len(), "frontmatter body");
            }
        }
        (y, f) => panic!("yaml {y:?} and failure {f:?}: exactly one must be set"),
    }
    for a in &s.anomalies {
        let line = match a {
            frontmatter::Anomaly::Crlf { line }
            | frontmatter::Anomaly::DocumentEndMarker { line }
            | frontmatter::Anomaly::NearMissCloser { line, .. } => *line,
            frontmatter::Anomaly::LeadingBlankLines { count } => *count,
            frontmatter::Anomaly::Bom => 1,
        };
        assert!(
            line >= 1 && line <= lines,
            "{a:?} past the last line {lines}"
        );
    }
}

/// Depth and node count of a YAML tree.
fn yaml_cost(n: &yaml::Node) -> (usize, usize) {
    match &n.kind {
        yaml::NodeKind::Scalar { .. } => (1, 1),
        yaml::NodeKind::Seq { items, .. } => items
            .iter()
            .map(yaml_cost)
            .fold((1, 1), |a, c| (a.0.max(c.0 + 1), a.1 + c.1)),
        yaml::NodeKind::Map { entries, .. } => entries
            .iter()
            .flat_map(|(k, v)| [yaml_cost(k), yaml_cost(v)])
            .fold((1, 1), |a, c| (a.0.max(c.0 + 1), a.1 + c.1)),
    }
}

fn yaml_positions(n: &yaml::Node, lines: usize) {
    assert!(
        n.pos.line >= 1 && n.pos.line <= lines && n.pos.col >= 1,
        "yaml node at {:?} outside {lines} lines",
        n.pos
    );
    match &n.kind {
        yaml::NodeKind::Scalar { .. } => {}
        yaml::NodeKind::Seq { items, .. } => items.iter().for_each(|i| yaml_positions(i, lines)),
        yaml::NodeKind::Map { entries, .. } => entries.iter().for_each(|(k, v)| {
            yaml_positions(k, lines);
            yaml_positions(v, lines);
        }),
    }
}

/// The YAML frontmatter tree (`parse::yaml::parse`), fed whole and as the pipeline feeds
/// it (the block the frontmatter split cuts out).
pub fn yaml_tree(data: &[u8]) {
    let t = text(data);
    let mut inputs = vec![&t[..]];
    let s = frontmatter::split(&t);
    if let Some(r) = s.yaml.clone() {
        inputs.push(&t[r]);
    }
    for input in inputs {
        let lines = line_count_cr(input);
        match yaml::parse(input) {
            Ok(doc) => {
                if let Some(root) = &doc.root {
                    let (depth, nodes) = yaml_cost(root);
                    assert!(depth <= yaml::MAX_DEPTH + 1, "yaml depth {depth}");
                    assert!(nodes <= yaml::MAX_NODES + 1, "yaml nodes {nodes}");
                    yaml_positions(root, lines);
                    let _ = root.to_json();
                }
                for d in &doc.duplicates {
                    assert!(d.first.line <= d.again.line && d.again.line <= lines);
                }
                for i in &doc.strict_issues {
                    assert!(i.pos.line >= 1 && i.pos.line <= lines, "{i:?}");
                }
            }
            Err(yaml::YamlError::Syntax { pos, .. } | yaml::YamlError::Budget { pos, .. }) => {
                assert!(
                    pos.line >= 1 && pos.line <= lines + 1,
                    "yaml error at {pos:?}"
                );
            }
        }
    }
}

/// The Markdown body (`parse::markdown::parse`) and the security regions
/// (`security::regions::split`) of an entry file and of another Markdown file.
pub fn markdown_regions(data: &[u8]) {
    let t = text(data);
    let first_line = u32::from(data.first().copied().unwrap_or(1) % 8) + 1;
    let body = markdown::parse(&t, first_line);
    let last = first_line as usize + line_count_cr(&t);
    let ats = body
        .headings
        .iter()
        .map(|h| h.at)
        .chain(body.links.iter().map(|l| l.at))
        .chain(body.code_blocks.iter().map(|c| c.at))
        .chain(body.inline_code.iter().map(|c| c.at));
    for at in ats {
        assert!(
            at.line >= first_line && at.line as usize <= last && at.column >= 1,
            "markdown position {at:?} outside lines {first_line}..{last}"
        );
    }
    for h in &body.headings {
        assert!((1..=6).contains(&h.level));
    }
    for is_entry in [true, false] {
        let regions = regions::split(&t, Lang::Markdown, is_entry);
        let mut at = 0;
        for r in &regions {
            assert_eq!(r.start, at, "regions leave a gap or overlap: {regions:?}");
            assert_span(&t, r.start, r.end, "region");
            assert!(r.end > r.start, "empty region {r:?}");
            at = r.end;
        }
        assert_eq!(at, t.len(), "regions do not reach the end of the text");
        if !is_entry {
            assert!(
                regions
                    .iter()
                    .all(|r| r.kind != regions::RegionKind::Frontmatter),
                "frontmatter region outside the entry file"
            );
        }
    }
}

const ENCODINGS: [Encoding; 7] = [
    Encoding::Base64,
    Encoding::Base64Url,
    Encoding::Hex,
    Encoding::HexEscapes,
    Encoding::CharCodes,
    Encoding::UnicodeEscapes,
    Encoding::Percent,
];

fn check_classify(b: &[u8]) {
    if let Content::Text(s) = decode::classify(b) {
        assert_eq!(s.as_bytes(), b, "classify changed the text");
    }
    let e = decode::entropy(b);
    assert!((0.0..=8.0 + 1e-9).contains(&e), "entropy {e}");
}

/// Every decoder (`security::decode`): the blob finder with its budget, each encoding's
/// decoder on the whole input with a small limit, the single-pass candidate finder against
/// the two separate finders, the classifier, and the nested decoding of the obfuscation
/// family (`security::obfuscation::payloads`).
pub fn decoders(data: &[u8]) {
    let t = text(data);
    let mut budget = Budget::default();
    let before = budget;
    let blobs = decode::blobs(&t, &mut budget);
    let mut end = 0;
    let mut decoded = 0;
    assert!(blobs.len() <= decode::MAX_BLOBS);
    for b in &blobs {
        assert_span(&t, b.start, b.end, "blob");
        assert!(b.start >= end, "blobs overlap");
        end = b.end;
        assert!(!b.bytes.is_empty() && b.bytes.len() <= decode::MAX_BLOB);
        decoded += b.bytes.len();
        check_classify(&b.bytes);
    }
    assert_eq!(before.bytes - budget.bytes, decoded, "budget bytes");
    assert_eq!(before.blobs - budget.blobs, blobs.len(), "budget blobs");
    assert!(decoded <= decode::MAX_FILE);

    // Each decoder on the whole input, with a limit taken from the input.
    let limit = data.first().map_or(0, |b| usize::from(*b) * 4);
    for enc in ENCODINGS {
        if let Some((out, truncated)) = decode::decode(&t, enc, limit) {
            assert!(
                out.len() <= limit,
                "{enc:?} decoded {} > {limit}",
                out.len()
            );
            if !truncated {
                let _ = decode::decode(&t, enc, decode::MAX_BLOB);
            }
        }
    }
    if let Some((out, _)) = decode::base64(&t, decode::MAX_BLOB) {
        assert!(out.len() <= decode::MAX_BLOB);
    }

    // The one-pass candidate finder is the two finders together.
    let b = t.as_bytes();
    let (hex, b64) = decode::blob_candidates(b);
    assert_eq!(hex, decode::hex_blobs(b), "blob_candidates hex");
    assert_eq!(b64, decode::base64_blobs(b), "blob_candidates base64");
    let min = usize::from(data.last().copied().unwrap_or(0) % 64);
    let longest = b
        .split(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'_' | b'-')))
        .map(<[u8]>::len)
        .max()
        .unwrap_or(0);
    assert_eq!(decode::has_base64_run(b, min), longest >= min, "min {min}");

    check_classify(data);

    // Nested decoding, as the obfuscation family runs it.
    let (found, text_blobs) = obfuscation::payloads(&t);
    for (off, p) in &found {
        assert!(*off < t.len());
        assert!(!p.chain.is_empty() && p.chain.len() <= decode::MAX_DEPTH);
    }
    for (s, e) in text_blobs {
        assert_span(&t, s, e, "text blob");
    }
}

fn check_listing(l: &Listing, depth: u8, members: &mut usize) {
    assert_eq!(l.depth, depth);
    assert!(depth <= archive::MAX_DEPTH, "nested {depth} deep");
    *members += l.members.len();
    assert!(
        *members <= archive::MAX_MEMBERS + archive::MAX_NOTABLE,
        "{} members listed",
        *members
    );
    let _ = l.ratio();
    for m in &l.members {
        assert!(
            m.head.len() <= archive::HEAD,
            "head of {} bytes",
            m.head.len()
        );
        if let Some(n) = &m.nested {
            check_listing(n, depth + 1, members);
        }
    }
}

/// Archive listing (`security::archive::list`): zip, tar, gzip and their nesting.
pub fn archive_listing(data: &[u8]) {
    let started = std::time::Instant::now();
    let sniffed = archive::sniff(data);
    let listing = archive::list(data);
    assert_eq!(
        sniffed.is_some(),
        listing.is_some(),
        "sniff and list disagree"
    );
    if let Some(l) = listing {
        assert_eq!(l.packed, data.len() as u64);
        let mut members = 0;
        check_listing(&l, 0, &mut members);
    }
    // The listing's work is bounded by entries and bytes (`archive::MAX_ENTRIES`,
    // `archive::MAX_INFLATE`), not by a clock; this only catches a hang, with room for a slow
    // (instrumented, debug) build.
    let took = started.elapsed();
    assert!(
        took < std::time::Duration::from_secs(5),
        "listing took {took:?} for {} bytes",
        data.len()
    );
}

/// `.pyc` headers (`security::pyc`) and the source path and hash helpers around them.
pub fn pyc_header(data: &[u8]) {
    match pyc::parse_header(data) {
        Ok(h) => {
            assert_eq!(h.magic, u16::from_le_bytes([data[0], data[1]]));
            let need = match h.binding {
                pyc::Binding::Hash { .. } => 16,
                pyc::Binding::Size { .. } if h.magic >= 3390 => 16,
                pyc::Binding::Size { .. } => 12,
                pyc::Binding::MtimeOnly => 8,
            };
            assert!(data.len() >= need, "header read past {} bytes", data.len());
            let _ = h.version();
            let hashes = pyc::source_hashes(h.raw_magic, &data[need..]);
            assert_eq!(hashes.len(), 2);
        }
        Err(pyc::HeaderError::Truncated) => assert!(data.len() < 16),
        Err(_) => {}
    }
    let t = text(data);
    if let Some(p) = pyc::source_path(&t) {
        assert!(p.ends_with(".py"), "{p}");
        // The source sits beside the `.pyc`, or one level up from a `__pycache__` folder
        // (whose parent may itself be called `__pycache__`).
        let pyc_dir = t.rsplit_once('/').map_or("", |(d, _)| d);
        let src_dir = p.rsplit_once('/').map_or("", |(d, _)| d);
        let expect = if pyc_dir == "__pycache__" {
            ""
        } else {
            pyc_dir.strip_suffix("/__pycache__").unwrap_or(pyc_dir)
        };
        assert_eq!(src_dir, expect, "{t:?} -> {p:?}");
    }
}

/// Pin files (`baseline::pin::parse`), ours and AgentEval's: what we write reads back.
pub fn pin_file(data: &[u8]) {
    let Ok(p) = pin::parse("fuzz.json", data) else {
        return;
    };
    assert!(Hasher::new(p.hash_options.clone()).is_ok());
    let bytes = p.to_bytes();
    let again = pin::parse("fuzz.json", &bytes).expect("a written pin file reads back");
    assert_eq!(again, p, "pin file round trip");
    for pin in p.skills.values() {
        let d = pin::compare(pin, pin);
        // A pin recorded without all of its content (files but no content hash) verifies
        // nothing, not even itself: never "unchanged".
        let incomplete = pin.content.is_none() && pin.files.is_some();
        assert!(
            d.structural.is_none()
                && d.content.is_none()
                && d.unverifiable == incomplete
                && d.added.is_empty()
                && d.removed.is_empty()
                && d.modified.is_empty(),
            "a pin differs from itself: {d:?}"
        );
        assert_eq!(d.malformed, pin.structural.is_none());
    }
}

fn snapshot_file() -> SnapshotFile {
    SnapshotFile {
        seq: 1,
        id: "0".repeat(32),
        path: PathBuf::from("00000001-00000000000000000000000000000000.json"),
    }
}

/// Ledger snapshots (`baseline::ledger::parse` with each reader's view), `HEAD.json` and
/// line packs: every view accepts what the full reader accepts, and what we write reads
/// back.
pub fn ledger_snapshot(data: &[u8]) {
    let f = snapshot_file();
    let full = ledger::parse::<Snapshot>(&f, data, false);
    let header = ledger::parse::<Header>(&f, data, false);
    let listing = ledger::parse::<LedgerListing>(&f, data, false);
    let presence = ledger::parse::<Presence>(&f, data, false);
    let summary = ledger::parse::<Summary>(&f, data, false);
    let _ = ledger::parse::<Header>(&f, data, true);
    if let Ok(s) = &full {
        assert!(header.is_ok(), "header view rejects a snapshot: {header:?}");
        assert!(
            listing.is_ok(),
            "listing view rejects a snapshot: {listing:?}"
        );
        assert!(
            presence.is_ok(),
            "presence view rejects a snapshot: {presence:?}"
        );
        assert!(
            summary.is_ok(),
            "summary view rejects a snapshot: {summary:?}"
        );
        let bytes = ledger::to_bytes(s);
        let again = ledger::parse::<Snapshot>(&f, &bytes, false)
            .unwrap_or_else(|e| panic!("a written snapshot does not read back: {e}"));
        assert_eq!(ledger::to_bytes(&again), bytes, "snapshot round trip");
        let hasher = Hasher::new(s.hash_options.clone()).ok();
        for e in &s.skills {
            for sev in [Severity::Info, Severity::Low, Severity::High] {
                let _ = e.count_at_least(sev);
            }
            if let Some(h) = &hasher {
                let _ = record::recompute_content(e, h);
            }
        }
    }
    if let Ok(h) = serde_json::from_slice::<Head>(data) {
        let _ = h.format == ledger::HEAD_FORMAT && h.version <= ledger::VERSION;
    }
    if let Some(v) = crate::linediff::decode(data) {
        assert_eq!(v.len() * 4, data.len());
        assert_eq!(crate::linediff::encode(&v), data);
    }
}

/// Printable: no character a terminal would act on (the lock reader escapes them).
fn printable(s: &str) -> bool {
    !s.chars()
        .any(|c| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
}

/// `skills-lock.json` (`baseline::provenance::parse_lock`): warnings are safe to print.
pub fn skills_lock(data: &[u8]) {
    let path = Path::new("skills-lock.json");
    match provenance::parse_lock(path, data) {
        Ok(l) => {
            for w in &l.warnings {
                assert!(printable(&w.message), "unescaped warning: {:?}", w.message);
                if let Some(e) = &w.entry {
                    assert!(printable(e), "unescaped entry name: {e:?}");
                }
            }
            for e in l.entries.values() {
                if let Some(h) = &e.computed_hash {
                    assert!(
                        h.len() == 64 && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
                        "computedHash kept unvalidated: {h:?}"
                    );
                }
            }
        }
        Err(e) => {
            let msg = e.to_string();
            assert!(printable(&msg), "unescaped error: {msg:?}");
        }
    }
}

/// Disclosure traces (`index::parse_trace`) and the efficiency metric over them.
pub fn trace(data: &[u8]) {
    let Ok(t) = crate::index::parse_trace(data) else {
        return;
    };
    if let Ok(e) = crate::index::trace_efficiency(&t) {
        for x in [e.score, e.order_validity * 100.0, e.load_precision * 100.0]
            .into_iter()
            .chain(e.selection_f1.map(|f| f * 100.0))
        {
            assert!((0.0..=100.0).contains(&x), "efficiency part {x} in {e:?}");
        }
    }
    for c in &t.calls {
        if let Some(name) = &c.skill
            && let crate::index::AxisValue::Measured(x) = crate::index::skill_efficiency(&t, name)
        {
            assert!((0.0..=100.0).contains(&x), "skill efficiency {x}");
        }
    }
}

/// Two JSON values equal but for how a number is held (`1` and `1.0`, `-0` and `0`).
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && same_json(va, vb))
        }
        _ => a == b,
    }
}

/// A `Cx` for findings about one file of a scan.
fn file_cx(rel: &str) -> crate::rules::Cx<'static> {
    crate::rules::Cx {
        skill: "fuzz",
        skill_path: "",
        dir_name: "fuzz",
        entry_path: rel.to_owned(),
        files: &[],
        findings: Vec::new(),
    }
}

/// JSON MCP, hook and settings configurations (`agents::json_config`, strict JSON and
/// VS Code's JSONC, then `agents::mcp_checks`), the positions of their members
/// (`parse::json::member_keys`) and the command overlay (`agents::commands::overlay`):
/// findings placed inside the text, JSONC reading every strict JSON text as JSON does, the
/// overlay line for line.
pub fn json_config(data: &[u8]) {
    use crate::parse::json::{self, Dialect};
    let t = text(data);
    let lines = line_count(&t);
    for rel in [".mcp.json", ".vscode/mcp.json", "hooks/hooks.json"] {
        let mut cx = file_cx(rel);
        if let Some(v) = crate::agents::json_config(&mut cx, rel, &t) {
            crate::agents::mcp_checks(&mut cx, &t, &v);
        }
        for f in &cx.findings {
            if let Some(l) = f.location.line {
                assert!(
                    l >= 1 && l as usize <= lines + 1,
                    "{rel}: finding at line {l} of {lines}: {}",
                    f.message
                );
            }
            assert!(f.location.column.is_none_or(|c| c >= 1));
            assert!(printable(&f.message), "unescaped message: {:?}", f.message);
        }
    }
    if let Ok(v) = json::parse(&t, Dialect::Json) {
        let w = json::parse(&t, Dialect::Jsonc)
            .unwrap_or_else(|e| panic!("JSONC refuses what JSON reads: {e}"));
        assert!(same_json(&v, &w), "JSONC reads {w} where JSON reads {v}");
    }
    let parents: [&[&str]; 3] = [&["mcpServers"], &["servers"], &["mcp", "servers"]];
    for keys in json::member_keys(&t, &parents) {
        for off in keys.values() {
            assert!(
                t.is_char_boundary(*off) && t.as_bytes()[*off] == b'"',
                "key at {off}"
            );
        }
    }
    if let Some(o) = crate::agents::commands::overlay(&t) {
        assert_eq!(line_count(&o.text), lines, "the overlay keeps the lines");
    }
}

/// `.skillguard.toml` (`config::parse`) and the policy over it (`policy::apply`: the
/// `[[ignore]]` entries indexed by rule, their lines found once): errors point inside the
/// text, what parses writes back and reads back the same, and every finding about an entry
/// is at a line of the file.
pub fn toml_config(data: &[u8]) {
    use crate::policy::{self, Policy, Scope};
    let t = text(data);
    let lines = line_count(&t);
    let mut c = match crate::config::parse(".skillguard.toml", &t) {
        Ok(c) => c,
        Err(crate::config::ConfigError::Invalid { line, column, .. }) => {
            assert!(
                line >= 1 && line <= lines + 1 && column >= 1,
                "error at {line}:{column}"
            );
            return;
        }
        Err(e) => panic!("a text gave an I/O error: {e}"),
    };
    if let Ok(written) = toml::to_string(&c) {
        let again = crate::config::parse("again.toml", &written)
            .unwrap_or_else(|e| panic!("a configuration written back does not read back: {e}"));
        assert_eq!(again, c, "configuration round trip");
    }
    // Inline comments would be read from disk: not here.
    c.inline_ignores = false;
    let findings: Vec<crate::finding::Finding> =
        ["secret-generic", "fetch-then-execute", "name-missing"]
            .iter()
            .enumerate()
            .map(|(i, rule)| {
                let mut f = crate::finding::Finding::new(
                    rule,
                    "m",
                    crate::finding::Location::at(format!("skills/s{i}/SKILL.md"), 1, 1),
                );
                f.fingerprint = format!("{i:064x}");
                f
            })
            .collect();
    let mut result = crate::result::ScanResult {
        lock_entries: 0,
        mode: crate::discover::Mode::Repo,
        target: ".".into(),
        artifacts: Vec::new(),
        agents: Vec::new(),
        evals: Vec::new(),
        findings,
        coverage: Default::default(),
        repos: Vec::new(),
        hidden_skipped: 0,
        files_scanned: 0,
        bytes_scanned: 0,
        suppressed: Vec::new(),
        changed: None,
        shard: None,
        targets: Vec::new(),
        listing: None,
        run: None,
    };
    let policy = Policy {
        scopes: vec![Scope {
            prefix: String::new(),
            config: c,
            config_shown: Some(".skillguard.toml".into()),
            config_text: t.to_string(),
            root: PathBuf::new(),
        }],
        today: chrono::NaiveDate::from_ymd_opt(2026, 6, 1),
        ..Policy::default()
    };
    let _ = policy::apply(&mut result, &policy);
    for f in result
        .findings
        .iter()
        .chain(result.suppressed.iter().map(|s| &s.finding))
    {
        if f.location.path == ".skillguard.toml"
            && let Some(l) = f.location.line
        {
            assert!(
                l >= 1 && l as usize <= lines,
                "{} at line {l} of {lines}",
                f.rule_id
            );
        }
    }
    for s in &result.suppressed {
        assert!(
            !s.reason.trim().is_empty(),
            "a suppression without a reason"
        );
    }
}

/// A scratch folder per process and thread under the system's temporary folder, made on
/// first use and removed when the thread ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A scratch file for the targets whose entry point reads a path, removed after use.
fn with_file<T>(name: &str, data: &[u8], f: impl FnOnce(&Path) -> T) -> T {
    thread_local! {
        static DIR: Scratch = {
            let dir = std::env::temp_dir().join(format!(
                "skillguard-fuzz-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            std::fs::create_dir_all(&dir).expect("scratch folder");
            Scratch(dir)
        };
    }
    let path = DIR.with(|d| d.0.join(name));
    std::fs::write(&path, data).expect("scratch file");
    let out = f(&path);
    let _ = std::fs::remove_file(&path);
    out
}

/// Shard reports read back by `skillguard merge` (`merge::merge`, which reads them through
/// `report::model`): a report merged, written as JSON again and merged again, gives the
/// same findings.
pub fn shard_report(data: &[u8]) {
    let merged = with_file("shard.json", data, |p| {
        crate::merge::merge(&[p.to_path_buf()], &crate::merge::Options::default(), false)
    });
    let Ok((result, _)) = merged else {
        return;
    };
    let mut out = Vec::new();
    crate::report::render(
        crate::report::Format::Json,
        &result,
        &crate::report::RenderOptions::default(),
        &mut out,
    )
    .expect("render to memory");
    let again = with_file("again.json", &out, |p| {
        crate::merge::merge(&[p.to_path_buf()], &crate::merge::Options::default(), false)
    })
    .unwrap_or_else(|e| panic!("a merged report written back does not merge: {e}"));
    assert_eq!(
        again.0.findings.len(),
        result.findings.len(),
        "findings lost or gained in a round trip"
    );
}

/// Eval results given with `--evals` (`index::evals::read_eval_result`, then the axis
/// `index::evals::metric`): the score and each set's value are within their ranges.
pub fn eval_results(data: &[u8]) {
    let Ok(r) = with_file("results.json", data, crate::index::evals::read_eval_result) else {
        return;
    };
    if let Ok(m) = crate::index::evals::metric(&[&r]) {
        assert!((0.0..=100.0).contains(&m.score), "score {}", m.score);
        for v in [m.regression_pass_hat_k, m.capability_pass_at_k]
            .into_iter()
            .flatten()
        {
            assert!((0.0..=1.0).contains(&v), "set value {v}");
        }
        let _ = crate::index::evals::detail(&m);
    }
}
