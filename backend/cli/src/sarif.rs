//! `validate --format sarif`: one SARIF 2.1.0 log for all inputs (GitHub code scanning,
//! Azure DevOps, any SARIF viewer). One run, one rule per diagnostic code met, one result per
//! diagnostic with its file, line and column, the JSON pointer as a logical location, and
//! text fixes as SARIF fixes (byte regions). Inputs that could not be read are tool execution
//! notifications, and make the invocation unsuccessful.

use ds_studio_shared::i18n::Lang;
use ds_studio_shared::{Diagnostic, Severity};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// One input and what was found.
pub struct Input<'a> {
    pub name: &'a str,
    pub diagnostics: &'a [Diagnostic],
}

/// A path as a SARIF `uri`: a relative reference as given (what code scanning resolves against
/// the repository), an absolute path as a `file://` URI; percent-encoded where it must be.
fn uri_of(path: &str) -> String {
    let mut out = String::new();
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The SARIF log of `inputs`; `unreadable` are (file, why) pairs.
pub fn log(inputs: &[Input], unreadable: &[(String, String)], lang: Lang) -> Value {
    let mut rules: BTreeMap<&str, (usize, &Diagnostic)> = BTreeMap::new();
    for i in inputs {
        for d in i.diagnostics {
            let n = rules.len();
            rules.entry(&d.code).or_insert((n, d));
        }
    }
    // Rule indexes follow the sorted order of the rules array.
    let index: BTreeMap<&str, usize> = rules.keys().enumerate().map(|(i, k)| (*k, i)).collect();
    let rule_list: Vec<Value> = rules
        .iter()
        .map(|(code, (_, d))| {
            json!({
                "id": code,
                "shortDescription": {"text": format!("ds-studio {code}")},
                "defaultConfiguration": {"level": level(d.severity)},
            })
        })
        .collect();
    let mut results = Vec::new();
    for i in inputs {
        for d in i.diagnostics {
            let mut region =
                json!({"startLine": d.line.unwrap_or(1), "startColumn": d.column.unwrap_or(1)});
            if d.line.is_none() {
                region = json!({"startLine": 1});
            }
            let mut r = json!({
                "ruleId": d.code,
                "ruleIndex": index[d.code.as_str()],
                "level": level(d.severity),
                "message": {"text": d.message.get(lang)},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": uri_of(i.name)},
                        "region": region,
                    },
                    "logicalLocations": [{"fullyQualifiedName": if d.path.is_empty() { "/" } else { &d.path }, "kind": "member"}],
                }],
            });
            if let Some(edits) = &d.text_fix {
                let replacements: Vec<Value> = edits
                    .iter()
                    .map(|e| json!({"deletedRegion": {"byteOffset": e.start, "byteLength": e.end - e.start}, "insertedContent": {"text": e.text}}))
                    .collect();
                r["fixes"] = json!([{
                    "description": {"text": d.message.get(lang)},
                    "artifactChanges": [{"artifactLocation": {"uri": uri_of(i.name)}, "replacements": replacements}],
                }]);
            }
            results.push(r);
        }
    }
    let notifications: Vec<Value> = unreadable
        .iter()
        .map(|(file, why)| json!({"level": "error", "message": {"text": format!("cannot read {file}: {why}")}}))
        .collect();
    // Each file once (SARIF wants artifacts unique), even when given twice.
    let mut seen = std::collections::HashSet::new();
    let artifacts: Vec<Value> = inputs
        .iter()
        .map(|i| uri_of(i.name))
        .filter(|uri| seen.insert(uri.clone()))
        .map(|uri| json!({"location": {"uri": uri}}))
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "ds-studio",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rule_list,
            }},
            "invocations": [{
                "executionSuccessful": unreadable.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "artifacts": artifacts,
            "results": results,
        }],
    })
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ds_studio_shared::i18n::Text;

    #[test]
    fn results_point_at_files_and_rules() {
        let mut d = Diagnostic::error("batch-size", "", Text::new("no batch", "没有 batch"));
        d.line = Some(1);
        d.column = Some(1);
        let w = Diagnostic::warning("deprecated-key", "/bfloat16", Text::new("old", "旧"));
        let diags = [d, w];
        let log = log(
            &[Input {
                name: "configs/my config.json",
                diagnostics: &diags,
            }],
            &[("gone.json".into(), "No such file".into())],
            Lang::Zh,
        );
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "batch-size");
        assert_eq!(run["results"][1]["ruleIndex"], 1);
        assert_eq!(run["results"][1]["level"], "warning");
        assert_eq!(run["results"][0]["message"]["text"], "没有 batch");
        assert_eq!(
            run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "configs/my%20config.json"
        );
        assert_eq!(run["invocations"][0]["executionSuccessful"], false);
    }
}
