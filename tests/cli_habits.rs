//! The command line's habits, as a user of ripgrep or fd expects them: global flags
//! anywhere, `--json` that prints only JSON (refusals too), `-` for standard input and
//! output, a quiet end on a closed pipe, exit codes in `--help`, colour only on a
//! terminal, the configuration's precedence, and the man page and completions.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const GNOME_EASY_GRID: &str =
    "2..5...675...721...4.1......7....6.4.1..6..5.8.6....3......5.8...792...148...1..2";
const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
const SOLUTION: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn gnome_easy() -> String {
    root()
        .join("fixtures/screens/gnome-easy-window-61.png")
        .to_string_lossy()
        .into_owned()
}

/// The bot, with no configuration of the user's: HOME and the XDG folders point into
/// `home`, and no `SUDOKU_BOT_CONFIG`, `NO_COLOR` or `RUST_LOG` leaks in.
fn bot_in(home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sudoku-bot"));
    cmd.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_CACHE_HOME", home.join(".cache"))
        .env_remove("SUDOKU_BOT_CONFIG")
        .env_remove("NO_COLOR")
        .env_remove("RUST_LOG")
        .current_dir(home);
    cmd
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().expect("runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// One line on stderr, starting with `sudoku-bot:`, and the exit code.
fn assert_one_sentence(o: &Output, code: i32, words: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("sudoku-bot: "), "{err}");
    assert!(err.contains(words), "says '{words}': {err}");
}

#[test]
fn global_flags_go_before_or_after_the_subcommand() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        vec!["-v", "read", &gnome_easy()],
        vec!["read", &gnome_easy(), "-v"],
        vec!["--quiet", "read", &gnome_easy()],
        vec!["--color", "never", "solve", PUZZLE],
    ] {
        let o = run(bot_in(home.path()).args(&args));
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        let out = text(&o.stdout);
        let first = out.lines().next().unwrap_or("");
        assert!(
            first == GNOME_EASY_GRID || first == SOLUTION,
            "{args:?}: {out}"
        );
    }
}

#[test]
fn watch_flags_with_a_subcommand_and_an_empty_title_are_refused() {
    let home = tempfile::tempdir().unwrap();
    let o = run(bot_in(home.path()).args(["--window", "Sudoku", "read", &gnome_easy()]));
    assert_one_sentence(&o, 2, "--window");
    assert!(o.stdout.is_empty());
    let o = run(bot_in(home.path()).args(["--window", "", "--once"]));
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--window"), "{}", text(&o.stderr));
}

