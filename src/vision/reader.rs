//! The reader: picture in, [`Reading`] out.
//!
//! Screenshot path: flat-colour regions -> the 9x9 lattice of cells -> the glyph in each
//! cell -> givens by height -> look-alike glyphs grouped (an app draws each digit the
//! same way every time) -> each group read once by Tesseract, the answer cached for the
//! life of the reader -> the sudoku rules check the result. Only the glyph groups that
//! Tesseract could not read are decided by the rules, and only when exactly one choice
//! makes a valid puzzle; anything else is reported as doubtful, never guessed.

use std::path::Path;

use image::imageops::FilterType;
use image::DynamicImage;

use super::classifier::DigitClassifier;
use super::geometry::Homography;
use super::glyphs::{find_glyphs, given_height_threshold, Glyph};
use super::locate::Lattice;
use super::ocr::Ocr;
use super::screen_grid::locate_screen_grid;
use super::signature::Signature;
use super::{debug, CellReading, Method, Reading, MAX_PICTURE_PIXELS, MEGAPIXEL};
use crate::grid::Grid;
use crate::grid::{is_proper_puzzle, Verdict};

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

/// A glyph group read once: its look and the digit it is.
struct Known {
    signature: Signature,
    digit: u8,
    confidence: f32,
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

/// At most this many glyph groups the two readers disagree on are settled by the
/// rules (2^n choices tried); more make the reading doubtful.
const MAX_DISPUTED: usize = 4;

/// Tesseract reads clean printed digits at 0.85-0.97; below half it is guessing.
pub const DEFAULT_MIN_CONFIDENCE: f32 = 0.5;

/// Reads sudoku grids from pictures. Build once, read many: the OCR engine starts once,
/// and glyphs read in one picture are recognised in the next without OCR.
pub struct Reader {
    ocr: Ocr,
    min_confidence: f32,
    known: Vec<Known>,
    /// The look of each cell's given glyph in the last screenshot read, so that what
    /// was learnt from them can be forgotten when they lead to a clash or a refusal.
    last_looks: Vec<Option<Signature>>,
    /// The digit classifier for photos, loaded on first use.
    classifier: Option<DigitClassifier>,
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
        }
    }

    /// The words in a picture of screen text (a message window, a banner), one line.
    pub fn read_words(&mut self, picture: &DynamicImage) -> Result<String, ReadError> {
        self.ocr.engine().map_err(ReadError::Engine)?;
        Ok(self.ocr.read_words(&picture.to_luma8()).unwrap_or_default())
    }

    /// Reads `picture` as [`Reader::read`] does, but without the glyphs learnt from
    /// earlier pictures, and keeps nothing learnt from this one: a reading that cannot
    /// agree with an earlier one merely because it remembers it.
    pub fn read_fresh(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        let known = std::mem::take(&mut self.known);
        let result = self.read(picture, None);
        self.known = known;
        result
    }

    /// Forgets the glyph looks learnt from `cells` of the last screenshot read (after
    /// they led to a clash or a refusal, so that the next read asks Tesseract again).
    pub fn forget(&mut self, _reading: &Reading, cells: &[usize]) {
        let looks: Vec<Signature> = cells
            .iter()
            .filter_map(|&i| self.last_looks.get(i).cloned().flatten())
            .collect();
        let before = self.known.len();
        self.known
            .retain(|k| !looks.iter().any(|look| look.alike(&k.signature)));
        if self.known.len() < before {
            tracing::debug!("forgot {} glyph looks", before - self.known.len());
        }
    }

    /// Reads every digit of `reading` again by a second path that shares nothing with
    /// the glyph cache, and returns the cells it does not confirm.
    ///
    /// The cells are grouped by the digit read and their look; each group's
    /// second-tallest glyph (another glyph than the one the first reading's Tesseract
    /// line saw, where the group has one) goes into one fresh Tesseract line. A group
    /// the line does not confirm is read alone; failing that, the trained classifier
    /// has the last word. A digit the second path reads differently, or cannot read at
    /// all, is not confirmed. A reading whose grid the screenshot path does not find
    /// (within a quarter of a cell of its corners: a photo) is not confirmed at all.
    pub fn confirm(
        &mut self,
        picture: &DynamicImage,
        reading: &Reading,
    ) -> Result<Vec<usize>, ReadError> {
        let digits: Vec<usize> = (0..81).filter(|&i| reading.grid.cells()[i] != 0).collect();
        let rgb = picture.to_rgb8();
        let (regions, lattice) = locate_screen_grid(&rgb);
        // The same grid: corners within 2 px, or a quarter of a cell (a JPEG screenshot
        // the photo path read first: its outline is the grid's lines, not the cells').
        let same_grid = |l: &Lattice| {
            let slack = (l.cells[40].w.min(l.cells[40].h) / 4.0).max(2.0);
            l.corners
                .iter()
                .zip(&reading.corners)
                .all(|(a, b)| (a.x - b.x).abs() <= slack && (a.y - b.y).abs() <= slack)
        };
        let Some(lattice) = lattice.filter(same_grid) else {
            return Ok(digits);
        };
        let glyphs = find_glyphs(&rgb, &regions, &lattice);
        let mut unconfirmed = Vec::new();
        let mut groups: Vec<(u8, Signature, Vec<usize>)> = Vec::new();
        for &i in &digits {
            let Some(glyph) = glyphs[i].as_ref().filter(|g| !g.doubtful) else {
                unconfirmed.push(i);
                continue;
            };
            let (d, look) = (reading.grid.cells()[i], Signature::of(&glyph.ink));
            match groups
                .iter_mut()
                .find(|(gd, s, _)| *gd == d && s.alike(&look))
            {
                Some((_, _, members)) => members.push(i),
                None => groups.push((d, look, vec![i])),
            }
        }
        if groups.is_empty() {
            return Ok(unconfirmed);
        }
        self.ocr.engine().map_err(ReadError::Engine)?;
        let samples: Vec<&Glyph> = groups
            .iter()
            .map(|(_, _, members)| second_tallest(members, &glyphs))
            .collect();
        let images: Vec<image::GrayImage> = samples.iter().map(|g| g.dark_on_light()).collect();
        let line = if images.len() >= 2 {
            self.ocr.read_line(&images).map(|(digits, _)| digits)
        } else {
            None
        };
        for (k, (d, _, members)) in groups.iter().enumerate() {
            let by_line = line.as_ref().is_some_and(|l| l[k] == *d);
            let confirmed = by_line || {
                match self.ocr.read_digit(&images[k]) {
                    Some(r) if r.confidence >= self.min_confidence => r.digit == *d,
                    // Tesseract cannot say: the classifier, on the glyph in a cell of
                    // paper around it.
                    _ => self.classifier_reads(samples[k]) == Some(*d),
                }
            };
            if !confirmed {
                tracing::debug!(
                    "a second reading does not confirm {d} in {}",
                    crate::grid::cell_names(members)
                );
                unconfirmed.extend(members);
            }
        }
        unconfirmed.sort_unstable();
        Ok(confirmed_by_rules(&reading.grid, unconfirmed))
    }

    /// The classifier's digit for a glyph, when it is sure of it (probability 0.9 and
    /// up); the glyph is centred in a square of white as a cell would hold it.
    fn classifier_reads(&mut self, glyph: &Glyph) -> Option<u8> {
        if self.classifier.is_none() {
            self.classifier = DigitClassifier::load().ok();
        }
        let classifier = self.classifier.as_ref()?;
        let ink = glyph.dark_on_light();
        let side = (ink.width().max(ink.height()) as f32 * CLASSIFIER_CELL_RATIO) as u32;
        let mut cell = image::GrayImage::from_pixel(side.max(1), side.max(1), image::Luma([255]));
        image::imageops::overlay(
            &mut cell,
            &ink,
            ((side - ink.width()) / 2) as i64,
            ((side - ink.height()) / 2) as i64,
        );
        let p = classifier.classify(&cell);
        let (digit, prob) = (1..=9usize)
            .map(|d| (d as u8, p[d]))
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        (prob >= 0.9).then_some(digit)
    }

    /// Reads the grid in `picture`. With `debug`, writes stage pictures into that folder.
    pub fn read(
        &mut self,
        picture: &DynamicImage,
        debug_dir: Option<&Path>,
    ) -> Result<Reading, ReadError> {
        let pixels = picture.width() as u64 * picture.height() as u64;
        if pixels > MAX_PICTURE_PIXELS {
            // Over the pixel budget (files over it are refused before decoding; this is
            // a caller's own picture): read a copy scaled down to fit.
            let k = (pixels as f64 / MAX_PICTURE_PIXELS as f64).sqrt() as f32 * 1.001;
            let (w, h) = (picture.width() as f32 / k, picture.height() as f32 / k);
            tracing::warn!(
                "a {}x{} picture is over the pixel budget: read at {w:.0}x{h:.0}",
                picture.width(),
                picture.height()
            );
            let small = picture.resize_exact(w as u32, h as u32, FilterType::Triangle);
            return scaled(self.read(&small, debug_dir), k);
        }
        let rgb = rgb_of(picture);
        let t0 = std::time::Instant::now();
        let (equal, close) = neighbour_shares(&rgb);
        if close.is_none_or(|share| share < NOISE_CLOSE_SHARE) {
            // Noise (a video frame of static, a random picture): nothing to look at.
            tracing::debug!("noise: no grid");
            if let Some(dir) = debug_dir {
                debug::write_no_grid(dir, &rgb);
            }
            return Err(ReadError::NoGrid);
        }
        // A photo goes to the photo path first; the screenshot path is its fallback.
        let photo_first = equal.is_some_and(|share| share < PHOTO_EQUAL_SHARE);
        let mut photo_tried = None;
        if photo_first {
            let photo = self.read_photo(picture);
            if let Ok(photo) = &photo {
                tracing::debug!("read as a photo in {:?}", t0.elapsed());
                if let Some(dir) = debug_dir {
                    debug::write_photo(dir, &rgb, photo);
                }
                return Ok(photo.clone());
            }
            if pixels > PHOTO_ONLY_PIXELS {
                // Screens are flat fills; a picture this big that looks like a photo
                // is a camera's (or noise), and labelling it costs seconds for nothing.
                tracing::debug!("a big photo: no screenshot path");
                return photo;
            }
            photo_tried = Some(photo);
        }
        let (regions, lattice) = locate_screen_grid(&rgb);
        tracing::debug!("located grid in {:?}: {}", t0.elapsed(), lattice.is_some());
        let Some(lattice) = lattice else {
            // Not a screenshot grid: a photo, or a printed grid. The photo path locates
            // the grid's outline and reads each cell with the trained classifier (once:
            // its answer is kept when it read first, unless pictures of it are asked).
            if let (Some(photo), None) = (photo_tried, debug_dir) {
                return photo;
            }
            return self.read_photo_path(picture, &rgb, debug_dir);
        };
        let glyphs = find_glyphs(&rgb, &regions, &lattice);
        let mut heights: Vec<f32> = lattice.cells.iter().map(|c| c.h).collect();
        heights.sort_by(f32::total_cmp);
        let threshold = given_height_threshold(&glyphs, heights[40]);
        let givens: Vec<Option<&Glyph>> = glyphs
            .iter()
            .map(|g| g.as_ref().filter(|g| g.doubtful || g.height() >= threshold))
            .collect();
        if givens.iter().any(|g| g.is_some()) {
            self.ocr.engine().map_err(ReadError::Engine)?;
        }
        let reading = self.read_givens(&lattice, &givens);
        if let Some(dir) = debug_dir {
            debug::write_stages(dir, &rgb, &lattice, &glyphs, threshold, &reading);
        }
        tracing::debug!("read grid in {:?}", t0.elapsed());
        let screen = reading.judged(false);
        if let Err(ReadError::Doubtful { reading, cells, .. }) = &screen {
            // Glyph looks that led to a clash are not to be trusted next time.
            let (reading, cells) = (reading.clone(), cells.clone());
            self.forget(&reading, &cells);
        }
        // A printed grid photographed flat can show a lattice too, but Tesseract is not
        // the reader for paper. When the screenshot path does not give a solvable
        // puzzle, the photo path has its say, and is taken when its puzzle has exactly
        // one solution (the photo reader judges its readings so). A screenshot reading
        // with several solutions stands: games deal such puzzles, and the photo path's
        // classifier could only turn one of its digits into another.
        if screen.is_ok() || photo_first {
            return screen;
        }
        match self.read_photo(picture) {
            Ok(photo) => {
                tracing::debug!("the photo path read a uniquely solvable puzzle; taking it");
                if let Some(dir) = debug_dir {
                    debug::write_photo(dir, &rgb, &photo);
                }
                Ok(photo)
            }
            _ => screen,
        }
    }

    fn read_photo_path(
        &mut self,
        picture: &DynamicImage,
        rgb: &image::RgbImage,
        debug_dir: Option<&Path>,
    ) -> Result<Reading, ReadError> {
        let result = self.read_photo(picture);
        if let Some(dir) = debug_dir {
            match &result {
                Ok(reading) => debug::write_photo(dir, rgb, reading),
                Err(ReadError::Doubtful { reading, .. }) => debug::write_photo(dir, rgb, reading),
                Err(_) => debug::write_no_grid(dir, rgb),
            }
        }
        result
    }

    fn read_photo(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        if self.classifier.is_none() {
            self.classifier =
                Some(DigitClassifier::load().map_err(|e| ReadError::Engine(e.to_string()))?);
        }
        let classifier = self.classifier.as_ref().expect("loaded above");
        // The classifier sees each cell at 28 px: a camera's full resolution adds only
        // cost, so big pictures are read at PHOTO_WORK_PIXELS.
        let gray = match picture {
            DynamicImage::ImageLuma8(gray) => gray.clone(),
            _ => picture.to_luma8(),
        };
        let pixels = gray.width() as u64 * gray.height() as u64;
        if pixels <= PHOTO_WORK_PIXELS {
            return super::photo::read_photo(&gray, classifier);
        }
        let k = (pixels as f64 / PHOTO_WORK_PIXELS as f64).sqrt().ceil() as u32;
        let small = shrink(&gray, k);
        drop(gray);
        let k = k as f32;
        scaled(super::photo::read_photo(&small, classifier), k)
    }

    /// Names each given glyph: from the glyphs known already, else Tesseract once per
    /// look-alike group, else the rules.
    fn read_givens(&mut self, lattice: &Lattice, givens: &[Option<&Glyph>]) -> Reading {
        let mut cells: Vec<CellReading> = lattice
            .cells
            .iter()
            .map(|&cell_box| CellReading {
                digit: None,
                confidence: 1.0,
                method: Method::Empty,
                cell_box,
                digit_box: None,
                alternatives: Vec::new(),
            })
            .collect();
        // Group look-alikes: each group is (signature, members).
        let mut groups: Vec<(Signature, Vec<usize>)> = Vec::new();
        self.last_looks = vec![None; 81];
        for (i, g) in givens.iter().enumerate() {
            let Some(g) = g else { continue };
            if g.doubtful {
                // Ink that no glyph could be cut from: neither a digit nor empty.
                cells[i].digit_box = Some(g.bbox);
                cells[i].confidence = 0.0;
                continue;
            }
            let sig = Signature::of(&g.ink);
            self.last_looks[i] = Some(sig.clone());
            cells[i].digit_box = Some(g.bbox);
            match groups.iter_mut().find(|(s, _)| s.alike(&sig)) {
                Some((_, members)) => members.push(i),
                None => groups.push((sig, vec![i])),
            }
        }
        // Each group's answer: from the glyphs known already, else one Tesseract call
        // for all the new groups laid out as a line, else a call per group.
        let mut answers: Vec<Option<(u8, f32, Method)>> = groups
            .iter()
            .map(|(sig, _)| {
                self.known
                    .iter()
                    .find(|k| k.signature.alike(sig))
                    .map(|k| (k.digit, k.confidence, Method::Template))
            })
            .collect();
        let new: Vec<usize> = (0..groups.len())
            .filter(|&g| answers[g].is_none())
            .collect();
        if new.len() >= 2 {
            let reps: Vec<image::GrayImage> = new
                .iter()
                .map(|&g| tallest(&groups[g].1, givens).dark_on_light())
                .collect();
            if let Some((digits, conf)) = self.ocr.read_line(&reps) {
                for (k, &g) in new.iter().enumerate() {
                    answers[g] = Some((digits[k], conf, Method::Ocr));
                }
            }
        }
        // Groups the line could not settle, read with low confidence, or whose digits
        // clash: one call per group; an answer still below the bar is not trusted.
        let clashing = clashing_groups(&groups, &answers);
        for g in 0..groups.len() {
            let fresh = answers[g].is_none_or(|a| a.2 == Method::Ocr);
            let unsure = answers[g].is_some_and(|a| a.1 < self.min_confidence);
            if answers[g].is_none() || (fresh && (unsure || clashing.contains(&g))) {
                answers[g] = self
                    .ocr_group(&groups[g].1, givens)
                    .map(|(d, c)| (d, c, Method::Ocr))
                    .filter(|a| a.1 >= self.min_confidence);
            }
        }
        // The second reader: the trained classifier on each group Tesseract named just
        // now. Where it is sure of another digit the two disagree, and the rules settle
        // the group between the two below, or it is doubtful.
        // A group Tesseract cannot read (a seven-segment digit) is the classifier's
        // when it is sure, and stands only if the rules agree (one solution).
        let mut disputed: Vec<(usize, [u8; 2])> = Vec::new();
        for (g, answer) in answers.iter_mut().enumerate() {
            let glyph = tallest(&groups[g].1, givens);
            match *answer {
                Some((d, _, Method::Ocr)) => {
                    if let Some(other) = self.classifier_reads(glyph).filter(|&o| o != d) {
                        tracing::debug!("Tesseract reads {d}, the classifier {other}");
                        disputed.push((g, [d, other]));
                    }
                }
                None => {
                    if let Some(d) = self.classifier_reads(glyph) {
                        *answer = Some((d, 0.5, Method::Classifier));
                        disputed.push((g, [d, d]));
                    }
                }
                _ => {}
            }
        }
        let mut unknown_groups = Vec::new();
        for (g, (sig, members)) in groups.iter().enumerate() {
            match answers[g] {
                Some((d, c, m)) => {
                    if m == Method::Ocr && !disputed.iter().any(|x| x.0 == g) {
                        self.known.push(Known {
                            signature: sig.clone(),
                            digit: d,
                            confidence: c,
                        });
                    }
                    for &i in members {
                        cells[i].digit = Some(d);
                        cells[i].confidence = c;
                        cells[i].method = m;
                    }
                }
                None => unknown_groups.push(g),
            }
        }
        let mut grid_cells = [0u8; 81];
        for (i, c) in cells.iter().enumerate() {
            grid_cells[i] = c.digit.unwrap_or(0);
        }
        let mut reading = Reading {
            grid: Grid::from_cells(grid_cells),
            corners: lattice.corners,
            cells,
            to_picture: Homography::grid_to_quad(lattice.corners).unwrap_or(Homography::IDENTITY),
            verdict: Verdict::unjudged(),
        };
        if !unknown_groups.is_empty() {
            let members: Vec<Vec<usize>> = unknown_groups
                .iter()
                .map(|&g| groups[g].1.clone())
                .collect();
            let claimed = (0..groups.len())
                .filter_map(|g| answers[g].map(|a| a.0))
                .fold(0u16, |m, d| m | 1 << d);
            let unclaimed = !claimed & 0b11_1111_1110;
            // The rules' choice stands only where no other digit at all would fit: a
            // digit another look-alike group claims may be this group's too (JPEG
            // splits one digit's glyphs into several groups).
            let decided = super::rules::decide_unknown_groups(&reading.grid, &members, unclaimed)
                .filter(|digits| {
                    let mut grid = reading.grid;
                    for (k, ms) in members.iter().enumerate() {
                        for &i in ms {
                            grid.set(i / 9, i % 9, digits[k]);
                        }
                    }
                    members.iter().all(|ms| only_fit(&grid, ms))
                });
            if let Some(digits) = decided {
                for (k, &g) in unknown_groups.iter().enumerate() {
                    let (sig, ms) = &groups[g];
                    for &i in ms {
                        reading.cells[i].digit = Some(digits[k]);
                        reading.cells[i].confidence = 0.5;
                        reading.cells[i].method = Method::Rules;
                        grid_cells[i] = digits[k];
                    }
                    self.known.push(Known {
                        signature: sig.clone(),
                        digit: digits[k],
                        confidence: 0.5,
                    });
                }
                reading.grid = Grid::from_cells(grid_cells);
            } else {
                // Mark the unread cells so the caller can name them.
                for &g in &unknown_groups {
                    for &i in &groups[g].1 {
                        reading.cells[i].confidence = 0.0;
                    }
                }
            }
        }
        if !disputed.is_empty() {
            self.settle_disputes(&mut reading, &groups, &disputed);
        }
        reading
    }

    /// Groups the two readers disagree on (`disputed`: group and its two digits; the
    /// same digit twice for a group only the classifier read): the one choice of digits
    /// that leaves a puzzle with exactly one solution is taken; with none or several,
    /// the groups' cells are doubtful. Never a guess.
    fn settle_disputes(
        &mut self,
        reading: &mut Reading,
        groups: &[(Signature, Vec<usize>)],
        disputed: &[(usize, [u8; 2])],
    ) {
        let mut fits = Vec::new();
        let open: Vec<usize> = (0..disputed.len())
            .filter(|&k| disputed[k].1[0] != disputed[k].1[1])
            .collect();
        if open.len() <= MAX_DISPUTED {
            for choice in 0..1u32 << open.len() {
                let mut grid = reading.grid;
                for (k, (g, digits)) in disputed.iter().enumerate() {
                    let pick = open
                        .iter()
                        .position(|&o| o == k)
                        .map_or(0, |bit| (choice >> bit) as usize & 1);
                    for &i in &groups[*g].1 {
                        grid.set(i / 9, i % 9, digits[pick]);
                    }
                }
                if is_proper_puzzle(&grid) {
                    fits.push(grid);
                }
            }
        }
        let settled = (fits.len() == 1).then(|| fits[0]);
        for (g, _) in disputed {
            let (sig, members) = &groups[*g];
            // And each group's digit must be the only one that fits there (the two
            // readers may both be wrong about another group).
            let settled = settled.filter(|grid| only_fit(grid, members));
            match settled {
                Some(grid) => {
                    let d = grid.cells()[members[0]];
                    self.known.push(Known {
                        signature: sig.clone(),
                        digit: d,
                        confidence: 0.5,
                    });
                    for &i in members {
                        let agreed = reading.cells[i].digit == Some(d);
                        reading.cells[i].digit = Some(d);
                        reading.cells[i].confidence = 0.5;
                        if !agreed {
                            reading.cells[i].method = Method::Rules;
                        }
                    }
                }
                None => {
                    for &i in members {
                        reading.cells[i].digit = None;
                        reading.cells[i].confidence = 0.0;
                    }
                }
            }
        }
        let mut cells = [0u8; 81];
        for (i, c) in reading.cells.iter().enumerate() {
            cells[i] = c.digit.unwrap_or(0);
        }
        reading.grid = Grid::from_cells(cells);
    }

    /// Reads a look-alike group: Tesseract on up to three members, majority vote.
    fn ocr_group(&mut self, members: &[usize], givens: &[Option<&Glyph>]) -> Option<(u8, f32)> {
        let mut votes: Vec<(u8, f32)> = Vec::new();
        // The tallest members first: the most pixels to read.
        let mut order = members.to_vec();
        order.sort_by(|&a, &b| {
            givens[b]
                .map(|g| g.bbox.h)
                .unwrap_or(0.0)
                .total_cmp(&givens[a].map(|g| g.bbox.h).unwrap_or(0.0))
        });
        for &i in order.iter().take(3) {
            let Some(g) = givens[i] else { continue };
            if let Some(r) = self.ocr.read_digit(&g.dark_on_light()) {
                votes.push((r.digit, r.confidence));
                // Two agreeing votes settle it; one confident vote on a lone glyph too.
                if votes.iter().filter(|v| v.0 == r.digit).count() >= 2
                    || (members.len() == 1 && r.confidence > 0.6)
                {
                    break;
                }
            }
        }
        let mut best: Option<(u8, usize, f32)> = None;
        for d in 1..=9u8 {
            let n = votes.iter().filter(|v| v.0 == d).count();
            let conf = votes
                .iter()
                .filter(|v| v.0 == d)
                .map(|v| v.1)
                .fold(0.0, f32::max);
            if n > 0 && best.is_none_or(|b| n > b.1 || (n == b.1 && conf > b.2)) {
                best = Some((d, n, conf));
            }
        }
        best.map(|(d, _, c)| (d, c))
    }
}

