//! Path resolution: every path the model names is resolved component by component — `..`, symlinks,
//! also for ancestors of a file that does not exist yet — and must land inside a root. A path that cannot
//! be proven inside is outside (fail closed). Secret-bearing names are refused whether they are named
//! directly or reached through a symlink.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::{secrets, SandboxError};

/// Longest path (in bytes) the sandbox accepts; real paths are far shorter, absurd ones are attacks.
pub const MAX_PATH_BYTES: usize = 4096;
/// Longest single component (Linux NAME_MAX).
pub const MAX_COMPONENT_BYTES: usize = 255;
/// Symlink hops before a path counts as a loop (Linux uses 40 as well).
const MAX_SYMLINK_HOPS: usize = 40;

/// Directories whose contents are never reachable, whatever the roots are.
const FORBIDDEN_PREFIXES: &[&str] = &["/proc", "/sys", "/dev"];

/// A path proven to be inside one of the roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// The fully resolved absolute path (no `..`, no symlinks in the existing part).
    pub absolute: PathBuf,
    /// Index of the root it lies in (0 = project directory, 1 = Warden's storage for the project).
    pub root: usize,
    /// The path relative to that root (empty for the root itself).
    pub relative: PathBuf,
}

impl ResolvedPath {
    /// The path as shown to the model and the user: relative to its root, `.` for the root itself.
    pub fn display(&self) -> String {
        if self.relative.as_os_str().is_empty() {
            ".".to_owned()
        } else {
            self.relative.to_string_lossy().into_owned()
        }
    }
}

fn violation(path: &str, reason: impl Into<String>) -> SandboxError {
    SandboxError::Violation { path: path.to_owned(), reason: reason.into() }
}

/// Refuse what is never a sane path before touching the file system.
pub(super) fn check_raw(raw: &str) -> Result<(), SandboxError> {
    if raw.contains('\0') {
        return Err(violation(&raw.replace('\0', "\\0"), "the path contains a NUL byte"));
    }
    if raw.len() > MAX_PATH_BYTES {
        let shown: String = raw.chars().take(80).collect();
        return Err(violation(
            &format!("{shown}…"),
            format!("the path is {} bytes long; at most {MAX_PATH_BYTES} are accepted", raw.len()),
        ));
    }
    if let Some(long) = Path::new(raw).components().find(|c| c.as_os_str().len() > MAX_COMPONENT_BYTES) {
        return Err(violation(
            raw,
            format!(
                "a path component is {} bytes long; at most {MAX_COMPONENT_BYTES} are accepted",
                long.as_os_str().len()
            ),
        ));
    }
    Ok(())
}

/// Whether a (resolved, absolute) path is under `/proc`, `/sys` or `/dev`.
pub fn forbidden_system_path(path: &Path) -> Option<&'static str> {
    FORBIDDEN_PREFIXES.iter().copied().find(|prefix| path.starts_with(prefix))
}

/// Resolve `raw` (relative to `base`, or absolute) against the real file system: `.` and `..` are
/// applied after the symlinks before them are followed, every existing symlink is followed (at most
/// 40 hops), and the part that does not exist yet is appended as written.
pub(super) fn resolve_fs(base: &Path, raw: &str) -> Result<PathBuf, SandboxError> {
    let requested = Path::new(raw);
    let mut pending: VecDeque<OsString> = VecDeque::new();
    let mut resolved = if requested.is_absolute() { PathBuf::from("/") } else { base.to_path_buf() };
    push_components(&mut pending, requested);
    let mut hops = 0usize;
    // Once a component is missing, nothing below it exists (so nothing below it is a symlink) —
    // but a `..` cannot climb out of a missing directory either (the kernel refuses such a path).
    // Carrying on from the existing part unresolved let a symlink after `missing/..` go unfollowed;
    // such a path is refused outright (fail closed), naming the missing directory.
    let mut missing: Option<PathBuf> = None;
    while let Some(part) = pending.pop_front() {
        if part == ".." {
            if let Some(dir) = &missing {
                return Err(violation(
                    raw,
                    format!(
                        "`..` climbs out of {}, which does not exist, so the path cannot be resolved",
                        dir.display()
                    ),
                ));
            }
            resolved.pop();
            continue;
        }
        let candidate = resolved.join(&part);
        if missing.is_some() {
            resolved = candidate;
            continue;
        }
        match std::fs::symlink_metadata(&candidate) {
            Ok(meta) if meta.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_SYMLINK_HOPS {
                    return Err(violation(raw, "too many levels of symbolic links (a symlink loop?)"));
                }
                let target = std::fs::read_link(&candidate).map_err(|e| {
                    violation(raw, format!("the symlink {} cannot be read: {e}", candidate.display()))
                })?;
                if target.is_absolute() {
                    resolved = PathBuf::from("/");
                }
                let mut rest: VecDeque<OsString> = VecDeque::new();
                push_components(&mut rest, &target);
                rest.extend(pending.drain(..));
                pending = rest;
            }
            Ok(_) => resolved = candidate,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // Nothing below a missing component can exist, so none of it can be a symlink.
                missing = Some(candidate.clone());
                resolved = candidate;
            }
            Err(e) => {
                return Err(violation(
                    raw,
                    format!(
                        "{} cannot be inspected ({e}), so it cannot be proven inside",
                        candidate.display()
                    ),
                ))
            }
        }
    }
    Ok(resolved)
}

