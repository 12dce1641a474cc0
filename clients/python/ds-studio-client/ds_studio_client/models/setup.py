from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.optimizer_kind import OptimizerKind
from ..models.precision import Precision






T = TypeVar("T", bound="Setup")



@_attrs_define
class Setup:
    """ How the config trains: everything about it that moves memory.

        Attributes:
            stage (int):
            offload_optimizer (bool):
            offload_params (bool):
            precision (Precision): Numeric precision of the weights the model computes with.
            micro_batch (int):
            gradient_accumulation (int):
            gpus_per_node (int):
            nodes (int):
            tensor_parallel (int):
            pipeline_parallel (int):
            reduce_bucket (int): Elements (`zero_optimization.reduce_bucket_size`, default 5e8).
            prefetch_bucket (int): Elements (`stage3_prefetch_bucket_size`, default 5e7).
            overlap_comm (bool):
            optimizer (OptimizerKind): Which optimizer implementation steps the fp32 states.
            activation_checkpointing (bool):
     """

    stage: int
    offload_optimizer: bool
    offload_params: bool
    precision: Precision
    micro_batch: int
    gradient_accumulation: int
    gpus_per_node: int
    nodes: int
    tensor_parallel: int
    pipeline_parallel: int
    reduce_bucket: int
    prefetch_bucket: int
    overlap_comm: bool
    optimizer: OptimizerKind
    activation_checkpointing: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        stage = self.stage

        offload_optimizer = self.offload_optimizer

        offload_params = self.offload_params

        precision = self.precision.value

        micro_batch = self.micro_batch

        gradient_accumulation = self.gradient_accumulation

        gpus_per_node = self.gpus_per_node

        nodes = self.nodes

        tensor_parallel = self.tensor_parallel

        pipeline_parallel = self.pipeline_parallel

        reduce_bucket = self.reduce_bucket

        prefetch_bucket = self.prefetch_bucket

        overlap_comm = self.overlap_comm

        optimizer = self.optimizer.value

        activation_checkpointing = self.activation_checkpointing


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "stage": stage,
            "offload_optimizer": offload_optimizer,
            "offload_params": offload_params,
            "precision": precision,
            "micro_batch": micro_batch,
            "gradient_accumulation": gradient_accumulation,
            "gpus_per_node": gpus_per_node,
            "nodes": nodes,
            "tensor_parallel": tensor_parallel,
            "pipeline_parallel": pipeline_parallel,
            "reduce_bucket": reduce_bucket,
            "prefetch_bucket": prefetch_bucket,
            "overlap_comm": overlap_comm,
            "optimizer": optimizer,
            "activation_checkpointing": activation_checkpointing,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        stage = d.pop("stage")

        offload_optimizer = d.pop("offload_optimizer")

        offload_params = d.pop("offload_params")

        precision = Precision(d.pop("precision"))




        micro_batch = d.pop("micro_batch")

        gradient_accumulation = d.pop("gradient_accumulation")

        gpus_per_node = d.pop("gpus_per_node")

        nodes = d.pop("nodes")

        tensor_parallel = d.pop("tensor_parallel")

        pipeline_parallel = d.pop("pipeline_parallel")

        reduce_bucket = d.pop("reduce_bucket")

        prefetch_bucket = d.pop("prefetch_bucket")

        overlap_comm = d.pop("overlap_comm")

        optimizer = OptimizerKind(d.pop("optimizer"))




        activation_checkpointing = d.pop("activation_checkpointing")

        setup = cls(
            stage=stage,
            offload_optimizer=offload_optimizer,
            offload_params=offload_params,
            precision=precision,
            micro_batch=micro_batch,
            gradient_accumulation=gradient_accumulation,
            gpus_per_node=gpus_per_node,
            nodes=nodes,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            reduce_bucket=reduce_bucket,
            prefetch_bucket=prefetch_bucket,
            overlap_comm=overlap_comm,
            optimizer=optimizer,
            activation_checkpointing=activation_checkpointing,
        )


        setup.additional_properties = d
        return setup

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
