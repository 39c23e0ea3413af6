//! Digits drawn as outlines only (hollow letters): the ink is the edge of each stroke,
//! and the strokes' insides are holes as large as the digit. Neither reader knows such
//! digits; with the insides of the strokes filled they are ordinary bold digits. The
//! digit's own counters (the holes of a 0, 4, 6, 8 or 9) stay open: they are compact,
//! where a stroke's inside is a ring round a counter, or a thin ring or bar of about one
//! width along the stroke; and a counter lies inside a hollow stroke, not one line from
//! the outside. A hole that is neither but lies inside an odd number of lines seen every
//! way is a piece of a stroke's inside the outline pinched off (the even-odd rule); a
//! hollow digit with a hole that fits none of these is doubtful.

use image::{GrayImage, Luma};
use imageproc::distance_transform::euclidean_squared_distance_transform;

use super::components::{Flood, Neighbours};

/// Ink strength from which a pixel counts as ink: a quarter, so that an outline one
/// pixel thin, which anti-aliasing greys where it runs between pixels, stays closed.
const INK: u8 = 64;
/// An outline digit is at least this many pixels high: in a smaller one the two lines of
/// a stroke and the inside between them blur into one, and a small solid digit's grey
/// edge would pass for an outline.
const MIN_HEIGHT: u32 = 14;
/// A hole is a stroke's inside when it covers less than this share of its box (a ring
/// along the digit's edge)...
const MAX_RING_FILL: f32 = 0.4;
/// ... or when it is at most this share of the glyph's height thick (its area over its
/// longer side: a 1's hollow stem).
const MAX_STROKE_THICKNESS: f32 = 0.1;
/// ... or when it is at least this many times as long as it is wide: the inside of a
/// stroke runs the stroke's length at the stroke's width, where a digit's counter
/// (a 4's triangle, a 6's, 8's or 9's loop) is at most about three times as long.
const MIN_STROKE_ELONGATION: f32 = 5.0;
/// The filled insides add at least this share to the ink: an outline digit, not a solid
/// one with a speck of background inside a stroke.
const MIN_ADDED: f32 = 0.3;
/// ... or this share where every hole is a stroke's inside (no counter to leave open):
/// a bold outline's two lines lie close, its strokes' insides a pixel or two wide
/// (B612 Bold's 3 at 30 px: 20 pixels inside 80 of ink).
const MIN_ADDED_STROKES_ONLY: f32 = 0.2;

/// What a glyph is to the outline model.
pub enum Outline {
    /// An outline digit: its ink (255 = full ink) with the insides of its strokes filled.
    Filled(GrayImage),
    /// An outline digit with a hole that may be a counter or a stroke's inside: read as
    /// it is, its hollow strokes pass for loops (a serif 3 for an 8); doubtful.
    Unsure,
    /// Not an outline digit.
    No,
}

/// The glyph's ink (255 = full ink) seen as an outline digit.
pub fn filled(ink: &GrayImage) -> Outline {
    let (w, h) = ink.dimensions();
    if w < 3 || h < MIN_HEIGHT {
        return Outline::No;
    }
    let background = |x: u32, y: u32| ink.get_pixel(x, y).0[0] < INK;
    let outside = outside_of(ink);
    // The readers see the filled digit on a clean outside: the faint grey left there
    // (an outline's anti-aliased edge) would shut a narrow mouth, a 6 read as an 8.
    let mut out = ink.clone();
    for (p, &o) in out.pixels_mut().zip(&outside) {
        if o {
            p.0[0] = 0;
        }
    }
    // Every other background component is a hole.
    let mut added = 0usize;
    let mut counters = Vec::new();
    let mut stroke = vec![false; (w * h) as usize];
    let inside = |x: u32, y: u32| background(x, y) && !outside[(y * w + x) as usize];
    let mut holes = Flood::new(w, h, Neighbours::Four, inside);
    while holes.next_component().is_some() {
        let mut pixels = Vec::new();
        holes.fill(|x, y| pixels.push((x, y)));
        if is_stroke_inside(&pixels, h) {
            added += pixels.len();
            for &(x, y) in &pixels {
                out.put_pixel(x, y, Luma([255]));
                stroke[(y * w + x) as usize] = true;
            }
        } else {
            counters.push(pixels);
        }
    }
    let inked = ink.pixels().filter(|p| p.0[0] >= INK).count();
    let min_added = if counters.is_empty() {
        MIN_ADDED_STROKES_ONLY
    } else {
        MIN_ADDED
    };
    if (added as f32) < min_added * inked as f32 || added == 0 {
        return Outline::No;
    }
    let line = line_width(ink);
    // A hole not inside a hollow stroke is a piece of a stroke's inside the outline
    // pinched off (at a serif's hairline, a ball terminal) where an odd number of lines
    // part it from the outside every way: filled, as the even-odd rule fills a glyph.
    // Otherwise it may be either.
    for pixels in counters
        .iter()
        .filter(|pixels| !inside_a_stroke(pixels, w, h, &stroke, &outside, line))
    {
        if odd_rays(ink, pixels) < MIN_ODD_RAYS {
            return Outline::Unsure;
        }
        for &(x, y) in pixels {
            out.put_pixel(x, y, Luma([255]));
        }
    }
    Outline::Filled(out)
}

