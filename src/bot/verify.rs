//! Verification: evidence from the screen that the game's grid holds the solution.

use super::*;

impl<S: Screen, R: GridReader, I: Input> Bot<S, R, I> {
    /// Looks at the grid again until it reads as `solution`, re-entering cells that did
    /// not take (at most `watch.verify_rounds` times). `puzzle` is what was read before
    /// playing. `None` when stopped.
    pub(super) fn verify(
        &mut self,
        puzzle: &Grid,
        solution: &Grid,
        start: &WindowView,
        mut map: CellMap,
        before: &HashSet<u32>,
    ) -> Result<Option<Verification>, BotError> {
        let rounds = self.config.watch.verify_rounds;
        let mut wrong: Vec<usize> = Vec::new();
        let mut last_problem = String::from("nothing read yet");
        for round in 0..=rounds + 2 {
            self.pause(self.config.delays.settle.max(1) * (1 + round as u64 / 2));
            if self.stopped() {
                return Ok(None);
            }
            let view = self.screen.view()?;
            // The game answering the last move with a window of its own over the grid
            // (GNOME Sudoku's "Well done" dialog) is its way of saying the grid is solved.
            if let Some(w) = view
                .covering(&map.grid)
                .into_iter()
                .find(|w| !before.contains(&w.id) && w.same_app(&start.window))
            {
                info!("verified: the game opened {} over the grid", w.describe());
                return Ok(Some(Verification::CompletionWindow(w.title.clone())));
            }
            if let Some(cover) = covered(&view, &map.grid) {
                last_problem = cover;
                continue;
            }
            if !view.viewable {
                last_problem = "the game window is not on the screen".into();
                continue;
            }
            let capture = self.screen.capture()?;
            let (picture, region) = self.crop_to_region(capture);
            let picture = DynamicImage::ImageRgba8(picture);
            // Without the glyph cache: the check must not agree with the bot's own
            // reading merely because it reads through the same memory.
            let reading = match self.reader.read_fresh(&picture) {
                Ok(r) => r,
                Err(ReadError::Doubtful { reading, .. }) => *reading,
                Err(ReadError::NoGrid) => {
                    last_problem = "no grid found in the window".into();
                    continue;
                }
                Err(ReadError::Engine(e)) => return Err(BotError::Reader(e)),
            };
            // Digits that were there before playing must still read: if they do not,
            // the game is redrawing (GNOME Sudoku dims a solved grid before its dialog
            // opens) and typing now would hit whatever it is showing.
            let gone = (0..81)
                .filter(|&i| puzzle.cells()[i] != 0 && reading.grid.cells()[i] != puzzle.cells()[i])
                .count();
            if gone > 0 {
                last_problem =
                    format!("{gone} digits that were there before playing no longer read");
                continue;
            }
            map = CellMap::new(&reading, view.window.rect, region, &self.config);
            wrong = (0..81)
                .filter(|&i| reading.grid.cells()[i] != solution.cells()[i])
                .collect();
            if wrong.is_empty() {
                info!("verified: the grid reads as the solution");
                return Ok(Some(Verification::GridRead));
            }
            if round >= rounds {
                break;
            }
            info!(
                "{} cells did not take ({}); entering them again",
                wrong.len(),
                cell_names(&wrong)
            );
            let again = plan_moves(&reading.grid, solution, &map);
            match self.play(&again, &view, &map)? {
                Played::All => {}
                Played::Paused(reason) => {
                    info!("stopped typing: {reason}");
                    last_problem = reason;
                }
                Played::FocusLost(thief) => {
                    self.focus_thief = Some(thief.clone());
                    return Err(BotError::FocusLost(thief));
                }
                Played::Stopped => return Ok(None),
            }
        }
        if wrong.is_empty() {
            Err(BotError::Unverifiable(last_problem))
        } else {
            Err(BotError::NotVerified {
                cells: wrong,
                rounds,
            })
        }
    }
}
