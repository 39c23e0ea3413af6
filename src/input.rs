//! Synthetic input: the small trait the bot plays through, and the real device behind it
//! (enigo over X11 XTest). The same device watches for the user taking over: every key
//! press, button press and pointer motion the X server sees (XInput2 raw events), told
//! apart from the bot's own, as well as the pointer leaving the spot where the bot put
//! it and a key held down.

use enigo::{Button, Coordinate, Direction, Enigo, Keyboard, Mouse, Settings};
use x11rb::connection::Connection;
use x11rb::protocol::xinput::{self, ConnectionExt as _};
use x11rb::protocol::xproto::{ConnectionExt, Window};
use x11rb::protocol::Event;
use x11rb::rust_connection::RustConnection;

/// A point in screen pixels (the root window's coordinates).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScreenPoint {
    pub x: i32,
    pub y: i32,
}

impl std::fmt::Display for ScreenPoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A key the bot presses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// A digit key 1-9.
    Digit(u8),
    Up,
    Down,
    Left,
    Right,
    /// Clears the selected cell in most games.
    Delete,
    Backspace,
    Escape,
}

/// Why input could not be sent or observed.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot open the input device: {0}")]
    Open(String),
    #[error("sending input failed: {0}")]
    Send(String),
    /// The connection to the X server broke while sending: the session ended.
    #[error("lost the connection to the X server (did the session end?): {0}")]
    DisplayGone(String),
    #[error("cannot query the pointer or keyboard: {0}")]
    Query(String),
}

/// The device the bot plays through. Tests use a recording implementation.
pub trait Input {
    /// Moves the pointer to `at` and clicks the left button there.
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError>;
    /// Presses and releases one key.
    fn key(&mut self, key: Key) -> Result<(), InputError>;
    /// Where the pointer is now.
    fn pointer(&mut self) -> Result<ScreenPoint, InputError>;
    /// True when any key of the keyboard is held down right now.
    fn keys_held(&mut self) -> Result<bool, InputError>;
    /// The user's own input since the last call (never the bot's), in a few words, e.g.
    /// "a mouse button (1) was pressed"; `None` when there was none.
    fn user_activity(&mut self) -> Result<Option<String>, InputError>;
    /// False for a device that sends nothing (a dry run): the bot then prints the moves
    /// it would play instead of playing them.
    fn sends(&self) -> bool {
        true
    }
}

/// A boxed device is a device: the backend is chosen at run time.
impl<T: Input + ?Sized> Input for Box<T> {
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        (**self).click(at)
    }
    fn key(&mut self, key: Key) -> Result<(), InputError> {
        (**self).key(key)
    }
    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        (**self).pointer()
    }
    fn keys_held(&mut self) -> Result<bool, InputError> {
        (**self).keys_held()
    }
    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        (**self).user_activity()
    }
    fn sends(&self) -> bool {
        (**self).sends()
    }
}

/// The real device: enigo's x11rb backend sends XTest events; a second X11 connection
/// asks where the pointer is and which keys are down, and receives every raw input
/// event of the server (XInput2) to see the user's hand.
pub struct EnigoInput {
    enigo: Enigo,
    x11: RustConnection,
    root: Window,
    watch: RawEvents,
}

impl EnigoInput {
    /// Opens the device. `event_delay_ms` is the delay the X server adds to each event
    /// (enigo's `linux_delay`; 0 sends events as fast as the server takes them).
    pub fn open(event_delay_ms: u32) -> Result<EnigoInput, InputError> {
        let settings = Settings {
            linux_delay: event_delay_ms,
            ..Settings::default()
        };
        let enigo = Enigo::new(&settings).map_err(|e| InputError::Open(e.to_string()))?;
        let (x11, screen) = x11rb::connect(None).map_err(|e| InputError::Open(e.to_string()))?;
        let root = x11.setup().roots[screen].root;
        let watch = RawEvents::select(&x11, root)?;
        Ok(EnigoInput {
            enigo,
            x11,
            root,
            watch,
        })
    }
}

fn query_error(e: impl std::fmt::Display) -> InputError {
    InputError::Query(e.to_string())
}

/// The server's raw input events (XInput 2.2), selected on the root window for every
/// master device: one event per key press, button press or motion of any device,
/// whichever window it goes to, with the physical device it came from (`sourceid`).
///
/// XTest input, the bot's and any other program's, comes from the "XTEST" slave
/// devices; the bot counts the button and key presses it sent, so an XTest press beyond
/// that count is someone else's. Motion through XTest is told by the pointer check
/// (the bot knows where it put the pointer); motion from any other device is the user.
struct RawEvents {
    xtest_devices: Vec<u16>,
    sent_buttons: u64,
    seen_buttons: u64,
    sent_keys: u64,
    seen_keys: u64,
}

