//! A headless Wayland desktop for end-to-end tests: a private D-Bus session
//! (`dbus-run-session`), then either PipeWire, WirePlumber and `mutter --headless
//! --wayland --no-x11 --virtual-monitor 1280x1024` (or the same with `gnome-shell`, see
//! [`start_shell`]), or headless sway with its Xwayland ([`start_sway`]); and GNOME
//! Sudoku on that compositor, as a Wayland client or an X11 one under Xwayland.
//!
//! Every process runs in its own process group, killed when the [`WaylandDesktop`] is
//! dropped. Screenshots come from the compositor itself (Mutter's ScreenCast through
//! the library's [`sudoku_bot::wayland`] stream; `grim`, wlroots' screencopy, under
//! sway), so the test judges the game by what is on the screen.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use image::RgbaImage;

/// The test process reaches each desktop through its environment (PipeWire finds its
/// daemon by XDG_RUNTIME_DIR): one desktop at a time per test binary.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The Wayland socket's name Mutter is given, under the desktop's XDG_RUNTIME_DIR.
const SOCKET: &str = "wl-sudoku";

/// Which compositor the desktop runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Compositor {
    /// Mutter alone: no window list.
    Mutter,
    /// GNOME Shell (Mutter inside) in unsafe mode, so that org.gnome.Shell.Introspect
    /// answers the bot.
    Shell,
    /// sway (wlroots), headless, with Xwayland.
    Sway,
    /// KWin (KDE Plasma), on a virtual framebuffer, with Xwayland.
    Kwin,
}

pub struct WaylandDesktop {
    pub dir: tempfile::TempDir,
    compositor: Compositor,
    bus: String,
    /// The Wayland socket's name.
    socket: String,
    /// Xwayland's display, under sway.
    x_display: Option<String>,
    children: Vec<(String, Child, PathBuf)>,
    _turn: MutexGuard<'static, ()>,
}

/// Starts the desktop with Mutter alone, or `None` (with a loud message) when mutter is
/// not installed and CI is not set. On CI a missing mutter fails the test.
pub fn start() -> Option<WaylandDesktop> {
    start_with(Compositor::Mutter)
}

/// Starts the desktop with GNOME Shell, like [`start`] (`None` when gnome-shell is not
/// installed and CI is not set). GNOME Shell 43 answers org.gnome.Shell.Introspect only
/// to the portals it lists, unless it runs in unsafe mode: it is started with its
/// `--unsafe-mode` option (not in `--help`). It needs a system bus: it is given the
/// session bus as one (no logind or GDM answers there; it carries on without them).
pub fn start_shell() -> Option<WaylandDesktop> {
    start_with(Compositor::Shell)
}

/// Starts headless sway (with Xwayland), like [`start`] (`None` when sway, grim or
/// Xwayland is not installed and CI is not set). sway refuses to run as root: as root,
/// it runs as the user `nobody`, and Xwayland is told to let root's clients in.
pub fn start_sway() -> Option<WaylandDesktop> {
    start_with(Compositor::Sway)
}

/// Starts KWin on a virtual framebuffer (with Xwayland), like [`start`] (`None` when
/// kwin_wayland or Xwayland is not installed and CI is not set). Debian's kwin_wayland
/// carries a file capability a container refuses to exec: a copy without it runs.
/// sudoku-bot (and this test, for its screenshots) are vouched for the way Plasma does
/// it: `.desktop` files whose Exec is their path, with the restricted interfaces.
pub fn start_kwin() -> Option<WaylandDesktop> {
    start_with(Compositor::Kwin)
}

/// [`start_kwin`], with PipeWire, WirePlumber and the xdg-desktop-portal with its KDE
/// backend (xdg-desktop-portal-kde) in the session, `XDG_CURRENT_DESKTOP=KDE`: for
/// measuring the portal route (`cargo bench --bench kde_portal`).
pub fn start_kwin_with_portal() -> Option<WaylandDesktop> {
    PORTAL.with(|p| p.set(true));
    let desk = start_with(Compositor::Kwin);
    PORTAL.with(|p| p.set(false));
    desk
}

