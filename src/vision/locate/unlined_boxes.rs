//! Locating a grid drawn with box borders only, no lines between the cells inside a
//! box: a Tk game whose clues are labels and whose empty cells are entry widgets
//! (each with an outline of its own), or a terminal's ASCII grid (`| 1 2 . |`, rows of
//! `+-------+` between bands). Each 3x3 box is one region; its cells are where its
//! contents stand: three columns and three rows of ink (digits, dots, outlines), at one
//! pitch, filling the box.

use image::RgbImage;

use super::lattice::Lattice;
use super::lattice_checks::{boxes_go_on, CHECKER_CONTRAST};
use super::nearby::Buckets;
use super::regions::{is_ink, Region, Regions, MIN_CELL};
use crate::vision::geometry::{box_corners, Rect};

/// A box's width/height lies within [1/BOX_ASPECT, BOX_ASPECT] (a terminal's
/// characters are taller than wide: its boxes too, a little).
const BOX_ASPECT: f32 = 1.2;
/// A box region covers at least this share of its bounding box (entry widgets and
/// labels are holes in it: up to three quarters of a box full of entries).
const MIN_BOX_FILL: f32 = 0.2;
/// Boxes alike in size differ by at most this ratio, each way.
const BOX_SIZE_RATIO: f32 = 1.1;
/// Neighbouring boxes' centres are 1.0 to this many box sizes apart.
const BOX_PITCH: f32 = 1.25;
/// Where a box is looked for: within this share of a box of where the pitch puts it.
const PLACE_SLACK: f32 = 0.1;
/// The cells' pitch inside a box is this share of the box, at least and at most (three
/// cells fill it: a third, less the box's margins).
const CELL_SHARE: (f32, f32) = (0.22, 0.38);
/// The middle column (row) of a box stands halfway between the others, within this
/// share of the pitch.
const MIDDLE_SLACK: f32 = 0.15;

/// Finds the grid as nine boxes with nothing drawn between their cells, or `None`.
///
/// Method: nine regions alike in size and colour, three by three at one regular pitch
/// each way, none alike one step past them (a pattern that goes on); in each column
/// (row) of boxes, the ink inside them stands in exactly three bands across (down) at
/// one pitch, a third of the box or a little less: the cells, centred on those bands.
pub fn locate_unlined_boxes(regions: &Regions, img: &RgbImage) -> Option<Lattice> {
    let cands: Vec<&Region> = regions
        .regions
        .iter()
        .filter(|r| box_like(r, regions))
        .collect();
    if cands.len() < 9 {
        return None;
    }
    let alike = |a: &Region, b: &Region| {
        let ratio = |p: u32, q: u32| p.max(q) as f32 <= p.min(q) as f32 * BOX_SIZE_RATIO;
        ratio(a.width(), b.width()) && ratio(a.height(), b.height())
    };
    let smallest = cands
        .iter()
        .map(|r| r.width().min(r.height()))
        .min()
        .unwrap_or(1);
    // Buckets a box wide: few to look in, whatever the search.
    let index = Buckets::new(cands.iter().map(|r| centre(r)), smallest as f32);
    // The first candidate in the ranges that `fits`.
    let first_in = |x, y, fits: &dyn Fn(&Region) -> bool| {
        index.first_in(x, y, |i| fits(cands[i])).map(|i| cands[i])
    };
    let at = |x: f32, y: f32, like: &Region| {
        let (sx, sy) = (
            PLACE_SLACK * like.width() as f32,
            PLACE_SLACK * like.height() as f32,
        );
        first_in((x - sx, x + sx), (y - sy, y + sy), &|c| {
            let (cx, cy) = centre(c);
            (cx - x).abs() <= sx && (cy - y).abs() <= sy && alike(c, like)
        })
    };
    for a in &cands {
        let (ax, ay) = centre(a);
        let (w, h) = (a.width() as f32, a.height() as f32);
        // Its right-hand and lower neighbours give the pitch; `a` is the top-left box.
        let next = |across: bool| {
            let along = |a: f32, size: f32| (a + size, a + BOX_PITCH * size);
            let aside = |a: f32, size: f32| (a - PLACE_SLACK * size, a + PLACE_SLACK * size);
            let (x, y) = if across {
                (along(ax, w), aside(ay, h))
            } else {
                (aside(ax, w), along(ay, h))
            };
            first_in(x, y, &|b| {
                let (bx, by) = centre(b);
                // Along the step and beside it, with `a`'s size each way.
                let ((step, size), (aside, breadth)) = if across {
                    ((bx - ax, w), (by - ay, h))
                } else {
                    ((by - ay, h), (bx - ax, w))
                };
                aside.abs() <= PLACE_SLACK * breadth
                    && step >= size
                    && step <= BOX_PITCH * size
                    && alike(a, b)
            })
        };
        let (Some(beside), Some(below)) = (next(true), next(false)) else {
            continue;
        };
        let (px, py) = (centre(beside).0 - ax, centre(below).1 - ay);
        let boxes: Option<Vec<&Region>> = (0..9)
            .map(|k| at(ax + (k % 3) as f32 * px, ay + (k / 3) as f32 * py, a))
            .collect();
        let Some(boxes) = boxes else {
            continue;
        };
        if boxes_go_on(|i, j| at(ax + i as f32 * px, ay + j as f32 * py, a).is_some()) {
            tracing::debug!("unlined boxes of a pattern that goes on, not a grid");
            continue;
        }
        if !painted_alike(&boxes) {
            continue;
        }
        if let Some(lattice) = cells_by_content(img, &boxes) {
            tracing::debug!("grid found as nine boxes with no lines between their cells");
            return Some(lattice);
        }
    }
    None
}

