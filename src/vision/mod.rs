//! Reading a sudoku from a picture: locate the grid, cut the cells, read the digits.
//!
//! [`Reader`] is the entry point: build it once (it starts the OCR engine), then call
//! [`Reader::read`] on each picture. The result, a [`Reading`], holds the grid and where
//! every cell lies in the picture, so callers can click cells or draw into them.

use crate::grid::{Grid, Verdict};

/// A megapixel, as cameras count them in binary steps: 2^20 pixels.
pub const MEGAPIXEL: u64 = 1 << 20;

/// The pixel budget: the largest picture read (8192x6400, past any phone camera and an
/// 8K screen). Files over it are refused before decoding; [`Reader::read`] scales a
/// picture over it down first. Within it, a read costs at most about 2 s and 1 GB on
/// one core, whatever the picture shows (`cargo bench --bench hostile`).
pub const MAX_PICTURE_PIXELS: u64 = 50 * MEGAPIXEL;

/// A point in picture pixels (x to the right, y down).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Point {
    pub x: f32,
    pub y: f32,
}

impl Point {
    /// The smallest axis-aligned box holding `points` (a cell's or the grid's four
    /// corners), as its top-left (least x and y) and bottom-right (greatest x and y)
    /// corners. NaN coordinates are passed over; with no points the box is inside out,
    /// from `f32::MAX` to `f32::MIN`.
    pub fn bounds(points: &[Point]) -> (Point, Point) {
        let mut lo = Point {
            x: f32::MAX,
            y: f32::MAX,
        };
        let mut hi = Point {
            x: f32::MIN,
            y: f32::MIN,
        };
        for p in points {
            lo = Point {
                x: lo.x.min(p.x),
                y: lo.y.min(p.y),
            };
            hi = Point {
                x: hi.x.max(p.x),
                y: hi.y.max(p.y),
            };
        }
        (lo, hi)
    }
}

/// An axis-aligned box in picture pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn center(&self) -> Point {
        Point {
            x: self.x + self.w / 2.0,
            y: self.y + self.h / 2.0,
        }
    }
}

/// How a cell's content was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Nothing of given size in the cell (pencil marks and specks do not count).
    Empty,
    /// Tesseract read this glyph.
    Ocr,
    /// Matched against a glyph read earlier in the same picture.
    Template,
    /// The trained digit classifier.
    Classifier,
    /// Decided by the sudoku rules among the cell's ranked alternatives.
    Rules,
}

/// What was read in one cell.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CellReading {
    /// The digit, or `None` for an empty cell.
    pub digit: Option<u8>,
    /// 0..1; 1 for a certain read (and for empty cells with nothing in them).
    pub confidence: f32,
    pub method: Method,
    /// The cell's bounding box in the picture.
    pub cell_box: Rect,
    /// The digit's ink bounding box in the picture, when there is a digit.
    pub digit_box: Option<Rect>,
    /// Other digits this glyph could be, best first, with their scores.
    pub alternatives: Vec<(u8, f32)>,
}

/// A grid read from a picture.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The digits read: givens (and, on a game in progress, digits the player entered).
    pub grid: Grid,
    /// The grid's outer corners in the picture: top-left, top-right, bottom-right,
    /// bottom-left.
    pub corners: [Point; 4],
    /// The 81 cells, row by row.
    pub cells: Vec<CellReading>,
    /// Maps grid coordinates (u, v in 0..=9 cell units, u to the right) to picture pixels.
    pub to_picture: crate::vision::geometry::Homography,
    /// What the digits read allow: set by [`Reading::judged`] when the reading is
    /// finished, doubtful ([`Verdict::unjudged`]) until then.
    pub verdict: Verdict,
}

impl Reading {
    /// The reading with its verdict ([`Verdict::of`]): an error naming the doubtful
    /// cells when it is not to be acted on. Where `unique_only`, a puzzle with several
    /// solutions is doubtful too, blaming the least sure cells.
    pub(crate) fn judged(mut self, unique_only: bool) -> Result<Reading, ReadError> {
        self.verdict = Verdict::of(&self.grid, &self.unread_cells());
        if unique_only {
            self.unique_only()
        } else {
            self.into_result()
        }
    }

    /// The reading where only one solution will do (a photo, `overlay`): several
    /// solutions make it doubtful, blaming the least sure cells.
    pub(crate) fn unique_only(mut self) -> Result<Reading, ReadError> {
        let verdict = std::mem::replace(&mut self.verdict, Verdict::unjudged());
        self.verdict = verdict.unique_only(|| self.least_sure_cells(LEAST_SURE_BLAMED));
        self.into_result()
    }

    /// Ok when the verdict allows acting on the reading; else the error naming why.
    fn into_result(self) -> Result<Reading, ReadError> {
        match &self.verdict {
            Verdict::Doubtful { reason, cells } => Err(ReadError::Doubtful {
                reason: reason.clone(),
                cells: cells.clone(),
                reading: Box::new(self),
            }),
            _ => Ok(self),
        }
    }

    /// Cells with ink that no reader could name: doubtful, never empty.
    pub(crate) fn unread_cells(&self) -> Vec<usize> {
        (0..81)
            .filter(|&i| self.cells[i].digit.is_none() && self.cells[i].digit_box.is_some())
            .collect()
    }

    /// The `n` cells read with the least confidence, least sure first.
    pub(crate) fn least_sure_cells(&self, n: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..81).collect();
        order.sort_by(|&a, &b| {
            self.cells[a]
                .confidence
                .total_cmp(&self.cells[b].confidence)
        });
        order.truncate(n);
        order
    }

    /// The centre of cell `index` (0..81) in picture pixels: the centre of the cell box
    /// found in the picture (exact where apps draw uneven gaps between boxes).
    pub fn cell_center(&self, index: usize) -> Point {
        self.cells[index].cell_box.center()
    }
}

/// How many of the least sure cells a reading with several solutions blames.
const LEAST_SURE_BLAMED: usize = 5;

mod agreement;
pub mod geometry;
mod givens;
mod picture;
pub mod reader;

pub use reader::{ReadError, Reader, ReaderOptions};
pub mod boxes;
pub mod classifier;
pub mod components;
pub mod dashes;
pub mod debug;
pub mod dots;
pub mod glyphs;
pub mod lattice_checks;
pub mod locate;
pub mod ocr;
pub mod outline;
pub mod photo;
pub mod regions;
pub mod rules;
pub mod screen_grid;
pub mod signature;
pub mod unlined_boxes;

#[cfg(test)]
mod tests {
    use super::Point;

    #[test]
    fn the_bounds_of_a_skewed_quad_reach_its_outermost_corners() {
        let p = |x, y| Point { x, y };
        let quad = [p(10.0, 5.0), p(50.5, 8.0), p(47.0, 40.25), p(7.0, 38.0)];
        assert_eq!(Point::bounds(&quad), (p(7.0, 5.0), p(50.5, 40.25)));
        let (lo, hi) = Point::bounds(&[p(3.0, f32::NAN), p(1.0, 2.0)]);
        assert_eq!((lo, hi), (p(1.0, 2.0), p(3.0, 2.0)), "NaN is passed over");
    }
}
