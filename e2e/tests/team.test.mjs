// Journey team: the studio started the way README starts it (`ds-studio serve` from the
// repository root with relative directories), and a team managed only in the browser, in both
// languages. The administrator signs in by the printed one-time link, is told to set a password,
// sets it, signs out and in again with it; creates a colleague without a password and hands over
// the one-time link the page makes; adds them to the team. The colleague signs in by that link
// and saves a template; made a viewer, their editor turns read-only and says why; removed from
// the team, they lose its pages and are told to ask an administrator. Screenshots at 1280×800
// and 900 px, English and 中文, in e2e/artifacts.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { root, artifacts, startReadmeWay } from "../lib/studio.mjs";

const DATA = "./e2e/artifacts/team-data";
let studio, browser, base;

before(async () => {
  studio = await startReadmeWay(DATA, ["--no-local-runner"]);
  ({ browser, base } = studio);
});

after(async () => {
  await studio?.stop();
});

const signinLink = () => studio.signinLink;

async function newPage(width = 1280) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  return page;
}

const shot = (page, name) => page.screenshot({ path: join(artifacts, `team_${name}.png`), fullPage: true });

test("team: the first admin sets a password, invites a colleague by link, makes them a viewer, removes them", { timeout: 240_000 }, async () => {
  const link = await signinLink();
  const admin = await newPage();

  // First sign-in by the link: no password yet, said on every page until set.
  await admin.goto(link);
  await admin.waitForSelector("#whoami");
  await admin.waitForSelector("#no-password-banner");
  assert.match(await admin.textContent("#no-password-banner"), /no password/);
  await shot(admin, "banner_en");
  await admin.click("#set-password-link");
  await admin.waitForSelector("#password-form");
  assert.equal(await admin.locator("#old-password").count(), 0, "a first password needs no current one");
  await admin.fill("#new-password", "first-admin-pass");
  await admin.fill("#new-password-again", "first-admin-pass-typo");
  await admin.click("#password-submit");
  await admin.waitForSelector("#password-form [role=alert]");
  assert.match(await admin.textContent("#password-form [role=alert]"), /differ/);
  await admin.fill("#new-password-again", "first-admin-pass");
  await admin.click("#password-submit");
  await admin.waitForSelector("#password-done");
  await admin.waitForSelector("#old-password"); // now a change asks for the current one
  await admin.goto(`${base}/templates`);
  await admin.waitForSelector("#new-name");
  assert.equal(await admin.locator("#no-password-banner").count(), 0, "the banner is gone once a password is set");

  // Signed out, the administrator comes back in with the password.
  await admin.click("#signout");
  await admin.waitForSelector("#signin-link");
  await admin.goto(`${base}/signin`);
  await admin.fill("#username", "admin");
  await admin.fill("#password", "first-admin-pass");
  await admin.click("#signin-submit");
  await admin.waitForSelector("#whoami");

  // A colleague, created without a password: the page makes a one-time link to hand over.
  await admin.click("#nav-team");
  await admin.waitForSelector("#team-page #members tr[data-member=admin]");
  await admin.waitForSelector("#users");
  await admin.fill("#new-user-name", "lin");
  await admin.fill("#new-user-display", "Lin Wei");
  await admin.click("#new-user-submit");
  await admin.waitForSelector("#signin-link-url");
  const invitation = (await admin.textContent("#signin-link-url")).trim();
  assert.match(invitation, /\/api\/v1\/auth\/signin\?token=dsi_/);
  await admin.waitForSelector("#user-list tr[data-user=lin]");
  // Said, not only shown in the list.
  assert.match(await admin.textContent("#new-user-done"), /Created user lin\./);
  // A bad name is refused at the form, naming the problem.
  await admin.fill("#add-member-name", "nobody-here");
  await admin.click("#add-member button[type=submit]");
  await admin.waitForSelector("#add-member [role=alert]");
  assert.match(await admin.textContent("#add-member [role=alert]"), /nobody-here/);
  await admin.fill("#add-member-name", "lin");
  await admin.selectOption("#add-member-role", "editor");
  await admin.click("#add-member button[type=submit]");
  await admin.waitForSelector("#members tr[data-member=lin]");
  assert.equal(await admin.inputValue("#members tr[data-member=lin] select.member-role"), "editor");
  await admin.screenshot({ path: join(artifacts, "team_page_en.png") });
  await shot(admin, "page_en_full");

  // The colleague signs in by the link and saves a template.
  const lin = await newPage();
  await lin.goto(invitation);
  await lin.waitForSelector("#whoami");
  assert.equal(await lin.textContent("#whoami"), "Lin Wei");
  await lin.waitForSelector("#no-password-banner");
  await lin.click("#password-later");
  await lin.goto(`${base}/templates`);
  await lin.fill("#new-name", "lin-first");
  await lin.click("#new-template button");
  await lin.waitForURL(/\/templates\/\d+$/);
  const editorUrl = lin.url();
  await lin.waitForFunction(() => document.querySelector("#base-version")?.textContent === "1");
  await lin.fill("#config", '{\n  "train_batch_size": 16,\n  "zero_optimization": {"stage": 2}\n}\n');
  await lin.fill("#message", "mine");
  await lin.click("#save");
  await lin.waitForSelector("#save-status");

  // Made a viewer: the editor turns read-only and says why; Fork stays.
  await admin.selectOption("#members tr[data-member=lin] select.member-role", "viewer");
  await admin.waitForFunction(() => document.querySelector("#members tr[data-member=lin] select.member-role")?.value === "viewer");
  await lin.goto(editorUrl);
  await lin.waitForSelector("#read-only-note");
  assert.match(await lin.textContent("#read-only-note"), /viewer in team default/);
  assert.equal(await lin.locator("#save").count(), 0, "no Save for a viewer");
  assert.equal(await lin.locator("#run").count(), 0, "no Run for a viewer");
  assert.equal(await lin.locator("#fork").count(), 1, "Fork stays");
  assert.equal(await lin.$eval("#config", (t) => t.readOnly), true, "the text is read-only");
  await lin.screenshot({ path: join(artifacts, "team_viewer_editor_en.png") });

  // The last administrator of the team is kept, said at the row.
  await admin.selectOption("#members tr[data-member=admin] select.member-role", "editor");
  await admin.waitForSelector("#members tr[data-member=admin] [role=alert]");
  assert.match(await admin.textContent("#members tr[data-member=admin] [role=alert]"), /last administrator/);
  assert.equal(await admin.inputValue("#members tr[data-member=admin] select.member-role"), "admin");
  // Nor is the only administrator offered a Remove that the server would refuse: the row says why.
  assert.equal(await admin.locator("#members tr[data-member=admin] .remove-member").count(), 0, "no Remove for the only admin");
  assert.match(await admin.textContent("#members tr[data-member=admin] .last-admin"), /only admin/);
  assert.equal(await admin.locator("#members tr[data-member=lin] .remove-member").count(), 1, "Remove for the others");

  // Removed from the team: its pages are gone, and the page says to ask an administrator.
  await admin.click("#members tr[data-member=lin] .remove-member");
  await admin.waitForFunction(() => !document.querySelector("#members tr[data-member=lin]"));
  await lin.goto(`${base}/templates`);
  await lin.waitForSelector("#no-team");
  assert.match(await lin.textContent("#no-team"), /ask an administrator/i);
  assert.equal(await lin.isVisible("#new-name"), false, "no New template for someone in no team");
  await lin.goto(editorUrl);
  await lin.waitForSelector("#not-found");

  // 中文, at 1280 and 900 px.
  await admin.click("#lang");
  await admin.waitForFunction(() => document.documentElement.lang === "zh-CN");
  await admin.waitForSelector("#users");
  assert.match(await admin.textContent("#team-page h2"), /团队/);
  assert.match(await admin.textContent("#users h2"), /用户/);
  // What the last add said (lin already a member) follows the language too.
  assert.match(await admin.textContent("#add-member-status"), /lin 已是成员/);
  await admin.screenshot({ path: join(artifacts, "team_page_zh.png") });
  await admin.setViewportSize({ width: 900, height: 800 });
  await admin.screenshot({ path: join(artifacts, "team_page_zh_900.png") });
  await lin.click("#lang");
  await lin.goto(`${base}/templates`);
  await lin.waitForSelector("#no-team");
  assert.match(await lin.textContent("#no-team"), /管理员/);
  await lin.screenshot({ path: join(artifacts, "team_no_team_zh.png") });

  assert.deepEqual(admin.errors, []);
  assert.deepEqual(lin.errors, []);
});
