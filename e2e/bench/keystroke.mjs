// Keystroke -> diagnostics rendered, in headless Chromium (Performance API), on the largest
// corpus config. Usage: node keystroke.mjs BASE_URL CONFIG_FILE [runs]
// Prints the median and p95 in ms for the validate page (typing in the JSON text). Started by
// `cargo xtask bench-ui`.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const [base, file, runsArg] = process.argv.slice(2);
const runs = Number(runsArg || 60);
const config = readFileSync(file, "utf8");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)], runs: s.length };
}

// One "keystroke": set the value, fire the event, wait until the diagnostics list has been
// rendered again (a macrotask after the microtasks Leptos schedules its DOM updates on). A
// baseline (the same loop with an event nobody listens to) is measured in the same run.
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
  return times;
}, { selector, event, values, waitForChange });

const page = await browser.newPage();
await page.goto(base + "/");
await page.waitForSelector("#config");
await page.fill("#config", config);
// Alternate between the config and the config with one typo'd key, so each keystroke changes
// the diagnostics that must be rendered.
const typo = config.replace(/\{/, '{"zero_optimizaton": {}, ');
const texts = Array.from({ length: runs }, (_, i) => (i % 2 ? typo : config));
const baseline = stats(await measure(page, "#config", "keyup", texts, false));
const validate = stats(await measure(page, "#config", "input", texts, true));
console.log(JSON.stringify({ page: "validate (JSON text)", bytes: config.length, ...validate }));
console.log(JSON.stringify({ page: "baseline (no listener)", ...baseline }));
await browser.close();
