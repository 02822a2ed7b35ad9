//! Which paths a destructive command must never be aimed at: `/` and its top-level system folders
//! (also as globs: `/*`, `/u?r`), the home folder, and raw devices — after `.`, `..` and repeated
//! slashes are folded, so `//dev/./sda` and `/usr/../` are seen for what they are.

use std::path::{Component, Path};

/// Top-level system directories whose recursive deletion is as bad as deleting `/`.
const SYSTEM_DIRS: &[&str] = &[
    "bin",
    "boot",
    "dev",
    "etc",
    "home",
    "lib",
    "lib32",
    "lib64",
    "opt",
    "root",
    "sbin",
    "srv",
    "usr",
    "var",
    "Users",
    "System",
    "Library",
    "Applications",
    "private",
];
/// Device files that are fine to write to.
const HARMLESS_DEVICES: &[&str] =
    &["null", "zero", "stdout", "stderr", "stdin", "tty", "random", "urandom", "full"];

/// `/`, `/*`, the home directory (or `~/*`), a top-level system directory (or its `*`), after `.`,
/// `..` and repeated slashes are folded. Globs in the first component are matched against the
/// system directories.
pub(super) fn is_critical_dir(target: &str) -> bool {
    let target = target.trim();
    if !target.starts_with('/') {
        return false;
    }
    let folded = fold(target);
    let home = dirs::home_dir().map(|h| fold(&h.to_string_lossy())).filter(|h| !h.is_empty());
    let system = |pattern: &str| SYSTEM_DIRS.iter().any(|dir| glob_matches(pattern, dir));
    match folded.as_slice() {
        [] => true,
        [only] => only == "*" || only.starts_with(".*") || system(only),
        [dir, star] if star == "*" && system(dir) => true,
        other => home.is_some_and(|h| {
            other == h.as_slice() || (other.ends_with(&["*".to_owned()]) && other[..other.len() - 1] == h[..])
        }),
    }
}

/// Whether a shell glob (`*`, `?`, `[…]`) matches `name`.
fn glob_matches(pattern: &str, name: &str) -> bool {
    glob_matches_counting(pattern, name, &mut 0)
}

/// One element of a glob: `*`, `?`, a bracket set, or a character that matches itself.
#[derive(Debug, PartialEq, Eq)]
enum Token {
    Star,
    Any,
    Set { chars: Vec<char>, negated: bool },
    Char(char),
}

impl Token {
    /// Whether this token (not `*`) matches the one character `c`.
    fn matches(&self, c: char) -> bool {
        match self {
            Token::Star => false,
            Token::Any => true,
            Token::Char(want) => *want == c,
            Token::Set { chars, negated } => {
                let mut hit = false;
                let mut i = 0;
                while i < chars.len() {
                    if i + 2 < chars.len() && chars[i + 1] == '-' {
                        hit |= chars[i] <= c && c <= chars[i + 2];
                        i += 3;
                    } else {
                        hit |= chars[i] == c;
                        i += 1;
                    }
                }
                hit != *negated
            }
        }
    }
}

