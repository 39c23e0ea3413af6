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

use image::{GrayImage, Luma};

use super::classifier::{DigitClassifier, CLASSES, WORK_SIDE};
use super::components::{Flood, Neighbours};
use super::geometry::{bilinear, Homography};
use super::{CellReading, Method, Point, ReadError, Reading, Rect};
use crate::grid::{is_proper_puzzle, Grid, Verdict};

/// Photos are scaled down to this longer side before anything else: grids then have
/// cells of 30-90 px, enough for print, and the work stays under a few tens of ms.
pub const WORK_MAX_SIDE: u32 = 900;
/// Side of one cell in the rectified square used to follow lines.
const MESH_CELL: f32 = 24.0;
/// How far (fraction of a cell) a line may stray from where the outline puts it.
const LINE_SEARCH: f32 = 0.28;
/// A segment of grid line must be inked along at least this fraction of its length to
/// count as found; digits cover at most about half a cell's width.
const LINE_MIN_FILL: f32 = 0.5;
/// How far (fraction of a cell) the outline's lines are looked for either side of
/// the first outline: corners taken from the ink's extremes are off by up to half a
/// cell when print touches the grid.
const OUTLINE_SEARCH: f32 = 0.6;
/// An outer line is thick and unbroken: a piece counts when inked along this much of
/// its length.
const OUTLINE_MIN_FILL: f32 = 0.7;
/// How many cells, the least sure first (lowest top probability), the sudoku rules may
/// change.
const DOUBT_LIMIT: usize = 10;

/// The grid's line crossings in picture pixels: `points[row][col]`, rows and columns
/// 0..=9, so `points[0][0]` is the top-left corner and `points[9][9]` the bottom-right.
#[derive(Debug, Clone)]
pub struct GridMesh {
    pub points: [[Point; 10]; 10],
}

impl GridMesh {
    /// The mesh a single homography puts between the four outer corners (top-left,
    /// top-right, bottom-right, bottom-left).
    pub fn from_corners(corners: [Point; 4]) -> Option<GridMesh> {
        let h = Homography::grid_to_quad(corners)?;
        let mut points = [[Point { x: 0.0, y: 0.0 }; 10]; 10];
        for (r, row) in points.iter_mut().enumerate() {
            for (c, p) in row.iter_mut().enumerate() {
                *p = h.apply(c as f32, r as f32);
            }
        }
        Some(GridMesh { points })
    }

    /// The four outer corners: top-left, top-right, bottom-right, bottom-left.
    pub fn corners(&self) -> [Point; 4] {
        [
            self.points[0][0],
            self.points[0][9],
            self.points[9][9],
            self.points[9][0],
        ]
    }

    /// Follows the grid lines in `gray` near where this mesh puts them and returns the
    /// mesh through the lines found. Each line is searched segment by segment (one
    /// segment a cell) within [`LINE_SEARCH`] of a cell; segments where no line is
    /// inked enough keep the position interpolated from their neighbours.
    pub fn refine(&self, gray: &GrayImage) -> GridMesh {
        let s = MESH_CELL;
        let (ink, pad) = self.rectified_ink(gray);
        let at = |x: i32, y: i32| ink_at(&ink, x + pad, y + pad);
        let reach = (LINE_SEARCH * s).round() as i32;
        // offsets[h][k][j]: offset (px in the square) of line k, segment j; h = 0 for
        // horizontal lines (offset in y), 1 for vertical lines (offset in x).
        let mut offsets = [[[f32::NAN; 9]; 10]; 2];
        for (h, lines) in offsets.iter_mut().enumerate() {
            for (k, line) in lines.iter_mut().enumerate() {
                for (j, slot) in line.iter_mut().enumerate() {
                    let base = (k as f32 * s).round() as i32;
                    let best = best_segment_offset(&at, h == 0, base, j, s, reach);
                    if best.0 >= LINE_MIN_FILL {
                        *slot = best.1 as f32;
                    }
                }
                fill_gaps(line);
            }
        }
        // A crossing moves by the offsets of its two lines near it (mean of the
        // segments on either side).
        let near = |line: &[f32; 9], i: usize| -> f32 {
            match i {
                0 => line[0],
                9 => line[8],
                _ => (line[i - 1] + line[i]) / 2.0,
            }
        };
        let mut points = self.points;
        for (r, row) in points.iter_mut().enumerate() {
            for (c, p) in row.iter_mut().enumerate() {
                let dy = near(&offsets[0][r], c);
                let dx = near(&offsets[1][c], r);
                *p = self.map(c as f32 + dx / s, r as f32 + dy / s);
            }
        }
        GridMesh { points }
    }

