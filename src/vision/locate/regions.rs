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

/// A pixel is ink when some channel differs from the cell background by more than this.
pub const INK_CONTRAST: u8 = 48;

/// Whether pixel `p` is ink on background `bg`: some channel more than
/// [`INK_CONTRAST`] off.
pub fn is_ink(p: [u8; 3], bg: [u8; 3]) -> bool {
    (0..3).any(|k| p[k].abs_diff(bg[k]) > INK_CONTRAST)
}

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

/// `far[i]` is 1 where bytes `a[i]` and `b[i]` differ by more than [`FLAT_TOLERANCE`].
fn far_bytes(a: &[u8], b: &[u8], far: &mut [u8]) {
    for ((f, &p), &q) in far.iter_mut().zip(a).zip(b) {
        *f = (p.abs_diff(q) > FLAT_TOLERANCE) as u8;
    }
}

/// Whether pixel `x`'s colour is far from the one it was compared with: some channel
/// more than [`FLAT_TOLERANCE`] off (its bytes in [`far_bytes`]'s output).
#[inline]
fn pixel_far(far: &[u8], x: usize) -> bool {
    far[x * 3] | far[x * 3 + 1] | far[x * 3 + 2] != 0
}

/// A candidate cell must be at least this many pixels on a side (the smallest cells
/// read, 14 px, have an interior of about 12 px).
pub const MIN_CELL: u32 = 10;

/// Regions smaller than this on either side are not kept: only cell-sized regions
/// matter to the locator ([`super::lattice`] takes cells of [`MIN_CELL`] px and up), and dropping
/// the rest as soon as they end keeps memory bounded on busy pictures (noise, photos,
/// fine patterns), where nearly every pixel is a region of its own.
pub const KEEP_SIDE: u32 = MIN_CELL;

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
    let mut rows = Labeller::new(w as usize);
    for y in 0..h {
        let row = &raw[y as usize * stride..(y as usize + 1) * stride];
        let prev = (y > 0).then(|| &raw[(y as usize - 1) * stride..y as usize * stride]);
        match prev {
            // A row the same as the one above (most rows of a flat screenshot) has the
            // same runs, each under one region: joined a run at a time.
            Some(prev) if prev == row => rows.repeat_runs(y),
            Some(prev) => {
                rows.runs_of(row, y);
                rows.join_to_row_above(prev, row);
            }
            None => rows.runs_of(row, y),
        }
        rows.renumber();
    }
    let mut kept = rows.kept;
    for g in &rows.growing {
        keep(g, &mut kept);
    }
    kept.sort_unstable_by_key(|g| g.first);
    Regions {
        width: w,
        height: h,
        regions: kept.into_iter().map(|g| g.region).collect(),
    }
}

/// Keeps a region that ended when it is at least [`KEEP_SIDE`] on both sides.
fn keep(g: &Growing, kept: &mut Vec<Growing>) {
    if g.region.width() >= KEEP_SIDE && g.region.height() >= KEEP_SIDE {
        kept.push(*g);
    }
}

/// The labelling's state over two rows: union-find over the regions alive in the row
/// above (ids 0..alive) and the runs of this row (ids alive..), each root holding its
/// region's statistics; which id each pixel of the two rows has; and the regions kept.
struct Labeller {
    width: usize,
    parent: Vec<u32>,
    growing: Vec<Growing>,
    alive: usize,
    above: Vec<u32>,
    here: Vec<u32>,
    /// This row's runs, `[x0, x1)`, in order; run `k` has id `alive + k`.
    runs: Vec<(u32, u32)>,
    /// Each run's colour sum.
    sums: Vec<[u64; 3]>,
    /// Per byte of a row: whether it differs by more than [`FLAT_TOLERANCE`] from the
    /// byte it is compared with (the next pixel's, or the row above's).
    far: Vec<u8>,
    renumber: Vec<u32>,
    next_parent: Vec<u32>,
    next_growing: Vec<Growing>,
    kept: Vec<Growing>,
}

impl Labeller {
    fn new(width: usize) -> Labeller {
        Labeller {
            width,
            parent: Vec::new(),
            growing: Vec::new(),
            alive: 0,
            above: vec![0u32; width],
            here: vec![0u32; width],
            runs: Vec::new(),
            sums: Vec::new(),
            far: vec![0u8; width * 3],
            renumber: Vec::new(),
            next_parent: Vec::new(),
            next_growing: Vec::new(),
            kept: Vec::new(),
        }
    }

