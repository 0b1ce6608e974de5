//! Evaluations of skills and agents. [`grade`] is the agent-evals fallback
//! harness: an `evals.json` case file, the sample outputs of k runs per case, the
//! deterministic matchers, pass@k and pass^k per case and per set, the gates and the
//! comparison with a previous result. A layer of its own just above the parsers: it
//! reads files it is given and imports only the helpers (never the scan, the reports or
//! the baselines). See `docs/evals.md`.

pub mod cases;
pub mod grade;
pub mod harness;
pub mod pattern;
pub mod tools;
