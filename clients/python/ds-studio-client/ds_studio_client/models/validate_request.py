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
  from ..models.validate_request_config import ValidateRequestConfig





T = TypeVar("T", bound="ValidateRequest")



@_attrs_define
class ValidateRequest:
    """ `POST /api/v1/validate`: the config as exactly one of `config` (any JSON value) and
    `config_text` (JSON or hjson, as written); both or neither is a 400.

        Example:
            {'config': {'train_batch_size': 8, 'train_micro_batch_size_per_gpu': 1, 'zero_optimization': {'stage': 2}},
                'context': {'world_size': 8}}

        Attributes:
            config (ValidateRequestConfig | Unset):
            config_text (str | Unset):
            context (Context | None | Unset):
     """

    config: ValidateRequestConfig | Unset = UNSET
    config_text: str | Unset = UNSET
    context: Context | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.context import Context # noqa: PLC0415
        from ..models.validate_request_config import ValidateRequestConfig # noqa: PLC0415
        config: dict[str, Any] | Unset = UNSET
        if not isinstance(self.config, Unset):
            config = self.config.to_dict()

        config_text = self.config_text

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
        })
        if config is not UNSET:
            field_dict["config"] = config
        if config_text is not UNSET:
            field_dict["config_text"] = config_text
        if context is not UNSET:
            field_dict["context"] = context

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.context import Context # noqa: PLC0415
        from ..models.validate_request_config import ValidateRequestConfig # noqa: PLC0415
        d = dict(src_dict)
        _config = d.pop("config", UNSET)
        config: ValidateRequestConfig | Unset
        if isinstance(_config,  Unset):
            config = UNSET
        else:
            config = ValidateRequestConfig.from_dict(_config)




        config_text = d.pop("config_text", UNSET)

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


        validate_request = cls(
            config=config,
            config_text=config_text,
            context=context,
        )


        validate_request.additional_properties = d
        return validate_request

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
