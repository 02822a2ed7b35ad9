//! A plain `git init` asks to run outside the box, as a hardened git.
//!
//! A repository created inside the box is found when the command ends and its code-running parts
//! are moved aside ([`crate::containment::git_repositories`]); but a `git init` the user wants should give
//! the repository a normal `git init` gives, from the user's own git configuration (which the box
//! shows only in part: its template folder, say). So a command that is exactly a `git init` with
//! options that cannot name code or a place outside the project asks, in every trust level, to run
//! outside the box: Warden creates the folder inside the project itself (never following a link),
//! and runs `git` in it with hooks and `core.fsmonitor` off and an argument list it built — not a
//! shell, so nothing of the model's text but the parsed options reaches the program. Warden makes
//! the `.git` folder itself, so git never follows a gitfile or link left there; a folder that
//! already has one is refused (its `git init` would only re-initialize). Anything else
//! (`git init --template=…`, `--separate-git-dir`, `git init && …`, quotes, variables) is an
//! ordinary command and runs in the box.

use std::ffi::OsString;

use tokio::process::Child;
use warden_protocol::ToolErrorCode;

use crate::sandbox::{Access, Workspace};
use crate::tool::ToolOutput;

/// The options of `git init` that cannot name code to copy, a place outside the folder, or a
/// configuration: `-q`, `-b NAME`, the object and ref formats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GitInit {
    /// The options, as git takes them (`-b NAME` as `--initial-branch=NAME`).
    options: Vec<String>,
    /// The folder to make a repository of, relative to the project; `None`: the project itself.
    pub directory: Option<String>,
}

/// Characters a word of a plain command may hold: no quote, no `$`, no glob, no operator.
fn plain_word(word: &str) -> bool {
    !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=+,:@".contains(&b))
}

/// A branch name as `git init -b` takes it: plain, not an option, no `..`.
fn branch_name(name: &str) -> Option<String> {
    (plain_word(name) && !name.starts_with('-') && !name.contains("..")).then(|| name.to_owned())
}

/// `command` as a plain `git init`, or `None` when it is anything else.
pub fn parse(command: &str) -> Option<GitInit> {
    let words: Vec<&str> = command.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
    if !words.iter().all(|w| plain_word(w)) {
        return None;
    }
    let (["git", "init"], rest) = words.split_at_checked(2)? else { return None };
    let mut options = Vec::new();
    let mut directory = None;
    let mut rest = rest.iter();
    while let Some(&word) = rest.next() {
        match word {
            "-q" | "--quiet" => options.push("--quiet".to_owned()),
            "-b" | "--initial-branch" => {
                options.push(format!("--initial-branch={}", branch_name(rest.next()?)?));
            }
            "--object-format=sha1"
            | "--object-format=sha256"
            | "--ref-format=files"
            | "--ref-format=reftable" => options.push(word.to_owned()),
            _ => match word.strip_prefix("--initial-branch=") {
                Some(name) => options.push(format!("--initial-branch={}", branch_name(name)?)),
                None if word.starts_with('-') || directory.is_some() => return None,
                None => directory = Some(inside_project(word)?),
            },
        }
    }
    Some(GitInit { options, directory })
}

/// A folder operand that stays inside the project by its words: relative, no `..`.
fn inside_project(dir: &str) -> Option<String> {
    let path = std::path::Path::new(dir);
    let plain = path
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_) | std::path::Component::CurDir));
    plain.then(|| dir.to_owned())
}

impl GitInit {
    /// The program and its arguments, run in the folder itself (opened by Warden): hooks and the
    /// file-system monitor off for this run, whatever any configuration says.
    pub fn argv(&self) -> Vec<OsString> {
        let mut argv: Vec<OsString> =
            ["git", "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", "init"]
                .map(OsString::from)
                .into();
        argv.extend(self.options.iter().map(OsString::from));
        argv
    }

    /// What the approval dialog and the block show it runs.
    pub fn shown(&self) -> String {
        let words: Vec<String> = self.argv().iter().map(|w| w.to_string_lossy().into_owned()).collect();
        match &self.directory {
            Some(dir) => format!("{} (in {dir})", words.join(" ")),
            None => words.join(" "),
        }
    }
}

