//! The list's search and Settings → Sandbox's Clear over the remote projects linked in this
//! window: asked there, where their conversations and caches are (docs/REMOTE.md).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::State;
use warden_protocol::ConversationHit;

use super::remote::linked;
use crate::error::CommandResult;
use crate::state::AppState;

/// How long the search waits for a remote machine: a link that is down (or slow) leaves its
/// project out of the results, said in words, and never holds the search back longer.
const SEARCH_WAIT: Duration = Duration::from_secs(5);

/// What a linked remote project's machine found for a search of the list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct RemoteSearchHits {
    /// The linked conversation of the project (its link here).
    pub via: String,
    /// `host:/path`.
    pub target: String,
    /// The conversations held in the project's folder there, found.
    pub hits: Vec<ConversationHit>,
    /// Why the project could not be searched (its hits are then empty).
    pub error: Option<String>,
}

/// The list's search over every remote project linked in this window: the conversations saved in
/// its folder there holding every word of `query`, at most `limit` (1 to 200) of each, asked of
/// every machine at once. A project linked by several conversations is asked once, and a
/// conversation found in two answers is listed in the first.
#[tauri::command]
#[specta::specta]
pub async fn remote_search(
    state: State<'_, AppState>,
    query: String,
    limit: u32,
) -> CommandResult<Vec<RemoteSearchHits>> {
    let mut linked = state.remotes().await;
    // One link of each project: the others would find the same.
    linked.sort_by_key(|(via, remote)| (remote.target(), via.clone()));
    linked.dedup_by_key(|(_, remote)| remote.target());
    let mut asks = tokio::task::JoinSet::new();
    for (via, remote) in linked {
        let query = query.clone();
        asks.spawn(async move {
            let target = remote.target();
            let found = tokio::time::timeout(SEARCH_WAIT, remote.search(query, limit)).await;
            let (hits, error) = match found {
                Ok(Ok(hits)) => (hits, None),
                Ok(Err(error)) => (Vec::new(), Some(error.message)),
                Err(_) => {
                    (Vec::new(), Some(format!("It did not answer within {} s.", SEARCH_WAIT.as_secs())))
                }
            };
            RemoteSearchHits { via, target, hits, error }
        });
    }
    let mut found = Vec::new();
    while let Some(answer) = asks.join_next().await {
        if let Ok(answer) = answer {
            found.push(answer);
        }
    }
    Ok(in_order_once_each(found))
}

/// The answers in the same order each time, whichever machine answered first, each conversation
/// in the first answer that found it: two names of one folder there (a link, a trailing `/`) find
/// the same conversations.
fn in_order_once_each(mut found: Vec<RemoteSearchHits>) -> Vec<RemoteSearchHits> {
    found.sort_by(|a, b| a.target.cmp(&b.target));
    let mut seen = std::collections::HashSet::new();
    for answer in &mut found {
        answer.hits.retain(|hit| seen.insert(hit.conversation.id.clone()));
    }
    found
}

/// Settings → Sandbox's Clear for a linked remote project (`conversation_id`): its cache layer
/// there is removed.
#[tauri::command]
#[specta::specta]
pub async fn remote_clear_cache_layer(
    state: State<'_, AppState>,
    conversation_id: String,
) -> CommandResult<()> {
    linked(&state, &conversation_id, "its box").await?.clear_cache_layer().await
}

#[cfg(test)]
mod tests {
    use warden_protocol::ConversationSummary;

    use super::*;

    fn answer(target: &str, ids: &[&str]) -> RemoteSearchHits {
        let hit = |id: &&str| ConversationHit {
            conversation: ConversationSummary {
                id: (*id).to_owned(),
                title: String::new(),
                project_root: None,
                updated_at_ms: 0,
                message_count: 0,
            },
            snippet: None,
        };
        RemoteSearchHits {
            via: format!("via-{target}"),
            target: target.to_owned(),
            hits: ids.iter().map(hit).collect(),
            error: None,
        }
    }

    #[test]
    fn answers_come_in_the_order_of_their_projects_and_a_conversation_once() {
        let found = in_order_once_each(vec![
            answer("b:/srv/app/", &["c1", "c3"]),
            answer("a:/x", &["c2"]),
            answer("b:/srv/app", &["c1", "c4"]),
        ]);
        let shown: Vec<(&str, Vec<&str>)> = found
            .iter()
            .map(|a| (a.target.as_str(), a.hits.iter().map(|h| h.conversation.id.as_str()).collect()))
            .collect();
        assert_eq!(
            shown,
            [("a:/x", vec!["c2"]), ("b:/srv/app", vec!["c1", "c4"]), ("b:/srv/app/", vec!["c3"])]
        );
    }
}
