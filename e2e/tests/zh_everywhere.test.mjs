// Journey chinese_everywhere (issue 13, item 11): every page in 中文, signed in and out, with
// its states (not found, errors from the server, dialogs and panels open), fails on any
// English UI text. What is not UI text is left out: the config itself (text, keys, values),
// names the user gave, and the names of things (DeepSpeed, ZeRO, JSON, GPU, HF Trainer...).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, signIn, createTemplate, artifacts } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["lan", PASSWORD, "--role", "admin"]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

/// English words that are names, not UI text (products, formats, units, config vocabulary).
const NAMES = new Set(("deepspeed zero json hf trainer accelerate gpu gpus cpu api nvme bf16 fp16 fp32 adam adamw " +
  "tp pp sp torchrun sbatch slurm hostfile yaml gib mib kb mb gb ms lr loss ds studio schema vs code " +
  "csv swagger bearer token auto ulysses offload muon lamb warmuplr onecycle gpt tiny small id ok utc").split(" "));

/// The English phrases of a page: runs of two or more ASCII words (each of 2+ letters, not a
/// name) in the text outside the config, the user's own names and code.
async function english(page, root = "main") {
  return page.evaluate(([names, root]) => {
    const skip = "textarea, pre, code, script, style, .path, .field-name, .map-label, option, #template-name, #templates td:first-child a, .tag, #whoami, [data-user], #memory-bars .bar-label, .diag .msg code, kbd, time, input, select";
    const names_ = new Set(names);
    const found = new Set();
    const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip) || el.offsetParent === null) continue;
      // Chinese characters are words of their own: they end a run of English words.
      const words = n.textContent.match(/[A-Za-z0-9_.\-]+|[\u3000-\u9fff\uff00-\uffef]+/g) || [];
      let run = [];
      const flush = () => { if (run.length >= 2) found.add(run.join(" ")); run = []; };
      for (const w of words) {
        const plain = /^[A-Za-z]{2,}$/.test(w) && !names_.has(w.toLowerCase());
        if (plain) run.push(w); else flush();
      }
      flush();
    }
    // Attributes a user meets too: placeholders, labels for screen readers, tooltips' buttons.
    for (const el of document.querySelectorAll("main [placeholder], main [aria-label]")) {
      if (el.offsetParent === null) continue;
      for (const attr of ["placeholder", "aria-label"]) {
        const v = el.getAttribute(attr);
        if (!v) continue;
        // Values (`autotuning_exps`, `symmetric (symmetric|asymmetric)`) are not words.
        const words = v.split(/\s+/).filter((w) => /^[A-Za-z]{2,}$/.test(w) && !names_.has(w.toLowerCase()));
        if (words.length >= 2 && !/[\u4e00-\u9fff]/.test(v)) found.add(`${attr}=${v}`);
      }
    }
    return [...found];
  }, [[...NAMES], root]);
}

