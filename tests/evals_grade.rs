//! `skillguard evals grade` on `fixtures/evals/grade`: the known pass@k and pass^k values
//! (c = 0, c = n, k = n, the n > k estimators, missing samples), the gates and their exit
//! codes, `--compare`, and bad input (exit 2 naming the file).

mod common;

use std::process::Output;

const F: &str = "fixtures/evals/grade";

fn grade(args: &[&str]) -> Output {
    common::bin()
        .args(["evals", "grade", "--strict"])
        .args(args)
        .output()
        .expect("run skillguard")
}

fn evals(file: &str) -> String {
    format!("{F}/{file}")
}

fn outputs() -> String {
    format!("{F}/outputs")
}

fn json(args: &[&str]) -> (serde_json::Value, i32) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let o = grade(&all);
    let v = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&o.stderr)));
    (v, o.status.code().unwrap())
}

fn case<'a>(v: &'a serde_json::Value, id: &str) -> &'a serde_json::Value {
    v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

fn close(v: &serde_json::Value, want: f64) -> bool {
    v.as_f64().is_some_and(|x| (x - want).abs() < 1e-9)
}

/// (id, n, c, missing, k, pass@k, pass^k) with `-k 3`.
const K3: &[(&str, u64, u64, u64, u64, f64, f64)] = &[
    ("cap-all", 3, 3, 0, 3, 1.0, 1.0),      // c = n = k
    ("cap-none", 3, 0, 0, 3, 0.0, 0.0),     // c = 0, exact match
    ("cap-some", 5, 2, 0, 3, 0.9, 0.0),     // 1 − C(3,3)/C(5,3); C(2,3) = 0
    ("cap-missing", 4, 1, 1, 3, 0.75, 0.0), // sample-3 missing (a failure): 1 − C(3,3)/C(4,3)
    ("reg-stable", 3, 3, 0, 3, 1.0, 1.0),   // exact with "\n", none and "\r\n"
    ("reg-flaky", 5, 4, 0, 3, 1.0, 0.4),    // C(4,3)/C(5,3)
];

#[test]
fn known_values_with_k_3() {
    let (v, code) = json(&[&evals("evals.json"), "--outputs", &outputs(), "-k", "3"]);
    assert_eq!(v["schema"], "skillguard-evals-grade/1");
    assert_eq!(v["k"], 3);
    let ids: Vec<&str> = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        K3.iter().map(|r| r.0).collect::<Vec<_>>(),
        "file order"
    );
    for &(id, n, c, missing, k, at, hat) in K3 {
        let x = case(&v, id);
        assert_eq!(
            (
                x["n"].as_u64(),
                x["c"].as_u64(),
                x["missing"].as_u64(),
                x["k"].as_u64()
            ),
            (Some(n), Some(c), Some(missing), Some(k)),
            "{id}"
        );
        assert!(close(&x["pass_at_k"], at), "{id} pass@k {}", x["pass_at_k"]);
        assert!(
            close(&x["pass_hat_k"], hat),
            "{id} pass^k {}",
            x["pass_hat_k"]
        );
    }
    assert_eq!(
        case(&v, "cap-missing")["samples"],
        serde_json::json!(["pass", "fail", "missing", "fail"])
    );
    let cap = &v["sets"]["capability"];
    assert!(close(&cap["pass_at_k"], 0.6625)); // (1 + 0 + 0.9 + 0.75) / 4
    assert!(close(&cap["pass_hat_k"], 0.25));
    assert_eq!(cap["missing"], 1);
    assert_eq!(cap["passed"], false); // default --min-capability 1: cap-none is never solved
    let reg = &v["sets"]["regression"];
    assert!(close(&reg["pass_hat_k"], 0.7)); // (1 + 0.4) / 2
    assert_eq!(reg["gate"], "pass_hat_k");
    assert_eq!(reg["passed"], false); // default --min-regression 1
    assert_eq!(v["passed"], false);
    assert_eq!(code, 1);
}

