//! Why a job went wrong, told from what it said: the signatures of the common DeepSpeed and
//! PyTorch failures in its message (the runner puts the line that matched there), its exit
//! code, and the runner's own words for what it watched (a job stopped for making no
//! progress, a loss that became NaN). Each reason has a code (`out_of_memory`, …), a plain
//! explanation in English and Chinese and a change to try ([`FailureReason::explain`]), shown
//! on the job page and by `jobs show`.
//!
//! The signatures are the texts the libraries print (DeepSpeed's loss scaler, PyTorch's
//! `ProcessGroupNCCL` watchdog, NCCL, the `DataLoader`, DeepSpeed's op builder, Python's
//! import system); the tests below hold real excerpts of each.

use super::JobState;
use crate::i18n::Text;
use serde::{Deserialize, Serialize};

/// What went wrong, when the studio can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum FailureReason {
    /// CUDA ran out of GPU memory, the CPU allocator could not allocate, or the process was
    /// killed the way the host's out-of-memory killer kills (SIGKILL, not a cancel).
    OutOfMemory,
    /// A collective (all-reduce, all-gather, …) did not finish within the process group's
    /// timeout: a rank stopped, died or is far slower than the others.
    NcclTimeout,
    /// NCCL itself failed (network, driver, a mismatch between ranks).
    NcclError,
    /// The runner stopped the job: no new metric for the job's `stall_timeout_s`.
    Stalled,
    /// fp16's dynamic loss scale reached its minimum and still overflowed: DeepSpeed stops.
    LossScaleAtMinimum,
    /// The loss became NaN or infinite (the job may have run to its end, learning nothing).
    NonFiniteLoss,
    /// A `DataLoader` worker died (often killed for memory, or shared memory `/dev/shm`
    /// too small).
    DataLoader,
    /// A Python module the script imports is not installed in the runner's environment.
    MissingModule,
    /// A DeepSpeed op (a CUDA or C++ extension) could not be built or loaded.
    CudaExtension,
}

/// What the runner writes in a job's message when it stops a job that makes no progress
/// (followed by the limit and the last step seen).
pub const STALLED_MESSAGE: &str = "stopped: no training progress for";

/// What the runner writes in a job's message when a loss it read was NaN or infinite.
pub const NON_FINITE_LOSS_MESSAGE: &str = "the loss became non-finite";

/// The texts each reason is recognised by, in the order they are tried: the first reason
/// with a text in the message wins (running out of memory first: under torchrun the last
/// error line is its own `ChildFailedError`, not the rank's).
const SIGNATURES: &[(FailureReason, &[&str])] = &[
    (
        FailureReason::OutOfMemory,
        &[
            "CUDA out of memory",
            "OutOfMemoryError",
            "DefaultCPUAllocator: can't allocate memory",
            "CUBLAS_STATUS_ALLOC_FAILED",
            "MemoryError",
            "HIP out of memory",
        ],
    ),
    (FailureReason::Stalled, &[STALLED_MESSAGE]),
    (
        FailureReason::LossScaleAtMinimum,
        &["Current loss scale already at minimum"],
    ),
    (
        FailureReason::NcclTimeout,
        &[
            "Watchdog caught collective operation timeout",
            "collective operation timeout",
            "NCCL timeout",
            "Some NCCL operations have failed or timed out",
        ],
    ),
    (
        FailureReason::NcclError,
        &[
            "NCCL error",
            "ncclInternalError",
            "ncclSystemError",
            "ncclUnhandledCudaError",
            "ncclInvalidUsage",
            "ncclRemoteError",
            "ncclInvalidArgument",
        ],
    ),
    (
        FailureReason::CudaExtension,
        &[
            "CUDA_HOME does not exist",
            "MissingCUDAException",
            "CUDAMismatchException",
            "Error building extension",
            "ninja: build stopped",
            "nvcc fatal",
        ],
    ),
    (
        FailureReason::DataLoader,
        &[
            "DataLoader worker (pid",
            "DataLoader worker exited unexpectedly",
        ],
    ),
    (
        FailureReason::MissingModule,
        &["ModuleNotFoundError", "ImportError: cannot import name"],
    ),
    (FailureReason::NonFiniteLoss, &[NON_FINITE_LOSS_MESSAGE]),
];

