//! Approvals that find the user: when a tool call asks while the window is not focused, the window
//! asks the window manager for attention (a blinking task-bar entry) and a desktop notification
//! says what is waiting. Nothing is sent while the user is looking at the window.

use tauri::Manager;
use warden_protocol::{ApprovalPreview, ToolConfirm};

/// Called for each approval request the window is sent.
pub fn approval_waiting<R: tauri::Runtime>(app: &tauri::AppHandle<R>, confirm: &ToolConfirm) {
    let Some(window) = app.get_webview_window("main") else { return };
    if window.is_focused().unwrap_or(false) {
        return;
    }
    if let Err(error) = window.request_user_attention(Some(tauri::UserAttentionType::Critical)) {
        tracing::debug!(%error, "could not ask for the user's attention");
    }
    let (summary, body) = notification_text(confirm);
    // Off the event path: the bus may be slow or missing, and the card is shown either way.
    let app = app.clone();
    std::thread::spawn(move || {
        if let Err(error) = crate::notify::send(&app, &summary, &body) {
            tracing::debug!(%error, "no desktop notification for the approval");
        }
    });
}

/// What the notification says: which tool waits, on what, and why it asks (one line, control characters out,
/// short enough for any notification bubble).
pub fn notification_text(confirm: &ToolConfirm) -> (String, String) {
    let summary = "Warden is waiting for your approval".to_owned();
    let what = match (&confirm.network, &confirm.preview) {
        (Some(network), _) => format!("Reach {}:{} from the sandbox", network.host, network.port),
        (None, Some(ApprovalPreview::Command { command, .. })) => format!("Run: {command}"),
        (None, Some(ApprovalPreview::Diff { path, .. })) => format!("Change {path}"),
        (None, None) => format!("Use {}", confirm.tool_name),
    };
    let what = match confirm.asked_because {
        Some(step) => format!("{what} · {}", step.words()),
        None => what,
    };
    // Untrusted text: what would reorder or hide part of it is shown, never applied (one rule with
    // the window's, `warden_core::visible`); then one line.
    let shown = warden_core::visible::shown(&what);
    let mut body: String = shown.split_whitespace().collect::<Vec<_>>().join(" ");
    if body.chars().count() > 160 {
        body = body.chars().take(159).collect::<String>() + "…";
    }
    (summary, body)
}

#[cfg(test)]
mod tests {
    use warden_protocol::DangerLevel;

    use super::*;

    fn confirm(preview: Option<ApprovalPreview>) -> ToolConfirm {
        ToolConfirm {
            conversation_id: "c".into(),
            confirm_id: "q".into(),
            message_id: "m".into(),
            tool_id: "t".into(),
            tool_name: "file_write".into(),
            mcp: None,
            input: serde_json::json!({}),
            danger_level: DangerLevel::Dangerous,
            preview,
            timeout_secs: 30,
            reason: None,
            queue: None,
            kind: Default::default(),
            network: None,
            asked_because: None,
            rule: None,
            suggested_rule: None,
        }
    }

    #[test]
    fn a_network_question_names_the_host() {
        let asking = ToolConfirm {
            kind: warden_protocol::ConfirmKind::Network,
            network: Some(warden_protocol::NetworkRequest {
                host: "registry.npmjs.org".into(),
                port: 443,
                reach: None,
            }),
            ..confirm(None)
        };
        assert_eq!(notification_text(&asking).1, "Reach registry.npmjs.org:443 from the sandbox");
    }

    /// A bidi-spoofed command reads in the notification as it runs: the override is shown, not
    /// applied (it was passed through before: U+202E is a format character, not a control).
    #[test]
    fn a_bidi_override_in_a_command_is_shown_not_applied() {
        let spoofed = "echo 'safe listing' # \u{202e}; rm -rf ~ \u{202c}&& ls";
        let command = confirm(Some(ApprovalPreview::Command { command: spoofed.into(), cwd: "/p".into() }));
        let body = notification_text(&command).1;
        assert_eq!(body, "Run: echo 'safe listing' # ⟨U+202E⟩; rm -rf ~ ⟨U+202C⟩&& ls");
        assert!(!body.contains('\u{202e}'));
    }

    #[test]
    fn the_notification_names_what_waits_on_one_clean_short_line() {
        let command = confirm(Some(ApprovalPreview::Command {
            command: "printf 'a\x1b[31mb'\ncargo test".into(),
            cwd: "/srv/p".into(),
        }));
        let (summary, body) = notification_text(&command);
        assert_eq!(summary, "Warden is waiting for your approval");
        assert_eq!(body, "Run: printf 'a⟨U+001B⟩[31mb' cargo test");
        assert!(!body.chars().any(char::is_control));

        let diff = confirm(Some(ApprovalPreview::Diff { path: "src/a.rs".into(), diff: String::new() }));
        assert_eq!(notification_text(&diff).1, "Change src/a.rs");
        assert_eq!(notification_text(&confirm(None)).1, "Use file_write");

        let long = confirm(Some(ApprovalPreview::Command { command: "x".repeat(500), cwd: "/".into() }));
        let body = notification_text(&long).1;
        assert_eq!(body.chars().count(), 160);
        assert!(body.ends_with('…'));
    }
}
