//! A local server's box goes out through a proxy of its own that asks the user about each host no
//! rule names, in the server's name — here at the server's start, before any call — and "always"
//! saves the project's rule. With nobody to ask (`warden exec`) such a host is not reached.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use warden_core::containment::net::{Answer, Rules};
use warden_core::containment::{mechanism, BoxPolicy};
use warden_core::mcp::{connect, connect_with, ClientSetup, Elicitation, Elicitor};
use warden_protocol::NetworkRequest;
use warden_testkit::mcp::server_bin;

use super::*;

/// Answers every host question with `answer`, keeping what it was asked.
struct AnswersHosts {
    answer: Answer,
    asked: Mutex<Vec<(String, NetworkRequest)>>,
}

#[async_trait::async_trait]
impl Elicitor for AnswersHosts {
    async fn elicit(&self, _: &str, _: &str, _: &serde_json::Value) -> Elicitation {
        Elicitation::Decline
    }

    async fn allow_host(&self, server: &str, request: &NetworkRequest) -> Answer {
        self.asked.lock().unwrap().push((server.to_owned(), request.clone()));
        self.answer.clone()
    }
}

/// A loopback HTTP server answering every request with "reached".
fn registry() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut head = [0u8; 1024];
            let _ = stream.read(&mut head);
            let _ = stream.write_all(b"HTTP/1.0 200 OK\r\nContent-Length: 7\r\n\r\nreached");
        }
    });
    port
}

