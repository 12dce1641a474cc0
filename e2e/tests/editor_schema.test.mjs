// The published JSON Schema in the clients users put it in: ajv (draft 2020-12, strict mode) and
// VS Code's own JSON engine (vscode-json-languageservice, which VS Code's JSON extension bundles).
// Every variant (43 releases x 3 launchers x 2 languages) must compile in ajv strict mode, and the
// corpus must meet each release's own verdicts (../shared/deepspeed/releases): no problem on a
// config the release accepts, every removed section flagged; the HF variants against HF's own
// verdicts (shared/tests/fixtures/hf/verdicts.jsonl); a hover on every live key.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ajv2020 from "ajv/dist/2020.js";
import jsonc from "jsonc-parser";
import jsonLanguageService from "vscode-json-languageservice";
import { TextDocument } from "vscode-languageserver-textdocument";

const Ajv2020 = ajv2020.default ?? ajv2020;
const parseJsonc = jsonc.parse;
const { getLanguageService, DiagnosticSeverity } = jsonLanguageService;

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const shared = process.env.DS_SHARED_DIR ?? join(root, "..", "shared");
const bin = resolve(process.env.DS_STUDIO_BIN ?? join(root, "target", "release", "ds-studio"));
// VS Code's annotation keywords, which the schema uses besides JSON Schema's own.
const EDITOR_KEYWORDS = ["markdownDescription", "deprecationMessage", "errorMessage", "patternErrorMessage"];

const releases = JSON.parse(readFileSync(join(root, "shared/data/releases.json"), "utf8")).releases;
const corpusDir = join(shared, "deepspeed/corpus/configs");
const corpus = Object.fromEntries(
  readdirSync(corpusDir).map((f) => [f, readFileSync(join(corpusDir, f), "utf8")]),
);
const lines = (p) => readFileSync(p, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));

