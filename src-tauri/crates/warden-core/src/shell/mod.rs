//! Judging a shell command without running it: a small POSIX-shell lexer ([`shell_words`]) and
//! what it reads — the blocklist (what no trust level may run, and what cannot be judged), what a
//! session grant on a command covers ([`command_prefix`]), the command patterns of permission
//! rules ([`command_rule`]) and the commands that only read ([`read_only`]). Nothing here runs
//! anything; the box is `containment`'s.

pub mod blocklist;
mod command_prefix;
pub(crate) mod command_rule;
mod critical_paths;
mod expand;
mod fork_bomb;
mod judge_budget;
mod options;
pub mod read_only;
mod shell_words;
#[cfg(test)]
mod shell_words_vs_bash;

/// What a session grant on a command covers (judged by the blocklist).
pub use command_prefix::{command_prefix, program_and_subcommand};
