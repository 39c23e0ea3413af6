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

use super::digits::agreement::{disagreement, few_contradictions};
use super::digits::classifier::DigitClassifier;
use super::digits::readers::Reader;
use super::geometry::Rect;
use super::glyphs::signature::Signature;
use super::glyphs::{doubt_lone_marks, find_glyphs, given_height_threshold, Glyph};
use super::locate::regions::Regions;
use super::locate::{locate_screen_grid, Lattice};
pub use super::picture::looks_like_photo;
use super::picture::{
    neighbour_shares, placed, rgb_of, scaled, shrink, MAX_PICTURE_PIXELS, NOISE_CLOSE_SHARE,
    PHOTO_EQUAL_SHARE, PHOTO_ONLY_PIXELS, PHOTO_WORK_PIXELS,
};
use super::reading::{ReadError, Reading};
use super::variant::variant_of;
use super::{debug, enlarged, photo};

impl Reader {
    /// The words in a picture of screen text (a message window, a banner), one line.
    pub fn read_words(&mut self, picture: &DynamicImage) -> Result<String, ReadError> {
        self.ocr.engine().map_err(ReadError::Engine)?;
        Ok(self.ocr.read_words(&picture.to_luma8()).unwrap_or_default())
    }

    /// Reads `picture` as [`Reader::read_unconfirmed`] does, but without the glyphs
    /// learnt from earlier pictures, and keeps nothing learnt from this one: a reading that cannot
    /// agree with an earlier one merely because it remembers it.
    pub fn read_fresh(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        let known = std::mem::take(&mut self.known);
        let result = self.read_unconfirmed(picture, None);
        self.known = known;
        result
    }

