//! Trains sudoku-bot's digit classifier and writes `models/digits.bin`.
//!
//! Data: the cells of the Wicht-v2 *train* split (cut through the ground-truth outlines,
//! jittered, then followed along the grid lines exactly as the reader does), plus
//! digits and empty cells rendered from the system's fonts with augmentation (blur,
//! noise, contrast, shifts, scale, line remnants). Every sample goes through
//! `classifier::prepare`, the same preprocessing the reader uses.
//!
//! Model: an MLP (INPUTS -> 128 -> 64 -> 10, ReLU), trained by minibatch SGD with
//! momentum on the cross-entropy, written out here by hand.
//!
//! Usage: train-digits DATASET_DIR OUT.bin [--epochs N] [--holdout] [--align MODEL]
//!   --holdout keeps every 8th train photo out of training and reports on it.
//!   --align MODEL cuts each photo's cells through the published or the located
//!     outline, whichever agrees better with its labels under MODEL (a first pass).
//!   --screen adds what screens do to font digits: slant, bolder, thinner and
//!     outline-only strokes, subpixel colour fringes, JPEG. (Tried; the models it gave
//!     misread more Wicht photos, so the shipped model is trained without it.)
//!
//! The shipped model (release build, about 3 minutes on one free core):
//!   train-digits DATA /tmp/first.bin --epochs 8 --holdout
//!   train-digits DATA models/digits.bin --epochs 8 --align /tmp/first.bin

mod fonts;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use fonts::{load_fonts, render_cell};
use image::{GrayImage, Luma};
use sudoku_bot::dataset::load_desc;
use sudoku_bot::vision::digits::classifier::{
    prepare, softmax, Dense, DigitClassifier, CLASSES, INPUTS, WORK_SIDE,
};
use sudoku_bot::vision::photo::{work_picture, GridMesh};
use sudoku_bot::vision::Point;

/// Small deterministic PRNG (xorshift64*), so runs are repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn uniform(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, a: f32, b: f32) -> f32 {
        a + (b - a) * self.uniform()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn normal(&mut self) -> f32 {
        let u = self.uniform().max(1e-7);
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
    }
}

struct Sample {
    input: Vec<f32>,
    label: u8,
}

fn main() -> anyhow::Result<()> {
    let options = Options::parse()?;
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let t0 = std::time::Instant::now();
    let (mut train, held) = photo_samples(&options, &mut rng)?;
    eprintln!(
        "photo cells: {} train, {} held out ({:.1}s)",
        train.len(),
        held.len(),
        t0.elapsed().as_secs_f32()
    );
    font_samples(&mut train, options.screen, &mut rng);
    eprintln!(
        "all samples: {} ({:.1}s)",
        train.len(),
        t0.elapsed().as_secs_f32()
    );
    let mut counts = [0usize; CLASSES];
    for s in &train {
        counts[s.label as usize] += 1;
    }
    eprintln!("per class: {counts:?}");
    let m = train_model(&train, &held, options.epochs, &mut rng, t0);
    std::fs::write(&options.out, m.to_bytes())
        .with_context(|| format!("cannot write {}", options.out.display()))?;
    eprintln!(
        "wrote {} ({} bytes)",
        options.out.display(),
        m.to_bytes().len()
    );
    Ok(())
}

/// The command line (module docs).
struct Options {
    data: PathBuf,
    out: PathBuf,
    epochs: usize,
    holdout: bool,
    screen: bool,
    /// Some published outlines are off by up to half a cell; with a first model, each
    /// photo's cells are cut through whichever outline (published or located) makes
    /// them agree best with the photo's own labels.
    align: Option<DigitClassifier>,
}

