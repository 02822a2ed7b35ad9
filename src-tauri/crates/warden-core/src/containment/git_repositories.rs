//! Repositories a boxed command creates in the project: `git init` in the box, a nested `sub/.git`,
//! a gitfile, a bare-repository-shaped folder in `vendor/`. None of them is read-only in the box
//! (they did not exist when it was drawn), so their hooks and config could hold code that the
//! user's next git command there runs outside the box. After each call the repositories found are
//! compared with those before it; in each new one, the hooks (every file but git's own `.sample`s)
//! and a config with keys beyond the plain ones are moved into Warden's storage, a config of the
//! plain keys taking its place; a new gitfile is moved aside whole. Nothing of a repository that
//! was there before the call is touched.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::git_config;
use super::git_metadata::{move_aside, Swept};

/// How deep the project is searched; build output and dependencies are not.
const DEPTH: usize = 5;
const SKIPPED: &[&str] = &["node_modules", "target", ".venv", "venv", "__pycache__", "dist", "build"];

/// Config keys that run nothing: what `git init`, `git clone` and `git remote add` write.
const PLAIN_KEYS: &[(&str, &str)] = &[
    ("core", "repositoryformatversion"),
    ("core", "filemode"),
    ("core", "bare"),
    ("core", "logallrefupdates"),
    ("core", "ignorecase"),
    ("core", "precomposeunicode"),
    ("core", "symlinks"),
    ("extensions", "objectformat"),
    ("remote", "url"),
    ("remote", "fetch"),
    ("branch", "remote"),
    ("branch", "merge"),
];

/// The repositories in `project`: `.git` folders and gitfiles, and bare-repository-shaped folders.
pub fn repositories(project: &Path) -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    walk(project, 0, &mut found);
    found
}

fn walk(dir: &Path, depth: usize, found: &mut BTreeSet<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if entry.file_name() == ".git" {
            found.insert(path);
            continue;
        }
        if !kind.is_dir() || kind.is_symlink() {
            continue;
        }
        if is_bare(&path) {
            found.insert(path);
            continue;
        }
        let name = entry.file_name();
        if depth + 1 < DEPTH && !SKIPPED.iter().any(|s| name == *s) {
            walk(&path, depth + 1, found);
        }
    }
}

/// A folder git would take for a repository: `HEAD`, `objects/` and `refs/`.
fn is_bare(dir: &Path) -> bool {
    dir.join("HEAD").is_file() && dir.join("objects").is_dir() && dir.join("refs").is_dir()
}

/// Make the repositories that are in `project` now but not in `before` run nothing.
pub fn sweep_new(project: &Path, before: &BTreeSet<PathBuf>, aside: &Path) -> Vec<Swept> {
    let mut swept = Vec::new();
    for repository in repositories(project).difference(before) {
        let Ok(meta) = std::fs::symlink_metadata(repository) else { continue };
        if !meta.is_dir() {
            // A gitfile: where git goes for this folder.
            swept.push(move_aside(repository, aside, "send git to a repository of the command's choosing"));
            continue;
        }
        if let Ok(hooks) = std::fs::read_dir(repository.join("hooks")) {
            for hook in hooks.flatten() {
                let name = hook.file_name();
                if !name.to_string_lossy().ends_with(".sample") {
                    swept.push(move_aside(&hook.path(), aside, "have run as a git hook"));
                }
            }
        }
        let config = repository.join("config");
        if let Ok(text) = std::fs::read_to_string(&config) {
            let plain = plain_config(&text);
            if plain != text {
                let moved = move_aside(&config, aside, "have set git options that run programs");
                if moved.to.is_some() {
                    if let Err(error) = std::fs::write(&config, &plain) {
                        tracing::warn!(%error, path = %config.display(), "could not write the plain config");
                    }
                }
                swept.push(moved);
            }
        }
    }
    swept
}

