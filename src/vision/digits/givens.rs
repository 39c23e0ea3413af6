//! Naming the given glyphs of a screenshot: look-alike glyphs grouped; each group named
//! from the glyphs known already, else by Tesseract (one line for all the new groups,
//! then alone), checked by the trained classifier; where the two readers disagree, or
//! neither names a group, the sudoku rules decide, and otherwise the cells are doubtful.
//! Never a guess.

use super::by_shape::Split;
use super::classifier::DigitClassifier;
use super::readers::{Known, Reader};
use super::rules::{
    clashes, clashing_groups, nearest_look_agrees, only_fit, only_fit_but, Answer, Groups,
};
use super::segments;
use super::widths::narrow_as_a_one;
use crate::grid::{Grid, Verdict};
use crate::solver::is_proper_puzzle;
use crate::vision::geometry::Homography;
use crate::vision::glyphs::signature::Signature;
use crate::vision::glyphs::Glyph;
use crate::vision::locate::Lattice;
use crate::vision::reading::{CellReading, Method, Reading};

/// At most this many glyph groups the two readers disagree on are settled by the
/// rules (2^n choices tried); more make the reading doubtful.
const MAX_DISPUTED: usize = 4;

/// A printed digit fills about 60% of its cell's height: the square the classifier
/// sees around a glyph.
const CLASSIFIER_CELL_RATIO: f32 = 1.6;

/// A glyph group the readers disagree on, for the rules to settle.
#[derive(Clone, Copy, Debug)]
pub(in crate::vision) struct Dispute {
    pub(in crate::vision) group: usize,
    /// The two readers' digits, Tesseract's first; the same digit twice for a group one
    /// reader alone named.
    pub(in crate::vision) digits: [u8; 2],
    /// A third reader's digit, where it is sure of one of the two.
    pub(in crate::vision) seconded: Option<u8>,
    /// The shape model's word, where it names the group itself: its digit, and the
    /// digits it is sure the group is not (a bit mask). Where the rules settle on its
    /// digit, they need not rule those out.
    pub(in crate::vision) shape: Option<(u8, u16)>,
    /// For two readers' digits: the digits the shape model is sure the group is not,
    /// whatever it names. Where the rules settle on one reader's digit, having ruled
    /// out the other's, they need not rule those out either.
    pub(in crate::vision) unlike: u16,
    /// A group one reader alone named, or Tesseract and the classifier two ways, with
    /// the shape model naming no digit, that the rules may name otherwise where no
    /// choice of digits fits with its readers': two glyphs or more, each of the givens'
    /// height and alone in its cell ([`digit_like`]). A cursor block or a cell of pencil
    /// marks one reader named is not (the rules would make a given of it). Also a group
    /// the classifier and the shape model named alike whose cells clash with a look
    /// Tesseract named that digit ([`clashes_with_tesseracts`]).
    pub(in crate::vision) overrulable: bool,
}

impl Dispute {
    fn new(group: usize, digits: [u8; 2]) -> Dispute {
        Dispute {
            group,
            digits,
            seconded: None,
            shape: None,
            unlike: 0,
            overrulable: false,
        }
    }
}

/// A glyph group no reader named, for the rules to name with the disputes.
#[derive(Clone, Copy, Debug)]
pub(in crate::vision) struct Unknown {
    pub(in crate::vision) group: usize,
    /// The digits it may be (a bit mask, bit d for digit d).
    pub(in crate::vision) digits: u16,
    /// The digits the shape model is sure it is not: where the rules name it, they
    /// need not rule those out.
    pub(in crate::vision) unlike: u16,
}

/// The grid of the digits in `cells`.
fn grid_of(cells: &[CellReading]) -> Grid {
    let mut digits = [0u8; 81];
    for (i, c) in cells.iter().enumerate() {
        digits[i] = c.digit.unwrap_or(0);
    }
    Grid::from_cells(digits)
}

impl Reader {
    /// The classifier's digit for a glyph, when it is sure of it (probability 0.9 and
    /// up); the glyph is centred in a square of white as a cell would hold it.
    pub(in crate::vision) fn classifier_reads(&mut self, glyph: &Glyph) -> Option<u8> {
        if self.classifier.is_none() {
            self.classifier = DigitClassifier::load().ok();
        }
        let classifier = self.classifier.as_ref()?;
        let ink = glyph.dark_on_light();
        let side = (ink.width().max(ink.height()) as f32 * CLASSIFIER_CELL_RATIO) as u32;
        let mut cell = image::GrayImage::from_pixel(side.max(1), side.max(1), image::Luma([255]));
        image::imageops::overlay(
            &mut cell,
            &ink,
            ((side - ink.width()) / 2) as i64,
            ((side - ink.height()) / 2) as i64,
        );
        let p = classifier.classify(&cell);
        let (digit, prob) = (1..=9usize)
            .map(|d| (d as u8, p[d]))
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        (prob >= 0.9).then_some(digit)
    }