/// Start `init` in its folder of the project: made by Warden if missing (never through a link),
/// opened, and entered by the child through that handle, so a folder swapped for a link after the
/// check leads nowhere else. Outside any box, in a session of its own like every command.
pub(crate) fn spawn(init: &GitInit, workspace: &Workspace) -> Result<Child, ToolOutput> {
    let folder = init.directory.as_deref().unwrap_or(".");
    let resolved = workspace.resolve(folder, Access::Read).map_err(ToolOutput::from)?;
    if resolved.root != 0 {
        return Err(ToolOutput::error(
            ToolErrorCode::SandboxViolation,
            format!("{folder}: git init makes a repository only in the project"),
        ));
    }
    let dir = workspace.make_dir(&resolved).map_err(ToolOutput::from)?;
    // Warden makes `.git` itself: a gitfile or link a boxed process left there would send git to
    // a repository elsewhere, outside the box. A folder that has one stays the box's business.
    if let Err(error) = dir.create_dir(".git") {
        let why = match error.kind() {
            std::io::ErrorKind::AlreadyExists => {
                "something is already at .git there (a repository, a gitfile or a \
                 link); it is not made again outside the sandbox"
                    .to_owned()
            }
            _ => format!("cannot make its .git: {error}"),
        };
        return Err(ToolOutput::error(ToolErrorCode::ExecutionError, format!("{folder}: {why}")));
    }
    let fd = std::os::fd::AsRawFd::as_raw_fd(&dir);
    let spawned =
        crate::tool::process::spawn_in_session(&init.argv(), workspace.project_root(), None, |cmd| {
            cmd.stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            enter(cmd, fd);
        });
    // The child has entered the folder (or failed to start) by now.
    drop(dir);
    spawned
        .map(|(child, _)| child)
        .map_err(|e| ToolOutput::error(ToolErrorCode::ExecutionError, format!("could not start git: {e}")))
}

/// `fchdir(fd)` in the child before `exec`.
#[allow(unsafe_code)]
fn enter(cmd: &mut tokio::process::Command, fd: std::os::fd::RawFd) {
    // SAFETY: the closure runs in the forked child between fork and exec; it only calls fchdir(2),
    // which is async-signal-safe, on a descriptor the parent keeps open until the spawn returns,
    // and builds an io::Error from errno without allocating.
    unsafe {
        cmd.pre_exec(
            move || {
                if libc::fchdir(fd) == 0 {
                    Ok(())
                } else {
                    Err(std::io::Error::last_os_error())
                }
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_git_init_with_harmless_options_is_taken() {
        let init = parse("git init").unwrap();
        assert_eq!((init.options.len(), init.directory), (0, None));
        let init = parse("  git   init -q -b main sub/repo ").unwrap();
        assert_eq!(init.options, ["--quiet", "--initial-branch=main"]);
        assert_eq!(init.directory.as_deref(), Some("sub/repo"));
        let init = parse("git init --initial-branch=trunk --object-format=sha256 .").unwrap();
        assert_eq!(init.options, ["--initial-branch=trunk", "--object-format=sha256"]);
        assert_eq!(
            init.argv(),
            [
                "git",
                "-c",
                "core.hooksPath=/dev/null",
                "-c",
                "core.fsmonitor=false",
                "init",
                "--initial-branch=trunk",
                "--object-format=sha256"
            ]
            .map(OsString::from)
        );
        for other in [
            "git init --template=./hooks",
            "git init --template ./hooks",
            "git init --separate-git-dir=/tmp/x",
            "git init --bare",
            "git init --shared=all",
            "git init /home/me/elsewhere",
            "git init ../sibling",
            "git init a b",
            "git init -b",
            "git init -b -q",
            "git init -b ../x",
            "git -c core.hooksPath=x init",
            "git init && sh evil.sh",
            "git init; rm x",
            "git init \"$HOME\"",
            "git init 'a'",
            "git init `pwd`",
            "git init *",
            "git status",
            "gitinit",
            "git",
            "",
        ] {
            assert_eq!(parse(other), None, "{other}");
        }
    }
}
