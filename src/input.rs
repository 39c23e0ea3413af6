//! Synthetic input: the small trait the bot plays through. The real device on X11
//! ([`X11Input`](crate::screen::X11Input)) sends XTest events only after checking,
//! while it holds the X server, that they can reach nothing but the game; it also
//! watches for the user taking over: every key press, button press and pointer motion
//! the X server sees (XInput2 raw events), told apart from the bot's own.

use crate::window::WindowInfo;

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

impl Key {
    /// Its X keysym (X11/keysymdef.h), which X11 and the Wayland compositors both take.
    pub fn keysym(self) -> Result<u32, InputError> {
        Ok(match self {
            Key::Digit(d) if (1..=9).contains(&d) => 0x30 + d as u32,
            Key::Digit(d) => return Err(InputError::Send(format!("{d} is not a sudoku digit"))),
            Key::Up => 0xff52,
            Key::Down => 0xff54,
            Key::Left => 0xff51,
            Key::Right => 0xff53,
            Key::Delete => 0xffff,
            Key::Backspace => 0xff08,
            Key::Escape => 0xff1b,
        })
    }
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
    /// Input sent now could reach another program (a grab, the focus, a window over
    /// the point): nothing was sent.
    #[error("stopped: {0}")]
    Unsafe(String),
    /// Input sent now would reach no program: the game is not on the screen, or no
    /// window has the keyboard focus. Nothing was sent; play may go on once the game
    /// is back (a pause, not a stop).
    #[error("nothing sent: {0}")]
    Unreachable(String),
    /// Input the bot did not send arrived.
    #[error("stopped: {0} while the bot was playing (the user took over)")]
    Interfered(String),
}

/// The device the bot plays through. Tests use a recording implementation.
pub trait Input {
    /// The window input may go to from now on (`None`: none). A device that checks
    /// where its input lands refuses to send anywhere else.
    fn aim(&mut self, _game: Option<&WindowInfo>) {}
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
    fn aim(&mut self, game: Option<&WindowInfo>) {
        (**self).aim(game)
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keysyms_are_the_x_ones() {
        assert_eq!(Key::Digit(1).keysym().unwrap(), 0x31);
        assert_eq!(Key::Digit(9).keysym().unwrap(), 0x39);
        assert_eq!(Key::Escape.keysym().unwrap(), 0xff1b);
        assert!(Key::Digit(0).keysym().is_err());
    }
}
