//! Warden's own hands against a process in the box: a racer started with `warden sandbox` (owned by
//! no session, as a background command or an MCP server outlives a turn) swaps a project folder
//! for a link to a place the box cannot see while a restore writes or a snapshot reads. Whatever
//! it does, no file outside the project changes and no byte from behind the link reaches the
//! store. Every round uses a fresh project; the racer is armed on inotify, so it strikes at the
//! restore's first write into the folder, or swaps without pause while snapshots are taken.
#![cfg(target_os = "linux")]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use std::sync::Arc;

use serde_json::Value;
use tempfile::TempDir;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use warden_core::checkpoint::{CheckpointStore, Origin};
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;

const ROUNDS: usize = 3;
const USER_KEY: &str = "ssh-ed25519 AAAA the-user's-own-key\n";
const TOKEN: &str = "ghp_CANARYCANARYCANARYCANARYCANARY0123";

/// The user's home (with the secrets a box hides), Warden's home, and a project.
struct World {
    home: TempDir,
    warden: TempDir,
    project: TempDir,
}

impl World {
    fn new() -> Self {
        let world = Self {
            home: tempfile::tempdir().unwrap(),
            warden: tempfile::tempdir().unwrap(),
            project: tempfile::tempdir().unwrap(),
        };
        let ssh = world.home.path().join(".ssh");
        std::fs::create_dir_all(&ssh).unwrap();
        std::fs::write(ssh.join("authorized_keys"), USER_KEY).unwrap();
        let gh = world.home.path().join(".config/gh");
        std::fs::create_dir_all(&gh).unwrap();
        std::fs::write(gh.join("hosts.yml"), format!("github.com:\n  oauth_token: {TOKEN}\n")).unwrap();
        world
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.project.path().join(relative)
    }

    fn warden(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_warden"));
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("WARDEN_HOME", self.warden.path())
            .current_dir(self.project.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        cmd
    }

    /// `warden checkpoint ARGS --json`: exit code and the JSON it printed.
    async fn checkpoint(&self, args: &[&str]) -> (i32, Value, String) {
        let mut all = vec!["checkpoint"];
        all.extend_from_slice(args);
        all.push("--json");
        let out = self.warden(&all).output().await.unwrap();
        let value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out.status.code().unwrap_or(-1), value, String::from_utf8_lossy(&out.stderr).into_owned())
    }

    async fn create(&self) -> String {
        let (code, out, stderr) = self.checkpoint(&["create"]).await;
        assert_eq!(code, 0, "{stderr}");
        out["id"].as_str().unwrap().to_owned()
    }

    /// A racer in the box, as any process of the agent's could be: `warden sandbox --project`
    /// running `python3 -c CODE`; returned once it printed `ready`.
    async fn racer(&self, code: &str) -> Child {
        let project = self.project.path().to_string_lossy().into_owned();
        let mut child =
            self.warden(&["sandbox", "--project", &project, "--", "python3", "-c", code]).spawn().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let ready = tokio::time::timeout(Duration::from_secs(30), lines.next_line()).await;
        assert!(
            matches!(ready, Ok(Ok(Some(ref line))) if line == "ready"),
            "the racer did not start in the box: {ready:?}"
        );
        child
    }

    /// Every file of the user's home, with a digest of its bytes.
    fn home_files(&self) -> Vec<(PathBuf, String)> {
        warden_testkit::files_under(self.home.path())
            .into_iter()
            .map(|path| {
                let bytes = std::fs::read(&path).unwrap_or_default();
                let head = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]).into_owned();
                (path, head)
            })
            .collect()
    }

    /// Whether any object of Warden's checkpoint stores holds `needle`.
    fn store_holds(&self, needle: &[u8]) -> bool {
        let mut stack = vec![self.warden.path().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
                let path = entry.path();
                if entry.file_type().unwrap().is_dir() {
                    stack.push(path);
                    continue;
                }
                let Ok(raw) = std::fs::read(&path) else { continue };
                let mut inflated = Vec::new();
                let bytes = match flate2::read::ZlibDecoder::new(raw.as_slice()).read_to_end(&mut inflated) {
                    Ok(_) => inflated,
                    Err(_) => raw,
                };
                if bytes.windows(needle.len()).any(|w| w == needle) {
                    return true;
                }
            }
        }
        false
    }
}

/// Python for the box: renameat2's RENAME_EXCHANGE, and inotify.
const PRELUDE: &str = r#"
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
def exchange(a, b):
    if libc.renameat2(-100, a.encode(), -100, b.encode(), 2) != 0:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))
"#;

/// Arm on the first entry made in `d`, then swap `d` for the link `dlink` (made beforehand).
fn swap_on_first_write() -> String {
    format!(
        r#"{PRELUDE}
fd = libc.inotify_init1(0)
if libc.inotify_add_watch(fd, b"d", 0x100 | 0x80) < 0:
    sys.exit("inotify")
print("ready", flush=True)
os.read(fd, 4096)
exchange("d", "dlink")
"#
    )
}

/// Swap `d` and a link to `target` back and forth until killed.
fn swap_forever(target: &Path) -> String {
    format!(
        r#"{PRELUDE}
os.symlink({target:?}, "dlink")
print("ready", flush=True)
while True:
    exchange("d", "dlink")
"#,
        target = target.to_string_lossy()
    )
}

/// The folder the restore writes into, with hundreds of files before the ones that matter.
fn many_files(world: &World) {
    let d = world.path("d");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join("0000keep"), "kept\n").unwrap();
    for i in 1..=300 {
        std::fs::write(d.join(format!("{i:04}")), format!("file {i}\n")).unwrap();
    }
    std::fs::write(d.join("authorized_keys"), "ssh-ed25519 AAAA the-attacker's-key\n").unwrap();
    std::fs::write(d.join("config"), "Host *\n  ProxyCommand attacker\n").unwrap();
}