    /// The ink mask of the rectified grid: the square of [`MESH_CELL`] px a cell,
    /// through this mesh's piecewise map, with a margin of one cell all round so that
    /// lines outside the current outline can be found. Returns the mask and the
    /// margin in px (grid point (0, 0) is at (pad, pad)).
    fn rectified_ink(&self, gray: &GrayImage) -> (GrayImage, i32) {
        let s = MESH_CELL;
        let pad = s as i32;
        let side = (11.0 * s).round() as u32 + 1;
        let mut square = GrayImage::new(side, side);
        for y in 0..side {
            for x in 0..side {
                let p = self.map((x as f32 - pad as f32) / s, (y as f32 - pad as f32) / s);
                square.put_pixel(x, y, Luma([bilinear(gray, p.x, p.y).round() as u8]));
            }
        }
        (ink_mask(&square, (s * 0.6) as u32), pad)
    }

    /// Straightens the outline: each outer line is looked for, cell by cell, up to
    /// [`OUTLINE_SEARCH`] of a cell either side of where this mesh puts it, a straight
    /// line is fitted through the pieces found (least squares, twice, dropping pieces
    /// more than 2 px off the first fit), and the corners move to where the fitted
    /// lines cross. Print touching the grid, and a faded or cut corner, move the ink's
    /// extremes but not most of a line.
    pub fn fit_outline(&self, gray: &GrayImage) -> GridMesh {
        let s = MESH_CELL;
        let (ink, pad) = self.rectified_ink(gray);
        let at = |x: i32, y: i32| ink_at(&ink, x + pad, y + pad);
        let reach = (OUTLINE_SEARCH * s).round() as i32;
        // lines[h][e]: (intercept, slope) of the offset (in cells) along the line, for
        // horizontal (h = 0) or vertical (h = 1) outer line e (0 first, 1 last).
        let mut lines = [[(0.0f32, 0.0f32); 2]; 2];
        for (h, pair) in lines.iter_mut().enumerate() {
            for (e, fit) in pair.iter_mut().enumerate() {
                let base = if e == 0 { 0 } else { (9.0 * s).round() as i32 };
                let mut pieces = Vec::new();
                for j in 0..9 {
                    let best = best_segment_offset(&at, h == 0, base, j, s, reach);
                    if best.0 >= OUTLINE_MIN_FILL {
                        pieces.push((j as f32 + 0.5, best.1 as f32 / s));
                    }
                }
                if let Some(first) = fit_line(&pieces) {
                    pieces.retain(|&(t, d)| (first.0 + first.1 * t - d).abs() * s <= 2.0);
                    *fit = fit_line(&pieces).unwrap_or(first);
                }
            }
        }
        // Corner (u, v): on the horizontal line v = e_v*9 + top(u) and the vertical
        // line u = e_u*9 + left(v); solved as two linear equations.
        let corner = |eu: usize, ev: usize| -> Point {
            let (ta, tb) = lines[0][ev];
            let (la, lb) = lines[1][eu];
            let (u0, v0) = (eu as f32 * 9.0, ev as f32 * 9.0);
            // v = v0 + ta + tb*u ; u = u0 + la + lb*v
            let denom = 1.0 - lb * tb;
            let u = if denom.abs() > 1e-3 {
                (u0 + la + lb * (v0 + ta)) / denom
            } else {
                u0 + la
            };
            let v = v0 + ta + tb * u;
            self.map(u, v)
        };
        let corners = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
        GridMesh::from_corners(corners).unwrap_or_else(|| self.clone())
    }

