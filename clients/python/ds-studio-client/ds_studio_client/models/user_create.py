from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.role import Role
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UserCreate")



@_attrs_define
class UserCreate:
    """ 
        Attributes:
            name (str):
            display_name (None | str | Unset):
            password (None | str | Unset):
            is_admin (bool | Unset):
            team_id (int | None | Unset): Also add the new user to this team (with `role`, default editor): one step instead
                of
                two.
            role (None | Role | Unset):
     """

    name: str
    display_name: None | str | Unset = UNSET
    password: None | str | Unset = UNSET
    is_admin: bool | Unset = UNSET
    team_id: int | None | Unset = UNSET
    role: None | Role | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        name = self.name

        display_name: None | str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        password: None | str | Unset
        if isinstance(self.password, Unset):
            password = UNSET
        else:
            password = self.password

        is_admin = self.is_admin

        team_id: int | None | Unset
        if isinstance(self.team_id, Unset):
            team_id = UNSET
        else:
            team_id = self.team_id

        role: None | str | Unset
        if isinstance(self.role, Unset):
            role = UNSET
        elif isinstance(self.role, Role):
            role = self.role.value
        else:
            role = self.role


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "name": name,
        })
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if password is not UNSET:
            field_dict["password"] = password
        if is_admin is not UNSET:
            field_dict["is_admin"] = is_admin
        if team_id is not UNSET:
            field_dict["team_id"] = team_id
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_display_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))


        def _parse_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        password = _parse_password(d.pop("password", UNSET))


        is_admin = d.pop("is_admin", UNSET)

        def _parse_team_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        team_id = _parse_team_id(d.pop("team_id", UNSET))


        def _parse_role(data: object) -> None | Role | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                role_type_0 = Role(data)



                return role_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Role | Unset, data)

        role = _parse_role(d.pop("role", UNSET))


        user_create = cls(
            name=name,
            display_name=display_name,
            password=password,
            is_admin=is_admin,
            team_id=team_id,
            role=role,
        )

        return user_create

