// First-hour pieces of the team issue, in a real server and chromium: Save as template on `/`
// (and the world-size field that says a bad value), the memory panel's CPU RAM per node, the
// LLaMA-Factory launch line after an import, and the team page saying what adding a member did.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, signIn, createTemplate, artifacts } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["lead", PASSWORD, "--role", "admin"], ["bo", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

test("save_as_template on /: the text as written, with the GPUs chosen there; a bad world size is said", async () => {
  const { page, errors } = await signIn(browser, base, "lead", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(base);
  await page.waitForSelector("#config");
  await page.fill("#world-size", "0");
  await page.waitForSelector("#world-size-error");
  await page.fill("#world-size", "4");
  await page.waitForFunction(() => !document.querySelector("#world-size-error"));
  const text = '{\n  // kept\n  "train_batch_size": 16,\n  "train_micro_batch_size_per_gpu": 4\n}\n';
  await page.fill("#config", text);
  await page.click("#save-as-template");
  await page.fill("#save-as-template-name", "from home");
  await page.click("#save-as-template-form button[type=submit]");
  await page.waitForURL(/\/templates\/\d+$/);
  const id = page.url().match(/\/templates\/(\d+)$/)[1];
  const head = await page.evaluate(async (id) => (await fetch(`/api/v1/templates/${id}/versions/head`)).json(), id);
  assert.equal(head.config_text, text);
  assert.equal(head.context.world_size, 4);
  assert.deepEqual(errors, []);
});

test("memory panel and launch commands: CPU RAM per node, and LLaMA-Factory's own line after an import", async () => {
  const { page, errors } = await signIn(browser, base, "lead", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const config = '{"train_batch_size": "auto", "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}}';
  const t = await createTemplate(page, { name: "offload", config_text: config, context: { world_size: 8, launcher: "hf-trainer" } });
  assert.equal(t.status, 201, JSON.stringify(t.body));
  await page.goto(`${base}/templates/${t.body.id}`);
  await page.waitForSelector("#mem-cpu-ram");
  await page.fill("#mem-cpu-ram", "-5");
  await page.waitForSelector("#mem-cpu-ram-error");
  await page.fill("#mem-cpu-ram", "64");
  await page.waitForSelector("#memory-cpu-short");
  assert.match(await page.textContent("#memory-cpu-short"), /more than the 64\.0 GiB each node has/);
  await page.fill("#mem-cpu-ram", "100000");
  await page.waitForFunction(() => !document.querySelector("#memory-cpu-short"));
  await page.click("#trainer-import");
  await page.fill("#trainer-import-text", "per_device_train_batch_size: 2\ngradient_accumulation_steps: 4\nbf16: true\ndeepspeed: ds.json\n");
  await page.click("#trainer-import-apply");
  await page.waitForSelector("#trainer-import-notes");
  await page.click("#launch-panel summary");
  await page.waitForSelector("#launch-tool");
  assert.equal((await page.textContent("#launch-tool")).trim(), "FORCE_TORCHRUN=1 llamafactory-cli train train.yaml");
  await page.screenshot({ path: join(artifacts, "launch_llamafactory.png") });
  assert.deepEqual(errors, []);
});

test("team: adding someone already in it says the role changed; an empty name is said", async () => {
  const { page, errors } = await signIn(browser, base, "lead", PASSWORD);
  await page.goto(`${base}/team`);
  await page.waitForSelector("#add-member");
  await page.click("#add-member button[type=submit]");
  // The browser's own `required` check stops an empty submit; a name of spaces reaches ours.
  await page.fill("#add-member-name", "   ");
  await page.click("#add-member button[type=submit]");
  await page.waitForFunction(() => /Type the user name/.test(document.querySelector("#add-member")?.textContent ?? ""));
  await page.fill("#add-member-name", "bo");
  await page.selectOption("#add-member-role", "viewer");
  await page.click("#add-member button[type=submit]");
  await page.waitForSelector("#add-member-status");
  assert.match(await page.textContent("#add-member-status"), /bo was already a member: role changed from editor to viewer/);
  assert.deepEqual(errors, []);
});
