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

/// The text of `key` in `lang` (the key itself when missing, which a test forbids).
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
    ("context.schema_long", "This release's and launcher's JSON Schema: save it and point VS Code's json.schemas (or \"$schema\") at it; see README, \"In your editor\"", "该版本与启动器的 JSON Schema：保存后在 VS Code 的 json.schemas（或 \"$schema\"）中引用；见 README「In your editor」"),
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
    ("memory.part.parameters", "16-bit parameters", "16 位参数"),
    ("memory.part.gradients", "16-bit gradients", "16 位梯度"),
    ("memory.part.optimizer", "optimizer states (32-bit weights, Adam moments)", "优化器状态（32 位权重与 Adam 动量）"),
    ("memory.part.grads_optimizer", "gradients + optimizer states (18 bytes/param, partitioned)", "梯度 + 优化器状态（每参数 18 字节，切分）"),
    ("memory.part.partitioned", "partitioned model states (18 bytes/param)", "切分后的模型状态（每参数 18 字节）"),
    ("memory.part.gathered", "largest layer gathered", "聚合的最大层"),
    ("memory.part.buckets", "communication buckets", "通信桶"),
    ("memory.part.activations", "activations", "激活"),
    ("memory.parts_title", "What each line is made of", "每一行的组成"),
    ("memory.parts_note", "Per GPU. DeepSpeed's estimators count 18 bytes per parameter for the states ZeRO-2/3 partition (a 32-bit gradient copy besides the 16-bit gradients and the 12 bytes of optimizer states), 16 at ZeRO-0/1. Buckets: reduce_bucket_size + allgather_bucket_size (ZeRO-1/2) or reduce_bucket_size + stage3_prefetch_bucket_size (ZeRO-3) 16-bit elements. * this config's offload line. CPU per node follows DeepSpeed's estimators too: with optimizer offload they count 4 bytes per parameter for every GPU of the job, so it grows with the number of nodes.", "按每张 GPU 计。DeepSpeed 的估算函数在 ZeRO-2/3 中把被切分的状态按每参数 18 字节计算（除 16 位梯度和 12 字节优化器状态外，还有一份 32 位梯度），ZeRO-0/1 为 16 字节。通信桶：reduce_bucket_size + allgather_bucket_size（ZeRO-1/2）或 reduce_bucket_size + stage3_prefetch_bucket_size（ZeRO-3）个 16 位元素。* 表示当前配置的卸载行。每节点 CPU 内存同样按 DeepSpeed 的估算：卸载优化器时按作业中每张 GPU 每参数 4 字节计算，因此会随节点数增长。"),
    ("memory.why", "ZeRO-{stage} needs {extra} more per GPU than ZeRO-{than} here: with {gpus} GPU(s), partitioning saves {saved} but adds {added} ({parts}).", "此处 ZeRO-{stage} 每张 GPU 比 ZeRO-{than} 多用 {extra}：只有 {gpus} 张 GPU 时，切分省下 {saved}，却增加了 {added}（{parts}）。"),
    ("memory.model", "Model", "模型"),
    ("memory.custom", "Custom", "自定义"),
    ("memory.params", "Parameters", "参数量"),
    ("memory.seq_len", "Sequence length", "序列长度"),
    ("memory.checkpointing", "Activation checkpointing", "激活检查点"),
    ("memory.bad_params", "Give the parameter count as 7e9, 7B or 7000000000.", "请以 7e9、7B 或 7000000000 的形式填写参数量。"),
    ("memory.this_config", "this config", "当前配置"),
    ("memory.offload_optimizer", "optimizer offload", "优化器卸载"),
    ("memory.offload_all", "optimizer + parameter offload", "优化器与参数卸载"),
    ("memory.cpu_per_node", "CPU per node", "每节点 CPU 内存"),
    ("memory.no_shape", "Activations are not included: pick a model preset for its hidden size, layers and heads", "未计入激活显存：请选择模型预设以获得隐藏维度、层数和注意力头数"),
    ("memory.does_not_fit", "exceeds GPU memory", "超出显存"),
    ("memory.activations", "Activations per GPU (included in every bar):", "每张 GPU 的激活显存（已计入每一行）："),
    ("memory.note", "model states by DeepSpeed's own estimators (buffer factor 1.5); activations by Korthikanti et al. 2022 for a standard transformer, 16-bit, without flash attention; TP and PP divide the parameters, ZeRO partitions over data × sequence parallel ranks, TP splits the activations (not the checkpointed layer inputs); CPU memory is per node.", "模型状态按 DeepSpeed 自带的估算函数计算（缓冲系数 1.5）；激活按 Korthikanti 等人 2022 年的公式，标准 Transformer、16 位、不含 FlashAttention；张量并行与流水线并行会均分参数，ZeRO 在数据并行 × 序列并行的各个 rank 间切分；张量并行会切分激活（检查点保存的各层输入除外）；CPU 内存按每个节点计算。"),
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
    ("fix.becomes", "(= {value}, from {from})", "（= {value}，来自 {from}）"),
    ("fix.becomes_default", "(= {value}, {from}'s default: your arguments do not set it)", "（= {value}，即 {from} 的默认值：你的参数没有设置它）"),
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
    ("run.hf_auto", "This version is saved for an HF launcher and has \"auto\" values, which the HF Trainer or Accelerate fill in at launch. Jobs here start DeepSpeed directly, where nothing fills them, so Run will refuse this version: to run it now, replace each \"auto\" with its value (the Effective config panel shows what HF would write) and save, or fork it for the deepspeed launcher.", "此版本是为 HF 启动器保存的，含有 \"auto\" 值，这些值由 HF Trainer 或 Accelerate 在启动时填入。此处的任务直接启动 DeepSpeed，不会填充它们，因此运行会被拒绝：若要现在运行，请把每个 \"auto\" 替换为具体值（「生效的配置」面板显示 HF 会写入的值）并保存，或将其复刻为 deepspeed 启动器的版本。"),
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
    ("settings.tokens_hint", "For the CLI and scripts: send as `Authorization: Bearer <token>`. A token is shown once, when it is created.", "供命令行与脚本使用：以 `Authorization: Bearer <令牌>` 发送。令牌只在创建时显示一次。"),
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
    ("job.s_samples", "Samples/s (median)", "samples/s（中位数）"),
    ("job.s_samples_run", "Samples/s (whole run, measured by the workload)", "samples/s（整个运行，由工作负载测得）"),
    ("job.s_peak", "Peak memory", "峰值内存"),
    ("job.s_estimated", "estimate per GPU", "每 GPU 估算"),
    ("job.s_rss", "RSS of rank 0's process", "rank 0 进程常驻内存"),
    ("job.s_gpu_alloc", "GPU max allocated", "GPU 最大分配"),
    ("job.log", "Log", "日志"),
    ("job.loss", "Training loss", "训练损失"),
    ("job.lr", "Learning rate", "学习率"),
    ("job.throughput", "Samples per second", "每秒样本数"),
    ("job.memory", "Memory of the job's processes (MB)", "任务全部进程的内存（MB）"),
    ("job.timings", "Per-step timings (ms)", "每步耗时（毫秒）"),
    ("editor.run", "Run", "运行"),
    ("run.title", "Run version", "运行版本"),
    (
        "run.unsaved",
        "Unsaved changes are not part of the run: save first to run them.",
        "未保存的修改不会参与运行：请先保存。",
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
    ("run.close", "Close", "关闭"),
    ("job.estimate", "Estimated per GPU:", "每 GPU 估算："),
    ("job.activations", "activations", "激活值"),
    ("job.measured", "Measured peak:", "实测峰值："),
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
    ("jobs.samples", "Samples/s", "samples/s"),
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
}
