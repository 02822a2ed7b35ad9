//! A remote session's history changed from here between turns, as the window does it: "Rewind
//! conversation to here" drops a message and what follows from the conversation saved there and
//! from the session that goes on; "Compact now" summarizes its older part there.

use serde_json::{json, Value};
use warden_testkit::scripted::{anthropic, text};
use warden_testkit::server::{Reply, Split, TestServer};

use super::raw_link::{open_request, RawLink};
use super::remote_side::{remote_user, RemoteProject, RunDir};

fn answer(words: &'static str) -> Reply {
    Reply::sse(anthropic(&[text(words)], 10), Split::Random(4))
}

/// What each message of a request to the model held, as text.
fn contents(body: &Value) -> Vec<String> {
    let messages = body["messages"].as_array().unwrap_or_else(|| panic!("{body}"));
    messages.iter().map(|m| m["content"].to_string()).collect()
}

#[tokio::test]
async fn a_remote_conversation_is_rewound_and_compacted_there_and_goes_on_from_what_is_left() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let server = TestServer::start(vec![
        answer("Ferns."),
        answer("Moss."),
        answer("Lichen."),
        answer("SUMMARY: ferns and lichen were named."),
        answer("Done."),
    ])
    .await;
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");

    // Neither is asked of a link with no session.
    for early in [json!({"method": "compact"}), json!({"method": "rewind", "params": {"user_message": 0}})] {
        let refused = link.request(early).await;
        assert_eq!(refused["error"]["usage"], true, "{refused}");
    }

    let open = open_request(&project, &server.url);
    let id = open.session.conversation_id.clone();
    let opened = link.request(json!({"method": "open", "params": open})).await;
    assert_eq!(opened["ok"]["kind"], "opened", "{opened}");
    assert_eq!(link.turn(&id, "what grows here?").await, "completed");
    assert_eq!(link.turn(&id, "and on the rocks?").await, "completed");

    // Rewound to before the second message: its text comes back, and the conversation saved
    // there ends before it.
    let rewound = link.request(json!({"method": "rewind", "params": {"user_message": 1}})).await;
    assert_eq!(
        rewound["ok"],
        json!({"kind": "rewound", "value": {"text": "and on the rocks?"}}),
        "{rewound}"
    );
    let read = link.request(json!({"method": "conversation_read", "params": {"id": id}})).await;
    let rows = read["ok"]["value"]["rows"].as_str().unwrap_or_else(|| panic!("{read}"));
    assert!(rows.contains("Ferns.") && !rows.contains("Moss.") && !rows.contains("rocks"), "{rows}");
    // A message that is not there is refused in words; nothing changes.
    let beyond = link.request(json!({"method": "rewind", "params": {"user_message": 7}})).await;
    assert_eq!(beyond["error"]["usage"], true, "{beyond}");
    assert!(beyond["error"]["message"].as_str().unwrap_or("").contains("no message 8"), "{beyond}");

    // The session goes on from what is left.
    assert_eq!(link.turn(&id, "and in the shade?").await, "completed");
    let third = contents(&server.requests()[2].body);
    assert_eq!(third.len(), 3, "{third:?}");
    assert!(third[0].contains("what grows here?") && third[1].contains("Ferns."), "{third:?}");
    assert!(third[2].contains("and in the shade?"), "{third:?}");
    assert!(!third.concat().contains("Moss."), "the dropped answer is not sent: {third:?}");

    // Compacted there: the summary is said as an event of the session, and sent from then on.
    // (The event is numbered with the session's others, so it may come just after the answer.)
    let (compacted, mut frames) = link.request_seeing(json!({"method": "compact"})).await;
    assert_eq!(compacted["ok"]["kind"], "done", "{compacted}");
    let is_said = |frame: &Value| frame["type"] == "event" && frame["event"]["event"] == "chat:compacted";
    while !frames.iter().any(is_said) {
        frames.push(link.read().await);
    }
    let said = frames.iter().find(|frame| is_said(frame)).unwrap();
    assert_eq!(said["event"]["payload"]["manual"], true, "{said}");
    assert_eq!(said["event"]["payload"]["summarizedMessages"], 2, "{said}");
    // Saved there, for the divider of the window that shows it again.
    let kept = link.request(json!({"method": "conversation_compaction", "params": {"id": id}})).await;
    assert_eq!(kept["ok"]["kind"], "compaction", "{kept}");
    assert_eq!(kept["ok"]["value"]["summarizedMessages"], 2, "{kept}");
    assert_eq!(link.turn(&id, "anything else?").await, "completed");
    let last = contents(&server.requests()[4].body);
    assert!(last[0].contains("SUMMARY: ferns and lichen were named."), "{last:?}");
    assert!(!last.concat().contains("Ferns."), "the summarized part is not sent again: {last:?}");

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}
