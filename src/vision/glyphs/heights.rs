//! Givens told from pencil marks by height: the glyphs of a grid's cells form one
//! height cluster (givens) or two (pencil marks below), and a glyph below the givens is
//! a pencil mark only where there are many.

use super::Glyph;

/// Two height clusters (pencil marks, givens) are this ratio apart at least. Pencil
/// marks are 0.3-0.6 of a given's height (ratios 1.55 to 2 in the fixtures); within one
/// cluster of 5-7 px digits, a pixel of blur either way makes ratios up to 1.4.
const HEIGHT_GAP: f32 = 1.45;
/// Below the givens, at least this many glyphs make a cluster of pencil marks.
const MIN_MARKS: usize = 3;
/// The givens' cluster has at least this many glyphs (a unique puzzle has 17 givens).
const MIN_GIVENS: usize = 17;
/// ... and at least this share of the cell height (below it, it is a speck or a mark).
const MIN_GIVEN_OF_CELL: f32 = 0.22;

/// The height a glyph needs to count as a given. Glyph heights form one cluster
/// (givens only) or two (pencil marks below givens, 0.3-0.6 of their height): the
/// threshold goes in the widest gap between sorted heights, when that gap is a ratio of
/// at least [`HEIGHT_GAP`] and leaves at least [`MIN_GIVENS`] glyphs above it (a puzzle
/// has 17 givens or more; one taller blob where a digit touches a mark must not set the
/// bar). Never below [`MIN_GIVEN_OF_CELL`] of the cell height.
pub fn given_height_threshold(glyphs: &[Option<Glyph>], cell_height: f32) -> f32 {
    let floor = MIN_GIVEN_OF_CELL * cell_height;
    let heights = glyph_heights(glyphs, floor);
    let n = heights.len();
    let mut best: Option<(f32, f32)> = None; // (ratio, threshold)
    for i in 0..n.saturating_sub(1) {
        let ratio = heights[i + 1] / heights[i];
        if ratio >= HEIGHT_GAP && n - 1 - i >= MIN_GIVENS && best.is_none_or(|b| ratio > b.0) {
            best = Some((ratio, (heights[i] + heights[i + 1]) / 2.0));
        }
    }
    tracing::debug!("given height threshold: gap ratio {:?}", best.map(|b| b.0));
    best.map(|b| b.1).unwrap_or(floor).max(floor)
}

/// Pencil marks come many to a grid: with fewer than [`MIN_MARKS`] glyphs below the
/// givens' threshold, those above the floor are not proven marks (a given broken by
/// blur, a digit of another size), and their cells are made doubtful, never empty.
pub fn doubt_lone_marks(glyphs: &mut [Option<Glyph>], cell_height: f32, threshold: f32) {
    let floor = MIN_GIVEN_OF_CELL * cell_height;
    let below = |g: &Glyph| !g.doubtful && g.height() < threshold;
    if glyphs.iter().flatten().filter(|g| below(g)).count() >= MIN_MARKS {
        return;
    }
    for slot in glyphs.iter_mut() {
        if let Some(g) = slot.as_mut().filter(|g| below(g) && g.height() >= floor) {
            tracing::debug!(
                "a lone glyph below the givens' height at {:?}: doubtful",
                g.bbox
            );
            g.doubtful = true;
        }
    }
}

/// The sorted heights of the glyphs at least `floor` high.
fn glyph_heights(glyphs: &[Option<Glyph>], floor: f32) -> Vec<f32> {
    let mut heights: Vec<f32> = glyphs
        .iter()
        .flatten()
        .filter(|g| !g.doubtful)
        .map(|g| g.height())
        .filter(|&h| h >= floor)
        .collect();
    heights.sort_by(f32::total_cmp);
    heights
}
