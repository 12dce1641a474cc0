//! Launch commands for a config and a cluster shape, to take a version to one's own cluster:
//! DeepSpeed's `deepspeed` launcher (with its hostfile past one node), `torchrun`, and
//! `accelerate launch` with the accelerate YAML it needs, and the `sbatch` script of the Slurm
//! runner ([`sbatch_script`], which that runner itself submits). Plain strings, shared by the
//! editor's panel (copy buttons), `ds-studio launch-command` and the Slurm backend.

use serde::{Deserialize, Serialize};

/// What to launch, where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaunchPlan {
    pub nodes: u32,
    pub gpus_per_node: u32,
    /// The training script and its own arguments.
    pub script: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// The DeepSpeed config file as the script will find it.
    pub config_file: String,
    /// How the script takes the config: `--deepspeed_config` (scripts using
    /// `deepspeed.add_config_arguments`) or `--deepspeed` (the HF Trainer's argument).
    pub config_flag: String,
    /// The first node's address (past one node).
    pub master_addr: String,
    pub master_port: u16,
}

impl Default for LaunchPlan {
    fn default() -> Self {
        LaunchPlan {
            nodes: 1,
            gpus_per_node: 8,
            script: "train.py".into(),
            args: Vec::new(),
            config_file: "ds_config.json".into(),
            config_flag: "--deepspeed_config".into(),
            master_addr: "node-0".into(),
            master_port: 29500,
        }
    }
}

/// The commands (and files) for each launcher.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LaunchCommands {
    pub deepspeed: String,
    /// The hostfile `deepspeed --hostfile` reads (past one node; the host names are placeholders
    /// to replace with yours).
    pub hostfile: Option<String>,
    pub torchrun: String,
    pub accelerate: String,
    /// `accelerate_config.yaml` for `accelerate launch --config_file`.
    pub accelerate_yaml: String,
    /// The batch script ds-studio's Slurm runner would submit (`sbatch job.sh`): one
    /// `torch.distributed.run` per node, the rendezvous on the first.
    #[serde(default)]
    pub sbatch: String,
}

/// What an `sbatch` script asks Slurm for and runs.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SbatchPlan {
    pub job_name: String,
    pub nodes: u32,
    pub gpus_per_node: u32,
    /// Ask for GPUs (`--gres=gpu:N`); off on CPU-only clusters.
    pub gres: bool,
    pub time_limit_s: Option<u64>,
    /// Extra `#SBATCH` options, e.g. `--partition=gpu`.
    pub extra: Vec<String>,
    /// Where the job runs and writes its output (default: where `sbatch` was called).
    pub work_dir: Option<String>,
    pub env: Vec<(String, String)>,
    pub python: String,
    pub script: String,
    pub args: Vec<String>,
    /// Words put before the command on each node (the Slurm runner's `ds-studio confine
    /// --write DIR … --`, which confines the job's writes there); empty: none.
    pub confine: Vec<String>,
}

