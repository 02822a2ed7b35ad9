use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::mpsc::unbounded_channel;
use warden_protocol::{
    DangerLevel, Event, StopReason, StreamEnd, TextDelta, ToolConfirm, ToolResult, ToolStatus, Usage,
};

use super::{forward, EventSink};

#[derive(Default)]
struct Recorder(Mutex<Vec<Event>>);

impl Recorder {
    fn events(&self) -> Vec<Event> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }
}

impl EventSink for Recorder {
    fn emit(&self, event: Event) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push(event);
    }
}

fn text(d: &str) -> Event {
    Event::TextDelta(TextDelta { conversation_id: "c1".into(), message_id: "m".into(), delta: d.into() })
}

fn confirm(tool: &str) -> Event {
    Event::ToolConfirm(ToolConfirm {
        conversation_id: "c1".into(),
        confirm_id: format!("confirm-{tool}"),
        message_id: "m".into(),
        tool_id: tool.into(),
        tool_name: "file_write".into(),
        mcp: None,
        input: serde_json::json!({"path": "a.txt", "content": "x"}),
        danger_level: DangerLevel::Dangerous,
        preview: None,
        timeout_secs: 30,
        reason: None,
        queue: None,
        kind: Default::default(),
        network: None,
        asked_because: None,
        rule: None,
        suggested_rule: None,
    })
}

fn result(tool: &str) -> Event {
    Event::ToolResult(ToolResult {
        conversation_id: "c1".into(),
        message_id: "m".into(),
        tool_id: tool.into(),
        status: ToolStatus::Success,
        code: None,
        result: "ok".into(),
        report: Default::default(),
        images: Vec::new(),
        metadata: None,
    })
}

fn end() -> Event {
    Event::StreamEnd(StreamEnd {
        conversation_id: "c1".into(),
        message_id: "m".into(),
        stop_reason: StopReason::EndTurn,
        usage: Some(Usage::default()),
        estimated_context_tokens: None,
        partial: false,
    })
}

#[tokio::test]
async fn a_burst_of_deltas_arrives_merged_and_in_order_with_other_events() {
    let (tx, rx) = unbounded_channel();
    let sink = Arc::new(Recorder::default());
    for e in [text("a"), text("b"), confirm("t1"), text("c"), text("d"), end()] {
        assert!(tx.send(e).is_ok());
    }
    drop(tx);
    forward(rx, sink.clone()).await;
    assert_eq!(sink.events(), vec![text("ab"), confirm("t1"), text("cd"), end()]);
}

#[tokio::test]
async fn pending_deltas_go_out_after_a_frame_even_when_the_stream_pauses() {
    let (tx, rx) = unbounded_channel();
    let sink = Arc::new(Recorder::default());
    let task = tokio::spawn(forward(rx, sink.clone()));
    assert!(tx.send(text("x")).is_ok());
    assert!(tx.send(text("y")).is_ok());
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_eq!(sink.events(), vec![text("xy")], "flushed by the frame timer, channel still open");
    drop(tx);
    assert!(task.await.is_ok());
}

/// Records when each event arrived.
#[derive(Default)]
struct TimedRecorder(Mutex<Vec<(std::time::Instant, Event)>>);

impl EventSink for TimedRecorder {
    fn emit(&self, event: Event) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).push((std::time::Instant::now(), event));
    }
}

#[tokio::test]
async fn a_tool_burst_reaches_the_window_a_frame_at_a_time_and_whole() {
    use crate::coalesce::FRAME;
    use crate::pace::EVENTS_PER_FRAME;

    let (tx, rx) = unbounded_channel();
    let sink = Arc::new(TimedRecorder::default());
    let n = EVENTS_PER_FRAME * 3 + 5;
    for i in 0..n {
        assert!(tx.send(result(&format!("t{i}"))).is_ok());
    }
    drop(tx);
    forward(rx, sink.clone()).await;
    let got = sink.0.lock().unwrap_or_else(PoisonError::into_inner).clone();
    let tools: Vec<String> = got
        .iter()
        .map(|(_, e)| match e {
            Event::ToolResult(r) => r.tool_id.clone(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(tools, (0..n).map(|i| format!("t{i}")).collect::<Vec<_>>(), "all of them, in order");
    let first = got[0].0;
    for frame in 1..=3 {
        let at = got[frame * EVENTS_PER_FRAME].0;
        assert!(
            at >= first + FRAME * frame as u32,
            "frame {frame} went out {:?} after the first",
            at - first
        );
    }
}
