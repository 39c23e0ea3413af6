//! Attacks on the bot's input for end-to-end tests: what another program (or a user)
//! does to a desktop at a random moment while the bot plays, and how many of the bot's
//! keys and clicks it caught. Window attacks put a [`Recorder`] where input could go
//! (a focus thief, a new window the window manager focuses, a keyboard or pointer grab,
//! a screen locker, an InputOnly cover, a window of another program inside the game);
//! input attacks send the user's own input through XTest (a 2-pixel nudge, the mouse
//! away and back, a key) and count every key and button press that arrives after it.
//!
//! A [`blind_typist`] plays in the bot's place without looking: it must leak under each
//! attack, which shows the attack and its count work.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use x11rb::connection::Connection;
use x11rb::protocol::xinput::{self, ConnectionExt as _};
use x11rb::protocol::xproto::ConnectionExt as _;
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;

use crate::desktop::Desktop;
use crate::recorder::{Recorder, Spec};

/// The kinds of attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attack {
    /// Another client takes the focus 3 ms of every 12 ms, giving it back between.
    FocusFlicker,
    /// A new managed window opens; the window manager gives it the focus.
    NewWindow,
    /// A launcher (rofi, dmenu) grabs the keyboard.
    KeyboardGrab,
    /// A menu grabs the pointer.
    PointerGrab,
    /// An xtrlock-like locker: an InputOnly window over the screen, both grabs.
    Locker,
    /// An InputOnly window over the lower rows of the grid.
    InputOnlyCover,
    /// A window of another program reparented into the game window, taking the focus.
    Reparented,
    /// The user nudges the mouse 2 pixels.
    Nudge,
    /// The user moves the mouse away and straight back.
    AwayAndBack,
    /// The user presses a key (x, keycode 53 on a US map).
    UserKey,
}

impl Attack {
    pub const ALL: [Attack; 10] = [
        Attack::FocusFlicker,
        Attack::NewWindow,
        Attack::KeyboardGrab,
        Attack::PointerGrab,
        Attack::Locker,
        Attack::InputOnlyCover,
        Attack::Reparented,
        Attack::Nudge,
        Attack::AwayAndBack,
        Attack::UserKey,
    ];

    /// Where its recorder goes and what it is, for window attacks.
    fn spec(self, grid: (i16, i16)) -> Option<Spec<'static>> {
        let beside = (1030, 20, 220, 120);
        let (title, rect, override_redirect, input_only) = match self {
            Attack::FocusFlicker => ("Focus thief", beside, true, false),
            Attack::NewWindow => ("New terminal", (900, 560, 320, 200), false, false),
            Attack::KeyboardGrab => ("Launcher", beside, true, false),
            Attack::PointerGrab => ("Menu", beside, true, false),
            // xtrlock's own: a 1x1 InputOnly window that holds both grabs.
            Attack::Locker => ("Locker", (0, 0, 1, 1), true, true),
            Attack::InputOnlyCover => ("Click catcher", (grid.0, grid.1, 580, 200), true, true),
            Attack::Reparented => ("Intruder", (0, 0, 300, 150), true, false),
            _ => return None,
        };
        Some(Spec {
            title,
            rect,
            override_redirect,
            input_only,
        })
    }
}

/// A running attack.
pub struct Running {
    attack: Attack,
    recorder: Option<Recorder>,
    watcher: Option<RawWatcher>,
}

/// The game window's id and the screen point of its grid's top-left cell centre.
#[derive(Clone, Copy)]
pub struct Target {
    pub window: u32,
    pub first_cell: (i16, i16),
}

