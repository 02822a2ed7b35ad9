//! Taking a snapshot of the project: after a first full scan, only what the watcher says changed
//! is looked at again ([`super::scan`] reads the files; [`super::tree`] keeps the folders' trees).
//! A first snapshot of a git repository may take clean files' blob ids from its index
//! ([`super::borrow`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::git_index::ProjectIndex;
use super::scan::{git_path, look_at, scan, Found, ScanWith, Scanned};
use super::stat_cache::{self, StatCache};
use super::tree::Snapshot;
use super::watch::{Dirty, Watcher};
use super::{CheckpointError, CheckpointStore, Head, State};

impl CheckpointStore {
    /// The tree of the project as it is now.
    pub(super) fn snapshot(&self, state: &mut State) -> Result<String, CheckpointError> {
        let tree = self.take(state);
        if tree.is_err() {
            // What the watcher said is spent: the next snapshot looks at everything.
            state.watcher = None;
            state.snapshot = None;
        }
        tree
    }

    fn take(&self, state: &mut State) -> Result<String, CheckpointError> {
        // Another process recorded (or dropped checkpoints) since: our idea of the last snapshot
        // is stale, and so may be the blobs the stat cache names. Look at everything again.
        if state.log_len != self.log_len() {
            let records = self.log.read()?;
            state.head = records.last().map(|r| Head { tree: r.tree.clone() });
            state.log_len = self.log_len();
            if let Some(last) = records.last() {
                state.skipped = last.skipped.iter().cloned().collect();
            }
            state.snapshot = None;
            state.watcher = None;
            state.stats = None;
        }
        let dirty = match state.watcher.as_mut() {
            Some(watcher) => watcher.drain(),
            None => Dirty::Unknown,
        };
        match (dirty, state.snapshot.is_some()) {
            (Dirty::Nothing, true) => {}
            (Dirty::Paths(paths), true) => self.take_paths(state, &paths)?,
            _ => self.take_all(state)?,
        }
        match &state.snapshot {
            Some((_, tree)) => Ok(tree.clone()),
            None => Err(CheckpointError::Scan("no snapshot was made".into())),
        }
    }

    /// Look at every file: a full scan (which also sets up a fresh watcher).
    fn take_all(&self, state: &mut State) -> Result<(), CheckpointError> {
        state.snapshot = None;
        if self.progress.stopped() {
            return Err(CheckpointError::Stopped);
        }
        let _running = self.progress.begin();
        let mut watcher = if self.watch { Watcher::new() } else { None };
        let cache_path = self.dir.join("stat-cache");
        let stats = state.stats.get_or_insert_with(|| StatCache::load(&cache_path));
        let start = stat_cache::scan_start(&self.dir);
        let index = self.lendable_index(stats);
        // Whether the project's repository holds every blob its index names is asked of git on
        // the other core while the files are looked at.
        let (scanned, all_present) = std::thread::scope(|scope| {
            let present = index.as_ref().map(|index| scope.spawn(|| self.all_present(index)));
            let scanned = self.scan_all(stats, start, index.as_ref(), &mut watcher);
            (scanned, present.is_none_or(|check| check.join().unwrap_or(false)))
        });
        let mut scanned = scanned?;
        if !scanned.borrowed.is_empty() && !all_present {
            // The index names blobs its own repository does not hold: read every file after all.
            tracing::info!("the project's git index names objects its repository lacks; not used");
            *stats = StatCache::default();
            scanned = self.scan_all(stats, start, None, &mut watcher)?;
        }
        if !scanned.borrowed.is_empty() {
            self.borrowing.note(&scanned.borrowed)?;
        }
        // The stat cache is kept on one core while the trees are made on the other.
        let (saved, written) = std::thread::scope(|scope| {
            let saving = scope.spawn(|| stats.save(&cache_path));
            let mut snapshot = Snapshot::of(scanned.files);
            let written = snapshot.write(&self.objects).map(|tree| (snapshot, tree));
            (saving.join(), written)
        });
        if let Ok(Err(error)) = saved {
            tracing::debug!(%error, "could not keep the checkpoint stat cache");
        }
        let (snapshot, tree) = written?;
        state.snapshot = Some((snapshot, tree));
        state.skipped = scanned.skipped.into_iter().collect();
        state.left_out = scanned.left_out.into_iter().map(|f| (f.path, f.reason)).collect();
        state.watcher = watcher;
        Ok(())
    }

    fn scan_all(
        &self,
        stats: &mut StatCache,
        start: stat_cache::ScanStart,
        index: Option<&ProjectIndex>,
        watcher: &mut Option<Watcher>,
    ) -> Result<Scanned, CheckpointError> {
        let with = ScanWith {
            workspace: &self.workspace,
            size_cap: self.size_cap,
            writer: &self.objects,
            cache: stats,
            start,
            index,
            progress: &self.progress,
        };
        scan(with, |relative, dir| {
            if let Some(w) = watcher.as_mut() {
                w.watch(relative, dir);
            }
        })
    }

    /// The last snapshot with the files the watcher named looked at again, each judged by its
    /// folder's rules; only the trees above them are made again.
    fn take_paths(&self, state: &mut State, paths: &BTreeSet<PathBuf>) -> Result<(), CheckpointError> {
        let mut by_dir: BTreeMap<PathBuf, BTreeSet<Vec<u8>>> = BTreeMap::new();
        for path in paths {
            let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            by_dir.entry(dir).or_default().insert(git_path(path));
        }
        let mut found = BTreeMap::new();
        for (dir, wanted) in &by_dir {
            let mut now = look_at(&self.workspace, dir, wanted, self.size_cap, &self.objects)?;
            for path in wanted {
                found.insert(path.clone(), now.remove(path));
            }
        }
        let Some((snapshot, tree)) = state.snapshot.as_mut() else { return Ok(()) };
        for (path, now) in found {
            let display = String::from_utf8_lossy(&path).into_owned();
            state.skipped.remove(&display);
            state.left_out.remove(&display);
            match now {
                Some(Found::Blob { mode, oid }) => snapshot.put(&path, mode, oid),
                Some(Found::Skipped) => {
                    snapshot.remove(&path);
                    state.skipped.insert(display);
                }
                Some(Found::LeftOut(reason)) => {
                    snapshot.remove(&path);
                    state.left_out.insert(display, reason);
                }
                None => snapshot.remove(&path),
            }
        }
        *tree = snapshot.write(&self.objects)?;
        Ok(())
    }
}
