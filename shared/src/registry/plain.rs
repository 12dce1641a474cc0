//! Defaults in plain words: the registry keeps a key's default as DeepSpeed's source spells it
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
