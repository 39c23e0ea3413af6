//! What a read produces: a [`Reading`] (the grid, each cell's box, digit and how it was
//! read, the verdict), or a [`ReadError`] saying why there is none. Both paths (the
//! screenshot's and the photo's) build it, and the reader above them returns it.

use super::geometry::{Homography, Point, Rect};
use crate::grid::{Grid, Verdict};

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

/// Why a picture could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// No sudoku grid was found in the picture.
    #[error("no sudoku grid found in the picture")]
    NoGrid,
    /// A grid was found but its reading is not trustworthy: the digits clash, the puzzle
    /// has no solution, or some cells could not be read. `cells` are 0..81.
    #[error("{reason} (doubtful cells: {})", crate::grid::cell_names(cells))]
    Doubtful {
        reason: String,
        cells: Vec<usize>,
        reading: Box<Reading>,
    },
    /// The OCR engine could not start or failed.
    #[error("OCR engine: {0}")]
    Engine(String),
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
    pub to_picture: Homography,
    /// What the digits read allow: set by [`Reading::judged`] when the reading is
    /// finished, doubtful ([`Verdict::unjudged`]) until then.
    pub verdict: Verdict,
    /// How the grid was enlarged to be read: None for the picture as it is; for a grid
    /// of small cells refused as it is, the enlargement read (the second reading looks
    /// at it enlarged alike).
    pub enlarged: Option<Enlargement>,
}

/// A grid of small cells enlarged to be read: `factor` times, resampled with `filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enlargement {
    pub factor: u32,
    pub filter: image::imageops::FilterType,
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
