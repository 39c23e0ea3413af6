//! Dashed lines made whole: a terminal draws a grid with characters, and its lines are
//! broken where one character cell meets the next (`+-------+` and `|` in ASCII, the
//! heavy box-drawing lines of a font that does not fill its cell). The cells on either
//! side of such a line run into each other as one region, so the locator sees no grid.
//! [`bridge_dashes`] fills the gaps of every such line: a chain of thin ink runs along
//! one pixel row (or column), each gap no longer than about twice the runs beside it.

use image::RgbImage;

use super::regions::luminance;

/// Pictures over this many pixels are not searched for dashed lines (the fallback it
/// is costs two bytes a pixel; a 4K screen has 8.3 million).
const MAX_PIXELS: u64 = 16 << 20;
/// A pixel is ink when its luminance is this far from the picture's background.
const INK_STEP: u32 = 96;
/// A stroke at most this many pixels thick across the line counts as thin.
const MAX_THICK: u8 = 4;
/// A chain is a line when at least this many runs make it up ...
const MIN_RUNS: usize = 4;
/// A gap within a chain is at most this many times the longer run beside it, plus a
/// pixel (xterm's `-` is 5 px on, 7 off; a `+` stands 9 px from the next dash).
const MAX_GAP: f32 = 2.0;
/// ... and at least this share of its ink is thin (letters in a row of text are mostly
/// upright strokes, thick across a row).
const MIN_THIN_SHARE: f32 = 0.75;

/// The picture with the gaps of its dashed lines filled with the lines' colour, or
/// `None` when it has none (or is too big to search). Ink is what stands out from the
/// picture's commonest luminance (light on dark or dark on light).
pub fn bridge_dashes(rgb: &RgbImage) -> Option<RgbImage> {
    let (w, h) = (rgb.width() as usize, rgb.height() as usize);
    if (w * h) as u64 > MAX_PIXELS || w < 2 || h < 2 {
        return None;
    }
    let lum: Vec<u32> = rgb.pixels().map(|p| luminance(p.0).min(255)).collect();
    let bg = background_luminance(&lum);
    let ink: Vec<bool> = lum.iter().map(|&l| l.abs_diff(bg) >= INK_STEP).collect();
    let mut out = rgb.clone();
    join_runs(rgb, &ink, &mut out).then_some(out)
}

/// Fills, in `out`, the gaps of the dashed lines of `ink` (a pixel mask of `rgb`) with
/// the colour of the dash before each; true when it filled any.
fn join_runs(rgb: &RgbImage, ink: &[bool], out: &mut RgbImage) -> bool {
    let (w, h) = (rgb.width() as usize, rgb.height() as usize);
    // How thick the ink is across each pixel: its run down the column (for rows) and
    // along the row (for columns), capped at 255.
    let across_rows = run_lengths(ink, w, h, false);
    let across_cols = run_lengths(ink, w, h, true);
    let mut changed = false;
    for y in 0..h {
        let line: Vec<(bool, u8)> = (0..w)
            .map(|x| (ink[y * w + x], across_rows[y * w + x]))
            .collect();
        for (from, to) in gaps_to_fill(&line) {
            let colour = *rgb.get_pixel(from as u32 - 1, y as u32);
            for x in from..to {
                out.put_pixel(x as u32, y as u32, colour);
            }
            changed = true;
        }
    }
    for x in 0..w {
        let line: Vec<(bool, u8)> = (0..h)
            .map(|y| (ink[y * w + x], across_cols[y * w + x]))
            .collect();
        for (from, to) in gaps_to_fill(&line) {
            let colour = *rgb.get_pixel(x as u32, from as u32 - 1);
            for y in from..to {
                out.put_pixel(x as u32, y as u32, colour);
            }
            changed = true;
        }
    }
    changed
}

/// The most common luminance: a terminal's (or a window's) background.
fn background_luminance(lum: &[u32]) -> u32 {
    let mut counts = [0u32; 256];
    for &l in lum {
        counts[l as usize] += 1;
    }
    (0..256).max_by_key(|&v| counts[v]).unwrap_or(255) as u32
}

