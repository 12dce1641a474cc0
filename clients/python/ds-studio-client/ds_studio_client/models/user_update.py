from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="UserUpdate")



@_attrs_define
class UserUpdate:
    """ 
        Attributes:
            display_name (None | str | Unset):
            password (None | str | Unset): A new password (at least 8 characters).
            old_password (None | str | Unset): The current password: needed to change your own password once you have one (a
                server
                administrator resetting someone else's does not need it). Your other sessions end.
            is_admin (bool | None | Unset): Only a server administrator may change this.
            disabled (bool | None | Unset): Only a server administrator may change this, and not for themselves.
     """

    display_name: None | str | Unset = UNSET
    password: None | str | Unset = UNSET
    old_password: None | str | Unset = UNSET
    is_admin: bool | None | Unset = UNSET
    disabled: bool | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
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

        old_password: None | str | Unset
        if isinstance(self.old_password, Unset):
            old_password = UNSET
        else:
            old_password = self.old_password

        is_admin: bool | None | Unset
        if isinstance(self.is_admin, Unset):
            is_admin = UNSET
        else:
            is_admin = self.is_admin

        disabled: bool | None | Unset
        if isinstance(self.disabled, Unset):
            disabled = UNSET
        else:
            disabled = self.disabled


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if display_name is not UNSET:
            field_dict["display_name"] = display_name
        if password is not UNSET:
            field_dict["password"] = password
        if old_password is not UNSET:
            field_dict["old_password"] = old_password
        if is_admin is not UNSET:
            field_dict["is_admin"] = is_admin
        if disabled is not UNSET:
            field_dict["disabled"] = disabled

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
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


        def _parse_old_password(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        old_password = _parse_old_password(d.pop("old_password", UNSET))


        def _parse_is_admin(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        is_admin = _parse_is_admin(d.pop("is_admin", UNSET))


        def _parse_disabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        disabled = _parse_disabled(d.pop("disabled", UNSET))


        user_update = cls(
            display_name=display_name,
            password=password,
            old_password=old_password,
            is_admin=is_admin,
            disabled=disabled,
        )

        return user_update

