//! Images the user attaches and `file_read` returns: recognised by their bytes (never by a name or
//! a claimed type), refused when they are not a PNG, JPEG, GIF or WebP or are too large to be an
//! honest picture, and scaled down to what models take before they are sent: at most
//! [`MAX_EDGE`] pixels on the long edge and [`MAX_SENT_BYTES`] bytes (Anthropic's limits; OpenAI
//! and Ollama take the same). An animated GIF that must be scaled is sent as its first frame.
//!
//! Every image Warden takes in — attached, pasted, read by `file_read`, returned by an MCP tool,
//! found in a resumed conversation — goes through [`prepare`], the one bounded decoder: the size
//! in its header is checked first ([`MAX_PIXELS`]; a 380 KB PNG can claim 20,000×20,000 and cost
//! gigabytes), the decoder may allocate at most [`MAX_DECODE_ALLOC`], decoding runs on a worker
//! thread that a caller's deadline (or [`DECODE_DEADLINE`]) abandons, and only one image is
//! decoded at a time in the whole process.

use std::sync::Mutex;
use std::time::Duration;

use base64::Engine as _;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use warden_protocol::{ContentBlock, Message, ToolImage};

/// The longest edge sent, in pixels.
pub const MAX_EDGE: u32 = 1568;
/// The most bytes of one image sent (before base64).
pub const MAX_SENT_BYTES: usize = 3_750_000;
/// The most bytes of one image taken in.
pub const MAX_INPUT_BYTES: usize = 20 * 1024 * 1024;
/// The largest picture decoded, in pixels per edge…
const MAX_DECODED_EDGE: u32 = 20_000;
/// …and in pixels (a 7,000×7,000 photograph is 49 MP; a bigger claim is a decompression bomb).
pub const MAX_PIXELS: u64 = 50_000_000;
/// The most a decoder may allocate for one image.
pub const MAX_DECODE_ALLOC: u64 = 512 * 1024 * 1024;
/// How long one image may take, its wait for the decoder included, when nothing sooner stops the
/// caller (a tool call's own timeout does).
pub const DECODE_DEADLINE: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    #[error("it is not a PNG, JPEG, GIF or WebP image")]
    NotAnImage,
    #[error("it is too large ({bytes} bytes; at most {MAX_INPUT_BYTES})")]
    TooLarge { bytes: usize },
    #[error("its base64 data is not valid")]
    BadBase64,
    #[error("it could not be read as an image: {0}")]
    Undecodable(String),
    #[error(
        "it is {width}×{height} pixels ({} megapixels); Warden decodes at most {} megapixels and {MAX_DECODED_EDGE} pixels an edge",
        u64::from(*width) * u64::from(*height) / 1_000_000,
        MAX_PIXELS / 1_000_000
    )]
    TooManyPixels { width: u32, height: u32 },
    #[error("reading it took over {} s, so it was given up", DECODE_DEADLINE.as_secs())]
    TimedOut,
}

/// An image ready to send, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    pub image: ToolImage,
    pub width: u32,
    pub height: u32,
    /// Whether it was scaled down (or re-encoded) to fit.
    pub scaled: bool,
}

impl Prepared {
    /// "PNG, 800×600" — how the image is described to a model that cannot see it.
    pub fn describe(&self) -> String {
        let kind = self.image.media_type.trim_start_matches("image/").to_uppercase();
        format!("{kind}, {}×{}", self.width, self.height)
    }
}

/// The media type of an image by its first bytes; `None` when it is none of the four.
pub fn media_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if bytes.len() >= 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Checks `bytes` and scales them down when needed: the one bounded way an image is taken in.
/// What the header says is checked here, at once; a picture that must be decoded to be scaled
/// waits its turn for the process's one decoder, on a worker thread, for at most
/// [`DECODE_DEADLINE`] (dropping the future gives up sooner). A worker whose caller gave up while
/// it waited does not decode at all; one already decoding finishes within the limits and its
/// result is dropped.
pub async fn prepare(bytes: Vec<u8>) -> Result<Prepared, ImageError> {
    let header = read_header(&bytes)?;
    let (sender, receiver) = tokio::sync::oneshot::channel();
    let worker = std::thread::Builder::new().name("warden-image".to_owned()).spawn(move || {
        let _turn = DECODING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if sender.is_closed() {
            #[cfg(test)]
            GIVEN_UP.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            return;
        }
        #[cfg(test)]
        let _counted = CountDecoding::new();
        let _ = sender.send(decode(bytes, header));
    });
    if let Err(error) = worker {
        return Err(ImageError::Undecodable(format!("no thread to decode it on ({error})")));
    }
    match tokio::time::timeout(DECODE_DEADLINE, receiver).await {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(ImageError::Undecodable("the decoder stopped".to_owned())),
        Err(_) => Err(ImageError::TimedOut),
    }
}

