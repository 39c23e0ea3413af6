//! Reading a sudoku from a picture, in stages, each a folder that uses only the ones
//! below it (`tests/read_layers.rs` checks that nothing imports upward or in a circle):
//!
//! 1. [`geometry`] and [`reading`]: points, boxes, homographies, and what a read
//!    produces (a [`Reading`] or a [`ReadError`]); shared by every stage.
//! 2. [`locate`]: where the grid lies in a screenshot (flat-colour regions, the lattice
//!    of cells and its checks, grids found as 3x3 boxes, dashed or box-only grids).
//! 3. [`glyphs`]: the marks cut out of each cell (connected components, blobs, heights
//!    telling givens from pencil marks, dot-matrix and hollow digits made whole, a
//!    glyph's look).
//! 4. [`digits`]: naming the glyphs (Tesseract, the trained classifier, the sudoku
//!    rules; the givens of a screenshot; where two readings agree).
//! 5. [`photo`]: the photo path (a printed grid's outline and lines, cells classified).
//! 6. [`reader`]: the entry point, [`Reader`], which tells a screenshot from a photo
//!    ([`picture`]) and runs one path or both; the second reading ([`confirm`]) and the
//!    one rule that accepts a reading ([`acceptance`]); [`debug`] draws each stage.
//!
//! Build a [`Reader`] once (it starts the OCR engine), then call [`Reader::read`] on
//! each picture: it gives a reading only when the second reading confirms every digit. The result, a [`Reading`], holds the grid and where every cell lies in
//! the picture, so callers can click cells or draw into them.

pub mod geometry;
pub mod reading;

pub mod locate;

pub mod glyphs;

pub mod digits;

pub mod photo;

pub mod acceptance;
mod confirm;
pub mod debug;
mod enlarged;
mod picture;
pub mod reader;
pub mod variant;

pub use digits::{Reader, ReaderOptions};
pub use geometry::{Point, Rect};
pub use picture::{MAX_PICTURE_PIXELS, MEGAPIXEL};
pub use reading::{CellReading, Enlargement, Method, ReadError, Reading};
