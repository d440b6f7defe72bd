//! The filmstrip in a bundle: each masked frame as `filmstrip/step-NN.png` (NN is the
//! step's number in repro.md) and one animated `filmstrip.gif` a bug tracker shows
//! inline. The GIF is made from the already-masked frames only, scaled down; its last
//! frame is the last one again with a red border: the crash follows it.

use std::io::Cursor;

use image::codecs::gif::{GifEncoder, Repeat};
use image::imageops::FilterType;
use image::{Delay, Frame, Rgba, RgbaImage};

use super::files::NewBundle;
use super::{
    ExportError, FilmstripInput, ManifestFile, ManifestFilmstrip, ManifestFrame, FILMSTRIP_DIR,
    FILMSTRIP_GIF,
};

/// Widest GIF frame: small enough for a ticket, large enough to read a screen.
const GIF_WIDTH: u32 = 320;
const FRAME_MS: u32 = 1200;
const LAST_FRAME_MS: u32 = 2500;
const BORDER: u32 = 6;

/// Writes the frames and the GIF into `bundle`; returns their manifest lines and the
/// filmstrip's manifest entry.
pub(crate) fn write_filmstrip(
    bundle: &mut NewBundle<'_>,
    film: &FilmstripInput,
) -> Result<(Vec<ManifestFile>, ManifestFilmstrip), ExportError> {
    let mut files = Vec::new();
    let mut frames = Vec::new();
    let mut images = Vec::new();
    if film.frames.iter().any(|f| f.path.is_some()) {
        bundle.create_dir(FILMSTRIP_DIR)?;
    }
    for (i, frame) in film.frames.iter().enumerate() {
        let position = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let mut entry = ManifestFrame {
            position,
            step: frame.step,
            before_action: frame.before_action,
            path: None,
            omitted: frame.omitted.clone(),
        };
        if let Some(src) = &frame.path {
            let bytes = std::fs::read(src).map_err(|_| ExportError::Screenshot(src.clone()))?;
            let rel = format!("{FILMSTRIP_DIR}/step-{position:02}.png");
            files.push(bundle.write(&rel, &bytes)?);
            entry.path = Some(rel);
            // A frame that does not decode is still in the bundle, just not in the GIF.
            if let Ok(img) = image::load_from_memory(&bytes) {
                images.push(img.to_rgba8());
            }
        }
        frames.push(entry);
    }
    let gif = match gif_bytes(&images) {
        Some(bytes) => {
            files.push(bundle.write(FILMSTRIP_GIF, &bytes)?);
            Some(FILMSTRIP_GIF.to_string())
        }
        None => None,
    };
    Ok((
        files,
        ManifestFilmstrip {
            attempt: film.attempt,
            frames,
            gif,
            extra_device_ms: film.extra_device_ms,
        },
    ))
}

/// An endlessly looping GIF of the frames, all scaled to the first one's size.
fn gif_bytes(images: &[RgbaImage]) -> Option<Vec<u8>> {
    let first = images.first()?;
    let width = first.width().clamp(1, GIF_WIDTH);
    let height = (u64::from(first.height()) * u64::from(width) / u64::from(first.width().max(1)))
        .clamp(1, 4 * u64::from(GIF_WIDTH)) as u32;
    let scaled: Vec<RgbaImage> = images
        .iter()
        .map(|img| image::imageops::resize(img, width, height, FilterType::Triangle))
        .collect();
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(Cursor::new(&mut out), 10);
        encoder.set_repeat(Repeat::Infinite).ok()?;
        let delay = |ms| Delay::from_numer_denom_ms(ms, 1);
        for img in &scaled {
            encoder
                .encode_frame(Frame::from_parts(img.clone(), 0, 0, delay(FRAME_MS)))
                .ok()?;
        }
        let mut last = scaled.last()?.clone();
        red_border(&mut last);
        encoder
            .encode_frame(Frame::from_parts(last, 0, 0, delay(LAST_FRAME_MS)))
            .ok()?;
    }
    Some(out)
}

fn red_border(img: &mut RgbaImage) {
    let (w, h) = img.dimensions();
    let red = Rgba([220, 30, 30, 255]);
    for y in 0..h {
        for x in 0..w {
            if x < BORDER || y < BORDER || x + BORDER >= w || y + BORDER >= h {
                img.put_pixel(x, y, red);
            }
        }
    }
}
