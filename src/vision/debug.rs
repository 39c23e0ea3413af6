//! Pictures of each reading stage, for `read --debug DIR`: a person sees at a glance
//! where the grid was found, which marks counted as givens, and what was read where.
//!
//! - `1-grid.png`   the grid's outline (red) and each cell box (blue)
//! - `2-glyphs.png` given glyphs (green boxes) and marks too small to be givens (orange)
//! - `3-read.png`   the digit read in each cell, coloured by how: Tesseract (blue), a
//!   glyph recognised from before (purple), the classifier (teal), the rules (orange);
//!   red `?` where nothing could be read
//! - `no-grid.png`  the picture, when no grid was found
//!
//! [`doubtful_cells`] frames the cells a refused read doubts (`overlay --debug` writes it
//! as `doubtful.png`, the watch loop as `refused-*.png`).
//!
//! Photos (read by the classifier) get `1-grid.png` and `3-read.png`.

use std::path::Path;

use image::{DynamicImage, Rgb, RgbImage};
use imageproc::drawing::{draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect as PixRect;

use super::geometry::{Point, Rect};
use super::glyphs::Glyph;
use super::locate::Lattice;
use super::reading::{Method, Reading};
use crate::font::draw_text;

const RED: Rgb<u8> = Rgb([230, 30, 30]);
const BLUE: Rgb<u8> = Rgb([40, 90, 230]);
const GREEN: Rgb<u8> = Rgb([20, 170, 40]);
const ORANGE: Rgb<u8> = Rgb([240, 140, 0]);

pub fn save(dir: &Path, name: &str, img: &RgbImage) {
    if let Err(e) = std::fs::create_dir_all(dir)
        .map_err(|e| e.to_string())
        .and_then(|_| img.save(dir.join(name)).map_err(|e| e.to_string()))
    {
        tracing::warn!(
            "could not write debug picture {}: {e}",
            dir.join(name).display()
        );
    }
}

fn rect(img: &mut RgbImage, r: &Rect, colour: Rgb<u8>) {
    if r.w >= 1.0 && r.h >= 1.0 {
        draw_hollow_rect_mut(
            img,
            PixRect::at(r.x as i32, r.y as i32).of_size(r.w as u32, r.h as u32),
            colour,
        );
    }
}

pub fn write_no_grid(dir: &Path, picture: &RgbImage) {
    save(dir, "no-grid.png", picture);
}

/// Outline of the grid through its four corners.
pub fn outline(img: &mut RgbImage, corners: &[Point; 4], colour: Rgb<u8>) {
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        for t in -1..=1 {
            let t = t as f32;
            draw_line_segment_mut(img, (a.x + t, a.y + t), (b.x + t, b.y + t), colour);
        }
    }
}

pub fn write_stages(
    dir: &Path,
    picture: &RgbImage,
    lattice: &Lattice,
    glyphs: &[Option<Glyph>],
    threshold: f32,
    reading: &Reading,
) {
    let mut grid = picture.clone();
    for c in &lattice.cells {
        rect(&mut grid, c, BLUE);
    }
    outline(&mut grid, &lattice.corners, RED);
    save(dir, "1-grid.png", &grid);

    let mut marks = picture.clone();
    for g in glyphs.iter().flatten() {
        rect(
            &mut marks,
            &g.bbox,
            if g.height() >= threshold {
                GREEN
            } else {
                ORANGE
            },
        );
    }
    save(dir, "2-glyphs.png", &marks);
    write_read(dir, picture, reading);
}

/// The digits read, drawn in the top-left corner of each cell.
pub fn write_read(dir: &Path, picture: &RgbImage, reading: &Reading) {
    let mut read = picture.clone();
    for c in &reading.cells {
        let h = (c.cell_box.h * 0.35).max(8.0);
        let (x, y) = (c.cell_box.x as i32 + 2, c.cell_box.y as i32 + 2);
        match (c.digit, c.digit_box) {
            (Some(d), _) => {
                let colour = match c.method {
                    Method::Ocr => [40, 90, 230],
                    Method::Template => [150, 40, 200],
                    Method::Classifier => [0, 150, 150],
                    Method::Rules => [240, 140, 0],
                    Method::Empty => [0, 0, 0],
                };
                draw_text(&mut read, &d.to_string(), x, y, h, colour);
            }
            (None, Some(_)) => draw_text(&mut read, "?", x, y, h, [230, 30, 30]),
            (None, None) => {}
        }
    }
    save(dir, "3-read.png", &read);
}

/// Stage pictures of the photo path: the grid's outline and the digits read.
pub fn write_photo(dir: &Path, picture: &RgbImage, reading: &Reading) {
    let mut grid = picture.clone();
    for c in &reading.cells {
        rect(&mut grid, &c.cell_box, BLUE);
    }
    outline(&mut grid, &reading.corners, RED);
    save(dir, "1-grid.png", &grid);
    write_read(dir, picture, reading);
}

/// The picture with `cells` (indices into `reading.cells`) framed in red, 3 px inside
/// each cell's box: the doubtful cells of a read that was refused or did not solve,
/// for the user to look at.
pub fn doubtful_cells(picture: &DynamicImage, reading: &Reading, cells: &[usize]) -> RgbImage {
    let mut img = picture.to_rgb8();
    for cell in cells.iter().filter_map(|&i| reading.cells.get(i)) {
        frame(&mut img, &cell.cell_box, RED);
    }
    img
}

/// A 3 px frame inside a box, for marking cells.
fn frame(img: &mut RgbImage, r: &Rect, colour: Rgb<u8>) {
    for k in 0..3 {
        let k = k as f32;
        rect(
            img,
            &Rect {
                x: r.x + k,
                y: r.y + k,
                w: r.w - 2.0 * k,
                h: r.h - 2.0 * k,
            },
            colour,
        );
    }
}
