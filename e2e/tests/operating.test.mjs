// Journey operating (issue 52): with the studio started the README way, a run whose loss
// became NaN is explained on its job page (what happened, why, what to try), in English and
// in 中文; the operator's endpoints answer: /readyz, and /metrics in Prometheus' text format
// for the signed-in administrator, counting the run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, createTemplate, startReadmeWay, apiCall as call } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/operating-data";
let studio;

before(async () => {
  studio = await startReadmeWay(DATA);
});

after(async () => {
  await studio?.stop();
});

// A learning rate no model survives: after the first update the loss is NaN, and the run goes
// on to its end learning nothing.
const WILD = {
  train_batch_size: 4,
  train_micro_batch_size_per_gpu: 4,
  gradient_accumulation_steps: 1,
  optimizer: { type: "AdamW", params: { lr: 1e30, torch_adam: true } },
  steps_per_print: 1,
};

test("operating: a NaN loss explained on the job page; /readyz and /metrics answer", { timeout: 600_000 }, async () => {
  const link = await studio.signinLink;
  const context = await studio.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector("#whoami");
  const made = await createTemplate(page, { name: "wild-lr", config: WILD });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const job = await call(page, "POST", "/api/v1/jobs", {
    template_id: made.body.id, gpus: 1, max_steps: 6, workload: { builtin: "gpt", size: "tiny" },
  });
  assert.equal(job.status, 201, JSON.stringify(job.body));
  const id = job.body.id;

  await page.goto(`${studio.base}/jobs/${id}`);
  await page.waitForSelector('#failure-reason[data-reason="non_finite_loss"]', { timeout: 300_000 });
  const card = await page.textContent("#failure-reason");
  assert.match(card, /The loss became NaN/);
  assert.match(card, /Try:.*gradient_clipping/);
  assert.equal(await page.getAttribute("#failure-reason", "class"), "card warning", "a finished run: a warning");
  await page.locator("#failure-reason").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "operating_nan_loss.png") });
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#failure-reason")?.textContent.includes("损失变成了 NaN"));
  assert.match(await page.textContent("#failure-reason"), /可以尝试：.*降低学习率/);
  await page.screenshot({ path: join(artifacts, "operating_nan_loss_zh.png") });
  await page.click("#lang");

  // The operator's endpoints: ready, and the figures for the signed-in administrator.
  const probe = await page.evaluate(async () => {
    const ready = await fetch("/readyz");
    const metrics = await fetch("/metrics");
    return { ready: [ready.status, await ready.text()], metrics: [metrics.status, metrics.headers.get("content-type"), await metrics.text()] };
  });
  assert.deepEqual(probe.ready, [200, "ready\n"]);
  assert.equal(probe.metrics[0], 200);
  assert.match(probe.metrics[1], /^text\/plain; version=0\.0\.4/);
  assert.match(probe.metrics[2], /^ds_studio_jobs\{state="succeeded"\} 1$/m);
  assert.match(probe.metrics[2], /^ds_studio_http_requests_total\{method="POST",route="\/api\/v1\/jobs",status="201"\} 1$/m);
  // Anyone else is refused, with the way in named.
  const anonymous = await studio.browser.newContext();
  const anon = await anonymous.request.get(`${studio.base}/metrics`);
  assert.equal(anon.status(), 401);
  assert.match(await anon.text(), /--metrics-token/);
  await anonymous.close();
  assert.deepEqual(errors, []);
  await context.close();
});
