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
    let mut trail = Trail {
        keys: Vec::new(),
        known: Vec::new(),
        release: view.release,
    };
    visit(view.root, Some(""), &mut trail, out);
}

/// Where the walk is: the keys from the root, and the registry path of the deepest known
/// ancestor with how many keys deep it is. Pointers and dotted paths are built only for an
/// `"auto"` found, so a deep document costs time linear in its size.
struct Trail<'a> {
    keys: Vec<&'a str>,
    known: Vec<(usize, String)>,
    release: crate::release::Release,
}

impl Trail<'_> {
    /// The pointer, at most `MAX_POINTER` bytes (a longer one names the nearest ancestor).
    fn pointer(&self) -> String {
        let mut p = String::new();
        for k in &self.keys {
            let t = crate::document::escape_token(k);
            if p.len() + 1 + t.len() > crate::document::MAX_POINTER {
                break;
            }
            p.push('/');
            p.push_str(&t);
        }
        p
    }

    fn dotted(&self) -> String {
        let (depth, path) = self.known.last().cloned().unwrap_or_default();
        self.keys[depth..]
            .iter()
            .fold(path, |p, k| crate::registry::join(&p, k))
    }
}

fn visit<'a>(
    node: &'a Node,
    reg_path: Option<&str>,
    trail: &mut Trail<'a>,
    out: &mut Vec<Diagnostic>,
) {
    for m in node.members() {
        // Past twice what is listed, more findings only cost time.
        if out.len() >= 2 * crate::validate::MAX_DIAGNOSTICS {
            return;
        }
        // Only an "auto" or an object can hold something to report.
        let is_auto = matches!(&m.value.kind, Kind::String(s) if s == "auto");
        if !is_auto && !matches!(m.value.kind, Kind::Object(_)) {
            continue;
        }
        // Below a key the registry does not know, nothing is known either.
        let spec = reg_path.and_then(|r| registry().child(r, &m.key));
        trail.keys.push(&m.key);
        if let Some(s) = spec {
            trail.known.push((trail.keys.len(), s.path.clone()));
        }
        match &m.value.kind {
            Kind::String(s) if s == "auto" => {
                let path = trail.dotted();
                let ptr = trail.pointer();
                report(spec, &path, &ptr, trail.release, out);
            }
            Kind::Object(_) => visit(&m.value, spec.map(|s| s.path.as_str()), trail, out),
            _ => {}
        }
        if spec.is_some() {
            trail.known.pop();
        }
        trail.keys.pop();
    }
}

fn report(
    spec: Option<&crate::registry::KeySpec>,
    path: &str,
    ptr: &str,
    release: crate::release::Release,
    out: &mut Vec<Diagnostic>,
) {
    // A plain pydantic model (0.14.x's `comms_logger`) keeps "auto" and refuses it: the type
    // check reports that, as an error.
    let parent =
        |s: &crate::registry::KeySpec| s.path.rsplit_once('.').map_or("", |(p, _)| p).to_string();
    if spec.is_some_and(|s| s.mode == Mode::Strict && registry().plain_model(&parent(s), release)) {
        return;
    }
    // From 0.18.6 `deepspeed.initialize` fails on it (`engine_start`).
    if path == "tensor_parallel.autotp_size"
        && registry().has_check("autotp-size-raw-compare", release)
    {
        return;
    }
    if [
        "train_batch_size",
        "train_micro_batch_size_per_gpu",
        "gradient_accumulation_steps",
    ]
    .contains(&path)
    {
        return;
    }
    let strict = spec.is_some_and(|s| s.mode == Mode::Strict);
    let path = &*crate::i18n::shown(path);
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
        ptr,
        Text::new(en, zh),
    ));
}
