//! A git config file read line by line, as far as the box needs: which section each line is in
//! and which key it sets. The git guard looks up `core.hooksPath` with it; the sweep of new
//! repositories keeps only the plain keys with it; the box's home gets the user's global config
//! without its credentials through it ([`without_credentials`]).

/// One line of a config file.
pub(super) struct Line<'a> {
    /// The line as written.
    pub raw: &'a str,
    /// The section it belongs to, lower case, without a subsection: `remote` for `[remote "o"]`.
    pub section: String,
    /// A section header (`[core]`, possibly with a setting after it on the same line).
    pub header: bool,
    /// The key it sets, lower case, and its value unquoted and without a comment (a header line
    /// with a setting after it has one too). `None` for comments, blank lines and the
    /// continuations of a value (`\` at the end of the line before).
    pub setting: Option<(String, String)>,
    /// The continuation of the value the line before it set.
    pub continuation: bool,
}

pub(super) fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut section = String::new();
    let mut continued = false;
    for raw in text.lines() {
        let continuation = continued;
        continued = raw.ends_with('\\');
        if continuation {
            out.push(Line { raw, section: section.clone(), header: false, setting: None, continuation });
            continue;
        }
        let trimmed = raw.trim();
        let (header, body) = match trimmed.strip_prefix('[') {
            Some(rest) => {
                section = rest.split([']', ' ', '"', '.']).next().unwrap_or_default().to_ascii_lowercase();
                (true, rest.split_once(']').map(|(_, after)| after.trim()).unwrap_or_default())
            }
            None => (false, trimmed),
        };
        out.push(Line { raw, section: section.clone(), header, setting: setting(body), continuation });
    }
    out
}

/// `text` without what holds or fetches a credential, for the box's `~/.gitconfig`:
/// - `credential` sections (helpers, usernames): a helper run in the box could hand out what the
///   user's keychain or `~/.git-credentials` holds;
/// - `url` sections whose URL carries a password or, over HTTP, a user (`insteadOf` rewriting
///   `https://github.com/` to `https://x-access-token:TOKEN@github.com/`);
/// - settings whose key names a token, a password or a secret, HTTP extra headers
///   (`Authorization: Bearer …`), and any value that is such a URL;
/// - `include` and `includeIf` sections: what they name is not in the box's home (and the Landlock
///   fallback's git would stop at an include it may not read).
///
/// Everything else (identity, aliases, core settings) stays, as written.
pub(super) fn without_credentials(text: &str) -> String {
    let mut out = String::new();
    let (mut section_dropped, mut setting_dropped) = (false, false);
    for line in lines(text) {
        if line.continuation {
            if !section_dropped && !setting_dropped {
                out.push_str(line.raw);
                out.push('\n');
            }
            continue;
        }
        if line.header {
            section_dropped = matches!(line.section.as_str(), "credential" | "include" | "includeif")
                || (line.section == "url" && carries_credential(line.raw));
        }
        setting_dropped =
            line.setting.as_ref().is_some_and(|(key, value)| secret_setting(&line.section, key, value));
        if section_dropped {
            continue;
        }
        if setting_dropped {
            // A header with the dropped setting on its own line keeps the header.
            if let Some(end) = line.raw.find(']').filter(|_| line.header) {
                out.push_str(&line.raw[..=end]);
                out.push('\n');
            }
            continue;
        }
        out.push_str(line.raw);
        out.push('\n');
    }
    out
}

/// Whether a setting holds a credential by its name or its value.
fn secret_setting(section: &str, key: &str, value: &str) -> bool {
    let named = ["token", "pass", "secret"].iter().any(|word| key.contains(word));
    named || (section == "http" && key == "extraheader") || carries_credential(value)
}

/// Whether `text` holds a URL with a password (`scheme://user:password@host`), or an HTTP(S) URL
/// with a user (`https://TOKEN@host`, how tokens are passed); `ssh://git@host` is neither.
fn carries_credential(text: &str) -> bool {
    text.match_indices("://").any(|(at, _)| {
        let scheme = text[..at].rsplit(|c: char| !c.is_ascii_alphanumeric() && c != '+').next().unwrap_or("");
        let rest = &text[at + 3..];
        let authority = rest.split(['/', '"', ' ', '\t']).next().unwrap_or("");
        match authority.rsplit_once('@') {
            Some((user, _)) => user.contains(':') || scheme.to_ascii_lowercase().starts_with("http"),
            None => false,
        }
    })
}

/// `key = value` or a bare `key` (a boolean), lower-cased key, value unquoted and uncommented.
fn setting(body: &str) -> Option<(String, String)> {
    if body.is_empty() || body.starts_with(['#', ';']) {
        return None;
    }
    let (key, value) = body.split_once('=').unwrap_or((body, ""));
    let value = value.split([';', '#']).next().unwrap_or_default().trim().trim_matches('"');
    Some((key.trim().to_ascii_lowercase(), value.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_leave_the_config_and_the_rest_stays() {
        let text = "[user]\n\tname = Me\n[credential]\n\thelper = store\n\
                    [credential \"https://h\"]\n\tusername = u\n\
                    [url \"https://x-access-token:TOK@github.com/\"]\n\tinsteadOf = https://github.com/\n\
                    [url \"https://TOK2@gitlab.com/\"]\n\tinsteadOf = gl:\n\
                    [url \"git@github.com:\"]\n\tinsteadOf = gh:\n\
                    [url \"ssh://git@host/\"]\n\tpushInsteadOf = https://host/\n\
                    [http] extraHeader = Authorization: Bearer TOK3\n\tsslVerify = true\n\
                    [github]\n\ttoken = TOK4\n[sendemail]\n\tsmtpPass = TOK5\n\
                    [alias]\n\tlg = log \\\n\t  --oneline\n\
                    [include]\n\tpath = ~/.gitconfig-secret\n[includeIf \"gitdir:~/w/\"]\n\tpath = w\n\
                    [remote \"o\"]\n\turl = https://u:TOK6@example.com/r.git\n";
        let kept = without_credentials(text);
        for gone in ["helper", "username", "TOK", "include", "gitconfig-secret"] {
            assert!(!kept.contains(gone), "{gone} kept:\n{kept}");
        }
        for stays in [
            "[user]\n\tname = Me\n",
            "[url \"git@github.com:\"]\n\tinsteadOf = gh:\n",
            "[url \"ssh://git@host/\"]\n",
            "[http]\n\tsslVerify = true\n",
            "\tlg = log \\\n\t  --oneline\n",
            "[remote \"o\"]\n",
        ] {
            assert!(kept.contains(stays), "{stays:?} missing:\n{kept}");
        }
    }

    #[test]
    fn sections_keys_and_continuations_are_told_apart() {
        let text =
            "# top\n[core] hooksPath = a\n\tBare\n[remote \"o\"]\n\turl = \"x\" ; c\n\tfetch = \\\n\t  +r\n";
        let read: Vec<_> =
            lines(text).into_iter().map(|l| (l.section, l.header, l.setting, l.continuation)).collect();
        let s = |k: &str, v: &str| Some((k.to_owned(), v.to_owned()));
        assert_eq!(
            read,
            [
                (String::new(), false, None, false),
                ("core".into(), true, s("hookspath", "a"), false),
                ("core".into(), false, s("bare", ""), false),
                ("remote".into(), true, None, false),
                ("remote".into(), false, s("url", "x"), false),
                ("remote".into(), false, s("fetch", "\\"), false),
                ("remote".into(), false, None, true),
            ]
        );
    }
}
