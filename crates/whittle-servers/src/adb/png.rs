//! The size of a PNG, read from its IHDR header (the first chunk, at a fixed offset), so a
//! screenshot is checked and measured without decoding it.
const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// Why screencap's bytes are not a PNG whose size can be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PngHeaderError {
    #[error("{len} bytes is too short for a PNG")]
    TooShort { len: usize },
    /// `head` is the start of the output (lossy UTF-8), as device text usually is.
    #[error("no PNG signature; output starts with {head:?}")]
    NoSignature { head: String },
    #[error("first PNG chunk is not IHDR")]
    NoIhdr,
    #[error("PNG header says {width}x{height}")]
    EmptySize { width: u32, height: u32 },
}

/// `(width, height)`, or why the bytes are not a PNG.
pub fn png_size(bytes: &[u8]) -> Result<(u32, u32), PngHeaderError> {
    if bytes.len() < 24 {
        return Err(PngHeaderError::TooShort { len: bytes.len() });
    }
    if &bytes[..8] != SIGNATURE {
        // adb on old Windows hosts turned \n into \r\n; anything else is device text.
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
        return Err(PngHeaderError::NoSignature { head });
    }
    if &bytes[12..16] != b"IHDR" {
        return Err(PngHeaderError::NoIhdr);
    }
    let be = |o: usize| u32::from_be_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let (width, height) = (be(16), be(20));
    if width == 0 || height == 0 {
        return Err(PngHeaderError::EmptySize { width, height });
    }
    Ok((width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(w: u32, h: u32) -> Vec<u8> {
        let mut buf = std::io::Cursor::new(Vec::new());
        image::RgbImage::new(w, h)
            .write_to(&mut buf, image::ImageFormat::Png)
            .unwrap();
        buf.into_inner()
    }

    #[test]
    fn size_matches_the_encoded_image() {
        assert_eq!(png_size(&encode(1080, 2424)), Ok((1080, 2424)));
        assert_eq!(png_size(&encode(3, 7)), Ok((3, 7)));
    }

    #[test]
    fn device_text_and_truncated_images_are_refused() {
        let err = png_size(b"/system/bin/sh: screencap: inaccessible or not found\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no PNG signature"), "{err}");
        assert!(png_size(&encode(4, 4)[..20]).is_err());
        let mut bad = encode(4, 4);
        bad[12..16].copy_from_slice(b"IDAT");
        assert!(png_size(&bad).is_err());
    }
}
