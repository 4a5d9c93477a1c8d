-- The record: games, their logs, the tables derived from the logs, and the
-- announced events waiting for their place.
CREATE TABLE games (
    position BIGSERIAL UNIQUE,
    id TEXT PRIMARY KEY,
    board_id TEXT NOT NULL,
    state TEXT NOT NULL,
    result TEXT NOT NULL,
    opened DOUBLE PRECISION NOT NULL,
    game BYTEA NOT NULL
);
CREATE TABLE updates (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    body BYTEA NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE events (
    game_id TEXT NOT NULL, seq BIGINT NOT NULL, t DOUBLE PRECISION NOT NULL, type TEXT NOT NULL,
    square TEXT, piece TEXT, side TEXT, confidence REAL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE moves (
    game_id TEXT NOT NULL, ply BIGINT NOT NULL, side TEXT NOT NULL,
    san TEXT NOT NULL, uci TEXT NOT NULL, t DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE incidents (
    id TEXT PRIMARY KEY, game_id TEXT NOT NULL, ply BIGINT NOT NULL, side TEXT NOT NULL,
    kind TEXT NOT NULL, article TEXT NOT NULL, squares TEXT NOT NULL, t DOUBLE PRECISION NOT NULL,
    claimable BOOLEAN NOT NULL, detail TEXT NOT NULL, evidence TEXT NOT NULL
);
CREATE TABLE decisions (
    incident_id TEXT NOT NULL, seq BIGINT NOT NULL, decision TEXT NOT NULL,
    note TEXT NOT NULL, decided_by TEXT NOT NULL, decided_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE waiting (
    game_id TEXT NOT NULL, position BIGINT NOT NULL, event BYTEA NOT NULL,
    PRIMARY KEY (game_id, position)
);
CREATE TABLE corrections (
    game_id TEXT NOT NULL, seq BIGINT NOT NULL, ply BIGINT NOT NULL, uci TEXT NOT NULL,
    san TEXT NOT NULL, note TEXT NOT NULL, corrected_by TEXT NOT NULL,
    corrected_at DOUBLE PRECISION NOT NULL
);
