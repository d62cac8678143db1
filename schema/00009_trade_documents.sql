-- A trade's documents (DESIGN §13): screenshots and other files of the
-- caller's, linked to a trade in the order given, as chart books and payouts
-- link theirs. Deleting a document unlinks it; deleting a trade keeps its
-- documents. The primary key serves a trade's documents and their count;
-- the second index serves a document's trades, which its delete counts and
-- its cascade finds.
--
-- A trade's listing (schema 7) gains "document_count", always 0 as stored:
-- a document deleted elsewhere changes the count without a save of the
-- trade, so a page of the list puts in the counts that are not 0, as it
-- does the tags. Existing listings get the field where the encoding of a
-- trade puts it, before its tags; JSON escapes the quotes of every string
-- value, so the text replaced occurs nowhere else in a listing.

-- +goose Up
CREATE TABLE trade_documents (
    trade_id    TEXT NOT NULL REFERENCES trades (id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    PRIMARY KEY (trade_id, document_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX trade_documents_document ON trade_documents (document_id);

UPDATE trades SET listing = CAST(replace(CAST(listing AS TEXT), ',"tags":[],"created_at":',
    ',"document_count":0,"tags":[],"created_at":') AS BLOB)
    WHERE listing IS NOT NULL;

-- +goose Down
UPDATE trades SET listing = CAST(replace(CAST(listing AS TEXT), ',"document_count":0,"tags":[],"created_at":',
    ',"tags":[],"created_at":') AS BLOB)
    WHERE listing IS NOT NULL;
DROP TABLE trade_documents;
