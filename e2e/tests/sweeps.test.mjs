// Journey sweeps: with the studio started the README way (its local runner is this CPU machine),
// a user opens "Sweep…" from the editor, writes a grid (micro batch × ZeRO stage), sees every
// point planned before anything runs (the point too big for this machine pruned, with its
// reason), starts it, follows the points as they run on the real engine, finds the best in the
// ranking and the chart, and saves it as a new version after reading what it changes. A second
// sweep is cancelled from its page. In English and in 中文, at 1280×800.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, createTemplate, startReadmeWay, apiCall as call } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/sweeps-data";
let studio;

before(async () => {
  studio = await startReadmeWay(DATA);
});

after(async () => {
  await studio?.stop();
});

// The tiny model trains a few steps in seconds on a CPU; `steps_per_print` beyond the steps
// keeps DeepSpeed's own throughput lines (and so the early stop) out of a 3-step point.
const BASE = {
  train_micro_batch_size_per_gpu: 4,
  gradient_accumulation_steps: 2,
  optimizer: { type: "AdamW", params: { lr: 0.001, torch_adam: true } },
  steps_per_print: 100,
};

test("sweeps: plan a grid, run it on the engine, rank it and save the best", { timeout: 900_000 }, async () => {
  const link = await studio.signinLink;
  const context = await studio.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector("#whoami");
  const made = await createTemplate(page, { name: "tiny-sweep", config: BASE });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const tid = made.body.id;

  // From the editor to the sweep page; the default grid is planned at once.
  await page.goto(`${studio.base}/templates/${tid}`);
  await page.click("#sweep-link");
  await page.waitForURL(new RegExp(`/templates/${tid}/sweep$`));
  await page.waitForSelector("#sweep-plan");
  // A line that is not KEY=V1,V2 is named, and nothing can start.
  await page.fill("#sweep-grid", "stage");
  await page.waitForSelector("#sweep-grid-error");
  assert.match(await page.textContent("#sweep-grid-error"), /`stage`: write KEY=V1,V2/);
  assert.equal(await page.isDisabled("#sweep-start"), true);
  // A misspelt key is named with the key it probably means.
  await page.fill("#sweep-grid", "# micro batch against stage\nzero_optimisation.stage=0,1");
  await page.waitForFunction(() => document.querySelector("#sweep-grid-error")?.textContent.includes("zero_optimisation"));
  assert.match(await page.textContent("#sweep-grid-error"), /grid key `zero_optimisation.stage` is not a DeepSpeed config key; did you mean `zero_optimization.stage`\?/);
  // Keeping the global batch (the default), micro batch 200000 cannot divide the base's 8
  // samples per step: pruned, named.
  await page.fill("#sweep-grid", "train_micro_batch_size_per_gpu=2,4,200000\nzero_optimization.stage=0,2");
  await page.fill("#sweep-steps", "3");
  await page.waitForFunction(() => document.querySelector("#sweep-plan-summary")?.textContent === "4 of 6 points will run.");
  assert.match(await page.textContent("#sweep-plan tr.pruned"), /pruned: micro batch 200000 does not divide the 8 samples per GPU a step/);
  // Without it, the same micro batch of the tiny model needs far more memory than this machine
  // has: pruned, with the figures.
  await page.uncheck("#sweep-keep");
  await page.waitForFunction(() => document.querySelector("#sweep-plan-summary")?.textContent === "4 of 6 points will run.");
  const pruned = await page.$$eval("#sweep-plan tr.pruned", (rows) => rows.map((r) => r.textContent));
  assert.equal(pruned.length, 2, pruned.join("\n"));
  assert.match(pruned[0], /pruned: does not fit: needs [\d.]+ (GiB|TiB) per rank \([\d.]+ (GiB|TiB) at the peak \+ [\d.]+ (MiB|GiB) host side: [^)]*\), CPU · [\d.]+ GiB gives [\d.]+ GiB/);
  assert.match(await page.textContent("#sweep-start"), /Start sweep \(4 to run\)/);
  await page.screenshot({ path: join(artifacts, "sweeps_plan.png") });
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#sweep-plan-summary")?.textContent === "6 个点中 4 个将运行。");
  assert.match(await page.textContent("#sweep-plan tr.pruned"), /已剔除：放不下/);
  assert.match(await page.textContent("#sweep-start"), /开始参数扫描（运行 4 个点）/);
  await page.screenshot({ path: join(artifacts, "sweeps_plan_zh.png") });
  await page.click("#lang");

  // Start it: its page follows the points live until every one has ended.
  await page.click("#sweep-start");
  await page.waitForURL(/\/sweeps\/\d+$/);
  const sid = page.url().split("/").pop();
  await page.waitForSelector("#sweep-points");
  assert.equal(await page.$$eval("#sweep-points tbody tr", (r) => r.length), 6);
  await page.waitForFunction(() => document.querySelector("#sweep-state")?.textContent === "finished", null, { timeout: 600_000 });
  const states = await page.$$eval("#sweep-points tbody tr", (rows) => rows.map((r) => r.className));
  assert.equal(states.filter((c) => c.includes("succeeded")).length, 4, states.join(","));
  assert.equal(states.filter((c) => c.includes("pruned")).length, 2, states.join(","));
  // The best is ranked first, named, and drawn on the chart (one line per stage).
  assert.match(await page.textContent("#sweep-best"), /Best: #\d+ train_micro_batch_size_per_gpu=\d+ zero_optimization.stage=\d at [\d.]+ samples\/s/);
  const first = await page.$eval("#sweep-points tbody tr", (r) => r.className);
  assert.match(first, /succeeded/);
  await page.waitForSelector("#chart-sweep-throughput svg");
  const sweep = await call(page, "GET", `/api/v1/sweeps/${sid}`);
  const best = sweep.body.points[sweep.body.best];
  const fastest = Math.max(...sweep.body.points.filter((p) => p.state === "succeeded").map((p) => p.samples_per_sec));
  assert.equal(best.samples_per_sec, fastest);
  await page.screenshot({ path: join(artifacts, "sweeps_done.png"), fullPage: true });
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#sweep-state")?.textContent === "已完成");
  assert.match(await page.textContent("#sweep-best"), /最佳：#\d+/);
  assert.match(await page.textContent("#sweep-points thead"), /排名.*状态.*预计峰值.*实测峰值.*样本\/秒/);
  await page.screenshot({ path: join(artifacts, "sweeps_done_zh.png"), fullPage: true });
  await page.click("#lang");

  // Save the best, after reading what it changes.
  await page.click("#sweep-save-best");
  await page.waitForSelector("#save-best-changes");
  const changes = await page.$$eval("#save-best-changes li", (li) => li.map((l) => l.textContent));
  // The base is micro batch 4 without a ZeRO section: the best adds its stage, and its micro
  // batch where it is not 4.
  const micro = best.values.train_micro_batch_size_per_gpu;
  assert.equal(changes.length, micro === 4 ? 1 : 2, changes.join("\n"));
  assert.ok(changes.some((c) => c.includes("zero_optimization")), changes.join("\n"));
  await page.click("#save-best-confirm");
  await page.waitForSelector("#save-best-done");
  assert.match(await page.textContent("#save-best-done"), /Saved as version 2/);
  const v2 = await call(page, "GET", `/api/v1/templates/${tid}/versions/2`);
  assert.equal(v2.body.config.train_micro_batch_size_per_gpu, best.values.train_micro_batch_size_per_gpu);
  assert.equal(v2.body.config.gradient_accumulation_steps, 2, "the accumulation is left as it was");

  // A second sweep, cancelled from its page; the template's page lists both.
  const second = await call(page, "POST", "/api/v1/sweeps", {
    template_id: tid, version: 1, workload: { builtin: "gpt", size: "tiny" }, max_steps: 200,
    grid: [{ key: "zero_optimization.stage", values: [0, 1, 2] }], name: "to cancel",
  });
  assert.equal(second.status, 201, JSON.stringify(second.body));
  await page.goto(`${studio.base}/sweeps/${second.body.id}`);
  await page.waitForSelector("#sweep-cancel");
  page.once("dialog", (d) => d.accept());
  await page.click("#sweep-cancel");
  await page.waitForFunction(() => document.querySelector("#sweep-state")?.textContent === "cancelled");
  await page.goto(`${studio.base}/templates/${tid}/sweep`);
  await page.waitForSelector("#sweep-earlier");
  assert.equal(await page.$$eval("#sweep-earlier li", (li) => li.length), 2);
  assert.match(await page.textContent("#sweep-earlier"), /to cancel · cancelled/);
  // Its jobs end before the studio stops.
  for (let i = 0; i < 120; i++) {
    const s = await call(page, "GET", `/api/v1/sweeps/${second.body.id}`);
    if (s.body.points.every((p) => !["queued", "running"].includes(p.state))) break;
    await page.waitForTimeout(500);
  }
  assert.deepEqual(errors, []);
  await context.close();
});
