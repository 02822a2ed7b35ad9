//! A project made to break checkpoints: a path longer than the system takes, folders deeper than
//! any walk goes, a FIFO swapped in while a snapshot reads. None of it switches undo off or stops
//! the store: what cannot be taken is named, everything else is checkpointed and restored.

use std::io::{Read, Write};
use std::os::fd::RawFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use nix::fcntl::{openat, renameat2, OFlag, RenameFlags};
use nix::sys::stat::{mkdirat, Mode};
use warden_core::checkpoint::Origin;

/// An open descriptor, closed when dropped.
struct Fd(RawFd);

impl Drop for Fd {
    fn drop(&mut self) {
        let _ = nix::unistd::close(self.0);
    }
}

/// The open file `fd` as a `File`, through its own entry in /proc (no path string that long).
fn file_of(fd: &Fd, write: bool) -> std::fs::File {
    std::fs::OpenOptions::new().read(!write).write(write).open(format!("/proc/self/fd/{}", fd.0)).unwrap()
}

/// Make `depth` nested folders named `name` below `root` by handle (a path string that long
/// could not be used), and a file `leaf` with `content` in the deepest; its folder's handle.
fn nest(root: &Path, name: &str, depth: usize, leaf: &str, content: &[u8]) -> Fd {
    let mut dir = Fd(nix::fcntl::open(root, OFlag::O_DIRECTORY, Mode::empty()).unwrap());
    for _ in 0..depth {
        mkdirat(Some(dir.0), name, Mode::from_bits_truncate(0o755)).unwrap();
        dir = Fd(openat(Some(dir.0), name, OFlag::O_DIRECTORY, Mode::empty()).unwrap());
    }
    let flags = OFlag::O_CREAT | OFlag::O_WRONLY;
    let file = Fd(openat(Some(dir.0), leaf, flags, Mode::from_bits_truncate(0o644)).unwrap());
    file_of(&file, true).write_all(content).unwrap();
    dir
}

fn read_at(dir: &Fd, name: &str) -> Option<Vec<u8>> {
    let file = Fd(openat(Some(dir.0), name, OFlag::O_RDONLY, Mode::empty()).ok()?);
    let mut out = Vec::new();
    file_of(&file, false).read_to_end(&mut out).ok()?;
    Some(out)
}

/// The attack: one path past PATH_MAX made git's `update-index` fail for the whole snapshot, so
/// every later call ran with "No checkpoint for this change" and every restore failed.
#[test]
fn a_path_longer_than_the_system_takes_is_checkpointed_and_restored() {
    let (project, _home, store) = super::temp_store();
    std::fs::write(project.path().join("a.txt"), "one\n").unwrap();
    let name = "n".repeat(200);
    let deep = nest(project.path(), &name, 25, "deep.txt", b"deep\n");
    let first = store.checkpoint(&Origin::default()).expect("the snapshot fails for no path");
    std::fs::write(project.path().join("a.txt"), "two\n").unwrap();
    nix::unistd::unlinkat(Some(deep.0), "deep.txt", nix::unistd::UnlinkatFlags::NoRemoveDir).unwrap();
    let second = store.checkpoint(&Origin::default()).unwrap();
    assert_eq!(second.changed, 2, "both changes seen");
    store.restore(&first.id, &[], false).expect("the restore fails for no path");
    assert_eq!(std::fs::read_to_string(project.path().join("a.txt")).unwrap(), "one\n");
    assert_eq!(read_at(&deep, "deep.txt").as_deref(), Some(&b"deep\n"[..]));
}

/// Folders deeper than a walk goes are not in a snapshot: the checkpoint names them, and the
/// rest of the project is checkpointed as ever.
#[test]
fn folders_too_deep_to_walk_are_named_in_the_checkpoint() {
    let (project, _home, store) = super::temp_store();
    std::fs::write(project.path().join("a.txt"), "one\n").unwrap();
    let _deep = nest(project.path(), "d", 300, "deep.txt", b"deep\n");
    store.checkpoint(&Origin::default()).unwrap();
    let listed = store.list(None).unwrap();
    let left_out = &listed.last().unwrap().left_out;
    assert_eq!(left_out.len(), 1, "{left_out:?}");
    assert!(left_out[0].path.starts_with("d/d/d/") && left_out[0].path.ends_with('/'), "{left_out:?}");
    assert!(left_out[0].reason.contains("folders deep"), "{left_out:?}");
    assert_eq!(store.changes(&listed[0].id, None).unwrap(), vec![], "the rest is there");
}

/// A file that turns into a FIFO while snapshots read it (git blocked in `open` on one, holding
/// the store's locks for good): every snapshot ends, the FIFO is never in one.
#[test]
fn a_fifo_swapped_in_while_snapshots_are_taken_stops_nothing() {
    let (project, home, _store) = super::temp_store();
    // Every snapshot looks at every file.
    let store = Arc::new(super::open_store(project.path(), home.path(), "scan").without_watcher());
    for i in 0..50 {
        std::fs::write(project.path().join(format!("f{i}")), "x\n").unwrap();
    }
    std::fs::write(project.path().join("p"), "a file now\n").unwrap();
    nix::unistd::mkfifo(&project.path().join("fifo"), Mode::from_bits_truncate(0o600)).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, root) = (stop.clone(), project.path().to_path_buf());
        std::thread::spawn(move || {
            let dir = Fd(nix::fcntl::open(&root, OFlag::O_DIRECTORY, Mode::empty()).unwrap());
            while !stop.load(Ordering::Relaxed) {
                // The file and the FIFO trade names.
                let _ = renameat2(Some(dir.0), "p", Some(dir.0), "fifo", RenameFlags::RENAME_EXCHANGE);
            }
        })
    };
    for round in 0..40 {
        let (tx, rx) = mpsc::channel();
        let s = store.clone();
        std::thread::spawn(move || {
            let _ = tx.send(s.checkpoint(&Origin::default()).map(|t| t.id));
        });
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(taken) => {
                taken.unwrap_or_else(|e| panic!("round {round}: {e}"));
            }
            Err(_) => panic!("round {round}: a snapshot did not end within 60 s"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
}
