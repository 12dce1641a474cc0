//! Packages the frontend's compiled module for the browser in one process:
//!
//! 1. cuts it at its `#[lazy]` split points (what `wasm-split-cli` does): the main module and
//!    the chunks fetched later, with the `__wasm_split.js` loader;
//! 2. binds the main module for the browser (what `wasm-bindgen --target web` does).
//!
//! The two libraries in one small binary build in much less time than the two command-line
//! tools, which also carry a test server, an HTTP client and argument parsers: what a fresh
//! `cargo xtask run` compiles before it can serve (BENCHMARKS.md, "Set-up"). Its output was
//! compared with the two tools' (wasm-split-cli 0.2.4, wasm-bindgen 0.2.130) byte for byte.
//!
//! Usage: `frontend-packager MODULE.wasm SPLIT_DIR OUT_DIR NAME`

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};

fn main() {
    if let Err(e) = run() {
        eprintln!("frontend-packager: {e:#}");
        std::process::exit(1);
    }
}

fn run() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [module, split_dir, out_dir, name] = &args[..] else {
        bail!("usage: frontend-packager MODULE.wasm SPLIT_DIR OUT_DIR NAME");
    };
    let main_module = split(Path::new(module), Path::new(split_dir), name)?;
    bind(&main_module, Path::new(out_dir), name)
}

/// Cuts `module` into `split_dir`: `NAME.wasm` (the main module), the chunks and their loader.
fn split(module: &Path, split_dir: &Path, name: &str) -> Result<PathBuf> {
    let wasm = std::fs::read(module).with_context(|| format!("{}", module.display()))?;
    std::fs::create_dir_all(split_dir).with_context(|| format!("{}", split_dir.display()))?;
    let main_out = split_dir.join(format!("{name}.wasm"));
    let main_js = format!("./{name}.js");
    let mut opts = wasm_split_cli_support::Options::new(&wasm);
    opts.output_dir = split_dir;
    opts.main_out_path = &main_out;
    opts.main_module = &main_js;
    opts.target.web();
    wasm_split_cli_support::transform(opts)
        .map_err(|e| anyhow::anyhow!("cannot split {}: {e:?}", module.display()))?;
    Ok(main_out)
}

/// Binds the main module for the browser into `out_dir` (`NAME.js`, `NAME_bg.wasm`), keeping
/// the linker's exports the chunks call into.
fn bind(main_module: &Path, out_dir: &Path, name: &str) -> Result<()> {
    wasm_bindgen_cli_support::Bindgen::new()
        .web(true)?
        .input_path(main_module)
        .out_name(name)
        .demangle(false)
        .keep_lld_exports(true)
        .typescript(false)
        // The CLI's default: `init()` finds `NAME_bg.wasm` beside the script.
        .omit_default_module_path(false)
        .generate(out_dir)
        .with_context(|| format!("cannot bind {}", main_module.display()))
}
