//! The API's error messages in Chinese. Handlers write their messages in English (the CLI, logs
//! and scripts read them); a request that asks for Chinese (`?lang=zh` or `Accept-Language:
//! zh…`, as the browser UI sends in 中文 mode) gets the message of its error envelope from this
//! catalogue instead ([`translate_errors`]). Each entry is an English template whose `{}` stand
//! for the values a handler puts in, and its Chinese with the same `{}` in the same order.
//!
//! `tests::every_message_of_the_api_has_a_translation` reads every message literal of the
//! server's sources, so a new message without a Chinese entry fails the build's tests.

use axum::body::Body;
use axum::extract::Request;
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use ds_studio_shared::api::ErrorBody;

/// English template → Chinese template, first match wins (put the specific before the general).
pub const CATALOGUE: &[(&str, &str)] = &[
    // Sign-in and sessions.
    ("wrong user name or password", "用户名或密码错误"),
    ("this sign-in link is unknown, used or expired", "此登录链接不存在、已使用或已过期"),
    ("this sign-in link was already used", "此登录链接已被使用"),
    ("sign in, or send `Authorization: Bearer <token>` (create one with `ds-studio token create`)", "请先登录，或发送 `Authorization: Bearer <token>`（用 `ds-studio token create` 创建令牌）"),
    ("the bearer token is unknown, revoked or expired", "此 Bearer 令牌不存在、已撤销或已过期"),
    ("missing or wrong X-CSRF-Token header (send the csrf_token from /api/v1/auth/me)", "缺少或错误的 X-CSRF-Token 请求头（请发送 /api/v1/auth/me 返回的 csrf_token）"),
    ("the current password (old_password) is wrong", "当前密码（old_password）不正确"),
    ("send old_password (your current password) to change your password", "修改密码时请提供 old_password（当前密码）"),
    ("a password needs at least 8 characters", "密码至少需要 8 个字符"),
    ("a password has at most 1024 bytes", "密码最多 1024 字节"),
    ("user names are at most {} bytes and passwords at most 1024", "用户名最多 {} 字节，密码最多 1024 字节"),
    ("display_name must be 1-100 characters without control characters", "display_name 须为 1-100 个字符，且不含控制字符"),
    ("a token needs a name of 1-100 characters, not only spaces, without control or invisible characters", "令牌名称须为 1-100 个字符，不能只有空格，也不能含控制字符或不可见字符"),
    ("too many attempts from this client or for this name; try again in {} seconds", "此客户端或此用户名的尝试次数过多，请在 {} 秒后重试"),
    // Roles and teams.
    ("this needs a server administrator", "此操作需要服务器管理员"),
    ("this needs the {} role in team `{}`; you are {}", "此操作需要团队 `{1}` 中的 {0} 角色；您的角色是 {2}"),
    ("this needs the {} role in the job's team; you are {}", "此操作需要该任务所属团队中的 {} 角色；您的角色是 {}"),
    ("this needs the {} role in the team; you are {}", "此操作需要团队中的 {} 角色；您的角色是 {}"),
    ("only a server administrator creates teams on this studio (the server runs without --open-teams)", "在此工作台上只有服务器管理员可以创建团队（服务器未使用 --open-teams 启动）"),
    ("this is the last server administrator; make someone else one first", "这是最后一位服务器管理员，请先指定另一位管理员"),
    ("you cannot disable yourself: another server administrator can", "不能停用自己的账号：请由另一位服务器管理员操作"),
    ("{} is disabled: enable the account first", "{} 已被停用：请先启用该账号"),
    ("this account is disabled: ask a server administrator to enable it", "此账号已被停用：请联系服务器管理员启用"),
    ("the administrator token acts as `{}`, who is disabled (enable them with `ds-studio user enable {}` on the server)", "管理员令牌代表的用户 `{}` 已被停用（请在服务器上运行 `ds-studio user enable {}` 启用）"),
    ("this is the team's last administrator: make another member an administrator first", "这是团队的最后一位管理员：请先让另一位成员成为管理员"),
    ("no user is named `{}`: a server administrator creates users", "没有名为 `{}` 的用户：用户由服务器管理员创建"),
    ("user names are at most {} bytes", "用户名最多 {} 字节"),
    ("a team named `{}` already exists", "已存在名为 `{}` 的团队"),
    ("reading a stored version failed: {}", "读取已保存的版本失败：{}"),
    ("a user named `{}` already exists", "已存在名为 `{}` 的用户"),
    ("trainer argument {} must be a positive whole number, got '{}'", "训练参数 {} 必须是正整数，实际为 '{}'"),
    ("trainer argument {} must be a whole number, got '{}'", "训练参数 {} 必须是整数，实际为 '{}'"),
    ("trainer argument {} must be a number, got '{}'", "训练参数 {} 必须是数字，实际为 '{}'"),
    ("trainer argument {} must be 0 or more, got '{}'", "训练参数 {} 必须是大于等于 0 的数，实际为 '{}'"),
    ("trainer argument {} must be a fraction in [0, 1), got '{}'", "训练参数 {} 必须是[0, 1) 之间的小数，实际为 '{}'"),
    ("trainer argument {} must be no, fp16, bf16 or fp8, got '{}'", "训练参数 {} 必须是no、fp16、bf16 或 fp8，实际为 '{}'"),
    ("trainer argument {} must be true or false, got '{}'", "训练参数 {} 必须是true 或 false，实际为 '{}'"),
    ("unknown trainer argument '{}' (known: {})", "未知的训练参数 '{}'（可用：{}）"),
    ("trainer argument '{}' is not key=value", "训练参数 '{}' 不是 key=value 形式"),
    ("user name `{}` must be 1-64 ASCII letters, digits, `-`, `_`, `.` or `@`", "用户名 `{}` 须为 1-64 个 ASCII 字母、数字、`-`、`_`、`.` 或 `@`"),
    ("team name `{}` must be 1-64 ASCII letters, digits, `-`, `_`, `.` or `@`", "团队名称 `{}` 须为 1-64 个 ASCII 字母、数字、`-`、`_`、`.` 或 `@`"),
    // The trainer-file importer (shared/src/launcher/import.rs, yaml.rs): specific first.
    ("not a training YAML or a command line: YAML error at line {} column {}: the document expands to more than {} values (aliases count as the copies they make)", "不是训练 YAML 或命令行：YAML 第 {} 行第 {} 列出错：文档展开后超过 {} 个值（别名按其复制出的内容计数）"),
    ("not a training YAML or a command line: YAML error at line {} column {}: nested more than {} levels deep: a training file is a few levels deep", "不是训练 YAML 或命令行：YAML 第 {} 行第 {} 列出错：嵌套超过 {} 层（训练文件通常只有几层）"),
    ("not a training YAML or a command line: YAML error at line {} column {}: an alias names an anchor not defined before it", "不是训练 YAML 或命令行：YAML 第 {} 行第 {} 列出错：别名引用了此前未定义的锚点"),
    ("not a training YAML or a command line: YAML error at line {} column {}: {}", "不是训练 YAML 或命令行：YAML 第 {} 行第 {} 列出错：{}"),
    ("not a training YAML (no `key: value` mapping) or a command line (no --flags)", "不是训练 YAML（没有 `键: 值` 映射），也不是命令行（没有 --参数）"),
    ("the file is {} bytes: training files are read up to {}", "文件有 {} 字节：训练文件最多读取 {} 字节"),
    ("unterminated ' quote in the command line", "命令行中的单引号 ' 未闭合"),
    ("unterminated \" quote in the command line", "命令行中的双引号 \" 未闭合"),
    ("you belong to no team: create one (POST /api/v1/teams) or give team_id", "您不属于任何团队：请先创建团队（POST /api/v1/teams）或提供 team_id"),
    ("you belong to {} teams: give team_id", "您属于 {} 个团队：请提供 team_id"),
    ("team {} does not exist", "团队 {} 不存在"),
    ("team_id must be 1 or more", "team_id 必须大于等于 1"),
    // Templates, versions, shares.
    ("the team already has a template named `{}`", "团队中已有名为 `{}` 的模板"),
    ("a template needs a name (not only spaces)", "模板需要名称（不能只有空格）"),
    ("template name `{}` has {} characters; at most 120", "模板名称 `{}` 有 {} 个字符，最多 120 个"),
    ("template name `{}` contains `/`, which names cannot hold", "模板名称 `{}` 含有 `/`，名称中不能使用"),
    ("template name `{}` contains a control character", "模板名称 `{}` 含有控制字符"),
    ("every fork name of `{}` is taken; give the fork a name", "`{}` 的复刻名称都已被占用，请为复刻指定一个名称"),
    ("context.{} must be at least 1 (1: not used)", "context.{} 至少为 1（1 表示不使用）"),
    ("template name `{}` contains the invisible or bidirectional character U+{}, which can make a name read differently from what it holds", "模板名称 `{}` 含有不可见或双向控制字符 U+{}，它会让名称显示得与实际内容不同"),
    ("tag `{}` contains the invisible or bidirectional character U+{}, which can make a name read differently from what it holds", "标签 `{}` 含有不可见或双向控制字符 U+{}，它会让名称显示得与实际内容不同"),
    ("the run's name contains the invisible or bidirectional character U+{}, which can make a name read differently from what it holds", "运行名称含有不可见或双向控制字符 U+{}，它会让名称显示得与实际内容不同"),
    ("{} tags given; a template may have at most {}", "提供了 {} 个标签；一个模板最多 {} 个"),
    ("tag `{}` must be at most 40 characters without control characters", "标签 `{}` 最多 40 个字符，且不含控制字符"),
    ("job {} of this team is still queued or running: cancel it (or wait for it to end) before deleting the team", "此团队的任务 {} 仍在排队或运行中：请先取消它（或等它结束）再删除团队"),
    ("job {} of this template is still queued or running: cancel it (or wait for it to end) before deleting the template", "此模板的任务 {} 仍在排队或运行中：请先取消它（或等它结束）再删除模板"),
    ("version {} is not the head any more: version {} was saved meanwhile; merge your change into version {} and save again with base_version {}", "版本 {} 已不是最新版本：期间已保存了版本 {}；请把您的修改合并到版本 {}，并以 base_version {} 重新保存"),
    ("version {} is not the head any more (head is {})", "版本 {} 已不是最新版本（最新为 {}）"),
    ("base_version {} does not exist (head is {})", "base_version {} 不存在（最新版本为 {}）"),
    ("version `{}` is not a number or `head`", "版本 `{}` 既不是数字也不是 `head`"),
    ("`config` must be a JSON object; send anything else as `config_text`", "`config` 必须是 JSON 对象；其他内容请通过 `config_text` 发送"),
    ("the config is {} bytes; the limit is {} bytes (1 MiB)", "配置大小为 {} 字节，上限为 {} 字节（1 MiB）"),
    ("this share link is unknown, revoked or expired", "此分享链接不存在、已撤销或已过期"),
    ("expires_at `{}` is in the past", "expires_at `{}` 已经过去"),
    ("expires_at `{}` is not an RFC 3339 time", "expires_at `{}` 不是 RFC 3339 时间"),
    ("context.world_size must be at least 1", "context.world_size 至少为 1"),
    ("context.deepspeed_version: unknown DeepSpeed release '{}': ds-studio knows every release from {} to {}", "context.deepspeed_version：未知的 DeepSpeed 版本 '{}'：ds-studio 支持从 {} 到 {} 的每个版本"),
    ("unknown DeepSpeed release '{}': ds-studio knows every release from {} to {}", "未知的 DeepSpeed 版本 '{}'：ds-studio 支持从 {} 到 {} 的每个版本"),
    ("context.deepspeed_version: {}", "context.deepspeed_version：{}"),
    ("unknown keywords '{}' (use editor or standard)", "未知的 keywords '{}'（请使用 editor 或 standard）"),
    // Jobs and runners.
    ("{} `{}` must be a relative path inside the job directory (not absolute, no `..`), or a path under a directory the runner lets jobs write: {}", "{} `{}` 必须是任务目录内的相对路径（不能是绝对路径，也不能含 `..`），或运行器允许任务写入的目录下的路径：{}"),
    ("{} `{}` must be a relative path inside the job directory (not absolute, no `..`)", "{} `{}` 必须是任务目录内的相对路径（不能是绝对路径，也不能含 `..`）"),
    ("secret_env: a job may not set `{}`: {}", "secret_env：任务不能设置 `{}`：{}"),
    ("env: a job may not set `{}`: {}", "env：任务不能设置 `{}`：{}"),
    ("the job needs an estimated {} per GPU at its peak, more than the {} usable on runner `{}` ({}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway", "据估算，该任务峰值时每张 GPU 需要 {0} 显存，超过运行器 `{2}`（{3}）可用的 {1}：会显存不足（OOM）；details.suggestions 中有放得下的配置；如仍要运行，请发送 \"force\": true"),
    ("the job needs an estimated {} per GPU at its peak, more than the {} usable on the largest GPU of the runners it can go to ({}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway", "据估算，该任务峰值时每张 GPU 需要 {0} 显存，超过可用运行器中最大 GPU（{2}）可用的 {1}：会显存不足（OOM）；details.suggestions 中有放得下的配置；如仍要运行，请发送 \"force\": true"),
    ("the job needs an estimated {} of CPU memory per node (each rank's model and what is offloaded), more than the {} the host of runner `{}` ({}) can give: it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway", "据估算，该任务每个节点需要 {0} CPU 内存（各进程的模型及卸载的状态），超过运行器 `{2}`（{3}）主机可提供的 {1}：会内存不足；details.suggestions 中有放得下的配置；如仍要运行，请发送 \"force\": true"),
    ("the job needs an estimated {} of CPU memory per node (each rank's model and what is offloaded), more than the {} the hosts of the runners it can go to can give ({}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway", "据估算，该任务每个节点需要 {0} CPU 内存（各进程的模型及卸载的状态），超过可用运行器主机可提供的 {1}（{2}）：会内存不足；details.suggestions 中有放得下的配置；如仍要运行，请发送 \"force\": true"),
    ("the job needs an estimated {} of host memory per rank, more than the {} per rank that runner `{}` ({}) can give: it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway", "据估算，该任务每个进程需要 {0} 主机内存，超过运行器 `{2}`（{3}）每个进程可提供的 {1}：会内存不足；details.suggestions 中有放得下的配置；如仍要运行，请发送 \"force\": true"),
    ("the job needs an estimated {} of host memory per rank, more than the {} per rank that the runners it can go to can give ({}): it would run out of memory; details.suggestions has configs that fit; send \"force\": true to run it anyway", "据估算，该任务每个进程需要 {0} 主机内存，超过可用运行器每个进程可提供的 {1}（{2}）：会内存不足；details.suggestions 中有放得下的配置；如仍要运行，请发送 \"force\": true"),
    ("the config has {} error(s) for a world size of {} (runner {} runs DeepSpeed {}, which rejects it); fix them before running it", "该配置在 world size 为 {1} 时有 {0} 个错误（运行器 {2} 使用 DeepSpeed {3}，会拒绝此配置）；请修复后再运行"),
    ("the config has {} error(s) for a world size of {} in DeepSpeed {}; fix them before running it", "该配置在 DeepSpeed {2} 中、world size 为 {1} 时有 {0} 个错误；请修复后再运行"),
    ("the config has {} error(s) for a world size of {} (runner {} runs {} and DeepSpeed {}, which reject it); fix them before running it", "该配置在 world size 为 {1} 时有 {0} 个错误（运行器 {2} 使用 {3} 与 DeepSpeed {4}，会拒绝此配置）；请修复后再运行"),
    ("the config has {} error(s) for a world size of {} under {} and DeepSpeed {}; fix them before running it", "该配置在 {2} 与 DeepSpeed {3} 下、world size 为 {1} 时有 {0} 个错误；请修复后再运行"),
    ("no runner named `{}` takes jobs of team `{}`; GET /api/v1/runners lists the ones it can use", "没有名为 `{}` 且接收团队 `{}` 任务的运行器；GET /api/v1/runners 会列出可用的运行器"),
    ("fit_to_runner: {}", "fit_to_runner：{}"),
    ("gpus {} must be between 1 and 64 (GPUs per node)", "gpus {} 必须在 1 到 64 之间（每节点 GPU 数）"),
    ("nodes {} must be between 1 and 1024", "nodes {} 必须在 1 到 1024 之间"),
    ("max_steps {} must be between 1 and 10000000", "max_steps {} 必须在 1 到 10000000 之间"),
    ("time_limit_s {} must be between 1 and {} (30 days); leave it out for no limit", "time_limit_s {} 必须在 1 到 {} 之间（30 天）；不设置则不限时"),
    ("stall_timeout_s {} must be between {} and {} (1 day); leave it out to never stop a quiet job", "stall_timeout_s {} 必须在 {} 到 {} 之间（1 天）；不设置则不会因无进展而停止任务"),
    ("`{}` is in both env and secret_env; give it once", "`{}` 同时出现在 env 和 secret_env 中，请只给一次"),
    ("env and secret_env hold {} variables; a job may set at most {}", "env 与 secret_env 共有 {} 个变量；一个任务最多设置 {} 个"),
    ("secret_{}", "secret_{}"),
    ("job {} has already ended: it is {}", "任务 {} 已结束：状态为 {}"),
    // Sweeps.
    ("sweep {} has already ended: it is {}", "参数扫描 {} 已结束：状态为 {}"),
    ("this sweep would store {} MiB of configs ({} points × {} KiB each); a sweep stores at most {} MiB: run fewer points, or sweep a smaller base version", "此参数扫描将存储 {} MiB 的配置（{} 个点 × 每个 {} KiB）；一次扫描最多存储 {} MiB：请减少点数，或对更小的基础版本做扫描"),
    ("this needs the {} role in the sweep's team; you are {}", "此操作需要该参数扫描所属团队中的 {} 角色；您的角色是 {}"),
    ("name must be at most {} characters, without control characters", "名称最多 {} 个字符，且不含控制字符"),
    ("{} runners given; a sweep may name at most {}", "给出了 {} 个运行器；一次参数扫描最多指定 {} 个"),
    ("no runner named `{}` takes this team's jobs; GET /api/v1/runners lists the ones it can use", "没有名为 `{}` 且接收此团队任务的运行器；GET /api/v1/runners 会列出可用的运行器"),
    ("no point of the grid can run (the first: {}); change the grid or the base version", "网格中没有可以运行的点（第一个原因：{}）；请修改网格或基础版本"),
    ("sweep {} has no succeeded point yet: nothing to save", "参数扫描 {} 还没有成功的点：没有可保存的内容"),
    ("the template changed `{}` since version {} and the best point changes it too: save it from the editor", "自版本 {1} 以来模板修改了 `{0}`，而最佳点也修改了它：请在编辑器中保存"),
    ("the template was saved meanwhile: try again", "模板在此期间已被保存：请重试"),
    ("the best point's config is already version {} of the template: nothing to save", "最佳点的配置已经是模板的版本 {}：无需保存"),
    ("grid key `{}` is given twice: list its values once", "网格键 `{}` 出现了两次：请在一处列出它的取值"),
    ("grid key `{}` is not a DeepSpeed config key; did you mean `{}`?", "网格键 `{}` 不是 DeepSpeed 配置键；是否想写 `{}`？"),
    ("grid key `{}` is not a DeepSpeed config key", "网格键 `{}` 不是 DeepSpeed 配置键"),
    ("a grid varies 1 to {} keys", "网格须变化 1 到 {} 个键"),
    ("the grid has more than {} points: narrow it", "网格超过 {} 个点：请缩小范围"),
    ("the base config is not a JSON object", "基础配置不是 JSON 对象"),
    ("grid key `{}` is not a dotted config key (letters, digits, `_`, `.`)", "网格键 `{}` 不是以点分隔的配置键（字母、数字、`_`、`.`）"),
    ("grid key `{}` has no values", "网格键 `{}` 没有取值"),
    ("job {} is {} and not running on this runner", "任务 {} 处于 {} 状态，且不在此运行器上运行"),
    ("job {} does not belong to runner {}", "任务 {} 不属于运行器 {}"),
    ("job {} is not a job of runner `{}`'s team", "任务 {} 不属于运行器 `{}` 的团队"),
    ("you have {} live job streams open already; close one first", "您已打开 {} 个任务实时流，请先关闭一个"),
    ("Last-Event-ID must be an event sequence number", "Last-Event-ID 必须是事件序号"),
    ("max_points {} must be between 3 and 100000", "max_points {} 必须在 3 到 100000 之间"),
    ("tail {} must be between 1 and {}", "tail {} 必须在 1 到 {} 之间"),
    ("wait_s {} must be at most {}", "wait_s {} 最大为 {}"),
    ("`local` is the server's own runner; choose another name", "`local` 是服务器自带的运行器，请换一个名称"),
    ("backend `{}` is unknown; use local or slurm", "未知的 backend `{}`；请使用 local 或 slurm"),
    ("runner `{}` already has a live token for {}; revoke it first", "运行器 `{}` 已有一个用于 {} 的有效令牌，请先撤销它"),
    ("a runner cannot put a job back in the queue", "运行器不能把任务放回队列"),
    ("event seq {} must be 1 or more", "事件序号 {} 必须大于等于 1"),
    ("metric `{}` has the value {}: only finite numbers are stored", "指标 `{}` 的值为 {}：只保存有限数值"),
    ("{} events in one batch; the limit is {}", "一批有 {} 个事件，上限为 {}"),
    ("the runner routes take `Authorization: Bearer <runner token>` (create one with `ds-studio runner-token create --name NAME`)", "运行器接口需要 `Authorization: Bearer <runner token>`（用 `ds-studio runner-token create --name NAME` 创建）"),
    ("the runner routes take a runner token, not a user's or an administrator's (create one with `ds-studio runner-token create --name NAME`)", "运行器接口需要运行器令牌，而不是用户或管理员的令牌（用 `ds-studio runner-token create --name NAME` 创建）"),
    ("a runner token works only for a runner's own calls (register, heartbeat, claim, events, state); use a user's API token here", "运行器令牌只能用于运行器自身的调用（注册、心跳、领取、事件、状态）；此处请使用用户的 API 令牌"),
    ("the runner token is unknown or revoked", "此运行器令牌不存在或已撤销"),
    ("this runner token is for runner `{}`, not `{}`", "此运行器令牌属于运行器 `{}`，而不是 `{}`"),
    ("this runner token is for runner `{}`, not runner {}", "此运行器令牌属于运行器 `{}`，而不是运行器 {}"),
    ("this runner token is for runner `{}`{}, not for job {} on runner {}", "此运行器令牌属于运行器 `{}`{}，而不是运行器 {3} 上的任务 {2}"),
    ("Last-Event-ID (or after) {} is beyond the job's last event {}: resume from at most {} (0: from the start)", "Last-Event-ID（或 after）{} 超出了该任务的最后一个事件 {}：请从不大于 {} 的位置继续（0 表示从头开始）"),
    ("{} running jobs reported; a runner reports at most {}", "上报了 {} 个运行中的任务；一个运行器最多上报 {} 个"),
    // The runs table's query and a run's labels (`shared::api::runs`).
    ("tag `{}` must be 1-32 letters, digits, `-`, `_`, `.`, `:` or `/`", "标签 `{}` 须为 1-32 个字母、数字、`-`、`_`、`.`、`:` 或 `/`"),
    ("{} has {} characters; at most {}", "{} 有 {} 个字符，最多 {} 个"),
    ("{} must not hold control characters", "{} 不能包含控制字符"),
    ("{} tags given; a run may have at most {}", "给出了 {} 个标签；一次运行最多 {} 个"),
    ("{} `{}` must be a whole number", "{} `{}` 必须是整数"),
    ("state `{}` is unknown; use queued, running, succeeded, failed, cancelled or lost", "未知的状态 `{}`；请使用 queued、running、succeeded、failed、cancelled 或 lost"),
    ("zero_stage `{}` must be 0, 1, 2 or 3", "zero_stage `{}` 必须是 0、1、2 或 3"),
    ("precision `{}` is unknown; use bf16, fp16 or fp32", "未知的精度 `{}`；请使用 bf16、fp16 或 fp32"),
    ("offload `{}` is unknown; use none, any, cpu or nvme", "未知的卸载方式 `{}`；请使用 none、any、cpu 或 nvme"),
    ("q must be at most {} characters", "q 最多 {} 个字符"),
    ("sort `{}` is unknown; use one of {} (a leading `-` sorts descending)", "未知的排序 `{}`；请使用 {} 之一（前加 `-` 表示降序）"),
    ("`{}` is not a filter of the runs table; use state, template_id, runner, deepspeed, world, zero_stage, precision, offload, micro_batch, tag, q, sort, offset or limit", "`{}` 不是运行列表的筛选条件；可用 state、template_id、runner、deepspeed、world、zero_stage、precision、offload、micro_batch、tag、q、sort、offset 或 limit"),
    // Requests in general.
    ("offset {} must be 0 or more", "offset {} 必须大于等于 0"),
    ("limit {} must be between 1 and {}", "limit {} 必须在 1 到 {} 之间"),
    ("bad path parameter: {}", "路径参数无效：{}"),
    ("bad query parameter: {}", "查询参数无效：{}"),
    ("the body is not valid JSON: {}", "请求体不是有效的 JSON：{}"),
    ("the JSON body must be an object", "JSON 请求体必须是对象"),
    ("the JSON body does not have the expected shape: {}", "JSON 请求体的结构不符合要求：{}"),
    ("the JSON body is not as expected: {}", "JSON 请求体不符合要求：{}"),
    ("field `{}`: {}", "字段 `{}`：{}"),
    ("the body must be JSON with `Content-Type: application/json`", "请求体必须是 JSON，并带有 `Content-Type: application/json`"),
    ("the body is larger than the limit of {} bytes", "请求体超过了 {} 字节的上限"),
    ("{} is {} characters; the limit is {}", "{} 有 {} 个字符，上限为 {}"),
    ("{} `{}` must be 1-64 ASCII letters, digits, `-`, `_`, `.` or `@`", "{} `{}` 须为 1-64 个 ASCII 字母、数字、`-`、`_`、`.` 或 `@`"),
    ("the server is busy checking passwords", "服务器正忙于校验密码"),
    ("the server is busy validating other configs", "服务器正忙于校验其他配置"),
    ("the server is busy checking passwords; try again in {} seconds", "服务器正忙于校验密码，请在 {} 秒后重试"),
    ("the server is busy validating other configs; try again in {} seconds", "服务器正忙于校验其他配置，请在 {} 秒后重试"),
    ("a team, user or template it refers to no longer exists", "它引用的团队、用户或模板已不存在"),
    ("only server administrators, or a scraper with the --metrics-token, may read /metrics", "只有服务器管理员或持有 --metrics-token 的抓取程序可以读取 /metrics"),
    ("send `Authorization: Bearer <token>` with the server's --metrics-token (or an administrator's token), or start the server with --metrics-public", "请发送 `Authorization: Bearer <token>`，使用服务器的 --metrics-token（或管理员的令牌），或者用 --metrics-public 启动服务器"),
    ("a snapshot copies a SQLite database; back up PostgreSQL with pg_dump", "快照只能复制 SQLite 数据库；PostgreSQL 请用 pg_dump 备份"),
    ("{} is not a UTF-8 path", "{} 不是 UTF-8 路径"),
    ("the database is damaged: {}", "数据库已损坏：{}"),
    ("internal error", "服务器内部错误"),
    ("no API route {}", "没有 API 路由 {}"),
    // Not found, by what (`template 5 not found`, `template not found`).
    ("version {} of template {} not found", "模板 {1} 的版本 {0} 不存在"),
    ("template {} not found", "模板 {} 不存在"),
    ("job {} not found", "任务 {} 不存在"),
    ("runner token {} not found", "运行器令牌 {} 不存在"),
    ("runner {} not found", "运行器 {} 不存在"),
    ("team {} not found", "团队 {} 不存在"),
    ("template not found", "模板不存在"),
    ("version not found", "版本不存在"),
    ("job not found", "任务不存在"),
    ("runner token not found", "运行器令牌不存在"),
    ("runner not found", "运行器不存在"),
    ("token not found", "令牌不存在"),
    ("team or user not found", "团队或用户不存在"),
    ("team not found", "团队不存在"),
    ("user not found", "用户不存在"),
    ("membership not found", "成员关系不存在"),
    ("share link not found", "分享链接不存在"),
    ("administrator not found", "管理员不存在"),
    ("admin not found", "管理员不存在"),
    ("deepspeed not found", "未找到 deepspeed"),
    ("row not found", "记录不存在"),
    ("{} not found", "{} 不存在"),
    // Unique-constraint conflicts named by the store.
    ("already exists", "已存在"),
    ("team or user", "团队或用户已存在"),
    ("user", "用户已存在"),
    ("studio-admin", "studio-admin 已存在"),
];

