//! A glyph's width as evidence in a dispute: a 1 is one upright stroke, the narrowest
//! digit of every typeface, so a disputed glyph far narrower than each sure glyph of
//! another digit that the same app drew at the same height is a 1, whatever the
//! classifier says (Kivy's Roboto 1 in red, which the classifier takes for a 4).

use crate::vision::reading::CellReading;

/// A disputed glyph is a 1 when its width (to its height) is at most this share of
/// the narrowest sure glyph of another digit: Roboto's 1 is 0.40 of its height and its
/// narrowest other digit 0.61 (0.66), Allerta Stencil's 0.41 to 0.60 (0.68); DejaVu's
/// 1, with its foot, comes to 0.8 and is left to the rules.
const ONE_WIDTH_SHARE: f32 = 0.72;

/// Sure glyphs compared with are within this share of the disputed glyph's height
/// (givens of one face, not pencil marks or another face's player digits).
const HEIGHT_SLACK: f32 = 0.15;

/// At least this many sure glyphs of at least [`MIN_SURE_DIGITS`] other digits are
/// needed: a narrow face is told from a narrow digit only against the rest.
const MIN_SURE_GLYPHS: usize = 6;
const MIN_SURE_DIGITS: usize = 3;

/// Whether the glyph in `members` (the cells of one look-alike group, disputed between
/// a 1 and another digit) is narrow enough to be nothing but a 1, against the glyphs of
/// `sure` cells (cells whose digit both readers named alike).
pub(in crate::vision) fn narrow_as_a_one(
    cells: &[CellReading],
    members: &[usize],
    sure: &[usize],
) -> bool {
    let Some(glyph) = members
        .iter()
        .filter_map(|&i| cells[i].digit_box)
        .max_by(|a, b| a.h.total_cmp(&b.h))
    else {
        return false;
    };
    let aspect = glyph.w / glyph.h;
    let others: Vec<(u8, f32)> = sure
        .iter()
        .filter_map(|&i| Some((cells[i].digit?, cells[i].digit_box?)))
        .filter(|&(d, b)| d != 1 && (b.h - glyph.h).abs() <= glyph.h * HEIGHT_SLACK)
        .map(|(d, b)| (d, b.w / b.h))
        .collect();
    let digits = others.iter().fold(0u16, |m, &(d, _)| m | 1 << d);
    if others.len() < MIN_SURE_GLYPHS || (digits.count_ones() as usize) < MIN_SURE_DIGITS {
        return false;
    }
    let narrowest = others.iter().map(|&(_, a)| a).fold(f32::INFINITY, f32::min);
    tracing::debug!(
        "{}: {aspect:.2} wide to its height, the narrowest sure glyph of another digit {narrowest:.2}",
        crate::grid::cell_name(members[0])
    );
    aspect <= narrowest * ONE_WIDTH_SHARE
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::geometry::Rect;
    use crate::vision::reading::Method;

    fn cell(digit: u8, w: f32, h: f32) -> CellReading {
        CellReading {
            digit: Some(digit),
            confidence: 0.95,
            method: Method::Ocr,
            cell_box: Rect {
                x: 0.0,
                y: 0.0,
                w: 80.0,
                h: 80.0,
            },
            digit_box: Some(Rect {
                x: 0.0,
                y: 0.0,
                w,
                h,
            }),
            alternatives: Vec::new(),
        }
    }

    #[test]
    fn only_a_glyph_far_narrower_than_every_sure_other_digit_is_a_one() {
        // Six sure glyphs of 2, 5, 8 at 0.61-0.70 of their height; then the disputed one.
        let mut cells: Vec<CellReading> = [
            (2, 28.0),
            (2, 28.0),
            (5, 24.4),
            (5, 24.4),
            (8, 25.0),
            (8, 25.0),
        ]
        .iter()
        .map(|&(d, w)| cell(d, w, 40.0))
        .collect();
        let sure: Vec<usize> = (0..6).collect();
        cells.push(cell(4, 16.0, 40.0)); // Roboto's 1: 0.40
        assert!(narrow_as_a_one(&cells, &[6], &sure));
        cells[6] = cell(4, 20.0, 40.0); // 0.50: a 1 with a foot, or a narrow 7
        assert!(!narrow_as_a_one(&cells, &[6], &sure));
        cells[6] = cell(4, 8.0, 20.0); // narrow, but half the height: no sure glyph to compare
        assert!(!narrow_as_a_one(&cells, &[6], &sure));
        cells[6] = cell(4, 16.0, 40.0);
        assert!(
            !narrow_as_a_one(&cells, &[6], &sure[..4]),
            "two digits are too few to know the face"
        );
    }
}
