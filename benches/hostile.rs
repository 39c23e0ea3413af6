//! The cost of reading hostile pictures: any picture up to 50 megapixels is
//! read in 2 s or less with 1 GB peak memory or less on one core, and the daemon's read
//! of a 1280x1024 window of noise takes 100 ms or less.
//!
//! Run: `cargo bench --bench hostile`. Each picture is written to a file once (in the
//! system's temp folder), then read in a fresh child process, as `sudoku-bot read` does:
//! decode, then the reader. The child prints the wall time of decode and read and its
//! own peak memory (VmHWM, which includes the OCR engine). The warm in-process read of
//! a 1280x1024 noise capture is timed in this process, as the daemon would do it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use image::{DynamicImage, GrayImage, Luma, Rgb, RgbImage};
use sudoku_bot::modes::read::{open_picture, reader_for};
use sudoku_bot::vision::Reader;

/// A deterministic xorshift generator: the same noise on every run.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn noise(w: u32, h: u32) -> RgbImage {
    let mut n = Noise(0x9e37_79b9_7f4a_7c15);
    let mut img = RgbImage::new(w, h);
    for chunk in img.chunks_mut(8) {
        let v = n.next().to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
    img
}

/// Noise in `block` x `block` squares: half of all neighbours are equal, so it passes
/// for a picture and goes through every path of the reader (the costliest noise).
fn blocky_noise(w: u32, h: u32, block: u32) -> RgbImage {
    let fine = noise(w.div_ceil(block), h.div_ceil(block));
    RgbImage::from_fn(w, h, |x, y| *fine.get_pixel(x / block, y / block))
}

fn checkerboard(w: u32, h: u32, square: u32) -> GrayImage {
    GrayImage::from_fn(w, h, |x, y| {
        Luma([if (x / square + y / square).is_multiple_of(2) {
            0
        } else {
            255
        }])
    })
}

fn graph_paper(w: u32, h: u32, square: u32) -> GrayImage {
    GrayImage::from_fn(w, h, |x, y| {
        Luma([if x % square == 0 || y % square == 0 {
            120
        } else {
            255
        }])
    })
}

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A fixture photo upscaled to 8000x6000 (48 MP), as a phone's top camera mode gives.
fn big_photo() -> RgbImage {
    let photo = image::open(fixture("fixtures/photos/image1.jpg")).unwrap();
    photo
        .resize_exact(8000, 6000, image::imageops::FilterType::Triangle)
        .to_rgb8()
}

/// A 3840x2160 desktop with a game's 1280x1024 screenshot in the middle.
fn screenshot_4k() -> RgbImage {
    let screen = image::open(fixture("fixtures/screens/gnome-screen-medium-55.png"))
        .unwrap()
        .to_rgb8();
    let mut desk = RgbImage::from_pixel(3840, 2160, Rgb([48, 52, 60]));
    image::imageops::overlay(&mut desk, &screen, 1280, 568);
    desk
}

/// Writes the picture once; later runs reuse the file.
fn cached(name: &str, make: impl FnOnce() -> DynamicImage) -> PathBuf {
    let dir = std::env::temp_dir().join("sudoku-bot-hostile-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    if !path.exists() {
        let img = make();
        let tmp = dir.join(format!("tmp-{name}"));
        img.save(&tmp).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }
    path
}

/// Child mode: read one file as `sudoku-bot read` does, print `seconds peak_kib outcome`.
fn child(path: &Path) {
    let t0 = Instant::now();
    let outcome = match open_picture(path) {
        Err(e) => format!("refused: {e:#}"),
        Ok((picture, format)) => {
            let decoded = t0.elapsed();
            let mut reader = reader_for(format).unwrap();
            let result = match reader.read(&picture, None) {
                Ok(r) => format!("grid {}", r.grid.to_line()),
                Err(e) => format!("{e}"),
            };
            format!("decode {:.2} s; {result}", decoded.as_secs_f64())
        }
    };
    let secs = t0.elapsed().as_secs_f64();
    println!("{secs:.3} {} {outcome}", peak_kib());
}

