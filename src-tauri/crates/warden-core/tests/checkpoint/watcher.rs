//! The watcher is only an optimisation: a seeded random sequence of edits — files written,
//! appended, removed, renamed, made executable, linked, grown past the size cap; folders made,
//! renamed and removed; ignore rules and secrets added — checkpointed after each step by a store
//! that trusts its watcher and by one that looks at every file, must record the same changes.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use warden_core::checkpoint::{CheckpointStore, Origin};

const CAP: u64 = 2_000;

fn store(project: &Path, home: &Path, name: &str, watch: bool) -> CheckpointStore {
    let store = super::open_store(project, home, name).with_size_cap(CAP);
    if watch {
        store
    } else {
        store.without_watcher()
    }
}

fn files(root: &Path) -> Vec<PathBuf> {
    warden_testkit::files_under(root)
}

fn dirs(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf()];
    let mut i = 0;
    while i < out.len() {
        let dir = out[i].clone();
        for entry in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            if entry.file_type().unwrap().is_dir() {
                out.push(entry.path());
            }
        }
        i += 1;
    }
    out
}

/// One random edit of the project; returns what it did (for the failure message).
#[allow(clippy::too_many_lines)] // One arm per kind of random edit.
fn edit(rng: &mut StdRng, root: &Path, step: usize) -> String {
    let all_dirs = dirs(root);
    let dir = all_dirs[rng.random_range(0..all_dirs.len())].clone();
    let all_files = files(root);
    let file = (!all_files.is_empty()).then(|| all_files[rng.random_range(0..all_files.len())].clone());
    let name = format!("f{}.txt", rng.random_range(0..12));
    match rng.random_range(0..14) {
        0 | 1 => {
            let path = dir.join(&name);
            std::fs::write(&path, format!("step {step}\n")).unwrap();
            format!("write {}", path.display())
        }
        2 => match file {
            Some(f) if !f.is_symlink() => {
                use std::io::Write;
                let mut h = std::fs::OpenOptions::new().append(true).open(&f).unwrap();
                writeln!(h, "more {step}").unwrap();
                format!("append {}", f.display())
            }
            _ => "nothing".into(),
        },
        3 => match file {
            Some(f) => {
                std::fs::remove_file(&f).unwrap();
                format!("remove {}", f.display())
            }
            None => "nothing".into(),
        },
        4 => match file {
            Some(f) => {
                let to = dir.join(format!("moved{step}.txt"));
                std::fs::rename(&f, &to).unwrap();
                format!("rename {} -> {}", f.display(), to.display())
            }
            None => "nothing".into(),
        },
        5 => match file {
            Some(f) if !f.is_symlink() => {
                let mode = std::fs::metadata(&f).unwrap().permissions().mode() ^ 0o111;
                std::fs::set_permissions(&f, std::fs::Permissions::from_mode(mode)).unwrap();
                format!("chmod {}", f.display())
            }
            _ => "nothing".into(),
        },
        6 => {
            let path = dir.join(format!("d{}", rng.random_range(0..5))).join(format!("e{step}"));
            std::fs::create_dir_all(&path).unwrap();
            std::fs::write(path.join("inner.txt"), "inner\n").unwrap();
            format!("mkdir {}", path.display())
        }
        7 if dir != root => {
            let to = root.join(format!("renamed{step}"));
            std::fs::rename(&dir, &to).unwrap();
            format!("rename dir {} -> {}", dir.display(), to.display())
        }
        8 if dir != root => {
            std::fs::remove_dir_all(&dir).unwrap();
            format!("rm -r {}", dir.display())
        }
        9 => {
            let path = dir.join(format!("link{step}"));
            std::os::unix::fs::symlink(&name, &path).unwrap();
            format!("symlink {}", path.display())
        }
        10 => {
            let path = dir.join(&name);
            std::fs::write(&path, vec![b'x'; CAP as usize + 10]).unwrap();
            format!("big {}", path.display())
        }
        11 => {
            use std::io::Write;
            let mut h =
                std::fs::OpenOptions::new().create(true).append(true).open(dir.join(".gitignore")).unwrap();
            writeln!(h, "f{}.txt", rng.random_range(0..12)).unwrap();
            format!("ignore in {}", dir.display())
        }
        12 => {
            std::fs::write(dir.join(".env"), "SECRET=1\n").unwrap();
            format!("secret in {}", dir.display())
        }
        _ => {
            let path = dir.join("empty.txt");
            std::fs::write(&path, "").unwrap();
            format!("empty {}", path.display())
        }
    }
}

#[test]
fn the_watcher_agrees_with_looking_at_every_file() {
    let seed: u64 = std::env::var("WARDEN_WATCH_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let steps: usize = std::env::var("WARDEN_WATCH_STEPS").ok().and_then(|s| s.parse().ok()).unwrap_or(200);
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = project.path().canonicalize().unwrap();
    std::fs::write(root.join("start.txt"), "start\n").unwrap();
    let watched = store(&root, home.path(), "watched", true);
    let scanned = store(&root, home.path(), "scanned", false);
    let origin = Origin::default();
    let first_w = watched.checkpoint(&origin).unwrap().id;
    let first_s = scanned.checkpoint(&origin).unwrap().id;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut history = Vec::new();
    for step in 0..steps {
        history.push(edit(&mut rng, &root, step));
        let w = watched.checkpoint(&origin).unwrap();
        let s = scanned.checkpoint(&origin).unwrap();
        let (cw, cs) = (
            watched.changes(&first_w, Some(&w.id)).unwrap(),
            scanned.changes(&first_s, Some(&s.id)).unwrap(),
        );
        assert_eq!(
            (w.changed, &cw),
            (s.changed, &cs),
            "seed {seed}, step {step}: the watcher and the full scan disagree after:\n{}",
            history.join("\n")
        );
    }
}
