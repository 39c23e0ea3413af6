//! A third reader, for seven-segment digits only: which of the seven segment positions
//! of the glyph's box (a top, b top right, c bottom right, d bottom, e bottom left,
//! f top left, g middle) hold a bar, decoded by the standard table. It names a glyph
//! only when every position is clearly lit or clearly dark and the two counters between
//! them are empty; any other glyph (a curve, a serif, a dot off the segments) is left
//! to the other readers. It models segments, not a font.

use image::GrayImage;

/// Ink strength from which a pixel counts as ink.
const INK: u8 = 128;
/// A segment position is lit when at least this share of it is ink ...
const LIT: f32 = 0.25;
/// ... and dark when at most this share is.
const DARK: f32 = 0.05;
/// A glyph at most this share of its height wide is a 1 (the b and c bars alone).
const ONE_WIDTH: f32 = 0.25;
/// A 1's bars cover at least this share of its rows (a gap between them at most).
const ONE_ROWS: f32 = 0.8;
/// Any digit but a 1 is at least this many pixels wide.
const MIN_WIDTH: u32 = 5;
/// A lit side position (b, c, e, f) has ink in at least this share of its rows: a
/// bar runs through it. The end of a square 3's arm, bent down into f, fills its top
/// rows only (Hermit's dotted 3s, their dots joined, were decoded as 8s).
const SIDE_ROWS: f32 = 0.7;

/// The seven segment positions a..g as fractions of the glyph's box (x0, x1, y0, y1),
/// and whether each is a side bar (b, c, e, f), which must run through its rows.
const POSITIONS: [(f32, f32, f32, f32, bool); 7] = [
    (0.3, 0.7, 0.0, 0.2, false), // a
    (0.75, 1.0, 0.2, 0.4, true), // b
    (0.75, 1.0, 0.6, 0.8, true), // c
    (0.3, 0.7, 0.8, 1.0, false), // d
    (0.0, 0.25, 0.6, 0.8, true), // e
    (0.0, 0.25, 0.2, 0.4, true), // f
    (0.3, 0.7, 0.4, 0.6, false), // g
];

/// Each digit's lit segments (bits a..g = 0..6), with the variants seven-segment faces
/// draw: a 6 and a 9 with or without their tails (a, d), a 7 with or without f.
const TABLE: &[(u8, u8)] = &[
    (1, 0b000_0110),
    (2, 0b101_1011),
    (3, 0b100_1111),
    (4, 0b110_0110),
    (5, 0b110_1101),
    (6, 0b111_1101),
    (6, 0b111_1100),
    (7, 0b000_0111),
    (7, 0b010_0111),
    (8, 0b111_1111),
    (9, 0b110_1111),
    (9, 0b110_0111),
];

