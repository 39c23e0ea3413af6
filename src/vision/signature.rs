//! A glyph's look, reduced to compare glyphs cheaply: its ink resampled to a
//! [`COLS`]x[`ROWS`] bitmap, plus its aspect ratio. The same app draws a digit the same
//! way in every cell (up to sub-pixel placement), so look-alikes share one OCR call.

use image::{imageops, GrayImage};

const COLS: u32 = 12;
const ROWS: u32 = 16;
/// Two glyphs are alike when at most this share of their bitmap pixels differ
/// (sub-pixel shifts flip a few edge pixels; two different digits differ in 25%+).
const MAX_DIFFERENT: f32 = 0.10;
/// ... and their aspect ratios differ by at most this factor.
const MAX_ASPECT_RATIO: f32 = 1.15;

#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    bits: Vec<bool>,
    aspect: f32,
}

impl Signature {
    /// The signature of an ink map (255 = full ink).
    pub fn of(ink: &GrayImage) -> Signature {
        let small = imageops::resize(ink, COLS, ROWS, imageops::FilterType::Triangle);
        Signature {
            bits: small.pixels().map(|p| p.0[0] >= 128).collect(),
            aspect: ink.width() as f32 / ink.height().max(1) as f32,
        }
    }

    /// The share of bitmap pixels that differ between the two looks (0 to 1).
    pub fn distance(&self, other: &Signature) -> f32 {
        let count = self
            .bits
            .iter()
            .zip(&other.bits)
            .filter(|(a, b)| a != b)
            .count();
        count as f32 / self.bits.len() as f32
    }

    pub fn alike(&self, other: &Signature) -> bool {
        let ratio = (self.aspect / other.aspect).max(other.aspect / self.aspect);
        if ratio > MAX_ASPECT_RATIO {
            return false;
        }
        let differ: Vec<bool> = self
            .bits
            .iter()
            .zip(&other.bits)
            .map(|(a, b)| a != b)
            .collect();
        let count = differ.iter().filter(|&&d| d).count();
        (count as f32) <= MAX_DIFFERENT * self.bits.len() as f32 && !has_solid_patch(&differ)
    }
}

/// True when the differing bits hold a 2x2 square: a stroke one glyph has and the
/// other lacks (an 8 beside a 9 at small sizes differs in few bits, but together),
/// where sub-pixel shifts flip only thin lines along the edges.
fn has_solid_patch(differ: &[bool]) -> bool {
    let at = |x: u32, y: u32| differ[(y * COLS + x) as usize];
    (0..ROWS - 1).any(|y| {
        (0..COLS - 1).any(|x| at(x, y) && at(x + 1, y) && at(x, y + 1) && at(x + 1, y + 1))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    fn bar(w: u32, h: u32, hole: bool) -> GrayImage {
        GrayImage::from_fn(w, h, |x, y| {
            let inside = hole && x > w / 4 && x < 3 * w / 4 && y > h / 4 && y < 3 * h / 4;
            Luma([if inside { 0 } else { 255 }])
        })
    }

    #[test]
    fn a_missing_stroke_is_not_alike_though_few_bits_differ() {
        // An "8" and a "9" of 14 px: the 9 lacks the lower left stroke.
        let eight = GrayImage::from_fn(10, 14, |x, y| {
            let ring =
                |y0: u32, y1: u32| (y == y0 || y == y1 || x <= 1 || x >= 8) && y >= y0 && y <= y1;
            Luma([if ring(0, 6) || ring(6, 13) { 255 } else { 0 }])
        });
        let mut nine = eight.clone();
        for y in 7..13 {
            for x in 0..2 {
                nine.put_pixel(x, y, Luma([0]));
            }
        }
        let (a, b) = (Signature::of(&eight), Signature::of(&nine));
        assert!(!a.alike(&b));
        assert!(a.alike(&a));
        assert_eq!(a.distance(&a), 0.0);
        assert!(a.distance(&b) > 0.0 && a.distance(&b) == b.distance(&a));
    }

    #[test]
    fn same_shape_at_another_size_is_alike_and_a_different_shape_is_not() {
        assert!(Signature::of(&bar(20, 30, true)).alike(&Signature::of(&bar(21, 31, true))));
        assert!(!Signature::of(&bar(20, 30, true)).alike(&Signature::of(&bar(20, 30, false))));
        assert!(!Signature::of(&bar(10, 30, false)).alike(&Signature::of(&bar(20, 30, false))));
    }
}
