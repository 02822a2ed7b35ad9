//! Opening a web page in the user's browser, or a file of the project in the user's own app for it:
//! the platform's "open with the default application" program (`xdg-open`, `open`;
//! `WARDEN_OPENER` names another: a desktop without xdg-utils, or a test that records what it was
//! asked), started with the credential-stripped environment plus the display and the session bus
//! (`sandbox::env::opener_env`), and reaped off the async threads.
//! Callers check what they open first: an address is http or https only, a file is one Warden
//! chose (an instruction file in use), never a path the webview made up.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};

/// The environment variable naming the program that opens a web page.
pub const OPENER_ENV: &str = "WARDEN_OPENER";

/// The program that opens a web page here.
pub fn opener_program() -> String {
    if let Some(program) = std::env::var_os(OPENER_ENV).filter(|p| !p.is_empty()) {
        return program.to_string_lossy().into_owned();
    }
    if cfg!(target_os = "macos") {
        "open".to_owned()
    } else {
        "xdg-open".to_owned()
    }
}

/// Start the opener on `url`, on its own; it is reaped when it ends.
pub fn open(url: &str) -> std::io::Result<()> {
    start(OsStr::new(url))
}

/// Start the opener on the local file at `path` (absolute), on its own; it is reaped when it ends.
pub fn open_file(path: &Path) -> std::io::Result<()> {
    if !path.is_absolute() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, "not an absolute path"));
    }
    start(path.as_os_str())
}

fn start(what: &OsStr) -> std::io::Result<()> {
    let mut child = Command::new(opener_program())
        .arg(what)
        .env_clear()
        .envs(crate::sandbox::env::opener_env())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    Ok(())
}
