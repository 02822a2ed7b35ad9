//! The settings store keeps what it does not understand, survives concurrent writers, and gives
//! every project its own storage (issue "Nothing lost", items 3, 4 and 5).

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Value};
use warden_protocol::{ProviderId, Settings, TrustLevel};

use super::*;

fn home() -> (tempfile::TempDir, WardenHome, SealKey) {
    let dir = tempfile::tempdir().unwrap();
    let home = WardenHome::at(dir.path());
    (dir, home, SealKey::random())
}

fn write_json(home: &WardenHome, value: &Value) {
    std::fs::write(home.settings_path(), serde_json::to_vec_pretty(value).unwrap()).unwrap();
}

fn file_json(home: &WardenHome) -> Value {
    serde_json::from_slice(&std::fs::read(home.settings_path()).unwrap()).unwrap()
}

/// A file as a newer Warden might write it: a provider, a trust level, a tool permission field and
/// an active provider this build does not know, among values it does.
fn from_a_newer_build() -> Value {
    json!({
        "trustLevel": "paranoid",
        "activeProvider": "gemini",
        "providers": {
            "anthropic": { "model": "claude-x", "baseUrl": "https://a.example" },
            "gemini": { "model": "g1" }
        },
        "projectDir": "/p",
        "toolPermissions": {
            "/p": {
                "allowedTools": ["file_write", "teleport"],
                "writeGlobs": ["src/**"],
                "bashTimeoutSecs": 90,
                "sandbox": "strict"
            }
        },
        "approvalTimeoutSecs": 45,
        "searxngUrl": "http://s.example",
        "theme": "sepia"
    })
}

fn assert_known_values_kept(settings: &Settings) {
    assert_eq!(settings.trust_level, TrustLevel::Guided, "unknown trust level: that field's default");
    assert_eq!(settings.active_provider, ProviderId::Anthropic, "unknown active provider: the default");
    let anthropic = &settings.providers[&ProviderId::Anthropic];
    assert_eq!(anthropic.model.as_deref(), Some("claude-x"));
    assert_eq!(anthropic.base_url.as_deref(), Some("https://a.example"));
    assert_eq!(settings.providers.len(), 1, "the unknown provider is not used");
    assert_eq!(settings.project_dir.as_deref(), Some("/p"));
    let permissions = &settings.tool_permissions["/p"];
    assert_eq!(permissions.allowed_tools, Some(vec!["file_write".to_owned(), "teleport".to_owned()]));
    assert_eq!(permissions.write_globs, vec!["src/**".to_owned()]);
    assert_eq!(permissions.bash_timeout_secs, 90);
    assert_eq!(settings.approval_timeout_secs, 45);
    assert_eq!(settings.searxng_url, "http://s.example");
    assert_eq!(settings.theme, warden_protocol::Theme::System, "unknown theme: the default");
}

#[test]
fn config_unknown_providers_and_enum_values_load_with_everything_else_intact() {
    let (_dir, home, key) = home();
    write_json(&home, &from_a_newer_build());
    assert_known_values_kept(&home.load_settings().unwrap());
    assert!(home.settings_path().exists(), "the file is not moved aside");
    home.accept_file(&key).unwrap();
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Trusted);
    assert_known_values_kept(&loaded.settings);
    let notice = loaded.notice.unwrap();
    for part in ["trustLevel", "activeProvider", "providers.gemini", "theme"] {
        assert!(notice.contains(part), "the window is told what is not used: {notice}");
    }
    assert!(!notice.contains("sandbox"), "a field this build does not have is not news: {notice}");
}

#[test]
fn config_saving_keeps_what_this_build_does_not_understand() {
    let (_dir, home, key) = home();
    write_json(&home, &from_a_newer_build());
    home.accept_file(&key).unwrap();
    let mut settings = home.load_sealed(Ok(&key)).unwrap().settings;
    settings.approval_timeout_secs = 50;
    settings.providers.entry(ProviderId::Ollama).or_default().model = Some("llama".into());
    home.save_sealed(&settings, &key).unwrap();

    let file = file_json(&home);
    assert_eq!(file["providers"]["gemini"], json!({ "model": "g1" }), "unknown provider kept");
    assert_eq!(file["providers"]["ollama"]["model"], "llama");
    assert_eq!(file["toolPermissions"]["/p"]["sandbox"], "strict", "unknown field kept");
    assert_eq!(file["trustLevel"], "paranoid", "an unknown value the user did not change is kept");
    assert_eq!(file["activeProvider"], "gemini");
    assert_eq!(file["approvalTimeoutSecs"], 50);
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Trusted);
    assert_eq!(loaded.settings, settings);

    // A value the user changes replaces the unknown one.
    let mut settings = loaded.settings;
    settings.trust_level = TrustLevel::Supervised;
    home.save_sealed(&settings, &key).unwrap();
    assert_eq!(file_json(&home)["trustLevel"], "supervised");
    // The unsealed writer keeps them too.
    home.save_settings(&settings).unwrap();
    assert_eq!(file_json(&home)["providers"]["gemini"], json!({ "model": "g1" }));
}

