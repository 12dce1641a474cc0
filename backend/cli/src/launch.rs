//! `ds-studio launch-command`: the commands that launch a config on a cluster shape (DeepSpeed's
//! launcher and its hostfile, torchrun, accelerate launch with its YAML), for a local file or a
//! template version on a server (`--template ID[@N]`).

use crate::server_args::ServerArgs;
use ds_studio_client::{run, ClientError};
use ds_studio_shared::launch::{commands, LaunchPlan};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A config file (`-` reads stdin); or give --template.
    #[arg(required_unless_present = "template", conflicts_with = "template")]
    pub file: Option<String>,
    /// A template version on the server: `ID` (its head) or `ID@N`.
    #[arg(long, value_name = "ID[@N]")]
    pub template: Option<String>,
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub gpus: u32,
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub nodes: u32,
    /// Which command: deepspeed, torchrun, accelerate, or all of them.
    #[arg(long, default_value = "all", value_parser = ["all", "deepspeed", "torchrun", "accelerate", "sbatch"])]
    pub launcher: String,
    /// The training script and its arguments (after `--`).
    #[arg(long, default_value = "train.py")]
    pub script: String,
    #[arg(last = true)]
    pub args: Vec<String>,
    /// The config file's name as the script finds it.
    #[arg(long, default_value = "ds_config.json")]
    pub config_file: String,
    /// The script takes the config as the HF Trainer does (`--deepspeed FILE`) rather than
    /// `--deepspeed_config FILE`.
    #[arg(long)]
    pub hf: bool,
    /// The first node's address (past one node).
    #[arg(long, default_value = "node-0")]
    pub master_addr: String,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    #[command(flatten)]
    pub server: ServerArgs,
}

pub fn run_cmd(a: Args) -> i32 {
    run(async move {
        // A version saved for the HF Trainer takes the config as the Trainer does.
        let mut hf = a.hf;
        let config: serde_json::Value = match (&a.file, &a.template) {
            (Some(f), _) => {
                let text = crate::input::read_input(f)
                    .map_err(|e| ClientError::Local(format!("cannot read {f}: {e}")))?;
                ds_studio_shared::document::Document::parse(&text)
                    .to_value()
                    .ok_or_else(|| ClientError::Local(format!("{f} is not a JSON/hjson config")))?
            }
            (None, Some(t)) => {
                let (id, n) = t.split_once('@').unwrap_or((t, "head"));
                let id = id
                    .parse::<i64>()
                    .ok()
                    .filter(|_| n == "head" || n.parse::<i64>().is_ok());
                let Some(id) = id else {
                    return Err(ClientError::Local(format!(
                        "--template {t}: write ID or ID@N (e.g. 7@3)"
                    )));
                };
                let c = a.server.client()?;
                let v = super::templates::fetch_version(&c, id, n).await?;
                hf |= v.context.launcher == ds_studio_shared::validate::Launcher::HfTrainer;
                v.config
            }
            (None, None) => {
                return Err(ClientError::Local(
                    "give a config file or --template".into(),
                ))
            }
        };
        let plan = LaunchPlan {
            nodes: a.nodes,
            gpus_per_node: a.gpus,
            script: a.script.clone(),
            args: a.args.clone(),
            config_file: a.config_file.clone(),
            config_flag: if hf {
                "--deepspeed"
            } else {
                "--deepspeed_config"
            }
            .into(),
            master_addr: a.master_addr.clone(),
            ..LaunchPlan::default()
        };
        let out = commands(&plan, &config);
        if a.format == "json" {
            println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
            return Ok(());
        }
        let all = a.launcher == "all";
        if all || a.launcher == "deepspeed" {
            if let Some(h) = &out.hostfile {
                println!("# hostfile (replace the host names with yours)\n{h}");
            }
            println!("# DeepSpeed's launcher\n{}\n", out.deepspeed);
        }
        if all || a.launcher == "torchrun" {
            println!(
                "# torchrun (on every node, NODE_RANK 0..{})\n{}\n",
                a.nodes - 1,
                out.torchrun
            );
        }
        if all || a.launcher == "accelerate" {
            println!("# accelerate_config.yaml\n{}", out.accelerate_yaml);
            println!("# accelerate (machine_rank per node)\n{}", out.accelerate);
        }
        if all || a.launcher == "sbatch" {
            println!(
                "\n# job.sh for `sbatch job.sh` (what ds-studio's Slurm runner submits)\n{}",
                out.sbatch
            );
        }
        Ok(())
    })
}
