//! Reading the store: a conversation's messages, its line in the list, the list a page at a time,
//! and the last conversation of a project.

use std::path::Path;

use rusqlite::{params, OptionalExtension, Row};
use warden_protocol::{ConversationPage, ConversationSummary, Message, MessageStamp};

use super::{lock, text, ConversationStore, StoreError};

/// The most conversations one page holds.
pub const MAX_PAGE: u32 = 500;

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

impl ConversationStore {
    /// The conversation's messages in order; empty when there is no such conversation.
    pub fn messages(&self, id: &str) -> Result<Vec<Message>, StoreError> {
        let conn = lock(&self.reader);
        let mut statement = conn.prepare_cached(
            "SELECT m.body FROM messages m JOIN conversations c ON c.num = m.conversation \
             WHERE c.id = ?1 AND c.deleted_at_ms IS NULL ORDER BY m.seq",
        )?;
        let bodies = statement.query_map([id], |row| row.get::<_, String>(0))?;
        let mut messages = Vec::new();
        for body in bodies {
            messages.push(serde_json::from_str(&body?)?);
        }
        Ok(messages)
    }

    /// When each of the conversation's messages was written and by which model, in order (as
    /// [`ConversationStore::messages`]); empty when there is no such conversation.
    pub fn message_stamps(&self, id: &str) -> Result<Vec<MessageStamp>, StoreError> {
        let conn = lock(&self.reader);
        let mut statement = conn.prepare_cached(
            "SELECT m.created_at_ms, m.model FROM messages m JOIN conversations c ON c.num = m.conversation \
             WHERE c.id = ?1 AND c.deleted_at_ms IS NULL ORDER BY m.seq",
        )?;
        let stamps = statement.query_map([id], |row| {
            let at: i64 = row.get(0)?;
            Ok(MessageStamp { at_ms: u64::try_from(at).unwrap_or(0), model: row.get(1)? })
        })?;
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
        let limit = limit.clamp(1, MAX_PAGE);
        let conn = lock(&self.reader);
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM conversations c WHERE c.deleted_at_ms IS NULL \
             ORDER BY c.updated_at_ms DESC, c.id LIMIT ?1 OFFSET ?2"
        );
        // One more than asked: whether there is a next page.
        let mut conversations: Vec<ConversationSummary> = conn
            .prepare_cached(&sql)?
            .query_map(params![i64::from(limit) + 1, i64::from(offset)], summary_from)?
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
