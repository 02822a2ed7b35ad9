//! A stdio server runs in the project's sandbox: the secret locations are hidden from it as from
//! the agent's commands, and it writes only where they may.

use std::collections::BTreeMap;

use serde_json::json;
use warden_core::containment::{mechanism, BoxPolicy};
use warden_core::mcp::connect;
use warden_core::tool::OutputSink;
use warden_testkit::mcp::server_bin;

use super::*;

/// server-filesystem's `read_text_file` of `path`.
async fn read_file(connection: &warden_core::mcp::Connection, path: &std::path::Path) -> serde_json::Value {
    let input = json!({"path": path}).as_object().cloned().unwrap();
    connection.call("read_text_file", input, OutputSink::none()).await.unwrap()
}

#[tokio::test]
async fn a_boxed_server_cannot_read_a_secret_location() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    let dir = project();
    let home = dir.path().join("home");
    let project_dir = dir.path().join("project");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::create_dir_all(&project_dir).unwrap();
    std::fs::write(home.join(".ssh/id_ed25519"), "PRIVATE KEY").unwrap();
    let policy = BoxPolicy::with_home(&project_dir, Some(&home), &[]);
    // The server is told it may read `~/.ssh` (its argument, and the root Warden gives it, which
    // server-filesystem takes instead once it asks); the box says otherwise.
    let ssh = home.join(".ssh");
    let ssh_arg = ssh.to_string_lossy().into_owned();
    let spec =
        stdio("files", &server_bin("mcp-server-filesystem").to_string_lossy(), &[&ssh_arg], BTreeMap::new());
    let connection = connect(&spec, &ssh, Some(&policy)).await.unwrap();
    assert_eq!(connection.contained(), Some(true));
    let key = home.join(".ssh/id_ed25519");
    let read = read_file(&connection, &key).await;
    assert!(!text_of(&read).contains("PRIVATE KEY"), "the boxed server read the key: {read}");
    assert_eq!(read["isError"], true);
    assert!(!text_of(&read).contains("outside allowed"), "the server refused, not the box: {read}");
    connection.close().await;

    // The same server outside the box reads it: the box is what stops it.
    let open = connect(&spec, &ssh, None).await.unwrap();
    let read = read_file(&open, &key).await;
    assert_eq!(text_of(&read), "PRIVATE KEY");
    open.close().await;
}

#[tokio::test]
async fn a_server_whose_program_lives_under_tmp_starts_in_the_box() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    // The box has a private /tmp; a server installed there (a repository cloned under /tmp) must
    // still start, and the rest of /tmp stays out of sight.
    let installed = tempfile::Builder::new().prefix("warden-mcp-prog").tempdir_in("/tmp").unwrap();
    let other = tempfile::Builder::new().prefix("warden-mcp-other").tempdir_in("/tmp").unwrap();
    std::fs::write(other.path().join("note"), "private").unwrap();
    // The program as npm installs it: a link to the package's script (which, in a repository
    // cloned under /tmp, lies under /tmp too).
    let program = installed.path().join("mcp-server-everything");
    std::os::unix::fs::symlink(std::fs::canonicalize(server_bin("mcp-server-everything")).unwrap(), &program)
        .unwrap();

    let dir = project();
    let project_dir = std::fs::canonicalize(dir.path()).unwrap();
    let policy = BoxPolicy::for_project(&project_dir, &[]);
    let spec = stdio("tmp", &program.to_string_lossy(), &["stdio"], BTreeMap::new());
    let connection = connect(&spec, &project_dir, Some(&policy)).await.unwrap();
    assert_eq!(connection.contained(), Some(true));
    let echo = connection
        .call("echo", json!({"message": "from /tmp"}).as_object().cloned().unwrap(), OutputSink::none())
        .await
        .unwrap();
    assert_eq!(text_of(&echo), "Echo: from /tmp");
    connection.close().await;
    assert!(other.path().join("note").exists());
}

