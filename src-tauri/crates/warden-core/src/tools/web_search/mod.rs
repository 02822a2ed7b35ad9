//! `web_search`: SearXNG first (default `http://localhost:8080`), Brave Search as the fallback when a
//! key is set. Results are a numbered list of title, URL and snippet.

mod brave;
mod html;
mod searxng;

use async_trait::async_trait;
use schemars::JsonSchema;
use serde::Deserialize;
use warden_protocol::{DangerLevel, SearchHit, SearchHits, ToolCategory, ToolErrorCode};

use crate::tool::{ToolContext, ToolOutput, TypedTool};

const DEFAULT_RESULTS: usize = 5;
const MAX_RESULTS: usize = 20;

/// Search the web. Returns a numbered list of results with title, URL and a short snippet.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebSearchInput {
    /// What to search for.
    pub query: String,
    /// How many results to return (default 5, at most 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 20))]
    pub max_results: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hit {
    pub title: String,
    pub url: String,
    pub snippet: String,
}

/// Why one search engine gave nothing, in words for the model and the user.
#[derive(Debug, Clone)]
pub(crate) struct SearchFailure(pub String);

/// The most bytes of a search engine's answer read (twenty results are a few KB); an error answer
/// is read up to the providers' error limit.
const MAX_ANSWER: usize = 4 * 1024 * 1024;

/// The text of a search engine's answer (`engine`: "SearXNG", "Brave"), read as it arrives and
/// never past [`MAX_ANSWER`]: a server that sends an endless body is refused, naming the limit.
pub(crate) async fn answer_text(
    engine: &str,
    mut response: reqwest::Response,
) -> Result<String, SearchFailure> {
    use crate::provider::http::{read_at_most, size_in_words, MAX_ERROR_BODY};
    let limit = if response.status().is_success() { MAX_ANSWER } else { MAX_ERROR_BODY };
    let (body, cut) = read_at_most(&mut response, limit)
        .await
        .map_err(|e| SearchFailure(format!("{engine}'s answer could not be read ({})", e.without_url())))?;
    if cut && response.status().is_success() {
        return Err(SearchFailure(format!(
            "{engine}'s answer is larger than {} (Warden's limit), so it was not read",
            size_in_words(MAX_ANSWER)
        )));
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

pub struct WebSearchTool {
    client: reqwest::Client,
}

impl WebSearchTool {
    pub fn new() -> Self {
        // The Brave key rides in a header: a redirect may not carry it to another origin.
        let client = reqwest::Client::builder()
            .user_agent(concat!("warden/", env!("CARGO_PKG_VERSION")))
            .redirect(crate::provider::same_origin_redirects())
            .build();
        Self { client: client.unwrap_or_default() }
    }
}

impl Default for WebSearchTool {
    fn default() -> Self {
        Self::new()
    }
}

/// The hits for the model (numbered text) and for the tool block (a list of pages).
fn found(hits: &[Hit]) -> ToolOutput {
    let items = hits
        .iter()
        .map(|h| SearchHit {
            text: Some(h.snippet.trim().to_owned()).filter(|s| !s.is_empty()),
            title: Some(h.title.trim().to_owned()).filter(|s| !s.is_empty()),
            ..SearchHit::at(&h.url)
        })
        .collect();
    ToolOutput::success(format_hits(hits))
        .with_report(|report| report.hits = Some(SearchHits { items, capped: false }))
}

fn format_hits(hits: &[Hit]) -> String {
    hits.iter()
        .enumerate()
        .map(|(i, h)| {
            let mut entry = format!("{}. {}\n   {}", i + 1, h.title.trim(), h.url);
            if !h.snippet.trim().is_empty() {
                entry.push_str(&format!("\n   {}", h.snippet.trim()));
            }
            entry
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[async_trait]
impl TypedTool for WebSearchTool {
    type Input = WebSearchInput;
    const NAME: &'static str = "web_search";
    const LABEL: &'static str = "Search the web";
    const CATEGORY: ToolCategory = ToolCategory::Web;
    const DANGER: DangerLevel = DangerLevel::Safe;
    const PARALLEL: bool = true;

    async fn run(&self, input: WebSearchInput, ctx: ToolContext) -> ToolOutput {
        let query = input.query.trim();
        if query.is_empty() {
            return ToolOutput::error(
                ToolErrorCode::ValidationError,
                "invalid input: field `query` is empty",
            );
        }
        let max = input.max_results.map_or(DEFAULT_RESULTS, |n| n as usize).clamp(1, MAX_RESULTS);
        let config = &ctx.config;
        let searx = searxng::search(&self.client, &config.searxng_url, query, config.web_timeout).await;
        let searx_failure = match searx {
            Ok((hits, _)) if !hits.is_empty() => {
                let hits: Vec<Hit> = hits.into_iter().take(max).collect();
                return found(&hits).with_metadata("engine", "searxng").with_metadata("results", hits.len());
            }
            Ok((_, unresponsive)) if unresponsive.is_empty() => "SearXNG found no results".to_owned(),
            Ok((_, unresponsive)) => {
                format!("SearXNG found no results (unresponsive engines: {})", unresponsive.join(", "))
            }
            Err(SearchFailure(why)) => why,
        };
        let Some(key) = &config.brave_api_key else {
            return ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!(
                    "web search failed: {searx_failure}; Brave Search fallback: no API key is configured"
                ),
            )
            .with_metadata("searxng_error", searx_failure);
        };
        match brave::search(&self.client, &config.brave_base_url, key, query, max, config.web_timeout).await {
            Ok(hits) if !hits.is_empty() => {
                let hits: Vec<Hit> = hits.into_iter().take(max).collect();
                found(&hits)
                    .with_metadata("engine", "brave")
                    .with_metadata("results", hits.len())
                    .with_metadata("fallback_reason", searx_failure)
            }
            Ok(_) => ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("no results for `{query}`: {searx_failure}; Brave Search found no results either"),
            ),
            Err(SearchFailure(brave_failure)) => ToolOutput::error(
                ToolErrorCode::ExecutionError,
                format!("web search failed: {searx_failure}; Brave Search: {brave_failure}"),
            )
            .with_metadata("searxng_error", searx_failure)
            .with_metadata("brave_error", brave_failure),
        }
    }
}
