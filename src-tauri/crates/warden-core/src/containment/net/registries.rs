//! The package registries and source hosts of the common toolchains: what a project that allows
//! them (`ToolPermissions::allow_registries`) reaches without a question. HTTPS only, and only at
//! public addresses ([`super::Rules::allow_public`]): a name here that resolved to this machine
//! or a private network would be refused, so a resolver cannot turn the preset into a way in.
//! Uploads to these hosts need credentials the box does not show.

/// Each host with the toolchain it serves.
pub const REGISTRIES: &[(&str, &str)] = &[
    ("crates.io:443", "Rust: crates"),
    ("index.crates.io:443", "Rust: the crates index"),
    ("static.crates.io:443", "Rust: crate downloads"),
    ("static.rust-lang.org:443", "Rust: rustup's toolchains"),
    ("registry.npmjs.org:443", "npm"),
    ("registry.yarnpkg.com:443", "yarn"),
    ("pypi.org:443", "PyPI: the index"),
    ("files.pythonhosted.org:443", "PyPI: downloads"),
    ("proxy.golang.org:443", "Go modules"),
    ("sum.golang.org:443", "Go: the checksum database"),
    ("rubygems.org:443", "RubyGems"),
    ("index.rubygems.org:443", "RubyGems: the index"),
    ("repo.maven.apache.org:443", "Maven Central"),
    ("repo1.maven.org:443", "Maven Central"),
    ("github.com:443", "GitHub: clones and releases"),
    ("codeload.github.com:443", "GitHub: source archives"),
    ("objects.githubusercontent.com:443", "GitHub: release downloads"),
    ("gitlab.com:443", "GitLab: clones and archives"),
];

/// The preset's hosts as rules.
pub fn rules() -> Vec<super::HostRule> {
    REGISTRIES.iter().filter_map(|(pattern, _)| super::HostRule::parse(pattern).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registry_reads_as_a_rule_for_https_alone() {
        let rules = rules();
        assert_eq!(rules.len(), REGISTRIES.len(), "a pattern that does not parse");
        // Each names one host on port 443: it opens nothing else (another port, a subdomain).
        for rule in &rules {
            let text = rule.to_string();
            assert!(text.ends_with(":443") && !text.contains('*'), "{text}");
        }
    }
}
