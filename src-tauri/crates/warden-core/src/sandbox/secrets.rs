//! The one list of secret-bearing names. Every file tool refuses these paths for reading and
//! writing, whether named directly, reached through a symlink, or met while walking a directory;
//! `docs/SECRETS.md` lists them for users. Names are compared ignoring ASCII case, after look-alike
//! letters were folded to ASCII by the caller.

/// How a rule matches one path component.
#[derive(Debug, Clone, Copy)]
enum Name {
    Exact(&'static str),
    Prefix(&'static str),
    Suffix(&'static str),
    Contains(&'static str),
}

/// Where the component must be for the rule to apply.
#[derive(Debug, Clone, Copy)]
enum Place {
    Anywhere,
    /// Directly inside a directory of this name.
    In(&'static str),
    /// Anywhere below a `.git` directory (`.git/config`, `.git/modules/*/config`).
    InGit,
}

#[derive(Debug, Clone, Copy)]
pub struct Rule {
    name: Name,
    place: Place,
    /// Why the name is refused, as shown to the model and the user.
    pub why: &'static str,
}

const fn rule(name: Name, place: Place, why: &'static str) -> Rule {
    Rule { name, place, why }
}

use Name::{Contains, Exact, Prefix, Suffix};
use Place::{Anywhere, In, InGit};

pub const RULES: &[Rule] = &[
    rule(Prefix(".env"), Anywhere, "`.env*` files hold credentials"),
    rule(Exact(".ssh"), Anywhere, "`.ssh/` holds keys"),
    rule(Exact(".gnupg"), Anywhere, "`.gnupg/` holds private keys"),
    rule(Exact("config"), InGit, "`.git/config` (and a submodule's) can hold credentials"),
    rule(Suffix(".pem"), Anywhere, "`*.pem` / `*.key` files hold keys"),
    rule(Suffix(".key"), Anywhere, "`*.pem` / `*.key` files hold keys"),
    rule(Suffix(".p12"), Anywhere, "`*.p12` / `*.pfx` files hold keys and certificates"),
    rule(Suffix(".pfx"), Anywhere, "`*.p12` / `*.pfx` files hold keys and certificates"),
    rule(Prefix("id_rsa"), Anywhere, "`id_rsa*` and other SSH identity files hold keys"),
    rule(Prefix("id_dsa"), Anywhere, "`id_rsa*` and other SSH identity files hold keys"),
    rule(Prefix("id_ecdsa"), Anywhere, "`id_rsa*` and other SSH identity files hold keys"),
    rule(Prefix("id_ed25519"), Anywhere, "`id_rsa*` and other SSH identity files hold keys"),
    rule(Contains("credential"), Anywhere, "`*credential*` paths hold credentials"),
    rule(Contains("secret"), Anywhere, "`*secret*` paths hold secrets"),
    rule(Exact(".npmrc"), Anywhere, "`.npmrc` holds registry tokens"),
    rule(Exact(".pypirc"), Anywhere, "`.pypirc` holds registry passwords"),
    rule(Exact(".netrc"), Anywhere, "`.netrc` holds passwords"),
    rule(Exact("_netrc"), Anywhere, "`_netrc` holds passwords"),
    rule(Exact(".pgpass"), Anywhere, "`.pgpass` holds database passwords"),
    rule(Exact(".htpasswd"), Anywhere, "`.htpasswd` holds password hashes"),
    rule(Exact(".vault-token"), Anywhere, "`.vault-token` holds a Vault token"),
    rule(Exact("config"), In(".kube"), "`.kube/config` holds cluster credentials"),
    rule(Exact("config.json"), In(".docker"), "`.docker/config.json` holds registry credentials"),
    rule(Contains(".tfstate"), Anywhere, "`*.tfstate` files hold the secrets Terraform manages"),
];

impl Rule {
    fn matches(&self, name: &str, parent: Option<&str>, in_git: bool) -> bool {
        let place = match self.place {
            Anywhere => true,
            In(dir) => parent.is_some_and(|p| p.eq_ignore_ascii_case(dir)),
            InGit => in_git,
        };
        place && name_matches(self.name, name.as_bytes())
    }
}

fn name_matches(pattern: Name, name: &[u8]) -> bool {
    match pattern {
        Exact(p) => name.eq_ignore_ascii_case(p.as_bytes()),
        Prefix(p) => name.len() >= p.len() && name[..p.len()].eq_ignore_ascii_case(p.as_bytes()),
        Suffix(p) => name.len() >= p.len() && name[name.len() - p.len()..].eq_ignore_ascii_case(p.as_bytes()),
        Contains(p) => name.windows(p.len()).any(|w| w.eq_ignore_ascii_case(p.as_bytes())),
    }
}

/// The first rule that refuses a component named `name` (folded), inside `parent`, below `.git` or not.
pub fn rule_for(name: &str, parent: Option<&str>, in_git: bool) -> Option<&'static Rule> {
    RULES.iter().find(|rule| rule.matches(name, parent, in_git))
}
