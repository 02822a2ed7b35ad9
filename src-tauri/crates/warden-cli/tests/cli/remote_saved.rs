//! What the window's list and Settings → Sandbox do to a linked remote project, done there: its
//! conversations searched (only those of its folder), renamed and their message times read there,
//! and its cache layer cleared.

use std::os::unix::fs::chown;

use serde_json::{json, Value};
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::raw_link::{autonomous_session, open_request, RawLink};
use super::remote_side::{remote_user, RemoteProject, RunDir};

/// The ids of the conversations a search answer found.
fn found(answer: &Value) -> Vec<String> {
    let hits = answer["ok"]["value"].as_array().unwrap_or_else(|| panic!("{answer}"));
    hits.iter().map(|hit| hit["conversation"]["id"].as_str().unwrap_or_default().to_owned()).collect()
}

fn search(query: &str, project: Option<&RemoteProject>) -> Value {
    let project = project.map(|p| p.path.to_string_lossy().into_owned());
    json!({"method": "conversation_search", "params": {"query": query, "limit": 50, "project": project}})
}

#[tokio::test]
async fn a_linked_projects_conversations_are_searched_in_its_folder_and_renamed_there() {
    let user = remote_user();
    let (here, other) = (RemoteProject::new(user, &[]), RemoteProject::new(user, &[]));
    let run = RunDir::new(user);
    // A word no other test writes, so that the machine's other conversations are not found.
    let word = format!("fern{}", uuid::Uuid::new_v4().simple());
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[text("It wants shade.")], 10), Split::Random(4)),
        Reply::sse(anthropic(&[text("It wants water.")], 10), Split::Random(4)),
    ])
    .await;
    let mut ids = Vec::new();
    for project in [&other, &here] {
        let mut link = RawLink::start(&run.runuser(user, 5)).await;
        assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
        let open = open_request(project, &server.url);
        ids.push(open.session.conversation_id.clone());
        assert_eq!(link.request(json!({"method": "open", "params": open})).await["ok"]["kind"], "opened");
        assert_eq!(
            link.turn(ids.last().unwrap(), &format!("where does the {word} grow?")).await,
            "completed"
        );
        assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
        assert_eq!(link.finish().await, Some(0));
    }
    let (other_id, id) = (ids[0].clone(), ids[1].clone());

    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");
    let mut everywhere = found(&link.request(search(&word, None)).await);
    everywhere.sort();
    let mut both = vec![id.clone(), other_id.clone()];
    both.sort();
    assert_eq!(everywhere, both, "without a folder, the whole machine is searched");
    assert_eq!(found(&link.request(search(&word, Some(&here))).await), vec![id.clone()]);
    assert_eq!(found(&link.request(search(&word, Some(&other))).await), vec![other_id.clone()]);
    // The folder as the window names it may end in a slash: the same project.
    let mut slashed = search(&word, None);
    slashed["params"]["project"] = json!(format!("{}/", here.path.display()));
    assert_eq!(found(&link.request(slashed).await), vec![id.clone()]);

    let rename = |id: &str, title: &str| json!({"method": "conversation_rename", "params": {"id": id, "title": title}});
    let renamed = link.request(rename(&id, "Shade for the ferns")).await;
    assert_eq!(renamed["ok"]["kind"], "done", "{renamed}");
    let listed = link
        .request(json!({"method": "conversation_list", "params": {"offset": 0, "limit": 10, "project": here.path}}))
        .await;
    assert_eq!(listed["ok"]["value"]["conversations"][0]["title"], "Shade for the ferns", "{listed}");
    let by_title = link.request(search("shade ferns", Some(&here))).await;
    assert_eq!(by_title["ok"]["value"][0]["conversation"]["id"], id.as_str(), "{by_title}");
    assert_eq!(by_title["ok"]["value"][0]["snippet"], Value::Null, "found by its title: {by_title}");

    // An empty title names it after its first message again; an unknown one is the caller's mistake.
    assert_eq!(link.request(rename(&id, "")).await["ok"]["kind"], "done");
    let listed = link.request(json!({"method": "conversation_read", "params": {"id": id}})).await;
    assert_eq!(listed["ok"]["value"]["summary"]["title"], format!("where does the {word} grow?"), "{listed}");
    let unknown = link.request(rename("00000000-0000-4000-8000-000000000000", "x")).await;
    assert_eq!(unknown["error"]["usage"], true, "{unknown}");

    // When each message was written and by which model, without the messages.
    let stamps = link.request(json!({"method": "conversation_stamps", "params": {"id": id}})).await;
    let stamps = stamps["ok"]["value"].as_array().unwrap_or_else(|| panic!("{stamps}")).clone();
    assert_eq!(stamps.len(), 2, "the question and its answer: {stamps:?}");
    assert!(stamps.iter().all(|s| s["atMs"].as_u64().is_some_and(|at| at > 0)), "{stamps:?}");
    assert_eq!(stamps[1]["model"], "claude-test", "{stamps:?}");
    assert_eq!(link.finish().await, Some(0));
}

#[tokio::test]
async fn a_linked_projects_cache_layer_is_cleared_there() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    // A package cache of that home, which the box layers (made once; other tests share the user).
    let npm = user.home.join(".npm");
    std::fs::create_dir_all(&npm).unwrap();
    chown(&npm, Some(user.uid), Some(user.gid)).unwrap();
    let plant = format!("from-the-box-{}", uuid::Uuid::new_v4().simple());
    let server = TestServer::start(vec![
        Reply::sse(
            anthropic(&[tool("t1", "bash", json!({"command": format!("echo cached > ~/.npm/{plant}")}))], 10),
            Split::Random(4),
        ),
        Reply::sse(anthropic(&[text("Done.")], 10), Split::Random(4)),
    ])
    .await;
    let (mut link, id, settings) = autonomous_session(&run, user, &project, &server.url).await;
    assert_eq!(link.turn(&id, "fill the cache").await, "completed");
    assert!(!npm.join(&plant).exists(), "the box wrote to the user's own cache");

    let status =
        json!({"method": "sandbox_status", "params": {"project": project.path, "settings": settings}});
    let before = link.request(status.clone()).await;
    assert_eq!(before["ok"]["value"]["layered"], true, "{before}");
    let bytes = before["ok"]["value"]["cacheLayerBytes"].as_u64().unwrap_or_else(|| panic!("{before}"));
    assert!(bytes > 0, "the command's write is in the project's layer: {before}");
    let cleared =
        link.request(json!({"method": "clear_cache_layer", "params": {"project": project.path}})).await;
    assert_eq!(cleared["ok"]["kind"], "done", "{cleared}");
    let after = link.request(status).await;
    assert_eq!(after["ok"]["value"]["cacheLayerBytes"], 0, "{after}");

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}
