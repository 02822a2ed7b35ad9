//! The `warden` command is two binaries: a small front, and the engine it hands everything else to.
//!
//! `warden sandbox` is started once per boxed command by scripts and benchmarks, and most of its
//! cost was the engine's own start — a binary of tens of megabytes whose tens of thousands of
//! relocations the loader applies before `main`. So the front does one thing itself: a
//! `warden sandbox` command line in the plain form below, which it turns into the box and replaces
//! itself with. Every other command line (other subcommands, `--help`, `-v`, any spelling the
//! plain form does not cover, errors included) goes unchanged to `warden-engine`, which the front
//! replaces itself with: same process, same arguments, same environment, so exit statuses and
//! signals are the engine's. The engine runs the same [`crate::sandbox_cmd`] for the sandbox
//! command lines it is given.
//!
//! The packages and the benchmark link the front statically (`scripts/build_cli.sh`): no shared
//! libraries to load saves ≈ 0.3 ms of its start; a build with plain `cargo build` works the same.
//!
//! The plain form: `sandbox`, then any of `--project DIR`, `--network`, `--write DIR` (each
//! `--opt=VALUE` too; `--project` and `--network` at most once; values not empty and not starting
//! with `-`), then `--` and at least the command.

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use crate::sandbox_cmd::BoxRequest;

/// The engine's file name, beside the front (a build's target folder, `cargo install`) or in
/// `../lib/warden/` from it (the packages: `/usr/bin/warden`, `/usr/lib/warden/warden-engine`).
pub const ENGINE: &str = "warden-engine";

/// Who runs a command line.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// The front runs this box itself.
    Sandbox(BoxRequest),
    /// The engine runs it (and parses it).
    Engine,
}

/// Who runs `args` (the arguments after the program name).
pub fn route(args: &[OsString]) -> Route {
    match plain_sandbox(args) {
        Some(request) => Route::Sandbox(request),
        None => Route::Engine,
    }
}

/// Whether the front may build the box itself: only with `HOME` set to an absolute path. The box
/// hides secret locations under the home folder; without `HOME`, finding that folder takes the C
/// library's user database (NSS), which the packaged front — linked statically, to start faster —
/// cannot be relied on to read. The engine can.
pub fn home_is_set() -> bool {
    std::env::var_os("HOME").is_some_and(|home| Path::new(&home).is_absolute())
}

/// `args` as a plain `sandbox` command line, or `None` to leave it to the engine's parser.
fn plain_sandbox(args: &[OsString]) -> Option<BoxRequest> {
    let (first, mut rest) = args.split_first()?;
    if first != "sandbox" {
        return None;
    }
    let mut request = BoxRequest::default();
    loop {
        let (arg, after) = rest.split_first()?;
        rest = after;
        if arg == "--" {
            if rest.is_empty() {
                return None;
            }
            request.command = rest.to_vec();
            return Some(request);
        }
        if arg == "--network" {
            if request.network {
                return None;
            }
            request.network = true;
            continue;
        }
        let (name, value) = match split_value(arg) {
            Some((name, value)) => (name, value.to_os_string()),
            None => {
                let (value, after) = rest.split_first()?;
                rest = after;
                (arg.as_bytes(), value.clone())
            }
        };
        if value.is_empty() || value.as_bytes().starts_with(b"-") {
            return None;
        }
        match name {
            b"--project" if request.project.is_none() => request.project = Some(PathBuf::from(value)),
            b"--write" => request.write.push(PathBuf::from(value)),
            _ => return None,
        }
    }
}

/// `--name=value` as its two halves.
fn split_value(arg: &OsStr) -> Option<(&[u8], &OsStr)> {
    let bytes = arg.as_bytes();
    let equals = bytes.iter().position(|&b| b == b'=')?;
    Some((&bytes[..equals], OsStr::from_bytes(&bytes[equals + 1..])))
}

/// Where the engine is for a front at `front` (its resolved path): the first that exists.
pub fn engine_beside(front: &Path) -> Result<PathBuf, String> {
    let dir = front.parent().ok_or_else(|| format!("{} has no folder", front.display()))?;
    let candidates = [dir.join(ENGINE), dir.join("../lib/warden").join(ENGINE)];
    candidates.iter().find(|path| path.is_file()).cloned().ok_or_else(|| {
        format!(
            "cannot find {ENGINE}, the rest of the warden command (looked for {} and {}); reinstall Warden",
            candidates[0].display(),
            candidates[1].display()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &[&str]) -> Vec<OsString> {
        line.iter().map(OsString::from).collect()
    }

    fn request(project: Option<&str>, network: bool, write: &[&str], command: &[&str]) -> Route {
        Route::Sandbox(BoxRequest {
            project: project.map(PathBuf::from),
            network,
            write: write.iter().map(PathBuf::from).collect(),
            command: args(command),
            ..BoxRequest::default()
        })
    }

    #[test]
    fn the_plain_sandbox_forms_are_run_by_the_front() {
        assert_eq!(route(&args(&["sandbox", "--", "true"])), request(None, false, &[], &["true"]));
        assert_eq!(
            route(&args(&[
                "sandbox",
                "--project",
                "/p",
                "--network",
                "--write",
                "/a",
                "--write=/b",
                "--",
                "sh",
                "-c",
                "x"
            ])),
            request(Some("/p"), true, &["/a", "/b"], &["sh", "-c", "x"])
        );
        assert_eq!(
            route(&args(&["sandbox", "--project=/p", "--", "ls", "--", "-la"])),
            request(Some("/p"), false, &[], &["ls", "--", "-la"])
        );
    }

    #[test]
    fn everything_else_goes_to_the_engine() {
        for line in [
            &[][..],
            &["--version"],
            &["exec", "hi"],
            &["-v", "sandbox", "--", "true"],
            &["sandbox"],
            &["sandbox", "--help"],
            &["sandbox", "true"],
            &["sandbox", "--"],
            &["sandbox", "--project"],
            &["sandbox", "--project", "--", "true"],
            &["sandbox", "--project=", "--", "true"],
            &["sandbox", "--project", "-p", "--", "true"],
            &["sandbox", "--project", "/a", "--project", "/b", "--", "true"],
            &["sandbox", "--network", "--network", "--", "true"],
            &["sandbox", "--network=yes", "--", "true"],
            &["sandbox", "--netw", "--", "true"],
            &["sandbox", "-v", "--", "true"],
            &["sandboxes", "--", "true"],
        ] {
            assert_eq!(route(&args(line)), Route::Engine, "{line:?}");
        }
    }

    #[test]
    fn the_engine_is_found_beside_the_front_or_in_lib_warden() {
        let root = tempfile::tempdir().unwrap();
        let bin = root.path().join("bin");
        let lib = root.path().join("lib/warden");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&lib).unwrap();
        let front = bin.join("warden");
        let missing = engine_beside(&front).unwrap_err();
        assert!(missing.contains("cannot find warden-engine") && missing.contains("reinstall"), "{missing}");
        std::fs::write(lib.join(ENGINE), "").unwrap();
        assert_eq!(engine_beside(&front).unwrap(), bin.join("../lib/warden").join(ENGINE));
        std::fs::write(bin.join(ENGINE), "").unwrap();
        assert_eq!(engine_beside(&front).unwrap(), bin.join(ENGINE));
    }
}
