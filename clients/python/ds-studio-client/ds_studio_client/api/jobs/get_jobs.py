from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.get_jobs_offload import GetJobsOffload
from ...models.get_jobs_precision import GetJobsPrecision
from ...models.job_page import JobPage
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    template_id: int | Unset = UNSET,
    state: str | Unset = UNSET,
    runner: str | Unset = UNSET,
    deepspeed: str | Unset = UNSET,
    world: int | Unset = UNSET,
    zero_stage: int | Unset = UNSET,
    precision: GetJobsPrecision | Unset = UNSET,
    offload: GetJobsOffload | Unset = UNSET,
    micro_batch: int | Unset = UNSET,
    tag: str | Unset = UNSET,
    q: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    limit: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["template_id"] = template_id

    params["state"] = state

    params["runner"] = runner

    params["deepspeed"] = deepspeed

    params["world"] = world

    params["zero_stage"] = zero_stage

    json_precision: str | Unset = UNSET
    if not isinstance(precision, Unset):
        json_precision = precision.value

    params["precision"] = json_precision

    json_offload: str | Unset = UNSET
    if not isinstance(offload, Unset):
        json_offload = offload.value

    params["offload"] = json_offload

    params["micro_batch"] = micro_batch

    params["tag"] = tag

    params["q"] = q

    params["sort"] = sort

    params["offset"] = offset

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | JobPage:
    if response.status_code == 200:
        response_200 = JobPage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | JobPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    template_id: int | Unset = UNSET,
    state: str | Unset = UNSET,
    runner: str | Unset = UNSET,
    deepspeed: str | Unset = UNSET,
    world: int | Unset = UNSET,
    zero_stage: int | Unset = UNSET,
    precision: GetJobsPrecision | Unset = UNSET,
    offload: GetJobsOffload | Unset = UNSET,
    micro_batch: int | Unset = UNSET,
    tag: str | Unset = UNSET,
    q: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    limit: int | Unset = UNSET,

) -> Response[ErrorBody | JobPage]:
    """ The runs table: jobs filtered and sorted on the server (unknown filters are a 400)

    Args:
        template_id (int | Unset):
        state (str | Unset):
        runner (str | Unset):
        deepspeed (str | Unset):
        world (int | Unset):
        zero_stage (int | Unset):
        precision (GetJobsPrecision | Unset):
        offload (GetJobsOffload | Unset):
        micro_batch (int | Unset):
        tag (str | Unset):
        q (str | Unset):
        sort (str | Unset):
        offset (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobPage]
     """


    kwargs = _get_kwargs(
        template_id=template_id,
state=state,
runner=runner,
deepspeed=deepspeed,
world=world,
zero_stage=zero_stage,
precision=precision,
offload=offload,
micro_batch=micro_batch,
tag=tag,
q=q,
sort=sort,
offset=offset,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    template_id: int | Unset = UNSET,
    state: str | Unset = UNSET,
    runner: str | Unset = UNSET,
    deepspeed: str | Unset = UNSET,
    world: int | Unset = UNSET,
    zero_stage: int | Unset = UNSET,
    precision: GetJobsPrecision | Unset = UNSET,
    offload: GetJobsOffload | Unset = UNSET,
    micro_batch: int | Unset = UNSET,
    tag: str | Unset = UNSET,
    q: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    limit: int | Unset = UNSET,

) -> ErrorBody | JobPage | None:
    """ The runs table: jobs filtered and sorted on the server (unknown filters are a 400)

    Args:
        template_id (int | Unset):
        state (str | Unset):
        runner (str | Unset):
        deepspeed (str | Unset):
        world (int | Unset):
        zero_stage (int | Unset):
        precision (GetJobsPrecision | Unset):
        offload (GetJobsOffload | Unset):
        micro_batch (int | Unset):
        tag (str | Unset):
        q (str | Unset):
        sort (str | Unset):
        offset (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobPage
     """


    return sync_detailed(
        client=client,
template_id=template_id,
state=state,
runner=runner,
deepspeed=deepspeed,
world=world,
zero_stage=zero_stage,
precision=precision,
offload=offload,
micro_batch=micro_batch,
tag=tag,
q=q,
sort=sort,
offset=offset,
limit=limit,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    template_id: int | Unset = UNSET,
    state: str | Unset = UNSET,
    runner: str | Unset = UNSET,
    deepspeed: str | Unset = UNSET,
    world: int | Unset = UNSET,
    zero_stage: int | Unset = UNSET,
    precision: GetJobsPrecision | Unset = UNSET,
    offload: GetJobsOffload | Unset = UNSET,
    micro_batch: int | Unset = UNSET,
    tag: str | Unset = UNSET,
    q: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    limit: int | Unset = UNSET,

) -> Response[ErrorBody | JobPage]:
    """ The runs table: jobs filtered and sorted on the server (unknown filters are a 400)

    Args:
        template_id (int | Unset):
        state (str | Unset):
        runner (str | Unset):
        deepspeed (str | Unset):
        world (int | Unset):
        zero_stage (int | Unset):
        precision (GetJobsPrecision | Unset):
        offload (GetJobsOffload | Unset):
        micro_batch (int | Unset):
        tag (str | Unset):
        q (str | Unset):
        sort (str | Unset):
        offset (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | JobPage]
     """


    kwargs = _get_kwargs(
        template_id=template_id,
state=state,
runner=runner,
deepspeed=deepspeed,
world=world,
zero_stage=zero_stage,
precision=precision,
offload=offload,
micro_batch=micro_batch,
tag=tag,
q=q,
sort=sort,
offset=offset,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    template_id: int | Unset = UNSET,
    state: str | Unset = UNSET,
    runner: str | Unset = UNSET,
    deepspeed: str | Unset = UNSET,
    world: int | Unset = UNSET,
    zero_stage: int | Unset = UNSET,
    precision: GetJobsPrecision | Unset = UNSET,
    offload: GetJobsOffload | Unset = UNSET,
    micro_batch: int | Unset = UNSET,
    tag: str | Unset = UNSET,
    q: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    limit: int | Unset = UNSET,

) -> ErrorBody | JobPage | None:
    """ The runs table: jobs filtered and sorted on the server (unknown filters are a 400)

    Args:
        template_id (int | Unset):
        state (str | Unset):
        runner (str | Unset):
        deepspeed (str | Unset):
        world (int | Unset):
        zero_stage (int | Unset):
        precision (GetJobsPrecision | Unset):
        offload (GetJobsOffload | Unset):
        micro_batch (int | Unset):
        tag (str | Unset):
        q (str | Unset):
        sort (str | Unset):
        offset (int | Unset):
        limit (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | JobPage
     """


    return (await asyncio_detailed(
        client=client,
template_id=template_id,
state=state,
runner=runner,
deepspeed=deepspeed,
world=world,
zero_stage=zero_stage,
precision=precision,
offload=offload,
micro_batch=micro_batch,
tag=tag,
q=q,
sort=sort,
offset=offset,
limit=limit,

    )).parsed
