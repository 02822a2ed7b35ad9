//! The one door to the terminal. Every line the `warden` command prints goes out through here, and
//! whatever it holds — a tool name the model chose, a file name in the project, a server's error,
//! a title — reaches the terminal through [`sanitize`], so no escape sequence, control character
//! or bidi override in it is ever obeyed. The crates deny `print!`/`eprint!` and `std::io::stdout`
//! / `stderr` (clippy, `crates/warden-cli/clippy.toml`) everywhere but here, so a new print cannot
//! forget.
//!
//! [`out`] and [`err`] take a whole line (or several): it is sanitized as body text, keeping its
//! newlines and tabs. A name or path that must stay on one line is given as
//! [`sanitize::line`]`(name)` inside it, so it cannot start a line of its own.
//!
//! Machine output (`--json`) goes through [`json_line`]: JSON escapes control characters itself,
//! and the rest a terminal could act on (DEL, C1 controls, bidi and invisible characters) are
//! written as `\uXXXX` escapes, which decode to the same string.

// This module is where printing is allowed.
#![allow(clippy::disallowed_methods, clippy::print_stdout, clippy::print_stderr)]

use std::io::Write;

use crate::sanitize;

/// `text` and a line end on stdout, sanitized. A closed pipe (`| head`) is no error.
pub fn out(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", sanitize::body(text));
}

/// `text` and a line end on stderr, sanitized.
pub fn err(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{}", sanitize::body(text));
}

/// `text` on stderr as it streams (no line end added), sanitized.
pub fn err_part(text: &str) {
    let mut stderr = std::io::stderr().lock();
    let _ = write!(stderr, "{}", sanitize::body(text));
    let _ = stderr.flush();
}

/// One JSON value on a line of stdout (`--json`).
pub fn json_line(value: &serde_json::Value) {
    out_raw(&sanitize::json(&value.to_string()));
}

/// Already-safe text on stdout with a line end: what [`sanitize::json`] made.
fn out_raw(text: &str) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{text}");
}

/// The standard output for a renderer that sanitizes every piece it writes itself (`render.rs`:
/// the transcript of `warden exec` and its `--json` events): nothing else may take it.
pub fn renderer_stdout() -> std::io::Stdout {
    std::io::stdout()
}

/// The standard error for the transcript's notes (sanitized piece by piece, like the transcript).
pub fn renderer_stderr() -> std::io::Stderr {
    std::io::stderr()
}

/// Where log lines go (`tracing`'s writer): stderr, each line sanitized as the rest — a log line
/// can quote what a server or the model sent. (Logs are written without colours for that.)
pub fn log_writer() -> LogWriter {
    LogWriter
}

pub struct LogWriter;

impl Write for LogWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(bytes);
        std::io::stderr().lock().write_all(sanitize::body(&text).as_bytes())?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

/// Whether stdout / stderr are terminals (for colours and prompts).
pub fn stdout_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stdout())
}

pub fn stderr_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stderr())
}
