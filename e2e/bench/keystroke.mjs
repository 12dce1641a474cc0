// Keystroke -> diagnostics rendered, in headless Chromium (Performance API), on the largest
// corpus config. Usage: TOKEN=admin-token node keystroke.mjs BASE_URL CONFIG_FILE [runs]
// [EDITOR_CONFIG_FILE]. Prints the median and p95 in ms for: the validate page (typing in the
// JSON text of CONFIG_FILE), and the editor on EDITOR_CONFIG_FILE (the largest config that
// parses: the form can only edit a config that parses) in its JSON view and in its form view
// (changing a field). Started by `cargo xtask bench-ui`.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const [base, file, runsArg, editorFile] = process.argv.slice(2);
const runs = Number(runsArg || 100);
const token = process.env.TOKEN;
const config = readFileSync(file, "utf8");
const editorConfig = readFileSync(editorFile || file, "utf8");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { median: +s[Math.floor(s.length / 2)].toFixed(1), p95: +s[Math.floor(s.length * 0.95)].toFixed(1), max: +s[s.length - 1].toFixed(1), runs: s.length };
}

// One "keystroke": set the value, fire the event, and take two times: `dom`, when the
// diagnostics list in the DOM has changed (a MutationObserver, which fires as soon as Leptos has
// written the new rows, before the browser lays out and paints), and `task`, when the next task
// runs after that (a MessageChannel message: by then the browser has also run any rendering
// frame it scheduled in between, so this includes style, layout and paint when a frame was
// due). Each value changes the diagnostics, so every keystroke must render something.
// Baselines in the same run: the same loop firing an event nobody listens to, and the same loop
// changing the list by hand (one row added or removed with plain DOM calls, no WASM): the
// browser's own cost of rendering a change to that list. A few warm-up keystrokes are not
// counted.
const measure = async (page, selector, event, values, mode) => page.evaluate(async ({ selector, event, values, mode }) => {
  const el = document.querySelector(selector);
  const list = document.querySelector("#diagnostics");
  const tick = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
  let changedAt = 0;
  const observer = new MutationObserver(() => { if (!changedAt) changedAt = performance.now(); });
  observer.observe(list, { subtree: true, childList: true, characterData: true, attributes: true });
  const dom = [], task = [];
  let timeouts = 0;
  let extra = null;
  for (const [i, v] of values.entries()) {
    const before = list.innerHTML;
    changedAt = 0;
    const t0 = performance.now();
    if (mode === "by-hand") {
      if (extra) { extra.remove(); extra = null; } else { extra = document.createElement("li"); extra.className = "diag info"; extra.textContent = "by hand " + v.length; list.prepend(extra); }
    } else {
      el.value = v;
      el.dispatchEvent(new Event(event, { bubbles: true }));
    }
    do { await tick(); } while (mode === "keystroke" && list.innerHTML === before && performance.now() - t0 < 1000);
    // (The first warm-up value may be the text already there.)
    if (mode === "keystroke" && i >= 4 && list.innerHTML === before) timeouts++;
    task.push(performance.now() - t0);
    dom.push((changedAt || performance.now()) - t0);
  }
  observer.disconnect();
  if (extra) extra.remove();
  return { dom: dom.slice(4), task: task.slice(4), timeouts };
}, { selector, event, values, mode });

// A keystroke whose diagnostics never changed (1 s timeout) would be a meaningless 1000 ms
// sample: the run fails instead.
const both = (r) => {
  if (r.timeouts) throw new Error(`${r.timeouts} keystrokes did not change the diagnostics`);
  return { dom: stats(r.dom), next_task: stats(r.task) };
};
const alternate = (a, b) => Array.from({ length: runs + 4 }, (_, i) => (i % 2 ? b : a));
const report = (name, s, extra = {}) => console.log(JSON.stringify({ page: name, ...extra, ...s }));
// Run count: CONFIG runs per measurement (100 by default) after 4 warm-up keystrokes.

// 1. The validate page, JSON text. Alternate between the config and the config with one
// typo'd key, so each keystroke changes the diagnostics that must be rendered.
const typo = config.replace(/\{/, '{"zero_optimizaton": {}, ');
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(base + "/");
await page.waitForSelector("#config");
await page.fill("#config", config);
report("baseline: event with no listener", stats((await measure(page, "#config", "keyup", alternate(config, typo), "none")).task));
report("baseline: list changed by hand", both(await measure(page, "#config", "keyup", alternate(config, typo), "by-hand")));
report("validate page, JSON text", both(await measure(page, "#config", "input", alternate(config, typo), "keystroke")), { bytes: config.length });

// 2. The editor (signed in with the admin token) on a template holding the config.
if (token) {
  const created = await fetch(`${base}/api/v1/templates`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: `bench-${Date.now()}`, config_text: editorConfig }),
  });
  if (!created.ok) throw new Error(`template: ${created.status} ${await created.text()}`);
  const { id } = await created.json();
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 720 }, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  const editor = await ctx.newPage();
  await editor.goto(`${base}/templates/${id}`);
  await editor.waitForFunction(() => document.querySelector("#config")?.value.length > 0);
  const editorTypo = editorConfig.replace(/\{/, '{"zero_optimizaton": {}, ');
  report("editor, JSON text", both(await measure(editor, "#config", "input", alternate(editorConfig, editorTypo), "keystroke")), { bytes: editorConfig.length });
  // The form view: change train_batch_size between its value and one that breaks the batch
  // arithmetic (a new error each time).
  await editor.click("#view-form");
  await editor.waitForSelector("#field-train_batch_size");
  const current = await editor.inputValue("#field-train_batch_size");
  const broken = String(Number(current || 8) + 1);
  report("editor, form field", both(await measure(editor, "#field-train_batch_size", "change", alternate(current || "8", broken), "keystroke")), { fields: await editor.locator(".field").count() });
  await ctx.close();
}
await browser.close();
