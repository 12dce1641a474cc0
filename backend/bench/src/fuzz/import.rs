//! The `import` target (the trainer-file importer: YAML and command lines) and the `toml` target
//! (the language server's `ds-studio.toml`). Seeds are the files users bring (LLaMA-Factory and
//! axolotl YAML, an accelerate config, `deepspeed` / `torchrun` / `accelerate launch` command
//! lines); generated inputs are the shapes that broke YAML libraries: deep block and flow
//! nesting, alias bombs, merge-key chains, foreign tags, huge maps, long command lines and
//! absurd counts.

use super::{mutate, Rng, MAX_INPUT};
use ds_studio_shared::launcher::import::import;

const SEEDS: &[&str] = &[
    "### model\nmodel_name_or_path: meta-llama/Llama-3-8B\nstage: sft\ndo_train: true\nfinetuning_type: full\ndeepspeed: examples/deepspeed/ds_z3_config.json\n\n### train\nper_device_train_batch_size: 1\ngradient_accumulation_steps: 2\nlearning_rate: 1.0e-4\nnum_train_epochs: 3.0\nlr_scheduler_type: cosine\nwarmup_ratio: 0.1\nbf16: true\n",
    "base_model: NousResearch/Meta-Llama-3-8B\nmicro_batch_size: 2\ngradient_accumulation_steps: 4\nlearning_rate: 0.0002\noptimizer: adamw_torch\nlr_scheduler: cosine\nbf16: auto\ndeepspeed: deepspeed_configs/zero2.json\nweight_decay: 0.0\n",
    "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\n  zero3_init_flag: true\nmachine_rank: 0\nmain_training_function: main\nmixed_precision: bf16\nnum_machines: 2\nnum_processes: 16\n",
    "defaults: &d\n  learning_rate: 2e-5\n  bf16: true\nrun:\n  <<: *d\n  per_device_train_batch_size: 4\n",
    "deepspeed --num_gpus 8 train.py \\\n  --deepspeed ds_config.json \\\n  --per_device_train_batch_size 4 \\\n  --gradient_accumulation_steps 8 \\\n  --learning_rate 2e-5 --bf16 True\n",
    "torchrun --nproc_per_node=8 --nnodes=2 run_clm.py --deepspeed ds.json --fp16 --max_grad_norm 1.0 --optim adamw_torch",
    "accelerate launch --num_processes 8 --num_machines 1 --mixed_precision bf16 train.py --lr_scheduler_type linear --warmup_steps 100",
    "NNODES=2 NPROC_PER_NODE=8 llamafactory-cli train examples/train_full/llama3_full_sft.yaml",
];

const TOKENS: &[&str] = &[
    "&a ",
    "*a",
    "<<: *a\n",
    "<<: [*a, *a]\n",
    "!!str ",
    "!!python/object:os.system ",
    "!custom ",
    "!!binary ",
    "- ",
    ": ",
    "\n  ",
    "\n",
    "{",
    "}",
    "[",
    "]",
    "'",
    "\"",
    "|\n",
    ">-\n",
    "---\n",
    "...\n",
    "%YAML 1.2\n",
    "? ",
    "#",
    "\t",
    "--",
    "--nproc_per_node ",
    "--num_processes 99999999999999999999 ",
    "--nnodes -1 ",
    "num_machines: -3\n",
    "num_processes: 1e400\n",
    "\\\n",
    "=",
    "\"auto\"",
    "1e999",
    ".nan",
    "~",
    "\u{0}",
    "\u{feff}",
    "\u{202e}",
    "💥",
];

/// A mutated seed, or (when `generate`) one built to be slow or deep.
pub fn input(rng: &mut Rng, generate: bool) -> String {
    if generate {
        return generated(rng);
    }
    let seed = rng.pick(SEEDS);
    String::from_utf8_lossy(&mutate(rng, seed.as_bytes(), TOKENS)).into_owned()
}

