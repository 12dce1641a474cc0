//! Launch commands for a config and a cluster shape, to take a version to one's own cluster:
//! DeepSpeed's `deepspeed` launcher (with its hostfile past one node), `torchrun`, and
//! `accelerate launch` with the accelerate YAML it needs. Plain strings, shared by the editor's
//! panel (copy buttons) and `ds-studio launch-command`.

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
    LaunchCommands {
        deepspeed,
        hostfile,
        torchrun,
        accelerate,
        accelerate_yaml: yaml,
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
    }
}
