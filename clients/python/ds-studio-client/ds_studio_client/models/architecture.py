from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.family import Family
from ..models.mlp import Mlp
from ..models.norm import Norm
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.experts import Experts





T = TypeVar("T", bound="Architecture")



@_attrs_define
class Architecture:
    """ A decoder-only transformer as config.json describes it.

        Attributes:
            family (Family): The model families read from config.json's `model_type`.
            hidden (int):
            layers (int):
            heads (int): Query heads.
            kv_heads (int): Key and value heads (fewer than `heads` with grouped-query attention).
            head_dim (int):
            intermediate (int): The dense MLP's width.
            vocab (int):
            learned_positions (int): Learned position embeddings (GPT-2's `n_positions`); rotary ones have no parameters.
            tied_embeddings (bool): The output layer shares the input embedding's matrix.
            mlp (Mlp): How each layer's MLP is built.
            norm (Norm): The normalisation layers' kind.
            norms_per_layer (int): Norm layers in each block: 2, or 4 for Gemma 2 and 3 (before and after attention and
                MLP).
            qk_norm (bool): Queries and keys are normalised per head (Qwen3, Gemma 3).
            qkv_bias (bool): The query, key and value projections have biases (Qwen2, GPT-2, GPT-NeoX).
            o_bias (bool): The attention output projection has a bias.
            mlp_bias (bool): The MLP's matrices have biases.
            experts (Experts | None | Unset):
     """

    family: Family
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    learned_positions: int
    tied_embeddings: bool
    mlp: Mlp
    norm: Norm
    norms_per_layer: int
    qk_norm: bool
    qkv_bias: bool
    o_bias: bool
    mlp_bias: bool
    experts: Experts | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.experts import Experts # noqa: PLC0415
        family = self.family.value

        hidden = self.hidden

        layers = self.layers

        heads = self.heads

        kv_heads = self.kv_heads

        head_dim = self.head_dim

        intermediate = self.intermediate

        vocab = self.vocab

        learned_positions = self.learned_positions

        tied_embeddings = self.tied_embeddings

        mlp = self.mlp.value

        norm = self.norm.value

        norms_per_layer = self.norms_per_layer

        qk_norm = self.qk_norm

        qkv_bias = self.qkv_bias

        o_bias = self.o_bias

        mlp_bias = self.mlp_bias

        experts: dict[str, Any] | None | Unset
        if isinstance(self.experts, Unset):
            experts = UNSET
        elif isinstance(self.experts, Experts):
            experts = self.experts.to_dict()
        else:
            experts = self.experts


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "family": family,
            "hidden": hidden,
            "layers": layers,
            "heads": heads,
            "kv_heads": kv_heads,
            "head_dim": head_dim,
            "intermediate": intermediate,
            "vocab": vocab,
            "learned_positions": learned_positions,
            "tied_embeddings": tied_embeddings,
            "mlp": mlp,
            "norm": norm,
            "norms_per_layer": norms_per_layer,
            "qk_norm": qk_norm,
            "qkv_bias": qkv_bias,
            "o_bias": o_bias,
            "mlp_bias": mlp_bias,
        })
        if experts is not UNSET:
            field_dict["experts"] = experts

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.experts import Experts # noqa: PLC0415
        d = dict(src_dict)
        family = Family(d.pop("family"))




        hidden = d.pop("hidden")

        layers = d.pop("layers")

        heads = d.pop("heads")

        kv_heads = d.pop("kv_heads")

        head_dim = d.pop("head_dim")

        intermediate = d.pop("intermediate")

        vocab = d.pop("vocab")

        learned_positions = d.pop("learned_positions")

        tied_embeddings = d.pop("tied_embeddings")

        mlp = Mlp(d.pop("mlp"))




        norm = Norm(d.pop("norm"))




        norms_per_layer = d.pop("norms_per_layer")

        qk_norm = d.pop("qk_norm")

        qkv_bias = d.pop("qkv_bias")

        o_bias = d.pop("o_bias")

        mlp_bias = d.pop("mlp_bias")

        def _parse_experts(data: object) -> Experts | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                experts_type_0 = Experts.from_dict(data)



                return experts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Experts | None | Unset, data)

        experts = _parse_experts(d.pop("experts", UNSET))


        architecture = cls(
            family=family,
            hidden=hidden,
            layers=layers,
            heads=heads,
            kv_heads=kv_heads,
            head_dim=head_dim,
            intermediate=intermediate,
            vocab=vocab,
            learned_positions=learned_positions,
            tied_embeddings=tied_embeddings,
            mlp=mlp,
            norm=norm,
            norms_per_layer=norms_per_layer,
            qk_norm=qk_norm,
            qkv_bias=qkv_bias,
            o_bias=o_bias,
            mlp_bias=mlp_bias,
            experts=experts,
        )


        architecture.additional_properties = d
        return architecture

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
