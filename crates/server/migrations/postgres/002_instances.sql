-- What many instances on one database share beyond the record: who
-- referees each board (a lease, renewed while its camera streams; expires
-- in seconds since the epoch by the database's clock), the calls one
-- instance hands to another, and the evidence files every instance serves.
CREATE TABLE leases (
    board_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE TABLE calls (
    id BIGSERIAL PRIMARY KEY,
    holder TEXT NOT NULL,
    call BYTEA NOT NULL,
    answer BYTEA,
    asked DOUBLE PRECISION NOT NULL
);
CREATE TABLE evidence (
    name TEXT PRIMARY KEY,
    bytes BYTEA NOT NULL
);
