//! Which locations a boxed command cannot see, and which caches it may write. Only existing paths
//! are listed (a mount needs its target), each as given and, when it is a symlink, as resolved.

use std::path::{Path, PathBuf};

use crate::sandbox::secrets::rule_for;

/// Secret locations under the user's home: keys, cloud and registry credentials, keyrings,
/// password stores, browser profiles, other agents' tokens, shell histories, the X cookie and the
/// window's web storage. In bubblewrap's box and the Landlock fallback the home shows only
/// toolchains (`super::home`), so this list is the second wall, for what lies inside a folder that
/// is shown (a writable cache, a path the user added); in Seatbelt's box it is the only one. A
/// path the user adds to what the box may read that lies here is shown, with a warning.
const HOME_SECRETS: &[&str] = &[
    ".ssh",
    ".aws",
    ".gnupg",
    ".azure",
    ".kube",
    ".docker/config.json",
    // Docker Desktop's daemon socket (a command that reaches it runs containers as the user).
    ".docker/run",
    ".docker/desktop",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".vault-token",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".config/gcloud",
    ".config/gh",
    ".config/hub",
    ".config/op",
    ".config/git/credentials",
    // uv's `uv auth login` store (beside the tools and Python versions the box shows).
    ".local/share/uv/credentials",
    ".terraform.d/credentials.tfrc.json",
    ".local/share/keyrings",
    ".password-store",
    ".mozilla",
    ".thunderbird",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".config/vivaldi",
    "snap/firefox",
    // Other agents' and tools' tokens.
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".config/github-copilot",
    ".cache/huggingface/token",
    ".huggingface/token",
    ".gem/credentials",
    ".pulumi/credentials.json",
    ".config/rclone/rclone.conf",
    ".s3cfg",
    ".boto",
    ".oci",
    ".gradle/gradle.properties",
    ".m2/settings.xml",
    ".m2/settings-security.xml",
    ".config/Code/User/globalStorage/state.vscdb",
    ".Xauthority",
    ".ICEauthority",
    // Shell and REPL histories: the commands the user typed, tokens pasted on a command line among them.
    ".bash_history",
    ".zsh_history",
    ".histfile",
    ".local/share/fish/fish_history",
    ".python_history",
    ".node_repl_history",
    ".psql_history",
    ".mysql_history",
    ".sqlite_history",
    ".irb_history",
    ".lesshst",
    // The window's own web storage (WebKitGTK keeps it under the app's identifier).
    ".local/share/dev.warden.app",
    ".cache/dev.warden.app",
];

/// The variables naming the user's configuration and data folders.
const XDG_OUTSIDE_THE_HOME: &[&str] = &["XDG_CONFIG_HOME", "XDG_DATA_HOME"];

/// Sockets of services outside the box a command could drive: Docker's and Podman's daemons, and
/// the system bus (systemd, polkit, NetworkManager answer there).
const SYSTEM_SOCKETS: &[&str] = &[
    "/var/run/docker.sock",
    "/run/docker.sock",
    "/run/containerd",
    "/run/podman",
    "/run/dbus",
    "/var/run/dbus",
];

/// Where users' homes are: each folder there but the user's own is hidden.
const HOMES: &[&str] = &["/home", "/var/home"];

/// Package caches the box shows, so `cargo`, `npm` and `pip` work offline-first as they do outside
/// (none of them holds a credential; `.cargo/credentials*` and `.npmrc` stay hidden). They hold
/// code that runs later outside any box (a crate's `build.rs`, `npx`'s packages), so they are
/// read-only, and bubblewrap's box writes to the project's private layer over them
/// (`super::cache_layer`).
pub(super) const HOME_CACHES: &[&str] =
    &[".cargo/registry", ".cargo/git", ".npm", ".cache/pip", ".cache/yarn", ".cache/pnpm"];

/// How deep the project is searched for secret files (`.env*`, keys…) to hide; deeper ones are
/// still refused by the file tools but visible to commands. Build output is not searched.
const PROJECT_DEPTH: usize = 4;
const SKIPPED_DIRS: &[&str] =
    &[".git", "node_modules", "target", "dist", "build", ".venv", "venv", "__pycache__"];

/// The locations hidden from a command in `project`.
pub fn hidden_locations(home: Option<&Path>, project: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(home) = home {
        for relative in HOME_SECRETS {
            push_existing(&mut out, home.join(relative));
        }
    }
    // The session's private sockets: D-Bus (the keychain holding Warden's keys), the keyring's
    // control socket, ssh-agent and gpg-agent.
    if let Some(runtime) = runtime_dir() {
        push_existing(&mut out, runtime);
    }
    // The user's configuration and data folders where they live outside the home: the emptied
    // home does not cover them, and they hold tokens (gh, git credentials, keyrings, other agents).
    for folder in XDG_OUTSIDE_THE_HOME {
        let dir = std::env::var_os(folder).map(PathBuf::from).filter(|dir| dir.is_absolute());
        if let Some(dir) = dir.filter(|dir| home.is_none_or(|home| !dir.starts_with(home))) {
            push_existing(&mut out, dir);
        }
    }
    for socket in SYSTEM_SOCKETS {
        push_existing(&mut out, PathBuf::from(socket));
    }
    other_homes(home, project, &mut out);
    secret_files_in(project, 0, &mut out);
    out.sort();
    out.dedup();
    out
}

