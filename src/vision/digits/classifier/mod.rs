//! The digit classifier: tells an empty cell from the digits 1-9 in a cell crop.
//!
//! Two halves, used identically in training (`tools/train-digits`) and at run time:
//! - [`prepare`]: the fixed preprocessing. The crop is resampled to [`WORK_SIDE`] px,
//!   turned dark-on-light whatever its polarity, converted to an "ink" map (depth below
//!   the local paper grey, 0 paper, 1 the cell's darkest ink), cleared of grid-line
//!   remnants along its edges; the digit is the largest ink component near the centre,
//!   scaled to fit [`DIGIT_BOX`] px and centred in a [`SIDE`] x [`SIDE`] picture (the
//!   MNIST layout, LeCun et al. 1998). A few size and contrast figures ride along, since
//!   scaling the glyph erases them and they are what tells a speck from a digit.
//! - [`DigitClassifier`]: a small multilayer perceptron (ReLU hidden layers, softmax out)
//!   over that input, weights shipped in `models/digits.bin`.
//!
//! Class 0 is "empty", classes 1-9 the digits.

use image::GrayImage;

mod prepare;
pub use prepare::prepare;

/// Classes: 0 empty, 1-9 the digits.
pub const CLASSES: usize = 10;
/// Side of the normalised digit picture fed to the model.
pub const SIDE: usize = 28;
/// The digit's longer side is scaled to this many pixels inside the [`SIDE`] picture
/// (MNIST's 20-in-28).
pub const DIGIT_BOX: f32 = 20.0;
/// The cell crop is resampled to this side before anything else, so every threshold
/// below is in the same units whatever the picture's resolution.
pub const WORK_SIDE: u32 = 48;
/// Extra inputs after the pixels: digit height and width (fractions of the cell side),
/// mean ink inside the digit box, and the cell's contrast (fraction of 255).
pub const EXTRA: usize = 4;
/// Length of the model's input vector.
pub const INPUTS: usize = SIDE * SIDE + EXTRA;

/// Why the model could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ClassifierError {
    #[error("digit model {what}: {detail}")]
    BadModel { what: String, detail: String },
    #[error("cannot read digit model {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// The shipped weights (written by `tools/train-digits`).
const SHIPPED_MODEL: &[u8] = include_bytes!("../../../../models/digits.bin");
/// First bytes of a model file.
const MAGIC: &[u8; 4] = b"SDG1";

/// One fully connected layer: `out = weights * in + bias`, weights row-major
/// (`outputs` rows of `inputs`).
#[derive(Debug, Clone)]
pub struct Dense {
    pub inputs: usize,
    pub outputs: usize,
    pub weights: Vec<f32>,
    pub bias: Vec<f32>,
}

impl Dense {
    /// `out[o] = bias[o] + sum_i weights[o][i] * input[i]`.
    pub fn forward(&self, input: &[f32], out: &mut Vec<f32>) {
        out.clear();
        for o in 0..self.outputs {
            let row = &self.weights[o * self.inputs..(o + 1) * self.inputs];
            let s: f32 = row.iter().zip(input).map(|(w, x)| w * x).sum();
            out.push(s + self.bias[o]);
        }
    }
}

/// The digit model: dense layers with ReLU between them and a softmax at the end.
#[derive(Debug, Clone)]
pub struct DigitClassifier {
    pub layers: Vec<Dense>,
}

impl DigitClassifier {
    /// The model shipped with the program.
    pub fn load() -> Result<DigitClassifier, ClassifierError> {
        DigitClassifier::from_bytes(SHIPPED_MODEL, "models/digits.bin (built in)")
    }

    /// A model from a file written by [`DigitClassifier::to_bytes`].
    pub fn load_file(path: &std::path::Path) -> Result<DigitClassifier, ClassifierError> {
        let bytes = std::fs::read(path).map_err(|source| ClassifierError::Io {
            path: path.display().to_string(),
            source,
        })?;
        DigitClassifier::from_bytes(&bytes, &path.display().to_string())
    }

    /// Parses the model format: "SDG1", u32 layer count, then per layer u32 inputs,
    /// u32 outputs, the weights and the biases as f32, all little-endian.
    pub fn from_bytes(bytes: &[u8], what: &str) -> Result<DigitClassifier, ClassifierError> {
        DigitClassifier::from_bytes_of(bytes, what, INPUTS)
    }

