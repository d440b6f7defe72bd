//! Generated phone screens for the masking leak test: a hierarchy and the pixels it
//! describes, with private text drawn INTO the pixels (8x8 bitmap font) and the exact
//! ink pixels of every private and public string recorded, so a test can check an
//! archived image pixel by pixel instead of trusting what the masker says it did.
//! Portrait and landscape; over the app, system surfaces it does not draw: a soft
//! keyboard whose suggestion strip shows what is typed (edge-to-edge, the app's root
//! under it, or adjustResize, the root above it; listed in the dump as the IME's window
//! or not listed at all), a heads-up notification and a toast (System UI's windows).

use font8x8::{UnicodeFonts, BASIC_FONTS};
use image::{Rgb, RgbImage};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use whittle_contract::ui::{Hierarchy, UiElement};

pub const APP: &str = "com.example.leaky";
const IME: &str = "com.google.android.inputmethod.latin";
const SYSTEM_UI: &str = "com.android.systemui";
const KEYBOARD: Rgb<u8> = Rgb([50, 54, 60]);
const KEY_INK: Rgb<u8> = Rgb([230, 230, 230]);
const SURFACE: Rgb<u8> = Rgb([250, 240, 200]);
/// The keyboard band the masker assumes while a field has focus and no keyboard is
/// listed starts no higher than this share of the screen (mask/overlay.rs).
const KEYBOARD_TOP_SHARE: f64 = 0.35;
pub const STATUS_BAR: u32 = 24;
const BACKGROUND: Rgb<u8> = Rgb([240, 240, 240]);
const STATUS: Rgb<u8> = Rgb([40, 40, 60]);
const PAPER: Rgb<u8> = Rgb([255, 255, 250]);
const BORDER: Rgb<u8> = Rgb([120, 120, 120]);
/// Never black: a solid mask is black, so an ink pixel still showing its colour is a leak.
const INKS: [Rgb<u8>; 3] = [Rgb([20, 20, 30]), Rgb([200, 30, 30]), Rgb([30, 90, 200])];
/// Text starts this far inside its element, so a scaled check region stays inside it.
const PAD: i32 = 8;

/// Who must not see a piece of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Privacy {
    /// Hidden at every level: the hierarchy marks it private, or cannot see into its view.
    Always,
    /// Hidden at `strict` only: ordinary text or an image.
    StrictOnly,
    /// Public: `standard` keeps it readable.
    Public,
}

/// One string as drawn: where its ink is and on what background.
#[derive(Debug, Clone)]
pub struct Drawn {
    pub what: &'static str,
    pub privacy: Privacy,
    /// Screen pixels that carry ink.
    pub ink: Vec<(u32, u32)>,
    /// The ink's bounding box `[x0, y0, x1, y1)` and the colour around it.
    pub bbox: [u32; 4],
    pub paper: Rgb<u8>,
}

#[derive(Debug, Clone)]
pub struct Screen {
    pub pixels: RgbImage,
    /// Whether the app's hierarchy spans what the masker needs to place its masks: not
    /// when an adjustResize window ends above a keyboard the dump does not list (the
    /// masker then omits the screenshot, which is the safe answer).
    pub spans_screen: bool,
    /// What the app's window really contains, in document order with depths.
    pub hierarchy: Hierarchy,
    pub texts: Vec<Drawn>,
}

fn node(class: &str, text: &str, bounds: [i32; 4], depth: u32) -> UiElement {
    owned_node(APP, class, text, bounds, depth)
}

fn owned_node(package: &str, class: &str, text: &str, bounds: [i32; 4], depth: u32) -> UiElement {
    UiElement {
        class: class.into(),
        text: text.into(),
        bounds,
        package: Some(package.into()),
        depth: Some(depth),
        ..UiElement::default()
    }
}

/// The kinds of row a screen is built from, each with what the hierarchy says about it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Row {
    Title,
    Button,
    Email,
    Password,
    FocusedInput,
    Card,
    Name,
    Image,
    Opaque,
}

const ROWS: [Row; 9] = [
    Row::Title,
    Row::Button,
    Row::Email,
    Row::Password,
    Row::FocusedInput,
    Row::Card,
    Row::Name,
    Row::Image,
    Row::Opaque,
];

