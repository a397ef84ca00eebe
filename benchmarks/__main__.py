"""``python -m benchmarks NAME [ARGS...]``: run one benchmark (no name lists them all)."""

import sys

from benchmarks.registry import main

sys.exit(main(sys.argv[1:]))