#[tokio::test]
async fn a_users_server_kept_in_a_folder_of_the_home_starts_there_in_the_box() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    // The box's home shows only toolchains; a server the user keeps in a folder of the home, named
    // as its `cwd`, is shown read-only, with the secrets in it still hidden.
    let dir = project();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let (home, project_dir) = (base.join("home"), base.join("project"));
    let folder = home.join("mcp/everything");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::create_dir_all(&project_dir).unwrap();
    let real = std::fs::canonicalize(server_bin("mcp-server-everything")).unwrap();
    let launcher = folder.join("run.sh");
    std::fs::write(&launcher, format!("#!/bin/sh\nexec {} \"$@\"\n", real.display())).unwrap();
    std::fs::set_permissions(&launcher, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let policy = BoxPolicy::with_home(&project_dir, Some(&home), &[]);
    let mut spec = stdio("home", &launcher.to_string_lossy(), &["stdio"], BTreeMap::new());
    if let warden_core::mcp::Transport::Stdio { cwd, .. } = &mut spec.transport {
        *cwd = Some(folder.clone());
    }
    let connection = connect(&spec, &project_dir, Some(&policy)).await.unwrap();
    let echo = connection
        .call("echo", json!({"message": "from the home"}).as_object().cloned().unwrap(), OutputSink::none())
        .await
        .unwrap();
    assert_eq!(text_of(&echo), "Echo: from the home");
    connection.close().await;
}

/// The user's own entry may let its server's box read a path of the home (its configuration, a
/// socket): the server reads that and still nothing else of the home; outside the sandbox it reads
/// everything, and says it is not contained. A project's entry can say neither (`mcp::project`).
#[tokio::test]
async fn a_users_server_reads_what_its_entry_lists_and_runs_outside_only_when_told() {
    assert!(mechanism().is_contained(), "this test needs the sandbox: {}", mechanism().describe());
    let dir = project();
    let home = std::fs::canonicalize(dir.path()).unwrap().join("home");
    let project_dir = std::fs::canonicalize(dir.path()).unwrap().join("project");
    for folder in [".config/srv", "Documents", ".ssh"] {
        std::fs::create_dir_all(home.join(folder)).unwrap();
    }
    std::fs::create_dir_all(&project_dir).unwrap();
    std::fs::write(home.join(".config/srv/settings.json"), "SERVER SETTINGS").unwrap();
    std::fs::write(home.join("Documents/diary.txt"), "DIARY").unwrap();
    std::fs::write(home.join(".ssh/id_ed25519"), "PRIVATE KEY").unwrap();
    let policy = BoxPolicy::with_home(&project_dir, Some(&home), &[]);
    let home_arg = home.to_string_lossy().into_owned();
    let mut spec =
        stdio("files", &server_bin("mcp-server-filesystem").to_string_lossy(), &[&home_arg], BTreeMap::new());
    if let Transport::Stdio { readable, .. } = &mut spec.transport {
        *readable = vec![home.join(".config/srv").to_string_lossy().into_owned()];
    }
    let connection = connect(&spec, &home, Some(&policy)).await.unwrap();
    assert_eq!(connection.contained(), Some(true));
    let listed = read_file(&connection, &home.join(".config/srv/settings.json")).await;
    assert_eq!(text_of(&listed), "SERVER SETTINGS", "the listed path is not readable: {listed}");
    let other = read_file(&connection, &home.join("Documents/diary.txt")).await;
    assert!(!text_of(&other).contains("DIARY"), "the box showed the rest of the home: {other}");
    connection.close().await;

    if let Transport::Stdio { outside_sandbox, .. } = &mut spec.transport {
        *outside_sandbox = true;
    }
    let open = connect(&spec, &home, Some(&policy)).await.unwrap();
    assert_eq!(open.contained(), Some(false), "outside the sandbox, said so");
    assert_eq!(text_of(&read_file(&open, &home.join(".ssh/id_ed25519")).await), "PRIVATE KEY");
    open.close().await;
}
