//! Path rules: globs relative to the project (`src/**`, `docs/*.md`), matched on the path Warden
//! resolved — every `..` and link followed, relative to the project root — never on the text the
//! model sent. `*` stays within a folder, `**` crosses folders, and `dir/**` also covers `dir`.

use globset::{GlobBuilder, GlobMatcher};

#[derive(Debug, Clone)]
pub struct PathPattern {
    text: String,
    glob: GlobMatcher,
}

impl PathPattern {
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("{text:?} is not a path pattern: {why}");
        if text.trim().is_empty() {
            return Err(bad("it is empty"));
        }
        if text.starts_with('/') || text.starts_with('~') || text.contains('\\') {
            return Err(bad("it is relative to the project, with `/` between folders"));
        }
        if text.split('/').any(|part| part == ".." || part == ".") {
            return Err(bad("it names folders without `.` or `..`"));
        }
        let glob = GlobBuilder::new(text)
            .literal_separator(true)
            .backslash_escape(false)
            .build()
            .map_err(|e| bad(&e.kind().to_string()))?
            .compile_matcher();
        Ok(Self { text: text.to_owned(), glob })
    }

    /// Whether the resolved project-relative `path` (`/` between folders, `.` for the project)
    /// matches.
    pub fn matches(&self, path: &str) -> bool {
        self.glob.is_match(path) || self.text.strip_suffix("/**").is_some_and(|dir| dir == path)
    }
}

impl std::fmt::Display for PathPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_resolved_paths_within_and_across_folders() {
        let p = |t: &str| PathPattern::parse(t).unwrap_or_else(|e| panic!("{e}"));
        let table = [
            ("src/**", "src/a/b.rs", true),
            ("src/**", "src", true),
            ("src/**", "src2/a.rs", false),
            ("src/**", ".git/hooks/x", false),
            ("src/*", "src/a.rs", true),
            ("src/*", "src/a/b.rs", false),
            ("docs/*.md", "docs/x.md", true),
            ("docs/*.md", "docs/x.txt", false),
            ("*.md", "README.md", true),
            ("*.md", "docs/x.md", false),
            ("**/*.md", "docs/x.md", true),
            ("README.md", "README.md", true),
        ];
        for (pattern, path, expected) in table {
            assert_eq!(p(pattern).matches(path), expected, "{pattern} {path}");
        }
        for bad in ["", "/etc/**", "~/x", "../x", "src/../.git/**", "a\\b", "./src/**", "src/[a"] {
            assert!(PathPattern::parse(bad).is_err(), "{bad:?}");
        }
    }
}
