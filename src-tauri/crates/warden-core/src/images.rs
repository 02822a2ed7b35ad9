//! Images the user attaches and `file_read` returns: recognised by their bytes (never by a name or
//! a claimed type), refused when they are not a PNG, JPEG, GIF or WebP or are too large to be an
//! honest picture, and scaled down to what models take before they are sent: at most
//! [`MAX_EDGE`] pixels on the long edge and [`MAX_SENT_BYTES`] bytes (Anthropic's limits; OpenAI
//! and Ollama take the same). An animated GIF that must be scaled is sent as its first frame.

use base64::Engine as _;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use warden_protocol::{ContentBlock, Message, ToolImage};

/// The longest edge sent, in pixels.
pub const MAX_EDGE: u32 = 1568;
/// The most bytes of one image sent (before base64).
pub const MAX_SENT_BYTES: usize = 3_750_000;
/// The most bytes of one image taken in.
pub const MAX_INPUT_BYTES: usize = 20 * 1024 * 1024;
/// The largest picture decoded, in pixels per edge (a bigger one is a decompression bomb).
const MAX_DECODED_EDGE: u32 = 20_000;

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

/// Checks `bytes` and scales them down when needed.
pub fn prepare(bytes: &[u8]) -> Result<Prepared, ImageError> {
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(ImageError::TooLarge { bytes: bytes.len() });
    }
    let media_type = media_type(bytes).ok_or(ImageError::NotAnImage)?;
    let format = ImageFormat::from_mime_type(media_type).ok_or(ImageError::NotAnImage)?;
    let mut reader = ImageReader::with_format(std::io::Cursor::new(bytes), format);
    reader.limits(limits());
    let (width, height) = reader.into_dimensions().map_err(|e| ImageError::Undecodable(e.to_string()))?;
    if width.max(height) <= MAX_EDGE && bytes.len() <= MAX_SENT_BYTES {
        let data = base64::engine::general_purpose::STANDARD.encode(bytes);
        return Ok(Prepared {
            image: ToolImage { media_type: media_type.to_owned(), data },
            width,
            height,
            scaled: false,
        });
    }
    let mut reader = ImageReader::with_format(std::io::Cursor::new(bytes), format);
    reader.limits(limits());
    let decoded = reader.decode().map_err(|e| ImageError::Undecodable(e.to_string()))?;
    scale_down(decoded)
}

/// [`prepare`] for base64 data (what the window sends); the claimed media type is not trusted.
pub fn prepare_base64(data: &str) -> Result<Prepared, ImageError> {
    // A data URL is taken as its data.
    let data = data.split_once(";base64,").map_or(data, |(_, d)| d);
    if data.len() > MAX_INPUT_BYTES / 3 * 4 + 4 {
        return Err(ImageError::TooLarge { bytes: data.len() / 4 * 3 });
    }
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(data.trim()).map_err(|_| ImageError::BadBase64)?;
    prepare(&bytes)
}

fn limits() -> Limits {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_DECODED_EDGE);
    limits.max_image_height = Some(MAX_DECODED_EDGE);
    limits.max_alloc = Some(512 * 1024 * 1024);
    limits
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

    #[test]
    fn a_small_image_is_sent_as_it_is() {
        let bytes = png(40, 30, false);
        let prepared = prepare(&bytes).unwrap();
        assert_eq!((prepared.width, prepared.height, prepared.scaled), (40, 30, false));
        assert_eq!(prepared.image.media_type, "image/png");
        assert_eq!(base64::engine::general_purpose::STANDARD.decode(&prepared.image.data).unwrap(), bytes);
        assert_eq!(prepared.describe(), "PNG, 40×30");
    }

    #[test]
    fn a_large_image_is_scaled_to_the_long_edge_keeping_its_shape_and_transparency() {
        let prepared = prepare(&png(3136, 1000, false)).unwrap();
        assert_eq!((prepared.width, prepared.height, prepared.scaled), (1568, 500, true));
        assert_eq!(prepared.image.media_type, "image/jpeg");
        let with_alpha = prepare(&png(2000, 2000, true)).unwrap();
        assert_eq!((with_alpha.width, with_alpha.image.media_type.as_str()), (1568, "image/png"));
    }

    #[test]
    fn what_is_not_an_image_is_refused_whatever_it_claims() {
        assert_eq!(prepare(b"just text, not a picture"), Err(ImageError::NotAnImage));
        assert_eq!(prepare_base64("!!!not base64"), Err(ImageError::BadBase64));
        let fake = base64::engine::general_purpose::STANDARD.encode(b"GIF89a but nothing else");
        assert!(matches!(
            prepare_base64(&format!("data:image/gif;base64,{fake}")),
            Err(ImageError::Undecodable(_))
        ));
        assert!(matches!(prepare(&vec![0u8; MAX_INPUT_BYTES + 1]), Err(ImageError::TooLarge { .. })));
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
