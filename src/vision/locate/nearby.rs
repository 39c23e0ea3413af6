//! Points by where they are, in square buckets: a search near a point looks at a few
//! buckets, not at every point (a checkerboard of 64 px squares over 50 megapixels has
//! 12,800 box-sized regions, and every one looks for its neighbours).

use std::collections::HashMap;

/// Indices of points (the locators' candidate regions' centres), bucketed.
pub(super) struct Buckets {
    side: f32,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Buckets {
    /// The points, in buckets `side` wide (a third of the smallest region: a search's
    /// ranges then span few buckets).
    pub(super) fn new(points: impl IntoIterator<Item = (f32, f32)>, side: f32) -> Buckets {
        let side = side.max(1.0);
        let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (i, (x, y)) in points.into_iter().enumerate() {
            cells
                .entry(((x / side) as i64, (y / side) as i64))
                .or_default()
                .push(i);
        }
        Buckets { side, cells }
    }

    /// The lowest index (the first point, as a plain search in order would find it)
    /// that `fits`, among the points within the `x` and `y` ranges (give or take a
    /// bucket: `fits` has the last word, so the ranges need only hold every point
    /// that fits).
    pub(super) fn first_in(
        &self,
        x: (f32, f32),
        y: (f32, f32),
        fits: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let span =
            |(lo, hi): (f32, f32)| ((lo / self.side) as i64 - 1, (hi / self.side) as i64 + 1);
        let ((x0, x1), (y0, y1)) = (span(x), span(y));
        let mut first: Option<usize> = None;
        for bx in x0..=x1 {
            for by in y0..=y1 {
                for &i in self.cells.get(&(bx, by)).into_iter().flatten() {
                    if first.is_none_or(|f| i < f) && fits(i) {
                        first = Some(i);
                    }
                }
            }
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_point_that_fits_in_the_ranges_is_the_one_a_plain_search_finds() {
        let points: Vec<(f32, f32)> = (0..400)
            .map(|k| (((k * 37) % 101) as f32 * 3.3, ((k * 53) % 97) as f32 * 2.9))
            .collect();
        let index = Buckets::new(points.iter().copied(), 9.0);
        for (qx, qy, r) in [(50.0, 40.0, 12.0), (150.0, 200.0, 30.0), (0.0, 0.0, 5.0)] {
            let fits = |i: usize| {
                let (x, y) = points[i];
                (x - qx).abs() <= r && (y - qy).abs() <= r && i % 3 != 0
            };
            let plain = (0..points.len()).find(|&i| fits(i));
            assert_eq!(
                index.first_in((qx - r, qx + r), (qy - r, qy + r), fits),
                plain
            );
        }
    }
}
