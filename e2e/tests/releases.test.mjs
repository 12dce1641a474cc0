// Journey releases: the DeepSpeed release is part of the context. On `/`, an `amp` config is
// accepted for 0.18.4 (LLaMA-Factory's pin) and rejected for 0.19.8 with DeepSpeed's own removal
// message. In the editor, a template on 0.18.4 is accepted; picking 0.19.8 rejects it, marks the
// version unsaved and offers the upgrade: the panel lists the removal, "Apply the fixes" removes
// the block (the comment stays) and the config is accepted in 0.19.8. Screenshots in English and
// in Chinese at 1280x800.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, signIn, artifacts, createTemplate } from "../lib/studio.mjs";

const PASSWORD = "releases-e2e-pass-1";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["mei", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

const AMP = `{
  // apex mixed precision, as many older recipes have it
  "train_batch_size": 8,
  "train_micro_batch_size_per_gpu": 8,
  "amp": {"enabled": true, "opt_level": "O1"}
}
`;

const verdictIs = (page, re) =>
  page.waitForFunction((src) => new RegExp(src).test(document.querySelector("#verdict")?.textContent ?? ""), re.source);

test("validate page: the release picker decides what is accepted", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  await page.waitForSelector("#release");
  // Newest first, 43 releases.
  const options = await page.locator("#release option").evaluateAll((els) => els.map((e) => e.value));
  assert.equal(options.length, 43);
  assert.equal(options[0], "0.19.8");
  assert.equal(options.at(-1), "0.14.4");
  // One GPU: the batch triple of the recipe (8 = 8 x 1 x 1) holds.
  await page.fill("#world-size", "1");
  await page.fill("#config", AMP);
  await verdictIs(page, /reject/);
  assert.match(await page.textContent("#diagnostics"), /`amp` was removed in DeepSpeed 0\.19\.8/);
  assert.match(await page.textContent("#diagnostics"), /torch_autocast/);
  await page.selectOption("#release", "0.18.4");
  await verdictIs(page, /accept/);
  // The panel that says what the move changes follows the text: another config, its rows.
  await page.waitForSelector('#upgrade-changes li[data-path="/amp"]');
  await page.fill("#config", '{"train_batch_size": 8, "zero_optimization": {"stage": 2}}');
  await page.waitForFunction(() => !document.querySelector('#upgrade-changes li[data-path="/amp"]'));
  // zenflow arrived in 0.17.5: 0.17.4 rejects it, naming the release.
  await page.fill("#config", '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "zenflow": {"topk_ratio": 0.1}}}');
  await page.selectOption("#release", "0.17.4");
  await verdictIs(page, /reject/);
  assert.match(await page.textContent("#diagnostics"), /arrived in DeepSpeed 0\.17\.5/);
  assert.deepEqual(errors, []);
});

test("editor: pick 0.19.8 for an amp config, see the removal and the upgrade offer, apply it", async () => {
  const { page, errors, context } = await signIn(browser, base, "mei", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  // A template whose version is saved for DeepSpeed 0.18.4.
  const created = await createTemplate(page, { name: "apex recipe", config_text: AMP, context: { world_size: 1, deepspeed_version: "0.18.4" } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await page.goto(`${base}/templates/${created.body.id}`);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  assert.equal(await page.inputValue("#ctx-release"), "0.18.4");
  await verdictIs(page, /accept/);
  assert.equal(await page.locator("#dirty").count(), 0);
  // Moving to 0.19.8: rejected with DeepSpeed's removal message, unsaved, upgrade offered.
  await page.selectOption("#ctx-release", "0.19.8");
  await verdictIs(page, /reject/);
  assert.match(await page.textContent("#diagnostics"), /`amp` was removed in DeepSpeed 0\.19\.8/);
  await page.waitForSelector("#dirty");
  await page.waitForSelector("#upgrade-panel");
  assert.match(await page.textContent("#upgrade-panel"), /0\.18\.4.*0\.19\.8/);
  assert.equal(await page.locator('#upgrade-changes li[data-kind="removed"][data-path="/amp"]').count(), 1);
  assert.equal(await page.locator('#upgrade-changes li[data-kind="default"][data-path="/gradient_clipping"]').count(), 1);
  await page.screenshot({ path: join(artifacts, "releases_upgrade_en.png") });
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#upgrade-panel")?.textContent.includes("切换到"));
  await page.screenshot({ path: join(artifacts, "releases_upgrade_zh.png") });
  await page.click("#lang");
  await page.click("#upgrade-apply");
  await verdictIs(page, /accept/);
  const text = await page.inputValue("#config");
  assert.ok(!text.includes('"amp"'), text);
  assert.match(text, /\/\/ apex mixed precision/);
  assert.equal(await page.locator("#upgrade-panel").count(), 0);
  // Saved with the version: the new version's context names 0.19.8.
  await page.click("#save");
  await page.waitForSelector("#save-status");
  const head = await page.evaluate(async (id) => (await fetch(`/api/v1/templates/${id}/versions/head`)).json(), created.body.id);
  assert.equal(head.context.deepspeed_version, "0.19.8");
  // The diff of the two versions says they were judged for different releases.
  await page.goto(`${base}/templates/${created.body.id}/diff/1/${head.version}`);
  await page.waitForSelector("#diff-release");
  assert.match(await page.textContent("#diff-release"), /0\.18\.4 → 0\.19\.8/);
  // Asked from an older release ("What changes in 0.19.8?"), applying the fixes moves the
  // picker to 0.19.8; picking an older release says what it does differently.
  await page.goto(`${base}/templates/${created.body.id}`);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "2");
  await page.selectOption("#ctx-release", "0.18.4");
  await page.waitForSelector("#upgrade-panel");
  assert.match(await page.textContent("#upgrade-panel strong"), /What DeepSpeed 0\.18\.4 does differently from 0\.19\.8/);
  await page.click("#upgrade-dismiss");
  await page.fill("#config", AMP);
  await page.click("#what-changes");
  await page.waitForSelector("#upgrade-apply");
  assert.equal(await page.locator('#upgrade-changes li[data-kind="resolved"][data-path="/amp"]').count(), 0);
  await page.click("#upgrade-apply");
  await verdictIs(page, /accept/);
  assert.equal(await page.inputValue("#ctx-release"), "0.19.8");
  assert.deepEqual(errors, []);
  await context.close();
});
