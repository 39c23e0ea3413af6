//! Which program made a window: its application class and its executable, found from
//! the process of the X client that made it (X-Resource asks the server, which knows
//! it from the socket; `_NET_WM_PID` is what the window says of itself, and any
//! program can say anything). The watch pins the game by it, so that another
//! program's window with the game's title is not taken for the game.

use std::path::PathBuf;

use super::x11::X11;
use super::WindowInfo;

/// The program behind a window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The class part of WM_CLASS, e.g. "Gnome-sudoku".
    pub app_name: String,
    /// `/proc/PID/exe` of the client's process, when the process is local and readable.
    pub exe: Option<PathBuf>,
}

impl Program {
    /// The program behind `window` (an X11 window).
    pub fn of(window: &WindowInfo) -> Program {
        // Only the server's word: a remote client's `_NET_WM_PID` names no process here.
        let pid = X11::connect()
            .ok()
            .and_then(|x11| x11.client_pid(window.id));
        Program {
            app_name: window.app_name.clone(),
            exe: pid.and_then(|pid| std::fs::read_link(format!("/proc/{pid}/exe")).ok()),
        }
    }

    /// True when `other` may be the same program started again: the same class, and
    /// the same executable when both are known.
    pub fn same(&self, other: &Program) -> bool {
        self.app_name == other.app_name
            && match (&self.exe, &other.exe) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
    }
}

impl std::fmt::Display for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let class = if self.app_name.is_empty() {
            "no application class"
        } else {
            &self.app_name
        };
        match &self.exe {
            Some(exe) => write!(f, "{class}, {}", exe.display()),
            None => write!(f, "{class}, executable unknown"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(app: &str, exe: Option<&str>) -> Program {
        Program {
            app_name: app.into(),
            exe: exe.map(PathBuf::from),
        }
    }

    #[test]
    fn the_same_class_and_executable_is_the_same_program_and_nothing_else_is() {
        let game = program("Gnome-sudoku", Some("/usr/games/gnome-sudoku"));
        assert!(game.same(&program("Gnome-sudoku", Some("/usr/games/gnome-sudoku"))));
        assert!(game.same(&program("Gnome-sudoku", None)));
        // A script that names its window class after the game is still python.
        assert!(!game.same(&program("Gnome-sudoku", Some("/usr/bin/python3.11"))));
        assert!(!game.same(&program("Eog", Some("/usr/games/gnome-sudoku"))));
    }
}