#[test]
fn read_json_prints_only_json_for_a_grid_and_for_a_refusal() {
    let home = tempfile::tempdir().unwrap();
    let o = run(bot_in(home.path()).args(["read", "--json", &gnome_easy()]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("stdout is one JSON document");
    assert_eq!(doc["grid"], GNOME_EASY_GRID);
    assert!(doc.get("error").is_none());

    // A grid whose givens have no solution: refused, exit 1, and still JSON.
    let unsolvable = root().join("fixtures/bad/web-unsolvable.png");
    let o = run(bot_in(home.path())
        .args(["read", "--json"])
        .arg(&unsolvable));
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a refusal is JSON too");
    assert!(
        doc["error"].as_str().unwrap().contains("no solution"),
        "{doc}"
    );
    let doubtful = doc["doubtful"].as_array().expect("the doubtful cells");
    assert!(
        !doubtful.is_empty() && doubtful[0].as_str().unwrap().starts_with('r'),
        "{doc}"
    );
    assert_eq!(doc["grid"].as_str().unwrap().len(), 81);
    assert_eq!(text(&o.stderr).lines().count(), 1, "{}", text(&o.stderr));

    // A missing file: JSON on stdout with the error and its exit code.
    let o = run(bot_in(home.path()).args(["read", "--json", "missing.png"]));
    assert_eq!(o.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("an error is JSON too");
    assert!(
        doc["error"].as_str().unwrap().contains("missing.png"),
        "{doc}"
    );
    assert_eq!(doc["exit_code"], 2);
}

#[test]
fn solve_json_prints_one_object_a_puzzle() {
    let home = tempfile::tempdir().unwrap();
    let o = run(bot_in(home.path()).args(["solve", "--json", PUZZLE, &".".repeat(81), "12"]));
    assert_eq!(o.status.code(), Some(1));
    let docs: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(docs.len(), 3);
    assert_eq!(docs[0]["result"], "solved");
    assert_eq!(docs[0]["solution"], SOLUTION);
    assert_eq!(docs[0]["puzzle"], PUZZLE);
    assert_eq!(docs[1]["result"], "multiple");
    assert_eq!(docs[2]["result"], "invalid");
    assert!(docs[2]["reason"].as_str().unwrap().contains("81"));
}

/// Starts `cmd` with its streams piped, and a thread writing `input` to its stdin.
fn spawn_fed(
    cmd: &mut Command,
    input: Vec<u8>,
) -> (
    std::process::Child,
    std::thread::JoinHandle<std::io::Result<()>>,
) {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || stdin.write_all(&input));
    (child, feeder)
}

#[test]
fn a_dash_reads_the_picture_from_standard_input_and_writes_to_standard_output() {
    let home = tempfile::tempdir().unwrap();
    let png = std::fs::read(gnome_easy()).unwrap();
    let piped = |args: &[&str]| -> Output {
        let (child, feeder) = spawn_fed(bot_in(home.path()).args(args), png.clone());
        let out = child.wait_with_output().unwrap();
        feeder.join().unwrap().unwrap();
        out
    };
    let o = piped(&["read", "-"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), format!("{GNOME_EASY_GRID}\n"));

    let o = piped(&["overlay", "-", "-o", "-"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let drawn = image::load_from_memory(&o.stdout).expect("a PNG on stdout");
    let given = image::load_from_memory(&png).unwrap();
    assert_eq!(
        (drawn.width(), drawn.height()),
        (given.width(), given.height())
    );
    assert_ne!(drawn.to_rgb8(), given.to_rgb8(), "the answer is drawn");

    let o = run(bot_in(home.path()).args(["read", "-"]));
    assert_one_sentence(&o, 2, "standard input is empty");
}

/// `| head -n 1` closes the pipe after one line: the bot ends with 0 and says nothing.
#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    let home = tempfile::tempdir().unwrap();
    let input: String = format!("{PUZZLE}\n").repeat(5000);
    // `-q` makes the front hand `solve` to the full program: both are checked.
    for args in [vec!["solve"], vec!["-q", "solve"], vec!["solve", "--json"]] {
        let (mut child, feeder) = spawn_fed(bot_in(home.path()).args(&args), input.clone().into());
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 10];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let _ = feeder.join().unwrap(); // the bot may stop reading: a closed pipe here
        assert_quiet_success(&args, out);
    }
}

#[test]
fn help_lists_the_exit_codes() {
    let home = tempfile::tempdir().unwrap();
    let o = run(bot_in(home.path()).arg("--help"));
    assert!(o.status.success());
    let help = text(&o.stdout);
    assert!(help.contains("Exit codes:"), "{help}");
    for code in ["0  done", "1  the job could not be done", "2  bad usage"] {
        assert!(help.contains(code), "{code}: {help}");
    }
}

#[test]
fn logs_are_coloured_only_when_asked_on_a_pipe() {
    let home = tempfile::tempdir().unwrap();
    let o = run(bot_in(home.path()).args(["-v", "solve", PUZZLE]));
    assert!(o.status.success());
    let err = text(&o.stderr);
    assert!(err.contains("INFO"), "-v logs: {err}");
    assert!(!err.contains('\u{1b}'), "no escapes into a pipe: {err:?}");
    let o = run(bot_in(home.path()).args(["-v", "--color", "always", "solve", PUZZLE]));
    assert!(text(&o.stderr).contains('\u{1b}'), "--color always colours");
    let o = run(bot_in(home.path())
        .env("NO_COLOR", "1")
        .args(["-v", "--color", "auto", "solve", PUZZLE]));
    assert!(!text(&o.stderr).contains('\u{1b}'));
}

#[test]
fn a_missing_label_file_for_eval_is_bad_usage_like_a_missing_picture() {
    let home = tempfile::tempdir().unwrap();
    let o = run(bot_in(home.path()).args(["eval", "no-such-set.desc"]));
    assert_one_sentence(&o, 2, "no-such-set.desc");
    let o = run(bot_in(home.path()).args(["eval", "--json", "no-such-set.desc"]));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(doc["exit_code"], 2);
}

#[test]
fn eval_json_gives_one_object_a_set() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("set");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(gnome_easy(), dir.join("a.png")).unwrap();
    let manifest = write(
        &dir.join("MANIFEST"),
        &format!("a.png {GNOME_EASY_GRID}  # GNOME\n"),
    );
    let o = run(bot_in(home.path()).args(["eval", "--json"]).arg(&manifest));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(
        (doc["images"].as_u64(), doc["exact"].as_u64()),
        (Some(1), Some(1)),
        "{doc}"
    );
    // -v: a line a picture.
    let o = run(bot_in(home.path()).args(["eval", "-v"]).arg(&manifest));
    assert!(
        text(&o.stderr).contains("a.png: read"),
        "{}",
        text(&o.stderr)
    );
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

/// `--config`, then `$SUDOKU_BOT_CONFIG`, then the XDG file; the current folder's
/// `config.toml` only when named. `sudoku-bot config` shows which and where each
/// value came from.
#[test]
fn configuration_precedence_and_where_each_value_came_from() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let config = |cmd: &mut Command| -> String {
        let o = run(cmd.arg("config"));
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    // Nothing anywhere: the defaults.
    let out = config(&mut bot_in(h));
    assert!(out.contains("# No configuration file"), "{out}");
    assert!(out.contains("interval = 200  # default"), "{out}");
    // A config.toml in the current folder is not read unless named.
    write(&h.join("config.toml"), "[watch]\ninterval = 111\n");
    assert!(config(&mut bot_in(h)).contains("interval = 200  # default"));
    let named = config(bot_in(h).args(["--config", "config.toml"]));
    assert!(
        named.contains("interval = 111  # config.toml line 2"),
        "{named}"
    );
    // The user's file.
    let user = write(
        &h.join(".config/sudoku-bot/config.toml"),
        "[watch]\ninterval = 222\n",
    );
    let out = config(&mut bot_in(h));
    assert!(
        out.contains(&format!("interval = 222  # {} line 2", user.display())),
        "{out}"
    );
    assert!(out.contains("the user's configuration file"), "{out}");
    // $SUDOKU_BOT_CONFIG wins over it, --config over both.
    let env = write(&h.join("env.toml"), "[window]\ntitle = \"Env\"\n");
    let out = config(bot_in(h).env("SUDOKU_BOT_CONFIG", &env));
    assert!(out.contains("title = \"Env\""), "{out}");
    assert!(out.contains("interval = 200  # default"), "{out}");
    let out = config(
        bot_in(h)
            .env("SUDOKU_BOT_CONFIG", &env)
            .args(["--config", "config.toml"]),
    );
    assert!(out.contains("interval = 111"), "{out}");
    assert!(!out.contains("Env"), "{out}");
    // A named file that is missing or bad is exit 2, naming it.
    let o = run(bot_in(h)
        .env("SUDOKU_BOT_CONFIG", h.join("gone.toml"))
        .arg("config"));
    assert_one_sentence(&o, 2, "gone.toml");
    write(&h.join("bad.toml"), "[watch]\ncolour = 1\n");
    let o = run(bot_in(h).args(["config", "--config", "bad.toml"]));
    assert_one_sentence(&o, 2, "bad.toml line 2");
}

#[test]
fn the_printed_configuration_is_a_valid_configuration_file() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    write(
        &h.join(".config/sudoku-bot/config.toml"),
        "[window]\ntitle = \"Sudoku\"\n",
    );
    let shown = run(bot_in(h).arg("config"));
    let saved = write(&h.join("shown.toml"), &text(&shown.stdout));
    let again = run(bot_in(h).args(["config", "--config"]).arg(&saved));
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stdout).contains("title = \"Sudoku\"  #"));

    let default = run(bot_in(h).args(["config", "--default"]));
    assert_eq!(
        text(&default.stdout),
        std::fs::read_to_string(root().join("config/config.example.toml")).unwrap()
    );
}