const OPAQUE_CLASSES: [&str; 5] = [
    "android.webkit.WebView",
    "android.view.SurfaceView",
    "android.view.TextureView",
    "io.flutter.embedding.android.FlutterView",
    "android.opengl.GLSurfaceView",
];

/// A random screen: status bar, the app's window (full screen or below the status bar)
/// with 4–8 rows of every kind, and sometimes a large canvas filling the rest.
pub fn screen(rng: &mut ChaCha8Rng) -> Screen {
    let (w, h) = if rng.gen_bool(0.3) {
        (rng.gen_range(480..=640u32), rng.gen_range(260..=320u32))
    } else {
        (rng.gen_range(200..=320u32), rng.gen_range(380..=560u32))
    };
    let mut pixels = RgbImage::from_pixel(w, h, BACKGROUND);
    let mut texts = Vec::new();
    let (wi, hi) = (w as i32, h as i32);
    fill(&mut pixels, [0, 0, wi, STATUS_BAR as i32], STATUS);
    // A window that leaves the status bar out gets a notification drawn there: pixels
    // the hierarchy does not describe, which must be masked as outside it.
    let below_bar = rng.gen_bool(0.5);
    let top = if below_bar { STATUS_BAR as i32 } else { 0 };
    if below_bar {
        let mail = format!("m{}@x.io", rng.gen_range(10..99));
        let privacy = Privacy::Always;
        texts.push(draw(
            &mut pixels,
            "status bar",
            &mail,
            [0, 0, wi, STATUS_BAR as i32],
            1,
            INKS[2],
            STATUS,
            privacy,
        ));
    }
    let mut elements = vec![node("android.widget.FrameLayout", "", [0, top, wi, hi], 0)];
    let mut y = top + 8;
    let mut rows: Vec<Row> = ROWS.to_vec();
    rows.shuffle(rng);
    rows.truncate(rng.gen_range(4..=8));
    for row in rows {
        let height = match row {
            Row::Opaque | Row::Image => rng.gen_range(44..=90),
            _ => rng.gen_range(34..=44),
        };
        if y + height > hi - 8 {
            break;
        }
        let b = [8, y, wi - 8, y + height];
        y += height + rng.gen_range(4..=12);
        let ink = *INKS.choose(rng).unwrap();
        let n = rng.gen_range(100..999);
        let (el, text, what, privacy) = match row {
            Row::Title => (
                node("android.widget.TextView", "Shop", b, 1),
                "Shop".to_string(),
                "title",
                Privacy::Public,
            ),
            Row::Button => (
                node("android.widget.Button", "Next", b, 1),
                "Next".to_string(),
                "button",
                Privacy::Public,
            ),
            Row::Email => {
                let mail = format!("jd{n}@ex.io");
                (
                    node("android.widget.TextView", &mail, b, 1),
                    mail,
                    "e-mail",
                    Privacy::Always,
                )
            }
            Row::Password => {
                let mut e = node("android.widget.EditText", "", b, 1);
                e.password = true;
                (e, format!("Pw{n}!x"), "password (shown)", Privacy::Always)
            }
            Row::FocusedInput => {
                let typed = format!("note {n}");
                let mut e = node("android.widget.EditText", &typed, b, 1);
                e.focused = true;
                (e, typed, "focused input", Privacy::Always)
            }
            Row::Card => {
                let card = "4111111111111111".to_string();
                (
                    node("android.widget.TextView", &card, b, 1),
                    card,
                    "card",
                    Privacy::Always,
                )
            }
            Row::Name => (
                node("android.widget.TextView", "Jane Q", b, 1),
                "Jane Q".to_string(),
                "name",
                Privacy::StrictOnly,
            ),
            Row::Image => (
                node("android.widget.ImageView", "", b, 1),
                format!("ID {n}"),
                "text in an image",
                Privacy::StrictOnly,
            ),
            Row::Opaque => {
                let class = *OPAQUE_CLASSES.choose(rng).unwrap();
                (
                    node(class, "", b, 1),
                    format!("acct {n}"),
                    "text in an opaque view",
                    Privacy::Always,
                )
            }
        };
        fill(&mut pixels, b, BORDER);
        fill(&mut pixels, inset(b, 2), PAPER);
        texts.push(draw(&mut pixels, what, &text, b, 2, ink, PAPER, privacy));
        elements.push(el);
    }
    // A childless view over the rest of the screen, as a game or Flutter draws: opaque
    // when it is large, its text in no node.
    if hi - 8 - y >= hi * 2 / 5 && rng.gen_bool(0.6) {
        let b = [0, y, wi, hi];
        fill(&mut pixels, b, PAPER);
        let secret = format!("lvl {}", rng.gen_range(10..99));
        texts.push(draw(
            &mut pixels,
            "text on a canvas",
            &secret,
            b,
            2,
            INKS[0],
            PAPER,
            Privacy::Always,
        ));
        elements.push(node("android.view.View", "", b, 1));
    }
    let mut screen = Screen {
        spans_screen: true,
        pixels,
        hierarchy: Hierarchy { elements },
        texts,
    };
    overlay(&mut screen, rng);
    screen
}

