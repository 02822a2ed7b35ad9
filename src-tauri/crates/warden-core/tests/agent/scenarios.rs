//! The loop end to end: every wire format, trust level × danger, scope, parallel safe calls, the
//! budget, the turn limit, cancellation, sandbox violations and bad calls. Approvals: `approvals.rs`.

use std::time::Duration;

use serde_json::json;
use warden_core::agent::TurnEnd;
use warden_core::scope::Scope;
use warden_protocol::{ContentBlock, Event, Role, StopReason, ToolErrorCode, ToolStatus, TrustLevel};

use super::harness::{answer, approve_all, Harness, Wire, ALL_WIRES};
use super::wire::{text, tool, Part};

pub(super) fn code(result: &warden_protocol::ToolResult) -> Option<ToolErrorCode> {
    result.code
}

/// The tool results the provider received in request `n`, as (id, content, is_error), whatever
/// the wire format.
pub(super) fn tool_results_sent(wire: Wire, body: &serde_json::Value) -> Vec<(String, String, bool)> {
    let messages = body["messages"].as_array().expect("messages");
    match wire {
        Wire::Anthropic => {
            let last = messages.last().expect("a message");
            assert_eq!(last["role"], "user");
            let blocks = last["content"].as_array().expect("content blocks");
            let results: Vec<_> = blocks.iter().take_while(|b| b["type"] == "tool_result").collect();
            results
                .iter()
                .map(|b| {
                    let content = match &b["content"] {
                        serde_json::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    (b["tool_use_id"].as_str().unwrap().to_owned(), content, b["is_error"] == true)
                })
                .collect()
        }
        Wire::OpenAi => messages
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| {
                let content = m["content"].as_str().unwrap().to_owned();
                let is_error = content.starts_with("ERROR") || content.to_lowercase().starts_with("error");
                (m["tool_call_id"].as_str().unwrap().to_owned(), content, is_error)
            })
            .collect(),
        Wire::Ollama => messages
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| {
                let content = m["content"].as_str().unwrap().to_owned();
                let is_error = content.starts_with("ERROR") || content.to_lowercase().starts_with("error");
                (m["tool_name"].as_str().unwrap().to_owned(), content, is_error)
            })
            .collect(),
    }
}

#[tokio::test]
async fn a_text_answer_streams_and_ends_the_turn_in_every_wire_format() {
    for wire in ALL_WIRES {
        let mut h = Harness::new(wire, vec![wire.reply(&[text("Hello "), text("there.")], 10)], |_| {}).await;
        let run = h.run("hi", approve_all()).await;
        assert_eq!(run.end, TurnEnd::Completed, "{wire:?}");
        assert_eq!(run.text(), "Hello there.", "{wire:?}");
        assert_eq!(run.names().first(), Some(&"chat:stream-start"));
        let end = run.last_stream_end();
        assert_eq!((end.stop_reason, end.partial), (StopReason::EndTurn, false), "{wire:?}");
        assert_eq!(end.usage.map(|u| u.input_tokens), Some(10), "{wire:?}");
        assert_eq!(h.requests().len(), 1);
    }
}

