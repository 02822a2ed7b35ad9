//! What a snapshot holds, read the way the file tools read: the project's files as Warden's own walk
//! sees them — `.gitignore` and `.ignore` honoured, secret files never (the path sandbox's rules),
//! no `.git` directory — each opened by its single name from its folder's verified handle, without
//! following a link and without blocking on a FIFO. What was opened is what is hashed: no path is
//! handed to anyone. What is read is stored as one pack when it is many files ([`super::pack`]).
//! Files over the size cap are named instead of kept, and files that cannot be
//! read are named with the reason (a snapshot never fails for one file).

use std::ffi::OsString;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};

use cap_std::fs::Dir;
use tokio_util::sync::CancellationToken;
use warden_protocol::LeftOutFile;

use super::git_index::{IndexStat, ProjectIndex};
use super::objects::{ObjectWriter, MODE_EXECUTABLE, MODE_FILE, MODE_LINK};
use super::pack::{Kind, Pack, Packed};
use super::progress::ScanProgress;
use super::stat_cache::{ScanStart, Stat, StatCache};
use super::CheckpointError;
use crate::sandbox::handles::open_child_file_with_metadata;
use crate::sandbox::{Access, Workspace};
use crate::tool::walk::{walk, walk_with, Entry, Visitor, WalkOptions};

/// Folders' worth of files waiting for a reading thread at most (each holds its folder's handle
/// open).
const QUEUE: usize = 64;
/// At most this many files are handed to a reading thread at once.
const BATCH: usize = 256;

/// A file of a snapshot: its `/`-separated path, tree mode and blob.
pub(super) type Kept = (Vec<u8>, &'static str, String);

/// What a full scan found.
#[derive(Debug, Default)]
pub(super) struct Scanned {
    pub files: Vec<Kept>,
    /// Files over the size cap (relative, for display).
    pub skipped: Vec<String>,
    /// What could not be read, and why.
    pub left_out: Vec<LeftOutFile>,
    /// The blobs taken from the project's git index, not stored (yet) by this scan.
    pub borrowed: Vec<String>,
}

/// How a full scan reads.
pub(super) struct ScanWith<'a> {
    pub workspace: &'a Workspace,
    pub size_cap: u64,
    pub writer: &'a ObjectWriter,
    /// The files known from earlier scans (updated with what this one hashed).
    pub cache: &'a mut StatCache,
    pub start: ScanStart,
    /// The project's own git index, when it may vouch for files the cache does not know.
    pub index: Option<&'a ProjectIndex>,
    /// Counts the files looked at; the user's stop ends the scan.
    pub progress: &'a ScanProgress,
}

/// A file to be looked at by a reading thread.
struct Job {
    parent: Arc<Dir>,
    name: OsString,
    path: Vec<u8>,
}

impl Job {
    fn display(&self) -> String {
        String::from_utf8_lossy(&self.path).into_owned()
    }
}

/// What the reading threads share: what vouches for a file without reading it, and where what
/// they read is stored.
struct Reader<'a> {
    size_cap: u64,
    cache: &'a StatCache,
    index: Option<&'a ProjectIndex>,
    batch: &'a Pack,
}

enum Hashed {
    File {
        path: Vec<u8>,
        mode: &'static str,
        oid: String,
        stat: Stat,
    },
    /// A file the stat cache vouched for: its blob is stored already.
    Cached {
        path: Vec<u8>,
        mode: &'static str,
        oid: String,
    },
    /// A file the project's git index vouched for: its blob is git's, not stored by this scan.
    Borrowed {
        path: Vec<u8>,
        mode: &'static str,
        oid: String,
        stat: Stat,
    },
    OverCap(String),
    LeftOut(LeftOutFile),
    /// Gone (or no longer a file) since its folder was read: not part of this state.
    Gone,
}

