//! A virtual desktop for end-to-end tests: Xvfb on a display it picks itself, openbox
//! (xcap lists windows only under a window manager), and real games in it.
//!
//! Every process is started in its own process group and the whole group is killed when
//! the [`Desktop`] is dropped, also when a test fails half way.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod games;
mod playing;
pub use games::browser_turn;
pub use playing::Playing;

/// Starts Xvfb on a free display number from a high range (400-899), so that it does not
/// take the low numbers other tools and people start their servers on by habit. Returns
/// the server and its display name, `:N`.
fn start_xvfb() -> (Child, String) {
    // Numbers differ between the tests of one process (a counter) and, mostly, between
    // processes (the process id); the lock file settles any remaining race.
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let base = std::process::id() as u64 * 7919;
    for _ in 0..100 {
        let n = 400 + (base + NEXT.fetch_add(1, Ordering::Relaxed)) % 500;
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{n}"));
        if socket.exists() || Path::new(&format!("/tmp/.X{n}-lock")).exists() {
            continue;
        }
        let mut xvfb = Command::new("Xvfb")
            .args([
                &format!(":{n}"),
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start Xvfb");
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(20) {
            if let Ok(Some(_)) = xvfb.try_wait() {
                break; // another server got the number first
            }
            // Ready when a client gets an answer (the socket appears a little earlier),
            // and ours when the lock file names our server: one that lost the race for
            // the number exits, and the server answering is someone else's.
            if socket.exists() && x_answers(&format!(":{n}")) {
                let owner = std::fs::read_to_string(format!("/tmp/.X{n}-lock")).unwrap_or_default();
                if owner.trim().parse::<u32>().ok() == Some(xvfb.id()) {
                    return (xvfb, format!(":{n}"));
                }
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = xvfb.kill();
        let _ = xvfb.wait();
    }
    panic!("could not start Xvfb on any display from :400 to :899");
}

/// True when the X server on `display` answers a request.
fn x_answers(display: &str) -> bool {
    Command::new("xprop")
        .args([
            "-display",
            display,
            "-root",
            "-len",
            "1",
            "_NET_SUPPORTING_WM_CHECK",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A running virtual display with the processes started on it.
pub struct Desktop {
    /// `:N`
    pub display: String,
    children: Vec<Child>,
    /// What each child is, and its log file (for messages when something fails).
    names: Vec<(String, Option<PathBuf>)>,
    /// A writable HOME and scratch folder for the games and the test.
    pub dir: tempfile::TempDir,
}

/// Starts a desktop, or `None` (with a loud message) when Xvfb is not installed. CI
/// installs it, so there (`CI` set) a missing Xvfb fails the test instead.
pub fn start() -> Option<Desktop> {
    if Command::new("Xvfb")
        .arg("-help")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_err()
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "Xvfb is not installed, and CI is set: end-to-end tests must run here (scripts/setup.sh --test)"
        );
        super::say_skipped(
            "Xvfb is not installed, so this end-to-end test did not run. Install it with scripts/setup.sh --test",
        );
        return None;
    }
    Some(Desktop::new())
}

impl Desktop {
    fn new() -> Desktop {
        let dir = tempfile::tempdir().expect("temp dir");
        let (xvfb, display) = start_xvfb();
        let mut desktop = Desktop {
            display,
            children: vec![xvfb],
            names: vec![("Xvfb".into(), None)],
            dir,
        };
        desktop.start_window_manager();
        desktop
    }

    /// Starts openbox and waits until it manages the screen (it announces itself on the
    /// root window). It is started again if it gives up early.
    fn start_window_manager(&mut self) {
        // On a loaded machine openbox now and then exits at once (status 1, nothing
        // logged); a later start has worked.
        for attempt in 0..6 {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(300 * attempt));
            }
            let mut openbox = self.command("openbox");
            // --debug: its log then says why, when it gives up (seen rarely: exit 1).
            openbox.arg("--debug");
            self.spawn(openbox);
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(15) {
                let check = self.run("xprop", &["-root", "_NET_SUPPORTING_WM_CHECK"]);
                if String::from_utf8_lossy(&check.stdout).contains("window id") {
                    self.wait_for_managing();
                    return;
                }
                let alive = self
                    .children
                    .last_mut()
                    .is_some_and(|c| matches!(c.try_wait(), Ok(None)));
                if !alive {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        panic!("openbox did not start: {}", self.diagnose());
    }

    /// Waits until the window manager manages new windows: openbox announces itself
    /// before its start is over, and a window mapped in that moment was now and then
    /// never managed (seen under load). A probe window is mapped (again, each second,
    /// until it is managed), then destroyed and waited out of the client list: the next
    /// window may get its id (the server reuses a closed client's ids).
    fn wait_for_managing(&mut self) {
        use x11rb::connection::Connection;
        use x11rb::protocol::xproto::{ConnectionExt, CreateWindowAux, WindowClass};
        let (conn, screen) = x11rb::connect(Some(&self.display)).expect("connect");
        let root = conn.setup().roots[screen].root;
        let probe = conn.generate_id().expect("id");
        conn.create_window(
            x11rb::COPY_DEPTH_FROM_PARENT,
            probe,
            root,
            0,
            0,
            10,
            10,
            0,
            WindowClass::INPUT_OUTPUT,
            0,
            &CreateWindowAux::new(),
        )
        .expect("probe window");
        let id = probe.to_string();
        let start = Instant::now();
        let mut mapped = Instant::now() - Duration::from_secs(1);
        while !self.is_managed(&id) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "openbox did not manage a window within 30 s: {}",
                self.diagnose()
            );
            if mapped.elapsed() >= Duration::from_secs(1) {
                let _ = conn.unmap_window(probe);
                let _ = conn.map_window(probe);
                let _ = conn.flush();
                mapped = Instant::now();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = conn.destroy_window(probe);
        let _ = conn.flush();
        drop(conn);
        let start = Instant::now();
        while self.is_managed(&id) && start.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A command that runs on this display with HOME in the scratch folder.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut c = Command::new(program);
        c.env("DISPLAY", &self.display)
            .env("HOME", self.home())
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("DBUS_SESSION_BUS_ADDRESS")
            .env("XDG_SESSION_TYPE", "x11");
        c
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// Starts a background process in its own process group (killed on drop). Its
    /// output goes to the returned log file.
    pub fn spawn(&mut self, mut command: Command) -> PathBuf {
        // GNOME Sudoku saves its game under ~/.local/share and complains without it.
        std::fs::create_dir_all(self.home().join(".local/share")).expect("home dir");
        let log = self
            .dir
            .path()
            .join(format!("process-{}.log", self.children.len()));
        let file = std::fs::File::create(&log).expect("log file");
        let child = command
            .stdout(file.try_clone().expect("log file"))
            .stderr(file)
            .process_group(0)
            .spawn()
            .expect("spawn");
        self.children.push(child);
        self.names
            .push((format!("{:?}", command.get_program()), Some(log.clone())));
        log
    }

    /// Ends the newest process started (and its process group): a game closed by
    /// its user.
    pub fn kill_newest(&mut self) {
        self.names.pop();
        if let Some(mut child) = self.children.pop() {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
        }
    }

    /// Kills the X server (a display that dies under its clients).
    pub fn kill_display(&mut self) {
        if let Some(xvfb) = self.children.first_mut() {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", xvfb.id())])
                .status();
            let _ = xvfb.wait();
        }
    }

    /// Which of the desktop's processes still run, with the end of their logs.
    pub fn diagnose(&mut self) -> String {
        let mut out = format!("display {}", self.display);
        for (child, (name, log)) in self.children.iter_mut().zip(&self.names) {
            let state = match child.try_wait() {
                Ok(None) => "running".to_string(),
                Ok(Some(status)) => format!("exited ({status})"),
                Err(e) => format!("unknown ({e})"),
            };
            let tail = log
                .as_ref()
                .and_then(|l| std::fs::read_to_string(l).ok())
                .map(|t| t.lines().rev().take(5).collect::<Vec<_>>().join(" | "))
                .unwrap_or_default();
            out.push_str(&format!("; {name} {state} [{tail}]"));
        }
        out
    }

    /// Runs a command on this display to the end.
    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        self.command(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("run {program}: {e}"))
    }

    /// Polls `check` every 100 ms until it holds; panics after `limit`.
    pub fn wait_until(
        &mut self,
        limit: Duration,
        what: &str,
        mut check: impl FnMut(&Desktop) -> bool,
    ) {
        let start = Instant::now();
        while !check(self) {
            if start.elapsed() >= limit {
                panic!(
                    "timed out after {limit:?} waiting for {what}; {}",
                    self.diagnose()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Ids of the visible windows whose title matches the regular expression.
    pub fn find_windows(&self, title_regex: &str) -> Vec<String> {
        let out = self.run(
            "xdotool",
            &["search", "--onlyvisible", "--name", title_regex],
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect()
    }

    pub fn window_title(&self, id: &str) -> String {
        String::from_utf8_lossy(&self.run("xdotool", &["getwindowname", id]).stdout)
            .trim()
            .to_string()
    }

    /// True when the window manager lists the window (xcap sees only those).
    pub fn is_managed(&self, id: &str) -> bool {
        let Ok(id) = id.parse::<u64>() else {
            return false;
        };
        let list = self.run("xprop", &["-root", "_NET_CLIENT_LIST"]);
        String::from_utf8_lossy(&list.stdout)
            .split(['#', ','])
            .skip(1)
            .any(|w| u64::from_str_radix(w.trim().trim_start_matches("0x"), 16).ok() == Some(id))
    }

    /// A window's client area on the screen: x, y, width, height.
    pub fn geometry(&self, id: &str) -> (i32, i32, i32, i32) {
        let out = self.run("xdotool", &["getwindowgeometry", "--shell", id]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let value = |key: &str| -> i32 {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("{key}=")))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or_else(|| panic!("no {key} in xdotool's answer: {text}"))
        };
        (value("X"), value("Y"), value("WIDTH"), value("HEIGHT"))
    }

    /// A PNG of the whole screen.
    pub fn screenshot(&self, path: &Path) {
        let out = self.run(
            "import",
            &["-window", "root", path.to_str().expect("utf-8 path")],
        );
        assert!(
            out.status.success(),
            "screenshot failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A PNG of one window's client area.
    pub fn window_shot(&self, id: &str, path: &Path) {
        let out = self.run(
            "import",
            &["-window", id, path.to_str().expect("utf-8 path")],
        );
        assert!(
            out.status.success(),
            "window screenshot failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs `sudoku-bot --window TITLE --once -v` with `config` (TOML) as its
    /// configuration file.
    pub fn bot_once(&self, title: &str, config: &str) -> Output {
        let path = self.dir.path().join("bot-once.toml");
        std::fs::write(&path, config).expect("write the configuration");
        self.bot(&[
            "--window",
            title,
            "--once",
            "-v",
            "--config",
            path.to_str().expect("utf-8 path"),
        ])
    }

    /// Runs sudoku-bot on this display.
    pub fn bot(&self, args: &[&str]) -> Output {
        self.command(super::bot_executable())
            .args(args)
            .current_dir(self.dir.path())
            .output()
            .expect("run sudoku-bot")
    }

    /// Windows the window manager knows that are transient for (dialogs of) `id`.
    pub fn dialogs_of(&self, id: &str) -> Vec<String> {
        let list = self.run("xprop", &["-root", "_NET_CLIENT_LIST"]);
        let text = String::from_utf8_lossy(&list.stdout).to_string();
        let main: u64 = id.parse().unwrap_or(0);
        text.split(['#', ','])
            .skip(1)
            .filter_map(|w| u64::from_str_radix(w.trim().trim_start_matches("0x"), 16).ok())
            .filter(|&w| {
                let p = self.run("xprop", &["-id", &w.to_string(), "WM_TRANSIENT_FOR"]);
                let s = String::from_utf8_lossy(&p.stdout).to_string();
                s.split("# ")
                    .nth(1)
                    .and_then(|v| u64::from_str_radix(v.trim().trim_start_matches("0x"), 16).ok())
                    == Some(main)
            })
            .map(|w| w.to_string())
            .collect()
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        // Newest first, Xvfb last; each child leads its own process group.
        for child in self.children.iter_mut().rev() {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill")
                .args(["-TERM", "--", &group])
                .stderr(Stdio::null())
                .status();
        }
        std::thread::sleep(Duration::from_millis(200));
        for child in self.children.iter_mut().rev() {
            let group = format!("-{}", child.id());
            let _ = Command::new("kill")
                .args(["-KILL", "--", &group])
                .stderr(Stdio::null())
                .status();
            let _ = child.wait();
        }
    }
}

/// One Chromium at a time in a test binary: several browsers starting at once on a
/// 2-core machine take longer than any sensible wait.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());