impl RawEvents {
    fn select(x11: &RustConnection, root: Window) -> Result<RawEvents, InputError> {
        let version = x11
            .xinput_xi_query_version(2, 2)
            .map_err(query_error)?
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
            .xinput_xi_query_device(0u16)
            .map_err(query_error)?
            .reply()
            .map_err(query_error)?;
        let xtest_devices = devices
            .infos
            .iter()
            .filter(|d| String::from_utf8_lossy(&d.name).contains("XTEST"))
            .map(|d| d.deviceid)
            .collect();
        let mask = xinput::XIEventMask::RAW_KEY_PRESS
            | xinput::XIEventMask::RAW_BUTTON_PRESS
            | xinput::XIEventMask::RAW_MOTION;
        // 1 = XIAllMasterDevices: each event once, with the slave it came from.
        x11.xinput_xi_select_events(
            root,
            &[xinput::EventMask {
                deviceid: 1,
                mask: vec![mask],
            }],
        )
        .map_err(query_error)?
        .check()
        .map_err(query_error)?;
        Ok(RawEvents {
            xtest_devices,
            sent_buttons: 0,
            seen_buttons: 0,
            sent_keys: 0,
            seen_keys: 0,
        })
    }

    /// Reads every event that has arrived; the first that is not the bot's, described.
    fn drain(&mut self, x11: &RustConnection) -> Result<Option<String>, InputError> {
        let mut first = None;
        while let Some(event) = x11.poll_for_event().map_err(query_error)? {
            let found = match event {
                Event::XinputRawMotion(e) if !self.xtest_devices.contains(&e.sourceid) => {
                    Some("the mouse moved".to_string())
                }
                Event::XinputRawButtonPress(e) => {
                    let ours = e.detail == 1
                        && self.xtest_devices.contains(&e.sourceid)
                        && self.seen_buttons < self.sent_buttons;
                    if ours {
                        self.seen_buttons += 1;
                        None
                    } else {
                        Some(match e.detail {
                            4..=7 => "the mouse wheel turned".to_string(),
                            b => format!("a mouse button ({b}) was pressed"),
                        })
                    }
                }
                Event::XinputRawKeyPress(e) => {
                    let ours =
                        self.xtest_devices.contains(&e.sourceid) && self.seen_keys < self.sent_keys;
                    if ours {
                        self.seen_keys += 1;
                        None
                    } else {
                        Some(format!("a key (keycode {}) was pressed", e.detail))
                    }
                }
                _ => None,
            };
            first = first.or(found);
        }
        Ok(first)
    }
}

impl EnigoInput {
    /// Why enigo failed: when the server no longer answers, the session ended, which
    /// says more than enigo's own message.
    fn send_failed(&self, e: enigo::InputError) -> InputError {
        let alive = self
            .x11
            .get_input_focus()
            .map_err(|_| ())
            .and_then(|cookie| cookie.reply().map_err(|_| ()));
        match alive {
            Ok(_) => InputError::Send(e.to_string()),
            Err(()) => InputError::DisplayGone(format!("sending input failed: {e}")),
        }
    }
}

impl Input for EnigoInput {
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        self.enigo
            .move_mouse(at.x, at.y, Coordinate::Abs)
            .map_err(|e| self.send_failed(e))?;
        self.watch.sent_buttons += 1;
        self.enigo
            .button(Button::Left, Direction::Click)
            .map_err(|e| self.send_failed(e))
    }

    fn key(&mut self, key: Key) -> Result<(), InputError> {
        let key = match key {
            Key::Digit(d) if (1..=9).contains(&d) => enigo::Key::Unicode((b'0' + d) as char),
            Key::Digit(d) => return Err(InputError::Send(format!("{d} is not a sudoku digit"))),
            Key::Up => enigo::Key::UpArrow,
            Key::Down => enigo::Key::DownArrow,
            Key::Left => enigo::Key::LeftArrow,
            Key::Right => enigo::Key::RightArrow,
            Key::Delete => enigo::Key::Delete,
            Key::Backspace => enigo::Key::Backspace,
            Key::Escape => enigo::Key::Escape,
        };
        self.watch.sent_keys += 1;
        self.enigo
            .key(key, Direction::Click)
            .map_err(|e| self.send_failed(e))
    }

    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        let reply = self
            .x11
            .query_pointer(self.root)
            .map_err(query_error)?
            .reply()
            .map_err(query_error)?;
        Ok(ScreenPoint {
            x: reply.root_x as i32,
            y: reply.root_y as i32,
        })
    }

    fn keys_held(&mut self) -> Result<bool, InputError> {
        let reply = self
            .x11
            .query_keymap()
            .map_err(query_error)?
            .reply()
            .map_err(query_error)?;
        Ok(reply.keys.iter().any(|&b| b != 0))
    }

    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        self.watch.drain(&self.x11)
    }
}

/// The device of a dry run: the bot never sends input then; this one refuses to, so a
/// mistake cannot click anything.
pub struct NoInput;

impl Input for NoInput {
    fn sends(&self) -> bool {
        false
    }
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        Err(InputError::Send(format!("dry run: not clicking at {at}")))
    }
    fn key(&mut self, key: Key) -> Result<(), InputError> {
        Err(InputError::Send(format!("dry run: not pressing {key:?}")))
    }
    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        Ok(ScreenPoint { x: 0, y: 0 })
    }
    fn keys_held(&mut self) -> Result<bool, InputError> {
        Ok(false)
    }
    fn user_activity(&mut self) -> Result<Option<String>, InputError> {
        Ok(None)
    }
}