/// The server `name`: a script in `project` that runs `first` (shell), then server-everything.
fn server_after(name: &str, project: &Path, first: &str) -> ServerSpec {
    let everything = std::fs::canonicalize(server_bin("mcp-server-everything")).unwrap();
    let launcher = project.join(format!("{name}.sh"));
    std::fs::write(&launcher, format!("#!/bin/sh\n{first}\nexec {} stdio\n", everything.display())).unwrap();
    std::fs::set_permissions(&launcher, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    stdio(name, &launcher.to_string_lossy(), &[], BTreeMap::new())
}

/// A server whose program first fetches `http://registry.test:PORT/` into `reached` in the folder
/// it starts in (the project), then runs server-everything.
fn fetching_server(project: &Path, port: u16) -> ServerSpec {
    server_after(
        "fetcher",
        project,
        &format!("curl -s -m 20 -o \"$PWD/reached\" http://registry.test:{port}/"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_servers_box_asks_about_each_new_host_in_the_servers_name_before_any_call() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    let port = registry();
    let dir = project();
    let project_dir = std::fs::canonicalize(dir.path()).unwrap();
    let spec = fetching_server(&project_dir, port);
    let rules =
        Rules { resolve: vec![("registry.test".to_owned(), [127, 0, 0, 1].into())], ..Rules::default() };
    let policy =
        BoxPolicy { network: true, network_rules: rules, ..BoxPolicy::for_project(&project_dir, &[]) };
    let reached = project_dir.join("reached");
    let expected = NetworkRequest {
        host: "registry.test".to_owned(),
        port,
        reach: Some("a loopback address (this machine)".to_owned()),
    };

    for (answer, reaches) in [(Answer::Deny, false), (Answer::Once, true), (Answer::Always, true)] {
        let _ = std::fs::remove_file(&reached);
        let elicitor = Arc::new(AnswersHosts { answer: answer.clone(), asked: Mutex::default() });
        let saved: Arc<Mutex<Vec<(PathBuf, String)>>> = Arc::default();
        let saving = Arc::clone(&saved);
        let setup = ClientSetup {
            elicitor: Some(elicitor.clone()),
            save_host_rule: Some(Arc::new(move |project: &Path, pattern: &str| {
                saving.lock().unwrap().push((project.to_path_buf(), pattern.to_owned()));
                Ok(())
            })),
            ..ClientSetup::default()
        };
        // The program fetches before it serves: the question comes while the handshake waits,
        // before any call.
        let connection = connect_with(&spec, &project_dir, Some(&policy), &setup).await.unwrap();
        assert_eq!(connection.contained(), Some(true));
        let asked = elicitor.asked.lock().unwrap().clone();
        assert_eq!(
            asked,
            [("fetcher".to_owned(), expected.clone())],
            "{answer:?}: one question, in the server's name"
        );
        let body = std::fs::read_to_string(&reached).unwrap_or_default();
        assert_eq!(body == "reached", reaches, "{answer:?}: the server fetched {body:?}");
        if !reaches {
            assert!(body.contains("registry.test"), "{answer:?}: not the proxy's refusal: {body:?}");
        }
        let saved = saved.lock().unwrap().clone();
        match answer {
            Answer::Always => assert_eq!(saved, [(project_dir.clone(), format!("registry.test:{port}"))]),
            _ => assert!(saved.is_empty(), "{answer:?} saved {saved:?}"),
        }
        connection.close().await;
    }

    // Nobody to ask: not reached.
    let _ = std::fs::remove_file(&reached);
    let connection = connect(&spec, &project_dir, Some(&policy)).await.unwrap();
    let body = std::fs::read_to_string(&reached).unwrap_or_default();
    assert!(body.contains("there is no window to ask in"), "not the proxy's refusal: {body:?}");
    connection.close().await;

    // A rule that names the host: reached without a question.
    let allowed = Rules {
        allow: vec![warden_core::containment::net::HostRule::parse(&format!("registry.test:{port}")).unwrap()],
        ..policy.network_rules.clone()
    };
    let policy = BoxPolicy { network_rules: allowed, ..policy };
    let elicitor = Arc::new(AnswersHosts { answer: Answer::Deny, asked: Mutex::default() });
    let setup = ClientSetup { elicitor: Some(elicitor.clone()), ..ClientSetup::default() };
    let connection = connect_with(&spec, &project_dir, Some(&policy), &setup).await.unwrap();
    assert_eq!(std::fs::read_to_string(&reached).unwrap_or_default(), "reached");
    assert!(elicitor.asked.lock().unwrap().is_empty(), "asked about a host a rule allows");
    connection.close().await;
}

/// A rule the user adds while a server runs applies to its next connection, without starting it
/// again: the project's rules reach the running server's proxy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rule_added_while_a_server_runs_applies_to_its_next_connection() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    let port = registry();
    let dir = project();
    let project_dir = std::fs::canonicalize(dir.path()).unwrap();
    // Fetches over and over while it serves, each answer in a file of its own.
    let poll = format!(
        "(n=0; while :; do n=$((n+1)); curl -s -m 5 -o \"$PWD/fetch-$n\" http://registry.test:{port}/; sleep 0.2; done) &"
    );
    let spec = server_after("poller", &project_dir, &poll);
    let rules =
        Rules { resolve: vec![("registry.test".to_owned(), [127, 0, 0, 1].into())], ..Rules::default() };
    let policy =
        BoxPolicy { network: true, network_rules: rules, ..BoxPolicy::for_project(&project_dir, &[]) };
    let reached = || {
        std::fs::read_dir(&project_dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("fetch-"))
            .any(|e| std::fs::read_to_string(e.path()).unwrap_or_default() == "reached")
    };
    let waited_for = |what: &dyn Fn() -> bool| {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(15);
        while !what() && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        what()
    };

    // Nobody to ask: refused, over and over.
    let hub = warden_core::mcp::McpHub::new(ClientSetup::default());
    let statuses = hub.statuses(std::slice::from_ref(&spec), &project_dir, Some(&policy)).await;
    assert!(
        matches!(statuses[0].state, warden_protocol::McpServerState::Connected),
        "{:?}",
        statuses[0].state
    );
    let fetches = || {
        std::fs::read_dir(&project_dir)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("fetch-"))
            .count()
    };
    assert!(waited_for(&|| fetches() >= 3), "the server did not fetch");
    assert!(!reached(), "reached without a rule");
    let pid = hub
        .slot(std::slice::from_ref(&spec), &project_dir, Some(&policy), "poller")
        .await
        .unwrap()
        .pid()
        .await;

    // The user allows the host: the same server reaches it.
    let allowed = Rules {
        allow: vec![warden_core::containment::net::HostRule::parse(&format!("registry.test:{port}")).unwrap()],
        ..policy.network_rules.clone()
    };
    let policy = BoxPolicy { network_rules: allowed, ..policy };
    hub.statuses(std::slice::from_ref(&spec), &project_dir, Some(&policy)).await;
    assert!(waited_for(&reached), "the rule did not reach the running server's proxy");
    let slot = hub.slot(std::slice::from_ref(&spec), &project_dir, Some(&policy), "poller").await.unwrap();
    assert_eq!(slot.pid().await, pid, "the server was started again");
    hub.shutdown().await;
}
