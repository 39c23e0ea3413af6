//! Digits the game marks as errors by their colour: a game that checks its own rules
//! draws clashing digits in a colour of their own (Solo's red, GNOME Sudoku's). A grid
//! that reads as the solution with such marks is not solved: the game plays by other
//! rules than the bot read (a variant), or something was misread.
//!
//! The colours seen on the givens and on the typed digits are the game's ordinary inks
//! (the commonest of each); a digit in a colour far from both is marked. A clash marks
//! two digits at least, so one odd cell (the selected one, drawn inverse) is not, nor
//! are all the cells of one digit (a game showing where the selected digit is).

use image::{DynamicImage, GenericImageView};

use crate::grid::Grid;
use crate::vision::{Reading, Rect};

/// Inks this far apart (the largest channel difference) are other colours.
const OTHER_INK: i32 = 80;
/// A pixel this far from its cell's background is ink.
const INK: i32 = 60;

/// The cells of `reading` (read from `picture`) whose digit is drawn in a colour that
/// is neither the givens' (the digits of `puzzle`) nor the typed digits', with that
/// colour; empty when fewer than two cells share such a colour.
pub fn error_marks(
    picture: &DynamicImage,
    reading: &Reading,
    puzzle: &Grid,
) -> (Vec<usize>, [u8; 3]) {
    let inks: Vec<Option<[i32; 3]>> = (0..81)
        .map(|i| {
            let cell = &reading.cells[i];
            match (cell.digit, cell.digit_box) {
                (Some(_), Some(digit)) => ink_colour(picture, &cell.cell_box, &digit),
                _ => None,
            }
        })
        .collect();
    let commonest = |given: bool| {
        let of: Vec<[i32; 3]> = (0..81)
            .filter(|&i| (puzzle.cells()[i] != 0) == given)
            .filter_map(|i| inks[i])
            .collect();
        of.iter()
            .max_by_key(|a| of.iter().filter(|b| near(a, b)).count())
            .copied()
    };
    let ordinary: Vec<[i32; 3]> = [commonest(true), commonest(false)]
        .into_iter()
        .flatten()
        .collect();
    let odd: Vec<usize> = (0..81)
        .filter(|&i| inks[i].is_some_and(|c| !ordinary.iter().any(|o| near(&c, o))))
        .collect();
    // The marked cells: the odd ones that share a colour with another odd one.
    let marked: Vec<usize> = odd
        .iter()
        .copied()
        .filter(|&i| {
            odd.iter()
                .any(|&j| j != i && near(&inks[i].unwrap(), &inks[j].unwrap()))
        })
        .collect();
    // Every cell of one digit in another colour is the game showing where a digit is
    // (the digit selected), not a clash.
    let digit = |i: usize| reading.grid.cells()[i];
    if let Some(&first) = marked.first() {
        let all_of_it = (0..81).filter(|&i| digit(i) == digit(first)).count();
        if marked.iter().all(|&i| digit(i) == digit(first)) && marked.len() == all_of_it {
            return (Vec::new(), [0; 3]);
        }
    }
    let colour = marked
        .first()
        .and_then(|&i| inks[i])
        .map(|c| c.map(|v| v.clamp(0, 255) as u8))
        .unwrap_or_default();
    (marked, colour)
}

fn near(a: &[i32; 3], b: &[i32; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= OTHER_INK)
}

/// The colour of a digit's ink: the mean of the pixels of its box that are farthest
/// from the cell's background (the median of the cell box), the strongest third of
/// those past [`INK`]; anti-aliased edges left out.
fn ink_colour(picture: &DynamicImage, cell: &Rect, digit: &Rect) -> Option<[i32; 3]> {
    let (w, h) = picture.dimensions();
    let pixels = |r: &Rect| {
        let (x0, y0) = (r.x.max(0.0) as u32, r.y.max(0.0) as u32);
        let (x1, y1) = (
            ((r.x + r.w).max(0.0) as u32).min(w),
            ((r.y + r.h).max(0.0) as u32).min(h),
        );
        (y0..y1)
            .flat_map(move |y| (x0..x1).map(move |x| (x, y)))
            .map(|(x, y)| {
                let p = picture.get_pixel(x, y).0;
                [p[0] as i32, p[1] as i32, p[2] as i32]
            })
            .collect::<Vec<_>>()
    };
    let all = pixels(cell);
    if all.is_empty() {
        return None;
    }
    let mut bg = [0; 3];
    for (k, v) in bg.iter_mut().enumerate() {
        let mut c: Vec<i32> = all.iter().map(|p| p[k]).collect();
        c.sort_unstable();
        *v = c[c.len() / 2];
    }
    let far = |p: &[i32; 3]| (0..3).map(|k| (p[k] - bg[k]).abs()).max().unwrap_or(0);
    let mut ink: Vec<[i32; 3]> = pixels(digit).into_iter().filter(|p| far(p) > INK).collect();
    if ink.is_empty() {
        return None;
    }
    ink.sort_by_key(|p| std::cmp::Reverse(far(p)));
    ink.truncate(ink.len().div_ceil(3));
    let n = ink.len() as i32;
    let mut mean = [0; 3];
    for p in &ink {
        for k in 0..3 {
            mean[k] += p[k];
        }
    }
    Some(mean.map(|v| v / n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::{ReadError, Reader};

    #[test]
    fn solos_red_clashes_are_error_marks_and_its_black_and_green_inks_are_not() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/bot/solo-x-red-clashes.png"
        );
        let picture = image::open(path).unwrap();
        let mut reader = Reader::new().unwrap();
        // An X-sudoku: refused as a variant, the grid as seen kept.
        let reading = match reader.read_unconfirmed(&picture, None) {
            Err(ReadError::Doubtful { reading, .. }) => *reading,
            other => panic!("{other:?}"),
        };
        // The puzzle: Solo's game id in zoo/games/sgt-solo-x.sh, its 24 black givens.
        let puzzle = Grid::parse(concat!(
            ".........",
            ".57.84.3.",
            "3..75....",
            "..521...4",
            ".........",
            "7...492..",
            "....37..5",
            ".4.92.61.",
            "........."
        ))
        .unwrap();
        let (marked, colour) = error_marks(&picture, &reading, &puzzle);
        let red = [2 * 9 + 2, 2 * 9 + 6, 5 * 9 + 3];
        assert_eq!(marked, red, "r3c3, r3c7 and r6c4 are red");
        assert!(
            colour[0] > 150 && colour[1] < 100 && colour[2] < 100,
            "{colour:?}"
        );
        // The same grid with the red digits' cells read as givens' black and typed green
        // only: nothing marked (the check needs two cells of an odd colour).
        let mut one = reading.clone();
        for &i in &red[1..] {
            one.cells[i].digit = None;
        }
        assert!(error_marks(&picture, &one, &puzzle).0.is_empty());
    }
}
