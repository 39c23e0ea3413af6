//! Which desktop the bot plays on: X11 (any X server, XWayland windows included), GNOME
//! on Wayland (Mutter's ScreenCast and RemoteDesktop), a wlroots compositor such as sway
//! (screencopy, virtual pointer and keyboard), or KDE Plasma (KWin). Chosen at start
//! from `--backend`, else the configuration's `backend`, else by what the session has:
//! a Wayland session (`XDG_SESSION_TYPE`, `WAYLAND_DISPLAY`), then sway's IPC socket
//! (`SWAYSOCK`), Mutter or KWin on the session bus, the wlroots globals on the Wayland
//! display, and last `XDG_CURRENT_DESKTOP`.

use std::time::{Duration, Instant};

use serde::Deserialize;
use tracing::info;

use crate::input::{Input, NoInput};
use crate::screen::{self, MatchKind, Screen, ScreenError, WindowInfo, X11Input, X11Screen};
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
    /// A wlroots compositor (sway and the like): screencopy, virtual pointer and
    /// keyboard; the window list from sway's IPC.
    #[serde(rename = "wlroots")]
    #[value(name = "wlroots")]
    Wlroots,
    /// KDE Plasma on Wayland: KWin's ScreenShot2 over D-Bus and its fake input.
    #[serde(rename = "kwin")]
    #[value(name = "kwin")]
    Kwin,
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Backend::X11 => "x11",
            Backend::GnomeWayland => "gnome-wayland",
            Backend::Wlroots => "wlroots",
            Backend::Kwin => "kwin",
        })
    }
}

/// What a Wayland session has, asked only when the bot needs to know.
pub trait Probe {
    /// True when `name` has an owner on the session bus.
    fn on_bus(&self, name: &str) -> bool;
    /// True when the Wayland display offers every global of `names`.
    fn globals(&self, names: &[&str]) -> bool;
    /// True when the socket `SWAYSOCK` names is there.
    fn sway_socket(&self) -> bool;
}

/// The live session: the session bus, the Wayland display, the file system.
pub struct LiveSession;

impl Probe for LiveSession {
    fn on_bus(&self, name: &str) -> bool {
        crate::wayland::session_bus().is_ok_and(|bus| crate::wayland::has_owner(&bus, name))
    }
    fn globals(&self, names: &[&str]) -> bool {
        crate::wayland::offers(names)
    }
    fn sway_socket(&self) -> bool {
        crate::wayland::wlroots::sway_socket().is_some()
    }
}

