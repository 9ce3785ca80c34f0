"""Reading results: the database as pandas (results), summaries, ranking, unsat verdicts, plots, statistics,
and measured runs beside a published table (side_by_side)."""
