#!/usr/bin/env python3
"""Gives one account 40 000 finished Quoridor games of 60 moves, straight
into a stopped server's SQLite file, for timing its profile and history
(BENCHMARKS.md, "Profiles and histories at 40 000 games").

    python3 bench/fill-heavy-account.py DATA_DIR USERNAME [GAMES]

The account and one room of theirs must exist (made through the API
first); the games are written as a finished game writes them
(`games`, `game_players`, `account_games`)."""
import json
import random
import sqlite3
import sys
import uuid

data_dir, username = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 40_000
db = sqlite3.connect(f"{data_dir}/site.db")
account = db.execute("SELECT id FROM accounts WHERE username = ?", (username,)).fetchone()[0]
room = db.execute("SELECT code FROM rooms").fetchone()[0]
moves = json.dumps(["e2", "e8", "e3", "e7", "d3h", "c6v"] * 10)
base = 1_760_000_000_000
games, players, mine = [], [], []
for n in range(1, count + 1):
    game_id = str(uuid.uuid4())
    winner = random.randint(0, 1)
    outcome = json.dumps({"kind": "win", "winner": winner, "reason": "goal"})
    ended = base + n * 1000
    games.append((room, n, "quoridor", '{"game":"quoridor"}', json.dumps([username, "Computer"]),
                  moves, outcome, ended - 60_000, ended, game_id, "[]", "[]", 0, "[]"))
    players.append((game_id, room, 0, 1, account))
    players.append((game_id, room, 1, 2, None))
    mine.append((account, game_id, "quoridor", 0, "win" if winner == 0 else "loss", ended, game_id))
db.executemany(
    "INSERT INTO games (room_code, number, game, options, players, moves, outcome, started_at,"
    " ended_at, game_id, sides, leaves, rated, takebacks) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    games)
db.executemany(
    "INSERT INTO game_players (game_id, room_code, side, member, account_id) VALUES (?,?,?,?,?)",
    players)
db.executemany(
    "INSERT INTO account_games (account_id, game_id, game, side, result, ended_at, seq)"
    " SELECT ?, ?, ?, ?, ?, ?, id FROM games WHERE game_id = ?", mine)
db.commit()
print(db.execute("SELECT COUNT(*) FROM account_games WHERE account_id = ?", (account,)).fetchone()[0],
      "games for", username)
