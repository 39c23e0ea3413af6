//! Drawing the solution back onto the picture, in the grid's own perspective.
//!
//! Each answer digit is rasterised once with the bundled font in grid units (a cell is
//! [`SUPERSAMPLE`] px square), then every picture pixel inside the cell's quadrilateral
//! is mapped back through the inverse of the grid-to-picture homography and samples that
//! raster (bilinear). A photo taken at an angle so gets digits that lie in its skewed
//! cells, as the earlier camera-based solvers drew them. Givens, pencil marks and
//! everything outside the empty cells are left untouched.

use image::{GrayImage, RgbImage};

use crate::font::rasterize;
use crate::grid::Grid;
use crate::vision::geometry::{bilinear, Homography};
use crate::vision::{Point, Reading};

/// Pixels a cell is rasterised at before warping into the picture.
const SUPERSAMPLE: u32 = 96;
/// Answer height as a share of the cell when no givens show their height.
const DEFAULT_HEIGHT_SHARE: f32 = 0.6;
/// Answer colours, all chromatic so they stand apart from black, grey or white givens;
/// the one that contrasts best with every empty cell's background is used.
const PALETTE: [[u8; 3]; 5] = [
    [20, 90, 230],   // blue: white and light grey cells
    [110, 200, 255], // sky blue: dark themes
    [255, 225, 40],  // yellow: coloured tiles
    [200, 0, 150],   // magenta
    [0, 130, 60],    // green
];
/// Margin of the background-coloured plate under an answer, as a share of the cell:
/// where the cell holds pencil marks, the plate keeps the answer clear of them (the
/// marks outside the plate stay as they were).
const PLATE_MARGIN: f32 = 0.05;

/// Draws each digit of `solution` that is empty in `reading` into `picture`.
pub fn draw_solution(picture: &mut RgbImage, reading: &Reading, solution: &Grid) {
    let share = given_height_share(reading);
    let empty: Vec<usize> = (0..81)
        .filter(|&i| reading.cells[i].digit.is_none() && solution.cells()[i] != 0)
        .collect();
    let backgrounds: Vec<[u8; 3]> = empty
        .iter()
        .map(|&i| cell_background(picture, reading, i))
        .collect();
    let colour = answer_colour(&backgrounds);
    for (&i, &bg) in empty.iter().zip(&backgrounds) {
        let raster = centred_digit(solution.cells()[i], share);
        let plate = plate_under(&raster, (PLATE_MARGIN * SUPERSAMPLE as f32).round() as u32);
        draw_warped(picture, reading, i, &plate, bg);
        draw_warped(picture, reading, i, &raster, colour);
    }
}

fn luminance(c: [u8; 3]) -> f32 {
    0.3 * c[0] as f32 + 0.59 * c[1] as f32 + 0.11 * c[2] as f32
}

/// The palette colour whose worst contrast (luminance difference, plus a little for
/// hue) against the empty cells' backgrounds is best.
fn answer_colour(backgrounds: &[[u8; 3]]) -> [u8; 3] {
    let contrast = |c: [u8; 3], bg: [u8; 3]| {
        let hue = (0..3)
            .map(|k| c[k].abs_diff(bg[k]) as f32)
            .fold(0.0, f32::max);
        (luminance(c) - luminance(bg)).abs() + 0.25 * hue
    };
    PALETTE
        .iter()
        .copied()
        .max_by(|&a, &b| {
            let worst = |c| {
                backgrounds
                    .iter()
                    .map(|&bg| contrast(c, bg))
                    .fold(f32::INFINITY, f32::min)
            };
            worst(a).total_cmp(&worst(b))
        })
        .unwrap_or(PALETTE[0])
}