    /// Maps grid coordinates (u to the right, v down, in cells, 0..=9) to picture
    /// pixels, bilinearly within each cell's four mesh corners. Outside the grid the
    /// border cells' maps extend.
    pub fn map(&self, u: f32, v: f32) -> Point {
        let c = (u.floor() as i32).clamp(0, 8) as usize;
        let r = (v.floor() as i32).clamp(0, 8) as usize;
        let (fu, fv) = (u - c as f32, v - r as f32);
        let p00 = self.points[r][c];
        let p01 = self.points[r][c + 1];
        let p10 = self.points[r + 1][c];
        let p11 = self.points[r + 1][c + 1];
        let top = (p00.x + (p01.x - p00.x) * fu, p00.y + (p01.y - p00.y) * fu);
        let bottom = (p10.x + (p11.x - p10.x) * fu, p10.y + (p11.y - p10.y) * fu);
        Point {
            x: top.0 + (bottom.0 - top.0) * fv,
            y: top.1 + (bottom.1 - top.1) * fv,
        }
    }

    /// Cell `index` (0..81, row by row) sampled from `gray` into a `side` x `side`
    /// square, through the cell's own four corners.
    pub fn cut_cell(&self, gray: &GrayImage, index: usize, side: u32) -> GrayImage {
        let (r, c) = ((index / 9) as f32, (index % 9) as f32);
        let mut out = GrayImage::new(side, side);
        let step = 1.0 / side as f32;
        for y in 0..side {
            for x in 0..side {
                let p = self.map(c + (x as f32 + 0.5) * step, r + (y as f32 + 0.5) * step);
                out.put_pixel(x, y, Luma([bilinear(gray, p.x, p.y).round() as u8]));
            }
        }
        out
    }

    /// The mesh scaled by `k` (for going between the work picture and the photo).
    pub fn scaled(&self, k: f32) -> GridMesh {
        let mut points = self.points;
        for p in points.iter_mut().flatten() {
            p.x *= k;
            p.y *= k;
        }
        GridMesh { points }
    }
}

/// Whether the mask is inked at (x, y); outside it, no.
fn ink_at(ink: &GrayImage, x: i32, y: i32) -> f32 {
    if x < 0 || y < 0 || x >= ink.width() as i32 || y >= ink.height() as i32 {
        0.0
    } else {
        (ink.get_pixel(x as u32, y as u32)[0] > 0) as u8 as f32
    }
}

/// Least-squares line d = a + b*t through the points (t, d); `None` under 3 points.
fn fit_line(points: &[(f32, f32)]) -> Option<(f32, f32)> {
    if points.len() < 3 {
        return None;
    }
    let n = points.len() as f32;
    let (st, sd) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), &(t, d)| (a + t, b + d));
    let (mt, md) = (st / n, sd / n);
    let (mut stt, mut std) = (0.0, 0.0);
    for &(t, d) in points {
        stt += (t - mt) * (t - mt);
        std += (t - mt) * (d - md);
    }
    let b = if stt > 1e-6 { std / stt } else { 0.0 };
    Some((md - b * mt, b))
}

/// Replaces the NaN entries (segments with no line found) by linear interpolation from
/// the found ones; all zero when none was found. Isolated outliers (a digit's stroke
/// taken for the line) are pulled to the median of their neighbours.
fn fill_gaps(line: &mut [f32; 9]) {
    let found: Vec<usize> = (0..9).filter(|&j| !line[j].is_nan()).collect();
    if found.is_empty() {
        *line = [0.0; 9];
        return;
    }
    for j in 0..9 {
        if !line[j].is_nan() {
            continue;
        }
        let before = found.iter().rev().find(|&&k| k < j);
        let after = found.iter().find(|&&k| k > j);
        line[j] = match (before, after) {
            (Some(&a), Some(&b)) => line[a] + (line[b] - line[a]) * (j - a) as f32 / (b - a) as f32,
            (Some(&a), None) => line[a],
            (None, Some(&b)) => line[b],
            (None, None) => 0.0,
        };
    }
    let copy = *line;
    for j in 0..9usize {
        let lo = j.saturating_sub(1);
        let hi = (j + 1).min(8);
        let mut w = [copy[lo], copy[j], copy[hi]];
        w.sort_by(f32::total_cmp);
        if (copy[j] - w[1]).abs() > 2.0 {
            line[j] = w[1];
        }
    }
}

