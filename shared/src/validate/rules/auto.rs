//! `"auto"` values: only the Hugging Face Trainer and Accelerate replace them. Under the plain
//! `deepspeed` launcher, strict sections silently drop them (the default applies) and lax keys
//! keep the string, which fails later. The batch keys are handled in `batch`.

use super::super::{Diagnostic, View};
use crate::document::{Kind, Node};
use crate::i18n::Text;
use crate::registry::{registry, Mode};

pub(super) fn run(view: &View, out: &mut Vec<Diagnostic>) {
    if view.ctx.launcher.fills_auto() {
        return;
    }
    visit(view.root, "", "", out);
}

fn visit(node: &Node, reg_path: &str, pointer: &str, out: &mut Vec<Diagnostic>) {
    for m in node.members() {
        let ptr = format!("{pointer}/{}", crate::document::escape_token(&m.key));
        let spec = registry().child(reg_path, &m.key);
        let path = spec
            .map(|s| s.path.clone())
            .unwrap_or_else(|| crate::registry::join(reg_path, &m.key));
        match &m.value.kind {
            Kind::String(s) if s == "auto" => {
                if [
                    "train_batch_size",
                    "train_micro_batch_size_per_gpu",
                    "gradient_accumulation_steps",
                ]
                .contains(&path.as_str())
                {
                    continue;
                }
                let strict = spec.is_some_and(|s| s.mode == Mode::Strict);
                let default = spec
                    .and_then(|s| s.default_text.clone())
                    .unwrap_or_else(|| "its default".into());
                let (en, zh) = if strict {
                    (
                        format!("`{path}` is \"auto\": only the HF Trainer/Accelerate fill it in; under the plain deepspeed launcher DeepSpeed silently drops it and uses {default}"),
                        format!("`{path}` 为 \"auto\"：只有 HF Trainer/Accelerate 会替换它；直接用 deepspeed 启动时会被静默丢弃并使用默认值 {default}"),
                    )
                } else {
                    (
                        format!("`{path}` is \"auto\": only the HF Trainer/Accelerate fill it in; under the plain deepspeed launcher DeepSpeed gets the string \"auto\" and fails when it uses it"),
                        format!("`{path}` 为 \"auto\"：只有 HF Trainer/Accelerate 会替换它；直接用 deepspeed 启动时 DeepSpeed 拿到字符串 \"auto\"，使用时会出错"),
                    )
                };
                out.push(Diagnostic::warning(
                    "auto-unresolved",
                    &ptr,
                    Text::new(en, zh),
                ));
            }
            Kind::Object(_) => visit(&m.value, &path, &ptr, out),
            _ => {}
        }
    }
}
