//! A skill's files as the `skill` tool (and a `/name` invocation) reads them: its `SKILL.md` body
//! and the files beside it. A project's skill is read through the project's workspace (the same
//! checks as `file_read`: inside the project, no secret-bearing path); the user's own skills
//! through their folder, never above it.

use std::io::Read;
use std::path::{Component, Path};

use super::files::{Folder, MAX_ENTRIES};
use super::front_matter;
use super::skills::{Skill, SKILL_FILE};
use crate::sandbox::{Access, Workspace};

/// At most this much of one file reaches the model.
pub const READ_CAP: usize = 64 * 1024;
/// Folders below the skill's that are listed.
const LIST_DEPTH: usize = 3;

/// The instructions of `skill`: its `SKILL.md` without the front matter.
pub fn body(skill: &Skill, workspace: &Workspace) -> Result<String, String> {
    let text = read(skill, SKILL_FILE, workspace)?;
    Ok(front_matter::parse(&text).body.trim().to_owned())
}

/// The file `file` (relative to the skill's folder) of `skill`, cut at [`READ_CAP`] with a note.
pub fn read(skill: &Skill, file: &str, workspace: &Workspace) -> Result<String, String> {
    let parts = plain_parts(file)?;
    let (text, more) = match &skill.relative {
        Some(folder) => read_in_project(workspace, &format!("{folder}/{}", parts.join("/")))?,
        None => read_user(skill, &parts)?,
    };
    Ok(if more { format!("{text}\n[truncated: only the first {} KiB shown]", READ_CAP / 1024) } else { text })
}

/// The path of `file` of a project skill relative to the project, for the permission rules.
pub fn project_path(skill: &Skill, file: &str) -> Option<String> {
    let folder = skill.relative.as_ref()?;
    Some(format!("{folder}/{}", file.trim_start_matches("./")))
}

/// The files of the skill's folder besides `SKILL.md`, relative to it (a few levels down, at most
/// a few hundred).
pub fn list(skill: &Skill, workspace: &Workspace) -> Vec<String> {
    let folder = match &skill.relative {
        Some(relative) => {
            cap_std::fs::Dir::open_ambient_dir(workspace.project_root(), cap_std::ambient_authority())
                .ok()
                .and_then(|root| Folder::project(&root, workspace.project_root(), Path::new(relative)))
        }
        None => Folder::user(&skill.dir),
    };
    let mut out = Vec::new();
    if let Some(folder) = folder {
        walk(&folder, "", 0, &mut out);
    }
    out.retain(|file| file != SKILL_FILE);
    out
}

fn walk(folder: &Folder, prefix: &str, depth: usize, out: &mut Vec<String>) {
    for file in folder.names(false) {
        if out.len() >= MAX_ENTRIES {
            return;
        }
        out.push(format!("{prefix}{file}"));
    }
    if depth >= LIST_DEPTH {
        return;
    }
    for name in folder.names(true) {
        if let Ok(child) = folder.child(&name) {
            walk(&child, &format!("{prefix}{name}/"), depth + 1, out);
        }
    }
}

fn read_in_project(workspace: &Workspace, relative: &str) -> Result<(String, bool), String> {
    let resolved = workspace.resolve(relative, Access::Read).map_err(|e| e.to_string())?;
    let file = workspace.open_read(&resolved).map_err(|e| e.to_string())?;
    if file.metadata().map_err(|e| e.to_string())?.is_dir() {
        return Err(format!("{relative} is a folder"));
    }
    take(file)
}

fn read_user(skill: &Skill, parts: &[&str]) -> Result<(String, bool), String> {
    let Some((name, folders)) = parts.split_last() else { return Err("no file named".to_owned()) };
    let mut folder =
        Folder::user(&skill.dir).ok_or_else(|| format!("{} is not there", skill.dir.display()))?;
    for part in folders {
        folder = folder.child(part).map_err(|e| format!("{part}: {e}"))?;
    }
    folder.read(name, READ_CAP).map_err(|e| format!("{}: {e}", parts.join("/")))
}

fn take(file: std::fs::File) -> Result<(String, bool), String> {
    let mut bytes = Vec::new();
    file.take(READ_CAP as u64 + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    let more = bytes.len() > READ_CAP;
    bytes.truncate(READ_CAP);
    Ok((String::from_utf8_lossy(&bytes).into_owned(), more))
}

/// `file` as plain relative parts: no root, no `..`, not empty.
fn plain_parts(file: &str) -> Result<Vec<&str>, String> {
    let path = Path::new(file);
    let mut parts = Vec::new();
    for part in path.components() {
        match part {
            Component::Normal(name) => parts.push(name.to_str().ok_or("the path is not UTF-8")?),
            Component::CurDir => {}
            _ => return Err(format!("`{file}` is not a path inside the skill's folder")),
        }
    }
    if parts.is_empty() {
        return Err("no file named".to_owned());
    }
    Ok(parts)
}
