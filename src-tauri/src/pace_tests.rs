use std::time::{Duration, Instant};

use warden_protocol::{Event, ToolResult, ToolStatus};

use super::Pacer;
use crate::coalesce::FRAME;

fn result(i: usize) -> Event {
    Event::ToolResult(ToolResult {
        conversation_id: "c1".into(),
        message_id: "m".into(),
        tool_id: format!("t{i}"),
        status: ToolStatus::Success,
        code: None,
        result: "ok".into(),
        report: Default::default(),
        images: Vec::new(),
        metadata: None,
    })
}

fn ids(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| match e {
            Event::ToolResult(r) => r.tool_id.clone(),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn a_burst_goes_out_a_frame_at_a_time_in_order() {
    let mut p = Pacer::new(4);
    let t0 = Instant::now();
    p.push((0..10).map(result).collect());
    assert_eq!(ids(&p.take(t0)), ["t0", "t1", "t2", "t3"]);
    assert_eq!(p.take(t0 + Duration::from_millis(5)), vec![], "the frame's share is spent");
    assert_eq!(p.deadline(), Some(t0 + FRAME));
    assert_eq!(ids(&p.take(t0 + FRAME)), ["t4", "t5", "t6", "t7"]);
    assert_eq!(ids(&p.take(t0 + FRAME * 2)), ["t8", "t9"]);
    assert!(p.is_empty());
    assert_eq!(p.deadline(), None);
}

#[test]
fn a_quiet_stream_is_not_delayed() {
    let mut p = Pacer::new(4);
    let t0 = Instant::now();
    for i in 0..3 {
        p.push(vec![result(i)]);
        let now = t0 + Duration::from_millis(i as u64);
        assert_eq!(ids(&p.take(now)), [format!("t{i}")], "sent at once");
    }
    assert_eq!(p.deadline(), None);
}

#[test]
fn events_pushed_while_others_wait_queue_behind_them() {
    let mut p = Pacer::new(2);
    let t0 = Instant::now();
    p.push((0..3).map(result).collect());
    assert_eq!(ids(&p.take(t0)), ["t0", "t1"]);
    p.push(vec![result(3)]);
    assert_eq!(ids(&p.take(t0 + FRAME)), ["t2", "t3"]);
}