    /// Names each given glyph: from the glyphs known already, else Tesseract once per
    /// look-alike group, else the rules.
    pub(in crate::vision) fn read_givens(
        &mut self,
        lattice: &Lattice,
        givens: &[Option<&Glyph>],
    ) -> Reading {
        let mut cells: Vec<CellReading> = lattice
            .cells
            .iter()
            .map(|&cell_box| CellReading {
                digit: None,
                confidence: 1.0,
                method: Method::Empty,
                cell_box,
                digit_box: None,
                alternatives: Vec::new(),
            })
            .collect();
        let groups = self.group_glyphs(givens, &mut cells);
        let Split {
            mut groups,
            looks: mut split,
            unsure,
        } = self.split_by_shape(groups, givens);
        let learnt_before = self.known.len();
        let mut answers = self.name_groups(&groups, givens);
        let disputed = self.ask_the_classifier(&groups, &mut answers, givens, &unsure);
        for (g, (_, members)) in groups.iter().enumerate() {
            let (r, c) = (members[0] / 9 + 1, members[0] % 9 + 1);
            tracing::debug!(
                "glyph group r{r}c{c} ({} cells): {:?}",
                members.len(),
                answers[g]
            );
        }
        // A group whose own cells clash, split: its part the shape model is unsure of
        // goes to the rules, whatever the shape model is sure it is not (it took Andika
        // Bold's outlined 8s at 16 px for 6s, and for no 8s).
        let mut clash_parts = Vec::new();
        for (g, part) in self.clashing_parts(&groups, &answers, givens) {
            if disputed.iter().any(|x| x.group == g) {
                continue;
            }
            groups[g].1.retain(|i| !part.contains(i));
            split.push(groups[g].0.clone());
            let look = Signature::of(&givens[part[0]].expect("a member has a glyph").ink);
            clash_parts.push(groups.len());
            groups.push((look, part));
            answers.push(None);
        }
        let mut unknown_groups = self.record_answers(&groups, &answers, &disputed, &mut cells);
        // The rules name a glyph no reader named only if it may be a digit: other ink in
        // an empty cell (a line's fringe, pencil marks run together) would take the
        // solution's digit there.
        // A digit's height in this face: the givens' usual one, or a named group's (a
        // face whose digits are not all of one height: 7SEGGCHAN's 1s and 4s, old-style
        // figures).
        let usual = median_height(givens);
        let named: Vec<f32> = (0..groups.len())
            .filter(|&g| answers[g].is_some())
            .map(|g| tallest(&groups[g].1, givens).height())
            .collect();
        unknown_groups.retain(|&g| {
            let members = &groups[g].1;
            let digit_like = digit_like(members, givens, usual, &named);
            if !digit_like {
                tracing::debug!(
                    "r{}c{}: no reader names it, and it may not be a digit",
                    members[0] / 9 + 1,
                    members[0] % 9 + 1
                );
                // Neither a digit nor proven empty: unread ink (the verdict's doubtful
                // cells), not an empty cell read with full confidence.
                for &i in members {
                    cells[i].confidence = 0.0;
                }
            }
            digit_like
        });
        let mut reading = Reading {
            grid: grid_of(&cells),
            corners: lattice.corners,
            cells,
            to_picture: Homography::grid_to_quad(lattice.corners).unwrap_or(Homography::IDENTITY),
            verdict: Verdict::unjudged(),
            enlarged: None,
        };
        // Groups the rules could not name alone are named with the disputes where
        // exactly one choice of digits for all of them fits (C059 Bold outlined at
        // 24 px: its 2s, which no reader names, once its 3s are not Tesseract's 8s).
        // Where two readers dispute a group, the rules do not name the others alone:
        // one reader's digit is no given to decide by (Andika Bold's outlined 8s at
        // 16 px became 5s with its 5, Tesseract's 8, taken for one).
        // Their digits: those no undisputed group claims and the shape model is not sure
        // they are not (a digit the puzzle lacks would fit as well: Roboto Black's
        // outlined 5s at 13 px in a puzzle with no 9).
        let mut undecided = Vec::new();
        let open_disputes = disputed.iter().any(|x| x.digits[0] != x.digits[1]);
        if !unknown_groups.is_empty()
            && (open_disputes
                || !self.decide_unknown_groups(&mut reading, &groups, &answers, &unknown_groups))
        {
            let claimed = (0..groups.len())
                .filter(|g| !disputed.iter().any(|x| x.group == *g))
                .filter_map(|g| answers[g].map(|a| a.0))
                .fold(0u16, |m, d| m | 1 << d);
            undecided = unknown_groups
                .iter()
                .map(|&g| {
                    let unlike = if clash_parts.contains(&g) {
                        0
                    } else {
                        self.shape_unlike(&groups[g].1, givens)
                    };
                    Unknown {
                        group: g,
                        digits: !claimed & !unlike & 0b11_1111_1110,
                        unlike,
                    }
                })
                .collect();
            // Unread until the rules name them with the disputes.
            for &g in &unknown_groups {
                for &i in &groups[g].1 {
                    reading.cells[i].confidence = 0.0;
                }
            }
        }
        if !disputed.is_empty() {
            self.settle_disputes(&mut reading, &groups, &disputed, &undecided);
        }
        // Looks the shape model split hold more than one digit: not to be known by look.
        if !split.is_empty() {
            let mut k = 0;
            self.known.retain(|known| {
                k += 1;
                k <= learnt_before || !split.iter().any(|s| s.alike(&known.signature))
            });
        }
        reading
    }

    /// Groups look-alike given glyphs, each group its look and its cells; a glyph
    /// whose ink could not be cut out is doubtful (neither a digit nor empty). Keeps
    /// each cell's look for [`Reader::forget`].
    fn group_glyphs(&mut self, givens: &[Option<&Glyph>], cells: &mut [CellReading]) -> Groups {
        let mut groups: Groups = Vec::new();
        self.last_looks = vec![None; 81];
        for (i, g) in givens.iter().enumerate() {
            let Some(g) = g else { continue };
            if g.doubtful {
                cells[i].digit_box = Some(g.bbox);
                cells[i].confidence = 0.0;
                continue;
            }
            let sig = Signature::of(&g.ink);
            self.last_looks[i] = Some(sig.clone());
            cells[i].digit_box = Some(g.bbox);
            match groups.iter_mut().find(|(s, _)| s.alike(&sig)) {
                Some((_, members)) => members.push(i),
                None => groups.push((sig, vec![i])),
            }
        }
        groups
    }

    /// Each group's answer: from the glyphs known already, else one Tesseract call
    /// for all the new groups laid out as a line, else a call per group.
    fn name_groups(&mut self, groups: &Groups, givens: &[Option<&Glyph>]) -> Vec<Answer> {
        let mut answers: Vec<Answer> = groups
            .iter()
            .map(|(sig, _)| {
                self.known
                    .iter()
                    .find(|k| k.signature.alike(sig))
                    .map(|k| (k.digit, k.confidence, Method::Template))
            })
            .collect();
        let new: Vec<usize> = (0..groups.len())
            .filter(|&g| answers[g].is_none())
            .collect();
        if new.len() >= 2 {
            let reps: Vec<image::GrayImage> = new
                .iter()
                .map(|&g| tallest(&groups[g].1, givens).dark_on_light())
                .collect();
            if let Some((digits, conf)) = self.ocr.read_line(&reps) {
                for (k, &g) in new.iter().enumerate() {
                    answers[g] = Some((digits[k], conf, Method::Ocr));
                }
            }
        }
        // Groups the line could not settle, read with low confidence, or whose digits
        // clash: one call per group; an answer still below the bar is not trusted.
        let clashing = clashing_groups(groups, &answers);
        for g in 0..groups.len() {
            let fresh = answers[g].is_none_or(|a| a.2 == Method::Ocr);
            let unsure = answers[g].is_some_and(|a| a.1 < self.min_confidence);
            if answers[g].is_none() || (fresh && (unsure || clashing.contains(&g))) {
                answers[g] = self
                    .ocr_group(&groups[g].1, givens)
                    .map(|(d, c)| (d, c, Method::Ocr))
                    .filter(|a| a.1 >= self.min_confidence);
            }
        }
        answers
    }

