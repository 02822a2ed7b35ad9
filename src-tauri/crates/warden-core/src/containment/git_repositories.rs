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

use cap_fs_ext::DirExt;

use super::git_aside;
use super::git_config;
use super::git_metadata::Swept;

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

/// Make the repositories that are in `project` now but not in `before` run nothing. Each is
/// reached through directory handles from the project's (`git_aside`): one whose folder has
/// become a link since the walk is left alone.
pub fn sweep_new(project: &Path, before: &BTreeSet<PathBuf>, aside: &Path) -> Vec<Swept> {
    let mut swept = Vec::new();
    for repository in repositories(project).difference(before) {
        let Ok(relative) = repository.strip_prefix(project) else { continue };
        swept.extend(neutralize(project, relative, aside));
    }
    swept
}

/// The repository at `relative` (a `.git` folder or gitfile, or a bare-shaped folder) made to run
/// nothing: its hooks and a config beyond the plain keys aside, a gitfile aside whole.
fn neutralize(project: &Path, relative: &Path, aside: &Path) -> Vec<Swept> {
    let (Some(parent), Some(name)) = (relative.parent(), relative.file_name()) else { return Vec::new() };
    let Ok(parent_dir) = git_aside::open_in_project(project, parent) else { return Vec::new() };
    let Ok(meta) = parent_dir.symlink_metadata(name) else { return Vec::new() };
    let shown = project.join(relative);
    if meta.is_file() {
        // A gitfile: where git goes for this folder.
        let danger = "send git to a repository of the command's choosing";
        return vec![git_aside::move_aside(&parent_dir, name, &shown, aside, danger)];
    }
    let Ok(repository) = parent_dir.open_dir_nofollow(name) else { return Vec::new() };
    let mut swept = Vec::new();
    if let Ok(hooks) = repository.open_dir_nofollow("hooks") {
        let names: Vec<_> = hooks.entries().into_iter().flatten().flatten().map(|e| e.file_name()).collect();
        for hook in names.iter().filter(|n| !n.to_string_lossy().ends_with(".sample")) {
            let shown = shown.join("hooks").join(hook);
            swept.push(git_aside::move_aside(&hooks, hook, &shown, aside, "have run as a git hook"));
        }
    }
    let Some(text) = git_aside::read_file(&repository, "config").and_then(|b| String::from_utf8(b).ok())
    else {
        return swept;
    };
    let plain = plain_config(&text);
    if plain != text {
        let danger = "have set git options that run programs";
        let moved =
            git_aside::move_aside(&repository, "config".as_ref(), &shown.join("config"), aside, danger);
        if moved.to.is_some() {
            if let Err(error) = git_aside::create_new(&repository, "config", plain.as_bytes()) {
                tracing::warn!(%error, path = %shown.display(), "could not write the plain config");
            }
        }
        swept.push(moved);
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

    /// Warden's own hands on paths a boxed process chose: a new repository whose `hooks` and
    /// `config` are links to another repository outside the project (the user's), or whose folder
    /// became a link after the walk. The sweep moves and writes nothing there.
    #[test]
    fn links_lead_the_sweep_nowhere_outside_the_project() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (project, aside, other) =
            (dir.path().join("p"), dir.path().join("aside"), dir.path().join("other/.git"));
        std::fs::create_dir_all(other.join("hooks")).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(other.join("hooks/pre-commit"), "#!/bin/sh\nusers-own\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let config = "[core]\n\tfsmonitor = users-own\n";
        std::fs::write(other.join("config"), config).unwrap_or_else(|e| panic!("{e}"));
        std::fs::create_dir_all(&project).unwrap_or_else(|e| panic!("{e}"));
        let before = repositories(&project);
        std::fs::create_dir_all(project.join("sub/.git")).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(other.join("hooks"), project.join("sub/.git/hooks"))
            .unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(other.join("config"), project.join("sub/.git/config"))
            .unwrap_or_else(|e| panic!("{e}"));
        let swept = sweep_new(&project, &before, &aside);
        assert!(other.join("hooks/pre-commit").exists(), "the other repository's hook was moved: {swept:?}");
        assert_eq!(std::fs::read_to_string(other.join("config")).ok().as_deref(), Some(config));

        // The folder swapped for a link between the walk and the move.
        std::fs::remove_dir_all(project.join("sub")).unwrap_or_else(|e| panic!("{e}"));
        std::os::unix::fs::symlink(dir.path().join("other"), project.join("sub"))
            .unwrap_or_else(|e| panic!("{e}"));
        let swept = neutralize(&project, Path::new("sub/.git"), &aside);
        assert!(swept.is_empty(), "{swept:?}");
        assert!(other.join("hooks/pre-commit").exists());
        assert_eq!(std::fs::read_to_string(other.join("config")).ok().as_deref(), Some(config));
    }
}
