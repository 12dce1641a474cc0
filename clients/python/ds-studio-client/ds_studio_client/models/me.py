from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.team import Team
  from ..models.user import User





T = TypeVar("T", bound="Me")



@_attrs_define
class Me:
    """ Who is signed in, in which teams, and the CSRF token that cookie-authenticated writes must
    send back in the `X-CSRF-Token` header.

        Attributes:
            user (User):
            teams (list[Team]):
            csrf_token (None | str | Unset):
     """

    user: User
    teams: list[Team]
    csrf_token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.team import Team # noqa: PLC0415
        from ..models.user import User # noqa: PLC0415
        user = self.user.to_dict()

        teams = []
        for teams_item_data in self.teams:
            teams_item = teams_item_data.to_dict()
            teams.append(teams_item)



        csrf_token: None | str | Unset
        if isinstance(self.csrf_token, Unset):
            csrf_token = UNSET
        else:
            csrf_token = self.csrf_token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "user": user,
            "teams": teams,
        })
        if csrf_token is not UNSET:
            field_dict["csrf_token"] = csrf_token

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.team import Team # noqa: PLC0415
        from ..models.user import User # noqa: PLC0415
        d = dict(src_dict)
        user = User.from_dict(d.pop("user"))




        teams = []
        _teams = d.pop("teams")
        for teams_item_data in (_teams):
            teams_item = Team.from_dict(teams_item_data)



            teams.append(teams_item)


        def _parse_csrf_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        csrf_token = _parse_csrf_token(d.pop("csrf_token", UNSET))


        me = cls(
            user=user,
            teams=teams,
            csrf_token=csrf_token,
        )


        me.additional_properties = d
        return me

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
