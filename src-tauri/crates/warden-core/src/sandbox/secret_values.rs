//! Values that are credentials by their shape, whatever the variable holding them is called:
//! `DEPLOY=https://hooks.slack.com/services/…`, `BILLING=sk_live_…`. Each token a service issues
//! has a fixed prefix, alphabet and length; a word of the value is a secret only when it has one
//! of those shapes whole (prefix, then the right number of the right characters, to the word's
//! end), so `LANG=sk_SK.UTF-8`, `TZ=Asia/Tokyo` or a package called `sk-learn` are not mistaken
//! for one. Hand-written, one small function per shape: no regular expression engine for a list
//! this short.

/// Whether `value` holds a secret-shaped token (or a PEM private key) anywhere in it.
pub(crate) fn has_secret_shape(value: &std::ffi::OsStr) -> bool {
    let value = value.to_string_lossy();
    if value.contains("-----BEGIN") && value.contains("PRIVATE KEY-----") {
        return true;
    }
    let found = words(&value).any(is_secret_token);
    found
}

/// The words of a value: split at white space, quotes and the separators of `k=v;k=v`, flags and
/// query strings. A token never holds any of these.
fn words(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | ';' | '=' | '&'))
        .filter(|w| !w.is_empty())
}

/// Whether `word` is, whole, a token of one of the known shapes.
fn is_secret_token(word: &str) -> bool {
    aws_access_key(word)
        || github(word)
        || stripe(word)
        || anthropic(word)
        || openai(word)
        || gitlab(word)
        || slack_token(word)
        || google_api_key(word)
        || digitalocean(word)
        || webhook_secret(word)
        || registry_token(word)
        || jwt(word)
        || webhook_url(word)
}

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// base64url's alphabet.
fn url_safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// `s` is `min..=max` characters, all of `alphabet`.
fn run(s: &str, min: usize, max: usize, alphabet: fn(u8) -> bool) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(alphabet)
}

/// What follows the first of `prefixes` that `word` starts with.
fn after<'a>(word: &'a str, prefixes: &[&str]) -> Option<&'a str> {
    prefixes.iter().find_map(|p| word.strip_prefix(p))
}

/// A random token mixes upper case, lower case and digits; a name made of words does not.
fn looks_random(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_uppercase())
        && s.bytes().any(|b| b.is_ascii_lowercase())
        && s.bytes().any(|b| b.is_ascii_digit())
}

/// `AKIA…` (a long-term access key id) or `ASIA…` (a session's): 16 of `[0-9A-Z]`.
fn aws_access_key(word: &str) -> bool {
    after(word, &["AKIA", "ASIA"])
        .is_some_and(|rest| run(rest, 16, 16, |b| b.is_ascii_digit() || b.is_ascii_uppercase()))
}

/// `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_` and 36 of `[A-Za-z0-9]`; `github_pat_`, 22, `_`, 59.
fn github(word: &str) -> bool {
    if let Some(rest) = after(word, &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) {
        return run(rest, 36, 36, alnum);
    }
    word.strip_prefix("github_pat_")
        .and_then(|rest| rest.split_once('_'))
        .is_some_and(|(id, secret)| run(id, 22, 22, alnum) && run(secret, 59, 59, alnum))
}

/// Stripe's secret and restricted keys, live or test: 24 to 247 of `[A-Za-z0-9]`.
fn stripe(word: &str) -> bool {
    after(word, &["sk_live_", "rk_live_", "sk_test_", "rk_test_"])
        .is_some_and(|rest| run(rest, 24, 247, alnum))
}

/// `sk-ant-` and at least 32 of base64url (`sk-ant-api03-…`, `sk-ant-admin01-…`).
fn anthropic(word: &str) -> bool {
    word.strip_prefix("sk-ant-").is_some_and(|rest| run(rest, 32, 512, url_safe))
}

/// OpenAI's `sk-…`, `sk-proj-…`, `sk-svcacct-…`, `sk-admin-…`: at least 32 of base64url that
/// read as random (a hyphenated name after `sk-` does not).
fn openai(word: &str) -> bool {
    let Some(rest) = word.strip_prefix("sk-") else { return false };
    let rest = after(rest, &["proj-", "svcacct-", "admin-"]).unwrap_or(rest);
    run(rest, 32, 512, url_safe) && looks_random(rest)
}

