// First load of `/` to interactive, with a cold cache, and the bundle's size against the first
// hour's budgets (wasm + JS ≤ 750 KB gzip, first load ≤ 1.5 s on this machine). "Interactive"
// is the validator's verdict on the page: the WASM is fetched, compiled, started, and has
// judged the sample config. Baseline in the same run: a cold load of a plain page of the same
// server (`/healthz`). Usage: node first_load.mjs BASE_URL [runs]. Started by `cargo xtask
// bench-ui`.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const [base, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 7);
const pkg = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "static", "pkg");
const gz = (f) => gzipSync(readFileSync(join(pkg, f)), { level: 9 }).length;
const wasm = gz("ds_studio_frontend_bg.wasm");
const js = gz("ds_studio_frontend.js");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const load = async (url, ready) => {
  // A new context each time: nothing cached, nothing compiled.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const t0 = Date.now();
  await page.goto(url);
  await ready(page);
  const ms = Date.now() - t0;
  await context.close();
  return ms;
};
const app = [], plain = [];
for (let i = 0; i < runs; i++) {
  plain.push(await load(`${base}/healthz`, async (p) => p.waitForLoadState("load")));
  app.push(await load(`${base}/`, async (p) => p.waitForSelector("#verdict", { state: "visible" })));
}
await browser.close();
const kb = (b) => (b / 1000).toFixed(1);
console.log(`bundle (gzip -9): wasm ${kb(wasm)} KB + JS ${kb(js)} KB = ${kb(wasm + js)} KB (budget 750 KB: ${wasm + js <= 750_000 ? "met" : "NOT met"})`);
console.log(`first load of / to the verdict, cold cache, median of ${runs}: ${median(app)} ms (budget 1500 ms: ${median(app) <= 1500 ? "met" : "NOT met"}); a plain page of the same server: ${median(plain)} ms (ratio ${(median(app) / Math.max(1, median(plain))).toFixed(1)}x); every run: ${app.join(", ")} ms`);
