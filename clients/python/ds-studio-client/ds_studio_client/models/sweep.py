from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.sweep_state import SweepState
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.axis import Axis
  from ..models.sweep_point import SweepPoint
  from ..models.workload import Workload





T = TypeVar("T", bound="Sweep")



@_attrs_define
class Sweep:
    """ A sweep as the API shows it.

        Attributes:
            id (int):
            name (str):
            template_id (int):
            template_name (str):
            team_id (int):
            version (int): The base version.
            state (SweepState): Where a sweep stands.
            workload (Workload): What a job runs: the built-in GPT workload (`{"builtin": "gpt", "size": "tiny"}`), a
                rehearsal of the user's own model (`{"model": {"name": "qwen2.5-0.5b", "seq_len": 512}}`: its
                architecture built from config.json with random weights, trained by the built-in workload's
                scripts) or a script of the user's on the runner host (`{"entrypoint": "train.py", "args":
                [...]}`).
            gpus (int):
            nodes (int):
            max_steps (int):
            grid (list[Axis]):
            keep_global_batch (bool):
            early_stop (bool):
            created_by (str):
            created_at (str):
            points (list[SweepPoint]):
            ranking (list[int]): Indices of the succeeded points, fastest first.
            runners (list[str] | Unset): The runners the points were spread over (empty: any).
            best (int | None | Unset): Index of the fastest succeeded point.
     """

    id: int
    name: str
    template_id: int
    template_name: str
    team_id: int
    version: int
    state: SweepState
    workload: Workload
    gpus: int
    nodes: int
    max_steps: int
    grid: list[Axis]
    keep_global_batch: bool
    early_stop: bool
    created_by: str
    created_at: str
    points: list[SweepPoint]
    ranking: list[int]
    runners: list[str] | Unset = UNSET
    best: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.axis import Axis # noqa: PLC0415
        from ..models.sweep_point import SweepPoint # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        id = self.id

        name = self.name

        template_id = self.template_id

        template_name = self.template_name

        team_id = self.team_id

        version = self.version

        state = self.state.value

        workload = self.workload.to_dict()

        gpus = self.gpus

        nodes = self.nodes

        max_steps = self.max_steps

        grid = []
        for grid_item_data in self.grid:
            grid_item = grid_item_data.to_dict()
            grid.append(grid_item)



        keep_global_batch = self.keep_global_batch

        early_stop = self.early_stop

        created_by = self.created_by

        created_at = self.created_at

        points = []
        for points_item_data in self.points:
            points_item = points_item_data.to_dict()
            points.append(points_item)



        ranking = self.ranking



        runners: list[str] | Unset = UNSET
        if not isinstance(self.runners, Unset):
            runners = self.runners



        best: int | None | Unset
        if isinstance(self.best, Unset):
            best = UNSET
        else:
            best = self.best


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "id": id,
            "name": name,
            "template_id": template_id,
            "template_name": template_name,
            "team_id": team_id,
            "version": version,
            "state": state,
            "workload": workload,
            "gpus": gpus,
            "nodes": nodes,
            "max_steps": max_steps,
            "grid": grid,
            "keep_global_batch": keep_global_batch,
            "early_stop": early_stop,
            "created_by": created_by,
            "created_at": created_at,
            "points": points,
            "ranking": ranking,
        })
        if runners is not UNSET:
            field_dict["runners"] = runners
        if best is not UNSET:
            field_dict["best"] = best

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.axis import Axis # noqa: PLC0415
        from ..models.sweep_point import SweepPoint # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        template_id = d.pop("template_id")

        template_name = d.pop("template_name")

        team_id = d.pop("team_id")

        version = d.pop("version")

        state = SweepState(d.pop("state"))




        workload = Workload.from_dict(d.pop("workload"))




        gpus = d.pop("gpus")

        nodes = d.pop("nodes")

        max_steps = d.pop("max_steps")

        grid = []
        _grid = d.pop("grid")
        for grid_item_data in (_grid):
            grid_item = Axis.from_dict(grid_item_data)



            grid.append(grid_item)


        keep_global_batch = d.pop("keep_global_batch")

        early_stop = d.pop("early_stop")

        created_by = d.pop("created_by")

        created_at = d.pop("created_at")

        points = []
        _points = d.pop("points")
        for points_item_data in (_points):
            points_item = SweepPoint.from_dict(points_item_data)



            points.append(points_item)


        ranking = cast(list[int], d.pop("ranking"))


        runners = cast(list[str], d.pop("runners", UNSET))


        def _parse_best(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        best = _parse_best(d.pop("best", UNSET))


        sweep = cls(
            id=id,
            name=name,
            template_id=template_id,
            template_name=template_name,
            team_id=team_id,
            version=version,
            state=state,
            workload=workload,
            gpus=gpus,
            nodes=nodes,
            max_steps=max_steps,
            grid=grid,
            keep_global_batch=keep_global_batch,
            early_stop=early_stop,
            created_by=created_by,
            created_at=created_at,
            points=points,
            ranking=ranking,
            runners=runners,
            best=best,
        )


        sweep.additional_properties = d
        return sweep

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
