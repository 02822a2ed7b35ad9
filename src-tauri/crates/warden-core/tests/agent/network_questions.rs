//! A project whose network is `rules`: a boxed command that wants a host no rule names is held
//! while the window is asked (a confirmation of `kind: "network"` with its own id, the host, the
//! port and the call), and the answer decides: once (for this call), always (an allow rule saved
//! for the project), or deny (for the session). Real commands in the real box, a real HTTP server
//! on loopback standing in for a registry, reached through Warden's proxy.
#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::json;
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;
use warden_core::agent::{CallPolicy, RequestedCall, SaveRule, ToolEnvironment, ToolRunner};
use warden_core::containment::{self, net, BoxPolicy, Mechanism};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_core::tool::{ToolRegistry, ToolsConfig};
use warden_protocol::{ConfirmKind, Event, Remember, ToolApproval, ToolConfirm, TrustLevel};

/// A registry on this machine's loopback answering `from-registry`; its port and its hits.
fn registry() -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("listener: {e}"));
    let port = listener.local_addr().map(|a| a.port()).unwrap_or_else(|e| panic!("{e}"));
    let hits = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&hits);
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            counted.fetch_add(1, Ordering::SeqCst);
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).is_ok_and(|n| n == 1) {
                head.push(byte[0]);
            }
            let _ = stream.write_all(b"HTTP/1.0 200 OK\r\nContent-Length: 13\r\n\r\nfrom-registry");
        }
    });
    (port, hits)
}

struct Project {
    dir: TempDir,
    storage: TempDir,
    home: TempDir,
    saved: Arc<Mutex<Vec<String>>>,
}

impl Project {
    fn new() -> Self {
        let temp = || TempDir::new().unwrap_or_else(|e| panic!("temp dir: {e}"));
        Self { dir: temp(), storage: temp(), home: temp(), saved: Arc::default() }
    }

    /// A session's runner whose project network is `rules`, with the registry's names.
    fn runner(&self) -> (Arc<ToolRunner>, tokio::sync::mpsc::UnboundedReceiver<Event>) {
        let workspace = Workspace::new(self.dir.path(), self.storage.path(), Scope::all())
            .unwrap_or_else(|e| panic!("workspace: {e}"));
        let mut policy = BoxPolicy::with_home(self.dir.path(), Some(self.home.path()), &[]);
        policy.network = true;
        policy.network_rules = net::Rules {
            ask: true,
            resolve: vec![
                ("registry.test".to_owned(), "127.0.0.1".parse().unwrap_or_else(|e| panic!("{e}"))),
                ("other.test".to_owned(), "127.0.0.1".parse().unwrap_or_else(|e| panic!("{e}"))),
            ],
            ..net::Rules::default()
        };
        let saved = Arc::clone(&self.saved);
        let saver = SaveRule(Arc::new(move |pattern: &str| {
            saved.lock().unwrap_or_else(|e| panic!("{e}")).push(pattern.to_owned());
            Ok(())
        }));
        let env = ToolEnvironment::with_box(workspace, policy).with_rule_saver(saver);
        let registry = ToolRegistry::with_core_tools(ToolsConfig::default());
        let policy =
            CallPolicy { trust: TrustLevel::Autonomous, scope: Scope::all(), approval_timeout: None };
        let (runner, events) = ToolRunner::standalone("c-net".to_owned(), Arc::new(registry), env, policy);
        (Arc::new(runner), events)
    }
}

/// Answers each network question with the next of `answers` (`None`: deny), keeping what was
/// asked, until the call's result.
fn answering(
    runner: &Arc<ToolRunner>,
    mut events: tokio::sync::mpsc::UnboundedReceiver<Event>,
    answers: Vec<Option<Remember>>,
) -> tokio::task::JoinHandle<(Vec<ToolConfirm>, tokio::sync::mpsc::UnboundedReceiver<Event>)> {
    let approver = Arc::clone(runner);
    tokio::spawn(async move {
        let mut asked = Vec::new();
        let mut answers = answers.into_iter();
        while let Some(event) = events.recv().await {
            match event {
                Event::ToolConfirm(confirm) => {
                    let answer = answers.next().flatten();
                    approver.approve(ToolApproval {
                        confirm_id: confirm.confirm_id.clone(),
                        approved: answer.is_some(),
                        reason: None,
                        remember: answer,
                        always: None,
                    });
                    asked.push(confirm);
                }
                Event::ToolResult(_) => break,
                _ => {}
            }
        }
        (asked, events)
    })
}

