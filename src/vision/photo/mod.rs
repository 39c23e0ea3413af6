//! Reading a phone photo of a printed sudoku: find the grid despite perspective,
//! rotation, curved paper, uneven light and print around it; follow its lines; cut the
//! 81 cells; classify them with the [`DigitClassifier`]; let the sudoku rules settle the
//! doubtful cells.
//!
//! The method:
//! 1. Scale the photo so its longer side is at most [`WORK_MAX_SIDE`] px.
//! 2. Ink mask by a local-mean adaptive threshold (a pixel darker than the mean of its
//!    neighbourhood by a margin; Bradley & Roth, "Adaptive thresholding using the
//!    integral image", 2007).
//! 3. The grid's lines form one large connected ink component. The biggest components
//!    become candidate quadrilaterals (corners from the extremes of x+y and x-y), each
//!    scored by how much its warped square looks like a 9x9 lattice.
//! 4. Outline fitting ([`GridMesh::fit_outline`]): straight lines fitted through the
//!    pieces of the four outer lines found near the candidate outline; kept when the
//!    lattice score agrees.
//! 5. Line following ([`GridMesh::refine`]): in the warped square, each of the 20 grid
//!    lines is looked for near where it should be, cell by cell, giving a 10x10 mesh of
//!    line crossings that follows curved paper a single homography cannot.
//! 6. Each cell is sampled from the photo through its own four mesh corners.

use image::GrayImage;

use crate::grid::{Grid, Verdict};
use crate::solver::is_proper_puzzle;
use crate::vision::digits::classifier::{DigitClassifier, CLASSES, WORK_SIDE};
use crate::vision::geometry::{Homography, Point, Rect};
use crate::vision::reading::{CellReading, Method, ReadError, Reading};

mod ink;
mod mesh;
mod outline;

pub use ink::ink_mask;
pub use mesh::GridMesh;
pub use outline::{grid_candidates, locate_grid, locate_mesh, work_picture, WORK_MAX_SIDE};

/// How many cells, the least sure first (lowest top probability), the sudoku rules may
/// change.
const DOUBT_LIMIT: usize = 10;

/// The 81 cell crops of a located grid, [`WORK_SIDE`] px square, row by row.
pub fn cut_cells(gray: &GrayImage, mesh: &GridMesh) -> Vec<GrayImage> {
    let (work, k) = work_picture(gray);
    let mesh = mesh.scaled(1.0 / k);
    (0..81)
        .map(|i| mesh.cut_cell(&work, i, WORK_SIDE))
        .collect()
}

/// Reads a phone photo (or any picture) of a sudoku with the classifier: grid, corners,
/// cells with their boxes and ranked alternatives, and the grid-to-picture transform.
pub fn read_photo(gray: &GrayImage, classifier: &DigitClassifier) -> Result<Reading, ReadError> {
    let mesh = locate_mesh(gray).ok_or(ReadError::NoGrid)?;
    read_with_mesh(gray, &mesh, classifier)
}

/// [`read_photo`] with the grid's mesh already known (e.g. from a ground-truth outline).
pub fn read_with_mesh(
    gray: &GrayImage,
    mesh: &GridMesh,
    classifier: &DigitClassifier,
) -> Result<Reading, ReadError> {
    let cells = cut_cells(gray, mesh);
    let probs: Vec<[f32; CLASSES]> = cells.iter().map(|c| classifier.classify(c)).collect();
    let (grid, changed) = judge(&probs);
    let cell_readings: Vec<CellReading> = (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            let quad = [
                mesh.points[r][c],
                mesh.points[r][c + 1],
                mesh.points[r + 1][c + 1],
                mesh.points[r + 1][c],
            ];
            let (low, high) = Point::bounds(&quad);
            let cell_box = Rect {
                x: low.x,
                y: low.y,
                w: high.x - low.x,
                h: high.y - low.y,
            };
            let d = grid.cells()[i];
            let mut ranked: Vec<(u8, f32)> = (0..CLASSES as u8)
                .map(|k| (k, probs[i][k as usize]))
                .collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
            // A digit read in a cell whose middle is blank (the classifier took a line
            // beside it for one) is doubtful: neither that digit nor proven empty. So is
            // a cell read as empty, not surely, with ink in its middle as dark as a
            // digit's.
            let ink = centre_contrast(&cells[i]);
            let doubtful = if d == 0 {
                probs[i][0] < SURE_EMPTY && ink >= MAX_EMPTY_INK
            } else {
                ink < MIN_CENTRE_INK
            };
            if doubtful {
                tracing::debug!(
                    "r{}c{}: {d} read, {ink} levels of ink in the middle",
                    r + 1,
                    c + 1
                );
            }
            CellReading {
                digit: (d != 0 && !doubtful).then_some(d),
                confidence: probs[i][d as usize],
                method: if changed.contains(&i) {
                    Method::Rules
                } else {
                    Method::Classifier
                },
                cell_box,
                digit_box: doubtful.then_some(cell_box),
                alternatives: ranked
                    .into_iter()
                    .filter(|&(k, p)| k != 0 && k != d && p > 0.001)
                    .collect(),
            }
        })
        .collect();
    let mut grid = grid;
    for (i, cell) in cell_readings.iter().enumerate() {
        if cell.digit.is_none() {
            grid.set(i / 9, i % 9, 0);
        }
    }
    let corners = mesh.corners();
    let to_picture = Homography::grid_to_quad(corners).ok_or(ReadError::NoGrid)?;
    let reading = Reading {
        grid,
        corners,
        cells: cell_readings,
        to_picture,
        verdict: Verdict::unjudged(),
        enlarged: None,
    };
    let reading = big_enough(reading)?;
    // A photo of a printed puzzle has one solution: several means a digit was missed.
    reading.judged(true)
}

