//! Which desktop the bot plays on: X11 (any X server, XWayland windows included) or GNOME
//! on Wayland (Mutter's ScreenCast and RemoteDesktop). Chosen at start from `--backend`,
//! else the configuration's `backend`, else the session (`XDG_SESSION_TYPE`,
//! `WAYLAND_DISPLAY`, `XDG_CURRENT_DESKTOP`).

use std::time::{Duration, Instant};

use serde::Deserialize;
use tracing::info;

use crate::input::{EnigoInput, Input, NoInput};
use crate::screen::{self, MatchKind, Screen, ScreenError, WindowInfo, X11Screen};
use crate::Failure;

/// A desktop the bot can play on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
pub enum Backend {
    /// An X server: xcap, x11rb and XTest.
    #[serde(rename = "x11")]
    #[value(name = "x11")]
    X11,
    /// GNOME on Wayland: Mutter's ScreenCast (PipeWire) and RemoteDesktop over D-Bus.
    #[serde(rename = "gnome-wayland")]
    #[value(name = "gnome-wayland")]
    GnomeWayland,
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Backend::X11 => "x11",
            Backend::GnomeWayland => "gnome-wayland",
        })
    }
}

/// The backend to use and why: the flag wins over the configuration, which wins over
/// the session. `env` reads an environment variable (a parameter, for the tests).
/// A Wayland session of another desktop (KDE, wlroots compositors) is an error naming
/// what is supported.
pub fn choose(
    flag: Option<Backend>,
    config: Option<Backend>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Backend, &'static str), Failure> {
    if let Some(b) = flag {
        return Ok((b, "--backend"));
    }
    if let Some(b) = config {
        return Ok((b, "the configuration's backend key"));
    }
    let set = |name: &str| env(name).filter(|v| !v.is_empty());
    let wayland = set("XDG_SESSION_TYPE").is_some_and(|t| t.eq_ignore_ascii_case("wayland"))
        || (set("WAYLAND_DISPLAY").is_some()
            && !set("XDG_SESSION_TYPE").is_some_and(|t| t.eq_ignore_ascii_case("x11")));
    if !wayland {
        return Ok((Backend::X11, "the session is X11"));
    }
    let desktop = set("XDG_CURRENT_DESKTOP").unwrap_or_default();
    // "GNOME", "ubuntu:GNOME", "GNOME-Classic:GNOME"; empty under a bare Mutter.
    if desktop.is_empty() || desktop.to_ascii_uppercase().contains("GNOME") {
        return Ok((Backend::GnomeWayland, "the session is GNOME on Wayland"));
    }
    Err(Failure(format!(
        "this is a {desktop} Wayland session, and sudoku-bot plays only on X11 and on GNOME's Wayland (Mutter) so far: log into GNOME or an X11 session, or give --backend x11 to play an XWayland game"
    )))
}

/// The game's window and the input device, whichever the backend.
pub struct Opened {
    pub screen: Box<dyn Screen>,
    pub input: Box<dyn Input>,
    /// The window's title (for messages).
    pub title: String,
}

/// Finds the window `wanted` on `backend`'s desktop and opens it with an input device
/// (one that refuses everything for a dry run). `x11_event_delay` is enigo's delay.
pub fn open(
    backend: Backend,
    wanted: &str,
    dry_run: bool,
    x11_event_delay: u32,
) -> anyhow::Result<Opened> {
    match backend {
        Backend::X11 => {
            let (window, kind) = find_window(wanted)?;
            info!("playing window {} (matched by {kind})", window.describe());
            let screen = X11Screen::open(&window)?;
            let input: Box<dyn Input> = if dry_run {
                Box::new(NoInput)
            } else {
                Box::new(EnigoInput::open(x11_event_delay)?)
            };
            Ok(Opened {
                screen: Box::new(screen),
                input,
                title: window.title,
            })
        }
        Backend::GnomeWayland => {
            let opened = crate::wayland::open(wanted, dry_run)?;
            info!("playing {}", opened.found);
            let input: Box<dyn Input> = match opened.input {
                Some(input) => Box::new(input),
                None => Box::new(NoInput),
            };
            Ok(Opened {
                screen: Box::new(opened.screen),
                input,
                title: opened.title,
            })
        }
    }
}

/// Finds the X11 window to play. A window that is just opening may not be listed yet,
/// so a window that matches nothing is looked for again for a moment before giving up.
fn find_window(wanted: &str) -> anyhow::Result<(WindowInfo, MatchKind)> {
    const PATIENCE: Duration = Duration::from_millis(1500);
    let start = Instant::now();
    loop {
        let windows = screen::list_windows()?;
        match screen::choose_window(&windows, wanted) {
            Ok((window, kind)) => return Ok((window.clone(), kind)),
            Err(ScreenError::NoMatch { .. }) if start.elapsed() < PATIENCE => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            vars.iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn x11_session_or_none_gives_x11() {
        let (b, _) = choose(None, None, session(&[("DISPLAY", ":0")])).unwrap();
        assert_eq!(b, Backend::X11);
        let (b, _) = choose(
            None,
            None,
            session(&[
                ("XDG_SESSION_TYPE", "x11"),
                ("WAYLAND_DISPLAY", "wayland-0"),
            ]),
        )
        .unwrap();
        assert_eq!(b, Backend::X11);
    }

    #[test]
    fn gnome_wayland_sessions_give_gnome_wayland() {
        for desktop in ["GNOME", "ubuntu:GNOME", ""] {
            let (b, _) = choose(
                None,
                None,
                session(&[
                    ("XDG_SESSION_TYPE", "wayland"),
                    ("XDG_CURRENT_DESKTOP", desktop),
                    ("DISPLAY", ":0"),
                ]),
            )
            .unwrap();
            assert_eq!(b, Backend::GnomeWayland, "{desktop}");
        }
        // A bare Mutter: only WAYLAND_DISPLAY says so.
        let (b, _) = choose(None, None, session(&[("WAYLAND_DISPLAY", "wl-0")])).unwrap();
        assert_eq!(b, Backend::GnomeWayland);
    }

    #[test]
    fn other_wayland_desktops_get_one_line_naming_what_works() {
        for desktop in ["KDE", "sway", "Hyprland"] {
            let e = choose(
                None,
                None,
                session(&[
                    ("XDG_SESSION_TYPE", "wayland"),
                    ("XDG_CURRENT_DESKTOP", desktop),
                ]),
            )
            .unwrap_err()
            .to_string();
            assert!(
                e.contains(desktop) && e.contains("X11") && e.contains("GNOME"),
                "{e}"
            );
            assert_eq!(e.lines().count(), 1);
        }
    }

    #[test]
    fn flag_beats_config_beats_session() {
        let kde = [
            ("XDG_SESSION_TYPE", "wayland"),
            ("XDG_CURRENT_DESKTOP", "KDE"),
        ];
        let (b, why) = choose(
            Some(Backend::X11),
            Some(Backend::GnomeWayland),
            session(&kde),
        )
        .unwrap();
        assert_eq!((b, why), (Backend::X11, "--backend"));
        let (b, _) = choose(None, Some(Backend::GnomeWayland), session(&[])).unwrap();
        assert_eq!(b, Backend::GnomeWayland);
    }
}
