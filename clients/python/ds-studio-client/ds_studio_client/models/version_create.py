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
  from ..models.version_create_config import VersionCreateConfig





T = TypeVar("T", bound="VersionCreate")



@_attrs_define
class VersionCreate:
    """ `POST /api/v1/templates/{id}/versions`: a new version on `base_version`. The config is given
    as exactly one of `config` (a JSON object) and `config_text` (JSON or hjson, kept byte for
    byte); both or neither is a 400.

        Attributes:
            base_version (int): The version this edit started from; must be the current head or the answer is 409.
            config (VersionCreateConfig | Unset):
            config_text (str | Unset):
            message (str | Unset):
            context (Context | None | Unset):
     """

    base_version: int
    config: VersionCreateConfig | Unset = UNSET
    config_text: str | Unset = UNSET
    message: str | Unset = UNSET
    context: Context | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.context import Context # noqa: PLC0415
        from ..models.version_create_config import VersionCreateConfig # noqa: PLC0415
        base_version = self.base_version

        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        config_text = self.config_text

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
            "base_version": base_version,
        })
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
        from ..models.version_create_config import VersionCreateConfig # noqa: PLC0415
        d = dict(src_dict)
        base_version = d.pop("base_version")

        _config = d.pop("config", UNSET)
        config: VersionCreateConfig | Unset
        if isinstance(_config,  Unset):
            config = UNSET
        else:
            config = VersionCreateConfig.from_dict(_config)




        config_text = d.pop("config_text", UNSET)

        message = d.pop("message", UNSET)

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


        version_create = cls(
            base_version=base_version,
            config=config,
            config_text=config_text,
            message=message,
            context=context,
        )


        version_create.additional_properties = d
        return version_create

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
