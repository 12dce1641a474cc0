from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="User")



@_attrs_define
class User:
    """ 
        Attributes:
            id (int):
            name (str):
            display_name (str):
            is_admin (bool): A server administrator (every team, every user).
            has_password (bool):
            created_at (str):
            disabled (bool | Unset): A disabled user cannot sign in, and their sessions, tokens and links stop working
                (nothing of theirs is deleted; a server administrator enables them again).
     """

    id: int
    name: str
    display_name: str
    is_admin: bool
    has_password: bool
    created_at: str
    disabled: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        display_name = self.display_name

        is_admin = self.is_admin

        has_password = self.has_password

        created_at = self.created_at

        disabled = self.disabled


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "display_name": display_name,
            "is_admin": is_admin,
            "has_password": has_password,
            "created_at": created_at,
        })
        if disabled is not UNSET:
            field_dict["disabled"] = disabled

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        display_name = d.pop("display_name")

        is_admin = d.pop("is_admin")

        has_password = d.pop("has_password")

        created_at = d.pop("created_at")

        disabled = d.pop("disabled", UNSET)

        user = cls(
            id=id,
            name=name,
            display_name=display_name,
            is_admin=is_admin,
            has_password=has_password,
            created_at=created_at,
            disabled=disabled,
        )


        user.additional_properties = d
        return user

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