#[test]
fn config_an_untrusted_files_unknown_parts_are_not_sealed() {
    let (_dir, home, key) = home();
    write_json(&home, &from_a_newer_build());
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Untrusted);
    home.save_sealed(&loaded.settings, &key).unwrap();
    let file = file_json(&home);
    assert_eq!(file["trustLevel"], "guided", "nothing of a file Warden did not write gets Warden's seal");
    assert!(file["providers"].get("gemini").is_none());
    assert!(file.get("version").is_some());
}

#[test]
fn config_an_unversioned_file_migrates_to_the_current_version_and_keeps_every_value() {
    let (_dir, home, key) = home();
    let mut old =
        Settings { trust_level: TrustLevel::Autonomous, approval_timeout_secs: 12, ..Settings::default() };
    old.project_dir = Some("/home/u/app".into());
    old.providers.entry(ProviderId::OpenaiCompatible).or_default().base_url = Some("http://llm".into());
    old.tool_permissions.insert(
        "/home/u/app".into(),
        warden_protocol::ToolPermissions { allowed_tools: Some(vec!["bash".into()]), ..Default::default() },
    );
    // What a build before versions wrote: the settings as they serialise, no "version".
    let v0 = serde_json::to_value(&old).unwrap();
    assert!(v0.get("version").is_none());
    write_json(&home, &v0);

    // Untrusted: read (migrated in memory), the file left as it is.
    let before = std::fs::read(home.settings_path()).unwrap();
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Untrusted);
    assert_eq!(std::fs::read(home.settings_path()).unwrap(), before, "an untrusted file is not rewritten");

    // Trusted: migrated, rewritten and resealed.
    home.accept_file(&key).unwrap();
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!((loaded.settings, loaded.integrity, loaded.notice), (old.clone(), Integrity::Trusted, None));
    assert_eq!(file_json(&home)["version"], json!(SETTINGS_VERSION));
    assert_eq!(home.load_sealed(Ok(&key)).unwrap().integrity, Integrity::Trusted, "resealed");
    assert_eq!(home.load_settings().unwrap(), old);
}

#[test]
fn config_a_file_from_a_newer_version_loads_and_keeps_its_extra_fields() {
    let (_dir, home, key) = home();
    write_json(
        &home,
        &json!({
            "version": 99,
            "trustLevel": "supervised",
            "telepathy": { "enabled": true },
            "providers": { "ollama": { "model": "llama", "temperature": 0.2 } }
        }),
    );
    home.accept_file(&key).unwrap();
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Trusted);
    assert_eq!(loaded.settings.trust_level, TrustLevel::Supervised);
    assert_eq!(loaded.settings.providers[&ProviderId::Ollama].model.as_deref(), Some("llama"));
    assert!(loaded.notice.as_deref().unwrap().contains("newer version of Warden (format 99"));

    let mut settings = loaded.settings;
    settings.approval_timeout_secs = 99;
    home.save_sealed(&settings, &key).unwrap();
    let file = file_json(&home);
    assert_eq!(file["version"], 99, "a newer file keeps its version");
    assert_eq!(file["telepathy"], json!({ "enabled": true }));
    assert_eq!(file["providers"]["ollama"]["temperature"], 0.2);
    assert_eq!(file["approvalTimeoutSecs"], 99);
    assert_eq!(home.load_sealed(Ok(&key)).unwrap().settings, settings);
}

#[test]
fn config_unreadable_files_are_all_kept_aside() {
    let (dir, home, key) = home();
    std::fs::write(home.settings_path(), "{ first").unwrap();
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.settings, Settings::default());
    let notice = loaded.notice.unwrap();
    assert!(notice.contains("could not be read") && notice.contains("settings.json.invalid"), "{notice}");
    std::fs::write(home.settings_path(), "[\"second\"]").unwrap();
    assert_eq!(home.load_settings().unwrap(), Settings::default());
    let mut aside: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("settings.json.invalid"))
        .map(|name| std::fs::read_to_string(dir.path().join(name)).unwrap())
        .collect();
    aside.sort();
    assert_eq!(aside, ["[\"second\"]", "{ first"]);
    assert_eq!(home.load_sealed(Ok(&key)).unwrap().notice, None, "said once: the file is gone now");
}

