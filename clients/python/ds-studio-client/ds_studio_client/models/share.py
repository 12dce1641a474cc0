from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="Share")



@_attrs_define
class Share:
    """ 
        Attributes:
            id (int):
            template_id (int):
            version (int):
            prefix (str):
            created_by (str):
            created_at (str):
            revoked (bool):
            expires_at (None | str | Unset):
     """

    id: int
    template_id: int
    version: int
    prefix: str
    created_by: str
    created_at: str
    revoked: bool
    expires_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        template_id = self.template_id

        version = self.version

        prefix = self.prefix

        created_by = self.created_by

        created_at = self.created_at

        revoked = self.revoked

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = self.expires_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "template_id": template_id,
            "version": version,
            "prefix": prefix,
            "created_by": created_by,
            "created_at": created_at,
            "revoked": revoked,
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        template_id = d.pop("template_id")

        version = d.pop("version")

        prefix = d.pop("prefix")

        created_by = d.pop("created_by")

        created_at = d.pop("created_at")

        revoked = d.pop("revoked")

        def _parse_expires_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        share = cls(
            id=id,
            template_id=template_id,
            version=version,
            prefix=prefix,
            created_by=created_by,
            created_at=created_at,
            revoked=revoked,
            expires_at=expires_at,
        )


        share.additional_properties = d
        return share

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
