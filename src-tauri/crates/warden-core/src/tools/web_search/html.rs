//! Brave puts `<strong>` tags and HTML entities in its descriptions; the model gets plain text.

/// Remove tags, decode entities, collapse whitespace.
pub(crate) fn html_to_text(html: &str) -> String {
    let mut stripped = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match (in_tag, c) {
            (false, '<') => in_tag = true,
            (true, '>') => in_tag = false,
            (false, _) => stripped.push(c),
            (true, _) => {}
        }
    }
    // Every HTML5 named entity and numeric reference; unknown ones stay as written.
    let decoded = html_escape::decode_html_entities(&stripped);
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_entities_are_removed() {
        assert_eq!(
            html_to_text(
                "<strong>Async</strong> std &amp; it&#x27;s easy &#39;x&#39; &lt;y&gt; AT&T &bogus;"
            ),
            "Async std & it's easy 'x' <y> AT&T &bogus;"
        );
    }

    #[test]
    fn every_html5_entity_is_decoded() {
        // Entities the hand-written table of 13 did not know.
        assert_eq!(
            html_to_text("caf&eacute; &euro;5 &copy; 2&times;3 &rarr; &frac12; &trade; &laquo;q&raquo;"),
            "café €5 © 2×3 → ½ ™ «q»"
        );
        assert_eq!(html_to_text("&#128512; &#x1F600;"), "😀 😀");
    }
}
