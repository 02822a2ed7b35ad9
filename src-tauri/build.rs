//! Declares Warden's commands to Tauri's ACL, so the webview may call only those the capability
//! grants. The capability (`capabilities/default.json`, its `allow-<command>` permissions) is the
//! one list of command names; a unit test checks it against the commands `src/commands/mod.rs`
//! collects.

use std::path::Path;

const CAPABILITY: &str = "capabilities/default.json";

fn main() {
    println!("cargo:rerun-if-changed={CAPABILITY}");
    let commands = match std::fs::read_to_string(Path::new(CAPABILITY)) {
        Ok(text) => granted_commands(&text),
        Err(err) => panic!("cannot read {CAPABILITY}: {err}"),
    };
    // The manifest wants `'static` names; a build script ends right after, so leaking them is free.
    let commands: &'static [&'static str] =
        Vec::leak(commands.into_iter().map(|name| &*String::leak(name)).collect());
    let attributes =
        tauri_build::Attributes::new().app_manifest(tauri_build::AppManifest::new().commands(commands));
    if let Err(err) = tauri_build::try_build(attributes) {
        // A build script reports failure by panicking; the message is Tauri's own.
        panic!("tauri-build failed: {err:#}");
    }
}

/// `allow-chat-send` → `chat_send`, for every such string in the capability file.
fn granted_commands(capability: &str) -> Vec<String> {
    capability
        .split('"')
        .filter_map(|token| token.strip_prefix("allow-"))
        .map(|name| name.replace('-', "_"))
        .collect()
}