/// GitLab's personal access token: `glpat-` and 20 or more of base64url (newer ones add `.`).
fn gitlab(word: &str) -> bool {
    word.strip_prefix("glpat-").is_some_and(|rest| run(rest, 20, 255, |b| url_safe(b) || b == b'.'))
}

/// Slack's `xoxa-`/`xoxb-`/`xoxp-`/`xoxr-`/`xoxe-` tokens: numbered parts and a secret.
fn slack_token(word: &str) -> bool {
    after(word, &["xoxa-", "xoxb-", "xoxp-", "xoxr-", "xoxe-"]).is_some_and(|rest| {
        run(rest, 10, 255, |b| alnum(b) || b == b'-') && rest.bytes().any(|b| b.is_ascii_digit())
    })
}

/// Google's API keys: `AIza` and 35 of base64url.
fn google_api_key(word: &str) -> bool {
    word.strip_prefix("AIza").is_some_and(|rest| run(rest, 35, 35, url_safe))
}

/// DigitalOcean's personal, OAuth and refresh tokens: 64 lower-case hex digits.
fn digitalocean(word: &str) -> bool {
    after(word, &["dop_v1_", "doo_v1_", "dor_v1_"])
        .is_some_and(|rest| run(rest, 64, 64, |b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)))
}

/// A webhook signing secret (Stripe, Svix): `whsec_` and base64 (its `=` padding is a separator
/// to [`words`]).
fn webhook_secret(word: &str) -> bool {
    word.strip_prefix("whsec_").is_some_and(|rest| run(rest, 24, 255, |b| alnum(b) || b == b'+' || b == b'/'))
}

/// Package registries' tokens: npm's `npm_` and 36, Hugging Face's `hf_` and 34 letters, PyPI's
/// macaroon (`pypi-` and a base64url body that starts with its encoded header).
fn registry_token(word: &str) -> bool {
    word.strip_prefix("npm_").is_some_and(|rest| run(rest, 36, 36, alnum))
        || word.strip_prefix("hf_").is_some_and(|rest| run(rest, 34, 34, |b| b.is_ascii_alphabetic()))
        || word.strip_prefix("pypi-AgEIcHlwaS5vcmc").is_some_and(|rest| run(rest, 50, 4096, url_safe))
}

/// A JSON Web Token: three base64url parts joined by dots, the first (a JSON header) starting
/// `eyJ`; the signature is empty for an unsigned one.
fn jwt(word: &str) -> bool {
    let mut parts = word.split('.');
    let (Some(header), Some(payload), Some(signature), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    header.starts_with("eyJ")
        && run(header, 10, 4096, url_safe)
        && run(payload, 3, 65536, url_safe)
        && run(signature, 0, 4096, url_safe)
}

/// A webhook address whose path is its secret: Slack's `hooks.slack.com/services/T…/B…/secret`
/// (and workflow triggers), Discord's `discord.com/api/webhooks/<id>/<token>`.
fn webhook_url(word: &str) -> bool {
    let Some(rest) = after(word, &["https://", "http://"]) else { return false };
    let Some((host, path)) = rest.split_once('/') else { return false };
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').collect();
    match host.to_ascii_lowercase().as_str() {
        "hooks.slack.com" => match segments.as_slice() {
            ["services", team, bot, secret] => [team, bot, secret].iter().all(|s| run(s, 6, 128, alnum)),
            ["workflows" | "triggers", rest @ ..] => {
                rest.len() >= 2 && rest.iter().all(|s| run(s, 6, 128, alnum))
            }
            _ => false,
        },
        "discord.com" | "discordapp.com" | "ptb.discord.com" | "canary.discord.com" => {
            let segments = match segments.as_slice() {
                ["api", version, rest @ ..] if version.starts_with('v') => rest.to_vec(),
                ["api", rest @ ..] => rest.to_vec(),
                _ => return false,
            };
            matches!(segments.as_slice(), ["webhooks", id, token]
                if run(id, 15, 25, |b| b.is_ascii_digit()) && run(token, 20, 255, url_safe))
        }
        _ => false,
    }
}
