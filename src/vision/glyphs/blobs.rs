//! A cell's blobs of ink, and which of them make its digit.

/// Blobs this share of the cell height apart, one above the other, are one glyph.
const STACK_GAP: f32 = 0.07;
/// ... when the tallest blob is at least this share of the cell height: a part of a
/// given (a 5's bowl), taller than any pencil mark (at most a fifth of the cell).
const STACK_MIN_PART: f32 = 0.23;

/// A connected blob of ink in a cell, in cell-local pixel coordinates (inclusive box).
#[derive(Debug, Clone, Copy)]
pub(super) struct Blob {
    pub(super) x0: u32,
    pub(super) y0: u32,
    pub(super) x1: u32,
    pub(super) y1: u32,
}

impl Blob {
    pub(super) fn inside(&self, g: &Blob) -> bool {
        self.x0 >= g.x0 && self.x1 <= g.x1 && self.y0 >= g.y0 && self.y1 <= g.y1
    }

    /// The box holding both blobs.
    pub(super) fn union(&self, b: &Blob) -> Blob {
        Blob {
            x0: self.x0.min(b.x0),
            y0: self.y0.min(b.y0),
            x1: self.x1.max(b.x1),
            y1: self.y1.max(b.y1),
        }
    }

    /// Whether the blob could be a pencil mark in a box `w` by `h`: more than a speck,
    /// and centred at least [`MARK_INSET`] of the box in from its sides (marks stand
    /// in three rows and columns a sixth of the cell in; grid lines' fringes at the
    /// edge).
    pub(super) fn mark_like(&self, w: u32, h: u32) -> bool {
        let (bw, bh) = (self.x1 - self.x0 + 1, self.y1 - self.y0 + 1);
        let (cx, cy) = (
            (self.x0 + self.x1 + 1) as f32 / 2.0,
            (self.y0 + self.y1 + 1) as f32 / 2.0,
        );
        let inside = |c: f32, side: u32| {
            c >= MARK_INSET * side as f32 && c <= (1.0 - MARK_INSET) * side as f32
        };
        bw * bh >= 3 && inside(cx, w) && inside(cy, h)
    }

    /// Whether the blob is a speck in a cell `h` high: under [`SPECK`] of it both ways.
    /// No pencil mark is (they are 0.15-0.3 of a cell): a dot beside a digit of a
    /// novelty face (7SEGGCHAN's eyes beside its 1, 0.05-0.07 of the cell), or noise.
    pub(super) fn speck(&self, h: u32) -> bool {
        let side = (self.x1 - self.x0).max(self.y1 - self.y0) + 1;
        (side as f32) < SPECK * h as f32
    }
}

const MARK_INSET: f32 = 0.125;

/// A blob below this share of the cell's height both ways is a speck ([`Blob::speck`]).
const SPECK: f32 = 0.1;

