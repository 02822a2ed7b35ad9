//! The window's log: warnings to stderr as before, and everything from `info` up (or what
//! `WARDEN_LOG` says) to rotating files in the platform's log folder, one per day, the last
//! [`KEEP_FILES`] kept — what a user attaches to a bug report ("Open log folder" in the Help
//! menu). Every line passes through [`warden_core::secrets::redact`] on its way to the file, so no
//! key Warden held, and nothing shaped like one, is written.

use std::io::{self, Write};
use std::path::Path;

use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// Days of logs kept.
pub const KEEP_FILES: usize = 7;
/// The log files' names: `warden.YYYY-MM-DD.log`.
const PREFIX: &str = "warden";
const SUFFIX: &str = "log";

/// Starts logging to stderr and, when there is a folder and it can be made, to the files in
/// `dir`. Logging is never a reason not to start: without a log folder the window runs with
/// stderr alone.
pub fn init(dir: Option<&Path>) {
    let stderr_filter = EnvFilter::try_from_env("WARDEN_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    let stderr = tracing_subscriber::fmt::layer().with_writer(io::stderr).with_filter(stderr_filter);
    let (file, file_error) = match dir.map(file_appender) {
        None => (None, None),
        Some(Ok(appender)) => {
            let filter = EnvFilter::try_from_env("WARDEN_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
            let layer = tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(Redacting(appender))
                .with_filter(filter);
            (Some(layer), None)
        }
        Some(Err(error)) => (None, Some(error)),
    };
    let _ = tracing_subscriber::registry().with(stderr).with(file).try_init();
    if let (Some(dir), Some(error)) = (dir, file_error) {
        tracing::warn!(dir = %dir.display(), %error, "no log files: the log folder cannot be used");
    }
}

/// Daily files in `dir` (made, private to the user), the oldest beyond [`KEEP_FILES`] removed.
pub fn file_appender(dir: &Path) -> io::Result<RollingFileAppender> {
    create_private_dir(dir)?;
    RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix(PREFIX)
        .filename_suffix(SUFFIX)
        .max_log_files(KEEP_FILES)
        .build(dir)
        .map_err(io::Error::other)
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// A writer factory whose writers redact each formatted event before it reaches `M`'s writer.
pub struct Redacting<M>(pub M);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Redacting<M> {
    type Writer = RedactingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter { inner: self.0.make_writer(), pending: Vec::new() }
    }
}

/// Collects one event's text (the formatter writes an event in pieces or whole) and writes it,
/// redacted, when the event is done (dropped) or flushed.
pub struct RedactingWriter<W: Write> {
    inner: W,
    pending: Vec<u8>,
}

impl<W: Write> RedactingWriter<W> {
    fn write_pending(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&self.pending);
        let cleaned = warden_core::secrets::redact::redact(&text);
        let result = self.inner.write_all(cleaned.as_bytes());
        self.pending.clear();
        result
    }
}

impl<W: Write> Write for RedactingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.write_pending()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for RedactingWriter<W> {
    fn drop(&mut self) {
        let _ = self.write_pending();
        let _ = self.inner.flush();
    }
}

#[cfg(test)]
#[path = "logs_tests.rs"]
mod tests;
