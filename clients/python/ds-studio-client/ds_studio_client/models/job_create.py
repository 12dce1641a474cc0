from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.job_create_env_type_0 import JobCreateEnvType0
  from ..models.job_create_secret_env_type_0 import JobCreateSecretEnvType0
  from ..models.workload import Workload





T = TypeVar("T", bound="JobCreate")



@_attrs_define
class JobCreate:
    """ `POST /api/v1/jobs`: run a pinned template version.

        Attributes:
            template_id (int):
            workload (Workload): What a job runs: the built-in GPT workload (`{"builtin": "gpt", "size": "tiny"}`), a
                rehearsal of the user's own model (`{"model": {"name": "qwen2.5-0.5b", "seq_len": 512}}`: its
                architecture built from config.json with random weights, trained by the built-in workload's
                scripts) or a script of the user's on the runner host (`{"entrypoint": "train.py", "args":
                [...]}`).
            version (int | None | Unset): The version to pin; default the head at submission.
            gpus (int | None | Unset): GPUs (ranks) per node; default 1.
            nodes (int | None | Unset): Nodes; default 1 (more than one needs the Slurm backend).
            runner (None | str | Unset): Only this runner (by name) may run it; default any.
            max_steps (int | None | Unset): Optimizer steps for the built-in workload (default 20).
            env (JobCreateEnvType0 | None | Unset): Extra environment variables for the training processes (shown to
                everyone who can see
                the job).
            secret_env (JobCreateSecretEnvType0 | None | Unset): Secret environment variables (tokens, keys): write-only. No
                answer shows their values,
                job logs show `***` in their place, and the runner never writes them to disk; the
                server forgets them when the job ends.
            time_limit_s (int | None | Unset): Wall-clock limit in seconds (at most 30 days); the job is stopped and fails
                after it
                (default none).
            stall_timeout_s (int | None | Unset): Stop the job when it reports no new metric for this many seconds (counted
                from its
                start until the first one; 30 s to 1 day; default none): a rank that hangs in a
                collective or in data loading then ends as `stalled` instead of holding its GPUs.
            fit_to_runner (bool | None | Unset): Fit the batch sizes to the job's GPUs (from the world size the version was
                saved for):
                keep the global batch by changing the gradient accumulation (or the micro batch); the
                job runs the fitted config, the version stays as it is.
            force (bool | None | Unset): Run it even when the memory estimate says it does not fit the runner's memory
                (otherwise such a job is refused with 422 `does_not_fit`).
            name (None | str | Unset): A name for the run (at most 120 characters).
            note (None | str | Unset): A note on the run (at most 4,000 characters).
            tags (list[str] | None | Unset): Tags (at most 16; letters, digits, `-`, `_`, `.`, `:`, `/`).
     """

    template_id: int
    workload: Workload
    version: int | None | Unset = UNSET
    gpus: int | None | Unset = UNSET
    nodes: int | None | Unset = UNSET
    runner: None | str | Unset = UNSET
    max_steps: int | None | Unset = UNSET
    env: JobCreateEnvType0 | None | Unset = UNSET
    secret_env: JobCreateSecretEnvType0 | None | Unset = UNSET
    time_limit_s: int | None | Unset = UNSET
    stall_timeout_s: int | None | Unset = UNSET
    fit_to_runner: bool | None | Unset = UNSET
    force: bool | None | Unset = UNSET
    name: None | str | Unset = UNSET
    note: None | str | Unset = UNSET
    tags: list[str] | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        from ..models.job_create_env_type_0 import JobCreateEnvType0 # noqa: PLC0415
        from ..models.job_create_secret_env_type_0 import JobCreateSecretEnvType0 # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        template_id = self.template_id

        workload = self.workload.to_dict()

        version: int | None | Unset
        if isinstance(self.version, Unset):
            version = UNSET
        else:
            version = self.version

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

        runner: None | str | Unset
        if isinstance(self.runner, Unset):
            runner = UNSET
        else:
            runner = self.runner

        max_steps: int | None | Unset
        if isinstance(self.max_steps, Unset):
            max_steps = UNSET
        else:
            max_steps = self.max_steps

        env: dict[str, Any] | None | Unset
        if isinstance(self.env, Unset):
            env = UNSET
        elif isinstance(self.env, JobCreateEnvType0):
            env = self.env.to_dict()
        else:
            env = self.env

        secret_env: dict[str, Any] | None | Unset
        if isinstance(self.secret_env, Unset):
            secret_env = UNSET
        elif isinstance(self.secret_env, JobCreateSecretEnvType0):
            secret_env = self.secret_env.to_dict()
        else:
            secret_env = self.secret_env

        time_limit_s: int | None | Unset
        if isinstance(self.time_limit_s, Unset):
            time_limit_s = UNSET
        else:
            time_limit_s = self.time_limit_s

        stall_timeout_s: int | None | Unset
        if isinstance(self.stall_timeout_s, Unset):
            stall_timeout_s = UNSET
        else:
            stall_timeout_s = self.stall_timeout_s

        fit_to_runner: bool | None | Unset
        if isinstance(self.fit_to_runner, Unset):
            fit_to_runner = UNSET
        else:
            fit_to_runner = self.fit_to_runner

        force: bool | None | Unset
        if isinstance(self.force, Unset):
            force = UNSET
        else:
            force = self.force

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        note: None | str | Unset
        if isinstance(self.note, Unset):
            note = UNSET
        else:
            note = self.note

        tags: list[str] | None | Unset
        if isinstance(self.tags, Unset):
            tags = UNSET
        elif isinstance(self.tags, list):
            tags = self.tags


        else:
            tags = self.tags


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "template_id": template_id,
            "workload": workload,
        })
        if version is not UNSET:
            field_dict["version"] = version
        if gpus is not UNSET:
            field_dict["gpus"] = gpus
        if nodes is not UNSET:
            field_dict["nodes"] = nodes
        if runner is not UNSET:
            field_dict["runner"] = runner
        if max_steps is not UNSET:
            field_dict["max_steps"] = max_steps
        if env is not UNSET:
            field_dict["env"] = env
        if secret_env is not UNSET:
            field_dict["secret_env"] = secret_env
        if time_limit_s is not UNSET:
            field_dict["time_limit_s"] = time_limit_s
        if stall_timeout_s is not UNSET:
            field_dict["stall_timeout_s"] = stall_timeout_s
        if fit_to_runner is not UNSET:
            field_dict["fit_to_runner"] = fit_to_runner
        if force is not UNSET:
            field_dict["force"] = force
        if name is not UNSET:
            field_dict["name"] = name
        if note is not UNSET:
            field_dict["note"] = note
        if tags is not UNSET:
            field_dict["tags"] = tags

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_create_env_type_0 import JobCreateEnvType0 # noqa: PLC0415
        from ..models.job_create_secret_env_type_0 import JobCreateSecretEnvType0 # noqa: PLC0415
        from ..models.workload import Workload # noqa: PLC0415
        d = dict(src_dict)
        template_id = d.pop("template_id")

        workload = Workload.from_dict(d.pop("workload"))




        def _parse_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        version = _parse_version(d.pop("version", UNSET))


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


        def _parse_runner(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        runner = _parse_runner(d.pop("runner", UNSET))


        def _parse_max_steps(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_steps = _parse_max_steps(d.pop("max_steps", UNSET))


        def _parse_env(data: object) -> JobCreateEnvType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                env_type_0 = JobCreateEnvType0.from_dict(data)



                return env_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobCreateEnvType0 | None | Unset, data)

        env = _parse_env(d.pop("env", UNSET))


        def _parse_secret_env(data: object) -> JobCreateSecretEnvType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                secret_env_type_0 = JobCreateSecretEnvType0.from_dict(data)



                return secret_env_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobCreateSecretEnvType0 | None | Unset, data)

        secret_env = _parse_secret_env(d.pop("secret_env", UNSET))


        def _parse_time_limit_s(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        time_limit_s = _parse_time_limit_s(d.pop("time_limit_s", UNSET))


        def _parse_stall_timeout_s(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        stall_timeout_s = _parse_stall_timeout_s(d.pop("stall_timeout_s", UNSET))


        def _parse_fit_to_runner(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        fit_to_runner = _parse_fit_to_runner(d.pop("fit_to_runner", UNSET))


        def _parse_force(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        force = _parse_force(d.pop("force", UNSET))


        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))


        def _parse_note(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        note = _parse_note(d.pop("note", UNSET))


        def _parse_tags(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                tags_type_0 = cast(list[str], data)

                return tags_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        tags = _parse_tags(d.pop("tags", UNSET))


        job_create = cls(
            template_id=template_id,
            workload=workload,
            version=version,
            gpus=gpus,
            nodes=nodes,
            runner=runner,
            max_steps=max_steps,
            env=env,
            secret_env=secret_env,
            time_limit_s=time_limit_s,
            stall_timeout_s=stall_timeout_s,
            fit_to_runner=fit_to_runner,
            force=force,
            name=name,
            note=note,
            tags=tags,
        )

        return job_create

