//! Compaction through real HTTP: a turn that fills the context window gets a summary request, the
//! next request carries the summary instead of the older messages (thinking signatures of the
//! kept part intact), the turn completes, and the history keeps every message.

use std::sync::Arc;

use serde_json::{json, Value};
use warden_core::agent::compaction::SUMMARY_INTRO;
use warden_core::agent::TurnEnd;
use warden_core::conversations::ConversationStore;
use warden_protocol::{ContentBlock, Event, Role, StopReason};

use super::harness::{approve_all, Harness, Wire};
use super::wire::{text, tool, Part};

const SIGNATURE: &str = "EqQBCkYIBxABGAIqQL+/9w==sig-of-the-kept-turn";

fn thinking(text: &'static str, signature: &'static str) -> Part {
    Part::Thinking { text, signature }
}

/// A session with a context window of `window` tokens, compacting at 80 %, that saves to a store
/// of its own (kept alive by the returned folder).
async fn saving_harness(
    wire: Wire,
    replies: Vec<warden_testkit::server::Reply>,
    window: u32,
) -> (Harness, Arc<ConversationStore>, tempfile::TempDir) {
    let home = tempfile::tempdir().unwrap();
    let store = Arc::new(ConversationStore::open(&home.path().join("conversations.db")).unwrap());
    let saved = store.clone();
    let h = Harness::new(wire, replies, move |c| {
        c.context_window = Some(window);
        c.budget_threshold = 0.8;
        c.store = Some(saved);
    })
    .await;
    (h, store, home)
}

#[tokio::test]
async fn a_full_context_is_summarized_and_the_turn_goes_on_with_thinking_intact() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[thinking("look at a", "sig-1"), tool("r1", "file_read", json!({"path": "a.txt"}))], 500),
        // The context is now past 80 % of 2,000 tokens.
        wire.reply(&[thinking("now b", SIGNATURE), tool("r2", "file_read", json!({"path": "b.txt"}))], 1_700),
        // The summary request's answer.
        wire.reply(&[text("SUMMARY: the user asked about a.txt and b.txt; a.txt was read.")], 900),
        wire.reply(&[text("Both files read. Done.")], 400),
    ];
    let (mut h, store, _home) = saving_harness(wire, replies, 2_000).await;
    std::fs::write(h.path("a.txt"), "alpha ".repeat(500)).unwrap();
    std::fs::write(h.path("b.txt"), "bravo").unwrap();
    let run = h.run("what is in a.txt and b.txt?", approve_all()).await;

    assert_eq!(run.end, TurnEnd::Completed);
    assert_eq!(run.last_stream_end().stop_reason, StopReason::EndTurn);
    let compacted: Vec<_> =
        run.events.iter().filter_map(|e| if let Event::Compacted(c) = e { Some(c) } else { None }).collect();
    assert_eq!(compacted.len(), 1, "{:?}", run.names());
    assert_eq!(compacted[0].summarized_messages, 3);
    assert!(compacted[0].tokens_before >= 1_700, "the provider's count: {:?}", compacted[0]);
    assert!(compacted[0].tokens_after < 1_600, "{:?}", compacted[0]);
    assert!(!compacted[0].manual);

    let requests = h.requests();
    assert_eq!(requests.len(), 4);
    // The summary request: no tools, a transcript of the older part with the long result cut.
    let summary_request = &requests[2].body;
    assert!(summary_request.get("tools").is_none(), "{summary_request}");
    let asked = summary_request["messages"][0]["content"].to_string();
    assert!(asked.contains("[user] what is in a.txt and b.txt?"), "{asked}");
    assert!(asked.contains("more characters]"), "the long tool result is cut: {asked}");
    assert!(!asked.contains("bravo"), "the kept part is not summarized");

    // The next request: the summary, then the kept part exactly as it was.
    let next = &requests[3].body;
    let messages = next["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3, "{next}");
    let intro = match &messages[0]["content"] {
        Value::String(text) => text.clone(),
        blocks => blocks[0]["text"].as_str().unwrap().to_owned(),
    };
    assert!(intro.starts_with(SUMMARY_INTRO) && intro.contains("SUMMARY: the user asked"), "{intro}");
    assert_eq!(messages[1]["role"], "assistant");
    assert_eq!(
        messages[1]["content"][0],
        json!({"type": "thinking", "thinking": "now b", "signature": SIGNATURE})
    );
    assert_eq!(messages[1]["content"][1]["id"], "r2");
    assert_eq!(messages[2]["content"][0]["tool_use_id"], "r2");
    assert!(!next.to_string().contains("alpha alpha"), "the summarized tool result is not sent again");
    assert!(!next.to_string().contains("sig-1"), "nor the summarized thinking");

    // The history the user sees is whole, and the store keeps the summary for a resumed session.
    let history = h.session.history();
    assert_eq!(history.len(), 6);
    assert!(
        matches!(&history[2].content[0], ContentBlock::ToolResult(r) if r.content.contains("alpha alpha"))
    );
    assert_eq!(history[5].role, Role::Assistant);
    let kept = store.latest_compaction(h.session.conversation_id()).unwrap().unwrap();
    assert_eq!(kept.upto_seq, 3);
    assert!(kept.summary.starts_with("SUMMARY:"));
}

