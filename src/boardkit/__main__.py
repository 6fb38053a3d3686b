"""Runs the command line as ``python -m boardkit``."""

from boardkit.tools.cli import main

# The guard matters: worker processes of ``simulate --jobs`` import this module again.
if __name__ == "__main__":
    raise SystemExit(main())
