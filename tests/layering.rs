//! The pipeline flows one way: a module may import only modules in its own layer or a
//! lower one. This test reads every `src/**/*.rs`, finds its `crate::…` and `super::…`
//! paths (use trees included) and fails when one points into a higher layer. The
//! layers are listed in `LAYERS` (lowest first) and drawn in `docs/design.md`
//! ("Architecture"); every module must be listed, so a new module has to be placed.
//!
//! Items under `#[cfg(test)]` (unit tests) and comments are not checked: tests may reach
//! anywhere. Everything else is, including code that follows a file's unit tests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Layers, lowest first. A module path matches its longest listed prefix
/// (`rules::ids` is the model layer, the rest of `rules` the checks layer).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "helpers",
        &[
            "text",
            "hash",
            "linediff",
            "timing",
            "fsutil",
            "disjoint",
            "dotnet_json",
            "names",
        ],
    ),
    ("parsers", &["parse"]),
    ("evals", &["evals"]),
    (
        "model",
        &[
            "finding",
            "catalog",
            "cache",
            "rules::ids",
            "conventions",
            "targets",
            "inventory",
            "target_names",
            "config",
        ],
    ),
    ("walk", &["discover", "shardplan"]),
    ("result", &["result"]),
    ("read", &["read"]),
    ("parse+compliance", &["rules"]),
    ("loaders", &["loaders"]),
    // The security engine by phase: severity (the one place a severity is written), the
    // evidence model, the families, correlation, and the driver (`security/mod.rs`).
    ("security-severity", &["security::severity"]),
    ("security-model", &["security::model"]),
    ("security-families", &["security::families"]),
    ("security-correlate", &["security::correlate"]),
    ("security", &["security"]),
    ("skill-hashes", &["skill_hashes"]),
    ("analyze", &["analyze"]),
    ("agents", &["agents"]),
    ("evalfiles", &["evalfiles"]),
    ("scan", &["scan"]),
    ("policy", &["policy"]),
    ("index", &["index"]),
    ("report", &["report"]),
    ("baseline", &["baseline"]),
    ("merge", &["merge"]),
    ("pipeline", &["pipeline"]),
    ("cli", &["cli", "fuzzing"]),
    ("binaries", &["main"]),
];

