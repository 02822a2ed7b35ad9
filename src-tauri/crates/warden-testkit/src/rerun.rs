//! A test run again in a process of its own whose environment holds given variables from its
//! start. A test about what Warden does with its own environment (the credentials it must not pass
//! on to a command or a server) cannot put them there with `std::env::set_var`: that changes the
//! environment of every test of the binary, running at the same time — a provider key one test
//! sets is found by another as if the user had given it. (`clippy.toml` refuses `set_var` and
//! `remove_var` for that reason.)
//!
//! ```ignore
//! #[test]
//! fn a_credential_does_not_reach_the_child() {
//!     if !rerun_with_env(module_path!(), "a_credential_does_not_reach_the_child", &[("X_API_KEY", "k")]) {
//!         return; // it ran, and passed, in its own process
//!     }
//!     // here X_API_KEY is in this process's environment, and in no other test's
//! }
//! ```

use std::process::Command;

/// Set in the process running one test again: the test's name as the harness knows it.
const RERUN: &str = "WARDEN_TESTKIT_RERUN";

/// In the process running the test `function` of the module `module` (pass `module_path!()`)
/// again, true: the caller goes on with the test's body. Anywhere else it runs the test binary
/// again with that test alone and `vars` added to its environment, panics unless that process ran
/// the test and it passed, and returns false: the caller returns.
pub fn rerun_with_env(module: &str, function: &str, vars: &[(&str, &str)]) -> bool {
    // The harness names a test by its path without the crate (`tools::bash::name`).
    let test = match module.split_once("::") {
        Some((_, path)) => format!("{path}::{function}"),
        None => function.to_owned(),
    };
    if std::env::var(RERUN).is_ok_and(|running| running == test) {
        return true;
    }
    let binary = std::env::current_exe().unwrap_or_else(|e| panic!("the test binary's path: {e}"));
    let out = Command::new(&binary)
        .args([test.as_str(), "--exact", "--nocapture", "--test-threads=1", "--include-ignored"])
        .env(RERUN, &test)
        .envs(vars.iter().copied())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} again: {e}", binary.display()));
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "`{test}` failed in its own process ({}):\n{said}", out.status);
    assert!(
        said.contains("test result: ok. 1 passed"),
        "the process that was to run `{test}` again ran no test of that name:\n{said}"
    );
    false
}
