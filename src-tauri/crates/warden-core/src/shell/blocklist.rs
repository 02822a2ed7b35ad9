//! What no trust level may run, and what cannot be judged without running it.
//!
//! A command is lexed ([`super::shell_words`]) and every simple command — also those in `$(…)`,
//! backticks, `sh -c '…'`, `eval`, aliases and `find -exec` — is expanded as far as that is safe
//! ([`super::expand`]: `~user`, `$HOME`, `${HOME%/}`, `{a,b}`, `${IFS}`), wrappers (`sudo`, `env`,
//! `xargs`, `busybox`, …) are peeled off and options are read as the program reads them
//! ([`super::options`]). The verdict ([`Verdict`]) is Blocked, Unknown (a value only running could
//! tell decides what happens: a computed program or target, a script from a pipe, inline code
//! that deletes) or Known. `echo "rm -rf /"` is an echo, not a delete. A blocklist is not a
//! boundary — the sandbox is — but it must not be trivially wrong. Which targets count as critical
//! is [`super::critical_paths`]; what a session grant covers is [`crate::shell::command_prefix`].

use super::critical_paths::{is_critical_dir, is_raw_device};
use super::expand::{expand_word, Arg};
use super::fork_bomb::{inline_code, shell_fork_bomb, Code};
use super::judge_budget::{Budget, Spent};
use super::options::{self, Options};
use super::shell_words::{self, Segment};

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("blocked command: {reason}")]
pub struct BlockedCommand {
    pub reason: String,
}

/// What the blocklist makes of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Judged, and nothing in it is refused.
    Known,
    /// Only running it could tell what it does; the reason names what.
    Unknown { reason: String },
    /// Refused in every trust level.
    Blocked(BlockedCommand),
}

type Step = Result<(), BlockedCommand>;

fn blocked(reason: impl Into<String>) -> Step {
    Err(BlockedCommand { reason: reason.into() })
}

pub(super) const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish", "busybox-sh"];
const POWER: &[&str] = &["shutdown", "reboot", "halt", "poweroff"];
/// Programs that write file systems or wipe block devices.
const FORMATTERS: &[&str] = &["mke2fs", "mkdosfs", "mkswap", "mkntfs", "wipefs", "blkdiscard", "newfs"];
/// Programs whose arguments decide what is destroyed: an argument only running could tell makes
/// the command unknown.
const SENSITIVE: &[&str] =
    &["rm", "chmod", "chown", "chgrp", "dd", "cp", "mv", "tee", "shred", "find", "truncate", "ln", "rsync"];
