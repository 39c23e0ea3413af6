//! Cell candidates: the near-square flat regions every way of locating the grid starts
//! from, and how far apart neighbouring cells may lie.

use super::regions::{Region, Regions};

/// A cell interior covers at least this share of its bounding box (the rest is the
/// digit or pencil marks, which are holes in the region).
const MIN_FILL: f32 = 0.45;
/// Neighbouring cells' centres are 1.0 to this many cell sizes apart (gaps between
/// boxes and cells widen the pitch).
pub const MAX_PITCH: f32 = 1.9;
/// Inside a 3x3 box, neighbouring cells' centres are at most this many cell sizes apart
/// (lines and tile gaps are narrow beside the cells).
pub const MAX_INNER_PITCH: f32 = 1.5;

/// A near-square region that may be a cell: its label, centre and size.
#[derive(Clone, Copy)]
pub struct Candidate {
    pub label: u32,
    pub cx: f32,
    pub cy: f32,
    pub size: f32,
    pub region: Region,
}

/// The near-square regions: at least `min_side` pixels a side, width/height within
/// [1/`aspect`, `aspect`], filled to [`MIN_FILL`] of their box (the rest is digits and
/// marks, holes in the region), and under 1/`share` of the picture each way.
pub fn squares(regions: &Regions, min_side: u32, aspect: f32, share: u32) -> Vec<Candidate> {
    regions
        .regions
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let (w, h) = (r.width() as f32, r.height() as f32);
            let ok = r.width() >= min_side
                && r.height() >= min_side
                && w / h <= aspect
                && h / w <= aspect
                && r.area as f32 >= MIN_FILL * w * h
                && r.width() < regions.width / share
                && r.height() < regions.height / share;
            ok.then(|| Candidate {
                label: i as u32,
                cx: (r.x0 + r.x1) as f32 / 2.0,
                cy: (r.y0 + r.y1) as f32 / 2.0,
                size: (w + h) / 2.0,
                region: *r,
            })
        })
        .collect()
}
