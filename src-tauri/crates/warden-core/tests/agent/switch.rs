//! Switching provider mid-conversation: the window restarts a conversation's session from its
//! history when the settings change, so a history one provider made is sent to another. Anthropic's
//! thinking blocks (with signatures only Anthropic can check) must not reach OpenAI or Ollama, every
//! tool result must still answer its call in the new wire format (Ollama keys results by tool
//! name), and a history made elsewhere must be valid for Anthropic.

use serde_json::{json, Value};
use warden_core::agent::TurnEnd;
use warden_protocol::TrustLevel;

use super::harness::{approve_all, Harness, Wire};
use super::wire::{text, tool, Part};

/// A turn on `from` with thinking (where the wire has it), a tool call and an answer; its history.
async fn history_from(from: Wire) -> (Harness, Vec<warden_protocol::Message>) {
    let replies = vec![
        from.reply(
            &[
                Part::Thinking { text: "Let me look at the notes.", signature: "sig-anthropic-only" },
                tool("call_1", "file_read", json!({"path": "notes.txt"})),
            ],
            10,
        ),
        from.reply(&[text("The notes say hello.")], 10),
    ];
    let mut h = Harness::new(from, replies, |c| c.trust = TrustLevel::Autonomous).await;
    std::fs::write(h.path("notes.txt"), "hello\n").unwrap();
    let run = h.run("what do the notes say?", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);
    let history = h.session.history();
    if from == Wire::Anthropic {
        // What the other providers must not get is really there to leak.
        let kept = serde_json::to_string(&history).unwrap();
        assert!(kept.contains("sig-anthropic-only") && kept.contains("Let me look at the notes."), "{kept}");
    }
    (h, history)
}

/// The body the `to` provider got for the next turn, after the history of `from`.
async fn next_request_on(to: Wire, history: Vec<warden_protocol::Message>) -> Value {
    let mut h = Harness::new(to, vec![to.reply(&[text("Still hello.")], 10)], |c| {
        c.trust = TrustLevel::Autonomous;
    })
    .await;
    h.session = h.session.clone().with_history(history);
    let run = h.run("and now?", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed, "{to:?} refused the history");
    h.requests().last().unwrap().body.clone()
}

#[tokio::test]
async fn anthropic_thinking_never_reaches_openai_and_the_tool_result_answers_its_call() {
    let (_h, history) = history_from(Wire::Anthropic).await;
    let body = next_request_on(Wire::OpenAi, history).await;
    let text = body.to_string();
    assert!(!text.contains("sig-anthropic-only"), "a thinking signature went to OpenAI: {text}");
    assert!(!text.contains("Let me look at the notes."), "Anthropic's thinking went to OpenAI: {text}");
    let messages = body["messages"].as_array().unwrap();
    let call = messages.iter().find(|m| m["role"] == "assistant" && m["tool_calls"].is_array()).unwrap();
    assert_eq!(call["tool_calls"][0]["id"], "call_1");
    assert_eq!(call["tool_calls"][0]["function"]["name"], "file_read");
    let result = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(result["tool_call_id"], "call_1");
    assert!(result["content"].as_str().unwrap().contains("hello"), "{result}");
}

#[tokio::test]
async fn anthropic_history_on_ollama_keys_the_result_by_tool_name_without_thinking_signatures() {
    let (_h, history) = history_from(Wire::Anthropic).await;
    let body = next_request_on(Wire::Ollama, history).await;
    let text = body.to_string();
    assert!(!text.contains("sig-anthropic-only"), "a thinking signature went to Ollama: {text}");
    let messages = body["messages"].as_array().unwrap();
    let call = messages.iter().find(|m| m["role"] == "assistant" && m["tool_calls"].is_array()).unwrap();
    assert_eq!(call["tool_calls"][0]["function"]["name"], "file_read");
    let result = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(result["tool_name"], "file_read", "{result}");
    assert!(result["content"].as_str().unwrap().contains("hello"), "{result}");
}

#[tokio::test]
async fn an_openai_history_is_valid_for_anthropic() {
    let (_h, history) = history_from(Wire::OpenAi).await;
    let body = next_request_on(Wire::Anthropic, history).await;
    let messages = body["messages"].as_array().unwrap();
    // Every tool_use is answered by a tool_result with its id in the next message.
    let uses: Vec<&Value> = messages
        .iter()
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .filter(|b| b["type"] == "tool_use")
        .collect();
    assert_eq!(uses.len(), 1, "{body}");
    assert_eq!(uses[0]["id"], "call_1");
    let results: Vec<&Value> = messages
        .iter()
        .flat_map(|m| m["content"].as_array().into_iter().flatten())
        .filter(|b| b["type"] == "tool_result")
        .collect();
    assert_eq!(results.len(), 1, "{body}");
    assert_eq!(results[0]["tool_use_id"], "call_1");
    // A thinking block without Anthropic's signature is never sent back as one.
    assert!(
        messages
            .iter()
            .flat_map(|m| m["content"].as_array().into_iter().flatten())
            .all(|b| b["type"] != "thinking" || b["signature"].as_str().is_some_and(|s| !s.is_empty())),
        "{body}"
    );
}
