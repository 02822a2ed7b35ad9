//! The names the model calls MCP tools by: `mcp__<server>__<tool>` (the convention users know from
//! Claude Code), made of the characters every provider accepts and at most 64 long.

/// The prefix of every MCP tool's name.
pub const PREFIX: &str = "mcp__";
const MAX: usize = 64;

/// `mcp__<server>__<tool>`: characters other than ASCII letters, digits, `_` and `-` become `_`;
/// a name longer than 64 keeps its start and ends with a short hash of the whole, so two long
/// names that share a start stay distinct.
pub fn qualified(server: &str, tool: &str) -> String {
    let name = format!("{PREFIX}{}__{}", clean(server), clean(tool));
    if name.len() <= MAX {
        return name;
    }
    let hash = short_hash(&format!("{server}\u{0}{tool}"));
    let keep = MAX - hash.len() - 1;
    format!("{}_{hash}", &name[..keep])
}

/// The server part of a qualified name (`None` for a name that is not an MCP tool's).
pub fn server_of(qualified: &str) -> Option<&str> {
    qualified.strip_prefix(PREFIX)?.split("__").next().filter(|s| !s.is_empty())
}

fn clean(part: &str) -> String {
    part.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

fn short_hash(text: &str) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(&Sha256::digest(text.as_bytes())[..4])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_prefixed_cleaned_and_capped() {
        assert_eq!(qualified("everything", "get-sum"), "mcp__everything__get-sum");
        assert_eq!(qualified("fs", "read file/✓"), "mcp__fs__read_file__");
        let a = qualified("server", &"a".repeat(100));
        let b = qualified("server", &format!("{}b", "a".repeat(99)));
        assert_eq!(a.len(), 64);
        assert_eq!(b.len(), 64);
        assert_ne!(a, b, "two long names with the same start stay distinct");
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
        assert_eq!(server_of("mcp__everything__echo"), Some("everything"));
        assert_eq!(server_of("file_read"), None);
    }
}
