//! The classifier's fixed preprocessing of a cell crop (module docs of [`super`]): the
//! ink map below the local paper grey, grid-line remnants cleared from the edges, and
//! the digit's component scaled and centred in the MNIST layout.

use image::GrayImage;

use super::{DIGIT_BOX, INPUTS, SIDE, WORK_SIDE};
use crate::vision::glyphs::components::{Flood, Neighbours};

/// Contrast (grey levels between the paper and the deepest ink) below which a cell holds no
/// print: newspaper digits in the training photos sit 60-200 levels below the paper,
/// sensor noise and bleed-through 10-30.
const MIN_CONTRAST: f32 = 24.0;
/// The ink's darkness is taken from the cell's middle, this many px in from each edge
/// (at [`WORK_SIDE`]).
const CENTRE_FROM: usize = 10;
/// Radius (px at [`WORK_SIDE`]) of the window in which the local paper grey is the
/// brightest: wider than a blurred stroke (up to about 8 px), narrower than a shadow's
/// gradient.
const PAPER_RADIUS: usize = 6;
/// A pixel is ink when it is this far from the paper towards the darkest ink.
const INK_LEVEL: f32 = 0.45;
/// Width of the edge band (px at [`WORK_SIDE`]) where grid-line remnants are cleared.
const EDGE_BAND: usize = 5;
/// A row (column) of the edge band whose ink covers more than this fraction of the
/// cell is a grid line, not part of a digit.
const LINE_FILL: f32 = 0.55;
/// A digit component's height must be at least this fraction of the cell (a printed
/// digit is 40-75% of its cell; specks and dots are smaller).
const MIN_DIGIT_HEIGHT: f32 = 0.18;
/// ... and its centre must lie within this distance of the cell centre (fraction of the
/// side), so that a neighbour's glyph or a corner blob is not taken.
const MAX_CENTRE_OFFSET: f32 = 0.33;

