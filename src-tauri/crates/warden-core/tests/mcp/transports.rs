//! Both transports, every kind of tool server-everything has: plain text, numbers, an image,
//! structured content, annotations, progress, the roots Warden gives, and the environment a stdio
//! server gets.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::{json, Map, Value};
use warden_core::mcp::{connect, Connection};
use warden_core::tool::OutputSink;
use warden_testkit::mcp::HttpEverything;

use super::*;

fn args(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

async fn every_tool_works(connection: &Connection, dir: &tempfile::TempDir) {
    let tools = connection.tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for expected in [
        "echo",
        "get-sum",
        "get-tiny-image",
        "get-structured-content",
        "trigger-long-running-operation",
        "get-roots-list",
    ] {
        assert!(names.contains(&expected), "{expected} missing from {names:?}");
    }

    let echo =
        connection.call("echo", args(json!({"message": "hi there"})), OutputSink::none()).await.unwrap();
    assert_eq!(text_of(&echo), "Echo: hi there");

    let sum = connection.call("get-sum", args(json!({"a": 2, "b": 40})), OutputSink::none()).await.unwrap();
    assert!(text_of(&sum).contains("42"), "{sum}");

    let image = connection.call("get-tiny-image", Map::new(), OutputSink::none()).await.unwrap();
    let output = warden_core::mcp::result_output(&image).await;
    assert!(output.content.contains("[image (image/png,"), "{}", output.content);
    assert_eq!(output.metadata["images"], 1);

    let structured = connection
        .call("get-structured-content", args(json!({"location": "New York"})), OutputSink::none())
        .await
        .unwrap();
    assert!(structured["structuredContent"]["temperature"].is_number(), "{structured}");
    let output = warden_core::mcp::result_output(&structured).await;
    assert!(output.metadata["structured_content"]["temperature"].is_number());

    let annotated = connection
        .call(
            "get-annotated-message",
            args(json!({"messageType": "error", "includeImage": true})),
            OutputSink::none(),
        )
        .await
        .unwrap();
    assert!(text_of(&annotated).to_lowercase().contains("error"), "{annotated}");

    // The one root a server is given is the project folder.
    let roots = connection.call("get-roots-list", Map::new(), OutputSink::none()).await.unwrap();
    let canonical = std::fs::canonicalize(dir.path()).unwrap();
    assert!(
        text_of(&roots).contains(&canonical.to_string_lossy().to_string())
            || text_of(&roots).contains(&dir.path().to_string_lossy().to_string()),
        "{roots}"
    );

    // Progress notifications reach the call's output as they come.
    let (sink, mut progress) = OutputSink::channel(64 * 1024);
    let long = connection
        .call("trigger-long-running-operation", args(json!({"duration": 1, "steps": 3})), sink)
        .await
        .unwrap();
    assert!(text_of(&long).contains("completed"), "{long}");
    let mut lines = Vec::new();
    while let Ok((_, line)) = progress.try_recv() {
        lines.push(line);
    }
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[2].starts_with("[3/3]"), "{lines:?}");
}

#[tokio::test]
async fn every_tool_of_server_everything_over_stdio() {
    let dir = project();
    let connection = connect(&everything_stdio(), root(&dir), None).await.unwrap();
    every_tool_works(&connection, &dir).await;
    connection.close().await;
}

#[tokio::test]
async fn every_tool_of_server_everything_over_streamable_http() {
    let server = HttpEverything::start();
    let dir = project();
    let connection = connect(&http("everything", &server.url()), root(&dir), None).await.unwrap();
    every_tool_works(&connection, &dir).await;
    connection.close().await;
}

