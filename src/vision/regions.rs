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

/// The labelling: one label per pixel, and the statistics of each label.
pub struct Regions {
    pub width: u32,
    pub height: u32,
    pub labels: Vec<u32>,
    pub regions: Vec<Region>,
}

impl Regions {
    pub fn label_at(&self, x: u32, y: u32) -> u32 {
        self.labels[(y * self.width + x) as usize]
    }
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

/// Labels the flat-colour regions of `img`.
pub fn label_regions(img: &RgbImage) -> Regions {
    let (w, h) = img.dimensions();
    let n = (w * h) as usize;
    let raw = img.as_raw();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for y in 0..h {
        let row = (y * w) as usize;
        for x in 0..w {
            let i = row + x as usize;
            let p = &raw[i * 3..i * 3 + 3];
            if x + 1 < w && close(p, &raw[(i + 1) * 3..(i + 1) * 3 + 3]) {
                union(&mut parent, i as u32, i as u32 + 1);
            }
            if y + 1 < h {
                let j = i + w as usize;
                if close(p, &raw[j * 3..j * 3 + 3]) {
                    union(&mut parent, i as u32, j as u32);
                }
            }
        }
    }
    // Compact the roots into labels 0..k and gather statistics.
    let mut label_of_root = vec![u32::MAX; n];
    let mut labels = vec![0u32; n];
    let mut regions: Vec<Region> = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) as usize;
            let root = find(&mut parent, i as u32) as usize;
            let mut l = label_of_root[root];
            if l == u32::MAX {
                l = regions.len() as u32;
                label_of_root[root] = l;
                regions.push(Region {
                    x0: x,
                    y0: y,
                    x1: x,
                    y1: y,
                    ..Default::default()
                });
            }
            labels[i] = l;
            let r = &mut regions[l as usize];
            r.area += 1;
            r.x0 = r.x0.min(x);
            r.x1 = r.x1.max(x);
            r.y0 = r.y0.min(y);
            r.y1 = r.y1.max(y);
            for c in 0..3 {
                r.sum[c] += raw[i * 3 + c] as u64;
            }
        }
    }
    Regions {
        width: w,
        height: h,
        labels,
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

#[inline]
fn union(parent: &mut [u32], a: u32, b: u32) {
    let ra = find(parent, a);
    let rb = find(parent, b);
    if ra != rb {
        // Keep the smaller index as root so roots appear in scan order.
        if ra < rb {
            parent[rb as usize] = ra;
        } else {
            parent[ra as usize] = rb;
        }
    }
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
        let left = r.regions[r.label_at(0, 0) as usize];
        assert_eq!((left.width(), left.height(), left.area), (10, 10, 100));
        let right = r.regions[r.label_at(20, 9) as usize];
        assert_eq!(right.width(), 10);
        assert_eq!(left.mean(), [255, 255, 255]);
    }
}
