//! The one JSON shape of a position ([`PositionJson`]): the service's positions, and the start
//! of the deal and solution documents, which add their own fields to it ([`DealJson`],
//! [`super::solution::SolutionJson`]). Its field readers are shared by those documents, so
//! that a field reads and is refused in the same words wherever it appears.

use fcauto_deals::text::short_echoes;
use fcauto_deals::{Board, Card, FREECELLS};
use serde::{Deserialize, Serialize};

/// A position as JSON: `{"cascades": [[8 lists of cards, deepest first]], "freecells":
/// [4 slots, a card or null], "foundations": [top rank per suit C, D, H, S, 0..13]}`.
/// Written with every field. Read: `board` is another name of `cascades` (the name the deal
/// and solution documents gave it before); `freecells` and `foundations` may be left out or
/// null (empty); another number of freecell slots or foundations, a rank outside 0..=13 and
/// an unknown field are refused, named.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PositionJson {
    /// 8 cascades, each deepest card first (`"KS"`, `"TD"`, ...).
    #[serde(alias = "board")]
    pub cascades: Vec<Vec<Card>>,
    /// Freecells `a`..`d`: a card or null.
    #[serde(default, deserialize_with = "freecells")]
    pub freecells: [Option<Card>; FREECELLS],
    /// Foundations, top rank 0..=13 per suit in the order C, D, H, S (the cards on each).
    #[serde(default, deserialize_with = "foundations")]
    pub foundations: [u8; 4],
}

impl PositionJson {
    /// The JSON form of a board.
    pub fn of(b: &Board) -> PositionJson {
        PositionJson {
            cascades: b.cascades.clone(),
            freecells: b.freecells,
            foundations: b.foundations,
        }
    }

    /// The board it describes, unchecked ([`Board::check`] tells a legal one).
    pub fn board(&self) -> Board {
        Board {
            cascades: self.cascades.clone(),
            freecells: self.freecells,
            foundations: self.foundations,
        }
    }
}

/// `fcauto deal N --format json`'s output: a position ([`PositionJson`], the deal's start)
/// with the deal number added: `{"deal": 617, "cascades": [...], "freecells": [null, null,
/// null, null], "foundations": [0, 0, 0, 0]}`. Read as the position is (`board` for
/// `cascades`, as older versions wrote it; `freecells` and `foundations` may be left out),
/// unknown fields refused.
#[derive(Clone, Debug, Serialize)]
pub struct DealJson {
    /// The Microsoft deal number (read as `617` or `"ms617"`:
    /// [`fcauto_deals::msdeal::deserialize_deal`]).
    pub deal: u64,
    /// The position: the deal's cascades as dealt, empty freecells and foundations.
    #[serde(flatten)]
    pub position: PositionJson,
}

/// [`DealJson`] as read: its fields spelled out, since serde's `flatten` would accept any
/// unknown field without a word.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DealRead {
    #[serde(deserialize_with = "fcauto_deals::msdeal::deserialize_deal")]
    deal: u64,
    #[serde(alias = "board")]
    cascades: Vec<Vec<Card>>,
    #[serde(default, deserialize_with = "freecells")]
    freecells: [Option<Card>; FREECELLS],
    #[serde(default, deserialize_with = "foundations")]
    foundations: [u8; 4],
}

impl<'de> Deserialize<'de> for DealJson {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = DealRead::deserialize(d)?;
        Ok(DealJson {
            deal: r.deal,
            position: PositionJson {
                cascades: r.cascades,
                freecells: r.freecells,
                foundations: r.foundations,
            },
        })
    }
}

/// `freecells` as given: null is `None`; a list of 4 slots, each a card or null; another
/// number of slots is named.
pub(crate) fn freecells_given<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<[Option<Card>; FREECELLS]>, D::Error> {
    let Some(slots) = Option::<Vec<Option<Card>>>::deserialize(d)? else {
        return Ok(None);
    };
    <[Option<Card>; FREECELLS]>::try_from(slots)
        .map(Some)
        .map_err(|slots| {
            serde::de::Error::custom(format!(
                "freecells has {} slots; FreeCell has {FREECELLS} (null for an empty one)",
                slots.len()
            ))
        })
}

/// `freecells`, null as left out (all empty).
fn freecells<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<[Option<Card>; FREECELLS], D::Error> {
    freecells_given(d).map(Option::unwrap_or_default)
}

