//! The box's notice of a remote project: once, for a project Warden worked in on that machine
//! before the box began to show only the toolchains of the home, what of that home its commands
//! no longer see — asked there, and read for good once dismissed.

use serde_json::json;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::raw_link::autonomous_session;
use super::remote_side::{remote_user, RemoteProject, RunDir};

#[tokio::test]
async fn a_remote_projects_box_notice_is_asked_there_and_gone_once_read() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let server = TestServer::start(vec![
        Reply::sse(
            anthropic(&[tool("t1", "bash", json!({"command": "echo hi > a.txt"}))], 10),
            Split::Random(4),
        ),
        Reply::sse(anthropic(&[text("Done.")], 10), Split::Random(4)),
    ])
    .await;
    let (mut link, id, settings) = autonomous_session(&run, user, &project, &server.url).await;
    assert_eq!(link.turn(&id, "write a").await, "completed");
    let ask = json!({"method": "box_notice", "params": {"project": project.path, "settings": settings}});
    let first = link.request(ask.clone()).await;
    assert_eq!(
        first["ok"],
        json!({"kind": "box_notice", "value": null}),
        "a project made since says nothing: {first}"
    );

    // As if Warden had worked in it there before the box changed: its storage folder there is
    // marked, as the engine marks those of the projects from before.
    let projects = user.home.join(".local/share/warden/projects");
    let name = project.path.file_name().unwrap().to_string_lossy().into_owned();
    let storage = std::fs::read_dir(&projects)
        .unwrap()
        .flatten()
        .find(|entry| entry.file_name().to_string_lossy().starts_with(&format!("{name}-")))
        .unwrap_or_else(|| panic!("no storage folder of {name} in {}", projects.display()))
        .path();
    std::fs::write(storage.join("box-home-notice-due"), b"").unwrap();
    // An entry of that home the box no longer shows (named first: the notice names thirty).
    let hidden = user.home.join(format!(".0-notes-{name}"));
    std::fs::create_dir(&hidden).unwrap();

    let notice = link.request(ask.clone()).await;
    let paths = notice["ok"]["value"]["paths"].as_array().unwrap_or_else(|| panic!("{notice}"));
    assert!(paths.iter().any(|p| p == &json!(hidden.to_string_lossy())), "{notice}");
    let dismissed =
        link.request(json!({"method": "box_notice_dismiss", "params": {"project": project.path}})).await;
    assert_eq!(dismissed["ok"]["kind"], "done", "{dismissed}");
    assert_eq!(link.request(ask).await["ok"]["value"], json!(null), "read for good");
    std::fs::remove_dir(&hidden).unwrap();

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}
