//! Every UI string in English and Simplified Chinese, and the language choice (remembered in
//! `localStorage`).

use ds_studio_shared::i18n::Lang;
use leptos::prelude::*;

/// The current language, provided at the root.
#[derive(Clone, Copy)]
pub struct Language(pub RwSignal<Lang>);

const KEY: &str = "ds-studio.lang";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

impl Language {
    pub fn load() -> Language {
        let lang = storage()
            .and_then(|s| s.get_item(KEY).ok()?)
            .map(|v| if v == "zh" { Lang::Zh } else { Lang::En })
            .unwrap_or(Lang::En);
        set_document_lang(lang);
        Language(RwSignal::new(lang))
    }
    /// Switches to `lang` and remembers it.
    pub fn set(self, lang: Lang) {
        self.0.set(lang);
        set_document_lang(lang);
        if let Some(s) = storage() {
            let _ = s.set_item(KEY, if lang == Lang::Zh { "zh" } else { "en" });
        }
    }
    pub fn toggle(self) {
        self.set(if self.0.get_untracked() == Lang::En {
            Lang::Zh
        } else {
            Lang::En
        });
    }
}

/// The language remembered in `localStorage` (for code outside components: the API client asks
/// the server for its messages in it).
pub fn stored() -> Lang {
    match storage().and_then(|s| s.get_item(KEY).ok()?) {
        Some(v) if v == "zh" => Lang::Zh,
        _ => Lang::En,
    }
}

/// `<html lang>` follows the UI language (screen readers, the browser's date fields).
fn set_document_lang(lang: Lang) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("lang", if lang == Lang::Zh { "zh-CN" } else { "en" });
    }
}

pub fn use_lang() -> RwSignal<Lang> {
    expect_context::<Language>().0
}

/// A UI string in the current language (reactive).
pub fn t(key: &'static str) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let lang = use_lang();
    move || tr(key, lang.get())
}

/// A verdict (`accepted`, `rejected`) in the current language (reactive).
pub fn verdict_label(
    v: ds_studio_shared::Verdict,
) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    t(if v == ds_studio_shared::Verdict::Accepted {
        "verdict.accepted"
    } else {
        "verdict.rejected"
    })
}

/// A job state (`succeeded`, ...) in the current language (reactive).
pub fn job_state(state: &str) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let key = STRINGS
        .iter()
        .map(|s| s.0)
        .find(|k| k.strip_prefix("state.") == Some(state))
        .unwrap_or("state.unknown");
    t(key)
}

/// The text of `key` in `lang` (`?` when missing, which a test forbids:
/// `every_key_the_views_use_is_in_the_table`).
pub fn tr(key: &str, lang: Lang) -> &'static str {
    STRINGS
        .iter()
        .find(|(k, _, _)| *k == key)
        .map(|(_, en, zh)| if lang == Lang::Zh { *zh } else { *en })
        .unwrap_or("?")
}

