//! Deterministic benchmark corpus generator.
//!
//! `cargo run --release --example gen_corpus -- --out DIR --repos N --skills M [--seed S]` writes N repositories
//! under DIR, each with M skills spread over the common conventions, with
//! realistic sizes: a SKILL.md of a few KB, scripts, references and the odd
//! asset, and a few percent of malformed skills (bad names, missing
//! descriptions, unclosed frontmatter, comma-separated allowed-tools, broken
//! links). The same arguments always produce the same bytes.
#![forbid(unsafe_code)]

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// SplitMix64: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len() as u64) as usize]
    }
}

const WORDS: &[&str] = &[
    "report", "invoice", "deploy", "review", "summary", "policy", "schema", "table", "metric",
    "pipeline", "notebook", "chart", "release", "incident", "budget", "query", "dataset", "model",
    "audit", "ticket", "design", "contract", "backup", "archive", "index", "search", "cluster",
    "service", "token", "cache", "render", "export", "import", "validate", "format", "extract",
];

const CONVENTIONS: &[&str] = &[
    ".claude/skills",
    ".agents/skills",
    ".github/skills",
    "skills",
    ".cursor/skills",
    ".codex/skills",
];

fn sentence(r: &mut Rng, words: u64) -> String {
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(r.pick(WORDS));
    }
    s
}

fn paragraph_text(r: &mut Rng, bytes: usize) -> String {
    let mut s = String::with_capacity(bytes + 80);
    while s.len() < bytes {
        let n = r.range(6, 18);
        let mut line = sentence(r, n);
        if let Some(c) = line.get_mut(0..1) {
            c.make_ascii_uppercase();
        }
        s.push_str(&line);
        s.push_str(".\n");
        if r.below(5) == 0 {
            s.push('\n');
        }
    }
    s
}

fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(p) = path.parent() {
        fs::create_dir_all(p)?;
    }
    let mut f = fs::File::create(path)?;
    f.write_all(bytes)
}

struct Stats {
    skills: u64,
    files: u64,
    bytes: u64,
}

fn gen_skill(r: &mut Rng, dir: &Path, name: &str, st: &mut Stats) -> io::Result<()> {
    let defect = r.below(100);
    let mut fm = String::from("---\n");
    match defect {
        0 => fm.push_str(&format!(
            "name: {}\n",
            name.replace('-', "_").to_uppercase()
        )),
        1 => fm.push_str(&format!("name: {name}-renamed\n")),
        _ => fm.push_str(&format!("name: {name}\n")),
    }
    if defect != 2 {
        let w = r.range(12, 40);
        fm.push_str(&format!(
            "description: {}. Use when the user asks to {}.\n",
            sentence(r, w),
            sentence(r, 3)
        ));
    }
    if r.below(3) == 0 {
        fm.push_str("license: MIT\n");
    }
    if r.below(4) == 0 {
        fm.push_str("metadata:\n  author: bench\n  version: \"1.0\"\n");
    }
    match defect {
        3 => fm.push_str("allowed-tools: Read, Write, Bash(git:*)\n"),
        4 => fm.push_str("version: 2\n"),
        _ if r.below(3) == 0 => fm.push_str("allowed-tools: Read Grep Bash(git:*)\n"),
        _ => {}
    }
    if defect != 5 {
        fm.push_str("---\n");
    }
    let mut body = format!("# {name}\n\n");
    let n_scripts = r.range(0, 3);
    let n_refs = r.range(1, 3);
    let asset = r.below(6) == 0;
    for i in 0..n_refs {
        body.push_str(&format!(
            "- Read [reference {i}](references/ref-{i}.md) first.\n"
        ));
    }
    for i in 0..n_scripts {
        body.push_str(&format!(
            "- Run `scripts/tool_{i}.py` to process the input.\n"
        ));
    }
    if defect == 6 {
        body.push_str("- See [the missing guide](references/missing.md).\n");
    }
    body.push('\n');
    let body_bytes = r.range(1_500, 7_000) as usize;
    body.push_str(&paragraph_text(r, body_bytes));
    let skill_md = format!("{fm}{body}");
    write(&dir.join("SKILL.md"), skill_md.as_bytes())?;
    st.files += 1;
    st.bytes += skill_md.len() as u64;
    for i in 0..n_refs {
        let size = r.range(4_000, 20_000) as usize;
        let text = format!("# Reference {i}\n\n{}", paragraph_text(r, size));
        write(&dir.join(format!("references/ref-{i}.md")), text.as_bytes())?;
        st.files += 1;
        st.bytes += text.len() as u64;
    }
    for i in 0..n_scripts {
        let size = r.range(800, 8_000) as usize;
        let mut code =
            String::from("\"\"\"Generated benchmark script.\"\"\"\nimport json\nimport sys\n\n\n");
        let mut k = 0;
        while code.len() < size {
            code.push_str(&format!(
                "def step_{k}(data):\n    \"\"\"{}.\"\"\"\n    return [x for x in data if x]\n\n\n",
                sentence(r, 6)
            ));
            k += 1;
        }
        code.push_str("if __name__ == \"__main__\":\n    print(json.dumps(sys.argv[1:]))\n");
        write(&dir.join(format!("scripts/tool_{i}.py")), code.as_bytes())?;
        st.files += 1;
        st.bytes += code.len() as u64;
    }
    if asset {
        let size = r.range(8_000, 40_000) as usize;
        let mut data = Vec::with_capacity(size);
        while data.len() < size {
            data.extend_from_slice(&r.next().to_le_bytes());
        }
        data.truncate(size);
        write(&dir.join("assets/blob.bin"), &data)?;
        st.files += 1;
        st.bytes += data.len() as u64;
    }
    st.skills += 1;
    Ok(())
}

