//! Defaults and allowed values in plain words: the registry keeps a key's default as DeepSpeed's source spells it
//! (`None -> True for stage 3 else False`, `sys.maxsize`, `{enabled: False}`); tooltips show
//! it as a user reads it, in English or Chinese (`true at ZeRO stage 3, false otherwise`).

/// `text` (a default as the registry spells it) in plain words.
pub fn plain_default(text: &str, zh: bool) -> String {
    let t = text.trim();
    let whole: Option<(&str, &str)> = match t {
        "None -> True for stage 3 else False" => Some((
            "true at ZeRO stage 3, false otherwise",
            "ZeRO-3 时为 true，其他阶段为 false",
        )),
        "None" | "(absent)" => Some(("not set", "未设置")),
        "sys.maxsize" => Some(("no limit", "无上限")),
        "torch.float16" => Some(("fp16", "fp16")),
        "required" | "(required)" => Some(("none: the key is required", "无：此键为必填")),
        "(required when enabled)" => Some((
            "none: the key is required when the section is enabled",
            "无：启用该部分时此键为必填",
        )),
        "False (must be bool)" => Some((
            "false (must be true or false)",
            "false（必须是 true 或 false）",
        )),
        "see leaf_module" => Some(("see leaf_module", "见 leaf_module")),
        "None (non-null values rejected)" => Some((
            "not set (any other value is rejected)",
            "未设置（设置任何值都会被拒绝）",
        )),
        "fp32 (None on CUDA with NCCL>=2.27.3)" => Some((
            "fp32 (not set on CUDA with NCCL ≥ 2.27.3)",
            "fp32（在 NCCL ≥ 2.27.3 的 CUDA 上为未设置）",
        )),
        _ => None,
    };
    if let Some((en, zh_text)) = whole {
        return if zh { zh_text } else { en }.to_string();
    }
    // Python's literals inside a longer default, word by word.
    let mut out = String::with_capacity(t.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        out.push_str(match word.as_str() {
            "True" => "true",
            "False" => "false",
            "None" => {
                if zh {
                    "未设置"
                } else {
                    "not set"
                }
            }
            w => w,
        });
        word.clear();
    };
    for c in t.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A key's allowed values in `release`, in plain words: where its numeric bounds changed between
/// releases (`reduce_bucket_size`: `>=0`, then `>0` from 0.19.6), this release's own range;
/// else the registry's `allowed_text`, else its enum.
pub fn allowed_at(spec: &super::KeySpec, release: super::Release, zh: bool) -> Option<String> {
    if spec.bounds.len() > 1 {
        return Some(range_words(spec.range_at(release), zh));
    }
    let reg = super::registry();
    if spec.path == "optimizer.type" {
        // The DeepSpeed names this release has (the 1-bit optimizers left in 0.19.7, Muon came
        // in 0.17.6).
        let names: Vec<&str> = reg
            .optimizers
            .keys()
            .filter(|n| reg.optimizer_span(n).is_none_or(|s| s.holds(release)))
            .map(String::as_str)
            .collect();
        let names = names.join(if zh { "、" } else { ", " });
        return Some(if zh {
            format!("DeepSpeed {release} 内置名称（不区分大小写）：{names}；也可以是 torch.optim 中的类名（区分大小写，如 SGD）")
        } else {
            format!("DeepSpeed {release}'s names (any case): {names}; else a torch.optim class name (exact case, e.g. SGD)")
        });
    }
    match &spec.allowed_text {
        Some(a) => Some(plain_allowed(a, zh)),
        None if !spec.r#enum.is_empty() => Some(spec.r#enum.join(", ")),
        None => None,
    }
}

/// A numeric range as a user reads it: `>0`, `0..1`, `0<x<1`, "any number".
fn range_words((lo, hi): super::Range, zh: bool) -> String {
    let num = |v: f64| {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            format!("{}", v as i64)
        } else {
            format!("{v}")
        }
    };
    match (lo, hi) {
        (None, None) if zh => "任意数值".into(),
        (None, None) => "any number".into(),
        (Some((l, ex)), None) => format!("{}{}", if ex { ">" } else { ">=" }, num(l)),
        (None, Some((h, ex))) => format!("{}{}", if ex { "<" } else { "<=" }, num(h)),
        (Some((l, false)), Some((h, false))) => format!("{}..{}", num(l), num(h)),
        (Some((l, lx)), Some((h, hx))) => format!(
            "{}{}x{}{}",
            num(l),
            if lx { "<" } else { "<=" },
            if hx { "<" } else { "<=" },
            num(h)
        ),
    }
}

