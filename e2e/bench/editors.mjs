// `cargo xtask bench-editors`: what the editor integrations cost, as figures with a baseline
// measured in the same run.
// 1. The JSON Schema's size per variant (bytes, gzip).
// 2. VS Code's JSON engine (vscode-json-languageservice) validating each corpus file against the
//    schema, against the same engine with no schema (syntax only) as the baseline.
// 3. `ds-studio lsp`: from a keystroke (didChange) to the published diagnostics on a 300-line
//    config, against the round trip of a request the server answers without checking anything
//    (an unknown method) as the baseline; the goal is p95 <= 10 ms.
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import jsonLanguageService from "vscode-json-languageservice";
import { TextDocument } from "vscode-languageserver-textdocument";

const { getLanguageService } = jsonLanguageService;
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const shared = process.env.DS_SHARED_DIR ?? join(root, "..", "shared");
const bin = resolve(process.env.DS_STUDIO_BIN ?? join(root, "target", "release", "ds-studio"));
const corpusDir = join(shared, "deepspeed/corpus/configs");
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x) => x.toFixed(3);

// 1. Schema sizes.
console.log("## JSON Schema size per variant");
console.log("| variant | bytes | gzip |");
console.log("|---|---:|---:|");
const variants = [
  ["0.19.8", "deepspeed", "en", []],
  ["0.19.8", "hf-trainer", "en", []],
  ["0.19.8", "accelerate", "zh", []],
  ["0.19.8", "deepspeed", "en", ["--standard-keywords"]],
  ["0.16.9", "deepspeed", "en", []],
  ["0.14.4", "deepspeed", "en", []],
];
for (const [r, l, lang, extra] of variants) {
  const text = execFileSync(bin, ["schema", "--deepspeed", r, "--launcher", l, "--lang", lang, ...extra], { maxBuffer: 64 << 20 });
  console.log(`| ${r} ${l} ${lang}${extra.length ? " standard keywords" : ""} | ${text.length} | ${gzipSync(text).length} |`);
}

// 2. The language service per file.
const schema = JSON.parse(execFileSync(bin, ["schema"], { maxBuffer: 64 << 20 }));
const corpus = readdirSync(corpusDir).map((f) => readFileSync(join(corpusDir, f), "utf8"));
async function perFile(withSchema) {
  const ls = getLanguageService({});
  ls.configure({ validate: true, allowComments: true, schemas: withSchema ? [{ uri: "mem://ds.json", fileMatch: ["*.json"], schema }] : [] });
  const times = [];
  for (let round = 0; round < 5; round++) {
    for (const [i, text] of corpus.entries()) {
      const doc = TextDocument.create(`file:///c${i}.json`, "json", round, text);
      const t0 = performance.now();
      await ls.doValidation(doc, ls.parseJSONDocument(doc), { comments: "ignore", trailingCommas: "ignore" });
      if (round > 0) times.push(performance.now() - t0); // round 0 warms up (and compiles the schema)
    }
  }
  return times;
}
const base = await perFile(false);
const withSchema = await perFile(true);
console.log("\n## vscode-json-languageservice, per corpus file (120 files x 4 rounds)");
console.log("| | mean ms | p95 ms | vs syntax only |");
console.log("|---|---:|---:|---:|");
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log(`| syntax only (baseline) | ${ms(mean(base))} | ${ms(pct(base, 95))} | 1.0x |`);
console.log(`| with the ds-studio schema | ${ms(mean(withSchema))} | ${ms(pct(withSchema, 95))} | ${(mean(withSchema) / mean(base)).toFixed(1)}x |`);

