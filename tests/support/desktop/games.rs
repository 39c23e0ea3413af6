//! The real games on the virtual desktop: GNOME Sudoku (past its difficulty chooser)
//! and the web game in Chromium, one browser start at a time.

use super::*;

impl Desktop {
    /// Starts GNOME Sudoku 43 (in its own D-Bus session), picks Easy in its "Select
    /// Difficulty" window (Easy is the highlighted row: Return picks it), and waits for
    /// the game window "Sudoku". Returns its window id.
    pub fn start_gnome_sudoku_easy(&mut self) -> String {
        let mut game = self.command("dbus-run-session");
        game.args(["--", "/usr/games/gnome-sudoku"]);
        self.spawn(game);
        let mut chooser = Vec::new();
        self.wait_until(
            Duration::from_secs(30),
            "GNOME Sudoku's Select Difficulty window",
            |d| {
                chooser = d.find_windows("^Select Difficulty$");
                !chooser.is_empty()
            },
        );
        let id = chooser[0].clone();
        let start = Instant::now();
        let mut tries = 0;
        let window = loop {
            let mut window = self.find_windows("^Sudoku$");
            window.retain(|w| self.is_managed(w));
            if let Some(w) = window.into_iter().next() {
                break w;
            }
            if start.elapsed() > Duration::from_secs(40) {
                let ids = String::from_utf8_lossy(
                    &self.run("xdotool", &["search", "--name", "."]).stdout,
                )
                .to_string();
                let names: Vec<String> = ids
                    .lines()
                    .map(|w| self.window_title(w))
                    .filter(|t| !t.is_empty())
                    .collect();
                let state = self.diagnose();
                panic!("GNOME Sudoku's game window did not open after {tries} tries; windows: {names:?}; {state}");
            }
            // Easy is the highlighted first row of the chooser: Return picks it once the
            // window has the focus; a click on the row works too (window pixels).
            tries += 1;
            self.run("xdotool", &["windowactivate", &id]);
            std::thread::sleep(Duration::from_millis(100));
            if tries % 2 == 1 {
                self.run("xdotool", &["key", "Return"]);
            } else {
                self.run(
                    "xdotool",
                    &["mousemove", "--window", &id, "370", "205", "click", "1"],
                );
            }
            std::thread::sleep(Duration::from_millis(300));
        };
        // Let it draw the puzzle.
        std::thread::sleep(Duration::from_millis(700));
        window
    }

    /// Starts our web game in Chromium's app mode; returns the window id of "Web Sudoku".
    pub fn start_web_sudoku(&mut self, query: &str, width: u32, height: u32) -> String {
        // Chromium now and then fails to open its window when the machine is busy; a
        // second start with a fresh profile has always worked.
        const ATTEMPTS: usize = 2;
        for attempt in 1..=ATTEMPTS {
            if let Some(window) = self.try_start_web_sudoku(query, width, height) {
                std::thread::sleep(Duration::from_millis(1000));
                return window;
            }
            eprintln!("Chromium attempt {attempt} of {ATTEMPTS} opened no \"Web Sudoku\" window");
        }
        panic!("Chromium did not open a \"Web Sudoku\" window in {ATTEMPTS} attempts");
    }

    fn try_start_web_sudoku(&mut self, query: &str, width: u32, height: u32) -> Option<String> {
        let page = crate::repository().join("games/web/sudoku.html");
        let profile = self
            .dir
            .path()
            .join(format!("chromium-{}", self.children.len()));
        let mut browser = self.command("chromium");
        browser.args([
            "--no-sandbox",
            "--test-type",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--password-store=basic",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--window-size={width},{height}"),
            "--window-position=0,0",
            &format!("--app=file://{}?{query}", page.display()),
        ]);
        let log = self.spawn(browser);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(45) {
            // "Web Sudoku", or with a score: "Web Sudoku - Playing, mistakes 0".
            let mut window = self.find_windows("^Web Sudoku( - .*)?$");
            window.retain(|w| self.is_managed(w));
            if let Some(w) = window.into_iter().next() {
                return Some(w);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        eprintln!(
            "Chromium's last words:\n{}",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
        let titles = self.run("xdotool", &["search", "--name", "."]);
        let ids = String::from_utf8_lossy(&titles.stdout).to_string();
        let names: Vec<String> = ids
            .lines()
            .map(|id| self.window_title(id))
            .filter(|t| !t.is_empty())
            .collect();
        eprintln!("windows with a title: {names:?}");
        self.kill_newest();
        None
    }
}

/// Waits for this test's turn with a browser.
pub fn browser_turn() -> std::sync::MutexGuard<'static, ()> {
    ONE_BROWSER
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}