impl Options {
    fn parse() -> anyhow::Result<Options> {
        let args: Vec<String> = std::env::args().collect();
        if args.len() < 3 {
            bail!("usage: train-digits DATASET_DIR OUT.bin [--epochs N] [--holdout]");
        }
        let value = |flag: &str| {
            args.iter()
                .position(|a| a == flag)
                .and_then(|i| args.get(i + 1))
        };
        let align = match value("--align") {
            Some(p) => Some(DigitClassifier::load_file(Path::new(p))?),
            None => None,
        };
        Ok(Options {
            data: PathBuf::from(&args[1]),
            out: PathBuf::from(&args[2]),
            epochs: value("--epochs").and_then(|s| s.parse().ok()).unwrap_or(12),
            holdout: args.iter().any(|a| a == "--holdout"),
            screen: args.iter().any(|a| a == "--screen"),
            align,
        })
    }
}

/// The train split's cells as samples: six variants of each photo (jittered outlines,
/// half of them degraded), or, with `--holdout`, every 8th photo once, held out.
fn photo_samples(options: &Options, rng: &mut Rng) -> anyhow::Result<(Vec<Sample>, Vec<Sample>)> {
    let photos = load_desc(&options.data.join("v2_train.desc"))?;
    let mut train = Vec::new();
    let mut held = Vec::new();
    for (k, s) in photos.iter().enumerate() {
        let Some(outline) = s.outline else {
            eprintln!("{}: no outline, skipped", s.image.display());
            continue;
        };
        let gray = image::open(&s.image)
            .with_context(|| format!("cannot open {}", s.image.display()))?
            .to_luma8();
        let outline = match &options.align {
            Some(model) => aligned_outline(&gray, outline, &s.truth, model),
            None => outline,
        };
        let is_held = options.holdout && k % 8 == 0;
        let variants = if is_held { 1 } else { 6 };
        for v in 0..variants {
            let cells = cells_of(&gray, outline, if v == 0 { 0.0 } else { 0.012 }, rng);
            for (i, cell) in cells.into_iter().enumerate() {
                let cell = if v >= 3 { degrade(&cell, rng) } else { cell };
                let sample = Sample {
                    input: prepare(&cell),
                    label: s.truth.cells()[i],
                };
                if is_held {
                    held.push(sample);
                } else {
                    train.push(sample);
                }
            }
        }
    }
    Ok((train, held))
}

/// Digits and empty cells rendered from every installed font, 24 of each a font.
fn font_samples(train: &mut Vec<Sample>, screen: bool, rng: &mut Rng) {
    let fonts = load_fonts();
    eprintln!("fonts: {}", fonts.len());
    let per_font = 24;
    for font in &fonts {
        for _ in 0..per_font {
            for digit in 0..=9u8 {
                let cell = render_cell(font, digit, screen, rng);
                train.push(Sample {
                    input: prepare(&cell),
                    label: digit,
                });
            }
        }
    }
}

/// Trains the network for `epochs` (learning rate halving every four), saying each
/// epoch's loss and error rates.
fn train_model(
    train: &[Sample],
    held: &[Sample],
    epochs: usize,
    rng: &mut Rng,
    t0: std::time::Instant,
) -> DigitClassifier {
    let mut model = Trainer::new(&[INPUTS, 128, 64, CLASSES], rng);
    let mut order: Vec<usize> = (0..train.len()).collect();
    for epoch in 0..epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let lr = 0.02 * 0.5f32.powf(epoch as f32 / 4.0);
        let mut loss = 0.0;
        for batch in order.chunks(32) {
            loss += model.step(batch.iter().map(|&i| &train[i]), lr);
        }
        let m = model.export();
        let train_err = error_rate(&m, train.iter().step_by(7));
        let held_err = if held.is_empty() {
            String::new()
        } else {
            report_errors(&m, held)
        };
        eprintln!(
            "epoch {epoch}: loss {:.4}, train error {:.3}%{held_err} ({:.0}s)",
            loss / train.len() as f32,
            100.0 * train_err,
            t0.elapsed().as_secs_f32()
        );
    }
    model.export()
}

