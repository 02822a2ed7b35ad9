//! Bringing another agent's rules: Claude Code's `permissions.allow/ask/deny` and codex's
//! `prefix_rule`s, converted into Warden's rules and offered — each labelled with its file, an
//! allow wider than one program prefix unticked with a warning — before anything is added. What
//! cannot be converted is listed with why, never guessed.
//!
//! The files read: `~/.claude/settings.json` (the user's rules), the project's
//! `.claude/settings.json` and `.claude/settings.local.json` (the project's), codex's
//! `~/.codex/rules/*.rules` and `~/.codex/policy/*.codexpolicy` (the user's) and the project's
//! `.codex/rules/*.rules`.

mod claude;
mod codex;

use std::path::{Path, PathBuf};

use warden_protocol::{ImportCandidate, ImportSkipped, PermissionRule, RuleImport, RuleOrigin, RuleScope};

/// A larger file is not a settings file anyone wrote by hand.
const MAX_BYTES: u64 = 1024 * 1024;

/// Which agent wrote a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    ClaudeCode,
    Codex,
}

/// One file to import from, and where its rules would be kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub file: PathBuf,
    pub agent: Agent,
    pub scope: RuleScope,
}

/// The files the agents keep their rules in, for `project` and the user's `home`, that exist.
pub fn sources(project: &Path, home: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut add = |file: PathBuf, agent, scope| {
        if file.is_file() {
            out.push(Source { file, agent, scope });
        }
    };
    add(home.join(".claude/settings.json"), Agent::ClaudeCode, RuleScope::User);
    add(project.join(".claude/settings.json"), Agent::ClaudeCode, RuleScope::Project);
    add(project.join(".claude/settings.local.json"), Agent::ClaudeCode, RuleScope::Project);
    for (dir, ext, scope) in [
        (home.join(".codex/rules"), "rules", RuleScope::User),
        (home.join(".codex/policy"), "codexpolicy", RuleScope::User),
        (project.join(".codex/rules"), "rules", RuleScope::Project),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<PathBuf> =
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == ext)).collect();
        files.sort();
        for file in files {
            add(file, Agent::Codex, scope);
        }
    }
    out
}

/// What `sources` hold, converted: `project` is where relative paths of the project's files start.
pub fn import(sources: &[Source], project: &Path) -> RuleImport {
    let mut out = RuleImport::default();
    for source in sources {
        let from = source.file.display().to_string();
        out.files.push(from.clone());
        let text = match read(&source.file) {
            Ok(text) => text,
            Err(why) => {
                out.skipped.push(ImportSkipped { from, entry: String::new(), why });
                continue;
            }
        };
        let converted = match source.agent {
            Agent::ClaudeCode => claude::convert(&text, source.scope, project),
            Agent::Codex => codex::convert(&text),
        };
        match converted {
            Ok(entries) => {
                for entry in entries {
                    match entry.rule {
                        Ok(rule) => out.candidates.push(candidate(rule, source.scope, &from, entry.text)),
                        Err(why) => {
                            out.skipped.push(ImportSkipped { from: from.clone(), entry: entry.text, why })
                        }
                    }
                }
            }
            Err(why) => out.skipped.push(ImportSkipped { from, entry: String::new(), why }),
        }
    }
    out
}

/// One entry of a file: its text, and the rule it converts to or why it does not.
pub(super) struct Entry {
    text: String,
    rule: Result<PermissionRule, String>,
}

impl Entry {
    fn new(text: impl Into<String>, rule: Result<PermissionRule, String>) -> Self {
        Self { text: text.into(), rule }
    }
}

fn candidate(rule: PermissionRule, scope: RuleScope, from: &str, entry: String) -> ImportCandidate {
    let rule = rule.with_origin(RuleOrigin::Imported { from: from.to_owned() });
    let problem = super::check(&rule).err();
    let warning = problem.or_else(|| super::wide_allow(&rule));
    ImportCandidate { ticked: warning.is_none(), warning, rule, scope, entry }
}

fn read(file: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(file).map_err(|e| format!("cannot read it: {e}"))?;
    if meta.len() > MAX_BYTES {
        return Err(format!("it is larger than {} KiB", MAX_BYTES / 1024));
    }
    std::fs::read_to_string(file).map_err(|e| format!("cannot read it: {e}"))
}

#[cfg(test)]
mod tests;
