//! The source trees: `files` small source files in nested folders (`pkgNN/src/modNN/itemNNN.rs`,
//! 50 a folder, deterministic content of 0.3 to 2 KB, one in 97 executable) and one symbolic link
//! in each top folder; as a plain folder, or as a clean git repository (committed and packed, as a
//! clone is) whose index git wrote through the mount, as it would for a project that lives there.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use super::Error;

const FILES_EACH: usize = 50;
const SUBFOLDERS: usize = 10;

/// Write the tree into `dir` (made); how many paths it holds (files and links).
pub fn generate(dir: &Path, files: usize) -> Result<usize, Error> {
    let mut paths = 0;
    for n in 0..files {
        let folder = n / FILES_EACH;
        let at = dir.join(format!("pkg{:02}/src/mod{:02}", folder / SUBFOLDERS, folder % SUBFOLDERS));
        if n.is_multiple_of(FILES_EACH) {
            std::fs::create_dir_all(&at).map_err(|e| format!("{}: {e}", at.display()))?;
        }
        let file = at.join(format!("item{:03}.rs", n % FILES_EACH));
        std::fs::write(&file, content(n)).map_err(|e| format!("{}: {e}", file.display()))?;
        if n.is_multiple_of(97) {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| format!("{}: {e}", file.display()))?;
        }
        paths += 1;
        if folder.is_multiple_of(SUBFOLDERS) && n.is_multiple_of(FILES_EACH) {
            let link = dir.join(format!("pkg{:02}/first", folder / SUBFOLDERS));
            std::os::unix::fs::symlink("src/mod00/item000.rs", &link)
                .map_err(|e| format!("{}: {e}", link.display()))?;
            paths += 1;
        }
    }
    Ok(paths)
}

fn content(n: usize) -> String {
    let mut text =
        format!("//! Item {n} of the slow file system benchmark.\n\npub fn item_{n}(x: u64) -> u64 {{\n");
    for line in 0..(6 + n * 7 % 40) {
        let a = (n * 31 + line * 17) % 1_000_003;
        let b = (n * 7919 + line * 104_729) % 999_983;
        text.push_str(&format!("    let x = x.wrapping_mul({a}).rotate_left({}) ^ {b};\n", line % 63 + 1));
    }
    text.push_str("    x\n}\n");
    text
}

/// Make `dir` (generated already) a repository holding its files in one commit, packed. Files
/// written in the same second as the index would be "racily clean" to git and to Warden: the
/// caller writes the index later, through the mount ([`index_through`]).
pub fn commit(dir: &Path) -> Result<(), Error> {
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &["-c", "user.name=bench", "-c", "user.email=bench@localhost", "commit", "-qm", "initial"],
        &["gc", "-q"],
    ] {
        git(Command::new("git").args(args).current_dir(dir))?;
    }
    Ok(())
}

/// Write the index of the repository in `source` again as git sees its work tree through the
/// mount (`work_tree`): the device and inode numbers of the mount, as in a project that lives on
/// such a folder. The index stays in the source (the mount is read-only).
pub fn index_through(source: &Path, work_tree: &Path) -> Result<(), Error> {
    // Older than the index by more than a second: not racily clean.
    std::thread::sleep(Duration::from_millis(1100));
    let git_dir = source.join(".git");
    for args in [&["read-tree", "HEAD"][..], &["update-index", "-q", "--refresh"]] {
        git(Command::new("git")
            .args(args)
            .env("GIT_DIR", &git_dir)
            .env("GIT_WORK_TREE", work_tree)
            .current_dir(work_tree))?;
    }
    let status = Command::new("git")
        .args(["status", "--porcelain", "--untracked-files=all"])
        .env("GIT_DIR", &git_dir)
        .env("GIT_WORK_TREE", work_tree)
        .current_dir(work_tree)
        .output()
        .map_err(|e| format!("git status: {e}"))?;
    if !status.status.success() || !status.stdout.is_empty() {
        return Err(format!(
            "the repository is not clean through the mount: {}",
            String::from_utf8_lossy(&status.stdout).lines().next().unwrap_or("git status failed")
        )
        .into());
    }
    Ok(())
}

/// Run a setup git (its own configuration only), failing with what it printed.
fn git(command: &mut Command) -> Result<(), Error> {
    let out = command
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("git: {e}"))?;
    if !out.status.success() {
        return Err(format!("{command:?} failed: {}", String::from_utf8_lossy(&out.stderr).trim()).into());
    }
    Ok(())
}