#[test]
fn config_concurrent_saves_never_clash_nor_leave_a_partial_file() {
    const THREADS: u32 = 16;
    // Enough to clash at once without the fix (every writer of the process shared one temporary
    // name); each save flushes four times, so not more.
    const SAVES: u32 = 10;
    let (dir, home, key) = home();
    let home = Arc::new(home);
    let key = Arc::new(key);
    home.save_sealed(&Settings::default(), &key).unwrap();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (home, done) = (Arc::clone(&home), Arc::clone(&done));
        std::thread::spawn(move || {
            let mut reads = 0u32;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let bytes = std::fs::read(home.settings_path()).unwrap();
                serde_json::from_slice::<Settings>(&bytes).unwrap();
                reads += 1;
            }
            reads
        })
    };
    let writers: Vec<_> = (0..THREADS)
        .map(|t| {
            let (home, key) = (Arc::clone(&home), Arc::clone(&key));
            std::thread::spawn(move || {
                for i in 0..SAVES {
                    let mut settings =
                        Settings { approval_timeout_secs: t * 1000 + i, ..Settings::default() };
                    // Long enough that a write is not one syscall's worth.
                    settings.project_dir = Some(format!("/p/{t}/{i}/{}", "x".repeat(20_000)));
                    home.save_sealed(&settings, &key).map_err(|e| e.to_string())?;
                }
                Ok::<(), String>(())
            })
        })
        .collect();
    let results: Vec<_> = writers.into_iter().map(|w| w.join().unwrap()).collect();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
    assert!(results.iter().all(Result::is_ok), "{results:?}");

    let last: Settings = serde_json::from_slice(&std::fs::read(home.settings_path()).unwrap()).unwrap();
    let (t, i) = (last.approval_timeout_secs / 1000, last.approval_timeout_secs % 1000);
    assert!(t < THREADS && i < SAVES);
    assert_eq!(
        last.project_dir,
        Some(format!("/p/{t}/{i}/{}", "x".repeat(20_000))),
        "one whole written version"
    );
    assert_eq!(
        home.load_sealed(Ok(&key)).unwrap().integrity,
        Integrity::Trusted,
        "the seal is of that version"
    );
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.starts_with("settings.json")), "no temporary file left: {names:?}");
}

#[cfg(unix)]
#[test]
fn config_the_settings_file_is_readable_by_the_user_only() {
    use std::os::unix::fs::PermissionsExt;
    let (_dir, home, key) = home();
    home.save_sealed(&Settings::default(), &key).unwrap();
    for path in [home.settings_path(), home.seal_path()] {
        assert_eq!(
            std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600,
            "{}",
            path.display()
        );
    }
}

/// The 32-bit FNV-1a the storage folders were named by until the sha2 prefix.
fn old_fnv(path: &str) -> u32 {
    path.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// Two project paths whose old names were the same folder, `app-a363bff4`: found offline by a
/// birthday search over `/home/u/p<N>/app` (the first collision, after about 245,000 tries).
const COLLIDING: [&str; 2] = ["/home/u/p24358/app", "/home/u/p244800/app"];

#[test]
fn config_projects_whose_old_storage_names_collided_get_their_own_storage() {
    assert_eq!(old_fnv(COLLIDING[0]), old_fnv(COLLIDING[1]));
    assert_eq!(old_fnv(COLLIDING[0]), 0xa363_bff4);
    let (_dir, home, _) = home();
    let a = home.project_dir(Path::new(COLLIDING[0]));
    let b = home.project_dir(Path::new(COLLIDING[1]));
    assert_ne!(a, b);
    for dir in [&a, &b] {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("app-") && name.len() == "app-".len() + 16, "{name}");
    }
}

