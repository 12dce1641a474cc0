// What every browser journey needs: a real `ds-studio serve` on a free port with SQLite in a
// scratch directory (DS_STUDIO_BIN), Debian's chromium, and a folder for screenshots.
import { spawn, execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, mkdirSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import http from "node:http";
import net from "node:net";
import { chromium } from "playwright-core";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const artifacts = join(root, "e2e", "artifacts");
mkdirSync(artifacts, { recursive: true });
/// Each server's log goes to its own file here (`serve-PORT.log`), so the test report stays
/// short enough to read in a CI log; a failing journey's server log is there to read.
export const serverLogs = join(artifacts, "logs");
mkdirSync(serverLogs, { recursive: true });
const logFile = (port) => openSync(join(serverLogs, `serve-${port}.log`), "w");

async function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

/// Waits until `base` answers `/healthz` 200 (for 30 s at most), killing `server` if it never
/// does. Each try is a plain HTTP request on a fresh connection with its own deadline: Node's
/// fetch once kept a request pending, with no socket or timer left to end it, when the studio's
/// starting server handed the port over, and held a CI run until its limit.
async function untilHealthy(base, server) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if ((await healthzStatus(base)) === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  server.kill("SIGTERM");
  throw new Error(`${base}/healthz did not answer 200 within 30 s`);
}

/// The status of one GET /healthz (0 when there is no answer within 2 s).
function healthzStatus(base) {
  return new Promise((resolve) => {
    const req = http.get(`${base}/healthz`, { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
      res.on("error", () => resolve(0));
    });
    req.setTimeout(2_000, () => req.destroy());
    req.on("error", () => resolve(0));
  });
}

/// chromium.launch, killing `server` when the browser cannot start.
async function launchOr(server, options) {
  try {
    return await chromium.launch(options);
  } catch (e) {
    server.kill("SIGTERM");
    throw e;
  }
}

/// Starts the server (after `users`: [name, password] pairs created with `ds-studio user add`)
/// and chromium. Returns { base, browser, data (its directory), stop }.
export async function startStudio({ users = [] } = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const data = mkdtempSync(join(tmpdir(), "ds-studio-e2e-"));
  // Each user is [name, password, ...more `user add` arguments] (say "--role", "admin").
  for (const [name, password, ...more] of users) {
    execFileSync(process.env.DS_STUDIO_BIN, ["user", "add", name, "--password-stdin", "--data", data, ...more], { input: password + "\n" });
  }
  const log = logFile(port);
  const server = spawn(process.env.DS_STUDIO_BIN, ["serve", "--addr", `127.0.0.1:${port}`, "--data", data, "--static-dir", join(root, "static")], { stdio: ["ignore", log, log] });
  closeSync(log);
  await untilHealthy(base, server);
  const browser = await launchOr(server, {
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return {
    base,
    browser,
    data,
    stop: async () => { await browser.close(); server.kill("SIGTERM"); },
  };
}

/// A fresh browser context (1280x720) signed in as `user`, on the template list; `errors`
/// collects the page's uncaught errors.
export async function signIn(browser, base, user, password) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/signin`);
  await page.fill("#username", user);
  await page.fill("#password", password);
  await page.click("#signin-submit");
  await page.waitForURL(`${base}/templates`);
  await page.waitForSelector("#whoami");
  return { context, page, errors };
}

/// Calls the API from the signed-in page as the browser app does (session cookie + CSRF
/// token): `body` is sent as JSON when given. Returns { status, body } (body null when the
/// answer has none).
export async function apiCall(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const me = await (await fetch("/api/v1/auth/me")).json();
    const headers = { "content-type": "application/json", "x-csrf-token": me.csrf_token };
    const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
    return { status: res.status, body: await res.json().catch(() => null) };
  }, { method, path, body });
}

/// Creates a template from the signed-in page: `body` is the TemplateCreate object.
/// Returns { status, body }.
export async function createTemplate(page, body) {
  return apiCall(page, "POST", "/api/v1/templates", body);
}

/// Starts the server the way README does: from the repository root, with relative directories
/// (`--data DATA`, `--static-dir static`), on a fresh DATA, plus `extra` arguments; and chromium.
/// Returns { base, browser, signinLink, stop }: `signinLink` is the one-time link the first
/// start prints on stdout.
export async function startReadmeWay(data, extra = []) {
  rmSync(join(root, data), { recursive: true, force: true });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = logFile(port);
  const server = spawn(process.env.DS_STUDIO_BIN, ["serve", "--addr", `127.0.0.1:${port}`, "--data", data, "--static-dir", "static", ...extra], {
    cwd: root,
    stdio: ["ignore", "pipe", log],
  });
  closeSync(log);
  let out = "";
  const signinLink = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no sign-in link printed: ${out}`)), 30_000);
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const m = out.match(/(http:\/\/\S+\/api\/v1\/auth\/signin\?token=\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
  });
  const browser = await launchOr(server, {
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  return {
    base,
    browser,
    signinLink,
    stop: async () => { await browser.close(); server.kill("SIGTERM"); },
  };
}
