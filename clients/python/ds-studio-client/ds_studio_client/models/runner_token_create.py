from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunnerTokenCreate")



@_attrs_define
class RunnerTokenCreate:
    """ `POST /api/v1/runner-tokens` (server admins): a credential for one runner.

        Attributes:
            runner (str): The runner name it registers as (1-64 letters, digits, `-`, `_`, `.`; not `local`). Example:
                gpu-a.
            team_id (int | None | Unset): Only this team's jobs; leave out for every team's.
     """

    runner: str
    team_id: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        runner = self.runner

        team_id: int | None | Unset
        if isinstance(self.team_id, Unset):
            team_id = UNSET
        else:
            team_id = self.team_id


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "runner": runner,
        })
        if team_id is not UNSET:
            field_dict["team_id"] = team_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        runner = d.pop("runner")

        def _parse_team_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        team_id = _parse_team_id(d.pop("team_id", UNSET))


        runner_token_create = cls(
            runner=runner,
            team_id=team_id,
        )

        return runner_token_create

