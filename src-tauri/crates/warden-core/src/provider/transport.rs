//! Drives one streamed request: connect (with retries), read the body with an idle timeout, feed
//! the bytes to the provider's wire decoder, and hand out its chunks. Also reads the answers that
//! are not streams ([`answer_body`]): model lists and model details, never more than a limit.
//!
//! Everything happens inside the returned stream: nothing runs until it is polled, and dropping it
//! drops the response and with it the connection.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use futures::stream;

use super::http::{
    classify_http_error, note_key_verdict, read_at_most, shared_client, size_in_words, MAX_ANSWER_BODY,
    MAX_ERROR_BODY,
};
use super::retry::RetryPolicy;
use super::{ChunkStream, ProviderError, StreamChunk};
use crate::secrets::ApiKey;

pub(crate) type ChunkResult = Result<StreamChunk, ProviderError>;

/// Turns body bytes of one provider's wire format into chunks.
pub(crate) trait WireDecoder: Send + 'static {
    /// Feed the next read. Chunks and at most one error go to `out`.
    fn feed(&mut self, bytes: &[u8], out: &mut VecDeque<ChunkResult>);
    /// The terminator (`message_stop`, `[DONE]`, `done:true`) was seen: stop reading.
    fn is_finished(&self) -> bool;
    /// The body ended. A decoder that has not seen its terminator reports it as an error.
    fn finish(&mut self, out: &mut VecDeque<ChunkResult>) {
        if !self.is_finished() {
            out.push_back(Err(ProviderError::invalid_response(
                "The stream ended early: the provider closed the connection before the message was complete.",
            )));
        }
    }
}

/// What every request of one provider shares.
#[derive(Debug, Clone)]
pub(crate) struct Transport {
    /// The provider's name as the user knows it, for messages.
    pub label: String,
    pub key: Option<ApiKey>,
    pub idle_timeout: Duration,
    pub retry: RetryPolicy,
}

/// Builds the request for one attempt (called again for each retry).
pub(crate) type RequestFactory =
    Box<dyn Fn(&reqwest::Client) -> reqwest::RequestBuilder + Send + Sync + 'static>;

struct State<D> {
    transport: Arc<Transport>,
    factory: RequestFactory,
    decoder: D,
    pending: VecDeque<ChunkResult>,
    response: Option<reqwest::Response>,
    attempt: u32,
    wait: Option<Duration>,
    done: bool,
}

pub(crate) fn stream_request<D: WireDecoder>(
    transport: Arc<Transport>,
    factory: RequestFactory,
    decoder: D,
) -> ChunkStream {
    let state = State {
        transport,
        factory,
        decoder,
        pending: VecDeque::new(),
        response: None,
        attempt: 0,
        wait: None,
        done: false,
    };
    Box::pin(stream::unfold(state, |mut st| async move {
        loop {
            if let Some(item) = st.pending.pop_front() {
                if item.is_err() {
                    // An error ends the stream; nothing after it is delivered.
                    st.done = true;
                    st.pending.clear();
                    st.response = None;
                }
                return Some((item, st));
            }
            if st.done {
                return None;
            }
            match st.response.take() {
                None => connect(&mut st).await,
                Some(response) => read(&mut st, response).await,
            }
        }
    }))
}

/// One connection attempt; on a retryable failure queue a `Retrying` chunk and arm the wait.
async fn connect<D: WireDecoder>(st: &mut State<D>) {
    if let Some(wait) = st.wait.take() {
        tokio::time::sleep(wait).await;
    }
    st.attempt += 1;
    let result = match shared_client() {
        Ok(client) => send(&st.transport, (st.factory)(&client)).await,
        Err(e) => Err(e),
    };
    match result {
        Ok(response) => st.response = Some(response),
        Err(error) if st.transport.retry.should_retry(st.attempt, &error) => {
            let delay = st.transport.retry.delay(st.attempt, &error);
            tracing::warn!(provider = %st.transport.label, attempt = st.attempt, ?delay, %error, "retrying");
            st.wait = Some(delay);
            st.pending.push_back(Ok(StreamChunk::Retrying { attempt: st.attempt, delay, error }));
        }
        Err(error) => st.pending.push_back(Err(error)),
    }
}

