from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.context import Context
  from ..models.template_create_config import TemplateCreateConfig





T = TypeVar("T", bound="TemplateCreate")



@_attrs_define
class TemplateCreate:
    """ `POST /api/v1/templates`: a new template with its version 1. The config is given as exactly
    one of `config` (a JSON object) and `config_text` (JSON or hjson, kept byte for byte); both
    or neither is a 400.

        Attributes:
            name (str):
            description (None | str | Unset):
            tags (list[str] | Unset):
            team_id (int | None | Unset): The team that owns it; defaults to the caller's only team when there is one.
            config (TemplateCreateConfig | Unset): The config as a JSON value (stored as pretty JSON).
            config_text (str | Unset): The config as text, kept byte for byte (JSON or hjson).
            message (None | str | Unset): Message of version 1 (default "created").
            context (Context | None | Unset):
     """

    name: str
    description: None | str | Unset = UNSET
    tags: list[str] | Unset = UNSET
    team_id: int | None | Unset = UNSET
    config: TemplateCreateConfig | Unset = UNSET
    config_text: str | Unset = UNSET
    message: None | str | Unset = UNSET
    context: Context | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.context import Context # noqa: PLC0415
        from ..models.template_create_config import TemplateCreateConfig # noqa: PLC0415
        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags



        team_id: int | None | Unset
        if isinstance(self.team_id, Unset):
            team_id = UNSET
        else:
            team_id = self.team_id

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        config_text = self.config_text

        message: None | str | Unset
        if isinstance(self.message, Unset):
            message = UNSET
        else:
            message = self.message

        context: dict[str, Any] | None | Unset
        if isinstance(self.context, Unset):
            context = UNSET
        elif isinstance(self.context, Context):
            context = self.context.to_dict()
        else:
            context = self.context


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "name": name,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if tags is not UNSET:
            field_dict["tags"] = tags
        if team_id is not UNSET:
            field_dict["team_id"] = team_id
        if config is not UNSET:
            field_dict["config"] = config
        if config_text is not UNSET:
            field_dict["config_text"] = config_text
        if message is not UNSET:
            field_dict["message"] = message
        if context is not UNSET:
            field_dict["context"] = context

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.context import Context # noqa: PLC0415
        from ..models.template_create_config import TemplateCreateConfig # noqa: PLC0415
        d = dict(src_dict)
        name = d.pop("name")

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))


        tags = cast(list[str], d.pop("tags", UNSET))


        def _parse_team_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        team_id = _parse_team_id(d.pop("team_id", UNSET))


        _config = d.pop("config", UNSET)
        config: TemplateCreateConfig | Unset
        if isinstance(_config,  Unset):
            config = UNSET
        else:
            config = TemplateCreateConfig.from_dict(_config)




        config_text = d.pop("config_text", UNSET)

        def _parse_message(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message = _parse_message(d.pop("message", UNSET))


        def _parse_context(data: object) -> Context | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                context_type_0 = Context.from_dict(data)



                return context_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Context | None | Unset, data)

        context = _parse_context(d.pop("context", UNSET))


        template_create = cls(
            name=name,
            description=description,
            tags=tags,
            team_id=team_id,
            config=config,
            config_text=config_text,
            message=message,
            context=context,
        )


        template_create.additional_properties = d
        return template_create

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