/// The model's input for a cell crop: [`SIDE`]x[`SIDE`] ink values (0 paper .. 1 ink),
/// row by row, then the [`EXTRA`] figures. All zero for a cell with no print.
pub fn prepare(cell: &GrayImage) -> Vec<f32> {
    let mut out = vec![0.0f32; INPUTS];
    if cell.width() == 0 || cell.height() == 0 {
        return out;
    }
    let n = WORK_SIDE as usize;
    let work = if cell.dimensions() == (WORK_SIDE, WORK_SIDE) {
        cell.clone()
    } else {
        image::imageops::resize(
            cell,
            WORK_SIDE,
            WORK_SIDE,
            image::imageops::FilterType::Triangle,
        )
    };
    let mut px: Vec<f32> = work.as_raw().iter().map(|&v| v as f32).collect();

    // Polarity: print is thin. Measured against the local paper grey, the true ink
    // covers the strokes only, while the wrong polarity "inks" a band all around them;
    // so the polarity whose strong ink covers less of the cell wins. (A
    // global test such as the median's place fails under a shadow across the cell.)
    let pct = |v: &[f32], p: f32| v[((v.len() - 1) as f32 * p) as usize];
    if ink_cover(&px, n) > ink_cover(&px.iter().map(|v| 255.0 - v).collect::<Vec<_>>(), n) {
        for v in px.iter_mut() {
            *v = 255.0 - *v;
        }
    }
    // Uneven light (vignetting, shadows, a fold) across the cell: the paper's grey is
    // taken locally, as the brightest grey within PAPER_RADIUS of each pixel (a
    // grey-level dilation; strokes and lines are thinner than that window), after a
    // 3x3 mean against sensor noise.
    let background = max_filter(&mean3(&px, n), n, PAPER_RADIUS);
    let depth: Vec<f32> = background
        .iter()
        .zip(&px)
        .map(|(b, v)| (b - v).max(0.0))
        .collect();
    // How deep the ink goes is measured in the middle of the cell only: grid lines
    // along the edges are often much darker than a blurred digit and would make it
    // look faint.
    let mut middle: Vec<f32> = (CENTRE_FROM..n - CENTRE_FROM)
        .flat_map(|y| (CENTRE_FROM..n - CENTRE_FROM).map(move |x| (x, y)))
        .map(|(x, y)| depth[y * n + x])
        .collect();
    middle.sort_by(f32::total_cmp);
    let contrast = pct(&middle, 0.98);
    let scale = contrast.max(MIN_CONTRAST);
    let mut ink: Vec<f32> = depth.iter().map(|&d| (d / scale).clamp(0.0, 1.0)).collect();
    let mut mask: Vec<bool> = ink.iter().map(|&v| v > INK_LEVEL).collect();
    if contrast < MIN_CONTRAST {
        mask.iter_mut().for_each(|m| *m = false);
    }
    clear_edge_lines(&mut mask, &mut ink, n);

    let labels = label_components(&mask, n);
    let Some(digit) = pick_digit(&labels, n) else {
        out[SIDE * SIDE + 3] = contrast / 255.0;
        return out;
    };
    let (x0, y0, x1, y1) = digit.bbox;
    // Ink of other components inside the box is noise or a neighbour: drop it.
    for y in y0..=y1 {
        for x in x0..=x1 {
            let l = labels.ids[y * n + x];
            if l != 0 && !digit.members.contains(&l) {
                ink[y * n + x] = 0.0;
            }
        }
    }
    let (bw, bh) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let s = DIGIT_BOX / bw.max(bh);
    let (cx, cy) = ((x0 + x1 + 1) as f32 / 2.0, (y0 + y1 + 1) as f32 / 2.0);
    let half = SIDE as f32 / 2.0;
    let mut box_ink = 0.0;
    for y in y0..=y1 {
        for x in x0..=x1 {
            box_ink += ink[y * n + x];
        }
    }
    for oy in 0..SIDE {
        for ox in 0..SIDE {
            // Area-averaged sampling: the output pixel covers 1/s work pixels.
            let wx = cx + (ox as f32 + 0.5 - half) / s;
            let wy = cy + (oy as f32 + 0.5 - half) / s;
            out[oy * SIDE + ox] = sample_box(&ink, n, wx, wy, 0.5 / s, (x0, y0, x1, y1));
        }
    }
    let side = n as f32;
    out[SIDE * SIDE] = bh / side;
    out[SIDE * SIDE + 1] = bw / side;
    out[SIDE * SIDE + 2] = box_ink / (bw * bh);
    out[SIDE * SIDE + 3] = contrast / 255.0;
    out
}

/// Fraction of the cell inked at least half as deep as its deepest ink, taking the
/// picture as dark print on light paper. The whole cell counts: in an empty cell the
/// grid-line remnants are the only print.
fn ink_cover(px: &[f32], n: usize) -> f32 {
    let background = max_filter(&mean3(px, n), n, PAPER_RADIUS);
    let depth: Vec<f32> = background
        .iter()
        .zip(px)
        .map(|(b, v)| (b - v).max(0.0))
        .collect();
    let deepest = depth.iter().fold(0.0f32, |m, &d| m.max(d));
    if deepest <= 0.0 {
        return 0.0;
    }
    depth.iter().filter(|&&d| d >= deepest / 2.0).count() as f32 / depth.len() as f32
}

/// 3x3 mean of an n x n picture (edges use the pixels that exist).
fn mean3(px: &[f32], n: usize) -> Vec<f32> {
    let mut out = vec![0.0; n * n];
    for y in 0..n {
        for x in 0..n {
            let (mut sum, mut count) = (0.0, 0.0);
            for yy in y.saturating_sub(1)..(y + 2).min(n) {
                for xx in x.saturating_sub(1)..(x + 2).min(n) {
                    sum += px[yy * n + xx];
                    count += 1.0;
                }
            }
            out[y * n + x] = sum / count;
        }
    }
    out
}

/// Grey-level dilation: the maximum over the square of half-side `r` (separable).
fn max_filter(px: &[f32], n: usize, r: usize) -> Vec<f32> {
    let mut rows = vec![0.0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            let (a, b) = (x.saturating_sub(r), (x + r + 1).min(n));
            rows[y * n + x] = px[y * n + a..y * n + b]
                .iter()
                .fold(f32::MIN, |m, &v| m.max(v));
        }
    }
    let mut out = vec![0.0f32; n * n];
    for y in 0..n {
        let (a, b) = (y.saturating_sub(r), (y + r + 1).min(n));
        for x in 0..n {
            out[y * n + x] = (a..b).fold(f32::MIN, |m, yy| m.max(rows[yy * n + x]));
        }
    }
    out
}

