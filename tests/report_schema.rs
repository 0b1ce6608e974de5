//! The JSON report's published schema, `docs/report.schema.json`: every report skillguard
//! writes (a repository scan, a workspace shard, a merge, suppressed findings listed) is valid
//! against it, and a report that breaks its shape is not. Each is also read into the report
//! model (`skillguard::report::model`, what `skillguard merge` reads) and written back
//! unchanged.

mod common;
#[path = "common/round_trip.rs"]
mod round_trip;

use std::path::Path;

use serde_json::Value;

fn schema() -> jsonschema::Validator {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
    let v: Value = serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap();
    jsonschema::validator_for(&v).expect("a valid JSON Schema")
}

fn report(args: &[&str]) -> Value {
    let o = common::bin().args(args).env_remove("CI").output().unwrap();
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stderr)))
}

/// The schema's complaints about `v`; none when it matches. Every report checked here is
/// also read back through the report model ([`round_trip::assert_model_round_trips`]).
fn errors(v: &Value) -> Vec<String> {
    let found: Vec<String> = schema()
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    if found.is_empty() {
        round_trip::assert_model_round_trips(v, &format!("{} report", v["mode"]));
    }
    found
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

/// The options that add properties (the gates, an eval result, a trace, suppressions of every
/// kind) give reports that match the schema and that the report model reads back.
#[test]
fn reports_with_every_optional_property_match_and_read_back() {
    let t = tempfile::tempdir().unwrap();
    let repo = common::demo_in(t.path(), "demo");
    std::fs::write(
        repo.join(".skillguard.toml"),
        "inline-ignores = true\n\n[[ignore]]\nrule = \"name-invalid-chars\"\nreason = \"kept on purpose\"\n",
    )
    .unwrap();
    let script = repo.join(".claude/skills/invoice-sync/scripts/.update.sh");
    let text = std::fs::read_to_string(&script).unwrap();
    std::fs::write(
        &script,
        text.replacen(
            "curl",
            "# skillguard-ignore fetch-then-execute: pinned\ncurl",
            1,
        ),
    )
    .unwrap();
    let root = env!("CARGO_MANIFEST_DIR");
    let v = report(&[
        "scan",
        "--repo",
        repo.to_str().unwrap(),
        "--format",
        "json",
        "--fail-on",
        "high",
        "--fail-under-index",
        "50",
        "--trace",
        &format!("{root}/fixtures/index/demo-trace.json"),
        "--evals",
        &format!("{root}/fixtures/index/pdf-tools-results.json"),
    ]);
    assert!(errors(&v).is_empty(), "{:#?}", errors(&v));
    let kinds: Vec<&str> = v["suppressed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["suppression"]["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"config") && kinds.contains(&"inline"),
        "{kinds:?}"
    );
    assert_eq!(v["fail_on"], "high");
    let path = report(&[
        "scan",
        &format!("{root}/fixtures/demo/.claude/skills/invoice-sync"),
        "--format",
        "json",
    ]);
    assert!(errors(&path).is_empty(), "{:#?}", errors(&path));
}
