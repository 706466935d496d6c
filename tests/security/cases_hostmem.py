"""Host memory held per episode: every host-side buffer has a cap.

The cases live in one module per part (``security/hostmem_<part>_cases.py``, a ``CASES``
tuple; the attacks in ``security/hostmem_<part>.py``); this module gathers them.
"""

from __future__ import annotations

from security.cases import gather_parts

TITLE = "Host memory per episode"

_PARTS = ("hostmem_mlab", "hostmem_env")

CASES = gather_parts(_PARTS)
