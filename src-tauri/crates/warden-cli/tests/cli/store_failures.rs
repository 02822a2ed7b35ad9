//! When the conversation store fails, `warden exec` says so instead of losing the conversation:
//! a saved conversation that cannot be read whole is not continued (and `warden sessions show`
//! shows what can be read), and a message that cannot be saved is reported, not only logged.

use std::path::PathBuf;

use rusqlite::{params, Connection};
use warden_core::config::WardenHome;
use warden_testkit::scripted::{anthropic, text};
use warden_testkit::server::{Reply, Split, TestServer};

use super::process::{command, exec_args, find, Dirs, Warden};

fn answer(said: &'static str) -> Reply {
    Reply::sse(anthropic(&[text(said)], 10), Split::Random(5))
}

fn db(dirs: &Dirs) -> PathBuf {
    WardenHome::at(dirs.home.path()).store_path()
}

/// The conversation's rows, by position, as the file holds them.
fn bodies(dirs: &Dirs, id: &str) -> Vec<String> {
    let conn = Connection::open(db(dirs)).unwrap();
    let mut statement = conn
        .prepare(
            "SELECT m.body FROM messages m JOIN conversations c ON c.num = m.conversation \
             WHERE c.id = ?1 ORDER BY m.seq",
        )
        .unwrap();
    statement.query_map([id], |row| row.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
}

/// Runs `warden exec --json` to its end: exit code, the events, stderr.
async fn exec(dirs: &Dirs, server: &TestServer, extra: &[&str]) -> (i32, Vec<serde_json::Value>, String) {
    Warden::spawn(command(dirs, &exec_args(server, extra))).finish().await
}

#[tokio::test]
async fn resume_refuses_a_conversation_it_cannot_read_whole_and_leaves_it_as_it_was() {
    let server = TestServer::start(vec![answer("First answer."), answer("Second answer.")]).await;
    let dirs = Dirs::new();
    let (code, lines, stderr) = exec(&dirs, &server, &["first question"]).await;
    assert_eq!(code, 0, "{stderr}");
    let id = lines[0]["payload"]["conversationId"].as_str().unwrap().to_owned();
    // The answer's row is damaged: its end is missing.
    Connection::open(db(&dirs))
        .unwrap()
        .execute(
            "UPDATE messages SET body = ?2 WHERE seq = 1 AND conversation = \
             (SELECT num FROM conversations WHERE id = ?1)",
            params![id, r#"{"role":"assistant","content":[{"type":"text","text":"First ans"#],
        )
        .unwrap();
    let before = bodies(&dirs, &id);

    let (code, _, stderr) = exec(&dirs, &server, &["--resume", &id, "second question"]).await;

    assert_eq!(bodies(&dirs, &id), before, "every row is as it was, and nothing was added");
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(
        stderr.contains(&id) && stderr.contains("message 2"),
        "names the conversation and the row: {stderr}"
    );
    assert!(stderr.contains("warden sessions show"), "says how to see what can be read: {stderr}");
    assert_eq!(server.requests().len(), 1, "the model was not asked again");

    // What can be read is shown, and the row that cannot is marked.
    let out = command(&dirs, &["sessions", "show", &id]).output().await.unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(shown.contains("you: first question"), "{shown}");
    assert!(shown.contains("message 2 could not be read"), "{shown}");
}

/// `warden exec` whose files may not grow past `limit` bytes (as on a full disk): the store's
/// shared-memory file (32 KiB) fits, a message's pages in the write-ahead log do not.
#[allow(unsafe_code)]
fn with_file_limit(mut cmd: tokio::process::Command, limit: u64) -> tokio::process::Command {
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            // A write past the limit then fails with EFBIG instead of killing the process.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let rlimit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &rlimit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

#[tokio::test]
async fn a_message_that_cannot_be_saved_is_reported_as_an_event_and_on_stderr() {
    let server = TestServer::start(vec![answer("One."), answer("Two."), answer("Three.")]).await;
    let dirs = Dirs::new();
    // The store exists (and opens) before the disk fills.
    let (code, _, stderr) = exec(&dirs, &server, &["first"]).await;
    assert_eq!(code, 0, "{stderr}");

    let warden = Warden::spawn(with_file_limit(command(&dirs, &exec_args(&server, &["second"])), 32 * 1024));
    let (code, lines, stderr) = warden.finish().await;
    assert_eq!(code, 0, "the answer still comes: {stderr}");
    let saving = find(&lines, "chat:saving");
    assert_eq!(saving.len(), 1, "said once: {lines:#?}");
    let payload = &saving[0]["payload"];
    assert_eq!(payload["saved"], false);
    let reason = payload["reason"].as_str().unwrap_or_default();
    assert!(reason.contains("disk"), "says why: {reason}");
    assert!(!stderr.contains("saved; continue it with"), "does not claim it was saved: {stderr}");

    // Without --json: a line on stderr.
    let mut args =
        vec!["exec", "--provider", "anthropic", "--model", "claude-test", "--base-url", &server.url];
    args.push("third");
    let out = with_file_limit(command(&dirs, &args), 32 * 1024).output().await.unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("is not being saved") && stderr.contains("disk"), "{stderr}");
}
