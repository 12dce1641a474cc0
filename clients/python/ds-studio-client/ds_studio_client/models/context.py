from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.launcher import Launcher
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.trainer_args import TrainerArgs





T = TypeVar("T", bound="Context")



@_attrs_define
class Context:
    """ The validation context.

        Attributes:
            world_size (int | Unset): Total number of ranks (GPUs). Default: 1.
            tensor_parallel (int | Unset):  Default: 1.
            pipeline_parallel (int | Unset):  Default: 1.
            sequence_parallel (int | Unset):  Default: 1.
            launcher (Launcher | Unset): Who launches DeepSpeed; this decides what `"auto"` means.
            deepspeed_version (str | Unset): The DeepSpeed release the config targets: any of [`crate::release::releases`]
                (0.14.4 – 0.19.8; default the newest). Anything else is an `unknown-release` error. Default: '0.19.8'.
            accelerator (str | Unset): The accelerator DeepSpeed runs on (`cuda`, `cpu`, ...): a few rules depend on it.
                Default: 'cuda'.
            gpu_memory_gib (float | None | Unset): GPU memory per device in GiB, when known (used by hints).
            saves_hf_model (bool | None | Unset): The model is saved as a Hugging Face checkpoint (`save_pretrained`).
            passes_dict (bool | None | Unset): How the config reaches DeepSpeed: as a dict (HF Trainer, Accelerate, scripts
                that load
                the JSON themselves) or as a file path (`--deepspeed_config`). A few parser paths differ
                (`sequence_parallel_size` divides the world size only for dicts). Default: by launcher.
            trainer (None | TrainerArgs | Unset):
     """

    world_size: int | Unset = 1
    tensor_parallel: int | Unset = 1
    pipeline_parallel: int | Unset = 1
    sequence_parallel: int | Unset = 1
    launcher: Launcher | Unset = UNSET
    deepspeed_version: str | Unset = '0.19.8'
    accelerator: str | Unset = 'cuda'
    gpu_memory_gib: float | None | Unset = UNSET
    saves_hf_model: bool | None | Unset = UNSET
    passes_dict: bool | None | Unset = UNSET
    trainer: None | TrainerArgs | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        world_size = self.world_size

        tensor_parallel = self.tensor_parallel

        pipeline_parallel = self.pipeline_parallel

        sequence_parallel = self.sequence_parallel

        launcher: str | Unset = UNSET
        if not isinstance(self.launcher, Unset):
            launcher = self.launcher.value


        deepspeed_version = self.deepspeed_version

        accelerator = self.accelerator

        gpu_memory_gib: float | None | Unset
        if isinstance(self.gpu_memory_gib, Unset):
            gpu_memory_gib = UNSET
        else:
            gpu_memory_gib = self.gpu_memory_gib

        saves_hf_model: bool | None | Unset
        if isinstance(self.saves_hf_model, Unset):
            saves_hf_model = UNSET
        else:
            saves_hf_model = self.saves_hf_model

        passes_dict: bool | None | Unset
        if isinstance(self.passes_dict, Unset):
            passes_dict = UNSET
        else:
            passes_dict = self.passes_dict

        trainer: dict[str, Any] | None | Unset
        if isinstance(self.trainer, Unset):
            trainer = UNSET
        elif isinstance(self.trainer, TrainerArgs):
            trainer = self.trainer.to_dict()
        else:
            trainer = self.trainer


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
        })
        if world_size is not UNSET:
            field_dict["world_size"] = world_size
        if tensor_parallel is not UNSET:
            field_dict["tensor_parallel"] = tensor_parallel
        if pipeline_parallel is not UNSET:
            field_dict["pipeline_parallel"] = pipeline_parallel
        if sequence_parallel is not UNSET:
            field_dict["sequence_parallel"] = sequence_parallel
        if launcher is not UNSET:
            field_dict["launcher"] = launcher
        if deepspeed_version is not UNSET:
            field_dict["deepspeed_version"] = deepspeed_version
        if accelerator is not UNSET:
            field_dict["accelerator"] = accelerator
        if gpu_memory_gib is not UNSET:
            field_dict["gpu_memory_gib"] = gpu_memory_gib
        if saves_hf_model is not UNSET:
            field_dict["saves_hf_model"] = saves_hf_model
        if passes_dict is not UNSET:
            field_dict["passes_dict"] = passes_dict
        if trainer is not UNSET:
            field_dict["trainer"] = trainer

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        d = dict(src_dict)
        world_size = d.pop("world_size", UNSET)

        tensor_parallel = d.pop("tensor_parallel", UNSET)

        pipeline_parallel = d.pop("pipeline_parallel", UNSET)

        sequence_parallel = d.pop("sequence_parallel", UNSET)

        _launcher = d.pop("launcher", UNSET)
        launcher: Launcher | Unset
        if isinstance(_launcher,  Unset):
            launcher = UNSET
        else:
            launcher = Launcher(_launcher)




        deepspeed_version = d.pop("deepspeed_version", UNSET)

        accelerator = d.pop("accelerator", UNSET)

        def _parse_gpu_memory_gib(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        gpu_memory_gib = _parse_gpu_memory_gib(d.pop("gpu_memory_gib", UNSET))


        def _parse_saves_hf_model(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        saves_hf_model = _parse_saves_hf_model(d.pop("saves_hf_model", UNSET))


        def _parse_passes_dict(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        passes_dict = _parse_passes_dict(d.pop("passes_dict", UNSET))


        def _parse_trainer(data: object) -> None | TrainerArgs | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                trainer_type_0 = TrainerArgs.from_dict(data)



                return trainer_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TrainerArgs | Unset, data)

        trainer = _parse_trainer(d.pop("trainer", UNSET))


        context = cls(
            world_size=world_size,
            tensor_parallel=tensor_parallel,
            pipeline_parallel=pipeline_parallel,
            sequence_parallel=sequence_parallel,
            launcher=launcher,
            deepspeed_version=deepspeed_version,
            accelerator=accelerator,
            gpu_memory_gib=gpu_memory_gib,
            saves_hf_model=saves_hf_model,
            passes_dict=passes_dict,
            trainer=trainer,
        )


        context.additional_properties = d
        return context

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
