//! The glyph shape model: which digit a cut-out glyph is, by its shape alone, whatever
//! the face draws it with. Trained (`tools/train-shapes`) on digits rendered from the
//! system's fonts, each drawn as screens draw digits: plain, bolder, thinner, as a
//! hollow outline, through a dot-matrix screen, cut as a stencil, and as seven-segment
//! digits built from the segment table, then shrunk to 6-90 px high. It reads the glyph
//! the screenshot path cut out (not a cell, as the photo classifier does), so that
//! dots and segments, many pieces, are one digit to it.
//!
//! Input: the glyph's ink over its 99th percentile (0..1), cropped to where it reaches a
//! quarter, scaled by area averaging so that its longer side is [`BOX`] px, centred in
//! a [`SIDE`]x[`SIDE`] picture; then its width over its height and its mean ink.

use image::GrayImage;

use super::classifier::{softmax, DigitClassifier, CLASSES};

/// Side of the model's picture.
pub const SIDE: usize = 28;
/// The glyph's longer side in that picture.
pub const BOX: f32 = 20.0;
/// The model's inputs: the picture and two figures.
pub const INPUTS: usize = SIDE * SIDE + 2;
/// Ink below this share of the glyph's strong ink is outside its box.
const CROP_LEVEL: f32 = 0.25;

/// The shipped weights.
const SHIPPED: &[u8] = include_bytes!("../../../models/shapes.bin");

/// First bytes of the model file: "SHP1", a u32 count, then each net as a u32 length
/// and the photo classifier's format (little-endian).
const MAGIC: &[u8; 4] = b"SHP1";

/// The model: networks of the photo classifier's dense layers, over [`features`],
/// trained apart (other samples and seeds); their probabilities are averaged, so that
/// one net's confident slip is not the model's.
pub struct ShapeModel {
    nets: Vec<DigitClassifier>,
    /// Glyphs read already in this picture and the last ones (a group's glyphs are
    /// read to name it, to check it and to split it).
    seen: Vec<(GrayImage, Option<[f32; CLASSES]>)>,
}

/// At most this many glyphs' readings are kept.
const SEEN: usize = 256;

impl ShapeModel {
    /// The model shipped with the program.
    pub fn load() -> ShapeModel {
        ShapeModel::from_bytes(SHIPPED).expect("the shipped shape model parses")
    }

    /// Parses the model format (see [`MAGIC`]).
    pub fn from_bytes(bytes: &[u8]) -> Option<ShapeModel> {
        let word = |at: usize| -> Option<usize> {
            let b = bytes.get(at..at + 4)?;
            Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        if bytes.get(..4)? != MAGIC {
            return None;
        }
        let mut at = 8;
        let mut nets = Vec::new();
        for _ in 0..word(4)? {
            let len = word(at)?;
            let net = bytes.get(at + 4..at + 4 + len)?;
            nets.push(DigitClassifier::from_bytes_of(net, "models/shapes.bin", INPUTS).ok()?);
            at += 4 + len;
        }
        (!nets.is_empty()).then_some(ShapeModel {
            nets,
            seen: Vec::new(),
        })
    }

    /// The digit and its probability for a glyph's ink (0 background .. 255 ink); `None`
    /// for a glyph with no ink.
    pub fn read(&mut self, ink: &GrayImage) -> Option<(u8, f32)> {
        let p = self.probabilities(ink)?;
        (1..=9u8)
            .map(|d| (d, p[d as usize]))
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Each digit's probability for a glyph's ink (index = digit); `None` for a glyph
    /// with no ink.
    pub fn probabilities(&mut self, ink: &GrayImage) -> Option<[f32; CLASSES]> {
        if let Some((_, r)) = self.seen.iter().find(|(seen, _)| seen == ink) {
            return *r;
        }
        let read = features(ink).map(|input| {
            let mut p = [0.0f32; CLASSES];
            for net in &self.nets {
                for (sum, v) in p.iter_mut().zip(classify(net, &input)) {
                    *sum += v / self.nets.len() as f32;
                }
            }
            p
        });
        if self.seen.len() >= SEEN {
            self.seen.clear();
        }
        self.seen.push((ink.clone(), read));
        read
    }
}

/// The net's probabilities, as [`DigitClassifier::classify_prepared`] gives them but
/// with each dot product summed in eight lanes (so that the compiler vectorises it:
/// the shape model's first layer is four times the photo classifier's).
fn classify(net: &DigitClassifier, input: &[f32]) -> [f32; CLASSES] {
    let mut a = input.to_vec();
    for (k, layer) in net.layers.iter().enumerate() {
        let last = k + 1 == net.layers.len();
        a = (0..layer.outputs)
            .map(|o| {
                let row = &layer.weights[o * layer.inputs..(o + 1) * layer.inputs];
                let v = layer.bias[o] + dot(row, &a);
                if last {
                    v
                } else {
                    v.max(0.0)
                }
            })
            .collect();
    }
    softmax(&a)
}

/// The dot product of two slices of one length, in eight lanes.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for ((lane, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// The model's input for a glyph's ink (module docs).
pub fn features(ink: &GrayImage) -> Option<Vec<f32>> {
    let (w, h) = (ink.width() as usize, ink.height() as usize);
    if w == 0 || h == 0 {
        return None;
    }
    let raw: Vec<f32> = ink.as_raw().iter().map(|&v| v as f32).collect();
    let top = percentile_99(&raw);
    if top <= 0.0 {
        return None;
    }
    let v: Vec<f32> = raw.iter().map(|x| (x / top).clamp(0.0, 1.0)).collect();
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if v[y * w + x] > CROP_LEVEL {
                x0 = x0.min(x);
                x1 = x1.max(x);
                y0 = y0.min(y);
                y1 = y1.max(y);
            }
        }
    }
    if x0 == usize::MAX {
        return None;
    }
    let (cw, ch) = (x1 - x0 + 1, y1 - y0 + 1);
    let crop: Vec<f32> = (y0..=y1)
        .flat_map(|y| v[y * w + x0..=y * w + x1].iter().copied())
        .collect();
    let s = BOX / cw.max(ch) as f32;
    let nw = ((cw as f32 * s + 0.5) as usize).max(1);
    let nh = ((ch as f32 * s + 0.5) as usize).max(1);
    let wy = area_weights(ch, nh);
    let wx = area_weights(cw, nw);
    let mut out = vec![0.0f32; INPUTS];
    let (oy, ox) = ((SIDE - nh) / 2, (SIDE - nw) / 2);
    // out = Wy * crop * Wx^T, rows first.
    let mut rows = vec![0.0f32; nh * cw];
    for (k, wk) in wy.iter().enumerate() {
        for &(i, f) in wk {
            for x in 0..cw {
                rows[k * cw + x] += f * crop[i * cw + x];
            }
        }
    }
    for k in 0..nh {
        for (j, wj) in wx.iter().enumerate() {
            let sum: f32 = wj.iter().map(|&(i, f)| f * rows[k * cw + i]).sum();
            out[(oy + k) * SIDE + ox + j] = sum;
        }
    }
    out[SIDE * SIDE] = cw as f32 / ch as f32;
    out[SIDE * SIDE + 1] = crop.iter().sum::<f32>() / crop.len() as f32;
    Some(out)
}