fn generated(rng: &mut Rng) -> String {
    let n = 1 + rng.below(200_000);
    let text = match rng.below(10) {
        // Block sequences nested n deep on one line (the stack overflow of issue 28).
        0 => format!("k:\n  {}x\n", "- ".repeat(n)),
        // Flow collections nested n deep.
        1 => format!("k: {}{}\n", "[".repeat(n), "]".repeat(n)),
        2 => format!(
            "k: {}1{}\n",
            "{a: ".repeat(n.min(100_000)),
            "}".repeat(n.min(100_000))
        ),
        // Block mappings nested by indentation (quadratic in size, so fewer levels).
        3 => {
            let depth = 1 + rng.below(1_000);
            let mut s = String::new();
            for i in 0..depth {
                s.push_str(&" ".repeat(i));
                s.push_str("a:\n");
            }
            s
        }
        // Billion laughs: `levels` levels of `fan` aliases each.
        4 => {
            let (levels, fan) = (1 + rng.below(12), 2 + rng.below(15));
            let mut s = String::from("l0: &l0 [lol]\n");
            for l in 1..=levels {
                let refs = vec![format!("*l{}", l - 1); fan].join(",");
                s.push_str(&format!("l{l}: &l{l} [{refs}]\n"));
            }
            s.push_str(&format!("per_device_train_batch_size: *l{levels}\n"));
            s
        }
        // Merge keys merging merges.
        5 => {
            let levels = 1 + rng.below(2_000);
            let mut s = String::from("m0: &m0 {a: 1, b: 2}\n");
            for l in 1..=levels {
                s.push_str(&format!(
                    "m{l}: &m{l}\n  <<: [*m{}, *m0]\n  k{l}: {l}\n",
                    l - 1
                ));
            }
            s
        }
        // Tags everywhere.
        6 => (0..n.min(20_000))
            .map(|i| format!("k{i}: !t{} {i}\n", i % 7))
            .collect(),
        // A huge flat map, some keys the Trainer knows.
        7 => (0..n.min(60_000))
            .map(|i| match i % 4 {
                0 => format!("learning_rate: {i}\n"),
                1 => format!("per_device_train_batch_size: {i}\n"),
                _ => format!("key_{i}: value_{i}\n"),
            })
            .collect(),
        // A long command line.
        8 => format!(
            "deepspeed --num_gpus 8 train.py {}",
            (0..n.min(50_000))
                .map(|i| format!("--arg{i} {i} \\\n"))
                .collect::<String>()
        ),
        // Absurd counts, long scalars, a long single line.
        _ => format!(
            "num_processes: {}\nnum_machines: {}\nlearning_rate: \"{}\"\n",
            "9".repeat(1 + rng.below(400)),
            if rng.below(2) == 0 { "-1" } else { "0" },
            "x".repeat(n.min(MAX_INPUT - 100))
        ),
    };
    let mut text = text;
    if text.len() > MAX_INPUT {
        let mut cut = MAX_INPUT;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// What the import route does: read the file and answer it as JSON.
pub fn exercise(text: &str) {
    if let Ok(imported) = import(text) {
        std::hint::black_box(imported.trainer.resolved());
        std::hint::black_box(serde_json::to_vec(&imported).ok());
    }
}

const TOML_SEEDS: &[&str] = &[
    "deepspeed = \"0.18.4\"\nlauncher = \"hf-trainer\"\nworld_size = 8\ntrainer_args = \"per_device_train_batch_size=4,bf16=true\"\nlang = \"zh\"\n",
    "launcher = \"accelerate\"\ntensor_parallel = 2\npipeline_parallel = 2\nsequence_parallel = 1\n",
    "deepspeed = \"auto\"\nworld_size = 0\n",
];

const TOML_TOKENS: &[&str] = &[
    "[",
    "]",
    "[[a]]\n",
    "a = 1\n",
    "a.b.c = 1\n",
    "= ",
    "\"",
    "'''",
    "\"\"\"",
    "{",
    "}",
    "#",
    "\n",
    "9223372036854775808",
    "-1",
    "inf",
    "1979-05-27T07:32:00Z",
    "\u{0}",
    "\\u0000",
    "world_size = ",
    "trainer_args = \"",
];

/// A mutated `ds-studio.toml`, or (when `generate`) a huge or deep one.
pub fn toml_input(rng: &mut Rng, generate: bool) -> String {
    // The language server reads at most 64 KiB of it (a longer file is refused unread).
    let n = 1 + rng.below(12_000);
    let mut text: String = match rng.below(if generate { 4 } else { 0 }) {
        _ if !generate => {
            let seed = rng.pick(TOML_SEEDS);
            String::from_utf8_lossy(&mutate(rng, seed.as_bytes(), TOML_TOKENS)).into_owned()
        }
        0 => (0..n).map(|i| format!("unknown_{i} = {i}\n")).collect(),
        1 => format!("a = {}1{}\n", "[".repeat(n), "]".repeat(n)),
        2 => format!("a = {}1{}\n", "{b = ".repeat(n / 4), "}".repeat(n / 4)),
        _ => format!(
            "trainer_args = \"{}\"\n",
            (0..n / 4)
                .map(|i| format!("k{i}={i}"))
                .collect::<Vec<_>>()
                .join(",")
        ),
    };
    let max = ds_studio_lsp::context::MAX_TOML_BYTES as usize;
    if text.len() > max {
        let mut cut = max;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}
