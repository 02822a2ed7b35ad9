//! API keys: the OS keychain in the product, an in-memory store in unit tests.

mod key;

pub use key::ApiKey;
