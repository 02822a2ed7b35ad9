//! A read-only FUSE passthrough of a source folder that waits a set time in each request that
//! would cross a network or wake a cloud client: lookup, getattr, open, opendir, read, readdir,
//! readlink. Closing, forgetting and statfs answer at once.
//!
//! Inode numbers are the source's own (the root is FUSE's 1), so `stat` through the mount gives the
//! inode git records in an index; the device is the mount's. Entries and attributes are cached by
//! the kernel for the given time to live, and every `open` drops the file's pages (no
//! `FOPEN_KEEP_CACHE`): each read of a file reaches the file system again, as on a network folder.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirEntryExt, FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use fuser::{
    Errno, FileAttr, FileHandle, FileType, Filesystem, FopenFlags, Generation, INodeNo, InitFlags,
    KernelConfig, LockOwner, OpenAccMode, OpenFlags, ReplyAttr, ReplyData, ReplyDirectory, ReplyEntry,
    ReplyOpen, Request,
};

/// The requests that wait, in the order of [`Tally`]'s counts.
#[derive(Debug, Clone, Copy)]
pub enum Op {
    Lookup,
    Getattr,
    Open,
    Read,
    Opendir,
    Readdir,
    Readlink,
}

const OPS: usize = 7;
pub const OP_NAMES: [&str; OPS] = ["lookup", "getattr", "open", "read", "opendir", "readdir", "readlink"];

/// What the benchmark and the file system share: the added latency (changed between phases) and
/// the requests served.
#[derive(Default)]
pub struct Shared {
    latency_ns: AtomicU64,
    counts: [AtomicU64; OPS],
    /// Time actually spent waiting (a sleep overshoots what was asked).
    slept_ns: AtomicU64,
}

impl Shared {
    pub fn set_latency(&self, latency: Duration) {
        self.latency_ns.store(u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX), Ordering::SeqCst);
    }

    pub fn tally(&self) -> Tally {
        Tally {
            counts: std::array::from_fn(|i| self.counts[i].load(Ordering::SeqCst)),
            slept_ns: self.slept_ns.load(Ordering::SeqCst),
        }
    }

    /// Count `op` and wait the added latency.
    fn delay(&self, op: Op) {
        self.counts[op as usize].fetch_add(1, Ordering::Relaxed);
        let ns = self.latency_ns.load(Ordering::Relaxed);
        if ns > 0 {
            // A sleep may end up to the thread's timer slack (50 µs) late: as little as may be.
            SLACK_SET.with(|set| {
                if !set.replace(true) {
                    let _ = nix::sys::prctl::set_timerslack(1);
                }
            });
            let start = Instant::now();
            std::thread::sleep(Duration::from_nanos(ns));
            let slept = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.slept_ns.fetch_add(slept, Ordering::Relaxed);
        }
    }
}

thread_local! {
    static SLACK_SET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Requests served up to a moment.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    counts: [u64; OPS],
    slept_ns: u64,
}

impl Tally {
    /// What was served between `before` and this one.
    pub fn since(&self, before: &Tally) -> Tally {
        Tally {
            counts: std::array::from_fn(|i| self.counts[i].saturating_sub(before.counts[i])),
            slept_ns: self.slept_ns.saturating_sub(before.slept_ns),
        }
    }

    /// This and `other` together.
    pub fn plus(&self, other: &Tally) -> Tally {
        Tally {
            counts: std::array::from_fn(|i| self.counts[i] + other.counts[i]),
            slept_ns: self.slept_ns + other.slept_ns,
        }
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The mean time one request actually waited, in microseconds (0 without requests).
    pub fn mean_wait_us(&self) -> f64 {
        match self.total() {
            0 => 0.0,
            n => self.slept_ns as f64 / n as f64 / 1000.0,
        }
    }

    pub fn json(&self) -> serde_json::Value {
        let mut map: serde_json::Map<String, serde_json::Value> =
            OP_NAMES.iter().zip(self.counts).map(|(name, n)| ((*name).to_owned(), n.into())).collect();
        map.insert("total".into(), self.total().into());
        serde_json::Value::Object(map)
    }
}

/// A directory's entries as read at `opendir`: inode, kind, name.
type Listing = Vec<(u64, FileType, OsString)>;

pub struct SlowFs {
    root: PathBuf,
    ttl: Duration,
    shared: Arc<Shared>,
    /// The source path of each inode the kernel was told of.
    paths: RwLock<HashMap<u64, PathBuf>>,
    files: Mutex<HashMap<u64, Arc<File>>>,
    dirs: Mutex<HashMap<u64, Arc<Listing>>>,
    next_handle: AtomicU64,
}

impl SlowFs {
    pub fn new(root: PathBuf, ttl: Duration, shared: Arc<Shared>) -> Self {
        let paths = RwLock::new(HashMap::from([(INodeNo::ROOT.0, root.clone())]));
        Self {
            root,
            ttl,
            shared,
            paths,
            files: Mutex::default(),
            dirs: Mutex::default(),
            next_handle: AtomicU64::new(1),
        }
    }

