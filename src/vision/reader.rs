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
use super::digits::rules::only_fit;
use super::geometry::Rect;
use super::glyphs::signature::Signature;
use super::glyphs::{doubt_lone_marks, find_glyphs, given_height_threshold, Glyph};
use super::locate::regions::Regions;
use super::locate::{locate_screen_grid, Lattice};
pub use super::picture::looks_like_photo;
use super::picture::{
    neighbour_shares, place_reading, placed, rgb_of, scaled, shrink, MAX_PICTURE_PIXELS,
    NOISE_CLOSE_SHARE, PHOTO_EQUAL_SHARE, PHOTO_ONLY_PIXELS, PHOTO_WORK_PIXELS,
};
use super::reading::{ReadError, Reading};
use super::{debug, enlarged, photo};
use crate::grid::Grid;
use crate::solver::is_proper_puzzle;

impl Reader {
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

    /// Reads `picture` as [`Reader::read`] does, in the middle of play, where a clash is
    /// the game's doing (a digit typed into the wrong cell) more often than a misread:
    /// a doubtful reading forgets none of the glyph looks learnt before it, and adds none.
    pub fn read_in_play(&mut self, picture: &DynamicImage) -> Result<Reading, ReadError> {
        let known = self.known.clone();
        let result = self.read(picture, None);
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
    /// A reading made of the grid enlarged ([`Reading::enlarged`]) is confirmed on the
    /// grid enlarged as much: the picture as it is was refused.
    pub fn confirm(
        &mut self,
        picture: &DynamicImage,
        reading: &Reading,
    ) -> Result<Vec<usize>, ReadError> {
        let rgb = picture.to_rgb8();
        let unconfirmed = match reading.enlarged {
            Some(e) => {
                let cell = median_side(reading.cells.iter().map(|c| &c.cell_box));
                match enlarged::enlarge(&rgb, &reading.corners, cell, e) {
                    Some((big, origin)) => {
                        let mut there = reading.clone();
                        let k = e.factor as f32;
                        let origin = (-(origin.0 as f32) * k, -(origin.1 as f32) * k);
                        place_reading(&mut there, k, origin);
                        self.unconfirmed_in(&big, &there)?
                    }
                    None => (0..81).filter(|&i| reading.grid.cells()[i] != 0).collect(),
                }
            }
            None => self.unconfirmed_in(&rgb, reading)?,
        };
        Ok(confirmed_by_rules(&reading.grid, unconfirmed))
    }

    /// [`Reader::confirm`] on the pixels of `rgb`, before the rules have their say: the
    /// digits not confirmed.
    fn unconfirmed_in(
        &mut self,
        rgb: &image::RgbImage,
        reading: &Reading,
    ) -> Result<Vec<usize>, ReadError> {
        let digits: Vec<usize> = (0..81).filter(|&i| reading.grid.cells()[i] != 0).collect();
        let (regions, lattice) = locate_screen_grid(rgb);
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
        let glyphs = find_glyphs(rgb, &regions, &lattice);
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
                .find(|(gd, s, _)| *gd == d && s.alike(&look) && s.distance(&look) <= ONE_LOOK)
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
                    // paper around it, or the shape model.
                    _ => {
                        self.classifier_reads(samples[k]) == Some(*d)
                            || self.shape_is(samples[k], *d)
                    }
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
        Ok(unconfirmed)
    }

    /// Reads the grid in `picture`. With `debug`, writes stage pictures into that folder.
    pub fn read(
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
        scaled(self.read(&small, debug_dir), k)
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

/// Glyphs of one digit are one look for the second reading where their bitmaps are
/// alike and their inks at most this far apart ([`Signature::distance`]): thin strokes
/// leave the coarse bitmap nearly blank, and Roboto Thin's 2s and 3s at 150 px were one
/// look, so that a 2 misread as a 3 throughout was confirmed by a 3.
const ONE_LOOK: f32 = 0.25;

/// The median cell's shorter side, in px.
fn median_side<'a>(cells: impl Iterator<Item = &'a Rect>) -> f32 {
    let mut sides: Vec<f32> = cells.map(|c| c.w.min(c.h)).collect();
    sides.sort_by(f32::total_cmp);
    sides.get(sides.len() / 2).copied().unwrap_or(0.0)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
