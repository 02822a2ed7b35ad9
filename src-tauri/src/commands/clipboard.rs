//! `clipboard_image`: the picture on the system clipboard, read from Rust.
//!
//! WebKitGTK hands the page's paste event no data when the clipboard holds only an image (no
//! types, no files), so Ctrl+V of a screenshot would do nothing. The window asks for the image
//! here when a paste carried nothing; GTK reads the clipboard on the main thread. The bytes are
//! checked by the window as any attached image is, and by the engine again when sent.

use base64::Engine as _;
use serde::Serialize;
use specta::Type;
use tauri::{AppHandle, Runtime};

use crate::error::{CommandError, CommandErrorCode, CommandResult};

/// An image the clipboard offered, as the window attaches it.
#[derive(Debug, Clone, Serialize, Type)]
#[serde(rename_all = "camelCase")]
pub struct ClipboardImage {
    /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
    pub media_type: String,
    /// The image's bytes, base64.
    pub data: String,
}

/// How long the application that owns the clipboard has to hand its image over.
const OWNER_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// The image on the system clipboard; `None` when it holds none.
#[tauri::command]
#[specta::specta]
pub async fn clipboard_image<R: Runtime>(app: AppHandle<R>) -> CommandResult<Option<ClipboardImage>> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    read_on_main_thread(&app, tx)?;
    let read = tokio::time::timeout(OWNER_WAIT, rx).await.map_err(|_| {
        CommandError::new(
            CommandErrorCode::Internal,
            "The application holding the clipboard did not hand over its image in time.",
        )
    })?;
    let image = read.map_err(|_| CommandError::internal("Reading the clipboard stopped unexpectedly."))?;
    image.map(checked).transpose()
}

/// What the clipboard held: the media type and bytes of an image, or nothing.
type Read = Option<(String, Vec<u8>)>;

/// Refuses an image the engine would refuse for its size, in words; encodes the rest.
fn checked((media_type, bytes): (String, Vec<u8>)) -> CommandResult<ClipboardImage> {
    let limit = warden_core::images::MAX_INPUT_BYTES;
    if bytes.len() > limit {
        return Err(CommandError::new(
            CommandErrorCode::InvalidInput,
            format!("The image on the clipboard is larger than {} MB.", limit / (1024 * 1024)),
        ));
    }
    Ok(ClipboardImage { media_type, data: base64::engine::general_purpose::STANDARD.encode(bytes) })
}

/// The kinds the engine sends to models, in the order a clipboard's offer is taken.
const SENT_KINDS: [&str; 4] = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/// Which of the clipboard's offered targets to ask for: one of the kinds sent as they are, else
/// any other image (converted to PNG), else none.
#[derive(Debug, PartialEq, Eq)]
enum Pick {
    AsIs(&'static str),
    Convert,
    Nothing,
}

fn pick(offered: &[String]) -> Pick {
    if let Some(kind) = SENT_KINDS.iter().find(|kind| offered.iter().any(|o| o == *kind)) {
        return Pick::AsIs(kind);
    }
    if offered.iter().any(|o| o.starts_with("image/")) {
        return Pick::Convert;
    }
    Pick::Nothing
}

#[cfg(target_os = "linux")]
fn read_on_main_thread<R: Runtime>(
    app: &AppHandle<R>,
    tx: tokio::sync::oneshot::Sender<Read>,
) -> CommandResult<()> {
    app.run_on_main_thread(move || gtk_read(tx))
        .map_err(|error| CommandError::internal(format!("The clipboard could not be read ({error}).")))
}

/// Asks GTK which targets the clipboard offers, then for the chosen one; answers through `tx`.
/// Asynchronous requests: the main loop keeps drawing while the owner answers.
#[cfg(target_os = "linux")]
fn gtk_read(tx: tokio::sync::oneshot::Sender<Read>) {
    use gtk::{gdk, Clipboard};
    let clipboard = Clipboard::get(&gdk::SELECTION_CLIPBOARD);
    clipboard.request_contents(&gdk::Atom::intern("TARGETS"), move |clipboard, offer| {
        let targets = offer.targets().unwrap_or_default();
        let offered: Vec<String> = targets.iter().map(|atom| atom.name().to_string()).collect();
        match pick(&offered) {
            Pick::AsIs(kind) => clipboard.request_contents(&gdk::Atom::intern(kind), move |_, data| {
                let bytes = data.data();
                let _ = tx.send((!bytes.is_empty()).then(|| (kind.to_owned(), bytes)));
            }),
            Pick::Convert => clipboard.request_image(move |_, pixbuf| {
                let png = pixbuf.and_then(|p| p.save_to_bufferv("png", &[]).ok());
                let _ = tx.send(png.map(|bytes| ("image/png".to_owned(), bytes)));
            }),
            Pick::Nothing => {
                let _ = tx.send(None);
            }
        }
    });
}

#[cfg(not(target_os = "linux"))]
fn read_on_main_thread<R: Runtime>(
    _app: &AppHandle<R>,
    _tx: tokio::sync::oneshot::Sender<Read>,
) -> CommandResult<()> {
    // Other webviews hand the paste event its files; this path is not needed there.
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(targets: &[&str]) -> Vec<String> {
        targets.iter().map(|t| (*t).to_owned()).collect()
    }

    #[test]
    fn a_kind_the_engine_sends_is_taken_as_it_is_and_png_first() {
        assert_eq!(pick(&offer(&["TARGETS", "image/jpeg", "image/png"])), Pick::AsIs("image/png"));
        assert_eq!(pick(&offer(&["image/gif"])), Pick::AsIs("image/gif"));
    }

    #[test]
    fn another_image_kind_is_converted_and_text_is_not_an_image() {
        assert_eq!(pick(&offer(&["image/bmp", "TARGETS"])), Pick::Convert);
        assert_eq!(pick(&offer(&["UTF8_STRING", "text/plain"])), Pick::Nothing);
        assert_eq!(pick(&[]), Pick::Nothing);
    }

    #[test]
    fn an_image_over_the_engines_limit_is_refused_in_words() {
        let limit = warden_core::images::MAX_INPUT_BYTES;
        let Err(error) = checked(("image/png".to_owned(), vec![0; limit + 1])) else {
            panic!("an image over the limit was taken");
        };
        assert!(error.message.contains("larger than"), "{}", error.message);
        let fine = checked(("image/png".to_owned(), vec![1, 2, 3])).map(|i| i.data);
        assert_eq!(fine.ok().as_deref(), Some("AQID"));
    }
}
