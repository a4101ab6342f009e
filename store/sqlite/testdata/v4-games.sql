-- A database written by the code before issue 17 (migrations 0001-0004),
-- with one game for every way a game can end and some that go on, as
-- the old games service stored them: endings and reasons in words.
-- games/testdata/v4-answers.json holds what that service answered for each.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE schema_migrations (
		version    INTEGER PRIMARY KEY,
		name       TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
	);
INSERT INTO schema_migrations VALUES(1,'0001_visitors.sql','2026-12-01T01:34:09.847Z');
INSERT INTO schema_migrations VALUES(2,'0002_progress.sql','2026-12-01T01:34:09.850Z');
INSERT INTO schema_migrations VALUES(3,'0003_quiz.sql','2026-12-01T01:34:09.852Z');
INSERT INTO schema_migrations VALUES(4,'0004_games.sql','2026-12-01T01:34:09.854Z');
CREATE TABLE visitors (
    id         TEXT PRIMARY KEY CHECK (length(id) = 32),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    last_seen  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
INSERT INTO visitors VALUES('0123456789abcdef0123456789abcdef','2026-12-01T01:34:09.855Z','2026-12-01T01:34:09.855Z');
CREATE TABLE lessons_read (
    visitor_id TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    slug       TEXT NOT NULL CHECK (length(slug) BETWEEN 1 AND 100),
    read_at_ms INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, slug)
);
CREATE TABLE exercises_solved (
    visitor_id   TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    exercise_id  TEXT NOT NULL CHECK (length(exercise_id) BETWEEN 1 AND 100),
    lesson       TEXT NOT NULL CHECK (length(lesson) BETWEEN 1 AND 100),
    solved_at_ms INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, exercise_id)
);
CREATE TABLE quiz_rounds (
    id             TEXT PRIMARY KEY CHECK (length(id) = 32),
    visitor_id     TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    questions      TEXT NOT NULL,
    total          INTEGER NOT NULL CHECK (total > 0),
    score          INTEGER NOT NULL DEFAULT 0,
    created_at_ms  INTEGER NOT NULL,
    finished_at_ms INTEGER
);
CREATE TABLE quiz_answers (
    round_id       TEXT NOT NULL REFERENCES quiz_rounds(id) ON DELETE CASCADE,
    idx            INTEGER NOT NULL CHECK (idx >= 0),
    question       TEXT NOT NULL,
    answer         TEXT NOT NULL,
    correct        INTEGER NOT NULL,
    answered_at_ms INTEGER NOT NULL,
    PRIMARY KEY (round_id, idx)
);
CREATE TABLE quiz_history (
    visitor_id    TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    question      TEXT NOT NULL,
    last_correct  INTEGER NOT NULL,
    times_right   INTEGER NOT NULL DEFAULT 0,
    times_wrong   INTEGER NOT NULL DEFAULT 0,
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (visitor_id, question)
);
CREATE TABLE games (
    id               TEXT PRIMARY KEY CHECK (length(id) = 32),
    visitor_id       TEXT NOT NULL REFERENCES visitors(id) ON DELETE CASCADE,
    mode             TEXT NOT NULL CHECK (mode IN ('friend', 'computer')),
    human_color      TEXT NOT NULL CHECK (human_color IN ('white', 'black')),
    level            INTEGER NOT NULL DEFAULT 0,
    clock_name       TEXT NOT NULL DEFAULT 'none',
    clock_base_ms    INTEGER NOT NULL DEFAULT 0,
    clock_inc_ms     INTEGER NOT NULL DEFAULT 0,
    undo_allowed     INTEGER NOT NULL DEFAULT 1,
    pass_screen      INTEGER NOT NULL DEFAULT 0,
    turn_board       INTEGER NOT NULL DEFAULT 0,
    start_fen        TEXT NOT NULL,
    moves            TEXT NOT NULL DEFAULT '',
    ply              INTEGER NOT NULL DEFAULT 0,
    clock_white_ms   INTEGER NOT NULL DEFAULT 0,
    clock_black_ms   INTEGER NOT NULL DEFAULT 0,
    running_since_ms INTEGER,
    clock_snapshots  TEXT NOT NULL DEFAULT '[]',
    draw_offer       TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'active',
    result           TEXT NOT NULL DEFAULT '*',
    reason           TEXT NOT NULL DEFAULT '',
    end_color        TEXT NOT NULL DEFAULT '',
    version          INTEGER NOT NULL DEFAULT 0,
    created_at_ms    INTEGER NOT NULL,
    updated_at_ms    INTEGER NOT NULL
);
INSERT INTO games VALUES('4e262391b0bbb60e871541d15d301474','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','f2f3 e7e5 g2g4 d8h4',4,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0}]','','checkmate','0-1','Black wins by checkmate','',5,1740830400000,1796088849865);
INSERT INTO games VALUES('5ab873ac6b0858349c2de519dd8e1039','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'k7/8/8/2Q5/8/8/8/K7 w - - 0 1','c5c7',1,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0}]','','stalemate','1/2-1/2','Draw by stalemate','',2,1740830401000,1796088849871);
INSERT INTO games VALUES('d32849aba105330d1c00cbdfa4fce715','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8',8,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0}]','','threefold repetition','1/2-1/2','Draw by threefold repetition','',9,1740830402000,1796088849898);
INSERT INTO games VALUES('386cb51f624118f74938c5cc206489c6','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'k7/8/8/8/8/8/8/KR6 w - - 99 80','b1b2',1,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0}]','','fifty-move rule','1/2-1/2','Draw by the fifty-move rule','',2,1740830403000,1796088849906);
INSERT INTO games VALUES('a1efc72fd7ef8ca6902219b61610d3ed','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'5b1k/8/8/8/8/8/1p6/K1B5 w - - 0 1','a1b2',1,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0}]','','insufficient material','1/2-1/2','Draw by insufficient material','',2,1740830404000,1796088849914);
INSERT INTO games VALUES('d8f4bfa4f10b76d670f9bc74571729b7','0123456789abcdef0123456789abcdef','friend','white',0,'3+2',180000,2000,1,1,0,'7k/7p/8/8/8/8/8/KR6 w - - 0 1','',0,0,180000,NULL,'[{"w":180000,"b":180000}]','','timeout','0-1','Black wins on time','white',3,1740830405000,1796088849920);
INSERT INTO games VALUES('f8cbdf665ccfb57a804e6e0426de3319','0123456789abcdef0123456789abcdef','friend','white',0,'3+2',180000,2000,1,1,0,'7k/8/8/8/8/8/8/KQ6 w - - 0 1','',0,0,180000,NULL,'[{"w":180000,"b":180000}]','','timeout','1/2-1/2','Draw: White''s time ran out, but Black could never checkmate','white',3,1740830587000,1796088849930);
INSERT INTO games VALUES('7f74a88ff2360718c57f78944a383d29','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','e2e4',1,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0}]','','resignation','1-0','White wins by resignation','black',3,1740830769000,1796088849935);
INSERT INTO games VALUES('760c2264d1d3f3eb88b2ba8bed093239','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','e2e4 e7e5',2,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0}]','','agreement','1/2-1/2','Draw by agreement','',5,1740830770000,1796088849941);
INSERT INTO games VALUES('b2150fa5336f9c0da0c44b35d18dee8a','0123456789abcdef0123456789abcdef','friend','white',0,'none',0,0,1,1,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','d2d4 d7d5 c2c4',3,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0}]','','active','*','','',4,1740830771000,1796088849948);
INSERT INTO games VALUES('882275128d73788761d9691502a54d90','0123456789abcdef0123456789abcdef','friend','white',0,'5+0',300000,0,1,1,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','e2e4 c7c5',2,300000,300000,NULL,'[{"w":300000,"b":300000},{"w":300000,"b":300000},{"w":300000,"b":300000}]','','active','*','','',3,1740830772000,1796088849955);
INSERT INTO games VALUES('0694bd6fce6dd78ac60e90a5a439c6d9','0123456789abcdef0123456789abcdef','computer','white',3,'none',0,0,1,0,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','e2e4 b8a6',2,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0},{"w":0,"b":0}]','','active','*','','',3,1740830773000,1796088849959);
INSERT INTO games VALUES('9ede4866bc679f081b6af4c42777ea97','0123456789abcdef0123456789abcdef','computer','black',2,'none',0,0,1,0,0,'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1','b1a3',1,0,0,NULL,'[{"w":0,"b":0},{"w":0,"b":0}]','','resignation','1-0','White wins by resignation','black',3,1740830774000,1796088849962);
CREATE INDEX quiz_rounds_by_visitor ON quiz_rounds (visitor_id, finished_at_ms DESC);
CREATE INDEX games_by_visitor ON games (visitor_id, updated_at_ms DESC);
COMMIT;