    /// The second reader: the trained classifier on each group Tesseract named just
    /// now. Where it is sure of another digit the two disagree, and the rules settle
    /// the group between the two, or it is doubtful. A group Tesseract cannot read (a
    /// seven-segment digit) is the classifier's and the segment decoder's where both
    /// name the same digit; one of them alone names it only if the rules agree (one
    /// solution). The disputed groups, each with its two digits, the third reader's
    /// word where it seconds one, and the digits the shape model is sure a group it
    /// names is not (the digit missing from a puzzle, which the rules cannot rule out).
    fn ask_the_classifier(
        &mut self,
        groups: &Groups,
        answers: &mut [Answer],
        givens: &[Option<&Glyph>],
        split_as: &[Option<u8>],
    ) -> Vec<Dispute> {
        // First every reader's word on every group Tesseract named or could not read.
        let mut heard: Vec<Option<Heard>> = Vec::with_capacity(answers.len());
        for (g, answer) in answers.iter().enumerate() {
            let members = &groups[g].1;
            let glyph = tallest(members, givens);
            heard.push(match *answer {
                Some((d, _, Method::Ocr)) => {
                    let classifier = self.classifier_reads(glyph).filter(|&o| o != d);
                    let shape = classifier.and_then(|_| self.shape_reads(members, givens));
                    Some(Heard::Tesseract {
                        digit: d,
                        classifier,
                        shape,
                    })
                }
                None => Some(Heard::Others([
                    self.classifier_reads(glyph),
                    segments::decode(&glyph.ink),
                    self.shape_reads(members, givens),
                ])),
                _ => None,
            });
        }
        let tesseract_alone = tesseract_alone(&heard);
        let outvoted = classifier_outvoted(&heard, groups, &tesseract_alone);
        if outvoted {
            tracing::debug!("the classifier is outvoted on this face: its word is left out");
        }
        let usual = median_height(givens);
        // Whether the rules may name a group otherwise ([`Dispute::overrulable`]).
        let overrulable =
            |members: &[usize]| members.len() >= 2 && digit_like(members, givens, usual, &[]);
        let mut disputed: Vec<Dispute> = Vec::new();
        for (g, h) in heard.into_iter().enumerate() {
            let members = &groups[g].1;
            match h {
                // Tesseract named it: the classifier, then the shape model, may say
                // otherwise; the third reader's word goes with the dispute.
                Some(Heard::Tesseract {
                    digit: d,
                    classifier,
                    shape,
                }) => {
                    // An outvoted classifier's digit gives way to a third digit the
                    // shape model names (Inter ExtraBold outlined at 18 px: its 5s,
                    // Tesseract's 6s and the classifier's 8s).
                    let third = shape.filter(|s| outvoted && Some(*s) != classifier && *s != d);
                    if let Some(other) = classifier.filter(|_| third.is_none()) {
                        tracing::debug!(
                            "{}: Tesseract reads {d}, the classifier {other}, the shape model {shape:?}",
                            crate::grid::cell_name(members[0])
                        );
                        disputed.push(Dispute {
                            seconded: shape.filter(|s| [d, other].contains(s)),
                            unlike: self.shape_unlike(members, givens),
                            overrulable: shape.is_none() && overrulable(members),
                            ..Dispute::new(g, [d, other])
                        });
                    } else if let Some(other) = third
                        .or_else(|| self.shape_differs(members, givens, d))
                        .or(split_as[g].filter(|&s| s != d))
                    {
                        tracing::debug!(
                            "{}: Tesseract reads {d}, the shape model {other}, the classifier {classifier:?}",
                            crate::grid::cell_name(members[0])
                        );
                        let shape = self.shape_word(members, givens, other);
                        disputed.push(Dispute {
                            seconded: classifier.filter(|_| third.is_none()),
                            shape,
                            unlike: self.shape_unlike(members, givens),
                            ..Dispute::new(g, [d, other])
                        });
                    }
                }
                // Tesseract cannot read it: the classifier, the segment decoder and the
                // shape model vote ([`vote`]).
                Some(Heard::Others(mut voices)) => {
                    tracing::debug!(
                        "{}: classifier {:?}, segments {:?}, shapes {:?}",
                        crate::grid::cell_name(members[0]),
                        voices[0],
                        voices[1],
                        voices[2]
                    );
                    if outvoted {
                        voices[0] = None;
                    }
                    // The digit the shape model split the group off as, unsure of it,
                    // is its word against another reader's, not a name on its own
                    // (FreeSans Bold's outlined 6s at 14 px, the classifier's 8s).
                    if voices[2].is_none() && voices[..2].iter().any(Option::is_some) {
                        voices[2] = split_as[g];
                    }
                    match vote(voices) {
                        Vote::Read(d) => answers[g] = Some((d, 0.5, Method::Classifier)),
                        Vote::Alone(d, by) => {
                            answers[g] = Some((d, 0.5, by));
                            let shape = self.shape_word(members, givens, d);
                            // Where another look Tesseract names that digit, and their
                            // cells clash, the rules may name this group otherwise even
                            // with the shape model's word on it (Manrope ExtraLight's 4s
                            // at 16 px, the classifier's and the shape model's 6s, beside
                            // its 6s, Tesseract's).
                            let clash = clashes_with_tesseracts(g, d, groups, &tesseract_alone);
                            disputed.push(Dispute {
                                shape,
                                overrulable: (shape.is_none() || clash) && overrulable(members),
                                ..Dispute::new(g, [d, d])
                            });
                        }
                        Vote::Between(pair) => {
                            answers[g] = Some((pair[0], 0.5, Method::Classifier));
                            let shape = self.shape_word(members, givens, pair[0]);
                            disputed.push(Dispute {
                                shape,
                                unlike: self.shape_unlike(members, givens),
                                ..Dispute::new(g, pair)
                            });
                        }
                        Vote::Silent => {}
                    }
                }
                None => {}
            }
        }
        disputed
    }

    /// Writes each named group's digit into its cells, and remembers the looks that
    /// Tesseract named undisputed. The groups no one named.
    fn record_answers(
        &mut self,
        groups: &Groups,
        answers: &[Answer],
        disputed: &[Dispute],
        cells: &mut [CellReading],
    ) -> Vec<usize> {
        let mut unknown_groups = Vec::new();
        for (g, (sig, members)) in groups.iter().enumerate() {
            match answers[g] {
                Some((d, c, m)) => {
                    if m == Method::Ocr && !disputed.iter().any(|x| x.group == g) {
                        self.known.push(Known {
                            signature: sig.clone(),
                            digit: d,
                            confidence: c,
                        });
                    }
                    for &i in members {
                        cells[i].digit = Some(d);
                        cells[i].confidence = c;
                        cells[i].method = m;
                    }
                }
                None => unknown_groups.push(g),
            }
        }
        unknown_groups
    }

    /// A group the rules named `digit`, remembered for the next picture. A cell
    /// whose reader had already said so keeps that reader as its method.
    fn name_by_rules(&mut self, reading: &mut Reading, group: &(Signature, Vec<usize>), digit: u8) {
        let (signature, members) = group;
        self.known.push(Known {
            signature: signature.clone(),
            digit,
            confidence: 0.5,
        });
        for &i in members {
            let cell = &mut reading.cells[i];
            if cell.digit != Some(digit) {
                cell.method = Method::Rules;
            }
            cell.digit = Some(digit);
            cell.confidence = 0.5;
        }
    }

    /// The groups no reader named, decided by the rules: their choice stands only
    /// where no other digit at all would fit (a digit another look-alike group claims
    /// may be this group's too: JPEG splits one digit's glyphs into several groups).
    /// Whether they were named.
    fn decide_unknown_groups(
        &mut self,
        reading: &mut Reading,
        groups: &Groups,
        answers: &[Answer],
        unknown_groups: &[usize],
    ) -> bool {
        let members: Vec<Vec<usize>> = unknown_groups
            .iter()
            .map(|&g| groups[g].1.clone())
            .collect();
        let claimed = (0..groups.len())
            .filter_map(|g| answers[g].map(|a| a.0))
            .fold(0u16, |m, d| m | 1 << d);
        let unclaimed = !claimed & 0b11_1111_1110;
        let decided = super::rules::decide_unknown_groups(&reading.grid, &members, unclaimed)
            .filter(|digits| {
                let mut grid = reading.grid;
                for (k, ms) in members.iter().enumerate() {
                    for &i in ms {
                        grid.set(i / 9, i % 9, digits[k]);
                    }
                }
                members.iter().all(|ms| only_fit(&grid, ms))
            });
        let Some(digits) = decided else {
            return false;
        };
        for (k, &g) in unknown_groups.iter().enumerate() {
            self.name_by_rules(reading, &groups[g], digits[k]);
        }
        reading.grid = grid_of(&reading.cells);
        true
    }