fn push_components(queue: &mut VecDeque<OsString>, path: &Path) {
    for component in path.components() {
        match component {
            Component::Normal(name) => queue.push_back(name.to_os_string()),
            Component::ParentDir => queue.push_back(OsString::from("..")),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
}

/// Apply `.` and `..` without touching the file system (for the secret check on the name as requested).
pub(super) fn normalize_lexically(base: &Path, raw: &str) -> PathBuf {
    let requested = Path::new(raw);
    let mut out = if requested.is_absolute() { PathBuf::from("/") } else { base.to_path_buf() };
    for component in requested.components() {
        match component {
            Component::Normal(name) => out.push(name),
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
        }
    }
    out
}

/// Which root (index) contains `path`, and the path relative to it. Roots are canonical.
pub(super) fn locate(roots: &[PathBuf], path: &Path) -> Option<(usize, PathBuf)> {
    roots
        .iter()
        .enumerate()
        .find_map(|(i, root)| path.strip_prefix(root).ok().map(|rel| (i, rel.to_path_buf())))
}

/// Fold what looks like ASCII to ASCII: lower case, fullwidth forms, and the Cyrillic and Greek letters
/// that render like Latin ones. A name that merely *looks* like `.env` is treated as `.env` (fail closed).
fn fold_lookalikes(name: &str) -> String {
    name.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            'а' => 'a',
            'е' | 'ε' | 'ℯ' => 'e',
            'о' | 'ο' => 'o',
            'р' | 'ρ' => 'p',
            'с' | 'ϲ' => 'c',
            'х' | 'χ' => 'x',
            'у' => 'y',
            'і' | 'ι' => 'i',
            'ѕ' => 's',
            'ԁ' => 'd',
            'һ' => 'h',
            'к' | 'κ' => 'k',
            'т' | 'τ' => 't',
            'ν' => 'v',
            'ո' => 'n',
            '․' | '﹒' => '.',
            _ => c,
        })
        .collect()
}

/// Why a path is secret-bearing, judged on its components relative to a root; `None` when it is not.
pub fn secret_reason(relative: &Path) -> Option<String> {
    let names: Vec<String> =
        relative.components().map(|c| fold_lookalikes(&c.as_os_str().to_string_lossy())).collect();
    let mut in_git = false;
    for (i, name) in names.iter().enumerate() {
        let parent = i.checked_sub(1).map(|p| names[p].as_str());
        if let Some(rule) = secrets::rule_for(name, parent, in_git) {
            return Some(format!("secret-bearing path (`{}`): {}", relative.display(), rule.why));
        }
        in_git |= name == ".git";
    }
    None
}

/// The secret check on one directory entry's name, given its parent's name and whether it lies
/// inside a `.git` directory. Cheap for ASCII names (no allocation): walks call it for every entry.
pub fn is_secret_name(name: &std::ffi::OsStr, parent: Option<&std::ffi::OsStr>, in_git: bool) -> bool {
    let parent_folded;
    let parent = match parent.map(|p| p.to_str().filter(|p| p.is_ascii())) {
        None => None,
        Some(Some(ascii)) => Some(ascii),
        Some(None) => {
            parent_folded = parent.map(|p| fold_lookalikes(&p.to_string_lossy()));
            parent_folded.as_deref()
        }
    };
    match name.to_str().filter(|n| n.is_ascii()) {
        Some(ascii) => secrets::rule_for(ascii, parent, in_git).is_some(),
        None => secrets::rule_for(&fold_lookalikes(&name.to_string_lossy()), parent, in_git).is_some(),
    }
}

/// Whether a component is a `.git` directory (or a look-alike of one).
pub fn is_git_dir_name(name: &std::ffi::OsStr) -> bool {
    match name.to_str().filter(|n| n.is_ascii()) {
        Some(ascii) => ascii.eq_ignore_ascii_case(".git"),
        None => fold_lookalikes(&name.to_string_lossy()) == ".git",
    }
}