/// The layer of a module path (`a::b::c`), by its longest listed prefix.
fn layer_of(module: &str) -> Option<(usize, &'static str)> {
    let mut best: Option<(usize, &'static str, usize)> = None;
    for (i, (_, mods)) in LAYERS.iter().enumerate() {
        for m in *mods {
            let hit = module == *m
                || (module.starts_with(m) && module.as_bytes().get(m.len()) == Some(&b':'));
            if hit && best.is_none_or(|(_, _, len)| m.len() > len) {
                best = Some((i, m, m.len()));
            }
        }
    }
    best.map(|(i, m, _)| (i, m))
}

/// `src/a/b.rs` → `a::b`, `src/a/mod.rs` → `a`, `src/main.rs` → `main`, `src/bin/x.rs` → `bin::x`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts.join("::")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The end of the item that starts at `at` (after a `#[cfg(test)]`): its closing brace at
/// depth 0, or its `;` before any brace. Skips strings, raw strings, char literals and
/// comments, so that a `'{'` or a `"}"` does not end it early.
fn item_end(text: &str, at: usize) -> usize {
    let b = text.as_bytes();
    let (mut i, mut depth) = (at, 0usize);
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(b.len(), |n| i + n);
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
                continue;
            }
            b'r' if matches!(b.get(i + 1), Some(b'#' | b'"'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
                if b.get(i + 1 + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    i = text[i + 2 + hashes..]
                        .find(&close)
                        .map_or(b.len(), |n| i + 2 + hashes + n + close.len());
                    continue;
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            // A char literal (`'{'`, `'\''`), not a lifetime (`'a`).
            b'\'' if b.get(i + 1) == Some(&b'\\') => {
                i = text[i + 2..].find('\'').map_or(b.len(), |n| i + 2 + n);
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') => i += 2,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The code of a file without comments and without its unit tests: every item under
/// `#[cfg(test)]` is cut out, and the code after it is checked like the rest.
fn code_of(text: &str) -> String {
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..i]);
        let after = i + "#[cfg(test)]".len();
        rest = &rest[item_end(rest, after)..];
    }
    kept.push_str(rest);
    kept.lines()
        .map(|l| match l.find("//") {
            // A `//` inside a string (a URL) is rare in import lines; cutting there is safe.
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Expands the path (or use tree) starting at `s` into full paths, each a list of segments.
/// Returns the paths and the number of bytes read.
fn use_tree(s: &str) -> (Vec<Vec<String>>, usize) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut prefix: Vec<String> = Vec::new();
    loop {
        while i < b.len() && (b[i] as char).is_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == b'{' {
            i += 1;
            let mut out = Vec::new();
            loop {
                while i < b.len() && (b[i] as char).is_whitespace() {
                    i += 1;
                }
                if i >= b.len() {
                    return (out, i);
                }
                if b[i] == b'}' {
                    i += 1;
                    return (out, i);
                }
                if b[i] == b',' {
                    i += 1;
                    continue;
                }
                let (sub, n) = use_tree(&s[i..]);
                i += n.max(1);
                for p in sub {
                    let mut full = prefix.clone();
                    full.extend(p.into_iter().filter(|seg| seg != "self"));
                    out.push(full);
                }
            }
        }
        let start = i;
        while i < b.len() && is_ident(b[i] as char) {
            i += 1;
        }
        if i == start {
            return (vec![prefix], i);
        }
        prefix.push(s[start..i].to_owned());
        if s[i..].starts_with("::") {
            i += 2;
        } else {
            return (vec![prefix], i);
        }
    }
}

/// Every module path a file refers to through `crate::` or `super::`.
fn references(module: &str, code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let own: Vec<&str> = if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").collect()
    };
    let mut push = |segs: Vec<String>| {
        // Module segments are lower case; stop at the first type or value (`Cx`, `re`).
        let mods: Vec<String> = segs
            .into_iter()
            .take_while(|s| s.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
            .collect();
        if !mods.is_empty() {
            out.insert(mods.join("::"));
        }
    };
    let bytes = code.as_bytes();
    for (kw, is_super) in [
        ("crate::", false),
        ("super::", true),
        ("skillguard::", false),
    ] {
        let mut from = 0;
        while let Some(off) = code[from..].find(kw) {
            let at = from + off;
            from = at + kw.len();
            if at > 0 && is_ident(bytes[at - 1] as char) {
                continue;
            }
            if at >= 2 && &code[at - 2..at] == "::" {
                continue; // the tail of a longer path (`super::super::`), read from its start
            }
            let (mut base, mut rest_at) = if is_super {
                (own[..own.len().saturating_sub(1)].to_vec(), at + kw.len())
            } else {
                (Vec::new(), at + kw.len())
            };
            while is_super && code[rest_at..].starts_with("super::") {
                base.pop();
                rest_at += "super::".len();
            }
            let (paths, _) = use_tree(&code[rest_at..]);
            for p in paths {
                let mut full: Vec<String> = base.iter().map(|s| (*s).to_owned()).collect();
                full.extend(p);
                push(full);
            }
        }
    }
    out
}

/// (file, module, target, why) for every import into a higher layer.
fn violations(root: &Path) -> (Vec<String>, Vec<String>) {
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut bad = Vec::new();
    let mut unplaced = Vec::new();
    for f in &files {
        let module = module_of(&src, f);
        if module == "lib" {
            continue; // the crate root declares the modules
        }
        let Some((layer, _)) = layer_of(&module) else {
            unplaced.push(module);
            continue;
        };
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        for target in references(&module, &code) {
            let Some((t_layer, t_mod)) = layer_of(&target) else {
                continue; // a crate-root item or a module of the crate that is not a layer
            };
            if t_layer > layer {
                bad.push(format!(
                    "{} (`{module}`, layer {}) imports `{target}` (`{t_mod}`, layer {})",
                    f.strip_prefix(root).unwrap().display(),
                    LAYERS[layer].0,
                    LAYERS[t_layer].0,
                ));
            }
        }
    }
    (bad, unplaced)
}

#[test]
fn modules_import_only_lower_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (bad, unplaced) = violations(root);
    assert!(
        unplaced.is_empty(),
        "modules missing from LAYERS in tests/layering.rs (place them): {unplaced:?}"
    );
    assert!(
        bad.is_empty(),
        "imports into a higher layer:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_checker_sees_use_trees_super_and_paths() {
    let code = "use crate::rules::{self, Cx, ids};\nuse super::{Parsed, maf::read};\nlet x = crate::security::patterns::re(\"a\");\nuse crate::{finding::{Finding, Location}, text};\n";
    let refs = references("loaders::harness", code);
    let want: BTreeSet<String> = [
        "rules",
        "rules::ids",
        "loaders",
        // Lower-case items (functions) stay on the path; layers match by prefix.
        "loaders::maf::read",
        "security::patterns::re",
        "finding",
        "text",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    assert_eq!(refs, want);
    assert_eq!(layer_of("rules::ids").unwrap().1, "rules::ids");
    assert_eq!(layer_of("rules::parsing").unwrap().1, "rules");
    assert_eq!(layer_of("rulesx"), None);
    // A low module that reaches up is caught.
    assert!(layer_of("discover").unwrap().0 < layer_of("analyze").unwrap().0);
    let up = references("discover", "let f = crate::analyze::open_regular(p);");
    assert!(up.iter().any(|r| layer_of(r).unwrap().1 == "analyze"));
}

#[test]
fn design_doc_lists_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/design.md")).unwrap();
    for (name, mods) in LAYERS {
        let line = format!(
            "{}. **{name}**:",
            LAYERS.iter().position(|l| l.0 == *name).unwrap()
        );
        assert!(
            doc.contains(&line),
            "docs/design.md lacks the layer line `{line}`"
        );
        for m in *mods {
            assert!(
                doc.contains(&format!("`{m}`")),
                "docs/design.md does not name module `{m}` in its layer list"
            );
        }
    }
}

/// Code after a file's unit tests is checked too (the layering check used to stop at
/// the first `#[cfg(test)]`, so 1,039 lines of production code went unchecked).
#[test]
fn code_after_the_unit_tests_is_checked() {
    let text = "fn a() {}\n#[cfg(test)]\nmod tests {\n    use crate::cli::Hidden;\n    fn x() { let c = '{'; let s = \"}}\"; let r = r#\"}\"#; }\n}\nuse crate::cli::Planted;\n#[cfg(test)]\nuse crate::report::Test;\nfn b() {}\n";
    let code = code_of(text);
    assert!(code.contains("use crate::cli::Planted;"), "{code}");
    assert!(code.contains("fn b() {}"), "{code}");
    assert!(
        !code.contains("Hidden") && !code.contains("report::Test"),
        "{code}"
    );
}

/// `docs/development.md` lists every module of `src/`.
#[test]
fn the_development_guide_lists_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/development.md")).unwrap();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let missing: Vec<String> = files
        .iter()
        .map(|f| {
            f.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .filter(|p| !doc.contains(&format!("`{p}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/development.md (\"Every module\") does not list: {missing:?}"
    );
}

/// The first paragraph of a module's own documentation (`//!`), on one line: at most 150
/// characters, cut at a word with ` …`; `|` escaped for the table.
fn module_summary(text: &str) -> String {
    let mut words: Vec<&str> = Vec::new();
    for line in text.lines() {
        let Some(doc) = line.trim_start().strip_prefix("//!") else {
            if words.is_empty() && (line.trim().is_empty() || line.trim_start().starts_with("#!")) {
                continue;
            }
            break;
        };
        if doc.trim().is_empty() {
            if words.is_empty() {
                continue;
            }
            break;
        }
        words.extend(doc.split_whitespace());
    }
    let mut out = String::new();
    for w in &words {
        if out.chars().count() + 1 + w.chars().count() > 150 {
            out.push_str(" …");
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out.replace('|', "\\|")
}

/// The module table of `docs/development.md` ("Every module") is generated from the modules'
/// own documentation: a module whose doc changed, or a new module, fails here until
/// `UPDATE_DOCS=1` rewrites the table.
#[test]
fn the_module_map_quotes_each_modules_own_documentation() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("docs/development.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = ("<!-- modules:begin -->\n", "<!-- modules:end -->");
    let a = doc
        .find(begin)
        .expect("docs/development.md lacks the module table")
        + begin.len();
    let z = a + doc[a..].find(end).expect("the module table is not closed");
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let mut rows: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, module_summary(&std::fs::read_to_string(f).unwrap()))
        })
        .collect();
    rows.sort();
    let mut want = String::from("| File | What |\n|---|---|\n");
    for (rel, what) in &rows {
        want.push_str(&format!("| `{rel}` | {what} |\n"));
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let mut new = doc.clone();
        new.replace_range(a..z, &want);
        std::fs::write(&path, new).unwrap();
        return;
    }
    let missing: Vec<&str> = rows
        .iter()
        .filter(|(_, w)| w.is_empty())
        .map(|(r, _)| r.as_str())
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a `//!` doc: {missing:?}"
    );
    assert_eq!(
        &doc[a..z],
        want,
        "docs/development.md's module table is stale; run `UPDATE_DOCS=1 cargo test --test layering`"
    );
}

/// The crate doc of `src/lib.rs` names every top-level module.
#[test]
fn the_crate_doc_names_every_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let crate_doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let missing: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|m| m.trim_end_matches(';'))
        .filter(|m| !crate_doc.contains(&format!("`{m}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "src/lib.rs's crate doc does not name: {missing:?}"
    );
}

/// The phases of the security engine, generated from `security::STEPS`, are the table in
/// `docs/development.md` ("The security engine's phases"); `UPDATE_DOCS=1` rewrites it.
#[test]
fn the_development_guide_lists_the_security_steps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("docs/development.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = (
        "<!-- security-steps:begin -->\n",
        "<!-- security-steps:end -->",
    );
    let a = doc
        .find(begin)
        .expect("docs/development.md lacks the security steps table")
        + begin.len();
    let z = a + doc[a..]
        .find(end)
        .expect("the security steps table is not closed");
    let want = skillguard::security::steps_table();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, format!("{}{want}{}", &doc[..a], &doc[z..])).unwrap();
        return;
    }
    assert_eq!(
        &doc[a..z],
        want,
        "docs/development.md's security steps are stale: UPDATE_DOCS=1 cargo test --test layering"
    );
}

/// The families may use one another, but never in a circle: the import graph between the
/// top-level modules of `security::families` has no cycle.
#[test]
fn the_security_families_import_no_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let src = root.join("src");
    let mut files = Vec::new();
    rust_files(&src.join("security/families"), &mut files);
    let family = |m: &str| -> Option<String> {
        let rest = m.strip_prefix("security::families::")?;
        Some(rest.split("::").next().unwrap().to_owned())
    };
    let mut edges: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for f in &files {
        let module = module_of(&src, f);
        let Some(from) = family(&module) else {
            continue;
        };
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        for target in references(&module, &code) {
            if let Some(to) = family(&target)
                && to != from
            {
                edges.entry(from.clone()).or_default().insert(to);
            }
        }
        edges.entry(from).or_default();
    }
    // Depth-first search for a back edge.
    fn visit(
        n: &str,
        edges: &std::collections::BTreeMap<String, BTreeSet<String>>,
        state: &mut std::collections::BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match state.get(n) {
            Some(2) => return None,
            Some(1) => {
                let at = path.iter().position(|p| p == n).unwrap();
                let mut cycle = path[at..].to_vec();
                cycle.push(n.to_owned());
                return Some(cycle);
            }
            _ => {}
        }
        state.insert(n.to_owned(), 1);
        path.push(n.to_owned());
        for m in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(m, edges, state, path) {
                return Some(c);
            }
        }
        path.pop();
        state.insert(n.to_owned(), 2);
        None
    }
    let mut state = Default::default();
    assert!(edges.len() >= 8, "families found: {edges:?}");
    for n in edges.keys() {
        if let Some(c) = visit(n, &edges, &mut state, &mut Vec::new()) {
            panic!(
                "the security families import in a circle: {}",
                c.join(" → ")
            );
        }
    }
}
/// Every family, correlation step and driver writes a severity only through
/// `security::severity` (the one place it is decided): no other file of `src/security/`
/// assigns `.severity` outside its unit tests.
#[test]
fn only_the_severity_module_writes_a_security_severity() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/security"), &mut files);
    files.sort();
    let mut bad = Vec::new();
    for f in &files {
        if f.ends_with("security/severity.rs") {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        for (i, line) in code.lines().enumerate() {
            let l = line.trim_start();
            let assigns = l.contains(".severity =") && !l.contains(".severity ==");
            if assigns {
                bad.push(format!(
                    "{}:{}: {}",
                    f.strip_prefix(root).unwrap().display(),
                    i + 1,
                    l
                ));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "severity written outside src/security/severity.rs (use severity::emitted, cap, as_note or raise):\n{}",
        bad.join("\n")
    );
}

/// The integration tests run the binary through one helper module (`tests/common`): no other
/// test file builds its own command for it, nor defines its own `bin` or `run`.
#[test]
fn tests_run_the_binary_through_the_shared_helpers() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut own = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if text.contains(concat!(
            "Command::new(env!(\"CARGO_BIN_",
            "EXE_skillguard\"))"
        )) {
            own.push(format!("{name}: builds its own command for the binary"));
        }
        for line in text.lines() {
            let l = line.trim_start();
            if l.starts_with("fn bin(") || l.starts_with("fn run(") {
                own.push(format!("{name}: defines `{}`", l.trim_end_matches(" {")));
            }
        }
    }
    assert!(
        own.is_empty(),
        "use `mod common;` (`common::bin`, `run`, `run_in`, ...) instead:\n{}",
        own.join("\n")
    );
}