/// Every known credential location under `home`, whether it exists or not (for Settings' warning).
pub fn credential_locations(home: &Path) -> Vec<PathBuf> {
    HOME_SECRETS.iter().map(|relative| home.join(relative)).collect()
}

/// Whether `path` is a known credential location under `home`, or inside one (as given, or with
/// `home` resolved).
pub(super) fn is_credential_location(home: &Path, path: &Path) -> bool {
    let real = std::fs::canonicalize(home).ok();
    let homes = std::iter::once(home).chain(real.as_deref());
    homes
        .flat_map(|home| HOME_SECRETS.iter().map(move |r| home.join(r)))
        .any(|secret| path.starts_with(secret))
}

/// The other users' homes: each folder of [`HOMES`] that is not the user's own home, does not
/// hold it and does not hold the project (a project in a shared folder there stays visible).
fn other_homes(home: Option<&Path>, project: &Path, out: &mut Vec<PathBuf>) {
    for homes in HOMES {
        let Ok(entries) = std::fs::read_dir(homes) else { continue };
        for path in entries.flatten().map(|entry| entry.path()) {
            let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            let own = home.is_some_and(|home| {
                let real_home = std::fs::canonicalize(home).unwrap_or_else(|_| home.to_path_buf());
                [home, real_home.as_path()].iter().any(|h| h.starts_with(&path) || h.starts_with(&real))
            });
            if !own && !project.starts_with(&path) && !project.starts_with(&real) {
                push_existing(out, path);
            }
        }
    }
}

/// The package caches that exist under `home`.
pub fn package_caches(home: &Path) -> Vec<PathBuf> {
    HOME_CACHES.iter().map(|c| home.join(c)).filter(|p| p.is_dir()).collect()
}

fn runtime_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("XDG_RUNTIME_DIR") {
        return Some(PathBuf::from(dir));
    }
    #[cfg(unix)]
    {
        let uid = nix::unistd::getuid();
        Some(PathBuf::from(format!("/run/user/{uid}")))
    }
    #[cfg(not(unix))]
    None
}

fn push_existing(out: &mut Vec<PathBuf>, path: PathBuf) {
    if std::fs::symlink_metadata(&path).is_err() {
        return;
    }
    if let Ok(real) = std::fs::canonicalize(&path) {
        if real != path {
            out.push(real);
        }
    }
    // The path as given too (a link itself, beside its target), unless a folder on its way is a
    // link (`/var/run` → `/run`): then it is the real path under another name, covered with it,
    // and bubblewrap cannot make a mount point through that link.
    let way_is_real =
        path.parent().is_none_or(|parent| std::fs::canonicalize(parent).is_ok_and(|p| p == parent));
    if way_is_real {
        out.push(path);
    }
}

/// Secret files of the project by the path sandbox's own rules, down to [`PROJECT_DEPTH`].
/// `.git/config` is not among them: git needs to read it; it is read-only in the box instead.
fn secret_files_in(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let parent = dir.file_name().and_then(|n| n.to_str());
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Ok(kind) = entry.file_type() else { continue };
        if rule_for(name, parent, false).is_some() {
            out.push(entry.path());
            continue;
        }
        if kind.is_dir() && depth + 1 < PROJECT_DEPTH && !SKIPPED_DIRS.contains(&name) {
            secret_files_in(&entry.path(), depth + 1, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_secrets_and_project_secret_files_are_hidden_when_they_exist() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".ssh")).unwrap();
        std::fs::create_dir_all(home.path().join(".config/gcloud")).unwrap();
        std::fs::write(home.path().join(".netrc"), "machine x").unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::write(project.path().join(".env.local"), "KEY=1").unwrap();
        std::fs::create_dir_all(project.path().join("deploy/keys")).unwrap();
        std::fs::write(project.path().join("deploy/keys/server.pem"), "k").unwrap();
        std::fs::create_dir_all(project.path().join("node_modules/x")).unwrap();
        std::fs::write(project.path().join("node_modules/x/.env"), "k").unwrap();
        std::fs::write(project.path().join("main.rs"), "fn main() {}").unwrap();
        let hidden = hidden_locations(Some(home.path()), project.path());
        for want in [
            home.path().join(".ssh"),
            home.path().join(".config/gcloud"),
            home.path().join(".netrc"),
            project.path().join(".env.local"),
            project.path().join("deploy/keys/server.pem"),
        ] {
            assert!(hidden.contains(&want), "{} not hidden: {hidden:?}", want.display());
        }
        assert!(!hidden.contains(&home.path().join(".aws")), "missing paths are not listed");
        assert!(!hidden
            .iter()
            .any(|p| p.ends_with("main.rs") || p.starts_with(project.path().join("node_modules"))));
    }

    #[test]
    fn only_existing_caches_are_listed() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join(".cargo/registry")).unwrap();
        assert_eq!(package_caches(home.path()), [home.path().join(".cargo/registry")]);
    }
}