/// The cells the second reading could not confirm, unless the rules confirm them all:
/// they hold one digit (every other digit was confirmed by reading it), the puzzle has
/// no clash and exactly one solution, and no other digit fits those cells, together or
/// any one alone. A digit misread everywhere fails (it clashes with its own kind), and
/// two digits swapped would leave two digits unconfirmed.
fn confirmed_by_rules(grid: &Grid, unconfirmed: Vec<usize>) -> Vec<usize> {
    let Some(&first) = unconfirmed.first() else {
        return unconfirmed;
    };
    let d = grid.cells()[first];
    let one_digit = d != 0 && unconfirmed.iter().all(|&i| grid.cells()[i] == d);
    if one_digit
        && is_proper_puzzle(grid)
        && only_fit(grid, &unconfirmed)
        && unconfirmed.iter().all(|&i| only_fit(grid, &[i]))
    {
        tracing::debug!(
            "the rules confirm {d} in {}",
            crate::grid::cell_names(&unconfirmed)
        );
        return Vec::new();
    }
    unconfirmed
}

/// True when no other digit in `members`' cells leaves `grid` a puzzle with exactly
/// one solution.
fn only_fit(grid: &Grid, members: &[usize]) -> bool {
    let d = grid.cells()[members[0]];
    (1..=9u8).filter(|&o| o != d).all(|o| {
        let mut other = *grid;
        for &i in members {
            other.set(i / 9, i % 9, o);
        }
        !is_proper_puzzle(&other)
    })
}