/// The `sbatch` script for `plan`: every name and value quoted; variables whose names are not
/// plain shell names are left out.
pub fn sbatch_script(plan: &SbatchPlan) -> String {
    let mut s = String::from("#!/bin/bash\n");
    s.push_str(&format!(
        "#SBATCH --job-name={}\n",
        sh_quote(&plan.job_name)
    ));
    s.push_str(&format!("#SBATCH --nodes={}\n", plan.nodes.max(1)));
    s.push_str("#SBATCH --ntasks-per-node=1\n");
    // A job that lost a node fails (and says so) rather than starting again on its own.
    s.push_str("#SBATCH --no-requeue\n");
    match &plan.work_dir {
        Some(dir) => {
            s.push_str(&format!("#SBATCH --chdir={}\n", sh_quote(dir)));
            s.push_str(&format!(
                "#SBATCH --output={}\n",
                sh_quote(&format!("{dir}/slurm-%j.out"))
            ));
        }
        None => s.push_str("#SBATCH --output=slurm-%j.out\n"),
    }
    if plan.gres {
        s.push_str(&format!(
            "#SBATCH --gres=gpu:{}\n",
            plan.gpus_per_node.max(1)
        ));
    }
    if let Some(t) = plan.time_limit_s {
        // Slurm counts minutes; the runner stops the job at the exact limit itself.
        s.push_str(&format!(
            "#SBATCH --time={}\n",
            t.div_ceil(60).saturating_add(1)
        ));
    }
    for e in &plan.extra {
        s.push_str(&format!("#SBATCH {e}\n"));
    }
    s.push_str("set -eo pipefail\n");
    for (k, v) in &plan.env {
        // Names were checked at the API and by the runner; one that is not a plain shell name
        // is still never written into the script, and names and values are quoted.
        if !crate::api::is_env_name(k) {
            continue;
        }
        s.push_str(&format!("export {}={}\n", sh_quote(k), sh_quote(v)));
    }
    s.push_str(
        "export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n1)\n",
    );
    s.push_str("export MASTER_PORT=$((20000 + SLURM_JOB_ID % 20000))\n");
    // What the deepspeed launcher sets and DeepSpeed's checkpoint writer reads (0.17.1+).
    s.push_str("export CROSS_SIZE=$SLURM_NNODES\n");
    // Every rank's lines, from every node, labelled `[n2 rank 3] ` (torchrun's --tee and its
    // prefix template, kept literal here and expanded by torchrun per worker).
    s.push_str(&format!(
        "export TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE={}\n",
        sh_quote(RANK_LABEL_TEMPLATE)
    ));
    let mut cmd: Vec<String> = plan.confine.iter().map(|w| sh_quote(w)).collect();
    cmd.extend([
        sh_quote(&plan.python),
        "-m".into(),
        "torch.distributed.run".into(),
        "--nnodes=$SLURM_NNODES".into(),
        "--node_rank=$SLURM_NODEID".into(),
        format!("--nproc_per_node={}", plan.gpus_per_node.max(1)),
        "--master_addr=$MASTER_ADDR".into(),
        "--master_port=$MASTER_PORT".into(),
        "--tee=3".into(),
        sh_quote(&plan.script),
    ]);
    cmd.extend(plan.args.iter().map(|a| sh_quote(a)));
    // One task per node; the inner shell expands the per-node variables.
    s.push_str(&format!(
        "srun --kill-on-bad-exit=1 bash -c {}\n",
        sh_quote(&format!(
            "export CROSS_RANK=$SLURM_NODEID; exec {}",
            cmd.join(" ")
        ))
    ));
    s
}

/// The label torchrun puts before each line of a rank in a Slurm job (`[n2 rank 3] `).
pub const RANK_LABEL_TEMPLATE: &str = "[${hostname} rank ${rank}] ";

/// A line of a Slurm job's output without its rank label, and the label's node and rank.
pub fn rank_label(line: &str) -> Option<(&str, u32, &str)> {
    let rest = line.strip_prefix('[')?;
    let (label, text) = rest.split_once("] ")?;
    let (host, rank) = label.split_once(" rank ")?;
    if host.is_empty() || host.contains(char::is_whitespace) {
        return None;
    }
    Some((host, rank.parse().ok()?, text))
}

