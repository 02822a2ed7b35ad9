//! What the saved answers counted over a stretch of time, across conversations: the tokens the
//! providers reported, by model, for the window's "today" (docs/COST.md). Each answer is one row
//! with its usage (`put_usage`), counted once, on the day it was written; an answer that reported
//! none, a conversation deleted (even one that can still be brought back) and messages a rewind
//! dropped are not counted. The sums come from the `messages_usage` index alone (layout 6): no
//! message body is read, however large the store.

use rusqlite::params;
use warden_protocol::ModelUsage;

use super::{lock, ConversationStore, StoreError};

/// The answers' tokens from `?1` up to `?2`, by model. Its `WHERE` holds the partial index's
/// condition, so the index covers it.
const USAGE_BETWEEN: &str = "SELECT m.model, coalesce(sum(m.input_tokens), 0), \
    coalesce(sum(m.output_tokens), 0), count(*) \
    FROM messages m JOIN conversations c ON c.num = m.conversation \
    WHERE m.created_at_ms >= ?1 AND m.created_at_ms < ?2 \
    AND (m.input_tokens IS NOT NULL OR m.output_tokens IS NOT NULL) AND c.deleted_at_ms IS NULL \
    GROUP BY m.model ORDER BY m.model IS NULL, m.model";

impl ConversationStore {
    /// The tokens of the answers written from `from_ms` up to (not including) `to_ms`, one entry per
    /// model, by model id (the answers of builds that recorded no model last). Nothing for an empty
    /// or backward stretch.
    pub fn usage_between(&self, from_ms: i64, to_ms: i64) -> Result<Vec<ModelUsage>, StoreError> {
        if from_ms >= to_ms {
            return Ok(Vec::new());
        }
        let conn = lock(&self.reader);
        let mut statement = conn.prepare_cached(USAGE_BETWEEN)?;
        let rows = statement.query_map(params![from_ms, to_ms], |row| {
            let input: i64 = row.get(1)?;
            let output: i64 = row.get(2)?;
            let answers: i64 = row.get(3)?;
            Ok(ModelUsage {
                model: row.get(0)?,
                input_tokens: u64::try_from(input).unwrap_or(0),
                output_tokens: u64::try_from(output).unwrap_or(0),
                answers: u32::try_from(answers).unwrap_or(u32::MAX),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use warden_protocol::{ContentBlock, Message, ModelUsage, Role, Usage};

    use super::super::{lock, ConversationStore, STORE_FILE};
    use super::USAGE_BETWEEN;

    const DAY: i64 = 86_400_000;
    /// A local midnight as the window would give it (any instant works: the store only compares).
    const MIDNIGHT: i64 = 1_764_000_000_000;

    fn answer(text: &str) -> Message {
        Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: text.into() }] }
    }

    fn usage(input: u32, output: u32) -> Option<Usage> {
        Some(Usage { input_tokens: input, output_tokens: output })
    }

    /// Saves a conversation's messages as a session does, the answers with their usage, then moves
    /// each message to the time given (the store stamps them with the clock).
    fn save(store: &ConversationStore, id: &str, turns: &[(i64, Option<&str>, Option<Usage>)]) {
        for (seq, &(at, model, counted)) in turns.iter().enumerate() {
            if let Some(model) = model {
                store.put_message_by(id, None, seq, &answer("done"), Some(model)).unwrap();
                store.put_usage(id, seq, counted, None).unwrap();
            } else {
                store.put_message(id, None, seq, &Message::user_text("do it")).unwrap();
            }
            lock(&store.writer)
                .execute(
                    "UPDATE messages SET created_at_ms = ?3 WHERE seq = ?2 \
                     AND conversation = (SELECT num FROM conversations WHERE id = ?1)",
                    rusqlite::params![id, i64::try_from(seq).unwrap(), at],
                )
                .unwrap();
        }
    }

    fn open(dir: &Path) -> ConversationStore {
        ConversationStore::open(&dir.join(STORE_FILE)).unwrap()
    }

    fn entry(model: Option<&str>, input: u64, output: u64, answers: u32) -> ModelUsage {
        ModelUsage { model: model.map(str::to_owned), input_tokens: input, output_tokens: output, answers }
    }

    #[test]
    fn a_day_counts_each_answer_of_every_conversation_once_by_model() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = open(dir.path());
            save(
                &store,
                "a",
                &[
                    (MIDNIGHT - 10, None, None),
                    // The evening before: another day.
                    (MIDNIGHT - 5, Some("claude-sonnet-4-5"), usage(1_000, 100)),
                    (MIDNIGHT, None, None),
                    // On the stroke of midnight: today.
                    (MIDNIGHT, Some("claude-sonnet-4-5"), usage(2_000, 200)),
                    (MIDNIGHT + 60_000, None, None),
                    (MIDNIGHT + 61_000, Some("gpt-5"), usage(300, 30)),
                    // A local server that reported nothing: not counted.
                    (MIDNIGHT + 62_000, Some("qwen3:8b"), None),
                ],
            );
            save(
                &store,
                "b",
                &[
                    (MIDNIGHT + 3_600_000, None, None),
                    (MIDNIGHT + 3_600_001, Some("claude-sonnet-4-5"), usage(4_000, 400)),
                    // The next midnight: tomorrow.
                    (MIDNIGHT + DAY, Some("claude-sonnet-4-5"), usage(8_000, 800)),
                ],
            );
            // The usage noted again (a message saved twice): still one answer.
            store.put_usage("b", 1, usage(4_000, 400), None).unwrap();
        }
        // Another process's view: from the file on disk.
        let store = open(dir.path());
        let today = store.usage_between(MIDNIGHT, MIDNIGHT + DAY).unwrap();
        assert_eq!(
            today,
            [entry(Some("claude-sonnet-4-5"), 6_000, 600, 2), entry(Some("gpt-5"), 300, 30, 1)]
        );
        let yesterday = store.usage_between(MIDNIGHT - DAY, MIDNIGHT).unwrap();
        assert_eq!(yesterday, [entry(Some("claude-sonnet-4-5"), 1_000, 100, 1)]);
        let tomorrow = store.usage_between(MIDNIGHT + DAY, MIDNIGHT + 2 * DAY).unwrap();
        assert_eq!(tomorrow, [entry(Some("claude-sonnet-4-5"), 8_000, 800, 1)]);
        assert!(store.usage_between(MIDNIGHT + DAY, MIDNIGHT).unwrap().is_empty(), "backward: nothing");
    }

