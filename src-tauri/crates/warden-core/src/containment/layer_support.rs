//! Whether bubblewrap's box can give the package caches their layer on this machine
//! ([`super::cache_layer`]). `warden-box` mounts the overlays as the root of the box's user
//! namespace, with capabilities bubblewrap hands it; that needs overlayfs to be mountable in a user
//! namespace (Linux 5.11 and later) and a bubblewrap that is not setuid root (a setuid one hands no
//! capability to a user's box). Where either is missing, a layered box would not start at all
//! (`warden-box` exits 125), so the caches are only read-only instead: nothing a box writes reaches
//! them either way, and a command that must download into one fails and says why.
//!
//! The checks by name are free and made for every box. A Warden that lives on (the window,
//! `warden exec`) also starts one layered box in the background, once ([`prove`]), and keeps what
//! it showed; a one-shot `warden sandbox` does not pay a second box start for it.

use std::io::Read;
use std::path::Path;
use std::process::Stdio;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::{bwrap, BoxPolicy};

/// What the one layered box of [`prove`] showed.
static PROVEN: OnceLock<Result<(), String>> = OnceLock::new();

/// Whether a box of `program` (bubblewrap) can mount the caches' layers, and why not.
pub(super) fn available(program: &Path) -> Result<(), String> {
    by_name(program)?;
    PROVEN.get().cloned().unwrap_or(Ok(()))
}

/// Start one layered box and keep whether it worked: the caches of every later box go without a
/// layer if it did not. Once per process; later calls return at once.
pub(super) fn prove(program: &Path) {
    let proven = PROVEN.get_or_init(|| try_now(program));
    if let Err(why) = proven {
        tracing::warn!(why, "the package caches are read-only in the box, without the project's layer");
    }
}

/// Its checks by name, then one layered box started now.
pub(super) fn try_now(program: &Path) -> Result<(), String> {
    by_name(program).and_then(|()| try_layered_box(program))
}

/// What can be told without starting a box: the kernel's version and bubblewrap's setuid bit.
fn by_name(program: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(program).map(|meta| meta.permissions().mode()).unwrap_or(0);
    if mode & 0o4000 != 0 {
        return Err(format!(
            "{} is setuid root, and a setuid bubblewrap hands the box no capability to mount the layer",
            program.display()
        ));
    }
    let release = nix::sys::utsname::uname().map(|name| name.release().to_string_lossy().into_owned());
    kernel_allows_layers(&release.unwrap_or_default())
}

/// Whether a kernel of `release` (`uname -r`) mounts overlayfs in a user namespace: 5.11 and
/// later. A release that does not read as a version is left to the box itself.
fn kernel_allows_layers(release: &str) -> Result<(), String> {
    let mut numbers = release.split(|c: char| !c.is_ascii_digit()).map(str::parse::<u32>);
    match (numbers.next(), numbers.next()) {
        (Some(Ok(major)), Some(Ok(minor))) if (major, minor) < (5, 11) => {
            Err(format!("Linux {release} cannot mount overlayfs in a user namespace (5.11 and later can)"))
        }
        _ => Ok(()),
    }
}

/// A box whose one cache gets its layer, writing a file there: it must start, and the file must
/// land in the layer, not in the cache.
fn try_layered_box(program: &Path) -> Result<(), String> {
    const WITHIN: Duration = Duration::from_secs(10);
    let dir = ProbeDir::make(&std::env::temp_dir())?;
    let (project, cache, layer) = (dir.0.join("project"), dir.0.join("cache"), dir.0.join("layer"));
    for folder in [&project, &cache] {
        std::fs::create_dir_all(folder).map_err(|e| format!("no folder to try a layered box in: {e}"))?;
    }
    let mut policy = BoxPolicy::with_home(&project, None, &[]).with_cache_layer(layer.clone());
    policy.caches = vec![cache.clone()];
    let argv = ["/bin/sh", "-c", "echo layered > \"$1/written\"", "sh"].map(std::ffi::OsString::from);
    let argv = [&argv[..], &[cache.clone().into_os_string()]].concat();
    let launch = bwrap::launch(program, &policy, &argv, &project).map_err(|e| e.to_string())?;
    let mut child = launch
        .command()
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("bubblewrap does not start: {e}"))?;
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < WITHIN => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("a box with the cache layer did not end within {} s", WITHIN.as_secs()));
            }
        }
    };
    let mut said = String::new();
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut said);
    }
    if !status.success() {
        return Err(format!("a box with the cache layer does not start here ({status}): {}", said.trim()));
    }
    let in_layer = std::fs::read_dir(&layer)
        .map(|entries| entries.flatten().any(|entry| entry.path().join("upper/written").is_file()))
        .unwrap_or(false);
    if cache.join("written").exists() || !in_layer {
        return Err("a box's write to a cache did not land in the layer".to_owned());
    }
    Ok(())
}

