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
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    fn go(p: &[char], n: &[char]) -> bool {
        match p.first() {
            None => n.is_empty(),
            Some('*') => (0..=n.len()).any(|i| go(&p[1..], &n[i..])),
            Some('?') => !n.is_empty() && go(&p[1..], &n[1..]),
            Some('[') => match (p.iter().position(|c| *c == ']'), n.first()) {
                (Some(close), Some(c)) if close > 1 => {
                    let set = &p[1..close];
                    let negated = matches!(set.first(), Some('!' | '^'));
                    let set = if negated { &set[1..] } else { set };
                    let mut hit = false;
                    let mut i = 0;
                    while i < set.len() {
                        if i + 2 < set.len() && set[i + 1] == '-' {
                            hit |= set[i] <= *c && *c <= set[i + 2];
                            i += 3;
                        } else {
                            hit |= set[i] == *c;
                            i += 1;
                        }
                    }
                    hit != negated && go(&p[close + 1..], &n[1..])
                }
                _ => n.first() == Some(&'[') && go(&p[1..], &n[1..]),
            },
            Some(c) => n.first() == Some(c) && go(&p[1..], &n[1..]),
        }
    }
    go(&p, &n)
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
