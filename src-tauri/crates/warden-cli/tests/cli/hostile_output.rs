//! Every subcommand's human output, fed names, paths and texts built to act on a terminal (an OSC
//! 52 clipboard write, a title, a clear screen, a carriage return, BEL, a C1 CSI, a bidi override,
//! invisible characters): not one of those characters reaches stdout or stderr raw. Each comes in
//! the way it would in use — a tool name and text the model sent, a file name in the project, a
//! title and a project path in the store, an MCP server's stderr and command, an argument — and
//! each command must also show it (escaped), so no case passes by printing nothing.

use serde_json::json;
use warden_core::config::WardenHome;
use warden_core::conversations::ConversationStore;
use warden_protocol::{ContentBlock, Message, Role, ToolImage, ToolResultBlock, ToolUse};
use warden_testkit::scripted::{anthropic, text, Part};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, Dirs};

/// What a hostile model, repository or server would send: each piece acts on a terminal.
const HOSTILE: &str = "\x1b]52;c;ZXZpbA==\x07\x1b]0;pwned\x07\x1b[2J\x1b[H\r\x08\x7f\u{9b}31m\u{202e}evil\u{2066}\u{200b}\u{2028}";
/// The OSC 52 write's payload: what shows that the hostile text was printed (escaped, or with
/// its controls already taken out on the way, as an MCP server's stderr is).
const SHOWN: &str = "ZXZpbA";

/// A character that must never reach a terminal raw.
fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c,
            '\u{61c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}'
            | '\u{feff}' | '\u{2028}' | '\u{2029}')
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

/// Runs `warden args…` and checks both streams. `shows`: whether the output must show a hostile
/// text (escaped). Returns the exit code and the two streams.
async fn walk(dirs: &Dirs, args: &[&str], shows: bool) -> (i32, String, String) {
    let mut cmd = command(dirs, args);
    cmd.stdin(std::process::Stdio::null());
    let output = cmd.output().await.unwrap();
    let what = args.iter().take(3).copied().collect::<Vec<_>>().join(" ");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    for (name, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        if let Some((at, c)) = text.char_indices().find(|(_, c)| forbidden(*c)) {
            panic!("`warden {what}`: {name} holds {c:?} raw at byte {at}:\n{text:?}");
        }
    }
    if shows {
        assert!(
            stdout.contains(SHOWN) || stderr.contains(SHOWN),
            "`warden {what}` showed nothing of the hostile text:\nstdout: {stdout}\nstderr: {stderr}"
        );
    }
    (output.status.code().unwrap_or(-1), stdout, stderr)
}

/// A saved conversation in which everything the model and the user chose is hostile.
fn hostile_conversation(dirs: &Dirs) {
    let store = ConversationStore::open_home(&WardenHome::at(dirs.home.path())).unwrap();
    let project = dirs.project.path().join(format!("project{HOSTILE}"));
    let messages = [
        Message {
            role: Role::User,
            content: vec![
                ContentBlock::Text { text: format!("findme {HOSTILE}") },
                ContentBlock::Image(ToolImage {
                    media_type: format!("image/png{HOSTILE}"),
                    data: "AAAA".into(),
                }),
            ],
        },
        Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Text { text: format!("answer {HOSTILE}") },
                ContentBlock::ToolUse(ToolUse {
                    id: "t1".into(),
                    name: format!("bash{HOSTILE}"),
                    input: json!({"command": HOSTILE}),
                    raw_arguments: None,
                    written: None,
                }),
            ],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult(ToolResultBlock {
                tool_use_id: "t1".into(),
                report: None,
                tool_name: format!("bash{HOSTILE}"),
                content: format!("output {HOSTILE}"),
                is_error: false,
                code: None,
                images: Vec::new(),
            })],
        },
    ];
    for (seq, message) in messages.iter().enumerate() {
        store.put_message("hostile-1", Some(&project), seq, message).unwrap();
    }
}

/// A file of the project whose name and text are hostile (a name may hold anything but `/`).
fn hostile_file(dirs: &Dirs) -> String {
    let name = format!("evil{HOSTILE}.txt");
    std::fs::write(dirs.path(&name), format!("line one {HOSTILE}\nline two\n")).unwrap();
    name
}

