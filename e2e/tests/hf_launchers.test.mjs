// Journey hf_launchers: the config as the HF Trainer runs it. A template whose context says
// "hf-trainer" holds a commented config: the comment is an error (json.load has no comments)
// with a fix that drops it; with no trainer arguments the Trainer's defaults are assumed and
// named. Then the user imports their LLaMA-Factory training YAML in the
// context bar: its per_device_train_batch_size (2) disagrees with the config's micro batch (4),
// which is shown with both values and fixed by "auto". Screenshots in English and Chinese.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, signIn, artifacts, createTemplate } from "../lib/studio.mjs";

const PASSWORD = "hf-launchers-e2e-pass-1";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["ada", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

const CONFIG = `{
  // ZeRO-2 for LLaMA-Factory
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": "auto",
  "bf16": {"enabled": "auto"},
  "zero_optimization": {"stage": 2}
}
`;

const LLAMA_FACTORY = `### model
model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
### method
stage: sft
do_train: true
finetuning_type: full
deepspeed: examples/deepspeed/ds_z2_config.json
### train
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
learning_rate: 1.0e-5
num_train_epochs: 3.0
bf16: true
`;

const verdictIs = (page, re) =>
  page.waitForFunction((src) => new RegExp(src).test(document.querySelector("#verdict")?.textContent ?? ""), re.source);

test("hf_launchers: a comment is an error with a fix that drops it; the Trainer's defaults are named", async () => {
  const { page, errors, context } = await signIn(browser, base, "ada", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const created = await createTemplate(page, { name: "llama-factory z2", config_text: CONFIG, context: { world_size: 8, launcher: "hf-trainer" } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await page.goto(`${base}/templates/${created.body.id}`);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  assert.equal(await page.inputValue("#ctx-launcher"), "hf-trainer");
  await page.waitForSelector("#trainer-args");
  // The editor's context, as a JSON Schema for the user's own editor: this launcher's "auto".
  const href = await page.getAttribute("#ctx-schema", "href");
  assert.equal(href, "/api/v1/schema/0.19.8.json?launcher=hf-trainer");
  const schema = await (await page.request.get(`${base}${href}`)).json();
  assert.match(schema.title, /HF Trainer/);
  assert.ok(JSON.stringify(schema.properties.train_micro_batch_size_per_gpu).includes('{"const":"auto"}'));
  // Launch commands for the context's 8 GPUs, the HF way of passing the config; copied.
  await page.click("#launch-panel summary");
  await page.fill("#launch-script", "src/train.py");
  await page.waitForFunction(() => /src\/train\.py/.test(document.querySelector("#launch-deepspeed")?.textContent ?? ""));
  assert.equal(await page.textContent("#launch-deepspeed"), "deepspeed --num_gpus 8 src/train.py --deepspeed ds_config.json");
  assert.match(await page.textContent("#launch-accelerate-yaml"), /num_processes: 8\n/);
  // The Slurm batch script, as ds-studio's own Slurm runner would submit it.
  const sbatch = await page.textContent("#launch-sbatch");
  assert.match(sbatch, /^#!\/bin\/bash\n#SBATCH --job-name=ds-studio\n#SBATCH --nodes=1\n/);
  assert.match(sbatch, /#SBATCH --gres=gpu:8\n/);
  assert.match(sbatch, /torch\.distributed\.run .*--nproc_per_node=8 .*src\/train\.py --deepspeed ds_config\.json/);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.click('button.copy[data-for="launch-torchrun"]');
  await page.waitForFunction(() => document.querySelector('button.copy[data-for="launch-torchrun"]')?.textContent === "Copied");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "torchrun --standalone --nproc_per_node 8 src/train.py --deepspeed ds_config.json");
  await page.screenshot({ path: join(artifacts, "launch_commands_en.png"), fullPage: true });

  // The comment: json.load refuses it; the fix drops the line.
  await verdictIs(page, /reject/);
  const notJson = page.locator('#diagnostics li[data-code="not-json"]');
  await notJson.waitFor();
  assert.match(await notJson.textContent(), /json\.load/);
  assert.match(await notJson.textContent(), /Expecting property name enclosed in double quotes/);
  await page.screenshot({ path: join(artifacts, "hf_not_json_en.png") });
  await notJson.locator("button.fix").click();
  await page.waitForFunction(() => !document.querySelector("#config").value.includes("//"));
  await page.waitForFunction(() => !document.querySelector('#diagnostics li[data-code="not-json"]'));
  // No arguments given: the Trainer's defaults are assumed and named once; with them the
  // config's micro batch 4 is not the default 8, which is what stays.
  assert.match(await page.textContent('#diagnostics li[data-code="launcher-args-assumed"]'), /per_device_train_batch_size=8/);
  assert.equal(await page.locator('#diagnostics li.error').count(), 1);
  assert.match(await page.textContent('#diagnostics li.error'), /per_device_train_batch_size=8/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("hf_launchers: import a LLaMA-Factory YAML, see the mismatch, fix it with auto", async () => {
  const { page, errors, context } = await signIn(browser, base, "ada", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const created = await createTemplate(page, { name: "z2 for import", config_text: CONFIG.replace(/^\s*\/\/.*\n/m, ""), context: { world_size: 1, launcher: "hf-trainer", trainer: { per_device_train_batch_size: 4 } } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await page.goto(`${base}/templates/${created.body.id}`);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  await verdictIs(page, /accept/);
  assert.equal(await page.inputValue('#trainer-args input[data-arg="per_device_train_batch_size"]'), "4");

  await page.click("#trainer-import");
  await page.fill("#trainer-import-text", LLAMA_FACTORY);
  await page.click("#trainer-import-apply");
  await page.waitForSelector("#trainer-import-notes");
  assert.match(await page.textContent("#trainer-import-notes"), /LLaMA-Factory training YAML/);
  assert.match(await page.textContent("#trainer-import-notes"), /ds_z2_config\.json/);
  assert.equal(await page.inputValue('#trainer-args input[data-arg="per_device_train_batch_size"]'), "2");
  assert.equal(await page.inputValue("#trainer-precision"), "bf16");
  await verdictIs(page, /reject/);
  const mismatch = page.locator('#diagnostics li[data-code="launcher-mismatch"]');
  await mismatch.waitFor();
  const said = await mismatch.textContent();
  assert.match(said, /train_micro_batch_size_per_gpu` is 4/);
  assert.match(said, /per_device_train_batch_size=2/);
  await page.screenshot({ path: join(artifacts, "hf_mismatch_en.png") });
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#trainer-args")?.textContent.includes("训练参数"));
  await page.screenshot({ path: join(artifacts, "hf_mismatch_zh.png") });
  await page.click("#lang");
  await mismatch.locator("button.fix").click();
  await page.waitForFunction(() => /"train_micro_batch_size_per_gpu":\s*"auto"/.test(document.querySelector("#config").value));
  await verdictIs(page, /accept/);
  // The effective config names what the Trainer filled in, and from which argument.
  await page.click("#effective-panel summary");
  const micro = page.locator('#effective-panel tr[data-path="train_micro_batch_size_per_gpu"]');
  await micro.waitFor();
  assert.equal(await micro.getAttribute("data-provenance"), "auto");
  assert.match(await micro.textContent(), /2.*per_device_train_batch_size/);
  await page.screenshot({ path: join(artifacts, "hf_effective_en.png"), fullPage: true });
  // Saved with the version: the trainer arguments are part of its context.
  await page.click("#save");
  await page.waitForSelector("#save-status");
  const head = await page.evaluate(async (id) => (await fetch(`/api/v1/templates/${id}/versions/head`)).json(), created.body.id);
  assert.equal(head.context.trainer.per_device_train_batch_size, 2);
  assert.equal(head.context.trainer.bf16, true);
  assert.deepEqual(errors, []);
  await context.close();
});
