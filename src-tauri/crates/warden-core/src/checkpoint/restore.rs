//! Putting the project back as a checkpoint recorded it: the whole project or some paths. The
//! state before the restore is recorded first, so a restore can itself be undone; a file someone
//! else changed since Warden's last snapshot is not overwritten unless the caller insists. Files
//! are written back through the project's handles (`write_back.rs`), never by a git.

use std::collections::BTreeSet;
use std::fs::TryLockError;
use std::path::Path;

use warden_protocol::{FileChange, RestoreReport};

use super::changes::{self, RawChange};
use super::log::RecordKind;
use super::objects::CatFile;
use super::write_back::WriteBack;
use super::{find, CheckpointError, CheckpointStore, Origin};

/// How long a restore waits for a turn lock that is still held before it refuses.
const TURN_LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_millis(1500);

/// Why a restore did not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RestoreRefusal {
    #[error("a turn is running in this project: restore once it has ended")]
    TurnRunning,
    #[error(
        "changed since Warden's last checkpoint by something other than Warden, and the restore \
         would overwrite them: {}",
        .0.join(", ")
    )]
    ChangedOutside(Vec<String>),
    #[error(
        "the project as it is now could not be looked at ({0}), so a restore could overwrite changes \
         made since the last checkpoint; restore anyway to go on without that check"
    )]
    NotLooked(String),
    #[error(
        "{}: restore from there, or close it first (a restore here could put files back under a \
         turn it cannot see)",
        .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
    )]
    SessionElsewhere(Vec<super::Holder>),
}

impl CheckpointStore {
    /// Put the project (or only `paths`, files or folders relative to the project root) back to
    /// the state checkpoint `id` recorded. Without `force`, refuses when a file it would change
    /// was changed since Warden's last snapshot by someone else, or is over the size cap now.
    pub fn restore(&self, id: &str, paths: &[String], force: bool) -> Result<RestoreReport, CheckpointError> {
        // Another Warden's session is named (its turn may be running or not); this process's own
        // sessions are the caller's to stop.
        let elsewhere = self.sessions_elsewhere();
        if !elsewhere.is_empty() {
            return Err(RestoreRefusal::SessionElsewhere(elsewhere).into());
        }
        let _turn = self.no_turn_running()?;
        let _lock = self.lock_store()?;
        let mut state = self.state();
        let records = self.log.read()?;
        let target = find(&records, id)?.clone();
        let Some(known) = records.last().map(|r| r.tree.clone()) else {
            return Err(CheckpointError::UnknownCheckpoint(id.to_owned()));
        };
        // The project as it is now. A restore does not depend on it: without it, the last
        // checkpoint stands for it (the user insisted), and the report says so.
        let (now, warning) = match self.snapshot(&mut state) {
            Ok(now) => (now, None),
            Err(error) if force => (
                known.clone(),
                Some(format!(
                    "The project as it was just before this restore could not be recorded ({error}); \
                     undoing it goes back to the last checkpoint instead."
                )),
            ),
            Err(error) => return Err(RestoreRefusal::NotLooked(error.to_string()).into()),
        };
        let wanted = Wanted::new(self.workspace.project_root(), paths);
        let shown: Vec<FileChange> = changes::between(&self.git, &now, &target.tree)?
            .into_iter()
            .filter(|c| wanted.covers(c.path.as_bytes()))
            .collect();
        let apply: Vec<RawChange> = changes::raw_between(&self.git, &now, &target.tree)?
            .into_iter()
            .filter(|c| wanted.covers(&c.path))
            .collect();
        if !force {
            let outside: BTreeSet<String> =
                changes::between(&self.git, &known, &now)?.into_iter().map(|c| c.path).collect();
            let touched: BTreeSet<String> = shown
                .iter()
                .filter(|c| outside.contains(&c.path) || state.skipped.contains(&c.path))
                .map(|c| c.path.clone())
                .collect();
            if !touched.is_empty() {
                return Err(RestoreRefusal::ChangedOutside(touched.into_iter().collect()).into());
            }
        }
        let origin = Origin { tool_name: Some(format!("restore {}", target.id)), ..Origin::default() };
        let undo = self.append(&mut state, RecordKind::Restore, &origin, None, now)?;
        let not_restored = self.write_back(&apply);
        // Whatever happened, the state after is recorded (what a partial restore left included).
        let after = self
            .snapshot(&mut state)
            .and_then(|tree| self.append(&mut state, RecordKind::After, &origin, Some(&undo.id), tree));
        let not_restored = not_restored?;
        if !not_restored.is_empty() {
            return Err(CheckpointError::PartlyRestored { undo: undo.id, failed: not_restored });
        }
        after?;
        Ok(RestoreReport { restored: target.id, undo_checkpoint_id: undo.id, files: shown, warning })
    }