    /// Groups the readers disagree on, and `unknown` groups no reader named: the one
    /// choice of digits that leaves a puzzle with exactly one solution is taken; with
    /// none or several, the groups' cells are doubtful. An unknown group's digit stands
    /// only where no other digit fits there but those the shape model is sure it is not.
    /// Never a guess.
    pub(in crate::vision) fn settle_disputes(
        &mut self,
        reading: &mut Reading,
        groups: &Groups,
        disputed: &[Dispute],
        unknown: &[Unknown],
    ) {
        // A 1 disputed with another digit is a 1 where its glyph is far narrower than
        // every sure glyph of another digit (the width, not a third reader, decides).
        let sure: Vec<usize> = (0..groups.len())
            .filter(|g| !disputed.iter().any(|x| x.group == *g))
            .flat_map(|g| groups[g].1.iter().copied())
            .filter(|&i| matches!(reading.cells[i].method, Method::Ocr | Method::Template))
            .collect();
        let narrow: Vec<bool> = disputed
            .iter()
            .map(|x| {
                x.digits[0] != x.digits[1]
                    && x.digits.contains(&1)
                    && narrow_as_a_one(&reading.cells, &groups[x.group].1, &sure)
            })
            .collect();
        let disputed: Vec<Dispute> = disputed
            .iter()
            .zip(&narrow)
            .map(|(&x, &n)| if n { Dispute::new(x.group, [1, 1]) } else { x })
            .collect();
        let mut disputed = disputed;
        let mut fits = fitting_choices(&reading.grid, groups, &disputed, unknown);
        // No choice fits: where exactly one group one reader alone named (the shape
        // model not naming it too; [`Dispute::overrulable`]), given exactly one other
        // digit, lets some choice fit, that reader misread it and the rules name it
        // (B612 Mono's and JetBrains Mono's dotted 3s, flat-topped, the classifier's
        // 5s), or two readers named two ways, the shape model seconding neither (Hermit
        // Bold's dotted 1s at 22 px, Tesseract's 4s and the classifier's 7s). A group
        // two readers named alike is not overruled: DejaVu Sans's dotted 4s at 40 px,
        // the classifier's and the shape model's, would have become 6s with its 6s
        // read as 5s and its 5s as 4s, a puzzle with one solution and three digits
        // misread. Unless its cells clash with a look Tesseract named that digit
        // (Manrope ExtraLight's 4s at 16 px, the classifier's and the shape model's 6s
        // in a row with Tesseract's 6s).
        if fits.is_empty() {
            let mut found = Vec::new();
            for k in 0..disputed.len() {
                let x = &disputed[k];
                let [d, e] = x.digits;
                if (d != e && x.seconded.is_some()) || !x.overrulable {
                    continue;
                }
                for o in (1..=9u8).filter(|&o| o != d && o != e) {
                    let mut other = disputed.clone();
                    other[k] = Dispute::new(disputed[k].group, [o, o]);
                    let f = fitting_choices(&reading.grid, groups, &other, unknown);
                    if !f.is_empty() {
                        found.push((other, f));
                    }
                }
            }
            if found.len() == 1 {
                let (other, f) = found.remove(0);
                tracing::debug!("the rules overrule one reader's word on one group");
                disputed = other;
                fits = f;
            }
        }
        if fits.len() > 1 {
            let sure: Vec<Grid> = fits
                .iter()
                .filter(|grid| shape_sure_agrees(grid, groups, &disputed, unknown))
                .copied()
                .collect();
            if sure.len() == 1 {
                tracing::debug!(
                    "{} choices fit; one gives every group the shape model is sure of its digit",
                    fits.len()
                );
                fits = sure;
            }
        }
        let settled = (fits.len() == 1).then(|| fits[0]);
        // And each group's digit must be the only one that fits there (the two readers
        // may both be wrong about another group) but for digits the shape model is sure
        // it is not (where it names that digit, or where the rules took one of two
        // readers' digits: JetBrains Mono's thin 3, Tesseract's 3 and the classifier's
        // 5, in a puzzle with no 7), or its glyphs must look most like
        // the sure glyphs of that digit, or a third reader must be sure of it where
        // the rules ruled out the other reader's digit.
        let only: Vec<bool> = disputed
            .iter()
            .map(|x| {
                settled.is_some_and(|grid| {
                    let members = &groups[x.group].1;
                    let d = grid.cells()[members[0]];
                    let unlike = x.shape.filter(|s| s.0 == d).map_or(0, |s| s.1)
                        | if x.digits[0] != x.digits[1]
                            && x.digits.contains(&d)
                            && x.unlike & 1 << d == 0
                        {
                            x.unlike
                        } else {
                            0
                        };
                    only_fit_but(&grid, members, unlike)
                })
            })
            .collect();
        let unsure: Vec<usize> = (0..disputed.len())
            .filter(|&k| !only[k])
            .map(|k| disputed[k].group)
            .chain(unknown.iter().map(|u| u.group))
            .collect();
        for u in unknown {
            let members = &groups[u.group].1;
            let Some(grid) = settled.filter(|grid| only_fit_but(grid, members, u.unlike)) else {
                continue;
            };
            self.name_by_rules(reading, &groups[u.group], grid.cells()[members[0]]);
        }
        for (k, x) in disputed.iter().enumerate() {
            let (g, digits) = (&x.group, &x.digits);
            let members = &groups[*g].1;
            let settled = settled.filter(|grid| {
                let seconded =
                    digits[0] != digits[1] && x.seconded == Some(grid.cells()[members[0]]);
                only[k] || narrow[k] || seconded || nearest_look_agrees(grid, groups, &unsure, *g)
            });
            match settled {
                Some(grid) => self.name_by_rules(reading, &groups[*g], grid.cells()[members[0]]),
                None => {
                    for &i in members {
                        // The two readers' digits, Tesseract's first, as alternatives:
                        // a cell they dispute, which the photo path (the classifier
                        // again) may not decide.
                        if digits[0] != digits[1] {
                            let cell = &mut reading.cells[i];
                            cell.alternatives =
                                vec![(digits[0], cell.confidence), (digits[1], 0.9)];
                        }
                        reading.cells[i].digit = None;
                        reading.cells[i].confidence = 0.0;
                    }
                }
            }
        }
        reading.grid = grid_of(&reading.cells);
    }

    /// Reads a look-alike group: Tesseract on up to three members, majority vote.
    pub(in crate::vision) fn ocr_group(
        &mut self,
        members: &[usize],
        givens: &[Option<&Glyph>],
    ) -> Option<(u8, f32)> {
        let mut votes: Vec<(u8, f32)> = Vec::new();
        // The tallest members first: the most pixels to read.
        let mut order = members.to_vec();
        order.sort_by(|&a, &b| {
            givens[b]
                .map(|g| g.bbox.h)
                .unwrap_or(0.0)
                .total_cmp(&givens[a].map(|g| g.bbox.h).unwrap_or(0.0))
        });
        for &i in order.iter().take(3) {
            let Some(g) = givens[i] else { continue };
            if let Some(r) = self.ocr.read_digit_hard(&g.dark_on_light()) {
                votes.push((r.digit, r.confidence));
                // Two agreeing votes settle it; one confident vote on a lone glyph too.
                if votes.iter().filter(|v| v.0 == r.digit).count() >= 2
                    || (members.len() == 1 && r.confidence > 0.6)
                {
                    break;
                }
            }
        }
        let mut best: Option<(u8, usize, f32)> = None;
        for d in 1..=9u8 {
            let n = votes.iter().filter(|v| v.0 == d).count();
            let conf = votes
                .iter()
                .filter(|v| v.0 == d)
                .map(|v| v.1)
                .fold(0.0, f32::max);
            if n > 0 && best.is_none_or(|b| n > b.1 || (n == b.1 && conf > b.2)) {
                best = Some((d, n, conf));
            }
        }
        best.map(|(d, _, c)| (d, c))
    }
}