/// True for camera pictures: sensor noise and JPEG leave few neighbouring pixels
/// exactly equal, where screenshots (flat fills, even gradients) have most of them
/// equal. Sampled on every 4th row.
pub fn looks_like_photo(rgb: &image::RgbImage) -> bool {
    let (equal, _) = neighbour_shares(rgb);
    equal.is_some_and(|share| share < PHOTO_EQUAL_SHARE)
}

/// The share of horizontally neighbouring pixels that are exactly equal, and the share
/// of pixels that are close (every channel within the labelling's tolerance) to their
/// neighbour and to the pixel 4 to the right (the lower of the two: noise drawn in
/// blocks of up to 4 px has close neighbours inside a block, none across), on every
/// 4th row; `None` for a picture less than 5 pixels wide.
fn neighbour_shares(rgb: &image::RgbImage) -> (Option<f64>, Option<f64>) {
    let (w, h) = rgb.dimensions();
    let (mut equal, mut close, mut close_far, mut pairs) = (0u64, 0u64, 0u64, 0u64);
    let stride = w as usize * 3;
    let near = |a: &[u8], b: &[u8]| {
        a.iter()
            .zip(b)
            .all(|(p, q)| p.abs_diff(*q) <= super::regions::FLAT_TOLERANCE)
    };
    for y in (0..h as usize).step_by(4) {
        let row = &rgb.as_raw()[y * stride..(y + 1) * stride];
        let pixels = row.chunks_exact(3);
        for ((a, b), far) in pixels
            .clone()
            .zip(pixels.clone().skip(1))
            .zip(pixels.skip(4))
        {
            pairs += 1;
            equal += (a == b) as u64;
            close += near(a, b) as u64;
            close_far += near(a, far) as u64;
        }
    }
    if pairs == 0 {
        return (None, None);
    }
    let share = |n: u64| n as f64 / pairs as f64;
    let (equal, close, close_far) = (share(equal), share(close), share(close_far));
    tracing::debug!(
        "neighbouring pixels: {equal:.3} equal, {close:.3} close, {close_far:.3} close 4 px apart"
    );
    (Some(equal), Some(close.min(close_far)))
}

