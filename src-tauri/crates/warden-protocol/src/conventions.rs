//! The skills and custom slash commands the window lists (Settings → Skills, the composer's `/`
//! completion): what was found, where it came from, and what was left out and why.

use serde::{Deserialize, Serialize};
use specta::Type;

/// Where a skill or command comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "snake_case")]
pub enum ConventionOrigin {
    /// Warden's config folder.
    Warden,
    /// The user's `~/.agents`.
    Agents,
    /// The project (`.agents/` or `.claude/`).
    Project,
}

/// One skill: a folder with a `SKILL.md`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct SkillEntry {
    pub name: String,
    pub description: String,
    pub origin: ConventionOrigin,
    /// Its folder.
    pub path: String,
    /// `false` when the user switched it off.
    pub on: bool,
}

/// One custom slash command: a markdown file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct SlashCommandEntry {
    pub name: String,
    pub description: Option<String>,
    /// What its arguments are (`[message]`), as the file says.
    pub argument_hint: Option<String>,
    pub origin: ConventionOrigin,
    pub path: String,
}

/// A skill folder or command file that is not offered, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ConventionProblem {
    pub path: String,
    pub message: String,
}

/// `conventions_list`: the skills and commands a conversation started now would have.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ConventionsInUse {
    pub skills: Vec<SkillEntry>,
    pub commands: Vec<SlashCommandEntry>,
    pub problems: Vec<ConventionProblem>,
}
