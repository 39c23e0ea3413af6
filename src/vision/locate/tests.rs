//! The tests of [`super`]: pictures drawn for each case.

use super::lattice::*;
use super::regions::label_regions;
use image::{Rgb, RgbImage};

/// Draws a grid: `cell` px cells, thin lines of `thin`, box lines of `thick`, with
/// an optional gap, at (ox, oy) on a `bg` page.
pub(in crate::vision) fn draw_grid(
    w: u32,
    h: u32,
    ox: u32,
    oy: u32,
    cell: u32,
    thin: u32,
    thick: u32,
    fg: [u8; 3],
    bg: [u8; 3],
) -> RgbImage {
    let mut img = RgbImage::from_pixel(w, h, Rgb(bg));
    let mut pos = Vec::new();
    let mut p = 0;
    for k in 0..=9 {
        let lw = if k % 3 == 0 { thick } else { thin };
        pos.push((p, lw));
        p += lw + cell;
    }
    let total = p - cell;
    for &(q, lw) in &pos {
        for t in 0..lw {
            for u in 0..total {
                img.put_pixel(ox + q + t, oy + u, Rgb(fg));
                img.put_pixel(ox + u, oy + q + t, Rgb(fg));
            }
        }
    }
    img
}

#[test]
fn finds_a_flat_grid_and_its_cells() {
    let img = draw_grid(500, 420, 40, 30, 36, 1, 3, [0, 0, 0], [255, 255, 255]);
    let lat = locate_lattice(&label_regions(&img)).expect("grid");
    // first cell interior starts after the 3 px outer line
    assert_eq!(
        (lat.cells[0].x, lat.cells[0].y, lat.cells[0].w),
        (43.0, 33.0, 36.0)
    );
    let last = lat.cells[80];
    // lines before the right edge of the last cell: 3 thick (3 px) and 6 thin (1 px)
    assert_eq!(last.x + last.w, 40.0 + 3.0 * 3.0 + 6.0 + 36.0 * 9.0);
    assert!(lat.labels.iter().all(|l| l.is_some()));
}

#[test]
fn a_grown_lattice_reaches_past_its_regions_but_not_into_its_neighbours() {
    // 1 px lines between cells, 3 px between boxes and around the grid.
    let img = draw_grid(500, 420, 40, 30, 36, 1, 3, [0, 0, 0], [255, 255, 255]);
    let lat = locate_lattice(&label_regions(&img)).expect("grid");
    let grown = lat.grown(3.0);
    let (a, b) = (lat.cells[0], grown.cells[0]);
    // Out by 3 px at the grid's border, by half the line to its neighbour.
    assert_eq!((b.x, b.y), (a.x - 3.0, a.y - 3.0));
    assert_eq!(b.x + b.w, a.x + a.w + 0.5);
    assert_eq!(grown.cells[1].x, lat.cells[1].x - 0.5);
    // Between boxes (a 3 px line) by 1.5 px on either side.
    let (a, b) = (lat.cells[2], grown.cells[2]);
    assert_eq!(b.x + b.w, a.x + a.w + 1.5);
    assert_eq!(grown.corners[0].x, lat.corners[0].x - 3.0);
}

#[test]
fn finds_a_dark_small_grid() {
    let img = draw_grid(300, 260, 10, 12, 20, 1, 2, [90, 90, 100], [30, 30, 34]);
    let lat = locate_lattice(&label_regions(&img)).expect("grid");
    assert_eq!(lat.cells[0].w, 20.0);
}

/// Lines of `line` px every `square` px across the whole page: graph paper.
pub(in crate::vision) fn graph_paper(w: u32, h: u32, square: u32, line: u32) -> RgbImage {
    RgbImage::from_fn(w, h, |x, y| {
        if x % square < line || y % square < line {
            Rgb([120, 140, 200])
        } else {
            Rgb([255, 255, 255])
        }
    })
}

#[test]
fn graph_paper_and_a_checkerboard_are_not_grids() {
    let paper = graph_paper(900, 700, 25, 1);
    assert!(locate_lattice(&label_regions(&paper)).is_none());
    let board = RgbImage::from_fn(1000, 800, |x, y| {
        Rgb([if (x / 40 + y / 40) % 2 == 0 { 0 } else { 255 }; 3])
    });
    assert!(locate_lattice(&label_regions(&board)).is_none());
}

#[test]
fn a_grid_drawn_with_even_lines_is_still_a_grid() {
    // No wider box lines, but the lattice ends at its border.
    let img = draw_grid(500, 420, 40, 30, 36, 1, 1, [0, 0, 0], [255, 255, 255]);
    assert!(locate_lattice(&label_regions(&img)).is_some());
    // Graph paper with a real grid drawn on it: the grid's box lines tell it.
    let mut page = graph_paper(700, 600, 12, 1);
    let grid = draw_grid(420, 420, 10, 10, 36, 1, 3, [0, 0, 0], [255, 255, 255]);
    image::imageops::replace(&mut page, &grid, 100, 80);
    let lat = locate_lattice(&label_regions(&page)).expect("grid on graph paper");
    assert_eq!(lat.cells[0].w, 36.0);
}

#[test]
fn a_number_pad_alone_is_not_a_grid() {
    // a 3x3 pad of 40 px keys
    let mut img = RgbImage::from_pixel(300, 300, Rgb([255, 255, 255]));
    for k in 0..3 {
        for j in 0..3 {
            for y in 0..40 {
                for x in 0..40 {
                    img.put_pixel(10 + k * 46 + x, 10 + j * 46 + y, Rgb([200, 200, 230]));
                }
            }
        }
    }
    assert!(locate_lattice(&label_regions(&img)).is_none());
}
