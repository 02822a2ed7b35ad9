//! What a full scan need not read again: for each file it hashed, the file's stat data and blob.
//! A file whose stat data (device, inode, size, mode, modification and change times) is what was
//! recorded has the recorded blob — unless it was recorded "racily": changed so close to the scan
//! that a later write could have kept the same times (git's racily-clean rule), in which case it
//! is read again. A process cannot set a file's change time, so a file rewritten and given its old
//! modification time back still differs.
//!
//! Kept in the store's folder (hidden from boxed commands) so a new process does not read the whole
//! project again; a cache that cannot be read is simply not used.

// Keys are the project's paths: a seeded hasher, faster than SipHash on 50,000 of them.
use foldhash::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;
use std::time::Duration;

use super::cursor::Cursor;

/// A file changed less than this before a scan began is recorded as racy: file systems with coarse
/// times (FAT: 2 s) round a later write down to a time before the scan.
const RACY_MARGIN: Duration = Duration::from_secs(2);
const MAGIC: &[u8] = b"warden-stat-cache 1\n";

/// The stat data that says a file is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stat {
    pub dev: u64,
    pub ino: u64,
    pub size: u64,
    pub mode: u32,
    /// Seconds and nanoseconds.
    pub mtime: (i64, i64),
    pub ctime: (i64, i64),
}