/// Draws system surfaces over the app: sometimes a heads-up notification or a toast
/// with private text, and while a field has focus often a soft keyboard whose
/// suggestion strip repeats what is typed.
fn overlay(s: &mut Screen, rng: &mut ChaCha8Rng) {
    let (w, h) = (s.pixels.width() as i32, s.pixels.height() as i32);
    if rng.gen_bool(0.25) {
        let b = [8, 4, w - 8, 4 + 48];
        let message = format!("msg {}", rng.gen_range(100..999));
        surface(s, b, SYSTEM_UI, &message, "heads-up notification");
    }
    if rng.gen_bool(0.2) {
        let b = [w / 5, h - 70, w - w / 5, h - 40];
        let code = format!("otp {}", rng.gen_range(100..999));
        surface(s, b, SYSTEM_UI, &code, "toast");
    }
    let Some(field) = s.hierarchy.elements.iter().find(|e| e.focused).cloned() else {
        return;
    };
    let listed = keyboard(s, rng, &field);
    if !listed {
        // The masker cannot tell where an unlisted keyboard ends: it masks the band
        // below the field, so public text there is no longer promised to stay readable.
        let band = field.bounds[3].max((f64::from(h) * KEYBOARD_TOP_SHARE).round() as i32);
        for t in s.texts.iter_mut().filter(|t| t.privacy == Privacy::Public) {
            if t.bbox[3] as i32 > band {
                t.privacy = Privacy::StrictOnly;
            }
        }
    }
}

/// Often draws a soft keyboard below the focused `field`, its suggestion strip showing
/// what is typed; returns whether the dump lists it (as the IME's window).
fn keyboard(s: &mut Screen, rng: &mut ChaCha8Rng, field: &UiElement) -> bool {
    let (w, h) = (s.pixels.width() as i32, s.pixels.height() as i32);
    if !rng.gen_bool(0.7) {
        return false;
    }
    let share = rng.gen_range(0.38..=0.6);
    let kb_top = (f64::from(h) * (1.0 - share)).round() as i32;
    if kb_top <= field.bounds[3] {
        return false;
    }
    let resized = rng.gen_bool(0.5);
    if resized {
        // adjustResize: the app's root ends above the keyboard, its rows below are gone.
        s.hierarchy.elements.retain(|e| e.bounds[1] < kb_top);
        if let Some(root) = s.hierarchy.elements.first_mut() {
            root.bounds[3] = kb_top;
        }
    }
    let keyboard = [0, kb_top, w, h];
    cover(s, keyboard, KEYBOARD);
    for (row, keys) in ["qwertyuiop", "asdfghjkl", "zxcvbnm"].iter().enumerate() {
        let y = kb_top + 34 + row as i32 * 24;
        if y + 20 < h {
            draw(
                &mut s.pixels,
                "keys",
                keys,
                [4, y, w - 4, y + 24],
                1,
                KEY_INK,
                KEYBOARD,
                Privacy::Public,
            );
        }
    }
    // The suggestion strip shows the word being typed.
    let typed = field.text.clone();
    let strip = [0, kb_top, w, kb_top + 30];
    s.texts.push(draw(
        &mut s.pixels,
        "keyboard suggestion",
        &typed,
        strip,
        1,
        KEY_INK,
        KEYBOARD,
        Privacy::Always,
    ));
    let listed = rng.gen_bool(0.5);
    if resized && !listed {
        s.spans_screen = f64::from(kb_top) >= 0.8 * f64::from(h);
    }
    if listed {
        s.hierarchy.elements.push(owned_node(
            IME,
            "android.widget.FrameLayout",
            "",
            keyboard,
            0,
        ));
        s.hierarchy
            .elements
            .push(owned_node(IME, "android.widget.TextView", &typed, strip, 1));
    }
    listed
}