    fn path(&self, ino: INodeNo) -> Result<PathBuf, Errno> {
        let paths = self.paths.read().map_err(|_| Errno::EIO)?;
        paths.get(&ino.0).cloned().ok_or(Errno::ENOENT)
    }

    /// The inode the kernel knows `path` by.
    fn ino_of(&self, path: &Path, meta: &std::fs::Metadata) -> u64 {
        if path == self.root {
            INodeNo::ROOT.0
        } else {
            meta.ino()
        }
    }

    fn attr_of(&self, path: &Path) -> Result<FileAttr, Errno> {
        let meta = std::fs::symlink_metadata(path).map_err(Errno::from)?;
        Ok(attr(self.ino_of(path, &meta), &meta))
    }

    fn handle(&self) -> u64 {
        self.next_handle.fetch_add(1, Ordering::Relaxed)
    }

    fn listing(&self, ino: INodeNo) -> Result<Listing, Errno> {
        let path = self.path(ino)?;
        let parent = match path.parent() {
            Some(parent) if path != self.root => {
                let meta = std::fs::symlink_metadata(parent).map_err(Errno::from)?;
                self.ino_of(parent, &meta)
            }
            _ => ino.0,
        };
        let mut entries: Listing =
            vec![(ino.0, FileType::Directory, ".".into()), (parent, FileType::Directory, "..".into())];
        for entry in std::fs::read_dir(&path).map_err(Errno::from)? {
            let entry = entry.map_err(Errno::from)?;
            let kind = entry.file_type().ok().and_then(FileType::from_std).unwrap_or(FileType::RegularFile);
            entries.push((entry.ino(), kind, entry.file_name()));
        }
        Ok(entries)
    }
}

impl Filesystem for SlowFs {
    fn init(&mut self, _req: &Request, config: &mut KernelConfig) -> std::io::Result<()> {
        // Lookups in one folder may run at once, as libfuse 3 lets them by default.
        let _ = config.add_capabilities(InitFlags::FUSE_PARALLEL_DIROPS);
        Ok(())
    }

    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        self.shared.delay(Op::Lookup);
        let found = self.path(parent).and_then(|dir| {
            let path = dir.join(name);
            let attr = self.attr_of(&path)?;
            self.paths.write().map_err(|_| Errno::EIO)?.insert(attr.ino.0, path);
            Ok(attr)
        });
        match found {
            Ok(attr) => reply.entry(&self.ttl, &attr, Generation(0)),
            Err(errno) => reply.error(errno),
        }
    }

    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        self.shared.delay(Op::Getattr);
        match self.path(ino).and_then(|path| self.attr_of(&path)) {
            Ok(attr) => reply.attr(&self.ttl, &attr),
            Err(errno) => reply.error(errno),
        }
    }

    fn readlink(&self, _req: &Request, ino: INodeNo, reply: ReplyData) {
        self.shared.delay(Op::Readlink);
        match self.path(ino).and_then(|path| std::fs::read_link(path).map_err(Errno::from)) {
            Ok(target) => reply.data(target.as_os_str().as_bytes()),
            Err(errno) => reply.error(errno),
        }
    }

    fn open(&self, _req: &Request, ino: INodeNo, flags: OpenFlags, reply: ReplyOpen) {
        self.shared.delay(Op::Open);
        if !matches!(flags.acc_mode(), OpenAccMode::O_RDONLY) {
            return reply.error(Errno::EROFS);
        }
        let opened = self.path(ino).and_then(|path| File::open(path).map_err(Errno::from)).and_then(|file| {
            let fh = self.handle();
            self.files.lock().map_err(|_| Errno::EIO)?.insert(fh, Arc::new(file));
            Ok(fh)
        });
        match opened {
            Ok(fh) => reply.opened(FileHandle(fh), FopenFlags::empty()),
            Err(errno) => reply.error(errno),
        }
    }

    fn read(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        reply: ReplyData,
    ) {
        self.shared.delay(Op::Read);
        let file = match self.files.lock() {
            Ok(files) => files.get(&fh.0).cloned(),
            Err(_) => return reply.error(Errno::EIO),
        };
        let Some(file) = file else { return reply.error(Errno::EBADF) };
        match read_at(&file, offset, size) {
            Ok(bytes) => reply.data(&bytes),
            Err(errno) => reply.error(errno),
        }
    }

    fn release(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _flags: OpenFlags,
        _lock_owner: Option<LockOwner>,
        _flush: bool,
        reply: fuser::ReplyEmpty,
    ) {
        if let Ok(mut files) = self.files.lock() {
            files.remove(&fh.0);
        }
        reply.ok();
    }

    fn opendir(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        self.shared.delay(Op::Opendir);
        let opened = self.listing(ino).and_then(|listing| {
            let fh = self.handle();
            self.dirs.lock().map_err(|_| Errno::EIO)?.insert(fh, Arc::new(listing));
            Ok(fh)
        });
        match opened {
            Ok(fh) => reply.opened(FileHandle(fh), FopenFlags::empty()),
            Err(errno) => reply.error(errno),
        }
    }

    fn readdir(&self, _req: &Request, _ino: INodeNo, fh: FileHandle, offset: u64, mut reply: ReplyDirectory) {
        self.shared.delay(Op::Readdir);
        let listing = match self.dirs.lock() {
            Ok(dirs) => dirs.get(&fh.0).cloned(),
            Err(_) => return reply.error(Errno::EIO),
        };
        let Some(listing) = listing else { return reply.error(Errno::EBADF) };
        let skip = usize::try_from(offset).unwrap_or(usize::MAX);
        for (i, (ino, kind, name)) in listing.iter().enumerate().skip(skip) {
            // The offset of an entry is where the next call starts.
            if reply.add(INodeNo(*ino), i as u64 + 1, *kind, name) {
                break;
            }
        }
        reply.ok();
    }

    fn releasedir(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _flags: OpenFlags,
        reply: fuser::ReplyEmpty,
    ) {
        if let Ok(mut dirs) = self.dirs.lock() {
            dirs.remove(&fh.0);
        }
        reply.ok();
    }
}

