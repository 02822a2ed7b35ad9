//! The task list the model keeps with `todo_write`: shown pinned above the composer, sent by
//! `warden exec --json` as `todo` events, and kept with the conversation (in the call's report).

use serde::{Deserialize, Serialize};
use specta::Type;

/// One task of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct TodoItem {
    pub id: String,
    pub text: String,
    pub state: TodoState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum TodoState {
    Pending,
    InProgress,
    Done,
}

/// `chat:todo`: the whole task list after a `todo_write` call (each call replaces it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct TodoList {
    pub conversation_id: String,
    pub items: Vec<TodoItem>,
}
