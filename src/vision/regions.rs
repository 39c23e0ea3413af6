//! Flat-colour regions of a screenshot: 4-connected pixels whose colours differ by at most
//! [`FLAT_TOLERANCE`] from their neighbour, labelled with union-find (Rosenfeld and
//! Pfaltz's two-pass labelling, with path halving).
//!
//! Every sudoku app paints each cell's background as one flat (or gently shaded) area
//! bounded by grid lines, gaps or bevels, so the cells come out as 81 square regions on
//! a lattice, in light and dark themes alike, and the digits as holes in them.

use image::RgbImage;

/// Neighbouring pixels whose channels all differ by at most this much belong to one
/// region. Anti-aliased edges step by more than this; CSS gradients and bevel shading
/// by 1-3 levels a pixel, so a shaded tile stays one region.
pub const FLAT_TOLERANCE: u8 = 10;

/// A colour's luminance, 0..=255 (0.3 R + 0.6 G + 0.1 B).
pub fn luminance(p: [u8; 3]) -> u32 {
    (p[0] as u32 * 3 + p[1] as u32 * 6 + p[2] as u32) / 10
}

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

/// Regions smaller than this on either side are not kept: only cell-sized regions
/// matter to the locator ([`super::locate`] takes cells of 10 px and up), and dropping
/// the rest as soon as they end keeps memory bounded on busy pictures (noise, photos,
/// fine patterns), where nearly every pixel is a region of its own.
pub const KEEP_SIDE: u32 = super::locate::MIN_CELL;

/// A region being built: its statistics, and the raster position of its first run
/// (y, then x), which orders the regions as a two-pass labelling would number them.
#[derive(Clone, Copy)]
struct Growing {
    region: Region,
    first: u64,
}

impl Growing {
    fn merge(&mut self, other: &Growing) {
        let (a, b) = (&mut self.region, &other.region);
        a.area += b.area;
        a.x0 = a.x0.min(b.x0);
        a.y0 = a.y0.min(b.y0);
        a.x1 = a.x1.max(b.x1);
        a.y1 = a.y1.max(b.y1);
        for c in 0..3 {
            a.sum[c] += b.sum[c];
        }
        self.first = self.first.min(other.first);
    }
}

/// Labels the flat-colour regions of `img` and keeps those at least [`KEEP_SIDE`] px on
/// both sides. Pixels are joined into horizontal runs, and runs to the runs above them
/// wherever two stacked pixels are close, with union-find over the runs of two rows at
/// a time: after each row the regions still growing are renumbered, and those that
/// ended are kept or dropped. Memory is a few rows' worth plus the regions kept,
/// whatever the picture shows; time is one pass over the pixels.
pub fn label_regions(img: &RgbImage) -> Regions {
    let (w, h) = img.dimensions();
    let raw = img.as_raw();
    let stride = w as usize * 3;
    // Union-find over the regions alive in the row above (ids 0..alive) and the runs of
    // this row (ids alive..); each root holds its region's statistics.
    let mut parent: Vec<u32> = Vec::new();
    let mut growing: Vec<Growing> = Vec::new();
    let mut alive = 0usize;
    let mut above = vec![0u32; w as usize];
    let mut here = vec![0u32; w as usize];
    let mut renumber: Vec<u32> = Vec::new();
    let mut next_parent: Vec<u32> = Vec::new();
    let mut next_growing: Vec<Growing> = Vec::new();
    let mut kept: Vec<Growing> = Vec::new();
    let keep = |g: &Growing, kept: &mut Vec<Growing>| {
        if g.region.width() >= KEEP_SIDE && g.region.height() >= KEEP_SIDE {
            kept.push(*g);
        }
    };
    for y in 0..h {
        let row = &raw[y as usize * stride..(y as usize + 1) * stride];
        let mut x = 0usize;
        while x < w as usize {
            let x0 = x;
            let mut sum = [0u64; 3];
            loop {
                let p = &row[x * 3..x * 3 + 3];
                for c in 0..3 {
                    sum[c] += p[c] as u64;
                }
                x += 1;
                if x == w as usize || !close(p, &row[x * 3..x * 3 + 3]) {
                    break;
                }
            }
            let id = growing.len() as u32;
            parent.push(id);
            growing.push(Growing {
                region: Region {
                    area: (x - x0) as u32,
                    x0: x0 as u32,
                    y0: y,
                    x1: x as u32 - 1,
                    y1: y,
                    sum,
                },
                first: (y as u64) << 32 | x0 as u64,
            });
            here[x0..x].fill(id);
        }
        if y > 0 {
            let prev = &raw[(y as usize - 1) * stride..y as usize * stride];
            let mut last = (u32::MAX, u32::MAX);
            for x in 0..w as usize {
                let pair = (above[x], here[x]);
                if pair != last && close(&prev[x * 3..x * 3 + 3], &row[x * 3..x * 3 + 3]) {
                    let (a, b) = (find(&mut parent, pair.0), find(&mut parent, pair.1));
                    if a != b {
                        let (root, child) = (a.min(b), a.max(b));
                        parent[child as usize] = root;
                        let merged = growing[child as usize];
                        growing[root as usize].merge(&merged);
                    }
                    last = pair;
                }
            }
        }
        // Renumber the regions that reach this row; the others ended in the row above.
        const ENDED: u32 = u32::MAX;
        renumber.clear();
        renumber.resize(growing.len(), ENDED);
        next_parent.clear();
        next_growing.clear();
        let mut last_run = (u32::MAX, 0u32);
        for x in 0..w as usize {
            let run = here[x];
            if run != last_run.0 {
                let root = find(&mut parent, run) as usize;
                if renumber[root] == ENDED {
                    renumber[root] = next_growing.len() as u32;
                    next_parent.push(next_growing.len() as u32);
                    next_growing.push(growing[root]);
                }
                last_run = (run, renumber[root]);
            }
            above[x] = last_run.1;
        }
        for id in 0..alive {
            let root = find(&mut parent, id as u32) as usize;
            if renumber[root] == ENDED {
                renumber[root] = ENDED - 1;
                keep(&growing[root], &mut kept);
            }
        }
        std::mem::swap(&mut parent, &mut next_parent);
        std::mem::swap(&mut growing, &mut next_growing);
        alive = growing.len();
    }
    for g in &growing {
        keep(g, &mut kept);
    }
    kept.sort_unstable_by_key(|g| g.first);
    Regions {
        width: w,
        height: h,
        regions: kept.into_iter().map(|g| g.region).collect(),
    }
}

