//! A headless GNOME Wayland desktop for end-to-end tests: a private D-Bus session
//! (`dbus-run-session`), PipeWire and WirePlumber, `mutter --headless --wayland --no-x11
//! --virtual-monitor 1280x1024` (or the same with `gnome-shell`, see [`start_shell`]),
//! and GNOME Sudoku on that compositor's Wayland socket.
//!
//! Every process runs in its own process group, killed when the [`WaylandDesktop`] is
//! dropped. Screenshots come from Mutter's own ScreenCast (the library's
//! [`sudoku_bot::wayland`] stream), so the test judges the game by what is on the screen.

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

/// The Wayland socket's name, under the desktop's XDG_RUNTIME_DIR.
const SOCKET: &str = "wl-sudoku";

/// Which compositor the desktop runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Compositor {
    /// Mutter alone: no window list.
    Mutter,
    /// GNOME Shell (Mutter inside) in unsafe mode, so that org.gnome.Shell.Introspect
    /// answers the bot.
    Shell,
}

pub struct WaylandDesktop {
    pub dir: tempfile::TempDir,
    compositor: Compositor,
    bus: String,
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

fn start_with(compositor: Compositor) -> Option<WaylandDesktop> {
    let have = |p: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {p}")])
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    let program = match compositor {
        Compositor::Mutter => "mutter",
        Compositor::Shell => "gnome-shell",
    };
    let missing: Vec<&str> = [program, "pipewire", "wireplumber", "dbus-run-session"]
        .into_iter()
        .filter(|p| !have(p))
        .collect();
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
            children: Vec::new(),
            _turn: turn,
        };
        desk.start_bus_and_pipewire();
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

    /// The session bus, then PipeWire and WirePlumber on it.
    fn start_bus_and_pipewire(&mut self) {
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
            Compositor::Mutter => ("mutter", self.command("mutter")),
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

    /// A command that is a Wayland client of this Mutter, as in a GNOME Wayland session.
    pub fn wayland_command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = self.command(program);
        c.env("WAYLAND_DISPLAY", SOCKET)
            .env("XDG_SESSION_TYPE", "wayland")
            .env("GDK_BACKEND", "wayland");
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

    /// The whole monitor as Mutter shows it now, through a ScreenCast session of the
    /// test's own (no input).
    pub fn screenshot(&self) -> RgbaImage {
        use sudoku_bot::wayland::{session_bus, Frames, MutterSession, Target};
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
        let game = self.wayland_command("/usr/games/gnome-sudoku");
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

    /// Runs sudoku-bot as a program of this Wayland session.
    pub fn bot(&self, args: &[&str]) -> Output {
        self.wayland_command(super::bot_executable())
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("run sudoku-bot")
    }
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