thread_local! {
    static PORTAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Where Debian puts xdg-desktop-portal-kde.
const PORTAL_KDE: &str = "/usr/lib/x86_64-linux-gnu/libexec/xdg-desktop-portal-kde";

fn start_with(compositor: Compositor) -> Option<WaylandDesktop> {
    let have = |p: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {p}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let needed: &[&str] = match compositor {
        Compositor::Mutter => &["mutter", "pipewire", "wireplumber", "dbus-run-session"],
        Compositor::Shell => &["gnome-shell", "pipewire", "wireplumber", "dbus-run-session"],
        Compositor::Kwin => &["kwin_wayland", "Xwayland", "dbus-run-session"],
        Compositor::Sway => &[
            "sway",
            "grim",
            "Xwayland",
            "xhost",
            "setpriv",
            "dbus-run-session",
        ],
    };
    let missing: Vec<&str> = needed.iter().copied().filter(|p| !have(p)).collect();
    if !missing.is_empty() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{} not installed, and CI is set: the Wayland end-to-end test must run here (scripts/setup.sh --test)",
            missing.join(", ")
        );
        super::say_skipped(&format!(
            "{} not installed, so the Wayland end-to-end test did not run. Install with scripts/setup.sh --test",
            missing.join(", ")
        ));
        return None;
    }
    Some(WaylandDesktop::new(compositor))
}

impl WaylandDesktop {
    fn new(compositor: Compositor) -> WaylandDesktop {
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().expect("temp dir");
        let run = dir.path().join("run");
        std::fs::create_dir_all(&run).expect("runtime dir");
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        std::fs::create_dir_all(dir.path().join("home/.local/share/gnome-sudoku")).expect("home");
        let mut desk = WaylandDesktop {
            dir,
            compositor,
            bus: String::new(),
            socket: SOCKET.to_string(),
            x_display: None,
            children: Vec::new(),
            _turn: turn,
        };
        desk.start_bus();
        if matches!(compositor, Compositor::Sway | Compositor::Kwin) {
            let portal = PORTAL.with(|p| p.get());
            if compositor == Compositor::Sway {
                desk.start_sway();
            } else {
                if portal {
                    desk.start_pipewire();
                }
                desk.start_kwin();
                if portal {
                    for program in ["/usr/libexec/xdg-desktop-portal", PORTAL_KDE] {
                        let mut command = desk.wayland_command(program);
                        command
                            .env("XDG_CURRENT_DESKTOP", "KDE")
                            .env("QT_QPA_PLATFORM", "wayland");
                        desk.spawn(program.rsplit('/').next().unwrap_or(program), command);
                    }
                }
            }
            std::env::set_var("DBUS_SESSION_BUS_ADDRESS", &desk.bus);
            std::env::set_var("XDG_RUNTIME_DIR", desk.runtime_dir());
            return desk;
        }
        desk.start_pipewire();
        desk.start_compositor();
        // The test reaches this desktop's bus and PipeWire for its screenshots.
        std::env::set_var("DBUS_SESSION_BUS_ADDRESS", &desk.bus);
        std::env::set_var("XDG_RUNTIME_DIR", desk.runtime_dir());
        // The socket comes before Mutter's D-Bus interfaces (a screenshot right after it
        // once failed to start its ScreenCast session).
        desk.wait_until(
            Duration::from_secs(30),
            "Mutter's ScreenCast on the bus",
            |_| {
                let owned = |name: &str| {
                    let bus = zbus::blocking::Connection::session().ok();
                    let dbus = bus.and_then(|b| zbus::blocking::fdo::DBusProxy::new(&b).ok());
                    let name = zbus::names::BusName::try_from(name).ok();
                    dbus.zip(name)
                        .is_some_and(|(d, n)| d.name_has_owner(n).unwrap_or(false))
                };
                owned("org.gnome.Mutter.ScreenCast") && owned("org.gnome.Mutter.RemoteDesktop")
            },
        );
        if compositor == Compositor::Shell {
            desk.wait_until(Duration::from_secs(60), "GNOME Shell's start", |d| {
                d.shell_eval("Main.layoutManager._startingUp === false")
                    .is_some_and(|r| r == "true")
            });
        }
        desk
    }

