PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    variant TEXT NOT NULL,
    start TEXT NOT NULL,
    headers TEXT NOT NULL,
    white TEXT NOT NULL,
    black TEXT NOT NULL,
    actions TEXT NOT NULL DEFAULT '',
    n_actions INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    termination TEXT,
    clock TEXT,
    puzzle TEXT
);
CREATE TABLE IF NOT EXISTS puzzle_status (
    puzzle TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    updated TEXT NOT NULL
);
-- A game as the first release stored it: one action played, no seats.
INSERT INTO games (created, updated, variant, start, headers, white, black, actions, n_actions, result, termination, clock, puzzle)
VALUES ('2026-01-02 03:04:05', '2026-01-02 03:04:05', 'custom',
        '[Board "custom"]
[Size "5x5"]
[4k/5/5/5/K1R2:0:1:w]
', '[]', '{"type":"human","name":"Old White"}', '{"type":"human","name":"Old Black"}',
        '(0T1)a1(0T1)a2
', 1, NULL, NULL, NULL, NULL);
INSERT INTO puzzle_status (puzzle, status, updated) VALUES ('rook-tactics-1', 'solved', '2026-01-02 03:04:05');