/// Mean of the ink map over the square of half-width `r` around (x, y), restricted to
/// the digit box, with bilinear weights when `r` is under a pixel.
fn sample_box(
    ink: &[f32],
    n: usize,
    x: f32,
    y: f32,
    r: f32,
    bbox: (usize, usize, usize, usize),
) -> f32 {
    let (x0, y0, x1, y1) = bbox;
    let r = r.max(0.5);
    let (lx, hx) = (x - r, x + r);
    let (ly, hy) = (y - r, y + r);
    let mut sum = 0.0;
    let mut area = 0.0;
    let ix0 = lx.floor().max(x0 as f32) as usize;
    let iy0 = ly.floor().max(y0 as f32) as usize;
    let ix1 = (hx.ceil() as isize - 1).min(x1 as isize);
    let iy1 = (hy.ceil() as isize - 1).min(y1 as isize);
    if ix1 < ix0 as isize || iy1 < iy0 as isize {
        return 0.0;
    }
    for iy in iy0..=iy1 as usize {
        let oy = (hy.min(iy as f32 + 1.0) - ly.max(iy as f32)).max(0.0);
        for ix in ix0..=ix1 as usize {
            let ox = (hx.min(ix as f32 + 1.0) - lx.max(ix as f32)).max(0.0);
            sum += ink[iy * n + ix] * ox * oy;
            area += ox * oy;
        }
    }
    // Outside the box counts as paper: divide by the full window.
    let _ = area;
    sum / (4.0 * r * r)
}

/// Clears grid-line remnants: in the outer [`EDGE_BAND`] rows and columns, a row or
/// column inked across more than [`LINE_FILL`] of the cell is a line.
fn clear_edge_lines(mask: &mut [bool], ink: &mut [f32], n: usize) {
    let limit = (LINE_FILL * n as f32) as usize;
    for k in (0..EDGE_BAND).chain(n - EDGE_BAND..n) {
        if (0..n).filter(|&x| mask[k * n + x]).count() > limit {
            for x in 0..n {
                mask[k * n + x] = false;
                ink[k * n + x] = 0.0;
            }
        }
        if (0..n).filter(|&y| mask[y * n + k]).count() > limit {
            for y in 0..n {
                mask[y * n + k] = false;
                ink[y * n + k] = 0.0;
            }
        }
    }
}

/// Connected components (8-neighbourhood) of the ink mask.
struct Components {
    /// Component id of each pixel, 0 for paper; ids start at 1.
    ids: Vec<u32>,
    /// Per id (index id - 1): pixel count and bounding box (x0, y0, x1, y1).
    parts: Vec<(usize, (usize, usize, usize, usize))>,
}

fn label_components(mask: &[bool], n: usize) -> Components {
    let mut ids = vec![0u32; n * n];
    let mut parts = Vec::new();
    let side = n as u32;
    let mut flood = Flood::new(side, side, Neighbours::Eight, |x, y| {
        mask[y as usize * n + x as usize]
    });
    while flood.next_component().is_some() {
        let id = parts.len() as u32 + 1;
        let mut count = 0;
        let (mut x0, mut y0, mut x1, mut y1) = (n, n, 0, 0);
        flood.fill(|x, y| {
            let (x, y) = (x as usize, y as usize);
            ids[y * n + x] = id;
            count += 1;
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        });
        parts.push((count, (x0, y0, x1, y1)));
    }
    Components { ids, parts }
}

/// The components that make up the digit, and their joint bounding box.
struct Digit {
    members: Vec<u32>,
    bbox: (usize, usize, usize, usize),
}

