from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.me import Me





T = TypeVar("T", bound="SessionState")



@_attrs_define
class SessionState:
    """ `GET /api/v1/auth/session`: who is signed in (`me` left out: nobody).

        Attributes:
            me (Me | None | Unset):
     """

    me: Me | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.me import Me # noqa: PLC0415
        me: dict[str, Any] | None | Unset
        if isinstance(self.me, Unset):
            me = UNSET
        elif isinstance(self.me, Me):
            me = self.me.to_dict()
        else:
            me = self.me


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if me is not UNSET:
            field_dict["me"] = me

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.me import Me # noqa: PLC0415
        d = dict(src_dict)
        def _parse_me(data: object) -> Me | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                me_type_0 = Me.from_dict(data)



                return me_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Me | None | Unset, data)

        me = _parse_me(d.pop("me", UNSET))


        session_state = cls(
            me=me,
        )


        session_state.additional_properties = d
        return session_state

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
