-- The record: games, their logs, the tables derived from the logs, and the
-- announced events waiting for their place. (IF NOT EXISTS: files written
-- before migrations were numbered adopt this one as they are.)
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    board_id TEXT NOT NULL,
    state TEXT NOT NULL,
    result TEXT NOT NULL,
    opened INTEGER NOT NULL,
    game BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS updates (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL, seq INTEGER NOT NULL, t REAL NOT NULL, type TEXT NOT NULL,
    square TEXT, piece TEXT, side TEXT, confidence REAL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL, ply INTEGER NOT NULL, side TEXT NOT NULL,
    san TEXT NOT NULL, uci TEXT NOT NULL, t REAL NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS incidents (
    id TEXT PRIMARY KEY, game_id TEXT NOT NULL, ply INTEGER NOT NULL, side TEXT NOT NULL,
    kind TEXT NOT NULL, article TEXT NOT NULL, squares TEXT NOT NULL, t REAL NOT NULL,
    claimable INTEGER NOT NULL, detail TEXT NOT NULL, evidence TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS decisions (
    incident_id TEXT NOT NULL, seq INTEGER NOT NULL, decision TEXT NOT NULL,
    note TEXT NOT NULL, decided_by TEXT NOT NULL, decided_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS waiting (
    game_id TEXT NOT NULL, position INTEGER NOT NULL, event BLOB NOT NULL,
    PRIMARY KEY (game_id, position)
);
CREATE TABLE IF NOT EXISTS corrections (
    game_id TEXT NOT NULL, seq INTEGER NOT NULL, ply INTEGER NOT NULL, uci TEXT NOT NULL,
    san TEXT NOT NULL, note TEXT NOT NULL, corrected_by TEXT NOT NULL, corrected_at REAL NOT NULL
);
