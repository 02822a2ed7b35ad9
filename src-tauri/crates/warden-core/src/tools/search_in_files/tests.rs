//! The search's own machinery: batches handed between threads add up to every file, the result cap
//! holds across them, and ignore files met deep in the walk apply.

use std::path::Path;

use grep_regex::RegexMatcher;
use tokio_util::sync::CancellationToken;

use super::run::{Search, Totals};
use super::{Found, SearchOutputMode};
use crate::sandbox::{Access, Workspace};
use crate::scope::Scope;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// Search the whole project for `needle`.
fn search(project: &Path, mode: SearchOutputMode, max: u64) -> Totals {
    let storage = tempfile::tempdir().unwrap();
    let workspace = Workspace::new(project, storage.path(), Scope::read_only()).unwrap();
    let start = workspace.resolve(".", Access::Read).unwrap();
    let cancel = CancellationToken::new();
    let search = Search::new(RegexMatcher::new("needle").unwrap(), mode, max, &cancel);
    search.tree(&workspace, &start, None).unwrap();
    search.finish()
}

fn paths(found: &[Found]) -> Vec<&str> {
    let mut paths: Vec<&str> = found.iter().map(|f| f.sort_key().0).collect();
    paths.sort_unstable();
    paths
}

#[test]
fn every_file_of_every_batch_is_counted_once() {
    let project = tempfile::tempdir().unwrap();
    let mut expected = 0;
    for dir in 0..9 {
        for file in 0..41 {
            let n = (dir + file) % 3;
            expected += n;
            write(project.path(), &format!("d{dir}/f{file}.txt"), &"needle\nhay\n".repeat(n));
        }
    }
    let totals = search(project.path(), SearchOutputMode::Count, u64::MAX);
    assert_eq!(totals.files_searched, 9 * 41);
    assert_eq!(totals.matches, expected as u64);
    assert_eq!(totals.found.len() as u64, totals.files_matched);
    let listed = paths(&totals.found);
    let mut unique = listed.clone();
    unique.dedup();
    assert_eq!(listed, unique, "a file was listed twice");
    assert!(!totals.capped);
}

#[test]
fn the_result_cap_holds_across_threads() {
    let project = tempfile::tempdir().unwrap();
    for file in 0..300 {
        write(project.path(), &format!("d{}/f{file}.txt", file % 7), "needle\nneedle\n");
    }
    let totals = search(project.path(), SearchOutputMode::Content, 25);
    assert_eq!(totals.found.len(), 25);
    assert!(totals.capped);
    let totals = search(project.path(), SearchOutputMode::Files, 10);
    assert_eq!(totals.found.len(), 10);
    assert!(totals.capped);
}

#[test]
fn ignore_files_deep_in_the_tree_apply_and_dot_ignore_wins() {
    let project = tempfile::tempdir().unwrap();
    write(project.path(), "a/b/.gitignore", "*.log\nkeep.txt\n");
    write(project.path(), "a/b/.ignore", "!keep.txt\n");
    for name in ["a/b/x.log", "a/b/keep.txt", "a/b/y.txt", "a/z.log"] {
        write(project.path(), name, "needle\n");
    }
    let totals = search(project.path(), SearchOutputMode::Files, 100);
    assert_eq!(paths(&totals.found), ["a/b/keep.txt", "a/b/y.txt", "a/z.log"]);
}