fn delete_all_but_the_first(world: &World) {
    for entry in std::fs::read_dir(world.path("d")).unwrap().filter_map(Result::ok) {
        if entry.file_name() != "0000keep" {
            std::fs::remove_file(entry.path()).unwrap();
        }
    }
}

/// The racer struck (and ended): it swapped the folder while the restore wrote into it.
async fn finish(mut racer: Child) {
    let status = tokio::time::timeout(Duration::from_secs(10), racer.wait()).await;
    let _ = racer.kill().await;
    assert!(matches!(status, Ok(Ok(s)) if s.success()), "the racer did not swap: {status:?}");
}

/// How a race round restores the folder's files.
#[derive(Debug, Clone, Copy)]
enum Restore {
    WholeProject,
    OnePath,
    Undo,
}

async fn restore_round(restore: Restore, target: &str) {
    let world = World::new();
    let home_before = world.home_files();
    let warden_settings = world.warden.path().join("settings.json");
    std::fs::write(&warden_settings, "{\"the user's\": \"settings\"}\n").unwrap();
    let settings_before = std::fs::read(&warden_settings).unwrap();
    many_files(&world);
    let target = match target {
        "ssh" => world.home.path().join(".ssh"),
        _ => world.warden.path().to_path_buf(),
    };
    // The link is part of every state the restore goes between: only the swap changes it.
    std::os::unix::fs::symlink(&target, world.path("dlink")).unwrap();
    // The checkpoint to restore, and the state the restore starts from (known to Warden, so no
    // restore is refused for changes made outside it).
    let id = match restore {
        Restore::WholeProject | Restore::OnePath => {
            let full = world.create().await;
            delete_all_but_the_first(&world);
            world.create().await;
            full
        }
        Restore::Undo => {
            delete_all_but_the_first(&world);
            let emptied = world.create().await;
            many_files(&world);
            world.create().await;
            let (code, report, stderr) = world.checkpoint(&["restore", &emptied]).await;
            assert_eq!(code, 0, "{stderr}");
            report["undoCheckpointId"].as_str().unwrap().to_owned()
        }
    };
    let racer = world.racer(&swap_on_first_write()).await;
    let args: Vec<&str> = match restore {
        Restore::OnePath => vec!["restore", &id, "--path", "d"],
        _ => vec!["restore", &id],
    };
    let (code, report, stderr) = world.checkpoint(&args).await;
    finish(racer).await;
    assert!(world.path("d").is_symlink(), "{restore:?}: the folder was not swapped");
    assert_eq!(world.home_files(), home_before, "{restore:?}: the user's home changed ({code}: {stderr})");
    assert_eq!(std::fs::read(&warden_settings).unwrap(), settings_before, "{restore:?}: Warden's settings");
    assert!(
        !target.join("config").exists() && !target.join("0300").exists(),
        "{restore:?}: written behind the link"
    );
    // What could not be put back is said, file by file.
    if code != 0 {
        assert!(stderr.contains("not a folder") || stderr.contains("moved or swapped"), "{stderr}");
    } else {
        assert!(report["files"].is_array(), "{report}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_folder_swapped_for_a_link_during_a_restore_writes_nothing_outside() {
    for round in 0..ROUNDS {
        for restore in [Restore::WholeProject, Restore::OnePath, Restore::Undo] {
            let target = if round % 2 == 0 { "ssh" } else { "warden" };
            restore_round(restore, target).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_folder_swapped_for_a_link_during_snapshots_puts_no_hidden_byte_in_the_store() {
    let world = World::new();
    // Over a thousand new files: the first snapshot of a real project.
    for i in 0..1200 {
        let dir = world.path(&format!("src/m{}", i % 40));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("f{i}.rs")), format!("// {i}\n")).unwrap();
    }
    std::fs::create_dir_all(world.path("d")).unwrap();
    std::fs::write(world.path("d/hosts.yml"), "the project's own hosts.yml\n").unwrap();
    let gh = world.home.path().join(".config/gh");
    let racer = world.racer(&swap_forever(&gh)).await;
    // First snapshot, then full scans from fresh processes, each while the racer swaps.
    let mut failed = Vec::new();
    for _ in 0..12 {
        let (code, _, stderr) = world.checkpoint(&["create"]).await;
        if code != 0 {
            failed.push(stderr);
        }
    }
    // A store that lives on, as a session's does: its watcher makes some snapshots incremental
    // (a file changed elsewhere), the swaps others full.
    let workspace =
        Workspace::new(world.project.path(), world.warden.path().join("storage"), Scope::read_only())
            .unwrap();
    let store = CheckpointStore::open(&world.warden.path().join("in-process"), Arc::new(workspace)).unwrap();
    for i in 0..20 {
        std::fs::write(world.path("src/m0/f0.rs"), format!("// edited {i}\n")).unwrap();
        if let Err(error) = store.checkpoint(&Origin::default()) {
            failed.push(error.to_string());
        }
    }
    finish_now(racer).await;
    assert!(!world.store_holds(TOKEN.as_bytes()), "the token behind the link reached the store");
    assert!(world.store_holds(b"the project's own hosts.yml"), "the project's file was never stored");
    assert!(failed.is_empty(), "snapshots failed: {failed:?}");
}

async fn finish_now(mut racer: Child) {
    let _ = racer.kill().await;
    let _ = racer.wait().await;
}
