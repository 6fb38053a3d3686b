"""Shared test settings: Hypothesis profiles.

Pick one with HYPOTHESIS_PROFILE: "default" (about 25 examples), "ci" (as many, derandomized so
that a CI run is reproducible) or "long" (500 examples, for a soak run). FAST=1 cuts any profile
to a handful of examples for a quick edit-test loop.
"""

from __future__ import annotations

import os
import tempfile

from hypothesis import HealthCheck, settings

# Compiled rules go to a cache of the test run's own, not the user's.
os.environ["BOARDKIT_CACHE_DIR"] = tempfile.mkdtemp(prefix="boardkit-test-cache-")

_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}

settings.register_profile("default", max_examples=25, **_COMMON)
settings.register_profile("ci", max_examples=25, derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("long", max_examples=500, **_COMMON)
settings.register_profile("fast", max_examples=5, **_COMMON)

settings.load_profile("fast" if os.environ.get("FAST") == "1" else os.environ.get("HYPOTHESIS_PROFILE", "default"))
