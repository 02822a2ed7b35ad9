//! MCP servers of a remote project: those of this machine's settings run there, in its box, and
//! the secrets their entries name (`keychain:NAME`) come from this machine's keychain, sent with
//! the session and held in the remote engine's memory only. This side's settings are sealed with
//! the keychain, so this runs under dbus-run-session (scripts/test.sh).

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use warden_testkit::mcp::server_bin;
use warden_testkit::scripted::{anthropic, text, tool};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, with_keychain, Dirs, Warden};
use super::raw_link::{open_request, RawLink};
use super::remote_side::{processes_of, remote_user, RemoteProject, RunDir, USER};

const SECRET: &str = "mcp-secret-kept-here-7781";

fn answer(parts: &[warden_testkit::scripted::Part]) -> Reply {
    Reply::sse(anthropic(parts, 10), Split::Random(5))
}

/// `warden ARGS…` with the keychain, `stdin` written to it: its exit code and stderr.
async fn warden(dirs: &Dirs, args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let mut child = with_keychain(command(dirs, args)).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.as_bytes()).await.unwrap();
    drop(input);
    let out = child.wait_with_output().await.unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn an_mcp_servers_secret_goes_from_this_keychain_to_its_server_there_keychain() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let transport = run.runuser(user, 5);
    let target = project.target("build-box");
    let dirs = Dirs::new();

    let bin = server_bin("mcp-server-everything");
    let add =
        ["mcp", "add", "everything", "--env", "TOKEN=keychain:tok", "--", bin.to_str().unwrap(), "stdio"];
    let (code, stderr) = warden(&dirs, &add, "").await;
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stderr) = warden(&dirs, &["mcp", "secret", "tok"], &format!("{SECRET}\n")).await;
    assert_eq!(code, Some(0), "{stderr}");

    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "mcp__everything__get-env", json!({}))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let args = ["--remote", &target, "--transport", &transport, "show the environment"];
    let mut warden = Warden::spawn(with_keychain(command(&dirs, &exec_args(&server, &args))));
    warden
        .answer_until_turn_ends(|confirm| Some(json!({"confirmId": confirm["confirmId"], "approved": true})))
        .await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    let result = &find(&lines, "chat:tool-result")[0]["payload"];
    assert_eq!(result["status"], "success", "{result}");
    let shown = result["result"].to_string();
    // The server ran there, as the remote user, with the secret kept here.
    assert!(shown.contains(SECRET), "the secret reached the server: {shown}");
    let environment: Value = serde_json::from_str(
        result["result"].as_str().or_else(|| result["result"][0]["text"].as_str()).unwrap_or("{}"),
    )
    .unwrap_or_default();
    assert_eq!(environment["TOKEN"], SECRET, "{shown}");
    assert_eq!(environment["USER"].as_str().or(environment["LOGNAME"].as_str()), Some(USER), "{shown}");

    // Once the session is over, no process there holds it in its environment or command line.
    let uid = user.uid;
    for (pid, cmdline, environ) in processes_of(uid) {
        for bytes in [&cmdline, &environ] {
            assert!(
                !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
                "process {pid} holds the secret: {}",
                String::from_utf8_lossy(&cmdline)
            );
        }
    }
}

/// The open request of a session of `project` whose settings hold `servers`, sent `secrets`.
fn open_with(project: &RemoteProject, servers: Value, secrets: &[(&str, &str)]) -> Value {
    let mut open = open_request(project, "http://127.0.0.1:9");
    open.settings.mcp_servers = serde_json::from_value(servers).unwrap();
    open.keys[0].value = "sk-ant-remote-mcp-test-1".to_owned();
    open.mcp_secrets = secrets
        .iter()
        .map(|(name, value)| warden_protocol::RemoteMcpSecret {
            name: (*name).to_owned(),
            value: (*value).to_owned(),
        })
        .collect();
    open.session.save = false;
    json!({"method": "open", "params": open})
}

