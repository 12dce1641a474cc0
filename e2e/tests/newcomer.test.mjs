// Journey newcomer: the studio started the way README starts it (`ds-studio serve` from the
// repository root with relative directories, as `cargo xtask run` passes them: `--data` under
// ./e2e/artifacts so a developer's ./data is never touched, `--static-dir static`), a fresh data
// directory, the one-time sign-in link the server prints, a new template for one GPU, Run with
// the dialog's defaults, and the job succeeds with points on its loss chart. Relative
// directories once made every job fail in preflight (`data/jobs/job-1/./data/jobs/job-1/...`).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { root, artifacts, startReadmeWay } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/newcomer-data";
let studio, browser, base;

before(async () => {
  studio = await startReadmeWay(DATA, []);
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

const signinLink = () => studio.signinLink;

const CONFIG = `{
  "train_batch_size": 8,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "optimizer": {"type": "AdamW", "params": {"lr": 0.001, "torch_adam": true}},
  "steps_per_print": 5
}`;

test("newcomer: README's start, sign-in link, new template, Run with the defaults, the job succeeds", { timeout: 420_000 }, async () => {
  const link = await signinLink();
  assert.ok(existsSync(join(root, DATA, "ds-studio.db")), "the database is in the relative data directory");
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector("#whoami");
  await page.goto(`${base}/templates`);
  await page.fill("#new-name", "first-run");
  await page.click("#new-template button");
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  await page.fill("#config", CONFIG);
  await page.fill("#message", "my first config");
  await page.click("#save");
  await page.waitForSelector("#save-status");

  await page.click("#run");
  await page.waitForSelector("#run-dialog");
  await page.waitForSelector('#run-runner option[value="local"]', { state: "attached" });
  // The only runner is picked for the newcomer, not "Any runner".
  await page.waitForFunction(() => document.querySelector("#run-runner")?.value === "local");
  await page.screenshot({ path: join(artifacts, "newcomer_run_dialog.png") });
  await page.click("#run-submit");
  await page.waitForURL(/\/jobs\/\d+$/);
  await page.waitForFunction(
    () => ["succeeded", "failed", "lost"].includes(document.querySelector("#job-state")?.textContent),
    null,
    { timeout: 360_000 },
  );
  const state = await page.textContent("#job-state");
  const message = (await page.locator("#job-message").count()) ? await page.textContent("#job-message") : "";
  await page.screenshot({ path: join(artifacts, "newcomer_job.png"), fullPage: true });
  assert.equal(state, "succeeded", `the job ${state}: ${message}`);
  await page.waitForFunction(() => Number(document.querySelector("#chart-job-loss")?.dataset.points ?? 0) > 0);
  // The job ran in the data directory's absolute job directory.
  assert.match(await page.textContent("#job-log"), new RegExp(`${root}/e2e/artifacts/newcomer-data/jobs/job-\\d+`));
  // The kernel confines what the job may write, and its log says where (Landlock).
  assert.match(
    await page.textContent("#job-log"),
    new RegExp(`the kernel \\(Landlock\\) lets this job write only beneath ${root}/e2e/artifacts/newcomer-data/jobs/job-\\d+/work, `),
  );

  // A config that would write outside the job's directory (the review's database overwrite) is
  // refused when run, naming the key: in English, then in 中文.
  await page.goBack();
  await page.waitForSelector("#config");
  await page.fill("#config", CONFIG.replace('"steps_per_print": 5', '"steps_per_print": 5, "autotuning": {"enabled": true, "model_info": {"profile": true}, "model_info_path": "../../../ds-studio.db"}'));
  await page.fill("#message", "autotuning");
  await page.click("#save");
  // Saved as version 3 (1 was the new template's, 2 the first config).
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "3");
  for (const [lang, words] of [["en", "must be a relative path inside the job directory"], ["zh", "必须是任务目录内的相对路径"]]) {
    await page.evaluate((l) => localStorage.setItem("ds-studio.lang", l), lang);
    await page.reload();
    await page.waitForSelector("#run");
    await page.click("#run");
    await page.waitForSelector("#run-dialog");
    await page.waitForFunction(() => document.querySelector("#run-runner")?.value === "local");
    await page.click("#run-submit");
    await page.waitForSelector('#run-dialog .error[role="alert"]');
    const said = await page.textContent('#run-dialog .error[role="alert"]');
    assert.ok(said.startsWith("autotuning.model_info_path `../../../ds-studio.db` ") && said.includes(words), said);
    await page.screenshot({ path: join(artifacts, `newcomer_path_refused_${lang}.png`) });
  }
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "en"));
  assert.ok(existsSync(join(root, DATA, "ds-studio.db")), "the database is still there");
  assert.deepEqual(errors, []);
  await context.close();
});
