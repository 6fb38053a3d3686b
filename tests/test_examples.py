"""Every script in examples/ runs to completion, as a user would run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parents[1] / "examples").glob("*.py"))
# Short arguments keep the suite fast; each script's default is for a person reading output.
ARGS = {"compare_variant.py": ["6"],
        "learn_connect_four.py": ["--episodes", "20", "--every", "10", "--eval", "4"]}


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda p: p.name)
def test_example_runs(script: Path) -> None:
    done = subprocess.run([sys.executable, str(script), *ARGS.get(script.name, [])],
                          capture_output=True, text=True, timeout=900, check=False)  # an outer guard against a hang only
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
    assert "Traceback" not in done.stderr