/// Read every file of the project: the walk lists the folders (one thread), and one thread per
/// core (up to four) takes their files a folder at a time — those the cache or the project's index
/// vouches for by their stat data are taken from it, the others read and stored. `on_dir` sees
/// each folder entered (relative, with its handle) before its entries are read.
pub(super) fn scan(with: ScanWith<'_>, on_dir: impl FnMut(&Path, &Dir)) -> Result<Scanned, CheckpointError> {
    let ScanWith { workspace, size_cap, writer, cache, start, index, progress } = with;
    let resolved = workspace.resolve(".", Access::Read).map_err(|e| CheckpointError::Scan(e.to_string()))?;
    let options = WalkOptions { include_hidden: true, max_depth: None, overrides: None, skip_git: true };
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let (jobs, queue) = sync_channel::<Vec<Job>>(QUEUE);
    let queue = Mutex::new(queue);
    // What the threads read is stored as one pack (a first snapshot's thousands of files), or
    // loose when it is a few.
    let batch = writer.batch(true);
    let mut scanned = Scanned::default();
    let reader = Reader { size_cap, cache: &*cache, index, batch: &batch };
    let hashed: Vec<Hashed> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..workers).map(|_| scope.spawn(|| read_queued(&queue, &reader))).collect();
        let mut visitor =
            Collect { jobs, pending: Vec::new(), progress, writer, scanned: &mut scanned, on_dir };
        let walked = walk_with(workspace, &resolved, &options, &CancellationToken::new(), &mut visitor);
        visitor.flush();
        drop(visitor);
        let mut hashed = Vec::new();
        for thread in threads {
            hashed.extend(thread.join().unwrap_or_default());
        }
        walked.map(|()| hashed)
    })
    .map_err(|e| CheckpointError::Scan(e.to_string()))?;
    if progress.stopped() {
        return Err(CheckpointError::Stopped);
    }
    writer.finish(batch)?;
    // A cache that was empty holds only what this scan records: nothing in it is gone.
    let was_empty = cache.is_empty();
    cache.reserve(hashed.len());
    for outcome in hashed {
        match outcome {
            Hashed::File { path, mode, oid, stat } => {
                cache.record(path.clone(), stat, &oid, start);
                scanned.files.push((path, mode, oid));
            }
            Hashed::Cached { path, mode, oid } => scanned.files.push((path, mode, oid)),
            Hashed::Borrowed { path, mode, oid, stat } => {
                cache.record(path.clone(), stat, &oid, start);
                scanned.borrowed.push(oid.clone());
                scanned.files.push((path, mode, oid));
            }
            Hashed::OverCap(display) => scanned.skipped.push(display),
            Hashed::LeftOut(left_out) => scanned.left_out.push(left_out),
            Hashed::Gone => {}
        }
    }
    scanned.files.sort_by(|a, b| a.0.cmp(&b.0));
    scanned.skipped.sort();
    scanned.left_out.sort_by(|a, b| a.path.cmp(&b.path));
    if !was_empty {
        let present: foldhash::HashSet<&[u8]> = scanned.files.iter().map(|f| f.0.as_slice()).collect();
        cache.retain(|path| present.contains(path));
    }
    Ok(scanned)
}

/// The walk's side of a scan: links are read at once, files handed to the reading threads a
/// folder at a time.
struct Collect<'a, 'b, F> {
    jobs: SyncSender<Vec<Job>>,
    /// Files of the folder being walked, not yet handed over.
    pending: Vec<Job>,
    progress: &'a ScanProgress,
    writer: &'a ObjectWriter,
    scanned: &'b mut Scanned,
    on_dir: F,
}

impl<F> Collect<'_, '_, F> {
    /// Hand the pending files to the reading threads; whether they are still there (they only
    /// stop when the queue closes, so a send fails only if they all died).
    fn flush(&mut self) -> bool {
        self.pending.is_empty() || self.jobs.send(std::mem::take(&mut self.pending)).is_ok()
    }
}

