//! The steps behind each xtask command. Every step prints what it does; tools missing on a
//! fresh machine (wasm target, the frontend packager, binaryen; for the tests wasm-bindgen-cli
//! and Chromium) are built or installed here.

use std::path::{Path, PathBuf};
use std::process::Command;

pub type Result<T = ()> = std::result::Result<T, String>;

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// When each step began, for [`step_times`].
static STEPS: std::sync::Mutex<Vec<(String, std::time::Instant)>> =
    std::sync::Mutex::new(Vec::new());

pub fn step(name: &str) {
    eprintln!("\n==> {name}");
    // Work done beside the steps (the suite's downloads) is not a step of its own.
    if std::thread::current().name() != Some("main") {
        return;
    }
    if let Ok(mut steps) = STEPS.lock() {
        steps.push((name.to_string(), std::time::Instant::now()));
    }
}

/// How long each step took so far (a step lasts until the next begins): the suite prints it
/// at its end, passed or failed, so a CI log shows where the time goes.
pub fn step_times() -> String {
    let steps = STEPS.lock().map(|s| s.clone()).unwrap_or_default();
    let now = std::time::Instant::now();
    let mut out = String::from("\nseconds per step:\n");
    for (i, (name, began)) in steps.iter().enumerate() {
        let end = steps.get(i + 1).map_or(now, |next| next.1);
        out += &format!("{:>7.0}  {name}\n", (end - *began).as_secs_f64());
    }
    if let Some((_, first)) = steps.first() {
        out += &format!("{:>7.0}  in all\n", (now - *first).as_secs_f64());
    }
    out
}

/// Where the release `ds-studio` the studio's own checks run is (the browser journeys,
/// pre-commit, the API client and contract, the benchmarks). Measured: the journeys on the
/// debug binary took seven minutes more than on the release one (its JSON Schema per release
/// alone, 153 s), more than the release build costs.
pub fn studio_bin_path() -> PathBuf {
    root().join("target/release/ds-studio")
}

/// Builds the release `ds-studio` (a no-op when it is current) and says where it is.
pub fn studio_bin() -> Result<PathBuf> {
    run(cargo().args(["build", "--release", "--bin", "ds-studio"]))?;
    Ok(studio_bin_path())
}

pub fn run(cmd: &mut Command) -> Result {
    eprintln!("$ {cmd:?}");
    let status = cmd
        .current_dir(root())
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed with {status}"))
    }
}

pub fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn output(cmd: &mut Command) -> Option<String> {
    cmd.output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// The version of `package` in the lock file `lock` (the first one listed).
fn locked_version(lock: &Path, package: &str) -> Result<String> {
    let text = std::fs::read_to_string(lock).map_err(|e| format!("{}: {e}", lock.display()))?;
    let mut lines = text.lines();
    let wanted = format!("name = \"{package}\"");
    while let Some(l) = lines.next() {
        if l == wanted {
            if let Some(v) = lines.next().and_then(|v| v.strip_prefix("version = \"")) {
                return Ok(v.trim_end_matches('"').to_string());
            }
        }
    }
    Err(format!("{package} is not in {}", lock.display()))
}

/// The wasm-bindgen version pinned in Cargo.lock.
fn locked_wasm_bindgen() -> Result<String> {
    locked_version(&root().join("Cargo.lock"), "wasm-bindgen")
}

/// The wasm32 target of the toolchain (seconds).
pub(crate) fn ensure_wasm_target() -> Result {
    let targets =
        output(Command::new("rustup").args(["target", "list", "--installed"])).unwrap_or_default();
    if !targets.lines().any(|t| t == "wasm32-unknown-unknown") {
        run(Command::new("rustup").args(["target", "add", "wasm32-unknown-unknown"]))?;
    }
    Ok(())
}

const PACKAGER: &str = "tools/frontend-packager";

/// The frontend packager (`tools/frontend-packager`: wasm-split and wasm-bindgen's libraries in
/// one small binary, its own lock file), built into `target/tools` the first time (about a
/// minute) and checked by cargo in a moment afterwards. Its wasm-bindgen must be the one the
/// frontend links, or the bound module would not load.
fn ensure_packager() -> Result<PathBuf> {
    packager_matches_the_lock()?;
    run(cargo()
        .args([
            "build",
            "--release",
            "--locked",
            "--quiet",
            "--manifest-path",
        ])
        .arg(root().join(PACKAGER).join("Cargo.toml"))
        .arg("--target-dir")
        .arg(root().join("target/tools")))?;
    Ok(root().join("target/tools/release/frontend-packager"))
}

/// The packager's wasm-bindgen (its Cargo.lock) is the frontend's (the workspace's Cargo.lock).
fn packager_matches_the_lock() -> Result {
    let ours = locked_wasm_bindgen()?;
    let packager = locked_version(
        &root().join(PACKAGER).join("Cargo.lock"),
        "wasm-bindgen-cli-support",
    )?;
    if packager == ours {
        Ok(())
    } else {
        Err(format!(
            "{PACKAGER} binds with wasm-bindgen {packager} but the frontend links {ours}: \
             set `wasm-bindgen-cli-support = \"={ours}\"` in {PACKAGER}/Cargo.toml and run \
             `cargo update --manifest-path {PACKAGER}/Cargo.toml`"
        ))
    }
}

/// binaryen's `wasm-opt` from npm (Debian's binaryen 108 produces modules Chromium rejects).
fn ensure_wasm_opt() -> Result<PathBuf> {
    let npm_dir = root().join("target/npm");
    let wasm_opt = npm_dir.join("node_modules/.bin/wasm-opt");
    if !wasm_opt.exists() {
        std::fs::create_dir_all(&npm_dir).map_err(|e| e.to_string())?;
        run(Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&npm_dir)
            .arg("binaryen@132"))?;
    }
    Ok(wasm_opt)
}

