-- Codes, not sentences (N7). Until now games.status held the ending in
-- words ("threefold repetition") and games.reason the sentence a person
-- reads ("Draw by threefold repetition"), so rewording the site would have
-- changed what stored games mean. From now on:
--   status: 'active' or the ending method's code (chess.Method.Code):
--           checkmate, stalemate, threefold-repetition, fifty-move-rule,
--           insufficient-material, timeout, resignation, agreement;
--   reason: '' while active, else the outcome's code (chess.Outcome.Code):
--           the method's code, or timeout-no-mate for a timeout that is a
--           draw because the other side could never checkmate (R9).
-- Sentences are built from these codes when a page or the API needs one.
UPDATE games SET status = CASE status
    WHEN 'threefold repetition'  THEN 'threefold-repetition'
    WHEN 'fifty-move rule'       THEN 'fifty-move-rule'
    WHEN 'insufficient material' THEN 'insufficient-material'
    ELSE status
END;

UPDATE games SET reason = CASE
    WHEN status = 'active'                         THEN ''
    WHEN status = 'timeout' AND result = '1/2-1/2' THEN 'timeout-no-mate'
    ELSE status
END;

-- SQLite cannot add a CHECK to an existing table, so triggers refuse any
-- other value, on insert and on update alike.
CREATE TRIGGER games_status_is_code_on_insert BEFORE INSERT ON games
WHEN NEW.status NOT IN ('active', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'resignation', 'agreement')
  OR NEW.reason NOT IN ('', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'timeout-no-mate',
        'resignation', 'agreement')
BEGIN
    SELECT RAISE(ABORT, 'games: status and reason must be ending codes');
END;

CREATE TRIGGER games_status_is_code_on_update BEFORE UPDATE OF status, reason ON games
WHEN NEW.status NOT IN ('active', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'resignation', 'agreement')
  OR NEW.reason NOT IN ('', 'checkmate', 'stalemate', 'threefold-repetition',
        'fifty-move-rule', 'insufficient-material', 'timeout', 'timeout-no-mate',
        'resignation', 'agreement')
BEGIN
    SELECT RAISE(ABORT, 'games: status and reason must be ending codes');
END;
