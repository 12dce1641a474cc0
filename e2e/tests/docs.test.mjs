// Journey docs (issue 53): with the studio started the README way (from the repository root,
// so it finds the book `cargo xtask docs` built into ./target/book), the header's Help opens
// the book's page for where the user is, in English and in 中文, and a diagnostic's code opens
// its entry in the codes reference; the book's own pages answer at /docs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { artifacts, createTemplate, startReadmeWay } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/docs-data";
let studio;

before(async () => {
  studio = await startReadmeWay(DATA);
});

after(async () => {
  await studio?.stop();
});

test("docs: Help opens the book's page for the editor, en and 中文; a code opens its entry", { timeout: 240_000 }, async () => {
  const link = await studio.signinLink;
  const context = await studio.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(link);
  await page.waitForSelector("#whoami");
  // A config with a batch mismatch: the editor lists `batch-mismatch`.
  const made = await createTemplate(page, {
    name: "docs-journey",
    config: { train_batch_size: 100, train_micro_batch_size_per_gpu: 4, gradient_accumulation_steps: 4 },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  await page.goto(`${studio.base}/templates/${made.body.id}`);
  await page.waitForSelector('li.diag[data-code="batch-mismatch"]');

  // Help: the editor's page of the book, in a new tab.
  assert.equal(await page.getAttribute("#nav-help", "href"), "/docs/using/editor.html");
  const [help] = await Promise.all([context.waitForEvent("page"), page.click("#nav-help")]);
  await help.waitForLoadState();
  assert.equal(new URL(help.url()).pathname, "/docs/using/editor.html");
  assert.match(await help.textContent("main h1"), /The editor/);
  // mdBook's inline scripts ran (the book's own policy admits them): the theme is set.
  assert.match(await help.getAttribute("html", "class"), /light/);
  await help.screenshot({ path: join(artifacts, "docs_help_editor.png") });
  await help.close();

  // The code's link: its entry, whose id is the code.
  const code = page.locator('li.diag[data-code="batch-mismatch"] a.code-link').first();
  assert.equal(await code.getAttribute("href"), "/docs/reference/diagnostics.html#batch-mismatch");
  const [entry] = await Promise.all([context.waitForEvent("page"), code.click()]);
  await entry.waitForLoadState();
  assert.equal(await entry.locator("#batch-mismatch").count(), 1);
  assert.match(await entry.textContent("main"), /train_micro_batch_size_per_gpu/);
  await entry.close();
  // Clicking the code did not select the diagnostic's line (the link stops there).
  assert.equal(errors.length, 0, errors.join("\n"));

  // 中文: the Chinese pages.
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("#nav-help")?.textContent === "帮助");
  assert.equal(await page.getAttribute("#nav-help", "href"), "/docs/zh/using/editor.html");
  const [zh] = await Promise.all([context.waitForEvent("page"), page.click("#nav-help")]);
  await zh.waitForLoadState();
  assert.match(await zh.textContent("main h1"), /编辑器/);
  await zh.screenshot({ path: join(artifacts, "docs_help_editor_zh.png") });
  await zh.close();
  assert.equal(
    await page.getAttribute('li.diag[data-code="batch-mismatch"] a.code-link', "href"),
    "/docs/zh/reference/diagnostics.html#batch-mismatch",
  );
  const zhEntry = await context.request.get(`${studio.base}/docs/zh/reference/diagnostics.html`);
  assert.equal(zhEntry.status(), 200);
  assert.match(await zhEntry.text(), /id="batch-mismatch"/);
  await page.click("#lang");

  // The team page's Help is the page on adding colleagues.
  await page.goto(`${studio.base}/team`);
  await page.waitForSelector("#nav-help");
  assert.equal(await page.getAttribute("#nav-help", "href"), "/docs/operating/users-and-roles.html");

  // /docs itself, an unknown page, and a path that tries to leave the book.
  const index = await context.request.get(`${studio.base}/docs`, { maxRedirects: 0 });
  assert.equal(index.status(), 308);
  assert.equal(index.headers()["location"], "/docs/");
  const home = await context.request.get(`${studio.base}/docs/`);
  assert.equal(home.status(), 200);
  assert.match(await home.text(), /Using the studio/);
  const missing = await context.request.get(`${studio.base}/docs/no-such-page.html`);
  assert.equal(missing.status(), 404);
  assert.match(await missing.text(), /no such page in the book/);
  const escape = await context.request.get(`${studio.base}/docs/..%2f..%2fCargo.toml`);
  assert.equal(escape.status(), 404);
  assert.deepEqual(errors, []);
  await context.close();
});
