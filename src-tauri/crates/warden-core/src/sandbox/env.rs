//! The environment a child process gets: Warden's own, minus anything that looks like a credential.

use std::ffi::{OsStr, OsString};

/// Substrings (upper case) that mark a variable as a credential.
const CREDENTIAL_MARKERS: &[&str] = &["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH"];

/// Provider and service credentials Warden knows by name, also when they do not match a marker.
pub const KNOWN_CREDENTIAL_VARS: &[&str] = &[
    "ANTHROPIC_API_KEY",
    "ANTHROPIC_AUTH_TOKEN",
    "OPENAI_API_KEY",
    "OPENAI_ORG_ID",
    "OPENROUTER_API_KEY",
    "GROQ_API_KEY",
    "MINIMAX_API_KEY",
    "OLLAMA_API_KEY",
    "BRAVE_API_KEY",
    "BRAVE_SEARCH_API_KEY",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "HF_TOKEN",
    "NPM_TOKEN",
    "CARGO_REGISTRY_TOKEN",
    "DATABASE_URL",
    "SSH_AUTH_SOCK",
    "GPG_AGENT_INFO",
];

/// Whether a variable name looks like it carries a credential.
pub fn is_credential_var(name: &OsStr) -> bool {
    let upper = name.to_string_lossy().to_ascii_uppercase();
    CREDENTIAL_MARKERS.iter().any(|marker| upper.contains(marker))
        || KNOWN_CREDENTIAL_VARS.iter().any(|known| upper == *known)
}

/// `vars` minus the credentials (pass `std::env::vars_os()`).
pub fn sanitized_env(vars: impl IntoIterator<Item = (OsString, OsString)>) -> Vec<(OsString, OsString)> {
    vars.into_iter().filter(|(name, _)| !is_credential_var(name)).collect()
}

/// Warden's current environment, sanitized: what every child process starts with.
pub fn child_env() -> Vec<(OsString, OsString)> {
    sanitized_env(std::env::vars_os())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_stripped_and_the_rest_kept() {
        let vars = [
            "PATH",
            "HOME",
            "FOO_API_KEY",
            "github_token",
            "MY_SECRET",
            "DB_PASSWORD",
            "DATABASE_URL",
            "SSH_AUTH_SOCK",
            "LANG",
        ]
        .map(|n| (OsString::from(n), OsString::from("v")));
        let kept: Vec<String> =
            sanitized_env(vars).into_iter().map(|(n, _)| n.to_string_lossy().into_owned()).collect();
        assert_eq!(kept, ["PATH", "HOME", "LANG"]);
    }
}
