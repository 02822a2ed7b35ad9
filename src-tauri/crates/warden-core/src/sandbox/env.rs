//! The environment a child process gets: Warden's own, minus anything that looks like a credential
//! (by its name, or by a value with a token's full shape: [`super::secret_values`]), minus Warden's
//! own settings (`WARDEN_*`: a command that knows where Warden keeps its settings could rewrite
//! them), and minus the desktop session (the X server, the compositor, the session bus, the
//! agents): a command that finds them can type into other windows or ask the keychain for every
//! secret over the bus. Only the opener, which starts the user's own browser outside any box, gets
//! the display and the bus back ([`opener_env`]).

use std::ffi::{OsStr, OsString};

use super::secret_values::has_secret_shape;

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
    is_credential_var(name) || has_url_password(value) || has_secret_shape(value)
}

/// Where the user's desktop session is: the display servers, the session's buses and folder of
/// sockets. The opener needs them to start the browser; nothing else Warden runs gets them.
const DESKTOP_SESSION: &[&str] = &[
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "WAYLAND_SOCKET",
    "XAUTHORITY",
    "DBUS_SESSION_BUS_ADDRESS",
    "XDG_RUNTIME_DIR",
];

/// The session's agents and services, passed to no child at all: the keys and the keychain
/// (`SSH_AUTH_SOCK`, `GPG_AGENT_INFO` and the like also match a credential marker or the known
/// list), the system bus, the X session manager, the input-method and accessibility buses.
/// `XDG_SESSION_*` stay: a session's type and number, no address.
const SESSION_SERVICES: &[&str] = &[
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "GPG_AGENT_INFO",
    "GNOME_KEYRING_CONTROL",
    "DBUS_SYSTEM_BUS_ADDRESS",
    "SESSION_MANAGER",
    "ICEAUTHORITY",
    "AT_SPI_BUS_ADDRESS",
    "IBUS_ADDRESS",
];

fn is_named(name: &OsStr, list: &[&str]) -> bool {
    let upper = name.to_string_lossy().to_ascii_uppercase();
    list.contains(&upper.as_str())
}

/// Whether a variable locates the user's desktop session or one of its agents.
pub fn is_desktop_session_var(name: &OsStr) -> bool {
    is_named(name, DESKTOP_SESSION) || is_named(name, SESSION_SERVICES)
}

/// Whether a variable is one of Warden's own (`WARDEN_HOME`, `WARDEN_LOG`, …).
pub fn is_warden_var(name: &OsStr) -> bool {
    name.to_string_lossy().to_ascii_uppercase().starts_with("WARDEN_")
}

/// `vars` minus the credentials, Warden's own variables and the desktop session (pass
/// `std::env::vars_os()`).
pub fn sanitized_env(vars: impl IntoIterator<Item = (OsString, OsString)>) -> Vec<(OsString, OsString)> {
    vars.into_iter()
        .filter(|(name, value)| {
            !is_credential(name, value) && !is_warden_var(name) && !is_desktop_session_var(name)
        })
        .collect()
}

/// Warden's current environment, sanitized: what every child process starts with (boxed
/// commands, MCP servers, `warden sandbox`). What the user set for one server is added after it.
pub fn child_env() -> Vec<(OsString, OsString)> {
    sanitized_env(std::env::vars_os())
}

/// `vars` for the opener: [`sanitized_env`] plus the display and the session bus, which the
/// browser it starts needs (the X cookie's location included: a display manager that keeps it
/// elsewhere than `~/.Xauthority` leaves X11 without it otherwise).
pub fn opener_vars(vars: impl IntoIterator<Item = (OsString, OsString)>) -> Vec<(OsString, OsString)> {
    let vars: Vec<(OsString, OsString)> = vars.into_iter().collect();
    let desktop = vars.iter().filter(|(name, _)| is_named(name, DESKTOP_SESSION)).cloned();
    let mut out: Vec<(OsString, OsString)> = desktop.collect();
    out.extend(sanitized_env(vars));
    out
}

