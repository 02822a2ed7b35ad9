//! Declares Warden's commands to Tauri's ACL, so the webview may call only those the capability
//! in `capabilities/default.json` grants (`allow-<command>`). Keep in step with
//! `src/commands/mod.rs` (a unit test checks).

const COMMANDS: &[&str] = &[
    "chat_send",
    "chat_cancel",
    "chat_history",
    "chat_list",
    "chat_rename",
    "chat_delete",
    "chat_tool_approve",
    "settings_get",
    "settings_set",
    "settings_integrity",
    "settings_accept_file",
    "keys_status",
    "keys_set",
    "keys_delete",
    "provider_models",
    "provider_test",
    "ollama_probe",
    "pick_project_folder",
];

fn main() {
    let attributes =
        tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(err) = tauri_build::try_build(attributes) {
        // A build script reports failure by panicking; the message is Tauri's own.
        panic!("tauri-build failed: {err:#}");
    }
}
