//! The glyph shape model's part in naming a screenshot's givens ([`super::givens`]):
//! its digit for a look-alike group, its check on the groups Tesseract named, the
//! groups it splits.

use super::readers::Reader;
use super::rules::{clashes, Answer, Groups};
use super::shapes::ShapeModel;
use crate::vision::glyphs::signature::Signature;
use crate::vision::glyphs::Glyph;
use crate::vision::reading::Method;

/// The shape model names a glyph only this sure of it.
pub(super) const SURE_SHAPE: f32 = 0.9;
/// ... and sure a glyph is not a digit it gives less than this.
pub(super) const UNLIKE: f32 = 0.01;
/// A clashing group is split by look only where its two looks are this far apart
/// ([`Signature::distance`]): Nimbus Sans Bold's dotted 5s and 6s at 40 px are 0.112
/// apart, sudoku_1440's typed digits and the givens they clash with 0.006-0.020.
const CLASHING_LOOKS_APART: f32 = 0.05;
/// Look-alike groups after [`Reader::split_by_shape`].
pub(super) struct Split {
    pub(super) groups: Groups,
    /// The looks that were split.
    pub(super) looks: Vec<Signature>,
    /// For each group, the digit the shape model split it off as where it was not sure
    /// of that digit: a reader's word against Tesseract's.
    pub(super) unsure: Vec<Option<u8>>,
}

impl Reader {
    /// The shape model's digit for a look-alike group: each of its three tallest glyphs
    /// read, all sure ([`SURE_SHAPE`]) of the same digit.
    pub(in crate::vision) fn shape_reads(
        &mut self,
        members: &[usize],
        givens: &[Option<&Glyph>],
    ) -> Option<u8> {
        let model = self.shapes.get_or_insert_with(ShapeModel::load);
        let mut order: Vec<&Glyph> = members.iter().filter_map(|&i| givens[i]).collect();
        order.sort_by(|a, b| b.bbox.h.total_cmp(&a.bbox.h));
        let reads: Vec<Option<(u8, f32)>> =
            order.iter().take(3).map(|g| model.read(&g.ink)).collect();
        let first = reads.first().copied().flatten()?.0;
        reads
            .iter()
            .all(|r| r.is_some_and(|(d, p)| d == first && p >= SURE_SHAPE))
            .then_some(first)
    }

    /// The shape model's word on a group where it names it `d` itself ([`Self::shape_reads`]):
    /// `d`, and the digits it is sure the group is not ([`Self::shape_unlike`]).
    pub(super) fn shape_word(
        &mut self,
        members: &[usize],
        givens: &[Option<&Glyph>],
        d: u8,
    ) -> Option<(u8, u16)> {
        (self.shape_reads(members, givens) == Some(d))
            .then(|| (d, self.shape_unlike(members, givens)))
    }

    /// The digits the shape model is sure a group is not: below [`UNLIKE`] for each of
    /// its three tallest glyphs (a bit mask, bit d for digit d).
    pub(super) fn shape_unlike(&mut self, members: &[usize], givens: &[Option<&Glyph>]) -> u16 {
        let model = self.shapes.get_or_insert_with(ShapeModel::load);
        let mut order: Vec<&Glyph> = members.iter().filter_map(|&i| givens[i]).collect();
        order.sort_by(|a, b| b.bbox.h.total_cmp(&a.bbox.h));
        let mut unlike = 0b11_1111_1110;
        for g in order.iter().take(3) {
            let Some(p) = model.probabilities(&g.ink) else {
                return 0;
            };
            for d in 1..=9 {
                if p[d] >= UNLIKE {
                    unlike &= !(1 << d);
                }
            }
        }
        unlike
    }

    /// The digit the shape model is sure ([`SURE_SHAPE`]) `glyph` is, if any.
    pub(in crate::vision) fn shape_sure(&mut self, glyph: &Glyph) -> Option<u8> {
        let model = self.shapes.get_or_insert_with(ShapeModel::load);
        model
            .read(&glyph.ink)
            .filter(|&(_, p)| p >= SURE_SHAPE)
            .map(|(d, _)| d)
    }

    /// Whether the shape model is sure ([`SURE_SHAPE`]) that `glyph` is `d`.
    pub(in crate::vision) fn shape_is(&mut self, glyph: &Glyph, d: u8) -> bool {
        let model = self.shapes.get_or_insert_with(ShapeModel::load);
        model
            .read(&glyph.ink)
            .is_some_and(|(o, p)| o == d && p >= SURE_SHAPE)
    }

