//! Full-text search over titles and messages. What the user types is taken as words, never as
//! FTS5 syntax: each word must appear (the last one as a prefix, so results come while typing).
//! Conversations whose title matches come first, then those with a matching message, the most
//! recently written message first; each with a snippet of where the words are.

use std::collections::HashSet;

use rusqlite::{params, OptionalExtension};
use warden_protocol::{ConversationHit, Message};

use super::read::{summary_at, summary_from, SUMMARY_COLUMNS};
use super::{lock, text, ConversationStore, StoreError};

/// The most conversations one search returns.
pub const MAX_HITS: u32 = 200;
/// Characters of context a snippet keeps before the first word found.
const SNIPPET_BEFORE: usize = 40;
/// How long a snippet may be, in characters.
const SNIPPET_CHARS: usize = 160;

impl ConversationStore {
    /// The conversations that hold every word of `query`, at most `limit` (1 to [`MAX_HITS`]).
    /// A query with no words finds nothing.
    pub fn search(&self, query: &str, limit: u32) -> Result<Vec<ConversationHit>, StoreError> {
        let words = words(query);
        let Some(fts) = fts_query(&words) else { return Ok(Vec::new()) };
        let limit = limit.clamp(1, MAX_HITS) as usize;
        let conn = lock(&self.reader);
        let mut seen = HashSet::new();
        let mut hits = Vec::new();

        let title_sql = format!(
            "SELECT c.num, {SUMMARY_COLUMNS} FROM titles_fts t JOIN conversations c ON c.num = t.rowid \
             WHERE titles_fts MATCH ?1 AND c.deleted_at_ms IS NULL ORDER BY c.updated_at_ms DESC LIMIT ?2"
        );
        let mut titles = conn.prepare_cached(&title_sql)?;
        let mut rows = titles.query(params![fts, limit as i64])?;
        while let Some(row) = rows.next()? {
            let num: i64 = row.get(0)?;
            seen.insert(num);
            hits.push(ConversationHit { conversation: summary_at(row, 1)?, snippet: None });
        }
        drop(rows);

        // The matching messages, newest first, until the page is full: a common word stops early.
        // The words as typed first (a prefix query must merge every word it begins before its
        // first row: 16 ms for a common word in a million messages, against 0.1 ms), then as a
        // prefix for the rest of the page (the word being typed).
        messages_matching(&conn, &exact_query(&words), &words, limit, &mut seen, &mut hits)?;
        if hits.len() < limit {
            messages_matching(&conn, &fts, &words, limit, &mut seen, &mut hits)?;
        }
        Ok(hits)
    }
}

/// Adds to `hits` the conversations with a message matching `fts`, newest message first, until
/// `limit`; `seen` holds the conversations already there.
fn messages_matching(
    conn: &rusqlite::Connection,
    fts: &str,
    words: &[String],
    limit: usize,
    seen: &mut HashSet<i64>,
    hits: &mut Vec<ConversationHit>,
) -> Result<(), StoreError> {
    let mut matching = conn
        .prepare_cached("SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?1 ORDER BY rowid DESC")?;
    let mut owner = conn.prepare_cached("SELECT conversation FROM messages WHERE num = ?1")?;
    let summary_sql =
        format!("SELECT {SUMMARY_COLUMNS} FROM conversations c WHERE c.num = ?1 AND c.deleted_at_ms IS NULL");
    let mut summary = conn.prepare_cached(&summary_sql)?;
    let mut body = conn.prepare_cached("SELECT body FROM messages WHERE num = ?1")?;
    let mut rows = matching.query([fts])?;
    while hits.len() < limit {
        let Some(row) = rows.next()? else { break };
        let num: i64 = row.get(0)?;
        let Some(conversation) = owner.query_row([num], |r| r.get::<_, i64>(0)).optional()? else {
            continue;
        };
        if !seen.insert(conversation) {
            continue;
        }
        let Some(found) = summary.query_row([conversation], summary_from).optional()? else { continue };
        let message: Option<String> = body.query_row([num], |r| r.get(0)).optional()?;
        let snippet = message
            .and_then(|m| serde_json::from_str::<Message>(&m).ok())
            .map(|m| snippet(&text::searchable(&m), words));
        hits.push(ConversationHit { conversation: found, snippet });
    }
    Ok(())
}

/// The FTS5 query for `words` taken as typed (no prefix).
fn exact_query(words: &[String]) -> String {
    words.iter().map(|w| format!("\"{w}\"")).collect::<Vec<_>>().join(" ")
}

/// The words of a query: split where the tokenizer would split (anything not a letter or digit).
fn words(query: &str) -> Vec<String> {
    query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(16)
        .map(str::to_owned)
        .collect()
}

/// The FTS5 query for `words`: each one quoted (so nothing in it is syntax), the last a prefix.
pub(super) fn fts_query(words: &[String]) -> Option<String> {
    let (last, rest) = words.split_last()?;
    let mut query: Vec<String> = rest.iter().map(|w| format!("\"{w}\"")).collect();
    query.push(format!("\"{last}\"*"));
    Some(query.join(" "))
}

/// Up to [`SNIPPET_CHARS`] of `text` around the first of `words` found in it (case-insensitive),
/// on one line.
fn snippet(text: &str, words: &[String]) -> String {
    let flat: String = text.chars().map(|c| if c.is_whitespace() { ' ' } else { c }).collect();
    let lower = flat.to_lowercase();
    // Lower-casing can change lengths; positions are found in characters of the lowered text,
    // which match the original's character for character for all but a few scripts.
    let at = words
        .iter()
        .filter_map(|w| lower.find(&w.to_lowercase()))
        .min()
        .map_or(0, |byte| lower[..byte].chars().count());
    let start = at.saturating_sub(SNIPPET_BEFORE);
    let chars: Vec<char> = flat.chars().collect();
    let start = start.min(chars.len());
    let end = (start + SNIPPET_CHARS).min(chars.len());
    let mut out: String = chars[start..end].iter().collect();
    out = out.trim().to_owned();
    if start > 0 {
        out.insert(0, '…');
    }
    if end < chars.len() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_is_words_never_syntax() {
        let q = fts_query(&words(r#"NEAR("x" OR y*) -z"#)).unwrap();
        assert_eq!(q, r#""NEAR" "x" "OR" "y" "z"*"#);
        assert_eq!(fts_query(&words("  --  ")), None);
    }

    #[test]
    fn a_snippet_shows_the_word_in_its_context() {
        let text = format!("{}needle in\nthe hay{}", "a".repeat(100), "b".repeat(300));
        let s = snippet(&text, &["NEEDLE".to_owned()]);
        assert!(s.starts_with('…') && s.ends_with('…'), "{s}");
        assert!(s.contains("needle in the hay"), "{s}");
        assert_eq!(snippet("short", &["x".to_owned()]), "short");
    }
}