#[tokio::test]
async fn sessions_show_nothing_a_terminal_would_obey() {
    let dirs = Dirs::new();
    hostile_conversation(&dirs);
    // The reported case: `show` printed the model's tool name raw.
    let (code, stdout, _) = walk(&dirs, &["sessions", "show", "hostile-1"], true).await;
    assert_eq!(code, 0);
    assert!(stdout.contains("→ bash\\x1b]52;c;ZXZpbA==\\x07"), "{stdout}");
    assert!(stdout.contains("[image: image/png\\x1b]52"), "{stdout}");
    walk(&dirs, &["sessions", "list"], true).await;
    walk(&dirs, &["sessions", "search", "findme"], true).await;
    walk(&dirs, &["sessions", "search", &format!("nothing{HOSTILE}")], true).await;
    walk(&dirs, &["sessions", "show", &format!("bad{HOSTILE}")], true).await;
    walk(&dirs, &["sessions", "delete", "hostile-1"], false).await;
}

#[tokio::test]
async fn checkpoints_show_nothing_a_terminal_would_obey() {
    let dirs = Dirs::new();
    let name = hostile_file(&dirs);
    let (code, _, stderr) = walk(&dirs, &["checkpoint", "create"], false).await;
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(dirs.path(&name), format!("changed {HOSTILE}\n")).unwrap();
    let (code, _, stderr) = walk(&dirs, &["checkpoint", "create"], false).await;
    assert_eq!(code, 0, "{stderr}");
    let list = command(&dirs, &["checkpoint", "list", "--json"]).output().await.unwrap();
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let first = list[0]["id"].as_str().unwrap().to_owned();
    walk(&dirs, &["checkpoint", "list"], false).await;
    let (_, stdout, _) = walk(&dirs, &["checkpoint", "diff", &first], true).await;
    assert!(stdout.contains("M evil\\x1b]52"), "the file line names it escaped: {stdout}");
    walk(&dirs, &["checkpoint", "diff", &first, "--path", &name], true).await;
    walk(&dirs, &["checkpoint", "restore", &first], true).await;
    walk(&dirs, &["checkpoint", "diff", &format!("nosuch{HOSTILE}")], true).await;
    walk(&dirs, &["checkpoint", "list", "--project", &format!("/nonexistent{HOSTILE}")], true).await;
}

