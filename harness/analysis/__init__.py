"""Reading results: the database as pandas (results), summaries, unsat verdicts, plots and statistics."""
