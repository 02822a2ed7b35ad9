//! The database's tables and how each older layout becomes the current one. `PRAGMA user_version`
//! holds the layout's number; each step runs in the transaction that sets it, so an interrupted
//! upgrade leaves the old layout intact.

use rusqlite::Connection;

use super::StoreError;

/// The steps from an empty database: step `i` takes the layout from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 1: conversations, their messages (one row each, the message as JSON), and full-text indexes
    // over the messages and the titles. The indexes hold no copy of the text (`content=''`).
    r"
    CREATE TABLE conversations (
        num INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        title TEXT,
        auto_title TEXT NOT NULL DEFAULT '',
        project_root TEXT,
        created_at_ms INTEGER NOT NULL,
        updated_at_ms INTEGER NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0,
        deleted_at_ms INTEGER
    );
    CREATE INDEX conversations_recent ON conversations(updated_at_ms DESC, id)
        WHERE deleted_at_ms IS NULL;
    CREATE INDEX conversations_by_project ON conversations(project_root, updated_at_ms DESC)
        WHERE deleted_at_ms IS NULL;
    CREATE TABLE messages (
        num INTEGER PRIMARY KEY,
        conversation INTEGER NOT NULL REFERENCES conversations(num) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL,
        body TEXT NOT NULL,
        created_at_ms INTEGER NOT NULL,
        UNIQUE (conversation, seq)
    );
    CREATE VIRTUAL TABLE messages_fts USING fts5(
        text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE titles_fts USING fts5(
        title, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'
    );
    ",
    // 2: compactions — what the model sees of a long conversation instead of its older part.
    r"
    CREATE TABLE compactions (
        num INTEGER PRIMARY KEY,
        conversation INTEGER NOT NULL REFERENCES conversations(num) ON DELETE CASCADE,
        upto_seq INTEGER NOT NULL,
        summary TEXT NOT NULL,
        tokens_before INTEGER NOT NULL,
        tokens_after INTEGER NOT NULL,
        created_at_ms INTEGER NOT NULL
    );
    CREATE INDEX compactions_of ON compactions(conversation, upto_seq);
    ",
    // 3: how far the older tool results are cut in what the model is sent (the cheap first step of
    // compaction); a summary's own row cuts nothing beyond it.
    r"
    ALTER TABLE compactions ADD COLUMN trimmed_upto_seq INTEGER NOT NULL DEFAULT 0;
    UPDATE compactions SET trimmed_upto_seq = upto_seq;
    ",
    // 4: the model that wrote each answer, shown under it when the conversation is reopened.
    r"
    ALTER TABLE messages ADD COLUMN model TEXT;
    ",
    // 5: what each answer cost in tokens (as the provider counted it, or the context in use as
    // estimated when it counted nothing), for the context gauge of a reopened conversation.
    r"
    ALTER TABLE messages ADD COLUMN input_tokens INTEGER;
    ALTER TABLE messages ADD COLUMN output_tokens INTEGER;
    ALTER TABLE messages ADD COLUMN estimated_context INTEGER;
    ",
    // 6: the answers that counted tokens, by when they were written, holding what a day's total
    // across conversations reads (`usage.rs`): that total reads this index alone, never the
    // messages' bodies (a full scan of a 700 MB store took 0.2 s warm, 1.6 s cold; this, 0.1 ms).
    r"
    CREATE INDEX messages_usage ON messages(created_at_ms, conversation, model, input_tokens, output_tokens)
        WHERE input_tokens IS NOT NULL OR output_tokens IS NOT NULL;
    ",
];

/// The layout this build writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Brings the database to [`SCHEMA_VERSION`]. A database made by a newer Warden is refused,
/// never changed.
pub fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    migrate_to(conn, SCHEMA_VERSION)
}

/// Brings the database to layout `target` (tests build older layouts with it).
pub(super) fn migrate_to(conn: &mut Connection, target: u32) -> Result<(), StoreError> {
    let found: u32 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::Newer { found, known: SCHEMA_VERSION });
    }
    for version in found..target.min(SCHEMA_VERSION) {
        let tx = conn.transaction()?;
        tx.execute_batch(MIGRATIONS[version as usize])?;
        tx.pragma_update(None, "user_version", version + 1)?;
        tx.commit()?;
        tracing::info!(version = version + 1, "conversation store layout upgraded");
    }
    Ok(())
}
