//! `skillguard rules` shows AgentEval's rule numbers, and
//! `ResourceFromUntrustedSource` (#9), which never fires from files, is listed and explained.

mod common;

use std::process::Output;

use common::run;

fn out(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn rules_list_agenteval_numbers_and_the_never_firing_rule() {
    let table = out(&run(&["rules"]));
    let header = table.lines().next().unwrap();
    assert!(header.contains(" AE "), "{header}");
    let row = table
        .lines()
        .find(|l| l.starts_with("resource-from-untrusted-source "))
        .unwrap_or_else(|| panic!("not listed:\n{table}"));
    assert!(
        row.contains("medium") && row.contains("never") && row.contains(" 9 "),
        "{row}"
    );
    let row = table
        .lines()
        .find(|l| l.starts_with("manifest-changed-since-baseline "))
        .unwrap();
    assert!(row.contains(" 14 "), "{row}");

    let v: serde_json::Value =
        serde_json::from_str(&out(&run(&["rules", "--format", "json"]))).unwrap();
    let rules = v["rules"].as_array().unwrap();
    let r = rules
        .iter()
        .find(|r| r["id"] == "resource-from-untrusted-source")
        .unwrap();
    assert_eq!(r["agenteval_alias"], "ResourceFromUntrustedSource");
    assert_eq!(r["agenteval_number"], 9);
    assert_eq!(r["severity"], "medium");
    assert!(r["never_fires"].as_str().unwrap().contains("MCP"));
    // All fifteen AgentEval numbers, once each.
    let mut numbers: Vec<u64> = rules
        .iter()
        .filter_map(|r| r["agenteval_number"].as_u64())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (0..15).collect::<Vec<u64>>());
    assert!(
        rules
            .iter()
            .filter(|r| r["id"] != "resource-from-untrusted-source")
            .all(|r| r["never_fires"].is_null())
    );
}

#[test]
fn explain_answers_by_id_alias_and_number() {
    let by_id = out(&run(&["explain", "resource-from-untrusted-source"]));
    assert!(
        by_id.starts_with("resource-from-untrusted-source — "),
        "{by_id}"
    );
    assert!(
        by_id.contains("AgentEval: ResourceFromUntrustedSource (#9)"),
        "{by_id}"
    );
    assert!(by_id.contains("Never fires: "), "{by_id}");
    assert!(by_id.contains("## Why it matters"), "{by_id}");
    assert_eq!(
        out(&run(&["explain", "ResourceFromUntrustedSource"])),
        by_id
    );
    assert_eq!(out(&run(&["explain", "9"])), by_id);
    let fourteen = out(&run(&["explain", "14"]));
    assert!(
        fourteen.starts_with("manifest-changed-since-baseline — "),
        "{fourteen}"
    );
    assert_ne!(run(&["explain", "15"]).status.code(), Some(0));
}