    /// [`DigitClassifier::from_bytes`] for a model of `inputs` inputs (the glyph shape
    /// model's input is not the cell classifier's).
    pub fn from_bytes_of(
        bytes: &[u8],
        what: &str,
        inputs: usize,
    ) -> Result<DigitClassifier, ClassifierError> {
        let bad = |detail: &str| ClassifierError::BadModel {
            what: what.to_string(),
            detail: detail.to_string(),
        };
        if bytes.len() < 8 || &bytes[..4] != MAGIC {
            return Err(bad("not a digit model (wrong header)"));
        }
        let mut pos = 4;
        let next_u32 = |pos: &mut usize| -> Result<usize, ClassifierError> {
            let b = bytes
                .get(*pos..*pos + 4)
                .ok_or_else(|| bad("file is cut short"))?;
            *pos += 4;
            Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
        };
        let count = next_u32(&mut pos)?;
        let mut layers = Vec::with_capacity(count);
        let mut expected_inputs = inputs;
        for _ in 0..count {
            let inputs = next_u32(&mut pos)?;
            let outputs = next_u32(&mut pos)?;
            if inputs != expected_inputs || outputs == 0 || outputs > 4096 {
                return Err(bad("layer sizes do not chain"));
            }
            let n = inputs * outputs + outputs;
            let raw = bytes
                .get(pos..pos + 4 * n)
                .ok_or_else(|| bad("file is cut short"))?;
            pos += 4 * n;
            let values: Vec<f32> = raw
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect();
            let (weights, bias) = values.split_at(inputs * outputs);
            layers.push(Dense {
                inputs,
                outputs,
                weights: weights.to_vec(),
                bias: bias.to_vec(),
            });
            expected_inputs = outputs;
        }
        if expected_inputs != CLASSES || layers.is_empty() {
            return Err(bad("last layer does not have 10 outputs"));
        }
        Ok(DigitClassifier { layers })
    }

    /// The model in the format [`DigitClassifier::from_bytes`] reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.layers.len() as u32).to_le_bytes());
        for l in &self.layers {
            out.extend_from_slice(&(l.inputs as u32).to_le_bytes());
            out.extend_from_slice(&(l.outputs as u32).to_le_bytes());
            for v in l.weights.iter().chain(l.bias.iter()) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        out
    }

    /// Probabilities of the classes (index 0 empty, 1-9 the digits) for a square cell
    /// crop of any size and polarity.
    pub fn classify(&self, cell: &GrayImage) -> [f32; CLASSES] {
        self.classify_prepared(&prepare(cell))
    }

    /// Probabilities for an input already made by [`prepare`].
    pub fn classify_prepared(&self, input: &[f32]) -> [f32; CLASSES] {
        let mut a = input.to_vec();
        let mut b = Vec::new();
        for (k, layer) in self.layers.iter().enumerate() {
            layer.forward(&a, &mut b);
            if k + 1 < self.layers.len() {
                for v in b.iter_mut() {
                    *v = v.max(0.0);
                }
            }
            std::mem::swap(&mut a, &mut b);
        }
        softmax(&a)
    }
}

/// Softmax of the logits (the first [`CLASSES`] of them).
pub fn softmax(logits: &[f32]) -> [f32; CLASSES] {
    let max = logits
        .iter()
        .take(CLASSES)
        .fold(f32::NEG_INFINITY, |m, &v| m.max(v));
    let mut out = [0.0f32; CLASSES];
    let mut sum = 0.0;
    for (o, &v) in out.iter_mut().zip(logits) {
        *o = (v - max).exp();
        sum += *o;
    }
    for o in out.iter_mut() {
        *o /= sum;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_format_round_trips() {
        let layer = |i: usize, o: usize| Dense {
            inputs: i,
            outputs: o,
            weights: (0..i * o).map(|k| k as f32 * 1e-4).collect(),
            bias: vec![0.5; o],
        };
        let m = DigitClassifier {
            layers: vec![layer(INPUTS, 8), layer(8, CLASSES)],
        };
        let back = DigitClassifier::from_bytes(&m.to_bytes(), "test").unwrap();
        assert_eq!(back.layers[1].weights, m.layers[1].weights);
        assert!(DigitClassifier::from_bytes(b"SDG1\x01\0\0\0", "test").is_err());
        assert!(DigitClassifier::from_bytes(b"nope", "test").is_err());
    }
}
