//! Generates, from the rule catalog files (`rules/*.md`):
//! - the list of files compiled into the binary, so adding a rule means adding its file (no
//!   hand-kept list);
//! - the literal and prefix tables of every data-rule regex (`literal_tables.rs`): the
//!   required literals and prefix sets that [`literals`] derives from a regex's parsed form.
//!   Parsing the 300-odd rule regexes (Unicode case folding) took about 65 ms of every run;
//!   with the tables, a regex is parsed only when a scanned file holds its literals and it is
//!   compiled. `tests` check the tables against the same derivation at run time.

use std::fmt::Write as _;
use std::path::Path;

#[path = "src/security/model/literals.rs"]
#[allow(dead_code)]
mod literals;

fn main() {
    // Read at run time: the build script binary may be shared between checkouts.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("rules/ exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "README.md")
        .collect();
    names.sort();
    let mut out = String::from("&[\n");
    for n in &names {
        println!("cargo:rerun-if-changed={}", dir.join(n).display());
        writeln!(
            out,
            "    ({n:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/rules/{n}\"))),"
        )
        .unwrap();
    }
    out.push(']');
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("rule_files.rs");
    std::fs::write(dest, out).unwrap();
    literal_tables(&dir, &names);
    build_digest(Path::new(&manifest));
}

/// `SKILLGUARD_BUILD_DIGEST`: a SHA-256 over every file the crate is built from (`src/**`,
/// `rules/**`, `build.rs`, `Cargo.toml`, `Cargo.lock`), by relative path and bytes. The result
/// cache keys its entries on it, so a build from other code never reads another build's entry.
fn build_digest(root: &Path) {
    use sha2::{Digest, Sha256};
    let mut files = Vec::new();
    for top in ["src", "rules"] {
        println!("cargo:rerun-if-changed={}", root.join(top).display());
        collect(&root.join(top), &mut files);
    }
    for f in ["build.rs", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={}", root.join(f).display());
        files.push(root.join(f));
    }
    files.sort();
    let mut h = Sha256::new();
    for f in &files {
        let rel = f
            .strip_prefix(root)
            .unwrap_or(f)
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(f).unwrap_or_default();
        h.update((rel.len() as u64).to_le_bytes());
        h.update(rel.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    let hex: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=SKILLGUARD_BUILD_DIGEST={hex}");
}

/// Every file under `dir`, recursively (links not followed).
fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() {
            collect(&e.path(), out);
        } else if t.is_file() {
            out.push(e.path());
        }
    }
}

/// The part of a rule file's front matter the tables need.
#[derive(serde::Deserialize)]
struct Front {
    #[serde(rename = "match", default)]
    matcher: Option<Match>,
}

#[derive(serde::Deserialize)]
struct Match {
    #[serde(default)]
    regex: Vec<String>,
    #[serde(default)]
    exclude: Vec<String>,
}

/// Writes `literal_tables.rs`: `LITERAL_TABLES`, sorted by source pattern, each entry
/// `(source, required literal clauses as (bytes, left, right), prefix set)`. A file or regex
/// that does not parse is left out (the run-time parse then reports it, as it always has).
fn literal_tables(dir: &Path, names: &[String]) {
    let mut entries = std::collections::BTreeMap::new();
    for n in names {
        let Ok(text) = std::fs::read_to_string(dir.join(n)) else {
            continue;
        };
        let text = text.replace("\r\n", "\n");
        let Some(rest) = text.strip_prefix("---\n") else {
            continue;
        };
        let Some(end) = rest.find("\n---") else {
            continue;
        };
        let Ok(front) = serde_saphyr::from_str::<Front>(&rest[..end + 1]) else {
            continue;
        };
        let Some(m) = front.matcher else { continue };
        for src in m.regex.iter().chain(&m.exclude) {
            let pattern = literals::ascii_word_boundaries(src);
            let Ok(hir) = regex_syntax::ParserBuilder::new().build().parse(&pattern) else {
                continue;
            };
            let required = literals::required_of(&hir);
            let prefixes = literals::prefixes_of(&hir);
            entries.insert(src.clone(), (required, prefixes));
        }
    }
    let mut out = String::from(
        "/// (source pattern, required literal clauses, prefix set), sorted by source.\n\
         pub static LITERAL_TABLES: &[Entry] = &[\n",
    );
    for (src, (required, prefixes)) in &entries {
        write!(out, "    ({src:?}, &[").unwrap();
        for clause in required {
            out.push_str("&[");
            for l in clause {
                write!(out, "(b\"{}\", {}, {}),", bytes(&l.bytes), l.left, l.right).unwrap();
            }
            out.push_str("],");
        }
        out.push_str("], ");
        match prefixes {
            None => out.push_str("None"),
            Some(ps) => {
                out.push_str("Some(&[");
                for p in ps {
                    write!(out, "b\"{}\",", bytes(p)).unwrap();
                }
                out.push_str("])");
            }
        }
        out.push_str("),\n");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("literal_tables.rs");
    std::fs::write(dest, out).unwrap();
}

/// Bytes as the text of a byte-string literal (`b"..."` body, escaped).
fn bytes(b: &[u8]) -> String {
    b.iter()
        .flat_map(|&c| std::ascii::escape_default(c))
        .map(char::from)
        .collect()
}