    /// Another digit than `d` the shape model is sure of for a member of a group
    /// Tesseract named `d` (a 6 grouped with 8s, a 3 Tesseract took for a 4).
    pub(super) fn shape_differs(
        &mut self,
        members: &[usize],
        givens: &[Option<&Glyph>],
        d: u8,
    ) -> Option<u8> {
        let model = self.shapes.get_or_insert_with(ShapeModel::load);
        members
            .iter()
            .filter_map(|&i| givens[i])
            .filter_map(|g| model.read(&g.ink))
            .find(|&(o, p)| o != d && p >= SURE_SHAPE)
            .map(|(o, _)| o)
    }

    /// The named groups whose own cells clash (two of them in one row, column or
    /// box), so two digits the signature took for one look: each group's index and
    /// the part to split off, with no reader's word on it (the rules name it, or
    /// nothing does). The part the shape model is not sure of the group's digit on,
    /// where it is sure on the rest (Andika Bold outlined at 16 px: its 8s, grouped
    /// with its 6s and read as 6s); else the look farther from the glyph the readers
    /// read (the tallest), where the group's two looks are [`CLASHING_LOOKS_APART`]
    /// (Nimbus Sans Bold's dotted 5s, grouped with its 6s at 40 px). Neither part may
    /// clash.
    pub(super) fn clashing_parts(
        &mut self,
        groups: &Groups,
        answers: &[Answer],
        givens: &[Option<&Glyph>],
    ) -> Vec<(usize, Vec<usize>)> {
        let mut out = Vec::new();
        for (g, (_, members)) in groups.iter().enumerate() {
            // A look read on an earlier picture is one digit: in play, its clash is the
            // game's (a typed digit in the wrong cell; sudoku_1440).
            let Some((d, _, method)) = answers[g] else {
                continue;
            };
            if method == Method::Template || !clashes(members) {
                continue;
            }
            let (sure, unsure): (Vec<usize>, Vec<usize>) = members
                .iter()
                .partition(|&&i| givens[i].is_some_and(|glyph| self.shape_is(glyph, d)));
            let part = if !sure.is_empty() && !clashes(&sure) && !clashes(&unsure) {
                Some(unsure)
            } else {
                farther_look(members, givens)
            };
            if let Some(part) = part {
                tracing::debug!(
                    "{}: the group's {d}s clash; split off: {}",
                    crate::grid::cell_name(members[0]),
                    crate::grid::cell_names(&part)
                );
                out.push((g, part));
            }
        }
        out
    }

    /// Look-alike groups no glyph known already names, split where the shape model
    /// reads different digits among their glyphs, sure of one at least (thin strokes
    /// leave so little ink that a thin 3 and 9 look alike to the signature).
    pub(super) fn split_by_shape(&mut self, groups: Groups, givens: &[Option<&Glyph>]) -> Split {
        let mut out = Split {
            groups: Vec::new(),
            looks: Vec::new(),
            unsure: Vec::new(),
        };
        for (sig, members) in groups {
            if members.len() < 2 || self.known.iter().any(|k| k.signature.alike(&sig)) {
                out.groups.push((sig, members));
                out.unsure.push(None);
                continue;
            }
            let model = self.shapes.get_or_insert_with(ShapeModel::load);
            let reads: Vec<Option<(u8, f32)>> = members
                .iter()
                .map(|&i| givens[i].and_then(|g| model.read(&g.ink)))
                .collect();
            // Split where the model is sure of two digits, or sure of one and reads
            // another, unsure, on other glyphs (FreeSans Bold's outlined 5s and 6s at
            // 14 px, one look with its 8s: the model sure of the 8s only).
            let sure = |r: &Option<(u8, f32)>| r.filter(|r| r.1 >= SURE_SHAPE).map(|r| r.0);
            let any_sure = reads.iter().any(|r| sure(r).is_some());
            let digits: Vec<Option<u8>> = reads
                .iter()
                .map(|r| if any_sure { r.map(|r| r.0) } else { None })
                .collect();
            let mut kinds: Vec<Option<u8>> = digits.clone();
            kinds.sort_unstable();
            kinds.dedup();
            if kinds.iter().flatten().count() < 2 {
                out.groups.push((sig, members));
                out.unsure.push(None);
                continue;
            }
            tracing::debug!(
                "{}: one look, but the shape model reads {:?}",
                crate::grid::cell_name(members[0]),
                kinds
            );
            out.looks.push(sig);
            for kind in kinds {
                let part: Vec<usize> = members
                    .iter()
                    .zip(&digits)
                    .filter(|(_, d)| **d == kind)
                    .map(|(&i, _)| i)
                    .collect();
                let look = Signature::of(&givens[part[0]].expect("a member has a glyph").ink);
                let unsure = kind.filter(|_| {
                    part.iter().any(|i| {
                        let k = members.iter().position(|m| m == i).expect("a member");
                        sure(&reads[k]).is_none()
                    })
                });
                out.groups.push((look, part));
                out.unsure.push(unsure);
            }
        }
        out
    }
}

