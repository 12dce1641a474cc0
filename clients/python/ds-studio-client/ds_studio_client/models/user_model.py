from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.attention import Attention
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.lora import Lora
  from ..models.user_model_config_type_0 import UserModelConfigType0





T = TypeVar("T", bound="UserModel")



@_attrs_define
class UserModel:
    """ A model to estimate or rehearse: `name` (a catalog model) or `config` (its config.json).

        Attributes:
            name (None | str | Unset): A model of the catalog (`ds-studio models`, `GET /api/v1/models`): `llama-3.1-8b`, or
                its Hub repository `meta-llama/Llama-3.1-8B`.
            config (None | Unset | UserModelConfigType0): A Hugging Face config.json, instead of `name`.
            seq_len (int | Unset): Tokens per sample (default 2048).
            attention (Attention | Unset): How attention stores what its backward pass needs.
            lora (Lora | None | Unset):
     """

    name: None | str | Unset = UNSET
    config: None | Unset | UserModelConfigType0 = UNSET
    seq_len: int | Unset = UNSET
    attention: Attention | Unset = UNSET
    lora: Lora | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.lora import Lora # noqa: PLC0415
        from ..models.user_model_config_type_0 import UserModelConfigType0 # noqa: PLC0415
        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        config: dict[str, Any] | None | Unset
        if isinstance(self.config, Unset):
            config = UNSET
        elif isinstance(self.config, UserModelConfigType0):
            config = self.config.to_dict()
        else:
            config = self.config

        seq_len = self.seq_len

        attention: str | Unset = UNSET
        if not isinstance(self.attention, Unset):
            attention = self.attention.value


        lora: dict[str, Any] | None | Unset
        if isinstance(self.lora, Unset):
            lora = UNSET
        elif isinstance(self.lora, Lora):
            lora = self.lora.to_dict()
        else:
            lora = self.lora


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if name is not UNSET:
            field_dict["name"] = name
        if config is not UNSET:
            field_dict["config"] = config
        if seq_len is not UNSET:
            field_dict["seq_len"] = seq_len
        if attention is not UNSET:
            field_dict["attention"] = attention
        if lora is not UNSET:
            field_dict["lora"] = lora

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.lora import Lora # noqa: PLC0415
        from ..models.user_model_config_type_0 import UserModelConfigType0 # noqa: PLC0415
        d = dict(src_dict)
        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_config(data: object) -> None | Unset | UserModelConfigType0:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                config_type_0 = UserModelConfigType0.from_dict(data)



                return config_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UserModelConfigType0, data)

        config = _parse_config(d.pop("config", UNSET))


        seq_len = d.pop("seq_len", UNSET)

        _attention = d.pop("attention", UNSET)
        attention: Attention | Unset
        if isinstance(_attention,  Unset):
            attention = UNSET
        else:
            attention = Attention(_attention)




        def _parse_lora(data: object) -> Lora | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                lora_type_0 = Lora.from_dict(data)



                return lora_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Lora | None | Unset, data)

        lora = _parse_lora(d.pop("lora", UNSET))


        user_model = cls(
            name=name,
            config=config,
            seq_len=seq_len,
            attention=attention,
            lora=lora,
        )

        return user_model

