from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.release_info import ReleaseInfo





T = TypeVar("T", bound="ReleasesResponse")



@_attrs_define
class ReleasesResponse:
    """ `GET /api/v1/deepspeed/releases`: every release, oldest first, and the default.

        Attributes:
            releases (list[ReleaseInfo]):
            default (str): The release a context without `deepspeed_version` is judged for (the newest).
     """

    releases: list[ReleaseInfo]
    default: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.release_info import ReleaseInfo # noqa: PLC0415
        releases = []
        for releases_item_data in self.releases:
            releases_item = releases_item_data.to_dict()
            releases.append(releases_item)



        default = self.default


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "releases": releases,
            "default": default,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.release_info import ReleaseInfo # noqa: PLC0415
        d = dict(src_dict)
        releases = []
        _releases = d.pop("releases")
        for releases_item_data in (_releases):
            releases_item = ReleaseInfo.from_dict(releases_item_data)



            releases.append(releases_item)


        default = d.pop("default")

        releases_response = cls(
            releases=releases,
            default=default,
        )


        releases_response.additional_properties = d
        return releases_response

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
