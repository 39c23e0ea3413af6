//! Finding a printed grid in a photo: the connected components of its ink mask as
//! candidate outlines, each scored by how much its rectified square looks like a 9x9
//! lattice whose inner lines fall at ninths.

use image::GrayImage;

use super::ink::ink_mask;
use super::mesh::GridMesh;
use crate::vision::geometry::Homography;
use crate::vision::geometry::Point;
use crate::vision::glyphs::components::{Flood, Neighbours};

/// Photos are scaled down to this longer side before anything else: grids then have
/// cells of 30-90 px, enough for print, and the work stays under a few tens of ms.
pub const WORK_MAX_SIDE: u32 = 900;

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

#[cfg(test)]
mod tests {
    use image::{GrayImage, Luma};

    use super::super::test_pictures::{dist, draw_grid};
    use super::*;
    use crate::vision::geometry::Homography;

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
    fn a_blank_picture_has_no_grid() {
        let img = GrayImage::from_pixel(320, 240, Luma([180]));
        assert!(locate_mesh(&img).is_none());
    }
}
