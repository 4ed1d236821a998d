"""The benchmarks are run by hand (``python tests/benchmarks/run.py``), never by pytest."""

collect_ignore_glob = ["*.py"]
