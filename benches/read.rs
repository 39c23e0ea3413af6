//! Reader speed: an in-process read of a ~700x700 window capture after
//! warm-up (goal: under 30 ms), and `sudoku-bot read` on a 1280x1024 screen capture as
//! a whole process, Tesseract start included (goal: under 250 ms).
//!
//! Run: `cargo bench --bench read` (criterion prints medians).

use std::path::Path;
use std::process::Command;

use criterion::{criterion_group, criterion_main, Criterion};
use sudoku_bot::vision::locate::regions::label_regions;
use sudoku_bot::vision::{locate::locate_lattice, Reader};

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/screens")
        .join(name)
}

fn read_benches(c: &mut Criterion) {
    let window = image::open(fixture("gnome-easy-window-61.png")).unwrap(); // 740x686
    let screen = image::open(fixture("gnome-screen-medium-55.png")).unwrap(); // 1280x1024
    let mut reader = Reader::new().unwrap();
    reader.read(&window, None).unwrap(); // warm-up: the app's glyphs become known

    let mut g = c.benchmark_group("read");
    g.sample_size(30);
    g.bench_function("window 740x686, in process, warm", |b| {
        b.iter(|| reader.read(&window, None).unwrap())
    });
    g.bench_function("screen 1280x1024, in process, warm", |b| {
        b.iter(|| reader.read(&screen, None).unwrap())
    });
    let rgb = screen.to_rgb8();
    g.bench_function("locate only, screen 1280x1024", |b| {
        b.iter(|| locate_lattice(&label_regions(&rgb)).unwrap())
    });
    g.bench_function("first read, fresh reader, window 740x686", |b| {
        b.iter(|| Reader::new().unwrap().read(&window, None).unwrap())
    });
    g.sample_size(20);
    let exe = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/sudoku-bot");
    if exe.exists() {
        let path = fixture("gnome-screen-medium-55.png");
        g.bench_function("process `sudoku-bot read` screen 1280x1024", |b| {
            b.iter(|| {
                let o = Command::new(&exe).arg("read").arg(&path).output().unwrap();
                assert!(o.status.success());
            })
        });
        // A grid of 12 px cells refused as it is and read enlarged 2, then 3 times
        // (DSEG7 Classic Mini, 240x240): three reads in one process.
        let small = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/typefaces/holdout2/seg7-dseg7classicmini-300-12.png");
        g.bench_function(
            "process `sudoku-bot read` 12 px cells, read enlarged",
            |b| {
                b.iter(|| {
                    let o = Command::new(&exe).arg("read").arg(&small).output().unwrap();
                    assert!(o.status.success());
                })
            },
        );
    } else {
        eprintln!("skipping the process benchmark: build target/release/sudoku-bot first");
    }
    g.finish();
}

criterion_group!(benches, read_benches);
criterion_main!(benches);