/// A region's centre.
fn centre(r: &Region) -> (f32, f32) {
    ((r.x0 + r.x1) as f32 / 2.0, (r.y0 + r.y1) as f32 / 2.0)
}

/// Whether region `r` could be a box: big enough for three cells a side, near square,
/// filled to [`MIN_BOX_FILL`], under half the picture each way.
fn box_like(r: &Region, regions: &Regions) -> bool {
    let (w, h) = (r.width() as f32, r.height() as f32);
    r.width() >= 3 * MIN_CELL
        && r.height() >= 3 * MIN_CELL
        && w / h <= BOX_ASPECT
        && h / w <= BOX_ASPECT
        && r.area as f32 >= MIN_BOX_FILL * w * h
        && r.width() < regions.width / 2
        && r.height() < regions.height / 2
}

/// Whether the boxes' colours agree within [`CHECKER_CONTRAST`] of their median.
fn painted_alike(boxes: &[&Region]) -> bool {
    let colours: Vec<[u8; 3]> = boxes.iter().map(|b| b.mean()).collect();
    (0..3).all(|k| {
        let mut v: Vec<u8> = colours.iter().map(|c| c[k]).collect();
        v.sort_unstable();
        let median = v[v.len() / 2];
        v.iter()
            .all(|&c| c.abs_diff(median) as u32 <= CHECKER_CONTRAST)
    })
}

/// The cells of the nine `boxes` (row by row), centred on the three bands of ink across
/// each column of boxes and down each row of boxes; `None` when a column or row of
/// boxes does not show three such bands at one pitch.
fn cells_by_content(img: &RgbImage, boxes: &[&Region]) -> Option<Lattice> {
    let ink = |x: u32, y: u32, bg: [u8; 3]| is_ink(img.get_pixel(x, y).0, bg);
    // Per column of boxes, the ink's columns (x offsets in the box); per row, its rows.
    let mut xs: Vec<[(f32, f32); 3]> = Vec::new();
    let mut ys: Vec<[(f32, f32); 3]> = Vec::new();
    for band in 0..3 {
        let column: Vec<&Region> = (0..3).map(|j| boxes[j * 3 + band]).collect();
        let row: Vec<&Region> = (0..3).map(|i| boxes[band * 3 + i]).collect();
        let across = profile(&column, true, &ink);
        let down = profile(&row, false, &ink);
        xs.push(three_bands(&across)?);
        ys.push(three_bands(&down)?);
    }
    let mut cells = [Rect::default(); 81];
    for (k, b) in boxes.iter().enumerate() {
        let (br, bc) = (k / 3, k % 3);
        for r in 0..3 {
            for c in 0..3 {
                let (x, w) = xs[bc][c];
                let (y, h) = ys[br][r];
                cells[(br * 3 + r) * 9 + bc * 3 + c] = Rect {
                    x: b.x0 as f32 + x,
                    y: b.y0 as f32 + y,
                    w,
                    h,
                };
            }
        }
    }
    let (first, last) = (boxes[0], boxes[8]);
    Some(Lattice {
        cells,
        labels: [None; 81],
        corners: box_corners(
            first.x0 as f32,
            first.y0 as f32,
            last.x1 as f32 + 1.0,
            last.y1 as f32 + 1.0,
        ),
    })
}

/// How many ink pixels each column (`across`) or row of the boxes holds, by offset
/// from the box's left (top) edge, summed over the boxes; a pixel's ink is judged
/// against its box's colour. The box's outermost pixel each side is left out (the
/// anti-aliased edge of its border).
fn profile(boxes: &[&Region], across: bool, ink: &dyn Fn(u32, u32, [u8; 3]) -> bool) -> Vec<u32> {
    let len = boxes
        .iter()
        .map(|b| if across { b.width() } else { b.height() })
        .min()
        .unwrap_or(0) as usize;
    let mut counts = vec![0u32; len];
    for b in boxes {
        let bg = b.mean();
        for (k, count) in counts
            .iter_mut()
            .enumerate()
            .take(len.saturating_sub(1))
            .skip(1)
        {
            *count += if across {
                (b.y0 + 1..b.y1)
                    .filter(|&y| ink(b.x0 + k as u32, y, bg))
                    .count()
            } else {
                (b.x0 + 1..b.x1)
                    .filter(|&x| ink(x, b.y0 + k as u32, bg))
                    .count()
            } as u32;
        }
    }
    counts
}