/// Ink mask (255 ink, 0 paper): a pixel darker than the mean of the square of
/// half-side `radius` around it by more than 7% of that mean (and at least 5 levels).
pub fn ink_mask(gray: &GrayImage, radius: u32) -> GrayImage {
    let (w, h) = gray.dimensions();
    let (wu, hu) = (w as usize, h as usize);
    let mut integral = vec![0u64; (wu + 1) * (hu + 1)];
    for y in 0..hu {
        let mut row = 0u64;
        for x in 0..wu {
            row += gray.get_pixel(x as u32, y as u32)[0] as u64;
            integral[(y + 1) * (wu + 1) + x + 1] = integral[y * (wu + 1) + x + 1] + row;
        }
    }
    let r = radius.max(1) as usize;
    let mut out = GrayImage::new(w, h);
    for y in 0..hu {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(hu));
        for x in 0..wu {
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(wu));
            let sum = integral[y1 * (wu + 1) + x1] + integral[y0 * (wu + 1) + x0]
                - integral[y0 * (wu + 1) + x1]
                - integral[y1 * (wu + 1) + x0];
            let mean = sum as f32 / ((x1 - x0) * (y1 - y0)) as f32;
            let v = gray.get_pixel(x as u32, y as u32)[0] as f32;
            if v < mean - (0.07 * mean).max(5.0) {
                out.put_pixel(x as u32, y as u32, Luma([255]));
            }
        }
    }
    out
}

/// The photo scaled so that its longer side is at most [`WORK_MAX_SIDE`], and the
/// factor from work pixels back to photo pixels.
pub fn work_picture(gray: &GrayImage) -> (GrayImage, f32) {
    let (w, h) = gray.dimensions();
    let long = w.max(h);
    if long <= WORK_MAX_SIDE {
        return (gray.clone(), 1.0);
    }
    let k = WORK_MAX_SIDE as f32 / long as f32;
    let (nw, nh) = (
        ((w as f32) * k).round().max(1.0) as u32,
        ((h as f32) * k).round().max(1.0) as u32,
    );
    let small = image::imageops::resize(gray, nw, nh, image::imageops::FilterType::Triangle);
    (small, w as f32 / nw as f32)
}

/// Finds the grid's outer corners (top-left, top-right, bottom-right, bottom-left) in
/// a work picture. `None` when nothing looks like a 9x9 lattice.
pub fn locate_grid(work: &GrayImage) -> Option<[Point; 4]> {
    let candidates = grid_candidates(work);
    let (corners, score) = candidates.first()?;
    tracing::debug!(score, candidates = candidates.len(), "grid outline");
    (*score >= MIN_LATTICE_SCORE).then_some(*corners)
}

/// A quadrilateral is taken for the grid only when its lattice score (see
/// [`grid_candidates`]) reaches this; a real grid scores 0.4-0.9, random noise about
/// 0, and a list with ruled rows (GNOME Sudoku's difficulty chooser) 0.18.
const MIN_LATTICE_SCORE: f32 = 0.2;

/// The candidate grid outlines in a work picture with their lattice scores (mean ink
/// along the 20 expected lines minus mean ink in the cells' middles), best first.
pub fn grid_candidates(work: &GrayImage) -> Vec<([Point; 4], f32)> {
    let (w, h) = work.dimensions();
    let ink = ink_mask(work, ink_radius(work));
    let parts = ink_components(&ink);
    let min_area = (w as f32 * h as f32) * 0.04;
    let mut candidates: Vec<([Point; 4], f32)> = parts
        .iter()
        .filter(|p| p.bbox_area() >= min_area)
        .take(6)
        .filter_map(|p| {
            let corners = p.extreme_corners();
            let score = lattice_score(&ink, corners)?;
            divides_in_nine(&ink, corners).then_some((corners, score))
        })
        .collect();
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
    candidates
}

/// Neighbourhood of the ink mask for locating: 1/40 of the work picture's longer
/// side, about half a cell of a grid that fills the photo.
fn ink_radius(work: &GrayImage) -> u32 {
    (work.width().max(work.height()) / 40).max(5)
}

