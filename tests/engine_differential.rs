//! The Vectorscan prefilter changes nothing but speed: every report is byte-identical to the
//! pure-Rust engine's (`SKILLGUARD_ENGINE=regex`), with the literals alone in the database
//! (the default) and with the regexes' supersets too (`SKILLGUARD_VECTORSCAN_REGEXES=1`), on
//! every rule example and look-alike (`fixtures/rules`), the labelled set (the tuning,
//! held-out and blind parts of `fixtures/security-eval`), the demo, the calibration and
//! eval fixtures. (`../shared/corpora` is compared the same way in docs/performance.md; tests
//! do not depend on it.)
#![cfg(feature = "vectorscan")]

mod common;

use std::path::Path;

use common::bin;

/// The JSON report of `skillguard scan ARGS` under the environment `env`.
fn report(args: &[&str], env: &[(&str, &str)]) -> Vec<u8> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = bin()
        .current_dir(root)
        .args(["scan", "--format", "json", "-q"])
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{args:?} {env:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stdout.len() > 1000, "{args:?}: no report");
    o.stdout
}

fn same(args: &[&str], with_regexes: bool) {
    let pure = report(args, &[("SKILLGUARD_ENGINE", "regex")]);
    let vs = report(args, &[("SKILLGUARD_ENGINE", "vectorscan")]);
    assert!(
        pure == vs,
        "{args:?}: the Vectorscan literal pass changed the report"
    );
    if with_regexes {
        let vr = report(
            args,
            &[
                ("SKILLGUARD_ENGINE", "vectorscan"),
                ("SKILLGUARD_VECTORSCAN_REGEXES", "1"),
            ],
        );
        assert!(
            pure == vr,
            "{args:?}: the Vectorscan regex prefilter changed the report"
        );
    }
}

#[test]
fn the_labelled_set_gives_the_same_report_with_either_engine() {
    same(&["fixtures/security-eval"], true);
}

#[test]
fn every_rule_fixture_gives_the_same_report_with_either_engine() {
    same(&["fixtures/rules"], true);
}

#[test]
fn the_other_fixtures_give_the_same_report_with_either_engine() {
    same(&["--repo", "fixtures/demo"], false);
    same(&["fixtures/calibration"], false);
    same(&["fixtures/evals"], false);
}
