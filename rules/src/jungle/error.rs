//! Why a move was refused, worded for the player.

use super::moves::Move;
use super::role::Role;
use super::square::Square;

/// Why [`Jungle::play`](super::Jungle) refused a move. The state is
/// unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("there is no animal on {square}")]
    NoAnimal { square: Square },
    #[error("the animal on {square} is not yours")]
    NotYourAnimal { square: Square },
    #[error("the animal on {square} is your {found} ({}), not rank {}", found.rank(), written.rank())]
    WrongAnimal {
        square: Square,
        written: Role,
        found: Role,
    },
    #[error("you may not enter your own den")]
    OwnDen,
    #[error("the {role} moves one square orthogonally{}", if role.jumps() { " or jumps straight across a river" } else { "" })]
    Unreachable { role: Role },
    #[error("only the rat may enter the water, not the {role}")]
    Water { role: Role },
    #[error("a rat in the water blocks the jump")]
    JumpBlocked,
    #[error("your own animal stands on {square}")]
    OwnAnimal { square: Square },
    #[error("your {attacker} cannot capture the {victim} there")]
    CannotCapture { attacker: Role, victim: Role },
    #[error("{}", if *capture { "this move captures: write it with 'x'" } else { "nothing to capture there: write the move with '-'" })]
    CaptureMark { capture: bool },
    #[error("shuttle limit: the same animal has gone back and forth three times, it may not play {banned} now")]
    ShuttleLimit { banned: Move },
}
