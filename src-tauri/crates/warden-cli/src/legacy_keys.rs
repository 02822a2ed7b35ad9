//! For one release, what moved out of a tool result's open `metadata` into its typed `report`
//! (how a command ended, its box, a diff, what the call changed, …) is written into `metadata`
//! again, under the keys it had, in what `warden exec --json` and `warden tool --json` print: a
//! script written against the old keys keeps working while it moves to `report`. The window reads
//! `report` only.

use serde_json::{Map, Value};
use warden_protocol::{ToolReport, ToolResult};

/// `result` with its report's parts also under their old `metadata` keys (a key the tool itself
/// set is left as it is).
pub fn with_legacy_keys(result: &ToolResult) -> ToolResult {
    let mut metadata = match &result.metadata {
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    for (key, value) in legacy_keys(&result.report) {
        metadata.entry(key).or_insert(value);
    }
    ToolResult { metadata: (!metadata.is_empty()).then_some(Value::Object(metadata)), ..result.clone() }
}

/// The report's parts as the keys `metadata` had before the report existed.
fn legacy_keys(report: &ToolReport) -> Vec<(String, Value)> {
    let mut keys: Vec<(&str, Value)> = Vec::new();
    let mut put = |key, value: Option<Value>| keys.extend(value.map(|v| (key, v)));
    put("duration_ms", report.duration_ms.map(Value::from));
    if let Some(end) = report.command {
        put("exit_code", Some(end.exit_code.map_or(Value::Null, Value::from)));
        put("signal", Some(end.signal.map_or(Value::Null, Value::from)));
    }
    if let Some(sandbox) = &report.sandbox {
        put("contained", Some(Value::from(sandbox.contained)));
        put("sandbox", sandbox.summary.clone().map(Value::from));
    }
    if let Some(diff) = &report.diff {
        put("path", Some(Value::from(diff.path.clone())));
        put("diff", Some(Value::from(diff.diff.clone())));
    }
    put("changes", report.changes.as_ref().and_then(|c| serde_json::to_value(c).ok()));
    put("network", listed(&report.network));
    put("forwarded_ports", listed(&report.forwarded_ports));
    put("gitSwept", listed(&report.git_swept));
    put("gitAside", listed(&report.git_aside));
    put("hiddenHomePaths", listed(&report.readable_offers));
    if let Some(rule) = &report.rule {
        let key = if rule.kept { "ruleKept" } else { "ruleNotKept" };
        put(key, Some(Value::from(rule.words.clone())));
    }
    keys.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// A non-empty list as JSON.
fn listed<T: serde::Serialize>(items: &[T]) -> Option<Value> {
    if items.is_empty() {
        return None;
    }
    serde_json::to_value(items).ok()
}

#[cfg(test)]
mod tests {
    use warden_protocol::{BoxUse, CommandEnd, RuleNote, ToolStatus};

    use super::*;

    fn result(report: ToolReport, metadata: Option<Value>) -> ToolResult {
        ToolResult {
            conversation_id: "c".into(),
            message_id: "m".into(),
            tool_id: "t".into(),
            status: ToolStatus::Error,
            code: None,
            result: "x".into(),
            report,
            metadata,
            images: Vec::new(),
        }
    }

    #[test]
    fn the_report_is_also_under_the_old_keys_and_the_tools_own_keys_win() {
        let report = ToolReport {
            duration_ms: Some(12),
            command: Some(CommandEnd { exit_code: Some(2), signal: None }),
            sandbox: Some(BoxUse { contained: true, summary: Some("no network".into()) }),
            readable_offers: vec!["/home/u/notes".into()],
            rule: Some(RuleNote { kept: false, words: "no".into() }),
            ..ToolReport::default()
        };
        let out = with_legacy_keys(&result(
            report.clone(),
            Some(serde_json::json!({"cwd": "/p", "duration_ms": 99})),
        ));
        let metadata = out.metadata.unwrap_or_default();
        assert_eq!(metadata["exit_code"], 2);
        assert_eq!(metadata["signal"], Value::Null);
        assert_eq!(metadata["contained"], true);
        assert_eq!(metadata["sandbox"], "no network");
        assert_eq!(metadata["hiddenHomePaths"], serde_json::json!(["/home/u/notes"]));
        assert_eq!(metadata["ruleNotKept"], "no");
        assert_eq!(metadata["cwd"], "/p");
        assert_eq!(metadata["duration_ms"], 99, "the tool's own key is kept");
        assert_eq!(out.report, report, "the report itself is unchanged");
    }

    #[test]
    fn an_empty_report_adds_nothing() {
        assert_eq!(with_legacy_keys(&result(ToolReport::default(), None)).metadata, None);
    }
}
