//! Fork bombs and inline interpreter code: shapes that multiply processes until the machine stops
//! (`:(){ :|:& };:`, `f() ( f|f & )`, `f(){ f & f; }`, `perl -e 'fork while 1'`), and inline
//! scripts (`python -c`, `perl -e`, …) that delete, run commands or fork, which the blocklist
//! cannot judge.

/// A function whose body runs itself in a pipeline or in the background: the name, if one is found.
/// Quoted text is data here; the scripts of substitutions are checked as scripts of their own.
pub(crate) fn shell_fork_bomb(script: &str) -> Option<String> {
    let compact: Vec<char> = without_quoted(script).chars().filter(|c| !c.is_whitespace()).collect();
    let mut at = 0;
    while at + 2 < compact.len() {
        if compact[at] != '(' || compact[at + 1] != ')' || !matches!(compact[at + 2], '{' | '(') {
            at += 1;
            continue;
        }
        let name_start = compact[..at].iter().rposition(|c| ";&|{}()\n".contains(*c)).map_or(0, |i| i + 1);
        let mut name: String = compact[name_start..at].iter().collect();
        if let Some(rest) = name.strip_prefix("function") {
            if !rest.is_empty() {
                name = rest.to_owned();
            }
        }
        let body_start = at + 2;
        let body_end = matching_close(&compact, body_start).unwrap_or(compact.len());
        if !name.is_empty() && calls_itself_in_parallel(&compact[body_start..body_end], &name) {
            return Some(name);
        }
        at += 2;
    }
    None
}

/// The index of the bracket closing the one at `open`.
fn matching_close(chars: &[char], open: usize) -> Option<usize> {
    let (opening, closing) = match chars.get(open) {
        Some('{') => ('{', '}'),
        _ => ('(', ')'),
    };
    let mut level = 0usize;
    for (i, &c) in chars.iter().enumerate().skip(open) {
        if c == opening {
            level += 1;
        } else if c == closing {
            level = level.saturating_sub(1);
            if level == 0 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// `name` run as a command next to a single `|` or `&` (not `||`, `&&`).
fn calls_itself_in_parallel(body: &[char], name: &str) -> bool {
    let name: Vec<char> = name.chars().collect();
    let single = |i: Option<usize>, c: char| {
        i.is_some_and(|i| {
            body.get(i) == Some(&c) && body.get(i + 1) != Some(&c) && (i == 0 || body.get(i - 1) != Some(&c))
        })
    };
    (0..body.len()).any(|i| {
        if !body[i..].starts_with(&name) {
            return false;
        }
        let before = i.checked_sub(1);
        let after = i + name.len();
        let is_command = before.is_none_or(|b| "{(;|&".contains(body[b]));
        is_command
            && (single(Some(after), '|')
                || single(Some(after), '&')
                || single(before, '|')
                || single(before, '&'))
    })
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

/// What inline interpreter code may do, as far as its text tells.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Code {
    Harmless,
    /// Deletes, runs commands or forks: the reason.
    Unknown(String),
    /// Forks in a loop.
    ForkBomb,
}

/// Words in inline code that delete, run other programs, or fork.
const POWERFUL: &[&str] = &[
    "rmtree",
    "rm_rf",
    "rm -r",
    "rmSync",
    "rmdirSync",
    "rimraf",
    "remove_dir_all",
    "unlink",
    "shutil",
    "File::Path",
    "FileUtils",
    "system",
    "exec",
    "popen",
    "subprocess",
    "spawn",
    "child_process",
    "eval",
    "fork",
    "/dev/",
    "os.remove",
    "`",
];

pub(crate) fn inline_code(code: &str) -> Code {
    let loops = ["while", "for", "loop", "until", "repeat"].iter().any(|l| code.contains(l));
    if code.contains("fork") && loops {
        return Code::ForkBomb;
    }
    match POWERFUL.iter().find(|w| code.contains(*w)) {
        Some(word) => Code::Unknown(format!("inline code that uses `{word}`")),
        None => Code::Harmless,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fork_bomb_shapes() {
        for bomb in [":(){ :|:& };:", "f() ( f|f & )", "f(){ f & f; }", "bomb() { bomb | bomb & }; bomb"] {
            assert!(shell_fork_bomb(bomb).is_some(), "{bomb}");
        }
        for fine in
            ["f() { echo hi; }; f", "f() { echo; }; f | less", "g(){ g && true; }", "echo ':(){ :|:& };:'"]
        {
            assert_eq!(shell_fork_bomb(fine), None, "{fine}");
        }
    }

    #[test]
    fn inline_code_kinds() {
        assert_eq!(inline_code("fork while 1"), Code::ForkBomb);
        assert_eq!(inline_code("print(1)"), Code::Harmless);
        assert!(matches!(inline_code("import shutil; shutil.rmtree('/')"), Code::Unknown(_)));
    }
}