/// Held by the worker that decodes: one image at a time in the whole process, so a message (or
/// several conversations) full of large pictures costs one picture's memory, not their sum.
static DECODING: Mutex<()> = Mutex::new(());

/// Decodes running now, and the most seen at once (tests check the latter stays 1).
#[cfg(test)]
static DECODING_NOW: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
#[cfg(test)]
static MOST_DECODING_AT_ONCE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Workers that found their caller gone when their turn came, and so decoded nothing.
#[cfg(test)]
static GIVEN_UP: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[cfg(test)]
struct CountDecoding;

#[cfg(test)]
impl CountDecoding {
    fn new() -> Self {
        use std::sync::atomic::Ordering::SeqCst;
        let now = DECODING_NOW.fetch_add(1, SeqCst) + 1;
        MOST_DECODING_AT_ONCE.fetch_max(now, SeqCst);
        Self
    }
}

#[cfg(test)]
impl Drop for CountDecoding {
    fn drop(&mut self) {
        DECODING_NOW.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// What the header tells, checked: the format, and whether the picture fits as it is.
struct Header {
    format: ImageFormat,
    media_type: &'static str,
    width: u32,
    height: u32,
    /// Within [`MAX_EDGE`] and [`MAX_SENT_BYTES`]: once it decodes whole, its own bytes are sent.
    fits: bool,
}

/// The checks that need no decoding: the bytes are one of the four formats, not too many, and
/// the header's size is within [`MAX_PIXELS`].
fn read_header(bytes: &[u8]) -> Result<Header, ImageError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ImageError::TooLarge { bytes: bytes.len() });
    }
    let media_type = media_type(bytes).ok_or(ImageError::NotAnImage)?;
    let format = ImageFormat::from_mime_type(media_type).ok_or(ImageError::NotAnImage)?;
    // The header alone (its size is checked below, in words of pixels and edges).
    let reader = ImageReader::with_format(std::io::Cursor::new(bytes), format);
    let (width, height) = reader.into_dimensions().map_err(|e| too_large_or_undecodable(&e, bytes))?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS
        || width > MAX_DECODED_EDGE
        || height > MAX_DECODED_EDGE
    {
        return Err(ImageError::TooManyPixels { width, height });
    }
    let fits = width.max(height) <= MAX_EDGE && bytes.len() <= MAX_SENT_BYTES;
    Ok(Header { format, media_type, width, height, fits })
}

/// On the worker: decode within the limits, then send the picture's own bytes when it fits, or
/// scale it down. Even a picture that fits is decoded: a whole header over broken pixels would
/// otherwise reach the provider, which refuses the request — and every later one, since the
/// image stays in the conversation.
fn decode(bytes: Vec<u8>, header: Header) -> Result<Prepared, ImageError> {
    let mut reader = ImageReader::with_format(std::io::Cursor::new(&bytes), header.format);
    reader.limits(limits());
    let decoded = reader.decode().map_err(|e| too_large_or_undecodable(&e, &bytes))?;
    if !header.fits {
        return scale_down(decoded);
    }
    let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
    Ok(Prepared {
        image: ToolImage { media_type: header.media_type.to_owned(), data },
        width: header.width,
        height: header.height,
        scaled: false,
    })
}

/// The decoder's refusal of what its limits do not allow, in the same words as the header check.
fn too_large_or_undecodable(error: &image::ImageError, bytes: &[u8]) -> ImageError {
    match error {
        image::ImageError::Limits(_) => ImageError::Undecodable(format!(
            "decoding it would take more than {} MiB ({error}); {} bytes",
            MAX_DECODE_ALLOC / (1024 * 1024),
            bytes.len()
        )),
        _ => ImageError::Undecodable(error.to_string()),
    }
}

