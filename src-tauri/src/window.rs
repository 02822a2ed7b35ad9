//! The main window as one instance: starting Warden again brings the open window forward (shown,
//! unminimised, focused) instead of opening a second Warden on the same settings and store.

use sha2::{Digest, Sha256};
use tauri::{AppHandle, Manager, Runtime};
use warden_core::config::WardenHome;

/// The main window's label (`tauri.conf.json`).
pub const MAIN: &str = "main";
/// The app's identifier (`tauri.conf.json`), needed before the app and its config exist.
const IDENTIFIER: &str = "dev.warden.app";

/// The name the running instance is found by (a D-Bus name on Linux): the app's identifier,
/// plus a hash of its settings folder when `WARDEN_HOME` points elsewhere, so a Warden with
/// another home (another profile, a test run) is an instance of its own.
pub fn instance_id(home: Option<&WardenHome>) -> String {
    let base = IDENTIFIER;
    match (home, WardenHome::from_platform_dirs()) {
        (Some(home), Some(default)) if home.config_dir() != default.config_dir() => {
            let digest = Sha256::digest(home.config_dir().to_string_lossy().as_bytes());
            format!("{base}.home_{}", hex_prefix(&digest))
        }
        _ => base.to_owned(),
    }
}

fn hex_prefix(digest: &[u8]) -> String {
    digest.iter().take(6).map(|b| format!("{b:02x}")).collect()
}

/// Shows, unminimises and focuses the main window.
pub fn bring_forward<R: Runtime>(app: &AppHandle<R>) {
    let Some(window) = app.get_webview_window(MAIN) else {
        return;
    };
    let shown = window.show().and_then(|()| window.unminimize()).and_then(|()| window.set_focus());
    if let Err(error) = shown {
        tracing::warn!(%error, "could not bring the window forward for a second start");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_home_is_another_instance_and_the_same_home_the_same() {
        let a = WardenHome::at("/tmp/warden-a");
        let b = WardenHome::at("/tmp/warden-b");
        assert_eq!(instance_id(Some(&a)), instance_id(Some(&WardenHome::at("/tmp/warden-a"))));
        assert_ne!(instance_id(Some(&a)), instance_id(Some(&b)));
        assert!(instance_id(Some(&a)).starts_with("dev.warden.app.home_"));
    }

    #[test]
    fn the_identifier_is_the_apps() {
        let config =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tauri.conf.json")).unwrap();
        let config: serde_json::Value = serde_json::from_str(&config).unwrap();
        assert_eq!(config["identifier"], IDENTIFIER);
    }

    #[test]
    fn the_usual_home_is_the_plain_identifier() {
        if let Some(default) = WardenHome::from_platform_dirs() {
            assert_eq!(instance_id(Some(&default)), "dev.warden.app");
        }
        assert_eq!(instance_id(None), "dev.warden.app");
    }

    #[test]
    fn the_id_is_a_valid_dbus_name_element() {
        let id = instance_id(Some(&WardenHome::at("/tmp/ü ber/'quote\"")));
        assert!(id
            .split('.')
            .all(|part| part.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')));
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_'), "{id}");
    }
}
