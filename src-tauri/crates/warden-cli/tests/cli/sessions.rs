//! Saved conversations from the command line: `warden exec` saves, `--resume` / `--continue` go
//! on with the whole history sent again, `warden sessions` lists, shows, searches and deletes.

use serde_json::{json, Value};
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, Dirs, Warden};

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

/// Runs `warden exec --json` to its end; returns the conversation id it printed on stderr.
async fn exec(dirs: &Dirs, server: &TestServer, extra: &[&str]) -> String {
    let warden = Warden::spawn(command(dirs, &exec_args(server, extra)));
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let id = lines[0]["payload"]["conversationId"].as_str().unwrap().to_owned();
    assert!(stderr.contains(&format!("warden: conversation {id}")), "the id is printed: {stderr}");
    id
}

/// `warden sessions …`: exit code, stdout, stderr.
async fn sessions(dirs: &Dirs, args: &[&str]) -> (i32, String, String) {
    let mut all = vec!["sessions"];
    all.extend_from_slice(args);
    let out = command(dirs, &all).output().await.unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

async fn sessions_json(dirs: &Dirs, args: &[&str]) -> Value {
    let (code, stdout, stderr) = sessions(dirs, args).await;
    assert_eq!(code, 0, "stderr: {stderr}");
    serde_json::from_str(stdout.trim()).unwrap()
}

/// The texts of the messages a request carried, in order (a string content or its text blocks and
/// tool results).
fn said(request: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for message in request["messages"].as_array().unwrap() {
        match &message["content"] {
            Value::String(s) => out.push(s.clone()),
            Value::Array(blocks) => {
                for block in blocks {
                    match block["type"].as_str() {
                        Some("text") => out.push(block["text"].as_str().unwrap().to_owned()),
                        Some("tool_use") => out.push(format!("tool_use {}", block["name"].as_str().unwrap())),
                        Some("tool_result") => out.push(format!("tool_result {}", block["content"])),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[tokio::test]
async fn resume_sends_the_whole_saved_history_and_sessions_search_finds_a_tool_results_word() {
    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "file_read", json!({"path": "notes.txt"}))]),
        answer(&[text("The notes mention a quetzal.")]),
        answer(&[text("Yes, still the quetzal.")]),
    ])
    .await;
    let dirs = Dirs::new();
    std::fs::write(dirs.path("notes.txt"), "bird: quetzal\n").unwrap();
    let id = exec(&dirs, &server, &["what is in notes.txt?"]).await;

    let resumed = exec(&dirs, &server, &["--resume", &id, "are you sure?"]).await;
    assert_eq!(resumed, id, "the same conversation goes on");
    let requests = server.requests();
    assert_eq!(
        said(&requests[2].body),
        [
            "what is in notes.txt?",
            "tool_use file_read",
            "tool_result \"bird: quetzal\\n\"",
            "The notes mention a quetzal.",
            "are you sure?"
        ],
        "the resumed request carries every earlier message"
    );

    // The word is only in the file the tool read.
    let hits = sessions_json(&dirs, &["search", "quetzal", "--json"]).await;
    assert_eq!(hits[0]["conversation"]["id"], id.as_str());
    let shown = sessions_json(&dirs, &["show", &id, "--json"]).await;
    assert_eq!(shown["messages"].as_array().unwrap().len(), 6);
    assert_eq!(shown["conversation"]["title"], "what is in notes.txt?");
    let (code, transcript, _) = sessions(&dirs, &["show", &id]).await;
    assert_eq!(code, 0);
    assert!(transcript.contains("you: are you sure?") && transcript.contains("→ file_read"), "{transcript}");
}

#[tokio::test]
async fn continue_picks_the_projects_last_conversation_and_ephemeral_saves_nothing() {
    let server = TestServer::start(vec![
        answer(&[text("First answer.")]),
        answer(&[text("Not kept.")]),
        answer(&[text("Second answer.")]),
    ])
    .await;
    let dirs = Dirs::new();
    // Nothing to continue yet: a usage error that says so.
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["--continue", "hello"])));
    let (code, _, stderr) = warden.finish().await;
    assert_eq!(code, 2);
    assert!(stderr.contains("no saved conversation in"), "{stderr}");

    let id = exec(&dirs, &server, &["first question"]).await;
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["--ephemeral", "a throwaway"])));
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "{stderr}");
    let throwaway = lines[0]["payload"]["conversationId"].as_str().unwrap().to_owned();
    assert!(!stderr.contains("warden: conversation"), "{stderr}");

    let listed = sessions_json(&dirs, &["list", "--json"]).await;
    let ids: Vec<_> = listed.as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [id.as_str()], "the ephemeral run was not saved");
    assert_ne!(throwaway, id);

    let continued = exec(&dirs, &server, &["--continue", "second question"]).await;
    assert_eq!(continued, id);
    assert_eq!(said(&server.requests()[2].body), ["first question", "First answer.", "second question"]);
}

#[tokio::test]
async fn resume_of_an_unknown_id_and_delete_are_clear() {
    let server = TestServer::start(vec![answer(&[text("Hi.")])]).await;
    let dirs = Dirs::new();
    let warden = Warden::spawn(command(&dirs, &exec_args(&server, &["--resume", "nope", "hello"])));
    let (code, _, stderr) = warden.finish().await;
    assert_eq!(code, 2);
    assert!(stderr.contains("no saved conversation `nope`"), "{stderr}");
    assert!(server.requests().is_empty(), "nothing was sent");

    let id = exec(&dirs, &server, &["hello"]).await;
    let (code, listing, _) = sessions(&dirs, &["list"]).await;
    assert_eq!(code, 0);
    assert!(listing.contains(&id) && listing.contains("hello"), "{listing}");
    assert_eq!(sessions(&dirs, &["delete", "../x"]).await.0, 2);
    assert_eq!(sessions_json(&dirs, &["delete", &id, "--json"]).await, json!({"deleted": id}));
    assert_eq!(sessions(&dirs, &["delete", &id]).await.0, 2, "already gone");
    assert_eq!(sessions_json(&dirs, &["list", "--json"]).await, json!([]));
}
