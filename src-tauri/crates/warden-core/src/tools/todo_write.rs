//! `todo_write`: the model's task list for the work at hand, which the user watches as it goes.
//! It changes nothing but the conversation, so it never asks and is in every project's scope.

use std::collections::HashSet;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, TodoItem, TodoState, ToolCategory, ToolErrorCode};

use crate::tool::{ToolContext, ToolOutput, TypedTool};

/// The task list tool's name (the plan mode's approved steps become its first call).
pub const TODO_WRITE: &str = "todo_write";

/// The most tasks one list holds, and the longest a task's text may be.
const MAX_ITEMS: usize = 50;
const MAX_TEXT: usize = 500;

/// Write the task list for the work at hand: the whole list each time (it replaces the last
/// one). Use it for work of three steps or more; mark a task `in_progress` before starting it
/// and `done` as soon as it is finished. The user sees the list above their message field.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TodoWriteInput {
    /// Every task, in order.
    pub items: Vec<TodoInput>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TodoInput {
    /// A short id, unique in the list (`1`, `tests`).
    pub id: String,
    /// What the task is, in a few words.
    pub text: String,
    pub state: TodoStateInput,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TodoStateInput {
    Pending,
    InProgress,
    Done,
}

impl From<TodoStateInput> for TodoState {
    fn from(state: TodoStateInput) -> Self {
        match state {
            TodoStateInput::Pending => Self::Pending,
            TodoStateInput::InProgress => Self::InProgress,
            TodoStateInput::Done => Self::Done,
        }
    }
}

pub struct TodoWriteTool;

#[async_trait]
impl TypedTool for TodoWriteTool {
    type Input = TodoWriteInput;
    const NAME: &'static str = TODO_WRITE;
    const LABEL: &'static str = "Keep a task list";
    const CATEGORY: ToolCategory = ToolCategory::System;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = false;
    const CONVERSATION_ONLY: bool = true;

    async fn run(&self, input: TodoWriteInput, _ctx: ToolContext) -> ToolOutput {
        match checked(input.items) {
            Ok(items) => {
                let text = listing(&items);
                ToolOutput::success(text).with_report(|report| report.todo = Some(items))
            }
            Err(why) => ToolOutput::error(ToolErrorCode::ValidationError, why),
        }
    }
}

/// The list as the window keeps it, or why it is refused (the model is told and can send it again).
fn checked(items: Vec<TodoInput>) -> Result<Vec<TodoItem>, String> {
    if items.len() > MAX_ITEMS {
        return Err(format!("A task list holds at most {MAX_ITEMS} tasks; this one has {}.", items.len()));
    }
    let mut ids = HashSet::new();
    let mut list = Vec::with_capacity(items.len());
    for item in items {
        let id = item.id.trim();
        let text = item.text.trim();
        if id.is_empty() || text.is_empty() {
            return Err("Every task needs an id and a text.".to_owned());
        }
        if text.chars().count() > MAX_TEXT {
            return Err(format!("Task `{id}` is longer than {MAX_TEXT} characters: say it in fewer words."));
        }
        if !ids.insert(id.to_owned()) {
            return Err(format!("Two tasks have the id `{id}`: each id names one task."));
        }
        list.push(TodoItem { id: id.to_owned(), text: text.to_owned(), state: item.state.into() });
    }
    Ok(list)
}

/// What the model reads back: the count and the list, one mark per state.
fn listing(items: &[TodoItem]) -> String {
    let done = items.iter().filter(|i| i.state == TodoState::Done).count();
    let mut text = format!("Task list saved: {done} of {} done.", items.len());
    for item in items {
        let mark = match item.state {
            TodoState::Pending => "[ ]",
            TodoState::InProgress => "[>]",
            TodoState::Done => "[x]",
        };
        text.push_str(&format!("\n{mark} {} ({})", item.text, item.id));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: &str, text: &str, state: TodoStateInput) -> TodoInput {
        TodoInput { id: id.into(), text: text.into(), state }
    }

    #[test]
    fn a_list_is_kept_trimmed_and_read_back_with_its_marks() {
        let list = checked(vec![
            item("1", " Read the failing test ", TodoStateInput::Done),
            item("fix", "Fix the parser", TodoStateInput::InProgress),
            item("3", "Run the suite", TodoStateInput::Pending),
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(list[0].text, "Read the failing test");
        assert_eq!(list[1].state, TodoState::InProgress);
        assert_eq!(
            listing(&list),
            "Task list saved: 1 of 3 done.\n[x] Read the failing test (1)\n[>] Fix the parser (fix)\n[ ] Run the suite (3)"
        );
        assert_eq!(listing(&[]), "Task list saved: 0 of 0 done.");
    }

    #[test]
    fn a_list_the_window_could_not_show_is_refused_in_words() {
        let twice =
            checked(vec![item("a", "x", TodoStateInput::Done), item("a", "y", TodoStateInput::Pending)]);
        assert!(twice.is_err_and(|e| e.contains("Two tasks have the id `a`")));
        let empty = checked(vec![item("a", "  ", TodoStateInput::Done)]);
        assert!(empty.is_err_and(|e| e.contains("needs an id and a text")));
        let long = checked(vec![item("a", &"w".repeat(501), TodoStateInput::Done)]);
        assert!(long.is_err_and(|e| e.contains("longer than 500")));
        let many = (0..51).map(|i| item(&i.to_string(), "t", TodoStateInput::Pending)).collect();
        assert!(checked(many).is_err_and(|e| e.contains("at most 50")));
    }
}
