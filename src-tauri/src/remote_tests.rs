use warden_protocol::{ProviderId, Settings, TrustLevel};

use super::OpenAsked;

fn asked(resume: Option<&'static str>, remote_env_keys: bool) -> OpenAsked<'static> {
    OpenAsked { target: "box:/srv/app", transport: Some("  "), resume, remote_env_keys }
}

#[test]
fn the_session_asked_for_carries_the_windows_choices_and_whose_keys_it_uses() {
    let settings = Settings {
        active_provider: ProviderId::Openai,
        trust_level: TrustLevel::Supervised,
        ..Default::default()
    };
    let new = asked(None, false).session("/srv/app", &settings);
    assert_eq!((new.project.as_str(), new.resume, new.remote_env_keys), ("/srv/app", false, false));
    assert_eq!(
        (new.provider, new.trust, new.save, new.window),
        (ProviderId::Openai, TrustLevel::Supervised, true, true)
    );
    assert!(uuid::Uuid::parse_str(&new.conversation_id).is_ok(), "a new conversation's id");

    let theirs = asked(Some("c-saved"), true).session("/srv/app", &settings);
    assert_eq!((theirs.conversation_id.as_str(), theirs.resume), ("c-saved", true));
    assert!(theirs.remote_env_keys, "that machine's own keys, as asked");
}

#[test]
fn a_blank_transport_is_ssh() {
    assert_eq!(asked(None, false).transport(), None);
    let given = OpenAsked { transport: Some(" runuser -u b -- warden serve --stdio "), ..asked(None, false) };
    assert_eq!(given.transport(), Some("runuser -u b -- warden serve --stdio"));
}