impl<F: FnMut(&Path, &Dir)> Visitor for Collect<'_, '_, F> {
    fn visit(&mut self, entry: Entry) -> ControlFlow<()> {
        if self.progress.stopped() {
            return ControlFlow::Break(());
        }
        self.progress.file();
        if entry.file_type.is_symlink() {
            let path = git_path(&entry.relative);
            match read_link(&entry.parent, &entry.name) {
                Ok(target) => match self.writer.blob(&target) {
                    Ok(oid) => self.scanned.files.push((path, MODE_LINK, oid)),
                    Err(e) => self.scanned.left_out.push(left_out(&entry.display(), &e.to_string())),
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => self.scanned.left_out.push(left_out(&entry.display(), &e.to_string())),
            }
            return ControlFlow::Continue(());
        }
        if !entry.file_type.is_file() {
            return ControlFlow::Continue(());
        }
        let same_folder = self.pending.first().is_none_or(|job| Arc::ptr_eq(&job.parent, &entry.parent));
        if (!same_folder || self.pending.len() >= BATCH) && !self.flush() {
            return ControlFlow::Break(());
        }
        let path = git_path(&entry.relative);
        self.pending.push(Job { parent: entry.parent, name: entry.name, path });
        ControlFlow::Continue(())
    }

    fn entered(&mut self, relative: &Path, dir: &Dir) {
        (self.on_dir)(relative, dir);
    }

    fn not_entered(&mut self, relative: &Path, why: String) {
        self.scanned.left_out.push(LeftOutFile {
            path: format!("{}/", relative.to_string_lossy()),
            reason: format!("this folder was not looked at: {why}"),
        });
    }
}

/// A reading thread: look at queued files until the queue closes.
fn read_queued(queue: &Mutex<Receiver<Vec<Job>>>, reader: &Reader<'_>) -> Vec<Hashed> {
    let mut out = Vec::new();
    loop {
        let jobs = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(poisoned) => poisoned.into_inner().recv(),
        };
        let Ok(jobs) = jobs else { return out };
        out.extend(jobs.into_iter().map(|job| look(job, reader)));
    }
}

/// One file: taken from the stat cache or the project's index when they vouch for its stat data,
/// else read and stored.
fn look(job: Job, reader: &Reader<'_>) -> Hashed {
    let meta = match job.parent.symlink_metadata(&job.name) {
        Ok(meta) => meta,
        // Gone since the folder was read: not part of this state.
        Err(_) => return Hashed::Gone,
    };
    if meta.len() > reader.size_cap {
        return Hashed::OverCap(job.display());
    }
    let stat = Stat::of_cap(&meta);
    let mode = if stat.mode & 0o100 != 0 { MODE_EXECUTABLE } else { MODE_FILE };
    if let Some(oid) = reader.cache.known(&job.path, &stat) {
        return Hashed::Cached { path: job.path, mode, oid: oid.to_owned() };
    }
    if let Some(oid) =
        reader.index.and_then(|i| i.known(&job.path, &IndexStat::of(&meta), mode == MODE_EXECUTABLE))
    {
        return Hashed::Borrowed { path: job.path, mode, oid, stat };
    }
    hash(job, reader.size_cap, reader.batch)
}

fn hash(job: Job, size_cap: u64, batch: &Pack) -> Hashed {
    let failed = |reason: String| Hashed::LeftOut(left_out(&job.display(), &reason));
    let (stat, executable, bytes) = match read_capped(&job.parent, &job.name, size_cap) {
        Ok(ReadFile::File { stat, executable, bytes }) => (stat, executable, bytes),
        Ok(ReadFile::OverCap) => return Hashed::OverCap(job.display()),
        Ok(ReadFile::NotAFile) => return Hashed::Gone,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Hashed::Gone,
        Err(e) => return failed(e.to_string()),
    };
    match batch.add(Packed::new(Kind::Blob, bytes)) {
        Ok(oid) => {
            let mode = if executable { MODE_EXECUTABLE } else { MODE_FILE };
            Hashed::File { path: job.path, mode, oid, stat }
        }
        Err(e) => failed(e.to_string()),
    }
}

/// A file as read through its folder's handle.
pub(super) enum ReadFile {
    File {
        stat: Stat,
        executable: bool,
        bytes: Vec<u8>,
    },
    OverCap,
    /// A folder now (a FIFO, socket or device is refused as an error by the open).
    NotAFile,
}

