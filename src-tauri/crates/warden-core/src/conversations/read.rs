//! Reading the store: a conversation's messages, its line in the list, the list a page at a time,
//! and the last conversation of a project.

use std::path::Path;

use rusqlite::{params, OptionalExtension, Row};
use warden_protocol::{ConversationPage, ConversationSummary, Message, MessageStamp, Usage};

use super::{lock, text, ConversationStore, StoreError};

/// The most conversations one page holds.
pub const MAX_PAGE: u32 = 500;

/// The most positions a gap in a conversation's sequence is filled with (a damaged `seq` could
/// claim billions).
const MAX_GAP: usize = 100_000;

/// One saved message as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRow {
    /// Its place in the conversation, from 0.
    pub seq: usize,
    /// When it was written and by which model (a missing row has neither).
    pub stamp: MessageStamp,
    /// The message, or why it could not be read, in words.
    pub message: Result<Message, String>,
}

/// A conversation as far as it could be read ([`ConversationStore::read_back`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReadBack {
    pub rows: Vec<StoredRow>,
    /// Why the read stopped before the last row, when the database failed part-way.
    pub stopped: Option<String>,
}

impl ReadBack {
    /// Why the conversation cannot be read whole: the first row that could not be read, or why the
    /// read stopped; `None` when every message was read.
    pub fn problem(&self) -> Option<StoreError> {
        let unreadable = self.rows.iter().find_map(|row| match &row.message {
            Ok(_) => None,
            Err(reason) => Some(StoreError::Unreadable { position: row.seq + 1, reason: reason.clone() }),
        });
        unreadable.or_else(|| {
            self.stopped.as_ref().map(|reason| StoreError::Unreadable {
                position: self.rows.len() + 1,
                reason: format!("the read stopped there: {reason}"),
            })
        })
    }

    /// Every message, or why not all of them could be read.
    pub fn into_messages(self) -> Result<Vec<Message>, StoreError> {
        match self.problem() {
            Some(problem) => Err(problem),
            // No problem: every row holds its message.
            None => Ok(self.rows.into_iter().filter_map(|row| row.message.ok()).collect()),
        }
    }
}

/// Why a stored message could not be read, in words.
fn unreadable_why(error: &serde_json::Error) -> String {
    if error.is_data() {
        format!("it is in a form this version of Warden does not know: a newer Warden wrote it, or it is damaged ({error})")
    } else {
        format!("it is damaged: its text is cut off or is not JSON ({error})")
    }
}

/// The columns [`summary_from`] reads, in order, from `conversations` as `c`.
pub(super) const SUMMARY_COLUMNS: &str =
    "c.id, coalesce(c.title, nullif(c.auto_title, '')), c.project_root, c.updated_at_ms, c.message_count";

pub(super) fn summary_from(row: &Row<'_>) -> rusqlite::Result<ConversationSummary> {
    summary_at(row, 0)
}

/// [`SUMMARY_COLUMNS`] read from column `first` on.
pub(super) fn summary_at(row: &Row<'_>, first: usize) -> rusqlite::Result<ConversationSummary> {
    let title: Option<String> = row.get(first + 1)?;
    let updated: i64 = row.get(first + 3)?;
    let count: i64 = row.get(first + 4)?;
    Ok(ConversationSummary {
        id: row.get(first)?,
        title: title.unwrap_or_else(|| text::UNTITLED.to_owned()),
        project_root: row.get(first + 2)?,
        updated_at_ms: u64::try_from(updated).unwrap_or(0),
        message_count: u32::try_from(count).unwrap_or(u32::MAX),
    })
}

/// A message's stamp from its columns, `first` on: created_at_ms, model, input_tokens,
/// output_tokens, estimated_context.
fn stamp_at(row: &Row<'_>, first: usize) -> rusqlite::Result<MessageStamp> {
    let at: i64 = row.get(first)?;
    let input: Option<i64> = row.get(first + 2)?;
    let output: Option<i64> = row.get(first + 3)?;
    let estimated: Option<i64> = row.get(first + 4)?;
    let tokens = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(MessageStamp {
        at_ms: u64::try_from(at).unwrap_or(0),
        model: row.get(first + 1)?,
        usage: input.zip(output).map(|(i, o)| Usage { input_tokens: tokens(i), output_tokens: tokens(o) }),
        estimated_context_tokens: estimated.map(tokens),
    })
}

impl ConversationStore {
    /// The conversation's messages in order; empty when there is no such conversation. An error
    /// when any of it cannot be read ([`StoreError::Unreadable`], or the database's own): a
    /// conversation is continued only from the whole of it (see [`ConversationStore::read_back`]
    /// for what can be read of one that cannot).
    pub fn messages(&self, id: &str) -> Result<Vec<Message>, StoreError> {
        self.read_back(id)?.into_messages()
    }

