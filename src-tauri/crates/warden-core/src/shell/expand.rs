//! The expansions a judge can do without running anything, in the shell's order: braces
//! (`{a,b}`), tilde (`~`, `~user`), parameters of variables whose value is known (`$HOME`,
//! `${HOME%/}`, `${IFS}`, `$USER`), then word splitting of unquoted expansion results. What only
//! running could tell (`$(…)`, other variables, `$0`) makes the word [`Arg::Unknown`].

use super::shell_words::{Piece, Word};

/// Brace expansion may not multiply a word into more than this many words…
const MAX_BRACE_WORDS: usize = 256;
/// …nor into more characters than this in all (256 copies of a long word would be gigabytes).
const MAX_BRACE_CHARS: usize = 1 << 20;

/// One argument after expansion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg {
    Known(String),
    /// Only running could tell; how it was written, for the reason shown to the user.
    Unknown(String),
}

impl Arg {
    pub fn known(&self) -> Option<&str> {
        match self {
            Arg::Known(s) => Some(s),
            Arg::Unknown(_) => None,
        }
    }

    /// The argument as written (for an unknown one) or as evaluated.
    pub fn shown(&self) -> &str {
        match self {
            Arg::Known(s) | Arg::Unknown(s) => s,
        }
    }
}

/// Where a character came from: written unquoted, made literal, or produced by an unquoted
/// expansion (and so subject to word splitting).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Plain,
    Quoted,
    Split,
}

type Chars = Vec<(char, Origin)>;

pub(crate) fn expand_word(word: &Word) -> Vec<Arg> {
    let mut chars: Chars = Vec::new();
    let mut any_quoted = false;
    for piece in &word.0 {
        match piece {
            Piece::Text { text, quoted } => {
                any_quoted |= *quoted;
                let origin = if *quoted { Origin::Quoted } else { Origin::Plain };
                chars.extend(text.chars().map(|c| (c, origin)));
            }
            Piece::Param { expr, quoted } => {
                any_quoted |= *quoted;
                let Some(value) = parameter(expr) else { return vec![Arg::Unknown(word.text())] };
                let origin = if *quoted { Origin::Quoted } else { Origin::Split };
                chars.extend(value.chars().map(|c| (c, origin)));
            }
            Piece::Opaque { .. } => return vec![Arg::Unknown(word.text())],
        }
    }
    let mut out = Vec::new();
    let Some(braced) = braces(chars) else { return vec![Arg::Unknown(word.text())] };
    for chars in braced {
        let Some(chars) = tilde(chars) else { return vec![Arg::Unknown(word.text())] };
        out.extend(split(&chars, any_quoted).into_iter().map(Arg::Known));
    }
    out
}

/// The value of a parameter expansion, when it can be known.
fn parameter(expr: &str) -> Option<String> {
    let name_end = expr.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(expr.len());
    let (name, op) = expr.split_at(name_end);
    let value = variable(name)?;
    if op.is_empty() {
        return Some(value);
    }
    // Operators whose result for a set, non-empty variable is the value itself.
    if [":-", "-", ":=", "="].iter().any(|p| op.starts_with(p)) {
        return Some(value);
    }
    let literal = |pattern: &str| {
        (!pattern.contains(['*', '?', '[', '$', '`', '\\', '\''])).then(|| pattern.to_owned())
    };
    if let Some(pattern) = op.strip_prefix("%%").or_else(|| op.strip_prefix('%')) {
        let pattern = literal(pattern.trim_matches('"'))?;
        return Some(value.strip_suffix(pattern.as_str()).unwrap_or(&value).to_owned());
    }
    if let Some(pattern) = op.strip_prefix("##").or_else(|| op.strip_prefix('#')) {
        let pattern = literal(pattern.trim_matches('"'))?;
        return Some(value.strip_prefix(pattern.as_str()).unwrap_or(&value).to_owned());
    }
    None
}

/// Variables whose value a command cannot have changed before it is read here.
fn variable(name: &str) -> Option<String> {
    match name {
        "HOME" => dirs::home_dir().map(|h| h.to_string_lossy().into_owned()),
        "IFS" => Some(" \t\n".to_owned()),
        "USER" | "LOGNAME" => std::env::var(name).ok(),
        _ => None,
    }
}

/// `{a,b}` → two words, nested and repeated braces included. `None` when too many or too long.
fn braces(chars: Chars) -> Option<Vec<Chars>> {
    let mut done = Vec::new();
    let mut todo = vec![chars];
    // Characters held in `done` and `todo` together.
    let mut held: usize = todo[0].len();
    while let Some(chars) = todo.pop() {
        held -= chars.len();
        match first_brace(&chars) {
            None => {
                held += chars.len();
                done.push(chars);
            }
            Some((open, commas, close)) => {
                let mut start = open + 1;
                for end in commas.into_iter().chain([close]) {
                    let mut word = chars[..open].to_vec();
                    word.extend_from_slice(&chars[start..end]);
                    word.extend_from_slice(&chars[close + 1..]);
                    held += word.len();
                    todo.push(word);
                    start = end + 1;
                    if held > MAX_BRACE_CHARS || done.len() + todo.len() > MAX_BRACE_WORDS {
                        return None;
                    }
                }
            }
        }
    }
    done.reverse();
    Some(done)
}

