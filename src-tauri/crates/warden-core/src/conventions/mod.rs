//! The conventions users bring from other agents: skills (`SKILL.md` folders) and custom slash
//! commands (markdown files), read from Warden's config folder, the user's `~/.agents` and the
//! project's `.agents/` and `.claude/` folders. See docs/SKILLS.md and docs/COMMANDS.md.
//!
//! What a project brings is read as the file tools read the project (never through a link, never a
//! secret-bearing path) and grants nothing: a skill is instructions the model may load, a command
//! is a message the user chose to send.

pub mod commands;
pub mod files;
pub mod front_matter;
pub mod skill_files;
pub mod skills;

use std::path::{Path, PathBuf};

pub use commands::{Command, Commands, Expansion};
pub use skills::{Roots, Skill, Skills};

/// The commands the window (and `warden exec`, where they mean something) handles itself: no skill
/// or command file may take these names.
pub const BUILT_INS: [&str; 8] =
    ["clear", "compact", "cost", "help", "model", "permissions", "plan", "rewind"];

/// Where a skill or command comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Warden's config folder.
    Warden,
    /// The user's `~/.agents`.
    Agents,
    /// The project.
    Project,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Warden => "warden",
            Self::Agents => "agents",
            Self::Project => "project",
        }
    }
}

/// A skill folder or command file that was left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: PathBuf,
    pub message: String,
}

impl Problem {
    pub fn new(path: &Path, message: impl Into<String>) -> Self {
        let message = message.into();
        tracing::warn!(path = %path.display(), %message, "left out");
        Self { path: path.to_path_buf(), message }
    }
}

/// The skills and commands of one session.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conventions {
    pub skills: Skills,
    pub commands: Commands,
}

impl Conventions {
    /// Everything under `roots`, without the skills the user switched off.
    pub fn discover(roots: &Roots, skills_off: &[String]) -> Self {
        Self {
            skills: Skills::discover(roots).without(skills_off),
            commands: Commands::discover(roots.warden.as_deref(), roots.project.as_deref()),
        }
    }
}

/// What a message typed as `/name args` invokes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invocation<'a> {
    Command(&'a Command, &'a str),
    Skill(&'a Skill, &'a str),
}

impl Conventions {
    /// The command or skill a message invokes: it starts with `/name` (a command first, then a
    /// skill of that name). `None` for any other message, so a path like `/usr/bin/env is missing`
    /// is sent as it is.
    pub fn invoked<'a>(&'a self, message: &'a str) -> Option<Invocation<'a>> {
        let (name, args) = slash(message)?;
        if let Some(command) = self.commands.get(name) {
            return Some(Invocation::Command(command, args));
        }
        self.skills.get(name).map(|skill| Invocation::Skill(skill, args))
    }
}

/// `(name, args)` of a message that starts with `/name` (then whitespace or its end).
pub fn slash(message: &str) -> Option<(&str, &str)> {
    let rest = message.trim_start().strip_prefix('/')?;
    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let (name, args) = rest.split_at(end);
    skills::check_name(name).ok().or_else(|| BUILT_INS.contains(&name).then_some(()))?;
    Some((name, args.trim()))
}

#[cfg(test)]
mod tests;
