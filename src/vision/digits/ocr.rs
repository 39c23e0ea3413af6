//! Tesseract (through leptess) as a single-digit reader.
//!
//! One engine for the life of the process (starting it costs 50-120 ms). Crops are
//! prepared the way Tesseract reads best: dark ink on white, the digit scaled to
//! [`DIGIT_HEIGHT`] px, a white border of [`PADDING`] px, 300 DPI declared, digits 1-9
//! whitelisted, page mode "single character". They are handed over in memory as PNM,
//! with no temporary files. An empty or two-character answer is "unknown", never "empty".

use image::imageops::FilterType;
use image::{imageops, GrayImage, Luma};
use leptess::{LepTess, Variable};

/// Height of the digit in the crop given to Tesseract (it reads 20-30 px text best).
const DIGIT_HEIGHT: u32 = 28;
/// White margin around the digit.
const PADDING: u32 = 12;

/// The OCR engine. It starts on a background thread (Tesseract takes 50-200 ms to
/// load its model) so that decoding the picture and locating the grid overlap with it;
/// the first read waits for it.
pub struct Ocr {
    engine: Engine,
}

enum Engine {
    /// Not started: it starts on first use (pictures likely to need no OCR at all).
    Idle {
        language: String,
        tessdata: Option<String>,
    },
    Starting(std::thread::JoinHandle<Result<LepTess, String>>),
    Ready(LepTess),
    Failed(String),
}

/// One answer: a digit and Tesseract's confidence (0..1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OcrDigit {
    pub digit: u8,
    pub confidence: f32,
}

fn start_engine(language: &str, tessdata: Option<&str>) -> Result<LepTess, String> {
    let t0 = std::time::Instant::now();
    // Tesseract prints its own lines ("Error opening data file ...") on fd 2 while it
    // starts; they are held back so that the user reads one sentence from the bot.
    let (started, said) = crate::stderr_capture::held(|| LepTess::new(tessdata, language));
    if !said.trim().is_empty() {
        tracing::debug!(
            "Tesseract said while starting: {}",
            said.trim().replace('\n', " / ")
        );
    }
    let mut engine = started.map_err(|e| {
        format!(
            "could not start Tesseract with language '{language}' ({e}); install tesseract-ocr-{language} (scripts/setup.sh) or fix [ocr] in the configuration"
        )
    })?;
    engine
        .set_variable(Variable::TesseditCharWhitelist, "123456789")
        .map_err(|e| format!("could not configure Tesseract: {e}"))?;
    let _ = engine.set_variable(Variable::TesseditPagesegMode, "10");
    // Tesseract's own messages (tprintf: "Estimating resolution ...", "Empty page!!")
    // go to its debug file, not to the user's stderr, where the bot says one sentence.
    let _ = engine.set_variable(Variable::DebugFile, "/dev/null");
    tracing::debug!("Tesseract started in {:?}", t0.elapsed());
    Ok(engine)
}

impl Ocr {
    /// Starts Tesseract with `language`'s model from `tessdata` (else the system's).
    pub fn with_model(language: &str, tessdata: Option<&str>) -> Ocr {
        let (language, tessdata) = (language.to_string(), tessdata.map(str::to_string));
        let start = move || start_engine(&language, tessdata.as_deref());
        Ocr {
            engine: Engine::Starting(std::thread::spawn(start)),
        }
    }

    /// An engine that starts only when first used.
    pub fn lazy(language: &str, tessdata: Option<&str>) -> Ocr {
        Ocr {
            engine: Engine::Idle {
                language: language.to_string(),
                tessdata: tessdata.map(str::to_string),
            },
        }
    }

    /// No engine at all: every read that needs Tesseract fails with `reason` (fuzzing,
    /// where starting Tesseract would cost more than the rest of the read).
    pub fn disabled(reason: &str) -> Ocr {
        Ocr {
            engine: Engine::Failed(reason.to_string()),
        }
    }

