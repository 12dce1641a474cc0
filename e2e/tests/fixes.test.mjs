// Journey fixes_you_can_trust (issue 13, item 3): every fix says what it changes (old → new)
// before it is applied; "Apply all" applies the fixes that touch different keys after showing
// them; Ctrl+Z / Ctrl+Shift+Z (and the Undo/Redo buttons) walk back and forth over typing,
// fixes, "Apply all" and form edits. English and 中文. Real server, real chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, signIn, createTemplate, artifacts } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["ana", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

const CONFIG = `{
  "train_batch_size": 100,
  "train_micro_batch_size_per_gpu": 16,
  "gradient_accumulation_steps": 8,
  "steps_per_print": 1,
  "zero_optimization": {"stage": 2, "overlap_comm": false}
}
`;

const value = (page) => page.inputValue("#config");
const json = async (page) => JSON.parse(await value(page));

test("fixes_you_can_trust: old → new before applying, apply all, undo and redo over everything", async () => {
  const { page, errors } = await signIn(browser, base, "ana", PASSWORD);
  const created = await createTemplate(page, { name: "fix me", config_text: CONFIG, context: { world_size: 1 } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await page.goto(`${base}/templates/${created.body.id}`);
  await page.waitForFunction(() => document.querySelector("#config")?.value.includes("train_batch_size"));
  assert.equal(await page.isDisabled("#undo"), true, "nothing to undo on a loaded version");

  // The batch fix says it changes the global batch, 100 → 128, before it is applied.
  const batch = page.locator('li.diag[data-path="/train_batch_size"]').filter({ has: page.locator("button.fix") }).first();
  await batch.waitFor();
  const change = batch.locator(".fix-preview li.change").first();
  assert.equal(await change.locator("code").first().textContent(), "train_batch_size");
  assert.equal(await change.locator(".old").textContent(), "100");
  assert.equal(await change.locator(".new").textContent(), "128");

  // Typing: one word is one step.
  const at = (await value(page)).indexOf('"steps_per_print": 1') + '"steps_per_print": 1'.length;
  await page.focus("#config");
  await page.evaluate((at) => document.querySelector("#config").setSelectionRange(at, at), at);
  await page.keyboard.type("00");
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"steps_per_print": 100'));
  await page.waitForTimeout(1100);

  // A fix is a step of its own.
  await batch.locator("button.fix").click();
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"train_batch_size": 128'));
  assert.match(await page.textContent("#fix-status"), /Fixes applied: 1/);
  await page.focus("#config");
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"train_batch_size": 100'));
  assert.equal((await json(page)).steps_per_print, 100, "undo takes back the fix only");
  await page.keyboard.press("Control+z");
  await page.waitForFunction((c) => document.querySelector("#config").value === c, CONFIG);
  assert.equal(await value(page), CONFIG, "the second undo takes back the typing as one step");
  assert.equal(await page.isDisabled("#undo"), true);
  await page.keyboard.press("Control+Shift+z");
  await page.keyboard.press("Control+Shift+z");
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"train_batch_size": 128'));
  assert.equal((await json(page)).steps_per_print, 100);
  assert.equal(await page.isDisabled("#redo"), true, "redone to the end");
  // The Undo button does the same as Ctrl+Z.
  await page.click("#undo");
  await page.click("#undo");
  await page.waitForFunction((c) => document.querySelector("#config").value === c, CONFIG);

  // Apply all: the preview lists every change first; one click applies them; one undo takes
  // them all back.
  await page.waitForSelector("#apply-all-fixes");
  const offered = Number((await page.textContent("#apply-all-fixes")).match(/\((\d+)\)/)[1]);
  assert.ok(offered >= 2, `apply all offers ${offered}`);
  await page.click("#apply-all-fixes");
  const rows = await page.locator("#apply-all-preview li.change").allTextContents();
  assert.ok(rows.some((r) => /train_batch_size: 100 → 128/.test(r)), rows.join(" | "));
  assert.ok(rows.some((r) => /zero_optimization.overlap_comm: false → true/.test(r)), rows.join(" | "));
  assert.equal(await value(page), CONFIG, "nothing is applied before the confirmation");
  await page.screenshot({ path: join(artifacts, "fixes_apply_all.png") });
  await page.click("#apply-all-confirm");
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"train_batch_size": 128'));
  const fixed = await json(page);
  assert.equal(fixed.zero_optimization.overlap_comm, true);
  assert.equal(fixed.train_batch_size, 128);
  assert.match(await page.textContent("#fix-status"), new RegExp(`Fixes applied: ${offered}`));
  await page.click("#undo");
  await page.waitForFunction((c) => document.querySelector("#config").value === c, CONFIG);

  // A form edit is a step too.
  await page.click("#view-form");
  await page.fill("#field-steps_per_print", "50");
  await page.locator("#field-steps_per_print").blur();
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"steps_per_print": 50'));
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"steps_per_print": 1,'));
  assert.equal(await page.inputValue("#field-steps_per_print"), "1");
  await page.click("#view-json");

  // 中文: the preview and the buttons.
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#apply-all-fixes")?.textContent.includes("应用全部修复"));
  assert.equal(await page.textContent("#undo"), "撤销");
  await page.click("#apply-all-fixes");
  await page.waitForSelector("#apply-all-preview");
  assert.match(await page.textContent("#apply-all-preview"), /这些修复修改不同的键/);
  await page.screenshot({ path: join(artifacts, "fixes_zh.png") });
  await page.click("#apply-all-confirm");
  await page.waitForSelector("#fix-status");
  assert.match(await page.textContent("#fix-status"), /已应用修复/);
  // Another text (a paste) is not what the fixes left: the note goes.
  await page.fill("#config", '{"train_batch_size": 16}');
  await page.waitForSelector("#fix-status", { state: "detached" });
  // The form shows a value its list lacks as written, marked.
  await page.fill("#config", '{"train_batch_size": 16, "log_level": "verbose"}');
  await page.click("#view-split");
  await page.waitForSelector("#field-log_level.invalid", { state: "attached" });
  assert.equal(await page.inputValue("#field-log_level"), "verbose");
  assert.deepEqual(errors, []);
});

test("fixes on /: preview and undo without an account", async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base);
  await page.waitForSelector("#verdict");
  await page.fill("#world-size", "1");
  await page.fill("#config", CONFIG);
  const batch = page.locator('li.diag[data-path="/train_batch_size"]').filter({ has: page.locator("button.fix") }).first();
  await batch.waitFor();
  assert.match(await batch.locator(".fix-preview").textContent(), /train_batch_size: 100 → 128/);
  await batch.locator("button.fix").click();
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"train_batch_size": 128'));
  await page.focus("#config");
  await page.keyboard.press("Control+z");
  await page.waitForFunction(() => document.querySelector("#config").value.includes('"train_batch_size": 100'));
  assert.deepEqual(errors, []);
});
