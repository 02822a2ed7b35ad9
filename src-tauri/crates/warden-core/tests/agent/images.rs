//! Images through a whole turn: an attached image is checked and sent, `file_read` of a picture
//! returns it to the model, a model that does not take images gets a note instead, and what is
//! not an image is refused before anything is sent.

use base64::Engine as _;
use serde_json::json;
use warden_core::agent::{SessionError, TurnEnd};
use warden_core::images::NOT_SENT;
use warden_protocol::{ContentBlock, ToolImage};

use super::harness::{Harness, Wire};
use super::wire::{text, tool};

/// A real 3×2 PNG.
fn png() -> Vec<u8> {
    let picture = image::RgbImage::from_fn(3, 2, |x, y| image::Rgb([x as u8 * 80, y as u8 * 120, 9]));
    let mut out = std::io::Cursor::new(Vec::new());
    picture.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn attached(bytes: &[u8]) -> ToolImage {
    ToolImage {
        media_type: "image/png".into(),
        data: base64::engine::general_purpose::STANDARD.encode(bytes),
    }
}

#[tokio::test]
async fn an_attached_image_and_a_read_picture_reach_a_model_that_takes_images() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("r1", "file_read", json!({"path": "shot.png"}))], 10),
        wire.reply(&[text("Two small pictures.")], 10),
    ];
    let h = Harness::new(wire, replies, |_| {}).await;
    std::fs::write(h.path("shot.png"), png()).unwrap();
    let end = h.session.send_with_images("what are these?", vec![attached(&png())]).await.unwrap();
    assert_eq!(end, TurnEnd::Completed);

    let requests = h.requests();
    let first = &requests[0].body["messages"][0]["content"];
    assert_eq!(first[1]["type"], "image", "{first}");
    assert_eq!(first[1]["source"]["data"], attached(&png()).data);
    let result = &requests[1].body["messages"][2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert!(result["content"][0]["text"].as_str().unwrap().contains("is an image (PNG, 3×2"), "{result}");
    assert_eq!(result["content"][1]["source"]["media_type"], "image/png");
    assert!(
        matches!(&h.session.history()[0].content[1], ContentBlock::Image(_)),
        "the history keeps the image"
    );
}

#[tokio::test]
async fn a_model_that_does_not_take_images_gets_a_note_and_the_history_keeps_the_image() {
    let wire = Wire::OpenAi;
    let h = Harness::new(wire, vec![wire.reply(&[text("I cannot see it.")], 10)], |c| c.takes_images = false)
        .await;
    h.session.send_with_images("look", vec![attached(&png())]).await.unwrap();
    let sent = h.requests()[0].body.to_string();
    assert!(sent.contains(&NOT_SENT.replace('"', "\\\"")), "{sent}");
    assert!(!sent.contains("image_url"), "{sent}");
    assert!(matches!(&h.session.history()[0].content[1], ContentBlock::Image(_)));
}

#[tokio::test]
async fn what_is_not_an_image_is_refused_before_anything_is_sent() {
    let wire = Wire::Anthropic;
    let h = Harness::new(wire, vec![wire.reply(&[text("never")], 10)], |_| {}).await;
    let fake = ToolImage {
        media_type: "image/png".into(),
        data: base64::engine::general_purpose::STANDARD.encode(b"#!/bin/sh\nrm -rf ~"),
    };
    let refused = h.session.send_with_images("look", vec![fake]).await.unwrap_err();
    assert!(
        matches!(&refused, SessionError::BadImage(why) if why.contains("not a PNG, JPEG, GIF or WebP")),
        "{refused}"
    );
    assert!(h.requests().is_empty());
    assert!(h.session.history().is_empty());
    assert!(!h.session.is_busy());
}

/// 20,000×20,000 pixels in about 320 KB: 400 MB once decoded, and a minute of work.
fn bomb() -> Vec<u8> {
    warden_testkit::images::bomb_png(20_000, 20_000)
}