/// The 81 cells of a photo through its outline moved by up to `jitter` of the grid's
/// side at each corner, then followed along the lines as the reader does.
fn cells_of(gray: &GrayImage, outline: [Point; 4], jitter: f32, rng: &mut Rng) -> Vec<GrayImage> {
    let (work, k) = work_picture(gray);
    let side = (outline[1].x - outline[0].x).hypot(outline[1].y - outline[0].y) / k;
    let corners = outline.map(|p| Point {
        x: p.x / k + rng.normal() * jitter * side,
        y: p.y / k + rng.normal() * jitter * side,
    });
    let Some(mesh) = GridMesh::from_corners(corners) else {
        return Vec::new();
    };
    let mesh = mesh.refine(&work).refine(&work);
    (0..81)
        .map(|i| mesh.cut_cell(&work, i, WORK_SIDE))
        .collect()
}

/// The outline (published, or found by the locator) whose cells agree with more of the
/// photo's labels under `model`.
fn aligned_outline(
    gray: &GrayImage,
    published: [Point; 4],
    truth: &sudoku_bot::Grid,
    model: &DigitClassifier,
) -> [Point; 4] {
    let agreement = |outline: [Point; 4]| -> usize {
        let mut rng = Rng(1);
        cells_of(gray, outline, 0.0, &mut rng)
            .iter()
            .enumerate()
            .filter(|(i, c)| {
                let p = model.classify(c);
                let best = (0..CLASSES)
                    .max_by(|&a, &b| p[a].total_cmp(&p[b]))
                    .unwrap_or(0);
                best == truth.cells()[*i] as usize
            })
            .count()
    };
    let Some(located) = sudoku_bot::vision::photo::locate_mesh(gray).map(|m| m.corners()) else {
        return published;
    };
    let (a, b) = (agreement(published), agreement(located));
    if b > a {
        eprintln!("outline replaced by the located one ({a} -> {b} cells agree)");
        located
    } else {
        published
    }
}

/// Blur, contrast loss and noise, as a worse camera would give.
fn degrade(cell: &GrayImage, rng: &mut Rng) -> GrayImage {
    let sigma = rng.range(0.3, 1.3);
    let blurred = image::imageops::blur(cell, sigma);
    let contrast = rng.range(0.5, 1.0);
    let noise = rng.range(0.0, 8.0);
    let mean = 160.0;
    GrayImage::from_fn(cell.width(), cell.height(), |x, y| {
        let v = blurred.get_pixel(x, y)[0] as f32;
        let v = mean + (v - mean) * contrast + rng.normal() * noise;
        Luma([v.clamp(0.0, 255.0) as u8])
    })
}

/// Fraction of samples whose most probable class is wrong.
fn error_rate<'a>(m: &DigitClassifier, samples: impl Iterator<Item = &'a Sample>) -> f32 {
    let (mut wrong, mut total) = (0, 0);
    for s in samples {
        let p = m.classify_prepared(&s.input);
        let best = (0..CLASSES)
            .max_by(|&a, &b| p[a].total_cmp(&p[b]))
            .unwrap_or(0);
        wrong += (best != s.label as usize) as usize;
        total += 1;
    }
    wrong as f32 / total.max(1) as f32
}

/// Held-out error, with the confusions listed.
fn report_errors(m: &DigitClassifier, held: &[Sample]) -> String {
    let mut confusions = Vec::new();
    for s in held {
        let p = m.classify_prepared(&s.input);
        let best = (0..CLASSES)
            .max_by(|&a, &b| p[a].total_cmp(&p[b]))
            .unwrap_or(0);
        if best != s.label as usize {
            confusions.push(format!("{}->{}", s.label, best));
        }
    }
    format!(
        ", held-out error {:.3}% ({} of {}: {})",
        100.0 * confusions.len() as f32 / held.len().max(1) as f32,
        confusions.len(),
        held.len(),
        confusions.join(" ")
    )
}

