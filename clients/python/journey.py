"""A script's journey through ds-studio's REST API with the generated Python client.

Run by `cargo xtask api-client` (and so by `cargo xtask test`) against a real server:

    pip install ./clients/python/ds-studio-client jsonschema
    DS_STUDIO_TOKEN=... python clients/python/journey.py BASE OPENAPI_JSON

Every call goes through `ds_studio_client` (the package generated from `/api/openapi.json`) and
must parse into its model; every answer's body is also validated against the document itself
with `jsonschema`. `mypy --strict` is clean on this file: it is also an example of typed use.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, TypeVar

import httpx
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from ds_studio_client import AuthenticatedClient, Client
from ds_studio_client.api.config import post_validate
from ds_studio_client.api.models import get_models, post_estimate
from ds_studio_client.api.jobs import (
    get_jobs,
    get_jobs_id_logs,
    get_jobs_id_metrics,
    patch_jobs_id,
    post_jobs,
    post_jobs_id_cancel,
)
from ds_studio_client.api.sharing import get_shared_token, post_templates_id_share
from ds_studio_client.api.teams import post_teams
from ds_studio_client.api.templates import post_templates, post_templates_id_fork
from ds_studio_client.api.versions import get_templates_id_diff, post_templates_id_versions
from ds_studio_client.models import (
    CatalogModel,
    Context,
    EstimateRequest,
    EstimateRequestConfig,
    EstimateResponse,
    FitVerdict,
    Lora,
    UserModel,
    Diff,
    ErrorBody,
    Fitted,
    ForkOrigin,
    ForkRequest,
    GetJobsOffload,
    GetJobsPrecision,
    Job,
    JobCreate,
    JobPage,
    JobState,
    LogLine,
    MetricSeries,
    RunLabels,
    ShareCreate,
    ShareCreated,
    SharedView,
    Team,
    TeamCreate,
    Template,
    ValidateRequest,
    ValidateResponse,
    Verdict,
    Version,
    VersionConflictDetails,
    VersionCreate,
    Workload,
)
from ds_studio_client.types import Response

T = TypeVar("T")

CONFIG_V1 = """{
  // the global batch for 8 GPUs
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "optimizer": {"type": "AdamW", "params": {"lr": 0.001, "torch_adam": true}},
  "zero_optimization": {"stage": 2}
}
"""
CONFIG_V2 = CONFIG_V1.replace('"lr": 0.001', '"lr": 0.0005')


def pointer_part(part: str) -> str:
    """`part` as one JSON pointer token."""
    return part.replace("~", "~0").replace("/", "~1")


class Journey:
    def __init__(self, base: str, token: str, document: dict[str, Any]) -> None:
        self.client = AuthenticatedClient(base_url=base, token=token, raise_on_unexpected_status=True)
        self.anonymous = Client(base_url=base, raise_on_unexpected_status=True)
        self.document = document
        self.registry: Registry[Any] = Registry().with_resource(
            "urn:ds-studio", Resource.from_contents(document, default_specification=DRAFT202012)
        )
        self.checked = 0

    def expect(self, response: Response[Any], status: int, model: type[T], method: str, path: str) -> T:
        """The answer has `status`, parses into `model`, and its body is what the document says."""
        assert response.status_code == status, (method, path, response.status_code, response.content[:400])
        parsed = response.parsed
        assert isinstance(parsed, model), (method, path, type(parsed), response.content[:400])
        operation = self.document["paths"][path][method]
        answer = operation["responses"].get(str(status))
        if answer is None:
            pointer = "/components/responses/Error"
        elif "$ref" in answer:
            pointer = answer["$ref"].lstrip("#")
        else:
            pointer = f"/paths/{pointer_part(path)}/{method}/responses/{status}"
        # The schema by its place in the document, so that the references inside it resolve.
        schema_at = f"urn:ds-studio#{pointer}/content/{pointer_part('application/json')}/schema"
        Draft202012Validator({"$ref": schema_at}, registry=self.registry).validate(json.loads(response.content))
        self.checked += 1
        return parsed

    def run(self) -> None:
        c = self.client
        team = self.expect(post_teams.sync_detailed(client=c, body=TeamCreate(name="journey")),
                           201, Team, "post", "/api/v1/teams")

        # Validate, anonymously: the verdict and the diagnostics as models.
        checked = self.expect(
            post_validate.sync_detailed(client=self.anonymous,
                                        body=ValidateRequest(config_text=CONFIG_V1, context=Context(world_size=8))),
            200, ValidateResponse, "post", "/api/v1/validate")
        assert checked.verdict == Verdict.ACCEPTED, checked

        # Your model, anonymously: the catalog, then the estimate of Qwen2.5-7B with LoRA.
        found = self.expect(get_models.sync_detailed(client=self.anonymous, q="qwen 7b"),
                            200, list, "get", "/api/v1/models")
        assert [m.name for m in found] == ["qwen2.5-7b"] and isinstance(found[0], CatalogModel), found
        config = EstimateRequestConfig.from_dict(
            {"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": True},
             "zero_optimization": {"stage": 2}})
        estimated = self.expect(
            post_estimate.sync_detailed(client=self.anonymous, body=EstimateRequest(
                config=config,
                model=UserModel(name="qwen2.5-7b", seq_len=4096,
                                lora=Lora(rank=16, targets=["q_proj", "v_proj"])),
                gpus_per_node=8, gpu_memory_bytes=80 * 2**30)),
            200, EstimateResponse, "post", "/api/v1/estimate")
        assert estimated.model.trainable_params == 16 * (7168 + 4096) * 28, estimated.model
        assert isinstance(estimated.gpu, FitVerdict) and estimated.gpu.fits, estimated.gpu

        # A template, then version 2 on version 1.
        template = self.expect(
            post_templates.sync_detailed(client=c, body=self.template_create(team.id)),
            201, Template, "post", "/api/v1/templates")
        assert template.head_version == 1
        v2 = self.expect(
            post_templates_id_versions.sync_detailed(
                template.id, client=c,
                body=VersionCreate(base_version=1, config_text=CONFIG_V2, message="lower lr")),
            201, Version, "post", "/api/v1/templates/{id}/versions")
        assert v2.version == 2 and v2.config_text == CONFIG_V2

        # A stale push: 409, and the head to merge into in the error's details.
        stale = self.expect(
            post_templates_id_versions.sync_detailed(
                template.id, client=c,
                body=VersionCreate(base_version=1, config_text=CONFIG_V1, message="stale")),
            409, ErrorBody, "post", "/api/v1/templates/{id}/versions")
        assert stale.error.code == "version_conflict", stale
        details = stale.error.details
        assert isinstance(details, VersionConflictDetails), details
        assert details.head_version == 2 and details.head.config_text == CONFIG_V2

        # The diff of 1 → 2 names the learning rate.
        diff = self.expect(
            get_templates_id_diff.sync_detailed(template.id, client=c, from_="1", to="head"),
            200, Diff, "get", "/api/v1/templates/{id}/diff")
        assert [ch.path for ch in diff.changes] == ["/optimizer/params/lr"], diff.changes

        # A share link, opened signed out.
        share = self.expect(
            post_templates_id_share.sync_detailed(template.id, client=c, body=ShareCreate(version=2)),
            201, ShareCreated, "post", "/api/v1/templates/{id}/share")
        shared = self.expect(
            get_shared_token.sync_detailed(share.token, client=self.anonymous),
            200, SharedView, "get", "/api/v1/shared/{token}")
        assert shared.version.version == 2 and shared.template_name == template.name

        # A fork of version 1.
        fork = self.expect(
            post_templates_id_fork.sync_detailed(template.id, client=c,
                                                 body=ForkRequest(name="journey fork", version=1, team_id=team.id)),
            201, Template, "post", "/api/v1/templates/{id}/fork")
        assert isinstance(fork.forked_from, ForkOrigin) and fork.forked_from.version == 1, fork.forked_from

        # A job on 2 GPUs, fitted from the 8 the version was saved for (no runner: it queues).
        job = self.expect(
            post_jobs.sync_detailed(client=c, body=JobCreate(
                template_id=template.id, version=2, workload=Workload(builtin="gpt", size="tiny"),
                gpus=2, max_steps=5, fit_to_runner=True, name="journey run", tags=["journey"])),
            201, Job, "post", "/api/v1/jobs")
        assert job.state == JobState.QUEUED, job.state
        assert isinstance(job.fit, Fitted), job.fit
        assert any(ch.key == "gradient_accumulation_steps" for ch in job.fit.changes), job.fit

        # The runs table, with every filter and a descending sort.
        page = self.expect(
            get_jobs.sync_detailed(
                client=c, template_id=template.id, state="queued,running", deepspeed="0.19.8",
                world=2, zero_stage=2, precision=GetJobsPrecision.FP32, offload=GetJobsOffload.NONE,
                micro_batch=4, tag="journey", q="journey", sort="-final_loss", offset=0, limit=10),
            200, JobPage, "get", "/api/v1/jobs")
        assert [j.id for j in page.items] == [job.id], [j.id for j in page.items]

        # Labels, metrics, logs, cancel.
        labelled = self.expect(
            patch_jobs_id.sync_detailed(job.id, client=c, body=RunLabels(note="from the journey")),
            200, Job, "patch", "/api/v1/jobs/{id}")
        assert labelled.note == "from the journey"
        series = self.expect(get_jobs_id_metrics.sync_detailed(job.id, client=c, max_points=100),
                             200, list, "get", "/api/v1/jobs/{id}/metrics")
        assert all(isinstance(s, MetricSeries) for s in series)
        lines = self.expect(get_jobs_id_logs.sync_detailed(job.id, client=c, tail=50),
                            200, list, "get", "/api/v1/jobs/{id}/logs")
        assert all(isinstance(line, LogLine) for line in lines)
        cancelled = self.expect(post_jobs_id_cancel.sync_detailed(job.id, client=c),
                                200, Job, "post", "/api/v1/jobs/{id}/cancel")
        assert cancelled.state == JobState.CANCELLED, cancelled.state

        # An unknown job: the error envelope, parsed.
        missing = self.expect(post_jobs_id_cancel.sync_detailed(10**12, client=c),
                              404, ErrorBody, "post", "/api/v1/jobs/{id}/cancel")
        assert missing.error.code == "not_found", missing

    @staticmethod
    def template_create(team_id: int) -> Any:
        from ds_studio_client.models import TemplateCreate

        return TemplateCreate(name="journey", team_id=team_id, config_text=CONFIG_V1,
                              message="first", context=Context(world_size=8), tags=["journey"])


def main() -> None:
    base, document_path = sys.argv[1], sys.argv[2]
    with open(document_path, encoding="utf-8") as f:
        document = json.load(f)
    journey = Journey(base, os.environ["DS_STUDIO_TOKEN"], document)
    try:
        journey.run()
    except httpx.HTTPError as e:
        sys.exit(f"journey: {e}")
    print(f"journey: {journey.checked} answers parsed by the client and valid against the document")


if __name__ == "__main__":
    main()
