from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.version import Version
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: int,
    n: str,
    *,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/templates/{id}/versions/{n}".format(id=quote(str(id), safe=""),n=quote(str(n), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | Version:
    if response.status_code == 200:
        response_200 = Version.from_dict(response.json())



        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody | Version]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    n: str,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ErrorBody | Version]:
    """ One immutable version (`n` may be `head`), with an ETag

    Args:
        id (int):
        n (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody | Version]
     """


    kwargs = _get_kwargs(
        id=id,
n=n,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: int,
    n: str,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,

) -> Any | ErrorBody | Version | None:
    """ One immutable version (`n` may be `head`), with an ETag

    Args:
        id (int):
        n (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody | Version
     """


    return sync_detailed(
        id=id,
n=n,
client=client,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    id: int,
    n: str,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | ErrorBody | Version]:
    """ One immutable version (`n` may be `head`), with an ETag

    Args:
        id (int):
        n (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody | Version]
     """


    kwargs = _get_kwargs(
        id=id,
n=n,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: int,
    n: str,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,

) -> Any | ErrorBody | Version | None:
    """ One immutable version (`n` may be `head`), with an ETag

    Args:
        id (int):
        n (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody | Version
     """


    return (await asyncio_detailed(
        id=id,
n=n,
client=client,
if_none_match=if_none_match,

    )).parsed