    /// Reads `picture` as [`Reader::read_unconfirmed`] does, in the middle of play, where a clash is
    /// the game's doing (a digit typed into the wrong cell) more often than a misread:
    /// a doubtful reading forgets none of the glyph looks learnt before it, and adds none.
    pub fn read_in_play(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        let known = self.known.clone();
        let result = self.read_unconfirmed(picture, None);
        if matches!(result, Err(ReadError::Doubtful { .. })) {
            self.known = known;
        }
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

    /// Reads the grid in `picture` as the first reading sees it, before the acceptance
    /// rule ([`Reader::read`], [`Reader::accept`]): what `read --json` reports of a
    /// refused picture, and what the bot judges before it accepts. With `debug`, writes
    /// stage pictures into that folder.
    pub fn read_unconfirmed(
        &mut self,
        picture: &DynamicImage,
        debug_dir: Option<&Path>,
    ) -> Result<Reading, ReadError> {
        let pixels = picture.width() as u64 * picture.height() as u64;
        if pixels > MAX_PICTURE_PIXELS {
            return self.read_over_budget(picture, debug_dir);
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
                // A blurred screenshot can look like a photo: where the screenshot path
                // finds a grid too, its reading has a say.
                if let (regions, Some(lattice)) = locate_screen_grid(&rgb) {
                    let screen = self.read_screen(&rgb, &regions, &lattice, None)?;
                    if let Some(refused) = refused_as_variant(&rgb, &lattice, &screen) {
                        return Err(refused);
                    }
                    if let Some(doubt) = few_contradictions(&screen, photo) {
                        return Err(doubt);
                    }
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
        let mut screen = self.read_screen(&rgb, &regions, &lattice, debug_dir)?;
        if let Some(refused) = refused_as_variant(&rgb, &lattice, &screen) {
            // Final: neither an enlargement nor the photo path reads it as a classic.
            return Err(refused);
        }
        if let Err(ReadError::Doubtful { reading, .. }) = &screen {
            if let Some(enlarged) = self.read_enlarged(&rgb, &lattice, reading, debug_dir) {
                screen = Ok(enlarged);
            }
        }
        tracing::debug!("read grid in {:?}", t0.elapsed());
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
            Ok(photo) if disagreement(&screen, &photo).is_none() => {
                tracing::debug!("the photo path read a uniquely solvable puzzle; taking it");
                if let Some(dir) = debug_dir {
                    debug::write_photo(dir, &rgb, &photo);
                }
                Ok(photo)
            }
            _ => screen,
        }
    }

    /// The screenshot path on a located grid: each cell's glyph, givens told from pencil
    /// marks by height, named and judged. Glyph looks that led to a doubtful reading
    /// are forgotten.
    fn read_screen(
        &mut self,
        rgb: &image::RgbImage,
        regions: &Regions,
        lattice: &Lattice,
        debug_dir: Option<&Path>,
    ) -> Result<Result<Reading, ReadError>, ReadError> {
        let mut glyphs = find_glyphs(rgb, regions, lattice);
        let mut heights: Vec<f32> = lattice.cells.iter().map(|c| c.h).collect();
        heights.sort_by(f32::total_cmp);
        let threshold = given_height_threshold(&glyphs, heights[40]);
        doubt_lone_marks(&mut glyphs, heights[40], threshold);
        // A faint digit cut short (its hairline strokes fade at a bend) is no mark.
        for g in glyphs.iter_mut().flatten() {
            g.doubtful |= g.faint && g.height() < threshold;
        }
        let givens: Vec<Option<&Glyph>> = glyphs
            .iter()
            .map(|g| g.as_ref().filter(|g| g.doubtful || g.height() >= threshold))
            .collect();
        if givens.iter().any(|g| g.is_some()) {
            self.ocr.engine().map_err(ReadError::Engine)?;
        }
        let reading = self.read_givens(lattice, &givens);
        if let Some(dir) = debug_dir {
            debug::write_stages(dir, rgb, lattice, &glyphs, threshold, &reading);
        }
        let screen = reading.judged(false);
        if let Err(ReadError::Doubtful { reading, cells, .. }) = &screen {
            // Glyph looks that led to a clash are not to be trusted next time.
            let (reading, cells) = (reading.clone(), cells.clone());
            self.forget(&reading, &cells);
        }
        Ok(screen)
    }

    /// A refused grid of small cells read again enlarged ([`enlarged`]), in turn as
    /// [`enlarged::ENLARGEMENTS`] lists: the first reading judged good that agrees with
    /// the `first`, in the picture's own pixels. Read with nothing learnt, and nothing
    /// learnt kept: the looks of enlarged glyphs are not the screen's. With `debug`, the
    /// stage pictures of each enlargement go into its own folder (`enlarged-2-lanczos3`,
    /// `enlarged-3-catmullrom`, ...).
    fn read_enlarged(
        &mut self,
        rgb: &image::RgbImage,
        lattice: &Lattice,
        first: &Reading,
        debug_dir: Option<&Path>,
    ) -> Option<Reading> {
        let cell = median_side(lattice.cells.iter());
        for e in enlarged::ENLARGEMENTS {
            let (big, origin) = enlarged::enlarge(rgb, &lattice.corners, cell, e)?;
            let (regions, Some(big_lattice)) = locate_screen_grid(&big) else {
                continue;
            };
            let known = std::mem::take(&mut self.known);
            let looks = std::mem::take(&mut self.last_looks);
            let name = format!("{}-{:?}", e.factor, e.filter).to_lowercase();
            let dir = debug_dir.map(|d| d.join(format!("enlarged-{name}")));
            let read = self.read_screen(&big, &regions, &big_lattice, dir.as_deref());
            self.known = known;
            self.last_looks = looks;
            let origin = (origin.0 as f32, origin.1 as f32);
            match placed(read.ok()?, 1.0 / e.factor as f32, origin) {
                Ok(mut reading) if enlarged::agrees(first, &reading) => {
                    tracing::debug!("read enlarged {name}");
                    reading.enlarged = Some(e);
                    return Some(reading);
                }
                Ok(_) => tracing::debug!("enlarged {name}, the reading disagrees"),
                Err(e) => tracing::debug!("enlarged {name}: {e}"),
            }
        }
        None
    }

    /// A picture over the pixel budget (files over it are refused before decoding;
    /// this is a caller's own picture): a copy scaled down to fit is read, and the
    /// reading scaled back.
    fn read_over_budget(
        &mut self,
        picture: &DynamicImage,
        debug_dir: Option<&Path>,
    ) -> Result<Reading, ReadError> {
        let pixels = picture.width() as u64 * picture.height() as u64;
        let k = (pixels as f64 / MAX_PICTURE_PIXELS as f64).sqrt() as f32 * 1.001;
        let (w, h) = (picture.width() as f32 / k, picture.height() as f32 / k);
        tracing::warn!(
            "a {}x{} picture is over the pixel budget: read at {w:.0}x{h:.0}",
            picture.width(),
            picture.height()
        );
        let small = picture.resize_exact(w as u32, h as u32, FilterType::Triangle);
        scaled(self.read_unconfirmed(&small, debug_dir), k)
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
            return photo::read_photo(&gray, classifier);
        }
        let k = (pixels as f64 / PHOTO_WORK_PIXELS as f64).sqrt().ceil() as u32;
        let small = shrink(&gray, k);
        drop(gray);
        let k = k as f32;
        scaled(photo::read_photo(&small, classifier), k)
    }
}

/// The refusal of a grid that shows a variant ([`variant_of`]), with the reading as
/// seen (`screen`, the screenshot path's on `lattice`); `None` for a classic grid.
fn refused_as_variant(
    rgb: &image::RgbImage,
    lattice: &Lattice,
    screen: &Result<Reading, ReadError>,
) -> Option<ReadError> {
    let reading = match screen {
        Ok(r) => r,
        Err(ReadError::Doubtful { reading, .. }) => reading,
        Err(_) => return None,
    };
    let variant = variant_of(rgb, &lattice.cells, |u, v| reading.to_picture.apply(u, v))?;
    tracing::debug!("{}", variant.reason());
    Some(ReadError::Doubtful {
        reason: variant.reason(),
        cells: variant.cells(),
        reading: Box::new(reading.clone()),
    })
}

/// The median cell's shorter side, in px.
pub(super) fn median_side<'a>(cells: impl Iterator<Item = &'a Rect>) -> f32 {
    let mut sides: Vec<f32> = cells.map(|c| c.w.min(c.h)).collect();
    sides.sort_by(f32::total_cmp);
    sides.get(sides.len() / 2).copied().unwrap_or(0.0)
}
