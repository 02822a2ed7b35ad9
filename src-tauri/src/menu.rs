//! The native menu: File (New conversation, Settings, Quit), Edit (the system's undo, cut, copy,
//! paste and select all, so they work in every field on every platform — macOS has no copy and
//! paste without them), View (Search conversations) and Help (About, Check for updates, Open log
//! folder), each with the shortcut people expect. Items the window handles reach it as the
//! `menu:action` event; Quit (Ctrl/Cmd+Q) ends the app here — an item of our own, as GTK has no
//! predefined one.

use serde::{Deserialize, Serialize};
use specta::Type;
use tauri::menu::{Menu, MenuEvent, MenuItem, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, Runtime};
use tauri_specta::Event as TauriEvent;

/// What a menu item asks the window to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Type)]
#[serde(rename_all = "camelCase")]
pub enum MenuAction {
    NewConversation,
    Settings,
    SearchConversations,
    About,
    CheckForUpdates,
    OpenLogFolder,
}

impl MenuAction {
    const ALL: [Self; 6] = [
        Self::NewConversation,
        Self::Settings,
        Self::SearchConversations,
        Self::About,
        Self::CheckForUpdates,
        Self::OpenLogFolder,
    ];

    /// The menu item's id.
    fn id(self) -> &'static str {
        match self {
            Self::NewConversation => "new-conversation",
            Self::Settings => "settings",
            Self::SearchConversations => "search-conversations",
            Self::About => "about",
            Self::CheckForUpdates => "check-for-updates",
            Self::OpenLogFolder => "open-log-folder",
        }
    }

    fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|action| action.id() == id)
    }

    fn label(self) -> &'static str {
        match self {
            Self::NewConversation => "New Conversation",
            Self::Settings => "Settings…",
            Self::SearchConversations => "Search Conversations…",
            Self::About => "About Warden",
            Self::CheckForUpdates => "Check for Updates…",
            Self::OpenLogFolder => "Open Log Folder",
        }
    }

    fn shortcut(self) -> Option<&'static str> {
        match self {
            Self::NewConversation => Some("CmdOrCtrl+N"),
            Self::Settings => Some("CmdOrCtrl+,"),
            Self::SearchConversations => Some("CmdOrCtrl+K"),
            Self::About | Self::CheckForUpdates | Self::OpenLogFolder => None,
        }
    }
}

/// `menu:action`: the user chose a menu item the window carries out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Type, TauriEvent)]
#[tauri_specta(event_name = "menu:action")]
pub struct MenuActionEvent(pub MenuAction);

/// The Quit item's id.
const QUIT: &str = "quit";

/// The app's menu bar.
pub fn build<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<Menu<R>> {
    let item =
        |action: MenuAction| MenuItem::with_id(app, action.id(), action.label(), true, action.shortcut());
    let file = Submenu::with_items(
        app,
        "&File",
        true,
        &[
            &item(MenuAction::NewConversation)?,
            &PredefinedMenuItem::separator(app)?,
            &item(MenuAction::Settings)?,
            &PredefinedMenuItem::separator(app)?,
            &MenuItem::with_id(app, QUIT, "Quit Warden", true, Some("CmdOrCtrl+Q"))?,
        ],
    )?;
    let edit = Submenu::with_items(
        app,
        "&Edit",
        true,
        &[
            &PredefinedMenuItem::undo(app, None)?,
            &PredefinedMenuItem::redo(app, None)?,
            &PredefinedMenuItem::separator(app)?,
            &PredefinedMenuItem::cut(app, None)?,
            &PredefinedMenuItem::copy(app, None)?,
            &PredefinedMenuItem::paste(app, None)?,
            &PredefinedMenuItem::select_all(app, None)?,
        ],
    )?;
    let view = Submenu::with_items(app, "&View", true, &[&item(MenuAction::SearchConversations)?])?;
    let help = Submenu::with_items(
        app,
        "&Help",
        true,
        &[
            &item(MenuAction::CheckForUpdates)?,
            &item(MenuAction::OpenLogFolder)?,
            &PredefinedMenuItem::separator(app)?,
            &item(MenuAction::About)?,
        ],
    )?;
    Menu::with_items(app, &[&file, &edit, &view, &help])
}

/// A menu item was chosen: Quit ends the app (through its usual exit, which ends every process
/// Warden started); the window's items go to the window.
pub fn on_event<R: Runtime>(app: &AppHandle<R>, event: MenuEvent) {
    if event.id().as_ref() == QUIT {
        app.exit(0);
        return;
    }
    let Some(action) = MenuAction::from_id(event.id().as_ref()) else {
        return;
    };
    if let Err(error) = MenuActionEvent(action).emit(app) {
        tracing::warn!(%error, ?action, "could not pass a menu item to the window");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_its_own_id_and_comes_back_from_it() {
        let mut ids: Vec<&str> = MenuAction::ALL.iter().map(|a| a.id()).collect();
        for action in MenuAction::ALL {
            assert_eq!(MenuAction::from_id(action.id()), Some(action));
        }
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), MenuAction::ALL.len());
        assert_eq!(MenuAction::from_id(QUIT), None, "quitting is the app's, not the window's");
    }

    #[test]
    fn the_shortcuts_are_the_usual_ones_and_never_twice() {
        let shortcuts: Vec<&str> = MenuAction::ALL.iter().filter_map(|a| a.shortcut()).collect();
        assert_eq!(shortcuts, ["CmdOrCtrl+N", "CmdOrCtrl+,", "CmdOrCtrl+K"]);
    }

    #[test]
    fn the_action_reaches_the_window_by_its_camel_case_name() {
        let json = serde_json::to_value(MenuActionEvent(MenuAction::CheckForUpdates)).ok();
        assert_eq!(json, Some(serde_json::json!("checkForUpdates")));
    }
}
