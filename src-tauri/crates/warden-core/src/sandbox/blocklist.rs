//! Commands refused in every trust mode, and the prefix a "remember for this session" approval covers.
//!
//! Matching is on the parsed command ([`super::shell_words`]): every simple command, also those in
//! `$(…)`, backticks and `sh -c '…'`, with wrappers (`sudo`, `env`, `nice`, `command`, `exec`, …)
//! peeled off and the program taken by its base name. `echo "rm -rf /"` is an echo, not a delete.

use std::path::{Component, Path};

use super::shell_words::{self, Segment};

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("blocked command: {reason}")]
pub struct BlockedCommand {
    pub reason: String,
}

fn blocked(reason: impl Into<String>) -> Result<(), BlockedCommand> {
    Err(BlockedCommand { reason: reason.into() })
}

/// Top-level system directories whose recursive deletion is as bad as deleting `/`.
const SYSTEM_DIRS: &[&str] = &[
    "bin", "boot", "etc", "home", "lib", "lib32", "lib64", "opt", "root", "sbin", "srv", "usr", "var",
    "Users", "System",
];
/// Device files that are fine to write to.
const HARMLESS_DEVICES: &[&str] =
    &["null", "zero", "stdout", "stderr", "stdin", "tty", "random", "urandom", "full"];
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish"];
const POWER: &[&str] = &["shutdown", "reboot", "halt", "poweroff"];

/// Refuse the commands no trust level may run: recursive delete of `/`, `~`, `$HOME` (or `/*`),
/// `mkfs*`, `dd` onto a device, fork bombs, shutdown/reboot/halt/poweroff, `chmod`/`chown -R` on `/`,
/// writes to raw disks.
pub fn check_command(command: &str) -> Result<(), BlockedCommand> {
    check_at(command, 0)
}

fn check_at(command: &str, depth: usize) -> Result<(), BlockedCommand> {
    if depth > shell_words::MAX_DEPTH {
        return blocked("the command nests shells too deeply to be judged");
    }
    check_fork_bomb(command)?;
    let parsed = shell_words::parse(command).map_err(|_| BlockedCommand {
        reason: "the command nests substitutions too deeply to be judged".into(),
    })?;
    for segment in &parsed.segments {
        check_segment(segment, depth)?;
    }
    Ok(())
}

fn check_segment(segment: &Segment, depth: usize) -> Result<(), BlockedCommand> {
    for redirect in &segment.redirects {
        if redirect.op.contains('>') && is_raw_device(&redirect.target) {
            return blocked(format!("writing to the device {} would destroy its data", redirect.target));
        }
    }
    let words = strip_wrappers(&segment.words, depth)?;
    let Some((program, args)) = words.split_first() else { return Ok(()) };
    let name = base_name(program);
    match name {
        "rm" => check_rm(args),
        "chmod" | "chown" | "chgrp" => check_recursive_perm(name, args),
        "dd" => match args.iter().find_map(|a| a.strip_prefix("of=")).filter(|t| is_raw_device(t)) {
            Some(target) => blocked(format!("`dd` onto the device {target} would destroy its data")),
            None => Ok(()),
        },
        n if n.starts_with("mkfs") || n == "mke2fs" || n == "mkswap" || n == "wipefs" => {
            blocked(format!("`{n}` formats a file system"))
        }
        n if POWER.contains(&n) => blocked(format!("`{n}` stops the machine")),
        "systemctl" if args.iter().any(|a| ["poweroff", "reboot", "halt", "kexec"].contains(&a.as_str())) => {
            blocked("`systemctl` would stop the machine")
        }
        "init" | "telinit" if args.iter().any(|a| a == "0" || a == "6") => {
            blocked("`init 0/6` stops the machine")
        }
        "tee" | "cp" | "shred" => match args.iter().find(|a| is_raw_device(a)) {
            Some(dev) => blocked(format!("`{name}` onto the device {dev} would destroy its data")),
            None => Ok(()),
        },
        n if SHELLS.contains(&n) => check_shell_c(args, depth),
        "eval" => check_at(&args.join(" "), depth + 1),
        _ => Ok(()),
    }
}

/// `sh -c 'script'`: judge the script.
fn check_shell_c(args: &[String], depth: usize) -> Result<(), BlockedCommand> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c') {
            if let Some(script) = iter.find(|a| !a.starts_with('-')) {
                return check_at(script, depth + 1);
            }
        }
    }
    Ok(())
}

