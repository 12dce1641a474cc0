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
  from ..models.estimate_request_config import EstimateRequestConfig
  from ..models.user_model import UserModel





T = TypeVar("T", bound="EstimateRequest")



@_attrs_define
class EstimateRequest:
    """ What to estimate: a DeepSpeed config, the model it trains, and where.

        Example:
            {'config': {'train_micro_batch_size_per_gpu': 1, 'gradient_accumulation_steps': 8, 'bf16': {'enabled': True},
                'zero_optimization': {'stage': 2}}, 'model': {'name': 'qwen2.5-7b', 'seq_len': 4096, 'lora': {'rank': 16}},
                'gpus_per_node': 8, 'gpu_memory_bytes': 85899345920}

        Attributes:
            config (EstimateRequestConfig): The DeepSpeed config (a JSON object).
            model (UserModel): A model to estimate or rehearse: `name` (a catalog model) or `config` (its config.json).
            context (Context | None | Unset):
            gpus_per_node (int | None | Unset): GPUs per node (default 1).
            nodes (int | None | Unset): Nodes (default 1).
            gpu_memory_bytes (int | None | Unset): A GPU's memory in bytes to hold the estimate against (besides the
                runners).
     """

    config: EstimateRequestConfig
    model: UserModel
    context: Context | None | Unset = UNSET
    gpus_per_node: int | None | Unset = UNSET
    nodes: int | None | Unset = UNSET
    gpu_memory_bytes: int | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.context import Context # noqa: PLC0415
        from ..models.estimate_request_config import EstimateRequestConfig # noqa: PLC0415
        from ..models.user_model import UserModel # noqa: PLC0415
        config = self.config.to_dict()

        model = self.model.to_dict()

        context: dict[str, Any] | None | Unset
        if isinstance(self.context, Unset):
            context = UNSET
        elif isinstance(self.context, Context):
            context = self.context.to_dict()
        else:
            context = self.context

        gpus_per_node: int | None | Unset
        if isinstance(self.gpus_per_node, Unset):
            gpus_per_node = UNSET
        else:
            gpus_per_node = self.gpus_per_node

        nodes: int | None | Unset
        if isinstance(self.nodes, Unset):
            nodes = UNSET
        else:
            nodes = self.nodes

        gpu_memory_bytes: int | None | Unset
        if isinstance(self.gpu_memory_bytes, Unset):
            gpu_memory_bytes = UNSET
        else:
            gpu_memory_bytes = self.gpu_memory_bytes


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "config": config,
            "model": model,
        })
        if context is not UNSET:
            field_dict["context"] = context
        if gpus_per_node is not UNSET:
            field_dict["gpus_per_node"] = gpus_per_node
        if nodes is not UNSET:
            field_dict["nodes"] = nodes
        if gpu_memory_bytes is not UNSET:
            field_dict["gpu_memory_bytes"] = gpu_memory_bytes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.context import Context # noqa: PLC0415
        from ..models.estimate_request_config import EstimateRequestConfig # noqa: PLC0415
        from ..models.user_model import UserModel # noqa: PLC0415
        d = dict(src_dict)
        config = EstimateRequestConfig.from_dict(d.pop("config"))




        model = UserModel.from_dict(d.pop("model"))




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


        def _parse_gpus_per_node(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        gpus_per_node = _parse_gpus_per_node(d.pop("gpus_per_node", UNSET))


        def _parse_nodes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        nodes = _parse_nodes(d.pop("nodes", UNSET))


        def _parse_gpu_memory_bytes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        gpu_memory_bytes = _parse_gpu_memory_bytes(d.pop("gpu_memory_bytes", UNSET))


        estimate_request = cls(
            config=config,
            model=model,
            context=context,
            gpus_per_node=gpus_per_node,
            nodes=nodes,
            gpu_memory_bytes=gpu_memory_bytes,
        )

        return estimate_request