/// A group's two looks farthest apart, each glyph with the nearer: the glyphs of the
/// look without the tallest glyph (the one the readers read), where the two are
/// [`CLASHING_LOOKS_APART`] and neither clashes.
fn farther_look(members: &[usize], givens: &[Option<&Glyph>]) -> Option<Vec<usize>> {
    let looks: Vec<(usize, Signature, f32)> = members
        .iter()
        .filter_map(|&i| givens[i].map(|glyph| (i, Signature::of(&glyph.ink), glyph.bbox.h)))
        .collect();
    let mut far = (0, 0, 0.0f32);
    for a in 0..looks.len() {
        for b in a + 1..looks.len() {
            let apart = looks[a].1.distance(&looks[b].1);
            if apart > far.2 {
                far = (a, b, apart);
            }
        }
    }
    if far.2 < CLASHING_LOOKS_APART {
        return None;
    }
    let (one, other): (Vec<&(usize, Signature, f32)>, Vec<_>) = looks
        .iter()
        .partition(|l| l.1.distance(&looks[far.0].1) <= l.1.distance(&looks[far.1].1));
    let cells = |part: &[&(usize, Signature, f32)]| part.iter().map(|l| l.0).collect::<Vec<_>>();
    let (one, other) = (cells(&one), cells(&other));
    let read = looks.iter().max_by(|a, b| a.2.total_cmp(&b.2))?.0;
    if clashes(&one) || clashes(&other) {
        return None;
    }
    Some(if one.contains(&read) { other } else { one })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::geometry::Rect;
    use image::{GrayImage, Luma};

    /// A 12x20 glyph: a bar down the left, and one down the right where `closed`.
    fn glyph(closed: bool, h: f32) -> Glyph {
        let ink = GrayImage::from_fn(12, 20, |x, _| {
            Luma([if x < 3 || (closed && x >= 9) { 255 } else { 0 }])
        });
        Glyph {
            bbox: Rect {
                x: 0.0,
                y: 0.0,
                w: 12.0,
                h,
            },
            ink,
            doubtful: false,
            alone: true,
            faint: false,
            inverse: false,
        }
    }

    #[test]
    fn a_clashing_group_of_two_looks_loses_the_look_its_readers_did_not_read() {
        // r1c1, r2c5, r5c2 one look; r1c9, r9c1 the other, apart in every row,
        // column and box, but r1c1 and r1c9 share row 1.
        let (a, b) = ([0, 13, 37], [8, 72]);
        let open = glyph(false, 20.0);
        let closed = glyph(true, 20.0);
        let tall_closed = glyph(true, 21.0);
        let mut givens: Vec<Option<&Glyph>> = vec![None; 81];
        for i in a {
            givens[i] = Some(&open);
        }
        givens[b[0]] = Some(&closed);
        givens[b[1]] = Some(&tall_closed);
        let members: Vec<usize> = a.iter().chain(&b).copied().collect();
        assert!(clashes(&members));
        // The tallest glyph (r9c1) read: the other look goes.
        assert_eq!(farther_look(&members, &givens), Some(a.to_vec()));
        // One look: nothing to split.
        for i in b {
            givens[i] = Some(&open);
        }
        assert_eq!(farther_look(&members, &givens), None);
        // The same group named: split, but for a look read on an earlier picture.
        let group: Groups = vec![(Signature::of(&open.ink), members.clone())];
        givens[b[0]] = Some(&closed);
        givens[b[1]] = Some(&tall_closed);
        let mut reader = Reader::without_ocr();
        for (method, split) in [(Method::Ocr, true), (Method::Template, false)] {
            let parts = reader.clashing_parts(&group, &[Some((4, 0.9, method))], &givens);
            assert_eq!(!parts.is_empty(), split, "{method:?}");
        }
        // Two looks, one of which clashes within itself (r1c1 and r1c2): no split.
        givens[1] = Some(&open);
        let members: Vec<usize> = members.into_iter().chain([1]).collect();
        assert_eq!(farther_look(&members, &givens), None);
    }
}
