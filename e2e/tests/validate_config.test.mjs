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
  // A diagnostic's tooltip (the diagnostics are the right-hand column) stays inside the
  // window at 1280 px, padding and border included.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.focus("li.diag .tip button.info");
  await page.waitForSelector(".tip-body", { state: "visible" });
  const box = await page.evaluate(() => { const r = document.querySelector(".tip-body").getBoundingClientRect(); return { left: r.left, right: r.right, w: innerWidth }; });
  assert.ok(box.left >= 0 && box.right <= box.w, `tooltip inside the window: ${JSON.stringify(box)}`);
  await page.keyboard.press("Escape");

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

// Journey triage: an HF-style config pasted on `/` under the plain launcher. The error comes
// first; the nine `auto` warnings are one row with their count and one action (switch the
// launcher to the HF Trainer), which clears them; severities filter; a click on a diagnostic
// selects its line.
test("triage: errors first, repeated codes folded with one action, filters, click to line", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  await page.waitForSelector("#verdict");
  const hf = `{
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "gradient_clipping": "auto",
  "optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}},
  "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": "auto", "warmup_max_lr": "auto", "warmup_num_steps": "auto"}},
  "zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}}
}`;
  await page.fill("#config", hf);
  await page.waitForFunction(() => document.querySelector("#verdict")?.textContent.includes("reject"));
  const rows = () => page.locator("#diagnostics li.diag").evaluateAll((els) => els.map((e) => ({ sev: [...e.classList].find((c) => c !== "diag"), code: e.dataset.code, group: Number(e.dataset.group) })));
  const before = await rows();
  const sevs = before.map((r) => r.sev);
  const order = { error: 0, warning: 1, info: 2 };
  assert.deepEqual(sevs, [...sevs].sort((a, b) => order[a] - order[b]), `errors first: ${JSON.stringify(before)}`);
  assert.equal(before[0].sev, "error");
  // The eight `auto` warnings are one row (the three `auto` batch keys, errors here, one
  // error row of their own).
  const autos = before.filter((r) => r.code === "auto-unresolved" && r.sev === "warning");
  assert.equal(autos.length, 1, `one warning row for the repeated code: ${JSON.stringify(before)}`);
  assert.ok(autos[0].group >= 3, JSON.stringify(autos));
  const group = page.locator('#diagnostics li.diag.warning[data-code="auto-unresolved"]');
  assert.match(await group.locator(".group-count").textContent(), new RegExp(`^${autos[0].group} × auto-unresolved`));
  // Counts per severity, and a filter.
  const errorsN = before.filter((r) => r.sev === "error").reduce((n, r) => n + (r.group || 1), 0);
  assert.ok(errorsN >= 4, `the three batch keys and warmup_num_steps: ${JSON.stringify(before)}`);
  assert.match(await page.textContent("#diag-filter-error"), new RegExp(`Errors ${errorsN}`));
  await page.click("#diag-filter-warning");
  assert.equal(await page.locator("#diagnostics li.diag.warning").count(), 0);
  await page.click("#diag-filter-warning");
  await page.screenshot({ path: join(artifacts, "triage_folded.png") });
  // "show each" unfolds the group.
  await group.locator(".group-toggle").click();
  await page.waitForFunction((n) => document.querySelectorAll('#diagnostics li.diag.warning[data-code="auto-unresolved"]').length === n, autos[0].group);
  // The one action: the launcher that fills "auto".
  await page.goto(base);
  await page.fill("#config", hf);
  await page.waitForSelector('#diagnostics li.diag[data-code="auto-unresolved"] .switch-launcher');
  await page.locator('#diagnostics li.diag[data-code="auto-unresolved"] .switch-launcher').first().click();
  await page.waitForFunction(() => document.querySelector("#launcher")?.value === "hf-trainer");
  await page.waitForFunction(() => !document.querySelector('#diagnostics li.diag[data-code="auto-unresolved"]'));
  // A click on a diagnostic selects its line in the text.
  const first = page.locator("#diagnostics li.diag").first();
  const line = Number((await first.locator(".pos").textContent()).split(":")[0]);
  await first.click();
  const selectedLine = await page.evaluate(() => {
    const t = document.querySelector("#config");
    return t.value.slice(0, t.selectionStart).split("\n").length;
  });
  assert.equal(selectedLine, line);
  assert.deepEqual(errors, []);
  await page.close();
});