    /// The session bus.
    fn start_bus(&mut self) {
        // The session bus: dbus-run-session runs a shell that writes its address down
        // and then waits; everything else joins that bus.
        let address_file = self.dir.path().join("bus");
        let mut dbus = Command::new("dbus-run-session");
        dbus.args([
            "--",
            "sh",
            "-c",
            &format!(
                "echo \"$DBUS_SESSION_BUS_ADDRESS\" > {}; exec sleep 100000",
                address_file.display()
            ),
        ]);
        self.spawn("dbus-run-session", dbus);
        self.wait_until(Duration::from_secs(10), "the D-Bus session", |d| {
            d.bus = std::fs::read_to_string(&address_file)
                .unwrap_or_default()
                .trim()
                .to_string();
            !d.bus.is_empty()
        });
    }

    /// PipeWire and WirePlumber on the session bus.
    fn start_pipewire(&mut self) {
        let pipewire = self.command("pipewire");
        self.spawn("pipewire", pipewire);
        self.wait_until(Duration::from_secs(10), "PipeWire's socket", |d| {
            d.runtime_dir().join("pipewire-0").exists()
        });
        let wireplumber = self.command("wireplumber");
        self.spawn("wireplumber", wireplumber);
    }

    /// Mutter, or GNOME Shell in unsafe mode, headless on a 1280x1024 virtual monitor, until its Wayland socket shows.
    fn start_compositor(&mut self) {
        let (name, mut compositor_command) = match self.compositor {
            Compositor::Mutter | Compositor::Sway | Compositor::Kwin => {
                ("mutter", self.command("mutter"))
            }
            Compositor::Shell => {
                let mut shell = self.command("gnome-shell");
                shell
                    .arg("--unsafe-mode")
                    .env("DBUS_SYSTEM_BUS_ADDRESS", &self.bus);
                ("gnome-shell", shell)
            }
        };
        compositor_command.args([
            "--headless",
            "--wayland",
            "--no-x11",
            "--virtual-monitor",
            "1280x1024",
            &format!("--wayland-display={SOCKET}"),
        ]);
        self.spawn(name, compositor_command);
        self.wait_until(
            Duration::from_secs(30),
            "the compositor's Wayland socket",
            |d| d.runtime_dir().join(SOCKET).exists(),
        );
    }