    /// The horizontal runs of close pixels in row `y`, each a region of its own.
    fn runs_of(&mut self, row: &[u8], y: u32) {
        let w = self.width;
        // Bytes compared with the next pixel's, in one pass the compiler vectorises.
        far_bytes(
            &row[..row.len() - 3],
            &row[3..],
            &mut self.far[..row.len() - 3],
        );
        self.runs.clear();
        self.sums.clear();
        let mut x = 0usize;
        while x < w {
            let x0 = x;
            let mut sum = [0u64; 3];
            loop {
                let p = &row[x * 3..x * 3 + 3];
                for c in 0..3 {
                    sum[c] += p[c] as u64;
                }
                x += 1;
                if x == w || pixel_far(&self.far, x - 1) {
                    break;
                }
            }
            let id = self.start_run(x0 as u32, x as u32, y, sum);
            self.runs.push((x0 as u32, x as u32));
            self.sums.push(sum);
            self.here[x0..x].fill(id);
        }
    }

    /// A run `[x0, x1)` of row `y` with colour sum `sum`, a region of its own: its id.
    fn start_run(&mut self, x0: u32, x1: u32, y: u32, sum: [u64; 3]) -> u32 {
        let id = self.growing.len() as u32;
        self.parent.push(id);
        self.growing.push(Growing {
            region: Region {
                area: x1 - x0,
                x0,
                y0: y,
                x1: x1 - 1,
                y1: y,
                sum,
            },
            first: (y as u64) << 32 | x0 as u64,
        });
        id
    }

    /// Row `y`, the same as the row above: the same runs, each joined to the one region
    /// above it (the row above was renumbered a run at a time, so `above` holds one id
    /// over each of them). The unions are the ones [`Labeller::join_to_row_above`]
    /// would make, so the regions are the same.
    fn repeat_runs(&mut self, y: u32) {
        for k in 0..self.runs.len() {
            let ((x0, x1), sum) = (self.runs[k], self.sums[k]);
            let id = self.start_run(x0, x1, y, sum);
            self.union(self.above[x0 as usize], id);
        }
    }

    /// Joins the regions of ids `a` and `b`; the lower root holds the statistics.
    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (find(&mut self.parent, a), find(&mut self.parent, b));
        if a != b {
            let (root, child) = (a.min(b), a.max(b));
            self.parent[child as usize] = root;
            let merged = self.growing[child as usize];
            self.growing[root as usize].merge(&merged);
        }
    }

    /// Joins each run to the regions above it wherever two stacked pixels are close.
    fn join_to_row_above(&mut self, prev: &[u8], row: &[u8]) {
        far_bytes(prev, row, &mut self.far);
        let mut last = (u32::MAX, u32::MAX);
        for x in 0..self.width {
            let pair = (self.above[x], self.here[x]);
            if pair != last && !pixel_far(&self.far, x) {
                self.union(pair.0, pair.1);
                last = pair;
            }
        }
    }

    /// Renumbers the regions that reach this row; the others ended in the row above,
    /// and are kept or dropped.
    fn renumber(&mut self) {
        const ENDED: u32 = u32::MAX;
        self.renumber.clear();
        self.renumber.resize(self.growing.len(), ENDED);
        self.next_parent.clear();
        self.next_growing.clear();
        for (k, &(x0, x1)) in self.runs.iter().enumerate() {
            let root = find(&mut self.parent, (self.alive + k) as u32) as usize;
            if self.renumber[root] == ENDED {
                self.renumber[root] = self.next_growing.len() as u32;
                self.next_parent.push(self.next_growing.len() as u32);
                self.next_growing.push(self.growing[root]);
            }
            self.above[x0 as usize..x1 as usize].fill(self.renumber[root]);
        }
        for id in 0..self.alive {
            let root = find(&mut self.parent, id as u32) as usize;
            if self.renumber[root] == ENDED {
                self.renumber[root] = ENDED - 1;
                keep(&self.growing[root], &mut self.kept);
            }
        }
        std::mem::swap(&mut self.parent, &mut self.next_parent);
        std::mem::swap(&mut self.growing, &mut self.next_growing);
        self.alive = self.growing.len();
    }
}

