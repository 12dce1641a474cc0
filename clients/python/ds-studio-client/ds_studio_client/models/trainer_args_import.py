from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="TrainerArgsImport")



@_attrs_define
class TrainerArgsImport:
    """ `POST /api/v1/trainer-args/import`: a training file's text (LLaMA-Factory or axolotl YAML,
    `accelerate config` YAML, or a command line).

        Attributes:
            text (str): The file's text (at most 1 MiB). Example: per_device_train_batch_size: 4
                gradient_accumulation_steps: 8
                learning_rate: 2.0e-5
                bf16: true
                deepspeed: ds_z2_config.json
                .
     """

    text: str





    def to_dict(self) -> dict[str, Any]:
        text = self.text


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "text": text,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        text = d.pop("text")

        trainer_args_import = cls(
            text=text,
        )

        return trainer_args_import

