from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.role import Role






T = TypeVar("T", bound="MemberAdd")



@_attrs_define
class MemberAdd:
    """ `POST /teams/{id}/members`: a user, by name, and their role.

        Attributes:
            user (str):
            role (Role): A member's role in a team: viewers read, editors also save and share, admins also manage
                members and delete templates.
     """

    user: str
    role: Role





    def to_dict(self) -> dict[str, Any]:
        user = self.user

        role = self.role.value


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "user": user,
            "role": role,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        user = d.pop("user")

        role = Role(d.pop("role"))




        member_add = cls(
            user=user,
            role=role,
        )

        return member_add