/// Sums of `n` bytes divided by `n`, as a multiply and a shift (exact for every such
/// sum: the unit test checks), which the compiler vectorises where it cannot a table
/// lookup.
fn mean_of(n: u32) -> impl Fn(u32) -> u8 {
    let inverse = (1u64 << 32).div_ceil(n as u64);
    move |s: u32| ((s as u64 * inverse) >> 32) as u8
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
    let mean = mean_of(n);
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
                dst[k as usize * 3 + c] = mean(sum[c]);
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
            *d = mean(s);
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

    /// Every region, found by a plain flood fill (4-connected, neighbours within
    /// [`FLAT_TOLERANCE`] on every channel): (first pixel, area, box, colour sum).
    fn flood_regions(img: &RgbImage) -> Vec<(u64, u32, [u32; 4], [u64; 3])> {
        let (w, h) = img.dimensions();
        let close = |a: [u8; 3], b: [u8; 3]| (0..3).all(|c| a[c].abs_diff(b[c]) <= FLAT_TOLERANCE);
        let mut seen = vec![false; (w * h) as usize];
        let mut out = Vec::new();
        for y0 in 0..h {
            for x0 in 0..w {
                if seen[(y0 * w + x0) as usize] {
                    continue;
                }
                seen[(y0 * w + x0) as usize] = true;
                let (mut area, mut bx, mut sum) = (0u32, [x0, y0, x0, y0], [0u64; 3]);
                let mut stack = vec![(x0, y0)];
                while let Some((x, y)) = stack.pop() {
                    let p = img.get_pixel(x, y).0;
                    area += 1;
                    bx = [bx[0].min(x), bx[1].min(y), bx[2].max(x), bx[3].max(y)];
                    for c in 0..3 {
                        sum[c] += p[c] as u64;
                    }
                    let near = [
                        (x.wrapping_sub(1), y),
                        (x + 1, y),
                        (x, y.wrapping_sub(1)),
                        (x, y + 1),
                    ];
                    for (nx, ny) in near {
                        if nx < w
                            && ny < h
                            && !seen[(ny * w + nx) as usize]
                            && close(p, img.get_pixel(nx, ny).0)
                        {
                            seen[(ny * w + nx) as usize] = true;
                            stack.push((nx, ny));
                        }
                    }
                }
                if bx[2] - bx[0] + 1 >= KEEP_SIDE && bx[3] - bx[1] + 1 >= KEEP_SIDE {
                    out.push(((y0 as u64) << 32 | x0 as u64, area, bx, sum));
                }
            }
        }
        out
    }

    #[test]
    fn the_labelling_finds_the_regions_a_flood_fill_finds_with_rows_repeated_or_not() {
        // Pictures of flat blocks, colour steps within and beyond the tolerance, and
        // runs of identical rows (the labelling joins those a run at a time).
        let mut seed = 0x2545f491u32;
        let mut next = move |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed % n
        };
        for _ in 0..40 {
            let (w, h) = (20 + next(40), 20 + next(40));
            let mut img = RgbImage::new(w, h);
            let mut y = 0;
            while y < h {
                // a band of rows: the first drawn, the rest copies of it or with a step
                let band = 1 + next(12);
                let mut x = 0;
                while x < w {
                    let (len, v) = (1 + next(15), [0u8, 6, 12, 60, 200][next(5) as usize]);
                    for k in x..(x + len).min(w) {
                        img.put_pixel(k, y, Rgb([v, v.saturating_add(next(3) as u8), v]));
                    }
                    x += len;
                }
                for k in y + 1..(y + band).min(h) {
                    for x in 0..w {
                        let p = *img.get_pixel(x, k - 1);
                        let step = if next(9) == 0 { 11 } else { 0 };
                        img.put_pixel(x, k, Rgb([p[0].saturating_add(step), p[1], p[2]]));
                    }
                }
                y += band;
            }
            let r = label_regions(&img);
            let mut want = flood_regions(&img);
            want.sort_unstable_by_key(|f| f.0);
            let got: Vec<_> = r
                .regions
                .iter()
                .map(|g| (g.area, [g.x0, g.y0, g.x1, g.y1], g.sum))
                .collect();
            let want: Vec<_> = want.into_iter().map(|f| (f.1, f.2, f.3)).collect();
            assert_eq!(got, want, "a {w}x{h} picture");
        }
    }

    #[test]
    fn the_blur_is_the_mean_of_the_box_around_each_pixel_edges_repeated() {
        let (w, h) = (23u32, 17u32);
        let img = RgbImage::from_fn(w, h, |x, y| {
            Rgb([
                (x * 37 + y * 11) as u8,
                (x * y * 7) as u8,
                255 - (x * 13) as u8,
            ])
        });
        for radius in [1u32, 2, 3, 7, 12] {
            let got = smooth(&img, radius);
            let r = radius as i64;
            for y in 0..h as i64 {
                for x in 0..w as i64 {
                    for c in 0..3 {
                        // Each pass rounds down: the rows' means, then their mean.
                        let row_mean = |yy: i64| {
                            let yy = yy.clamp(0, h as i64 - 1) as u32;
                            let sum: u32 = (x - r..=x + r)
                                .map(|xx| {
                                    img.get_pixel(xx.clamp(0, w as i64 - 1) as u32, yy)[c] as u32
                                })
                                .sum();
                            sum / (2 * r + 1) as u32
                        };
                        let want = (y - r..=y + r).map(row_mean).sum::<u32>() / (2 * r + 1) as u32;
                        assert_eq!(
                            got.get_pixel(x as u32, y as u32)[c] as u32,
                            want,
                            "radius {radius} at {x},{y}"
                        );
                    }
                }
            }
        }
        // Every sum of bytes a blur of any radius up to 64 meets divides exactly.
        for n in (1..=129u32).step_by(2) {
            let mean = mean_of(n);
            assert!((0..=255 * n).all(|s| mean(s) as u32 == s / n), "{n} bytes");
        }
    }
}