#[tokio::test]
async fn a_tool_result_goes_back_in_each_providers_own_format() {
    for wire in ALL_WIRES {
        let replies = vec![
            wire.reply(&[text("Reading."), tool("call_1", "file_read", json!({"path": "a.txt"}))], 10),
            wire.reply(&[text("It says hello.")], 20),
        ];
        let mut h = Harness::new(wire, replies, |_| {}).await;
        std::fs::write(h.path("a.txt"), "hello from the file\n").unwrap();
        let run = h.run("what does a.txt say?", approve_all()).await;
        assert_eq!(run.end, TurnEnd::Completed, "{wire:?}");
        run.assert_starts_before_results();
        assert!(run.confirms().is_empty(), "file_read is safe: Guided does not ask");
        let requests = h.requests();
        assert_eq!(requests.len(), 2, "{wire:?}");
        let sent = tool_results_sent(wire, &requests[1].body);
        assert_eq!(sent.len(), 1, "{wire:?}: {}", requests[1].body);
        assert!(sent[0].1.contains("hello from the file"), "{wire:?}: {sent:?}");
        assert!(!sent[0].2, "{wire:?}: not an error");
        let expected_key = if wire == Wire::Ollama { "file_read" } else { "call_1" };
        assert_eq!(sent[0].0, expected_key, "{wire:?}");
        // The tools offered are exactly those in scope.
        let offered = match wire {
            Wire::Anthropic => requests[0].body["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["name"].clone())
                .collect::<Vec<_>>(),
            _ => requests[0].body["tools"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["function"]["name"].clone())
                .collect(),
        };
        assert!(offered.contains(&json!("bash")) && offered.contains(&json!("file_read")), "{wire:?}");
    }
}

#[tokio::test]
async fn trust_level_times_danger_decides_who_is_asked() {
    use TrustLevel::*;
    // (trust, tool, its input, asks?)
    let cases = [
        (Supervised, "file_read", true),
        (Supervised, "file_write", true),
        (Guided, "file_read", false),
        (Guided, "file_write", true),
        (Autonomous, "file_read", false),
        (Autonomous, "file_write", false),
    ];
    for (trust, name, asks) in cases {
        let input = if name == "file_read" {
            json!({"path": "seed.txt"})
        } else {
            json!({"path": "out.txt", "content": "written"})
        };
        let wire = Wire::Anthropic;
        let replies = vec![wire.reply(&[tool("t1", name, input)], 10), wire.reply(&[text("done")], 10)];
        let mut h = Harness::new(wire, replies, |c| c.trust = trust).await;
        std::fs::write(h.path("seed.txt"), "seed").unwrap();
        let run = h.run("go", approve_all()).await;
        assert_eq!(run.end, TurnEnd::Completed, "{trust:?} {name}");
        assert_eq!(run.confirms().len(), usize::from(asks), "{trust:?} {name}");
        assert_eq!(run.results()[0].status, ToolStatus::Success, "{trust:?} {name}");
        if name == "file_write" {
            assert_eq!(std::fs::read_to_string(h.path("out.txt")).unwrap(), "written");
        }
    }
}

#[tokio::test]
async fn out_of_scope_tools_are_not_offered_and_refused_if_called() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("b1", "bash", json!({"command": "touch made"}))], 10),
        wire.reply(&[text("ok")], 10),
    ];
    let mut h = Harness::new(wire, replies, |c| {
        c.scope = Scope::read_only();
        c.trust = TrustLevel::Autonomous;
    })
    .await;
    let run = h.run("try", approve_all()).await;
    assert!(!h.path("made").exists());
    assert_eq!(code(run.results()[0]), Some(ToolErrorCode::PermissionDenied));
    let offered: Vec<_> =
        h.requests()[0].body["tools"].as_array().unwrap().iter().map(|t| t["name"].clone()).collect();
    assert!(!offered.contains(&json!("bash")) && offered.contains(&json!("file_read")), "{offered:?}");
}

#[tokio::test]
async fn the_blocklist_holds_even_in_autonomous_mode() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("b1", "bash", json!({"command": "sudo  rm -rf --no-preserve-root /"}))], 10),
        wire.reply(&[text("ok")], 10),
    ];
    let mut h = Harness::new(wire, replies, |c| c.trust = TrustLevel::Autonomous).await;
    let run = h.run("clean up", approve_all()).await;
    assert_eq!(code(run.results()[0]), Some(ToolErrorCode::BlockedCommand));
    assert!(run.confirms().is_empty());
    assert_eq!(run.end, TurnEnd::Completed);
}

/// Review #9, finding 5: a command the blocklist cannot judge (its program is computed at run time)
/// asks in every trust level while no OS sandbox contains it — and says why; in Autonomous without
/// a box every command asks. In the box, both run unasked in Autonomous, contained.
#[tokio::test]
async fn an_unjudgeable_command_asks_unless_the_box_contains_it() {
    let wire = Wire::Anthropic;
    let replies = || {
        vec![
            wire.reply(&[tool("b1", "bash", json!({"command": "touch judged"}))], 10),
            wire.reply(&[tool("b2", "bash", json!({"command": "CMD=touch; $CMD computed"}))], 10),
            wire.reply(&[text("ok")], 10),
        ]
    };
    // No box, Guided: both ask (commands are dangerous), and the unjudgeable one says why.
    let mut h = Harness::unboxed(wire, replies(), |c| c.trust = TrustLevel::Guided).await;
    let run = h.run("make files", Box::new(|c| vec![answer(&c.confirm_id, c.tool_id == "b1")])).await;
    let asked: Vec<_> = run.confirms().iter().map(|c| c.tool_id.clone()).collect();
    assert_eq!(asked, ["b1", "b2"]);
    assert_eq!(run.confirms()[0].reason, None);
    let why = run.confirms()[1].reason.clone().unwrap_or_default();
    assert!(why.contains("cannot tell"), "the confirmation should say why it asks: {why:?}");
    assert!(h.path("judged").exists());
    assert!(!h.path("computed").exists(), "rejected, so it did not run");
    assert_eq!(code(run.results()[1]), Some(ToolErrorCode::UserRejected));

    // No box, Autonomous: every command asks, and says it is because nothing contains it.
    let mut h = Harness::unboxed(wire, replies(), |c| c.trust = TrustLevel::Autonomous).await;
    let run = h.run("make files", Box::new(|c| vec![answer(&c.confirm_id, false)])).await;
    let asked: Vec<_> = run.confirms().iter().map(|c| c.tool_id.clone()).collect();
    assert_eq!(asked, ["b1", "b2"]);
    let why = run.confirms()[0].reason.clone().unwrap_or_default();
    assert!(why.contains("not contained"), "{why:?}");

    // The box: nothing asks, both ran, contained.
    let mut h = Harness::new(wire, replies(), |c| c.trust = TrustLevel::Autonomous).await;
    let run = h.run("make files", Box::new(|c| vec![answer(&c.confirm_id, false)])).await;
    assert!(run.confirms().is_empty());
    assert!(h.path("judged").exists() && h.path("computed").exists());
    for result in run.results() {
        assert_eq!(result.report.sandbox.as_ref().map(|s| s.contained), Some(true));
    }
    assert_eq!(run.end, TurnEnd::Completed);
}

