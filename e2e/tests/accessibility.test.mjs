// Issue 49 (first hour III), in a real server and chromium at 1280×800:
// - axe-core (WCAG 2.0/2.1 A and AA rules) over the main pages in English and in 中文: no
//   serious or critical finding on any of them;
// - a viewer is offered only what a viewer may do (no Run again, Cancel, label Save, Start
//   sweep, Save the best; the editor's context bar is read-only);
// - the Run dialog judges the saved version, which is what runs, not unsaved edits.
// Beside the server's own local runner, a runner is played over the runner protocol (registered with its memory, one job run to the
// end with log lines and metrics), so the job page has a log, charts and figures.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { startStudio, signIn, createTemplate, artifacts, apiCall as call } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
let studio, browser, base;

before(async () => {
  studio = await startStudio({
    users: [["lead", PASSWORD, "--role", "admin"], ["vi", PASSWORD, "--role", "viewer"]],
  });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

/// A runner played over its protocol (Bearer token), as `backend/server/tests/sweeps.rs` does.
async function runner(token, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/// Serious and critical axe findings on the page as it is now, one line each.
async function axe(page) {
  if (!(await page.evaluate(() => typeof window.axe !== "undefined"))) {
    // Through the DevTools protocol: the studio's CSP (rightly) refuses inline scripts.
    await page.evaluate(AXE);
  }
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary.split("\n").slice(1, 2).join("")}`),
    }));
  });
  return result
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) ${v.nodes.join(" | ")}`);
}

let making;

/// A template with two versions and a share link, a job run to the end by a played runner,
/// and a sweep: what the pages show.
async function makeFixture(page) {
  making ??= build(page);
  return making;
}

async function build(page) {
  const made = await createTemplate(page, {
    name: "a11y",
    config_text: '{\n  "train_batch_size": 8,\n  "train_micro_batch_size_per_gpu": 2,\n  "steps_per_print": 1,\n  "bf16": {"enabled": true},\n  "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},\n  "zero_optimization": {"stage": 2}\n}\n',
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const tid = made.body.id;
  const v2 = await call(page, "POST", `/api/v1/templates/${tid}/versions`, {
    base_version: 1, message: "v2",
    config_text: '{\n  "train_batch_size": 8,\n  "train_micro_batch_size_per_gpu": 4,\n  "steps_per_print": 1,\n  "bf16": {"enabled": true},\n  "optimizer": {"type": "AdamW", "params": {"lr": 0.001}},\n  "zero_optimization": {"stage": 2}\n}\n',
  });
  assert.equal(v2.status, 201, JSON.stringify(v2.body));
  const share = await call(page, "POST", `/api/v1/templates/${tid}/share`, {});
  assert.equal(share.status, 201, JSON.stringify(share.body));
  // An HF Trainer template with "auto" values (the form shows them as a choice, not a typo).
  const hf = await createTemplate(page, {
    name: "a11y-hf",
    config_text: '{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 2}}',
    context: { launcher: "hf-trainer", trainer: { per_device_train_batch_size: 2, bf16: true } },
  });
  assert.equal(hf.status, 201, JSON.stringify(hf.body));

  // The played runner: a CPU host with 8 GiB.
  // Runner tokens are a server administrator's: made with the CLI on the server's data.
  const token = execFileSync(process.env.DS_STUDIO_BIN, ["runner-token", "create", "--name", "played", "--data", studio.data]).toString().trim().split("\n").pop();
  const reg = await runner(token, "POST", "/api/v1/runners", {
    name: "played", backend: "local", deepspeed: "0.19.8",
    devices: { gpus: [], cpu_cores: 2, host_memory_bytes: 8 * 2 ** 30 },
  });
  const job = await call(page, "POST", "/api/v1/jobs", { template_id: tid, workload: { builtin: "gpt", size: "tiny" }, max_steps: 40, name: "a11y run", runner: "played" });
  assert.equal(job.status, 201, JSON.stringify(job.body));
  const claimed = await runner(token, "POST", `/api/v1/runners/${reg.id}/claim`);
  assert.ok(claimed?.job, `the played runner claims the job: ${JSON.stringify(claimed)} ${JSON.stringify((await call(page, "GET", `/api/v1/jobs/${job.body.id}`)).body)}`);
  const jid = claimed.job.id;
  await runner(token, "POST", `/api/v1/runners/${reg.id}/jobs/${jid}/state`, { state: "running", preflight: { ok: true, accelerator: "cpu" } });
  const events = [];
  let seq = 1;
  for (let i = 1; i <= 40; i++) {
    events.push({ kind: "metric", seq: seq++, ts: i, name: "samples_per_sec", step: i, value: 120 + (i % 7) });
    events.push({ kind: "metric", seq: seq++, ts: i, name: "Train/Samples/train_loss", step: i * 8, value: 10 / i });
    events.push({ kind: "metric", seq: seq++, ts: i, name: "process/rss_mb", step: i, value: 700 + i });
  }
  for (let i = 1; i <= 120; i++) {
    events.push({ kind: "log", seq: seq++, ts: i, stream: "stdout", text: `[2026-11-28 12:00:${String(i % 60).padStart(2, "0")}] step ${i} loss ${(10 / i).toFixed(4)} and a long line to scroll sideways ${"·".repeat(120)}` });
  }
  await runner(token, "POST", `/api/v1/runners/${reg.id}/jobs/${jid}/events`, { events });
  await runner(token, "POST", `/api/v1/runners/${reg.id}/jobs/${jid}/state`, { state: "succeeded", exit_code: 0 });
  const sweep = await call(page, "POST", "/api/v1/sweeps", {
    template_id: tid, workload: { builtin: "gpt", size: "tiny" }, max_steps: 5,
    grid: [{ key: "train_micro_batch_size_per_gpu", values: [1, 2] }], keep_global_batch: true,
    runners: ["played"],
  });
  assert.equal(sweep.status, 201, JSON.stringify(sweep.body));
  return { tid, hfid: hf.body.id, share: share.body.url, job: jid, sweep: sweep.body.id, runnerToken: token, runnerId: reg.id };
}

test("axe-core finds no serious or critical problem on the main pages, in English and in 中文", { timeout: 300_000 }, async () => {
  const { page, errors, context } = await signIn(browser, base, "lead", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const f = await makeFixture(page);
  const pages = [
    ["validate", "/", "#verdict"],
    ["templates", "/templates", "#presets .preset"],
    ["editor", `/templates/${f.tid}`, "#diagnostics, #verdict"],
    ["editor form", `/templates/${f.hfid}`, "#view-form"],
    ["version", `/templates/${f.tid}/v/1`, "main h2"],
    ["jobs", "/jobs", "#jobs"],
    ["job", `/jobs/${f.job}`, "#job-log"],
    ["sweep", `/sweeps/${f.sweep}`, "#sweep-points"],
    ["new sweep", `/templates/${f.tid}/sweep`, "#sweep-grid"],
    ["settings", "/settings", "main h2"],
  ];
  const problems = [];
  for (const lang of ["en", "zh"]) {
    await page.evaluate((l) => localStorage.setItem("ds-studio.lang", l), lang);
    for (const [name, path, ready] of pages) {
      await page.goto(`${base}${path}`);
      await page.waitForSelector(ready);
      if (name === "editor form") {
        await page.click("#view-form");
        await page.waitForSelector("#form .field");
      }
      await page.waitForTimeout(300);
      for (const p of await axe(page)) problems.push(`${lang} ${name}: ${p}`);
      await page.screenshot({ path: join(artifacts, `a11y_${name.replace(/ /g, "_")}_${lang}.png`) });
    }
    // A share link, opened without an account.
    const anon = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const view = await anon.newPage();
    await view.goto(base);
    await view.evaluate((l) => localStorage.setItem("ds-studio.lang", l), lang);
    await view.goto(f.share);
    await view.waitForSelector("#shared-config");
    for (const p of await axe(view)) problems.push(`${lang} share link: ${p}`);
    await anon.close();
  }
  assert.deepEqual(problems, [], problems.join("\n"));
  assert.deepEqual(errors, []);
  await context.close();
});

test("a viewer is offered no write buttons, and the editor's context bar is read-only for them", { timeout: 120_000 }, async () => {
  const lead = await signIn(browser, base, "lead", PASSWORD);
  const f = await makeFixture(lead.page);
  // The editor sees them (what the viewer must not).
  await lead.page.goto(`${base}/jobs/${f.job}`);
  await lead.page.waitForSelector("#run-again");
  await lead.page.waitForSelector("#save-labels", { state: "attached" });
  await lead.context.close();

  const { page, errors, context } = await signIn(browser, base, "vi", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${base}/jobs/${f.job}`);
  await page.waitForSelector("#job-log");
  await page.waitForSelector("#job-name", { state: "attached" });
  assert.equal(await page.locator("#run-again").count(), 0, "no Run again");
  assert.equal(await page.locator("#save-labels").count(), 0, "no label Save");
  assert.equal(await page.$eval("#job-name", (e) => e.readOnly), true, "the name reads, not edits");
  await page.goto(`${base}/jobs`);
  await page.waitForSelector("#jobs tbody tr");
  assert.equal(await page.locator("#jobs .again").count(), 0, "no Run again in the runs table");
  await page.goto(`${base}/sweeps/${f.sweep}`);
  await page.waitForSelector("#sweep-points");
  assert.equal(await page.locator("#sweep-cancel, #sweep-save-best").count(), 0, "no Cancel or Save the best");
  await page.goto(`${base}/templates/${f.tid}/sweep`);
  await page.waitForSelector("#sweep-viewer");
  assert.equal(await page.locator("#sweep-start, #sweep-grid").count(), 0, "no sweep form");
  await page.goto(`${base}/templates/${f.tid}`);
  await page.waitForSelector("#context-fieldset");
  assert.equal(await page.$eval("#context-fieldset", (e) => e.disabled), true);
  assert.equal(await page.$eval("#ctx-gpus", (e) => e.matches(":disabled")), true, "the GPUs cannot be changed");
  assert.equal(await page.locator("#import-file").count(), 0, "no Import file… into a text they cannot save");
  await page.screenshot({ path: join(artifacts, "viewer_editor.png") });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "zh"));
  await page.goto(`${base}/templates/${f.tid}/sweep`);
  await page.waitForSelector("#sweep-viewer");
  assert.match(await page.textContent("#sweep-viewer"), /查看者/);
  await page.screenshot({ path: join(artifacts, "viewer_sweep_zh.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("the Run dialog judges the saved version, which is what runs, not unsaved edits", { timeout: 120_000 }, async () => {
  const { page, errors, context } = await signIn(browser, base, "lead", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const f = await makeFixture(page);
  // Keep the played runner online (it is judged by its last contact).
  await runner(f.runnerToken, "POST", `/api/v1/runners/${f.runnerId}/heartbeat`, { running: [] });
  await page.goto(`${base}/templates/${f.tid}`);
  await page.waitForSelector("#run");
  const line = async () => {
    await page.click("#run");
    await page.waitForSelector("#run-dialog");
    await page.selectOption("#run-runner", "played");
    await page.selectOption("#run-workload", "small");
    await page.waitForSelector("#run-memory-line");
    const text = await page.textContent("#run-memory-line");
    const fits = await page.getAttribute("#run-memory", "data-fits");
    return { text, fits };
  };
  const saved = await line();
  await page.click("#run-close");
  // An unsaved edit that would not fit: the dialog still says what the saved version needs.
  const text = await page.inputValue("#config");
  await page.fill("#config", text.replace('"train_micro_batch_size_per_gpu": 4', '"train_micro_batch_size_per_gpu": 4096').replace('"train_batch_size": 8', '"train_batch_size": 8192'));
  await page.waitForSelector("#dirty");
  const unsaved = await line();
  assert.match(await page.textContent("#run-dialog"), /Unsaved changes are not part of the run: what follows .* is the saved version's/);
  assert.equal(unsaved.text, saved.text, "the estimate is the saved version's");
  assert.equal(unsaved.fits, saved.fits);
  await page.screenshot({ path: join(artifacts, "run_dialog_unsaved.png") });
  await page.click("#run-close");
  assert.deepEqual(errors, []);
  await context.close();
});