/// Warden's current environment for the opener (see [`opener_vars`]).
pub fn opener_env() -> Vec<(OsString, OsString)> {
    opener_vars(std::env::vars_os())
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

    /// Tokens of each shape the scrubber knows, made up here (none is a real credential).
    fn shaped_secrets() -> Vec<(&'static str, String)> {
        let alnum =
            |n: usize| "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC2eF4hJ6kL8nP0rS2uV4xY6".repeat(4)[..n].to_owned();
        let upper = |n: usize| "Q7RX2Z4M6N8P3K5W9Y2B4D6F8H3J5L7".repeat(2)[..n].to_owned();
        let hex = "0123456789abcdef".repeat(4);
        vec![
            ("aws access key", format!("AKIA{}", upper(16))),
            ("github classic", format!("ghp_{}", alnum(36))),
            ("github oauth", format!("gho_{}", alnum(36))),
            ("github user-to-server", format!("ghu_{}", alnum(36))),
            ("github server-to-server", format!("ghs_{}", alnum(36))),
            ("github refresh", format!("ghr_{}", alnum(36))),
            ("github fine-grained", format!("github_pat_{}_{}", alnum(22), alnum(59))),
            ("stripe secret", format!("sk_live_{}", alnum(24))),
            ("stripe restricted", format!("rk_live_{}", alnum(99))),
            ("anthropic", format!("sk-ant-api03-{}-{}AA", alnum(40), alnum(50))),
            ("openai legacy", format!("sk-{}T3BlbkFJ{}", alnum(20), alnum(20))),
            ("openai project", format!("sk-proj-{}_{}", alnum(60), alnum(60))),
            ("gitlab", format!("glpat-{}", alnum(20))),
            ("slack bot", format!("xoxb-123456789012-1234567890123-{}", alnum(24))),
            ("slack user", format!("xoxp-123456789012-1234567890123-1234567890123-{}", alnum(32))),
            ("google api", format!("AIza{}-_{}", alnum(20), alnum(13))),
            ("digitalocean", format!("dop_v1_{hex}")),
            ("webhook signing", format!("whsec_{}", alnum(32))),
            ("jwt", format!("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.{}", alnum(43))),
            ("slack webhook", format!("https://hooks.slack.com/services/T0123ABCD/B0456EFGH/{}", alnum(24))),
            (
                "discord webhook",
                format!("https://discord.com/api/webhooks/123456789012345678/{}-{}", alnum(30), alnum(37)),
            ),
            ("in a header", format!("Bearer eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.{}", alnum(40))),
            ("as a flag", format!("--token=ghp_{}", alnum(36))),
            ("quoted", format!("'AKIA{}'", upper(16))),
        ]
    }

    #[test]
    fn secret_shaped_values_are_stripped_whatever_the_name() {
        for (what, value) in shaped_secrets() {
            let vars = [("PLAIN_SETTING", value.as_str()), ("EDITOR", "vim")];
            assert_eq!(kept(&vars), ["EDITOR"], "{what}: {value} was passed on");
        }
    }

    #[test]
    fn ordinary_values_are_not_mistaken_for_secrets() {
        let long_words = "alpha-beta-gamma-delta-epsilon-zeta-eta-theta-iota-kappa";
        let vars = [
            ("TZ", "Asia/Tokyo"),
            ("LANG", "sk_SK.UTF-8"),
            ("LC_ALL", "sk_SK.UTF-8"),
            ("npm_config_cache", "/x"),
            ("EDITOR", "vim"),
            ("PATH", "/home/u/.cargo/bin:/usr/local/bin:/usr/bin:/bin"),
            ("LS_COLORS", "rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:*.tar=01;31"),
            ("GIT_COMMIT", "0123456789abcdef0123456789abcdef01234567"),
            ("SHELL_WORDS", "ask skim sketch"),
            ("PACKAGE", "sk-learn"),
            ("SK_DIR", "sk-"),
            ("LONG_NAME", long_words),
            ("PROJECT", "sk-hyphenated-project-name-that-goes-on-and-on-for-a-while"),
            ("SLACK_HOME", "https://hooks.slack.com/"),
            ("DISCORD_DOCS", "https://discord.com/developers/docs/resources/webhook"),
            ("NOT_A_JWT", "eyJ.not.a.token"),
            ("VERSIONS", "1.2.3"),
            ("AKIA_LIKE", "AKIA-is-how-aws-keys-start"),
            ("GHP", "ghp_short"),
        ];
        let names: Vec<&str> = vars.iter().map(|(n, _)| *n).collect();
        assert_eq!(kept(&vars), names);
    }

    #[test]
    fn the_desktop_session_is_not_passed_on() {
        let vars = [
            ("DISPLAY", ":0"),
            ("WAYLAND_DISPLAY", "wayland-0"),
            ("XAUTHORITY", "/run/user/1000/gdm/Xauthority"),
            ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus"),
            ("DBUS_SYSTEM_BUS_ADDRESS", "unix:path=/var/run/dbus/system_bus_socket"),
            ("SESSION_MANAGER", "local/host:@/tmp/.ICE-unix/1234,unix/host:/tmp/.ICE-unix/1234"),
            ("XDG_RUNTIME_DIR", "/run/user/1000"),
            ("SSH_AUTH_SOCK", "/run/user/1000/keyring/ssh"),
            ("SSH_AGENT_PID", "1234"),
            ("GPG_AGENT_INFO", "/run/user/1000/gnupg/S.gpg-agent:0:1"),
            ("GNOME_KEYRING_CONTROL", "/run/user/1000/keyring"),
            ("XDG_SESSION_TYPE", "wayland"),
            ("HOME", "/home/u"),
        ];
        assert_eq!(kept(&vars), ["XDG_SESSION_TYPE", "HOME"]);
    }

    #[test]
    fn the_opener_gets_the_display_and_the_bus_but_no_agent_or_secret() {
        let vars = [
            ("DISPLAY", ":0"),
            ("XAUTHORITY", "/run/user/1000/gdm/Xauthority"),
            ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus"),
            ("XDG_RUNTIME_DIR", "/run/user/1000"),
            ("SSH_AUTH_SOCK", "/run/user/1000/keyring/ssh"),
            ("GITHUB_TOKEN", "v"),
            ("PATH", "/usr/bin"),
        ]
        .map(|(n, v)| (OsString::from(n), OsString::from(v)));
        let names: Vec<String> =
            opener_vars(vars).into_iter().map(|(n, _)| n.to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "PATH"]);
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
