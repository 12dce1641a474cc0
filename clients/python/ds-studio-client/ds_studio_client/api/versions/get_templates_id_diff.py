from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.diff import Diff
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: int,
    *,
    from_: str,
    to: str,
    to_template: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["to_template"] = to_template


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/templates/{id}/diff".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Diff | ErrorBody:
    if response.status_code == 200:
        response_200 = Diff.from_dict(response.json())



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

    response_default = ErrorBody.from_dict(response.json())



    return response_default



def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Diff | ErrorBody]:
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
    from_: str,
    to: str,
    to_template: int | Unset = UNSET,

) -> Response[Diff | ErrorBody]:
    """ Semantic, text and validation diff of two versions

    Args:
        id (int):
        from_ (str):
        to (str):
        to_template (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Diff | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
from_=from_,
to=to,
to_template=to_template,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    from_: str,
    to: str,
    to_template: int | Unset = UNSET,

) -> Diff | ErrorBody | None:
    """ Semantic, text and validation diff of two versions

    Args:
        id (int):
        from_ (str):
        to (str):
        to_template (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Diff | ErrorBody
     """


    return sync_detailed(
        id=id,
client=client,
from_=from_,
to=to,
to_template=to_template,

    ).parsed

async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    from_: str,
    to: str,
    to_template: int | Unset = UNSET,

) -> Response[Diff | ErrorBody]:
    """ Semantic, text and validation diff of two versions

    Args:
        id (int):
        from_ (str):
        to (str):
        to_template (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Diff | ErrorBody]
     """


    kwargs = _get_kwargs(
        id=id,
from_=from_,
to=to,
to_template=to_template,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    from_: str,
    to: str,
    to_template: int | Unset = UNSET,

) -> Diff | ErrorBody | None:
    """ Semantic, text and validation diff of two versions

    Args:
        id (int):
        from_ (str):
        to (str):
        to_template (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Diff | ErrorBody
     """


    return (await asyncio_detailed(
        id=id,
client=client,
from_=from_,
to=to,
to_template=to_template,

    )).parsed