#[test]
fn without_k_every_sample_counts() {
    let (v, code) = json(&[&evals("evals.json"), "--outputs", &outputs()]);
    assert!(v["k"].is_null());
    for (id, k, at, hat) in [
        ("cap-some", 5, 1.0, 0.0),
        ("cap-missing", 4, 1.0, 0.0),
        ("reg-flaky", 5, 1.0, 0.0),
    ] {
        let x = case(&v, id);
        assert_eq!(x["k"], k, "{id}");
        assert!(
            close(&x["pass_at_k"], at) && close(&x["pass_hat_k"], hat),
            "{id}"
        );
    }
    assert!(close(&v["sets"]["regression"]["pass_hat_k"], 0.5));
    assert_eq!(code, 1);
}

#[test]
fn gates_decide_the_exit_code() {
    let e = evals("evals.json");
    let o = outputs();
    let code = |extra: &[&str]| {
        let mut a = vec![e.as_str(), "--outputs", o.as_str(), "-k", "3"];
        a.extend(extra);
        grade(&a).status.code().unwrap()
    };
    // The capability gate defaults to 1 (every case solved at least once in k).
    assert_eq!(code(&["--min-regression", "0.7"]), 1);
    assert_eq!(
        code(&["--min-regression", "0.7", "--min-capability", "0"]),
        0
    );
    assert_eq!(
        code(&["--min-regression", "0.71", "--min-capability", "0"]),
        1
    );
    assert_eq!(
        code(&["--min-regression", "0.7", "--min-capability", "0.6625"]),
        0
    );
    assert_eq!(
        code(&["--min-regression", "0.7", "--min-capability", "0.7"]),
        1
    );
    assert_eq!(code(&["--min-regression", "1.5"]), 2); // out of range: a usage error
}

