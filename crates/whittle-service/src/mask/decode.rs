//! Reading a screenshot a device server saved: the server chooses the encoding (the PNG of
//! `screencap`, or a JPEG or WebP from a server that compresses what it sends) whatever
//! the file is called, so the format is recognised by the file's first bytes, never by
//! its name. The bytes are untrusted: the file's size, the image's sides and what the
//! decoder may allocate are bounded, and the sides are read from the header before
//! anything is decoded at full size.

use std::fmt;
use std::io::{Cursor, Read};
use std::path::Path;

use image::{DynamicImage, ImageError, ImageFormat, ImageReader, Limits};

/// Files over this size are not read: a screenshot, even an uncompressed PNG of a large
/// tablet, is far smaller (the viewer refuses archived ones over the same size,
/// `evidence/review.rs`).
pub const MAX_SCREENSHOT_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The widest or tallest image decoded: beyond any device's screen (and WebP's own
/// limit), far below what a crafted header can claim.
pub const MAX_SCREENSHOT_SIDE: u32 = 16_384;

/// What a decoder may allocate at once, the decoded pixels included (the `image` crate's
/// default, stated here so it stays whatever that default becomes).
pub const MAX_DECODE_ALLOC: u64 = 512 * 1024 * 1024;

/// The encodings a screenshot is accepted in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenshotFormat {
    Png,
    Jpeg,
    WebP,
}

impl ScreenshotFormat {
    fn of(format: ImageFormat) -> Option<ScreenshotFormat> {
        match format {
            ImageFormat::Png => Some(ScreenshotFormat::Png),
            ImageFormat::Jpeg => Some(ScreenshotFormat::Jpeg),
            ImageFormat::WebP => Some(ScreenshotFormat::WebP),
            _ => None,
        }
    }

    fn image_format(self) -> ImageFormat {
        match self {
            ScreenshotFormat::Png => ImageFormat::Png,
            ScreenshotFormat::Jpeg => ImageFormat::Jpeg,
            ScreenshotFormat::WebP => ImageFormat::WebP,
        }
    }
}

impl fmt::Display for ScreenshotFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScreenshotFormat::Png => "PNG",
            ScreenshotFormat::Jpeg => "JPEG",
            ScreenshotFormat::WebP => "WebP",
        })
    }
}

/// Why a screenshot's bytes gave no image.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeFailure {
    #[error("the file could not be read ({0})")]
    Unreadable(std::io::ErrorKind),
    #[error("the file is over the {limit}-byte limit")]
    FileTooLarge { limit: u64 },
    #[error("the file is empty")]
    Empty,
    #[error("its bytes are not a PNG, JPEG or WebP image")]
    UnknownFormat,
    #[error("it is a {} image, not a PNG, JPEG or WebP one", format_name(.format))]
    Unsupported { format: ImageFormat },
    #[error(
        "the {format} image is {width}x{height}, more than a screenshot can be (at most \
         {MAX_SCREENSHOT_SIDE} pixels a side and {} MiB decoded)",
        MAX_DECODE_ALLOC >> 20
    )]
    TooLarge {
        format: ScreenshotFormat,
        width: u32,
        height: u32,
    },
    #[error("the {format} image stops before its end marker (the file is truncated)")]
    Truncated { format: ScreenshotFormat },
    /// The decoder's own words: about the encoding (a truncated stream, a bad checksum),
    /// never the pixels.
    #[error("the {format} image is damaged or truncated: {message}")]
    Damaged {
        format: ScreenshotFormat,
        message: String,
    },
}

fn format_name(format: &ImageFormat) -> String {
    format
        .extensions_str()
        .first()
        .map_or_else(|| format!("{format:?}"), |ext| ext.to_ascii_uppercase())
}

