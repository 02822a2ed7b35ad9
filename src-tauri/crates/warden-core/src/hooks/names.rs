//! Claude Code's names for Warden's tools and their input fields, so a hook written for it reads
//! the event it expects (`tool_name: "Bash"`, `tool_input.command`, `tool_input.file_path`…) and a
//! rewritten input in its fields reaches the right tool. Warden's own names and fields are there
//! too (`warden_tool_name`, every field of Warden's input).

use serde_json::{Map, Value};

/// `(Warden's name, Claude Code's name)`.
const TOOLS: [(&str, &str); 9] = [
    ("bash", "Bash"),
    ("file_read", "Read"),
    ("file_write", "Write"),
    ("file_edit", "Edit"),
    ("apply_patch", "MultiEdit"),
    ("search_in_files", "Grep"),
    ("search_files", "Glob"),
    ("list_dir", "LS"),
    ("web_search", "WebSearch"),
];

/// `(Warden's field, Claude Code's field)` of file tools.
const FIELDS: [(&str, &str); 3] =
    [("path", "file_path"), ("old_text", "old_string"), ("new_text", "new_string")];

/// Claude Code's name for a Warden tool; other names (MCP tools are `mcp__server__tool` in both)
/// as they are.
pub fn claude_name(warden: &str) -> &str {
    TOOLS.iter().find(|(ours, _)| *ours == warden).map_or(warden, |(_, theirs)| theirs)
}

/// The input as a hook reads it: Warden's fields, and Claude Code's names beside them.
pub fn hook_input(input: &Value) -> Value {
    let Value::Object(fields) = input else { return input.clone() };
    let mut out = fields.clone();
    for (ours, theirs) in FIELDS {
        if let Some(value) = fields.get(ours) {
            out.entry(theirs.to_owned()).or_insert_with(|| value.clone());
        }
    }
    Value::Object(out)
}

/// A hook's rewritten input as Warden's tool takes it: Claude Code's fields under Warden's names
/// (a field the hook gave in both spellings takes Warden's), fields no tool knows left as they are
/// for the tool to refuse.
pub fn tool_input(updated: &Value) -> Value {
    let Value::Object(fields) = updated else { return updated.clone() };
    let mut out = Map::new();
    for (name, value) in fields {
        match FIELDS.iter().find(|(_, theirs)| theirs == name) {
            Some((ours, _)) if !fields.contains_key(*ours) => {
                out.insert((*ours).to_owned(), value.clone());
            }
            Some(_) => {}
            None => {
                out.insert(name.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}