const BOMB_REFUSED: &str = "it is 20000×20000 pixels (400 megapixels); Warden decodes at most 50 megapixels";

#[tokio::test]
async fn a_decompression_bomb_attached_is_refused_from_its_header_before_anything_is_sent() {
    let wire = Wire::Anthropic;
    let h = Harness::new(wire, vec![wire.reply(&[text("never")], 10)], |_| {}).await;
    let refused =
        h.session.send_with_images("look", vec![attached(&png()), attached(&bomb())]).await.unwrap_err();
    assert!(
        matches!(&refused, SessionError::BadImage(why) if why.starts_with("image 2: ") && why.contains(BOMB_REFUSED)),
        "{refused}"
    );
    assert!(h.requests().is_empty());
    assert!(h.session.history().is_empty());
    // A normal picture still goes.
    let h = Harness::new(wire, vec![wire.reply(&[text("a picture")], 10)], |_| {}).await;
    let end = h.session.send_with_images("look", vec![attached(&png())]).await.unwrap();
    assert_eq!(end, TurnEnd::Completed);
}

#[tokio::test]
async fn a_decompression_bomb_read_by_file_read_is_an_error_the_model_reads() {
    let wire = Wire::Anthropic;
    let replies = vec![
        wire.reply(&[tool("r1", "file_read", json!({"path": "huge.png"}))], 10),
        wire.reply(&[text("It could not be read.")], 10),
    ];
    let h = Harness::new(wire, replies, |_| {}).await;
    std::fs::write(h.path("huge.png"), bomb()).unwrap();
    let end = h.session.send("what is huge.png?").await.unwrap();
    assert_eq!(end, TurnEnd::Completed);
    let result = &h.requests()[1].body["messages"][2]["content"][0];
    assert_eq!(result["is_error"], true, "{result}");
    let said = result["content"].to_string();
    assert!(said.contains("huge.png looks like an image but it is 20000×20000 pixels"), "{said}");
    assert!(!said.contains("\"type\":\"image\""), "no image is sent: {said}");
}

#[tokio::test]
async fn a_resumed_conversation_takes_its_images_in_again_and_a_bomb_becomes_a_note() {
    use std::sync::Arc;
    use warden_core::config::WardenHome;
    use warden_core::engine::{Engine, SessionSpec};
    use warden_core::secrets::MemoryStore;
    use warden_protocol::{Message, ProviderId, Role};

    let dirs = tempfile::tempdir().unwrap();
    let project = std::fs::canonicalize(dirs.path()).unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let home = WardenHome::at(dirs.path().join("home"));
    // A store written by something else: an image no attachment could have made.
    let saved = Message {
        role: Role::User,
        content: vec![
            ContentBlock::Text { text: "look".into() },
            ContentBlock::Image(attached(&png())),
            ContentBlock::Image(attached(&bomb())),
        ],
    };
    let store = warden_core::conversations::ConversationStore::open_home(&home).unwrap();
    store.put_message("resumed-1", Some(&project), 0, &saved).unwrap();
    drop(store);
    // No model list is scripted: the lookup gets an error and the session starts anyway.
    let server = crate::support::server::TestServer::start(vec![]).await;
    let engine = Engine::new(home, Arc::new(MemoryStore::new())).unwrap();
    let mut spec = SessionSpec::new(project);
    spec.provider = ProviderId::Ollama;
    spec.base_url = Some(server.url.clone());
    spec.model = Some("llava:7b".to_owned());
    let (session, _events) = engine.resume(spec, "resumed-1").await.unwrap();
    let history = session.history();
    assert_eq!(history[0].content[1], ContentBlock::Image(attached(&png())), "a normal picture stays");
    match &history[0].content[2] {
        ContentBlock::Text { text } => assert!(text.contains(BOMB_REFUSED), "{text}"),
        other => panic!("the bomb is still there: {other:?}"),
    }
}
