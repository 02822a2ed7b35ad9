//! What "Always allow…" offers to save for a call that asked: the narrowest rule a user would
//! want again — the program and subcommand of a command with any arguments (`cargo test *`), the
//! folder of a written file (`src/a/**`), the tool of an MCP call — and only the exact command for
//! programs whose danger lies in their arguments. A command that only reads (`git status`,
//! `ls -la`) is offered the class of such commands, `@read-only`, with its own prefix as the
//! narrower choice: every command of the class is checked word by word, and none of them writes.

use warden_protocol::{SuggestedRule, COMMAND_RULE_TOOL, READ_RULE_TOOL, WRITE_RULE_TOOL};

use super::Files;
use crate::shell::command_rule::{self, CommandPattern};
use crate::shell::program_and_subcommand;
use crate::shell::read_only::{reads_only, READ_ONLY_PATTERN};

/// Programs whose approval is never remembered beyond the exact command: their danger lies in
/// their arguments (what they delete, overwrite, kill or send), which a prefix cannot see.
pub const NEVER_REMEMBERED: &[&str] = &[
    "rm", "rmdir", "mv", "cp", "dd", "ln", "chmod", "chown", "chgrp", "truncate", "shred", "kill", "pkill",
    "killall", "find", "xargs", "curl", "wget", "scp", "rsync", "ssh",
];

/// The rule offered for a call of `tool` that runs `command` or touches `files`; `None` when no
/// rule could cover it (a compound or computed command, a path outside the project).
pub fn suggest(tool: &str, command: Option<&str>, files: &Files) -> Option<SuggestedRule> {
    if let Some(command) = command {
        let words = command_rule::single_command(command)?;
        let program = words.first()?;
        let name = program.rsplit('/').next().unwrap_or(program);
        if NEVER_REMEMBERED.contains(&name) {
            let pattern = CommandPattern::exact(&words).to_string();
            return Some(SuggestedRule {
                tool: COMMAND_RULE_TOOL.to_owned(),
                pattern: Some(pattern),
                exact_only: true,
                narrower: None,
            });
        }
        // Options before a subcommand (`cargo --version`, `git -c a=b push`) leave no prefix a
        // user would mean: the exact command is offered.
        let pattern = match program_and_subcommand(&words) {
            Some(prefix) => CommandPattern::prefix(&prefix).to_string(),
            None => CommandPattern::exact(&words).to_string(),
        };
        let (pattern, narrower) =
            if reads_only(&words) { (READ_ONLY_PATTERN.to_owned(), Some(pattern)) } else { (pattern, None) };
        return Some(SuggestedRule {
            tool: COMMAND_RULE_TOOL.to_owned(),
            pattern: Some(pattern),
            exact_only: false,
            narrower,
        });
    }
    if !files.paths.is_empty() {
        let paths: Vec<&str> = files.paths.iter().map(Option::as_deref).collect::<Option<_>>()?;
        let tool = if files.write { WRITE_RULE_TOOL } else { READ_RULE_TOOL };
        return Some(SuggestedRule {
            tool: tool.to_owned(),
            pattern: Some(folder_glob(&paths)),
            exact_only: false,
            narrower: None,
        });
    }
    Some(SuggestedRule { tool: tool.to_owned(), pattern: None, exact_only: false, narrower: None })
}

/// The glob of the folder all `paths` lie in (`src/a/**`), or the one path itself when it lies
/// at the project's top (`README.md`), or everything (`**`) when they share no folder.
fn folder_glob(paths: &[&str]) -> String {
    if let [only] = paths {
        if !only.contains('/') && *only != "." {
            return escape(only);
        }
    }
    let folders: Vec<Vec<&str>> = paths
        .iter()
        .map(|p| {
            let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty() && *s != ".").collect();
            // A folder read (list_dir src) is its own folder; a file is in its parent's.
            parts
        })
        .collect();
    let mut common: Vec<&str> = folders.first().cloned().unwrap_or_default();
    // A path's last part is a file, unless the call reads a folder: both are covered by the
    // folder's `**` when the path has a parent.
    for parts in &folders {
        let dir = &parts[..parts.len().saturating_sub(1)];
        let shared = common.iter().zip(dir).take_while(|(a, b)| a == b).count();
        common.truncate(shared.min(dir.len()));
    }
    if common.is_empty() {
        "**".to_owned()
    } else {
        format!("{}/**", common.iter().map(|p| escape(p)).collect::<Vec<_>>().join("/"))
    }
}

