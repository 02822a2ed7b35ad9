//! Approvals that find the user: when a tool call asks while the window is not focused, the window
//! asks the window manager for attention (a blinking task-bar entry) and a desktop notification
//! says what is waiting. Nothing is sent while the user is looking at the window. The notification
//! is withdrawn once its question is settled — answered in the window, run, refused, timed out or
//! cancelled — and a click on it brings Warden up on that conversation's card.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::Manager;
use tauri_specta::Event as _;
use warden_protocol::{ApprovalPreview, ToolConfirm};

use crate::notify::{Notice, Notifier};

/// `approval:open`: the user clicked an approval's notification; the window shows that
/// conversation and puts the focus on the card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, tauri_specta::Event)]
#[serde(rename_all = "camelCase")]
#[tauri_specta(event_name = "approval:open")]
pub struct ApprovalOpenEvent {
    pub conversation_id: String,
    pub confirm_id: String,
}

/// The questions a notification was sent for, by their confirm id, and the notifier (started with
/// the first one: no bus connection for a user who never leaves the window).
#[derive(Default)]
pub struct Attention {
    waiting: Mutex<HashMap<String, Waiting>>,
    notifier: Mutex<Option<Notifier>>,
}

/// Which conversation and call a notified question belongs to.
#[derive(Debug, Clone)]
struct Waiting {
    conversation_id: String,
    tool_id: String,
}

impl Attention {
    fn notify<R: tauri::Runtime>(&self, app: &tauri::AppHandle<R>, confirm: &ToolConfirm) {
        let (summary, body) = notification_text(confirm);
        let waiting =
            Waiting { conversation_id: confirm.conversation_id.clone(), tool_id: confirm.tool_id.clone() };
        lock(&self.waiting).insert(confirm.confirm_id.clone(), waiting);
        let notice = Notice {
            key: confirm.confirm_id.clone(),
            summary,
            body,
            lasts: Duration::from_secs(u64::from(confirm.timeout_secs.max(1))),
        };
        let mut notifier = lock(&self.notifier);
        notifier.get_or_insert_with(|| start_notifier(app)).show(notice);
    }

    /// The question `confirm_id` needs nobody any more.
    fn settle(&self, confirm_id: &str) {
        if lock(&self.waiting).remove(confirm_id).is_some() {
            if let Some(notifier) = lock(&self.notifier).as_ref() {
                notifier.withdraw(confirm_id);
            }
        }
    }

    /// Every question of `conversation_id` about the call `tool_id` (its approval, and a network
    /// question it raised while running).
    fn settle_call(&self, conversation_id: &str, tool_id: &str) {
        let settled: Vec<String> = lock(&self.waiting)
            .iter()
            .filter(|(_, w)| w.conversation_id == conversation_id && w.tool_id == tool_id)
            .map(|(id, _)| id.clone())
            .collect();
        for confirm_id in settled {
            self.settle(&confirm_id);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(target_os = "linux")]
fn start_notifier<R: tauri::Runtime>(app: &tauri::AppHandle<R>) -> Notifier {
    Notifier::start(dbus::blocking::Connection::new_session, on_click(app.clone()))
}

#[cfg(not(target_os = "linux"))]
fn start_notifier<R: tauri::Runtime>(app: &tauri::AppHandle<R>) -> Notifier {
    Notifier::for_app(app.clone(), on_click(app.clone()))
}

/// A click on a notification: Warden's window comes up, and the window is told which card.
fn on_click<R: tauri::Runtime>(app: tauri::AppHandle<R>) -> crate::notify::OnClick {
    Box::new(move |confirm_id| {
        let Some(attention) = app.try_state::<Attention>() else { return };
        let Some(waiting) = lock(&attention.waiting).get(&confirm_id).cloned() else { return };
        if let Some(window) = app.get_webview_window("main") {
            let _ = window.unminimize();
            let _ = window.show();
            if let Err(error) = window.set_focus() {
                tracing::debug!(%error, "could not bring the window up");
            }
        }
        let open = ApprovalOpenEvent { conversation_id: waiting.conversation_id, confirm_id };
        if let Err(error) = open.emit(&app) {
            tracing::warn!(%error, "could not tell the window which approval was clicked");
        }
    })
}

/// Called for each approval request the window is sent.
pub fn approval_waiting<R: tauri::Runtime>(app: &tauri::AppHandle<R>, confirm: &ToolConfirm) {
    let Some(window) = app.get_webview_window("main") else { return };
    if window.is_focused().unwrap_or(false) {
        return;
    }
    if let Err(error) = window.request_user_attention(Some(tauri::UserAttentionType::Critical)) {
        tracing::debug!(%error, "could not ask for the user's attention");
    }
    if let Some(attention) = app.try_state::<Attention>() {
        attention.notify(app, confirm);
    }
}

/// The user answered the question `confirm_id` (in the window).
pub fn approval_answered<R: tauri::Runtime>(app: &tauri::AppHandle<R>, confirm_id: &str) {
    if let Some(attention) = app.try_state::<Attention>() {
        attention.settle(confirm_id);
    }
}

/// A call's result came (it ran, was refused, timed out or was cancelled): what it asked is over.
pub fn call_settled<R: tauri::Runtime>(app: &tauri::AppHandle<R>, conversation_id: &str, tool_id: &str) {
    if let Some(attention) = app.try_state::<Attention>() {
        attention.settle_call(conversation_id, tool_id);
    }
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
