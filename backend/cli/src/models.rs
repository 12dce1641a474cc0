//! `ds-studio models`: the model catalog (`shared::architecture::catalog`), each model with its
//! parameters as transformers counts them; `--search` narrows it ("qwen 7b"). A model is then
//! picked by name with `ds-studio estimate --model NAME` (or read from its config.json with
//! `--model-config`).

use ds_studio_shared::architecture::catalog::{self, CatalogModel};
use ds_studio_shared::estimate::format_count;
use ds_studio_shared::i18n::Lang;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only the models whose name, title or Hub repository holds every word ("qwen 7b").
    #[arg(long)]
    pub search: Option<String>,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    /// The language of the text output.
    #[arg(long, default_value = "en", value_parser = ["en", "zh"])]
    pub lang: String,
}

/// One model as `--format json` prints it: the catalog entry (config.json facts included),
/// its family and the parameters a token goes through.
fn json(m: &CatalogModel) -> serde_json::Value {
    let mut v = serde_json::to_value(m).unwrap_or_default();
    if let Ok(arch) = m.architecture() {
        v["family"] = arch.family.model_type().into();
        v["active_params"] = arch.active_params().into();
    }
    v
}

pub fn run(a: Args) -> i32 {
    let zh = a.lang.parse::<Lang>().unwrap_or_default() == Lang::Zh;
    let models: Vec<&CatalogModel> = match &a.search {
        Some(q) => catalog::search(q),
        None => catalog::catalog().iter().collect(),
    };
    if a.format == "json" {
        let list: Vec<serde_json::Value> = models.iter().map(|m| json(m)).collect();
        println!("{}", serde_json::Value::Array(list));
        return 0;
    }
    if models.is_empty() {
        eprintln!(
            "{}",
            if zh {
                "模型目录中没有匹配的模型；其他模型可用 --model-config 读取其 config.json"
            } else {
                "no model of the catalog matches; read any other from its config.json with --model-config"
            }
        );
        return 1;
    }
    println!(
        "{:<20} {:>8} {:>9}  {:<10} {}",
        if zh { "名称" } else { "name" },
        if zh { "参数" } else { "params" },
        if zh { "每token" } else { "per token" },
        if zh { "架构" } else { "family" },
        if zh {
            "Hugging Face 仓库"
        } else {
            "Hugging Face repository"
        },
    );
    for m in models {
        let (family, active) = match m.architecture() {
            Ok(arch) => (arch.family.model_type(), arch.active_params()),
            Err(_) => ("?", m.params),
        };
        let per_token = if active == m.params {
            String::new()
        } else {
            format_count(active)
        };
        println!(
            "{:<20} {:>8} {:>9}  {:<10} {}",
            m.name,
            format_count(m.params),
            per_token,
            family,
            m.hub
        );
    }
    println!(
        "{}",
        if zh {
            "用法：ds-studio estimate --config ds_config.json --model NAME [--lora-rank 16]；其他模型：--model-config config.json"
        } else {
            "Use: ds-studio estimate --config ds_config.json --model NAME [--lora-rank 16]; any other model: --model-config config.json"
        }
    );
    0
}
