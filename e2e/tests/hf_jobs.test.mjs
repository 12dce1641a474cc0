// Journey hf_jobs: a config kept as HF users keep it ("auto" wherever the Trainer fills a value),
// saved for the HF Trainer with its arguments, runs from the Run dialog under that launcher, with
// the studio started the README way. The dialog says which launcher the job runs under and
// names the runner by its devices; the job page says the launcher and sets what the validator
// predicted the Trainer fills beside what DeepSpeed received; the runs table filters on it.
// In English and in 中文.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, createTemplate, startReadmeWay } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/hf-jobs-data";
let studio;

before(async () => {
  studio = await startReadmeWay(DATA, []);
});

after(async () => {
  await studio?.stop();
});

const HF_CONFIG = {
  train_batch_size: "auto",
  train_micro_batch_size_per_gpu: "auto",
  gradient_accumulation_steps: "auto",
  gradient_clipping: "auto",
  bf16: { enabled: "auto" },
  optimizer: { type: "AdamW", params: { lr: "auto", weight_decay: "auto", torch_adam: true } },
  scheduler: { type: "WarmupLR", params: { warmup_min_lr: "auto", warmup_max_lr: "auto", warmup_num_steps: "auto" } },
  zero_optimization: { stage: 2, reduce_bucket_size: "auto" },
};

test("hf_jobs: an HF Trainer template with \"auto\" runs from the Run dialog and shows what was filled", { timeout: 420_000 }, async () => {
  const link = await studio.signinLink;
  const context = await studio.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector("#whoami");
  const made = await createTemplate(page, {
    name: "llama-factory-style",
    config: HF_CONFIG,
    context: {
      launcher: "hf-trainer",
      trainer: { per_device_train_batch_size: 4, gradient_accumulation_steps: 2, learning_rate: 0.001, bf16: true },
    },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  await page.goto(`${studio.base}/templates/${made.body.id}`);
  await page.waitForSelector("#run");
  await page.click("#run");
  await page.waitForSelector("#run-dialog");
  await page.waitForSelector('#run-runner option[value="local"]', { state: "attached" });
  await page.waitForFunction(() => document.querySelector("#run-runner")?.value === "local");
  assert.match(await page.textContent("#run-launcher"), /Runs under the HF Trainer: torchrun/);
  // The runner is named by its devices (a CPU machine here: its cores and memory).
  assert.match(await page.textContent('#run-runner option[value="local"]'), /local \(local, CPU · \d+ cores · [\d.]+ GiB/);
  await page.screenshot({ path: join(artifacts, "hf_jobs_run_dialog.png") });
  await page.fill("#run-steps", "6");
  await page.click("#run-submit");
  await page.waitForURL(/\/jobs\/\d+$/);
  const jobUrl = page.url();
  await page.waitForFunction(
    () => ["succeeded", "failed", "lost"].includes(document.querySelector("#job-state")?.textContent),
    null,
    { timeout: 360_000 },
  );
  const state = await page.textContent("#job-state");
  const message = (await page.locator("#job-message").count()) ? await page.textContent("#job-message") : "";
  assert.equal(state, "succeeded", `the job ${state}: ${message}`);
  // The final state arrives before the page reloads the job's stored dict: read it again.
  await page.reload();
  await page.waitForSelector("#job-filled");
  assert.equal(await page.textContent("#job-launcher"), "HF Trainer");
  const rows = await page.$$eval("#job-filled tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const micro = rows.find((r) => r[0] === "train_micro_batch_size_per_gpu");
  assert.deepEqual(micro && [micro[1], micro[3]], ["4", "✓ 4"], JSON.stringify(rows));
  assert.ok(rows.length >= 10 && rows.every((r) => r[3].startsWith("✓")), JSON.stringify(rows));
  // A finished job shows its set-up open; the panel is in it.
  assert.equal(await page.$eval("#job-details", (d) => d.open), true);
  // DeepSpeed prints no samples/s under HF: the empty chart says why.
  assert.match(await page.textContent("body"), /under the HF Trainer and Accelerate DeepSpeed prints no samples\/s/);
  await page.locator("#job-handed").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "hf_jobs_job_page.png") });

  // The runs table: a launcher column and filter.
  await page.goto(`${studio.base}/jobs?launcher=hf-trainer`);
  await page.waitForSelector("#jobs tbody tr");
  assert.equal(await page.textContent("#jobs tbody tr td.launcher"), "HF Trainer");
  assert.equal(await page.inputValue("#filter-launcher"), "hf-trainer");

  // 中文.
  await page.click("text=中文");
  await page.goto(jobUrl);
  await page.waitForSelector("#job-filled");
  assert.match(await page.textContent("#job-handed > summary"), /由启动器填入/);
  // Where each value came from, in Chinese where it is a phrase (argument names stay).
  assert.match(await page.textContent("#job-filled"), /train_batch_size（由 micro batch × 累积 × world size 算出）/);
  await page.locator("#job-handed").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "hf_jobs_job_page_zh.png") });
  await page.goto(`${studio.base}/templates/${made.body.id}`);
  await page.click("#run");
  await page.waitForSelector("#run-launcher");
  assert.match(await page.textContent("#run-launcher"), /在 HF Trainer 下运行/);
  await page.screenshot({ path: join(artifacts, "hf_jobs_run_dialog_zh.png") });
  await page.keyboard.press("Escape");

  // Ctrl+S while the caret is still in a trainer argument saves that argument with the version
  // (the field takes its value on change, which only losing focus fires).
  const typed = await createTemplate(page, {
    name: "ctrl-s-trainer-args",
    config: HF_CONFIG,
    context: { launcher: "hf-trainer", trainer: { per_device_train_batch_size: 4 } },
  });
  assert.equal(typed.status, 201, JSON.stringify(typed.body));
  await page.goto(`${studio.base}/templates/${typed.body.id}`);
  await page.locator('.trainer-arg[data-arg="learning_rate"]').click();
  await page.keyboard.type("0.002");
  await page.keyboard.press("Control+s");
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "2");
  const v2 = await page.evaluate(async (id) => (await (await fetch(`/api/v1/templates/${id}/versions/2`)).json()), typed.body.id);
  assert.equal(v2.context.trainer.learning_rate, 0.002, JSON.stringify(v2.context));
  assert.deepEqual(errors, []);
  await context.close();
});
