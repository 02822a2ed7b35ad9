//! An MCP `CallToolResult` as the model reads it: text as it is, images, audio and binary resources
//! named with their type and size (never their bytes), embedded text resources with their address,
//! resource links as links, `structuredContent` as JSON when the server sent nothing else, and
//! `isError` as a failed call. The registry caps the whole as for every tool.

use serde_json::Value;
use warden_protocol::ToolErrorCode;

use crate::tool::ToolOutput;

/// The tool output for `result` (the server's `CallToolResult` as JSON).
pub fn to_output(result: &Value) -> ToolOutput {
    let blocks: Vec<String> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(block_text)
        .collect();
    let structured = result.get("structuredContent").filter(|v| !v.is_null());
    let mut text = blocks.join("\n");
    if text.trim().is_empty() {
        if let Some(structured) = structured {
            text = serde_json::to_string_pretty(structured).unwrap_or_default();
        }
    }
    let images = count(result, "image");
    let is_error = result.get("isError").and_then(Value::as_bool).unwrap_or(false);
    let mut output = if is_error {
        let message = if text.trim().is_empty() { "the tool reported an error".to_owned() } else { text };
        ToolOutput::error(ToolErrorCode::ExecutionError, message)
    } else {
        ToolOutput::success(if text.is_empty() { "(no output)".to_owned() } else { text })
    };
    if let Some(structured) = structured {
        output = output.with_metadata("structured_content", structured);
    }
    if images > 0 {
        output = output.with_metadata("images", images);
    }
    output.images = images_of(result);
    output
}

/// The most images one result passes on, and the most base64 each may have (about 1.5 MB).
const MAX_IMAGES: usize = 4;
const MAX_IMAGE_BASE64: usize = 2 * 1024 * 1024;
/// The image types models take.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The result's images a model can be shown: of a type models take, well-formed base64, not too
/// large, at most four.
fn images_of(result: &Value) -> Vec<warden_protocol::ToolImage> {
    let blocks = result.get("content").and_then(Value::as_array).into_iter().flatten();
    blocks
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("image"))
        .filter_map(|b| {
            let media_type = b.get("mimeType").and_then(Value::as_str)?;
            let data = b.get("data").and_then(Value::as_str)?;
            let base64 = data.len() <= MAX_IMAGE_BASE64
                && !data.is_empty()
                && data.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
            (IMAGE_TYPES.contains(&media_type) && base64).then(|| warden_protocol::ToolImage {
                media_type: media_type.to_owned(),
                data: data.to_owned(),
            })
        })
        .take(MAX_IMAGES)
        .collect()
}

fn count(result: &Value, kind: &str) -> usize {
    result.get("content").and_then(Value::as_array).map_or(0, |blocks| {
        blocks.iter().filter(|b| b.get("type").and_then(Value::as_str) == Some(kind)).count()
    })
}

fn block_text(block: &Value) -> Option<String> {
    let field = |name: &str| block.get(name).and_then(Value::as_str);
    match field("type")? {
        "text" => field("text").map(str::to_owned),
        "image" | "audio" => Some(format!(
            "[{} ({}, {})]",
            field("type").unwrap_or_default(),
            field("mimeType").unwrap_or("unknown type"),
            size(field("data").unwrap_or_default())
        )),
        "resource" => {
            let resource = block.get("resource")?;
            let uri = resource.get("uri").and_then(Value::as_str).unwrap_or("?");
            match resource.get("text").and_then(Value::as_str) {
                Some(text) => Some(format!("[resource {uri}]\n{text}")),
                None => Some(format!(
                    "[binary resource {uri} ({}, {})]",
                    resource.get("mimeType").and_then(Value::as_str).unwrap_or("unknown type"),
                    size(resource.get("blob").and_then(Value::as_str).unwrap_or_default())
                )),
            }
        }
        "resource_link" => {
            let uri = field("uri").unwrap_or("?");
            Some(match field("name").or(field("title")) {
                Some(name) => format!("[resource link: {name} <{uri}>]"),
                None => format!("[resource link: <{uri}>]"),
            })
        }
        other => Some(format!("[{other} content]")),
    }
}

/// The decoded size of base64 `data`, in words.
fn size(data: &str) -> String {
    let bytes = data.trim_end_matches('=').len() * 3 / 4;
    if bytes >= 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_of_content_is_told_in_words() {
        let result = json!({"content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "data": "AAAA", "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "test://a", "text": "inside", "mimeType": "text/plain"}},
            {"type": "resource", "resource": {"uri": "test://b", "blob": "AAAAAAAA", "mimeType": "application/zip"}},
            {"type": "resource_link", "uri": "test://c", "name": "c.txt"},
        ]});
        let output = to_output(&result);
        assert!(!output.is_error);
        assert_eq!(
            output.content,
            "hello\n[image (image/png, 3 bytes)]\n[resource test://a]\ninside\n[binary resource test://b (application/zip, 6 bytes)]\n[resource link: c.txt <test://c>]"
        );
        assert_eq!(output.metadata["images"], 1);
        assert_eq!(
            output.images,
            [warden_protocol::ToolImage { media_type: "image/png".into(), data: "AAAA".into() }]
        );
    }

    #[test]
    fn only_images_a_model_takes_are_passed_on() {
        let result = json!({"content": [
            {"type": "image", "data": "AAAA", "mimeType": "image/svg+xml"},
            {"type": "image", "data": "not base64!", "mimeType": "image/png"},
            {"type": "image", "data": "QUJD", "mimeType": "image/jpeg"},
        ]});
        let output = to_output(&result);
        assert_eq!(output.images.len(), 1);
        assert_eq!(output.images[0].media_type, "image/jpeg");
        assert!(output.content.contains("[image (image/svg+xml"), "every image is still described");
    }

    #[test]
    fn structured_content_stands_in_for_missing_text_and_errors_fail() {
        let output = to_output(&json!({"content": [], "structuredContent": {"sum": 3}}));
        assert!(output.content.contains("\"sum\": 3"));
        assert_eq!(output.metadata["structured_content"], json!({"sum": 3}));
        let failed =
            to_output(&json!({"content": [{"type": "text", "text": "no such file"}], "isError": true}));
        assert!(failed.is_error);
        assert_eq!(failed.code, Some(ToolErrorCode::ExecutionError));
        assert_eq!(failed.content, "no such file");
        assert_eq!(to_output(&json!({"isError": true})).content, "the tool reported an error");
        assert_eq!(to_output(&json!({})).content, "(no output)");
    }
}
