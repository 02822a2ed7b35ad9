//! Custom slash commands: markdown files whose body becomes the message when the user types
//! `/name args`, as the peers read them.
//!
//! Where they come from, in order (the first of a name wins): Warden's config folder (`commands/`),
//! then the project's `.claude/commands` and `.agents/commands`; each `*.md` file directly in those
//! folders is a command named after the file. The front matter may say `description`,
//! `argument-hint`, `allowed-tools` and `model`.
//!
//! A command grants nothing. Its body is what the user sends; `allowed-tools` only narrows the
//! tools offered while it runs (never pre-approves a call); each `` !`cmd` `` is run as a `bash`
//! call through the policy and the box before the model answers; each `@path` is read as
//! `file_read` reads, within the project.

use std::path::{Path, PathBuf};

use cap_std::fs::Dir;

use super::files::{slashed, Folder};
use super::front_matter;
use super::skills::check_name;
use super::{Origin, Problem};

/// At most this much of a command's file is read.
pub const FILE_CAP: usize = 64 * 1024;
/// At most this many commands are offered.
pub const MAX_COMMANDS: usize = 200;
/// At most this many `` !`cmd` `` lines, and as many `@path` references, of one command are acted
/// on (each is a call, and a call may ask): the rest are left as they are written, and said so.
pub const MAX_CALLS: usize = 16;
/// The project's command folders, relative to its root, in order.
pub const PROJECT_FOLDERS: [&str; 2] = [".claude/commands", ".agents/commands"];

/// One command found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub name: String,
    pub description: Option<String>,
    /// What the arguments are, as the file says it (`[message]`).
    pub argument_hint: Option<String>,
    /// The tools it narrows the offer to, as written (`Bash(git add:*)`, `Read`, `file_read`).
    pub allowed_tools: Option<Vec<String>>,
    pub model: Option<String>,
    pub origin: Origin,
    pub path: PathBuf,
    /// A project command's file relative to the project root.
    pub relative: Option<String>,
    pub body: String,
}

/// The commands found, and the files left out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Commands {
    pub list: Vec<Command>,
    pub problems: Vec<Problem>,
}

impl Commands {
    /// Every command in Warden's config folder `warden` and the project `project`.
    pub fn discover(warden: Option<&Path>, project: Option<&Path>) -> Self {
        let mut out = Self::default();
        if let Some(folder) = warden.and_then(|w| Folder::user(&w.join("commands"))) {
            out.read_folder(&folder, Origin::Warden);
        }
        if let Some(project) = project {
            if let Ok(root) = Dir::open_ambient_dir(project, cap_std::ambient_authority()) {
                for relative in PROJECT_FOLDERS {
                    if let Some(folder) = Folder::project(&root, project, Path::new(relative)) {
                        out.read_folder(&folder, Origin::Project);
                    }
                }
            }
        }
        out
    }

    pub fn get(&self, name: &str) -> Option<&Command> {
        self.list.iter().find(|command| command.name == name)
    }

    fn read_folder(&mut self, folder: &Folder, origin: Origin) {
        for file in folder.names(false) {
            let Some(stem) = file.strip_suffix(".md") else { continue };
            let path = folder.path.join(&file);
            if self.list.len() >= MAX_COMMANDS {
                self.problems.push(Problem::new(&folder.path, format!("more than {MAX_COMMANDS} commands")));
                return;
            }
            if let Err(message) = check_name(stem) {
                self.problems.push(Problem::new(&path, message));
                continue;
            }
            if let Some(first) = self.get(stem) {
                let message = format!("`/{stem}` is already defined in {}", first.path.display());
                self.problems.push(Problem::new(&path, message));
                continue;
            }
            match folder.read(&file, FILE_CAP) {
                Ok((_, true)) => {
                    self.problems.push(Problem::new(&path, format!("longer than {} KiB", FILE_CAP / 1024)))
                }
                Ok((text, false)) => self.list.push(command(stem, &text, origin, folder, &file)),
                Err(error) => self.problems.push(Problem::new(&path, format!("cannot be read: {error}"))),
            }
        }
    }
}

