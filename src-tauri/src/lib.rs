//! Warden's desktop window: the Tauri shell around the engine. Commands in [`commands`], engine
//! events forwarded to the window by [`bridge`], both typed into `src/bindings.ts` by tauri-specta.

mod askpass;
mod attention;
mod bridge;
mod coalesce;
mod commands;
mod elicit;
mod error;
mod events;
mod logs;
mod menu;
mod notify;
mod pace;
mod remote;
mod rendering;
mod restore;
mod state;
mod updates;
mod window;

use std::sync::Arc;

use tauri::Manager;

pub use error::{CommandError, CommandErrorCode};

/// The window's size, place and state, kept by `tauri-plugin-window-state` in the app's config
/// folder.
pub const WINDOW_STATE_FILE: &str = "window-state.json";

/// The typed commands and events of the window; also what `src/bindings.ts` is generated from.
pub fn specta_builder() -> tauri_specta::Builder<tauri::Wry> {
    with_events(tauri_specta::Builder::new().commands(commands::collect()))
}

fn with_events<R: tauri::Runtime>(builder: tauri_specta::Builder<R>) -> tauri_specta::Builder<R> {
    builder
        .events(events::collect())
        // The engine's limits the window checks before it sends (the engine checks again).
        .constant("MAX_IMAGES", warden_core::agent::MAX_IMAGES)
        .constant("MAX_IMAGE_BYTES", warden_core::images::MAX_INPUT_BYTES)
        // Where each provider is reached when its base URL is left empty (an OpenAI-compatible
        // server has no default: the user names it).
        .constant("DEFAULT_BASE_URLS", default_base_urls())
        // The model each provider answers with when the settings name none (an OpenAI-compatible
        // server has no fixed one: the engine takes the server's only model).
        .constant("DEFAULT_MODELS", default_models())
        // Only `serde_json::Value` (tool inputs, metadata) and millisecond timestamps (far below
        // 2^53) hold an i64/u64, and JSON.parse gives JS numbers for them anyway; the protocol's
        // other numeric fields are u32.
        .dangerously_cast_bigints_to_number()
        // One type per payload (not `_Serialize`/`_Deserialize` pairs): simpler for the UI, and
        // optional fields come out as `field?: T | null`, which both directions accept.
        .disable_serde_phases()
}

fn default_base_urls() -> std::collections::BTreeMap<&'static str, &'static str> {
    use warden_core::provider::{anthropic, ollama, openai};
    [
        ("anthropic", anthropic::DEFAULT_BASE_URL),
        ("openai", openai::DEFAULT_BASE_URL),
        ("ollama", ollama::DEFAULT_BASE_URL),
    ]
    .into()
}

fn default_models() -> std::collections::BTreeMap<&'static str, &'static str> {
    use warden_core::engine::default_model;
    use warden_protocol::ProviderId;
    [
        ("anthropic", default_model(ProviderId::Anthropic)),
        ("openai", default_model(ProviderId::Openai)),
        ("ollama", default_model(ProviderId::Ollama)),
    ]
    .into()
}

/// Starts the window.
pub fn run() {
    // First, while this is the only thread: keys given in the environment move into memory and out
    // of the environment block other processes can read; then the process closes itself to
    // same-user processes and adopts what the commands it runs leave behind.
    let scrubbed = warden_core::secrets::env_keys::capture_and_scrub();
    let hardened = warden_core::process_guard::harden_process();
    let reaper = warden_core::process_guard::become_subreaper();
    let home = warden_core::config::WardenHome::from_env();
    logs::init(home.as_ref().ok().map(|home| home.logs_dir()));
    tracing::debug!(scrubbed, "credential variables taken out of the environment");
    if let Err(error) = hardened.and(reaper) {
        tracing::warn!(%error, "could not harden the process or become a subreaper");
    }
    rendering::configure();
    warden_core::containment::probe_in_background();
    let builder = specta_builder();
    let instance = window::instance_id(home.as_ref().ok());
    let plugins = tauri::Builder::default()
        // First: a second start hands over to the window already open and goes.
        .plugin(
            tauri_plugin_single_instance::Builder::new()
                .dbus_id(instance)
                .callback(|app, _args, _cwd| window::bring_forward(app))
                .build(),
        )
        .plugin(tauri_plugin_window_state::Builder::default().with_filename(WINDOW_STATE_FILE).build())
        .plugin(tauri_plugin_updater::Builder::new().build())
        .plugin(tauri_plugin_dialog::init());
    let result = notify::with_plugin(plugins)
        .menu(menu::build)
        .on_menu_event(menu::on_event)
        .manage(updates::PendingUpdate::default())
        .manage(attention::Attention::default())
        .invoke_handler(builder.invoke_handler())
        .setup(move |app| {
            tracing::info!(version = %app.package_info().version, "Warden started");
            builder.mount_events(app);
            // The home read at start (for the log folder and the instance), not read again.
            let home = home.map_err(error::CommandError::from)?;
            let keychain = Arc::new(warden_core::secrets::KeychainStore::default());
            let engine =
                warden_core::engine::Engine::new(home, keychain).map_err(error::CommandError::from)?;
            let sink: Arc<dyn bridge::EventSink> = Arc::new(app.handle().clone());
            let state = state::AppState::new(engine, sink);
            let handle = app.handle().clone();
            state.elicitor.connect(move |request| {
                use tauri_specta::Event as _;
                if let Err(err) = elicit::McpElicitEvent(request).emit(&handle) {
                    tracing::warn!(%err, "could not show an MCP server's form");
                }
            });
            let handle = app.handle().clone();
            state.askpass.connect(move |question| {
                use tauri_specta::Event as _;
                if let Err(err) = question.emit(&handle) {
                    tracing::warn!(%err, "could not show what ssh asks");
                }
            });
            app.manage(state);
            Ok(())
        })
        .build(tauri::generate_context!());
    match result {
        // Leaving: every process Warden started for the model ends with it (MCP servers,
        // background commands), boxed or not.
        Ok(app) => app.run(|_, event| {
            if let tauri::RunEvent::Exit = event {
                warden_core::process_guard::kill_all_descendants();
            }
        }),
        Err(err) => {
            tracing::error!(%err, "Warden could not start");
            std::process::exit(1);
        }
    }
}

#[cfg(test)]
mod bindings_tests;
#[cfg(test)]
mod checkpoint_commands_tests;
#[cfg(test)]
mod commands_tests;
#[cfg(test)]
mod state_tests;
