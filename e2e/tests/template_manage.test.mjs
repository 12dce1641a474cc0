// Journey manage_templates (issue 13, item 6): a preset asks for a name (its title, numbered
// when the team has it); a template is renamed, described and tagged in the editor, found by
// its tag from the list, and deleted after a confirmation that says what goes with it —
// refused while one of its jobs is queued, with the job named. Real server, real chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startStudio, signIn, artifacts } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  // kai administers the team (deleting a template needs it); eve only edits.
  studio = await startStudio({ users: [["kai", PASSWORD, "--role", "admin"], ["eve", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

async function api(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const me = await (await fetch("/api/v1/auth/me")).json();
    const res = await fetch(path, { method, headers: { "content-type": "application/json", "x-csrf-token": me.csrf_token }, body: body && JSON.stringify(body) });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  }, { method, path, body });
}

async function usePreset(page, preset) {
  await page.goto(`${base}/templates`);
  await page.click(`#presets [data-preset="${preset}"] .use-preset`);
  const field = page.locator(`#presets [data-preset="${preset}"] .preset-name`);
  await field.waitFor();
  return field;
}

test("manage_templates: preset names, rename, describe, tag, delete with confirmation", async () => {
  const { page, errors } = await signIn(browser, base, "kai", PASSWORD);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The preset card says nothing internal, and asks for a name prefilled with its title.
  await page.waitForSelector("#presets .preset");
  assert.equal(await page.locator("#presets .source").count(), 0, "no source notes on the cards");
  let field = await usePreset(page, "zero2");
  await page.waitForFunction(() => document.querySelector(".preset-form .preset-name")?.value.length > 0);
  const title = await field.inputValue();
  assert.ok(title.length > 0);
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains("preset-name")), true, "the name field has the focus");
  await page.screenshot({ path: join(artifacts, "preset_name.png") });
  await page.click('#presets [data-preset="zero2"] .create-preset');
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction((t) => document.querySelector("#template-name")?.textContent === t, title);
  const id = Number(page.url().split("/").pop());

  // Used again: the name offered is numbered, so the second one does not collide.
  field = await usePreset(page, "zero2");
  await page.waitForFunction((t) => document.querySelector(".preset-form .preset-name")?.value === `${t} (2)`, title);
  await page.keyboard.press("Escape");
  await page.waitForSelector(".preset-form", { state: "detached" });

  // Rename, describe and tag in the editor.
  await page.goto(`${base}/templates/${id}`);
  await page.click("#template-details summary");
  await page.fill("#tpl-name", "llama-7b zero2");
  await page.fill("#tpl-description", "Our 8×A100 baseline");
  await page.fill("#tpl-tags", "llama, baseline");
  await page.click("#tpl-save");
  await page.waitForSelector("#details-status");
  await page.waitForFunction(() => document.querySelector("#template-name")?.textContent === "llama-7b zero2");
  // A bad name is refused with the server's reason; nothing changes.
  await page.fill("#tpl-name", "a/b");
  await page.click("#tpl-save");
  await page.waitForSelector("#details-error");
  assert.ok((await page.textContent("#details-error")).length > 0);
  assert.equal(await page.textContent("#template-name"), "llama-7b zero2");

  // The list shows the description and the tags; a tag filters the list.
  await page.goto(`${base}/templates`);
  const row = page.locator(`#templates tr[data-id="${id}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /Our 8×A100 baseline/);
  await row.locator("button.tag", { hasText: "baseline" }).click();
  await page.waitForFunction(() => document.querySelector("#tag-filter")?.value === "baseline");
  await page.waitForFunction(() => document.querySelectorAll("#templates tbody tr").length === 1);

  // Delete: refused while a job is queued (two nodes: the local runner never claims it; the
  // job named), then done after a confirmation
  // that counts what goes with it.
  const job = await api(page, "POST", "/api/v1/jobs", { template_id: id, workload: { builtin: "gpt", size: "tiny" }, gpus: 4, nodes: 2, max_steps: 1 });
  assert.equal(job.status, 201, JSON.stringify(job.body));
  await page.goto(`${base}/templates/${id}`);
  await page.click("#template-details summary");
  await page.click("#tpl-delete");
  await page.waitForSelector("#delete-confirm");
  assert.match(await page.textContent("#delete-what"), /“llama-7b zero2”.*1 version.*0 share.*1 run/);
  await page.screenshot({ path: join(artifacts, "delete_confirm.png") });
  await page.click("#tpl-delete-confirm");
  await page.waitForSelector("#details-error");
  assert.match(await page.textContent("#details-error"), new RegExp(`job ${job.body.id}`));
  assert.equal((await api(page, "GET", `/api/v1/templates/${id}`)).status, 200, "still there");
  assert.equal((await api(page, "POST", `/api/v1/jobs/${job.body.id}/cancel`)).status, 200);
  // Cancel keeps it.
  await page.click("#tpl-delete");
  await page.waitForSelector("#delete-confirm");
  await page.click("#tpl-delete-cancel");
  await page.waitForSelector("#delete-confirm", { state: "detached" });
  // In 中文 the confirmation is Chinese.
  await page.click("#lang");
  await page.click("#tpl-delete");
  await page.waitForSelector("#delete-confirm");
  assert.match(await page.textContent("#delete-what"), /删除“llama-7b zero2”/);
  await page.screenshot({ path: join(artifacts, "delete_confirm_zh.png") });
  await page.click("#tpl-delete-confirm");
  await page.waitForURL(`${base}/templates`);
  assert.equal((await api(page, "GET", `/api/v1/templates/${id}`)).status, 404);
  assert.equal((await api(page, "GET", `/api/v1/jobs/${job.body.id}`)).status, 404, "its runs went with it");
  await page.click("#lang");
  assert.deepEqual(errors, []);

  // An editor of the team is told who can delete instead of getting a button that fails.
  const eve = await signIn(browser, base, "eve", PASSWORD);
  const other = await api(eve.page, "POST", "/api/v1/templates", { name: "eve's", config_text: "{\"train_batch_size\": 8}" });
  assert.equal(other.status, 201, JSON.stringify(other.body));
  await eve.page.goto(`${base}/templates/${other.body.id}`);
  await eve.page.click("#template-details summary");
  await eve.page.waitForSelector("#delete-admins-only");
  assert.equal(await eve.page.locator("#tpl-delete").count(), 0);
  assert.deepEqual(eve.errors, []);
});
