//! `open_link`: a link from the chat, or a "get a key" page, opens in the system browser — never
//! in the webview, which holds Warden's commands. The window shows the whole address and asks
//! first; here only plain `http(s)` addresses are let through, to a browser started with the
//! credential-stripped environment.

use crate::error::{CommandError, CommandErrorCode, CommandResult};

/// Longer than any address a person would mean to open.
const MAX_LINK: usize = 2048;

#[tauri::command]
#[specta::specta]
pub async fn open_link(url: String) -> CommandResult<()> {
    let url = checked_link(&url).map_err(|why| CommandError::new(CommandErrorCode::InvalidInput, why))?;
    warden_core::opener::open(url).map_err(|error| {
        CommandError::new(CommandErrorCode::Internal, format!("Could not open the browser ({error})."))
    })
}

/// `url` when it is an address a browser should open: `http` or `https`, a host, no spaces or
/// control characters, not absurdly long.
pub fn checked_link(url: &str) -> Result<&str, String> {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return Err("Only web addresses (http or https) are opened.".to_owned());
    };
    if url.len() > MAX_LINK {
        return Err("This address is too long to open.".to_owned());
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("This address has spaces or control characters in it.".to_owned());
    }
    if rest.is_empty() || rest.starts_with('/') {
        return Err("This address names no site.".to_owned());
    }
    Ok(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_web_addresses_pass() {
        for good in [
            "https://console.anthropic.com/settings/keys",
            "http://127.0.0.1:8080/x?y=1",
            "HTTPS://Example.org",
        ] {
            assert_eq!(checked_link(good), Ok(good), "{good}");
        }
        for bad in [
            "file:///etc/passwd",
            "javascript:alert(1)",
            "https://",
            "https:///etc",
            "https://a b",
            "https://a\nb",
            "ftp://example.org",
            "",
        ] {
            assert!(checked_link(bad).is_err(), "{bad:?}");
        }
        assert!(checked_link(&format!("https://a.org/{}", "x".repeat(MAX_LINK))).is_err());
    }
}