#[test]
fn config_storage_under_the_old_name_moves_to_the_new_one() {
    let (dir, home, _) = home();
    let old = dir.path().join("projects").join("app-a363bff4");
    std::fs::create_dir_all(old.join("notes")).unwrap();
    std::fs::write(old.join("notes/plan.md"), "keep me").unwrap();

    let new = home.project_dir(Path::new(COLLIDING[0]));
    assert_ne!(new, old);
    assert_eq!(std::fs::read_to_string(new.join("notes/plan.md")).unwrap(), "keep me");
    assert!(!old.exists());
    assert_eq!(home.project_dir(Path::new(COLLIDING[0])), new, "stable");
    // The other project of the old collision starts empty: the shared folder went to the first.
    assert!(!home.project_dir(Path::new(COLLIDING[1])).exists());

    // When both exist the new one is used and the old one left alone.
    std::fs::create_dir_all(&old).unwrap();
    assert_eq!(home.project_dir(Path::new(COLLIDING[0])), new);
    assert!(old.exists() && new.join("notes/plan.md").exists());
}

#[test]
fn config_a_file_warden_did_not_write_names_no_update_server() {
    let (_dir, home, key) = home();
    write_json(
        &home,
        &json!({ "version": 1, "updates": { "checkAtStart": false, "endpoint": "https://updates.example.org/latest.json" } }),
    );
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Untrusted);
    assert_eq!(loaded.settings.updates.endpoint, "", "the build's own server, whatever the file says");
    assert!(!loaded.settings.updates.check_at_start, "not looking is kept: it widens nothing");

    // Written by Warden, the same file is taken as it is.
    home.save_sealed(
        &Settings {
            updates: serde_json::from_value(json!({ "endpoint": "https://u.example/l.json" })).unwrap(),
            ..Settings::default()
        },
        &key,
    )
    .unwrap();
    assert_eq!(home.load_sealed(Ok(&key)).unwrap().settings.updates.endpoint, "https://u.example/l.json");
}

#[test]
fn config_a_file_warden_did_not_write_allows_nothing_and_keeps_its_asks_and_denials() {
    let (_dir, home, key) = home();
    let rules = json!([
        { "effect": "allow", "tool": "network", "pattern": "*" },
        { "effect": "allow", "tool": "network", "pattern": "169.254.169.254" },
        { "effect": "deny", "tool": "network", "pattern": "*.tracker.example" },
        { "effect": "allow", "tool": "bash", "pattern": "sh *" },
        { "effect": "allow", "tool": "write", "pattern": ".github/**" },
        { "effect": "ask", "tool": "bash", "pattern": "git push *" },
    ]);
    // A project's own rules, planted beside them.
    let projects = json!({ "/p": { "permissionRules": [{ "effect": "allow", "tool": "bash" }] } });
    write_json(&home, &json!({ "version": 1, "permissionRules": rules, "toolPermissions": projects }));
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Untrusted);
    let effects: Vec<_> = loaded.settings.permission_rules.iter().map(|r| r.effect).collect();
    assert_eq!(
        effects,
        [warden_protocol::RuleEffect::Deny, warden_protocol::RuleEffect::Ask],
        "only what narrows is kept: {:?}",
        loaded.settings.permission_rules
    );
    assert!(loaded.settings.tool_permissions.is_empty(), "no project's rules either");

    // Written by Warden, the same rules are taken as they are.
    let settings: Settings = serde_json::from_value(json!({ "permissionRules": rules })).unwrap();
    home.save_sealed(&settings, &key).unwrap();
    assert_eq!(home.load_sealed(Ok(&key)).unwrap().settings.permission_rules.len(), 6);
}

/// A file written before model prices existed loads whole, with none; prices saved then come back,
/// and what the file held besides is kept.
#[test]
fn config_a_file_from_before_model_prices_loads_with_none_and_keeps_them_once_saved() {
    let (_dir, home, key) = home();
    write_json(
        &home,
        &json!({ "version": 1, "approvalTimeoutSecs": 45, "theme": "dark", "permissionRules": [] }),
    );
    home.accept_file(&key).unwrap();
    let loaded = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(loaded.integrity, Integrity::Trusted);
    assert_eq!(loaded.notice, None, "nothing in it is left unread");
    assert!(loaded.settings.model_prices.is_empty());
    assert_eq!(loaded.settings.approval_timeout_secs, 45);

    let mut settings = loaded.settings;
    settings.model_prices.insert("my-model".into(), warden_protocol::ModelPrice { input: 0.5, output: 1.5 });
    home.save_sealed(&settings, &key).unwrap();
    assert_eq!(file_json(&home)["modelPrices"], json!({ "my-model": { "input": 0.5, "output": 1.5 } }));
    let again = home.load_sealed(Ok(&key)).unwrap();
    assert_eq!(again.settings, settings);
    assert_eq!(again.settings.theme, warden_protocol::Theme::Dark);
}
