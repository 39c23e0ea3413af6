//! Connected components of a binary mask, by depth-first flood fill: the one flood fill
//! behind the glyph finder, the photo grid finder, the digit classifier and the
//! dot-matrix check.
//!
//! Pixels are reached in a fixed order (a stack: the neighbour found last is followed
//! first; neighbours are looked at row by row from the top left), so a caller that keeps
//! the first of equal candidates, as the photo grid finder's extreme corners do, gets the
//! same answer every time. imageproc's `connected_components` (two passes with union-find)
//! labels the same components but in raster order within each, and needs the mask as an
//! image and a second pass to gather boxes.

/// Which pixels touch a pixel, and so join it into one component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Neighbours {
    /// Left, right, above and below.
    Four,
    /// The eight around it, corners included.
    Eight,
}

/// A flood fill over the ink of a `width` x `height` mask (ink where `is_ink(x, y)`),
/// remembering across fills which pixels it has reached: each ink pixel is reached once.
///
/// All components, in row order of their first pixel (top row first, left to right):
///
/// ```ignore
/// let mut flood = Flood::new(w, h, Neighbours::Eight, |x, y| mask[(y * w + x) as usize]);
/// while let Some((x0, y0)) = flood.next_component() {
///     let mut area = 0;
///     flood.fill(|_, _| area += 1);
/// }
/// ```
pub struct Flood<F> {
    width: u32,
    height: u32,
    neighbours: Neighbours,
    is_ink: F,
    /// Per pixel (row-major): reached by a fill, or seeded for the next one.
    reached: Vec<bool>,
    /// Pixels seeded or found and not yet visited.
    stack: Vec<(u32, u32)>,
    /// Where [`Flood::next_component`] resumes looking for a first pixel.
    scan: (u32, u32),
}

impl<F: Fn(u32, u32) -> bool> Flood<F> {
    pub fn new(width: u32, height: u32, neighbours: Neighbours, is_ink: F) -> Self {
        Flood {
            width,
            height,
            neighbours,
            is_ink,
            reached: vec![false; width as usize * height as usize],
            stack: Vec::new(),
            scan: (0, 0),
        }
    }

    /// Makes (x, y) a starting pixel of the next [`Flood::fill`] when it is ink not yet
    /// reached; true when it was.
    pub fn seed(&mut self, x: u32, y: u32) -> bool {
        self.seed_at(y as usize * self.width as usize + x as usize, x, y)
    }

    /// [`Flood::seed`] with the pixel's row-major index `k` known.
    #[inline]
    fn seed_at(&mut self, k: usize, x: u32, y: u32) -> bool {
        if self.reached[k] || !(self.is_ink)(x, y) {
            return false;
        }
        self.reached[k] = true;
        self.stack.push((x, y));
        true
    }

    /// Seeds the next component: its first ink pixel not reached yet, in row order. None
    /// when every component has been reached.
    pub fn next_component(&mut self) -> Option<(u32, u32)> {
        let w = self.width as usize;
        while self.scan.1 < self.height {
            let (from, y) = self.scan;
            let row = y as usize * w;
            for x in from..self.width {
                if self.seed_at(row + x as usize, x, y) {
                    self.scan = (x + 1, y);
                    return Some((x, y));
                }
            }
            self.scan = (0, y + 1);
        }
        None
    }