/// How much the quadrilateral's rectified square looks like a 9x9 lattice: the mean
/// ink along the 20 expected lines minus the mean ink in the cells' middles, both taken
/// as the best of three neighbouring samples (so that noise scores near zero).
fn lattice_score(ink: &GrayImage, corners: [Point; 4]) -> Option<f32> {
    let hmap = Homography::grid_to_quad(corners)?;
    let n = 12;
    let side = 9 * n;
    let at = |u: f32, v: f32| -> f32 {
        let p = hmap.apply(u, v);
        if p.x < 0.0 || p.y < 0.0 || p.x >= ink.width() as f32 || p.y >= ink.height() as f32 {
            return 0.0;
        }
        (ink.get_pixel(p.x as u32, p.y as u32)[0] > 0) as u8 as f32
    };
    let (mut on, mut on_n, mut off, mut off_n) = (0.0, 0.0, 0.0, 0.0);
    for k in 0..=9 {
        for t in 0..side {
            let along = (t as f32 + 0.5) / n as f32;
            // Best of three rows around the expected line (outlines are approximate).
            let best_h = (-1..=1)
                .map(|d| at(along, k as f32 + d as f32 / n as f32))
                .fold(0.0f32, f32::max);
            let best_v = (-1..=1)
                .map(|d| at(k as f32 + d as f32 / n as f32, along))
                .fold(0.0f32, f32::max);
            on += best_h + best_v;
            on_n += 2.0;
        }
    }
    for r in 0..9 {
        for c in 0..9 {
            for (du, dv) in [
                (0.3, 0.3),
                (0.7, 0.3),
                (0.3, 0.7),
                (0.7, 0.7),
                (0.5, 0.15),
                (0.15, 0.5),
            ] {
                // Best of three too, as on the lines: with noise, both sides alike.
                off += (-1..=1)
                    .map(|d| at(c as f32 + du + d as f32 / n as f32, r as f32 + dv))
                    .fold(0.0f32, f32::max);
                off_n += 1.0;
            }
        }
    }
    Some(on / on_n - off / off_n)
}

/// Whether the quadrilateral's inner lines fall at ninths of its sides rather than at
/// other fractions (a calendar's sevenths and sixths, a table's columns): along each
/// axis, the lines at ninths must carry nearly as much ink as the lines of a division
/// into 5, 6, 7, 8, 10, 11 or 12 parts. (Only the lines count: the gaps between them
/// hold the digits of a full grid.)
fn divides_in_nine(ink: &GrayImage, corners: [Point; 4]) -> bool {
    let Some(hmap) = Homography::grid_to_quad(corners) else {
        return false;
    };
    let at = |u: f32, v: f32| -> f32 {
        let p = hmap.apply(u, v);
        if p.x < 0.0 || p.y < 0.0 || p.x >= ink.width() as f32 || p.y >= ink.height() as f32 {
            return 0.0;
        }
        (ink.get_pixel(p.x as u32, p.y as u32)[0] > 0) as u8 as f32
    };
    const SAMPLES: usize = 90;
    // Mean ink along the inner lines of a division into `k` parts; `across` puts the
    // lines at constant u (vertical lines).
    let score = |k: usize, across: bool| -> f32 {
        let step = 9.0 / k as f32;
        let mean = |pos: &dyn Fn(usize) -> f32, count: usize| -> f32 {
            let mut sum = 0.0;
            for i in 0..count {
                let x = pos(i);
                for t in 0..SAMPLES {
                    let along = (t as f32 + 0.5) * 9.0 / SAMPLES as f32;
                    sum += (-1..=1)
                        .map(|d| {
                            let x = x + d as f32 * 0.04;
                            if across {
                                at(x, along)
                            } else {
                                at(along, x)
                            }
                        })
                        .fold(0.0f32, f32::max);
                }
            }
            sum / (count * SAMPLES) as f32
        };
        mean(&|i| (i + 1) as f32 * step, k - 1)
    };
    [true, false].into_iter().all(|across| {
        let nine = score(9, across);
        let other = [5, 6, 7, 8, 10, 11, 12]
            .into_iter()
            .map(|k| score(k, across))
            .fold(f32::MIN, f32::max);
        tracing::debug!(nine, other, across, "lines at ninths");
        nine >= other - 0.15
    })
}

/// One connected ink component: its pixels' extremes.
#[derive(Debug, Clone)]
struct InkPart {
    pixels: usize,
    min_x: u32,
    min_y: u32,
    max_x: u32,
    max_y: u32,
    /// The pixels with the smallest x+y, largest x-y, largest x+y, largest y-x.
    extremes: [(u32, u32); 4],
}

