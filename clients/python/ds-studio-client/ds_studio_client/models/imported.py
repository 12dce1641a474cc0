from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.launcher import Launcher
from ..models.source import Source
from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.text import Text
  from ..models.trainer_args import TrainerArgs





T = TypeVar("T", bound="Imported")



@_attrs_define
class Imported:
    """ What an imported file says about the run.

        Attributes:
            source (Source): Which kind of file the arguments came from.
            launcher (Launcher): Who launches DeepSpeed; this decides what `"auto"` means.
            trainer (TrainerArgs): The TrainingArguments (and Accelerate script arguments) that reach the DeepSpeed config.
            world_size (int | None | Unset): Ranks, where the file says (`num_processes`, `--nproc_per_node` × `--nnodes`,
                ...).
            nodes (int | None | Unset): Nodes, where the file says (`num_machines`, `--nnodes`).
            deepspeed_config (None | str | Unset): The DeepSpeed config the file points at, as written.
            notes (list[Text] | Unset): What the importer read but could not use, or had to assume (one line each).
     """

    source: Source
    launcher: Launcher
    trainer: TrainerArgs
    world_size: int | None | Unset = UNSET
    nodes: int | None | Unset = UNSET
    deepspeed_config: None | str | Unset = UNSET
    notes: list[Text] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.text import Text # noqa: PLC0415
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        source = self.source.value

        launcher = self.launcher.value

        trainer = self.trainer.to_dict()

        world_size: int | None | Unset
        if isinstance(self.world_size, Unset):
            world_size = UNSET
        else:
            world_size = self.world_size

        nodes: int | None | Unset
        if isinstance(self.nodes, Unset):
            nodes = UNSET
        else:
            nodes = self.nodes

        deepspeed_config: None | str | Unset
        if isinstance(self.deepspeed_config, Unset):
            deepspeed_config = UNSET
        else:
            deepspeed_config = self.deepspeed_config

        notes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.notes, Unset):
            notes = []
            for notes_item_data in self.notes:
                notes_item = notes_item_data.to_dict()
                notes.append(notes_item)




        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "source": source,
            "launcher": launcher,
            "trainer": trainer,
        })
        if world_size is not UNSET:
            field_dict["world_size"] = world_size
        if nodes is not UNSET:
            field_dict["nodes"] = nodes
        if deepspeed_config is not UNSET:
            field_dict["deepspeed_config"] = deepspeed_config
        if notes is not UNSET:
            field_dict["notes"] = notes

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.text import Text # noqa: PLC0415
        from ..models.trainer_args import TrainerArgs # noqa: PLC0415
        d = dict(src_dict)
        source = Source(d.pop("source"))




        launcher = Launcher(d.pop("launcher"))




        trainer = TrainerArgs.from_dict(d.pop("trainer"))




        def _parse_world_size(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        world_size = _parse_world_size(d.pop("world_size", UNSET))


        def _parse_nodes(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        nodes = _parse_nodes(d.pop("nodes", UNSET))


        def _parse_deepspeed_config(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        deepspeed_config = _parse_deepspeed_config(d.pop("deepspeed_config", UNSET))


        _notes = d.pop("notes", UNSET)
        notes: list[Text] | Unset = UNSET
        if _notes is not UNSET:
            notes = []
            for notes_item_data in _notes:
                notes_item = Text.from_dict(notes_item_data)



                notes.append(notes_item)


        imported = cls(
            source=source,
            launcher=launcher,
            trainer=trainer,
            world_size=world_size,
            nodes=nodes,
            deepspeed_config=deepspeed_config,
            notes=notes,
        )


        imported.additional_properties = d
        return imported

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
