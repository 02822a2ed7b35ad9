//! What differs between two snapshots, read from `git diff-tree --raw --numstat -z`.

use std::collections::BTreeMap;

use warden_protocol::{ChangeStatus, FileChange};

use super::git::Git;
use super::CheckpointError;

/// Files that differ between trees `from` and `to`, in path order.
pub(super) fn between(git: &Git, from: &str, to: &str) -> Result<Vec<FileChange>, CheckpointError> {
    if from == to {
        return Ok(Vec::new());
    }
    let out = git.run(&["diff-tree", "-r", "-z", "--no-renames", "--raw", "--numstat", from, to], None)?;
    Ok(parse(&out))
}

/// One path that differs between two trees, as git names it (its bytes, which need not be UTF-8),
/// with what the second tree holds there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RawChange {
    pub path: Vec<u8>,
    /// The mode and blob in the second tree; `None` where it has no file.
    pub new: Option<(String, String)>,
}

/// Every path that differs between trees `from` and `to`, in git's order.
pub(super) fn raw_between(git: &Git, from: &str, to: &str) -> Result<Vec<RawChange>, CheckpointError> {
    if from == to {
        return Ok(Vec::new());
    }
    let out = git.run(&["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to], None)?;
    let mut changes = Vec::new();
    let mut fields = out.split(|b| *b == 0);
    while let Some(field) = fields.next() {
        let Some(header) = field.strip_prefix(b":") else { continue };
        let Some(path) = fields.next() else { break };
        let header = String::from_utf8_lossy(header);
        let parts: Vec<&str> = header.split(' ').collect();
        let new = match (parts.get(1), parts.get(3)) {
            (Some(mode), Some(oid)) if !mode.chars().all(|c| c == '0') => {
                Some(((*mode).to_owned(), (*oid).to_owned()))
            }
            _ => None,
        };
        changes.push(RawChange { path: path.to_vec(), new });
    }
    Ok(changes)
}

/// How many files differ between trees `from` and `to`.
pub(super) fn count(git: &Git, from: &str, to: &str) -> Result<u32, CheckpointError> {
    if from == to {
        return Ok(0);
    }
    let out = git.run(&["diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to], None)?;
    Ok(u32::try_from(out.split(|b| *b == 0).filter(|p| !p.is_empty()).count()).unwrap_or(u32::MAX))
}

/// The unified diff between trees `from` and `to` (of one path, when given), up to `limit` bytes.
pub(super) fn patch(
    git: &Git,
    from: &str,
    to: &str,
    path: Option<&str>,
    limit: usize,
) -> Result<String, CheckpointError> {
    // A file name is never a pattern here (`*`, `?` and `[` are ordinary characters in names).
    let literal = path.map(|p| format!(":(literal){p}"));
    let mut args = vec!["diff-tree", "-p", "-r", "--no-renames", "--no-color", from, to];
    if let Some(path) = &literal {
        args.extend(["--", path.as_str()]);
    }
    let out = git.run(&args, None)?;
    let mut text = String::from_utf8_lossy(&out).into_owned();
    if text.len() > limit {
        let mut cut = limit;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("\n… (diff cut here)\n");
    }
    Ok(text)
}

/// Parse the NUL-separated output: raw records (`:old new oid oid status` then the path), then
/// numstat records (`added<TAB>removed<TAB>path`, `-` for a binary file).
pub(super) fn parse(out: &[u8]) -> Vec<FileChange> {
    let mut changes: BTreeMap<String, FileChange> = BTreeMap::new();
    let mut fields = out.split(|b| *b == 0).peekable();
    while let Some(field) = fields.next() {
        if field.is_empty() {
            continue;
        }
        if field.first() == Some(&b':') {
            let header = String::from_utf8_lossy(&field[1..]).into_owned();
            let Some(path) = fields.next() else { break };
            let path = String::from_utf8_lossy(path).into_owned();
            let parts: Vec<&str> = header.split(' ').collect();
            let mode = |m: Option<&&str>| m.filter(|m| !m.chars().all(|c| c == '0')).map(|m| (*m).to_owned());
            let (old_mode, new_mode) = (mode(parts.first()), mode(parts.get(1)));
            let status = match parts.get(4).and_then(|s| s.chars().next()) {
                Some('A') => ChangeStatus::Created,
                Some('D') => ChangeStatus::Deleted,
                _ => ChangeStatus::Modified,
            };
            changes.insert(
                path.clone(),
                FileChange { path, status, added: None, removed: None, binary: false, old_mode, new_mode },
            );
        } else {
            let text = String::from_utf8_lossy(field);
            let mut parts = text.splitn(3, '\t');
            let (Some(added), Some(removed), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            if let Some(change) = changes.get_mut(path) {
                change.binary = added == "-";
                change.added = added.parse().ok();
                change.removed = removed.parse().ok();
            }
        }
    }
    changes.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_and_numstat_records_make_one_change_per_file() {
        let out = b":000000 100644 0000000000000000000000000000000000000000 ab A\0new.txt\0\
:100644 100755 aa bb M\0run.sh\0:100644 000000 aa 0000000000000000000000000000000000000000 D\0gone.bin\0\
3\t0\tnew.txt\0\
0\t0\trun.sh\0-\t-\tgone.bin\0";
        let changes = parse(out);
        assert_eq!(changes.len(), 3);
        let gone = &changes[0];
        assert_eq!((gone.path.as_str(), gone.status, gone.binary), ("gone.bin", ChangeStatus::Deleted, true));
        assert_eq!((gone.old_mode.as_deref(), gone.new_mode.as_deref()), (Some("100644"), None));
        let new = &changes[1];
        assert_eq!((new.status, new.added, new.removed), (ChangeStatus::Created, Some(3), Some(0)));
        let run = &changes[2];
        assert_eq!((run.status, run.new_mode.as_deref()), (ChangeStatus::Modified, Some("100755")));
    }
}