fn usage() -> ExitCode {
    let _ = writeln!(
        io::stderr(),
        "usage: gen_corpus --out DIR --repos N --skills M [--seed S]\n  writes N repositories x M skills under DIR (which must not exist yet)"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut out: Option<PathBuf> = None;
    let (mut repos, mut skills, mut seed) = (20u64, 100u64, 42u64);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next();
        match a.as_str() {
            "--out" => out = val().map(PathBuf::from),
            "--repos" => match val().and_then(|v| v.parse().ok()) {
                Some(v) => repos = v,
                None => return usage(),
            },
            "--skills" => match val().and_then(|v| v.parse().ok()) {
                Some(v) => skills = v,
                None => return usage(),
            },
            "--seed" => match val().and_then(|v| v.parse().ok()) {
                Some(v) => seed = v,
                None => return usage(),
            },
            _ => return usage(),
        }
    }
    let Some(out) = out else { return usage() };
    if out.exists() {
        let _ = writeln!(io::stderr(), "gen_corpus: {} already exists", out.display());
        return ExitCode::from(2);
    }
    let mut r = Rng(seed);
    let mut st = Stats {
        skills: 0,
        files: 0,
        bytes: 0,
    };
    for ri in 0..repos {
        let repo = out.join(format!("repo-{ri:04}"));
        let res = (|| -> io::Result<()> {
            write(&repo.join("README.md"), format!("# repo {ri}\n").as_bytes())?;
            for si in 0..skills {
                let conv = CONVENTIONS[r.below(CONVENTIONS.len() as u64) as usize];
                let name = format!("{}-{}-{si:04}", r.pick(WORDS), r.pick(WORDS));
                gen_skill(&mut r, &repo.join(conv).join(&name), &name, &mut st)?;
            }
            Ok(())
        })();
        if let Err(e) = res {
            let _ = writeln!(io::stderr(), "gen_corpus: {}: {e}", repo.display());
            return ExitCode::from(1);
        }
    }
    let _ = writeln!(
        io::stdout(),
        "gen_corpus: {} repositories, {} skills, {} files, {} bytes ({:.1} MB) under {}",
        repos,
        st.skills,
        st.files,
        st.bytes,
        st.bytes as f64 / 1e6,
        out.display()
    );
    ExitCode::SUCCESS
}
