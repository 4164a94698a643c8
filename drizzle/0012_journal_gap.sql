-- Custom SQL migration file, put your code below! --
-- No migration 0012 was ever written: the journal skipped from 0011 to 0013, and drizzle-kit numbers
-- the next migration from the journal, so the gap is filled with this no-op to keep tags, indexes
-- and files in step. Data directories migrated before it skip it (it is older than 0013/0014).
SELECT 1;
