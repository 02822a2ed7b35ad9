//! Images on the wire: an image the user attached and one a tool returned, in each provider's own
//! format — Anthropic image blocks (in the user turn and inside the tool result), OpenAI
//! `image_url` parts with `data:` URLs, Ollama's `images` field — against the request fixtures.
//! OpenAI and Ollama tool messages cannot carry images, so a tool's images follow its results in
//! a user message.

use serde_json::Value;
use warden_core::provider::{ChatRequest, ProviderKind};
use warden_protocol::{ContentBlock, Message, Role, ToolImage, ToolResultBlock, ToolUse};

use super::common::run_with;
use crate::support::server::{Reply, Split};
use crate::support::{fixture, fixture_json};

const ATTACHED: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
const RETURNED: &str = "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==";

fn history() -> Vec<Message> {
    vec![
        Message {
            role: Role::User,
            content: vec![
                ContentBlock::Text { text: "What is in this screenshot, and in shot.jpg?".into() },
                ContentBlock::Image(ToolImage { media_type: "image/png".into(), data: ATTACHED.into() }),
            ],
        },
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolUse(ToolUse {
                id: "call_1".into(),
                name: "file_read".into(),
                input: serde_json::json!({"path": "shot.jpg"}),
                raw_arguments: Some("{\"path\": \"shot.jpg\"}".into()),
                written: None,
            })],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResultBlock {
                tool_use_id: "call_1".into(),
                report: None,
                tool_name: "file_read".into(),
                content: "shot.jpg is an image (JPEG, 1×1, 160 bytes); it is attached.".into(),
                is_error: false,
                code: None,
                images: vec![ToolImage { media_type: "image/jpeg".into(), data: RETURNED.into() }],
            })],
        },
    ]
}

async fn sent(kind: ProviderKind, reply: Reply, model: &str) -> Value {
    let request = ChatRequest {
        model: model.into(),
        system: None,
        messages: history(),
        tools: Vec::new(),
        max_tokens: 1024,
        thinking: None,
        tool_choice: Default::default(),
    };
    let (_, requests) = run_with(kind, vec![reply], |_| {}, request).await;
    requests[0].body.clone()
}

#[tokio::test]
async fn anthropic_sends_image_blocks_in_the_turn_and_in_the_tool_result() {
    let body = sent(
        ProviderKind::Anthropic,
        Reply::sse(fixture("anthropic/a_text.sse"), Split::Whole),
        "claude-test",
    )
    .await;
    assert_eq!(body, fixture_json("anthropic/request_with_images.json"), "{body}");
}

#[tokio::test]
async fn openai_sends_image_url_parts_and_the_tools_images_after_its_results() {
    let body =
        sent(ProviderKind::OpenAi, Reply::sse(fixture("openai/a_text.sse"), Split::Whole), "gpt-test").await;
    assert_eq!(body, fixture_json("openai/request_with_images.json"), "{body}");
}

#[tokio::test]
async fn ollama_sends_the_images_field_and_the_tools_images_after_its_results() {
    let body = sent(
        ProviderKind::Ollama,
        Reply::ndjson(fixture("ollama/a_chat_text.ndjson"), Split::Whole),
        "llava-test",
    )
    .await;
    assert_eq!(body, fixture_json("ollama/request_with_images.json"), "{body}");
}