#[tokio::test]
async fn settings_mcp_servers_of_a_remote_session_are_those_running_there() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let bin = server_bin("mcp-server-everything");
    let servers = json!({
        "everything": {"command": bin, "args": ["stdio"], "env": {"TOKEN": "keychain:tok"}},
        "locked": {"command": bin, "args": ["stdio"], "env": {"TOKEN": "keychain:not-sent"}},
        "off": {"command": bin, "args": ["stdio"], "disabled": true},
    });
    let mut link = RawLink::start(&run.runuser(user, 5)).await;
    assert_eq!(link.hello(env!("CARGO_PKG_VERSION")).await["type"], "welcome");

    // No session on the link yet: nothing to ask.
    let early = link.request(json!({"method": "mcp_status", "params": {"project": project.path}})).await;
    assert_eq!(early["error"]["usage"], true, "{early}");

    let opened = link.request(open_with(&project, servers, &[("tok", SECRET)])).await;
    assert_eq!(opened["ok"]["kind"], "opened", "{opened}");
    let status = link.request(json!({"method": "mcp_status", "params": {"project": project.path}})).await;
    let listed = status["ok"]["value"].as_array().unwrap_or_else(|| panic!("{status}"));
    let by_name =
        |name: &str| listed.iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("{status}"));
    // Started there, in the session's engine, with the secret it was sent.
    assert_eq!(by_name("everything")["state"], "connected", "{status}");
    let tools = by_name("everything")["tools"].to_string();
    assert!(tools.contains("get-env"), "{tools}");
    // The secret the link did not carry is missing there, in words.
    assert_eq!(by_name("locked")["state"], "failed", "{status}");
    assert!(by_name("locked")["error"].as_str().is_some_and(|e| e.contains("not-sent")), "{status}");
    assert_eq!(by_name("off")["state"], "disabled", "{status}");
    // One of its resources, read there (the composer's "Attach a resource").
    let offered = by_name("everything")["resources"][0].as_str().unwrap_or_else(|| panic!("{status}"));
    let uri = offered.rsplit_once('<').map(|(_, u)| u.trim_end_matches('>')).unwrap_or(offered).to_owned();
    let read = json!({"method": "mcp_read_resource", "params": {"server": "everything", "uri": uri}});
    let resource = link.request(read).await;
    assert_eq!(resource["ok"]["kind"], "resource", "{resource}");
    assert_eq!(resource["ok"]["value"]["uri"], uri, "{resource}");
    assert!(!resource["ok"]["value"]["text"].as_str().unwrap_or("").is_empty(), "{resource}");
    let unknown = json!({"method": "mcp_read_resource", "params": {"server": "nope", "uri": uri}});
    assert_eq!(link.request(unknown).await["error"]["usage"], true);
    // Started as the remote user.
    let servers_there = processes_of(user.uid)
        .into_iter()
        .filter(|(_, cmdline, _)| String::from_utf8_lossy(cmdline).contains("mcp-server-everything"))
        .count();
    assert!(servers_there >= 1, "no server process of the remote user");

    assert_eq!(link.request(json!({"method": "end"})).await["ok"]["kind"], "done");
    assert_eq!(link.finish().await, Some(0));
}

#[tokio::test]
#[ignore = "needs the Secret Service: scripts/test.sh runs it under dbus-run-session"]
async fn an_http_servers_sign_in_here_is_used_there_keychain() {
    let user = remote_user();
    let project = RemoteProject::new(user, &[]);
    let run = RunDir::new(user);
    let transport = run.runuser(user, 5);
    let target = project.target("build-box");
    let dirs = Dirs::new();
    let oauth = warden_testkit::mcp::OAuthServer::start();
    let (code, stderr) = warden(&dirs, &["mcp", "add", "secure", "--url", &oauth.url()], "").await;
    assert_eq!(code, Some(0), "{stderr}");
    // Signed in here, in the browser (a stand-in that follows the pages): the tokens are kept in
    // this machine's keychain.
    let browser = warden_testkit::mcp::following_browser(dirs.path("").as_path());
    let mut login = with_keychain(command(&dirs, &["mcp", "login", "secure"]));
    login.env(warden_core::mcp::OPENER_ENV, &browser);
    let out = login.output().await.unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let server = TestServer::start(vec![
        answer(&[tool("toolu_1", "mcp__secure__greet", json!({"name": "Warden"}))]),
        answer(&[text("Done.")]),
    ])
    .await;
    let args = ["--remote", &target, "--transport", &transport, "greet me"];
    let mut warden = Warden::spawn(with_keychain(command(&dirs, &exec_args(&server, &args))));
    warden
        .answer_until_turn_ends(|confirm| Some(json!({"confirmId": confirm["confirmId"], "approved": true})))
        .await;
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "stderr: {stderr}");
    // The server there was reached with the sign-in made here.
    let result = &find(&lines, "chat:tool-result")[0]["payload"];
    assert_eq!(result["status"], "success", "{result}");
    assert!(result["result"].to_string().contains("Warden"), "{result}");
}
