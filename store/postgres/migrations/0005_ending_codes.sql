-- Codes, not sentences (N7), as store/sqlite/migrations/0005:
--   status: 'active' or the ending method's code (chess.Method.Code);
--   reason: '' while active, else the outcome's code (chess.Outcome.Code):
--           the method's code, or timeout-no-mate for a drawn timeout (R9).
-- No PostgreSQL database ever held sentences, so there is nothing to
-- rewrite; PostgreSQL can add CHECK constraints to an existing table,
-- which SQLite needed triggers for.
ALTER TABLE games ADD CONSTRAINT games_status_is_code CHECK (status IN (
    'active', 'checkmate', 'stalemate', 'threefold-repetition', 'fifty-move-rule',
    'insufficient-material', 'timeout', 'resignation', 'agreement'));

ALTER TABLE games ADD CONSTRAINT games_reason_is_code CHECK (reason IN (
    '', 'checkmate', 'stalemate', 'threefold-repetition', 'fifty-move-rule',
    'insufficient-material', 'timeout', 'timeout-no-mate', 'resignation', 'agreement'));
