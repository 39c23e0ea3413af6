//! Digits rendered from the system's fonts, with the augmentations print and screens
//! show (blur, noise, contrast, shifts, scale, line remnants; with `--screen`, slant,
//! bolder, thinner and outline strokes, subpixel fringes, JPEG).

use std::path::{Path, PathBuf};

use ab_glyph::{Font, FontVec};
use image::{GrayImage, Luma};

use crate::Rng;
use sudoku_bot::vision::digits::classifier::WORK_SIDE;

pub(crate) fn load_fonts() -> Vec<FontVec> {
    let mut out = Vec::new();
    for dir in ["/usr/share/fonts/truetype", "/usr/share/fonts/opentype"] {
        let mut files = Vec::new();
        collect_fonts(Path::new(dir), &mut files);
        files.sort();
        for f in files {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            // Symbol and math fonts have no plain digits worth learning.
            if name.contains("Symbol")
                || name.contains("Math")
                || name.starts_with("D050000L")
                || name.contains("Z003")
            {
                continue;
            }
            if let Ok(bytes) = std::fs::read(&f) {
                if let Ok(font) = FontVec::try_from_vec(bytes) {
                    out.push(font);
                }
            }
        }
    }
    out
}

pub(crate) fn collect_fonts(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_fonts(&p, out);
        } else if p.extension().is_some_and(|x| x == "ttf" || x == "otf") {
            out.push(p);
        }
    }
}

/// A cell like a newspaper's: paper and ink levels, digit `digit` (0: none) at a
/// random size and offset, sometimes grid-line remnants at the edges and specks, then
/// blur and noise; with `screen`, also what screens do to digits (see `--screen`).
pub(crate) fn render_cell(font: &FontVec, digit: u8, screen: bool, rng: &mut Rng) -> GrayImage {
    let n = WORK_SIDE;
    let paper = rng.range(120.0, 245.0);
    let ink = rng.range(0.0, (paper - 60.0).max(1.0));
    let mut cover = vec![0.0f32; (n * n) as usize];
    if digit != 0 {
        draw_digit(font, digit, screen, rng, &mut cover);
    }
    let mut cover = if screen {
        screen_weight(cover, n, rng)
    } else {
        cover
    };
    // Grid-line remnants: a line along some edges, 1-3 px thick, 0-3 px in.
    for edge in 0..4 {
        if rng.uniform() < 0.35 {
            let t = 1 + rng.below(3) as u32;
            let off = rng.below(4) as u32;
            for a in 0..n {
                for b in off..(off + t).min(n) {
                    let (x, y) = match edge {
                        0 => (a, b),
                        1 => (a, n - 1 - b),
                        2 => (b, a),
                        _ => (n - 1 - b, a),
                    };
                    cover[(y * n + x) as usize] = 1.0;
                }
            }
        }
    }
    // Specks.
    for _ in 0..rng.below(3) {
        let (x, y) = (rng.below(n as usize) as u32, rng.below(n as usize) as u32);
        cover[(y * n + x) as usize] = rng.range(0.3, 1.0);
    }
    let img = GrayImage::from_fn(n, n, |x, y| {
        let c = cover[(y * n + x) as usize];
        Luma([(paper + (ink - paper) * c).clamp(0.0, 255.0) as u8])
    });
    let sigma = rng.range(0.2, 1.4);
    let mut blurred = image::imageops::blur(&img, sigma);
    if screen {
        blurred = fringed(&blurred, rng);
    }
    let noise = rng.range(0.0, 10.0);
    let invert = rng.uniform() < 0.1;
    let out = GrayImage::from_fn(n, n, |x, y| {
        let v = blurred.get_pixel(x, y)[0] as f32 + rng.normal() * noise;
        let v = v.clamp(0.0, 255.0);
        Luma([if invert { 255 - v as u8 } else { v as u8 }])
    });
    if screen && rng.uniform() < 0.15 {
        jpeg_round_trip(&out, rng.range(25.0, 75.0) as u8)
    } else {
        out
    }
}

