//! Where `warden-box` is: the program a box with the network starts first (it bridges the box's
//! loopback to the proxy, then becomes the command; `crates/warden-box`). It ships beside Warden's
//! programs: in `/usr/lib/warden` of the packages (the window is `/usr/bin/warden-desktop`, the
//! engine `/usr/lib/warden/warden-engine`), and in cargo's target folder for builds and tests
//! (whose test programs live one folder below, in `deps`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const NAME: &str = "warden-box";

/// The launcher beside the running program, looked for once.
pub fn find() -> Result<&'static Path, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let exe = std::env::current_exe().map_err(|e| format!("cannot find where Warden runs from: {e}"))?;
            beside(&exe).ok_or_else(|| {
                format!(
                    "{NAME}, which boxes with the network start first, is missing beside {} (reinstall Warden, \
                     or `cargo build -p {NAME}` in a build)",
                    exe.display()
                )
            })
        })
        .as_deref()
        .map_err(Clone::clone)
}

/// The launcher's place for a program at `exe`, if it is there.
fn beside(exe: &Path) -> Option<PathBuf> {
    let dir = exe.parent()?;
    [dir.join(NAME), dir.join("../lib/warden").join(NAME), dir.join("..").join(NAME)]
        .into_iter()
        .find(|candidate| candidate.is_file())
        .and_then(|found| std::fs::canonicalize(found).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_is_found_beside_the_program_in_the_package_layout_and_in_cargos() {
        let root = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let at = |p: &str| root.path().join(p);
        for dir in ["usr/bin", "usr/lib/warden", "target/debug/deps"] {
            std::fs::create_dir_all(at(dir)).unwrap_or_else(|e| panic!("{e}"));
        }
        for file in ["usr/lib/warden/warden-box", "target/debug/warden-box"] {
            std::fs::write(at(file), "").unwrap_or_else(|e| panic!("{e}"));
        }
        let real = |p: &str| std::fs::canonicalize(at(p)).ok();
        assert_eq!(beside(&at("usr/bin/warden-desktop")), real("usr/lib/warden/warden-box"));
        assert_eq!(beside(&at("usr/lib/warden/warden-engine")), real("usr/lib/warden/warden-box"));
        assert_eq!(beside(&at("target/debug/deps/containment-0123")), real("target/debug/warden-box"));
        assert_eq!(beside(&at("target/debug/warden")), real("target/debug/warden-box"));
        assert_eq!(beside(&at("elsewhere/warden")), None);
    }
}
