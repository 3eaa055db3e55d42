#!/usr/bin/env bash
# The aggregate-first pipeline (docs/large-data.md), end to end with SQLite:
#   raw rows in a database -> GROUP BY in the engine -> expmech score --aggregated
#   -> expmech sample --seed 1
# and the proof that it is the same computation: the scenario is byte-identical to the
# row-level `expmech score` on the same rows exported as CSV, and so are the draws.
#
# usage: bash examples/sqlite/pipeline.sh [EXPMECH]   (default: build/expmech)
# Exit status 0 when every comparison holds.  Run by tests/test_score_aggregated.c.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
E=${1:-$here/../../build/expmech}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# 1. Raw rows: 5000 visits with a browser and the visitor's age (a deterministic mix).
sqlite3 visits.db <<'SQL'
CREATE TABLE visits(id INTEGER PRIMARY KEY, browser TEXT NOT NULL, age INTEGER NOT NULL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
INSERT INTO visits(browser, age)
SELECT CASE WHEN i % 7 < 3 THEN 'firefox' WHEN i % 7 < 5 THEN 'chrome'
            WHEN i % 7 = 5 THEN 'safari' ELSE 'lynx, text' END,
       18 + (i * 37) % 61
FROM n;
SQL

# The candidates are fixed before looking at the data (that is what keeps the output
# private): a list of browsers, and ages 0..100.
printf 'firefox\nchrome\nsafari\nlynx, text\nedge\n' > browsers.txt

same() { # same A B WHAT: byte-identical or fail loudly
    cmp -s "$1" "$2" || { echo "pipeline: $3 differ:"; diff "$1" "$2" | head -20; exit 1; }
}

# 2. The GROUP BY runs in the engine; expmech reads only one line per value.
sqlite3 -csv visits.db "SELECT browser, COUNT(*) FROM visits GROUP BY browser" > browser.agg
sqlite3 -csv visits.db "SELECT age, COUNT(*) FROM visits GROUP BY age" > age.agg

# 3. Score the aggregates, 4. sample from them.
"$E" score count --data browser.agg --aggregated --candidates browsers.txt > mode.agg.scn
"$E" score median --data age.agg --aggregated --candidates 0:100 > median.agg.scn
"$E" score median --data age.agg --aggregated --range 0:100 > median-range.agg.scn
"$E" sample --epsilon 1 --seed 1 -n 5 mode.agg.scn > mode.agg.draws
"$E" sample --epsilon 1 --seed 1 -n 5 median.agg.scn > median.agg.draws

# The row-level path on the same rows, exported as CSV (with a header line).
sqlite3 -header -csv visits.db "SELECT browser, age FROM visits" > rows.csv
"$E" score count --data rows.csv --column browser --candidates browsers.txt > mode.rows.scn
"$E" score median --data rows.csv --column age --candidates 0:100 > median.rows.scn
"$E" score median --data rows.csv --column age --range 0:100 > median-range.rows.scn
"$E" sample --epsilon 1 --seed 1 -n 5 mode.rows.scn > mode.rows.draws
"$E" sample --epsilon 1 --seed 1 -n 5 median.rows.scn > median.rows.draws

same mode.agg.scn mode.rows.scn "the count scenarios"
same median.agg.scn median.rows.scn "the median scenarios"
same median-range.agg.scn median-range.rows.scn "the median --range scenarios"
same mode.agg.draws mode.rows.draws "the draws from the count scenario"
same median.agg.draws median.rows.draws "the draws from the median scenario"

echo "pipeline: $(wc -l < browser.agg) + $(wc -l < age.agg) aggregate lines for $(($(wc -l < rows.csv) - 1)) rows;" \
     "scenarios and draws identical to the row-level path"
echo "most common browser (epsilon 1): $(head -1 mode.agg.draws); median age: $(head -1 median.agg.draws)"
