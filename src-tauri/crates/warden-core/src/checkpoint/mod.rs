//! Checkpoints: the project as it was before every change Warden's tools made, kept outside the
//! project in a shadow git repository (`$WARDEN_HOME`'s data folder, `checkpoints/<project>/`),
//! so that any tool call, turn or restore can be taken back — what a shell command did included.
//!
//! A snapshot is the project's files as [`scan`] defines them (ignore rules honoured, secrets and
//! `.git` never, files over the size cap named instead of kept), each read through the project's
//! verified handles and stored, with the trees above them, by Warden itself: no git of the store
//! is ever given a project path. What changed since the last snapshot comes from a
//! [`watch::Watcher`]; when it cannot vouch, every file is looked at, and the stat cache spares
//! reading the unchanged ones again. A snapshot equal to the last one adds nothing to the store.
//!
//! One process at a time works on a store (a lock file); a turn holds the store's turn lock shared
//! while it runs, so a restore (which takes it exclusively) never runs under a turn.

mod borrow;
mod calls;
mod changes;
mod cursor;
mod deadline;
mod git;
mod git_index;
mod holders;
mod housekeeping;
mod log;
mod objects;
mod pack;
mod progress;
mod project_objects;
mod restore;
mod scan;
mod stat_cache;
mod take;
mod tree;
mod watch;
mod write_back;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use warden_protocol::{CheckpointInfo, FileChange, LeftOutFile};

use self::borrow::Borrowing;
use self::git::Git;
use self::log::{Log, Record, RecordKind};
use self::objects::ObjectWriter;
use self::progress::ScanProgress;
use self::stat_cache::StatCache;
use self::tree::Snapshot;
use self::watch::Watcher;
use self::write_back::Journal;
use crate::sandbox::Workspace;

pub use self::calls::{fill_call_changes, results_without_changes};
pub use self::holders::{Holder, SessionHold};
pub use self::restore::RestoreRefusal;

/// Files larger than this are not copied into a snapshot (they are named in it instead).
pub const DEFAULT_SIZE_CAP: u64 = 10 * 1024 * 1024;
/// Checkpoints older than this are dropped when a store is opened.
pub const RETENTION_DAYS: i64 = 30;
/// At most this many records are kept per project (oldest dropped first).
pub const MAX_RECORDS: usize = 20_000;
/// Past this size of stored snapshots, the oldest half of a project's checkpoints is dropped.
pub const MAX_STORE_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// The longest diff text handed out.
const PATCH_LIMIT: usize = 2 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("{path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{command} failed: {message}")]
    Git { command: String, message: String },
    #[error("could not read the project: {0}")]
    Scan(String),
    #[error("there is no checkpoint `{0}` in this project")]
    UnknownCheckpoint(String),
    #[error("`{0}` names more than one checkpoint; give more of its id")]
    AmbiguousCheckpoint(String),
    #[error("you stopped Warden's look at the project's files, so checkpoints are off until the project is opened again")]
    Stopped,
    #[error(transparent)]
    Refused(#[from] RestoreRefusal),
    #[error(
        "the restore put back all but {} file(s) (checkpoint {undo} undoes what it did): {}",
        .failed.len(),
        .failed.iter().map(|(path, why)| format!("{path}: {why}")).collect::<Vec<_>>().join("; ")
    )]
    PartlyRestored { undo: String, failed: Vec<(String, String)> },
}

impl CheckpointError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io { path: path.to_path_buf(), source }
    }
}

/// What a checkpoint precedes, and where in a conversation.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    pub conversation_id: Option<String>,
    pub message_id: Option<String>,
    pub tool_id: Option<String>,
    pub tool_name: Option<String>,
}

/// The checkpoint store of one project.
pub struct CheckpointStore {
    dir: PathBuf,
    git: Git,
    objects: ObjectWriter,
    log: Log,
    journal: Journal,
    borrowing: Borrowing,
    workspace: Arc<Workspace>,
    size_cap: u64,
    /// Whether a first snapshot may take blob ids from the project's git index.
    borrow: bool,
    progress: ScanProgress,
    /// Whether a watcher may vouch for what did not change (off: every snapshot scans).
    watch: bool,
    state: Mutex<State>,
}

impl std::fmt::Debug for CheckpointStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckpointStore").field("dir", &self.dir).finish_non_exhaustive()
    }
}

#[derive(Default)]
struct State {
    /// Watches the folders of the last full scan; `None` until one ran (or where there is none).
    watcher: Option<Watcher>,
    /// The last recorded snapshot, as this process knows it, and the log's length then.
    head: Option<Head>,
    log_len: u64,
    /// Files over the cap in the current state.
    skipped: BTreeSet<String>,
    /// Files that could not be read in the current state, with why.
    left_out: BTreeMap<String, String>,
    /// The last snapshot this process took, and its tree (`None` until a full scan).
    snapshot: Option<(Snapshot, String)>,
    /// What the full scans need not read again (loaded at the first one).
    stats: Option<StatCache>,
}

#[derive(Debug, Clone)]
struct Head {
    tree: String,
}