/// A reason said for people: what happened, why, and a change to try.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub title: Text,
    pub why: Text,
    pub next: Text,
}

impl FailureReason {
    pub const ALL: [FailureReason; 9] = [
        FailureReason::OutOfMemory,
        FailureReason::NcclTimeout,
        FailureReason::NcclError,
        FailureReason::Stalled,
        FailureReason::LossScaleAtMinimum,
        FailureReason::NonFiniteLoss,
        FailureReason::DataLoader,
        FailureReason::MissingModule,
        FailureReason::CudaExtension,
    ];

    /// The code clients see (`out_of_memory`, …), as serde writes it.
    pub fn code(self) -> &'static str {
        match self {
            FailureReason::OutOfMemory => "out_of_memory",
            FailureReason::NcclTimeout => "nccl_timeout",
            FailureReason::NcclError => "nccl_error",
            FailureReason::Stalled => "stalled",
            FailureReason::LossScaleAtMinimum => "loss_scale_at_minimum",
            FailureReason::NonFiniteLoss => "non_finite_loss",
            FailureReason::DataLoader => "data_loader",
            FailureReason::MissingModule => "missing_module",
            FailureReason::CudaExtension => "cuda_extension",
        }
    }

    /// Where the reason's signatures come in the order they are tried (0 first): of two
    /// lines that each name a reason, the one of lower priority tells the failure.
    pub fn priority(self) -> usize {
        SIGNATURES
            .iter()
            .position(|(r, _)| *r == self)
            .unwrap_or(SIGNATURES.len())
    }

    /// Whether a log line says the process ran out of memory.
    pub fn is_out_of_memory_line(line: &str) -> bool {
        FailureReason::of_line(line) == Some(FailureReason::OutOfMemory)
    }

    /// The reason a line of output (or a message) names, if any, tried in [`SIGNATURES`]'
    /// order.
    pub fn of_line(line: &str) -> Option<FailureReason> {
        SIGNATURES
            .iter()
            .find(|(_, texts)| texts.iter().any(|t| line.contains(t)))
            .map(|(r, _)| *r)
    }

    /// The reason of a finished job: a failed one by its message and exit code; a succeeded
    /// one only when its loss became non-finite (it ran, and learnt nothing).
    pub fn of(state: JobState, exit_code: Option<i64>, message: Option<&str>) -> Option<Self> {
        let m = message.unwrap_or("");
        match state {
            JobState::Failed => {
                let killed = matches!(exit_code, Some(-9 | 137))
                    || m.contains("Signal 9 (SIGKILL)")
                    || m.contains("exited with code -9");
                match FailureReason::of_line(m) {
                    Some(r) => Some(r),
                    None if killed => Some(FailureReason::OutOfMemory),
                    None => None,
                }
            }
            JobState::Succeeded => m
                .contains(NON_FINITE_LOSS_MESSAGE)
                .then_some(FailureReason::NonFiniteLoss),
            _ => None,
        }
    }

    /// What happened, why, and a change to try, in both languages.
    pub fn explain(self) -> Explanation {
        let (title, why, next) = match self {
            FailureReason::OutOfMemory => (
                ("Out of memory", "内存不足"),
                (
                    "A GPU (or the host) ran out of memory: the model's states, its activations at this micro batch and sequence length, or the CPU copies of offloading did not fit.",
                    "GPU（或主机）内存不足：模型状态、当前微批次和序列长度下的激活值，或 offload 在 CPU 上的副本放不下。",
                ),
                (
                    "Make a version that fits: a smaller micro batch (with more gradient accumulation, keeping the global batch), a higher ZeRO stage, offloading, or activation checkpointing. `ds-studio estimate --gpu-memory-gib G` names what fits.",
                    "生成一个放得下的版本：更小的微批次（增加梯度累积以保持全局批次）、更高的 ZeRO stage、offload 或激活检查点。`ds-studio estimate --gpu-memory-gib G` 会给出放得下的配置。",
                ),
            ),
            FailureReason::NcclTimeout => (
                ("A collective timed out (NCCL)", "集合通信超时（NCCL）"),
                (
                    "An all-reduce or all-gather waited past the process group's timeout: one rank stopped (crashed, hung in data loading or I/O, or was preempted) or runs far slower than the others, so the rest waited for it.",
                    "all-reduce 或 all-gather 等待超过了进程组的超时时间：某个 rank 停止了（崩溃、卡在数据加载或 I/O、被抢占），或比其他 rank 慢得多，其余 rank 一直在等它。",
                ),
                (
                    "Look at the first rank that stopped logging (its log ends earliest). Check the network between nodes (NCCL_DEBUG=INFO, NCCL_SOCKET_IFNAME), that every rank reads the same amount of data, and that no rank does slow work alone (saving, evaluation); raise the timeout only for known slow steps.",
                    "查看最先停止输出日志的 rank（日志最早结束的那个）。检查节点间网络（NCCL_DEBUG=INFO、NCCL_SOCKET_IFNAME），确认每个 rank 读取的数据量相同、没有某个 rank 单独做耗时工作（保存、评估）；只在已知很慢的步骤上调大超时。",
                ),
            ),
            FailureReason::NcclError => (
                ("NCCL failed", "NCCL 出错"),
                (
                    "NCCL reported an error: usually the network between GPUs or nodes (an interface it cannot use, a firewall, InfiniBand settings), a driver problem, or ranks that disagree about the collective (different shapes or orders).",
                    "NCCL 报告了错误：通常是 GPU 或节点之间的网络问题（无法使用的网卡、防火墙、InfiniBand 设置）、驱动问题，或各 rank 对集合通信的参数不一致（形状或顺序不同）。",
                ),
                (
                    "Run again with NCCL_DEBUG=INFO in the job's environment and read the first rank's NCCL WARN line; set NCCL_SOCKET_IFNAME to the interface the nodes share; on one node try NCCL_P2P_DISABLE=1.",
                    "在任务环境中设置 NCCL_DEBUG=INFO 重新运行，查看第一个 rank 的 NCCL WARN 行；把 NCCL_SOCKET_IFNAME 设为节点共用的网卡；单节点时可以试试 NCCL_P2P_DISABLE=1。",
                ),
            ),
            FailureReason::Stalled => (
                ("Stopped: no progress", "已停止：没有进展"),
                (
                    "The job reported no new metric for longer than its stall limit, so the runner stopped it: a rank hung (in a collective, data loading, I/O) or the job waits for something that never comes.",
                    "任务在超过停滞上限的时间里没有报告新的指标，runner 停止了它：某个 rank 卡住了（在集合通信、数据加载或 I/O 中），或任务在等待一个永远不会到来的东西。",
                ),
                (
                    "Read the end of the log for the last thing each rank did; if a step is legitimately slow (the first step compiles, a checkpoint saves), raise stall_timeout_s.",
                    "查看日志末尾每个 rank 最后做了什么；如果某一步本来就慢（第一步在编译、在保存检查点），调大 stall_timeout_s。",
                ),
            ),
            FailureReason::LossScaleAtMinimum => (
                ("fp16 overflowed at the smallest loss scale", "fp16 在最小损失缩放下仍然溢出"),
                (
                    "With fp16, DeepSpeed halves the loss scale after each overflowing step; it reached min_loss_scale and the gradients still overflowed, so it stopped the run. The values themselves are out of fp16's range: the learning rate is too high, or the model or data produce huge activations.",
                    "使用 fp16 时，DeepSpeed 在每次溢出后把损失缩放减半；它已降到 min_loss_scale，梯度仍然溢出，于是停止训练。数值本身超出了 fp16 的范围：学习率太高，或者模型、数据产生了极大的激活值。",
                ),
                (
                    "Use bf16 instead of fp16 where the GPU has it (A100, H100 and newer); otherwise lower the learning rate, add warmup and gradient clipping, and check the data for extreme values.",
                    "GPU 支持时（A100、H100 及更新的卡）改用 bf16 代替 fp16；否则降低学习率、加入 warmup 和梯度裁剪，并检查数据中的极端值。",
                ),
            ),
            FailureReason::NonFiniteLoss => (
                ("The loss became NaN", "损失变成了 NaN"),
                (
                    "The training loss became NaN or infinite: once it does, the weights are NaN too and every later step learns nothing. Usual causes are a learning rate too high for the batch, no warmup, fp16 without enough range, or bad values in the data.",
                    "训练损失变成了 NaN 或无穷大：一旦如此，权重也会变成 NaN，之后的每一步都学不到东西。常见原因是学习率相对批次过高、没有 warmup、fp16 范围不够，或数据中有异常值。",
                ),
                (
                    "Lower the learning rate (or add warmup), set gradient_clipping (1.0 is common), prefer bf16 to fp16, and look at the steps just before the loss jumped.",
                    "降低学习率（或加入 warmup），设置 gradient_clipping（常用 1.0），优先使用 bf16 而不是 fp16，并查看损失突增之前的几个步骤。",
                ),
            ),
            FailureReason::DataLoader => (
                ("A data loader worker died", "数据加载进程退出"),
                (
                    "A DataLoader worker process was killed or exited: most often the host ran out of memory, or the shared memory (/dev/shm) is too small for the batches the workers pass.",
                    "某个 DataLoader worker 进程被杀死或退出：最常见的原因是主机内存不足，或共享内存（/dev/shm）放不下 worker 传递的批次。",
                ),
                (
                    "Use fewer workers (num_workers) or a smaller prefetch, give the job more host memory or a larger /dev/shm (containers: --shm-size), and run once with num_workers=0 to see the real error.",
                    "减少 worker 数（num_workers）或预取量，给任务更多主机内存或更大的 /dev/shm（容器中用 --shm-size），并用 num_workers=0 运行一次以看到真正的错误。",
                ),
            ),
            FailureReason::MissingModule => (
                ("A Python module is missing", "缺少 Python 模块"),
                (
                    "The script imports a module that is not installed in the runner's Python environment (or a name that its installed version does not have).",
                    "脚本导入的模块没有安装在 runner 的 Python 环境中（或已安装的版本没有这个名字）。",
                ),
                (
                    "Install it in the environment the runner uses (`ds-studio engine setup` makes one; `--python` names another), at the version the script expects.",
                    "在 runner 使用的环境中安装它（`ds-studio engine setup` 会创建一个；`--python` 可以指定其他环境），版本与脚本期望的一致。",
                ),
            ),
            FailureReason::CudaExtension => (
                ("A DeepSpeed op could not be built", "DeepSpeed 算子无法构建"),
                (
                    "DeepSpeed compiles some ops (fused Adam, CPU Adam, …) when first used; the build failed: the CUDA toolkit (nvcc, CUDA_HOME) is missing, or its version differs from the one PyTorch was built with.",
                    "DeepSpeed 会在第一次使用时编译部分算子（fused Adam、CPU Adam 等）；这次构建失败了：缺少 CUDA 工具包（nvcc、CUDA_HOME），或其版本与 PyTorch 编译时使用的版本不同。",
                ),
                (
                    "Install the CUDA toolkit matching `torch.version.cuda` and set CUDA_HOME, or pre-build the ops (DS_BUILD_OPS=1 pip install deepspeed); or choose an optimizer that needs no build (`torch_adam: true`).",
                    "安装与 `torch.version.cuda` 相同版本的 CUDA 工具包并设置 CUDA_HOME，或预先构建算子（DS_BUILD_OPS=1 pip install deepspeed）；或选择不需要编译的优化器（`torch_adam: true`）。",
                ),
            ),
        };
        let text = |(en, zh): (&str, &str)| Text::new(en, zh);
        Explanation {
            title: text(title),
            why: text(why),
            next: text(next),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Real lines of each failure: from the engine on CPU where the studio's tests produce
    /// them (tests/jobs_engine.rs), otherwise as PyTorch, NCCL and DeepSpeed print them.
    const EXCERPTS: &[(&str, FailureReason)] = &[
        ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 11.72 GiB. GPU 0 has a total capacity of 79.14 GiB of which 3.12 GiB is free.", FailureReason::OutOfMemory),
        ("RuntimeError: [enforce fail at alloc_cpu.cpp:121] . DefaultCPUAllocator: can't allocate memory: you tried to allocate 1125899906842624 bytes. Error code 12 (Cannot allocate memory)", FailureReason::OutOfMemory),
        ("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`", FailureReason::OutOfMemory),
        ("[rank1]:[E1128 10:42:17.112408577 ProcessGroupNCCL.cpp:632] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1187, OpType=ALLREDUCE, NumelIn=262144000, NumelOut=262144000, Timeout(ms)=600000) ran for 600016 milliseconds before timing out.", FailureReason::NcclTimeout),
        ("[rank0]:[E1128 10:42:18.901 ProcessGroupNCCL.cpp:1595] [PG 0 (default_pg) Rank 0] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.", FailureReason::NcclTimeout),
        ("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5", FailureReason::NcclError),
        ("ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.", FailureReason::NcclError),
        ("Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.", FailureReason::LossScaleAtMinimum),
        ("RuntimeError: DataLoader worker (pid 48213) is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory. Please try to raise your shared memory limit.", FailureReason::DataLoader),
        ("RuntimeError: DataLoader worker (pid(s) 9012) exited unexpectedly", FailureReason::DataLoader),
        ("ModuleNotFoundError: No module named 'flash_attn'", FailureReason::MissingModule),
        ("ImportError: cannot import name 'LlamaFlashAttention2' from 'transformers.models.llama.modeling_llama'", FailureReason::MissingModule),
        ("deepspeed.ops.op_builder.builder.MissingCUDAException: CUDA_HOME does not exist, unable to compile CUDA op(s)", FailureReason::CudaExtension),
        ("RuntimeError: Error building extension 'fused_adam'", FailureReason::CudaExtension),
        ("deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version 12.4 does not match the version torch was compiled with 11.8, unable to compile cuda/cpp extensions without a matching cuda version.", FailureReason::CudaExtension),
    ];

    #[test]
    fn each_signature_is_recognised_in_a_failed_jobs_message() {
        for (line, want) in EXCERPTS {
            let message = format!("the training process exited with code 1: {line}");
            assert_eq!(
                FailureReason::of(JobState::Failed, Some(1), Some(&message)),
                Some(*want),
                "{line}"
            );
        }
        // Every reason but the runner's own (stalled, non-finite loss) has an excerpt.
        for r in FailureReason::ALL {
            let own = matches!(r, FailureReason::Stalled | FailureReason::NonFiniteLoss);
            assert!(own || EXCERPTS.iter().any(|(_, w)| *w == r), "{r:?}");
        }
    }

    #[test]
    fn running_out_of_memory_is_said_first_and_a_kill_means_memory() {
        let oom = Some(FailureReason::OutOfMemory);
        let of = |state, code, m: &str| FailureReason::of(state, code, Some(m));
        // A torchrun failure whose OOM line came with an NCCL abort after it.
        assert_eq!(
            of(
                JobState::Failed,
                Some(1),
                "exited with code 1: NCCL error ... torch.OutOfMemoryError: CUDA out of memory"
            ),
            oom
        );
        assert_eq!(
            of(
                JobState::Failed,
                Some(-9),
                "the training process exited with code -9"
            ),
            oom
        );
        assert_eq!(
            of(
                JobState::Failed,
                Some(1),
                "the training process exited with code 1: ValueError: bad"
            ),
            None
        );
        // A cancelled job is not out of memory, whatever its code.
        assert_eq!(
            of(JobState::Cancelled, Some(-9), "cancelled by a user"),
            None
        );
    }

    #[test]
    fn the_runners_own_words_are_reasons_too() {
        let stalled = format!("{STALLED_MESSAGE} 120 s (the last metric was at step 3)");
        assert_eq!(
            FailureReason::of(JobState::Failed, Some(-15), Some(&stalled)),
            Some(FailureReason::Stalled)
        );
        let nan = format!("finished, but {NON_FINITE_LOSS_MESSAGE} (NaN) at step 2");
        assert_eq!(
            FailureReason::of(JobState::Succeeded, Some(0), Some(&nan)),
            Some(FailureReason::NonFiniteLoss)
        );
        assert_eq!(FailureReason::of(JobState::Succeeded, Some(0), None), None);
    }

    #[test]
    fn every_reason_is_explained_in_both_languages_with_a_change_to_try() {
        for r in FailureReason::ALL {
            let e = r.explain();
            for t in [&e.title, &e.why, &e.next] {
                assert!(!t.en.is_empty() && !t.zh.is_empty(), "{r:?}");
                assert!(
                    t.zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                    "{r:?}: {}",
                    t.zh
                );
            }
            assert_eq!(
                serde_json::to_value(r).unwrap(),
                serde_json::Value::String(r.code().into())
            );
        }
    }
}