pub const STRINGS: &[(&str, &str, &str)] = &[
    ("nav.validate", "Validate", "校验"),
    ("nav.templates", "Templates", "模板"),
    ("nav.signin", "Sign in", "登录"),
    ("nav.skip", "Skip to content", "跳到主要内容"),
    ("nav.signout", "Sign out", "退出"),
    ("lang.other", "中文", "English"),
    (
        "subtitle",
        "DeepSpeed config studio",
        "DeepSpeed 配置工作台",
    ),
    ("signin.title", "Sign in", "登录"),
    ("signin.user", "User name", "用户名"),
    ("signin.password", "Password", "密码"),
    ("signin.submit", "Sign in", "登录"),
    ("templates.title", "Templates", "模板"),
    ("templates.search", "Search by name", "按名称搜索"),
    ("templates.tag", "Tag", "标签"),
    ("templates.new", "New template", "新建模板"),
    ("templates.name", "Name", "名称"),
    ("templates.create", "Create", "创建"),
    ("templates.empty", "No templates yet.", "还没有模板。"),
    ("templates.none_match", "No template matches the search or the filters.", "没有符合搜索或筛选条件的模板。"),
    ("templates.head", "Head", "最新版本"),
    ("templates.team", "Team", "团队"),
    ("templates.updated", "Updated", "更新时间"),
    ("editor.message", "What changed", "修改说明"),
    ("editor.save", "Save version", "保存版本"),
    ("editor.undo", "Undo", "撤销"),
    ("editor.redo", "Redo", "重做"),
    ("editor.saved", "Saved version", "已保存版本"),
    ("editor.history", "History", "历史版本"),
    ("editor.based_on", "Editing on version", "基于版本"),
    ("editor.viewing", "Viewing version", "查看版本"),
    (
        "editor.conflict",
        "Someone saved a newer version meanwhile",
        "在你编辑期间，其他人保存了更新的版本",
    ),
    (
        "editor.conflict_changes",
        "Their changes since your base",
        "对方相对于你的基准版本的修改",
    ),
    ("editor.fork_name", "Name of the fork", "复刻名称"),
    ("editor.fork_from", "starts from", "起始于"),
    ("editor.fork_create", "Create fork", "创建复刻"),
    ("editor.forked_from", "Forked from", "复刻自"),
    ("editor.fork_source_gone", "a template since deleted", "一个已删除的模板"),
    ("merge.applied", "of their changes merge into your text at once (keys you did not touch)", "项对方的修改可直接合并到你的文本中（你未改动的键）"),
    ("merge.to_choose", "keys changed on both sides: {n}; choose one side for each", "{n} 个键双方都修改了：请为每个键选择一方"),
    ("merge.key", "Key", "键"),
    ("merge.base", "Was", "原值"),
    ("merge.theirs", "Theirs", "对方"),
    ("merge.mine", "Mine", "我的"),
    ("merge.absent", "(absent)", "（不存在）"),
    ("merge.apply", "Merge into my text", "合并到我的文本"),
    ("merge.done", "Merged with", "已合并"),
    ("merge.review", "review the text, then save it as the next version", "请检查文本，然后保存为下一个版本"),
    ("merge.unavailable", "Cannot merge automatically:", "无法自动合并："),
    (
        "editor.take_theirs",
        "Discard mine, load theirs",
        "放弃我的修改，载入对方版本",
    ),
    ("editor.nothing_to_save", "Nothing to save: the text and context are the saved version's", "无需保存：文本和上下文与已保存的版本相同"),
    ("form.broken", "The text does not parse (line {line}, column {column}: {message}). Fix it in the JSON view: until then the form cannot change it.", "文本无法解析（第 {line} 行，第 {column} 列：{message}）。请先在 JSON 视图中修正；在此之前无法通过表单修改。"),
    ("signin.help_a", "No password yet? On its first start the studio prints a one-time sign-in link for the administrator in its log. A password is set on the server with ", "还没有密码？ds-studio 首次启动时会在日志中为管理员打印一次性登录链接。在服务器上用 "),
    ("signin.help_b", "; ", " 设置密码；用 "),
    ("signin.help_c", " adds people.", " 添加用户。"),
    ("editor.unsaved", "Unsaved changes", "有未保存的修改"),
    ("editor.draft_found", "Changes you did not save were kept in this browser:", "此浏览器保留了您上次未保存的修改："),
    ("editor.draft_restore", "Restore them", "恢复这些修改"),
    ("editor.draft_changed", "Changed:", "改动："),
    ("editor.draft_more", "{n} more", "另有 {n} 处"),
    ("editor.draft_context", "the context (cluster, launcher, release)", "上下文（集群、启动器、版本）"),
    ("editor.draft_unparsed", "The kept text does not parse.", "保留的文本无法解析。"),
    ("editor.draft_choose", "(restore or discard them before editing)", "（请先恢复或丢弃，再继续编辑）"),
    ("editor.draft_discard", "Discard", "丢弃"),
    (
        "verdict.accept",
        "DeepSpeed {release} would accept this config",
        "DeepSpeed {release} 会接受此配置",
    ),
    (
        "verdict.reject",
        "DeepSpeed {release} would reject this config",
        "DeepSpeed {release} 会拒绝此配置",
    ),
    ("context.world", "World size", "GPU 总数"),
    ("context.launcher", "Launcher", "启动器"),
    ("job.fitted", "Config as run, fitted to its GPUs (the version is unchanged)", "实际运行的配置，已按 GPU 数调整（版本本身未改）"),
    ("run.fit", "Fit the batch sizes to these GPUs", "按这些 GPU 调整 batch 大小"),
    ("run.fit_needed", "The config does not fit this many GPUs as written:", "按原样，配置与这个 GPU 数不匹配："),
    ("context.schema", "JSON Schema for your editor", "编辑器用的 JSON Schema"),
    ("context.schema_long", "This release's and launcher's JSON Schema: save it and point VS Code's json.schemas (or \"$schema\") at it; see Help, \"In your editor\" (/docs/using/editors.html)", "该版本与启动器的 JSON Schema：保存后在 VS Code 的 json.schemas（或 \"$schema\"）中引用；见帮助「在编辑器中」（/docs/zh/using/editors.html）"),
    ("effective.title", "Effective config", "生效的配置"),
    ("effective.help", "What DeepSpeed will use that the config does not say itself: derived values and, under the HF Trainer or Accelerate, each \"auto\" with the argument it came from.", "配置中没有写明、但 DeepSpeed 会使用的值：推导出的值，以及在 HF Trainer 或 Accelerate 下每个 \"auto\" 被填入的值及其来源参数。"),
    ("effective.show_defaults", "Show defaults too", "同时显示默认值"),
    ("effective.auto", "filled by the launcher", "由启动器填入"),
    ("effective.derived", "derived", "推导"),
    ("effective.default", "default", "默认值"),
    ("effective.user", "set", "已设置"),
    ("sev.error", "error", "错误"),
    ("sev.warning", "warning", "警告"),
    ("sev.info", "info", "提示"),
    ("trainer.title", "Trainer arguments", "训练参数"),
    ("trainer.help", "What the HF Trainer (TrainingArguments) or the Accelerate script is given: HF compares them with the config and fills its \"auto\" values from them. Empty fields take the Trainer's defaults.", "HF Trainer（TrainingArguments）或 Accelerate 脚本收到的参数：HF 会把它们与配置比较，并用它们填充 \"auto\"。留空的字段取 Trainer 的默认值。"),
    ("trainer.mbs", "Batch / GPU", "每卡 batch"),
    ("trainer.gas", "Grad. accum.", "梯度累积"),
    ("trainer.lr", "Learning rate", "学习率"),
    ("trainer.wd", "Weight decay", "权重衰减"),
    ("trainer.beta1", "Adam β1", "Adam β1"),
    ("trainer.beta2", "Adam β2", "Adam β2"),
    ("trainer.eps", "Adam ε", "Adam ε"),
    ("trainer.clip", "Max grad norm", "梯度裁剪"),
    ("trainer.warmup", "Warmup steps (< 1: ratio)", "预热步数（< 1 为比例）"),
    ("trainer.max_steps", "Max steps", "最大步数"),
    ("trainer.epochs", "Epochs", "轮数"),
    ("trainer.samples", "Dataset size", "数据集大小"),
    ("trainer.precision", "Precision", "精度"),
    ("trainer.import", "Import training file…", "导入训练配置…"),
    ("trainer.import_help", "Paste or open a LLaMA-Factory or axolotl YAML, an accelerate config YAML, or the training command line:", "粘贴或打开 LLaMA-Factory / axolotl 的 YAML、accelerate config 的 YAML，或训练命令行："),
    ("trainer.import_apply", "Use these arguments", "使用这些参数"),
    ("trainer.imported", "Imported from", "已导入："),
    ("context.release", "DeepSpeed", "DeepSpeed 版本"),
    ("context.release_long", "The DeepSpeed release the config is judged for (the one your cluster runs)", "按哪个 DeepSpeed 版本检查配置（即集群上安装的版本）"),
    ("context.newest", "newest", "最新"),
    ("upgrade.title", "Moving from DeepSpeed {from} to {to}", "从 DeepSpeed {from} 切换到 {to}"),
    ("upgrade.title_older", "What DeepSpeed {to} does differently from {from}", "DeepSpeed {to} 与 {from} 的不同之处"),
    ("upgrade.none", "Nothing changes for this config.", "此配置不受影响。"),
    ("upgrade.apply", "Apply the fixes", "应用修复"),
    ("upgrade.keep_defaults", "Also keep the old defaults", "同时保留旧的默认值"),
    ("upgrade.dismiss", "Dismiss", "关闭"),
    ("upgrade.what_changes", "What changes in {to}?", "切换到 {to} 会有什么变化？"),
    ("upgrade.remaining", "Still rejected after the fixes; errors to fix by hand: {n}.", "应用修复后仍有 {n} 个错误需要手动处理。"),
    ("upgrade.kind.rejected", "rejected", "拒绝"),
    ("upgrade.kind.removed", "removed", "已移除"),
    ("upgrade.kind.renamed", "renamed", "改名"),
    ("upgrade.kind.ignored", "ignored", "被忽略"),
    ("upgrade.kind.default", "default changes", "默认值变化"),
    ("upgrade.kind.resolved", "now accepted", "不再报错"),
    ("context.nodes", "Nodes", "节点数"),
    ("context.gpus_per_node", "GPUs per node", "每节点 GPU 数"),
    ("context.tp_long", "Tensor parallel size", "张量并行规模"),
    ("context.pp_long", "Pipeline parallel size", "流水线并行规模"),
    ("context.sp_long", "Sequence parallel size", "序列并行规模"),
    ("context.gpu_memory", "GPU memory (GiB)", "单卡显存（GiB）"),
    ("memory.title", "Memory per GPU", "每张 GPU 的显存"),
    ("memory.peak_at", "peak at", "峰值时刻"),
    ("memory.defaults", "the bars below assume DeepSpeed's defaults (micro batch 1)", "下方各条按 DeepSpeed 默认值计算（微批 1）"),
    ("memory.parts_title", "What each line is made of", "每一行的组成"),
    ("memory.parts_note", "Per GPU, at each line's peak (the end of the forward pass, the start of the backward pass with the gradient buckets, the end of the backward pass, or the optimizer step: whichever is largest). Buckets: reduce_bucket_size 16-bit elements, twice with overlap_comm (ZeRO-1/2), or reduce_bucket_size + stage3_prefetch_bucket_size (ZeRO-3). * this config's offload line. CPU per node: the model built on the host in fp32 by each rank, or the offloaded states (DeepSpeed's estimators), whichever is larger.", "按每张 GPU 计，取每一行的峰值时刻（前向结束、反向开始并分配梯度通信桶、反向结束、优化器步骤中最大者）。通信桶：reduce_bucket_size 个 16 位元素，开启 overlap_comm 时为两份（ZeRO-1/2），或 reduce_bucket_size + stage3_prefetch_bucket_size（ZeRO-3）。* 表示当前配置的卸载行。每节点 CPU 内存：各进程在主机上以 fp32 构建的模型，或卸载的状态（按 DeepSpeed 的估算函数），取较大者。"),
    ("memory.why", "ZeRO-{stage} needs {extra} more per GPU than ZeRO-{than} here: with {gpus} GPU(s), partitioning saves {saved} but adds {added} ({parts}).", "此处 ZeRO-{stage} 每张 GPU 比 ZeRO-{than} 多用 {extra}：只有 {gpus} 张 GPU 时，切分省下 {saved}，却增加了 {added}（{parts}）。"),
    ("memory.model", "Model", "模型"),
    ("memory.custom", "Custom", "自定义"),
    ("job.s_trainable", "Trained parameters", "训练的参数"),
    ("job.s_tokens", "Tokens/s (measured by the workload)", "Tokens/s（由工作负载测得）"),
    ("job.s_tflops", "Model TFLOP/s (6N per token, LoRA 4N)", "模型 TFLOP/s（每 token 6N，LoRA 4N）"),
    ("jobs.model", "Workload / model", "工作负载 / 模型"),
    ("memory.yours", "Your model (catalog or config.json)", "你的模型（模型目录或 config.json）"),
    ("model.search", "Find a model", "查找模型"),
    ("model.which", "Model", "模型"),
    ("model.paste", "Paste a config.json…", "粘贴 config.json…"),
    ("model.config_json", "The model's config.json (from its Hugging Face repository)", "模型的 config.json（来自其 Hugging Face 仓库）"),
    ("model.seq_len", "Tokens per sample", "每个样本的 token 数"),
    ("model.lora_rank", "LoRA rank", "LoRA 秩"),
    ("model.full", "full", "全参数"),
    ("model.lora_targets", "LoRA target modules", "LoRA 目标模块"),
    ("sweep.bad_model", "Your model: pick one of the catalog or paste a config.json that reads (see the message under the model)", "你的模型：请从模型目录中选择，或粘贴可读取的 config.json（见模型下方的提示）"),
    ("run.rehearsal", "Your model, rehearsed (random weights, synthetic tokens)", "你的模型演练（随机权重、合成 token）"),
    ("memory.params", "Parameters", "参数量"),
    ("memory.seq_len", "Sequence length", "序列长度"),
    ("memory.checkpointing", "What if: activation checkpointing (a config with an activation_checkpointing section has it anyway)", "假设启用激活检查点（配置中有 activation_checkpointing 段时本就启用）"),
    ("memory.bad_params", "Give the parameter count as 7e9, 7B or 7000000000.", "请以 7e9、7B 或 7000000000 的形式填写参数量。"),
    ("memory.this_config", "this config", "当前配置"),
    ("memory.offload_optimizer", "optimizer offload", "优化器卸载"),
    ("memory.offload_all", "optimizer + parameter offload", "优化器与参数卸载"),
    ("memory.cpu_per_node", "CPU per node", "每节点 CPU 内存"),
    ("memory.no_shape", "custom count: a GPT-like shape is assumed (32 layers, width from the count, vocabulary 32,000)", "自定义参数量：假定为类 GPT 结构（32 层，宽度由参数量推得，词表 32,000）"),
    ("memory.does_not_fit", "exceeds GPU memory", "超出显存"),
    ("memory.activations", "Activations per GPU at this config's micro batch:", "当前配置微批下每张 GPU 的激活显存："),
    ("memory.note", "peak memory predicted by ds-studio's model, built from runs measured on an NVIDIA H200 (within 3% of each of them: BENCHMARKS.md); activations without the attention-score matrix (scaled_dot_product_attention), the logits and loss, torch's Adam step; TP and PP divide the parameters, ZeRO partitions over the data-parallel ranks; CPU memory is per node.", "峰值显存由 ds-studio 的模型预测，该模型依据 NVIDIA H200 上的实测构建（与每次实测相差在 3% 以内，见 BENCHMARKS.md）；激活不含注意力分数矩阵（scaled_dot_product_attention），并计入 logits 与损失、torch Adam 的优化器步骤；张量并行与流水线并行均分参数，ZeRO 在数据并行的各 rank 间切分；CPU 内存按每个节点计算。"),
    ("loading", "Loading...", "加载中..."),
    ("diag.fix", "Apply fix", "应用修复"),
    ("form.n_set", "({n} set)", "（已设置 {n} 项）"),
    ("verdict.accepted", "accepted", "接受"),
    ("verdict.rejected", "rejected", "拒绝"),
    ("shared.expires", "expires", "过期时间"),
    ("shared.download", "Download JSON", "下载 JSON"),
    ("shared.copy", "Copy JSON", "复制 JSON"),
    ("shared.downloaded", "Downloaded", "已下载"),
    ("shared.copied", "Copied", "已复制"),
    ("shared.fork", "Fork into my team", "复刻到我的团队"),
    ("shared.signin_to_fork", "Sign in to fork it into your team", "登录后可复刻到您的团队"),
    ("editor.copy_link", "Copy link", "复制链接"),
    ("editor.share_link", "Read-only link:", "只读链接："),
    ("editor.shares_hint", "A link is shown in full once, when it is created (only its start is stored); to pass it on again, create a new one.", "链接只在创建时完整显示一次（服务器只保存其开头）；如需再次分享，请新建一个链接。"),
    ("editor.link_copied", "Link copied", "链接已复制"),
    ("context.triple", "train_batch_size {tb} {op} micro {m} × grad_acc {g} × data parallel {dp}", "train_batch_size {tb} {op} 微批 {m} × 梯度累积 {g} × 数据并行 {dp}"),
    ("context.gpu_mem_unset", "not set", "未设置"),
    ("memory.unparsed", "The memory per GPU shows once the text parses.", "文本能够解析后才会显示每 GPU 显存。"),
    ("context.triple_unparsed", "Batch sizes: none while the text does not parse", "批大小：文本无法解析时无法推导"),
    ("jobs.pick", "Compare job", "对比任务"),
    ("job.s_submitted", "Submitted", "提交于"),
    ("job.s_finished", "Ended", "结束于"),
    ("form.general", "general", "常规"),
    ("run.online", "online", "在线"),
    ("run.offline", "offline", "离线"),
    ("tip.about", "About", "说明"),
    ("fix.changes", "What this fix changes", "此修复的改动"),
    ("fix.absent", "not set", "未设置"),
    ("fix.removed", "removed", "删除"),
    ("fix.text", "text", "文本"),
    ("fix.apply_all", "Apply all fixes", "应用全部修复"),
    ("memory.cpu_ram", "CPU RAM per node (GiB)", "每节点 CPU 内存（GiB）"),
    ("memory.cpu_ram_placeholder", "not checked", "不检查"),
    ("memory.cpu_ram_invalid", "CPU RAM per node: a number of GiB above 0 (nothing is checked against it until then).", "每节点 CPU 内存：须为大于 0 的 GiB 数（在此之前不做检查）。"),
    ("memory.cpu_over", "more than the node's CPU RAM", "超过节点 CPU 内存"),
    ("memory.cpu_short", "This config offloads {need} per node to CPU memory, more than the {ram} each node has: the run fails allocating its pinned buffers, or the kernel's out-of-memory killer ends it. Offload less, use more nodes, or a larger machine: the rows above give each choice's CPU figure.", "此配置每个节点需要向 CPU 内存卸载 {need}，超过每个节点的 {ram}：运行时分配锁页缓冲区会失败，或被内核的 OOM killer 终止。请减少卸载、增加节点，或使用内存更大的机器：上面各行给出了每种选择所需的 CPU 内存。"),
    ("validate.save_as_template", "Save as template…", "保存为模板…"),
    ("team.add_empty", "Type the user name of the person to add.", "请输入要添加的用户名。"),
    ("team.add_added", "{user} added as {role}.", "已添加 {user}，角色为{role}。"),
    ("team.add_changed", "{user} was already a member: role changed from {old} to {role}.", "{user} 已是成员：角色已由{old}改为{role}。"),
    ("team.add_same", "{user} is already a member with the role {role}: nothing changed.", "{user} 已是成员，角色为{role}：没有变化。"),
    ("validate.save_unparsed", "This text does not parse: it will be saved as written, and DeepSpeed would reject it until it is fixed.", "这段文本无法解析：它会按原样保存，在修正之前 DeepSpeed 会拒绝它。"),
    ("context.world_invalid", "World size: a whole number, 1 or more (still judged for {n}).", "GPU 总数：须为不小于 1 的整数（仍按 {n} 校验）。"),
    ("validate.save_hint", "The text is kept as written (comments too), with the GPUs, launcher and release chosen here.", "文本按原样保存（包括注释），并带上这里选择的 GPU 数、启动器和版本。"),
    ("job.details", "Command, fit and preflight", "命令、适配与预检"),
    ("launch.llamafactory", "LLaMA-Factory (the imported file)", "LLaMA-Factory（导入的文件）"),
    ("launch.axolotl", "axolotl (the imported file)", "axolotl（导入的文件）"),
    ("launch.llamafactory_note", "The imported file is LLaMA-Factory's: save this config beside it and point the YAML's deepspeed: at it, then launch the YAML (train.yaml stands for your file).", "导入的是 LLaMA-Factory 的文件：把此配置保存在它旁边，并让 YAML 中的 deepspeed: 指向它，然后启动该 YAML（train.yaml 代表你的文件）。"),
    ("launch.axolotl_note", "The imported file is axolotl's: save this config beside it and point the YAML's deepspeed: at it, then launch the YAML (train.yaml stands for your file).", "导入的是 axolotl 的文件：把此配置保存在它旁边，并让 YAML 中的 deepspeed: 指向它，然后启动该 YAML（train.yaml 代表你的文件）。"),
    ("fix.becomes", " (= {value}, from {from})", "（= {value}，来自 {from}）"),
    ("fix.becomes_default", " (= {value}, from {from}, which your arguments do not set: its default is used)", "（= {value}，来自 {from}：你的参数没有设置它，使用其默认值）"),
    ("fix.apply_all_help", "These fixes change different keys and are applied together (fixes that touch the same key are left for you to apply one by one):", "这些修复修改不同的键，将一起应用（修改同一个键的修复请逐个应用）："),
    ("fix.apply_these", "Apply these changes", "应用这些改动"),
    ("fix.cancel", "Cancel", "取消"),
    ("fix.applied", "Fixes applied: {n} · Ctrl+Z undoes them", "已应用修复：{n} 项 · Ctrl+Z 可撤销"),
    ("diag.filter", "Show diagnostics by severity", "按严重程度筛选诊断"),
    ("diag.errors", "Errors", "错误"),
    ("diag.warnings", "Warnings", "警告"),
    ("diag.hints", "Hints", "提示"),
    ("diag.show_all", "show each", "逐条显示"),
    ("diag.switch_hf", "Switch the launcher to HF Trainer (it fills \"auto\")", "将启动器切换为 HF Trainer（它会填充 \"auto\"）"),
    ("diag.list", "Diagnostics", "诊断信息"),
    (
        "form.search",
        "Find a key (e.g. bucket)",
        "查找配置项（如 bucket）",
    ),
    ("form.only_set", "Only what is set", "只显示已设置的项"),
    ("editor.view_form", "Form", "表单"),
    ("editor.view_json", "JSON", "JSON"),
    ("editor.view_split", "Side by side", "并排"),
    (
        "shared.readonly",
        "Read-only shared version",
        "只读分享版本",
    ),
    ("editor.share", "Create read-only link", "创建只读链接"),
    ("editor.fork", "Fork", "复刻"),
    ("editor.diff_prev", "diff with previous", "与上一版本对比"),
    ("diff.release", "Judged for DeepSpeed {from} → {to}: the diagnostics below compare the two releases' verdicts.", "检查所用的 DeepSpeed 版本：{from} → {to}；下面的诊断对比的是两个版本各自的结果。"),
    ("diff.changes", "Changes", "修改"),
    ("diff.introduced", "Diagnostics introduced", "新增的诊断"),
    ("diff.resolved", "Diagnostics resolved", "已解决的诊断"),
    ("diff.none", "None.", "无。"),
    ("diff.text", "Text diff", "文本差异"),
    ("nav.jobs", "Jobs", "任务"),
    ("nav.settings", "Settings", "设置"),
    ("nav.help", "Help", "帮助"),
    ("diag.code_help", "What this code means (the book)", "该代码的含义（手册）"),
    ("editor.fork_made", "the fork was created with the base version only", "复刻已创建，但只含基础版本"),
    ("form.auto_title", "\"auto\": the HF Trainer / Accelerate fills it in; unchecking puts back the value it replaced", "\"auto\"：由 HF Trainer / Accelerate 填入；取消勾选会恢复原来的值"),
    ("form.member_name", "name", "名称"),
    ("form.member_value", "value (JSON)", "值（JSON）"),
    ("form.remove", "Remove", "删除"),
    ("form.add_member", "Add to", "添加到"),
    ("form.add_failed", "Not added: the config text must parse and this part of it must be an object.", "未添加：配置文本必须能解析，且这一部分必须是对象。"),
    ("editor.save_as_fork", "Save mine as a fork", "将我的修改另存为复刻"),
    ("editor.diff_from", "From", "从"),
    ("editor.diff_to", "To", "到"),
    ("editor.compare", "Compare versions", "比较版本"),
    ("templates.all_teams", "All teams", "全部团队"),
    ("presets.title", "Start from a preset", "从预设开始"),
    ("presets.hint", "Each preset is accepted by DeepSpeed 0.19.8 at 8 GPUs; Run fits it to a smaller runner. It becomes a new template, under a name you choose.", "每个预设都能被 DeepSpeed 0.19.8 在 8 张 GPU 下接受；运行时可适配到更小的运行器。选用后会以您指定的名称新建模板。"),
    ("presets.message", "from preset {id}", "来自预设 {id}"),
    ("presets.name", "Name of the new template", "新模板名称"),
    ("presets.create", "Create template", "创建模板"),
    ("presets.use", "Use this preset", "使用此预设"),
    ("nav.team", "Team", "团队"),
    ("diff.back", "Back to the template", "返回模板"),
    ("diff.gpus", "GPUs", "GPU 总数"),
    ("diff.tp", "Tensor parallel", "张量并行"),
    ("diff.pp", "Pipeline parallel", "流水线并行"),
    ("diff.sp", "Sequence parallel", "序列并行"),
    ("diff.trainer_args", "Trainer arguments", "训练参数"),
    ("diff.context", "Context changes (where the versions run)", "上下文变化（版本的运行环境）"),
    ("nav.user_name", "user name", "用户名"),
    ("settings.signed_in_as", "Signed in as user name", "当前登录的用户名："),
    ("users.join_team", "Joins team", "加入团队"),
    ("users.no_team", "(no team yet)", "（暂不加入团队）"),
    ("signin.link_dead", "That sign-in link was already used, has expired, or was replaced by a newer one. Sign in with your password, or ask an administrator for a new link.", "该登录链接已被使用、已过期或已被新链接取代。请用密码登录，或向管理员索取新的链接。"),
    ("users.reset_confirm", "Reset this password? It is removed at once, the user is signed out everywhere and gets back in only by the new link you hand over.", "重置此密码？密码会立即被删除，该用户在所有地方退出登录，只能通过您转交的新链接重新登录。"),
    ("users.disable_confirm", "Disable this user? They are signed out at once and cannot sign in, and their tokens stop working (nothing is deleted; Enable undoes it).", "停用此用户？该用户会立即退出登录且无法再登录，其令牌也会失效（不会删除任何内容；「启用」可撤销）。"),
    ("users.yes", "Yes", "确定"),
    ("editor.fork_no_team", "You are an editor in no team, so there is nowhere to fork it: ask a team administrator for the editor role.", "您在任何团队中都不是编辑者，无法复刻到任何地方：请向团队管理员申请编辑者角色。"),
    ("templates.in_team", "in team", "所属团队"),
    ("trainer.import_choose", "Choose a file…", "选择文件…"),
    ("run.launcher_hf", "Runs under the HF Trainer: torchrun starts the workload as a transformers Trainer, which fills each \"auto\" from the trainer arguments (the job page shows what it filled).", "在 HF Trainer 下运行：torchrun 以 transformers Trainer 启动工作负载，它会用训练参数填充每个 \"auto\"（任务页面会显示填入的值）。"),
    ("run.launcher_accelerate", "Runs under Accelerate: accelerate launch with the accelerate config of the Launch panel; the script fills each \"auto\" from its arguments (the job page shows what it filled).", "在 Accelerate 下运行：用「启动」面板中的 accelerate 配置执行 accelerate launch；脚本会用它的参数填充每个 \"auto\"（任务页面会显示填入的值）。"),
    ("run.launcher_deepspeed", "Runs under the deepspeed launcher: DeepSpeed reads the config file as saved.", "在 deepspeed 启动器下运行：DeepSpeed 按保存的原样读取配置文件。"),
    ("editor.revoke_confirm", "Revoke this link? Whoever has it can no longer open the version.", "撤销此链接？持有链接的人将无法再打开该版本。"),
    ("role.viewer", "viewer", "查看者"),
    ("role.editor", "editor", "编辑者"),
    ("role.admin", "administrator", "管理员"),
    ("team.title", "Team", "团队"),
    ("team.teams", "Teams", "团队列表"),
    ("team.none", "You are not in any team yet, so there are no templates or jobs to show. Ask an administrator of this studio to add you to a team.", "您还不属于任何团队，因此没有可显示的模板和任务。请联系本工作台的管理员将您加入一个团队。"),
    ("team.none_admin", "There is no team yet: create one below, then add members to it.", "还没有团队：请在下方创建一个，然后添加成员。"),
    ("team.members", "Members", "成员"),
    ("team.no_team_title", "No team yet", "还没有团队"),
    ("team.only_admins", "Only the team's administrators change its members.", "只有团队管理员可以管理成员。"),
    ("team.user", "User name", "用户名"),
    ("team.role", "Role", "角色"),
    ("team.you", "(you)", "（您）"),
    ("team.remove", "Remove", "移除"),
    (
        "team.last_admin",
        "The team's only admin: make another member admin before removing them",
        "团队唯一的管理员：请先将另一位成员设为管理员，再移除此人",
    ),
    ("team.add_user", "Add a member by user name", "按用户名添加成员"),
    ("team.add", "Add", "添加"),
    ("team.settings", "This team", "团队设置"),
    ("team.name", "Team name", "团队名称"),
    ("team.rename", "Rename", "重命名"),
    ("team.delete", "Delete team…", "删除团队…"),
    ("team.delete_confirm", "Delete the team with all its templates, versions, share links and runs? This cannot be undone:", "删除此团队及其全部模板、版本、分享链接和运行记录？此操作无法撤销："),
    ("team.delete_yes", "Delete the team", "删除团队"),
    ("team.cancel", "Cancel", "取消"),
    ("team.new_team", "New team", "新建团队"),
    ("team.create_team", "Create team", "创建团队"),
    ("users.title", "Users of this studio", "本工作台的用户"),
    ("users.hint", "As a server administrator you create users and hand them a one-time sign-in link (valid 24 hours); after using it they set their own password.", "作为服务器管理员，您可以创建用户并给他们一个一次性登录链接（24 小时内有效）；用户使用后自行设置密码。"),
    ("users.display_name", "Display name", "显示名称"),
    ("users.status", "Status", "状态"),
    ("users.admin", "server administrator", "服务器管理员"),
    ("users.disabled", "disabled", "已停用"),
    ("users.no_password", "no password yet", "尚未设置密码"),
    ("users.reset", "Reset password (new link)", "重置密码（新链接）"),
    ("users.link", "Sign-in link", "登录链接"),
    ("users.make_admin", "Make administrator", "设为管理员"),
    ("users.unmake_admin", "Remove administrator", "取消管理员"),
    ("users.enable", "Enable", "启用"),
    ("users.disable", "Disable", "停用"),
    ("users.new", "New user", "新建用户"),
    ("users.name_rule", "1-64 letters, digits, -, _, . or @", "1-64 个字母、数字、-、_、. 或 @"),
    ("users.password_optional", "Password (optional)", "密码（可选）"),
    ("users.make_admin_new", "Server administrator", "服务器管理员"),
    ("users.new_hint", "Without a password, a one-time sign-in link is made for you to hand over. The user joins the team chosen here with the role chosen (or no team, to add them later under Members).", "不填密码时，会生成一个一次性登录链接，由您转交给对方。用户会以所选角色加入此处选择的团队（也可暂不加入，稍后在「成员」中添加）。"),
    ("users.create", "Create user", "创建用户"),
    ("users.created", "Created user {name}.", "已创建用户 {name}。"),
    ("users.link_for", "One-time sign-in link for", "一次性登录链接，用户"),
    ("users.link_once", "(it works once; hand it over privately):", "（只能使用一次，请私下转交）："),
    ("users.copied", "Copied ✓", "已复制 ✓"),
    ("users.link_expires", "expires", "过期时间："),
    ("settings.copy", "Copy", "复制"),
    ("settings.password", "Password", "密码"),
    ("settings.no_password", "You signed in with a one-time link and have no password yet: set one, or you cannot sign in again after signing out.", "您是通过一次性链接登录的，还没有密码：请设置一个，否则退出后将无法再次登录。"),
    ("settings.old_password", "Current password", "当前密码"),
    ("settings.new_password", "New password (at least 8 characters)", "新密码（至少 8 个字符）"),
    ("settings.new_password_again", "New password again", "再次输入新密码"),
    ("settings.set_password", "Set password", "设置密码"),
    ("settings.change_password", "Change password", "修改密码"),
    ("settings.password_done", "Password saved. Your other sessions were signed out.", "密码已保存。您的其他会话已退出登录。"),
    ("settings.password_mismatch", "The two new passwords differ.", "两次输入的新密码不一致。"),
    ("banner.no_password", "You have no password yet: after signing out you could not sign in again.", "您还没有设置密码：退出后将无法再次登录。"),
    ("banner.set_password", "Set a password", "设置密码"),
    ("banner.later", "Later", "稍后"),
    ("editor.read_only", "Read only: you are {role} in team {team}. Saving, sharing and running need the editor role (ask a team administrator); you can still compare versions and fork it into a team where you are an editor.", "只读：您在团队 {team} 中是{role}。保存、分享和运行需要编辑者角色（请联系团队管理员）；您仍可比较版本，或将其复刻到您担任编辑者的团队。"),
    ("editor.no_role", "not a member", "非成员"),
    ("settings.title", "Settings", "设置"),
    ("settings.language", "Language", "界面语言"),
    ("settings.tokens", "API tokens", "API 令牌"),
    ("settings.tokens_hint", "For the CLI and scripts: send it in the header Authorization: Bearer <token>. A token is shown once, when it is created.", "供命令行与脚本使用：在请求头 Authorization: Bearer <令牌> 中发送。令牌只在创建时显示一次。"),
    ("settings.token_name", "Token name", "令牌名称"),
    ("settings.token_expires", "Expires (optional)", "过期时间（可选）"),
    ("settings.create_token", "Create token", "创建令牌"),
    ("settings.new_token", "Copy it now, it will not be shown again:", "请立即复制，之后不会再显示："),
    ("settings.no_tokens", "No tokens yet.", "还没有令牌。"),
    ("settings.last_used", "last used", "上次使用"),
    ("settings.never_used", "never used", "从未使用"),
    ("settings.expires", "expires", "过期于"),
    ("settings.sign_in_first", "Sign in to manage API tokens.", "登录后才能管理 API 令牌。"),
    ("jobs.title", "Jobs", "训练任务"),
    (
        "jobs.empty",
        "No jobs yet: open a template and press Run.",
        "还没有任务：打开一个模板并点击“运行”。",
    ),
    ("jobs.state", "State", "状态"),
    ("jobs.config", "Config", "配置"),
    ("jobs.workload", "Workload", "工作负载"),
    ("jobs.runner", "Runner", "运行器"),
    ("jobs.launcher", "Launcher", "启动器"),
    ("job.launcher", "Launcher", "启动器"),
    ("job.filled", "Filled by the launcher", "由启动器填入"),
    ("job.filled_key", "Key", "键"),
    ("job.filled_value", "Predicted", "预测值"),
    ("job.filled_from", "From", "来源"),
    ("job.filled_got", "DeepSpeed received", "DeepSpeed 收到"),
    ("job.handed", "The dict DeepSpeed received", "DeepSpeed 收到的字典"),
    ("job.handed_pending", "What DeepSpeed received is stored when the job ends.", "任务结束时会保存 DeepSpeed 收到的内容。"),
    ("jobs.duration", "Duration", "耗时"),
    ("job.title", "Job", "任务"),
    ("job.cancel", "Cancel job", "取消任务"),
    ("job.cancel_confirm", "Stop this job? What it has trained so far is lost.", "停止这个任务？已训练的进度将会丢失。"),
    ("job.command", "Command it ran:", "实际运行的命令："),
    ("job.log_search", "Search the log", "搜索日志"),
    ("job.log_download", "Download the whole log", "下载完整日志"),
    ("job.s_state", "State", "状态"),
    ("job.s_elapsed", "Elapsed", "已用时间"),
    ("job.s_runner", "Runner", "运行器"),
    ("job.s_world", "Nodes × GPUs", "节点 × GPU"),
    ("job.s_final_loss", "Final loss", "最终损失"),
    ("job.s_latest_loss", "Latest loss", "最新损失"),
    ("job.s_best_loss", "Best loss", "最佳损失"),
    ("job.s_samples", "Samples/s (median)", "样本/秒（中位数）"),
    ("job.s_samples_run", "Samples/s (whole run, measured by the workload)", "样本/秒（整个运行，由工作负载测得）"),
    ("job.s_peak", "Peak memory", "峰值内存"),
    ("job.s_estimated", "estimate per GPU", "每 GPU 估算"),
    ("job.s_rss", "RSS of rank 0's process", "rank 0 进程常驻内存"),
    ("job.s_gpu_alloc", "GPU max allocated", "GPU 最大分配"),
    ("job.log", "Log", "日志"),
    ("job.loss", "Training loss", "训练损失"),
    ("job.lr", "Learning rate", "学习率"),
    ("job.throughput", "Samples per second", "每秒样本数"),
    ("job.memory", "Memory of the job's processes (MiB)", "任务全部进程的内存（MiB）"),
    ("job.timings", "Per-step timings (ms)", "每步耗时（毫秒）"),
    ("editor.run", "Run", "运行"),
    ("validate.config_label", "DeepSpeed config to check (JSON)", "待检查的 DeepSpeed 配置（JSON）"),
    ("editor.sweep", "Sweep…", "参数扫描…"),
    ("editor.split_verdict", "Errors {errors} · Warnings {warnings}: details below", "错误 {errors} · 警告 {warnings}：详情见下方"),
    ("sweep.title", "Sweep", "参数扫描"),
    ("sweep.meta", "points: {points}, as jobs: {runs} · {workload} · steps per point: {steps}", "点数：{points}，作为任务运行：{runs} · {workload} · 每点 {steps} 步"),
    ("sweep.base_version", "base version", "基础版本"),
    ("sweep.runners", "runners:", "运行器："),
    ("sweep.any_runner", "any", "任意"),
    ("sweep.keeps_batch", "global batch kept", "保持全局批大小"),
    ("sweep.early_stop_on", "slow points stopped early", "过慢的点提前停止"),
    ("sweep.cancel", "Cancel sweep", "取消参数扫描"),
    ("sweep.save_best", "Save the best as a new version", "将最佳配置保存为新版本"),
    ("sweep.best_so_far", "Best so far: #{n} {values} at {sps} samples/s", "目前最佳：#{n} {values}，{sps} 样本/秒"),
    ("sweep.best_line", "Best: #{n} {values} at {sps} samples/s", "最佳：#{n} {values}，{sps} 样本/秒"),
    ("sweep.job_word", "job", "任务"),
    ("sweep.cancel_confirm", "Cancel every point of this sweep that has not ended?", "取消此参数扫描中所有尚未结束的点？"),
    ("sweep.samples_unit", "samples/s", "样本/秒"),
    ("sweep.changes", "Changes", "改动"),
    ("sweep.steps_help", "Short points measure throughput noisily (the first steps include warm-up): 20 steps or more give steadier figures.", "步数太少时吞吐量测得不稳（最初几步包含预热）：20 步以上更稳定。"),
    ("sweep.none_succeeded", "No point succeeded: each point's reason is in the table.", "没有成功的点：每个点的原因见下表。"),
    ("sweep.save_best_changes", "The new version changes, against the sweep's base version:", "新版本相对参数扫描基础版本的改动："),
    ("sweep.viewer", "You are a viewer in this template's team: its editors start sweeps. Earlier sweeps are below.", "你在此模板所属团队中是查看者：参数扫描由编辑者启动。下方是以往的扫描。"),
    ("sweep.save_best_values", "The point's values (under the HF Trainer or Accelerate, those HF fills are saved as training arguments; the config keeps \"auto\"):", "该点的取值（在 HF Trainer 或 Accelerate 下，由 HF 填充的值会保存为训练参数，配置保留 \"auto\"）："),
    ("sweep.save_best_confirm", "Save version", "保存版本"),
    ("sweep.saved", "Saved as version {v}.", "已保存为版本 {v}。"),
    ("sweep.open_editor", "Open in the editor", "在编辑器中打开"),
    ("sweep.chart_title", "Samples/s by micro batch", "各微批大小的样本/秒"),
    ("sweep.chart_x", "micro batch per GPU", "每卡微批大小"),
    ("sweep.rank", "Rank", "排名"),
    ("sweep.state", "State", "状态"),
    ("sweep.estimate", "Estimated peak", "预计峰值"),
    ("sweep.measured", "Measured peak", "实测峰值"),
    ("sweep.memory_note", "Estimated peak: the memory model's bytes per GPU for the point's config. Measured peak: on a GPU, DeepSpeed's max allocated (the same bytes, so the two compare); on a CPU, the resident memory of rank 0's process, torch and Python included, which the estimate does not count.", "预计峰值：内存模型按该点配置估算的每张 GPU 字节数。实测峰值：GPU 上为 DeepSpeed 报告的最大分配显存（与估算口径相同，可直接比较）；CPU 上为 rank 0 进程的常驻内存，包含 torch 与 Python 本身，估算不计这些。"),
    ("sweep.samples", "Samples/s", "样本/秒"),
    ("sweep.tokens", "Tokens/s", "词元/秒"),
    ("sweep.tflops", "Model TFLOP/s per GPU", "每卡模型 TFLOP/s"),
    ("sweep.job", "Job", "任务"),
    ("sweep.reason", "Why", "原因"),
    ("sweep.pruned", "pruned", "已剔除"),
    ("sweep.finished", "finished", "已完成"),
    ("sweep.new_title", "New sweep of {template} (version {v})", "新建参数扫描：{template}（版本 {v}）"),
    ("sweep.new_intro", "Runs a grid of configs, each point a short job on the runners, and ranks them by throughput. Points DeepSpeed would reject, or that do not fit the runners' memory, are left out before anything runs.", "运行一组配置网格，每个点是运行器上的一个短任务，并按吞吐量排名。DeepSpeed 会拒绝的点，或放不下运行器内存的点，会在运行前被剔除。"),
    ("sweep.grid", "Grid: one key per line, KEY=V1,V2,…", "网格：每行一个键，KEY=V1,V2,…"),
    ("sweep.grid_help", "Any config key, dotted (zero_optimization.offload_optimizer.device=cpu,none); at most 8 keys and 256 points.", "可用任意配置键，以点分隔（zero_optimization.offload_optimizer.device=cpu,none）；最多 8 个键、256 个点。"),
    ("sweep.size", "Workload", "工作负载"),
    ("sweep.steps", "Steps per point", "每点步数"),
    ("sweep.keep", "Keep the global batch (accumulation follows the micro batch)", "保持全局批大小（梯度累积随微批调整）"),
    ("sweep.early_stop", "Stop points under half the best early", "提前停止不到最佳一半的点"),
    ("sweep.name", "Name", "名称"),
    ("sweep.runners_pick", "Runners", "运行器"),
    ("sweep.runners_help", "None checked: any runner.", "不勾选：任意运行器。"),
    ("sweep.start", "Start sweep ({n} to run)", "开始参数扫描（运行 {n} 个点）"),
    ("sweep.earlier", "Earlier sweeps of this template", "此模板以前的参数扫描"),
    ("sweep.best", "best", "最佳"),
    ("sweep.plan_summary", "{runs} of {total} points will run.", "{total} 个点中 {runs} 个将运行。"),
    ("sweep.plan_state", "Plan", "计划"),
    ("sweep.will_run", "runs", "将运行"),
    ("sweep.bad_steps", "Steps per point must be a whole number from 1.", "每点步数须为从 1 开始的整数。"),
    ("run.title", "Run version", "运行版本"),
    (
        "run.unsaved",
        "Unsaved changes are not part of the run: what follows (batch, memory, fixes) is the saved version's. Save first to run them.",
        "未保存的修改不会参与运行：以下内容（batch、内存、修复建议）均针对已保存的版本。要运行这些修改请先保存。",
    ),
    ("run.workload", "Workload", "工作负载"),
    (
        "run.script",
        "My script on the runner host",
        "运行器主机上的脚本",
    ),
    ("run.entrypoint", "Script path", "脚本路径"),
    ("run.args", "Arguments", "参数"),
    ("run.gpus", "GPUs", "GPU 数"),
    ("run.steps", "Steps", "步数"),
    ("run.runner", "Runner", "运行器"),
    ("run.any_runner", "Any runner", "任意运行器"),
    ("run.submit", "Run", "运行"),
    ("run.memory_fits", "fits", "放得下"),
    ("run.memory_over", "does not fit: it would run out of memory", "放不下：会内存不足"),
    ("run.run_fitted", "Save and run this version", "保存为新版本并运行"),
    ("run.force", "Run this version anyway", "仍然运行此版本"),
    ("run.refused_memory", "Not run: the studio estimates it would run out of memory on this runner. Save and run a version that fits (above), or tick \"Run this version anyway\".", "未运行：工作台估算它在此运行器上会内存不足。请保存并运行放得下的版本（见上方），或勾选“仍然运行此版本”。"),
    ("run.refused_memory_none", "Not run: the studio estimates it would run out of memory on this runner, and no smaller micro batch, stage or offload fits it. Use more GPUs, turn on activation checkpointing, pick a smaller workload, or tick \"Run this version anyway\".", "未运行：工作台估算它在此运行器上会内存不足，且更小的微批、更高的 ZeRO 阶段或卸载都放不下。请使用更多 GPU、启用激活检查点、选择更小的工作负载，或勾选“仍然运行此版本”。"),
    ("run.close", "Close", "关闭"),
    ("job.estimate", "Estimated peak per GPU:", "每 GPU 估算峰值："),
    ("job.cancelling", "Cancel requested: the runner stops the job (one still in preflight stops when its check ends).", "已请求取消：运行器会停止该任务（仍在预检的任务会在预检结束后停止）。"),
    ("job.estimate_vs", "estimate vs measured:", "估算相对实测："),
    ("job.estimate_parts", "What the estimate is made of", "估算的组成"),
    ("oom.title", "Out of memory", "内存不足（OOM）"),
    ("failure.try", "Try:", "可以尝试："),
    ("oom.gpu", "The training process ran out of GPU memory. ds-studio estimates {need} per GPU for this config; {device} gives {has} to a job.", "训练进程显存不足。ds-studio 估算此配置每张 GPU 需要 {need}；{device} 可供任务使用 {has}。"),
    ("oom.host", "The training process ran out of host memory. ds-studio estimates {need} per rank for this config; {device} gives {has} to each rank.", "训练进程主机内存不足。ds-studio 估算此配置每个进程需要 {need}；{device} 可为每个进程提供 {has}。"),
    ("oom.unknown_device", "The training process ran out of memory. ds-studio estimates {need} per GPU for this config; the runner did not report its memory, so no fitted version can be made from it.", "训练进程内存不足。ds-studio 估算此配置每张 GPU 需要 {need}；运行器未报告其内存，因此无法据此生成放得下的版本。"),
    ("oom.script", "The training process ran out of memory. ds-studio predicts the memory of its built-in workload only: for a script of your own, lower the micro batch (keeping the global batch through gradient accumulation), raise the ZeRO stage or offload to CPU memory.", "训练进程内存不足。ds-studio 只能预测内置工作负载的显存：对于自己的脚本，请减小微批（通过梯度累积保持全局 batch）、提高 ZeRO 阶段或卸载到 CPU 内存。"),
    ("oom.device", "{device} gives {has} to a job.", "{device} 可供任务使用 {has}。"),
    ("oom.none_fits", "No smaller micro batch, ZeRO stage or offload fits this runner: use more GPUs, or activation checkpointing.", "在此运行器上，更小的微批、更高的 ZeRO 阶段或卸载都放不下：请使用更多 GPU，或启用激活检查点。"),
    ("oom.fit", "Make a version that fits", "生成放得下的新版本"),
    ("oom.saved", "Saved as version {n}.", "已保存为版本 {n}。"),
    ("oom.open_editor", "Open it in the editor", "在编辑器中打开"),
    ("job.activations", "activations", "激活值"),
    ("job.measured", "Measured peak:", "实测峰值："),
    ("job.memory_peak_note", "The run's measured peak, {peak}, fell between the chart's samples (its highest: {drawn}): the chart draws memory every few seconds, the peak is the run's own maximum.", "本次运行实测峰值 {peak} 落在图表的采样点之间（图中最高 {drawn}）：图表每隔几秒采样一次内存，峰值是运行自身记录的最大值。"),
    (
        "job.measured_note",
        "(on a GPU: DeepSpeed's max allocated; on a CPU: the resident memory of the process, torch included)",
        "（GPU 上为 DeepSpeed 报告的最大分配显存；CPU 上为进程常驻内存，含 torch 本身）",
    ),
    ("jobs.compare", "Compare selected", "对比所选任务"),
    ("io.import", "Import file…", "导入文件…"),
    ("editor.shares", "Read-only links", "只读链接"),
    ("version.permalink", "Permalink of this version", "此版本的永久链接"),
    ("version.open_editor", "Open in the editor", "在编辑器中打开"),
    ("editor.revoke", "Revoke", "作废"),
    ("editor.revoked", "revoked", "已撤销"),
    ("io.download", "Download JSON", "下载 JSON"),
    ("io.copy", "Copy JSON", "复制 JSON"),
    ("io.copied", "Copied to the clipboard", "已复制到剪贴板"),
    ("compare.title", "Compare runs", "对比运行"),
    ("launch.title", "Launch commands for your cluster", "在你的集群上启动的命令"),
    ("launch.note", "For the context's nodes × GPUs; save the config as ds_config.json beside the script. Past one node, replace the host names (node-0, ...) with yours.", "按上下文中的节点数 × GPU 数生成；请把配置保存为脚本旁的 ds_config.json。多节点时请把主机名（node-0 等）换成你的。"),
    ("launch.script", "Training script", "训练脚本"),
    ("launch.deepspeed", "DeepSpeed's launcher", "DeepSpeed 启动器"),
    ("launch.torchrun", "torchrun (on every node)", "torchrun（每个节点上运行）"),
    ("launch.accelerate_yaml", "accelerate_config.yaml", "accelerate_config.yaml"),
    ("launch.hostfile", "hostfile (replace node-0, node-1 ... with your hosts)", "hostfile（请把 node-0、node-1 ... 换成你的主机名）"),
    ("launch.sbatch", "Slurm: job.sh for sbatch (what ds-studio's Slurm runner submits)", "Slurm：用于 sbatch 的 job.sh（即 ds-studio 的 Slurm 运行器所提交的脚本）"),
    ("launch.accelerate", "accelerate launch", "accelerate launch"),
    ("launch.copy", "Copy", "复制"),
    ("launch.copied", "Copied", "已复制"),
    ("compare.run", "Run", "运行"),
    ("compare.duration", "Duration", "耗时"),
    ("compare.diff", "What differs in the configs they ran (each against the first)", "各次运行所用配置的差异（均与第一个对比）"),
    ("compare.same", "The same config.", "配置相同。"),
    ("compare.version_diff", "What differs in their saved versions (before fitting to the runner)", "各自保存的版本之间的差异（适配运行器之前）"),
    ("axis.samples", "samples", "样本"),
    ("axis.steps", "steps", "步"),
    ("axis.s", "s", "秒"),
    ("chart.axis", "x axis", "横轴"),
    ("chart.smoothing", "Smoothing", "平滑"),
    ("chart.hover_hint", "Hover a chart (or focus it and use ← →) to read values.", "将鼠标悬停在图表上（或聚焦后按 ← →）查看数值。"),
    ("state.not_found", "Not found", "未找到"),
    ("state.not_found_why", "does not exist, or your account cannot see it.", "不存在，或您的账号无权查看。"),
    ("state.no_page", "There is no page at", "没有这个页面："),
    ("state.page_load_failed", "This page could not be loaded", "无法加载此页面"),
    ("state.page_load_why", "Its code could not be fetched from the studio: the connection may have dropped, or the studio was upgraded since this tab opened. Reloading fetches the current version.", "未能从 ds-studio 获取此页面的代码：可能是网络中断，或者在此标签页打开后 ds-studio 已升级。重新加载即可获取当前版本。"),
    ("state.reload", "Reload", "重新加载"),
    ("state.signin_title", "Sign in to see this page", "登录后查看此页面"),
    ("state.signin_why", "Templates, versions and jobs belong to teams: sign in with your account and you come back here.", "模板、版本和任务属于团队：请用您的账号登录，登录后会回到这里。"),
    ("state.signin_public", "Validating a config needs no account:", "校验配置无需账号："),
    ("state.template", "Template", "模板"),
    ("state.share_link", "This share link (revoked or expired links stop working)", "此分享链接（已撤销或已过期的链接会失效）"),
    ("details.title", "Name, description and tags", "名称、描述和标签"),
    ("details.name", "Name", "名称"),
    ("details.description", "Description", "描述"),
    ("details.tags", "Tags", "标签"),
    ("details.tags_hint", "comma separated: llama, zero3", "用逗号分隔：llama, zero3"),
    ("details.save", "Save details", "保存信息"),
    ("details.saved", "Saved", "已保存"),
    ("details.delete", "Delete template…", "删除模板…"),
    ("details.delete_what", "Delete “{name}”? Its {versions} version(s), {shares} share link(s) and {runs} run(s) are deleted with it. This cannot be undone.", "删除“{name}”？它的 {versions} 个版本、{shares} 个分享链接和 {runs} 次运行将一并删除，且无法恢复。"),
    ("details.admins_delete", "Only an admin of the team can delete this template.", "只有团队管理员可以删除此模板。"),
    ("details.delete_confirm", "Delete for good", "永久删除"),
    ("state.version", "Version", "版本"),
    ("state.version_of_template", "Version {n} of template {id}", "模板 {id} 的版本 {n}"),
    ("state.job", "Job", "任务"),
    ("state.queued", "queued", "排队中"),
    ("state.running", "running", "运行中"),
    ("state.succeeded", "succeeded", "成功"),
    ("state.failed", "failed", "失败"),
    ("state.cancelled", "cancelled", "已取消"),
    ("state.lost", "lost", "已失联"),
    ("state.unknown", "unknown", "未知"),
    ("jobs.id", "#", "#"),
    ("jobs.name", "Name", "名称"),
    ("jobs.release", "DeepSpeed", "DeepSpeed"),
    ("jobs.world", "World", "总卡数"),
    ("jobs.zero", "ZeRO", "ZeRO"),
    ("jobs.precision", "Precision", "精度"),
    ("jobs.offload", "Offload", "卸载"),
    ("jobs.micro", "Micro batch", "微批大小"),
    ("jobs.final_loss", "Final loss", "最终损失"),
    ("jobs.samples", "Samples/s", "样本/秒"),
    ("jobs.slow", "Under half the median of the {n} other runs of this config, workload and world on this runner ({median} samples/s). A runner's first run also builds DeepSpeed's ops and warms its caches; run it again to compare.", "不到此运行器上同一配置、工作负载与规模的其他 {n} 次运行中位数（{median} 样本/秒）的一半。运行器上的第一次运行还要编译 DeepSpeed 的算子并预热缓存；再运行一次即可比较。"),
    ("jobs.peak", "Peak memory", "峰值内存"),
    ("jobs.again", "Run again", "再次运行"),
    ("jobs.secret_value", "This run had a secret variable; its value is not kept. Value of", "该运行使用了保密变量，其值不会保留。请输入该变量的值："),
    ("jobs.search", "Search", "搜索"),
    ("jobs.ignored", "Left out of this view (the rest of the link applies):", "以下参数已忽略（链接中的其他条件仍然生效）："),
    ("jobs.any", "any", "全部"),
    ("jobs.offload_none", "none", "无"),
    ("jobs.offload_any", "any offload", "任意卸载"),
    ("jobs.offload_cpu", "to CPU", "卸载到 CPU"),
    ("jobs.offload_nvme", "to NVMe", "卸载到 NVMe"),
    ("jobs.tag", "Tag", "标签"),
    ("jobs.clear_filters", "Clear filters", "清除筛选"),
    ("jobs.pages", "Pages", "分页"),
    ("jobs.prev", "← Previous", "← 上一页"),
    ("jobs.next", "Next →", "下一页 →"),
    ("jobs.no_match", "No run matches these filters.", "没有符合筛选条件的运行。"),
    ("job.labels", "Name, note and tags", "名称、备注和标签"),
    ("job.notify", "Notify me when it ends (desktop notification)", "结束时通知我（桌面通知）"),
    ("job.name", "Name", "名称"),
    ("job.note", "Note", "备注"),
    ("job.tags", "Tags (comma-separated)", "标签（逗号分隔）"),
    ("job.save_labels", "Save", "保存"),
    ("job.saved", "Saved", "已保存"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_has_both_languages_and_keys_are_unique() {
        for (k, en, zh) in STRINGS {
            assert!(!en.is_empty() && !zh.is_empty(), "{k}");
        }
        let mut keys: Vec<_> = STRINGS.iter().map(|s| s.0).collect();
        keys.sort();
        keys.dedup();
        assert_eq!(keys.len(), STRINGS.len());
    }

    /// Every key the views name in `t("…")` or `tr("…", …)` is in [`STRINGS`]: a missing one
    /// would show "?" instead of a label. (Native only: it reads the sources.)
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn every_key_the_views_use_is_in_the_table() {
        fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    rust_files(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let mut files = Vec::new();
        rust_files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let known: std::collections::HashSet<&str> = STRINGS.iter().map(|s| s.0).collect();
        let mut used = 0;
        let mut missing = Vec::new();
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            for call in ["t(\"", "tr(\""] {
                for (at, _) in text.match_indices(call) {
                    let before = text[..at].chars().next_back();
                    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let rest = &text[at + call.len()..];
                    let key = &rest[..rest.find('"').unwrap_or(0)];
                    let is_key = key.contains('.')
                        && key.chars().all(|c| {
                            c.is_ascii_lowercase() || c.is_ascii_digit() || "._".contains(c)
                        });
                    if is_key {
                        used += 1;
                        if !known.contains(key) {
                            missing.push(format!("{}: {key}", f.display()));
                        }
                    }
                }
            }
        }
        assert!(used > 300, "found only {used} uses: the scan is broken");
        assert!(
            missing.is_empty(),
            "keys not in STRINGS:\n{}",
            missing.join("\n")
        );
    }
}