    /// Headless sway with the pixman renderer on a 1280x1024 output, borderless windows,
    /// until its Wayland and IPC sockets show; then its Xwayland's display. As root, sway
    /// runs as `nobody` (it refuses root), and Xwayland lets root's clients in.
    fn start_sway(&mut self) {
        let run = self.runtime_dir();
        let config = self.dir.path().join("sway.conf");
        std::fs::write(
            &config,
            format!(
                "output HEADLESS-1 mode 1280x1024\ndefault_border none\ndefault_floating_border none\nexec sh -c 'echo \"$DISPLAY\" > {}/x-display'\n",
                run.display()
            ),
        )
        .expect("sway config");
        let root = running_as_root();
        if root {
            // nobody reaches the runtime dir through the temp dir, and owns it.
            std::fs::set_permissions(self.dir.path(), std::fs::Permissions::from_mode(0o711))
                .expect("chmod");
            chown_nobody(&run);
        }
        let mut sway = self.as_session_user("sway");
        sway.arg("-c")
            .arg(&config)
            .env("HOME", &run)
            .env("WLR_BACKENDS", "headless")
            .env("WLR_RENDERER", "pixman")
            .env("WLR_LIBINPUT_NO_DEVICES", "1")
            .env("WLR_HEADLESS_OUTPUTS", "1");
        self.spawn("sway", sway);
        self.wait_until(Duration::from_secs(30), "sway's sockets", |d| {
            let names: Vec<String> = std::fs::read_dir(d.runtime_dir())
                .map(|r| {
                    r.filter_map(|e| e.ok()?.file_name().into_string().ok())
                        .collect()
                })
                .unwrap_or_default();
            let wayland = names
                .iter()
                .find(|n| n.starts_with("wayland-") && !n.ends_with(".lock"));
            let ipc = names.iter().any(|n| n.starts_with("sway-ipc."));
            match wayland {
                Some(w) if ipc && d.x_display_file_written() => {
                    d.socket = w.clone();
                    true
                }
                _ => false,
            }
        });
        let display = self.x_display_written("sway");
        if root {
            // Xwayland runs as nobody and lets only nobody in; xhost, a first client,
            // also starts it.
            let mut xhost = self.as_session_user("xhost");
            xhost.arg("+si:localuser:root").env("DISPLAY", &display);
            let out = xhost.output().expect("xhost");
            assert!(
                out.status.success(),
                "xhost: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        self.x_display = Some(display);
    }

    /// KWin on a 1280x1024 virtual framebuffer with Xwayland, from a copy of its binary,
    /// after the `.desktop` files that vouch for sudoku-bot and this test are in place;
    /// until its Wayland socket and its Xwayland's display show.
    fn start_kwin(&mut self) {
        let applications = self.home().join(".local/share/applications");
        std::fs::create_dir_all(&applications).expect("applications folder");
        let template =
            std::fs::read_to_string(super::repository().join("assets/kde/sudoku-bot.desktop"))
                .expect("assets/kde/sudoku-bot.desktop");
        let full = super::bot_executable()
            .with_file_name("sudoku-bot-full")
            .canonicalize()
            .expect("sudoku-bot-full beside sudoku-bot");
        let exec = |path: &Path| {
            template
                .lines()
                .map(|l| {
                    if l.starts_with("Exec=") {
                        format!("Exec={}", path.display())
                    } else {
                        l.to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        std::fs::write(applications.join("sudoku-bot.desktop"), exec(&full)).expect("desktop file");
        let test = std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .expect("the test's path");
        std::fs::write(applications.join("sudoku-bot-test.desktop"), exec(&test))
            .expect("desktop file");
        let kwin = self.dir.path().join("kwin_wayland");
        let installed = Command::new("sh")
            .args(["-c", "command -v kwin_wayland"])
            .output()
            .expect("find kwin_wayland");
        std::fs::copy(String::from_utf8_lossy(&installed.stdout).trim(), &kwin)
            .expect("copy kwin_wayland");
        let run = self.runtime_dir();
        // The program KWin starts in its session (it takes no arguments for it): it
        // writes down Xwayland's display.
        let script = self.dir.path().join("x-display.sh");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho \"$DISPLAY\" > {}/x-display\nexec sleep 100000\n",
                run.display()
            ),
        )
        .expect("script");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let mut command = self.command(&kwin);
        command
            .args([
                "--virtual",
                "--width",
                "1280",
                "--height",
                "1024",
                "--socket",
                SOCKET,
                "--xwayland",
                "--no-lockscreen",
                "--no-global-shortcuts",
            ])
            .arg(&script);
        self.spawn("kwin_wayland", command);
        self.wait_until(Duration::from_secs(60), "KWin's socket and Xwayland", |d| {
            d.runtime_dir().join(SOCKET).exists() && d.x_display_file_written()
        });
        let display = self.x_display_written("KWin");
        self.x_display = Some(display);
        std::env::set_var("DBUS_SESSION_BUS_ADDRESS", &self.bus);
        self.wait_until(
            Duration::from_secs(30),
            "KWin's ScreenShot2 on the bus",
            |_| {
                let bus = zbus::blocking::Connection::session().ok();
                let dbus = bus.and_then(|b| zbus::blocking::fdo::DBusProxy::new(&b).ok());
                let name = zbus::names::BusName::try_from("org.kde.KWin.ScreenShot2").ok();
                dbus.zip(name)
                    .is_some_and(|(d, n)| d.name_has_owner(n).unwrap_or(false))
            },
        );
    }

    /// True once the compositor's first program wrote Xwayland's display down (the file
    /// shows before its line: reading it at once once gave an empty display).
    fn x_display_file_written(&self) -> bool {
        std::fs::read_to_string(self.runtime_dir().join("x-display"))
            .is_ok_and(|d| d.ends_with('\n') && !d.trim().is_empty())
    }

    /// Xwayland's display, as the compositor's first program wrote it down.
    fn x_display_written(&mut self, compositor: &str) -> String {
        let display = std::fs::read_to_string(self.runtime_dir().join("x-display"))
            .unwrap_or_default()
            .trim()
            .to_string();
        assert!(
            !display.is_empty(),
            "{compositor} started no Xwayland{}",
            self.diagnose()
        );
        display
    }

    /// A command run as the desktop's user: `nobody` when the tests run as root.
    fn as_session_user(&self, program: &str) -> Command {
        if !running_as_root() {
            return self.command(program);
        }
        let mut c = self.command("setpriv");
        c.args([
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
            program,
        ]);
        c
    }

    /// sway's IPC socket, under sway.
    pub fn sway_socket(&self) -> Option<PathBuf> {
        std::fs::read_dir(self.runtime_dir())
            .ok()?
            .filter_map(|e| e.ok())
            .find(|e| e.file_name().to_string_lossy().starts_with("sway-ipc."))
            .map(|e| e.path())
    }

    /// Runs JavaScript in GNOME Shell (org.gnome.Shell.Eval, which answers in unsafe
    /// mode only): its JSON result, `None` when the Shell did not answer or it failed.
    pub fn shell_eval(&self, code: &str) -> Option<String> {
        let bus = zbus::blocking::Connection::session().ok()?;
        let reply = bus
            .call_method(
                Some("org.gnome.Shell"),
                "/org/gnome/Shell",
                Some("org.gnome.Shell"),
                "Eval",
                &(code,),
            )
            .ok()?;
        let (ok, result): (bool, String) = reply.body().deserialize().ok()?;
        ok.then_some(result)
    }

    /// The compositor's Wayland socket's name (for `WAYLAND_DISPLAY`).
    pub fn wayland_display(&self) -> String {
        self.socket.clone()
    }

    pub fn runtime_dir(&self) -> PathBuf {
        self.dir.path().join("run")
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// A command in this desktop's session: its bus, runtime dir and HOME, no X11.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        c.env("HOME", self.home())
            .env("XDG_RUNTIME_DIR", self.runtime_dir())
            .env("DBUS_SESSION_BUS_ADDRESS", &self.bus)
            .env("GSETTINGS_BACKEND", "memory")
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("XDG_SESSION_TYPE")
            .env_remove("XDG_CURRENT_DESKTOP");
        c
    }

    /// A command that is a Wayland client of this compositor, as in its Wayland session
    /// (with sway's SWAYSOCK and Xwayland's DISPLAY under sway).
    pub fn wayland_command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = self.command(program);
        c.env("WAYLAND_DISPLAY", &self.socket)
            .env("XDG_SESSION_TYPE", "wayland")
            .env("GDK_BACKEND", "wayland");
        if let Some(sock) = self.sway_socket() {
            c.env("SWAYSOCK", sock);
        }
        if let Some(display) = &self.x_display {
            c.env("DISPLAY", display);
        }
        c
    }

    /// A command that is an X11 client of the compositor's Xwayland.
    pub fn xwayland_command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = self.command(program);
        c.env(
            "DISPLAY",
            self.x_display
                .as_deref()
                .expect("a compositor with Xwayland"),
        )
        .env("GDK_BACKEND", "x11");
        c
    }

    /// Starts a background process in its own process group (killed on drop), its
    /// output in a log file.
    pub fn spawn(&mut self, name: &str, mut command: Command) {
        let log = self
            .dir
            .path()
            .join(format!("{}-{name}.log", self.children.len()));
        let file = std::fs::File::create(&log).expect("log file");
        let child = command
            .stdout(file.try_clone().expect("log"))
            .stderr(file)
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("start {name}: {e}"));
        self.children.push((name.to_string(), child, log));
    }

    /// Which processes still run, with the end of their logs.
    pub fn diagnose(&mut self) -> String {
        let mut out = String::new();
        for (name, child, log) in &mut self.children {
            let state = match child.try_wait() {
                Ok(None) => "running".to_string(),
                Ok(Some(status)) => format!("exited ({status})"),
                Err(e) => format!("unknown ({e})"),
            };
            let text = std::fs::read_to_string(log.as_path()).unwrap_or_default();
            let tail: Vec<&str> = text.lines().rev().take(4).collect();
            out.push_str(&format!("; {name} {state} [{}]", tail.join(" | ")));
        }
        out
    }

    pub fn wait_until(
        &mut self,
        limit: Duration,
        what: &str,
        mut check: impl FnMut(&mut WaylandDesktop) -> bool,
    ) {
        let start = Instant::now();
        while !check(self) {
            if start.elapsed() >= limit {
                panic!(
                    "timed out after {limit:?} waiting for {what}{}",
                    self.diagnose()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// The whole monitor as the compositor shows it now: through a ScreenCast session of
    /// the test's own (no input) under Mutter, `grim` under sway.
    pub fn screenshot(&self) -> RgbaImage {
        use sudoku_bot::wayland::{session_bus, Frames, MutterSession, Target};
        if self.compositor == Compositor::Kwin {
            let bus = session_bus().expect("session bus");
            let screen = sudoku_bot::screen::ScreenRect {
                x: 0,
                y: 0,
                width: 1280,
                height: 1024,
            };
            return sudoku_bot::wayland::kwin::capture_area(&bus, &screen)
                .expect("a screenshot from KWin");
        }
        if self.compositor == Compositor::Sway {
            let out = self
                .wayland_command("grim")
                .args(["-t", "png", "-"])
                .output()
                .expect("run grim");
            assert!(
                out.status.success(),
                "grim: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return image::load_from_memory(&out.stdout)
                .expect("grim's PNG")
                .to_rgba8();
        }
        let bus = session_bus().expect("session bus");
        let session = MutterSession::start(&bus, &Target::PrimaryMonitor, false)
            .expect("a ScreenCast session");
        let frames = Frames::connect(session.node_id).expect("PipeWire stream");
        frames
            .latest(Duration::from_secs(5))
            .expect("a frame from Mutter")
    }

    /// Saves a screenshot as PNG and returns its path.
    pub fn screenshot_to(&self, name: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        self.screenshot().save(&path).expect("save screenshot");
        path
    }

    /// Opens GNOME Sudoku on `puzzle` (81 characters, '.' empty) through a savefile, so
    /// it shows the game at once (no difficulty chooser), and waits until the grid
    /// reads on the screen.
    pub fn start_gnome_sudoku(&mut self, puzzle: &str) {
        self.start_gnome_sudoku_on(puzzle, false);
    }

    /// [`start_gnome_sudoku`](Self::start_gnome_sudoku) as an X11 client of the
    /// compositor's Xwayland.
    pub fn start_gnome_sudoku_under_xwayland(&mut self, puzzle: &str) {
        self.start_gnome_sudoku_on(puzzle, true);
    }

    pub fn start_gnome_sudoku_on(&mut self, puzzle: &str, x11: bool) {
        let cells: Vec<String> = puzzle
            .chars()
            .enumerate()
            .filter_map(|(i, c)| c.to_digit(10).filter(|&d| d > 0).map(|d| (i, d)))
            .map(|(i, d)| {
                format!(
                    "{{\"position\": [{}, {}], \"value\": {d}, \"fixed\": true, \"earmarks\": []}}",
                    i / 9,
                    i % 9
                )
            })
            .collect();
        let save = format!(
            "{{\"difficulty_category\": \"Easy Difficulty\", \"time_elapsed\": 42.0, \"cells\": [{}]}}\n",
            cells.join(", ")
        );
        std::fs::write(self.home().join(".local/share/gnome-sudoku/savefile"), save)
            .expect("savefile");
        let game = if x11 {
            self.xwayland_command("/usr/games/gnome-sudoku")
        } else {
            self.wayland_command("/usr/games/gnome-sudoku")
        };
        self.spawn("gnome-sudoku", game);
        if self.compositor == Compositor::Shell {
            // GNOME Shell starts in its overview (the game would show as a thumbnail)
            // and, as root, with a notification at the top: both are put away.
            self.wait_until(Duration::from_secs(40), "GNOME Sudoku's window", |d| {
                d.shell_eval(
                    "global.get_window_actors().some(a => a.meta_window.title === 'Sudoku')",
                )
                .is_some_and(|r| r == "true")
            });
            self.wait_until(Duration::from_secs(10), "the overview to close", |d| {
                d.shell_eval(
                    "Main.overview.hide(); Main.messageTray.getSources().forEach(s => s.destroy()); Main.overview.visible || Main.overview.animationInProgress",
                )
                .is_some_and(|r| r == "false")
            });
        }
        let expected = puzzle.to_string();
        self.wait_until(Duration::from_secs(40), "GNOME Sudoku's grid", |d| {
            let shot = d.screenshot_to("waiting.png");
            d.read(&shot) == expected
        });
        // Let it finish drawing.
        std::thread::sleep(Duration::from_millis(500));
    }

    /// The words Tesseract reads in a picture (GNOME Sudoku's dialogs, say).
    pub fn words(&self, picture: &Path) -> String {
        let mut engine = leptess::LepTess::new(None, "eng").expect("Tesseract");
        let bytes = std::fs::read(picture).expect("read picture");
        engine
            .set_image_from_mem(&bytes)
            .expect("Tesseract takes the picture");
        engine.get_utf8_text().unwrap_or_default()
    }

    /// The grid `sudoku-bot read` finds in a picture (81 characters), or "".
    pub fn read(&self, picture: &Path) -> String {
        let out = Command::new(super::bot_executable())
            .arg("read")
            .arg(picture)
            .output()
            .expect("run sudoku-bot read");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .to_string()
    }

    /// The game's verdict, on the screen: GNOME Sudoku says "Well done, you completed
    /// the puzzle" only when the board is full and right (waited for up to 10 s); and
    /// the bot's own verdict, with its evidence: exit 0, "solved", quoting the game.
    /// The last screenshot is `NAME.png` in the desktop's folder (and in
    /// `SUDOKU_BOT_E2E_SHOTS`, when set).
    pub fn assert_game_says_solved(&mut self, out: &Output, name: &str) {
        if let Err(why) = self.judge(out, name) {
            panic!("{why}");
        }
    }

    /// [`assert_game_says_solved`](Self::assert_game_says_solved)'s judgement, as a
    /// result: what is wrong, when something is.
    pub fn judge(&mut self, out: &Output, name: &str) -> Result<(), String> {
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let shot = format!("{name}.png");
        let start = Instant::now();
        let mut words = self.words(&self.screenshot_to(&shot));
        let said = |w: &str| w.contains("Well done") && w.contains("completed the puzzle");
        while !said(&words) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(100));
            words = self.words(&self.screenshot_to(&shot));
        }
        if let Ok(dir) = std::env::var("SUDOKU_BOT_E2E_SHOTS") {
            let _ = std::fs::copy(self.dir.path().join(&shot), Path::new(&dir).join(&shot));
        }
        if !said(&words) {
            return Err(format!(
                "GNOME Sudoku's completion dialog did not show in 10 s (the screen reads {words:?}); the bot said: {stderr}"
            ));
        }
        if !(out.status.success()
            && stderr.contains("solved: entered")
            && stderr.contains("Well done"))
        {
            return Err(format!(
                "the bot did not prove the game solved ({}): {stderr}",
                out.status
            ));
        }
        Ok(())
    }

    /// The negative control: a dry run on the game that is open (showing `puzzle`)
    /// prints one move per empty cell and types nothing: the judge then sees no
    /// "Well done" and the puzzle as it was. `what` names the case in messages.
    pub fn assert_dry_run_leaves(&mut self, puzzle: &str, what: &str) {
        let out = self.bot(&["--window", "Sudoku", "--once", "--dry-run"]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "dry run failed ({what}): {stderr}");
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).lines().count(),
            puzzle.matches('.').count(),
            "one move per empty cell ({what})"
        );
        std::thread::sleep(Duration::from_millis(500));
        let path = self.screenshot_to("after-dry-run.png");
        let words = self.words(&path);
        assert!(
            !words.contains("Well done"),
            "the game says solved after a dry run ({what}): {words}"
        );
        assert_eq!(self.read(&path), puzzle, "the grid changed ({what})");
    }

    /// Runs the bot on the game that is open, with `-v`, and checks that it names
    /// `backend` and `found` (how it found the window) and that the game says solved
    /// (the last screenshot `SHOT.png`); prints the time from launch to exit and to the
    /// last keystroke (the benchmark table is `cargo bench --bench desktops`).
    pub fn play_until_solved(&mut self, backend: &str, found: &str, what: &str, shot: &str) {
        let run = self.play_timed(&["-v"]);
        let stderr = String::from_utf8_lossy(&run.out.stderr).into_owned();
        eprintln!("sudoku-bot ({}):\n{stderr}", run.out.status);
        assert!(
            stderr.contains(backend),
            "-v names the backend and why: {stderr}"
        );
        assert!(stderr.contains(found), "{stderr}");
        self.assert_game_says_solved(&run.out, shot);
        eprintln!(
            "GNOME Sudoku Easy {what}: bot launch to exit {} ms; last keystroke {:?} ms after start",
            run.exit.as_millis(),
            run.last_key_ms
        );
    }

    /// One run of the bot on the game that is open (`--window Sudoku --once` and
    /// `extra`), timed: launch to exit as seen from here, and launch to the last
    /// keystroke as the bot logs it (with `-v`).
    pub fn play_timed(&self, extra: &[&str]) -> TimedRun {
        let start = Instant::now();
        let mut args = vec!["--window", "Sudoku", "--once"];
        args.extend_from_slice(extra);
        let out = self.bot(&args);
        let exit = start.elapsed();
        let last_key_ms = String::from_utf8_lossy(&out.stderr).lines().find_map(|l| {
            let after = l.split("last keystroke ").nth(1)?;
            after.split(' ').next()?.parse().ok()
        });
        TimedRun {
            out,
            exit,
            last_key_ms,
        }
    }

    /// Runs sudoku-bot as a program of this Wayland session.
    pub fn bot(&self, args: &[&str]) -> Output {
        self.wayland_command(super::bot_executable())
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("run sudoku-bot")
    }
}

/// A timed run of the bot: [`WaylandDesktop::play_timed`].
pub struct TimedRun {
    pub out: Output,
    /// Launch to exit, as the caller saw it.
    pub exit: Duration,
    /// Launch to the last keystroke, as the bot logged it (`-v`).
    pub last_key_ms: Option<u64>,
}

/// True when the tests run as root.
fn running_as_root() -> bool {
    std::env::var("USER").is_ok_and(|u| u == "root")
        || Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Gives `path` to the user nobody.
fn chown_nobody(path: &Path) {
    let status = Command::new("chown")
        .args(["nobody:nogroup"])
        .arg(path)
        .status()
        .expect("chown");
    assert!(status.success(), "chown nobody {}", path.display());
}

impl Drop for WaylandDesktop {
    fn drop(&mut self) {
        for signal in ["-TERM", "-KILL"] {
            for (_, child, _) in self.children.iter_mut().rev() {
                let _ = Command::new("kill")
                    .args([signal, "--", &format!("-{}", child.id())])
                    .stderr(Stdio::null())
                    .status();
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        for (_, child, _) in &mut self.children {
            let _ = child.wait();
        }
    }
}
