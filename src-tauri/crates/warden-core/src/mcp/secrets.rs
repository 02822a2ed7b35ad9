//! Secrets an MCP server's entry names instead of holding: a value `keychain:NAME` in `env` (stdio)
//! or `headers` (HTTP) is replaced, when the server starts, by the secret NAME that the user kept
//! in the OS keychain (`warden mcp secret NAME`, or Settings → MCP servers). The settings file
//! never holds the token itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::error::McpError;
use crate::secrets::SecretStore;

/// The prefix of a value that names a kept secret.
pub const PREFIX: &str = "keychain:";

fn account(name: &str) -> String {
    format!("mcp-secret/{name}")
}

/// Whether `name` can name a secret: 1–64 letters, digits, `_`, `-`, `.`.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
}

/// Keep `value` as the secret `name`.
pub async fn keep(store: &dyn SecretStore, name: &str, value: &str) -> Result<(), McpError> {
    if !valid_name(name) {
        return Err(McpError::Secret(format!(
            "`{name}` is not a usable secret name (letters, digits, _ - .)"
        )));
    }
    if value.is_empty() {
        return Err(McpError::Secret("the secret is empty".to_owned()));
    }
    crate::secrets::chunked::save(store, &account(name), value)
        .await
        .map_err(|e| McpError::Secret(e.to_string()))
}

/// The secrets `config` names (`keychain:NAME` in its environment, headers or OAuth client).
pub fn named_in(config: &warden_protocol::McpServerConfig) -> std::collections::BTreeSet<String> {
    let oauth = config.oauth.iter().flat_map(|client| {
        let idp = client.idp.iter().flat_map(|idp| [Some(&idp.id_token), idp.client_secret.as_ref()]);
        [client.client_secret.as_ref(), client.private_key.as_ref()].into_iter().chain(idp)
    });
    config
        .env
        .values()
        .chain(config.headers.values())
        .chain(oauth.flatten())
        .filter_map(|value| value.strip_prefix(PREFIX))
        .filter(|name| valid_name(name))
        .map(str::to_owned)
        .collect()
}

/// The secret `name` as kept, if it is.
pub async fn kept(store: &dyn SecretStore, name: &str) -> Result<Option<String>, McpError> {
    crate::secrets::chunked::load(store, &account(name)).await.map_err(|e| McpError::Secret(e.to_string()))
}

/// `values` with every `keychain:NAME` replaced by the kept secret.
pub async fn resolve(
    values: &BTreeMap<String, String>,
    store: Option<&Arc<dyn SecretStore>>,
) -> Result<BTreeMap<String, String>, McpError> {
    let mut resolved = BTreeMap::new();
    for (key, value) in values {
        resolved.insert(key.clone(), resolve_value(key, value, store).await?);
    }
    Ok(resolved)
}

/// `value` of the field `key`, the kept secret when it says `keychain:NAME`.
pub async fn resolve_value(
    key: &str,
    value: &str,
    store: Option<&Arc<dyn SecretStore>>,
) -> Result<String, McpError> {
    let Some(name) = value.strip_prefix(PREFIX) else { return Ok(value.to_owned()) };
    let Some(store) = store else {
        return Err(McpError::Secret(format!(
            "`{key}` names the secret `{name}`, but there is no keychain here"
        )));
    };
    crate::secrets::chunked::load(store.as_ref(), &account(name))
        .await
        .map_err(|e| McpError::Secret(e.to_string()))?
        .ok_or_else(|| {
            McpError::Secret(format!(
                "`{key}` names the secret `{name}`, which is not in the keychain: keep it with \
                 `warden mcp secret {name}` or in Settings → MCP servers"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemoryStore;

    #[tokio::test]
    async fn named_secrets_are_filled_in_and_a_missing_one_is_said() {
        let store: Arc<dyn SecretStore> = Arc::new(MemoryStore::new());
        keep(store.as_ref(), "github", "ghp_secret").await.unwrap();
        let values = BTreeMap::from([
            ("GITHUB_TOKEN".to_owned(), "keychain:github".to_owned()),
            ("PLAIN".to_owned(), "as is".to_owned()),
        ]);
        let resolved = resolve(&values, Some(&store)).await.unwrap();
        assert_eq!(resolved["GITHUB_TOKEN"], "ghp_secret");
        assert_eq!(resolved["PLAIN"], "as is");
        let missing = BTreeMap::from([("X".to_owned(), "keychain:nope".to_owned())]);
        let error = resolve(&missing, Some(&store)).await.unwrap_err().to_string();
        assert!(error.contains("warden mcp secret nope"), "{error}");
        assert!(keep(store.as_ref(), "bad name", "v").await.is_err());
    }
}