/// A hole lies inside an odd number of an outline's lines when at least this many of
/// the eight rays from it say so (a ray through a pinch, where two lines touch, counts
/// one line for two: C059's hollow 6 and 7 at 40-64 px, 6 and 7 of 8 rays).
const MIN_ODD_RAYS: usize = 6;

/// How many of the eight rays from a hole (its pixels) to the glyph box's edge cross an
/// odd number of ink runs: from its pixel nearest its centre, along the row, the column
/// and the diagonals (a diagonal steps a column and a row in turn, so that it cannot
/// slip between the pixels of a line).
fn odd_rays(ink: &GrayImage, pixels: &[(u32, u32)]) -> usize {
    let n = pixels.len() as f32;
    let (cx, cy) = pixels.iter().fold((0.0, 0.0), |(sx, sy), &(x, y)| {
        (sx + x as f32 / n, sy + y as f32 / n)
    });
    let &(x0, y0) = pixels
        .iter()
        .min_by(|a, b| {
            let d = |p: &(u32, u32)| (p.0 as f32 - cx).powi(2) + (p.1 as f32 - cy).powi(2);
            d(a).total_cmp(&d(b))
        })
        .expect("a hole has pixels");
    let (w, h) = (ink.width() as i64, ink.height() as i64);
    let on = |x: i64, y: i64| ink.get_pixel(x as u32, y as u32).0[0] >= INK;
    let mut odd = 0;
    for (dx, dy) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (mut x, mut y) = (x0 as i64, y0 as i64);
        let (mut runs, mut in_ink) = (0, false);
        let mut visit = |x: i64, y: i64| {
            let now = on(x, y);
            runs += (now && !in_ink) as usize;
            in_ink = now;
        };
        loop {
            if dx != 0 {
                x += dx;
                if x < 0 || x >= w {
                    break;
                }
                visit(x, y);
            }
            if dy != 0 {
                y += dy;
                if y < 0 || y >= h {
                    break;
                }
                visit(x, y);
            }
        }
        odd += runs % 2;
    }
    odd
}

/// Per pixel (row-major): background reached from the glyph box's edge, the outside of
/// the digit.
fn outside_of(ink: &GrayImage) -> Vec<bool> {
    let (w, h) = ink.dimensions();
    let mut outside = vec![false; (w * h) as usize];
    let mut flood = Flood::new(w, h, Neighbours::Four, |x, y| {
        ink.get_pixel(x, y).0[0] < INK
    });
    for x in 0..w {
        flood.seed(x, 0);
        flood.seed(x, h - 1);
    }
    for y in 0..h {
        flood.seed(0, y);
        flood.seed(w - 1, y);
    }
    flood.fill(|x, y| outside[(y * w + x) as usize] = true);
    outside
}

/// The outline's width in pixels: twice its ink over the ink pixels on its edges (a
/// line as long as its two edges), at least 1.
fn line_width(ink: &GrayImage) -> f32 {
    let (w, h) = ink.dimensions();
    let on = |x: u32, y: u32| ink.get_pixel(x, y).0[0] >= INK;
    let (mut inked, mut edge) = (0usize, 0usize);
    for y in 0..h {
        for x in 0..w {
            if !on(x, y) {
                continue;
            }
            inked += 1;
            let by_background = x == 0
                || y == 0
                || x + 1 == w
                || y + 1 == h
                || !on(x - 1, y)
                || !on(x + 1, y)
                || !on(x, y - 1)
                || !on(x, y + 1);
            edge += by_background as usize;
        }
    }
    (2.0 * inked as f32 / edge.max(1) as f32).max(1.0)
}

