//! `ds-studio runners`: the runners a server knows, with what each runs jobs on
//! (`1 × NVIDIA H200 · 139.8 GiB`, or `CPU · 16 cores · 125.7 GiB`), its DeepSpeed release,
//! whether it is online, the jobs it is running, and how the kernel confines its jobs' writes
//! (`landlock v7`, or `NOT confined` where the kernel cannot).

use crate::server_args::ServerArgs;
use ds_studio_client::print_json;
use ds_studio_shared::api::endpoints as ep;
use ds_studio_shared::api::Runner;

#[derive(clap::Args, Debug)]
pub struct RunnersArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
}

/// One line per runner.
pub fn table(runners: &[Runner], lang: ds_studio_shared::i18n::Lang) -> String {
    let rows: Vec<[String; 7]> = runners
        .iter()
        .map(|r| {
            [
                r.name.clone(),
                r.backend.clone(),
                if r.online { "online" } else { "offline" }.to_string(),
                if r.deepspeed.is_empty() {
                    "-".into()
                } else {
                    r.deepspeed.clone()
                },
                if r.running.is_empty() {
                    "-".into()
                } else {
                    r.running
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(",")
                },
                r.devices_summary().get(lang).to_string(),
                r.job_writes(),
            ]
        })
        .collect();
    let header = [
        "NAME",
        "BACKEND",
        "STATE",
        "DEEPSPEED",
        "RUNNING",
        "DEVICES",
        "JOB WRITES",
    ];
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>| {
        let mut l = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i > 0 {
                l.push_str("  ");
            }
            l.push_str(&format!("{c:<w$}"));
        }
        l.trim_end().to_string() + "\n"
    };
    out.push_str(&line(header.to_vec()));
    for row in &rows {
        out.push_str(&line(row.iter().map(String::as_str).collect()));
    }
    out
}

pub fn runners(args: RunnersArgs) -> i32 {
    let json_out = args.format == "json";
    let lang = args.server.lang();
    ds_studio_client::run_as(json_out.then_some(lang), async move {
        let client = args.server.client()?;
        let list: Vec<Runner> = client.fetch(ep::ListRunners::url([])).await?;
        if json_out {
            print_json(&list, lang);
        } else {
            print!("{}", table(&list, lang));
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_runner_is_one_line_with_its_devices() {
        let r: Runner = serde_json::from_value(serde_json::json!({
            "id": 1, "name": "gpu-box", "hostname": "h", "backend": "local", "gpus": [0],
            "python": "p", "version": "v", "online": true, "last_seen": "x", "running": [7],
            "deepspeed": "0.19.8",
            "devices": {"gpus": [{"index": 0, "name": "NVIDIA H200", "memory_bytes": 150110011392u64,
                "compute_capability": "9.0"}], "cpu_cores": 16, "host_memory_bytes": 137438953472u64}
        }))
        .unwrap();
        let text = table(&[r], ds_studio_shared::i18n::Lang::En);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("NAME"), "{text}");
        assert!(lines[1].starts_with("gpu-box  local"), "{text}");
        assert!(
            lines[1].ends_with("0.19.8     7        1 × NVIDIA H200 · 139.8 GiB  -"),
            "{text}"
        );
    }

    #[test]
    fn the_last_column_says_how_the_kernel_confines_job_writes() {
        let runner = |abi: Option<u32>| -> Runner {
            let mut v = serde_json::json!({
                "id": 1, "name": "r", "hostname": "h", "backend": "local", "gpus": [],
                "python": "p", "version": "v", "online": true, "last_seen": "x", "running": [],
                "devices": {"gpus": [], "cpu_cores": 2, "host_memory_bytes": 1u64 << 34}
            });
            if let Some(a) = abi {
                v["devices"]["landlock_abi"] = serde_json::json!(a);
            }
            serde_json::from_value(v).unwrap()
        };
        let last = |abi| {
            let text = table(&[runner(abi)], ds_studio_shared::i18n::Lang::En);
            text.lines().nth(1).unwrap().trim_end().to_string()
        };
        assert!(last(Some(7)).ends_with("landlock v7"), "{}", last(Some(7)));
        assert!(last(Some(0)).ends_with("NOT confined"), "{}", last(Some(0)));
        assert!(last(None).ends_with(" -"), "{}", last(None));
    }
}
