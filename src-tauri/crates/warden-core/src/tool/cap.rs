//! Capping what the model sees: head and tail kept, a marker saying how much was cut.

/// 100 KB: what one tool result may put into the model's context.
pub const DEFAULT_MODEL_OUTPUT_CAP: usize = 100 * 1024;

/// `text` if it fits in `cap` bytes; otherwise its head and tail (split on char boundaries) around a
/// marker, and the number of bytes cut.
pub fn cap_for_model(text: &str, cap: usize) -> (String, Option<usize>) {
    if text.len() <= cap {
        return (text.to_owned(), None);
    }
    let keep = cap.saturating_sub(120);
    let head_end = floor_char_boundary(text, keep / 2);
    let tail_start = ceil_char_boundary(text, text.len() - (keep - keep / 2));
    let cut = tail_start - head_end;
    let mut out = String::with_capacity(cap);
    out.push_str(&text[..head_end]);
    out.push_str(&format!(
        "\n\n[… {cut} bytes cut: output was {} bytes, head and tail kept …]\n\n",
        text.len()
    ));
    out.push_str(&text[tail_start..]);
    (out, Some(cut))
}

pub(crate) fn floor_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

pub(crate) fn ceil_char_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_untouched() {
        assert_eq!(cap_for_model("abc", 10), ("abc".to_owned(), None));
    }

    #[test]
    fn long_text_keeps_head_and_tail_on_char_boundaries() {
        let text = format!("HEAD{}TAIL", "é".repeat(100_000));
        let (out, cut) = cap_for_model(&text, 1000);
        assert!(out.starts_with("HEAD") && out.ends_with("TAIL"));
        assert!(out.len() <= 1000);
        assert!(out.contains("bytes cut"));
        assert!(cut.is_some_and(|c| c > 190_000));
    }
}