/// The reading, unless the grid's cells are under [`MIN_CELL_SIDE`]: a digit of a few
/// pixels, blurred up to the classifier's size, is a guess.
fn big_enough(reading: Reading) -> Result<Reading, ReadError> {
    let mut sides: Vec<f32> = reading
        .cells
        .iter()
        .map(|c| c.cell_box.w.min(c.cell_box.h))
        .collect();
    sides.sort_by(f32::total_cmp);
    if sides[40] >= MIN_CELL_SIDE {
        return Ok(reading);
    }
    Err(ReadError::Doubtful {
        reason: format!(
            "the grid's cells are {:.0} px, too small to read",
            sides[40]
        ),
        cells: (0..81).filter(|&i| reading.grid.cells()[i] != 0).collect(),
        reading: Box::new(reading),
    })
}

/// The photo reader reads cells this many pixels a side or more (the screenshot
/// reader reads 12 px cells of crisp digits; a photo's are blurred).
const MIN_CELL_SIDE: f32 = 12.0;

/// A digit's strokes are at least this much darker than its cell's background
/// somewhere in the cell's middle (the faintest of 160 labelled photos: 14).
const MIN_CENTRE_INK: u8 = 8;

/// A cell the classifier reads as empty with less than this probability...
const SURE_EMPTY: f32 = 0.9;
/// ... is doubtful with this much ink in its middle (of the 160 training photos' cells
/// read as empty that unsurely, 15 had 1-26 levels; a 5 read as empty had 65).
const MAX_EMPTY_INK: u8 = 30;

/// How much darker than the cell's background (its median) the darkest pixel of the
/// cell's middle is (the central 40% across, 50% down): every digit's strokes cross it.
fn centre_contrast(cell: &GrayImage) -> u8 {
    let (w, h) = cell.dimensions();
    let mut all: Vec<u8> = cell.pixels().map(|p| p.0[0]).collect();
    all.sort_unstable();
    let background = all[all.len() / 2];
    let darkest = (h / 4..h - h / 4)
        .flat_map(|y| (w * 3 / 10..w - w * 3 / 10).map(move |x| (x, y)))
        .map(|(x, y)| cell.get_pixel(x, y).0[0])
        .min()
        .unwrap_or(background);
    background.saturating_sub(darkest)
}

fn best_prob(p: &[f32; CLASSES]) -> f32 {
    p.iter().fold(0.0f32, |m, &v| m.max(v))
}

/// The sudoku rules as the final judge. Takes each cell's most probable class; when the
/// grid is not a proper puzzle, tries replacing the least sure cells by their next
/// classes, one or two at a time, and keeps the most probable grid that is a proper
/// puzzle. Returns the grid and the cells changed.
fn judge(probs: &[[f32; CLASSES]]) -> (Grid, Vec<usize>) {
    let mut cells = [0u8; 81];
    for (i, p) in probs.iter().enumerate() {
        cells[i] = argmax(p) as u8;
    }
    let first = Grid::from_cells(cells);
    if is_proper_puzzle(&first) {
        return (first, Vec::new());
    }
    // The doubtful cells: lowest top probability first; each with its runner-up
    // classes and the cost (log-probability lost) of switching to them.
    let mut order: Vec<usize> = (0..81).collect();
    order.sort_by(|&a, &b| best_prob(&probs[a]).total_cmp(&best_prob(&probs[b])));
    let mut options: Vec<(usize, u8, f32)> = Vec::new();
    for &i in order.iter().take(DOUBT_LIMIT) {
        let top = best_prob(&probs[i]).max(1e-9);
        let mut ranked: Vec<usize> = (0..CLASSES).filter(|&k| k != cells[i] as usize).collect();
        ranked.sort_by(|&a, &b| probs[i][b].total_cmp(&probs[i][a]));
        for &k in ranked.iter().take(2) {
            let cost = (top / probs[i][k].max(1e-9)).ln();
            options.push((i, k as u8, cost));
        }
    }
    let mut tries: Vec<(f32, Vec<(usize, u8)>)> = Vec::new();
    for (a, &(i, k, cost)) in options.iter().enumerate() {
        tries.push((cost, vec![(i, k)]));
        for &(j, l, cost2) in options.iter().skip(a + 1) {
            if j != i {
                tries.push((cost + cost2, vec![(i, k), (j, l)]));
            }
        }
    }
    tries.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, changes) in tries {
        let mut c = cells;
        for &(i, k) in &changes {
            c[i] = k;
        }
        let g = Grid::from_cells(c);
        if is_proper_puzzle(&g) {
            return (g, changes.iter().map(|&(i, _)| i).collect());
        }
    }
    (first, Vec::new())
}

