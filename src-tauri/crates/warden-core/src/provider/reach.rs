//! Why a provider could not be reached, in one sentence a person understands and what to check:
//! nothing listening on the port, a host name that does not resolve, a server that does not answer
//! in time, a secure connection that fails. What the HTTP stack itself said (`client error
//! (Connect): tcp connect error: … (os error 111)`) goes to the error's `detail`, never into the
//! sentence.

use std::io::ErrorKind;

use super::ProviderError;

/// Why connecting failed, as far as the error's causes tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Why {
    /// Nothing listens on the port (`ECONNREFUSED`).
    Refused,
    /// The host name does not resolve.
    UnknownHost,
    /// No answer in time (connecting, or the request's head).
    TimedOut,
    /// TLS failed: a certificate refused, or `https://` to a server that speaks plain HTTP.
    Secure,
    /// The server closed or reset the connection before answering.
    Closed,
    /// The answer's body broke off while it was read.
    BrokeWhileReading,
    Other,
}

/// The provider as a sentence names it: its name, or "the model server" for a label of the form
/// "The server at …" (the address is said apart).
fn who(label: &str) -> &str {
    if label.starts_with("The server at ") {
        "the model server"
    } else {
        label
    }
}

/// `host:port` the request went to (the scheme's port when the URL names none).
fn address(error: &reqwest::Error) -> Option<String> {
    let url = error.url()?;
    let host = url.host_str()?;
    Some(match url.port_or_known_default() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    })
}

fn host(error: &reqwest::Error) -> Option<String> {
    error.url().and_then(|url| url.host_str().map(str::to_owned))
}

/// The error with its causes, which is where reqwest keeps the useful part ("connection refused").
pub(crate) fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn why(error: &reqwest::Error) -> Why {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            match io.kind() {
                ErrorKind::ConnectionRefused => return Why::Refused,
                ErrorKind::TimedOut => return Why::TimedOut,
                ErrorKind::ConnectionReset | ErrorKind::ConnectionAborted | ErrorKind::BrokenPipe => {
                    return Why::Closed
                }
                _ => {}
            }
        }
        source = cause.source();
    }
    let chain = error_chain(error).to_lowercase();
    if chain.contains("dns error") || chain.contains("failed to lookup address") {
        Why::UnknownHost
    } else if error.is_timeout() || chain.contains("timed out") {
        Why::TimedOut
    } else if chain.contains("certificate") || chain.contains("tls") || chain.contains("handshake") {
        Why::Secure
    } else if error.is_body() || error.is_decode() {
        Why::BrokeWhileReading
    } else if chain.contains("connection closed") || chain.contains("connection reset") {
        Why::Closed
    } else {
        Why::Other
    }
}

/// A request to the provider (`label`, as [`super::transport::Transport::label`]) that failed in
/// the HTTP stack: a `Network` error saying why in words, the stack's own words in `detail`.
pub(crate) fn unreachable(label: &str, error: &reqwest::Error) -> ProviderError {
    let who = who(label);
    let at = address(error).map_or_else(String::new, |address| format!(" at {address}"));
    let message = match why(error) {
        Why::Refused => format!("Could not reach {who}{at} — nothing is listening there. Is the server running?"),
        Why::UnknownHost => match host(error) {
            Some(host) => format!("Could not find the host {host} — check the address and your connection."),
            None => format!("Could not find the host of {who} — check the address and your connection."),
        },
        Why::TimedOut => format!("{}{at} did not answer in time — check the address and your connection.", capital(who)),
        Why::Secure => format!(
            "Could not make a secure connection to {who}{at} — check that the address starts with https:// only \
             for a server that speaks it."
        ),
        Why::Closed => {
            format!("{}{at} closed the connection before answering — check the address, then try again.", capital(who))
        }
        Why::BrokeWhileReading => {
            format!("The connection to {who}{at} broke before its answer was complete — try again.")
        }
        Why::Other => format!("Could not reach {who}{at} — check the address and your connection."),
    };
    ProviderError::network(message).with_detail(error_chain(error))
}

/// "the model server" → "The model server" at the start of a sentence; a name stays as it is.
fn capital(who: &str) -> String {
    crate::words::capital_first(who)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_of_ones_own_is_the_model_server_and_a_name_stays() {
        assert_eq!(who("The server at http://127.0.0.1:8080/v1"), "the model server");
        assert_eq!(who("Ollama"), "Ollama");
        assert_eq!(capital("the model server"), "The model server");
        assert_eq!(capital("Anthropic"), "Anthropic");
    }
}
