//! The package caches cannot carry code out of the box (`containment::cache_layer`): the user's
//! caches are read-only in it, and bubblewrap's box writes to the project's private layer over
//! them, which only the project's boxes see; the Landlock fallback has no layer, and refuses.

use std::path::Path;

use warden_core::containment::{self, net, BoxPolicy};

use super::{boxed, is_landlock, text, tree, work_tree, Tree};

/// An unpacked crate of the (fake) user's registry, as cargo leaves it (`.cargo-ok`: cargo trusts
/// it as unpacked and runs its `build.rs`, if any, in every project that uses it).
const KRATE: &str = ".cargo/registry/src/index.crates.io-1949cf8c6b5b557f/somecrate-1.0.0";
/// A package `npx -y` unpacked, which the user's own MCP servers run from.
const NPX: &str = ".npm/_npx/0123abcd/node_modules/some-server/index.js";
const LIB: &str = "pub fn f() {}\n";
const SERVER: &str = "console.log('the user\\'s server')\n";

fn put(path: &Path, content: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, content).expect("write");
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| format!("({}: {e})", path.display()))
}

/// The red team's reproduction: a `build.rs` planted in an unpacked crate of `~/.cargo/registry`
/// ran on the user's next `cargo build` outside the box; the same for `~/.npm/_npx`. The user's
/// caches must be unchanged after the box; in bubblewrap's box the plant is in the project's layer.
pub(super) fn a_build_rs_planted_in_a_cache_never_reaches_the_users_cache() {
    let t = work_tree();
    let h = &t.home;
    put(&h.join(KRATE).join("Cargo.toml"), "[package]\nname = \"somecrate\"\nversion = \"1.0.0\"\n");
    put(&h.join(KRATE).join("src/lib.rs"), LIB);
    put(&h.join(KRATE).join(".cargo-ok"), "{\"v\":1}");
    put(&h.join(NPX), SERVER);
    let script = format!(
        "printf 'fn main() {{ /* PLANTED */ }}\\n' > ~/{KRATE}/build.rs; echo '// PLANTED' >> ~/{KRATE}/src/lib.rs; \
         echo 'PLANTED' > ~/{NPX}; mkdir -p ~/.npm/_npx/feed/node_modules/x; echo PLANTED > ~/.npm/_npx/feed/node_modules/x/index.js; \
         cat ~/{KRATE}/build.rs ~/{NPX}"
    );
    let out = boxed(&t.policy(), &script);
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!h.join(KRATE).join("build.rs").exists(), "a build.rs reached the user's registry: {seen}");
    assert_eq!(read(&h.join(KRATE).join("src/lib.rs")), LIB, "the user's crate changed: {seen}");
    assert_eq!(read(&h.join(NPX)), SERVER, "the user's npx package changed: {seen}");
    assert!(!h.join(".npm/_npx/feed").exists(), "a new npx package reached the user's cache: {seen}");
    if is_landlock() {
        assert!(!text(&out.stdout).contains("PLANTED"), "{seen}");
        return;
    }
    assert_eq!(
        text(&out.stdout),
        "fn main() { /* PLANTED */ }\nPLANTED\n",
        "the box sees its own writes: {seen}"
    );
    let layer = t.layer();
    let planted = layer.join("cargo-registry/upper").join(KRATE.trim_start_matches(".cargo/registry/"));
    assert!(planted.join("build.rs").is_file(), "not in the layer: {}", planted.display());
    assert_eq!(read(&layer.join("npm/upper").join(NPX.trim_start_matches(".npm/"))), "PLANTED\n");
}

