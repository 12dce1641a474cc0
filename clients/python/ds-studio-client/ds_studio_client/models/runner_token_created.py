from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RunnerTokenCreated")



@_attrs_define
class RunnerTokenCreated:
    """ A new runner token: `token` is shown this once.

        Attributes:
            id (int):
            runner (str):
            prefix (str): The first characters of the token, to recognise it.
            created_at (str):
            revoked (bool):
            token (str):
            team_id (int | None | Unset):
            last_used_at (None | str | Unset):
     """

    id: int
    runner: str
    prefix: str
    created_at: str
    revoked: bool
    token: str
    team_id: int | None | Unset = UNSET
    last_used_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        runner = self.runner

        prefix = self.prefix

        created_at = self.created_at

        revoked = self.revoked

        token = self.token

        team_id: int | None | Unset
        if isinstance(self.team_id, Unset):
            team_id = UNSET
        else:
            team_id = self.team_id

        last_used_at: None | str | Unset
        if isinstance(self.last_used_at, Unset):
            last_used_at = UNSET
        else:
            last_used_at = self.last_used_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "runner": runner,
            "prefix": prefix,
            "created_at": created_at,
            "revoked": revoked,
            "token": token,
        })
        if team_id is not UNSET:
            field_dict["team_id"] = team_id
        if last_used_at is not UNSET:
            field_dict["last_used_at"] = last_used_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        runner = d.pop("runner")

        prefix = d.pop("prefix")

        created_at = d.pop("created_at")

        revoked = d.pop("revoked")

        token = d.pop("token")

        def _parse_team_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        team_id = _parse_team_id(d.pop("team_id", UNSET))


        def _parse_last_used_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at", UNSET))


        runner_token_created = cls(
            id=id,
            runner=runner,
            prefix=prefix,
            created_at=created_at,
            revoked=revoked,
            token=token,
            team_id=team_id,
            last_used_at=last_used_at,
        )


        runner_token_created.additional_properties = d
        return runner_token_created

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
