//! A restore killed at any moment: `warden checkpoint restore` is SIGKILLed at a random point,
//! fifty times. After each kill every file the restore touches holds its bytes before or its bytes
//! in the checkpoint (or is absent where that state has none), no other file changed, the next
//! open of the store leaves no staging name in the project, and the next restore succeeds.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use super::process::{command, Dirs};

const KILLS: usize = 50;

/// Every file under `root` (relative path → bytes).
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    warden_testkit::files_under(root)
        .into_iter()
        .map(|path| {
            let relative = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).unwrap();
            (relative, bytes)
        })
        .collect()
}

fn put(root: &Path, state: &BTreeMap<String, Vec<u8>>) {
    for (path, bytes) in state {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

async fn warden(dirs: &Dirs, args: &[&str]) -> (i32, serde_json::Value, String) {
    let mut cmd = command(dirs, args);
    cmd.stdin(std::process::Stdio::null());
    let out = cmd.output().await.unwrap();
    let value = serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
    (out.status.code().unwrap_or(-1), value, String::from_utf8_lossy(&out.stderr).into_owned())
}

async fn create(dirs: &Dirs) -> String {
    let (code, out, stderr) = warden(dirs, &["checkpoint", "create", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
    out["id"].as_str().unwrap().to_owned()
}

async fn restore(dirs: &Dirs, id: &str) {
    let (code, _, stderr) = warden(dirs, &["checkpoint", "restore", id, "--force", "--json"]).await;
    assert_eq!(code, 0, "{stderr}");
}

/// A small random number generator with a fixed seed: the same kill points on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_restore_killed_at_any_point_leaves_each_file_before_or_after_and_the_next_one_succeeds() {
    let dirs = Dirs::new();
    let root = dirs.project.path();
    // State A: 300 files in 10 folders. State B: 200 of them changed, 60 gone, 80 new (some in
    // folders A does not have).
    let mut a = BTreeMap::new();
    for i in 0..300 {
        a.insert(format!("src/m{}/f{i}.txt", i % 10), format!("A {i}\n").repeat(40).into_bytes());
    }
    let mut b = a.clone();
    for i in 0..200 {
        b.insert(format!("src/m{}/f{i}.txt", i % 10), format!("B {i}\n").repeat(30).into_bytes());
    }
    for i in 200..260 {
        b.remove(&format!("src/m{}/f{i}.txt", i % 10));
    }
    for i in 0..80 {
        b.insert(format!("new/n{}/g{i}.txt", i % 4), format!("new {i}\n").into_bytes());
    }
    put(root, &a);
    let id_a = create(&dirs).await;
    for path in a.keys().filter(|p| !b.contains_key(*p)) {
        std::fs::remove_file(root.join(path)).unwrap();
    }
    put(root, &b);
    let id_b = create(&dirs).await;
    assert_eq!(files(root), b);

    // How long one restore takes here: the kills fall within it.
    let started = Instant::now();
    restore(&dirs, &id_a).await;
    let took = started.elapsed();
    assert_eq!(files(root), a);
    restore(&dirs, &id_b).await;

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut mixed = 0;
    for kill in 0..KILLS {
        let mut child =
            command(&dirs, &["checkpoint", "restore", &id_a, "--force", "--json"]).spawn().unwrap();
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        tokio::time::sleep(Duration::from_micros(rng.below(micros))).await;
        let _ = child.start_kill();
        let _ = child.wait().await;

        let now = files(root);
        for (path, bytes) in &now {
            let staging = path.contains(".warden-restore-");
            let allowed = a.get(path) == Some(bytes) || b.get(path) == Some(bytes);
            assert!(staging || allowed, "kill {kill}: {path} holds neither its bytes before nor after");
        }
        for path in a.keys().chain(b.keys()) {
            let absent_allowed = !a.contains_key(path) || !b.contains_key(path);
            assert!(now.contains_key(path) || absent_allowed, "kill {kill}: {path} vanished");
        }
        if now != a && now != b {
            mixed += 1;
        }
        // The next open of the store removes what the killed restore staged.
        let (code, _, stderr) = warden(&dirs, &["checkpoint", "list", "--json"]).await;
        assert_eq!(code, 0, "kill {kill}: {stderr}");
        let staged: Vec<String> =
            files(root).into_keys().filter(|p| p.contains(".warden-restore-")).collect();
        assert!(staged.is_empty(), "kill {kill}: staging names left: {staged:?}");
        // And the next restore succeeds, whole.
        restore(&dirs, &id_b).await;
        assert_eq!(files(root), b, "kill {kill}: the next restore");
    }
    // The kills did land inside restores, not only before or after them.
    assert!(mixed >= 5, "only {mixed} of {KILLS} kills left the project between the two states");
}