/// A snapshot just taken.
#[derive(Debug, Clone)]
pub struct Taken {
    pub id: String,
    /// Files that differ from the snapshot before it.
    pub changed: u32,
    tree: String,
}

impl CheckpointStore {
    /// Open (making it if needed) the store in `dir` for the project `workspace` is over.
    pub fn open(dir: &Path, workspace: Arc<Workspace>) -> Result<Self, CheckpointError> {
        std::fs::create_dir_all(dir).map_err(|e| CheckpointError::io(dir, e))?;
        let git = Git::new(dir.join("git"));
        let store = Self {
            dir: dir.to_path_buf(),
            log: Log::new(dir.join("checkpoints.jsonl")),
            objects: ObjectWriter::new(git.git_dir()),
            journal: Journal::new(dir.join("restore-journal")),
            borrowing: Borrowing::new(dir, git.git_dir()),
            git,
            workspace,
            size_cap: DEFAULT_SIZE_CAP,
            borrow: true,
            progress: ScanProgress::default(),
            watch: true,
            state: Mutex::new(State::default()),
        };
        {
            let _lock = store.lock_store()?;
            store.git.init()?;
            // Staging names a killed restore left in the project.
            store.journal.recover(&store.workspace);
        }
        Ok(store)
    }

    /// Where the store lives.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub fn with_size_cap(mut self, size_cap: u64) -> Self {
        self.size_cap = size_cap;
        self
    }

    /// How long one git of the store may run before it is stopped.
    pub fn with_git_time_limit(mut self, limit: std::time::Duration) -> Self {
        self.git = self.git.with_time_limit(limit);
        self
    }

    /// Every snapshot looks at every file (the fallback when no watcher can vouch): for
    /// measuring it, and for checking it agrees with the watcher.
    pub fn without_watcher(mut self) -> Self {
        self.watch = false;
        self
    }

    /// A first snapshot reads and stores every file, even where the project's git index could
    /// vouch for it: for measuring it, and for checking both give the same trees.
    pub fn without_borrowing(mut self) -> Self {
        self.borrow = false;
        self
    }

    /// Files looked at by the full scan running now (the first look at the project, or one the
    /// watcher could not spare); `None` when none runs.
    pub fn scanning(&self) -> Option<u32> {
        self.progress.running()
    }

    /// The user's stop: the scan running now ends without a snapshot, and no checkpoint is taken
    /// in this project until it is opened again (each call that changes files asks first).
    pub fn stop_scanning(&self) {
        self.progress.stop();
    }

    /// Whether the user stopped the look at the project.
    pub fn scanning_stopped(&self) -> bool {
        self.progress.stopped()
    }

    /// Look at every file once (and start watching), without recording anything: what a session
    /// does when it starts, so its first checkpoint costs what the later ones do.
    pub fn prime(&self) {
        let primed = self.lock_store().and_then(|_lock| self.snapshot(&mut self.state()));
        if let Err(error) = primed {
            tracing::warn!(%error, "could not look at the project for checkpoints");
        }
    }

    /// Snapshot the project now and record it as the checkpoint before what `origin` names.
    pub fn checkpoint(&self, origin: &Origin) -> Result<Taken, CheckpointError> {
        self.record(RecordKind::Tool, origin, None)
    }

    /// Snapshot the project at the end of a turn.
    pub fn turn_end(&self, origin: &Origin) -> Result<Taken, CheckpointError> {
        self.record(RecordKind::TurnEnd, origin, None)
    }

    /// A checkpoint the user asked for.
    pub fn manual(&self) -> Result<Taken, CheckpointError> {
        self.record(RecordKind::Manual, &Origin::default(), None)
    }

    /// Snapshot the project after the call checkpoint `before` preceded; what the call changed.
    pub fn after(&self, before: &Taken, origin: &Origin) -> Result<Vec<FileChange>, CheckpointError> {
        let after = self.record(RecordKind::After, origin, Some(&before.id))?;
        changes::between(&self.git, &before.tree, &after.tree)
    }

    /// Every checkpoint, oldest first (of one conversation, when given).
    pub fn list(&self, conversation: Option<&str>) -> Result<Vec<CheckpointInfo>, CheckpointError> {
        let records = self.log.read()?;
        Ok(log::listed(&records)
            .into_iter()
            .filter(|c| conversation.is_none_or(|id| c.conversation_id.as_deref() == Some(id)))
            .collect())
    }

    /// What differs between checkpoint `from` and checkpoint `to` (the project as it is now when
    /// `to` is `None`).
    pub fn changes(&self, from: &str, to: Option<&str>) -> Result<Vec<FileChange>, CheckpointError> {
        let (from, to) = self.trees(from, to)?;
        changes::between(&self.git, &from, &to)
    }

    /// The unified diff between two checkpoints (or one and now), of one file when `path` is given.
    pub fn patch(&self, from: &str, to: Option<&str>, path: Option<&str>) -> Result<String, CheckpointError> {
        let (from, to) = self.trees(from, to)?;
        changes::patch(&self.git, &from, &to, path, PATCH_LIMIT)
    }

    /// Held (shared) while a turn or a tool call runs in this project: a restore waits for none.
    pub fn turn_guard(&self) -> Result<File, CheckpointError> {
        let file = self.lock_file("turn.lock")?;
        file.lock_shared().map_err(|e| CheckpointError::io(&self.dir.join("turn.lock"), e))?;
        Ok(file)
    }

    fn trees(&self, from: &str, to: Option<&str>) -> Result<(String, String), CheckpointError> {
        let records = self.log.read()?;
        let from = find(&records, from)?.tree.clone();
        let to = match to {
            Some(id) => find(&records, id)?.tree.clone(),
            None => {
                let _lock = self.lock_store()?;
                let mut state = self.state();
                self.snapshot(&mut state)?
            }
        };
        Ok((from, to))
    }

    /// Take a snapshot and append its record.
    fn record(
        &self,
        kind: RecordKind,
        origin: &Origin,
        after: Option<&str>,
    ) -> Result<Taken, CheckpointError> {
        let _lock = self.lock_store()?;
        let mut state = self.state();
        let tree = self.snapshot(&mut state)?;
        self.append(&mut state, kind, origin, after, tree)
    }

    fn append(
        &self,
        state: &mut State,
        kind: RecordKind,
        origin: &Origin,
        after: Option<&str>,
        tree: String,
    ) -> Result<Taken, CheckpointError> {
        let id = uuid::Uuid::new_v4().simple().to_string()[..12].to_owned();
        let changed = match &state.head {
            Some(head) if head.tree == tree => 0,
            previous => {
                self.keep_reachable(&id, &tree)?;
                match previous {
                    Some(head) => changes::count(&self.git, &head.tree, &tree)?,
                    None => 0,
                }
            }
        };
        let record = Record {
            id: id.clone(),
            created_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            tree: tree.clone(),
            kind,
            after: after.map(str::to_owned),
            conversation_id: origin.conversation_id.clone(),
            message_id: origin.message_id.clone(),
            tool_id: origin.tool_id.clone(),
            tool_name: origin.tool_name.clone(),
            changed_since_previous: changed,
            skipped: state.skipped.iter().cloned().collect(),
            left_out: left_out_list(&state.left_out),
        };
        self.log.append(&record)?;
        state.head = Some(Head { tree });
        state.log_len = self.log_len();
        Ok(Taken { id, changed, tree: record.tree })
    }

    /// A ref per new snapshot (to its tree: no commit is needed), so that git's housekeeping
    /// never drops a kept snapshot.
    fn keep_reachable(&self, id: &str, tree: &str) -> Result<(), CheckpointError> {
        let refs = self.git.git_dir().join("refs").join("checkpoints");
        std::fs::create_dir_all(&refs).map_err(|e| CheckpointError::io(&refs, e))?;
        let path = refs.join(id);
        std::fs::write(&path, format!("{tree}\n")).map_err(|e| CheckpointError::io(&path, e))
    }

    fn log_len(&self) -> u64 {
        std::fs::metadata(self.log.path()).map(|m| m.len()).unwrap_or(0)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn lock_file(&self, name: &str) -> Result<File, CheckpointError> {
        let path = self.dir.join(name);
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| CheckpointError::io(&path, e))
    }

    /// One process at a time works on the store (and the gits it starts hold the lock with it).
    fn lock_store(&self) -> Result<StoreLock<'_>, CheckpointError> {
        let file = self.lock_file("store.lock")?;
        file.lock().map_err(|e| CheckpointError::io(&self.dir.join("store.lock"), e))?;
        #[cfg(unix)]
        self.git.hold(std::os::fd::AsRawFd::as_raw_fd(&file));
        Ok(StoreLock { _file: file, git: &self.git })
    }
}

