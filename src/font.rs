//! The bundled font (DejaVu Sans Mono Bold, free licence in assets/fonts), rasterised
//! with ab_glyph, so drawing never depends on the fonts installed on the machine.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{GrayImage, Luma, Rgb, RgbImage};

static FONT_BYTES: &[u8] = include_bytes!("../assets/fonts/DejaVuSansMono-Bold.ttf");

fn font() -> FontRef<'static> {
    FontRef::try_from_slice(FONT_BYTES).expect("the bundled font is a valid TrueType file")
}

/// Coverage (0..255) of `text` drawn with its digits `digit_height` px tall, cropped
/// to the ink with a 1 px margin.
pub fn rasterize(text: &str, digit_height: f32) -> GrayImage {
    let font = font();
    // PxScale sets the ascent-to-descent height; measure what that makes of an "8" and
    // scale so digits come out the height asked.
    let probe = font.as_scaled(PxScale::from(100.0)).scaled_glyph('8');
    let eight = font
        .outline_glyph(probe)
        .map(|o| o.px_bounds().height())
        .unwrap_or(62.6);
    let scale = PxScale::from(digit_height * 100.0 / eight.max(1.0));
    let scaled = font.as_scaled(scale);
    let mut x = 0.0f32;
    let mut outlines = Vec::new();
    for ch in text.chars() {
        let glyph = scaled.scaled_glyph(ch);
        let mut g = glyph.clone();
        g.position = ab_glyph::point(x, scaled.ascent());
        x += scaled.h_advance(glyph.id);
        if let Some(o) = font.outline_glyph(g) {
            outlines.push(o);
        }
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for o in &outlines {
        let b = o.px_bounds();
        x0 = x0.min(b.min.x);
        y0 = y0.min(b.min.y);
        x1 = x1.max(b.max.x);
        y1 = y1.max(b.max.y);
    }
    if outlines.is_empty() {
        return GrayImage::new(1, 1);
    }
    let (w, h) = ((x1 - x0).ceil() as u32 + 2, (y1 - y0).ceil() as u32 + 2);
    let mut out = GrayImage::new(w, h);
    for o in &outlines {
        let b = o.px_bounds();
        let (ox, oy) = ((b.min.x - x0) as i32 + 1, (b.min.y - y0) as i32 + 1);
        o.draw(|gx, gy, c| {
            let (px, py) = (ox + gx as i32, oy + gy as i32);
            if px >= 0 && py >= 0 && (px as u32) < w && (py as u32) < h {
                let p = out.get_pixel_mut(px as u32, py as u32);
                p.0[0] = p.0[0].max((c.clamp(0.0, 1.0) * 255.0) as u8);
            }
        });
    }
    out
}

/// Blends `colour` into `img` through `coverage`, with the coverage's top-left at (x, y).
pub fn blend(img: &mut RgbImage, coverage: &GrayImage, x: i32, y: i32, colour: [u8; 3]) {
    for (gx, gy, Luma([c])) in coverage.enumerate_pixels() {
        let (px, py) = (x + gx as i32, y + gy as i32);
        if *c == 0 || px < 0 || py < 0 || px as u32 >= img.width() || py as u32 >= img.height() {
            continue;
        }
        let a = *c as f32 / 255.0;
        let p = img.get_pixel_mut(px as u32, py as u32);
        *p = Rgb(std::array::from_fn(|k| {
            (p.0[k] as f32 * (1.0 - a) + colour[k] as f32 * a).round() as u8
        }));
    }
}

/// Draws `text` with its top-left at (x, y), digits `height` px tall.
pub fn draw_text(img: &mut RgbImage, text: &str, x: i32, y: i32, height: f32, colour: [u8; 3]) {
    blend(img, &rasterize(text, height), x, y, colour);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digit_comes_out_the_height_asked() {
        let g = rasterize("8", 30.0);
        let rows_with_ink = (0..g.height())
            .filter(|&y| (0..g.width()).any(|x| g.get_pixel(x, y).0[0] > 128))
            .count();
        assert!((28..=32).contains(&rows_with_ink), "{rows_with_ink}");
    }
}
