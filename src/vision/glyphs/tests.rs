//! The tests of [`super`]: pictures drawn for each case.

use super::*;
use image::Rgb;

/// A cell's glyph in a picture whose empty cells are blank.
fn cell_glyph(img: &RgbImage, cell: &Rect, bg: [u8; 3]) -> Option<Glyph> {
    super::cell_glyph(img, cell, bg, FAINT_CONTRAST)
}

fn cell_with(marks: &[(u32, u32, u32, u32)], ink: [u8; 3], bg: [u8; 3]) -> (RgbImage, Rect) {
    let mut img = RgbImage::from_pixel(60, 60, Rgb(bg));
    for &(x, y, w, h) in marks {
        for yy in y..y + h {
            for xx in x..x + w {
                img.put_pixel(xx, yy, Rgb(ink));
            }
        }
    }
    (
        img,
        Rect {
            x: 5.0,
            y: 5.0,
            w: 50.0,
            h: 50.0,
        },
    )
}

#[test]
fn a_tall_mark_is_the_glyph_and_light_on_dark_reads_as_ink() {
    let (img, cell) = cell_with(
        // a "7": top bar and stem, and a small mark in the corner
        &[(25, 15, 12, 3), (34, 15, 3, 30), (8, 8, 3, 5)],
        [240, 240, 240],
        [20, 30, 80],
    );
    let g = cell_glyph(&img, &cell, [20, 30, 80]).unwrap();
    assert_eq!(
        (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
        (25.0, 15.0, 12.0, 30.0)
    );
    assert_eq!(g.dark_on_light().get_pixel(0, 0).0[0], 0);
}

#[test]
fn a_solid_block_like_a_text_cursor_is_not_a_glyph() {
    let (img, cell) = cell_with(&[(20, 15, 10, 25)], [0, 200, 200], [255, 255, 255]);
    assert!(cell_glyph(&img, &cell, [255, 255, 255]).is_none());
}

#[test]
fn a_digit_in_inverse_video_inside_a_cursor_block_is_found() {
    // a light block on a dark cell, with a dark "7" inside it
    let (mut img, cell) = cell_with(&[(18, 12, 20, 34)], [200, 200, 200], [30, 30, 30]);
    for &(x, y, w, h) in &[(22, 16, 12, 3), (31, 16, 3, 26)] {
        for yy in y..y + h {
            for xx in x..x + w {
                img.put_pixel(xx, yy, Rgb([30, 30, 30]));
            }
        }
    }
    let g = cell_glyph(&img, &cell, [30, 30, 30]).expect("the 7 inside the block");
    assert_eq!(
        (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
        (22.0, 16.0, 12.0, 26.0)
    );
}

#[test]
fn a_digit_in_inverse_video_reaching_a_flat_cursor_blocks_edge_is_found_a_fringed_one_not() {
    // A black block on white, a white "4" inside whose bar reaches the block's left edge
    // (a terminal's bold 4 under the cursor), its edges antialiased grey.
    let block = |fringe: [u8; 3]| {
        let (mut img, cell) = cell_with(&[(22, 12, 14, 34)], [0, 0, 0], [255, 255, 255]);
        for &(x, y, w, h) in &[(29, 16, 3, 26), (23, 30, 11, 3), (25, 18, 3, 12)] {
            for yy in y..y + h {
                for xx in x..x + w {
                    img.put_pixel(xx, yy, Rgb([255, 255, 255]));
                }
            }
        }
        for yy in 30..33 {
            img.put_pixel(22, yy, Rgb([128, 128, 128]));
        }
        for yy in 16..42 {
            img.put_pixel(28, yy, Rgb(fringe));
        }
        (img, cell)
    };
    let (img, cell) = block([128, 128, 128]);
    let g = cell_glyph(&img, &cell, [255, 255, 255]).expect("the 4 inside the block");
    assert_eq!(
        (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
        (22.0, 16.0, 12.0, 26.0)
    );
    // With colour fringes (JPEG, subpixel text) off the black-white line, it is no flat
    // block: the ink goes on as it is, the block whole.
    let (img, cell) = block([200, 40, 160]);
    let g = cell_glyph(&img, &cell, [255, 255, 255]).expect("the block's ink");
    assert_eq!((g.bbox.w, g.bbox.h), (14.0, 34.0));
}

#[test]
fn a_frame_touching_the_cell_edge_is_not_a_glyph() {
    let (img, cell) = cell_with(
        &[(5, 5, 50, 2), (5, 5, 2, 50)],
        [0, 0, 255],
        [255, 255, 255],
    );
    assert!(cell_glyph(&img, &cell, [255, 255, 255]).is_none());
}

#[test]
fn a_bold_blot_of_uneven_ink_is_a_glyph_not_an_empty_cursor() {
    // A bold 8 whose counters JPEG filled with half-strength ink: a block by its
    // fill, but not of one colour, so not a cursor: the cell is not empty.
    let (mut img, cell) = cell_with(&[(22, 14, 14, 26)], [0, 0, 0], [255, 255, 255]);
    for (x, y) in (26..32).flat_map(|x| (18..24).chain(29..35).map(move |y| (x, y))) {
        img.put_pixel(x, y, Rgb([150, 150, 150]));
    }
    let g = cell_glyph(&img, &cell, [255, 255, 255]).expect("the blot is a glyph");
    assert!(!g.doubtful);
    assert_eq!((g.bbox.h, g.bbox.w), (26.0, 14.0));
}

#[test]
fn a_digit_joined_to_the_cell_edge_is_doubtful_never_empty() {
    // A "1" as tall as the cell's box (a box found too tight, as in bevelled cells):
    // no glyph can be cut from it, but ink reaches the middle of the cell, so the
    // cell is not proven empty.
    let (img, cell) = cell_with(&[(28, 5, 3, 50), (24, 9, 4, 3)], [0, 0, 0], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).expect("not empty");
    assert!(g.doubtful);
    // A selection ring along the edge leaves the middle alone: empty.
    let ring = [(5, 5, 50, 3), (5, 52, 50, 3), (5, 5, 3, 50), (52, 5, 3, 50)];
    let (img, cell) = cell_with(&ring, [224, 138, 0], [255; 3]);
    assert!(cell_glyph(&img, &cell, [255; 3]).is_none());
}

#[test]
fn a_digit_tall_glyph_along_the_cells_side_is_doubtful() {
    // A column of three pencil marks run together by JPEG, in the right third of
    // the cell: as tall as a digit, but apps centre their digits.
    let stack = [(43, 10, 5, 2), (45, 10, 1, 32), (43, 40, 5, 2)];
    let (img, cell) = cell_with(&stack, [200, 200, 200], [30, 30, 30]);
    let g = cell_glyph(&img, &cell, [30, 30, 30]).expect("not empty");
    assert!(g.doubtful);
    // The same shape in the middle is a glyph to read (a 1, say).
    let one = [(27, 10, 5, 2), (29, 10, 1, 32), (27, 40, 5, 2)];
    let (img, cell) = cell_with(&one, [200, 200, 200], [30, 30, 30]);
    let g = cell_glyph(&img, &cell, [30, 30, 30]).expect("the 1");
    assert!(!g.doubtful);
}

#[test]
fn a_streak_beside_the_cell_edge_does_not_hide_the_digit() {
    // A bevel's edge or a colour fringe a pixel inside the cell's box, taller than
    // the digit: it is not the glyph (it used to be taken as one, then dropped as a
    // flat cursor block, and the cell read as empty).
    let two = [
        (22, 16, 14, 3),
        (33, 16, 3, 12),
        (22, 27, 14, 3),
        (22, 27, 3, 13),
        (22, 38, 14, 3),
    ];
    let streak = (7, 8, 1, 41);
    let (img, cell) = cell_with(&[&two[..], &[streak]].concat(), [0, 0, 0], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).expect("the 2");
    assert_eq!((g.bbox.x, g.bbox.h), (22.0, 25.0));
    // A 1 as thin as the streak, in the middle, is a glyph.
    let one = [(29, 16, 2, 26), (26, 17, 3, 2), streak];
    let (img, cell) = cell_with(&one, [0, 0, 0], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).expect("the 1");
    assert_eq!((g.bbox.x, g.bbox.h), (26.0, 26.0));
}

#[test]
fn a_digit_joined_to_a_line_remnant_is_cut_free_by_looking_further_in() {
    // A "7" whose bar a thin streak joins to a stub of grid line at the cell's edge.
    let (img, cell) = cell_with(
        &[
            (24, 15, 21, 3),
            (33, 15, 3, 28),
            (45, 16, 9, 1),
            (53, 5, 2, 50),
        ],
        [0, 0, 0],
        [255; 3],
    );
    let g = cell_glyph(&img, &cell, [255; 3]).expect("the 7");
    assert!(!g.doubtful);
    assert!(g.bbox.h >= 27.0, "{:?}", g.bbox);
}

#[test]
fn a_digit_flush_against_the_line_above_is_read_whole() {
    // pygame's Game Sudoku draws its digits from the top of the cell: a bold 8 starts
    // on the cell box's first row, right under the box line (outside the box). It used
    // to be dropped as a frame, then cut past its top (too short for a digit): doubtful,
    // and the second reading did not confirm it.
    let eight = [
        (24, 5, 12, 3),
        (24, 14, 12, 3),
        (24, 23, 12, 3),
        (24, 5, 3, 21),
        (33, 5, 3, 21),
    ];
    let line = (0, 3, 60, 2);
    let (img, cell) = cell_with(&[&eight[..], &[line]].concat(), [0, 0, 0], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).expect("the 8");
    assert!(!g.doubtful);
    assert_eq!(
        (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
        (24.0, 5.0, 12.0, 21.0)
    );
    // The same 8 pushed into the cell's corner touches two sides: no digit a game
    // draws, so not read as one.
    let corner: Vec<_> = eight
        .iter()
        .map(|&(x, y, w, h)| (x - 19, y, w, h))
        .collect();
    let (img, cell) = cell_with(&[&corner[..], &[line]].concat(), [0, 0, 0], [255; 3]);
    assert!(cell_glyph(&img, &cell, [255; 3]).is_none_or(|g| g.doubtful));
}

#[test]
fn a_digit_split_by_a_thin_gap_is_one_glyph_but_stacked_pencil_marks_are_not() {
    // A "5" whose flag stands a pixel above its bowl.
    let bowl = [
        (24, 18, 12, 3),
        (24, 35, 12, 3),
        (24, 18, 3, 20),
        (33, 18, 3, 20),
    ];
    let (img, cell) = cell_with(&[&[(24, 14, 12, 3)][..], &bowl].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.y, g.bbox.h), (14.0, 24.0));
    // Two pencil marks (a sixth of the cell high) two pixels apart, one above the
    // other, stay two marks.
    let marks = [
        (10, 10, 4, 2),
        (12, 10, 2, 8),
        (10, 20, 4, 2),
        (12, 20, 2, 8),
    ];
    let (img, cell) = cell_with(&marks, [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!(g.bbox.h, 8.0);
}

#[test]
fn a_stencil_digits_pieces_side_by_side_are_one_glyph_but_a_thin_streak_beside_it_is_not() {
    // A stencil "8": its right part (a "3" on its own) and two left strokes a
    // stroke's gap away, each half the digit's height.
    let right = [
        (28, 15, 9, 3),
        (28, 28, 9, 3),
        (28, 41, 9, 3),
        (34, 15, 3, 29),
    ];
    let left = [(23, 15, 3, 14), (23, 31, 3, 13)];
    let (img, cell) = cell_with(&[&right[..], &left].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.x, g.bbox.w), (23.0, 14.0), "both pieces");
    // A streak a pixel wide beside a "3" (a bevel's or a fringe's) stays apart.
    let streak = [(26, 15, 1, 29)];
    let (img, cell) = cell_with(&[&right[..], &streak].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.x, g.bbox.w), (28.0, 9.0), "the digit alone");
}

#[test]
fn a_seven_segment_digits_bars_standing_apart_are_one_glyph() {
    // A "6": bars 3 px thick, 2 px apart at the corners (DSEG7 Classic Mini at 80 px),
    // the top bar short of the upright ones: none overlaps the tallest bar both ways.
    let six = [
        (24, 12, 11, 3),
        (20, 16, 3, 12),
        (24, 29, 11, 3),
        (20, 33, 3, 12),
        (36, 33, 3, 12),
        (24, 46, 11, 3),
    ];
    let (img, cell) = cell_with(&six, [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!(
        (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
        (20.0, 12.0, 19.0, 37.0)
    );
}

#[test]
fn a_fourteen_segment_fours_upright_joins_by_its_middle_dashes() {
    // DSEG14 Modern Mini's 4: the right upright, its middle bar as two dashes, and its
    // left upright standing apart (at 80 px, the glyph had been the right upright
    // alone, a "1").
    let right = [(36, 12, 3, 17), (36, 31, 3, 18)];
    let dashes = [(28, 29, 7, 3), (20, 29, 7, 3)];
    let left = [(16, 12, 3, 17)];
    let (img, cell) = cell_with(&[&right[..], &dashes, &left].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!(
        (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
        (16.0, 12.0, 23.0, 37.0),
        "the whole 4"
    );
    // The same dashes at the glyph's top are not its middle bar.
    let high = [(28, 13, 7, 3), (20, 13, 7, 3)];
    let (img, cell) = cell_with(&[&right[..], &high, &left].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.x, g.bbox.w), (36.0, 3.0), "the right upright alone");
    // DSEG14 Classic Bold's dashes are pointed and thick: 19 x 11 px at 150 px (here
    // 7 x 4), and carry its left upright in too.
    let bold = [(28, 28, 7, 4), (20, 28, 7, 4)];
    let (img, cell) = cell_with(&[&right[..], &bold, &left].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.x, g.bbox.w), (16.0, 23.0), "the whole bold 4");
    // Square specks there are no dashes.
    let specks = [(30, 28, 4, 4), (22, 28, 4, 4)];
    let (img, cell) = cell_with(&[&right[..], &specks, &left].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.x, g.bbox.w), (36.0, 3.0), "the right upright alone");
}

#[test]
fn a_thin_fourteen_segment_fours_halves_a_gap_apart_are_one_glyph() {
    // DSEG14 Modern Mini's 4 at 30 px: its f and left middle dash one blob, its b, c and
    // right middle dash another, with the gap of the split middle bar between them: two
    // blank columns there, three here in a cell whose stacking gap is 3 px (the glyph
    // had been the right half alone, a "1").
    let right = [(38, 12, 2, 27), (31, 25, 7, 2)];
    let left = |x: u32| [(x, 12, 2, 14), (x, 25, 8, 2)];
    let (img, cell) = cell_with(&[&right[..], &left(20)].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.x, g.bbox.w), (20.0, 20.0), "the whole 4");
    // A column further off, the left half stands apart.
    let (img, cell) = cell_with(&[&right[..], &left(19)].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!((g.bbox.x, g.bbox.w), (31.0, 9.0), "the right half alone");
}

#[test]
fn a_segment_fours_right_bars_standing_apart_are_its_height() {
    // DSEG14 Classic Mini's 4 at 56 px: its f with the left middle dash is one blob
    // 17 px tall, its b and c 15 px each, one on the other. The glyph had been the
    // f alone, taken for a pencil mark: the 4 read as an empty cell.
    let f_and_dash = [(17, 15, 3, 15), (20, 27, 6, 3)];
    let rest = [(33, 14, 3, 14), (27, 27, 5, 3), (33, 29, 3, 14)];
    let (img, cell) = cell_with(&[&f_and_dash[..], &rest].concat(), [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]).unwrap();
    assert_eq!(
        (g.bbox.x, g.bbox.y, g.bbox.w, g.bbox.h),
        (17.0, 14.0, 19.0, 29.0),
        "the whole 4"
    );
    // Two upright bars side by side are no stack.
    let apart = [(20, 14, 3, 14), (33, 29, 3, 14)];
    let (img, cell) = cell_with(&apart, [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]);
    assert!(
        g.as_ref().is_none_or(|g| g.bbox.h < 20.0),
        "{:?}",
        g.map(|g| g.bbox)
    );
}

#[test]
fn a_hairline_digit_broken_into_two_pieces_is_no_pencil_marks() {
    // Lato Hairline's 2 at 50 px: its arc and its foot, a pixel of faint ink apart,
    // each the size of a pencil mark. Two marks made the cell empty; the pieces stand
    // within a glyph's stacking gap, and the faint ink makes them a digit's height.
    let pieces = [
        (24, 18, 12, 2),
        (34, 20, 2, 7),
        (33, 28, 2, 6),
        (23, 34, 12, 2),
    ];
    let (mut img, cell) = cell_with(&pieces, [0; 3], [255; 3]);
    for x in 33..36 {
        img.put_pixel(x, 27, image::Rgb([220; 3]));
    }
    let g = cell_glyph(&img, &cell, [255; 3]);
    assert!(
        g.as_ref().is_some_and(|g| g.doubtful || g.faint),
        "{:?}",
        g.map(|g| g.bbox)
    );
    // Two pencil marks in their own places, faint ink between them too, stay marks.
    let marks = [
        (24, 12, 8, 2),
        (30, 14, 2, 8),
        (24, 30, 8, 2),
        (30, 32, 2, 8),
    ];
    let (mut img, cell) = cell_with(&marks, [0; 3], [255; 3]);
    for y in 22..30 {
        img.put_pixel(31, y, image::Rgb([220; 3]));
    }
    let g = cell_glyph(&img, &cell, [255; 3]);
    assert!(
        g.as_ref().is_none_or(|g| !g.doubtful && !g.faint),
        "{:?}",
        g.map(|g| g.bbox)
    );
}

#[test]
fn a_hairline_digit_broken_in_several_places_is_no_pencil_marks() {
    // Lato Hairline's 3 at 50 px: its bowls' strong ink in four pieces, the foot 4 px
    // from the lower bowl (farther than the stacking gap, 3 px), all of them one mark
    // of a digit's height in the faint ink. The cell had been read as empty.
    let pieces = [
        (24, 18, 12, 2),
        (34, 20, 2, 6),
        (30, 27, 4, 2),
        (34, 30, 2, 7),
        (26, 37, 4, 2),
        (22, 34, 2, 3),
    ];
    let (mut img, cell) = cell_with(&pieces, [0; 3], [255; 3]);
    for (x, y) in [
        (34, 26),
        (34, 29),
        (30, 38),
        (31, 37),
        (32, 37),
        (33, 37),
        (24, 37),
        (25, 37),
    ] {
        img.put_pixel(x, y, image::Rgb([220; 3]));
    }
    let g = cell_glyph(&img, &cell, [255; 3]);
    assert!(
        g.as_ref().is_some_and(|g| g.doubtful || g.faint),
        "{:?}",
        g.map(|g| g.bbox)
    );
}

#[test]
fn a_hairline_digit_whose_pieces_no_faint_ink_joins_is_no_pencil_mark() {
    // Lato Hairline's 5 at 30 px, drawn at 50: its flag and stem, and its bowl, a
    // blank row and two columns apart where the stroke faded away; each piece the
    // size of a pencil mark, together a digit's. The cell had been read as empty.
    let pieces = [
        (22, 15, 12, 2),
        (22, 17, 2, 8),
        (26, 26, 8, 2),
        (34, 28, 2, 6),
        (22, 34, 12, 2),
    ];
    let (img, cell) = cell_with(&pieces, [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]);
    assert!(
        g.as_ref()
            .is_some_and(|g| g.doubtful || g.height() >= EDGE_INK_CHECK * cell.h),
        "{:?}",
        g.map(|g| g.bbox)
    );
    // Its flag and stem alone: a pencil mark's size, the cell empty of digits.
    let (img, cell) = cell_with(&pieces[..2], [0; 3], [255; 3]);
    let g = cell_glyph(&img, &cell, [255; 3]);
    assert!(
        g.as_ref()
            .is_none_or(|g| !g.doubtful && g.height() < EDGE_INK_CHECK * cell.h),
        "{:?}",
        g.map(|g| g.bbox)
    );
}

/// A glyph of height `h`, for the height tests.
fn of_height(h: f32) -> Option<Glyph> {
    Some(Glyph {
        bbox: Rect {
            x: 0.0,
            y: 0.0,
            w: 5.0,
            h,
        },
        ink: GrayImage::new(1, 1),
        doubtful: false,
        alone: true,
        faint: false,
        inverse: false,
    })
}

#[test]
fn pencil_marks_fall_below_the_given_threshold() {
    let g = of_height;
    // 20 givens 20-21 px high, 30 pencil marks 9-12 px, one 27 px blob (a digit
    // touching a mark): the bar falls between marks and givens.
    let mut glyphs: Vec<Option<Glyph>> = (0..20).map(|k| g(20.0 + (k % 2) as f32)).collect();
    glyphs.extend((0..30).map(|k| g(9.0 + (k % 4) as f32)));
    glyphs.push(g(27.0));
    glyphs.push(None);
    let t = given_height_threshold(&glyphs, 40.0);
    assert!(t > 12.0 && t < 20.0, "threshold {t}");
    // Givens alone: every glyph above the floor counts.
    let alone: Vec<Option<Glyph>> = (0..25).map(|k| g(18.0 + (k % 3) as f32)).collect();
    assert!(given_height_threshold(&alone, 40.0) <= 18.0);
}

#[test]
fn a_flat_bar_of_a_digits_height_is_doubtful_but_a_wide_block_or_a_short_bar_is_empty() {
    let white = [255, 255, 255];
    // A 1 blur has filled to a bar (4 by 24 px in a 50 px cell): not proven empty.
    let (img, cell) = cell_with(&[(28, 13, 4, 24)], [90, 90, 90], white);
    assert!(cell_glyph(&img, &cell, white).unwrap().doubtful);
    // A block cursor a third as wide as high or wider, and a pencil mark's bar: empty.
    let (img, cell) = cell_with(&[(25, 13, 9, 24)], [90, 90, 90], white);
    assert!(cell_glyph(&img, &cell, white).is_none());
    let (img, cell) = cell_with(&[(28, 13, 3, 12)], [90, 90, 90], white);
    assert!(cell_glyph(&img, &cell, white).is_none_or(|g| !g.doubtful && g.height() < 13.0));
}

#[test]
fn a_glyph_with_pencil_marks_beside_it_is_not_alone() {
    let white = [255, 255, 255];
    // Two "0"-shaped marks blur has stacked into a digit's height in the middle column,
    // and one to their right.
    let mark = |x: u32, y: u32| {
        [
            (x, y, 1, 12),
            (x + 4, y, 1, 12),
            (x, y, 5, 1),
            (x, y + 11, 5, 1),
        ]
    };
    let stacked = [mark(28, 10), mark(28, 24), mark(42, 10)].concat();
    let (img, cell) = cell_with(&stacked, [0; 3], white);
    let g = cell_glyph(&img, &cell, white).unwrap();
    assert!(!g.alone);
    // A "0" alone, with a speck and a fringe along the cell's edge: alone.
    let (img, cell) = cell_with(
        &[
            (25, 15, 2, 22),
            (33, 15, 2, 22),
            (25, 15, 10, 2),
            (25, 35, 10, 2),
            (40, 45, 1, 1),
            (6, 20, 2, 6),
        ],
        [0; 3],
        white,
    );
    let g = cell_glyph(&img, &cell, white).unwrap();
    assert!(g.alone);
    // A ")" with two dots for eyes beside it (7SEGGCHAN's 1): specks, no pencil marks.
    let paren = [(33, 18, 2, 6), (34, 23, 2, 14), (33, 36, 2, 6)];
    let one = [&paren[..], &[(24, 24, 3, 3), (29, 24, 3, 3)]].concat();
    let (img, cell) = cell_with(&one, [0; 3], white);
    let g = cell_glyph(&img, &cell, white).unwrap();
    assert_eq!((g.bbox.x, g.bbox.h), (33.0, 24.0), "the dots stand apart");
    assert!(g.alone);
    // ... but two pencil marks' size (6 px of a 50 px cell) are marks.
    let (img, cell) = cell_with(
        &[&paren[..], &[(21, 22, 3, 6), (27, 22, 3, 6)]].concat(),
        [0; 3],
        white,
    );
    let g = cell_glyph(&img, &cell, white).unwrap();
    assert!(!g.alone);
}

#[test]
fn a_lone_glyph_below_the_givens_is_doubtful_and_many_are_pencil_marks() {
    let g = of_height;
    // 25 givens 9-10 px high in 15 px cells, and one 6 px glyph (an 8 blur has broken).
    let mut glyphs: Vec<Option<Glyph>> = (0..25).map(|k| g(9.0 + (k % 2) as f32)).collect();
    glyphs.push(g(6.0));
    let t = given_height_threshold(&glyphs, 15.0);
    assert!(t > 6.0 && t < 9.0, "threshold {t}");
    doubt_lone_marks(&mut glyphs, 15.0, t);
    assert!(
        glyphs[25].as_ref().unwrap().doubtful,
        "not proven a pencil mark"
    );
    assert!(!glyphs[0].as_ref().unwrap().doubtful);
    // With pencil marks in other cells, it is one of them.
    let mut glyphs: Vec<Option<Glyph>> = (0..25).map(|k| g(9.0 + (k % 2) as f32)).collect();
    glyphs.extend((0..4).map(|_| g(3.0)));
    glyphs.push(g(6.0));
    doubt_lone_marks(&mut glyphs, 15.0, t);
    assert!(!glyphs[29].as_ref().unwrap().doubtful);
}

#[test]
fn a_faint_digit_is_a_glyph_but_a_faint_block_or_faint_halos_round_pencil_marks_are_not() {
    let white = [255, 255, 255];
    let faint = [220, 220, 220]; // 35 levels: under the ink contrast, over half of it
    let ring = |x: u32, y: u32, w: u32, h: u32| {
        [
            (x, y, 2, h),
            (x + w - 2, y, 2, h),
            (x, y, w, 2),
            (x, y + h - 2, w, 2),
        ]
    };
    // A light "0" of a digit's height: not proven empty, a glyph cut from faint ink.
    let (img, cell) = cell_with(&ring(25, 15, 10, 22), faint, white);
    assert!(cell_glyph(&img, &cell, white).is_some_and(|g| g.faint && g.height() >= 22.0));
    // A light flat block (a cursor): empty.
    let (img, cell) = cell_with(&[(25, 15, 10, 22)], faint, white);
    assert!(cell_glyph(&img, &cell, white).is_none());
    // Two dark pencil marks, in a light halo of a digit's height: marks.
    let mut img = cell_with(&ring(25, 15, 10, 22), faint, white).0;
    for (x, y) in [(20u32, 14u32), (34, 14)] {
        for (dx, dy) in [
            (0, 0),
            (3, 0),
            (0, 5),
            (3, 5),
            (1, 0),
            (2, 0),
            (1, 5),
            (2, 5),
        ] {
            img.put_pixel(x + dx, y + dy, Rgb([0, 0, 0]));
        }
        for dy in 0..6 {
            img.put_pixel(x, y + dy, Rgb([0, 0, 0]));
            img.put_pixel(x + 3, y + dy, Rgb([0, 0, 0]));
        }
    }
    let g = cell_glyph(&img, &cell, white);
    assert!(g.as_ref().is_none_or(|g| !g.doubtful), "{g:?}");
}

#[test]
fn a_hairline_digit_fainter_than_ink_is_cut_from_faint_ink_where_empty_cells_are_blank() {
    let black = [0, 0, 0];
    // A hairline 8 on black (Lato Hairline at 30 px): 1 px strokes of contrast 20,
    // under half the ink contrast, 25 px high in a 50 px cell: its two bowls' sides
    // and its three bars, one stroke.
    let strokes = [
        (26, 18, 9, 1),
        (25, 19, 1, 10),
        (35, 19, 1, 10),
        (24, 29, 13, 1),
        (24, 30, 1, 12),
        (36, 30, 1, 12),
        (25, 42, 11, 1),
    ];
    let (img, cell) = cell_with(&strokes, [20, 20, 20], black);
    // Where the empty cells' middles are blank: a glyph for the readers, cut from
    // the faint ink, whole.
    let g = cell_glyph(&img, &cell, black);
    assert!(
        g.as_ref().is_some_and(|g| g.faint && g.height() == 25.0),
        "{:?}",
        g.map(|g| g.bbox)
    );
    // Where every cell's middle holds ink that faint (an LCD's unlit segments): the
    // faint bar rises over it, and the cell is empty.
    assert!(super::cell_glyph(&img, &cell, black, 20 + FAINT_CONTRAST).is_none());
}

#[test]
fn a_hairline_digit_whose_faint_pieces_touch_is_cut_whole_but_faint_pieces_alone_are_not() {
    let black = [0, 0, 0];
    // Lato Hairline's 5 at 18 px: its flag (a bar of contrast 60, over the ink
    // contrast, and a faint stem) and its bowl, faint, two blobs whose boxes touch,
    // each under the height of a digit's mark (0.14 and 0.24 of the cell).
    let bowl = [(28, 22, 7, 1), (35, 23, 1, 10), (26, 33, 9, 1)];
    let (mut img, cell) = cell_with(&[&bowl[..], &[(26, 16, 1, 6)]].concat(), [20; 3], black);
    for x in 26..36 {
        img.put_pixel(x, 15, image::Rgb([60; 3]));
    }
    let g = cell_glyph(&img, &cell, black);
    assert!(
        g.as_ref()
            .is_some_and(|g| !g.doubtful && g.bbox.y == 15.0 && g.height() == 19.0),
        "{:?}",
        g.map(|g| g.bbox)
    );
    // The same pieces all faint, no stroke over the ink contrast (an LCD's unlit
    // segments): the cell is empty.
    let (img, cell) = cell_with(
        &[&bowl[..], &[(26, 16, 1, 6), (26, 15, 10, 1)]].concat(),
        [20; 3],
        black,
    );
    assert!(cell_glyph(&img, &cell, black).is_none());
}