async fn curl(runner: &ToolRunner, id: &str, url: &str) -> String {
    curl_with_report(runner, id, url).await.0
}

/// The call's result and its report, as JSON.
async fn curl_with_report(runner: &ToolRunner, id: &str, url: &str) -> (String, serde_json::Value) {
    let command = format!("curl -sS -m 20 {url}; echo; echo end");
    let call =
        RequestedCall { id: id.to_owned(), name: "bash".to_owned(), input: Ok(json!({"command": command})) };
    let result = runner.call("m-1", call, &CancellationToken::new()).await.result;
    (result.result, serde_json::to_value(&result.report).unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_host_is_asked_about_and_the_answer_is_kept_as_long_as_it_says() {
    let mechanism = containment::mechanism();
    assert!(
        matches!(mechanism, Mechanism::Bubblewrap { .. }),
        "this test needs bubblewrap: {}",
        mechanism.describe()
    );
    let (port, hits) = registry();
    let project = Project::new();
    let (runner, events) = project.runner();
    let url = format!("http://registry.test:{port}/index");

    // Once: the call reaches the registry, and its question names the host, the port and the call.
    let asking = answering(&runner, events, vec![Some(Remember::Once)]);
    let out = curl(&runner, "call-1", &url).await;
    let (asked, events) = asking.await.unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("from-registry"), "not reached after 'allow once': {out}");
    let [question] = asked.as_slice() else { panic!("one question, not {asked:?}") };
    assert_eq!(question.kind, ConfirmKind::Network);
    let network = question.network.as_ref().unwrap_or_else(|| panic!("no host in {question:?}"));
    assert_eq!((network.host.as_str(), network.port), ("registry.test", port));
    assert_eq!(network.reach.as_deref(), Some("a loopback address (this machine)"));
    assert_eq!((question.tool_id.as_str(), question.tool_name.as_str()), ("call-1", "bash"));
    assert!(project.saved.lock().unwrap_or_else(|e| panic!("{e}")).is_empty(), "once saves nothing");

    // Once was for that call: the next asks again, and "always" saves the project's rule.
    let asking = answering(&runner, events, vec![Some(Remember::Project)]);
    let out = curl(&runner, "call-2", &url).await;
    let (asked, events) = asking.await.unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("from-registry") && asked.len() == 1, "{out} {asked:?}");
    assert_eq!(*project.saved.lock().unwrap_or_else(|e| panic!("{e}")), [format!("registry.test:{port}")]);

    // Always: no question any more in this session.
    let asking = answering(&runner, events, vec![]);
    let (out, report) = curl_with_report(&runner, "call-3", &url).await;
    let (asked, events) = asking.await.unwrap_or_else(|e| panic!("{e}"));
    assert!(out.contains("from-registry") && asked.is_empty(), "{out} {asked:?}");
    assert_eq!(report["network"], json!([{"host": "registry.test", "port": port, "allowed": true}]));
    assert_eq!(hits.load(Ordering::SeqCst), 3);

    // Deny: the command is refused, the registry never reached, and not asked again.
    let other = format!("http://other.test:{port}/index");
    let asking = answering(&runner, events, vec![None]);
    let (out, report) = curl_with_report(&runner, "call-4", &other).await;
    let (asked, events) = asking.await.unwrap_or_else(|e| panic!("{e}"));
    assert!(asked.len() == 1 && !out.contains("from-registry"), "{out}");
    // The refusal is on the call's block, with its host, and told to the model.
    assert_eq!(report["network"][0]["host"], "other.test", "{report}");
    assert_eq!(report["network"][0]["allowed"], false, "{report}");
    assert!(out.contains("the sandbox's network refused: other.test"), "{out}");
    let asking = answering(&runner, events, vec![]);
    let out = curl(&runner, "call-5", &other).await;
    let (asked, _events) = asking.await.unwrap_or_else(|e| panic!("{e}"));
    assert!(asked.is_empty() && !out.contains("from-registry"), "a denial is asked again: {asked:?} {out}");
    assert_eq!(hits.load(Ordering::SeqCst), 3, "a denied host was reached");
}
