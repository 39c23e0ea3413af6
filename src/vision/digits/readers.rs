//! The digit readers a [`Reader`] holds for its life: Tesseract, the trained classifier
//! (loaded on first use), and the glyph groups already read, so that a glyph seen in
//! one picture is known in the next without OCR. The reading itself is in
//! [`givens`](super::givens) (a screenshot's givens) and [`crate::vision::reader`] (a
//! picture, either path).

use super::classifier::DigitClassifier;
use super::ocr::Ocr;
use super::shapes::ShapeModel;
use crate::vision::glyphs::signature::Signature;
use crate::vision::reading::ReadError;

/// A glyph group read once: its look and the digit it is.
#[derive(Clone)]
pub(in crate::vision) struct Known {
    pub(in crate::vision) signature: Signature,
    pub(in crate::vision) digit: u8,
    pub(in crate::vision) confidence: f32,
}

/// The reader's settings (`[ocr]` in config.toml).
#[derive(Debug, Clone, PartialEq)]
pub struct ReaderOptions {
    /// Tesseract's language model.
    pub language: String,
    /// The folder holding `<language>.traineddata`; `None` for the system's.
    pub tessdata_dir: Option<String>,
    /// Tesseract answers below this confidence (0..1) are not trusted on their own: the
    /// glyph is read again alone, and failing that decided by the rules.
    pub min_confidence: f32,
    /// Start Tesseract at once, in the background (screenshots: it overlaps with
    /// decoding and locating), or only when a read needs it (photos, read by the
    /// classifier, mostly never do).
    pub eager_ocr: bool,
}

impl Default for ReaderOptions {
    fn default() -> ReaderOptions {
        ReaderOptions {
            language: "eng".into(),
            tessdata_dir: None,
            min_confidence: DEFAULT_MIN_CONFIDENCE,
            eager_ocr: true,
        }
    }
}

/// Tesseract reads clean printed digits at 0.85-0.97; below half it is guessing.
pub const DEFAULT_MIN_CONFIDENCE: f32 = 0.5;

/// Reads sudoku grids from pictures. Build once, read many: the OCR engine starts once,
/// and glyphs read in one picture are recognised in the next without OCR.
pub struct Reader {
    pub(in crate::vision) ocr: Ocr,
    pub(in crate::vision) min_confidence: f32,
    pub(in crate::vision) known: Vec<Known>,
    /// The look of each cell's given glyph in the last screenshot read, so that what
    /// was learnt from them can be forgotten when they lead to a clash or a refusal.
    pub(in crate::vision) last_looks: Vec<Option<Signature>>,
    /// The digit classifier for photos, loaded on first use.
    pub(in crate::vision) classifier: Option<DigitClassifier>,
    /// The glyph shape model, loaded on first use.
    pub(in crate::vision) shapes: Option<ShapeModel>,
}

impl Reader {
    /// Starts the OCR engine with the default settings.
    pub fn new() -> Result<Reader, ReadError> {
        Reader::with_options(ReaderOptions::default())
    }

    /// Starts the OCR engine with `options`.
    pub fn with_options(options: ReaderOptions) -> Result<Reader, ReadError> {
        Ok(Reader {
            ocr: if options.eager_ocr {
                Ocr::with_model(&options.language, options.tessdata_dir.as_deref())
            } else {
                Ocr::lazy(&options.language, options.tessdata_dir.as_deref())
            },
            min_confidence: options.min_confidence,
            known: Vec::new(),
            last_looks: Vec::new(),
            classifier: None,
            shapes: None,
        })
    }

    /// A reader without Tesseract: the photo path (the trained classifier) reads as
    /// usual; a screenshot grid with givens fails with [`ReadError::Engine`] after it is
    /// located and its glyphs found. For fuzzing, where Tesseract costs too much a run.
    pub fn without_ocr() -> Reader {
        Reader {
            ocr: Ocr::disabled("OCR is off in this reader"),
            min_confidence: DEFAULT_MIN_CONFIDENCE,
            known: Vec::new(),
            last_looks: Vec::new(),
            classifier: None,
            shapes: None,
        }
    }
}
