//! Writes are atomic: a failure while writing, or a kill at any moment, leaves each file with its
//! old content or its new one — never empty, never partial — and keeps its mode. `apply_patch`
//! stages every file before it renames any, so a failure on the n-th file changes none.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;

use super::common::*;

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

#[cfg(unix)]
#[tokio::test]
async fn writes_keep_the_files_mode() {
    use std::os::unix::fs::PermissionsExt;
    let env = TestEnv::new();
    let script = env.write("run.sh", "#!/bin/sh\necho one\n");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o750)).expect("chmod");
    assert_ok(&env.call("file_write", json!({ "path": "run.sh", "content": "#!/bin/sh\necho two\n" })).await);
    assert_eq!(mode(&script), 0o750);
    assert_ok(
        &env.call("file_edit", json!({ "path": "run.sh", "old_text": "two", "new_text": "three" })).await,
    );
    assert_eq!(mode(&script), 0o750);
    let patch = "--- a/run.sh\n+++ b/run.sh\n@@ -1,2 +1,2 @@\n #!/bin/sh\n-echo three\n+echo four\n";
    assert_ok(&env.call("apply_patch", json!({ "patch": patch })).await);
    assert_eq!(mode(&script), 0o750);
    assert_eq!(env.read("run.sh"), "#!/bin/sh\necho four\n");
    // Nothing left beside it.
    let names: Vec<String> = std::fs::read_dir(env.root())
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["run.sh"]);
}

/// `chattr +i` makes a directory refuse new entries even for root (who ignores permission bits).
#[cfg(target_os = "linux")]
struct Immutable(std::path::PathBuf);

#[cfg(target_os = "linux")]
impl Immutable {
    fn new(dir: &Path) -> Self {
        let status = std::process::Command::new("chattr").arg("+i").arg(dir).status().expect("run chattr");
        assert!(status.success(), "chattr +i failed: the failure cannot be injected on this file system");
        Self(dir.to_path_buf())
    }
}

#[cfg(target_os = "linux")]
impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = std::process::Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn apply_patch_changes_nothing_when_the_nth_file_cannot_be_written() {
    let files = ["a/one.txt", "b/two.txt", "c/three.txt"];
    for n in 0..files.len() {
        let env = TestEnv::new();
        for file in files {
            env.write(file, &format!("old {file}\nline two\n"));
        }
        env.write("d/gone.txt", "to delete\n");
        let mut patch = String::new();
        for file in files {
            patch.push_str(&format!(
                "--- a/{file}\n+++ b/{file}\n@@ -1,2 +1,2 @@\n-old {file}\n+new {file}\n line two\n"
            ));
        }
        patch.push_str("--- /dev/null\n+++ b/c/created.txt\n@@ -0,0 +1 @@\n+created\n");
        patch.push_str("--- a/d/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-to delete\n");
        let dir = env.path(files[n]).parent().expect("parent").to_path_buf();
        let guard = Immutable::new(&dir);
        let out = env.call("apply_patch", json!({ "patch": patch })).await;
        drop(guard);
        assert!(out.is_error, "file {n}: the patch should fail: {}", out.content);
        for file in files {
            assert_eq!(env.read(file), format!("old {file}\nline two\n"), "file {n} failed: {file} changed");
        }
        assert_eq!(env.read("d/gone.txt"), "to delete\n");
        assert!(!env.path("c/created.txt").exists(), "file {n}: a created file stayed");
        for sub in ["a", "b", "c", "d"] {
            let names: Vec<String> = std::fs::read_dir(env.path(sub))
                .expect("dir")
                .flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(".warden-"))
                .collect();
            assert!(names.is_empty(), "file {n}: temporary files left in {sub}: {names:?}");
        }
    }
}

const BIG: usize = 512 * 1024;

fn content(tag: u8) -> String {
    let line = format!("{}\n", (tag as char).to_string().repeat(63));
    line.repeat(BIG / 64)
}

/// The writer a kill interrupts: file_write and apply_patch in a loop, forever, on the project
/// the parent test names.
#[tokio::test]
#[ignore = "run by a_kill_at_any_moment_leaves_old_or_new_content in a child process"]
async fn child_writes_in_a_loop_until_killed() {
    let Ok(project) = std::env::var("WARDEN_TEST_KILL_PROJECT") else { return };
    let home = tempfile::TempDir::new().expect("home");
    let storage = warden_core::config::WardenHome::at(home.path()).project_dir(Path::new(&project));
    let workspace = warden_core::sandbox::Workspace::new(&project, storage, warden_core::scope::Scope::all())
        .expect("workspace");
    let registry =
        warden_core::tool::ToolRegistry::with_core_tools(warden_core::tool::ToolsConfig::default());
    let ctx = registry.context(Arc::new(workspace));
    let call = |name: &str, input: serde_json::Value| warden_protocol::ToolCall {
        id: "toolu_kill".to_owned(),
        name: name.to_owned(),
        input,
    };
    std::fs::write(Path::new(&project).join("../started"), "1").expect("marker");
    let (a, b) = (content(b'a'), content(b'b'));
    for i in 0u64.. {
        let next = if i % 2 == 0 { &b } else { &a };
        let _ = registry
            .execute(&call("file_write", json!({ "path": "written.txt", "content": next })), ctx.clone())
            .await;
        let (from, to) = if i % 2 == 0 { ("old", "new") } else { ("new", "old") };
        let patch = format!(
            "--- a/p1.txt\n+++ b/p1.txt\n@@ -1 +1 @@\n-{from}\n+{to}\n--- a/p2.txt\n+++ b/p2.txt\n@@ -1 +1 @@\n-{from}\n+{to}\n"
        );
        let _ = registry.execute(&call("apply_patch", json!({ "patch": patch })), ctx.clone()).await;
    }
}

#[cfg(unix)]
#[test]
fn a_kill_at_any_moment_leaves_old_or_new_content() {
    use rand::{Rng, SeedableRng};
    let base = tempfile::TempDir::new().expect("base");
    let project = base.path().join("project");
    std::fs::create_dir_all(&project).expect("project");
    std::fs::write(project.join("written.txt"), content(b'a')).expect("seed");
    std::fs::write(project.join("p1.txt"), "old\n").expect("seed");
    std::fs::write(project.join("p2.txt"), "old\n").expect("seed");
    let (a, b) = (content(b'a'), content(b'b'));
    let exe = std::env::current_exe().expect("test binary");
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x6b11);
    for round in 0..100 {
        let _ = std::fs::remove_file(base.path().join("started"));
        let mut child = std::process::Command::new(&exe)
            .args(["--exact", "tools::atomic_writes::child_writes_in_a_loop_until_killed", "--ignored"])
            .env("WARDEN_TEST_KILL_PROJECT", &project)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn the writer");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !base.path().join("started").exists() {
            assert!(std::time::Instant::now() < deadline, "round {round}: the writer never started");
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        std::thread::sleep(std::time::Duration::from_micros(rng.random_range(0..40_000)));
        child.kill().expect("SIGKILL");
        child.wait().expect("reap");
        let written = std::fs::read_to_string(project.join("written.txt")).expect("written.txt exists");
        assert!(
            written == a || written == b,
            "round {round}: written.txt is {} bytes of neither",
            written.len()
        );
        for p in ["p1.txt", "p2.txt"] {
            let text = std::fs::read_to_string(project.join(p)).expect("patched file exists");
            assert!(text == "old\n" || text == "new\n", "round {round}: {p} is {text:?}");
        }
    }
}