/// The values of `template`'s `{}` in `message`, when the message is that template.
fn fill(template: &str, message: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = template.split("{}").collect();
    let mut rest = message.strip_prefix(parts[0])?;
    let mut values = Vec::new();
    for (i, part) in parts.iter().enumerate().skip(1) {
        let last = i == parts.len() - 1;
        let at = if last {
            if !rest.ends_with(part) {
                return None;
            }
            rest.len() - part.len()
        } else if part.is_empty() {
            return None;
        } else {
            rest.find(part)?
        };
        values.push(rest[..at].to_string());
        rest = &rest[at + part.len()..];
    }
    (parts.len() > 1 || rest.is_empty()).then_some(values)
}

/// The templates whose last `{}` is serde's own explanation (what a body or a field lacks).
const SERDE_DETAIL: &[&str] = &[
    "the body is not valid JSON: {}",
    "the JSON body does not have the expected shape: {}",
    "the JSON body is not as expected: {}",
    "field `{}`: {}",
    "bad path parameter: {}",
    "bad query parameter: {}",
];

/// serde's and serde_json's explanations in Chinese: `(English template, Chinese)`, matched
/// like the catalogue, on the explanation without its ` at line N column M`.
const SERDE_PHRASES: &[(&str, &str)] = &[
    ("missing field `{}`", "缺少字段 `{}`"),
    ("duplicate field `{}`", "字段 `{}` 重复"),
    (
        "unknown field `{}`, expected one of {}",
        "未知字段 `{}`，应为以下之一：{}",
    ),
    ("unknown field `{}`, expected {}", "未知字段 `{}`，应为 {}"),
    (
        "unknown field `{}`, there are no fields",
        "未知字段 `{}`，此处不接受任何字段",
    ),
    (
        "unknown variant `{}`, expected one of {}",
        "未知取值 `{}`，应为以下之一：{}",
    ),
    (
        "unknown variant `{}`, expected {}",
        "未知取值 `{}`，应为 {}",
    ),
    (
        "invalid type: {}, expected {}",
        "类型错误：收到 {}，应为 {}",
    ),
    ("invalid value: {}, expected {}", "取值无效：{}，应为 {}"),
    ("invalid length {}, expected {}", "长度无效：{}，应为 {}"),
    ("EOF while parsing a value", "解析值时内容意外结束"),
    ("EOF while parsing an object", "解析对象时内容意外结束"),
    ("EOF while parsing a list", "解析数组时内容意外结束"),
    ("EOF while parsing a string", "解析字符串时内容意外结束"),
    ("expected value", "此处应为一个值"),
    ("expected `:`", "此处应为 `:`"),
    ("expected `,` or `}`", "此处应为 `,` 或 `}`"),
    ("expected `,` or `]`", "此处应为 `,` 或 `]`"),
    ("key must be a string", "键必须是字符串"),
    ("trailing comma", "多余的逗号"),
    ("trailing characters", "末尾有多余的字符"),
    ("invalid number", "数字无效"),
    ("number out of range", "数字超出范围"),
    (
        "control character (\\u0000-\\u001F) found while parsing a string",
        "字符串中有控制字符（\\u0000-\\u001F）",
    ),
    ("invalid escape", "转义序列无效"),
    ("recursion limit exceeded", "嵌套层数超出上限"),
];

