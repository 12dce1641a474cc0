from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.version import Version





T = TypeVar("T", bound="SharedView")



@_attrs_define
class SharedView:
    """ What a share link shows: the template's name and description, and the version.

        Attributes:
            template_name (str):
            description (str):
            tags (list[str]):
            team_name (str):
            version (Version): One immutable version: the text exactly as saved, its parsed value and its diagnostics.
            expires_at (None | str | Unset):
     """

    template_name: str
    description: str
    tags: list[str]
    team_name: str
    version: Version
    expires_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.version import Version # noqa: PLC0415
        template_name = self.template_name

        description = self.description

        tags = self.tags



        team_name = self.team_name

        version = self.version.to_dict()

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = self.expires_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "template_name": template_name,
            "description": description,
            "tags": tags,
            "team_name": team_name,
            "version": version,
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.version import Version # noqa: PLC0415
        d = dict(src_dict)
        template_name = d.pop("template_name")

        description = d.pop("description")

        tags = cast(list[str], d.pop("tags"))


        team_name = d.pop("team_name")

        version = Version.from_dict(d.pop("version"))




        def _parse_expires_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        shared_view = cls(
            template_name=template_name,
            description=description,
            tags=tags,
            team_name=team_name,
            version=version,
            expires_at=expires_at,
        )


        shared_view.additional_properties = d
        return shared_view

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
