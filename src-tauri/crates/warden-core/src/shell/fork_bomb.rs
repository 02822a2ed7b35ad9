//! Fork bombs and inline interpreter code: shapes that multiply processes until the machine stops
//! (`:(){ :|:& };:`, `f() ( f|f & )`, `f(){ f & f; }`, `perl -e 'fork while 1'`), and inline
//! scripts (`python -c`, `perl -e`, …) that delete, run commands or fork, which the blocklist
//! cannot judge.

use super::judge_budget::{Budget, Spent};

/// A function whose body runs itself in a pipeline or in the background: the name, if one is found.
/// Quoted text is data here; the scripts of substitutions are checked as scripts of their own.
/// Every bracket's partner is found once up front and each body is scanned once: the scan of the
/// bodies of nested functions is what `budget` pays for.
pub(crate) fn shell_fork_bomb(script: &str, budget: &mut Budget) -> Result<Option<String>, Spent> {
    let compact: Vec<char> = without_quoted(script).chars().filter(|c| !c.is_whitespace()).collect();
    budget.spend(compact.len())?;
    let closes = closing_brackets(&compact);
    // Where the word before the current position starts: just after the last delimiter.
    let mut word_start = 0;
    let mut at = 0;
    while at + 2 < compact.len() {
        if compact[at] != '(' || compact[at + 1] != ')' || !matches!(compact[at + 2], '{' | '(') {
            if ";&|{}()\n".contains(compact[at]) {
                word_start = at + 1;
            }
            at += 1;
            continue;
        }
        let mut name: String = compact[word_start..at].iter().collect();
        if let Some(rest) = name.strip_prefix("function") {
            if !rest.is_empty() {
                name = rest.to_owned();
            }
        }
        let body_start = at + 2;
        let body_end = closes[body_start].map_or(compact.len(), |close| close + 1);
        if !name.is_empty() {
            budget.spend(body_end - body_start)?;
            if calls_itself_in_parallel(&compact[body_start..body_end], &name) {
                return Ok(Some(name));
            }
        }
        at += 2;
        word_start = at;
    }
    Ok(None)
}

/// For each `(` and `{`, the index of the bracket of the same kind that closes it (brackets of the
/// other kind are not counted), found with one stack per kind.
fn closing_brackets(chars: &[char]) -> Vec<Option<usize>> {
    let mut closes = vec![None; chars.len()];
    let (mut parens, mut braces) = (Vec::new(), Vec::new());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '(' => parens.push(i),
            '{' => braces.push(i),
            ')' => {
                if let Some(open) = parens.pop() {
                    closes[open] = Some(i);
                }
            }
            '}' => {
                if let Some(open) = braces.pop() {
                    closes[open] = Some(i);
                }
            }
            _ => {}
        }
    }
    closes
}

/// `name` run as a command next to a single `|` or `&` (not `||`, `&&`). Only places where a
/// command starts are compared with the name, and the name holds no delimiter, so the comparisons
/// never overlap: linear in the body.
fn calls_itself_in_parallel(body: &[char], name: &str) -> bool {
    let name: Vec<char> = name.chars().collect();
    let single = |i: Option<usize>, c: char| {
        i.is_some_and(|i| {
            body.get(i) == Some(&c) && body.get(i + 1) != Some(&c) && (i == 0 || body.get(i - 1) != Some(&c))
        })
    };
    (0..body.len()).any(|i| {
        let before = i.checked_sub(1);
        let is_command = before.is_none_or(|b| "{(;|&".contains(body[b]));
        if !is_command || !body[i..].starts_with(&name) {
            return false;
        }
        let after = i + name.len();
        single(Some(after), '|') || single(Some(after), '&') || single(before, '|') || single(before, '&')
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

    fn bomb(script: &str) -> Option<String> {
        shell_fork_bomb(script, &mut Budget::for_command(script)).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn fork_bomb_shapes() {
        for shape in [
            ":(){ :|:& };:",
            "f() ( f|f & )",
            "f(){ f & f; }",
            "bomb() { bomb | bomb & }; bomb",
            "a; function g() { g | g & }",
            "x() { y() { :; }; x | x & }",
            "f() { f arg | f arg & }",
        ] {
            assert!(bomb(shape).is_some(), "{shape}");
        }
        for fine in [
            "f() { echo hi; }; f",
            "f() { echo; }; f | less",
            "g(){ g && true; }",
            "echo ':(){ :|:& };:'",
            "g() { h | h & }",
            "()(){ x; }",
        ] {
            assert_eq!(bomb(fine), None, "{fine}");
        }
    }

    #[test]
    fn unclosed_definitions_cost_one_pass_and_nested_ones_spend_the_budget() {
        // `()(` again and again, never closed: a search for each closing bracket was quadratic.
        let unclosed = "()(".repeat(200_000);
        let mut budget = Budget::for_command(&unclosed);
        assert_eq!(shell_fork_bomb(&unclosed, &mut budget), Ok(None));
        assert!(budget.used() <= 2 * unclosed.len() as u64, "{} steps", budget.used());
        // A long name scanned in a body made of it.
        let name = "a".repeat(100_000);
        let long = format!("{name}() {{ {name}; {name} ; }}");
        let mut budget = Budget::for_command(&long);
        assert_eq!(shell_fork_bomb(&long, &mut budget), Ok(None));
        assert!(budget.used() <= 2 * long.len() as u64, "{} steps", budget.used());
        // Functions nested in functions: every body holds the rest. That is paid for, and a nest
        // deep enough runs out rather than running on.
        let nested = format!("{}{}", "f(){ ".repeat(100_000), "}".repeat(100_000));
        assert!(shell_fork_bomb(&nested, &mut Budget::for_command(&nested)).is_err());
    }

    #[test]
    fn inline_code_kinds() {
        assert_eq!(inline_code("fork while 1"), Code::ForkBomb);
        assert_eq!(inline_code("print(1)"), Code::Harmless);
        assert!(matches!(inline_code("import shutil; shutil.rmtree('/')"), Code::Unknown(_)));
    }
}
