//! Digits drawn as outlines only (hollow letters): the ink is the edge of each stroke,
//! and the strokes' insides are holes as large as the digit. Neither reader knows such
//! digits; with the insides of the strokes filled they are ordinary bold digits. The
//! digit's own counters (the holes of a 0, 4, 6, 8 or 9) stay open: they are compact,
//! where a stroke's inside is a thin ring or bar.

use image::{GrayImage, Luma};

use super::components::{Flood, Neighbours};

/// Ink strength from which a pixel counts as ink.
const INK: u8 = 128;
/// A hole is a stroke's inside when it covers less than this share of its box (a ring
/// along the digit's edge)...
const MAX_RING_FILL: f32 = 0.4;
/// ... or when it is at most this share of the glyph's height thick (its area over its
/// longer side: a 1's hollow stem).
const MAX_STROKE_THICKNESS: f32 = 0.1;
/// The filled insides add at least this share to the ink: an outline digit, not a solid
/// one with a speck of background inside a stroke.
const MIN_ADDED: f32 = 0.3;

/// The glyph's ink (255 = full ink) with the insides of its strokes filled, when it is
/// an outline digit; `None` for any other glyph.
pub fn filled(ink: &GrayImage) -> Option<GrayImage> {
    let (w, h) = ink.dimensions();
    if w < 3 || h < 3 {
        return None;
    }
    let background = |x: u32, y: u32| ink.get_pixel(x, y).0[0] < INK;
    // The background reached from the box's edge is outside the digit.
    let mut outside = vec![false; (w * h) as usize];
    let mut flood = Flood::new(w, h, Neighbours::Four, background);
    for x in 0..w {
        flood.seed(x, 0);
        flood.seed(x, h - 1);
    }
    for y in 0..h {
        flood.seed(0, y);
        flood.seed(w - 1, y);
    }
    flood.fill(|x, y| outside[(y * w + x) as usize] = true);
    // Every other background component is a hole.
    let mut out = ink.clone();
    let mut added = 0usize;
    let inside = |x: u32, y: u32| background(x, y) && !outside[(y * w + x) as usize];
    let mut holes = Flood::new(w, h, Neighbours::Four, inside);
    while holes.next_component().is_some() {
        let mut pixels = Vec::new();
        holes.fill(|x, y| pixels.push((x, y)));
        if is_stroke_inside(&pixels, h) {
            added += pixels.len();
            for &(x, y) in &pixels {
                out.put_pixel(x, y, Luma([255]));
            }
        }
    }
    let inked = ink.pixels().filter(|p| p.0[0] >= INK).count();
    (added as f32 >= MIN_ADDED * inked as f32 && added > 0).then_some(out)
}

/// True when a hole (its pixels) in a glyph `h` pixels high is the inside of a stroke:
/// a ring (little of its box) or a thin bar, not a digit's compact counter.
fn is_stroke_inside(pixels: &[(u32, u32)], h: u32) -> bool {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for &(x, y) in pixels {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let (bw, bh) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let area = pixels.len() as f32;
    area < MAX_RING_FILL * bw * bh || area / bw.max(bh) <= MAX_STROKE_THICKNESS * h as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square glyph `n` pixels a side: ink on the squares' edges at the given insets.
    fn squares(n: u32, edges: &[u32]) -> GrayImage {
        GrayImage::from_fn(n, n, |x, y| {
            let on = edges.iter().any(|&e| {
                let (lo, hi) = (e, n - 1 - e);
                (x == lo || x == hi || y == lo || y == hi)
                    && (lo..=hi).contains(&x)
                    && (lo..=hi).contains(&y)
            });
            Luma([if on { 255 } else { 0 }])
        })
    }

    #[test]
    fn a_hollow_digit_is_filled_and_a_solid_one_with_a_counter_is_not() {
        // A hollow "0": the outer and inner edges of its stroke (insets 0 and 2), the
        // stroke's inside between them, the counter inside the inner edge.
        let hollow = squares(16, &[0, 2]);
        let solid = filled(&hollow).expect("an outline digit");
        assert_eq!(
            solid.get_pixel(1, 5).0[0],
            255,
            "the stroke's inside is ink"
        );
        assert_eq!(solid.get_pixel(8, 8).0[0], 0, "the counter stays open");
        // A solid "0" with the same counter (a stroke 3 px wide): nothing to fill.
        let zero = squares(16, &[0, 1, 2]);
        assert!(filled(&zero).is_none());
    }
}
