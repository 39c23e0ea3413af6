//! A glyph's look, reduced to compare glyphs cheaply: its ink resampled to a
//! [`COLS`]x[`ROWS`] bitmap, plus its aspect ratio. The same app draws a digit the same
//! way in every cell (up to sub-pixel placement), so look-alikes share one OCR call.
//!
//! How far apart two looks are is measured on a second, finer look: the ink in grey,
//! centred on its centre of mass and scaled by its spread. A 5x7 px glyph moved by
//! half a pixel changes half its bitmap, but hardly moves its mass.

use crate::vision::geometry::bilinear;
use image::{imageops, GrayImage};

const COLS: u32 = 12;
const ROWS: u32 = 16;
/// Two glyphs are alike when at most this share of their bitmap pixels differ
/// (sub-pixel shifts flip a few edge pixels; two different digits differ in 25%+).
const MAX_DIFFERENT: f32 = 0.10;
/// ... and their aspect ratios differ by at most this factor.
const MAX_ASPECT_RATIO: f32 = 1.15;

/// The finer look: this many samples a side...
const LOOK_SIDE: usize = 16;
/// ... over this many times the ink's spread (its radius of gyration) each way from
/// its centre of mass.
const LOOK_REACH: f32 = 1.8;

#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    bits: Vec<bool>,
    aspect: f32,
    /// The ink in grey (0 to 1), [`LOOK_SIDE`] squared samples around its centre of mass.
    mass: Vec<f32>,
}

impl Signature {
    /// The signature of an ink map (255 = full ink).
    pub fn of(ink: &GrayImage) -> Signature {
        let small = imageops::resize(ink, COLS, ROWS, imageops::FilterType::Triangle);
        Signature {
            bits: small.pixels().map(|p| p.0[0] >= 128).collect(),
            aspect: ink.width() as f32 / ink.height().max(1) as f32,
            mass: mass_look(ink),
        }
    }

    /// How far apart the two looks are: the ink one has and the other lacks, as a share
    /// of all their ink (0 the same, 1 nothing in common).
    pub fn distance(&self, other: &Signature) -> f32 {
        let (differ, total) = self
            .mass
            .iter()
            .zip(&other.mass)
            .fold((0.0, 0.0), |(d, t), (a, b)| (d + (a - b).abs(), t + a + b));
        if total > 0.0 {
            differ / total
        } else {
            0.0
        }
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

/// The ink sampled on a [`LOOK_SIDE`]-square grid centred on its centre of mass and
/// reaching [`LOOK_REACH`] radii of gyration each way; blurred first by half a sample
/// so that thin strokes are not missed between samples.
fn mass_look(ink: &GrayImage) -> Vec<f32> {
    let (mut m, mut sx, mut sy) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y, p) in ink.enumerate_pixels() {
        let v = p.0[0] as f32;
        m += v;
        sx += v * (x as f32 + 0.5);
        sy += v * (y as f32 + 0.5);
    }
    if m <= 0.0 {
        return vec![0.0; LOOK_SIDE * LOOK_SIDE];
    }
    let (cx, cy) = (sx / m, sy / m);
    let spread = ink
        .enumerate_pixels()
        .map(|(x, y, p)| {
            let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
            p.0[0] as f32 * (dx * dx + dy * dy)
        })
        .sum::<f32>()
        / m;
    let radius = spread.sqrt().max(0.5);
    let step = 2.0 * LOOK_REACH * radius / LOOK_SIDE as f32;
    let sigma = (step / 2.0).max(0.5);
    let pad = (3.0 * sigma).ceil() as u32 + 1;
    let mut padded = GrayImage::new(ink.width() + 2 * pad, ink.height() + 2 * pad);
    imageops::overlay(&mut padded, ink, pad as i64, pad as i64);
    let soft = imageops::blur(&padded, sigma);
    let (ox, oy) = (cx + pad as f32 - 0.5, cy + pad as f32 - 0.5);
    let half = LOOK_SIDE as f32 / 2.0;
    let mut out = Vec::with_capacity(LOOK_SIDE * LOOK_SIDE);
    for j in 0..LOOK_SIDE {
        for i in 0..LOOK_SIDE {
            let x = ox + (i as f32 + 0.5 - half) * step;
            let y = oy + (j as f32 + 0.5 - half) * step;
            out.push(bilinear(&soft, x, y) / 255.0);
        }
    }
    out
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

    /// A shape drawn at 4x and averaged down to `w` by `h` px, moved right by `shift`
    /// px (sub-pixel placement), as a font renderer anti-aliases it.
    fn rendered(shape: impl Fn(f32, f32) -> bool, w: u32, h: u32, shift: f32) -> GrayImage {
        GrayImage::from_fn(w, h, |x, y| {
            let inked = (0..16)
                .filter(|k| {
                    let fx = x as f32 + (k % 4) as f32 / 4.0 + 0.125 - shift;
                    let fy = y as f32 + (k / 4) as f32 / 4.0 + 0.125;
                    shape(fx, fy)
                })
                .count();
            Luma([(inked * 255 / 16) as u8])
        })
    }

    #[test]
    fn a_tiny_glyph_moved_half_a_pixel_looks_nearer_itself_than_another_digit() {
        // 5x7 px: an "8" (two rings) and a "1" (a stem on a base), as at 12 px cells.
        let ring = |x: f32, y: f32, y0: f32, y1: f32| {
            let inside = x > 1.0 && x < 4.0 && y > y0 + 1.0 && y < y1 - 1.0;
            (0.5..=4.5).contains(&x) && (y0..=y1).contains(&y) && !inside
        };
        let eight = |x: f32, y: f32| ring(x, y, 0.0, 3.5) || ring(x, y, 3.0, 7.0);
        let one =
            |x: f32, y: f32| (2.0..=3.2).contains(&x) || (y >= 6.0 && (1.0..=4.2).contains(&x));
        let a = Signature::of(&rendered(eight, 6, 7, 0.0));
        let b = Signature::of(&rendered(eight, 6, 7, 0.5));
        let c = Signature::of(&rendered(one, 6, 7, 0.25));
        assert!(
            a.distance(&b) * 2.0 < a.distance(&c),
            "{} {}",
            a.distance(&b),
            a.distance(&c)
        );
    }
}