/// The tokens of a glob. A `[` starts a set when a `]` follows with something between; otherwise
/// it is a plain `[`.
fn tokens(pattern: &[char]) -> Vec<Token> {
    // The first `]` at or after each index, found in one pass from the end (a search from every
    // `[` would be quadratic in a pattern of many `[`).
    let mut next_close = vec![None; pattern.len() + 1];
    for i in (0..pattern.len()).rev() {
        next_close[i] = if pattern[i] == ']' { Some(i) } else { next_close[i + 1] };
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < pattern.len() {
        match pattern[i] {
            '*' => out.push(Token::Star),
            '?' => out.push(Token::Any),
            '[' => match next_close[i + 1] {
                Some(close) if close > i + 1 => {
                    let set = &pattern[i + 1..close];
                    let negated = matches!(set.first(), Some('!' | '^'));
                    let chars = if negated { &set[1..] } else { set }.to_vec();
                    out.push(Token::Set { chars, negated });
                    i = close + 1;
                    continue;
                }
                _ => out.push(Token::Char('[')),
            },
            c => out.push(Token::Char(c)),
        }
        i += 1;
    }
    out
}

/// [`glob_matches`], counting its steps in `steps`. Linear in the name for each token: a
/// mismatch goes back only to just after the last `*`, one character further into the name, so at
/// most (tokens + 1) × (name length + 1) steps — where plain recursion tried every way to share
/// the name among the stars, exponential in their number (`/****…x` hung the planner).
fn glob_matches_counting(pattern: &str, name: &str, steps: &mut u64) -> bool {
    let pattern: Vec<char> = pattern.chars().collect();
    let tokens = tokens(&pattern);
    let name: Vec<char> = name.chars().collect();
    let (mut t, mut n) = (0, 0);
    // Where to try again after a mismatch: the token after the last `*`, and the name position
    // that `*` stopped at.
    let mut retry: Option<(usize, usize)> = None;
    while n < name.len() {
        *steps += 1;
        match tokens.get(t) {
            Some(Token::Star) => {
                t += 1;
                retry = Some((t, n));
                continue;
            }
            Some(token) if token.matches(name[n]) => {
                t += 1;
                n += 1;
                continue;
            }
            _ => {}
        }
        match retry {
            // The last `*` takes one more character.
            Some((after_star, taken)) => {
                t = after_star;
                n = taken + 1;
                retry = Some((after_star, taken + 1));
            }
            None => return false,
        }
    }
    *steps += (tokens.len() - t.min(tokens.len())) as u64;
    tokens[t.min(tokens.len())..].iter().all(|token| *token == Token::Star)
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

/// A device file other than the harmless ones (`//dev/./sda`, `/dev/../dev/sda` included).
pub(super) fn is_raw_device(target: &str) -> bool {
    let target = target.trim();
    if !target.starts_with('/') {
        return false;
    }
    let folded = fold(target);
    match folded.as_slice() {
        [dev, rest @ ..] if dev == "dev" && !rest.is_empty() => {
            !(HARMLESS_DEVICES.contains(&rest[0].as_str()) && rest.len() == 1
                || ["fd", "pts", "shm", "mqueue"].contains(&rest[0].as_str()))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_the_shell_matches_them() {
        for (pattern, name) in [
            ("*", "usr"),
            ("u?r", "usr"),
            ("u*", "usr"),
            ("*r", "usr"),
            ("*s*", "usr"),
            ("**u**s**r**", "usr"),
            ("[a-z]sr", "usr"),
            ("[!a]sr", "usr"),
            ("[^a]sr", "usr"),
            ("[tu]s[qr]", "usr"),
            ("l*b*", "lib64"),
            ("[", "["),
            ("[]", "[]"),
            ("a[", "a["),
        ] {
            assert!(glob_matches(pattern, name), "{pattern} should match {name}");
        }
        for (pattern, name) in [
            ("u?", "usr"),
            ("*x", "usr"),
            ("[!u]sr", "usr"),
            ("[a-t]sr", "usr"),
            ("u*s*s*", "usr"),
            ("?", ""),
            ("[u]", ""),
            ("", "usr"),
        ] {
            assert!(!glob_matches(pattern, name), "{pattern} should not match {name}");
        }
    }

    #[test]
    fn many_stars_take_steps_in_proportion_not_exponential_time() {
        // `rm -rf /****…x` with 200 stars: recursion took 10 s at 16 stars and hours at 40.
        let pattern = format!("{}x", "*".repeat(200));
        for dir in SYSTEM_DIRS {
            let mut steps = 0;
            assert!(!glob_matches_counting(&pattern, dir, &mut steps));
            let bound = (pattern.len() as u64 + 1) * (dir.len() as u64 + 1);
            assert!(steps <= bound, "{steps} steps for {dir} (at most {bound})");
        }
        let brackets = "[".repeat(100_000);
        let mut steps = 0;
        assert!(!glob_matches_counting(&brackets, "usr", &mut steps));
        assert!(steps <= 2, "{steps}");
    }
}
