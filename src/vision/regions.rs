//! Flat-colour regions of a screenshot: 4-connected pixels whose colours differ by at most
//! [`FLAT_TOLERANCE`] from their neighbour, labelled with union-find (Rosenheim's
//! two-pass labelling, with path halving).
//!
//! Every sudoku app paints each cell's background as one flat (or gently shaded) area
//! bounded by grid lines, gaps or bevels, so the cells come out as 81 square regions on
//! a lattice, in light and dark themes alike, and the digits as holes in them.

use image::RgbImage;

/// Neighbouring pixels whose channels all differ by at most this much belong to one
/// region. Anti-aliased edges step by more than this; CSS gradients and bevel shading
/// by 1-3 levels a pixel, so a shaded tile stays one region.
pub const FLAT_TOLERANCE: u8 = 10;

/// One region's statistics.
#[derive(Debug, Clone, Copy, Default)]
pub struct Region {
    /// Pixel count.
    pub area: u32,
    /// Bounding box, inclusive.
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
    /// Mean colour (sum; divide by area).
    sum: [u64; 3],
}

impl Region {
    pub fn width(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    pub fn height(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
    pub fn mean(&self) -> [u8; 3] {
        let a = self.area.max(1) as u64;
        [
            (self.sum[0] / a) as u8,
            (self.sum[1] / a) as u8,
            (self.sum[2] / a) as u8,
        ]
    }
}

/// The labelling: the statistics of each region (no per-pixel labels are kept: the
/// locator needs only boxes, areas and colours).
pub struct Regions {
    pub width: u32,
    pub height: u32,
    pub regions: Vec<Region>,
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let p = parent[parent[i as usize] as usize];
        parent[i as usize] = p;
        i = p;
    }
    i
}

#[inline]
fn close(a: &[u8], b: &[u8]) -> bool {
    a[0].abs_diff(b[0]) <= FLAT_TOLERANCE
        && a[1].abs_diff(b[1]) <= FLAT_TOLERANCE
        && a[2].abs_diff(b[2]) <= FLAT_TOLERANCE
}

/// A horizontal run of pixels joined left to right.
struct Run {
    y: u32,
    x0: u32,
    x1: u32,
    sum: [u64; 3],
}

/// Labels the flat-colour regions of `img`: pixels are joined into horizontal runs,
/// runs are joined to the runs above them wherever two stacked pixels are close, with
/// union-find over runs (screenshots have long runs, so this is far cheaper than
/// union-find over pixels).
pub fn label_regions(img: &RgbImage) -> Regions {
    let (w, h) = img.dimensions();
    let raw = img.as_raw();
    let stride = w as usize * 3;
    let mut runs: Vec<Run> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    let mut above = vec![0u32; w as usize];
    let mut here = vec![0u32; w as usize];
    for y in 0..h {
        let row = &raw[y as usize * stride..(y as usize + 1) * stride];
        for x in 0..w as usize {
            let p = &row[x * 3..x * 3 + 3];
            if x == 0 || !close(&row[(x - 1) * 3..x * 3], p) {
                runs.push(Run {
                    y,
                    x0: x as u32,
                    x1: x as u32,
                    sum: [0; 3],
                });
                parent.push(runs.len() as u32 - 1);
            }
            let id = runs.len() as u32 - 1;
            let r = &mut runs[id as usize];
            r.x1 = x as u32;
            r.sum[0] += p[0] as u64;
            r.sum[1] += p[1] as u64;
            r.sum[2] += p[2] as u64;
            here[x] = id;
        }
        if y > 0 {
            let prev = &raw[(y as usize - 1) * stride..y as usize * stride];
            let mut last = (u32::MAX, u32::MAX);
            for x in 0..w as usize {
                let pair = (above[x], here[x]);
                if pair != last && close(&prev[x * 3..x * 3 + 3], &row[x * 3..x * 3 + 3]) {
                    let (a, b) = (find(&mut parent, pair.0), find(&mut parent, pair.1));
                    if a != b {
                        parent[a.max(b) as usize] = a.min(b);
                    }
                    last = pair;
                }
            }
        }
        std::mem::swap(&mut above, &mut here);
    }
    let mut index_of_root = vec![u32::MAX; runs.len()];
    let mut regions: Vec<Region> = Vec::new();
    for (i, run) in runs.iter().enumerate() {
        let root = find(&mut parent, i as u32) as usize;
        if index_of_root[root] == u32::MAX {
            index_of_root[root] = regions.len() as u32;
            regions.push(Region {
                x0: run.x0,
                y0: run.y,
                x1: run.x1,
                y1: run.y,
                ..Default::default()
            });
        }
        let r = &mut regions[index_of_root[root] as usize];
        r.area += run.x1 - run.x0 + 1;
        r.x0 = r.x0.min(run.x0);
        r.x1 = r.x1.max(run.x1);
        r.y0 = r.y0.min(run.y);
        r.y1 = r.y1.max(run.y);
        for c in 0..3 {
            r.sum[c] += run.sum[c];
        }
    }
    Regions {
        width: w,
        height: h,
        regions,
    }
}

/// A box blur of the given radius (separable, running sums): textured tiles (stripes,
/// noise) come out flat enough to label as regions, while the lines and gaps between
/// cells, a few pixels wide with strong contrast, survive.
pub fn smooth(img: &RgbImage, radius: u32) -> RgbImage {
    let (w, h) = img.dimensions();
    let r = radius as i64;
    let pass = |src: &RgbImage, horizontal: bool| -> RgbImage {
        let mut out = RgbImage::new(w, h);
        let (len, lines) = if horizontal { (w, h) } else { (h, w) };
        for line in 0..lines {
            let at = |k: i64| -> [u8; 3] {
                let k = k.clamp(0, len as i64 - 1) as u32;
                if horizontal {
                    src.get_pixel(k, line).0
                } else {
                    src.get_pixel(line, k).0
                }
            };
            let mut sum = [0i64; 3];
            for k in -r..=r {
                let p = at(k);
                for c in 0..3 {
                    sum[c] += p[c] as i64;
                }
            }
            for k in 0..len as i64 {
                let n = 2 * r + 1;
                let v = image::Rgb([(sum[0] / n) as u8, (sum[1] / n) as u8, (sum[2] / n) as u8]);
                if horizontal {
                    out.put_pixel(k as u32, line, v);
                } else {
                    out.put_pixel(line, k as u32, v);
                }
                let (add, sub) = (at(k + r + 1), at(k - r));
                for c in 0..3 {
                    sum[c] += add[c] as i64 - sub[c] as i64;
                }
            }
        }
        out
    };
    pass(&pass(img, true), false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn two_squares_split_by_a_line_are_two_regions_and_a_gradient_is_one() {
        let mut img = RgbImage::from_pixel(21, 10, Rgb([255, 255, 255]));
        for y in 0..10 {
            img.put_pixel(10, y, Rgb([0, 0, 0]));
            for x in 11..21 {
                // a gentle gradient: 2 levels a pixel
                let v = 200 - 2 * (x as u8 - 11);
                img.put_pixel(x, y, Rgb([v, v, v]));
            }
        }
        let r = label_regions(&img);
        assert_eq!(r.regions.len(), 3);
        let left = r.regions[0];
        assert_eq!((left.width(), left.height(), left.area), (10, 10, 100));
        assert_eq!(left.mean(), [255, 255, 255]);
        let right = r.regions[2];
        assert_eq!((right.x0, right.width(), right.area), (11, 10, 100));
    }
}
