//! The report model's round trip, for the tests that check reports (`report_schema`,
//! `shard_merge`). Kept out of `common/mod.rs` so that the other test crates do not compile
//! the model's serde code for nothing; include it with
//! `#[path = "common/round_trip.rs"] mod round_trip;`.

/// Reads the JSON report `v` into the report model (`skillguard::report::model::Report`, what
/// `skillguard merge` reads) and serialises it again: the result equals `v` but for the index
/// objects, which the model writes and does not read (`Report::index`, `Entry::index`). So
/// the model cannot drift from the writer: a property written and not read back (or read
/// back as something else) fails here.
pub fn assert_model_round_trips(v: &serde_json::Value, what: &str) {
    let read: skillguard::report::model::Report = serde_json::from_value(v.clone())
        .unwrap_or_else(|e| panic!("{what}: the report model does not read the report: {e}"));
    let back = serde_json::to_value(&read).unwrap();
    let mut want = v.clone();
    let doc = want.as_object_mut().expect("a report is an object");
    doc.remove("index");
    for list in ["skills", "agents"] {
        for e in doc
            .get_mut(list)
            .and_then(|l| l.as_array_mut())
            .into_iter()
            .flatten()
        {
            e.as_object_mut()
                .expect("an entry is an object")
                .remove("index");
        }
    }
    if let Some(at) = first_difference(&back, &want, String::new()) {
        panic!("{what}: the report read into the model and written again differs at `{at}`");
    }
}

/// The path of the first place where `a` and `b` differ (`findings/3/message`), if any.
fn first_difference(a: &serde_json::Value, b: &serde_json::Value, at: String) -> Option<String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.keys()
                .chain(y.keys())
                .find_map(|k| match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => first_difference(p, q, format!("{at}/{k}")),
                    _ => Some(format!("{at}/{k}")),
                })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (p, q))| first_difference(p, q, format!("{at}/{i}"))),
        _ => (a != b).then_some(at),
    }
}