/// The store's lock, held until dropped.
struct StoreLock<'a> {
    _file: File,
    git: &'a Git,
}

impl Drop for StoreLock<'_> {
    fn drop(&mut self) {
        self.git.release();
    }
}

/// The record `id` names: the whole id or an unambiguous prefix of at least four characters.
fn find<'a>(records: &'a [Record], id: &str) -> Result<&'a Record, CheckpointError> {
    if let Some(exact) = records.iter().find(|r| r.id == id) {
        return Ok(exact);
    }
    if id.len() < 4 {
        return Err(CheckpointError::UnknownCheckpoint(id.to_owned()));
    }
    let mut matching = records.iter().filter(|r| r.kind != RecordKind::After && r.id.starts_with(id));
    match (matching.next(), matching.next()) {
        (Some(one), None) => Ok(one),
        (Some(_), Some(_)) => Err(CheckpointError::AmbiguousCheckpoint(id.to_owned())),
        _ => Err(CheckpointError::UnknownCheckpoint(id.to_owned())),
    }
}

/// The files left out of a snapshot, as a record lists them.
fn left_out_list(left_out: &BTreeMap<String, String>) -> Vec<LeftOutFile> {
    left_out.iter().map(|(path, reason)| LeftOutFile { path: path.clone(), reason: reason.clone() }).collect()
}
