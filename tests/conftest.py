"""Test-wide settings: property tests explore random examples on a developer's machine and a fixed set in CI.

Hypothesis draws new examples on every run; in CI (``CI`` set, as ``.ci/run`` does) it draws the same ones each time
(``derandomize``), so that a run's verdict does not depend on the luck of the draw. A random example that fails
locally is kept in ``.hypothesis/`` and tried first on the next runs until it is mended."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