fn check_rm(args: &[String]) -> Result<(), BlockedCommand> {
    let (flags, targets) = split_flags(args);
    let recursive = flags
        .iter()
        .any(|f| *f == "--recursive" || (!f.starts_with("--") && (f.contains('r') || f.contains('R'))));
    if !recursive {
        return Ok(());
    }
    if flags.iter().any(|f| *f == "--no-preserve-root") {
        return blocked("`rm --no-preserve-root` is only ever used to delete `/`");
    }
    match targets.iter().find(|t| is_critical_dir(t)) {
        Some(target) => blocked(format!("recursive delete of `{target}`")),
        None => Ok(()),
    }
}

fn check_recursive_perm(name: &str, args: &[String]) -> Result<(), BlockedCommand> {
    let (flags, targets) = split_flags(args);
    let recursive = flags.iter().any(|f| *f == "--recursive" || (!f.starts_with("--") && f.contains('R')));
    match targets.iter().find(|t| is_critical_dir(t)) {
        Some(target) if recursive => blocked(format!("recursive `{name}` of `{target}`")),
        _ => Ok(()),
    }
}

/// Flags and operands; everything after `--` is an operand.
fn split_flags(args: &[String]) -> (Vec<&String>, Vec<&String>) {
    let mut flags = Vec::new();
    let mut operands = Vec::new();
    let mut only_operands = false;
    for arg in args {
        if only_operands || !arg.starts_with('-') || arg == "-" {
            operands.push(arg);
        } else if arg == "--" {
            only_operands = true;
        } else {
            flags.push(arg);
        }
    }
    (flags, operands)
}

/// `/`, `/*`, `~`, `$HOME`, the home directory, or a top-level system directory (after `..` and
/// repeated slashes are folded).
fn is_critical_dir(target: &str) -> bool {
    let target = target.trim();
    let home_relative = ["$HOME", "${HOME}", "~"].iter().find_map(|h| target.strip_prefix(h));
    if let Some(rest) = home_relative {
        if rest.is_empty() || rest.starts_with('/') {
            let folded = fold(rest);
            return folded.is_empty() || folded == ["*"] || folded.first().is_some_and(|c| c == "..");
        }
        return false;
    }
    if !target.starts_with('/') {
        return false;
    }
    let folded = fold(target);
    let home = dirs::home_dir().map(|h| fold(&h.to_string_lossy())).filter(|h| !h.is_empty());
    match folded.as_slice() {
        [] => true,
        [only] => only == "*" || only.starts_with(".*") || SYSTEM_DIRS.contains(&only.as_str()),
        [dir, star] if star == "*" => SYSTEM_DIRS.contains(&dir.as_str()),
        other => home.is_some_and(|h| {
            other == h.as_slice() || (other.ends_with(&["*".to_owned()]) && other[..other.len() - 1] == h[..])
        }),
    }
}

/// The components of a path with `.` dropped and `..` applied (never above the start).
fn fold(path: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(c) => out.push(c.to_string_lossy().into_owned()),
            Component::ParentDir if out.pop().is_none() && !path.starts_with('/') => {
                out.push("..".to_owned())
            }
            _ => {}
        }
    }
    out
}

fn is_raw_device(target: &str) -> bool {
    let Some(dev) = target.trim().strip_prefix("/dev/") else { return false };
    let dev = dev.trim_start_matches('/');
    !(HARMLESS_DEVICES.contains(&dev)
        || dev.starts_with("fd/")
        || dev.starts_with("pts/")
        || dev.starts_with("shm/"))
}

fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Peel off what only changes how a command runs: variable assignments, shell keywords, `sudo`,
/// `doas`, `env`, `nice`, `ionice`, `nohup`, `command`, `builtin`, `exec`, `time`, `timeout`,
/// `stdbuf`, `xargs`. `env -S 'script'` is judged as a command of its own.
fn strip_wrappers(words: &[String], depth: usize) -> Result<&[String], BlockedCommand> {
    let mut rest = words;
    loop {
        let Some((first, tail)) = rest.split_first() else { return Ok(rest) };
        if is_assignment(first)
            || ["!", "{", "}", "then", "do", "else", "if", "while", "until", "elif"].contains(&first.as_str())
        {
            rest = tail;
            continue;
        }
        // Options of each wrapper that take a value.
        let with_value: &[&str] = match base_name(first) {
            "sudo" | "doas" => &["-u", "-g", "-C", "-h", "-p", "-r", "-t", "-U", "-D", "-R"],
            "env" => &["-u", "-C", "--unset", "--chdir"],
            "nice" => &["-n", "--adjustment"],
            "ionice" => &["-c", "-n", "-t", "-p"],
            "exec" => &["-a"],
            "stdbuf" => &["-i", "-o", "-e"],
            "timeout" => &["-s", "-k", "--signal", "--kill-after"],
            "xargs" => &["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"],
            "nohup" | "command" | "builtin" | "time" => &[],
            _ => return Ok(rest),
        };
        let wrapper = base_name(first);
        rest = tail;
        while let Some((arg, tail)) = rest.split_first() {
            if arg == "--" {
                rest = tail;
                break;
            }
            if wrapper == "env" && (arg == "-S" || arg == "--split-string") {
                if let Some(script) = tail.first() {
                    check_at(script, depth + 1)?;
                }
                rest = tail;
                break;
            }
            if !(arg.starts_with('-') || wrapper == "env" && is_assignment(arg)) {
                break;
            }
            rest = if with_value.contains(&arg.as_str()) { tail.get(1..).unwrap_or(&[]) } else { tail };
        }
        if wrapper == "timeout" {
            // The duration comes before the command.
            rest = rest.get(1..).unwrap_or(&[]);
        }
    }
}

