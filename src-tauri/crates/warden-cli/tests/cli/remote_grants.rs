//! A remote session's "Allow for this session": kept there, listed from here, and revoked from
//! here, after which the same kind of call asks again.

use serde_json::json;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::raw_link::{open_request, RawLink};
use super::remote_side::{remote_user, RemoteProject, RunDir};

fn reply(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(4))
}

#[tokio::test]
async fn a_remote_sessions_grant_is_listed_and_revoked_from_here() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let touch = |file: &str| json!({"command": format!("touch {file}")});
    let server = TestServer::start(vec![
        reply(&[tool("t1", "bash", touch("a"))]),
        reply(&[text("One.")]),
        reply(&[tool("t2", "bash", touch("b"))]),
        reply(&[text("Two.")]),
        reply(&[tool("t3", "bash", touch("c"))]),
        reply(&[text("Three.")]),
    ])
    .await;
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let open = open_request(&project, &server.url);
    let id = open.session.conversation_id.clone();
    assert_eq!(link.request(json!({"method": "open", "params": open})).await["ok"]["kind"], "opened");
    let send =
        |content: &str| json!({"method": "send", "params": {"conversationId": id, "content": content}});
    let grants = json!({"method": "grants"});
    assert_eq!(link.request(grants.clone()).await["ok"], json!({"kind": "grants", "value": []}));

    // "Allow for this session" on the first: kept there, listed here.
    assert_eq!(link.request(send("one")).await["ok"]["kind"], "done");
    let asked = link.confirm_or_end().await.expect("the first call asks");
    let yes = json!({"confirmId": asked["confirmId"], "approved": true, "remember": "session"});
    assert_eq!(link.request(json!({"method": "approve", "params": yes})).await["ok"]["kind"], "done");
    assert_eq!(link.confirm_or_end().await, None);
    let listed = link.request(grants.clone()).await;
    let kept = listed["ok"]["value"].as_array().unwrap_or_else(|| panic!("{listed}")).clone();
    assert_eq!(kept.len(), 1, "{listed}");

    // The same kind of call runs unasked while it holds.
    assert_eq!(link.request(send("two")).await["ok"]["kind"], "done");
    assert_eq!(link.confirm_or_end().await, None, "the grant did not hold");
    assert!(project.path.join("b").exists());

    // Revoked from here: it asks again.
    let revoke = json!({"method": "grant_revoke", "params": {"grant": kept[0]}});
    assert_eq!(link.request(revoke.clone()).await["ok"], json!({"kind": "revoked", "value": true}));
    assert_eq!(link.request(revoke).await["ok"], json!({"kind": "revoked", "value": false}), "once");
    assert_eq!(link.request(send("three")).await["ok"]["kind"], "done");
    let again = link.confirm_or_end().await.expect("a revoked grant asks again");
    let no = json!({"confirmId": again["confirmId"], "approved": false});
    assert_eq!(link.request(json!({"method": "approve", "params": no})).await["ok"]["kind"], "done");
    assert_eq!(link.confirm_or_end().await, None);
    assert!(!project.path.join("c").exists());

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}