/// serde's names of JSON values, as they appear in "invalid type: …".
const SERDE_KINDS: &[(&str, &str)] = &[
    ("string ", "字符串 "),
    ("integer ", "整数 "),
    ("floating point ", "浮点数 "),
    ("boolean ", "布尔值 "),
    ("a string", "字符串"),
    ("a sequence", "数组"),
    ("a map", "对象"),
    ("sequence", "数组"),
    ("map", "对象"),
];

/// serde's explanation `detail` in Chinese: the phrase, the kinds of value it names, and its
/// position; what it quotes (field names, values) is kept. Unknown phrases stay as written.
fn serde_detail_zh(detail: &str) -> String {
    let (body, position) = match detail.rsplit_once(" at line ") {
        Some((b, pos)) => match pos.split_once(" column ") {
            Some((line, column))
                if line.chars().all(|c| c.is_ascii_digit())
                    && column.chars().all(|c| c.is_ascii_digit()) =>
            {
                (b, format!("（第 {line} 行，第 {column} 列）"))
            }
            _ => (detail, String::new()),
        },
        None => (detail, String::new()),
    };
    let kind = |v: &str| {
        SERDE_KINDS
            .iter()
            .find_map(|(en, zh)| v.strip_prefix(en).map(|rest| format!("{zh}{rest}")))
            .unwrap_or_else(|| v.to_string())
    };
    let phrase = SERDE_PHRASES.iter().find_map(|(en, zh)| {
        let values = fill(en, body)?;
        let mut out = String::new();
        let mut parts = zh.split("{}");
        out.push_str(parts.next().unwrap_or_default());
        for (value, part) in values.iter().zip(parts) {
            out.push_str(&if en.starts_with("invalid type") {
                kind(value)
            } else {
                value.clone()
            });
            out.push_str(part);
        }
        Some(out)
    });
    // serde lists what it expected as "`a`, `b` or `c`".
    let phrase = phrase.map(|p| p.replace("` or `", "` 或 `"));
    format!("{}{position}", phrase.unwrap_or_else(|| body.to_string()))
}