/// `foundations` as given: null is `None`; four whole numbers 0..=13, anything else (`-1`,
/// 14, `1.5`, a list of another length, no list) named in the player's words, not serde's
/// "expected u8" or "trailing characters". A whole number may be written `13.0`.
pub(crate) fn foundations_given<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<[u8; 4]>, D::Error> {
    use serde::de::Error;
    let words = "the top rank on each foundation (C, D, H, S), 0 (none) to 13 (K)";
    let ranks = match Option::<serde_json::Value>::deserialize(d)? {
        None => return Ok(None),
        Some(serde_json::Value::Array(ranks)) => ranks,
        Some(other) => {
            return Err(D::Error::custom(format!(
                "foundations: a list of 4 numbers, {words}; got {}",
                short_echoes(&other.to_string())
            )))
        }
    };
    if ranks.len() != 4 {
        return Err(D::Error::custom(format!(
            "foundations: 4 numbers, {words}; got {}",
            ranks.len()
        )));
    }
    let mut out = [0u8; 4];
    for ((slot, r), suit) in out.iter_mut().zip(&ranks).zip(["C", "D", "H", "S"]) {
        *slot = r
            .as_f64()
            .filter(|n| n.fract() == 0.0 && (0.0..=13.0).contains(n))
            .ok_or_else(|| {
                D::Error::custom(format!(
                    "foundations: `{}` is not the top rank on the {suit} foundation, 0 (none) \
                     to 13 (K)",
                    short_echoes(&r.to_string())
                ))
            })? as u8;
    }
    Ok(Some(out))
}

/// `foundations`, null as left out (all empty).
fn foundations<'de, D: serde::Deserializer<'de>>(d: D) -> Result<[u8; 4], D::Error> {
    foundations_given(d).map(Option::unwrap_or_default)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position writes every field; reads `board` as `cascades`, null or absent freecells
    /// and foundations as empty, and refuses unknown fields and bad counts by name.
    #[test]
    fn a_position_reads_back_and_names_its_problems() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let text = serde_json::to_string(&PositionJson::of(&b)).unwrap();
        assert!(
            text.starts_with("{\"cascades\":[[\"7D\"")
                && text.ends_with("\"freecells\":[null,null,null,null],\"foundations\":[0,0,0,0]}"),
            "{text}"
        );
        let back: PositionJson = serde_json::from_str(&text).unwrap();
        assert_eq!(back.board(), b);
        let old = serde_json::json!({"board": b.cascades, "freecells": null});
        let back: PositionJson = serde_json::from_value(old).unwrap();
        assert_eq!(back.board(), b);
        for (v, says) in [
            (
                serde_json::json!({"cascades": b.cascades, "extra": 1}),
                "unknown field `extra`",
            ),
            (
                serde_json::json!({"cascades": b.cascades, "freecells": [null]}),
                "freecells has 1 slots",
            ),
            (
                serde_json::json!({"cascades": b.cascades, "foundations": [0, 0, 14, 0]}),
                "foundations: `14` is not the top rank on the H foundation",
            ),
            (
                serde_json::json!({"cascades": b.cascades, "foundations": [0]}),
                "foundations: 4 numbers",
            ),
        ] {
            let err = serde_json::from_value::<PositionJson>(v).unwrap_err();
            assert!(err.to_string().contains(says), "{says}: {err}");
        }
    }

    /// A deal's JSON is the position with `deal` added, and reads back (also as written
    /// before, with `board` and no freecells or foundations).
    #[test]
    fn a_deal_json_is_a_position_with_its_number() {
        let b = fcauto_deals::ms_deal(617).unwrap();
        let json = DealJson {
            deal: 617,
            position: PositionJson::of(&b),
        };
        let text = serde_json::to_string(&json).unwrap();
        assert!(text.starts_with("{\"deal\":617,\"cascades\":[["), "{text}");
        let back: DealJson = serde_json::from_str(&text).unwrap();
        assert_eq!((back.deal, back.position.board()), (617, b.clone()));
        let old = serde_json::json!({"deal": 617, "board": b.cascades});
        let back: DealJson = serde_json::from_value(old).unwrap();
        assert_eq!(back.position.board(), b);
        let err = serde_json::from_value::<DealJson>(
            serde_json::json!({"deal": 617, "cascades": b.cascades, "moves": []}),
        )
        .unwrap_err();
        assert!(err.to_string().contains("unknown field `moves`"), "{err}");
    }
}