fn command(name: &str, text: &str, origin: Origin, folder: &Folder, file: &str) -> Command {
    let doc = front_matter::parse(text);
    Command {
        name: name.to_owned(),
        description: doc.text("description").map(str::to_owned),
        argument_hint: doc.text("argument-hint").map(str::to_owned),
        allowed_tools: doc.fields.get("allowed-tools").map(front_matter::Value::items),
        model: doc.text("model").map(str::to_owned),
        origin,
        path: folder.path.join(file),
        relative: folder.relative.as_ref().map(|r| slashed(&r.join(file))),
        body: doc.body,
    }
}

/// A command's body made into the message for `args`, with what Warden does around it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expansion {
    pub text: String,
    /// The `` !`cmd` `` commands, in order, to run as `bash` calls before the model answers.
    pub shell: Vec<String>,
    /// The `@path` references, in order, to read within the project.
    pub files: Vec<String>,
}

/// The body with `$ARGUMENTS` and `$1`…`$9` replaced (the arguments said after the body when it
/// uses none of them), and its `` !`cmd` `` and `@path` references collected.
pub fn expand(body: &str, args: &str) -> Expansion {
    let args = args.trim();
    let positional = split_args(args);
    let mut text = String::with_capacity(body.len() + args.len());
    let mut used = false;
    let mut rest = body;
    while let Some(at) = rest.find('$') {
        text.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix("ARGUMENTS") {
            text.push_str(args);
            used = true;
            rest = tail;
        } else if let Some(digit) = after.chars().next().filter(|c| ('1'..='9').contains(c)) {
            let n = digit as usize - '1' as usize;
            text.push_str(positional.get(n).map_or("", String::as_str));
            used = true;
            rest = &after[1..];
        } else {
            text.push('$');
            rest = after;
        }
    }
    text.push_str(rest);
    let text = text.trim().to_owned();
    let mut text = if !used && !args.is_empty() { format!("{text}\n\nARGUMENTS: {args}") } else { text };
    let (mut shell, mut files) = (shell_lines(&text), file_refs(&text));
    if shell.len() > MAX_CALLS || files.len() > MAX_CALLS {
        text.push_str(&format!(
            "\n\n(Only the first {MAX_CALLS} `!` lines and {MAX_CALLS} `@` files of this command were acted on.)"
        ));
        shell.truncate(MAX_CALLS);
        files.truncate(MAX_CALLS);
    }
    Expansion { shell, files, text }
}

/// The arguments split at whitespace, a quoted part (`"…"` or `'…'`) kept whole.
fn split_args(args: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quote: Option<char> = None;
    let mut started = false;
    for c in args.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => current.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, c) if c.is_whitespace() => {
                if started || !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                }
                started = false;
            }
            (None, c) => current.push(c),
        }
    }
    if started || !current.is_empty() {
        out.push(current);
    }
    out
}

/// Each `` !`…` `` of the text (on one line, not empty).
fn shell_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("!`") {
        let after = &rest[at + 2..];
        match after.find('`') {
            Some(end) if !after[..end].contains('\n') => {
                let command = after[..end].trim();
                if !command.is_empty() {
                    out.push(command.to_owned());
                }
                rest = &after[end + 1..];
            }
            _ => rest = after,
        }
    }
    out
}

/// Each `@path` of the text: an `@` at the start or after whitespace, then a path (trailing
/// punctuation not part of it). E-mail addresses and `@` inside words are not references.
fn file_refs(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        if c == '@' && previous.is_whitespace() {
            let path: String = text[at + 1..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '`' | '"' | '\'' | '<' | '>'))
                .collect();
            let path = path.trim_end_matches(['.', ',', ';', ':', ')', '!', '?']);
            if !path.is_empty() && !out.iter().any(|known| known == path) {
                out.push(path.to_owned());
            }
        }
        previous = c;
    }
    out
}

#[cfg(test)]
#[path = "commands_tests.rs"]
mod tests;
