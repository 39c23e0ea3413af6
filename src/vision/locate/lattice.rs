//! Locating the grid in a screenshot: the 9x9 lattice of cell regions.
//!
//! Method: label flat-colour regions ([`super::regions`]); keep the near-square ones as
//! cell candidates; link two candidates when they are alike in size and sit side by side
//! (same row or column, one cell pitch apart, allowing the wider gaps apps draw between
//! 3x3 boxes); the grid is the linked group that spans 9 columns and 9 rows with the most
//! members. Unlike a search for the largest four-sided contour, this needs no grid lines
//! at all (tile themes with gaps read the same as flat ones), is indifferent to polarity
//! (dark themes), and is not fooled by a 1-9 number pad (a 3x3 or 1x9 group) or toolbars.

use super::candidates::{squares, Candidate, MAX_PITCH};
use super::lattice_checks::{checkered, continues_past_edges, has_box_lines, regular};
use super::regions::{Regions, MIN_CELL};
use crate::vision::geometry::{box_corners, Point, Rect};

/// Width/height of a cell interior lies within [1/ASPECT, ASPECT].
const ASPECT: f32 = 1.3;
/// Two cells are alike when their sizes differ by at most this ratio.
const SIZE_RATIO: f32 = 1.25;
/// At least this many of the 81 cells must be found as regions (selected or oddly
/// drawn cells may be missed and are interpolated).
const MIN_CELLS_FOUND: usize = 54;

/// The grid found in a screenshot.
#[derive(Debug, Clone)]
pub struct Lattice {
    /// Each cell's interior box, row by row.
    pub cells: [Rect; 81],
    /// The region label of each cell's background, when it was found as a region.
    pub labels: [Option<u32>; 81],
    /// Outer corners of the cell lattice: top-left, top-right, bottom-right, bottom-left.
    pub corners: [Point; 4],
}

impl Lattice {
    /// The lattice with no region colours: found on a changed picture (blurred, grey),
    /// whose regions' colours are not the cells', each cell's own is measured on the
    /// picture.
    pub fn without_labels(self) -> Lattice {
        Lattice {
            labels: [None; 81],
            ..self
        }
    }

    /// The lattice with every cell grown by `px` on each side, but never past the middle
    /// of the gap to its neighbour: a lattice found on a blurred picture, whose regions
    /// the blur shrank by its radius, gets back the cells' true extent (a wide digit cut
    /// on the shrunk box would touch its edge and pass for a frame).
    pub fn grown(&self, px: f32) -> Lattice {
        let mut cells = self.cells;
        for (i, cell) in cells.iter_mut().enumerate() {
            let (r, c) = (i / 9, i % 9);
            let old = &self.cells[i];
            let (right, bottom) = (old.x + old.w, old.y + old.h);
            let mut x0 = (old.x - px).max(0.0);
            let mut y0 = (old.y - px).max(0.0);
            let mut x1 = right + px;
            let mut y1 = bottom + px;
            if c > 0 {
                let left = &self.cells[i - 1];
                x0 = x0.max((left.x + left.w + old.x) / 2.0);
            }
            if c < 8 {
                x1 = x1.min((right + self.cells[i + 1].x) / 2.0);
            }
            if r > 0 {
                let above = &self.cells[i - 9];
                y0 = y0.max((above.y + above.h + old.y) / 2.0);
            }
            if r < 8 {
                y1 = y1.min((bottom + self.cells[i + 9].y) / 2.0);
            }
            *cell = Rect {
                x: x0,
                y: y0,
                w: x1 - x0,
                h: y1 - y0,
            };
        }
        let (first, last) = (cells[0], cells[80]);
        Lattice {
            cells,
            labels: self.labels,
            corners: box_corners(first.x, first.y, last.x + last.w, last.y + last.h),
        }
        .without_labels()
    }
}

/// Finds the 9x9 lattice of cells, or `None` when the picture holds no such grid.
pub fn locate_lattice(regions: &Regions) -> Option<Lattice> {
    let cands = squares(regions, MIN_CELL, ASPECT, 4);
    if cands.len() < MIN_CELLS_FOUND {
        return None;
    }
    let groups = link_neighbours(&cands);
    tracing::debug!(
        "{} cell candidates; linked groups of 20+: {:?}",
        cands.len(),
        groups
            .iter()
            .map(|g| g.len())
            .filter(|&n| n >= 20)
            .collect::<Vec<_>>()
    );
    let mut best: Option<(usize, f32, Lattice)> = None;
    for group in groups.into_iter().filter(|g| g.len() >= MIN_CELLS_FOUND) {
        let members: Vec<Candidate> = group.iter().map(|&i| cands[i]).collect();
        if let Some((found, lattice)) = fit_lattice(&members) {
            // Most cells found wins; between equals, the larger grid (a screen's
            // wallpaper pattern is smaller than the game's grid).
            let area = (lattice.corners[2].x - lattice.corners[0].x)
                * (lattice.corners[2].y - lattice.corners[0].y);
            if best
                .as_ref()
                .is_none_or(|(n, a, _)| found > *n || (found == *n && area > *a))
            {
                best = Some((found, area, lattice));
            }
        }
    }
    best.map(|(_, _, l)| l)
}

