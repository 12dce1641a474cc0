// Journey your_model (issue 51): with the studio started the README way, a user picks their own
// model in the editor's memory panel (a catalog model, then LoRA on it; a pasted config.json
// that is wrong is named), sees its parameters, trainable parameters and parts beside the bars,
// in English and in 中文; then rehearses a tiny config.json of their architecture with LoRA
// from the Run dialog on the local CPU runner and reads on the job page the workload, the
// figures it measured and the estimate beside the measured peak. The API answers the same
// questions (`GET /api/v1/models`, `POST /api/v1/estimate`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, createTemplate, startReadmeWay, apiCall as call } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/your-model-data";
let studio;

before(async () => {
  studio = await startReadmeWay(DATA);
});

after(async () => {
  await studio?.stop();
});

const CONFIG = {
  train_micro_batch_size_per_gpu: 2,
  gradient_accumulation_steps: 1,
  bf16: { enabled: true },
  optimizer: { type: "AdamW", params: { lr: 0.001, torch_adam: true } },
  zero_optimization: { stage: 2 },
};
const TINY_LLAMA = {
  model_type: "llama", hidden_size: 64, intermediate_size: 176, num_hidden_layers: 2,
  num_attention_heads: 4, num_key_value_heads: 2, vocab_size: 1000,
};

test("your_model: pick a catalog model with LoRA, paste a config.json, rehearse it on the runner", { timeout: 600_000 }, async () => {
  const link = await studio.signinLink;
  const context = await studio.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector("#whoami");
  const made = await createTemplate(page, { name: "my-model", config: CONFIG });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const tid = made.body.id;

  // The memory panel: "Your model", Qwen2.5 7B from the catalog, then LoRA rank 16 on q and v.
  await page.goto(`${studio.base}/templates/${tid}`);
  await page.waitForSelector("#mem-preset");
  await page.selectOption("#mem-preset", "yours");
  await page.fill("#mem-model-search", "qwen 7b");
  await page.selectOption("#mem-model", "catalog:qwen2.5-7b");
  await page.waitForSelector('#mem-model-facts[data-params="7615616512"]');
  assert.match(await page.textContent("#mem-model-facts"), /qwen2\.5-7b \(qwen2\): 7\.616B parameters · every parameter trained/);
  const fullBar = await page.$eval("#memory-bars li.current", (li) => Number(li.dataset.gpuBytes));
  await page.fill("#mem-lora-rank", "16");
  await page.fill("#mem-lora-targets", "q_proj,v_proj");
  const adapters = 16 * ((3584 + 3584) + (3584 + 512)) * 28;
  await page.waitForSelector(`#mem-model-facts[data-trainable="${adapters}"]`);
  assert.match(await page.textContent("#mem-model-facts"), /LoRA trains 5\.046M \(0\.07%\), the base frozen/);
  const loraBar = await page.$eval("#memory-bars li.current", (li) => Number(li.dataset.gpuBytes));
  assert.ok(loraBar < fullBar / 2, `${loraBar} vs ${fullBar}`);
  await page.locator("#memory-panel").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(artifacts, "your_model_memory_panel.png") });
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#mem-model-facts")?.textContent.includes("LoRA 训练"));
  assert.match(await page.textContent("#mem-model-facts"), /qwen2\.5-7b（qwen2）：7\.616B 参数 · LoRA 训练/);
  await page.screenshot({ path: join(artifacts, "your_model_memory_panel_zh.png") });
  await page.click("#lang");
  // A wrong target and a pasted config.json that is not one are named.
  await page.fill("#mem-lora-targets", "c_attn");
  await page.waitForSelector("#mem-model-error");
  assert.match(await page.textContent("#mem-model-error"), /LoRA target c_attn: this model has no such linear module; its modules are .*q_proj/);
  await page.fill("#mem-lora-rank", "");
  await page.selectOption("#mem-model", "config");
  await page.fill("#mem-model-config", '{"model_type": "bert", "hidden_size": 768}');
  await page.waitForFunction(() => document.querySelector("#mem-model-error")?.textContent.includes("bert"));
  await page.fill("#mem-model-config", JSON.stringify(TINY_LLAMA));
  await page.waitForSelector("#mem-model-facts");
  assert.match(await page.textContent("#mem-model-facts"), /config\.json \(llama\)/);

  // The Run dialog rehearses the pasted architecture with LoRA on the local runner.
  await page.click("#run");
  await page.waitForSelector("#run-dialog");
  await page.waitForFunction(() => document.querySelector("#run-runner")?.value === "local");
  await page.selectOption("#run-workload", "model");
  await page.selectOption("#run-model", "config");
  await page.fill("#run-model-config", JSON.stringify(TINY_LLAMA));
  await page.fill("#run-model-seq", "32");
  await page.fill("#run-lora-rank", "4");
  await page.fill("#run-steps", "3");
  await page.waitForSelector("#run-model-facts");
  assert.match(await page.textContent("#run-model-facts"), /LoRA trains/);
  await page.waitForSelector("#run-memory");
  await page.screenshot({ path: join(artifacts, "your_model_run_dialog.png") });
  await page.click("#run-submit");
  await page.waitForURL(/\/jobs\/\d+$/);
  const jid = page.url().split("/").pop();
  await page.waitForFunction(
    () => ["succeeded", "failed", "cancelled", "lost"].includes(document.querySelector("#job-state")?.textContent),
    null,
    { timeout: 300_000 },
  );
  const job = await call(page, "GET", `/api/v1/jobs/${jid}`);
  assert.equal(await page.textContent("#job-state"), "succeeded", JSON.stringify(job.body));
  assert.equal(job.body.workload.model.lora.rank, 4);
  assert.equal(job.body.workload.model.seq_len, 32);
  // The page shows the estimate for the rehearsed model beside what was measured.
  await page.waitForSelector("#memory-estimate");
  const metrics = await call(page, "GET", `/api/v1/jobs/${jid}/metrics`);
  const names = metrics.body.map((s) => s.name);
  for (const n of ["result/trainable_params", "result/tokens_per_sec", "result/model_tflops"]) {
    assert.ok(names.includes(n), `${n} in ${names.join(",")}`);
  }
  await page.waitForSelector("#job-tokens");
  assert.equal(await page.textContent("#job-trainable"), "9.344k");
  await page.screenshot({ path: join(artifacts, "your_model_job.png"), fullPage: true });
  await page.click("#lang");
  await page.waitForSelector("#memory-estimate");
  await page.screenshot({ path: join(artifacts, "your_model_job_zh.png"), fullPage: true });
  await page.click("#lang");

  // The same questions through the API.
  const models = await call(page, "GET", "/api/v1/models?q=mixtral");
  assert.equal(models.status, 200);
  assert.ok(models.body.every((m) => m.name.startsWith("mixtral")), JSON.stringify(models.body.map((m) => m.name)));
  const est = await call(page, "POST", "/api/v1/estimate", {
    config: CONFIG, model: { name: "llama-3.1-8b", seq_len: 4096, lora: { rank: 16 } }, gpus_per_node: 8,
  });
  assert.equal(est.status, 200, JSON.stringify(est.body));
  assert.equal(est.body.model.params, 8030261248);
  assert.equal(est.body.model.adapter_params, est.body.model.trainable_params);
  assert.equal(est.body.runners[0].runner, "local", JSON.stringify(est.body.runners));
  assert.deepEqual(errors, []);
});
