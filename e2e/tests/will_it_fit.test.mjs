// Journey will_it_fit: with the studio started the README way (its local runner is this CPU
// machine, which reports its host memory), a config far too big for it is caught before Run: the
// Run dialog says the estimate beside the machine's memory and offers configs that fit; "Save and
// run this version" saves the smaller micro batch (same global batch) as a new version and runs
// it to the end. The API refuses the original with 422 does_not_fit, in 中文 too. A script that
// really runs out of memory (PyTorch's allocator refusing 1 PiB) fails with reason out_of_memory
// and its page explains it. In English and in 中文.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { artifacts, createTemplate, startReadmeWay, apiCall as call } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/will-it-fit-data";
const SCRIPTS = resolve("./e2e/artifacts/will-it-fit-scripts");
let studio;

before(async () => {
  mkdirSync(SCRIPTS, { recursive: true });
  writeFileSync(join(SCRIPTS, "greedy.py"), "import torch\nprint('allocating 1 PiB', flush=True)\nx = torch.empty(1 << 50, dtype=torch.uint8)\n");
  studio = await startReadmeWay(DATA, ["--allow-entrypoints", SCRIPTS]);
});

after(async () => {
  await studio?.stop();
});

// Micro batch 512 of the `small` model: about 29 GiB of activations and logits, more than this
// machine's memory; the global batch is 512 samples a step.
const TOO_BIG = {
  train_micro_batch_size_per_gpu: 512,
  gradient_accumulation_steps: 1,
  optimizer: { type: "AdamW", params: { lr: 0.001, torch_adam: true } },
  zero_optimization: { stage: 0 },
};

