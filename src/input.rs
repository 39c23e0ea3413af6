//! Synthetic input: the small trait the bot plays through, and the real device behind it
//! (enigo over X11 XTest). The same device watches for the user taking over: the pointer
//! leaving the spot where the bot put it, or a key held down.

use enigo::{Button, Coordinate, Direction, Enigo, Keyboard, Mouse, Settings};
use x11rb::connection::Connection;
use x11rb::protocol::xproto::{ConnectionExt, Window};
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
}

/// Why input could not be sent or observed.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("cannot open the input device: {0}")]
    Open(String),
    #[error("sending input failed: {0}")]
    Send(String),
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
}

/// The real device: enigo's x11rb backend sends XTest events; a second X11 connection
/// asks where the pointer is and which keys are down.
pub struct EnigoInput {
    enigo: Enigo,
    x11: RustConnection,
    root: Window,
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
        Ok(EnigoInput { enigo, x11, root })
    }
}

impl Input for EnigoInput {
    fn click(&mut self, at: ScreenPoint) -> Result<(), InputError> {
        self.enigo
            .move_mouse(at.x, at.y, Coordinate::Abs)
            .map_err(|e| InputError::Send(e.to_string()))?;
        self.enigo
            .button(Button::Left, Direction::Click)
            .map_err(|e| InputError::Send(e.to_string()))
    }

    fn key(&mut self, key: Key) -> Result<(), InputError> {
        let key = match key {
            Key::Digit(d) if (1..=9).contains(&d) => enigo::Key::Unicode((b'0' + d) as char),
            Key::Digit(d) => return Err(InputError::Send(format!("{d} is not a sudoku digit"))),
            Key::Up => enigo::Key::UpArrow,
            Key::Down => enigo::Key::DownArrow,
            Key::Left => enigo::Key::LeftArrow,
            Key::Right => enigo::Key::RightArrow,
        };
        self.enigo
            .key(key, Direction::Click)
            .map_err(|e| InputError::Send(e.to_string()))
    }

    fn pointer(&mut self) -> Result<ScreenPoint, InputError> {
        let reply = self
            .x11
            .query_pointer(self.root)
            .map_err(|e| InputError::Query(e.to_string()))?
            .reply()
            .map_err(|e| InputError::Query(e.to_string()))?;
        Ok(ScreenPoint {
            x: reply.root_x as i32,
            y: reply.root_y as i32,
        })
    }

    fn keys_held(&mut self) -> Result<bool, InputError> {
        let reply = self
            .x11
            .query_keymap()
            .map_err(|e| InputError::Query(e.to_string()))?
            .reply()
            .map_err(|e| InputError::Query(e.to_string()))?;
        Ok(reply.keys.iter().any(|&b| b != 0))
    }
}

/// The device of a dry run: the bot never sends input then; this one refuses to, so a
/// mistake cannot click anything.
pub struct NoInput;

impl Input for NoInput {
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
}