/// `message` in Chinese, when the catalogue has it; `{}` take the values in order, `{N}` the
/// N-th value.
pub fn to_chinese(message: &str) -> Option<String> {
    CATALOGUE.iter().find_map(|(en, zh)| {
        let mut values = fill(en, message)?;
        if SERDE_DETAIL.contains(en) {
            if let Some(last) = values.last_mut() {
                *last = serde_detail_zh(last);
            }
        }
        let mut out = String::new();
        let mut next = 0;
        let mut rest = *zh;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let close = rest[open..].find('}')? + open;
            let index = match &rest[open + 1..close] {
                "" => {
                    next += 1;
                    next - 1
                }
                n => n.parse::<usize>().ok()?,
            };
            out.push_str(values.get(index)?);
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        Some(out)
    })
}

/// Whether a request asks for Chinese: `?lang=zh`, else an `Accept-Language` whose first
/// language is Chinese.
pub fn wants_chinese(req: &Request) -> bool {
    if let Some(q) = req.uri().query() {
        for pair in q.split('&') {
            if let Some(v) = pair.strip_prefix("lang=") {
                return v.starts_with("zh");
            }
        }
    }
    req.headers()
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .is_some_and(|first| first.trim().to_ascii_lowercase().starts_with("zh"))
}

/// Errors bodies the catalogue can say are at most this big (an error envelope with a config's
/// diagnostics is well below it).
const MAX_ERROR_BODY: usize = 4 << 20;

