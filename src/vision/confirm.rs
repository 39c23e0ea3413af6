//! The second reading: every digit of a reading read again by readers that share
//! nothing with the first reading's glyph cache, and the digits it does not confirm.
//! [`super::acceptance`] turns its answer into the one rule that accepts a reading.
//!
//! A screenshot's grid is located again and its glyphs read in look-alike groups by a
//! fresh Tesseract line (then alone, then the classifier or the shape model). A grid
//! the screenshot path does not find (a photo; a page whose cells it does not see as a
//! lattice) is cut cell by cell through the reading's own grid-to-picture transform,
//! and each digit must be named alike by Tesseract or the shape model: the photo path
//! named it with the classifier, so a second, different reader must agree.

use image::{DynamicImage, GrayImage, RgbImage};

use super::digits::readers::Reader;
use super::digits::rules::only_fit;
use super::enlarged;
use super::geometry::Rect;
use super::glyphs::signature::Signature;
use super::glyphs::{find_glyphs, Glyph};
use super::locate::{locate_screen_grid, Lattice};
use super::picture::{looks_like_photo, place_reading};
use super::reader::median_side;
use super::reading::{ReadError, Reading};
use crate::grid::Grid;
use crate::solver::is_proper_puzzle;
use imageproc::region_labelling::{connected_components, Connectivity};

impl Reader {
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
            return self.unconfirmed_in_cells(rgb, reading, &digits);
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

    /// [`Reader::confirm`] where the screenshot path does not find the reading's grid:
    /// each digit's cell is cut through the reading's grid-to-picture transform (inset
    /// from its lines) and the mark nearest its middle read again, by the shape model
    /// (cheap), then, where it does not name the digit read, by Tesseract. The first
    /// reading named it by the trained classifier: a digit is confirmed where a second,
    /// different reader names it alike, so that two readers of three agree. Neither
    /// alone is trusted to overrule: Tesseract takes a photo's blurred 8 for a 6 with
    /// 0.92 confidence.
    fn unconfirmed_in_cells(
        &mut self,
        rgb: &RgbImage,
        reading: &Reading,
        digits: &[usize],
    ) -> Result<Vec<usize>, ReadError> {
        if digits.is_empty() {
            return Ok(Vec::new());
        }
        let gray = DynamicImage::ImageRgb8(rgb.clone()).to_luma8();
        let mut unconfirmed = Vec::new();
        let mut heights = Vec::new();
        for &i in digits {
            let d = reading.grid.cells()[i];
            let mut confirmed = false;
            for cut in INK_CUTS {
                let mark = cell_mark(&gray, reading, i, cut);
                if cut == INK_CUTS[0] {
                    heights.extend(mark.as_ref().map(|m| m.bbox.h));
                }
                confirmed = match mark {
                    Some(mark) if self.shape_is(&mark, d) => true,
                    Some(mark) => {
                        self.ocr.engine().map_err(ReadError::Engine)?;
                        self.ocr
                            .read_digit(&mark.dark_on_light())
                            .is_some_and(|r| r.confidence >= self.min_confidence && r.digit == d)
                    }
                    None => false,
                };
                if confirmed {
                    break;
                }
            }
            if !confirmed {
                unconfirmed.push(i);
            }
        }
        // A camera's photo has the photo path's own test of cells read as empty (the ink
        // in their middle); a flat screenshot the photo path read has none: its paper
        // texture is not in the way of this one.
        if !looks_like_photo(rgb) {
            unconfirmed.extend(self.digits_missed(&gray, reading, &heights)?);
        }
        if !unconfirmed.is_empty() {
            tracing::debug!(
                "reading the cells again does not confirm {}",
                crate::grid::cell_names(&unconfirmed)
            );
        }
        Ok(unconfirmed)
    }
}