/// Below this share of close neighbouring pixels a picture is noise, not a grid: no
/// flat cells for the screenshot path, no paper for the photo path. Random noise has
/// 0.001, noise in 2x2 blocks 0.50 next door and 0.000 4 px apart; the screenshot
/// fixtures 0.79 and up next door and 0.62 and up 4 px apart, the 200 Wicht photos
/// 0.74 and 0.46.
const NOISE_CLOSE_SHARE: f64 = 0.25;

/// Photos over this many pixels are read by the photo path alone (see [`Reader::read`]):
/// 12 MP, a phone's usual picture; the fixture photos are at most 5 MP.
const PHOTO_ONLY_PIXELS: u64 = 12 * MEGAPIXEL;

/// The photo path reads pictures scaled down to at most this many pixels (a grid
/// filling a tenth of the picture still has cells of 100 px).
const PHOTO_WORK_PIXELS: u64 = 8 * MEGAPIXEL;

/// The picture as RGB: grey pictures (a 1-bit or 8-bit PNG) are expanded directly,
/// which is several times quicker than the general conversion and gives the same.
fn rgb_of(picture: &DynamicImage) -> image::RgbImage {
    match picture {
        DynamicImage::ImageLuma8(gray) => {
            let raw: Vec<u8> = gray.as_raw().iter().flat_map(|&v| [v, v, v]).collect();
            image::RgbImage::from_raw(gray.width(), gray.height(), raw).expect("3 bytes a pixel")
        }
        _ => picture.to_rgb8(),
    }
}