/// The MLP under training: layers as in the shipped model plus momentum buffers.
struct Trainer {
    layers: Vec<Dense>,
    velocity: Vec<(Vec<f32>, Vec<f32>)>,
}

impl Trainer {
    fn new(sizes: &[usize], rng: &mut Rng) -> Trainer {
        let mut layers = Vec::new();
        let mut velocity = Vec::new();
        for w in sizes.windows(2) {
            let (i, o) = (w[0], w[1]);
            // He initialisation for ReLU layers.
            let std = (2.0 / i as f32).sqrt();
            layers.push(Dense {
                inputs: i,
                outputs: o,
                weights: (0..i * o).map(|_| rng.normal() * std).collect(),
                bias: vec![0.0; o],
            });
            velocity.push((vec![0.0; i * o], vec![0.0; o]));
        }
        Trainer { layers, velocity }
    }

    fn export(&self) -> DigitClassifier {
        DigitClassifier {
            layers: self.layers.clone(),
        }
    }

    /// One SGD step with momentum 0.9 on a minibatch; returns the summed loss.
    fn step<'a>(&mut self, batch: impl Iterator<Item = &'a Sample>, lr: f32) -> f32 {
        let mut grads: Vec<(Vec<f32>, Vec<f32>)> = self
            .layers
            .iter()
            .map(|l| (vec![0.0; l.weights.len()], vec![0.0; l.outputs]))
            .collect();
        let mut loss = 0.0;
        let mut count = 0;
        for s in batch {
            count += 1;
            // Forward, keeping each layer's input.
            let mut acts: Vec<Vec<f32>> = vec![s.input.clone()];
            for (k, l) in self.layers.iter().enumerate() {
                let mut out = Vec::new();
                l.forward(acts.last().unwrap(), &mut out);
                if k + 1 < self.layers.len() {
                    out.iter_mut().for_each(|v| *v = v.max(0.0));
                }
                acts.push(out);
            }
            let p = softmax(acts.last().unwrap());
            loss -= p[s.label as usize].max(1e-9).ln();
            // Backward.
            let mut delta: Vec<f32> = p.to_vec();
            delta[s.label as usize] -= 1.0;
            for k in (0..self.layers.len()).rev() {
                let l = &self.layers[k];
                let input = &acts[k];
                let (gw, gb) = &mut grads[k];
                for o in 0..l.outputs {
                    let d = delta[o];
                    if d == 0.0 {
                        continue;
                    }
                    gb[o] += d;
                    let row = &mut gw[o * l.inputs..(o + 1) * l.inputs];
                    for (g, &x) in row.iter_mut().zip(input) {
                        *g += d * x;
                    }
                }
                if k > 0 {
                    let mut prev = vec![0.0f32; l.inputs];
                    for (row, &d) in l.weights.chunks_exact(l.inputs).zip(&delta) {
                        if d == 0.0 {
                            continue;
                        }
                        for (pv, &w) in prev.iter_mut().zip(row) {
                            *pv += d * w;
                        }
                    }
                    for (pv, &a) in prev.iter_mut().zip(input) {
                        if a <= 0.0 {
                            *pv = 0.0;
                        }
                    }
                    delta = prev;
                }
            }
        }
        let scale = lr / count.max(1) as f32;
        for ((l, (vw, vb)), (gw, gb)) in self.layers.iter_mut().zip(&mut self.velocity).zip(&grads)
        {
            for ((w, v), g) in l.weights.iter_mut().zip(vw.iter_mut()).zip(gw) {
                *v = 0.9 * *v - scale * (g + 1e-4 * *w * count as f32);
                *w += *v;
            }
            for ((b, v), g) in l.bias.iter_mut().zip(vb.iter_mut()).zip(gb) {
                *v = 0.9 * *v - scale * g;
                *b += *v;
            }
        }
        loss
    }
}
