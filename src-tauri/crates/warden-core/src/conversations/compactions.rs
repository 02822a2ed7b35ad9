//! Compactions: a summary that stands, in what the model is sent, for a conversation's messages
//! before `upto_seq`. The messages themselves stay: the user still sees the whole history.

use rusqlite::{params, OptionalExtension};

use super::{conversation_num, lock, now_ms, ConversationStore, StoreError};

/// One compaction of a conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compaction {
    /// The first message the model is still sent (the summary stands for those before it).
    pub upto_seq: usize,
    /// The first message whose tool results are sent whole (those before are cut).
    pub trimmed_upto_seq: usize,
    /// What stands for the messages before it.
    pub summary: String,
    /// Context in use before and after, in tokens (estimated after).
    pub tokens_before: u32,
    pub tokens_after: u32,
}

impl ConversationStore {
    /// Records a compaction of a saved conversation; `false` when there is no such conversation.
    pub fn add_compaction(&self, id: &str, compaction: &Compaction) -> Result<bool, StoreError> {
        let conn = lock(&self.writer);
        let Some(conversation) = conversation_num(&conn, id)? else { return Ok(false) };
        conn.prepare_cached(
            "INSERT INTO compactions (conversation, upto_seq, summary, tokens_before, tokens_after, created_at_ms, \
             trimmed_upto_seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
            conversation,
            i64::try_from(compaction.upto_seq).unwrap_or(i64::MAX),
            compaction.summary,
            compaction.tokens_before,
            compaction.tokens_after,
            now_ms(),
            i64::try_from(compaction.trimmed_upto_seq).unwrap_or(i64::MAX)
        ])?;
        Ok(true)
    }

    /// The conversation's latest compaction (each row holds the whole state), if any.
    pub fn latest_compaction(&self, id: &str) -> Result<Option<Compaction>, StoreError> {
        let conn = lock(&self.reader);
        let found = conn
            .prepare_cached(
                "SELECT k.upto_seq, k.summary, k.tokens_before, k.tokens_after, k.trimmed_upto_seq FROM compactions k \
                 JOIN conversations c ON c.num = k.conversation WHERE c.id = ?1 AND c.deleted_at_ms IS NULL \
                 ORDER BY k.num DESC LIMIT 1",
            )?
            .query_row([id], |row| {
                let upto: i64 = row.get(0)?;
                let trimmed: i64 = row.get(4)?;
                Ok(Compaction {
                    upto_seq: usize::try_from(upto).unwrap_or(0),
                    trimmed_upto_seq: usize::try_from(trimmed).unwrap_or(0),
                    summary: row.get(1)?,
                    tokens_before: row.get(2)?,
                    tokens_after: row.get(3)?,
                })
            })
            .optional()?;
        Ok(found)
    }
}