#[tokio::test]
async fn a_stdio_server_gets_its_configured_env_and_no_credentials() {
    // A credential in Warden's own environment (the name marks it as one): in this test's own
    // process, and no other test's.
    let credential = [("MCP_TEST_SERVICE_TOKEN", "s3cret-value-for-the-test")];
    if !warden_testkit::rerun_with_env(
        module_path!(),
        "a_stdio_server_gets_its_configured_env_and_no_credentials",
        &credential,
    ) {
        return;
    }
    let env = BTreeMap::from([("WARDEN_MCP_CHOSEN".to_owned(), "from-the-entry".to_owned())]);
    let spec = stdio(
        "everything",
        &warden_testkit::mcp::server_bin("mcp-server-everything").to_string_lossy(),
        &["stdio"],
        env,
    );
    let dir = project();
    let connection = connect(&spec, root(&dir), None).await.unwrap();
    let shown = connection.call("get-env", Map::new(), OutputSink::none()).await.unwrap();
    let text = text_of(&shown);
    assert!(text.contains("from-the-entry"), "the configured variable is missing: {text}");
    assert!(!text.contains("s3cret-value-for-the-test"), "a credential reached the server");
    assert!(!text.contains("MCP_TEST_SERVICE_TOKEN"));
    connection.close().await;
}

#[tokio::test]
async fn server_filesystem_reads_inside_its_folder_only() {
    let dir = project();
    std::fs::write(dir.path().join("note.txt"), "written by the test").unwrap();
    let bin = warden_testkit::mcp::server_bin("mcp-server-filesystem");
    let folder = dir.path().to_string_lossy().to_string();
    let spec = stdio("files", &bin.to_string_lossy(), &[&folder], BTreeMap::new());
    let connection = connect(&spec, root(&dir), None).await.unwrap();
    let read = connection
        .call("read_text_file", args(json!({"path": dir.path().join("note.txt")})), OutputSink::none())
        .await
        .unwrap();
    assert_eq!(text_of(&read), "written by the test");
    let outside = connection
        .call("read_text_file", args(json!({"path": "/etc/hostname"})), OutputSink::none())
        .await
        .unwrap();
    assert_eq!(outside["isError"], true, "{outside}");
    assert!(warden_core::mcp::result_output(&outside).await.is_error);
    tokio::time::timeout(Duration::from_secs(5), connection.close()).await.unwrap();
}

#[tokio::test]
async fn settings_list_a_servers_resources_and_prompts() {
    let dir = project();
    let slot =
        warden_core::mcp::ServerSlot::new(everything_stdio(), root(&dir), None, Duration::from_secs(30));
    slot.connection().await.unwrap();
    let status = slot.status().await;
    assert!(!status.prompts.is_empty(), "{status:?}");
    assert!(!status.resources.is_empty(), "{status:?}");
    assert!(status.resources.iter().all(|r| r.contains(" <") && r.ends_with('>')), "{:?}", status.resources);
    assert!(status.resources.len() <= warden_core::mcp::CATALOG_MAX);
}

/// The user filling in a form: a name, and every other field's default.
struct FillsIn;

#[async_trait::async_trait]
impl warden_core::mcp::Elicitor for FillsIn {
    async fn elicit(&self, server: &str, message: &str, schema: &Value) -> warden_core::mcp::Elicitation {
        assert_eq!(server, "everything");
        assert!(!message.is_empty());
        let mut content: Map<String, Value> = schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .filter_map(|(name, field)| Some((name.clone(), field.get("default")?.clone())))
            .collect();
        content.insert("name".to_owned(), json!("Ada Lovelace"));
        warden_core::mcp::Elicitation::Accept(content)
    }
}

#[tokio::test]
async fn a_server_asks_for_a_form_and_gets_what_the_user_filled_in() {
    let dir = project();
    let setup = warden_core::mcp::ClientSetup {
        elicitor: Some(std::sync::Arc::new(FillsIn)),
        ..warden_core::mcp::ClientSetup::default()
    };
    let connection =
        warden_core::mcp::connect_with(&everything_stdio(), root(&dir), None, &setup).await.unwrap();
    let result =
        connection.call("trigger-elicitation-request", Map::new(), OutputSink::none()).await.unwrap();
    let text = text_of(&result);
    assert!(text.contains("- Name: Ada Lovelace"), "{text}");
    assert!(text.contains("- Favorite Integer: 42"), "{text}");
    connection.close().await;

    // Without anyone to fill in forms, Warden does not offer them: the server has no such tool.
    let plain = connect(&everything_stdio(), root(&dir), None).await.unwrap();
    assert!(!plain.tools().await.unwrap().iter().any(|t| t.name == "trigger-elicitation-request"));
    plain.close().await;
}