    /// The engine, once started; the error says why it could not start.
    pub fn engine(&mut self) -> Result<&mut LepTess, String> {
        if let Engine::Idle { language, tessdata } = &self.engine {
            self.engine = match start_engine(language, tessdata.as_deref()) {
                Ok(e) => Engine::Ready(e),
                Err(msg) => Engine::Failed(msg),
            };
        }
        if let Engine::Starting(_) = self.engine {
            let Engine::Starting(handle) =
                std::mem::replace(&mut self.engine, Engine::Failed(String::new()))
            else {
                unreachable!()
            };
            self.engine = match handle.join() {
                Ok(Ok(e)) => Engine::Ready(e),
                Ok(Err(msg)) => Engine::Failed(msg),
                Err(_) => Engine::Failed("Tesseract crashed while starting".into()),
            };
        }
        match &mut self.engine {
            Engine::Ready(e) => Ok(e),
            Engine::Failed(msg) => Err(msg.clone()),
            Engine::Idle { .. } | Engine::Starting(_) => unreachable!(),
        }
    }

    /// Reads one digit from a dark-on-light glyph image cropped to its ink. `None` when
    /// Tesseract returns nothing, several characters, or something other than 1-9.
    pub fn read_digit(&mut self, glyph: &GrayImage) -> Option<OcrDigit> {
        self.read_at(glyph, DIGIT_HEIGHT, "10", FilterType::Triangle)
            .or_else(|| self.read_at(glyph, DIGIT_HEIGHT + 12, "13", FilterType::Triangle))
    }

    /// [`Ocr::read_digit`], and where that reads nothing, once more with the glyph
    /// scaled to 36 px by Lanczos: OpenCV's Hershey Simplex 7s and 9s (via-sudoku's
    /// givens), which Tesseract reads only so. For naming a glyph group in the first
    /// reading, whose digit the classifier then checks; the second reading keeps to
    /// [`Ocr::read_digit`] (with this try it read a seven-segment screenshot's digits
    /// otherwise, and the bot would have refused a game it plays).
    pub fn read_digit_hard(&mut self, glyph: &GrayImage) -> Option<OcrDigit> {
        self.read_digit(glyph)
            .or_else(|| self.read_at(glyph, DIGIT_HEIGHT + 8, "10", FilterType::Lanczos3))
    }

    /// Reads a line of distinct glyphs in one call (see [`line_of`]). `None` unless
    /// exactly one digit comes back for each glyph.
    pub fn read_line(&mut self, glyphs: &[GrayImage]) -> Option<(Vec<u8>, f32)> {
        let line = line_of(glyphs);
        let engine = self.engine().ok()?;
        let _ = engine.set_variable(Variable::TesseditPagesegMode, "7");
        engine.set_image_from_mem(&to_pnm(&line)).ok()?;
        engine.set_source_resolution(300);
        let text = engine.get_utf8_text().ok()?;
        let conf = engine.mean_text_conf();
        let digits: Vec<u8> = text
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c as u8 - b'0')
            .collect();
        tracing::debug!(
            "OCR line of {} glyphs read {:?} ({conf})",
            glyphs.len(),
            text.trim()
        );
        (digits.len() == glyphs.len() && digits.iter().all(|d| (1..=9).contains(d)))
            .then_some((digits, (conf as f32 / 100.0).clamp(0.0, 1.0)))
    }

    /// Reads the words in a picture of screen text (a game's message window or an
    /// in-page banner): every character allowed, page mode "single block", the picture
    /// scaled up 2x when small (screen text is 10-16 px; Tesseract wants more). The
    /// digit whitelist is put back after.
    pub fn read_words(&mut self, picture: &GrayImage) -> Option<String> {
        let scaled = if picture.height() < 400 {
            imageops::resize(
                picture,
                picture.width() * 2,
                picture.height() * 2,
                FilterType::CatmullRom,
            )
        } else {
            picture.clone()
        };
        let engine = self.engine().ok()?;
        let _ = engine.set_variable(Variable::TesseditCharWhitelist, "");
        let _ = engine.set_variable(Variable::TesseditPagesegMode, "6");
        let text = engine
            .set_image_from_mem(&to_pnm(&scaled))
            .ok()
            .and_then(|_| {
                engine.set_source_resolution(150);
                engine.get_utf8_text().ok()
            });
        let _ = engine.set_variable(Variable::TesseditCharWhitelist, "123456789");
        let text = text?.split_whitespace().collect::<Vec<_>>().join(" ");
        tracing::debug!("OCR words: {text:?}");
        Some(text)
    }

    fn read_at(
        &mut self,
        glyph: &GrayImage,
        height: u32,
        psm: &str,
        filter: FilterType,
    ) -> Option<OcrDigit> {
        let crop = prepare_with(glyph, height, filter);
        let engine = self.engine().ok()?;
        let _ = engine.set_variable(Variable::TesseditPagesegMode, psm);
        engine.set_image_from_mem(&to_pnm(&crop)).ok()?;
        engine.set_source_resolution(300);
        let text = engine.get_utf8_text().ok()?;
        let conf = engine.mean_text_conf();
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        match chars.as_slice() {
            [c @ '1'..='9'] => Some(OcrDigit {
                digit: *c as u8 - b'0',
                confidence: (conf as f32 / 100.0).clamp(0.0, 1.0),
            }),
            _ => None,
        }
    }
}

