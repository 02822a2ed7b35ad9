//! Small rules for how Warden's messages are put in words, shared by the engine and the window.

/// `text` with its first letter in capitals: engine messages start lower-case (they compose into
/// longer errors), and a message shown alone reads as a sentence.
pub fn capital_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_letter_changes() {
        assert_eq!(capital_first("the model server is down"), "The model server is down");
        assert_eq!(capital_first("ßig"), "SSig");
        assert_eq!(capital_first("Ollama"), "Ollama");
        assert_eq!(capital_first(""), "");
    }
}
