use std::fs;
use std::path::{Path, PathBuf};

use super::*;

/// A project folder (canonical) inside a temporary folder that also has room outside it.
fn project() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap().join("project");
    fs::create_dir_all(&root).unwrap();
    (dir, root)
}

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn names(loaded: &ProjectInstructions) -> Vec<&str> {
    loaded.files.iter().map(|f| f.relative.as_str()).collect()
}

#[test]
fn instructions_the_root_agents_md_is_read_and_introduced_by_its_name() {
    let (_dir, root) = project();
    assert_eq!(ProjectInstructions::load(&root, None, Caps::default()), ProjectInstructions::default());
    write(&root, "AGENTS.md", "Run `make test` before you finish.\n");
    let loaded = ProjectInstructions::load(&root, None, Caps::default());
    assert_eq!(loaded.text, "Instructions from AGENTS.md:\nRun `make test` before you finish.");
    assert_eq!(
        loaded.files,
        [InstructionFile {
            path: root.join("AGENTS.md"),
            read_from: root.join("AGENTS.md"),
            relative: "AGENTS.md".into(),
            bytes: 35,
            truncated: false,
        }]
    );
}

#[test]
fn instructions_claude_md_is_the_fallback_only_in_a_folder_without_agents_md() {
    let (_dir, root) = project();
    write(&root, "CLAUDE.md", "claude root");
    write(&root, "sub/CLAUDE.md", "claude sub");
    write(&root, "sub/AGENTS.md", "agents sub");
    let loaded = ProjectInstructions::load(&root, Some(&root.join("sub")), Caps::default());
    assert_eq!(names(&loaded), ["CLAUDE.md", "sub/AGENTS.md"]);
    assert!(loaded.text.contains("claude root") && loaded.text.contains("agents sub"), "{}", loaded.text);
    assert!(!loaded.text.contains("claude sub"), "{}", loaded.text);
    write(&root, "AGENTS.md", "agents root");
    let loaded = ProjectInstructions::load(&root, None, Caps::default());
    assert_eq!(names(&loaded), ["AGENTS.md"]);
    assert!(!loaded.text.contains("claude root"));
}

#[test]
fn instructions_nested_files_come_from_the_root_down_to_the_work_folder_nearest_last() {
    let (_dir, root) = project();
    write(&root, "AGENTS.md", "root rules");
    write(&root, "src/AGENTS.md", "src rules");
    write(&root, "src/app/AGENTS.md", "app rules");
    write(&root, "src/other/AGENTS.md", "not on the way");
    write(&root, "src/app/deep/notes.md", "no instruction file here");
    let loaded = ProjectInstructions::load(&root, Some(&root.join("src/app/deep")), Caps::default());
    assert_eq!(names(&loaded), ["AGENTS.md", "src/AGENTS.md", "src/app/AGENTS.md"]);
    let at = |needle: &str| loaded.text.find(needle).unwrap();
    assert!(
        at("Instructions from AGENTS.md:\nroot rules") < at("Instructions from src/AGENTS.md:\nsrc rules")
    );
    assert!(at("src rules") < at("Instructions from src/app/AGENTS.md:\napp rules"));
    assert!(!loaded.text.contains("not on the way"));
    // The work folder given by a path with `..` and a link to it count as the folder itself.
    let via_dots = ProjectInstructions::load(&root, Some(&root.join("src/other/../app")), Caps::default());
    assert_eq!(names(&via_dots), names(&loaded));
    // Outside the project, or none: the root only.
    let outside = root.parent().unwrap().to_path_buf();
    assert_eq!(names(&ProjectInstructions::load(&root, Some(&outside), Caps::default())), ["AGENTS.md"]);
    assert_eq!(names(&ProjectInstructions::load(&root, None, Caps::default())), ["AGENTS.md"]);
}

#[test]
fn instructions_each_file_and_all_together_are_capped_with_a_note() {
    let (_dir, root) = project();
    write(&root, "AGENTS.md", &"r".repeat(100));
    write(&root, "a/AGENTS.md", &"a".repeat(30));
    write(&root, "a/b/AGENTS.md", &"b".repeat(50));
    let caps = Caps { per_file: 60, total: 100 };
    let loaded = ProjectInstructions::load(&root, Some(&root.join("a/b")), caps);
    let used: Vec<(usize, bool)> = loaded.files.iter().map(|f| (f.bytes, f.truncated)).collect();
    // 60 of the root's 100 (its own cap), all 30 of a/, then the 10 left of the total for a/b/.
    assert_eq!(used, [(60, true), (30, false), (10, true)]);
    assert!(
        loaded.text.contains(&format!("{}\n[truncated: 40 bytes not shown]", "r".repeat(60))),
        "{}",
        loaded.text
    );
    assert!(loaded.text.contains(&format!("{}\n\n", "a".repeat(30))), "{}", loaded.text);
    assert!(
        loaded.text.ends_with(&format!("{}\n[truncated: 40 bytes not shown]", "b".repeat(10))),
        "{}",
        loaded.text
    );
    // Once the total is spent a later file is still named, with all of it cut.
    write(&root, "a/b/c/AGENTS.md", "c");
    let loaded = ProjectInstructions::load(&root, Some(&root.join("a/b/c")), caps);
    let last = loaded.files.last().unwrap();
    assert_eq!((last.relative.as_str(), last.bytes, last.truncated), ("a/b/c/AGENTS.md", 0, true));
    assert!(loaded.text.ends_with("Instructions from a/b/c/AGENTS.md:\n\n[truncated: 1 bytes not shown]"));
}