// 3. ds-studio lsp, keystroke -> diagnostics on a 300-line config.
function bigConfig() {
  // A ZeRO-3 config with every default written out, plus the sections of the largest corpus
  // configs, until it is 300 lines.
  const small = '{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "bf16": {"enabled": true}, "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu"}}, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100}}}';
  const effective = JSON.parse(execFileSync(bin, ["effective", "--format", "json", "--world-size", "8", "-"], { input: small }));
  const config = { ...effective };
  const big = readdirSync(corpusDir)
    .map((f) => readFileSync(join(corpusDir, f), "utf8"))
    .filter((t) => { try { JSON.parse(t); return true; } catch { return false; } })
    .sort((a, b) => b.length - a.length);
  for (const t of big) {
    for (const [k, v] of Object.entries(JSON.parse(t))) if (!(k in config)) config[k] = v;
    if (JSON.stringify(config, null, 2).split("\n").length >= 300) break;
  }
  return JSON.stringify(config, null, 2);
}
const text = bigConfig();
const lineCount = text.split("\n").length;

const server = spawn(bin, ["lsp"], { stdio: ["pipe", "pipe", "inherit"] });
let buffer = Buffer.alloc(0);
const waiting = [];
server.stdout.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const head = buffer.indexOf("\r\n\r\n");
    if (head < 0) return;
    const len = Number(/Content-Length: (\d+)/.exec(buffer.subarray(0, head).toString())[1]);
    if (buffer.length < head + 4 + len) return;
    const msg = JSON.parse(buffer.subarray(head + 4, head + 4 + len).toString());
    buffer = buffer.subarray(head + 4 + len);
    const i = waiting.findIndex((w) => w.match(msg));
    if (i >= 0) waiting.splice(i, 1)[0].resolve(msg);
  }
});
const send = (msg) => {
  const body = JSON.stringify({ jsonrpc: "2.0", ...msg });
  server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
};
const next = (match) => new Promise((resolve) => waiting.push({ match, resolve }));
let id = 0;
async function request(method, params) {
  const my = ++id;
  const p = next((m) => m.id === my);
  send({ id: my, method, params });
  return p;
}
const uri = "file:///bench/ds_config.json";
await request("initialize", { processId: null, rootUri: null, capabilities: {} });
send({ method: "initialized", params: {} });
let p = next((m) => m.method === "textDocument/publishDiagnostics");
send({ method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "json", version: 1, text } } });
const opened = await p;
const keystroke = [];
const roundTrip = [];
const N = 400;
for (let i = 0; i < N; i++) {
  // Type a digit into train_batch_size: the batch arithmetic changes with it.
  const edited = text.replace('"train_batch_size": 32', `"train_batch_size": 32${i % 10}`);
  p = next((m) => m.method === "textDocument/publishDiagnostics");
  let t0 = performance.now();
  send({ method: "textDocument/didChange", params: { textDocument: { uri, version: i + 2 }, contentChanges: [{ text: edited }] } });
  await p;
  if (i >= 20) keystroke.push(performance.now() - t0);
  t0 = performance.now();
  await request("ds-studio/nothing", {});
  if (i >= 20) roundTrip.push(performance.now() - t0);
}
await request("shutdown", null);
send({ method: "exit" });
console.log(`\n## ds-studio lsp: didChange -> publishDiagnostics, ${lineCount}-line config (${opened.params.diagnostics.length} diagnostics), ${keystroke.length} keystrokes`);
console.log("| | p50 ms | p95 ms | max ms | vs round trip |");
console.log("|---|---:|---:|---:|---:|");
console.log(`| request round trip, nothing checked (baseline) | ${ms(pct(roundTrip, 50))} | ${ms(pct(roundTrip, 95))} | ${ms(Math.max(...roundTrip))} | 1.0x |`);
console.log(`| keystroke to diagnostics | ${ms(pct(keystroke, 50))} | ${ms(pct(keystroke, 95))} | ${ms(Math.max(...keystroke))} | ${(pct(keystroke, 50) / pct(roundTrip, 50)).toFixed(1)}x (p50) |`);
console.log(`\ngoal p95 <= 10 ms: ${pct(keystroke, 95) <= 10 ? "met" : "NOT met"}`);
