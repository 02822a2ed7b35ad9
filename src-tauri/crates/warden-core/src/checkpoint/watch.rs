//! Knowing what changed since the last snapshot without looking at every file: an inotify watch
//! on every folder the snapshot walked, added through the folder's own handle (so the folder
//! watched is the one that was read, whatever its path names by then). Events are read when a checkpoint is taken — the kernel
//! queues them before the write that caused them returns, so everything a finished tool call did
//! is already there. Whatever the watcher cannot vouch for (a folder created, moved or removed, an
//! ignore file changed, the queue overflowing, a watch refused) means a full rescan.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// What changed since the last drain.
#[derive(Debug)]
pub(super) enum Dirty {
    Nothing,
    /// Files (relative to the project root) that may have changed.
    Paths(BTreeSet<PathBuf>),
    /// The watcher cannot say: scan everything.
    Unknown,
}

#[cfg(target_os = "linux")]
pub(super) use linux::Watcher;

#[cfg(not(target_os = "linux"))]
pub(super) use other::Watcher;

fn is_ignore_file(name: &std::ffi::OsStr) -> bool {
    name == ".gitignore" || name == ".ignore"
}

#[cfg(target_os = "linux")]
mod linux {
    use nix::errno::Errno;
    use nix::sys::inotify::{AddWatchFlags, InitFlags, Inotify, WatchDescriptor};

    use super::*;

    pub(in crate::checkpoint) struct Watcher {
        inotify: Inotify,
        dirs: HashMap<WatchDescriptor, PathBuf>,
        /// A watch could not be added: nothing this watcher says can be trusted.
        broken: bool,
    }

    impl Watcher {
        pub fn new() -> Option<Self> {
            let inotify = Inotify::init(InitFlags::IN_NONBLOCK | InitFlags::IN_CLOEXEC).ok()?;
            Some(Self { inotify, dirs: HashMap::new(), broken: false })
        }

        /// Watch one folder (relative to the root), open as `dir`.
        pub fn watch(&mut self, relative: &Path, dir: &cap_std::fs::Dir) {
            if self.broken {
                return;
            }
            let mask = AddWatchFlags::IN_MODIFY
                | AddWatchFlags::IN_ATTRIB
                | AddWatchFlags::IN_CLOSE_WRITE
                | AddWatchFlags::IN_CREATE
                | AddWatchFlags::IN_DELETE
                | AddWatchFlags::IN_MOVED_FROM
                | AddWatchFlags::IN_MOVED_TO
                | AddWatchFlags::IN_DELETE_SELF
                | AddWatchFlags::IN_MOVE_SELF
                | AddWatchFlags::IN_ONLYDIR;
            // The handle's own entry in /proc: the kernel follows it to the folder itself.
            let handle = format!("/proc/self/fd/{}", std::os::fd::AsRawFd::as_raw_fd(dir));
            match self.inotify.add_watch(handle.as_str(), mask) {
                Ok(wd) => {
                    self.dirs.insert(wd, relative.to_path_buf());
                }
                Err(error) => {
                    tracing::debug!(%error, dir = %relative.display(), "checkpoint watcher gave up: full scans");
                    self.broken = true;
                }
            }
        }

        /// Every event queued so far, as what may have changed.
        pub fn drain(&mut self) -> Dirty {
            let mut paths = BTreeSet::new();
            let mut unknown = self.broken;
            loop {
                let events = match self.inotify.read_events() {
                    Ok(events) if !events.is_empty() => events,
                    Ok(_) | Err(Errno::EAGAIN) => break,
                    Err(_) => {
                        unknown = true;
                        break;
                    }
                };
                for event in events {
                    let mask = event.mask;
                    if mask.contains(AddWatchFlags::IN_Q_OVERFLOW) {
                        unknown = true;
                        continue;
                    }
                    if mask.contains(AddWatchFlags::IN_IGNORED) {
                        self.dirs.remove(&event.wd);
                        continue;
                    }
                    if mask.intersects(AddWatchFlags::IN_DELETE_SELF | AddWatchFlags::IN_MOVE_SELF) {
                        unknown = true;
                        continue;
                    }
                    let (Some(dir), Some(name)) = (self.dirs.get(&event.wd), event.name) else { continue };
                    if mask.contains(AddWatchFlags::IN_ISDIR) {
                        let structural = AddWatchFlags::IN_CREATE
                            | AddWatchFlags::IN_DELETE
                            | AddWatchFlags::IN_MOVED_FROM
                            | AddWatchFlags::IN_MOVED_TO;
                        unknown |= mask.intersects(structural);
                        continue;
                    }
                    if is_ignore_file(&name) {
                        unknown = true;
                    }
                    paths.insert(dir.join(name));
                }
            }
            if unknown {
                self.broken = true;
                Dirty::Unknown
            } else if paths.is_empty() {
                Dirty::Nothing
            } else {
                Dirty::Paths(paths)
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod other {
    use super::*;

    /// No watcher here yet: every checkpoint scans.
    pub(in crate::checkpoint) struct Watcher;

    impl Watcher {
        pub fn new() -> Option<Self> {
            None
        }

        pub fn watch(&mut self, _relative: &Path, _dir: &cap_std::fs::Dir) {}

        pub fn drain(&mut self) -> Dirty {
            let _ = (is_ignore_file, HashMap::<(), ()>::new());
            Dirty::Unknown
        }
    }
}