/// Groups candidates linked by the neighbour relation (union-find over pairs; the
/// candidates are sorted by x so only a window of each is compared).
fn link_neighbours(cands: &[Candidate]) -> Vec<Vec<usize>> {
    let n = cands.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| cands[a].cx.total_cmp(&cands[b].cx));
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for (k, &a) in order.iter().enumerate() {
        let ca = &cands[a];
        for &b in &order[k + 1..] {
            let cb = &cands[b];
            if cb.cx - ca.cx > MAX_PITCH * ca.size.max(cb.size) {
                break;
            }
            if neighbours(ca, cb) {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra] = rb;
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for i in 0..n {
        let r = root(&mut parent, i);
        groups.entry(r).or_default().push(i);
    }
    groups.into_values().collect()
}

fn neighbours(a: &Candidate, b: &Candidate) -> bool {
    let (small, big) = if a.size < b.size {
        (a.size, b.size)
    } else {
        (b.size, a.size)
    };
    if big > small * SIZE_RATIO {
        return false;
    }
    let s = (a.size + b.size) / 2.0;
    let (dx, dy) = ((a.cx - b.cx).abs(), (a.cy - b.cy).abs());
    let along = |d: f32| d >= 0.95 * s && d <= MAX_PITCH * s;
    (dy < 0.25 * s && along(dx)) || (dx < 0.25 * s && along(dy))
}

/// Clusters 1-D positions that lie within `tol` of each other; returns cluster means,
/// sorted, with their member counts.
fn cluster_positions(mut v: Vec<f32>, tol: f32) -> Vec<(f32, usize)> {
    v.sort_by(f32::total_cmp);
    let mut out: Vec<(f32, usize)> = Vec::new();
    let mut sum = 0.0;
    let mut count = 0usize;
    let mut last = f32::NEG_INFINITY;
    for x in v {
        if count > 0 && x - last > tol {
            out.push((sum / count as f32, count));
            sum = 0.0;
            count = 0;
        }
        sum += x;
        count += 1;
        last = x;
    }
    if count > 0 {
        out.push((sum / count as f32, count));
    }
    out
}

/// The best run of 9 consecutive clusters (most members), ignoring clusters of fewer
/// than 3 members (stray squares beside the grid).
fn best_nine(clusters: &[(f32, usize)]) -> Option<Vec<f32>> {
    let clusters: Vec<(f32, usize)> = clusters.iter().copied().filter(|c| c.1 >= 3).collect();
    if clusters.len() < 9 {
        return None;
    }
    let best = (0..=clusters.len() - 9)
        .max_by_key(|&s| clusters[s..s + 9].iter().map(|c| c.1).sum::<usize>())?;
    Some(clusters[best..best + 9].iter().map(|c| c.0).collect())
}

/// Fits 9 columns and 9 rows to a linked group; returns the number of cells found and
/// the lattice, with missing cells interpolated from their row and column.
fn fit_lattice(members: &[Candidate]) -> Option<(usize, Lattice)> {
    for c in members {
        tracing::trace!(
            "candidate at ({:.0},{:.0}) size {:.0} box {}x{}",
            c.cx,
            c.cy,
            c.size,
            c.region.width(),
            c.region.height()
        );
    }
    let mut sizes: Vec<f32> = members.iter().map(|c| c.size).collect();
    sizes.sort_by(f32::total_cmp);
    let s = sizes[sizes.len() / 2];
    let (cols, rows) = nine_columns_and_rows(members, s)?;
    let slot = slot_members(members, &cols, &rows, s);
    let found = slot.iter().filter(|s| s.is_some()).count();
    tracing::debug!("lattice fit: {found} of 81 cells; columns {cols:?}; rows {rows:?}");
    if found < MIN_CELLS_FOUND {
        return None;
    }
    let (col_edges, row_edges) = edges(&slot, &cols, &rows, s);
    // A real grid's pitch is regular: within each band of three, the steps agree.
    // Rows and columns step alike: cells are square.
    let (col_step, row_step) = (regular(&cols, s)?, regular(&rows, s)?);
    if col_step.max(row_step) > 1.15 * col_step.min(row_step) + 2.0 {
        return None;
    }
    if !has_box_lines(&col_edges, &row_edges) && continues_past_edges(members, &cols, &rows, s) {
        // Graph paper, a checkerboard, a spreadsheet of square cells: nine by nine of
        // a pattern that goes on. A sudoku's lattice ends at its border.
        tracing::debug!("a 9x9 piece of an endless lattice, not a grid");
        return None;
    }
    if checkered(&slot) {
        tracing::debug!("a checkerboard, not a grid");
        return None;
    }
    let mut cells = [Rect::default(); 81];
    let mut labels = [None; 81];
    for r in 0..9 {
        for c in 0..9 {
            let i = r * 9 + c;
            let (x0, x1) = col_edges[c];
            let (y0, y1) = row_edges[r];
            cells[i] = Rect {
                x: x0,
                y: y0,
                w: x1 - x0,
                h: y1 - y0,
            };
            labels[i] = slot[i].map(|c| c.label);
        }
    }
    let corners = box_corners(
        col_edges[0].0,
        row_edges[0].0,
        col_edges[8].1,
        row_edges[8].1,
    );
    Some((
        found,
        Lattice {
            cells,
            labels,
            corners,
        },
    ))
}

/// The nine column and nine row centres of candidates of size `s`: columns first,
/// then rows among the members on those columns, then columns again among the members
/// on those rows (a number pad linked to the grid's side adds columns and rows of its
/// own that must not interleave with the grid's).
fn nine_columns_and_rows(members: &[Candidate], s: f32) -> Option<(Vec<f32>, Vec<f32>)> {
    let near = |v: &[f32], x: f32| v.iter().any(|&p| (p - x).abs() < s * 0.3);
    let axis = |cands: &[&Candidate], f: fn(&Candidate) -> f32| {
        best_nine(&cluster_positions(
            cands.iter().map(|c| f(c)).collect(),
            s * 0.3,
        ))
    };
    let all: Vec<&Candidate> = members.iter().collect();
    let cols = axis(&all, |c| c.cx)?;
    let on_cols: Vec<&Candidate> = all.iter().copied().filter(|c| near(&cols, c.cx)).collect();
    let rows = axis(&on_cols, |c| c.cy)?;
    let on_rows: Vec<&Candidate> = all.iter().copied().filter(|c| near(&rows, c.cy)).collect();
    let cols = axis(&on_rows, |c| c.cx)?;
    Some((cols, rows))
}

/// Each cell's member, by its column and row; the larger region when two land in one
/// slot (a frame inside a cell).
fn slot_members(
    members: &[Candidate],
    cols: &[f32],
    rows: &[f32],
    s: f32,
) -> [Option<Candidate>; 81] {
    let mut slot: [Option<Candidate>; 81] = [None; 81];
    for c in members {
        let col = cols.iter().position(|&x| (x - c.cx).abs() < s * 0.3);
        let row = rows.iter().position(|&y| (y - c.cy).abs() < s * 0.3);
        if let (Some(col), Some(row)) = (col, row) {
            let i = row * 9 + col;
            if slot[i].is_none_or(|o| o.region.area < c.region.area) {
                slot[i] = Some(*c);
            }
        }
    }
    slot
}

/// Each column's left and right and each row's top and bottom edges: the median of
/// its members', else half a cell either side of its centre.
fn edges(
    slot: &[Option<Candidate>; 81],
    cols: &[f32],
    rows: &[f32],
    s: f32,
) -> ([(f32, f32); 9], [(f32, f32); 9]) {
    let median = |mut v: Vec<f32>| -> Option<f32> {
        if v.is_empty() {
            return None;
        }
        v.sort_by(f32::total_cmp);
        Some(v[v.len() / 2])
    };
    let mut col_edges = [(0f32, 0f32); 9];
    let mut row_edges = [(0f32, 0f32); 9];
    for k in 0..9 {
        let in_col: Vec<&Candidate> = (0..9).filter_map(|r| slot[r * 9 + k].as_ref()).collect();
        let in_row: Vec<&Candidate> = (0..9).filter_map(|c| slot[k * 9 + c].as_ref()).collect();
        col_edges[k] = (
            median(in_col.iter().map(|c| c.region.x0 as f32).collect())
                .unwrap_or(cols[k] - s / 2.0),
            median(in_col.iter().map(|c| c.region.x1 as f32 + 1.0).collect())
                .unwrap_or(cols[k] + s / 2.0),
        );
        row_edges[k] = (
            median(in_row.iter().map(|c| c.region.y0 as f32).collect())
                .unwrap_or(rows[k] - s / 2.0),
            median(in_row.iter().map(|c| c.region.y1 as f32 + 1.0).collect())
                .unwrap_or(rows[k] + s / 2.0),
        );
    }
    (col_edges, row_edges)
}
