//! A conversation's history on disk, so a conversation survives the app's restart. Written whole
//! and atomically after every turn; a file that cannot be read is kept aside, never overwritten.

use std::path::Path;

use warden_protocol::Message;

use crate::config::{write_atomic, ConfigError};

/// The stored history, or an empty one when there is none yet. An unreadable file is moved
/// aside (`.invalid`) so the next save cannot destroy what it held.
pub fn load(path: &Path) -> Result<Vec<Message>, ConfigError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => return Err(ConfigError::Read { path: path.to_path_buf(), source }),
    };
    match serde_json::from_slice(&bytes) {
        Ok(history) => Ok(history),
        Err(error) => {
            let aside = path.with_extension("json.invalid");
            tracing::warn!(%error, path = %path.display(), "conversation file unreadable; starting empty");
            std::fs::rename(path, &aside).map_err(|source| ConfigError::Write { path: aside, source })?;
            Ok(Vec::new())
        }
    }
}

pub fn save(path: &Path, history: &[Message]) -> Result<(), ConfigError> {
    let json = serde_json::to_vec(history)?;
    write_atomic(path, &json).map_err(|source| ConfigError::Write { path: path.to_path_buf(), source })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_a_missing_file_is_an_empty_history() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("conversations/c1.json");
        assert!(load(&path).unwrap().is_empty());
        let history = vec![Message::user_text("hi"), Message::user_text("again")];
        save(&path, &history).unwrap();
        assert_eq!(load(&path).unwrap(), history);
    }

    #[test]
    fn an_unreadable_file_is_kept_aside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c1.json");
        std::fs::write(&path, "[{broken").unwrap();
        assert!(load(&path).unwrap().is_empty());
        assert_eq!(std::fs::read_to_string(dir.path().join("c1.json.invalid")).unwrap(), "[{broken");
    }
}
