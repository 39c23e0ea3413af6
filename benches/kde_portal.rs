//! What the xdg-desktop-portal route costs on KDE Plasma, against the kwin backend's
//! direct route (ScreenShot2 and fake input, vouched for by a `.desktop` file): a
//! RemoteDesktop session with a ScreenCast source through xdg-desktop-portal and
//! xdg-desktop-portal-kde under headless KWin, the first time (the portal asks the
//! user in a dialog; the "user" here clicks its accept button through KWin's fake
//! input) and again with the restore token the first time gave; then the first frame
//! of the PipeWire stream and how fresh the frames are.
//!
//! Run: `cargo bench --bench kde_portal`. `ACCEPT="DX,DY"` is where the dialog's
//! accept button is, from the dialog's bottom-right corner (default "-60,-25"); the
//! dialog's screenshot is saved as `portal-dialog.png` in the system's temp folder.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use sudoku_bot::input::{Input, ScreenPoint};
use sudoku_bot::wayland::kwin::{self, KwinInput};
use sudoku_bot::wayland::Frames;
use sudoku_bot_testkit::wayland;
use zbus::blocking::{Connection, MessageIterator};
use zbus::zvariant::{ObjectPath, OwnedValue, Value};

const DESKTOP: &str = "org.freedesktop.portal.Desktop";
const PATH: &str = "/org/freedesktop/portal/desktop";

/// Calls a portal method whose answer comes as a Request's Response signal; returns
/// the response code and results.
fn request<'a>(
    bus: &Connection,
    interface: &str,
    method: &str,
    token: &str,
    leading: Vec<Value<'a>>,
    mut options: HashMap<&'a str, Value<'a>>,
    trailing: Option<Value<'a>>,
) -> (u32, HashMap<String, OwnedValue>) {
    let sender = bus
        .unique_name()
        .expect("a bus name")
        .trim_start_matches(':')
        .replace('.', "_");
    let path = format!("{PATH}/request/{sender}/{token}");
    let rule = zbus::MatchRule::builder()
        .msg_type(zbus::message::Type::Signal)
        .interface("org.freedesktop.portal.Request")
        .unwrap()
        .member("Response")
        .unwrap()
        .path(path.as_str())
        .unwrap()
        .build();
    let mut responses =
        MessageIterator::for_match_rule(rule, bus, Some(1)).expect("listen for the response");
    options.insert("handle_token", Value::from(token.to_string()));
    let mut fields = zbus::zvariant::StructureBuilder::new();
    for v in leading {
        fields = fields.append_field(v);
    }
    if let Some(t) = trailing {
        fields = fields.append_field(t);
    }
    fields = fields.append_field(Value::from(options));
    let body = fields.build().expect("a body");
    bus.call_method(Some(DESKTOP), PATH, Some(interface), method, &body)
        .unwrap_or_else(|e| panic!("{interface}.{method}: {e}"));
    let message = responses
        .next()
        .expect("a response")
        .expect("a response message");
    message.body().deserialize().expect("a Response's body")
}

