//! The JSON report's published schema, `docs/report.schema.json`: every report skillguard
//! writes (a repository scan, a workspace shard, a merge, suppressed findings listed) is valid
//! against it, and a report that breaks its shape is not.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn schema() -> jsonschema::Validator {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
    let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    jsonschema::validator_for(&v).expect("a valid JSON Schema")
}

fn report(args: &[&str]) -> Value {
    let o = Command::new(env!("CARGO_BIN_EXE_skillguard"))
        .args(args)
        .env_remove("CI")
        .output()
        .unwrap();
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stderr)))
}

fn errors(v: &Value) -> Vec<String> {
    schema()
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}

#[test]
fn every_report_matches_the_published_schema() {
    let demo = report(&[
        "scan",
        "--repo",
        "fixtures/demo",
        "--format",
        "json",
        "--show-suppressed",
    ]);
    assert!(errors(&demo).is_empty(), "{:#?}", errors(&demo));
    assert!(!demo["findings"].as_array().unwrap().is_empty());

    let t = tempfile::tempdir().unwrap();
    for r in ["a", "b"] {
        let d = t.path().join(r).join(".claude/skills/review");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::create_dir_all(t.path().join(r).join(".git")).unwrap();
        std::fs::write(
            d.join("SKILL.md"),
            format!("---\nname: review\ndescription: Reviews code. Use when asked.\n---\n# Review\n{r}\n"),
        )
        .unwrap();
    }
    let ws = t.path().to_str().unwrap();
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = t.path().join(format!("s{k}.json"));
        let v = report(&[
            "scan-workspace",
            ws,
            "--shard",
            &format!("{k}/2"),
            "--format",
            "json",
        ]);
        assert!(errors(&v).is_empty(), "shard {k}: {:#?}", errors(&v));
        std::fs::write(&out, serde_json::to_vec(&v).unwrap()).unwrap();
        shards.push(out.to_str().unwrap().to_owned());
    }
    let mut args = vec!["merge", "--format", "json"];
    args.extend(shards.iter().map(String::as_str));
    let merged = report(&args);
    assert!(errors(&merged).is_empty(), "{:#?}", errors(&merged));
    assert!(
        merged["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule_id"] == "cross-location-content-drift"),
        "{merged:#}"
    );
}

#[test]
fn a_report_that_breaks_the_shape_is_refused_by_the_schema() {
    let mut v = report(&["scan", "--repo", "fixtures/demo", "--format", "json"]);
    assert!(errors(&v).is_empty());
    v["findings"][0]["severity"] = Value::from("severe");
    assert!(!errors(&v).is_empty());
    let mut v = report(&["scan", "--repo", "fixtures/demo", "--format", "json"]);
    v["version"] = Value::from(2);
    assert!(!errors(&v).is_empty());
}
