"""The bundled instance sets, installed as the package `loopbench_instances` (data only: see README.md)."""
