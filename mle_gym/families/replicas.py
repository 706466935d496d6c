"""What families with generated data variants share: the ``replica_seed`` option.

A family whose tasks have offline replicas (generated per seed) takes ``replica_seed``
as an option (``gym.make(id, replica_seed=3)``: the env's default variant) and as a reset
option (``reset(options={"replica_seed": 4})``: this episode's). Its options model
subclasses :class:`ReplicaSeedOptions` and the family class puts :class:`ReplicaVariants`
before :class:`~mle_gym.families.base.TaskFamily` in its bases.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from mle_gym.task_folders import whole_number

if TYPE_CHECKING:
    from mle_gym.families.base import Episode, TaskFamily

    _Base = TaskFamily
else:
    _Base = object


def _whole_number(value: Any) -> int:
    """The ``replica_seed`` option as given: an int (numpy's too), never a bool, a float
    or a string (``True``, ``1.0`` or ``"3"`` is refused, not read as 1, 1 or 3)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise PydanticCustomError("int_type", "Input should be a valid integer (an int)")
    return int(value)


class ReplicaSeedOptions(BaseModel):
    """Options of a family with replicas: ``replica_seed``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    replica_seed: Annotated[int, BeforeValidator(_whole_number)] = Field(
        0, description="which variant of the offline replica to use"
    )


class ReplicaVariants(_Base):
    """The ``replica_seed`` reset option and trajectory field (see module docstring)."""

    reset_options: ClassVar[tuple[str, ...]] = ("replica_seed",)

    def parse_reset_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The reset options with ``replica_seed`` always set (the env's option when the
        reset does not give one); ValueError for one that is not a whole number."""
        parsed = super().parse_reset_options(options)
        given = parsed.get("replica_seed", self.replica_seed)
        seed = whole_number(given)
        if seed is None:
            raise ValueError(f"replica_seed must be an integer, got {given!r}")
        parsed["replica_seed"] = seed
        return parsed

    def episode_record(self, episode: Episode) -> dict[str, Any]:
        """``replica_seed``: the variant, when the episode runs on replica data."""
        seed = episode.options.get("replica_seed")
        return {"replica_seed": seed if episode.data_source == "replica" else None}
