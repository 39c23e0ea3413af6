//! What kind of picture this is and its size: noise, a photo or a screenshot (by how
//! many neighbouring pixels are equal or close), and pictures scaled down to a pixel
//! budget and their readings scaled back.

use image::DynamicImage;

use super::reading::{ReadError, Reading};

/// A megapixel, as cameras count them in binary steps: 2^20 pixels.
pub const MEGAPIXEL: u64 = 1 << 20;

/// The pixel budget: the largest picture read (8192x6400, past any phone camera and an
/// 8K screen). Files over it are refused before decoding; [`Reader::read`](crate::vision::Reader::read) scales a
/// picture over it down first. Within it, a read costs at most about 2 s and 1 GB on
/// one core, whatever the picture shows (`cargo bench --bench hostile`).
pub const MAX_PICTURE_PIXELS: u64 = 50 * MEGAPIXEL;

/// True for camera pictures: sensor noise and JPEG leave few neighbouring pixels
/// exactly equal, where screenshots (flat fills, even gradients) have most of them
/// equal. Sampled on every 4th row.
pub fn looks_like_photo(rgb: &image::RgbImage) -> bool {
    let (equal, _) = neighbour_shares(rgb);
    equal.is_some_and(|share| share < PHOTO_EQUAL_SHARE)
}

/// The share of horizontally neighbouring pixels that are exactly equal, and the share
/// of pixels that are close (every channel within the labelling's tolerance) to their
/// neighbour and to the pixel 4 to the right (the lower of the two: noise drawn in
/// blocks of up to 4 px has close neighbours inside a block, none across), on every
/// 4th row; `None` for a picture less than 5 pixels wide.
pub(super) fn neighbour_shares(rgb: &image::RgbImage) -> (Option<f64>, Option<f64>) {
    let (w, h) = rgb.dimensions();
    let (mut equal, mut close, mut close_far, mut pairs) = (0u64, 0u64, 0u64, 0u64);
    let stride = w as usize * 3;
    let near = |a: &[u8], b: &[u8]| {
        a.iter()
            .zip(b)
            .all(|(p, q)| p.abs_diff(*q) <= super::locate::regions::FLAT_TOLERANCE)
    };
    for y in (0..h as usize).step_by(4) {
        let row = &rgb.as_raw()[y * stride..(y + 1) * stride];
        let pixels = row.chunks_exact(3);
        for ((a, b), far) in pixels
            .clone()
            .zip(pixels.clone().skip(1))
            .zip(pixels.skip(4))
        {
            pairs += 1;
            equal += (a == b) as u64;
            close += near(a, b) as u64;
            close_far += near(a, far) as u64;
        }
    }
    if pairs == 0 {
        return (None, None);
    }
    let share = |n: u64| n as f64 / pairs as f64;
    let (equal, close, close_far) = (share(equal), share(close), share(close_far));
    tracing::debug!(
        "neighbouring pixels: {equal:.3} equal, {close:.3} close, {close_far:.3} close 4 px apart"
    );
    (Some(equal), Some(close.min(close_far)))
}

/// Below this share of close neighbouring pixels a picture is noise, not a grid: no
/// flat cells for the screenshot path, no paper for the photo path. Random noise has
/// 0.001, noise in 2x2 blocks 0.50 next door and 0.000 4 px apart; the screenshot
/// fixtures 0.79 and up next door and 0.62 and up 4 px apart, the 200 Wicht photos
/// 0.74 and 0.46.
pub(super) const NOISE_CLOSE_SHARE: f64 = 0.25;

/// Photos over this many pixels are read by the photo path alone (see [`Reader::read`]):
/// 12 MP, a phone's usual picture; the fixture photos are at most 5 MP.
pub(super) const PHOTO_ONLY_PIXELS: u64 = 12 * MEGAPIXEL;

/// The photo path reads pictures scaled down to at most this many pixels (a grid
/// filling a tenth of the picture still has cells of 100 px).
pub(super) const PHOTO_WORK_PIXELS: u64 = 8 * MEGAPIXEL;

/// The picture as RGB: grey pictures (a 1-bit or 8-bit PNG) are expanded directly,
/// which is several times quicker than the general conversion and gives the same.
pub(super) fn rgb_of(picture: &DynamicImage) -> image::RgbImage {
    match picture {
        DynamicImage::ImageLuma8(gray) => {
            let raw: Vec<u8> = gray.as_raw().iter().flat_map(|&v| [v, v, v]).collect();
            image::RgbImage::from_raw(gray.width(), gray.height(), raw).expect("3 bytes a pixel")
        }
        _ => picture.to_rgb8(),
    }
}

