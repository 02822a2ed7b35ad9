//! An MCP `CallToolResult` as the model reads it: text as it is, images, audio and binary resources
//! named with their type and size (never their bytes), embedded text resources with their address,
//! resource links as links, `structuredContent` as JSON when the server sent nothing else, and
//! `isError` as a failed call. The registry caps the whole as for every tool. Images are taken in
//! as every image is ([`crate::images::prepare`]: recognised by their bytes, bounded, scaled down);
//! one that is refused is named with the reason instead.

use serde_json::Value;
use warden_protocol::ToolErrorCode;

use crate::tool::ToolOutput;

/// The tool output for `result` (the server's `CallToolResult` as JSON).
pub async fn to_output(result: &Value) -> ToolOutput {
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
    let (images, refused) = images_of(result).await;
    output.images = images;
    for why in refused {
        output.content.push_str(&format!("\n[an image of this result is not passed on: {why}]"));
    }
    output
}

/// The most images one result passes on, and the most base64 each may have (about 1.5 MB).
const MAX_IMAGES: usize = 4;
const MAX_IMAGE_BASE64: usize = 2 * 1024 * 1024;
/// The image types models take.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// The result's images a model can be shown — of a type models take, well-formed base64, not too
/// large, at most four, each taken in by the bounded decoder — and why any of those four was not.
async fn images_of(result: &Value) -> (Vec<warden_protocol::ToolImage>, Vec<String>) {
    let blocks = result.get("content").and_then(Value::as_array).into_iter().flatten();
    let candidates: Vec<&str> = blocks
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("image"))
        .filter_map(|b| {
            let media_type = b.get("mimeType").and_then(Value::as_str)?;
            let data = b.get("data").and_then(Value::as_str)?;
            let base64 = data.len() <= MAX_IMAGE_BASE64
                && !data.is_empty()
                && data.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='));
            (IMAGE_TYPES.contains(&media_type) && base64).then_some(data)
        })
        .take(MAX_IMAGES)
        .collect();
    let (mut images, mut refused) = (Vec::new(), Vec::new());
    for data in candidates {
        match crate::images::prepare_base64(data).await {
            Ok(prepared) => images.push(prepared.image),
            Err(error) => refused.push(error.to_string()),
        }
    }
    (images, refused)
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
    use base64::Engine as _;
    use serde_json::json;

    fn png_base64(width: u32, height: u32) -> String {
        let picture = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([x as u8, y as u8, 7]));
        let mut out = std::io::Cursor::new(Vec::new());
        picture.write_to(&mut out, image::ImageFormat::Png).unwrap_or_else(|e| panic!("{e}"));
        base64::engine::general_purpose::STANDARD.encode(out.into_inner())
    }

    #[tokio::test]
    async fn every_kind_of_content_is_told_in_words() {
        let png = png_base64(4, 3);
        let result = json!({"content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "data": png, "mimeType": "image/png"},
            {"type": "resource", "resource": {"uri": "test://a", "text": "inside", "mimeType": "text/plain"}},
            {"type": "resource", "resource": {"uri": "test://b", "blob": "AAAAAAAA", "mimeType": "application/zip"}},
            {"type": "resource_link", "uri": "test://c", "name": "c.txt"},
        ]});
        let output = to_output(&result).await;
        assert!(!output.is_error);
        let size = png.trim_end_matches('=').len() * 3 / 4;
        assert_eq!(
            output.content,
            format!("hello\n[image (image/png, {size} bytes)]\n[resource test://a]\ninside\n[binary resource test://b (application/zip, 6 bytes)]\n[resource link: c.txt <test://c>]")
        );
        assert_eq!(output.metadata["images"], 1);
        assert_eq!(output.images, [warden_protocol::ToolImage { media_type: "image/png".into(), data: png }]);
    }

    #[tokio::test]
    async fn only_images_a_model_takes_are_passed_on() {
        let png = png_base64(2, 2);
        let result = json!({"content": [
            {"type": "image", "data": "AAAA", "mimeType": "image/svg+xml"},
            {"type": "image", "data": "not base64!", "mimeType": "image/png"},
            {"type": "image", "data": png, "mimeType": "image/jpeg"},
            {"type": "image", "data": "QUJD", "mimeType": "image/jpeg"},
        ]});
        let output = to_output(&result).await;
        // Recognised by its bytes, whatever the server claimed.
        assert_eq!(output.images.len(), 1);
        assert_eq!(output.images[0].media_type, "image/png");
        assert!(output.content.contains("[image (image/svg+xml"), "every image is still described");
        assert!(
            output.content.contains(
                "[an image of this result is not passed on: it is not a PNG, JPEG, GIF or WebP image]"
            ),
            "{}",
            output.content
        );
    }

    #[tokio::test]
    async fn a_decompression_bomb_is_refused_from_its_header() {
        let bomb = base64::engine::general_purpose::STANDARD
            .encode(warden_testkit::images::bomb_png(20_000, 20_000));
        let output =
            to_output(&json!({"content": [{"type": "image", "data": bomb, "mimeType": "image/png"}]})).await;
        assert!(output.images.is_empty());
        assert!(output.content.contains("20000×20000 pixels (400 megapixels)"), "{}", output.content);
    }

    #[tokio::test]
    async fn structured_content_stands_in_for_missing_text_and_errors_fail() {
        let output = to_output(&json!({"content": [], "structuredContent": {"sum": 3}})).await;
        assert!(output.content.contains("\"sum\": 3"));
        assert_eq!(output.metadata["structured_content"], json!({"sum": 3}));
        let failed =
            to_output(&json!({"content": [{"type": "text", "text": "no such file"}], "isError": true})).await;
        assert!(failed.is_error);
        assert_eq!(failed.code, Some(ToolErrorCode::ExecutionError));
        assert_eq!(failed.content, "no such file");
        assert_eq!(to_output(&json!({"isError": true})).await.content, "the tool reported an error");
        assert_eq!(to_output(&json!({})).await.content, "(no output)");
    }
}
