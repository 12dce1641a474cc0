// Times the shared validator compiled to WASM (static/pkg) under Node: median microseconds per
// config over the corpus. Usage: node tools/bench/wasm_bench.mjs CONFIG_DIR [ITERATIONS] [RELEASE]
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const pkg = await import(join(root, "static/pkg/ds_studio_frontend.js"));
pkg.initSync({ module: readFileSync(join(root, "static/pkg/ds_studio_frontend_bg.wasm")) });
const dir = process.argv[2];
const iterations = Number(process.argv[3] || 50);
const release = process.argv[4] || "";
const texts = readdirSync(dir).filter((f) => f.endsWith(".json") || f.endsWith(".conf")).sort().map((f) => readFileSync(join(dir, f), "utf8"));
const medians = [];
for (const t of texts) {
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const s = performance.now();
    pkg.validate_for_bench(t, 1, release);
    samples.push((performance.now() - s) * 1000);
  }
  samples.sort((a, b) => a - b);
  medians.push(samples[samples.length >> 1]);
}
medians.sort((a, b) => a - b);
console.log(JSON.stringify({ configs: texts.length, median_us: medians[medians.length >> 1] }));
