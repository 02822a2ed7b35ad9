//! Getting the engine to a remote machine that has none (or another version): this build's
//! `warden`, `warden-engine` and `warden-box` copied over ssh to `~/.local/share/warden/bin/`,
//! only to a machine that can run them — Linux on this build's architecture, with a C library at
//! least as new as the newest one this build's programs ask for — checked over the same link first.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use tokio::io::AsyncWriteExt;
use tokio::process::Command;

use super::askpass::SshAsks;
use super::transport::{Transport, REMOTE_BIN};

/// The programs copied, in the order they are copied (the front last: a half-done copy leaves no
/// `warden` that would start an engine that is not there).
pub const PROGRAMS: [&str; 3] = ["warden-box", "warden-engine", "warden"];

/// What the remote machine said about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteFacts {
    pub os: String,
    pub arch: String,
    /// `(2, 36)` for glibc 2.36; `None` when there is no glibc (musl, another OS).
    pub glibc: Option<(u32, u32)>,
    /// The version of the engine already at `~/.local/share/warden/bin/warden`, if any.
    pub installed: Option<String>,
}

/// The copy to make: the programs here and their sizes, and what they need.
#[derive(Debug, Clone)]
pub struct Plan {
    pub host: String,
    /// ssh asks through the window's own askpass.
    pub asks: Option<SshAsks>,
    pub files: Vec<(PathBuf, u64)>,
    pub needs_glibc: (u32, u32),
    pub facts: RemoteFacts,
}

/// The probe run on the remote machine: its kernel and machine, its C library, the engine there.
const PROBE: &str = "uname -s; uname -m; (ldd --version 2>&1 || true) | head -n 1; \
     w=\"$HOME/.local/share/warden/bin/warden\"; [ -x \"$w\" ] && \"$w\" --version || echo none";

