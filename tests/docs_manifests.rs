//! Every Kubernetes manifest of the docs (a fenced ```yaml block with `apiVersion` and `kind`),
//! parsed and checked offline: the basic shape (apiVersion/kind/metadata.name/spec), Jobs that
//! can run (restart policy, named containers with an image, mounts of declared volumes), a gate
//! that is never retried (`backoffLimit: 0` on a Job that runs `--fail-on`), an Indexed Job whose
//! shard count is its completions, and shared volumes declared as ReadWriteMany.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// (file, YAML text) of every ```yaml block of README.md and docs/*.md.
fn yaml_blocks() -> Vec<(String, String)> {
    let mut files = vec![root().join("README.md")];
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p);
        }
    }
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.strip_prefix(root()).unwrap().display().to_string();
        let mut cur: Option<String> = None;
        for line in text.lines() {
            match (&mut cur, line.trim_end()) {
                (None, "```yaml") => cur = Some(String::new()),
                (Some(b), "```") => {
                    out.push((name.clone(), std::mem::take(b)));
                    cur = None;
                }
                (Some(b), _) => {
                    b.push_str(line);
                    b.push('\n');
                }
                (None, _) => {}
            }
        }
    }
    out
}

/// The Kubernetes manifests among the blocks (a block may hold several documents).
fn manifests() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (file, block) in yaml_blocks() {
        for doc in block.split("\n---\n") {
            if !doc.lines().any(|l| l.starts_with("apiVersion:")) {
                continue;
            }
            let v: Value = serde_saphyr::from_str(doc)
                .unwrap_or_else(|e| panic!("{file}: bad manifest ({e}):\n{doc}"));
            out.push((file.clone(), v));
        }
    }
    out
}

fn name(v: &Value) -> &str {
    v["metadata"]["name"].as_str().unwrap_or("?")
}

#[test]
fn every_manifest_has_the_basic_shape() {
    let all = manifests();
    assert!(all.len() >= 3, "found {} manifests", all.len());
    for (file, m) in &all {
        let api = m["apiVersion"].as_str().unwrap_or_default();
        let kind = m["kind"].as_str().unwrap_or_default();
        let known = matches!(
            (api, kind),
            ("batch/v1", "Job" | "CronJob") | ("v1", "PersistentVolumeClaim" | "ConfigMap")
        );
        assert!(known, "{file}: {api} {kind}");
        let n = name(m);
        assert!(
            !n.is_empty()
                && n.len() <= 63
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
            "{file}: metadata.name `{n}` is not a DNS label"
        );
        assert!(m["spec"].is_object(), "{file}: {n}: spec");
    }
}

#[test]
fn jobs_can_run_and_the_gate_is_not_retried() {
    let all = manifests();
    let claims: BTreeSet<&str> = all
        .iter()
        .filter(|(_, m)| m["kind"] == "PersistentVolumeClaim")
        .map(|(_, m)| name(m))
        .collect();
    let mut jobs = 0;
    for (file, m) in all.iter().filter(|(_, m)| m["kind"] == "Job") {
        jobs += 1;
        let n = name(m);
        let spec = &m["spec"];
        let pod = &spec["template"]["spec"];
        assert!(
            matches!(pod["restartPolicy"].as_str(), Some("Never" | "OnFailure")),
            "{file}: {n}: a Job's pods restart Never or OnFailure"
        );
        let volumes: BTreeSet<&str> = pod["volumes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|v| v["name"].as_str().unwrap())
            .collect();
        let containers = pod["containers"].as_array().expect("containers");
        assert!(!containers.is_empty(), "{file}: {n}");
        let mut script = String::new();
        for c in containers {
            assert!(
                c["name"].is_string() && c["image"].is_string(),
                "{file}: {n}"
            );
            for mount in c["volumeMounts"].as_array().into_iter().flatten() {
                let v = mount["name"].as_str().unwrap();
                assert!(
                    volumes.contains(v),
                    "{file}: {n}: mounts undeclared volume {v}"
                );
                assert!(mount["mountPath"].is_string(), "{file}: {n}");
            }
            for a in c["args"].as_array().into_iter().flatten() {
                script.push_str(a.as_str().unwrap_or_default());
            }
        }
        // A gate's exit 1 is a verdict: retried under the default backoffLimit (6), the Job
        // runs the merge seven times and reports the failure late.
        if script.contains("--fail-on") {
            assert_eq!(
                spec["backoffLimit"], 0,
                "{file}: {n} gates (--fail-on) and must have backoffLimit: 0"
            );
        }
        if spec["completionMode"] == "Indexed" {
            let k = spec["completions"].as_u64().expect("completions");
            // The shard count is the completions: given as `--shard "$K/N"`, or held by the
            // plan the pods read, which the docs make with `--shards N`.
            let doc = std::fs::read_to_string(root().join(file)).unwrap();
            let by_plan = script.contains("--plan") && doc.contains(&format!("--shards {k} "));
            assert!(
                script.contains(&format!("/{k}\"")) || by_plan,
                "{file}: {n}: the shard count is the completions ({k})"
            );
        }
        // Every shared volume is a claim the docs declare as ReadWriteMany.
        for v in pod["volumes"].as_array().into_iter().flatten() {
            if let Some(claim) = v["persistentVolumeClaim"]["claimName"].as_str() {
                assert!(
                    claims.contains(claim),
                    "{file}: {n}: claim {claim} is not declared in the docs"
                );
            }
        }
    }
    assert!(jobs >= 2, "found {jobs} Jobs");
    for (file, m) in all
        .iter()
        .filter(|(_, m)| m["kind"] == "PersistentVolumeClaim")
    {
        let modes = &m["spec"]["accessModes"];
        assert_eq!(
            modes,
            &serde_json::json!(["ReadWriteMany"]),
            "{file}: {}: pods on several nodes share it",
            name(m)
        );
        assert!(
            m["spec"]["resources"]["requests"]["storage"].is_string(),
            "{file}: {}",
            name(m)
        );
    }
}

/// The docs are written for users: no pointer to things only the project's developers have
/// (the notes the implementation was written from, their sections, the seeds, issue numbers).
#[test]
fn docs_point_at_nothing_a_reader_does_not_have() {
    let internal = regex::Regex::new(
        r"(?i)\bseeds? 0\d\d\b|\breference §|§ ?\d|\bissues? #?\d+\b|\.\./shared/(reference|seeds)",
    )
    .unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    for e in std::fs::read_dir(root.join("docs")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "md") {
            files.push(e.path());
        }
    }
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if let Some(m) = internal.find(line) {
                found.push(format!("{}:{}: {}", f.display(), i + 1, m.as_str()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "internal references:\n{}",
        found.join("\n")
    );
}