/// `:(){ :|:& };:` and its renamed variants: a function whose body pipes itself into itself.
/// Quoted text is data here; quoted scripts (`sh -c '…'`, `eval '…'`) are judged when they are run.
fn check_fork_bomb(command: &str) -> Result<(), BlockedCommand> {
    let compact: String = without_quoted(command).chars().filter(|c| !c.is_whitespace()).collect();
    let mut search_from = 0;
    while let Some(found) = compact[search_from..].find("(){") {
        let at = search_from + found;
        let name_start = compact[..at]
            .rfind(|c: char| ";&|{}()\n".contains(c) || c == '\'' || c == '"')
            .map_or(0, |i| i + 1);
        let name = compact[..at].get(name_start..).unwrap_or("").trim_start_matches("function");
        let body = &compact[at + 3..];
        if !name.is_empty() && body.contains(&format!("{name}|{name}")) {
            return blocked(format!("`{name}` is a fork bomb"));
        }
        search_from = at + 3;
    }
    Ok(())
}

/// `command` with the contents of single- and double-quoted strings removed.
fn without_quoted(command: &str) -> String {
    let mut out = String::with_capacity(command.len());
    let mut quote: Option<char> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, '\\') => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            (None, '\'' | '"') => quote = Some(c),
            (None, _) => out.push(c),
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
        }
    }
    out
}

/// The program + subcommand prefix a "remember for this session" approval covers (`git status`,
/// `cargo test`, `ls`); `None` for compound commands (`;`, `&&`, `||`, `|`, `&`, subshells,
/// substitutions, redirections to files), for wrappers (`sudo`, `env`, `sh -c`, …), for leading
/// variable assignments and for blocked commands — those are never remembered.
pub fn command_prefix(command: &str) -> Option<String> {
    check_command(command).ok()?;
    let parsed = shell_words::parse(command).ok()?;
    let [segment] = parsed.segments.as_slice() else { return None };
    if parsed.compound {
        return None;
    }
    let harmless_redirect = |r: &shell_words::Redirect| {
        (r.op.ends_with('&') && r.target.chars().all(|c| c.is_ascii_digit() || c == '-'))
            || (r.op.contains('>') && r.target == "/dev/null")
    };
    if !segment.redirects.iter().all(harmless_redirect) {
        return None;
    }
    let (program, args) = segment.words.split_first()?;
    let name = base_name(program);
    if is_assignment(program)
        || SHELLS.contains(&name)
        || [
            "sudo", "doas", "env", "nice", "ionice", "nohup", "command", "builtin", "exec", "time",
            "timeout", "stdbuf", "xargs", "eval", "source", ".",
        ]
        .contains(&name)
    {
        return None;
    }
    const WITH_SUBCOMMANDS: &[&str] = &[
        "git",
        "cargo",
        "npm",
        "pnpm",
        "yarn",
        "bun",
        "deno",
        "npx",
        "docker",
        "podman",
        "kubectl",
        "go",
        "pip",
        "pip3",
        "uv",
        "poetry",
        "make",
        "just",
        "rustup",
        "brew",
        "apt",
        "apt-get",
        "systemctl",
        "gh",
        "dotnet",
        "mvn",
        "gradle",
        "terraform",
        "helm",
        "bundle",
        "rake",
        "composer",
        "swift",
        "zig",
    ];
    if !WITH_SUBCOMMANDS.contains(&name) {
        return Some(program.clone());
    }
    match args.first() {
        None => Some(program.clone()),
        Some(sub)
            if sub.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                && sub.chars().all(|c| c.is_ascii_alphanumeric() || ":_.-".contains(c)) =>
        {
            Some(format!("{program} {sub}"))
        }
        // `git -c x=y push`: options before the subcommand make the prefix ambiguous.
        Some(_) => None,
    }
}
