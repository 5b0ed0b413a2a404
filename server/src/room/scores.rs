//! The room's cumulative scoreboard. A row belongs to a person: the
//! account when they were signed in, otherwise the browser's member, so two
//! guests called "Minh" keep two rows and a renamed player keeps theirs.
//! The row shows the person's current name.

use rules::{Game, Outcome};

use super::event::{Effect, Event};
use super::state::RoomState;
use super::table::Match;
use super::views::ScoreView;
use crate::model::ids::MemberId;
use crate::model::records::{Person, ScoreRow};
use crate::store::Write;

impl RoomState {
    /// Whose row `member`'s results go to.
    pub fn person_of(&self, member: MemberId) -> Person {
        match self.member(member).and_then(|m| m.account.as_ref()) {
            Some(account) => Person::Account(account.id),
            None => Person::Member(member),
        }
    }

    /// Whether `member` has a row (a guest with a score is kept).
    pub fn has_score(&self, member: MemberId) -> bool {
        self.scores
            .iter()
            .any(|r| r.person == Person::Member(member))
    }

    /// `member`'s scoreboard row (created if they have none), its name and
    /// account brought up to date (`fallback` names a member who is gone).
    pub fn score_row(&mut self, member: MemberId, fallback: &str) -> &mut ScoreRow {
        let person = self.person_of(member);
        let m = self.member(member);
        let account = m
            .and_then(|m| m.account.as_ref())
            .map(|a| a.username.clone());
        let name = m
            .and_then(|m| m.name.clone())
            .unwrap_or_else(|| fallback.to_string());
        let i = match self.scores.iter().position(|r| r.person == person) {
            Some(i) => i,
            None => {
                self.scores.push(ScoreRow {
                    person,
                    name: name.clone(),
                    account: None,
                    points: 0,
                    wins: 0,
                    draws: 0,
                    losses: 0,
                });
                self.scores.len() - 1
            }
        };
        let row = &mut self.scores[i];
        row.name = name;
        row.account = account.or(row.account.take());
        row
    }

    /// Adds a finished game to the scoreboard: every player of a side (each
    /// member of a team) gets the side's points and its result.
    pub fn record_scores(&mut self, game: &Match, effects: &mut Vec<Effect>) {
        let Some(outcome) = game.game.outcome().cloned() else {
            return;
        };
        if matches!(outcome, Outcome::Aborted { .. }) {
            return;
        }
        let points = game.game.points();
        for (side, team) in game.sides.iter().enumerate() {
            for player in team {
                let row = self.score_row(player.member, &player.name);
                row.points += points
                    .as_ref()
                    .and_then(|p| p.get(side))
                    .copied()
                    .unwrap_or(0);
                match outcome.winner() {
                    Some(w) if w.index() == side => row.wins += 1,
                    Some(_) => row.losses += 1,
                    None => row.draws += 1,
                }
                effects.push(Effect::Persist(Write::Score(row.clone())));
            }
        }
        let scores = self.scores_view();
        self.emit(effects, Event::Scores { scores });
    }

    /// The scoreboard, best first, each row under its person's current
    /// name.
    pub fn scores_view(&self) -> Vec<ScoreView> {
        let mut rows: Vec<ScoreView> = self
            .scores
            .iter()
            .map(|r| {
                let current = match &r.person {
                    Person::Member(id) => self.member(*id),
                    Person::Account(a) => self
                        .members
                        .iter()
                        .find(|m| m.account.as_ref().is_some_and(|acc| acc.id == *a)),
                };
                ScoreView {
                    name: current
                        .and_then(|m| m.name.clone())
                        .unwrap_or_else(|| r.name.clone()),
                    member: match r.person {
                        Person::Member(id) => Some(id),
                        Person::Account(_) => None,
                    },
                    account: r.account.clone(),
                    points: r.points,
                    wins: r.wins,
                    draws: r.draws,
                    losses: r.losses,
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.points
                .cmp(&a.points)
                .then(b.wins.cmp(&a.wins))
                .then(a.name.cmp(&b.name))
        });
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn person_keys_round_trip() {
        for p in [Person::Account(12), Person::Member(MemberId(3))] {
            assert_eq!(Person::from_key(&p.key()), Some(p));
        }
        assert_eq!(Person::from_key("x:1"), None);
        assert_eq!(Person::from_key("m:x"), None);
    }
}