impl Stat {
    #[cfg(unix)]
    pub fn of_std(meta: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mode: meta.mode(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    #[cfg(unix)]
    pub fn of_cap(meta: &cap_std::fs::Metadata) -> Self {
        use cap_std::fs::MetadataExt;
        Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mode: meta.mode(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        }
    }

    /// Elsewhere only the size and modification time are known: never trusted.
    #[cfg(not(unix))]
    pub fn of_std(meta: &std::fs::Metadata) -> Self {
        Self { dev: 0, ino: 0, size: meta.len(), mode: 0, mtime: (0, 0), ctime: (0, 0) }
    }

    #[cfg(not(unix))]
    pub fn of_cap(meta: &cap_std::fs::Metadata) -> Self {
        Self { dev: 0, ino: 0, size: meta.len(), mode: 0, mtime: (0, 0), ctime: (0, 0) }
    }
}

#[derive(Debug, Clone)]
struct Known {
    stat: Stat,
    oid: String,
}

/// The recorded files, by `/`-separated path.
#[derive(Debug, Default)]
pub(super) struct StatCache {
    files: HashMap<Vec<u8>, Known>,
    /// Changed since it was loaded or saved.
    dirty: bool,
}

/// When a scan began, on the clock file systems stamp files with, in seconds and nanoseconds.
pub(super) type ScanStart = (i64, i64);

impl StatCache {
    /// The blob of `path` when its stat data says it did not change since it was recorded.
    pub fn known(&self, path: &[u8], stat: &Stat) -> Option<&str> {
        if cfg!(not(unix)) {
            return None;
        }
        self.files.get(path).filter(|k| k.stat == *stat).map(|k| k.oid.as_str())
    }

    /// Record that `path` with `stat` (taken before it was read) holds blob `oid`, unless it
    /// changed too close to `start` for its times to be trusted.
    pub fn record(&mut self, path: Vec<u8>, stat: Stat, oid: &str, start: ScanStart) {
        let margin = i64::try_from(RACY_MARGIN.as_secs()).unwrap_or(2);
        let racy = stat.mtime >= (start.0 - margin, start.1) || stat.ctime >= (start.0 - margin, start.1);
        if racy {
            if self.files.remove(&path).is_some() {
                self.dirty = true;
            }
            return;
        }
        match self.files.entry(path) {
            Entry::Occupied(known) if known.get().stat == stat && known.get().oid == oid => {}
            Entry::Occupied(mut known) => {
                known.insert(Known { stat, oid: oid.to_owned() });
                self.dirty = true;
            }
            Entry::Vacant(place) => {
                place.insert(Known { stat, oid: oid.to_owned() });
                self.dirty = true;
            }
        }
    }

    /// Make room for `more` files (a first scan records every file of the project).
    pub fn reserve(&mut self, more: usize) {
        self.files.reserve(more);
    }

    /// Whether no file is recorded (a first snapshot of the project in this store).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Keep only the files of `present` (the ones the last full scan saw).
    pub fn retain(&mut self, present: impl Fn(&[u8]) -> bool) {
        let before = self.files.len();
        self.files.retain(|path, _| present(path));
        self.dirty |= self.files.len() != before;
    }

    /// The cache kept at `path`, or an empty one when there is none or it cannot be read.
    pub fn load(path: &Path) -> Self {
        let Ok(bytes) = std::fs::read(path) else { return Self::default() };
        match parse(&bytes) {
            Some(files) => Self { files, dirty: false },
            None => {
                tracing::debug!(path = %path.display(), "a checkpoint stat cache that cannot be read is not used");
                Self { files: HashMap::default(), dirty: true }
            }
        }
    }

    /// Keep the cache at `path` (atomically) when it changed.
    pub fn save(&mut self, path: &Path) -> std::io::Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let mut out = Vec::with_capacity(MAGIC.len() + self.files.len() * 120);
        out.extend_from_slice(MAGIC);
        for (path, known) in &self.files {
            let Ok(len) = u32::try_from(path.len()) else { continue };
            let mut oid = [0u8; 20];
            if hex::decode_to_slice(&known.oid, &mut oid).is_err() {
                continue;
            }
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(path);
            let s = known.stat;
            for n in [s.dev, s.ino, s.size, u64::from(s.mode)] {
                out.extend_from_slice(&n.to_le_bytes());
            }
            for n in [s.mtime.0, s.mtime.1, s.ctime.0, s.ctime.1] {
                out.extend_from_slice(&n.to_le_bytes());
            }
            out.extend_from_slice(&oid);
        }
        crate::config::write_atomic(path, &out)?;
        self.dirty = false;
        Ok(())
    }
}

fn parse(bytes: &[u8]) -> Option<HashMap<Vec<u8>, Known>> {
    let mut cursor = Cursor::new(bytes.strip_prefix(MAGIC)?);
    let mut files = HashMap::default();
    while !cursor.is_done() {
        let len = usize::try_from(u32::from_le_bytes(cursor.take()?)).ok()?;
        let path = cursor.bytes(len)?.to_vec();
        let [dev, ino, size, mode] = [(); 4].map(|()| cursor.take().map(u64::from_le_bytes));
        let [m0, m1, c0, c1] = [(); 4].map(|()| cursor.take().map(i64::from_le_bytes));
        let oid = hex::encode(cursor.bytes(20)?);
        let stat = Stat {
            dev: dev?,
            ino: ino?,
            size: size?,
            mode: u32::try_from(mode?).ok()?,
            mtime: (m0?, m1?),
            ctime: (c0?, c1?),
        };
        files.insert(path, Known { stat, oid });
    }
    Some(files)
}

/// The file systems' clock now: the times given to a file made in `dir` (the store's folder).
pub(super) fn scan_start(dir: &Path) -> ScanStart {
    let stamp = tempfile::Builder::new().prefix("clock").tempfile_in(dir);
    #[cfg(unix)]
    if let Ok(meta) = stamp
        .as_ref()
        .map_err(|e| std::io::Error::new(e.kind(), e.to_string()))
        .and_then(|f| f.as_file().metadata())
    {
        use std::os::unix::fs::MetadataExt;
        return (meta.mtime(), meta.mtime_nsec());
    }
    // Without it, no recorded file is trusted on the next scan.
    drop(stamp);
    (i64::MIN, 0)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn stat(mtime: i64) -> Stat {
        Stat { dev: 1, ino: 2, size: 3, mode: 0o100644, mtime: (mtime, 5), ctime: (mtime, 5) }
    }

    #[test]
    fn a_racily_recorded_file_is_read_again_and_the_cache_survives_a_reload() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let mut cache = StatCache::default();
        let oid = "ce013625030ba8dba906f756967f9e9ca394464a";
        // Changed in the same second the scan began: not trusted.
        cache.record(b"racy".to_vec(), stat(1000), oid, (1000, 0));
        assert_eq!(cache.known(b"racy", &stat(1000)), None);
        // Changed long before: trusted while its stat data stays.
        cache.record(b"old".to_vec(), stat(900), oid, (1000, 0));
        assert_eq!(cache.known(b"old", &stat(900)), Some(oid));
        assert_eq!(cache.known(b"old", &Stat { size: 4, ..stat(900) }), None);
        assert_eq!(cache.known(b"old", &Stat { ctime: (950, 0), ..stat(900) }), None);

        let path = dir.path().join("stat-cache");
        cache.save(&path).unwrap_or_else(|e| panic!("{e}"));
        let loaded = StatCache::load(&path);
        assert_eq!(loaded.known(b"old", &stat(900)), Some(oid));
        assert_eq!(loaded.known(b"racy", &stat(1000)), None);

        // A torn or foreign file is not used.
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(StatCache::load(&path).known(b"old", &stat(900)), None);
    }
}