/// The folders a probe is made in: `warden-layer-probe.<pid>.<random>` in the temporary folder.
const PROBE_PREFIX: &str = "warden-layer-probe.";

/// The folder one process tries its layered box in, removed when dropped. A process that ends
/// while its box runs (a `warden tool` call is often shorter than the probe) leaves it behind:
/// the next probe removes every such folder whose process is gone ([`sweep_left_behind`]).
struct ProbeDir(std::path::PathBuf);

impl ProbeDir {
    fn make(tmp: &Path) -> Result<Self, String> {
        sweep_left_behind(tmp);
        tempfile::Builder::new()
            .prefix(&format!("{PROBE_PREFIX}{}.", std::process::id()))
            .tempdir_in(tmp)
            .map(|dir| Self(dir.keep()))
            .map_err(|e| format!("no folder to try a layered box in: {e}"))
    }
}

impl Drop for ProbeDir {
    fn drop(&mut self) {
        // Through the layer's own clearing: overlayfs leaves its work folder with mode 0.
        let _ = super::cache_layer::clear(&self.0);
    }
}

/// Remove the probe folders in `tmp` whose process has ended (this user's: another user's cannot
/// be removed from a sticky temporary folder, and is left).
fn sweep_left_behind(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid =
            name.to_str().and_then(|n| n.strip_prefix(PROBE_PREFIX)).and_then(|rest| rest.split('.').next());
        let Some(pid) = pid.and_then(|pid| pid.parse::<u32>().ok()) else { continue };
        if !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = super::cache_layer::clear(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A probe folder left by a process that ended (its box outlived it) goes with the next probe;
    /// a running process's stays, and so does what is not a probe's.
    #[test]
    fn a_probe_left_behind_by_an_ended_process_is_removed_by_the_next() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut child = std::process::Command::new("true").spawn().unwrap_or_else(|e| panic!("{e}"));
        let ended = child.id();
        child.wait().unwrap_or_else(|e| panic!("{e}"));
        let left = tmp.path().join(format!("{PROBE_PREFIX}{ended}.abc123"));
        let work = left.join("layer/cache/work/work");
        std::fs::create_dir_all(&work).unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o000))
            .unwrap_or_else(|e| panic!("{e}"));
        let running = tmp.path().join(format!("{PROBE_PREFIX}{}.def456", std::process::id()));
        let other = tmp.path().join("warden-layer-probe-notes");
        for dir in [&running, &other] {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{e}"));
        }
        let made = ProbeDir::make(tmp.path()).unwrap_or_else(|e| panic!("{e}"));
        assert!(!left.exists(), "the ended process's probe is still there");
        assert!(running.is_dir() && other.is_dir());
        assert!(made
            .0
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with(&format!("{PROBE_PREFIX}{}.", std::process::id()))));
        let path = made.0.clone();
        drop(made);
        assert!(!path.exists(), "the probe's own folder stays after it");
    }

    #[test]
    fn overlayfs_in_a_user_namespace_needs_linux_5_11() {
        assert!(kernel_allows_layers("6.1.0-27-amd64").is_ok());
        assert!(kernel_allows_layers("5.11.0").is_ok());
        assert!(kernel_allows_layers("5.15.0-91-generic").is_ok());
        let old = kernel_allows_layers("5.10.0-28-amd64").err().unwrap_or_default();
        assert!(old.contains("5.10.0-28-amd64") && old.contains("5.11"), "{old}");
        assert!(kernel_allows_layers("4.19.0").is_err());
        assert!(kernel_allows_layers("").is_ok(), "what does not read as a version is left to the box");
    }

    #[test]
    fn a_setuid_bubblewrap_gives_no_layer() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let program = dir.path().join("bwrap");
        std::fs::write(&program, "").unwrap_or_else(|e| panic!("{e}"));
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o4755))
            .unwrap_or_else(|e| panic!("{e}"));
        let why = by_name(&program).err().unwrap_or_default();
        assert!(why.contains("setuid"), "{why}");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(by_name(&program).err().filter(|why| why.contains("setuid")), None);
    }
}
