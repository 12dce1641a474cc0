//! `ds-studio lsp` driven over its real stdio by a minimal JSON-RPC client: the handshake,
//! diagnostics equal to `ds-studio validate`'s, hover, completion, fixes as code actions, the
//! `ds-studio.toml` context (release, launcher, language), files that are not configs, bad
//! requests, and a clean exit. (Neovim's own client drives it in `e2e/editors/`.)

use ds_studio_shared::validate::validate_text;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: i64,
}

impl Client {
    fn start(locale: Option<&str>) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(["lsp", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut c = Client {
            child,
            stdin,
            stdout,
            next: 1,
        };
        let mut params = json!({"processId": null, "rootUri": null, "capabilities": {}});
        if let Some(l) = locale {
            params["locale"] = json!(l);
        }
        let init = c.request("initialize", params);
        let caps = &init["result"]["capabilities"];
        assert_eq!(caps["textDocumentSync"], json!(1), "{init}");
        assert_eq!(caps["hoverProvider"], json!(true));
        assert_eq!(caps["codeActionProvider"], json!(true));
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut len = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                len = v.parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.read();
            if m["id"] == json!(id) {
                return m;
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let m = self.read();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}),
        );
        self.diagnostics(uri)
    }

    fn exit(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ds-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn codes(diags: &[Value]) -> Vec<String> {
    let mut c: Vec<String> = diags
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect();
    c.sort();
    c
}

const CONFIG: &str = r#"{
  "train_batch_size": 6,
  "gradient_accumulation_steps": 4,
  "fp16": {"enabled": true},
  "bf16": {"enabled": true},
  "zero_optimization": {
    "stage": 2,
    "overlap_com": true
  }
}
"#;

#[test]
fn diagnostics_are_validates_and_fixes_apply() {
    let dir = scratch("diag");
    std::fs::write(dir.join("ds-studio.toml"), "world_size = 1\n").unwrap();
    let file = dir.join("ds_config.json");
    let mut c = Client::start(None);
    let diags = c.open(&uri(&file), CONFIG);
    // The same codes as the validator, with the same messages.
    let (_, expected) = validate_text(CONFIG, &ds_studio_shared::Context::default());
    let mut want: Vec<String> = expected.iter().map(|d| d.code.clone()).collect();
    want.sort();
    assert_eq!(codes(&diags), want);
    assert!(want.contains(&"fp16-and-bf16".to_string()), "{want:?}");
    let typo = diags.iter().find(|d| d["code"] == "unknown-key").unwrap();
    // On the key, in UTF-16 positions: line 7, `"overlap_com"` from column 4.
    assert_eq!(typo["range"]["start"], json!({"line": 7, "character": 4}));
    assert_eq!(typo["severity"], json!(1));
    assert!(typo["message"].as_str().unwrap().contains("overlap_comm"));
    // Its fix, as a code action; applied, the diagnostic is gone.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri(&file)}, "range": typo["range"], "context": {"diagnostics": [typo]}}),
    );
    let action = actions["result"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["diagnostics"][0]["code"] == "unknown-key")
        .unwrap_or_else(|| panic!("no fix: {actions}"));
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(
        action["title"],
        "Rename `zero_optimization.overlap_com` to `overlap_comm`"
    );
    let edits = action["edit"]["changes"][uri(&file)].as_array().unwrap();
    let fixed = apply(CONFIG, edits);
    assert!(fixed.contains("\"overlap_comm\": true"), "{fixed}");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let after = c.diagnostics(&uri(&file));
    assert!(!codes(&after).contains(&"unknown-key".to_string()));
    // Closing the file clears its problems.
    c.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri(&file)}}),
    );
    assert!(c.diagnostics(&uri(&file)).is_empty());
    c.exit();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Applies LSP text edits (ranges in UTF-16 units; ASCII here) to a text.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap() as usize;
        let col = p["character"].as_u64().unwrap() as usize;
        text.split_inclusive('\n')
            .take(line)
            .map(str::len)
            .sum::<usize>()
            + col
    };
    let mut spans: Vec<(usize, usize, String)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (s, e, t) in spans {
        out.replace_range(s..e, &t);
    }
    out
}