/// Checks that a recorder of the kind `attack` uses counts what is sent to it: a click
/// and a key through XTest land in its list. Panics otherwise.
pub fn self_check(desk: &Desktop, attack: Attack) {
    let Some(mut spec) = attack.spec((100, 100)) else {
        let mut watcher = RawWatcher::open(&desk.display);
        watcher.mark();
        desk.run("xdotool", &["key", "5"]);
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            watcher.presses_after() >= 1,
            "the raw watcher did not count a key sent to the desktop"
        );
        return;
    };
    spec.rect = (400, 400, 200, 100);
    spec.title = "Self-check";
    // Where it is put, not where a window manager would place it.
    spec.override_redirect = true;
    let recorder = Recorder::open(&desk.display, spec);
    std::thread::sleep(Duration::from_millis(300));
    recorder.take_focus();
    recorder.sync();
    desk.run("xdotool", &["mousemove", "450", "450", "click", "1"]);
    desk.run("xdotool", &["key", "5"]);
    let start = Instant::now();
    while recorder.events().len() < 2 && start.elapsed() < Duration::from_secs(3) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let got = recorder.close();
    assert!(
        got.iter().any(|e| e.starts_with("button 1")) && got.iter().any(|e| e.starts_with("key")),
        "the {attack:?} recorder did not count a click and a key sent to it: {got:?}"
    );
}

/// Starts `attack` on the desktop now.
pub fn launch(desk: &Desktop, attack: Attack, target: Target) -> Running {
    let mut running = Running {
        attack,
        recorder: None,
        watcher: None,
    };
    let grid = (target.first_cell.0 - 30, target.first_cell.1 + 64 * 6);
    if let Some(spec) = attack.spec(grid) {
        let mut recorder = Recorder::open(&desk.display, spec);
        match attack {
            Attack::FocusFlicker => recorder.flicker_focus(
                Some(target.window),
                Duration::from_millis(3),
                Duration::from_secs(4),
            ),
            Attack::KeyboardGrab => recorder.grab(true, false),
            Attack::PointerGrab => recorder.grab(false, true),
            Attack::Locker => recorder.grab(true, true),
            Attack::Reparented => {
                recorder.reparent_into(target.window, 60, 300);
                recorder.take_focus();
            }
            // The window manager focuses the new window: at once on mapping, or, where
            // its focus-stealing prevention holds back (the player typing in the game),
            // when a taskbar asks it to. The mapping alone twice left the blind
            // typist's keys in the game for 20 s, and the positive control failed.
            Attack::NewWindow => {
                recorder.sync();
                std::thread::sleep(Duration::from_millis(150));
                recorder.ask_to_be_activated();
            }
            _ => {}
        }
        recorder.sync();
        running.recorder = Some(recorder);
        return running;
    }
    let mut watcher = RawWatcher::open(&desk.display);
    watcher.act(attack);
    running.watcher = Some(watcher);
    running
}

impl Running {
    /// Whether the attack has caught any of the player's input yet.
    pub fn caught_any(&mut self) -> bool {
        match (&self.recorder, &mut self.watcher) {
            (Some(r), _) => !r.events().is_empty(),
            (_, Some(w)) => !w.events_after().is_empty(),
            _ => false,
        }
    }

    /// Ends the attack; what it caught of the player's input.
    pub fn finish(self) -> Vec<String> {
        let caught = match (self.recorder, self.watcher) {
            (Some(r), _) => r.close(),
            (_, Some(mut w)) => w.events_after(),
            _ => Vec::new(),
        };
        let _ = self.attack;
        caught
    }
}

/// An X connection that selects every raw key and button press of the server
/// (XInput 2.2) and sends the user's input through XTest: what arrives after its own
/// input (in the server's order: its round trip after sending brings in every event
/// before it) was sent after the user acted.
pub struct RawWatcher {
    conn: RustConnection,
    root: u32,
    before: usize,
    events: Vec<String>,
}

impl RawWatcher {
    pub fn open(display: &str) -> RawWatcher {
        let (conn, screen) = x11rb::connect(Some(display)).expect("connect");
        let root = conn.setup().roots[screen].root;
        conn.xinput_xi_query_version(2, 2).unwrap().reply().unwrap();
        conn.xinput_xi_select_events(
            root,
            &[xinput::EventMask {
                deviceid: 1,
                mask: vec![
                    xinput::XIEventMask::RAW_KEY_PRESS | xinput::XIEventMask::RAW_BUTTON_PRESS,
                ],
            }],
        )
        .unwrap()
        .check()
        .unwrap();
        RawWatcher {
            conn,
            root,
            before: 0,
            events: Vec::new(),
        }
    }

