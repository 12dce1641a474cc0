from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.attention import Attention
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ModelSpec")



@_attrs_define
class ModelSpec:
    """ The model being trained: a decoder-only transformer.

        Attributes:
            params (int):
            hidden_size (int):
            layers (int):
            heads (int):
            seq_len (int):
            vocab (int):
            attention (Attention): How attention stores what its backward pass needs.
            activation_factor (float): Bytes of saved activations per token, layer and unit of width in 16-bit (34: the
                built-in workload, Korthikanti et al.'s count; 56: transformers' GPT-2), with sdpa.
            eager_activation_factor (float | None | Unset): The same with eager attention, where it was measured for the
                architecture (a model read
                from its config.json); otherwise eager adds Korthikanti's `5·a·s/h`.
            largest_layer_params (int | None | Unset): The largest layer's parameters, where the architecture is known
                (ZeRO-3 gathers a whole
                layer: every expert of a sparse one); otherwise a GPT layer's `12·h² + 13·h`.
            trainable_params (int | None | Unset): The parameters the optimizer trains, where fewer than all (LoRA: the
                adapters, the
                base frozen); absent: every parameter.
            zero_init (bool | Unset): Built under `deepspeed.zero.Init` at ZeRO-3, each parameter partitioned as it is made
                (transformers' models under the HF Trainer and Accelerate, and the studio's
                rehearsals): no rank's host holds the whole model. The built-in workload under the
                plain launcher is built whole, in fp32, by every rank.
     """

    params: int
    hidden_size: int
    layers: int
    heads: int
    seq_len: int
    vocab: int
    attention: Attention
    activation_factor: float
    eager_activation_factor: float | None | Unset = UNSET
    largest_layer_params: int | None | Unset = UNSET
    trainable_params: int | None | Unset = UNSET
    zero_init: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        params = self.params

        hidden_size = self.hidden_size

        layers = self.layers

        heads = self.heads

        seq_len = self.seq_len

        vocab = self.vocab

        attention = self.attention.value

        activation_factor = self.activation_factor

        eager_activation_factor: float | None | Unset
        if isinstance(self.eager_activation_factor, Unset):
            eager_activation_factor = UNSET
        else:
            eager_activation_factor = self.eager_activation_factor

        largest_layer_params: int | None | Unset
        if isinstance(self.largest_layer_params, Unset):
            largest_layer_params = UNSET
        else:
            largest_layer_params = self.largest_layer_params

        trainable_params: int | None | Unset
        if isinstance(self.trainable_params, Unset):
            trainable_params = UNSET
        else:
            trainable_params = self.trainable_params

        zero_init = self.zero_init


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "params": params,
            "hidden_size": hidden_size,
            "layers": layers,
            "heads": heads,
            "seq_len": seq_len,
            "vocab": vocab,
            "attention": attention,
            "activation_factor": activation_factor,
        })
        if eager_activation_factor is not UNSET:
            field_dict["eager_activation_factor"] = eager_activation_factor
        if largest_layer_params is not UNSET:
            field_dict["largest_layer_params"] = largest_layer_params
        if trainable_params is not UNSET:
            field_dict["trainable_params"] = trainable_params
        if zero_init is not UNSET:
            field_dict["zero_init"] = zero_init

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        params = d.pop("params")

        hidden_size = d.pop("hidden_size")

        layers = d.pop("layers")

        heads = d.pop("heads")

        seq_len = d.pop("seq_len")

        vocab = d.pop("vocab")

        attention = Attention(d.pop("attention"))




        activation_factor = d.pop("activation_factor")

        def _parse_eager_activation_factor(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        eager_activation_factor = _parse_eager_activation_factor(d.pop("eager_activation_factor", UNSET))


        def _parse_largest_layer_params(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        largest_layer_params = _parse_largest_layer_params(d.pop("largest_layer_params", UNSET))


        def _parse_trainable_params(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        trainable_params = _parse_trainable_params(d.pop("trainable_params", UNSET))


        zero_init = d.pop("zero_init", UNSET)

        model_spec = cls(
            params=params,
            hidden_size=hidden_size,
            layers=layers,
            heads=heads,
            seq_len=seq_len,
            vocab=vocab,
            attention=attention,
            activation_factor=activation_factor,
            eager_activation_factor=eager_activation_factor,
            largest_layer_params=largest_layer_params,
            trainable_params=trainable_params,
            zero_init=zero_init,
        )


        model_spec.additional_properties = d
        return model_spec

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