/// `wasm-bindgen-test-runner` for the frontend's wasm tests: wasm-bindgen-cli at the version in
/// Cargo.lock, installed once (about 4 minutes) into `target/tools`' cache, only by the tests.
pub(crate) fn ensure_test_runner() -> Result {
    step("wasm-bindgen-test-runner");
    let version = locked_wasm_bindgen()?;
    let have = output(Command::new("wasm-bindgen").arg("--version")).unwrap_or_default();
    if !have.ends_with(&version) {
        eprintln!(
            "installing wasm-bindgen-cli {version} (found '{have}'; takes about 4 minutes once)"
        );
        // Without --locked: the registry mirror lacks one locked dependency version.
        run(cargo()
            .args([
                "install",
                "wasm-bindgen-cli",
                "--version",
                &format!("={version}"),
            ])
            .arg("--target-dir")
            .arg(root().join("target/tools"))
            .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "1")
            .env("CARGO_PROFILE_RELEASE_LTO", "false")
            .env("CARGO_PROFILE_RELEASE_DEBUG", "false"))?;
    }
    Ok(())
}

/// Builds the frontend into static/pkg: the main module (`ds_studio_frontend_bg.wasm`, what
/// the first load of any page fetches), one chunk per deferred page and the chunks they share
/// (`split_*.wasm`, `chunk_*.wasm`, fetched by `__wasm_split.js` on a page's first visit).
pub fn build_frontend() -> Result {
    let tools = wasm_tools()?;
    compile_frontend()?;
    package_frontend(&tools)
}

/// What packages the frontend: the packager and `wasm-opt`.
pub struct WasmTools {
    packager: PathBuf,
    wasm_opt: PathBuf,
}

/// The wasm tools the frontend's packaging needs (built or installed once).
fn wasm_tools() -> Result<WasmTools> {
    step("wasm tools (frontend-packager, wasm-opt)");
    ensure_wasm_target()?;
    Ok(WasmTools {
        packager: ensure_packager()?,
        wasm_opt: ensure_wasm_opt()?,
    })
}

/// The frontend compiled to one wasm32 module (needs the target, not the tools).
fn compile_frontend() -> Result {
    ensure_wasm_target()?;
    step("frontend (wasm)");
    // `--emit-relocs` on the final link only: wasm-split needs the relocations to cut the
    // module; every dependency keeps the flags of `.cargo/config.toml`.
    run(cargo().args([
        "rustc",
        "-p",
        "ds-studio-frontend",
        "--lib",
        "--crate-type",
        "cdylib",
        "--features",
        "split",
        "--target",
        "wasm32-unknown-unknown",
        "--profile",
        "wasm-release",
        "--",
        "-C",
        "link-arg=--emit-relocs",
    ]))
}

