-- Who referees each board: one instance at a time, for a while, renewed
-- while its camera streams (`expires` in seconds since the epoch).
CREATE TABLE leases (
    board_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires REAL NOT NULL
);
