from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="TokenCreated")



@_attrs_define
class TokenCreated:
    """ A new token: `token` is shown this once.

        Attributes:
            id (int):
            user_id (int):
            name (str):
            prefix (str): The first characters of the token, to recognise it (the token itself is never stored).
            created_at (str):
            revoked (bool):
            token (str):
            expires_at (None | str | Unset):
            last_used_at (None | str | Unset):
     """

    id: int
    user_id: int
    name: str
    prefix: str
    created_at: str
    revoked: bool
    token: str
    expires_at: None | str | Unset = UNSET
    last_used_at: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        id = self.id

        user_id = self.user_id

        name = self.name

        prefix = self.prefix

        created_at = self.created_at

        revoked = self.revoked

        token = self.token

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        else:
            expires_at = self.expires_at

        last_used_at: None | str | Unset
        if isinstance(self.last_used_at, Unset):
            last_used_at = UNSET
        else:
            last_used_at = self.last_used_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "user_id": user_id,
            "name": name,
            "prefix": prefix,
            "created_at": created_at,
            "revoked": revoked,
            "token": token,
        })
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if last_used_at is not UNSET:
            field_dict["last_used_at"] = last_used_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        user_id = d.pop("user_id")

        name = d.pop("name")

        prefix = d.pop("prefix")

        created_at = d.pop("created_at")

        revoked = d.pop("revoked")

        token = d.pop("token")

        def _parse_expires_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))


        def _parse_last_used_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at", UNSET))


        token_created = cls(
            id=id,
            user_id=user_id,
            name=name,
            prefix=prefix,
            created_at=created_at,
            revoked=revoked,
            token=token,
            expires_at=expires_at,
            last_used_at=last_used_at,
        )


        token_created.additional_properties = d
        return token_created

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