/// The compiled module cut into chunks, bound for the browser and optimised into static/pkg.
fn package_frontend(tools: &WasmTools) -> Result {
    let wasm = root().join("target/wasm32-unknown-unknown/wasm-release/ds_studio_frontend.wasm");
    let split_dir = root().join("target/wasm-split");
    let pkg = root().join("static/pkg");
    for dir in [&split_dir, &pkg] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
    }
    run(Command::new(&tools.packager)
        .arg(&wasm)
        .arg(&split_dir)
        .arg(&pkg)
        .arg("ds_studio_frontend"))?;
    let mut modules = vec![pkg.join("ds_studio_frontend_bg.wasm")];
    for entry in
        std::fs::read_dir(&split_dir).map_err(|e| format!("{}: {e}", split_dir.display()))?
    {
        let path = entry.map_err(|e| e.to_string())?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        if name == "ds_studio_frontend.wasm" {
            continue;
        }
        let to = pkg.join(&name);
        std::fs::copy(&path, &to).map_err(|e| format!("{}: {e}", path.display()))?;
        if name.ends_with(".wasm") {
            modules.push(to);
        }
    }
    // One wasm-opt per module, side by side: each runs on one core (27 s one after the other).
    std::thread::scope(|s| {
        let runs: Vec<_> = modules
            .iter()
            .map(|module| {
                s.spawn(move || {
                    run(Command::new(&tools.wasm_opt)
                        .arg("-Oz")
                        .arg("--enable-bulk-memory")
                        .arg("--enable-nontrapping-float-to-int")
                        .arg("-o")
                        .arg(module)
                        .arg(module))
                })
            })
            .collect();
        runs.into_iter()
            .map(|r| {
                r.join()
                    .unwrap_or_else(|_| Err("wasm-opt's thread panicked".into()))
            })
            .collect::<Result<Vec<()>>>()
    })?;
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0) / 1024;
    eprintln!(
        "frontend: {} KiB of wasm in the main module, {} KiB in {} deferred chunks",
        size(&modules[0]),
        modules[1..].iter().map(|m| size(m)).sum::<u64>(),
        modules.len() - 1
    );
    Ok(())
}

pub fn build() -> Result {
    build_frontend()?;
    step("server (release)");
    run(cargo().args(["build", "--release", "--bin", "ds-studio"]))
}

/// The DeepSpeed environment the local runner uses (`ds-studio engine setup`: torch and
/// deepspeed in ~/.cache/ds-studio/engine, about 2 minutes and 5 GB the first time).
pub fn engine_setup(binary: &Path) -> Result {
    step("DeepSpeed engine environment (ds-studio engine setup)");
    run(Command::new(binary).args(["engine", "setup"]))
}

/// The engine environment's Python (where `engine_setup` made it: `$XDG_CACHE_HOME` or
/// `~/.cache`, then `ds-studio/engine`, as `backend/runner/src/engine.rs` resolves it).
fn engine_python() -> Result<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .ok_or("neither XDG_CACHE_HOME nor HOME is set")?;
    Ok(cache.join("ds-studio/engine/bin/python"))
}

/// The parameter counts `shared::architecture` is tested against, counted again by the
/// engine's transformers and peft (`tools/models/count_params.py --check`): the fixtures' tiny
/// configs, the model catalog (`shared/data/models.json`) and LoRA's adapters. A transformers
/// or peft that counts differently fails here, naming the configs.
pub fn model_counts_check() -> Result {
    step("model parameter counts against the engine's transformers and peft (tools/models/count_params.py)");
    let python = engine_python()?;
    let script = root().join("tools/models/count_params.py");
    let fixtures = root().join("shared/tests/fixtures");
    run(Command::new(&python)
        .arg(&script)
        .arg(fixtures.join("models"))
        .arg("--check")
        .arg(fixtures.join("model_params.json")))?;
    run(Command::new(&python)
        .arg(&script)
        .arg(root().join("shared/data/models.json"))
        .arg("--check"))?;
    run(Command::new(&python)
        .arg(&script)
        .arg(fixtures.join("models"))
        .arg("--lora")
        .arg("--check")
        .arg(fixtures.join("model_lora_params.json")))
}