/// Middleware: the error envelope's message in Chinese for a request that asks for it.
pub async fn translate_errors(req: Request, next: Next) -> Response {
    let zh = wants_chinese(&req);
    let resp = next.run(req).await;
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !zh || !(resp.status().is_client_error() || resp.status().is_server_error()) || !is_json {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, MAX_ERROR_BODY).await else {
        // Too large to translate (a rejected config's diagnostics): still an envelope, in
        // Chinese, never an empty body.
        parts.headers.remove(header::CONTENT_LENGTH);
        let body = serde_json::json!({"error": {
            "code": "too_large",
            "message": "错误内容过大，无法翻译；请去掉 ?lang=zh 重试以查看英文原文",
        }});
        return Response::from_parts(parts, Body::from(body.to_string()));
    };
    let translated = serde_json::from_slice::<ErrorBody>(&bytes)
        .ok()
        .and_then(|mut b| {
            b.error.message = to_chinese(&b.error.message)?;
            serde_json::to_vec(&b).ok()
        });
    let body = translated.unwrap_or_else(|| bytes.to_vec());
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_said_in_chinese_with_their_values() {
        assert_eq!(
            to_chinese("not a training YAML or a command line: YAML error at line 6 column 18: the document expands to more than 100000 values (aliases count as the copies they make)").as_deref(),
            Some("不是训练 YAML 或命令行：YAML 第 6 行第 18 列出错：文档展开后超过 100000 个值（别名按其复制出的内容计数）")
        );
        assert_eq!(
            to_chinese("wrong user name or password").as_deref(),
            Some("用户名或密码错误")
        );
        assert_eq!(
            to_chinese("the team already has a template named `llama 7b`").as_deref(),
            Some("团队中已有名为 `llama 7b` 的模板")
        );
        assert_eq!(
            to_chinese("this needs the admin role in team `default`; you are editor").as_deref(),
            Some("此操作需要团队 `default` 中的 admin 角色；您的角色是 editor")
        );
        assert_eq!(
            to_chinese("version 3 of template 7 not found").as_deref(),
            Some("模板 7 的版本 3 不存在")
        );
        assert_eq!(
            to_chinese("template 7 not found").as_deref(),
            Some("模板 7 不存在")
        );
        let unknown = ds_studio_shared::Release::parse("0.20.1").unwrap_err();
        assert_eq!(
            to_chinese(&format!("context.deepspeed_version: {unknown}")).as_deref(),
            Some("context.deepspeed_version：未知的 DeepSpeed 版本 '0.20.1'：ds-studio 支持从 0.14.4 到 0.19.8 的每个版本")
        );
        assert_eq!(
            to_chinese(&unknown.to_string()).as_deref(),
            Some("未知的 DeepSpeed 版本 '0.20.1'：ds-studio 支持从 0.14.4 到 0.19.8 的每个版本")
        );
        assert_eq!(
            to_chinese("the config has 2 error(s) for a world size of 8 in DeepSpeed 0.19.8; fix them before running it").as_deref(),
            Some("该配置在 DeepSpeed 0.19.8 中、world size 为 8 时有 2 个错误；请修复后再运行")
        );
        assert_eq!(
            to_chinese("the config has 1 error(s) for a world size of 2 (runner local runs HF Trainer and DeepSpeed 0.19.8, which reject it); fix them before running it").as_deref(),
            Some("该配置在 world size 为 2 时有 1 个错误（运行器 local 使用 HF Trainer 与 DeepSpeed 0.19.8，会拒绝此配置）；请修复后再运行")
        );
        assert_eq!(to_chinese("something no entry knows"), None);
    }

    /// serde's explanation inside a message is said in Chinese too, quoting what it quotes.
    #[test]
    fn serde_explanations_are_said_in_chinese() {
        assert_eq!(
            to_chinese("the JSON body is not as expected: missing field `name`").as_deref(),
            Some("JSON 请求体不符合要求：缺少字段 `name`")
        );
        assert_eq!(
            to_chinese("field `gpus`: invalid type: string \"4\", expected u32").as_deref(),
            Some("字段 `gpus`：类型错误：收到 字符串 \"4\"，应为 u32")
        );
        assert_eq!(
            to_chinese(
                "the body is not valid JSON: EOF while parsing an object at line 1 column 12"
            )
            .as_deref(),
            Some("请求体不是有效的 JSON：解析对象时内容意外结束（第 1 行，第 12 列）")
        );
        assert_eq!(
            to_chinese("field `workload`: unknown variant `gtp`, expected `builtin` or `script`")
                .as_deref(),
            Some("字段 `workload`：未知取值 `gtp`，应为 `builtin` 或 `script`")
        );
        // An explanation no phrase knows is kept as serde wrote it.
        assert_eq!(
            to_chinese("the JSON body is not as expected: something new").as_deref(),
            Some("JSON 请求体不符合要求：something new")
        );
    }

    /// Every message literal the server can answer with (in `ApiError::…(…)` and
    /// `StoreError::…(…)`, `{name}` placeholders standing for values) has a Chinese entry.
    #[test]
    fn every_message_of_the_api_has_a_translation() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut missing = Vec::new();
        let mut seen = 0;
        for (file, text) in sources(&root) {
            for message in message_literals(&text) {
                seen += 1;
                // Bare codes and one-word store names ("job", "template") are not messages.
                if !message.contains(' ') && !message.contains('{') {
                    continue;
                }
                let sample = fill_placeholders(&message);
                if to_chinese(&sample).is_none() {
                    missing.push(format!("{file}: {message}"));
                }
            }
        }
        assert!(seen > 80, "only {seen} messages found: the scan is broken");
        assert!(
            missing.is_empty(),
            "no Chinese for:\n{}",
            missing.join("\n")
        );
    }

    fn sources(dir: &std::path::Path) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                out.extend(sources(&path));
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.ends_with("messages_zh.rs")
            {
                out.push((
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
        out
    }

    /// The first string literal right after `ApiError::X(` or `StoreError::X(` (directly, or
    /// in a `format!(`), for the variants that carry a message.
    fn message_literals(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for prefix in ["ApiError::", "StoreError::"] {
            let mut from = 0;
            while let Some(i) = text[from..].find(prefix) {
                let start = from + i + prefix.len();
                from = start;
                let variant: String = text[start..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // Internal errors answer "internal error" whatever they hold; the store's
                // NotFound holds a noun the API turns into "… not found".
                if variant == "Internal" || (prefix == "StoreError::" && variant == "NotFound") {
                    continue;
                }
                let after = text[start + variant.len()..].trim_start();
                let Some(after) = after.strip_prefix('(') else {
                    continue;
                };
                let after = after.trim_start();
                let after = after
                    .strip_prefix("format!(")
                    .map(str::trim_start)
                    .unwrap_or(after);
                let Some(body) = after.strip_prefix('"') else {
                    continue;
                };
                let mut lit = String::new();
                let mut chars = body.chars();
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some('\n') => {
                                // A line continuation: the next line's leading spaces go too.
                                let rest: String = chars.clone().collect();
                                let trimmed = rest.trim_start();
                                chars = body[body.len() - trimmed.len()..].chars();
                            }
                            Some(c) => lit.push(c),
                            None => break,
                        },
                        c => lit.push(c),
                    }
                }
                out.push(lit);
            }
        }
        out
    }

    /// `{name}`, `{}` and `{:?}` replaced by sample values.
    fn fill_placeholders(template: &str) -> String {
        let mut out = String::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            match rest[open..].find('}') {
                Some(close) => {
                    out.push_str("x1");
                    rest = &rest[open + close + 1..];
                }
                None => {
                    rest = &rest[open..];
                    break;
                }
            }
        }
        out.push_str(rest);
        out
    }
}
