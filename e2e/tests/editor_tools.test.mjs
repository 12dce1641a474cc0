// Journeys on the editor's tools: use_preset (gallery -> new template), memory_panel, side_by_side, form_maps
// (optimizer/scheduler params per type, named groups, the "auto" switch), jump_to_problem
// (gutter markers, click a diagnostic -> its line or field), api_tokens (settings page), and
// keyboard_only (every control named, reachable by Tab, nothing wider than 1280x720).
// A real server on a free port (SQLite in a scratch directory), real chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, signIn, artifacts } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["lin", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

const signedIn = () => signIn(browser, base, "lin", PASSWORD);

/// A new template from a preset of the gallery; resolves on its editor with v1 loaded.
async function fromPreset(page, preset, name) {
  await page.goto(`${base}/templates`);
  await page.waitForSelector(`#presets [data-preset="${preset}"]`);
  await page.click(`#presets [data-preset="${preset}"] .use-preset`);
  // The preset asks for a name first (prefilled with its title).
  const field = page.locator(`#presets [data-preset="${preset}"] .preset-name`);
  await field.waitFor();
  await field.fill(name);
  await page.click(`#presets [data-preset="${preset}"] .create-preset`);
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
}

test("use_preset and memory_panel: start from ZeRO-3, see it among stages 0-3, against 24 GiB", async () => {
  const { page, errors, context } = await signedIn();
  await page.goto(`${base}/templates`);
  // Eight presets, each with a title and a description (once the page has rendered).
  await page.waitForSelector("#presets .preset");
  assert.equal(await page.locator("#presets .preset").count(), 8);
  await fromPreset(page, "zero3", "z3-from-preset");
  const text = await page.inputValue("#config");
  assert.match(text, /"stage":\s*3/);
  assert.match(await page.textContent("#verdict"), /would accept/);
  await page.waitForSelector('#history li[data-version="1"]');
  assert.match(await page.textContent('#history li[data-version="1"]'), /from preset zero3/);

  // The memory panel: 7 lines of the table (0, 1, 2, 2+opt, 3, 3+opt, 3+opt+params), the
  // config's own line marked (the preset offloads parameters and optimizer).
  await page.fill("#ctx-gpus", "8");
  await page.press("#ctx-gpus", "Tab");
  const bars = page.locator("#memory-bars .bar");
  assert.equal(await bars.count(), 7);
  const current = page.locator("#memory-bars .bar.current");
  assert.equal(await current.count(), 1);
  assert.match(await current.textContent(), /ZeRO-3 \+ optimizer \+ parameter offload/);
  assert.match(await current.textContent(), /CPU per node/);
  // Per-GPU bytes fall from ZeRO-0 to ZeRO-3 with offload (7B default).
  const bytes = await bars.evaluateAll((els) => els.map((e) => Number(e.dataset.gpuBytes)));
  assert.ok(bytes[0] > bytes[1] && bytes[1] > bytes[2] && bytes[4] > bytes[6], bytes.join(","));
  // 200 GiB GPUs: everything fits; 24 GiB GPUs: plain data parallel (~112 GB of model states) no longer fits.
  await page.fill("#ctx-gpu-mem", "200");
  await page.press("#ctx-gpu-mem", "Tab");
  await page.waitForFunction(() => document.querySelectorAll("#memory-bars .bar").length === 7);
  assert.equal(await page.locator("#memory-bars .bar.over").count(), 0);
  await page.fill("#ctx-gpu-mem", "24");
  await page.press("#ctx-gpu-mem", "Tab");
  await page.waitForSelector("#memory-bars .bar.over");
  assert.match(await page.locator("#memory-bars .bar").first().textContent(), /exceeds GPU memory/);
  // The 7B preset is its real count (6.74B), shown in the model select.
  assert.equal(await page.inputValue("#mem-params"), "6.74B");
  assert.equal(await page.inputValue("#mem-preset"), "7B");
  // A bigger model by count; a bad count is named.
  await page.selectOption("#mem-preset", "70B");
  await page.waitForFunction((b0) => Number(document.querySelector("#memory-bars .bar").dataset.gpuBytes) > b0, bytes[0]);
  await page.fill("#mem-params", "seven billion");
  await page.waitForSelector("#memory-panel .error");
  await page.fill("#mem-params", "13B");
  await page.waitForSelector("#memory-bars");
  // The 13B preset has a shape, so activations are counted too.
  await page.selectOption("#mem-preset", "13B");
  // Each line's parts: the table lists them per stage, and every bar is their sum.
  assert.equal(await page.locator("#memory-why").count(), 0, "at 8 GPUs every stage saves memory");
  await page.click("#memory-parts summary");
  const partRows = await page.locator("#memory-parts tbody tr").evaluateAll((rows) => rows.map((r) => r.dataset.part));
  for (const part of ["Parameters", "OptimizerStates", "GatheredParameters", "OptimizerStep"]) {
    assert.ok(partRows.includes(part), partRows.join(","));
  }
  // One GPU: ZeRO-3 costs more than ZeRO-0 (it gathers what it partitions over one GPU), and
  // the panel says why; the empty GPU memory field says it is not set rather than showing a number.
  await page.fill("#ctx-gpus", "1");
  await page.press("#ctx-gpus", "Tab");
  await page.waitForSelector('#memory-why li[data-stage="3"]');
  assert.match(await page.textContent('#memory-why li[data-stage="3"]'), /ZeRO-3 needs .* more per GPU than ZeRO-0 here: with 1 GPU\(s\), partitioning saves .* but adds .*ZeRO-3 gathered parameters/);
  await page.fill("#ctx-gpu-mem", "");
  await page.press("#ctx-gpu-mem", "Tab");
  assert.equal(await page.getAttribute("#ctx-gpu-mem", "placeholder"), "not set");
  await page.screenshot({ path: join(artifacts, "memory_panel.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("form_maps: optimizer params follow the type, groups can be added, auto under the HF Trainer", async () => {
  const { page, errors, context } = await signedIn();
  await fromPreset(page, "zero2", "maps");
  await page.click("#view-form");
  await page.waitForSelector("#form");

  // The preset's optimizer is AdamW: its parameters are rows with tooltips.
  await page.fill("#key-search", "optimizer");
  const params = page.locator("#field-optimizer-params");
  await params.waitFor({ state: "visible" });
  for (const p of ["lr", "betas", "eps", "weight_decay"]) {
    assert.equal(await params.locator(`.map-row[data-member="${p}"]`).count(), 1, p);
  }
  // Its description arrives with the key docs (fetched when the form first shows).
  await page.waitForFunction(() => /^Learning rate/.test(document.querySelector('#field-optimizer-params .map-row[data-member="lr"] [role="tooltip"]')?.textContent || ""));
  assert.match(await params.locator('.map-row[data-member="lr"] [role="tooltip"]').textContent(), /Type: float/);
  // The rows fit in the form (nothing hidden under the results column).
  const form = await page.locator("#form").boundingBox();
  const plus = await params.locator(".map-add-button").boundingBox();
  assert.ok(plus.x + plus.width <= form.x + form.width, `${plus.x + plus.width} > ${form.x + form.width}`);
  await page.fill("#field-optimizer-params-lr", "3e-4");
  await page.press("#field-optimizer-params-lr", "Tab");
  await page.waitForFunction(() => /"lr":\s*3e-4/.test(document.querySelector("#config").value));

  // A parameter AdamW does not take: added as a row of its own, marked, then removed.
  await params.locator(".map-new-name").fill("momentum");
  await params.locator(".map-new-value").fill("0.9");
  await params.locator(".map-add-button").click();
  await page.waitForSelector('#field-optimizer-params .map-row.unknown[data-member="momentum"]');
  assert.match(await page.inputValue("#config"), /"momentum":\s*0.9/);
  await page.click('#field-optimizer-params .map-row[data-member="momentum"] .remove');
  await page.waitForFunction(() => !document.querySelector("#config").value.includes("momentum"));

  // A named group (a curriculum metric) by name.
  await page.fill("#key-search", "curriculum_metrics");
  const groups = page.locator("#field-data_efficiency-data_sampling-curriculum_learning-curriculum_metrics");
  await groups.waitFor({ state: "visible" });
  await groups.locator(".map-new-name").fill("seqlen");
  await groups.locator(".map-new-value").fill('{"difficulty_type": "value", "clustering_type": "single_cluster"}');
  await groups.locator(".map-new-value").press("Enter");
  await groups.locator('.map-row[data-member="seqlen"]').waitFor();
  assert.match(await page.inputValue("#config"), /"seqlen":\s*\{"difficulty_type"/);

  // "auto" is offered only where the launcher fills it in.
  await page.fill("#key-search", "train_batch_size");
  assert.equal(await page.isVisible("#field-train_batch_size-auto"), false);
  await page.selectOption("#ctx-launcher", "hf-trainer");
  await page.waitForSelector("#field-train_batch_size-auto", { state: "visible" });
  await page.check("#field-train_batch_size-auto");
  await page.waitForFunction(() => /"train_batch_size":\s*"auto"/.test(document.querySelector("#config").value));
  // Unchecking puts back the value "auto" replaced.
  await page.uncheck("#field-train_batch_size-auto");
  await page.waitForFunction(() => /"train_batch_size":\s*128/.test(document.querySelector("#config").value));
  // A bool key: "auto" is written as the string "auto", not a quoted quote.
  await page.fill("#key-search", "bf16.enabled");
  await page.check("#field-bf16-enabled-auto");
  await page.waitForFunction(() => /"enabled":\s*"auto"/.test(document.querySelector("#config").value));
  assert.doesNotMatch(await page.inputValue("#config"), /\\"auto/);
  // Shown as the choice "auto", not as a red "auto ✗" (issue 49).
  await page.waitForFunction(() => document.querySelector("#field-bf16-enabled")?.selectedOptions[0]?.textContent === "auto");
  assert.equal(await page.$eval("#field-bf16-enabled", (e) => e.classList.contains("invalid")), false);
  // And in a params map: the optimizer's learning rate.
  await page.fill("#key-search", "optimizer");
  await page.check("#field-optimizer-params-lr-auto");
  await page.waitForFunction(() => /"lr":\s*"auto"/.test(document.querySelector("#config").value));
  await page.screenshot({ path: join(artifacts, "form_maps.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

test("side_by_side: the JSON and the form together, each edit shows in the other", async () => {
  const { page, errors, context } = await signedIn();
  await fromPreset(page, "zero1", "split");
  await page.click("#view-split");
  await page.waitForSelector("#form");
  assert.ok(await page.isVisible("#config"));
  const [a, b] = [await page.locator(".json-view").boundingBox(), await page.locator("#form").boundingBox()];
  assert.ok(a.x + a.width <= b.x + 1, "the text is left of the form");
  // The form writes the text...
  await page.fill("#key-search", "gradient_clipping");
  await page.fill("#field-gradient_clipping", "0.5");
  await page.press("#field-gradient_clipping", "Tab");
  await page.waitForFunction(() => /"gradient_clipping":\s*0.5/.test(document.querySelector("#config").value));
  // ...and the text the form.
  await page.fill("#config", (await page.inputValue("#config")).replace(/"gradient_clipping":\s*0.5/, '"gradient_clipping": 2e0'));
  await page.waitForFunction(() => document.querySelector("#field-gradient_clipping").value === "2e0");
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
  await page.screenshot({ path: join(artifacts, "side_by_side.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

// Journey typed_form: a number field takes numbers as DeepSpeed reads them and refuses the
// rest at the field (the "1,0" was written as the string "1,0", and the job died at
// step 1); what was typed stays while it is wrong, the text is untouched; 中文 too.
test("typed_form: 1,0 is refused at the field, 1e-5 and 5e8 are kept as written", async () => {
  const { page, errors, context } = await signedIn();
  await fromPreset(page, "zero1", "typed");
  await page.click("#view-split");
  await page.waitForSelector("#form");
  await page.fill("#key-search", "gradient_clipping");
  const before = await page.inputValue("#config");
  await page.fill("#field-gradient_clipping", "1,0");
  await page.press("#field-gradient_clipping", "Tab");
  const error = page.locator('.field[data-path="gradient_clipping"] .field-error.typed');
  await error.waitFor();
  assert.match(await error.textContent(), /“1,0” is not a number: write decimals with a dot \(1\.0\)/);
  assert.equal(await page.inputValue("#field-gradient_clipping"), "1,0", "what was typed stays");
  assert.equal(await page.getAttribute("#field-gradient_clipping", "aria-invalid"), "true");
  assert.equal(await page.inputValue("#config"), before, "the text is untouched");
  await page.screenshot({ path: join(artifacts, "typed_form_refused.png") });
  // Fixed: written as typed, the error gone.
  await page.fill("#field-gradient_clipping", "0.8");
  await page.press("#field-gradient_clipping", "Tab");
  await page.waitForFunction(() => /"gradient_clipping":\s*0\.8\b/.test(document.querySelector("#config").value));
  assert.equal(await error.count(), 0);
  // Numbers keep their spelling.
  await page.fill("#key-search", "reduce_bucket_size");
  await page.fill("#field-zero_optimization-reduce_bucket_size", "5e8");
  await page.press("#field-zero_optimization-reduce_bucket_size", "Tab");
  await page.waitForFunction(() => /"reduce_bucket_size":\s*5e8\b/.test(document.querySelector("#config").value));
  // A whole-number key refuses 2.5; in 中文 the reason is Chinese.
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "zh"));
  await page.reload();
  await page.click("#view-form");
  await page.waitForSelector("#form");
  await page.fill("#key-search", "steps_per_print");
  await page.fill("#field-steps_per_print", "2.5");
  await page.press("#field-steps_per_print", "Tab");
  await page.waitForSelector('.field[data-path="steps_per_print"] .field-error.typed');
  assert.match(await page.textContent('.field[data-path="steps_per_print"] .field-error.typed'), /需要整数，而不是 2\.5/);
  await page.screenshot({ path: join(artifacts, "typed_form_refused_zh.png") });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "en"));
  assert.deepEqual(errors, []);
  await context.close();
});

test("jump_to_problem: the gutter marks the line, a click on a diagnostic selects it", async () => {
  const { page, errors, context } = await signedIn();
  await fromPreset(page, "zero1", "jump");
  const lines = Array.from({ length: 12 }, (_, i) => `  // note ${i + 1}`);
  await page.fill("#config", `{\n${lines.join("\n")}\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2, "overlap_com": true}\n}`);
  const diag = page.locator('#diagnostics li.diag[data-code="unknown-key"]');
  await diag.first().waitFor();
  const line = Number((await diag.first().locator(".pos").textContent()).split(":")[0]);
  assert.equal(line, 15);
  await page.waitForSelector(`.gutter .marker[data-line="${line}"]`);
  assert.match(await page.textContent(".gutter .line-numbers"), /\n15\n16$/);
  await diag.first().click();
  await page.waitForFunction(() => document.activeElement === document.querySelector("#config"));
  const sel = await page.evaluate(() => {
    const t = document.querySelector("#config");
    return [document.activeElement === t, t.value.slice(t.selectionStart, t.selectionEnd)];
  });
  assert.equal(sel[0], true);
  assert.match(sel[1], /overlap_com/);
  // In the form view, the same click focuses the field (or its nearest ancestor's).
  await page.fill("#config", '{"train_batch_size": 0}');
  await page.click("#view-form");
  await page.waitForSelector("#form");
  await page.locator('#diagnostics li.diag[data-path="/train_batch_size"]').first().press("Enter");
  await page.waitForFunction(() => document.activeElement?.id === "field-train_batch_size");
  assert.deepEqual(errors, []);
  await context.close();
});

test("api_tokens: create a token in the settings, use it, revoke it", async () => {
  const { page, errors, context } = await signedIn();
  await page.click("#nav-settings");
  await page.waitForSelector("#new-token");
  await page.fill("#token-name", "ci laptop");
  await page.click("#new-token button[type=submit]");
  await page.waitForSelector("#new-token-value");
  const token = (await page.textContent("#new-token-value")).trim();
  assert.ok(token.length > 20);
  await page.waitForSelector("#tokens li");
  assert.match(await page.textContent("#tokens"), /ci laptop/);
  assert.match(await page.textContent("#tokens"), /never used/);
  const me = await fetch(`${base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(me.status, 200);
  assert.equal((await me.json()).user.name, "lin");

  await page.click("#tokens li .revoke-token");
  await page.waitForSelector("#tokens li .badge");
  const after = await fetch(`${base}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(after.status, 401);

  // The language setting here is the same as the header's switch, and remembered.
  await page.check("#lang-zh");
  await page.waitForFunction(() => document.querySelector("#nav-settings")?.textContent === "设置");
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#nav-settings")?.textContent === "设置");
  await page.check("#lang-en");
  await page.screenshot({ path: join(artifacts, "api_tokens.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("keyboard_only: every control has a name, Tab reaches the editor's controls, 1280x800 keeps Save and Run in view, 1024 does not overflow, the Run dialog is modal, focus follows navigation", async () => {
  const { page, errors, context } = await signedIn();
  await fromPreset(page, "zero2", "keys");
  for (const view of ["#view-json", "#view-form"]) {
    await page.click(view);
    // Every form section open, so that every field is checked.
    await page.evaluate(() => document.querySelectorAll("details").forEach((d) => { d.open = true; }));
    // No control without an accessible name (label, aria-label, title or text).
    const unnamed = await page.evaluate(() => [...document.querySelectorAll("input, select, textarea, button")]
      .filter((el) => el.offsetParent !== null)
      .filter((el) => !(el.labels?.length || el.getAttribute("aria-label") || el.getAttribute("title") || el.textContent.trim()))
      .map((el) => el.outerHTML.slice(0, 80)));
    assert.deepEqual(unnamed, [], view);
    // Nothing wider than the window.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), view);
  }
  // Tab from the top reaches the context bar, the view switch and the save button, in order.
  await page.click("#view-json");
  await page.focus("#ctx-nodes");
  const seen = [];
  for (let i = 0; i < 60 && !seen.includes("save"); i++) {
    await page.keyboard.press("Tab");
    seen.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName));
  }
  for (const id of ["ctx-gpus", "ctx-launcher", "ctx-gpu-mem", "view-json", "config", "save"]) {
    assert.ok(seen.includes(id), `${id} not reached by Tab: ${seen.join(" ")}`);
  }
  assert.ok(seen.indexOf("ctx-gpus") < seen.indexOf("config") && seen.indexOf("config") < seen.indexOf("save"));
  // Enter on the Save button saves (keyboard only).
  await page.fill("#config", (await page.inputValue("#config")).replace('"gradient_clipping": 1.0', '"gradient_clipping": 0.5'));
  await page.focus("#save");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#save-status");
  await page.screenshot({ path: join(artifacts, "keyboard_only.png") });
  // Ctrl+S saves from the text itself (not the browser's "save page").
  const saved = await page.textContent("#save-status");
  await page.fill("#config", (await page.inputValue("#config")).replace('"gradient_clipping": 0.5', '"gradient_clipping": 0.7'));
  await page.focus("#config");
  await page.keyboard.press("Control+s");
  await page.waitForFunction((before) => document.querySelector("#save-status")?.textContent !== before, saved);
  assert.match(await page.textContent("#save-status"), /v\d+/);
  // At 1280×800 the context bar is one row and Save and Run are in view (a sticky action bar),
  // however long the text.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => { document.querySelector("#template-details").open = false; window.scrollTo(0, 0); });
  const tops = await page.locator("#context-bar > label").evaluateAll((ls) => ls.map((l) => Math.round(l.getBoundingClientRect().top)));
  assert.ok(Math.max(...tops) - Math.min(...tops) <= 3, `context bar rows: ${tops.join(",")}`);
  for (const id of ["save", "run"]) {
    const bottom = await page.evaluate((id) => document.getElementById(id).getBoundingClientRect().bottom, id);
    assert.ok(bottom <= 800, `${id} below the fold: ${bottom}`);
  }
  // Down to 1024 px nothing widens the page, in every view, even with a long unknown key.
  await page.fill("#config", (await page.inputValue("#config")).replace('"gradient_clipping"', '"an_unknown_key_long_enough_to_widen_any_page_that_does_not_wrap_its_paths_and_messages": 1, "gradient_clipping"'));
  await page.setViewportSize({ width: 1024, height: 800 });
  for (const view of ["#view-json", "#view-form", "#view-split"]) {
    await page.click(view);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 1024), `${view} overflows at 1024`);
  }
  await page.click("#view-json");
  await page.setViewportSize({ width: 1280, height: 800 });
  // The Run dialog is modal (the page behind it inert) and Escape closes it.
  await page.click("#run");
  await page.waitForSelector("#run-dialog");
  assert.equal(await page.evaluate(() => document.querySelector("dialog.modal")?.matches(":modal")), true);
  await page.keyboard.press("Escape");
  await page.waitForSelector("#run-dialog", { state: "detached" });
  // After a navigation in the app the focus is on the new page's heading.
  await page.goto(`${base}/templates`);
  await page.locator("#templates a", { hasText: "keys" }).click();
  await page.waitForFunction(() => document.activeElement?.id === "template-name");
  // The first Tab of a page is a skip link to its content.
  await page.goto(`${base}/templates`);
  await page.waitForSelector("#whoami");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "skip-link");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "main");
  assert.deepEqual(errors, []);
  await context.close();
});