    /// Reaches every ink pixel connected to the seeds and not reached before, calling
    /// `visit` once on each (the seeds included), depth first.
    pub fn fill(&mut self, mut visit: impl FnMut(u32, u32)) {
        let w = self.width as usize;
        while let Some((x, y)) = self.stack.pop() {
            visit(x, y);
            let k = y as usize * w + x as usize;
            match self.neighbours {
                Neighbours::Four => {
                    if x > 0 {
                        self.seed_at(k - 1, x - 1, y);
                    }
                    if x + 1 < self.width {
                        self.seed_at(k + 1, x + 1, y);
                    }
                    if y > 0 {
                        self.seed_at(k - w, x, y - 1);
                    }
                    if y + 1 < self.height {
                        self.seed_at(k + w, x, y + 1);
                    }
                }
                Neighbours::Eight => {
                    // Rows above, at and below; in each, left to right.
                    let (x0, x1) = (x.saturating_sub(1), (x + 2).min(self.width));
                    let (y0, y1) = (y.saturating_sub(1), (y + 2).min(self.height));
                    for ny in y0..y1 {
                        let row = ny as usize * w;
                        for nx in x0..x1 {
                            self.seed_at(row + nx as usize, nx, ny);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A component: its first pixel, and its pixels in the order reached.
    type Component = ((u32, u32), Vec<(u32, u32)>);

    /// The components of a picture drawn as text ('#' ink).
    fn components(rows: &[&str], neighbours: Neighbours) -> Vec<Component> {
        let (w, h) = (rows[0].len() as u32, rows.len() as u32);
        let ink = |x: u32, y: u32| rows[y as usize].as_bytes()[x as usize] == b'#';
        let mut flood = Flood::new(w, h, neighbours, ink);
        let mut found = Vec::new();
        while let Some(first) = flood.next_component() {
            let mut pixels = Vec::new();
            flood.fill(|x, y| pixels.push((x, y)));
            found.push((first, pixels));
        }
        found
    }

    #[test]
    fn pixels_touching_at_a_corner_join_only_with_eight_neighbours() {
        let rows = ["#..#", ".#.#", "....", "##.."];
        let eight = components(&rows, Neighbours::Eight);
        let firsts: Vec<_> = eight.iter().map(|c| c.0).collect();
        assert_eq!(firsts, [(0, 0), (3, 0), (0, 3)]);
        assert_eq!(eight[0].1, [(0, 0), (1, 1)]);
        assert_eq!(eight[1].1.len(), 2);
        let four = components(&rows, Neighbours::Four);
        let sizes: Vec<_> = four.iter().map(|c| c.1.len()).collect();
        assert_eq!(sizes, [1, 2, 1, 2], "the diagonal pair falls apart");
    }

    #[test]
    fn pixels_are_reached_depth_first_last_neighbour_first() {
        // From (1, 0) the neighbours found are (0, 1), (1, 1), (2, 1) in that order; the
        // last is followed first.
        let rows = [".#.", "###"];
        let found = components(&rows, Neighbours::Eight);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1, [(1, 0), (2, 1), (1, 1), (0, 1)]);
    }

    #[test]
    fn a_fill_from_seeds_reaches_only_what_they_touch_and_each_pixel_once() {
        let rows = ["#.#", "#.#", "###", "...", "##."];
        let ink = |x: u32, y: u32| rows[y as usize].as_bytes()[x as usize] == b'#';
        let mut flood = Flood::new(3, 5, Neighbours::Four, ink);
        assert!(flood.seed(0, 0));
        assert!(!flood.seed(0, 0), "a pixel is seeded once");
        assert!(flood.seed(2, 0));
        assert!(!flood.seed(1, 0), "paper is never seeded");
        let mut reached = Vec::new();
        flood.fill(|x, y| reached.push((x, y)));
        reached.sort();
        assert_eq!(reached.len(), 7, "the U, not the bar below it: {reached:?}");
        assert_eq!(flood.next_component(), Some((0, 4)), "the bar is left");
        let mut bar = 0;
        flood.fill(|_, _| bar += 1);
        assert_eq!(bar, 2);
        assert_eq!(flood.next_component(), None);
    }

    #[test]
    fn an_empty_mask_has_no_components() {
        let mut flood = Flood::new(0, 0, Neighbours::Eight, |_, _| true);
        assert_eq!(flood.next_component(), None);
        let mut flood = Flood::new(5, 3, Neighbours::Eight, |_, _| false);
        assert_eq!(flood.next_component(), None);
    }
}
