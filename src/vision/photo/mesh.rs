//! Following a photographed grid's lines: the mesh of its 10x10 line crossings, from
//! a first outline through straight outer lines fitted to their inked pieces, then each
//! inner line followed cell by cell (curved paper bends lines a single homography
//! cannot follow).

use image::{GrayImage, Luma};

use super::ink::ink_mask;
use crate::vision::geometry::Point;
use crate::vision::geometry::{bilinear, Homography};

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

#[cfg(test)]
mod tests {
    use super::super::test_pictures::{dist, draw_grid};
    use super::*;

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
}