impl InkPart {
    /// Counts pixel (x, y) in; of pixels equally far out, the first keeps its extreme.
    fn add(&mut self, x: u32, y: u32) {
        self.pixels += 1;
        self.min_x = self.min_x.min(x);
        self.min_y = self.min_y.min(y);
        self.max_x = self.max_x.max(x);
        self.max_y = self.max_y.max(y);
        let key = |(x, y): (u32, u32), k: usize| -> i64 {
            let (x, y) = (x as i64, y as i64);
            match k {
                0 => -(x + y),
                1 => x - y,
                2 => x + y,
                _ => y - x,
            }
        };
        for k in 0..4 {
            if key((x, y), k) > key(self.extremes[k], k) {
                self.extremes[k] = (x, y);
            }
        }
    }

    fn bbox_area(&self) -> f32 {
        (self.max_x - self.min_x + 1) as f32 * (self.max_y - self.min_y + 1) as f32
    }

    fn extreme_corners(&self) -> [Point; 4] {
        self.extremes.map(|(x, y)| Point {
            x: x as f32 + 0.5,
            y: y as f32 + 0.5,
        })
    }
}

/// Connected components (8-neighbourhood) of the ink mask, biggest bounding box first.
fn ink_components(ink: &GrayImage) -> Vec<InkPart> {
    let (w, h) = ink.dimensions();
    let raw = ink.as_raw();
    let mut flood = Flood::new(w, h, Neighbours::Eight, |x, y| {
        raw[y as usize * w as usize + x as usize] > 0
    });
    let mut parts = Vec::new();
    while let Some((sx, sy)) = flood.next_component() {
        let mut part = InkPart {
            pixels: 0,
            min_x: sx,
            min_y: sy,
            max_x: sx,
            max_y: sy,
            extremes: [(sx, sy); 4],
        };
        flood.fill(|x, y| part.add(x, y));
        if part.pixels >= 50 {
            parts.push(part);
        }
    }
    parts.sort_by(|a, b| b.bbox_area().total_cmp(&a.bbox_area()));
    parts
}

/// Locates and follows the grid in a photo (any size), returning its mesh in photo
/// pixels.
pub fn locate_mesh(gray: &GrayImage) -> Option<GridMesh> {
    let (work, k) = work_picture(gray);
    let corners = locate_grid(&work)?;
    let first = GridMesh::from_corners(corners)?;
    // The straightened outline is kept when the lattice agrees with it better.
    let fitted = first.fit_outline(&work);
    let ink = ink_mask(&work, ink_radius(&work));
    let score = |m: &GridMesh| lattice_score(&ink, m.corners()).unwrap_or(f32::MIN);
    let start = if score(&fitted) > score(&first) {
        fitted
    } else {
        first
    };
    let mesh = start.refine(&work).refine(&work);
    Some(mesh.scaled(k))
}

