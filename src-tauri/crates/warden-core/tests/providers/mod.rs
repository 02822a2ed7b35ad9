//! Every provider against the recorded wire fixtures, over a real loopback HTTP server.

// Tests fail loudly on anything unexpected, fixtures included.

mod anthropic;
mod bounds;
mod common;
mod images;
mod ollama;
mod openai;
mod openai_compat;
mod redirects;
mod robustness;
mod text_protocol;
mod tool_fallback;
