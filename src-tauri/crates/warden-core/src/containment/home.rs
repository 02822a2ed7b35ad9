//! What the box shows of the user's home: nothing but what builds need. The home is empty (a tmpfs
//! in bubblewrap's box, not granted in the Landlock fallback) but for the toolchains and their
//! caches ([`TOOLCHAINS`], read-only), the writable build caches (`hidden::writable_caches`), the
//! user's git configuration without its credentials ([`git_config`]) and what the user added per
//! project ("paths the box may read", `BoxPolicy::with_project_choices`). So a credential store no
//! list foresaw — another agent's token, an app's config, the user's documents — is simply not
//! there. The secret locations (`hidden`) stay a second wall inside what is shown.
//!
//! `docs/ARCHITECTURE.md` §6 lists each entry with its reason and its test.

use std::path::{Path, PathBuf};

use super::git_config;

/// What of the home the box may read (relative to the home), each with why builds need it. Only
/// those that exist are shown; none is writable (the writable caches are `hidden::HOME_CACHES`).
const TOOLCHAINS: &[(&str, &str)] = &[
    (".rustup", "rustup's toolchains: rustc, cargo and the standard library"),
    (".cargo/bin", "cargo, the rustup proxies and what `cargo install` put there"),
    (".cargo/env", "the script shell profiles source to put cargo on the PATH"),
    (".cargo/config.toml", "the user's cargo configuration (registries, linkers, build flags)"),
    (".cargo/config", "the same under its older name"),
    (".local/bin", "pipx, `pip install --user` and the user's own programs"),
    (".local/share/pipx", "the environments pipx's commands in `.local/bin` link into"),
    (".local/pipx", "the same where an older pipx keeps them"),
    (".local/share/uv/tools", "the environments uv's tools in `.local/bin` link into"),
    (".local/share/uv/python", "the Python versions uv installed (not uv's credentials beside them)"),
    (".nvm", "nvm's node versions"),
    (".volta", "Volta's node, npm and yarn versions"),
    (".fnm", "fnm's node versions"),
    (".local/share/fnm", "fnm's node versions where it follows XDG"),
    (
        ".local/state/fnm_multishells",
        "fnm's per-shell links to its versions, where there is no runtime folder",
    ),
    (".pyenv", "pyenv's python versions"),
    ("go/pkg/mod", "Go's module cache, for builds without the network"),
    ("go/bin", "what `go install` put there (gopls, linters)"),
    (".sdkman", "SDKMAN's Java, Kotlin, Gradle and Maven versions"),
    (".m2/repository", "Maven's local repository"),
    (".gradle/caches", "Gradle's dependency cache"),
    (".gradle/wrapper", "the Gradle versions the wrapper downloaded"),
    (".gradle/jdks", "the JDKs Gradle's toolchains downloaded"),
    (".jdks", "the JDKs IntelliJ IDEA downloaded"),
    (".config/git/ignore", "git's user-wide ignore file"),
    (".config/git/attributes", "git's user-wide attributes"),
];

/// Folders under `~/.local/lib` whose name starts with this: the user's site-packages
/// (`pip install --user`), one per Python version.
const PYTHON_USER_SITE: &str = "python3";

/// The toolchain entries that exist under `home`, read-only in the box.
pub fn toolchains(home: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = TOOLCHAINS.iter().map(|(relative, _)| home.join(relative)).collect();
    if let Ok(entries) = std::fs::read_dir(home.join(".local/lib")) {
        let sites =
            entries.flatten().filter(|e| e.file_name().to_string_lossy().starts_with(PYTHON_USER_SITE));
        out.extend(sites.map(|e| e.path()));
    }
    out.retain(|path| std::fs::metadata(path).is_ok());
    out.sort();
    out
}

/// The user's global git configuration (`~/.config/git/config`, then `~/.gitconfig`, which git
/// reads in that order) without its credentials, for the box's `~/.gitconfig`; `None` when the
/// user has neither.
pub fn git_config(home: &Path) -> Option<String> {
    let read = |relative: &str| std::fs::read_to_string(home.join(relative)).ok();
    let files: Vec<String> = [".config/git/config", ".gitconfig"].into_iter().filter_map(read).collect();
    if files.is_empty() {
        return None;
    }
    Some(files.iter().map(|text| git_config::without_credentials(text)).collect::<Vec<_>>().join("\n"))
}

/// The home the box empties, when it can: not the file system's root, and not when the project
/// holds it (`warden sandbox --project ~`: the user asked for the whole home).
pub(super) fn emptied(home: &Path, project: &Path) -> Option<PathBuf> {
    let real = std::fs::canonicalize(home).ok()?;
    (real.is_dir() && real.parent().is_some() && !real.starts_with(project) && !home.starts_with(project))
        .then(|| home.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_existing_toolchains_and_python_user_sites_are_listed() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        for dir in [".cargo/bin", ".cargo/registry", ".local/lib/python3.11", ".local/lib/python2.7", ".nvm"]
        {
            std::fs::create_dir_all(h.join(dir)).unwrap();
        }
        std::fs::write(h.join(".cargo/env"), "").unwrap();
        assert_eq!(
            toolchains(h),
            [".cargo/bin", ".cargo/env", ".local/lib/python3.11", ".nvm"].map(|r| h.join(r)),
        );
    }

    #[test]
    fn the_git_config_joins_both_files_without_credentials() {
        let home = tempfile::tempdir().unwrap();
        assert_eq!(git_config(home.path()), None);
        std::fs::create_dir_all(home.path().join(".config/git")).unwrap();
        std::fs::write(home.path().join(".config/git/config"), "[core]\n\tautocrlf = input\n").unwrap();
        std::fs::write(
            home.path().join(".gitconfig"),
            "[user]\n\tname = Me\n[credential]\n\thelper = store\n",
        )
        .unwrap();
        let text = git_config(home.path()).unwrap();
        assert!(text.contains("autocrlf = input") && text.contains("name = Me"), "{text}");
        assert!(text.find("autocrlf") < text.find("name = Me"), "git reads the XDG file first: {text}");
        assert!(!text.contains("helper"), "{text}");
    }

    #[test]
    fn a_home_is_emptied_unless_it_is_the_root_or_the_project_holds_it() {
        let root = tempfile::tempdir().unwrap();
        let home = std::fs::canonicalize(root.path()).unwrap();
        let project = home.join("p");
        std::fs::create_dir_all(&project).unwrap();
        assert_eq!(emptied(&home, &project), Some(home.clone()));
        assert_eq!(emptied(&home, &home), None);
        assert_eq!(emptied(Path::new("/"), &project), None);
        assert_eq!(emptied(&home.join("missing"), &project), None);
    }
}
