use std::time::{Duration, Instant};

use warden_protocol::{
    Event, OutputStream, StopReason, StreamEnd, TextDelta, ThinkingDelta, ToolDelta, ToolStart, Usage,
};

use super::{Coalescer, FRAME};

fn text(msg: &str, d: &str) -> Event {
    Event::TextDelta(TextDelta { conversation_id: "c".into(), message_id: msg.into(), delta: d.into() })
}

fn thinking(d: &str) -> Event {
    Event::ThinkingDelta(ThinkingDelta {
        conversation_id: "c".into(),
        message_id: "m".into(),
        delta: d.into(),
    })
}

fn tool_out(tool: &str, stream: Option<OutputStream>, chunk: &str) -> Event {
    Event::ToolDelta(ToolDelta {
        conversation_id: "c".into(),
        message_id: "m".into(),
        tool_id: tool.into(),
        chunk: chunk.into(),
        stream,
    })
}

fn tool_start(tool: &str) -> Event {
    Event::ToolStart(ToolStart {
        conversation_id: "c".into(),
        message_id: "m".into(),
        tool_id: tool.into(),
        tool_name: "bash".into(),
        category: Some(warden_protocol::ToolCategory::Exec),
        mcp: None,
        input: serde_json::json!({}),
    })
}

fn end() -> Event {
    Event::StreamEnd(StreamEnd {
        conversation_id: "c".into(),
        message_id: "m".into(),
        stop_reason: StopReason::EndTurn,
        usage: Some(Usage::default()),
        estimated_context_tokens: None,
        partial: false,
    })
}

#[test]
fn deltas_of_one_message_merge_until_the_frame_ends() {
    let mut c = Coalescer::new();
    let t0 = Instant::now();
    assert!(c.push(text("m", "Hel"), t0).is_empty());
    assert!(c.push(text("m", "lo"), t0 + Duration::from_millis(3)).is_empty());
    assert_eq!(c.deadline(), Some(t0 + FRAME), "the deadline is set by the first pending delta");
    assert_eq!(c.flush(), vec![text("m", "Hello")]);
    assert_eq!(c.deadline(), None);
    assert!(c.flush().is_empty());
}

#[test]
fn a_non_delta_event_flushes_pending_deltas_first() {
    let mut c = Coalescer::new();
    let now = Instant::now();
    c.push(text("m", "a"), now);
    c.push(text("m", "b"), now);
    assert_eq!(c.push(end(), now), vec![text("m", "ab"), end()]);
    assert_eq!(c.deadline(), None);
}

#[test]
fn different_kinds_and_messages_keep_their_relative_order() {
    let mut c = Coalescer::new();
    let now = Instant::now();
    for e in
        [thinking("t1"), thinking("t2"), text("m", "x"), text("m2", "y"), text("m2", "z"), thinking("t3")]
    {
        assert!(c.push(e, now).is_empty());
    }
    assert_eq!(c.flush(), vec![thinking("t1t2"), text("m", "x"), text("m2", "yz"), thinking("t3")]);
}

#[test]
fn tool_output_merges_per_tool_and_stream() {
    let mut c = Coalescer::new();
    let now = Instant::now();
    c.push(tool_out("a", Some(OutputStream::Stdout), "1"), now);
    c.push(tool_out("a", Some(OutputStream::Stdout), "2"), now);
    c.push(tool_out("a", Some(OutputStream::Stderr), "e"), now);
    c.push(tool_out("b", Some(OutputStream::Stderr), "f"), now);
    let out = c.push(tool_start("c"), now);
    assert_eq!(
        out,
        vec![
            tool_out("a", Some(OutputStream::Stdout), "12"),
            tool_out("a", Some(OutputStream::Stderr), "e"),
            tool_out("b", Some(OutputStream::Stderr), "f"),
            tool_start("c"),
        ]
    );
}

#[test]
fn a_flood_of_deltas_becomes_one_event_per_frame() {
    let mut c = Coalescer::new();
    let now = Instant::now();
    for i in 0..5_000 {
        assert!(c.push(text("m", &i.to_string()), now).is_empty());
    }
    let out = c.flush();
    assert_eq!(out.len(), 1);
    let expected: String = (0..5_000).map(|i| i.to_string()).collect();
    assert_eq!(out, vec![text("m", &expected)]);
}

#[test]
fn a_huge_pending_delta_goes_out_without_waiting() {
    let mut c = Coalescer::new();
    let big = "x".repeat(300 * 1024);
    let out = c.push(text("m", &big), Instant::now());
    assert_eq!(out, vec![text("m", &big)]);
    assert_eq!(c.deadline(), None);
}
