//! Blocks a newer Warden wrote into a saved conversation, of a kind this build does not know
//! ([`ContentBlock::Unknown`]). They stay in the history and the store exactly as they are, the
//! faces show them as "from a newer Warden", and a model is never sent one as it is: this build
//! cannot tell what it holds nor how a provider would take it, so a note stands in for each
//! (docs/ARCHITECTURE.md §7).

use warden_protocol::{ContentBlock, Message, UnknownBlock};

/// The longest block kind a note names.
const KIND_CHARS: usize = 40;

/// What a model is told in place of `block`.
pub fn note(block: &UnknownBlock) -> String {
    // The kind comes from the store: only plain name characters go into the prompt.
    let kind: String = block
        .kind()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(KIND_CHARS)
        .collect();
    format!(
        "[Part of this message (a \"{kind}\" block) was written by a newer version of Warden; this \
         version cannot read it, so it is left out here.]"
    )
}

/// `messages` as a model is sent them: each block of an unknown kind replaced by its note.
pub fn noted(messages: Vec<Message>) -> Vec<Message> {
    messages
        .into_iter()
        .map(|mut message| {
            for block in &mut message.content {
                if let ContentBlock::Unknown(unknown) = block {
                    *block = ContentBlock::Text { text: note(unknown) };
                }
            }
            message
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_block_becomes_a_note_naming_its_kind_and_nothing_else_changes() {
        let message: Message = serde_json::from_str(
            r#"{"role":"assistant","content":[{"type":"text","text":"Hi."},
                {"type":"citation\u001b]52;c;x\u0007","secret":"not for the model"}]}"#,
        )
        .unwrap();
        let sent = noted(vec![message]);
        assert_eq!(sent[0].content[0], ContentBlock::Text { text: "Hi.".into() });
        let ContentBlock::Text { text } = &sent[0].content[1] else { panic!("{:?}", sent[0].content[1]) };
        assert!(
            text.contains("\"citation52cx\" block") && text.contains("newer version of Warden"),
            "{text}"
        );
        assert!(!text.contains("not for the model"), "{text}");
    }
}