/// True when a counter (its pixels) of an outline digit lies inside a hollow stroke:
/// a hollow digit's counter has a line of its own round it, and beyond that line the
/// stroke's inside (`stroke`, filled), then the digit's outer line; a hole with the
/// outline's one line between it and the `outside` is itself the inside of a stroke the
/// outline pinches shut (a serif 3's ball terminal), which left open reads as a loop.
/// Looked at in the band a `line` and two pixels wide round the counter: more of it
/// filled than outside.
fn inside_a_stroke(
    pixels: &[(u32, u32)],
    w: u32,
    h: u32,
    stroke: &[bool],
    outside: &[bool],
    line: f32,
) -> bool {
    let mut mask = GrayImage::new(w, h);
    for &(x, y) in pixels {
        mask.put_pixel(x, y, Luma([255]));
    }
    let d2 = euclidean_squared_distance_transform(&mask);
    let reach = (line + 2.0).powi(2) as f64;
    let (mut filled, mut outer) = (0usize, 0usize);
    for (k, d) in d2.pixels().enumerate() {
        if d.0[0] == 0.0 || d.0[0] > reach {
            continue;
        }
        outer += outside[k] as usize;
        filled += stroke[k] as usize;
    }
    filled > outer
}

/// True when a hole (its pixels) in a glyph `h` pixels high is the inside of a stroke:
/// a ring (little of its box, or around more of the glyph: the hollow loop of a 9 round
/// its counter) or a long thin region of about one width (a hollow 1, 2, 3, 5 or 7), not
/// a digit's compact counter.
fn is_stroke_inside(pixels: &[(u32, u32)], h: u32) -> bool {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for &(x, y) in pixels {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    let (bw, bh) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let area = pixels.len() as f32;
    if area < MAX_RING_FILL * bw * bh || area / bw.max(bh) <= MAX_STROKE_THICKNESS * h as f32 {
        return true;
    }
    // The hole in its box with a pixel's margin (255 where it is not the hole).
    let (mw, mh) = (x1 - x0 + 3, y1 - y0 + 3);
    let mut mask = GrayImage::from_pixel(mw, mh, Luma([255]));
    for &(x, y) in pixels {
        mask.put_pixel(x - x0 + 1, y - y0 + 1, Luma([0]));
    }
    encloses(&mask) || elongation(&mask, area) >= MIN_STROKE_ELONGATION
}

/// True when the hole (0 in `mask`, with a margin of 255 all round) encloses something
/// that is not the hole: a ring.
fn encloses(mask: &GrayImage) -> bool {
    let (w, h) = mask.dimensions();
    let not_hole = |x: u32, y: u32| mask.get_pixel(x, y).0[0] != 0;
    let mut flood = Flood::new(w, h, Neighbours::Four, not_hole);
    flood.seed(0, 0);
    let mut reached = 0usize;
    flood.fill(|_, _| reached += 1);
    let others = mask.pixels().filter(|p| p.0[0] != 0).count();
    reached < others
}

/// How many times as long as it is wide a hole is (0 in `mask`, `area` pixels): its area
/// over the square of its greatest width (a pixel less than twice the deepest pixel's
/// distance from its edge, a pixel beside the edge being 1 from it: a band 3 px wide is
/// 2 deep).
fn elongation(mask: &GrayImage, area: f32) -> f32 {
    let d2 = euclidean_squared_distance_transform(mask);
    let deepest = d2.pixels().map(|p| p.0[0]).fold(0.0f64, f64::max).sqrt() as f32;
    area / (2.0 * deepest - 1.0).max(1.0).powi(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square glyph `n` pixels a side: ink on the squares' edges at the given insets.
    fn squares(n: u32, edges: &[u32]) -> GrayImage {
        GrayImage::from_fn(n, n, |x, y| {
            let on = edges.iter().any(|&e| {
                let (lo, hi) = (e, n - 1 - e);
                (x == lo || x == hi || y == lo || y == hi)
                    && (lo..=hi).contains(&x)
                    && (lo..=hi).contains(&y)
            });
            Luma([if on { 255 } else { 0 }])
        })
    }

    #[test]
    fn a_hollow_digit_is_filled_and_a_solid_one_with_a_counter_is_not() {
        // A hollow "0": the outer and inner edges of its stroke (insets 0 and 2), the
        // stroke's inside between them, the counter inside the inner edge.
        let hollow = squares(16, &[0, 2]);
        let Outline::Filled(solid) = filled(&hollow) else {
            panic!("an outline digit")
        };
        assert_eq!(
            solid.get_pixel(1, 5).0[0],
            255,
            "the stroke's inside is ink"
        );
        assert_eq!(solid.get_pixel(8, 8).0[0], 0, "the counter stays open");
        // A solid "0" with the same counter (a stroke 3 px wide): nothing to fill.
        let zero = squares(16, &[0, 1, 2]);
        assert!(matches!(filled(&zero), Outline::No));
    }

    #[test]
    fn a_bold_hollow_loop_and_a_hollow_stem_are_strokes() {
        // A bold hollow "0": its stroke's inside 6 px wide covers most of its box (a
        // 9's loop round its counter), yet it is a ring round the counter.
        let loop_ = squares(24, &[0, 7]);
        let Outline::Filled(solid) = filled(&loop_) else {
            panic!("a hollow loop is an outline digit")
        };
        assert_eq!(solid.get_pixel(3, 12).0[0], 255, "the loop's inside is ink");
        assert_eq!(solid.get_pixel(12, 12).0[0], 0, "the counter stays open");
        // A hollow "1": an outlined bar 6 px wide and 30 high; its inside, 4 px wide,
        // fills its own box, yet runs seven times as long as it is wide.
        let stem = GrayImage::from_fn(6, 30, |x, y| {
            Luma([if x == 0 || x == 5 || y == 0 || y == 29 {
                255
            } else {
                0
            }])
        });
        let Outline::Filled(solid) = filled(&stem) else {
            panic!("a hollow stem is an outline digit")
        };
        assert!(solid.pixels().all(|p| p.0[0] == 255), "the stem is solid");
    }

    #[test]
    fn a_hole_one_line_from_the_outside_beside_a_hollow_stroke_is_doubtful() {
        // A hollow bar (the stroke) with a small closed loop hanging off its side
        // whose hole is neither long nor round a counter, one line from the outside:
        // a ball terminal the outline pinched shut, or a counter; left open it reads
        // as a loop.
        let glyph = GrayImage::from_fn(16, 30, |x, y| {
            let bar = (x == 0 || x == 5) && y <= 29 || (y == 0 || y == 29) && x <= 5;
            let ball = (x == 5 || x == 15) && (10..=20).contains(&y)
                || (y == 10 || y == 20) && (5..=15).contains(&x);
            Luma([if bar || ball { 255 } else { 0 }])
        });
        assert!(matches!(filled(&glyph), Outline::Unsure));
    }

    #[test]
    fn a_bold_outline_whose_only_holes_are_thin_stroke_insides_is_filled() {
        // A hollow stem drawn with lines 3 px thick, 8 px wide and 30 high: its inside,
        // 2 px wide, is 52 pixels to 188 of ink (0.28), and the glyph has no counter.
        let line = |x: u32, y: u32| !((3..5).contains(&x) && (3..29).contains(&y));
        let stem = GrayImage::from_fn(8, 32, |x, y| {
            Luma([if y < 30 && line(x, y) { 255 } else { 0 }])
        });
        let Outline::Filled(solid) = filled(&stem) else {
            panic!("an outline digit")
        };
        assert_eq!(
            solid.get_pixel(3, 15).0[0],
            255,
            "the stroke's inside is ink"
        );
        // With a counter beside it (a loop of one line round a compact hole), the thin
        // insides are not enough: not an outline digit.
        let looped = GrayImage::from_fn(20, 32, |x, y| {
            let ring = (10..20).contains(&x)
                && (10..20).contains(&y)
                && !((11..19).contains(&x) && (11..19).contains(&y));
            Luma([if x < 8 && y < 30 && line(x, y) || ring {
                255
            } else {
                0
            }])
        });
        assert!(matches!(filled(&looped), Outline::No));
    }

    #[test]
    fn a_piece_of_a_stroke_pinched_off_inside_one_line_every_way_is_filled() {
        // A hollow stem (lines at x 1 and 8, y 1 and 42, in a box with a pixel's margin)
        // pinched shut at y 11, where its two lines touch: the piece above is compact,
        // not inside a hollow stroke, and one line from the outside every way but down
        // (7 of 8 rays). Left open it would read as a loop; it is ink.
        let stem = GrayImage::from_fn(10, 44, |x, y| {
            let line = (x == 1 || x == 8) && (1..=42).contains(&y)
                || (y == 1 || y == 11 || y == 42) && (1..=8).contains(&x);
            Luma([if line { 255 } else { 0 }])
        });
        let Outline::Filled(solid) = filled(&stem) else {
            panic!("an outline digit")
        };
        assert_eq!(
            solid.get_pixel(4, 6).0[0],
            255,
            "the pinched-off piece is ink"
        );
        assert_eq!(
            solid.get_pixel(4, 30).0[0],
            255,
            "the stroke's inside is ink"
        );
    }
}