/// One RemoteDesktop session with a screen, from CreateSession to Start's answer;
/// `accept` clicks the dialog's button when the portal shows one. Returns the stream's
/// node, the restore token, the time to Start's answer and whether a dialog showed.
fn session(
    bus: &Connection,
    round: &str,
    restore: Option<&str>,
    accept: (i32, i32),
) -> (u32, Option<String>, Duration, bool, String) {
    let start = Instant::now();
    let (code, results) = request(
        bus,
        "org.freedesktop.portal.RemoteDesktop",
        "CreateSession",
        &format!("create{round}"),
        vec![],
        HashMap::from([("session_handle_token", Value::from(format!("s{round}")))]),
        None,
    );
    assert_eq!(code, 0, "CreateSession: {results:?}");
    let handle: String = results["session_handle"]
        .clone()
        .try_into()
        .expect("session_handle");
    let session = || Value::from(ObjectPath::try_from(handle.clone()).expect("a path"));
    let mut devices = HashMap::from([
        ("types", Value::from(3u32)),
        ("persist_mode", Value::from(2u32)),
    ]);
    if let Some(token) = restore {
        devices.insert("restore_token", Value::from(token.to_string()));
    }
    let (code, results) = request(
        bus,
        "org.freedesktop.portal.RemoteDesktop",
        "SelectDevices",
        &format!("devices{round}"),
        vec![session()],
        devices,
        None,
    );
    assert_eq!(code, 0, "SelectDevices: {results:?}");
    let (code, results) = request(
        bus,
        "org.freedesktop.portal.ScreenCast",
        "SelectSources",
        &format!("sources{round}"),
        vec![session()],
        HashMap::from([
            ("types", Value::from(1u32)),
            ("multiple", Value::from(false)),
            // The pointer drawn in the frames, so that moving it changes them.
            ("cursor_mode", Value::from(2u32)),
        ]),
        None,
    );
    assert_eq!(code, 0, "SelectSources: {results:?}");
    let before_start = start.elapsed();
    // Start answers when the user has: meanwhile, a dialog is looked for and accepted.
    let dialog = std::thread::spawn(move || {
        let shown = Instant::now();
        while shown.elapsed() < Duration::from_secs(8) {
            let windows = kwin::list_windows().unwrap_or_default();
            if let Some(w) = windows.first() {
                std::thread::sleep(Duration::from_millis(700));
                let windows = kwin::list_windows().unwrap_or_default();
                let w = windows.first().cloned().unwrap_or(w.clone());
                let bus = sudoku_bot::wayland::session_bus().expect("bus");
                let screen = sudoku_bot::screen::ScreenRect {
                    x: 0,
                    y: 0,
                    width: 1280,
                    height: 1024,
                };
                if let Ok(shot) = kwin::capture_area(&bus, &screen) {
                    let _ = shot.save(std::env::temp_dir().join("portal-dialog.png"));
                }
                let at = ScreenPoint {
                    x: w.rect.x + w.rect.width as i32 + accept.0,
                    y: w.rect.y + w.rect.height as i32 + accept.1,
                };
                let mut hand = KwinInput::open_alone().expect("fake input");
                hand.click(at).expect("click");
                return Some(format!(
                    "\"{}\" ({}, {}x{} at {},{}) after {} ms; clicked {at}",
                    w.title,
                    w.app_name,
                    w.rect.width,
                    w.rect.height,
                    w.rect.x,
                    w.rect.y,
                    shown.elapsed().as_millis()
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    });
    let started = Instant::now();
    let (code, results) = request(
        bus,
        "org.freedesktop.portal.RemoteDesktop",
        "Start",
        &format!("start{round}"),
        vec![session()],
        HashMap::new(),
        Some(Value::from("")),
    );
    let took = started.elapsed();
    let seen = dialog.join().unwrap_or(None);
    assert_eq!(code, 0, "Start: {results:?} (dialog: {seen:?})");
    let token: Option<String> = results
        .get("restore_token")
        .and_then(|v| v.clone().try_into().ok());
    let streams: Vec<(u32, HashMap<String, OwnedValue>)> = results
        .get("streams")
        .and_then(|v| v.clone().try_into().ok())
        .expect("streams");
    eprintln!("Start's results: {results:?}");
    let why = format!(
        "CreateSession to SelectSources answered {} ms; Start answered after {} ms",
        before_start.as_millis(),
        took.as_millis()
    );
    (
        streams[0].0,
        token,
        start.elapsed(),
        seen.is_some(),
        format!("{why}; dialog: {}", seen.unwrap_or("none".into())),
    )
}

fn main() {
    if std::env::args().any(|a| a == "shots") {
        return shots();
    }
    let accept: Vec<i32> = std::env::var("ACCEPT")
        .unwrap_or("-60,-25".into())
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    let accept = (accept[0], accept[1]);
    let Some(desk) = wayland::start_kwin_with_portal() else {
        return;
    };
    std::env::set_var("WAYLAND_DISPLAY", desk.wayland_display());
    let bus = Connection::session().expect("session bus");
    // The portal's own start is not counted: it is up once its name is.
    let up = Instant::now();
    while !sudoku_bot::wayland::has_owner(&bus, DESKTOP)
        || !sudoku_bot::wayland::has_owner(&bus, "org.freedesktop.impl.portal.desktop.kde")
    {
        assert!(
            up.elapsed() < Duration::from_secs(30),
            "no portal on the bus"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let (node, token, took, dialog, what) = session(&bus, "1", None, accept);
    println!(
        "first time: {} ms to a session with a screen and input (dialog: {dialog}); {what}",
        took.as_millis()
    );
    let first = Instant::now();
    let frames = Frames::connect(node).expect("the portal's PipeWire stream");
    // KWin sends a frame when the screen changes: the pointer moves, every 20 ms.
    let moving = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mover = {
        let moving = moving.clone();
        std::thread::spawn(move || {
            let mut hand = KwinInput::open_alone().expect("fake input");
            let mut i = 0;
            while moving.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = hand.move_to(ScreenPoint {
                    x: 100 + i % 200,
                    y: 100,
                });
                i += 7;
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let frame = frames.latest(Duration::from_secs(5));
    let got = first.elapsed();
    std::thread::sleep(Duration::from_secs(1));
    let count = frames.count();
    moving.store(false, std::sync::atomic::Ordering::Relaxed);
    let _ = mover.join();
    println!(
        "frames in the first {} ms with the pointer moving every 20 ms: {count}",
        first.elapsed().as_millis()
    );
    let first_elapsed = got;
    println!(
        "first frame: {} ms after Start's answer ({})",
        first_elapsed.as_millis(),
        frame.map_or_else(|e| e, |f| format!("{}x{}", f.width(), f.height()))
    );
    drop(frames);
    println!("restore token: {token:?}");
    let (_, _, took, dialog, what) = session(&bus, "2", token.as_deref(), accept);
    println!(
        "with the restore token: {} ms (dialog: {dialog}); {what}",
        took.as_millis()
    );
    let mut desk = desk;
    eprintln!("{}", desk.diagnose().replace("; ", "\n"));
}

/// One ScreenShot2 call (`method` with `leading` arguments, then the options and the
/// pipe): (time to KWin's answer, time to the last byte, bytes, width x height).
fn shot_timed(
    bus: &Connection,
    method: &str,
    leading: Vec<Value<'static>>,
    options: HashMap<&'static str, Value<'static>>,
) -> (Duration, Duration, usize, String) {
    use std::io::Read;
    let start = Instant::now();
    let (reader, writer) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).expect("a pipe");
    let reading = std::thread::spawn(move || {
        let mut data = Vec::new();
        std::fs::File::from(reader)
            .read_to_end(&mut data)
            .map(|_| data)
    });
    let mut fields = zbus::zvariant::StructureBuilder::new();
    for v in leading {
        fields = fields.append_field(v);
    }
    let body = fields
        .append_field(Value::from(options))
        .append_field(Value::from(zbus::zvariant::Fd::from(writer)))
        .build()
        .expect("a body");
    let reply = bus
        .call_method(
            Some("org.kde.KWin.ScreenShot2"),
            "/org/kde/KWin/ScreenShot2",
            Some("org.kde.KWin.ScreenShot2"),
            method,
            &body,
        )
        .unwrap_or_else(|e| panic!("{method}: {e}"));
    drop(body);
    let answered = start.elapsed();
    let results: HashMap<String, OwnedValue> = reply.body().deserialize().expect("results");
    let data = reading.join().expect("reader").expect("pixels");
    let size = |k: &str| {
        results
            .get(k)
            .and_then(|v| u32::try_from(v.clone()).ok())
            .unwrap_or(0)
    };
    (
        answered,
        start.elapsed(),
        data.len(),
        format!("{}x{}", size("width"), size("height")),
    )
}

/// `cargo bench --bench kde_portal -- shots`: what a ScreenShot2 look at GNOME Sudoku's
/// window costs, by method and area.
fn shots() {
    let Some(mut desk) = wayland::start_kwin() else {
        return;
    };
    desk.start_gnome_sudoku(
        "2..5...675...721...4.1......7....6.4.1..6..5.8.6....3......5.8...792...148...1..2",
    );
    std::env::set_var("WAYLAND_DISPLAY", desk.wayland_display());
    let bus = Connection::session().expect("session bus");
    let list = kwin::list_windows().expect("KWin's windows");
    let game = list.iter().find(|w| w.title == "Sudoku").expect("the game");
    let r = game.rect;
    println!(
        "game at {},{} {}x{}, load {}",
        r.x,
        r.y,
        r.width,
        r.height,
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let plain = || {
        HashMap::from([
            ("include-cursor", Value::from(false)),
            ("native-resolution", Value::from(false)),
        ])
    };
    let area = |x: i32, y: i32, w: u32, h: u32| {
        vec![
            Value::from(x),
            Value::from(y),
            Value::from(w),
            Value::from(h),
        ]
    };
    let report = |name: &str, runs: Vec<(Duration, Duration, usize, String)>| {
        let mut answered: Vec<u128> = runs.iter().map(|r| r.0.as_micros() / 100).collect();
        let mut whole: Vec<u128> = runs.iter().map(|r| r.1.as_micros() / 100).collect();
        answered.sort_unstable();
        whole.sort_unstable();
        println!(
            "{name}: {} ({} bytes): answer median {:.1} ms, last byte median {:.1} ms (min {:.1}, max {:.1})",
            runs[0].3,
            runs[0].2,
            answered[answered.len() / 2] as f64 / 10.0,
            whole[whole.len() / 2] as f64 / 10.0,
            whole[0] as f64 / 10.0,
            whole[whole.len() - 1] as f64 / 10.0
        );
    };
    let n = 20;
    let window = || area(r.x, r.y, r.width, r.height);
    let mut deco = plain();
    deco.insert("include-decoration", Value::from(true));
    let series = |name: &str,
                  method: &str,
                  leading: &dyn Fn() -> Vec<Value<'static>>,
                  options: &HashMap<&'static str, Value<'static>>,
                  pause: u64| {
        let runs = (0..n)
            .map(|_| {
                std::thread::sleep(Duration::from_millis(pause));
                shot_timed(&bus, method, leading(), options.clone())
            })
            .collect();
        report(name, runs);
    };
    for round in 0..2 {
        println!("round {round}");
        series("CaptureArea window", "CaptureArea", &window, &plain(), 0);
        series(
            "CaptureArea 1x1",
            "CaptureArea",
            &|| area(r.x, r.y, 1, 1),
            &plain(),
            0,
        );
        series(
            "CaptureArea half",
            "CaptureArea",
            &|| area(r.x, r.y, r.width / 2, r.height / 2),
            &plain(),
            0,
        );
        series(
            "CaptureArea window, 15 ms apart",
            "CaptureArea",
            &window,
            &plain(),
            15,
        );
        series(
            "CaptureActiveWindow",
            "CaptureActiveWindow",
            &Vec::new,
            &plain(),
            0,
        );
        series(
            "CaptureActiveWindow +decoration",
            "CaptureActiveWindow",
            &Vec::new,
            &deco,
            0,
        );
        // Two at once, of different areas (KWin merges equal requests).
        let start = Instant::now();
        for _ in 0..n / 2 {
            let b2 = bus.clone();
            let other = std::thread::spawn(move || {
                shot_timed(
                    &b2,
                    "CaptureArea",
                    vec![
                        Value::from(r.x),
                        Value::from(r.y),
                        Value::from(r.width),
                        Value::from(r.height - 1),
                    ],
                    HashMap::from([("include-cursor", Value::from(false))]),
                )
            });
            shot_timed(
                &bus,
                "CaptureArea",
                area(r.x, r.y, r.width, r.height),
                plain(),
            );
            other.join().unwrap();
        }
        println!(
            "two at once: {:.1} ms a pair",
            start.elapsed().as_micros() as f64 / 1000.0 / (n / 2) as f64
        );
    }
    let convert = Instant::now();
    for _ in 0..n {
        kwin::capture_area(&bus, &r).expect("a capture");
    }
    println!(
        "the bot's capture_area (with conversion): {:.1} ms each",
        convert.elapsed().as_micros() as f64 / 1000.0 / n as f64
    );
    drop(desk);
}
