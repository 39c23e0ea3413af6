//! The fuzz targets' saved inputs, replayed as ordinary tests on stable: the
//! corpus each target grew (fuzz/corpus/TARGET/) and every input that once crashed,
//! hung or ran out of memory (fuzz/regressions/TARGET/, one file each, named for what
//! it found). The checks are the targets' own (fuzz/harness.rs): no panic, and each
//! target's invariants.
//!
//! The seed corpus was written by `cargo test --release --test fuzz_replay -- --ignored`
//! (`write_seed_corpus`); fuzzing grows it (README, "Fuzzing").

#[path = "../fuzz/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};

fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz")
        .join(kind)
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file() && p.file_name().is_none_or(|n| n != "README.md"));
    files.sort();
    files
}

/// Runs `check` on every saved input of `target`; names the input that fails.
fn replay(target: &str, check: fn(&[u8])) {
    let corpus = inputs("corpus", target);
    assert!(!corpus.is_empty(), "fuzz/corpus/{target} holds no inputs");
    for path in corpus.iter().chain(&inputs("regressions", target)) {
        let data = std::fs::read(path).unwrap();
        let outcome = std::panic::catch_unwind(|| check(&data));
        assert!(outcome.is_ok(), "{target} fails on {}", path.display());
    }
}

#[test]
fn read_replays_its_corpus_and_crash_inputs() {
    replay("read", harness::read);
}

#[test]
fn solve_replays_its_corpus_and_crash_inputs() {
    replay("solve", harness::solve);
}

#[test]
fn config_replays_its_corpus_and_crash_inputs() {
    replay("config", harness::config);
}

#[test]
fn overlay_replays_its_corpus_and_crash_inputs() {
    replay("overlay", harness::overlay);
}

/// Writes the seed corpus: small pictures of grids and of what is not one, puzzle
/// lines, the example configuration and its profiles, and overlay geometries.
#[test]
#[ignore = "writes fuzz/corpus; run once by hand"]
fn write_seed_corpus() {
    seed_read(&corpus_dir("read"));
    seed_solve(&corpus_dir("solve"));
    seed_config(&corpus_dir("config"));
    seed_overlay(&corpus_dir("overlay"));
}

/// The corpus folder of fuzz target `target`, made if missing.
fn corpus_dir(target: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(target);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A grid of 18 px cells, 1 px lines and 2 px box lines, with some blocks for digits.
fn seed_grid(digits: bool) -> image::RgbImage {
    use image::{Rgb, RgbImage};
    let mut img = RgbImage::from_pixel(200, 200, Rgb([250, 250, 250]));
    let mut p = 5;
    for k in 0..=9 {
        let lw = if k % 3 == 0 { 2 } else { 1 };
        for t in 0..lw {
            for u in 5..(5 + 9 * 18 + 3 * 2 + 6) {
                img.put_pixel(p + t, u, Rgb([20, 20, 20]));
                img.put_pixel(u, p + t, Rgb([20, 20, 20]));
            }
        }
        p += lw + 18;
    }
    if digits {
        for (r, c) in [(0, 0), (1, 4), (4, 4), (8, 8), (6, 2)] {
            let (x, y) = (5 + 2 + c * 19 + 6, 5 + 2 + r * 19 + 4);
            for dy in 0..10 {
                for dx in 0..5 {
                    img.put_pixel(x + dx, y + dy, Rgb([10, 10, 10]));
                }
            }
        }
    }
    img
}

/// Pictures for `read`: grids, graph paper, a checkerboard, a photo and a screenshot.
fn seed_read(read: &Path) {
    use image::{imageops, GrayImage, ImageFormat, Luma};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let save = |img: image::DynamicImage, name: &str, format: ImageFormat| {
        img.save_with_format(read.join(name), format).unwrap();
    };
    save(seed_grid(false).into(), "grid-empty.png", ImageFormat::Png);
    save(seed_grid(true).into(), "grid-blocks.png", ImageFormat::Png);
    save(seed_grid(true).into(), "grid-blocks.bmp", ImageFormat::Bmp);
    let paper = GrayImage::from_fn(120, 120, |x, y| {
        Luma([if x % 12 == 0 || y % 12 == 0 { 100 } else { 255 }])
    });
    save(paper.into(), "graph-paper.png", ImageFormat::Png);
    let board = GrayImage::from_fn(96, 96, |x, y| {
        Luma([if (x / 8 + y / 8) % 2 == 0 { 0 } else { 255 }])
    });
    save(board.into(), "checkerboard.png", ImageFormat::Png);
    let photo = image::open(root.join("fixtures/photos/image1.jpg")).unwrap();
    save(
        photo.resize(160, 120, imageops::FilterType::Triangle),
        "photo.jpg",
        ImageFormat::Jpeg,
    );
    let screen = image::open(root.join("fixtures/screens/web-flat-20-tiny.png")).unwrap();
    save(
        screen.resize(220, 220, imageops::FilterType::Nearest),
        "screen.png",
        ImageFormat::Png,
    );
}

/// Puzzle lines for `solve`: proper, hard, clashing, too long, blank and solved ones.
fn seed_solve(solve: &Path) {
    let lines = [
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
        "53.27.1..6..195....98....6.8...6...34..8.3..17...2...6.64...28....419..5....8..79",
        "553..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..7",
        "# a comment\n\n000000000000000000000000000000000000000000000000000000000000000000000000000000000",
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179",
    ];
    for (k, line) in lines.iter().enumerate() {
        std::fs::write(solve.join(format!("line-{k}")), format!("{line}\n")).unwrap();
    }
    std::fs::write(solve.join("all"), lines.join("\n")).unwrap();
}

/// The example configuration and its profiles, for `config`.
fn seed_config(config: &Path) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("config/config.example.toml"),
        config.join("example.toml"),
    )
    .unwrap();
    for entry in std::fs::read_dir(root.join("config/profiles")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, config.join(path.file_name().unwrap())).unwrap();
    }
}

/// Pseudo-random geometries for `overlay` (xorshift, fixed seed).
fn seed_overlay(overlay: &Path) {
    let mut seed = 0x2545_f491u32;
    for k in 0..8 {
        let bytes: Vec<u8> = (0..80 + k * 16)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                seed as u8
            })
            .collect();
        std::fs::write(overlay.join(format!("geometry-{k}")), bytes).unwrap();
    }
}
