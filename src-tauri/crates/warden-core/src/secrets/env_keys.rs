//! Keys given in the environment (`ANTHROPIC_API_KEY=… warden exec …`) are taken into memory when
//! Warden starts and then erased from its own environment — not only from the variables its
//! children inherit (those are sanitized anyway), but from the process's original environment block,
//! which is what `/proc/<warden>/environ` shows to any process of the same user (a command Warden
//! runs reads `/proc/$PPID/environ`). Removing a variable (`unsetenv`) does not touch that block, so
//! the value's bytes are overwritten in place first.
//!
//! Every variable that looks like a credential (see `sandbox::env`) is erased, not just the keys
//! Warden uses: Warden never needs a `GITHUB_TOKEN`, and nothing it runs should find one in it —
//! except the few Warden needs itself whose value is a location, not a secret (see
//! [`needed_by_warden`]).
//! Call [`capture_and_scrub`] first thing in `main`, before any other thread exists.

use std::collections::HashMap;
use std::ffi::{OsStr, OsString};
use std::sync::OnceLock;

use super::ApiKey;
use crate::sandbox::env::is_credential;

/// The credential variables Warden found at start, by name.
static CAPTURED: OnceLock<HashMap<OsString, String>> = OnceLock::new();

/// Take the credential variables out of this process's environment, keeping their values in memory
/// for [`env_key`]. Returns how many were erased. Only the first call does anything.
///
/// Must run before any other thread is started: the environment is not thread-safe to modify.
pub fn capture_and_scrub() -> usize {
    let mut erased = 0;
    CAPTURED.get_or_init(|| {
        let captured: HashMap<OsString, String> = std::env::vars_os()
            .filter(|(name, value)| is_credential(name, value) && !needed_by_warden(name))
            .map(|(name, value)| (name, value.to_string_lossy().into_owned()))
            .collect();
        erase_values_in_place(&captured);
        for name in captured.keys() {
            #[allow(
                clippy::disallowed_methods,
                reason = "taking the credentials out of Warden's own environment is the point"
            )]
            std::env::remove_var(name);
        }
        erased = captured.len();
        captured
    });
    erased
}

/// Variables that look like credentials to the child-environment rules but that Warden itself
/// needs in its own environment, and whose value is no secret in itself: where to find something
/// (the X cookie file the window needs, an agent socket, a token *file*), or the proxy its own
/// requests go through (a proxy password stays readable to root through `/proc`; children never
/// get the variable). Children still never inherit any of these.
fn needed_by_warden(name: &OsStr) -> bool {
    let upper = name.to_string_lossy().to_ascii_uppercase();
    matches!(upper.as_str(), "XAUTHORITY" | "SSH_AUTH_SOCK" | "GPG_AGENT_INFO" | "DBUS_SESSION_BUS_ADDRESS")
        || upper.ends_with("_FILE")
        || upper.ends_with("_SOCK")
        || upper.ends_with("_PROXY")
}

/// The value of credential variable `name` as Warden was started with it. Before (or without)
/// [`capture_and_scrub`], the live environment is read.
pub fn env_key(name: &str) -> Option<ApiKey> {
    let value = match CAPTURED.get() {
        Some(captured) => captured.get(OsStr::new(name)).cloned(),
        None => std::env::var(name).ok(),
    };
    value.and_then(ApiKey::new)
}

/// Overwrite, in the C environment block, the value bytes of every `NAME=value` entry whose name is
/// in `names`. The entries stay (as `NAME=` followed by NULs) until `remove_var` drops them from the
/// list; the original block, which `/proc/self/environ` reads, keeps only the NULs.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn erase_values_in_place(names: &HashMap<OsString, String>) {
    use std::os::unix::ffi::OsStrExt;

    extern "C" {
        static mut environ: *mut *mut std::ffi::c_char;
    }
    // SAFETY: called once, before any other thread exists, so nothing reads or changes the
    // environment meanwhile. `environ` is the NULL-terminated array of NUL-terminated `NAME=value`
    // strings libc keeps; every string in it is writable memory (the initial stack block, or a
    // buffer setenv allocated). Only bytes before each string's own NUL are written.
    unsafe {
        let mut entry = environ;
        if entry.is_null() {
            return;
        }
        while !(*entry).is_null() {
            let text = std::ffi::CStr::from_ptr(*entry).to_bytes();
            if let Some(eq) = text.iter().position(|&b| b == b'=') {
                if names.contains_key(OsStr::from_bytes(&text[..eq])) {
                    let value = (*entry).add(eq + 1);
                    std::ptr::write_bytes(value, 0, text.len() - eq - 1);
                }
            }
            entry = entry.add(1);
        }
    }
}

/// Elsewhere only the variables are removed: no `/proc` exposes the original block there.
#[cfg(not(target_os = "linux"))]
fn erase_values_in_place(_names: &HashMap<OsString, String>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warden_keeps_what_it_needs_that_is_no_secret() {
        for name in
            ["XAUTHORITY", "SSH_AUTH_SOCK", "HTTPS_PROXY", "https_proxy", "AWS_WEB_IDENTITY_TOKEN_FILE"]
        {
            assert!(needed_by_warden(OsStr::new(name)), "{name}");
        }
        for name in ["ANTHROPIC_API_KEY", "GITHUB_TOKEN", "DATABASE_URL", "MYSQL_PWD"] {
            assert!(!needed_by_warden(OsStr::new(name)), "{name}");
        }
    }
}