/// [`prepare`] for base64 data (what the window sends); the claimed media type is not trusted.
pub async fn prepare_base64(data: &str) -> Result<Prepared, ImageError> {
    // A data URL is taken as its data.
    let data = data.split_once(";base64,").map_or(data, |(_, d)| d);
    if data.len() > MAX_INPUT_BYTES / 3 * 4 + 4 {
        return Err(ImageError::TooLarge { bytes: data.len() / 4 * 3 });
    }
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(data.trim()).map_err(|_| ImageError::BadBase64)?;
    prepare(bytes).await
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DECODED_EDGE);
    limits.max_image_height = Some(MAX_DECODED_EDGE);
    limits.max_alloc = Some(MAX_DECODE_ALLOC);
    limits
}

/// A resumed conversation's images, taken in again as when they were attached (a conversation
/// store can hold what an older Warden, or another program, put there): each one [`prepare`]
/// refuses becomes a note saying why, in place of the image.
pub async fn checked_history(mut messages: Vec<Message>) -> Vec<Message> {
    for message in &mut messages {
        for block in &mut message.content {
            match block {
                ContentBlock::Image(image) => match prepare_base64(&image.data).await {
                    Ok(prepared) => *image = prepared.image,
                    Err(error) => {
                        *block = ContentBlock::Text {
                            text: format!("[An image was here; it is not sent again: {error}.]"),
                        }
                    }
                },
                ContentBlock::ToolResult(result) => {
                    let mut kept = Vec::with_capacity(result.images.len());
                    for image in std::mem::take(&mut result.images) {
                        match prepare_base64(&image.data).await {
                            Ok(prepared) => kept.push(prepared.image),
                            Err(error) => result.content.push_str(&format!(
                                "\n[An image of this result is not sent again: {error}.]"
                            )),
                        }
                    }
                    result.images = kept;
                }
                _ => {}
            }
        }
    }
    messages
}

/// Fits the picture in [`MAX_EDGE`] and [`MAX_SENT_BYTES`]: PNG when it has transparency, else
/// JPEG, smaller until it fits.
fn scale_down(mut picture: DynamicImage) -> Result<Prepared, ImageError> {
    let mut edge = MAX_EDGE;
    loop {
        if picture.width().max(picture.height()) > edge {
            picture = picture.resize(edge, edge, image::imageops::FilterType::Triangle);
        }
        let (bytes, media_type) = encode(&picture)?;
        if bytes.len() <= MAX_SENT_BYTES || edge <= 256 {
            let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
            return Ok(Prepared {
                image: ToolImage { media_type: media_type.to_owned(), data },
                width: picture.width(),
                height: picture.height(),
                scaled: true,
            });
        }
        edge = edge * 3 / 4;
    }
}

fn encode(picture: &DynamicImage) -> Result<(Vec<u8>, &'static str), ImageError> {
    let mut out = std::io::Cursor::new(Vec::new());
    let media_type = if picture.color().has_alpha() {
        picture.write_to(&mut out, ImageFormat::Png).map_err(|e| ImageError::Undecodable(e.to_string()))?;
        "image/png"
    } else {
        let rgb = DynamicImage::ImageRgb8(picture.to_rgb8());
        let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 85);
        rgb.write_with_encoder(encoder).map_err(|e| ImageError::Undecodable(e.to_string()))?;
        "image/jpeg"
    };
    Ok((out.into_inner(), media_type))
}

/// The note a model that does not take images gets in place of one.
pub const NOT_SENT: &str =
    "[An image was attached here; this model does not take images, so it was not sent.]";

/// `messages` for a model that does not take images: each attached image becomes a note, and
/// tool results keep only their text (which describes their images).
pub fn without_images(messages: Vec<Message>) -> Vec<Message> {
    messages
        .into_iter()
        .map(|mut message| {
            for block in &mut message.content {
                match block {
                    ContentBlock::Image(_) => *block = ContentBlock::Text { text: NOT_SENT.to_owned() },
                    ContentBlock::ToolResult(result) => result.images.clear(),
                    _ => {}
                }
            }
            message
        })
        .collect()
}

