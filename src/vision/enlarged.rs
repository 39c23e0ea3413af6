//! A grid of small cells read again, enlarged.
//!
//! At 12-14 px a cell's digit is 6-8 px high and its strokes a pixel wide, fainter than
//! the ink contrast where antialiasing spreads them over two (a seven-segment 1 at 12
//! px: 47 and 86 against 59 for the grid lines); at 40 px a dot-matrix digit is three
//! dots wide. The glyph finder's pixel-sized rules (a bar a pixel wide is a fringe, the
//! stacking gap at least 2 px) and the readers, Tesseract above all, do better on the
//! same strokes drawn bigger. Where the screenshot path refuses such a grid, the grid
//! (cropped with a cell's margin) is read again enlarged 2 and then 3 times, and that
//! reading is taken only where it agrees with the first ([`agrees`]).
//!
//! Lanczos first, then Catmull-Rom ([`ENLARGEMENTS`]): Lanczos's sharper edges keep
//! the gaps between a dot-matrix digit's dots (Fantasque Sans Mono's dots at 22 px
//! are read only so), but Noto Kufi Arabic Thin's faint blue 6s at 14 px come out of
//! it in pieces, and out of Catmull-Rom (negative lobes half as deep: -0.07 against
//! -0.14) whole.

use image::imageops::FilterType;
use image::RgbImage;

use super::geometry::Point;
use super::picture::MAX_PICTURE_PIXELS;
use super::reading::{Enlargement, Reading};

/// Cells smaller than this (px, the median cell's shorter side) are read again enlarged
/// when refused: a 40 px cell's dot-matrix digit is 3 dots wide (DejaVu Sans Bold and
/// Hack Bold seen through dots 4 px apart).
pub(super) const ENLARGE_BELOW: f32 = 48.0;

/// The enlargements tried, in turn.
pub(super) const ENLARGEMENTS: [Enlargement; 4] = [
    Enlargement {
        factor: 2,
        filter: FilterType::Lanczos3,
    },
    Enlargement {
        factor: 3,
        filter: FilterType::Lanczos3,
    },
    Enlargement {
        factor: 2,
        filter: FilterType::CatmullRom,
    },
    Enlargement {
        factor: 3,
        filter: FilterType::CatmullRom,
    },
];

/// The grid's box in `rgb` with a cell's margin, cut out and enlarged (`e`), and the
/// crop's top-left corner in `rgb`. None when the grid's cells are not small
/// (`cell`, px) or the enlargement would be over the pixel budget.
pub(super) fn enlarge(
    rgb: &RgbImage,
    corners: &[Point; 4],
    cell: f32,
    e: Enlargement,
) -> Option<(RgbImage, (u32, u32))> {
    let k = e.factor;
    if cell >= ENLARGE_BELOW || cell <= 0.0 {
        return None;
    }
    let xs = corners.iter().map(|p| p.x);
    let ys = corners.iter().map(|p| p.y);
    let (x0, x1) = (
        xs.clone().fold(f32::MAX, f32::min),
        xs.fold(f32::MIN, f32::max),
    );
    let (y0, y1) = (
        ys.clone().fold(f32::MAX, f32::min),
        ys.fold(f32::MIN, f32::max),
    );
    let clamp = |v: f32, max: u32| (v.max(0.0) as u32).min(max);
    let (cx0, cy0) = (
        clamp(x0 - cell, rgb.width()),
        clamp(y0 - cell, rgb.height()),
    );
    let (cx1, cy1) = (
        clamp(x1 + cell, rgb.width()),
        clamp(y1 + cell, rgb.height()),
    );
    let (w, h) = (cx1.checked_sub(cx0)?, cy1.checked_sub(cy0)?);
    if w == 0 || h == 0 || (w * k) as u64 * (h * k) as u64 > MAX_PICTURE_PIXELS {
        return None;
    }
    let crop = image::imageops::crop_imm(rgb, cx0, cy0, w, h).to_image();
    let big = image::imageops::resize(&crop, w * k, h * k, e.filter);
    Some((big, (cx0, cy0)))
}

/// Whether a reading of the enlarged grid agrees with the `first` reading, which was
/// refused: every digit the first named is named alike, and every cell where the first
/// found a given's glyph (named or doubtful) holds a digit. Only cells the first took
/// for empty may gain a digit (a 1 a pixel wide, passed over as a fringe). An enlarged
/// thin stroke may fade below the ink contrast and its cell pass for empty (Noto Kufi
/// Arabic Thin's 2s at 14 px, enlarged 3 times): that is no reading to take.
pub(super) fn agrees(first: &Reading, enlarged: &Reading) -> bool {
    first
        .cells
        .iter()
        .zip(&enlarged.cells)
        .all(|(a, b)| match a.digit {
            Some(d) => b.digit == Some(d),
            None => a.digit_box.is_none() || b.digit.is_some(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::vision::geometry::{Homography, Rect};
    use crate::vision::reading::{CellReading, Method};

    fn reading(digits: &[(usize, Option<u8>, bool)]) -> Reading {
        let cell = |i: usize| {
            let found = digits.iter().find(|c| c.0 == i);
            CellReading {
                digit: found.and_then(|c| c.1),
                confidence: 1.0,
                method: Method::Empty,
                cell_box: Rect {
                    x: 0.0,
                    y: 0.0,
                    w: 1.0,
                    h: 1.0,
                },
                digit_box: found.filter(|c| c.2).map(|_| Rect {
                    x: 0.0,
                    y: 0.0,
                    w: 1.0,
                    h: 1.0,
                }),
                alternatives: Vec::new(),
            }
        };
        Reading {
            grid: Grid::from_cells([0; 81]),
            corners: [Point { x: 0.0, y: 0.0 }; 4],
            cells: (0..81).map(cell).collect(),
            to_picture: Homography::IDENTITY,
            verdict: crate::grid::Verdict::unjudged(),
            enlarged: None,
        }
    }

    #[test]
    fn an_enlarged_reading_may_add_digits_to_empty_cells_but_not_drop_or_change_any() {
        // The first: a 4 at r1c1, a doubtful glyph at r1c2, r1c3 empty.
        let first = reading(&[(0, Some(4), true), (1, None, true)]);
        let same_and_more = reading(&[(0, Some(4), true), (1, Some(2), true), (2, Some(1), true)]);
        assert!(agrees(&first, &same_and_more));
        let four_dropped = reading(&[(1, Some(2), true)]);
        assert!(!agrees(&first, &four_dropped));
        let four_changed = reading(&[(0, Some(9), true), (1, Some(2), true)]);
        assert!(!agrees(&first, &four_changed));
        let doubtful_left_empty = reading(&[(0, Some(4), true)]);
        assert!(!agrees(&first, &doubtful_left_empty));
    }

    #[test]
    fn only_small_cells_are_enlarged_and_the_crop_keeps_a_cell_around_the_grid() {
        let rgb = RgbImage::new(240, 240);
        let corners = [
            Point { x: 30.0, y: 30.0 },
            Point { x: 138.0, y: 30.0 },
            Point { x: 138.0, y: 138.0 },
            Point { x: 30.0, y: 138.0 },
        ];
        assert!(enlarge(&rgb, &corners, 48.0, ENLARGEMENTS[0]).is_none());
        let (big, origin) = enlarge(&rgb, &corners, 12.0, ENLARGEMENTS[1]).expect("small cells");
        assert_eq!(origin, (18, 18));
        assert_eq!(big.dimensions(), (132 * 3, 132 * 3));
    }
}