#[tokio::test]
async fn unknown_tools_and_invalid_input_go_back_to_the_model_and_the_loop_goes_on() {
    for wire in [Wire::Anthropic, Wire::OpenAi] {
        let replies = vec![
            wire.reply(
                &[
                    tool("u1", "no_such_tool", json!({})),
                    tool("u2", "file_read", json!({"path": 5})),
                    Part::RawTool { id: "u3".into(), name: "file_read", raw: "{\"path\": \"a.txt\"" },
                ],
                10,
            ),
            wire.reply(&[text("Sorry, fixed.")], 10),
        ];
        let mut h = Harness::new(wire, replies, |_| {}).await;
        let run = h.run("go", approve_all()).await;
        assert_eq!(run.end, TurnEnd::Completed, "{wire:?}");
        let codes: Vec<_> = run.results().iter().map(|r| code(r)).collect();
        assert_eq!(
            codes,
            [
                Some(ToolErrorCode::UnknownTool),
                Some(ToolErrorCode::ValidationError),
                Some(ToolErrorCode::ValidationError)
            ],
            "{wire:?}"
        );
        assert!(run.results()[1].result.contains("path"), "names the field: {}", run.results()[1].result);
        let sent = tool_results_sent(wire, &h.requests()[1].body);
        assert_eq!(sent.len(), 3, "{wire:?}");
        assert!(sent.iter().all(|(_, _, is_error)| *is_error), "{wire:?}: {sent:?}");
    }
}

#[tokio::test]
async fn a_sandbox_violation_stops_the_loop() {
    let wire = Wire::OpenAi;
    let replies = vec![
        wire.reply(&[tool("s1", "file_read", json!({"path": "../../../../etc/passwd"}))], 10),
        wire.reply(&[text("should never be asked")], 10),
    ];
    let mut h = Harness::new(wire, replies, |_| {}).await;
    let run = h.run("read it", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Failed);
    assert_eq!(code(run.results()[0]), Some(ToolErrorCode::SandboxViolation));
    assert!(!run.results()[0].result.contains("root:"), "nothing outside was read");
    let error = run.events.iter().find_map(|e| if let Event::Error(e) = e { Some(e) } else { None }).unwrap();
    assert_eq!(error.code, warden_protocol::ErrorCode::SandboxViolation);
    assert!(run.last_stream_end().partial);
    assert_eq!(h.requests().len(), 1, "the provider is not called again");
}

#[tokio::test]
async fn the_turn_limit_stops_the_loop_without_running_the_last_calls() {
    let wire = Wire::Ollama;
    let replies = vec![
        wire.reply(&[tool("m1", "bash", json!({"command": "touch first"}))], 10),
        wire.reply(&[tool("m2", "bash", json!({"command": "touch second"}))], 10),
        wire.reply(&[text("never")], 10),
    ];
    let mut h = Harness::new(wire, replies, |c| {
        c.max_turns = 2;
        c.trust = TrustLevel::Autonomous;
    })
    .await;
    let run = h.run("loop", approve_all()).await;
    assert_eq!(run.end, TurnEnd::MaxTurns);
    assert!(h.path("first").exists());
    assert!(!h.path("second").exists());
    assert_eq!(run.last_stream_end().stop_reason, StopReason::MaxTurns);
    assert_eq!(h.requests().len(), 2);
}