/// For each of `n_out` output pixels, the input pixels it covers and by what share
/// (area averaging: output `k` is the mean of input `[k, k+1) * n_in / n_out`).
fn area_weights(n_in: usize, n_out: usize) -> Vec<Vec<(usize, f32)>> {
    let step = n_in as f32 / n_out as f32;
    (0..n_out)
        .map(|k| {
            let (a, b) = (k as f32 * step, (k + 1) as f32 * step);
            (a.floor() as usize..(b.ceil() as usize).min(n_in))
                .map(|i| {
                    (
                        i,
                        ((b.min(i as f32 + 1.0) - a.max(i as f32)).max(0.0)) / step,
                    )
                })
                .collect()
        })
        .collect()
}

/// The 99th percentile, interpolated between ranks (numpy's default).
fn percentile_99(values: &[f32]) -> f32 {
    let mut v = values.to_vec();
    v.sort_by(f32::total_cmp);
    let pos = 0.99 * (v.len() - 1) as f32;
    let i = pos as usize;
    let f = pos - i as f32;
    match v.get(i + 1) {
        Some(&next) => v[i] * (1.0 - f) + next * f,
        None => v[i],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A seven-segment digit 20x36 px of `segments` (a top, b upper right, c lower
    /// right, d bottom, e lower left, f upper left, g middle), bars 4 px thick.
    fn seven_segment(segments: &str) -> GrayImage {
        let mut ink = GrayImage::new(20, 36);
        let mut bar = |x0: u32, y0: u32, w: u32, h: u32| {
            for y in y0..y0 + h {
                for x in x0..x0 + w {
                    ink.put_pixel(x, y, Luma([255]));
                }
            }
        };
        for s in segments.chars() {
            match s {
                'a' => bar(3, 0, 14, 4),
                'b' => bar(16, 3, 4, 14),
                'c' => bar(16, 19, 4, 14),
                'd' => bar(3, 32, 14, 4),
                'e' => bar(0, 19, 4, 14),
                'f' => bar(0, 3, 4, 14),
                _ => bar(3, 16, 14, 4),
            }
        }
        ink
    }

    #[test]
    fn the_shipped_model_reads_seven_segment_digits() {
        let mut model = ShapeModel::load();
        for (d, segments) in [
            (2, "abged"),
            (4, "fgbc"),
            (5, "afgcd"),
            (7, "abc"),
            (8, "abcdefg"),
        ] {
            let (read, p) = model.read(&seven_segment(segments)).unwrap();
            assert_eq!(read, d, "{segments}");
            assert!(p >= 0.9, "{segments}: {p}");
        }
        assert!(model.read(&GrayImage::new(10, 10)).is_none(), "no ink");
        // A 7 lights three of an 8's seven segments, yet the model gives 8 next to
        // nothing: the probabilities by which the rules leave a digit out.
        let p = model.probabilities(&seven_segment("abc")).unwrap();
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        assert!(p[8] < 0.01, "8 beside a 7: {}", p[8]);
    }

    #[test]
    fn area_averaging_keeps_the_mean_and_a_glyph_is_centred() {
        let w = area_weights(7, 3);
        for wk in &w {
            let total: f32 = wk.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-5);
        }
        // A 10x20 bar: 10x20 px in the picture, centred.
        let ink = GrayImage::from_pixel(10, 20, Luma([200]));
        let f = features(&ink).unwrap();
        let lit: Vec<usize> = (0..SIDE * SIDE).filter(|&k| f[k] > 0.5).collect();
        assert_eq!(lit.len(), 10 * 20);
        assert_eq!(lit[0], 4 * SIDE + 9);
        assert!((f[SIDE * SIDE] - 0.5).abs() < 1e-6);
    }
}