/// The digit: the largest component tall enough and near enough the centre, plus any
/// pieces inside its (slightly grown) box, for glyphs printed broken.
fn pick_digit(c: &Components, n: usize) -> Option<Digit> {
    let side = n as f32;
    let centre = side / 2.0;
    let qualifies = |&(count, (x0, y0, x1, y1)): &(usize, (usize, usize, usize, usize))| {
        let h = (y1 - y0 + 1) as f32;
        let w = (x1 - x0 + 1) as f32;
        let cx = (x0 + x1 + 1) as f32 / 2.0;
        let cy = (y0 + y1 + 1) as f32 / 2.0;
        count >= 10
            && h >= MIN_DIGIT_HEIGHT * side
            && h <= 0.92 * side
            && w <= 0.85 * side
            && (cx - centre).abs() <= MAX_CENTRE_OFFSET * side
            && (cy - centre).abs() <= MAX_CENTRE_OFFSET * side
    };
    let (best, &(_, bbox)) = c
        .parts
        .iter()
        .enumerate()
        .filter(|(_, p)| qualifies(p))
        .max_by_key(|(_, p)| p.0)?;
    let mut members = vec![best as u32 + 1];
    let (mut x0, mut y0, mut x1, mut y1) = bbox;
    let grow = 2;
    for (i, &(count, (a0, b0, a1, b1))) in c.parts.iter().enumerate() {
        if i == best || count < 3 {
            continue;
        }
        let inside = a0 + grow >= bbox.0
            && b0 + grow >= bbox.1
            && a1 <= bbox.2 + grow
            && b1 <= bbox.3 + grow;
        if inside {
            members.push(i as u32 + 1);
            x0 = x0.min(a0);
            y0 = y0.min(b0);
            x1 = x1.max(a1);
            y1 = y1.max(b1);
        }
    }
    Some(Digit {
        members,
        bbox: (x0, y0, x1, y1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A 48 px cell, paper 220, with a dark bar where a "1" would be.
    fn cell_with_bar(dark_on_light: bool) -> GrayImage {
        let (paper, ink) = if dark_on_light {
            (220u8, 40u8)
        } else {
            (30u8, 230u8)
        };
        let mut img = GrayImage::from_pixel(48, 48, Luma([paper]));
        for y in 12..36 {
            for x in 22..27 {
                img.put_pixel(x, y, Luma([ink]));
            }
        }
        img
    }

    #[test]
    fn an_empty_cell_prepares_to_blank_input() {
        let mut img = GrayImage::from_pixel(40, 40, Luma([200]));
        img.put_pixel(20, 20, Luma([190]));
        let input = prepare(&img);
        assert!(input[..SIDE * SIDE].iter().all(|&v| v == 0.0));
    }

    #[test]
    fn polarity_does_not_change_the_input() {
        let a = prepare(&cell_with_bar(true));
        let b = prepare(&cell_with_bar(false));
        assert!(
            a[..SIDE * SIDE].iter().sum::<f32>() > 30.0,
            "the bar is seen"
        );
        let diff: f32 = a[..SIDE * SIDE]
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .sum();
        assert!(diff < 1.0, "inverted cell prepares differently: {diff}");
    }

    #[test]
    fn a_shadow_across_the_cell_does_not_hide_a_faint_digit() {
        // Paper from 200 on the right down to 90 on the left (a shadow); a thin bar
        // 45 levels below the paper around it.
        let mut img = GrayImage::from_fn(48, 48, |x, _| {
            Luma([(90.0 + 110.0 * x as f32 / 47.0) as u8])
        });
        for y in 13..35 {
            for x in 23..26 {
                let paper = img.get_pixel(x, y)[0];
                img.put_pixel(x, y, Luma([paper - 45]));
            }
        }
        let input = prepare(&img);
        let height = input[SIDE * SIDE];
        assert!(
            (height - 22.0 / 48.0).abs() < 0.06,
            "digit height {height}, want the bar's 0.46"
        );
    }

    #[test]
    fn grid_line_remnants_are_not_a_digit() {
        let mut img = GrayImage::from_pixel(48, 48, Luma([210]));
        for x in 0..48 {
            for y in 0..3 {
                img.put_pixel(x, y, Luma([20]));
                img.put_pixel(y, x, Luma([20]));
            }
        }
        let input = prepare(&img);
        assert!(input[..SIDE * SIDE].iter().all(|&v| v == 0.0));
    }
}
