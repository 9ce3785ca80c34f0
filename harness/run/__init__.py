"""Running sweeps: one run (execute), workers and their supervisors, executors, the sweep, its store.

`python -m harness.run` is the sweep command line (`harness.run.cli`). This package imports
nothing at load time, so a worker (`python -m harness.run.worker`) starts light.
"""