impl Reader {
    /// The cells `reading` takes for empty that hold a mark as tall as half the digits'
    /// marks (`heights`) that a second reader names a digit (the shape model sure of it,
    /// or Tesseract with confidence): a given the first reading lost. A page read by the
    /// photo path had four givens of column 9 read as empty, its puzzle still with one
    /// solution.
    fn digits_missed(
        &mut self,
        gray: &GrayImage,
        reading: &Reading,
        heights: &[f32],
    ) -> Result<Vec<usize>, ReadError> {
        let mut sorted = heights.to_vec();
        sorted.sort_by(f32::total_cmp);
        let Some(&median) = sorted.get(sorted.len() / 2) else {
            return Ok(Vec::new());
        };
        let mut missed = Vec::new();
        for i in (0..81).filter(|&i| reading.grid.cells()[i] == 0) {
            let Some(mark) = cell_mark(gray, reading, i, INK_CUTS[0]) else {
                continue;
            };
            if mark.bbox.h < median / 2.0 {
                continue;
            }
            let named = self.shape_sure(&mark).is_some() || {
                self.ocr.engine().map_err(ReadError::Engine)?;
                self.ocr
                    .read_digit(&mark.dark_on_light())
                    .is_some_and(|r| r.confidence >= self.min_confidence)
            };
            if named {
                missed.push(i);
            }
        }
        if !missed.is_empty() {
            tracing::debug!(
                "a digit in {} read as an empty cell",
                crate::grid::cell_names(&missed)
            );
        }
        Ok(missed)
    }
}

/// A cell is cut this far inside its lines (a share of the cell), so that grid lines,
/// bent a little on paper, stay out of most of it.
const CELL_INSET: f32 = 0.08;
/// Side of the square a cell is resampled to for the second reading, in px.
const CELL_SIDE: u32 = 96;
/// The least contrast (grey levels between a cell's background and its strongest ink)
/// a cell must have to hold a mark: the first reading saw a digit there, so only a
/// cell as flat as noise has none (a dim photo's digits are 20-40 levels from paper).
const MIN_CONTRAST: f32 = 16.0;
/// The ink strengths (0..255 from the cell's background to its strongest ink) a mark is
/// cut at, in turn: the midpoint, then the darkest third (a photo's blur fills the
/// hollows of an 8 or a closed 4 at the midpoint).
const INK_CUTS: [u8; 3] = [128, 192, 224];