/// The picture shrunk by a whole factor `k`: each pixel the mean of a `k` x `k` square
/// (a ragged edge is dropped). One pass, unlike a general resampling filter, whose cost
/// grows with the factor.
fn shrink(gray: &image::GrayImage, k: u32) -> image::GrayImage {
    let (w, h) = (gray.width() / k, gray.height() / k);
    let mut sums = vec![0u32; w as usize];
    let mut out = image::GrayImage::new(w, h);
    let area = k * k;
    for (y, row) in out.rows_mut().enumerate() {
        sums.fill(0);
        let stride = gray.width() as usize;
        for dy in 0..k as usize {
            let start = (y * k as usize + dy) * stride;
            let src = &gray.as_raw()[start..start + (w * k) as usize];
            for (x, &p) in src.iter().enumerate() {
                sums[x / k as usize] += p as u32;
            }
        }
        for (p, &s) in row.zip(&sums) {
            p[0] = (s / area) as u8;
        }
    }
    out
}

/// A reading of a picture shrunk by `k`, in the picture's own pixels (doubtful ones
/// too).
fn scaled(read: Result<Reading, ReadError>, k: f32) -> Result<Reading, ReadError> {
    match read {
        Ok(mut reading) => {
            scale_reading(&mut reading, k);
            Ok(reading)
        }
        Err(ReadError::Doubtful {
            reason,
            cells,
            mut reading,
        }) => {
            scale_reading(&mut reading, k);
            Err(ReadError::Doubtful {
                reason,
                cells,
                reading,
            })
        }
        Err(e) => Err(e),
    }
}