/// A path's characters that a glob would read as its own, escaped.
fn escape(path: &str) -> String {
    let mut out = String::new();
    for c in path.chars() {
        if "*?[]{}".contains(c) {
            out.push('[');
            out.push(c);
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(write: bool, paths: &[&str]) -> Files {
        Files { write, paths: paths.iter().map(|p| Some((*p).to_owned())).collect() }
    }

    fn offered(tool: &str, command: Option<&str>, files: &Files) -> Option<(String, Option<String>, bool)> {
        suggest(tool, command, files).map(|s| (s.tool, s.pattern, s.exact_only))
    }

    #[test]
    fn a_command_is_narrowed_to_its_program_and_subcommand() {
        let none = Files::default();
        let table = [
            ("cargo test --release -p foo", Some("cargo test *"), false),
            ("npm run build", Some("npm run *"), false),
            ("git commit -m x", Some("git commit *"), false),
            ("nice cargo build", Some("cargo build *"), false),
            ("rm build.log", Some("rm build.log"), true),
            ("curl -fsS http://x.test/a", Some("curl -fsS http://x.test/a"), true),
            ("rm 'a b'", Some("rm 'a b'"), true),
        ];
        for (command, pattern, exact) in table {
            let got = offered("bash", Some(command), &none);
            assert_eq!(got, Some(("bash".to_owned(), pattern.map(str::to_owned), exact)), "{command}");
        }
        let exact = offered("bash", Some("cargo --version"), &none);
        assert_eq!(exact, Some(("bash".to_owned(), Some("cargo --version".to_owned()), false)));
        for command in ["git status && ls", "sudo ls", "sh -c ls", "ls $(pwd)", "rm $X"] {
            assert_eq!(offered("bash", Some(command), &none), None, "{command}");
        }
    }

    #[test]
    fn a_command_that_only_reads_is_offered_the_class_with_its_prefix_as_the_narrower_choice() {
        let none = Files::default();
        for (command, narrower) in [
            ("git status", "git status *"),
            ("ls -la", "ls *"),
            ("sed -n 1,2p a", "sed *"),
            ("date -u", "date *"),
        ] {
            let got =
                suggest("bash", Some(command), &none).unwrap_or_else(|| panic!("{command}: nothing offered"));
            assert_eq!(got.pattern.as_deref(), Some("@read-only"), "{command}");
            assert_eq!(got.narrower.as_deref(), Some(narrower), "{command}");
        }
        for command in ["git branch -D old", "sort -o out in", "sed -i s/a/b/ f", "find . -delete"] {
            let got =
                suggest("bash", Some(command), &none).unwrap_or_else(|| panic!("{command}: nothing offered"));
            assert_ne!(got.pattern.as_deref(), Some("@read-only"), "{command} writes");
            assert_eq!(got.narrower, None, "{command}");
        }
    }

    #[test]
    fn a_path_is_narrowed_to_its_folder() {
        let table = [
            (files(true, &["src/a/b.rs"]), "write", "src/a/**"),
            (files(true, &["README.md"]), "write", "README.md"),
            (files(true, &["src/a/b.rs", "src/c.rs"]), "write", "src/**"),
            (files(true, &["src/a.rs", "docs/b.md"]), "write", "**"),
            (files(false, &["src/a/lib.rs"]), "read", "src/a/**"),
            (files(false, &["src"]), "read", "src"),
            (files(false, &["."]), "read", "**"),
            (files(true, &["a[1]/x"]), "write", "a[[]1[]]/**"),
        ];
        for (files, tool, pattern) in table {
            assert_eq!(
                offered("file_write", None, &files),
                Some((tool.to_owned(), Some(pattern.to_owned()), false))
            );
        }
        let outside = Files { write: true, paths: vec![None] };
        assert_eq!(offered("file_write", None, &outside), None);
        assert_eq!(
            offered("mcp__db__query", None, &Files::default()),
            Some(("mcp__db__query".to_owned(), None, false))
        );
    }
}