/// The mark nearest the middle of cell `i`, cut through `reading`'s grid-to-picture
/// transform (bilinear) moved to the cell's own box: ink is what lies past the midpoint between the cell's
/// background (its median) and its strongest ink, on the side of the median the
/// strongest ink is (dark on light, or light on a dark theme). The mark is the biggest
/// blob of ink that does not span the cell (a grid line), with the blobs that overlap
/// its box; its ink strength keeps
/// the grey levels (anti-aliasing, a photo's blur). `None` where the cell holds no
/// such blob, or no contrast.
fn cell_mark(gray: &GrayImage, reading: &Reading, i: usize, cut: u8) -> Option<Glyph> {
    let (r, c) = ((i / 9) as f32, (i % 9) as f32);
    let span = 1.0 - 2.0 * CELL_INSET;
    let (w, h) = gray.dimensions();
    let at = |x: f32, y: f32| {
        let (x, y) = (x.clamp(0.0, w as f32 - 1.0), y.clamp(0.0, h as f32 - 1.0));
        let (x0, y0) = (x.floor() as u32, y.floor() as u32);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        let p = |x, y| gray.get_pixel(x, y).0[0] as f32;
        let top = p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx;
        let bottom = p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    };
    // The transform is the grid's outline; the cell's own box follows curved paper:
    // its centre moves the cut.
    let centre = reading.to_picture.apply(c + 0.5, r + 0.5);
    let own = reading.cells[i].cell_box.center();
    let shift = (own.x - centre.x, own.y - centre.y);
    let side = CELL_SIDE as usize;
    let mut cell = vec![0f32; side * side];
    for (k, v) in cell.iter_mut().enumerate() {
        let u = c + CELL_INSET + ((k % side) as f32 + 0.5) / side as f32 * span;
        let t = r + CELL_INSET + ((k / side) as f32 + 0.5) / side as f32 * span;
        let p = reading.to_picture.apply(u, t);
        *v = at(p.x + shift.0, p.y + shift.1);
    }
    let mut sorted = cell.clone();
    sorted.sort_by(f32::total_cmp);
    let background = sorted[sorted.len() / 2];
    let (darkest, lightest) = (sorted[sorted.len() / 100], sorted[sorted.len() * 99 / 100]);
    let dark_ink = background - darkest >= lightest - background;
    let contrast = if dark_ink {
        background - darkest
    } else {
        lightest - background
    };
    if contrast < MIN_CONTRAST {
        return None;
    }
    // Ink strength 0..255: how far a pixel is from the background towards the ink.
    let strength: Vec<u8> = cell
        .iter()
        .map(|&v| {
            let d = if dark_ink {
                background - v
            } else {
                v - background
            };
            (d / contrast * 255.0).clamp(0.0, 255.0) as u8
        })
        .collect();
    let ink = GrayImage::from_fn(CELL_SIDE, CELL_SIDE, |x, y| {
        image::Luma([if strength[y as usize * side + x as usize] >= cut {
            255
        } else {
            0
        }])
    });
    let labels = connected_components(&ink, Connectivity::Eight, image::Luma([0u8]));
    // Each blob's box (x0, y0, x1, y1, inclusive) and size, by label.
    let mut blobs: Vec<([u32; 4], u32)> = Vec::new();
    for (x, y, l) in labels.enumerate_pixels() {
        let l = l.0[0] as usize;
        if l == 0 {
            continue;
        }
        if blobs.len() < l {
            blobs.resize(l, ([u32::MAX, u32::MAX, 0, 0], 0));
        }
        let (b, n) = &mut blobs[l - 1];
        *b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        *n += 1;
    }
    // A web page's digit may sit in a corner of its cell: any blob that does not
    // span the cell (a grid line's remnant) may be the mark.
    let most = CELL_SIDE * 9 / 10;
    let central = |b: &[u32; 4]| b[2] - b[0] < most && b[3] - b[1] < most;
    let overlap =
        |a: &[u32; 4], b: &[u32; 4]| a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
    let (main, _) = blobs
        .iter()
        .filter(|(b, _)| central(b))
        .max_by_key(|(_, n)| *n)?;
    let mut bbox = *main;
    for (b, _) in blobs
        .iter()
        .filter(|(b, _)| overlap(b, main) && b[2] - b[0] < most && b[3] - b[1] < most)
    {
        bbox = [
            bbox[0].min(b[0]),
            bbox[1].min(b[1]),
            bbox[2].max(b[2]),
            bbox[3].max(b[3]),
        ];
    }
    let (bw, bh) = (bbox[2] - bbox[0] + 1, bbox[3] - bbox[1] + 1);
    // Ink below the cut fades out: a blurred photo's strokes are thinner at a higher
    // cut, and its 8s and 4s get their hollows back.
    let glyph_ink = GrayImage::from_fn(bw, bh, |x, y| {
        let v = strength[(bbox[1] + y) as usize * side + (bbox[0] + x) as usize] as f32;
        let low = cut as f32 / 2.0;
        image::Luma([((v - low) / (255.0 - low) * 255.0).clamp(0.0, 255.0) as u8])
    });
    Some(Glyph {
        bbox: Rect {
            x: bbox[0] as f32,
            y: bbox[1] as f32,
            w: bw as f32,
            h: bh as f32,
        },
        ink: glyph_ink,
        doubtful: false,
        alone: true,
        faint: false,
        inverse: false,
    })
}

/// Glyphs of one digit are one look for the second reading where their bitmaps are
/// alike and their inks at most this far apart ([`Signature::distance`]): thin strokes
/// leave the coarse bitmap nearly blank, and Roboto Thin's 2s and 3s at 150 px were one
/// look, so that a 2 misread as a 3 throughout was confirmed by a 3.
const ONE_LOOK: f32 = 0.25;

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