impl Drop for Ocr {
    /// Waits for an engine still starting and shuts it down in order: Tesseract warns
    /// of leaks on stderr when the process ends with an engine alive.
    fn drop(&mut self) {
        if let Engine::Starting(_) = self.engine {
            let _ = self.engine();
        }
    }
}

/// Scales the glyph to `height` px (keeping its aspect) and centres it on a white
/// canvas at least as wide as 0.7 of its height (a lone narrow "1" on a tight canvas is
/// often read as nothing), with [`PADDING`] px of margin.
pub fn prepare(glyph: &GrayImage, height: u32) -> GrayImage {
    prepare_with(glyph, height, FilterType::Triangle)
}

/// [`prepare`], scaled with `filter`.
fn prepare_with(glyph: &GrayImage, height: u32, filter: FilterType) -> GrayImage {
    let (w, h) = glyph.dimensions();
    let scale = height as f32 / h.max(1) as f32;
    let nw = ((w as f32 * scale).round() as u32).max(1);
    let scaled = imageops::resize(glyph, nw, height, filter);
    let canvas_w = nw.max(height * 7 / 10) + 2 * PADDING;
    let mut out = GrayImage::from_pixel(canvas_w, height + 2 * PADDING, Luma([255]));
    imageops::overlay(
        &mut out,
        &scaled,
        ((canvas_w - nw) / 2) as i64,
        PADDING as i64,
    );
    out
}

/// Lays glyphs out in one line, each scaled to [`DIGIT_HEIGHT`] and separated by a
/// glyph-wide gap, for reading many distinct glyphs in one Tesseract call.
fn line_of(glyphs: &[GrayImage]) -> GrayImage {
    let crops: Vec<GrayImage> = glyphs.iter().map(|g| prepare(g, DIGIT_HEIGHT)).collect();
    let w: u32 = crops.iter().map(|c| c.width()).sum();
    let h = DIGIT_HEIGHT + 2 * PADDING;
    let mut out = GrayImage::from_pixel(w.max(1), h, Luma([255]));
    let mut x = 0;
    for c in &crops {
        imageops::overlay(&mut out, c, x as i64, 0);
        x += c.width();
    }
    out
}

/// Binary PGM (P5): the simplest format Leptonica reads from memory.
fn to_pnm(img: &GrayImage) -> Vec<u8> {
    let mut out = format!("P5\n{} {}\n255\n", img.width(), img.height()).into_bytes();
    out.extend_from_slice(img.as_raw());
    out
}
