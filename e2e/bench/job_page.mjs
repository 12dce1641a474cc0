// The job page on a long run, in headless Chromium. Usage: TOKEN=admin-token node
// job_page.mjs BASE_URL [POINTS]. Started by `cargo xtask bench-job-page`.
//
// A synthetic job gets POINTS metric points (default 100,000: a loss and a learning-rate series,
// half each) through the real ingest path: a registered runner claims it and posts batches of
// 1,000 to /api/v1/runners/{id}/jobs/{job}/events, as runners do. Measured in the same run:
// 1. GET /metrics of that job by width (max_points 250 ... 4000) against the whole series
//    (the baseline: no max_points), median of 5, with the bytes answered;
// 2. time to first chart (navigation start → the loss chart drawn), cold cache, against the
//    same page for a job of 1,000 points;
// 3. frame time on the page while points arrive live (500 points/s in batches of 50 every
//    100 ms for 10 s) against the same page idle for 5 s: p50 / p95 / max of
//    requestAnimationFrame intervals, long tasks (> 50 ms), and how often the charts redrew
//    everything instead of appending.
import { chromium } from "playwright-core";

const [base, pointsArg] = process.argv.slice(2);
const POINTS = Number(pointsArg || 100_000);
const token = process.env.TOKEN;
const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };

async function api(method, path, body, headers = auth) {
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(s.length * q))];
  return { p50: +at(0.5).toFixed(1), p95: +at(0.95).toFixed(1), max: +s[s.length - 1].toFixed(1), n: s.length };
}

// A template, a runner of our own, and a job that runner claims.
const tpl = await api("POST", "/api/v1/templates", {
  name: `bench-job-page-${Date.now()}`,
  config_text: JSON.stringify({ train_batch_size: 8, train_micro_batch_size_per_gpu: 8, steps_per_print: 1 }),
});
const made = await api("POST", "/api/v1/runner-tokens", { runner: "bench-page" });
const rauth = { authorization: `Bearer ${made.token}`, "content-type": "application/json" };
const runner = await api("POST", "/api/v1/runners", { name: "bench-page", backend: "local" }, rauth);

// The runner stays alive (a silent runner's jobs are marked lost after 20 s).
const live = [];
const beat = setInterval(() => {
  api("POST", `/api/v1/runners/${runner.id}/heartbeat`, { running: live }, rauth).catch((e) => console.error(`heartbeat: ${e.message}`));
}, 3000);

let seqs = new Map();
async function runningJob(maxSteps) {
  const job = await api("POST", "/api/v1/jobs", { template_id: tpl.id, workload: { builtin: "gpt" }, runner: "bench-page", max_steps: maxSteps });
  const claimed = await api("POST", `/api/v1/runners/${runner.id}/claim`, undefined, rauth);
  if (claimed?.job?.id !== job.id) throw new Error(`claimed ${JSON.stringify(claimed)?.slice(0, 200)} instead of job ${job.id}`);
  seqs.set(job.id, 0);
  live.push(job.id);
  return job.id;
}

// `n` points (loss and lr alternately) from step `from`, in batches of `batch`.
async function ingest(jobId, n, batch = 1000, from = 0) {
  let step = from;
  for (let sent = 0; sent < n; sent += batch) {
    const events = [];
    for (let i = 0; i < Math.min(batch, n - sent); i++) {
      const seq = seqs.get(jobId) + 1;
      seqs.set(jobId, seq);
      const s = step + Math.floor((sent + i) / 2);
      const loss = (i % 2) === 0;
      events.push({ kind: "metric", seq, ts: Date.now(), name: loss ? "Train/Samples/train_loss" : "Train/Samples/lr",
        step: (s + 1) * 8, value: loss ? 8 * Math.exp(-s / 20000) + 0.3 * Math.sin(s / 7) : 1e-4 * Math.min(1, s / 1000) });
    }
    await api("POST", `/api/v1/runners/${runner.id}/jobs/${jobId}/events`, { events }, rauth);
  }
  return step + Math.ceil(n / 2);
}

const bigSteps = Math.ceil(POINTS / 2) * 2;
const big = await runningJob(bigSteps);
let t0 = performance.now();
let lastStep = await ingest(big, POINTS);
const ingestS = (performance.now() - t0) / 1000;
const small = await runningJob(1000);
await ingest(small, 1000);
console.log(`ingested ${POINTS} points into job ${big} in ${ingestS.toFixed(1)} s (${Math.round(POINTS / ingestS)} points/s); job ${small} has 1000`);