#[tokio::test]
async fn a_spent_budget_asks_for_a_final_answer_without_tools() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("r1", "file_read", json!({"path": "a.txt"}))], 900),
        wire.reply(&[text("Final answer: a.txt holds data.")], 950),
    ];
    let mut h = Harness::new(wire, replies, |c| {
        c.context_window = Some(1000);
        c.budget_threshold = 0.8;
    })
    .await;
    std::fs::write(h.path("a.txt"), "data").unwrap();
    let run = h.run("summarise", approve_all()).await;
    assert_eq!(run.end, TurnEnd::BudgetSpent);
    assert_eq!(run.last_stream_end().stop_reason, StopReason::Budget);
    assert!(run.text().contains("Final answer"));
    let requests = h.requests();
    assert_eq!(requests.len(), 2);
    let last_request = &requests[1].body;
    // The tools are still described (the history has tool calls) but may not be called.
    assert_eq!(last_request["tool_choice"], json!({"type": "none"}), "{last_request}");
    assert!(requests[0].body.get("tool_choice").is_none(), "other requests leave the choice to the model");
    assert!(last_request.to_string().contains("context budget"), "the model is told why");
    // Nothing older than the prompt to summarize: no compaction was tried (no summary request).
    assert!(!run.names().contains(&"chat:compacted"));
}

#[tokio::test]
async fn safe_calls_of_one_message_run_in_parallel_and_report_in_order() {
    let (searxng, most_at_once) = gathering_searxng(3).await;
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(
            &[
                tool("p1", "web_search", json!({"query": "one"})),
                tool("p2", "web_search", json!({"query": "two"})),
                tool("p3", "web_search", json!({"query": "three"})),
            ],
            10,
        ),
        wire.reply(&[text("found")], 10),
    ];
    let config = warden_core::tool::ToolsConfig { searxng_url: searxng, ..Default::default() };
    let mut h = Harness::with_tools_config(wire, replies, config, |_| {}).await;
    let run = h.run("search", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Completed);
    // Each result is shown as soon as its call ends (in any order); the model gets them in its order.
    let mut ids: Vec<_> = run.results().iter().map(|r| (r.tool_id.as_str(), r.status)).collect();
    ids.sort_by_key(|(id, _)| *id);
    assert_eq!(ids, [("p1", ToolStatus::Success), ("p2", ToolStatus::Success), ("p3", ToolStatus::Success)]);
    // Run one after another, the server would never have seen more than one search at a time.
    let most = most_at_once.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(most, 3, "at most {most} searches were in flight together: they did not run in parallel");
    let sent = tool_results_sent(wire, &h.requests()[1].body);
    assert_eq!(sent.iter().map(|s| s.0.as_str()).collect::<Vec<_>>(), ["p1", "p2", "p3"]);
}

#[tokio::test]
async fn cancel_during_a_running_command_kills_it_and_ends_the_turn_partial() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(
            &[tool("c1", "bash", json!({"command": format!("{GRANDCHILD} & echo $! > child.pid; wait")}))],
            10,
        ),
        wire.reply(&[text("never")], 10),
    ];
    let mut h = Harness::new(wire, replies, |c| c.trust = TrustLevel::Autonomous).await;
    let pid_file = h.path("child.pid");
    let session = h.session.clone();
    tokio::spawn(async move {
        while !pid_file.exists() {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        session.cancel();
    });
    let run = h.run("sleep", approve_all()).await;
    assert_eq!(run.end, TurnEnd::Cancelled);
    assert!(run.elapsed < Duration::from_secs(10), "{:?}", run.elapsed);
    assert_eq!(code(run.results()[0]), Some(ToolErrorCode::Cancelled));
    let end = run.last_stream_end();
    assert_eq!((end.stop_reason, end.partial), (StopReason::Cancelled, true));
    // That it dies is what this test proves; how fast is a benchmark's question (a loaded 2-core
    // machine can delay a reap), so the deadline is generous. Found by its command line: inside
    // the OS box the pid it wrote is one of the box's own pid namespace.
    let gone = wait_until_none_runs(GRANDCHILD, Duration::from_secs(10)).await;
    assert!(gone, "the grandchild `{GRANDCHILD}` survived the cancel");
    assert_eq!(h.requests().len(), 1);
    // The history stays valid for the next message: the call has its (cancelled) result.
    let history = h.session.history();
    let results: Vec<_> = history
        .iter()
        .filter(|m| m.role == Role::User)
        .flat_map(|m| &m.content)
        .filter(|b| matches!(b, ContentBlock::ToolResult(_)))
        .collect();
    assert_eq!(results.len(), 1);
}

