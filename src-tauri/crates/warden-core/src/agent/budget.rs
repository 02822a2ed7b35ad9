//! The context budget: tokens used (from provider usage) against the model's context window.

use warden_protocol::Usage;

use super::events::Counted;

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

/// The window "Compact now" plans with when nobody has said how large the model's context is.
pub const FALLBACK_CONTEXT_WINDOW: u32 = 32_768;

/// Share of the window after which the loop asks for a final answer.
pub const DEFAULT_THRESHOLD: f32 = 0.85;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// `None` while the window is unknown (a local server that does not say): nothing is spent
    /// until it is learned (the server's answer to a request that overflowed it).
    window: Option<u32>,
    /// The threshold in thousandths of the window, so that comparisons are exact.
    threshold_permille: u64,
    /// Tokens in the conversation as of the last response: its input plus its output (or the
    /// estimate, for providers that report no usage).
    used: u32,
    /// Totals over the turn, for cost (reported usage only).
    total: Usage,
}

impl Budget {
    pub fn new(window: Option<u32>, threshold: f32) -> Self {
        // Rounded to thousandths: 0.8 means exactly 800/1000, not 0.800000011920929.
        let threshold_permille = (f64::from(threshold.clamp(0.05, 1.0)) * 1000.0).round() as u64;
        Self { window: window.map(|w| w.max(1)), threshold_permille, used: 0, total: Usage::default() }
    }

    /// Record the tokens of one response. The last request's input already contains the whole
    /// history, so the context in use is that input plus what the model just wrote; without
    /// usage, the estimate from the request's size stands in.
    pub fn record(&mut self, counted: Counted) {
        match counted.reported {
            Some(usage) => {
                self.used = usage.input_tokens.saturating_add(usage.output_tokens);
                self.total.input_tokens = self.total.input_tokens.saturating_add(usage.input_tokens);
                self.total.output_tokens = self.total.output_tokens.saturating_add(usage.output_tokens);
            }
            None => self.used = counted.estimated_context.unwrap_or(self.used),
        }
    }

    /// The context in use after it changed outside a response (a compaction).
    pub fn set_used(&mut self, used: u32) {
        self.used = used;
    }

    /// The window, once learned mid-turn.
    pub fn set_window(&mut self, window: u32) {
        self.window = Some(window.max(1));
    }

    pub fn used(&self) -> u32 {
        self.used
    }

    pub fn window(&self) -> Option<u32> {
        self.window
    }

    pub fn total(&self) -> Usage {
        self.total
    }

    /// True once the context in use crosses the threshold of a known window.
    pub fn is_spent(&self) -> bool {
        self.window
            .is_some_and(|window| u64::from(self.used) * 1000 >= u64::from(window) * self.threshold_permille)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossing_the_threshold_spends_the_budget() {
        let mut budget = Budget::new(Some(1000), 0.8);
        let reported = |input_tokens, output_tokens| Counted {
            reported: Some(Usage { input_tokens, output_tokens }),
            estimated_context: None,
        };
        budget.record(reported(500, 100));
        assert!(!budget.is_spent());
        budget.record(reported(700, 100));
        assert!(budget.is_spent());
        assert_eq!(budget.used(), 800);
        assert_eq!(budget.total(), Usage { input_tokens: 1200, output_tokens: 200 });
    }

    #[test]
    fn an_estimate_stands_in_for_usage_and_an_unknown_window_is_never_spent() {
        let estimated = Counted { reported: None, estimated_context: Some(900) };
        let mut unknown = Budget::new(None, 0.8);
        unknown.record(estimated);
        assert_eq!(unknown.used(), 900);
        assert!(!unknown.is_spent(), "nothing to measure against");
        unknown.set_window(1000);
        assert!(unknown.is_spent(), "learned: 900 of 1000 is past 80 %");
        assert_eq!(unknown.total(), Usage::default(), "an estimate costs nothing");
    }

    #[test]
    fn known_models_have_windows() {
        assert_eq!(known_context_window("claude-sonnet-4-5"), Some(200_000));
        assert_eq!(known_context_window("gpt-4o-mini"), Some(128_000));
        assert_eq!(known_context_window("my-local-model"), None);
    }
}