/// What one box writes to a cache, the project's next box sees (the layer lasts); another
/// project's box does not, and the user's cache never does.
pub(super) fn the_cache_layer_is_the_projects_own_and_lasts() {
    let t = work_tree();
    put(&t.home.join(".npm/_cacache/index-v5/x"), "USER-CACHE\n");
    let write = boxed(&t.policy(), "echo DOWNLOADED > ~/.npm/_cacache/new && cat ~/.npm/_cacache/index-v5/x");
    assert!(write.status.success(), "{}", text(&write.stderr));
    assert_eq!(text(&write.stdout), "USER-CACHE\n", "the user's cache is read through the layer");
    let again = boxed(&t.policy(), "cat ~/.npm/_cacache/new");
    assert_eq!(text(&again.stdout), "DOWNLOADED\n", "the project's next box: {}", text(&again.stderr));

    let other = t.project.with_file_name("other");
    std::fs::create_dir_all(&other).expect("other project");
    let other_layer = t.project.with_file_name("other-storage").join("cache-layer");
    let policy = BoxPolicy::with_home(&other, Some(&t.home), &[]).with_cache_layer(other_layer.clone());
    let elsewhere = boxed(&policy, "cat ~/.npm/_cacache/new; cat ~/.npm/_cacache/index-v5/x");
    assert_eq!(text(&elsewhere.stdout), "USER-CACHE\n", "another project's box: {}", text(&elsewhere.stderr));
    assert!(!t.home.join(".npm/_cacache/new").exists(), "the write reached the user's cache");
    assert!(other_layer.join("npm/upper").is_dir(), "the other project has a layer of its own");

    // Cleared (Settings → Sandbox), the layer is gone and the next box starts from the user's cache.
    assert!(containment::cache_layer::size(&t.layer()) > 0);
    containment::cache_layer::clear(&t.layer()).expect("clear");
    let cleared = boxed(&t.policy(), "cat ~/.npm/_cacache/new 2>/dev/null || echo GONE");
    assert_eq!(text(&cleared.stdout), "GONE\n", "{}", text(&cleared.stderr));
}

/// Offline work from the user's read-only registry: a project depending on a crate that the
/// registry holds only as its `.crate` (and its index entry) builds with `cargo build --offline`;
/// cargo unpacks the crate into the project's layer, not into the user's registry.
pub(super) fn cargo_builds_offline_from_the_users_registry() {
    let Some(real) = real_registry_crate() else {
        panic!("this machine's ~/.cargo/registry has no cfg-if 1.0.x .crate to build from");
    };
    let t = work_tree();
    let h = &t.home;
    let index = "index.crates.io-1949cf8c6b5b557f";
    let registry = h.join(".cargo/registry");
    let file = format!("cfg-if-{}.crate", real.version);
    put(&registry.join("cache").join(index).join(&file), "");
    std::fs::copy(&real.crate_file, registry.join("cache").join(index).join(&file)).expect("copy the .crate");
    put(&registry.join("index").join(index).join(".cache/cf/g-/cfg-if"), "");
    std::fs::copy(&real.index_entry, registry.join("index").join(index).join(".cache/cf/g-/cfg-if"))
        .expect("copy the index entry");
    std::fs::copy(&real.index_config, registry.join("index").join(index).join("config.json"))
        .expect("config");
    let Some((rustup, cargo)) = super::home::real_rustup() else { panic!("no rustup toolchain here") };
    std::os::unix::fs::symlink(rustup, h.join(".rustup")).expect("link .rustup");
    std::fs::create_dir_all(h.join(".cargo/bin")).expect("bin");
    for tool in ["cargo", "rustc"] {
        std::os::unix::fs::symlink(cargo.with_file_name(tool), h.join(".cargo/bin").join(tool))
            .expect("link");
    }
    put(
        &t.project.join("Cargo.toml"),
        &format!(
            "[package]\nname = \"offline\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n[dependencies]\ncfg-if = \"={}\"\n",
            real.version
        ),
    );
    put(
        &t.project.join("src/main.rs"),
        "cfg_if::cfg_if! { if #[cfg(unix)] { fn main() { println!(\"BUILT\"); } } else { fn main() {} } }\n",
    );
    let out = boxed(
        &t.policy(),
        "export PATH=\"$HOME/.cargo/bin:$PATH\"; cargo build --offline -q 2>&1 && ./target/debug/offline",
    );
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(seen.contains("BUILT"), "the offline build failed in the box: {seen}");
    let unpacked = format!("src/{index}/cfg-if-{}", real.version);
    assert!(!registry.join(&unpacked).exists(), "cargo unpacked into the user's registry");
    let layer = t.layer().join("cargo-registry/upper").join(&unpacked);
    assert!(layer.join("src/lib.rs").is_file(), "cargo's unpacked crate is not in the layer: {seen}");
}

/// The newest cfg-if 1.0.x this machine's cargo has downloaded, with its index entry.
struct RealCrate {
    version: String,
    crate_file: std::path::PathBuf,
    index_entry: std::path::PathBuf,
    index_config: std::path::PathBuf,
}