/// `tests/mcp/servers/changing-tools.mjs`, connected.
async fn changing_tools(dir: &tempfile::TempDir) -> Connection {
    let script = warden_testkit::mcp::servers_dir().join("servers/changing-tools.mjs");
    let node = warden_testkit::mcp::server_bin("node");
    let spec = stdio("changing", &node.to_string_lossy(), &[&script.to_string_lossy()], BTreeMap::new());
    connect(&spec, root(dir), None).await.unwrap()
}

#[tokio::test]
async fn a_changed_tool_list_is_read_again_as_soon_as_the_server_says_so() {
    let dir = project();
    let connection = changing_tools(&dir).await;
    let (first, pending) = connection.tools_generation();
    assert!(!pending, "nothing announced yet");
    let before = connection.tools().await.unwrap();
    assert!(!before.iter().any(|t| t.name == "unlocked"));

    // The server announces the change, then takes 100 ms to answer the call; nobody asks for the
    // tools meanwhile. The list is read again by itself.
    connection.call("unlock", Map::new(), OutputSink::none()).await.unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while connection.tools_generation() != (first + 1, false) {
        assert!(
            std::time::Instant::now() < deadline,
            "not listed again: {:?}",
            connection.tools_generation()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let after = connection.tools().await.unwrap();
    assert!(
        after.iter().any(|t| t.name == "unlocked"),
        "{:?}",
        after.iter().map(|t| &t.name).collect::<Vec<_>>()
    );
    assert_eq!(
        connection.tools_generation(),
        (first + 1, false),
        "reading them did not list them a third time"
    );
    connection.close().await;
}

#[tokio::test]
async fn a_list_a_server_never_answers_is_given_up_after_ten_seconds_and_the_old_list_stays() {
    let dir = project();
    let connection = changing_tools(&dir).await;
    let (first, _) = connection.tools_generation();

    // The change is announced; the list asked for in the background is never answered.
    connection.call("hang", Map::new(), OutputSink::none()).await.unwrap();
    let started = std::time::Instant::now();
    while !connection.tools_generation().1 {
        assert!(started.elapsed() < Duration::from_secs(5), "the announced change was not seen");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Given up after LIST_TIME (10 s): the old list stays, and nothing is pending any more.
    while connection.tools_generation().1 {
        assert!(started.elapsed() < Duration::from_secs(20), "still waiting for the hung list");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(connection.tools_generation(), (first, false));
    let read = std::time::Instant::now();
    let tools = connection.tools().await.unwrap();
    assert!(read.elapsed() < Duration::from_secs(1), "a reader after it was held up: {:?}", read.elapsed());
    assert!(tools.iter().any(|t| t.name == "hang"), "the old list is kept");
    connection.close().await;
}

#[tokio::test]
async fn an_http_server_that_answers_without_end_is_read_only_to_the_limit() {
    use warden_testkit::server::{wait_until, Reply, TestServer};
    // The answer to `initialize` never ends (the server stops by itself after 64 MiB).
    let server = TestServer::start(vec![Reply::endless(
        "application/json",
        b"{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"x\":\"",
        64 * 1024 * 1024,
    )])
    .await;
    let dir = project();
    let url = format!("{}/mcp", server.url);
    let error = match connect(&http("endless", &url), root(&dir), None).await {
        Ok(_) => panic!("an endless answer is not a server"),
        Err(error) => error.to_string(),
    };
    assert!(wait_until(|| server.endless_done() == 1, Duration::from_secs(60)).await, "{error}");
    let sent = server.endless_sent();
    // rmcp counts the bytes against the limit Warden gives it (16 MiB for a JSON answer).
    assert!(error.contains("exceeded the maximum size of 16777216 bytes"), "{error}");
    assert!(sent <= 32 * 1024 * 1024, "the client read on to {sent} bytes: {error}");
}
