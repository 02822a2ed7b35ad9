//! Tauri commands: thin adapters from the window to [`crate::state::AppState`] and the engine.
//! One file per resource. Every command returns [`crate::error::CommandError`] on failure.

pub mod app;
pub mod approvals;
pub mod chat;
pub mod checkpoints;
pub mod clipboard;
pub mod conventions;
pub mod conversations;
pub mod hooks;
pub mod instructions;
pub mod keys;
pub mod links;
pub mod mcp;
pub mod project;
pub mod providers;
pub mod remote;
pub mod remote_project;
pub mod remote_saved;
pub mod rules;
pub mod settings;
pub mod usage;

/// Runs the store's file work on the blocking pool, not on the threads that carry the window's
/// events.
pub(crate) async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> crate::error::CommandResult<T> {
    tauri::async_runtime::spawn_blocking(work).await.map_err(|error| {
        crate::error::CommandError::internal(format!("Reading the saved conversations failed: {error}"))
    })
}

/// Every command the window may call, for the tauri-specta builder. A macro because
/// `pick_project_folder` and the app commands are generic over the runtime and the command collector needs it spelled out.
macro_rules! collect_for {
    ($runtime:ty) => {
        tauri_specta::collect_commands![
            chat::chat_send,
            chat::chat_cancel,
            chat::chat_history,
            chat::chat_history_read_only,
            chat::chat_message_stamps,
            chat::chat_compact,
            chat::chat_compaction,
            conversations::chat_list,
            conversations::chat_search,
            conversations::chat_rename,
            conversations::chat_delete,
            conversations::chat_restore,
            conversations::chat_rewind,
            usage::usage_days,
            remote::remote_open::<$runtime>,
            remote::remote_askpass_answer,
            remote::remote_known,
            remote::remote_sandbox_status,
            remote::remote_mcp_status,
            remote::remote_mcp_read_resource,
            remote::remote_conversations,
            remote::remote_instructions_in_use,
            remote_project::remote_project_offers,
            remote_project::remote_hooks_choose,
            remote_project::remote_mcp_choose,
            remote_project::remote_box_notice,
            remote_project::remote_box_notice_dismiss,
            remote_project::remote_conventions,
            remote_saved::remote_search,
            remote_saved::remote_clear_cache_layer,
            remote::remote_forget,
            remote::remote_install_plan,
            remote::remote_install,
            approvals::chat_tool_approve::<$runtime>,
            approvals::chat_grants,
            approvals::chat_grant_revoke,
            checkpoints::checkpoint_list,
            checkpoints::checkpoint_stop_scan,
            checkpoints::checkpoint_changes,
            checkpoints::checkpoint_patch,
            checkpoints::checkpoint_restore_plan,
            checkpoints::checkpoint_restore,
            settings::settings_get,
            settings::settings_set,
            settings::settings_integrity,
            settings::settings_accept_file,
            settings::sandbox_status,
            settings::box_home_notice,
            settings::box_home_notice_dismiss,
            settings::sandbox_clear_cache_layer,
            settings::sandbox_allow_read,
            settings::git_aside_restore,
            settings::tools_catalog,
            keys::keys_status,
            keys::keys_set,
            keys::keys_delete,
            providers::provider_models,
            providers::provider_test,
            providers::provider_readiness,
            links::open_link,
            instructions::instructions_in_use,
            instructions::instructions_open,
            conventions::conventions_list,
            conventions::skill_switch,
            hooks::hooks_project_offer,
            hooks::hooks_project_choose,
            hooks::hooks_check,
            rules::rules_list,
            rules::rules_add,
            rules::rules_remove,
            rules::rules_check,
            rules::rules_import_preview,
            mcp::mcp_status,
            mcp::mcp_parse,
            mcp::mcp_sign_in,
            mcp::mcp_sign_out,
            mcp::mcp_read_resource,
            mcp::mcp_project_offer,
            mcp::mcp_project_choose,
            mcp::mcp_secret_set,
            mcp::mcp_elicit_answer,
            project::pick_project_folder::<$runtime>,
            clipboard::clipboard_image::<$runtime>,
            app::app_info::<$runtime>,
            app::logs_open,
            app::update_check::<$runtime>,
            app::update_install::<$runtime>,
        ]
    };
}

pub fn collect() -> tauri_specta::Commands<tauri::Wry> {
    collect_for!(tauri::Wry)
}

#[cfg(test)]
pub fn collect_mock() -> tauri_specta::Commands<tauri::test::MockRuntime> {
    collect_for!(tauri::test::MockRuntime)
}
