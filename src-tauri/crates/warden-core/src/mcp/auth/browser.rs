//! The sign-in page in the user's browser, and the loopback address it sends them back to: a
//! listener on 127.0.0.1 (a port of its own) that takes one `GET /callback?code=…&state=…`,
//! answers with a page saying they can close the tab, and hands the address to the OAuth flow.
//! The browser is the system's ([`crate::opener`]).

use std::time::Duration;

use async_trait::async_trait;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::oauth::Authorizer;

/// How long the sign-in waits for the user to finish in the browser.
const SIGN_IN_WAIT: Duration = Duration::from_secs(300);

pub struct BrowserAuthorizer {
    listener: TcpListener,
    port: u16,
    /// Told the address to open, for the window or the terminal to show too.
    on_page: Box<dyn Fn(&str) + Send + Sync>,
}

impl BrowserAuthorizer {
    pub async fn bind(on_page: impl Fn(&str) + Send + Sync + 'static) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        Ok(Self { listener, port, on_page: Box::new(on_page) })
    }
}

#[async_trait]
impl Authorizer for BrowserAuthorizer {
    fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    async fn authorize(&self, url: &str) -> Result<String, String> {
        (self.on_page)(url);
        open_in_browser(url)?;
        tokio::time::timeout(SIGN_IN_WAIT, self.callback()).await.map_err(|_| {
            format!(
                "the sign-in was not finished in the browser within {} minutes",
                SIGN_IN_WAIT.as_secs() / 60
            )
        })?
    }
}

impl BrowserAuthorizer {
    /// The first request for `/callback`; anything else (a favicon) gets a 404.
    async fn callback(&self) -> Result<String, String> {
        loop {
            let (mut stream, _) = self.listener.accept().await.map_err(|e| e.to_string())?;
            let mut buffer = vec![0u8; 8192];
            let read = match tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer)).await {
                Ok(Ok(read)) => read,
                _ => continue,
            };
            let request = String::from_utf8_lossy(&buffer[..read]);
            let target = request.lines().next().and_then(|line| line.split_whitespace().nth(1)).unwrap_or("");
            if !target.starts_with("/callback") {
                let _ = stream
                    .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
                    .await;
                continue;
            }
            let page = "<!doctype html><meta charset=utf-8><title>Warden</title><p>Signed in. You can close this tab and go back to Warden.";
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = stream.write_all(answer.as_bytes()).await;
            return Ok(format!("http://127.0.0.1:{}{target}", self.port));
        }
    }
}

/// Open `url` in the system browser (only http and https).
fn open_in_browser(url: &str) -> Result<(), String> {
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        return Err(format!("the sign-in page is not a web address: {url}"));
    }
    crate::opener::open(url)
        .map_err(|e| format!("could not open the browser ({}): {e}", crate::opener::opener_program()))
}
