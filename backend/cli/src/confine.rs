//! `ds-studio confine --write DIR … -- PROGRAM ARGS…` (hidden): runs PROGRAM with its writes
//! confined by the kernel (Landlock) to the directories given. The Slurm runner's batch script
//! starts each node's launcher through it, so a Slurm job is confined on its nodes as a local
//! job is on the runner's host (`ds_studio_runner::jail`).

use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A directory the program may write beneath (repeat for several).
    #[arg(long = "write", value_name = "DIR")]
    pub write: Vec<PathBuf>,
    /// The program and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    pub command: Vec<String>,
}

/// Returns only when the program could not be started (exit code 127, as a shell's).
pub fn run(a: Args) -> i32 {
    let (program, args) = a.command.split_first().expect("clap requires the program");
    let why = ds_studio_runner::jail::exec_confined(&a.write, program, args);
    eprintln!("ds-studio confine: {why}");
    127
}
