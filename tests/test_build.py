"""Which build of the runtime the tests run: CI runs the suite on both (.ci/run)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from boardkit.runtime import runtime_compiled


def test_the_suite_runs_the_build_it_was_asked_to() -> None:
    wanted = os.environ.get("BOARDKIT_BUILD")
    if wanted is None:
        pytest.skip("BOARDKIT_BUILD is not set: the suite runs whichever build is installed")
    assert wanted in {"pure", "compiled"}
    assert runtime_compiled() == (wanted == "compiled")


def test_the_version_names_the_build() -> None:
    out = subprocess.run([sys.executable, "-m", "boardkit", "--version"], capture_output=True, text=True,
                         check=True, timeout=600).stdout  # an outer guard against a hang only
    assert out.strip().endswith("(compiled runtime)" if runtime_compiled() else "(pure Python)")