/// Lowers the priority of the calling thread, and so of the processes it starts (they inherit
/// it): the two long builds (the server, and the frontend whose last crate compiles alone on
/// one core for over a minute) and the engine's downloads then have the cores first, and the
/// packager's build, needed only at the end, uses what they leave (BENCHMARKS.md, "A fresh
/// set-up"). Linux keeps the nice value
/// per thread; elsewhere this does nothing.
fn behind_the_builds() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority has no memory effects; who = 0 is the calling thread on Linux.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// What `cargo xtask run` needs, independent steps at once: the server, the wasm tools, the
/// frontend's compile and the DeepSpeed environment (mostly downloads); then the frontend is
/// packaged with the tools. Each step skips what is already there. Prints how long each took.
pub fn set_up() -> Result {
    let started = std::time::Instant::now();
    // Once, before the steps that need it run side by side.
    ensure_wasm_target()?;
    let timed = |name: &'static str, f: fn() -> Result| {
        move || -> Result<(&'static str, std::time::Duration)> {
            let t = std::time::Instant::now();
            f().map_err(|e| format!("{name}: {e}"))?;
            Ok((name, t.elapsed()))
        }
    };
    let (server, tools, compiled, packaged, engine) = std::thread::scope(|s| {
        let server = s.spawn(timed("server (release)", || {
            step("server (release)");
            run(cargo().args(["build", "--release", "--bin", "ds-studio"]))
        }));
        let tools = s.spawn(|| {
            behind_the_builds();
            let t = std::time::Instant::now();
            wasm_tools().map(|w| (w, t.elapsed()))
        });
        let compiled = s.spawn(timed("frontend (compiled to wasm)", compile_frontend));
        // Mostly downloads: beside the two builds from the start (the runner's own set-up
        // code, compiled into xtask, so it need not wait for the server binary).
        let engine = s.spawn(timed("DeepSpeed environment", || {
            if std::env::var_os("DS_STUDIO_SKIP_ENGINE").is_some() {
                eprintln!("DS_STUDIO_SKIP_ENGINE is set: jobs will fail until `ds-studio engine setup` has run");
                return Ok(());
            }
            step("DeepSpeed engine environment");
            crate::engine::setup(&crate::engine::default_venv(), false)
        }));
        let panicked = |what: &str| -> Result<(&'static str, std::time::Duration)> {
            Err(format!("the {what} step panicked"))
        };
        let tools = tools
            .join()
            .unwrap_or_else(|_| Err("the wasm tools step panicked".into()));
        let compiled = compiled.join().unwrap_or_else(|_| panicked("frontend"));
        // Packaging needs both the tools and the module.
        let packaged = match (&tools, &compiled) {
            (Ok((wasm_tools, _)), Ok(_)) => {
                let t = std::time::Instant::now();
                package_frontend(wasm_tools).map(|_| ("frontend (packaged)", t.elapsed()))
            }
            _ => Err("the frontend was not packaged".into()),
        };
        (
            server.join().unwrap_or_else(|_| panicked("server")),
            tools.map(|(_, d)| ("wasm tools", d)),
            compiled,
            packaged,
            engine.join().unwrap_or_else(|_| panicked("engine")),
        )
    });
    let took = [server?, tools?, compiled?, packaged?, engine?];
    for (name, d) in took {
        eprintln!("set-up: {name} {:.0} s", d.as_secs_f64());
    }
    eprintln!("set-up: {:.0} s in all", started.elapsed().as_secs_f64());
    Ok(())
}

pub fn run_server() -> Result {
    step("starting ds-studio on http://127.0.0.1:8080 (data in ./data)");
    run(Command::new(root().join("target/release/ds-studio")).args([
        "serve",
        "--addr",
        "127.0.0.1:8080",
        "--data",
        "./data",
        "--static-dir",
        "static",
    ]))
}

const SCHEMA: &str = "shared/schema/deepspeed.schema.json";

