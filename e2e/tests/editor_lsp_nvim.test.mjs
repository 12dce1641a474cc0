// `ds-studio lsp` in a real editor: Neovim (Debian's package) headless, with its built-in LSP
// client, opens a corpus config (copied into a scratch directory with a ds-studio.toml), reads
// the diagnostics (they must be exactly what `ds-studio validate` says of the file), a hover on a
// key, and applies a code action, after which that diagnostic is gone. e2e/editors/nvim_lsp.lua
// does the editor's side.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const shared = process.env.DS_SHARED_DIR ?? join(root, "..", "shared");
const bin = resolve(process.env.DS_STUDIO_BIN ?? join(root, "target", "release", "ds-studio"));
const corpusDir = join(shared, "deepspeed/corpus/configs");

function validate(file) {
  const r = spawnSync(bin, ["validate", "--format", "json", file]);
  return JSON.parse(r.stdout.toString().split("\n")[0]);
}

/// The first corpus config (by name) that is plain JSON and has a fix on a line of its own.
function pickConfig() {
  for (const name of readdirSync(corpusDir).sort()) {
    const text = readFileSync(join(corpusDir, name), "utf8");
    try {
      JSON.parse(text);
    } catch {
      continue;
    }
    const v = validate(join(corpusDir, name));
    const fixable = v.diagnostics.find((d) => d.fix && d.line && d.path && !/^(batch|launcher)/.test(d.code));
    if (fixable) return { name, text, fixable };
  }
  throw new Error("no corpus config with a fix");
}

test("Neovim's LSP client: diagnostics equal validate's, a hover, a code action applied", () => {
  const { name, text, fixable } = pickConfig();
  const dir = mkdtempSync(join(tmpdir(), "ds-nvim-"));
  try {
    const file = join(dir, "ds_config.json");
    copyFileSync(join(corpusDir, name), file);
    writeFileSync(join(dir, "ds-studio.toml"), 'deepspeed = "0.19.8"\nworld_size = 1\n');
    const expected = validate(file).diagnostics;
    // Hover on the first key of the file.
    const lines = text.split("\n");
    const hoverLine = lines.findIndex((l) => /^\s*"[A-Za-z_]+"\s*:/.test(l));
    const hoverKey = lines[hoverLine].match(/"([A-Za-z_]+)"/)[1];
    const hoverCol = lines[hoverLine].indexOf('"') + 2;
    const report = join(dir, "report.json");
    const run = spawnSync("nvim", ["--headless", "-n", "-u", "NONE", "-i", "NONE", "-c", `luafile ${join(root, "e2e/editors/nvim_lsp.lua")}`], {
      env: { ...process.env, DS_STUDIO_BIN: bin, DS_CONFIG: file, NVIM_REPORT: report, HOVER_LINE: String(hoverLine), HOVER_COL: String(hoverCol), FIX_LINE: String(fixable.line) },
      timeout: 60_000,
    });
    assert.equal(run.status, 0, `nvim: ${run.stderr}`);
    const out = JSON.parse(readFileSync(report, "utf8"));
    assert.deepEqual(out.errors, []);
    assert.ok(out.attached, "no diagnostics arrived");
    // The same problems as the CLI, on the same lines.
    const seen = out.diagnostics.map((d) => `${d.code}@${d.lnum + 1}`).sort();
    const want = expected.map((d) => `${d.code}@${d.line}`).sort();
    assert.deepEqual(seen, want, `${name}`);
    assert.ok(out.hover?.includes(hoverKey), `hover on ${hoverKey}: ${out.hover}`);
    // The fix, applied by the editor, removes its diagnostic.
    assert.equal(out.action_code, fixable.code, `action ${out.action}`);
    // The title says what the fix does ("Rename `bfloat16` to `bf16`", "Set `x` to 100").
    assert.match(out.action, /^(Rename|Move|Set|Remove|Add|Fix)\b/);
    assert.notEqual(out.fixed_text, text.replace(/\n$/, ""));
    assert.ok(!out.after.some((d) => d.code === fixable.code && d.lnum === fixable.line - 1), JSON.stringify(out.after));
    console.log(`nvim: ${name}: ${out.diagnostics.length} diagnostics, hover on ${hoverKey}, "${out.action}" applied`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("nvim is Debian's, with a built-in LSP client", () => {
  const v = execFileSync("nvim", ["--version"]).toString();
  assert.match(v, /^NVIM v0\.(7|8|9|1\d)/);
});
