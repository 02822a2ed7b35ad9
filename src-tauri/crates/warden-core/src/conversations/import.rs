//! The conversations an older Warden kept as `conversations/<id>.json` files, brought into the
//! store once. A file is moved to `conversations/imported/` only after the store has been read
//! back and holds exactly its messages and title; a file that cannot be read, or whose import does
//! not read back the same, stays where it is (and is tried again at the next start).

use std::path::{Path, PathBuf};

use rusqlite::{params, OptionalExtension};
use warden_protocol::Message;

use super::legacy::{self, HistoryFile};
use super::{insert_row, lock, remove_conversation, text, ConversationStore, StoreError};

/// The folder, under the conversations folder, that imported files are moved to.
pub const IMPORTED_DIR: &str = "imported";

/// What an import did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ImportReport {
    pub imported: usize,
    /// Files left where they were (unreadable, or not the same when read back).
    pub kept: Vec<PathBuf>,
}

/// Imports every `<id>.json` in `dir` whose name `is_id` accepts. A conversation the store already
/// holds is replaced only when the file changed after it (an older Warden went on with it).
pub fn import_json_files(
    store: &ConversationStore,
    dir: &Path,
    is_id: impl Fn(&str) -> bool,
) -> ImportReport {
    let mut report = ImportReport::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return report,
        Err(error) => {
            tracing::warn!(%error, dir = %dir.display(), "could not look for conversation files to import");
            return report;
        }
    };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let Some(id) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".json")) else {
            continue;
        };
        if !is_id(id) || !path.is_file() {
            continue;
        }
        match import_one(store, id, &path) {
            Ok(()) => report.imported += 1,
            Err(error) => {
                tracing::warn!(%error, path = %path.display(), "conversation file not imported; left in place");
                report.kept.push(path);
            }
        }
    }
    if report.imported > 0 {
        tracing::info!(imported = report.imported, kept = report.kept.len(), "conversation files imported");
    }
    report
}

#[derive(Debug, thiserror::Error)]
enum ImportError {
    #[error(transparent)]
    Read(#[from] legacy::ReadError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the store does not read back what the file holds")]
    Mismatch,
    #[error("could not move the imported file: {0}")]
    Move(std::io::Error),
}

fn import_one(store: &ConversationStore, id: &str, path: &Path) -> Result<(), ImportError> {
    let file = legacy::read(path)?;
    let modified = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::SystemTime::UNIX_EPOCH).ok())
        .map_or_else(super::now_ms, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    let newer_in_store =
        store.summary(id)?.is_some_and(|s| i64::try_from(s.updated_at_ms).unwrap_or(0) >= modified);
    if !newer_in_store {
        replace(store, id, &file, modified)?;
        let back = store.messages(id)?;
        let title = store.summary(id)?.map(|s| s.title);
        let same_title = file.title.as_ref().is_none_or(|t| title.as_ref() == Some(t));
        if back != file.messages || !same_title {
            return Err(ImportError::Mismatch);
        }
    }
    let imported = path.with_file_name(IMPORTED_DIR);
    std::fs::create_dir_all(&imported).map_err(ImportError::Move)?;
    std::fs::rename(path, imported.join(format!("{id}.json"))).map_err(ImportError::Move)
}

/// Puts the file's conversation in the store whole, in place of any conversation of that id.
fn replace(store: &ConversationStore, id: &str, file: &HistoryFile, modified: i64) -> Result<(), StoreError> {
    let auto_title = file.messages.iter().find_map(text::title_from).unwrap_or_default();
    let root = file.project_root.as_deref().map(|p| p.to_string_lossy().into_owned());
    let mut conn = lock(&store.writer);
    let tx = conn.transaction()?;
    let old: Option<i64> =
        tx.query_row("SELECT num FROM conversations WHERE id = ?1", [id], |row| row.get(0)).optional()?;
    if let Some(num) = old {
        remove_conversation(&tx, num)?;
    }
    let count = i64::try_from(file.messages.len()).unwrap_or(i64::MAX);
    tx.execute(
        "INSERT INTO conversations (id, title, auto_title, project_root, created_at_ms, updated_at_ms, message_count) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6)",
        params![id, file.title, auto_title, root, modified, count],
    )?;
    let conversation = tx.last_insert_rowid();
    for (seq, message) in file.messages.iter().enumerate() {
        insert_message(&tx, conversation, seq, message, modified)?;
    }
    tx.execute(
        "INSERT INTO titles_fts (rowid, title) SELECT num, coalesce(title, auto_title) FROM conversations WHERE num = ?1",
        [conversation],
    )?;
    tx.commit()?;
    Ok(())
}

fn insert_message(
    tx: &rusqlite::Transaction<'_>,
    conversation: i64,
    seq: usize,
    message: &Message,
    at: i64,
) -> Result<(), StoreError> {
    let body = serde_json::to_string(message)?;
    let role = serde_json::to_value(message.role)?;
    let seq = i64::try_from(seq).unwrap_or(i64::MAX);
    let num = insert_row(tx, conversation, seq, role.as_str().unwrap_or("user"), &body, at, None)?;
    tx.prepare_cached("INSERT INTO messages_fts (rowid, text) VALUES (?1, ?2)")?
        .execute(params![num, text::searchable(message)])?;
    Ok(())
}