/// A box blur of the given radius (separable, running sums): textured tiles (stripes,
/// noise) come out flat enough to label as regions, while the lines and gaps between
/// cells, a few pixels wide with strong contrast, survive.
pub fn smooth(img: &RgbImage, radius: u32) -> RgbImage {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let mut out = RgbImage::new(w as u32, h as u32);
    if w == 0 || h == 0 {
        return out;
    }
    let r = radius as i64;
    let n = (2 * r + 1) as u32;
    // Sums of n bytes divided by n, looked up (a division a channel costs more than the
    // rest of the blur).
    let mean: Vec<u8> = (0..=255 * n).map(|s| (s / n) as u8).collect();
    let stride = w * 3;
    // Horizontal pass, row by row, with the edge pixels repeated past the ends.
    let mut across = vec![0u8; stride * h];
    for (src, dst) in img
        .as_raw()
        .chunks_exact(stride)
        .zip(across.chunks_exact_mut(stride))
    {
        let at = |k: i64| k.clamp(0, w as i64 - 1) as usize * 3;
        let mut sum = [0u32; 3];
        for k in -r..=r {
            for c in 0..3 {
                sum[c] += src[at(k) + c] as u32;
            }
        }
        for k in 0..w as i64 {
            let (add, sub) = (at(k + r + 1), at(k - r));
            for c in 0..3 {
                dst[k as usize * 3 + c] = mean[sum[c] as usize];
                sum[c] = sum[c] + src[add + c] as u32 - src[sub + c] as u32;
            }
        }
    }
    // Vertical pass: running sums down every column at once, edge rows repeated.
    let row = |k: i64| {
        let k = k.clamp(0, h as i64 - 1) as usize;
        &across[k * stride..(k + 1) * stride]
    };
    let mut sums = vec![0u32; stride];
    for k in -r..=r {
        for (s, &v) in sums.iter_mut().zip(row(k)) {
            *s += v as u32;
        }
    }
    for (y, dst) in out.chunks_exact_mut(stride).enumerate() {
        for (d, &s) in dst.iter_mut().zip(&sums) {
            *d = mean[s as usize];
        }
        let (add, sub) = (row(y as i64 + r + 1), row(y as i64 - r));
        for ((s, &a), &b) in sums.iter_mut().zip(add).zip(sub) {
            *s = *s + a as u32 - b as u32;
        }
    }
    out
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
        // The 1 px line is a region too, but too thin to be kept.
        assert_eq!(r.regions.len(), 2);
        let left = r.regions[0];
        assert_eq!((left.width(), left.height(), left.area), (10, 10, 100));
        assert_eq!(left.mean(), [255, 255, 255]);
        let right = r.regions[1];
        assert_eq!((right.x0, right.width(), right.area), (11, 10, 100));
    }
}
