//! `.github/workflows/release.yml`, offline: a `v*` tag builds Linux and macOS binaries with
//! `--locked` and attaches them, with their SHA-256 checksums, to the tag's release, under the
//! names the Action (`action.yml`) and the recipes of docs/ci.md download.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn yaml(rel: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn runs(job: &serde_json::Value) -> String {
    job["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn release_builds_locked_binaries_on_a_version_tag() {
    let wf = yaml(".github/workflows/release.yml");
    assert_eq!(wf["on"]["push"]["tags"], serde_json::json!(["v*"]));
    assert_eq!(
        wf["permissions"]["contents"], "read",
        "read-only by default"
    );
    let build = &wf["jobs"]["build"];
    let targets: Vec<&str> = build["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    for t in [
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-musl",
        "x86_64-apple-darwin",
        "aarch64-apple-darwin",
    ] {
        assert!(targets.contains(&t), "target {t}: {targets:?}");
    }
    let b = runs(build);
    let cargo: Vec<&str> = b.lines().filter(|l| l.contains("cargo ")).collect();
    assert!(!cargo.is_empty());
    for l in cargo {
        assert!(l.contains("--locked"), "{l}");
    }
    // The tag must be the crate's version; the archive name is the one the Action downloads.
    assert!(b.contains(r#"if [ "$TAG" != "v$version" ]"#), "{b}");
    assert!(b.contains(r#"name="skillguard-$TAG-$TARGET""#), "{b}");
    assert!(b.contains(r#"shasum -a 256 "$name.tar.gz""#), "{b}");
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    assert!(action.contains(r#"name="skillguard-v$version-$target""#));
    for t in &targets {
        assert!(
            action.contains(&format!(") target={t} ;;")),
            "action.yml maps {t}"
        );
    }

    // Wheels (maturin) for the same platforms, checksummed and released with the binaries.
    let wheels = &wf["jobs"]["wheels"];
    let wheel_targets: Vec<&str> = wheels["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    for t in &targets {
        assert!(wheel_targets.contains(t), "no wheel for {t}");
    }
    let uses: Vec<&str> = wheels["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|s| s["uses"].as_str())
        .collect();
    assert!(
        uses.iter().any(|u| u.starts_with("PyO3/maturin-action@")),
        "{uses:?}"
    );
    assert!(runs(wheels).contains("shasum -a 256"));
    let pyproject = std::fs::read_to_string(root().join("pyproject.toml")).unwrap();
    assert!(pyproject.contains("bindings = \"bin\""));
    assert!(pyproject.contains("build-backend = \"maturin\""));
    // No system library: nothing is apt-installed but the musl C runtime.
    let b = runs(build);
    assert!(!b.contains("vectorscan") && !b.contains("HYPERSCAN"), "{b}");

    let release = &wf["jobs"]["release"];
    assert_eq!(release["needs"], serde_json::json!(["build", "wheels"]));
    assert_eq!(release["permissions"]["contents"], "write");
    let r = runs(release);
    assert!(
        r.contains("sha256sum skillguard-*.tar.gz skillguard-*.whl > SHA256SUMS"),
        "{r}"
    );
    assert!(r.contains("gh release create"), "{r}");
    assert!(r.contains("dist/SHA256SUMS"), "{r}");
    assert!(r.contains("--verify-tag"), "{r}");

    // Expressions reach scripts through `env:` only.
    for job in wf["jobs"].as_object().unwrap().values() {
        assert!(!runs(job).contains("${{"), "an expression inside a script");
    }
}
