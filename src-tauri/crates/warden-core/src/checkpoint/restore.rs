//! Putting the project back as a checkpoint recorded it: the whole project or some paths. The
//! state before the restore is recorded first, so a restore can itself be undone; a file someone
//! else changed since Warden's last snapshot is not overwritten unless the caller insists.

use std::collections::BTreeSet;
use std::fs::TryLockError;
use std::path::Path;

use warden_protocol::{ChangeStatus, FileChange, RestoreReport};

use super::log::RecordKind;
use super::{changes, find, native, CheckpointError, CheckpointStore, Origin};

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
}

impl CheckpointStore {
    /// Put the project (or only `paths`, files or folders relative to the project root) back to
    /// the state checkpoint `id` recorded. Without `force`, refuses when a file it would change
    /// was changed since Warden's last snapshot by someone else, or is over the size cap now.
    pub fn restore(&self, id: &str, paths: &[String], force: bool) -> Result<RestoreReport, CheckpointError> {
        let _turn = self.no_turn_running()?;
        let _lock = self.lock_store()?;
        let mut state = self.state();
        let records = self.log.read()?;
        let target = find(&records, id)?.clone();
        let known = records.last().map(|r| r.tree.clone());
        let now = self.snapshot(&mut state)?;
        let prefixes: Vec<String> =
            paths.iter().map(|p| normalize(self.workspace.project_root(), p)).collect();
        let wanted = |path: &str| {
            prefixes.is_empty()
                || prefixes.iter().any(|p| p.is_empty() || path == p || path.starts_with(&format!("{p}/")))
        };
        let apply: Vec<FileChange> = changes::between(&self.git, &now, &target.tree)?
            .into_iter()
            .filter(|c| wanted(&c.path))
            .collect();
        if !force {
            let outside: BTreeSet<String> = match &known {
                Some(known) => {
                    changes::between(&self.git, known, &now)?.into_iter().map(|c| c.path).collect()
                }
                None => BTreeSet::new(),
            };
            let touched: BTreeSet<String> = apply
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
        let applied = self.apply(&target.tree, &apply);
        // Whatever happened, the state after is recorded (what a partial restore left included).
        let after = self
            .snapshot(&mut state)
            .and_then(|tree| self.append(&mut state, RecordKind::After, &origin, Some(&undo.id), tree));
        applied?;
        after?;
        Ok(RestoreReport { restored: target.id, undo_checkpoint_id: undo.id, files: apply })
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

    /// Write the files of `tree` that `apply` names, and remove those it does not hold.
    fn apply(&self, tree: &str, apply: &[FileChange]) -> Result<(), CheckpointError> {
        let root_path = self.workspace.project_root();
        let root = cap_std::fs::Dir::open_ambient_dir(root_path, cap_std::ambient_authority())
            .map_err(|e| CheckpointError::io(root_path, e))?;
        for change in apply.iter().filter(|c| c.status == ChangeStatus::Deleted) {
            let path = native(&change.path);
            match root.remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(CheckpointError::io(&root_path.join(&path), e)),
            }
            // Folders the removal emptied go too (git keeps no folders; the snapshot had none).
            let mut parent = path.parent();
            while let Some(dir) = parent.filter(|d| !d.as_os_str().is_empty()) {
                if root.remove_dir(dir).is_err() {
                    break;
                }
                parent = dir.parent();
            }
        }
        let written: Vec<&[u8]> =
            apply.iter().filter(|c| c.status != ChangeStatus::Deleted).map(|c| c.path.as_bytes()).collect();
        if written.is_empty() {
            return Ok(());
        }
        let index = self.git.git_dir().join("restore.index");
        let _ = std::fs::remove_file(&index);
        // A throw-away index: not split (no shared index file left behind for it).
        let mut read = self.git.command(&["-c", "core.splitIndex=false", "read-tree", tree]);
        read.env("GIT_INDEX_FILE", &index);
        self.git.run_with(read, &["read-tree"], None)?;
        let mut checkout =
            self.git.command(&["-c", "core.splitIndex=false", "checkout-index", "-f", "-z", "--stdin"]);
        checkout.env("GIT_INDEX_FILE", &index);
        let result = self.git.run_with(checkout, &["checkout-index"], Some(&super::git::nul_list(written)));
        let _ = std::fs::remove_file(&index);
        result.map(|_| ())
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
