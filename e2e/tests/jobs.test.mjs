// Journey run_job: from the editor, Run the saved version on the local runner (the real
// DeepSpeed engine on CPU), watch the charts grow live on the job page, cancel it, find it in
// the jobs list and open it in the comparison view.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { startStudio, artifacts, signIn, createTemplate } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["ren", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

const CONFIG = `{
  "train_batch_size": 8,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "optimizer": {"type": "AdamW", "params": {"lr": 0.001, "torch_adam": true}},
  "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 5, "warmup_max_lr": 0.001}},
  "steps_per_print": 5
}`;

const points = (page, id) =>
  page.evaluate((id) => Number(document.querySelector(`#${id}`)?.dataset.points ?? 0), id);

test("run_job: Run from the editor, watch the chart grow, cancel", { timeout: 300_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/signin`);
  await page.fill("#username", "ren");
  await page.fill("#password", PASSWORD);
  await page.click("#signin-submit");
  await page.waitForURL(`${base}/templates`);

  await page.fill("#new-name", "tiny-gpt");
  await page.click("#new-template button");
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  await page.fill("#config", CONFIG);
  await page.fill("#message", "trainable");
  await page.click("#save");
  await page.waitForSelector("#save-status");

  await page.click("#run");
  await page.waitForSelector("#run-dialog");
  await page.waitForSelector('#run-runner option[value="local"]', { state: "attached" });
  await page.fill("#run-steps", "100000");
  await page.screenshot({ path: join(artifacts, "run_job_dialog.png") });
  await page.click("#run-submit");
  await page.waitForURL(/\/jobs\/\d+$/);

  // The charts fill as DeepSpeed trains: first points, then more of them.
  await page.waitForFunction(
    () => Number(document.querySelector("#chart-job-lr")?.dataset.points ?? 0) >= 3,
    null,
    { timeout: 240_000 },
  );
  const first = await points(page, "chart-job-lr");
  await page.waitForFunction(
    (n) => Number(document.querySelector("#chart-job-lr")?.dataset.points ?? 0) > n + 5,
    first,
    { timeout: 60_000 },
  );
  assert.ok((await points(page, "chart-job-loss")) > 0, "the loss chart has points");
  assert.equal(await page.textContent("#job-state"), "running");
  assert.match(await page.textContent("#job-log"), /ds-studio gpt: size=tiny/);
  // The elapsed time ticks while it runs; the tab names the job.
  const t0 = await page.textContent("#job-elapsed");
  await page.waitForFunction((t) => document.querySelector("#job-elapsed")?.textContent !== t, t0, { timeout: 5_000 });
  assert.match(await page.title(), /^Job \d+ · running/);
  assert.ok(await page.locator("#chart-job-lr polyline").count() >= 1);
  // The estimate for the config beside the measured peak.
  assert.match(await page.textContent("#memory-estimate"), /Estimated peak per GPU: [\d.]+ (MiB|GiB) \(at the /);
  await page.screenshot({ path: join(artifacts, "run_job.png"), fullPage: true });

  // Cancel asks first: dismissed, the job goes on; accepted, it stops.
  page.once("dialog", (d) => d.dismiss());
  await page.click("#cancel-job");
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(await page.textContent("#job-state"), "running");
  page.once("dialog", (d) => {
    assert.match(d.message(), /Stop this job/);
    d.accept();
  });
  await page.click("#cancel-job");
  await page.waitForFunction(() => document.querySelector("#job-state")?.textContent === "cancelled", null, { timeout: 30_000 });
  assert.match(await page.textContent("#job-message"), /cancelled by a user/);

  // The job links to the permalink of the version it ran.
  await page.click("#job-config");
  await page.waitForSelector("#version-title");
  assert.equal(await page.textContent("#version-title"), "tiny-gpt@2");
  assert.match(await page.textContent("#version-config"), /"torch_adam": true/);

  // The jobs list shows it, linked to its config version.
  await page.click("#nav-jobs");
  await page.waitForSelector("#jobs");
  assert.match(await page.textContent("#jobs"), /cancelled/);
  assert.match(await page.textContent("#jobs"), /tiny-gpt@2/);
  await page.screenshot({ path: join(artifacts, "run_job_list.png") });

  // Compare: the selected run's stored metrics on the shared charts.
  await page.check("#jobs input.pick");
  await page.click("#compare-jobs");
  await page.waitForURL(/\/jobs\/compare\/\d+$/);
  await page.waitForFunction(() => Number(document.querySelector("#chart-job-lr")?.dataset.points ?? 0) > 5);
  assert.match(await page.textContent("#chart-job-lr figcaption"), /#\d+ tiny-gpt@2/);
  assert.deepEqual(errors, []);
  await context.close();
});

// Journey run_fitted: a config written for 8 GPUs (64 = 4 × 2 × 8), saved with that context,
// run on the 1-CPU local runner: the dialog starts from 8 GPUs, takes the runner's 1, shows what
// fitting changes, and the job trains the fitted config with the global batch kept.
test("run_fitted: a config for 8 GPUs runs on the local runner, fitted", { timeout: 300_000 }, async () => {
  const { context, page, errors } = await signIn(browser, base, "ren", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const text = CONFIG.replace('"train_batch_size": 8', '"train_batch_size": 64');
  const created = await createTemplate(page, { name: "preset-for-8", config_text: text, context: { world_size: 8 } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  await page.goto(`${base}/templates/${created.body.id}`);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  await page.click("#run");
  await page.waitForSelector("#run-dialog");
  await page.waitForSelector('#run-runner option[value="local"]', { state: "attached" });
  // The only online runner is picked, with its own GPUs (a CPU runner counts as one).
  await page.waitForFunction(() => document.querySelector("#run-runner")?.value === "local");
  assert.equal(await page.inputValue("#run-gpus"), "1", "the runner's own count");
  assert.match(await page.textContent('#run-runner option[value="local"]'), /CPU/);
  // "Any runner" with the version's 8 GPUs: no online runner has them, and the dialog says so.
  await page.selectOption("#run-runner", "");
  await page.fill("#run-gpus", "8");
  await page.waitForSelector("#run-capacity");
  assert.match(await page.textContent("#run-capacity"), /No online runner has 8 GPUs: the largest is local \(CPU · \d+ cores · [\d.]+ GiB\)/);
  await page.selectOption("#run-runner", "local");
  assert.equal(await page.inputValue("#run-gpus"), "1", "the runner's own count");
  assert.equal(await page.locator("#run-capacity").count(), 0);
  await page.waitForSelector("#run-fit-preview");
  assert.match(await page.textContent("#run-fit-preview"), /gradient_accumulation_steps 2 → 16/);
  assert.match(await page.textContent("#run-fit-preview"), /global batch 64 kept/);
  assert.ok(await page.isChecked("#run-fit"));
  await page.fill("#run-steps", "5");
  await page.screenshot({ path: join(artifacts, "run_fitted_dialog.png") });
  await page.click("#run-submit");
  await page.waitForURL(/\/jobs\/\d+$/);
  await page.waitForSelector("#job-fit", { state: "attached" });
  assert.match(await page.textContent("#job-fit summary"), /global batch 64 kept/);
  // While it runs, the set-up folds away so the charts stay in view; once over, it is open.
  const folded = await page.evaluate(() => ({
    open: document.querySelector("#job-details").open,
    terminal: ["succeeded", "failed", "cancelled", "lost"].includes(document.querySelector("#job-state").textContent),
  }));
  assert.equal(folded.open, folded.terminal, JSON.stringify(folded));
  // The command the runner ran, from its log (one GPU: plain Python with the script).
  await page.waitForSelector("#job-command", { state: "attached" });
  assert.match(await page.textContent("#job-command code"), /gpt_train\.py --size tiny --max-steps 5 --deepspeed_config \S+/);
  await page.waitForFunction(() => document.querySelector("#job-state")?.textContent === "succeeded", null, { timeout: 240_000 });
  assert.ok(await page.evaluate(() => document.querySelector("#job-details").open), "a finished run shows its set-up");
  await page.click("#job-fit summary");
  assert.match(await page.textContent("#job-fit pre"), /"gradient_accumulation_steps": 16/);
  // The log: searched, and downloaded whole.
  await page.fill("#log-search", "DS-STUDIO-RESULT");
  await page.waitForFunction(() => /^1 \/ \d+$/.test(document.querySelector("#log-count")?.textContent ?? ""));
  assert.match((await page.textContent("#job-log")).trim(), /^ds-studio-result \{.*"final_loss"/);
  await page.fill("#log-search", "");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#log-download")]);
  assert.match(download.suggestedFilename(), /^job-\d+\.log$/);
  const whole = readFileSync(await download.path(), "utf8");
  assert.match(whole, /launch: /);
  assert.match(whole, /job \d+ succeeded\n$/);
  // The summary: final loss reported, peak memory beside the estimate; the timings chart says
  // why it is empty (the config has no wall_clock_breakdown).
  assert.match(await page.textContent("#job-final-loss"), /^\d+\.\d{4}$/);
  // On a CPU: rank 0's resident memory, without the per-GPU estimate beside it.
  assert.match(await page.textContent("#job-peak"), /^[\d.]+ (MiB|GiB) RSS of rank 0's process$/);
  assert.match(await page.textContent("#chart-job-timings .empty-reason"), /wall_clock_breakdown/);
  assert.match(await page.title(), /^Job \d+ · succeeded/);
  await page.screenshot({ path: join(artifacts, "run_fitted_job.png"), fullPage: true });
  // In Chinese: the summary, the fit and the empty chart's reason.
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "zh"));
  await page.reload();
  await page.waitForSelector("#job-summary");
  assert.match(await page.textContent("#job-summary"), /最终损失/);
  // The figures come back with the replayed events.
  await page.waitForFunction(() => /进程常驻内存/.test(document.querySelector("#job-peak")?.textContent ?? ""), null, { timeout: 20_000 });
  assert.match(await page.textContent("#job-fit summary"), /保持全局 batch 64/);
  assert.match(await page.textContent("#chart-job-timings .empty-reason"), /wall_clock_breakdown/);
  await page.screenshot({ path: join(artifacts, "run_fitted_job_zh.png"), fullPage: true });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "en"));

  // A second run with another learning rate (through the API), then both side by side: the
  // summary table and what differs in the configs they ran.
  const firstId = Number(page.url().match(/\/jobs\/(\d+)$/)[1]);
  const other = await createTemplate(page, { name: "preset-for-8-lr", config_text: text.replace('"lr": 0.001, "torch_adam"', '"lr": 0.002, "torch_adam"'), context: { world_size: 8 } });
  assert.equal(other.status, 201, JSON.stringify(other.body));
  const submitted = await page.evaluate(async (tid) => {
    const me = await (await fetch("/api/v1/auth/me")).json();
    const res = await fetch("/api/v1/jobs", { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": me.csrf_token },
      body: JSON.stringify({ template_id: tid, workload: { builtin: "gpt", size: "tiny" }, gpus: 1, max_steps: 5, fit_to_runner: true }) });
    return { status: res.status, body: await res.json() };
  }, other.body.id);
  assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
  const secondId = submitted.body.id;
  await page.goto(`${base}/jobs/${secondId}`);
  await page.waitForFunction(() => document.querySelector("#job-state")?.textContent === "succeeded", null, { timeout: 240_000 });
  await page.goto(`${base}/jobs/compare/${firstId},${secondId}`);
  await page.waitForSelector(`#compare-summary tr[data-job="${secondId}"]`);
  assert.equal(await page.locator("#compare-summary tbody tr").count(), 2);
  assert.match(await page.textContent(`#compare-summary tr[data-job="${firstId}"] .final-loss`), /^\d+\.\d{4}$/);
  assert.match(await page.textContent("#compare-diff"), /\/optimizer\/params\/lr: 0\.001 → 0\.002/);
  // Both were fitted: their saved versions are compared too (the same change, before fitting).
  assert.match(await page.textContent("#compare-version-diff"), /preset-for-8@1 → preset-for-8-lr@1[\s\S]*\/optimizer\/params\/lr: 0\.001 → 0\.002/);
  // Aligned by steps, smoothed.
  await page.selectOption("#chart-axis", "steps");
  await page.waitForFunction(() => /steps/.test(document.querySelector("#chart-job-loss .x-label")?.textContent ?? ""));
  await page.screenshot({ path: join(artifacts, "compare_runs.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});

// Journey runs_table: the runs of this file in /jobs, sorted by a heading and filtered, the
// view kept in the URL (opened again from the link), a run named and tagged on its page, run
// again from the table; then the job page's charts read by hover, by step or by samples, and
// smoothed.
test("runs_table: sort, filter, label, run again; charts that answer", { timeout: 300_000 }, async () => {
  const { context, page, errors } = await signIn(browser, base, "ren", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${base}/jobs`);
  await page.waitForSelector("#jobs tbody tr");
  // Every column, "Run again" included, in view at 1280 px: no sideways scrolling.
  const fit = await page.evaluate(() => { const t = document.querySelector("#jobs table, table#jobs, table.runs"); return { table: t.scrollWidth, box: t.parentElement.clientWidth }; });
  assert.ok(fit.table <= fit.box, `the runs table fits at 1280 px: ${JSON.stringify(fit)}`);
  const rows = async () => page.$$eval("#jobs tbody tr", (trs) => trs.map((tr) => ({
    id: Number(tr.dataset.id), state: tr.children[3].querySelector(".state")?.textContent, loss: tr.querySelector(".final-loss").textContent,
    name: tr.querySelector(".run-name").textContent,
  })));
  const all = await rows();
  assert.ok(all.length >= 3, JSON.stringify(all));
  assert.deepEqual(all.map((r) => r.id), [...all.map((r) => r.id)].sort((a, b) => b - a), "newest first");
  // Sorted by final loss: a click sorts ascending (runs without a loss last), another descending.
  await page.click('#jobs th[data-sort="final_loss"] button');
  await page.waitForURL(/sort=final_loss/);
  await page.waitForFunction(() => document.querySelector('#jobs th[data-sort="final_loss"]')?.getAttribute("aria-sort") === "ascending");
  // The header says "ascending" as soon as it is clicked; the sorted rows come with the next
  // page of results: read them once they have arrived (at most 5 s).
  const lossesOf = (rs) => rs.map((r) => r.loss).filter((l) => l !== "—").map(Number);
  let asc = await rows();
  for (let i = 0; i < 50 && lossesOf(asc).some((l, k, a) => k > 0 && a[k - 1] > l); i++) {
    await page.waitForTimeout(100);
    asc = await rows();
  }
  const losses = lossesOf(asc);
  assert.ok(losses.length >= 2, JSON.stringify(asc));
  assert.deepEqual(losses, [...losses].sort((a, b) => a - b));
  const dash = asc.findIndex((r) => r.loss === "—");
  assert.ok(dash < 0 || asc.slice(dash).every((r) => r.loss === "—"), `runs without a loss come last: ${JSON.stringify(asc)}`);
  await page.click('#jobs th[data-sort="final_loss"] button');
  await page.waitForURL(/sort=-final_loss/);
  await page.waitForFunction(() => document.querySelector('#jobs th[data-sort="final_loss"]')?.getAttribute("aria-sort") === "descending");
  // As above, the rows sorted the other way come with the next page of results.
  let desc = lossesOf(await rows());
  for (let i = 0; i < 50 && desc.some((l, k, a) => k > 0 && a[k - 1] < l); i++) {
    await page.waitForTimeout(100);
    desc = lossesOf(await rows());
  }
  assert.deepEqual(desc, [...losses].reverse());
  // Filtered by state and precision; a filter nothing matches says so.
  await page.selectOption("#filter-state", "succeeded");
  await page.waitForURL(/state=succeeded/);
  await page.waitForFunction(() => [...document.querySelectorAll("#jobs tbody tr")].every((tr) => tr.children[3].querySelector(".state")?.textContent === "succeeded"));
  assert.ok((await rows()).length >= 2);
  // Each run says when it was submitted, relative, with the time in `datetime`.
  const when = page.locator("#jobs tbody tr .submitted time[datetime]");
  assert.ok((await when.count()) >= 2);
  assert.match(await when.first().textContent(), /just now|min ago|h ago/);
  await page.selectOption("#filter-zero", "3");
  await page.waitForURL(/zero_stage=3/);
  await page.waitForSelector("#page-info");
  await page.waitForFunction(() => /No run matches/.test(document.querySelector("#page-info")?.textContent ?? ""));
  await page.click("#filter-clear");
  await page.waitForURL(`${base}/jobs`);
  await page.waitForFunction((n) => document.querySelectorAll("#jobs tbody tr").length === n, all.length);

  // A run named and tagged on its page.
  const named = all.find((r) => r.state === "succeeded").id;
  await page.goto(`${base}/jobs/${named}`);
  await page.waitForSelector("#job-labels");
  await page.click("#job-labels summary");
  await page.fill("#job-name", "baseline lr 1e-3");
  await page.fill("#job-tags", "baseline, lr");
  await page.fill("#job-note", "the one to beat");
  await page.click("#save-labels");
  await page.waitForFunction(() => document.querySelector("#labels-status")?.textContent === "Saved");
  // A bad tag is refused with the reason, and nothing changes.
  await page.fill("#job-tags", "not a tag");
  await page.click("#save-labels");
  await page.waitForFunction(() => /tag `not a tag`/.test(document.querySelector("#labels-status")?.textContent ?? ""));
  // The filtered view is a link anyone can open.
  await page.goto(`${base}/jobs?tag=baseline&sort=-final_loss`);
  await page.waitForSelector("#jobs tbody tr");
  const tagged = await rows();
  assert.deepEqual(tagged.map((r) => r.id), [named]);
  assert.match(tagged[0].name, /baseline lr 1e-3\s*baseline\s*lr/);
  await page.fill("#filter-q", "BASELINE LR");
  await page.press("#filter-q", "Enter");
  await page.waitForURL(/q=BASELINE/);
  assert.deepEqual((await rows()).map((r) => r.id), [named]);
  await page.screenshot({ path: join(artifacts, "runs_table.png") });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "zh"));
  await page.reload();
  await page.waitForSelector("#jobs tbody tr");
  assert.match(await page.textContent("#jobs thead"), /最终损失/);
  assert.match(await page.textContent("#jobs tbody"), /成功/);
  await page.screenshot({ path: join(artifacts, "runs_table_zh.png") });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "en"));

  // Run again: the same version and settings, named as before; it trains and succeeds, and a
  // desktop notification (asked for on its page) says so. The page's Notification is wrapped
  // to record what it shows.
  await context.grantPermissions(["notifications"], { origin: base });
  await context.addInitScript(() => {
    const Real = window.Notification;
    window.__notes = [];
    function Recorded(title, opts) { window.__notes.push({ title, body: opts && opts.body }); return new Real(title, opts); }
    Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
    Recorded.requestPermission = (...a) => Real.requestPermission(...a);
    window.Notification = Recorded;
  });
  await page.goto(`${base}/jobs?tag=baseline`);
  await page.waitForSelector("#jobs tbody tr button.again");
  await page.click("#jobs tbody tr button.again");
  await page.waitForURL((u) => /\/jobs\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${named}`));
  const againId = Number(page.url().match(/\/jobs\/(\d+)$/)[1]);
  const [was, again] = await page.evaluate(async ([a, b]) => Promise.all([a, b].map(async (id) => (await fetch(`/api/v1/jobs/${id}`)).json())), [named, againId]);
  assert.equal(again.version, was.version);
  assert.equal(again.template_id, was.template_id);
  assert.equal(again.max_steps, was.max_steps);
  assert.equal(again.name, "baseline lr 1e-3 (again)");
  assert.deepEqual(again.tags, ["baseline", "lr"]);
  await page.check("#notify-end");
  await page.waitForFunction(() => document.querySelector("#job-state")?.textContent === "succeeded", null, { timeout: 240_000 });
  await page.waitForFunction(() => window.__notes.length === 1);
  const [note] = await page.evaluate(() => window.__notes);
  assert.equal(note.title, `Job ${againId} “baseline lr 1e-3 (again)” succeeded`);
  assert.match(note.body, /final loss \d+\.\d{4}/);

  // Charts: the loss read by hover, on a samples axis, then by steps, then smoothed.
  await page.waitForFunction(() => Number(document.querySelector("#chart-job-loss")?.dataset.points ?? 0) >= 3);
  const svg = page.locator("#chart-job-loss svg");
  await svg.scrollIntoViewIfNeeded();
  const box = await svg.boundingBox();
  await svg.hover({ position: { x: box.width * 0.6, y: box.height * 0.5 } });
  await page.waitForSelector("#chart-job-loss .chart-tip");
  assert.match(await page.textContent("#chart-job-loss .chart-tip"), /\d+ samples.*train_loss: \d/s);
  assert.equal(await page.locator("#chart-job-loss line.cursor").count(), 1);
  await page.screenshot({ path: join(artifacts, "job_chart_hover.png") });
  await page.mouse.move(0, 0);
  await page.selectOption("#chart-axis", "steps");
  await page.waitForFunction(() => /steps/.test(document.querySelector("#chart-job-loss .x-label")?.textContent ?? ""));
  // Keyboard: focus the chart and step through points with the arrow keys.
  await page.focus("#chart-job-loss");
  await page.keyboard.press("ArrowRight");
  await page.waitForSelector("#chart-job-loss .chart-tip");
  assert.match(await page.textContent("#chart-job-loss .chart-tip .tip-x"), /^\d+ steps$/);
  await page.keyboard.press("Escape");
  await page.fill("#chart-smoothing", "0.6");
  await page.waitForFunction(() => document.querySelectorAll("#chart-job-loss polyline.smooth").length >= 1);
  assert.ok(await page.locator("#chart-job-loss polyline.raw.faint").count() >= 1);
  await page.screenshot({ path: join(artifacts, "job_chart_smoothed.png"), fullPage: true });
  assert.deepEqual(errors, []);
  await context.close();
});