/// Whether group `g`, named `d` by readers other than Tesseract, clashes with another
/// look Tesseract named `d` (the classifier not objecting): one digit's two looks in
/// one row, column or box, neither clashing within itself.
fn clashes_with_tesseracts(
    g: usize,
    d: u8,
    groups: &Groups,
    tesseract_alone: &[Option<u8>],
) -> bool {
    let members = &groups[g].1;
    !clashes(members)
        && (0..groups.len()).any(|h| {
            let others = &groups[h].1;
            h != g
                && tesseract_alone[h] == Some(d)
                && !clashes(others)
                && clashes(&[&members[..], &others[..]].concat())
        })
}

/// What the readers besides Tesseract said of a group.
#[derive(Clone, Copy)]
enum Heard {
    /// Tesseract named it `digit`; the classifier's other digit, if it is sure of one,
    /// and then the shape model's word.
    Tesseract {
        digit: u8,
        classifier: Option<u8>,
        shape: Option<u8>,
    },
    /// Tesseract cannot read it: the classifier's, the segment decoder's and the shape
    /// model's words.
    Others([Option<u8>; 3]),
}

/// The digit Tesseract named each group, where the classifier did not object.
fn tesseract_alone(heard: &[Option<Heard>]) -> Vec<Option<u8>> {
    heard
        .iter()
        .map(|h| match h {
            Some(Heard::Tesseract {
                digit,
                classifier: None,
                ..
            }) => Some(*digit),
            _ => None,
        })
        .collect()
}

/// Whether the classifier's word is left out of the votes on glyphs Tesseract cannot
/// read: where Tesseract and the shape model outvote it on one glyph of this face
/// (FreeSans Bold outlined at 24 px: its 3, 6 and 9 taken for 8s, its 5 for a 6;
/// Cantarell ExtraBold outlined at 13 px, its 3s and 6s for 8s), or where it names a
/// look Tesseract cannot read a digit Tesseract gives another look in its row, column
/// or box (C059 Bold outlined at 14 px: its 3s and its 2, 8s beside its 8s). Where it
/// disputes Tesseract, the rules still settle it.
fn classifier_outvoted(
    heard: &[Option<Heard>],
    groups: &Groups,
    tesseract_alone: &[Option<u8>],
) -> bool {
    heard.iter().enumerate().any(|(g, h)| match h {
        Some(Heard::Tesseract {
            digit,
            classifier: Some(_),
            shape,
        }) => *shape == Some(*digit),
        Some(Heard::Others([Some(d), ..])) => {
            clashes_with_tesseracts(g, *d, groups, tesseract_alone)
        }
        _ => false,
    })
}

/// What the three readers of a glyph Tesseract cannot read (the classifier, the segment
/// decoder, the shape model) make of it together.
#[derive(Debug, PartialEq)]
enum Vote {
    /// The decoder and another name it, and none differs.
    Read(u8),
    /// Named, but only with the rules' agreement: by one reader alone (the decoder
    /// alone only proposes: the rules name it), or by the classifier and the shape
    /// model, who agreed on a wrong digit in 2 of 394 groups of the typeface pictures
    /// at cells of 16-18 px.
    Alone(u8, Method),
    /// Two digits for the rules to choose between, the first the answer meanwhile: two
    /// readers' against the third's (a dotted 3, the decoder's 8; an italic
    /// seven-segment 3, the classifier's 9), or the shape model's against the others',
    /// who agree.
    Between([u8; 2]),
    /// No reader names it, or all three differ.
    Silent,
}

/// The three readers' words ([classifier, segment decoder, shape model]) on a glyph
/// Tesseract cannot read.
fn vote(voices: [Option<u8>; 3]) -> Vote {
    let named: Vec<u8> = voices.iter().flatten().copied().collect();
    let agreed = named.first().filter(|&&d| named.iter().all(|&o| o == d));
    if let Some(&d) = agreed {
        return if named.len() >= 2 && voices[1].is_some() {
            Vote::Read(d)
        } else if named.len() == 1 && voices[1].is_some() {
            Vote::Alone(d, Method::Rules)
        } else {
            Vote::Alone(d, Method::Classifier)
        };
    }
    let by_two = named
        .iter()
        .find(|&&d| named.iter().filter(|&&o| o == d).count() == 2);
    if let Some(&d) = by_two {
        return named
            .iter()
            .find(|&&o| o != d)
            .map_or(Vote::Silent, |&o| Vote::Between([d, o]));
    }
    let others: Vec<u8> = voices[..2].iter().flatten().copied().collect();
    match (others.first(), voices[2]) {
        (Some(&o), Some(s)) if others.iter().all(|&x| x == o) => Vote::Between([o, s]),
        _ => Vote::Silent,
    }
}

/// Whether `grid` gives each disputed or unknown group the shape model is sure of
/// (it rules out every digit but one) that digit.
fn shape_sure_agrees(
    grid: &Grid,
    groups: &Groups,
    disputed: &[Dispute],
    unknown: &[Unknown],
) -> bool {
    let all_but_one = |unlike: u16| (!unlike & 0x3fe).count_ones() == 1;
    let sure = disputed
        .iter()
        .map(|x| (x.group, x.unlike))
        .chain(unknown.iter().map(|u| (u.group, u.unlike)))
        .filter(|&(_, unlike)| all_but_one(unlike));
    sure.into_iter()
        .all(|(g, unlike)| unlike & 1 << grid.cells()[groups[g].1[0]] == 0)
}

/// The grids, one per choice of digits for the disputed groups (each open dispute's
/// two digits tried) and the `unknown` ones (each of its digits tried), that leave
/// a puzzle with exactly one solution; none when the disputes are more than
/// [`MAX_DISPUTED`] or the unknown groups more than two.
fn fitting_choices(
    grid: &Grid,
    groups: &Groups,
    disputed: &[Dispute],
    unknown: &[Unknown],
) -> Vec<Grid> {
    let open: Vec<usize> = (0..disputed.len())
        .filter(|&k| disputed[k].digits[0] != disputed[k].digits[1])
        .collect();
    if open.len() > MAX_DISPUTED || unknown.len() > 2 {
        return Vec::new();
    }
    let set = |grid: &mut Grid, g: usize, d: u8| {
        for &i in &groups[g].1 {
            grid.set(i / 9, i % 9, d);
        }
    };
    // Each unknown group's digits, and every way to pick one for each.
    let options: Vec<Vec<u8>> = unknown
        .iter()
        .map(|u| (1..=9u8).filter(|d| u.digits & 1 << d != 0).collect())
        .collect();
    let picks = options.iter().map(Vec::len).product::<usize>();
    let mut fits = Vec::new();
    for choice in 0..1u32 << open.len() {
        let mut grid = *grid;
        for (k, x) in disputed.iter().enumerate() {
            let pick = open
                .iter()
                .position(|&o| o == k)
                .map_or(0, |bit| (choice >> bit) as usize & 1);
            set(&mut grid, x.group, x.digits[pick]);
        }
        for mut p in 0..picks {
            let mut grid = grid;
            for (k, digits) in options.iter().enumerate() {
                set(&mut grid, unknown[k].group, digits[p % digits.len()]);
                p /= digits.len();
            }
            if is_proper_puzzle(&grid) {
                fits.push(grid);
            }
        }
    }
    fits
}

