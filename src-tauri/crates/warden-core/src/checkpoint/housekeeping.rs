//! The store's retention: old checkpoints, too many, or a store grown too large are dropped with
//! the snapshots only they kept, and git's housekeeping then drops their objects.

use std::collections::BTreeSet;
use std::path::Path;

use super::log::Record;
use super::{pack, CheckpointError, CheckpointStore, MAX_RECORDS, MAX_STORE_BYTES, RETENTION_DAYS};

impl CheckpointStore {
    /// Apply the retention policy: checkpoints older than [`RETENTION_DAYS`], beyond the newest
    /// [`MAX_RECORDS`], and the oldest half while the store is over [`MAX_STORE_BYTES`], with the
    /// snapshots only they kept. A session runs it in the background when it starts.
    pub fn housekeeping(&self) -> Result<(), CheckpointError> {
        let _lock = self.lock_store()?;
        let cutoff = chrono::Utc::now() - chrono::Duration::days(RETENTION_DAYS);
        let mut dropped = self.prune(|records| {
            let cutoff = cutoff.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
            records
                .iter()
                .position(|r| r.created_at >= cutoff)
                .unwrap_or(records.len())
                .max(records.len().saturating_sub(MAX_RECORDS))
        })?;
        if dir_size(&self.git.git_dir().join("objects")) > MAX_STORE_BYTES {
            dropped |= self.prune(|records| records.len() / 2)?;
        }
        if dropped {
            // The index holds whatever the last full scan saw, which may be only a dropped
            // checkpoint's: it is not a reason to keep anything, and it is dropped with them (the
            // next snapshot looks at every file and writes it again).
            // The objects of snapshots no record keeps go, and with them perhaps blobs the last
            // snapshot and the stat cache name: both are dropped (the next snapshot looks at every
            // file and stores it again).
            let mut state = self.state();
            state.snapshot = None;
            state.watcher = None;
            state.stats = None;
            let _ = std::fs::remove_file(self.dir.join("stat-cache"));
        }
        if pack::tidy(&self.git.git_dir().join("objects")) || dropped {
            // Packs (what first snapshots and full scans write) keep what no snapshot needs until
            // they are written again without it; loose objects go with prune. Both leave out what
            // is only borrowed from the project's git (`-l`).
            self.git.run(&["repack", "-a", "-d", "-l", "-q"], None)?;
            self.git.run(&["prune", "--expire=now"], None)?;
        }
        Ok(())
    }

    /// Drop the records before the index `keep_from` chooses (the newest always stays: it is the
    /// state the next change is compared with) and the refs only they held. Whether any went.
    fn prune(&self, keep_from: impl FnOnce(&[Record]) -> usize) -> Result<bool, CheckpointError> {
        let records = self.log.read()?;
        let keep_from = keep_from(&records).min(records.len().saturating_sub(1));
        if keep_from == 0 {
            return Ok(false);
        }
        let kept = &records[keep_from..];
        let live: BTreeSet<&str> = kept.iter().map(|r| r.tree.as_str()).collect();
        for dropped in &records[..keep_from] {
            if !live.contains(dropped.tree.as_str()) {
                let _ = std::fs::remove_file(self.git.git_dir().join("refs/checkpoints").join(&dropped.id));
            }
        }
        self.log.rewrite(kept)?;
        Ok(true)
    }
}

/// Bytes of the files below `dir`.
fn dir_size(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else { continue };
        for entry in entries.filter_map(Result::ok) {
            match entry.metadata() {
                Ok(meta) if meta.is_dir() => stack.push(entry.path()),
                Ok(meta) => total += meta.len(),
                Err(_) => {}
            }
        }
    }
    total
}
