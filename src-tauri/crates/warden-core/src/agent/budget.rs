//! The context budget: tokens used (from provider usage) against the model's context window.

use warden_protocol::Usage;

/// The context window of well-known models, by id prefix; `None` when unknown.
pub fn known_context_window(model: &str) -> Option<u32> {
    const TABLE: &[(&str, u32)] = &[
        ("claude-", 200_000),
        ("gpt-4.1", 1_047_576),
        ("gpt-4o", 128_000),
        ("gpt-5", 400_000),
        ("o3", 200_000),
        ("o4-mini", 200_000),
        ("llama3.1", 131_072),
        ("llama3.2", 131_072),
        ("qwen2.5", 32_768),
        ("qwen3", 40_960),
        ("mistral", 32_768),
    ];
    TABLE.iter().find(|(prefix, _)| model.starts_with(prefix)).map(|&(_, window)| window)
}

/// Used when neither the user nor the table knows the model: small enough to be safe locally.
pub const FALLBACK_CONTEXT_WINDOW: u32 = 32_768;

/// Share of the window after which the loop asks for a final answer.
pub const DEFAULT_THRESHOLD: f32 = 0.85;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    window: u32,
    /// The threshold in thousandths of the window, so that comparisons are exact.
    threshold_permille: u64,
    /// Tokens in the conversation as of the last response: its input plus its output.
    used: u32,
    /// Totals over the turn, for cost.
    total: Usage,
}

impl Budget {
    pub fn new(window: u32, threshold: f32) -> Self {
        // Rounded to thousandths: 0.8 means exactly 800/1000, not 0.800000011920929.
        let threshold_permille = (f64::from(threshold.clamp(0.05, 1.0)) * 1000.0).round() as u64;
        Self { window: window.max(1), threshold_permille, used: 0, total: Usage::default() }
    }

    /// Record the usage of one response. The last request's input already contains the whole
    /// history, so the context in use is that input plus what the model just wrote.
    pub fn record(&mut self, usage: Usage) {
        self.used = usage.input_tokens.saturating_add(usage.output_tokens);
        self.total.input_tokens = self.total.input_tokens.saturating_add(usage.input_tokens);
        self.total.output_tokens = self.total.output_tokens.saturating_add(usage.output_tokens);
    }

    /// The context in use after it changed outside a response (a compaction).
    pub fn set_used(&mut self, used: u32) {
        self.used = used;
    }

    pub fn used(&self) -> u32 {
        self.used
    }

    pub fn window(&self) -> u32 {
        self.window
    }

    pub fn total(&self) -> Usage {
        self.total
    }

    /// True once the context in use crosses the threshold.
    pub fn is_spent(&self) -> bool {
        u64::from(self.used) * 1000 >= u64::from(self.window) * self.threshold_permille
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_the_threshold_spends_the_budget() {
        let mut budget = Budget::new(1000, 0.8);
        budget.record(Usage { input_tokens: 500, output_tokens: 100 });
        assert!(!budget.is_spent());
        budget.record(Usage { input_tokens: 700, output_tokens: 100 });
        assert!(budget.is_spent());
        assert_eq!(budget.used(), 800);
        assert_eq!(budget.total(), Usage { input_tokens: 1200, output_tokens: 200 });
    }

    #[test]
    fn known_models_have_windows() {
        assert_eq!(known_context_window("claude-sonnet-4-5"), Some(200_000));
        assert_eq!(known_context_window("gpt-4o-mini"), Some(128_000));
        assert_eq!(known_context_window("my-local-model"), None);
    }
}
