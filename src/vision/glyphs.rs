//! The marks inside each cell: which cells hold a given-sized digit, and the digit's
//! image, normalised so that any theme reads as dark ink on white.
//!
//! Ink is any pixel of the cell box whose colour is at least [`INK_CONTRAST`] from the
//! cell's background colour (so white-on-blue tiles and black-on-white cells are alike).
//! Ink is split into 8-connected blobs; blobs touching the cell's edge are frames or
//! line remnants, not digits. A cell's glyph is its tallest blob with the blobs that
//! overlap it. Givens are told from pencil marks by height: not a fixed share of the
//! grid (HT.Sudoku's 1/18..1/12 misses GNOME Sudoku's 1/26) but relative to the tallest
//! glyphs actually present, see [`given_height_threshold`].

use image::{GrayImage, Luma, RgbImage};

use super::locate::Lattice;
use super::regions::Regions;
use super::Rect;

/// A pixel is ink when some channel differs from the cell background by more than this.
pub const INK_CONTRAST: u8 = 48;
/// A glyph whose ink covers more of its box than this is a block, not a digit.
const MAX_FILL: f32 = 0.8;
/// Two height clusters (pencil marks, givens) are this ratio apart at least.
const HEIGHT_GAP: f32 = 1.2;
/// The givens' cluster has at least this many glyphs (a unique puzzle has 17 givens).
const MIN_GIVENS: usize = 17;
/// ... and at least this share of the cell height (below it, it is a speck or a mark).
const MIN_GIVEN_OF_CELL: f32 = 0.22;

/// The digit-like mark in one cell.
#[derive(Debug, Clone)]
pub struct Glyph {
    /// Bounding box in picture pixels.
    pub bbox: Rect,
    /// Ink strength 0 (background) to 255 (full ink) over the bounding box.
    pub ink: GrayImage,
}

impl Glyph {
    pub fn height(&self) -> f32 {
        self.bbox.h
    }

    /// The glyph as dark ink on white, for OCR and debug pictures.
    pub fn dark_on_light(&self) -> GrayImage {
        let mut out = self.ink.clone();
        for p in out.pixels_mut() {
            p.0[0] = 255 - p.0[0];
        }
        out
    }
}

/// Finds the glyph (the tallest mark, if any) in each of the 81 cells.
pub fn find_glyphs(img: &RgbImage, regions: &Regions, lattice: &Lattice) -> Vec<Option<Glyph>> {
    (0..81)
        .map(|i| {
            let bg = match lattice.labels[i] {
                Some(l) => regions.regions[l as usize].mean(),
                None => border_colour(img, &lattice.cells[i]),
            };
            cell_glyph(img, &lattice.cells[i], bg)
        })
        .collect()
}