fn real_registry_crate() -> Option<RealCrate> {
    let home = dirs::home_dir()?;
    let cargo_home = std::env::var_os("CARGO_HOME").map(Into::into).unwrap_or_else(|| home.join(".cargo"));
    let registry: std::path::PathBuf = cargo_home.join("registry");
    let index = "index.crates.io-1949cf8c6b5b557f";
    let index_entry = registry.join("index").join(index).join(".cache/cf/g-/cfg-if");
    let index_config = registry.join("index").join(index).join("config.json");
    let mut versions: Vec<String> = std::fs::read_dir(registry.join("cache").join(index))
        .ok()?
        .flatten()
        .filter_map(|e| {
            e.file_name().to_str()?.strip_prefix("cfg-if-1.0.")?.strip_suffix(".crate").map(str::to_owned)
        })
        .filter(|patch| patch.parse::<u32>().is_ok())
        .collect();
    versions.sort_by_key(|patch| patch.parse::<u32>().unwrap_or(0));
    let version = format!("1.0.{}", versions.pop()?);
    let crate_file = registry.join("cache").join(index).join(format!("cfg-if-{version}.crate"));
    (index_entry.is_file() && index_config.is_file()).then_some(RealCrate {
        version,
        crate_file,
        index_entry,
        index_config,
    })
}

/// In a box whose filter `warden-box` loaded after mounting the layers, the command has no
/// capability left (effective, permitted, inheritable, ambient, bounding), runs with
/// `NoNewPrivs` and the filter, as the user's own ids, and can neither unmount the cache's overlay
/// nor mount anything.
pub(super) fn a_layered_box_keeps_no_capability_and_cannot_mount() {
    let t = work_tree();
    put(&t.home.join(".npm/_cacache/x"), "USER-CACHE\n");
    let script = "grep -E '^(Cap(Eff|Prm|Inh|Amb|Bnd)|NoNewPrivs|Seccomp):' /proc/self/status; echo uid=$(id -u); \
                  umount ~/.npm 2>/dev/null && echo UNMOUNTED; \
                  python3 -c 'import ctypes,os; l=ctypes.CDLL(None,use_errno=True); \
                  r=l.mount(b\"none\",b\"/tmp\",b\"tmpfs\",0,None); print(\"mount\",r,os.strerror(ctypes.get_errno()))'; \
                  unshare -r true 2>/dev/null && echo UNSHARED; cat ~/.npm/_cacache/x";
    let out = boxed(&t.policy(), script);
    let seen = text(&out.stdout);
    assert!(std::fs::read_dir(t.layer()).is_ok_and(|mut d| d.next().is_some()), "the box had no layer");
    for cap in ["CapEff", "CapPrm", "CapInh", "CapAmb", "CapBnd"] {
        assert!(
            seen.contains(&format!("{cap}:\t0000000000000000")),
            "{cap} survived: {seen}{}",
            text(&out.stderr)
        );
    }
    assert!(seen.contains("NoNewPrivs:\t1") && seen.contains("Seccomp:\t2"), "{seen}");
    assert!(seen.contains(&format!("uid={}", nix::unistd::getuid())), "the user's own id: {seen}");
    assert!(seen.contains("mount -1 Operation not permitted"), "{seen}");
    assert!(!seen.contains("UNMOUNTED") && !seen.contains("UNSHARED"), "{seen}");
    assert!(seen.contains("USER-CACHE"), "{seen}");
}

/// A box that joins the session's network (bubblewrap runs as the root of the keeper's user
/// namespace) gets its layer too.
pub(super) fn a_box_joining_the_sessions_network_writes_to_its_layer() {
    let t: Tree = tree();
    put(&t.home.join(".cargo/registry/index/x"), "USER-CACHE\n");
    let mut policy = t.policy();
    policy.network = true;
    policy.shared_net = Some(net::SharedNet::new());
    let out = boxed(
        &policy,
        "echo FETCHED > ~/.cargo/registry/index/new && cat ~/.cargo/registry/index/new; echo uid=$(id -u)",
    );
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(seen.contains("FETCHED"), "{seen}");
    assert!(seen.contains(&format!("uid={}", nix::unistd::getuid())), "the user's own id: {seen}");
    assert!(!t.home.join(".cargo/registry/index/new").exists(), "the write reached the user's cache");
    assert_eq!(read(&t.layer().join("cargo-registry/upper/index/new")), "FETCHED\n");
}