/// A System UI window at `b` showing private `text`, listed in the dump.
fn surface(s: &mut Screen, b: [i32; 4], package: &str, text: &str, what: &'static str) {
    cover(s, b, SURFACE);
    s.texts.push(draw(
        &mut s.pixels,
        what,
        text,
        b,
        1,
        INKS[0],
        SURFACE,
        Privacy::Always,
    ));
    s.hierarchy
        .elements
        .push(owned_node(package, "android.widget.FrameLayout", "", b, 0));
    s.hierarchy.elements.push(owned_node(
        package,
        "android.widget.TextView",
        text,
        inset(b, 4),
        1,
    ));
}

/// Paints `b` over the app; the text drawn there before is no longer on screen.
fn cover(s: &mut Screen, b: [i32; 4], color: Rgb<u8>) {
    fill(&mut s.pixels, b, color);
    let hit = |t: &Drawn| {
        (t.bbox[0] as i32) < b[2]
            && (t.bbox[2] as i32) > b[0]
            && (t.bbox[1] as i32) < b[3]
            && (t.bbox[3] as i32) > b[1]
    };
    s.texts.retain(|t| !hit(t));
}

fn inset(b: [i32; 4], by: i32) -> [i32; 4] {
    [b[0] + by, b[1] + by, b[2] - by, b[3] - by]
}

fn fill(img: &mut RgbImage, b: [i32; 4], color: Rgb<u8>) {
    let (w, h) = (img.width() as i32, img.height() as i32);
    for y in b[1].max(0)..b[3].min(h) {
        for x in b[0].max(0)..b[2].min(w) {
            img.put_pixel(x as u32, y as u32, color);
        }
    }
}

/// Draws `s` at `scale` inside `area` (clipped `PAD` inside it) and records its ink.
#[allow(clippy::too_many_arguments)]
fn draw(
    img: &mut RgbImage,
    what: &'static str,
    s: &str,
    area: [i32; 4],
    scale: i32,
    ink: Rgb<u8>,
    paper: Rgb<u8>,
    privacy: Privacy,
) -> Drawn {
    let clip = inset(area, PAD);
    let glyph = 8 * scale;
    let (x, y) = (clip[0], (area[1] + area[3]) / 2 - glyph / 2);
    let mut dots = Vec::new();
    for (i, ch) in s.chars().enumerate() {
        let bits = BASIC_FONTS.get(ch).unwrap_or([0xff; 8]);
        for (row, line) in bits.iter().enumerate() {
            for col in 0..8 {
                if line & (1 << col) == 0 {
                    continue;
                }
                for dy in 0..scale {
                    for dx in 0..scale {
                        let px = x + i as i32 * glyph + col * scale + dx;
                        let py = y + row as i32 * scale + dy;
                        let inside = px >= clip[0] && px < clip[2] && py >= clip[1] && py < clip[3];
                        if inside
                            && px >= 0
                            && py >= 0
                            && (px as u32) < img.width()
                            && (py as u32) < img.height()
                        {
                            img.put_pixel(px as u32, py as u32, ink);
                            dots.push((px as u32, py as u32));
                        }
                    }
                }
            }
        }
    }
    let bbox = dots.iter().fold([u32::MAX, u32::MAX, 0, 0], |b, &(x, y)| {
        [b[0].min(x), b[1].min(y), b[2].max(x + 1), b[3].max(y + 1)]
    });
    Drawn {
        what,
        privacy,
        ink: dots,
        bbox,
        paper,
    }
}
