//! The `ds-studio` binary end to end: exit codes, text and JSON output, stdin, fmt, explain.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ds-studio"))
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

fn tmpdir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ds-studio-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn validate_json_lines_and_exit_codes() {
    let d = tmpdir("validate");
    let good = write(
        &d,
        "good.json",
        r#"{"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2}"#,
    );
    let bad = write(&d, "bad.json", "{\n  \"train_batch_size\": 33,\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": 1\n}");
    let junk = write(&d, "junk.json", "{ this is : not [ json");
    let out = bin()
        .args([
            "validate",
            "--world-size",
            "8",
            "--format",
            "json",
            &good,
            &bad,
            &junk,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["verdict"], "accepted");
    assert_eq!(lines[1]["verdict"], "rejected");
    let d1 = &lines[1]["diagnostics"][0];
    assert_eq!(d1["code"], "batch-mismatch");
    assert_eq!(d1["path"], "/train_batch_size");
    assert_eq!(d1["fix"][0]["value"], 32);
    assert_eq!(lines[2]["verdict"], "rejected");
    assert_eq!(lines[2]["diagnostics"][0]["code"], "syntax");

    let ok = bin()
        .args(["validate", "--world-size", "8", &good])
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0));
    let text = bin()
        .args(["validate", "--nodes", "1", "--gpus-per-node", "8", &bad])
        .output()
        .unwrap();
    let s = String::from_utf8(text.stdout).unwrap();
    assert!(s.contains(&format!("{bad}:2:3: ")), "{s}");
    assert!(s.contains("error[batch-mismatch]"), "{s}");

    let missing = bin()
        .args(["validate", "/nonexistent/ds.json"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let usage = bin()
        .args(["validate", "--launcher", "mpirun", &good])
        .output()
        .unwrap();
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn fail_on_warning_turns_a_warning_into_exit_1() {
    let d = tmpdir("fail-on");
    // Accepted by DeepSpeed, but the misspelt key is silently ignored: a warning.
    let warned = write(
        &d,
        "warned.json",
        r#"{"train_batch_size": 8, "steps_per_prin": 10}"#,
    );
    let clean = write(&d, "clean.json", r#"{"train_batch_size": 8}"#);
    let status = |args: &[&str]| bin().args(args).output().unwrap();
    let by_default = status(&["validate", &warned]);
    assert_eq!(by_default.status.code(), Some(0));
    let text = String::from_utf8_lossy(&by_default.stdout).into_owned();
    assert!(text.contains("warning[unknown-key]"), "{text}");
    assert_eq!(
        status(&["validate", "--fail-on", "warning", &warned])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        status(&["validate", "--fail-on", "warning", &clean])
            .status
            .code(),
        Some(0)
    );
    assert_eq!(
        status(&["validate", "--fail-on", "hint", &clean])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn validate_reads_stdin_and_speaks_chinese() {
    let mut child = bin()
        .args(["validate", "--lang", "zh", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            br#"{"train_batch_size": 1, "fp16": {"enabled": true}, "bf16": {"enabled": true}}"#,
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("<stdin>:1:"), "{s}");
    assert!(s.contains("不能同时启用"), "{s}");
}

#[test]
fn fmt_keeps_comments_and_numbers_and_explain_works() {
    let d = tmpdir("fmt");
    let f = write(&d, "c.json", "{train_batch_size: 8, // batch\n zero_optimization: {stage: 2, reduce_bucket_size: 5e8,},}");
    assert_eq!(bin().args(["fmt", &f]).status().unwrap().code(), Some(0));
    let after = std::fs::read_to_string(&f).unwrap();
    assert_eq!(after, "{\n  \"train_batch_size\": 8,\n  // batch\n  \"zero_optimization\": {\n    \"stage\": 2,\n    \"reduce_bucket_size\": 5e8\n  }\n}\n");
    assert_eq!(
        bin().args(["fmt", "--check", &f]).status().unwrap().code(),
        Some(0)
    );

    let out = bin()
        .args(["explain", "zero_optimization.stage", "--lang", "zh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("zero_optimization.stage"));
    let typo = bin()
        .args(["explain", "zero_optimization.stag"])
        .output()
        .unwrap();
    assert_eq!(typo.status.code(), Some(2));
    assert!(String::from_utf8(typo.stderr)
        .unwrap()
        .contains("did you mean 'zero_optimization.stage'"));
}

#[test]
fn schema_and_estimate_print() {
    let out = bin().arg("schema").output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
    let est = bin()
        .args([
            "estimate",
            "--params",
            "7e9",
            "--gpus-per-node",
            "8",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&est.stdout).unwrap();
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 7);
    // Partitioning over 8 GPUs: each stage holds less per GPU than the one below.
    let peak = |i: usize| lines[i]["gpu_peak_bytes"].as_u64().unwrap();
    assert!(
        peak(1) < peak(0) && peak(2) < peak(1) && peak(4) < peak(2),
        "{v}"
    );
}

/// `estimate --config FILE --size SIZE`: the measured xl ZeRO-2 row (32,972 MiB on an H200)
/// within 10%, and the measured out-of-memory run said not to fit, with a micro batch that does.
#[test]
fn estimate_of_a_config_matches_the_gpu_and_says_what_fits() {
    let dir = tmpdir("estimate");
    let f = write(
        &dir,
        "z2.json",
        r#"{"train_micro_batch_size_per_gpu": 8, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}},
            "zero_optimization": {"stage": 2, "overlap_comm": true}}"#,
    );
    let out = bin()
        .args([
            "estimate", "--config", &f, "--size", "xl", "--format", "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mib = v["gpu_peak_bytes"].as_f64().unwrap() / 1048576.0;
    assert!((mib / 32971.7 - 1.0).abs() < 0.1, "{mib}");
    assert!(v["gpu_parts"].as_array().unwrap().len() >= 3);
    let big = write(
        &dir,
        "mb96.json",
        r#"{"train_micro_batch_size_per_gpu": 96, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}}}"#,
    );
    let out = bin()
        .args([
            "estimate",
            "--config",
            &big,
            "--size",
            "xl",
            "--gpu-memory-gib",
            "139.8",
            "--lang",
            "zh",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "does not fit: exit 1");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("放不下"), "{text}");
    assert!(text.contains("微批 48 × 梯度累积 2 步"), "{text}");
    let bad = bin()
        .args(["estimate", "--config", &f, "--size", "huge"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8(bad.stderr)
        .unwrap()
        .contains("--size huge"));
}

/// `estimate --model-config FILE`: a model read from its Hugging Face config.json, with
/// transformers' parameter count, part by part; a bad config.json is a usage error naming what
/// is wrong, in English and Chinese.
#[test]
fn estimate_reads_a_models_config_json() {
    let dir = tmpdir("estimate-model");
    let f = write(
        &dir,
        "z2.json",
        r#"{"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 3e-4}},
            "zero_optimization": {"stage": 2}}"#,
    );
    // Llama 3.1 8B's config.json facts, as the catalog keeps them.
    let llama_config = ds_studio_shared::architecture::catalog::find("llama-3.1-8b")
        .unwrap()
        .config
        .to_string();
    let llama = &write(&dir, "llama-3.1-8b.json", &llama_config);
    let out = bin()
        .args([
            "estimate",
            "--config",
            &f,
            "--model-config",
            llama,
            "--seq-len",
            "4096",
            "--gpus-per-node",
            "8",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["model"]["params"], 8_030_261_248u64);
    assert_eq!(v["model"]["trainable_params"], 8_030_261_248u64);
    assert_eq!(v["model"]["architecture"]["kv_heads"], 8);
    assert_eq!(v["model"]["parts"]["lm_head"], 128_256u64 * 4096);
    assert_eq!(v["model"]["seq_len"], 4096);
    assert!(v["gpu_peak_bytes"].as_u64().unwrap() > 8_030_261_248 * 2);
    // The table for a model, in Chinese, names its parts.
    let out = bin()
        .args(["estimate", "--model-config", llama, "--lang", "zh"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("模型（llama）：8.03B 参数") || text.contains("模型（llama）：8.0B 参数"),
        "{text}"
    );
    assert!(text.contains("输出层"), "{text}");
    assert!(
        text.contains("32 个注意力头（8 个键值头）") && text.contains("序列长度 2048"),
        "{text}"
    );
    // A model's directory, as downloaded, is read through its config.json.
    let model_dir = dir.join("Llama-3.1-8B");
    std::fs::create_dir_all(&model_dir).unwrap();
    std::fs::copy(llama, model_dir.join("config.json")).unwrap();
    let out = bin()
        .args([
            "estimate",
            "--model-config",
            model_dir.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // What a user gets wrong.
    let bert = write(
        &dir,
        "bert.json",
        r#"{"model_type": "bert", "hidden_size": 768}"#,
    );
    let no_width = write(
        &dir,
        "nowidth.json",
        r#"{"model_type": "qwen2", "num_hidden_layers": 2}"#,
    );
    for (args, says) in [
        (vec!["--model-config", bert.as_str()], "model_type \"bert\""),
        (
            vec!["--model-config", no_width.as_str()],
            "no \"hidden_size\"",
        ),
        (
            vec!["--model-config", llama, "--size", "xl"],
            "give one of them",
        ),
        (
            vec!["--model-config", llama, "--layers", "4"],
            "leave --layers out",
        ),
        (
            vec!["--model-config", "/nonexistent/config.json"],
            "/nonexistent/config.json",
        ),
    ] {
        let out = bin().arg("estimate").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let out = bin()
        .args(["estimate", "--model-config", &bert, "--lang", "zh"])
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stderr).unwrap().contains("不支持"));
}

/// `models` lists the catalog; `estimate --model NAME` picks from it, with LoRA
/// (`--lora-rank`, `--lora-targets`): only the adapters train, and the JSON says how many.
#[test]
fn estimate_picks_a_catalog_model_and_lora() {
    let out = bin().args(["models", "--format", "json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let qwen = list
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "qwen2.5-7b")
        .unwrap();
    assert_eq!(qwen["params"], 7_615_616_512u64);
    assert_eq!(qwen["family"], "qwen2");
    let out = bin()
        .args(["models", "--search", "mixtral"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("mixtral-8x7b") && !text.contains("qwen"),
        "{text}"
    );
    let out = bin()
        .args(["models", "--search", "no such model"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("--model-config"));

    let dir = tmpdir("estimate-lora");
    let f = write(
        &dir,
        "z2.json",
        r#"{"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}},
            "zero_optimization": {"stage": 2}}"#,
    );
    let run = |extra: &[&str]| {
        let out = bin()
            .args(["estimate", "--config", &f, "--model", "Qwen/Qwen2.5-7B"])
            .args([
                "--seq-len",
                "4096",
                "--gpu-memory-gib",
                "80",
                "--format",
                "json",
            ])
            .args(extra)
            .output()
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
        (out.status.code(), v, String::from_utf8(out.stderr).unwrap())
    };
    let (code, full, err) = run(&[]);
    assert_eq!(code, Some(1), "full fine-tuning does not fit 80 GiB: {err}");
    assert_eq!(full["model"]["trainable_params"], 7_615_616_512u64);
    let (code, lora, err) = run(&["--lora-rank", "16", "--lora-targets", "q_proj,v_proj"]);
    assert_eq!(code, Some(0), "LoRA fits: {err}");
    assert_eq!(
        lora["model"]["trainable_params"],
        16 * ((3584 + 3584) + (3584 + 512)) * 28
    );
    assert!(lora["gpu_peak_bytes"].as_u64() < full["gpu_peak_bytes"].as_u64());
    // Text: the adapters' share and the frozen base are said.
    let out = bin()
        .args([
            "estimate",
            "--config",
            &f,
            "--model",
            "qwen2.5-7b",
            "--lora-rank",
            "8",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("LoRA:") && text.contains("frozen in 16-bit"),
        "{text}"
    );
    // An 8-GPU config asked about 1 GPU: its batch is wrong there, and it says so; the peak
    // with activation checkpointing is said too.
    let eight = write(
        &dir,
        "z2-8gpu.json",
        r#"{"train_batch_size": 128, "train_micro_batch_size_per_gpu": 4,
            "gradient_accumulation_steps": 4, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}},
            "zero_optimization": {"stage": 2}}"#,
    );
    let out = bin()
        .args(["estimate", "--config", &eight])
        .args([
            "--model",
            "meta-llama/Llama-3.1-8B-Instruct",
            "--seq-len",
            "4096",
        ])
        .args(["--lora-rank", "16", "--gpu-memory-gib", "80"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("error(s) on 1 GPU(s)") && text.contains("--gpus-per-node"),
        "{text}"
    );
    assert!(
        text.contains("With activation checkpointing it needs"),
        "{text}"
    );
    // Without --config, every line says whether it fits; exit 1 when none does.
    let out = bin()
        .args([
            "estimate",
            "--model",
            "llama-3.1-70b",
            "--gpu-memory-gib",
            "24",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("fits 24.0 GiB") && text.contains(" no"),
        "{text}"
    );
    assert!(text.contains("70.554B parameters"), "{text}");
    let lora_q = [
        "--model",
        "gpt2",
        "--lora-rank",
        "8",
        "--lora-targets",
        "q_proj",
    ];
    let lm_head = [
        "--model",
        "gpt2",
        "--lora-rank",
        "8",
        "--lora-targets",
        "lm_head",
    ];
    for (args, says) in [
        (&["--model", "qwen2.5-8b"][..], "did you mean \"qwen2.5-"),
        (&["--model", "qwen9"], "--model-config FILE"),
        (
            &lora_q,
            "--lora-rank 8 --lora-targets q_proj: LoRA target q_proj",
        ),
        (&lora_q, "c_attn"),
        (&["--model", "gpt2", "--lora-rank", "0"], "LoRA rank 0"),
        (&["--size", "xl", "--lora-rank", "8"], "--lora-rank needs"),
        (
            &["--model", "gpt2", "--model-config", "x.json"],
            "give one of them",
        ),
    ] {
        let out = bin().arg("estimate").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // A sweep is planned for a catalog model as for the built-in workload.
    let out = bin()
        .args(["sweep", "plan", "--config", &f, "--model", "qwen2.5-0.5b"])
        .args([
            "--seq-len",
            "4096",
            "--grid",
            "train_micro_batch_size_per_gpu=1,64",
        ])
        .args(["--gpu-memory-gib", "80", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let states: Vec<&str> = plan["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["planned", "pruned"], "{plan}");
    // The output layer can be named: peft adapts it when asked.
    let out = bin().arg("estimate").args(lm_head).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `sweep plan`: the grid's points with their estimates, the global batch kept, and the points
/// that would not run pruned with their reason (a micro batch that does not divide the global
/// batch, one over the GPU).
#[test]
fn sweep_plan_lists_points_and_prunes_what_cannot_run() {
    let dir = tmpdir("sweep-plan");
    let f = write(
        &dir,
        "base.json",
        r#"{"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": 16, "bf16": {"enabled": true},
            "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "torch_adam": true}},
            "zero_optimization": {"stage": 2}}"#,
    );
    let out = bin()
        .args([
            "sweep",
            "plan",
            "--config",
            &f,
            "--size",
            "xl",
            "--grid",
            "train_micro_batch_size_per_gpu=8,64,3",
            "--grid",
            "zero_optimization.stage=0,3",
            "--keep-global-batch",
            "--gpu-memory-gib",
            "139.8",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let points = v["points"].as_array().unwrap();
    assert_eq!(points.len(), 6);
    let state = |micro: u64, stage: u64| {
        points
            .iter()
            .find(|p| {
                p["values"]["train_micro_batch_size_per_gpu"] == micro
                    && p["values"]["zero_optimization.stage"] == stage
            })
            .unwrap()
    };
    assert_eq!(state(8, 0)["state"], "planned");
    assert!(state(8, 3)["gpu_peak_bytes"].as_u64().unwrap() > 0);
    assert_eq!(state(64, 0)["state"], "pruned");
    assert!(state(64, 0)["reason"]
        .as_str()
        .unwrap()
        .starts_with("does not fit"));
    assert!(state(3, 3)["reason"]
        .as_str()
        .unwrap()
        .contains("does not divide the 128"));
    let bad = bin()
        .args([
            "sweep", "plan", "--config", &f, "--size", "xl", "--grid", "stage",
        ])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("KEY=V1,V2"));
}

#[test]
fn effective_derives_the_batch_and_marks_provenance() {
    let dir = tmpdir("effective");
    let f = write(
        &dir,
        "c.json",
        r#"{"train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 2}}"#,
    );
    let out = bin()
        .args(["effective", "--nodes", "2", "--gpus-per-node", "4", &f])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(s.contains("train_batch_size = 64  (derived)"), "{s}");
    assert!(s.contains("zero_optimization.stage = 2  (user)"), "{s}");
    assert!(s.contains("(default)"), "{s}");

    let out = bin()
        .args(["effective", "--world-size", "8", "--format", "json", &f])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["train_batch_size"], 64);
    assert_eq!(v["zero_optimization"]["stage"], 2);

    let out = bin()
        .args(["effective", "--implicit-only", "--format", "entries", &f])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let entries = v.as_array().unwrap();
    assert!(!entries.is_empty());
    assert!(entries.iter().all(|e| e["provenance"] != "user"), "{v}");

    let bad = write(&dir, "bad.json", "{\"train_batch_size\": ");
    let out = bin().args(["effective", &bad]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not valid JSON"));
}

/// `--deepspeed` on validate and schema, and `upgrade` from 0.18.4 to 0.19.8 (report, --write
/// keeping comments, exit codes, a release outside the range as a usage error).
#[test]
fn releases_on_the_command_line() {
    let d = tmpdir("releases");
    let text = "{\n  // apex recipe\n  \"train_batch_size\": 8,\n  \"amp\": {\"enabled\": true, \"opt_level\": \"O1\"}\n}\n";
    let file = write(&d, "ds_config.json", text);
    let run = |args: &[&str]| bin().args(args).output().unwrap();
    let out = run(&["validate", "--deepspeed", "0.18.4", &file]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("accepted by DeepSpeed 0.18.4"));
    let out = run(&["validate", &file]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("removed-key"));
    for bad in ["0.13.0", "0.18.10", "latest"] {
        let out = run(&["validate", "--deepspeed", bad, &file]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("0.14.4") && err.contains("0.19.8"), "{err}");
    }
    let schema: serde_json::Value =
        serde_json::from_slice(&run(&["schema", "--deepspeed", "0.17.4"]).stdout).unwrap();
    assert_eq!(
        schema["title"],
        "DeepSpeed training config (0.17.4, the deepspeed launcher)"
    );
    // Another launcher and language; a bad option value is a usage error naming the choices.
    let zh: serde_json::Value = serde_json::from_slice(
        &run(&["schema", "--launcher", "accelerate", "--lang", "zh"]).stdout,
    )
    .unwrap();
    assert_eq!(zh["title"], "DeepSpeed 训练配置（0.19.8，Accelerate）");
    let out = run(&["schema", "--launcher", "torchrun"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hf-trainer"));
    // The report: exit 1 while the config is rejected by --to, as JSON too.
    let out = run(&[
        "upgrade", &file, "--from", "0.18.4", "--to", "0.19.8", "--format", "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let kinds: Vec<&str> = report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"removed") && kinds.contains(&"default"),
        "{kinds:?}"
    );
    assert_eq!(report["errors_after_fixes"], 0);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        text,
        "no --write: untouched"
    );
    // --write applies the fix (comment kept, fp16 instead of apex) and the result is accepted.
    // In Chinese, the same report.
    let out = run(&["upgrade", &file, "--from", "0.18.4", "--lang", "zh"]);
    let zh = String::from_utf8_lossy(&out.stdout);
    assert!(zh.contains("已在 DeepSpeed 0.19.8 中移除"), "{zh}");
    let out = run(&["upgrade", &file, "--from", "0.18.4", "--write"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.contains("// apex recipe") && !written.contains("amp"),
        "{written}"
    );
    assert!(written.contains("\"fp16\""), "{written}");
    let out = run(&["validate", &file]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // Nothing to change: the file stays byte for byte.
    let plain = write(
        &d,
        "plain.json",
        "{\"train_batch_size\": 8, \"gradient_clipping\": 1.0}\n",
    );
    let out = run(&["upgrade", &plain, "--from", "0.19.5", "--write"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(&plain).unwrap(),
        "{\"train_batch_size\": 8, \"gradient_clipping\": 1.0}\n"
    );
}

/// The HF launchers on the command line: a LLaMA-Factory YAML names the config and the
/// arguments; `--trainer-args` alone means the Trainer; `effective` says where each value HF
/// wrote came from.
#[test]
fn hf_trainer_arguments_on_the_command_line() {
    let d = tmpdir("hf");
    let config = write(
        &d,
        "ds_z2.json",
        "{\n  // ZeRO-2\n  \"train_batch_size\": \"auto\",\n  \"train_micro_batch_size_per_gpu\": 4,\n  \"gradient_accumulation_steps\": \"auto\",\n  \"zero_optimization\": {\"stage\": 2}\n}\n",
    );
    let yaml = write(
        &d,
        "sft.yaml",
        "stage: sft\nfinetuning_type: full\ndeepspeed: ds_z2.json\nper_device_train_batch_size: 2\ngradient_accumulation_steps: 8\nbf16: true\n",
    );
    // The config is found beside the YAML; the comment and the micro batch are HF's errors.
    let out = bin()
        .args([
            "validate",
            "--trainer-args-file",
            &yaml,
            "--world-size",
            "8",
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["file"].as_str().unwrap(), config);
    let codes: Vec<&str> = line["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"not-json") && codes.contains(&"launcher-mismatch"),
        "{codes:?}"
    );
    // --trainer-args alone: the Trainer; the text summary names it.
    let out = bin()
        .args([
            "validate",
            &config,
            "--trainer-args",
            "per_device_train_batch_size=4",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("rejected by HF Trainer + DeepSpeed 0.19.8 (1 error, 0 warnings)"),
        "{text}"
    );
    // A bad argument is a usage error naming it.
    let out = bin()
        .args([
            "validate",
            &config,
            "--trainer-args",
            "per_device_train_batch_size=abc",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("per_device_train_batch_size must be a positive whole number"));
    // effective: the config from the YAML, each filled value with its argument.
    let out = bin()
        .args([
            "effective",
            "--trainer-args-file",
            &yaml,
            "--world-size",
            "8",
            "--implicit-only",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("gradient_accumulation_steps = 8  (auto, from gradient_accumulation_steps)"),
        "{text}"
    );
    assert!(
        text.contains("train_batch_size = 128  (auto, from train_batch_size (calculated))"),
        "{text}"
    );
}

/// CI annotations: one GitHub workflow command per diagnostic, escaped as the runner reads them.
#[test]
fn validate_prints_github_annotations() {
    let d = tmpdir("github");
    let bad = write(
        &d,
        "bad,one.json",
        "{\n  \"train_batch_size\": 33,\n  \"train_micro_batch_size_per_gpu\": 4\n}",
    );
    let out = bin()
        .args(["validate", "--world-size", "8", "--format", "github", &bad])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("::error "))
        .unwrap_or_else(|| panic!("{text}"));
    // `,` in a property is escaped, the position is the diagnostic's.
    assert!(
        line.contains("file=")
            && line.contains("bad%2Cone.json,line=2,col=3,title=ds-studio batch-"),
        "{line}"
    );
    assert!(line.contains("::Check batch related parameters"), "{line}");
    assert!(
        !text.lines().any(|l| !l.starts_with("::")),
        "only workflow commands: {text}"
    );
    // A file that cannot be read is annotated too, not only told on stderr.
    let missing = d.join("gone.json").to_string_lossy().into_owned();
    let out = bin()
        .args(["validate", "--format", "github", &missing])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("::error file=")
            && text.contains("title=ds-studio unreadable::cannot read ")
            && text.contains("gone.json"),
        "{text}"
    );
}

/// Without a world size the batch is judged for one GPU, and a mismatch says so (its fix would
/// be wrong for a cluster); with one, it does not.
#[test]
fn a_batch_mismatch_judged_without_a_world_size_says_it_assumed_one_gpu() {
    let d = tmpdir("assumed");
    let cfg = write(
        &d,
        "eight.json",
        r#"{"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}"#,
    );
    let text = |args: &[&str]| {
        let out = bin().args(args).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let plain = text(&["validate", &cfg]);
    assert!(
        plain.contains("error[batch-mismatch]")
            && plain.contains("judged for 1 GPU: no --world-size was given"),
        "{plain}"
    );
    let zh = text(&["validate", "--lang", "zh", &cfg]);
    assert!(zh.contains("按 1 个 GPU 判断"), "{zh}");
    assert!(
        text(&["validate", "--world-size", "8", &cfg]).contains("accepted"),
        "64 = 4 x 2 x 8"
    );
    let two = text(&["validate", "--world-size", "2", &cfg]);
    assert!(
        two.contains("error[batch-mismatch]") && !two.contains("judged for 1 GPU"),
        "{two}"
    );
}

/// A file that is not UTF-8 still gets its verdict, in text and JSON, with the bad byte's place.
#[test]
fn validate_judges_a_file_that_is_not_utf8() {
    let d = tmpdir("utf8");
    let p = d.join("latin1.json");
    std::fs::write(&p, b"{\n  \"train_batch_size\": 8, \"x\": \"caf\xe9\"\n}").unwrap();
    let p = p.to_string_lossy().into_owned();
    let out = bin()
        .args(["validate", "--format", "json", &p])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["verdict"], "rejected");
    assert_eq!(v["diagnostics"][0]["code"], "encoding");
    assert_eq!(
        (
            v["diagnostics"][0]["line"].as_u64(),
            v["diagnostics"][0]["column"].as_u64()
        ),
        (Some(2), Some(35))
    );
    assert!(
        v["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .contains("0xe9"),
        "{v}"
    );
}

/// `fmt --format json`: one object per input, also for one that is not UTF-8.
#[test]
fn fmt_json_reports_every_input() {
    let d = tmpdir("fmtjson");
    let ok = write(&d, "ok.json", "{\"a\":1}");
    let p = d.join("bad.json");
    std::fs::write(&p, b"{\"a\": \"\xff\"}").unwrap();
    let bad = p.to_string_lossy().into_owned();
    let out = bin()
        .args(["fmt", "--check", "--format", "json", &ok, &bad])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["status"], "would-reformat");
    assert_eq!(lines[1]["status"], "error");
    assert!(
        lines[1]["errors"][0]["message"]
            .as_str()
            .unwrap()
            .contains("not UTF-8"),
        "{}",
        lines[1]
    );
}

#[test]
fn launch_commands_for_a_file_and_a_cluster_shape() {
    let dir = tmpdir("launch");
    let file = write(
        &dir,
        "z3.json",
        r#"{"train_batch_size": 16, "zero_optimization": {"stage": 3}}"#,
    );
    let out = bin()
        .args([
            "launch-command",
            &file,
            "--nodes",
            "2",
            "--gpus",
            "4",
            "--master-addr",
            "10.1.1.1",
            "--hf",
            "--",
            "--epochs",
            "3",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "node-1 slots=4",
        "deepspeed --hostfile hostfile --num_nodes 2 --num_gpus 4 --master_addr 10.1.1.1 --master_port 29500 train.py --epochs 3 --deepspeed ds_config.json",
        "torchrun --nnodes 2 --nproc_per_node 4 --node_rank $NODE_RANK",
        "  zero3_init_flag: true",
        "num_processes: 8",
        "accelerate launch --config_file accelerate_config.yaml train.py --epochs 3",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let json = bin()
        .args([
            "launch-command",
            &file,
            "--format",
            "json",
            "--launcher",
            "torchrun",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["torchrun"]
        .as_str()
        .unwrap()
        .starts_with("torchrun --standalone --nproc_per_node 8"));
    // Bad input names the problem (exit 2).
    for args in [
        vec!["launch-command", file.as_str(), "--gpus", "0"],
        vec!["launch-command", "--template", "seven"],
        vec!["launch-command", "/nonexistent/ds.json"],
    ] {
        let out = bin().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn zero_gpus_is_a_usage_error_and_fmt_check_names_the_fix() {
    let dir = tmpdir("zero-gpus");
    let file = write(&dir, "ds_config.json", "{\"train_batch_size\":8}");
    for flag in ["--world-size", "--tensor-parallel", "--sequence-parallel"] {
        let out = bin().args(["validate", flag, "0", &file]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("0 is not in 1.."),
            "{flag}"
        );
    }
    let out = bin().args(["fmt", "--check", &file]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(&format!(
            "would reformat (run `ds-studio fmt {file}` to rewrite it)"
        )),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Many files are judged on every core but printed in the order given, an unreadable one in
/// its place (exit 2); into a pipe the text is plain, `CLICOLOR_FORCE=1` colours it and
/// `NO_COLOR` wins over it.
#[test]
fn validate_many_files_keeps_their_order_and_writes_plain_text_to_a_pipe() {
    let d = tmpdir("many");
    let mut files = Vec::new();
    for i in 0..60 {
        let text = if i % 3 == 0 {
            format!("{{\"train_batch_size\": {}, \"train_micro_batch_size_per_gpu\": 4, \"gradient_accumulation_steps\": 1}}", 33 + i)
        } else {
            format!(
                "{{\"train_batch_size\": {}, \"zero_optimisation\": {{\"stage\": 2}}}}",
                8 * (i + 1)
            )
        };
        files.push(write(&d, &format!("c{i:02}.json"), &text));
    }
    files.insert(30, d.join("missing.json").to_string_lossy().into_owned());
    let out = bin().arg("validate").args(&files).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "no colour into a pipe");
    // One verdict line per readable file, in the order given.
    let verdicts: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(": accepted by ") || l.contains(": rejected by "))
        .map(|l| l.split(": ").next().unwrap())
        .collect();
    let readable: Vec<&str> = files
        .iter()
        .filter(|f| !f.ends_with("missing.json"))
        .map(String::as_str)
        .collect();
    assert_eq!(verdicts, readable);
    // Each file's diagnostics come right before its verdict.
    assert!(text.contains("c01.json:1:") && text.contains("did you mean"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("cannot read") && stderr.contains("missing.json"));
    // JSON Lines: one object per input, the unreadable one in its place.
    let json = bin()
        .args(["validate", "--format", "json"])
        .args(&files)
        .output()
        .unwrap();
    assert_eq!(json.status.code(), Some(2));
    let objects: Vec<serde_json::Value> = String::from_utf8(json.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), files.len());
    assert_eq!(objects[30]["verdict"], "unreadable");
    assert!(objects[30]["file"]
        .as_str()
        .unwrap()
        .ends_with("missing.json"));
    assert!(objects[30]["error"]
        .as_str()
        .unwrap()
        .contains("No such file"));
    assert_eq!(objects[31]["file"].as_str().unwrap(), files[31]);
    let forced = bin()
        .arg("validate")
        .arg(&files[1])
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&forced.stdout).contains("\u{1b}[1;33mwarning"));
    for (force, no_color) in [("1", "1"), ("0", "")] {
        let out = bin()
            .arg("validate")
            .arg(&files[1])
            .env("CLICOLOR_FORCE", force)
            .env("NO_COLOR", no_color)
            .output()
            .unwrap();
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains('\u{1b}'),
            "CLICOLOR_FORCE={force} NO_COLOR={no_color}"
        );
    }
    // SARIF lists a file given twice once among its artifacts.
    let sarif = bin()
        .args(["validate", "--format", "sarif", &files[1], &files[1]])
        .output()
        .unwrap();
    let log: serde_json::Value = serde_json::from_slice(&sarif.stdout).unwrap();
    assert_eq!(log["runs"][0]["artifacts"].as_array().unwrap().len(), 1);
}

/// `ds-studio models | head -1`: a reader that stops early ends the command quietly (killed by
/// SIGPIPE, as Unix tools are), never with a panic on the write.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    for args in [vec!["models"], vec!["models", "--format", "json"]] {
        let mut child = bin()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
    }
}
