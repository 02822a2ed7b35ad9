//! The sandbox: the roots a project's tools may touch, how paths are resolved into them, which paths
//! are never touched, and the environment child processes get.
//!
//! Every file tool goes through [`Workspace::resolve`] (proof that a path is inside a root) and then
//! [`Workspace::open_read`] / [`Workspace::write_atomic`], which go through a capability directory
//! (`cap-std`) so that a symlink swapped in after the check cannot lead outside the root, and re-check
//! the opened file's real path (Linux `/proc/self/fd`) so that it cannot lead to a secret either.

mod atomic;
pub mod env;
pub mod handles;
mod open;
pub mod path;
mod secret_values;
pub(crate) mod secrets;

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::scope::Scope;
pub use atomic::StagedWrite;
pub use path::ResolvedPath;

/// Why the sandbox refused or failed a file operation.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The path is outside every root, secret-bearing, or a system path. The loop stops on this.
    #[error("{path}: sandbox violation: {reason}")]
    Violation { path: String, reason: String },
    /// The path is inside, but the scope does not let write tools touch it.
    #[error("{path}: not writable in this project's scope: {reason}")]
    NotWritable { path: String, reason: String },
    #[error("{path}: no such file or directory")]
    NotFound { path: String },
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A root itself is unusable (construction only).
    #[error("sandbox root {path}: {source}")]
    Root {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("invalid write glob `{glob}`: {message}")]
    InvalidGlob { glob: String, message: String },
}

/// Whether a path is about to be read or written (writes are also checked against `write_globs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
}

struct Root {
    path: PathBuf,
    dir: cap_std::fs::Dir,
}

/// One project's sandbox: its two roots and its scope. Cheap to share behind an `Arc`.
pub struct Workspace {
    roots: Vec<Root>,
    root_paths: Vec<PathBuf>,
    scope: Scope,
    write_globs: Option<GlobSet>,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace").field("roots", &self.root_paths).field("scope", &self.scope).finish()
    }
}

impl Workspace {
    /// A sandbox over `project_dir` (must exist) and `storage_dir` (created if missing).
    pub fn new(
        project_dir: impl AsRef<Path>,
        storage_dir: impl AsRef<Path>,
        scope: Scope,
    ) -> Result<Self, SandboxError> {
        let storage = storage_dir.as_ref();
        std::fs::create_dir_all(storage)
            .map_err(|source| SandboxError::Root { path: storage.to_path_buf(), source })?;
        let mut roots = Vec::new();
        for dir in [project_dir.as_ref(), storage] {
            let path = dir
                .canonicalize()
                .map_err(|source| SandboxError::Root { path: dir.to_path_buf(), source })?;
            let cap = cap_std::fs::Dir::open_ambient_dir(&path, cap_std::ambient_authority())
                .map_err(|source| SandboxError::Root { path: path.clone(), source })?;
            roots.push(Root { path, dir: cap });
        }
        let write_globs = build_globs(&scope.write_globs)?;
        let root_paths = roots.iter().map(|r| r.path.clone()).collect();
        Ok(Self { roots, root_paths, scope, write_globs })
    }

    /// The same roots under another scope (a session's MCP servers changed their tools).
    pub fn rescoped(&self, scope: Scope) -> Result<Self, SandboxError> {
        let roots = self
            .roots
            .iter()
            .map(|root| {
                let dir = root
                    .dir
                    .try_clone()
                    .map_err(|source| SandboxError::Root { path: root.path.clone(), source })?;
                Ok(Root { path: root.path.clone(), dir })
            })
            .collect::<Result<Vec<_>, SandboxError>>()?;
        let write_globs = build_globs(&scope.write_globs)?;
        Ok(Self { roots, root_paths: self.root_paths.clone(), scope, write_globs })
    }

    /// The project directory (canonical): where relative paths start and where `bash` runs.
    pub fn project_root(&self) -> &Path {
        &self.root_paths[0]
    }

    /// Both roots, project first.
    pub fn roots(&self) -> &[PathBuf] {
        &self.root_paths
    }

    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// Prove that `raw` (relative to the project root, or absolute) is inside a root and may be touched.
    pub fn resolve(&self, raw: &str, access: Access) -> Result<ResolvedPath, SandboxError> {
        let raw = if raw.trim().is_empty() { "." } else { raw };
        path::check_raw(raw)?;
        let base = self.project_root();
        let lexical = path::normalize_lexically(base, raw);
        let violation = |reason: String| SandboxError::Violation { path: raw.to_owned(), reason };
        if let Some(prefix) = path::forbidden_system_path(&lexical) {
            return Err(violation(format!("{prefix} is never accessible")));
        }
        if let Some(reason) = path::secret_reason_abs(&self.root_paths, &lexical) {
            return Err(violation(reason));
        }
        let resolved = path::resolve_fs(base, raw)?;
        if let Some(prefix) = path::forbidden_system_path(&resolved) {
            return Err(violation(format!("it resolves to {} under {prefix}", resolved.display())));
        }
        let Some((root, relative)) = path::locate(&self.root_paths, &resolved) else {
            let how = if resolved == lexical { "it is" } else { "through a symlink it resolves to" };
            return Err(violation(format!(
                "{how} {}, outside the project ({}) and Warden's project storage ({})",
                resolved.display(),
                self.root_paths[0].display(),
                self.root_paths[1].display()
            )));
        };
        if let Some(reason) = path::secret_reason(&relative) {
            return Err(violation(format!("it resolves to {}: {reason}", resolved.display())));
        }
        let resolved = ResolvedPath { absolute: resolved, root, relative };
        if access == Access::Write {
            if let Some(reason) = path::git_internals_reason(&resolved.relative) {
                return Err(violation(reason));
            }
            self.check_writable(raw, &resolved)?;
        }
        Ok(resolved)
    }

    fn check_writable(&self, raw: &str, resolved: &ResolvedPath) -> Result<(), SandboxError> {
        // Globs speak about the project; Warden's own storage for the project is always writable.
        let (Some(globs), 0) = (&self.write_globs, resolved.root) else { return Ok(()) };
        if globs.is_match(&resolved.relative) {
            return Ok(());
        }
        Err(SandboxError::NotWritable {
            path: raw.to_owned(),
            reason: format!(
                "`{}` matches none of the write globs {:?}",
                resolved.display(),
                self.scope.write_globs
            ),
        })
    }

    /// Whether an entry found while walking a directory may be shown or searched: only the entry's
    /// own name is judged (with its parent's name, and whether it lies below a `.git` directory), for
    /// walks that prune secret directories as they go.
    pub fn is_visible_entry(
        &self,
        name: &std::ffi::OsStr,
        parent: Option<&std::ffi::OsStr>,
        in_git: bool,
    ) -> bool {
        !path::is_secret_name(name, parent, in_git)
    }

    fn root_dir(&self, resolved: &ResolvedPath) -> &cap_std::fs::Dir {
        &self.roots[resolved.root].dir
    }
}

fn build_globs(globs: &[String]) -> Result<Option<GlobSet>, SandboxError> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut builder = GlobSetBuilder::new();
    for glob in globs {
        let parsed = Glob::new(glob)
            .map_err(|e| SandboxError::InvalidGlob { glob: glob.clone(), message: e.to_string() })?;
        builder.add(parsed);
    }
    builder
        .build()
        .map(Some)
        .map_err(|e| SandboxError::InvalidGlob { glob: globs.join(", "), message: e.to_string() })
}