/// Whether a model takes images, by its name (`None`: not known; treated as no).
pub fn model_takes_images(provider: crate::provider::ProviderKind, model: &str) -> bool {
    use crate::provider::ProviderKind;
    let model = model.to_ascii_lowercase();
    match provider {
        // Every model the Messages API serves reads images, from Claude 3 on.
        ProviderKind::Anthropic => !model.starts_with("claude-2") && !model.starts_with("claude-instant"),
        ProviderKind::OpenAi => {
            ["gpt-4o", "gpt-4.1", "gpt-4-turbo", "gpt-5", "o1", "o3", "o4", "chatgpt-4o"]
                .iter()
                .any(|p| model.starts_with(p))
                || ["vision", "-vl", "vl-", "llava", "pixtral", "gemma-3", "gemma3"]
                    .iter()
                    .any(|m| model.contains(m))
        }
        ProviderKind::Ollama => [
            "llava",
            "vision",
            "bakllava",
            "moondream",
            "minicpm-v",
            "gemma3",
            "qwen2.5vl",
            "qwen2.5-vl",
            "llama4",
            "mistral-small3",
            "granite3.2-vision",
        ]
        .iter()
        .any(|m| model.contains(m)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32, alpha: bool) -> Vec<u8> {
        let picture = if alpha {
            DynamicImage::ImageRgba8(image::RgbaImage::from_fn(width, height, |x, y| {
                image::Rgba([(x % 256) as u8, (y % 256) as u8, 7, 128])
            }))
        } else {
            DynamicImage::ImageRgb8(image::RgbImage::from_fn(width, height, |x, y| {
                image::Rgb([(x % 256) as u8, (y % 256) as u8, 7])
            }))
        };
        let mut out = std::io::Cursor::new(Vec::new());
        picture.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[tokio::test]
    async fn a_small_image_is_sent_as_it_is() {
        let bytes = png(40, 30, false);
        let prepared = prepare(bytes.clone()).await.unwrap();
        assert_eq!((prepared.width, prepared.height, prepared.scaled), (40, 30, false));
        assert_eq!(prepared.image.media_type, "image/png");
        assert_eq!(base64::engine::general_purpose::STANDARD.decode(&prepared.image.data).unwrap(), bytes);
        assert_eq!(prepared.describe(), "PNG, 40×30");
    }

    /// A small picture whose header is whole but whose pixels are not: sent as it was, a provider
    /// refuses the request, and since the image stays in the conversation, every later one.
    #[tokio::test]
    async fn a_small_image_whose_pixels_are_broken_is_refused() {
        let whole = png(40, 30, false);
        // The header and the size are intact; the compressed pixels are cut short…
        let cut = whole[..whole.len() - 40].to_vec();
        assert!(matches!(prepare(cut).await, Err(ImageError::Undecodable(_))));
        // …or overwritten with noise (the IDAT chunk starts after the 33 bytes of signature and IHDR).
        let mut noise = whole.clone();
        for byte in &mut noise[45..whole.len() - 20] {
            *byte ^= 0x5A;
        }
        assert!(matches!(prepare(noise).await, Err(ImageError::Undecodable(_))));
        // A JPEG cut after its header: the same.
        let mut jpeg = std::io::Cursor::new(Vec::new());
        DynamicImage::ImageRgb8(image::RgbImage::from_fn(64, 64, |x, y| image::Rgb([x as u8, y as u8, 9])))
            .write_to(&mut jpeg, ImageFormat::Jpeg)
            .unwrap();
        let jpeg = jpeg.into_inner();
        assert!(matches!(prepare(jpeg[..jpeg.len() / 2].to_vec()).await, Err(ImageError::Undecodable(_))));
        // The whole ones still go as they are.
        assert!(!prepare(whole).await.unwrap().scaled);
        assert!(!prepare(jpeg).await.unwrap().scaled);
    }

    #[tokio::test]
    async fn a_large_image_is_scaled_to_the_long_edge_keeping_its_shape_and_transparency() {
        let prepared = prepare(png(3136, 1000, false)).await.unwrap();
        assert_eq!((prepared.width, prepared.height, prepared.scaled), (1568, 500, true));
        assert_eq!(prepared.image.media_type, "image/jpeg");
        let with_alpha = prepare(png(2000, 2000, true)).await.unwrap();
        assert_eq!((with_alpha.width, with_alpha.image.media_type.as_str()), (1568, "image/png"));
    }

    #[tokio::test]
    async fn what_is_not_an_image_is_refused_whatever_it_claims() {
        assert_eq!(prepare(b"just text, not a picture".to_vec()).await, Err(ImageError::NotAnImage));
        assert_eq!(prepare_base64("!!!not base64").await, Err(ImageError::BadBase64));
        let fake = base64::engine::general_purpose::STANDARD.encode(b"GIF89a but nothing else");
        assert!(matches!(
            prepare_base64(&format!("data:image/gif;base64,{fake}")).await,
            // Its "header" claims 25120×29813 pixels.
            Err(ImageError::Undecodable(_) | ImageError::TooManyPixels { .. })
        ));
        assert!(matches!(prepare(vec![0u8; MAX_INPUT_BYTES + 1]).await, Err(ImageError::TooLarge { .. })));
    }

    #[tokio::test]
    async fn a_decompression_bomb_is_refused_from_its_header() {
        // 380 KB that claim 20,000×20,000 (and decode to it: 400 MB at 8 bits a pixel).
        let bomb = warden_testkit::images::bomb_png(20_000, 20_000);
        assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());
        let refused = prepare(bomb).await;
        assert_eq!(refused, Err(ImageError::TooManyPixels { width: 20_000, height: 20_000 }));
        let said = refused.err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(
            said,
            "it is 20000×20000 pixels (400 megapixels); Warden decodes at most 50 megapixels and 20000 pixels an edge"
        );
        // Long and thin is refused by its edge; a large picture within the limits is decoded and
        // scaled.
        assert!(matches!(
            prepare(warden_testkit::images::bomb_png(40_000, 100)).await,
            Err(ImageError::TooManyPixels { .. })
        ));
        let large = prepare(warden_testkit::images::bomb_png(2_000, 1_600)).await.unwrap();
        assert_eq!((large.width, large.height, large.scaled), (1568, 1254, true));
    }

    #[tokio::test]
    async fn images_are_decoded_one_at_a_time() {
        // Four pictures that must be decoded to be scaled, sent at once from four tasks.
        let tasks: Vec<_> = (0..4).map(|_| tokio::spawn(prepare(png(1800, 300, false)))).collect();
        for task in tasks {
            let prepared = task.await.unwrap().unwrap();
            assert!(prepared.scaled);
        }
        assert_eq!(MOST_DECODING_AT_ONCE.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[tokio::test]
    // Holding the decoder across the wait is the point: the call must wait for it.
    #[allow(clippy::await_holding_lock)]
    async fn a_caller_that_stops_waiting_abandons_its_decode() {
        // The decoder is busy (this test holds it): the call waits, and its caller gives up.
        let busy = DECODING.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let waiting = tokio::time::timeout(Duration::from_millis(200), prepare(png(1800, 300, false))).await;
        assert!(waiting.is_err(), "it waited for the decoder");
        let given_up = GIVEN_UP.load(std::sync::atomic::Ordering::SeqCst);
        drop(busy);
        // Its worker, when its turn comes, sees nobody waits for it and decodes nothing.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while GIVEN_UP.load(std::sync::atomic::Ordering::SeqCst) == given_up {
            assert!(std::time::Instant::now() < deadline, "the abandoned worker decoded or never ran");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    #[tokio::test]
    async fn a_resumed_conversation_keeps_its_images_and_loses_a_bomb() {
        let good = base64::engine::general_purpose::STANDARD.encode(png(40, 30, false));
        let bomb = base64::engine::general_purpose::STANDARD
            .encode(warden_testkit::images::bomb_png(20_000, 20_000));
        let image = |data: &str| ToolImage { media_type: "image/png".into(), data: data.to_owned() };
        let history = vec![Message {
            role: warden_protocol::Role::User,
            content: vec![ContentBlock::Image(image(&good)), ContentBlock::Image(image(&bomb))],
        }];
        let checked = checked_history(history).await;
        assert_eq!(checked[0].content[0], ContentBlock::Image(image(&good)));
        match &checked[0].content[1] {
            ContentBlock::Text { text } => assert!(text.contains("20000×20000 pixels"), "{text}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_model_that_does_not_take_images_gets_a_note() {
        let image = ToolImage { media_type: "image/png".into(), data: "AAAA".into() };
        let message = Message {
            role: warden_protocol::Role::User,
            content: vec![ContentBlock::Text { text: "look".into() }, ContentBlock::Image(image)],
        };
        let sent = without_images(vec![message]);
        assert_eq!(sent[0].content[1], ContentBlock::Text { text: NOT_SENT.to_owned() });
        use crate::provider::ProviderKind;
        assert!(model_takes_images(ProviderKind::Anthropic, "claude-sonnet-4-5"));
        assert!(!model_takes_images(ProviderKind::Anthropic, "claude-2.1"));
        assert!(model_takes_images(ProviderKind::OpenAi, "gpt-4o-mini"));
        assert!(!model_takes_images(ProviderKind::OpenAi, "gpt-3.5-turbo"));
        assert!(model_takes_images(ProviderKind::Ollama, "llava:13b"));
        assert!(!model_takes_images(ProviderKind::Ollama, "qwen2.5-coder:7b"));
    }
}