/// Where segment `j` (one cell long) of a grid line lies: the offset `d` within
/// `reach` of `base` whose pixels along the segment are most inked, with that share
/// of ink less a small penalty for distance (the nearer of equal peaks wins). The line
/// runs along x when `horizontal`, else along y. Returns (score, offset).
fn best_segment_offset(
    at: &impl Fn(i32, i32) -> f32,
    horizontal: bool,
    base: i32,
    j: usize,
    s: f32,
    reach: i32,
) -> (f32, i32) {
    let a = (j as f32 * s + 2.0) as i32;
    let b = ((j + 1) as f32 * s - 2.0) as i32;
    let mut best = (0.0f32, 0i32);
    for d in -reach..=reach {
        let fill = (a..b)
            .map(|t| {
                if horizontal {
                    at(t, base + d)
                } else {
                    at(base + d, t)
                }
            })
            .sum::<f32>()
            / (b - a) as f32;
        let score = fill - 0.002 * d.abs() as f32;
        if score > best.0 {
            best = (score, d);
        }
    }
    best
}

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
            CellReading {
                digit: (d != 0).then_some(d),
                confidence: probs[i][d as usize],
                method: if changed.contains(&i) {
                    Method::Rules
                } else {
                    Method::Classifier
                },
                cell_box,
                digit_box: None,
                alternatives: ranked
                    .into_iter()
                    .filter(|&(k, p)| k != 0 && k != d && p > 0.001)
                    .collect(),
            }
        })
        .collect();
    let corners = mesh.corners();
    let to_picture = Homography::grid_to_quad(corners).ok_or(ReadError::NoGrid)?;
    // A photo of a printed puzzle has one solution: several means a digit was missed.
    Reading {
        grid,
        corners,
        cells: cell_readings,
        to_picture,
        verdict: Verdict::unjudged(),
    }
    .judged(true)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A picture of a 9x9 grid (thin lines, thick every third) drawn through `map`,
    /// which takes grid units (u, v in 0..=9) to picture pixels; paper 200, ink 40,
    /// with a shadow gradient across the picture.
    fn draw_grid(w: u32, h: u32, map: impl Fn(f32, f32) -> Point) -> GrayImage {
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

    fn dist(a: Point, b: Point) -> f32 {
        (a.x - b.x).hypot(a.y - b.y)
    }

    #[test]
    fn finds_a_skewed_grid_beside_other_print() {
        let corners = [
            Point { x: 130.0, y: 60.0 },
            Point { x: 500.0, y: 85.0 },
            Point { x: 530.0, y: 440.0 },
            Point { x: 105.0, y: 420.0 },
        ];
        let h = Homography::grid_to_quad(corners).unwrap();
        let mut img = draw_grid(640, 480, |u, v| h.apply(u, v));
        // A block of "text" to the left and a bar above: print that is not the grid.
        for y in 100..300 {
            for x in 20..80 {
                if (y / 6) % 2 == 0 && (x / 4) % 3 != 0 {
                    img.put_pixel(x, y, Luma([50]));
                }
            }
        }
        for x in 100..600 {
            for y in 20..26 {
                img.put_pixel(x, y, Luma([30]));
            }
        }
        let mesh = locate_mesh(&img).expect("grid found");
        for (found, truth) in mesh.corners().iter().zip(&corners) {
            assert!(
                dist(*found, *truth) < 4.0,
                "corner {found:?} is far from {truth:?}"
            );
        }
        // Inner crossings too: the centre of the grid.
        assert!(dist(mesh.points[4][4], h.apply(4.0, 4.0)) < 3.0);
    }

    #[test]
    fn print_touching_a_corner_does_not_move_it() {
        let corners = [
            Point { x: 120.0, y: 70.0 },
            Point { x: 520.0, y: 60.0 },
            Point { x: 530.0, y: 450.0 },
            Point { x: 110.0, y: 455.0 },
        ];
        let h = Homography::grid_to_quad(corners).unwrap();
        let mut img = draw_grid(640, 480, |u, v| h.apply(u, v));
        // A caption box joined to the bottom-left corner, reaching further out than it:
        // the ink's extreme point in that direction is the caption's, 30 px away.
        for y in 440..475 {
            for x in 80..150 {
                if y > 452 || x < 112 {
                    img.put_pixel(x, y, Luma([45]));
                }
            }
        }
        let first = locate_grid(&work_picture(&img).0).expect("grid found");
        assert!(
            dist(first[3], corners[3]) > 15.0,
            "the test needs a corner thrown off"
        );
        let mesh = locate_mesh(&img).expect("grid found");
        for (found, truth) in mesh.corners().iter().zip(&corners) {
            assert!(
                dist(*found, *truth) < 4.0,
                "corner {found:?} is far from {truth:?}"
            );
        }
    }

    #[test]
    fn follows_curved_lines_that_one_homography_misses() {
        // Paper bowed: rows sag by up to 9 px in the middle.
        let map = |u: f32, v: f32| Point {
            x: 80.0 + 45.0 * u,
            y: 40.0 + 45.0 * v + 9.0 * (std::f32::consts::PI * u / 9.0).sin(),
        };
        let img = draw_grid(560, 500, map);
        let straight =
            GridMesh::from_corners([map(0.0, 0.0), map(9.0, 0.0), map(9.0, 9.0), map(0.0, 9.0)])
                .unwrap();
        let refined = straight.refine(&img).refine(&img);
        let truth = map(4.0, 5.0);
        assert!(
            dist(straight.points[5][4], truth) > 7.0,
            "the test needs real curvature"
        );
        assert!(
            dist(refined.points[5][4], truth) < 2.0,
            "refined {:?}, truth {truth:?}",
            refined.points[5][4]
        );
    }

    #[test]
    fn a_blank_picture_has_no_grid() {
        let img = GrayImage::from_pixel(320, 240, Luma([180]));
        assert!(locate_mesh(&img).is_none());
    }

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
}
