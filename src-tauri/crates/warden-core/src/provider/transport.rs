//! Drives one streamed request: connect (with retries), read the body with an idle timeout, feed
//! the bytes to the provider's wire decoder, and hand out its chunks. A stream that breaks off
//! before anything of the answer came is sent again ([`MAX_CUT_OFF_RETRIES`] times at most). Also
//! reads the answers that are not streams ([`answer_body`]): model lists and model details, never
//! more than a limit.
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
use super::reach::{error_chain, unreachable};
use super::retry::RetryPolicy;
use super::{ChunkStream, ErrorCategory, ProviderError, StreamChunk};
use crate::secrets::ApiKey;

pub(crate) type ChunkResult = Result<StreamChunk, ProviderError>;

/// How many times a stream that broke off before any of the answer came is sent again (within the
/// provider's [`RetryPolicy`]): a dropped connection usually holds on the next try, and a server
/// that drops every one should not be asked forever.
pub(crate) const MAX_CUT_OFF_RETRIES: u32 = 2;

/// Turns body bytes of one provider's wire format into chunks.
pub(crate) trait WireDecoder: Send + 'static {
    /// Feed the next read. Chunks and at most one error go to `out`.
    fn feed(&mut self, bytes: &[u8], out: &mut VecDeque<ChunkResult>);
    /// The terminator (`message_stop`, `[DONE]`, `done:true`) was seen: stop reading.
    fn is_finished(&self) -> bool;
    /// The body ended. A decoder that has not seen its terminator reports it as an error.
    fn finish(&mut self, out: &mut VecDeque<ChunkResult>) {
        if !self.is_finished() {
            out.push_back(Err(ProviderError::cut_off(
                ErrorCategory::InvalidResponse,
                "The provider closed the connection before the message was complete.",
            )));
        }
    }
}

/// What every request of one provider shares.
#[derive(Debug, Clone)]
pub(crate) struct Transport {
    /// The provider's name as the user knows it, for messages, as it starts a sentence: a name
    /// ("OpenAI", "Ollama") or "The server at …" ([`in_sentence`] inside one).
    pub label: String,
    pub key: Option<ApiKey>,
    pub idle_timeout: Duration,
    pub retry: RetryPolicy,
}

/// Builds the request for one attempt (called again for each retry).
pub(crate) type RequestFactory =
    Box<dyn Fn(&reqwest::Client) -> reqwest::RequestBuilder + Send + Sync + 'static>;

/// Makes the decoder of one attempt: every attempt reads its body from the start.
pub(crate) type DecoderFactory<D> = Box<dyn Fn() -> D + Send + 'static>;

struct State<D> {
    transport: Arc<Transport>,
    factory: RequestFactory,
    new_decoder: DecoderFactory<D>,
    decoder: D,
    pending: VecDeque<ChunkResult>,
    response: Option<reqwest::Response>,
    attempt: u32,
    wait: Option<Duration>,
    done: bool,
    /// A `Start` went out: the `Start` of an attempt after a cut-off one is not sent again.
    started: bool,
    /// Something of the answer went out (text, thinking, a call, the end): from here the stream
    /// cannot be sent again without showing it twice.
    answered: bool,
    /// Attempts made again because the stream broke off.
    cut_offs: u32,
}

impl<D: WireDecoder> State<D> {
    /// `chunk` as it goes out, noting whether the answer began; `None` for the `Start` of an
    /// attempt after a cut-off one (the message started already).
    fn outgoing(&mut self, chunk: StreamChunk) -> Option<StreamChunk> {
        match &chunk {
            StreamChunk::Start { .. } if self.started => return None,
            StreamChunk::Start { .. } => self.started = true,
            StreamChunk::Usage(_) | StreamChunk::Retrying { .. } | StreamChunk::Notice(_) => {}
            _ => self.answered = true,
        }
        Some(chunk)
    }

    /// `error` ends the stream — unless it cut the answer off before any of it went out and the
    /// policy allows another attempt: then a `Retrying` chunk, with the next attempt armed.
    fn failed(&mut self, error: ProviderError) -> ChunkResult {
        self.pending.clear();
        self.response = None;
        let again = error.cut_off
            && !self.answered
            && self.cut_offs < MAX_CUT_OFF_RETRIES
            && self.transport.retry.should_retry(self.attempt, &error);
        if !again {
            // An error ends the stream; nothing after it is delivered.
            self.done = true;
            return Err(error);
        }
        self.cut_offs += 1;
        let delay = self.transport.retry.delay(self.attempt, &error);
        tracing::warn!(
            provider = %self.transport.label, attempt = self.attempt, ?delay, detail = ?error.detail,
            "the stream broke off before the answer began; sending it again"
        );
        self.done = false;
        self.wait = Some(delay);
        self.decoder = (self.new_decoder)();
        Ok(StreamChunk::Retrying { attempt: self.attempt, delay, error })
    }
}

pub(crate) fn stream_request<D: WireDecoder>(
    transport: Arc<Transport>,
    factory: RequestFactory,
    new_decoder: DecoderFactory<D>,
) -> ChunkStream {
    let state = State {
        transport,
        factory,
        decoder: new_decoder(),
        new_decoder,
        pending: VecDeque::new(),
        response: None,
        attempt: 0,
        wait: None,
        done: false,
        started: false,
        answered: false,
        cut_offs: 0,
    };
    Box::pin(stream::unfold(state, |mut st| async move {
        loop {
            match st.pending.pop_front() {
                Some(Ok(chunk)) => match st.outgoing(chunk) {
                    Some(chunk) => return Some((Ok(chunk), st)),
                    None => continue,
                },
                Some(Err(error)) => {
                    let item = st.failed(error);
                    return Some((item, st));
                }
                None => {}
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
            tracing::warn!(
                provider = %st.transport.label, attempt = st.attempt, ?delay, %error, detail = ?error.detail, "retrying"
            );
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
        Ok(Err(e)) => st.pending.push_back(Err(ProviderError::cut_off(
            ErrorCategory::Network,
            format!(
                "The connection to {} broke while the answer was streaming: {}",
                in_sentence(&st.transport.label),
                error_chain(&e)
            ),
        ))),
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
            "{} sent nothing for {} s, so the request was stopped. Try again; if it keeps happening, the server is stuck or too slow for this model (a local server: a smaller model or fewer threads busy elsewhere).",
            transport.label,
            transport.idle_timeout.as_secs_f64()
        ),
    )
}

/// A request that failed in the HTTP stack (see [`unreachable`]).
pub(crate) fn network_error(transport: &Transport, error: &reqwest::Error) -> ProviderError {
    unreachable(&transport.label, error)
}

/// A provider's label inside a sentence: "the server at …" for a label that starts one as "The
/// server at …" (a user read "Could not reach The server at …"); a name stays as it is.
pub(crate) fn in_sentence(label: &str) -> std::borrow::Cow<'_, str> {
    match label.strip_prefix("The ") {
        Some(rest) => std::borrow::Cow::Owned(format!("the {rest}")),
        None => std::borrow::Cow::Borrowed(label),
    }
}
