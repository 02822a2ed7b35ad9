//! What "Allow for this session" on a command covers: its program, with the subcommand for tools
//! that have them (`git status`, `cargo test`). Only a plain command the blocklist judges Known has
//! a prefix; anything compound, wrapped or computed is asked for every time.

use super::blocklist::{base_name, is_assignment, judge, Verdict, SHELLS};
use super::shell_words;

/// The program + subcommand prefix a "remember for this session" approval covers (`git status`,
/// `cargo test`, `ls`); `None` for compound commands (`;`, `&&`, `||`, `|`, `&`, subshells,
/// substitutions, redirections to files), for wrappers (`sudo`, `env`, `sh -c`, …), for leading
/// variable assignments, and for commands that are not [`Verdict::Known`] — those are never
/// remembered.
pub fn command_prefix(command: &str) -> Option<String> {
    if judge(command) != Verdict::Known {
        return None;
    }
    let parsed = shell_words::parse(command).ok()?;
    let [segment] = parsed.segments.as_slice() else { return None };
    if parsed.compound {
        return None;
    }
    let harmless_redirect = |r: &shell_words::Redirect| {
        let target = r.target.text();
        (r.op.ends_with('&') && target.chars().all(|c| c.is_ascii_digit() || c == '-'))
            || (r.op.contains('>') && target == "/dev/null")
    };
    if !segment.redirects.iter().all(harmless_redirect) {
        return None;
    }
    let words: Vec<String> = segment.words.iter().map(shell_words::Word::text).collect();
    let program = words.first()?;
    let name = base_name(program);
    if is_assignment(program)
        || SHELLS.contains(&name)
        || [
            "sudo", "doas", "env", "nice", "ionice", "nohup", "command", "builtin", "exec", "time",
            "timeout", "stdbuf", "xargs", "eval", "source", ".", "setsid", "busybox", "alias",
        ]
        .contains(&name)
    {
        return None;
    }
    program_and_subcommand(&words).map(|words| words.join(" "))
}

/// The program, with its subcommand for tools that have one (`git status`, `cargo test`): what
/// a remembered approval names. `None` when options come before the subcommand (`git -c x=y
/// push`), which makes it ambiguous.
pub fn program_and_subcommand(words: &[String]) -> Option<Vec<String>> {
    let (program, args) = words.split_first()?;
    let name = base_name(program);
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
        return Some(vec![program.clone()]);
    }
    match args.first() {
        None => Some(vec![program.clone()]),
        Some(sub)
            if sub.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
                && sub.chars().all(|c| c.is_ascii_alphanumeric() || ":_.-".contains(c)) =>
        {
            Some(vec![program.clone(), sub.clone()])
        }
        // `git -c x=y push`: options before the subcommand make the prefix ambiguous.
        Some(_) => None,
    }
}
