//! The environment a child process gets: Warden's own, minus anything that looks like a credential
//! and minus Warden's own settings (`WARDEN_*`: a command that knows where Warden keeps its settings
//! could rewrite them).

use std::ffi::{OsStr, OsString};

/// Substrings (upper case) that mark a variable's name as a credential.
const CREDENTIAL_MARKERS: &[&str] = &[
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "PASS",
    "PWD",
    "CREDENTIAL",
    "AUTH",
    "COOKIE",
    "CONNECTION_STRING",
    "SERVICE_ACCOUNT",
    "PRIVATE",
];

/// Names that contain a marker but carry no secret, kept as they are.
const NOT_CREDENTIALS: &[&str] = &["PWD", "OLDPWD", "PASSWORD_STORE_DIR", "KEYTIMEOUT"];

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
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AZURE_CLIENT_ID",
    "AZURE_TENANT_ID",
    "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "HF_TOKEN",
    "NPM_TOKEN",
    "CARGO_REGISTRY_TOKEN",
    "DATABASE_URL",
    "REDIS_URL",
    "MONGODB_URI",
    "SSH_AUTH_SOCK",
    "GPG_AGENT_INFO",
];

/// Whether a variable name looks like it carries a credential.
pub fn is_credential_var(name: &OsStr) -> bool {
    let upper = name.to_string_lossy().to_ascii_uppercase();
    if NOT_CREDENTIALS.contains(&upper.as_str()) {
        return false;
    }
    CREDENTIAL_MARKERS.iter().any(|marker| upper.contains(marker))
        || upper.ends_with("_DSN")
        || upper == "DSN"
        || KNOWN_CREDENTIAL_VARS.iter().any(|known| upper == *known)
}

/// Whether a value holds a password in a URL (`postgres://user:pw@host/db`,
/// `https://key:secret@sentry.io/1`), whatever the variable is called.
pub fn has_url_password(value: &OsStr) -> bool {
    let value = value.to_string_lossy();
    value.split_whitespace().any(|word| {
        let Some((_, rest)) = word.split_once("://") else { return false };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        authority.rsplit_once('@').is_some_and(|(userinfo, _)| userinfo.contains(':'))
    })
}

/// Whether a variable is a credential, by its name or by its value.
pub fn is_credential(name: &OsStr, value: &OsStr) -> bool {
    is_credential_var(name) || has_url_password(value)
}

/// Whether a variable is one of Warden's own (`WARDEN_HOME`, `WARDEN_LOG`, …).
pub fn is_warden_var(name: &OsStr) -> bool {
    name.to_string_lossy().to_ascii_uppercase().starts_with("WARDEN_")
}

/// `vars` minus the credentials and Warden's own variables (pass `std::env::vars_os()`).
pub fn sanitized_env(vars: impl IntoIterator<Item = (OsString, OsString)>) -> Vec<(OsString, OsString)> {
    vars.into_iter().filter(|(name, value)| !is_credential(name, value) && !is_warden_var(name)).collect()
}

/// Warden's current environment, sanitized: what every child process starts with.
pub fn child_env() -> Vec<(OsString, OsString)> {
    sanitized_env(std::env::vars_os())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(vars: &[(&str, &str)]) -> Vec<String> {
        let vars = vars.iter().map(|(n, v)| (OsString::from(n), OsString::from(v)));
        sanitized_env(vars).into_iter().map(|(n, _)| n.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn credentials_are_stripped_and_the_rest_kept() {
        let vars = [
            ("PATH", "/usr/bin"),
            ("HOME", "/home/u"),
            ("PWD", "/home/u/project"),
            ("OLDPWD", "/home/u"),
            ("LANG", "C.UTF-8"),
            ("EDITOR", "vim"),
            ("HTTP_PROXY_HOST", "proxy.local"),
            ("SITE_URL", "https://example.com/path@v2"),
            ("GIT_URL", "git@github.com:owner/repo.git"),
            ("FOO_API_KEY", "v"),
            ("github_token", "v"),
            ("MY_SECRET", "v"),
            ("DB_PASSWORD", "v"),
            ("MYSQL_PWD", "v"),
            ("PGPASS", "v"),
            ("SMTP_PASS", "v"),
            ("SENTRY_DSN", "https://abc@o1.ingest.sentry.io/1"),
            ("DATABASE_URL", "postgres://u:pw@h/db"),
            ("UPSTREAM", "amqp://guest:guest@localhost:5672/"),
            ("AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=https;AccountKey=x"),
            ("AWS_ACCESS_KEY_ID", "AKIA"),
            ("GCP_SERVICE_ACCOUNT_JSON", "{}"),
            ("SSH_AUTH_SOCK", "/tmp/agent"),
            ("WARDEN_HOME", "/home/u/.warden"),
            ("WARDEN_LOG", "debug"),
        ];
        assert_eq!(
            kept(&vars),
            ["PATH", "HOME", "PWD", "OLDPWD", "LANG", "EDITOR", "HTTP_PROXY_HOST", "SITE_URL", "GIT_URL"]
        );
    }

    #[test]
    fn passwords_in_urls_are_found_whatever_the_name() {
        for v in ["postgres://u:pw@h/db", "x https://a:b@c", "redis://:secret@localhost:6379"] {
            assert!(has_url_password(OsStr::new(v)), "{v}");
        }
        for v in ["https://example.com/a@b", "git@github.com:o/r.git", "https://user@host/", "plain"] {
            assert!(!has_url_password(OsStr::new(v)), "{v}");
        }
    }
}
