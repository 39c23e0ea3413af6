//! The bot started in the background on a desktop, its stderr read line by line, so a
//! test can act on the desktop once the bot has read the puzzle and is playing.

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::Desktop;

/// A running `sudoku-bot`.
pub struct Playing {
    pub child: Child,
    reader: JoinHandle<String>,
    read_puzzle: mpsc::Receiver<()>,
}

impl Desktop {
    /// Starts `sudoku-bot ARGS -v --config FILE` with `config` (TOML) in FILE.
    pub fn start_bot(&self, args: &[&str], config: &str) -> Playing {
        let path = self.dir.path().join("bot.toml");
        std::fs::write(&path, config).expect("write the configuration");
        let mut child = self
            .command(crate::bot_executable())
            .args(args)
            .args(["-v", "--config"])
            .arg(&path)
            .current_dir(self.dir.path())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the bot");
        let (tx, read_puzzle) = mpsc::channel();
        let lines = BufReader::new(child.stderr.take().expect("stderr"));
        let reader = std::thread::spawn(move || {
            let mut all = String::new();
            for line in lines.lines().map_while(Result::ok) {
                if line.contains("cells to fill") {
                    let _ = tx.send(());
                }
                all.push_str(&line);
                all.push('\n');
            }
            all
        });
        Playing {
            child,
            reader,
            read_puzzle,
        }
    }
}

impl Playing {
    /// True once the bot has read a puzzle and starts playing it (within `limit`).
    pub fn read_puzzle(&self, limit: Duration) -> bool {
        self.read_puzzle.recv_timeout(limit).is_ok()
    }

    /// Whether the bot has exited, and how.
    pub fn exited(&mut self) -> Option<Option<i32>> {
        self.child.try_wait().expect("bot status").map(|s| s.code())
    }

    /// Waits for the bot to exit (killed after `limit`); its exit code and stderr.
    pub fn finish(mut self, limit: Duration) -> (Option<i32>, String) {
        let start = Instant::now();
        let code = loop {
            if let Some(code) = self.exited() {
                break code;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                break self.child.wait().expect("bot exit").code();
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        (code, self.reader.join().expect("stderr reader"))
    }
}