    /// What restoring `paths` (all files when empty) of checkpoint `id` would change now, as the
    /// files will differ from what they are: nothing is written.
    pub fn preview(&self, id: &str, paths: &[String]) -> Result<Vec<FileChange>, CheckpointError> {
        let _lock = self.lock_store()?;
        let mut state = self.state();
        let target = find(&self.log.read()?, id)?.tree.clone();
        let now = self.snapshot(&mut state)?;
        let wanted = Wanted::new(self.workspace.project_root(), paths);
        Ok(changes::between(&self.git, &now, &target)?
            .into_iter()
            .filter(|c| wanted.covers(c.path.as_bytes()))
            .collect())
    }

    /// The turn lock, held exclusively: no turn or tool call runs in the project meanwhile. A turn
    /// that just ended may still hold it for a moment (a process forked elsewhere in Warden keeps
    /// a copy of the lock until it starts its program), so this waits briefly before refusing.
    fn no_turn_running(&self) -> Result<std::fs::File, CheckpointError> {
        let path = self.dir.join("turn.lock");
        let turn = self.lock_file("turn.lock")?;
        let deadline = std::time::Instant::now() + TURN_LOCK_PATIENCE;
        loop {
            match turn.try_lock() {
                Ok(()) => return Ok(turn),
                Err(TryLockError::WouldBlock) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                Err(TryLockError::WouldBlock) => return Err(RestoreRefusal::TurnRunning.into()),
                Err(TryLockError::Error(e)) => return Err(CheckpointError::io(&path, e)),
            }
        }
    }

    /// Write back what `apply` names, through the project's handles (see `write_back.rs`); the
    /// files that could not be, each with why.
    fn write_back(&self, apply: &[RawChange]) -> Result<Vec<(String, String)>, CheckpointError> {
        if apply.is_empty() {
            return Ok(Vec::new());
        }
        let mut cat =
            CatFile::start(self.git.command_unheld(&["cat-file", "--batch"]), self.git.time_limit())?;
        let writer = WriteBack::new(&self.workspace, &self.journal)?;
        let failed = writer.apply(&mut cat, apply);
        self.journal.clear();
        Ok(failed.into_iter().map(|f| (f.path, f.reason)).collect())
    }
}

/// The files and folders a restore is limited to (none: the whole project).
struct Wanted(Vec<String>);

impl Wanted {
    fn new(root: &Path, paths: &[String]) -> Self {
        Self(paths.iter().map(|p| normalize(root, p)).collect())
    }

    /// Whether the git path `path` is among them (or below one).
    fn covers(&self, path: &[u8]) -> bool {
        self.0.is_empty()
            || self.0.iter().any(|p| {
                p.is_empty()
                    || path == p.as_bytes()
                    || (path.starts_with(p.as_bytes()) && path.get(p.len()) == Some(&b'/'))
            })
    }
}

/// A path as the user gave it, relative to the project root and `/`-separated.
fn normalize(root: &Path, raw: &str) -> String {
    let path = Path::new(raw);
    let relative = path.strip_prefix(root).unwrap_or(path);
    let text = relative.to_string_lossy().replace('\\', "/");
    let mut text = text.trim_start_matches("./").trim_end_matches('/').to_owned();
    if text == "." {
        text.clear();
    }
    text
}
