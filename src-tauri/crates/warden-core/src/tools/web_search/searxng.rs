//! SearXNG's JSON API: `GET {url}/search?q=…&format=json`.

use serde::Deserialize;

use super::{Hit, SearchFailure};

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    results: Vec<Result_>,
    #[serde(default)]
    unresponsive_engines: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct Result_ {
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    content: Option<String>,
}

/// The hits, and the engines SearXNG reported as unresponsive.
pub(crate) async fn search(
    client: &reqwest::Client,
    base: &str,
    query: &str,
    timeout: std::time::Duration,
) -> Result<(Vec<Hit>, Vec<String>), SearchFailure> {
    let url = format!("{}/search", base.trim_end_matches('/'));
    let response = client
        .get(&url)
        .query(&[("q", query), ("format", "json")])
        .header("accept", "application/json")
        .timeout(timeout)
        .send()
        .await
        .map_err(|e| SearchFailure(format!("SearXNG at {base} is not reachable ({e})")))?;
    let status = response.status();
    let is_html = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("html"));
    let body = super::answer_text("SearXNG", response).await?;
    if status == reqwest::StatusCode::FORBIDDEN {
        let hint = if is_html || body.trim_start().starts_with('<') {
            "its JSON API is disabled: add `json` to `search: formats:` in SearXNG's settings.yml (the default is html only)"
        } else {
            "access was refused"
        };
        return Err(SearchFailure(format!("SearXNG answered 403 Forbidden: {hint}")));
    }
    if !status.is_success() {
        let detail = serde_json::from_str::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_owned))
            .unwrap_or_else(|| body.chars().take(200).collect());
        return Err(SearchFailure(format!("SearXNG answered {status}: {detail}")));
    }
    let parsed: Response = serde_json::from_str(&body)
        .map_err(|e| SearchFailure(format!("SearXNG's answer was not the expected JSON ({e})")))?;
    let hits = parsed
        .results
        .into_iter()
        .filter(|r| !r.url.is_empty())
        .map(|r| Hit { title: r.title, url: r.url, snippet: r.content.unwrap_or_default() })
        .collect();
    let unresponsive = parsed
        .unresponsive_engines
        .iter()
        .filter_map(|e| match e {
            serde_json::Value::Array(parts) => {
                let parts: Vec<&str> = parts.iter().filter_map(|p| p.as_str()).collect();
                Some(parts.join(": "))
            }
            serde_json::Value::String(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    Ok((hits, unresponsive))
}