    #[test]
    fn a_deleted_conversation_and_what_a_rewind_dropped_do_not_count_and_no_model_counts_apart() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        save(&store, "kept", &[(MIDNIGHT + 1, None, None), (MIDNIGHT + 2, Some("gpt-5"), usage(10, 1))]);
        save(&store, "gone", &[(MIDNIGHT + 1, None, None), (MIDNIGHT + 2, Some("gpt-5"), usage(500, 50))]);
        save(
            &store,
            "rewound",
            &[
                (MIDNIGHT + 1, None, None),
                (MIDNIGHT + 2, Some("gpt-5"), usage(7, 7)),
                (MIDNIGHT + 3, None, None),
                (MIDNIGHT + 4, Some("gpt-5"), usage(900, 90)),
            ],
        );
        // An answer an older build saved without its model.
        lock(&store.writer)
            .execute(
                "UPDATE messages SET model = NULL WHERE seq = 1 \
                 AND conversation = (SELECT num FROM conversations WHERE id = 'rewound')",
                [],
            )
            .unwrap();
        assert!(store.delete("gone").unwrap());
        assert!(store.truncate("rewound", 2).unwrap());
        let today = store.usage_between(MIDNIGHT, MIDNIGHT + DAY).unwrap();
        assert_eq!(today, [entry(Some("gpt-5"), 10, 1, 1), entry(None, 7, 7, 1)]);
        // Brought back within the minute: it counts again.
        assert!(store.restore("gone").unwrap());
        let today = store.usage_between(MIDNIGHT, MIDNIGHT + DAY).unwrap();
        assert_eq!(today[0], entry(Some("gpt-5"), 510, 51, 2));
    }

    /// The sum reads the index alone: a store of long conversations is never read through.
    #[test]
    fn the_day_total_reads_only_the_usage_index() {
        let dir = tempfile::tempdir().unwrap();
        let store = open(dir.path());
        let plan: Vec<String> = lock(&store.reader)
            .prepare(&format!("EXPLAIN QUERY PLAN {USAGE_BETWEEN}"))
            .unwrap()
            .query_map([0_i64, 1], |row| row.get::<_, String>(3))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            plan.iter().any(|step| step.contains("USING COVERING INDEX messages_usage")),
            "the plan: {plan:?}"
        );
        assert!(!plan.iter().any(|step| step.starts_with("SCAN m")), "the plan: {plan:?}");
    }
}
