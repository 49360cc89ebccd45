"""The offline strategy: a deterministic exploration policy with an extractive, cited
answer. No network, no key, no model: it is the `offline` backend, and not an LLM.

`OfflineLLM` is the policy; `Tuning` holds every number it uses.
"""

from fsnb.offline.policy import OfflineLLM
from fsnb.offline.tuning import Tuning

__all__ = ["OfflineLLM", "Tuning"]