pub fn codegen(check: bool) -> Result {
    step(if check { "codegen --check" } else { "codegen" });
    // What each DeepSpeed release knows, read from the releases' own source (their sdists are
    // downloaded once into ~/.cache/ds-studio/deepspeed-src).
    let mut releases = Command::new("python3");
    releases.arg(root().join("tools/releases/gen.py"));
    if check {
        releases.arg("--check");
    }
    run(releases.current_dir(root()))?;
    // The schema from the CLI (xtask does not link the studio's crates: it compiles in seconds
    // before a fresh set-up can start).
    run(cargo().args(["build", "--quiet", "-p", "ds-studio"]))?;
    let binary = root().join("target/debug/ds-studio");
    let text = Command::new(&binary)
        .arg("schema")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .ok_or_else(|| format!("`{} schema` failed", binary.display()))?;
    let path = root().join(SCHEMA);
    let current = std::fs::read_to_string(&path).unwrap_or_default();
    if current == text {
        eprintln!("{SCHEMA} is up to date");
        return Ok(());
    }
    if check {
        return Err(format!(
            "{SCHEMA} is out of date: run `cargo xtask codegen` and commit it"
        ));
    }
    std::fs::write(&path, text).map_err(|e| format!("{SCHEMA}: {e}"))?;
    eprintln!("wrote {SCHEMA}");
    Ok(())
}

/// A CJK font (1.6 MB) so that screenshots of the Chinese UI show characters, not boxes.
const CJK_FONT: &str = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc";

pub(crate) fn ensure_chromium() -> Result {
    if Path::new("/usr/bin/chromium").exists()
        && Path::new("/usr/bin/chromedriver").exists()
        && Path::new(CJK_FONT).exists()
        && Path::new("/usr/bin/nvim").exists()
    {
        return Ok(());
    }
    step("installing Debian's chromium, its chromedriver and a CJK font for the browser tests, and neovim for the language server's editor test");
    apt_install(&[
        "chromium",
        "chromium-driver",
        "fonts-wqy-microhei",
        "neovim",
    ])
}

