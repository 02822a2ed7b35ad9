//! An MCP resource read to go with the user's next message (the composer's "Attach a resource"):
//! its text parts as they are, its binary parts named with their type and size (a model reads no
//! bytes from here), the whole cut at [`RESOURCE_MAX_CHARS`] with the cut said. What the server
//! sends is untrusted text: it reaches the model only as part of a message the user sends, and the
//! window shows it as text.

use rmcp::model::ResourceContents;
use warden_protocol::McpResourceText;

/// The most text a resource brings to a message (about 12k tokens).
pub const RESOURCE_MAX_CHARS: usize = 50_000;

/// `contents`, read from `uri` on `server`, as one text.
pub fn as_text(server: &str, uri: &str, contents: &[ResourceContents]) -> McpResourceText {
    let parts: Vec<String> = contents
        .iter()
        .map(|part| match part {
            ResourceContents::TextResourceContents { text, .. } => text.clone(),
            ResourceContents::BlobResourceContents { mime_type, blob, .. } => {
                let kind = mime_type.as_deref().unwrap_or("binary data");
                format!("[{kind}, {} bytes, not shown]", blob.len() / 4 * 3)
            }
            _ => "[a part of a kind Warden does not read]".to_owned(),
        })
        .collect();
    let whole = if parts.is_empty() { "(the resource is empty)".to_owned() } else { parts.join("\n\n") };
    let truncated = whole.chars().count() > RESOURCE_MAX_CHARS;
    let text = if truncated { whole.chars().take(RESOURCE_MAX_CHARS).collect() } else { whole };
    McpResourceText { server: server.to_owned(), uri: uri.to_owned(), text, truncated }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_kept_binary_is_named_and_a_long_resource_is_cut_at_a_character() {
        let blob = ResourceContents::BlobResourceContents {
            uri: "test://b".into(),
            mime_type: Some("image/png".into()),
            blob: "AAAA".repeat(10),
            meta: None,
        };
        let read = as_text("s", "test://x", &[ResourceContents::text("hello", "test://x"), blob]);
        assert_eq!(read.text, "hello\n\n[image/png, 30 bytes, not shown]");
        assert!(!read.truncated);
        assert_eq!(as_text("s", "u", &[]).text, "(the resource is empty)");

        let long = "é".repeat(RESOURCE_MAX_CHARS + 10);
        let cut = as_text("s", "u", &[ResourceContents::text(long, "u")]);
        assert!(cut.truncated);
        assert_eq!(cut.text.chars().count(), RESOURCE_MAX_CHARS);
    }
}
