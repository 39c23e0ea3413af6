//! Naming the glyphs: which digit each given is.
//!
//! Two readers: Tesseract ([`ocr`]) and the project's trained [`classifier`] (and, for
//! glyphs Tesseract cannot read, a seven-segment decoder, [`segments`]), held with
//! the glyphs already known by the [`Reader`](readers::Reader) ([`readers`]). A
//! screenshot's [`givens`] are grouped by look and each group named by both; the sudoku
//! [`rules`] settle what they leave open or dispute, and refuse what they cannot settle.
//! Where the photo path read the same picture, [`agreement`] finds the cells the two
//! readings contradict.

pub mod agreement;
mod by_shape;
pub mod classifier;
pub mod givens;
pub mod ocr;
pub mod readers;
pub mod rules;
pub mod segments;
pub mod shapes;
pub mod widths;

pub use readers::{Reader, ReaderOptions};
