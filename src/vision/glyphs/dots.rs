//! Digits drawn as a dot matrix (an LED board, a receipt printer's font): each dot is a
//! blob of its own, none of them tall, so the usual "tallest blob" finds one dot and the
//! cell would pass as empty. Here many small blobs close together make one glyph, and
//! its dots are joined into strokes before the readers see it.

use image::{GrayImage, Luma};

/// Dots of one digit stand at most this share of the cell height apart (at least 2 px).
const DOT_GAP: f32 = 0.05;
/// A dot is at most this share of the cell height each way (pencil marks, the smallest
/// marks that are not digits, are 0.15 of a cell or more: never dots).
const MAX_DOT: f32 = 0.1;
/// A dotted digit has at least this many dots (a "1" in a 5x7 matrix has 7 or more).
const MIN_DOTS: usize = 7;
/// ... and a matrix of dots spaced by their own size at least this many: a bold 1 seen
/// through a screen of dots a tenth of the cell apart is a column of four, and its
/// flag's dots are cut (Nimbus Sans Bold's 1 in 110 px cells: taken for pencil marks,
/// the cell was read as empty). Such a column is a third of the cell high, all its dots
/// of one size: pencil marks are neither.
const MIN_SPACED_DOTS: usize = 4;

/// The gap in pixels between dots of one digit, in a cell `h` pixels high.
pub fn gap(h: u32) -> u32 {
    ((h as f32 * DOT_GAP).round() as u32).max(2)
}

/// A matrix's dots stand apart by up to this many times their own size (a dot matrix
/// is drawn as dots about a dot apart; small digits in a big cell have dots farther
/// apart than [`DOT_GAP`] of the cell).
const GAP_PER_DOT: f32 = 1.5;
/// Dots joined by their size (not the cell's) make a digit only when the cluster is at
/// least this share of the cell high (pencil marks are at most a quarter of it).
const MIN_SPACED_HEIGHT: f32 = 0.3;

/// The box (x0, y0, x1, y1, inclusive) of the tallest cluster of dots among the blob
/// boxes of a cell `h` pixels high, and the gap its dots were joined across: blobs no
/// bigger than a dot, each within the gap of another. The gap is [`gap`], else, when
/// that finds no cluster, [`GAP_PER_DOT`] times the dots' median size, for dots of
/// that size each way (within a pixel) in a cluster [`MIN_SPACED_HEIGHT`] of the cell
/// high. None when no cluster has [`MIN_DOTS`] dots.
pub fn cluster(blobs: &[[u32; 4]], h: u32) -> Option<([u32; 4], u32)> {
    let max_dot = (MAX_DOT * h as f32).max(2.0) as u32;
    let dots: Vec<[u32; 4]> = blobs
        .iter()
        .copied()
        .filter(|b| b[2] - b[0] < max_dot && b[3] - b[1] < max_dot)
        .collect();
    let mut sizes: Vec<u32> = dots
        .iter()
        .map(|b| (b[2] - b[0]).max(b[3] - b[1]) + 1)
        .collect();
    sizes.sort_unstable();
    let median = sizes.get(sizes.len() / 2).copied().unwrap_or(0);
    let by_size = (median as f32 * GAP_PER_DOT).round() as u32;
    let by_cell = gap(h);
    cluster_within(&dots, by_cell, MIN_DOTS)
        .map(|b| (b, by_cell))
        .or_else(|| {
            // A matrix's dots are all one size: a JPEG's fragments of pencil marks vary.
            // A dot the digit's edge cuts keeps its size one way and half of it the
            // other (the dots of a bold 1's stem, narrower than the screen's pitch).
            let alike: Vec<[u32; 4]> = dots
                .iter()
                .copied()
                .filter(|b| {
                    let (w, h) = (b[2] - b[0] + 1, b[3] - b[1] + 1);
                    w.max(h).abs_diff(median) <= 1 && 2 * w.min(h) >= median
                })
                .collect();
            let b =
                cluster_within(&alike, by_size, MIN_SPACED_DOTS).filter(|_| by_size > by_cell)?;
            // Joined this far apart, only a digit-tall cluster counts: the fragments
            // of one pencil mark in a JPEG join too, and are not as tall.
            ((b[3] - b[1] + 1) as f32 >= MIN_SPACED_HEIGHT * h as f32).then_some((b, by_size))
        })
}

/// The box of the tallest cluster of `min` or more `dots`, each within `gap` of
/// another.
fn cluster_within(dots: &[[u32; 4]], gap: u32, min: usize) -> Option<[u32; 4]> {
    clusters(dots, gap)
        .into_iter()
        .filter(|&(_, n)| n >= min)
        .map(|(b, _)| b)
        .max_by_key(|b| (b[3] - b[1], b[2] - b[0]))
}