/// A glyph no reader names is a digit to the rules only within this ratio of a digit's
/// height in its face (the givens' median, or a named group's).
const MAX_HEIGHT_RATIO: f32 = 1.25;

/// ... and at least this many pixels high: below it, a pencil mark's stroke or a
/// fringe cannot be told from a digit no reader names. 10 px until stop 41; at 8 the
/// screenshots scaled to 13-15 px cells still read or are refused, never misread, and
/// digits in 12-20 px cells (Roboto Thin's 1 at 20 px, 9 px high) may be the rules'.
const MIN_RULED_HEIGHT: f32 = 8.0;

/// ... or this many, where the glyph is as high as the givens' median or higher: the
/// givens of 13 px cells are 6-7 px high (Fira Code's dotted 4s), and a pencil mark or
/// a fringe is shorter than most givens. (At 5 px for any glyph of a digit's height,
/// a 15 px cell's pencil marks became givens.)
const MIN_RULED_HEIGHT_OF_THE_GIVENS: f32 = 5.0;

/// Whether a group's glyphs may be a digit no reader names (a strange face): of the
/// givens' `usual` height or a `named` group's (the heights a digit of the face has),
/// [`MIN_RULED_HEIGHT`] or more (so that the readers' silence is not for too few
/// pixels; [`MIN_RULED_HEIGHT_OF_THE_GIVENS`] where as high as `usual`), and each alone
/// in its cell (no pencil marks beside it).
fn digit_like(members: &[usize], givens: &[Option<&Glyph>], usual: f32, named: &[f32]) -> bool {
    let h = tallest(members, givens).height();
    let of = |height: f32| h <= height * MAX_HEIGHT_RATIO && h * MAX_HEIGHT_RATIO >= height;
    (h >= MIN_RULED_HEIGHT || (h >= MIN_RULED_HEIGHT_OF_THE_GIVENS && h >= usual))
        && (of(usual) || named.iter().any(|&n| of(n)))
        && members.iter().all(|&i| givens[i].is_some_and(|g| g.alone))
}

/// The median height of the given glyphs.
fn median_height(givens: &[Option<&Glyph>]) -> f32 {
    let mut heights: Vec<f32> = givens
        .iter()
        .flatten()
        .filter(|g| !g.doubtful)
        .map(|g| g.height())
        .collect();
    heights.sort_by(f32::total_cmp);
    heights.get(heights.len() / 2).copied().unwrap_or(0.0)
}

