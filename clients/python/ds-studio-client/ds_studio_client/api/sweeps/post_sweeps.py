from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.sweep import Sweep
from ...models.sweep_create import SweepCreate
from typing import cast



def _get_kwargs(
    *,
    body: SweepCreate,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/sweeps",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Sweep:
    if response.status_code == 201:
        response_201 = Sweep.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())



        return response_403

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

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Sweep]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: SweepCreate,

) -> Response[ErrorBody | Sweep]:
    """ Start a sweep: a grid over config keys, each point checked by the validator and the memory model
    (pruned with its reason) and the rest queued as jobs tagged `sweep`, spread over the runners given
    (422 when no point can run)

    Args:
        body (SweepCreate): `POST /api/v1/sweeps`: run a grid of configs over a pinned template
            version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Sweep]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: SweepCreate,

) -> ErrorBody | Sweep | None:
    """ Start a sweep: a grid over config keys, each point checked by the validator and the memory model
    (pruned with its reason) and the rest queued as jobs tagged `sweep`, spread over the runners given
    (422 when no point can run)

    Args:
        body (SweepCreate): `POST /api/v1/sweeps`: run a grid of configs over a pinned template
            version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Sweep
     """


    return sync_detailed(
        client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: SweepCreate,

) -> Response[ErrorBody | Sweep]:
    """ Start a sweep: a grid over config keys, each point checked by the validator and the memory model
    (pruned with its reason) and the rest queued as jobs tagged `sweep`, spread over the runners given
    (422 when no point can run)

    Args:
        body (SweepCreate): `POST /api/v1/sweeps`: run a grid of configs over a pinned template
            version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Sweep]
     """


    kwargs = _get_kwargs(
        body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: SweepCreate,

) -> ErrorBody | Sweep | None:
    """ Start a sweep: a grid over config keys, each point checked by the validator and the memory model
    (pruned with its reason) and the rest queued as jobs tagged `sweep`, spread over the runners given
    (422 when no point can run)

    Args:
        body (SweepCreate): `POST /api/v1/sweeps`: run a grid of configs over a pinned template
            version.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Sweep
     """


    return (await asyncio_detailed(
        client=client,
body=body,

    )).parsed