/// `apt-get update`, then `apt-get install -y -q` of `args` (packages, and options such as
/// `--no-install-recommends`), without questions.
fn apt_install(args: &[&str]) -> Result {
    run(Command::new("apt-get").arg("update").arg("-q"))?;
    run(Command::new("apt-get")
        .args(["install", "-y", "-q"])
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

/// Debian's HAProxy, the real load balancer in front of the replica test's two servers.
pub(crate) fn ensure_haproxy() -> Result {
    if Path::new("/usr/sbin/haproxy").exists() {
        return Ok(());
    }
    step("installing Debian's haproxy for the replica test (two servers behind a load balancer)");
    apt_install(&["haproxy"])
}

/// Debian's Prometheus (the server and `promtool`), for the test that scrapes a running studio
/// (`backend/cli/tests/operating.rs`). Its service is not started: the test runs its own.
pub(crate) fn ensure_prometheus() -> Result {
    if Path::new("/usr/bin/prometheus").exists() && Path::new("/usr/bin/promtool").exists() {
        return Ok(());
    }
    step("installing Debian's prometheus for the metrics test (a real scrape of the studio)");
    apt_install(&["--no-install-recommends", "prometheus"])
}

/// Chromium and the e2e folder's npm packages (playwright-core), for the browser tests and
/// `bench-ui`.
pub fn ensure_browser() -> Result {
    ensure_chromium()?;
    let e2e = root().join("e2e");
    // Every dependency of e2e/package.json (Playwright, and the editor tests' ajv and VS Code
    // JSON engine), installed once.
    let manifest = std::fs::read_to_string(e2e.join("package.json")).map_err(|e| e.to_string())?;
    let deps: serde_json::Value = serde_json::from_str(&manifest).map_err(|e| e.to_string())?;
    let missing = deps["dependencies"]
        .as_object()
        .is_some_and(|d| d.keys().any(|k| !e2e.join("node_modules").join(k).exists()));
    if missing {
        run(Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&e2e))?;
    }
    Ok(())
}

pub fn e2e() -> Result {
    ensure_browser()?;
    step("e2e: browser tests (Playwright + Debian chromium)");
    let e2e = root().join("e2e");
    let bin = studio_bin()?;
    // A journey that waits on nothing forever (a fetch in `page.evaluate` has no timeout)
    // fails after 5 minutes, naming itself, instead of holding the suite until CI's limit.
    run(Command::new("node")
        .arg("--test")
        .arg("--test-timeout=300000")
        // One line per test (its name and time), and a failure's details at the end; the
        // servers' logs are in e2e/artifacts/logs.
        .arg("--test-reporter=spec")
        .arg(e2e.join("tests"))
        .env("DS_STUDIO_BIN", bin))
}

/// Crates that must stay out of each crate's normal dependency tree.
pub(crate) const CRATE_BANS: [(&str, &[&str]); 4] = [
    // Built for the browser too: no runtime, no I/O.
    (
        "ds-studio-shared",
        &["tokio", "sqlx", "axum", "reqwest", "leptos", "hyper"],
    ),
    // Runs on GPU hosts and talks to the server over HTTP only: never the database.
    ("ds-studio-runner", &["sqlx", "axum", "utoipa"]),
    // A library for scripts and the runner: no command-line parser either.
    ("ds-studio-client", &["sqlx", "axum", "utoipa", "clap"]),
    // Reads files and speaks stdio: no database, no server, no network.
    (
        "ds-studio-lsp",
        &["sqlx", "axum", "reqwest", "hyper", "tokio"],
    ),
];

/// The names of the crates in `krate`'s normal dependency tree (an error when `cargo tree`
/// fails or lists nothing, so the check cannot pass without looking).
pub(crate) fn dependency_names(krate: &str) -> Result<Vec<String>> {
    let tree = output(
        cargo()
            .args(["tree", "-p", krate, "-e", "normal", "--prefix", "none"])
            .current_dir(root()),
    )
    .ok_or_else(|| format!("cargo tree -p {krate} failed"))?;
    // `cargo tree --prefix none` prints "name vX.Y.Z ..." per line.
    let names: Vec<String> = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    if !names.iter().any(|n| n == krate) {
        return Err(format!("cargo tree -p {krate} did not list {krate}"));
    }
    Ok(names)
}

/// Runs the frontend's test target `name` compiled to wasm32 with wasm-bindgen-test-runner (in
/// Node, or in a browser when the test file says so and `env` names its webdriver).
pub(crate) fn wasm_test(name: &str, env: &[(&str, &str)]) -> Result {
    let mut cmd = cargo();
    cmd.args([
        "test",
        "-p",
        "ds-studio-frontend",
        "--target",
        "wasm32-unknown-unknown",
        "--test",
        name,
    ])
    .env(
        "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
        "wasm-bindgen-test-runner",
    )
    .envs(env.iter().copied());
    run(&mut cmd)
}

pub fn shared_dir() -> PathBuf {
    std::env::var("DS_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| root().join("../shared"))
}

/// The corpus configs, sorted.
fn corpus_files(corpus: &Path) -> Result<Vec<PathBuf>> {
    let mut configs: Vec<PathBuf> = std::fs::read_dir(corpus)
        .map_err(|e| format!("{}: {e}", corpus.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json" || x == "conf"))
        .collect();
    configs.sort();
    Ok(configs)
}

/// The corpus configs copied `copies` times into `target/bench-many` (the CLI over many files,
/// as a pre-commit hook or a CI job over a repository sees them).
fn corpus_copies(corpus: &Path, copies: usize) -> Result<Vec<PathBuf>> {
    let dir = root().join("target/bench-many");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let configs = corpus_files(corpus)?;
    let mut out = Vec::new();
    for i in 0..copies {
        for c in &configs {
            let to = dir.join(format!("{i}-{}", c.file_name().unwrap().to_string_lossy()));
            std::fs::copy(c, &to).map_err(|e| format!("{}: {e}", to.display()))?;
            out.push(to);
        }
    }
    Ok(out)
}

/// Microseconds per file of `ds-studio validate FILES...` as a whole process (start, read,
/// judge, write to a pipe), the median of 9 runs; `one_core` pins it to CPU 0 (`taskset`).
fn whole_process_us(files: &[PathBuf], release: &str, one_core: bool) -> Result<f64> {
    let runs = (0..9)
        .map(|_| validate_once_us(files, release, one_core))
        .collect::<Result<Vec<f64>>>()?;
    Ok(median(runs))
}

/// What a pre-commit hook pays for one file: each corpus config validated by a process of its
/// own, the median over the configs, in microseconds.
fn one_file_us(configs: &[PathBuf], release: &str) -> Result<f64> {
    let runs = configs
        .iter()
        .map(|c| validate_once_us(std::slice::from_ref(c), release, false))
        .collect::<Result<Vec<f64>>>()?;
    Ok(median(runs))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One `ds-studio validate FILES...` process: microseconds per file.
fn validate_once_us(files: &[PathBuf], release: &str, one_core: bool) -> Result<f64> {
    let bin = root().join("target/release/ds-studio");
    let mut cmd = if one_core {
        let mut c = Command::new("taskset");
        c.args(["-c", "0"]).arg(&bin);
        c
    } else {
        Command::new(&bin)
    };
    cmd.args(["validate", "--deepspeed", release]).args(files);
    let start = std::time::Instant::now();
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    let took = start.elapsed();
    if out.stdout.is_empty() || out.status.code().is_none_or(|c| c > 1) {
        return Err(format!(
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(took.as_secs_f64() * 1e6 / files.len() as f64)
}

/// The figures a benchmark command prints as JSON on its last line.
fn figures_of(cmd: &mut Command) -> Result<serde_json::Value> {
    eprintln!("$ {cmd:?}");
    let out = cmd
        .current_dir(root())
        .output()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .last()
        .and_then(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| {
            format!(
                "{cmd:?} printed no figures: {text} {}",
                String::from_utf8_lossy(&out.stderr)
            )
        })
}

/// `median_us` and `mean_us` of a benchmark command.
fn median_and_mean_of(cmd: &mut Command) -> Result<(f64, f64)> {
    let f = figures_of(cmd)?;
    match (f["median_us"].as_f64(), f["mean_us"].as_f64()) {
        (Some(median), Some(mean)) => Ok((median, mean)),
        _ => Err(format!("{cmd:?} printed {f} without median_us and mean_us")),
    }
}

/// `median_us` of a benchmark command.
fn median_of(cmd: &mut Command) -> Result<f64> {
    let f = figures_of(cmd)?;
    f["median_us"]
        .as_f64()
        .ok_or_else(|| format!("{cmd:?} printed {f} without median_us"))
}

/// Validator speed: native, WASM (Node) and DeepSpeed's own parser on the 120 corpus configs.
/// The releases the validator benchmark times: the newest and one many users pin.
const BENCH_RELEASES: &[&str] = &["0.19.8", "0.16.9"];

/// `cargo xtask bench [--cli]`: the validator in process (native, wasm) against DeepSpeed's
/// own parser, then the CLI as a whole process. `--cli` runs only the CLI part (it builds only
/// the CLI, not the frontend or the benchmark tool).
pub fn bench(cli_only: bool) -> Result {
    let corpus = shared_dir().join("deepspeed/corpus/configs");
    if cli_only {
        run(cargo().args(["build", "--release", "-p", "ds-studio"]))?;
    } else {
        build()?;
        run(cargo().args(["build", "--release", "--bin", "ds-studio-bench"]))?;
    }
    let oracle = shared_dir().join("tools/ds-oracle");
    run(Command::new("bash")
        .arg(oracle.join("setup.sh"))
        .args(&BENCH_RELEASES[1..]))?;
    let venv = std::env::var("DS_ORACLE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cache/ds-oracle-venv")
        });
    let many = corpus_copies(&corpus, 20)?;
    let mut rows = Vec::new();
    let mut in_process = Vec::new();
    let mut whole = Vec::new();
    for release in BENCH_RELEASES {
        if !cli_only {
            step(&format!("bench: native, DeepSpeed {release}"));
            let native = median_of(
                Command::new(root().join("target/release/ds-studio-bench"))
                    .arg("validate")
                    .arg(&corpus)
                    .args(["--iterations", "50", "--deepspeed", release]),
            )?;
            step(&format!("bench: wasm (node), DeepSpeed {release}"));
            let wasm = median_of(
                Command::new("node")
                    .arg("tools/bench/wasm_bench.mjs")
                    .arg(&corpus)
                    .arg("50")
                    .arg(release),
            )?;
            rows.push((release, native, wasm));
        }
        step(&format!("bench: DeepSpeed {release} DeepSpeedConfig(path)"));
        let mut ds_cmd = Command::new(venv.join("bin/python"));
        ds_cmd
            .arg("tools/bench/deepspeed_bench.py")
            .arg(&corpus)
            .arg("20")
            .env("DS_ACCELERATOR", "cpu")
            .env("ONEDNN_MAX_CPU_ISA", "AVX512_CORE_FP16");
        if *release != "0.19.8" {
            ds_cmd.env("PYTHONPATH", venv.join("ds").join(release));
        }
        let (ds, ds_mean) = median_and_mean_of(&mut ds_cmd)?;
        step(&format!(
            "bench: the CLI over {} files, whole process, DeepSpeed {release}",
            many.len()
        ));
        let configs = corpus_files(&corpus)?;
        let floor = version_us()?;
        let one = one_file_us(&configs, release)?;
        let corpus_run = whole_process_us(&configs, release, false)?;
        let all_cores = whole_process_us(&many, release, false)?;
        let one_core = whole_process_us(&many, release, true)?;
        whole.push((
            release, floor, one, corpus_run, all_cores, one_core, ds_mean,
        ));
        in_process.push((release, ds));
    }
    if !cli_only {
        step("bench: native, DeepSpeed 0.19.8 under the HF Trainer");
        let hf = median_of(
            Command::new(root().join("target/release/ds-studio-bench"))
                .arg("validate")
                .arg(&corpus)
                .args(["--iterations", "50", "--launcher", "hf-trainer"]),
        )?;
        println!(
            "\nValidator benchmark: median per config over the corpus (same run, same machine)"
        );
        println!("| release | runner | median µs/config | DeepSpeed / runner |");
        println!("|---|---|---|---|");
        for ((release, native, wasm), (_, ds)) in rows.into_iter().zip(&in_process) {
            println!(
                "| {release} | ds-studio native (release) | {native:.1} | {:.1}x |",
                ds / native
            );
            println!(
                "| {release} | ds-studio WASM (Node) | {wasm:.1} | {:.1}x |",
                ds / wasm
            );
            println!("| {release} | DeepSpeed DeepSpeedConfig(path) | {ds:.1} | 1.0x |");
        }
        println!(
            "| 0.19.8 | ds-studio native (release), HF Trainer: json.load reader + HF's processing | {hf:.1} | |"
        );
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "\nThe CLI as a whole process (start, read, judge, write to a pipe), per file: `ds-studio --version` (the floor any command pays: loading the binary), one file (each corpus config by a process of its own, the median), the corpus' {} files in one process and the corpus x20 ({} files; median of 9 runs each); DeepSpeed: DeepSpeedConfig(path) per file, parse only, in a running Python (the mean of the per-config medians)",
        many.len() / 20,
        many.len()
    );
    println!("| release | --version | 1 file | 120 files | 2,400 files, {cores} cores | 2,400 files, 1 core | DeepSpeed parse only | DeepSpeed / ds-studio (1, 120, 2,400 files) |");
    println!("|---|---|---|---|---|---|---|---|");
    for (release, floor, one, corpus_run, all, one_core, ds) in whole {
        println!(
            "| {release} | {floor:.0} µs | {one:.0} µs | {corpus_run:.1} µs | {all:.1} µs | {one_core:.1} µs | {ds:.1} µs | {:.2}x, {:.1}x, {:.1}x |",
            ds / one,
            ds / corpus_run,
            ds / all
        );
    }
    Ok(())
}

/// `ds-studio --version` as a whole process, the median of 101 runs, in microseconds: what
/// starting the binary costs before any command does its work.
fn version_us() -> Result<f64> {
    let bin = root().join("target/release/ds-studio");
    let runs = (0..101)
        .map(|_| {
            let start = std::time::Instant::now();
            let out = Command::new(&bin)
                .arg("--version")
                .output()
                .map_err(|e| format!("{}: {e}", bin.display()))?;
            if !out.status.success() {
                return Err(format!("{} --version failed", bin.display()));
            }
            Ok(start.elapsed().as_secs_f64() * 1e6)
        })
        .collect::<Result<Vec<f64>>>()?;
    Ok(median(runs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wasm-bindgen bump in the workspace must bump the packager too (or the bound module
    /// would not load in the browser): caught here rather than at the first page load.
    #[test]
    fn the_packager_binds_with_the_frontends_wasm_bindgen() {
        packager_matches_the_lock().unwrap();
    }
}