/// The backend to use and why: the flag wins over the configuration, which wins over
/// the session. `env` reads an environment variable (a parameter, for the tests).
pub fn choose(
    flag: Option<Backend>,
    config: Option<Backend>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(Backend, &'static str), Failure> {
    choose_in(flag, config, env, &LiveSession)
}

/// [`choose`], with what the session has asked through `probe`. In a Wayland session:
/// sway's socket, then Mutter or KWin on the session bus, then the wlroots globals,
/// then `XDG_CURRENT_DESKTOP`; a desktop none of these names is an error naming what
/// is supported.
pub fn choose_in(
    flag: Option<Backend>,
    config: Option<Backend>,
    env: impl Fn(&str) -> Option<String>,
    probe: &dyn Probe,
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
    if set("SWAYSOCK").is_some() && probe.sway_socket() {
        return Ok((Backend::Wlroots, "sway's IPC socket (SWAYSOCK) is there"));
    }
    if probe.on_bus("org.gnome.Mutter.ScreenCast") {
        return Ok((Backend::GnomeWayland, "Mutter is on the session bus"));
    }
    if probe.on_bus("org.kde.KWin") {
        return Ok((Backend::Kwin, "KWin is on the session bus"));
    }
    if probe.globals(&crate::wayland::wlroots::GLOBALS) {
        return Ok((
            Backend::Wlroots,
            "the compositor offers wlroots' screencopy and virtual input",
        ));
    }
    let desktop = set("XDG_CURRENT_DESKTOP").unwrap_or_default();
    let upper = desktop.to_ascii_uppercase();
    // "GNOME", "ubuntu:GNOME", "GNOME-Classic:GNOME"; empty under a bare Mutter.
    if desktop.is_empty() || upper.contains("GNOME") {
        return Ok((Backend::GnomeWayland, "the session is GNOME on Wayland"));
    }
    if upper.split(':').any(|d| d == "KDE") {
        return Ok((Backend::Kwin, "the session is KDE Plasma on Wayland"));
    }
    Err(Failure(format!(
        "this is a {desktop} Wayland session whose compositor is neither Mutter, KWin nor a wlroots one (no screencopy and virtual input), and sudoku-bot plays only on those and on X11: give --backend x11 to play an XWayland game"
    )))
}

/// The game's window and the input device, whichever the backend.
pub struct Opened {
    pub screen: Box<dyn Screen>,
    pub input: Box<dyn Input>,
    /// The window's title (for messages).
    pub title: String,
    /// The backend in use: an X11 game under a compositor's Xwayland is played through
    /// the X11 backend.
    pub backend: Backend,
}

/// Finds the window `wanted` on `backend`'s desktop and opens it with an input device
/// (one that refuses everything for a dry run). `x11_event_delay` is enigo's delay.
pub fn open(
    backend: Backend,
    wanted: &str,
    dry_run: bool,
    x11_event_delay: u32,
) -> anyhow::Result<Opened> {
    let backend = match backend {
        Backend::Wlroots | Backend::Kwin if xwayland_game(wanted) => {
            info!("\"{wanted}\" is an X11 window under the compositor's Xwayland: playing it through the X11 backend");
            Backend::X11
        }
        other => other,
    };
    match backend {
        Backend::X11 => {
            let (window, kind) = find_window(wanted)?;
            info!("playing window {} (matched by {kind})", window.describe());
            let screen = X11Screen::open(&window)?;
            let input: Box<dyn Input> = if dry_run {
                Box::new(NoInput)
            } else {
                Box::new(X11Input::open(x11_event_delay)?)
            };
            Ok(Opened {
                screen: Box::new(screen),
                input,
                title: window.title,
                backend,
            })
        }
        Backend::Wlroots => {
            let o = crate::wayland::wlroots::open(wanted, dry_run)?;
            Ok(compositor(o.screen, o.input, o.title, &o.found, backend))
        }
        Backend::Kwin => {
            let o = crate::wayland::kwin::open(wanted, dry_run)?;
            Ok(compositor(o.screen, o.input, o.title, &o.found, backend))
        }
        Backend::GnomeWayland => {
            let o = crate::wayland::open(wanted, dry_run)?;
            Ok(compositor(o.screen, o.input, o.title, &o.found, backend))
        }
    }
}

/// A compositor backend's window and device (one that refuses everything when it has
/// none: a dry run).
fn compositor<S: Screen + 'static, I: Input + 'static>(
    screen: S,
    input: Option<I>,
    title: String,
    found: &str,
    backend: Backend,
) -> Opened {
    info!("playing {found}");
    Opened {
        screen: Box::new(screen),
        input: match input {
            Some(input) => Box::new(input),
            None => Box::new(NoInput),
        },
        title,
        backend,
    }
}

/// Every window `backend` can list, topmost first, with `true` when their places are
/// known (GNOME Shell's list gives sizes only). A desktop without a list is an error
/// saying so.
pub fn list_windows(backend: Backend) -> anyhow::Result<(Vec<WindowInfo>, bool)> {
    let none = |what: &str| {
        Failure(format!("{what}, so sudoku-bot cannot list its windows: the game is found in the picture of the whole screen instead"))
    };
    match backend {
        Backend::X11 => Ok((screen::list_windows()?, true)),
        Backend::GnomeWayland => match crate::wayland::list_windows()? {
            Some(list) => Ok((list, false)),
            None => Err(none("GNOME Shell does not let other programs see its window list (org.gnome.Shell.Introspect is missing or refuses)").into()),
        },
        Backend::Wlroots => match crate::wayland::wlroots::list_windows()? {
            Some(list) => Ok((list, true)),
            None => Err(none("this wlroots compositor is not sway (SWAYSOCK is not set)").into()),
        },
        Backend::Kwin => Ok((crate::wayland::kwin::list_windows()?, true)),
    }
}

/// True when the compositor runs an Xwayland (`DISPLAY` is set) and a window there has
/// exactly the title `wanted`. Such a game is played through the X11 backend: XTest input
/// under a server grab, and the X server's own view of focus, grabs and covers among X
/// clients, which no compositor protocol gives; its dialogs are captured window by
/// window (Xwayland cannot capture the root window). Measured on 2026-11-25: last key
/// 993 ms on KWin and 1286 ms on sway this way, against 3.1 s through the compositors'
/// virtual input (KWin vets each new connection; sway's Xwayland drops keys sent 2 ms
/// apart).
fn xwayland_game(wanted: &str) -> bool {
    std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty())
        && screen::list_windows().is_ok_and(|windows| windows.iter().any(|w| w.title == wanted))
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

    /// A session with these bus names, wlroots globals or not, a sway socket or not.
    #[derive(Default)]
    struct Has {
        bus: &'static [&'static str],
        wlroots: bool,
        sway: bool,
    }

    impl Probe for Has {
        fn on_bus(&self, name: &str) -> bool {
            self.bus.contains(&name)
        }
        fn globals(&self, _: &[&str]) -> bool {
            self.wlroots
        }
        fn sway_socket(&self) -> bool {
            self.sway
        }
    }

    fn pick(vars: &[(&str, &str)], has: &Has) -> Result<Backend, String> {
        choose_in(None, None, session(vars), has)
            .map(|(b, _)| b)
            .map_err(|e| e.to_string())
    }

    const WAYLAND: (&str, &str) = ("XDG_SESSION_TYPE", "wayland");

    #[test]
    fn x11_session_or_none_gives_x11() {
        let everything = Has {
            bus: &["org.kde.KWin"],
            wlroots: true,
            sway: true,
        };
        assert_eq!(pick(&[("DISPLAY", ":0")], &everything), Ok(Backend::X11));
        let x11 = [
            ("XDG_SESSION_TYPE", "x11"),
            ("WAYLAND_DISPLAY", "wayland-0"),
        ];
        assert_eq!(pick(&x11, &everything), Ok(Backend::X11));
    }

    #[test]
    fn the_compositor_is_found_by_what_the_session_has_not_by_its_name() {
        let mutter = Has {
            bus: &["org.gnome.Mutter.ScreenCast"],
            ..Has::default()
        };
        let kwin = Has {
            bus: &["org.kde.KWin"],
            ..Has::default()
        };
        let wlroots = Has {
            wlroots: true,
            ..Has::default()
        };
        // Debian's sway sets no XDG_CURRENT_DESKTOP: its socket says it.
        let sway = Has {
            wlroots: true,
            sway: true,
            ..Has::default()
        };
        let sway_env = [WAYLAND, ("SWAYSOCK", "/run/user/1000/sway-ipc.sock")];
        assert_eq!(pick(&sway_env, &sway), Ok(Backend::Wlroots));
        // A SWAYSOCK left over from another session, with no socket behind it.
        assert_eq!(pick(&sway_env, &mutter), Ok(Backend::GnomeWayland));
        // The desktop's name says one thing, the compositor another: the compositor wins.
        let named_kde = [WAYLAND, ("XDG_CURRENT_DESKTOP", "KDE")];
        assert_eq!(pick(&named_kde, &mutter), Ok(Backend::GnomeWayland));
        assert_eq!(pick(&[WAYLAND], &kwin), Ok(Backend::Kwin));
        let hyprland = [WAYLAND, ("XDG_CURRENT_DESKTOP", "Hyprland")];
        assert_eq!(pick(&hyprland, &wlroots), Ok(Backend::Wlroots));
        // A bare Mutter: only WAYLAND_DISPLAY says it is Wayland.
        assert_eq!(
            pick(&[("WAYLAND_DISPLAY", "wl-0")], &mutter),
            Ok(Backend::GnomeWayland)
        );
    }

    #[test]
    fn with_nothing_to_probe_the_desktop_name_decides() {
        let nothing = Has::default();
        for desktop in ["GNOME", "ubuntu:GNOME", ""] {
            let vars = [WAYLAND, ("XDG_CURRENT_DESKTOP", desktop)];
            assert_eq!(
                pick(&vars, &nothing),
                Ok(Backend::GnomeWayland),
                "{desktop}"
            );
        }
        let kde = [WAYLAND, ("XDG_CURRENT_DESKTOP", "KDE")];
        assert_eq!(pick(&kde, &nothing), Ok(Backend::Kwin));
    }

    #[test]
    fn other_wayland_desktops_get_one_line_naming_what_works() {
        for desktop in ["Hyprland", "weston"] {
            let vars = [WAYLAND, ("XDG_CURRENT_DESKTOP", desktop)];
            let e = pick(&vars, &Has::default()).unwrap_err();
            assert!(
                e.contains(desktop)
                    && e.contains("X11")
                    && e.contains("Mutter")
                    && e.contains("wlroots"),
                "{e}"
            );
            assert_eq!(e.lines().count(), 1);
        }
    }

    #[test]
    fn flag_beats_config_beats_session() {
        let kde = [WAYLAND, ("XDG_CURRENT_DESKTOP", "KDE")];
        let (b, why) = choose_in(
            Some(Backend::X11),
            Some(Backend::GnomeWayland),
            session(&kde),
            &Has::default(),
        )
        .unwrap();
        assert_eq!((b, why), (Backend::X11, "--backend"));
        let (b, _) =
            choose_in(None, Some(Backend::Wlroots), session(&kde), &Has::default()).unwrap();
        assert_eq!(b, Backend::Wlroots);
    }
}
