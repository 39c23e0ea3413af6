//! A cheap fingerprint of a capture, so that an unchanged window is not read again.

use super::*;

/// A cheap fingerprint of a capture: the mean brightness of 24x24 blocks of `area`
/// (the grid once known, else the whole picture), quantised to 16 levels so that noise
/// does not count as change, hashed with FNV-1a. Costs well under a millisecond.
pub fn fingerprint(picture: &RgbaImage, area: Option<(u32, u32, u32, u32)>) -> u64 {
    const BLOCKS: u32 = 24;
    let (x0, y0, w, h) = area.unwrap_or((0, 0, picture.width(), picture.height()));
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |v: u64| {
        for b in v.to_le_bytes() {
            hash = (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    };
    feed(((picture.width() as u64) << 32) | picture.height() as u64);
    if w == 0 || h == 0 {
        return hash;
    }
    for by in 0..BLOCKS {
        for bx in 0..BLOCKS {
            let (sx0, sx1) = (
                x0 + bx * w / BLOCKS,
                x0 + ((bx + 1) * w / BLOCKS).max(bx * w / BLOCKS + 1),
            );
            let (sy0, sy1) = (
                y0 + by * h / BLOCKS,
                y0 + ((by + 1) * h / BLOCKS).max(by * h / BLOCKS + 1),
            );
            let (mut sum, mut n) = (0u64, 0u64);
            for y in (sy0..sy1.min(picture.height())).step_by(2) {
                for x in (sx0..sx1.min(picture.width())).step_by(2) {
                    let p = picture.get_pixel(x, y).0;
                    sum += p[0] as u64 * 3 + p[1] as u64 * 6 + p[2] as u64;
                    n += 10;
                }
            }
            feed(sum.checked_div(n).unwrap_or(0) / 16);
        }
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_ignores_change_outside_the_area_but_not_inside() {
        let mut a = RgbaImage::from_pixel(200, 100, image::Rgba([255, 255, 255, 255]));
        let base = fingerprint(&a, Some((0, 0, 100, 100)));
        for y in 0..20 {
            for x in 150..190 {
                a.put_pixel(x, y, image::Rgba([0, 0, 0, 255]));
            }
        }
        assert_eq!(fingerprint(&a, Some((0, 0, 100, 100))), base);
        assert_ne!(
            fingerprint(&a, None),
            fingerprint(
                &RgbaImage::from_pixel(200, 100, image::Rgba([255; 4])),
                None
            )
        );
        for y in 40..60 {
            for x in 40..60 {
                a.put_pixel(x, y, image::Rgba([0, 0, 0, 255]));
            }
        }
        assert_ne!(fingerprint(&a, Some((0, 0, 100, 100))), base);
    }
}
