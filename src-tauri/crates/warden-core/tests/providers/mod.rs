//! Every provider against the recorded wire fixtures, over a real loopback HTTP server.

mod anthropic;
mod common;
mod ollama;
mod openai;
mod openai_compat;
mod text_protocol;
