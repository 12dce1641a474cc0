from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="SigninLinkCreate")



@_attrs_define
class SigninLinkCreate:
    """ `POST /users/{id}/signin-link`: a one-time sign-in link for a user (a server administrator
    hands it over: an invitation, or a way back in for someone who forgot their password).

        Attributes:
            reset_password (bool | Unset): Also remove the user's password and end their sessions (a reset: the link is then
                the
                only way in, and the user sets a new password after using it).
     """

    reset_password: bool | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        reset_password = self.reset_password


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if reset_password is not UNSET:
            field_dict["reset_password"] = reset_password

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reset_password = d.pop("reset_password", UNSET)

        signin_link_create = cls(
            reset_password=reset_password,
        )

        return signin_link_create

