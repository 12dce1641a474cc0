import { chromium } from "playwright-core";
const link = process.argv[2];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
await page.goto(link);
await page.waitForTimeout(1500);
const CONFIG = `{
  // ZeRO-2 for LLaMA-Factory
  "train_batch_size": "auto",
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": "auto",
  "bf16": {"enabled": "auto"},
  "zero_optimization": {"stage": 2},
}
`;
const created = await page.evaluate(async (text) => {
  const me = await (await fetch("/api/v1/auth/me")).json();
  const res = await fetch("/api/v1/templates", { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": me.csrf_token },
    body: JSON.stringify({ name: "hf z2 " + Date.now(), team_id: me.teams?.[0]?.id, config_text: text, context: { world_size: 8, launcher: "hf-trainer" } }) });
  return { status: res.status, body: await res.json() };
}, CONFIG);
console.log(created.status, created.body.id ?? JSON.stringify(created.body));
await page.goto(new URL(`/templates/${created.body.id}`, link).href);
await page.waitForSelector("#trainer-args");
await page.waitForTimeout(800);
await page.screenshot({ path: "/tmp/shots/hf_en.png" });
await page.click("#trainer-import");
await page.fill("#trainer-import-text", "per_device_train_batch_size: 2\ngradient_accumulation_steps: 8\nlearning_rate: 1.0e-5\nbf16: true\ndeepspeed: ds_z2.json\nstage: sft\n");
await page.click("#trainer-import-apply");
await page.waitForTimeout(800);
await page.screenshot({ path: "/tmp/shots/hf_import_en.png" });
await page.click("#lang");
await page.waitForTimeout(800);
await page.screenshot({ path: "/tmp/shots/hf_import_zh.png" });
console.log("errors", JSON.stringify(errors));
await browser.close();