/// Where a layered box cannot start (here: a setuid bubblewrap, which hands the box no capability
/// to mount), a box whose caches would get a layer still starts: its caches are only read-only,
/// a write to one is refused, and nothing reaches the user's cache. Without the check every such
/// box ended at once, `warden-box` exiting 125.
pub(super) fn a_bubblewrap_that_cannot_mount_the_layer_still_runs_the_box_with_read_only_caches() {
    use std::os::unix::fs::PermissionsExt;
    let Some(bwrap) =
        ["/usr/bin/bwrap", "/usr/local/bin/bwrap"].into_iter().map(Path::new).find(|p| p.is_file())
    else {
        panic!("bubblewrap is not installed");
    };
    let t = work_tree();
    let setuid = t.project.with_file_name("setuid-bwrap");
    std::fs::copy(bwrap, &setuid).expect("copy bubblewrap");
    std::fs::set_permissions(&setuid, std::fs::Permissions::from_mode(0o4755)).expect("setuid");
    let why = containment::try_cache_layer(&setuid).err().unwrap_or_default();
    assert!(why.contains("setuid"), "{why}");
    assert_eq!(
        containment::try_cache_layer(bwrap),
        Ok(()),
        "a layered box starts with this machine's bubblewrap"
    );

    put(&t.home.join(".npm/_cacache/index-v5/x"), "USER-CACHE\n");
    let mechanism = containment::Mechanism::Bubblewrap { program: setuid.clone() };
    let argv: Vec<std::ffi::OsString> =
        ["sh", "-c", "cat ~/.npm/_cacache/index-v5/x; echo NEW > ~/.npm/_cacache/new || echo REFUSED"]
            .iter()
            .map(Into::into)
            .collect();
    let policy = t.policy();
    let launch = containment::launch_with(&mechanism, &policy, &argv, &t.project).expect("launch");
    let out = launch
        .command()
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("HOME", &t.home)
        .output()
        .expect("spawn the box");
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "the box did not run: {seen}");
    assert_eq!(text(&out.stdout), "USER-CACHE\nREFUSED\n", "{seen}");
    assert!(!t.home.join(".npm/_cacache/new").exists(), "the write reached the user's cache");
    assert!(!t.layer().exists(), "a layer was made for a box that has none");
}

/// Boxes of one project started at the same moment (a background server and a command, an MCP
/// server and the first command) each mount the layer: each has its own overlayfs work folder,
/// which overlayfs empties as it mounts (one shared folder made one box in a dozen fail to start);
/// they share the upper folder, so each sees what the others wrote. A later box removes the work
/// folders of the boxes that have ended. Each writes at the cache's top, where nothing is copied
/// up: two boxes copying up the same folder of the user's cache at the same moment is overlayfs's
/// own race on a shared upper folder (one write fails with "Directory not empty"), not this one.
pub(super) fn boxes_of_a_project_started_at_once_each_mount_the_layer() {
    let t = work_tree();
    put(&t.home.join(".npm/_cacache/index-v5/x"), "USER-CACHE\n");
    let policy = t.policy();
    for round in 0..3 {
        let outputs: Vec<_> = std::thread::scope(|scope| {
            let started: Vec<_> = (0..12)
                .map(|n| {
                    let policy = &policy;
                    scope.spawn(move || {
                        boxed(
                            policy,
                            &format!(
                                "echo {round}-{n} > ~/.npm/box-{round}-{n} && cat ~/.npm/_cacache/index-v5/x"
                            ),
                        )
                    })
                })
                .collect();
            started.into_iter().map(|box_| box_.join().expect("the box's thread")).collect()
        });
        for (n, out) in outputs.iter().enumerate() {
            assert!(out.status.success(), "round {round}, box {n}: {}", text(&out.stderr));
            assert_eq!(text(&out.stdout), "USER-CACHE\n", "round {round}, box {n}");
        }
    }
    let all = boxed(&policy, "cat ~/.npm/box-* | wc -l");
    assert_eq!(text(&all.stdout).trim(), "36", "every box's write is the project's: {}", text(&all.stderr));
    let work: Vec<_> =
        std::fs::read_dir(t.layer().join("npm/work")).expect("the work folders").flatten().collect();
    assert_eq!(
        work.len(),
        1,
        "the ended boxes' work folders stay: {:?}",
        work.iter().map(|e| e.file_name()).collect::<Vec<_>>()
    );
}
