//! The box's home: empty but for the toolchains, their caches and a git configuration without
//! credentials (`containment::home`). Each toolchain group has its case: what it needs is there
//! to read (run with the real tool where this machine has it), read-only (a package cache takes
//! writes in the project's private layer in bubblewrap's box, none in the Landlock fallback), and
//! what lies beside it in the home is absent.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use warden_core::containment::BoxPolicy;

use super::{boxed, boxed_at_home, is_landlock, text, tree, work_tree, Tree};

/// Write `content` at `home/relative`, making its folders.
fn put(home: &Path, relative: &str, content: &str) -> PathBuf {
    let path = home.join(relative);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, content).expect("write");
    path
}

/// A shell script at `home/relative` printing `says`.
fn script(home: &Path, relative: &str, says: &str) {
    let path = put(home, relative, &format!("#!/bin/sh\necho {says}\n"));
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

fn link(target: &Path, home: &Path, relative: &str) {
    let path = home.join(relative);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink(target, path).expect("symlink");
}

/// Everything the box printed, both streams.
fn seen(out: &std::process::Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// `write-refused` when writing `relative` under the home fails in the box, else `write-ok`.
fn try_write(relative: &str) -> String {
    format!("(echo x > \"$HOME/{relative}\") 2>/dev/null && echo write-ok:{relative} || echo write-refused:{relative}; ")
}

/// What became of [`try_write`] to the package cache file `relative`: in bubblewrap's box it
/// worked and landed in the project's layer (`layer` names the cache's folder there), the user's
/// cache unchanged; the Landlock fallback has no layer, and the caches are read-only there.
fn cache_write(t: &Tree, seen: &str, layer: &str, relative: &str) {
    if is_landlock() {
        assert!(seen.contains(&format!("write-refused:{relative}")), "{relative}: {seen}");
    } else {
        assert!(seen.contains(&format!("write-ok:{relative}")), "{relative}: {seen}");
        let inside = relative.strip_prefix(layer_path(layer)).map(|rest| rest.trim_start_matches('/'));
        let landed = t.layer().join(layer).join("upper").join(inside.unwrap_or(relative));
        assert!(landed.is_file(), "{relative} did not land in the layer at {}", landed.display());
    }
    assert!(!t.home.join(relative).exists(), "{relative} reached the user's cache");
}

/// The cache's path under the home for its folder name in the layer.
fn layer_path(layer: &str) -> &'static str {
    match layer {
        "cargo-registry" => ".cargo/registry",
        "cargo-git" => ".cargo/git",
        "npm" => ".npm",
        "cache-pip" => ".cache/pip",
        _ => panic!("no cache {layer}"),
    }
}

/// A file anywhere else in the home — the user's documents, an app's token, a dotfile — is absent.
pub(super) fn the_home_shows_nothing_but_toolchains() {
    let t = tree();
    for (relative, canary) in [
        ("Documents/notes.txt", "NOTES-CANARY"),
        (".config/someapp/token", "APP-TOKEN-CANARY"),
        (".local/share/otheragent/session.json", "AGENT-CANARY"),
        ("go/src/private/main.go", "GO-SOURCE-CANARY"),
    ] {
        put(&t.home, relative, canary);
    }
    let out = boxed(
        &t.policy(),
        "cat ~/Documents/notes.txt ~/.config/someapp/token ~/.local/share/otheragent/session.json \
         ~/go/src/private/main.go ~/.bashrc; ls -a ~ ~/.config ~/Documents",
    );
    let seen = seen(&out);
    for canary in
        ["NOTES-CANARY", "APP-TOKEN-CANARY", "AGENT-CANARY", "GO-SOURCE-CANARY", "canary: untouched"]
    {
        assert!(!seen.contains(canary), "{canary} readable in the box: {seen}");
    }
    for name in ["Documents", "someapp", ".bashrc", ".ssh"] {
        assert!(!seen.contains(&format!("{name}\n")), "{name} listed in the box: {seen}");
    }
}

/// rustup and cargo: the binaries, the environment script and the user's config readable (the real
/// `cargo` through the home's `.cargo/bin` and `.rustup` when this machine has rustup), the
/// registry and git caches writable through the project's layer, cargo's credentials absent.
pub(super) fn cargo_and_rustup_are_there_and_the_registry_writable() {
    let t = work_tree();
    let h = &t.home;
    script(h, ".cargo/bin/hello-tool", "cargo-bin-ran");
    put(h, ".cargo/env", "CARGO-ENV\n");
    put(h, ".cargo/config.toml", "CARGO-CONFIG\n");
    put(h, ".cargo/registry/index/crates.io/config.json", "REGISTRY\n");
    put(h, ".cargo/git/db/x/HEAD", "GIT-CACHE\n");
    put(h, ".cargo/credentials.toml", "CARGO-CREDENTIALS-CANARY");
    // The real toolchain, when this machine has one: rustup's proxy resolves the toolchain from the
    // home's `.rustup`.
    let real = real_rustup();
    match &real {
        Some((rustup, cargo)) => {
            link(rustup, h, ".rustup");
            link(cargo, h, ".cargo/bin/cargo");
        }
        None => {
            put(h, ".rustup/settings.toml", "RUSTUP-SETTINGS\n");
        }
    }
    let mut script = "~/.cargo/bin/hello-tool; cat ~/.cargo/env ~/.cargo/config.toml \
                      ~/.cargo/registry/index/crates.io/config.json ~/.cargo/git/db/x/HEAD \
                      ~/.cargo/credentials.toml; "
        .to_owned();
    script += if real.is_some() { "~/.cargo/bin/cargo --version; " } else { "cat ~/.rustup/settings.toml; " };
    for relative in
        [".cargo/bin/planted", ".cargo/env", ".rustup/planted", ".cargo/registry/w", ".cargo/git/w"]
    {
        script += &try_write(relative);
    }
    let out = boxed(&t.policy(), &script);
    let seen = seen(&out);
    for want in ["cargo-bin-ran", "CARGO-ENV", "CARGO-CONFIG", "REGISTRY", "GIT-CACHE"] {
        assert!(seen.contains(want), "{want} missing: {seen}");
    }
    assert!(
        seen.contains(if real.is_some() { "\ncargo 1." } else { "RUSTUP-SETTINGS" }),
        "the toolchain is not there: {seen}"
    );
    assert!(!seen.contains("CARGO-CREDENTIALS-CANARY"), "{seen}");
    for refused in [".cargo/bin/planted", ".cargo/env", ".rustup/planted"] {
        assert!(seen.contains(&format!("write-refused:{refused}")), "{refused}: {seen}");
    }
    cache_write(&t, &seen, "cargo-registry", ".cargo/registry/w");
    cache_write(&t, &seen, "cargo-git", ".cargo/git/w");
    assert_eq!(std::fs::read_to_string(h.join(".cargo/env")).ok().as_deref(), Some("CARGO-ENV\n"));
}

/// cargo reads registry tokens from its configuration too (`[registry] token`): a configuration
/// holding one is not shown in the box at all.
pub(super) fn a_cargo_configuration_holding_a_token_stays_out_of_the_box() {
    let t = work_tree();
    let h = &t.home;
    put(
        h,
        ".cargo/config.toml",
        "[registries.mine]\nindex = \"sparse+https://x/\"\ntoken = \"CARGO-TOKEN-CANARY\"\n",
    );
    put(h, ".cargo/config", "[registry]\ntoken = \"OLD-CARGO-TOKEN-CANARY\"\n");
    let out = boxed(&t.policy(), "cat ~/.cargo/config.toml ~/.cargo/config");
    let seen = seen(&out);
    assert!(!seen.contains("CARGO-TOKEN-CANARY"), "a registry token reached the box: {seen}");
}

/// This machine's rustup home and its `cargo` proxy, when it has them.
pub(super) fn real_rustup() -> Option<(PathBuf, PathBuf)> {
    let home = dirs::home_dir()?;
    let rustup = std::env::var_os("RUSTUP_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".rustup"));
    let cargo_home = std::env::var_os("CARGO_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".cargo"));
    let cargo = cargo_home.join("bin/cargo");
    (rustup.join("toolchains").is_dir() && cargo.is_file()).then_some((rustup, cargo))
}

/// nvm, Volta and fnm readable (this machine's `node` run through an nvm version folder), npm's
/// cache writable.
pub(super) fn node_version_managers_are_there_and_the_npm_cache_writable() {
    let t = work_tree();
    let h = &t.home;
    let node = Path::new("/usr/bin/node");
    if node.exists() {
        link(node, h, ".nvm/versions/node/v20.0.0/bin/node");
    } else {
        script(h, ".nvm/versions/node/v20.0.0/bin/node", "42");
    }
    put(h, ".nvm/nvm.sh", "NVM-SH\n");
    put(h, ".volta/tools/image/node/20.0.0/VERSION", "VOLTA\n");
    put(h, ".fnm/aliases/default/VERSION", "FNM\n");
    put(h, ".local/share/fnm/node-versions/v20/VERSION", "FNM-XDG\n");
    link(&h.join(".local/share/fnm/node-versions/v20"), h, ".local/state/fnm_multishells/123_456");
    put(h, ".npm/_cacache/index-v5/x", "NPM-CACHE\n");
    put(h, ".npmrc", "//registry.npmjs.org/:_authToken=NPMRC-CANARY");
    let mut script = "~/.nvm/versions/node/v20.0.0/bin/node -e 'console.log(6*7)'; cat ~/.nvm/nvm.sh \
                      ~/.volta/tools/image/node/20.0.0/VERSION ~/.fnm/aliases/default/VERSION \
                      ~/.local/state/fnm_multishells/123_456/VERSION ~/.npm/_cacache/index-v5/x ~/.npmrc; "
        .to_owned();
    for relative in [".nvm/planted", ".volta/planted", ".fnm/planted", ".npm/_cacache/w"] {
        script += &try_write(relative);
    }
    let seen = seen(&boxed(&t.policy(), &script));
    cache_write(&t, &seen, "npm", ".npm/_cacache/w");
    for want in ["42\n", "NVM-SH", "VOLTA", "FNM\n", "FNM-XDG", "NPM-CACHE"] {
        assert!(seen.contains(want), "{want} missing: {seen}");
    }
    for refused in [".nvm/planted", ".volta/planted", ".fnm/planted"] {
        assert!(seen.contains(&format!("write-refused:{refused}")), "{refused}: {seen}");
    }
    assert!(!seen.contains("NPMRC-CANARY"), "{seen}");
}

/// The user's site-packages imported by the real `python3`, pyenv readable, pip's cache writable.
pub(super) fn python_user_site_and_pyenv_are_there_and_the_pip_cache_writable() {
    let t = work_tree();
    let h = &t.home;
    let version = Command::new("python3")
        .args(["-c", "import sys; print(f'python{sys.version_info[0]}.{sys.version_info[1]}')"])
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .output()
        .expect("python3");
    let version = text(&version.stdout).trim().to_owned();
    put(h, &format!(".local/lib/{version}/site-packages/wardenprobe.py"), "ANSWER = 'user-site-imported'\n");
    put(h, ".pyenv/version", "PYENV-VERSION\n");
    put(h, ".cache/pip/http/x", "PIP-CACHE\n");
    let mut script = "python3 -c 'import wardenprobe; print(wardenprobe.ANSWER)'; cat ~/.pyenv/version \
                      ~/.cache/pip/http/x; "
        .to_owned();
    for relative in [format!(".local/lib/{version}/site-packages/planted.py"), ".pyenv/planted".into()] {
        script += &try_write(&relative);
    }
    script += &try_write(".cache/pip/w");
    let seen = seen(&boxed(&t.policy(), &script));
    cache_write(&t, &seen, "cache-pip", ".cache/pip/w");
    for want in ["user-site-imported", "PYENV-VERSION", "PIP-CACHE"] {
        assert!(seen.contains(want), "{want} missing: {seen}");
    }
    assert!(seen.contains("write-refused:.pyenv/planted") && !seen.contains("write-ok:.local"), "{seen}");
}

/// Go's module cache readable and read-only (go is not installed here: its files are read with
/// `cat`); the rest of `~/go` (the user's own GOPATH sources) is absent.
pub(super) fn the_go_module_cache_is_there() {
    let t = work_tree();
    let h = &t.home;
    put(h, "go/pkg/mod/cache/download/example.com/m/@v/list", "GO-MOD-CACHE\n");
    put(h, "go/pkg/mod/example.com/m@v1.0.0/m.go", "package m\n");
    put(h, "go/src/private/main.go", "GO-SOURCE-CANARY");
    script(h, "go/bin/gopls", "go-installed-tool-ran");
    let script = format!(
        "cat ~/go/pkg/mod/cache/download/example.com/m/@v/list ~/go/pkg/mod/example.com/m@v1.0.0/m.go \
         ~/go/src/private/main.go; ~/go/bin/gopls; {}{}",
        try_write("go/pkg/mod/planted"),
        try_write("go/bin/planted")
    );
    let seen = seen(&boxed(&t.policy(), &script));
    assert!(seen.contains("GO-MOD-CACHE") && seen.contains("package m"), "{seen}");
    assert!(
        seen.contains("go-installed-tool-ran") && seen.contains("write-refused:go/bin/planted"),
        "{seen}"
    );
    assert!(
        seen.contains("write-refused:go/pkg/mod/planted") && !seen.contains("GO-SOURCE-CANARY"),
        "{seen}"
    );
}

/// SDKMAN's Java (this machine's JDK linked in as its current version) runs a class from the Maven
/// repository; Gradle's caches and wrappers are readable; Maven's and Gradle's credentials absent.
pub(super) fn java_toolchains_and_caches_are_there() {
    let t = work_tree();
    let h = &t.home;
    let jar = h.join(".m2/repository/org/example/hello/1.0/hello-1.0.jar");
    let real = java_home().filter(|_| build_jar(&t.outside, &jar));
    match &real {
        Some(java_home) => link(java_home, h, ".sdkman/candidates/java/current"),
        None => {
            put(h, ".sdkman/candidates/java/current/release", "SDKMAN-JAVA\n");
        }
    }
    if real.is_none() {
        put(h, ".m2/repository/org/example/hello/1.0/hello-1.0.pom", "HELLO-POM\n");
    }
    put(h, ".gradle/caches/modules-2/files-2.1/x", "GRADLE-CACHE\n");
    put(h, ".gradle/wrapper/dists/gradle-8/x", "GRADLE-WRAPPER\n");
    put(h, ".gradle/jdks/temurin-21/release", "GRADLE-JDK\n");
    put(h, ".jdks/corretto-17/release", "IDEA-JDK\n");
    put(h, ".gradle/gradle.properties", "GRADLE-SECRET-CANARY");
    put(h, ".m2/settings.xml", "M2-SETTINGS-CANARY");
    let mut script = String::from(if real.is_some() {
        "~/.sdkman/candidates/java/current/bin/java -cp ~/.m2/repository/org/example/hello/1.0/hello-1.0.jar Hello; "
    } else {
        "cat ~/.sdkman/candidates/java/current/release ~/.m2/repository/org/example/hello/1.0/hello-1.0.pom; "
    });
    script += "cat ~/.gradle/caches/modules-2/files-2.1/x ~/.gradle/wrapper/dists/gradle-8/x \
               ~/.gradle/jdks/temurin-21/release ~/.jdks/corretto-17/release \
               ~/.gradle/gradle.properties ~/.m2/settings.xml; ";
    for relative in [".m2/repository/planted", ".gradle/caches/planted", ".sdkman/planted"] {
        script += &try_write(relative);
    }
    let seen = seen(&boxed(&t.policy(), &script));
    let ran = if real.is_some() { "hello-from-the-m2-repository" } else { "HELLO-POM" };
    for want in [ran, "GRADLE-CACHE", "GRADLE-WRAPPER", "GRADLE-JDK", "IDEA-JDK"] {
        assert!(seen.contains(want), "{want} missing: {seen}");
    }
    for refused in [".m2/repository/planted", ".gradle/caches/planted", ".sdkman/planted"] {
        assert!(seen.contains(&format!("write-refused:{refused}")), "{refused}: {seen}");
    }
    assert!(!seen.contains("GRADLE-SECRET-CANARY") && !seen.contains("M2-SETTINGS-CANARY"), "{seen}");
}

/// This machine's JDK, when `javac` and `jar` are installed.
fn java_home() -> Option<PathBuf> {
    let javac = std::fs::canonicalize("/usr/bin/javac").ok()?;
    Some(javac.parent()?.parent()?.to_path_buf())
}

/// `Hello` compiled into a jar at `jar`, built in `work`.
fn build_jar(work: &Path, jar: &Path) -> bool {
    let source = work.join("Hello.java");
    let printed = "public class Hello { public static void main(String[] a) { \
                   System.out.println(\"hello-from-the-m2-repository\"); } }";
    std::fs::write(&source, printed).expect("source");
    std::fs::create_dir_all(jar.parent().expect("parent")).expect("mkdir");
    let ok = |cmd: &mut Command| cmd.current_dir(work).status().is_ok_and(|s| s.success());
    ok(Command::new("javac").arg("Hello.java"))
        && ok(Command::new("jar").arg("cf").arg(jar).arg("Hello.class"))
}

/// `~/.local/bin` (pipx, `pip install --user`, the user's scripts) runs and stays read-only, and
/// so do the commands pipx and uv link there from their environments.
pub(super) fn local_bin_runs_and_is_read_only() {
    let t = work_tree();
    let h = &t.home;
    script(h, ".local/bin/my-tool", "local-bin-ran");
    script(h, ".local/share/pipx/venvs/black/bin/black", "pipx-tool-ran");
    link(&h.join(".local/share/pipx/venvs/black/bin/black"), h, ".local/bin/black");
    script(h, ".local/share/uv/tools/ruff/bin/ruff", "uv-tool-ran");
    link(&h.join(".local/share/uv/tools/ruff/bin/ruff"), h, ".local/bin/ruff");
    put(h, ".local/share/uv/credentials/credentials.toml", "UV-CREDENTIALS-CANARY");
    let script = format!(
        "~/.local/bin/my-tool; ~/.local/bin/black; ~/.local/bin/ruff; \
         cat ~/.local/share/uv/credentials/credentials.toml; {}",
        try_write(".local/bin/planted")
    );
    let seen = seen(&boxed(&t.policy(), &script));
    for want in ["local-bin-ran", "pipx-tool-ran", "uv-tool-ran", "write-refused:.local/bin/planted"] {
        assert!(seen.contains(want), "{want} missing: {seen}");
    }
    assert!(!seen.contains("UV-CREDENTIALS-CANARY"), "{seen}");
}

/// A `~/.gitconfig` (and git's XDG config) with credential helpers, a token in an `insteadOf` URL
/// and an extra header: the box's git sees the user's identity and aliases, none of those.
fn git_config_with_credentials(home: &Path) {
    put(
        home,
        ".gitconfig",
        "[user]\n\tname = Box Tester\n\temail = box@example.test\n\
         [credential]\n\thelper = store --file /home/x/CREDENTIAL-HELPER-CANARY\n\
         [credential \"https://example.com\"]\n\tusername = HELPER-USER-CANARY\n\
         [url \"https://x-access-token:ghp_TOKENCANARY@github.com/\"]\n\tinsteadOf = https://github.com/\n\
         [http \"https://git.example.com/\"]\n\textraHeader = Authorization: Bearer HEADER-CANARY\n\
         [alias]\n\tst = status\n",
    );
    put(
        home,
        ".config/git/config",
        "[credential]\n\thelper = XDG-HELPER-CANARY\n[core]\n\tautocrlf = input\n",
    );
    put(home, ".config/git/ignore", "*.warden-ignored\n");
    put(home, ".config/git/attributes", "*.bin binary\n");
}

/// The box's git reads the user's identity, aliases and ignore file, and nothing that holds a
/// credential: no helper, no token in a URL, no header.
pub(super) fn the_git_config_is_there_without_its_credentials() {
    let t = work_tree();
    git_config_with_credentials(&t.home);
    let out = boxed(
        &t.policy(),
        "git config --global user.name; git config --global alias.st; git config --global core.autocrlf; \
         git config --global --get-all credential.helper; git config --global --get-regexp 'url.*' ; \
         git config --global --get-regexp 'http.*'; cat ~/.gitconfig ~/.config/git/config; \
         cat ~/.config/git/ignore ~/.config/git/attributes",
    );
    let seen = seen(&out);
    for want in ["Box Tester\n", "status\n", "input\n", "*.warden-ignored", "*.bin binary"] {
        assert!(seen.contains(want), "{want} missing: {seen}");
    }
    for canary in [
        "CREDENTIAL-HELPER-CANARY",
        "HELPER-USER-CANARY",
        "TOKENCANARY",
        "HEADER-CANARY",
        "XDG-HELPER-CANARY",
    ] {
        assert!(!seen.contains(canary), "{canary} visible in the box: {seen}");
    }
    assert!(std::fs::read_to_string(t.home.join(".gitconfig")).is_ok_and(|c| c.contains("TOKENCANARY")));
}

/// A real commit in the box takes its author from the filtered `~/.gitconfig`.
pub(super) fn git_commits_with_the_identity_of_the_filtered_config() {
    let t = work_tree();
    git_config_with_credentials(&t.home);
    let out = boxed(
        &t.policy(),
        "set -e; git init -q repo; cd repo; echo a > a.txt; git add a.txt; git commit -qm first; \
         git log --format='%an <%ae>'",
    );
    assert!(out.status.success(), "{}", seen(&out));
    assert_eq!(text(&out.stdout), "Box Tester <box@example.test>\n", "{}", text(&out.stderr));
}

/// The session's runtime folder (`$XDG_RUNTIME_DIR`: the session bus, the keyring's and agents'
/// sockets) is absent from the box.
pub(super) fn the_session_runtime_folder_is_hidden() {
    let t = tree();
    // The folder the test gave this process (`XDG_RUNTIME_DIR`), where Warden looks for it.
    let runtime = PathBuf::from(std::env::var_os("XDG_RUNTIME_DIR").expect("XDG_RUNTIME_DIR"));
    put(&runtime, "keyring/control", "KEYRING-CANARY");
    put(&runtime, "bus-address", "BUS-CANARY");
    let out =
        boxed(&t.policy(), &format!("cat {0}/keyring/control {0}/bus-address; ls -a {0}", runtime.display()));
    let seen = seen(&out);
    for canary in ["KEYRING-CANARY", "BUS-CANARY", "keyring\n", "bus-address\n"] {
        assert!(!seen.contains(canary), "{canary:?} visible in the box: {seen}");
    }
}

/// The user's configuration folder where `XDG_CONFIG_HOME` puts it outside the home (gh's token,
/// git's credentials live there): absent in the box as the home's own would be.
pub(super) fn a_config_folder_outside_the_home_is_hidden() {
    let t = tree();
    let config = PathBuf::from(std::env::var_os("XDG_CONFIG_HOME").expect("XDG_CONFIG_HOME"));
    put(&config, "gh/hosts.yml", "GH-TOKEN-CANARY");
    put(&config, "git/credentials", "GIT-CREDENTIALS-CANARY");
    let out = boxed(&t.policy(), &format!("cat {0}/gh/hosts.yml {0}/git/credentials", config.display()));
    let seen = seen(&out);
    for canary in ["GH-TOKEN-CANARY", "GIT-CREDENTIALS-CANARY"] {
        assert!(!seen.contains(canary), "{canary} visible in the box: {seen}");
    }
}

/// Another user's home in `/home` is absent, as is the system bus's folder (CI runs as root, so
/// the case can make a home there; elsewhere it says why it cannot run).
pub(super) fn other_users_homes_and_the_system_bus_are_absent() {
    let t = tree();
    // One fixed folder, left in place: the boxes of the cases running beside this one hide it too,
    // and one removed under them would be a folder they were drawn with and no longer find.
    let other = PathBuf::from("/home/warden-test-other-user");
    if let Err(error) = std::fs::create_dir_all(&other) {
        panic!("this case makes another user's home in /home, which needs root here: {error}");
    }
    put(&other, "notes.txt", "OTHER-USER-CANARY");
    let out = boxed(&t.policy(), &format!("cat {}/notes.txt; ls /run/dbus", other.display()));
    let seen = seen(&out);
    assert!(!seen.contains("OTHER-USER-CANARY"), "another user's home is readable in the box: {seen}");
    let bus: Vec<String> = std::fs::read_dir("/run/dbus")
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    for name in bus {
        assert!(!seen.contains(&name), "the system bus's folder is in the box ({name}): {seen}");
    }
}

/// The usual layout: the project inside the home. It stays writable, its secrets hidden, and the
/// rest of the home absent.
pub(super) fn a_project_inside_the_home_is_whole() {
    let t = tree();
    let project = t.home.join("src/app");
    std::fs::create_dir_all(&project).expect("mkdir");
    std::fs::write(project.join("main.c"), "int main(void) { return 0; }\n").expect("source");
    if !super::is_landlock() {
        std::fs::write(project.join(".env"), "API_KEY=ENV-CANARY").expect("env");
    }
    put(&t.home, "src/other/secret.txt", "OTHER-PROJECT-CANARY");
    let policy = BoxPolicy::with_home(&project, Some(&t.home), &[]);
    let out = boxed_at_home(
        &policy,
        &t.home,
        "echo built > out.txt && cat out.txt main.c; cat .env ../other/secret.txt ~/src/other/secret.txt",
    );
    let seen = seen(&out);
    assert!(seen.contains("built\nint main"), "{seen}");
    assert_eq!(std::fs::read_to_string(project.join("out.txt")).ok().as_deref(), Some("built\n"));
    assert!(!seen.contains("ENV-CANARY") && !seen.contains("OTHER-PROJECT-CANARY"), "{seen}");
}

/// What the project adds to what the box may read is there, read-only — a known credential file
/// too, as the user's explicit choice, and nothing beside it, also inside a folder the project
/// shows whole; the home itself or `/` is refused, so the rest of the home stays absent.
pub(super) fn paths_the_project_adds_are_read_only_and_never_the_whole_home() {
    let t = work_tree();
    let h = &t.home;
    put(h, "data/ref.txt", "REF-DATA\n");
    put(h, ".aws/config", "AWS-CONFIG-CHOSEN\n");
    put(h, "Documents/notes.txt", "NOTES-CANARY");
    put(h, ".config/app/settings", "APP-SETTINGS\n");
    put(h, ".config/gh/hosts.yml", "GH-HOSTS-CHOSEN\n");
    put(h, ".config/gh/config.yml", "GH-CONFIG-CANARY");
    let chosen: Vec<String> = [
        h.join("data"),
        h.join(".aws/config"),
        h.join(".config"),
        h.join(".config/gh/hosts.yml"),
        h.clone(),
        PathBuf::from("/"),
    ]
    .iter()
    .map(|p| p.display().to_string())
    .collect();
    let policy = t.policy().with_project_choices(false, &[], &chosen, Some(h));
    let out = boxed(
        &policy,
        &format!(
            "cat ~/data/ref.txt ~/.aws/config ~/.aws/credentials ~/Documents/notes.txt ~/.ssh/id_ed25519 \
             ~/.config/app/settings ~/.config/gh/hosts.yml ~/.config/gh/config.yml; {}",
            try_write("data/ref.txt")
        ),
    );
    let seen = seen(&out);
    for want in ["REF-DATA", "AWS-CONFIG-CHOSEN", "APP-SETTINGS", "GH-HOSTS-CHOSEN"] {
        assert!(seen.contains(want), "{want} missing: {seen}");
    }
    assert!(seen.contains("write-refused:data/ref.txt"), "{seen}");
    for canary in ["AWS-CANARY", "NOTES-CANARY", "SSH-KEY-CANARY", "GH-CONFIG-CANARY"] {
        assert!(!seen.contains(canary), "{canary} visible in the box: {seen}");
    }
}