test("will_it_fit: the Run dialog catches a config too big for the runner and runs one that fits", { timeout: 600_000 }, async () => {
  const link = await studio.signinLink;
  const context = await studio.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector("#whoami");
  const made = await createTemplate(page, { name: "too-big", config: TOO_BIG });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const tid = made.body.id;

  // The API refuses it for the local runner, naming both figures; in 中文 too.
  const refused = await call(page, "POST", "/api/v1/jobs", { template_id: tid, workload: { builtin: "gpt", size: "small" }, runner: "local", max_steps: 3 });
  assert.equal(refused.status, 422, JSON.stringify(refused.body));
  assert.equal(refused.body.error.code, "does_not_fit");
  assert.match(refused.body.error.message, /needs an estimated [\d.]+ GiB of host memory per rank, more than the [\d.]+ GiB per rank that runner `local` \(CPU · [\d.]+ GiB\) can give/);
  const zh = await call(page, "POST", "/api/v1/jobs?lang=zh", { template_id: tid, workload: { builtin: "gpt", size: "small" }, runner: "local" });
  assert.match(zh.body.error.message, /主机内存.*运行器 `local`/);
  const suggestion = zh.body.error.details.suggestions.find((s) => s.kind === "micro_batch");
  assert.ok(suggestion, JSON.stringify(zh.body.error.details));
  assert.match(suggestion.summary.zh, /微批 \d+ × 梯度累积 \d+ 步（每卡每步仍为 512 个样本）/);

  // The Run dialog says so before Run.
  await page.goto(`${studio.base}/templates/${tid}`);
  await page.waitForSelector("#run");
  await page.click("#run");
  await page.waitForSelector("#run-dialog");
  await page.waitForFunction(() => document.querySelector("#run-runner")?.value === "local");
  await page.selectOption("#run-workload", "small");
  await page.waitForSelector('#run-memory[data-fits="false"]');
  assert.match(await page.textContent("#run-memory-line"), /Estimated peak: [\d.]+ GiB per rank .* CPU · [\d.]+ GiB gives [\d.]+ GiB does not fit/);
  const offers = await page.$$eval(".run-fitted", (bs) => bs.map((b) => b.dataset.kind));
  assert.ok(offers.includes("MicroBatch"), offers.join(","));
  assert.match(await page.textContent(".run-memory-fits"), /micro batch \d+ × \d+ accumulation steps \(the same 512 samples per GPU a step\)/);
  await page.screenshot({ path: join(artifacts, "will_it_fit_dialog.png") });
  // 中文 (the page behind the modal dialog is inert: close it, switch, open it again).
  const reopen = async () => {
    await page.click("#run");
    await page.waitForSelector("#run-dialog");
    await page.waitForFunction(() => document.querySelector("#run-runner")?.value === "local");
    await page.selectOption("#run-workload", "small");
    await page.waitForSelector('#run-memory[data-fits="false"]');
  };
  await page.click("#run-close");
  await page.click("#lang");
  await reopen();
  await page.waitForFunction(() => document.querySelector("#run-memory strong")?.textContent.includes("放不下"));
  assert.match(await page.textContent("#run-memory-line"), /估算峰值：每个进程 [\d.]+ GiB/);
  assert.match(await page.textContent(".run-memory-fits"), /保存为新版本并运行/);
  await page.screenshot({ path: join(artifacts, "will_it_fit_dialog_zh.png") });
  await page.click("#run-close");
  await page.click("#lang");
  await reopen();
  await page.waitForFunction(() => document.querySelector("#run-memory strong")?.textContent.includes("does not fit"));

  // Save and run the smaller micro batch: a new version, its job queued. It is cancelled at
  // once: the version that fits this machine fills most of its memory by design, and a CPU
  // would take many minutes over 512 samples a step.
  await page.fill("#run-steps", "3");
  await page.click('.run-fitted[data-kind="MicroBatch"]');
  await page.waitForURL(/\/jobs\/\d+$/);
  page.once("dialog", (d) => d.accept());
  await page.click("#cancel-job");
  await page.waitForFunction(
    () => ["cancelled", "succeeded", "failed", "lost"].includes(document.querySelector("#job-state")?.textContent),
    null,
    { timeout: 120_000 },
  );
  assert.equal(await page.textContent("#job-state"), "cancelled");
  const fittedJob = await call(page, "GET", `/api/v1/jobs/${page.url().split("/").pop()}`);
  assert.equal(fittedJob.body.version, 2, JSON.stringify(fittedJob.body));
  const versions = await call(page, "GET", `/api/v1/templates/${tid}/versions`);
  const items = versions.body.items ?? versions.body;
  assert.equal(items.length, 2, JSON.stringify(versions.body));
  const v2 = await call(page, "GET", `/api/v1/templates/${tid}/versions/2`);
  assert.equal(v2.body.config.train_micro_batch_size_per_gpu * v2.body.config.gradient_accumulation_steps, 512, "the global batch is kept");
  // Its page has the estimate of the version that fits.
  await page.waitForSelector("#memory-estimate");
  assert.match(await page.textContent("#memory-estimate"), /Estimated peak per GPU: [\d.]+ (MiB|GiB) \(at the /);

  // A script that really runs out of memory: reason out_of_memory, explained on its page.
  const greedy = await createTemplate(page, { name: "greedy-script", config: { train_micro_batch_size_per_gpu: 1, optimizer: { type: "AdamW", params: { lr: 0.001 } } } });
  assert.equal(greedy.status, 201, JSON.stringify(greedy.body));
  const job = await call(page, "POST", "/api/v1/jobs", { template_id: greedy.body.id, workload: { entrypoint: "greedy.py" }, max_steps: 2 });
  assert.equal(job.status, 201, JSON.stringify(job.body));
  await page.goto(`${studio.base}/jobs/${job.body.id}`);
  await page.waitForFunction(
    () => ["succeeded", "failed", "lost"].includes(document.querySelector("#job-state")?.textContent),
    null,
    { timeout: 240_000 },
  );
  assert.equal(await page.textContent("#job-state"), "failed");
  const stored = await call(page, "GET", `/api/v1/jobs/${job.body.id}`);
  assert.equal(stored.body.reason, "out_of_memory", JSON.stringify(stored.body));
  await page.waitForSelector("#out-of-memory");
  assert.match(await page.textContent("#out-of-memory"), /Out of memory.*ran out of memory.*CPU · [\d.]+ GiB gives [\d.]+ GiB to a job/);
  await page.screenshot({ path: join(artifacts, "will_it_fit_oom.png") });
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#out-of-memory")?.textContent.includes("内存不足"));
  assert.match(await page.textContent("#out-of-memory"), /训练进程内存不足.*CPU · [\d.]+ GiB 可供任务使用/);
  await page.screenshot({ path: join(artifacts, "will_it_fit_oom_zh.png") });
  await page.click("#lang");
  assert.deepEqual(errors, []);
  await context.close();
});