/// The cells (start offset, length) of a profile holding exactly three bands of ink at
/// one pitch of [`CELL_SHARE`] of its length; `None` otherwise. Each cell is centred on
/// its band and reaches to the middle of the gap to the nearer neighbouring band (or to
/// the box's edge): a cursor block as tall as the text line does not touch it.
fn three_bands(profile: &[u32]) -> Option<[(f32, f32); 3]> {
    let mut bands: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while k < profile.len() {
        if profile[k] == 0 {
            k += 1;
            continue;
        }
        let start = k;
        while k < profile.len() && profile[k] > 0 {
            k += 1;
        }
        bands.push((start, k));
    }
    let [a, b, c] = bands[..] else {
        return None;
    };
    let mid = |(s, e): (usize, usize)| (s + e) as f32 / 2.0;
    let mut centres = [mid(a), mid(b), mid(c)];
    let pitch = (centres[2] - centres[0]) / 2.0;
    let len = profile.len() as f32;
    let middle = centres[0] + pitch;
    let regular = (centres[1] - middle).abs() <= MIDDLE_SLACK * pitch;
    // A middle band off its place but wholly inside the middle cell: a row (column) of
    // a terminal's grid with no digit, only dots standing on the text's baseline.
    let inside = b.0 as f32 >= middle - pitch / 2.0 && b.1 as f32 <= middle + pitch / 2.0;
    let fills = pitch >= CELL_SHARE.0 * len && pitch <= CELL_SHARE.1 * len;
    if !((regular || inside) && fills) {
        return None;
    }
    // Where one cell ends and the next begins: the middle of the gap between bands
    // (halfway to the middle cell's place, when its band is off it).
    let cuts = if regular {
        [0.0, (a.1 + b.0) as f32 / 2.0, (b.1 + c.0) as f32 / 2.0, len]
    } else {
        centres[1] = middle;
        [0.0, middle - pitch / 2.0, middle + pitch / 2.0, len]
    };
    Some([0, 1, 2].map(|k| {
        let half = (centres[k] - cuts[k]).min(cuts[k + 1] - centres[k]);
        (centres[k] - half, 2.0 * half)
    }))
}

#[cfg(test)]
mod tests {
    use super::super::regions::label_regions;
    use super::*;
    use image::Rgb;

    /// Nine 90 px boxes between 1 px black lines; in each box's nine 30 px cells, a
    /// 12x20 dark mark at the centre (a digit, a label, an entry's outline).
    fn boxes_with_marks(mark_every_cell: bool) -> RgbImage {
        let mut img = RgbImage::from_pixel(300, 300, Rgb([245; 3]));
        for k in 0..4 {
            for u in 0..=270 {
                img.put_pixel(k * 90, u, Rgb([0; 3]));
                img.put_pixel(u, k * 90, Rgb([0; 3]));
            }
        }
        for cell in 0..81 {
            let (r, c) = (cell / 9, cell % 9);
            if !mark_every_cell && c % 3 == 1 {
                continue;
            }
            let (x0, y0) = (c as u32 * 30 + 9, r as u32 * 30 + 5);
            for (x, y) in (x0..x0 + 12).flat_map(|x| (y0..y0 + 20).map(move |y| (x, y))) {
                img.put_pixel(x, y, Rgb([40; 3]));
            }
        }
        img
    }

    #[test]
    fn boxes_with_three_by_three_contents_are_cut_into_cells() {
        let img = boxes_with_marks(true);
        let lattice = locate_unlined_boxes(&label_regions(&img), &img).expect("grid");
        let c = lattice.cells[40].center();
        assert!(
            (c.x - 135.0).abs() <= 1.5 && (c.y - 135.0).abs() <= 1.5,
            "{c:?}"
        );
        assert!(
            (lattice.cells[0].w - 30.0).abs() <= 2.0,
            "{:?}",
            lattice.cells[0]
        );
    }

    #[test]
    fn boxes_whose_contents_are_not_three_by_three_are_no_grid() {
        let img = boxes_with_marks(false);
        assert!(locate_unlined_boxes(&label_regions(&img), &img).is_none());
        let blank = RgbImage::from_fn(300, 300, |x, y| {
            Rgb([if x % 90 == 0 || y % 90 == 0 { 0 } else { 245 }; 3])
        });
        assert!(locate_unlined_boxes(&label_regions(&blank), &blank).is_none());
    }
}