/// `text` with only the [`PLAIN_KEYS`] under their section headers (a continued value kept or
/// dropped with its key; a setting on a header's own line drops with the header kept bare).
fn plain_config(text: &str) -> String {
    let mut out = String::new();
    let mut header: Option<&str> = None;
    let mut keeping = false;
    for line in git_config::lines(text) {
        if line.continuation {
            if keeping {
                out.push_str(line.raw);
                out.push('\n');
            }
            continue;
        }
        if line.header {
            header = Some(line.raw.split_once(']').map_or(line.raw, |(head, _)| head));
        }
        keeping = !line.header
            && line.setting.as_ref().is_some_and(|(key, _)| {
                PLAIN_KEYS.iter().any(|(section, plain)| *section == line.section && plain == key)
            });
        if keeping {
            if let Some(header) = header.take() {
                out.push_str(header);
                if !header.ends_with(']') {
                    out.push(']');
                }
                out.push('\n');
            }
            out.push_str(line.raw);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_config_keeps_its_plain_keys_only() {
        let text = "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch PWNED\n\tbare = false\n\
                    [remote \"origin\"]\n\turl = https://example.org/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n\
                    [alias]\n\tst = !sh -c 'touch PWNED'\n[filter \"lfs\"]\n\tclean = touch PWNED\n\
                    [core]\n\tsshCommand = touch PWNED \\\n\t  more\n";
        assert_eq!(
            plain_config(text),
            "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\
             \turl = https://example.org/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
        );
        let already = "[core]\n\trepositoryformatversion = 0\n";
        assert_eq!(plain_config(already), already);
    }

    #[test]
    fn only_repositories_made_since_are_swept() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (project, aside) = (dir.path().join("p"), dir.path().join("aside"));
        let make = |repo: &Path, hook: &str| {
            std::fs::create_dir_all(repo.join("hooks")).unwrap_or_else(|e| panic!("{e}"));
            std::fs::write(repo.join("hooks").join(hook), "#!/bin/sh\n").unwrap_or_else(|e| panic!("{e}"));
            std::fs::write(repo.join("hooks/pre-commit.sample"), "#!/bin/sh\n")
                .unwrap_or_else(|e| panic!("{e}"));
            std::fs::write(repo.join("config"), "[core]\n\tbare = false\n\tfsmonitor = x\n")
                .unwrap_or_else(|e| panic!("{e}"));
        };
        make(&project.join(".git"), "pre-commit");
        let before = repositories(&project);
        make(&project.join("sub/.git"), "post-checkout");
        let bare = project.join("vendor/lib.git");
        std::fs::create_dir_all(bare.join("objects")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(bare.join("refs")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(bare.join("HEAD"), "ref: refs/heads/main\n").unwrap_or_else(|e| panic!("{e}"));
        make(&bare, "pre-receive");
        std::fs::create_dir_all(project.join("wt")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(project.join("wt/.git"), "gitdir: /elsewhere\n").unwrap_or_else(|e| panic!("{e}"));

        let swept = sweep_new(&project, &before, &aside);
        assert!(project.join(".git/hooks/pre-commit").exists(), "the repository from before is the user's");
        assert!(std::fs::read_to_string(project.join(".git/config"))
            .unwrap_or_default()
            .contains("fsmonitor"));
        for gone in ["sub/.git/hooks/post-checkout", "vendor/lib.git/hooks/pre-receive", "wt/.git"] {
            assert!(!project.join(gone).exists(), "{gone}: {swept:?}");
        }
        assert!(project.join("sub/.git/hooks/pre-commit.sample").exists(), "git's own samples stay");
        assert_eq!(
            std::fs::read_to_string(project.join("sub/.git/config")).ok().as_deref(),
            Some("[core]\n\tbare = false\n")
        );
        assert_eq!(swept.len(), 5, "two hooks, two configs, a gitfile: {swept:?}");
        assert!(swept.iter().all(|s| s.to.as_ref().is_some_and(|to| to.exists())), "each kept aside");
    }
}