/// Interpreters and the option that gives them inline code.
const INTERPRETERS: &[(&str, &[&str])] = &[
    ("python", &["-c"]),
    ("python2", &["-c"]),
    ("python3", &["-c"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("nodejs", &["-e", "--eval", "-p", "--print"]),
    ("php", &["-r"]),
];

/// Judge a command. The work is bounded by the command's length ([`Budget`]): a command built
/// to multiply what the judge reads is refused as too intricate, never judged for hours.
pub fn judge(command: &str) -> Verdict {
    let mut judge = Judge { unknown: None, budget: Budget::for_command(command) };
    match judge.script(command, 0) {
        Err(blocked) => Verdict::Blocked(blocked),
        Ok(()) => match judge.unknown {
            Some(reason) => Verdict::Unknown { reason },
            None => Verdict::Known,
        },
    }
}

/// Refuse the commands no trust level may run: recursive delete of `/`, `~`, `$HOME` (or `/*`, a
/// system directory), formatting, `dd` onto a device, fork bombs, shutdown/reboot/halt/poweroff,
/// `chmod`/`chown -R` on `/` or `~`, writes to raw disks.
pub fn check_command(command: &str) -> Result<(), BlockedCommand> {
    match judge(command) {
        Verdict::Blocked(blocked) => Err(blocked),
        Verdict::Known | Verdict::Unknown { .. } => Ok(()),
    }
}

/// Where a command's standard input comes from, as far as the command line tells.
enum Input<'a> {
    Inherited,
    Pipe,
    Heredoc(&'a str),
}

struct Judge {
    unknown: Option<String>,
    budget: Budget,
}

impl Judge {
    fn unknown(&mut self, reason: String) {
        self.unknown.get_or_insert(reason);
    }

    /// Take `steps` of the budget, or refuse the command.
    fn spend(&mut self, steps: usize) -> Step {
        self.budget.spend(steps).map_err(too_intricate)
    }

    fn script(&mut self, text: &str, depth: usize) -> Step {
        if depth > shell_words::MAX_DEPTH {
            return blocked("the command nests shells too deeply to be judged");
        }
        // The lexer reads each character once per level of substitution around it.
        self.spend(text.len().saturating_mul(shell_words::MAX_DEPTH))?;
        let parsed = shell_words::parse(text).map_err(|_| BlockedCommand {
            reason: "the command nests substitutions too deeply to be judged".into(),
        })?;
        for script in std::iter::once(text).chain(parsed.scripts.iter().map(String::as_str)) {
            if let Some(name) = shell_fork_bomb(script, &mut self.budget).map_err(too_intricate)? {
                return blocked(format!("`{name}` is a fork bomb"));
            }
        }
        for segment in &parsed.segments {
            self.segment(segment, depth)?;
        }
        Ok(())
    }

    fn segment(&mut self, segment: &Segment, depth: usize) -> Step {
        let mut input = if segment.piped_in { Input::Pipe } else { Input::Inherited };
        for redirect in &segment.redirects {
            if let Some(body) = &redirect.body {
                input = Input::Heredoc(body);
            } else if redirect.op.ends_with("<<<") {
                input = Input::Pipe;
            }
            if !redirect.op.contains('>') || redirect.op.ends_with('&') {
                continue;
            }
            let targets = expand_word(&redirect.target);
            self.spend(targets.iter().map(|t| t.shown().len() + 1).sum())?;
            for target in targets {
                match target {
                    Arg::Known(t) if is_raw_device(&t) => {
                        return blocked(format!("writing to the device {t} would destroy its data"))
                    }
                    Arg::Known(_) => {}
                    Arg::Unknown(shown) => {
                        self.unknown(format!("it writes to `{shown}`, which is known only when it runs"))
                    }
                }
            }
        }
        let mut words = Vec::with_capacity(segment.words.len());
        for word in &segment.words {
            // One word may become 256 (braces): paid for as they are made, word by word.
            let expanded = expand_word(word);
            self.spend(expanded.iter().map(|a| a.shown().len() + 1).sum())?;
            words.extend(expanded);
        }
        self.command(&words, &input, depth)
    }

    fn command(&mut self, words: &[Arg], input: &Input, depth: usize) -> Step {
        let (words, fed) = self.strip_wrappers(words, depth)?;
        let Some((program, args)) = words.split_first() else { return Ok(()) };
        let program = match program {
            Arg::Known(p) => p,
            Arg::Unknown(shown) => {
                self.unknown(format!("the program `{shown}` is known only when it runs"));
                return Ok(());
            }
        };
        let name = base_name(program);
        let known: Vec<String> = args.iter().filter_map(|a| a.known().map(str::to_owned)).collect();
        if SENSITIVE.contains(&name) {
            if let Some(Arg::Unknown(shown)) = args.iter().find(|a| a.known().is_none()) {
                self.unknown(format!("`{name}` gets the argument `{shown}`, known only when it runs"));
            }
            if fed {
                self.unknown(format!("`xargs` gives `{name}` arguments read from its input"));
            }
        }
        match name {
            "rm" => check_rm(&options::parse(&options::RM, &known)),
            "chmod" => check_recursive_perm(name, &options::parse(&options::CHMOD, &known)),
            "chown" | "chgrp" => check_recursive_perm(name, &options::parse(&options::CHOWN, &known)),
            "dd" => match known.iter().filter_map(|a| a.strip_prefix("of=")).find(|t| is_raw_device(t)) {
                Some(target) => blocked(format!("`dd` onto the device {target} would destroy its data")),
                None => Ok(()),
            },
            n if n.starts_with("mkfs") || n.starts_with("newfs") || FORMATTERS.contains(&n) => {
                blocked(format!("`{n}` formats or wipes a disk"))
            }
            "diskutil" if known.first().is_some_and(|a| a.starts_with("erase") || a.contains("zero")) => {
                blocked("`diskutil` would erase a disk")
            }
            n if POWER.contains(&n) => blocked(format!("`{n}` stops the machine")),
            "systemctl"
                if known.iter().any(|a| ["poweroff", "reboot", "halt", "kexec"].contains(&a.as_str())) =>
            {
                blocked("`systemctl` would stop the machine")
            }
            "init" | "telinit" if known.iter().any(|a| a == "0" || a == "6") => {
                blocked("`init 0/6` stops the machine")
            }
            "tee" | "cp" | "mv" | "shred" | "truncate" => match known.iter().find(|a| is_raw_device(a)) {
                Some(dev) => blocked(format!("`{name}` onto the device {dev} would destroy its data")),
                None => Ok(()),
            },
            "find" => self.find(&known, depth),
            n if SHELLS.contains(&n) => self.shell(args, input, depth),
            "eval" => self.eval(args, depth),
            "source" | "." => {
                match args.first() {
                    Some(Arg::Unknown(shown)) => {
                        self.unknown(format!("it sources `{shown}`, known only when it runs"))
                    }
                    Some(Arg::Known(file)) if file == "/dev/stdin" || file.starts_with("/dev/fd/") => {
                        self.unknown("it sources a script from its input".to_owned())
                    }
                    _ => {}
                }
                Ok(())
            }
            "alias" => {
                for arg in args {
                    match arg {
                        Arg::Known(def) => {
                            if let Some((_, value)) = def.split_once('=') {
                                self.script(value, depth + 1)?;
                            }
                        }
                        Arg::Unknown(shown) => {
                            self.unknown(format!("the alias `{shown}` is known only when it runs"))
                        }
                    }
                }
                Ok(())
            }
            _ => self.interpreter(name, args, input),
        }
    }
}

impl Judge {
    /// `sh -c 'script'`: judge the script; `sh` reading its script from a pipe or heredoc cannot be.
    fn shell(&mut self, args: &[Arg], input: &Input, depth: usize) -> Step {
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let Some(text) = arg.known() else {
                self.unknown(format!("the shell gets `{}`, known only when it runs", arg.shown()));
                return Ok(());
            };
            if text.starts_with('-') && !text.starts_with("--") && text.contains('c') {
                return match iter.find(|a| a.known().is_none_or(|a| !a.starts_with('-'))) {
                    Some(Arg::Known(script)) => self.script(script, depth + 1),
                    Some(Arg::Unknown(shown)) => {
                        self.unknown(format!("the shell runs `{shown}`, known only when it runs"));
                        Ok(())
                    }
                    None => Ok(()),
                };
            }
            if text == "-s" || text == "--" {
                break;
            }
            if !text.starts_with('-') && !text.starts_with('+') {
                // A script file: what it holds is not on the command line.
                return Ok(());
            }
        }
        self.script_from_input("the shell", input, depth)
    }

    /// A program that runs whatever its standard input holds.
    fn script_from_input(&mut self, what: &str, input: &Input, depth: usize) -> Step {
        match input {
            Input::Inherited => Ok(()),
            Input::Pipe => {
                self.unknown(format!("{what} runs a script read from a pipe"));
                Ok(())
            }
            Input::Heredoc(body) => {
                if what == "the shell" {
                    self.script(body, depth + 1)?;
                }
                self.unknown(format!("{what} runs a script from a heredoc"));
                Ok(())
            }
        }
    }

    fn eval(&mut self, args: &[Arg], depth: usize) -> Step {
        let mut text = Vec::new();
        for arg in args {
            match arg {
                Arg::Known(a) => text.push(a.as_str()),
                Arg::Unknown(shown) => {
                    self.unknown(format!("`eval` runs `{shown}`, known only when it runs"));
                    return Ok(());
                }
            }
        }
        self.script(&text.join(" "), depth + 1)
    }

    /// `python -c`, `perl -e`, …: inline code that forks in a loop is refused, code that deletes or
    /// runs programs is unknown; a script from a pipe is unknown.
    fn interpreter(&mut self, name: &str, args: &[Arg], input: &Input) -> Step {
        let Some((_, inline)) =
            INTERPRETERS.iter().find(|(n, _)| *n == name || name.starts_with(&format!("{n}.")))
        else {
            return Ok(());
        };
        let mut iter = args.iter();
        while let Some(arg) = iter.next() {
            let Some(text) = arg.known() else {
                self.unknown(format!("`{name}` gets `{}`, known only when it runs", arg.shown()));
                return Ok(());
            };
            let attached = inline
                .iter()
                .find_map(|o| text.strip_prefix(o).filter(|rest| !rest.is_empty() && o.len() == 2));
            if inline.contains(&text) || attached.is_some() {
                let code = match attached {
                    Some(code) => Some(Arg::Known(code.to_owned())),
                    None => iter.next().cloned(),
                };
                match code {
                    Some(Arg::Known(code)) => match inline_code(&code) {
                        Code::ForkBomb => {
                            return blocked(format!("`{name}` code that forks in a loop is a fork bomb"))
                        }
                        Code::Unknown(why) => self.unknown(format!("`{name}` runs {why}")),
                        Code::Harmless => {}
                    },
                    Some(Arg::Unknown(shown)) => {
                        self.unknown(format!("`{name}` runs `{shown}`, known only when it runs"))
                    }
                    None => {}
                }
                return Ok(());
            }
            if !text.starts_with('-') || text == "-m" {
                return Ok(());
            }
        }
        self.script_from_input(&format!("`{name}`"), input, 0)
    }

    /// `find / -delete`, `find ~ -exec rm -rf {} +`: refused when nothing narrows what is found,
    /// unknown when a test does.
    fn find(&mut self, args: &[String], depth: usize) -> Step {
        let starts: Vec<&String> = args
            .iter()
            .skip_while(|a| {
                ["-H", "-L", "-P"].contains(&a.as_str()) || a.starts_with("-O") || a.starts_with("-D")
            })
            .take_while(|a| !a.starts_with('-') && !["(", "!", ")"].contains(&a.as_str()))
            .collect();
        let critical: Vec<&&String> = starts.iter().filter(|s| is_critical_dir(s)).collect();
        let mut narrowed = false;
        let mut destructive: Option<String> = None;
        let mut i = starts.len();
        while i < args.len() {
            let arg = args[i].as_str();
            i += 1;
            match arg {
                "-delete" => destructive = Some("-delete".to_owned()),
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    let end =
                        args[i..].iter().position(|a| a == ";" || a == "+").map_or(args.len(), |p| i + p);
                    let command = &args[i..end];
                    i = end + 1;
                    for start in starts.iter() {
                        // Judged once per starting point: many of both multiply.
                        self.spend(command.iter().map(|w| w.len() + start.len() + 1).sum())?;
                        let words: Vec<Arg> =
                            command.iter().map(|w| Arg::Known(w.replace("{}", start))).collect();
                        // Judged on its own: what it leaves unknown is kept only when nothing
                        // refuses it.
                        let outer = self.unknown.take();
                        let judged = self.command(&words, &Input::Inherited, depth + 1);
                        let inner = std::mem::replace(&mut self.unknown, outer);
                        match judged {
                            Err(b) if self.budget.is_spent() => return Err(b),
                            Err(b) => destructive = Some(b.reason),
                            Ok(()) => {
                                if let Some(reason) = inner {
                                    self.unknown(reason);
                                }
                            }
                        }
                    }
                }
                "-depth"
                | "-xdev"
                | "-mount"
                | "-print"
                | "-print0"
                | "-noleaf"
                | "-follow"
                | "-ignore_readdir_race" => {}
                "-maxdepth" | "-mindepth" => i += 1,
                _ => narrowed = true,
            }
        }
        match (destructive, critical.first()) {
            (Some(what), Some(start)) if !narrowed => {
                blocked(format!("`find {start}` with `{what}` destroys everything under it"))
            }
            (Some(what), Some(start)) => {
                self.unknown(format!("`find {start}` runs `{what}` on what it finds"));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Peel off what only changes how a command runs: variable assignments, shell keywords, `sudo`,
    /// `doas`, `env`, `nice`, `ionice`, `nohup`, `command`, `builtin`, `exec`, `time`, `timeout`,
    /// `stdbuf`, `setsid`, `busybox`, `xargs` (whose command gets arguments from its input: the bool).
    /// `env -S 'script'` is judged as a command of its own.
    fn strip_wrappers<'w>(
        &mut self,
        words: &'w [Arg],
        depth: usize,
    ) -> Result<(&'w [Arg], bool), BlockedCommand> {
        let mut rest = words;
        let mut fed = false;
        loop {
            let Some((Arg::Known(first), tail)) = rest.split_first() else { return Ok((rest, fed)) };
            if is_assignment(first)
                || ["!", "{", "}", "then", "do", "else", "if", "while", "until", "elif"]
                    .contains(&first.as_str())
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
                "xargs" => &["-I", "-i", "-n", "-P", "-L", "-l", "-d", "-E", "-e", "-s", "-a"],
                "nohup" | "command" | "builtin" | "time" | "setsid" | "busybox" => &[],
                _ => return Ok((rest, fed)),
            };
            let wrapper = base_name(first);
            fed |= wrapper == "xargs";
            rest = tail;
            while let Some((Arg::Known(arg), tail)) = rest.split_first() {
                if arg == "--" {
                    rest = tail;
                    break;
                }
                if wrapper == "env"
                    && (arg == "-S" || arg.starts_with("--split-string") || arg.starts_with("-S"))
                {
                    let inline = arg
                        .strip_prefix("--split-string=")
                        .or_else(|| arg.strip_prefix("-S"))
                        .filter(|s| !s.is_empty());
                    match inline.map(|s| Arg::Known(s.to_owned())).or_else(|| tail.first().cloned()) {
                        Some(Arg::Known(script)) => self.script(&script, depth + 1)?,
                        Some(Arg::Unknown(shown)) => {
                            self.unknown(format!("`env -S` runs `{shown}`, known only when it runs"))
                        }
                        None => {}
                    }
                    return Ok((&[], fed));
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
}

fn too_intricate(spent: Spent) -> BlockedCommand {
    BlockedCommand {
        reason: format!(
            "the command is too intricate to be judged (it multiplies into more than {} steps of reading): split it into simpler commands",
            spent.limit
        ),
    }
}

fn check_rm(options: &Options) -> Step {
    let recursive = options.has("-r") || options.has("-R") || options.has("recursive");
    if !recursive {
        return Ok(());
    }
    if options.has("no-preserve-root") {
        return blocked("`rm --no-preserve-root` is only ever used to delete `/`");
    }
    match options.operands.iter().find(|t| is_critical_dir(t)) {
        Some(target) => blocked(format!("recursive delete of `{target}`")),
        None => Ok(()),
    }
}

fn check_recursive_perm(name: &str, options: &Options) -> Step {
    let recursive = options.has("-R") || options.has("recursive");
    match options.operands.iter().find(|t| is_critical_dir(t)) {
        Some(target) if recursive => blocked(format!("recursive `{name}` of `{target}`")),
        _ => Ok(()),
    }
}

pub(super) fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

pub(super) fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}
