from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.verdict import Verdict
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.fork_origin import ForkOrigin





T = TypeVar("T", bound="Template")



@_attrs_define
class Template:
    """ 
        Attributes:
            id (int):
            team_id (int):
            team_name (str):
            name (str):
            description (str):
            tags (list[str]):
            head_version (int):
            head_verdict (Verdict): DeepSpeed's verdict on a config, as we predict it.
            created_by (str):
            created_at (str):
            updated_at (str):
            forked_from (ForkOrigin | None | Unset):
     """

    id: int
    team_id: int
    team_name: str
    name: str
    description: str
    tags: list[str]
    head_version: int
    head_verdict: Verdict
    created_by: str
    created_at: str
    updated_at: str
    forked_from: ForkOrigin | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.fork_origin import ForkOrigin # noqa: PLC0415
        id = self.id

        team_id = self.team_id

        team_name = self.team_name

        name = self.name

        description = self.description

        tags = self.tags



        head_version = self.head_version

        head_verdict = self.head_verdict.value

        created_by = self.created_by

        created_at = self.created_at

        updated_at = self.updated_at

        forked_from: dict[str, Any] | None | Unset
        if isinstance(self.forked_from, Unset):
            forked_from = UNSET
        elif isinstance(self.forked_from, ForkOrigin):
            forked_from = self.forked_from.to_dict()
        else:
            forked_from = self.forked_from


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "team_id": team_id,
            "team_name": team_name,
            "name": name,
            "description": description,
            "tags": tags,
            "head_version": head_version,
            "head_verdict": head_verdict,
            "created_by": created_by,
            "created_at": created_at,
            "updated_at": updated_at,
        })
        if forked_from is not UNSET:
            field_dict["forked_from"] = forked_from

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fork_origin import ForkOrigin # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        team_id = d.pop("team_id")

        team_name = d.pop("team_name")

        name = d.pop("name")

        description = d.pop("description")

        tags = cast(list[str], d.pop("tags"))


        head_version = d.pop("head_version")

        head_verdict = Verdict(d.pop("head_verdict"))




        created_by = d.pop("created_by")

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        def _parse_forked_from(data: object) -> ForkOrigin | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                forked_from_type_0 = ForkOrigin.from_dict(data)



                return forked_from_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ForkOrigin | None | Unset, data)

        forked_from = _parse_forked_from(d.pop("forked_from", UNSET))


        template = cls(
            id=id,
            team_id=team_id,
            team_name=team_name,
            name=name,
            description=description,
            tags=tags,
            head_version=head_version,
            head_verdict=head_verdict,
            created_by=created_by,
            created_at=created_at,
            updated_at=updated_at,
            forked_from=forked_from,
        )


        template.additional_properties = d
        return template

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