/// The digit's blob, and for a dot matrix the gap between its dots: the tallest blob with those that
/// overlap it (a digit broken by thin strokes) or stand on it with a gap of a pixel or
/// two (a 5's flag, a 7's bar cut off by JPEG; pencil marks stand a sixth of the cell
/// apart). With no tall blob, a cluster of dots close together (a dot-matrix digit).
pub(super) fn digit_blob(blobs: &[Blob], h: u32) -> Option<(Blob, Option<u32>)> {
    let tallest = *blobs.iter().max_by_key(|b| (b.y1 - b.y0, b.x1 - b.x0))?;
    let tall = |b: &Blob| (b.y1 - b.y0 + 1) as f32 >= STACK_MIN_PART * h as f32;
    // Two upright bars one on the other are taller than any one blob of a small
    // segment digit whose right bars stand apart.
    let tallest = stacked_uprights(blobs, stack_gap(h))
        .filter(|s| s.y1 - s.y0 > tallest.y1 - tallest.y0)
        .unwrap_or(tallest);
    let tall_enough = tall(&tallest);
    let gap = if tall_enough { stack_gap(h) } else { 0 };
    let dotted = if tall_enough {
        None
    } else {
        let boxes: Vec<[u32; 4]> = blobs.iter().map(|b| [b.x0, b.y0, b.x1, b.y1]).collect();
        super::dots::cluster(&boxes, h)
    };
    let mut g = dotted.map_or(tallest, |([x0, y0, x1, y1], _)| Blob { x0, y0, x1, y1 });
    loop {
        let before = (g.x0, g.y0, g.x1, g.y1);
        for b in blobs {
            let overlap_x = b.x0 <= g.x1 && b.x1 >= g.x0;
            let overlap_y = b.y0 <= g.y1 + gap && b.y1 + gap >= g.y0;
            // A stencil digit's pieces stand side by side, within its height, each a
            // good part of it (not a fringe's or bevel's thin streak), with up to the
            // gap's blank columns between (a fourteen-segment 4's halves, its middle
            // bar split).
            let beside = b.x1 >= b.x0 + 2
                && 3 * (b.y1 - b.y0) >= g.y1 - g.y0
                && b.x0 <= g.x1 + gap + 1
                && b.x1 + gap + 1 >= g.x0
                && b.y0 + gap >= g.y0
                && b.y1 <= g.y1 + gap;
            // A seven-segment digit's bars stand apart at its corners: a bar (three
            // times as long as thick, 2 px thick or more, a quarter of the glyph long)
            // within the gap of the glyph both ways is one of its segments. A streak a
            // pixel thin beside a digit is a bevel's or a fringe's.
            let (bw, bh) = (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
            let bar =
                bw.max(bh) >= 3 * bw.min(bh) && bw.min(bh) >= 2 && 4 * bw.max(bh) > g.y1 - g.y0;
            let segment = tall_enough
                && bar
                && b.x0 <= g.x1 + gap
                && b.x1 + gap >= g.x0
                && b.y0 <= g.y1 + gap
                && b.y1 + gap >= g.y0;
            // A fourteen-segment digit's middle bar is two dashes, each half as long
            // as a seven-segment one: a lying dash (half again as long as thick, as a
            // bold face's pointed dash is; a sixth of the glyph long or more) in its
            // middle third and within the gap beside it is one of them (it carries a
            // 4's upright, standing apart, to the glyph).
            let middle = (g.y0 + g.y1 - (g.y1 - g.y0) / 3)..=(g.y0 + g.y1 + (g.y1 - g.y0) / 3);
            let dash = tall_enough
                && 2 * bw >= 3 * bh
                && 6 * bw > g.y1 - g.y0
                && middle.contains(&(b.y0 + b.y1))
                && b.x0 <= g.x1 + gap
                && b.x1 + gap >= g.x0;
            if (overlap_x && overlap_y) || beside || segment || dash {
                g = Blob {
                    x0: g.x0.min(b.x0),
                    y0: g.y0.min(b.y0),
                    x1: g.x1.max(b.x1),
                    y1: g.y1.max(b.y1),
                };
            }
        }
        if before == (g.x0, g.y0, g.x1, g.y1) {
            break;
        }
    }
    Some((g, dotted.map(|(_, gap)| gap)))
}

/// The gap within which blobs stacked in a cell `h` px tall are one glyph.
pub(super) fn stack_gap(h: u32) -> u32 {
    ((h as f32 * STACK_GAP) as u32).max(2)
}

/// The tallest pair of upright bars (three times as tall as wide, 2 px wide or more)
/// one on the other within `gap`: a segment digit whose right bars stand apart
/// (DSEG14 Classic Mini's 4 at 56 px: its b and c, 15 px each, beside a 17 px blob of
/// its f and a middle dash, which alone was taken for a pencil mark). Pencil marks
/// stand further apart.
fn stacked_uprights(blobs: &[Blob], gap: u32) -> Option<Blob> {
    let upright = |b: &&Blob| {
        let (bw, bh) = (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
        bh >= 3 * bw && bw >= 2
    };
    let bars: Vec<&Blob> = blobs.iter().filter(upright).collect();
    let mut best: Option<Blob> = None;
    for (k, a) in bars.iter().enumerate() {
        for b in &bars[k + 1..] {
            let (top, low) = if a.y0 <= b.y0 { (a, b) } else { (b, a) };
            let over = a.x0 <= b.x1 && b.x0 <= a.x1;
            if !over || low.y0 < top.y1 || low.y0 > top.y1 + gap {
                continue;
            }
            let both = Blob {
                x0: a.x0.min(b.x0),
                y0: top.y0,
                x1: a.x1.max(b.x1),
                y1: low.y1.max(top.y1),
            };
            if best.is_none_or(|o| both.y1 - both.y0 > o.y1 - o.y0) {
                best = Some(both);
            }
        }
    }
    best
}

/// True for a line remnant inside a cell's box: a streak a pixel or two thin (at most
/// [`STREAK_THIN`] of the cell), along at least [`STREAK_LONG`] of a side and within
/// [`STREAK_BAND`] of it (a bevel's edge or a colour fringe beside a grid line, where
/// the box starts a pixel further out). A digit, even a 1, stands in the middle.
pub(super) fn edge_streak(b: &Blob, w: u32, h: u32) -> bool {
    let (bw, bh) = ((b.x1 - b.x0 + 1) as f32, (b.y1 - b.y0 + 1) as f32);
    let (w, h) = (w as f32, h as f32);
    let thin = |t: f32, side: f32| t <= (STREAK_THIN * side).max(2.0);
    let near = |lo: u32, hi: u32, side: f32| {
        (hi as f32) < STREAK_BAND * side || lo as f32 > (1.0 - STREAK_BAND) * side - 1.0
    };
    let upright = thin(bw, w) && bh >= STREAK_LONG * h && near(b.x0, b.x1, w);
    let lying = thin(bh, h) && bw >= STREAK_LONG * w && near(b.y0, b.y1, h);
    upright || lying
}

const STREAK_THIN: f32 = 0.08;
const STREAK_LONG: f32 = 0.5;
const STREAK_BAND: f32 = 0.2;