/// Maps a reading of a picture scaled down by `k` back onto the full picture.
fn scale_reading(reading: &mut Reading, k: f32) {
    let point = |p: &mut super::Point| {
        p.x *= k;
        p.y *= k;
    };
    let rect = |r: &mut super::Rect| {
        r.x *= k;
        r.y *= k;
        r.w *= k;
        r.h *= k;
    };
    reading.corners.iter_mut().for_each(point);
    for cell in &mut reading.cells {
        rect(&mut cell.cell_box);
        if let Some(b) = &mut cell.digit_box {
            rect(b);
        }
    }
    for v in &mut reading.to_picture.h[..6] {
        *v *= k as f64;
    }
}

/// Below this share of exactly equal neighbours, a picture is taken for a photo. On the
/// Wicht train photos the share is 0.02-0.56 (heavily compressed JPEGs flatten blocks);
/// on the 60 screenshot fixtures 0.71 and up.
const PHOTO_EQUAL_SHARE: f64 = 0.65;

/// A printed digit fills about 60% of its cell's height: the square the classifier
/// sees around a glyph.
const CLASSIFIER_CELL_RATIO: f32 = 1.6;

/// The member of a group with the second-tallest glyph (the tallest when alone): a
/// glyph the first reading's Tesseract line did not see.
fn second_tallest<'a>(members: &[usize], glyphs: &'a [Option<Glyph>]) -> &'a Glyph {
    let mut sorted: Vec<&Glyph> = members.iter().filter_map(|&i| glyphs[i].as_ref()).collect();
    sorted.sort_by(|a, b| b.bbox.h.total_cmp(&a.bbox.h));
    sorted
        .get(1)
        .or(sorted.first())
        .copied()
        .expect("a group has at least one glyph")
}

