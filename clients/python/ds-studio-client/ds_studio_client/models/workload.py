from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.user_model import UserModel





T = TypeVar("T", bound="Workload")



@_attrs_define
class Workload:
    """ What a job runs: the built-in GPT workload (`{"builtin": "gpt", "size": "tiny"}`), a
    rehearsal of the user's own model (`{"model": {"name": "qwen2.5-0.5b", "seq_len": 512}}`: its
    architecture built from config.json with random weights, trained by the built-in workload's
    scripts) or a script of the user's on the runner host (`{"entrypoint": "train.py", "args":
    [...]}`).

        Attributes:
            builtin (None | str | Unset): The built-in workload: `gpt`.
            size (None | str | Unset): Size of the built-in workload: tiny, small, medium, large or xl (default tiny).
            entrypoint (None | str | Unset): A training script on the runner host, started under the version's launcher:
                with
                `--deepspeed_config CFG` appended to `args` (plain `deepspeed`), `--deepspeed CFG` (HF
                Trainer, through `torchrun`), or through `accelerate launch` with an accelerate config
                naming the file (Accelerate).
            args (list[str] | Unset):
            model (None | Unset | UserModel):
     """

    builtin: None | str | Unset = UNSET
    size: None | str | Unset = UNSET
    entrypoint: None | str | Unset = UNSET
    args: list[str] | Unset = UNSET
    model: None | Unset | UserModel = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.user_model import UserModel # noqa: PLC0415
        builtin: None | str | Unset
        if isinstance(self.builtin, Unset):
            builtin = UNSET
        else:
            builtin = self.builtin

        size: None | str | Unset
        if isinstance(self.size, Unset):
            size = UNSET
        else:
            size = self.size

        entrypoint: None | str | Unset
        if isinstance(self.entrypoint, Unset):
            entrypoint = UNSET
        else:
            entrypoint = self.entrypoint

        args: list[str] | Unset = UNSET
        if not isinstance(self.args, Unset):
            args = self.args



        model: dict[str, Any] | None | Unset
        if isinstance(self.model, Unset):
            model = UNSET
        elif isinstance(self.model, UserModel):
            model = self.model.to_dict()
        else:
            model = self.model


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if builtin is not UNSET:
            field_dict["builtin"] = builtin
        if size is not UNSET:
            field_dict["size"] = size
        if entrypoint is not UNSET:
            field_dict["entrypoint"] = entrypoint
        if args is not UNSET:
            field_dict["args"] = args
        if model is not UNSET:
            field_dict["model"] = model

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.user_model import UserModel # noqa: PLC0415
        d = dict(src_dict)
        def _parse_builtin(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        builtin = _parse_builtin(d.pop("builtin", UNSET))


        def _parse_size(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        size = _parse_size(d.pop("size", UNSET))


        def _parse_entrypoint(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        entrypoint = _parse_entrypoint(d.pop("entrypoint", UNSET))


        args = cast(list[str], d.pop("args", UNSET))


        def _parse_model(data: object) -> None | Unset | UserModel:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                model_type_0 = UserModel.from_dict(data)



                return model_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UserModel, data)

        model = _parse_model(d.pop("model", UNSET))


        workload = cls(
            builtin=builtin,
            size=size,
            entrypoint=entrypoint,
            args=args,
            model=model,
        )

        return workload