/// Full coverage over the ink's bounding box grown by `margin`.
fn plate_under(raster: &GrayImage, margin: u32) -> GrayImage {
    let (w, h) = raster.dimensions();
    let inked = raster.enumerate_pixels().filter(|p| p.2 .0[0] > 0);
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for (x, y, _) in inked {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    GrayImage::from_fn(w, h, |x, y| {
        let inside = x + margin >= x0 && x <= x1 + margin && y + margin >= y0 && y <= y1 + margin;
        image::Luma([if inside { 255 } else { 0 }])
    })
}

/// The givens' height relative to their cells (median), so answers match them.
pub fn given_height_share(reading: &Reading) -> f32 {
    let mut shares: Vec<f32> = reading
        .cells
        .iter()
        .filter_map(|c| c.digit_box.map(|d| d.h / c.cell_box.h.max(1.0)))
        .filter(|s| *s > 0.2 && *s < 0.95)
        .collect();
    if shares.is_empty() {
        return DEFAULT_HEIGHT_SHARE;
    }
    shares.sort_by(f32::total_cmp);
    shares[shares.len() / 2]
}

/// A SUPERSAMPLE-square coverage map with the digit centred, `share` of the cell high.
fn centred_digit(digit: u8, share: f32) -> GrayImage {
    let glyph = rasterize(&digit.to_string(), share * SUPERSAMPLE as f32);
    let mut cell = GrayImage::new(SUPERSAMPLE, SUPERSAMPLE);
    let x = (SUPERSAMPLE as i64 - glyph.width() as i64) / 2;
    let y = (SUPERSAMPLE as i64 - glyph.height() as i64) / 2;
    image::imageops::overlay(&mut cell, &glyph, x, y);
    cell
}

/// The cell's background: the median colour (by luminance) of a sample of its pixels.
fn cell_background(picture: &RgbImage, reading: &Reading, i: usize) -> [u8; 3] {
    let b = reading.cells[i].cell_box;
    let mut px: Vec<[u8; 3]> = Vec::new();
    let step = (b.w.min(b.h) / 12.0).max(1.0);
    // Samples before the picture's edge are skipped in one go and the walk stops at
    // its far edge: a box far bigger than the picture (a hostile reading) costs no
    // more than the picture.
    let first = |start: f32| {
        if start < 0.0 {
            // The first sample at or past 0: the same position modulo the step.
            start.rem_euclid(step)
        } else {
            start
        }
    };
    let (w, h) = (picture.width() as f32, picture.height() as f32);
    let mut y = first(b.y + step);
    while y < b.y + b.h - step && y < h {
        let mut x = first(b.x + step);
        while x < b.x + b.w - step && x < w {
            if x >= 0.0 && y >= 0.0 && (x as u32) < picture.width() && (y as u32) < picture.height()
            {
                px.push(picture.get_pixel(x as u32, y as u32).0);
            }
            x += step;
        }
        y += step;
    }
    if px.is_empty() {
        return [255, 255, 255];
    }
    px.sort_by(|a, b| luminance(*a).total_cmp(&luminance(*b)));
    px[px.len() / 2]
}

/// The cell's quadrilateral: the grid's perspective (its homography) fitted to the cell
/// box actually found, so uneven gaps between boxes and bevels place answers right.
fn cell_quad(reading: &Reading, i: usize) -> [Point; 4] {
    let (r, c) = ((i / 9) as f32, (i % 9) as f32);
    let h = &reading.to_picture;
    let quad = [
        h.apply(c, r),
        h.apply(c + 1.0, r),
        h.apply(c + 1.0, r + 1.0),
        h.apply(c, r + 1.0),
    ];
    let (lo, hi) = Point::bounds(&quad);
    let (x0, y0, x1, y1) = (lo.x, lo.y, hi.x, hi.y);
    let b = reading.cells[i].cell_box;
    if x1 - x0 < 1.0 || y1 - y0 < 1.0 || b.w < 1.0 || b.h < 1.0 {
        return quad;
    }
    quad.map(|p| Point {
        x: b.x + (p.x - x0) * b.w / (x1 - x0),
        y: b.y + (p.y - y0) * b.h / (y1 - y0),
    })
}

fn draw_warped(
    picture: &mut RgbImage,
    reading: &Reading,
    i: usize,
    raster: &GrayImage,
    colour: [u8; 3],
) {
    let quad = cell_quad(reading, i);
    let Some(to_cell) = Homography::grid_to_quad(quad).and_then(|h| h.inverse()) else {
        return;
    };
    let (lo, hi) = Point::bounds(&quad);
    let x0 = lo.x.floor().max(0.0) as u32;
    let y0 = lo.y.floor().max(0.0) as u32;
    let x1 = (hi.x.ceil() as u32).min(picture.width());
    let y1 = (hi.y.ceil() as u32).min(picture.height());
    let s = SUPERSAMPLE as f32;
    for y in y0..y1 {
        for x in x0..x1 {
            // grid_to_quad spans 9 units: a cell's own quad maps to 0..9, so /9.
            let g = to_cell.apply(x as f32 + 0.5, y as f32 + 0.5);
            let (u, v) = (g.x / 9.0 * s, g.y / 9.0 * s);
            if u < 0.0 || v < 0.0 || u >= s - 1.0 || v >= s - 1.0 {
                continue;
            }
            let a = bilinear(raster, u, v) / 255.0;
            if a <= 0.0 {
                continue;
            }
            let p = picture.get_pixel_mut(x, y);
            for (channel, &target) in p.0.iter_mut().zip(&colour) {
                *channel = (*channel as f32 * (1.0 - a) + target as f32 * a).round() as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::geometry::Homography;
    use crate::vision::{CellReading, Method, Rect};

    fn reading_for(corners: [Point; 4], grid: Grid) -> Reading {
        let h = Homography::grid_to_quad(corners).unwrap();
        let cells = (0..81)
            .map(|i| {
                let (r, c) = ((i / 9) as f32, (i % 9) as f32);
                let a = h.apply(c, r);
                let b = h.apply(c + 1.0, r + 1.0);
                CellReading {
                    digit: (grid.cells()[i] != 0).then(|| grid.cells()[i]),
                    confidence: 1.0,
                    method: Method::Ocr,
                    cell_box: Rect {
                        x: a.x,
                        y: a.y,
                        w: b.x - a.x,
                        h: b.y - a.y,
                    },
                    digit_box: None,
                    alternatives: vec![],
                }
            })
            .collect();
        Reading {
            grid,
            corners,
            cells,
            to_picture: h,
            verdict: crate::grid::Verdict::of(&grid, &[]),
            enlarged: None,
        }
    }

    fn ink_in(img: &RgbImage, x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0 != [255, 255, 255])
            .count()
    }

    #[test]
    fn answers_go_into_empty_cells_only_and_follow_the_skew() {
        let mut g = Grid::EMPTY;
        g.set(0, 0, 5);
        let mut solution = Grid::EMPTY;
        solution.set(0, 0, 5);
        solution.set(0, 1, 3);
        // A grid whose right side is shorter: a photo taken from the left.
        let corners = [
            Point { x: 10.0, y: 10.0 },
            Point { x: 370.0, y: 60.0 },
            Point { x: 370.0, y: 320.0 },
            Point { x: 10.0, y: 370.0 },
        ];
        let reading = reading_for(corners, g);
        let mut img = RgbImage::from_pixel(400, 400, image::Rgb([255, 255, 255]));
        draw_solution(&mut img, &reading, &solution);
        let h = reading.to_picture;
        let (a, b) = (h.apply(1.0, 0.0), h.apply(2.0, 1.0));
        assert!(
            ink_in(&img, a.x as u32, a.y as u32, b.x as u32, b.y as u32) > 50,
            "the 3 is drawn in r1c2"
        );
        let (a, b) = (h.apply(0.0, 0.0), h.apply(1.0, 1.0));
        assert_eq!(
            ink_in(&img, a.x as u32, a.y as u32, b.x as u32, b.y as u32),
            0,
            "the given's cell is untouched"
        );
        let q = [
            h.apply(1.0, 0.0),
            h.apply(2.0, 0.0),
            h.apply(2.0, 1.0),
            h.apply(1.0, 1.0),
        ];
        let (lo, hi) = Point::bounds(&q);
        let inside = ink_in(
            &img,
            lo.x as u32,
            lo.y as u32,
            hi.x as u32 + 1,
            hi.y as u32 + 1,
        );
        assert_eq!(ink_in(&img, 0, 0, 400, 400), inside, "nothing outside r1c2");
    }
}
