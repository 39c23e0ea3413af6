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

    pub fn alike(&self, other: &Signature) -> bool {
        let ratio = (self.aspect / other.aspect).max(other.aspect / self.aspect);
        if ratio > MAX_ASPECT_RATIO {
            return false;
        }
        let differ = self
            .bits
            .iter()
            .zip(&other.bits)
            .filter(|(a, b)| a != b)
            .count();
        (differ as f32) <= MAX_DIFFERENT * self.bits.len() as f32
    }
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
    fn same_shape_at_another_size_is_alike_and_a_different_shape_is_not() {
        assert!(Signature::of(&bar(20, 30, true)).alike(&Signature::of(&bar(21, 31, true))));
        assert!(!Signature::of(&bar(20, 30, true)).alike(&Signature::of(&bar(20, 30, false))));
        assert!(!Signature::of(&bar(10, 30, false)).alike(&Signature::of(&bar(20, 30, false))));
    }
}