    /// The conversation as far as it can be read: every row, each read message or why it could not
    /// be read (a row in a form this build does not know, a damaged one, one missing from the
    /// sequence), and why the read stopped early when the database failed part-way. An error only
    /// when nothing could be read at all (the database busy past its wait, or damaged).
    pub fn read_back(&self, id: &str) -> Result<ReadBack, StoreError> {
        let conn = lock(&self.reader);
        let mut statement = conn.prepare_cached(
            "SELECT m.seq, m.body, m.created_at_ms, m.model, m.input_tokens, m.output_tokens, \
             m.estimated_context FROM messages m \
             JOIN conversations c ON c.num = m.conversation \
             WHERE c.id = ?1 AND c.deleted_at_ms IS NULL ORDER BY m.seq",
        )?;
        let mut rows = statement.query([id])?;
        let mut back = ReadBack::default();
        loop {
            let row = match rows.next() {
                Ok(Some(row)) => row,
                Ok(None) => break,
                // Nothing read yet: the read failed as a whole (busy, damaged). Else what came
                // before stands, and the rest is said to be unread.
                Err(error) if back.rows.is_empty() => return Err(error.into()),
                Err(error) => {
                    back.stopped = Some(StoreError::from(error).to_string());
                    break;
                }
            };
            let seq: i64 = row.get(0)?;
            let stamp = stamp_at(row, 2)?;
            let seq = usize::try_from(seq).unwrap_or(usize::MAX);
            // A position with no row: a message that was never saved, or lost.
            while back.rows.len() < seq && back.rows.len() < MAX_GAP {
                let missing = back.rows.len();
                back.rows.push(StoredRow {
                    seq: missing,
                    stamp: MessageStamp::default(),
                    message: Err("it is missing from the conversation store".to_owned()),
                });
            }
            let message = match row.get_ref(1)?.as_str() {
                Ok(body) => serde_json::from_str(body).map_err(|e| unreadable_why(&e)),
                Err(_) => Err("it is damaged: not text".to_owned()),
            };
            back.rows.push(StoredRow { seq, stamp, message });
        }
        Ok(back)
    }

    /// When each of the conversation's messages was written and by which model, in order (as
    /// [`ConversationStore::messages`]); empty when there is no such conversation.
    pub fn message_stamps(&self, id: &str) -> Result<Vec<MessageStamp>, StoreError> {
        let conn = lock(&self.reader);
        let mut statement = conn.prepare_cached(
            "SELECT m.created_at_ms, m.model, m.input_tokens, m.output_tokens, m.estimated_context \
             FROM messages m JOIN conversations c ON c.num = m.conversation \
             WHERE c.id = ?1 AND c.deleted_at_ms IS NULL ORDER BY m.seq",
        )?;
        let stamps = statement.query_map([id], |row| stamp_at(row, 0))?;
        Ok(stamps.collect::<Result<_, _>>()?)
    }

    /// The conversation's line in the list; `None` when there is none.
    pub fn summary(&self, id: &str) -> Result<Option<ConversationSummary>, StoreError> {
        let conn = lock(&self.reader);
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM conversations c WHERE c.id = ?1 AND c.deleted_at_ms IS NULL"
        );
        let found = conn.prepare_cached(&sql)?.query_row([id], summary_from).optional()?;
        Ok(found)
    }

    /// The conversations, most recently changed first, `limit` (1 to [`MAX_PAGE`]) from `offset`.
    pub fn list(&self, offset: u32, limit: u32) -> Result<ConversationPage, StoreError> {
        self.list_in(None, offset, limit)
    }

    /// [`Self::list`], of the conversations held in `project_root` only when it is given.
    pub fn list_in(
        &self,
        project_root: Option<&Path>,
        offset: u32,
        limit: u32,
    ) -> Result<ConversationPage, StoreError> {
        let limit = limit.clamp(1, MAX_PAGE);
        let conn = lock(&self.reader);
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM conversations c WHERE c.deleted_at_ms IS NULL \
             AND (?3 IS NULL OR c.project_root = ?3) \
             ORDER BY c.updated_at_ms DESC, c.id LIMIT ?1 OFFSET ?2"
        );
        let root = project_root.map(|root| root.to_string_lossy().into_owned());
        // One more than asked: whether there is a next page.
        let mut conversations: Vec<ConversationSummary> = conn
            .prepare_cached(&sql)?
            .query_map(params![i64::from(limit) + 1, i64::from(offset), root], summary_from)?
            .collect::<Result<_, _>>()?;
        let more = conversations.len() > limit as usize;
        conversations.truncate(limit as usize);
        let next_offset = more.then(|| offset.saturating_add(limit));
        Ok(ConversationPage { conversations, next_offset })
    }

    /// The most recently changed conversation held in `project_root` (any project when `None`).
    pub fn latest(&self, project_root: Option<&Path>) -> Result<Option<String>, StoreError> {
        let conn = lock(&self.reader);
        let found = match project_root {
            Some(root) => conn
                .prepare_cached(
                    "SELECT id FROM conversations WHERE deleted_at_ms IS NULL AND project_root = ?1 \
                     ORDER BY updated_at_ms DESC LIMIT 1",
                )?
                .query_row([root.to_string_lossy()], |row| row.get(0))
                .optional()?,
            None => conn
                .prepare_cached(
                    "SELECT id FROM conversations WHERE deleted_at_ms IS NULL ORDER BY updated_at_ms DESC LIMIT 1",
                )?
                .query_row([], |row| row.get(0))
                .optional()?,
        };
        Ok(found)
    }
}