/// Reads the screenshot at `path` (at most [`MAX_SCREENSHOT_FILE_BYTES`]) and decodes it
/// as [`decode_screenshot`] does.
pub fn read_screenshot(path: &Path) -> Result<DynamicImage, DecodeFailure> {
    let unreadable = |e: std::io::Error| DecodeFailure::Unreadable(e.kind());
    let too_large = DecodeFailure::FileTooLarge {
        limit: MAX_SCREENSHOT_FILE_BYTES,
    };
    let file = std::fs::File::open(path).map_err(unreadable)?;
    if file.metadata().map_err(unreadable)?.len() > MAX_SCREENSHOT_FILE_BYTES {
        return Err(too_large);
    }
    // The file may still grow after the size was read: read one byte past the limit.
    let mut bytes = Vec::new();
    file.take(MAX_SCREENSHOT_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_SCREENSHOT_FILE_BYTES {
        return Err(too_large);
    }
    decode_screenshot(&bytes)
}

/// Decodes a PNG, JPEG or WebP screenshot, recognised by its first bytes, within the
/// limits above.
pub fn decode_screenshot(bytes: &[u8]) -> Result<DynamicImage, DecodeFailure> {
    if bytes.is_empty() {
        return Err(DecodeFailure::Empty);
    }
    let guessed = image::guess_format(bytes).map_err(|_| DecodeFailure::UnknownFormat)?;
    let format =
        ScreenshotFormat::of(guessed).ok_or(DecodeFailure::Unsupported { format: guessed })?;
    if format == ScreenshotFormat::Jpeg && !ends_with_jpeg_eoi(bytes) {
        return Err(DecodeFailure::Truncated { format });
    }
    let damaged = |e: ImageError| DecodeFailure::Damaged {
        format,
        message: e.to_string(),
    };
    let reader = |limits: Limits| {
        let mut reader = ImageReader::with_format(Cursor::new(bytes), format.image_format());
        reader.limits(limits);
        reader
    };
    // The sides first, from the header alone, so an oversized image is refused with its
    // size before a pixel is decoded.
    let mut header_limits = Limits::default();
    header_limits.max_alloc = Some(MAX_DECODE_ALLOC);
    let (width, height) = reader(header_limits.clone())
        .into_dimensions()
        .map_err(damaged)?;
    let too_large = DecodeFailure::TooLarge {
        format,
        width,
        height,
    };
    if width > MAX_SCREENSHOT_SIDE || height > MAX_SCREENSHOT_SIDE {
        return Err(too_large);
    }
    let mut limits = header_limits;
    limits.max_image_width = Some(MAX_SCREENSHOT_SIDE);
    limits.max_image_height = Some(MAX_SCREENSHOT_SIDE);
    reader(limits).decode().map_err(|e| match e {
        ImageError::Limits(_) => too_large,
        other => damaged(other),
    })
}

/// Does the JPEG end with its End Of Image marker (`FF D9`), zero padding aside? The
/// decoder fills in whatever a truncated scan lacks and reports success, so a file the
/// server had not finished writing would be archived as a screen half grey; PNG and WebP
/// decoders refuse a truncated stream themselves.
fn ends_with_jpeg_eoi(bytes: &[u8]) -> bool {
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    bytes[..end].ends_with(&[0xFF, 0xD9])
}

#[cfg(test)]
mod tests {
    use image::{Rgb, RgbImage};

    use super::*;

    /// A small screen: light background, a dark bar (as text would be).
    fn screen() -> RgbImage {
        RgbImage::from_fn(64, 48, |_, y| {
            if (10..20).contains(&y) {
                Rgb([20, 20, 20])
            } else {
                Rgb([240, 240, 240])
            }
        })
    }

    fn encoded(format: ImageFormat) -> Vec<u8> {
        let mut out = Vec::new();
        screen()
            .write_to(&mut Cursor::new(&mut out), format)
            .unwrap();
        out
    }

    #[test]
    fn png_jpeg_and_webp_are_recognised_by_their_bytes() {
        for format in [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::WebP] {
            let img = decode_screenshot(&encoded(format)).unwrap().to_rgb8();
            assert_eq!(img.dimensions(), (64, 48), "{format:?}");
            // Lossy JPEG moves colours a little, never from light to dark.
            assert!(img.get_pixel(5, 15)[0] < 60, "{format:?}");
            assert!(img.get_pixel(5, 40)[0] > 200, "{format:?}");
        }
    }

    #[test]
    fn the_name_of_the_file_does_not_matter() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        std::fs::write(&path, encoded(ImageFormat::Jpeg)).unwrap();
        assert_eq!(read_screenshot(&path).unwrap().width(), 64);
    }

    #[test]
    fn other_formats_and_garbage_are_refused_each_with_its_reason() {
        assert_eq!(decode_screenshot(b""), Err(DecodeFailure::Empty));
        assert_eq!(
            decode_screenshot(b"<html>503 Service Unavailable</html>"),
            Err(DecodeFailure::UnknownFormat)
        );
        let gif = decode_screenshot(&encoded(ImageFormat::Gif)).unwrap_err();
        assert_eq!(
            gif,
            DecodeFailure::Unsupported {
                format: ImageFormat::Gif
            }
        );
        assert_eq!(
            gif.to_string(),
            "it is a GIF image, not a PNG, JPEG or WebP one"
        );
        let jpeg = encoded(ImageFormat::Jpeg);
        assert_eq!(
            decode_screenshot(&jpeg[..jpeg.len() - 40]),
            Err(DecodeFailure::Truncated {
                format: ScreenshotFormat::Jpeg
            })
        );
        let mut padded = jpeg.clone();
        padded.extend([0; 16]);
        assert!(
            decode_screenshot(&padded).is_ok(),
            "zero padding is no truncation"
        );
        for format in [ImageFormat::Png, ImageFormat::WebP] {
            let whole = encoded(format);
            assert!(
                matches!(
                    decode_screenshot(&whole[..whole.len() / 2]),
                    Err(DecodeFailure::Damaged { format: f, .. }) if f == ScreenshotFormat::of(format).unwrap()
                ),
                "{format:?}"
            );
        }
    }

    /// A JPEG header claiming 60000x60000 pixels (10 GB decoded) is refused with that
    /// size, from the header alone.
    #[test]
    fn an_oversized_header_is_refused_before_decoding() {
        let mut jpeg = encoded(ImageFormat::Jpeg);
        // SOF0: FF C0, length (2 bytes), precision (1 byte), then height and width.
        let sof = jpeg.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        jpeg[sof + 5..sof + 9].copy_from_slice(&[0xEA, 0x60, 0xEA, 0x60]);
        assert_eq!(
            decode_screenshot(&jpeg),
            Err(DecodeFailure::TooLarge {
                format: ScreenshotFormat::Jpeg,
                width: 60_000,
                height: 60_000
            })
        );
    }

    /// A real image wider than any screen, small in bytes and in memory, is refused by
    /// its side alone.
    #[test]
    fn a_side_over_the_limit_is_refused() {
        let mut png = Vec::new();
        RgbImage::new(MAX_SCREENSHOT_SIDE + 1, 2)
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .unwrap();
        assert_eq!(
            decode_screenshot(&png),
            Err(DecodeFailure::TooLarge {
                format: ScreenshotFormat::Png,
                width: MAX_SCREENSHOT_SIDE + 1,
                height: 2
            })
        );
    }

    #[test]
    fn a_file_over_the_size_limit_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.png");
        let file = std::fs::File::create(&path).unwrap();
        // Sparse: nothing is written, and nothing is read either.
        file.set_len(MAX_SCREENSHOT_FILE_BYTES + 1).unwrap();
        assert_eq!(
            read_screenshot(&path),
            Err(DecodeFailure::FileTooLarge {
                limit: MAX_SCREENSHOT_FILE_BYTES
            })
        );
        assert_eq!(
            read_screenshot(&dir.path().join("none.png")),
            Err(DecodeFailure::Unreadable(std::io::ErrorKind::NotFound))
        );
    }
}