fn peak_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--child") {
        child(Path::new(&args[i + 1]));
        return;
    }
    // cargo bench passes --bench; a filter word picks cases by name.
    let filter: Option<&String> = args[1..].iter().find(|a| !a.starts_with("--"));
    type Case = (&'static str, Box<dyn FnOnce() -> PathBuf>);
    let cases: Vec<Case> = vec![
        (
            "noise 8192x6400 (50 MP, the limit) PNG",
            Box::new(|| cached("noise-50mp.png", || noise(8192, 6400).into())),
        ),
        (
            "noise 7680x4320 PNG",
            Box::new(|| cached("noise-8k.png", || noise(7680, 4320).into())),
        ),
        (
            "noise in 2x2 blocks 8192x6400 (50 MP) PNG",
            Box::new(|| cached("blocky-50mp.png", || blocky_noise(8192, 6400, 2).into())),
        ),
        (
            "noise in 3x3 blocks 7680x4320 PNG",
            Box::new(|| cached("blocky3-8k.png", || blocky_noise(7680, 4320, 3).into())),
        ),
        (
            "checkerboard 8192x6400, 64 px squares, PNG",
            Box::new(|| cached("checker-50mp.png", || checkerboard(8192, 6400, 64).into())),
        ),
        (
            "checkerboard 7680x4320, 240 px squares, PNG",
            Box::new(|| cached("checker-8k.png", || checkerboard(7680, 4320, 240).into())),
        ),
        (
            "graph paper 7680x4320, 25 px squares, PNG",
            Box::new(|| cached("graph-8k.png", || graph_paper(7680, 4320, 25).into())),
        ),
        (
            "photo 8000x6000 (48 MP) JPEG",
            Box::new(|| cached("photo-48mp.jpg", || big_photo().into())),
        ),
        (
            "screenshot 3840x2160 PNG",
            Box::new(|| cached("screen-4k.png", || screenshot_4k().into())),
        ),
    ];
    let me = std::env::current_exe().unwrap();
    println!("{:<46} {:>8} {:>10}  outcome", "picture", "time", "peak");
    for (name, make) in cases {
        if filter.is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let path = make();
        // One core: the budget is 2 s and 1 GB on one core.
        let out = Command::new("taskset")
            .args(["-c", "0"])
            .arg(&me)
            .arg("--child")
            .arg(&path)
            .output()
            .or_else(|_| Command::new(&me).arg("--child").arg(&path).output())
            .unwrap();
        let line = String::from_utf8_lossy(&out.stdout);
        let mut parts = line.trim().splitn(3, ' ');
        let (secs, kib, outcome) = (
            parts.next().unwrap_or("?"),
            parts.next().unwrap_or("0"),
            parts.next().unwrap_or(""),
        );
        let mib = kib.parse::<f64>().unwrap_or(0.0) / 1024.0;
        println!("{name:<46} {secs:>6} s {mib:>6.0} MiB  {outcome}");
        if !out.status.success() {
            println!("    child failed: {}", String::from_utf8_lossy(&out.stderr));
        }
    }
    if filter.is_none_or(|f| "daemon noise 1280x1024".contains(f.as_str())) {
        daemon_noise();
    }
}

/// The daemon's read of a 1280x1024 window of noise, in process with a warm reader
/// (the capture itself is not included: it is the display server's cost).
fn daemon_noise() {
    let mut reader = Reader::new().unwrap();
    for (name, picture) in [
        ("daemon read, noise 1280x1024", noise(1280, 1024)),
        (
            "daemon read, noise in 2x2 blocks 1280x1024",
            blocky_noise(1280, 1024, 2),
        ),
    ] {
        let picture: DynamicImage = picture.into();
        let _ = reader.read(&picture, None);
        let mut times: Vec<f64> = (0..15)
            .map(|_| {
                let t = Instant::now();
                let _ = reader.read(&picture, None);
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        times.sort_by(f64::total_cmp);
        println!(
            "{name:<46} median {:.1} ms, max {:.1} ms (warm reader, in process)",
            times[times.len() / 2],
            times[times.len() - 1]
        );
    }
}