function schemaOf(release, launcher = "deepspeed", lang = "en", extra = []) {
  const out = execFileSync(bin, ["schema", "--deepspeed", release, "--launcher", launcher, "--lang", lang, ...extra], {
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out.toString());
}

function strictAjv(vocabulary = true) {
  const ajv = new Ajv2020({
    strict: true,
    strictSchema: true,
    strictTypes: true,
    strictTuples: true,
    strictRequired: true,
    allowUnionTypes: false,
    allErrors: true,
  });
  if (vocabulary) ajv.addVocabulary(EDITOR_KEYWORDS);
  return ajv;
}

/// The value a release parses: hjson-only constructs aside, JSONC is what the corpus holds.
function valueOf(text) {
  const errors = [];
  const v = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length ? undefined : v;
}

function languageService(schema) {
  const ls = getLanguageService({ schemaRequestService: async (uri) => { throw new Error(`no network: ${uri}`); } });
  ls.configure({ validate: true, allowComments: true, schemas: [{ uri: "mem://ds.schema.json", fileMatch: ["*.json"], schema }] });
  return ls;
}

async function problems(ls, text) {
  const doc = TextDocument.create("file:///ds_config.json", "json", 1, text);
  const diags = await ls.doValidation(doc, ls.parseJSONDocument(doc), { comments: "ignore", trailingCommas: "ignore", schemaValidation: "error", schemaRequest: "error" });
  return diags.map((d) => ({ ...d, line: d.range.start.line + 1, text: doc.getText(d.range).slice(0, 60) }));
}
const errorsOnly = (ds) => ds.filter((d) => d.severity === DiagnosticSeverity.Error);

/// The parser verdict of each corpus file at each release (any world size).
function acceptedAt() {
  const accepted = new Map(); // release -> Set(file)
  for (const r of releases) accepted.set(r, new Set());
  const index = releases.reduce((m, r, i) => m.set(r, i), new Map());
  for (const row of lines(join(shared, "deepspeed/releases/corpus-verdicts.jsonl"))) {
    for (const span of row.by_release) {
      if (span.verdict !== "accepted") continue;
      for (let i = index.get(span.from); i <= index.get(span.to); i++) accepted.get(releases[i]).add(row.file);
    }
  }
  return accepted;
}

/// Removed keys (registry paths without placeholders) and the first release that refuses each.
const removedKeys = Object.entries(JSON.parse(readFileSync(join(root, "shared/data/releases.json"), "utf8")).keys)
  .filter(([, v]) => v.removed_in)
  .map(([k, v]) => [k.split("."), v.removed_in]);
const has = (value, path) => path.reduce((v, k) => (v && typeof v === "object" && k in v ? v[k] : undefined), value) !== undefined;

/// What `ds-studio validate` says of every corpus file at a release: file -> diagnostics.
const validated = new Map();
function validatorSays(release, file) {
  if (!validated.has(release)) {
    const names = Object.keys(corpus);
    let out;
    try {
      out = execFileSync(bin, ["validate", "--deepspeed", release, "--format", "json", ...names], { cwd: corpusDir, maxBuffer: 64 << 20 });
    } catch (e) {
      out = e.stdout; // exit 1: some config is rejected
    }
    const byFile = new Map(out.toString().split("\n").filter(Boolean).map((l) => JSON.parse(l)).map((r) => [r.file, r.diagnostics]));
    validated.set(release, byFile);
  }
  return validated.get(release).get(file) ?? [];
}

/// The parser verdicts stop before the engine starts; where the schema refuses what the parser
/// takes, it must be what DeepSpeed refuses at engine start (an unknown optimizer parameter, a
/// removed optimizer) and what `ds-studio validate` refuses there too, at the same key.
function engineRefuses(release, file, ajvErrors) {
  const leaves = ajvErrors.filter((e) => !["if", "anyOf", "allOf"].includes(e.keyword)).map((e) => e.instancePath);
  const says = validatorSays(release, file).filter((d) => d.severity === "error" && /engine start/.test(d.message));
  return leaves.length > 0 && leaves.every((p) => says.some((d) => d.path === p));
}

test("every variant compiles in ajv strict mode (draft 2020-12), and the standard-keywords one with no vocabulary", () => {
  let compiled = 0;
  for (const release of releases) {
    for (const launcher of ["deepspeed", "hf-trainer", "accelerate"]) {
      for (const lang of ["en", "zh"]) {
        strictAjv().compile(schemaOf(release, launcher, lang));
        compiled++;
      }
    }
  }
  strictAjv(false).compile(schemaOf("0.19.8", "deepspeed", "en", ["--standard-keywords"]));
  assert.equal(compiled, releases.length * 6);
});

test("per release: the corpus configs each release accepts raise no error in ajv nor in VS Code's engine; removed sections are flagged", async () => {
  const accepted = acceptedAt();
  const falseAlarms = [];
  const missed = [];
  let checked = 0;
  for (const release of releases) {
    const schema = schemaOf(release);
    const validate = strictAjv().compile(schema);
    const ls = languageService(schema);
    for (const [file, text] of Object.entries(corpus)) {
      const value = valueOf(text);
      if (value === undefined) continue; // hjson-only syntax: not JSON for either client
      const isAccepted = accepted.get(release).has(file);
      const removed = removedKeys.filter(([path, from]) => has(value, path) && releases.indexOf(release) >= releases.indexOf(from));
      if (!isAccepted && removed.length === 0) continue;
      const ajvOk = validate(value);
      const vs = errorsOnly(await problems(ls, text));
      checked++;
      if (isAccepted && (!ajvOk || vs.length) && !engineRefuses(release, file, validate.errors ?? [])) {
        falseAlarms.push(`${release} ${file}: ajv ${JSON.stringify(validate.errors?.slice(0, 2))} vscode ${JSON.stringify(vs.slice(0, 2).map((d) => `${d.line}: ${d.message}`))}`);
      }
      if (removed.length && (ajvOk || vs.length === 0)) missed.push(`${release} ${file}: ${removed.map(([p]) => p.join(".")).join(", ")}`);
    }
  }
  console.log(`corpus x releases: ${checked} checked, ${falseAlarms.length} false alarms, ${missed.length} removed sections missed`);
  // SCHEMA_REPORT=file keeps the whole list for a look.
  if (process.env.SCHEMA_REPORT) writeFileSync(process.env.SCHEMA_REPORT, [...falseAlarms, ...missed].join("\n"));
  assert.deepEqual(falseAlarms, []);
  assert.deepEqual(missed, []);
  assert.ok(checked > releases.length * 50, `only ${checked} checked`);
});

test("the HF variants: no error on a corpus config HF's own code accepts under the default arguments", async () => {
  const verdicts = lines(join(root, "shared/tests/fixtures/hf/verdicts.jsonl")).filter((v) => v.args === "defaults");
  const falseAlarms = [];
  let checked = 0;
  for (const launcher of ["hf-trainer", "accelerate"]) {
    const schema = schemaOf("0.19.8", launcher);
    const validate = strictAjv().compile(schema);
    const ls = languageService(schema);
    const ok = new Set(verdicts.filter((v) => v.launcher === launcher && v.verdict === "accepted").map((v) => v.id));
    for (const file of ok) {
      const text = corpus[file];
      const value = text && valueOf(text);
      if (value === undefined) continue;
      const vs = errorsOnly(await problems(ls, text));
      checked++;
      if (!validate(value) || vs.length) falseAlarms.push(`${launcher} ${file}: ajv ${JSON.stringify(validate.errors?.slice(0, 2))} vscode ${JSON.stringify(vs.slice(0, 2).map((d) => d.message))}`);
    }
  }
  console.log(`HF variants: ${checked} accepted configs checked, ${falseAlarms.length} false alarms`);
  if (process.env.SCHEMA_REPORT) writeFileSync(`${process.env.SCHEMA_REPORT}.hf`, falseAlarms.join("\n"));
  assert.deepEqual(falseAlarms, []);
  assert.ok(checked >= 60, `only ${checked} checked`);
});

test("the false alarms VS Code used to raise are gone, and what a schema can catch is caught", async () => {
  const ls = languageService(schemaOf("0.19.8"));
  const quiet = [
    '{"train_batch_size": 8, "fp16": {"enabled": true, "min_loss_scale": 0.0}}',
    '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": 50000000.0}}',
    '{"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": null}',
    '{"train_batch_size": 8, "fp16": {"enabled": "auto"}}',
    '{"train_batch_size": 8, "bfloat16": {"enabled": true}}',
    '{"train_batch_size": 8, "zero_optimization": {"stage": "3"}, "fp16": {"initial_scale_power": "16"}}',
    '{"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "betas": [0.9, 0.95]}}}',
  ];
  for (const text of quiet) assert.deepEqual(errorsOnly(await problems(ls, text)).map((d) => d.message), [], text);
  const caught = [
    ['{"train_batch_size": 8, "amp": {"enabled": true}}', /removed in DeepSpeed 0\.19\.8/],
    ['{"train_batch_size": 8, "optimizer": {"type": "OneBitAdam"}}', /removed in DeepSpeed 0\.19\.7/],
    ['{"train_batch_size": 8, "fp16": {"enabled": true}, "bf16": {"enabled": true}}', /cannot be simultaneously enabled/],
    ['{"gradient_clipping": 1.0}', /train_batch_size or train_micro_batch_size_per_gpu/],
    ['{"train_batch_size": 8, "optimizer": {"type": "Lamb", "params": {"lr": 1e-3, "betaz": [0.9, 0.99]}}}', /not a parameter of/],
    ['{"train_batch_size": 8, "optimizer": {"type": "Adam", "params": {"max_grad_norm": 1.0}}}', /gradient_clipping/],
    ['{"train_batch_size": "auto"}', /only the HF Trainer and Accelerate/],
    ['{"train_batch_size": 8, "zero_optimization": {"stage": 5}}', /one of 0, 1, 2, 3/],
  ];
  for (const [text, why] of caught) {
    const ds = await problems(ls, text);
    assert.ok(ds.some((d) => why.test(d.message)), `${text}: ${JSON.stringify(ds.map((d) => d.message))}`);
  }
  // An unknown key: refused on the key in a checked section, a warning at the top level (which
  // DeepSpeed does not check); an unknown scheduler parameter names the scheduler.
  const typo = await problems(ls, '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "overlap_comms": true}}');
  assert.ok(typo.some((d) => d.message === "Property overlap_comms is not allowed." && d.text === '"overlap_comms"'), JSON.stringify(typo));
  const top = await problems(ls, '{"train_batch_size": 8, "gradient_acumulation_steps": 4}');
  assert.ok(top.some((d) => d.severity === DiagnosticSeverity.Warning && /ignores it/.test(d.message) && d.text.startsWith('"gradient_acumulation_steps"')), JSON.stringify(top));
  const sched = await problems(ls, '{"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {"total_num_steps": 10}}}');
  assert.ok(sched.some((d) => /not a parameter of WarmupLR/.test(d.message)), JSON.stringify(sched));
  // fp16 with bf16: said on bf16's `enabled`, not across the whole file.
  const both = await problems(ls, '{"train_batch_size": 8,\n "fp16": {"enabled": true},\n "bf16": {"enabled": true}}');
  const clash = both.find((d) => /simultaneously/.test(d.message));
  assert.equal(clash?.line, 3, JSON.stringify(both));
  // A deprecated key is a warning naming its replacement.
  const dep = await problems(ls, '{"train_batch_size": 8, "bfloat16": {"enabled": true}}');
  assert.ok(dep.some((d) => d.severity === DiagnosticSeverity.Warning && /use `bf16`/.test(d.message)), JSON.stringify(dep));
  // "auto" in the HF Trainer's variant: taken where it fills it, refused (with HF's words) where not.
  const hf = languageService(schemaOf("0.19.8", "hf-trainer"));
  assert.deepEqual(errorsOnly(await problems(hf, '{"train_batch_size": "auto", "bf16": {"enabled": "auto"}, "optimizer": {"type": "AdamW", "params": {"lr": "auto"}}}')), []);
  const unfilled = await problems(hf, '{"train_batch_size": "auto", "zero_optimization": {"stage": 3, "sub_group_size": "auto"}}');
  assert.ok(unfilled.some((d) => /not found in kwargs/.test(d.message)), JSON.stringify(unfilled));
  // Chinese messages in the Chinese variant.
  const zh = languageService(schemaOf("0.19.8", "deepspeed", "zh"));
  const zhDs = await problems(zh, '{"train_batch_size": 8, "fp16": {"enabled": true}, "bf16": {"enabled": true}}');
  assert.ok(zhDs.some((d) => /不能同时启用/.test(d.message)), JSON.stringify(zhDs));
});

test("a hover on every live key of the newest release, in English and Chinese", async () => {
  const keys = JSON.parse(readFileSync(join(root, "shared/data/keys.json"), "utf8"));
  const docsDir = join(root, "shared/data/docs");
  const docs = Object.assign({}, ...readdirSync(docsDir).map((f) => JSON.parse(readFileSync(join(docsDir, f), "utf8"))));
  const spans = JSON.parse(readFileSync(join(root, "shared/data/releases.json"), "utf8")).keys;
  const live = keys.filter((k) => !k.path.includes("<") && !k.removed && !(spans[k.path]?.removed_in) && !(spans[k.path]?.until));
  for (const lang of ["en", "zh"]) {
    const ls = languageService(schemaOf("0.19.8", "deepspeed", lang));
    const missing = [];
    for (const k of live) {
      const parts = k.path.split(".");
      // {"a": {"b": {"c": null}}}: the hover sits on the last key.
      let text = "";
      parts.forEach((p, i) => (text += `{"${p}": ` + (i === parts.length - 1 ? "null" : "")));
      text += "}".repeat(parts.length);
      const doc = TextDocument.create("file:///ds_config.json", "json", 1, text);
      const at = text.lastIndexOf(`"${parts.at(-1)}"`) + 2;
      const hover = await ls.doHover(doc, doc.positionAt(at), ls.parseJSONDocument(doc));
      const flat = (c) => (typeof c === "string" ? c : Array.isArray(c) ? c.map(flat).join("\n") : c?.value ?? "");
      const contents = flat(hover?.contents);
      const doc0 = docs[k.path]?.[lang] ?? "";
      if (!hover || !doc0 || !contents.includes(doc0.slice(0, 24))) missing.push(k.path);
    }
    console.log(`hover (${lang}): ${live.length - missing.length}/${live.length} live keys: missing ${missing.join(", ")}`);
    assert.deepEqual(missing, []);
  }
});