#[tokio::test]
async fn the_conversation_continues_with_its_history_and_thinking_signature() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(
            &[
                Part::Thinking { text: "I should read it.", signature: "c2lnbmF0dXJlLWJ5dGVz+/==" },
                tool("h1", "file_read", json!({"path": "a.txt"})),
            ],
            10,
        ),
        wire.reply(&[text("It says hi.")], 10),
        wire.reply(&[text("You asked about a.txt.")], 10),
    ];
    let mut h = Harness::new(wire, replies, |_| {}).await;
    std::fs::write(h.path("a.txt"), "hi").unwrap();
    let first = h.run("read a.txt", approve_all()).await;
    assert_eq!(first.end, TurnEnd::Completed);
    let second = h.run("what did I ask?", approve_all()).await;
    assert_eq!(second.end, TurnEnd::Completed);
    let requests = h.requests();
    // The follow-up echoes the thinking block with its signature byte-exact.
    let assistant = &requests[1].body["messages"][1];
    assert_eq!(assistant["content"][0]["type"], "thinking");
    assert_eq!(assistant["content"][0]["signature"], "c2lnbmF0dXJlLWJ5dGVz+/==");
    // The next user message carries the whole conversation.
    let messages = requests[2].body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 5, "user, assistant+tool, tool results, assistant, user");
    // A lone text block goes as a plain string.
    assert_eq!(messages[4]["content"], "what did I ask?");
}

/// A SearXNG stand-in that answers every search after `delay`.
/// A SearXNG stand-in that holds every request until `expected` requests are in flight at once
/// (or a generous deadline passes), and reports the most it ever saw together: a count, not a time,
/// proves the searches ran in parallel.
async fn gathering_searxng(expected: usize) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = crate::support::fixture("searxng/search_format_json.json");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let in_flight = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let seen = most.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else { return };
            let (body, in_flight, most) = (body.clone(), in_flight.clone(), most.clone());
            tokio::spawn(async move {
                let mut buf = vec![0_u8; 8192];
                let _ = socket.read(&mut buf).await;
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
                while most.load(Ordering::SeqCst) < expected && tokio::time::Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    body.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&body).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    (url, seen)
}

/// The grandchild of the cancel test: a command line no other process on the machine has.
const GRANDCHILD: &str = "sleep 30.271828";

/// Whether every process running `command_line` (space-separated words) is gone (or a zombie)
/// within `limit`.
async fn wait_until_none_runs(command_line: &str, limit: Duration) -> bool {
    let wanted: Vec<u8> = command_line.split(' ').flat_map(|w| w.bytes().chain([0])).collect();
    let deadline = std::time::Instant::now() + limit;
    loop {
        let running: Vec<u32> = std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
            .filter(|pid| std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == wanted))
            .collect();
        let mut all_gone = true;
        for pid in running {
            all_gone &= wait_until_gone(pid, Duration::ZERO).await;
        }
        if all_gone {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn wait_until_gone(pid: u32, limit: Duration) -> bool {
    let deadline = std::time::Instant::now() + limit;
    loop {
        let gone = match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            // A zombie waiting for its reaper is dead too.
            Ok(stat) => stat.rsplit(')').next().is_some_and(|rest| rest.trim_start().starts_with('Z')),
        };
        if gone {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn an_endless_line_from_the_provider_fails_the_turn_naming_the_limit() {
    use crate::support::server::Reply;
    for wire in ALL_WIRES {
        let (content_type, prefix): (&str, &[u8]) = match wire {
            Wire::Ollama => ("application/x-ndjson", b"{\"message\":{\"content\":\""),
            _ => ("text/event-stream", b"data: {\"x\":\""),
        };
        // The server gives up by itself after 64 MiB; the turn must not read that far.
        let endless = Reply::endless(content_type, prefix, 64 * 1024 * 1024);
        let mut h = Harness::new(wire, vec![endless], |_| {}).await;
        let run = h.run("hi", approve_all()).await;
        assert_eq!(run.end, TurnEnd::Failed, "{wire:?}");
        let error = run.events.iter().find_map(|e| if let Event::Error(e) = e { Some(e) } else { None });
        let message = error.map(|e| e.message.clone()).unwrap_or_default();
        assert!(message.contains("larger than 8 MiB (Warden's limit)"), "{wire:?}: {message}");
        assert!(h.server.endless_sent() < 64 * 1024 * 1024, "{wire:?}: read to the end");
    }
}