/// The commonest colour on the inner edge of a cell box, for cells not found as regions.
fn border_colour(img: &RgbImage, r: &Rect) -> [u8; 3] {
    let (x0, y0) = (r.x.max(0.0) as u32 + 1, r.y.max(0.0) as u32 + 1);
    let (x1, y1) = (
        ((r.x + r.w) as u32).min(img.width()) - 2,
        ((r.y + r.h) as u32).min(img.height()) - 2,
    );
    let mut counts: std::collections::BTreeMap<[u8; 3], u32> = Default::default();
    for x in x0..=x1 {
        *counts.entry(img.get_pixel(x, y0).0).or_default() += 1;
        *counts.entry(img.get_pixel(x, y1).0).or_default() += 1;
    }
    for y in y0..=y1 {
        *counts.entry(img.get_pixel(x0, y).0).or_default() += 1;
        *counts.entry(img.get_pixel(x1, y).0).or_default() += 1;
    }
    counts
        .into_iter()
        .max_by_key(|e| e.1)
        .map(|e| e.0)
        .unwrap_or([255, 255, 255])
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u8 {
    a[0].abs_diff(b[0])
        .max(a[1].abs_diff(b[1]))
        .max(a[2].abs_diff(b[2]))
}

/// A connected blob of ink in a cell, in cell-local pixel coordinates (inclusive box).
#[derive(Debug, Clone, Copy)]
struct Blob {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

fn cell_glyph(img: &RgbImage, cell: &Rect, bg: [u8; 3]) -> Option<Glyph> {
    glyph_in(img, cell, bg, 0)
}

/// The glyph in a box of the picture on background `bg`; `depth` 1 inside a cursor block.
fn glyph_in(img: &RgbImage, cell: &Rect, bg: [u8; 3], depth: u32) -> Option<Glyph> {
    let cx0 = cell.x.round().max(0.0) as u32;
    let cy0 = cell.y.round().max(0.0) as u32;
    let cx1 = ((cell.x + cell.w).round() as u32).min(img.width());
    let cy1 = ((cell.y + cell.h).round() as u32).min(img.height());
    if cx1 <= cx0 + 4 || cy1 <= cy0 + 4 {
        return None;
    }
    let (w, h) = (cx1 - cx0, cy1 - cy0);
    let dist: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .map(|(x, y)| distance(img.get_pixel(cx0 + x, cy0 + y).0, bg))
        .collect();
    let is_ink = |x: u32, y: u32| dist[(y * w + x) as usize] > INK_CONTRAST;
    // 8-connected blobs by flood fill.
    let mut seen = vec![false; (w * h) as usize];
    let mut blobs = Vec::new();
    let mut stack = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if seen[(y * w + x) as usize] || !is_ink(x, y) {
                continue;
            }
            let mut b = Blob {
                x0: x,
                y0: y,
                x1: x,
                y1: y,
            };
            seen[(y * w + x) as usize] = true;
            stack.push((x, y));
            while let Some((px, py)) = stack.pop() {
                b.x0 = b.x0.min(px);
                b.x1 = b.x1.max(px);
                b.y0 = b.y0.min(py);
                b.y1 = b.y1.max(py);
                for dy in -1i32..=1 {
                    for dx in -1i32..=1 {
                        let (nx, ny) = (px as i32 + dx, py as i32 + dy);
                        if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                            continue;
                        }
                        let (nx, ny) = (nx as u32, ny as u32);
                        let k = (ny * w + nx) as usize;
                        if !seen[k] && is_ink(nx, ny) {
                            seen[k] = true;
                            stack.push((nx, ny));
                        }
                    }
                }
            }
            let touches = b.x0 == 0 || b.y0 == 0 || b.x1 == w - 1 || b.y1 == h - 1;
            if !touches {
                blobs.push(b);
            }
        }
    }
    let tallest = *blobs.iter().max_by_key(|b| (b.y1 - b.y0, b.x1 - b.x0))?;
    // Merge blobs overlapping the tallest one (a digit broken by thin strokes).
    let mut g = tallest;
    for b in &blobs {
        let overlap_x = b.x0 <= g.x1 && b.x1 >= g.x0;
        let overlap_y = b.y0 <= g.y1 && b.y1 >= g.y0;
        if overlap_x && overlap_y {
            g = Blob {
                x0: g.x0.min(b.x0),
                y0: g.y0.min(b.y0),
                x1: g.x1.max(b.x1),
                y1: g.y1.max(b.y1),
            };
        }
    }
    let (gw, gh) = (g.x1 - g.x0 + 1, g.y1 - g.y0 + 1);
    if gh < 4 {
        return None;
    }
    // A solid block (a text cursor, a colour swatch) is not a digit: digits cover at
    // most about 60% of their box, a bold "8" included. A terminal's cursor may hold a
    // digit in inverse video: look inside the block, with its colour as background.
    let inked: Vec<[u8; 3]> = (g.y0..=g.y1)
        .flat_map(|y| (g.x0..=g.x1).map(move |x| (x, y)))
        .filter(|&(x, y)| is_ink(x, y))
        .map(|(x, y)| img.get_pixel(cx0 + x, cy0 + y).0)
        .collect();
    if inked.len() as f32 > MAX_FILL * (gw * gh) as f32 {
        if depth > 0 {
            return None;
        }
        let mut by_lum = inked;
        by_lum.sort_by_key(|p| p[0] as u32 * 3 + p[1] as u32 * 6 + p[2] as u32);
        let block_colour = by_lum[by_lum.len() / 2];
        let block = Rect {
            x: (cx0 + g.x0) as f32,
            y: (cy0 + g.y0) as f32,
            w: gw as f32,
            h: gh as f32,
        };
        return glyph_in(img, &block, block_colour, depth + 1);
    }
    // Ink strength relative to the strongest ink of the glyph.
    let peak = (g.y0..=g.y1)
        .flat_map(|y| (g.x0..=g.x1).map(move |x| (x, y)))
        .map(|(x, y)| dist[(y * w + x) as usize])
        .max()
        .unwrap_or(255)
        .max(1) as f32;
    let ink = GrayImage::from_fn(gw, gh, |x, y| {
        let d = dist[((g.y0 + y) * w + g.x0 + x) as usize] as f32;
        Luma([((d / peak).min(1.0) * 255.0) as u8])
    });
    Some(Glyph {
        bbox: Rect {
            x: (cx0 + g.x0) as f32,
            y: (cy0 + g.y0) as f32,
            w: gw as f32,
            h: gh as f32,
        },
        ink,
    })
}