#[test]
fn man_page_and_completions_come_from_the_command_line() {
    let home = tempfile::tempdir().unwrap();
    let man = text(&run(bot_in(home.path()).args(["--generate", "man"])).stdout);
    assert!(
        man.starts_with(".ie") || man.contains(".TH sudoku-bot"),
        "{man}"
    );
    assert!(
        man.contains("Exit codes"),
        "the man page lists the exit codes"
    );
    for shell in ["bash", "zsh", "fish"] {
        let o = run(bot_in(home.path()).args(["--generate", shell]));
        assert!(o.status.success());
        let script = text(&o.stdout);
        assert!(
            script.contains("sudoku-bot") && script.contains("overlay"),
            "{shell}"
        );
    }
}

/// A lone copy of the front finds `sudoku-bot-full` on PATH; with none anywhere it
/// says so in one sentence.
#[test]
fn a_lone_front_finds_its_other_half_on_path() {
    let home = tempfile::tempdir().unwrap();
    let front = home.path().join("bin/sudoku-bot");
    std::fs::create_dir_all(front.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_sudoku-bot"), &front).unwrap();
    let full_dir = Path::new(env!("CARGO_BIN_EXE_sudoku-bot-full"))
        .parent()
        .unwrap();
    let o = run(Command::new(&front)
        .env("PATH", format!("{}:/usr/bin:/bin", full_dir.display()))
        .args(["read", &gnome_easy()]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), format!("{GNOME_EASY_GRID}\n"));

    let o = run(Command::new(&front)
        .env("PATH", "/nonexistent")
        .args(["read", &gnome_easy()]));
    if Path::new("/usr/bin/sudoku-bot-full").exists()
        || Path::new("/usr/local/bin/sudoku-bot-full").exists()
    {
        return; // installed on this machine: found there
    }
    assert_one_sentence(&o, 1, "cannot find sudoku-bot-full");
}

/// The reader of the output is gone before anything is written (`| head` that has
/// finished, `| true`): every command ends with 0 and says nothing.
#[test]
fn every_command_ends_quietly_when_its_reader_is_gone() {
    let home = tempfile::tempdir().unwrap();
    let manifest = root().join("fixtures/screens/MANIFEST");
    let gnome = gnome_easy();
    let commands: Vec<Vec<&str>> = vec![
        vec!["read", &gnome],
        vec!["read", "--json", &gnome],
        vec!["--generate", "bash"],
        vec!["--generate", "man"],
        vec!["config"],
        vec!["config", "--default"],
        vec!["solve", "--json", PUZZLE],
        vec!["eval", "--json", manifest.to_str().unwrap()],
    ];
    for args in commands {
        let mut cmd = bot_in(home.path());
        if args[0] == "eval" {
            // One picture is enough: a manifest of the first line.
            let first = std::fs::read_to_string(&manifest).unwrap();
            let line = first
                .lines()
                .find(|l| l.contains(".png"))
                .unwrap()
                .to_string();
            let small = write(&home.path().join("screens/MANIFEST"), &format!("{line}\n"));
            let png = line.split_whitespace().next().unwrap();
            std::fs::copy(
                root().join("fixtures/screens").join(png),
                home.path().join("screens").join(png),
            )
            .unwrap();
            cmd.args(["eval", "--json"]).arg(small);
        } else {
            cmd.args(&args);
        }
        let (mut child, _) = spawn_fed(&mut cmd, Vec::new());
        drop(child.stdout.take());
        assert_quiet_success(&args, child.wait_with_output().unwrap());
    }
}

fn assert_quiet_success(args: &[&str], out: Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    assert_eq!(text(&out.stderr), "", "{args:?}");
}

#[test]
fn tesseracts_own_lines_are_held_back_behind_one_sentence() {
    // Tesseract prints four lines of its own on fd 2 when its language data is missing
    // ("Error opening data file ...", "Please make sure the TESSDATA_PREFIX ...").
    let home = tempfile::tempdir().unwrap();
    let empty = home.path().join("tessdata");
    std::fs::create_dir_all(&empty).unwrap();
    let o = run(bot_in(home.path())
        .env("TESSDATA_PREFIX", &empty)
        .args(["read", &gnome_easy()]));
    assert_one_sentence(&o, 1, "could not start Tesseract");
    assert!(!text(&o.stderr).contains("Error opening data file"));
}