/// The picture shrunk by a whole factor `k`: each pixel the mean of a `k` x `k` square
/// (a ragged edge is dropped). One pass, unlike a general resampling filter, whose cost
/// grows with the factor.
pub(super) fn shrink(gray: &image::GrayImage, k: u32) -> image::GrayImage {
    let (w, h) = (gray.width() / k, gray.height() / k);
    let mut sums = vec![0u32; w as usize];
    let mut out = image::GrayImage::new(w, h);
    let area = k * k;
    for (y, row) in out.rows_mut().enumerate() {
        sums.fill(0);
        let stride = gray.width() as usize;
        for dy in 0..k as usize {
            let start = (y * k as usize + dy) * stride;
            let src = &gray.as_raw()[start..start + (w * k) as usize];
            for (x, &p) in src.iter().enumerate() {
                sums[x / k as usize] += p as u32;
            }
        }
        for (p, &s) in row.zip(&sums) {
            p[0] = (s / area) as u8;
        }
    }
    out
}

/// A reading of a picture shrunk by `k`, in the picture's own pixels (doubtful ones
/// too).
pub(super) fn scaled(read: Result<Reading, ReadError>, k: f32) -> Result<Reading, ReadError> {
    placed(read, k, (0.0, 0.0))
}

/// A reading of a part of a picture scaled by `1 / k` (shrunk by `k` > 1, enlarged by
/// `k` < 1), whose top-left corner stands at `origin` in the picture: in the picture's
/// own pixels (doubtful ones too).
pub(super) fn placed(
    read: Result<Reading, ReadError>,
    k: f32,
    origin: (f32, f32),
) -> Result<Reading, ReadError> {
    match read {
        Ok(mut reading) => {
            place_reading(&mut reading, k, origin);
            Ok(reading)
        }
        Err(ReadError::Doubtful {
            reason,
            cells,
            mut reading,
        }) => {
            place_reading(&mut reading, k, origin);
            Err(ReadError::Doubtful {
                reason,
                cells,
                reading,
            })
        }
        Err(e) => Err(e),
    }
}

/// Maps a reading of a part of a picture, scaled down by `k`, back onto the picture,
/// where the part's top-left corner stands at `origin`.
pub(super) fn place_reading(reading: &mut Reading, k: f32, (ox, oy): (f32, f32)) {
    let point = |p: &mut super::geometry::Point| {
        p.x = p.x * k + ox;
        p.y = p.y * k + oy;
    };
    let rect = |r: &mut super::geometry::Rect| {
        r.x = r.x * k + ox;
        r.y = r.y * k + oy;
        r.w *= k;
        r.h *= k;
    };
    reading.corners.iter_mut().for_each(point);
    for cell in &mut reading.cells {
        rect(&mut cell.cell_box);
        if let Some(b) = &mut cell.digit_box {
            rect(b);
        }
    }
    // x = (h0 u + h1 v + h2) / (h6 u + h7 v + h8): scaled, then shifted.
    let h = &mut reading.to_picture.h;
    for v in &mut h[..6] {
        *v *= k as f64;
    }
    for j in 0..3 {
        h[j] += ox as f64 * h[6 + j];
        h[3 + j] += oy as f64 * h[6 + j];
    }
}

/// Below this share of exactly equal neighbours, a picture is taken for a photo. On the
/// Wicht train photos the share is 0.02-0.56 (heavily compressed JPEGs flatten blocks);
/// on the 60 screenshot fixtures 0.71 and up.
pub(super) const PHOTO_EQUAL_SHARE: f64 = 0.65;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grey_pictures_expand_to_the_same_rgb_as_the_general_conversion() {
        let gray = image::GrayImage::from_fn(37, 11, |x, y| image::Luma([(x * 7 + y * 13) as u8]));
        let picture = DynamicImage::ImageLuma8(gray);
        assert_eq!(rgb_of(&picture), picture.to_rgb8());
    }

    #[test]
    fn shrinking_averages_whole_squares() {
        let gray = image::GrayImage::from_fn(7, 5, |x, y| image::Luma([(10 * x + y) as u8]));
        let small = shrink(&gray, 2);
        assert_eq!(small.dimensions(), (3, 2));
        // (0+1+10+11)/4 and (40+41+50+51)/4 = 45.5, truncated
        assert_eq!(small.get_pixel(0, 0)[0], 5);
        assert_eq!(small.get_pixel(2, 0)[0], 45);
    }
}