/// The clusters `boxes` make (x0, y0, x1, y1, inclusive), each box within `gap` of
/// another of its cluster: each cluster's box and how many boxes it holds, in the
/// order of their first box.
pub(super) fn clusters(boxes: &[[u32; 4]], gap: u32) -> Vec<([u32; 4], usize)> {
    let mut group: Vec<usize> = (0..boxes.len()).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            if near(&boxes[i], &boxes[j], gap) {
                let (a, b) = (root(&mut group, i), root(&mut group, j));
                group[a] = b;
            }
        }
    }
    let mut roots: Vec<usize> = Vec::new();
    let mut out: Vec<([u32; 4], usize)> = Vec::new();
    for (i, b) in boxes.iter().enumerate() {
        let r = root(&mut group, i);
        match roots.iter().position(|&k| k == r) {
            Some(c) => {
                let (g, n) = &mut out[c];
                *g = [
                    g[0].min(b[0]),
                    g[1].min(b[1]),
                    g[2].max(b[2]),
                    g[3].max(b[3]),
                ];
                *n += 1;
            }
            None => {
                roots.push(r);
                out.push((*b, 1));
            }
        }
    }
    out
}

fn near(a: &[u32; 4], b: &[u32; 4], gap: u32) -> bool {
    let dx = b[0].saturating_sub(a[2]).max(a[0].saturating_sub(b[2]));
    let dy = b[1].saturating_sub(a[3]).max(a[1].saturating_sub(b[3]));
    dx <= gap && dy <= gap
}

/// The ink with gaps up to `gap` pixels closed (a square max filter, then a min filter,
/// of radius gap/2 rounded up): dots become strokes of the digit's own outline.
pub fn join(ink: &GrayImage, gap: u32) -> GrayImage {
    let r = gap.div_ceil(2);
    let grown = filter(ink, r, u8::max, 0);
    filter(&grown, r, u8::min, 255)
}

/// A square `r`-radius filter combining pixels with `pick` (outside the image: `edge`).
fn filter(img: &GrayImage, r: u32, pick: fn(u8, u8) -> u8, edge: u8) -> GrayImage {
    let (w, h) = img.dimensions();
    let at = |x: i64, y: i64| {
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            edge
        } else {
            img.get_pixel(x as u32, y as u32).0[0]
        }
    };
    let r = r as i64;
    let rows = GrayImage::from_fn(w, h, |x, y| {
        Luma([(-r..=r).fold(at(x as i64, y as i64), |m, d| {
            pick(m, at(x as i64 + d, y as i64))
        })])
    });
    let at_rows = |x: u32, y: i64| {
        if y < 0 || y >= h as i64 {
            edge
        } else {
            rows.get_pixel(x, y as u32).0[0]
        }
    };
    GrayImage::from_fn(w, h, |x, y| {
        Luma([(-r..=r).fold(at_rows(x, y as i64), |m, d| {
            pick(m, at_rows(x, y as i64 + d))
        })])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_column_of_dots_is_one_glyph_but_pencil_marks_are_not_dots() {
        // A "1" of 8 dots, 2 px each, 2 px apart, in a 60 px cell.
        let dots: Vec<[u32; 4]> = (0..8).map(|k| [30, 10 + 4 * k, 31, 11 + 4 * k]).collect();
        assert_eq!(cluster(&dots, 60).map(|c| c.0), Some([30, 10, 31, 39]));
        // Nine pencil marks (9 px high, 10 px apart) are not dots.
        let marks: Vec<[u32; 4]> = (0..9)
            .map(|k| {
                [
                    4 + 19 * (k % 3),
                    4 + 19 * (k / 3),
                    10 + 19 * (k % 3),
                    13 + 19 * (k / 3),
                ]
            })
            .collect();
        assert_eq!(cluster(&marks, 60), None);
    }

    #[test]
    fn dots_farther_apart_than_a_twentieth_of_the_cell_still_make_one_glyph() {
        // A "1" of 7 dots, 2 px each at a 4 px pitch, in a 40 px cell: farther apart
        // than a twentieth of the cell (2 px), but about a dot apart.
        let dots: Vec<[u32; 4]> = (0..7).map(|k| [20, 8 + 4 * k, 21, 9 + 4 * k]).collect();
        assert_eq!(cluster(&dots, 40), Some(([20, 8, 21, 33], 3)));
        // Specks a diagonal step of twice their size apart are not a digit.
        let specks: Vec<[u32; 4]> = (0..7)
            .map(|k| [2 + 5 * k, 1 + 5 * k, 3 + 5 * k, 2 + 5 * k])
            .collect();
        assert_eq!(cluster(&specks, 40), None);
    }

    #[test]
    fn a_column_of_four_dots_a_third_of_the_cell_high_is_a_one() {
        // Nimbus Sans Bold's 1 through a screen of dots at 110 px: four dots, the stem
        // narrower than the pitch cuts them to 8x10, and a piece of its flag.
        let column: Vec<[u32; 4]> = (1..4)
            .map(|k| [52, 28 + 11 * k, 59, 37 + 11 * k])
            .chain([[50, 28, 59, 37], [40, 30, 48, 36], [54, 22, 58, 26]])
            .collect();
        assert_eq!(cluster(&column, 110).map(|c| c.0), Some([40, 28, 59, 70]));
        // Three dots are not one.
        assert_eq!(cluster(&column[..3], 110), None);
    }

    #[test]
    fn joined_dots_make_a_solid_stroke_no_wider_than_the_dots() {
        let mut ink = GrayImage::new(5, 11);
        for k in 0..4 {
            ink.put_pixel(2, 1 + 3 * k, Luma([255]));
        }
        let joined = join(&ink, 2);
        for y in 1..=10 {
            assert_eq!(joined.get_pixel(2, y).0[0], 255, "row {y}");
        }
        assert_eq!(joined.get_pixel(0, 5).0[0], 0);
    }
}
