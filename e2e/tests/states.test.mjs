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
    [`/templates/${made.body.id}/v/99`, /Version 99 of template \d+ does not exist/],
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

test("deferred_pages: / fetches no page chunk; a page's chunk comes on its first visit; a failed fetch offers a reload", async () => {
  const { context, page } = await signIn(browser, base, "sam", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });
  const problems = watch(page);
  const chunks = [];
  page.on("request", (r) => { if (/\/pkg\/(split_|chunk_)[^/]*\.wasm$/.test(r.url())) chunks.push(new URL(r.url()).pathname); });
  await page.goto(`${base}/`);
  await page.waitForSelector("#verdict");
  assert.deepEqual(chunks, [], "the first load of / fetches the main module only");
  // index.html's "Loading…" line is gone once the app runs.
  assert.equal(await page.locator("#boot-loading").count(), 0);
  // In-app navigation to a team page fetches the team pages' chunk once.
  await page.click('header nav a[href="/templates"]');
  await page.waitForSelector("#new-template");
  assert.ok(chunks.includes("/pkg/split_team_pages.wasm"), `team chunk fetched: ${chunks}`);
  assert.ok(!chunks.includes("/pkg/split_job_pages.wasm"), "not the job pages' chunk");
  const afterTeam = chunks.length;
  await page.click('header nav a[href="/settings"]');
  await page.waitForSelector("#lang-select, main h2:text('Settings')");
  assert.equal(chunks.length, afterTeam, "a second team page fetches nothing more");
  await page.click("#nav-jobs");
  await page.waitForSelector("#run-filters");
  assert.ok(chunks.includes("/pkg/split_job_pages.wasm"), `job chunk fetched: ${chunks}`);
  assert.deepEqual(problems, []);
  await context.close();

  // A chunk that cannot be fetched (a dropped connection, or the studio upgraded under an open
  // tab): the page says so and offers a reload, and the rest of the app keeps working.
  const second = await signIn(browser, base, "sam", PASSWORD);
  const p2 = second.page;
  await p2.setViewportSize({ width: 1280, height: 800 });
  await p2.route(/\/pkg\/split_job_pages\.wasm$/, (route) => route.abort("connectionreset"));
  await p2.goto(`${base}/`);
  await p2.waitForSelector("#verdict");
  await p2.click("#nav-jobs");
  await p2.waitForSelector("#page-load-failed");
  assert.match(await p2.textContent("#page-load-failed"), /This page could not be loaded[\s\S]*Reload/);
  await p2.screenshot({ path: join(artifacts, "page_load_failed.png") });
  await p2.click('header nav a[href="/"]');
  await p2.waitForSelector("#verdict");
  await p2.unroute(/\/pkg\/split_job_pages\.wasm$/);
  await p2.click("#nav-jobs");
  await p2.waitForSelector("#run-filters");
  await second.context.close();
});