    fn drain(&mut self) {
        self.conn.get_input_focus().unwrap().reply().unwrap();
        while let Ok(Some(e)) = self.conn.poll_for_event() {
            match e {
                Event::XinputRawKeyPress(e) => self.events.push(format!("key {}", e.detail)),
                Event::XinputRawButtonPress(e) => self.events.push(format!("button {}", e.detail)),
                _ => {}
            }
        }
    }

    /// Everything so far counts as before.
    pub fn mark(&mut self) {
        self.drain();
        self.before = self.events.len();
    }

    /// Key and button presses after the mark.
    pub fn presses_after(&mut self) -> usize {
        self.events_after().len()
    }

    pub fn events_after(&mut self) -> Vec<String> {
        self.drain();
        self.events[self.before..].to_vec()
    }

    /// The user's input of `attack`, sent now; its own events count as before.
    pub fn act(&mut self, attack: Attack) {
        let at = self.conn.query_pointer(self.root).unwrap().reply().unwrap();
        let (x, y) = (at.root_x, at.root_y);
        let motion = |to: (i16, i16)| {
            self.conn
                .xtest_fake_input(6, 0, 0, self.root, to.0, to.1, 0)
                .unwrap();
        };
        match attack {
            Attack::Nudge => motion((x + 2, y)),
            Attack::AwayAndBack => {
                motion((5, 5));
                self.conn.flush().unwrap();
                std::thread::sleep(Duration::from_millis(30));
                motion((x, y));
            }
            Attack::UserKey => {
                self.conn.xtest_fake_input(2, 53, 0, 0, 0, 0, 0).unwrap();
                self.conn.xtest_fake_input(3, 53, 0, 0, 0, 0, 0).unwrap();
            }
            other => panic!("{other:?} is not an input attack"),
        }
        self.mark();
    }
}

/// Plays in the bot's place without looking: types a 5 into the cells of the grid one
/// after another every 8 ms, clicking the first cell of each row (and moving along
/// the row with the keys' own effect), until stopped.
pub fn blind_typist(display: &str, target: Target, stop: Arc<AtomicBool>) -> JoinHandle<()> {
    let display = display.to_string();
    std::thread::spawn(move || {
        let (conn, screen) = x11rb::connect(Some(&display)).expect("connect");
        let root = conn.setup().roots[screen].root;
        let mut cell = 0;
        while !stop.load(Ordering::Relaxed) {
            let (row, col) = (cell / 9, cell % 9);
            let (x, y) = (
                target.first_cell.0 + 64 * col,
                target.first_cell.1 + 64 * row,
            );
            if col == 0 {
                let _ = conn.xtest_fake_input(6, 0, 0, root, x, y, 0);
                let _ = conn.xtest_fake_input(4, 1, 0, 0, 0, 0, 0);
                let _ = conn.xtest_fake_input(5, 1, 0, 0, 0, 0, 0);
            }
            let _ = conn.xtest_fake_input(2, 14, 0, 0, 0, 0, 0);
            let _ = conn.xtest_fake_input(3, 14, 0, 0, 0, 0, 0);
            let _ = conn.flush();
            cell = (cell + 1) % 81;
            std::thread::sleep(Duration::from_millis(8));
        }
    })
}

/// A random number in `range` (milliseconds), from the clock: each trial acts at
/// another moment.
pub fn random_ms(range: std::ops::Range<u64>) -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64;
    let mut x = nanos ^ 0x9e37_79b9_7f4a_7c15 ^ (std::process::id() as u64) << 20;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    range.start + x % (range.end - range.start).max(1)
}
