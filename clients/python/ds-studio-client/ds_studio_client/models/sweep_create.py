from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.axis import Axis
  from ..models.workload import Workload





T = TypeVar("T", bound="SweepCreate")



@_attrs_define
class SweepCreate:
    """ `POST /api/v1/sweeps`: run a grid of configs over a pinned template version.

        Attributes:
            template_id (int):
            workload (Workload): What a job runs: the built-in GPT workload (`{"builtin": "gpt", "size": "tiny"}`), a
                rehearsal of the user's own model (`{"model": {"name": "qwen2.5-0.5b", "seq_len": 512}}`: its
                architecture built from config.json with random weights, trained by the built-in workload's
                scripts) or a script of the user's on the runner host (`{"entrypoint": "train.py", "args":
                [...]}`).
            grid (list[Axis]): The keys to vary and their values (1 to 8 keys, at most 256 points in all), e.g.
                `[{"key": "train_micro_batch_size_per_gpu", "values": [4, 8, 16]},
                  {"key": "zero_optimization.stage", "values": [0, 2, 3]}]`.
            version (int | None | Unset): The base version; default the head.
            keep_global_batch (bool | None | Unset): A point that changes the micro batch changes the gradient accumulation
                too, so every
                point trains on the base's samples per step (default false).
            max_steps (int | None | Unset): Optimizer steps per point (default 20).
            gpus (int | None | Unset): GPUs (ranks) per node of every point; default 1.
            nodes (int | None | Unset): Nodes of every point; default 1.
            runners (list[str] | None | Unset): The runners (by name) the points are spread over, each point to one that
                fits it;
                default any runner (pruned against the online runners' memory).
            early_stop (bool | None | Unset): Stop a running point early when it is far slower than the best finished one
                (default
                true).
            name (None | str | Unset): A name for the sweep (at most 120 characters).
     """

    template_id: int
    workload: Workload
    grid: list[Axis]
    version: int | None | Unset = UNSET
    keep_global_batch: bool | None | Unset = UNSET
    max_steps: int | None | Unset = UNSET
    gpus: int | None | Unset = UNSET
    nodes: int | None | Unset = UNSET
    runners: list[str] | None | Unset = UNSET
    early_stop: bool | None | Unset = UNSET
    name: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.axis import Axis # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        template_id = self.template_id

        workload = self.workload.to_dict()

        grid = []
        for grid_item_data in self.grid:
            grid_item = grid_item_data.to_dict()
            grid.append(grid_item)



        version: int | None | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version

        keep_global_batch: bool | None | Unset
        if isinstance(self.keep_global_batch, Unset):
            keep_global_batch = UNSET
        else:
            keep_global_batch = self.keep_global_batch

        max_steps: int | None | Unset
        if isinstance(self.max_steps, Unset):
            max_steps = UNSET
        else:
            max_steps = self.max_steps

        gpus: int | None | Unset
        if isinstance(self.gpus, Unset):
            gpus = UNSET
        else:
            gpus = self.gpus

        nodes: int | None | Unset
        if isinstance(self.nodes, Unset):
            nodes = UNSET
        else:
            nodes = self.nodes

        runners: list[str] | None | Unset
        if isinstance(self.runners, Unset):
            runners = UNSET
        elif isinstance(self.runners, list):
            runners = self.runners


        else:
            runners = self.runners

        early_stop: bool | None | Unset
        if isinstance(self.early_stop, Unset):
            early_stop = UNSET
        else:
            early_stop = self.early_stop

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "template_id": template_id,
            "workload": workload,
            "grid": grid,
        })
        if version is not UNSET:
            field_dict["version"] = version
        if keep_global_batch is not UNSET:
            field_dict["keep_global_batch"] = keep_global_batch
        if max_steps is not UNSET:
            field_dict["max_steps"] = max_steps
        if gpus is not UNSET:
            field_dict["gpus"] = gpus
        if nodes is not UNSET:
            field_dict["nodes"] = nodes
        if runners is not UNSET:
            field_dict["runners"] = runners
        if early_stop is not UNSET:
            field_dict["early_stop"] = early_stop
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.axis import Axis # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        d = dict(src_dict)
        template_id = d.pop("template_id")

        workload = Workload.from_dict(d.pop("workload"))




        grid = []
        _grid = d.pop("grid")
        for grid_item_data in (_grid):
            grid_item = Axis.from_dict(grid_item_data)



            grid.append(grid_item)


        def _parse_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        version = _parse_version(d.pop("version", UNSET))


        def _parse_keep_global_batch(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        keep_global_batch = _parse_keep_global_batch(d.pop("keep_global_batch", UNSET))


        def _parse_max_steps(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_steps = _parse_max_steps(d.pop("max_steps", UNSET))


        def _parse_gpus(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        gpus = _parse_gpus(d.pop("gpus", UNSET))


        def _parse_nodes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        nodes = _parse_nodes(d.pop("nodes", UNSET))


        def _parse_runners(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                runners_type_0 = cast(list[str], data)

                return runners_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        runners = _parse_runners(d.pop("runners", UNSET))


        def _parse_early_stop(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        early_stop = _parse_early_stop(d.pop("early_stop", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        sweep_create = cls(
            template_id=template_id,
            workload=workload,
            grid=grid,
            version=version,
            keep_global_batch=keep_global_batch,
            max_steps=max_steps,
            gpus=gpus,
            nodes=nodes,
            runners=runners,
            early_stop=early_stop,
            name=name,
        )

        return sweep_create

