//! `warden sessions --remote`: the conversations a remote engine saved, listed, searched, shown
//! and deleted on that machine over the link, printed as `warden sessions` prints local ones.

use serde_json::Value;
use warden_testkit::scripted::{anthropic, text};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, Dirs, Warden};
use super::remote_side::{remote_user, RemoteProject, RunDir};

/// `warden sessions --remote there --transport TRANSPORT ARGS…`: exit code, stdout, stderr.
async fn sessions(dirs: &Dirs, transport: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["sessions", "--remote", "there", "--transport", transport];
    all.extend_from_slice(args);
    let out = command(dirs, &all).output().await.unwrap();
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[tokio::test]
async fn the_conversations_saved_there_are_listed_searched_shown_and_deleted_from_here() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let transport = run.runuser(user, 5);
    let server = TestServer::start(vec![Reply::sse(
        anthropic(&[text("The ferns want shade.")], 10),
        Split::Random(4),
    )])
    .await;
    let dirs = Dirs::new();
    let target = project.target("there");
    let exec = exec_args(&server, &["--remote", &target, "--transport", &transport, "where do ferns grow?"]);
    let (code, lines, stderr) = Warden::spawn(command(&dirs, &exec)).finish().await;
    assert_eq!(code, 0, "{stderr}");
    let id = lines
        .iter()
        .find_map(|line| line["payload"]["conversationId"].as_str())
        .unwrap_or_else(|| panic!("no conversation id: {lines:?}"))
        .to_owned();

    // Listed there (this side has no saved conversation at all).
    let (code, out, err) = sessions(&dirs, &transport, &["list", "--limit", "500", "--json"]).await;
    assert_eq!(code, Some(0), "{err}");
    let listed = json(&out);
    let mine = listed.as_array().unwrap().iter().find(|c| c["id"] == id.as_str());
    assert_eq!(mine.unwrap_or_else(|| panic!("{out}"))["projectRoot"], project.path.to_str().unwrap());
    let local = command(&dirs, &["sessions", "list", "--json"]).output().await.unwrap();
    let local = json(&String::from_utf8_lossy(&local.stdout));
    assert_eq!(local, serde_json::json!([]), "the conversation is saved there, not here");

    // Searched and shown there, as `warden sessions` shows one.
    let (code, out, err) = sessions(&dirs, &transport, &["search", "ferns", "--json"]).await;
    assert_eq!(code, Some(0), "{err}");
    assert!(
        json(&out).as_array().unwrap().iter().any(|hit| hit["conversation"]["id"] == id.as_str()),
        "{out}"
    );
    let (code, out, err) = sessions(&dirs, &transport, &["show", &id, "--json"]).await;
    assert_eq!(code, Some(0), "{err}");
    let shown = json(&out);
    let texts: Vec<_> =
        shown["messages"].as_array().unwrap().iter().map(|m| m["content"][0]["text"].clone()).collect();
    assert_eq!(texts, ["where do ferns grow?", "The ferns want shade."], "{out}");
    let (code, out, _) = sessions(&dirs, &transport, &["show", &id]).await;
    assert_eq!(code, Some(0));
    assert!(
        out.contains("you: where do ferns grow?") && out.contains("warden: The ferns want shade."),
        "{out}"
    );

    // Deleted there; then it is unknown, which is the caller's mistake (status 2), in words.
    let (code, out, err) = sessions(&dirs, &transport, &["delete", &id]).await;
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&format!("Deleted {id}")), "{out}");
    let (code, _, err) = sessions(&dirs, &transport, &["show", &id]).await;
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("there is no saved conversation") && err.contains(&id), "{err}");
    let (code, _, err) = sessions(&dirs, &transport, &["show", "../etc"]).await;
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("not a conversation id"), "{err}");
}

#[tokio::test]
async fn a_transport_that_fails_is_said_and_is_no_usage_error() {
    let dirs = Dirs::new();
    let (code, _, err) = sessions(&dirs, "echo no such machine >&2; exit 255", &["list"]).await;
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("no such machine") && err.contains("exit status 255"), "{err}");
}

#[tokio::test]
async fn continue_takes_up_the_last_conversation_there_and_an_image_is_sent_from_here() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let transport = run.runuser(user, 5);
    let server = TestServer::start(vec![
        Reply::sse(anthropic(&[text("Ferns.")], 10), Split::Random(4)),
        Reply::sse(anthropic(&[text("A small picture.")], 10), Split::Random(4)),
    ])
    .await;
    let dirs = Dirs::new();
    let target = project.target("there");
    let first = exec_args(&server, &["--remote", &target, "--transport", &transport, "what grows here?"]);
    let (code, lines, stderr) = Warden::spawn(command(&dirs, &first)).finish().await;
    assert_eq!(code, 0, "{stderr}");
    let id = lines.iter().find_map(|line| line["payload"]["conversationId"].as_str()).unwrap().to_owned();

    // The picture is a file of this machine; the conversation is the one saved there.
    std::fs::write(dirs.path("leaf.png"), warden_testkit::images::bomb_png(8, 8)).unwrap();
    let next =
        ["--remote", &target, "--transport", &transport, "--continue", "--image", "leaf.png", "and this?"];
    let (code, lines, stderr) = Warden::spawn(command(&dirs, &exec_args(&server, &next))).finish().await;
    assert_eq!(code, 0, "{stderr}");
    let continued = lines.iter().find_map(|line| line["payload"]["conversationId"].as_str()).unwrap();
    assert_eq!(continued, id, "the last conversation there is continued");
    let body = server.requests()[1].body.clone();
    let messages = body["messages"].as_array().unwrap_or_else(|| panic!("{body}"));
    assert_eq!(messages[0]["content"], "what grows here?", "the saved conversation goes first: {body}");
    let last = &messages[messages.len() - 1]["content"];
    assert!(
        last.as_array().unwrap().iter().any(|block| block["type"] == "image"),
        "the image went with it: {last}"
    );

    // A project there with nothing saved: refused in words, as a usage error.
    let empty = RemoteProject::new(user, &[]);
    let target = empty.target("there");
    let none = ["--remote", &target, "--transport", &transport, "--continue", "hello"];
    let (code, _, stderr) = Warden::spawn(command(&dirs, &exec_args(&server, &none))).finish().await;
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no saved conversation in"), "{stderr}");
}
