//! `ds-studio`: the CLI and the server in one binary (see `cli`).

fn main() {
    std::process::exit(ds_studio::cli::main());
}