/// The member of a group with the tallest glyph: the most pixels to read.
fn tallest<'a>(members: &[usize], givens: &[Option<&'a Glyph>]) -> &'a Glyph {
    members
        .iter()
        .filter_map(|&i| givens[i])
        .max_by(|a, b| a.bbox.h.total_cmp(&b.bbox.h))
        .expect("a group has at least one glyph")
}

/// The groups whose digit clashes with another cell's in a row, column or box.
fn clashing_groups(
    groups: &[(Signature, Vec<usize>)],
    answers: &[Option<(u8, f32, Method)>],
) -> Vec<usize> {
    let mut cells = [0u8; 81];
    let mut group_of = [usize::MAX; 81];
    for (g, (_, members)) in groups.iter().enumerate() {
        for &i in members {
            cells[i] = answers[g].map(|a| a.0).unwrap_or(0);
            group_of[i] = g;
        }
    }
    let mut out: Vec<usize> = Grid::from_cells(cells)
        .conflicts()
        .iter()
        .flat_map(|c| c.cells)
        .map(|i| group_of[i])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The rules' verdict on a reading: unread cells and clashing digits make it doubtful.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grey_pictures_expand_to_the_same_rgb_as_the_general_conversion() {
        let gray = image::GrayImage::from_fn(37, 11, |x, y| image::Luma([(x * 7 + y * 13) as u8]));
        let picture = DynamicImage::ImageLuma8(gray);
        assert_eq!(rgb_of(&picture), picture.to_rgb8());
    }

    #[test]
    fn the_rules_confirm_one_unconfirmed_digit_only_where_nothing_else_fits() {
        let classic =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let grid = Grid::parse(classic).unwrap();
        let of = |d: u8| {
            (0..81)
                .filter(|&i| grid.cells()[i] == d)
                .collect::<Vec<_>>()
        };
        // Every 8 unconfirmed, the rest read twice: the rules confirm the 8s.
        assert!(confirmed_by_rules(&grid, of(8)).is_empty());
        // A 7 could be another digit and leave one solution: not confirmed.
        assert_eq!(confirmed_by_rules(&grid, of(7)), of(7));
        // Two digits unconfirmed (a swap would look the same): not confirmed.
        let two: Vec<usize> = of(8).into_iter().chain(of(9)).collect();
        assert_eq!(confirmed_by_rules(&grid, two.clone()), two);
        // Every 8 misread as 4: the 4s clash, nothing is confirmed.
        let mut wrong = grid;
        for &i in &of(8) {
            wrong.set(i / 9, i % 9, 4);
        }
        assert_eq!(confirmed_by_rules(&wrong, of(8)), of(8));
    }

    #[test]
    fn shrinking_averages_whole_squares() {
        let gray = image::GrayImage::from_fn(7, 5, |x, y| image::Luma([(10 * x + y) as u8]));
        let small = shrink(&gray, 2);
        assert_eq!(small.dimensions(), (3, 2));
        // (0+1+10+11)/4 and (40+41+50+51)/4 = 45.5, truncated
        assert_eq!(small.get_pixel(0, 0)[0], 5);
        assert_eq!(small.get_pixel(2, 0)[0], 45);
    }
}
