//! The passthrough mounted on a mountpoint, its requests served by a background session; unmounted
//! when [`Mounted::unmount`] is called or the guard is dropped (an error, a panic), never left
//! behind: a mount still busy after a few tries is detached lazily (`MNT_DETACH`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use fuser::{BackgroundSession, Config, MountOption, SessionACL};
use nix::errno::Errno;
use nix::mount::{umount2, MntFlags};

use super::passthrough::SlowFs;
use super::Error;

pub struct Mounted {
    point: PathBuf,
    session: Option<BackgroundSession>,
}

impl Mounted {
    /// Mount `fs` on `point` (an empty folder), served by `threads` threads.
    pub fn start(fs: SlowFs, point: &Path, threads: usize) -> Result<Self, Error> {
        let point = point.canonicalize().map_err(|e| format!("the mountpoint {}: {e}", point.display()))?;
        if is_mounted(&point) {
            return Err(format!("{} is a mountpoint already", point.display()).into());
        }
        let mut config = Config::default();
        config.mount_options = vec![
            MountOption::RO,
            MountOption::FSName("warden-slowfs".into()),
            MountOption::DefaultPermissions,
        ];
        config.acl = SessionACL::Owner;
        config.n_threads = Some(threads.max(1));
        config.clone_fd = true;
        // As root, fuser mounts with mount(2) itself; otherwise it needs the setuid `fusermount3`.
        let session = fuser::spawn_mount(fs, &point, &config).map_err(|e| {
            format!(
                "could not mount the FUSE passthrough on {}: {e} (it needs /dev/fuse and root, or \
                 fusermount3: apt-get install fuse3)",
                point.display()
            )
        })?;
        let mounted = Self { point, session: Some(session) };
        if !is_mounted(&mounted.point) {
            return Err(
                format!("{} is not in /proc/self/mountinfo after mounting", mounted.point.display()).into()
            );
        }
        Ok(mounted)
    }

    pub fn point(&self) -> &Path {
        &self.point
    }

    /// Unmount now; an error if it had to be detached lazily.
    pub fn unmount(mut self) -> Result<(), Error> {
        self.stop()
    }

    fn stop(&mut self) -> Result<(), Error> {
        let Some(session) = self.session.take() else { return Ok(()) };
        let mut last = Errno::EBUSY;
        for _ in 0..20 {
            match umount2(&self.point, MntFlags::empty()) {
                // The session's threads end when the kernel closes the connection.
                Ok(()) => {
                    return session.join().map_err(|e| format!("the FUSE session ended with: {e}").into());
                }
                Err(Errno::EBUSY) => std::thread::sleep(Duration::from_millis(100)),
                Err(errno) => {
                    last = errno;
                    break;
                }
            }
        }
        let detached = umount2(&self.point, MntFlags::MNT_DETACH).is_ok();
        // The session's threads are left to end with the last user of the detached mount.
        drop(session);
        let how = if detached { "detached it lazily" } else { "could not detach it either" };
        Err(format!("unmounting {} failed ({last}); {how}", self.point.display()).into())
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        if let Err(error) = self.stop() {
            eprintln!("slow_fs_bench: {error}");
        }
    }
}

/// Whether `point` (canonical) is a mountpoint now, by `/proc/self/mountinfo`.
fn is_mounted(point: &Path) -> bool {
    let Ok(info) = std::fs::read_to_string("/proc/self/mountinfo") else { return false };
    let wanted = escape(point);
    info.lines().any(|line| line.split(' ').nth(4) == Some(wanted.as_str()))
}

/// A path as mountinfo writes it (space, tab, newline and backslash in octal).
fn escape(path: &Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            ' ' | '\t' | '\n' | '\\' => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out
}