/// Runs `script` with `sh -c` on `host` through ssh (the user's configuration, as the link does,
/// with `env` set for it), feeding it `input`; its stdout, or why it failed.
async fn run_there(
    host: &str,
    asks: Option<&SshAsks>,
    script: &str,
    input: Option<&Path>,
) -> Result<String, String> {
    let transport = Transport::ssh_running(host, &format!("sh -c '{script}'")).with_asks(asks.cloned());
    let mut child = Command::new(&transport.program)
        .args(&transport.args)
        .envs(transport.env().iter().map(|(name, value)| (name, value)))
        .stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("could not start `{}`: {e}", transport.shown))?;
    transport.started(child.id());
    if let (Some(path), Some(mut stdin)) = (input, child.stdin.take()) {
        let mut file = tokio::fs::File::open(path).await.map_err(|e| format!("{}: {e}", path.display()))?;
        tokio::io::copy(&mut file, &mut stdin)
            .await
            .map_err(|e| format!("copying {}: {e}", path.display()))?;
        stdin.shutdown().await.map_err(|e| e.to_string())?;
    }
    let output = child.wait_with_output().await.map_err(|e| e.to_string())?;
    if !output.status.success() {
        let said = crate::visible::shown(String::from_utf8_lossy(&output.stderr).trim()).into_owned();
        return Err(format!("`{}` failed ({}): {said}", transport.shown, output.status));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// What the remote machine is, asked over ssh (asking through `asks`).
pub async fn probe(host: &str, asks: Option<&SshAsks>) -> Result<RemoteFacts, String> {
    let said = run_there(host, asks, PROBE, None).await?;
    let mut lines = said.lines().map(str::trim);
    let os = lines.next().unwrap_or_default().to_owned();
    let arch = lines.next().unwrap_or_default().to_owned();
    let libc = lines.next().unwrap_or_default();
    // `warden --version` says `warden-engine 0.1.0`: its last word.
    let installed =
        lines.next().filter(|l| *l != "none").and_then(|l| l.split_whitespace().last()).map(str::to_owned);
    let glibc = (libc.contains("GLIBC") || libc.contains("GNU libc")).then(|| last_version(libc)).flatten();
    Ok(RemoteFacts { os, arch, glibc, installed })
}

/// The last `X.Y` in `line` (`ldd (Debian GLIBC 2.36-9+deb12u4) 2.36` → 2.36).
fn last_version(line: &str) -> Option<(u32, u32)> {
    line.split(|c: char| !(c.is_ascii_digit() || c == '.')).filter_map(major_minor).next_back()
}

fn major_minor(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// The newest glibc symbol version `program` asks for (`GLIBC_2.34` → (2, 34)), read from its
/// bytes: what a machine must have to run it.
pub fn glibc_needed(program: &Path) -> Result<(u32, u32), String> {
    let bytes = std::fs::read(program).map_err(|e| format!("{}: {e}", program.display()))?;
    let needle = b"GLIBC_";
    let mut newest = (2, 0);
    let mut at = 0;
    while let Some(found) = bytes[at..].windows(needle.len()).position(|w| w == needle) {
        let start = at + found + needle.len();
        let end = bytes[start..]
            .iter()
            .position(|b| !(b.is_ascii_digit() || *b == b'.'))
            .map_or(bytes.len(), |n| start + n);
        if let Some(version) = std::str::from_utf8(&bytes[start..end]).ok().and_then(major_minor) {
            newest = newest.max(version);
        }
        at = end.max(start);
    }
    Ok(newest)
}

/// This build's programs, found beside the running engine (a build's target folder) or in the
/// packages' places (`/usr/lib/warden/`, the front in `/usr/bin/`).
pub fn local_programs() -> Result<Vec<PathBuf>, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let dir = exe.parent().ok_or("this program has no folder")?;
    PROGRAMS
        .iter()
        .map(|name| {
            // A build's target folder; the packages' engine (`/usr/lib/warden`, the front in
            // `/usr/bin`); the packages' window (`/usr/bin`, the rest in `/usr/lib/warden`).
            [dir.join(name), dir.join("../../bin").join(name), dir.join("../lib/warden").join(name)]
                .into_iter()
                .find(|path| path.is_file())
                .ok_or_else(|| format!("{name} is not beside {} (reinstall Warden)", exe.display()))
        })
        .collect()
}

/// The copy to make to `host` (ssh asking through `asks`), or why this build cannot run there.
pub async fn plan(host: &str, asks: Option<SshAsks>) -> Result<Plan, String> {
    let facts = probe(host, asks.as_ref()).await?;
    if facts.os != "Linux" || facts.arch != std::env::consts::ARCH {
        return Err(format!(
            "{host} is {} {}: this Warden is built for Linux {}. Install a Warden built for that machine there",
            facts.os,
            facts.arch,
            std::env::consts::ARCH
        ));
    }
    let programs = local_programs()?;
    let mut needs_glibc = (2, 0);
    let mut files = Vec::new();
    for program in programs {
        needs_glibc = needs_glibc.max(glibc_needed(&program)?);
        let size = std::fs::metadata(&program).map_err(|e| format!("{}: {e}", program.display()))?.len();
        files.push((program, size));
    }
    match facts.glibc {
        Some(has) if has >= needs_glibc => Ok(Plan { host: host.to_owned(), asks, files, needs_glibc, facts }),
        Some((major, minor)) => Err(format!(
            "{host} has glibc {major}.{minor}; this Warden needs {}.{} or newer. Install Warden from a package built for that system there",
            needs_glibc.0, needs_glibc.1
        )),
        None => Err(format!("{host} has no GNU C library (musl?): install a Warden built for it there")),
    }
}

impl Plan {
    /// What the copy will do, in words, before it is done.
    pub fn describe(&self) -> String {
        let total: u64 = self.files.iter().map(|(_, size)| size).sum();
        let names: Vec<_> =
            self.files.iter().filter_map(|(path, _)| path.file_name()).map(|n| n.to_string_lossy()).collect();
        let replacing = match &self.facts.installed {
            Some(version) => format!(", replacing Warden {version} there"),
            None => String::new(),
        };
        format!(
            "copy Warden {} ({}, {:.1} MB) to {}:~/{}/{replacing} (it runs on {} {} with glibc {}.{} or newer)",
            env!("CARGO_PKG_VERSION"),
            names.join(", "),
            total as f64 / 1_048_576.0,
            self.host,
            Path::new(REMOTE_BIN).parent().map(|p| p.display().to_string()).unwrap_or_default(),
            self.facts.os,
            self.facts.arch,
            self.needs_glibc.0,
            self.needs_glibc.1
        )
    }

    /// Copy each program (to a temporary name, then renamed into place) and check the version the
    /// copy reports.
    pub async fn copy(&self) -> Result<(), String> {
        for (path, _) in &self.files {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let script = format!(
                "d=\"$HOME/.local/share/warden/bin\"; mkdir -p \"$d\" && cat > \"$d/.{name}.new\" && \
                 chmod 755 \"$d/.{name}.new\" && mv -f \"$d/.{name}.new\" \"$d/{name}\""
            );
            run_there(&self.host, self.asks.as_ref(), &script, Some(path)).await?;
        }
        let facts = probe(&self.host, self.asks.as_ref()).await?;
        match facts.installed.as_deref() {
            Some(env!("CARGO_PKG_VERSION")) => Ok(()),
            other => {
                Err(format!("the copy on {} reports {other:?}, not {}", self.host, env!("CARGO_PKG_VERSION")))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_library_version_is_read_from_what_ldd_says() {
        assert_eq!(last_version("ldd (Debian GLIBC 2.36-9+deb12u4) 2.36"), Some((2, 36)));
        assert_eq!(last_version("ldd (GNU libc) 2.17"), Some((2, 17)));
        assert_eq!(last_version("musl libc (x86_64)"), None);
    }

    #[test]
    fn the_newest_glibc_symbol_version_a_program_asks_for_is_found() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let program = dir.path().join("p");
        std::fs::write(&program, b"\0GLIBC_2.2.5\0GLIBC_2.34\0xGLIBC_2.17\0GLIBC_PRIVATE\0")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(glibc_needed(&program), Ok((2, 34)));
    }
}
