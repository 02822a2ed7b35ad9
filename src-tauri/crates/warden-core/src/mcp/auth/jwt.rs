//! The signed JWT an MCP client proves itself with to an authorization server instead of sending a
//! secret (`private_key_jwt`, RFC 7523 §2.2, as SEP-1046's client-credentials grant uses it):
//! issued and subject the client id, for the authorization server (`aud`), good for five minutes,
//! signed with the client's private key (PKCS#8 PEM, ES256 or RS256) by `ring`, the crypto the
//! rest of Warden's TLS already uses.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use ring::rand::SystemRandom;
use ring::signature::{self, EcdsaKeyPair, RsaKeyPair};

/// How long an assertion is good for.
const LIFETIME_SECS: u64 = 300;

/// The algorithms Warden signs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Es256,
    Rs256,
}

impl Algorithm {
    /// The JOSE name (`"ES256"`), in any case.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name.to_ascii_uppercase().as_str() {
            "ES256" => Ok(Self::Es256),
            "RS256" => Ok(Self::Rs256),
            other => Err(format!("signing with `{other}` is not supported: use ES256 or RS256")),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Es256 => "ES256",
            Self::Rs256 => "RS256",
        }
    }
}

/// A client assertion for `client_id` to the authorization server `audience`, signed with
/// `key_pem`, issued at `now` (seconds since the epoch).
pub fn client_assertion(
    client_id: &str,
    audience: &str,
    key_pem: &str,
    algorithm: Algorithm,
    now: u64,
) -> Result<String, String> {
    let header = serde_json::json!({"alg": algorithm.name(), "typ": "JWT"});
    let claims = serde_json::json!({
        "iss": client_id,
        "sub": client_id,
        "aud": audience,
        "iat": now,
        "exp": now + LIFETIME_SECS,
        "jti": uuid::Uuid::new_v4().to_string(),
    });
    let signing_input = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(header.to_string()),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    let der = pkcs8_der(key_pem)?;
    let rng = SystemRandom::new();
    let bad_key = |e: ring::error::KeyRejected| {
        format!("the private key is not a PKCS#8 {} key: {e}", algorithm.name())
    };
    let signature = match algorithm {
        Algorithm::Es256 => {
            let key = EcdsaKeyPair::from_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &der, &rng)
                .map_err(bad_key)?;
            key.sign(&rng, signing_input.as_bytes())
                .map_err(|_| "signing failed".to_owned())?
                .as_ref()
                .to_vec()
        }
        Algorithm::Rs256 => {
            let key = RsaKeyPair::from_pkcs8(&der).map_err(bad_key)?;
            let mut out = vec![0; key.public().modulus_len()];
            key.sign(&signature::RSA_PKCS1_SHA256, &rng, signing_input.as_bytes(), &mut out)
                .map_err(|_| "signing failed".to_owned())?;
            out
        }
    };
    Ok(format!("{signing_input}.{}", URL_SAFE_NO_PAD.encode(signature)))
}

/// The DER inside a `-----BEGIN PRIVATE KEY-----` block.
fn pkcs8_der(pem: &str) -> Result<Vec<u8>, String> {
    let body = pem
        .trim()
        .strip_prefix("-----BEGIN PRIVATE KEY-----")
        .and_then(|rest| rest.trim_end().strip_suffix("-----END PRIVATE KEY-----"))
        .ok_or("the private key is not a PEM `PRIVATE KEY` (PKCS#8) block")?;
    let base64: String = body.chars().filter(|c| !c.is_whitespace()).collect();
    base64::engine::general_purpose::STANDARD
        .decode(base64)
        .map_err(|e| format!("the private key's PEM is not base64: {e}"))
}

#[cfg(test)]
mod tests {
    use ring::signature::KeyPair as _;

    use super::*;

    fn pem(der: &[u8]) -> String {
        let body = base64::engine::general_purpose::STANDARD.encode(der);
        let lines: Vec<&str> = body.as_bytes().chunks(64).map(|c| std::str::from_utf8(c).unwrap()).collect();
        format!("-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----\n", lines.join("\n"))
    }

    #[test]
    fn an_es256_assertion_verifies_with_the_public_key_and_names_the_client_and_the_server() {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        let key = EcdsaKeyPair::from_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8.as_ref(), &rng)
            .unwrap();
        let jwt = client_assertion(
            "warden-ci",
            "https://auth.example.com",
            &pem(pkcs8.as_ref()),
            Algorithm::Es256,
            1_000,
        )
        .unwrap();

        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let public =
            signature::UnparsedPublicKey::new(&signature::ECDSA_P256_SHA256_FIXED, key.public_key().as_ref());
        let signed = format!("{}.{}", parts[0], parts[1]);
        public
            .verify(signed.as_bytes(), &URL_SAFE_NO_PAD.decode(parts[2]).unwrap())
            .expect("a valid signature");
        let mut tampered = signed.clone().into_bytes();
        tampered[10] ^= 1;
        assert!(public.verify(&tampered, &URL_SAFE_NO_PAD.decode(parts[2]).unwrap()).is_err());

        let header: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[0]).unwrap()).unwrap();
        assert_eq!(header["alg"], "ES256");
        let claims: serde_json::Value =
            serde_json::from_slice(&URL_SAFE_NO_PAD.decode(parts[1]).unwrap()).unwrap();
        assert_eq!((claims["iss"].as_str(), claims["sub"].as_str()), (Some("warden-ci"), Some("warden-ci")));
        assert_eq!(claims["aud"], "https://auth.example.com");
        assert_eq!((claims["iat"].as_u64(), claims["exp"].as_u64()), (Some(1_000), Some(1_300)));
        assert!(claims["jti"].as_str().is_some_and(|j| j.len() == 36));
    }

    #[test]
    fn a_key_that_is_not_pkcs8_or_of_another_kind_is_refused_in_words() {
        let not_pem = client_assertion("c", "a", "ssh-ed25519 AAAA", Algorithm::Es256, 0).unwrap_err();
        assert!(not_pem.contains("PKCS#8"), "{not_pem}");
        let rng = SystemRandom::new();
        let ec = EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_FIXED_SIGNING, &rng).unwrap();
        let wrong_kind = client_assertion("c", "a", &pem(ec.as_ref()), Algorithm::Rs256, 0).unwrap_err();
        assert!(wrong_kind.contains("RS256"), "{wrong_kind}");
        assert!(Algorithm::parse("HS256").is_err());
        assert_eq!(Algorithm::parse("es256"), Ok(Algorithm::Es256));
    }
}
