//! `usage_days`: what the saved answers counted, day by day across conversations, for the window's
//! cost of today (docs/COST.md). The window gives its local days' bounds; the engine sums the
//! tokens of each by model (`ConversationStore::usage_between`), and the window prices them.

use tauri::State;
use warden_core::engine::ConversationError;
use warden_protocol::DayUsage;

use super::off_thread;
use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

/// The most days one call may ask about (a leap year).
const MAX_DAYS: usize = 366;

/// The tokens of the answers saved on each day, by model: day `i` runs from `dayStartsMs[i]` up
/// to (not including) `dayStartsMs[i + 1]`, milliseconds since the Unix epoch, increasing (the
/// window's local midnights: a day of a clock change is 23 or 25 hours). 2 to 367 bounds.
#[tauri::command]
#[specta::specta]
pub async fn usage_days(state: State<'_, AppState>, day_starts_ms: Vec<u64>) -> CommandResult<Vec<DayUsage>> {
    let days = checked_days(&day_starts_ms).map_err(CommandError::invalid_input)?;
    let engine = state.engine.clone();
    let counted = off_thread(move || -> Result<Vec<DayUsage>, ConversationError> {
        let store = engine.conversation_store()?;
        days.into_iter()
            .map(|(start_ms, end_ms)| {
                let models = store.usage_between(millis(start_ms), millis(end_ms))?;
                Ok(DayUsage { start_ms, end_ms, models })
            })
            .collect()
    })
    .await??;
    Ok(counted)
}

/// The days between the bounds, or why the bounds are refused.
fn checked_days(bounds: &[u64]) -> Result<Vec<(u64, u64)>, String> {
    if bounds.len() < 2 || bounds.len() > MAX_DAYS + 1 {
        return Err(format!("Give from 2 to {} day bounds (got {}).", MAX_DAYS + 1, bounds.len()));
    }
    let days: Vec<(u64, u64)> = bounds.iter().zip(bounds.iter().skip(1)).map(|(&a, &b)| (a, b)).collect();
    if days.iter().any(|&(start, end)| start >= end) {
        return Err("The day bounds must increase.".to_owned());
    }
    Ok(days)
}

/// A time as the store keeps it (past `i64::MAX`, the end of time).
fn millis(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use serde_json::json;
    use warden_core::config::WardenHome;
    use warden_core::conversations::ConversationStore;
    use warden_core::secrets::MemoryStore;
    use warden_protocol::{ContentBlock, Message, Role, Usage};

    use super::*;
    use crate::commands_tests::TestApp;

    /// Through the IPC with the app's capability: today's answers come back by model, camelCase,
    /// one bucket per day; bounds that do not increase are refused with why.
    #[test]
    fn the_window_gets_each_days_tokens_by_model() {
        let app = TestApp::new(Arc::new(MemoryStore::new()));
        let store = ConversationStore::open(&WardenHome::at(app.home.path()).store_path()).unwrap();
        let answer =
            Message { role: Role::Assistant, content: vec![ContentBlock::Text { text: "ok".into() }] };
        store.put_message("c1", None, 0, &Message::user_text("go")).unwrap();
        store.put_message_by("c1", None, 1, &answer, Some("gpt-5")).unwrap();
        store.put_usage("c1", 1, Some(Usage { input_tokens: 1_200, output_tokens: 34 }), None).unwrap();
        let since_epoch = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        let now = u64::try_from(since_epoch.as_millis()).unwrap();
        let hour = 3_600_000;

        let days = app
            .invoke("usage_days", json!({"dayStartsMs": [now - 2 * hour, now + hour, now + 2 * hour]}))
            .unwrap();
        assert_eq!(days[0]["startMs"], now - 2 * hour);
        assert_eq!(
            days[0]["models"],
            json!([{"model": "gpt-5", "inputTokens": 1_200, "outputTokens": 34, "answers": 1}])
        );
        assert_eq!(days[1]["models"], json!([]));

        let refused = app.invoke("usage_days", json!({"dayStartsMs": [now, now - hour]})).unwrap_err();
        assert_eq!(refused["code"], "INVALID_INPUT");
        assert!(refused["message"].as_str().unwrap().contains("increase"), "{refused}");
    }

    #[test]
    fn day_bounds_must_increase_and_be_from_two_to_a_year_and_one() {
        assert_eq!(checked_days(&[10, 20, 45]), Ok(vec![(10, 20), (20, 45)]));
        assert!(checked_days(&[10]).unwrap_err().contains("from 2 to 367"));
        assert!(checked_days(&[20, 10]).unwrap_err().contains("increase"));
        assert!(checked_days(&[10, 10]).is_err());
        let year: Vec<u64> = (0..=366).collect();
        assert_eq!(checked_days(&year).map(|d| d.len()), Ok(366));
        let more: Vec<u64> = (0..=367).collect();
        assert!(checked_days(&more).is_err());
    }
}
