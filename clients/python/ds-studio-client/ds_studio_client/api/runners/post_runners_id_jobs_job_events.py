from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.event_ack import EventAck
from ...models.event_batch import EventBatch
from typing import cast



def _get_kwargs(
    id: int,
    job: int,
    *,
    body: EventBatch,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/runners/{id}/jobs/{job}/events".format(id=quote(str(id), safe=""),job=quote(str(job), safe=""),),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | EventAck:
    if response.status_code == 200:
        response_200 = EventAck.from_dict(response.json())



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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | EventAck]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    job: int,
    *,
    client: AuthenticatedClient,
    body: EventBatch,

) -> Response[ErrorBody | EventAck]:
    """ Store a batch of a job's events (duplicates by sequence number are dropped)

    Args:
        id (int):
        job (int):
        body (EventBatch): `POST /api/v1/jobs/{id}/events` (runners): a batch of events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EventAck]
     """


    kwargs = _get_kwargs(
        id=id,
job=job,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: int,
    job: int,
    *,
    client: AuthenticatedClient,
    body: EventBatch,

) -> ErrorBody | EventAck | None:
    """ Store a batch of a job's events (duplicates by sequence number are dropped)

    Args:
        id (int):
        job (int):
        body (EventBatch): `POST /api/v1/jobs/{id}/events` (runners): a batch of events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EventAck
     """


    return sync_detailed(
        id=id,
job=job,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: int,
    job: int,
    *,
    client: AuthenticatedClient,
    body: EventBatch,

) -> Response[ErrorBody | EventAck]:
    """ Store a batch of a job's events (duplicates by sequence number are dropped)

    Args:
        id (int):
        job (int):
        body (EventBatch): `POST /api/v1/jobs/{id}/events` (runners): a batch of events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | EventAck]
     """


    kwargs = _get_kwargs(
        id=id,
job=job,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: int,
    job: int,
    *,
    client: AuthenticatedClient,
    body: EventBatch,

) -> ErrorBody | EventAck | None:
    """ Store a batch of a job's events (duplicates by sequence number are dropped)

    Args:
        id (int):
        job (int):
        body (EventBatch): `POST /api/v1/jobs/{id}/events` (runners): a batch of events.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | EventAck
     """


    return (await asyncio_detailed(
        id=id,
job=job,
client=client,
body=body,

    )).parsed
