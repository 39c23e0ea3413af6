//! The X11 input device: keys and clicks sent with XTest, each one only while the bot
//! holds the X server (GrabServer) and only after checking, under that same grab, that
//! it can reach nothing but the game. While the server is grabbed no other program's
//! request runs: nobody can take the focus, grab the keyboard, map a window or move
//! one between the check and the key, so there is no check-then-send race.
//!
//! Checked under the grab, before each key or click:
//! - no other program holds an active keyboard or pointer grab (menus, launchers, screen
//!   lockers): a grab attempt on a window of ours that is never mapped answers
//!   AlreadyGrabbed when someone holds one and GrabNotViewable when nobody does, so the
//!   probe itself takes nothing from anyone;
//! - no input arrived that the bot did not send: the server's raw events (XInput 2.2)
//!   of every device, XTest included (VNC and Barrier drive the desktop through it),
//!   are read on this connection; the bot's own are the XTest events that arrive while
//!   it holds the server, since nobody else's XTest request can run then;
//! - a key: the focus is on the game's window or one inside it made by the game's own X
//!   client (a window of another program reparented into the game is not the game), and
//!   so is any window under the pointer inside the focus (keys go there);
//! - a click: the pointer, once moved, is where the bot put it, and every window under
//!   it down from the game's window belongs to the game's client; nothing else is on
//!   top (InputOnly windows included: they show nothing but take the click).
//!
//! Right after the key press (before its release), a second grab probe tells whether a
//! passive grab of another program took the key. The focus is also followed by events
//! (FocusOut on the game's window): when it left the game since the last key, the
//! device watches it for a moment and stops if another program has it, naming it.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use x11rb::connection::{Connection, RequestConnection};
use x11rb::errors::{ConnectionError, ReplyError};
use x11rb::protocol::xinput::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{
    ChangeWindowAttributesAux, ConnectionExt as _, CreateWindowAux, EventMask, GrabMode,
    GrabStatus, MapState, NotifyDetail, NotifyMode, Window, WindowClass,
};
use x11rb::protocol::xtest::ConnectionExt as _;
use x11rb::protocol::Event;

use super::grabs::{Device, GrabWatch};
use super::x11::X11;
use super::WindowInfo;
use crate::input::{Input, InputError, Key, ScreenPoint};

/// How long a grab by another program may last before the bot calls it the user's (a
/// window manager holds the pointer for a moment after a click, to pass it on; on a
/// loaded machine that moment passed 300 ms after a click on a Chromium game's number
/// pad). Nothing is sent while a grab is held, so waiting longer leaks nothing.
const GRAB_PATIENCE: Duration = Duration::from_millis(1000);
/// How long a grab the game's own client holds is waited out (SDL 2 games grab the
/// pointer from a press to its release; a busy machine delays the release for seconds).
/// Nothing is sent meanwhile; past this the game is called unresponsive.
const GAME_GRAB_PATIENCE: Duration = Duration::from_secs(15);
/// How long the focus is watched once it was seen leaving the game.
const FOCUS_WATCH: Duration = Duration::from_millis(100);

/// The real device on X11.
pub struct X11Input {
    x11: X11,
    /// A window of ours that is never mapped: the target of the grab probes.
    probe: Window,
    keycodes: HashMap<u32, u8>,
    xtest_devices: Vec<u16>,
    game: Option<Game>,
    /// What the bot's own drains saw of someone else's input, kept for
    /// [`Input::user_activity`].
    seen: Option<String>,
    delay: Duration,
    /// Who holds a grab (X RECORD), when the server says.
    grabs: Option<GrabWatch>,
}

/// The window the device may send to.
struct Game {
    window: Window,
    /// The focus left the game's window since the last look.
    focus_left: bool,
}

fn failed(e: impl Into<ReplyError>) -> InputError {
    match e.into() {
        ReplyError::ConnectionError(ConnectionError::IoError(e)) => {
            InputError::DisplayGone(e.to_string())
        }
        e => InputError::Send(e.to_string()),
    }
}

fn unsafe_now(why: String) -> InputError {
    InputError::Unsafe(why)
}

