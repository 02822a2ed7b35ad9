//! MCP from the command line: `warden exec --mcp-config` with a model calling an `mcp__…` tool,
//! `warden tool mcp__…`, and `warden mcp add|list|remove` — each against the real
//! `server-everything` from npm, each leaving no server process behind.

use serde_json::{json, Value};
use warden_testkit::mcp::server_bin;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, Dirs, Warden};

/// An `mcpServers` file with server-everything, its environment marked so its processes can be
/// found in `/proc` afterwards.
fn config_file(dirs: &Dirs, marker: &str) -> std::path::PathBuf {
    let file = dirs.home.path().join("mcp.json");
    let config = json!({"mcpServers": {"everything": {
        "command": server_bin("mcp-server-everything"),
        "args": ["stdio"],
        "env": {"WARDEN_TEST_MARKER": marker},
    }}});
    std::fs::write(&file, config.to_string()).unwrap();
    file
}

/// Processes whose environment holds `marker`.
fn marked(marker: &str) -> Vec<String> {
    let needle = format!("WARDEN_TEST_MARKER={marker}");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| String::from_utf8_lossy(&env).contains(&needle))
        })
        .map(|pid| pid.to_string())
        .collect()
}

fn unique(name: &str) -> String {
    format!("{name}-{}-{}", std::process::id(), rand_suffix())
}

fn rand_suffix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

#[tokio::test]
async fn exec_with_an_mcp_config_calls_the_servers_tool_and_leaves_no_process() {
    let server = TestServer::start(vec![
        Reply::sse(
            anthropic(&[tool("toolu_1", "mcp__everything__echo", json!({"message": "from exec"}))], 10),
            Split::Random(5),
        ),
        Reply::sse(anthropic(&[text("Done.")], 10), Split::Random(5)),
    ])
    .await;
    let dirs = Dirs::new();
    let marker = unique("exec");
    let file = config_file(&dirs, &marker);
    let args =
        exec_args(&server, &["--mcp-config", file.to_str().unwrap(), "--approve", "all", "echo something"]);
    let warden = Warden::spawn(command(&dirs, &args));
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let confirm = find(&lines, "chat:tool-confirm");
    assert_eq!(confirm.len(), 1, "a dangerous MCP tool asks in Guided");
    let result = find(&lines, "chat:tool-result");
    assert_eq!(result[0]["payload"]["status"], "success", "{:?}", result[0]);
    assert_eq!(result[0]["payload"]["result"], "Echo: from exec");
    assert!(marked(&marker).is_empty(), "server processes outlived warden exec: {:?}", marked(&marker));
}

#[tokio::test]
async fn warden_tool_calls_one_mcp_tool() {
    let dirs = Dirs::new();
    let marker = unique("tool");
    let file = config_file(&dirs, &marker);
    let mut cmd = command(
        &dirs,
        &[
            "tool",
            "mcp__everything__get-sum",
            r#"{"a": 20, "b": 22}"#,
            "--json",
            "--approve",
            "all",
            "--mcp-config",
            file.to_str().unwrap(),
        ],
    );
    cmd.stdin(std::process::Stdio::null());
    let output = cmd.output().await.unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "stderr: {stderr}");
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["status"], "success");
    assert!(result["result"].as_str().unwrap().contains("42"), "{result}");
    assert!(marked(&marker).is_empty());
}

async fn warden(dirs: &Dirs, args: &[&str]) -> (i32, String, String) {
    let mut cmd = command(dirs, args);
    cmd.stdin(std::process::Stdio::null());
    let output = cmd.output().await.unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[tokio::test]
async fn mcp_add_list_and_remove() {
    let dirs = Dirs::new();
    let bin = server_bin("mcp-server-everything");
    let (code, _, stderr) =
        warden(&dirs, &["mcp", "add", "everything", "--", bin.to_str().unwrap(), "stdio"]).await;
    assert_eq!(code, 0, "{stderr}");
    let (code, stdout, stderr) = warden(&dirs, &["mcp", "list", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    let listed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(listed[0]["name"], "everything");
    assert_eq!(listed[0]["state"], "connected");
    let tools: Vec<&str> =
        listed[0]["tools"].as_array().unwrap().iter().map(|t| t["qualifiedName"].as_str().unwrap()).collect();
    assert!(tools.contains(&"mcp__everything__echo"), "{tools:?}");
    let (code, stdout, _) = warden(&dirs, &["mcp", "list"]).await;
    assert_eq!(code, 0);
    assert!(stdout.starts_with("everything (stdio): connected, "), "{stdout}");

    // A server that cannot start makes `list` fail and say why.
    let (code, _, _) = warden(&dirs, &["mcp", "add", "broken", "--", "/nonexistent/server"]).await;
    assert_eq!(code, 0);
    let (code, stdout, _) = warden(&dirs, &["mcp", "list"]).await;
    assert_eq!(code, 1);
    assert!(stdout.contains("broken (stdio): failed: "), "{stdout}");

    for name in ["everything", "broken"] {
        assert_eq!(warden(&dirs, &["mcp", "remove", name]).await.0, 0);
    }
    let (code, stdout, _) = warden(&dirs, &["mcp", "list", "--json"]).await;
    assert_eq!((code, stdout.trim()), (0, "[]"));

    // Usage mistakes exit 2 with a reason.
    for args in [
        &["mcp", "add", "bad name", "--", "x"][..],
        &["mcp", "add", "nothing"],
        &["mcp", "add", "web", "--url", "ftp://example.com"],
        &["mcp", "remove", "never-added"],
    ] {
        let (code, _, stderr) = warden(&dirs, args).await;
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.starts_with("warden: "), "{stderr}");
    }
}

#[tokio::test]
async fn a_projects_mcp_json_is_used_after_warden_mcp_approve_only() {
    let dirs = Dirs::new();
    let config = json!({"mcpServers": {"everything": {"command": server_bin("mcp-server-everything"), "args": ["stdio"]}}});
    std::fs::write(dirs.path(".mcp.json"), config.to_string()).unwrap();
    let echo = ["tool", "mcp__everything__echo", r#"{"message": "hi"}"#, "--json", "--approve", "all"];
    let (code, _, stderr) = warden(&dirs, &echo).await;
    assert_eq!(code, 2, "an unapproved .mcp.json gives no tools: {stderr}");
    let (_, stdout, _) = warden(&dirs, &["mcp", "list"]).await;
    assert!(stdout.contains("not used until you run `warden mcp approve`"), "{stdout}");

    let (code, shown, stderr) = warden(&dirs, &["mcp", "show", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    let digest = serde_json::from_str::<Value>(&shown).unwrap()["digest"].as_str().unwrap().to_owned();
    let (code, _, stderr) = warden(&dirs, &["mcp", "approve", "--digest", &digest]).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("everything (stdio)"), "it says what it will start: {stderr}");
    let (code, stdout, stderr) = warden(&dirs, &echo).await;
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Echo: hi"));

    // Changed since: asked again.
    std::fs::write(dirs.path(".mcp.json"), format!("{config}\n")).unwrap();
    let (code, _, _) = warden(&dirs, &echo).await;
    assert_eq!(code, 2);
}