/// The first unquoted `{…}` with a top-level comma: its `{`, its commas and its `}`. One pass
/// with a stack of the open braces (each `}` closes the innermost), so a word of many `{` costs
/// its length, not its length squared.
fn first_brace(chars: &[(char, Origin)]) -> Option<(usize, Vec<usize>, usize)> {
    let mut open: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut first: Option<(usize, Vec<usize>, usize)> = None;
    for (i, &(c, origin)) in chars.iter().enumerate() {
        if origin != Origin::Plain {
            continue;
        }
        match c {
            '{' => open.push((i, Vec::new())),
            ',' => {
                if let Some((_, commas)) = open.last_mut() {
                    commas.push(i);
                }
            }
            '}' => {
                if let Some((start, commas)) = open.pop() {
                    let earlier = first.as_ref().is_some_and(|(f, _, _)| *f < start);
                    if !commas.is_empty() && !earlier {
                        first = Some((start, commas, i));
                    }
                }
            }
            _ => {}
        }
    }
    first
}

/// `~` and `~user` at the start of a word; `None` when the user or directory cannot be known.
fn tilde(chars: Chars) -> Option<Chars> {
    if chars.first() != Some(&('~', Origin::Plain)) {
        return Some(chars);
    }
    let end = chars.iter().position(|&(c, _)| c == '/').unwrap_or(chars.len());
    if chars[1..end].iter().any(|&(_, o)| o != Origin::Plain) {
        return Some(chars);
    }
    let user: String = chars[1..end].iter().map(|&(c, _)| c).collect();
    let home = if user.is_empty() {
        dirs::home_dir().map(|h| h.to_string_lossy().into_owned())?
    } else {
        home_of(&user)?
    };
    let mut out: Chars = home.chars().map(|c| (c, Origin::Quoted)).collect();
    out.extend_from_slice(&chars[end..]);
    Some(out)
}

/// A user's home directory from the password database (`/etc/passwd`); `root`'s is known anyway.
fn home_of(user: &str) -> Option<String> {
    if user.starts_with(['+', '-']) {
        return None;
    }
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let listed = passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.first() == Some(&user)).then(|| fields.get(5).map(|h| (*h).to_owned())).flatten()
    });
    match (listed, user) {
        (Some(home), _) => Some(home),
        (None, "root") if cfg!(target_os = "macos") => Some("/var/root".to_owned()),
        (None, "root") => Some("/root".to_owned()),
        (None, _) => None,
    }
}

/// Field splitting: whitespace produced by unquoted expansions separates words; an unquoted
/// expansion that produced nothing leaves no word.
fn split(chars: &[(char, Origin)], any_quoted: bool) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut has_content = any_quoted;
    for &(c, origin) in chars {
        if origin == Origin::Split && c.is_whitespace() {
            if has_content || !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            has_content = false;
            continue;
        }
        current.push(c);
        has_content |= origin != Origin::Split;
    }
    if has_content || !current.is_empty() {
        words.push(current);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::shell_words::parse;

    fn expand(cmd: &str) -> Vec<Arg> {
        parse(cmd)
            .ok()
            .and_then(|p| p.segments.last().map(|s| s.words.iter().flat_map(expand_word).collect()))
            .unwrap_or_default()
    }

    fn known(list: &[&str]) -> Vec<Arg> {
        list.iter().map(|s| Arg::Known((*s).to_owned())).collect()
    }

    #[test]
    fn known_variables_tilde_and_braces_are_evaluated() {
        let home = dirs::home_dir().map(|h| h.to_string_lossy().into_owned()).unwrap_or_default();
        assert_eq!(expand("rm ${HOME%/} ~ \"$HOME\""), known(&["rm", &home, &home, &home]));
        assert_eq!(expand("rm${IFS}-rf${IFS}/"), known(&["rm", "-rf", "/"]));
        assert_eq!(expand("rm /{usr,etc} a{b,c{d,e}}"), known(&["rm", "/usr", "/etc", "ab", "acd", "ace"]));
        assert_eq!(expand("ls ~root '~' \"{a,b}\""), known(&["ls", "/root", "~", "{a,b}"]));
        assert_eq!(expand("echo $'\\x2f'"), known(&["echo", "/"]));
    }

    #[test]
    fn what_only_running_could_tell_is_unknown() {
        for cmd in ["rm $X", "rm \"$(echo /)\"", "rm ${X:-/}", "rm $0", "rm ~+", "rm `pwd`", "rm ${HOME%/*}"]
        {
            assert!(matches!(expand(cmd).last(), Some(Arg::Unknown(_))), "{cmd}");
        }
    }
}