#[tokio::test]
async fn compact_now_summarizes_between_turns_and_later_requests_use_the_summary() {
    let wire = Wire::OpenAi;
    let long: &'static str = Box::leak("a long answer about the parser. ".repeat(200).into_boxed_str());
    let replies = vec![
        wire.reply(&[text(long)], 100),
        wire.reply(&[text("Short answer two.")], 100),
        wire.reply(&[text("SUMMARY: the parser was explained.")], 100),
        wire.reply(&[text("Three.")], 100),
    ];
    let mut h = Harness::new(wire, replies, |c| c.context_window = Some(8_000)).await;
    h.run("explain the parser", approve_all()).await;
    h.run("and the lexer?", approve_all()).await;
    let report = h.session.compact_now().await.unwrap();
    assert_eq!(report.summarized_messages, 2, "the first exchange; the last answer is kept");
    h.run("and now?", approve_all()).await;

    let last = &h.requests()[3].body;
    let contents: Vec<Value> =
        last["messages"].as_array().unwrap().iter().map(|m| m["content"].clone()).collect();
    assert!(!last.to_string().contains("a long answer about the parser"), "{last}");
    assert!(contents[0].to_string().contains("SUMMARY: the parser was explained."), "{contents:?}");
    assert!(
        contents[0].to_string().contains("and the lexer?"),
        "the last exchange is kept whole: {contents:?}"
    );
    assert_eq!(contents[1], "Short answer two.");
    assert_eq!(contents[2], "and now?");
    assert_eq!(h.session.history().len(), 6);
}

#[tokio::test]
async fn cutting_older_tool_output_comes_first_and_needs_no_summary_when_it_is_enough() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("r1", "file_read", json!({"path": "big.txt"}))], 500),
        // Past 80 % of 8,000 tokens, mostly big.txt's text.
        wire.reply(&[tool("r2", "file_read", json!({"path": "small.txt"}))], 6_800),
        wire.reply(&[text("Done.")], 900),
    ];
    let (mut h, store, _home) = saving_harness(wire, replies, 8_000).await;
    std::fs::write(h.path("big.txt"), "lorem ipsum ".repeat(2_000)).unwrap();
    std::fs::write(h.path("small.txt"), "tiny").unwrap();
    let run = h.run("read big.txt then small.txt", approve_all()).await;

    assert_eq!(run.end, TurnEnd::Completed);
    assert!(!run.names().contains(&"chat:compacted"), "no summary: {:?}", run.names());
    let notice =
        run.events.iter().find_map(|e| if let Event::Notice(n) = e { Some(n.text.clone()) } else { None });
    assert!(notice.is_some_and(|n| n.contains("Older tool output was cut")), "the user is told");
    let requests = h.requests();
    assert_eq!(requests.len(), 3, "no summary request");
    let messages = requests[2].body["messages"].as_array().unwrap().clone();
    assert_eq!(messages.len(), 5, "every message is still sent");
    let old = messages[2]["content"][0]["content"].as_str().unwrap();
    assert!(old.contains(warden_core::agent::compaction::TRIM_NOTE), "{old}");
    assert!(old.len() < 3_000, "cut to about 2,000 characters: {}", old.len());
    assert_eq!(messages[0]["content"], "read big.txt then small.txt", "the words are kept");
    assert!(
        messages[4]["content"][0]["content"].as_str().unwrap().contains("tiny"),
        "the recent result is whole"
    );
    // The history keeps the whole output; the store keeps the cut for a resumed session.
    assert!(
        matches!(&h.session.history()[2].content[0], ContentBlock::ToolResult(r) if r.content.len() > 20_000)
    );
    let kept = store.latest_compaction(h.session.conversation_id()).unwrap().unwrap();
    assert_eq!((kept.upto_seq, kept.trimmed_upto_seq, kept.summary.as_str()), (0, 3, ""));
}
