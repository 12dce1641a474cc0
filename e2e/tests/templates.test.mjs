// Journeys on templates: sign_in, save_version, conflict_on_save, unsaved_draft, diff_versions + share_link
// (+ fork), switch_language, edit_config, import_config. A real server on a free port (SQLite in a scratch
// directory, a user created with `ds-studio user add`), real chromium.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { startStudio, signIn, artifacts, root } from "../lib/studio.mjs";

const PASSWORD = "correct-horse-battery";
let studio, browser, base;

before(async () => {
  studio = await startStudio({ users: [["mei", PASSWORD]] });
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

/// Whether the tooltip of the ⓘ in `sel` shows (its text is a copy on <body>, so that no
/// scrolling or contained section cuts it).
async function tipShown(page, sel) {
  const id = await page.getAttribute(`${sel} .tip button.info`, "aria-describedby");
  return page.isVisible(`.tip-body[data-tip="${id}"]`);
}

/// A fresh browser context signed in as mei, on the template list.
const signedIn = () => signIn(browser, base, "mei", PASSWORD);

test("sign_in: a wrong password is refused, the right one opens the templates", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/signin`);
  await page.fill("#username", "mei");
  await page.fill("#password", "wrong-password");
  await page.click("#signin-submit");
  await page.waitForSelector("#signin .error");
  assert.match(await page.textContent("#signin .error"), /wrong user name or password/);
  await context.close();

  const { page: p2, errors } = await signedIn();
  assert.equal(await p2.textContent("#whoami"), "mei");
  await p2.screenshot({ path: join(artifacts, "sign_in.png") });
  assert.deepEqual(errors, []);
});

test("save_version: create a template, edit it with live validation, save v2, see it in history", async () => {
  const { page, errors, context } = await signedIn();
  await page.fill("#new-name", "llama-7b-z2");
  await page.click("#new-template button");
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  assert.match(await page.textContent("#verdict"), /would accept/);

  await page.fill("#config", '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2, "overlap_com": true}\n}');
  await page.waitForFunction(() => document.querySelector("#verdict")?.textContent.includes("reject"));
  assert.ok(await page.locator('li.diag[data-code="unknown-key"]').count() >= 1);
  assert.ok(await page.locator("#dirty").count() === 1);

  await page.fill("#config", '{\n  "train_batch_size": 16,\n  "zero_optimization": {"stage": 2, "overlap_comm": true}\n}');
  await page.fill("#message", "bigger batch");
  await page.click("#save");
  await page.waitForSelector("#save-status");
  assert.match(await page.textContent("#save-status"), /v2/);
  await page.waitForSelector('#history li[data-version="2"]');
  assert.match(await page.textContent('#history li[data-version="2"]'), /bigger batch/);
  assert.equal(await page.locator("#dirty").count(), 0);
  // Save again with nothing changed: no copy of v2 is stored, and the page says why.
  await page.click("#save");
  await page.waitForSelector("#nothing-to-save");
  assert.match(await page.textContent("#nothing-to-save"), /Nothing to save/);
  assert.equal(await page.locator('#history li[data-version="3"]').count(), 0);

  // The list shows the new head.
  await page.goto(`${base}/templates`);
  await page.waitForSelector("#templates");
  assert.match(await page.textContent("#templates"), /v2 · accepted/);
  await page.screenshot({ path: join(artifacts, "save_version.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("conflict_on_save: a stale save shows what changed and loses nothing", async () => {
  const a = await signedIn();
  await a.page.fill("#new-name", "shared-config");
  await a.page.click("#new-template button");
  await a.page.waitForURL(/\/templates\/\d+$/);
  const url = a.page.url();
  await a.page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");

  const b = await signedIn();
  await b.page.goto(url);
  await b.page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");

  // A saves first: a new batch size and gradient clipping.
  await a.page.fill("#config", '{"train_batch_size": 32, "gradient_clipping": 1.0, "zero_optimization": {"stage": 2}}');
  await a.page.fill("#message", "from A");
  await a.page.click("#save");
  await a.page.waitForSelector("#save-status");

  // B saves on the stale base: conflict, with A's change listed, B's text still there.
  const mine = '{"train_batch_size": 16, "zero_optimization": {"stage": 3}}';
  await b.page.fill("#config", mine);
  await b.page.fill("#message", "from B");
  await b.page.click("#save");
  await b.page.waitForSelector("#conflict");
  assert.match(await b.page.textContent("#conflict-changes"), /\/train_batch_size/);
  assert.equal(await b.page.inputValue("#config"), mine);
  // The three-way merge: A's gradient clipping (a key B did not touch) merges at once; the batch
  // size, changed on both sides, waits for a choice, and Merge waits with it.
  assert.match(await b.page.textContent("#merge-summary"), /^1 of their changes merge into your text at once.*keys changed on both sides: 1;/);
  const row = b.page.locator('#merge-conflicts tr[data-path="/train_batch_size"]');
  assert.match(await row.textContent(), /8.*32.*16/);
  assert.ok(await b.page.isDisabled("#merge-apply"));
  await b.page.locator("#conflict").scrollIntoViewIfNeeded();
  await b.page.screenshot({ path: join(artifacts, "conflict_on_save.png") });
  await row.locator("input.take-theirs").check();
  await b.page.click("#merge-apply");
  await b.page.waitForSelector("#merged-note");
  assert.equal(await b.page.textContent("#base-version"), "2", "the merged text is on their version");
  const merged = JSON.parse(await b.page.inputValue("#config"));
  assert.deepEqual(merged, { train_batch_size: 32, gradient_clipping: 1.0, zero_optimization: { stage: 3 } });
  await b.page.click("#save");
  await b.page.waitForFunction(() => /v3/.test(document.querySelector("#save-status")?.textContent ?? ""));
  const id = url.split("/").pop();
  const v3 = await b.page.evaluate(async (id) => (await fetch(`/api/v1/templates/${id}/versions/3`)).json(), id);
  assert.deepEqual(JSON.parse(v3.config_text), merged, "nothing of A's is reverted, B's stage is kept");
  assert.equal(v3.message, "from B");

  // Now A is stale (on v2) and chooses the third way out: save as a fork. A new template from
  // v2 holds A's text as its v2; the original keeps B's v3 as head.
  const aText = '{"train_batch_size": 64, "zero_optimization": {"stage": 2}}';
  await a.page.fill("#config", aText);
  await a.page.fill("#message", "A's own line");
  await a.page.click("#save");
  await a.page.waitForSelector("#conflict #save-as-fork");
  await a.page.click("#save-as-fork");
  await a.page.waitForURL((u) => u.pathname !== new URL(url).pathname && /\/templates\/\d+$/.test(u.pathname));
  await a.page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "2");
  assert.equal(await a.page.inputValue("#config"), aText);
  assert.match(await a.page.textContent("#template-name"), /shared-config/);
  const head = await a.page.evaluate(async (id) => (await fetch(`/api/v1/templates/${id}/versions/head`)).json(), id);
  assert.equal(head.version, 3);
  assert.deepEqual(JSON.parse(head.config_text), merged);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context.close();
  await b.context.close();
});

test("unsaved_draft: edits survive a reload and a link followed by mistake; restore, discard, or a save after someone else's merges", async () => {
  const { page, errors, context } = await signedIn();
  await page.fill("#new-name", "draft-keeper");
  await page.click("#new-template button");
  await page.waitForURL(/\/templates\/\d+$/);
  const url = page.url();
  const id = url.split("/").pop();
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  const v1 = await page.inputValue("#config");
  assert.equal(await page.locator("#draft-banner").count(), 0, "a fresh template has no draft");

  // Typed, not saved, then the page is reloaded: the editor shows v1 and offers the edit back.
  const mine = '{"train_batch_size": 24, "gradient_clipping": 0.5}';
  await page.fill("#config", mine);
  await page.waitForSelector("#dirty");
  await page.reload();
  await page.waitForSelector("#draft-banner");
  assert.equal(await page.inputValue("#config"), v1, "the saved version is what loads");
  assert.match(await page.textContent("#draft-banner"), /did not save.*v1/);
  // It says what the kept changes touch.
  assert.match(await page.textContent("#draft-changes"), /Changed: .*\/gradient_clipping/);
  assert.match(await page.textContent("#draft-changes"), /\/train_batch_size/);
  // Until restored or discarded, the text cannot be typed over (that typing would not be kept).
  assert.equal(await page.getAttribute("#config", "readonly"), "");
  await page.screenshot({ path: join(artifacts, "unsaved_draft.png") });
  await page.click("#draft-restore");
  await page.waitForFunction((t) => document.querySelector("#config")?.value === t, mine);
  assert.equal(await page.locator("#draft-banner").count(), 0);
  assert.equal(await page.locator("#dirty").count(), 1, "restored text is unsaved until saved");

  // A link followed by mistake (the template list), then back: offered again; Discard drops it.
  await page.click('a[href="/templates"]');
  await page.waitForURL(`${base}/templates`);
  await page.goto(url);
  await page.waitForSelector("#draft-banner");
  await page.click("#draft-discard");
  assert.equal(await page.locator("#draft-banner").count(), 0);
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  assert.equal(await page.locator("#draft-banner").count(), 0, "a discarded draft is gone");

  // Made on v1; meanwhile someone saves v2. Restored, the draft sits on v1 again, so Save goes
  // through the conflict check instead of overwriting v2.
  await page.fill("#config", mine);
  await page.waitForSelector("#dirty");
  const theirs = await page.evaluate(async (id) => {
    const me = await (await fetch("/api/v1/auth/me")).json();
    const res = await fetch(`/api/v1/templates/${id}/versions`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": me.csrf_token },
      body: JSON.stringify({ config_text: '{"train_batch_size": 8, "steps_per_print": 5}', message: "someone else", base_version: 1 }),
    });
    return res.status;
  }, id);
  assert.equal(theirs, 201);
  await page.reload();
  await page.waitForSelector("#draft-banner");
  assert.equal(await page.textContent("#base-version"), "2");
  await page.click("#draft-restore");
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  assert.equal(await page.inputValue("#config"), mine);
  await page.click("#save");
  await page.waitForSelector("#conflict");
  // The conflict card lands at the end of the editor: it is scrolled into view, clear of the
  // fixed action bar the Save was clicked on.
  await page.waitForFunction(() => {
    const card = document.querySelector("#conflict").getBoundingClientRect();
    const bar = document.querySelector(".action-bar").getBoundingClientRect();
    return card.top >= 0 && card.top < bar.top;
  });
  // So does the fork form, which opens below everything.
  await page.click("#fork");
  await page.waitForFunction(() => {
    const form = document.querySelector("#fork-form")?.getBoundingClientRect();
    const bar = document.querySelector(".action-bar").getBoundingClientRect();
    return form && form.top >= 0 && form.bottom <= bar.top;
  });
  await page.click("#fork");

  // Saved: the draft goes with it.
  await page.click("#take-theirs");
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "2");
  await page.fill("#config", '{"train_batch_size": 8, "steps_per_print": 10}');
  await page.click("#save");
  await page.waitForFunction(() => /v3/.test(document.querySelector("#save-status")?.textContent ?? ""));
  await page.reload();
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "3");
  assert.equal(await page.locator("#draft-banner").count(), 0, "nothing unsaved after a save");
  assert.deepEqual(errors, []);
  await context.close();
});

test("diff_versions and share_link: see what v2 changed, share v2, open it without an account", async () => {
  const { page, errors, context } = await signedIn();
  await page.fill("#new-name", "to-share");
  await page.click("#new-template button");
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  await page.fill("#config", '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2, "overlap_com": true, "reduce_bucket_size": 5e8}\n}');
  await page.fill("#message", "typo");
  await page.click("#save");
  await page.waitForSelector('#history li[data-version="2"] a.diff-link');

  // Any two versions can be compared from the history (here v2 -> v1, then back to v1 -> v2).
  await page.selectOption("#diff-from", "2");
  await page.selectOption("#diff-to", "1");
  await page.click("#diff-go");
  await page.waitForURL(/\/diff\/2\/1$/);
  await page.waitForSelector("#diff");
  assert.match(await page.textContent("#diff h2"), /v2 → to-share v1/);
  await page.goBack();
  await page.waitForSelector('#history li[data-version="2"] a.diff-link');

  // Diff v1 -> v2: the added key, the unknown-key diagnostic introduced.
  await page.click('#history li[data-version="2"] a.diff-link');
  await page.waitForSelector("#diff");
  assert.ok(await page.locator('#changes li[data-path="/zero_optimization/overlap_com"]').count() === 1);
  // A changed number reads as written in the version, not as parsed (500000000.0).
  await page.waitForFunction(() => document.querySelector('#changes li[data-path="/zero_optimization/reduce_bucket_size"] .new')?.textContent === "5e8");
  assert.ok(await page.locator('#introduced li[data-code="unknown-key"]').count() === 1);
  // Each side's verdict, and links back to the template and to both versions.
  await page.waitForSelector("#diff-verdicts");
  assert.match(await page.textContent("#diff-verdicts"), /v1 .+ → v2 /);
  assert.equal(await page.locator("#diff-links a").count(), 3);
  // An empty list says so rather than leaving a bare heading.
  assert.equal(await page.locator("#introduced-none").count(), 0);
  assert.ok((await page.locator("#resolved li").count()) > 0 || (await page.textContent("#resolved-none")) === "None.");
  assert.match(await page.textContent("#text-diff"), /\+\s+"overlap_com": true/);
  await page.screenshot({ path: join(artifacts, "diff_versions.png"), fullPage: true });

  // Share v2 and open the link in a fresh context with no account: read-only view.
  await page.goBack();
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "2");
  await page.click("#share");
  await page.waitForSelector("#share-url");
  const link = await page.textContent("#share-url");
  assert.match(link, /\/shared\/shr_[0-9a-f]{64}$/);

  const anon = await browser.newContext();
  const view = await anon.newPage();
  await view.goto(link);
  await view.waitForSelector("#shared-config");
  assert.match(await view.textContent("#shared-title"), /to-share @ v2/);
  assert.match(await view.textContent("#shared-config"), /overlap_com/);
  assert.equal(await view.locator("textarea").count(), 0, "read-only: nothing to edit");
  assert.equal(await view.locator("#whoami").count(), 0, "not signed in");
  // A colleague can use it: the verdict and the diagnostics, the read-only form with its
  // tooltips, the JSON to download or copy, and a way to sign in to fork it.
  await view.waitForSelector("#verdict");
  assert.ok(await view.locator('li.diag[data-code="unknown-key"]').count() >= 1);
  const [download] = await Promise.all([view.waitForEvent("download"), view.click("#shared-download")]);
  assert.match(download.suggestedFilename(), /^to-share.*\.json$/);
  const { readFileSync: read } = await import("node:fs");
  assert.match(read(await download.path(), "utf8"), /overlap_com/);
  await view.click("#shared-view-form");
  await view.waitForSelector("#form .field");
  const editable = await view.locator("#form .field input:not([readonly]):not([disabled]), #form .field select:not([disabled])")
    .evaluateAll((els) => els.filter((e) => e.offsetParent !== null).map((e) => e.id || e.className));
  assert.ok(await view.locator("#form .field input[readonly]").count() > 10);
  assert.deepEqual(editable, [], "every field of the shared form is read-only");
  const stage = '[data-path="zero_optimization.stage"]';
  await view.focus(`${stage} .tip button.info`);
  assert.equal(await tipShown(view, stage), true, "tooltips open on the shared form");
  assert.match(await view.getAttribute("#shared-signin", "href"), /^\/signin\?next=\/shared\/shr_/);
  await view.screenshot({ path: join(artifacts, "share_link.png"), fullPage: true });

  // The share URL has a copy button in the editor.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.click("#copy-share");
  await page.waitForSelector("#share-copied");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);

  // Signed in, "Fork into my team" makes a template of it under a name the user chooses.
  const shareTab = await context.newPage();
  await shareTab.goto(link);
  await shareTab.click("#shared-fork");
  await shareTab.fill("#shared-fork-name", "from the link");
  await shareTab.click("#shared-fork-submit");
  await shareTab.waitForFunction(() => document.querySelector("#template-name")?.textContent === "from the link");
  await shareTab.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  assert.match(await shareTab.inputValue("#config"), /overlap_com/);
  await shareTab.close();

  // Revoke it from the editor, after a confirmation: the link stops working.
  await page.waitForSelector("#shares li button.revoke");
  await page.click("#shares li button.revoke");
  await page.waitForSelector("#shares li .revoke-confirm");
  await page.click("#shares li button.revoke-no");
  await page.waitForSelector("#shares li button.revoke");
  assert.equal(await page.locator("#shares li .badge").count(), 0, "cancel revokes nothing");
  await page.click("#shares li button.revoke");
  await page.click("#shares li button.revoke-yes");
  await page.waitForSelector("#shares li .badge");
  await view.goto(link);
  await view.waitForSelector("#not-found");
  assert.match(await view.textContent("#not-found"), /Not found[\s\S]*share link/);
  await anon.close();

  // Fork v2 into a new template of the team, named in a form prefilled with a free name: its
  // v1 is v2's text and it links back to where it came from.
  const source = page.url();
  await page.click("#fork");
  await page.waitForSelector("#fork-form");
  assert.equal(await page.inputValue("#fork-name"), "to-share (fork)");
  await page.click("#fork-submit");
  await page.waitForFunction(() => document.querySelector("#template-name")?.textContent === "to-share (fork)");
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  assert.match(await page.inputValue("#config"), /overlap_com/);
  assert.match(await page.textContent("#forked-from"), /Forked from to-share@v2/);
  // A second fork of the same source is offered the next free name, and a taken name is
  // refused with the reason while the form stays.
  await page.goto(source);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "2");
  await page.click("#fork");
  await page.waitForFunction(() => document.querySelector("#fork-name")?.value === "to-share (fork 2)");
  await page.fill("#fork-name", "to-share (fork)");
  await page.click("#fork-submit");
  await page.waitForSelector('p.error[role="alert"]');
  assert.match(await page.textContent('p.error[role="alert"]'), /to-share \(fork\)/);
  assert.ok(await page.isVisible("#fork-form"));
  await page.fill("#fork-name", "to-share (fork 2)");
  await page.click("#fork-submit");
  await page.waitForFunction(() => document.querySelector("#template-name")?.textContent === "to-share (fork 2)");
  assert.deepEqual(errors, []);
  await context.close();
});

test("switch_language: the UI and the diagnostics switch to Chinese and it is remembered", async () => {
  const { page, errors, context } = await signedIn();
  await page.click("#lang");
  await page.waitForFunction(() => document.querySelector("header nav")?.textContent.includes("模板"));
  await page.goto(`${base}/`);
  await page.waitForSelector("#verdict");
  assert.match(await page.textContent("#verdict"), /会接受/);
  assert.match(await page.textContent("#diagnostics"), /ZeRO/);
  await page.screenshot({ path: join(artifacts, "switch_language.png") });
  assert.deepEqual(errors, []);
  await context.close();
});

test("edit_config: the form edits the same text, errors show at the field, numbers keep their spelling", async () => {
  const { page, errors, context } = await signedIn();
  await page.fill("#new-name", "form-edit");
  await page.click("#new-template button");
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  await page.click("#view-form");
  await page.waitForSelector("#form");

  // A bad value: the error appears at the field itself.
  await page.fill("#field-train_batch_size", "0");
  await page.press("#field-train_batch_size", "Tab");
  await page.waitForSelector('[data-path="train_batch_size"] .field-error.error');
  assert.match(await page.textContent("#verdict"), /would reject/);
  await page.fill("#field-train_batch_size", "16");
  await page.press("#field-train_batch_size", "Tab");
  await page.waitForFunction(() => !document.querySelector('[data-path="train_batch_size"] .field-error.error'));
  assert.match(await page.textContent("#verdict"), /would accept/);

  // Search-to-key opens the section; 5e8 is written as typed.
  await page.fill("#key-search", "reduce_bucket");
  await page.waitForSelector("#field-zero_optimization-reduce_bucket_size", { state: "visible" });
  await page.fill("#field-zero_optimization-reduce_bucket_size", "5e8");
  await page.press("#field-zero_optimization-reduce_bucket_size", "Tab");
  // The tooltip: the key's description (fetched with key-docs.json when the form first shows),
  // its default and allowed values.
  const field = '[data-path="zero_optimization.reduce_bucket_size"]';
  await page.waitForFunction((f) => /^Number of gradient elements reduced per bucket/.test(
    document.querySelector(`${f} [role="tooltip"]`)?.textContent || ""), field);
  const tip = await page.textContent(`${field} [role="tooltip"]`);
  assert.match(tip, /\nDefault \(0\.19\.8\): 5e8/);
  // Not a `title`: it shows on keyboard focus (and hides on Escape), and on tap.
  assert.equal(await tipShown(page, field), false);
  await page.focus(`${field} .tip button.info`);
  assert.equal(await tipShown(page, field), true, "shown on focus");
  // Inside the window, whatever section or scroll box the field is in.
  const box = await page.evaluate(() => { const r = document.querySelector(".tip-body").getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: innerWidth, h: innerHeight }; });
  assert.ok(box.left >= 0 && box.right <= box.w && box.top >= 0 && box.bottom <= box.h, JSON.stringify(box));
  assert.equal(await page.getAttribute(`${field} .tip button.info`, "aria-describedby"), await page.getAttribute(`${field} [role="tooltip"]`, "id"));
  await page.keyboard.press("Escape");
  assert.equal(await tipShown(page, field), false, "hidden on Escape");
  // A default written in Python in DeepSpeed's source reads in plain words.
  await page.fill("#key-search", "overlap_comm");
  const overlap = '[data-path="zero_optimization.overlap_comm"]';
  await page.waitForSelector(`${overlap} .tip button.info`, { state: "visible" });
  await page.click(`${overlap} .tip button.info`);
  assert.equal(await tipShown(page, overlap), true, "shown on tap");
  assert.match(await page.textContent(`${overlap} [role="tooltip"]`), /true at ZeRO stage 3, false otherwise/);
  assert.doesNotMatch(await page.textContent(`${overlap} [role="tooltip"]`), /None|->/);
  await page.fill("#key-search", "");
  await page.screenshot({ path: join(artifacts, "edit_config.png") });

  // Text that does not parse: the form says so and locks its fields (an edit there would be
  // lost), until the text is fixed.
  await page.click("#view-json");
  const good = await page.inputValue("#config");
  await page.fill("#config", good.replace('"train_batch_size": 16', '"train_batch_size": 16,,'));
  await page.click("#view-form");
  await page.waitForSelector("#form-broken");
  assert.match(await page.textContent("#form-broken"), /does not parse \(line \d+, column \d+/);
  assert.ok(await page.isDisabled("#field-train_batch_size"), "fields locked while the text is broken");
  // Nor do the batch line and the memory panel pretend to read it.
  assert.match(await page.textContent("#batch-triple"), /none while the text does not parse/);
  assert.equal(await page.locator("#memory-bars").count(), 0, "no memory figures that would read as this config's");
  assert.match(await page.textContent("#memory-unparsed"), /once the text parses/);
  await page.click("#view-json");
  await page.fill("#config", good);
  await page.click("#view-form");
  await page.waitForSelector("#form-broken", { state: "detached" });
  assert.ok(!(await page.isDisabled("#field-train_batch_size")));
  // "Only what is set" hides the sections the config does not touch; a key search hides the
  // sections without a match.
  await page.check("#only-set");
  assert.ok(await page.isVisible("#section-zero_optimization"));
  assert.ok(!(await page.isVisible("#section-fp16")), "a section with nothing set is hidden");
  await page.uncheck("#only-set");
  await page.fill("#key-search", "bucket");
  assert.ok(await page.isVisible("#section-zero_optimization"));
  assert.ok(!(await page.isVisible("#section-fp16")), "a section without a match is hidden");
  await page.fill("#key-search", "");

  await page.click("#view-json");
  // A typo'd key: the diagnostic offers the fix; one click renames it.
  const typo = (await page.inputValue("#config")).replace('"stage"', '"overlap_com": true, "stage"');
  await page.fill("#config", typo);
  await page.waitForSelector('li.diag[data-code="unknown-key"] button.fix');
  await page.click('li.diag[data-code="unknown-key"] button.fix');
  await page.waitForFunction(() => !document.querySelector('li.diag[data-code="unknown-key"]'));
  assert.match(await page.inputValue("#config"), /"overlap_comm": true/);
  const text = await page.inputValue("#config");
  assert.match(text, /"reduce_bucket_size": 5e8/);
  assert.match(text, /"train_batch_size": 16/);

  // The context bar: 8 GPUs per node -> DeepSpeed derives micro batch 2 from 16.
  await page.fill("#ctx-gpus", "8");
  await page.press("#ctx-gpus", "Tab");
  await page.waitForFunction(() => document.querySelector("#batch-triple")?.textContent.includes("data parallel 8"));
  assert.match(await page.textContent("#batch-triple"), /train_batch_size 16 = micro 2 × grad_acc 1 × data parallel 8/);
  assert.deepEqual(errors, []);
  await context.close();
});

test("import_config: import a corpus file with comments, export it, nothing lost", async () => {
  const { page, errors, context } = await signedIn();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.fill("#new-name", "imported-cifar");
  await page.click("#new-template button");
  await page.waitForURL(/\/templates\/\d+$/);
  await page.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");

  // A real config from the corpus, as a user keeps it: a comment, a trailing comma, 5e8.
  const shared = process.env.DS_SHARED_DIR ?? join(root, "..", "shared");
  const corpus = readFileSync(join(shared, "deepspeed/corpus/configs/catid__cifar10deepspeed__deepspeed_config.json"), "utf8");
  const original = JSON.parse(corpus);
  const withComments = corpus
    .replace("{", '{\n    // tuned on 8 x A100, see the wiki\n    "reduce_note": 5e8,')
    .replace(/\}\s*$/, "  ,\n}\n")
    .replace(/,\s*,\n\}\n$/, ",\n}\n");
  await page.setInputFiles("#import-file", { name: "cifar.json", mimeType: "application/json", buffer: Buffer.from(withComments) });
  await page.waitForFunction((t) => document.querySelector("#config")?.value === t, withComments);
  assert.match(await page.textContent("#io-status"), /cifar\.json/);
  await page.waitForSelector("#verdict");

  // Download: canonical JSON, no comments, same keys in the same order, numbers as written.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#export-download")]);
  assert.equal(download.suggestedFilename(), "imported-cifar.json");
  const exported = readFileSync(await download.path(), "utf8");
  assert.ok(!/^\s*\/\//m.test(exported) && !exported.includes("tuned on 8"), exported);
  assert.match(exported, /"reduce_note": 5e8/);
  const back = JSON.parse(exported);
  assert.equal(back.reduce_note, 5e8);
  delete back.reduce_note;
  assert.deepEqual(back, original);
  assert.deepEqual(Object.keys(back), Object.keys(original));
  for (const n of corpus.match(/(?<=:\s*)-?\d[\d.eE+-]*/g) ?? []) assert.ok(exported.includes(n), `number ${n} kept`);

  // Copy gives the same text.
  await page.click("#export-copy");
  await page.waitForFunction(() => !/cifar/.test(document.querySelector("#io-status")?.textContent ?? ""));
  assert.match(await page.textContent("#io-status"), /Copied|已复制/);
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), exported);

  // Saving keeps the imported text byte for byte (comments included).
  await page.fill("#message", "imported");
  await page.click("#save");
  await page.waitForSelector("#save-status");
  assert.equal(await page.inputValue("#config"), withComments);
  await page.screenshot({ path: join(artifacts, "import_config.png") });
  assert.deepEqual(errors, []);
  await context.close();
});
