//! The glyph shape model's part in naming a screenshot's givens ([`super::givens`]):
//! its digit for a look-alike group, its check on the groups Tesseract named, the
//! groups it splits.

use super::readers::Reader;
use super::rules::{Answer, Groups};
use super::shapes::ShapeModel;
use crate::grid::Grid;
use crate::vision::glyphs::signature::Signature;
use crate::vision::glyphs::Glyph;

/// The shape model names a glyph only this sure of it.
pub(super) const SURE_SHAPE: f32 = 0.9;
/// ... and sure a glyph is not a digit it gives less than this.
pub(super) const UNLIKE: f32 = 0.01;
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
    /// box), so two digits the signature took for one look (Andika Bold outlined at
    /// 16 px: its 8s, grouped with its 6s and read as 6s), where the shape model is
    /// sure of the group's digit on some glyphs and not on the others, and neither
    /// part clashes: each group's index and its unsure part, to be split off with no
    /// reader's word on it (the rules name it, or nothing does).
    pub(super) fn clashing_parts(
        &mut self,
        groups: &Groups,
        answers: &[Answer],
        givens: &[Option<&Glyph>],
    ) -> Vec<(usize, Vec<usize>)> {
        let clashes = |cells: &[usize]| {
            let mut ones = [0u8; 81];
            cells.iter().for_each(|&i| ones[i] = 1);
            !Grid::from_cells(ones).conflicts().is_empty()
        };
        let mut out = Vec::new();
        for (g, (_, members)) in groups.iter().enumerate() {
            let Some((d, _, _)) = answers[g] else {
                continue;
            };
            if !clashes(members) {
                continue;
            }
            let (sure, unsure): (Vec<usize>, Vec<usize>) = members
                .iter()
                .partition(|&&i| givens[i].is_some_and(|glyph| self.shape_is(glyph, d)));
            if sure.is_empty() || unsure.is_empty() || clashes(&sure) || clashes(&unsure) {
                continue;
            }
            tracing::debug!(
                "{}: the group's {d}s clash; the shape model is sure of those in {}",
                crate::grid::cell_name(members[0]),
                crate::grid::cell_names(&sure)
            );
            out.push((g, unsure));
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
