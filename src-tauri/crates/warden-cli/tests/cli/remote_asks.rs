//! What an MCP server of a remote session asks the user: the question comes over the link,
//! numbered with the session's events, and the answer given here goes back to the server there.
//! A session not opened for a window has no one to ask: its servers are not offered forms.

use std::collections::VecDeque;

use serde_json::{json, Map, Value};
use warden_testkit::mcp::server_bin;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::raw_link::{open_request, RawLink};
use super::remote_side::{remote_user, RemoteProject, RunDir};

const FORM_TOOL: &str = "mcp__everything__trigger-elicitation-request";

/// What the user fills in: a name, and every other field's default.
fn filled_in(schema: &Value) -> Map<String, Value> {
    let mut content: Map<String, Value> = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(name, field)| Some((name.clone(), field.get("default")?.clone())))
        .collect();
    content.insert("name".to_owned(), json!("Ada Lovelace"));
    content
}

/// What a test holds while its session runs there (the project and folders go when it ends).
struct Started {
    _project: RemoteProject,
    _run: RunDir,
    _server: TestServer,
    link: RawLink,
    /// The frames read before the send's answer.
    before: Vec<Value>,
}

/// A session there whose settings run server-everything, in Autonomous, opened for a window or
/// not, and its first message sent: the model calls the form tool, then says thanks.
async fn started(window: bool) -> Started {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[tool("t1", FORM_TOOL, json!({}))], 10), Split::Random(4)),
        Reply::sse(anthropic(&[text("Thanks.")], 10), Split::Random(4)),
    ])
    .await;
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let mut open = open_request(&project, &server.url);
    let everything =
        json!({"everything": {"command": server_bin("mcp-server-everything"), "args": ["stdio"]}});
    open.settings.mcp_servers = serde_json::from_value(everything).unwrap();
    open.session.trust = warden_protocol::TrustLevel::Autonomous;
    open.session.window = window;
    let id = open.session.conversation_id.clone();
    assert_eq!(link.request(json!({"method": "open", "params": open})).await["ok"]["kind"], "opened");
    let send = json!({"method": "send", "params": {"conversationId": id, "content": "ask me"}});
    let (sent, before) = link.request_seeing(send).await;
    assert_eq!(sent["ok"]["kind"], "done", "{sent}");
    Started { _project: project, _run: run, _server: server, link, before }
}

#[tokio::test]
async fn a_remote_servers_form_is_asked_over_the_link_and_the_answer_given_here_reaches_it() {
    // Held whole to the end: its server and folders go with it.
    let mut session = started(true).await;
    let (link, before) = (&mut session.link, std::mem::take(&mut session.before));
    let (mut frames, mut asked, mut result) = (VecDeque::from(before), Vec::new(), Value::Null);
    loop {
        let frame = match frames.pop_front() {
            Some(frame) => frame,
            None => link.read().await,
        };
        match frame["type"].as_str() {
            Some("turn_ended") => break,
            Some("ask") => {
                asked.push(frame.clone());
                let ask = &frame["ask"];
                let answer = json!({"action": "accept", "content": filled_in(&ask["schema"])});
                let reply = json!({"method": "ask_answer", "params": {"request_id": ask["requestId"], "answer": answer}});
                let (answered, seen) = link.request_seeing(reply).await;
                assert_eq!(answered["ok"]["kind"], "done", "{answered}");
                frames.extend(seen);
            }
            Some("event") if frame["event"]["event"] == "chat:tool-result" => {
                result = frame["event"]["payload"].clone();
            }
            // An MCP server's tool asks first, even in Autonomous.
            Some("event") if frame["event"]["event"] == "chat:tool-confirm" => {
                let approval = json!({"confirmId": frame["event"]["payload"]["confirmId"], "approved": true});
                let (approved, seen) =
                    link.request_seeing(json!({"method": "approve", "params": approval})).await;
                assert_eq!(approved["ok"]["kind"], "done", "{approved}");
                frames.extend(seen);
            }
            _ => {}
        }
    }
    assert_eq!(asked.len(), 1, "one question: {asked:?}");
    let ask = &asked[0];
    assert!(ask["seq"].as_u64().is_some_and(|seq| seq > 0), "numbered with the events: {ask}");
    assert_eq!((&ask["ask"]["server"], &ask["ask"]["purpose"]), (&json!("everything"), &json!("form")));
    assert_eq!(result["status"], "success", "{result}");
    assert!(result.to_string().contains("Name: Ada Lovelace"), "the server there got the name: {result}");

    // Answered once only.
    let again = json!({"method": "ask_answer", "params": {"request_id": ask["ask"]["requestId"], "answer": {"action": "decline"}}});
    assert_eq!(link.request(again).await["error"]["usage"], true);
    // A request this engine cannot read is answered under its own id, in words.
    let unreadable = link.request(json!({"method": "ask_answer", "params": {"requestId": "x"}})).await;
    assert_eq!(unreadable["error"]["usage"], true, "{unreadable}");
    assert!(
        unreadable["error"]["message"].as_str().unwrap_or_default().starts_with("not a request"),
        "{unreadable}"
    );
    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(session.link.finish().await, Some(0));
}

#[tokio::test]
async fn a_session_not_opened_for_a_window_offers_its_servers_no_forms() {
    // Held whole to the end: its server and folders go with it.
    let mut session = started(false).await;
    let (link, before) = (&mut session.link, std::mem::take(&mut session.before));
    let (mut frames, mut result) = (VecDeque::from(before), Value::Null);
    loop {
        let frame = match frames.pop_front() {
            Some(frame) => frame,
            None => link.read().await,
        };
        assert_ne!(frame["type"], "ask", "nobody to ask: {frame}");
        if frame["type"] == "turn_ended" {
            break;
        }
        if frame["type"] == "event" && frame["event"]["event"] == "chat:tool-result" {
            result = frame["event"]["payload"].clone();
        }
    }
    // As in a `warden exec` here: the server registers no form tool without a client that fills
    // in forms.
    assert_eq!(result["status"], "error", "{result}");
    assert!(result.to_string().contains("trigger-elicitation-request"), "{result}");
    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(session.link.finish().await, Some(0));
}