/// Send and wait for the response head; a non-success status is classified from the first
/// [`MAX_ERROR_BODY`] bytes of its body (a server may send an endless one).
async fn send(
    transport: &Transport,
    request: reqwest::RequestBuilder,
) -> Result<reqwest::Response, ProviderError> {
    let idle = transport.idle_timeout;
    let response = match tokio::time::timeout(idle, request.send()).await {
        Err(_) => return Err(idle_error(transport)),
        Ok(Err(e)) => return Err(network_error(transport, &e)),
        Ok(Ok(response)) => response,
    };
    let status = response.status();
    note_key_verdict(transport.key.as_ref(), status.as_u16());
    if status.is_success() {
        return Ok(response);
    }
    let headers = response.headers().clone();
    let mut response = response;
    let body = match tokio::time::timeout(idle, read_at_most(&mut response, MAX_ERROR_BODY)).await {
        Ok(Ok((body, _))) => body,
        _ => Vec::new(),
    };
    Err(classify_http_error(&transport.label, status.as_u16(), &headers, &body, transport.key.as_ref()))
}

/// The body of an answer that is not a stream (`what`: "model list", "model details"): a
/// non-success status is classified as [`send`] does, and a body over [`MAX_ANSWER_BODY`] is
/// refused, naming the limit, without being read further.
pub(crate) async fn answer_body(
    transport: &Transport,
    mut response: reqwest::Response,
    what: &str,
) -> Result<Vec<u8>, ProviderError> {
    let status = response.status();
    let headers = response.headers().clone();
    let limit = if status.is_success() { MAX_ANSWER_BODY } else { MAX_ERROR_BODY };
    let (body, cut) = read_at_most(&mut response, limit).await.map_err(|e| network_error(transport, &e))?;
    if !status.is_success() {
        return Err(classify_http_error(
            &transport.label,
            status.as_u16(),
            &headers,
            &body,
            transport.key.as_ref(),
        ));
    }
    if cut {
        return Err(ProviderError::invalid_response(format!(
            "{}'s {what} is larger than {} (Warden's limit), so it was not read.",
            transport.label,
            size_in_words(MAX_ANSWER_BODY)
        )));
    }
    Ok(body)
}

async fn read<D: WireDecoder>(st: &mut State<D>, mut response: reqwest::Response) {
    match tokio::time::timeout(st.transport.idle_timeout, response.chunk()).await {
        Err(_) => st.pending.push_back(Err(idle_error(&st.transport))),
        Ok(Err(e)) => st.pending.push_back(Err(ProviderError::network(format!(
            "The connection to {} broke while the answer was streaming ({}).",
            st.transport.label,
            error_chain(&e)
        )))),
        Ok(Ok(None)) => {
            st.decoder.finish(&mut st.pending);
            st.done = true;
        }
        Ok(Ok(Some(bytes))) => {
            st.decoder.feed(&bytes, &mut st.pending);
            if st.decoder.is_finished() {
                // The terminator arrived: whatever follows is not ours to wait for.
                st.done = true;
            } else {
                st.response = Some(response);
            }
        }
    }
}

fn idle_error(transport: &Transport) -> ProviderError {
    ProviderError::new(
        super::ErrorCategory::IdleTimeout,
        format!(
            "{} sent nothing for {} s, so the request was stopped. Try again; if it keeps happening, raise the idle timeout.",
            transport.label,
            transport.idle_timeout.as_secs_f64()
        ),
    )
}

pub(crate) fn network_error(transport: &Transport, error: &reqwest::Error) -> ProviderError {
    ProviderError::network(format!(
        "Could not reach {} ({}). Check the base URL and your connection.",
        transport.label,
        error_chain(error)
    ))
}

/// The error with its causes, which is where reqwest keeps the useful part ("connection refused").
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