fn argmax(p: &[f32; CLASSES]) -> usize {
    (0..CLASSES)
        .max_by(|&a, &b| p[a].total_cmp(&p[b]))
        .unwrap_or(0)
}

/// Pictures of grids drawn for the tests of the photo path.
#[cfg(test)]
mod test_pictures {
    use image::{GrayImage, Luma};

    use crate::vision::geometry::Point;

    /// A picture of a 9x9 grid (thin lines, thick every third) drawn through `map`,
    /// which takes grid units (u, v in 0..=9) to picture pixels; paper 200, ink 40,
    /// with a shadow gradient across the picture.
    pub(super) fn draw_grid(w: u32, h: u32, map: impl Fn(f32, f32) -> Point) -> GrayImage {
        let mut img = GrayImage::from_fn(w, h, |x, _| {
            Luma([(200.0 - 60.0 * x as f32 / w as f32) as u8])
        });
        let steps = 900;
        for k in 0..=9 {
            let half: f32 = if k % 3 == 0 { 1.6 } else { 0.7 };
            for t in 0..=steps {
                let along = 9.0 * t as f32 / steps as f32;
                for p in [map(along, k as f32), map(k as f32, along)] {
                    let r = half.ceil() as i32;
                    for dy in -r..=r {
                        for dx in -r..=r {
                            let (x, y) = ((p.x + dx as f32).round(), (p.y + dy as f32).round());
                            if ((x - p.x).powi(2) + (y - p.y).powi(2)).sqrt() <= half + 0.3
                                && x >= 0.0
                                && y >= 0.0
                                && (x as u32) < w
                                && (y as u32) < h
                            {
                                img.put_pixel(x as u32, y as u32, Luma([40]));
                            }
                        }
                    }
                }
            }
        }
        img
    }

    pub(super) fn dist(a: Point, b: Point) -> f32 {
        (a.x - b.x).hypot(a.y - b.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classic puzzle from Wikipedia's "Sudoku" article (unique solution).
    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn confident(grid: &Grid) -> Vec<[f32; CLASSES]> {
        grid.cells()
            .iter()
            .map(|&d| {
                let mut p = [0.001; CLASSES];
                p[d as usize] = 0.99;
                p
            })
            .collect()
    }

    #[test]
    fn the_rules_overrule_a_doubtful_digit() {
        let truth = Grid::parse(PUZZLE).unwrap();
        let mut probs = confident(&truth);
        // r1c1 holds 5, but the classifier leans to 3 (which clashes with r1c2's 3).
        probs[0] = [0.0, 0.0, 0.0, 0.55, 0.0, 0.45, 0.0, 0.0, 0.0, 0.0];
        let (grid, changed) = judge(&probs);
        assert_eq!(grid, truth);
        assert_eq!(changed, vec![0]);
    }

    #[test]
    fn a_sure_reading_is_left_alone() {
        let truth = Grid::parse(PUZZLE).unwrap();
        let (grid, changed) = judge(&confident(&truth));
        assert_eq!(grid, truth);
        assert!(changed.is_empty());
    }

    #[test]
    fn a_cell_with_a_line_along_its_side_has_a_blank_middle_and_a_digit_does_not() {
        let mut cell = GrayImage::from_pixel(WORK_SIDE, WORK_SIDE, image::Luma([235]));
        for y in 0..WORK_SIDE {
            for x in 0..5 {
                cell.put_pixel(x, y, image::Luma([40]));
            }
        }
        assert!(centre_contrast(&cell) < MIN_CENTRE_INK);
        // A faint "1" down the middle, 20 grey levels darker.
        for y in 10..38 {
            cell.put_pixel(24, y, image::Luma([215]));
        }
        assert!(centre_contrast(&cell) >= MIN_CENTRE_INK);
    }
}