#[test]
fn hover_and_completion_come_from_the_registry() {
    let dir = scratch("hover");
    let file = dir.join("ds_config.json");
    let text = "{\n  \"train_batch_size\": 8,\n  \"zero_optimization\": {\n    \"stage\": 3,\n    \n  }\n}\n";
    let mut c = Client::start(None);
    c.open(&uri(&file), text);
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 3, "character": 7}}),
    );
    let md = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(md.contains("zero_optimization.stage"), "{md}");
    assert!(md.contains("Default"), "{md}");
    assert!(md.contains("DeepSpeed 0.19.8"), "{md}");
    // Keys of zero_optimization it does not have yet.
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 4, "character": 4}}),
    );
    let labels: Vec<&str> = items["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"offload_optimizer"), "{labels:?}");
    assert!(!labels.contains(&"stage"), "already there");
    // Values after a colon.
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 3, "character": 13}}),
    );
    let values: Vec<&str> = items["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["0", "1", "2", "3"]);
    // optimizer.type: this release's DeepSpeed optimizers (no 1-bit ones in 0.19.8), then torch's.
    let opt = dir.join("ds_config_opt.json");
    c.open(
        &uri(&opt),
        "{\n  \"train_batch_size\": 8,\n  \"optimizer\": {\"type\": }\n}\n",
    );
    let items = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": uri(&opt)}, "position": {"line": 2, "character": 24}}),
    );
    let types: Vec<&str> = items["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(
        types.contains(&"\"adamw\"") && types.contains(&"\"SGD\""),
        "{types:?}"
    );
    assert!(!types.contains(&"\"onebitadam\""), "{types:?}");
    c.exit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_context_comes_from_ds_studio_toml() {
    let dir = scratch("ctx");
    let sub = dir.join("configs");
    std::fs::create_dir_all(&sub).unwrap();
    let file = sub.join("zero3.json");
    let text = r#"{"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 3}}"#;
    let mut c = Client::start(None);
    // No ds-studio.toml: the plain launcher, where "auto" batch sizes fail.
    let plain = c.open(&uri(&file), text);
    assert!(plain.iter().any(|d| d["severity"] == json!(1)), "{plain:?}");
    // The HF Trainer from the file above: the same config is fine, and in Chinese.
    std::fs::write(
        dir.join("ds-studio.toml"),
        "launcher = \"hf-trainer\"\ndeepspeed = \"0.18.4\"\nlang = \"zh\"\n",
    )
    .unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&dir.join("ds-studio.toml"))}}),
    );
    let hf = c.diagnostics(&uri(&file));
    assert!(hf.iter().all(|d| d["severity"] != json!(1)), "{hf:?}");
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&file)}, "position": {"line": 0, "character": 135}}),
    );
    let md = hover["result"]["contents"]["value"]
        .as_str()
        .unwrap_or_default();
    assert!(
        md.contains("默认值") && md.contains("0.18.4") && md.contains("hf-trainer"),
        "{hover}"
    );
    // A broken file is said, and the defaults apply.
    std::fs::write(dir.join("ds-studio.toml"), "launcher = \"torchrun\"\n").unwrap();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 2}, "contentChanges": [{"text": text}]}),
    );
    let broken = c.diagnostics(&uri(&file));
    let ctx = broken.iter().find(|d| d["code"] == "context").unwrap();
    assert!(
        ctx["message"].as_str().unwrap().contains("torchrun"),
        "{ctx}"
    );
    c.exit();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn other_files_and_bad_requests() {
    let dir = scratch("other");
    let mut c = Client::start(Some("zh-cn"));
    // A package.json is not a DeepSpeed config: nothing published, no hover.
    let pkg = dir.join("package.json");
    assert!(c
        .open(&uri(&pkg), r#"{"name": "x", "version": 1}"#)
        .is_empty());
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri(&pkg)}, "position": {"line": 0, "character": 3}}),
    );
    assert_eq!(hover["result"], Value::Null);
    // The editor's locale picks Chinese messages; hjson comments are fine for DeepSpeed.
    let cfg = dir.join("ds_config.json");
    let diags = c.open(
        &uri(&cfg),
        "{\n  // ZeRO\n  \"fp16\": {\"enabled\": true}\n}",
    );
    let missing = diags.iter().find(|d| d["code"] == "batch-size").unwrap();
    assert!(
        missing["message"]
            .as_str()
            .unwrap()
            .chars()
            .any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)),
        "{missing}"
    );
    // An unknown method and malformed parameters are errors naming the problem.
    let r = c.request("textDocument/formatting", json!({}));
    assert_eq!(r["error"]["code"], json!(-32601), "{r}");
    let r = c.request("textDocument/hover", json!({"nope": 1}));
    assert_eq!(r["error"]["code"], json!(-32602), "{r}");
    assert!(r["error"]["message"]
        .as_str()
        .unwrap()
        .contains("textDocument/hover"));
    // A request for a file never opened: no answer, no crash.
    let r = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere/ds_config.json"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r["result"], Value::Null);
    c.exit();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A huge `ds-studio.toml` is not read (64 KiB cap), and unknown keys are capped at 20 problems.
#[test]
fn a_huge_or_noisy_ds_studio_toml_costs_little() {
    let dir = scratch("noisy");
    let file = dir.join("ds.json");
    let text = r#"{"train_batch_size": 8}"#;
    let keys: String = (0..3_000).map(|i| format!("k{i} = 1\n")).collect();
    assert!(keys.len() < 64 << 10);
    std::fs::write(dir.join("ds-studio.toml"), &keys).unwrap();
    let mut c = Client::start(None);
    let diags = c.open(&uri(&file), text);
    let ctx: Vec<&Value> = diags.iter().filter(|d| d["code"] == "context").collect();
    assert_eq!(ctx.len(), 21, "20 unknown keys and a count: {}", ctx.len());
    assert!(ctx[20]["message"]
        .as_str()
        .unwrap()
        .contains("2980 more unknown keys"));
    let huge: String = (0..40_000).map(|i| format!("k{i} = 1\n")).collect();
    std::fs::write(dir.join("ds-studio.toml"), &huge).unwrap();
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri(&file), "version": 2}, "contentChanges": [{"text": text}]}),
    );
    let diags = c.diagnostics(&uri(&file));
    let ctx: Vec<&Value> = diags.iter().filter(|d| d["code"] == "context").collect();
    assert_eq!(ctx.len(), 1, "{ctx:?}");
    assert!(ctx[0]["message"]
        .as_str()
        .unwrap()
        .contains("longer than 65536 bytes"));
    c.exit();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A frame claiming more than 64 MiB is refused from its header: the server stops at once with
/// an error naming it, having allocated nothing for it.
#[test]
fn an_oversized_frame_is_refused_before_anything_is_allocated() {
    for len in ["9223372036854775807", "2500000000"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ds-studio"))
            .args(["lsp", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        write!(stdin, "Content-Length: {len}\r\n\r\n{{").unwrap();
        stdin.flush().unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(!out.status.success(), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("over the 67108864-byte limit"), "{err}");
    }
}