/// Draws `digit` of `font` into the `WORK_SIDE`-square coverage map `cover`, its ink
/// height 0.42-0.72 of the side, a few pixels off centre (slanted with `screen`, now
/// and then, as italic faces are).
pub(crate) fn draw_digit(
    font: &FontVec,
    digit: u8,
    screen: bool,
    rng: &mut Rng,
    cover: &mut [f32],
) {
    let n = WORK_SIDE;
    let height = rng.range(0.42, 0.72) * n as f32;
    let glyph_id = font.glyph_id(char::from(b'0' + digit));
    // Scale so the glyph's ink height is `height`.
    let probe = font.outline_glyph(glyph_id.with_scale(100.0));
    if let Some(probe) = probe {
        let b = probe.px_bounds();
        let k = 100.0 * height / b.height().max(1.0);
        let w = b.width() * k / 100.0;
        let cx = n as f32 / 2.0 + rng.range(-3.0, 3.0);
        let cy = n as f32 / 2.0 + rng.range(-3.0, 3.0);
        // An italic or oblique face on screen: the glyph slanted to the right.
        let slant = if screen && rng.uniform() < 0.1 {
            rng.range(0.12, 0.25)
        } else {
            0.0
        };
        let glyph = glyph_id.with_scale_and_position(k, ab_glyph::point(0.0, 0.0));
        if let Some(g) = font.outline_glyph(glyph) {
            let gb = g.px_bounds();
            let ox = cx - w / 2.0 - gb.min.x;
            let oy = cy - height / 2.0 - gb.min.y;
            g.draw(|x, y, c| {
                let fy = y as f32 + gb.min.y + oy;
                let px = (x as f32 + gb.min.x + ox + slant * (cy - fy)).round() as i32;
                let py = fy.round() as i32;
                if px >= 0 && py >= 0 && px < n as i32 && py < n as i32 {
                    let slot = &mut cover[(py as u32 * n + px as u32) as usize];
                    *slot = slot.max(c);
                }
            });
        }
    }
}

/// Screen weights: sometimes a bolder or thinner stroke (the ink grown or shrunk by a
/// pixel), sometimes only the outline of a bold digit.
pub(crate) fn screen_weight(cover: Vec<f32>, n: u32, rng: &mut Rng) -> Vec<f32> {
    let pick = rng.uniform();
    let grown = || square_filter(&cover, n, f32::max);
    match pick {
        p if p < 0.08 => grown(),
        p if p < 0.14 => square_filter(&cover, n, f32::min),
        p if p < 0.18 => {
            let bold = grown();
            let inner = square_filter(&bold, n, f32::min);
            bold.iter()
                .zip(&inner)
                .map(|(b, i)| (b - i).max(0.0))
                .collect()
        }
        _ => cover,
    }
}

/// A 3x3 filter combining each pixel with its neighbours by `pick` (max: grow, min: shrink).
pub(crate) fn square_filter(cover: &[f32], n: u32, pick: fn(f32, f32) -> f32) -> Vec<f32> {
    let n = n as i32;
    (0..n * n)
        .map(|k| {
            let (x, y) = (k % n, k / n);
            let mut v = cover[k as usize];
            for (dx, dy) in [
                (-1, 0),
                (1, 0),
                (0, -1),
                (0, 1),
                (-1, -1),
                (1, 1),
                (-1, 1),
                (1, -1),
            ] {
                let (nx, ny) = (x + dx, y + dy);
                if nx >= 0 && ny >= 0 && nx < n && ny < n {
                    v = pick(v, cover[(ny * n + nx) as usize]);
                }
            }
            v
        })
        .collect()
}

/// Subpixel colour fringes as grey shows them: each pixel mixed a little with its left
/// and right neighbours, unevenly.
pub(crate) fn fringed(img: &GrayImage, rng: &mut Rng) -> GrayImage {
    if rng.uniform() >= 0.15 {
        return img.clone();
    }
    let (l, r) = (rng.range(0.05, 0.3), rng.range(0.05, 0.3));
    let w = img.width();
    GrayImage::from_fn(w, img.height(), |x, y| {
        let at = |x: u32| img.get_pixel(x.min(w - 1), y)[0] as f32;
        let v = at(x) * (1.0 - l - r) + at(x.saturating_sub(1)) * l + at(x + 1) * r;
        Luma([v.clamp(0.0, 255.0) as u8])
    })
}

/// The cell saved as a JPEG at `quality` and decoded again.
pub(crate) fn jpeg_round_trip(img: &GrayImage, quality: u8) -> GrayImage {
    let mut bytes = Vec::new();
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, quality);
    if img.write_with_encoder(encoder).is_err() {
        return img.clone();
    }
    image::load_from_memory(&bytes).map_or_else(|_| img.clone(), |d| d.to_luma8())
}