#[test]
fn k_above_n_is_bad_input() {
    let o = grade(&[&evals("evals.json"), "--outputs", &outputs(), "-k", "4"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cap-all") && err.contains("k = 4"), "{err}");
}

#[test]
fn bad_input_exits_2_naming_the_file() {
    for (file, says) in [
        // The messages of the reader `scan` uses too (`eval-file-invalid`).
        (
            "bad-regex.json",
            "is not a regular expression that compiles",
        ),
        ("unsafe-id.json", "not a safe folder name"),
        ("duplicate-id.json", "is used again"),
        (
            "bad-set.json",
            "`set: smoke` is neither `capability` nor `regression`",
        ),
        ("missing-folder.json", "missing outputs folder"),
        ("no-such-file.json", "cannot read"),
    ] {
        let o = grade(&[&evals(file), "--outputs", &outputs()]);
        assert_eq!(o.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{file}: {err}");
        let named = if file == "missing-folder.json" {
            "no-such-case"
        } else {
            file
        };
        assert!(err.contains(named), "{file}: {err}");
        assert!(o.stdout.is_empty(), "{file}");
    }
    let o = grade(&[
        &evals("evals.json"),
        "--outputs",
        "fixtures/evals/grade/nope",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn unreadable_or_oversized_sample_is_bad_input() {
    let d = tempfile::tempdir().unwrap();
    let ev = d.path().join("evals.json");
    std::fs::write(
        &ev,
        r#"{"cases":[{"id":"a","set":"regression","prompt":"p","expect":"x","match":"contains"}]}"#,
    )
    .unwrap();
    let out = d.path().join("out");
    std::fs::create_dir_all(out.join("a/sample-1.txt")).unwrap(); // a folder, not a file
    let o = grade(&[ev.to_str().unwrap(), "--outputs", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("sample-1.txt"));
    std::fs::remove_dir(out.join("a/sample-1.txt")).unwrap();
    std::fs::write(out.join("a/sample-1.txt"), vec![b'x'; 1024 * 1024 + 1]).unwrap();
    let o = grade(&[ev.to_str().unwrap(), "--outputs", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("larger than"));
    // No samples at all: n = 0 < k.
    std::fs::remove_file(out.join("a/sample-1.txt")).unwrap();
    let o = grade(&[ev.to_str().unwrap(), "--outputs", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn compare_names_dropped_and_disappeared_cases() {
    let (v, code) = json(&[
        &evals("evals.json"),
        "--outputs",
        &outputs(),
        "-k",
        "3",
        "--min-regression",
        "0.7",
        "--min-capability",
        "0",
        "--compare",
        &evals("previous.json"),
    ]);
    assert_eq!(code, 1);
    let regs = v["compare"]["regressions"].as_array().unwrap();
    let got: Vec<(&str, &str)> = regs
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [("reg-flaky", "dropped"), ("reg-removed", "disappeared")]
    );
    assert!(close(&regs[0]["previous_pass_hat_k"], 1.0) && close(&regs[0]["pass_hat_k"], 0.4));
    assert!(regs[1]["pass_hat_k"].is_null());
    // Against itself nothing regressed.
    let d = tempfile::tempdir().unwrap();
    let me = d.path().join("me.json");
    let base = [
        evals("evals.json"),
        "--outputs".into(),
        outputs(),
        "-k".into(),
        "3".into(),
        "--min-regression".into(),
        "0.7".into(),
        "--min-capability".into(),
        "0".into(),
    ];
    let mut a: Vec<&str> = base.iter().map(String::as_str).collect();
    a.extend(["--format", "json", "-o", me.to_str().unwrap()]);
    assert_eq!(grade(&a).status.code(), Some(0));
    let mut a: Vec<&str> = base.iter().map(String::as_str).collect();
    a.extend(["--compare", me.to_str().unwrap()]);
    let o = grade(&a);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("0 regression(s)"));
    // A file that is not a result is bad input.
    a.pop();
    a.push("fixtures/evals/grade/evals.json");
    assert_eq!(grade(&a).status.code(), Some(2));
}

#[test]
fn json_is_deterministic_and_markdown_and_console_show_the_values() {
    let args = [
        evals("evals.json"),
        "--outputs".into(),
        outputs(),
        "-k".into(),
        "3".into(),
    ];
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let one = grade(&[a.clone(), vec!["--format", "json"]].concat()).stdout;
    let two = grade(&[a.clone(), vec!["--format", "json"]].concat()).stdout;
    assert_eq!(one, two);
    let md = String::from_utf8(grade(&[a.clone(), vec!["--format", "markdown"]].concat()).stdout)
        .unwrap();
    assert!(
        md.contains("| cap-some | capability | regex | 5 | 2 | 0 | 3 | 0.900 | 0.000 |"),
        "{md}"
    );
    assert!(
        md.contains("| regression | 2 | 8 | 7 | 0 | 1.000 | 0.700 | pass^k ≥ 1 → FAIL |"),
        "{md}"
    );
    let con = String::from_utf8(grade(&a).stdout).unwrap();
    assert!(
        con.contains("reg-flaky  n=5 c=4 missing=0 k=3  pass@k=1.000 pass^k=0.400"),
        "{con}"
    );
    assert!(con.contains("result: FAIL"));
}

/// pass^k falls as k grows: a result graded at k = 1 and one at k = 3 of the same samples are
/// compared at the smaller k, so nothing "regresses" and nothing is hidden.
#[test]
fn compare_across_different_k_compares_like_with_like() {
    let t = tempfile::tempdir().unwrap();
    let e = evals("evals.json");
    let o = outputs();
    for (k_prev, k_now) in [("1", "3"), ("3", "1")] {
        let prev = t.path().join(format!("k{k_prev}.json"));
        let out = grade(&[
            &e,
            "--outputs",
            &o,
            "-k",
            k_prev,
            "--format",
            "json",
            "-o",
            prev.to_str().unwrap(),
        ]);
        assert!(prev.is_file(), "{}", String::from_utf8_lossy(&out.stderr));
        let (v, _) = json(&[
            &e,
            "--outputs",
            &o,
            "-k",
            k_now,
            "--compare",
            prev.to_str().unwrap(),
        ]);
        assert_eq!(
            v["compare"]["regressions"].as_array().unwrap().len(),
            0,
            "{k_prev} → {k_now}: {}",
            v["compare"]
        );
    }
    // A real drop across k is still found: the previous result claims every sample of
    // reg-flaky passed (5 of 5 at k = 5); now 4 of 5 pass, compared at k = 3.
    let (mut prev, _) = json(&[&e, "--outputs", &o, "-k", "3"]);
    for c in prev["cases"].as_array_mut().unwrap() {
        if c["id"] == "reg-flaky" {
            c["c"] = 5.into();
            c["k"] = 5.into();
            c["pass_at_k"] = 1.0.into();
            c["pass_hat_k"] = 1.0.into();
            c["samples"] = serde_json::json!(["pass", "pass", "pass", "pass", "pass"]);
        }
    }
    let p = t.path().join("prev.json");
    std::fs::write(&p, serde_json::to_vec(&prev).unwrap()).unwrap();
    let (v, code) = json(&[
        &e,
        "--outputs",
        &o,
        "-k",
        "3",
        "--compare",
        p.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let r = &v["compare"]["regressions"][0];
    assert_eq!(
        (r["id"].as_str(), r["k"].as_u64()),
        (Some("reg-flaky"), Some(3))
    );
    assert!(
        close(&r["previous_pass_hat_k"], 1.0) && close(&r["pass_hat_k"], 0.4),
        "{r}"
    );
}

#[test]
fn a_previous_result_whose_scores_do_not_add_up_is_refused() {
    let t = tempfile::tempdir().unwrap();
    let e = evals("evals.json");
    let o = outputs();
    let (mut prev, _) = json(&[&e, "--outputs", &o, "-k", "3"]);
    prev["cases"][0]["pass_hat_k"] = 0.5.into();
    let p = t.path().join("edited.json");
    std::fs::write(&p, serde_json::to_vec(&prev).unwrap()).unwrap();
    let out = grade(&[
        &e,
        "--outputs",
        &o,
        "-k",
        "3",
        "--compare",
        p.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("are not those of n = ") && err.contains("edited.json"),
        "{err}"
    );
}

#[test]
fn a_byte_order_mark_is_read_and_an_empty_case_folder_is_named() {
    let t = tempfile::tempdir().unwrap();
    let ev = t.path().join("evals.json");
    let body =
        r#"{"cases":[{"id":"a","set":"capability","prompt":"p","expect":"x","match":"contains"}]}"#;
    std::fs::write(&ev, [b"\xEF\xBB\xBF".as_slice(), body.as_bytes()].concat()).unwrap();
    let out_dir = t.path().join("out");
    std::fs::create_dir_all(out_dir.join("a")).unwrap();
    let o = grade(&[ev.to_str().unwrap(), "--outputs", out_dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no sample-<n>.txt in") && err.contains("case `a`"),
        "{err}"
    );
    std::fs::write(out_dir.join("a/sample-1.txt"), "x").unwrap();
    let o = grade(&[ev.to_str().unwrap(), "--outputs", out_dir.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[cfg(unix)]
#[test]
fn a_linked_sample_is_refused_not_followed() {
    let d = tempfile::tempdir().unwrap();
    let ev = d.path().join("evals.json");
    std::fs::write(
        &ev,
        r#"{"cases":[{"id":"a","set":"regression","prompt":"p","expect":"root","match":"contains"}]}"#,
    )
    .unwrap();
    let out = d.path().join("out");
    std::fs::create_dir_all(out.join("a")).unwrap();
    std::fs::write(d.path().join("secret.txt"), "root:x:0:0").unwrap();
    std::os::unix::fs::symlink(d.path().join("secret.txt"), out.join("a/sample-1.txt")).unwrap();
    let o = grade(&[ev.to_str().unwrap(), "--outputs", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("sample-1.txt") && e.contains("symbolic link"),
        "{e}"
    );
}

#[test]
fn a_thousand_ordinary_cases_are_read() {
    let d = tempfile::tempdir().unwrap();
    let ev = d.path().join("evals.json");
    let out = d.path().join("out");
    let mut cases = Vec::new();
    for i in 0..1_000 {
        cases.push(format!(
            r#"{{"id":"c{i}","set":"regression","prompt":"p{i}","expect":"ok","match":"contains"}}"#
        ));
        std::fs::create_dir_all(out.join(format!("c{i}"))).unwrap();
        std::fs::write(out.join(format!("c{i}/sample-1.txt")), "ok").unwrap();
    }
    std::fs::write(&ev, format!("{{\"cases\":[{}]}}", cases.join(","))).unwrap();
    let o = grade(&[ev.to_str().unwrap(), "--outputs", out.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
