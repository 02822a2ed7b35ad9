//! Path resolution as a property: for thousands of seeded random paths — names, `.`, `..`,
//! symlinks into the project, out of it, to `..`, absolute and relative, loops, absolute prefixes —
//! whatever `Workspace::resolve` accepts lies inside a root, and what `open_read` then opens is,
//! by the kernel's own account (`/proc/self/fd`), a file inside a root. Nothing outside is ever read.

use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use warden_core::sandbox::{Access, Workspace};
use warden_core::scope::Scope;

const OUTSIDE_SECRET: &str = "OUTSIDE-CANARY";
const CASES: usize = 5_000;

struct Tree {
    _dir: tempfile::TempDir,
    base: PathBuf,
    root: PathBuf,
    storage: PathBuf,
}

fn tree() -> Tree {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let (root, outside, storage) = (base.join("root"), base.join("outside"), base.join("storage"));
    for d in [root.join("a/deep"), root.join("b"), outside.join("sub"), storage.clone()] {
        std::fs::create_dir_all(d).unwrap();
    }
    std::fs::write(root.join("a/f.txt"), "inside").unwrap();
    std::fs::write(root.join("a/deep/g.txt"), "inside").unwrap();
    std::fs::write(outside.join("secret.txt"), OUTSIDE_SECRET).unwrap();
    std::fs::write(outside.join("sub/secret.txt"), OUTSIDE_SECRET).unwrap();
    let links: &[(&str, PathBuf)] = &[
        ("root/link_in", PathBuf::from("a")),
        ("root/a/link_up", PathBuf::from("..")),
        ("root/a/deep/link_up2", PathBuf::from("../..")),
        ("root/link_out", PathBuf::from("../outside")),
        ("root/b/link_out_rel", PathBuf::from("../../outside/secret.txt")),
        ("root/link_abs_out", outside.join("secret.txt")),
        ("root/link_abs_in", root.join("a/f.txt")),
        ("root/link_loop", PathBuf::from("link_loop")),
        ("root/link_chain", PathBuf::from("link_out")),
        ("root/link_root", PathBuf::from("/")),
        ("root/link_dangling", PathBuf::from("nowhere/at/all")),
    ];
    for (at, to) in links {
        std::os::unix::fs::symlink(to, base.join(at)).unwrap();
    }
    Tree { _dir: dir, base, root, storage }
}

const PARTS: &[&str] = &[
    "a",
    "b",
    "deep",
    "f.txt",
    "g.txt",
    "secret.txt",
    "sub",
    "outside",
    "root",
    "x",
    ".",
    "..",
    "link_in",
    "link_up",
    "link_up2",
    "link_out",
    "link_out_rel",
    "link_abs_out",
    "link_abs_in",
    "link_loop",
    "link_chain",
    "link_root",
    "link_dangling",
];

const STEMS: &[&str] =
    &["a", "link_in", "a/deep", "b/..", "a/link_up/a", "a/deep/link_up2/a/deep", "link_out", "b"];

const FILES: &[&str] = &["f.txt", "g.txt", "secret.txt", "link_abs_out", "link_abs_in", "link_out_rel"];

fn random_path(rng: &mut rand::rngs::StdRng, tree: &Tree) -> String {
    let mut path = match rng.random_range(0..6) {
        0 => format!("{}/", tree.root.display()),
        1 => format!("{}/", tree.base.display()),
        2 => "/".to_owned(),
        _ => String::new(),
    };
    // Half the time a stem that exists (so the walk goes on from somewhere real), then random parts.
    if rng.random_bool(0.5) {
        path.push_str(STEMS[rng.random_range(0..STEMS.len())]);
    }
    for _ in 0..rng.random_range(0..=4) {
        if !path.is_empty() && !path.ends_with('/') {
            path.push('/');
        }
        path.push_str(PARTS[rng.random_range(0..PARTS.len())]);
    }
    // Often end at a file, so that many paths open something (in or out).
    if path.is_empty() || rng.random_bool(0.6) {
        if !path.is_empty() && !path.ends_with('/') {
            path.push('/');
        }
        path.push_str(FILES[rng.random_range(0..FILES.len())]);
    }
    path
}

fn inside(path: &Path, tree: &Tree) -> bool {
    path.starts_with(&tree.root) || path.starts_with(&tree.storage)
}

#[test]
fn no_sequence_of_components_and_links_resolves_or_opens_outside_the_roots() {
    let tree = tree();
    let workspace = Workspace::new(&tree.root, &tree.storage, Scope::all()).unwrap();
    let seed = std::env::var("WARDEN_PATH_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x5eed_u64);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let (mut accepted, mut opened, mut refused) = (0, 0, 0);
    for case in 0..CASES {
        let raw = random_path(&mut rng, &tree);
        for access in [Access::Read, Access::Write] {
            let Ok(resolved) = workspace.resolve(&raw, access) else {
                refused += 1;
                continue;
            };
            accepted += 1;
            assert!(
                inside(&resolved.absolute, &tree),
                "seed {seed} case {case}: {raw:?} resolved to {} outside the roots",
                resolved.absolute.display()
            );
            if access == Access::Read {
                if let Ok(file) = workspace.open_read(&resolved) {
                    opened += 1;
                    let real = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd())).unwrap();
                    assert!(
                        inside(&real, &tree),
                        "seed {seed} case {case}: {raw:?} opened {}",
                        real.display()
                    );
                    if real.is_file() {
                        let text = std::fs::read_to_string(&real).unwrap_or_default();
                        assert_ne!(text, OUTSIDE_SECRET, "seed {seed} case {case}: {raw:?}");
                    }
                }
            }
        }
    }
    // The generator reaches all three outcomes, or the property says little.
    assert!(
        accepted > CASES / 10 && opened > CASES / 20 && refused > CASES / 10,
        "{accepted} {opened} {refused}"
    );
}

/// The property above is only worth its cases if they reach outside: the same paths, joined to the
/// project and opened naively (what a tool without the sandbox would do), do read the canary.
#[test]
fn the_same_paths_opened_naively_do_reach_outside() {
    let tree = tree();
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed_u64);
    let escapes = (0..CASES)
        .map(|_| random_path(&mut rng, &tree))
        .filter(|raw| std::fs::read_to_string(tree.root.join(raw)).is_ok_and(|t| t == OUTSIDE_SECRET))
        .count();
    assert!(escapes >= 50, "only {escapes} of {CASES} paths reach outside naively");
}