impl X11Input {
    /// Opens the device. `event_delay_ms` is a pause after each key or click.
    pub fn open(event_delay_ms: u32) -> Result<X11Input, InputError> {
        let x11 = X11::connect().map_err(|e| InputError::Open(e.to_string()))?;
        let open_error = |e: &dyn std::fmt::Display| InputError::Open(e.to_string());
        if x11
            .conn
            .extension_information(x11rb::protocol::xtest::X11_EXTENSION_NAME)
            .map_err(|e| open_error(&e))?
            .is_none()
        {
            return Err(InputError::Open(
                "the X server has no XTEST extension to send keys and clicks with".into(),
            ));
        }
        let probe = x11.conn.generate_id().map_err(|e| open_error(&e))?;
        x11.conn
            .create_window(
                0,
                probe,
                x11.root,
                -10,
                -10,
                1,
                1,
                0,
                WindowClass::INPUT_ONLY,
                0,
                &CreateWindowAux::new(),
            )
            .map_err(|e| open_error(&e))?;
        let keycodes = keycodes(&x11).map_err(|e| open_error(&e))?;
        let xtest_devices = select_raw_events(&x11)?;
        Ok(X11Input {
            x11,
            probe,
            keycodes,
            xtest_devices,
            game: None,
            seen: None,
            delay: Duration::from_millis(event_delay_ms.into()),
            grabs: GrabWatch::start(),
        })
    }

    fn game(&self) -> Result<Window, InputError> {
        self.game.as_ref().map(|g| g.window).ok_or_else(|| {
            InputError::Send("no game window to send input to (none was given)".into())
        })
    }

