// Journey: paste a config into the page and see DeepSpeed's verdict and diagnostics, computed
// in the browser by the shared validator (WASM). A real server on a free port, real chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, artifacts } from "../lib/studio.mjs";

let studio, browser, base;

before(async () => {
  studio = await startStudio();
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

test("validate_config: verdict and diagnostics update as the user types", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  await page.waitForSelector("#verdict");
  // The sample: batch 64 = 4 x 2 x 8 with world size 8, offload_param below stage 3.
  assert.match(await page.textContent("#verdict"), /would accept/);
  assert.ok(await page.locator('li.diag[data-code="stage3-only"]').count() >= 1);

  await page.fill("#config", '{\n  "train_batch_size": 33,\n  "train_micro_batch_size_per_gpu": 4,\n  "zero_optimization": {"stag": 2}\n}');
  await page.waitForFunction(() => document.querySelector("#verdict")?.textContent.includes("reject"));
  const codes = await page.locator("li.diag").evaluateAll((els) => els.map((e) => e.dataset.code));
  assert.ok(codes.includes("batch-mismatch"), codes.join(","));
  assert.ok(codes.includes("unknown-key"), codes.join(","));
  assert.match(await page.textContent("#diagnostics"), /did you mean `stage`/);

  // World size is part of the context: 33 is never 4 * gas * 1 for an integer gas... but 32 is.
  await page.fill("#config", '{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4}');
  await page.fill("#world-size", "8");
  await page.waitForFunction(() => document.querySelector("#verdict")?.textContent.includes("accept"));

  // Chinese UI.
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#verdict")?.textContent.includes("接受"));
  await page.screenshot({ path: join(artifacts, "validate_config.png"), fullPage: true });
  assert.deepEqual(errors, []);
});

test("api_validate: the server runs the same validator", async () => {
  const res = await fetch(`${base}/api/v1/validate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: '{"train_batch_size": "auto"}' }) });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.verdict, "rejected");
  assert.ok(body.diagnostics.some((d) => d.code === "auto-unresolved"));
  const bad = await fetch(`${base}/api/v1/validate`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
  assert.equal(bad.status, 400);
  assert.ok((await bad.json()).error.message.length > 0);
});