/// Why a write to `relative` would reach git's internals, which run code (hooks) or redirect git
/// (`config`, `info/`, a `.git` file's `gitdir:`) outside Warden; `None` when it does not.
pub fn git_internals_reason(relative: &Path) -> Option<String> {
    relative.components().any(|c| is_git_dir_name(c.as_os_str())).then(|| {
        format!(
            "`{}` is inside `.git/`: its hooks, config and info run code or redirect git the next time \
             you use it, outside Warden, so file tools never write there (reading is fine)",
            relative.display()
        )
    })
}

/// The secret check on an absolute path: judged relative to the root it lies in, or on its whole
/// length when it lies in no root.
pub(super) fn secret_reason_abs(roots: &[PathBuf], path: &Path) -> Option<String> {
    match locate(roots, path) {
        Some((_, rel)) => secret_reason(&rel),
        None => secret_reason(path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names_are_recognised_in_any_case_and_lookalike() {
        for p in [
            ".env",
            ".env.local",
            "sub/.ENV",
            ".ssh/config",
            "home/.ssh",
            ".git/config",
            "certs/server.pem",
            "tls.KEY",
            "ID_RSA",
            "id_rsa.pub",
            "id_ed25519",
            "aws_credentials.json",
            "MySecrets.txt",
            ".\u{0435}nv",
            "\u{FF0E}env",
            ".npmrc",
            "home/.pypirc",
            ".netrc",
            "_netrc",
            ".pgpass",
            "web/.htpasswd",
            ".kube/config",
            ".docker/config.json",
            "certs/client.p12",
            "certs/client.PFX",
            "infra/terraform.tfstate",
            "infra/terraform.tfstate.backup",
            ".git/modules/vendor/config",
            ".git/modules/a/modules/b/config",
            ".gnupg/pubring.kbx",
        ] {
            assert!(secret_reason(Path::new(p)).is_some(), "{p} should be secret");
        }
        for p in [
            "src/main.rs",
            "environment.md",
            ".git/HEAD",
            "config/app.toml",
            "keys.rs",
            "monkey.txt",
            "src/config",
            "docker/config.json",
            ".git/modules/vendor/HEAD",
            "npmrc.md",
        ] {
            assert!(secret_reason(Path::new(p)).is_none(), "{p} should not be secret");
        }
    }

    #[test]
    fn the_fast_name_check_agrees_with_the_path_check() {
        use std::ffi::OsStr;
        for name in [
            ".env",
            ".Env.prod",
            "a.PEM",
            "x.key",
            "id_rsa",
            "my_credentials",
            "SECRET.md",
            "main.rs",
            ".envrc",
            "keys.rs",
        ] {
            assert_eq!(
                is_secret_name(OsStr::new(name), None, false),
                secret_reason(Path::new(name)).is_some(),
                "{name}"
            );
        }
        assert!(is_secret_name(OsStr::new("config"), Some(OsStr::new(".git")), true));
        assert!(is_secret_name(OsStr::new("config"), Some(OsStr::new("vendor")), true));
        assert!(!is_secret_name(OsStr::new("config"), Some(OsStr::new("src")), false));
        assert!(is_secret_name(OsStr::new("config"), Some(OsStr::new(".kube")), false));
        assert!(is_secret_name(OsStr::new("config.json"), Some(OsStr::new(".\u{0501}ocker")), false));
    }

    #[test]
    fn git_internals_are_named_in_any_case_and_lookalike() {
        for p in
            [".git/hooks/post-checkout", ".git/config", ".GIT/info/exclude", "sub/.git", ".g\u{0456}t/HEAD"]
        {
            assert!(git_internals_reason(Path::new(p)).is_some(), "{p}");
        }
        for p in [".gitignore", ".github/workflows/ci.yml", "src/git/mod.rs", ".gitmodules"] {
            assert!(git_internals_reason(Path::new(p)).is_none(), "{p}");
        }
    }

    #[test]
    fn raw_checks_refuse_nul_and_absurd_lengths() {
        assert!(check_raw("a\0b").is_err());
        assert!(check_raw(&"a/".repeat(3000)).is_err());
        assert!(check_raw(&"x".repeat(300)).is_err());
        assert!(check_raw("src/lib.rs").is_ok());
    }

    #[test]
    fn lexical_normalization_applies_dot_dot() {
        assert_eq!(normalize_lexically(Path::new("/r"), "a/../b/./c"), PathBuf::from("/r/b/c"));
        assert_eq!(normalize_lexically(Path::new("/r"), "../../etc"), PathBuf::from("/etc"));
    }

    #[test]
    fn forbidden_system_paths() {
        assert!(forbidden_system_path(Path::new("/proc/self/environ")).is_some());
        assert!(forbidden_system_path(Path::new("/dev")).is_some());
        assert!(forbidden_system_path(Path::new("/devices")).is_none());
    }
}