    /// Runs `f` while this connection holds the X server, then lets it go.
    fn holding_server<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, InputError>,
    ) -> Result<T, InputError> {
        self.x11.conn.grab_server().map_err(failed)?;
        let result = f(self);
        // A round trip brings in the raw events of what was sent (also when `f` gave
        // up half way, after moving the pointer): the bot's own, read as such.
        let drained = self.focus().and_then(|_| self.drain(true));
        let released = self
            .x11
            .conn
            .ungrab_server()
            .map_err(failed)
            .and_then(|_| self.x11.conn.flush().map_err(failed));
        let result = result?;
        drained?;
        released?;
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        Ok(result)
    }

    /// Whether another program holds an active grab of `device` now: a grab attempt on
    /// the unmapped probe window fails with AlreadyGrabbed then, else with
    /// GrabNotViewable, and takes nothing from anyone either way.
    fn grabbed(&self, device: Device) -> Result<bool, InputError> {
        let conn = &self.x11.conn;
        let status = match device {
            Device::Keyboard => {
                conn.grab_keyboard(
                    false,
                    self.probe,
                    x11rb::CURRENT_TIME,
                    GrabMode::ASYNC,
                    GrabMode::ASYNC,
                )
                .map_err(failed)?
                .reply()
                .map_err(failed)?
                .status
            }
            Device::Pointer => {
                conn.grab_pointer(
                    false,
                    self.probe,
                    EventMask::NO_EVENT,
                    GrabMode::ASYNC,
                    GrabMode::ASYNC,
                    x11rb::NONE,
                    x11rb::NONE,
                    x11rb::CURRENT_TIME,
                )
                .map_err(failed)?
                .reply()
                .map_err(failed)?
                .status
            }
        };
        if status == GrabStatus::SUCCESS {
            // Not expected on an unmapped window; let go at once if it happens.
            match device {
                Device::Keyboard => conn.ungrab_keyboard(x11rb::CURRENT_TIME),
                Device::Pointer => conn.ungrab_pointer(x11rb::CURRENT_TIME),
            }
            .map_err(failed)?;
        }
        Ok(status == GrabStatus::ALREADY_GRABBED || status == GrabStatus::FROZEN)
    }

    /// Fails when another program holds a grab of one of `devices` for longer than
    /// [`GRAB_PATIENCE`] since `since`, or the game's own client one for longer than
    /// [`GAME_GRAB_PATIENCE`]; shorter grabs are waited out (this runs before the
    /// server is held).
    fn wait_for_grabs(&mut self, devices: &[Device], since: Instant) -> Result<(), InputError> {
        let mut games_grab = false;
        loop {
            let Some(device) = self.grab_held(devices)? else {
                if games_grab {
                    tracing::debug!(
                        "waited {} ms for the game's own grab to end",
                        since.elapsed().as_millis()
                    );
                }
                return Ok(());
            };
            let games = self.grab_is_games(device);
            games_grab |= games;
            let patience = if games {
                GAME_GRAB_PATIENCE
            } else {
                GRAB_PATIENCE
            };
            if since.elapsed() >= patience {
                return Err(unsafe_now(self.grab_words(device)));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The first of `devices` someone holds a grab of now; the others are noted free.
    fn grab_held(&mut self, devices: &[Device]) -> Result<Option<Device>, InputError> {
        for &d in devices {
            let made = self.grabs.as_ref().map_or(0, GrabWatch::made);
            if self.grabbed(d)? {
                return Ok(Some(d));
            }
            if let Some(w) = &self.grabs {
                w.free(d, made);
            }
        }
        Ok(None)
    }

    /// The client that holds `device`'s grab, as RECORD showed it made (after reading
    /// what was recorded up to now).
    fn grab_holder(&self, device: Device) -> Option<u32> {
        let watch = self.grabs.as_ref()?;
        watch.catch_up();
        watch.holder(device)
    }

    /// Whether the game's own client holds `device`'s grab (seen made, not let go).
    fn grab_is_games(&self, device: Device) -> bool {
        match (self.grab_holder(device), self.game.as_ref()) {
            (Some(client), Some(g)) => self.x11.same_client(client, g.window),
            _ => false,
        }
    }

    /// Why input is not sent while `device` is grabbed, naming the holder when known.
    fn grab_words(&self, device: Device) -> String {
        let what = match device {
            Device::Keyboard => "keyboard",
            Device::Pointer => "pointer",
        };
        if self.grab_is_games(device) {
            return format!(
                "the game has held the {what} grab of its own window for over {} s, so it does \
                 not answer input",
                GAME_GRAB_PATIENCE.as_secs()
            );
        }
        let mut words = grab_words(device);
        if let Some(client) = self.grab_holder(device) {
            words.push_str(&format!(" (X client {client:#x})"));
        }
        words
    }

    /// Reads every event that has arrived. Raw input is the bot's own only when `ours`
    /// (read while the server is held, after the bot's XTest requests) and from an
    /// XTest device; the first other input is kept in `seen`. A focus change that took
    /// the focus out of the game is noted.
    fn drain(&mut self, ours: bool) -> Result<(), InputError> {
        let devices = self.xtest_devices.clone();
        while let Some(event) = self.x11.conn.poll_for_event().map_err(failed)? {
            let xtest = |source: u16| devices.contains(&source);
            let via = |source: u16| {
                if xtest(source) {
                    " by another program (XTest: xdotool, VNC, Barrier)"
                } else {
                    ""
                }
            };
            let found = match event {
                Event::XinputRawMotion(e) if !(ours && xtest(e.sourceid)) => {
                    Some(format!("the mouse moved{}", via(e.sourceid)))
                }
                Event::XinputRawButtonPress(e) if !(ours && xtest(e.sourceid)) => {
                    Some(match e.detail {
                        4..=7 => format!("the mouse wheel turned{}", via(e.sourceid)),
                        b => format!("a mouse button ({b}) was pressed{}", via(e.sourceid)),
                    })
                }
                Event::XinputRawKeyPress(e) if !(ours && xtest(e.sourceid)) => Some(format!(
                    "a key (keycode {}) was pressed{}",
                    e.detail,
                    via(e.sourceid)
                )),
                Event::FocusOut(e) => {
                    let away = [
                        NotifyDetail::ANCESTOR,
                        NotifyDetail::VIRTUAL,
                        NotifyDetail::NONLINEAR,
                        NotifyDetail::NONLINEAR_VIRTUAL,
                    ]
                    .contains(&e.detail)
                        && e.mode != NotifyMode::UNGRAB;
                    if let Some(game) = self.game.as_mut().filter(|g| g.window == e.event) {
                        game.focus_left |= away;
                    }
                    None
                }
                _ => None,
            };
            if self.seen.is_none() {
                self.seen = found;
            }
        }
        Ok(())
    }

    /// Fails when input the bot did not send has arrived.
    fn no_foreign_input(&mut self) -> Result<(), InputError> {
        self.drain(false)?;
        match self.seen.take() {
            Some(what) => Err(InputError::Interfered(what)),
            None => Ok(()),
        }
    }

    /// When the focus left the game since the last look: watches it for
    /// [`FOCUS_WATCH`] and fails naming the first window of another program that has
    /// it (a program that keeps taking it back). The game's own dialogs and the window
    /// manager's windows do not count; a game off the screen is a pause.
    fn focus_stayed(&mut self) -> Result<(), InputError> {
        let game = self.game()?;
        let left = self.game.as_ref().is_some_and(|g| g.focus_left);
        if !left {
            return Ok(());
        }
        // Unmapped, it lost the focus to no program's doing.
        if !self.game_viewable(game)? {
            return Err(InputError::Unreachable(super::NOT_ON_SCREEN.into()));
        }
        let start = Instant::now();
        while start.elapsed() < FOCUS_WATCH {
            let focus = self.focus()?;
            // The window manager's own window (between two windows) is no program's.
            if focus > 1 && !self.x11.same_client(focus, game) && !self.window_managers(focus) {
                return Err(unsafe_now(format!(
                    "the keyboard focus is on {}: another program took it from the game",
                    self.name(focus)
                )));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        if let Some(g) = self.game.as_mut() {
            g.focus_left = false;
        }
        Ok(())
    }

    fn focus(&self) -> Result<Window, InputError> {
        Ok(self
            .x11
            .conn
            .get_input_focus()
            .map_err(failed)?
            .reply()
            .map_err(failed)?
            .focus)
    }

    /// A window named for a message: its application window's title, class, place and
    /// the process of the X client that made it.
    fn name(&self, window: Window) -> String {
        let top = self.x11.top_level(window).unwrap_or(window);
        let client = self.x11.client_of(top).unwrap_or(top);
        let shown = if self.x11.same_client(client, window) {
            client
        } else {
            window
        };
        let mut words = self.x11.window_info(shown, None).describe();
        if let Some(pid) = self.x11.client_pid(window) {
            let exe = std::fs::read_link(format!("/proc/{pid}/exe"))
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| "?".into());
            words.push_str(&format!(" of process {pid} ({exe})"));
        }
        words
    }

    /// The windows under the pointer from `from` down, outermost first, with where the
    /// pointer is.
    fn under_pointer(&self, from: Window) -> Result<(Vec<Window>, ScreenPoint), InputError> {
        let mut chain = Vec::new();
        let mut at = None;
        let mut window = from;
        loop {
            let reply = self
                .x11
                .conn
                .query_pointer(window)
                .map_err(failed)?
                .reply()
                .map_err(failed)?;
            at.get_or_insert(ScreenPoint {
                x: reply.root_x.into(),
                y: reply.root_y.into(),
            });
            if !reply.same_screen || reply.child == x11rb::NONE {
                break;
            }
            chain.push(reply.child);
            window = reply.child;
        }
        Ok((chain, at.unwrap_or(ScreenPoint { x: 0, y: 0 })))
    }

    /// True when the window manager made `window` (a frame, or the window it focuses
    /// when no window has the focus).
    fn window_managers(&self, window: Window) -> bool {
        self.x11.is_window_managers(window).unwrap_or(false)
    }

    /// Whether the game's window is on the screen (mapped, its ancestors too).
    fn game_viewable(&self, game: Window) -> Result<bool, InputError> {
        let attributes = self
            .x11
            .conn
            .get_window_attributes(game)
            .map_err(failed)?
            .reply();
        Ok(attributes.is_ok_and(|a| a.map_state == MapState::VIEWABLE))
    }

    /// Why a key sent now would not reach the game, else `None` (the server is held):
    /// [`InputError::Unreachable`] when it would reach no program (the game off the
    /// screen, the focus on no window), else why another program could get it.
    fn key_blocked(&self, game: Window) -> Result<Option<InputError>, InputError> {
        let focus = self.focus()?;
        let on_game = focus > 1
            && self
                .x11
                .is_inside(focus, game)
                .map_err(|e| InputError::Send(e.to_string()))?
            && self.x11.same_client(focus, game);
        if !on_game {
            return Ok(Some(self.focus_refusal(game, focus)?));
        }
        // Keys go to the window under the pointer when it lies inside the focus.
        let (chain, _) = self.under_pointer(focus)?;
        Ok(chain
            .iter()
            .find(|&&w| !self.x11.same_client(w, game))
            .map(|&w| {
                unsafe_now(format!(
                    "not typing: {} lies inside the game's window under the pointer and would get the key",
                    self.name(w)
                ))
            }))
    }

    /// Why a key may not go while the focus is off the game: nowhere
    /// ([`InputError::Unreachable`]: the game off the screen, the focus on no window or
    /// the window manager's), else to another program.
    fn focus_refusal(&self, game: Window, focus: Window) -> Result<InputError, InputError> {
        if !self.game_viewable(game)? {
            return Ok(InputError::Unreachable(super::NOT_ON_SCREEN.into()));
        }
        if focus == x11rb::NONE || self.window_managers(focus) {
            return Ok(InputError::Unreachable(
                "the keyboard focus is on no window".into(),
            ));
        }
        Ok(unsafe_now(if focus == 1 {
            "not typing: no window has the keyboard focus, so keys would go wherever the pointer is"
                .into()
        } else {
            format!(
                "not typing: the keyboard focus is on {}, not the game",
                self.name(focus)
            )
        }))
    }

    /// Why a click now at `at` (the pointer already there) would not reach the game,
    /// else `None` (the server is held): [`InputError::Unreachable`] when the game is
    /// off the screen, else why another program could get it.
    fn click_blocked(
        &self,
        game: Window,
        at: ScreenPoint,
    ) -> Result<Option<InputError>, InputError> {
        let not_clicking = |why: String| Ok(Some(unsafe_now(format!("not clicking: {why}"))));
        let (chain, now) = self.under_pointer(self.x11.root)?;
        if now != at {
            return not_clicking(format!(
                "the pointer is at {now}, not at {at} where the bot put it"
            ));
        }
        let Some(pos) = chain.iter().position(|&w| w == game) else {
            if !self.game_viewable(game)? {
                return Ok(Some(InputError::Unreachable(super::NOT_ON_SCREEN.into())));
            }
            return not_clicking(match chain.first() {
                Some(&top) => format!("{} is over {at}", self.name(top)),
                None => format!("no window is at {at}"),
            });
        };
        match chain[pos..]
            .iter()
            .find(|&&w| !self.x11.same_client(w, game))
        {
            Some(&w) => not_clicking(format!(
                "{} lies inside the game's window at {at} and would get the click",
                self.name(w)
            )),
            None => Ok(None),
        }
    }

    fn fake(&self, kind: u8, detail: u8, at: Option<ScreenPoint>) -> Result<(), InputError> {
        let (x, y) = at.map_or((0, 0), |p| (p.x as i16, p.y as i16));
        let root = if at.is_some() {
            self.x11.root
        } else {
            x11rb::NONE
        };
        self.x11
            .conn
            .xtest_fake_input(kind, detail, x11rb::CURRENT_TIME, root, x, y, 0)
            .map_err(failed)?;
        Ok(())
    }

    /// The checks every input makes while the server is held: no grab, no foreign
    /// input (the probes' replies bring every earlier event in). `Ok(false)`: someone
    /// took a grab since it was waited out (a game grabs the pointer on each click):
    /// let the server go and wait again (whose grab it is can only be read then).
    fn held_checks(&mut self, devices: &[Device]) -> Result<bool, InputError> {
        if self.grab_held(devices)?.is_some() {
            return Ok(false);
        }
        self.no_foreign_input()?;
        Ok(true)
    }

    /// Runs `send` while the server is held, once no grab is held (grabs are waited
    /// out as [`Self::wait_for_grabs`] says, also one taken just before the server was).
    fn send_when_free<T>(
        &mut self,
        send: impl Fn(&mut Self) -> Result<T, InputError>,
    ) -> Result<T, InputError> {
        let devices = [Device::Keyboard, Device::Pointer];
        let since = Instant::now();
        for _ in 0..SEND_TRIES {
            self.wait_for_grabs(&devices, since)?;
            let sent = self.holding_server(|me| {
                if !me.held_checks(&devices)? {
                    return Ok(None);
                }
                send(me).map(Some)
            })?;
            if let Some(result) = sent {
                return Ok(result);
            }
        }
        let device = self.grab_held(&devices)?.unwrap_or(Device::Pointer);
        Err(unsafe_now(self.grab_words(device)))
    }
}

/// How many times a grab taken just before the bot held the server is waited out for
/// one input.
const SEND_TRIES: usize = 50;

fn grab_words(device: Device) -> String {
    format!(
        "another program holds the {} grab (a menu, a launcher or a screen locker), so input \
         would go to it",
        match device {
            Device::Keyboard => "keyboard",
            Device::Pointer => "pointer",
        }
    )
}

/// The keycode of each keysym the bot types (the first one found, unshifted).
fn keycodes(x11: &X11) -> Result<HashMap<u32, u8>, ReplyError> {
    let setup = x11.conn.setup();
    let (min, max) = (setup.min_keycode, setup.max_keycode);
    let map = x11.conn.get_keyboard_mapping(min, max - min + 1)?.reply()?;
    let per = usize::from(map.keysyms_per_keycode.max(1));
    let mut out = HashMap::new();
    for (i, syms) in map.keysyms.chunks(per).enumerate() {
        if let Some(&sym) = syms.first() {
            out.entry(sym).or_insert(min + i as u8);
        }
    }
    Ok(out)
}

/// Selects the server's raw key, button and motion events (XInput 2.2) of every
/// device on the root window; returns the XTest devices.
fn select_raw_events(x11: &X11) -> Result<Vec<u16>, InputError> {
    let query = |e: &dyn std::fmt::Display| InputError::Query(e.to_string());
    let version = x11
        .conn
        .xinput_xi_query_version(2, 2)
        .map_err(|e| query(&e))?
        .reply()
        .map_err(|e| {
            InputError::Open(format!(
                "the X server has no XInput 2.2, needed to notice the user taking over: {e}"
            ))
        })?;
    if (version.major_version, version.minor_version) < (2, 2) {
        return Err(InputError::Open(format!(
            "the X server has XInput {}.{}; 2.2 is needed to notice the user taking over",
            version.major_version, version.minor_version
        )));
    }
    let devices = x11
        .conn
        .xinput_xi_query_device(0u16)
        .map_err(|e| query(&e))?
        .reply()
        .map_err(|e| query(&e))?;
    let xtest = devices
        .infos
        .iter()
        .filter(|d| String::from_utf8_lossy(&d.name).contains("XTEST"))
        .map(|d| d.deviceid)
        .collect();
    let mask = xinput::XIEventMask::RAW_KEY_PRESS
        | xinput::XIEventMask::RAW_BUTTON_PRESS
        | xinput::XIEventMask::RAW_MOTION;
    // 1 = XIAllMasterDevices: each event once, with the slave it came from.
    x11.conn
        .xinput_xi_select_events(
            x11.root,
            &[xinput::EventMask {
                deviceid: 1,
                mask: vec![mask],
            }],
        )
        .map_err(|e| query(&e))?
        .check()
        .map_err(|e| query(&e))?;
    Ok(xtest)
}

const KEY_PRESS: u8 = 2;
const KEY_RELEASE: u8 = 3;
const BUTTON_PRESS: u8 = 4;
const BUTTON_RELEASE: u8 = 5;
const MOTION: u8 = 6;

impl Input for X11Input {
    fn aim(&mut self, game: Option<&WindowInfo>) {
        self.game = game.map(|g| Game {
            window: g.id,
            focus_left: false,
        });
        if let Some(g) = game {
            // Our own selection: the game's own is untouched.
            let _ = self.x11.conn.change_window_attributes(
                g.id,
                &ChangeWindowAttributesAux::new().event_mask(EventMask::FOCUS_CHANGE),
            );
            let _ = self.x11.conn.flush();
        }
    }

    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        let game = self.game()?;
        self.no_foreign_input()?;
        self.send_when_free(|me| {
            me.fake(MOTION, 0, Some(at))?;
            if let Some(blocked) = me.click_blocked(game, at)? {
                return Err(blocked);
            }
            me.fake(BUTTON_PRESS, 1, None)?;
            me.fake(BUTTON_RELEASE, 1, None)
        })?;
        self.no_foreign_input()
    }

    fn key(&mut self, key: Key) -> Result<(), InputError> {
        let game = self.game()?;
        let sym = key.keysym()?;
        let code = *self
            .keycodes
            .get(&sym)
            .ok_or_else(|| InputError::Send(format!("the keyboard map has no key for {key:?}")))?;
        self.no_foreign_input()?;
        self.focus_stayed()?;
        // A pointer grab counts too: menus that take the pointer take the keys next.
        let passive = self.send_when_free(|me| {
            if let Some(blocked) = me.key_blocked(game)? {
                return Err(blocked);
            }
            me.fake(KEY_PRESS, code, None)?;
            // A passive grab of another program that the press set off holds the
            // keyboard until the release.
            let taken = me.grabbed(Device::Keyboard)?;
            me.fake(KEY_RELEASE, code, None)?;
            Ok(taken)
        })?;
        if passive {
            return Err(unsafe_now(format!(
                "the key {key:?} went to another program's grab of it (a global shortcut)"
            )));
        }
        self.no_foreign_input()
    }

    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        let reply = self
            .x11
            .conn
            .query_pointer(self.x11.root)
            .map_err(failed)?
            .reply()
            .map_err(failed)?;
        Ok(ScreenPoint {
            x: reply.root_x.into(),
            y: reply.root_y.into(),
        })
    }

    fn keys_held(&mut self) -> Result<bool, InputError> {
        let reply = self
            .x11
            .conn
            .query_keymap()
            .map_err(failed)?
            .reply()
            .map_err(failed)?;
        Ok(reply.keys.iter().any(|&b| b != 0))
    }

    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        self.drain(false)?;
        Ok(self.seen.take())
    }
}