/// The digit a seven-segment glyph shows (its ink, 255 = full ink), or None when it is
/// not clearly one.
pub fn decode(ink: &GrayImage) -> Option<u8> {
    let (w, h) = ink.dimensions();
    if h < 7 {
        return None;
    }
    let (wf, hf) = (w as f32, h as f32);
    // The share of ink in the part of the box between the given fractions of its width
    // and height.
    let share = |x0: f32, x1: f32, y0: f32, y1: f32| {
        let (xa, xb) = (
            (x0 * wf) as u32,
            ((x1 * wf) as u32).max((x0 * wf) as u32 + 1),
        );
        let (ya, yb) = (
            (y0 * hf) as u32,
            ((y1 * hf) as u32).max((y0 * hf) as u32 + 1),
        );
        let (mut on, mut all) = (0u32, 0u32);
        for y in ya..yb.min(h) {
            for x in xa..xb.min(w) {
                all += 1;
                on += (ink.get_pixel(x, y).0[0] >= INK) as u32;
            }
        }
        on as f32 / all.max(1) as f32
    };
    // The share of rows between those fractions of the height with ink between those
    // of the width.
    let rows = |x0: f32, x1: f32, y0: f32, y1: f32| {
        let (xa, xb) = ((x0 * wf) as u32, ((x1 * wf) as u32).min(w));
        let (ya, yb) = ((y0 * hf) as u32, ((y1 * hf) as u32).min(h));
        let inked = (ya..yb)
            .filter(|&y| (xa..xb).any(|x| ink.get_pixel(x, y).0[0] >= INK))
            .count();
        inked as f32 / (yb.saturating_sub(ya)).max(1) as f32
    };
    if wf <= ONE_WIDTH * hf {
        let rows = (0..h)
            .filter(|&y| (0..w).any(|x| ink.get_pixel(x, y).0[0] >= INK))
            .count();
        return (rows as f32 >= ONE_ROWS * hf).then_some(1);
    }
    // Too narrow for a bar, its two ends and the counter between them: a thin 1's
    // flag over its stem (3 px wide) is no 7.
    if w < MIN_WIDTH {
        return None;
    }
    // The two counters between the segments hold no ink.
    if share(0.3, 0.7, 0.22, 0.38) > DARK || share(0.3, 0.7, 0.62, 0.78) > DARK {
        return None;
    }
    let mut lit = 0u8;
    for (k, &(x0, x1, y0, y1, side)) in POSITIONS.iter().enumerate() {
        let s = share(x0, x1, y0, y1);
        if s >= LIT && (!side || rows(x0, x1, y0, y1) >= SIDE_ROWS) {
            lit |= 1 << k;
        } else if s > DARK {
            return None;
        }
    }
    TABLE
        .iter()
        .find(|&&(_, bits)| bits == lit)
        .map(|&(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A seven-segment digit 16 x 25 px with the given segments lit (bits a..g), bars
    /// 3 px thick standing a pixel apart.
    fn seven(lit: u8) -> GrayImage {
        GrayImage::from_fn(16, 25, |x, y| {
            let on = |k: u8| lit & (1 << k) != 0;
            let horizontal = (4..12).contains(&x);
            let top = (1..11).contains(&y);
            let bottom = (14..24).contains(&y);
            let ink = (on(0) && horizontal && y < 3)
                || (on(6) && horizontal && (11..14).contains(&y))
                || (on(3) && horizontal && y >= 22)
                || (on(5) && x < 3 && top)
                || (on(1) && x >= 13 && top)
                || (on(4) && x < 3 && bottom)
                || (on(2) && x >= 13 && bottom);
            Luma([if ink { 255 } else { 0 }])
        })
    }

    #[test]
    fn segments_standing_apart_are_decoded_by_the_table() {
        for &(d, bits) in TABLE.iter().filter(|(d, _)| *d != 1) {
            assert_eq!(decode(&seven(bits)), Some(d), "{bits:07b}");
        }
        // A 1: the b and c bars, 3 px wide, with their gap.
        let one = GrayImage::from_fn(3, 25, |_, y| Luma([if y == 12 { 0 } else { 255 }]));
        assert_eq!(decode(&one), Some(1));
    }

    #[test]
    fn a_glyph_with_ink_off_the_segments_is_not_decoded() {
        // An 8 with a blob in its upper counter (a curve, a serif's bracket): not a
        // seven-segment glyph.
        let mut eight = seven(0b111_1111);
        for y in 5..9 {
            for x in 6..10 {
                eight.put_pixel(x, y, Luma([255]));
            }
        }
        assert_eq!(decode(&eight), None);
        // A segment half drawn (a diagonal crossing its position): neither lit nor dark.
        let mut two = seven(0b101_1011);
        for y in 14..18 {
            for x in 0..3 {
                two.put_pixel(x, y, Luma([0]));
            }
        }
        for y in 18..24 {
            for x in 0..3 {
                two.put_pixel(x, y, Luma([if y % 3 == 0 { 255 } else { 0 }]));
            }
        }
        assert_eq!(decode(&two), None);
    }

    #[test]
    fn a_square_three_whose_arms_bend_into_the_left_positions_is_not_an_eight() {
        // A 3 (a b c d g) with its top arm bent down into f's first rows and its
        // bottom arm up into e's last ones, as a dotted face's joined dots draw it:
        // enough ink there for a lit bar, but no bar running through.
        let mut three = seven(0b100_1111);
        for x in 0..3 {
            for y in (1..7).chain(18..24) {
                three.put_pixel(x, y, Luma([255]));
            }
        }
        assert_eq!(decode(&three), None);
        // With the bars drawn through, it is the 8 it then shows.
        assert_eq!(decode(&seven(0b111_1111)), Some(8));
    }

    #[test]
    fn a_glyph_too_narrow_for_a_bar_and_its_ends_is_not_decoded() {
        // Roboto Thin's 1 in 20 px cells: a stem 9 px high, its flag a pixel row over
        // it, 3 px wide in all. Its top row fills position a: it was decoded as a 7.
        let one = GrayImage::from_fn(3, 9, |x, y| Luma([if y == 0 || x == 2 { 255 } else { 0 }]));
        assert_eq!(decode(&one), None);
    }
}