#[tokio::test]
async fn mcp_commands_show_nothing_a_terminal_would_obey() {
    let dirs = Dirs::new();
    // A server that says something hostile on stderr and exits: `list` shows its last words.
    let config = dirs.path("servers.json");
    let script = format!("printf '%s\\n' '{HOSTILE}' >&2; exit 3");
    std::fs::write(
        &config,
        json!({"mcpServers": {"bad": {"command": "sh", "args": ["-c", script]}}}).to_string(),
    )
    .unwrap();
    let (code, stdout, _) =
        walk(&dirs, &["mcp", "list", "--mcp-config", config.to_str().unwrap()], true).await;
    assert_eq!(code, 1, "a failed server: {stdout}");
    // A project's `.mcp.json` the repository wrote.
    let project = json!({"mcpServers": {"tools": {"command": format!("run{HOSTILE}"), "args": [HOSTILE]}}});
    std::fs::write(dirs.path(".mcp.json"), project.to_string()).unwrap();
    walk(&dirs, &["mcp", "list"], false).await;
    walk(&dirs, &["mcp", "show"], true).await;
    // Without a terminal, approve refuses and names the digest of what `show` showed; approving
    // with that digest names the servers it approved.
    let (code, _, stderr) = walk(&dirs, &["mcp", "approve"], false).await;
    assert_eq!(code, 1, "approve without a terminal refuses: {stderr}");
    let digest = stderr
        .split("--digest ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_hexdigit()).next())
        .unwrap_or_else(|| panic!("the refusal names a digest: {stderr}"))
        .to_string();
    walk(&dirs, &["mcp", "approve", "--digest", &digest], true).await;
    walk(&dirs, &["mcp", "decline"], false).await;
    let name = format!("srv{HOSTILE}");
    walk(&dirs, &["mcp", "add", &name, "--", "true"], true).await;
    walk(&dirs, &["mcp", "remove", &name], true).await;
    walk(&dirs, &["mcp", "logout", &name], true).await;
    walk(&dirs, &["mcp", "login", &name], true).await;
}

#[tokio::test]
async fn tool_and_sandbox_and_usage_errors_show_nothing_a_terminal_would_obey() {
    let dirs = Dirs::new();
    let name = hostile_file(&dirs);
    let read = json!({"path": name}).to_string();
    let (code, stdout, _) = walk(&dirs, &["tool", "file_read", &read], true).await;
    assert_eq!(code, 0);
    assert!(stdout.contains("line one \\x1b]52"), "{stdout}");
    walk(&dirs, &["tool", "list_dir", "{}"], true).await;
    walk(&dirs, &["tool", "search_files", r#"{"pattern": "*"}"#], true).await;
    walk(&dirs, &["tool", "file_read", &json!({"path": format!("missing{HOSTILE}")}).to_string()], true)
        .await;
    walk(&dirs, &["tool", &format!("no_such{HOSTILE}"), "{}"], true).await;
    walk(&dirs, &["tool", "file_read", &format!("not json{HOSTILE}")], false).await;
    // A command's streamed output and its result.
    let command_line = json!({"command": format!("printf '%s' '{HOSTILE}'; printf '%s' '{HOSTILE}' >&2")});
    walk(&dirs, &["tool", "bash", &command_line.to_string(), "--allow", "bash", "--approve", "all"], true)
        .await;
    walk(&dirs, &["sandbox", "--project", &format!("/nonexistent{HOSTILE}"), "--", "true"], true).await;
    // Usage errors (clap's text, which quotes what was given, printed through the sanitizer).
    walk(&dirs, &["exec", &format!("--bogus{HOSTILE}")], false).await;
    walk(&dirs, &["checkpoint", &format!("bogus{HOSTILE}")], false).await;
}

#[tokio::test]
async fn exec_shows_nothing_a_terminal_would_obey() {
    let dirs = Dirs::new();
    let name = hostile_file(&dirs);
    let said = leak(format!("Here is what I found: {HOSTILE}"));
    let tool_name = leak(format!("bash{HOSTILE}"));
    let replies = vec![
        Reply::sse(
            anthropic(
                &[
                    text(leak(format!("Looking {HOSTILE}"))),
                    Part::Tool { id: "c1".into(), name: tool_name, input: json!({"command": HOSTILE}) },
                    Part::Tool { id: "c2".into(), name: "file_read", input: json!({"path": name}) },
                ],
                10,
            ),
            Split::Random(3),
        ),
        Reply::sse(anthropic(&[text(said)], 10), Split::Random(3)),
    ];
    let server = TestServer::start(replies).await;
    let base = [
        "exec",
        "--provider",
        "anthropic",
        "--model",
        "claude-test",
        "--base-url",
        &server.url,
        "--approve",
        "all",
    ];
    let mut args = base.to_vec();
    let prompt = format!("read it {HOSTILE}");
    args.push(&prompt);
    let (code, stdout, stderr) = walk(&dirs, &args, true).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("● bash\\x1b]52"), "the tool name the model chose: {stdout}");
    // The conversation it saved, shown again.
    walk(&dirs, &["sessions", "list"], true).await;
    let id = stderr
        .split("warden: conversation ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).next())
        .unwrap_or_else(|| panic!("no conversation id: {stderr}"))
        .to_owned();
    walk(&dirs, &["sessions", "show", &id], true).await;

    // A provider whose error message is hostile.
    let error = json!({"type": "error", "error": {"type": "invalid_request_error", "message": HOSTILE}});
    let mut head = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n".to_vec();
    let body = error.to_string();
    head.extend_from_slice(format!("content-length: {}\r\n\r\n{body}", body.len()).as_bytes());
    let server = TestServer::start(vec![Reply::http(head)]).await;
    let mut args: Vec<&str> = base.to_vec();
    args[6] = &server.url;
    args.push("hello");
    let (code, _, _) = walk(&dirs, &args, true).await;
    assert_eq!(code, 1);
}
