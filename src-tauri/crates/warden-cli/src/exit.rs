//! How a `warden` command ends when it does not end with 0: the one list of the command line's exit
//! statuses. Each command's `run` returns `Result<(), Exit>`; the `main`s turn that into the
//! process's status once, through [`status`], which says the message (if there is one) on stderr
//! through [`say::err`], sanitized like every other line.
//!
//! | status | variant |
//! |---|---|
//! | 1 | [`Exit::Failed`], [`Exit::FailedAsShown`] |
//! | 2 | [`Exit::Usage`], [`Exit::UsageAsShown`] (clap's own usage errors too) |
//! | 3, 4 | [`Exit::Asks`], [`Exit::Refused`] (`warden rules check`) |
//! | 125 | [`Exit::NoBox`] (`warden sandbox`) |
//! | 127 | [`Exit::NoEngine`] (the `warden` front) |
//! | 129, 130, 143 | [`Exit::Interrupted`] by SIGHUP, SIGINT, SIGTERM (`warden exec`, `warden tool`) |
//! | any | [`Exit::Boxed`]: the boxed command's own (`warden sandbox`) |

use std::fmt::Display;
use std::process::ExitCode;

use crate::say;

/// Every way a command ends other than with 0, each with its status ([`Exit::code`]).
///
/// Not only errors: `warden rules check`'s answers and the boxed command's status under
/// `warden sandbox` are a command doing its job. They are variants here all the same, so that this
/// is the one list of what each number means, and every command returns the same
/// `Result<(), Exit>` (a script reads them from `$?` like any other status).
///
/// The message of a variant that has one is the whole text said on stderr, worded by the command
/// (`warden: …`, `warden rules: …`); [`Exit::failed`] and [`Exit::usage`] word it the way most
/// commands do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// 1: the command could not do what it was asked; the message says why.
    Failed(String),
    /// 1: the command could not, and what it printed already says why: the turn's error in
    /// `warden exec`'s transcript, the tool's error result, a server that failed in
    /// `warden mcp list`, a rule `warden rules import` could not add.
    FailedAsShown,
    /// 2: the command line asks for what cannot be (a bad argument, an id that names nothing); the
    /// message says what.
    Usage(String),
    /// 2, and what the command printed already says what: `warden exec`, whose session the engine
    /// refused as a usage error, shows that as the turn's error.
    UsageAsShown,
    /// 3: `warden rules check`: the call would ask first.
    Asks,
    /// 4: `warden rules check`: the call would be refused.
    Refused,
    /// 125: `warden sandbox` cannot prepare the box or start it, or commands cannot be contained on
    /// this machine (as `env`, `nice` and `timeout` use 125).
    NoBox(String),
    /// 127: the `warden` front cannot start the engine (a shell's "command not found").
    NoEngine(String),
    /// 128 + the signal's number: stopped by a signal, after killing every process the command
    /// started.
    Interrupted(Signal),
    /// The command `warden sandbox` ran ended with this status, passed through (128 + N for one
    /// killed by signal N).
    Boxed(u8),
}

/// The signals that stop a command and what they mean to a person: SIGINT (Ctrl-C), SIGTERM
/// (`timeout`, CI, `kill`), SIGHUP (the terminal closed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Interrupt,
    Terminate,
    Hangup,
}

impl Signal {
    /// The signal's number (the same on every Unix).
    fn number(self) -> u8 {
        match self {
            Self::Hangup => 1,
            Self::Interrupt => 2,
            Self::Terminate => 15,
        }
    }
}

impl Exit {
    /// `Failed`, said as `warden: {message}`.
    pub fn failed(message: impl Display) -> Self {
        Self::Failed(format!("warden: {message}"))
    }

    /// `Usage`, said as `warden: {message}`.
    pub fn usage(message: impl Display) -> Self {
        Self::Usage(format!("warden: {message}"))
    }

    /// The process's exit status.
    pub fn code(&self) -> u8 {
        match self {
            Self::Failed(_) | Self::FailedAsShown => 1,
            Self::Usage(_) | Self::UsageAsShown => 2,
            Self::Asks => 3,
            Self::Refused => 4,
            Self::NoBox(_) => 125,
            Self::NoEngine(_) => 127,
            Self::Interrupted(signal) => 128 + signal.number(),
            Self::Boxed(status) => *status,
        }
    }

    /// What is said on stderr as the command ends, if anything.
    fn message(&self) -> Option<&str> {
        match self {
            Self::Failed(message) | Self::Usage(message) | Self::NoBox(message) | Self::NoEngine(message) => {
                Some(message)
            }
            Self::FailedAsShown
            | Self::UsageAsShown
            | Self::Asks
            | Self::Refused
            | Self::Interrupted(_)
            | Self::Boxed(_) => None,
        }
    }

    /// Say the message, if there is one, and give the process's status.
    pub fn report(&self) -> ExitCode {
        if let Some(message) = self.message() {
            say::err(message);
        }
        ExitCode::from(self.code())
    }
}

/// The process's status for how a command ended: 0, or the [`Exit`]'s, after saying its message.
pub fn status(result: Result<(), Exit>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(exit) => exit.report(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statuses the README, the `--help` text and scripts rely on.
    #[test]
    fn each_exit_has_its_documented_status() {
        let said = || "warden: x".to_owned();
        for (exit, code) in [
            (Exit::Failed(said()), 1),
            (Exit::FailedAsShown, 1),
            (Exit::Usage(said()), 2),
            (Exit::UsageAsShown, 2),
            (Exit::Asks, 3),
            (Exit::Refused, 4),
            (Exit::NoBox(said()), 125),
            (Exit::NoEngine(said()), 127),
            (Exit::Interrupted(Signal::Hangup), 129),
            (Exit::Interrupted(Signal::Interrupt), 130),
            (Exit::Interrupted(Signal::Terminate), 143),
            (Exit::Boxed(7), 7),
            (Exit::Boxed(137), 137),
        ] {
            assert_eq!(exit.code(), code, "{exit:?}");
        }
    }

    #[test]
    fn only_the_variants_with_a_message_say_one() {
        assert_eq!(Exit::failed("no store").message(), Some("warden: no store"));
        assert_eq!(
            Exit::usage("--project /x: not a directory").message(),
            Some("warden: --project /x: not a directory")
        );
        assert_eq!(Exit::NoBox("warden sandbox: no".to_owned()).message(), Some("warden sandbox: no"));
        assert_eq!(Exit::NoEngine("warden: gone".to_owned()).message(), Some("warden: gone"));
        for silent in [
            Exit::FailedAsShown,
            Exit::UsageAsShown,
            Exit::Asks,
            Exit::Refused,
            Exit::Interrupted(Signal::Interrupt),
            Exit::Boxed(3),
        ] {
            assert_eq!(silent.message(), None, "{silent:?}");
        }
    }
}