/// Open `name` in `parent` (no link followed, no blocking on a FIFO, only a regular file) and read
/// it, up to `size_cap` bytes; the stat data is the opened file's, taken before reading.
pub(super) fn read_capped(parent: &Dir, name: &std::ffi::OsStr, size_cap: u64) -> std::io::Result<ReadFile> {
    let (file, meta) = match open_child_file_with_metadata(parent, name) {
        Ok(opened) => opened,
        Err(e) if e.kind() == std::io::ErrorKind::IsADirectory => return Ok(ReadFile::NotAFile),
        Err(e) => return Err(e),
    };
    if meta.len() > size_cap {
        return Ok(ReadFile::OverCap);
    }
    let stat = Stat::of_std(&meta);
    #[cfg(unix)]
    let executable = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o100 != 0;
    #[cfg(not(unix))]
    let executable = false;
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(size_cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > size_cap {
        return Ok(ReadFile::OverCap);
    }
    Ok(ReadFile::File { stat, executable, bytes })
}

/// A symlink's target as git keeps it: its bytes.
pub(super) fn read_link(parent: &Dir, name: &std::ffi::OsStr) -> std::io::Result<Vec<u8>> {
    let target = parent.read_link_contents(name)?;
    Ok(git_path(&target))
}

fn left_out(path: &str, reason: &str) -> LeftOutFile {
    LeftOutFile { path: path.to_owned(), reason: reason.to_owned() }
}

/// A relative path as git names it: its bytes, `/` between components.
pub(super) fn git_path(relative: &Path) -> Vec<u8> {
    let bytes = relative.as_os_str().as_encoded_bytes().to_vec();
    if cfg!(windows) {
        bytes.into_iter().map(|b| if b == b'\\' { b'/' } else { b }).collect()
    } else {
        bytes
    }
}

/// The path git names by `bytes`, relative to the project root.
pub(super) fn native_path(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).replace('/', "\\"))
    }
}

/// What a path holds now, for a snapshot made from the last one.
pub(super) enum Found {
    Blob {
        mode: &'static str,
        oid: String,
    },
    /// Over the size cap: named, not kept.
    Skipped,
    LeftOut(String),
}

/// The files among `wanted` (git paths) that folder `dir` holds and a snapshot takes, read through
/// the folder's handle; a wanted path not in the result is not part of the snapshot (gone,
/// ignored, a secret, not a file).
pub(super) fn look_at(
    workspace: &Workspace,
    dir: &Path,
    wanted: &std::collections::BTreeSet<Vec<u8>>,
    size_cap: u64,
    writer: &ObjectWriter,
) -> Result<std::collections::BTreeMap<Vec<u8>, Found>, CheckpointError> {
    let mut found = std::collections::BTreeMap::new();
    let raw = if dir.as_os_str().is_empty() { ".".to_owned() } else { dir.to_string_lossy().into_owned() };
    let resolved = match workspace.resolve(&raw, Access::Read) {
        Ok(resolved) if resolved.root == 0 && resolved.relative == dir => resolved,
        // The folder is gone, or is now a link (then it is not a folder of the snapshot): nothing
        // of it is in the snapshot.
        _ => return Ok(found),
    };
    let options = WalkOptions { include_hidden: true, max_depth: Some(1), overrides: None, skip_git: true };
    let mut failed = None;
    walk(workspace, &resolved, &options, &CancellationToken::new(), |entry| {
        let path = git_path(&entry.relative);
        if !wanted.contains(&path) {
            return ControlFlow::Continue(());
        }
        let blob = |bytes: &[u8], mode| writer.blob(bytes).map(|oid| Found::Blob { mode, oid });
        let outcome = if entry.file_type.is_symlink() {
            match read_link(&entry.parent, &entry.name) {
                Ok(target) => blob(&target, MODE_LINK).map(Some),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Ok(Some(Found::LeftOut(e.to_string()))),
            }
        } else if entry.file_type.is_file() {
            match read_capped(&entry.parent, &entry.name, size_cap) {
                Ok(ReadFile::File { executable, bytes, .. }) => {
                    blob(&bytes, if executable { MODE_EXECUTABLE } else { MODE_FILE }).map(Some)
                }
                Ok(ReadFile::OverCap) => Ok(Some(Found::Skipped)),
                Ok(ReadFile::NotAFile) => Ok(None),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Ok(Some(Found::LeftOut(e.to_string()))),
            }
        } else {
            Ok(None)
        };
        match outcome {
            Ok(Some(found_now)) => {
                found.insert(path, found_now);
            }
            Ok(None) => {}
            Err(error) => {
                failed = Some(error);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    })
    .map_err(|e| CheckpointError::Scan(e.to_string()))?;
    match failed {
        Some(error) => Err(error),
        None => Ok(found),
    }
}