/// Quotes a word for a POSIX shell where it needs it.
pub fn sh_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The commands for `plan`; `config` decides what accelerate needs to know (ZeRO-3's init).
pub fn commands(plan: &LaunchPlan, config: &serde_json::Value) -> LaunchCommands {
    let nodes = plan.nodes.max(1);
    let gpus = plan.gpus_per_node.max(1);
    let multi = nodes > 1;
    let mut script_args = vec![sh_quote(&plan.script)];
    script_args.extend(plan.args.iter().map(|a| sh_quote(a)));
    let with_config = format!(
        "{} {} {}",
        script_args.join(" "),
        plan.config_flag,
        sh_quote(&plan.config_file)
    );
    let deepspeed = if multi {
        format!(
            "deepspeed --hostfile hostfile --num_nodes {nodes} --num_gpus {gpus} --master_addr {} --master_port {} {with_config}",
            sh_quote(&plan.master_addr),
            plan.master_port
        )
    } else {
        format!("deepspeed --num_gpus {gpus} {with_config}")
    };
    let hostfile = multi.then(|| {
        (0..nodes)
            .map(|i| format!("node-{i} slots={gpus}\n"))
            .collect::<String>()
    });
    let torchrun = if multi {
        format!(
            "torchrun --nnodes {nodes} --nproc_per_node {gpus} --node_rank $NODE_RANK --master_addr {} --master_port {} {with_config}",
            sh_quote(&plan.master_addr),
            plan.master_port
        )
    } else {
        format!("torchrun --standalone --nproc_per_node {gpus} {with_config}")
    };
    let accelerate = format!(
        "accelerate launch --config_file accelerate_config.yaml {}",
        script_args.join(" ")
    );
    let zero3 = config["zero_optimization"]["stage"].as_u64() == Some(3)
        || config["zero_optimization"]["stage"].as_str() == Some("3");
    let mut yaml = String::from(
        "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n",
    );
    yaml.push_str(&format!(
        "  deepspeed_config_file: {}\n",
        yaml_str(&plan.config_file)
    ));
    if multi {
        yaml.push_str("  deepspeed_multinode_launcher: standard\n");
    }
    yaml.push_str(&format!("  zero3_init_flag: {zero3}\n"));
    yaml.push_str("machine_rank: 0\n");
    if multi {
        yaml.push_str(&format!(
            "main_process_ip: {}\nmain_process_port: {}\n",
            yaml_str(&plan.master_addr),
            plan.master_port
        ));
    }
    yaml.push_str(&format!(
        "num_machines: {nodes}\nnum_processes: {}\nrdzv_backend: static\nsame_network: true\nuse_cpu: false\n",
        nodes * gpus
    ));
    let mut sbatch_args = plan.args.clone();
    sbatch_args.push(plan.config_flag.clone());
    sbatch_args.push(plan.config_file.clone());
    let sbatch = sbatch_script(&SbatchPlan {
        job_name: "ds-studio".into(),
        nodes,
        gpus_per_node: gpus,
        gres: true,
        time_limit_s: None,
        extra: Vec::new(),
        work_dir: None,
        env: Vec::new(),
        python: "python".into(),
        script: plan.script.clone(),
        args: sbatch_args,
        confine: Vec::new(),
    });
    LaunchCommands {
        deepspeed,
        hostfile,
        torchrun,
        accelerate,
        accelerate_yaml: yaml,
        sbatch,
    }
}

/// How the tool a training file came from launches it, on `nodes` × `gpus_per_node` (the
/// file names the DeepSpeed config itself: `deepspeed: ds_config.json` in LLaMA-Factory's YAML,
/// `deepspeed:` in axolotl's). `source` is the importer's name for the file's kind
/// (`llama-factory`, `axolotl`); `None` for the others, launched as they are (a command line, an
/// accelerate config).
pub fn tool_command(
    source: &str,
    nodes: u32,
    gpus_per_node: u32,
    master_addr: &str,
    master_port: u16,
    file: &str,
) -> Option<String> {
    let nodes = nodes.max(1);
    let file = sh_quote(file);
    match source {
        // LLaMA-Factory's launcher starts torchrun itself once FORCE_TORCHRUN is set (or more
        // than one GPU is visible); past one node it reads NNODES, NODE_RANK and the master.
        "llama-factory" if nodes > 1 => Some(format!(
            "FORCE_TORCHRUN=1 NNODES={nodes} NODE_RANK=$NODE_RANK MASTER_ADDR={} MASTER_PORT={master_port} llamafactory-cli train {file}",
            sh_quote(master_addr)
        )),
        "llama-factory" => Some(format!("FORCE_TORCHRUN=1 llamafactory-cli train {file}")),
        "axolotl" => {
            let multi = if nodes > 1 {
                format!(
                    " --machine_rank $NODE_RANK --main_process_ip {} --main_process_port {master_port}",
                    sh_quote(master_addr)
                )
            } else {
                String::new()
            };
            Some(format!(
                "accelerate launch --num_machines {nodes} --num_processes {}{multi} -m axolotl.cli.train {file}",
                nodes * gpus_per_node.max(1)
            ))
        }
        _ => None,
    }
}

/// A YAML scalar: plain where that is safe, else double-quoted.
fn yaml_str(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
    {
        s.to_string()
    } else {
        serde_json::to_string(s).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn one_node_and_two() {
        let one = commands(&LaunchPlan::default(), &json!({}));
        assert_eq!(
            one.deepspeed,
            "deepspeed --num_gpus 8 train.py --deepspeed_config ds_config.json"
        );
        assert_eq!(
            one.torchrun,
            "torchrun --standalone --nproc_per_node 8 train.py --deepspeed_config ds_config.json"
        );
        assert!(one.hostfile.is_none());
        assert!(one.accelerate_yaml.contains("num_processes: 8\n"));
        assert!(one.accelerate_yaml.contains("zero3_init_flag: false\n"));
        let plan = LaunchPlan {
            nodes: 2,
            script: "my train.py".into(),
            args: vec!["--epochs".into(), "1".into()],
            config_flag: "--deepspeed".into(),
            master_addr: "10.0.0.1".into(),
            ..LaunchPlan::default()
        };
        let two = commands(&plan, &json!({"zero_optimization": {"stage": 3}}));
        assert_eq!(two.deepspeed, "deepspeed --hostfile hostfile --num_nodes 2 --num_gpus 8 --master_addr 10.0.0.1 --master_port 29500 'my train.py' --epochs 1 --deepspeed ds_config.json");
        assert_eq!(
            two.hostfile.as_deref(),
            Some("node-0 slots=8\nnode-1 slots=8\n")
        );
        assert!(two
            .torchrun
            .contains("--nnodes 2 --nproc_per_node 8 --node_rank $NODE_RANK"));
        assert_eq!(
            two.accelerate,
            "accelerate launch --config_file accelerate_config.yaml 'my train.py' --epochs 1"
        );
        for line in [
            "distributed_type: DEEPSPEED\n",
            "  deepspeed_config_file: ds_config.json\n",
            "  deepspeed_multinode_launcher: standard\n",
            "  zero3_init_flag: true\n",
            "main_process_ip: 10.0.0.1\n",
            "num_machines: 2\n",
            "num_processes: 16\n",
        ] {
            assert!(
                two.accelerate_yaml.contains(line),
                "{line}: {}",
                two.accelerate_yaml
            );
        }
        #[cfg(feature = "import")]
        {
            // The YAML reads back with the values accelerate's loader will see.
            let docs = yaml_rust2::YamlLoader::load_from_str(&two.accelerate_yaml).unwrap();
            let y = &docs[0];
            assert_eq!(y["distributed_type"].as_str(), Some("DEEPSPEED"));
            assert_eq!(y["num_processes"].as_i64(), Some(16));
            assert_eq!(
                y["deepspeed_config"]["zero3_init_flag"].as_bool(),
                Some(true)
            );
            assert_eq!(y["main_process_ip"].as_str(), Some("10.0.0.1"));
        }
        assert_eq!(sh_quote("it's"), "'it'\\''s'");
        assert_eq!(yaml_str("a b: c"), "\"a b: c\"");
        // The sbatch script: the shape asked of Slurm, one torch.distributed.run per node, the
        // script and its config flag quoted.
        for line in [
            "#SBATCH --nodes=2\n",
            "#SBATCH --ntasks-per-node=1\n",
            "#SBATCH --gres=gpu:8\n",
            "#SBATCH --output=slurm-%j.out\n",
            "--nproc_per_node=8",
            "'\\''my train.py'\\'' --epochs 1 --deepspeed ds_config.json",
        ] {
            assert!(two.sbatch.contains(line), "{line}: {}", two.sbatch);
        }
        assert!(!two.sbatch.contains("--chdir"), "{}", two.sbatch);
        // Every rank's lines come back labelled: the template stays literal for torchrun.
        assert!(
            two.sbatch.contains(
                "export TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE='[${hostname} rank ${rank}] '\n"
            ) && two.sbatch.contains(" --tee=3 "),
            "{}",
            two.sbatch
        );
    }

    #[test]
    fn rank_labels_are_read_off_a_line() {
        assert_eq!(
            rank_label("[n2 rank 3] ds-studio-result {}"),
            Some(("n2", 3, "ds-studio-result {}"))
        );
        assert_eq!(rank_label("[2026-11-27 10:00:01,5] [INFO] x"), None);
        assert_eq!(rank_label("[n1 rank x] y"), None);
        assert_eq!(rank_label("plain"), None);
    }

    #[test]
    fn a_tool_launches_its_own_file() {
        assert_eq!(
            tool_command("llama-factory", 1, 8, "node-0", 29500, "train.yaml").unwrap(),
            "FORCE_TORCHRUN=1 llamafactory-cli train train.yaml"
        );
        let multi = tool_command("llama-factory", 2, 8, "node-0", 29500, "my run.yaml").unwrap();
        assert!(multi.starts_with("FORCE_TORCHRUN=1 NNODES=2 NODE_RANK=$NODE_RANK MASTER_ADDR=node-0 MASTER_PORT=29500"), "{multi}");
        assert!(
            multi.ends_with("llamafactory-cli train 'my run.yaml'"),
            "{multi}"
        );
        assert!(tool_command("axolotl", 2, 4, "node-0", 29500, "a.yml").unwrap().contains("--num_processes 8 --machine_rank $NODE_RANK --main_process_ip node-0 --main_process_port 29500 -m axolotl.cli.train a.yml"));
        assert_eq!(
            tool_command("command-line", 1, 8, "node-0", 29500, "x"),
            None
        );
    }
}