#[test]
fn instructions_a_cut_never_splits_a_character_and_other_encodings_read_lossily() {
    let (_dir, root) = project();
    write(&root, "AGENTS.md", "ééé"); // six bytes
    let loaded = ProjectInstructions::load(&root, None, Caps { per_file: 3, total: 100 });
    assert_eq!((loaded.files[0].bytes, loaded.files[0].truncated), (2, true));
    assert!(loaded.text.starts_with("Instructions from AGENTS.md:\né\n[truncated: 4 bytes not shown]"));
    fs::write(root.join("AGENTS.md"), b"caf\xe9 ok").unwrap();
    let loaded = ProjectInstructions::load(&root, None, Caps::default());
    assert_eq!(loaded.text, "Instructions from AGENTS.md:\ncaf\u{fffd} ok");
    assert_eq!(cut_at("a€".as_bytes(), 2), ("a".as_bytes(), 3));
    assert_eq!(cut_at("a€".as_bytes(), 4), ("a€".as_bytes(), 0));
    assert_eq!(cut_at(b"abc", 0), (&b""[..], 3));
}

#[cfg(unix)]
#[test]
fn instructions_a_link_leading_outside_the_project_is_not_followed() {
    use std::os::unix::fs::symlink;
    let (dir, root) = project();
    let outside = fs::canonicalize(dir.path()).unwrap().join("secret-notes.md");
    fs::write(&outside, "outside the project").unwrap();
    symlink(&outside, root.join("AGENTS.md")).unwrap();
    fs::create_dir_all(root.join("sub")).unwrap();
    symlink("../../secret-notes.md", root.join("sub/AGENTS.md")).unwrap();
    // The root's AGENTS.md exists (as a link), so its CLAUDE.md is not used in its place either.
    write(&root, "CLAUDE.md", "fallback");
    let loaded = ProjectInstructions::load(&root, Some(&root.join("sub")), Caps::default());
    assert_eq!(loaded, ProjectInstructions::default());
    // A folder that is a link outside the project is no way out either.
    fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
    fs::write(dir.path().join("elsewhere/AGENTS.md"), "outside too").unwrap();
    symlink(dir.path().join("elsewhere"), root.join("linked")).unwrap();
    let loaded = ProjectInstructions::load(&root, Some(&root.join("linked")), Caps::default());
    assert!(!loaded.text.contains("outside"), "{}", loaded.text);
}

#[cfg(unix)]
#[test]
fn instructions_a_link_inside_the_project_is_followed_once_and_a_secret_never() {
    use std::os::unix::fs::symlink;
    let (_dir, root) = project();
    write(&root, "docs/agents.md", "shared rules");
    symlink("docs/agents.md", root.join("AGENTS.md")).unwrap();
    fs::create_dir_all(root.join("sub")).unwrap();
    symlink("../docs/agents.md", root.join("sub/AGENTS.md")).unwrap();
    let loaded = ProjectInstructions::load(&root, Some(&root.join("sub")), Caps::default());
    assert_eq!(names(&loaded), ["AGENTS.md"], "the same file once");
    assert_eq!(loaded.files[0].read_from, root.join("docs/agents.md"));
    assert_eq!(loaded.text, "Instructions from AGENTS.md:\nshared rules");

    write(&root, ".env", "API_KEY=sk-secret");
    fs::remove_file(root.join("AGENTS.md")).unwrap();
    symlink(".env", root.join("AGENTS.md")).unwrap();
    let loaded = ProjectInstructions::load(&root, None, Caps::default());
    assert!(!loaded.text.contains("sk-secret"), "{}", loaded.text);
    assert!(loaded.files.is_empty());
}

#[cfg(unix)]
#[test]
fn instructions_only_regular_files_are_read() {
    let (_dir, root) = project();
    fs::create_dir_all(root.join("AGENTS.md")).unwrap();
    assert_eq!(ProjectInstructions::load(&root, None, Caps::default()), ProjectInstructions::default());
    fs::remove_dir(root.join("AGENTS.md")).unwrap();
    let made = std::process::Command::new("mkfifo").arg(root.join("AGENTS.md")).status().unwrap();
    assert!(made.success());
    // Returns at once (no writer is waited for) and reads nothing.
    assert_eq!(ProjectInstructions::load(&root, None, Caps::default()), ProjectInstructions::default());
}

#[test]
fn instructions_the_global_text_is_trimmed_and_capped() {
    assert_eq!(global_text("  \n "), None);
    assert_eq!(global_text(" Answer in French.\n").as_deref(), Some("Answer in French."));
    let long = "x".repeat(GLOBAL_CAP + 5);
    assert_eq!(
        global_text(&long).unwrap(),
        format!("{}\n[truncated: 5 bytes not shown]", "x".repeat(GLOBAL_CAP))
    );
}

#[test]
fn instructions_the_system_prompt_has_the_base_then_the_global_then_the_projects() {
    assert_eq!(system_prompt("Base.", None, None), "Base.");
    let project = ProjectInstructions { files: Vec::new(), text: "Instructions from AGENTS.md:\nP".into() };
    let prompt = system_prompt("Base.", Some("G"), Some(&project));
    let global = prompt.find("# The user's instructions").unwrap();
    let files = prompt.find("# Project instructions").unwrap();
    assert!(prompt.starts_with("Base.\n\n") && global < prompt.find("\nG\n").unwrap() && global < files);
    assert!(prompt.ends_with("Instructions from AGENTS.md:\nP"), "{prompt}");
    let only_global = system_prompt("Base.", Some("G"), Some(&ProjectInstructions::default()));
    assert!(!only_global.contains("# Project instructions") && only_global.ends_with("\n\nG"));
}
