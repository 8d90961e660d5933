//! The search modes as the command line names them ([`ModeArg`]), each turned into the
//! solver's [`Mode`].

use fcauto_solver::Mode;

/// Search modes (see `fcauto solve --help`).
#[derive(Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub enum ModeArg {
    /// First solution found: fastest.
    Fast,
    /// Short solutions at practical speed.
    Short,
    /// Proven minimum number of single-card moves (A*), within --max-states.
    Optimal,
    /// Proven minimum number of moves with a sequence move counted as one (A*), within
    /// --max-states: how Paul & Helmert count their published optimal lengths.
    OptimalMoves,
    /// optimal-moves in Paul & Helmert's stricter move model (a sequence move into an empty
    /// cascade carries at most free freecells + 1 cards): reproduces their published table.
    OptimalPh,
}

impl From<ModeArg> for Mode {
    fn from(m: ModeArg) -> Mode {
        match m {
            ModeArg::Fast => Mode::Fast,
            ModeArg::Short => Mode::Short,
            ModeArg::Optimal => Mode::Optimal,
            ModeArg::OptimalMoves => Mode::OptimalMoves,
            ModeArg::OptimalPh => Mode::OptimalPh,
        }
    }
}