/// A key's allowed values (the registry's `allowed_text`) in plain words, in English or Chinese:
/// the registry's notes about where a fact was read (a source snapshot, a test) are left out.
pub fn plain_allowed(text: &str, zh: bool) -> String {
    const WORDS: &[(&str, &str, &str)] = &[
        ("0.0..1.0; <1.0 requires stage 3", "0.0..1.0; below 1.0 needs ZeRO stage 3", "0.0..1.0；小于 1.0 需要 ZeRO stage 3"),
        ("0<x<1; snip_momentum only", "0<x<1; only with snip_momentum", "0<x<1；仅用于 snip_momentum"),
        (">0 when enabled and loss_scale==0; not bool", ">0 when enabled and loss_scale is 0; not true/false", "启用且 loss_scale 为 0 时须 >0；不能是 true/false"),
        (">0; must equal micro*gas*world_size (derived if omitted)", ">0; must equal micro batch × accumulation × world size (derived when left out)", ">0；必须等于 微批 × 梯度累积 × world size（省略时自动推导）"),
        (">=0 (None/negative -> ValueError per tests)", ">=0 (null or negative: ValueError)", ">=0（null 或负数会报 ValueError）"),
        (">=0, finite, not bool (0 = dynamic)", ">=0, finite, not true/false (0 = dynamic)", ">=0，有限数，不能是 true/false（0 表示动态）"),
        (">=0; must be even for stage 1/2 (nccl alignment)", ">=0; even at ZeRO stage 1/2 (NCCL alignment)", ">=0；ZeRO stage 1/2 时须为偶数（NCCL 对齐）"),
        (">=1; >1 requires version 0.2", ">=1; above 1 needs version 0.2", ">=1；大于 1 需要 version 0.2"),
        ("DeepSpeed names (case-insensitive): adam adamw lamb onebitadam zerooneadam onebitlamb adagrad lion muadam muadamw musgd muon; else any torch.optim class name (case-sensitive, e.g. SGD)", "DeepSpeed's names (any case): adam, adamw, lamb, onebitadam, zerooneadam, onebitlamb, adagrad, lion, muadam, muadamw, musgd, muon; else a torch.optim class name (exact case, e.g. SGD)", "DeepSpeed 内置名称（不区分大小写）：adam、adamw、lamb、onebitadam、zerooneadam、onebitlamb、adagrad、lion、muadam、muadamw、musgd、muon；也可以是 torch.optim 中的类名（区分大小写，如 SGD）"),
        ("Ignore|Warn|Fail (upper-cased before check)", "Ignore|Warn|Fail (any case)", "Ignore|Warn|Fail（不区分大小写）"),
        ("LRRangeTest|OneCycle|WarmupLR|WarmupDecayLR|WarmupCosineLR or any torch.optim.lr_scheduler class", "LRRangeTest|OneCycle|WarmupLR|WarmupDecayLR|WarmupCosineLR, or a torch.optim.lr_scheduler class", "LRRangeTest|OneCycle|WarmupLR|WarmupDecayLR|WarmupCosineLR，或 torch.optim.lr_scheduler 中的类"),
        ("bool, default False", "true or false (default false)", "true 或 false（默认 false）"),
        ("constructor kwargs", "the constructor's arguments", "构造函数的参数"),
        ("fixed_discrete: list", "fixed_discrete: a list", "fixed_discrete：列表"),
        ("fixed_discrete: list, len = len(max_step)+1", "fixed_discrete: a list one longer than max_step", "fixed_discrete：比 max_step 多一个元素的列表"),
        ("fixed_root/fixed_linear: required", "required with fixed_root or fixed_linear", "使用 fixed_root 或 fixed_linear 时必填"),
        ("fixed_root: required", "required with fixed_root", "使用 fixed_root 时必填"),
        ("fp16|bf16|fp32 (DtypeEnum spellings)", "fp16|bf16|fp32 (or their torch spellings)", "fp16|bf16|fp32（或 torch 中的写法）"),
        ("fp16|bf16|fp32 (lower-cased before check)", "fp16|bf16|fp32 (any case)", "fp16|bf16|fp32（不区分大小写）"),
        ("int or \"auto\"", "a whole number or \"auto\"", "整数或 \"auto\""),
        ("int or \"auto\"; int >=1 from 0.19.6", "a whole number or \"auto\" (from 0.19.6 at least 1)", "整数或 \"auto\"（自 0.19.6 起须 >=1）"),
        ("kwargs of the optimizer class", "the optimizer class's arguments", "优化器类的参数"),
        ("mean|sum (case-insensitive)", "mean|sum (any case)", "mean|sum（不区分大小写）"),
        ("mock|python|fast (upper-cased)", "mock|python|fast (any case)", "mock|python|fast（不区分大小写）"),
        ("non-empty", "not empty", "不能为空"),
        ("not read by DeepSpeed (Megatron-DeepSpeed reads it)", "not read by DeepSpeed (Megatron-DeepSpeed reads it)", "DeepSpeed 不读取（由 Megatron-DeepSpeed 读取）"),
        ("replica|socket|machine (upper-cased)", "replica|socket|machine (any case)", "replica|socket|machine（不区分大小写）"),
        ("required when enabled", "required when enabled", "启用时必填"),
        ("required when enabled; list of positive ints", "required when enabled; a list of positive whole numbers", "启用时必填；正整数列表"),
        ("required", "required", "必填"),
        ("required: fixed_discrete|fixed_root|fixed_linear|custom (else RuntimeError)", "required: fixed_discrete|fixed_root|fixed_linear|custom (anything else: RuntimeError)", "必填：fixed_discrete|fixed_root|fixed_linear|custom（其他值会报 RuntimeError）"),
        ("requires ZeRO 1/2/3 and bf16_master_weights_and_grads", "needs ZeRO stage 1/2/3 and bf16_master_weights_and_grads", "需要 ZeRO stage 1/2/3 和 bf16_master_weights_and_grads"),
        ("requires ZeRO stage 1/2/3 (stage 2 only before 0.18.3)", "needs ZeRO stage 1/2/3 (before 0.18.3: stage 2 only)", "需要 ZeRO stage 1/2/3（0.18.3 之前仅支持 stage 2）"),
        ("requires ZeRO stage 1/2/3", "needs ZeRO stage 1/2/3", "需要 ZeRO stage 1/2/3"),
        ("runtime-set, not for users", "set by DeepSpeed while running; do not set it", "由 DeepSpeed 运行时设置，请勿手动设置"),
        ("see curriculum_learning.schedule_config", "see curriculum_learning.schedule_config", "见 curriculum_learning.schedule_config"),
        ("snip_momentum only", "only with snip_momentum", "仅用于 snip_momentum"),
        ("true|false exactly", "true or false, nothing else", "只能是 true 或 false"),
    ];
    let t = text.trim();
    match WORDS.iter().find(|(from, _, _)| *from == t) {
        Some((_, en, zh_text)) => if zh { zh_text } else { en }.to_string(),
        None => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::plain_default;

    #[test]
    fn python_is_said_in_plain_words() {
        assert_eq!(
            plain_default("None -> True for stage 3 else False", false),
            "true at ZeRO stage 3, false otherwise"
        );
        assert_eq!(
            plain_default("None -> True for stage 3 else False", true),
            "ZeRO-3 时为 true，其他阶段为 false"
        );
        assert_eq!(plain_default("False", false), "false");
        assert_eq!(plain_default("None", true), "未设置");
        assert_eq!(plain_default("{enabled: False}", false), "{enabled: false}");
        assert_eq!(
            plain_default("None (WarmupLR) / 0.001 (WarmupDecayLR)", false),
            "not set (WarmupLR) / 0.001 (WarmupDecayLR)"
        );
        assert_eq!(plain_default("sys.maxsize", false), "no limit");
        // Words that merely contain a literal are kept.
        assert_eq!(plain_default("NoneType Falsey", false), "NoneType Falsey");
        assert_eq!(plain_default("1e-5", false), "1e-5");
    }

    /// Where a key's bounds changed between releases, each release reads its own range.
    #[test]
    fn allowed_values_follow_the_release() {
        let reg = crate::registry::registry();
        let at = |path: &str, r: &str| {
            super::allowed_at(reg.get(path).unwrap(), r.parse().unwrap(), false).unwrap()
        };
        assert_eq!(at("zero_optimization.reduce_bucket_size", "0.19.5"), ">=0");
        assert_eq!(at("zero_optimization.reduce_bucket_size", "0.19.6"), ">0");
        assert_eq!(at("zero_optimization.zenflow.topk_ratio", "0.18.4"), "0..1");
        assert_eq!(
            at("zero_optimization.zenflow.topk_ratio", "0.19.8"),
            "0<x<1"
        );
        assert_eq!(at("hybrid_engine.max_out_tokens", "0.19.6"), "any number");
        assert_eq!(at("hybrid_engine.max_out_tokens", "0.19.7"), ">0");
        let has = |r: &str, name: &str| {
            let text = at("optimizer.type", r);
            let list = text.split(": ").nth(1).unwrap().split(';').next().unwrap();
            list.split(", ").any(|n| n == name)
        };
        assert!(has("0.19.6", "onebitadam") && !has("0.19.7", "onebitadam"));
        assert!(has("0.19.8", "adamw") && !has("0.17.5", "muon") && has("0.17.6", "muon"));
        assert_eq!(
            super::allowed_at(
                reg.get("fp16.fp16_master_weights_and_grads").unwrap(),
                "0.16.9".parse().unwrap(),
                true
            )
            .unwrap(),
            "需要 ZeRO stage 1/2/3（0.18.3 之前仅支持 stage 2）"
        );
    }

    /// Every key's allowed values read as prose in Chinese where they are prose, and never show
    /// where a fact was read (a source snapshot, a test, PyPI).
    #[test]
    fn allowed_values_are_plain_and_translated() {
        const PROSE: &[&str] = &[
            "required",
            "only",
            "must",
            "not",
            "when",
            "see",
            "exactly",
            "requires",
            "default",
            "else",
            "before",
            "list",
            "names",
            "read",
            "users",
            "kwargs",
            "finite",
            "even",
            "inclusive",
            "derived",
            "release",
            "insensitive",
            "cased",
            "positive",
        ];
        for k in crate::registry::registry().keys() {
            let Some(a) = &k.allowed_text else { continue };
            let prose = a
                .split(|c: char| !c.is_ascii_alphabetic() && c != '-')
                .any(|w| PROSE.contains(&w));
            let zh = super::plain_allowed(a, true);
            let en = super::plain_allowed(a, false);
            if prose {
                assert!(
                    zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                    "{}: {a:?} → {zh:?}",
                    k.path
                );
            }
            for internal in ["snapshot", "edaa722", "per tests", "PyPI", "DtypeEnum"] {
                assert!(
                    !zh.contains(internal) && !en.contains(internal),
                    "{}: {en:?}",
                    k.path
                );
            }
        }
    }

    /// Every default in the registry reads without Python's literals or arrows.
    #[test]
    fn no_registry_default_shows_python() {
        for k in crate::registry::registry().keys() {
            let Some(d) = &k.default_text else { continue };
            for zh in [false, true] {
                let plain = plain_default(d, zh);
                let words: Vec<&str> = plain
                    .split(|c: char| !c.is_alphanumeric() && c != '_')
                    .collect();
                assert!(
                    !words.iter().any(|w| ["True", "False", "None"].contains(w))
                        && !["->", "sys.", "torch."].iter().any(|p| plain.contains(p)),
                    "{}: {d:?} → {plain:?}",
                    k.path
                );
            }
        }
    }
}
