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

// One "keystroke": set the value, fire the event, wait until the diagnostics list has been
// rendered again (a macrotask after the microtasks Leptos schedules its DOM updates on). A
// baseline (the same loop with an event nobody listens to) is measured in the same run. A few
// warm-up keystrokes are not counted.
const measure = async (page, selector, event, values, waitForChange) => page.evaluate(async ({ selector, event, values, waitForChange }) => {
  const el = document.querySelector(selector);
  const list = document.querySelector("#diagnostics");
  const tick = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
  const times = [];
  for (const v of values) {
    const before = list.innerHTML;
    const t0 = performance.now();
    el.value = v;
    el.dispatchEvent(new Event(event, { bubbles: true }));
    // Until the diagnostics list shows the new result (each value changes it), or one tick
    // for the baseline.
    do { await tick(); } while (waitForChange && list.innerHTML === before && performance.now() - t0 < 1000);
    times.push(performance.now() - t0);
  }
  return times.slice(4);
}, { selector, event, values, waitForChange });

const alternate = (a, b) => Array.from({ length: runs + 4 }, (_, i) => (i % 2 ? b : a));
const report = (name, s, extra = {}) => console.log(JSON.stringify({ page: name, ...extra, ...s }));

// 1. The validate page, JSON text. Alternate between the config and the config with one
// typo'd key, so each keystroke changes the diagnostics that must be rendered.
const typo = config.replace(/\{/, '{"zero_optimizaton": {}, ');
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
await page.goto(base + "/");
await page.waitForSelector("#config");
await page.fill("#config", config);
report("baseline (no listener)", stats(await measure(page, "#config", "keyup", alternate(config, typo), false)));
report("validate page, JSON text", stats(await measure(page, "#config", "input", alternate(config, typo), true)), { bytes: config.length });

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
  report("editor, JSON text", stats(await measure(editor, "#config", "input", alternate(editorConfig, editorTypo), true)), { bytes: editorConfig.length });
  // The form view: change train_batch_size between its value and one that breaks the batch
  // arithmetic (a new error each time).
  await editor.click("#view-form");
  await editor.waitForSelector("#field-train_batch_size");
  const current = await editor.inputValue("#field-train_batch_size");
  const broken = String(Number(current || 8) + 1);
  report("editor, form field", stats(await measure(editor, "#field-train_batch_size", "change", alternate(current || "8", broken), true)), { fields: await editor.locator(".field").count() });
  await ctx.close();
}
await browser.close();
