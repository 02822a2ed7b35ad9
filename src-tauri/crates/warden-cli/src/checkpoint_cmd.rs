//! `warden checkpoint list|diff|restore|create [--project DIR] [--json]`: the project's
//! checkpoints from the terminal. Exit 0 on success, 1 when a restore is refused (and why) or the
//! store cannot be used, 2 on usage (an id that names no checkpoint included; every status:
//! [`crate::exit`]).

use std::path::PathBuf;
use std::sync::Arc;

use warden_core::checkpoint::{CheckpointError, CheckpointStore, RestoreRefusal};
use warden_core::config::WardenHome;
use warden_core::sandbox::Workspace;
use warden_core::scope::Scope;
use warden_protocol::{ChangeStatus, FileChange};

use crate::args::{CheckpointAction, CheckpointArgs};
use crate::exit::Exit;
use crate::{sanitize, say};

#[allow(clippy::too_many_lines)] // One match arm per subcommand, each a few lines.
pub fn run(args: CheckpointArgs) -> Result<(), Exit> {
    let store = open(&args).map_err(|message| fail(&args, Exit::Failed, &message, &[]))?;
    let json = args.json;
    let done = match &args.action {
        CheckpointAction::List { conversation } => store.list(conversation.as_deref()).map(|list| {
            if json {
                print_json(&serde_json::to_value(&list).unwrap_or_default());
            } else if list.is_empty() {
                say::out("No checkpoints yet for this project.");
            } else {
                for c in &list {
                    let what = c.tool_name.as_deref().unwrap_or(match c.kind {
                        warden_protocol::CheckpointKind::TurnEnd => "end of turn",
                        warden_protocol::CheckpointKind::Manual => "manual",
                        _ => "-",
                    });
                    say::out(&format!(
                        "{}  {}  {:<16} {} file(s) changed",
                        sanitize::line(&c.id),
                        c.created_at,
                        sanitize::line(what),
                        c.files_changed
                    ));
                    for left_out in &c.left_out {
                        say::out(&format!(
                            "    not in this checkpoint: {} ({})",
                            left_out.path, left_out.reason
                        ));
                    }
                }
            }
        }),
        CheckpointAction::Diff { id, id2, path } => store.changes(id, id2.as_deref()).and_then(|files| {
            let patch = store.patch(id, id2.as_deref(), path.as_deref())?;
            if json {
                print_json(&serde_json::json!({ "from": id, "to": id2, "files": files, "patch": patch }));
            } else {
                print_files(&files);
                say::out(patch.trim_end_matches('\n'));
            }
            Ok(())
        }),
        CheckpointAction::Restore { id, paths, force } => store.restore(id, paths, *force).map(|report| {
            if json {
                print_json(&serde_json::to_value(&report).unwrap_or_default());
            } else {
                say::out(&format!(
                    "Restored checkpoint {}: {} file(s).",
                    report.restored,
                    report.files.len()
                ));
                print_files(&report.files);
                if let Some(warning) = &report.warning {
                    say::out(warning);
                }
                say::out(&format!("To undo: warden checkpoint restore {}", report.undo_checkpoint_id));
            }
        }),
        CheckpointAction::Create => store.manual().map(|taken| {
            if json {
                print_json(&serde_json::json!({ "id": taken.id, "filesChanged": taken.changed }));
            } else {
                say::out(&format!(
                    "Checkpoint {} ({} file(s) changed since the last one).",
                    taken.id, taken.changed
                ));
            }
        }),
    };
    match done {
        Ok(()) => Ok(()),
        Err(CheckpointError::Refused(refusal)) => {
            let paths = match &refusal {
                RestoreRefusal::ChangedOutside(paths) => paths.clone(),
                RestoreRefusal::TurnRunning
                | RestoreRefusal::NotLooked(_)
                | RestoreRefusal::SessionElsewhere(_) => Vec::new(),
            };
            let hint = match refusal {
                RestoreRefusal::ChangedOutside(_) => " (--force overwrites them)",
                RestoreRefusal::NotLooked(_) => " (--force)",
                RestoreRefusal::TurnRunning | RestoreRefusal::SessionElsewhere(_) => "",
            };
            Err(fail(&args, Exit::Failed, &format!("not restored: {refusal}{hint}"), &paths))
        }
        Err(error @ (CheckpointError::UnknownCheckpoint(_) | CheckpointError::AmbiguousCheckpoint(_))) => {
            Err(fail(&args, Exit::Usage, &error.to_string(), &[]))
        }
        Err(error) => Err(fail(&args, Exit::Failed, &error.to_string(), &[])),
    }
}

fn open(args: &CheckpointArgs) -> Result<CheckpointStore, String> {
    let project = match &args.project {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?,
    };
    let project: PathBuf =
        std::fs::canonicalize(&project).map_err(|e| format!("--project {}: {e}", project.display()))?;
    let home = WardenHome::from_env().map_err(|e| e.to_string())?;
    let workspace = Workspace::new(&project, home.project_dir(&project), Scope::read_only())
        .map_err(|e| e.to_string())?;
    CheckpointStore::open(&home.checkpoints_dir(&project), Arc::new(workspace)).map_err(|e| e.to_string())
}

/// The failure as `--json` prints it on stdout (now), and as `exit` (`Exit::Failed` or
/// `Exit::Usage`) with the line for stderr.
fn fail(args: &CheckpointArgs, exit: fn(String) -> Exit, message: &str, paths: &[String]) -> Exit {
    if args.json {
        print_json(&serde_json::json!({ "error": message, "paths": paths }));
    }
    exit(format!("warden checkpoint: {message}"))
}

fn print_files(files: &[FileChange]) {
    for f in files {
        let mark = match f.status {
            ChangeStatus::Created => "A",
            ChangeStatus::Modified => "M",
            ChangeStatus::Deleted => "D",
        };
        let counts = match (f.added, f.removed) {
            (Some(a), Some(r)) => format!("+{a} -{r}"),
            _ => "binary".to_owned(),
        };
        say::out(&format!("{mark} {:<50} {counts}", sanitize::line(&f.path)));
    }
}

fn print_json(value: &serde_json::Value) {
    say::json_line(value);
}