test("chinese_everywhere: no English UI text on any page in 中文", async () => {
  const { page, errors, context } = await signIn(browser, base, "lan", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "zh"));
  const created = await createTemplate(page, {
    name: "z2", config_text: '{\n  "train_batch_size": 100,\n  "train_micro_batch_size_per_gpu": 4,\n  "steps_per_print": 1,\n  "zero_optimization": {"stage": 2}\n}\n',
    context: { world_size: 8 },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  const share = await page.evaluate(async (id) => {
    const me = await (await fetch("/api/v1/auth/me")).json();
    const h = { "content-type": "application/json", "x-csrf-token": me.csrf_token };
    await fetch(`/api/v1/templates/${id}/versions`, { method: "POST", headers: h, body: JSON.stringify({ base_version: 1, config_text: '{"train_batch_size": 100, "train_micro_batch_size_per_gpu": 16, "gradient_accumulation_steps": 8, "steps_per_print": 1, "zero_optimization": {"stage": 2, "overlap_comm": false}}', message: "v2" }) });
    const url = (await (await fetch(`/api/v1/templates/${id}/share`, { method: "POST", headers: h, body: "{}" })).json()).url;
    // Two queued jobs (two nodes: the local runner never claims them) for the job pages.
    const ok = await fetch("/api/v1/templates", { method: "POST", headers: h, body: JSON.stringify({ name: "runs", config_text: '{"train_batch_size": 8, "train_micro_batch_size_per_gpu": 1}', context: { world_size: 8 } }) });
    const tid = (await ok.json()).id;
    const jobs = [];
    for (let i = 0; i < 2; i++) {
      const r = await fetch("/api/v1/jobs", { method: "POST", headers: h, body: JSON.stringify({ template_id: tid, workload: { builtin: "gpt", size: "tiny" }, gpus: 4, nodes: 2, max_steps: 5 }) });
      jobs.push((await r.json()).id);
    }
    // A third, cancelled before it started: the job page shows how it ended.
    const c = await fetch("/api/v1/jobs", { method: "POST", headers: h, body: JSON.stringify({ template_id: tid, workload: { builtin: "gpt", size: "tiny" }, gpus: 4, nodes: 2, max_steps: 5 }) });
    const cancelled = (await c.json()).id;
    await fetch(`/api/v1/jobs/${cancelled}/cancel`, { method: "POST", headers: h });
    return { url, jobs, cancelled };
  }, id);

  const problems = [];
  const visit = async (name, go) => {
    await go();
    await page.waitForTimeout(400);
    const found = await english(page);
    if (found.length) problems.push(`${name}: ${found.join(" | ")}`);
  };
  await visit("validate", async () => { await page.goto(base); await page.waitForSelector("#verdict"); });
  await visit("templates", async () => { await page.goto(`${base}/templates`); await page.waitForSelector("#presets .preset"); });
  await visit("preset name form", async () => { await page.click('#presets [data-preset="zero2"] .use-preset'); await page.waitForSelector(".preset-form"); });
  await visit("editor json", async () => { await page.goto(`${base}/templates/${id}`); await page.waitForSelector("#diagnostics li"); });
  await visit("editor apply all", async () => { await page.click("#apply-all-fixes"); await page.waitForSelector("#apply-all-preview"); });
  await visit("editor details", async () => { await page.click("#template-details summary"); await page.click("#tpl-delete"); await page.waitForSelector("#delete-confirm"); });
  await visit("editor memory parts", async () => { await page.click("#tpl-delete-cancel"); await page.click("#memory-parts summary"); });
  await visit("editor form", async () => { await page.click("#view-form"); await page.waitForSelector("#form .field"); });
  // A tooltip in the form: description, default and allowed values.
  for (const key of ["train_batch_size", "zero_optimization.overlap_comm", "gradient_clipping"]) {
    await page.fill("#key-search", key.split(".").pop());
    await page.focus(`[data-path="${key}"] .tip button.info`);
    await page.waitForSelector(".tip-body");
    const found = await english(page, ".tip-body");
    if (found.length) problems.push(`tooltip ${key}: ${found.join(" | ")}`);
    await page.keyboard.press("Escape");
  }
  await page.fill("#key-search", "");
  await visit("editor effective", async () => { await page.click("#view-json"); await page.click("#effective-panel summary"); });
  await visit("run dialog", async () => { await page.click("#run"); await page.waitForSelector("#run-dialog"); });
  await page.keyboard.press("Escape");
  await visit("server error", async () => {
    await page.evaluate(() => { document.querySelector("#template-details").open = true; });
    await page.waitForSelector("#tpl-name");
    await page.fill("#tpl-name", "a/b");
    await page.click("#tpl-save");
    await page.waitForSelector("#details-error");
  });
  await visit("version", async () => { await page.goto(`${base}/templates/${id}/v/1`); await page.waitForSelector("#version-title"); });
  await visit("diff", async () => { await page.goto(`${base}/templates/${id}/diff/1/2`); await page.waitForSelector("#diff"); });
  await visit("jobs", async () => { await page.goto(`${base}/jobs`); await page.waitForTimeout(500); });
  await visit("settings", async () => { await page.goto(`${base}/settings`); await page.waitForTimeout(500); });
  await visit("not found", async () => { await page.goto(`${base}/templates/abc`); await page.waitForSelector("#not-found"); });
  await visit("no such page", async () => { await page.goto(`${base}/nowhere`); await page.waitForSelector("#not-found"); });
  assert.equal(share.jobs.length, 2);
  await visit("jobs with rows", async () => { await page.goto(`${base}/jobs`); await page.waitForSelector(`#runs tr[data-id="${share.jobs[0]}"], [data-job="${share.jobs[0]}"], table`); });
  await visit("job", async () => { await page.goto(`${base}/jobs/${share.jobs[0]}`); await page.waitForSelector("#job-state"); });
  await visit("cancelled job", async () => { await page.goto(`${base}/jobs/${share.cancelled}`); await page.waitForSelector("#job-message"); });
  assert.equal(await page.textContent("#job-message"), "在开始之前已被取消");
  await visit("compare", async () => { await page.goto(`${base}/jobs/compare/${share.jobs.join(",")}`); await page.waitForTimeout(800); });
  await visit("shared", async () => { await page.goto(share.url); await page.waitForSelector("#shared-config"); });
  await page.screenshot({ path: join(artifacts, "zh_everywhere_shared.png") });
  // Signed out: the prompt and the shared page.
  const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const p2 = await anon.newPage();
  await p2.goto(base);
  await p2.evaluate(() => localStorage.setItem("ds-studio.lang", "zh"));
  await p2.goto(`${base}/templates`);
  await p2.waitForSelector("#signin-prompt");
  const signedOut = await english(p2);
  if (signedOut.length) problems.push(`signed out: ${signedOut.join(" | ")}`);
  await p2.goto(`${base}/signin`);
  await p2.waitForSelector("#signin");
  await p2.fill("#username", "lan");
  await p2.fill("#password", "wrong-password");
  await p2.click("#signin-submit");
  await p2.waitForSelector("#signin .error");
  const wrong = await english(p2);
  if (wrong.length) problems.push(`sign-in error: ${wrong.join(" | ")}`);
  assert.match(await p2.textContent("#signin .error"), /用户名或密码错误/);
  await anon.close();
  assert.deepEqual(problems, [], `English in 中文 mode:\n${problems.join("\n")}`);
  // The check itself can fail: in English the same pages are full of English phrases.
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "en"));
  await page.goto(`${base}/templates/${id}`);
  await page.waitForSelector("#diagnostics li");
  assert.ok((await english(page)).length > 5, "the checker finds English in English mode");
  assert.deepEqual(errors, []);
  await context.close();
});