// 1. /metrics by width.
const widths = [null, 250, 500, 1000, 2000, 4000];
const rows = [];
for (const w of widths) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const res = await fetch(`${base}/api/v1/jobs/${big}/metrics${w ? `?max_points=${w}` : ""}`, { headers: auth });
    const body = await res.text();
    times.push(performance.now() - t);
    bytes = body.length;
    if (!res.ok) throw new Error(body);
    const points = JSON.parse(body).reduce((a, s) => a + s.points.length, 0);
    if (w && points > 2 * w) throw new Error(`max_points=${w} answered ${points} points`);
  }
  rows.push({ width: w ?? "all", ...stats(times), bytes });
}
const full = rows[0].p50;
console.log("\n/metrics of a 100k-point job by width (median of 5, ms; ratio = whole series / this)");
console.log("| max_points | p50 ms | bytes | ratio |");
console.log("|---|---|---|---|");
for (const r of rows) console.log(`| ${r.width} | ${r.p50} | ${r.bytes} | ${(full / r.p50).toFixed(1)}x |`);

// 2. and 3. in the browser.
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
async function openPage(jobId) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  await ctx.addInitScript(() => {
    // When the loss chart first has points drawn; every frame interval; long tasks.
    window.__frames = [];
    window.__long = [];
    let last = performance.now();
    const loop = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (!window.__firstChart && document.querySelector("#chart-job-loss polyline")) window.__firstChart = performance.now();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    try {
      new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: "longtask", buffered: true });
    } catch { /* no long-task timing */ }
  });
  const page = await ctx.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/jobs/${jobId}`);
  await page.waitForFunction(() => window.__firstChart, null, { timeout: 60_000 });
  return { ctx, page, errors };
}
const firstChart = async (jobId) => {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const { ctx, page } = await openPage(jobId);
    times.push(await page.evaluate(() => window.__firstChart));
    await ctx.close();
  }
  return stats(times);
};
const smallFirst = await firstChart(small);
const bigFirst = await firstChart(big);
console.log("\nTime to first chart (navigation start → loss chart drawn, cold cache, median of 3)");
console.log(`| job | p50 ms | max ms |\n|---|---|---|\n| 1,000 points | ${smallFirst.p50} | ${smallFirst.max} |\n| ${POINTS.toLocaleString("en")} points | ${bigFirst.p50} | ${bigFirst.max} |`);
console.log(`ratio (100k / 1k): ${(bigFirst.p50 / smallFirst.p50).toFixed(2)}x`);

const { ctx, page, errors } = await openPage(big);
const drawn = await page.evaluate(() => Number(document.querySelector("#chart-job-loss").dataset.points));
const window_ = async (ms) => {
  await page.evaluate(() => { window.__frames = []; window.__long = []; });
  await new Promise((r) => setTimeout(r, ms));
  return page.evaluate(() => ({ frames: window.__frames.slice(1), long: window.__long }));
};
const idle = await window_(5000);
const redraws0 = await page.evaluate(() => Number(document.querySelector("#chart-job-loss").dataset.redraws));
// Points arrive: 50 every 100 ms (500 points/s), for 10 s.
let sending = true;
const sender = (async () => {
  while (sending) {
    lastStep = await ingest(big, 50, 50, lastStep);
    await new Promise((r) => setTimeout(r, 100));
  }
})();
const busy = await window_(10_000);
sending = false;
await sender;
await new Promise((r) => setTimeout(r, 600));
const after = await page.evaluate(() => ({
  points: Number(document.querySelector("#chart-job-loss").dataset.points),
  redraws: Number(document.querySelector("#chart-job-loss").dataset.redraws),
  lines: document.querySelectorAll("#chart-job-loss polyline").length,
}));
const fi = stats(idle.frames), fb = stats(busy.frames);
console.log(`\nFrame time on the ${POINTS.toLocaleString("en")}-point job page (requestAnimationFrame intervals, ms)`);
console.log("| window | p50 | p95 | max | long tasks (> 50 ms) |\n|---|---|---|---|---|");
console.log(`| idle, 5 s | ${fi.p50} | ${fi.p95} | ${fi.max} | ${idle.long.length} |`);
console.log(`| 500 points/s arriving, 10 s | ${fb.p50} | ${fb.p95} | ${fb.max} | ${busy.long.length} |`);
console.log(`p95 ratio (arriving / idle): ${(fb.p95 / fi.p95).toFixed(2)}x`);
console.log(`loss chart: ${drawn} points drawn at first (of ${POINTS / 2} stored), ${after.points} after; full redraws during the stream: ${after.redraws - redraws0}; ${after.lines} polylines`);
if (errors.length) throw new Error(`page errors: ${errors.join("; ")}`);
await ctx.close();
await browser.close();
clearInterval(beat);
