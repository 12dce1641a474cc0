// Journey states: what a page shows when it has nothing to show. Signed out, a page that needs
// an account asks to sign in and comes back to the same page (query included) afterwards; no
// page logs an error in the console, signed in or out; an unknown template, version, job or
// route is a not-found page naming it, with links, and never an editor with Save and Run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, artifacts, signIn, createTemplate } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["sam", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

/// Console errors and uncaught exceptions of a page.
function watch(page) {
  const problems = [];
  page.on("console", (m) => { if (m.type() === "error") problems.push(`${page.url()}: ${m.text()}`); });
  page.on("pageerror", (e) => problems.push(`${page.url()}: ${e}`));
  return problems;
}

test("signed_out: a prompt that returns to the page, and a quiet console", async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = watch(page);
  for (const path of ["/templates", "/templates/1", "/jobs", "/jobs/1", "/jobs/compare/1,2", "/templates/1/v/1"]) {
    await page.goto(`${base}${path}`);
    await page.waitForSelector("#signin-prompt");
    assert.match(await page.textContent("#signin-prompt h2"), /Sign in to see this page/, path);
    assert.equal(await page.locator("#save, #run, #config").count(), 0, `${path}: no editor`);
  }
  // The public pages work signed out.
  await page.goto(`${base}/`);
  await page.waitForSelector("#config");
  await page.goto(`${base}/settings`);
  await page.waitForSelector("h2");
  // Signing in from the prompt comes back to the page, query and all.
  await page.goto(`${base}/jobs?state=failed&sort=-final_loss`);
  await page.waitForSelector("#signin-prompt");
  await page.screenshot({ path: join(artifacts, "signed_out_prompt.png") });
  await page.click("#signin-prompt-link");
  await page.waitForURL(/\/signin\?next=/);
  await page.fill("#username", "sam");
  await page.fill("#password", PASSWORD);
  await page.click("#signin-submit");
  await page.waitForURL(`${base}/jobs?state=failed&sort=-final_loss`);
  await page.waitForSelector("#run-filters");
  assert.equal(await page.inputValue("#filter-state"), "failed");
  // A next that leaves the site is ignored.
  await page.click("#signout");
  await page.goto(`${base}/signin?next=//evil.example/x`);
  await page.fill("#username", "sam");
  await page.fill("#password", PASSWORD);
  await page.click("#signin-submit");
  await page.waitForURL(`${base}/templates`);
  assert.deepEqual(problems, []);
  await context.close();
});

test("not_found: unknown template, version, job and route", async () => {
  const { context, page } = await signIn(browser, base, "sam", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const problems = watch(page);
  const made = await createTemplate(page, { name: "real", config_text: "{\"train_batch_size\": 8}" });
  assert.equal(made.status, 201);
  const cases = [
    ["/templates/9999", /Template 9999 does not exist, or your account cannot see it/],
    [`/templates/${made.body.id}/v/99`, /Version 99 · Template \d+ does not exist/],
    [`/templates/${made.body.id}/diff/1/99`, /does not exist/],
    ["/jobs/9999", /Job 9999 does not exist/],
    ["/no/such/page", /There is no page at \/no\/such\/page/],
  ];
  for (const [path, says] of cases) {
    await page.goto(`${base}${path}`);
    await page.waitForSelector("#not-found");
    assert.match(await page.textContent("#not-found"), says, path);
    assert.equal(await page.locator("#save, #run, #config, #cancel-job").count(), 0, `${path}: nothing to act on`);
    assert.ok(await page.locator('#not-found a[href="/templates"]').count() === 1);
  }
  await page.goto(`${base}/templates/9999`);
  await page.waitForSelector("#not-found");
  await page.screenshot({ path: join(artifacts, "not_found.png") });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "zh"));
  await page.reload();
  await page.waitForSelector("#not-found");
  assert.match(await page.textContent("#not-found"), /未找到[\s\S]*模板 9999 不存在，或您的账号无权查看/);
  await page.screenshot({ path: join(artifacts, "not_found_zh.png") });
  await page.evaluate(() => localStorage.setItem("ds-studio.lang", "en"));
  // The real template still opens in the editor.
  await page.goto(`${base}/templates/${made.body.id}`);
  await page.waitForSelector("#save");
  // 404 answers from the API are expected here; nothing else may reach the console.
  assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
  await context.close();
});
