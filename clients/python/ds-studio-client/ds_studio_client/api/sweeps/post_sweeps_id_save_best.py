from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.sweep_save_best import SweepSaveBest
from ...models.version import Version
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: int,
    *,
    body: SweepSaveBest | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/sweeps/{id}/save-best".format(id=quote(str(id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | Version:
    if response.status_code == 201:
        response_201 = Version.from_dict(response.json())



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

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | Version]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: SweepSaveBest | Unset = UNSET,

) -> Response[ErrorBody | Version]:
    """ Save the fastest point's config as a new version (merged into the head when the template moved on;
    409 when nothing succeeded yet or a key conflicts)

    Args:
        id (int):
        body (SweepSaveBest | Unset): `POST /api/v1/sweeps/{id}/save-best`: what to write on the
            new version (the body may be
            left out).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Version]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    body: SweepSaveBest | Unset = UNSET,

) -> ErrorBody | Version | None:
    """ Save the fastest point's config as a new version (merged into the head when the template moved on;
    409 when nothing succeeded yet or a key conflicts)

    Args:
        id (int):
        body (SweepSaveBest | Unset): `POST /api/v1/sweeps/{id}/save-best`: what to write on the
            new version (the body may be
            left out).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Version
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: SweepSaveBest | Unset = UNSET,

) -> Response[ErrorBody | Version]:
    """ Save the fastest point's config as a new version (merged into the head when the template moved on;
    409 when nothing succeeded yet or a key conflicts)

    Args:
        id (int):
        body (SweepSaveBest | Unset): `POST /api/v1/sweeps/{id}/save-best`: what to write on the
            new version (the body may be
            left out).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Version]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    body: SweepSaveBest | Unset = UNSET,

) -> ErrorBody | Version | None:
    """ Save the fastest point's config as a new version (merged into the head when the template moved on;
    409 when nothing succeeded yet or a key conflicts)

    Args:
        id (int):
        body (SweepSaveBest | Unset): `POST /api/v1/sweeps/{id}/save-best`: what to write on the
            new version (the body may be
            left out).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Version
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