/// Up to `size` bytes of `file` from `offset` (fewer only at its end).
fn read_at(file: &File, offset: u64, size: u32) -> Result<Vec<u8>, Errno> {
    let mut bytes = vec![0; size as usize];
    let mut filled = 0;
    while filled < bytes.len() {
        match file.read_at(&mut bytes[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Errno::from(e)),
        }
    }
    bytes.truncate(filled);
    Ok(bytes)
}

/// The kernel's view of a source file's metadata, under inode `ino`.
fn attr(ino: u64, meta: &std::fs::Metadata) -> FileAttr {
    FileAttr {
        ino: INodeNo(ino),
        size: meta.size(),
        blocks: meta.blocks(),
        atime: time(meta.atime(), meta.atime_nsec()),
        mtime: time(meta.mtime(), meta.mtime_nsec()),
        ctime: time(meta.ctime(), meta.ctime_nsec()),
        crtime: time(meta.mtime(), meta.mtime_nsec()),
        kind: FileType::from_std(meta.file_type()).unwrap_or(FileType::RegularFile),
        perm: u16::try_from(meta.mode() & 0o7777).unwrap_or(0o644),
        nlink: u32::try_from(meta.nlink()).unwrap_or(u32::MAX),
        uid: meta.uid(),
        gid: meta.gid(),
        rdev: u32::try_from(meta.rdev()).unwrap_or(0),
        blksize: u32::try_from(meta.blksize()).unwrap_or(4096),
        flags: 0,
    }
}

fn time(secs: i64, nsecs: i64) -> SystemTime {
    let nanos = Duration::from_nanos(u64::try_from(nsecs).unwrap_or(0));
    match u64::try_from(secs) {
        Ok(secs) => UNIX_EPOCH + Duration::from_secs(secs) + nanos,
        Err(_) => UNIX_EPOCH - Duration::from_secs(secs.unsigned_abs()) + nanos,
    }
}
