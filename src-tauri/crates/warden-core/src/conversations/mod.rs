//! The conversation store: every saved conversation in one SQLite database under Warden's data
//! folder (`conversations.db`), one row per message, written as each message completes. A crash
//! or a `kill -9` loses at most the message in flight; nothing is ever rewritten whole.
//!
//! The database is in WAL mode with `synchronous=NORMAL`: a committed message survives the
//! process dying at any point (it may not survive the machine losing power in the next moment,
//! which is the trade every desktop app's store makes). A window and a `warden exec` can use it at
//! once; one waits up to five seconds for the other's write.
//!
//! Reads go through their own connection, so a search never holds up a turn's write.
//!
//! A conversation is only ever written to by whoever read it whole: a message is saved at the
//! position after the last one saved (or replaces the last, a user message that grew), and a write
//! that would skip a position or land before saved messages is refused
//! ([`StoreError::Diverged`]), never a reason to drop them. A row that cannot be read (a newer
//! Warden's message in a form this build does not know, a damaged page) makes the conversation
//! unreadable as a whole ([`ConversationStore::messages`]), and what can be read of it is shown
//! read-only ([`ConversationStore::read_back`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use rusqlite::{params, Connection, OptionalExtension, Transaction};
use warden_protocol::Message;

mod compactions;
mod import;
mod legacy;
pub mod read;
mod schema;
mod search;
#[cfg(test)]
mod tests;
pub mod text;
mod usage;

pub use compactions::Compaction;
pub use import::import_json_files;
pub use read::{ReadBack, StoredRow};
pub use schema::SCHEMA_VERSION;
pub use search::MAX_HITS as MAX_SEARCH_HITS;

/// The database's file name under Warden's data folder (named with Warden's other files).
pub use crate::config::STORE_FILE;
/// How long a deleted conversation can still be brought back (the window's "Undo").
pub const UNDO_DELETE: Duration = Duration::from_secs(60);
/// How long a read or a write waits for another process's write (a window and a `warden exec`
/// share the store) before it fails.
pub const BUSY_WAIT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("could not open the conversation store {path}: {source}")]
    Open { path: PathBuf, source: rusqlite::Error },
    #[error(
        "the conversation store was made by a newer Warden (layout {found}; this build knows up to \
{known}): update Warden to open it"
    )]
    Newer { found: u32, known: u32 },
    #[error("the conversation store: {}", in_words(.0))]
    Sql(#[from] rusqlite::Error),
    #[error("a stored message could not be read or written: {0}")]
    Json(#[from] serde_json::Error),
    /// A saved message could not be read: the conversation cannot be read whole.
    #[error("message {position} cannot be read ({reason})")]
    Unreadable {
        /// From 1, as people count.
        position: usize,
        reason: String,
    },
    /// A write that does not follow the saved conversation: it would skip positions, or land
    /// before messages this writer never read (another face went on with the conversation).
    #[error(
        "the saved conversation has {saved} messages, and this one was to be message {}: it was \
changed elsewhere (another Warden went on with it), so this message is not saved over it",
        .position + 1
    )]
    Diverged { position: usize, saved: usize },
    #[error("could not make the folder {path}: {source}")]
    Folder { path: PathBuf, source: std::io::Error },
}

/// The saved conversations. Cheap to share behind an `Arc`; every method is blocking (SQLite),
/// each a few hundred microseconds at most for a write.
pub struct ConversationStore {
    path: PathBuf,
    writer: Mutex<Connection>,
    reader: Mutex<Connection>,
}

impl std::fmt::Debug for ConversationStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConversationStore").field("path", &self.path).finish_non_exhaustive()
    }
}

fn lock(conn: &Mutex<Connection>) -> MutexGuard<'_, Connection> {
    conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

fn seq_value(seq: usize) -> i64 {
    i64::try_from(seq).unwrap_or(i64::MAX)
}