/// For each pixel, the length of the ink run through it along columns (`along_rows`
/// false) or rows (true); 0 off ink.
fn run_lengths(ink: &[bool], w: usize, h: usize, along_rows: bool) -> Vec<u8> {
    let mut out = vec![0u8; w * h];
    let (lines, len) = if along_rows { (h, w) } else { (w, h) };
    let at = |line: usize, k: usize| {
        if along_rows {
            line * w + k
        } else {
            k * w + line
        }
    };
    for line in 0..lines {
        let mut k = 0;
        while k < len {
            if !ink[at(line, k)] {
                k += 1;
                continue;
            }
            let start = k;
            while k < len && ink[at(line, k)] {
                k += 1;
            }
            let run = (k - start).min(255) as u8;
            for j in start..k {
                out[at(line, j)] = run;
            }
        }
    }
    out
}

/// The gaps (start, end exclusive) to fill along one line of pixels, each given as
/// (ink, thickness across): between the runs of every chain of [`MIN_RUNS`] or more
/// runs, each gap at most [`MAX_GAP`] times the longer run beside it plus a pixel, whose ink is
/// at least [`MIN_THIN_SHARE`] thin.
fn gaps_to_fill(line: &[(bool, u8)]) -> Vec<(usize, usize)> {
    // Runs: (start, end exclusive, thin pixels).
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    let mut k = 0;
    while k < line.len() {
        if !line[k].0 {
            k += 1;
            continue;
        }
        let start = k;
        let mut thin = 0;
        while k < line.len() && line[k].0 {
            thin += (line[k].1 <= MAX_THICK) as usize;
            k += 1;
        }
        runs.push((start, k, thin));
    }
    let mut gaps = Vec::new();
    let mut first = 0;
    for i in 1..=runs.len() {
        let joined = i < runs.len() && {
            let (a, b) = (runs[i - 1], runs[i]);
            let longer = (a.1 - a.0).max(b.1 - b.0) as f32;
            (b.0 - a.1) as f32 <= MAX_GAP * longer + 1.0
        };
        if joined {
            continue;
        }
        let chain = &runs[first..i];
        let ink: usize = chain.iter().map(|r| r.1 - r.0).sum();
        let thin: usize = chain.iter().map(|r| r.2).sum();
        if chain.len() >= MIN_RUNS && thin as f32 >= MIN_THIN_SHARE * ink as f32 {
            gaps.extend(chain.windows(2).map(|p| (p[0].1, p[1].0)));
        }
        first = i;
    }
    gaps
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn a_row_of_dashes_is_joined_and_a_row_of_letters_is_not() {
        // `+-------+` as xterm draws it: 5 px dashes, 7 px gaps, on a 1 px row.
        let mut img = RgbImage::from_pixel(120, 30, Rgb([255; 3]));
        for k in 0..8 {
            for x in 10 + 12 * k..15 + 12 * k {
                img.put_pixel(x, 10, Rgb([0; 3]));
            }
        }
        // Upright strokes 12 px tall (letters), 6 px apart, on rows 15..27.
        for k in 0..8 {
            for y in 15..27 {
                img.put_pixel(10 + 6 * k, y, Rgb([0; 3]));
            }
        }
        let out = bridge_dashes(&img).expect("dashes joined");
        assert!(
            (10..99).all(|x| out.get_pixel(x, 10).0 == [0; 3]),
            "the dashes are one line"
        );
        assert!(
            out.get_pixel(13, 20).0 == [255; 3],
            "the strokes stay apart"
        );
        assert!(out.get_pixel(10, 9).0 == [255; 3]);
    }

    #[test]
    fn a_picture_without_dashed_lines_is_left_alone() {
        let mut img = RgbImage::from_pixel(60, 60, Rgb([255; 3]));
        for x in 5..55 {
            img.put_pixel(x, 30, Rgb([0; 3]));
        }
        assert!(bridge_dashes(&img).is_none());
    }
}