/// The member of a group with the tallest glyph: the most pixels to read.
fn tallest<'a>(members: &[usize], givens: &[Option<&'a Glyph>]) -> &'a Glyph {
    members
        .iter()
        .filter_map(|&i| givens[i])
        .max_by(|a, b| a.bbox.h.total_cmp(&b.bbox.h))
        .expect("a group has at least one glyph")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::geometry::Rect;
    use image::GrayImage;

    fn glyph(h: f32, alone: bool) -> Glyph {
        Glyph {
            bbox: Rect {
                x: 0.0,
                y: 0.0,
                w: h / 2.0,
                h,
            },
            ink: GrayImage::new(1, 1),
            doubtful: false,
            alone,
            faint: false,
            inverse: false,
        }
    }

    /// A reading of `puzzle` as if every digit had been read.
    fn read_as(puzzle: &str) -> Reading {
        let grid = Grid::parse(puzzle).unwrap();
        let cell_box = Rect {
            x: 0.0,
            y: 0.0,
            w: 10.0,
            h: 10.0,
        };
        let cells = grid
            .cells()
            .iter()
            .map(|&d| CellReading {
                digit: (d != 0).then_some(d),
                confidence: 0.5,
                method: if d != 0 {
                    Method::Classifier
                } else {
                    Method::Empty
                },
                cell_box,
                digit_box: (d != 0).then_some(cell_box),
                alternatives: Vec::new(),
            })
            .collect();
        Reading {
            grid,
            corners: [crate::vision::geometry::Point { x: 0.0, y: 0.0 }; 4],
            cells,
            to_picture: Homography::IDENTITY,
            verdict: Verdict::unjudged(),
            enlarged: None,
        }
    }

    #[test]
    fn a_digit_no_tesseract_read_names_stands_only_where_it_could_not_be_the_missing_one() {
        // A 17-clue puzzle with no 9 (tdoku's 17_clue_sample): its 1s, all in one
        // group the shape model and the classifier named, could as well be 9s (DejaVu
        // Sans ExtraLight's 7 px 3s, taken for 8s by both in a puzzle with no 8).
        let puzzle =
            ".................1..2..3.4.......52..6.....7.41..6.......2.5......78.....4......3";
        let ones: Vec<usize> = (0..81).filter(|&i| &puzzle[i..=i] == "1").collect();
        let look = Signature::of(&GrayImage::new(4, 4));
        let mut reader = Reader::without_ocr();
        let mut reading = read_as(puzzle);
        let groups: Groups = vec![(look.clone(), ones.clone())];
        reader.settle_disputes(&mut reading, &groups, &[Dispute::new(0, [1, 1])], &[]);
        assert!(
            ones.iter().all(|&i| reading.cells[i].digit.is_none()),
            "doubtful"
        );
        // Where another group holds a 1 too, the swap would clash: the digit stands.
        let mut reading = read_as(puzzle);
        let groups: Groups = vec![(look.clone(), ones[1..].to_vec()), (look, vec![ones[0]])];
        reader.settle_disputes(&mut reading, &groups, &[Dispute::new(0, [1, 1])], &[]);
        assert!(
            ones.iter().all(|&i| reading.cells[i].digit == Some(1)),
            "read"
        );
    }

    #[test]
    fn a_digit_the_rules_cannot_tell_from_the_missing_one_stands_where_a_reader_rules_that_one_out()
    {
        // The 17-clue puzzle with no 9: its 1s, all in one group, could as well be 9s.
        let puzzle =
            ".................1..2..3.4.......52..6.....7.41..6.......2.5......78.....4......3";
        let ones: Vec<usize> = (0..81).filter(|&i| &puzzle[i..=i] == "1").collect();
        let groups: Groups = vec![(Signature::of(&GrayImage::new(4, 4)), ones.clone())];
        let mut reader = Reader::without_ocr();
        let named = Dispute::new(0, [1, 1]);
        // Tesseract's 1 against the classifier's 4, which clashes (r6c1 holds a 4 beside
        // r6c2): the rules take the 1.
        let disputed = Dispute::new(0, [1, 4]);
        let no_nine = 1 << 9;
        for (dispute, stands, why) in [
            (named, false, "one reader's 1"),
            (
                Dispute {
                    shape: Some((1, no_nine)),
                    ..named
                },
                true,
                "the shape model's 1, sure they are no 9s",
            ),
            (
                Dispute {
                    shape: Some((1, 1 << 8)),
                    ..named
                },
                false,
                "sure only that they are no 8s",
            ),
            (disputed, false, "the rules' 1 alone"),
            (
                Dispute {
                    seconded: Some(1),
                    ..disputed
                },
                true,
                "the shape model seconding the 1",
            ),
            (
                Dispute {
                    seconded: Some(4),
                    ..disputed
                },
                false,
                "a word for the 4 the rules ruled out",
            ),
            (
                Dispute {
                    shape: Some((1, no_nine)),
                    ..disputed
                },
                true,
                "the shape model naming the 1 the rules took",
            ),
            (
                Dispute {
                    shape: Some((4, no_nine)),
                    ..disputed
                },
                false,
                "its word for the ruled-out 4",
            ),
            (
                Dispute {
                    unlike: no_nine,
                    ..disputed
                },
                true,
                "the shape model naming neither, sure they are no 9s",
            ),
            (
                Dispute {
                    unlike: no_nine | 1 << 1,
                    ..disputed
                },
                false,
                "the shape model sure they are no 1s either",
            ),
            (
                Dispute {
                    unlike: no_nine,
                    ..named
                },
                false,
                "one reader's 1, the shape model sure only of what they are not",
            ),
        ] {
            let mut reading = read_as(puzzle);
            reader.settle_disputes(&mut reading, &groups, &[dispute], &[]);
            let read = ones.iter().all(|&i| reading.cells[i].digit == Some(1));
            assert_eq!(read, stands, "{why}");
        }
    }

    /// A puzzle holding every digit, its 1s' and 7s' cells, and those two groups.
    fn every_digit_puzzle() -> (&'static str, Vec<usize>, Vec<usize>, Groups) {
        let puzzle =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let ones: Vec<usize> = (0..81).filter(|&i| &puzzle[i..=i] == "1").collect();
        let sevens: Vec<usize> = (0..81).filter(|&i| &puzzle[i..=i] == "7").collect();
        let look = Signature::of(&GrayImage::new(4, 4));
        let groups: Groups = vec![(look.clone(), ones.clone()), (look, sevens.clone())];
        (puzzle, ones, sevens, groups)
    }

    #[test]
    fn one_readers_word_no_choice_fits_with_is_overruled_only_where_one_digit_fits() {
        // A puzzle holding every digit; its 1s, one group, named 4s by one reader alone.
        let (puzzle, ones, sevens, groups) = every_digit_puzzle();
        let mut reader = Reader::without_ocr();
        let four = Dispute {
            overrulable: true,
            ..Dispute::new(0, [4, 4])
        };
        let seven = Dispute::new(1, [7, 7]);
        let sure_seven = Dispute {
            shape: Some((7, 0)),
            ..seven
        };
        // Two readers named the 4s: not overrulable, unless their cells clash with
        // another look Tesseract named 4 ([`clashes_with_tesseracts`]).
        let sure_four = Dispute {
            shape: Some((4, 0)),
            overrulable: false,
            ..four
        };
        let sure_four_clashing = Dispute {
            shape: Some((4, 0)),
            ..four
        };
        let eight = Dispute::new(1, [8, 8]);
        // Tesseract's 4s against the classifier's 9s, the shape model naming neither,
        // or seconding the 9s.
        let four_or_nine = Dispute {
            overrulable: true,
            ..Dispute::new(0, [4, 9])
        };
        let seconded_nine = Dispute {
            seconded: Some(9),
            ..four_or_nine
        };
        for (disputes, read, why) in [
            (
                [four, sure_seven],
                true,
                "the 4s clash; only 1s fit: the rules name them",
            ),
            (
                [four_or_nine, sure_seven],
                true,
                "neither 4s nor 9s fit; only 1s: the rules name them",
            ),
            (
                [seconded_nine, sure_seven],
                false,
                "the shape model seconds the 9s",
            ),
            ([sure_four, sure_seven], false, "two readers named the 4s"),
            (
                [sure_four_clashing, sure_seven],
                true,
                "two readers' 4s clash with Tesseract's 4s",
            ),
            (
                [four, eight],
                false,
                "two groups misread: no one group to overrule",
            ),
            (
                [Dispute::new(0, [4, 4]), sure_seven],
                false,
                "not a digit-like group (a cursor block, pencil marks)",
            ),
        ] {
            // As the reader wrote them: 4s where the 1s are, 8s for the 7s where so.
            let mut read_line: Vec<u8> = puzzle.bytes().collect();
            for &i in &ones {
                read_line[i] = b'4';
            }
            for &i in &sevens {
                read_line[i] = b'0' + disputes[1].digits[0];
            }
            let mut reading = read_as(std::str::from_utf8(&read_line).unwrap());
            reader.settle_disputes(&mut reading, &groups, &disputes, &[]);
            let ones_read = ones.iter().all(|&i| {
                reading.cells[i].digit == Some(1) && reading.cells[i].method == Method::Rules
            });
            let sevens_read = sevens.iter().all(|&i| reading.cells[i].digit == Some(7));
            assert_eq!(ones_read && sevens_read, read, "{why}");
            if !read {
                assert!(
                    ones.iter().all(|&i| reading.cells[i].digit.is_none()),
                    "{why}: the 1s doubtful"
                );
            }
        }
    }

    #[test]
    fn a_look_clashing_with_one_tesseract_named_that_digit_may_be_overruled() {
        // Manrope ExtraLight at 16 px: its 4s (r1c4, r4c3), the classifier's and the
        // shape model's 6s; its 6s (r4c1, r9c8), Tesseract's.
        let look = Signature::of(&GrayImage::new(4, 4));
        let groups: Groups = vec![(look.clone(), vec![3, 29]), (look.clone(), vec![27, 79])];
        assert!(clashes_with_tesseracts(0, 6, &groups, &[None, Some(6)]));
        assert!(
            !clashes_with_tesseracts(0, 6, &groups, &[None, None]),
            "Tesseract's 6s disputed by the classifier"
        );
        assert!(
            !clashes_with_tesseracts(0, 6, &groups, &[None, Some(5)]),
            "Tesseract's other digit"
        );
        let apart: Groups = vec![(look.clone(), vec![3, 29]), (look, vec![44, 60])];
        assert!(
            !clashes_with_tesseracts(0, 6, &apart, &[None, Some(6)]),
            "no row, column or box shared"
        );
    }

    #[test]
    fn where_two_choices_fit_the_one_the_shape_model_is_sure_of_stands() {
        // Open Sans ExtraBold outlined at 22 px: 17 givens, its 5s, 4s and 3s each
        // disputed (the 3s Tesseract's 8s, the shape model sure of the 3); two choices
        // leave a puzzle with one solution.
        let puzzle =
            ".19....5.4..2..................91.......5..6.7.....3.....3..4.7.61............2..";
        let look = Signature::of(&GrayImage::new(4, 4));
        let groups: Groups = (1..=9u8)
            .map(|d| {
                let cells = (0..81).filter(|&i| puzzle.as_bytes()[i] == b'0' + d);
                (look.clone(), cells.collect())
            })
            .collect();
        let threes = groups[2].1.clone();
        let mut read_line: Vec<u8> = puzzle.bytes().collect();
        for &i in &threes {
            read_line[i] = b'8';
        }
        let all_but = |d: u8| 0x3fe & !(1u16 << d);
        for (unlike, read, why) in [
            (all_but(3), true, "the shape model sure of the 3s"),
            (all_but(3) & !(1 << 8), false, "the shape model unsure"),
        ] {
            let disputes = [
                Dispute {
                    seconded: Some(5),
                    ..Dispute::new(4, [5, 2])
                },
                Dispute {
                    seconded: Some(4),
                    ..Dispute::new(3, [4, 6])
                },
                Dispute {
                    shape: Some((3, unlike)),
                    unlike,
                    ..Dispute::new(2, [8, 3])
                },
            ];
            assert_eq!(
                fitting_choices(&Grid::parse(puzzle).unwrap(), &groups, &disputes, &[]).len(),
                2,
                "{why}: two choices fit"
            );
            let mut reading = read_as(std::str::from_utf8(&read_line).unwrap());
            Reader::without_ocr().settle_disputes(&mut reading, &groups, &disputes, &[]);
            assert_eq!(reading.grid.to_line() == puzzle, read, "{why}");
            if !read {
                assert!(
                    threes.iter().all(|&i| reading.cells[i].digit.is_none()),
                    "{why}: the 3s doubtful"
                );
            }
        }
    }

    #[test]
    fn a_group_no_reader_names_is_named_with_the_disputes_where_one_choice_fits() {
        // A puzzle holding every digit: its 1s no reader named, its 7s read as 8s by
        // one reader and 7s by another (a third sure of the 7).
        let (puzzle, ones, sevens, groups) = every_digit_puzzle();
        let mut reader = Reader::without_ocr();
        let seven = Dispute {
            seconded: Some(7),
            ..Dispute::new(1, [8, 7])
        };
        for (mask, read, why) in [
            (1 << 1 | 1 << 2, true, "only 1s and 7s fit"),
            (1 << 2, false, "no choice fits: the 1s are not 2s"),
        ] {
            let mut read_line: Vec<u8> = puzzle.bytes().collect();
            for &i in &ones {
                read_line[i] = b'.';
            }
            for &i in &sevens {
                read_line[i] = b'8';
            }
            let mut reading = read_as(std::str::from_utf8(&read_line).unwrap());
            for &i in &ones {
                reading.cells[i].confidence = 0.0;
            }
            let ones_unknown = Unknown {
                group: 0,
                digits: mask,
                unlike: 0,
            };
            reader.settle_disputes(&mut reading, &groups, &[seven], &[ones_unknown]);
            let ones_read = ones.iter().all(|&i| {
                reading.cells[i].digit == Some(1) && reading.cells[i].method == Method::Rules
            });
            let sevens_read = sevens.iter().all(|&i| reading.cells[i].digit == Some(7));
            assert_eq!(ones_read, read, "{why}: the 1s");
            assert_eq!(sevens_read, read, "{why}: the 7s");
            if !read {
                assert!(
                    ones.iter().all(|&i| reading.cells[i].confidence == 0.0),
                    "{why}: the 1s doubtful"
                );
            }
        }
    }

    #[test]
    fn a_classifier_tesseract_and_the_shape_model_outvote_is_left_out() {
        let t = |digit, classifier, shape| {
            Some(Heard::Tesseract {
                digit,
                classifier,
                shape,
            })
        };
        let others = Some(Heard::Others([Some(8), None, None]));
        // Two looks, r1c1 and r2c2 (one box), and r5c5.
        let look = Signature::of(&GrayImage::new(4, 4));
        let groups: Groups = vec![
            (look.clone(), vec![0]),
            (look.clone(), vec![10]),
            (look, vec![40]),
        ];
        for (heard, want, why) in [
            (
                vec![t(3, Some(8), Some(3)), others.clone(), None],
                true,
                "outvoted",
            ),
            (
                vec![t(3, Some(8), Some(8)), others.clone(), None],
                false,
                "the shape model with it",
            ),
            (
                vec![t(3, Some(8), None), others.clone(), None],
                false,
                "one against one",
            ),
            (
                vec![t(3, None, None), others.clone(), None],
                false,
                "no dispute",
            ),
            (
                vec![t(3, None, None), others.clone(), t(8, None, None)],
                false,
                "Tesseract's 8 in another box",
            ),
            (
                vec![others.clone(), t(8, None, None), t(2, None, None)],
                true,
                "its 8 in a box with Tesseract's 8",
            ),
            (
                vec![others, t(8, Some(3), None), t(2, None, None)],
                false,
                "its 8 in a box with an 8 it disputes",
            ),
        ] {
            let alone = tesseract_alone(&heard);
            assert_eq!(classifier_outvoted(&heard, &groups, &alone), want, "{why}");
        }
    }

    #[test]
    fn two_readers_against_the_third_leave_the_choice_to_the_rules() {
        let (c, s) = (Method::Classifier, Method::Rules);
        for (voices, want) in [
            // All three, or the decoder and another: read.
            ([Some(8), Some(8), Some(8)], Vote::Read(8)),
            ([None, Some(7), Some(7)], Vote::Read(7)),
            // One alone, or the classifier and the shape model: the rules must agree.
            ([Some(3), None, None], Vote::Alone(3, c)),
            ([None, Some(3), None], Vote::Alone(3, s)),
            ([Some(9), None, Some(9)], Vote::Alone(9, c)),
            // Two against one, whichever the one: the rules choose between the two.
            ([Some(3), Some(8), Some(3)], Vote::Between([3, 8])),
            ([Some(9), Some(3), Some(3)], Vote::Between([3, 9])),
            ([Some(6), Some(6), Some(5)], Vote::Between([6, 5])),
            // The shape model against one other.
            ([Some(7), None, Some(5)], Vote::Between([7, 5])),
            // All three differ, or no one names it.
            ([Some(7), Some(5), Some(3)], Vote::Silent),
            ([None, None, None], Vote::Silent),
            ([Some(7), Some(5), None], Vote::Silent),
        ] {
            assert_eq!(vote(voices), want, "{voices:?}");
        }
    }

    #[test]
    fn only_a_digit_like_glyph_no_reader_names_goes_to_the_rules() {
        let (given, tall, tiny, beside_marks) = (
            glyph(24.0, true),
            glyph(31.0, true),
            glyph(7.0, true),
            glyph(24.0, false),
        );
        let givens = [Some(&given), Some(&tall), Some(&tiny), Some(&beside_marks)];
        assert!(
            digit_like(&[0], &givens, 24.0, &[]),
            "a strange face at the givens' height"
        );
        assert!(
            !digit_like(&[1], &givens, 24.0, &[]),
            "a line's fringe, taller than digits"
        );
        assert!(
            !digit_like(&[2], &givens, 24.0, &[]),
            "a pencil mark's height"
        );
        // 13 px cells: givens 6-7 px high (Fira Code's dots).
        let (six_px, four_px) = (glyph(6.0, true), glyph(4.0, true));
        assert!(
            digit_like(&[0], &[Some(&six_px)], 6.0, &[]),
            "as high as most givens"
        );
        assert!(
            !digit_like(&[0], &[Some(&six_px)], 7.0, &[]),
            "under 8 px and shorter than most givens"
        );
        assert!(
            !digit_like(&[0], &[Some(&four_px)], 4.0, &[]),
            "too few pixels to say"
        );
        let nine_px = glyph(9.0, true);
        assert!(
            digit_like(&[0], &[Some(&nine_px)], 9.0, &[]),
            "a 1 of 9 px in a 20 px cell"
        );
        assert!(
            !digit_like(&[3], &givens, 24.0, &[]),
            "pencil marks run together"
        );
        assert!(
            !digit_like(&[0, 3], &givens, 24.0, &[]),
            "one member beside marks"
        );
        // 7SEGGCHAN at 40 px: its 1s and 4s 18 px high, its other digits 24.
        let short = glyph(18.0, true);
        assert!(
            !digit_like(&[0], &[Some(&short)], 24.0, &[]),
            "shorter than every digit of the face"
        );
        assert!(
            digit_like(&[0], &[Some(&short)], 24.0, &[24.0, 18.0]),
            "as high as a group a reader named"
        );
    }
}