/// The height a glyph needs to count as a given. Glyph heights form one cluster
/// (givens only) or two (pencil marks below givens, 0.3-0.6 of their height): the
/// threshold goes in the widest gap between sorted heights, when that gap is a ratio of
/// at least [`HEIGHT_GAP`] and leaves at least [`MIN_GIVENS`] glyphs above it (a puzzle
/// has 17 givens or more; one taller blob where a digit touches a mark must not set the
/// bar). Never below [`MIN_GIVEN_OF_CELL`] of the cell height.
pub fn given_height_threshold(glyphs: &[Option<Glyph>], cell_height: f32) -> f32 {
    let floor = MIN_GIVEN_OF_CELL * cell_height;
    let mut heights: Vec<f32> = glyphs
        .iter()
        .flatten()
        .map(|g| g.height())
        .filter(|&h| h >= floor)
        .collect();
    heights.sort_by(f32::total_cmp);
    let n = heights.len();
    let mut best: Option<(f32, f32)> = None; // (ratio, threshold)
    for i in 0..n.saturating_sub(1) {
        let ratio = heights[i + 1] / heights[i];
        if ratio >= HEIGHT_GAP && n - 1 - i >= MIN_GIVENS && best.is_none_or(|b| ratio > b.0) {
            best = Some((ratio, (heights[i] + heights[i + 1]) / 2.0));
        }
    }
    best.map(|b| b.1).unwrap_or(floor).max(floor)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    fn cell_with(marks: &[(u32, u32, u32, u32)], ink: [u8; 3], bg: [u8; 3]) -> (RgbImage, Rect) {
        let mut img = RgbImage::from_pixel(60, 60, Rgb(bg));
        for &(x, y, w, h) in marks {
            for yy in y..y + h {
                for xx in x..x + w {
                    img.put_pixel(xx, yy, Rgb(ink));
                }
            }
        }
        (
            img,
            Rect {
                x: 5.0,
                y: 5.0,
                w: 50.0,
                h: 50.0,
            },
        )
    }

    #[test]
    fn a_tall_mark_is_the_glyph_and_light_on_dark_reads_as_ink() {
        let (img, cell) = cell_with(
            // a "7": top bar and stem, and a small mark in the corner
            &[(25, 15, 12, 3), (34, 15, 3, 30), (8, 8, 3, 5)],
            [240, 240, 240],
            [20, 30, 80],
        );
        let g = cell_glyph(&img, &cell, [20, 30, 80]).unwrap();
        assert_eq!(
            (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
            (25.0, 15.0, 12.0, 30.0)
        );
        assert_eq!(g.dark_on_light().get_pixel(0, 0).0[0], 0);
    }

    #[test]
    fn a_solid_block_like_a_text_cursor_is_not_a_glyph() {
        let (img, cell) = cell_with(&[(20, 15, 10, 25)], [0, 200, 200], [255, 255, 255]);
        assert!(cell_glyph(&img, &cell, [255, 255, 255]).is_none());
    }

    #[test]
    fn a_digit_in_inverse_video_inside_a_cursor_block_is_found() {
        // a light block on a dark cell, with a dark "7" inside it
        let (mut img, cell) = cell_with(&[(18, 12, 20, 34)], [200, 200, 200], [30, 30, 30]);
        for &(x, y, w, h) in &[(22, 16, 12, 3), (31, 16, 3, 26)] {
            for yy in y..y + h {
                for xx in x..x + w {
                    img.put_pixel(xx, yy, Rgb([30, 30, 30]));
                }
            }
        }
        let g = cell_glyph(&img, &cell, [30, 30, 30]).expect("the 7 inside the block");
        assert_eq!(
            (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
            (22.0, 16.0, 12.0, 26.0)
        );
    }

    #[test]
    fn a_frame_touching_the_cell_edge_is_not_a_glyph() {
        let (img, cell) = cell_with(
            &[(5, 5, 50, 2), (5, 5, 2, 50)],
            [0, 0, 255],
            [255, 255, 255],
        );
        assert!(cell_glyph(&img, &cell, [255, 255, 255]).is_none());
    }

    #[test]
    fn pencil_marks_fall_below_the_given_threshold() {
        let g = |h: f32| {
            Some(Glyph {
                bbox: Rect {
                    x: 0.0,
                    y: 0.0,
                    w: 5.0,
                    h,
                },
                ink: GrayImage::new(1, 1),
            })
        };
        // 20 givens 20-21 px high, 30 pencil marks 9-12 px, one 27 px blob (a digit
        // touching a mark): the bar falls between marks and givens.
        let mut glyphs: Vec<Option<Glyph>> = (0..20).map(|k| g(20.0 + (k % 2) as f32)).collect();
        glyphs.extend((0..30).map(|k| g(9.0 + (k % 4) as f32)));
        glyphs.push(g(27.0));
        glyphs.push(None);
        let t = given_height_threshold(&glyphs, 40.0);
        assert!(t > 12.0 && t < 20.0, "threshold {t}");
        // Givens alone: every glyph above the floor counts.
        let alone: Vec<Option<Glyph>> = (0..25).map(|k| g(18.0 + (k % 3) as f32)).collect();
        assert!(given_height_threshold(&alone, 40.0) <= 18.0);
    }
}
