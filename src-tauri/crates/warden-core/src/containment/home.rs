//! What the box shows of the user's home: nothing but what builds need. The home is empty (a tmpfs
//! in bubblewrap's box, not granted in the Landlock fallback) but for the toolchains and their
//! caches ([`TOOLCHAINS`], read-only), the package caches (`hidden::package_caches`: read-only,
//! writes go to the project's private layer, `super::cache_layer`), the
//! user's git configuration without its credentials ([`git_config`]) and what the user added per
//! project ("paths the box may read", `BoxPolicy::with_project_choices`). So a credential store no
//! list foresaw — another agent's token, an app's config, the user's documents — is simply not
//! there. The secret locations (`hidden`) stay a second wall inside what is shown.
//!
//! `docs/ARCHITECTURE.md` §6 lists each entry with its reason and its test.

use std::path::{Path, PathBuf};

use super::git_config;

/// What of the home the box may read (relative to the home), each with why builds need it. Only
/// those that exist are shown; none is writable (nor are the package caches, `hidden::HOME_CACHES`).
const TOOLCHAINS: &[(&str, &str)] = &[
    (".rustup", "rustup's toolchains: rustc, cargo and the standard library"),
    (".cargo/bin", "cargo, the rustup proxies and what `cargo install` put there"),
    (".cargo/env", "the script shell profiles source to put cargo on the PATH"),
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

/// The user's cargo configuration (registries, source replacement, linkers, build flags), shown
/// only when nothing in it looks like a credential ([`credential_free`]): cargo also reads
/// registry tokens from it (`[registry] token`, `[registries.NAME] token`).
const CARGO_CONFIGS: &[&str] = &[".cargo/config.toml", ".cargo/config"];

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
    for config in CARGO_CONFIGS.iter().map(|relative| home.join(relative)) {
        match std::fs::read_to_string(&config) {
            Ok(text) if credential_free(&text) => out.push(config),
            Ok(_) => {
                tracing::info!(path = %config.display(), "cargo's configuration holds a credential: not shown in the box")
            }
            Err(_) => {}
        }
    }
    out.sort();
    out
}

/// Whether a TOML configuration has nothing that looks like a credential: no key naming a token,
/// password, secret or credential (a registry token, a credential provider, an `[env]` secret), no
/// URL with a password, and no multi-line string (which could hide either from this line-wise
/// look). Anything else keeps the file out of the box whole.
fn credential_free(text: &str) -> bool {
    const WORDS: &[&str] = &["token", "password", "passwd", "secret", "credential"];
    if text.contains("'''") || text.contains("\"\"\"") {
        return false;
    }
    text.lines().all(|line| {
        let lower = line.to_ascii_lowercase();
        // Every key on the line, inline tables included (`x = { index = "…", token = "…" }`).
        let keys = lower.split('=').rev().skip(1);
        let names_a_secret = keys.into_iter().any(|key| {
            let key = key.rsplit(['{', ',', '[', ' ', '\t']).find(|k| !k.trim().is_empty()).unwrap_or("");
            WORDS.iter().any(|word| key.contains(word))
        });
        !names_a_secret && !has_url_password(&lower)
    })
}

/// `scheme://user:password@host` anywhere in `line`.
fn has_url_password(line: &str) -> bool {
    line.match_indices("://").any(|(at, _)| {
        let rest = &line[at + 3..];
        let authority = rest.split(['/', '"', '\'', ' ']).next().unwrap_or("");
        authority.split_once('@').is_some_and(|(userinfo, _)| userinfo.contains(':'))
    })
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
    fn a_cargo_configuration_is_shown_only_without_a_credential() {
        for clean in [
            "[build]\ntarget-dir = \"/tmp/t\"\n[source.crates-io]\nreplace-with = \"vendored\"\n",
            "[registries.mine]\nindex = \"sparse+https://crates.example.com/index/\"\n",
            "[net]\ngit-fetch-with-cli = true # tokens are not here\n",
        ] {
            assert!(credential_free(clean), "{clean}");
        }
        for secret in [
            "[registry]\ntoken = \"cio_abc\"\n",
            "[registries.mine]\nindex = \"x\"\nTOKEN = \"abc\"\n",
            "registries.mine.token = \"abc\"\n",
            "[registries]\nmine = { index = \"x\", token = \"abc\" }\n",
            "[registry]\nglobal-credential-providers = [\"cargo:token\"]\n",
            "[env]\nAWS_SECRET_ACCESS_KEY = \"abc\"\n",
            "[http]\nproxy = \"http://me:pw@proxy.example:3128\"\n",
            "[env]\nX = '''\ntoken = abc\n'''\n",
        ] {
            assert!(!credential_free(secret), "{secret}");
        }
    }

    #[test]
    fn a_cargo_configuration_with_a_token_is_not_among_the_toolchains() {
        let home = tempfile::tempdir().unwrap();
        let h = home.path();
        std::fs::create_dir_all(h.join(".cargo")).unwrap();
        std::fs::write(h.join(".cargo/config.toml"), "[registry]\ntoken = \"cio_secret\"\n").unwrap();
        assert_eq!(toolchains(h), Vec::<PathBuf>::new());
        std::fs::write(h.join(".cargo/config.toml"), "[build]\njobs = 2\n").unwrap();
        assert_eq!(toolchains(h), [h.join(".cargo/config.toml")]);
    }

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
