//! Brave Search: `GET {base}/res/v1/web/search?q=…` with `X-Subscription-Token`.

use serde::Deserialize;

use super::html::html_to_text;
use super::{Hit, SearchFailure};
use crate::secrets::ApiKey;

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    web: Option<Web>,
}

#[derive(Deserialize)]
struct Web {
    #[serde(default)]
    results: Vec<Result_>,
}

#[derive(Deserialize)]
struct Result_ {
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    description: Option<String>,
}

#[derive(Deserialize)]
struct ErrorEnvelope {
    error: ErrorBody,
}

#[derive(Deserialize)]
struct ErrorBody {
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    detail: Option<String>,
}

pub(crate) async fn search(
    client: &reqwest::Client,
    base: &str,
    key: &ApiKey,
    query: &str,
    count: usize,
    timeout: std::time::Duration,
) -> Result<Vec<Hit>, SearchFailure> {
    let url = format!("{}/res/v1/web/search", base.trim_end_matches('/'));
    let count = count.to_string();
    let response = client
        .get(&url)
        .query(&[("q", query), ("count", count.as_str())])
        .header("accept", "application/json")
        .header("x-subscription-token", key.expose())
        .timeout(timeout)
        .send()
        .await
        .map_err(|e| SearchFailure(format!("Brave Search is not reachable ({})", e.without_url())))?;
    let status = response.status();
    let body = super::answer_text("Brave", response).await?;
    if !status.is_success() {
        let envelope = serde_json::from_str::<ErrorEnvelope>(&body).ok();
        let code = envelope.as_ref().and_then(|e| e.error.code.clone()).unwrap_or_default();
        let detail =
            envelope.and_then(|e| e.error.detail).unwrap_or_else(|| body.chars().take(200).collect());
        let meaning = match (status.as_u16(), code.as_str()) {
            (422, "SUBSCRIPTION_TOKEN_INVALID") | (401, _) => "the Brave API key is invalid",
            (429, _) => "Brave's rate limit or monthly quota is exhausted; try again later",
            _ => "Brave Search failed",
        };
        return Err(SearchFailure(format!("{meaning} ({status} {code}: {detail})")));
    }
    let parsed: Response = serde_json::from_str(&body)
        .map_err(|e| SearchFailure(format!("Brave's answer was not the expected JSON ({e})")))?;
    Ok(parsed
        .web
        .map(|w| w.results)
        .unwrap_or_default()
        .into_iter()
        .filter(|r| !r.url.is_empty())
        .map(|r| Hit {
            title: html_to_text(&r.title),
            url: r.url,
            snippet: r.description.as_deref().map(html_to_text).unwrap_or_default(),
        })
        .collect())
}
