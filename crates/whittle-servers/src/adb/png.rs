//! The size of a PNG, read from its IHDR header (the first chunk, at a fixed offset), so a
//! screenshot is checked and measured without decoding it.
const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// `(width, height)`, or why the bytes are not a PNG.
pub fn png_size(bytes: &[u8]) -> Result<(u32, u32), String> {
    if bytes.len() < 24 {
        return Err(format!("{} bytes is too short for a PNG", bytes.len()));
    }
    if &bytes[..8] != SIGNATURE {
        // adb on old Windows hosts turned \n into \r\n; anything else is device text.
        let head = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).into_owned();
        return Err(format!("no PNG signature; output starts with {head:?}"));
    }
    if &bytes[12..16] != b"IHDR" {
        return Err("first PNG chunk is not IHDR".into());
    }
    let be = |o: usize| u32::from_be_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
    let (w, h) = (be(16), be(20));
    if w == 0 || h == 0 {
        return Err(format!("PNG header says {w}x{h}"));
    }
    Ok((w, h))
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
        let err = png_size(b"/system/bin/sh: screencap: inaccessible or not found\n").unwrap_err();
        assert!(err.contains("no PNG signature"), "{err}");
        assert!(png_size(&encode(4, 4)[..20]).is_err());
        let mut bad = encode(4, 4);
        bad[12..16].copy_from_slice(b"IDAT");
        assert!(png_size(&bad).is_err());
    }
}
