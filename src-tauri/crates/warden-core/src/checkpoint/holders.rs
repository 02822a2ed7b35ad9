//! Which Warden processes have a session open in the project, so a restore started elsewhere (the
//! command line, while the window works in the project) refuses and says who, instead of putting
//! files back under a turn it cannot see. Each session keeps a small file in the store's
//! `sessions/` folder, locked for as long as it lives: the lock, not the file, says it is alive
//! (a killed process loses its lock; its file is then removed by whoever looks next).

use std::fs::{File, TryLockError};
use std::io::Write;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{CheckpointError, CheckpointStore};

/// A session of the project in some Warden process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Holder {
    pub pid: u32,
    /// The conversation it is working in.
    pub conversation_id: String,
    /// Since when (RFC 3339).
    pub since: String,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Warden (process {}) has conversation {} open in this project",
            self.pid, self.conversation_id
        )
    }
}

/// This process's mark that a session works in the project; gone when dropped.
#[derive(Debug)]
pub struct SessionHold {
    path: PathBuf,
    _file: File,
}

impl Drop for SessionHold {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

impl CheckpointStore {
    /// Mark that a session of this process works in the project, in conversation `conversation`.
    pub fn hold_session(&self, conversation: &str) -> Result<SessionHold, CheckpointError> {
        let dir = self.dir.join("sessions");
        std::fs::create_dir_all(&dir).map_err(|e| CheckpointError::io(&dir, e))?;
        let holder = Holder {
            pid: std::process::id(),
            conversation_id: conversation.to_owned(),
            since: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        };
        let path = dir.join(format!("{}-{}.json", holder.pid, uuid::Uuid::new_v4().simple()));
        let mut file = File::create_new(&path).map_err(|e| CheckpointError::io(&path, e))?;
        file.try_lock().map_err(|e| CheckpointError::io(&path, std::io::Error::other(e.to_string())))?;
        let text = serde_json::to_vec(&holder).unwrap_or_default();
        file.write_all(&text).map_err(|e| CheckpointError::io(&path, e))?;
        Ok(SessionHold { path, _file: file })
    }

    /// The sessions other Warden processes have open in the project now.
    pub fn sessions_elsewhere(&self) -> Vec<Holder> {
        let dir = self.dir.join("sessions");
        let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
        let own = std::process::id();
        let mut holders = Vec::new();
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            let Ok(file) = File::open(&path) else { continue };
            match file.try_lock_shared() {
                // Nobody holds it: its process is gone.
                Ok(()) => {
                    let _ = std::fs::remove_file(&path);
                }
                Err(TryLockError::WouldBlock) => {
                    let holder =
                        std::fs::read(&path).ok().and_then(|b| serde_json::from_slice::<Holder>(&b).ok());
                    if let Some(holder) = holder.filter(|h| h.pid != own) {
                        holders.push(holder);
                    }
                }
                Err(TryLockError::Error(_)) => {}
            }
        }
        holders.sort_by(|a, b| (a.pid, &a.conversation_id).cmp(&(b.pid, &b.conversation_id)));
        holders
    }
}
