//! A photo's ink: the pixels darker than the paper around them, which both finding the
//! grid's outline and following its lines start from.

use image::{GrayImage, Luma};

/// Ink mask (255 ink, 0 paper): a pixel darker than the mean of the square of
/// half-side `radius` around it by more than 7% of that mean (and at least 5 levels).
pub fn ink_mask(gray: &GrayImage, radius: u32) -> GrayImage {
    let (w, h) = gray.dimensions();
    let (wu, hu) = (w as usize, h as usize);
    let mut integral = vec![0u64; (wu + 1) * (hu + 1)];
    for y in 0..hu {
        let mut row = 0u64;
        for x in 0..wu {
            row += gray.get_pixel(x as u32, y as u32)[0] as u64;
            integral[(y + 1) * (wu + 1) + x + 1] = integral[y * (wu + 1) + x + 1] + row;
        }
    }
    let r = radius.max(1) as usize;
    let mut out = GrayImage::new(w, h);
    for y in 0..hu {
        let (y0, y1) = (y.saturating_sub(r), (y + r + 1).min(hu));
        for x in 0..wu {
            let (x0, x1) = (x.saturating_sub(r), (x + r + 1).min(wu));
            let sum = integral[y1 * (wu + 1) + x1] + integral[y0 * (wu + 1) + x0]
                - integral[y0 * (wu + 1) + x1]
                - integral[y1 * (wu + 1) + x0];
            let mean = sum as f32 / ((x1 - x0) * (y1 - y0)) as f32;
            let v = gray.get_pixel(x as u32, y as u32)[0] as f32;
            if v < mean - (0.07 * mean).max(5.0) {
                out.put_pixel(x as u32, y as u32, Luma([255]));
            }
        }
    }
    out
}