impl ConversationStore {
    /// Opens (making it when missing, upgrading an older layout) the store at `path`. A file there
    /// that is not a database is moved aside (`.invalid`), never overwritten; deleted
    /// conversations past their undo time are removed for good.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|source| StoreError::Folder { path: parent.to_path_buf(), source })?;
        }
        let writer = match open_writer(path) {
            Err(StoreError::Open { source, .. } | StoreError::Sql(source)) if is_not_a_database(&source) => {
                let aside = crate::config::move_aside(path)
                    .map_err(|e| StoreError::Folder { path: path.to_path_buf(), source: e })?;
                tracing::warn!(aside = %aside.display(), "the conversation store was not a database; kept aside, starting a new one");
                open_writer(path)?
            }
            other => other?,
        };
        let reader =
            Connection::open(path).map_err(|source| StoreError::Open { path: path.to_path_buf(), source })?;
        reader.busy_timeout(BUSY_WAIT)?;
        reader.pragma_update(None, "query_only", true)?;
        let store = Self { path: path.to_path_buf(), writer: Mutex::new(writer), reader: Mutex::new(reader) };
        let cutoff = now_ms().saturating_sub(i64::try_from(UNDO_DELETE.as_millis()).unwrap_or(i64::MAX));
        if let Err(error) = store.purge_deleted_before(cutoff) {
            tracing::warn!(%error, "could not remove the deleted conversations");
        }
        Ok(store)
    }

    /// The store of Warden's home, with the conversation files an older Warden kept there
    /// imported (see [`import_json_files`]).
    pub fn open_home(home: &crate::config::WardenHome) -> Result<Self, StoreError> {
        let store = Self::open(&home.store_path())?;
        import_json_files(&store, &home.conversations_dir(), is_conversation_id);
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records `message` as the conversation's message number `seq` (0-based) and its last: after
    /// the last saved message, or in place of it (a user message that grew). Any other position is
    /// refused with [`StoreError::Diverged`] and nothing changes: a writer that did not read the
    /// messages after `seq` never drops them. The conversation is made on its first message, with
    /// the project it is held in.
    pub fn put_message(
        &self,
        id: &str,
        project_root: Option<&Path>,
        seq: usize,
        message: &Message,
    ) -> Result<(), StoreError> {
        self.put_message_by(id, project_root, seq, message, None)
    }

    /// Records what the answer at `seq` cost: the provider's count, or (without one) the context
    /// in use as estimated. A message not saved yet is left alone (nothing to note it on).
    pub fn put_usage(
        &self,
        id: &str,
        seq: usize,
        usage: Option<warden_protocol::Usage>,
        estimated_context: Option<u32>,
    ) -> Result<(), StoreError> {
        let conn = lock(&self.writer);
        conn.prepare_cached(
            "UPDATE messages SET input_tokens = ?3, output_tokens = ?4, estimated_context = ?5 \
             WHERE seq = ?2 AND conversation = (SELECT num FROM conversations WHERE id = ?1)",
        )?
        .execute(params![
            id,
            seq_value(seq),
            usage.map(|u| u.input_tokens),
            usage.map(|u| u.output_tokens),
            estimated_context
        ])?;
        Ok(())
    }

    /// [`ConversationStore::put_message`], noting the model that wrote it (for an answer; a user
    /// message has none). A message replaced keeps the model it was first saved with when given none.
    /// The one write of a conversation's messages besides [`ConversationStore::truncate`].
    pub fn put_message_by(
        &self,
        id: &str,
        project_root: Option<&Path>,
        seq: usize,
        message: &Message,
        model: Option<&str>,
    ) -> Result<(), StoreError> {
        let body = serde_json::to_string(message)?;
        let role = serde_json::to_value(message.role)?;
        let role = role.as_str().unwrap_or("user");
        let text = text::searchable(message);
        let now = now_ms();
        let seq = seq_value(seq);
        let mut conn = lock(&self.writer);
        let tx = conn.transaction()?;
        let conversation = upsert_conversation(&tx, id, project_root, now)?;
        follows_the_saved(&tx, conversation, seq)?;
        let existing: Option<i64> = tx
            .prepare_cached("SELECT num FROM messages WHERE conversation = ?1 AND seq = ?2")?
            .query_row(params![conversation, seq], |row| row.get(0))
            .optional()?;
        let num = match existing {
            Some(num) => {
                tx.prepare_cached(
                    "UPDATE messages SET role = ?2, body = ?3, model = coalesce(?4, model) WHERE num = ?1",
                )?
                .execute(params![num, role, body, model])?;
                tx.prepare_cached("DELETE FROM messages_fts WHERE rowid = ?1")?.execute([num])?;
                num
            }
            None => insert_row(&tx, conversation, seq, role, &body, now, model)?,
        };
        tx.prepare_cached("INSERT INTO messages_fts (rowid, text) VALUES (?1, ?2)")?
            .execute(params![num, text])?;
        tx.prepare_cached("UPDATE conversations SET message_count = ?2, updated_at_ms = ?3 WHERE num = ?1")?
            .execute(params![conversation, seq + 1, now])?;
        if let Some(title) = text::title_from(message) {
            set_auto_title_once(&tx, conversation, &title)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Drops message `seq` and every one after it; `false` when the conversation has no such message.
    pub fn truncate(&self, id: &str, seq: usize) -> Result<bool, StoreError> {
        let mut conn = lock(&self.writer);
        let tx = conn.transaction()?;
        let Some(conversation) = conversation_num(&tx, id)? else { return Ok(false) };
        let seq = seq_value(seq);
        let dropped = drop_messages_from(&tx, conversation, seq)?;
        tx.execute(
            "UPDATE conversations SET message_count = (SELECT count(*) FROM messages WHERE conversation = ?1), \
             updated_at_ms = ?2 WHERE num = ?1",
            params![conversation, now_ms()],
        )?;
        tx.commit()?;
        Ok(dropped > 0)
    }

    /// Names a conversation (`None`: after its first message again); `false` when there is none.
    /// Its "last changed" stays: a rename is no new activity.
    pub fn set_title(&self, id: &str, title: Option<&str>) -> Result<bool, StoreError> {
        let mut conn = lock(&self.writer);
        let tx = conn.transaction()?;
        let Some(conversation) = conversation_num(&tx, id)? else { return Ok(false) };
        tx.execute("UPDATE conversations SET title = ?2 WHERE num = ?1", params![conversation, title])?;
        reindex_title(&tx, conversation)?;
        tx.commit()?;
        Ok(true)
    }

    /// Deletes a conversation, which can be brought back with [`Self::restore`] for
    /// [`UNDO_DELETE`]; `false` when there is none.
    pub fn delete(&self, id: &str) -> Result<bool, StoreError> {
        let conn = lock(&self.writer);
        let changed = conn.execute(
            "UPDATE conversations SET deleted_at_ms = ?2 WHERE id = ?1 AND deleted_at_ms IS NULL",
            params![id, now_ms()],
        )?;
        drop(conn);
        // What was deleted long enough ago goes now, not only at the next start.
        let cutoff = now_ms().saturating_sub(i64::try_from(UNDO_DELETE.as_millis()).unwrap_or(i64::MAX));
        self.purge_deleted_before(cutoff)?;
        Ok(changed > 0)
    }

    /// Removes a conversation for good, at once (the command line's delete, which has no undo);
    /// `false` when there is none.
    pub fn remove(&self, id: &str) -> Result<bool, StoreError> {
        let mut conn = lock(&self.writer);
        let tx = conn.transaction()?;
        let num: Option<i64> =
            tx.query_row("SELECT num FROM conversations WHERE id = ?1", [id], |row| row.get(0)).optional()?;
        if let Some(num) = num {
            remove_conversation(&tx, num)?;
        }
        tx.commit()?;
        Ok(num.is_some())
    }

    /// Brings back a deleted conversation; `false` when there is none to bring back.
    pub fn restore(&self, id: &str) -> Result<bool, StoreError> {
        let conn = lock(&self.writer);
        let changed = conn.execute(
            "UPDATE conversations SET deleted_at_ms = NULL WHERE id = ?1 AND deleted_at_ms IS NOT NULL",
            [id],
        )?;
        Ok(changed > 0)
    }

    /// Removes for good the conversations deleted before `cutoff_ms` (their messages, indexes
    /// and compactions with them). Returns how many went.
    pub fn purge_deleted_before(&self, cutoff_ms: i64) -> Result<usize, StoreError> {
        let mut conn = lock(&self.writer);
        let tx = conn.transaction()?;
        let nums: Vec<i64> = tx
            .prepare("SELECT num FROM conversations WHERE deleted_at_ms IS NOT NULL AND deleted_at_ms < ?1")?
            .query_map([cutoff_ms], |row| row.get(0))?
            .collect::<Result<_, _>>()?;
        for &num in &nums {
            remove_conversation(&tx, num)?;
        }
        tx.commit()?;
        Ok(nums.len())
    }
}

fn open_writer(path: &Path) -> Result<Connection, StoreError> {
    let mut conn =
        Connection::open(path).map_err(|source| StoreError::Open { path: path.to_path_buf(), source })?;
    conn.busy_timeout(BUSY_WAIT)?;
    let mode: String = conn.pragma_update_and_check(None, "journal_mode", "wal", |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        tracing::warn!(%mode, "the conversation store is not in WAL mode");
    }
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", true)?;
    schema::migrate(&mut conn)?;
    Ok(conn)
}

/// Refuses (with [`StoreError::Diverged`]) to write message `seq` unless the conversation's saved
/// messages are exactly those before it, or those up to it (the last one is replaced).
fn follows_the_saved(tx: &Transaction<'_>, conversation: i64, seq: i64) -> Result<(), StoreError> {
    let (count, last): (i64, Option<i64>) = tx
        .prepare_cached("SELECT count(*), max(seq) FROM messages WHERE conversation = ?1")?
        .query_row([conversation], |row| Ok((row.get(0)?, row.get(1)?)))?;
    let next = last.map_or(0, |last| last + 1);
    let whole = count == next;
    if whole && (seq == next || seq + 1 == next) {
        return Ok(());
    }
    Err(StoreError::Diverged {
        position: usize::try_from(seq).unwrap_or(usize::MAX),
        saved: usize::try_from(count).unwrap_or(usize::MAX),
    })
}

/// A database failure in words for the user (SQLite's own in brackets).
fn in_words(error: &rusqlite::Error) -> String {
    use rusqlite::ErrorCode as C;
    let rusqlite::Error::SqliteFailure(failure, _) = error else { return error.to_string() };
    let words = match failure.code {
        C::DatabaseBusy | C::DatabaseLocked => {
            format!("it is in use by another Warden and did not come free within {} s", BUSY_WAIT.as_secs())
        }
        C::DiskFull => "the disk is full".to_owned(),
        C::SystemIoFailure => "the disk could not be read or written".to_owned(),
        C::DatabaseCorrupt | C::NotADatabase => "the database file is damaged".to_owned(),
        C::ReadOnly => "it can only be read, not written".to_owned(),
        C::CannotOpen | C::PermissionDenied => "it could not be opened".to_owned(),
        _ => return error.to_string(),
    };
    format!("{words} ({error})")
}

fn is_not_a_database(error: &rusqlite::Error) -> bool {
    matches!(error, rusqlite::Error::SqliteFailure(e, _) if e.code == rusqlite::ErrorCode::NotADatabase)
}

/// The conversation's row number, made when missing; the project is recorded when it has none.
fn upsert_conversation(
    tx: &Transaction<'_>,
    id: &str,
    project_root: Option<&Path>,
    now: i64,
) -> rusqlite::Result<i64> {
    let root = project_root.map(|p| p.to_string_lossy().into_owned());
    tx.prepare_cached(
        "INSERT INTO conversations (id, project_root, created_at_ms, updated_at_ms) VALUES (?1, ?2, ?3, ?3) \
         ON CONFLICT (id) DO UPDATE SET project_root = coalesce(project_root, excluded.project_root) \
         RETURNING num",
    )?
    .query_row(params![id, root, now], |row| row.get(0))
}

pub(crate) fn conversation_num(tx: &Connection, id: &str) -> rusqlite::Result<Option<i64>> {
    tx.prepare_cached("SELECT num FROM conversations WHERE id = ?1 AND deleted_at_ms IS NULL")?
        .query_row([id], |row| row.get(0))
        .optional()
}

/// Drops the conversation's messages from `seq` on (and the compactions that covered them).
fn drop_messages_from(tx: &Transaction<'_>, conversation: i64, seq: i64) -> rusqlite::Result<usize> {
    tx.prepare_cached(
        "DELETE FROM messages_fts WHERE rowid IN (SELECT num FROM messages WHERE conversation = ?1 AND seq >= ?2)",
    )?
    .execute(params![conversation, seq])?;
    tx.prepare_cached(
        "DELETE FROM compactions WHERE conversation = ?1 AND (upto_seq >= ?2 OR trimmed_upto_seq > ?2)",
    )?
    .execute(params![conversation, seq])?;
    tx.prepare_cached("DELETE FROM messages WHERE conversation = ?1 AND seq >= ?2")?
        .execute(params![conversation, seq])
}

/// Adds a message row (not its index entry), with the model that wrote it when known; returns its
/// row number.
pub(super) fn insert_row(
    tx: &Transaction<'_>,
    conversation: i64,
    seq: i64,
    role: &str,
    body: &str,
    at: i64,
    model: Option<&str>,
) -> rusqlite::Result<i64> {
    tx.prepare_cached(
        "INSERT INTO messages (conversation, seq, role, body, created_at_ms, model) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![conversation, seq, role, body, at, model])?;
    Ok(tx.last_insert_rowid())
}

/// Gives the conversation its title from its first message, once.
fn set_auto_title_once(tx: &Transaction<'_>, conversation: i64, title: &str) -> rusqlite::Result<()> {
    let changed = tx
        .prepare_cached("UPDATE conversations SET auto_title = ?2 WHERE num = ?1 AND auto_title = ''")?
        .execute(params![conversation, title])?;
    if changed > 0 {
        reindex_title(tx, conversation)?;
    }
    Ok(())
}

/// Puts the conversation's shown title (the user's, else the one from its first message) in the
/// title index.
fn reindex_title(tx: &Transaction<'_>, conversation: i64) -> rusqlite::Result<()> {
    tx.prepare_cached("DELETE FROM titles_fts WHERE rowid = ?1")?.execute([conversation])?;
    tx.prepare_cached(
        "INSERT INTO titles_fts (rowid, title) SELECT num, coalesce(title, auto_title) FROM conversations WHERE num = ?1",
    )?
    .execute([conversation])?;
    Ok(())
}

/// Removes a conversation and everything of it, indexes included.
pub(crate) fn remove_conversation(tx: &Transaction<'_>, conversation: i64) -> rusqlite::Result<()> {
    drop_messages_from(tx, conversation, 0)?;
    tx.prepare_cached("DELETE FROM titles_fts WHERE rowid = ?1")?.execute([conversation])?;
    tx.prepare_cached("DELETE FROM conversations WHERE num = ?1")?.execute([conversation])?;
    Ok(())
}

/// Whether `id` can name a conversation: letters, digits, `-` and `_`, 1 to 128 of them (ids come
/// from the window and the command line).
pub fn is_conversation_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 128 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}
