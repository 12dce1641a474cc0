// First load of `/` to interactive, with a cold cache, and the bundle's size against the first
// hour's budgets (wasm + JS ≤ 750 KB gzip, first load ≤ 1.5 s on this machine). "Interactive"
// is the validator's verdict on the page: the WASM is fetched, compiled, started, and has
// judged the sample config. The bundle counted against the budget is what that first load
// fetches from /pkg (recorded from the browser's own requests, gzip -9 of each file); the
// deferred pages' chunks, fetched on a page's first visit, are listed beside it. Baseline in
// the same run: a cold load of a plain page of the same server (`/healthz`). Usage: node
// first_load.mjs BASE_URL [runs]. Started by `cargo xtask bench-ui`.
import { chromium } from "playwright-core";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const [base, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 7);
const pkg = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "static", "pkg");
const gz = (f) => gzipSync(readFileSync(join(pkg, f)), { level: 9 }).length;
const code = (f) => f.endsWith(".wasm") || f.endsWith(".js");
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const fetched = new Set(), fetchedBySettings = new Set();
const load = async (url, ready) => {
  // A new context each time: nothing cached, nothing compiled.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.on("response", (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith("/pkg/") && code(path)) (url.endsWith("/") ? fetched : url.endsWith("/settings") ? fetchedBySettings : new Set()).add(path.slice(5));
  });
  const t0 = Date.now();
  await page.goto(url);
  await ready(page);
  const ms = Date.now() - t0;
  await context.close();
  return ms;
};
const app = [], plain = [], deferredPage = [];
for (let i = 0; i < runs; i++) {
  plain.push(await load(`${base}/healthz`, async (p) => p.waitForLoadState("load")));
  app.push(await load(`${base}/`, async (p) => p.waitForSelector("#verdict", { state: "visible" })));
  // A page whose code is a deferred chunk (the team pages'), cold: main module, then its chunk.
  deferredPage.push(await load(`${base}/settings`, async (p) => p.waitForSelector("main h2", { state: "visible" })));
}
await browser.close();
const kb = (b) => (b / 1000).toFixed(1);
const first = [...fetched].sort();
const firstBytes = first.reduce((sum, f) => sum + gz(f), 0);
const deferred = readdirSync(pkg).filter((f) => code(f) && !fetched.has(f));
const deferredBytes = deferred.reduce((sum, f) => sum + gz(f), 0);
if (!first.includes("ds_studio_frontend_bg.wasm")) throw new Error(`the first load fetched no main module: ${first}`);
console.log(`bundle of the first load (gzip -9, what / fetched from /pkg): ${first.map((f) => `${f} ${kb(gz(f))} KB`).join(" + ")} = ${kb(firstBytes)} KB (budget 750 KB: ${firstBytes <= 750_000 ? "met" : "NOT met"})`);
const settingsBytes = [...fetchedBySettings].reduce((sum, f) => sum + gz(f), 0);
console.log(`deferred chunks (fetched on the first visit of the page that needs them): ${deferred.length} files, ${kb(deferredBytes)} KB; everything: ${kb(firstBytes + deferredBytes)} KB`);
console.log(`first load of / to the verdict, cold cache, median of ${runs}: ${median(app)} ms (budget 1500 ms: ${median(app) <= 1500 ? "met" : "NOT met"}); a plain page of the same server: ${median(plain)} ms (ratio ${(median(app) / Math.max(1, median(plain))).toFixed(1)}x); every run: ${app.join(", ")} ms`);
console.log(`first load of /settings (a deferred page: the main module, then the team pages' chunk), cold cache, median of ${runs}: ${median(deferredPage)} ms, ${kb(settingsBytes)} KB fetched from /pkg (${[...fetchedBySettings].sort().join(", ")}); every run: ${deferredPage.join(", ")} ms`);
