// `ds-studio validate --format sarif` checked the way code-scanning tools check it: against
// SARIF 2.1.0's published JSON Schema (sarif-2.1.0.json, shipped in Microsoft's
// @microsoft/sarif-multitool-linux package) with ajv, and by Microsoft's own SARIF validator
// (`Sarif.Multitool validate`, the same package), over the whole corpus plus the awkward inputs:
// an absolute path, a name with a space, a file that is not UTF-8, a missing file, and an
// hjson-only construct whose text fix becomes a SARIF fix.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ajv2020 from "ajv/dist/2020.js";

const Ajv = ajv2020.default ?? ajv2020;
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const shared = process.env.DS_SHARED_DIR ?? join(root, "..", "shared");
const bin = resolve(process.env.DS_STUDIO_BIN ?? join(root, "target", "release", "ds-studio"));
const corpusDir = join(shared, "deepspeed/corpus/configs");
const multitool = join(root, "e2e/node_modules/@microsoft/sarif-multitool-linux");

test("validate --format sarif: valid SARIF 2.1.0 for its schema and for Microsoft's validator", () => {
  const dir = mkdtempSync(join(tmpdir(), "ds-sarif-"));
  try {
    writeFileSync(join(dir, "my config.json"), '{"train_batch_size": 8, "fp16": {"enabled": true}, "bf16": {"enabled": true}}');
    writeFileSync(join(dir, "latin1.json"), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    writeFileSync(join(dir, "hjson.json"), '{\n  // a comment json.load refuses\n  "train_micro_batch_size_per_gpu": "auto",\n}\n');
    const names = readdirSync(corpusDir).map((f) => join(corpusDir, f));
    const args = ["validate", "--format", "sarif", "--launcher", "hf-trainer", "my config.json", "latin1.json", "hjson.json", "missing.json", join(dir, "my config.json"), ...names];
    const run = spawnSync(bin, args, { cwd: dir, maxBuffer: 256 << 20 });
    assert.equal(run.status, 2, "a missing input is a usage error (exit 2)");
    const log = JSON.parse(run.stdout.toString());
    writeFileSync(join(dir, "out.sarif"), run.stdout);

    // The published schema, with a validator of the draft it declares (2020-12).
    const schema = JSON.parse(readFileSync(join(multitool, "sarif-2.1.0.json"), "utf8"));
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    const validate = ajv.compile(schema);
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5)));

    const run0 = log.runs[0];
    assert.equal(run0.invocations[0].executionSuccessful, false);
    assert.match(run0.invocations[0].toolExecutionNotifications[0].message.text, /missing\.json/);
    const uris = run0.artifacts.map((a) => a.location.uri);
    assert.ok(uris.includes("my%20config.json"), uris.slice(0, 4).join(" "));
    assert.ok(uris.some((u) => u.startsWith("file:///")), "an absolute path is a file URI");
    const byFile = (u) => run0.results.filter((r) => r.locations[0].physicalLocation.artifactLocation.uri === u);
    assert.ok(byFile("my%20config.json").some((r) => r.ruleId === "launcher-mismatch" && r.level === "error"));
    assert.ok(byFile("latin1.json").some((r) => r.ruleId === "encoding"));
    const notJson = byFile("hjson.json").find((r) => r.ruleId === "not-json");
    assert.ok(notJson?.fixes?.[0].artifactChanges[0].replacements.length > 0, JSON.stringify(notJson));
    // Every result's rule is in the driver's rules, at its index.
    for (const r of run0.results) assert.equal(run0.tool.driver.rules[r.ruleIndex].id, r.ruleId);
    assert.ok(run0.results.length > 500, `${run0.results.length} results`);

    // Microsoft's validator: the schema plus its own SARIF rules; no error-level finding.
    const tool = join(multitool, "Sarif.Multitool");
    chmodSync(tool, 0o755);
    const check = spawnSync(tool, ["validate", "--output", join(dir, "check.sarif"), join(dir, "out.sarif")], {
      env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: "1" },
      timeout: 120_000,
    });
    assert.equal(check.status, 0, check.stdout.toString() + check.stderr.toString());
    const findings = JSON.parse(readFileSync(join(dir, "check.sarif"), "utf8")).runs[0].results;
    const errors = findings.filter((f) => f.level === "error");
    assert.deepEqual(errors.map((e) => `${e.ruleId}: ${JSON.stringify(e.message.arguments)}`), []);
    console.log(`sarif: ${run0.results.length} results on ${uris.length} files; Sarif.Multitool: ${findings.length} findings, none an error (${[...new Set(findings.map((f) => f.ruleId))].join(", ")})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
